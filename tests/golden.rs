//! Golden event log: a recorded battle on a shipped level gives the same
//! event list, event for event, every run.
//!
//! The battle (`levels/ford.ron` to its end or round 6, the utility AI
//! against the greedy one, seed 7) is recorded as a replay in
//! `tests/golden/ford.replay.ron`; its events, one RON value a line, in
//! `tests/golden/ford.events.ron`. When the rules change on purpose,
//! record both again and review the diff:
//!
//! ```sh
//! SKIRMISH_BLESS=1 cargo test golden
//! ```
//!
//! When only what the events tell changed (a new event, a new field), not
//! the commands, record the events alone from the same replay, so that the
//! diff shows just that:
//!
//! ```sh
//! SKIRMISH_BLESS=events cargo test golden
//! ```

use crate::common::{catalog, level, root};
use skirmish::ai::{Players, Profiles, next_command};
use skirmish::rules::submit;
use skirmish::rules::{BattleEvent, BattleEvents, EventKind, TurnState};
use skirmish::save::{Replay, to_ron};
use skirmish::setup::headless_app;
use std::path::PathBuf;

const SEED: u64 = 7;
/// Rounds recorded: enough for moves, reactions, attacks, parries, falls.
const ROUNDS: u32 = 6;

fn replay_path() -> PathBuf {
    root().join("tests/golden/ford.replay.ron")
}

fn events_path() -> PathBuf {
    root().join("tests/golden/ford.events.ron")
}

/// Plays a new battle with the AIs and records it.
fn record() -> Replay {
    let mut app = headless_app(&level("ford.ron"), SEED);
    let world = app.world_mut();
    let profiles = Profiles::shipped();
    let players = Players(vec![
        profiles.get("utility").cloned(),
        profiles.get("greedy").cloned(),
    ]);
    players.clone().install(world);
    while world.resource::<TurnState>().round <= ROUNDS {
        let Some(command) = next_command(world, &players) else {
            break;
        };
        submit(world, command.clone()).unwrap_or_else(|r| panic!("the AI sent {command}: {r}"));
    }
    Replay::of(world, SEED)
}

fn events_text(events: &[BattleEvent]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&ron::to_string(e).expect("events serialize"));
        out.push('\n');
    }
    out
}

#[test]
fn a_recorded_battle_gives_the_same_events() {
    if let Some(bless) = std::env::var_os("SKIRMISH_BLESS") {
        let replay = if bless == "events" {
            ron::from_str(&std::fs::read_to_string(replay_path()).unwrap()).unwrap()
        } else {
            let replay = record();
            std::fs::create_dir_all(root().join("tests/golden")).unwrap();
            std::fs::write(replay_path(), to_ron(&replay).unwrap()).unwrap();
            replay
        };
        let app = replay.run(catalog()).unwrap();
        let events = app.world().resource::<BattleEvents>().all().to_vec();
        std::fs::write(events_path(), events_text(&events)).unwrap();
    }
    let bless = "record them again with `SKIRMISH_BLESS=1 cargo test golden` if the rules changed on purpose";
    let text = std::fs::read_to_string(replay_path()).unwrap();
    let replay: Replay = ron::from_str(&text).unwrap();
    let app = replay
        .run(catalog())
        .unwrap_or_else(|e| panic!("the golden replay no longer plays: {e}; {bless}"));
    let got = app.world().resource::<BattleEvents>().all().to_vec();
    let want: Vec<BattleEvent> = std::fs::read_to_string(events_path())
        .unwrap()
        .lines()
        .map(|l| ron::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert!(want.len() > 200, "the golden battle did things");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "event {i} differs; {bless}");
    }
    assert_eq!(
        got.len(),
        want.len(),
        "a different number of events; {bless}"
    );
    // The recording covers the kinds of event the view animates most.
    for kind in [
        EventKind::Stepped,
        EventKind::AttackRolled,
        EventKind::Damaged,
        EventKind::ReactionOffered,
        EventKind::TurnStarted,
    ] {
        assert!(
            want.iter().any(|e| e.kind() == kind),
            "no {kind} in the golden battle"
        );
    }
}
