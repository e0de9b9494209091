//! V6.9 bare hands (003:35): an unarmed strike rolls STR less two ranks
//! (in [`ranks`](super::ranks)), drops a unit stable rather than dying
//! (the core's damage, [`DamageHow::Successes`](crate::rules::events::DamageHow)),
//! and provokes the target first when it holds a melee weapon: the target
//! alone may strike back, before the blow (R8.4).

use crate::rules::attacks::attack::{DeclaredAttack, declare_attack, make_attack};
use crate::rules::command::{Command, CommandKind};
use crate::rules::events::Trigger;
use crate::rules::modifiers::{AttackDraft, AttackMode};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, DecideSystems, Handles, Pending};
use crate::rules::positioning::threat::melee_weapon_for;
use crate::rules::reactions::ask::{ask_about_reactions, some_side_is_asked};
use crate::rules::reactions::reactive_attack::{provoke_from, reactors};
use crate::rules::variants::active_defence::declared_attack;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        CommandSchedule,
        (
            provoke_the_armed
                .after(declare_attack)
                .before(make_attack)
                .in_set(Handles(CommandKind::Attack))
                .in_set(CommandSystems::Execute),
            ask_the_armed
                .after(ask_about_reactions)
                .in_set(DecideSystems::Ask)
                .run_if(some_side_is_asked),
        )
            .run_if(super::switch::switched_on),
    );
}

/// Whether `draft` strikes bare-handed at a unit holding a melee weapon.
pub fn provokes(world: &World, draft: &AttackDraft) -> bool {
    draft.mode == AttackMode::Melee
        && draft.weapon.name == crate::format::UNARMED
        && melee_weapon_for(world, draft.target, 1).is_some()
}

/// The armed target strikes first (V6.9, R8.4): if its blow stops the
/// striker, the strike is not made.
fn provoke_the_armed(world: &mut World) {
    let Some(draft) = world.get_resource::<DeclaredAttack>().map(|d| d.0.clone()) else {
        return;
    };
    if provokes(world, &draft)
        && !provoke_from(
            world,
            draft.attacker,
            Trigger::BareHands,
            Some(draft.target),
        )
    {
        world.resource_mut::<Pending>().interrupted = true;
    }
}

/// Decide phase: an armed target of an `Ask` side is asked whether to
/// strike first.
fn ask_the_armed(world: &mut World) {
    let pending = world.resource::<Pending>();
    let (Some(command @ Command::Attack { .. }), Some(actor), Some(target)) =
        (pending.command.clone(), pending.actor, pending.target)
    else {
        return;
    };
    if let Some(draft) = declared_attack(world, actor, target, &command, None)
        && provokes(world, &draft)
        && reactors(world, actor).contains(&target)
    {
        world
            .resource_mut::<Pending>()
            .questions
            .push((target, Trigger::BareHands));
    }
}
