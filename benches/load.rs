//! Parse and validate a generated 128×128 level with 64 units
//! (issue: ≤ 5 ms median). Run: `cargo bench --bench load`.

use criterion::{Criterion, criterion_group, criterion_main};
use skirmish::load::{load_catalog_dir, parse_level};
use std::hint::black_box;
use std::path::Path;

/// A 128×128 level text: walls round the edge, every terrain scattered in a
/// fixed pattern, 32 units a side.
fn generated_level() -> String {
    let size = 128;
    let terrain = ['.', '.', '.', '.', '=', '%', 'T', '~', '_', '.', '.', '#'];
    let mut rows = Vec::new();
    for y in 0..size {
        let row: String = (0..size)
            .map(|x| {
                if x == 0 || y == 0 || x == size - 1 || y == size - 1 {
                    '#'
                } else if y % 16 < 2 {
                    '.' // open lanes where the units stand
                } else {
                    terrain[(x * 7 + y * 13 + x * y) % terrain.len()]
                }
            })
            .collect();
        rows.push(format!("        \"{row}\","));
    }
    let kinds = [
        "warden",
        "archer",
        "raider",
        "spearman",
        "skirmisher",
        "medic",
        "brute",
        "grenadier",
    ];
    let mut units = Vec::new();
    for i in 0..64 {
        let side = if i % 2 == 0 { "A" } else { "B" };
        let (x, y) = (2 + (i / 2) * 3, if i % 2 == 0 { 16 } else { 112 });
        units.push(format!(
            "        (name: \"u{i}\", side: \"{side}\", template: \"{}\", at: ({x}, {y}), facing: S),",
            kinds[i % kinds.len()]
        ));
    }
    format!(
        "Level(\n    name: \"Generated\",\n    map: [\n{}\n    ],\n    sides: [ (name: \"A\"), (name: \"B\", control: Ai) ],\n    units: [\n{}\n    ],\n)\n",
        rows.join("\n"),
        units.join("\n")
    )
}

fn bench_load(c: &mut Criterion) {
    let catalog = load_catalog_dir(Path::new("assets/catalog")).expect("catalog");
    let text = generated_level();
    let level = parse_level(text.as_bytes(), "generated.ron", &catalog)
        .unwrap_or_else(|p| panic!("the generated level must be valid:\n{p}"));
    assert_eq!(level.units.len(), 64);
    c.bench_function("parse+validate 128x128, 64 units", |b| {
        b.iter(|| parse_level(black_box(text.as_bytes()), "generated.ron", &catalog).unwrap())
    });
}

criterion_group!(benches, bench_load);
criterion_main!(benches);
