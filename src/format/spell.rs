//! The spells of V11 (VARIANTS.md; a level's `rules: (spells: true)`): the
//! catalog's `spells` list and what each entry says.

use super::dice::Dice;
use super::measures::{DamageType, Range};
use serde::{Deserialize, Serialize};

/// How a spell is resolved (004:110–132).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpellKind {
    /// PA: d20 + the attribute against DV, like a ranged attack.
    Projectile,
    /// SA: d20 + the attribute sets the DC of each target's save.
    Attack,
    /// DC: a flat 10 + the attribute sets the DC.
    Determined,
    /// DC+: a d20 counted as at least 10, + the attribute, sets the DC.
    DeterminedPlus,
    /// No roll: the effect applies.
    Surecast,
    /// SD: a reaction to an attack, 1d12 + the attribute against its total.
    Defense,
}

impl SpellKind {
    /// Resolved by the targets' saves (SA, DC, DC+).
    pub fn saved(self) -> bool {
        matches!(
            self,
            SpellKind::Attack | SpellKind::Determined | SpellKind::DeterminedPlus
        )
    }
}

/// An attribute a spell rolls or a target saves with; 004's INT, WIL and
/// CHA read as WIS (VARIANTS.md §0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attribute {
    /// Strength.
    Str,
    /// Dexterity.
    Dex,
    /// Constitution (002's Fortitude).
    Con,
    /// Wisdom.
    #[default]
    Wis,
    /// Intelligence: read as WIS.
    Int,
    /// Will: read as WIS.
    Wil,
    /// Charisma: read as WIS.
    Cha,
}

impl Attribute {
    /// Its value among a unit's four attributes (INT, WIL and CHA read as
    /// WIS).
    pub fn of_stats(self, str: i32, dex: i32, con: i32, wis: i32) -> i32 {
        match self {
            Attribute::Str => str,
            Attribute::Dex => dex,
            Attribute::Con => con,
            Attribute::Wis | Attribute::Int | Attribute::Wil | Attribute::Cha => wis,
        }
    }

    /// Its short name for the log ("WIS").
    pub fn label(self) -> &'static str {
        match self {
            Attribute::Str => "STR",
            Attribute::Dex => "DEX",
            Attribute::Con => "CON",
            Attribute::Wis => "WIS",
            Attribute::Int => "INT (WIS)",
            Attribute::Wil => "WIL (WIS)",
            Attribute::Cha => "CHA (WIS)",
        }
    }
}

/// What a damaging spell deals (V11.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpellDamage {
    /// Its cast level, flat (000:46).
    Level,
    /// These dice per cast level (004:161–170).
    Dice(Dice),
}

/// A spell's keywords (004:133–159).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Keyword {
    /// Held one at a time; ends on a failed save when hit (V11.5).
    Concentration,
    /// Triggers on each tile entered in its radius (V11.6).
    Field,
    /// Triggers on entering its radius (V11.6).
    Zone,
    /// Harms the target's condition.
    Affliction,
    /// Holds the target.
    Control,
    /// Restores HP.
    Heal,
    /// Helps allies.
    Support,
    /// Moves units.
    Movement,
    /// Changes the ground.
    Terrain,
}

/// What a spell does besides damage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpellEffect {
    /// Nothing more.
    #[default]
    None,
    /// The target falls prone (R4.8).
    Prone,
    /// The target is grabbed (V7.6).
    Grabbed,
    /// Heals these dice per cast level (R10.5).
    Heal(Dice),
    /// Absorbs these dice per cast level of a hit (a shield spell, SD).
    Absorb(Dice),
}

/// A spell of the catalog (V11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    /// Unique name.
    pub name: String,
    /// How it is resolved.
    pub kind: SpellKind,
    /// The attribute of its roll.
    #[serde(default)]
    pub attribute: Attribute,
    /// The attribute its targets save with (SA, DC, DC+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<Attribute>,
    /// Its base level: the least it is cast at.
    #[serde(default = "one")]
    pub level: i32,
    /// The most it may be upcast to (V11.2); its level when omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upcast: Option<i32>,
    /// What it deals, if it harms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<SpellDamage>,
    /// The kind of its damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// How far it reaches, as a ranged weapon's (R7.4); the caster's own
    /// tile and those beside it when omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// A touch: range 1, against the touch DV, no armor nor shield (001:18).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub touch: bool,
    /// Its area: every unit within this distance of the tile aimed at
    /// (R0.3); 0 for one target.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub radius: i32,
    /// Keywords.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<Keyword>,
    /// Rounds a field or zone lasts without concentration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<u32>,
    /// What it does besides damage.
    #[serde(default, skip_serializing_if = "is_none_effect")]
    pub effect: SpellEffect,
    /// No armor stands against its damage.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub absolute: bool,
}

fn one() -> i32 {
    1
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

fn is_none_effect(e: &SpellEffect) -> bool {
    *e == SpellEffect::None
}

impl Spell {
    /// The highest level it may be cast at (V11.2).
    pub fn top(&self) -> i32 {
        self.upcast.unwrap_or(self.level).max(self.level)
    }

    /// Whether it has `k`.
    pub fn has(&self, k: Keyword) -> bool {
        self.keywords.contains(&k)
    }
}

/// The MP a cast at `level` costs (V11.2, 004:164–170): Fib(level + 1),
/// so 1, 2, 3, 5, 8, 13 …
pub fn mp_cost(level: i32) -> i32 {
    let (mut a, mut b) = (1, 1);
    for _ in 1..level.max(1) {
        (a, b) = (b, a + b);
    }
    b
}

#[cfg(test)]
mod tests {
    #[test]
    fn upcasting_costs_the_fibonacci_ladder() {
        let costs: Vec<i32> = (1..=6).map(super::mp_cost).collect();
        assert_eq!(costs, vec![1, 2, 3, 5, 8, 13]);
    }
}
