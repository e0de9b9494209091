//! The rules of `../shared/RULES.md` as ECS.
//!
//! A battle changes only through [`submit`]: it puts the [`Command`] in the
//! [`Pending`] resource and runs the [`CommandSchedule`] once. Its sets run
//! in one chained order, configured here and nowhere else:
//!
//! ```text
//! Identify → Validate → Decide → Pay → Execute → Advance
//! ```
//!
//! - **Identify** resolves names and checks that the unit may act now (R2).
//! - **Validate** is where each rule refuses what it forbids; a refused
//!   command stops here, having changed nothing.
//! - **Decide** holds a command that would provoke units of a side whose
//!   reactions are asked (policy `Ask`) until `React` commands answer.
//! - **Pay** spends the action points (R3).
//! - **Execute** carries the command out. Attacks go through the
//!   [`AttackSchedule`], whose sets gather labelled modifiers
//!   (`Base → Situational → Final`); a rule adds a modifier by adding a system
//!   there, and the preview and the AI run the very same schedule.
//! - **Advance** ends turns, rolls the dying (R10.2), starts rounds (R2.4,
//!   V1) and checks victory (R11).
//!
//! One module per rule, named after it: `movement.rs` is R5, `facing.rs`
//! R4.1–R4.3, `dying.rs` R10, and so on. Decisions the reference leaves open
//! are in `src/rules/DECISIONS.md`, included below.
//!
#![doc = include_str!("DECISIONS.md")]

pub mod action_points;
pub mod active_defence;
pub mod attack;
pub mod board;
pub mod charge;
pub mod command;
pub mod cover;
pub mod damage;
pub mod defend;
pub mod dying;
pub mod events;
pub mod facing;
pub mod firing_into_melee;
pub mod flanking;
pub mod hit_zones;
pub mod initiative;
pub mod injuries;
pub mod items;
pub mod legal;
pub mod line_of_effect;
pub mod log;
pub mod modifiers;
pub mod movement;
pub mod parry;
pub mod preview;
pub mod prone;
pub mod range;
pub mod reactions;
pub mod resolution;
pub mod rule;
pub mod rulebook;
pub mod shooting_in_melee;
pub mod techniques;
pub mod threat;
pub mod throw;
pub mod turn;
pub mod victory;

pub use command::{Command, CommandKind, Refusal, ThrowTarget};
pub use events::{BattleEvent, BattleEvents, EventCursor};
pub use log::CombatLog;
pub use modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Modifier};
pub use rule::Rule;
pub use turn::TurnState;
pub use victory::{Outcome, VictoryKind};

use crate::battle::{Dead, Dying, Roster, Stable};
use bevy::ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SingleThreadedExecutor};
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;

/// The schedule run once per command.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommandSchedule;

/// The phases of a command, in order. When adding a variant, order it in
/// the `configure_sets` call of [`RulesPlugin`].
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
}

/// The typed plan of a validated Move or Charge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovePlan {
    /// The tiles walked through, the start excluded, the end included.
    pub path: Vec<crate::grid::Pos>,
    /// Its movement cost (R5.1).
    pub cost: u32,
    /// Who could react to which step (R8.2, R8.3), once Decide asked.
    pub triggers: Option<Vec<(Entity, reactions::Trigger)>>,
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

fn carried_out(p: Res<Pending>) -> bool {
    !p.dry_run && !p.held
}

/// The rules: schedules, sets and every rule's systems. Headless.
pub struct RulesPlugin;

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        let mut commands = Schedule::new(CommandSchedule);
        commands.set_executor(SingleThreadedExecutor::new());
        commands.configure_sets(
            (
                CommandSystems::Identify,
                CommandSystems::Validate,
                CommandSystems::Decide,
                CommandSystems::Pay,
                CommandSystems::Execute,
                CommandSystems::Advance,
            )
                .chain(),
        );
        for &kind in CommandKind::ALL {
            commands.configure_sets(Handles(kind).run_if(pending(kind)));
        }
        commands.configure_sets(
            CommandSystems::Decide
                .run_if(|p: Res<Pending>| !p.dry_run)
                .run_if(accepted),
        );
        // A refused command, or a dry run (`check`), stops after validation.
        // (A set's conditions are evaluated when its first system is about
        // to run: for these, after Validate.)
        commands.configure_sets(
            (
                CommandSystems::Pay,
                CommandSystems::Execute,
                CommandSystems::Advance,
            )
                .run_if(carried_out)
                .run_if(accepted),
        );
        app.add_schedule(commands);

        let mut attacks = Schedule::new(AttackSchedule);
        attacks.set_executor(SingleThreadedExecutor::new());
        attacks.configure_sets(
            (
                AttackSystems::Base,
                AttackSystems::Situational,
                AttackSystems::Final,
            )
                .chain(),
        );
        app.add_schedule(attacks);

        app.init_resource::<Pending>()
            .init_resource::<BattleEvents>()
            .init_resource::<reactions::ReactionPolicies>()
            // The turn and the command rules…
            .add_plugins((
                turn::plugin,
                action_points::plugin,
                facing::plugin,
                movement::plugin,
                prone::plugin,
                defend::plugin,
                charge::plugin,
                attack::plugin,
                dying::plugin,
                items::plugin,
                victory::plugin,
            ))
            // …and the situational modifiers of the attack schedule.
            .add_plugins((
                flanking::plugin,
                cover::plugin,
                firing_into_melee::plugin,
                shooting_in_melee::plugin,
                injuries::plugin,
                range::plugin,
                throw::plugin,
                techniques::plugin,
                reactions::plugin,
            ));
    }
}

/// Sends `command` to the battle in `world`. On refusal nothing changed and
/// the reason cites the rule; the refusal is told as a
/// [`BattleEvent::CommandRefused`], for the log and the view.
pub fn submit(world: &mut World, command: Command) -> Result<(), Refusal> {
    run_command(world, command.clone(), false).inspect_err(|refusal| {
        events::emit(
            world,
            BattleEvent::CommandRefused {
                command,
                refusal: refusal.clone(),
            },
        );
    })
}

/// Puts the rules' own state (turn, events, reactions asked, the last hit,
/// hold streaks) back as [`RulesPlugin`] first made it, for a battle about
/// to be spawned again in the same app (a level reloaded in place).
pub fn reset(world: &mut World) {
    world.insert_resource(TurnState::default());
    world.insert_resource(BattleEvents::default());
    world.insert_resource(Pending::default());
    world.insert_resource(reactions::Decisions::default());
    world.insert_resource(techniques::LastHit::default());
    world.insert_resource(victory::HoldStreaks::default());
}

/// Whether `command` would be accepted now, without changing anything.
pub fn check(world: &mut World, command: Command) -> Result<(), Refusal> {
    run_command(world, command, true)
}

fn run_command(world: &mut World, command: Command, dry_run: bool) -> Result<(), Refusal> {
    *world.resource_mut::<Pending>() = Pending {
        command: Some(command),
        dry_run,
        ..default()
    };
    world.run_schedule(CommandSchedule);
    let pending = std::mem::take(&mut *world.resource_mut::<Pending>());
    if let Some(r) = pending.refusal {
        return Err(r);
    }
    // The last answer to a held command's questions: carry it out now.
    if !dry_run && let Some(held) = reactions::ready_command(world) {
        return run_command(world, held, false);
    }
    Ok(())
}

/// Registers a rule's systems for commands of `kind`: `validate` in
/// [`CommandSystems::Validate`], `execute` in [`CommandSystems::Execute`],
/// both in its [`Handles`] set.
pub(super) fn handle<M1, M2>(
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

/// The entity of the unit called `name`.
pub fn unit_named(world: &World, name: &str) -> Option<Entity> {
    world.get_resource::<Roster>()?.named(name)
}

/// Every unit's entity, in id order.
pub fn units(world: &World) -> Vec<Entity> {
    world
        .get_resource::<Roster>()
        .map(|r| r.units().to_vec())
        .unwrap_or_default()
}

/// The units in action (R2.5) on the eight tiles around `at`.
pub fn in_action_beside(world: &World, at: crate::grid::Pos) -> Vec<Entity> {
    units(world)
        .into_iter()
        .filter(|&e| {
            world
                .get::<crate::battle::GridPos>(e)
                .is_some_and(|p| p.0.is_adjacent(at))
                && !out_of_action(world, e)
        })
        .collect()
}

/// A unit's name, for the log and messages ("" for an unknown entity).
pub fn name_of(world: &World, unit: Entity) -> String {
    world
        .get::<Name>(unit)
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// A unit's Speed in tiles (R5.1).
pub fn speed_of(world: &World, unit: Entity) -> u32 {
    let speed = world
        .get::<crate::battle::Stats>(unit)
        .map_or(0, |s| s.template.speed)
        .max(0) as u32;
    // V3: leg injuries slow it.
    let slowed = world
        .get::<injuries::Injuries>(unit)
        .map_or(0, |i| i.slowed());
    speed.saturating_sub(slowed)
}

/// True when the unit is out of action (R2.5): dying, stable or dead.
pub fn out_of_action(world: &World, unit: Entity) -> bool {
    let e = world.entity(unit);
    e.contains::<Dying>() || e.contains::<Stable>() || e.contains::<Dead>()
}
