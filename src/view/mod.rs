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

pub mod action_bar;
pub mod aims;
pub mod attack_odds;
pub mod camera;
pub mod capture;
pub mod controls;
pub mod coords;
pub mod curtain;
pub mod editor;
pub mod energy_pips;
pub mod floats;
pub mod fog;
pub mod footprints;
pub mod frame;
pub mod ground;
pub mod hud;
pub mod input;
pub mod intent;
pub mod key_cursor;
pub mod labels;
pub mod live;
pub mod log;
pub mod map;
pub mod map_material;
pub mod map_words;
pub mod menu;
pub mod motion;
pub mod odds;
pub mod overlays;
pub mod playback;
pub mod preview;
pub mod prompt;
pub mod seat;
pub mod settings;
pub mod sound;
pub mod spell_aim;
pub mod spell_armed;
pub mod spell_bar;
pub mod spell_marks;
pub mod terrain_cache;
pub mod theme;
pub mod tour;
pub mod turns;
pub mod unit_panel;
pub mod units;

pub use frame::{PlayOptions, ViewSystems, WINDOW};

use crate::ai::{Players, Profiles};
use crate::design::reload::LiveReloadPlugin;
use crate::dice::Dice;
use crate::load::ValidLevel;
use crate::rules::turns::turn::begin_battle;
use crate::setup::{BattlePlugin, spawn_battle};
use bevy::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;

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
            theme::plugin,
            camera::plugin,
            map::plugin,
            (units::plugin, fog::plugin, curtain::plugin),
            ground::plugin,
            playback::plugin,
            input::plugin,
            turns::plugin,
            hud::plugin,
            log::plugin,
            prompt::plugin,
            action_bar::plugin,
            odds::plugin,
            (overlays::plugin, map_words::plugin),
            tour::plugin,
        ))
        .add_plugins((
            capture::plugin,
            live::plugin,
            terrain_cache::plugin,
            motion::plugin,
            floats::plugin,
            sound::plugin,
            settings::plugin,
            energy_pips::plugin,
            spell_bar::plugin,
            spell_marks::plugin,
            intent::plugin,
        ));
    }
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
/// the profiles of `assets/ai` over the shipped ones (as `sim` reads them),
/// and `difficulty` (a profile) playing every plain `Ai` side.
pub fn players_for(
    level: &ValidLevel,
    watch: bool,
    overrides: &[(usize, bool)],
    difficulty: Option<&str>,
) -> Result<Players, String> {
    let profiles =
        Profiles::load(std::path::Path::new(crate::ai::PROFILE_DIR)).unwrap_or_else(|problems| {
            warn!("the AI profiles have problems, using the shipped ones:\n{problems}");
            Profiles::shipped()
        });
    let profiles = profiles.with_default(difficulty)?;
    Ok(Players::chosen(level, &profiles, watch, overrides))
}

/// Opens the window and plays the battle of `options` until it is closed;
/// with `tour`, a demo of the rules tour and how many of its steps to play
/// first (`skirmish tour`).
pub fn run(options: PlayOptions, tour: Option<(tour::Tour, usize)>) -> ExitCode {
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
    let first = settings::first_start();
    let settings = settings::load_settings();
    let mut app = App::new();
    let plugins = DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(settings::window_for(
                &settings,
                format!("Skirmish — {}", options.level.name()),
                &options,
            )),
            ..default()
        })
        .set(ImagePlugin::default_nearest());
    app.add_plugins(sound::default_plugins(plugins));
    if options.no_vsync {
        // Unfocused (Xvfb has no window manager to focus it), Bevy updates
        // at most 60 times a second: that cap, not vsync, is what `--frames`
        // measured before. Measuring, every frame runs at once.
        use bevy::winit::{UpdateMode, WinitSettings};
        app.insert_resource(WinitSettings {
            focused_mode: UpdateMode::Continuous,
            unfocused_mode: UpdateMode::Continuous,
        });
    }
    app.insert_resource(crate::art::palette::Palette::of(settings.palette))
        .insert_resource(settings);
    if first {
        app.insert_resource(settings::FirstStart);
    }
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
    if let Some((tour, _)) = &tour {
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
        world.insert_resource(seat::Script::default());
        world.insert_resource(seat::Guided);
    } else {
        spawn_battle(world, &options.level, Dice::seeded(options.seed));
        begin_battle(world, None);
        options.players.clone().install(world);
    }
    if let Some(replay) = &options.replay {
        world.insert_resource(crate::rules::reactions::policy::ReactionPolicies(
            replay.reactions.clone(),
        ));
        world.insert_resource(seat::Script(replay.commands.iter().cloned().collect()));
    }
    let source = crate::save::Replay::of(world, options.seed);
    world.insert_resource(turns::ReplaySource(source));
    if let Some(on) = options.overlays.clone() {
        world.insert_resource(overlays::Overlays(on));
    }
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
