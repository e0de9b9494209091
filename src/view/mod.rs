//! The window: the battle drawn with bevy_ecs_tilemap and played with the
//! mouse and keyboard.
//!
//! The game should be able to run and function without these plugins: no
//! gameplay logic here. They read components, resources and the
//! [`BattleEvents`](crate::rules::events::BattleEvents), and change the battle only
//! by sending [`Command`](crate::rules::command::Command)s through
//! [`submit`](crate::rules::pipeline::submit), as the AI, scenario files and replays
//! do. bevy_ecs_tilemap's plugin needs a render app: only [`run`] adds it,
//! never a headless app.
//!
//! One frame, in the order of [`ViewSystems`]:
//!
//! ```text
//! Input → Act → Animate → Draw
//! ```

pub mod capture;
pub mod coords;
pub mod editor;
pub mod hud;
pub mod input;
pub mod live;
pub mod map;
pub mod map_material;
pub mod menu;
pub mod odds;
pub mod overlays;
pub mod playback;
pub mod preview;
pub mod terrain_cache;
pub mod tiles;
pub mod tour;
pub mod turns;
pub mod units;

use crate::ai::{Players, Profiles};
use crate::design::reload::LiveReloadPlugin;
use crate::dice::Dice;
use crate::load::ValidLevel;
use crate::rules::turns::turn::begin_battle;
use crate::setup::{BattlePlugin, spawn_battle};
use bevy::prelude::*;
use bevy::window::WindowResolution;
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Animation speed: 1 is normal; higher is faster.
    pub speed: f32,
    /// Write the battle as a replay file here as it is played.
    pub record: Option<PathBuf>,
    /// Keep the cursor on this tile (screenshots for tests and bug
    /// reports).
    pub hover: Option<crate::grid::Pos>,
    /// The overlays switched on at start (default: [`overlays::Overlays`]'s).
    pub overlays: Option<overlays::Overlays>,
    /// A demo of the rules tour and how many of its steps to play first
    /// (`skirmish tour`).
    pub tour: Option<(tour::Tour, usize)>,
    /// Play this recorded battle's commands instead of asking anyone
    /// (`skirmish replay FILE --watch`).
    pub replay: Option<crate::save::Replay>,
    /// The files the level was read from: saving any restarts the battle
    /// from them (live reload, `skirmish play`).
    pub live: Option<crate::design::reload::LiveLevel>,
}

/// Window size: also the size of `--screenshot` pictures.
pub const WINDOW: (u32, u32) = (1280, 720);

/// Every view plugin, for a window app. Needs a render app.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            Update,
            (
                ViewSystems::Input,
                ViewSystems::Act,
                ViewSystems::Animate,
                ViewSystems::Draw,
            )
                .chain(),
        );
        app.add_plugins((
            map::plugin,
            units::plugin,
            playback::plugin,
            input::plugin,
            turns::plugin,
            hud::plugin,
            odds::plugin,
            overlays::plugin,
            tour::plugin,
            capture::plugin,
            live::plugin,
            terrain_cache::plugin,
        ));
    }
}

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

/// Why a window cannot open here, if it cannot: no X11 display. Checked
/// before Bevy starts, so that a headless machine gets one clear line.
pub fn display_problem() -> Option<String> {
    let display = std::env::var("DISPLAY").unwrap_or_default();
    let hint = "the window needs an X11 display and a Vulkan driver (on a headless machine: \
                `apt-get install -y xvfb mesa-vulkan-drivers libvulkan1` and `xvfb-run -a`); \
                `skirmish sim` and `skirmish replay` run without one";
    if display.is_empty() {
        return Some(format!("no display (DISPLAY is not set): {hint}"));
    }
    // A local display ":N" has a socket; a remote one is left to winit.
    if let Some(n) = display.strip_prefix(':') {
        let n = n.split('.').next().unwrap_or("0");
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        if !socket.exists() {
            return Some(format!("no X server at DISPLAY={display}: {hint}"));
        }
    }
    None
}

/// The players of `level` as it names them, overridden per side, with
/// the profiles of `assets/ai` over the shipped ones (as `sim` reads them).
pub fn players_for(level: &ValidLevel, watch: bool, overrides: &[(usize, bool)]) -> Players {
    let profiles =
        Profiles::load(std::path::Path::new(crate::ai::PROFILE_DIR)).unwrap_or_else(|problems| {
            warn!("the AI profiles have problems, using the shipped ones:\n{problems}");
            Profiles::shipped()
        });
    Players::chosen(level, &profiles, watch, overrides)
}

/// Opens the window and plays the battle of `options` until it is closed.
pub fn run(options: PlayOptions) -> ExitCode {
    if let Some(problem) = display_problem() {
        eprintln!("skirmish: {problem}");
        return ExitCode::from(2);
    }
    // A window that fails deeper down (no Vulkan adapter) says so in one
    // line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("unknown error");
        eprintln!(
            "skirmish: the window failed: {msg} (it needs an X11 display and a Vulkan driver; \
             `skirmish sim` and `skirmish replay` run without one)"
        );
        std::process::exit(3);
    }));
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("Skirmish — {}", options.level.name()),
                    resolution: WindowResolution::from(WINDOW),
                    ..default()
                }),
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    );
    if options.bare {
        app.insert_resource(options);
        // The same camera as the game's (no multisampling).
        app.add_systems(Startup, |mut commands: Commands| {
            commands.spawn((Camera2d, bevy::render::view::Msaa::Off));
        });
        app.add_plugins(capture::plugin);
        app.run();
        return ExitCode::SUCCESS;
    }
    app.add_plugins((
        bevy_ecs_tilemap::TilemapPlugin,
        BattlePlugin,
        LiveReloadPlugin,
        ViewPlugin,
    ));
    let world = app.world_mut();
    if let Some(live) = options.live.clone() {
        world.insert_resource(live);
    }
    if let Some((tour, _)) = &options.tour {
        // The demo's own dice and order; nobody acts but its script.
        let s = &tour.scenario;
        spawn_battle(
            world,
            &options.level,
            Dice::scripted(s.dice.iter().copied()),
        );
        begin_battle(world, s.initiative.as_deref());
        // The tour checked the demo when it loaded it (`verify`).
        let _ = s.rig(world);
        world.insert_resource(turns::Script::default());
    } else {
        spawn_battle(world, &options.level, Dice::seeded(options.seed));
        begin_battle(world, None);
        options.players.clone().install(world);
    }
    if let Some(replay) = &options.replay {
        world.insert_resource(crate::rules::reactions::policy::ReactionPolicies(
            replay.reactions.clone(),
        ));
        world.insert_resource(turns::Script(replay.commands.iter().cloned().collect()));
    }
    let source = crate::save::Replay::of(world, options.seed);
    world.insert_resource(turns::ReplaySource(source));
    if let Some(on) = options.overlays.clone() {
        world.insert_resource(on);
    }
    let tour = options.tour.clone();
    world.insert_resource(options);
    if let Some((tour, steps)) = tour {
        world.insert_resource(tour);
        tour::apply_caption(world);
        for _ in 0..steps {
            tour::step_forward(world);
        }
    }
    app.run();
    ExitCode::SUCCESS
}
