//! Property tests: whatever the bytes, the loader answers and never panics;
//! and whatever level it accepts, the rules, the AI and the window's
//! previews play it without a panic, in a build with overflow checks
//! (`cargo test` builds so: see Cargo.toml's `[profile.dev]`).
//!
//! `cargo test mutated_levels` tries 300 mutated levels;
//! `SKIRMISH_MUTATIONS=100000 cargo test mutated_levels -- --nocapture`
//! the long run (progress every 1000 levels; README, *Benchmarks*).

use crate::common::{catalog, play_on, ron_files, root, window_app};
use bevy::prelude::*;
use proptest::prelude::*;
use skirmish::battle::{GridPos, units};
use skirmish::format::{Level, Overlay, UnitPlacement};
use skirmish::grid::{Dir, Pos};
use skirmish::load::{ValidLevel, parse_level, validate_level};
use skirmish::rules::attacks::preview::preview_attack;
use skirmish::rules::attacks::resolution::draft_for;
use skirmish::rules::attacks::techniques::full_power;
use skirmish::rules::{Decisions, TurnState};
use skirmish::view::controls::CursorTile;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The texts mutated: every shipped and test level (three times, so that
/// most mutated levels start from a sound one), and every broken level.
fn level_texts() -> Vec<String> {
    let mut files = vec![];
    for _ in 0..3 {
        files.extend(ron_files(&root().join("levels")));
        files.extend(ron_files(&root().join("tests/levels")));
    }
    files.extend(ron_files(&root().join("tests/broken")));
    files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect()
}

/// One edit of a text: delete, insert or replace a run, duplicate a line,
/// or make a number longer (digits after one of the text's digits).
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Replace(usize, char),
    DuplicateLine(usize),
    Digits(usize, String),
    Number(usize, i64),
    Terrain(usize, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => (any::<usize>(), 1..40usize).prop_map(|(a, n)| Edit::Delete(a, n)),
        1 => (any::<usize>(), "[(),:\\[\\]\"'0-9a-zA-Z#.~=%T_ \n-]{1,12}")
            .prop_map(|(a, s)| Edit::Insert(a, s)),
        1 => (any::<usize>(), any::<char>()).prop_map(|(a, c)| Edit::Replace(a, c)),
        1 => any::<usize>().prop_map(Edit::DuplicateLine),
        1 => (any::<usize>(), "[0-9]{1,10}").prop_map(|(a, d)| Edit::Digits(a, d)),
        // Edits that keep the syntax, so that more levels are accepted and
        // played: a number anywhere, a terrain symbol in a map row.
        3 => (
            any::<usize>(),
            prop_oneof![4 => -3i64..12, 2 => -1000i64..2_000_000, 1 => any::<i32>().prop_map(i64::from)]
        )
            .prop_map(|(a, n)| Edit::Number(a, n)),
        3 => (any::<usize>(), proptest::sample::select(vec!['.', '#', '=', '%', 'T', '~', '_']))
            .prop_map(|(a, c)| Edit::Terrain(a, c)),
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
        Edit::Digits(a, digits) => {
            let places: Vec<usize> = (0..chars.len())
                .filter(|i| chars[*i].is_ascii_digit())
                .collect();
            if !places.is_empty() {
                let i = places[a % places.len()] + 1;
                out.splice(i..i, digits.chars());
            }
        }
        Edit::Number(a, n) => {
            // The `a`th run of digits (with its sign) becomes `n`.
            let mut runs = vec![];
            let mut i = 0;
            while i < chars.len() {
                if chars[i].is_ascii_digit() {
                    let start = if i > 0 && chars[i - 1] == '-' {
                        i - 1
                    } else {
                        i
                    };
                    let mut end = i;
                    while end < chars.len() && chars[end].is_ascii_digit() {
                        end += 1;
                    }
                    runs.push((start, end));
                    i = end;
                } else {
                    i += 1;
                }
            }
            if !runs.is_empty() {
                let (start, end) = runs[a % runs.len()];
                out.splice(start..end, n.to_string().chars());
            }
        }
        Edit::Terrain(a, c) => {
            let symbols = ['.', '#', '=', '%', 'T', '~', '_'];
            let places: Vec<usize> = (0..chars.len())
                .filter(|i| symbols.contains(&chars[*i]))
                .collect();
            if !places.is_empty() {
                out[places[a % places.len()]] = *c;
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

/// Commands of a played mutated level.
const STEPS: usize = 8;

/// Plays `level` a little: every side at the window with every overlay on,
/// the cursor on each unit in turn (the previews, the odds and each
/// overlay computed for the unit to act), every attack of the unit to act
/// previewed (plain, with a full Power Attack, with a Lunge), and the
/// default AI's command sent.
fn play_a_little(level: &ValidLevel) {
    let mut app = window_app(level, 1, Overlay::ALL);
    for step in 0..STEPS {
        let world = app.world_mut();
        let all = units(world);
        let hovered = all
            .get(step % all.len().max(1))
            .and_then(|u| world.get::<GridPos>(*u))
            .map(|p| p.0);
        world.resource_mut::<CursorTile>().0 = hovered;
        app.update();
        let world = app.world_mut();
        let asked = world.resource::<Decisions>().asked().is_some();
        if let (Some(me), false) = (world.resource::<TurnState>().current, asked) {
            for target in units(world) {
                for (power, lunge) in [(0, false), (full_power(world, me, false), false), (0, true)]
                {
                    if let Ok(mut draft) = draft_for(world, me, target, None) {
                        (draft.power, draft.lunge) = (power, lunge);
                        let _ = preview_attack(world, draft);
                    }
                }
            }
        }
        if !play_on(world) {
            return;
        }
    }
}

/// Mutated levels to play: `SKIRMISH_MUTATIONS`, else 300.
fn mutations() -> u32 {
    std::env::var("SKIRMISH_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

/// Mutated levels tried and accepted so far (the long run's progress).
static TRIED: AtomicUsize = AtomicUsize::new(0);
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = parse_level(&bytes, "fuzz.ron", catalog());
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: mutations(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// A level made of a shipped or broken level's text with a few edits:
    /// refused with located problems, or accepted sound and played (AI,
    /// previews, overlays) without a panic.
    #[test]
    fn mutated_levels_are_refused_or_played(
        which in any::<usize>(),
        edits in proptest::collection::vec(edit(), 1..4),
    ) {
        let texts = level_texts();
        let mut text = texts[which % texts.len()].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        let tried = TRIED.fetch_add(1, Ordering::Relaxed) + 1;
        match parse_level(text.as_bytes(), "mutated.ron", catalog()) {
            Ok(level) => {
                // Whatever is accepted is sound: units on passable tiles, alone.
                for u in &level.units {
                    prop_assert!(level.map.is_passable(u.at));
                }
                // A rider shares its mount's tile (V12.1).
                let mut tiles: Vec<_> =
                    level.units.iter().filter(|u| u.riding.is_none()).map(|u| u.at).collect();
                let alone = tiles.len();
                tiles.sort();
                tiles.dedup();
                prop_assert_eq!(tiles.len(), alone);
                ACCEPTED.fetch_add(1, Ordering::Relaxed);
                play_a_little(&level);
            }
            Err(problems) => {
                // Refused with every problem placed and on one line.
                prop_assert!(!problems.0.is_empty());
                for d in &problems.0 {
                    prop_assert!(!d.message.is_empty());
                    prop_assert!(d.at.is_some(), "no place: {}", d);
                    prop_assert!(!d.to_string().contains('\n'), "{:?}", d.to_string());
                }
            }
        }
        if tried.is_multiple_of(1000) {
            let accepted = ACCEPTED.load(Ordering::Relaxed);
            eprintln!("mutated levels: {tried} tried, {accepted} accepted and played");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

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
                riding: None,
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
