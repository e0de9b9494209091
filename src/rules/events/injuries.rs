//! What V3's Constitution rolls carry, for [`BattleEvent::InjurySave`] and
//! [`BattleEvent::ShockCheck`]: every die and number the log prints.
//!
//! [`BattleEvent::InjurySave`]: super::BattleEvent::InjurySave
//! [`BattleEvent::ShockCheck`]: super::BattleEvent::ShockCheck

use crate::battle::UnitId;
use crate::format::BodyPart;
use serde::{Deserialize, Serialize};

/// 001's Constitution save against the sum of the injuries' values: of a
/// unit injured while down, or (hits injuring only) of one still up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InjurySave {
    /// Who.
    pub unit: UnitId,
    /// The d20.
    pub roll: u32,
    /// CON.
    pub bonus: i32,
    /// The sum of its injuries' values.
    pub dc: i32,
    /// Met (or a natural 20): it lives, or stays up.
    pub passed: bool,
    /// A natural 20 while dying: it is stable.
    pub stabilized: bool,
    /// Made by a unit still up, whose hits injure only: failed, it is
    /// knocked out (decision).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub awake: bool,
}

/// 001's Constitution check (DC 25) against a head or heart injury's shock:
/// failed, stunned for a round; made, a head injury dazes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShockCheck {
    /// Who.
    pub unit: UnitId,
    /// The part hurt: the head or the torso (the heart).
    pub part: BodyPart,
    /// The d20.
    pub roll: u32,
    /// CON.
    pub bonus: i32,
    /// 25.
    pub dc: i32,
    /// Failed: stunned.
    pub stunned: bool,
    /// Stunned on its own turn: its AP are gone, and its next turn is
    /// its own again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_its_turn: bool,
}
