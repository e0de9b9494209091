//! What the battle events carry besides units and tiles: an attack's
//! roll, a damage roll and how damage came, a move's cost, what opened a
//! unit's defences, what provokes, and how a battle ended.

use crate::battle::UnitId;
use crate::grid::Pos;
use crate::rules::modifiers::{AttackMode, Modifier};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a hidden unit was revealed (V8.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reveal {
    /// It attacked, threw or maneuvered: resolved unseen, then seen.
    Struck,
    /// It failed a sneak check against this enemy (V8.3).
    Spotted(crate::battle::UnitId),
    /// This enemy's Search found it (V8.5).
    Found(crate::battle::UnitId),
    /// This enemy's Move ran into it (V8.6).
    Bumped(crate::battle::UnitId),
    /// This enemy ended a Move beside it, facing it (V8.6).
    Faced(crate::battle::UnitId),
}

/// What opened a unit's defences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opening {
    /// R4.7.
    Charge,
    /// R7.8.
    Lunge,
    /// R7.8.
    Cleave,
    /// A maneuver against a target that was not exposed (V7.3).
    Maneuver,
    /// Shoved, or a failed shove (V7.7).
    Shove,
}

/// Why a grapple ended (V7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GrappleEnd {
    /// The grappler let go (Release).
    Released,
    /// The grappler spent no AP to sustain it on its turn.
    Unsustained,
    /// The grappled unit broke free (Escape).
    Escaped,
    /// One of the two is out of action (R2.5) or dead.
    OutOfAction,
    /// A push put them apart (V7.7).
    Separated,
}

/// A completed Move's cost (R5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveCost {
    /// Movement spent.
    pub cost: u32,
    /// The unit's Speed.
    pub speed: i32,
    /// Crawled while prone (R4.8).
    pub crawl: bool,
}

/// An attack's roll, every term of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttackRoll {
    /// The attacker.
    pub attacker: UnitId,
    /// The target unit; `None` for a throw at a tile (R9.1).
    pub target: Option<UnitId>,
    /// The attacker's tile.
    pub from: Pos,
    /// The tile aimed at.
    pub at: Pos,
    /// The weapon or thrown object.
    pub weapon: String,
    /// Melee, ranged or thrown.
    pub mode: AttackMode,
    /// A reactive attack (R8.1).
    pub reaction: bool,
    /// Every modifier gathered, with its source and rule.
    pub modifiers: Vec<Modifier>,
    /// The d20s rolled (`1 + |net advantage|`, R0.4); empty for an
    /// automatic hit.
    pub dice: Vec<u32>,
    /// The kept die; `None` for an automatic hit (R7.9).
    pub kept: Option<u32>,
    /// The lowest kept die that is a critical (R7.3).
    pub crit: u32,
    /// Net advantage (R0.4).
    pub advantage: i32,
    /// The attack bonus added to the kept die (R7.1).
    pub bonus: i32,
    /// Kept die + bonus.
    pub total: i32,
    /// The target's DV (R1.1).
    pub dv: i32,
    /// Degrees of success before any parry; 0 is a miss (R7.2).
    pub degrees: i32,
    /// A maneuver's roll (V7): it succeeds on meeting the DV (V7.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maneuver: Option<crate::rules::command::ManeuverKind>,
    /// Die ranks (V6): the contest rolled instead of the d20s (`dice` is
    /// then empty and `kept` `None`; `total` and `dv` are the kept dice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<crate::rules::contest::ContestRoll>,
    /// Energy (V5.10): the Miss Chance rolled against (`dv` is then its
    /// total, `bonus` 0 and `total` the kept d20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub miss_chance: Option<crate::rules::miss_chance::MissChanceRoll>,
}

impl AttackRoll {
    /// The kept die was a natural 20 (or the weapon's crit range, R7.3).
    pub fn natural_20(&self) -> bool {
        self.kept.is_some_and(|k| k >= self.crit)
    }

    /// The kept die was a natural 1 (R7.3).
    pub fn natural_1(&self) -> bool {
        self.kept == Some(1) && !self.natural_20()
    }
}

/// The dice of a damage roll (R7.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRoll {
    /// Sides of each die.
    pub sides: u32,
    /// Each die rolled.
    pub rolls: Vec<u32>,
    /// Dice added for degrees beyond the first (R7.7).
    pub extra: u32,
    /// Flat bonus: the dice's own and the modifiers'.
    pub bonus: i32,
    /// Dice + bonus came below 1 and count as 1 (R7.7).
    pub at_least_one: bool,
}

/// How a unit came to take damage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DamageHow {
    /// A hit's damage roll, with the damage modifiers it added (R7.7), and
    /// halved for an object not made to be thrown (R9.1).
    Hit {
        /// The roll.
        roll: DamageRoll,
        /// The damage modifiers (STR, R7.7).
        modifiers: Vec<Modifier>,
        /// Halved (R9.1).
        halved: bool,
        /// Taken off by a block (V2).
        #[serde(default)]
        blocked: i32,
        /// Absorbed by a ward (V11.3 SD).
        #[serde(
            default,
            skip_serializing_if = "crate::rules::events::payload::is_zero"
        )]
        warded: i32,
    },
    /// Caught by a splash (R9.4), rolled once in its
    /// [`BattleEvent::SplashBurst`].
    Splash,
    /// A fall (V9.4): absolute damage, rolled in its
    /// [`BattleEvent::Fell`](super::BattleEvent::Fell).
    Fall,
    /// A contest's successes (die ranks, V6.4): one damage each, no dice,
    /// no armor.
    Successes {
        /// With bare hands (V6.9): a unit it drops falls stable, not
        /// dying.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unarmed: bool,
    },
    /// A spell's damage (V11.4): its cast level, or its dice per level
    /// (`roll`), rolled once for every target of an area.
    Spell {
        /// The spell.
        spell: String,
        /// The cast level.
        level: i32,
        /// The dice, when it rolls some.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<DamageRoll>,
        /// No armor stands against it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        absolute: bool,
    },
}

/// What provokes (R8.2), and what a side is asked about (R8, V2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Trigger {
    /// Leaving this tile during a Move or a Charge.
    Leave(Pos),
    /// Making a ranged attack.
    Shoot,
    /// Casting a spell at range (V11.1).
    Cast,
    /// Throwing.
    Throw,
    /// Standing up.
    StandUp,
    /// Picking up an object.
    PickUp,
    /// Being attacked under active defence (V2): the question is how to
    /// answer (block, parry, dodge or not at all), not whether to strike.
    Attacked,
    /// Being maneuvered against untrained, or grappled or shoved while
    /// holding a melee weapon (V7.2): only the target may react.
    Maneuver,
    /// Being struck bare-handed while holding a melee weapon, under die
    /// ranks (V6.9): only the target may react.
    BareHands,
}

impl Trigger {
    /// As the log says it: "leaving (2, 2)", "shooting".
    pub fn describe(&self) -> String {
        match self {
            Trigger::Leave(p) => format!("leaving {p}"),
            Trigger::Shoot => "shooting".into(),
            Trigger::Cast => "casting at range (V11.1)".into(),
            Trigger::Throw => "throwing".into(),
            Trigger::StandUp => "standing up".into(),
            Trigger::PickUp => "picking up".into(),
            Trigger::Attacked => "attacking".into(),
            Trigger::Maneuver => "maneuvering".into(),
            Trigger::BareHands => "striking bare-handed at a weapon".into(),
        }
    }
}

/// How a battle ended (R11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// A side won, and by which condition.
    Victory {
        /// Index of the winning side.
        side: usize,
        /// The condition met.
        by: VictoryKind,
    },
    /// Nobody won: the round limit passed, or no one is left standing.
    Draw,
}

/// The condition a side won by (R11, the level's `victory` list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VictoryKind {
    /// Every enemy out of action (R2.5).
    Eliminate,
    /// A zone held for some rounds.
    HoldZone,
    /// Some rounds survived.
    SurviveRounds,
    /// A unit reached an exit zone.
    ReachExit,
}

impl fmt::Display for VictoryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Why a rider fell off its mount (V12.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FallCause {
    /// The mount fell out of action.
    MountDown,
    /// The rider was knocked prone (a trip, V7.4).
    Prone,
    /// The rider itself fell out of action.
    RiderDown,
}

/// Skips a zero in saves and replays.
pub(crate) fn is_zero(n: &i32) -> bool {
    *n == 0
}
