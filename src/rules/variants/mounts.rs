//! V12 mounted combat (003:49–53, 004:94–101; `rules: (mounts: true)`):
//! a rider and its mount are two units that stand on the mount's tiles and
//! act on the rider's turn.
//!
//! - **V12.1** the pair: the rider stands on its mount's tiles
//!   ([`Riding`], [`Ridden`]; [`body_of`](crate::battle::body_of) gives a
//!   rider its mount's body); attacks may target either. A ridden mount
//!   takes no turn of its own (the turn order skips it).
//! - **V12.2** the turn: the rider's 3 AP and one free Move at the mount's
//!   Speed ([`FreeMove`]); more Moves cost AP as usual. The mount's own
//!   attacks (`Attack(unit: "Bayard", …)`) spend the rider's AP; the mount
//!   does nothing else by itself.
//! - **V12.3** attacks: a rider's melee attack with a weapon without
//!   `TwoHanded` on an unmounted target that wields nothing of reach 2 or
//!   more, +1 advantage; any attack by a rider whose pair has moved this
//!   turn ([`Rode`]), +1 disadvantage. They cancel by R0.4.
//! - **V12.6** an unskilled rider (no Riding bonus): +1 disadvantage on its
//!   attack rolls and checks while mounted, AP halved (3 → 1).
//! - **V12.7** Mount (a mount beside it, 1 AP, 3 unskilled) and Dismount
//!   (to a free tile beside it, 1 AP; an unskilled rider's whole turn
//!   *(decision: it has only 1 AP while mounted)*); neither provokes. A
//!   rider falls off, prone, onto the nearest free tile (ties clockwise
//!   from north) when its mount falls out of action or it is knocked prone;
//!   a rider out of action falls there too *(decision)*.

use crate::battle::{
    ActionPoints, Battlefield, Dead, Facing, FreeMove, GridPos, Inventory, Prone, Ridden, Riding,
    Rode, Side, Stats, body_of, carry_pairs, name_of, out_of_action, units,
};
use crate::format::WeaponTrait;
use crate::grid::{Body, Pos};
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{BattleEvent, FallCause, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Pending, handle};
use crate::rules::rule::Rule;
use crate::rules::turns::turn::{advance_turn, skilled_rider};
use bevy::prelude::*;

/// True when the level plays with mounts (V12).
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().mounts)
}

/// Run condition: the level plays with mounts.
pub fn switched_on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().mounts)
}

pub(super) fn plugin(app: &mut App) {
    handle(app, CommandKind::Mount, validate_mount, mount);
    handle(app, CommandKind::Dismount, validate_dismount, dismount);
    app.add_systems(
        CommandSchedule,
        (
            refuse_a_mount_acting_alone.in_set(CommandSystems::Validate),
            (carry_pairs, throw_off_riders)
                .chain()
                .in_set(CommandSystems::Advance)
                .before(advance_turn),
        ),
    );
    app.add_systems(
        AttackSchedule,
        add_mounted_modifiers
            .in_set(AttackSystems::Situational)
            .run_if(switched_on),
    );
}

/// True when `rider` has no Riding bonus (V12.6).
pub fn unskilled(world: &World, rider: Entity) -> bool {
    world
        .get::<Stats>(rider)
        .is_some_and(|s| !skilled_rider(&s.template))
}

/// What mounting costs `rider` (V12.7): 1 AP, 3 unskilled.
pub fn mount_cost(world: &World, rider: Entity) -> i32 {
    if unskilled(world, rider) { 3 } else { 1 }
}

/// What dismounting costs `rider` (V12.7): 1 AP; an unskilled rider, whose
/// AP are halved while mounted (V12.6), spends all it has *(decision)*.
pub fn dismount_cost(world: &World, rider: Entity) -> i32 {
    let ap = world.get::<ActionPoints>(rider).map_or(0, |a| a.ap);
    if unskilled(world, rider) {
        ap.max(1)
    } else {
        1
    }
}

fn refuse(world: &mut World, result: Result<(), Refusal>) {
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn actor(world: &World) -> Option<(Entity, Command)> {
    let p = world.resource::<Pending>();
    Some((p.actor?, p.command.clone()?))
}

fn afford(world: &World, rider: Entity, ap: i32, what: &str) -> Result<(), Refusal> {
    let left = world.get::<ActionPoints>(rider).map_or(0, |a| a.ap);
    if left < ap {
        return Err(Refusal::new(
            Rule::V12_7,
            format!(
                "{what} costs {ap} AP, {} has {left} left",
                name_of(world, rider)
            ),
        ));
    }
    Ok(())
}

/// Why `rider` may not mount `mount` now (V12.7).
pub fn check_mount(world: &World, rider: Entity, mount: Entity) -> Result<(), Refusal> {
    let (who, whom) = (name_of(world, rider), name_of(world, mount));
    let no = |why: String| Err(Refusal::new(Rule::V12_7, why));
    if !on(world) {
        return Err(Refusal::new(Rule::V12, "this level plays without mounts"));
    }
    if world.entity(rider).contains::<Riding>() {
        return no(format!("{who} is already mounted"));
    }
    if world.entity(rider).contains::<Ridden>() {
        return no(format!("{who} is ridden: a mount cannot ride"));
    }
    let can = world.get::<Stats>(mount).is_some_and(|s| s.template.mount);
    if !can || rider == mount {
        return Err(Refusal::new(
            Rule::V12_1,
            format!("{whom} cannot be ridden (not a mount)"),
        ));
    }
    if let Some(r) = world.get::<Ridden>(mount) {
        return no(format!("{} rides {whom} already", name_of(world, r.0)));
    }
    if out_of_action(world, mount) || world.entity(mount).contains::<Prone>() {
        return no(format!("{whom} cannot carry a rider now"));
    }
    if world.get::<Side>(mount) != world.get::<Side>(rider) {
        return no(format!("{whom} is not of {who}'s side"));
    }
    if world.entity(rider).contains::<Prone>() {
        return Err(Refusal::new(
            Rule::R4_8,
            format!("{who} is prone: it stands up first"),
        ));
    }
    if !crate::battle::beside(world, rider, mount) {
        return no(format!("{whom} is not beside {who}"));
    }
    afford(world, rider, mount_cost(world, rider), "Mount")
}

fn validate_mount(world: &mut World) {
    let p = world.resource::<Pending>();
    let (Some(rider), Some(mount)) = (p.actor, p.target) else {
        return;
    };
    let result = check_mount(world, rider, mount);
    refuse(world, result);
}

fn spend(world: &mut World, unit: Entity, ap: i32) -> i32 {
    let mut a = world.get_mut::<ActionPoints>(unit).expect("a unit has AP");
    a.ap = (a.ap - ap).max(0);
    a.ap
}

fn mount(world: &mut World) {
    let p = world.resource::<Pending>();
    let (Some(rider), Some(mount)) = (p.actor, p.target) else {
        return;
    };
    let ap = mount_cost(world, rider);
    let ap_left = spend(world, rider, ap);
    let at = world
        .get::<GridPos>(mount)
        .map_or_else(Pos::default, |p| p.0);
    let facing = world
        .get::<Facing>(mount)
        .map_or_else(Default::default, |f| f.0);
    world
        .entity_mut(rider)
        .insert((Riding { mount, at, facing }, GridPos(at), Facing(facing)));
    world.entity_mut(mount).insert(Ridden(rider));
    let (unit, mount) = (id_of(world, rider), id_of(world, mount));
    emit(
        world,
        BattleEvent::Mounted {
            unit,
            mount,
            ap,
            ap_left,
        },
    );
}

/// Why `rider` may not dismount to `to` now (V12.7).
pub fn check_dismount(world: &World, rider: Entity, to: Pos) -> Result<(), Refusal> {
    let who = name_of(world, rider);
    let Some(r) = world.get::<Riding>(rider) else {
        return Err(Refusal::new(Rule::V12_7, format!("{who} is not mounted")));
    };
    let (Some(pair), Some(field)) = (body_of(world, r.mount), world.get_resource::<Battlefield>())
    else {
        return Err(Refusal::new(Rule::V12_7, "no mount"));
    };
    let own = Body::new(
        to,
        world
            .get::<crate::battle::Footprint>(rider)
            .map_or(1, |f| f.0),
    );
    if pair.gap(own) != 1 {
        return Err(Refusal::new(
            Rule::V12_7,
            format!("{to} is not beside {}", name_of(world, r.mount)),
        ));
    }
    if let Some(t) = own.tiles().find(|t| !field.0.map.is_passable(*t)) {
        return Err(Refusal::new(Rule::R5_2, format!("{t} is impassable")));
    }
    // Only the units the rider's side sees refuse it (V8.1); one hidden
    // from it is run into when the rider gets down (V8.6).
    if let Some(t) = own
        .tiles()
        .find(|t| !crate::battle::seen_in(world, Body::new(*t, 1), rider).is_empty())
    {
        return Err(Refusal::new(Rule::R5_2, format!("{t} is occupied")));
    }
    afford(world, rider, dismount_cost(world, rider), "Dismount")
}

fn validate_dismount(world: &mut World) {
    let Some((rider, Command::Dismount { to, .. })) = actor(world) else {
        return;
    };
    let result = check_dismount(world, rider, to);
    refuse(world, result);
}

fn dismount(world: &mut World) {
    let Some((rider, Command::Dismount { to, .. })) = actor(world) else {
        return;
    };
    let Some(mount) = crate::battle::mount_of(world, rider) else {
        return;
    };
    let ap = dismount_cost(world, rider);
    let ap_left = spend(world, rider, ap);
    // A unit hidden from the rider's side stands there: it stays mounted,
    // its AP spent (V8.6).
    let n = world
        .get::<crate::battle::Footprint>(rider)
        .map_or(1, |f| f.0);
    if crate::rules::motion::movement::runs_into(world, rider, Body::new(to, n), &[rider, mount]) {
        return;
    }
    part(world, rider, mount, to);
    let (unit, mount) = (id_of(world, rider), id_of(world, mount));
    emit(
        world,
        BattleEvent::Dismounted {
            unit,
            mount,
            to,
            ap,
            ap_left,
        },
    );
}

/// Ends the pair: the rider stands on `to`.
fn part(world: &mut World, rider: Entity, mount: Entity, to: Pos) {
    world
        .entity_mut(rider)
        .remove::<(Riding, FreeMove, Rode)>()
        .insert(GridPos(to));
    world.entity_mut(mount).remove::<Ridden>();
}

/// A ridden mount acts on its rider's turn, and only to attack: the rider
/// moves the pair (V12.2).
fn refuse_a_mount_acting_alone(world: &mut World) {
    let Some((actor, command)) = actor(world) else {
        return;
    };
    let Some(rider) = world.get::<Ridden>(actor).map(|r| r.0) else {
        return;
    };
    if matches!(command, Command::Attack { .. } | Command::React { .. }) {
        return;
    }
    let (mount, rider) = (name_of(world, actor), name_of(world, rider));
    let why = format!("{mount} is ridden: {rider} moves the pair, and {mount} only attacks");
    world
        .resource_mut::<Pending>()
        .refuse(Refusal::new(Rule::V12_2, why));
}

/// The free tile nearest the pair's body for a falling rider (V12.7): the
/// least gap first, then clockwise from north about the body's centre.
pub fn landing(world: &World, rider: Entity, pair: Body) -> Option<Pos> {
    let map = &world.get_resource::<Battlefield>()?.0.map;
    let free = |t: Pos| {
        map.is_passable(t)
            && crate::battle::units(world).into_iter().all(|e| {
                e == rider
                    || world.entity(e).contains::<Dead>()
                    || body_of(world, e).is_none_or(|b| !b.contains(t))
            })
    };
    let c = pair.centre2();
    let clockwise = |t: Pos| {
        let (dx, dy) = (f64::from(2 * t.x - c.x), f64::from(2 * t.y - c.y));
        dx.atan2(-dy).rem_euclid(std::f64::consts::TAU)
    };
    let reach = map.width().max(map.height());
    (1..=reach).find_map(|gap| {
        let mut ring: Vec<Pos> = map
            .positions()
            .filter(|t| pair.gap(Body::new(*t, 1)) == gap && free(*t))
            .collect();
        ring.sort_by(|a, b| clockwise(*a).total_cmp(&clockwise(*b)));
        ring.first().copied()
    })
}

/// After every command: a rider whose mount fell out of action, who was
/// knocked prone or who fell out of action itself falls off (V12.7).
fn throw_off_riders(world: &mut World) {
    let riders: Vec<(Entity, Entity)> = units(world)
        .into_iter()
        .filter_map(|e| Some((e, world.get::<Riding>(e)?.mount)))
        .collect();
    for (rider, mount) in riders {
        let why = if out_of_action(world, mount) {
            FallCause::MountDown
        } else if out_of_action(world, rider) {
            FallCause::RiderDown
        } else if world.entity(rider).contains::<Prone>() {
            FallCause::Prone
        } else {
            continue;
        };
        let Some(pair) = body_of(world, mount) else {
            continue;
        };
        let Some(to) = landing(world, rider, pair) else {
            continue;
        };
        part(world, rider, mount, to);
        if why == FallCause::MountDown {
            world.entity_mut(rider).insert(Prone);
        }
        let (unit, mount) = (id_of(world, rider), id_of(world, mount));
        emit(
            world,
            BattleEvent::ThrownOff {
                unit,
                mount,
                to,
                why,
            },
        );
    }
}

/// The weapon `unit` holds (the first it carries) reaches 2 tiles or more.
fn wields_long(world: &World, unit: Entity) -> bool {
    let catalog = &world.resource::<Battlefield>().0.catalog;
    world
        .get::<Inventory>(unit)
        .and_then(|i| i.weapons.first())
        .and_then(|w| catalog.weapon(w))
        .is_some_and(|w| w.reach >= 2)
}

fn add_mounted_modifiers(world: &mut World) {
    let draft = world.resource::<AttackDraft>();
    let (attacker, target) = (draft.attacker, draft.target);
    if !world.entity(attacker).contains::<Riding>() {
        return;
    }
    let mut add = vec![];
    if draft.maneuver.is_none() {
        let mounted = |e: Entity| {
            world
                .get_entity(e)
                .is_ok_and(|e| e.contains::<Riding>() || e.contains::<Ridden>())
        };
        if draft.mode == AttackMode::Melee
            && !draft.weapon.traits.contains(&WeaponTrait::TwoHanded)
            && !draft.aims_at_tile()
            && !mounted(target)
            && !wields_long(world, target)
        {
            add.push((
                Effect::Advantage(1),
                "mounted, one hand, on a footman",
                Rule::V12_3,
            ));
        }
        // "This turn" is the rider's own: its reactions in others' turns
        // are made from a mount at rest *(decision)*.
        let own_turn = world.resource::<crate::rules::TurnState>().current == Some(attacker);
        if own_turn && world.entity(attacker).contains::<Rode>() {
            add.push((Effect::Advantage(-1), "from a moving mount", Rule::V12_3));
        }
    }
    if unskilled(world, attacker) {
        add.push((Effect::Advantage(-1), "unskilled rider", Rule::V12_6));
    }
    let mut draft = world.resource_mut::<AttackDraft>();
    for (effect, source, rule) in add {
        draft.push(effect, source, rule);
    }
}
