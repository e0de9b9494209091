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
//! - **Off a ledge** (V9.4, 000:50's cliff): with jumping on, a one-tile
//!   target may also be pushed onto a tile 2 m or more below it, or into a
//!   chasm: it falls there (fall check DC 10: a shove has no DC and deals
//!   no damage). A charge-shove stops at the fall. *Decision:* a body
//!   wider than a tile (V10.6) is pushed only onto ground it can stand on.

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
use crate::rules::motion::paths::{Block, corners};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Handles, Pending, actor_and_target};
use crate::rules::reactions::reactive_attack::provoke_from;
use crate::rules::rule::Rule;
use crate::rules::variants::jumping;
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
/// not across a corner; with V9, also a drop or a chasm it falls into.
fn free_step(world: &mut World, target: Entity, dir: Dir) -> Option<Pos> {
    let (level, occ, at) = view_for(world, target);
    let to = at.step(dir);
    // The referee's occupancy: a unit hidden from the target's side takes
    // its tile all the same (V8.2), so no two bodies share one.
    let n = occ.n();
    let pair = crate::battle::partner(world, target);
    let taken = crate::battle::units_in(world, crate::grid::Body::new(to, n))
        .into_iter()
        .any(|e| e != target && Some(e) != pair);
    if taken || occ.under(to) != Occupant::Empty {
        return None;
    }
    match step_block(&level.map, &occ, at, dir) {
        None => Some(to),
        Some(Block::Ledge | Block::Impassable) if occ.n() == 1 && jumping::on(world) => {
            let map = &level.map;
            let falls = jumping::is_chasm(map, to) || map.elevation(at) - map.elevation(to) >= 2;
            let corner =
                dir.is_diagonal() && corners(at, 1, dir).iter().any(|c| !map.is_passable(*c));
            (falls && !corner).then_some(to)
        }
        Some(_) => None,
    }
}

/// A push from `from` that ended on `to`: a fall when `to` is a drop of
/// 2 m or more or a chasm (V9.4, V9.5).
fn fall_if_over(world: &mut World, shover: Entity, target: Entity, from: Pos, to: Pos) {
    if !over_the_edge(world, from, to) {
        return;
    }
    let map = &world.resource::<crate::battle::Battlefield>().0.map;
    let drop = map.elevation(from) - map.elevation(to);
    // A shove has no DC and deals no damage: the fall check's DC is 10.
    jumping::fall(world, target, to, drop.max(0), 0, shover);
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
    fall_if_over(world, unit, target, from, lands);
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

/// Whether a push from `from` onto `to` goes over the edge (V9.4).
fn over_the_edge(world: &World, from: Pos, to: Pos) -> bool {
    let map = &world.resource::<crate::battle::Battlefield>().0.map;
    jumping::on(world)
        && (jumping::is_chasm(map, to) || map.elevation(from) - map.elevation(to) >= 2)
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
        let (mut at, mut before) = (from, from);
        for _ in 0..3 {
            match free_step(world, target, dir) {
                Some(next) => {
                    (before, at) = (at, next);
                    place(world, target, next);
                    if over_the_edge(world, before, next) {
                        break;
                    }
                }
                None => break,
            }
        }
        tell_shove(world, unit, target, from, at, true);
        open(world, target, Opening::Shove);
        fall_if_over(world, unit, target, before, at);
    } else {
        open(world, unit, Opening::Shove);
    }
    if !exposed {
        open(world, unit, Opening::Maneuver);
    }
}
