//! The unit figures (`assets/units/units.png` and its 16-pixel twin
//! `units_far.png`, drawn by `assets/units/make_units.mjs`): which cell
//! shows which kind of unit, which weapon in hand, which shield.
//!
//! A unit is drawn in layers, all facing east (the window mirrors them):
//! the base in its side's colour with a wedge pointing where it faces, the
//! figure of its kind, the kind's side-coloured parts (a tabard, a hood),
//! its shield, then its arms holding the weapon in hand. Every figure
//! shares one skeleton, so any arms and any shield fit any body.

use crate::format::{DamageType, Shield, Size, Weapon, WeaponTrait};
use crate::grid::Dir;
use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

/// The figure sheet, built into the binary.
pub const UNITS_PNG: &[u8] = include_bytes!("../../assets/units/units.png");
/// The same cells drawn at 16 pixels, for a map zoomed far out.
pub const UNITS_FAR_PNG: &[u8] = include_bytes!("../../assets/units/units_far.png");

/// A cell's side in `units.png`, in pixels.
pub const CELL: u32 = 64;
/// A cell's side in `units_far.png`.
pub const FAR_CELL: u32 = 16;
/// Cells in a row of either sheet.
pub const COLUMNS: u32 = 18;
/// Rows of either sheet.
pub const ROWS: u32 = 6;

/// A kind of unit with its own figure: the shipped catalog's templates,
/// and [`Kind::Generic`] for any other (drawn with its initials).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Kind {
    Warden = 0,
    Archer,
    Raider,
    Spearman,
    Skirmisher,
    Grenadier,
    Medic,
    Brute,
    Crossbowman,
    Halberdier,
    Wrestler,
    Duelist,
    /// Large (V10): its cell stretched over 2×2 tiles.
    Ogre,
    /// Huge (V10): its cell stretched over 3×3 tiles.
    Giant,
    /// A mount (V12): a horse seen from the side; its rider sits on it.
    Horse,
    /// A knight, trained to ride (V12).
    Knight,
    /// A kind without its own art.
    Generic,
}

impl Kind {
    /// Every kind, in the sheet's order.
    pub const ALL: [Kind; 17] = [
        Kind::Warden,
        Kind::Archer,
        Kind::Raider,
        Kind::Spearman,
        Kind::Skirmisher,
        Kind::Grenadier,
        Kind::Medic,
        Kind::Brute,
        Kind::Crossbowman,
        Kind::Halberdier,
        Kind::Wrestler,
        Kind::Duelist,
        Kind::Ogre,
        Kind::Giant,
        Kind::Horse,
        Kind::Knight,
        Kind::Generic,
    ];

    /// The figure of the unit kind (template) called `name`.
    pub fn of(name: &str) -> Kind {
        match name {
            "warden" => Kind::Warden,
            "archer" => Kind::Archer,
            "raider" => Kind::Raider,
            "spearman" => Kind::Spearman,
            "skirmisher" => Kind::Skirmisher,
            "grenadier" => Kind::Grenadier,
            "medic" => Kind::Medic,
            "brute" => Kind::Brute,
            "crossbowman" => Kind::Crossbowman,
            "halberdier" => Kind::Halberdier,
            "wrestler" => Kind::Wrestler,
            "duelist" => Kind::Duelist,
            "ogre" => Kind::Ogre,
            "giant" => Kind::Giant,
            "warhorse" | "horse" => Kind::Horse,
            "knight" => Kind::Knight,
            _ => Kind::Generic,
        }
    }

    /// The cell of the figure (row 0).
    pub fn figure(self) -> usize {
        self as usize
    }

    /// The cell of its side-coloured parts (row 1).
    pub fn tint(self) -> usize {
        COLUMNS as usize + self as usize
    }

    /// The cell of its sign on a token, for a map zoomed far out (row 4).
    pub fn sign(self) -> usize {
        4 * COLUMNS as usize + self as usize
    }
}

/// Arms holding a kind of weapon (row 2), or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Arms {
    /// Nothing in hand (dropped, R7.3, or thrown, R9.1).
    Unarmed = 0,
    Longsword,
    Shortsword,
    Axe,
    Greataxe,
    Maul,
    Mace,
    Spear,
    Halberd,
    Javelin,
    Knife,
    Shortbow,
    Longbow,
    Crossbow,
    Sling,
    Greatclub,
}

impl Arms {
    /// The arms for the weapon in hand: the shipped catalog's by name,
    /// any other by what it is (a bow, a reach weapon, a thrown one…).
    pub fn of(weapon: Option<&Weapon>) -> Arms {
        let Some(w) = weapon else {
            return Arms::Unarmed;
        };
        match w.name.as_str() {
            "longsword" => return Arms::Longsword,
            "shortsword" => return Arms::Shortsword,
            "axe" => return Arms::Axe,
            "greataxe" => return Arms::Greataxe,
            "maul" => return Arms::Maul,
            "mace" => return Arms::Mace,
            "spear" => return Arms::Spear,
            "halberd" => return Arms::Halberd,
            "javelin" => return Arms::Javelin,
            "throwing knife" => return Arms::Knife,
            "shortbow" => return Arms::Shortbow,
            "longbow" => return Arms::Longbow,
            "crossbow" => return Arms::Crossbow,
            "sling" => return Arms::Sling,
            "greatclub" => return Arms::Greatclub,
            _ => {}
        }
        let has = |t: WeaponTrait| w.traits.contains(&t);
        // Hooves and the like are the body's own: nothing in hand.
        if has(WeaponTrait::Natural) {
            return Arms::Unarmed;
        }
        let big = w.damage.count * w.damage.sides >= 10;
        if has(WeaponTrait::Bow) {
            return if big { Arms::Longbow } else { Arms::Shortbow };
        }
        if has(WeaponTrait::Crossbow) {
            return Arms::Crossbow;
        }
        if w.range.is_some() {
            return Arms::Sling;
        }
        if w.thrown.is_some() || has(WeaponTrait::Thrown) {
            return if big || w.damage.sides >= 6 {
                Arms::Javelin
            } else {
                Arms::Knife
            };
        }
        let two_handed = has(WeaponTrait::TwoHanded);
        match (w.reach > 1, two_handed, w.damage_type) {
            (true, _, DamageType::Piercing) => Arms::Spear,
            (true, ..) => Arms::Halberd,
            (false, true, DamageType::Bludgeoning) => Arms::Maul,
            (false, true, DamageType::Slashing) => Arms::Greataxe,
            (false, true, _) => Arms::Spear,
            (false, false, DamageType::Bludgeoning) => Arms::Mace,
            (false, false, DamageType::Piercing) => Arms::Shortsword,
            (false, false, _) if big => Arms::Axe,
            _ => Arms::Longsword,
        }
    }

    /// The cell (row 2).
    pub fn cell(self) -> usize {
        2 * COLUMNS as usize + self as usize
    }
}

/// A shield's look: a small round buckler or a heater.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShieldArt {
    /// A heater shield, held before the body.
    Heater = 0,
    /// A buckler (a shield of 1 AR or less).
    Buckler,
}

impl ShieldArt {
    /// The look of `shield`: by name, else by its AR.
    pub fn of(shield: &Shield) -> ShieldArt {
        if shield.name.contains("buckler") || shield.ar <= 1 {
            ShieldArt::Buckler
        } else {
            ShieldArt::Heater
        }
    }

    /// The cell of the shield (row 3).
    pub fn cell(self) -> usize {
        3 * COLUMNS as usize + self as usize
    }

    /// The cell of its side-coloured face.
    pub fn face(self) -> usize {
        3 * COLUMNS as usize + 2 + self as usize
    }
}

/// The base under a unit's feet, tinted with its side's colour.
pub const BASE: usize = 3 * COLUMNS as usize + 4;
/// The ring round the acting unit's base.
pub const RING: usize = 3 * COLUMNS as usize + 5;
/// What stays where a unit died.
pub const CORPSE: usize = 3 * COLUMNS as usize + 6;

/// The disc under a token's sign, tinted with its side's colour: after
/// the signs in row 4.
pub const DISC: usize = 4 * COLUMNS as usize + Kind::Generic as usize + 1;

/// What flies from a shooter or a thrower, drawn pointing east.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Missile {
    Arrow,
    Bolt,
    Stone,
    Javelin,
    Knife,
    Bomb,
    Flask,
    Potion,
    /// Anything else thrown.
    Sack,
}

impl Missile {
    /// What a ranged attack with `weapon` shoots (R7.4): an arrow from a
    /// bow, a bolt from a crossbow, a stone from anything else.
    pub fn shot(weapon: Option<&Weapon>) -> Missile {
        match weapon {
            Some(w) if w.traits.contains(&WeaponTrait::Bow) => Missile::Arrow,
            Some(w) if w.traits.contains(&WeaponTrait::Crossbow) => Missile::Bolt,
            _ => Missile::Stone,
        }
    }

    /// What flies when `object` is thrown (R9.1): a thrown weapon by its
    /// arms' look, the shipped items by name, a splash item as a bomb.
    pub fn thrown(object: &str, weapon: Option<&Weapon>, splash: bool) -> Missile {
        match (object, weapon.map(|w| Arms::of(Some(w)))) {
            (_, Some(Arms::Knife)) => Missile::Knife,
            (_, Some(_)) => Missile::Javelin,
            ("oil flask", _) => Missile::Flask,
            ("potion", _) => Missile::Potion,
            _ if splash => Missile::Bomb,
            _ => Missile::Sack,
        }
    }

    /// Turned along its flight (an arrow, a javelin), or not (a stone, a
    /// bomb: they tumble).
    pub fn points(self) -> bool {
        matches!(
            self,
            Missile::Arrow | Missile::Bolt | Missile::Javelin | Missile::Knife
        )
    }

    /// Its cell (row 5).
    pub fn cell(self) -> usize {
        5 * COLUMNS as usize + self as usize
    }
}

/// A miss's swoosh past its target.
pub const WHIFF: usize = 5 * COLUMNS as usize + 9;
/// A hit's burst.
pub const SPARK: usize = 5 * COLUMNS as usize + 10;
/// A parry's clang.
pub const CLANG: usize = 5 * COLUMNS as usize + 11;

/// Where the base's centre is, in pixels from a cell's top.
pub const BASE_Y: f32 = 55.2;
/// The wedge cells are drawn at half the others' scale, centred on the
/// base: shown twice as wide, a wedge may reach past its tile.
pub const WEDGE_SCALE: f32 = 2.0;

/// The wedge on the base pointing towards `dir` (R4.1).
pub fn wedge(dir: Dir) -> usize {
    let k = Dir::ALL.iter().position(|d| *d == dir).unwrap_or(0);
    3 * COLUMNS as usize + 7 + k
}

/// Whether a figure facing `dir` is mirrored: west-facing ones are, east
/// ones not, and one facing due north or south looks where it last did
/// (`before`).
pub fn mirrored(dir: Dir, before: bool) -> bool {
    match dir.delta().0.signum() {
        -1 => true,
        1 => false,
        _ => before,
    }
}

/// How much bigger than a man a unit of `size` is drawn.
pub fn scale(size: Size) -> f32 {
    match size {
        Size::Tiny => 0.6,
        Size::Small => 0.8,
        Size::Medium => 1.0,
        Size::Large => 1.2,
        Size::Huge => 1.4,
        Size::Gargantuan => 1.6,
    }
}

/// Where the figures' feet are, in pixels from a cell's top.
pub const FEET: f32 = 57.0;
/// Where the tunic's middle is (the generic figure's initials), in pixels
/// from a cell's top.
pub const CHEST: f32 = 38.0;

/// The figure sheets and their atlases.
#[derive(Resource, Clone, Debug)]
pub struct Figures {
    /// The 64-pixel sheet.
    pub near: Handle<Image>,
    /// Its cells.
    pub near_layout: Handle<TextureAtlasLayout>,
    /// The 16-pixel sheet.
    pub far: Handle<Image>,
    /// Its cells.
    pub far_layout: Handle<TextureAtlasLayout>,
}

impl Figures {
    /// A sprite of cell `index` of the near sheet, `size` world units wide.
    pub fn sprite(&self, index: usize, size: f32) -> Sprite {
        Sprite {
            image: self.near.clone(),
            texture_atlas: Some(TextureAtlas {
                layout: self.near_layout.clone(),
                index,
            }),
            custom_size: Some(Vec2::splat(size)),
            ..default()
        }
    }
}

/// A sheet built into the binary, smoothed when scaled: the figures are
/// drawn, not pixel art, and seen at every zoom.
fn smooth_png(png: &[u8]) -> Image {
    Image::from_buffer(
        png,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::linear(),
        RenderAssetUsages::default(),
    )
    .expect("the built-in figure sheets are valid: the figure script writes them")
}

/// Loads both figure sheets before anything is spawned.
pub fn load_figures(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut layouts: ResMut<Assets<TextureAtlasLayout>>,
) {
    let grid = |cell| TextureAtlasLayout::from_grid(UVec2::splat(cell), COLUMNS, ROWS, None, None);
    commands.insert_resource(Figures {
        near: images.add(smooth_png(UNITS_PNG)),
        near_layout: layouts.add(grid(CELL)),
        far: images.add(smooth_png(UNITS_FAR_PNG)),
        far_layout: layouts.add(grid(FAR_CELL)),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_inside_the_sheet() {
        let last = (COLUMNS * ROWS) as usize;
        for k in Kind::ALL {
            assert!(k.figure() < COLUMNS as usize && k.tint() < 2 * COLUMNS as usize);
        }
        assert!(Arms::Greatclub.cell() < 3 * COLUMNS as usize);
        assert!(wedge(Dir::NW) < last);
        assert_eq!(wedge(Dir::N) + 7, wedge(Dir::NW));
    }

    #[test]
    fn a_figure_looks_east_or_west_and_keeps_its_side_facing_north_or_south() {
        assert!(!mirrored(Dir::E, true));
        assert!(!mirrored(Dir::NE, true));
        assert!(mirrored(Dir::SW, false));
        assert!(mirrored(Dir::N, true));
        assert!(!mirrored(Dir::S, false));
    }

    #[test]
    fn the_sheets_have_the_cells_the_code_names() {
        for (png, cell) in [(UNITS_PNG, CELL), (UNITS_FAR_PNG, FAR_CELL)] {
            let image = smooth_png(png);
            assert_eq!(image.width(), COLUMNS * cell);
            assert_eq!(image.height(), ROWS * cell);
        }
    }
}
