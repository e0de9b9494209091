//! What a sneak check and a search carry (V8.3, V8.5), for
//! [`BattleEvent::Sneaked`] and [`BattleEvent::Searched`]: every die and
//! number the log prints.
//!
//! [`BattleEvent::Sneaked`]: super::BattleEvent::Sneaked
//! [`BattleEvent::Searched`]: super::BattleEvent::Searched

use crate::battle::UnitId;
use crate::grid::{Dir, Pos};
use serde::{Deserialize, Serialize};

/// One check of a hidden unit against one enemy (V8.3 sneak: d20 + DEX +
/// Stealth against 10 + WIS + Perception; V8.5 search: d20 + WIS +
/// Perception against 10 + DEX + Stealth).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StealthRoll {
    /// The hidden unit.
    pub unit: UnitId,
    /// The enemy it sneaks past, or who searches.
    pub watcher: UnitId,
    /// The d20s (1 + |advantage|).
    pub dice: Vec<u32>,
    /// The die kept.
    pub kept: u32,
    /// Net advantage: the sneak's concealment and light (V8.3); 0 for a
    /// search.
    pub advantage: i32,
    /// The roller's bonus.
    pub bonus: i32,
    /// Kept die + bonus.
    pub total: i32,
    /// The DC.
    pub dc: i32,
}

impl StealthRoll {
    /// A sneak succeeds, or a search finds, when the total meets the DC.
    pub fn success(&self) -> bool {
        self.total >= self.dc
    }
}

/// A Move that ran into a unit its side did not see (V8.6): it stops on
/// the tile before, its AP spent, and the unit is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bump {
    /// The unit run into.
    pub unit: UnitId,
    /// The mover.
    pub by: UnitId,
    /// The tile it stands on.
    pub at: Pos,
}

/// A unit hidden from sides (V8.2 at the start, V8.4 by hiding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hiding {
    /// The unit.
    pub unit: UnitId,
    /// The sides it is hidden from, one bit per side.
    pub from: u32,
    /// From the start of the battle (V8.2), not by a Hide (V8.4).
    pub at_start: bool,
}

/// A hidden unit seen again (V8.6), and as it stands: a side that never
/// saw it, or lost it, learns where it is now (its moves while hidden were
/// never told to that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revelation {
    /// The unit.
    pub unit: UnitId,
    /// Why.
    pub cause: super::Reveal,
    /// Its tile.
    pub at: Pos,
    /// Its facing.
    pub facing: Dir,
    /// Its hit points.
    pub hp: i32,
}
