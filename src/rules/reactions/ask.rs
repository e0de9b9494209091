//! Asking a side (policy `Ask`, R8): a command that would provoke its
//! units, or that other rules raise a question about (an attack a defender
//! answers, V2), is held in the Decide phase until every question is
//! answered by a `React` command; the last answer carries it out.

use super::policy::{ReactionPolicies, ReactionPolicy};
use super::reactive_attack::{provoking_steps, reactors};
use crate::battle::Side;
use crate::format::Guard;
use crate::rules::attacks::resolution::draft_for;
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{BattleEvent, Trigger, emit, id_of};
use crate::rules::modifiers::AttackMode;
use crate::rules::pipeline::{
    CommandSchedule, CommandSystems, DecideSystems, Decisions, Pending, handle,
};
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        CommandSchedule,
        (
            ask_about_reactions.in_set(DecideSystems::Ask),
            hold_for_answers.in_set(DecideSystems::Hold),
            forget_answers.in_set(CommandSystems::Advance),
        )
            .run_if(some_side_is_asked),
    );
    handle(app, CommandKind::React, validate_react, execute_react);
}

/// Run condition: some side's reactions are asked (policy `Ask`).
pub fn some_side_is_asked(policies: Option<Res<ReactionPolicies>>) -> bool {
    policies.is_some_and(|p| p.0.contains(&ReactionPolicy::Ask))
}

/// The triggers the pending command will cause and who could react to
/// each, before anything happens (R8.2, R8.3). A Move's or Charge's are
/// counted on the path Validate planned, and kept in the plan.
fn expected_reactions(
    world: &mut World,
    actor: Entity,
    command: &Command,
) -> Vec<(Entity, Trigger)> {
    let single = |world: &mut World, trigger: Trigger| -> Vec<(Entity, Trigger)> {
        reactors(world, actor)
            .into_iter()
            .map(|r| (r, trigger))
            .collect()
    };
    match command {
        Command::Move { .. } | Command::Charge { .. } => {
            let path = world
                .resource::<Pending>()
                .plan
                .as_ref()
                .map(|p| p.path.clone())
                .unwrap_or_default();
            let triggers: Vec<(Entity, Trigger)> = provoking_steps(world, actor, &path)
                .into_iter()
                .flat_map(|(_, leaving, reactors)| {
                    reactors
                        .into_iter()
                        .map(move |r| (r, Trigger::Leave(leaving)))
                })
                .collect();
            if let Some(plan) = world.resource_mut::<Pending>().plan.as_mut() {
                plan.triggers = Some(triggers.clone());
            }
            triggers
        }
        Command::Attack { weapon, .. } => {
            let target = world.resource::<Pending>().target;
            let ranged = target
                .and_then(|t| draft_for(world, actor, t, weapon.as_deref()).ok())
                .is_some_and(|d| d.mode == AttackMode::Ranged);
            if ranged {
                single(world, Trigger::Shoot)
            } else {
                vec![]
            }
        }
        Command::Throw { .. } => single(world, Trigger::Throw),
        Command::StandUp { .. } => single(world, Trigger::StandUp),
        Command::PickUp { .. } => single(world, Trigger::PickUp),
        _ => vec![],
    }
}

/// The pending command and its actor, when it may raise questions (an
/// answer raises none).
pub fn questioned_command(world: &World) -> Option<(Command, Entity)> {
    let pending = world.resource::<Pending>();
    let command = pending.command.clone()?;
    (!matches!(command, Command::React { .. })).then_some((command, pending.actor?))
}

/// Decide phase: the reactive attacks the command would draw (R8.2, R8.3),
/// as questions.
pub fn ask_about_reactions(world: &mut World) {
    let Some((command, actor)) = questioned_command(world) else {
        return;
    };
    let expected = expected_reactions(world, actor, &command);
    world.resource_mut::<Pending>().questions.extend(expected);
}

/// Decide phase: a command raising questions for units of `Ask` sides with
/// no answer yet is held, and they are asked (in the order the questions
/// were raised: triggers, then initiative order).
fn hold_for_answers(world: &mut World) {
    let Some((command, actor)) = questioned_command(world) else {
        return;
    };
    let policies = world
        .get_resource::<ReactionPolicies>()
        .cloned()
        .unwrap_or_default();
    let answered = world.resource::<Decisions>().answers.clone();
    let questions = std::mem::take(&mut world.resource_mut::<Pending>().questions);
    let open: Vec<(Entity, Trigger)> = questions
        .into_iter()
        .filter(|(r, t)| {
            world
                .get::<Side>(*r)
                .is_some_and(|s| policies.of(s.0) == ReactionPolicy::Ask)
                && !answered.iter().any(|a| a.0 == *r && a.1 == *t)
        })
        .collect();
    if open.is_empty() {
        return;
    }
    let provoker = id_of(world, actor);
    for (reactor, trigger) in &open {
        let event = BattleEvent::ReactionOffered {
            command: command.kind(),
            reactor: id_of(world, *reactor),
            provoker,
            trigger: *trigger,
        };
        emit(world, event);
    }
    let mut d = world.resource_mut::<Decisions>();
    d.held = Some(command);
    d.questions = open;
    world.resource_mut::<Pending>().held = true;
}

/// An answer must be asked of its unit (R8); whether the answer itself is
/// one the unit can give is for the rule that asked (V2's answers).
fn validate_react(world: &mut World) {
    let actor = world.resource::<Pending>().actor;
    if world.resource::<Decisions>().asked().is_none()
        || world.resource::<Decisions>().asked() != actor
    {
        world.resource_mut::<Pending>().refuse(Refusal::new(
            Rule::R8,
            "no reaction decision is asked of this unit",
        ));
    }
}

fn execute_react(world: &mut World) {
    let Some(Command::React { take, guard, .. }) = world.resource::<Pending>().command.clone()
    else {
        return;
    };
    let mut d = world.resource_mut::<Decisions>();
    if d.questions.is_empty() {
        return;
    }
    let (reactor, trigger) = d.questions.remove(0);
    d.answers.push((reactor, trigger, take));
    if trigger == Trigger::Attacked {
        let guard = if take {
            guard.unwrap_or(Guard::None)
        } else {
            Guard::None
        };
        d.guards.push((reactor, guard));
    }
    let reactor = id_of(world, reactor);
    emit(
        world,
        BattleEvent::ReactionAnswered {
            reactor,
            trigger,
            take,
        },
    );
}

/// Every carried-out command but an answer ends the decisions it used.
fn forget_answers(pending: Res<Pending>, mut decisions: ResMut<Decisions>) {
    if !pending.is(CommandKind::React) && decisions.held.is_none() {
        decisions.answers.clear();
        decisions.guards.clear();
    }
}
