//! Whose move it is: AI sides play through the same commands as a player,
//! one command at a time once the last one has been shown; every accepted
//! command goes to the battle's history, written as a replay with
//! `--record`.

use super::PlayOptions;
use super::playback::Playback;
use crate::ai::{Players, next_command};
use crate::rules::Command;
use crate::save::{History, Replay, play, to_ron};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (play_ai_command, record_replay)
            .chain()
            .in_set(super::ViewSystems::Act),
    );
}

/// The AI's next command, once everything so far has been shown. A
/// decision takes a few milliseconds (`cargo bench --bench ai`).
fn play_ai_command(world: &mut World) {
    if !world.resource::<Playback>().idle() {
        return;
    }
    let Some(players) = world.get_resource::<Players>().cloned() else {
        return;
    };
    let Some(command) = next_command(world, &players) else {
        return;
    };
    if play(world, command.clone()).is_err() {
        // Never stall on a refusal (an AI bug, told in the log): end the
        // turn, or decline the reaction.
        let fallback = match command {
            Command::React { unit, .. } => Command::React { unit, take: false },
            _ => Command::EndTurn,
        };
        let _ = play(world, fallback);
    }
}

/// Writes the replay file after each accepted command (`--record`), so the
/// battle is kept however the window closes.
fn record_replay(
    history: Option<Res<History>>,
    options: Res<PlayOptions>,
    mut written: Local<usize>,
    world_seed: Res<ReplaySource>,
) {
    let (Some(history), Some(path)) = (history, options.record.as_ref()) else {
        return;
    };
    if history.0.len() == *written {
        return;
    }
    *written = history.0.len();
    let replay = Replay {
        commands: history.0.clone(),
        ..world_seed.0.clone()
    };
    if let Ok(text) = to_ron(&replay)
        && let Err(e) = std::fs::write(path, text)
    {
        warn!("cannot write the replay {}: {e}", path.display());
    }
}

/// The replay of this battle without its commands: level, seed, policies.
#[derive(Resource, Clone, Debug)]
pub struct ReplaySource(pub Replay);
