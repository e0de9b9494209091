//! The square grid of R0: positions, the eight directions and distances.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A tile position `(x, y)`: x grows east, y grows south, `(0, 0)` is the
/// top-left map character (R0.1). Written `(x, y)` in RON files.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(from = "(i32, i32)", into = "(i32, i32)")]
pub struct Pos {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Pos {
    /// The tile at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The neighbouring tile in direction `dir`.
    pub fn step(self, dir: Dir) -> Self {
        let (dx, dy) = dir.delta();
        Self::new(self.x + dx, self.y + dy)
    }

    /// Grid distance of R0.3: `max(|dx|,|dy|) + floor(min(|dx|,|dy|) / 2)`,
    /// diagonals alternating 1 and 2 tiles (the 5-10-5 ft rule).
    pub fn distance(self, other: Pos) -> i32 {
        let dx = (self.x - other.x).abs();
        let dy = (self.y - other.y).abs();
        dx.max(dy) + dx.min(dy) / 2
    }

    /// Chebyshev distance: 1 means adjacent (R0.3).
    pub fn chebyshev(self, other: Pos) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }

    /// True when `other` is one of the eight tiles around this one.
    pub fn is_adjacent(self, other: Pos) -> bool {
        self.chebyshev(other) == 1
    }
}

impl From<(i32, i32)> for Pos {
    fn from((x, y): (i32, i32)) -> Self {
        Self::new(x, y)
    }
}

impl From<Pos> for (i32, i32) {
    fn from(p: Pos) -> Self {
        (p.x, p.y)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The tiles a unit fills (V10.6): an `n`×`n` square whose north-west tile
/// is `at`. Every unit is `n = 1` unless size (V10) gives it a footprint;
/// every rule that asks "which tile" asks its body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Body {
    /// The anchor: the north-west tile (a unit's `at`).
    pub at: Pos,
    /// The side of the square, 1 for a one-tile unit.
    pub n: i32,
}

impl Body {
    /// A body of side `n` anchored at `at`.
    pub const fn new(at: Pos, n: i32) -> Self {
        Self { at, n }
    }

    /// A one-tile body.
    pub const fn tile(at: Pos) -> Self {
        Self { at, n: 1 }
    }

    /// The same body anchored at `at`.
    pub const fn moved_to(self, at: Pos) -> Self {
        Self { at, n: self.n }
    }

    /// Every tile it fills, row by row.
    pub fn tiles(self) -> impl Iterator<Item = Pos> {
        let (at, n) = (self.at, self.n);
        (0..n).flat_map(move |dy| (0..n).map(move |dx| Pos::new(at.x + dx, at.y + dy)))
    }

    /// True when `p` is one of its tiles.
    pub fn contains(self, p: Pos) -> bool {
        p.x >= self.at.x && p.y >= self.at.y && p.x < self.at.x + self.n && p.y < self.at.y + self.n
    }

    /// True when the two bodies share a tile.
    pub fn overlaps(self, other: Body) -> bool {
        self.at.x < other.at.x + other.n
            && other.at.x < self.at.x + self.n
            && self.at.y < other.at.y + other.n
            && other.at.y < self.at.y + self.n
    }

    /// Its tile nearest `p` (each coordinate clamped into the square): R0.3
    /// grows with |dx| and with |dy|, so no tile is nearer.
    pub fn nearest(self, p: Pos) -> Pos {
        Pos::new(
            p.x.clamp(self.at.x, self.at.x + self.n - 1),
            p.y.clamp(self.at.y, self.at.y + self.n - 1),
        )
    }

    /// The distance from the body to `p`: the least over its tiles (R0.3,
    /// V10.6); 0 on the body.
    pub fn distance_to(self, p: Pos) -> i32 {
        self.nearest(p).distance(p)
    }

    /// The least distance between a tile of this body and one of `other`
    /// (R0.3, V10.6): 1 for bodies side by side.
    pub fn gap(self, other: Body) -> i32 {
        let axis =
            |a: i32, an: i32, b: i32, bn: i32| (b - (a + an - 1)).max(a - (b + bn - 1)).max(0);
        let dx = axis(self.at.x, self.n, other.at.x, other.n);
        let dy = axis(self.at.y, self.n, other.at.y, other.n);
        dx.max(dy) + dx.min(dy) / 2
    }

    /// Its centre in doubled coordinates (`2·at + n − 1`), exact for any
    /// side: the point facing turns about (R4.1, V10.6).
    pub fn centre2(self) -> Pos {
        Pos::new(2 * self.at.x + self.n - 1, 2 * self.at.y + self.n - 1)
    }

    /// Its tile nearest the centre of `other`, ties to the north-west: the
    /// tile an attack on `other` comes from, and a scatter starts on (V10.6).
    pub fn facing_tile(self, other: Body) -> Pos {
        let c = other.centre2();
        // floor(c / 2) picks the north-west of two tiles a centre falls between.
        self.nearest(Pos::new(c.x.div_euclid(2), c.y.div_euclid(2)))
    }
}

/// One of the eight directions of R0.2, in clockwise order from north.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Dir {
    /// North: towards row 0.
    #[default]
    N,
    /// North-east.
    NE,
    /// East: towards larger x.
    E,
    /// South-east.
    SE,
    /// South: towards larger y.
    S,
    /// South-west.
    SW,
    /// West.
    W,
    /// North-west.
    NW,
}

impl Dir {
    /// All eight directions, clockwise from north (R0.2).
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// The `(dx, dy)` of one step in this direction (y grows south).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    /// Index in [`Dir::ALL`]: 0 for N, growing clockwise.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction `steps` eighths of a turn clockwise from this one.
    pub const fn rotate(self, steps: i32) -> Dir {
        Dir::ALL[(self as i32 + steps).rem_euclid(8) as usize]
    }

    /// True for NE, SE, SW and NW.
    pub const fn is_diagonal(self) -> bool {
        (self as usize) % 2 == 1
    }

    /// The direction from `from` towards `to`, rounded to the nearest of the
    /// eight; `None` when the two are the same tile. Ties between two
    /// directions (exactly between two eighths) round clockwise.
    pub fn towards(from: Pos, to: Pos) -> Option<Dir> {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if dx == 0 && dy == 0 {
            return None;
        }
        // Compare against the eight unit vectors with integer arithmetic only,
        // so the result never depends on floating point (R0.6 determinism).
        // The best direction maximises the cosine: dot / |d|, where |d| is 1
        // for orthogonal and sqrt(2) for diagonal. Compare dot^2 scaled.
        let mut best = Dir::N;
        let mut best_score: (i64, i64) = (i64::MIN, 1);
        for dir in Dir::ALL {
            let (ux, uy) = dir.delta();
            let dot = (dx * ux + dy * uy) as i64;
            let norm = if dir.is_diagonal() { 2 } else { 1 };
            // score = sign(dot) * dot^2 / norm, compared as a fraction.
            let num = dot.signum() * dot * dot;
            let (bn, bd) = best_score;
            if num * bd > bn * norm {
                best = dir;
                best_score = (num, norm);
            }
        }
        Some(best)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_alternates_diagonals() {
        let o = Pos::new(0, 0);
        assert_eq!(o.distance(Pos::new(1, 1)), 1);
        assert_eq!(o.distance(Pos::new(2, 2)), 3);
        assert_eq!(o.distance(Pos::new(3, 3)), 4);
        assert_eq!(o.distance(Pos::new(5, 2)), 6);
        assert_eq!(o.distance(Pos::new(0, -4)), 4);
    }

    #[test]
    fn towards_rounds_to_nearest_eighth() {
        let o = Pos::new(0, 0);
        assert_eq!(Dir::towards(o, Pos::new(0, -5)), Some(Dir::N));
        assert_eq!(Dir::towards(o, Pos::new(3, 3)), Some(Dir::SE));
        assert_eq!(Dir::towards(o, Pos::new(5, 1)), Some(Dir::E));
        assert_eq!(Dir::towards(o, Pos::new(-5, -4)), Some(Dir::NW));
        assert_eq!(Dir::towards(o, o), None);
    }

    #[test]
    fn a_body_measures_from_its_nearest_tile() {
        let ogre = Body::new(Pos::new(2, 2), 2);
        assert_eq!(ogre.tiles().count(), 4);
        assert_eq!(ogre.distance_to(Pos::new(4, 3)), 1);
        assert_eq!(ogre.distance_to(Pos::new(5, 5)), 3);
        assert_eq!(ogre.distance_to(Pos::new(3, 3)), 0);
        assert_eq!(ogre.gap(Body::tile(Pos::new(1, 1))), 1);
        assert_eq!(ogre.gap(Body::new(Pos::new(4, 0), 3)), 1);
        assert_eq!(ogre.gap(Body::new(Pos::new(6, 2), 3)), 3);
        assert!(ogre.overlaps(Body::new(Pos::new(3, 3), 3)));
        assert!(!ogre.overlaps(Body::new(Pos::new(4, 2), 3)));
        assert_eq!(ogre.centre2(), Pos::new(5, 5));
        assert_eq!(ogre.facing_tile(Body::tile(Pos::new(9, 0))), Pos::new(3, 2));
    }

    #[test]
    fn rotate_wraps_clockwise() {
        assert_eq!(Dir::NW.rotate(1), Dir::N);
        assert_eq!(Dir::N.rotate(-1), Dir::NW);
        assert_eq!(Dir::E.rotate(4), Dir::W);
    }
}
