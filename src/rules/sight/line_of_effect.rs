//! R6.1 line of effect: the supercover line between two tile centres, end
//! tiles excluded. Where the line passes exactly through a tile corner it
//! touches both diagonal tiles: blocked there only if both block, and the
//! lesser cover of the two counts *(decision of RULES.md)*.
//!
//! Written here rather than taken from a line-drawing crate: the corner
//! pairs are the rule, and the crates' supercover iterators flatten them.

use crate::grid::Pos;
use crate::load::{LevelMemo, ValidLevel};
use crate::terrain::{Cover, TerrainMap};
use std::sync::Arc;

/// One step of a supercover line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The line passes through this tile.
    Tile(Pos),
    /// The line passes exactly through the corner between these two tiles.
    Corner(Pos, Pos),
}

/// The tiles between the centres of `from` and `to`, in order from `from`,
/// both ends excluded. A diagonal through a corner yields a [`Cell::Corner`]
/// for the two side tiles; the tile diagonally beyond is then entered.
pub fn supercover(from: Pos, to: Pos) -> Vec<Cell> {
    let mut out = vec![];
    walk_line(from, to, |c| {
        out.push(c);
        true
    });
    out
}

/// Calls `visit` for each cell of the supercover line from `from` to `to`
/// (as [`supercover`], without allocating), until it returns false.
pub fn walk_line(from: Pos, to: Pos, mut visit: impl FnMut(Cell) -> bool) {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let (nx, ny) = (dx.abs() as i64, dy.abs() as i64);
    let (sx, sy) = (dx.signum(), dy.signum());
    let (mut ix, mut iy) = (0i64, 0i64);
    let mut p = from;
    while ix < nx || iy < ny {
        // Compare where the line next crosses a vertical and a horizontal
        // grid line: (1 + 2ix) / nx against (1 + 2iy) / ny.
        let decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        if decision == 0 {
            let corner = Cell::Corner(Pos::new(p.x + sx, p.y), Pos::new(p.x, p.y + sy));
            if !visit(corner) {
                return;
            }
            p = Pos::new(p.x + sx, p.y + sy);
            ix += 1;
            iy += 1;
        } else if decision < 0 {
            p = Pos::new(p.x + sx, p.y);
            ix += 1;
        } else {
            p = Pos::new(p.x, p.y + sy);
            iy += 1;
        }
        if p != to && !visit(Cell::Tile(p)) {
            return;
        }
    }
}

/// What the line between two tiles meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    /// False when a blocking tile (or a corner between two) is on the line.
    pub clear: bool,
    /// The greatest cover on the line (R6.2), after the attacker-adjacent
    /// exception.
    pub cover: Cover,
    /// A tile that gives that cover, for the log.
    pub cover_at: Option<Pos>,
}

thread_local! {
    /// Lines by their two ends, for the battle's level and its look-ahead
    /// copy's: at most 2^17 a level (about 5 MB).
    static LINES: std::cell::RefCell<LevelMemo<(Pos, Pos), Sight>> =
        const { std::cell::RefCell::new(LevelMemo::new(2, 1 << 17)) };
}

/// [`sight`] on `level`'s map, remembered: a line depends on the terrain
/// alone, and every gathered ranged attack (R6.1, R6.2) and the AI's
/// reading of each tile ask the same lines again and again (a twelfth of
/// the look-ahead's time on 32×32 and 64×64).
pub fn sight_on(level: &Arc<ValidLevel>, from: Pos, to: Pos) -> Sight {
    LINES.with(|lines| {
        lines
            .borrow_mut()
            .get_or_insert_with(level, (from, to), || sight(&level.map, from, to))
    })
}

/// Line of effect and terrain cover from `from` to `to` (R6.1, R6.2): a
/// cover tile adjacent to the attacker and not to the target is ignored.
pub fn sight(map: &TerrainMap, from: Pos, to: Pos) -> Sight {
    let blocks = |p: Pos| !map.contains(p) || map.flags(p) & TerrainMap::BLOCKS_LINE != 0;
    let cover_at = |p: Pos| {
        if p.is_adjacent(from) && !p.is_adjacent(to) {
            Cover::None
        } else {
            map.cover(p)
        }
    };
    let mut sight = Sight {
        clear: true,
        cover: Cover::None,
        cover_at: None,
    };
    walk_line(from, to, |cell| {
        let (blocked, cover, at) = match cell {
            Cell::Tile(p) => (blocks(p), cover_at(p), p),
            Cell::Corner(a, b) => {
                let (ca, cb) = (cover_at(a), cover_at(b));
                (
                    blocks(a) && blocks(b),
                    ca.min(cb),
                    if ca <= cb { a } else { b },
                )
            }
        };
        if blocked {
            sight.clear = false;
        }
        if cover > sight.cover {
            sight.cover = cover;
            sight.cover_at = Some(at);
        }
        true
    });
    sight
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Pos {
        Pos::new(x, y)
    }

    /// The remembered line is the line, on each level, asked in any order
    /// and again (R6.1, R6.2).
    #[test]
    fn remembered_lines_are_each_levels_own() {
        let catalog =
            crate::load::load_catalog_dir(std::path::Path::new("assets/catalog")).unwrap();
        let levels: Vec<Arc<ValidLevel>> = ["fort", "forest", "ruins"]
            .iter()
            .map(|n| {
                let path = format!("levels/{n}.ron");
                Arc::new(
                    crate::load::load_level_file(std::path::Path::new(&path), &catalog).unwrap(),
                )
            })
            .collect();
        let mut blocked = 0;
        for _ in 0..2 {
            for level in &levels {
                let (w, h) = (level.map.width(), level.map.height());
                for i in 0..400 {
                    let a = p(i * 7 % w, i * 3 % h);
                    let b = p(i * 11 % w, i * 5 % h);
                    let line = sight_on(level, a, b);
                    assert_eq!(line, sight(&level.map, a, b), "{a} to {b}");
                    blocked += usize::from(!line.clear);
                }
            }
        }
        assert!(blocked > 0, "some lines are blocked, so the levels differ");
    }

    #[test]
    fn straight_and_diagonal_lines() {
        assert_eq!(
            supercover(p(0, 0), p(3, 0)),
            vec![Cell::Tile(p(1, 0)), Cell::Tile(p(2, 0))]
        );
        assert_eq!(
            supercover(p(0, 0), p(2, 2)),
            vec![
                Cell::Corner(p(1, 0), p(0, 1)),
                Cell::Tile(p(1, 1)),
                Cell::Corner(p(2, 1), p(1, 2)),
            ]
        );
        assert!(supercover(p(4, 4), p(5, 5)).len() == 1);
        assert!(supercover(p(4, 4), p(5, 4)).is_empty());
    }

    #[test]
    fn shallow_line_touches_every_tile_it_crosses() {
        // From (0,0) to (3,1): crosses x = 0.5 at y = 1/6, x = 1.5 at 1/2
        // (a corner), x = 2.5 at 5/6.
        assert_eq!(
            supercover(p(0, 0), p(3, 1)),
            vec![
                Cell::Tile(p(1, 0)),
                Cell::Corner(p(2, 0), p(1, 1)),
                Cell::Tile(p(2, 1)),
            ]
        );
    }

    #[test]
    fn symmetric_in_tiles() {
        for (a, b) in [(p(0, 0), p(5, 2)), (p(3, 7), p(0, 1)), (p(2, 2), p(8, 5))] {
            let mut there: Vec<String> =
                supercover(a, b).iter().map(|c| format!("{c:?}")).collect();
            let mut back: Vec<String> = supercover(b, a)
                .iter()
                .map(|c| match c {
                    Cell::Corner(x, y) => format!("{:?}", Cell::Corner(*y, *x)),
                    c => format!("{c:?}"),
                })
                .collect();
            there.sort();
            back.sort();
            assert_eq!(there, back, "{a:?} {b:?}");
        }
    }
}
