//! What a spell holds while it lasts: the fields and zones on the map
//! (V11.6) and the units in a spell's grip (V11.4), and their letting go
//! when the caster's concentration ends (V11.5). The plain state the
//! concentration, the triggers and the grip's rules share.

use crate::battle::UnitId;
use crate::grid::Pos;
use crate::rules::events::{BattleEvent, Faded, SpellEvent, emit, id_of};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A field or zone lying on the map (V11.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// Its caster.
    pub caster: UnitId,
    /// The spell.
    pub spell: String,
    /// The level it was cast at.
    pub level: i32,
    /// The tiles it covers.
    pub tiles: Vec<Pos>,
    /// A zone: it acts once as a unit comes into it.
    pub zone: bool,
    /// The DC its saves meet, set by the cast (none: no save).
    pub dc: Option<i32>,
    /// The caster held a focus: no advantage on the saves (V11.7).
    pub focused: bool,
    /// It ends with its caster's concentration.
    pub held: bool,
    /// Rounds left, for a spell with a `duration`.
    pub rounds_left: Option<u32>,
}

/// Every field and zone on the map, in the order they were laid.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields(pub Vec<Field>);

/// Held by a spell (V11.4, V7.6 grabbed): on the gripped unit.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Gripped {
    /// The caster whose spell holds it.
    pub by: Entity,
    /// The spell.
    pub spell: String,
}

/// Everything `caster`'s `spell` held lets go: its fields and zones fade
/// (V11.6), its grips release (V11.4).
pub fn let_go(world: &mut World, caster: Entity, spell: &str) {
    let id = id_of(world, caster);
    fade(world, Faded::Unheld, |f| {
        f.held && f.caster == id && f.spell == spell
    });
    release(world, caster, spell);
}

/// Removes the fields `gone` picks, telling each.
pub(super) fn fade(world: &mut World, why: Faded, gone: impl Fn(&Field) -> bool) {
    let Some(mut fields) = world.get_resource_mut::<Fields>() else {
        return;
    };
    let (out, kept): (Vec<Field>, Vec<Field>) = fields.0.drain(..).partition(|f| gone(f));
    fields.0 = kept;
    for f in out {
        let event = SpellEvent::Faded {
            unit: f.caster,
            spell: f.spell,
            why,
        };
        emit(world, BattleEvent::Spell(event));
    }
}

/// Every grip of `caster`'s `spell` lets go.
fn release(world: &mut World, caster: Entity, spell: &str) {
    let held: Vec<Entity> = crate::battle::units(world)
        .into_iter()
        .filter(|e| {
            world
                .get::<Gripped>(*e)
                .is_some_and(|g| g.by == caster && g.spell == spell)
        })
        .collect();
    for e in held {
        world.entity_mut(e).remove::<Gripped>();
        let unit = id_of(world, e);
        let spell = spell.to_string();
        emit(
            world,
            BattleEvent::Spell(SpellEvent::Released { unit, spell }),
        );
    }
}
