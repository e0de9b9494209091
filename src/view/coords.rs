//! Where a grid tile is on screen: the one place that converts between the
//! rules' `Pos` (row 0 is north, R0.1) and world space, where y grows up, as
//! it does in bevy_ecs_tilemap's `TilePos`.

use crate::grid::Pos;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::TilePos;

/// Side of a tile in world units (the tileset's pixels).
pub use crate::art::tiles::TILE;

/// The battlefield's size in tiles, for converting positions.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Tiles across.
    pub width: i32,
    /// Tiles down.
    pub height: i32,
}

impl Grid {
    /// The centre of tile `p` in world space. The map is centred on the
    /// origin, as the tilemap with `TilemapAnchor::Center` is.
    pub fn world(&self, p: Pos) -> Vec2 {
        Vec2::new(
            (p.x as f32 + 0.5) * TILE - self.width as f32 * TILE / 2.0,
            ((self.height - 1 - p.y) as f32 + 0.5) * TILE - self.height as f32 * TILE / 2.0,
        )
    }

    /// The centre of an `n`×`n` body anchored at `p` (V10.6): its tiles'
    /// middle, half a tile right and down per extra tile.
    pub fn body(&self, p: Pos, n: i32) -> Vec2 {
        let half = (n.max(1) - 1) as f32 * TILE / 2.0;
        self.world(p) + Vec2::new(half, -half)
    }

    /// The tile under world point `w`, if it is on the map.
    pub fn pos(&self, w: Vec2) -> Option<Pos> {
        let x = ((w.x + self.width as f32 * TILE / 2.0) / TILE).floor() as i32;
        let up = ((w.y + self.height as f32 * TILE / 2.0) / TILE).floor() as i32;
        let p = Pos::new(x, self.height - 1 - up);
        (x >= 0 && up >= 0 && x < self.width && up < self.height).then_some(p)
    }

    /// The tilemap's position of tile `p`: its y grows upward.
    pub fn tile_pos(&self, p: Pos) -> TilePos {
        TilePos {
            x: p.x as u32,
            y: (self.height - 1 - p.y) as u32,
        }
    }

    /// The map's size in world units.
    pub fn extent(&self) -> Vec2 {
        Vec2::new(self.width as f32, self.height as f32) * TILE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_and_north_is_up() {
        let g = Grid {
            width: 7,
            height: 5,
        };
        for y in 0..5 {
            for x in 0..7 {
                let p = Pos::new(x, y);
                assert_eq!(g.pos(g.world(p)), Some(p));
                assert_eq!(g.pos(g.world(p) + Vec2::splat(TILE * 0.45)), Some(p));
            }
        }
        // Row 0 is the north edge (R0.1): drawn at the top.
        assert!(g.world(Pos::new(0, 0)).y > g.world(Pos::new(0, 4)).y);
        assert_eq!(g.tile_pos(Pos::new(2, 0)), TilePos { x: 2, y: 4 });
        assert_eq!(g.pos(Vec2::new(-1000.0, 0.0)), None);
    }
}
