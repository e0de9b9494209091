//! The command line as clap reads it: every subcommand and its options.

use super::design::parse_size;

use super::sim::SimArgs;
use super::window::PlayArgs;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Skirmish: a rules-faithful turn-based tactical grid game.
#[derive(Parser)]
#[command(version, about)]
pub struct Cli {
    /// Without a command: the level menu in a window.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check level and catalog files: prints `ok` or every problem per file,
    /// exits non-zero if any file has a problem.
    Check {
        /// Files to check (levels `Level(...)` or catalogs `Catalog(...)`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The catalog levels are checked against (default: the standard
        /// one, `assets/catalog`, found wherever this runs).
        #[arg(long)]
        catalog: Option<PathBuf>,
        /// Also print `lint`'s warnings for levels.
        #[arg(long)]
        lint: bool,
    },
    /// Warnings about levels that load but may not play as meant, each as
    /// `file:line:col: warning: ...`: stuck units, sides walled off,
    /// unreachable victory zones, units starting in an enemy's reach or
    /// hidden from every enemy, objects on impassable tiles, unused legend
    /// symbols and templates. Exits non-zero only if a file does not load.
    Lint {
        /// Level files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also play N battles each way between the default AI on every
        /// side (`sim`), and warn when a side wins more than 60% of the
        /// decided ones or more than 20% are draws.
        #[arg(long, value_name = "N")]
        balance: Option<usize>,
        /// Seed of the balance battles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The catalog (default: the standard one).
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
    /// A picture of a level (PNG) with the game's tileset: terrain, victory
    /// zones, objects and units; no window or GPU needed.
    Render {
        /// The level file.
        level: PathBuf,
        /// The PNG to write.
        #[arg(short, long, value_name = "FILE.png")]
        output: PathBuf,
        /// Shade the tiles this unit can move to on its first turn (R5.1).
        #[arg(long, value_name = "UNIT")]
        reach: Option<String>,
        /// Shade the tiles this side's units threaten (R4.4).
        #[arg(long, value_name = "SIDE")]
        threat: Option<String>,
        /// Pixels per tile (default: 32, or 16 for levels over 40 wide).
        #[arg(long)]
        tile: Option<u32>,
        /// The catalog (default: the standard one).
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
    /// Write a starter level (walled map, two sides, one unit each) that
    /// passes `check` and `lint`.
    New {
        /// The level's name; the file is NAME.ron in lower case with `_`
        /// for spaces, unless -o names it.
        name: String,
        /// Size in tiles, walls included, as WxH.
        #[arg(long, default_value = "16x12", value_parser = parse_size)]
        size: (usize, usize),
        /// The file to write (never overwritten).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Edit a level in a window: paint terrain, place, move, turn and
    /// delete units and objects, set the victory and round limit; undo,
    /// redo, save (only what `check` accepts).
    Edit {
        /// The level file.
        level: PathBuf,
        /// The catalog the level is resolved against (default: the
        /// standard catalog).
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
        /// Save the window to this PNG once drawn and exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
    },
    /// Run scenario files (scripted dice, commands, expectations): one line
    /// per scenario, then `N passed, M failed`; exits non-zero if any failed.
    Verify {
        /// Scenario files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the combat log of failing scenarios.
        #[arg(long)]
        log: bool,
    },
    /// Play a replay file (a level, a seed and the accepted commands) and
    /// print its combat log and result.
    Replay {
        /// The replay file (`Replay(...)` RON).
        file: PathBuf,
        /// Play it back in the window, animated, instead of printing its
        /// log.
        #[arg(long)]
        watch: bool,
        /// With --watch: animation speed.
        #[arg(long, default_value_t = 1.0)]
        speed: f32,
        /// With --watch: save the window at the end to this PNG and exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
        /// With --watch: show what this side knew (name or 0-based index;
        /// V8.1: its fog and ghosts, its log) instead of the whole battle.
        #[arg(long = "as", value_name = "SIDE")]
        view_as: Option<String>,
        /// The catalog the level is resolved against (default: the
        /// standard one).
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
    /// Play many battles of a level between two AI profiles, headless and
    /// in parallel, and report wins (95% confidence), draws, rounds and
    /// what each unit kind did.
    Sim(SimArgs),
    /// Open a level in the window and play it against the AI (needs an X11
    /// display and a Vulkan driver).
    Play(PlayArgs),
    /// The guided rules tour in the window: one demo per rule area
    /// (`levels/demo/`), stepped through with captions, then yours to play.
    Tour {
        /// Which demo to open, from 1.
        #[arg(long, default_value_t = 1)]
        demo: usize,
        /// Play this many of its steps first.
        #[arg(long, default_value_t = 0)]
        step: usize,
        /// The demos' folder (default: `levels/demo`).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Save the window to this PNG once drawn and exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
    },
}
