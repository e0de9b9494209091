//! R7.7 damage and R1.2 armor reduction: what a hit does.

use super::hit::{AttackResult, Hit, HitSchedule, run};
use crate::battle::{ArmorReduction, Dying, Health, Side, Stable, Tally};
use crate::dice::Dice;
use crate::format::Dice as DiceExpr;
use crate::rules::dying::{fall_dying, fall_stable, hit_while_down};
use crate::rules::events::{BattleEvent, DamageHow, DamageRoll, emit, id_of};
use crate::rules::modifiers::{AttackDraft, Effect, Modifier, damage_degrees};
use bevy::prelude::*;

/// Rolls damage (R7.7): the dice of `dice`, one extra die of the same size
/// per degree beyond the first, plus `bonus`; at least 1. Returns the total
/// and the roll.
pub fn roll_damage(
    world: &mut World,
    dice: &DiceExpr,
    degrees: i32,
    bonus: i32,
) -> (i32, DamageRoll) {
    let extra = (degrees - 1).max(0) as u32;
    let rolls = world
        .resource_mut::<Dice>()
        .roll_many(dice.count + extra, dice.sides);
    let sum: i32 = rolls.iter().map(|&r| r as i32).sum::<i32>() + dice.bonus + bonus;
    let roll = DamageRoll {
        sides: dice.sides,
        rolls,
        extra,
        bonus: dice.bonus + bonus,
        at_least_one: sum < 1,
    };
    (sum.max(1), roll)
}

/// The damage modifiers of a gathered draft (R7.7), for the log.
pub fn damage_modifiers(draft: &AttackDraft) -> Vec<Modifier> {
    draft
        .modifiers
        .iter()
        .filter(|m| matches!(m.effect, Effect::Damage(_)))
        .cloned()
        .collect()
}

/// Applies a hit: against a dying or stable unit the rules of R10.3 and
/// R10.4; otherwise where it lands ([`HitSchedule::Land`]), its damage to
/// AR, then HP (R1.2), and a fall at 0 HP (R10.1). Then what else it does
/// ([`HitSchedule::Wound`]).
pub fn apply_hit(world: &mut World, draft: &AttackDraft, result: &AttackResult) {
    let target = draft.target;
    let mut hit = Hit::new(draft.clone(), result.kept, result.total, result.degrees);
    (hit.reduce, hit.zone, hit.absorb) = (result.reduce, result.zone, result.absorb);
    if is_down(world, target) {
        hit.down = true;
        hit_while_down(world, target);
        run(world, HitSchedule::Wound, hit);
        return;
    }
    let hit = run(world, HitSchedule::Land, hit);
    // V3 as 001 has it: the hit injures and deals no HP; no damage dice.
    if world
        .get_resource::<crate::battle::Battlefield>()
        .is_some_and(|f| f.0.rules().injure_only())
        && draft.maneuver.is_none()
    {
        run(world, HitSchedule::Wound, hit);
        return;
    }
    // Die ranks (V6.4): the successes are the damage.
    if draft.contest.is_some() {
        deal_successes(world, draft, result.degrees);
        run(world, HitSchedule::Wound, hit);
        return;
    }
    // V10.2: the size's degrees add or take away dice, never the first.
    let degrees = damage_degrees(result.degrees, draft.degree_shift());
    let (damage, roll) = roll_damage(world, &draft.weapon.damage, degrees, draft.damage_bonus());
    // An answer (a block, V2) may take some off.
    let blocked = hit.reduce.min(damage);
    // Then a ward absorbs some (V11.3 SD).
    let absorbed = hit.absorb.min(damage - blocked);
    let how = DamageHow::Hit {
        roll,
        modifiers: damage_modifiers(draft),
        halved: false,
        blocked,
        warded: absorbed,
    };
    take_damage_on(
        world,
        target,
        damage - blocked - absorbed,
        how,
        draft.attacker,
        hit.armor,
    );
    run(world, HitSchedule::Wound, hit);
}

/// A contest's hit (die ranks, V6.4): 1 damage per success (after a
/// size's shift, V10.2), no dice, no STR, and no AR (armor counts in the
/// DEF die). V3 as 001 has it (`hp_damage: false`) deals none.
pub fn deal_successes(world: &mut World, draft: &AttackDraft, degrees: i32) {
    if world
        .get_resource::<crate::battle::Battlefield>()
        .is_some_and(|f| f.0.rules().injure_only())
    {
        return;
    }
    let damage = damage_degrees(degrees, draft.degree_shift());
    let how = DamageHow::Successes {
        unarmed: draft.weapon.name == crate::format::UNARMED,
    };
    take_damage_on(world, draft.target, damage, how, draft.attacker, Some(0));
}

/// Whether `unit` is dying or stable: a hit on it deals no damage (R10.3).
pub fn is_down(world: &World, unit: Entity) -> bool {
    world
        .get_entity(unit)
        .is_ok_and(|e| e.contains::<Dying>() || e.contains::<Stable>())
}

/// `unit` takes `damage` from `source`: from its AR first, what is left from
/// its HP (R1.2); at 0 HP it falls dying (R10.1).
pub fn take_damage(world: &mut World, unit: Entity, damage: i32, how: DamageHow, source: Entity) {
    take_damage_on(world, unit, damage, how, source, None);
}

/// [`take_damage`] where no more than `armor` of the AR stands (`None`: the
/// whole pool), as where a hit lands (a bare zone, V4).
pub fn take_damage_on(
    world: &mut World,
    unit: Entity,
    damage: i32,
    how: DamageHow,
    source: Entity,
    armor: Option<i32>,
) {
    let how_was_unarmed = matches!(how, DamageHow::Successes { unarmed: true });
    let ar = world.get::<ArmorReduction>(unit).map_or(0, |a| a.0);
    let faced = armor.map_or(ar, |a| a.min(ar));
    let absorbed = faced.min(damage);
    let through = damage - absorbed;
    if let Some(mut a) = world.get_mut::<ArmorReduction>(unit) {
        a.0 -= absorbed;
    }
    let (before, after) = match world.get_mut::<Health>(unit) {
        Some(mut h) => {
            let before = h.hp;
            h.hp = (h.hp - through).max(0);
            (before, h.hp)
        }
        None => (0, 0),
    };
    let event = BattleEvent::Damaged {
        unit: id_of(world, unit),
        source: id_of(world, source),
        how,
        amount: damage,
        absorbed,
        ar_left: ar - absorbed,
        hp_before: before,
        hp_after: after,
    };
    emit(world, event);
    let dropped = after == 0 && before > 0;
    tally(world, source, unit, damage, dropped);
    if dropped && how_was_unarmed {
        // V6.9: beaten senseless with bare hands, not dying.
        fall_stable(world, unit);
    } else if dropped {
        fall_dying(world, unit);
    }
}

/// Counts the damage for the reports ([`Tally`]); a drop counts for the
/// source only against an enemy.
fn tally(world: &mut World, source: Entity, unit: Entity, damage: i32, dropped: bool) {
    let enemy = world.get::<Side>(source) != world.get::<Side>(unit);
    if let Some(mut t) = world.get_mut::<Tally>(unit) {
        t.taken += damage;
    }
    if source != unit
        && let Some(mut t) = world.get_mut::<Tally>(source)
    {
        t.dealt += damage;
        t.downed += u32::from(dropped && enemy);
    }
}
