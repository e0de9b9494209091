//! What the events of spells carry (V11).

use super::DamageRoll;
use crate::battle::UnitId;
use crate::grid::Pos;
use crate::rules::rule::Rule;
use serde::{Deserialize, Serialize};

fn d20() -> u32 {
    20
}

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

/// Why a field or zone ended (V11.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Faded {
    /// Its caster's concentration ended.
    Unheld,
    /// Its rounds ran out.
    Expired,
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
        /// The sides of its die: 20, or its rank's under die ranks (V11.9).
        #[serde(default = "d20")]
        sides: u32,
        /// The dice rolled.
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
        /// The sides of its die: 20, or its rank's under die ranks (V11.9).
        #[serde(default = "d20")]
        sides: u32,
        /// The dice rolled.
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
    /// A field or zone lies on `tiles` (V11.6).
    Conjured {
        /// The caster.
        unit: UnitId,
        /// The spell.
        spell: String,
        /// The cast level.
        level: i32,
        /// The tiles it covers.
        tiles: Vec<Pos>,
        /// A zone (once on entering), else a field (each tile).
        zone: bool,
        /// The DC it sets for saves, if it is saved against.
        dc: Option<i32>,
        /// Rounds it lasts, if not the caster's concentration nor the whole
        /// battle.
        rounds: Option<u32>,
    },
    /// A unit set off a field or zone (V11.6): entering `at`, or starting
    /// its turn there.
    Triggered {
        /// Who.
        unit: UnitId,
        /// The spell.
        spell: String,
        /// The tile.
        at: Pos,
        /// At the start of its turn (else on entering).
        turn_start: bool,
    },
    /// A field or zone is gone (V11.6).
    Faded {
        /// Its caster.
        unit: UnitId,
        /// The spell.
        spell: String,
        /// Why.
        why: Faded,
    },
    /// A failed save left a unit in a spell's grip (V11.4, V7.6 grabbed).
    Gripped {
        /// Who.
        unit: UnitId,
        /// The caster holding it.
        by: UnitId,
        /// The spell.
        spell: String,
    },
    /// A spell's grip let go: its caster's concentration ended.
    Released {
        /// Who.
        unit: UnitId,
        /// The spell.
        spell: String,
    },
    /// A Defense spell cast against a hit (V11.3 SD): 1d12 + the attribute
    /// ≥ the attack's total, then its absorbing dice.
    Warded {
        /// The caster.
        unit: UnitId,
        /// The spell.
        spell: String,
        /// Its level.
        level: i32,
        /// MP paid.
        mp: i32,
        /// The d12.
        roll: u32,
        /// The attribute.
        bonus: i32,
        /// The attack's total.
        against: i32,
        /// The absorbing dice, if it held.
        absorb: Option<DamageRoll>,
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
            SpellEvent::Conjured { .. }
            | SpellEvent::Triggered { .. }
            | SpellEvent::Faded { .. } => vec![Rule::V11_6],
            SpellEvent::Gripped { .. } | SpellEvent::Released { .. } => {
                vec![Rule::V11_4, Rule::V7_6]
            }
            SpellEvent::Warded { .. } => vec![Rule::V11_1, Rule::V11_3],
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
            | SpellEvent::ConcentrationEnded { unit, .. }
            | SpellEvent::Conjured { unit, .. }
            | SpellEvent::Triggered { unit, .. }
            | SpellEvent::Faded { unit, .. }
            | SpellEvent::Gripped { unit, .. }
            | SpellEvent::Released { unit, .. }
            | SpellEvent::Warded { unit, .. } => *unit,
        }
    }
}
