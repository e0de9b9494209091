//! Turning a validated level into a running battle.

use super::{Battlefield, Facing, GridPos, GroundObject, Health, Side, Stats, UnitId};
use crate::dice::Dice;
use crate::load::ValidLevel;
use bevy::prelude::*;

/// The battle's rules. Works headless: no window, render or tilemap plugin.
pub struct BattlePlugin;

impl Plugin for BattlePlugin {
    fn build(&self, _app: &mut App) {
        // The rules engine adds its system sets here (rounds, movement,
        // attacks...); the foundation only spawns the battle.
    }
}

/// Spawns `level`'s units and ground objects into `world` and inserts the
/// [`Battlefield`] and the seeded [`Dice`].
pub fn spawn_battle(world: &mut World, level: &ValidLevel, seed: u64) {
    for (i, unit) in level.units.iter().enumerate() {
        world.spawn((
            UnitId(i as u32),
            Name::new(unit.name.clone()),
            GridPos(unit.at),
            Facing(unit.facing),
            Side(unit.side),
            Health {
                hp: unit.stats.hp,
                max: unit.stats.hp,
            },
            Stats {
                kind: unit.kind.clone(),
                template: unit.stats.clone(),
            },
        ));
    }
    for object in level.ground() {
        world.spawn((
            GroundObject {
                name: object.item.clone(),
            },
            GridPos(object.at),
        ));
    }
    world.insert_resource(Battlefield(level.clone()));
    world.insert_resource(Dice::seeded(seed));
}

/// A headless app ([`MinimalPlugins`], no rendering, no tilemap plugin)
/// with `level`'s battle spawned, ready for tests, the AI and simulations.
pub fn headless_app(level: &ValidLevel, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, BattlePlugin));
    spawn_battle(app.world_mut(), level, seed);
    app
}
