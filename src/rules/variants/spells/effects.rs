//! V11.3 resolution by kind and V11.4 what a spell does:
//!
//! - a spell attack (PA) is an attack of the core's, gathered as any other
//!   (range, cover, R7.6, V13), with the spell's attribute in place of
//!   R7.1's bonus, +1 disadvantage without a focus (V11.7), and a touch
//!   against the touch DV (no armor nor shield, 001:18);
//! - a save spell (SA, DC, DC+): the caster's roll sets the DC, every target
//!   in the area saves with d20 + its attribute ≥ it (with +1 advantage
//!   against a caster without a focus), and those that fail suffer;
//! - a Surecast: no roll.
//!
//! Damage is the cast level, or the spell's dice per level, rolled once for
//! every target (VARIANTS.md's dice order: after the saves); armor stands
//! unless the spell is absolute.

use super::casting::{Casting, has_focus};
use crate::battle::{ActionPoints, Battlefield, Dead, GridPos, Stats};
use crate::format::{DamageType, Spell, SpellDamage, SpellEffect, SpellKind, Weapon};
use crate::rules::attacks::damage::{is_down, take_damage_on};
use crate::rules::attacks::resolution::roll;
use crate::rules::dying::hit_while_down;
use crate::rules::events::{BattleEvent, DamageHow, DamageRoll, SpellEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::rule::Rule;
use bevy::prelude::*;
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        aim_the_spell_attack
            .in_set(AttackSystems::Situational)
            .run_if(super::switch::switched_on),
    );
}

/// V11.3 PA: the spell's attribute in place of R7.1's bonus, no answer
/// (*decision*), +1 disadvantage without a focus (V11.7), and a touch
/// meets the touch DV (the armor's and the shield's DV off, 001:18).
fn aim_the_spell_attack(world: &mut World) {
    let mut draft = world.resource::<AttackDraft>().clone();
    let Some(spell) = draft.spell.clone() else {
        return;
    };
    let Some(t) = world
        .get::<Stats>(draft.attacker)
        .map(|s| s.template.clone())
    else {
        return;
    };
    draft
        .modifiers
        .retain(|m| !(matches!(m.effect, Effect::Bonus(_)) && m.rule == Rule::R7_1));
    draft.push(
        Effect::Bonus(t.attribute(spell.attribute)),
        spell.attribute.label(),
        Rule::V11_3,
    );
    if !has_focus(world, draft.attacker) {
        draft.push(Effect::Advantage(-1), "no focus", Rule::V11_7);
    }
    if spell.touch
        && let Some(target) = world.get::<Stats>(draft.target).map(|s| &s.template)
    {
        let worn: Vec<&str> = target
            .armor
            .iter()
            .chain(target.shield.iter())
            .map(String::as_str)
            .collect();
        draft.modifiers.retain(|m| {
            !(matches!(m.effect, Effect::Dv(_)) && worn.iter().any(|w| m.source.starts_with(w)))
        });
    }
    draft.unanswerable = true;
    world.insert_resource(draft);
}

/// The units the spell reaches (R9.4's area: within the radius of the
/// tile aimed at, with a line of effect from it), in the level's order;
/// with no radius, the unit aimed at or standing on the tile.
pub fn targets(world: &World, c: &Casting) -> Vec<Entity> {
    let alive = |e: &Entity| !world.entity(*e).contains::<Dead>();
    if c.spell.radius == 0 {
        let on_tile = crate::battle::unit_on(world, c.at);
        return c.target.or(on_tile).into_iter().filter(alive).collect();
    }
    let map = &world.resource::<Battlefield>().0.map;
    let tiles = crate::rules::throws::throw::splash_tiles(map, c.at, c.spell.radius);
    crate::battle::units(world)
        .into_iter()
        .filter(alive)
        .filter(|e| {
            crate::battle::body_of(world, *e).is_some_and(|b| b.tiles().any(|p| tiles.contains(&p)))
        })
        .collect()
}

/// What a spell deals or heals once rolled: the amount and its dice.
pub(super) struct Harm {
    amount: i32,
    roll: Option<DamageRoll>,
}

/// Rolls `dice` once per cast level (V11.4, 004:161–170): `count × level`
/// dice of its sides and its bonus.
fn per_level(world: &mut World, dice: &crate::format::Dice, level: i32) -> Harm {
    let n = dice.count * level.max(1) as u32;
    let rolls = world
        .resource_mut::<crate::dice::Dice>()
        .roll_many(n, dice.sides);
    let sum = rolls.iter().map(|r| *r as i32).sum::<i32>() + dice.bonus;
    Harm {
        amount: sum.max(1),
        roll: Some(DamageRoll {
            sides: dice.sides,
            rolls,
            extra: 0,
            bonus: dice.bonus,
            at_least_one: sum < 1,
        }),
    }
}

/// The spell's damage, or its healing, rolled once for all its targets.
pub(super) fn harm(world: &mut World, c: &Casting) -> Option<Harm> {
    match (&c.spell.damage, &c.spell.effect) {
        (Some(SpellDamage::Level), _) => Some(Harm {
            amount: c.level,
            roll: None,
        }),
        (Some(SpellDamage::Dice(d)), _) => Some(per_level(world, d, c.level)),
        (None, SpellEffect::Heal(d)) => Some(per_level(world, d, c.level)),
        _ => None,
    }
}

/// What the spell does to `target`: its damage through armor (none if
/// absolute; the down only count the hit, R10.3), its healing, its prone
/// or its grip; a hit on a concentrating unit asks its save (V11.5).
pub(super) fn befall(world: &mut World, c: &Casting, target: Entity, harm: &Option<Harm>) {
    if let (SpellEffect::Heal(_), Some(h)) = (&c.spell.effect, harm) {
        crate::rules::dying::heal(world, target, h.amount);
        return;
    }
    if let Some(h) = harm.as_ref().filter(|_| c.spell.damage.is_some()) {
        if is_down(world, target) {
            hit_while_down(world, target);
        } else {
            let how = DamageHow::Spell {
                spell: c.spell.name.clone(),
                level: c.level,
                roll: h.roll.clone(),
                absolute: c.spell.absolute,
            };
            let armor = c.spell.absolute.then_some(0);
            take_damage_on(world, target, h.amount, how, c.caster, armor);
            super::concentration::check_hit(world, target, h.amount);
        }
    }
    if crate::battle::out_of_action(world, target) {
        // Dropped by a spell, perhaps as a turn opens in a field: what it
        // held goes now, not at the command's end (V11.5).
        super::concentration::fall(world, target);
        return;
    }
    match c.spell.effect {
        SpellEffect::Prone => {
            crate::rules::variants::maneuvers::trip::fell(world, c.caster, target, Rule::V11_4)
        }
        SpellEffect::Grabbed => super::grip::seize(world, c.caster, target, &c.spell.name),
        _ => {}
    }
}

/// A spell attack (PA): an attack of the core's with the spell as its
/// weapon ([`aim_the_spell_attack`]); it counts for R7.6.
pub(super) fn spell_attack(world: &mut World, c: &Casting) {
    let (Some(target), Some(draft)) = (c.target, spell_draft(world, c)) else {
        return;
    };
    let (_, result) = roll(world, draft);
    if let Some(mut ap) = world.get_mut::<ActionPoints>(c.caster) {
        ap.attacks += 1;
    }
    if result.degrees > 0 {
        let harm = harm(world, c);
        befall(world, c, target, &harm);
    }
}

/// The draft of the spell attack (PA) of `c`, as the resolution rolls it
/// and the odds preview it; `None` without a unit aimed at.
pub fn spell_draft(world: &World, c: &Casting) -> Option<AttackDraft> {
    let target = c.target?;
    let from = world.get::<GridPos>(c.caster).map_or(c.at, |p| p.0);
    let weapon = spell_weapon(&c.spell);
    let mode = if weapon.range.is_some() {
        AttackMode::Ranged
    } else {
        AttackMode::Melee
    };
    let mut draft = AttackDraft::new(c.caster, target, weapon, mode, from, c.at);
    draft.spell = Some(Arc::new(c.spell.clone()));
    draft.earlier_attacks = world.get::<ActionPoints>(c.caster).map_or(0, |a| a.attacks);
    Some(draft)
}

/// The spell as the weapon of its attack: its range (none for a touch),
/// reach 1, no bonus of its own.
fn spell_weapon(spell: &Spell) -> Weapon {
    let mut w = crate::rules::attacks::resolution::unarmed();
    w.name = spell.name.clone();
    w.damage_type = spell.damage_type.unwrap_or(DamageType::Bludgeoning);
    w.range = spell.range.filter(|_| !spell.touch);
    w.load = Some(0);
    w
}

/// A save spell (SA, DC, DC+): the caster's roll, each target's save in the
/// level's order, then the damage once for those that failed.
pub(super) fn saved_spell(world: &mut World, c: &Casting) {
    let (dc, focused) = caster_roll(world, c);
    let save = c.spell.save.unwrap_or_default();
    let mut failed = vec![];
    for t in targets(world, c) {
        if !save_against(world, t, save, dc, focused) {
            failed.push(t);
        }
    }
    if failed.is_empty() {
        return;
    }
    let harm = harm(world, c);
    for t in failed {
        befall(world, c, t, &harm);
    }
}

/// The caster's roll that sets a save spell's DC (V11.3): d20 + the
/// attribute (two d20s, the lower kept, without a focus, V11.7), a flat 10
/// for a DC, at least 10 for a DC+; under die ranks the attribute's die
/// alone, half its sides for the flat and the floor (V11.9). Told; returns
/// the DC and whether the caster held a focus.
pub(super) fn caster_roll(world: &mut World, c: &Casting) -> (i32, bool) {
    let focused = has_focus(world, c.caster);
    let (sides, attr) = super::casting::spell_die(world, c.caster, c.spell.attribute);
    // A DC's flat 10 and a DC+'s floor: half the die (10 on a d20).
    let half = sides / 2;
    let (dice, counted) = match c.spell.kind {
        SpellKind::Determined => (vec![], half),
        kind => {
            let n = if focused { 1 } else { 2 };
            let dice = world
                .resource_mut::<crate::dice::Dice>()
                .roll_many(n, sides);
            let kept = dice.iter().copied().min().unwrap_or(1);
            let counted = if kind == SpellKind::DeterminedPlus {
                kept.max(half)
            } else {
                kept
            };
            (dice, counted)
        }
    };
    let dc = counted as i32 + attr;
    let unit = id_of(world, c.caster);
    let roll = SpellEvent::CasterRoll {
        unit,
        sides,
        dice,
        counted,
        bonus: attr,
        dc,
        unfocused: !focused,
    };
    emit(world, BattleEvent::Spell(roll));
    (dc, focused)
}

/// `unit` saves with d20 + its `save` attribute ≥ `dc` (V11.3), two d20s,
/// the higher kept, against a caster without a focus (V11.7); under die
/// ranks with the attribute's die (V11.9). Told; returns whether it saved.
pub(super) fn save_against(
    world: &mut World,
    unit: Entity,
    save: crate::format::Attribute,
    dc: i32,
    focused: bool,
) -> bool {
    let (sides, bonus) = super::casting::spell_die(world, unit, save);
    let n = if focused { 1 } else { 2 };
    let dice = world
        .resource_mut::<crate::dice::Dice>()
        .roll_many(n, sides);
    let kept = dice.iter().copied().max().unwrap_or(1);
    let saved = kept as i32 + bonus >= dc;
    let id = id_of(world, unit);
    let event = SpellEvent::Saved {
        unit: id,
        sides,
        dice,
        kept,
        bonus,
        dc,
        saved,
    };
    emit(world, BattleEvent::Spell(event));
    saved
}
