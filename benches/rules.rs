//! Speed of the rules engine (issue targets in brackets):
//! reachable set for speed 6 on 128×128 [≤ 50 µs], full-map Dijkstra on
//! 256×256 [≤ 5 ms], exact preview of one attack [≤ 2 µs], a headless
//! battle of 2000 random legal commands on 32×32 [≤ 20 ms].
//! Run: `cargo bench --bench rules`.

#[path = "generate.rs"]
mod generate;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skirmish::battle::headless_app;
use skirmish::grid::Pos;
use skirmish::load::{ValidLevel, load_catalog_dir, parse_level};
use skirmish::rules::attack::draft_for;
use skirmish::rules::legal::candidates;
use skirmish::rules::movement::{Occupancy, distances, reachable};
use skirmish::rules::preview::preview_attack;
use skirmish::rules::{TurnState, submit, unit_named};
use std::hint::black_box;
use std::path::Path;

fn level(size: usize, per_side: usize) -> ValidLevel {
    let catalog = load_catalog_dir(Path::new("assets/catalog")).expect("catalog");
    parse_level(
        generate::level_text(size, per_side).as_bytes(),
        "generated.ron",
        &catalog,
    )
    .unwrap_or_else(|p| panic!("{p}"))
}

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

fn bench_battle(c: &mut Criterion) {
    let arena = level(32, 8);
    c.bench_function("2000 random legal commands, 32x32", |b| {
        b.iter_batched(
            || headless_app(&arena, 42),
            |mut app| {
                let world = app.world_mut();
                let mut chooser = ChaCha8Rng::seed_from_u64(7);
                let mut accepted = 0;
                while accepted < 2000 {
                    if world.resource::<TurnState>().outcome.is_some() {
                        break;
                    }
                    let options = candidates(world);
                    let c = options[chooser.random_range(0..options.len())].clone();
                    if submit(world, c).is_ok() {
                        accepted += 1;
                    }
                }
                accepted
            },
            BatchSize::PerIteration,
        )
    });
}

criterion_group!(benches, bench_movement, bench_preview, bench_battle);
criterion_main!(benches);
