//! The player's settings: UI scale, window, animation speed, sound and
//! palette, kept in `settings.ron` in the user's config directory
//! (`$XDG_CONFIG_HOME/skirmish` on Linux; `SKIRMISH_CONFIG_DIR` overrides
//! it, as the tests do). Read at start and written by the settings screen.
//! A file that cannot be read is reported in one line and replaced by the
//! defaults (the broken one kept beside it as `settings.ron.broken`): a bad
//! settings file never stops the game.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The colours the window draws sides and overlays in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaletteChoice {
    /// Blue, red, green and gold sides; the overlays' usual tints.
    #[default]
    Standard,
    /// Sides and overlays that stay apart under protanopia, deuteranopia
    /// and tritanopia (see `art::vision`).
    ColourBlind,
}

/// What the player set (every field has a default: a file may name only
/// some).
#[derive(bevy::prelude::Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The scale of the panels and their text; `None`: from the monitor
    /// (its scale factor, and larger on a tall screen).
    pub ui_scale: Option<f32>,
    /// The window's size in logical pixels.
    pub window: (u32, u32),
    /// Full screen (borderless, on the current monitor).
    pub fullscreen: bool,
    /// Animation speed: 1 normal, up to 64 (`--speed` overrides it).
    pub speed: f32,
    /// Sound volume, 0 to 1.
    pub volume: f32,
    /// No sound at all (the M key).
    pub muted: bool,
    /// The colours of sides and overlays.
    pub palette: PaletteChoice,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ui_scale: None,
            window: (1280, 720),
            fullscreen: false,
            speed: 1.0,
            volume: 0.7,
            muted: false,
            palette: PaletteChoice::Standard,
        }
    }
}

/// The UI scales offered (and the bounds of a scale read from a file).
pub const UI_SCALES: [f32; 7] = [0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0];
/// The window sizes offered.
pub const WINDOW_SIZES: [(u32, u32); 5] = [
    (1280, 720),
    (1600, 900),
    (1920, 1080),
    (2560, 1440),
    (3840, 2160),
];
/// The animation speeds offered.
pub const SPEEDS: [f32; 7] = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 64.0];

impl Settings {
    /// The settings file: `settings.ron` in `SKIRMISH_CONFIG_DIR`, else in
    /// `skirmish/` under the user's config directory; none if there is
    /// no such directory.
    pub fn path() -> Option<PathBuf> {
        let dir = match std::env::var_os("SKIRMISH_CONFIG_DIR") {
            Some(d) => PathBuf::from(d),
            None => dirs::config_dir()?.join("skirmish"),
        };
        Some(dir.join("settings.ron"))
    }

    /// The settings at `path`: the defaults if there is no file; if it
    /// cannot be read, the defaults and the one line that says why (with
    /// line and column), the broken file moved aside and the defaults
    /// written in its place.
    pub fn load(path: &Path) -> (Settings, Option<String>) {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Settings::default(), None);
            }
            Err(e) => {
                let line = format!(
                    "{}: cannot read the settings ({e}); using the defaults",
                    path.display()
                );
                return (Settings::default(), Some(line));
            }
        };
        match Settings::parse(&text) {
            Ok(s) => (s, None),
            Err(why) => {
                let broken = path.with_extension("ron.broken");
                let _ = std::fs::rename(path, &broken);
                let defaults = Settings::default();
                let _ = defaults.save(path);
                let line = format!(
                    "{}:{why}; replaced by the defaults (the old file is {})",
                    path.display(),
                    broken.display()
                );
                (defaults, Some(line))
            }
        }
    }

    /// Reads settings from RON text, checking each value's range; the
    /// error says `line:column: what`.
    pub fn parse(text: &str) -> Result<Settings, String> {
        let s: Settings = ron::Options::default()
            .from_str(text)
            .map_err(|e| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))?;
        s.check().map(|()| s)
    }

    /// Values out of range are refused, not clamped: a typo is reported.
    fn check(&self) -> Result<(), String> {
        let bad = |what: &str| Err(format!("1:1: {what}"));
        if let Some(scale) = self.ui_scale
            && !(UI_SCALES[0]..=UI_SCALES[UI_SCALES.len() - 1]).contains(&scale)
        {
            return bad(&format!("ui_scale {scale} is not between 0.75 and 3"));
        }
        if !(0.0..=1.0).contains(&self.volume) {
            return bad(&format!("volume {} is not between 0 and 1", self.volume));
        }
        if !(0.25..=64.0).contains(&self.speed) {
            return bad(&format!("speed {} is not between 0.25 and 64", self.speed));
        }
        let (w, h) = self.window;
        if !(640..=7680).contains(&w) || !(360..=4320).contains(&h) {
            return bad(&format!("window ({w}, {h}) is not a window size"));
        }
        Ok(())
    }

    /// Writes the settings to `path` (making its folder).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(std::io::Error::other)?;
        std::fs::write(path, text + "\n")
    }

    /// The UI scale a monitor of `scale_factor` and `physical_height`
    /// pixels asks for: 1 per 1080 logical rows (a 4K screen the system
    /// does not scale gets 2; one it scales by 2 already shows everything
    /// twice as large, and gets 1).
    pub fn monitor_scale(scale_factor: f32, physical_height: u32) -> f32 {
        let logical = physical_height as f32 / scale_factor.max(0.5);
        (logical / 1080.0).floor().clamp(1.0, 3.0)
    }

    /// The UI scale to use in a window of `window` logical pixels on that
    /// monitor: the player's, else the monitor's, but never more than
    /// the window holds (the panels are laid out for 1280×720 at 1).
    pub fn ui_scale_for(&self, scale_factor: f32, physical_height: u32, window: (f32, f32)) -> f32 {
        self.ui_scale.unwrap_or_else(|| {
            let fits = (window.0 / 1280.0).min(window.1 / 720.0).floor().max(1.0);
            Settings::monitor_scale(scale_factor, physical_height).min(fits)
        })
    }

    /// The window a first start opens on that monitor: the standard one,
    /// made as much larger as the monitor's UI scale (a 4K screen at scale
    /// factor 1: 2560×1440, with the UI at 2).
    pub fn first_window(scale_factor: f32, physical_height: u32) -> (u32, u32) {
        let k = Settings::monitor_scale(scale_factor, physical_height) as u32;
        (1280 * k, 720 * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_file_keeps_the_defaults_it_does_not_name() {
        let s = Settings::parse("(volume: 0.25, palette: ColourBlind)").unwrap();
        assert_eq!(s.volume, 0.25);
        assert_eq!(s.palette, PaletteChoice::ColourBlind);
        assert_eq!(s.window, Settings::default().window);
    }

    #[test]
    fn out_of_range_values_are_refused() {
        assert!(
            Settings::parse("(volume: 3.0)")
                .unwrap_err()
                .contains("volume")
        );
        assert!(Settings::parse("(ui_scale: Some(9.0))").is_err());
    }

    #[test]
    fn the_auto_scale_follows_the_monitor_within_the_window() {
        let s = Settings::default();
        let big = (2560.0, 1440.0);
        assert_eq!(s.ui_scale_for(1.0, 1080, big), 1.0);
        assert_eq!(s.ui_scale_for(1.0, 2160, big), 2.0);
        // A 4K screen the system already scales by 2 looks like 1080 rows.
        assert_eq!(s.ui_scale_for(2.0, 2160, big), 1.0);
        // The panels at 2 would not fit a 1280×720 window.
        assert_eq!(s.ui_scale_for(1.0, 2160, (1280.0, 720.0)), 1.0);
        // A first start on that 4K screen opens a window the scale fits.
        assert_eq!(Settings::first_window(1.0, 2160), (2560, 1440));
        assert_eq!(Settings::first_window(2.0, 2160), (1280, 720));
        let mine = Settings {
            ui_scale: Some(1.5),
            ..s
        };
        assert_eq!(mine.ui_scale_for(1.0, 2160, (1280.0, 720.0)), 1.5);
    }
}
