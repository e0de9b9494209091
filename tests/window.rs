//! The window, for real: the game under Xvfb (software Vulkan), a
//! screenshot taken from inside Bevy and checked, and a whole AI-vs-AI
//! battle in `--watch` mode that ends as the headless battle does.
//!
//! Needs `xvfb-run` and a Vulkan driver (`apt-get install -y xvfb xauth
//! mesa-vulkan-drivers libvulkan1`; `.ci/run` installs them). In CI
//! (`CI=true`) their absence fails the test; elsewhere it says what to
//! install and passes.

use crate::common::{catalog, level, root};
use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};
use skirmish::ai::{Players, Profiles, play};
use skirmish::battle::headless_app;
use skirmish::save::{Replay, SaveGame};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `xvfb-run`, or `None` (with the reason said) when the machine has none.
fn xvfb() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("xvfb-run"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let what =
            "xvfb-run is missing: apt-get install -y xvfb xauth mesa-vulkan-drivers libvulkan1";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{what}");
        eprintln!("skipping the window test: {what}");
    }
    found
}

/// Runs `skirmish play ARGS` in a virtual display; its output.
fn play_in_xvfb(xvfb: &Path, args: &[&str]) -> String {
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_skirmish"))
        .arg("play")
        .args(args)
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

/// Pixels of `image` within `tolerance` of `rgb`.
fn count_near(image: &Image, rgb: [u8; 3], tolerance: i32) -> usize {
    let data = image.data.as_ref().expect("pixels");
    data.chunks_exact(4)
        .filter(|p| (0..3).all(|i| (p[i] as i32 - rgb[i] as i32).abs() <= tolerance))
        .count()
}

#[test]
fn the_window_draws_the_battle_and_saves_a_screenshot() {
    let Some(xvfb) = xvfb() else { return };
    let shot = temp("shot.png");
    // A human's turn on the ford, hovering an enemy: reach, path and the
    // attack preview are drawn.
    play_in_xvfb(
        &xvfb,
        &[
            "levels/ford.ron",
            "--hover",
            "12,10",
            "--screenshot",
            shot.to_str().unwrap(),
        ],
    );
    let bytes = std::fs::read(&shot).expect("the screenshot is written");
    std::fs::remove_file(&shot).ok();
    let image = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .expect("a PNG");
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

#[test]
fn a_watched_battle_ends_as_the_headless_one() {
    let Some(xvfb) = xvfb() else { return };
    let (record, shot) = (temp("watch.ron"), temp("end.png"));
    play_in_xvfb(
        &xvfb,
        &[
            "levels/ford.ron",
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
    // The same battle headless, as `sim` plays it: the level's players
    // (every side its AI), the same seed.
    let level = level("ford.ron");
    let mut app = headless_app(&level, 3);
    let mut players = Players::for_level(&level, &Profiles::shipped());
    for p in &mut players.0 {
        p.get_or_insert_with(|| Profiles::shipped().get("utility").cloned().unwrap());
    }
    players.clone().install(app.world_mut());
    let played = play(app.world_mut(), &players, 5000);
    assert!(!played.stalled && played.refused.is_empty());
    let mut a = SaveGame::capture(shown.world_mut());
    let mut b = SaveGame::capture(app.world_mut());
    assert!(a.outcome.is_some(), "the watched battle ended");
    a.history.clear();
    b.history.clear();
    assert_eq!(a, b, "the window played the battle the headless AI plays");
}
