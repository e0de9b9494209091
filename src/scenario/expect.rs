//! What a scenario expects after its commands (FORMAT.md's expectations,
//! and the project's own: `Event`, `Height`…); [`super`] checks them.

use crate::battle::Condition;
use crate::format::{BodyPart, Severity};
use crate::grid::{Dir, Pos};
use crate::rules::{EventKind, Rule};
use serde::{Deserialize, Serialize};

/// What must hold after the commands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expect {
    /// The unit's HP.
    Hp {
        /// Unit name.
        unit: String,
        /// Expected value.
        is: i32,
    },
    /// The unit's tile.
    At {
        /// Unit name.
        unit: String,
        /// Expected tile.
        is: Pos,
    },
    /// Whether the unit is hidden from the side (V8.2).
    Hidden {
        /// Unit name.
        unit: String,
        /// Side name.
        from: String,
        /// Expected.
        is: bool,
    },
    /// Whether the side sees the tile (V8.1).
    Sees {
        /// Side name.
        side: String,
        /// The tile.
        tile: Pos,
        /// Expected.
        is: bool,
    },
    /// A tile's height in metres (V9.1).
    Height {
        /// The tile.
        tile: Pos,
        /// Expected metres.
        is: i32,
    },
    /// The unit's facing.
    Facing {
        /// Unit name.
        unit: String,
        /// Expected direction.
        is: Dir,
    },
    /// The unit's condition.
    State {
        /// Unit name.
        unit: String,
        /// Expected condition.
        is: Condition,
    },
    /// The unit's armor reduction left (R1.2).
    Ar {
        /// Unit name.
        unit: String,
        /// Expected value.
        is: i32,
    },
    /// Whose turn it is.
    Turn {
        /// Unit name.
        unit: String,
    },
    /// An object lies on a tile.
    ItemAt {
        /// Object name.
        item: String,
        /// Its tile.
        is: Pos,
    },
    /// The log contains a text (case-insensitive).
    Log {
        /// The text.
        contains: String,
    },
    /// No line of the log contains this text (project addition).
    NotLog {
        /// The text.
        contains: String,
    },
    /// Lines containing these texts appear in this order (project addition).
    LogOrder {
        /// The texts, in order.
        contains: Vec<String>,
    },
    /// The unit's stamina (project addition, R7.8, R8.6).
    Stamina {
        /// Unit name.
        unit: String,
        /// Expected value.
        is: i32,
    },
    /// The unit's Energy left this round (V5.2; VARIANTS.md).
    Energy {
        /// Unit name.
        unit: String,
        /// Expected value.
        is: i32,
    },
    /// The unit's Agility left this round (V5.4; VARIANTS.md).
    Agility {
        /// Unit name.
        unit: String,
        /// Expected value.
        is: i32,
    },
    /// The unit's condition under Energy (V5.8; VARIANTS.md): `Exposed`
    /// (by any cause, Unguarded and prone included), `Unguarded`, or, an
    /// extension, `Guarded` for neither.
    Condition {
        /// Unit name.
        unit: String,
        /// Expected condition.
        is: ConditionIs,
    },
    /// The unit's MP left (V11.2; VARIANTS.md).
    Mp {
        /// Unit name.
        unit: String,
        /// Expected value.
        is: i32,
    },
    /// The spell the unit concentrates on, `None` for none (V11.5;
    /// VARIANTS.md).
    Concentrating {
        /// Unit name.
        unit: String,
        /// The spell.
        on: Option<String>,
    },
    /// The AP the unit owes its next turn for its interrupts (die ranks,
    /// V6.6; VARIANTS.md).
    Owed {
        /// Unit name.
        unit: String,
        /// Expected value.
        is: i32,
    },
    /// The command with this 0-based index was refused with this text.
    Rejected {
        /// Index in `commands`.
        command: usize,
        /// Part of the reason (case-insensitive).
        contains: String,
    },
    /// The round number (project addition).
    Round {
        /// Expected round.
        is: u32,
    },
    /// The battle was won by this side (project addition).
    Winner {
        /// Side name.
        side: String,
    },
    /// The battle ended in a draw (project addition).
    Draw,
    /// The unit's death timer (project addition, R10).
    Timer {
        /// Unit name.
        unit: String,
        /// Expected timer.
        is: i32,
    },
    /// Some battle event of this kind happened (project addition): its
    /// variant name (`"Parried"` or `Parried`, see `BattleEvent`),
    /// optionally about this unit and citing this rule. A kind or rule that
    /// does not exist is a load error, with its line and column.
    Event {
        /// The event's kind, e.g. `ReactionTaken`.
        #[serde(with = "event_kind")]
        kind: EventKind,
        /// A unit the event is about ("" for any).
        #[serde(default)]
        unit: String,
        /// A rule the event shows at work, e.g. "R8.5" (none, or "", for
        /// any).
        #[serde(default, with = "any_rule")]
        rule: Option<Rule>,
    },
    /// How firmly `by` grapples the unit (V7.6): `Grabbed`, `Held`, or
    /// `Free` when it does not.
    Grappled {
        /// The grappled unit.
        unit: String,
        /// The grappler.
        by: String,
        /// Grabbed, Held or Free.
        hold: crate::rules::command::Hold,
    },
    /// The mount the unit rides (V12.1), `None` for none.
    Mounted {
        /// Unit name.
        unit: String,
        /// The mount's name.
        on: Option<String>,
    },
    /// The weapon in the unit's hands (V7.5), `"unarmed"` for none.
    Wielding {
        /// Unit name.
        unit: String,
        /// The weapon's name.
        weapon: String,
    },
    /// The unit has an injury of this severity on this part (V3).
    Injury {
        /// Unit name.
        unit: String,
        /// The body part.
        part: BodyPart,
        /// The severity.
        severity: Severity,
    },
}

/// An event kind written as a string (`"Parried"`, as files have always
/// written it) or as a bare name (`Parried`); an unknown name is an error
/// listing the kinds.
mod event_kind {
    use crate::rules::EventKind;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &EventKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<EventKind, D::Error> {
        crate::format::names::by_name(d)
    }
}

/// A rule id written as a string (`"R8.5"`); `""` or none means any rule.
mod any_rule {
    use crate::rules::Rule;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(rule: &Option<Rule>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(rule.map_or("", Rule::id))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Rule>, D::Error> {
        let id = String::deserialize(d)?;
        if id.is_empty() {
            return Ok(None);
        }
        Rule::parse(&id)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown rule id {id:?}")))
    }
}

/// A unit's condition as a scenario's `Condition` expectation names it
/// (V5.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConditionIs {
    /// Exposed: by a cause of its own, Unguarded, or prone.
    Exposed,
    /// Unguarded.
    Unguarded,
    /// Neither (an extension of VARIANTS.md's syntax).
    Guarded,
}
