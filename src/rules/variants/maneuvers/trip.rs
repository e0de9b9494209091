//! V7.4 Trip (Acrobatics; 002:555–561): success knocks the target prone
//! (R4.8). The target may be at most one size category larger (checked
//! with every maneuver, `check_maneuver`); the trip reaches as far as the
//! weapon it is made with.

use crate::battle::Prone;
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// A trip that succeeded: `target` falls prone (R4.8, V7.4).
pub fn knock_down(world: &mut World, unit: Entity, target: Entity) {
    fell(world, unit, target, Rule::V7_4);
}

/// `target` falls prone by `unit`'s doing, as `rule` says (a trip, V7.4;
/// forced down in a grapple, V7.6). Already prone, nothing happens.
pub fn fell(world: &mut World, unit: Entity, target: Entity, rule: Rule) {
    if world.entity(target).contains::<Prone>() {
        return;
    }
    world.entity_mut(target).insert(Prone);
    let (unit, by) = (id_of(world, target), id_of(world, unit));
    emit(world, BattleEvent::KnockedDown { unit, by, rule });
}
