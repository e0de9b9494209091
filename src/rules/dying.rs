//! R10 dying and healing: the fall at 0 HP, the death timer, the dying roll,
//! hits on the dying, Stabilize, and waking up when healed.

use super::Pending;
use super::command::Refusal;
use super::log::log;
use crate::battle::{
    Charged, Dead, Defending, Dying, GridPos, Health, Prone, ShieldReady, Side, Stable, Stats,
};
use crate::dice::Dice;
use crate::format::Skill;
use bevy::prelude::*;

/// The DC of a Stabilize check (R10.4).
pub const STABILIZE_DC: i32 = 15;

pub(super) fn plugin(app: &mut App) {
    super::handle(app, "Stabilize", validate_stabilize, execute_stabilize);
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
    let who = super::name_of(world, unit);
    log(
        world,
        format!("  {who} falls, dying: death timer d4 [{d}] + CON = {timer} (R10.1)"),
    );
    // R9.2: what stuck in it drops where it falls.
    if let (Some(stuck), Some(at)) = (
        world.entity_mut(unit).take::<crate::battle::Stuck>(),
        world.get::<GridPos>(unit).copied(),
    ) {
        for object in stuck.0 {
            log(
                world,
                format!("  the {object} stuck in {who} drops at {} (R9.2)", at.0),
            );
            world.spawn((crate::battle::GroundObject { name: object }, at));
        }
    }
}

/// A hit against a dying unit lowers its timer by 1, no other damage
/// (R10.3); against a stabilised one it makes it dying again with a new
/// timer (R10.4).
pub fn hit_while_down(world: &mut World, unit: Entity) {
    let who = super::name_of(world, unit);
    if world.entity(unit).contains::<Stable>() {
        world.entity_mut(unit).remove::<Stable>();
        let (timer, d) = death_timer(world, unit);
        world.entity_mut(unit).insert(Dying { timer });
        log(
            world,
            format!("  {who} is dying again: new timer d4 [{d}] + CON = {timer} (R10.4)"),
        );
        return;
    }
    let timer = world.get::<Dying>(unit).map_or(0, |d| d.timer) - 1;
    log(
        world,
        format!(
            "  the hit lowers {who}'s death timer to {} (R10.3)",
            timer.max(0)
        ),
    );
    set_timer(world, unit, timer);
}

fn set_timer(world: &mut World, unit: Entity, timer: i32) {
    if timer <= 0 {
        world.entity_mut(unit).remove::<Dying>().insert(Dead);
        let who = super::name_of(world, unit);
        log(world, format!("  {who} dies (R10.2)"));
    } else {
        world.entity_mut(unit).insert(Dying { timer });
    }
}

/// R10.2: a dying unit's turn: d20; on 20 it stops dying and wakes with 1 HP,
/// still prone; otherwise its timer drops by 1 and at 0 it dies.
pub fn roll_dying(world: &mut World, unit: Entity) {
    let d = world.resource_mut::<Dice>().roll(20);
    let who = super::name_of(world, unit);
    if d == 20 {
        world.entity_mut(unit).remove::<Dying>();
        if let Some(mut h) = world.get_mut::<Health>(unit) {
            h.hp = 1;
        }
        log(
            world,
            format!("{who} rolls d20 [20] while dying: wakes with 1 HP, prone (R10.2)"),
        );
    } else {
        let timer = world.get::<Dying>(unit).map_or(1, |t| t.timer) - 1;
        log(
            world,
            format!(
                "{who} rolls d20 [{d}] while dying: timer {} (R10.2)",
                timer.max(0)
            ),
        );
        set_timer(world, unit, timer);
    }
}

/// R10.5: healing restores HP up to the maximum; a dying or stabilised unit
/// that is healed wakes up, prone.
pub fn heal(world: &mut World, unit: Entity, amount: i32) -> (i32, i32) {
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
    if woke {
        let who = super::name_of(world, unit);
        log(world, format!("  {who} wakes up, prone (R10.5)"));
    }
    (before, after)
}

fn validate_stabilize(world: &mut World) {
    let result = super::actor_and_target(world).and_then(|(actor, target)| {
        let who = super::name_of(world, target);
        if world.get::<Side>(actor) != world.get::<Side>(target) || actor == target {
            return Err(Refusal::new("R10.4", format!("{who} is not an ally")));
        }
        if !world.entity(target).contains::<Dying>() {
            return Err(Refusal::new("R10.4", format!("{who} is not dying")));
        }
        let (a, b) = (world.get::<GridPos>(actor), world.get::<GridPos>(target));
        if !matches!((a, b), (Some(a), Some(b)) if a.0.is_adjacent(b.0)) {
            return Err(Refusal::new("R10.4", format!("{who} is not adjacent")));
        }
        Ok(())
    });
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
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
    let d = world.resource_mut::<Dice>().roll(20) as i32;
    let total = d + wis + medicine;
    let (who, whom) = (super::name_of(world, actor), super::name_of(world, target));
    let success = total >= STABILIZE_DC;
    log(
        world,
        format!(
            "{who} stabilizes {whom}: d20 [{d}] + WIS {wis} + Medicine {medicine} = {total} vs DC {STABILIZE_DC} → {} (R10.4)",
            if success { "stable" } else { "fails" }
        ),
    );
    if success {
        world.entity_mut(target).remove::<Dying>().insert(Stable);
    }
}
