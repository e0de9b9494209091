//! The material that draws the battlefield as one opaque quad: the terrain
//! image with the overlay's tint mixed in by the shader.
//!
//! Under software rendering every layer over the whole map costs a pass
//! over its pixels: the terrain and the overlay as two blended sprites cost
//! twice what one opaque quad does (measured with llvmpipe on a 64×64
//! level with every overlay on).

use bevy::asset::uuid_handle;
use bevy::prelude::*;
use bevy::render::render_resource::AsBindGroup;
use bevy::shader::ShaderRef;
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dPlugin};

/// The shader, built into the binary: the game runs from any directory.
const SHADER: Handle<Shader> = uuid_handle!("4f0c3a52-8d4e-4e57-9a3b-6f1d2c7b9e10");

pub(super) fn plugin(app: &mut App) {
    // Without a renderer (tests) there is no shader to compile, and the
    // material is never drawn.
    if let Some(mut shaders) = app.world_mut().get_resource_mut::<Assets<Shader>>() {
        let _ = shaders.insert(
            &SHADER,
            Shader::from_wgsl(include_str!("map_material.wgsl"), file!()),
        );
    }
    app.add_plugins(Material2dPlugin::<MapMaterial>::default());
}

/// The battlefield's look: the terrain image and the overlay image (one
/// texel per tile, its alpha how strongly it tints).
#[derive(Asset, TypePath, AsBindGroup, Clone, Debug)]
pub struct MapMaterial {
    /// The terrain, drawn from the tilemap (see [`super::terrain_cache`]).
    #[texture(0)]
    #[sampler(1)]
    pub terrain: Handle<Image>,
    /// The overlay's tints (see [`super::map::Highlights`]).
    #[texture(2)]
    #[sampler(3)]
    pub overlay: Handle<Image>,
}

impl Material2d for MapMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(SHADER)
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        AlphaMode2d::Opaque
    }
}
