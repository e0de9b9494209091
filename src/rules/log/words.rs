//! The log's words: names of units and sides, and how numbers, dice and
//! modifiers are written.

use crate::battle::{Battlefield, UnitId};
use crate::rules::events::DamageRoll;
use crate::rules::modifiers::{Effect, Modifier};
use bevy::prelude::*;
use std::fmt::Write;

/// What the log needs to name things: units by id, sides by index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Unit names, by [`UnitId`].
    pub units: Vec<String>,
    /// Side names, by index.
    pub sides: Vec<String>,
}

impl Names {
    /// The names of the battle in `world`.
    pub fn of(world: &World) -> Self {
        let Some(field) = world.get_resource::<Battlefield>() else {
            return Self::default();
        };
        Self {
            units: field.0.units.iter().map(|u| u.name.clone()).collect(),
            sides: field.0.sides().iter().map(|s| s.name.clone()).collect(),
        }
    }

    /// A unit's name ("?" for an unknown id).
    pub fn unit(&self, id: UnitId) -> &str {
        self.units.get(id.0 as usize).map_or("?", String::as_str)
    }

    /// A side's name.
    pub fn side(&self, side: usize) -> &str {
        self.sides.get(side).map_or("?", String::as_str)
    }
}

/// "1st", "2nd", "3rd", "4th"…
pub(super) fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// "s" unless `n` is 1.
pub(super) fn plural(n: impl Into<i64>) -> &'static str {
    if n.into() == 1 { "" } else { "s" }
}

/// Values joined by commas.
pub(super) fn joined(values: &[u32]) -> String {
    let parts: Vec<String> = values.iter().map(u32::to_string).collect();
    parts.join(", ")
}

/// A damage roll as the log writes it (R7.7): `2d8 [1, 2] (1 extra for
/// degrees, R7.7) +2`.
pub fn roll_text(roll: &DamageRoll) -> String {
    let mut text = format!(
        "{}d{} [{}]",
        roll.rolls.len(),
        roll.sides,
        joined(&roll.rolls)
    );
    if roll.extra > 0 {
        let _ = write!(text, " ({} extra for degrees, R7.7)", roll.extra);
    }
    if roll.bonus != 0 {
        let _ = write!(text, " {:+}", roll.bonus);
    }
    if roll.at_least_one {
        text.push_str(" (at least 1, R7.7)");
    }
    text
}

/// The modifiers of one kind, as the log lists them.
pub fn listed(modifiers: &[Modifier], kind: impl Fn(&Effect) -> bool) -> String {
    let parts: Vec<String> = modifiers
        .iter()
        .filter(|m| kind(&m.effect))
        .map(Modifier::to_string)
        .collect();
    parts.join(", ")
}
