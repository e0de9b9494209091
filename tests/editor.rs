//! The level editor (issue 12), through its edits, headless.

use crate::cli::skirmish_in;
use crate::common::{catalog, ron_files, root};
use skirmish::design::editor::{Edit, Editor, level_text};
use skirmish::format::{Level, Victory, Zone};
use skirmish::grid::{Dir, Pos};
use skirmish::load::{load_level_file, parse_file};
use std::path::PathBuf;

/// A copy of `tests/levels/reload.ron` to edit.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-editor-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("level.ron");
    std::fs::copy(root().join("tests/levels/reload.ron"), &file).unwrap();
    file
}

/// The editor writes every shipped level so that it reads back the same
/// and passes `check`: what it saves is what the designer made.
#[test]
fn the_editor_writes_every_shipped_level_back_the_same() {
    let mut files = ron_files(&root().join("levels"));
    files.extend(ron_files(&root().join("levels/demo")));
    files.extend(ron_files(&root().join("tests/levels")));
    assert!(files.len() >= 10);
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(level) = parse_file::<Level>(&bytes, "x", "Level") else {
            continue; // a demo script, not a level
        };
        let text = level_text(&level);
        let back: Level = parse_file(text.as_bytes(), "written", "Level")
            .unwrap_or_else(|p| panic!("{}: {p}\n{text}", path.display()));
        assert_eq!(back, level, "{}", path.display());
    }
}

/// Each kind of edit does what it says; undo takes every one back in
/// order and redo makes them again; save then load gives the level edited.
#[test]
fn edits_undo_redo_and_save_round_trip() {
    let file = scratch("round-trip");
    let mut editor = Editor::open(&file, catalog()).unwrap();
    let original = editor.level.clone();
    let edits = [
        Edit::Paint {
            at: Pos::new(3, 1),
            symbol: '=',
        },
        Edit::Paint {
            at: Pos::new(4, 2),
            symbol: '%',
        },
        Edit::PlaceUnit {
            at: Pos::new(2, 2),
            side: "Blue".into(),
            template: "archer".into(),
            facing: Dir::E,
        },
        Edit::MoveUnit {
            unit: "Archer".into(),
            to: Pos::new(2, 1),
        },
        Edit::TurnUnit {
            unit: "Ila".into(),
            facing: Dir::SE,
        },
        Edit::SetTemplate {
            unit: "Ila".into(),
            template: "spearman".into(),
        },
        Edit::SetSide {
            unit: "Archer".into(),
            side: "Red".into(),
        },
        Edit::PlaceObject {
            item: "bomb".into(),
            at: Pos::new(5, 1),
        },
        Edit::MoveObject {
            from: Pos::new(5, 1),
            to: Pos::new(5, 2),
        },
        Edit::PlaceObject {
            item: "bomb".into(),
            at: Pos::new(6, 1),
        },
        Edit::DeleteObject { at: Pos::new(6, 1) },
        Edit::PlaceUnit {
            at: Pos::new(1, 2),
            side: "Blue".into(),
            template: "warden".into(),
            facing: Dir::N,
        },
        Edit::DeleteUnit {
            unit: "Warden".into(),
        },
        Edit::SetName("Edited".into()),
        Edit::SetDescription("Made in the editor.".into()),
        Edit::SetVictory(vec![
            Victory::Eliminate,
            Victory::HoldZone {
                side: "Blue".into(),
                zone: Zone {
                    from: Pos::new(5, 1),
                    to: Pos::new(6, 2),
                },
                rounds: 2,
            },
        ]),
        Edit::SetRoundLimit(12),
    ];
    let mut steps = vec![editor.level.clone()];
    for edit in &edits {
        editor
            .apply(edit)
            .unwrap_or_else(|r| panic!("{edit:?} refused: {r}"));
        assert_ne!(
            Some(&editor.level),
            steps.last(),
            "{edit:?} changed the level"
        );
        steps.push(editor.level.clone());
    }
    let level = &editor.level;
    assert_eq!(level.map[1], "#..=...#");
    assert_eq!(level.map[2], "#...%..#");
    let unit = |n: &str| level.units.iter().find(|u| u.name == n).unwrap();
    assert_eq!(unit("Archer").at, Pos::new(2, 1));
    assert_eq!(unit("Archer").side, "Red");
    assert_eq!(unit("Ila").facing, Dir::SE);
    assert_eq!(unit("Ila").template, "spearman");
    assert!(level.units.iter().all(|u| u.name != "Warden"));
    assert_eq!(level.ground.len(), 1);
    assert_eq!(level.ground[0].at, Pos::new(5, 2));
    assert_eq!(level.round_limit, 12);
    assert_eq!(editor.history(), (edits.len(), 0));
    assert!(editor.dirty());
    // Undo walks back through every state, redo forward again.
    for expected in steps.iter().rev().skip(1) {
        assert!(editor.undo());
        assert_eq!(&editor.level, expected);
    }
    assert!(!editor.undo(), "nothing left to undo");
    assert_eq!(editor.level, original);
    assert!(!editor.dirty());
    for expected in steps.iter().skip(1) {
        assert!(editor.redo());
        assert_eq!(&editor.level, expected);
    }
    assert!(!editor.redo());
    // A new edit after an undo drops what could be redone.
    editor.undo();
    editor.apply(&Edit::SetRoundLimit(9)).unwrap();
    assert_eq!(editor.history().1, 0);
    editor.undo();
    editor.redo();
    assert_eq!(editor.level.round_limit, 9);
    editor.apply(&Edit::SetRoundLimit(12)).unwrap();
    // Save, then load: the same level, valid, and `check` agrees.
    editor.save().unwrap();
    assert!(!editor.dirty());
    let loaded = load_level_file(&file, catalog()).unwrap();
    assert_eq!(loaded.source, editor.level);
    assert_eq!(loaded.source, *steps.last().unwrap());
    let (ok, text) = skirmish_in(&root(), &["check", file.to_str().unwrap()]);
    assert!(ok, "{text}");
}

/// An edit that would make the level invalid is refused with the reason
/// `check` gives, and changes nothing; saving never writes such a file.
#[test]
fn an_edit_check_would_refuse_changes_nothing_and_says_why() {
    let file = scratch("refused");
    let mut editor = Editor::open(&file, catalog()).unwrap();
    let original = editor.level.clone();
    let refused = [
        (
            Edit::Paint {
                at: Pos::new(1, 1),
                symbol: '#',
            },
            "impassable",
        ),
        (
            Edit::MoveUnit {
                unit: "Ila".into(),
                to: Pos::new(6, 2),
            },
            "Brakka",
        ),
        (
            Edit::PlaceUnit {
                at: Pos::new(0, 0),
                side: "Blue".into(),
                template: "warden".into(),
                facing: Dir::N,
            },
            "impassable",
        ),
        (
            Edit::SetTemplate {
                unit: "Ila".into(),
                template: "paladin".into(),
            },
            "paladin",
        ),
        (
            Edit::SetSide {
                unit: "Ila".into(),
                side: "Green".into(),
            },
            "Green",
        ),
        (
            Edit::PlaceObject {
                item: "anvil".into(),
                at: Pos::new(3, 1),
            },
            "anvil",
        ),
        (
            Edit::Paint {
                at: Pos::new(8, 1),
                symbol: '.',
            },
            "off the map",
        ),
        (
            Edit::Paint {
                at: Pos::new(3, 1),
                symbol: '@',
            },
            "@",
        ),
        (Edit::DeleteUnit { unit: "Orm".into() }, "no unit"),
        (Edit::DeleteObject { at: Pos::new(3, 1) }, "no object"),
        (Edit::SetRoundLimit(0), "round"),
    ];
    for (edit, reason) in refused {
        let refusal = editor.apply(&edit).expect_err(&format!("{edit:?} refused"));
        assert!(
            refusal.0.contains(reason),
            "{edit:?}: `{refusal}` should name {reason}"
        );
        assert_eq!(editor.level, original, "{edit:?} changed nothing");
    }
    assert_eq!(editor.history(), (0, 0), "nothing to undo");
    editor.save().unwrap();
    assert_eq!(
        load_level_file(&file, catalog()).unwrap().source,
        original,
        "saved as it was"
    );
}

/// `V` in the editor cycles the victory conditions (R11): each step is a
/// valid level, and four steps come back to `[Eliminate]`.
#[test]
fn the_victory_cycle_gives_valid_levels_and_comes_round() {
    use skirmish::format::Victory;
    let file = scratch("victory");
    let mut editor = Editor::open(&file, catalog()).unwrap();
    let mut kinds = vec![];
    for _ in 0..4 {
        let next = editor.next_victory("Blue", None);
        editor.apply(&Edit::SetVictory(next.clone())).unwrap();
        assert_eq!(editor.level.victory, next);
        kinds.push(match next.as_slice() {
            [Victory::Eliminate] => "eliminate",
            [_, Victory::HoldZone { side, .. }] if side == "Blue" => "hold",
            [_, Victory::ReachExit { side, .. }] if side == "Blue" => "reach",
            [_, Victory::SurviveRounds { side, .. }] if side == "Blue" => "survive",
            other => panic!("{other:?}"),
        });
    }
    assert_eq!(kinds, ["hold", "reach", "survive", "eliminate"]);
}

/// Heights (V9.1): painting a height writes the `heights` rows and
/// switches jumping on, so the game plays them; a height outside 0–9 is
/// refused; back to all 0 the rows go; undo restores, and save then load
/// gives the heights painted.
#[test]
fn the_editor_paints_heights() {
    let file = scratch("heights");
    let mut editor = Editor::open(&file, catalog()).unwrap();
    assert!(editor.level.heights.is_empty() && !editor.level.rules.jumping);
    let at = Pos::new(3, 2);
    editor.apply(&Edit::SetHeight { at, metres: 2 }).unwrap();
    assert!(
        editor.level.rules.jumping,
        "heights count only with jumping"
    );
    assert_eq!(editor.valid.map.elevation(at), 2);
    assert_eq!(editor.level.heights.len(), editor.level.map.len());
    assert!(editor.apply(&Edit::SetHeight { at, metres: 10 }).is_err());
    assert_eq!(
        editor.valid.map.elevation(at),
        2,
        "a refused edit changes nothing"
    );
    editor.save().unwrap();
    let saved = load_level_file(&file, catalog()).unwrap();
    assert_eq!(saved.map.elevation(at), 2);
    editor.apply(&Edit::SetHeight { at, metres: 0 }).unwrap();
    assert!(editor.level.heights.is_empty(), "all 0: no rows");
    assert!(editor.undo());
    assert_eq!(editor.valid.map.elevation(at), 2);
}

/// Light (V8.3): lighting a tile dark gives it a legend symbol of the same
/// terrain, dark ("floor (dark)", made once and reused), and switches
/// stealth on, so the game plays it; back to the level's light it is the
/// plain symbol again; brush lit dim keeps its concealment; save then load
/// gives the light painted.
#[test]
fn the_editor_paints_light() {
    use skirmish::terrain::Light;
    let file = scratch("light");
    let mut editor = Editor::open(&file, catalog()).unwrap();
    assert!(!editor.level.rules.stealth);
    let (a, b) = (Pos::new(3, 2), Pos::new(4, 2));
    let before = editor.valid.map.get(a).unwrap().clone();
    for at in [a, b] {
        let light = Some(Light::Dark);
        editor.apply(&Edit::SetLight { at, light }).unwrap();
    }
    assert!(editor.level.rules.stealth, "light counts only with stealth");
    let lit = editor.valid.map.get(a).unwrap().clone();
    assert_eq!(lit.light, Some(Light::Dark));
    assert_eq!(lit.name, format!("{} (dark)", before.name));
    assert_eq!(
        (lit.movement, lit.line, lit.cover),
        (before.movement, before.line, before.cover)
    );
    assert_eq!(editor.level.legend.len(), 1, "one symbol for both tiles");
    let symbol = |e: &Editor, p: Pos| e.level.map[p.y as usize].chars().nth(p.x as usize).unwrap();
    assert_eq!(symbol(&editor, a), symbol(&editor, b));
    editor.save().unwrap();
    let saved = load_level_file(&file, catalog()).unwrap();
    assert_eq!(saved.map.get(a).unwrap().light, Some(Light::Dark));
    editor
        .apply(&Edit::SetLight { at: a, light: None })
        .unwrap();
    assert_eq!(symbol(&editor, a), before_symbol(&before));
    assert_eq!(editor.valid.map.get(a).unwrap().light, None);
    // Brush stays brush, dim.
    editor.apply(&Edit::Paint { at: a, symbol: '%' }).unwrap();
    let light = Some(Light::Dim);
    editor.apply(&Edit::SetLight { at: a, light }).unwrap();
    let brush = editor.valid.map.get(a).unwrap();
    assert!(brush.conceal && brush.light == light, "{brush:?}");
    assert!(editor.undo());
    assert_eq!(symbol(&editor, a), '%');
}

/// The default legend's symbol of `terrain` by its name.
fn before_symbol(terrain: &skirmish::terrain::Terrain) -> char {
    skirmish::terrain::default_legend()
        .into_iter()
        .find(|(_, t)| t.name == terrain.name)
        .map(|(c, _)| c)
        .unwrap()
}
