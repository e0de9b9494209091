//! The battle events, played out at the view's own pace: each event is
//! folded into what the player has been [`Shown`] and given a moment on
//! screen (a step, a roll, a floating damage number). The rules never wait
//! for it; the AI waits for the queue to empty so that every move is seen.

use super::seat::hidden_units;

use super::coords::Grid;
use crate::battle::UnitId;
use crate::rules::board::Board;
use crate::rules::events::{BattleEvent, BattleEvents, EventCursor};
use crate::rules::log::{Names, event_lines_seen};
use bevy::prelude::*;
use std::collections::{HashSet, VecDeque};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, start_playback).add_systems(
        Update,
        (play_events, float_numbers, fly_projectiles).in_set(super::frame::ViewSystems::Animate),
    );
}

/// What the player has been shown: the battle as the events played so far
/// tell it, and the combat log's lines.
#[derive(Resource, Clone, Debug, Default)]
pub struct Shown {
    /// Units where the animation has them.
    pub board: Board,
    /// The combat log, a line per entry.
    pub log: Vec<String>,
    /// For each line of the log, the index of its event in
    /// [`BattleEvents`].
    pub log_events: Vec<usize>,
    /// Bumped each time the log grows (text is rebuilt only then).
    pub version: u64,
}

/// The events waiting to be shown.
#[derive(Resource, Debug)]
pub struct Playback {
    cursor: EventCursor,
    queue: VecDeque<BattleEvent>,
    wait: f32,
    /// Animation speed (1 normal; `+`/`-` change it, Space skips).
    pub speed: f32,
    /// Names for the log.
    pub names: Names,
    /// The units whose death timer the player may not see (R10.1).
    pub hidden: HashSet<UnitId>,
    /// The index in [`BattleEvents`] of the next event to show.
    played: usize,
}

impl Playback {
    /// Nothing left to show.
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.wait <= 0.0
    }

    /// The log lines of `e`, as the player may see them.
    fn lines(&self, e: &BattleEvent) -> Vec<String> {
        event_lines_seen(e, &self.names, |u| self.hidden.contains(&u))
    }
}

/// A unit's sprite lunging toward what it attacks (R7), for a moment.
#[derive(Component, Clone, Copy, Debug)]
pub struct Bump {
    /// Toward the target, unit length.
    pub toward: Vec2,
    /// Seconds since it began.
    pub age: f32,
}

/// How long a lunge toward the target lasts, in seconds.
pub const BUMP: f32 = 0.25;

/// A thrown object in flight (R9.1), bouncing on to where it scatters
/// (R9.3).
#[derive(Component)]
struct Projectile {
    waypoints: Vec<Vec2>,
    age: f32,
    duration: f32,
}

/// A number or word rising from a unit and fading.
#[derive(Component)]
struct Floating {
    age: f32,
    unit: UnitId,
}

/// How long a floating word stays, in seconds at speed 1.
const FLOAT_LIFE: f32 = 1.2;

/// Shows the battle as it is now, dropping what was waiting to be shown
/// and what was in the air (a loaded save, a reloaded level).
pub fn restart(world: &mut World) {
    let passing: Vec<Entity> = world
        .query_filtered::<Entity, Or<(With<Floating>, With<Projectile>)>>()
        .iter(world)
        .collect();
    for entity in passing {
        world.despawn(entity);
    }
    start_playback(world);
}

fn start_playback(world: &mut World) {
    let speed = world
        .get_resource::<super::frame::PlayOptions>()
        .map_or(1.0, |o| o.speed);
    let played = world.resource::<BattleEvents>().all().len();
    let playback = Playback {
        played,
        cursor: world.resource::<BattleEvents>().cursor_at_end(),
        queue: VecDeque::new(),
        wait: 0.0,
        speed,
        names: Names::of(world),
        hidden: hidden_units(world),
    };
    let (mut log, mut log_events) = (vec![], vec![]);
    for (i, e) in world.resource::<BattleEvents>().all().iter().enumerate() {
        for line in playback.lines(e) {
            log.push(line);
            log_events.push(i);
        }
    }
    let board = Board::capture(world);
    world.insert_resource(Shown {
        board,
        log,
        log_events,
        version: 1,
    });
    world.insert_resource(playback);
}

/// How long an event holds the screen, in seconds at speed 1.
fn duration(e: &BattleEvent) -> f32 {
    use BattleEvent::*;
    match e {
        Stepped { .. } => 0.14,
        Faced { .. } => 0.06,
        AttackRolled(_) => 0.4,
        Parried { .. } | ThrowFlight { .. } => 0.35,
        Damaged { .. } | FellDying { .. } | Died { .. } => 0.35,
        TurnStarted { .. } | RoundStarted { .. } => 0.2,
        _ => 0.0,
    }
}

/// The floating text an event shows over a unit, if any.
fn float_of(e: &BattleEvent) -> Option<(UnitId, String, Color)> {
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
        FellDying { unit, .. } => Some((*unit, "falls".into(), red)),
        Died { unit } => Some((*unit, "dies".into(), red)),
        _ => None,
    }
}

/// Plays the events: new ones are queued; each in turn is folded into
/// [`Shown`], logged, and held on screen for its moment. Space plays the
/// whole queue at once; `+` and `-` change the speed.
fn play_events(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    events: Res<BattleEvents>,
    mut playback: ResMut<Playback>,
    mut shown: ResMut<Shown>,
    grid: Option<Res<Grid>>,
    sprites: Query<(Entity, &UnitSprite)>,
    floats: Query<&Floating>,
    mut commands: Commands,
) {
    let playback = &mut *playback;
    // Words already rising over each unit: a new one starts above them
    // rather than on top of them.
    let mut stacked: std::collections::HashMap<UnitId, usize> = default();
    for f in &floats {
        *stacked.entry(f.unit).or_default() += 1;
    }
    playback
        .queue
        .extend(events.read(&mut playback.cursor).iter().cloned());
    if keys.just_pressed(KeyCode::Equal) || keys.just_pressed(KeyCode::NumpadAdd) {
        playback.speed = (playback.speed * 2.0).min(64.0);
    }
    if keys.just_pressed(KeyCode::Minus) || keys.just_pressed(KeyCode::NumpadSubtract) {
        playback.speed = (playback.speed / 2.0).max(0.25);
    }
    let skip = keys.just_pressed(KeyCode::Space);
    playback.wait -= time.delta_secs() * playback.speed;
    let mut grew = false;
    while playback.wait <= 0.0 || skip {
        let Some(e) = playback.queue.pop_front() else {
            break;
        };
        shown.board.apply(&e);
        for line in playback.lines(&e) {
            shown.log.push(line);
            shown.log_events.push(playback.played);
        }
        playback.played += 1;
        grew = true;
        if let (Some((unit, text, color)), Some(grid)) = (float_of(&e), grid.as_ref())
            && let Some(u) = shown.board.unit(unit)
            && !skip
        {
            let above = stacked.entry(unit).or_default();
            let lift = Vec2::Y * 14.0 * (*above % 4) as f32;
            *above += 1;
            commands.spawn((
                Floating { age: 0.0, unit },
                Text2d::new(text),
                TextFont {
                    font_size: FontSize::Px(16.0),
                    ..default()
                },
                TextColor(color),
                Transform::from_translation((grid.world(u.at) + lift).extend(20.0)),
            ));
        }
        if !skip && let Some(grid) = grid.as_ref() {
            animate(
                &e,
                grid,
                &shown.board,
                &sprites,
                &mut commands,
                playback.speed,
            );
        }
        playback.wait += duration(&e);
    }
    if playback.queue.is_empty() {
        playback.wait = playback.wait.max(0.0);
    }
    if grew {
        shown.version += 1;
    }
}

/// Floating words rise and fade; faster at a higher playback speed (up to
/// 4x), so that they do not pile up when events come quickly.
fn float_numbers(
    time: Res<Time>,
    playback: Res<Playback>,
    mut floats: Query<(Entity, &mut Floating, &mut Transform, &mut TextColor)>,
    mut commands: Commands,
) {
    let dt = time.delta_secs() * playback.speed.clamp(1.0, 4.0);
    for (e, mut f, mut t, mut color) in &mut floats {
        f.age += dt;
        t.translation.y += 30.0 * dt;
        color.0.set_alpha((1.0 - f.age / FLOAT_LIFE).max(0.0));
        if f.age > FLOAT_LIFE {
            commands.entity(e).despawn();
        }
    }
}

/// The motion an event starts: the attacker's lunge, a throw's flight.
fn animate(
    e: &BattleEvent,
    grid: &Grid,
    board: &Board,
    sprites: &Query<(Entity, &UnitSprite)>,
    commands: &mut Commands,
    speed: f32,
) {
    match e {
        BattleEvent::AttackRolled(a) => {
            let Some((sprite, _)) = sprites.iter().find(|(_, s)| s.0 == a.attacker) else {
                return;
            };
            let from = board.unit(a.attacker).map_or(a.from, |u| u.at);
            let toward = (grid.world(a.at) - grid.world(from)).normalize_or_zero();
            commands.entity(sprite).insert(Bump { toward, age: 0.0 });
        }
        BattleEvent::ThrowFlight {
            from,
            aimed,
            landing,
            ..
        } => {
            let mut waypoints = vec![grid.world(*from), grid.world(*aimed)];
            if landing != aimed {
                waypoints.push(grid.world(*landing));
            }
            commands.spawn((
                Projectile {
                    waypoints,
                    age: 0.0,
                    duration: 0.35 / speed.max(0.01),
                },
                Sprite::from_color(Color::srgb(0.95, 0.95, 0.8), Vec2::splat(6.0)),
                Transform::from_translation(grid.world(*from).extend(15.0)),
            ));
        }
        _ => {}
    }
}

fn fly_projectiles(
    time: Res<Time>,
    mut flying: Query<(Entity, &mut Projectile, &mut Transform)>,
    mut commands: Commands,
) {
    for (e, mut p, mut t) in &mut flying {
        p.age += time.delta_secs();
        let legs = (p.waypoints.len() - 1).max(1) as f32;
        let progress = (p.age / p.duration).clamp(0.0, 1.0) * legs;
        let leg = (progress.floor() as usize).min(p.waypoints.len() - 2);
        let along = progress - leg as f32;
        let at = p.waypoints[leg].lerp(p.waypoints[leg + 1], along);
        // A little arc: higher in the middle of each leg.
        let lift = (along * std::f32::consts::PI).sin() * 10.0;
        t.translation = (at + Vec2::Y * lift).extend(15.0);
        if p.age >= p.duration {
            commands.entity(e).despawn();
        }
    }
}

/// A unit's picture: follows the unit of this id on the shown board.
#[derive(Component, Clone, Copy, Debug)]
pub struct UnitSprite(pub UnitId);
