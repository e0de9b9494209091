//! V8.1 sight: a unit in action sees a tile when a line of effect reaches
//! it (R6.1: walls block, nothing else does) and the tile is in its front
//! arc (R4.1; 002:406, 004:91). A side sees what any of its units sees.
//! Light does not limit sight (decision: the seeds give no vision range).

use crate::battle::hidden_from;
use crate::battle::{Battlefield, Facing, Side, body_of, out_of_action, units};
use crate::grid::{Body, Dir, Pos};
use crate::rules::positioning::facing::in_front_of;
use crate::rules::sight::line_of_effect::sight;
use crate::terrain::TerrainMap;
use bevy::prelude::*;

/// True when `watcher` sees `tile` (V8.1).
pub fn sees(world: &World, watcher: Entity, tile: Pos) -> bool {
    if out_of_action(world, watcher) {
        return false;
    }
    let (Some(body), Some(facing)) = (body_of(world, watcher), world.get::<Facing>(watcher)) else {
        return false;
    };
    let map = &world.resource::<Battlefield>().0.map;
    body_sees(map, body, facing.0, tile)
}

/// True when a unit in action standing as `body`, facing `facing`, sees
/// `tile` (V8.1): the window asks it of a unit where the animation shows
/// it, the rules of where it stands.
pub fn body_sees(map: &TerrainMap, body: Body, facing: Dir, tile: Pos) -> bool {
    body.contains(tile)
        || in_front_of(body, facing, tile) && sight(map, body.nearest(tile), tile).clear
}

/// True when some unit of `side` in action sees `tile` (V8.1).
pub fn side_sees_tile(world: &World, side: usize, tile: Pos) -> bool {
    units(world)
        .into_iter()
        .filter(|&u| world.get::<Side>(u).is_some_and(|s| s.0 == side))
        .any(|u| sees(world, u, tile))
}

/// True when `side` sees `unit` (V8.2): its own units always; an enemy
/// when one of its tiles is in the side's sight and it is not hidden from
/// the side.
pub fn side_sees(world: &World, side: usize, unit: Entity) -> bool {
    if world.get::<Side>(unit).is_some_and(|s| s.0 == side) {
        return true;
    }
    if hidden_from(world, unit, side) {
        return false;
    }
    body_of(world, unit).is_some_and(|b| b.tiles().any(|t| side_sees_tile(world, side, t)))
}
