//! The command line, as a user runs it.

use crate::common::{level, root};
use skirmish::battle::headless_app;
use skirmish::save::{Replay, to_ron};
use std::process::Command;

fn skirmish(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn check_says_ok_or_lists_problems() {
    let (ok, text) = skirmish(&["check", "levels/ford.ron", "assets/catalog/units.ron"]);
    assert!(ok, "{text}");
    assert!(text.contains("levels/ford.ron: ok"));
    let (ok, text) = skirmish(&["check", "levels/ford.ron", "tests/broken/many_problems.ron"]);
    assert!(!ok, "a broken file fails the run");
    assert!(
        text.contains("tests/broken/many_problems.ron:7:16: unknown map symbol 'Q'"),
        "{text}"
    );
    assert!(text.contains("1 of 2 files have problems"), "{text}");
}

#[test]
fn verify_counts_passes_and_failures() {
    let (ok, text) = skirmish(&[
        "verify",
        "tests/scenarios/r7_1_attack_roll.ron",
        "tests/scenarios/r2_4_rounds.ron",
    ]);
    assert!(ok, "{text}");
    assert!(text.trim_end().ends_with("2 passed, 0 failed"), "{text}");
    let (ok, text) = skirmish(&["verify", "tests/broken/empty.ron"]);
    assert!(!ok);
    assert!(text.contains("0 passed, 1 failed"), "{text}");
}

#[test]
fn replay_plays_a_recorded_battle() {
    let mut app = headless_app(&level("ford.ron"), 7);
    crate::determinism::play_random(app.world_mut(), 60, 3);
    let log = app.world().resource::<skirmish::rules::CombatLog>().text();
    let file = std::env::temp_dir().join(format!("skirmish-replay-{}.ron", std::process::id()));
    std::fs::write(&file, to_ron(&Replay::of(app.world(), 7)).unwrap()).unwrap();
    let (ok, text) = skirmish(&["replay", file.to_str().unwrap()]);
    std::fs::remove_file(&file).ok();
    assert!(ok, "{text}");
    assert!(text.starts_with(&log), "the replay prints the same log");
}
