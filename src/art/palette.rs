//! The colours shared by the window and the pictures `skirmish render`
//! draws: each side's colour and the overlays' tints.

use bevy::prelude::*;

/// The colour of side `side`.
pub fn side_color(side: usize) -> Color {
    match side % 4 {
        0 => Color::srgb(0.25, 0.5, 0.95),
        1 => Color::srgb(0.9, 0.3, 0.25),
        2 => Color::srgb(0.3, 0.75, 0.35),
        _ => Color::srgb(0.9, 0.75, 0.2),
    }
}

/// The tints of the overlays.
pub mod tint {
    use bevy::prelude::Color;

    /// A tile a Move reaches for `cost` of `speed` movement (R5.1): lighter
    /// is cheaper (the AP cost is always 1). The window and `render` both
    /// shade reach with it.
    pub fn reach(cost: u32, speed: u32) -> Color {
        let share = cost as f32 / speed.max(1) as f32;
        Color::srgba(0.25, 0.55, 1.0, 0.6 - 0.3 * share)
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
    /// A tile a splash item's burst reaches around the aimed tile.
    pub const SPLASH: Color = Color::srgba(1.0, 0.3, 0.1, 0.25);

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
