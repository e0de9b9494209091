//! What the AI may plan against (V8.10): the enemies its side sees.

use crate::battle::{Side, hidden_from, out_of_action, units};
use bevy::prelude::*;

/// The enemies of `side` still in the battle that it sees (V8.2): all it
/// may plan against or foresee (V8.10).
pub(super) fn enemies_in_sight(world: &World, side: usize) -> Vec<Entity> {
    units(world)
        .into_iter()
        .filter(|e| world.get::<Side>(*e).is_some_and(|s| s.0 != side))
        .filter(|e| !out_of_action(world, *e))
        .filter(|e| !hidden_from(world, *e, side))
        .collect()
}
