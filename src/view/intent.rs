//! The AI's intent on the map, as Into the Breach shows it: an orange
//! trail from each AI unit to where it will end its turn, a red mark on
//! each unit it will strike, and a label with what it expects to take
//! from them ("Gor hits Ann -6.1"); a key under the log, shown with the
//! marks, says what each mark and number means.
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
use super::labels::{Crowd, LABEL_PLATE, label_size, place_label};
use super::overlays::shadowed_words;
use super::theme::{legend_item, legend_row, text};
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
            (
                ask_for_foresight,
                receive_foresight,
                forget_old_foresight,
                forget_finished_plan,
            )
                .chain()
                .in_set(ViewSystems::Act),
        )
        .add_systems(
            Update,
            (draw_intents, show_intent_key).in_set(ViewSystems::Draw),
        );
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

/// Enemy intents being worked out off the main thread, with the battle's
/// command count when they were asked for.
#[derive(Resource, Default)]
struct Foreseeing(Option<(usize, Task<Vec<Intent>>)>);

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
    let at = commands_played(world);
    let save = SaveGame::capture(world);
    let catalog = world.resource::<Battlefield>().0.catalog.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let Ok(mut copy) = save.restore(&catalog) else {
            return vec![];
        };
        foresee(copy.world_mut(), &players, viewer)
    });
    world.resource_mut::<Foreseeing>().0 = Some((at, task));
}

/// Shows the enemies' intents once worked out.
fn receive_foresight(world: &mut World) {
    let mut foreseeing = world.resource_mut::<Foreseeing>();
    let Some((at, task)) = foreseeing.0.as_mut() else {
        return;
    };
    let at = *at;
    let Some(list) = block_on(poll_once(task)) else {
        return;
    };
    world.resource_mut::<Foreseeing>().0 = None;
    // Marked with the position they were asked of: if a command was
    // played meanwhile, `forget_old_foresight` drops them at once.
    *world.resource_mut::<Intents>() = Intents {
        list,
        foreseen: true,
        at,
    };
}

/// Foreseen intents hold for the position they were asked of: gone once a
/// command changes it (or was played while they were worked out).
fn forget_old_foresight(mut intents: ResMut<Intents>, history: Option<Res<History>>) {
    let at = history.map_or(0, |h| h.0.len());
    if intents.foreseen && intents.at != at {
        *intents = Intents::default();
    }
}

/// An AI turn's plan is its unit's: gone once the turn passes to another
/// unit (not left on the map while the next one thinks) or the battle
/// ends. The one place a plan ends; the AI only sends the command that
/// passes the turn once the last one has been shown.
fn forget_finished_plan(
    mut intents: ResMut<Intents>,
    turn: Option<Res<TurnState>>,
    names: Query<&Name>,
) {
    let Some(plan) = intents.list.first().filter(|_| !intents.foreseen) else {
        return;
    };
    let acting = turn
        .filter(|t| t.outcome.is_none())
        .and_then(|t| t.current)
        .and_then(|u| names.get(u).ok());
    if acting.is_none_or(|name| name.as_str() != plan.unit) {
        *intents = Intents::default();
    }
}

/// Forgets the foreseen intents, shown or being worked out: F9 put another
/// battle in place, whose command count may be the same.
pub(super) fn forget_foresight(world: &mut World) {
    if let Some(mut foreseeing) = world.get_resource_mut::<Foreseeing>() {
        foreseeing.0 = None;
    }
    if let Some(mut intents) = world.get_resource_mut::<Intents>()
        && intents.foreseen
    {
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
/// The mark on a unit it will strike.
const STRIKE: Color = Color::srgba(0.95, 0.15, 0.1, 0.45);

/// Draws the intents anew when they change.
fn draw_intents(
    intents: Res<Intents>,
    grid: Option<Res<Grid>>,
    old: Query<Entity, With<IntentMark>>,
    units: Query<(&Name, &GridPos), With<crate::battle::UnitId>>,
    crowd: Crowd,
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
    let bodies = crowd.figures();
    // What no label may cover: every unit's bars and condition icons.
    // Labels placed join the list, so two never overlap either.
    let mut clear = crowd.bars_and_icons();
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
        // The numbers are what each target is expected to lose: the key
        // under the log, shown with the marks, says in what.
        let text = label(intent, &words);
        // On the tile it will end on, or as near it as is clear of every
        // unit's bars and icons and of the labels placed before it.
        let size = label_size(&text, LABEL_SIZE);
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

/// An intent's label: whom it hits and by how much (`words`), else
/// whether it moves or holds its ground.
fn label(intent: &Intent, words: &[String]) -> String {
    if !words.is_empty() {
        format!("{} hits {}", intent.unit, words.join(", "))
    } else if intent.to == intent.from {
        format!("{}: holds", intent.unit)
    } else {
        format!("{}: moves", intent.unit)
    }
}

/// What an intent's numbers count: HP and AR, or where hits injure only
/// (V3 as 001) the injuries, counted as HP.
fn measure(field: Option<&Battlefield>) -> &'static str {
    if field.is_some_and(|f| f.0.rules().injure_only()) {
        "injuries as HP"
    } else {
        "HP+AR"
    }
}

/// The key to the intent marks, in the legend under the log: shown while
/// intents are on the map, so a player reads them without the README.
#[derive(Component)]
pub(super) struct IntentKey;

/// Said in the key's place when `/` found no enemy to foresee: none that
/// your side sees (V8.1, V8.10) is in action.
#[derive(Component)]
pub(super) struct NoIntentSeen;

/// Spawns the (hidden) key to the intent marks into the legend, naming
/// what their numbers count on this level.
pub(super) fn spawn_intent_key(
    legend: &mut ChildSpawnerCommands,
    field: Option<&Battlefield>,
    color: Color,
) {
    let numbers = format!(
        "-5.5 ({}): what its target loses, on average",
        measure(field)
    );
    // Each item: its swatch (the trail's dots, the strike's square; none
    // for the title and the numbers), then its words.
    let items: [(&[(Color, f32)], String); 4] = [
        (&[], "AI intent:".into()),
        (&[(TRAIL, 5.0); 3], "where it ends".into()),
        (&[(STRIKE.with_alpha(0.9), 10.0)], "whom it strikes".into()),
        (&[], numbers),
    ];
    legend.spawn((
        NoIntentSeen,
        Text::new("AI intent: no enemy your side sees can act (V8.1)"),
        text(12.0, color),
        Node {
            display: Display::None,
            ..default()
        },
    ));
    legend
        .spawn((
            IntentKey,
            Node {
                display: Display::None,
                ..legend_row()
            },
        ))
        .with_children(|row| {
            for (swatch, words) in items {
                row.spawn(legend_item()).with_children(|item| {
                    for &(c, size) in swatch {
                        item.spawn((
                            Node {
                                width: px(size),
                                height: px(size),
                                ..default()
                            },
                            BackgroundColor(c),
                        ));
                    }
                    item.spawn((Text::new(words), text(12.0, color)));
                });
            }
        });
}

/// Shows the key while intents are on the map, or, where `/` found none
/// to show, says so.
fn show_intent_key(
    intents: Res<Intents>,
    mut key: Query<&mut Node, (With<IntentKey>, Without<NoIntentSeen>)>,
    mut none: Query<&mut Node, (With<NoIntentSeen>, Without<IntentKey>)>,
) {
    if !intents.is_changed() {
        return;
    }
    let display = |shown: bool| if shown { Display::Flex } else { Display::None };
    for mut node in &mut key {
        node.display = display(!intents.list.is_empty());
    }
    for mut node in &mut none {
        node.display = display(intents.foreseen && intents.list.is_empty());
    }
}

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
    use crate::grid::Pos;
    use crate::rules::{Command, Outcome};
    use bevy::tasks::TaskPool;

    fn intents(foreseen: bool, at: usize) -> Intents {
        let from = Pos::new(1, 1);
        Intents {
            list: vec![Intent {
                unit: "Orc".into(),
                from,
                to: from,
                targets: vec![],
            }],
            foreseen,
            at,
        }
    }

    /// A world with one command played, `shown` on the map and a
    /// foresight asked for `asked_at` commands in, its answer ready.
    fn world_with(shown: Intents, asked_at: usize) -> World {
        let pool = AsyncComputeTaskPool::get_or_init(TaskPool::default);
        let answer = intents(true, asked_at).list;
        let task = pool.spawn(async move { answer });
        let mut world = World::new();
        world.insert_resource(History(vec![Command::EndTurn]));
        world.insert_resource(shown);
        world.insert_resource(Foreseeing(Some((asked_at, task))));
        world
    }

    /// Until the foresight in flight is answered, then once more.
    fn receive_and_forget(world: &mut World) {
        while world.resource::<Foreseeing>().0.is_some() {
            receive_foresight(world);
        }
        world
            .run_system_cached(forget_old_foresight)
            .expect("forgetting runs");
    }

    #[test]
    fn foreseen_intents_hold_only_for_the_position_they_were_asked_of() {
        // Asked of this position: shown.
        let mut world = world_with(Intents::default(), 1);
        receive_and_forget(&mut world);
        assert_eq!(*world.resource::<Intents>(), intents(true, 1));
        // Asked before the command played while they were worked out:
        // dropped, not shown as this position's.
        let mut world = world_with(Intents::default(), 0);
        receive_and_forget(&mut world);
        assert_eq!(*world.resource::<Intents>(), Intents::default());
        // F9 (a battle as long): forgotten, shown or in flight.
        let mut world = world_with(intents(true, 1), 1);
        forget_foresight(&mut world);
        assert_eq!(*world.resource::<Intents>(), Intents::default());
        assert!(world.resource::<Foreseeing>().0.is_none());
        // An AI turn's own plan is not foresight: the turns code ends it.
        let mut world = world_with(intents(false, 0), 1);
        forget_foresight(&mut world);
        assert_eq!(*world.resource::<Intents>(), intents(false, 0));
    }

    #[test]
    fn the_key_to_the_marks_is_shown_while_intents_are_drawn() {
        let mut world = World::new();
        world.init_resource::<Intents>();
        let key = world
            .spawn((
                IntentKey,
                Node {
                    display: Display::None,
                    ..default()
                },
            ))
            .id();
        let show = |world: &mut World, shown: Intents| {
            *world.resource_mut::<Intents>() = shown;
            world
                .run_system_cached(show_intent_key)
                .expect("the key's system runs");
            world.get::<Node>(key).unwrap().display
        };
        assert_eq!(show(&mut world, intents(true, 0)), Display::Flex);
        assert_eq!(show(&mut world, Intents::default()), Display::None);
        // An AI turn's own plan is drawn, and keyed, as well.
        assert_eq!(show(&mut world, intents(false, 0)), Display::Flex);
        // `/` found no enemy to foresee (none in sight, V8.10): no key,
        // and the line that says so instead.
        let none = world
            .spawn((
                NoIntentSeen,
                Node {
                    display: Display::None,
                    ..default()
                },
            ))
            .id();
        let nothing = Intents {
            foreseen: true,
            ..default()
        };
        assert_eq!(show(&mut world, nothing), Display::None);
        assert_eq!(world.get::<Node>(none).unwrap().display, Display::Flex);
        show(&mut world, intents(true, 0));
        assert_eq!(world.get::<Node>(none).unwrap().display, Display::None);
    }

    #[test]
    fn an_ai_turns_plan_goes_when_the_turn_passes() {
        let mut world = World::new();
        let orc = world.spawn(Name::new("Orc")).id();
        let elf = world.spawn(Name::new("Elf")).id();
        world.insert_resource(TurnState {
            current: Some(orc),
            ..default()
        });
        let forget = |world: &mut World, shown: Intents| {
            *world.resource_mut::<Intents>() = shown;
            world
                .run_system_cached(forget_finished_plan)
                .expect("forgetting runs");
            world.resource::<Intents>().clone()
        };
        world.init_resource::<Intents>();
        // The Orc's own turn: its plan stays.
        assert_eq!(forget(&mut world, intents(false, 0)), intents(false, 0));
        // The Elf's turn: the Orc's plan is done.
        world.resource_mut::<TurnState>().current = Some(elf);
        assert_eq!(forget(&mut world, intents(false, 0)), Intents::default());
        // Foreseen intents are every enemy's: the turn does not end them.
        assert_eq!(forget(&mut world, intents(true, 0)), intents(true, 0));
        // The battle over on the Orc's turn: its plan is done.
        world.resource_mut::<TurnState>().current = Some(orc);
        world.resource_mut::<TurnState>().outcome = Some(Outcome::Draw);
        assert_eq!(forget(&mut world, intents(false, 0)), Intents::default());
    }

    #[test]
    fn a_label_says_whom_it_hits_else_whether_it_moves() {
        let holds = intents(false, 0).list.remove(0);
        assert_eq!(label(&holds, &[]), "Orc: holds");
        let moves = Intent {
            to: Pos::new(2, 1),
            ..holds.clone()
        };
        assert_eq!(label(&moves, &[]), "Orc: moves");
        let words = ["Ann -6.1".to_string()];
        assert_eq!(label(&moves, &words), "Orc hits Ann -6.1");
    }
}
