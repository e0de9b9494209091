//! The designers' tools: warnings about a level (`lint`), a picture of it
//! without a window (`render`), a starter level (`new`), and the open
//! level following its files (`reload`).

pub mod editor;
pub mod lint;
pub mod reload;
pub mod render;
pub mod starter;

use crate::dice::Dice;
use crate::grid::Pos;
use crate::load::{UnitSpec, ValidLevel};
use crate::rules::motion::movement::{Reach, reachable, view_for};
use crate::rules::motion::paths::distances;
use crate::setup::spawn_battle;
use bevy::prelude::World;
use std::collections::HashMap;

/// The level's battle as it stands before anyone acts, for the rules'
/// questions about it (threats, out of action). No die is rolled: the
/// seed only fills the dice resource.
pub fn starting_battle(level: &ValidLevel) -> World {
    let mut world = World::new();
    spawn_battle(&mut world, level, Dice::seeded(0));
    world
}

/// Where `unit` may move on its first turn, with every other unit where the
/// level places it (R5.1, R5.2): the rules' own view, so a big body's
/// footprint must fit along the way and at the end (V10.6).
pub fn first_reach(world: &mut World, unit: &UnitSpec) -> HashMap<Pos, Reach> {
    let Some(e) = crate::battle::unit_named(world, &unit.name) else {
        return HashMap::new();
    };
    let (level, occ, at) = view_for(world, e);
    reachable(&level.map, &occ, at, unit.stats.speed.max(0) as u32)
}

/// Whether the unit named `name` can, over any number of turns, walk its
/// body next to some enemy's with the other units where the level places
/// them (V10.6: a 2×2 body needs 2-wide gaps all the way).
pub fn body_meets_enemy(world: &mut World, name: &str) -> bool {
    let Some(e) = crate::battle::unit_named(world, name) else {
        return false;
    };
    let side = world.get::<crate::battle::Side>(e).map(|s| s.0);
    let enemies: Vec<crate::grid::Body> = crate::battle::units(world)
        .into_iter()
        .filter(|o| world.get::<crate::battle::Side>(*o).map(|s| s.0) != side)
        .filter_map(|o| crate::battle::body_of(world, o))
        .collect();
    let (level, occ, at) = view_for(world, e);
    let all = distances(&level.map, &occ, at);
    all.tiles()
        .map(|(p, _)| occ.body_at(p))
        .any(|b| enemies.iter().any(|x| b.gap(*x) <= 1))
}
