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
    // Asked at every gathered attack (V7.6's modifiers), of the whole
    // roster: the component's id is looked up once, not at each unit (a
    // world that never registered it has no grapple), and a unit without
    // the component is passed over on its archetype alone.
    let grappled = world.component_id::<Grappled>()?;
    roster_of(world).iter().find_map(|&e| {
        let e = world
            .get_entity(e)
            .ok()
            .filter(|e| e.contains_id(grappled))?;
        e.get::<Grappled>()
            .filter(|g| g.by == unit)
            .map(|g| (e.id(), *g))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Roster;

    /// [`grappling`] finds the one a unit grapples, among units before and
    /// after it in the roster, and no one for a unit that grapples nobody,
    /// in a world where no one was ever grappled too (V7.6).
    #[test]
    fn grappling_finds_the_grappled_by_its_grappler() {
        let mut world = World::new();
        let units: Vec<Entity> = (0..4).map(|_| world.spawn_empty().id()).collect();
        let mut roster = Roster::default();
        for (i, &e) in units.iter().enumerate() {
            roster.add(&format!("u{i}"), e);
        }
        world.insert_resource(roster);
        assert_eq!(grappling(&world, units[0]), None, "nothing registered");
        let g = Grappled {
            by: units[3],
            hold: Hold::Held,
            kept: 2,
        };
        world.entity_mut(units[1]).insert(g);
        assert_eq!(grappling(&world, units[3]), Some((units[1], g)));
        assert_eq!(partner(&world, units[3]), Some(units[1]));
        assert_eq!(partner(&world, units[1]), Some(units[3]));
        for &other in &units[..3] {
            assert_eq!(grappling(&world, other), None);
        }
        world.entity_mut(units[1]).remove::<Grappled>();
        assert_eq!(grappling(&world, units[3]), None);
    }
}
