//! Parse and validate a generated 128×128 level with 64 units
//! (issue: ≤ 5 ms median). Run: `cargo bench --bench load`.

use criterion::{Criterion, criterion_group, criterion_main};
use skirmish::load::{load_catalog_dir, parse_level};
use std::hint::black_box;
use std::path::Path;

#[path = "generate.rs"]
mod generate;

fn bench_load(c: &mut Criterion) {
    let catalog = load_catalog_dir(Path::new("assets/catalog")).expect("catalog");
    let text = generate::level_text(128, 32);
    let level = parse_level(text.as_bytes(), "generated.ron", &catalog)
        .unwrap_or_else(|p| panic!("the generated level must be valid:\n{p}"));
    assert_eq!(level.units.len(), 64);
    c.bench_function("parse+validate 128x128, 64 units", |b| {
        b.iter(|| parse_level(black_box(text.as_bytes()), "generated.ron", &catalog).unwrap())
    });
}

criterion_group!(benches, bench_load);
criterion_main!(benches);
