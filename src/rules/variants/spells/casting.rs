//! A Cast as the rules read it (V11): who casts what, how high and where;
//! how far a spell reaches, and whether its caster holds a focus (V11.7).
//! The words the cast, its effects and its odds share.

use crate::format::{Range, Spell};
use crate::grid::Pos;
use bevy::prelude::*;

/// A Cast as the rules read it: who, what, how high, where.
#[derive(Clone, Debug, PartialEq)]
pub struct Casting {
    /// The caster.
    pub caster: Entity,
    /// The spell.
    pub spell: Spell,
    /// The cast level.
    pub level: i32,
    /// The tile aimed at.
    pub at: Pos,
    /// The unit aimed at, if one.
    pub target: Option<Entity>,
}

/// The farthest a spell reaches (R0.3): ten increments (R7.4), a trio's
/// maximum, or the tiles beside the caster for a touch or a spell with no
/// range.
pub fn reach_of(spell: &Spell) -> i32 {
    match spell.range {
        _ if spell.touch => 1,
        Some(Range::Increment(i)) => 10 * i,
        Some(Range::Trio(_, _, max)) => max,
        None => 1,
    }
}

/// Whether `unit` carries a focus (V11.7): a weapon or an item with the
/// `Focus` trait.
pub fn has_focus(world: &World, unit: Entity) -> bool {
    let catalog = &world.resource::<crate::battle::Battlefield>().0.catalog;
    let Some(inv) = world.get::<crate::battle::Inventory>(unit) else {
        return false;
    };
    let focus = crate::format::WeaponTrait::Focus;
    inv.weapons
        .iter()
        .any(|w| catalog.weapon(w).is_some_and(|w| w.has(focus)))
        || inv
            .items
            .iter()
            .any(|(i, n)| *n > 0 && catalog.item(i).is_some_and(|i| i.traits.contains(&focus)))
}

/// The die `unit` rolls for a spell's `attr` (V11.3, V11.9), with what it
/// adds: a d20 and the attribute; under die ranks (V6), the attribute's die
/// on the ladder (PRE for WIS, FOR for CON, REF for DEX, STR), adding
/// nothing.
pub fn spell_die(world: &World, unit: Entity, attr: crate::format::Attribute) -> (u32, i32) {
    use crate::rules::variants::die_ranks::{self, ladder};
    let value = world
        .get::<crate::battle::Stats>(unit)
        .map_or(0, |s| s.template.attribute(attr));
    if die_ranks::on(world) {
        (ladder::sides(ladder::rank(value)), 0)
    } else {
        (20, value)
    }
}
