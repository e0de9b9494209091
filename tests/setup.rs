//! A validated level becomes a headless battle app.

use crate::common::level;
use bevy::prelude::*;
use skirmish::battle::{Battlefield, Facing, GridPos, GroundObject, Health, Side, UnitId};
use skirmish::setup::headless_app;

#[test]
fn headless_app_spawns_every_unit_and_object() {
    for name in ["ford.ron", "forest.ron", "pass.ron"] {
        let level = level(name);
        let mut app = headless_app(&level, 1);
        app.update();
        let world = app.world_mut();
        let mut units: Vec<_> = world
            .query::<(&UnitId, &Name, &GridPos, &Facing, &Side, &Health)>()
            .iter(world)
            .map(|(id, n, p, f, s, h)| (id.0, n.to_string(), p.0, f.0, s.0, h.hp))
            .collect();
        units.sort();
        let expected: Vec<_> = level
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| (i as u32, u.name.clone(), u.at, u.facing, u.side, u.stats.hp))
            .collect();
        assert_eq!(units, expected, "{name}");
        let ground = world
            .query::<(&GroundObject, &GridPos)>()
            .iter(world)
            .count();
        assert_eq!(ground, level.ground().len());
        assert_eq!(world.resource::<Battlefield>().0.name(), level.name());
    }
}

#[test]
fn unit_overrides_reach_the_spawned_unit() {
    let mut level = level("ford.ron");
    level.units[0].stats.hp = 3;
    let mut app = headless_app(&level, 1);
    let world = app.world_mut();
    let hp: Vec<_> = world
        .query::<(&UnitId, &Health)>()
        .iter(world)
        .filter(|(id, _)| id.0 == 0)
        .map(|(_, h)| h.hp)
        .collect();
    assert_eq!(hp, [3]);
}
