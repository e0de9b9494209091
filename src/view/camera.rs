//! The cameras: the battle camera draws the map left of the side column
//! and under the turn bar, fits the level at start (under the tour's
//! caption when there is one), pans with the arrow keys, WASD or a
//! middle-button drag, and zooms with the wheel; the UI camera draws the
//! panels over it.

use super::coords::Grid;
use super::frame::ViewSystems;
use super::theme::CAPTION_ROOM;
use super::theme::PANEL;
use super::theme::SIDE_WIDTH;
use super::theme::TOP;
use super::theme::TURN_BAR;
use crate::rules::Decisions;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera)
        .add_systems(PreUpdate, fit_viewport)
        .add_systems(PostStartup, fit_camera)
        .add_systems(Update, refit_camera.in_set(ViewSystems::Draw))
        .add_systems(Update, move_camera.in_set(ViewSystems::Input));
}

/// The most the fitted camera magnifies a small level: more, and the
/// pixel-art tiles and the units' letters blur.
const MAX_FIT_ZOOM: f32 = 1.5;

/// The cameras. The battle camera draws the map into its viewport, the
/// window left of the side column and under the turn bar, and clears the
/// window to the panels' colour; the UI camera then draws the panels over
/// it and shows the window. So the turn bar and the side column need no
/// background of their own: under software rendering filling them cost a
/// tenth of an idle frame (measured with llvmpipe). No multisampling: the
/// battlefield is pixel art on a grid, and with software rendering 4x MSAA
/// quadruples the cost of every pixel drawn.
pub fn spawn_camera(mut commands: Commands) {
    use bevy::camera::CameraOutputMode;
    use bevy::camera::visibility::RenderLayers;
    commands.spawn((
        BattleCamera,
        Camera2d,
        Camera {
            clear_color: ClearColorConfig::Custom(PANEL),
            // The UI camera, after it, shows the picture both drew.
            output_mode: CameraOutputMode::Skip,
            viewport: Some(map_viewport(
                Vec2::new(super::frame::WINDOW.0 as f32, super::frame::WINDOW.1 as f32),
                1.0,
                1.0,
            )),
            ..default()
        },
        bevy::render::view::Msaa::Off,
    ));
    commands.spawn((
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        // The world is the battle camera's to draw.
        RenderLayers::none(),
        bevy::render::view::Msaa::Off,
        IsDefaultUiCamera,
    ));
}

/// The battle camera's viewport in a window of `size` logical pixels at
/// `scale` physical pixels each, the panels drawn at `ui` (the UI scale):
/// left of the side column, under the turn bar.
fn map_viewport(size: Vec2, scale: f32, ui: f32) -> bevy::camera::Viewport {
    let at = Vec2::new(0.0, TURN_BAR * ui) * scale;
    let end = Vec2::new(size.x - SIDE_WIDTH * ui, size.y) * scale;
    bevy::camera::Viewport {
        physical_position: at.as_uvec2(),
        physical_size: (end - at).max(Vec2::ONE).as_uvec2(),
        ..default()
    }
}

/// Keeps the battle camera's viewport fitted to the window as it is
/// resized or moved to a screen of another scale.
pub fn fit_viewport(
    window: Query<Ref<Window>, With<bevy::window::PrimaryWindow>>,
    ui: Res<UiScale>,
    mut camera: Query<&mut Camera, With<BattleCamera>>,
) {
    let (Ok(window), Ok(mut camera)) = (window.single(), camera.single_mut()) else {
        return;
    };
    if !window.is_changed() && !ui.is_changed() {
        return;
    }
    let viewport = map_viewport(window.size(), window.scale_factor(), ui.0);
    let same = camera.viewport.as_ref().is_some_and(|v| {
        (v.physical_position, v.physical_size)
            == (viewport.physical_position, viewport.physical_size)
    });
    if !same {
        camera.viewport = Some(viewport);
    }
}

/// The camera showing the battle in the window (panned and zoomed by the
/// player), as against the terrain's (see [`super::terrain_cache`]).
#[derive(Component)]
pub struct BattleCamera;

/// The camera that fits the whole level between the panels (and, in the
/// tour, under the caption): its scale and position.
pub fn fitted_camera(grid: &Grid, caption: bool) -> (f32, Vec2) {
    let window = Vec2::new(super::frame::WINDOW.0 as f32, super::frame::WINDOW.1 as f32);
    fitted_camera_in(grid, caption, window, 1.0)
}

/// [`fitted_camera`] in a window of `window` logical pixels with the
/// panels at UI scale `ui`.
pub fn fitted_camera_in(grid: &Grid, caption: bool, window: Vec2, ui: f32) -> (f32, Vec2) {
    let margin = 12.0;
    let top = (TOP + if caption { CAPTION_ROOM } else { 0.0 }) * ui;
    let free = Vec2::new(
        window.x - SIDE_WIDTH * ui - 2.0 * margin,
        window.y - top - 2.0 * margin,
    )
    .max(Vec2::ONE);
    // (A larger UI on a larger screen: the map may grow as much.)
    let scale = (grid.extent() / free)
        .max_element()
        .max(1.0 / (MAX_FIT_ZOOM * ui));
    // Centre the map in the free area: the camera's viewport (left of the
    // side column, under the turn bar) less the action bar and caption.
    (scale, Vec2::new(0.0, (top - TURN_BAR * ui) / 2.0) * scale)
}

/// Fits the map again when the window is resized or the UI scale changes
/// (the settings screen): the view the player panned is given up then.
fn refit_camera(
    grid: Option<Res<Grid>>,
    tour: Option<Res<super::tour::Tour>>,
    ui: Res<UiScale>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut last: Local<Option<(Vec2, f32)>>,
    mut camera: Query<&mut Transform, With<BattleCamera>>,
) {
    let (Some(grid), Ok(window), Ok(mut t)) = (grid, window.single(), camera.single_mut()) else {
        return;
    };
    let now = (window.size(), ui.0);
    // `fit_camera` fitted the standard window at scale 1 at start.
    let standard = Vec2::new(super::frame::WINDOW.0 as f32, super::frame::WINDOW.1 as f32);
    if last.unwrap_or((standard, 1.0)) == now {
        return;
    }
    *last = Some(now);
    let (scale, at) = fitted_camera_in(&grid, tour.is_some(), now.0, now.1);
    t.scale = Vec3::new(scale, scale, 1.0);
    t.translation.x = at.x;
    t.translation.y = at.y;
}

/// Where tile `p` is in the window, in pixels from its top left corner,
/// with the fitted camera (`caption`: the tour's): its top left corner and
/// its side.
pub fn tile_on_screen(grid: &Grid, p: crate::grid::Pos, caption: bool) -> (Vec2, f32) {
    let (scale, at) = fitted_camera(grid, caption);
    let centre = (grid.world(p) - at) / scale;
    let window = Vec2::new(super::frame::WINDOW.0 as f32, super::frame::WINDOW.1 as f32);
    // The middle of the battle camera's viewport.
    let middle = Vec2::new((window.x - SIDE_WIDTH) / 2.0, (TURN_BAR + window.y) / 2.0);
    let side = super::coords::TILE / scale;
    let screen = Vec2::new(middle.x + centre.x, middle.y - centre.y);
    (screen - Vec2::splat(side / 2.0), side)
}

pub fn fit_camera(
    grid: Option<Res<Grid>>,
    tour: Option<Res<super::tour::Tour>>,
    mut camera: Query<&mut Transform, With<BattleCamera>>,
) {
    let (Some(grid), Ok(mut t)) = (grid, camera.single_mut()) else {
        return;
    };
    let (scale, at) = fitted_camera(&grid, tour.is_some());
    t.scale = Vec3::new(scale, scale, 1.0);
    t.translation.x = at.x;
    t.translation.y = at.y;
}

pub fn move_camera(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    decisions: Option<Res<Decisions>>,
    armed: Option<Res<super::spell_armed::ArmedSpell>>,
    mut camera: Query<&mut Transform, With<BattleCamera>>,
) {
    let Ok(mut t) = camera.single_mut() else {
        return;
    };
    // While a question is open, D answers it (a dodge, V2): the letters
    // do not pan then. The arrows move the tile cursor (key_cursor.rs).
    let asked = decisions.is_some_and(|d| d.asked().is_some());
    let mut dir = Vec2::ZERO;
    for (k, d) in [
        (KeyCode::KeyA, Vec2::NEG_X),
        (KeyCode::KeyD, Vec2::X),
        (KeyCode::KeyW, Vec2::Y),
        (KeyCode::KeyS, Vec2::NEG_Y),
    ] {
        if keys.pressed(k) && !asked {
            dir += d;
        }
    }
    // `,` and `.` zoom out and in, as the wheel does.
    let zoom = keys.just_pressed(KeyCode::Period) as i32 - keys.just_pressed(KeyCode::Comma) as i32;
    let scale = t.scale.x;
    t.translation += (dir * 600.0 * scale * time.delta_secs()).extend(0.0);
    if mouse.pressed(MouseButton::Middle) {
        let d = motion.delta * scale;
        t.translation += Vec3::new(-d.x, d.y, 0.0);
    }
    // (`f32::signum` of 0 is 1: the wheel's sign only when it turned.)
    // With a spell armed the wheel picks its level (the spell bar).
    let spelling = armed.is_some_and(|a| a.0.is_some());
    let wheel = if scroll.delta.y == 0.0 || spelling {
        zoom
    } else {
        scroll.delta.y.signum() as i32
    };
    if wheel != 0 {
        let s = (scale * (1.0 - 0.1 * wheel.signum() as f32)).clamp(0.1, 8.0);
        t.scale = Vec3::new(s, s, 1.0);
    }
}
