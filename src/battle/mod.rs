//! The battle as ECS: the components and resources a level turns into, and
//! the headless app every test, simulation and the AI run on.
//!
//! Nothing here renders: all plugins in this module work without a window
//! or a GPU. The view (a later plugin) only reads what this module spawns.

mod setup;

pub use setup::{BattlePlugin, headless_app, spawn_battle};

use crate::format::UnitTemplate;
use crate::grid::{Dir, Pos};
use crate::load::ValidLevel;
use bevy::prelude::*;

/// Stable id of a unit: its index in the level's unit list. Saves, replays
/// and logs use it (or the unit's name), never an [`Entity`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId(pub u32);

/// The tile a unit or an object is on (R0.1).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridPos(pub Pos);

/// The direction a unit faces (R4.1).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub Dir);

/// Index of a unit's side in the level's side list.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Side(pub usize);

/// A unit's numbers (R1): its kind's template with the level's overrides.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Stats {
    /// The unit kind's name.
    pub kind: String,
    /// The resolved numbers and gear.
    pub template: UnitTemplate,
}

/// Hit points (R1, R10).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Health {
    /// Current hit points, never below 0.
    pub hp: i32,
    /// Hit points at full health.
    pub max: i32,
}

/// An object lying on the ground (R9.5): a weapon or an item, by name.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct GroundObject {
    /// Its catalog name.
    pub name: String,
}

/// The level being fought: terrain, sides, catalog and rules options.
#[derive(Resource, Clone, Debug)]
pub struct Battlefield(pub ValidLevel);
