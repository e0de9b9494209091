//! V11.3 SD, a Defense spell (004:119–120): a reaction a caster makes when
//! a melee blow, a shot or a spell attack hits it, before the damage dice.
//! It costs the spell's MP (V11.2) and a reaction (V11.1, R3.2); it holds
//! if 1d12 + the spell's attribute ≥ the attack's total, and then absorbs
//! its dice per cast level of the hit (arcane barrier: (level)d6, 004:163),
//! after a block (V2), before armor.
//!
//! The ward is declared with the attack, as V2's answers are, so the
//! attacker's preview counts it exactly: a unit that knows a Defense spell
//! wards at the level [`WardLevels`] sets (its base level unless told), if
//! it has the MP and a reaction when hit, and the total is within its d12's
//! reach (a ward that cannot hold is not cast). *Decisions* (DECISIONS.md
//! "Spells"): not against throws (R9 resolves them apart), nor under Energy
//! or die ranks, whose rolls have no total to meet.

use super::switch::switched_on;
use crate::battle::{Mp, Stats, reactive_attacks_left, spend_reactive_attack};
use crate::format::{SpellEffect, SpellKind, mp_cost};
use crate::rules::attacks::hit::{AnswerSystems, Hit, HitSchedule};
use crate::rules::events::{BattleEvent, DamageRoll, SpellEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Ward};
use bevy::prelude::*;
use std::collections::BTreeMap;

/// The level each unit wards at (0: never); a unit not named wards at its
/// Defense spell's base level. Scenarios set it (`wards`), the window's
/// player may.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct WardLevels(pub BTreeMap<Entity, i32>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<WardLevels>()
        .add_systems(
            AttackSchedule,
            declare_the_ward
                .after(AttackSystems::Answer)
                .run_if(switched_on),
        )
        .add_systems(
            HitSchedule::Answer,
            raise_the_ward
                .after(AnswerSystems::Reactive)
                .run_if(switched_on),
        );
}

/// The ward `unit` would raise against a hit now, if any: its first
/// Defense spell that absorbs, at its ward level, with the MP, a reaction,
/// and arms that can cast (V11.8).
pub fn ward_of(world: &World, unit: Entity) -> Option<Ward> {
    let template = &world.get::<Stats>(unit)?.template;
    let catalog = &world.resource::<crate::battle::Battlefield>().0.catalog;
    let spell = template
        .spells
        .iter()
        .filter_map(|s| catalog.spell(s))
        .find(|s| s.kind == SpellKind::Defense && matches!(s.effect, SpellEffect::Absorb(_)))?;
    let SpellEffect::Absorb(dice) = &spell.effect else {
        return None;
    };
    let wanted = world
        .get_resource::<WardLevels>()
        .and_then(|w| w.0.get(&unit));
    let level = wanted.copied().unwrap_or(spell.level);
    let mp = mp_cost(level);
    let affordable = world.get::<Mp>(unit).is_some_and(|m| m.0 >= mp);
    if level < spell.level || level > spell.top() || !affordable {
        return None;
    }
    if reactive_attacks_left(world, unit) < 1 || crate::battle::out_of_action(world, unit) {
        return None;
    }
    if super::cast::arms_too_hurt(world, unit) {
        return None;
    }
    let count = dice.count * level.max(1) as u32;
    Some(Ward {
        spell: spell.name.clone(),
        level,
        mp,
        bonus: template.attribute(spell.attribute),
        dice: (count, dice.sides, dice.bonus),
        absorbs: absorb_chances(count, dice.sides, dice.bonus).into(),
    })
}

/// `(chance, sum)` of `count` dice of `sides` plus `bonus` (at least 0).
fn absorb_chances(count: u32, sides: u32, bonus: i32) -> Vec<(f64, i32)> {
    crate::rules::attacks::dice_odds::dice_sum(count, sides)
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .map(|(s, p)| (*p, (s as i32 + bonus).max(0)))
        .collect()
}

/// The target declares its ward with the attack, where one may be raised.
fn declare_the_ward(world: &mut World) {
    let draft = world.resource::<AttackDraft>();
    let target = draft.target;
    let wardable = target != Entity::PLACEHOLDER
        && draft.mode != AttackMode::Thrown
        && draft.maneuver.is_none()
        && draft.contest.is_none()
        && draft.miss_chance.is_none()
        && !draft.unseen
        && !draft.auto_hit()
        && world.get_entity(target).is_ok();
    let ward = if wardable && !crate::rules::attacks::damage::is_down(world, target) {
        ward_of(world, target)
    } else {
        None
    };
    world.resource_mut::<AttackDraft>().ward = ward;
}

/// A hit that lands on a warding unit: MP and a reaction paid, the d12
/// against the attack's total, then the absorbing dice if it holds.
fn raise_the_ward(world: &mut World) {
    let hit = world.resource::<Hit>();
    let Some(ward) = hit
        .draft
        .ward
        .clone()
        .filter(|_| hit.degrees > 0 && !hit.down)
    else {
        return;
    };
    let (target, against) = (hit.draft.target, hit.total);
    // A ward that cannot hold is not cast *(decision)*: the total is known
    // as the blow lands.
    if ward.bonus + 12 < against {
        return;
    }
    let mp_left = world.get::<Mp>(target).map_or(0, |m| m.0) - ward.mp;
    world.entity_mut(target).insert(Mp(mp_left));
    spend_reactive_attack(world, target);
    let roll = world.resource_mut::<crate::dice::Dice>().roll(12);
    let held = roll as i32 + ward.bonus >= against;
    let absorb = held.then(|| {
        let rolls = world
            .resource_mut::<crate::dice::Dice>()
            .roll_many(ward.dice.0, ward.dice.1);
        DamageRoll {
            sides: ward.dice.1,
            rolls,
            extra: 0,
            bonus: ward.dice.2,
            at_least_one: false,
        }
    });
    let absorbed: i32 = absorb.as_ref().map_or(0, |r| {
        (r.rolls.iter().map(|d| *d as i32).sum::<i32>() + r.bonus).max(0)
    });
    world.resource_mut::<Hit>().absorb += absorbed;
    let unit = id_of(world, target);
    let event = SpellEvent::Warded {
        unit,
        spell: ward.spell.clone(),
        level: ward.level,
        mp: ward.mp,
        roll,
        bonus: ward.bonus,
        against,
        absorb,
    };
    emit(world, BattleEvent::Spell(event));
}
