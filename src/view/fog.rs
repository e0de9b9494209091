//! Fog of war (V8.1, #24): the window shows one side's knowledge. Tiles
//! none of its units sees are greyed; enemies hidden from it are not
//! drawn, and those it lost from view leave a ghost where it last saw
//! them. Which side that is follows the seats ([`viewer_now`]): a spectator
//! (`--watch`, a replay, the tour) sees the referee's whole battle.
//!
//! The view holds no rule: sight is the rules' `side_sees_tile`, the lost
//! and their last-known tiles are the shown board's (folded from the
//! events the side was told).

use super::coords::{Grid, TILE};
use super::map::MapQuad;
use super::playback::{Shown, UnitSprite};
use super::seat::{Viewer, viewer_now};
use super::theme;
use super::units::unit_translation;
use crate::battle::{Battlefield, UnitId};
use crate::grid::Pos;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Viewer>().add_systems(
        Update,
        (follow_viewer, (hide_lost_units, draw_ghosts, paint_fog))
            .chain()
            .in_set(super::frame::ViewSystems::Draw),
    );
}

/// A ghost: where the side at the window last saw an enemy (V8.4).
#[derive(Component)]
struct Ghost;

/// Shows the view of the side whose seat it is now; on a change (a
/// hot-seat turn passing to the other human) the playback starts over
/// from that side's events.
fn follow_viewer(world: &mut World) {
    let was = world.resource::<Viewer>().0;
    let now = viewer_now(world, was);
    if now != was {
        world.insert_resource(Viewer(now));
        if world.contains_resource::<super::playback::Playback>() {
            super::playback::restart(world);
        }
    }
}

/// Hides the picture of every unit the shown side does not see.
fn hide_lost_units(shown: Option<Res<Shown>>, mut sprites: Query<(&UnitSprite, &mut Visibility)>) {
    let Some(shown) = shown.filter(|s| s.is_changed()) else {
        return;
    };
    for (sprite, mut visibility) in &mut sprites {
        let next = if shown.board.sees(sprite.0) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        visibility.set_if_neq(next);
    }
}

/// A ghost at each tile where the shown side last saw a unit it lost: a
/// faint ring and "Name?".
fn draw_ghosts(
    mut commands: Commands,
    shown: Option<Res<Shown>>,
    grid: Option<Res<Grid>>,
    names: Option<Res<super::playback::Playback>>,
    ghosts: Query<Entity, With<Ghost>>,
) {
    let (Some(shown), Some(grid), Some(names)) = (shown, grid, names) else {
        return;
    };
    if !shown.is_changed() {
        return;
    }
    for g in &ghosts {
        commands.entity(g).despawn();
    }
    for (id, at) in &shown.board.lost {
        let Some(at) = at else { continue };
        let n = shown.board.unit(*id).map_or(1, |u| u.n);
        spawn_ghost(&mut commands, &grid, *id, *at, n, &names.names);
    }
}

fn spawn_ghost(
    commands: &mut Commands,
    grid: &Grid,
    id: UnitId,
    at: Pos,
    n: i32,
    names: &crate::rules::log::Names,
) {
    let mut t = unit_translation(grid, at, n);
    t.z += 0.5;
    let size = TILE * n as f32 * 0.8;
    commands
        .spawn((Ghost, Transform::from_translation(t), Visibility::default()))
        .with_children(|g| {
            g.spawn((
                Sprite::from_color(Color::srgba(0.8, 0.85, 1.0, 0.18), Vec2::splat(size)),
                Transform::default(),
            ));
            let (font, color) = theme::text(11.0, Color::srgba(0.85, 0.9, 1.0, 0.85));
            g.spawn((
                Text2d::new(format!("{}?", names.unit(id))),
                font,
                color,
                Transform::from_xyz(0.0, 0.0, 0.1),
            ));
        });
}

/// The fog on the relief's blue channel: set on every tile the shown side
/// sees none of (V8.1), clear for a spectator or with stealth off.
fn paint_fog(world: &mut World, mut last: Local<Option<(u64, Option<usize>)>>) {
    let (Some(version), Some(viewer)) = (
        world.get_resource::<Shown>().map(|s| s.version),
        world.get_resource::<Viewer>().map(|v| v.0),
    ) else {
        return;
    };
    if *last == Some((version, viewer)) {
        return;
    }
    *last = Some((version, viewer));
    let Some(grid) = world.get_resource::<Grid>().copied() else {
        return;
    };
    let stealth = world
        .get_resource::<Battlefield>()
        .is_some_and(|b| b.0.rules().stealth);
    let side = viewer.filter(|_| stealth);
    // Sight from where the shown board has the side's units, not from
    // where the rules already have them: the fog lifts as a unit is seen
    // to arrive, never a step ahead of the animation.
    let eyes: Vec<(crate::grid::Body, crate::grid::Dir)> = world
        .get_resource::<Shown>()
        .map(|shown| {
            let board = &shown.board;
            (0..board.units.len())
                .filter(|i| world_side_of(world, *i) == side)
                .filter_map(|i| board.units.get(i))
                .filter(|u| !u.dead && u.dying.is_none() && !u.stable)
                .map(|u| (crate::grid::Body { at: u.at, n: u.n }, u.facing))
                .collect()
        })
        .unwrap_or_default();
    let map = world.resource::<Battlefield>().0.map.clone();
    let fogged: Vec<bool> = (0..grid.height)
        .flat_map(|y| (0..grid.width).map(move |x| Pos::new(x, y)))
        .map(|p| {
            side.is_some()
                && !eyes.iter().any(|(body, facing)| {
                    crate::rules::variants::stealth::sight::body_sees(&map, *body, *facing, p)
                })
        })
        .collect();
    let Some(handle) = world
        .query::<&MapQuad>()
        .iter(world)
        .next()
        .map(|q| q.relief.clone())
    else {
        return;
    };
    let mut images = world.resource_mut::<Assets<Image>>();
    let Some(mut image) = images.get_mut(&handle) else {
        return;
    };
    let Some(data) = image.data.as_mut() else {
        return;
    };
    for (i, fog) in fogged.into_iter().enumerate() {
        if let Some(b) = data.get_mut(4 * i + 2) {
            *b = if fog { 255 } else { 0 };
        }
    }
}

/// The side of the unit with roster index `i`, if it has one.
fn world_side_of(world: &World, i: usize) -> Option<usize> {
    let unit = *world.resource::<crate::battle::Roster>().units().get(i)?;
    world.get::<crate::battle::Side>(unit).map(|s| s.0)
}
