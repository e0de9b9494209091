//! What a jump and a fall carry (V9.2–V9.5), for [`BattleEvent::Jumped`]
//! and [`BattleEvent::Fell`]: every die and number the log prints.
//!
//! [`BattleEvent::Jumped`]: super::BattleEvent::Jumped
//! [`BattleEvent::Fell`]: super::BattleEvent::Fell

use crate::battle::UnitId;
use crate::grid::Pos;
use serde::{Deserialize, Serialize};

/// A jump's check and where it ended (V9.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JumpRoll {
    /// Who jumped.
    pub unit: UnitId,
    /// The takeoff tile.
    pub from: Pos,
    /// The landing tile aimed at.
    pub aimed: Pos,
    /// Where the jumper is after it (on the ground, or where it falls).
    pub to: Pos,
    /// Horizontal distance D (R0.3).
    pub distance: i32,
    /// Rise H in metres (0 when jumping level or down).
    pub rise: i32,
    /// The d20.
    pub roll: u32,
    /// STR + DEX.
    pub bonus: i32,
    /// d20 + STR + DEX.
    pub score: i32,
    /// 4H + 2D.
    pub dc: i32,
    /// How it ended.
    pub outcome: JumpOutcome,
}

/// How a jump ended (V9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JumpOutcome {
    /// Score above the DC and at least twice it: it lands standing.
    Landed,
    /// Score above the DC but below twice it: it lands prone (R4.8).
    OffBalance,
    /// Failed up a rise: it stays where it was, the AP spent.
    Stayed,
    /// Failed over level or lower ground: it comes down halfway, prone.
    Short,
    /// Failed over a drop of 2 m or a chasm: it falls there (V9.4).
    Plunged,
}

/// A fall (V9.4), or a fall into a chasm (V9.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FallRoll {
    /// Who fell.
    pub unit: UnitId,
    /// Where it lands.
    pub at: Pos,
    /// The drop in metres.
    pub metres: i32,
    /// The fall check, none for a chasm.
    pub check: Option<FallCheck>,
    /// The d4s of the damage, one per metre fallen after the check.
    pub dice: Vec<u32>,
    /// Into a chasm: the unit is dead (V9.5).
    pub chasm: bool,
    /// Left prone (a drop of 2 m or more without a successful check).
    pub prone: bool,
}

/// The fall check (V9.4): d20 + DEX + Athletics against the DC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FallCheck {
    /// The d20.
    pub roll: u32,
    /// DEX + Athletics.
    pub bonus: i32,
    /// The total.
    pub total: i32,
    /// max(the cause's DC, half the causing attack's damage, 10).
    pub dc: i32,
    /// Metres taken off the fall by a success: max(DEX, 0).
    pub saved: i32,
}

impl FallCheck {
    /// Whether the check met its DC.
    pub fn success(&self) -> bool {
        self.total >= self.dc
    }
}
