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
//! image shows them, and the battle camera shows the image
//! (see [`super::map_material`]).
//!
//! A second camera draws the image again shrunk to a quarter, each texel
//! the mean of 4×4 (`shrink.wgsl`), in the same frames: the map shows that
//! when zoomed out, where picking one texel of several per pixel showed a
//! ragged grid of tile edges. Its cost is paid once.
//!
//! Whether the terrain is drawn is read back from the images themselves:
//! while a drawing is owed, the shrunk image is copied back from the GPU,
//! and the drawing counts once every texel is opaque (every terrain tile
//! is, and a shrunk texel is opaque only if all 16 under it are).
//! Inferring it from the render world's state (pipelines compiled, items
//! queued) was not enough: bevy_ecs_tilemap fills its texture array while
//! frames are prepared, and under load the first frames that looked whole
//! drew nothing (a blank map in one run of twelve).

use super::coords::Grid;
use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::gpu_readback::{Readback, ReadbackComplete};
use bevy::render::render_resource::{TextureFormat, TextureUsages};
use bevy_ecs_tilemap::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TerrainGeneration>().add_systems(
        PostUpdate,
        (
            redraw_changed_terrain,
            prove_terrain_drawn,
            retire_terrain_camera,
        )
            .chain()
            .in_set(super::frame::ViewSystems::Draw),
    );
}

/// The render layer of the terrain tilemap: only the terrain camera sees it.
pub const TERRAIN_LAYER: usize = 1;

/// The largest side of the terrain image, in texels; a bigger level is
/// drawn at a coarser scale (a 128×128 level at half its tiles' pixels).
const MAX_IMAGE: f32 = 4096.0;

/// The camera drawing the terrain tilemap into the terrain image, and
/// which drawing of the terrain it owes.
#[derive(Component)]
pub struct TerrainCamera {
    /// The drawing of the terrain this camera owes.
    pub generation: u64,
    /// The newest drawing read back whole from the image.
    pub drawn: u64,
    /// The image read back to prove a drawing (the shrunk terrain, drawn
    /// after it from it), and its size in texels.
    image: Handle<Image>,
    texels: UVec2,
}

impl TerrainCamera {
    fn owes(&self) -> bool {
        self.generation > self.drawn
    }
}

/// Marks the terrain tilemap: the tilemap the terrain camera draws.
#[derive(Component)]
pub struct TerrainMap;

/// A readback of a terrain camera's image, taken while it owes drawing
/// `generation`: an opaque image proves that drawing made.
#[derive(Component)]
struct TerrainProof {
    camera: Entity,
    generation: u64,
}

/// The last generation handed out.
#[derive(Resource, Default)]
struct TerrainGeneration(u64);

/// Whether the terrain image shows the terrain as it is now (for
/// `--screenshot`: a picture taken before would miss the map). True when
/// there is no terrain camera (a window without a battle).
pub fn terrain_drawn(world: &mut World) -> bool {
    !world
        .query::<&TerrainCamera>()
        .iter(world)
        .any(TerrainCamera::owes)
}

/// The render layer of the quad that shrinks the terrain: only the far
/// camera sees it.
const SHRINK_LAYER: usize = 2;

/// How much smaller the shrunk terrain is than the terrain, each way.
const SHRINK: u32 = 4;

/// The entities that draw the terrain's images: the cameras and the quad
/// that shrinks the terrain (despawned with the battlefield).
#[derive(Component)]
pub struct TerrainPart;

/// The terrain's images: as drawn, and shrunk for a zoomed-out map.
pub(super) struct TerrainImages {
    /// The terrain at its tiles' pixels (coarser above [`MAX_IMAGE`]).
    pub near: Handle<Image>,
    /// The terrain a quarter of that, each texel the mean of 4×4.
    pub far: Handle<Image>,
}

/// An image a camera draws into, `texels` large, that can be read back to
/// prove it drawn.
fn target_image(images: &mut Assets<Image>, texels: UVec2) -> Handle<Image> {
    let mut target = Image::new_target_texture(
        texels.x,
        texels.y,
        TextureFormat::Rgba8Unorm,
        Some(TextureFormat::Rgba8UnormSrgb),
    );
    target.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    images.add(target)
}

/// A camera drawing render layer `layer` into `image`, at `scale` world
/// units a texel, in the order given; off until the terrain is owed.
fn image_camera(image: &Handle<Image>, order: isize, scale: f32, layer: usize) -> impl Bundle {
    (
        Camera2d,
        Camera {
            order,
            clear_color: ClearColorConfig::Custom(Color::NONE),
            // Switched on by `retire_terrain_camera` while a drawing is owed.
            is_active: false,
            ..default()
        },
        RenderTarget::Image(image.clone().into()),
        Projection::Orthographic(OrthographicProjection {
            scale,
            ..OrthographicProjection::default_2d()
        }),
        bevy::render::view::Msaa::Off,
        RenderLayers::layer(layer),
        TerrainPart,
    )
}

/// Spawns what draws the terrain of a battlefield `grid` whose terrain
/// tilemap is on [`TERRAIN_LAYER`]: the terrain camera, and after it the
/// far camera that shrinks its image. Both draw (before the battle camera,
/// which shows their images) while a drawing is owed; it is proven by
/// reading back the shrunk image, opaque only where all the terrain under
/// it was drawn.
pub(super) fn spawn_terrain_camera(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    meshes: &mut Assets<Mesh>,
    shrinkers: &mut Assets<super::map_material::ShrinkMaterial>,
    grid: Grid,
) -> TerrainImages {
    let extent = grid.extent();
    let scale = (extent.max_element() / MAX_IMAGE).max(1.0);
    // Whole multiples of SHRINK, so every far texel has its 4×4.
    let texels = (extent / scale / SHRINK as f32).ceil().as_uvec2() * SHRINK;
    let near = target_image(images, texels);
    let far_texels = texels / SHRINK;
    let far = target_image(images, far_texels);
    commands.spawn((
        image_camera(&near, -2, scale, TERRAIN_LAYER),
        TerrainCamera {
            generation: 0,
            drawn: 0,
            image: far.clone(),
            texels: far_texels,
        },
    ));
    commands.spawn(image_camera(&far, -1, scale * SHRINK as f32, SHRINK_LAYER));
    commands.spawn((
        Mesh2d(meshes.add(Rectangle::from_size(extent))),
        MeshMaterial2d(shrinkers.add(super::map_material::ShrinkMaterial {
            terrain: near.clone(),
        })),
        RenderLayers::layer(SHRINK_LAYER),
        TerrainPart,
    ));
    TerrainImages { near, far }
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

/// Reads the image of each camera that owes a drawing back from the GPU,
/// one readback at a time per drawing (a proof of an older drawing is
/// dropped; so is one whose camera is gone). Bevy repeats a readback every
/// frame until its proof is answered and despawned.
fn prove_terrain_drawn(
    mut commands: Commands,
    cameras: Query<(Entity, &TerrainCamera)>,
    proofs: Query<(Entity, &TerrainProof)>,
) {
    for (entity, proof) in &proofs {
        let current = cameras
            .get(proof.camera)
            .is_ok_and(|(_, c)| c.owes() && c.generation == proof.generation);
        if !current {
            commands.entity(entity).despawn();
        }
    }
    for (camera, terrain) in &cameras {
        let pending = proofs
            .iter()
            .any(|(_, p)| p.camera == camera && p.generation == terrain.generation);
        if terrain.owes() && !pending {
            commands
                .spawn((
                    Readback::texture(terrain.image.clone()),
                    TerrainProof {
                        camera,
                        generation: terrain.generation,
                    },
                ))
                .observe(accept_terrain_proof);
        }
    }
}

/// Counts a readback's drawing as made when every texel is opaque (every
/// terrain tile is; the image starts transparent and is cleared to
/// transparent before each drawing).
fn accept_terrain_proof(
    readback: On<ReadbackComplete>,
    proofs: Query<&TerrainProof>,
    mut cameras: Query<&mut TerrainCamera>,
    mut commands: Commands,
) {
    let Ok(proof) = proofs.get(readback.entity) else {
        return;
    };
    let Ok(mut camera) = cameras.get_mut(proof.camera) else {
        return;
    };
    if opaque(&readback.data, camera.texels) {
        camera.drawn = camera.drawn.max(proof.generation);
        commands.entity(readback.entity).despawn();
    }
}

/// Whether every texel of an RGBA8 readback of `texels` is opaque (rows are
/// padded to the GPU's copy alignment).
fn opaque(data: &[u8], texels: UVec2) -> bool {
    let (width, height) = (texels.x as usize, texels.y as usize);
    if height == 0 || data.len() < height * width * 4 {
        return false;
    }
    let stride = data.len() / height;
    data.chunks_exact(stride).all(|row| {
        row[..width * 4]
            .chunks_exact(4)
            .all(|texel| texel[3] == 255)
    })
}

/// Keeps the terrain's cameras on while a drawing is owed, and off after.
fn retire_terrain_camera(
    terrain: Query<&TerrainCamera>,
    mut cameras: Query<&mut Camera, With<TerrainPart>>,
) {
    let owed = terrain.iter().any(TerrainCamera::owes);
    for mut camera in &mut cameras {
        if camera.is_active != owed {
            camera.is_active = owed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_counts_as_drawn_only_when_every_texel_is_opaque() {
        let texels = UVec2::new(2, 2);
        // Rows of 2 texels padded to 16 bytes.
        let mut data = vec![0u8; 32];
        assert!(!opaque(&data, texels), "a blank image");
        for row in 0..2 {
            for x in 0..2 {
                data[row * 16 + x * 4 + 3] = 255;
            }
        }
        assert!(opaque(&data, texels), "padding is not read");
        data[16 + 4 + 3] = 0;
        assert!(!opaque(&data, texels), "one texel missing");
        assert!(!opaque(&data[..8], texels), "a short readback");
    }
}
