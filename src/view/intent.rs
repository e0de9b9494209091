//! The AI's intent on the map, as Into the Breach shows it: an orange
//! trail from each AI unit to where it will end its turn, a red mark on
//! each unit it will strike, and a label with what it expects to take
//! from them ("Gor: Ann -6.1").
//!
//! - During an AI unit's turn: the plan its look-ahead chose
//!   ([`crate::ai::intent::Intent::of_thought`]), set by [`super::turns`]
//!   with each decision, so the marks follow the plan as it unfolds.
//! - During yours, on demand (`/`): what each enemy would do were its
//!   turn now ([`crate::ai::intent::foresee`]), worked out on a copy of
//!   the battle on the AI's worker thread; gone once you act.
//!
//! The view only draws what the AI worked out: no rule is judged here.

use super::coords::{Grid, TILE};
use super::frame::ViewSystems;
use super::overlays::shadowed_words;
use super::playback::UnitSprite;
use super::units::Part;
use crate::ai::Players;
use crate::ai::intent::{Intent, foresee};
use crate::battle::{Battlefield, GridPos, Side};
use crate::rules::{History, TurnState};
use crate::save::SaveGame;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Intents>()
        .init_resource::<Foreseeing>()
        .add_systems(
            Update,
            (ask_for_foresight, receive_foresight, forget_old_foresight)
                .chain()
                .in_set(ViewSystems::Act),
        )
        .add_systems(Update, draw_intents.in_set(ViewSystems::Draw));
}

/// The key that shows what each enemy would do were its turn now.
pub const FORESEE_KEY: KeyCode = KeyCode::Slash;

/// The intents shown on the map.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Intents {
    /// One per AI unit shown.
    pub list: Vec<Intent>,
    /// Asked for with [`FORESEE_KEY`] (not an AI turn's own plan): kept
    /// until the battle moves on.
    pub foreseen: bool,
    /// The battle's command count when they were worked out.
    pub at: usize,
}

/// Enemy intents being worked out off the main thread.
#[derive(Resource, Default)]
struct Foreseeing(Option<Task<Vec<Intent>>>);

/// `/` during a human's turn: works out each enemy's intent; `/` again
/// hides them.
fn ask_for_foresight(world: &mut World) {
    let asked_at_start = world
        .get_resource::<super::frame::PlayOptions>()
        .is_some_and(|o| o.intent)
        && world.resource::<super::playback::Playback>().idle();
    let pressed = world
        .get_resource::<ButtonInput<KeyCode>>()
        .is_some_and(|k| k.just_pressed(FORESEE_KEY));
    if !(pressed || asked_at_start) || world.resource::<Foreseeing>().0.is_some() {
        return;
    }
    if world.resource::<Intents>().foreseen {
        *world.resource_mut::<Intents>() = Intents::default();
        return;
    }
    let Some(players) = world.get_resource::<Players>().cloned() else {
        return;
    };
    let turn = world.resource::<TurnState>();
    let viewer = turn
        .current
        .filter(|_| turn.outcome.is_none())
        .and_then(|u| world.get::<Side>(u))
        .map(|s| s.0)
        .filter(|s| players.of(*s).is_none());
    let Some(viewer) = viewer else {
        return;
    };
    if let Some(mut options) = world.get_resource_mut::<super::frame::PlayOptions>() {
        options.intent = false;
    }
    let save = SaveGame::capture(world);
    let catalog = world.resource::<Battlefield>().0.catalog.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let Ok(mut copy) = save.restore(&catalog) else {
            return vec![];
        };
        foresee(copy.world_mut(), &players, viewer)
    });
    world.resource_mut::<Foreseeing>().0 = Some(task);
}

/// Shows the enemies' intents once worked out.
fn receive_foresight(world: &mut World) {
    let mut foreseeing = world.resource_mut::<Foreseeing>();
    let Some(task) = foreseeing.0.as_mut() else {
        return;
    };
    let Some(list) = block_on(poll_once(task)) else {
        return;
    };
    world.resource_mut::<Foreseeing>().0 = None;
    let at = commands_played(world);
    *world.resource_mut::<Intents>() = Intents {
        list,
        foreseen: true,
        at,
    };
}

/// Foreseen intents hold for the position they were worked out in: gone
/// once a command changes it.
fn forget_old_foresight(mut intents: ResMut<Intents>, history: Option<Res<History>>) {
    let at = history.map_or(0, |h| h.0.len());
    if intents.foreseen && intents.at != at {
        *intents = Intents::default();
    }
}

/// Whether intents asked for are still to be drawn (a screenshot waits).
pub fn busy(world: &World) -> bool {
    let asked = world
        .get_resource::<super::frame::PlayOptions>()
        .is_some_and(|o| o.intent);
    asked
        || world
            .get_resource::<Foreseeing>()
            .is_some_and(|f| f.0.is_some())
}

fn commands_played(world: &World) -> usize {
    world.get_resource::<History>().map_or(0, |h| h.0.len())
}

/// Shows the plan an AI unit's decision chose (`None`: no plan to show,
/// a human's turn).
pub fn show_plan(world: &mut World, intent: Option<Intent>) {
    let at = commands_played(world);
    *world.resource_mut::<Intents>() = Intents {
        list: intent.into_iter().collect(),
        foreseen: false,
        at,
    };
}

/// A mark of an intent on the map.
#[derive(Component, Clone)]
struct IntentMark;

/// Over the units and the overlays' words, under the floating numbers.
const INTENT_Z: f32 = 9.0;
/// The trail to where an AI unit will end its turn.
const TRAIL: Color = Color::srgba(1.0, 0.62, 0.1, 0.95);
/// The size of an intent's words.
const LABEL_SIZE: f32 = 12.0;
/// How far below its end tile's centre an intent's label sits, in tiles.
const LABEL_DROP: f32 = 0.3;
/// The plate under an intent's words.
const LABEL_PLATE: Color = Color::srgba(0.05, 0.04, 0.03, 0.72);
/// The mark on a unit it will strike.
const STRIKE: Color = Color::srgba(0.95, 0.15, 0.1, 0.45);

/// Draws the intents anew when they change.
fn draw_intents(
    intents: Res<Intents>,
    grid: Option<Res<Grid>>,
    old: Query<Entity, With<IntentMark>>,
    units: Query<(&Name, &GridPos), With<crate::battle::UnitId>>,
    parts: Query<(&Part, &Sprite, &GlobalTransform, &InheritedVisibility)>,
    bodies: Query<(&GlobalTransform, &InheritedVisibility), With<UnitSprite>>,
    field: Option<Res<Battlefield>>,
    mut commands: Commands,
) {
    let Some(grid) = grid else { return };
    if !intents.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let at = |name: &str| {
        units
            .iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, p)| p.0)
    };
    // Each figure's body (a tile's middle, n tiles for a big one, V10.6),
    // its own unit's too: a label over a figure hides who stands there,
    // so one is avoided where a spot clear of it is near (a label under
    // its unit's feet still reads as its unit's, by the trail's end tile).
    let bodies: Vec<Rect> = bodies
        .iter()
        .filter(|(_, shown)| shown.get())
        .map(|(at, _)| {
            let (scale, _, at) = at.to_scale_rotation_translation();
            let size = Vec2::new(0.6, 0.8) * TILE * scale.truncate();
            Rect::from_center_size(at.truncate(), size)
        })
        .collect();
    // What no label may cover: every unit's bars and condition icons.
    // Labels placed join the list, so two never overlap either.
    let mut clear: Vec<Rect> = parts
        .iter()
        .filter(|(part, _, _, shown)| matches!(part, Part::BarBack | Part::Icon(_)) && shown.get())
        .map(|(_, sprite, at, _)| {
            let (scale, _, at) = at.to_scale_rotation_translation();
            let size = sprite.custom_size.unwrap_or(Vec2::ZERO) * scale.truncate();
            Rect::from_center_size(at.truncate(), size)
        })
        .collect();
    let map = Rect::from_center_size(Vec2::ZERO, grid.extent());
    for intent in &intents.list {
        let (a, b) = (grid.world(intent.from), grid.world(intent.to));
        dotted(&mut commands, a, b, TRAIL, 5.0);
        if intent.to != intent.from {
            // The tile it will end on, in its trail's colour.
            commands.spawn((
                IntentMark,
                Sprite::from_color(TRAIL.with_alpha(0.35), Vec2::splat(TILE * 0.9)),
                Transform::from_translation(b.extend(INTENT_Z - 0.2)),
            ));
        }
        let mut words = vec![];
        for (target, harm) in intent.targets.iter().filter(|(_, h)| *h >= 0.05) {
            let Some(p) = at(target) else { continue };
            let t = grid.world(p);
            dotted(&mut commands, b, t, STRIKE.with_alpha(0.9), 4.0);
            commands.spawn((
                IntentMark,
                Sprite::from_color(STRIKE, Vec2::splat(TILE * 0.9)),
                Transform::from_translation(t.extend(INTENT_Z - 0.1)),
            ));
            words.push(format!("{target} -{harm:.1}"));
        }
        // The numbers are what each target is expected to lose: said once
        // on the label, so no one needs the README to read it. Where hits
        // injure only (V3 as 001), it is their injuries, counted as HP.
        let measure = if field.as_ref().is_some_and(|f| f.0.rules().injure_only()) {
            "injuries as HP"
        } else {
            "HP+AR"
        };
        let text = if words.is_empty() {
            format!("{}: moves", intent.unit)
        } else {
            format!("{} hits {} ({measure})", intent.unit, words.join(", "))
        };
        // On the tile it will end on, or as near it as is clear of every
        // unit's bars and icons and of the labels placed before it.
        let line = LABEL_SIZE + 2.0;
        let half = text.chars().count() as f32 * LABEL_SIZE * 0.3;
        let size = Vec2::new(2.0 * half + 6.0, line);
        let at = place_label(b - Vec2::Y * TILE * LABEL_DROP, size, &clear, &bodies, map);
        clear.push(Rect::from_center_size(at, size));
        // A dark plate under the words: readable over grass, water, a red
        // strike mark or a figure alike.
        commands.spawn((
            IntentMark,
            Sprite::from_color(LABEL_PLATE, size),
            Transform::from_translation(at.extend(INTENT_Z + 0.05)),
        ));
        let orange = Color::srgb(1.0, 0.85, 0.55);
        shadowed_words(
            &mut commands,
            IntentMark,
            at.extend(INTENT_Z + 0.2),
            &text,
            LABEL_SIZE,
            orange,
        );
    }
}

/// Where a label of `size` wanted at `want` goes: the nearest spot that
/// keeps [`LABEL_GAP`] from each of `clear` (two labels touching read as
/// one line) and is off every one of `figures` (the units' bodies: a
/// label over a figure hides who stands there), looked for a few pixels
/// at a time within two tiles up or down and a tile and a half to either
/// side, nearest first, down before up and right before left at the same
/// distance; kept inside `map`, where a label at its edge would run into
/// the panel. Where no spot off the figures is near, the nearest one
/// clear of `clear` alone does (in a crowd every spot is over someone);
/// where none is, it stays where it was wanted.
fn place_label(want: Vec2, size: Vec2, clear: &[Rect], figures: &[Rect], map: Rect) -> Vec2 {
    let inside = |mut at: Vec2| {
        let half = size / 2.0;
        at.x = at.x.clamp(
            map.min.x + half.x,
            (map.max.x - half.x).max(map.min.x + half.x),
        );
        at.y = at.y.clamp(
            map.min.y + half.y,
            (map.max.y - half.y).max(map.min.y + half.y),
        );
        at
    };
    let off = |at: Vec2, rects: &[Rect], gap: f32| {
        let r = Rect::from_center_size(at, size + Vec2::splat(2.0 * gap));
        rects.iter().all(|c| r.intersect(*c).is_empty())
    };
    const STEP: f32 = 2.0;
    let up = (2.0 * TILE / STEP) as i32;
    let side = (1.5 * TILE / STEP) as i32;
    let mut spots: Vec<(i32, i32)> = (-up..=up)
        .flat_map(|dy| (-side..=side).map(move |dx| (dx, dy)))
        .collect();
    // Nearest first; at the same distance down, then right.
    spots.sort_by_key(|&(dx, dy)| (dx * dx + dy * dy, dy > 0, dx < 0, dy.abs(), dx.abs()));
    let at = |&(dx, dy): &(i32, i32)| inside(want + Vec2::new(dx as f32, dy as f32) * STEP);
    let clear_of = |at: Vec2| off(at, clear, LABEL_GAP);
    spots
        .iter()
        .map(at)
        .find(|p| clear_of(*p) && off(*p, figures, 0.0))
        .or_else(|| spots.iter().map(at).find(|p| clear_of(*p)))
        .unwrap_or_else(|| inside(want))
}

/// Pixels kept between a label and the next label, bar or icon.
const LABEL_GAP: f32 = 2.0;

/// A dotted line from `a` to `b`: the path is left to the animation, the
/// trail only says where.
fn dotted(commands: &mut Commands, a: Vec2, b: Vec2, color: Color, size: f32) {
    let d = b - a;
    let n = (d.length() / (TILE * 0.3)).ceil().max(1.0) as i32;
    for i in 1..n {
        let p = a + d * (i as f32 / n as f32);
        commands.spawn((
            IntentMark,
            Sprite::from_color(color, Vec2::splat(size)),
            Transform::from_translation(p.extend(INTENT_Z)),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: Rect = Rect {
        min: Vec2::splat(-160.0),
        max: Vec2::splat(160.0),
    };

    #[test]
    fn a_label_stays_where_it_is_wanted_when_nothing_is_in_the_way() {
        let at = place_label(Vec2::new(0.0, -10.0), Vec2::new(80.0, 14.0), &[], &[], MAP);
        assert_eq!(at, Vec2::new(0.0, -10.0));
    }

    #[test]
    fn a_label_moves_off_a_units_bars_and_off_the_label_before_it() {
        let size = Vec2::new(80.0, 14.0);
        // The bars of the unit a row below, as `units` draws them.
        let bars = Rect::from_center_size(Vec2::new(0.0, -32.0 + 13.0), Vec2::new(25.0, 6.0));
        let first = Rect::from_center_size(Vec2::new(0.0, -10.0), size);
        let at = place_label(Vec2::new(0.0, -10.0), size, &[bars, first], &[], MAP);
        let label = Rect::from_center_size(at, size);
        assert!(label.intersect(bars).is_empty(), "{at} covers the bars");
        assert!(
            label.intersect(first).is_empty(),
            "{at} covers the first label"
        );
        // Not touching it either: two labels touching read as one line.
        assert!(label.min.y - first.max.y >= LABEL_GAP, "{at} touches it");
        // The nearest clear spot: over the first label (16 px up), nearer
        // than under the bars (22 px down), not a tile away.
        assert_eq!(at, Vec2::new(0.0, 6.0));
    }

    #[test]
    fn a_label_at_the_maps_edge_is_kept_over_the_map() {
        let size = Vec2::new(120.0, 14.0);
        let at = place_label(Vec2::new(150.0, 150.0), size, &[], &[], MAP);
        assert!(Rect::from_center_size(at, size).min.cmpge(MAP.min).all());
        assert!(Rect::from_center_size(at, size).max.cmple(MAP.max).all());
    }

    #[test]
    fn a_label_moves_off_a_figure_where_a_spot_is_near_and_not_off_its_bars() {
        let size = Vec2::new(80.0, 14.0);
        let want = Vec2::new(0.0, -10.0);
        // A figure standing at the label's left end, as on hill, where
        // "Brakka hits Bede" crossed an archer.
        let body = Rect::from_center_size(Vec2::new(-30.0, -6.0), Vec2::new(19.0, 26.0));
        let at = place_label(want, size, &[], &[body], MAP);
        assert!(
            Rect::from_center_size(at, size).intersect(body).is_empty(),
            "{at} crosses the figure"
        );
        assert!(at.distance(want) <= 2.0 * TILE, "{at} went far");
        // In a crowd (figures all round), the label stays as near as the
        // bars allow rather than wandering off: it is the bars it must
        // never cover.
        let crowd: Vec<Rect> = (-4..=4)
            .flat_map(|x| (-4..=4).map(move |y| (x, y)))
            .map(|(x, y)| {
                Rect::from_center_size(
                    Vec2::new(x as f32 * TILE, y as f32 * TILE),
                    Vec2::new(19.0, 26.0),
                )
            })
            .collect();
        let bars = Rect::from_center_size(Vec2::new(0.0, -32.0 + 13.0), Vec2::new(25.0, 6.0));
        let at = place_label(want, size, &[bars], &crowd, MAP);
        let label = Rect::from_center_size(at, size);
        assert!(label.intersect(bars).is_empty(), "{at} covers the bars");
        assert_eq!(at, place_label(want, size, &[bars], &[], MAP));
    }
}
