//! Property tests: whatever the bytes, the loader answers and never panics.

use crate::common::{catalog, ron_files, root};
use proptest::prelude::*;
use skirmish::format::{Level, UnitPlacement};
use skirmish::grid::{Dir, Pos};
use skirmish::load::{parse_level, validate_level};

fn level_texts() -> Vec<String> {
    let mut files = ron_files(&root().join("levels"));
    files.extend(ron_files(&root().join("tests/broken")));
    files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect()
}

/// One edit of a text: delete, insert or replace a run, or duplicate a line.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Replace(usize, char),
    DuplicateLine(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1..40usize).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), "[(),:\\[\\]\"'0-9a-zA-Z#.~=%T_ \n-]{1,12}")
            .prop_map(|(a, s)| Edit::Insert(a, s)),
        (any::<usize>(), any::<char>()).prop_map(|(a, c)| Edit::Replace(a, c)),
        any::<usize>().prop_map(Edit::DuplicateLine),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| if chars.is_empty() { 0 } else { i % chars.len() };
    let mut out = chars.clone();
    match edit {
        Edit::Delete(a, n) => {
            let s = at(*a);
            out.drain(s..(s + n).min(out.len()));
        }
        Edit::Insert(a, s) => {
            let i = at(*a);
            out.splice(i..i, s.chars());
        }
        Edit::Replace(a, c) => {
            if !out.is_empty() {
                let i = at(*a);
                out[i] = *c;
            }
        }
        Edit::DuplicateLine(a) => {
            let lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let i = a % lines.len();
                let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
                l.insert(i, lines[i].to_string());
                return l.join("\n");
            }
        }
    }
    out.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = parse_level(&bytes, "fuzz.ron", catalog());
    }

    #[test]
    fn mutated_levels_never_panic(
        which in any::<usize>(),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let texts = level_texts();
        let mut text = texts[which % texts.len()].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        match parse_level(text.as_bytes(), "mutated.ron", catalog()) {
            Ok(level) => {
                // Whatever is accepted is sound: units on passable tiles, alone.
                for u in &level.units {
                    prop_assert!(level.map.is_passable(u.at));
                }
                let mut tiles: Vec<_> = level.units.iter().map(|u| u.at).collect();
                tiles.sort();
                tiles.dedup();
                prop_assert_eq!(tiles.len(), level.units.len());
            }
            Err(problems) => {
                prop_assert!(!problems.0.is_empty());
                for d in &problems.0 {
                    prop_assert!(!d.message.is_empty());
                }
            }
        }
    }

    /// Units scattered anywhere, on or off the map: validation refuses
    /// exactly the misplaced ones.
    #[test]
    fn unit_placement_is_checked(
        spots in proptest::collection::vec((-3..20i32, -3..15i32), 2..10),
    ) {
        let base = crate::common::level("ford.ron");
        let mut source: Level = base.source.clone();
        source.units = spots
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| UnitPlacement {
                name: format!("u{i}"),
                side: source.sides[i % 2].name.clone(),
                template: "warden".into(),
                at: Pos::new(x, y),
                facing: Dir::N,
                stats: Default::default(),
            })
            .collect();
        let map = &base.map;
        let mut seen = std::collections::BTreeSet::new();
        let expect_ok = spots.iter().all(|&(x, y)| {
            let p = Pos::new(x, y);
            map.is_passable(p) && seen.insert(p)
        });
        let result = validate_level(source, catalog(), "generated");
        prop_assert_eq!(result.is_ok(), expect_ok, "{:?}", result.err());
    }
}
