//! Floating words over the units ("-4", "miss", "parried", "falls"): each
//! takes the lowest free line over its unit that overlaps no word on
//! screen, its own unit's or a neighbour's; with every line up to
//! [`STACK`] taken, it waits its turn. So words never overlap, at any
//! speed: faster play only makes them go sooner.

use super::coords::{Grid, TILE};
use super::playback::{Passing, Played, Shown};
use crate::battle::UnitId;
use crate::rules::events::BattleEvent;
use bevy::math::Rect;
use bevy::prelude::*;
use std::collections::VecDeque;

/// The words, placed and aged (no renderer needed: a test runs it).
pub fn plugin(app: &mut App) {
    app.init_resource::<Waiting>().add_systems(
        Update,
        (queue_words, place_words, age_words)
            .chain()
            .in_set(super::frame::ViewSystems::Animate)
            .after(super::playback::play_events),
    );
}

/// A word on screen, over its unit.
#[derive(Component, Clone, Debug)]
pub struct Floating {
    /// Whose.
    pub unit: UnitId,
    /// The room it holds, world units, for its whole life (its small rise
    /// included).
    pub rect: Rect,
    /// Runs once for the word's life.
    clock: Timer,
}

/// Whether no word is on screen or waiting: a settled screenshot waits for
/// the last ones to fade (they go in [`LIFE`] seconds in play).
pub fn settled(world: &mut World) -> bool {
    world.resource::<Waiting>().0.is_empty()
        && world
            .query_filtered::<(), With<Floating>>()
            .iter(world)
            .next()
            .is_none()
}

/// Words waiting for a free line, in the order they came.
#[derive(Resource, Clone, Debug, Default)]
pub struct Waiting(pub VecDeque<(UnitId, String, Color, f32)>);

/// The words' font size, world units.
const FONT: f32 = 14.0;
/// The width of a character of the built-in font (Fira Mono: 0.6 em).
const ADVANCE: f32 = FONT * 0.6;
/// A line's height.
const LINE: f32 = FONT + 2.0;
/// How far a word rises as it appears.
const RISE: f32 = 4.0;
/// Lines over a unit: more, and a word waits.
pub const STACK: usize = 4;
/// How long a word stays, in seconds at speed 1.
const LIFE: f32 = 1.2;
/// The words' z: over everything on the map.
const WORD_Z: f32 = 20.0;

/// The room a word `text` takes with its bottom left at `at`.
fn room(text: &str, at: Vec2) -> Rect {
    let wide = text.chars().count() as f32 * ADVANCE;
    Rect::new(at.x, at.y, at.x + wide, at.y + LINE + RISE)
}

/// Where a word of `size` goes over a unit at `anchor` (the middle of
/// its first line's bottom): the lowest of [`STACK`] lines clear of every
/// word in `taken`, or none.
pub fn free_line(taken: &[Rect], anchor: Vec2, text: &str) -> Option<Rect> {
    (0..STACK).find_map(|line| {
        let wide = text.chars().count() as f32 * ADVANCE;
        let at = anchor + Vec2::new(-wide / 2.0, line as f32 * (LINE + RISE));
        let r = room(text, at);
        taken.iter().all(|t| t.intersect(r).is_empty()).then_some(r)
    })
}

/// The word an event shows over a unit, if any.
pub fn word_of(e: &BattleEvent) -> Option<(UnitId, String, Color)> {
    use BattleEvent::*;
    let red = Color::srgb(1.0, 0.35, 0.3);
    match e {
        Damaged { unit, amount, .. } => Some((*unit, format!("-{amount}"), red)),
        Healed {
            unit,
            before,
            after,
            ..
        } => Some((
            *unit,
            format!("+{}", after - before),
            Color::srgb(0.4, 1.0, 0.4),
        )),
        AttackRolled(a) if a.degrees == 0 => a
            .target
            .map(|t| (t, "miss".into(), Color::srgb(0.85, 0.85, 0.85))),
        Parried {
            unit, degrees_left, ..
        } => Some((
            *unit,
            if *degrees_left == 0 {
                "parried".into()
            } else {
                "parry".into()
            },
            Color::srgb(0.6, 0.8, 1.0),
        )),
        FellDying { unit, .. } | FellStable(unit) => Some((*unit, "falls".into(), red)),
        Died { unit } => Some((*unit, "dies".into(), red)),
        _ => None,
    }
}

/// Each played event's word joins the queue.
fn queue_words(mut played: MessageReader<Played>, mut waiting: ResMut<Waiting>) {
    for p in played.read() {
        if let Some((unit, text, color)) = word_of(&p.event) {
            waiting.0.push_back((unit, text, color, p.speed));
        }
    }
}

/// The waiting words that have a free line take it, in order; one that
/// has none waits, and so do the words after it over the same unit (a
/// unit's words keep their order).
fn place_words(
    grid: Option<Res<Grid>>,
    shown: Option<Res<Shown>>,
    mut waiting: ResMut<Waiting>,
    words: Query<&Floating>,
    mut commands: Commands,
) {
    let (Some(grid), Some(shown)) = (grid, shown) else {
        waiting.0.clear();
        return;
    };
    let mut taken: Vec<Rect> = words.iter().map(|w| w.rect).collect();
    let mut blocked: Vec<UnitId> = vec![];
    let mut still = VecDeque::new();
    for (unit, text, color, speed) in waiting.0.drain(..) {
        let Some(u) = shown.board.unit(unit) else {
            continue;
        };
        let anchor = grid.world(u.at) + Vec2::Y * TILE * 0.6;
        let line = (!blocked.contains(&unit))
            .then(|| free_line(&taken, anchor, &text))
            .flatten();
        let Some(rect) = line else {
            blocked.push(unit);
            still.push_back((unit, text, color, speed));
            continue;
        };
        taken.push(rect);
        commands.spawn((
            Passing,
            Floating {
                unit,
                rect,
                // Faster play, shorter words (up to four times).
                clock: Timer::from_seconds(LIFE / speed.clamp(1.0, 4.0), TimerMode::Once),
            },
            Text2d::new(text),
            TextFont {
                font_size: FontSize::Px(FONT),
                ..default()
            },
            TextColor(color),
            bevy::sprite::Anchor::BOTTOM_LEFT,
            Transform::from_translation(rect.min.extend(WORD_Z)),
        ));
    }
    waiting.0 = still;
}

/// Words rise into their line as they appear and fade at the end of
/// their life.
fn age_words(
    time: Res<Time>,
    mut words: Query<(Entity, &mut Floating, &mut Transform, &mut TextColor)>,
    mut commands: Commands,
) {
    for (e, mut w, mut t, mut color) in &mut words {
        w.clock.tick(time.delta());
        let k = w.clock.fraction();
        t.translation.y = w.rect.min.y + RISE * (k * 4.0).min(1.0);
        color
            .0
            .set_alpha((1.0 - (k - 0.7).max(0.0) / 0.3).clamp(0.0, 1.0));
        if w.clock.is_finished() {
            commands.entity(e).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_takes_the_lowest_free_line_and_waits_when_none_is() {
        let anchor = Vec2::new(0.0, 0.0);
        let first = free_line(&[], anchor, "miss").unwrap();
        let second = free_line(&[first], anchor, "-4").unwrap();
        assert!(second.min.y >= first.max.y, "over the first");
        // A neighbour's word, a tile to the right: wide enough to reach
        // over this unit, so this unit's next word goes above it.
        let neighbour = free_line(&[first, second], anchor + Vec2::X * TILE, "parried").unwrap();
        assert!(neighbour.intersect(first).is_empty() && neighbour.intersect(second).is_empty());
        let mut taken = vec![];
        for _ in 0..STACK {
            taken.push(free_line(&taken, anchor, "-10").unwrap());
        }
        assert_eq!(free_line(&taken, anchor, "-10"), None, "all lines taken");
    }
}
