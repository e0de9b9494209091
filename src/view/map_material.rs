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

/// The shaders, built into the binary: the game runs from any directory.
const SHADER: Handle<Shader> = uuid_handle!("4f0c3a52-8d4e-4e57-9a3b-6f1d2c7b9e10");
const SHRINK_SHADER: Handle<Shader> = uuid_handle!("9b2e7d14-3c6a-4f8e-b1d5-0a7c9e2f4b63");

pub(super) fn plugin(app: &mut App) {
    // Without a renderer (tests) there is no shader to compile, and the
    // materials are never drawn.
    if let Some(mut shaders) = app.world_mut().get_resource_mut::<Assets<Shader>>() {
        let _ = shaders.insert(
            &SHADER,
            Shader::from_wgsl(include_str!("map_material.wgsl"), file!()),
        );
        let _ = shaders.insert(
            &SHRINK_SHADER,
            Shader::from_wgsl(include_str!("shrink.wgsl"), file!()),
        );
    }
    app.add_plugins((
        Material2dPlugin::<MapMaterial>::default(),
        Material2dPlugin::<ShrinkMaterial>::default(),
    ));
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
    /// The terrain shrunk to a quarter, shown when zoomed out (see
    /// [`ShrinkMaterial`]).
    #[texture(4)]
    #[sampler(5)]
    pub far: Handle<Image>,
    /// The ground's heights, one texel per tile (V9.1): red is metres ×
    /// [`super::map::PER_METRE`]; all 0 on flat ground.
    #[texture(6)]
    #[sampler(7)]
    pub relief: Handle<Image>,
}

/// Draws the terrain image shrunk to a quarter of its size, each texel the
/// mean of 4×4 of the terrain's (`shrink.wgsl`): drawn once with the
/// terrain, into the image the map shows when zoomed out.
#[derive(Asset, TypePath, AsBindGroup, Clone, Debug)]
pub struct ShrinkMaterial {
    /// The terrain image.
    #[texture(0)]
    pub terrain: Handle<Image>,
}

impl Material2d for ShrinkMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(SHRINK_SHADER)
    }

    /// Blended over the clear (transparent) target, so that the shrunk
    /// image keeps the terrain's alpha: transparent where it was not drawn.
    fn alpha_mode(&self) -> AlphaMode2d {
        AlphaMode2d::Blend
    }
}

impl Material2d for MapMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(SHADER)
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        AlphaMode2d::Opaque
    }
}
