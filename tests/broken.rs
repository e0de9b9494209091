//! Broken level files are refused with messages a designer can act on.
//!
//! Each file in `tests/broken/` states what it must produce in comment lines
//! `// expect: LINE:COL: text` (or `// expect: text` where no position is
//! known): some reported problem must read like that.

use crate::common::{catalog, ron_files, root};
use skirmish::load::{Problems, parse_level};

fn check_file(name: &str) -> Problems {
    let path = root().join("tests/broken").join(name);
    let bytes = std::fs::read(&path).unwrap();
    match parse_level(&bytes, name, catalog()) {
        Ok(_) => panic!("{name} was accepted"),
        Err(p) => p,
    }
}

/// `line:col: message`, or just the message where no position is known.
fn shown(p: &Problems) -> Vec<String> {
    p.0.iter()
        .map(|d| match d.at {
            Some((l, c)) => format!("{l}:{c}: {}", d.message),
            None => d.message.clone(),
        })
        .collect()
}

#[test]
fn every_broken_file_yields_its_expected_messages() {
    let files = ron_files(&root().join("tests/broken"));
    assert!(files.len() >= 15, "one file per error kind");
    for path in files {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let problems = check_file(&name);
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).to_string();
        let expected: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("// expect: "))
            .collect();
        if name == "empty.ron" || name == "random_bytes.ron" {
            continue; // no room for comments: checked below
        }
        assert!(!expected.is_empty(), "{name} states no expectation");
        let got = shown(&problems);
        for e in &expected {
            assert!(
                got.iter().any(|g| g.contains(e)),
                "{name}: expected a problem reading {e:?}, got:\n{}",
                got.join("\n")
            );
        }
        assert_eq!(
            got.len(),
            expected.len(),
            "{name}: every problem it reports should be expected, got:\n{}",
            got.join("\n")
        );
    }
}

#[test]
fn empty_file_says_it_is_empty() {
    let p = check_file("empty.ron");
    assert_eq!(shown(&p), ["1:1: the file is empty: expected Level(...)"]);
}

#[test]
fn random_bytes_are_refused_with_a_position() {
    let p = check_file("random_bytes.ron");
    assert_eq!(p.0.len(), 1);
    assert!(p.0[0].at.is_some());
    assert!(
        p.mentions("not a text file") || p.mentions("RON syntax"),
        "{p}"
    );
}

/// Every problem of every broken file has its place (line and column) and
/// is written on one line, whatever the file holds.
#[test]
fn every_problem_has_a_place_and_one_line() {
    for path in ron_files(&root().join("tests/broken")) {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        for d in check_file(&name).0 {
            assert!(d.at.is_some(), "{name}: no place for: {}", d.message);
            let line = d.to_string();
            assert!(!line.contains('\n'), "{name}: more than one line: {line:?}");
        }
    }
}

/// A catalog entry defined twice is refused at its second definition, in
/// the file that makes it: within one file, or across the files of a
/// catalog folder.
#[test]
fn a_name_defined_twice_in_a_catalog_is_found_where_it_is() {
    let dir = std::env::temp_dir().join(format!("skirmish-dups-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let entry = |name: &str| {
        format!("        (name: \"{name}\", damage: \"1d6\", damage_type: Slashing),\n")
    };
    let a = format!(
        "Catalog(\n    weapons: [\n{}{}{}    ],\n)\n",
        entry("axe"),
        entry("club"),
        entry("axe")
    );
    let b = format!(
        "Catalog(\n    weapons: [\n{}{}    ],\n)\n",
        entry("flail"),
        entry("club")
    );
    std::fs::write(dir.join("a.ron"), &a).unwrap();
    std::fs::write(dir.join("b.ron"), &b).unwrap();
    let problems = skirmish::load::load_catalog_dir(&dir).unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
    let lines: Vec<String> = problems.0.iter().map(|d| d.to_string()).collect();
    let file = |f: &str| dir.join(f).display().to_string();
    assert!(
        lines.contains(&format!(
            "{}:5:16: weapon \"axe\" is defined twice",
            file("a.ron")
        )),
        "{lines:?}"
    );
    assert!(
        lines.contains(&format!(
            "{}:4:16: weapon \"club\" is defined twice",
            file("b.ron")
        )),
        "{lines:?}"
    );
}

/// Heights (V9.1) count only where the level jumps: without the switch the
/// same rows load flat, with a warning at `heights`; with it, the tiles
/// stand at their heights.
#[test]
fn heights_count_only_with_jumping_and_say_so_otherwise() {
    let text = std::fs::read_to_string(root().join("tests/levels/heights.ron")).unwrap();
    let jumping = parse_level(text.as_bytes(), "heights.ron", catalog()).unwrap();
    assert!(jumping.warnings.is_empty(), "{:?}", jumping.warnings);
    let crest = skirmish::grid::Pos::new(4, 5);
    assert_eq!(jumping.map.elevation(crest), 2);
    let flat_text = text.replace("rules: (jumping: true),", "");
    let flat = parse_level(flat_text.as_bytes(), "heights.ron", catalog()).unwrap();
    assert_eq!(flat.map.elevation(crest), 0);
    let warned: Vec<String> = flat
        .warnings
        .iter()
        .map(|d| format!("{:?}: {}", d.at, d.message))
        .collect();
    assert!(
        warned
            .iter()
            .any(|w| w.contains("`heights` changes nothing without `rules: (jumping: true)` (V9)")),
        "{warned:?}"
    );
}
