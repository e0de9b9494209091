//! The answer a defender declares with an attack, whichever rule gives
//! it: V2's active defence or die ranks' V6.5. A human side is asked with
//! the attack (the question `Attacked`, after the reactions it provokes),
//! its answer is checked against what it has, and the view and the AI read
//! the held attack's answers and odds here.

use super::active_defence::{self, declared_attack};
use super::die_ranks;
use crate::battle::name_of;
use crate::format::Guard;
use crate::rules::attacks::preview::AttackPreview;
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::Trigger;
use crate::rules::modifiers::gather;
use crate::rules::pipeline::{CommandSchedule, CommandSystems, DecideSystems, Handles, Pending};
use crate::rules::reactions::ask::{ask_about_reactions, questioned_command, some_side_is_asked};
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        CommandSchedule,
        (
            ask_the_defender
                .after(ask_about_reactions)
                .in_set(DecideSystems::Ask)
                .run_if(some_side_is_asked),
            refuse_an_answer_it_lacks
                .in_set(Handles(CommandKind::React))
                .in_set(CommandSystems::Validate),
        )
            .run_if(active_defence::switched_on.or_else(die_ranks::switched_on)),
    );
}

/// Decide phase: the defender of an attack of an `Ask` side is asked how
/// it answers when it has an answer to give.
fn ask_the_defender(world: &mut World) {
    let Some((command, actor)) = questioned_command(world) else {
        return;
    };
    let (target, from) = {
        let pending = world.resource::<Pending>();
        let path_end = pending.plan.as_ref().and_then(|p| p.path.last().copied());
        (pending.target, path_end)
    };
    let Some(draft) = target.and_then(|t| declared_attack(world, actor, t, &command, from)) else {
        return;
    };
    let may_answer = if die_ranks::on(world) {
        let gathered = gather(world, draft.clone());
        !die_ranks::guards::options(world, &gathered).is_empty()
    } else {
        !active_defence::options(world, &draft).is_empty()
    };
    if may_answer {
        let question = (draft.target, Trigger::Attacked);
        world.resource_mut::<Pending>().questions.push(question);
    }
}

/// An answer must be one the unit can give the held attack (V2, V6.5).
fn refuse_an_answer_it_lacks(world: &mut World) {
    let actor = world.resource::<Pending>().actor;
    if let Some(Command::React {
        take: true,
        guard: Some(g),
        ..
    }) = world.resource::<Pending>().command.clone()
        && let Some(unit) = actor
        && g != Guard::None
        && !held_attack_options(world, unit).contains(&g)
    {
        let rule = if die_ranks::on(world) {
            Rule::V6_5
        } else {
            Rule::V2
        };
        let who = name_of(world, unit);
        world.resource_mut::<Pending>().refuse(Refusal::new(
            rule,
            format!("{who} cannot {} this attack", g.label()),
        ));
    }
}

/// The answers `defender` may declare to the attack held for it: V6.5's
/// active defences under die ranks, else V2's.
pub fn held_attack_options(world: &World, defender: Entity) -> Vec<Guard> {
    if die_ranks::on(world) {
        die_ranks::defences::held_attack_options(world, defender)
    } else {
        active_defence::held_attack_options(world, defender)
    }
}

/// The held attack on `defender` previewed with each answer it has, and
/// with none (V2) or its passive DEF (V6), the question's odds.
pub fn held_attack_odds(world: &mut World, defender: Entity) -> Vec<(Guard, AttackPreview)> {
    if die_ranks::on(world) {
        die_ranks::defences::held_attack_odds(world, defender)
    } else {
        active_defence::held_attack_odds(world, defender)
    }
}

/// The answer the rules would give for `defender` (the AI's and an
/// always-reacting side's): `None` for no answer (or the passive DEF, V6).
pub fn held_attack_best(world: &mut World, defender: Entity) -> Option<Guard> {
    if die_ranks::on(world) {
        die_ranks::defences::held_attack_best(world, defender)
    } else {
        active_defence::held_attack_best(world, defender)
    }
}
