//! The opponent AI and `skirmish sim`: the quality bar of issue #5 over
//! fixed seeds, determinism whatever the thread count, every shipped level
//! playable, and single decisions that show the scoring at work.

use crate::common::{catalog, level, root};
use skirmish::ai::{Players, Profile, Profiles, Weights, next_command};
use skirmish::dice::Dice;
use skirmish::load::{ValidLevel, parse_level};
use skirmish::rules::pipeline::Decisions;
use skirmish::rules::{Command, TurnState, submit};
use skirmish::setup::headless_app_with;
use skirmish::sim::{GameResult, Keeper, Report, SimConfig, run, run_on};
use std::sync::Mutex;

fn profile(name: &str) -> Profile {
    Profiles::shipped()
        .get(name)
        .cloned()
        .unwrap_or_else(|| panic!("profile {name}"))
}

fn config(file: &str, games: usize, a: &str, b: &str, seed: u64, jobs: usize) -> SimConfig {
    SimConfig {
        level: level(file),
        games,
        a: profile(a),
        b: profile(b),
        seed,
        jobs,
        swap: true,
    }
}

/// Runs a sim and checks what every run must satisfy: no AI command
/// refused, no battle stalled.
fn simulate(config: &SimConfig) -> Report {
    let results = run(config, || {});
    assert_eq!(results.len(), config.games);
    let report = Report::new(config, &results);
    eprintln!("{report}");
    assert_eq!(report.refused, 0, "the AI sent commands the rules refused");
    assert_eq!(report.stalled, 0, "a battle hit the command limit");
    report
}

/// Issue #5's bar: on three mirrored levels of different sizes, 200
/// battles each, sides swapped every other battle, utility wins at least
/// `bar` of the decided battles against `vs`.
fn assert_utility_beats(vs: &str, seed: u64, bar: f64) {
    for file in ["ford.ron", "forest.ron", "pass.ron"] {
        let report = simulate(&config(file, 200, "utility", vs, seed, 2));
        assert!(
            report.a_wins.rate >= bar,
            "{file}: utility won {} of the decided battles against {vs}",
            report.a_wins
        );
    }
}

/// ≥ 75% against greedy.
#[test]
fn utility_beats_greedy_on_three_mirrored_levels() {
    assert_utility_beats("greedy", 5, 0.75);
}

/// ≥ 95% against random.
#[test]
fn utility_beats_random_on_three_mirrored_levels() {
    assert_utility_beats("random", 6, 0.95);
}

#[test]
fn sim_gives_the_same_results_whatever_the_thread_count() {
    let one = run(&config("ford.ron", 12, "utility", "random", 3, 1), || {});
    let two = run(&config("ford.ron", 12, "utility", "random", 3, 2), || {});
    let five = run(&config("ford.ron", 12, "utility", "random", 3, 5), || {});
    assert_eq!(one, two);
    assert_eq!(one, five);
    let other = run(&config("ford.ron", 12, "utility", "random", 4, 2), || {});
    assert_ne!(one, other, "another seed plays other battles");
    // Sides really swap: every other battle profile A plays side 1.
    assert!(one.iter().all(|r| r.swapped == (r.index % 2 == 1)));
}

#[test]
fn every_shipped_level_plays_to_the_end_with_every_profile() {
    let names = ["utility", "cautious", "reckless", "greedy", "random"];
    for path in crate::common::ron_files(&root().join("levels")) {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for (i, a) in names.iter().enumerate() {
            let b = names[(i + 1) % names.len()];
            let report = simulate(&config(&file, 2, a, b, 9, 2));
            assert_eq!(report.games, 2, "{file}");
        }
    }
}

/// A small open level where two units of each side face off; `units` are
/// RON unit entries.
fn arena(units: &str) -> ValidLevel {
    let rows = [
        "##########",
        "#........#",
        "#........#",
        "#........#",
        "#........#",
        "#........#",
        "##########",
    ];
    let map: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    let text = format!(
        "Level(name: \"Arena\", map: [{}], \
         sides: [(name: \"Blue\", control: Ai), (name: \"Red\", control: Ai)], \
         units: [{units}], round_limit: 10)",
        map.join(", ")
    );
    parse_level(text.as_bytes(), "arena.ron", catalog()).unwrap_or_else(|p| panic!("{p}"))
}

/// A battle of `level` with a fixed initiative and plenty of dice, every
/// side played by `profile`.
fn battle(level: &ValidLevel, order: &[&str], profile_name: &str) -> bevy::app::App {
    let order: Vec<String> = order.iter().map(|s| s.to_string()).collect();
    let dice = Dice::scripted((0..2000).map(|_| (20, 10)));
    let mut app = headless_app_with(level, dice, Some(&order));
    Players(vec![Some(profile(profile_name)); level.sides().len()]).install(app.world_mut());
    app
}

fn players(level: &ValidLevel, name: &str) -> Players {
    Players(vec![Some(profile(name)); level.sides().len()])
}

/// Focus (R10.1): with a healthy and a badly wounded enemy both in reach,
/// the AI strikes the one it can drop.
#[test]
fn utility_strikes_the_enemy_it_can_drop() {
    let level = arena(
        r#"(name: "Ann", side: "Blue", template: "warden", at: (4, 3), facing: E),
           (name: "Hale", side: "Red", template: "spearman", at: (5, 2), facing: W),
           (name: "Weak", side: "Red", template: "spearman", at: (5, 4), facing: W, stats: (hp: 3))"#,
    );
    let mut app = battle(&level, &["Ann", "Hale", "Weak"], "utility");
    let cmd = next_command(app.world_mut(), &players(&level, "utility")).unwrap();
    match cmd {
        Command::Attack { target, .. } => assert_eq!(target, "Weak"),
        other => panic!("expected an attack on Weak, got {other:?}"),
    }
}

/// Help for the dying (R10.4): a medic next to a dying ally with no enemy
/// in reach stabilises it.
#[test]
fn utility_stabilises_a_dying_ally() {
    let level = arena(
        r#"(name: "Doc", side: "Blue", template: "medic", at: (2, 3), facing: E),
           (name: "Hurt", side: "Blue", template: "spearman", at: (3, 3), facing: E),
           (name: "Foe", side: "Red", template: "spearman", at: (8, 5), facing: W)"#,
    );
    let mut app = battle(&level, &["Doc", "Hurt", "Foe"], "utility");
    let world = app.world_mut();
    let hurt = skirmish::battle::unit_named(world, "Hurt").unwrap();
    skirmish::rules::attacks::damage::take_damage(
        world,
        hurt,
        30,
        skirmish::rules::events::DamageHow::Splash,
        hurt,
    );
    assert!(world.entity(hurt).contains::<skirmish::battle::Dying>());
    let mut seen = vec![];
    for _ in 0..6 {
        let cmd = next_command(world, &players(&level, "utility")).unwrap();
        seen.push(cmd.clone());
        if matches!(cmd, Command::Stabilize { .. } | Command::DrinkPotion { .. }) {
            return;
        }
        submit(world, cmd).unwrap();
    }
    panic!("the medic never helped its dying ally: {seen:?}");
}

/// Facing (R4.3): at the end of its turn the AI turns its front toward the
/// enemies, so they cannot strike its rear.
#[test]
fn utility_ends_its_turn_facing_the_enemy() {
    let level = arena(
        r#"(name: "Ann", side: "Blue", template: "archer", at: (2, 3), facing: W),
           (name: "Foe", side: "Red", template: "spearman", at: (8, 3), facing: W)"#,
    );
    let mut app = battle(&level, &["Ann", "Foe"], "cautious");
    let world = app.world_mut();
    let ann = skirmish::battle::unit_named(world, "Ann").unwrap();
    let foe = skirmish::battle::unit_named(world, "Foe").unwrap();
    let mut commands = vec![];
    while world.resource::<TurnState>().current == Some(ann) {
        let cmd = next_command(world, &players(&level, "cautious")).unwrap();
        commands.push(cmd.clone());
        submit(world, cmd).unwrap();
        assert!(commands.len() < 20, "the turn never ended: {commands:?}");
    }
    let at = world.get::<skirmish::battle::GridPos>(ann).unwrap().0;
    let facing = world.get::<skirmish::battle::Facing>(ann).unwrap().0;
    let foe_at = world.get::<skirmish::battle::GridPos>(foe).unwrap().0;
    assert!(
        skirmish::rules::positioning::facing::in_front_arc(at, facing, foe_at),
        "Ann at {at} faces {facing:?}, Foe at {foe_at} is in its rear: {commands:?}"
    );
}

/// Reactions (R8.1) are the AI's own decision: asked about a foe walking
/// away from it, it takes the free attack.
#[test]
fn utility_answers_reaction_questions() {
    let level = arena(
        r#"(name: "Foe", side: "Red", template: "spearman", at: (4, 3), facing: E),
           (name: "Ann", side: "Blue", template: "warden", at: (5, 3), facing: W)"#,
    );
    let mut app = battle(&level, &["Ann", "Foe"], "utility");
    let world = app.world_mut();
    // Ann has its first turn (no longer off-guard, R2.3) and ends it.
    submit(world, Command::EndTurn).unwrap();
    // Foe walks off: Ann's side is asked (policy Ask).
    submit(
        world,
        Command::Move {
            unit: "Foe".into(),
            to: skirmish::grid::Pos::new(1, 1),
            path: None,
            sprint: false,
        },
    )
    .unwrap();
    assert!(
        world.resource::<Decisions>().asked().is_some(),
        "Ann is asked"
    );
    let answer = next_command(world, &players(&level, "utility")).unwrap();
    assert_eq!(
        answer,
        Command::React {
            unit: "Ann".into(),
            take: true,
            guard: None,
        }
    );
}

/// Runs the `skirmish` binary with `args` from the project's root: whether
/// it succeeded, its standard output and its standard error.
fn skirmish(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn sim_on_the_command_line_prints_a_report_and_json() {
    let run = |args: &[&str]| {
        let (ok, out, err) = skirmish(args);
        (ok, out + &err)
    };
    let (ok, text) = run(&[
        "sim",
        "levels/ford.ron",
        "--games",
        "4",
        "--ai",
        "utility",
        "--vs",
        "random",
        "--seed",
        "3",
        "--jobs",
        "2",
        "--swap",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("utility wins"), "{text}");
    assert!(text.contains("95% CI"), "{text}");
    assert!(text.contains("spearman"), "per-kind figures: {text}");
    let (ok, json) = run(&[
        "sim",
        "levels/ford.ron",
        "--games",
        "4",
        "--seed",
        "3",
        "--json",
    ]);
    assert!(ok, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["games"], 4);
    assert!(v["a_wins"]["low"].as_f64().unwrap() <= v["a_wins"]["rate"].as_f64().unwrap());
    assert!(v["kinds"]["warden"]["dealt"].is_number());
    // Split by profile, the units add up to the whole.
    let units = |k: &serde_json::Value| k["warden"]["units"].as_u64().unwrap_or(0);
    let split = &v["kinds_by_profile"];
    assert_eq!(units(&split[0]) + units(&split[1]), units(&v["kinds"]));
    assert!(units(&split[0]) > 0 && units(&split[1]) > 0, "{split}");
    // Each battle's winner in order, adding up to the shares.
    let battles = v["battles"].as_str().expect("battles");
    assert_eq!(battles.len(), 4, "{battles}");
    let count = |c| battles.chars().filter(|b| *b == c).count() as u64;
    assert_eq!(count('A'), v["a_wins"]["count"].as_u64().unwrap());
    assert_eq!(count('B'), v["b_wins"]["count"].as_u64().unwrap());
    // --keep: two battles kept, then four asked for with the same file,
    // report what four in one go do.
    let keep = std::env::temp_dir().join(format!("skirmish-cli-keep-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&keep);
    let keep = keep.to_str().unwrap();
    let with = |games| {
        let args = [
            "sim",
            "levels/ford.ron",
            "--seed",
            "3",
            "--json",
            "--keep",
            keep,
        ];
        run(&[&args[..], &["--games", games]].concat())
    };
    assert!(with("2").0);
    let (ok, kept) = with("4");
    assert!(ok, "{kept}");
    assert_eq!(kept, json, "a kept run reports what an unbroken one does");
    assert_eq!(std::fs::read_to_string(keep).unwrap().lines().count(), 5);
    std::fs::remove_file(keep).unwrap();
    let (ok, text) = run(&["sim", "levels/ford.ron", "--ai", "nope"]);
    assert!(!ok);
    assert!(text.contains("unknown AI profile \"nope\""), "{text}");
}

/// `sim --keep`: a run stopped part way (after 3 battles, and while
/// writing a fourth) and started again plays only the battles it had not
/// kept, and reports what one unbroken run reports.
#[test]
fn a_kept_run_goes_on_where_it_stopped() {
    let whole = config("ford.ron", 6, "greedy", "greedy", 3, 2);
    let unbroken = run(&whole, || {});
    let path = std::env::temp_dir().join(format!("skirmish-keep-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let first = SimConfig {
        games: 3,
        ..whole.clone()
    };
    let (keeper, kept) = Keeper::open(&path, &first).expect("a new file");
    assert!(kept.is_empty());
    run_on(&first, kept, |r| keeper.keep(r).expect("kept"));
    drop(keeper);
    let cut = std::fs::read_to_string(&path).unwrap() + "{\"index\":3,\"se";
    std::fs::write(&path, cut).unwrap();

    let (keeper, kept) = Keeper::open(&path, &whole).expect("the same run");
    assert_eq!(kept.len(), 3, "the line cut short is dropped");
    let played = Mutex::new(Vec::new());
    let results = run_on(&whole, kept, |r| {
        keeper.keep(r).expect("kept");
        played.lock().unwrap().push(r.index);
    });
    drop(keeper);
    let mut played = played.into_inner().unwrap();
    played.sort();
    assert_eq!(played, [3, 4, 5], "only the battles not kept are played");
    assert_eq!(results, unbroken);
    let json = |results: &[GameResult]| serde_json::to_string(&Report::new(&whole, results));
    assert_eq!(json(&results).unwrap(), json(&unbroken).unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 7, "the run and six battles:\n{text}");

    // Another run's file is refused, and says whose it is.
    let other = SimConfig {
        seed: 4,
        ..whole.clone()
    };
    let e = Keeper::open(&path, &other).err().expect("another run");
    assert_eq!(e.at, Some((1, 1)), "{e}");
    let m = &e.message;
    assert!(
        m.contains("another run") && m.contains("seed 3") && m.contains("seed 4"),
        "{e}"
    );
    // A battle of another seed, or a line that is no battle: where it is.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut moved: GameResult = serde_json::from_str(&lines[2]).unwrap();
    moved.index += 2;
    lines[2] = serde_json::to_string(&moved).unwrap();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let e = Keeper::open(&path, &whole)
        .err()
        .expect("a battle of another seed");
    assert_eq!(e.at, Some((3, 1)), "{e}");
    assert!(
        e.message.contains("battle") && e.message.contains("seed"),
        "{e}"
    );
    lines[2] = "{\"index\": oops}".into();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let e = Keeper::open(&path, &whole).err().expect("no battle");
    assert!(e.to_string().contains(":3:11: not a kept battle"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn check_reports_an_unknown_profile_where_it_is_written() {
    let dir = std::env::temp_dir().join(format!("skirmish-ai-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join("levels/ford.ron"))
        .unwrap()
        .replace("control: Ai)", "control: Ai(\"sneaky\"))");
    let file = dir.join("ford_sneaky.ron");
    std::fs::write(&file, &text).unwrap();
    let line = text.lines().position(|l| l.contains("sneaky")).unwrap() + 1;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["check", file.to_str().unwrap()])
        .current_dir(root())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(
        said.contains(&format!(":{line}:")) && said.contains("unknown AI profile \"sneaky\""),
        "{said}"
    );
    // A named shipped profile is fine.
    std::fs::write(&file, text.replace("sneaky", "cautious")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["check", file.to_str().unwrap()])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A level's `control` picks each side's player: a human side has none, an
/// `Ai("cautious")` side that profile, a plain `Ai` the default one.
#[test]
fn players_follow_the_level_controls() {
    let text = "Level(name: \"Controls\", map: [\"....\"], \
        sides: [(name: \"A\", control: Human), (name: \"B\", control: Ai(\"cautious\")), \
                (name: \"C\", control: Ai)], \
        units: [(name: \"a\", side: \"A\", template: \"spearman\", at: (0, 0), facing: E), \
                (name: \"b\", side: \"B\", template: \"spearman\", at: (2, 0), facing: W), \
                (name: \"c\", side: \"C\", template: \"spearman\", at: (3, 0), facing: W)])";
    let level =
        parse_level(text.as_bytes(), "controls.ron", catalog()).unwrap_or_else(|p| panic!("{p}"));
    let players = Players::for_level(&level, &Profiles::shipped());
    assert!(players.of(0).is_none(), "a human side");
    assert_eq!(players.of(1).map(|p| p.name.as_str()), Some("cautious"));
    assert_eq!(
        players.of(2).map(|p| p.name.as_str()),
        Some(skirmish::ai::DEFAULT_PROFILE)
    );
}

/// The AI's constants are profile weights (issue #9): a profile can tune
/// them, and a misspelt one is an error.
#[test]
fn ai_constants_are_tunable_in_a_profile() {
    let text = "Profile(weights: (open_danger: 0.5, worth_dv: 12, shot_increments: 4))";
    let p: Profile = ron::from_str(text).unwrap();
    assert_eq!(p.weights.open_danger, 0.5);
    assert_eq!(p.weights.worth_dv, 12);
    assert_eq!(p.weights.shot_increments, 4);
    assert_eq!(p.weights.fall_aversion, Weights::default().fall_aversion);
    assert!(ron::from_str::<Profile>("Profile(weights: (worth_d: 12))").is_err());
}

/// V3 injuries without hit zones: the attacker picks the part it aims at.
/// Against a fresh enemy the torso (the heart's fatal wound comes at 5
/// degrees, a knockout by the head only at 6); against one with two deadly
/// head wounds the head, where a third knocks it out.
#[test]
fn utility_aims_where_an_injury_fells() {
    use skirmish::format::{BodyPart, Severity};
    use skirmish::rules::variants::injuries::Injuries;
    let level = crate::common::level_at("tests/levels/aim.ron");
    let aimed = |wounds: Vec<(BodyPart, Severity)>| {
        let mut app = battle(&level, &["Hero", "Orc"], "utility");
        let orc = skirmish::battle::unit_named(app.world(), "Orc").unwrap();
        app.world_mut().entity_mut(orc).insert(Injuries(wounds));
        match next_command(app.world_mut(), &players(&level, "utility")) {
            Some(Command::Attack { target, part, .. }) if target == "Orc" => part,
            other => panic!("expected an attack on the Orc, got {other:?}"),
        }
    };
    assert_eq!(aimed(vec![]), None, "the torso, the rules' default");
    let dazed = vec![(BodyPart::Head, Severity::Deadly); 2];
    assert_eq!(aimed(dazed), Some(BodyPart::Head));
}

/// Taking a weapon back up (R9.5): a warden whose longsword lies at its
/// feet, with no enemy near, picks it up and fights armed again.
#[test]
fn utility_picks_its_dropped_weapon_back_up() {
    let level = arena(
        r#"(name: "Ann", side: "Blue", template: "warden", at: (2, 3), facing: E),
           (name: "Foe", side: "Red", template: "spearman", at: (8, 5), facing: W)"#,
    );
    let mut app = battle(&level, &["Ann", "Foe"], "utility");
    let world = app.world_mut();
    let ann = skirmish::battle::unit_named(world, "Ann").unwrap();
    skirmish::rules::attacks::resolution::drop_weapon(world, ann, Some("longsword"), false);
    let armed = |world: &bevy::prelude::World| {
        world
            .get::<skirmish::battle::Inventory>(ann)
            .is_some_and(|i| i.weapons.iter().any(|w| w == "longsword"))
    };
    assert!(!armed(world), "the longsword lies on the ground");
    let mut seen = vec![];
    for _ in 0..3 {
        let cmd = next_command(world, &players(&level, "utility")).unwrap();
        seen.push(cmd.clone());
        submit(world, cmd).unwrap();
        if armed(world) {
            assert!(
                seen.iter()
                    .any(|c| matches!(c, Command::PickUp { item, .. } if item == "longsword")),
                "{seen:?}"
            );
            return;
        }
    }
    panic!("the warden never took its longsword back: {seen:?}");
}

/// Standing up provokes (R8.2) with +1 advantage on the prone (R4.8): a
/// prone spearman beside a giant that still has its reaction stays down
/// rather than take a blow likely to drop it; with the giant far off, it
/// stands.
#[test]
fn utility_stays_down_rather_than_stand_under_a_giants_blow() {
    let next_for = |giant_at: &str| {
        let level = arena(&format!(
            r#"(name: "Pike", side: "Blue", template: "spearman", at: (3, 3), facing: E),
               (name: "Hrok", side: "Red", template: "giant", at: {giant_at}, facing: W)"#
        ));
        // The giant acts first: before its first turn it is off-guard and
        // cannot react (R2.3).
        let mut app = battle(&level, &["Hrok", "Pike"], "utility");
        let world = app.world_mut();
        submit(world, Command::EndTurn).unwrap();
        let pike = skirmish::battle::unit_named(world, "Pike").unwrap();
        world.entity_mut(pike).insert(skirmish::battle::Prone);
        next_command(world, &players(&level, "utility")).unwrap()
    };
    let beside = next_for("(4, 3)");
    assert!(!matches!(beside, Command::StandUp { .. }), "{beside:?}");
    let far = next_for("(8, 5)");
    assert!(matches!(far, Command::StandUp { .. }), "{far:?}");
}

/// Finishing the dying (R10.3) is worth most where it can be saved: a
/// dying enemy is marked rescuable only while one of its allies in action
/// can get beside it next turn (R10.4, R10.5).
#[test]
fn a_dying_enemy_is_rescuable_only_with_an_ally_in_reach() {
    let rescuable_with_ally_at = |at: &str| {
        let level = arena(&format!(
            r#"(name: "Ann", side: "Blue", template: "warden", at: (2, 3), facing: E),
               (name: "Down", side: "Red", template: "spearman", at: (3, 3), facing: W),
               (name: "Pal", side: "Red", template: "spearman", at: {at}, facing: W)"#
        ));
        let mut app = battle(&level, &["Ann", "Down", "Pal"], "utility");
        let world = app.world_mut();
        let down = skirmish::battle::unit_named(world, "Down").unwrap();
        skirmish::rules::attacks::damage::take_damage(
            world,
            down,
            30,
            skirmish::rules::events::DamageHow::Splash,
            down,
        );
        let ann = skirmish::battle::unit_named(world, "Ann").unwrap();
        let sit = skirmish::ai::situation::Situation::read(world, ann, true, &Weights::default())
            .unwrap();
        let unit = sit.units.iter().find(|u| u.entity == down).unwrap();
        assert!(unit.down);
        unit.rescuable
    };
    assert!(rescuable_with_ally_at("(5, 4)"));
    // Speed 1: five tiles off, it cannot come beside the dying next turn.
    assert!(!rescuable_with_ally_at("(8, 5), stats: (speed: 1)"));
}

/// Jumps (V9.2): a warden cut off from a wounded archer by a chasm two
/// tiles wide, with no way around, jumps it (DC 6 with +2: lands 80% of
/// the time, V9.3) rather than wait; with no chasm to cross, it walks.
#[test]
fn utility_jumps_a_chasm_to_reach_its_enemy() {
    let first = |row: &str| {
        let rows = ["##########", row, row, row, row, row, "##########"];
        let map: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
        let text = format!(
            "Level(name: \"Gap\", rules: (jumping: true), map: [{}], \
             sides: [(name: \"Blue\", control: Ai), (name: \"Red\", control: Ai)], \
             units: [(name: \"Ann\", side: \"Blue\", template: \"warden\", at: (3, 3), facing: E), \
                     (name: \"Bow\", side: \"Red\", template: \"archer\", at: (7, 3), facing: W, \
                      stats: (hp: 3))], round_limit: 10)",
            map.join(", ")
        );
        let level =
            parse_level(text.as_bytes(), "gap.ron", catalog()).unwrap_or_else(|p| panic!("{p}"));
        let mut app = battle(&level, &["Ann", "Bow"], "utility");
        next_command(app.world_mut(), &players(&level, "utility")).unwrap()
    };
    match first("#...__...#") {
        Command::Jump { to, .. } => assert!(to.x >= 6, "lands across the chasm: {to}"),
        other => panic!("expected a jump over the chasm, got {other:?}"),
    }
    let walks = first("#........#");
    assert!(
        matches!(walks, Command::Move { .. } | Command::Charge { .. }),
        "{walks:?}"
    );
}

/// The barrow defect of #27: a unit whose legs gave way mid-move (V3:
/// both legs severely hurt, prone, cannot stand) has AP left on its turn;
/// every shipped profile (the look-ahead ones too) sends it only what the
/// rules accept (a crawl of one tile at most, R4.8; no Move across the
/// map, no StandUp).
#[test]
fn a_unit_lamed_mid_move_is_sent_only_what_the_rules_accept() {
    use skirmish::format::{BodyPart, Severity};
    let level = level("barrow.ron");
    let shipped = Profiles::shipped();
    // Every one by name, so a profile added later is held to it too.
    for name in shipped.names() {
        let mut app = skirmish::setup::headless_app(&level, 3);
        let players = Players(vec![shipped.get(name).cloned(); level.sides().len()]);
        players.clone().install(app.world_mut());
        let world = app.world_mut();
        let me = world.resource::<TurnState>().current.unwrap();
        world.entity_mut(me).insert((
            skirmish::battle::Prone,
            skirmish::rules::variants::injuries::Injuries(vec![
                (BodyPart::Legs, Severity::Severe),
                (BodyPart::Legs, Severity::Severe),
            ]),
        ));
        for _ in 0..6 {
            if world.resource::<TurnState>().current != Some(me) {
                break;
            }
            let cmd = next_command(world, &players).unwrap();
            assert!(
                !matches!(cmd, Command::StandUp { .. }),
                "{name}: {cmd:?} (V3: its legs cannot carry it)"
            );
            if let Err(r) = skirmish::rules::check(world, cmd.clone()) {
                panic!("{name}: sent {cmd:?}, refused: {r}");
            }
            submit(world, cmd).unwrap();
        }
    }
}

/// `sim --paired FILE`: a run set beside an earlier run's JSON report on
/// the same battles counts, battle by battle, where its A came out better
/// and worse; an earlier run of other battles, or a file that is no
/// report, is refused before any battle is played, naming the file.
#[test]
fn sim_pairs_a_run_with_an_earlier_one_battle_by_battle() {
    let sim = |ai: &str, seed: &str, extra: &[&str]| {
        let args = [
            "sim",
            "levels/ford.ron",
            "--games",
            "8",
            "--ai",
            ai,
            "--vs",
            "greedy",
            "--seed",
            seed,
            "--swap",
            "--jobs",
            "2",
        ];
        skirmish(&[&args[..], extra].concat())
    };
    let (ok, earlier, err) = sim("utility", "3", &["--json"]);
    assert!(ok, "{err}");
    let file = std::env::temp_dir().join(format!("skirmish-paired-{}.json", std::process::id()));
    std::fs::write(&file, &earlier).unwrap();
    let file = file.to_str().unwrap();
    let (ok, now, err) = sim("random", "3", &["--json", "--paired", file]);
    assert!(ok, "{err}");
    let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).expect("JSON");
    let (earlier, now) = (json(&earlier), json(&now));
    assert!(earlier.get("paired").is_none(), "only when asked for");
    // The counts, from the two runs' battles one by one.
    let battles = |v: &serde_json::Value| v["battles"].as_str().unwrap().to_string();
    let score = |c: char| match c {
        'A' => 2,
        '-' => 1,
        _ => 0,
    };
    let pairs: Vec<(i32, i32)> = battles(&now)
        .chars()
        .zip(battles(&earlier).chars())
        .map(|(h, t)| (score(h), score(t)))
        .collect();
    let ahead = pairs.iter().filter(|(h, t)| h > t).count() as u64;
    let behind = pairs.iter().filter(|(h, t)| h < t).count() as u64;
    let paired = &now["paired"];
    assert_eq!(paired["with"], "utility");
    assert_eq!(paired["battles"], 8);
    assert_eq!(paired["ahead"].as_u64(), Some(ahead), "{paired}");
    assert_eq!(paired["behind"].as_u64(), Some(behind), "{paired}");
    // Random against the utility AI, against greedy: behind somewhere.
    assert!(behind > 0, "{paired}");
    let p = paired["p"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0, "{paired}");
    // The same in words.
    let (ok, text, err) = sim("random", "3", &["--paired", file]);
    assert!(ok, "{err}");
    assert!(
        text.contains(&format!(
            "paired with utility over 8 battles: +{ahead} / -{behind}"
        )),
        "{text}"
    );
    // Other battles: refused, and why.
    let (ok, _, err) = sim("random", "4", &["--paired", file]);
    assert!(!ok);
    assert!(err.contains(file), "{err}");
    assert!(
        err.contains("not the same battles: this run's seed is 4, the earlier run's 3"),
        "{err}"
    );
    // Not a report: the file, line and column.
    std::fs::write(file, "{\n  \"level\": \"Ford\",\n  \"a\": 3\n}\n").unwrap();
    let (ok, _, err) = sim("random", "3", &["--paired", file]);
    assert!(!ok);
    assert!(err.contains(&format!("{file}:3:")), "{err}");
    assert!(err.contains("not a `sim --json` report"), "{err}");
    std::fs::remove_file(file).unwrap();
}
