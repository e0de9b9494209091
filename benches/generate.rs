//! Generated levels for the benchmarks (shared by `#[path]`).

use skirmish::load::{ValidLevel, load_catalog_dir, parse_level};
use std::path::Path;

/// A generated level, checked against the shipped catalog.
#[allow(dead_code)]
pub fn level(size: usize, per_side: usize) -> ValidLevel {
    let catalog = load_catalog_dir(Path::new("assets/catalog")).expect("catalog");
    parse_level(
        level_text(size, per_side).as_bytes(),
        "generated.ron",
        &catalog,
    )
    .unwrap_or_else(|p| panic!("{p}"))
}

/// A `size`×`size` level text: walls round the edge, every terrain scattered
/// in a fixed pattern, open lanes at rows 2 and `size - 3`, `per_side` units
/// a side from the shipped catalog.
pub fn level_text(size: usize, per_side: usize) -> String {
    let terrain = ['.', '.', '.', '.', '.', '.', '=', '%', 'T', '~', '.', '#'];
    let lanes = [1, 2, size - 3, size - 2];
    let mut rows = Vec::new();
    for y in 0..size {
        let row: String = (0..size)
            .map(|x| {
                if x == 0 || y == 0 || x == size - 1 || y == size - 1 {
                    '#'
                } else if lanes.contains(&y) {
                    '.'
                } else {
                    terrain[(x * 7 + y * 13 + (x * y) % 5) % terrain.len()]
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
    for i in 0..per_side * 2 {
        let (side, y, facing) = if i % 2 == 0 {
            ("A", 2, "S")
        } else {
            ("B", size - 3, "N")
        };
        let x = 1 + (i / 2) * (size - 2) / per_side;
        units.push(format!(
            "        (name: \"u{i}\", side: \"{side}\", template: \"{}\", at: ({x}, {y}), facing: {facing}),",
            kinds[(i / 2) % kinds.len()]
        ));
    }
    format!(
        "Level(\n    name: \"Generated\",\n    map: [\n{}\n    ],\n    sides: [ (name: \"A\"), (name: \"B\", control: Ai) ],\n    units: [\n{}\n    ],\n    round_limit: 1000,\n)\n",
        rows.join("\n"),
        units.join("\n")
    )
}
