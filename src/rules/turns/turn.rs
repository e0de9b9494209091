//! R2.3–R2.5 turns and rounds: who acts, the start and end of turns, the
//! start of rounds, and the Identify phase every command passes first.
//!
//! Two moments of the loop belong to other rules, which add their systems
//! to this module's schedules: [`OrderRound`], once a round's turn order is
//! set from initiative (side initiative, V1, reorders it), and [`Settle`],
//! whenever the battle may have been decided (victory, R11: the only place
//! that writes [`TurnState::outcome`]).

use super::initiative::{fixed_initiative, roll_initiative};
use crate::battle::{
    ActionPoints, Charged, Dazed, Dead, Defending, Dying, Exposed, FreeMove, OffGuard, Reactions,
    Ridden, Rode, ShieldReady, Stable, Stats, Stunned, out_of_action, unit_named,
};
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::dying;
use crate::rules::events::{BattleEvent, Outcome, emit, id_of};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Decisions, Handles, Pending};
use crate::rules::rule::Rule;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// Run when a round's turn order has been set from initiative
/// ([`TurnState::order`]), before the round is told: a rule may reorder it
/// (side initiative, V1).
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrderRound;

/// Run whenever the battle may have been decided: after every carried-out
/// command, after each dying roll, and at the end of each round (then
/// [`TurnState::round_over`] is set). Victory (R11) decides there; the turn
/// loop stops once [`TurnState::outcome`] is set.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settle;

/// Run as a round starts, once it is told and before its first turn:
/// rules with budgets per round set them (Energy, V5.2).
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RoundBegins;

/// Run as a unit's turn begins ([`TurnState::current`] is set), before
/// its AP are counted and the turn is told: rules that note where a turn
/// began do so (Energy's movement term, V5.10).
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnBegins;

/// Run once a unit's turn has begun and been told: what acts on a unit as
/// its turn starts does so here (a field it stands in, V11.6). A unit that
/// goes out of action here loses the turn.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnOpened;

/// Rounds and turns.
#[derive(Resource, Clone, Debug, Default)]
pub struct TurnState {
    /// The round, from 1.
    pub round: u32,
    /// Every unit in initiative order with its total (R2.1).
    pub initiative: Vec<(Entity, i32)>,
    /// This round's order (V1 may put a side first).
    pub order: Vec<Entity>,
    /// Index in `order` of the unit whose turn it is.
    pub index: usize,
    /// The unit whose turn it is.
    pub current: Option<Entity>,
    /// Set once the battle is over.
    pub outcome: Option<Outcome>,
    /// The current turn ends when this command's Advance phase runs.
    pub end_requested: bool,
    /// Set while [`Settle`] runs at the end of this round.
    pub round_over: Option<u32>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TurnState>()
        .init_schedule(OrderRound)
        .init_schedule(Settle)
        .init_schedule(RoundBegins)
        .init_schedule(TurnBegins)
        .init_schedule(TurnOpened)
        .add_systems(
            CommandSchedule,
            (
                identify_actor.in_set(CommandSystems::Identify),
                request_end_of_turn
                    .in_set(Handles(CommandKind::EndTurn))
                    .in_set(CommandSystems::Execute),
                advance_turn.in_set(CommandSystems::Advance),
            ),
        );
}

/// Runs [`Settle`]: whether the battle is decided now. Returns true when
/// it is over.
fn settle(world: &mut World) -> bool {
    world.run_schedule(Settle);
    world.resource::<TurnState>().outcome.is_some()
}

/// Starts the battle: initiative (rolled, or fixed by a scenario), round 1,
/// the first turn.
pub fn begin_battle(world: &mut World, fixed: Option<&[String]>) {
    let initiative = match fixed {
        Some(names) => fixed_initiative(world, names),
        None => roll_initiative(world),
    };
    world.resource_mut::<TurnState>().initiative = initiative;
    start_round(world, 1);
}

/// Starts round `round` and the first turn in it.
fn start_round(world: &mut World, round: u32) {
    {
        let mut turn = world.resource_mut::<TurnState>();
        turn.round = round;
        turn.order = turn.initiative.iter().map(|(e, _)| *e).collect();
        turn.index = 0;
        turn.current = None;
    }
    world.run_schedule(OrderRound);
    let order = world.resource::<TurnState>().order.clone();
    let order = order.into_iter().map(|e| id_of(world, e)).collect();
    emit(world, BattleEvent::RoundStarted { round, order });
    world.run_schedule(RoundBegins);
    next_turn(world, 0);
}

/// Gives the turn to the first unit at or after `index` in this round's
/// order that can take one; dying units make their roll instead (R10.2);
/// past the end, the round ends (R2.4).
fn next_turn(world: &mut World, mut index: usize) {
    loop {
        if world.resource::<TurnState>().outcome.is_some() {
            world.resource_mut::<TurnState>().current = None;
            return;
        }
        let order = world.resource::<TurnState>().order.clone();
        let Some(&unit) = order.get(index) else {
            // The round ends (R2.4): the rules that score rounds settle.
            let round = world.resource::<TurnState>().round;
            world.resource_mut::<TurnState>().round_over = Some(round);
            let over = settle(world);
            world.resource_mut::<TurnState>().round_over = None;
            if over {
                world.resource_mut::<TurnState>().current = None;
                return;
            }
            start_round(world, round + 1);
            return;
        };
        world.resource_mut::<TurnState>().index = index;
        let e = world.entity(unit);
        // A ridden mount acts on its rider's turn (V12.1).
        if e.contains::<Dead>() || e.contains::<Stable>() || e.contains::<Ridden>() {
            index += 1;
            continue;
        }
        if e.contains::<Dying>() {
            // A dying unit's turn is only its dying roll (R2.5, R10.2).
            dying::roll_dying(world, unit);
            settle(world);
            index += 1;
            continue;
        }
        if e.get::<Stunned>().is_some_and(|s| s.lose_turn) {
            // Stunned between its turns: this one passes without it, and
            // with it the stun (V3).
            refresh(world, unit, 0);
            world.entity_mut(unit).remove::<Stunned>();
            let id = id_of(world, unit);
            emit(world, BattleEvent::TurnLost { unit: id });
            index += 1;
            continue;
        }
        start_turn(world, unit);
        // What acts as the turn opens (a field the unit stands in, V11.6)
        // may drop it: its turn is then lost *(decision)*.
        world.run_schedule(TurnOpened);
        if crate::battle::out_of_action(world, unit) {
            settle(world);
            index += 1;
            continue;
        }
        return;
    }
}

/// Begins `unit`'s turn now, out of the initiative order: for the AI's
/// copies of a battle only, to see what a unit would do were its turn now
/// (the window's intent markers), never in a battle that is played.
pub fn start_turn_now(world: &mut World, unit: Entity) {
    start_turn(world, unit);
}

/// The start of `unit`'s turn: 3 AP and the free action (R3.1), reactions
/// refreshed (R3.2), off-guard over (R2.3), "until your next turn" effects
/// over (R4.6, R4.7).
fn start_turn(world: &mut World, unit: Entity) {
    world.resource_mut::<TurnState>().current = Some(unit);
    world.run_schedule(TurnBegins);
    let stats = world.get::<Stats>(unit).map(|s| s.template.clone());
    // A rider has one free Move at its mount's Speed (V12.2); an unskilled
    // one has its AP halved, rounded down (V12.6).
    let mount = crate::battle::mount_of(world, unit);
    let unskilled = mount.is_some() && stats.as_ref().is_some_and(|t| !skilled_rider(t));
    let ap = if crate::battle::energy(world) {
        // Under Energy the round set the budget (V5.2): what is left of it.
        world.get::<ActionPoints>(unit).map_or(0, |a| a.ap)
    } else if unskilled {
        3 / 2
    } else {
        3
    };
    // Die ranks (V6.6): the AP owed for interrupts come off this turn, and
    // the debt clears.
    let owed = if crate::battle::die_ranks(world) {
        world
            .get::<Reactions>(unit)
            .map_or(0, |r| (crate::battle::MOST_OWED - r.0).clamp(0, ap))
    } else {
        0
    };
    let ap = ap - owed;
    let reactions = refresh(world, unit, ap);
    // Dazed until the end of this turn (V3).
    if let Some(mut dazed) = world.get_mut::<Dazed>(unit) {
        dazed.0 = true;
    }
    if let Some(mount) = mount {
        world.entity_mut(unit).insert(FreeMove);
        // The mount's turn is its rider's: its reactions and attacks count
        // afresh, its AP are the rider's (V12.1, V12.2).
        refresh(world, mount, 0);
    }
    let round = world.resource::<TurnState>().round;
    let unit = id_of(world, unit);
    emit(
        world,
        BattleEvent::TurnStarted {
            round,
            unit,
            ap,
            reactions,
        },
    );
    if owed > 0 {
        let debt = crate::rules::events::Debt {
            unit,
            owed,
            guard: None,
        };
        emit(world, BattleEvent::DebtPaid(debt));
    }
}

/// A unit's turn begins: `ap` AP, the free action and its reactions anew
/// (R3.1, R3.2), off-guard over (R2.3), "until your next turn" effects over
/// (R4.6, R4.7). Returns its reactions.
fn refresh(world: &mut World, unit: Entity, ap: i32) -> i32 {
    // Under die ranks the interrupt budget stands in for them (V6.6).
    let reactions = if crate::battle::die_ranks(world) {
        crate::battle::MOST_OWED
    } else {
        world
            .get::<Stats>(unit)
            .map_or(1, |s| 1 + s.template.str.max(s.template.dex).max(0))
    };
    let energy = crate::battle::energy(world);
    let mut e = world.entity_mut(unit);
    e.insert((ActionPoints { ap, ..default() }, Reactions(reactions)));
    // An ambushed unit stays off-guard through round 1 (V8.9).
    if !e.contains::<crate::battle::Surprised>() {
        e.remove::<OffGuard>();
    }
    e.remove::<(ShieldReady, Charged, Exposed, Rode, FreeMove)>();
    // Under Energy Defend lasts until the unit attacks or runs past its
    // Speed (V5.12), not until its next turn.
    if !energy {
        e.remove::<Defending>();
    }
    reactions
}

/// Resolves the acting unit and the unit aimed at, and refuses commands from
/// units that cannot act now: unknown, out of action (R2.5), or not their
/// turn (R2.1), or aimed at an unknown unit.
pub fn identify_actor(world: &mut World) {
    let Some(command) = world.resource::<Pending>().command.clone() else {
        return;
    };
    let identified = identify(world, &command).and_then(|actor| {
        let target = match command.target() {
            Some(name) => Some(
                unit_named(world, name)
                    .ok_or_else(|| Refusal::unknown(format!("unit \"{name}\"")))?,
            ),
            None => None,
        };
        Ok((actor, target))
    });
    let mut pending = world.resource_mut::<Pending>();
    match identified {
        Ok((actor, target)) => {
            pending.actor = actor;
            pending.target = target;
        }
        Err(r) => pending.refuse(r),
    }
}

fn identify(world: &mut World, command: &Command) -> Result<Option<Entity>, Refusal> {
    let turn = world.resource::<TurnState>();
    if turn.outcome.is_some() {
        return Err(Refusal::new(Rule::R11, "the battle is over"));
    }
    let current = turn.current;
    // A held command waits for reaction decisions (R8): only answers now.
    let asked = world.resource::<Decisions>().asked();
    if let Some(asked) = asked {
        let who = world
            .get::<Name>(asked)
            .map_or(String::new(), |n| n.to_string());
        return match command {
            Command::React { unit, .. } if unit == &who => Ok(Some(asked)),
            _ => Err(Refusal::new(
                Rule::R8,
                format!("waiting for {who} to decide whether to react (React)"),
            )),
        };
    }
    let Some(name) = command.actor() else {
        return match current {
            Some(c) => Ok(Some(c)),
            None => Err(Refusal::new(Rule::R2_4, "no unit has the turn")),
        };
    };
    let Some(actor) = unit_named(world, name) else {
        return Err(Refusal::unknown(format!("unit \"{name}\"")));
    };
    if out_of_action(world, actor) {
        let state = if world.entity(actor).contains::<Dead>() {
            "dead"
        } else if world.entity(actor).contains::<Dying>() {
            "dying"
        } else {
            "unconscious"
        };
        return Err(Refusal::new(
            Rule::R2_5,
            format!("{name} is {state} and takes no actions"),
        ));
    }
    // A ridden mount acts on its rider's turn, with its AP (V12.2).
    let rider = world.get::<Ridden>(actor).map(|r| r.0);
    if current != Some(actor) && (rider.is_none() || current != rider) {
        let whose = current
            .and_then(|c| world.get::<Name>(c))
            .map_or("nobody".to_string(), |n| n.to_string());
        return Err(Refusal::new(
            Rule::R2_1,
            format!("it is {whose}'s turn, not {name}'s"),
        ));
    }
    Ok(Some(actor))
}

/// A rider with a Riding bonus is skilled; without one it is not (V12.6).
pub fn skilled_rider(t: &crate::format::UnitTemplate) -> bool {
    t.skills
        .get(&crate::format::Skill::Riding)
        .is_some_and(|r| *r > 0)
}

fn request_end_of_turn(mut turn: ResMut<TurnState>) {
    turn.end_requested = true;
}

/// Advance phase: the battle settles (R11), then after an EndTurn the next
/// unit's turn. A unit that falls out of action during its own turn (a
/// reactive attack, R8.4) loses the rest of it *(decision)*.
pub fn advance_turn(world: &mut World) {
    settle(world);
    let fallen = world
        .resource::<TurnState>()
        .current
        .is_some_and(|c| out_of_action(world, c));
    if !std::mem::take(&mut world.resource_mut::<TurnState>().end_requested) && !fallen {
        return;
    }
    if world.resource::<TurnState>().outcome.is_some() {
        // The battle is over: a unit dead on its own turn (a chasm, V9.5)
        // holds it no longer.
        let current = world.resource::<TurnState>().current;
        if current.is_some_and(|c| world.entity(c).contains::<crate::battle::Dead>()) {
            world.resource_mut::<TurnState>().current = None;
        }
        return;
    }
    if let Some(current) = world.resource::<TurnState>().current {
        end_turn(world, current);
    }
    let index = world.resource::<TurnState>().index;
    next_turn(world, index + 1);
}

/// The end of `unit`'s turn: a daze or a stun taken on it ends (V3).
fn end_turn(world: &mut World, unit: Entity) {
    let Ok(mut e) = world.get_entity_mut(unit) else {
        return;
    };
    if e.get::<Dazed>().is_some_and(|d| d.0) {
        e.remove::<Dazed>();
    }
    if e.get::<Stunned>().is_some_and(|s| !s.lose_turn) {
        e.remove::<Stunned>();
    }
}
