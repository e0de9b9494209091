//! The words weapons, items and spells share: damage types (R9.2) and
//! ranges (R7.4).

use serde::{Deserialize, Serialize};

/// Damage types; bludgeoning objects fall where they hit, piercing and
/// slashing ones stick (R9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageType {
    /// Swords, axes.
    Slashing,
    /// Spears, arrows.
    Piercing,
    /// Maces, sling stones.
    Bludgeoning,
    /// Bombs, burning oil.
    Fire,
    /// Frost.
    Cold,
    /// Acid flasks.
    Acid,
    /// Poison.
    Poison,
    /// Lightning.
    Lightning,
}

/// Range of a projectile weapon (R7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Range {
    /// One disadvantage per full increment, 10 increments at most.
    Increment(i32),
    /// `(near, far, max)`: +1 advantage within near, +1 disadvantage beyond
    /// far, impossible beyond max (002).
    Trio(i32, i32, i32),
}
