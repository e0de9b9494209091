//! Turning a validated level into a running battle: the battle's plugin,
//! its units spawned, and the headless app every test, simulation and the
//! AI run on. Above the rules: it starts them.

use crate::battle::{
    ActionPoints, ArmorReduction, Battlefield, Facing, Footprint, GridPos, GroundObject, Health,
    Inventory, OffGuard, Reactions, Roster, Side, Stamina, Stats, Tally, UnitId, refresh_reach,
};
use crate::dice::Dice;
use crate::load::ValidLevel;
use crate::rules::RulesPlugin;
use crate::rules::turns::turn::begin_battle;
use bevy::prelude::*;

/// The battle's rules. Works headless: no window, render or tilemap plugin.
pub struct BattlePlugin;

impl Plugin for BattlePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(RulesPlugin);
    }
}

/// Spawns `level`'s units and ground objects into `world` and inserts the
/// [`Battlefield`] and the `dice`.
pub fn spawn_battle(world: &mut World, level: &ValidLevel, dice: Dice) {
    let catalog = &level.catalog;
    // Registered before any rider mounts: `body_of`'s query needs it.
    world.register_component::<crate::battle::Riding>();
    let mut roster = Roster::default();
    for (i, unit) in level.units.iter().enumerate() {
        let t = &unit.stats;
        let ar = t
            .armor
            .as_ref()
            .and_then(|a| catalog.armor(a))
            .map_or(0, |a| a.ar)
            + t.shield
                .as_ref()
                .and_then(|s| catalog.shield(s))
                .map_or(0, |s| s.ar);
        let entity = world.spawn((
            (
                UnitId(i as u32),
                Name::new(unit.name.clone()),
                GridPos(unit.at),
                Footprint(if level.rules().size { t.size.side() } else { 1 }),
                Facing(unit.facing),
                Side(unit.side),
            ),
            (
                Health {
                    hp: t.hp,
                    max: t.hp,
                },
                ArmorReduction(ar),
                // Under Energy the pool is 10 + 2 × CON + training (V5.3).
                Stamina(if level.rules().actions == crate::format::Actions::Energy {
                    crate::battle::stamina_pool(t)
                } else {
                    t.stamina
                }),
                ActionPoints::default(),
                // Under die ranks a unit owes nothing yet (V6.6).
                Reactions(
                    if level.rules().resolution == crate::format::Resolution::DieRanks {
                        crate::battle::MOST_OWED
                    } else {
                        0
                    },
                ),
                OffGuard,
                Tally::default(),
            ),
            Inventory {
                weapons: t.weapons.clone(),
                items: t.items.clone(),
            },
            // Spells' magic points (V11.2).
            crate::battle::Mp(t.mp),
            Stats {
                kind: unit.kind.clone(),
                template: t.clone(),
            },
        ));
        roster.add(&unit.name, entity.id());
    }
    // Riders start on their mounts (V12.1; `check` has seen to the pairs).
    for unit in &level.units {
        let (Some(rider), Some(mount)) = (
            roster.named(&unit.name),
            unit.riding.as_deref().and_then(|m| roster.named(m)),
        ) else {
            continue;
        };
        let facing = world.get::<Facing>(mount).map_or(unit.facing, |f| f.0);
        let at = world.get::<GridPos>(mount).map_or(unit.at, |p| p.0);
        world
            .entity_mut(rider)
            .insert((crate::battle::Riding { mount, at, facing }, Facing(facing)));
        world.entity_mut(mount).insert(crate::battle::Ridden(rider));
    }
    world.insert_resource(Battlefield(std::sync::Arc::new(level.clone())));
    for &unit in roster.units() {
        refresh_reach(world, unit);
    }
    world.insert_resource(roster);
    for object in level.ground() {
        world.spawn((
            GroundObject {
                name: object.item.clone(),
            },
            GridPos(object.at),
        ));
    }
    world.insert_resource(dice);
    // Who starts hidden from whom (V8.2), once every unit stands.
    crate::rules::variants::stealth::hidden::hide_at_start(world);
}

/// Removes the battle from `world`: every unit and ground object, the
/// rules' state and the commands played, so that [`spawn_battle`] can start
/// another in the same app (a level reloaded in the window).
pub fn clear_battle(world: &mut World) {
    let spawned: Vec<Entity> = world
        .query_filtered::<Entity, Or<(With<UnitId>, With<GroundObject>)>>()
        .iter(world)
        .collect();
    for entity in spawned {
        world.despawn(entity);
    }
    crate::rules::reset(world);
}

/// A headless app ([`MinimalPlugins`], no rendering, no tilemap plugin)
/// with `level`'s battle spawned and begun (initiative rolled with dice
/// seeded by `seed`), ready for tests, the AI and simulations.
pub fn headless_app(level: &ValidLevel, seed: u64) -> App {
    headless_app_with(level, Dice::seeded(seed), None)
}

/// Like [`headless_app`] with given dice and, optionally, a fixed
/// initiative order by unit name (scenarios).
pub fn headless_app_with(level: &ValidLevel, dice: Dice, initiative: Option<&[String]>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, BattlePlugin));
    spawn_battle(app.world_mut(), level, dice);
    begin_battle(app.world_mut(), initiative);
    app
}
