//! The command line, as a user runs it.

use crate::common::{level, root};
use skirmish::save::{Replay, to_ron};
use skirmish::setup::headless_app;
use std::process::Command;

fn skirmish(args: &[&str]) -> (bool, String) {
    skirmish_in(&root(), args)
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
    let log = skirmish::rules::log::CombatLog::of(app.world()).text();
    let file = std::env::temp_dir().join(format!("skirmish-replay-{}.ron", std::process::id()));
    std::fs::write(&file, to_ron(&Replay::of(app.world(), 7)).unwrap()).unwrap();
    let (ok, text) = skirmish(&["replay", file.to_str().unwrap()]);
    std::fs::remove_file(&file).ok();
    assert!(ok, "{text}");
    assert!(text.starts_with(&log), "the replay prints the same log");
}

/// Runs the binary in `dir` instead of the project root.
pub(crate) fn skirmish_in(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn check_and_sim_work_from_any_directory() {
    // FORMAT.md: the standard catalog and AI profiles are found wherever
    // the command runs.
    let dir = std::env::temp_dir().join(format!("skirmish-elsewhere-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ford = root().join("levels/ford.ron");
    let ford = ford.to_str().unwrap();
    let (ok, text) = skirmish_in(&dir, &["check", ford]);
    assert!(ok, "{text}");
    assert!(text.contains("ford.ron: ok"), "{text}");
    let (ok, text) = skirmish_in(&dir, &["sim", ford, "--games", "2", "--jobs", "1"]);
    assert!(ok, "{text}");
    assert!(text.contains(skirmish::ai::DEFAULT_PROFILE), "{text}");
    let scenario = root().join("tests/scenarios/r7_1_attack_roll.ron");
    let (ok, text) = skirmish_in(&dir, &["verify", scenario.to_str().unwrap()]);
    assert!(ok, "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unusual_but_playable_values_are_warnings() {
    // FORMAT.md: an armor of DV 15, a speed of 40, an MB of 25 are valid,
    // at most a warning; HP 0 or a reach of 0 cannot be played: errors.
    let dir = std::env::temp_dir().join(format!("skirmish-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let level = |hp: i32, reach: i32| {
        format!(
            r#"Level(
    name: "odd",
    map: [".....", ".....", "....."],
    sides: [(name: "A"), (name: "B")],
    units: [
        (name: "a", side: "A", template: "titan", at: (1, 1), facing: E),
        (name: "b", side: "B", template: "titan", at: (3, 1), facing: W),
    ],
    templates: [
        (name: "titan", mb: 25, speed: 40, hp: {hp}, weapons: ["club"], armor: "plate+"),
    ],
    weapons: [(name: "club", damage: "1d6", damage_type: Bludgeoning, reach: {reach})],
    armor: [(name: "plate+", dv: 15, ar: 2)],
)
"#
        )
    };
    let good = dir.join("odd.ron");
    std::fs::write(&good, level(12, 1)).unwrap();
    let (ok, text) = skirmish(&["check", good.to_str().unwrap()]);
    assert!(ok, "playable values pass: {text}");
    assert!(text.contains("odd.ron: ok"), "{text}");
    for what in ["mb is 25", "speed is 40", "dv is 15"] {
        assert!(
            text.lines()
                .any(|l| l.contains(": warning: ") && l.contains(what)),
            "a warning with line and column for {what}: {text}"
        );
    }
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, level(0, 0)).unwrap();
    let (ok, text) = skirmish(&["check", bad.to_str().unwrap()]);
    assert!(!ok, "HP 0 and reach 0 are errors: {text}");
    assert!(
        text.contains("hp is 0; the rules need at least 1"),
        "{text}"
    );
    assert!(
        text.contains("reach is 0; the rules need at least 1"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_without_a_display_says_so_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["play", "levels/ford.ron"])
        .current_dir(root())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "no display is a failure");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("sim") && err.contains("replay") && !err.contains("panicked"),
        "{err}"
    );
}

/// A level checked against a catalog is told that catalog's warnings (an
/// unusual number its units may carry), and a number past what the rules
/// play is refused at its place: before, a range increment of 300000000
/// passed (with no warning against the catalog) and overflowed in play.
#[test]
fn check_against_a_catalog_tells_its_warnings_and_refuses_what_would_overflow() {
    let dir = std::env::temp_dir().join(format!("skirmish-cat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in skirmish::load::ron_files(&root().join("assets/catalog")) {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    let odd = "Catalog(\n    weapons: [\n        (name: \"warbow\", damage: \"1d8\", \
               damage_type: Piercing, range: Some(Increment(80))),\n    ],\n)\n";
    std::fs::write(dir.join("odd.ron"), odd).unwrap();
    let (ok, text) = skirmish(&[
        "check",
        "levels/ford.ron",
        "--catalog",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let odd_file = dir.join("odd.ron").display().to_string();
    assert!(
        text.contains(&format!(
            "{odd_file}:3:64: warning: weapon \"warbow\": range increment is 80; usually 1 to 50"
        )),
        "{text}"
    );
    assert!(text.contains("levels/ford.ron: ok"), "{text}");
    let huge = odd.replace("Increment(80)", "Increment(300000000)");
    std::fs::write(dir.join("odd.ron"), huge).unwrap();
    let (ok, text) = skirmish(&["check", dir.join("odd.ron").to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(!ok, "{text}");
    assert!(
        text.contains(&format!(
            "{odd_file}:3:64: weapon \"warbow\": range increment is 300000000; the rules play \
             numbers up to 1000 here"
        )),
        "{text}"
    );
}

/// `replay --watch --as SIDE` names a side of the replay's level; another
/// is refused with the file's name, before any window opens.
#[test]
fn replay_as_an_unknown_side_is_refused() {
    let file = "tests/levels/hide_replay.ron";
    let (ok, text) = skirmish(&["replay", file, "--watch", "--as", "Nobody"]);
    assert!(!ok, "{text}");
    assert!(
        text.contains(&format!("{file}: no side \"Nobody\"")),
        "{text}"
    );
}
