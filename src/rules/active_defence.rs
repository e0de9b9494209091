//! V2 active defence (004 with 003's notes; a level's `rules: (defence:
//! Active)`): the defender answers an attack with Block, Parry or Dodge, a
//! d12 against the attack's total.
//!
//! - **Block** (a shield): MB + STR + Block Value + 1d12 ≥ total: the damage
//!   is reduced by Block Strength (catalog `block`, `block_strength`).
//! - **Parry** (a melee weapon, melee attacks only): MB + best of STR and
//!   DEX + the weapon's attack and `parry` bonuses + 1d12 ≥ total; a d12 of
//!   10 or more is a perfect parry, no damage; otherwise the defender picks
//!   the zone the hit lands on (V4, no zone d10 then) and rolls a second d12:
//!   at least the first, no damage.
//! - **Dodge**: DEX + PER (WIS) + 1d12 ≥ total: no damage, shots too.
//!
//! *Decisions* (DECISIONS.md): the hit still has to beat a DV, the part of
//! R1.1 that is not the defender's own quickness (10 + armor + readied
//! shield + Defend + cover: DEX goes into Dodge instead), and its degrees
//! count as before. Each answer spends one reaction (R3.2). No answer is
//! possible off-guard (R2.3), from the rear (R4.3), out of action or with no
//! reaction left; a prone unit cannot dodge. Throws (R9) aim at a tile and
//! are not answered. The defender declares its answer when the attack is
//! declared: a human side is asked (the `Ask` flow of R8), the AI and sides
//! that always react pick the answer that lets the least damage through, a
//! scenario names it in `defences` (else block, parry, dodge in that order).

use super::command::Command;
use super::events::{BattleEvent, emit, id_of};
use super::facing::is_rear_attack;
use super::modifiers::{AttackDraft, AttackMode, gather};
use super::out_of_action;
use super::reactions::{Decisions, ReactionPolicy, policy_of};
use super::threat::melee_weapon_for;
use crate::battle::{Battlefield, OffGuard, Prone, Reactions, Side, Stats};
use crate::dice::Dice;
use crate::format::{BodyPart, Defence, Guard};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// Whether the level plays with active defence.
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().defence == Defence::Active)
}

/// A scenario's answers (`defences: { "T": Dodge }`): named units answer so;
/// the others by the scenario default (block, parry, dodge).
#[derive(Resource, Clone, Debug, Default)]
pub struct GuardOrders(pub HashMap<Entity, Guard>);

/// An answer a defender can give an attack, with its numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuardOdds {
    /// Which.
    pub guard: Guard,
    /// Added to the d12.
    pub value: i32,
    /// Block Strength (0 for the others).
    pub strength: i32,
    /// A parry's chosen zone and the AR that stands there (V4).
    pub zone: Option<(BodyPart, i32)>,
}

/// Whether the target of `draft` may answer it at all.
pub fn able(world: &World, draft: &AttackDraft) -> bool {
    let target = draft.target;
    on(world)
        && draft.mode != AttackMode::Thrown
        && !draft.auto_hit()
        && world.get_entity(target).is_ok()
        && world
            .get::<Side>(target)
            .is_some_and(|s| policy_of(world, s.0) != ReactionPolicy::Never)
        && !out_of_action(world, target)
        && !world.entity(target).contains::<OffGuard>()
        && world.get::<Reactions>(target).is_some_and(|n| n.0 > 0)
        && !is_rear_attack(world, draft.from, target)
}

/// The answers `draft`'s target has, in the order block, parry, dodge
/// (empty when it may give none).
pub fn options(world: &World, draft: &AttackDraft) -> Vec<GuardOdds> {
    if !able(world, draft) {
        return vec![];
    }
    let target = draft.target;
    let Some(t) = world.get::<Stats>(target).map(|s| &s.template) else {
        return vec![];
    };
    let catalog = &world.resource::<Battlefield>().0.catalog;
    let mut out = vec![];
    if let Some(shield) = t.shield.as_ref().and_then(|s| catalog.shield(s)) {
        out.push(GuardOdds {
            guard: Guard::Block,
            value: t.mb + t.str + shield.block_bonus(),
            strength: shield.strength().max(0),
            zone: None,
        });
    }
    if draft.mode == AttackMode::Melee
        && let Some(weapon) = melee_weapon_for(world, target, 1)
    {
        out.push(GuardOdds {
            guard: Guard::Parry,
            value: super::parry::parry_bonus(t, &weapon) + weapon.parry,
            strength: 0,
            zone: parry_zone(world, target),
        });
    }
    if !world.entity(target).contains::<Prone>() {
        out.push(GuardOdds {
            guard: Guard::Dodge,
            value: t.dex + t.wis,
            strength: 0,
            zone: None,
        });
    }
    out
}

/// The zone a parrying defender lets the hit land on (V4): the one where
/// the most armor stands, the first in d10 order on a tie.
fn parry_zone(world: &World, unit: Entity) -> Option<(BodyPart, i32)> {
    if !super::hit_zones::on(world) {
        return None;
    }
    BodyPart::all()
        .into_iter()
        .map(|p| (p, super::hit_zones::armor_faced(world, unit, Some(p))))
        .rev()
        .max_by_key(|(_, ar)| *ar)
}

/// The answer the target of the `gathered` draft gives, declared with the
/// attack: a scenario's order, a human's answer, else the one that lets
/// the least damage through ([`best`]). `None` when it gives none.
pub fn chosen(world: &World, gathered: &AttackDraft) -> Option<GuardOdds> {
    let draft = gathered;
    let options = options(world, draft);
    if options.is_empty() {
        return None;
    }
    let pick = |g: Guard| options.iter().copied().find(|o| o.guard == g);
    if let Some(orders) = world.get_resource::<GuardOrders>() {
        // A scenario: its named answer (none when the unit lacks it), else
        // the first it has of block, parry, dodge (FORMAT.md).
        return match orders.0.get(&draft.target) {
            Some(g) => pick(*g),
            None => options.first().copied(),
        };
    }
    if let Some(g) = world
        .get_resource::<Decisions>()
        .and_then(|d| d.guard_of(draft.target))
    {
        return pick(g);
    }
    best(world, draft, &options)
}

/// Of `options`, the answer that lets the least damage through to HP (the
/// exact preview of the `gathered` draft), then the least before armor.
pub fn best(world: &World, gathered: &AttackDraft, options: &[GuardOdds]) -> Option<GuardOdds> {
    let base = super::preview::preview_of(world, gathered);
    let score = |p: &super::preview::AttackPreview| (p.harm(), p.expected_damage);
    let mut best: Option<(GuardOdds, (f64, f64))> = None;
    for o in options {
        let s = score(&base.guarded(Some(*o)));
        if best.is_none_or(|(_, b)| s < b) {
            best = Some((*o, s));
        }
    }
    best.map(|(o, _)| o)
}

/// What a hit is after the defender's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Answered {
    /// Degrees left (0: no damage).
    pub degrees: i32,
    /// Damage taken off by a block.
    pub reduce: i32,
    /// The zone a parry chose (V4).
    pub zone: Option<BodyPart>,
}

/// Rolls the defender's answer to a hit of `degrees` with `total` (its
/// d12s right after the attack's d20s, FORMAT.md) and tells it.
pub fn answer(world: &mut World, draft: &AttackDraft, total: i32, degrees: i32) -> Answered {
    let mut out = Answered {
        degrees,
        ..default()
    };
    if degrees <= 0 {
        return out;
    }
    let Some(odds) = chosen(world, draft) else {
        return out;
    };
    if let Some(mut n) = world.get_mut::<Reactions>(draft.target) {
        n.0 -= 1;
    }
    let roll = world.resource_mut::<Dice>().roll(12);
    let success = roll as i32 + odds.value >= total;
    let mut second = None;
    if success {
        match odds.guard {
            Guard::Block => out.reduce = odds.strength,
            Guard::Dodge => out.degrees = 0,
            Guard::Parry if roll >= 10 => out.degrees = 0,
            Guard::Parry => {
                out.zone = odds.zone.map(|z| z.0);
                let again = world.resource_mut::<Dice>().roll(12);
                second = Some(again);
                if again >= roll {
                    out.degrees = 0;
                }
            }
            Guard::None => {}
        }
    }
    let event = BattleEvent::Guarded {
        unit: id_of(world, draft.target),
        guard: odds.guard,
        roll,
        value: odds.value,
        against: total,
        success,
        second,
        zone: out.zone,
        reduce: out.reduce,
        avoided: out.degrees == 0,
    };
    emit(world, event);
    out
}

/// The chance a d12 + `value` meets `total`.
pub fn meets(value: i32, total: i32) -> f64 {
    let need = total - value;
    f64::from((13 - need).clamp(0, 12)) / 12.0
}

/// The attack `command` (an Attack or a Charge by `actor` on `target`)
/// declares, drafted before it is carried out, for the defender's question
/// (V2): its weapon, Power Attack, Lunge and aimed part as ordered; a
/// Charge's from `charge_end` (its planned path's end) when known, else
/// from where the charger stands.
pub fn declared_attack(
    world: &World,
    actor: Entity,
    target: Entity,
    command: &Command,
    charge_end: Option<crate::grid::Pos>,
) -> Option<AttackDraft> {
    match command {
        Command::Attack {
            weapon,
            power,
            lunge,
            part,
            ..
        } => {
            let mut d =
                super::resolution::draft_for(world, actor, target, weapon.as_deref()).ok()?;
            (d.power, d.lunge, d.aim) = (*power, *lunge, *part);
            Some(d)
        }
        Command::Charge { .. } => {
            let mut d = super::resolution::draft_for(world, actor, target, None).ok()?;
            d.charge = true;
            d.from = charge_end.unwrap_or(d.from);
            Some(d)
        }
        _ => None,
    }
}

/// The attack held for the defenders' answers (V2).
pub fn held_attack(world: &World) -> Option<AttackDraft> {
    let held = world.get_resource::<Decisions>()?.held.clone()?;
    let actor = world.resource::<super::TurnState>().current?;
    let target = super::unit_named(world, held.target()?)?;
    declared_attack(world, actor, target, &held, None)
}

/// The answers `defender` has to the held attack (V2), `None` left out.
pub fn held_attack_options(world: &World, defender: Entity) -> Vec<Guard> {
    held_attack(world)
        .filter(|d| d.target == defender)
        .map(|d| options(world, &d).into_iter().map(|o| o.guard).collect())
        .unwrap_or_default()
}

/// The held attack on `defender` previewed with each answer it has and
/// with none (the question's odds, V2).
pub fn held_attack_odds(
    world: &mut World,
    defender: Entity,
) -> Vec<(Guard, super::preview::AttackPreview)> {
    let Some(draft) = held_attack(world).filter(|d| d.target == defender) else {
        return vec![];
    };
    let options = options(world, &draft);
    let gathered = gather(world, draft);
    let base = super::preview::preview_of(world, &gathered);
    options
        .iter()
        .map(|o| (o.guard, base.guarded(Some(*o))))
        .chain([(Guard::None, base.clone())])
        .collect()
}

/// The answer to the held attack that lets the least damage through.
pub fn held_attack_best(world: &mut World, defender: Entity) -> Option<Guard> {
    let draft = held_attack(world).filter(|d| d.target == defender)?;
    let options = options(world, &draft);
    let gathered = gather(world, draft);
    best(world, &gathered, &options).map(|o| o.guard)
}
