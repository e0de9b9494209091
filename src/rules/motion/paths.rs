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

use crate::grid::{Body, Dir, Pos};
use crate::rules::command::Refusal;
use crate::rules::rule::Rule;
use crate::terrain::{Movement, TerrainMap};
use std::collections::HashMap;

/// Who stands where, as the mover sees it, and the mover's body (V10.6).
#[derive(Clone, Debug)]
pub struct Occupancy {
    width: i32,
    cells: Vec<Occupant>,
    n: i32,
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
    /// Occupancy of `map` as seen by a one-tile unit of side `side` at
    /// `mover`, among one-tile units.
    pub fn new(
        map: &TerrainMap,
        units: impl Iterator<Item = (Pos, usize)>,
        side: usize,
        mover: Pos,
    ) -> Self {
        Self::of_bodies(
            map,
            units.map(|(p, s)| (Body::tile(p), s)),
            side,
            Body::tile(mover),
        )
    }

    /// Occupancy of `map` as seen by a unit of side `side` whose body is
    /// `mover`: every tile of every other body is taken (V10.6).
    pub fn of_bodies(
        map: &TerrainMap,
        units: impl Iterator<Item = (Body, usize)>,
        side: usize,
        mover: Body,
    ) -> Self {
        let mut cells = vec![Occupant::Empty; (map.width() * map.height()) as usize];
        for (b, s) in units {
            if b == mover {
                continue;
            }
            for p in b.tiles().filter(|p| map.contains(*p)) {
                let cell = &mut cells[(p.y * map.width() + p.x) as usize];
                // An enemy's tile stays an enemy's under an ally's.
                if *cell != Occupant::Enemy {
                    *cell = if s == side {
                        Occupant::Ally
                    } else {
                        Occupant::Enemy
                    };
                }
            }
        }
        Self {
            width: map.width(),
            cells,
            n: mover.n.max(1),
        }
    }

    /// The side of the mover's body (V10.6).
    pub fn n(&self) -> i32 {
        self.n
    }

    /// The mover's body anchored at `anchor`.
    pub fn body_at(&self, anchor: Pos) -> Body {
        Body::new(anchor, self.n)
    }

    /// Who stands in the mover's body anchored at `anchor`: an enemy on any
    /// of its tiles, else an ally on any, else nobody (callers check the
    /// body is on the map).
    pub fn under(&self, anchor: Pos) -> Occupant {
        if self.n == 1 {
            return self.at(anchor);
        }
        let mut worst = Occupant::Empty;
        for t in self.body_at(anchor).tiles() {
            match self.at(t) {
                Occupant::Enemy => return Occupant::Enemy,
                Occupant::Ally => worst = Occupant::Ally,
                Occupant::Empty => {}
            }
        }
        worst
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
    /// A rise or drop of 2 m or more: a Jump or a fall, never a step
    /// (V9.1).
    Ledge,
}

/// The rise in metres of each tile a step enters over the tile of the body
/// it comes from (V9.1: the tile behind it in the step's direction).
fn rises(map: &TerrainMap, from: Pos, n: i32, dir: Dir) -> impl Iterator<Item = (Pos, i32)> + '_ {
    let back = dir.rotate(4);
    entered(from, n, dir).map(move |t| (t, map.elevation(t) - map.elevation(t.step(back))))
}

/// Whether a step climbs (V9.1: up 1 m costs as difficult terrain).
fn climbs(map: &TerrainMap, from: Pos, n: i32, dir: Dir) -> bool {
    rises(map, from, n, dir).any(|(_, rise)| rise == 1)
}

/// Where a body of side `n` walking `path` from `start` climbs 1 m, each
/// step costing as difficult terrain (V9.1): the anchors stepped to, for
/// the path preview to name.
pub fn climbs_along(map: &TerrainMap, start: Pos, n: i32, path: &[Pos]) -> Vec<Pos> {
    std::iter::once(start)
        .chain(path.iter().copied())
        .zip(path.iter().copied())
        .filter(|&(from, to)| Dir::towards(from, to).is_some_and(|d| climbs(map, from, n, d)))
        .map(|(_, to)| to)
        .collect()
}

/// The tiles a body of side `n` anchored at `from` enters by one step in
/// `dir`: the leading edge, a column or a row, both for a diagonal
/// (V10.6). For one tile, the tile stepped to.
pub fn entered(from: Pos, n: i32, dir: Dir) -> impl Iterator<Item = Pos> {
    let old = Body::new(from, n);
    Body::new(from.step(dir), n)
        .tiles()
        .filter(move |t| !old.contains(*t))
}

/// The two tiles beside the leading corner of a diagonal step of a body of
/// side `n` from `from` (R5.1 on the leading edge, V10.6): for one tile,
/// the two orthogonal neighbours the diagonal passes between.
pub fn corners(from: Pos, n: i32, dir: Dir) -> [Pos; 2] {
    let (dx, dy) = dir.delta();
    let lead_x = if dx > 0 { from.x + n } else { from.x - 1 };
    let lead_y = if dy > 0 { from.y + n } else { from.y - 1 };
    let back_x = if dx > 0 { from.x } else { from.x + n - 1 };
    let back_y = if dy > 0 { from.y } else { from.y + n - 1 };
    [Pos::new(lead_x, back_y), Pos::new(back_x, lead_y)]
}

/// What blocks a step from `from` in direction `dir`, if anything: for a
/// body (V10.6), any tile it enters off the map, impassable or an enemy's,
/// and the corner rule on its leading edge. No allocation: this is the
/// inner loop of every path search.
pub fn step_block(map: &TerrainMap, occ: &Occupancy, from: Pos, dir: Dir) -> Option<Block> {
    step_block_at(map, occ, from, dir).map(|(b, _)| b)
}

/// [`step_block`] with the tile that blocks.
fn step_block_at(map: &TerrainMap, occ: &Occupancy, from: Pos, dir: Dir) -> Option<(Block, Pos)> {
    let to = from.step(dir);
    let n = occ.n;
    if n == 1 {
        if !map.contains(to) {
            return Some((Block::OffMap, to));
        }
        if !map.is_passable(to) {
            return Some((Block::Impassable, to));
        }
        if occ.at(to) == Occupant::Enemy {
            return Some((Block::Enemy, to));
        }
        if (map.elevation(to) - map.elevation(from)).abs() >= 2 {
            return Some((Block::Ledge, to));
        }
    } else {
        for t in entered(from, n, dir) {
            if !map.contains(t) {
                return Some((Block::OffMap, t));
            }
            if !map.is_passable(t) {
                return Some((Block::Impassable, t));
            }
            if occ.at(t) == Occupant::Enemy {
                return Some((Block::Enemy, t));
            }
        }
        if let Some((t, _)) = rises(map, from, n, dir).find(|(_, rise)| rise.abs() >= 2) {
            return Some((Block::Ledge, t));
        }
    }
    if dir.is_diagonal() {
        for c in corners(from, n, dir) {
            if !map.is_passable(c) {
                return Some((Block::Corner, c));
            }
        }
    }
    None
}

/// [`step_block`] as a refusal that cites the rule.
pub fn step_blocked(map: &TerrainMap, occ: &Occupancy, from: Pos, dir: Dir) -> Option<Refusal> {
    let to = from.step(dir);
    step_block_at(map, occ, from, dir).map(|(block, t)| match block {
        Block::OffMap => Refusal::new(Rule::R0_1, format!("{t} is off the map")),
        Block::Impassable => {
            let name = map.get(t).map_or("?", |t| t.name.as_str());
            Refusal::new(Rule::R5_2, format!("{t} is impassable ({name})"))
        }
        Block::Enemy => Refusal::new(Rule::R5_2, format!("an enemy stands on {t}")),
        Block::Corner => Refusal::new(
            Rule::R5_1,
            format!("the diagonal {from} → {to} cuts a corner"),
        ),
        Block::Ledge => {
            let (up, down) = (map.elevation(t), map.elevation(t.step(dir.rotate(4))));
            let (what, m) = if up > down {
                ("rises", up - down)
            } else {
                ("drops", down - up)
            };
            Refusal::new(
                Rule::V9_1,
                format!("the ground {what} {m} m at {t}: a ledge needs a Jump, not a step"),
            )
        }
    })
}

/// The movement cost of stepping from state `(from, odd)` in `dir`
/// (R5.1): 1 orthogonal, 1 or 2 diagonal by parity, doubled into difficult
/// terrain — for a body, doubled when any tile it enters is difficult
/// (V10.6: the most expensive tile entered). Returns the next state and the
/// cost.
pub fn step_cost(
    map: &TerrainMap,
    occ: &Occupancy,
    (from, odd): MoveState,
    dir: Dir,
) -> (MoveState, u32) {
    let to = from.step(dir);
    let (base, odd) = if dir.is_diagonal() {
        (if odd { 2 } else { 1 }, !odd)
    } else {
        (1, odd)
    };
    let hard = |p: Pos| {
        map.get(p)
            .is_some_and(|t| t.movement == Movement::Difficult)
    };
    let difficult = if occ.n == 1 {
        hard(to)
    } else {
        entered(from, occ.n, dir).any(hard)
    };
    // V9.1: up 1 m costs as difficult terrain (the two do not add up).
    let difficult = difficult || climbs(map, from, occ.n, dir);
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
    // Bodies and heights (V10.6, V9.1) ask every step in full.
    if occ.n > 1 || map.has_heights() {
        return search_body(map, occ, start, limit);
    }
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

/// [`search`] for a body larger than a tile (V10.6), or on a map with
/// heights (V9.1): states are anchors,
/// each step asks [`step_block`] and [`step_cost`] (its leading edge), in
/// the same bucket order. Big bodies are few: no flattening.
fn search_body(map: &TerrainMap, occ: &Occupancy, start: Pos, limit: u32) -> CostMap {
    let span = limit.min((map.width() + map.height()) as u32) as i32;
    let (x0, y0) = ((start.x - span).max(0), (start.y - span).max(0));
    let x1 = (start.x + span).min(map.width() - 1);
    let y1 = (start.y + span).min(map.height() - 1);
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
                continue;
            }
            let state = (out.pos(s >> 1), s & 1 == 1);
            for dir in Dir::ALL {
                if step_block(map, occ, state.0, dir).is_some() {
                    continue;
                }
                let ((to, odd), c) = step_cost(map, occ, state, dir);
                let Some(n) = out.index(to) else {
                    continue;
                };
                let next = (n << 1) | odd as usize;
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
/// not listed. For a body (V10.6) the tiles are anchors, and every tile of
/// the body at the end must be free.
pub fn reachable(map: &TerrainMap, occ: &Occupancy, start: Pos, speed: u32) -> HashMap<Pos, Reach> {
    let costs = search(map, occ, start, speed);
    costs
        .tiles()
        .filter(|(p, _)| *p != start && occ.under(*p) == Occupant::Empty)
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
        let (s, c) = step_cost(map, occ, state, dir);
        state = s;
        total += c;
    }
    Ok(total)
}
