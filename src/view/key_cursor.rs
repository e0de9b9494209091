//! Keyboard-only play: the arrows move a tile cursor over the map (it
//! starts on the unit whose turn it is), `Enter` does there what a left
//! click does (move, attack, the target of an aimed action: R5, R7, R9)
//! and `Shift+Enter` what a right click does (face the tile, R4.2). Moving
//! the mouse hands the cursor back to it.
//!
//! It writes the same [`CursorTile`] and the same clicks the mouse does,
//! so every command the mouse can give, the keyboard gives the same way.

use super::controls::CursorTile;
use super::coords::Grid;
use crate::battle::GridPos;
use crate::grid::Pos;
use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;

/// The keyboard's tile, while the keyboard steers (none: the mouse does).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyCursor(pub Option<Pos>);

/// The arrows and the tile they move by.
const ARROWS: [(KeyCode, (i32, i32)); 4] = [
    (KeyCode::ArrowLeft, (-1, 0)),
    (KeyCode::ArrowRight, (1, 0)),
    (KeyCode::ArrowUp, (0, -1)),
    (KeyCode::ArrowDown, (0, 1)),
];

/// Moves the keyboard's tile with the arrows (within the map), holds the
/// cursor on it, and turns `Enter` into a click there.
pub fn steer_key_cursor(world: &mut World) {
    let moved_mouse = world
        .get_resource::<AccumulatedMouseMotion>()
        .is_some_and(|m| m.delta != Vec2::ZERO);
    // The tour's demo plays with the arrows (next, back).
    if moved_mouse || world.contains_resource::<super::seat::Guided>() {
        world.resource_mut::<KeyCursor>().0 = None;
        return;
    }
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let step = ARROWS
        .iter()
        .filter(|(k, _)| keys.just_pressed(*k))
        .fold((0, 0), |(x, y), (_, (dx, dy))| (x + dx, y + dy));
    let enter = keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter);
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    let mut tile = world.resource::<KeyCursor>().0;
    if step != (0, 0) {
        let from = tile.or_else(|| start_tile(world)).unwrap_or(Pos::new(0, 0));
        let mut to = Pos::new(from.x + step.0, from.y + step.1);
        if let Some(grid) = world.get_resource::<Grid>() {
            to = Pos::new(
                to.x.clamp(0, grid.width - 1),
                to.y.clamp(0, grid.height - 1),
            );
        }
        // The first press shows the cursor where the acting unit stands.
        tile = Some(if tile.is_none() { from } else { to });
        world.resource_mut::<KeyCursor>().0 = tile;
    }
    let Some(tile) = tile else { return };
    world.resource_mut::<CursorTile>().0 = Some(tile);
    if enter {
        let button = if shift {
            MouseButton::Right
        } else {
            MouseButton::Left
        };
        let mut mouse = world.resource_mut::<ButtonInput<MouseButton>>();
        mouse.press(button);
        mouse.release(button);
    }
}

/// Where the cursor appears: on the unit whose turn a human plays, else
/// on the selected unit.
fn start_tile(world: &World) -> Option<Pos> {
    let unit = super::seat::human_to_act(world)
        .or_else(|| world.get_resource::<super::controls::Selected>()?.0)?;
    world.get::<GridPos>(unit).map(|p| p.0)
}

/// The frame round the keyboard's tile (the mouse has its own pointer).
#[derive(Component)]
struct CursorFrame;

/// Over the units and their labels, under the floating words.
const FRAME_Z: f32 = 14.0;

/// Draws the keyboard's tile as a bright frame (window only).
pub(super) fn frame_plugin(app: &mut App) {
    app.add_systems(Startup, spawn_cursor_frame).add_systems(
        Update,
        show_cursor_frame.in_set(super::frame::ViewSystems::Draw),
    );
}

fn spawn_cursor_frame(mut commands: Commands) {
    use super::coords::TILE;
    let color = Color::srgb(1.0, 0.95, 0.4);
    let (long, thick) = (TILE, 3.0);
    commands
        .spawn((
            CursorFrame,
            Transform::from_xyz(0.0, 0.0, FRAME_Z),
            Visibility::Hidden,
        ))
        .with_children(|f| {
            for (size, at) in [
                (Vec2::new(long, thick), Vec2::new(0.0, (TILE - thick) / 2.0)),
                (
                    Vec2::new(long, thick),
                    Vec2::new(0.0, -(TILE - thick) / 2.0),
                ),
                (Vec2::new(thick, long), Vec2::new((TILE - thick) / 2.0, 0.0)),
                (
                    Vec2::new(thick, long),
                    Vec2::new(-(TILE - thick) / 2.0, 0.0),
                ),
            ] {
                f.spawn((
                    Sprite::from_color(color, size),
                    Transform::from_translation(at.extend(0.0)),
                ));
            }
        });
}

fn show_cursor_frame(
    cursor: Res<KeyCursor>,
    grid: Option<Res<Grid>>,
    mut frame: Query<(&mut Transform, &mut Visibility), With<CursorFrame>>,
) {
    let (Ok((mut t, mut v)), Some(grid)) = (frame.single_mut(), grid) else {
        return;
    };
    let want = match cursor.0 {
        Some(tile) => {
            let at = grid.world(tile).extend(FRAME_Z);
            if t.translation != at {
                t.translation = at;
            }
            Visibility::Inherited
        }
        None => Visibility::Hidden,
    };
    if *v != want {
        *v = want;
    }
}
