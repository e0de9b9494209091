//! The window, for real: the game under Xvfb (software Vulkan), a
//! screenshot taken from inside Bevy and checked, and a whole AI-vs-AI
//! battle in `--watch` mode that ends as the headless battle does.
//!
//! Needs `xvfb-run` and a Vulkan driver (`apt-get install -y xvfb xauth
//! mesa-vulkan-drivers libvulkan1`; `.ci/run` installs them). In CI
//! (`CI=true`, which `.ci/run` sets) their absence fails the test;
//! elsewhere each test prints `SKIPPED a window test: ...` with the
//! install line and passes.

use crate::common::{catalog, root};
use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};
use skirmish::ai::{Players, Profiles, play};
use skirmish::save::{Replay, SaveGame};
use skirmish::setup::headless_app;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the window tests need, as found on a machine.
#[derive(Debug, PartialEq)]
enum Display {
    /// `xvfb-run`, and a Vulkan driver beside it.
    Ready(PathBuf),
    /// What is missing.
    Missing(&'static str),
}

/// The folders where Vulkan drivers announce themselves (ICD files).
fn vulkan_icd_dirs() -> Vec<PathBuf> {
    [
        "/usr/share/vulkan/icd.d",
        "/etc/vulkan/icd.d",
        "/usr/local/share/vulkan/icd.d",
    ]
    .map(PathBuf::from)
    .to_vec()
}

/// Whether `xvfb-run` is on `path` and a Vulkan driver in `icd_dirs`.
fn display_in(path: Option<&std::ffi::OsStr>, icd_dirs: &[PathBuf]) -> Display {
    let xvfb = path.and_then(|paths| {
        std::env::split_paths(paths)
            .map(|d| d.join("xvfb-run"))
            .find(|p| p.is_file())
    });
    let Some(xvfb) = xvfb else {
        return Display::Missing("xvfb-run is missing");
    };
    let vulkan = icd_dirs.iter().any(|d| {
        std::fs::read_dir(d).is_ok_and(|mut files| {
            files.any(|f| f.is_ok_and(|f| f.path().extension().is_some_and(|x| x == "json")))
        })
    });
    if !vulkan {
        return Display::Missing("no Vulkan driver is installed");
    }
    Display::Ready(xvfb)
}

/// The install line the window tests need.
const INSTALL: &str = "apt-get install -y xvfb xauth mesa-vulkan-drivers libvulkan1";

/// `xvfb-run`, or `None` when this machine cannot open a window: in CI
/// (`CI=true`) that fails the test; elsewhere the test says it was skipped,
/// with the install line, past the test harness's capture (a skipped test
/// must be seen), and passes.
fn xvfb() -> Option<PathBuf> {
    match display_in(std::env::var_os("PATH").as_deref(), &vulkan_icd_dirs()) {
        Display::Ready(xvfb) => Some(xvfb),
        Display::Missing(what) => {
            let line = format!("SKIPPED a window test: {what} (install: {INSTALL})");
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{line}");
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "{line}");
            None
        }
    }
}

#[test]
fn a_machine_without_xvfb_or_vulkan_has_no_display() {
    let dir = temp("display");
    let (bin, icd) = (dir.join("bin"), dir.join("icd.d"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&icd).unwrap();
    let path = std::env::join_paths([&bin]).unwrap();
    assert_eq!(
        display_in(Some(&path), std::slice::from_ref(&icd)),
        Display::Missing("xvfb-run is missing")
    );
    std::fs::write(bin.join("xvfb-run"), "").unwrap();
    assert_eq!(
        display_in(Some(&path), std::slice::from_ref(&icd)),
        Display::Missing("no Vulkan driver is installed")
    );
    std::fs::write(icd.join("lvp_icd.x86_64.json"), "{}").unwrap();
    assert_eq!(
        display_in(Some(&path), std::slice::from_ref(&icd)),
        Display::Ready(bin.join("xvfb-run"))
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A window test on a machine with no display: skipped and said so outside
/// CI, a failure under `CI=true` (the test binary run again, with no
/// `xvfb-run` on its PATH).
#[test]
fn a_window_test_without_a_display_is_skipped_aloud_or_fails_in_ci() {
    let run = |ci: bool| {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "--exact",
            "window::the_editor_draws_the_level_its_edits_saved",
        ])
        .env("PATH", "/nonexistent")
        .env_remove("CI");
        if ci {
            cmd.env("CI", "true");
        }
        cmd.output().expect("the test binary runs")
    };
    let quiet = run(false);
    let said = String::from_utf8_lossy(&quiet.stderr).to_string();
    assert!(quiet.status.success(), "{said}");
    assert!(
        said.contains("SKIPPED a window test: xvfb-run is missing (install: apt-get install"),
        "{said}"
    );
    let ci = run(true);
    assert!(
        !ci.status.success(),
        "under CI a missing display fails the run"
    );
}

/// Runs `skirmish play ARGS` in a virtual display; its output.
fn play_in_xvfb(xvfb: &Path, args: &[&str]) -> String {
    run_in_xvfb(xvfb, &[&["play"], args].concat())
}

/// Runs `skirmish ARGS` in a virtual display; its output.
fn run_in_xvfb(xvfb: &Path, args: &[&str]) -> String {
    // No settings file: every picture is taken with the defaults, whatever
    // the machine's player chose.
    run_in_xvfb_with(xvfb, args, &temp("no-settings"))
}

/// Runs `skirmish ARGS` in a virtual display with its settings in
/// `config`; its output.
fn run_in_xvfb_with(xvfb: &Path, args: &[&str], config: &Path) -> String {
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .env("SKIRMISH_CONFIG_DIR", config)
        .current_dir(root())
        .output()
        .expect("xvfb-run runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the game failed:\n{text}");
    text
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("skirmish-{}-{name}", std::process::id()))
}

/// Runs `skirmish ARGS --screenshot FILE` in a virtual display and reads
/// the picture (`name` tells the temporary files of parallel tests apart).
fn picture(xvfb: &Path, name: &str, args: &[&str]) -> Image {
    let shot = temp(&format!("{name}.png"));
    run_in_xvfb(
        xvfb,
        &[args, &["--screenshot", shot.to_str().unwrap()]].concat(),
    );
    let bytes = std::fs::read(&shot).expect("the screenshot is written");
    std::fs::remove_file(&shot).ok();
    read_png(&bytes)
}

/// A screenshot's pixels.
fn read_png(bytes: &[u8]) -> Image {
    Image::from_buffer(
        bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .expect("a PNG")
}

/// A demo of the tour and the grid of its level.
fn demo(
    file: &str,
) -> (
    skirmish::scenario::Scenario,
    skirmish::load::ValidLevel,
    Grid,
) {
    let (scenario, level) =
        skirmish::scenario::load_file(&root().join("levels/demo").join(file)).unwrap();
    let grid = Grid {
        width: level.map.width(),
        height: level.map.height(),
    };
    (scenario, level, grid)
}

/// Pixels of `image` within `tolerance` of `rgb`.
fn count_near(image: &Image, rgb: [u8; 3], tolerance: i32) -> usize {
    count_near_in(image, rgb, tolerance, 0..image.width())
}

/// Pixels of `image` within `tolerance` of `rgb`, in the columns `xs`.
fn count_near_in(image: &Image, rgb: [u8; 3], tolerance: i32, xs: Range<u32>) -> usize {
    let data = image.data.as_ref().expect("pixels");
    let width = image.width() as usize;
    data.chunks_exact(4)
        .enumerate()
        .filter(|(n, _)| xs.contains(&((n % width) as u32)))
        .filter(|(_, p)| (0..3).all(|i| (p[i] as i32 - rgb[i] as i32).abs() <= tolerance))
        .count()
}

#[test]
fn the_window_draws_the_battle_and_saves_a_screenshot() {
    let Some(xvfb) = xvfb() else { return };
    // A human's turn on the ford, hovering an enemy: reach, path and the
    // attack preview are drawn.
    let image = picture(
        &xvfb,
        "shot",
        &["play", "levels/ford.ron", "--hover", "12,10"],
    );
    assert_eq!(
        (image.width(), image.height()),
        skirmish::view::WINDOW,
        "the window's size"
    );
    // The tileset's colours: packed earth, water, a wall's bricks.
    let floor = count_near(&image, [176, 152, 112], 14);
    let water = count_near(&image, [64, 120, 178], 14);
    let wall = count_near(&image, [96, 94, 104], 14);
    assert!(floor > 20_000, "floor tiles drawn ({floor} pixels)");
    assert!(water > 5_000, "the ford's water drawn ({water} pixels)");
    assert!(wall > 2_000, "walls drawn ({wall} pixels)");
    // The side colours of the units.
    assert!(count_near(&image, [64, 128, 242], 20) > 200, "blue units");
    assert!(count_near(&image, [230, 77, 64], 20) > 200, "red units");
}

/// Overlays tint the ground, never what stands on it: with reach, range
/// bands and threat on (range bands tint every tile), each tree's canopy
/// is drawn exactly as with no overlay, while the ground beside it is
/// tinted. Both sides at the window, so that nobody moves before the
/// pictures.
#[test]
fn trees_stay_whole_under_the_overlays() {
    let Some(xvfb) = xvfb() else { return };
    let args = |overlays| {
        [
            "play",
            "levels/ford.ron",
            "--human",
            "Raiders",
            "--overlay",
            overlays,
        ]
    };
    let bare = picture(&xvfb, "trees-bare", &args("none"));
    let tinted = picture(&xvfb, "trees-tinted", &args("reach,range,threat"));
    let level = crate::common::level("ford.ron");
    let grid = Grid {
        width: level.map.width(),
        height: level.map.height(),
    };
    let mean = |image: &Image, p: Pos, (fx, fy): (f32, f32)| {
        let (corner, side) = tile_on_screen(&grid, p, false);
        let (mut sum, mut n) = ([0; 3], 0);
        for dy in -2..=2 {
            for dx in -2..=2 {
                let c = pixel(
                    image,
                    corner.x + side * fx + dx as f32,
                    corner.y + side * fy + dy as f32,
                );
                (0..3).for_each(|k| sum[k] += c[k]);
                n += 1;
            }
        }
        sum.map(|v| v / n)
    };
    let trees: Vec<Pos> = level
        .map
        .positions()
        .filter(|p| skirmish::art::tiles::tree_at(&level.map, *p).is_some())
        .collect();
    assert!(trees.len() >= 3, "the ford has trees");
    for p in trees {
        // The canopy's middle (the tree is drawn in the tile's upper half).
        let (a, b) = (mean(&bare, p, (0.5, 0.38)), mean(&tinted, p, (0.5, 0.38)));
        assert!(near(a, b, 3), "the tree at {p} is whole: {a:?} and {b:?}");
        // The ground in the tile's bottom left corner, clear of the tree
        // and its shadow: tinted by the range bands.
        let (a, b) = (mean(&bare, p, (0.12, 0.9)), mean(&tinted, p, (0.12, 0.9)));
        assert!(!near(a, b, 3), "the ground under the tree at {p} is tinted");
    }
}

/// Zoomed out (a 64×64 level fitted to the window: 3.5 terrain texels a
/// pixel), the map shows the terrain shrunk by averaging: no pixel picks a
/// floor tile's 1-px edge at full strength, which nearest sampling did in
/// every third or fourth column, drawing a ragged grid.
#[test]
fn a_zoomed_out_map_shows_the_terrain_averaged() {
    let Some(xvfb) = xvfb() else { return };
    let image = picture(&xvfb, "far", &["play", "benches/frame64.ron"]);
    let floor = count_near(&image, [176, 152, 112], 14);
    // The floor tile's edge (tileset tile 0's border).
    let edge = count_near(&image, [150, 128, 94], 3);
    assert!(floor > 100_000, "the floor drawn ({floor} pixels)");
    assert!(edge < 500, "tile edges picked whole ({edge} pixels)");
}

/// Plays `level` in the window with every side its AI (`--watch`) and
/// seed 3 to the end, recorded; checks that the record replays and that
/// the window played the battle the headless AI plays with the same seed.
fn watch_and_replay(name: &str, level_file: &Path, profiles: [&str; 2]) {
    let Some(xvfb) = xvfb() else { return };
    let (record, shot) = (temp(&format!("{name}.ron")), temp(&format!("{name}.png")));
    play_in_xvfb(
        &xvfb,
        &[
            level_file.to_str().unwrap(),
            "--watch",
            "--speed",
            "64",
            "--seed",
            "3",
            "--record",
            record.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
        ],
    );
    assert!(shot.is_file(), "the end of the battle is shot");
    let text = std::fs::read_to_string(&record).expect("the battle is recorded");
    std::fs::remove_file(&record).ok();
    std::fs::remove_file(&shot).ok();
    let replay: Replay = ron::from_str(&text).unwrap();
    let mut shown = replay.run(catalog()).expect("the recorded battle replays");
    // The same battle headless, as `sim` plays it: the profiles given,
    // the same seed.
    let level = skirmish::load::load_level_file(level_file, catalog()).unwrap();
    let mut app = headless_app(&level, 3);
    let shipped = Profiles::shipped();
    let players = Players(profiles.iter().map(|p| shipped.get(p).cloned()).collect());
    players.clone().install(app.world_mut());
    let played = play(app.world_mut(), &players, 5000);
    assert!(!played.stalled && played.refused.is_empty());
    let mut a = SaveGame::capture(shown.world_mut());
    let mut b = SaveGame::capture(app.world_mut());
    assert!(a.outcome.is_some(), "the watched battle ended");
    // A replay makes no choice: only the AI's stream of the dice differs.
    a.dice.set_ai_stream(b.dice.ai_stream());
    a.history.clear();
    b.history.clear();
    assert_eq!(a, b, "the window played the battle the headless AI plays");
}

/// The look-ahead (here Easy: a small budget, and noise drawn from the
/// dice's AI stream) decides on a copy of the battle on the worker thread;
/// the window carries its stream back and plays the battle `sim` plays.
#[test]
fn a_watched_battle_ends_as_the_headless_one() {
    let text = std::fs::read_to_string(root().join("levels/ford.ron"))
        .unwrap()
        .replace("control: Human)", "control: Ai(\"easy\"))")
        .replace("control: Ai)", "control: Ai(\"easy\"))");
    let file = temp("easy-ford.ron");
    std::fs::write(&file, text).unwrap();
    watch_and_replay("watch", &file, ["easy", "easy"]);
    std::fs::remove_file(&file).ok();
}

/// The random AI leaves its choices to the dice's own AI stream, never
/// the rules' dice: its battle in the window replays from its record (it
/// did not: the record's command 139 was refused) and is the battle `sim`
/// plays.
#[test]
fn a_watched_random_battle_replays() {
    let text = std::fs::read_to_string(root().join("levels/ford.ron"))
        .unwrap()
        .replace("control: Human)", "control: Ai(\"random\"))")
        .replace("control: Ai)", "control: Ai(\"greedy\"))");
    let file = temp("random-ford.ron");
    std::fs::write(&file, text).unwrap();
    watch_and_replay("random", &file, ["random", "greedy"]);
    std::fs::remove_file(&file).ok();
}

/// Demo `demo` of the tour at step `step`, as the window shows it.
fn tour_picture(xvfb: &Path, demo: &str, step: &str) -> Image {
    picture(
        xvfb,
        &format!("tour-{demo}-{step}"),
        &["tour", "--demo", demo, "--step", step],
    )
}

fn pixel(image: &Image, x: f32, y: f32) -> [i32; 3] {
    let data = image.data.as_ref().expect("pixels");
    let i = 4 * (y as usize * image.width() as usize + x as usize);
    [data[i] as i32, data[i + 1] as i32, data[i + 2] as i32]
}

/// The pixels of `tile` (its rect inset by 2 pixels) that `is` holds for.
/// `tour`: the picture is the rules tour's, whose map sits under the
/// caption.
fn share_in_tile(
    image: &Image,
    grid: &Grid,
    tile: Pos,
    tour: bool,
    is: impl Fn([i32; 3]) -> bool,
) -> f32 {
    let (corner, side) = tile_on_screen(grid, tile, tour);
    let (mut hit, mut all) = (0, 0);
    for dy in 2..(side as i32 - 2) {
        for dx in 2..(side as i32 - 2) {
            all += 1;
            if is(pixel(image, corner.x + dx as f32, corner.y + dy as f32)) {
                hit += 1;
            }
        }
    }
    hit as f32 / all.max(1) as f32
}

use skirmish::grid::Pos;
use skirmish::view::camera::tile_on_screen;
use skirmish::view::coords::Grid;

/// The overlays on the tour's demo levels, seen in the window: the cover
/// tile and the line of effect (R6) and the arcs (R4.1) are painted on the
/// tiles the rules name, and not elsewhere.
#[test]
fn the_overlays_are_painted_where_the_rules_say() {
    let Some(xvfb) = xvfb() else { return };
    // Demo 4: the line of effect from the archer to its foe, hovered.
    let image = tour_picture(&xvfb, "4", "0");
    let (_, level, grid) = demo("04_cover.ron");
    let at = |name: &str| level.units.iter().find(|u| u.name == name).unwrap().at;
    let (from, to) = (at("Bow"), at("Foe"));
    let sight = skirmish::rules::sight::line_of_effect::sight(&level.map, from, to);
    let cover = sight.cover_at.expect("the demo's low wall gives cover");
    let magenta = |[r, g, b]: [i32; 3]| r > 200 && g < 140 && b > 160;
    let yellow = |[r, g, b]: [i32; 3]| r > 200 && g > 190 && b < 150;
    assert!(
        share_in_tile(&image, &grid, cover, true, magenta) > 0.9,
        "cover tile"
    );
    let line: Vec<Pos> = skirmish::rules::sight::line_of_effect::supercover(from, to)
        .into_iter()
        .flat_map(|c| match c {
            skirmish::rules::sight::line_of_effect::Cell::Tile(p) => vec![p],
            skirmish::rules::sight::line_of_effect::Cell::Corner(a, b) => vec![a, b],
        })
        .collect();
    for y in 0..grid.height {
        for x in 0..grid.width {
            let p = Pos::new(x, y);
            let m = share_in_tile(&image, &grid, p, true, magenta);
            let l = share_in_tile(&image, &grid, p, true, yellow);
            if p == cover {
                continue;
            }
            assert!(m < 0.02, "{p}: magenta ({m}) only on the cover tile");
            if line.contains(&p) {
                assert!(l > 0.5, "{p}: on the line, yellow ({l})");
            } else if p != from && p != to {
                assert!(l < 0.05, "{p}: off the line, no yellow ({l})");
            }
        }
    }
    // Demo 2, step 6: Ila behind Orm with the arcs shown (R4.1): the front
    // arc green, the rear purple, nothing beyond 3 tiles.
    let image = tour_picture(&xvfb, "2", "6");
    let (scenario, level, grid) = demo("02_facing.ron");
    let verdict = skirmish::scenario::run(
        &skirmish::scenario::Scenario {
            commands: scenario.commands[..6].to_vec(),
            expect: vec![],
            ..scenario.clone()
        },
        &level,
    );
    assert!(verdict.log.contains("(7, 3)"), "Ila walked to (7, 3)");
    let (ila, facing) = (Pos::new(7, 3), skirmish::grid::Dir::E);
    let green = |[r, g, b]: [i32; 3]| g > r + 25 && g > b + 25;
    let purple = |[r, g, b]: [i32; 3]| b > g + 35 && r > g + 20;
    let mut checked = 0;
    for y in 0..grid.height {
        for x in 0..grid.width {
            let p = Pos::new(x, y);
            let floor = level.map.get(p).is_some_and(|t| t.name == "floor");
            let units_here = level.units.iter().any(|u| u.at == p) || p == ila;
            if !floor || units_here {
                continue;
            }
            // The left edge of the tile, clear of unit sprites.
            let (corner, side) = tile_on_screen(&grid, p, true);
            let c = pixel(&image, corner.x + 3.0, corner.y + side / 2.0);
            if p.distance(ila) <= 3 {
                let front = skirmish::rules::positioning::facing::in_front_arc(ila, facing, p);
                let ok = if front { green(c) } else { purple(c) };
                assert!(
                    ok,
                    "{p}: {} arc, pixel {c:?}",
                    if front { "front" } else { "rear" }
                );
                checked += 1;
            } else {
                assert!(!green(c) && !purple(c), "{p}: beyond the arcs, pixel {c:?}");
            }
        }
    }
    assert!(checked > 10, "{checked} arc tiles checked");
}

/// The threat overlay in the window (R4.4, R8.2): on the reactions demo,
/// once every raider has had a turn, the tiles where a step of Ila's would
/// provoke are red, exactly those the rules' threats cover.
#[test]
fn the_threat_overlay_is_painted_where_a_step_provokes() {
    let Some(xvfb) = xvfb() else { return };
    let (image, level, grid, mut app) = demo_step(&xvfb, "07_reactions.ron", 4);
    let world = app.world_mut();
    let (ila, _) = unit_at(world, "Ila");
    assert_eq!(
        world
            .resource::<skirmish::rules::turns::turn::TurnState>()
            .current,
        Some(ila)
    );
    let ready = skirmish::rules::reactions::reactive_attack::watchers(world, ila);
    assert!(!ready.is_empty(), "the raiders may react by now");
    let occupied = occupied(world);
    let red = |[r, g, b]: [i32; 3]| r > 190 && g < 130 && b < 110;
    let mut provoking = 0;
    for y in 0..grid.height {
        for x in 0..grid.width {
            let p = Pos::new(x, y);
            if level.map.get(p).is_none_or(|t| t.name != "floor") || occupied.contains(&p) {
                continue;
            }
            let (corner, side) = tile_on_screen(&grid, p, true);
            let c = pixel(&image, corner.x + 2.0, corner.y + side / 2.0);
            let covered = ready.iter().any(|t| t.covers(p));
            assert_eq!(red(c), covered, "{p}: pixel {c:?}, provokes: {covered}");
            provoking += usize::from(covered);
        }
    }
    assert!(provoking > 0);
}

/// A demo of the tour at one step, in the window and headless: the
/// screenshot, the level, its grid and the battle at that step (`steps`:
/// the number of commands played; the demo's number is its file's prefix).
fn demo_step(
    xvfb: &Path,
    file: &str,
    steps: usize,
) -> (Image, skirmish::load::ValidLevel, Grid, bevy::app::App) {
    let number = file.split('_').next().unwrap().trim_start_matches('0');
    let image = tour_picture(xvfb, number, &steps.to_string());
    let (scenario, level, grid) = demo(file);
    let app = demo_battle(&scenario, &level, steps);
    (image, level, grid, app)
}

/// Every unit's tile.
fn occupied(world: &bevy::ecs::world::World) -> Vec<Pos> {
    skirmish::battle::units(world)
        .into_iter()
        .filter_map(|u| world.get::<skirmish::battle::GridPos>(u).map(|p| p.0))
        .collect()
}

/// `name`'s entity and tile in a demo battle.
fn unit_at(world: &bevy::ecs::world::World, name: &str) -> (bevy::ecs::entity::Entity, Pos) {
    let e = skirmish::battle::unit_named(world, name).unwrap();
    (e, world.get::<skirmish::battle::GridPos>(e).unwrap().0)
}

/// A demo's battle after its first `steps` commands, headless, with the
/// demo's own dice: what the window shows at that step of the tour.
fn demo_battle(
    scenario: &skirmish::scenario::Scenario,
    level: &skirmish::load::ValidLevel,
    steps: usize,
) -> bevy::app::App {
    let mut app = skirmish::setup::headless_app_with(
        level,
        skirmish::dice::Dice::scripted(scenario.dice.iter().copied()),
        scenario.initiative.as_deref(),
    );
    for c in &scenario.commands[..steps] {
        skirmish::rules::pipeline::submit(app.world_mut(), c.clone()).unwrap();
    }
    app
}

/// The mean colour of the bottom strip of `tile` (clear of the words the
/// overlays write across the middle of a tile).
fn tile_colour(image: &Image, grid: &Grid, tile: Pos, tour: bool) -> [i32; 3] {
    let (corner, side) = tile_on_screen(grid, tile, tour);
    let (mut sum, mut n) = ([0; 3], 0);
    for dy in (side * 0.72) as i32..(side as i32 - 2) {
        for dx in 2..(side as i32 - 2) {
            let c = pixel(image, corner.x + dx as f32, corner.y + dy as f32);
            (0..3).for_each(|i| sum[i] += c[i]);
            n += 1;
        }
    }
    sum.map(|v| v / n.max(1))
}

/// The mean colour of the bottom strip of tileset tile `index`, as
/// [`tile_colour`] reads a tile on screen.
fn sheet_tile_colour(index: u32) -> [i32; 3] {
    let tiles = skirmish::art::tiles::tileset_image();
    let data = tiles.data.as_ref().unwrap();
    let (mut sum, mut n) = ([0; 3], 0);
    for y in 23..30 {
        for x in 2..30 {
            let i = ((y * tiles.width() + index * 32 + x) * 4) as usize;
            (0..3).for_each(|k| sum[k] += data[i + k] as i32);
            n += 1;
        }
    }
    sum.map(|v| v / n)
}

/// `under` with `tint` blended over it as the renderer blends (in linear
/// light).
fn blend(under: [i32; 3], tint: bevy::color::Color) -> [i32; 3] {
    use bevy::color::{ColorToComponents, ColorToPacked, LinearRgba, Srgba};
    let top = tint.to_linear();
    let base = LinearRgba::from(Srgba::rgb_u8(
        under[0] as u8,
        under[1] as u8,
        under[2] as u8,
    ));
    let a = top.alpha;
    let mixed = LinearRgba::from_vec3(top.to_vec3() * a + base.to_vec3() * (1.0 - a));
    Srgba::from(mixed).to_u8_array_no_alpha().map(i32::from)
}

fn near(a: [i32; 3], b: [i32; 3], tolerance: i32) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() <= tolerance)
}

/// The free floor tiles of a demo battle: no wall, no unit, and no unit
/// just south (its condition icons overlap the tile above).
fn free_floor(app: &mut bevy::app::App, level: &skirmish::load::ValidLevel) -> Vec<Pos> {
    let occupied = occupied(app.world());
    let mut out = vec![];
    for y in 0..level.map.height() {
        for x in 0..level.map.width() {
            let p = Pos::new(x, y);
            let below = Pos::new(x, y + 1);
            if level.map.get(p).is_some_and(|t| t.name == "floor")
                && !occupied.contains(&p)
                && !occupied.contains(&below)
            {
                out.push(p);
            }
        }
    }
    out
}

/// The reach overlay in the window (R5.1): on the movement demo, the
/// floor Cole may move to is shaded blue, and no other floor is.
#[test]
fn the_reach_overlay_is_painted_on_the_tiles_a_move_reaches() {
    let Some(xvfb) = xvfb() else { return };
    let (image, level, grid, mut app) = demo_step(&xvfb, "01_movement.ron", 0);
    let (mut reached, mut not) = (0, 0);
    for p in free_floor(&mut app, &level) {
        let to = skirmish::rules::command::Command::Move {
            unit: "Cole".into(),
            to: p,
            path: None,
            sprint: false,
        };
        let reach = skirmish::rules::pipeline::check(app.world_mut(), to).is_ok();
        let [r, g, b] = tile_colour(&image, &grid, p, true);
        let blue = b > r + 10 && b > g + 10;
        assert_eq!(
            blue,
            reach,
            "{p}: colour {:?}, reachable: {reach}",
            [r, g, b]
        );
        if reach { reached += 1 } else { not += 1 }
    }
    assert!(reached > 10 && not > 3, "{reached} reached, {not} not");
}

/// The range bands in the window (R7.4): on the range demo every floor
/// tile shows the band colour of the modifier an attack on it would get,
/// blended over the bare floor seen beyond the maximum range.
#[test]
fn the_range_bands_are_painted_with_the_modifier_of_a_shot_there() {
    use skirmish::rules::sight::range::range_modifier;
    let Some(xvfb) = xvfb() else { return };
    let (image, level, grid, mut app) = demo_step(&xvfb, "05_range.ron", 0);
    let (sling, from) = unit_at(app.world(), "Sling");
    let weapon = level.catalog.weapon("shortsling").unwrap().clone();
    let str = app
        .world()
        .get::<skirmish::battle::Stats>(sling)
        .unwrap()
        .template
        .str;
    let band = |p: Pos| match range_modifier(
        &weapon,
        skirmish::rules::modifiers::AttackMode::Ranged,
        str,
        from.distance(p),
    ) {
        Some(Ok((a, _))) => Some(a),
        _ => None,
    };
    let floor = free_floor(&mut app, &level);
    let bare: Vec<Pos> = floor
        .iter()
        .copied()
        .filter(|p| band(*p).is_none())
        .collect();
    assert!(!bare.is_empty(), "floor beyond the maximum range");
    let plain = tile_colour(&image, &grid, bare[0], true);
    let mut bands = std::collections::BTreeSet::new();
    for p in floor {
        let seen = tile_colour(&image, &grid, p, true);
        let want = band(p).map_or(plain, |a| blend(plain, tint::band(a)));
        assert!(
            near(seen, want, 10),
            "{p}: {seen:?}, band {:?} wants {want:?}",
            band(p)
        );
        bands.insert(band(p));
    }
    assert!(bands.len() >= 5, "bands seen: {bands:?}");
}

/// The flank link in the window (R4.5): on the flanking demo, with the
/// Foe hovered, the ally the preview names is framed green, and nothing
/// else on the floor is green.
#[test]
fn the_flanking_ally_is_framed_in_the_window() {
    let Some(xvfb) = xvfb() else { return };
    let (image, level, grid, mut app) = demo_step(&xvfb, "03_flanking.ron", 0);
    let world = app.world_mut();
    let ((ila, from), (foe, _)) = (unit_at(world, "Ila"), unit_at(world, "Foe"));
    let ally = skirmish::rules::positioning::flanking::flank_partner(world, ila, foe, from)
        .expect("the demo's ally flanks");
    let at = world.get::<skirmish::battle::GridPos>(ally).unwrap().0;
    let green = |[r, g, b]: [i32; 3]| g > r + 40 && g > b + 40;
    // The tile's left edge, beside the unit's sprite.
    let (corner, side) = tile_on_screen(&grid, at, true);
    let edge = pixel(&image, corner.x + 2.0, corner.y + side * 0.3);
    assert!(
        green(edge),
        "{at}: the flanking ally's frame, pixel {edge:?}"
    );
    for p in free_floor(&mut app, &level) {
        let c = tile_colour(&image, &grid, p, true);
        assert!(!green(c), "{p}: no flank here, colour {c:?}");
    }
}

/// The charge line in the window (R4.7): on the charge demo's step 3,
/// Cole's charge at the hovered Brakka is painted cyan on exactly the
/// tiles the charge would run.
#[test]
fn the_charge_path_is_painted_where_the_charge_runs() {
    let Some(xvfb) = xvfb() else { return };
    let (image, level, grid, mut app) = demo_step(&xvfb, "08_charge.ron", 3);
    let world = app.world_mut();
    let ((cole, _), (brakka, _)) = (unit_at(world, "Cole"), unit_at(world, "Brakka"));
    let path =
        skirmish::rules::motion::charge::charge_path(world, cole, brakka).expect("Cole may charge");
    let plain = tile_colour(&image, &grid, Pos::new(7, 6), true);
    let mut on_path = 0;
    for p in free_floor(&mut app, &level) {
        let seen = tile_colour(&image, &grid, p, true);
        let want = if path.contains(&p) {
            on_path += 1;
            blend(plain, tint::CHARGE)
        } else {
            plain
        };
        assert!(near(seen, want, 12), "{p}: {seen:?}, wants {want:?}");
    }
    assert!(on_path >= 1, "{path:?}");
}

/// The throw preview in the window (R9.3, R9.4): on the throws demo's last
/// step the bomb aimed at (7, 5) marks the aimed tile, every tile a miss
/// may land on, and the splash around them, where the rules' preview puts
/// them; the rest of the floor stays bare.
#[test]
fn the_throw_preview_is_painted_where_the_throw_may_land() {
    use skirmish::rules::command::ThrowTarget;
    let Some(xvfb) = xvfb() else { return };
    // The last step: every command of the demo played.
    let (image, level, grid, mut app) = demo_step(&xvfb, "06_throws.ron", 12);
    assert_eq!(demo("06_throws.ron").0.commands.len(), 12);
    let world = app.world_mut();
    let (t, _) = unit_at(world, "T");
    let aimed = Pos::new(7, 5);
    let preview =
        skirmish::rules::throws::throw::preview_throw(world, t, "bomb", &ThrowTarget::Tile(aimed))
            .expect("T may throw a bomb there");
    let scatter: Vec<Pos> = preview.scatter.iter().map(|(p, _)| *p).collect();
    let orange = |[r, g, b]: [i32; 3]| r > g + 40 && g > b;
    let yellow = |[r, g, b]: [i32; 3]| r > 200 && g > 190 && b < 150;
    let aimed_colour = tile_colour(&image, &grid, aimed, true);
    assert!(yellow(aimed_colour), "aimed {aimed}: {aimed_colour:?}");
    let plain = tile_colour(&image, &grid, Pos::new(1, 1), true);
    let mut marked = 0;
    for p in free_floor(&mut app, &level) {
        let seen = tile_colour(&image, &grid, p, true);
        if scatter.contains(&p) && p != aimed {
            assert!(
                orange(seen) && !near(seen, plain, 12),
                "{p}: scatter, {seen:?}"
            );
            marked += 1;
        } else if p.chebyshev(aimed) > 1 && scatter.iter().all(|s| s.chebyshev(p) > 1) {
            // Not a landing tile, not in a splash: bare floor.
            assert!(near(seen, plain, 12), "{p}: bare, {seen:?} vs {plain:?}");
        }
    }
    assert_eq!(marked, scatter.iter().filter(|p| **p != aimed).count());
}

use skirmish::view::overlays::tint;

/// The editor's window (issue 12) on a level the editor's own edits made
/// and saved: the painted wall and water and the placed unit are drawn
/// where the edits put them, the palette and the level panel beside.
#[test]
fn the_editor_draws_the_level_its_edits_saved() {
    use skirmish::design::editor::{Edit, Editor};
    use skirmish::grid::Dir;
    let Some(xvfb) = xvfb() else { return };
    let file = temp("edited.ron");
    std::fs::copy(root().join("tests/levels/reload.ron"), &file).unwrap();
    let mut editor = Editor::open(&file, catalog()).unwrap();
    for edit in [
        Edit::Paint {
            at: Pos::new(3, 1),
            symbol: '#',
        },
        Edit::Paint {
            at: Pos::new(4, 2),
            symbol: '~',
        },
        Edit::PlaceUnit {
            at: Pos::new(5, 1),
            side: "Red".into(),
            template: "archer".into(),
            facing: Dir::W,
        },
    ] {
        editor.apply(&edit).unwrap();
    }
    editor.save().unwrap();
    let saved = skirmish::load::load_level_file(&file, catalog()).unwrap();
    let image = picture(&xvfb, "editor", &["edit", file.to_str().unwrap()]);
    std::fs::remove_file(&file).ok();
    let grid = Grid {
        width: 8,
        height: 4,
    };
    let corner_wall = tile_colour(&image, &grid, Pos::new(0, 0), false);
    let floor = tile_colour(&image, &grid, Pos::new(2, 2), false);
    assert!(!near(corner_wall, floor, 20), "walls and floor differ");
    // Each is the tile the window draws for the saved level there (a
    // wall with its face where its south side shows).
    for p in [
        Pos::new(0, 0),
        Pos::new(3, 1),
        Pos::new(2, 2),
        Pos::new(4, 2),
    ] {
        let expected = sheet_tile_colour(skirmish::art::tiles::tile_at(&saved.map, p));
        let drawn = tile_colour(&image, &grid, p, false);
        assert!(
            near(drawn, expected, 12),
            "the tile at {p} is drawn as the saved level has it: {drawn:?} against {expected:?}"
        );
    }
    // A pond of one tile: blue inside its banks.
    let water = tile_colour(&image, &grid, Pos::new(4, 2), false);
    let expected = sheet_tile_colour(skirmish::art::tiles::tile_at(&saved.map, Pos::new(4, 2)));
    assert!(
        water[2] > water[0] + 40 && near(water, expected, 12),
        "the painted water is blue: {water:?}"
    );
    let red = |c: [i32; 3]| near(c, [230, 77, 64], 25);
    let blue = |c: [i32; 3]| near(c, [64, 128, 242], 25);
    // A unit's side colour is its base and its tabard or hood: 3 to 8%
    // of its tile (the rest is the figure and the ground).
    let placed = share_in_tile(&image, &grid, Pos::new(5, 1), false, red);
    assert!(placed > 0.02, "the placed unit, red ({placed})");
    let ila = share_in_tile(&image, &grid, Pos::new(1, 1), false, blue);
    assert!(ila > 0.02, "Ila, blue ({ila})");
    assert!(
        share_in_tile(&image, &grid, Pos::new(2, 1), false, red) < 0.01,
        "no unit here"
    );
    // The palette's chosen tool (amber) in the top bar.
    let amber = count_near(&image, [191, 140, 38], 30);
    assert!(amber > 300, "the chosen tool is lit ({amber} pixels)");
}

/// A level of figures in a row for the sprite tests: `units` as
/// `(template, facing)` of the Wardens on row 1, a Raider far off.
fn figures_level(name: &str, units: &[(&str, &str)]) -> PathBuf {
    let rows = units.len() * 2 + 3;
    let line = ".".repeat(rows);
    let units: Vec<String> = units
        .iter()
        .enumerate()
        .map(|(i, (template, facing))| {
            format!(
                r#"(name: "U{i}", side: "Wardens", template: "{template}", at: ({}, 1), facing: {facing}),"#,
                2 + 2 * i
            )
        })
        .collect();
    let text = format!(
        r#"Level(
    name: "Figures",
    map: ["{line}", "{line}", "{line}", "{line}"],
    sides: [(name: "Wardens", control: Human), (name: "Raiders", control: Human)],
    units: [
        {}
        (name: "Far", side: "Raiders", template: "raider", at: (0, 3), facing: N),
    ],
)"#,
        units.join("\n        ")
    );
    let path = temp(&format!("{name}.ron"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The pixels of the figure standing on `tile`: the tile's middle band,
/// from under the bars to above the base (the acting unit's ring is
/// round the base).
fn figure_pixels(image: &Image, grid: &Grid, tile: Pos) -> Vec<[i32; 3]> {
    let (corner, side) = tile_on_screen(grid, tile, false);
    let mut out = vec![];
    for y in (side * 0.15) as i32..(side * 0.7) as i32 {
        for x in (side * 0.1) as i32..(side * 0.9) as i32 {
            out.push(pixel(image, corner.x + x as f32, corner.y + y as f32));
        }
    }
    out
}

/// The share of two figures' pixels that plainly differ (by more than 90
/// summed over the channels): the floor's own variation from tile to tile
/// stays under it, a different figure does not.
fn difference(a: &[[i32; 3]], b: &[[i32; 3]]) -> f32 {
    let differ = a
        .iter()
        .zip(b)
        .filter(|(p, q)| (0..3).map(|k| (p[k] - q[k]).abs()).sum::<i32>() > 90)
        .count();
    differ as f32 / a.len() as f32
}

/// Each template is its own figure, and a figure turns with its unit's
/// facing (R4.1): the knight-like warden, the archer and the brute differ
/// from each other, the warden facing east differs from the warden facing
/// west, and (the measure's own check) two wardens facing east are alike.
#[test]
fn templates_look_different_and_a_figure_turns_with_its_facing() {
    let Some(xvfb) = xvfb() else { return };
    let units = [
        ("warden", "E"),
        ("archer", "E"),
        ("brute", "E"),
        ("warden", "W"),
        ("warden", "E"),
    ];
    let level = figures_level("figures", &units);
    let image = picture(
        &xvfb,
        "figures",
        &["play", level.to_str().unwrap(), "--overlay", "none"],
    );
    let grid = Grid {
        width: (units.len() * 2 + 3) as i32,
        height: 4,
    };
    let fig: Vec<Vec<[i32; 3]>> = (0..units.len())
        .map(|i| figure_pixels(&image, &grid, Pos::new(2 + 2 * i as i32, 1)))
        .collect();
    let same = difference(&fig[0], &fig[4]);
    assert!(same < 0.1, "two wardens facing east look alike: {same:.2}");
    for (a, b, what) in [
        (0, 1, "warden and archer"),
        (0, 2, "warden and brute"),
        (1, 2, "archer and brute"),
        (0, 3, "a warden facing east and one facing west"),
    ] {
        let d = difference(&fig[a], &fig[b]);
        assert!(
            d > 0.25 && d > 4.0 * same,
            "{what} differ: {d:.2} of the pixels (alike: {same:.2})"
        );
    }
}

/// A config folder (for `SKIRMISH_CONFIG_DIR`) whose settings file says
/// `text`.
fn settings_dir(name: &str, text: &str) -> PathBuf {
    let config = temp(name);
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("settings.ron"), text).unwrap();
    config
}

/// The colour-blind palette, read from the settings file: the two sides'
/// bases, as drawn in the window, stay apart under a simulated
/// deuteranopia by more than ΔE 20 (and the window is not the standard
/// palette's blue and red).
#[test]
fn the_colour_blind_sides_stay_apart_for_the_green_blind_on_screen() {
    use skirmish::art::vision::{Vision, distance};
    let Some(xvfb) = xvfb() else { return };
    let config = settings_dir("cb-settings", "(palette: ColourBlind)");
    let shot = temp("cb.png");
    run_in_xvfb_with(
        &xvfb,
        &[
            "play",
            "levels/ford.ron",
            "--human",
            "Raiders",
            "--overlay",
            "none",
            "--screenshot",
            shot.to_str().unwrap(),
        ],
        &config,
    );
    let image = read_png(&std::fs::read(&shot).unwrap());
    let level = crate::common::level("ford.ron");
    let grid = Grid {
        width: level.map.width(),
        height: level.map.height(),
    };
    // The base: the side-coloured disc under each figure's feet, left of
    // the figure (its most saturated pixels there).
    let base = |side: &str| {
        let u = level
            .units
            .iter()
            .find(|u| level.sides()[u.side].name == side)
            .unwrap();
        let (corner, tile) = tile_on_screen(&grid, u.at, false);
        let mut best = [0; 3];
        for dy in (tile * 0.78) as i32..(tile * 0.95) as i32 {
            for dx in (tile * 0.1) as i32..(tile * 0.3) as i32 {
                let c = pixel(&image, corner.x + dx as f32, corner.y + dy as f32);
                let sat = |c: [i32; 3]| c.iter().max().unwrap() - c.iter().min().unwrap();
                if sat(c) > sat(best) {
                    best = c;
                }
            }
        }
        best.map(|v| v as f32 / 255.0)
    };
    let (a, b) = (base("Wardens"), base("Raiders"));
    let d = distance(Vision::Deuteranopia, a, b);
    assert!(
        d > 20.0,
        "sides {a:?} and {b:?}: ΔE {d:.1} for the green-blind"
    );
    let blue = skirmish::art::vision::distance(Vision::Typical, a, [0.25, 0.5, 0.95]);
    assert!(blue > 10.0, "the colour-blind palette is on: {a:?}");
}

/// A broken settings file: the game still opens (with the defaults), says
/// so in one line, and leaves the defaults in the file.
#[test]
fn a_broken_settings_file_opens_the_game_with_the_defaults() {
    let Some(xvfb) = xvfb() else { return };
    let config = settings_dir("broken-settings", "(volume: loud");
    let shot = temp("broken-settings.png");
    let out = run_in_xvfb_with(
        &xvfb,
        &[
            "play",
            "levels/ford.ron",
            "--screenshot",
            shot.to_str().unwrap(),
        ],
        &config,
    );
    assert!(std::fs::metadata(&shot).is_ok_and(|m| m.len() > 0));
    let told: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("settings.ron:"))
        .collect();
    assert_eq!(told.len(), 1, "one line:\n{out}");
    assert!(told[0].contains("replaced by the defaults"), "{}", told[0]);
    // Without a sound device (as on CI) the game plays silently and says
    // so in one line: nothing from ALSA.
    if !skirmish::view::sound::audio_device_present() {
        let audio: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("audio") || l.contains("ALSA"))
            .collect();
        assert_eq!(
            audio,
            ["skirmish: no audio device: the game plays silently"]
        );
    }
    let now = std::fs::read_to_string(config.join("settings.ron")).unwrap();
    assert_eq!(
        skirmish::settings::Settings::parse(&now).unwrap(),
        skirmish::settings::Settings::default()
    );
}

/// Maneuvers in the window (V7): on the tour's maneuvers demo, after Hald
/// seizes Vek, a rope in the grapple's colour runs from Hald's tile to
/// Vek's (the pixels half-way between their centres), and nowhere between
/// two units not in a grapple; the rules agree that Vek is held.
#[test]
fn a_grapple_is_drawn_as_a_rope_between_the_two() {
    use skirmish::rules::command::Hold;
    let Some(xvfb) = xvfb() else { return };
    let (image, _level, grid, app) = demo_step(&xvfb, "16_maneuvers.ron", 4);
    let world = app.world();
    let ((hald, at_hald), (vek, at_vek)) = (unit_at(world, "Hald"), unit_at(world, "Vek"));
    assert_eq!(
        skirmish::rules::variants::maneuvers::hold_on(world, vek, hald),
        Hold::Held
    );
    let centre = |p: Pos| {
        let (corner, side) = tile_on_screen(&grid, p, true);
        corner + bevy::math::Vec2::splat(side / 2.0)
    };
    let rope = |[r, g, b]: [i32; 3]| r > 200 && g > 150 && g < 225 && b < 140 && r > b + 90;
    // The seam between the two tiles, a few pixels around the midpoint.
    let count = |a: Pos, b: Pos| {
        let mid = (centre(a) + centre(b)) / 2.0;
        let mut n = 0;
        for dy in -3..=3 {
            for dx in -3..=3 {
                if rope(pixel(&image, mid.x + dx as f32, mid.y + dy as f32)) {
                    n += 1;
                }
            }
        }
        n
    };
    assert!(count(at_hald, at_vek) >= 3, "no rope between Hald and Vek");
    let (_, at_iri) = unit_at(world, "Iri");
    let (_, at_orm) = unit_at(world, "Orm");
    assert_eq!(count(at_iri, at_orm), 0, "a rope where there is no grapple");
}

/// Size in the window (V10.6): on the tour's size demo, the giant's turn
/// with (7, 2) hovered. The move shading paints every tile some reachable
/// 3×3 body covers, not only the anchors the rules place bodies by; the
/// path colour fills the whole body centred on the hovered tile (from
/// (6, 1)); a tile no reachable body covers stays unshaded. The rules
/// agree on each.
#[test]
fn a_big_body_moves_where_it_is_pointed_and_its_reach_covers_its_footprints() {
    let Some(xvfb) = xvfb() else { return };
    let (image, _level, grid, mut app) = demo_step(&xvfb, "17_size.ron", 7);
    let (gru, _) = unit_at(app.world(), "Gru");
    let reach = skirmish::rules::motion::movement::move_reach(app.world_mut(), gru);
    let anchor = skirmish::view::footprints::move_anchor(&reach, Pos::new(7, 2), 3);
    assert_eq!(anchor, Some(Pos::new(6, 1)));
    let covered = skirmish::view::footprints::covered_costs(&reach, 3);
    // (10, 2) is a tile of a reachable body but never an anchor of one.
    assert!(covered.contains_key(&Pos::new(10, 2)) && !reach.contains_key(&Pos::new(10, 2)));
    assert!(!covered.contains_key(&Pos::new(2, 5)));
    let path = |[r, g, b]: [i32; 3]| r > 190 && g > 180 && b < r - 40;
    let blue = |[r, _, b]: [i32; 3]| b > r + 20;
    for t in [Pos::new(6, 1), Pos::new(6, 3)] {
        let share = share_in_tile(&image, &grid, t, true, path);
        assert!(share > 0.5, "{t} not in the path colour: {share}");
    }
    let share = share_in_tile(&image, &grid, Pos::new(10, 2), true, blue);
    assert!(share > 0.5, "(10, 2) not shaded: {share}");
    let share = share_in_tile(&image, &grid, Pos::new(2, 5), true, blue);
    assert!(share < 0.1, "(2, 5) shaded: {share}");
}

/// Hot-seat with stealth (V8.1, #24): before a side's view is shown, a
/// curtain hides the whole battle until its player takes the seat; one
/// player at the window gets no curtain.
#[test]
fn hot_seat_hides_the_battle_behind_a_curtain() {
    let Some(xvfb) = xvfb() else { return };
    let total = (skirmish::view::WINDOW.0 * skirmish::view::WINDOW.1) as usize;
    let night = "levels/nightraid.ron";
    let seat = ["play", night, "--human", "Wardens", "--human", "Raiders"];
    let curtain = picture(&xvfb, "curtain", &seat);
    let dark = count_near(&curtain, [13, 15, 23], 6);
    assert!(
        dark > total * 9 / 10,
        "the curtain covers the window ({dark} of {total})"
    );
    let alone = picture(&xvfb, "no-curtain", &["play", night]);
    let dark = count_near(&alone, [13, 15, 23], 6);
    // The panels share the curtain's dark; the map does not.
    assert!(
        dark < total * 3 / 4,
        "one player sees the battle ({dark} of {total})"
    );
    // The stealth demo of the tour, handed over to its learner (both sides
    // at the window): its last caption and the Wardens' view, no curtain.
    let tour = tour_picture(&xvfb, "20", "8");
    let dark = count_near(&tour, [13, 15, 23], 6);
    assert!(
        dark < total * 3 / 4,
        "the tour needs no curtain ({dark} of {total})"
    );
}

/// A replay watched as one side shows what it knew (V8.1, V8.4): Vek hides
/// in the brush before Ann; watched as the Raiders he is drawn there, in
/// his side's red; as the Wardens he is not, and his ghost ("Vek?") stands
/// where he slipped away.
#[test]
fn a_replay_watched_as_a_side_shows_its_fog_and_ghosts() {
    let Some(xvfb) = xvfb() else { return };
    let file = root().join("tests/levels/hide_replay.ron");
    let file = file.to_str().unwrap();
    let watch = |side: &str| {
        picture(
            &xvfb,
            &format!("as-{side}"),
            &["replay", file, "--watch", "--speed", "8", "--as", side],
        )
    };
    let (raiders, wardens) = (watch("Raiders"), watch("Wardens"));
    let red = |image: &Image| count_near(image, [230, 77, 64], 20);
    // His base ring in his side's red.
    assert!(
        red(&raiders) > 40,
        "the Raiders see Vek ({})",
        red(&raiders)
    );
    assert!(red(&wardens) < 10, "the Wardens do not ({})", red(&wardens));
    // The ghost's pale veil over the brush where he hid (7, 2), which the
    // Raiders' view, seeing him there, does not draw.
    let grid = Grid {
        width: 11,
        height: 5,
    };
    let veil = |image: &Image| {
        share_in_tile(image, &grid, Pos::new(7, 2), false, |c| {
            (0..3).all(|i| (c[i] - [102, 122, 123][i]).abs() <= 10)
        })
    };
    assert!(
        veil(&wardens) > 0.3,
        "a ghost where he hid ({})",
        veil(&wardens)
    );
    assert!(
        veil(&raiders) < 0.05,
        "no ghost for his own side ({})",
        veil(&raiders)
    );
}

/// Spells in the window (V11, #26), tour 24: with flame field armed (step
/// 8), the tiles it would cover are tinted violet and the unit inside is
/// told its odds, the very ones the rules give; once it is laid (step 14),
/// its tiles glow orange for as long as it lasts, and none past its edge;
/// aimed at a unit (step 16), its odds are written beside it.
#[test]
fn a_spell_shows_its_area_and_a_field_glows_on_the_map() {
    let Some(xvfb) = xvfb() else { return };
    let violet = |[r, g, b]: [i32; 3]| b > g + 40 && r > g + 15;
    let (aimed, _level, grid, mut app) = demo_step(&xvfb, "24_spells.ron", 8);
    for t in [Pos::new(8, 1), Pos::new(7, 2), Pos::new(8, 3)] {
        let share = share_in_tile(&aimed, &grid, t, true, violet);
        assert!(share > 0.5, "{t}: the area is not drawn ({share})");
    }
    let share = share_in_tile(&aimed, &grid, Pos::new(10, 3), true, violet);
    assert!(share < 0.1, "(10, 3) lies past the area ({share})");
    // The odds told are the rules' own (the hover panel's line for Kel).
    let world = app.world_mut();
    let (ila, _) = unit_at(world, "Ila");
    let at = skirmish::rules::command::ThrowTarget::Tile(Pos::new(7, 2));
    let c =
        skirmish::rules::variants::spells::cast::casting(world, ila, "flame field", Some(2), &at)
            .unwrap();
    let odds = skirmish::rules::variants::spells::odds::cast_odds(world, &c);
    assert_eq!(odds.len(), 1, "Kel alone stands in it");
    assert!((odds[0].affects - 0.65).abs() < 0.05, "{}", odds[0].affects);
    let fire = |[r, g, b]: [i32; 3]| r > g + 40 && r > b + 20;
    let (laid, _level, grid, _app) = demo_step(&xvfb, "24_spells.ron", 14);
    for t in [Pos::new(6, 1), Pos::new(8, 1), Pos::new(8, 3)] {
        let share = share_in_tile(&laid, &grid, t, true, fire);
        assert!(share > 0.5, "{t}: the field does not glow ({share})");
    }
    for t in [Pos::new(5, 3), Pos::new(9, 3)] {
        let share = share_in_tile(&laid, &grid, t, true, fire);
        assert!(share < 0.1, "{t} lies past the field ({share})");
    }
    // Firebolt aimed at Vek (step 16): its odds ("hit 65%", "0.7 dmg") are
    // written beside his figure on a plate, not across it, where they and
    // his initials and bars ran into one another and read as neither.
    let (aiming, _level, grid, mut app) = demo_step(&xvfb, "24_spells.ron", 16);
    let (_, vek) = unit_at(app.world_mut(), "Vek");
    let white = |c: [i32; 3]| c.iter().all(|&v| v > 200);
    let share = share_in_tile(&aiming, &grid, vek, true, white);
    assert!(share < 0.06, "words cross Vek at {vek} ({share})");
    let written = (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| Pos::new(vek.x + dx, vek.y + dy)))
        .filter(|&t| t != vek)
        .any(|t| share_in_tile(&aiming, &grid, t, true, white) > 0.08);
    assert!(
        written,
        "Vek's odds are written on none of the tiles round him"
    );
}

/// The enemies' intent (#27): `play --intent` draws what each enemy would
/// do were its turn now (the `/` key) on the human's turn: orange trails
/// to where each ends, which the plain picture of the same turn lacks,
/// and the key to the marks under the log, with the trail's swatch.
#[test]
fn the_enemies_intent_is_drawn_on_demand() {
    let Some(xvfb) = xvfb() else { return };
    let ford = root().join("levels/ford.ron");
    let ford = ford.to_str().unwrap();
    let plain = picture(&xvfb, "intent-plain", &["play", ford]);
    let shown = picture(&xvfb, "intent-shown", &["play", ford, "--intent"]);
    let trail = [255, 158, 26];
    let (before, after) = (count_near(&plain, trail, 24), count_near(&shown, trail, 24));
    assert!(
        after > before + 100,
        "no trails drawn: {before} orange pixels without, {after} with"
    );
    // The side column (the map is drawn left of it), where the icons'
    // legend has orange of its own.
    let side = skirmish::view::WINDOW.0 - skirmish::view::theme::SIDE_WIDTH as u32 + 2;
    let key = |image: &Image| count_near_in(image, trail, 24, side..image.width());
    let (before, after) = (key(&plain), key(&shown));
    assert!(
        after >= before + 40,
        "the intent's key: {before} orange pixels in the side column without, {after} with"
    );
}
