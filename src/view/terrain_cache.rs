//! The terrain tilemap drawn once into an image, and that image shown on
//! the map as one sprite.
//!
//! The terrain never changes during a battle (a reloaded level is drawn
//! anew), yet drawing its tilemap costs as much as the rest of the frame
//! together under software rendering: a 64×64 level is 8192 small
//! triangles set up and rasterized every frame (measured with llvmpipe: 10
//! of 35 ms an idle frame). So the tilemap lives on its own render layer,
//! seen only by a camera that renders into an image; that camera is
//! switched on when the terrain's tiles change and off again once the
//! render world has drawn them, and the battle camera shows the image
//! (see [`super::map_material`]).
//!
//! The render world says when the terrain is drawn: a frame whose terrain
//! view has its target, at least one tilemap item and every item's
//! pipeline compiled draws the whole terrain. It writes the generation it
//! drew into a shared counter; the main world retires the camera once the
//! counter has reached the camera's generation.

use super::coords::Grid;
use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::core_pipeline::core_2d::Transparent2d;
use bevy::prelude::*;
use bevy::render::extract_component::{ExtractComponent, ExtractComponentPlugin};
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_phase::ViewSortedRenderPhases;
use bevy::render::render_resource::{PipelineCache, TextureFormat};
use bevy::render::texture::GpuImage;
use bevy::render::view::{ExtractedView, ViewTarget};
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy_ecs_tilemap::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub(super) fn plugin(app: &mut App) {
    let drawn = TerrainDrawn::default();
    app.insert_resource(drawn.clone())
        .init_resource::<TerrainGeneration>()
        .add_plugins(ExtractComponentPlugin::<TerrainCamera>::default())
        .add_systems(
            PostUpdate,
            (redraw_changed_terrain, retire_terrain_camera)
                .chain()
                .in_set(super::ViewSystems::Draw),
        );
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app.insert_resource(drawn).add_systems(
            Render,
            confirm_terrain_drawn
                .after(RenderSystems::PhaseSort)
                .before(RenderSystems::Render),
        );
    }
}

/// The render layer of the terrain tilemap: only the terrain camera sees it.
pub const TERRAIN_LAYER: usize = 1;

/// The largest side of the terrain image, in texels; a bigger level is
/// drawn at a coarser scale (a 128×128 level at half its tiles' pixels).
const MAX_IMAGE: f32 = 4096.0;

/// The camera drawing the terrain tilemap into the terrain image, and the
/// generation of the terrain it is to draw.
#[derive(Component, Clone, ExtractComponent)]
pub struct TerrainCamera {
    /// Which drawing of the terrain this camera owes; drawn once
    /// [`TerrainDrawn`] reaches it.
    pub generation: u64,
    /// The tileset the terrain tilemap draws from.
    pub tileset: Handle<Image>,
}

/// Marks the terrain tilemap (as against the overlay's).
#[derive(Component)]
pub struct TerrainMap;

/// The newest generation of the terrain the render world has drawn, shared
/// by both worlds.
#[derive(Resource, Clone, Default)]
pub struct TerrainDrawn(Arc<AtomicU64>);

impl TerrainDrawn {
    /// The newest generation drawn.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
}

/// The last generation handed out.
#[derive(Resource, Default)]
struct TerrainGeneration(u64);

/// Whether the terrain image shows the terrain as it is now (for
/// `--screenshot`: a picture taken before would miss the map). True when
/// there is no terrain camera (a window without a battle).
pub fn terrain_drawn(world: &mut World) -> bool {
    let Some(drawn) = world.get_resource::<TerrainDrawn>().map(TerrainDrawn::get) else {
        return true;
    };
    world
        .query::<&TerrainCamera>()
        .iter(world)
        .all(|c| c.generation <= drawn)
}

/// Spawns the terrain camera for a battlefield `grid` whose terrain
/// tilemap is on [`TERRAIN_LAYER`], and returns the image it draws into.
pub(super) fn spawn_terrain_camera(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    grid: Grid,
    tileset: Handle<Image>,
) -> Handle<Image> {
    let extent = grid.extent();
    let scale = (extent.max_element() / MAX_IMAGE).max(1.0);
    let texels = (extent / scale).ceil().as_uvec2();
    let image = images.add(Image::new_target_texture(
        texels.x,
        texels.y,
        TextureFormat::Rgba8Unorm,
        Some(TextureFormat::Rgba8UnormSrgb),
    ));
    commands.spawn((
        Camera2d,
        Camera {
            // Before the battle camera, which shows its image.
            order: -1,
            clear_color: ClearColorConfig::Custom(Color::NONE),
            // Switched on by `redraw_changed_terrain` once the tiles exist.
            is_active: false,
            ..default()
        },
        RenderTarget::Image(image.clone().into()),
        Projection::Orthographic(OrthographicProjection {
            scale,
            ..OrthographicProjection::default_2d()
        }),
        bevy::render::view::Msaa::Off,
        RenderLayers::layer(TERRAIN_LAYER),
        TerrainCamera {
            generation: 0,
            tileset,
        },
    ));
    image
}

/// Owes a new drawing of the terrain whenever a terrain tile is added or
/// changes.
fn redraw_changed_terrain(
    terrain: Query<Entity, With<TerrainMap>>,
    changed: Query<
        &TilemapId,
        Or<(
            Changed<TileTextureIndex>,
            Changed<TileColor>,
            Changed<TileVisible>,
            Changed<TileFlip>,
        )>,
    >,
    mut generation: ResMut<TerrainGeneration>,
    mut cameras: Query<&mut TerrainCamera>,
) {
    let Ok(terrain) = terrain.single() else {
        return;
    };
    if !changed.iter().any(|id| id.0 == terrain) {
        return;
    }
    generation.0 += 1;
    for mut camera in &mut cameras {
        camera.generation = generation.0;
    }
}

/// Keeps the terrain camera on while it owes a drawing, and off after.
fn retire_terrain_camera(
    drawn: Res<TerrainDrawn>,
    mut cameras: Query<(&TerrainCamera, &mut Camera)>,
) {
    let drawn = drawn.get();
    for (terrain, mut camera) in &mut cameras {
        let owed = terrain.generation > drawn;
        if camera.is_active != owed {
            camera.is_active = owed;
        }
    }
}

/// Frames in a row a terrain view must be drawn whole before it counts as
/// drawn. The tilemap's tileset is copied into its texture array while the
/// frame is prepared, and the first frames after the tileset is uploaded
/// may draw from an array not yet filled (seen here: a blank map when the
/// camera was retired after one frame).
const WHOLE_FRAMES: u32 = 3;

/// In the render world: notes the generation of a terrain view once
/// [`WHOLE_FRAMES`] frames in a row have drawn it whole (its target and
/// tileset exist, its tilemap is queued and every pipeline is compiled;
/// otherwise Bevy would skip part of it).
fn confirm_terrain_drawn(
    views: Query<(&ExtractedView, &TerrainCamera), With<ViewTarget>>,
    phases: Res<ViewSortedRenderPhases<Transparent2d>>,
    pipelines: Res<PipelineCache>,
    images: Res<RenderAssets<GpuImage>>,
    drawn: Res<TerrainDrawn>,
    mut streak: Local<(u64, u32)>,
) {
    for (view, camera) in &views {
        let Some(phase) = phases.get(&view.retained_view_entity) else {
            continue;
        };
        let whole = images.get(&camera.tileset).is_some()
            && !phase.items.is_empty()
            && phase
                .items
                .values()
                .all(|item| pipelines.get_render_pipeline(item.pipeline).is_some());
        *streak = match (whole, *streak) {
            (false, _) => (camera.generation, 0),
            (true, (generation, n)) if generation == camera.generation => (generation, n + 1),
            (true, _) => (camera.generation, 1),
        };
        if streak.1 >= WHOLE_FRAMES {
            drawn.0.fetch_max(camera.generation, Ordering::AcqRel);
        }
    }
}
