//! Whose move it is: AI sides play through the same commands as a player,
//! one command at a time once the last one has been shown; a replay plays
//! its recorded commands the same way. Every accepted command goes to the
//! battle's history, written as a replay with `--record`.
//!
//! The AI decides on a copy of the battle (a save, restored) on a worker
//! thread, so no frame waits for a decision (its tries on two threads
//! where there are two cores, `TryThreads`: the same decision, sooner); the command it answers is
//! then sent to the real battle, and the dice's AI stream is put where the
//! decision left it (the random baseline draws from it), so the window
//! plays the battle `sim` plays with the same seed.

use super::seat::Script;

use super::frame::PlayOptions;
use super::playback::Playback;
use crate::ai::{Players, fallback, next_command};
use crate::battle::Battlefield;
use crate::dice::Dice;
use crate::rules::pipeline::Decisions;
use crate::rules::{Command, TurnState};
use crate::rules::{History, submit};
use crate::save::{Replay, SaveGame, to_ron};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use rand_chacha::ChaCha8Rng;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Thinking>().add_systems(
        Update,
        (save_and_load, play_script, play_ai_command, record_replay)
            .chain()
            .in_set(super::frame::ViewSystems::Act),
    );
}

/// The AI's decision being made off the main thread, if any.
#[derive(Resource, Default)]
pub struct Thinking(pub Option<Task<Option<Decided>>>);

/// A decision made on the worker thread: the command, the AI's dice stream
/// where it left it, and the plan its look-ahead chose (for the intent
/// markers).
pub struct Decided {
    command: Command,
    stream: ChaCha8Rng,
    intent: Option<crate::ai::intent::Intent>,
}

/// The replay of this battle without its commands: level, seed, policies.
#[derive(Resource, Clone, Debug)]
pub struct ReplaySource(pub Replay);

/// Plays the next recorded command once the last one has been shown.
fn play_script(world: &mut World) {
    if !world.resource::<Playback>().idle() {
        return;
    }
    let Some(command) = world
        .get_resource_mut::<Script>()
        .and_then(|mut s| s.0.pop_front())
    else {
        return;
    };
    if let Err(r) = submit(world, command.clone()) {
        error!("the replay's command {command} was refused: {r}");
        world.resource_mut::<Script>().0.clear();
    }
}

/// Whether the next decision is the AI's.
fn ai_to_decide(world: &World, players: &Players) -> bool {
    let turn = world.resource::<TurnState>();
    if turn.outcome.is_some() {
        return false;
    }
    let unit = world.resource::<Decisions>().asked().or(turn.current);
    unit.and_then(|u| world.get::<crate::battle::Side>(u))
        .is_some_and(|side| players.of(side.0).is_some())
}

/// The AI's next command, once everything so far has been shown.
fn play_ai_command(world: &mut World) {
    if world.contains_resource::<Script>() || !world.resource::<Playback>().idle() {
        return;
    }
    let Some(players) = world.get_resource::<Players>().cloned() else {
        return;
    };
    // A decision under way: send it when it is ready.
    if let Some(task) = world.resource_mut::<Thinking>().0.as_mut() {
        let Some(answer) = block_on(poll_once(task)) else {
            return;
        };
        world.resource_mut::<Thinking>().0 = None;
        if let Some(decided) = answer {
            world.resource_mut::<Dice>().set_ai_stream(decided.stream);
            super::intent::show_plan(world, decided.intent);
            send(world, decided.command);
        }
        return;
    }
    if ai_to_decide(world, &players) {
        let save = SaveGame::capture(world);
        let catalog = world.resource::<Battlefield>().0.catalog.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            yield_to_the_frame();
            let mut copy = save.restore(&catalog).ok()?;
            let world = copy.world_mut();
            world.insert_resource(players.clone());
            // Its tries on two cores where there are two: the same
            // decision, sooner.
            world.insert_resource(crate::ai::search::TryThreads::of_machine());
            let command = next_command(world, &players)?;
            // The plan behind a look-ahead's decision, from where it stands.
            let intent = world
                .remove_resource::<crate::ai::search::Thought>()
                .and_then(|t| {
                    let me = crate::battle::unit_named(world, &t.unit)?;
                    let from = world.get::<crate::battle::GridPos>(me)?.0;
                    crate::ai::intent::Intent::of_thought(&t, from)
                });
            Some(Decided {
                command,
                stream: world.resource::<Dice>().ai_stream(),
                intent,
            })
        });
        world.resource_mut::<Thinking>().0 = Some(task);
    }
}

/// Lowers the priority of the thread the AI thinks on, so that under
/// software rendering, where drawing a frame keeps both cores busy, the
/// search takes the time the frame leaves rather than time from the frame
/// (measured with llvmpipe on a 64×64 level with 32 units: the p99 of the
/// frames of AI turns went from 42 to 37 ms). A decision takes longer
/// then, never a frame. On Linux a nice value is per thread; the worker
/// thread only ever runs the AI's searches.
fn yield_to_the_frame() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority and gettid only read their arguments; a failure
    // leaves the priority as it was.
    unsafe {
        let thread = libc::gettid() as libc::id_t;
        if libc::getpriority(libc::PRIO_PROCESS, thread) < AI_NICE {
            libc::setpriority(libc::PRIO_PROCESS, thread, AI_NICE);
        }
    }
}

/// The AI thread's nice value (0 is the default, 19 the lowest priority).
#[cfg(target_os = "linux")]
const AI_NICE: libc::c_int = 10;

/// Sends the AI's command, or its [`fallback`] when the rules refuse it.
fn send(world: &mut World, command: Command) {
    if submit(world, command.clone()).is_err() {
        let _ = submit(world, fallback(command));
    }
}

/// Writes the replay file whenever the history changes (`--record`): after
/// each accepted command, so the battle is kept however the window closes,
/// and after F9 puts another history in its place, even one of the same
/// length (a count of commands written would miss that one).
fn record_replay(
    history: Option<Res<History>>,
    options: Res<PlayOptions>,
    source: Option<Res<ReplaySource>>,
) {
    let (Some(history), Some(path), Some(source)) = (history, options.record.as_ref(), source)
    else {
        return;
    };
    if !history.is_changed() && !source.is_changed() {
        return;
    }
    let replay = Replay {
        commands: history.0.clone(),
        ..source.0.clone()
    };
    if let Ok(text) = to_ron(&replay)
        && let Err(e) = std::fs::write(path, text)
    {
        warn!("cannot write the replay {}: {e}", path.display());
    }
}

/// Puts `save` (of this level) in the running battle's place (F9) and
/// says so. The replay being recorded (`--record`) goes on from the
/// loaded history when the save's dice are this battle's seed; otherwise
/// it stops, as a replay is a seed and commands and no seed gives those
/// dice.
fn load_save(world: &mut World, save: &SaveGame) -> String {
    let same_dice = save.dice.seed() == world.resource::<Dice>().seed();
    save.apply(world);
    world.resource_mut::<Thinking>().0 = None;
    super::intent::forget_foresight(world);
    super::playback::restart(world);
    if same_dice {
        // The loaded reaction policies too: the replay's are the save's.
        let seed = world.resource::<PlayOptions>().seed;
        let source = Replay::of(world, seed);
        world.insert_resource(ReplaySource(source));
        return format!("loaded {SAVE_FILE}");
    }
    world.remove_resource::<ReplaySource>();
    let stops = match world.resource::<PlayOptions>().record {
        Some(_) => " (its dice are not this battle's seed: --record stops)",
        None => "",
    };
    format!("loaded {SAVE_FILE}{stops}")
}

/// Where F5 saves and F9 loads, in the working directory.
pub const SAVE_FILE: &str = "skirmish-save.ron";

/// F5 saves the battle (the save format of `skirmish::save`); F9 loads the
/// save of this level back, and the screen shows it at once.
pub(super) fn save_and_load(world: &mut World) {
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let (save, load) = (
        keys.just_pressed(KeyCode::F5),
        keys.just_pressed(KeyCode::F9),
    );
    if save {
        let text = to_ron(&SaveGame::capture(world)).map_err(|e| e.to_string());
        let written = text.and_then(|t| std::fs::write(SAVE_FILE, t).map_err(|e| e.to_string()));
        let note = match written {
            Ok(()) => format!("saved to {SAVE_FILE} (F9 loads it)"),
            Err(e) => format!("cannot save: {e}"),
        };
        world.resource_mut::<super::preview::Hover>().note = Some(note);
    }
    if load {
        let loaded = std::fs::read(SAVE_FILE)
            .map_err(|e| format!("cannot read {SAVE_FILE}: {e}"))
            .and_then(|bytes| {
                crate::load::parse_file::<SaveGame>(&bytes, SAVE_FILE, "SaveGame")
                    .map_err(|p| p.to_string())
            });
        let note = match loaded {
            Ok(save) if save.level == world.resource::<Battlefield>().0.source => {
                load_save(world, &save)
            }
            Ok(_) => format!("{SAVE_FILE} is a save of another level"),
            Err(e) => e,
        };
        world.resource_mut::<super::preview::Hover>().note = Some(note);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Profiles;
    use crate::grid::Dir;
    use crate::load::{load_catalog_dir, load_level_file};
    use std::path::{Path, PathBuf};

    /// Ford with dice seeded `seed`, recorded to `record` by
    /// `record_replay` alone, as the window records it.
    fn recorded(seed: u64, record: &Path) -> App {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let catalog = load_catalog_dir(&root.join("assets/catalog")).expect("the catalog");
        let level = load_level_file(&root.join("levels/ford.ron"), &catalog).expect("ford");
        let mut app = crate::setup::headless_app_with(&level, Dice::seeded(seed), None);
        let players = Players::for_level(&level, &Profiles::shipped());
        let mut options = PlayOptions::new(level, seed, players);
        options.record = Some(record.to_path_buf());
        let source = ReplaySource(Replay::of(app.world(), seed));
        app.init_resource::<Thinking>()
            .insert_resource(options)
            .insert_resource(source)
            .add_systems(Update, record_replay);
        app.update();
        app
    }

    fn commands_in(path: &Path) -> Vec<Command> {
        let text = std::fs::read_to_string(path).expect("the replay is written");
        ron::from_str::<Replay>(&text).expect("a replay").commands
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("skirmish-{}-{name}.ron", std::process::id()))
    }

    /// The command that turns the unit whose turn it is north (R4.2).
    fn face_north(world: &World) -> Command {
        let current = world.resource::<TurnState>().current.expect("a turn");
        let unit = world.get::<Name>(current).expect("a name").to_string();
        Command::Face { unit, dir: Dir::N }
    }

    #[test]
    fn the_replay_follows_a_loaded_history_of_the_same_length() {
        // Battle A ends its first turn; battle B, recorded, turns instead:
        // one command each.
        let (a_file, b_file) = (temp("record-a"), temp("record-b"));
        let mut a = recorded(1, &a_file);
        submit(a.world_mut(), Command::EndTurn).expect("EndTurn");
        a.update();
        let save = SaveGame::capture(a.world_mut());
        let mut b = recorded(1, &b_file);
        assert!(commands_in(&b_file).is_empty(), "written from the start");
        let face = face_north(b.world());
        submit(b.world_mut(), face.clone()).expect("Face");
        b.update();
        assert_eq!(commands_in(&b_file), [face]);

        // F9 loads A into B: the replay is A's, though as long as B's was.
        let note = load_save(b.world_mut(), &save);
        b.update();
        assert_eq!(note, format!("loaded {SAVE_FILE}"));
        assert_eq!(commands_in(&b_file), [Command::EndTurn]);
        // And it goes on from there.
        let face = face_north(b.world());
        submit(b.world_mut(), face.clone()).expect("Face");
        b.update();
        assert_eq!(commands_in(&b_file), [Command::EndTurn, face]);

        // A save with other dice: no seed replays it, so recording stops
        // and the note says so; the file keeps the last true replay.
        let mut c = recorded(2, &temp("record-c"));
        let note = load_save(c.world_mut(), &save);
        assert!(note.contains("--record stops"), "{note}");
        let before = commands_in(&temp("record-c"));
        let face = face_north(c.world());
        submit(c.world_mut(), face).expect("Face");
        c.update();
        assert_eq!(commands_in(&temp("record-c")), before);
        for f in ["record-a", "record-b", "record-c"] {
            let _ = std::fs::remove_file(temp(f));
        }
    }
}
