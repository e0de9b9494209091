//! The tileset (`assets/tiles/tileset.png`, drawn by
//! `assets/tiles/make_tileset.py`): which tile shows which terrain.

use crate::terrain::{Cover, Line, Movement, Terrain};
use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

/// The tileset, built into the binary so the game runs from any directory.
pub const TILESET_PNG: &[u8] = include_bytes!("../../assets/tiles/tileset.png");

/// The tiles of the tileset, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TileKind {
    Floor = 0,
    Wall,
    LowWall,
    Brush,
    Tree,
    Water,
    Chasm,
    /// A level's own difficult terrain.
    Difficult,
    /// A level's own impassable terrain.
    Blocking,
    /// A level's own cover.
    Cover,
    /// Plain white: tinted by the view (reach shading).
    White,
    /// An outline: tinted by the view (the hovered tile, the path).
    Ring,
}

/// The tile of a terrain: the default legend's by name, a level's own by
/// what it does (R5 movement, R6 line and cover).
pub fn tile_of(t: &Terrain) -> TileKind {
    match t.name.as_str() {
        "floor" => TileKind::Floor,
        "wall" => TileKind::Wall,
        "low wall" => TileKind::LowWall,
        "brush" => TileKind::Brush,
        "tree" => TileKind::Tree,
        "shallow water" => TileKind::Water,
        "chasm" => TileKind::Chasm,
        _ => match (t.movement, t.line, t.cover) {
            (Movement::Impassable, Line::Blocked, _) => TileKind::Wall,
            (Movement::Impassable, ..) => TileKind::Blocking,
            (_, _, Cover::Partial | Cover::Total) => TileKind::Cover,
            (Movement::Difficult, ..) => TileKind::Difficult,
            _ => TileKind::Floor,
        },
    }
}

/// The tileset as an image.
pub fn tileset_image() -> Image {
    Image::from_buffer(
        TILESET_PNG,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::nearest(),
        RenderAssetUsages::default(),
    )
    .expect("the built-in tileset is a valid PNG")
}
