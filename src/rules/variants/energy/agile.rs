//! V5.7 Agile Move (002:29, 132): right after a command that spent Energy,
//! as many one-tile moves as it spent, 1 Agility each, never provoking
//! (an immediate interrupt is never interrupted), never into difficult
//! terrain; on the unit's own turn only *(decision)*. And V5.5's Catch Your
//! Breath (002:41, 51): the rest of a round's effort for 1 Stamina back.
//! Without Energy, both commands and a Sprint are refused.

use super::switch::on;
use crate::battle::{Budget, Stamina, Stats, stamina_pool};
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{BattleEvent, EnergyEvent, emit, id_of};
use crate::rules::motion::movement::{check_step, shift};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Pending, accepted, handle};
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    handle(
        app,
        CommandKind::AgileMove,
        validate_agile_move,
        make_agile_move,
    );
    handle(
        app,
        CommandKind::CatchBreath,
        validate_catch_breath,
        catch_breath,
    );
    app.add_systems(
        CommandSchedule,
        refuse_energy_commands_without_energy
            .in_set(CommandSystems::Validate)
            .run_if(accepted),
    );
}

/// AgileMove, CatchBreath and a Sprint belong to Energy (V5.5, V5.7).
fn refuse_energy_commands_without_energy(world: &mut World) {
    if on(world) {
        return;
    }
    let (what, rule) = match world.resource::<Pending>().command {
        Some(Command::AgileMove { .. }) => ("an Agile Move", Rule::V5_7),
        Some(Command::CatchBreath { .. }) => ("Catch Your Breath", Rule::V5_5),
        Some(Command::Move { sprint: true, .. }) => ("a Sprint", Rule::V5_5),
        _ => return,
    };
    world.resource_mut::<Pending>().refuse(Refusal::new(
        rule,
        format!("{what} needs Energy (V5): the level's rules: (actions: Energy)"),
    ));
}

/// An Agile Move needs one left from the last command (V5.7) and is a
/// Step's move: adjacent, never into difficult terrain.
fn validate_agile_move(world: &mut World) {
    if !on(world) {
        return;
    }
    let pending = world.resource::<Pending>();
    let (Some(Command::AgileMove { to, .. }), Some(actor)) =
        (pending.command.clone(), pending.actor)
    else {
        return;
    };
    let moves = world.get::<Budget>(actor).map_or(0, |b| b.agile);
    let name = crate::battle::name_of(world, actor);
    let refusal = if moves <= 0 {
        Some(Refusal::new(
            Rule::V5_7,
            format!(
                "{name} has no Agile Move now: only right after a command that spent Energy, one per Energy"
            ),
        ))
    } else {
        check_step(world, actor, to).err()
    };
    if let Some(r) = refusal {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn make_agile_move(world: &mut World) {
    let pending = world.resource::<Pending>();
    let (Some(Command::AgileMove { to, .. }), Some(actor)) =
        (pending.command.clone(), pending.actor)
    else {
        return;
    };
    shift(world, actor, to);
}

/// Catching one's breath needs room for the Stamina it gives back.
fn validate_catch_breath(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    let (now, most) = stamina_now_and_most(world, actor);
    if now >= most {
        let name = crate::battle::name_of(world, actor);
        world.resource_mut::<Pending>().refuse(Refusal::new(
            Rule::V5_3,
            format!("{name} has all its Stamina ({now} of {most})"),
        ));
    }
}

fn catch_breath(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    let (now, most) = stamina_now_and_most(world, actor);
    let stamina = (now + 1).min(most);
    if let Some(mut s) = world.get_mut::<Stamina>(actor) {
        s.0 = stamina;
    }
    let unit = id_of(world, actor);
    emit(
        world,
        BattleEvent::Energy(EnergyEvent::CaughtBreath { unit, stamina }),
    );
}

/// A unit's Stamina and its pool (V5.3).
fn stamina_now_and_most(world: &World, unit: Entity) -> (i32, i32) {
    let now = world.get::<Stamina>(unit).map_or(0, |s| s.0);
    let most = world
        .get::<Stats>(unit)
        .map_or(now, |s| stamina_pool(&s.template));
    (now, most)
}
