//! The battlefield: the terrain as one tilemap, and above it one overlay
//! tilemap whose tiles the view tints (reach by AP cost, the path, the tiles
//! that provoke) instead of spawning a sprite per marked tile.

use super::coords::{Grid, TILE};
use super::tiles::{TileKind, tile_of, tileset_image};
use crate::battle::Battlefield;
use crate::grid::Pos;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Highlights>()
        .add_systems(Startup, spawn_battlefield)
        .add_systems(
            Update,
            paint_overlay
                .run_if(resource_changed::<Highlights>)
                .in_set(super::ViewSystems::Draw),
        );
}

/// The overlay's tint for each marked tile; the view's input and turn
/// systems fill it, [`paint_overlay`] shows it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Highlights(pub HashMap<Pos, Color>);

/// Marks the overlay tilemap.
#[derive(Component)]
pub struct Overlay;

/// The terrain and overlay layers' z.
const TERRAIN_Z: f32 = 0.0;
const OVERLAY_Z: f32 = 1.0;

pub(super) fn spawn_battlefield(
    mut commands: Commands,
    field: Res<Battlefield>,
    mut images: ResMut<Assets<Image>>,
) {
    let map = &field.0.map;
    let grid = Grid {
        width: map.width(),
        height: map.height(),
    };
    commands.insert_resource(grid);
    let texture = TilemapTexture::Single(images.add(tileset_image()));
    let size = TilemapSize {
        x: grid.width as u32,
        y: grid.height as u32,
    };
    for (z, overlay) in [(TERRAIN_Z, false), (OVERLAY_Z, true)] {
        let tilemap = commands.spawn_empty().id();
        let mut storage = TileStorage::empty(size);
        for y in 0..grid.height {
            for x in 0..grid.width {
                let p = Pos::new(x, y);
                let kind = if overlay {
                    TileKind::White
                } else {
                    map.get(p).map_or(TileKind::Floor, tile_of)
                };
                let position = grid.tile_pos(p);
                let tile = commands
                    .spawn(TileBundle {
                        position,
                        tilemap_id: TilemapId(tilemap),
                        texture_index: TileTextureIndex(kind as u32),
                        visible: TileVisible(!overlay),
                        ..default()
                    })
                    .id();
                storage.set(&position, tile);
            }
        }
        let tile_size = TilemapTileSize { x: TILE, y: TILE };
        let mut entity = commands.entity(tilemap);
        entity.insert(TilemapBundle {
            grid_size: tile_size.into(),
            map_type: TilemapType::Square,
            size,
            storage,
            texture: texture.clone(),
            tile_size,
            anchor: TilemapAnchor::Center,
            transform: Transform::from_xyz(0.0, 0.0, z),
            ..default()
        });
        if overlay {
            entity.insert(Overlay);
        }
    }
}

/// Shows [`Highlights`] on the overlay: marked tiles visible and tinted,
/// the rest hidden. Runs only when the highlights change.
fn paint_overlay(
    highlights: Res<Highlights>,
    grid: Option<Res<Grid>>,
    overlay: Query<&TileStorage, With<Overlay>>,
    mut tiles: Query<(&mut TileVisible, &mut TileColor)>,
) {
    let (Some(grid), Ok(storage)) = (grid, overlay.single()) else {
        return;
    };
    for y in 0..grid.height {
        for x in 0..grid.width {
            let p = Pos::new(x, y);
            let Some(tile) = storage.get(&grid.tile_pos(p)) else {
                continue;
            };
            let Ok((mut visible, mut color)) = tiles.get_mut(tile) else {
                continue;
            };
            match highlights.0.get(&p) {
                Some(c) => {
                    visible.0 = true;
                    color.0 = *c;
                }
                None if visible.0 => visible.0 = false,
                None => {}
            }
        }
    }
}
