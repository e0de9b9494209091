//! The player's settings file and the colour-blind palette: the file
//! round-trips, a broken one is reported in one line and replaced by the
//! defaults, and the colour-blind palette keeps sides and overlays apart
//! under simulated protanopia, deuteranopia and tritanopia.

use skirmish::art::palette::Palette;
use skirmish::art::vision::{OKABE_ITO, Vision, choose_apart, closest_pair, distance};
use skirmish::settings::{PaletteChoice, Settings};
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skirmish-settings-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn the_settings_file_round_trips() {
    let path = dir("round").join("settings.ron");
    let mine = Settings {
        ui_scale: Some(1.5),
        window: (1920, 1080),
        fullscreen: true,
        speed: 4.0,
        volume: 0.3,
        muted: true,
        palette: PaletteChoice::ColourBlind,
    };
    mine.save(&path).unwrap();
    assert_eq!(Settings::load(&path), (mine, None));
}

#[test]
fn no_file_is_the_defaults_and_says_nothing() {
    let path = dir("none").join("settings.ron");
    assert_eq!(Settings::load(&path), (Settings::default(), None));
}

#[test]
fn a_broken_file_is_told_in_one_line_and_replaced_by_the_defaults() {
    let d = dir("broken");
    std::fs::create_dir_all(&d).unwrap();
    let path = d.join("settings.ron");
    std::fs::write(&path, "(\n    volume: 0.5,\n    palette: Sepia,\n)\n").unwrap();
    let (settings, problem) = Settings::load(&path);
    assert_eq!(settings, Settings::default());
    let line = problem.expect("the problem is told");
    assert_eq!(line.lines().count(), 1, "{line}");
    // Where: the file, line 3, column 14.
    assert!(line.contains("settings.ron:3:"), "{line}");
    assert!(line.contains("Sepia"), "{line}");
    // The file now holds the defaults; the broken one is kept beside it.
    assert_eq!(Settings::load(&path), (Settings::default(), None));
    let kept = std::fs::read_to_string(d.join("settings.ron.broken")).unwrap();
    assert!(kept.contains("Sepia"));
    // A value out of range is refused the same way.
    std::fs::write(&path, "(volume: 7.0)").unwrap();
    let (settings, problem) = Settings::load(&path);
    assert_eq!(settings, Settings::default());
    assert!(problem.unwrap().contains("volume 7"));
}

fn rgb(c: bevy::color::Color) -> [f32; 3] {
    let s = c.to_srgba();
    [s.red, s.green, s.blue]
}

/// A translucent overlay over the floor, as the player sees it.
fn over_floor(c: bevy::color::Color) -> [f32; 3] {
    let floor = [0.62, 0.55, 0.42];
    let a = c.to_srgba().alpha;
    let top = rgb(c);
    [0, 1, 2].map(|i| top[i] * a + floor[i] * (1.0 - a))
}

/// ΔE*ab the colour-blind palette keeps between any two sides, and
/// between overlays that must be told apart, under every vision.
const APART: f32 = 20.0;

#[test]
fn the_colour_blind_sides_are_the_ones_the_simulation_chooses() {
    let cb = Palette::COLOUR_BLIND;
    let sides: Vec<[f32; 3]> = cb.sides.iter().map(|c| rgb(*c)).collect();
    let mut chosen: Vec<[f32; 3]> = choose_apart(&OKABE_ITO, 4)
        .into_iter()
        .map(|i| OKABE_ITO[i])
        .collect();
    let mut ours = sides.clone();
    let key = |c: &[f32; 3]| {
        (c[0] * 1000.0) as i32 * 1_000_000 + (c[1] * 1000.0) as i32 * 1000 + (c[2] * 1000.0) as i32
    };
    chosen.sort_by_key(key);
    ours.sort_by_key(key);
    assert_eq!(ours, chosen);
    assert!(closest_pair(&sides) >= APART, "{}", closest_pair(&sides));
    // The two sides of most levels are the farthest apart of all.
    assert!(distance(Vision::Deuteranopia, sides[0], sides[1]) > 80.0);
    // The standard palette does not hold: its red and green sides
    // collapse for the green-blind.
    let std: Vec<[f32; 3]> = Palette::STANDARD.sides.iter().map(|c| rgb(*c)).collect();
    assert!(distance(Vision::Deuteranopia, std[1], std[2]) < APART);
}

#[test]
fn the_colour_blind_overlays_stay_apart_under_every_vision() {
    let cb = Palette::COLOUR_BLIND;
    let pairs = [
        ("front / rear arc", cb.front, cb.rear),
        ("threat / provokes", cb.threat, cb.provokes),
        ("clear / blocked line", cb.line, cb.blocked),
        ("reach / threat", cb.reach(0, 6), cb.threat),
        ("reach / provokes", cb.reach(0, 6), cb.provokes),
    ];
    for (what, a, b) in pairs {
        for v in Vision::ALL {
            let d = distance(v, over_floor(a), over_floor(b));
            assert!(d >= APART, "{what} under {v:?}: ΔE {d:.1}");
        }
    }
}
