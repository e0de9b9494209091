//! Who sits at the window: whose turn a human plays, which human unit the
//! rules ask a question, whose secrets the window keeps (R10.1), and
//! whether a script plays instead (a replay, the tour).

use crate::ai::Players;
use crate::battle::{Side, UnitId};
use crate::grid::Pos;
use crate::rules::{Command, Decisions, TurnState};
use bevy::prelude::*;
use std::collections::{HashSet, VecDeque};

/// The unit whose turn it is, when a human plays its side.
pub fn human_to_act(world: &World) -> Option<Entity> {
    if world.contains_resource::<Script>() {
        return None;
    }
    let players = world.get_resource::<Players>()?;
    if world.resource::<TurnState>().outcome.is_some() {
        return None;
    }
    if world.resource::<Decisions>().asked().is_some() {
        return None;
    }
    // Behind the hot-seat curtain, the next player is not yet seated.
    if world
        .get_resource::<Curtain>()
        .is_some_and(|c| c.0.is_some())
    {
        return None;
    }
    let current = world.resource::<TurnState>().current?;
    let side = world.get::<Side>(current)?.0;
    players.of(side).is_none().then_some(current)
}

/// The unit a human is asked about (a reaction question, R8), if any.
pub fn human_asked(world: &World) -> Option<Entity> {
    if world.contains_resource::<Script>() {
        return None;
    }
    let players = world.get_resource::<Players>()?;
    let asked = world.resource::<Decisions>().asked()?;
    let side = world.get::<Side>(asked)?.0;
    players.of(side).is_none().then_some(asked)
}

/// The living unit on `tile`, if any: any tile of a big body (V10.6). Of
/// a mounted pair, the rider; with Ctrl held ([`AimAtMount`]), its mount
/// (V12.1: attacks may target either).
pub fn unit_at(world: &World, tile: Pos) -> Option<Entity> {
    let unit = crate::battle::unit_on(world, tile)?;
    // A unit hidden from the side at the window is not there for it (V8.1).
    if unseen_here(world, unit) {
        return None;
    }
    match crate::battle::mount_of(world, unit) {
        Some(mount) if aiming_at_mount(world) => Some(mount),
        _ => Some(unit),
    }
}

/// Whether Ctrl is held: pointing at a pair points at its mount (V12.1).
pub fn aiming_at_mount(world: &World) -> bool {
    world.get_resource::<AimAtMount>().is_some_and(|a| a.0)
}

/// Ctrl is held: pointing at a mounted pair points at the mount (V12.1).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AimAtMount(pub bool);

/// Reads Ctrl into [`AimAtMount`] each frame.
pub fn aim_at_mounts(keys: Res<ButtonInput<KeyCode>>, mut aim: ResMut<AimAtMount>) {
    let ctrl = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
    if aim.0 != ctrl {
        aim.0 = ctrl;
    }
}

/// The units of the sides no human at this window plays: their death timer
/// is hidden from the player (R10.1). With no human side (`--watch`, a
/// replay) the viewer is a spectator and sees everything; hot-seat humans
/// share the screen, so both see their own.
pub fn hidden_units(world: &mut World) -> HashSet<UnitId> {
    let Some(players) = world.get_resource::<Players>().cloned() else {
        return HashSet::new();
    };
    let human = |side: usize| players.of(side).is_none();
    let any_human = (0..players.0.len()).any(human);
    if !any_human || world.contains_resource::<Script>() {
        return HashSet::new();
    }
    let mut q = world.query::<(&UnitId, &Side)>();
    q.iter(world)
        .filter(|(_, side)| !human(side.0))
        .map(|(id, _)| *id)
        .collect()
}

/// A script plays the battle, not the players at the window: a recorded
/// battle's commands still to play (`skirmish replay --watch`), or none
/// while the rules tour plays its demo.
#[derive(Resource, Clone, Debug, Default)]
pub struct Script(pub VecDeque<Command>);

/// The rules tour plays its demo's script: the window shows the previews
/// of the unit the script plays as it would a player's.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Guided;

/// The unit whose previews and overlays the window shows: a human's unit
/// to act, or the unit the tour's script plays.
pub fn shown_unit(world: &World) -> Option<Entity> {
    human_to_act(world).or_else(|| {
        world
            .contains_resource::<Guided>()
            .then(|| world.resource::<TurnState>().current)
            .flatten()
    })
}

/// The side whose knowledge the window shows (V8.1, #24): its units, the
/// enemies it sees, the ghosts of those it lost, its log. `None` shows the
/// referee's whole battle (`--watch`, a replay, the tour).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Viewer(pub Option<usize>);

/// Hot-seat with stealth (V8.1, #24): the side whose player is asked to
/// take the seat, the battle hidden until they do. `None`: no curtain.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Curtain(pub Option<usize>);

/// Whose view the window should show now, `was` being the one it shows:
/// the one human side; of several (hot-seat), the side whose turn it is,
/// kept through the turns of the AI's sides; none with no human side or
/// a script playing.
pub fn viewer_now(world: &World, was: Option<usize>) -> Option<usize> {
    if let Some(side) = world
        .get_resource::<super::frame::PlayOptions>()
        .and_then(|o| o.view_as)
    {
        return Some(side);
    }
    if world.contains_resource::<Script>() {
        return None;
    }
    let players = world.get_resource::<Players>()?;
    let humans = players.humans();
    match humans.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => world
            .resource::<TurnState>()
            .current
            .and_then(|c| world.get::<Side>(c))
            .map(|s| s.0)
            .filter(|s| humans.contains(s))
            .or(was),
    }
}

/// True when `unit` is hidden from the side at the window (V8.1): the
/// window neither draws nor names it.
pub fn unseen_here(world: &World, unit: Entity) -> bool {
    world
        .get_resource::<Viewer>()
        .and_then(|v| v.0)
        .is_some_and(|side| crate::battle::hidden_from(world, unit, side))
}
