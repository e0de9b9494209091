//! The tileset (`assets/tiles/tileset.png`, drawn by
//! `assets/tiles/make_tileset.py`): which tile shows which terrain.

use crate::grid::{Dir, Pos};
use crate::terrain::{Cover, Line, Movement, Terrain, TerrainMap};
use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

/// The tileset, built into the binary so the game runs from any directory.
pub const TILESET_PNG: &[u8] = include_bytes!("../../assets/tiles/tileset.png");

/// A tile's side in pixels, in the tileset and on screen at zoom 1.
pub const TILE: f32 = 32.0;

/// The ground a terrain is drawn with: the default legend's by name, a
/// level's own by what it does (R5 movement, R6 line and cover).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TileKind {
    Floor,
    Wall,
    LowWall,
    Brush,
    /// The ground under a tree; the tree stands over it (see
    /// [`tree_at`]).
    Tree,
    Water,
    Chasm,
    /// A level's own difficult terrain: rubble.
    Difficult,
    /// A level's own impassable terrain: a boulder.
    Blocking,
    /// A level's own cover: crates.
    Cover,
    /// A level's own impassable terrain that lights its tile bright
    /// (V8.3): a campfire.
    Fire,
}

/// The tile of a terrain: the default legend's by name, a level's own by
/// what it does (R5 movement, R6 line and cover).
pub fn tile_of(t: &Terrain) -> TileKind {
    // A default terrain lit otherwise ("floor (dark)", V8.3) is drawn as
    // itself: the light is shaded over it.
    let base = t.name.split(" (").next().unwrap_or(&t.name);
    match base {
        "floor" => TileKind::Floor,
        "wall" => TileKind::Wall,
        "low wall" => TileKind::LowWall,
        "brush" => TileKind::Brush,
        "tree" => TileKind::Tree,
        "shallow water" => TileKind::Water,
        "chasm" => TileKind::Chasm,
        _ => match (t.movement, t.line, t.cover) {
            (Movement::Impassable, Line::Blocked, _) => TileKind::Wall,
            (Movement::Impassable, ..) if t.light == Some(crate::terrain::Light::Bright) => {
                TileKind::Fire
            }
            (Movement::Impassable, ..) => TileKind::Blocking,
            (_, _, Cover::Partial | Cover::Total) => TileKind::Cover,
            (Movement::Difficult, ..) => TileKind::Difficult,
            _ => TileKind::Floor,
        },
    }
}

/// Where each kind's tiles start in the tileset, and how many it has (in
/// the order `make_tileset.py` draws them).
mod sheet {
    pub const FLOOR: u32 = 0; // 4 variants
    pub const FLOOR_SHADOWED: u32 = 4;
    pub const WALL_TOP: u32 = 5; // 2 variants
    pub const WALL_FACE: u32 = 7; // 2 variants
    pub const LOW_WALL: u32 = 9; // 16: a bit per low-wall neighbour N E S W
    pub const BRUSH: u32 = 25; // 3 variants
    pub const FOREST: u32 = 28; // 2 variants
    pub const WATER: u32 = 30; // 16: a bit per land side N E S W
    pub const CHASM: u32 = 46; // inside, then with the rock face to the north
    pub const RUBBLE: u32 = 48; // 2 variants
    pub const BOULDER: u32 = 50;
    pub const CRATES: u32 = 51;
    pub const CAMPFIRE: u32 = 52;
    /// Tiles in the sheet.
    pub const COUNT: u32 = 53;
}

/// Tiles in the tileset.
pub const TILES: u32 = sheet::COUNT;

/// A variant for tile `p` out of `n`: scattered, the same each time.
fn variant(p: Pos, n: u32) -> u32 {
    let h = (p.x as u32).wrapping_mul(73_856_093) ^ (p.y as u32).wrapping_mul(19_349_663);
    (h ^ (h >> 7)) % n
}

/// The tileset tile drawn at `p` of `map`: its terrain's, in a variant
/// chosen by place, with the edges its neighbours give it (a wall's face
/// where its south side shows and its shadow on the ground south of it,
/// water's bank where it meets land, a low wall joined to the low walls
/// beside it, a chasm's rock face under the ground north of it).
pub fn tile_at(map: &TerrainMap, p: Pos) -> u32 {
    let kind_at = |q: Pos| map.get(q).map(tile_of);
    let kind = kind_at(p).unwrap_or(TileKind::Floor);
    // A bit per neighbour N, E, S, W for which `is` holds.
    let mask = |is: &dyn Fn(Option<TileKind>) -> bool| {
        [Dir::N, Dir::E, Dir::S, Dir::W]
            .iter()
            .fold(0, |m, d| (m << 1) | u32::from(is(kind_at(p.step(*d)))))
    };
    match kind {
        TileKind::Floor => {
            if kind_at(p.step(Dir::N)) == Some(TileKind::Wall) {
                sheet::FLOOR_SHADOWED
            } else {
                sheet::FLOOR + variant(p, 4)
            }
        }
        TileKind::Wall => {
            let face = kind_at(p.step(Dir::S)) != Some(TileKind::Wall);
            (if face {
                sheet::WALL_FACE
            } else {
                sheet::WALL_TOP
            }) + variant(p, 2)
        }
        TileKind::LowWall => sheet::LOW_WALL + mask(&|k| k == Some(TileKind::LowWall)),
        TileKind::Brush => sheet::BRUSH + variant(p, 3),
        TileKind::Tree => sheet::FOREST + variant(p, 2),
        // The map's edge is not a bank: the water runs on past it.
        TileKind::Water => sheet::WATER + mask(&|k| k.is_some_and(|k| k != TileKind::Water)),
        TileKind::Chasm => {
            let edge = kind_at(p.step(Dir::N)).is_some_and(|k| k != TileKind::Chasm);
            sheet::CHASM + u32::from(edge)
        }
        TileKind::Difficult => sheet::RUBBLE + variant(p, 2),
        TileKind::Blocking => sheet::BOULDER,
        TileKind::Cover => sheet::CRATES,
        TileKind::Fire => sheet::CAMPFIRE,
    }
}

/// What stands on the ground, drawn over the overlays
/// (`assets/tiles/objects.png`, drawn by the same script).
pub const OBJECTS_PNG: &[u8] = include_bytes!("../../assets/tiles/objects.png");

/// Cells in the object sheet: three trees.
pub const OBJECTS: u32 = 3;

/// The tree standing on `p` of `map`, if any: its cell in the object
/// sheet. Overlays tint the ground under it, never the tree.
pub fn tree_at(map: &TerrainMap, p: Pos) -> Option<u32> {
    (map.get(p).map(tile_of) == Some(TileKind::Tree)).then(|| variant(p.step(Dir::E), OBJECTS))
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
    /// Hidden from the enemy (V8.2, V8.4): shown to its own side and the
    /// referee.
    Hidden,
    /// Exposed under Energy: a safe target for maneuvers (V5.8).
    ExposedV5,
    /// Unguarded under Energy: open to Swift Attacks (V5.8, V5.9).
    Unguarded,
    /// Holds a spell of concentration (V11.5).
    Concentrating,
    /// Held fast by a spell (V11.4).
    Gripped,
}

impl Icon {
    /// Every icon, in the sheet's order.
    pub const ALL: [Icon; 14] = [
        Icon::Prone,
        Icon::Dying,
        Icon::Stable,
        Icon::Defending,
        Icon::ShieldReady,
        Icon::OffGuard,
        Icon::Exposed,
        Icon::Dead,
        Icon::Object,
        Icon::Hidden,
        Icon::ExposedV5,
        Icon::Unguarded,
        Icon::Concentrating,
        Icon::Gripped,
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
            Icon::Hidden => "hidden from the enemy (V8.2)",
            Icon::ExposedV5 => "exposed: safe to maneuver against (V5.8)",
            Icon::Unguarded => "unguarded: Swift Attacks for 1 Energy (V5.9)",
            Icon::Concentrating => "holds a spell: a hit may break it (V11.5)",
            Icon::Gripped => "held fast by a spell: cannot move (V11.4)",
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
