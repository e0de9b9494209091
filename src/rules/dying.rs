//! R10 dying and healing: the fall at 0 HP, the death timer, the dying roll,
//! hits on the dying, Stabilize, potions (drunk as the free action, given
//! for 1 AP: R3 table) and waking up when healed.

use crate::battle::{
    Battlefield, Charged, Dead, Defending, Dying, GridPos, Health, Inventory, Prone, ShieldReady,
    Side, Stable, Stats, change_inventory, name_of,
};
use crate::dice::Dice;
use crate::format::Skill;
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::pipeline::{Pending, handle};
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The DC of a Stabilize check (R10.4).
pub const STABILIZE_DC: i32 = 15;

pub(super) fn plugin(app: &mut App) {
    handle(
        app,
        CommandKind::Stabilize,
        validate_stabilize,
        execute_stabilize,
    );
    handle(
        app,
        CommandKind::DrinkPotion,
        validate_drink_potion,
        execute_drink_potion,
    );
}

/// Rolls a death timer: 1d4 + CON, at least 1 (R10.1).
fn death_timer(world: &mut World, unit: Entity) -> (i32, u32) {
    let con = world.get::<Stats>(unit).map_or(0, |s| s.template.con);
    let d = world.resource_mut::<Dice>().roll(4);
    ((d as i32 + con).max(1), d)
}

/// R10.1: at 0 HP a unit falls prone, unconscious and dying, with a death
/// timer of 1d4 + CON (at least 1). Its "until next turn" stances end.
pub fn fall_dying(world: &mut World, unit: Entity) {
    let (timer, d) = death_timer(world, unit);
    world
        .entity_mut(unit)
        .insert((Prone, Dying { timer }))
        .remove::<(Defending, ShieldReady, Charged, Stable)>();
    let id = id_of(world, unit);
    emit(
        world,
        BattleEvent::FellDying {
            unit: id,
            roll: d,
            timer,
        },
    );
    // R9.2: what stuck in it drops where it falls.
    if let (Some(stuck), Some(at)) = (
        world.entity_mut(unit).take::<crate::battle::Stuck>(),
        world.get::<GridPos>(unit).copied(),
    ) {
        for object in stuck.0 {
            emit(
                world,
                BattleEvent::StuckDropped {
                    object: object.clone(),
                    unit: id,
                    at: at.0,
                },
            );
            world.spawn((crate::battle::GroundObject { name: object }, at));
        }
    }
}

/// A unit dropped to 0 HP with bare hands under die ranks falls prone,
/// unconscious and stable, not dying (V6.9): no death timer.
pub fn fall_stable(world: &mut World, unit: Entity) {
    world
        .entity_mut(unit)
        .insert((Prone, Stable))
        .remove::<(Defending, ShieldReady, Charged, Dying)>();
    let id = id_of(world, unit);
    emit(world, BattleEvent::FellStable(id));
}

/// A hit against a dying unit lowers its timer by 1, no other damage
/// (R10.3); against a stabilised one it makes it dying again with a new
/// timer (R10.4).
pub fn hit_while_down(world: &mut World, unit: Entity) {
    let id = id_of(world, unit);
    if world.entity(unit).contains::<Stable>() {
        world.entity_mut(unit).remove::<Stable>();
        let (timer, d) = death_timer(world, unit);
        world.entity_mut(unit).insert(Dying { timer });
        emit(
            world,
            BattleEvent::DyingAgain {
                unit: id,
                roll: d,
                timer,
            },
        );
        return;
    }
    let timer = world.get::<Dying>(unit).map_or(0, |d| d.timer) - 1;
    emit(
        world,
        BattleEvent::TimerLowered {
            unit: id,
            timer: timer.max(0),
        },
    );
    set_timer(world, unit, timer);
}

fn set_timer(world: &mut World, unit: Entity, timer: i32) {
    if timer <= 0 {
        world.entity_mut(unit).remove::<Dying>().insert(Dead);
        let unit = id_of(world, unit);
        emit(world, BattleEvent::Died { unit });
    } else {
        world.entity_mut(unit).insert(Dying { timer });
    }
}

/// R10.2: a dying unit's turn: d20; on 20 it stops dying and wakes with 1 HP,
/// still prone; otherwise its timer drops by 1 and at 0 it dies.
pub fn roll_dying(world: &mut World, unit: Entity) {
    let d = world.resource_mut::<Dice>().roll(20);
    let id = id_of(world, unit);
    if d == 20 {
        world.entity_mut(unit).remove::<Dying>();
        if let Some(mut h) = world.get_mut::<Health>(unit) {
            h.hp = 1;
        }
        emit(
            world,
            BattleEvent::DyingRolled {
                unit: id,
                roll: d,
                timer: 0,
                woke: true,
            },
        );
    } else {
        let timer = world.get::<Dying>(unit).map_or(1, |t| t.timer) - 1;
        emit(
            world,
            BattleEvent::DyingRolled {
                unit: id,
                roll: d,
                timer: timer.max(0),
                woke: false,
            },
        );
        set_timer(world, unit, timer);
    }
}

/// R10.5: healing restores HP up to the maximum; a dying or stabilised unit
/// that is healed wakes up, prone.
pub fn heal(world: &mut World, unit: Entity, amount: i32) {
    let woke = world.entity(unit).contains::<Dying>() || world.entity(unit).contains::<Stable>();
    world.entity_mut(unit).remove::<(Dying, Stable)>();
    let (before, after) = match world.get_mut::<Health>(unit) {
        Some(mut h) => {
            let before = h.hp;
            h.hp = (h.hp + amount).min(h.max);
            (before, h.hp)
        }
        None => (0, 0),
    };
    let unit = id_of(world, unit);
    emit(
        world,
        BattleEvent::Healed {
            unit,
            before,
            after,
            woke,
        },
    );
}

fn validate_stabilize(world: &mut World) {
    let result = crate::rules::pipeline::actor_and_target(world).and_then(|(actor, target)| {
        let who = crate::battle::name_of(world, target);
        if world.get::<Side>(actor) != world.get::<Side>(target) || actor == target {
            return Err(Refusal::new(Rule::R10_4, format!("{who} is not an ally")));
        }
        if !world.entity(target).contains::<Dying>() {
            return Err(Refusal::new(Rule::R10_4, format!("{who} is not dying")));
        }
        if !crate::battle::beside(world, actor, target) {
            return Err(Refusal::new(Rule::R10_4, format!("{who} is not adjacent")));
        }
        Ok(())
    });
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

/// The chance a Stabilize check with `modifier` (WIS + Medicine) succeeds:
/// d20 + modifier ≥ the DC (R10.4, a check: R0.5, no natural 1 or 20).
pub fn stabilize_chance(modifier: i32) -> f64 {
    let needed = STABILIZE_DC - modifier;
    (f64::from(21 - needed) / 20.0).clamp(0.0, 1.0)
}

/// What a unit adds to its Stabilize check (R10.4): WIS and Medicine.
pub fn stabilize_bonus(t: &crate::format::UnitTemplate) -> (i32, i32) {
    (t.wis, t.skills.get(&Skill::Medicine).copied().unwrap_or(0))
}

fn execute_stabilize(world: &mut World) {
    let Ok((actor, target)) = crate::rules::pipeline::actor_and_target(world) else {
        return;
    };
    let (wis, medicine) = world
        .get::<Stats>(actor)
        .map_or((0, 0), |s| stabilize_bonus(&s.template));
    let d = world.resource_mut::<Dice>().roll(20);
    let total = d as i32 + wis + medicine;
    let success = total >= STABILIZE_DC;
    let event = BattleEvent::Stabilized {
        unit: id_of(world, actor),
        target: id_of(world, target),
        roll: d,
        wis,
        medicine,
        total,
        dc: STABILIZE_DC,
        success,
    };
    emit(world, event);
    if success {
        world.entity_mut(target).remove::<Dying>().insert(Stable);
    }
}

/// The first carried item that heals: what DrinkPotion drinks or gives
/// (R10.5).
pub fn potion_of(world: &World, unit: Entity) -> Option<String> {
    let catalog = &world.resource::<Battlefield>().0.catalog;
    world
        .get::<Inventory>(unit)?
        .items
        .iter()
        .find_map(|(name, count)| {
            (*count > 0 && catalog.item(name).is_some_and(|i| i.heal.is_some()))
                .then(|| name.clone())
        })
}

fn drink_args(world: &mut World) -> Result<(Entity, Entity, String), Refusal> {
    let pending = world.resource::<Pending>();
    let (Some(Command::DrinkPotion { target, .. }), Some(actor)) =
        (pending.command.clone(), pending.actor)
    else {
        return Err(Refusal::unknown("potion: not a DrinkPotion command"));
    };
    let drinker = match target {
        Some(_) => world.resource::<Pending>().target.unwrap_or(actor),
        None => actor,
    };
    let who = name_of(world, actor);
    let potion = potion_of(world, actor)
        .ok_or_else(|| Refusal::new(Rule::R10_5, format!("{who} carries no potion")))?;
    Ok((actor, drinker, potion))
}

fn validate_drink_potion(world: &mut World) {
    let result = drink_args(world).and_then(|(actor, drinker, _)| {
        if actor == drinker {
            return Ok(());
        }
        let whom = name_of(world, drinker);
        if world.get::<Side>(actor) != world.get::<Side>(drinker) {
            return Err(Refusal::new(Rule::R10_5, format!("{whom} is not an ally")));
        }
        if world.entity(drinker).contains::<Dead>() {
            return Err(Refusal::new(Rule::R10_5, format!("{whom} is dead")));
        }
        if crate::battle::beside(world, actor, drinker) {
            Ok(())
        } else {
            Err(Refusal::new(Rule::R10_5, format!("{whom} is not adjacent")))
        }
    });
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn execute_drink_potion(world: &mut World) {
    let Ok((actor, drinker, potion)) = drink_args(world) else {
        return;
    };
    let Some(dice) = world
        .resource::<Battlefield>()
        .0
        .catalog
        .item(&potion)
        .and_then(|i| i.heal.clone())
    else {
        return;
    };
    change_inventory(world, actor, |inv| inv.take(&potion));
    let rolls = world
        .resource_mut::<Dice>()
        .roll_many(dice.count, dice.sides);
    let amount = (rolls.iter().map(|&r| r as i32).sum::<i32>() + dice.bonus).max(0);
    let event = BattleEvent::PotionUsed {
        unit: id_of(world, actor),
        drinker: id_of(world, drinker),
        potion,
        dice: dice.to_string(),
        rolls,
        amount,
    };
    emit(world, event);
    heal(world, drinker, amount);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stabilize_chance_is_the_check_itself() {
        // d20 + modifier ≥ 15 (R10.4, R0.5): a check has no natural 20, so
        // a hopeless helper has no chance at all, and no floor of 5%.
        assert_eq!(stabilize_chance(0), 6.0 / 20.0);
        assert_eq!(stabilize_chance(-30), 0.0);
        assert_eq!(stabilize_chance(14), 1.0);
        assert_eq!(stabilize_chance(30), 1.0);
    }
}
