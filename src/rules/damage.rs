//! R7.7 damage and R1.2 armor reduction: what a hit does.

use super::dying::{fall_dying, hit_while_down};
use super::log::log;
use super::modifiers::AttackDraft;
use crate::battle::{ArmorReduction, Dying, Health, Side, Stable, Tally};
use crate::dice::Dice;
use crate::format::Dice as DiceExpr;
use bevy::prelude::*;

/// Rolls damage (R7.7): the dice of `dice`, one extra die of the same size
/// per degree beyond the first, plus `bonus`; at least 1. Returns the total
/// and the roll as text for the log.
pub fn roll_damage(world: &mut World, dice: &DiceExpr, degrees: i32, bonus: i32) -> (i32, String) {
    let extra = (degrees - 1).max(0) as u32;
    let count = dice.count + extra;
    let rolls: Vec<u32> = (0..count)
        .map(|_| world.resource_mut::<Dice>().roll(dice.sides))
        .collect();
    let sum: i32 = rolls.iter().map(|&r| r as i32).sum::<i32>() + dice.bonus + bonus;
    let total = sum.max(1);
    let rolled: Vec<String> = rolls.iter().map(u32::to_string).collect();
    let mut text = format!("{}d{} [{}]", count, dice.sides, rolled.join(", "));
    if extra > 0 {
        text.push_str(&format!(" ({extra} extra for degrees, R7.7)"));
    }
    if dice.bonus + bonus != 0 {
        text.push_str(&format!(" {:+}", dice.bonus + bonus));
    }
    if sum < 1 {
        text.push_str(" (at least 1, R7.7)");
    }
    (total, text)
}

/// Applies a hit of `degrees` degrees: against a dying or stable unit the
/// rules of R10.3/R10.4; otherwise damage to AR, then HP (R1.2), and a fall
/// at 0 HP (R10.1).
pub fn apply_hit(world: &mut World, draft: &AttackDraft, degrees: i32) {
    let target = draft.target;
    if world.entity(target).contains::<Dying>() || world.entity(target).contains::<Stable>() {
        hit_while_down(world, target);
        return;
    }
    let (damage, text) = roll_damage(world, &draft.weapon.damage, degrees, draft.damage_bonus());
    let extra = draft.listed(|e| matches!(e, super::modifiers::Effect::Damage(_)));
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(" [{extra}]")
    };
    take_damage(
        world,
        target,
        damage,
        &format!("{text}{extra}"),
        draft.attacker,
    );
}

/// `unit` takes `damage` from `source`: from its AR first, what is left from
/// its HP (R1.2); at 0 HP it falls dying (R10.1).
pub fn take_damage(world: &mut World, unit: Entity, damage: i32, how: &str, source: Entity) {
    let ar = world.get::<ArmorReduction>(unit).map_or(0, |a| a.0);
    let absorbed = ar.min(damage);
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
    let name = super::name_of(world, unit);
    let armor = if absorbed > 0 {
        format!(", AR absorbs {absorbed} ({} left, R1.2)", ar - absorbed)
    } else {
        String::new()
    };
    log(
        world,
        format!("  damage {how} = {damage}{armor}; {name} HP {before} → {after}"),
    );
    let dropped = after == 0 && before > 0;
    tally(world, source, unit, damage, dropped);
    if dropped {
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
