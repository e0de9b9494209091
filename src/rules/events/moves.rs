//! What a Move tells besides its steps and its end: the stretches walked
//! before the reactions met on the way ([`BattleEvent::Walked`], R8.2), and
//! where a mover dropped in an ally's tile falls back to
//! ([`BattleEvent::FellBack`]).
//!
//! [`BattleEvent::Walked`]: super::BattleEvent::Walked
//! [`BattleEvent::FellBack`]: super::BattleEvent::FellBack

use crate::battle::UnitId;
use crate::grid::{Dir, Pos};
use serde::{Deserialize, Serialize};

/// The stretch of a Move or Charge walked before a reaction was taken on
/// the way (R8.2): told before the reaction, so that the walk, the blow and
/// what became of the Move read in the order they happened. The whole Move
/// is still told by `Moved` at its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stretch {
    /// Who.
    pub unit: UnitId,
    /// Where this stretch started: the Move's start, or where the last
    /// reaction on the way was taken.
    pub from: Pos,
    /// The tile it is leaving, where the reaction comes.
    pub to: Pos,
    /// Tiles walked in this stretch.
    pub tiles: usize,
    /// Tiles walked since the Move started.
    pub in_all: usize,
    /// Facing on arrival.
    pub facing: Dir,
}

/// Dropped while passing through an ally's tile, the mover falls back to
/// the last tile it could have stopped on *(decision)*.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FallBack {
    /// Who.
    pub unit: UnitId,
    /// Where it ends.
    pub to: Pos,
}
