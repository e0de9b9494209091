//! V7.6 Grapple (Athletics, unarmed, reach 1; 004:199–201, 003:37–45). The
//! target may be no larger than the grappler (002:573).
//!
//! - **1 degree: grabbed** (003's partial grab). Neither may Move, Step or
//!   Charge, unless the grappler is 2+ categories larger (003:39; it may
//!   then walk away, which ends the grapple *(decision)*). Attacks by
//!   either against anyone else: +1 disadvantage. The grappler spends 1 AP
//!   (Sustain) on each of its turns after the one it seized on, or the grab
//!   ends at the end of that turn; AP spent on the grapple itself (force
//!   down, crush, drag) keep it too *(decision)*. ForceDown: prone, 1 AP
//!   (003:43).
//! - **2+ degrees: held** (003:41): all of the above, and the target has +1
//!   disadvantage on its attack rolls and checks, melee attacks against it
//!   +1 advantage; other units' attacks against the holder +1 advantage,
//!   the target's attacks against its holder +1 disadvantage more. Crush
//!   (2 AP): an unarmed strike it cannot answer. Drag (3 AP): the holder
//!   steps and the target follows by the same step (003:43); a drag
//!   provokes nothing *(decision)*, like a Step.
//! - **Escape** (003:45, decided as a check against DV): d20 + MB + the
//!   better of STR + Athletics and DEX + Acrobatics (+1 disadvantage if
//!   held) against the grappler's DV, meeting it succeeds. 1 degree costs
//!   2 AP and ends the turn, 2 degrees 1 AP, 3 or more nothing; a failure
//!   costs 2 AP. An attempt needs the 2 AP it may cost *(decision)*.
//! - **Ends** when either is out of action, the grappler releases (free),
//!   fails to sustain, or the two are pushed apart (V7.7).
//! - A grapple against the unit one already grabs may tighten it to held;
//!   a unit takes part in one grapple at a time *(decision)*.

use super::grappled::{Grappled, grappling, hold_on, partner};
use super::roll::{attempt, larger_by, maneuver_draft, on, switched_off};
use super::trip;
use crate::battle::{ActionPoints, GridPos, Prone, name_of, out_of_action, units};
use crate::battle::{body_of, side_of_body};
use crate::grid::{Body, Dir, Pos};
use crate::rules::attacks::resolution::{resolve, unarmed};
use crate::rules::command::{Command, CommandKind, Hold, ManeuverKind, Refusal};
use crate::rules::events::{BattleEvent, GrappleEnd, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::motion::movement::{Block, Occupant, runs_into, step_block, view_for};
use crate::rules::motion::paths::entered;
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Handles, Pending, handle};
use crate::rules::rule::Rule;
use crate::rules::turns::turn::{TurnState, advance_turn};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        add_grapple_modifiers.in_set(AttackSystems::Situational),
    );
    for kind in [CommandKind::Move, CommandKind::Step, CommandKind::Charge] {
        app.add_systems(
            CommandSchedule,
            refuse_moving_in_a_grapple
                .in_set(Handles(kind))
                .in_set(CommandSystems::Validate),
        );
    }
    handle(app, CommandKind::Sustain, validate_sustain, sustain);
    handle(app, CommandKind::Release, validate_grappler, release);
    handle(app, CommandKind::Escape, validate_escape, escape);
    handle(app, CommandKind::ForceDown, validate_force_down, force_down);
    handle(app, CommandKind::Crush, validate_holder, crush);
    handle(app, CommandKind::Drag, validate_drag, drag);
    app.add_systems(
        CommandSchedule,
        (
            end_unsustained_grapple
                .in_set(Handles(CommandKind::EndTurn))
                .in_set(CommandSystems::Execute),
            end_broken_grapples
                .in_set(CommandSystems::Advance)
                .before(advance_turn),
        ),
    );
}

/// Refuses a grapple by a unit already in another one, or on a target
/// another unit grapples.
pub fn check_seize(world: &World, unit: Entity, target: Entity) -> Result<(), Refusal> {
    let (who, whom) = (name_of(world, unit), name_of(world, target));
    if world.get::<Grappled>(unit).is_some() {
        return Err(Refusal::new(
            Rule::V7_6,
            format!("{who} is grappled: it can only escape (Escape)"),
        ));
    }
    if let Some((other, _)) = grappling(world, unit).filter(|(t, _)| *t != target) {
        return Err(Refusal::new(
            Rule::V7_6,
            format!("{who} already grapples {}", name_of(world, other)),
        ));
    }
    if let Some(g) = world.get::<Grappled>(target).filter(|g| g.by != unit) {
        return Err(Refusal::new(
            Rule::V7_6,
            format!("{whom} is already grappled by {}", name_of(world, g.by)),
        ));
    }
    Ok(())
}

/// A grapple that succeeded with `degrees`: grabbed at 1, held at 2 or
/// more; against a target already grabbed, the firmer hold stands.
pub fn seize(world: &mut World, unit: Entity, target: Entity, degrees: i32) {
    let rolled = if degrees >= 2 {
        Hold::Held
    } else {
        Hold::Grabbed
    };
    let hold = match hold_on(world, target, unit) {
        Hold::Free => rolled,
        before => before.max(rolled),
    };
    let kept = world.resource::<TurnState>().round;
    world.entity_mut(target).insert(Grappled {
        by: unit,
        hold,
        kept,
    });
    let (who, by) = (id_of(world, target), id_of(world, unit));
    emit(
        world,
        BattleEvent::Grappled {
            unit: who,
            by,
            hold,
        },
    );
}

/// Ends the grapple on `target`, telling why.
pub fn end(world: &mut World, target: Entity, why: GrappleEnd) {
    let Some(g) = world.get::<Grappled>(target).copied() else {
        return;
    };
    world.entity_mut(target).remove::<Grappled>();
    let (unit, by) = (id_of(world, target), id_of(world, g.by));
    emit(world, BattleEvent::GrappleEnded { unit, by, why });
}

/// V7.6's modifiers on every attack (and check) of or against a unit in a
/// grapple.
fn add_grapple_modifiers(world: &mut World) {
    let draft = world.resource::<AttackDraft>();
    let (attacker, target) = (draft.attacker, draft.target);
    let escape = draft.maneuver == Some(ManeuverKind::Escape);
    let melee = draft.mode == AttackMode::Melee;
    let mut add = vec![];
    if let Some(p) = partner(world, attacker)
        && p != target
    {
        add.push((-1, "in a grapple, against another"));
    }
    let held = world
        .get::<Grappled>(attacker)
        .filter(|g| g.hold == Hold::Held);
    if let Some(g) = held {
        add.push((-1, "held"));
        if g.by == target && !escape {
            add.push((-1, "held, against its holder"));
        }
    }
    if melee
        && world
            .get::<Grappled>(target)
            .is_some_and(|g| g.hold == Hold::Held)
    {
        add.push((1, "target held"));
    }
    if let Some((held_one, g)) = grappling(world, target)
        && g.hold == Hold::Held
        && held_one != attacker
    {
        add.push((1, "target holding another"));
    }
    let mut draft = world.resource_mut::<AttackDraft>();
    for (n, source) in add {
        draft.push(Effect::Advantage(n), source, Rule::V7_6);
    }
}

/// Whether a grapple holds `unit` in place: grappled, or grappling a unit
/// less than 2 size categories smaller (V7.6).
pub fn held_in_place(world: &World, unit: Entity) -> bool {
    world.get::<Grappled>(unit).is_some()
        || grappling(world, unit).is_some_and(|(t, _)| larger_by(world, t, unit) < 2)
}

/// Neither unit of a grapple moves, unless the grappler is 2+ size
/// categories larger.
fn refuse_moving_in_a_grapple(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    let who = name_of(world, actor);
    let why = if let Some(g) = world.get::<Grappled>(actor) {
        Some(format!(
            "{who} is grappled by {}: it cannot move (Escape first)",
            name_of(world, g.by)
        ))
    } else if let Some((target, _)) = grappling(world, actor)
        && larger_by(world, target, actor) < 2
    {
        Some(format!(
            "{who} grapples {}: it cannot move (Release first)",
            name_of(world, target)
        ))
    } else {
        None
    };
    if let Some(why) = why {
        world
            .resource_mut::<Pending>()
            .refuse(Refusal::new(Rule::V7_6, why));
    }
}

/// The actor's grapple, or the refusal that it has none (or maneuvers are
/// off).
fn own_grapple(world: &World) -> Result<(Entity, Entity, Grappled), Refusal> {
    if !on(world) {
        return Err(switched_off());
    }
    let actor = world
        .resource::<Pending>()
        .actor
        .ok_or_else(|| Refusal::unknown("unit"))?;
    grappling(world, actor)
        .map(|(t, g)| (actor, t, g))
        .ok_or_else(|| {
            Refusal::new(
                Rule::V7_6,
                format!("{} grapples nobody", name_of(world, actor)),
            )
        })
}

fn refuse(world: &mut World, result: Result<(), Refusal>) {
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn validate_grappler(world: &mut World) {
    let result = own_grapple(world).map(|_| ());
    refuse(world, result);
}

fn validate_sustain(world: &mut World) {
    let round = world.resource::<TurnState>().round;
    let result = own_grapple(world).and_then(|(actor, _, g)| {
        if g.kept == round {
            Err(Refusal::new(
                Rule::V7_6,
                format!("{} already keeps its grip this turn", name_of(world, actor)),
            ))
        } else {
            Ok(())
        }
    });
    refuse(world, result);
}

fn sustain(world: &mut World) {
    let Ok((actor, target, _)) = own_grapple(world) else {
        return;
    };
    keep(world, target);
    let (unit, target) = (id_of(world, actor), id_of(world, target));
    emit(world, BattleEvent::GrappleSustained { unit, target });
}

/// The grip on `target` is kept this turn: by Sustain, or by AP spent on
/// the grapple itself (ForceDown, Crush, Drag) *(decision)*.
fn keep(world: &mut World, target: Entity) {
    let round = world.resource::<TurnState>().round;
    if let Some(mut g) = world.get_mut::<Grappled>(target) {
        g.kept = round;
    }
}

fn release(world: &mut World) {
    if let Ok((_, target, _)) = own_grapple(world) {
        end(world, target, GrappleEnd::Released);
    }
}

fn validate_force_down(world: &mut World) {
    let result = own_grapple(world).and_then(|(_, target, _)| {
        if world.entity(target).contains::<Prone>() {
            Err(Refusal::new(
                Rule::V7_6,
                format!("{} is already prone", name_of(world, target)),
            ))
        } else {
            Ok(())
        }
    });
    refuse(world, result);
}

fn force_down(world: &mut World) {
    if let Ok((actor, target, _)) = own_grapple(world) {
        keep(world, target);
        trip::fell(world, actor, target, Rule::V7_6);
    }
}

/// Crush and Drag need a full hold.
fn holding(world: &World) -> Result<(Entity, Entity), Refusal> {
    let (actor, target, g) = own_grapple(world)?;
    if g.hold != Hold::Held {
        return Err(Refusal::new(
            Rule::V7_6,
            format!(
                "{} only grabs {}: it takes a hold (2 degrees) for that",
                name_of(world, actor),
                name_of(world, target)
            ),
        ));
    }
    Ok((actor, target))
}

fn validate_holder(world: &mut World) {
    let result = holding(world).and_then(|(actor, _)| {
        if world.get::<ActionPoints>(actor).is_some_and(|a| a.defended) {
            Err(Refusal::new(
                Rule::R4_6,
                "after Defend a unit makes no more attacks this turn",
            ))
        } else {
            Ok(())
        }
    });
    refuse(world, result);
}

/// Crush: an unarmed strike the held target cannot answer (no parry, no
/// V2 answer), counted as an attack (R7.6).
fn crush(world: &mut World) {
    let Ok((actor, target)) = holding(world) else {
        return;
    };
    keep(world, target);
    let (unit, whom) = (id_of(world, actor), id_of(world, target));
    emit(world, BattleEvent::Crushing { unit, target: whom });
    let (Some(from), Some(at)) = (
        world.get::<GridPos>(actor).map(|p| p.0),
        world.get::<GridPos>(target).map(|p| p.0),
    ) else {
        return;
    };
    let mut draft = AttackDraft::new(actor, target, unarmed(), AttackMode::Melee, from, at);
    draft.unanswerable = true;
    if let Some(mut ap) = world.get_mut::<ActionPoints>(actor) {
        draft.earlier_attacks = ap.attacks;
        ap.attacks += 1;
    }
    resolve(world, draft);
}

/// Where a drag to `to` puts the holder and the target, or why not.
fn drag_plan(world: &mut World, to: Pos) -> Result<(Entity, Entity, Pos, Pos, Pos), Refusal> {
    let (actor, target) = holding(world)?;
    let (from, target_from) = match (
        world.get::<GridPos>(actor).map(|p| p.0),
        world.get::<GridPos>(target).map(|p| p.0),
    ) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err(Refusal::unknown("tile")),
    };
    let Some(dir) = Dir::ALL.into_iter().find(|d| from.step(*d) == to) else {
        return Err(Refusal::new(
            Rule::V7_6,
            format!("a drag steps 1 tile: {to} is not beside {from}"),
        ));
    };
    let target_to = target_from.step(dir);
    let (n, m) = (side_of_body(world, actor), side_of_body(world, target));
    // The drag is the holder's: a unit its side sees blocks either step,
    // whichever side it is on (V8.1); one hidden from it is run into when
    // the drag is made (V8.6).
    let known = move |world: &World, t: Pos| {
        crate::battle::seen_in(world, Body::new(t, 1), actor)
            .into_iter()
            .any(|e| e != actor && e != target)
    };
    // Each of the two steps as R5 would let it, the other's tiles counting
    // as free: they move together (whole footprints, V10.6).
    let fits = |world: &mut World, mover: Entity, at: Pos, next: Pos, other: Body| {
        let (level, occ, _) = view_for(world, mover);
        let block = step_block(&level.map, &occ, at, dir);
        let free = entered(at, occ.n(), dir)
            .all(|t| other.contains(t) || (occ.at(t) == Occupant::Empty && !known(world, t)));
        match block {
            None | Some(Block::Enemy) if free => Ok(()),
            _ => Err(Refusal::new(
                Rule::V7_6,
                format!("{next} is not free for {}", name_of(world, mover)),
            )),
        }
    };
    fits(world, actor, from, to, Body::new(target_from, m))?;
    fits(world, target, target_from, target_to, Body::new(from, n))?;
    Ok((actor, target, from, target_from, target_to))
}

fn validate_drag(world: &mut World) {
    let Some(Command::Drag { to, .. }) = world.resource::<Pending>().command.clone() else {
        return;
    };
    let result = drag_plan(world, to).map(|_| ());
    refuse(world, result);
}

fn drag(world: &mut World) {
    let Some(Command::Drag { to, .. }) = world.resource::<Pending>().command.clone() else {
        return;
    };
    let Ok((actor, target, from, target_from, target_to)) = drag_plan(world, to) else {
        return;
    };
    keep(world, target);
    // Someone hidden from the holder's side stands in the way: the drag
    // stops before it is made, its AP spent, the grip kept (V8.6).
    let (n, m) = (side_of_body(world, actor), side_of_body(world, target));
    let skip = [actor, target];
    if runs_into(world, actor, Body::new(to, n), &skip)
        || runs_into(world, actor, Body::new(target_to, m), &skip)
    {
        return;
    }
    if let Some(mut p) = world.get_mut::<GridPos>(actor) {
        p.0 = to;
    }
    if let Some(mut p) = world.get_mut::<GridPos>(target) {
        p.0 = target_to;
    }
    let (unit, whom) = (id_of(world, actor), id_of(world, target));
    emit(
        world,
        BattleEvent::Dragged {
            unit,
            target: whom,
            from,
            to,
            target_from,
            target_to,
        },
    );
}

fn validate_escape(world: &mut World) {
    let result = if !on(world) {
        Err(switched_off())
    } else {
        let actor = world.resource::<Pending>().actor;
        match actor {
            Some(a) if world.get::<Grappled>(a).is_none() => Err(Refusal::new(
                Rule::V7_6,
                format!("{} is not grappled", name_of(world, a)),
            )),
            Some(a) if world.get::<ActionPoints>(a).is_some_and(|ap| ap.ap < 2) => {
                Err(Refusal::new(
                    Rule::V7_6,
                    format!(
                        "an escape may cost 2 AP; {} has {} left",
                        name_of(world, a),
                        world.get::<ActionPoints>(a).map_or(0, |ap| ap.ap)
                    ),
                ))
            }
            _ => Ok(()),
        }
    };
    refuse(world, result);
}

/// The AP an escape of `degrees` costs (V7.6, 003:45): a failure 2, 1
/// degree 2 (and the turn ends), 2 degrees 1, 3 or more nothing.
pub fn escape_cost(degrees: i32) -> i32 {
    match degrees {
        0 | 1 => 2,
        2 => 1,
        _ => 0,
    }
}

fn escape(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    let Some(g) = world.get::<Grappled>(actor).copied() else {
        return;
    };
    let Ok(draft) = maneuver_draft(world, actor, g.by, ManeuverKind::Escape) else {
        return;
    };
    let degrees = attempt(world, draft).degrees;
    let cost = escape_cost(degrees);
    if cost > 0
        && let Some(mut ap) = world.get_mut::<ActionPoints>(actor)
    {
        ap.ap = (ap.ap - cost).max(0);
        let ap_left = ap.ap;
        let unit = id_of(world, actor);
        emit(
            world,
            BattleEvent::ApSpent {
                unit,
                command: CommandKind::Escape,
                ap: cost,
                free_action: false,
                ap_left,
            },
        );
    }
    if degrees > 0 {
        end(world, actor, GrappleEnd::Escaped);
    }
    if degrees == 1 {
        world.resource_mut::<TurnState>().end_requested = true;
    }
}

/// At the end of the grappler's turn: a grip not kept this turn ends.
fn end_unsustained_grapple(world: &mut World) {
    let turn = world.resource::<TurnState>();
    let (Some(current), round) = (turn.current, turn.round) else {
        return;
    };
    if let Some((target, g)) = grappling(world, current)
        && g.kept != round
    {
        end(world, target, GrappleEnd::Unsustained);
    }
}

/// After every command: a grapple ends when either unit is out of action,
/// or when they no longer stand within reach of each other.
fn end_broken_grapples(world: &mut World) {
    let grappled: Vec<(Entity, Grappled)> = units(world)
        .into_iter()
        .filter_map(|e| world.get::<Grappled>(e).map(|g| (e, *g)))
        .collect();
    for (target, g) in grappled {
        let why = if out_of_action(world, target) || out_of_action(world, g.by) {
            Some(GrappleEnd::OutOfAction)
        } else {
            match (body_of(world, target), body_of(world, g.by)) {
                (Some(a), Some(b)) if a.gap(b) > 1 => Some(GrappleEnd::Separated),
                _ => None,
            }
        };
        if let Some(why) = why {
            end(world, target, why);
        }
    }
}
