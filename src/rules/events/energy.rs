//! What Energy's events carry (V5).

use crate::battle::UnitId;
use crate::rules::rule::Rule;
use serde::{Deserialize, Serialize};

/// A V5.8 condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Condition {
    /// A safe target for maneuvers (V7.3).
    Exposed,
    /// Exposed, and open to Swift Attacks (V5.9).
    Unguarded,
}

impl Condition {
    /// Lower-case name for the log.
    pub fn label(self) -> &'static str {
        match self {
            Condition::Exposed => "exposed",
            Condition::Unguarded => "unguarded",
        }
    }
}

/// Why a unit is Exposed or Unguarded (V5.8), each cause its line of 002.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// It stood up (V5.5, 002:33).
    StoodUp,
    /// It picked something up (V5.5, 002:39).
    PickedUp,
    /// A kept natural 20 hit it (002:172, 234).
    Critical,
    /// Its own attack's kept d20 was 1–3: until the end of the next round
    /// (002:173, 235).
    Fumbled,
    /// It made a maneuver against a target that was not Exposed (002:477).
    Overreached,
    /// It was pushed, or its push failed (002:475–476).
    Pushed,
    /// It landed a Jump (V9, 002:474).
    Landed,
}

impl Cause {
    /// What it reads as in the log.
    pub fn label(self) -> &'static str {
        match self {
            Cause::StoodUp => "standing up",
            Cause::PickedUp => "picking up",
            Cause::Critical => "a natural 20 against it (V5.10, V5.11)",
            Cause::Fumbled => "its own roll of 1–3 (V5.10, V5.11)",
            Cause::Overreached => "a maneuver against a guarded target",
            Cause::Pushed => "a push",
            Cause::Landed => "landing a jump",
        }
    }
}

/// One thing of Energy's that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EnergyEvent {
    /// A round began: each unit's Energy by its Stamina, and its Agility
    /// (V5.2, V5.4), in initiative order.
    Round {
        /// The round.
        round: u32,
        /// Each unit able to act: its Energy, Agility and Stamina.
        units: Vec<(UnitId, i32, i32, i32)>,
    },
    /// A command was paid (V5.5): Energy, Agility and Stamina spent, and
    /// what is left of each.
    Paid {
        /// Who paid.
        unit: UnitId,
        /// The command paid for.
        command: crate::rules::command::CommandKind,
        /// Energy spent.
        energy: i32,
        /// Agility spent.
        agility: i32,
        /// Stamina spent (a Sprint, a Jump, or 1 in place of 1 Energy).
        stamina: i32,
        /// Stamina stood in for 1 Energy (V5.3, 002:47).
        stand_in: bool,
        /// The first melee attack of the round on an Unguarded target, at
        /// its Swift price (V5.9).
        swift: bool,
        /// Energy left.
        energy_left: i32,
        /// Agility left.
        agility_left: i32,
        /// Stamina left.
        stamina_left: i32,
    },
    /// A reactive attack was a Swift Attack: 1 Energy and the round's one
    /// (V5.9).
    Swift {
        /// Who struck.
        unit: UnitId,
        /// Energy left.
        energy_left: i32,
    },
    /// A unit became Exposed or Unguarded (V5.8) until the end of `until`.
    Became {
        /// Who.
        unit: UnitId,
        /// Which condition.
        condition: Condition,
        /// Why.
        cause: Cause,
        /// The round at whose end it lifts.
        until: u32,
    },
    /// A melee blow's kept 20 passes all the target's armor (V5.11).
    PastArmor {
        /// The target.
        unit: UnitId,
    },
    /// Defend cleared a unit's conditions (V5.12).
    Cleared {
        /// Who.
        unit: UnitId,
    },
    /// A unit's Defend ended (V5.12): it attacked, or ran past its Speed
    /// this round.
    DefendEnded {
        /// Who.
        unit: UnitId,
    },
    /// A unit caught its breath: 1 Stamina back (V5.5, 002:41).
    CaughtBreath {
        /// Who.
        unit: UnitId,
        /// Stamina now.
        stamina: i32,
    },
}

impl EnergyEvent {
    /// The rules each cites.
    pub fn rules(&self) -> Vec<Rule> {
        match self {
            EnergyEvent::Round { .. } => vec![Rule::V5_1, Rule::V5_2, Rule::V5_4],
            EnergyEvent::Paid {
                stand_in,
                swift,
                command,
                ..
            } => {
                let mut out = vec![Rule::V5_5];
                if *command == crate::rules::command::CommandKind::Move {
                    out.push(Rule::V5_6);
                }
                if *stand_in {
                    out.push(Rule::V5_3);
                }
                if *swift {
                    out.push(Rule::V5_9);
                }
                out
            }
            EnergyEvent::Swift { .. } => vec![Rule::V5_9],
            EnergyEvent::Became { .. } => vec![Rule::V5_8],
            EnergyEvent::PastArmor { .. } => vec![Rule::V5_11],
            EnergyEvent::Cleared { .. } | EnergyEvent::DefendEnded { .. } => vec![Rule::V5_12],
            EnergyEvent::CaughtBreath { .. } => vec![Rule::V5_5],
        }
    }

    /// The unit it is about, if one.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            EnergyEvent::Round { .. } => None,
            EnergyEvent::Paid { unit, .. }
            | EnergyEvent::Swift { unit, .. }
            | EnergyEvent::Became { unit, .. }
            | EnergyEvent::PastArmor { unit }
            | EnergyEvent::Cleared { unit }
            | EnergyEvent::DefendEnded { unit }
            | EnergyEvent::CaughtBreath { unit, .. } => Some(*unit),
        }
    }
}
