//! Commands: the only way to change a battle (FORMAT.md). The player's
//! clicks, the AI, scenario files and replays all send these.

use crate::grid::{Dir, Pos};
use crate::rules::rule::Rule;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a throw aims at (R9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThrowTarget {
    /// A tile (DV 5, R9.1).
    Tile(Pos),
    /// A unit, by name.
    Unit(String),
}

/// A maneuver (V7): an attack that deals no damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ManeuverKind {
    /// Knock the target prone (Acrobatics, V7.4).
    Trip,
    /// Knock the wielded weapon out of its hands (Acrobatics, V7.5).
    Disarm,
    /// Seize it: grabbed at 1 degree, held at 2 (Athletics, V7.6).
    Grapple,
    /// Push it a tile away (Athletics, V7.7).
    Shove,
    /// Break free of a grapple: the Escape command's roll (V7.6), not a
    /// kind the Maneuver command takes.
    Escape,
}

impl ManeuverKind {
    /// The kinds a Maneuver command makes.
    pub const MADE: [ManeuverKind; 4] = [
        ManeuverKind::Trip,
        ManeuverKind::Disarm,
        ManeuverKind::Grapple,
        ManeuverKind::Shove,
    ];

    /// Lower-case name for the log ("trip").
    pub fn label(self) -> &'static str {
        match self {
            ManeuverKind::Trip => "trip",
            ManeuverKind::Disarm => "disarm",
            ManeuverKind::Grapple => "grapple",
            ManeuverKind::Shove => "shove",
            ManeuverKind::Escape => "escape",
        }
    }

    /// Made with the wielded weapon (its reach, and R7.3's fumble drops
    /// it): trip and disarm (V7.1, V7.4, V7.5).
    pub fn with_weapon(self) -> bool {
        matches!(self, ManeuverKind::Trip | ManeuverKind::Disarm)
    }

    /// Its sub-rule in VARIANTS.md.
    pub fn rule(self) -> Rule {
        match self {
            ManeuverKind::Trip => Rule::V7_4,
            ManeuverKind::Disarm => Rule::V7_5,
            ManeuverKind::Grapple | ManeuverKind::Escape => Rule::V7_6,
            ManeuverKind::Shove => Rule::V7_7,
        }
    }
}

/// How firmly a grappler has its target (V7.6, 003:39–41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Hold {
    /// 1 degree: 003's partial grab.
    Grabbed,
    /// 2 or more degrees: 003's full hold.
    Held,
    /// Not grappled by that unit (a scenario's expectation only).
    Free,
}

/// One command. Units are named by their level name, so command logs stay
/// valid across runs (never an `Entity`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Move up to Speed (R5), along `path` or the cheapest path to `to`.
    Move {
        /// Who moves.
        unit: String,
        /// Where to.
        to: Pos,
        /// The tiles to walk through, ending at `to` (the start excluded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<Vec<Pos>>,
        /// Sprint under Energy (V5.5): a full Run and 1 Stamina, up to a
        /// third of Speed farther.
        #[serde(default, skip_serializing_if = "is_false")]
        sprint: bool,
    },
    /// Move exactly one tile, never into difficult terrain; never provokes.
    Step {
        /// Who steps.
        unit: String,
        /// An adjacent tile.
        to: Pos,
    },
    /// Under Energy: one tile at 1 Agility, right after a command that
    /// spent Energy, as many as it spent; never provokes (V5.7).
    AgileMove {
        /// Who moves.
        unit: String,
        /// An adjacent tile.
        to: Pos,
    },
    /// Cast a spell (V11.1): 1 AP, once a turn, at `level` (the spell's own
    /// when omitted; more is an upcast, V11.2), at a unit or a tile.
    Cast {
        /// The caster.
        unit: String,
        /// The spell, by name.
        spell: String,
        /// The cast level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<i32>,
        /// What it is aimed at.
        at: ThrowTarget,
    },
    /// End the spell the unit concentrates on (V11.5): free.
    EndConcentration {
        /// Who.
        unit: String,
    },
    /// Under Energy: catch one's breath, 3 Energy (or all that is left)
    /// for 1 Stamina (V5.5, 002:41).
    CatchBreath {
        /// Who rests.
        unit: String,
    },
    /// Jump to a tile up to Speed away, over gaps and up ledges (V9.2):
    /// 1 AP, a d20 + STR + DEX check against 4 × rise + 2 × distance.
    Jump {
        /// Who jumps.
        unit: String,
        /// The landing tile.
        to: Pos,
    },
    /// Hide (V8.4): 1 AP; sneak checks against every enemy that sees the
    /// tile, each of which must give it half cover or better.
    Hide {
        /// Who hides.
        unit: String,
    },
    /// Search (V8.5): 1 AP; d20 + WIS + Perception against each hidden
    /// enemy on a tile the searcher sees.
    Search {
        /// Who searches.
        unit: String,
    },
    /// Turn to a direction (free, on the unit's own turn, R4.2).
    Face {
        /// Who turns.
        unit: String,
        /// The new facing.
        dir: Dir,
    },
    /// Attack a unit (R7).
    Attack {
        /// The attacker.
        unit: String,
        /// The target.
        target: String,
        /// Weapon name; the main weapon when omitted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<String>,
        /// Stamina for Power Attack / Deadly Aim (R7.8).
        #[serde(default, skip_serializing_if = "is_zero")]
        power: i32,
        /// Lunge (R7.8).
        #[serde(default, skip_serializing_if = "is_false")]
        lunge: bool,
        /// The body part aimed at (V3 injuries without hit zones; default
        /// the torso).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        part: Option<crate::format::BodyPart>,
    },
    /// Cleave (R7.8): right after a melee hit.
    Cleave {
        /// The attacker.
        unit: String,
        /// The second target.
        target: String,
    },
    /// Throw a weapon or an item (R9).
    Throw {
        /// The thrower.
        unit: String,
        /// What is thrown.
        item: String,
        /// At a tile or a unit.
        at: ThrowTarget,
    },
    /// Charge (R4.7): a straight run ending with a melee attack, or with
    /// a shove that drives the target on (V7.7, maneuvers).
    Charge {
        /// The charger.
        unit: String,
        /// The target.
        target: String,
        /// End in a charge-shove instead of an attack (V7.7).
        #[serde(default, skip_serializing_if = "is_false")]
        shove: bool,
    },
    /// A maneuver against an enemy within reach (V7).
    Maneuver {
        /// Who maneuvers.
        unit: String,
        /// The target.
        target: String,
        /// Trip, Disarm, Grapple or Shove.
        kind: ManeuverKind,
        /// A shove's destination (V7.7); the rules pick one when omitted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Pos>,
        /// Where a disarm flings the weapon (V7.5); it falls in the
        /// target's tile when omitted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fling: Option<Pos>,
    },
    /// Keep a grapple this turn (1 AP, V7.6).
    Sustain {
        /// The grappler.
        unit: String,
    },
    /// Let go of a grapple (free, V7.6).
    Release {
        /// The grappler.
        unit: String,
    },
    /// Try to break free of a grapple (V7.6): 2, 1 or 0 AP by the degrees.
    Escape {
        /// The grappled unit.
        unit: String,
    },
    /// Force the grappled target to the ground: prone (1 AP, V7.6).
    ForceDown {
        /// The grappler.
        unit: String,
    },
    /// Crush the held target: an unarmed strike it cannot answer (2 AP,
    /// V7.6).
    Crush {
        /// The holder.
        unit: String,
    },
    /// Drag the held target along: the holder steps to `to` and the target
    /// follows by the same step (3 AP, V7.6).
    Drag {
        /// The holder.
        unit: String,
        /// The holder's new tile, adjacent.
        to: Pos,
    },
    /// Get on a mount beside the unit (V12.7): 1 AP, 3 unskilled.
    Mount {
        /// The rider.
        unit: String,
        /// The mount.
        mount: String,
    },
    /// Get down from the mount to a free tile beside it (V12.7): 1 AP, or
    /// an unskilled rider's whole turn.
    Dismount {
        /// The rider.
        unit: String,
        /// Where it gets down.
        to: Pos,
    },
    /// Defend (R4.6): +MB to DV until the unit's next turn.
    Defend {
        /// Who defends.
        unit: String,
    },
    /// Ready the shield (R4.6).
    ReadyShield {
        /// Who readies.
        unit: String,
    },
    /// Stand up from prone (R4.8).
    StandUp {
        /// Who stands.
        unit: String,
    },
    /// Stabilise an adjacent dying ally (R10.4).
    Stabilize {
        /// The helper.
        unit: String,
        /// The dying ally.
        target: String,
    },
    /// Pick up an object in the unit's tile or an adjacent one (R9.5).
    PickUp {
        /// Who picks up.
        unit: String,
        /// The object's name.
        item: String,
    },
    /// Drink a potion (free action), or give it to an adjacent ally (1 AP).
    DrinkPotion {
        /// Who drinks or gives.
        unit: String,
        /// The ally who drinks; the unit itself when omitted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// End the current unit's turn.
    EndTurn,
    /// Answer a pending reaction decision (side policy `Ask`, R8): whether
    /// `unit` makes the reactive attack it is asked about.
    React {
        /// The unit asked.
        unit: String,
        /// Take the reaction.
        take: bool,
        /// Asked how to answer an attack (V2): the answer; with `take:
        /// false`, none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guard: Option<crate::format::Guard>,
    },
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

impl Command {
    /// The acting unit's name (`None` for EndTurn).
    pub fn actor(&self) -> Option<&str> {
        use Command::*;
        match self {
            Move { unit, .. }
            | Step { unit, .. }
            | AgileMove { unit, .. }
            | CatchBreath { unit }
            | Cast { unit, .. }
            | EndConcentration { unit }
            | Jump { unit, .. }
            | Hide { unit }
            | Search { unit }
            | Face { unit, .. }
            | Attack { unit, .. }
            | Cleave { unit, .. }
            | Throw { unit, .. }
            | Charge { unit, .. }
            | Maneuver { unit, .. }
            | Sustain { unit }
            | Release { unit }
            | Escape { unit }
            | ForceDown { unit }
            | Crush { unit }
            | Drag { unit, .. }
            | Mount { unit, .. }
            | Dismount { unit, .. }
            | Defend { unit }
            | ReadyShield { unit }
            | StandUp { unit }
            | Stabilize { unit, .. }
            | PickUp { unit, .. }
            | DrinkPotion { unit, .. }
            | React { unit, .. } => Some(unit),
            EndTurn => None,
        }
    }

    /// The unit the command is aimed at, by name, if any: the target of an
    /// Attack, Cleave, Charge or Stabilize, the ally given a potion, the
    /// unit thrown at.
    pub fn target(&self) -> Option<&str> {
        use Command::*;
        match self {
            Attack { target, .. }
            | Cleave { target, .. }
            | Charge { target, .. }
            | Maneuver { target, .. }
            | Stabilize { target, .. }
            | Mount { mount: target, .. } => Some(target),
            DrinkPotion { target, .. } => target.as_deref(),
            Throw {
                at: ThrowTarget::Unit(target),
                ..
            }
            | Cast {
                at: ThrowTarget::Unit(target),
                ..
            } => Some(target),
            _ => None,
        }
    }

    /// The kind of command, for dispatch ([`crate::rules::pipeline::Handles`]).
    pub fn kind(&self) -> CommandKind {
        use Command::*;
        match self {
            Move { .. } => CommandKind::Move,
            Step { .. } => CommandKind::Step,
            AgileMove { .. } => CommandKind::AgileMove,
            CatchBreath { .. } => CommandKind::CatchBreath,
            Cast { .. } => CommandKind::Cast,
            EndConcentration { .. } => CommandKind::EndConcentration,
            Jump { .. } => CommandKind::Jump,
            Hide { .. } => CommandKind::Hide,
            Search { .. } => CommandKind::Search,
            Face { .. } => CommandKind::Face,
            Attack { .. } => CommandKind::Attack,
            Cleave { .. } => CommandKind::Cleave,
            Throw { .. } => CommandKind::Throw,
            Charge { .. } => CommandKind::Charge,
            Maneuver { .. } => CommandKind::Maneuver,
            Sustain { .. } => CommandKind::Sustain,
            Release { .. } => CommandKind::Release,
            Escape { .. } => CommandKind::Escape,
            ForceDown { .. } => CommandKind::ForceDown,
            Crush { .. } => CommandKind::Crush,
            Drag { .. } => CommandKind::Drag,
            Mount { .. } => CommandKind::Mount,
            Dismount { .. } => CommandKind::Dismount,
            Defend { .. } => CommandKind::Defend,
            ReadyShield { .. } => CommandKind::ReadyShield,
            StandUp { .. } => CommandKind::StandUp,
            Stabilize { .. } => CommandKind::Stabilize,
            PickUp { .. } => CommandKind::PickUp,
            DrinkPotion { .. } => CommandKind::DrinkPotion,
            EndTurn => CommandKind::EndTurn,
            React { .. } => CommandKind::React,
        }
    }

    /// The command's name as written in files.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
}

macro_rules! command_kinds {
    ($($kind:ident),* $(,)?) => {
        /// The kinds of [`Command`], without their arguments: what the
        /// command pipeline dispatches on.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[allow(missing_docs)]
        pub enum CommandKind {
            $($kind,)*
        }

        impl CommandKind {
            /// Every kind, in the order of [`Command`]'s variants.
            pub const ALL: &'static [CommandKind] = &[$(CommandKind::$kind),*];

            /// The name as written in files ("ReadyShield").
            pub fn name(self) -> &'static str {
                match self {
                    $(CommandKind::$kind => stringify!($kind),)*
                }
            }
        }
    };
}

command_kinds!(
    Move,
    Step,
    AgileMove,
    CatchBreath,
    Cast,
    EndConcentration,
    Jump,
    Hide,
    Search,
    Face,
    Attack,
    Cleave,
    Throw,
    Charge,
    Maneuver,
    Sustain,
    Release,
    Escape,
    ForceDown,
    Crush,
    Drag,
    Mount,
    Dismount,
    Defend,
    ReadyShield,
    StandUp,
    Stabilize,
    PickUp,
    DrinkPotion,
    EndTurn,
    React,
);

impl fmt::Display for CommandKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = ron::ser::to_string(self).unwrap_or_else(|_| self.name().to_string());
        f.write_str(&text)
    }
}

/// Why a command was refused: the rule that forbids it and a sentence,
/// shown as `R5.1: path costs 7, speed is 6`. A refused command changes
/// nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{rule}: {why}")]
pub struct Refusal {
    /// The rule that forbids it; [`Rule::Format`] when the command names
    /// something the battle does not have.
    pub rule: Rule,
    /// Why, naming what is at fault.
    pub why: String,
}

impl Refusal {
    /// A refusal citing `rule`.
    pub fn new(rule: Rule, why: impl fmt::Display) -> Self {
        Self {
            rule,
            why: why.to_string(),
        }
    }

    /// A command names `what` (`unit "Orm"`), which the battle does not
    /// have: it cites the file contract, not a rule *(decision)*.
    pub fn unknown(what: impl fmt::Display) -> Self {
        Self::new(Rule::Format, format!("unknown {what}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_name_is_listed() {
        // A kind missing from ALL would never run its systems.
        let text = "[Move(unit: \"a\", to: (1, 1)), Step(unit: \"a\", to: (1, 1)), \
            AgileMove(unit: \"a\", to: (1, 1)), CatchBreath(unit: \"a\"), \
            Cast(unit: \"a\", spell: \"x\", at: Tile((1, 1))), EndConcentration(unit: \"a\"), \
            Jump(unit: \"a\", to: (1, 1)), Hide(unit: \"a\"), Search(unit: \"a\"), \
            Face(unit: \"a\", dir: N), \
            Attack(unit: \"a\", target: \"b\"), Cleave(unit: \"a\", target: \"b\"), \
            Throw(unit: \"a\", item: \"x\", at: Tile((1, 1))), Charge(unit: \"a\", target: \"b\"), \
            Maneuver(unit: \"a\", target: \"b\", kind: Trip), Sustain(unit: \"a\"), \
            Release(unit: \"a\"), Escape(unit: \"a\"), ForceDown(unit: \"a\"), Crush(unit: \"a\"), \
            Drag(unit: \"a\", to: (1, 1)), \
            Mount(unit: \"a\", mount: \"b\"), Dismount(unit: \"a\", to: (1, 1)), \
            Defend(unit: \"a\"), ReadyShield(unit: \"a\"), StandUp(unit: \"a\"), \
            Stabilize(unit: \"a\", target: \"b\"), PickUp(unit: \"a\", item: \"x\"), \
            DrinkPotion(unit: \"a\"), EndTurn, React(unit: \"a\", take: true)]";
        let all: Vec<Command> = ron::from_str(text).unwrap();
        assert_eq!(all.len(), CommandKind::ALL.len());
        for (c, k) in all.iter().zip(CommandKind::ALL) {
            assert_eq!(c.kind(), *k);
            assert_eq!(c.name(), format!("{k:?}"));
        }
    }
}
