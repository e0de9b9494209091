//! The battlefield: the terrain as one tilemap (drawn once into an image,
//! see [`super::terrain_cache`]), and the overlay as one image with a texel
//! per tile that the view tints (reach by AP cost, the path, the tiles that
//! provoke); one quad shows both (see [`super::map_material`]).
//!
//! The overlay is an image, not a tile per marked tile: with every overlay
//! on, the range bands mark the whole map, and under software rendering
//! 4096 tinted tiles cost a third of the frame (measured with llvmpipe on a
//! 64×64 level); a 64×64 image costs a 16 KB upload when the highlights
//! change.

use super::coords::{Grid, TILE};
use super::map_material::MapMaterial;
use super::terrain_cache::{TERRAIN_LAYER, TerrainMap, spawn_terrain_camera};
use crate::art::tiles::{OBJECTS, OBJECTS_PNG, built_in_png, tile_at, tileset_image, tree_at};
use crate::battle::Battlefield;
use crate::grid::Pos;
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    super::map_material::plugin(app);
    app.init_resource::<Highlights>()
        .add_systems(Startup, spawn_battlefield)
        .add_systems(
            Update,
            paint_overlay
                .run_if(resource_changed::<Highlights>)
                .in_set(super::frame::ViewSystems::Draw),
        );
}

/// The overlay's tint for each marked tile; the view's input and turn
/// systems fill it, [`paint_overlay`] shows it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Highlights(pub HashMap<Pos, Color>);

/// The quad showing the battlefield, with the overlay's image (one texel
/// per tile).
#[derive(Component)]
pub struct MapQuad {
    /// The overlay's image, painted by [`paint_overlay`].
    pub overlay: Handle<Image>,
    /// The relief's image: heights (red), light (green), fog (blue).
    pub relief: Handle<Image>,
}

/// The battlefield's z: under the units and the overlays' marks.
const MAP_Z: f32 = 0.0;

pub(super) fn spawn_battlefield(
    mut commands: Commands,
    field: Res<Battlefield>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<MapMaterial>>,
    mut shrinkers: ResMut<Assets<super::map_material::ShrinkMaterial>>,
    mut layouts: ResMut<Assets<TextureAtlasLayout>>,
) {
    let map = &field.0.map;
    let grid = Grid {
        width: map.width(),
        height: map.height(),
    };
    commands.insert_resource(grid);
    let tileset = images.add(tileset_image());
    let size = TilemapSize {
        x: grid.width as u32,
        y: grid.height as u32,
    };
    let tilemap = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for y in 0..grid.height {
        for x in 0..grid.width {
            let p = Pos::new(x, y);
            let position = grid.tile_pos(p);
            let tile = commands
                .spawn(TileBundle {
                    position,
                    tilemap_id: TilemapId(tilemap),
                    texture_index: TileTextureIndex(tile_at(map, p)),
                    ..default()
                })
                .id();
            storage.set(&position, tile);
        }
    }
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    commands.entity(tilemap).insert((
        TilemapBundle {
            grid_size: tile_size.into(),
            map_type: TilemapType::Square,
            size,
            storage,
            texture: TilemapTexture::Single(tileset.clone()),
            tile_size,
            anchor: TilemapAnchor::Center,
            transform: Transform::from_xyz(0.0, 0.0, MAP_Z),
            ..default()
        },
        TerrainMap,
        RenderLayers::layer(TERRAIN_LAYER),
    ));
    spawn_trees(&mut commands, &mut images, &mut layouts, map, grid);
    let terrain = spawn_terrain_camera(
        &mut commands,
        &mut images,
        &mut meshes,
        &mut shrinkers,
        grid,
    );
    let overlay = images.add(Image::new_fill(
        Extent3d {
            width: grid.width as u32,
            height: grid.height as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &[0; 4],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    ));
    let relief = images.add(relief_image(&field.0, grid));
    commands.spawn((
        MapQuad {
            overlay: overlay.clone(),
            relief: relief.clone(),
        },
        Mesh2d(meshes.add(Rectangle::from_size(grid.extent()))),
        MeshMaterial2d(materials.add(MapMaterial {
            terrain: terrain.near,
            overlay,
            far: terrain.far,
            relief,
        })),
        Transform::from_xyz(0.0, 0.0, MAP_Z),
    ));
}

/// A relief texel's red channel per metre of height (`map_material.wgsl`
/// reads it back): 9 m, the most a heights row holds, is 252.
pub const PER_METRE: u8 = 28;

/// A relief texel's green channel per step of darkness (V8.3: 1 dim, 2
/// dark; `map_material.wgsl` reads it back).
pub const PER_SHADE: u8 = 100;

/// The ground's heights as an image, one texel per tile (V9.1): all 0 when
/// the level plays flat (no heights, or jumping off), so the shader leaves
/// the ground as it is. Green holds the tile's light when stealth is on
/// (V8.3); blue the fog, painted by the view ([`super::fog`]).
fn relief_image(level: &crate::load::ValidLevel, grid: Grid) -> Image {
    let map = &level.map;
    let shown = level.rules().jumping && map.has_heights();
    let mut data = Vec::with_capacity((4 * grid.width * grid.height).max(0) as usize);
    for y in 0..grid.height {
        for x in 0..grid.width {
            let h = if shown {
                map.elevation(Pos::new(x, y))
            } else {
                0
            };
            let dark = if level.rules().stealth {
                crate::rules::variants::stealth::sneak::light_at(level, Pos::new(x, y))
            } else {
                0
            };
            data.extend([
                (h.clamp(0, 9) as u8) * PER_METRE,
                (dark.clamp(0, 2) as u8) * PER_SHADE,
                0,
                255,
            ]);
        }
    }
    Image::new(
        Extent3d {
            width: grid.width as u32,
            height: grid.height as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8Unorm,
        RenderAssetUsages::default(),
    )
}

/// A tree standing on the map: drawn over the overlays, which tint the
/// ground under it and never hide it.
#[derive(Component)]
pub struct Tree;

/// The trees' z: over the map quad (and so over the overlays' tints),
/// under the units.
const TREE_Z: f32 = 1.0;

/// A sprite per tree, over the map quad: the overlays are the map
/// quad's tint, so a tree stays whole whatever overlay is on. Sprites, not
/// another full-map layer: they cost only the pixels of the trees (a
/// second blended quad over the map costs a pass over every pixel under
/// software rendering).
fn spawn_trees(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    layouts: &mut Assets<TextureAtlasLayout>,
    map: &crate::terrain::TerrainMap,
    grid: Grid,
) {
    let image = images.add(built_in_png(OBJECTS_PNG));
    let layout = layouts.add(TextureAtlasLayout::from_grid(
        UVec2::splat(TILE as u32),
        OBJECTS,
        1,
        None,
        None,
    ));
    for p in map.positions() {
        let Some(index) = tree_at(map, p) else {
            continue;
        };
        commands.spawn((
            Tree,
            Sprite {
                image: image.clone(),
                texture_atlas: Some(TextureAtlas {
                    layout: layout.clone(),
                    index: index as usize,
                }),
                custom_size: Some(Vec2::splat(TILE)),
                ..default()
            },
            Transform::from_translation(grid.world(p).extend(TREE_Z)),
        ));
    }
}

/// Shows [`Highlights`] on the overlay: each marked tile's texel takes its
/// tint, the rest are clear. Runs only when the highlights change.
fn paint_overlay(
    highlights: Res<Highlights>,
    grid: Option<Res<Grid>>,
    quad: Query<&MapQuad>,
    mut images: ResMut<Assets<Image>>,
) {
    let (Some(grid), Ok(quad)) = (grid, quad.single()) else {
        return;
    };
    let Some(mut image) = images.get_mut(&quad.overlay) else {
        return;
    };
    let Some(data) = image.data.as_mut() else {
        return;
    };
    data.fill(0);
    for (p, color) in &highlights.0 {
        // Row 0 of the image is its top, as row 0 of the map is north.
        let (x, y) = (p.x, p.y);
        if x < 0 || y < 0 || x >= grid.width || y >= grid.height {
            continue;
        }
        let at = 4 * (y * grid.width + x) as usize;
        data[at..at + 4].copy_from_slice(&color.to_srgba().to_u8_array());
    }
}
