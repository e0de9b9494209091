//! What every part of the window shares: the phases of a frame, the
//! options the window was opened with, its size, and how it starts
//! another window.

use crate::ai::Players;
use crate::format::Overlay;
use crate::load::ValidLevel;
use bevy::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The phases of a frame, chained. When adding a variant, order it in the
/// `configure_sets` call of [`ViewPlugin`].
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewSystems {
    /// Cursor and keys to the hovered tile and the selection.
    Input,
    /// Commands sent: the player's, the AI's.
    Act,
    /// Events played out at the view's own pace.
    Animate,
    /// Sprites, overlays and text follow what was played.
    Draw,
}

/// How a battle is shown and played.
#[derive(Resource, Clone, Debug)]
pub struct PlayOptions {
    /// The level.
    pub level: ValidLevel,
    /// The dice seed.
    pub seed: u64,
    /// Who plays each side (`None`: a human at this machine).
    pub players: Players,
    /// Save the window to this PNG once drawn (with `--watch`: at the end
    /// of the battle), then exit.
    pub screenshot: Option<PathBuf>,
    /// Measure this many frames after a warm-up, print the figures, exit.
    pub frames: Option<usize>,
    /// With `frames`: an empty window of the same size, for comparison.
    pub bare: bool,
    /// Present frames as fast as they are drawn (no vsync): `--frames`
    /// then measures what a frame costs, not the display's rate.
    pub no_vsync: bool,
    /// With `screenshot`: shoot as soon as this many events have been
    /// played (mid-animation), not at the end.
    pub shot_after: Option<usize>,
    /// Animation speed: 1 is normal; higher is faster (none: the
    /// settings').
    pub speed: Option<f32>,
    /// Write the battle as a replay file here as it is played.
    pub record: Option<PathBuf>,
    /// Keep the cursor on this tile (screenshots for tests and bug
    /// reports).
    pub hover: Option<crate::grid::Pos>,
    /// Show each enemy's intent (the `/` key) as soon as it is a human's
    /// turn (screenshots for tests and bug reports).
    pub intent: bool,
    /// The overlays switched on at start (default: the view's own).
    pub overlays: Option<BTreeSet<Overlay>>,
    /// A spell armed at a level for the first unit of the player's that
    /// knows it (V11; screenshots for tests and bug reports).
    pub spell: Option<(String, i32)>,
    /// Play this recorded battle's commands instead of asking anyone
    /// (`skirmish replay FILE --watch`).
    pub replay: Option<crate::save::Replay>,
    /// Show this side's view (V8.1) though no one of it sits at the window
    /// (`skirmish replay FILE --watch --as SIDE`): its fog, its ghosts, its
    /// log.
    pub view_as: Option<usize>,
    /// The files the level was read from: saving any restarts the battle
    /// from them (live reload, `skirmish play`).
    pub live: Option<crate::design::reload::LiveLevel>,
}

impl PlayOptions {
    /// `level` played with `seed` by `players`, every other option at its
    /// default (no picture, no measure, the settings' speed).
    pub fn new(level: ValidLevel, seed: u64, players: Players) -> Self {
        PlayOptions {
            level,
            seed,
            players,
            screenshot: None,
            frames: None,
            bare: false,
            no_vsync: false,
            shot_after: None,
            speed: None,
            record: None,
            hover: None,
            intent: false,
            overlays: None,
            spell: None,
            replay: None,
            view_as: None,
            live: None,
        }
    }
}

/// Window size: also the size of `--screenshot` pictures.
pub const WINDOW: (u32, u32) = (1280, 720);

/// Starts skirmish again with `args` in a new process and says whether it
/// started; the caller then closes this window (a window's event loop is
/// made once per process, so another battle, the menu or another demo
/// needs a new one).
pub(crate) fn relaunch<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> bool {
    let started =
        std::env::current_exe().and_then(|exe| std::process::Command::new(exe).args(args).spawn());
    if let Err(e) = &started {
        error!("cannot start skirmish again: {e}");
    }
    started.is_ok()
}
