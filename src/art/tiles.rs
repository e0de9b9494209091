//! The tileset (`assets/tiles/tileset.png`, drawn by
//! `assets/tiles/make_tileset.py`): which tile shows which terrain.

use crate::terrain::{Cover, Line, Movement, Terrain};
use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

/// The tileset, built into the binary so the game runs from any directory.
pub const TILESET_PNG: &[u8] = include_bytes!("../../assets/tiles/tileset.png");

/// A tile's side in pixels, in the tileset and on screen at zoom 1.
pub const TILE: f32 = 32.0;

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
    /// Plain white. Spare: the overlay is an image of its own now (see
    /// `view::map`), but the tileset keeps its place.
    White,
    /// An outline. Spare, as `White` is.
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
    built_in_png(TILESET_PNG)
}

/// A PNG built into the binary, sampled without smoothing (pixel art).
pub fn built_in_png(png: &[u8]) -> Image {
    Image::from_buffer(
        png,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::nearest(),
        RenderAssetUsages::default(),
    )
    .expect("the built-in PNGs are valid: the tile script writes them")
}

/// The condition icons (`assets/tiles/icons.png`, drawn by the same
/// script), built into the binary.
pub const ICONS_PNG: &[u8] = include_bytes!("../../assets/tiles/icons.png");

/// The side of an icon, in pixels.
pub const ICON: u32 = 12;

/// The icons of the icon sheet, in its order: a unit's conditions, and an
/// object on the ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    /// Prone (R4.8).
    Prone = 0,
    /// Dying (R10.1).
    Dying,
    /// Stabilized (R10.4).
    Stable,
    /// Defending (R4.6).
    Defending,
    /// Shield ready (R4.6).
    ShieldReady,
    /// Off-guard: no reactions before its first turn (R2.3).
    OffGuard,
    /// Open to melee after a charge or technique (R4.7, R7.8).
    Exposed,
    /// Dead (R10.1).
    Dead,
    /// An object on the ground (R9.5).
    Object,
}

impl Icon {
    /// Every icon, in the sheet's order.
    pub const ALL: [Icon; 9] = [
        Icon::Prone,
        Icon::Dying,
        Icon::Stable,
        Icon::Defending,
        Icon::ShieldReady,
        Icon::OffGuard,
        Icon::Exposed,
        Icon::Dead,
        Icon::Object,
    ];

    /// What the icon means, with its rule, for the map legend.
    pub fn meaning(self) -> &'static str {
        match self {
            Icon::Prone => "prone (R4.8)",
            Icon::Dying => "dying: turns left (R10.1)",
            Icon::Stable => "stabilized (R10.4)",
            Icon::Defending => "defending (R4.6)",
            Icon::ShieldReady => "shield ready (R4.6)",
            Icon::OffGuard => "off-guard: no reactions (R2.3)",
            Icon::Exposed => "open: melee +1 adv (R4.7, R7.8)",
            Icon::Dead => "dead (R10.1)",
            Icon::Object => "object (R9.5)",
        }
    }
}

/// The icon sheet and its atlas, shared by the map's sprites and the
/// legend's UI images.
#[derive(Resource, Clone, Debug)]
pub struct Icons {
    /// The sheet.
    pub image: Handle<Image>,
    /// One cell per [`Icon`].
    pub layout: Handle<TextureAtlasLayout>,
}

impl Icons {
    /// The atlas cell of `icon`.
    pub fn atlas(&self, icon: Icon) -> TextureAtlas {
        TextureAtlas {
            layout: self.layout.clone(),
            index: icon as usize,
        }
    }

    /// A sprite of `icon`, `size` world units wide.
    pub fn sprite(&self, icon: Icon, size: f32) -> Sprite {
        Sprite {
            image: self.image.clone(),
            texture_atlas: Some(self.atlas(icon)),
            custom_size: Some(Vec2::splat(size)),
            ..default()
        }
    }
}

/// Loads the icon sheet before anything is spawned.
pub fn load_icons(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut layouts: ResMut<Assets<TextureAtlasLayout>>,
) {
    let image = built_in_png(ICONS_PNG);
    let layout =
        TextureAtlasLayout::from_grid(UVec2::splat(ICON), Icon::ALL.len() as u32, 1, None, None);
    commands.insert_resource(Icons {
        image: images.add(image),
        layout: layouts.add(layout),
    });
}
