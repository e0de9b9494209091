//! What the events of spells carry (V11).

use crate::battle::UnitId;
use crate::grid::Pos;
use crate::rules::rule::Rule;
use serde::{Deserialize, Serialize};

/// Why a unit's concentration ended (V11.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Broken {
    /// It let the spell go.
    LetGo,
    /// It began another spell of concentration.
    Another,
    /// A hit broke it: the save failed.
    Hit,
    /// It went out of action.
    Down,
}

/// One of spells' happenings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpellEvent {
    /// A unit cast a spell at `level`, paying `mp` MP (V11.1, V11.2).
    Cast {
        /// The caster.
        unit: UnitId,
        /// The spell.
        spell: String,
        /// The cast level.
        level: i32,
        /// MP paid.
        mp: i32,
        /// MP left.
        mp_left: i32,
        /// The tile aimed at.
        at: Pos,
    },
    /// The caster's roll that sets its targets' saves (SA, DC, DC+; V11.3):
    /// `dice` empty for a DC's flat 10.
    CasterRoll {
        /// The caster.
        unit: UnitId,
        /// The d20s rolled.
        dice: Vec<u32>,
        /// The die counted (10 for a DC; at least 10 for a DC+).
        counted: u32,
        /// The attribute's bonus.
        bonus: i32,
        /// The DC the targets save against.
        dc: i32,
        /// Without a focus: +1 disadvantage (V11.7).
        unfocused: bool,
    },
    /// A target's save (V11.3): d20 + its attribute ≥ the DC.
    Saved {
        /// Who saves.
        unit: UnitId,
        /// The d20s rolled.
        dice: Vec<u32>,
        /// The die kept.
        kept: u32,
        /// Its attribute.
        bonus: i32,
        /// The DC.
        dc: i32,
        /// It saved: the spell does nothing to it.
        saved: bool,
    },
    /// A unit began to concentrate on a spell (V11.5).
    Concentrates {
        /// Who.
        unit: UnitId,
        /// The spell.
        spell: String,
    },
    /// A concentration save on a hit (V11.5): d20 + the better of CON and
    /// WIS ≥ max(10, half the damage).
    ConcentrationSave {
        /// Who.
        unit: UnitId,
        /// The d20.
        roll: u32,
        /// The better of CON and WIS.
        bonus: i32,
        /// The DC.
        dc: i32,
        /// It held.
        held: bool,
    },
    /// A unit's concentration ended (V11.5).
    ConcentrationEnded {
        /// Who.
        unit: UnitId,
        /// The spell.
        spell: String,
        /// Why.
        why: Broken,
    },
}

impl SpellEvent {
    /// The rules each cites.
    pub fn rules(&self) -> Vec<Rule> {
        match self {
            SpellEvent::Cast { .. } => vec![Rule::V11_1, Rule::V11_2],
            SpellEvent::CasterRoll { unfocused, .. } => {
                let mut r = vec![Rule::V11_3];
                if *unfocused {
                    r.push(Rule::V11_7);
                }
                r
            }
            SpellEvent::Saved { .. } => vec![Rule::V11_3],
            SpellEvent::Concentrates { .. }
            | SpellEvent::ConcentrationSave { .. }
            | SpellEvent::ConcentrationEnded { .. } => vec![Rule::V11_5],
        }
    }

    /// The unit it is about.
    pub fn unit(&self) -> UnitId {
        match self {
            SpellEvent::Cast { unit, .. }
            | SpellEvent::CasterRoll { unit, .. }
            | SpellEvent::Saved { unit, .. }
            | SpellEvent::Concentrates { unit, .. }
            | SpellEvent::ConcentrationSave { unit, .. }
            | SpellEvent::ConcentrationEnded { unit, .. } => *unit,
        }
    }
}
