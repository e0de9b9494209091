//! The terrain fields the AI reads enemies' reach from, kept per thread:
//! a field (how soon a unit can reach each tile, units ignored: they move)
//! depends on the map and the unit's body, side and reach limit alone, and
//! the look-ahead's tries read the same enemies on the same tiles command
//! after command.

use crate::grid::Body;
use crate::load::{LevelMemo, ValidLevel};
use crate::rules::motion::movement::{CostMap, Occupancy, search};
use std::sync::Arc;

thread_local! {
    /// By body, side and limit, for the battle's level and its copy's. At
    /// most 1024 a level (a field of 3 moves is about 16 KB: 16 MB a level).
    static KEPT: std::cell::RefCell<LevelMemo<(Body, usize, u32), Arc<CostMap>>> =
        const { std::cell::RefCell::new(LevelMemo::new(2, 1024)) };
}

/// How soon a unit of `body` and `side` can reach each tile within
/// `limit` (units ignored), as its body walks (V10.6).
pub(super) fn field_of(
    level: &Arc<ValidLevel>,
    body: Body,
    side: usize,
    limit: u32,
) -> Arc<CostMap> {
    KEPT.with(|kept| {
        kept.borrow_mut()
            .get_or_insert_with(level, (body, side, limit), || {
                let empty = Occupancy::of_bodies(&level.map, std::iter::empty(), side, body);
                Arc::new(search(&level.map, &empty, body.at, limit))
            })
    })
}
