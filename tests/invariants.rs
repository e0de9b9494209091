//! Property test: random command streams, legal or not, never panic and
//! never break an invariant; a refused command changes nothing.

use crate::common::level;
use bevy::prelude::*;
use proptest::prelude::*;
use skirmish::battle::{ActionPoints, Dead, GridPos, Health, UnitId, headless_app};
use skirmish::grid::{Dir, Pos};
use skirmish::rules::legal::legal_commands;
use skirmish::rules::{Command, TurnState, submit};
use skirmish::save::SaveGame;

const NAMES: &[&str] = &[
    "Ila", "Bran", "Cole", "Dara", "Brakka", "Orm", "Skarn", "Vek", "Nobody",
];

/// A command built from arbitrary parts: known and unknown units, tiles on
/// and off the map, any direction; or "pick the k-th legal command".
#[derive(Clone, Debug)]
enum Step {
    Raw(u8, usize, usize, (i32, i32), u8),
    Legal(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (
            0..14u8,
            0..NAMES.len(),
            0..NAMES.len(),
            (-3..20i32, -3..15i32),
            0..8u8
        )
            .prop_map(|(k, u, t, p, d)| Step::Raw(k, u, t, p, d)),
        any::<usize>().prop_map(Step::Legal),
    ]
}

fn raw(k: u8, u: usize, t: usize, (x, y): (i32, i32), d: u8) -> Command {
    let unit = NAMES[u].to_string();
    let target = NAMES[t].to_string();
    let to = Pos::new(x, y);
    let dir = Dir::ALL[d as usize];
    match k {
        0 => Command::Move {
            unit,
            to,
            path: None,
        },
        1 => Command::Step { unit, to },
        2 => Command::Face { unit, dir },
        3 => Command::Attack {
            unit,
            target,
            weapon: None,
            power: 0,
            lunge: false,
        },
        4 => Command::Attack {
            unit,
            target,
            weapon: Some("bogus".into()),
            power: 0,
            lunge: false,
        },
        5 => Command::Charge { unit, target },
        6 => Command::Defend { unit },
        7 => Command::ReadyShield { unit },
        8 => Command::StandUp { unit },
        9 => Command::Stabilize { unit, target },
        10 => Command::PickUp {
            unit,
            item: "sword".into(),
        },
        11 => Command::DrinkPotion {
            unit,
            target: Some(target),
        },
        12 => Command::Move {
            unit,
            to,
            path: Some(vec![to, Pos::new(x + 1, y)]),
        },
        _ => Command::EndTurn,
    }
}

fn check_invariants(world: &mut World) -> Result<(), TestCaseError> {
    let units: Vec<(Pos, i32, i32, i32, bool)> = world
        .query::<(&UnitId, &GridPos, &Health, &ActionPoints, Has<Dead>)>()
        .iter(world)
        .map(|(_, p, h, a, dead)| (p.0, h.hp, h.max, a.ap, dead))
        .collect();
    let mut tiles: Vec<Pos> = units.iter().filter(|u| !u.4).map(|u| u.0).collect();
    tiles.sort();
    let n = tiles.len();
    tiles.dedup();
    prop_assert_eq!(tiles.len(), n, "two units share a tile");
    for (_, hp, max, ap, _) in &units {
        prop_assert!(*hp >= 0 && hp <= max, "HP {} of {}", hp, max);
        prop_assert!(*ap >= 0, "AP {}", ap);
    }
    if let Some(current) = world.resource::<TurnState>().current {
        prop_assert!(
            !world.entity(current).contains::<Dead>(),
            "a dead unit has the turn"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_command_streams_keep_the_invariants(
        seed in any::<u64>(),
        steps in proptest::collection::vec(step(), 1..120),
    ) {
        let mut app = headless_app(&level("ford.ron"), seed);
        let world = app.world_mut();
        for s in steps {
            let command = match s {
                Step::Raw(k, u, t, p, d) => raw(k, u, t, p, d),
                Step::Legal(i) => {
                    let legal = legal_commands(world);
                    if legal.is_empty() { break; }
                    legal[i % legal.len()].clone()
                }
            };
            let actor_dead = command
                .actor()
                .and_then(|n| skirmish::rules::unit_named(world, n))
                .is_some_and(|e| world.entity(e).contains::<Dead>());
            let before = SaveGame::capture(world);
            match submit(world, command.clone()) {
                Ok(()) => prop_assert!(!actor_dead, "a dead unit acted: {}", command),
                Err(reason) => {
                    prop_assert!(!reason.0.is_empty());
                    prop_assert_eq!(&SaveGame::capture(world), &before, "refused {} changed the battle", command);
                }
            }
            check_invariants(world)?;
        }
    }
}
