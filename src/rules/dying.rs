//! R10 dying and healing: the fall at 0 HP, the death timer, the dying roll,
//! hits on the dying, Stabilize, and waking up when healed.

use super::CommandKind;
use super::Pending;
use super::Rule;
use super::command::Refusal;
use super::events::{BattleEvent, emit, id_of};
use crate::battle::{
    Charged, Dead, Defending, Dying, GridPos, Health, Prone, ShieldReady, Side, Stable, Stats,
};
use crate::dice::Dice;
use crate::format::Skill;
use bevy::prelude::*;

/// The DC of a Stabilize check (R10.4).
pub const STABILIZE_DC: i32 = 15;

pub(super) fn plugin(app: &mut App) {
    super::handle(
        app,
        CommandKind::Stabilize,
        validate_stabilize,
        execute_stabilize,
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
    let result = super::actor_and_target(world).and_then(|(actor, target)| {
        let who = super::name_of(world, target);
        if world.get::<Side>(actor) != world.get::<Side>(target) || actor == target {
            return Err(Refusal::new(Rule::R10_4, format!("{who} is not an ally")));
        }
        if !world.entity(target).contains::<Dying>() {
            return Err(Refusal::new(Rule::R10_4, format!("{who} is not dying")));
        }
        let (a, b) = (world.get::<GridPos>(actor), world.get::<GridPos>(target));
        if !matches!((a, b), (Some(a), Some(b)) if a.0.is_adjacent(b.0)) {
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
    let Ok((actor, target)) = super::actor_and_target(world) else {
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
