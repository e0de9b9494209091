//! The terrain fields the AI reads enemies' reach from, kept per thread:
//! a field (how soon a unit can reach each tile, units ignored: they move)
//! depends on the map and the unit's body, side and reach limit alone, and
//! the look-ahead's tries read the same enemies on the same tiles command
//! after command.

use crate::grid::Body;
use crate::load::ValidLevel;
use crate::rules::motion::movement::{CostMap, Occupancy, search};
use bevy::platform::collections::HashMap;
use std::sync::Arc;

/// The fields by level (the battle's and its look-ahead copy's), then by
/// body, side and limit. Each level is held while its fields are, so no
/// other level can take its place in memory.
type Kept = Vec<(Arc<ValidLevel>, HashMap<(Body, usize, u32), Arc<CostMap>>)>;

thread_local! {
    static KEPT: std::cell::RefCell<Kept> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Levels whose fields a thread keeps (a battle and its copy, with room).
const KEPT_LEVELS: usize = 2;

/// Fields kept per level before they are dropped and worked out anew (a
/// field of 3 moves is about 16 KB: 16 MB a level at most).
const KEPT_FIELDS: usize = 1024;

/// How soon a unit of `body` and `side` can reach each tile within
/// `limit` (units ignored), as its body walks (V10.6).
pub(super) fn field_of(
    level: &Arc<ValidLevel>,
    body: Body,
    side: usize,
    limit: u32,
) -> Arc<CostMap> {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = match kept.iter().position(|(l, _)| Arc::ptr_eq(l, level)) {
            Some(at) => at,
            None => {
                if kept.len() >= KEPT_LEVELS {
                    kept.remove(0);
                }
                kept.push((level.clone(), HashMap::default()));
                kept.len() - 1
            }
        };
        let maps = &mut kept[at].1;
        if maps.len() >= KEPT_FIELDS {
            maps.clear();
        }
        maps.entry((body, side, limit))
            .or_insert_with(|| {
                let empty = Occupancy::of_bodies(&level.map, std::iter::empty(), side, body);
                Arc::new(search(&level.map, &empty, body.at, limit))
            })
            .clone()
    })
}
