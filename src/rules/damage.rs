//! R7.7 damage and R1.2 armor reduction: what a hit does.

use super::dying::{fall_dying, hit_while_down};
use super::events::{BattleEvent, DamageHow, DamageRoll, emit, id_of};
use super::modifiers::{AttackDraft, Effect};
use super::resolution::AttackResult;
use crate::battle::{ArmorReduction, Dying, Health, Side, Stable, Tally};
use crate::dice::Dice;
use crate::format::Dice as DiceExpr;
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
pub fn damage_modifiers(draft: &AttackDraft) -> Vec<super::Modifier> {
    draft
        .modifiers
        .iter()
        .filter(|m| matches!(m.effect, Effect::Damage(_)))
        .cloned()
        .collect()
}

/// Applies a hit of `degrees` degrees: against a dying or stable unit the
/// rules of R10.3/R10.4; otherwise damage to AR, then HP (R1.2), and a fall
/// at 0 HP (R10.1).
pub fn apply_hit(world: &mut World, draft: &AttackDraft, result: &AttackResult) {
    let target = draft.target;
    if world.entity(target).contains::<Dying>() || world.entity(target).contains::<Stable>() {
        hit_while_down(world, target);
        // V3: injured while down, with 001's Constitution save.
        let part = super::injuries::part_hit(draft, result.zone);
        super::injuries::inflict(world, target, part, result.degrees, true);
        return;
    }
    // V4: the zone, unless a parry chose it (V2).
    let part = match result.zone {
        Some(zone) => Some(zone),
        None => super::hit_zones::roll_zone(world, target),
    };
    let (damage, roll) = roll_damage(
        world,
        &draft.weapon.damage,
        result.degrees,
        draft.damage_bonus(),
    );
    // V2: a block takes Block Strength off the damage.
    let blocked = result.reduce.min(damage);
    let damage = damage - blocked;
    let how = DamageHow::Hit {
        roll,
        modifiers: damage_modifiers(draft),
        halved: false,
        blocked,
    };
    take_damage_on(world, target, damage, how, draft.attacker, part);
    // V3: the hit's injuries on the part it landed on.
    let part = super::injuries::part_hit(draft, part);
    super::injuries::inflict(world, target, part, result.degrees, false);
}

/// `unit` takes `damage` from `source`: from its AR first, what is left from
/// its HP (R1.2); at 0 HP it falls dying (R10.1).
pub fn take_damage(world: &mut World, unit: Entity, damage: i32, how: DamageHow, source: Entity) {
    take_damage_on(world, unit, damage, how, source, None);
}

/// [`take_damage`] from a hit on body zone `part` (V4): a zone the armor
/// leaves bare meets only the shield's share of the AR.
pub fn take_damage_on(
    world: &mut World,
    unit: Entity,
    damage: i32,
    how: DamageHow,
    source: Entity,
    part: Option<crate::format::BodyPart>,
) {
    let ar = world.get::<ArmorReduction>(unit).map_or(0, |a| a.0);
    let faced = super::hit_zones::armor_faced(world, unit, part);
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
