//! The designers' tools on big generated levels (issue 12): `lint` of a
//! 128×128 level with 64 units (≤ 20 ms) and `render` of a 64×64 level to
//! PNG (≤ 100 ms); a live reload of a 64×64 level with 32 units (the files
//! read again, the battle restarted; the window adds at most one poll,
//! 250 ms, and a frame: ≤ 1 s in all). Run: `cargo bench --bench design`.

use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use skirmish::design::lint::lint_level;
use skirmish::design::reload::{LiveLevel, reload};
use skirmish::design::render::{RenderOptions, render};
use skirmish::load::{load_catalog_dir, parse_level};
use skirmish::setup::BattlePlugin;
use std::hint::black_box;
use std::path::Path;

#[path = "generate.rs"]
mod generate;

fn bench_design(c: &mut Criterion) {
    let catalog = load_catalog_dir(Path::new("assets/catalog")).expect("catalog");
    let big = generate::level_text(128, 32);
    let level = parse_level(big.as_bytes(), "big.ron", &catalog).expect("a valid level");
    assert_eq!(level.units.len(), 64);
    c.bench_function("lint 128x128, 64 units", |b| {
        b.iter(|| lint_level(black_box(&level), &big, "big.ron"))
    });
    let text = generate::level_text(64, 16);
    let level = parse_level(text.as_bytes(), "64.ron", &catalog).expect("a valid level");
    c.bench_function("render 64x64 to PNG", |b| {
        b.iter(|| {
            let picture = render(black_box(&level), &RenderOptions::default()).unwrap();
            let mut png = Vec::new();
            picture.write_png(&mut png).unwrap();
            png
        })
    });
    let dir = std::env::temp_dir().join(format!("skirmish-bench-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("64.ron");
    std::fs::write(&file, &text).unwrap();
    let live = LiveLevel::new(&file);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, BattlePlugin));
    reload(app.world_mut(), &live).expect("the level loads");
    c.bench_function("reload 64x64, 32 units", |b| {
        b.iter(|| reload(app.world_mut(), black_box(&live)).unwrap())
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench_design);
criterion_main!(benches);
