//! The window offers exactly what the rules allow. On every shipped level's
//! first turns, with every side played at the window, the acting unit's
//! action bar, the tiles the reach overlay shades and the commands its
//! action keys send (a Power Attack's stamina, the object picked up, the
//! unit charged…) are the rules' own legal commands: nothing restated in
//! the view can drift from the rules.

use crate::common::{catalog, play_on, ron_files, root, window_app};
use bevy::prelude::*;
use skirmish::battle::{GridPos, unit_named};
use skirmish::format::Overlay;
use skirmish::grid::Pos;
use skirmish::load::load_level_file;
use skirmish::rules::legal::legal_commands;
use skirmish::rules::{Command, CommandKind, Decisions, ThrowTarget, TurnState, check};
use skirmish::view::controls::{Action, action_command};
use skirmish::view::map::Highlights;
use skirmish::view::preview::Hover;
use skirmish::view::seat::human_to_act;
use std::collections::{BTreeMap, BTreeSet};

/// Decisions looked at on each level.
const STEPS: usize = 40;

/// The tile of the unit called `name`.
fn tile_of(world: &World, name: &str) -> Option<Pos> {
    let unit = unit_named(world, name)?;
    world.get::<GridPos>(unit).map(|p| p.0)
}

/// The action of the bar that sends commands like `c`, and the tile it is
/// aimed at, if it has one.
fn action_for(world: &World, c: &Command) -> Option<(Action, Option<Pos>)> {
    Some(match c {
        Command::EndTurn => (Action::EndTurn, None),
        Command::Defend { .. } => (Action::Defend, None),
        Command::ReadyShield { .. } => (Action::ReadyShield, None),
        Command::StandUp { .. } => (Action::StandUp, None),
        Command::PickUp { .. } => (Action::PickUp, None),
        Command::DrinkPotion { target: None, .. } => (Action::Potion, None),
        Command::Step { to, .. } => (Action::Step, Some(*to)),
        Command::Jump { to, .. } => (Action::Jump, Some(*to)),
        Command::Charge {
            target,
            shove: false,
            ..
        } => (Action::Charge, Some(tile_of(world, target)?)),
        Command::Charge { target, .. } => (Action::ChargeShove, Some(tile_of(world, target)?)),
        Command::Maneuver {
            target,
            kind,
            to: None,
            fling: None,
            ..
        } => (
            match kind {
                skirmish::rules::command::ManeuverKind::Trip => Action::Trip,
                skirmish::rules::command::ManeuverKind::Disarm => Action::Disarm,
                skirmish::rules::command::ManeuverKind::Shove => Action::Shove,
                _ => Action::Grapple,
            },
            Some(tile_of(world, target)?),
        ),
        Command::Mount { mount, .. } => (Action::Ride, Some(tile_of(world, mount)?)),
        Command::Dismount { to, .. } => (Action::Ride, Some(*to)),
        Command::Attack { unit, target, .. }
            if skirmish::battle::unit_named(world, unit)
                .is_some_and(|u| world.entity(u).contains::<skirmish::battle::Ridden>()) =>
        {
            (Action::Kick, Some(tile_of(world, target)?))
        }
        Command::Move {
            to, sprint: true, ..
        } => (Action::Sprint, Some(*to)),
        Command::AgileMove { to, .. } => (Action::Agile, Some(*to)),
        Command::CatchBreath { .. } => (Action::Breath, None),
        Command::Sustain { .. } => (Action::Sustain, None),
        Command::Release { .. } => (Action::Release, None),
        Command::Escape { .. } => (Action::Escape, None),
        Command::ForceDown { .. } => (Action::ForceDown, None),
        Command::Crush { .. } => (Action::Crush, None),
        Command::Drag { to, .. } => (Action::Drag, Some(*to)),
        Command::Cleave { target, .. } => (Action::Cleave, Some(tile_of(world, target)?)),
        Command::Stabilize { target, .. } => (Action::Stabilize, Some(tile_of(world, target)?)),
        Command::Attack {
            target,
            weapon: None,
            lunge: true,
            ..
        } => (Action::Lunge, Some(tile_of(world, target)?)),
        Command::Attack {
            target,
            weapon: None,
            power,
            ..
        } if *power > 0 => (Action::PowerAttack, Some(tile_of(world, target)?)),
        Command::Throw {
            at: ThrowTarget::Unit(target),
            ..
        } => (Action::Throw, Some(tile_of(world, target)?)),
        _ => return None,
    })
}

/// Checks the view against the rules for the unit to act; counts what was
/// compared, by kind.
fn compare(world: &mut World, file: &str, seen: &mut BTreeMap<&'static str, usize>) {
    let me = human_to_act(world).expect("every side is played at the window");
    let legal = legal_commands(world);
    let here = format!("{file}, round {}", world.resource::<TurnState>().round);

    // The bar offers an action exactly when the rules allow a command it
    // sends (the Aim button is a choice, not a command).
    let offered: BTreeSet<Action> = world.resource::<Hover>().actions.iter().copied().collect();
    let allowed: BTreeSet<Action> = legal
        .iter()
        .filter_map(|c| action_for(world, c).map(|(a, _)| a))
        .collect();
    let offered_commands: BTreeSet<Action> = offered
        .iter()
        .copied()
        .filter(|a| *a != Action::Aim)
        .collect();
    assert_eq!(offered_commands, allowed, "{here}: the action bar");

    // R7.8: the bar offers Power Attack (Deadly Aim) and Lunge whenever
    // the rules accept one on some unit, whatever stamina is left.
    let name = skirmish::battle::name_of(world, me);
    for target in skirmish::battle::units(world) {
        let target = skirmish::battle::name_of(world, target);
        for (power, lunge, action) in [(1, false, Action::PowerAttack), (0, true, Action::Lunge)] {
            let attack = Command::Attack {
                unit: name.clone(),
                target: target.clone(),
                weapon: None,
                power,
                lunge,
                part: None,
            };
            if check(world, attack.clone()).is_ok() {
                assert!(
                    offered.contains(&action),
                    "{here}: the rules accept {attack} but the bar has no {action:?}"
                );
                *seen.entry("technique").or_default() += 1;
            }
        }
    }

    // What each action sends is a legal command: the very one the rules
    // list for the same target (for a throw, the object the view picks).
    for c in &legal {
        let Some((action, tile)) = action_for(world, c) else {
            continue;
        };
        // A ridden mount is aimed at with Ctrl held (V12.1).
        let at_mount = c
            .target()
            .and_then(|t| skirmish::battle::unit_named(world, t))
            .is_some_and(|t| world.entity(t).contains::<skirmish::battle::Ridden>());
        world.insert_resource(skirmish::view::seat::AimAtMount(at_mount));
        let sent = action_command(world, me, action, tile)
            .unwrap_or_else(|| panic!("{here}: {action:?} sends nothing where {c} is legal"));
        world.insert_resource(skirmish::view::seat::AimAtMount(false));
        match action {
            Action::Throw | Action::PickUp => assert!(
                check(world, sent.clone()).is_ok(),
                "{here}: {action:?} sends {sent}, which the rules refuse"
            ),
            _ => assert_eq!(&sent, c, "{here}: {action:?}"),
        }
        *seen.entry(sent.name()).or_default() += 1;
    }

    // The reach overlay shades the tiles a Move may end on, and only them
    // (a Run's: a Sprint, under Energy, is the aimed action's, V5.5).
    let shaded: BTreeSet<Pos> = world.resource::<Highlights>().0.keys().copied().collect();
    let moves: BTreeSet<Pos> = legal
        .iter()
        .filter_map(|c| match c {
            Command::Move {
                to, sprint: false, ..
            } => Some(*to),
            _ => None,
        })
        .collect();
    // A big body's shading covers its whole footprint at each end (V10.6).
    let n = skirmish::battle::body_of(world, me).map_or(1, |b| b.n);
    let covered: BTreeSet<Pos> = moves
        .iter()
        .flat_map(|to| skirmish::grid::Body::new(*to, n).tiles())
        .collect();
    assert_eq!(shaded, covered, "{here}: the reach shaded");
    *seen.entry("Move").or_default() += moves.len();
}

#[test]
fn the_view_offers_the_rules_legal_commands_on_every_shipped_level() {
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    for path in ron_files(&root().join("levels")) {
        let level = load_level_file(&path, catalog()).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        // The reach overlay alone, nothing hovered: the shaded tiles are
        // the reach.
        let mut app = window_app(&level, 3, [Overlay::Reach]);
        for _ in 0..STEPS {
            app.update();
            let world = app.world_mut();
            let asked = world.resource::<Decisions>().asked().is_some();
            if world.resource::<TurnState>().outcome.is_none() && !asked {
                compare(world, &file, &mut seen);
            }
            if !play_on(world) {
                break;
            }
        }
    }
    // The comparison met every kind the bar sends on these levels.
    for kind in [
        CommandKind::Move,
        CommandKind::Step,
        CommandKind::Attack,
        CommandKind::Charge,
        CommandKind::Defend,
        CommandKind::PickUp,
        CommandKind::Stabilize,
        CommandKind::DrinkPotion,
        CommandKind::EndTurn,
        CommandKind::Throw,
        CommandKind::Jump,
    ] {
        assert!(
            seen.get(kind.name()).is_some_and(|n| *n > 0),
            "no {kind} compared: {seen:?}"
        );
    }
}
