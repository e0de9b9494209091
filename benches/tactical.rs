//! Speed of the tactical rules (issue targets in brackets): line of effect
//! and cover for all pairs among 64 units on 128×128 [≤ 2 ms]; the threat
//! map of all enemies on 48×48 with 16 units [≤ 200 µs].
//! Run: `cargo bench --bench tactical`.

#[path = "generate.rs"]
mod generate;

use criterion::{Criterion, criterion_group, criterion_main};
use skirmish::rules::positioning::threat::{all_threats, threat_map};
use skirmish::rules::sight::line_of_effect::sight;
use skirmish::setup::headless_app;
use std::hint::black_box;

use generate::level;

fn bench_sight(c: &mut Criterion) {
    let big = level(128, 32);
    let tiles: Vec<_> = big.units.iter().map(|u| u.at).collect();
    assert_eq!(tiles.len(), 64);
    c.bench_function(
        "line of effect + cover, all pairs of 64 units, 128x128",
        |b| {
            b.iter(|| {
                let mut clear = 0;
                for (i, &a) in tiles.iter().enumerate() {
                    for &t in &tiles[i + 1..] {
                        if sight(&big.map, a, black_box(t)).clear {
                            clear += 1;
                        }
                    }
                }
                clear
            })
        },
    );
}

fn bench_threat(c: &mut Criterion) {
    let arena = level(48, 8);
    let mut app = headless_app(&arena, 1);
    let world = app.world_mut();
    c.bench_function("threat map of all enemies, 48x48, 16 units", |b| {
        b.iter(|| threat_map(&all_threats(world), black_box(0), 48, 48))
    });
}

criterion_group!(benches, bench_sight, bench_threat);
criterion_main!(benches);
