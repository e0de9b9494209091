//! The spell the player holds ready (V11): what the spell bar arms, the
//! hover previews and a click casts; the caster's spells; what a cast at a
//! tile aims at.

use super::seat::{shown_unit, unit_at};
use crate::battle::{Mp, Stats, name_of};
use crate::format::Spell;
use crate::rules::command::ThrowTarget;
use bevy::prelude::*;

/// The spell the player's caster holds ready, and the level it would be
/// cast at; `None` when none is.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ArmedSpell(pub Option<(String, i32)>);

/// The spells of the player's unit to act (or the tour's), with what it
/// may pay: none when spells are off or it knows none.
pub fn spells_of_actor(world: &World) -> Option<(Entity, Vec<Spell>, i32)> {
    if !crate::rules::variants::spells::on(world) {
        return None;
    }
    let me = shown_unit(world)?;
    let template = &world.get::<Stats>(me)?.template;
    let catalog = &world.resource::<crate::battle::Battlefield>().0.catalog;
    let spells: Vec<Spell> = template
        .spells
        .iter()
        .filter_map(|s| catalog.spell(s).cloned())
        .collect();
    let mp = world.get::<Mp>(me).map_or(0, |m| m.0);
    (!spells.is_empty()).then_some((me, spells, mp))
}

/// What a cast at `tile` aims at: the unit standing there, else the tile.
pub fn aim_at(world: &World, tile: crate::grid::Pos) -> ThrowTarget {
    match unit_at(world, tile) {
        Some(u) => ThrowTarget::Unit(name_of(world, u)),
        None => ThrowTarget::Tile(tile),
    }
}
