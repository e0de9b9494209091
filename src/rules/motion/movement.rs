//! R5 movement: the Move and Step commands, a Move's plan and its walk step
//! by step (each step a point where reactions interrupt, R5.3, R8.4), the
//! tiles a Move may reach now, and a unit's Speed. What a step costs and
//! the cheapest paths are in [`paths`](super::paths).

use crate::battle::{ActionPoints, Battlefield, Dead, Facing, GridPos, Prone, Side, Slowed, Stats};
use crate::battle::{body_of, side_of_body};
use crate::grid::{Body, Dir, Pos};
use crate::load::ValidLevel;
use crate::rules::command::CommandKind;
use crate::rules::command::{Command, Refusal};
use crate::rules::events::{BattleEvent, MoveCost, emit, id_of};
use crate::rules::pipeline::Pending;
use crate::rules::rule::Rule;
use crate::rules::turns::action_points::cost;
use crate::terrain::Movement;
use bevy::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

pub use super::paths::{
    Block, CostMap, MoveState, Occupancy, Occupant, Reach, distances, path_cost, reachable, search,
    step_block, step_blocked, step_cost,
};

/// Run each time a unit's own movement (a Move's step, a Step, an Agile
/// Move) brings it onto a tile, with [`Entering`] set: rules that lie on
/// the ground act there (a spell's field or zone, V11.6). A unit that goes
/// out of action there walks no further.
#[derive(bevy::ecs::schedule::ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileEntered;

/// The step [`TileEntered`] runs for.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entering {
    /// Who moved.
    pub unit: Entity,
    /// The tile it left.
    pub from: Pos,
    /// The tile it entered.
    pub to: Pos,
}

/// Tells the rules that `unit` stepped from `from` onto `to` (runs
/// [`TileEntered`]); returns whether it is still in action.
fn enter(world: &mut World, unit: Entity, from: Pos, to: Pos) -> bool {
    world.insert_resource(Entering { unit, from, to });
    world.run_schedule(TileEntered);
    world.remove_resource::<Entering>();
    !crate::battle::out_of_action(world, unit)
}

pub(super) fn plugin(app: &mut App) {
    app.init_schedule(TileEntered);
    crate::rules::pipeline::handle(app, CommandKind::Move, validate_move, execute_move);
    crate::rules::pipeline::handle(app, CommandKind::Step, validate_step, execute_step);
}

/// Every tile a Move command of `unit` may end on now, with its cost and
/// path: none without the AP a Move costs (R3.1); the free tiles next to
/// it when it is prone (R4.8: it crawls 1 tile); else every tile within
/// its Speed (R5.1). What the legal commands list and the window shades.
pub fn move_reach(world: &mut World, unit: Entity) -> HashMap<Pos, Reach> {
    let ap = world.get::<ActionPoints>(unit).map_or(0, |a| a.ap);
    let move_cost = cost(&Command::Move {
        unit: String::new(),
        to: Pos::default(),
        path: None,
        sprint: false,
    });
    // A rider's free Move costs nothing (V12.2).
    let free = world.entity(unit).contains::<crate::battle::FreeMove>();
    if ap < move_cost.ap && !free {
        return HashMap::new();
    }
    // Under Energy a Run goes as far as the Energy pays (V5.5).
    let speed = speed_of(world, unit);
    let limit = crate::battle::run_allowance(world, unit, speed).unwrap_or(speed);
    let (level, occ, at) = view_for(world, unit);
    if world.entity(unit).contains::<Prone>() {
        return Dir::ALL
            .into_iter()
            .map(|d| (d, at.step(d)))
            .filter(|(d, to)| {
                step_blocked(&level.map, &occ, at, *d).is_none()
                    && occ.under(*to) == Occupant::Empty
            })
            .map(|(_, to)| {
                let reach = Reach {
                    cost: 1,
                    path: vec![to],
                };
                (to, reach)
            })
            .collect();
    }
    reachable(&level.map, &occ, at, limit)
}

/// The level, and the occupancy as `unit` sees it (its body's anchor last:
/// with size, V10.6, paths and reaches are of anchors).
pub fn view_for(world: &mut World, unit: Entity) -> (Arc<ValidLevel>, Occupancy, Pos) {
    let side = world.get::<Side>(unit).map_or(0, |s| s.0);
    let me = body_of(world, unit).unwrap_or_default();
    // A rider and its mount move as one (V12.1).
    let pair = crate::battle::partner(world, unit);
    let units: Vec<(Body, usize)> = crate::battle::units(world)
        .into_iter()
        .filter(|e| *e != unit && Some(*e) != pair && !world.entity(*e).contains::<Dead>())
        // A unit hidden from the side is not in its view (V8.2): a path may
        // run into it, and stop there (V8.6).
        .filter(|e| !crate::battle::hidden_from(world, *e, side))
        .filter_map(|e| Some((body_of(world, e)?, world.get::<Side>(e)?.0)))
        .collect();
    let level = world.resource::<Battlefield>().0.clone();
    let occ = Occupancy::of_bodies(&level.map, units.into_iter(), side, me);
    (level, occ, me.at)
}

/// The path a Move command takes and its movement cost, or why it cannot
/// (R5, R4.8 crawling).
pub fn plan_move(
    world: &mut World,
    unit: Entity,
    to: Pos,
    path: Option<&[Pos]>,
    sprint: bool,
) -> Result<(Vec<Pos>, u32), Refusal> {
    let (level, occ, at) = view_for(world, unit);
    let map = &level.map;
    let speed = crate::rules::motion::movement::speed_of(world, unit);
    // A Sprint goes a third of Speed farther (V5.5 *decision*).
    let (speed, sprinting) = if sprint {
        (speed + speed / 3, " sprinting (V5.5)")
    } else {
        (speed, "")
    };
    let body = occ.body_at(to);
    // A big body's end must fit whole (V10.6): its refusals cite it.
    let (n, fit) = (
        occ.n(),
        |rule: Rule| if occ.n() > 1 { Rule::V10_6 } else { rule },
    );
    let whole = if n > 1 {
        format!(" (the {n}×{n} footprint from {to})")
    } else {
        String::new()
    };
    if let Some(off) = body.tiles().find(|t| !map.contains(*t)) {
        return Err(Refusal::new(
            fit(Rule::R0_1),
            format!(
                "{off} is off the map ({}×{}){whole}",
                map.width(),
                map.height()
            ),
        ));
    }
    if to == at {
        return Err(Refusal::new(Rule::R5_1, format!("already at {to}")));
    }
    if let Some(wall) = body.tiles().find(|t| !map.is_passable(*t)) {
        let name = map.get(wall).map_or("?", |t| t.name.as_str());
        return Err(Refusal::new(
            fit(Rule::R5_2),
            format!("{wall} is impassable ({name}){whole}"),
        ));
    }
    if occ.under(to) != Occupant::Empty {
        let taken = body
            .tiles()
            .find(|t| occ.at(*t) != Occupant::Empty)
            .unwrap_or(to);
        return Err(Refusal::new(
            fit(Rule::R5_2),
            format!("{taken} is occupied: a Move cannot end there{whole}"),
        ));
    }
    if world.entity(unit).contains::<Prone>() {
        // R4.8: a Move while prone crawls one tile.
        let dir = Dir::ALL
            .into_iter()
            .find(|d| at.step(*d) == to)
            .ok_or_else(|| {
                Refusal::new(
                    Rule::R4_8,
                    format!("a prone unit crawls 1 tile; {to} is farther"),
                )
            })?;
        return match step_blocked(map, &occ, at, dir) {
            Some(r) => Err(r),
            None => Ok((vec![to], 1)),
        };
    }
    let (path, cost) = match path {
        Some(p) => {
            if p.last() != Some(&to) {
                return Err(Refusal::new(
                    Rule::R5_3,
                    format!("the path does not end at {to}"),
                ));
            }
            (p.to_vec(), path_cost(map, &occ, at, p)?)
        }
        None => {
            // Within Speed first (a small window); only a refusal needs the
            // whole map, to say what the path would cost.
            let near = search(map, &occ, at, speed);
            match (near.path(to), near.cost(to)) {
                (Some(p), Some(c)) => (p, c),
                _ => {
                    // Out of reach: say what the path would cost, looking a
                    // little farther (a refusal needs no whole-map search).
                    let horizon = speed + 4;
                    let far = search(map, &occ, at, horizon);
                    match far.cost(to) {
                        Some(c) => (far.path(to).unwrap_or_default(), c),
                        None if at.chebyshev(to) as u32 > horizon => {
                            return Err(Refusal::new(
                                Rule::R5_1,
                                format!("{to} is {} tiles away, speed is {speed}", at.distance(to)),
                            ));
                        }
                        None => {
                            return Err(Refusal::new(
                                Rule::R5_2,
                                format!("no path to {to} within {horizon} movement"),
                            ));
                        }
                    }
                }
            }
        }
    };
    if cost > speed {
        return Err(Refusal::new(
            Rule::R5_1,
            format!("path costs {cost}, speed is {speed}{sprinting}"),
        ));
    }
    Ok((path, cost))
}

/// The mover, where to, its path and whether it sprints (V5.5).
type MoveArgs = (Entity, Pos, Option<Vec<Pos>>, bool);

fn move_args(world: &World) -> Option<MoveArgs> {
    let pending = world.resource::<Pending>();
    match (&pending.command, pending.actor) {
        (
            Some(Command::Move {
                to, path, sprint, ..
            }),
            Some(a),
        ) => Some((a, *to, path.clone(), *sprint)),
        (Some(Command::Step { to, .. }), Some(a)) => Some((a, *to, None, false)),
        _ => None,
    }
}

fn validate_move(world: &mut World) {
    let Some((actor, to, path, sprint)) = move_args(world) else {
        return;
    };
    match plan_move(world, actor, to, path.as_deref(), sprint) {
        Ok((path, cost)) => {
            world.resource_mut::<Pending>().plan = Some(crate::rules::pipeline::MovePlan {
                path,
                cost,
                triggers: None,
            })
        }
        Err(r) => world.resource_mut::<Pending>().refuse(r),
    }
}

fn execute_move(world: &mut World) {
    let Some((actor, to, path, sprint)) = move_args(world) else {
        return;
    };
    let planned = world.resource_mut::<Pending>().plan.take();
    let Some((path, cost)) = planned
        .map(|p| (p.path, p.cost))
        .or_else(|| plan_move(world, actor, to, path.as_deref(), sprint).ok())
    else {
        return;
    };
    let cost = MoveCost {
        cost,
        speed: crate::rules::motion::movement::speed_of(world, actor) as i32,
        crawl: world.entity(actor).contains::<Prone>(),
    };
    walk(world, actor, &path, Some(cost));
}

/// True when a unit other than `unit`, not dead, stands in `body`.
fn occupied_by_other(world: &World, unit: Entity, body: Body) -> bool {
    let pair = crate::battle::partner(world, unit);
    crate::battle::units_in(world, body)
        .into_iter()
        .any(|e| e != unit && Some(e) != pair)
}

/// True when an enemy `unit`'s side did not see stands in `body`, where
/// `unit` was about to go (a hidden unit, V8.6): the mover is told it ran
/// into it, and goes no further, its AP spent.
pub fn bumps(world: &mut World, unit: Entity, body: Body) -> bool {
    let other = standing_in(world, unit, body);
    tell_bump(world, unit, other, body.at)
}

/// Whether anyone but `skip` stands in `body`, told as `by` running into
/// it (V8.6): for a Drag or a Dismount, whose validation read the side's
/// view, so that whoever is still there is a unit hidden from that side.
pub fn runs_into(world: &mut World, by: Entity, body: Body, skip: &[Entity]) -> bool {
    let other = crate::battle::units_in(world, body)
        .into_iter()
        .find(|e| !skip.contains(e));
    tell_bump(world, by, other, body.at)
}

fn tell_bump(world: &mut World, by: Entity, other: Option<Entity>, at: Pos) -> bool {
    let Some(other) = other else {
        return false;
    };
    let (unit, by) = (id_of(world, other), id_of(world, by));
    emit(
        world,
        BattleEvent::Bumped(crate::rules::events::Bump { unit, by, at }),
    );
    true
}

/// A unit other than `unit` (and its pair), not dead, whose body overlaps
/// `body`.
fn standing_in(world: &World, unit: Entity, body: Body) -> Option<Entity> {
    let pair = crate::battle::partner(world, unit);
    let side = world.get::<Side>(unit).map(|s| s.0);
    crate::battle::units_in(world, body)
        .into_iter()
        .find(|&e| e != unit && Some(e) != pair && world.get::<Side>(e).map(|s| s.0) != side)
}

/// Walks `unit` along `path`, one tile at a time; it ends facing its last
/// step (R4.2). Leaving a threatened tile provokes (R8.2) before the step;
/// a provoker dropped there stops (R8.4). Tells each step, then the whole
/// Move (with `cost` when it was walked to its end). Returns the tiles
/// walked.
pub fn walk(world: &mut World, unit: Entity, path: &[Pos], cost: Option<MoveCost>) -> usize {
    let Some(start) = world.get::<GridPos>(unit).map(|p| p.0) else {
        return 0;
    };
    let n = side_of_body(world, unit);
    let mut at = start;
    let mut walked = 0;
    // Who could react at all does not change while this unit walks: look it
    // up once, and provoke only where one of them threatens the tile left.
    let watchers = crate::rules::reactions::reactive_attack::watchers(world, unit);
    // Enemies that threaten but may not react are told too (R2.3, R3.2).
    let barred = crate::rules::reactions::reactive_attack::barred_watchers(world, unit);
    // Where the unit could have stopped last, and the tiles walked to it:
    // passing through an ally, it cannot stay in the ally's tile.
    let mut last_free = (start, 0);
    // A reaction that ends the Move (R8.4) is told after the move it cut.
    let mut interrupted = false;
    // Where the walk was last told, before a reaction on the way (R8.2).
    let mut told: Option<(Pos, usize)> = None;
    for &next in path {
        // A unit the mover's side did not know of stands in the way (a
        // hidden enemy, V8.6): the Move stops before it, its AP spent.
        let bumped = bumps(world, unit, Body::new(next, n));
        let here = Body::new(at, n);
        let threatened = watchers.iter().any(|t| t.covers_body(here))
            || barred.iter().any(|t| t.covers_body(here));
        let stopped = !bumped && threatened && {
            // The stretch walked so far is told before a reaction to
            // leaving this tile, if one is told.
            let mut stretch = stretch(world, unit, told.unwrap_or((start, 0)), at, walked);
            let had = stretch.is_some();
            let goes_on = crate::rules::reactions::reactive_attack::provoke_on_the_way(
                world,
                unit,
                crate::rules::events::Trigger::Leave(at),
                &mut stretch,
            );
            if had && stretch.is_none() {
                told = Some((at, walked));
            }
            !goes_on
        };
        interrupted |= stopped;
        // A mount dropped under its rider carries it no further (V12.7).
        let unhorsed = crate::battle::mount_of(world, unit)
            .is_some_and(|m| crate::battle::out_of_action(world, m));
        if bumped || stopped || unhorsed {
            // Stopped while passing through an ally (dropped, or run into
            // a hidden enemy): it falls back to the last tile it could have
            // stopped in *(decision)*.
            if at != last_free.0 {
                if let Some(mut p) = world.get_mut::<GridPos>(unit) {
                    p.0 = last_free.0;
                }
                crate::battle::carry(world, unit);
                let id = id_of(world, unit);
                emit(
                    world,
                    BattleEvent::FellBack(crate::rules::events::FallBack {
                        unit: id,
                        to: last_free.0,
                    }),
                );
                (at, walked) = last_free;
            }
            break;
        }
        walked += 1;
        let dir = Dir::towards(at, next);
        if let Some(mut p) = world.get_mut::<GridPos>(unit) {
            p.0 = next;
        }
        if let (Some(dir), Some(mut f)) = (dir, world.get_mut::<Facing>(unit)) {
            f.0 = dir;
        }
        // The pair moves as one, and has moved this turn (V12.1, V12.3).
        if crate::battle::partner(world, unit).is_some() {
            crate::battle::carry(world, unit);
            world.entity_mut(unit).insert(crate::battle::Rode);
        }
        let event = BattleEvent::Stepped {
            unit: id_of(world, unit),
            from: at,
            to: next,
            facing: world.get::<Facing>(unit).map_or(Dir::N, |f| f.0),
            ap_left: world.get::<ActionPoints>(unit).map_or(0, |a| a.ap),
        };
        emit(world, event);
        let from = at;
        at = next;
        if !occupied_by_other(world, unit, Body::new(at, n)) {
            last_free = (at, walked);
        }
        // What lies on the tile acts (V11.6); a unit it drops walks no
        // further.
        if !enter(world, unit, from, at) {
            break;
        }
    }
    let event = BattleEvent::Moved {
        unit: id_of(world, unit),
        from: start,
        to: at,
        tiles: walked,
        facing: world.get::<Facing>(unit).map_or(Dir::N, |f| f.0),
        cost: cost.filter(|_| walked == path.len()),
        told,
    };
    emit(world, event);
    if interrupted {
        let unit = id_of(world, unit);
        emit(world, BattleEvent::ActionInterrupted { unit });
    }
    walked
}

/// The stretch of a walk from `since` (a tile, and the tiles walked to
/// it) to `at`, `walked` tiles in: none when nothing was walked since.
fn stretch(
    world: &World,
    unit: Entity,
    (from, before): (Pos, usize),
    at: Pos,
    walked: usize,
) -> Option<BattleEvent> {
    (walked > before).then(|| {
        BattleEvent::Walked(crate::rules::events::Stretch {
            unit: id_of(world, unit),
            from,
            to: at,
            tiles: walked - before,
            in_all: walked,
            facing: world.get::<Facing>(unit).map_or(Dir::N, |f| f.0),
        })
    })
}

/// Why a Step from the unit's tile to `to` is not allowed: only to an
/// adjacent tile, never into difficult terrain, not while prone.
pub fn check_step(world: &mut World, unit: Entity, to: Pos) -> Result<Dir, Refusal> {
    let (level, occ, at) = view_for(world, unit);
    let map = &level.map;
    if world.entity(unit).contains::<Prone>() {
        return Err(Refusal::new(
            Rule::R4_8,
            "a prone unit crawls with Move or stands up first",
        ));
    }
    let dir = Dir::ALL
        .into_iter()
        .find(|d| at.step(*d) == to)
        .ok_or_else(|| {
            Refusal::new(
                Rule::R3_1,
                format!("a Step moves exactly 1 tile; {to} is not adjacent"),
            )
        })?;
    if let Some(r) = step_blocked(map, &occ, at, dir) {
        return Err(r);
    }
    if occ.under(to) != Occupant::Empty {
        return Err(Refusal::new(Rule::R5_2, format!("{to} is occupied")));
    }
    if let Some(hard) = super::paths::entered(at, occ.n(), dir).find(|t| {
        map.get(*t)
            .is_some_and(|t| t.movement == Movement::Difficult)
    }) {
        return Err(Refusal::new(
            Rule::R3_1,
            format!("a Step cannot enter difficult terrain ({hard})"),
        ));
    }
    // Up 1 m costs as difficult terrain (V9.1), so a Step cannot climb it.
    if super::paths::step_cost(map, &occ, (at, false), dir).1 > 1 {
        return Err(Refusal::new(
            Rule::V9_1,
            format!("a Step cannot climb: {to} is 1 m higher (costs as difficult terrain)"),
        ));
    }
    Ok(dir)
}

fn validate_step(world: &mut World) {
    let Some((actor, to, ..)) = move_args(world) else {
        return;
    };
    if let Err(r) = check_step(world, actor, to) {
        world.resource_mut::<Pending>().refuse(r);
    }
}

/// A Step shifts the unit without turning it *(decision)*.
fn execute_step(world: &mut World) {
    let Some((actor, to, ..)) = move_args(world) else {
        return;
    };
    shift(world, actor, to);
}

/// Moves `actor` one tile to `to` without turning it and without
/// provoking: a Step (R5), an Agile Move (V5.7). Told as `Shifted`.
pub fn shift(world: &mut World, actor: Entity, to: Pos) {
    let n = side_of_body(world, actor);
    if bumps(world, actor, Body::new(to, n)) {
        return;
    }
    let from = world.get::<GridPos>(actor).map(|p| p.0);
    if let Some(mut p) = world.get_mut::<GridPos>(actor) {
        p.0 = to;
    }
    if let Some(from) = from {
        let unit = id_of(world, actor);
        emit(world, BattleEvent::Shifted { unit, from, to });
        enter(world, actor, from, to);
    }
}

/// A unit's Speed in tiles (R5.1), less what slows it ([`Slowed`]: leg
/// injuries, V3).
pub fn speed_of(world: &World, unit: Entity) -> u32 {
    // A rider moves the pair at its mount's Speed (V12.2).
    let unit = crate::battle::mount_of(world, unit).unwrap_or(unit);
    let speed = world
        .get::<Stats>(unit)
        .map_or(0, |s| s.template.speed)
        .max(0) as u32;
    let slowed = world.get::<Slowed>(unit).map_or(0, |s| s.0);
    speed.saturating_sub(slowed)
}
