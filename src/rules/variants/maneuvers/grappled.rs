//! The lasting state of a grapple (V7.6): who holds whom, and how firmly.

use crate::battle::roster_of;
use crate::rules::command::Hold;
use bevy::prelude::*;

/// Grappled (V7.6): on the grappled unit, naming its grappler.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grappled {
    /// The grappler.
    pub by: Entity,
    /// Grabbed or held.
    pub hold: Hold,
    /// The round whose turn of the grappler kept it last (seized or
    /// sustained).
    pub kept: u32,
}

/// The unit `unit` grapples, and how.
pub fn grappling(world: &World, unit: Entity) -> Option<(Entity, Grappled)> {
    roster_of(world).iter().find_map(|&e| {
        world
            .get::<Grappled>(e)
            .filter(|g| g.by == unit)
            .map(|g| (e, *g))
    })
}

/// The unit `unit` is in a grapple with (as grappler or grappled).
pub fn partner(world: &World, unit: Entity) -> Option<Entity> {
    world
        .get::<Grappled>(unit)
        .map(|g| g.by)
        .or_else(|| grappling(world, unit).map(|(t, _)| t))
}

/// How firmly `by` grapples `unit` ([`Hold::Free`] if it does not).
pub fn hold_on(world: &World, unit: Entity, by: Entity) -> Hold {
    world
        .get::<Grappled>(unit)
        .filter(|g| g.by == by)
        .map_or(Hold::Free, |g| g.hold)
}
