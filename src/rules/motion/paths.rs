//! R5.1–R5.2 on the map: what a step costs (orthogonal 1, diagonals
//! alternating 1 and 2 within one Move, difficult terrain doubling), what
//! blocks it (no corner cutting, allies passable but enemies not), and the
//! cheapest paths and reachable tiles a Move, the window and the AI ask for.
//!
//! Paths are searched with Dijkstra over states `(tile, diagonal parity)`:
//! the cost of the next diagonal depends on how many diagonals this Move has
//! taken, so the tile alone is not a state. The search is specialised to the
//! grid (flat arrays, a bucket queue: every step costs 1 to 4), since the
//! generic `pathfinding` crate, hashing every state, measured 33.7 ms for a
//! 256×256 map against the 5 ms this game needs for its AI.

use crate::grid::{Dir, Pos};
use crate::rules::command::Refusal;
use crate::rules::rule::Rule;
use crate::terrain::{Movement, TerrainMap};
use std::collections::HashMap;

/// Who stands where, as the mover sees it.
#[derive(Clone, Debug)]
pub struct Occupancy {
    width: i32,
    cells: Vec<Occupant>,
}

/// What stands on a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occupant {
    /// Nobody (or the dead: bodies do not block).
    Empty,
    /// A unit of the mover's side: passable, but no place to stop (R5.2).
    Ally,
    /// Any other unit: not enterable (R5.2).
    Enemy,
}

impl Occupancy {
    /// Occupancy of `map` as seen by a unit of side `side` at `mover`.
    pub fn new(
        map: &TerrainMap,
        units: impl Iterator<Item = (Pos, usize)>,
        side: usize,
        mover: Pos,
    ) -> Self {
        let mut cells = vec![Occupant::Empty; (map.width() * map.height()) as usize];
        for (p, s) in units {
            if map.contains(p) && p != mover {
                cells[(p.y * map.width() + p.x) as usize] = if s == side {
                    Occupant::Ally
                } else {
                    Occupant::Enemy
                };
            }
        }
        Self {
            width: map.width(),
            cells,
        }
    }

    /// Who is at `p` (callers check `p` is on the map).
    pub fn at(&self, p: Pos) -> Occupant {
        self.cells
            .get((p.y * self.width + p.x) as usize)
            .copied()
            .unwrap_or(Occupant::Empty)
    }
}

/// A search state: a tile and whether the Move has taken an odd number of
/// diagonal steps (the next diagonal then costs 2).
pub type MoveState = (Pos, bool);

/// Why a single step is not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// Off the map (R0.1).
    OffMap,
    /// Impassable terrain (R5.2).
    Impassable,
    /// An enemy stands there (R5.2).
    Enemy,
    /// A diagonal that cuts the corner of impassable terrain (R5.1).
    Corner,
}

/// What blocks a step from `from` in direction `dir`, if anything. No
/// allocation: this is the inner loop of every path search.
pub fn step_block(map: &TerrainMap, occ: &Occupancy, from: Pos, dir: Dir) -> Option<Block> {
    let to = from.step(dir);
    if !map.contains(to) {
        return Some(Block::OffMap);
    }
    if !map.is_passable(to) {
        return Some(Block::Impassable);
    }
    if occ.at(to) == Occupant::Enemy {
        return Some(Block::Enemy);
    }
    if dir.is_diagonal()
        && (!map.is_passable(Pos::new(to.x, from.y)) || !map.is_passable(Pos::new(from.x, to.y)))
    {
        return Some(Block::Corner);
    }
    None
}

/// [`step_block`] as a refusal that cites the rule.
pub fn step_blocked(map: &TerrainMap, occ: &Occupancy, from: Pos, dir: Dir) -> Option<Refusal> {
    let to = from.step(dir);
    step_block(map, occ, from, dir).map(|block| match block {
        Block::OffMap => Refusal::new(Rule::R0_1, format!("{to} is off the map")),
        Block::Impassable => {
            let name = map.get(to).map_or("?", |t| t.name.as_str());
            Refusal::new(Rule::R5_2, format!("{to} is impassable ({name})"))
        }
        Block::Enemy => Refusal::new(Rule::R5_2, format!("an enemy stands on {to}")),
        Block::Corner => Refusal::new(
            Rule::R5_1,
            format!("the diagonal {from} → {to} cuts a corner"),
        ),
    })
}

/// The movement cost of stepping from state `(from, odd)` in `dir`
/// (R5.1): 1 orthogonal, 1 or 2 diagonal by parity, doubled into difficult
/// terrain. Returns the next state and the cost.
pub fn step_cost(map: &TerrainMap, (from, odd): MoveState, dir: Dir) -> (MoveState, u32) {
    let to = from.step(dir);
    let (base, odd) = if dir.is_diagonal() {
        (if odd { 2 } else { 1 }, !odd)
    } else {
        (1, odd)
    };
    let difficult = map
        .get(to)
        .is_some_and(|t| t.movement == Movement::Difficult);
    ((to, odd), if difficult { base * 2 } else { base })
}

/// The costs of every `(tile, parity)` state from a start, with parents to
/// rebuild paths: the result of [`search`]. It covers a window of the map:
/// a bounded search never looks farther than its limit.
#[derive(Clone, Debug)]
pub struct CostMap {
    x0: i32,
    y0: i32,
    width: i32,
    height: i32,
    cost: Vec<u32>,
    parent: Vec<u32>,
}

const UNREACHED: u32 = u32::MAX;

const PASSABLE: u8 = TerrainMap::PASSABLE;

const DIFFICULT: u8 = TerrainMap::DIFFICULT;

const ENEMY: u8 = 4;

impl CostMap {
    fn index(&self, p: Pos) -> Option<usize> {
        let (x, y) = (p.x - self.x0, p.y - self.y0);
        (x >= 0 && y >= 0 && x < self.width && y < self.height)
            .then(|| (y * self.width + x) as usize)
    }

    fn pos(&self, tile: usize) -> Pos {
        let tile = tile as i32;
        Pos::new(self.x0 + tile % self.width, self.y0 + tile / self.width)
    }

    /// The cheapest cost to end a Move on `p`, if it was reached.
    pub fn cost(&self, p: Pos) -> Option<u32> {
        let i = self.index(p)? << 1;
        let c = self.cost[i].min(self.cost[i + 1]);
        (c != UNREACHED).then_some(c)
    }

    /// The cheapest path to `p` (start excluded, `p` included).
    pub fn path(&self, p: Pos) -> Option<Vec<Pos>> {
        self.cost(p)?;
        let i = self.index(p)? << 1;
        let mut s = if self.cost[i] <= self.cost[i + 1] {
            i
        } else {
            i + 1
        };
        let mut path = vec![];
        while self.parent[s] != UNREACHED {
            path.push(self.pos(s >> 1));
            s = self.parent[s] as usize;
        }
        path.reverse();
        Some(path)
    }

    /// Every reached tile with its cheapest cost, row by row.
    pub fn tiles(&self) -> impl Iterator<Item = (Pos, u32)> + '_ {
        (0..(self.width * self.height) as usize).filter_map(|t| {
            let c = self.cost[t << 1].min(self.cost[(t << 1) + 1]);
            (c != UNREACHED).then(|| (self.pos(t), c))
        })
    }
}

/// Dijkstra from `start` over `(tile, parity)` states, up to cost `limit`
/// (R5.1 costs; R5.2 passability; no corner cutting). Deterministic: ties
/// are settled in the order states were reached, directions clockwise from
/// north. The same rules as [`step_block`] and [`step_cost`], flattened into
/// arrays for speed (the AI runs it for every unit).
pub fn search(map: &TerrainMap, occ: &Occupancy, start: Pos, limit: u32) -> CostMap {
    // Every step costs at least 1: a search limited to `limit` stays within
    // `limit` tiles of the start.
    // The window is padded with one impassable tile on every side, so the
    // inner loop needs no bounds checks.
    let span = limit.min((map.width() + map.height()) as u32) as i32;
    let (x0, y0) = ((start.x - span).max(0) - 1, (start.y - span).max(0) - 1);
    let x1 = (start.x + span).min(map.width() - 1) + 1;
    let y1 = (start.y + span).min(map.height() - 1) + 1;
    let (width, height) = ((x1 - x0 + 1).max(0), (y1 - y0 + 1).max(0));
    let tiles = (width * height) as usize;
    let mut out = CostMap {
        x0,
        y0,
        width,
        height,
        cost: vec![UNREACHED; tiles * 2],
        parent: vec![UNREACHED; tiles * 2],
    };
    let Some(first) = out.index(start).filter(|_| map.contains(start)) else {
        return out;
    };
    let mut flags = vec![0u8; tiles];
    for wy in 0..height {
        for wx in 0..width {
            let p = Pos::new(x0 + wx, y0 + wy);
            let f = map.flags(p) & (PASSABLE | DIFFICULT);
            let enemy = f != 0 && p != start && occ.at(p) == Occupant::Enemy;
            flags[(wy * width + wx) as usize] = if enemy { f | ENEMY } else { f };
        }
    }
    // A bucket queue: steps cost 1 to 4, so 5 buckets indexed by cost mod 5
    // hold the whole frontier in cost order.
    // Per direction: the index offset, whether diagonal, and its dx.
    let offsets: [(i32, bool, i32); 8] = Dir::ALL.map(|d| {
        let (dx, dy) = d.delta();
        (dy * width + dx, d.is_diagonal(), dx)
    });
    let mut buckets: [Vec<u32>; 5] = Default::default();
    out.cost[first << 1] = 0;
    buckets[0].push((first << 1) as u32);
    let mut pending = 1usize;
    let mut current = 0u32;
    while pending > 0 && current <= limit {
        let bucket = std::mem::take(&mut buckets[(current % 5) as usize]);
        pending -= bucket.len();
        for s in bucket {
            let s = s as usize;
            if out.cost[s] != current {
                continue; // reached more cheaply since it was queued
            }
            let (t, odd) = ((s >> 1) as i32, s & 1 == 1);
            for &(offset, diagonal, dx) in &offsets {
                let n = (t + offset) as usize;
                let f = flags[n];
                if f & PASSABLE == 0 || f & ENEMY != 0 {
                    continue;
                }
                let (base, next_odd) = if diagonal {
                    // R5.1: both orthogonal neighbours passable. For a
                    // diagonal offset dy·w + dx they are t + dx and t + dy·w.
                    let side_a = flags[(t + dx) as usize];
                    let side_b = flags[(t + offset - dx) as usize];
                    if side_a & PASSABLE == 0 || side_b & PASSABLE == 0 {
                        continue;
                    }
                    (if odd { 2 } else { 1 }, !odd)
                } else {
                    (1, odd)
                };
                let c = if f & DIFFICULT != 0 { base * 2 } else { base };
                let next = (n << 1) | next_odd as usize;
                let total = current + c;
                if total < out.cost[next] && total <= limit {
                    out.cost[next] = total;
                    out.parent[next] = s as u32;
                    buckets[(total % 5) as usize].push(next as u32);
                    pending += 1;
                }
            }
        }
        current += 1;
    }
    out
}

/// A tile reachable in one Move, with its cost and the path to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Movement spent.
    pub cost: u32,
    /// The tiles walked through, the start excluded, the end included.
    pub path: Vec<Pos>,
}

/// Every tile a unit at `start` with `speed` can end a Move on, with the
/// cheapest cost and path (R5). Tiles held by allies are passed through but
/// not listed.
pub fn reachable(map: &TerrainMap, occ: &Occupancy, start: Pos, speed: u32) -> HashMap<Pos, Reach> {
    let costs = search(map, occ, start, speed);
    costs
        .tiles()
        .filter(|(p, _)| *p != start && occ.at(*p) == Occupant::Empty)
        .map(|(p, cost)| {
            let path = costs.path(p).unwrap_or_default();
            (p, Reach { cost, path })
        })
        .collect()
}

/// The cheapest movement cost from `start` to every tile it can reach on
/// the map in one Move of unlimited speed (threat maps, the AI's distances).
pub fn distances(map: &TerrainMap, occ: &Occupancy, start: Pos) -> CostMap {
    search(map, occ, start, u32::MAX - 8)
}

/// The cost of walking `path` from `start` in one Move, or why it cannot be
/// walked (R5.1, R5.2).
pub fn path_cost(
    map: &TerrainMap,
    occ: &Occupancy,
    start: Pos,
    path: &[Pos],
) -> Result<u32, Refusal> {
    let mut state = (start, false);
    let mut total = 0;
    for &next in path {
        let dir = Dir::ALL
            .into_iter()
            .find(|d| state.0.step(*d) == next)
            .ok_or_else(|| {
                Refusal::new(Rule::R5_3, format!("{next} is not next to {}", state.0))
            })?;
        if let Some(r) = step_blocked(map, occ, state.0, dir) {
            return Err(r);
        }
        let (s, c) = step_cost(map, state, dir);
        state = s;
        total += c;
    }
    Ok(total)
}
