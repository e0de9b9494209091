//! The battle events, played out at the view's own pace: each event is
//! folded into what the player has been [`Shown`] and given a moment on
//! screen (a step, a roll, a floating damage number). The rules never wait
//! for it; the AI waits for the queue to empty so that every move is seen.

use super::seat::hidden_units;

use crate::battle::UnitId;
use crate::rules::board::Board;
use crate::rules::events::{BattleEvent, BattleEvents, EventCursor};
use crate::rules::log::{Names, event_lines_seen};
use bevy::prelude::*;
use std::collections::{HashSet, VecDeque};

/// The playback alone, without a renderer: what [`Played`] says and when
/// (the sound cues' test runs it headless).
pub fn plugin(app: &mut App) {
    app.add_message::<Played>()
        .add_systems(Startup, start_playback)
        .add_systems(
            Update,
            play_events.in_set(super::frame::ViewSystems::Animate),
        );
}

/// An event the player is shown now, in the order they happened: motion,
/// floating words and sound start from it.
#[derive(Message, Clone, Debug)]
pub struct Played {
    /// The event.
    pub event: BattleEvent,
    /// The animation speed it is shown at (1 normal).
    pub speed: f32,
}

/// Marks what only passes on screen (a missile in flight, a floating
/// word, a burst): dropped when the battle is shown anew.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Passing;

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
    queue: VecDeque<(usize, BattleEvent)>,
    wait: f32,
    /// Animation speed (1 normal; `+`/`-` change it, Space skips).
    pub speed: f32,
    /// Names for the log.
    pub names: Names,
    /// The units whose death timer the player may not see (R10.1).
    pub hidden: HashSet<UnitId>,
    /// The index in [`BattleEvents`] of the next event to show.
    played: usize,
    /// The side whose view is shown (V8.1): only the events it was told.
    side: Option<usize>,
}

impl Playback {
    /// Nothing left to show.
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.wait <= 0.0
    }

    /// How many of the battle's events have been shown.
    pub fn played(&self) -> usize {
        self.played
    }

    /// The log lines of `e`, as the player may see them.
    fn lines(&self, e: &BattleEvent) -> Vec<String> {
        event_lines_seen(e, &self.names, |u| self.hidden.contains(&u))
    }
}

/// Shows the battle as it is now, dropping what was waiting to be shown
/// and what was in the air (a loaded save, a reloaded level).
pub fn restart(world: &mut World) {
    let passing: Vec<Entity> = world
        .query_filtered::<Entity, With<Passing>>()
        .iter(world)
        .collect();
    for entity in passing {
        world.despawn(entity);
    }
    start_playback(world);
}

fn start_playback(world: &mut World) {
    let saved = world
        .get_resource::<crate::settings::Settings>()
        .map(|s| s.speed);
    let speed = world
        .get_resource::<super::frame::PlayOptions>()
        .and_then(|o| o.speed)
        .or(saved)
        .unwrap_or(1.0);
    let played = world.resource::<BattleEvents>().all().len();
    let side = world
        .get_resource::<super::seat::Viewer>()
        .and_then(|v| v.0);
    let playback = Playback {
        side,
        played,
        cursor: world.resource::<BattleEvents>().cursor_at_end(),
        queue: VecDeque::new(),
        wait: 0.0,
        speed,
        names: Names::of(world),
        hidden: hidden_units(world),
    };
    let (mut log, mut log_events) = (vec![], vec![]);
    let events = world.resource::<BattleEvents>();
    for (i, e) in events.read_for(side, &mut Default::default()) {
        for line in playback.lines(e) {
            log.push(line);
            log_events.push(i);
        }
    }
    let board = Board::capture_for(world, side);
    world.insert_resource(Shown {
        board,
        log,
        log_events,
        version: 1,
    });
    world.insert_resource(playback);
}

/// How long an event holds the screen, in seconds at speed 1.
pub fn duration(e: &BattleEvent) -> f32 {
    use BattleEvent::*;
    match e {
        Stepped { .. } => 0.14,
        Faced { .. } => 0.06,
        AttackRolled(_) => 0.4,
        Parried { .. } | ThrowFlight { .. } => 0.35,
        Damaged { .. } | FellDying { .. } | FellStable(_) | Died { .. } => 0.35,
        Shoved { .. } | Dragged { .. } | Disarmed { .. } | KnockedDown { .. } => 0.3,
        Grappled { .. } | GrappleEnded { .. } => 0.25,
        TurnStarted { .. } | RoundStarted { .. } => 0.2,
        // Spells (V11): the orb's flight, a ward's flare, a field laid.
        Spell(s) => {
            use crate::rules::events::SpellEvent;
            match s {
                SpellEvent::Cast { .. } => 0.4,
                SpellEvent::Warded { .. } | SpellEvent::Gripped { .. } => 0.3,
                SpellEvent::Conjured { .. } => 0.3,
                _ => 0.0,
            }
        }
        _ => 0.0,
    }
}

/// Plays the events: new ones are queued; each in turn is folded into
/// [`Shown`], logged, held on screen for its moment and told as
/// [`Played`]. Space plays the whole queue at once (told to nobody: a skip
/// starts no motion and no sound); `+` and `-` change the speed.
pub fn play_events(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    events: Res<BattleEvents>,
    mut playback: ResMut<Playback>,
    mut shown: ResMut<Shown>,
    mut played: MessageWriter<Played>,
) {
    let playback = &mut *playback;
    let side = playback.side;
    playback.queue.extend(
        events
            .read_for(side, &mut playback.cursor)
            .into_iter()
            .map(|(i, e)| (i, e.clone())),
    );
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
        let Some((i, e)) = playback.queue.pop_front() else {
            break;
        };
        shown.board.apply(&e);
        for line in playback.lines(&e) {
            shown.log.push(line);
            shown.log_events.push(i);
        }
        playback.played = i + 1;
        grew = true;
        playback.wait += duration(&e);
        if !skip {
            played.write(Played {
                event: e,
                speed: playback.speed,
            });
        }
    }
    if playback.queue.is_empty() {
        playback.wait = playback.wait.max(0.0);
        // Events kept from this side count as shown (V8.1).
        playback.played = playback.played.max(playback.cursor.0);
    }
    if grew {
        shown.version += 1;
    }
}

/// A unit's picture: follows the unit of this id on the shown board.
#[derive(Component, Clone, Copy, Debug)]
pub struct UnitSprite(pub UnitId);
