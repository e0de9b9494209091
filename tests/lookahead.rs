//! The look-ahead AI (issue #27): the same seed and budget give the same
//! commands; it only ever sends what the rules accept, on every shipped
//! level and variant; it never changes the battle it thinks about; it
//! uses only what its side may know (V8.10); and it solves a puzzle the
//! utility AI (`utility1`) fails.

use crate::common::{level, root};
use proptest::prelude::*;
use skirmish::ai::search::Thought;
use skirmish::ai::{Players, Profile, Profiles, next_command};
use skirmish::rules::{TurnState, check, submit};
use skirmish::save::SaveGame;
use skirmish::setup::headless_app;
use skirmish::sim::{SimConfig, play_logged};

/// The default profile with a small budget: the same search, quick enough
/// for a debug build.
fn quick() -> Profile {
    let mut p = Profiles::shipped()
        .get(skirmish::ai::DEFAULT_PROFILE)
        .cloned()
        .expect("the default profile");
    p.search.budget = 24;
    p.search.width = 3;
    p.search.replies = 1;
    p
}

fn shipped(name: &str) -> Profile {
    Profiles::shipped().get(name).cloned().expect(name)
}

/// Same seed, same budget: the same battle, command for command; a budget
/// is counted in commands played, never in time.
#[test]
fn the_same_seed_and_budget_give_the_same_battle() {
    let config = SimConfig {
        level: level("ford.ron"),
        games: 2,
        a: quick(),
        b: shipped("utility1"),
        seed: 5,
        jobs: 1,
        swap: true,
    };
    for index in 0..2 {
        let (one, log_one) = play_logged(&config, index);
        let (two, log_two) = play_logged(&config, index);
        assert_eq!(one, two, "battle {index}");
        assert_eq!(log_one, log_two, "battle {index}");
        assert_eq!(one.refused, 0, "battle {index}");
    }
}

/// One decision, twice from the same position: the same command and the
/// same thought; the battle it thinks about is left as it was but for the
/// AI's own stream of chances (the tries' dice are drawn from it).
#[test]
fn a_decision_is_repeatable_and_leaves_the_battle_alone() {
    let level = level("brawl.ron");
    let profile = quick();
    let players = Players(vec![Some(profile.clone()); level.sides().len()]);
    let decide = || {
        let mut app = headless_app(&level, 11);
        players.clone().install(app.world_mut());
        let world = app.world_mut();
        let mut before = SaveGame::capture(world);
        let command = next_command(world, &players).expect("the AI is to act");
        let thought = world.remove_resource::<Thought>().expect("a thought");
        let after = SaveGame::capture(world);
        before.dice = after.dice.clone();
        assert_eq!(before, after, "the battle changed while the AI thought");
        (command, thought)
    };
    let (c1, t1) = decide();
    let (c2, t2) = decide();
    assert_eq!(c1, c2);
    assert_eq!(t1, t2);
    assert!(t1.skipped.is_some() || t1.nodes >= profile.search.budget);
    if t1.skipped.is_none() {
        // Every candidate had the same number of tries, at least one.
        let tries: Vec<usize> = t1.considered.iter().map(|c| c.tries).collect();
        assert!(tries.iter().all(|t| *t == tries[0] && *t >= 1), "{tries:?}");
        assert_eq!(t1.considered[0].command, c1);
    }
}

/// A bigger budget is more tries of each candidate (anytime: the same
/// rounds, more of them, until the others are ruled out).
#[test]
fn a_bigger_budget_plays_more_tries() {
    let level = level("ford.ron");
    let tries = |budget: usize| {
        let mut profile = quick();
        profile.search.budget = budget;
        let players = Players(vec![Some(profile); level.sides().len()]);
        let mut app = headless_app(&level, 2);
        players.clone().install(app.world_mut());
        let world = app.world_mut();
        // The first decision with more than one plan.
        for _ in 0..20 {
            let command = next_command(world, &players).expect("the AI is to act");
            let thought = world.remove_resource::<Thought>();
            if let Some(t) = thought.filter(|t| t.skipped.is_none()) {
                return (t.considered[0].tries, t.nodes);
            }
            submit(world, command).expect("accepted");
        }
        panic!("no decision with two plans");
    };
    let (few, nodes_few) = tries(10);
    let (many, nodes_many) = tries(200);
    assert!(many > few, "{few} tries for 10 commands, {many} for 200");
    // The budget bounds the tries; fewer are played only once every other
    // candidate is clearly worse than the utility's choice.
    assert!(
        nodes_many > nodes_few,
        "{nodes_few} and {nodes_many} commands"
    );
}

/// V8.10: while an enemy is hidden from its side, the look-ahead does not
/// try commands on a copy that holds the hidden enemy: it decides as the
/// utility AI does, and says why.
#[test]
fn a_hidden_enemy_is_not_looked_for_on_the_copy() {
    let level = skirmish::load::load_level_file(
        &root().join("tests/levels/night.ron"),
        crate::common::catalog(),
    )
    .expect("night.ron");
    let profile = quick();
    let players = Players(vec![Some(profile); level.sides().len()]);
    let mut app = headless_app(&level, 4);
    players.clone().install(app.world_mut());
    let world = app.world_mut();
    let mut saw_hidden = false;
    for _ in 0..200 {
        let Some(command) = next_command(world, &players) else {
            break;
        };
        if let Some(t) = world.remove_resource::<Thought>() {
            let me = skirmish::battle::unit_named(world, &t.unit).expect("the unit");
            let mine = world.get::<skirmish::battle::Side>(me).unwrap().0;
            let hidden = skirmish::battle::units(world).into_iter().any(|e| {
                world
                    .get::<skirmish::battle::Side>(e)
                    .is_some_and(|s| s.0 != mine)
                    && !skirmish::battle::out_of_action(world, e)
                    && skirmish::battle::hidden_from(world, e, mine)
            });
            if hidden {
                saw_hidden = true;
                assert_eq!(t.nodes, 0, "{t:?}");
                assert!(t.skipped.is_some(), "{t:?}");
            }
        }
        if submit(world, command.clone()).is_err() {
            panic!("refused: {command:?}");
        }
    }
    assert!(saw_hidden, "the night level never hid an enemy");
}

/// Every level shipped, and the test levels of the variants no shipped
/// level plays (V9 heights, V8 night).
fn every_level() -> Vec<skirmish::load::ValidLevel> {
    let mut out: Vec<_> = crate::common::ron_files(&root().join("levels"))
        .iter()
        .map(|p| {
            skirmish::load::load_level_file(p, crate::common::catalog())
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    for extra in ["cliffs.ron", "night.ron"] {
        out.push(
            skirmish::load::load_level_file(
                &root().join("tests/levels").join(extra),
                crate::common::catalog(),
            )
            .expect(extra),
        );
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: crate::common::cases(24),
        ..ProptestConfig::default()
    })]

    /// From a position some way into a battle of any level (its commands
    /// played by utility1), the look-ahead's commands for the rest of the
    /// unit's turn and the reactions on the way are all accepted.
    #[test]
    fn the_look_ahead_sends_only_legal_commands(
        which in 0..64usize,
        seed in any::<u64>(),
        before in 0..60usize,
    ) {
        let levels = every_level();
        let level = &levels[which % levels.len()];
        let mut app = headless_app(level, seed);
        let base = Players(vec![Some(shipped("utility1")); level.sides().len()]);
        let search = Players(vec![Some(quick()); level.sides().len()]);
        base.clone().install(app.world_mut());
        let world = app.world_mut();
        for _ in 0..before {
            let Some(command) = next_command(world, &base) else { break };
            prop_assert!(submit(world, command.clone()).is_ok(), "utility1: {:?}", command);
        }
        let unit = world.resource::<TurnState>().current;
        for _ in 0..8 {
            if world.resource::<TurnState>().current != unit {
                break;
            }
            let Some(command) = next_command(world, &search) else { break };
            if let Err(r) = check(world, command.clone()) {
                prop_assert!(false, "{}: sent {:?}, refused: {}", level.name(), command, r);
            }
            submit(world, command).expect("checked");
        }
    }
}
