//! The colours shared by the window and the pictures `skirmish render`
//! draws: each side's colour and the overlays' tints, in two palettes —
//! the standard one and one for colour-blind players (the settings
//! screen's choice), whose sides were chosen by simulating protanopia,
//! deuteranopia and tritanopia (`vision.rs`).

use crate::settings::PaletteChoice;
use bevy::prelude::*;

/// What light does to the ground's colour (V8.3), channel by channel: dim
/// darker and bluer, dark more so; bright as it is. `dark` is the light's
/// sneak advantage (0 bright, 1 dim, 2 dark). `map_material.wgsl` shades
/// the window with the same factors; `render` with these.
pub fn night_tint(dark: i32) -> [f32; 3] {
    match dark {
        ..=0 => [1.0, 1.0, 1.0],
        1 => [0.36, 0.42, 0.72],
        _ => [0.14, 0.17, 0.42],
    }
}

/// The colour of side `side` in the standard palette (`render`'s).
pub fn side_color(side: usize) -> Color {
    Palette::STANDARD.side(side)
}

/// The colours the window draws sides and the overlays that must be told
/// apart in: the rest of the tints are in [`tint`].
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Each side's base and tabard, by side index (mod 4).
    pub sides: [Color; 4],
    /// A reachable tile's tint, as RGB (its alpha says how cheap).
    pub reach: [f32; 3],
    /// The front arc (R4.1).
    pub front: Color,
    /// The rear arc (R4.1).
    pub rear: Color,
    /// A threatened tile (R8.2).
    pub threat: Color,
    /// A threatened tile whose leaving provokes now (R8.2).
    pub provokes: Color,
    /// A clear line of effect (R6).
    pub line: Color,
    /// A blocked line (R6).
    pub blocked: Color,
}

impl Default for Palette {
    fn default() -> Self {
        Palette::STANDARD
    }
}

impl Palette {
    /// Blue, red, green and gold sides; green front and purple rear.
    pub const STANDARD: Palette = Palette {
        sides: [
            Color::srgb(0.25, 0.5, 0.95),
            Color::srgb(0.9, 0.3, 0.25),
            Color::srgb(0.3, 0.75, 0.35),
            Color::srgb(0.9, 0.75, 0.2),
        ],
        reach: [0.25, 0.55, 1.0],
        front: tint::FRONT,
        rear: tint::REAR,
        threat: tint::THREAT,
        provokes: tint::PROVOKES,
        line: tint::LINE,
        blocked: tint::BLOCKED,
    };

    /// For colour-blind players: the sides are the four Okabe–Ito colours
    /// whose closest pair stays farthest apart under every vision
    /// (`vision::choose_apart`: blue, vermillion, yellow, sky blue; ΔE ≥ 24
    /// between any two under protanopia, deuteranopia and tritanopia);
    /// the overlays pair sky blue with orange and yellow with a dark
    /// purple, which differ in lightness as well as hue.
    pub const COLOUR_BLIND: Palette = Palette {
        sides: [
            Color::srgb(0.0, 0.447, 0.698),
            Color::srgb(0.835, 0.369, 0.0),
            Color::srgb(0.941, 0.894, 0.259),
            Color::srgb(0.337, 0.706, 0.914),
        ],
        reach: [0.0, 0.447, 0.698],
        front: Color::srgba(0.337, 0.706, 0.914, 0.45),
        rear: Color::srgba(0.902, 0.624, 0.0, 0.45),
        threat: Color::srgba(0.941, 0.894, 0.259, 0.45),
        provokes: Color::srgba(0.5, 0.1, 0.3, 0.65),
        line: Color::srgba(0.337, 0.706, 0.914, 0.55),
        blocked: Color::srgba(0.835, 0.369, 0.0, 0.6),
    };

    /// The palette the player chose.
    pub fn of(choice: PaletteChoice) -> Palette {
        match choice {
            PaletteChoice::Standard => Palette::STANDARD,
            PaletteChoice::ColourBlind => Palette::COLOUR_BLIND,
        }
    }

    /// The colour of side `side`.
    pub fn side(&self, side: usize) -> Color {
        self.sides[side % 4]
    }

    /// A tile a Move reaches for `cost` of `speed` movement (R5.1):
    /// lighter is cheaper.
    pub fn reach(&self, cost: u32, speed: u32) -> Color {
        let share = cost as f32 / speed.max(1) as f32;
        let [r, g, b] = self.reach;
        Color::srgba(r, g, b, 0.6 - 0.3 * share)
    }

    /// The palette of `world` (the standard one in an app without it).
    pub fn in_world(world: &World) -> Palette {
        world.get_resource::<Palette>().copied().unwrap_or_default()
    }
}

/// The tints of the overlays.
pub mod tint {
    use bevy::prelude::Color;

    /// A tile a Move reaches for `cost` of `speed` movement (R5.1): lighter
    /// is cheaper (the AP cost is always 1). The window and `render` both
    /// shade reach with it.
    pub fn reach(cost: u32, speed: u32) -> Color {
        super::Palette::STANDARD.reach(cost, speed)
    }

    /// A tile in the front arc.
    pub const FRONT: Color = Color::srgba(0.3, 0.95, 0.45, 0.35);
    /// A tile in the rear arc.
    pub const REAR: Color = Color::srgba(0.85, 0.3, 0.95, 0.4);
    /// A tile an enemy threatens.
    pub const THREAT: Color = Color::srgba(1.0, 0.6, 0.1, 0.3);
    /// A threatened tile whose leaving provokes now.
    pub const PROVOKES: Color = Color::srgba(1.0, 0.15, 0.1, 0.45);
    /// A tile on a clear line of effect.
    pub const LINE: Color = Color::srgba(1.0, 1.0, 0.55, 0.5);
    /// A tile on a blocked line.
    pub const BLOCKED: Color = Color::srgba(0.6, 0.0, 0.0, 0.6);
    /// The tile that gives cover.
    pub const COVER: Color = Color::srgba(1.0, 0.3, 0.9, 0.7);
    /// A creature that gives soft cover.
    pub const SOFT_COVER: Color = Color::srgba(0.2, 0.9, 1.0, 0.6);
    /// The ally that completes a flank.
    pub const FLANK: Color = Color::srgba(0.3, 1.0, 0.3, 0.6);
    /// A charge's path.
    pub const CHARGE: Color = Color::srgba(0.3, 0.85, 1.0, 0.5);
    /// The tile a throw aims at.
    pub const AIMED: Color = Color::srgba(1.0, 0.95, 0.3, 0.6);
    /// A tile a missed throw may scatter to.
    pub const SCATTER: Color = Color::srgba(1.0, 0.55, 0.2, 0.45);
    /// A tile of the combat log line clicked.
    pub const SPOTLIGHT: Color = Color::srgba(1.0, 1.0, 1.0, 0.55);
    /// A grapple's tether, grappler to grappled (V7.6).
    pub const GRAPPLE: Color = Color::srgba(0.95, 0.75, 0.35, 0.9);
    /// The tile a shove would push its target to (V7.7).
    pub const SHOVED: Color = Color::srgba(0.95, 0.55, 1.0, 0.55);
    /// A tile a splash item's burst reaches around the aimed tile.
    pub const SPLASH: Color = Color::srgba(1.0, 0.3, 0.1, 0.25);
    /// Where a jump lands (V9.3).
    pub const JUMP: Color = Color::srgba(0.35, 0.95, 1.0, 0.6);
    /// Where a failed jump ends, or a fall (V9.3, V9.4).
    pub const FALL: Color = Color::srgba(1.0, 0.2, 0.35, 0.55);

    /// A range band by its net advantage: green near, yellow to red as
    /// the disadvantages grow.
    pub fn band(advantage: i32) -> Color {
        match advantage {
            a if a > 0 => Color::srgba(0.3, 0.95, 0.3, 0.3),
            0 => Color::srgba(1.0, 1.0, 1.0, 0.12),
            -1 => Color::srgba(1.0, 0.9, 0.2, 0.28),
            -2 => Color::srgba(1.0, 0.6, 0.1, 0.32),
            _ => Color::srgba(1.0, 0.25, 0.1, 0.36),
        }
    }
}
