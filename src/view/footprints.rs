//! How the window turns a tile under the mouse into a big body's Move
//! (V10.6). The rules place a body by its north-west tile (its anchor); a
//! player points at where the body should stand. So the window shades
//! every tile some reachable body would cover, and a click on a tile moves
//! the body centred on it, or the nearest reachable one that covers it.

use crate::grid::{Body, Pos};
use crate::rules::motion::movement::Reach;
use bevy::prelude::*;
use std::collections::HashMap;

/// The anchor of the Move a click on `tile` means for a body of side `n`,
/// among the anchors `reach` holds: the body covering `tile` whose centre
/// is nearest it, then the cheapest, then the first by position. `None`
/// when no reachable body covers the tile. A 1-tile body's anchor is the
/// tile itself.
pub fn move_anchor(reach: &HashMap<Pos, Reach>, tile: Pos, n: i32) -> Option<Pos> {
    if n <= 1 {
        return reach.contains_key(&tile).then_some(tile);
    }
    let target = Pos::new(2 * tile.x, 2 * tile.y);
    (0..n)
        .flat_map(|dy| (0..n).map(move |dx| Pos::new(tile.x - dx, tile.y - dy)))
        .filter_map(|a| Some((a, reach.get(&a)?)))
        .min_by_key(|(a, r)| {
            let c = Body { at: *a, n }.centre2();
            let off = (c.x - target.x).pow(2) + (c.y - target.y).pow(2);
            (off, r.cost, (a.y, a.x))
        })
        .map(|(a, _)| a)
}

/// Every tile a reachable body of side `n` would cover, with the least
/// movement cost of the bodies covering it: what the move shading paints.
pub fn covered_costs(reach: &HashMap<Pos, Reach>, n: i32) -> HashMap<Pos, u32> {
    let mut out: HashMap<Pos, u32> = HashMap::new();
    for (a, r) in reach {
        for t in (Body { at: *a, n }).tiles() {
            let c = out.entry(t).or_insert(r.cost);
            *c = (*c).min(r.cost);
        }
    }
    out
}

/// The side of `unit`'s body: 1, or 2 and 3 for big bodies (V10.6).
pub fn size_of(world: &World, unit: Entity) -> i32 {
    crate::battle::body_of(world, unit).map_or(1, |b| b.n)
}

/// Paints every tile of `unit`'s body in `color`.
pub fn mark_body(world: &World, unit: Entity, marks: &mut HashMap<Pos, Color>, color: Color) {
    for t in crate::battle::body_of(world, unit)
        .iter()
        .flat_map(|b| b.tiles())
    {
        marks.insert(t, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(anchors: &[(i32, i32, u32)]) -> HashMap<Pos, Reach> {
        anchors
            .iter()
            .map(|&(x, y, cost)| {
                let path = vec![Pos::new(x, y)];
                (Pos::new(x, y), Reach { cost, path })
            })
            .collect()
    }

    #[test]
    fn a_click_moves_the_big_body_centred_on_the_tile() {
        // A 3×3 body: the tile (5, 5) is the centre of the body from (4, 4).
        let r = reach(&[(4, 4, 3), (5, 5, 1), (3, 3, 2)]);
        assert_eq!(move_anchor(&r, Pos::new(5, 5), 3), Some(Pos::new(4, 4)));
        // Without that body, the nearest-centred one that covers it.
        let r = reach(&[(5, 5, 1), (3, 3, 2)]);
        assert_eq!(move_anchor(&r, Pos::new(5, 5), 3), Some(Pos::new(5, 5)));
        assert_eq!(move_anchor(&r, Pos::new(9, 9), 3), None);
    }

    #[test]
    fn a_2x2_body_takes_the_cheapest_of_its_four_centred_bodies() {
        let r = reach(&[(2, 2, 4), (1, 1, 2), (1, 2, 2), (2, 1, 3)]);
        assert_eq!(move_anchor(&r, Pos::new(2, 2), 2), Some(Pos::new(1, 1)));
        assert_eq!(move_anchor(&r, Pos::new(2, 2), 1), Some(Pos::new(2, 2)));
        assert_eq!(move_anchor(&r, Pos::new(3, 3), 1), None);
    }

    #[test]
    fn the_shading_covers_every_reachable_body_at_its_least_cost() {
        let r = reach(&[(1, 1, 2), (2, 1, 1)]);
        let c = covered_costs(&r, 2);
        assert_eq!(c.len(), 6);
        assert_eq!(c[&Pos::new(1, 1)], 2);
        assert_eq!(c[&Pos::new(2, 2)], 1);
        assert_eq!(c[&Pos::new(3, 1)], 1);
    }
}
