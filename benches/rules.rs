//! Speed of the rules engine (issue targets in brackets):
//! reachable set for speed 6 on 128×128 [≤ 50 µs], full-map Dijkstra on
//! 256×256 [≤ 5 ms], exact preview of one attack [≤ 2 µs], a headless
//! battle of 2000 random legal commands on 32×32 [≤ 20 ms].
//! Run: `cargo bench --bench rules`.

#[path = "generate.rs"]
mod generate;

use bevy::prelude::{Entity, Name, World};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skirmish::battle::{ActionPoints, GridPos};
use skirmish::battle::{unit_named, units};
use skirmish::grid::Dir;
use skirmish::grid::Pos;
use skirmish::load::load_catalog_dir;
use skirmish::rules::attacks::preview::preview_attack;
use skirmish::rules::attacks::resolution::draft_for;
use skirmish::rules::motion::movement::{Occupancy, distances, reachable};
use skirmish::rules::{Command, TurnState, submit};
use skirmish::setup::headless_app;
use std::hint::black_box;
use std::path::Path;

use generate::level;

fn bench_movement(c: &mut Criterion) {
    let big = level(128, 32);
    let start = Pos::new(64, 2);
    let occ = Occupancy::new(&big.map, big.units.iter().map(|u| (u.at, u.side)), 0, start);
    c.bench_function("reachable speed 6, 128x128", |b| {
        b.iter(|| reachable(&big.map, &occ, black_box(start), 6))
    });
    let huge = level(256, 8);
    let start = Pos::new(128, 2);
    let occ = Occupancy::new(
        &huge.map,
        huge.units.iter().map(|u| (u.at, u.side)),
        0,
        start,
    );
    let all = distances(&huge.map, &occ, start).tiles().count();
    assert!(all > 256 * 256 / 2, "the map is mostly reachable: {all}");
    c.bench_function("full-map Dijkstra 256x256", |b| {
        b.iter(|| distances(&huge.map, &occ, black_box(start)))
    });
}

fn bench_preview(c: &mut Criterion) {
    let catalog = load_catalog_dir(Path::new("assets/catalog")).expect("catalog");
    let duel =
        skirmish::load::load_level_file(Path::new("tests/levels/duel.ron"), &catalog).unwrap();
    let mut app = headless_app(&duel, 1);
    let world = app.world_mut();
    let (a, t) = (
        unit_named(world, "Ila").unwrap(),
        unit_named(world, "Brakka").unwrap(),
    );
    let draft = draft_for(world, a, t, None).unwrap();
    c.bench_function("exact preview of one attack", |b| {
        b.iter(|| preview_attack(world, black_box(draft.clone())).unwrap())
    });
}

/// One random command for the unit whose turn it is, drawn cheaply: a kind,
/// then its arguments (a reachable tile, another unit, a direction). Some
/// are refused; the battle loop counts only the accepted ones.
fn random_command(world: &mut World, rng: &mut ChaCha8Rng, names: &[(Entity, String)]) -> Command {
    let Some(unit) = world.resource::<TurnState>().current else {
        return Command::EndTurn;
    };
    let name = names.iter().find(|(e, _)| *e == unit).unwrap().1.clone();
    let other = names[rng.random_range(0..names.len())].1.clone();
    let dir = Dir::ALL[rng.random_range(0..8)];
    // With no AP left only free commands are legal.
    let ap = world.get::<ActionPoints>(unit).map_or(0, |a| a.ap);
    if ap == 0 {
        return if rng.random_range(0..4) == 0 {
            Command::Face { unit: name, dir }
        } else {
            Command::EndTurn
        };
    }
    match rng.random_range(0..12) {
        0..=3 => {
            // A random tile within 4 of the unit: often reachable, and the
            // rules say why not when it is not.
            let at = world.get::<GridPos>(unit).unwrap().0;
            let to = Pos::new(
                at.x + rng.random_range(-4..=4),
                at.y + rng.random_range(-4..=4),
            );
            Command::Move {
                unit: name,
                to,
                path: None,
                sprint: false,
            }
        }
        4..=6 => Command::Attack {
            unit: name,
            target: other,
            weapon: None,
            power: 0,
            lunge: false,
            part: None,
        },
        7 => Command::Charge {
            unit: name,
            target: other,
            shove: false,
        },
        8 => Command::Face { unit: name, dir },
        9 => {
            let at = world.get::<GridPos>(unit).unwrap().0;
            Command::Step {
                unit: name,
                to: at.step(dir),
            }
        }
        10 => Command::Defend { unit: name },
        _ => Command::EndTurn,
    }
}

/// 2000 random legal commands for a battle on `arena` with seed 42: drawn
/// once (random commands, the refused ones dropped), so that the benchmark
/// times the rules alone replaying them.
fn random_legal_commands(arena: &skirmish::load::ValidLevel) -> Vec<Command> {
    let mut app = headless_app(arena, 42);
    let world = app.world_mut();
    let mut chooser = ChaCha8Rng::seed_from_u64(7);
    let names: Vec<(Entity, String)> = units(world)
        .into_iter()
        .map(|e| (e, world.get::<Name>(e).unwrap().to_string()))
        .collect();
    let mut accepted = vec![];
    while accepted.len() < 2000 && world.resource::<TurnState>().outcome.is_none() {
        let c = random_command(world, &mut chooser, &names);
        if submit(world, c.clone()).is_ok() {
            accepted.push(c);
        }
    }
    assert_eq!(accepted.len(), 2000, "the battle lasted 2000 commands");
    accepted
}

fn bench_battle(c: &mut Criterion) {
    let arena = level(32, 8);
    let commands = random_legal_commands(&arena);
    let mut group = c.benchmark_group("battle");
    group.sample_size(30);
    group.bench_function("2000 random legal commands, 32x32", |b| {
        b.iter_batched(
            || headless_app(&arena, 42),
            |mut app| {
                let world = app.world_mut();
                for c in &commands {
                    submit(world, c.clone()).expect("the same battle accepts the same commands");
                }
                app
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench_movement, bench_preview, bench_battle);
criterion_main!(benches);
