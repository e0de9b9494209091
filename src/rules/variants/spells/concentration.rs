//! V11.5 concentration (004:136–140): a unit holds one spell of
//! concentration at a time; it may let it go for free (EndConcentration);
//! each hit asks a save, d20 + the better of CON and WIS ≥ max(10, half
//! the damage before armor), rolled right after the hit's damage dice;
//! the spell ends when the save fails or the caster goes out of action,
//! and a caster down loses its MP (003:21, *decision*).

use super::switch::switched_on;
use crate::battle::{Mp, Stats, name_of, out_of_action};
use crate::rules::attacks::hit::{Hit, HitSchedule};
use crate::rules::command::{CommandKind, Refusal};
use crate::rules::events::{BattleEvent, BattleEvents, Broken, SpellEvent, emit, id_of};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Pending, handle};
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The spell a unit concentrates on (V11.5).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Concentrating(pub String);

pub(super) fn plugin(app: &mut App) {
    handle(
        app,
        CommandKind::EndConcentration,
        validate_end,
        let_the_spell_go,
    );
    app.add_systems(
        HitSchedule::Wound,
        hold_on_through_the_hit.run_if(switched_on),
    )
    .add_systems(
        CommandSchedule,
        end_for_the_fallen
            .in_set(CommandSystems::Advance)
            .before(crate::rules::turns::turn::advance_turn)
            .run_if(switched_on),
    );
}

/// `unit` takes up `spell` (its earlier one ends).
pub fn begin(world: &mut World, unit: Entity, spell: &str) {
    if world.get::<Concentrating>(unit).is_some() {
        end(world, unit, Broken::Another);
    }
    world
        .entity_mut(unit)
        .insert(Concentrating(spell.to_string()));
    let unit = id_of(world, unit);
    let event = SpellEvent::Concentrates {
        unit,
        spell: spell.to_string(),
    };
    emit(world, BattleEvent::Spell(event));
}

/// `unit`'s concentration ends, for `why`.
pub fn end(world: &mut World, unit: Entity, why: Broken) {
    let Some(Concentrating(spell)) = world.get::<Concentrating>(unit).cloned() else {
        return;
    };
    world.entity_mut(unit).remove::<Concentrating>();
    let id = id_of(world, unit);
    let ended = SpellEvent::ConcentrationEnded {
        unit: id,
        spell: spell.clone(),
        why,
    };
    emit(world, BattleEvent::Spell(ended));
    // What the spell held lets go (V11.6, V11.4).
    super::held::let_go(world, unit, &spell);
}

/// A concentrating `unit` hit for `damage` (before armor) saves or loses
/// its spell.
pub fn check_hit(world: &mut World, unit: Entity, damage: i32) {
    if damage <= 0 || world.get::<Concentrating>(unit).is_none() || out_of_action(world, unit) {
        return;
    }
    let bonus = world
        .get::<Stats>(unit)
        .map_or(0, |s| s.template.con.max(s.template.wis));
    let dc = (damage / 2).max(10);
    let roll = world.resource_mut::<crate::dice::Dice>().roll(20);
    let held = roll as i32 + bonus >= dc;
    let id = id_of(world, unit);
    let save = SpellEvent::ConcentrationSave {
        unit: id,
        roll,
        bonus,
        dc,
        held,
    };
    emit(world, BattleEvent::Spell(save));
    if !held {
        end(world, unit, Broken::Hit);
    }
}

/// A weapon's hit on a concentrating unit: its damage, just told, asks the
/// save.
fn hold_on_through_the_hit(world: &mut World) {
    let hit = world.resource::<Hit>();
    if hit.down || hit.degrees <= 0 {
        return;
    }
    let target = hit.draft.target;
    let Some(id) = world.get::<crate::battle::UnitId>(target).copied() else {
        return;
    };
    let damage = world
        .resource::<BattleEvents>()
        .all()
        .iter()
        .rev()
        .find_map(|e| match e {
            BattleEvent::Damaged { unit, amount, .. } if *unit == id => Some(*amount),
            _ => None,
        })
        .unwrap_or(0);
    check_hit(world, target, damage);
}

fn validate_end(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    if world.get::<Concentrating>(actor).is_none() {
        let who = name_of(world, actor);
        world.resource_mut::<Pending>().refuse(Refusal::new(
            Rule::V11_5,
            format!("{who} concentrates on no spell"),
        ));
    }
}

fn let_the_spell_go(world: &mut World) {
    if let Some(actor) = world.resource::<Pending>().actor {
        end(world, actor, Broken::LetGo);
    }
}

/// A caster out of action loses its concentration and its MP (V11.2,
/// V11.5).
fn end_for_the_fallen(world: &mut World) {
    let fallen: Vec<Entity> = crate::battle::units(world)
        .into_iter()
        .filter(|e| out_of_action(world, *e))
        .collect();
    for unit in fallen {
        fall(world, unit);
    }
}

/// `unit` is out of action: its concentration ends and its MP are lost
/// (V11.2, V11.5).
pub fn fall(world: &mut World, unit: Entity) {
    end(world, unit, Broken::Down);
    if let Some(mut mp) = world.get_mut::<Mp>(unit) {
        mp.0 = 0;
    }
}
