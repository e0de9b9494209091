//! The level editor's window (`skirmish edit LEVEL`): the level drawn as
//! the game draws it, a palette of terrain and tools above it, the level's
//! fields and the selection beside it. Every change is an
//! [`Edit`] sent to the headless [`Editor`], which refuses what `check`
//! would refuse; the view only draws the result.

use super::controls::CursorTile;
use super::map::Highlights;
use crate::design::editor::Editor;
use crate::dice::Dice;
use crate::setup::{BattlePlugin, clear_battle, spawn_battle};
use bevy::prelude::*;
use bevy::window::WindowResolution;
use std::process::ExitCode;

mod edits;
mod panels;
mod state;

use edits::{edit_by_keys, edit_on_map, type_text};
use panels::{mark_tiles, press_palette, show_panels, spawn_panels};
pub use state::{EditorState, Field, Tool};

/// Opens the editor window on `editor`'s level until it is closed.
pub fn run_editor(editor: Editor, screenshot: Option<std::path::PathBuf>) -> ExitCode {
    if let Some(problem) = super::display_problem() {
        eprintln!("skirmish: {problem}");
        return ExitCode::from(2);
    }
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("Skirmish editor — {}", editor.file.display()),
                    resolution: WindowResolution::from(super::frame::WINDOW),
                    ..default()
                }),
                // Closing with unsaved edits asks first (guard_unsaved_edits).
                close_when_requested: false,
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    );
    app.add_plugins((bevy_ecs_tilemap::TilemapPlugin, BattlePlugin));
    app.configure_sets(
        Update,
        (
            super::frame::ViewSystems::Input,
            super::frame::ViewSystems::Act,
            super::frame::ViewSystems::Animate,
            super::frame::ViewSystems::Draw,
        )
            .chain(),
    );
    app.add_plugins((
        super::map::plugin,
        super::units::plugin,
        super::playback::plugin,
        super::motion::plugin,
        super::terrain_cache::plugin,
        super::capture::pipelines_plugin,
        plugin,
    ));
    let world = app.world_mut();
    spawn_level(world, &editor.valid);
    let mut state = EditorState::new(editor);
    state.screenshot = screenshot;
    world.insert_resource(state);
    app.run();
    ExitCode::SUCCESS
}

/// The editor's systems: input to edits, the level drawn again after each.
pub fn plugin(app: &mut App) {
    app.init_resource::<CursorTile>()
        .init_resource::<Highlights>()
        .init_resource::<super::overlays::OverlayMarks>()
        .add_systems(Startup, (super::camera::spawn_camera, spawn_panels))
        .add_systems(PostStartup, super::camera::fit_camera)
        .add_systems(
            Update,
            (
                (
                    super::input::track_cursor,
                    super::camera::move_camera.run_if(not_typing),
                    type_text,
                    press_palette,
                    edit_by_keys.run_if(not_typing),
                    edit_on_map,
                )
                    .chain()
                    .in_set(super::frame::ViewSystems::Input),
                redraw_level.in_set(super::frame::ViewSystems::Act),
                (mark_tiles, show_panels).in_set(super::frame::ViewSystems::Draw),
            ),
        )
        .add_systems(Last, (take_screenshot, guard_unsaved_edits));
}

/// Closing the window with edits not saved is refused once, with a word in
/// the status line; closing again (with no edit since) leaves without
/// saving.
fn guard_unsaved_edits(
    mut requests: MessageReader<bevy::window::WindowCloseRequested>,
    mut state: ResMut<EditorState>,
    mut exit: MessageWriter<AppExit>,
) {
    if requests.read().count() == 0 {
        return;
    }
    if !state.editor.dirty() || state.close_warned == Some(state.version) {
        exit.write(AppExit::Success);
        return;
    }
    state.close_warned = Some(state.version);
    state.status =
        "Edits not saved: Ctrl+S saves them; close again to leave without saving.".into();
}

fn not_typing(state: Res<EditorState>) -> bool {
    state.typing.is_none()
}

/// After each change, the battle is spawned again from the level and drawn.
fn redraw_level(world: &mut World, mut drawn: Local<u64>) {
    let state = world.resource::<EditorState>();
    if state.version == *drawn {
        return;
    }
    *drawn = state.version;
    let level = state.editor.valid.clone();
    clear_battle(world);
    spawn_level(world, &level);
    super::live::redraw_battle(world);
}

/// The level's units and objects as placed, none of them off guard (no
/// battle has begun: the icon would only clutter the picture).
fn spawn_level(world: &mut World, level: &crate::load::ValidLevel) {
    spawn_battle(world, level, Dice::seeded(0));
    let units: Vec<Entity> = world
        .query_filtered::<Entity, With<crate::battle::OffGuard>>()
        .iter(world)
        .collect();
    for unit in units {
        world.entity_mut(unit).remove::<crate::battle::OffGuard>();
    }
}

/// `--screenshot`: the editor as it opens, saved once drawn.
fn take_screenshot(world: &mut World) {
    if let Some(path) = world.resource::<EditorState>().screenshot.clone() {
        super::capture::shoot_when_ready(world, path, true);
    }
}
