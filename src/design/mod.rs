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
use crate::rules::motion::movement::{Occupancy, Reach, reachable};
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
/// level places it (R5.1, R5.2).
pub fn first_reach(level: &ValidLevel, unit: &UnitSpec) -> HashMap<Pos, Reach> {
    let placed = level.units.iter().map(|u| (u.at, u.side));
    let occ = Occupancy::new(&level.map, placed, unit.side, unit.at);
    reachable(&level.map, &occ, unit.at, unit.stats.speed.max(0) as u32)
}
