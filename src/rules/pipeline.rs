//! The command pipeline: how one [`Command`] goes through the rules.
//!
//! A battle changes only through [`submit`]: it puts the command in the
//! [`Pending`] resource and runs the [`CommandSchedule`] once. Its phases,
//! the [`CommandSystems`], run in one chained order configured in
//! `RulesPlugin`:
//!
//! ```text
//! Identify → Validate → Decide → Pay → Execute → Advance
//! ```
//!
//! Each rule adds its systems to the phases, for the kinds of command it
//! handles ([`Handles`], [`handle`]). A refused command stops after
//! Validate, having changed nothing; a command that would provoke units
//! whose side is asked is held in Decide until [`Decisions`] are answered.

use super::command::{Command, CommandKind, Refusal};
use super::events::{BattleEvent, BattleEvents, Trigger, emit};
use crate::format::Guard;
use crate::grid::Pos;
use bevy::ecs::schedule::{IntoScheduleConfigs, ScheduleLabel};
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The schedule run once per command.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommandSchedule;

/// The phases of a command, in order. When adding a variant, order it in
/// the `configure_sets` call of `RulesPlugin`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommandSystems {
    /// Names to entities; is it this unit's turn, can it act (R2).
    Identify,
    /// Each rule refuses what it forbids (nothing changes yet).
    Validate,
    /// Reaction decisions of `Ask` sides: the command may be held (R8).
    Decide,
    /// Action points are spent (R3).
    Pay,
    /// The command happens.
    Execute,
    /// Turns, rounds, the dying's rolls, victory.
    Advance,
}

/// The steps of the Decide phase: rules ask their questions, then the
/// command is held if any is open.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecideSystems {
    /// Rules add the questions the command raises ([`Pending::questions`]):
    /// reactive attacks it provokes (R8), answers to it (V2).
    Ask,
    /// The command is held while a question is open.
    Hold,
}

/// The command being processed and what became of it.
#[derive(Resource, Debug, Default)]
pub struct Pending {
    /// The command.
    pub command: Option<Command>,
    /// The acting unit.
    pub actor: Option<Entity>,
    /// The unit the command is aimed at ([`Command::target`]), resolved by
    /// the Identify phase.
    pub target: Option<Entity>,
    /// Why it was refused, if it was.
    pub refusal: Option<Refusal>,
    /// Only check: the Pay, Execute and Advance phases do not run.
    pub dry_run: bool,
    /// Held until reaction decisions are answered (`Ask` policy): accepted,
    /// but carried out only once every question is answered.
    pub held: bool,
    /// The path a validated Move or Charge takes (set by Validate), and the
    /// reactions it will draw (set by Decide when a side is asked): Execute
    /// and the `Ask` policy reuse them instead of searching again.
    pub plan: Option<MovePlan>,
    /// The questions the command raises for `Ask` sides, gathered in
    /// [`DecideSystems::Ask`]: who is asked about what, in order.
    pub questions: Vec<(Entity, Trigger)>,
    /// A rule stopped the command part-way (a reactive attack dropped the
    /// actor, R8.4): the systems after it in Execute do nothing.
    pub interrupted: bool,
    /// Where the command's events begin in the battle's stream
    /// ([`command_events`]).
    pub events_from: usize,
}

/// The typed plan of a validated Move or Charge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovePlan {
    /// The tiles walked through, the start excluded, the end included.
    pub path: Vec<Pos>,
    /// Its movement cost (R5.1).
    pub cost: u32,
    /// Who could react to which step (R8.2, R8.3), once Decide asked.
    pub triggers: Option<Vec<(Entity, Trigger)>>,
}

impl Pending {
    /// Refuses the command (the first refusal stands).
    pub fn refuse(&mut self, refusal: Refusal) {
        self.refusal.get_or_insert(refusal);
    }

    /// True while the command is neither refused nor of another kind.
    pub fn is(&self, kind: CommandKind) -> bool {
        self.refusal.is_none() && self.command.as_ref().is_some_and(|c| c.kind() == kind)
    }
}

/// Reaction decisions of `Ask` sides (R8): a command that would provoke
/// their units is held until each question is answered by a `React`
/// command.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Decisions {
    /// The command waiting for answers.
    pub held: Option<Command>,
    /// Open questions: who is asked about which trigger, in order.
    pub questions: Vec<(Entity, Trigger)>,
    /// Answers given: who, about which trigger, and whether it reacts.
    pub answers: Vec<(Entity, Trigger, bool)>,
    /// Defenders' declared answers to the held attack (V2).
    pub guards: Vec<(Entity, Guard)>,
}

impl Decisions {
    /// The unit asked now, if a decision is pending.
    pub fn asked(&self) -> Option<Entity> {
        self.questions.first().map(|q| q.0)
    }

    /// The answer `unit` declared to the attack held for it (V2).
    pub fn guard_of(&self, unit: Entity) -> Option<Guard> {
        self.guards.iter().find(|g| g.0 == unit).map(|g| g.1)
    }
}

/// Every command a battle accepted, in order: what a replay and a save
/// record (R0.6: with the seed, they reproduce the battle).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History(pub Vec<Command>);

/// The systems that handle one kind of command: the set runs only while
/// the pending command is of that kind and stands, so the condition is
/// checked once per kind, not once per system.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Handles(pub CommandKind);

/// The acting unit and the unit aimed at, as the Identify phase resolved
/// them; a command without a target is an error here.
pub fn actor_and_target(world: &World) -> Result<(Entity, Entity), Refusal> {
    let pending = world.resource::<Pending>();
    match (pending.actor, pending.target) {
        (Some(a), Some(t)) => Ok((a, t)),
        _ => Err(Refusal::unknown("target: the command names none")),
    }
}

/// Run condition: the pending command is of `kind` and still stands.
pub fn pending(kind: CommandKind) -> impl Fn(Res<Pending>) -> bool + Clone {
    move |p: Res<Pending>| p.is(kind)
}

/// Run condition: the pending command still stands.
pub fn accepted(p: Res<Pending>) -> bool {
    p.refusal.is_none() && p.command.is_some()
}

/// Run condition: the pending command is carried out now (not a dry run,
/// not held for answers).
pub fn carried_out(p: Res<Pending>) -> bool {
    !p.dry_run && !p.held
}

/// Sends `command` to the battle in `world`. On refusal nothing changed and
/// the reason cites the rule; the refusal is told as a
/// [`BattleEvent::CommandRefused`], for the log and the view. An accepted
/// command is recorded in the [`History`].
pub fn submit(world: &mut World, command: Command) -> Result<(), Refusal> {
    match run_command(world, command.clone(), false) {
        Ok(()) => {
            world.get_resource_or_init::<History>().0.push(command);
            Ok(())
        }
        Err(refusal) => {
            emit(
                world,
                BattleEvent::CommandRefused {
                    command,
                    refusal: refusal.clone(),
                },
            );
            Err(refusal)
        }
    }
}

/// Whether `command` would be accepted now, without changing anything.
pub fn check(world: &mut World, command: Command) -> Result<(), Refusal> {
    run_command(world, command, true)
}

fn run_command(world: &mut World, command: Command, dry_run: bool) -> Result<(), Refusal> {
    if !dry_run {
        crate::rules::events::witness::note_command_start(world);
    }
    let events_from = world
        .get_resource::<BattleEvents>()
        .map_or(0, |e| e.all().len());
    *world.resource_mut::<Pending>() = Pending {
        command: Some(command),
        dry_run,
        events_from,
        ..default()
    };
    world.run_schedule(CommandSchedule);
    let pending = std::mem::take(&mut *world.resource_mut::<Pending>());
    if let Some(r) = pending.refusal {
        return Err(r);
    }
    // The last answer to a held command's questions: carry it out now.
    if !dry_run && let Some(held) = ready_command(world) {
        return run_command(world, held, false);
    }
    Ok(())
}

/// The events the pending command has told so far, in order: what the
/// rules that act on what a command did read (V5.8's conditions, V8.6's
/// reveals). The start is the command's own, not a place a system keeps:
/// a battle put back (a restored save, the AI's copy after each try) goes
/// on from its own stream.
pub fn command_events(world: &World) -> Vec<BattleEvent> {
    let from = world.resource::<Pending>().events_from;
    world
        .resource::<BattleEvents>()
        .all()
        .get(from..)
        .map(<[BattleEvent]>::to_vec)
        .unwrap_or_default()
}

/// The held command, once its last question is answered.
fn ready_command(world: &mut World) -> Option<Command> {
    let mut d = world.get_resource_mut::<Decisions>()?;
    if d.questions.is_empty() {
        d.held.take()
    } else {
        None
    }
}

/// Registers a rule's systems for commands of `kind`: `validate` in
/// [`CommandSystems::Validate`], `execute` in [`CommandSystems::Execute`],
/// both in its [`Handles`] set.
pub fn handle<M1, M2>(
    app: &mut App,
    kind: CommandKind,
    validate: impl IntoScheduleConfigs<ScheduleSystem, M1>,
    execute: impl IntoScheduleConfigs<ScheduleSystem, M2>,
) {
    app.add_systems(
        CommandSchedule,
        (
            validate
                .in_set(Handles(kind))
                .in_set(CommandSystems::Validate),
            execute
                .in_set(Handles(kind))
                .in_set(CommandSystems::Execute),
        ),
    );
}
