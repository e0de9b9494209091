//! The designers' tools (issue 12): `lint`, `lint --balance`, `render`,
//! `new`.

use crate::cli::skirmish_in;
use crate::common::{catalog, level, level_at, ron_files, root};
use skirmish::design::lint::{balance, lint_level};
use skirmish::design::render::{RenderOptions, render};

/// Each lint rule is pinned by a small level in `tests/lint/` and the
/// exact lines `skirmish lint` prints for it (`NAME.txt` beside it).
#[test]
fn every_lint_rule_says_its_lines_for_its_level() {
    let files = ron_files(&root().join("tests/lint"));
    assert!(files.len() >= 6, "one level per lint rule");
    for path in files {
        let name = path.strip_prefix(root()).unwrap().to_str().unwrap();
        let (ok, text) = skirmish_in(&root(), &["lint", name]);
        assert!(ok, "{text}");
        let expected = std::fs::read_to_string(path.with_extension("txt")).unwrap();
        assert_eq!(text, expected, "{name}");
    }
}

/// A level without any of the lint's concerns says nothing, and the lint
/// runs from `check --lint` too.
#[test]
fn a_sound_level_has_no_lint_warnings() {
    let (ok, text) = skirmish_in(&root(), &["check", "--lint", "levels/ford.ron"]);
    assert!(ok, "{text}");
    assert_eq!(text, "levels/ford.ron: ok\n");
    let ford = level("ford.ron");
    let src = std::fs::read_to_string(root().join("levels/ford.ron")).unwrap();
    assert!(lint_level(&ford, &src, "ford.ron").is_empty());
}

/// `--balance`: a map where nobody can reach anybody ends every battle in
/// a draw (R11 round limit); three wardens against one raider win nearly
/// all; a mirrored map is not flagged for a side.
#[test]
fn balance_warns_of_draws_and_of_a_favoured_side() {
    let profiles = skirmish::ai::Profiles::shipped();
    let walled = level_at("tests/lint/walled.ron");
    let src = std::fs::read_to_string(root().join("tests/lint/walled.ron")).unwrap();
    let (found, verdict) = balance(&walled, &src, "walled.ron", &profiles, 2, 1, || {}).unwrap();
    assert!(
        verdict.contains("4 battles") && verdict.contains("draws 4/4"),
        "{verdict}"
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].message.contains("4/4 = 100.0%") && found[0].message.contains("draws"),
        "{}",
        found[0].message
    );
    let text = std::fs::read_to_string(root().join("tests/levels/lopsided.ron")).unwrap();
    let lopsided = level_at("tests/levels/lopsided.ron");
    let (found, _) = balance(&lopsided, &text, "lopsided.ron", &profiles, 4, 1, || {}).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert!(d.message.contains("side \"Blue\" wins"), "{}", d.message);
    assert!(d.message.contains("95% CI"), "{}", d.message);
    // It points at the side in the file.
    assert_eq!(d.at, Some((5, 20)), "{d}");
}

/// `render`, checked pixel by pixel on a tiny level: the window's wall
/// tile where the wall is, the unit's side colour on its tile and its
/// wedge on the side it faces, a reach shade only where the rules let the
/// unit move.
#[test]
fn render_draws_the_tiles_units_and_layers_where_they_are() {
    let duel = level_at("tests/lint/reach.ron");
    let plain = render(&duel, &RenderOptions::default()).unwrap();
    assert_eq!((plain.width, plain.height), (9 * 32, 4 * 32));
    // A wall (0, 0) and a floor tile (6, 2): the pixels of the tileset's
    // tile the window draws there (`tile_at`), and they differ.
    let tiles = skirmish::art::tiles::tileset_image();
    let data = tiles.data.as_ref().unwrap();
    let sheet = |kind: u32, x: u32, y: u32| {
        let i = ((y * tiles.width() + kind * 32 + x) * 4) as usize;
        [data[i], data[i + 1], data[i + 2]]
    };
    let at = |x, y| skirmish::art::tiles::tile_at(&duel.map, skirmish::grid::Pos::new(x, y));
    let (wall, floor) = (at(0, 0), at(6, 2));
    assert_ne!(wall, floor);
    for (x, y) in [(3, 5), (16, 16), (30, 29)] {
        assert_eq!(plain.pixel(x, y)[..3], sheet(wall, x, y), "wall ({x}, {y})");
        let (fx, fy) = (6 * 32 + x, 2 * 32 + y);
        assert_eq!(plain.pixel(fx, fy)[..3], sheet(floor, x, y), "floor");
    }
    // Ila (side 0) at (3, 1) and Brakka (side 1) at (4, 1): each tile
    // holds its side's colour (base, tabard, shield: 2 to 5% of it), not
    // the other's.
    let colour = |side: usize| {
        let c = skirmish::art::palette::side_color(side).to_srgba();
        [c.red, c.green, c.blue].map(|v| (v * 255.0).round() as i32)
    };
    let share = |tile: (u32, u32), side: usize| {
        let c = colour(side);
        let near = |p: [u8; 4]| (0..3).all(|k| (p[k] as i32 - c[k]).abs() <= 12);
        let hits = (0..32)
            .flat_map(|dx| (0..32).map(move |dy| (tile.0 * 32 + dx, tile.1 * 32 + dy)))
            .filter(|(x, y)| near(plain.pixel(*x, *y)))
            .count();
        hits as f32 / 1024.0
    };
    assert!(
        share((3, 1), 0) > 0.015 && share((3, 1), 1) < 0.005,
        "Ila, blue"
    );
    assert!(
        share((4, 1), 1) > 0.015 && share((4, 1), 0) < 0.005,
        "Brakka, red"
    );
    // Facing: both face W, so each wedge (cream) is left of its feet.
    let cream = |x: u32, y: u32| {
        let p = plain.pixel(x, y);
        p[0] > 240 && p[1] > 230 && p[2] > 190 && p[2] < 225
    };
    let wedge = |tile: u32, left: bool| {
        let xs = if left { 0..16 } else { 17..32 };
        xs.flat_map(|dx| (22..32).map(move |dy| (dx, dy)))
            .filter(|(dx, dy)| cream(tile * 32 + dx, 32 + dy))
            .count()
    };
    for tile in [3, 4] {
        assert!(
            wedge(tile, true) >= 4 && wedge(tile, false) == 0,
            "wedge of {tile}"
        );
    }
    // --reach Brakka: shaded where a Move may go (R5.1), nowhere else.
    let options = RenderOptions {
        reach: Some("Brakka".into()),
        ..Default::default()
    };
    let reach = render(&duel, &options).unwrap();
    for y in 1..3 {
        for x in 1..8 {
            let p = skirmish::grid::Pos::new(x, y);
            if duel.units.iter().any(|u| u.at == p) {
                continue;
            }
            let can = skirmish::rules::motion::movement::reachable(
                &duel.map,
                &skirmish::rules::motion::movement::Occupancy::new(
                    &duel.map,
                    duel.units.iter().map(|u| (u.at, u.side)),
                    1,
                    skirmish::grid::Pos::new(4, 1),
                ),
                skirmish::grid::Pos::new(4, 1),
                6,
            )
            .contains_key(&p);
            let (px, py) = (x as u32 * 32 + 16, y as u32 * 32 + 16);
            let shaded = reach.pixel(px, py) != plain.pixel(px, py);
            assert_eq!(shaded, can, "{p}");
        }
    }
    // Unknown names are refused with a reason.
    let bad = RenderOptions {
        threat: Some("Green".into()),
        ..Default::default()
    };
    assert!(
        render(&duel, &bad)
            .unwrap_err()
            .contains("no side \"Green\"")
    );
}

/// `new` writes a level that `check` and `lint` accept without a word,
/// never over an existing file, and refuses a size too small to play.
#[test]
fn new_writes_a_starter_level_that_passes_check_and_lint() {
    let dir = std::env::temp_dir().join(format!("skirmish-new-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, text) = skirmish_in(&dir, &["new", "Cold Pass", "--size", "20x9"]);
    assert!(ok, "{text}");
    assert_eq!(text.trim(), "cold_pass.ron");
    let (ok, text) = skirmish_in(&dir, &["lint", "cold_pass.ron"]);
    assert!(ok, "{text}");
    assert_eq!(text, "cold_pass.ron: 0 warnings\n");
    let level = skirmish::load::load_level_file(&dir.join("cold_pass.ron"), catalog()).unwrap();
    assert_eq!((level.map.width(), level.map.height()), (20, 9));
    assert_eq!(level.name(), "Cold Pass");
    let (ok, text) = skirmish_in(&dir, &["new", "Cold Pass"]);
    assert!(!ok && text.contains("exists"), "{text}");
    let (ok, text) = skirmish_in(&dir, &["new", "Tiny", "--size", "4x3"]);
    assert!(!ok && text.contains("at least 6x3"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `render` draws heights as the window shades them (V9.1): a raised tile
/// lighter than the tileset's own pixels, a dark lip along its ledge, a
/// shadow at the ledge's foot, and its metres written in its corner; with
/// jumping off, the same rows draw nothing.
#[test]
fn render_draws_heights_with_jumping_on() {
    let path = root().join("tests/levels/ledge.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let on = skirmish::load::parse_level(text.as_bytes(), "ledge.ron", catalog()).unwrap();
    let flat_text = text.replace("rules: (jumping: true),", "");
    let off = skirmish::load::parse_level(flat_text.as_bytes(), "ledge.ron", catalog()).unwrap();
    let (lit, flat) = (
        render(&on, &RenderOptions::default()).unwrap(),
        render(&off, &RenderOptions::default()).unwrap(),
    );
    let sum = |p: [u8; 4]| p[..3].iter().map(|c| *c as u32).sum::<u32>();
    // (1, 2) stands 3 m high, (2, 2) at 0 m: a ledge between them.
    let middle = (32 + 12, 2 * 32 + 12);
    assert!(
        sum(lit.pixel(middle.0, middle.1)) > sum(flat.pixel(middle.0, middle.1)) + 30,
        "the raised tile is lighter"
    );
    let lip = lit.pixel(2 * 32 - 1, 2 * 32 + 10);
    assert!(lip[..3].iter().all(|c| *c < 60), "a dark lip: {lip:?}");
    let foot = (2 * 32 + 3, 2 * 32 + 10);
    assert!(
        sum(lit.pixel(foot.0, foot.1)) < sum(flat.pixel(foot.0, foot.1)),
        "a shadow at the ledge's foot"
    );
    // The "3" in the bottom right corner: white font pixels.
    let corner_white = (2 * 32 - 6..2 * 32)
        .flat_map(|x| (3 * 32 - 8..3 * 32).map(move |y| (x, y)))
        .any(|(x, y)| lit.pixel(x, y)[..3] == [255, 255, 255]);
    assert!(corner_white, "the tile's metres are written");
    // Jumping off: the tileset's own pixels, untouched.
    let tiles = skirmish::art::tiles::tileset_image();
    let data = tiles.data.as_ref().unwrap();
    let kind = skirmish::art::tiles::tile_at(&off.map, skirmish::grid::Pos::new(1, 2));
    let i = ((12 * tiles.width() + kind * 32 + 12) * 4) as usize;
    assert_eq!(flat.pixel(middle.0, middle.1)[..3], data[i..i + 3]);
}

/// `render` draws light as the window shades it (V8.3): on the night
/// level, a dark hollow darker than the dim floor, the dim floor darker
/// and bluer than the same level drawn with stealth off, a firelit tile
/// as the tileset draws it.
#[test]
fn render_draws_light_with_stealth_on() {
    let path = root().join("levels/nightraid.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let on = skirmish::load::parse_level(text.as_bytes(), "nightraid.ron", catalog()).unwrap();
    let off_text = text.replace("rules: (stealth: true, light: Dim),", "");
    let off = skirmish::load::parse_level(off_text.as_bytes(), "nightraid.ron", catalog()).unwrap();
    let (night, day) = (
        render(&on, &RenderOptions::default()).unwrap(),
        render(&off, &RenderOptions::default()).unwrap(),
    );
    let at =
        |p: &skirmish::design::render::Picture, x: u32, y: u32| p.pixel(x * 32 + 5, y * 32 + 5);
    let sum = |p: [u8; 4]| p[..3].iter().map(|c| *c as u32).sum::<u32>();
    // (5, 1) is dim floor, (9, 1) a dark hollow, (8, 5) firelight.
    let (floor_night, floor_day) = (at(&night, 5, 1), at(&day, 5, 1));
    assert!(
        sum(floor_night) < sum(floor_day) * 2 / 3,
        "dim is darker: {floor_night:?}"
    );
    assert!(
        floor_night[2] as f32 / floor_night[0].max(1) as f32
            > floor_day[2] as f32 / floor_day[0].max(1) as f32,
        "and bluer"
    );
    assert!(
        sum(at(&night, 9, 1)) < sum(floor_night),
        "dark is darker still"
    );
    assert_eq!(at(&night, 8, 5), at(&day, 8, 5), "firelight is bright");
}
