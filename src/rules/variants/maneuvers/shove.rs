//! V7.7 Shove (Athletics, unarmed, reach 1; 002:581–591): push the target
//! one tile away. The target may be no larger than the shover.
//!
//! - **Where to:** one of the target's neighbouring tiles farther (R0.3)
//!   from the shover than the target is now, passable and free, and not
//!   across a corner (R5.1), chosen by the shover (002:591); the rules'
//!   choice when the command names none *(decision)*: straight on, else the
//!   first clockwise from north. No tile qualifies: the target stays.
//! - Success opens the target, failure the shover (002:583, 585). A push is
//!   not a Move: it provokes nothing *(decision)*.
//! - **Charge-shove** (002:587): a Charge of 3 tiles or more may end in a
//!   shove (`Charge(..., shove: true)`); success drives the target up to 3
//!   tiles straight on in the charge's direction, stopping before an
//!   obstacle.

use super::roll::{
    attempt, is_exposed, larger_by, maneuver_draft, on, open, provokes, switched_off,
};
use crate::battle::name_of;
use crate::battle::{GridPos, out_of_action};
use crate::grid::{Dir, Pos};
use crate::rules::command::{Command, CommandKind, ManeuverKind, Refusal};
use crate::rules::events::{BattleEvent, Opening, Trigger, emit, id_of};
use crate::rules::motion::charge::ChargeShove;
use crate::rules::motion::movement::{Occupant, step_block, view_for};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Handles, Pending, actor_and_target};
use crate::rules::reactions::reactive_attack::provoke_from;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        CommandSchedule,
        (
            validate_charge_shove
                .in_set(Handles(CommandKind::Charge))
                .in_set(CommandSystems::Validate),
            shove_at_the_end_of_the_charge
                .in_set(Handles(CommandKind::Charge))
                .in_set(CommandSystems::Execute)
                .after(crate::rules::motion::charge::execute_charge),
        ),
    );
}

/// The tile `target` may be pushed to from `at` in `dir`: passable, free,
/// not across a corner.
fn free_step(world: &mut World, target: Entity, dir: Dir) -> Option<Pos> {
    let (level, occ, at) = view_for(world, target);
    let to = at.step(dir);
    (step_block(&level.map, &occ, at, dir).is_none() && occ.under(to) == Occupant::Empty)
        .then_some(to)
}

/// Where `unit`'s shove pushes `target` (V7.7): `to` if it qualifies (else
/// a refusal), the rules' choice when `None`; `Ok(None)` when no tile
/// qualifies.
pub fn destination(
    world: &mut World,
    unit: Entity,
    target: Entity,
    to: Option<Pos>,
) -> Result<Option<Pos>, Refusal> {
    let (Some(from), Some(at)) = (
        crate::battle::body_of(world, unit),
        crate::battle::body_of(world, target),
    ) else {
        return Ok(None);
    };
    // The whole footprint moves one step away (V10.6), straight away from
    // centre to centre first.
    let away = |p: Pos| at.moved_to(p).gap(from) > at.gap(from);
    let straight = Dir::towards(from.centre2(), at.centre2());
    let order = straight.into_iter().chain(Dir::ALL);
    let mut choices = vec![];
    for dir in order {
        if let Some(p) = free_step(world, target, dir).filter(|p| away(*p))
            && !choices.contains(&p)
        {
            choices.push(p);
        }
    }
    match to {
        None => Ok(choices.first().copied()),
        Some(p) if choices.contains(&p) => Ok(Some(p)),
        Some(p) => Err(Refusal::new(
            Rule::V7_7,
            format!(
                "{p} is not a free tile beside {} farther from {}",
                name_of(world, target),
                name_of(world, unit)
            ),
        )),
    }
}

/// A shove that succeeded: `target` goes to its destination (if any tile
/// qualifies) and is opened.
pub fn push(world: &mut World, unit: Entity, target: Entity, to: Option<Pos>) {
    let Some(from) = world.get::<GridPos>(target).map(|p| p.0) else {
        return;
    };
    let dest = destination(world, unit, target, to).ok().flatten();
    let lands = dest.unwrap_or(from);
    place(world, target, lands);
    tell_shove(world, unit, target, from, lands, false);
    open(world, target, Opening::Shove);
}

fn place(world: &mut World, unit: Entity, at: Pos) {
    if let Some(mut p) = world.get_mut::<GridPos>(unit) {
        p.0 = at;
    }
}

fn tell_shove(world: &mut World, unit: Entity, target: Entity, from: Pos, to: Pos, charge: bool) {
    let (who, by) = (id_of(world, target), id_of(world, unit));
    emit(
        world,
        BattleEvent::Shoved {
            unit: who,
            by,
            from,
            to,
            charge,
        },
    );
}

/// A charge-shove needs maneuvers, and a target no larger (V7.7).
fn validate_charge_shove(world: &mut World) {
    if !matches!(
        world.resource::<Pending>().command,
        Some(Command::Charge { shove: true, .. })
    ) {
        return;
    }
    let result = if !on(world) {
        Err(switched_off())
    } else {
        actor_and_target(world).and_then(|(unit, target)| {
            // What every attack checks (R7): an enemy in the fight.
            let draft = maneuver_draft(world, unit, target, ManeuverKind::Shove)?;
            let mut whole = draft.clone();
            whole.from = world.get::<GridPos>(target).map_or(draft.from, |p| p.0);
            crate::rules::attacks::resolution::check_attack(world, &whole)?;
            if larger_by(world, unit, target) > 0 {
                return Err(Refusal::new(
                    Rule::V7_7,
                    format!(
                        "{} is larger than {}: a shove moves no larger target",
                        name_of(world, target),
                        name_of(world, unit)
                    ),
                ));
            }
            if out_of_action(world, target) {
                return Err(Refusal::new(
                    Rule::V7,
                    format!(
                        "{} is out of action: there is nothing to shove",
                        name_of(world, target)
                    ),
                ));
            }
            Ok(())
        })
    };
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

/// The end of a charge-shove (V7.7): the shove, with the charge's +1
/// advantage (R4.7); success drives the target up to 3 tiles straight on.
fn shove_at_the_end_of_the_charge(world: &mut World) {
    let Some(ChargeShove { unit, target, dir }) = world.remove_resource::<ChargeShove>() else {
        return;
    };
    let kind = ManeuverKind::Shove;
    if provokes(world, unit, target, kind)
        && !provoke_from(world, unit, Trigger::Maneuver, Some(target))
    {
        world.resource_mut::<Pending>().interrupted = true;
        return;
    }
    let Ok(mut draft) = maneuver_draft(world, unit, target, kind) else {
        return;
    };
    draft.charge = true;
    if let Some(mut ap) = world.get_mut::<crate::battle::ActionPoints>(unit) {
        ap.attacks += 1;
    }
    let exposed = is_exposed(world, target);
    let result = attempt(world, draft);
    if result.degrees > 0 {
        let Some(from) = world.get::<GridPos>(target).map(|p| p.0) else {
            return;
        };
        let mut at = from;
        for _ in 0..3 {
            match free_step(world, target, dir) {
                Some(next) => {
                    at = next;
                    place(world, target, next);
                }
                None => break,
            }
        }
        tell_shove(world, unit, target, from, at, true);
        open(world, target, Opening::Shove);
    } else {
        open(world, unit, Opening::Shove);
    }
    if !exposed {
        open(world, unit, Opening::Maneuver);
    }
}
