//! V8.7 attacking unseen and V8.8 targeting.
//!
//! - **V8.8** no unit may be targeted by an attack, a throw or a maneuver
//!   while it is hidden from the attacker's side (000:22). *Decision:* a
//!   target not hidden is seen whenever a line of effect reaches it, as the
//!   attacker may turn first (R4.2 free); the attack's own line rules stand.
//! - **V8.7** an attacker the target's side does not see strikes as from
//!   the rear (R4.3: +1 advantage, no shield DV, no parry) even from the
//!   front, without the two stacking (004:91 backstab); the target's DV is
//!   its off-guarded DV, DV − max(DEX, 0) (001:19), and it has no answer
//!   (V2; 003:7). 002:497's automatic hit is not adopted.
//! - **V8.6** after each command: an attacker once its attack is resolved,
//!   a unit a Move ran into (the Move stops before it, in the core's walk),
//!   and a unit beside an enemy that ends a Move with it in its front arc
//!   are revealed.

use super::hidden::{hidden_from, reveal};
use super::sight::side_sees;
use crate::battle::{OffGuard, Side, Stats, UnitId, name_of};
use crate::rules::Refusal;
use crate::rules::events::{BattleEvent, Reveal};
use crate::rules::modifiers::{AttackDraft, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, command_events};
use crate::rules::positioning::facing::is_rear_attack;
use crate::rules::rule::Rule;
use crate::rules::turns::turn::advance_turn;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        (
            refuse_unseen_targets_and_mark_unseen_attackers.in_set(AttackSystems::Base),
            strike_unseen.in_set(AttackSystems::Situational),
        ),
    )
    .add_systems(
        CommandSchedule,
        // Before the turn passes: what the command did is revealed as
        // part of it, ahead of the next turn's events.
        reveal_after_command
            .in_set(CommandSystems::Advance)
            .before(advance_turn),
    );
}

/// V8.8: a target hidden from the attacker's side cannot be targeted. V8.7:
/// an attacker the target's side does not see marks the draft unseen, for
/// the rear's effects wherever they are decided.
fn refuse_unseen_targets_and_mark_unseen_attackers(world: &mut World) {
    if !super::switch::on(world) {
        return;
    }
    let draft = world.resource::<AttackDraft>();
    if draft.aims_at_tile() {
        return;
    }
    let (attacker, target) = (draft.attacker, draft.target);
    let (Some(mine), Some(theirs)) = (
        world.get::<Side>(attacker).map(|s| s.0),
        world.get::<Side>(target).map(|s| s.0),
    ) else {
        return;
    };
    if hidden_from(world, target, mine) {
        let why = format!(
            "{}'s side does not see {}: no unit may be targeted unseen",
            name_of(world, attacker),
            name_of(world, target)
        );
        world
            .resource_mut::<AttackDraft>()
            .refuse(Refusal::new(Rule::V8_8, why));
        return;
    }
    let unseen = !side_sees(world, theirs, attacker);
    world.resource_mut::<AttackDraft>().unseen = unseen;
}

/// V8.7: the backstab's +1 advantage when R4.3's does not already apply,
/// and the target's off-guarded DV.
fn strike_unseen(world: &mut World) {
    let draft = world.resource::<AttackDraft>();
    let (target, from, unseen) = (draft.target, draft.from_tile(), draft.unseen);
    if draft.aims_at_tile() {
        return;
    }
    // V8.9: the ambushed, off-guard through round 1, meet blows at their
    // off-guarded DV too.
    let surprised = world
        .get_entity(target)
        .is_ok_and(|e| e.contains::<crate::battle::Surprised>() && e.contains::<OffGuard>());
    if !unseen && !surprised {
        return;
    }
    let rear = is_rear_attack(world, from, target);
    let dex = world
        .get::<Stats>(target)
        .map_or(0, |s| s.template.dex)
        .max(0);
    let mut draft = world.resource_mut::<AttackDraft>();
    if unseen && !rear {
        draft.push(Effect::Advantage(1), "unseen: backstab", Rule::V8_7);
    }
    if dex > 0 && unseen {
        draft.push(Effect::Dv(-dex), "unseen: off-guarded, no DEX", Rule::V8_7);
    } else if dex > 0 {
        draft.push(
            Effect::Dv(-dex),
            "surprised: off-guarded, no DEX",
            Rule::V8_9,
        );
    }
}

/// V8.6, after each command: a hidden unit that attacked, threw or
/// maneuvered (a reaction too) is revealed once the attack is resolved; one
/// a Move ran into is revealed; and so is one beside an enemy that ends a
/// Move, Step, Charge or Jump with it in its front arc.
fn reveal_after_command(world: &mut World) {
    if !super::switch::on(world) {
        return;
    }
    let mut reveals: Vec<(UnitId, Reveal)> = vec![];
    let mut ended: Vec<UnitId> = vec![];
    for e in &command_events(world) {
        match e {
            BattleEvent::AttackRolled(a) => reveals.push((a.attacker, Reveal::Struck)),
            BattleEvent::Bumped(b) => reveals.push((b.unit, Reveal::Bumped(b.by))),
            BattleEvent::Moved { unit, .. } | BattleEvent::Shifted { unit, .. } => {
                ended.push(*unit)
            }
            BattleEvent::Jumped(j) => ended.push(j.unit),
            _ => {}
        }
    }
    let entity = |world: &World, id: UnitId| {
        world
            .resource::<crate::battle::Roster>()
            .units()
            .get(id.0 as usize)
            .copied()
    };
    for (id, cause) in reveals {
        if let Some(unit) = entity(world, id) {
            reveal(world, unit, cause);
        }
    }
    for id in ended {
        let Some(mover) = entity(world, id) else {
            continue;
        };
        for hidden in spotted_beside(world, mover) {
            reveal(world, hidden, Reveal::Faced(id));
        }
    }
}

/// The units hidden from `mover`'s side beside it and in its front arc.
fn spotted_beside(world: &World, mover: Entity) -> Vec<Entity> {
    let (Some(side), Some(body), Some(facing)) = (
        world.get::<Side>(mover).map(|s| s.0),
        crate::battle::body_of(world, mover),
        world.get::<crate::battle::Facing>(mover).map(|f| f.0),
    ) else {
        return vec![];
    };
    if crate::battle::out_of_action(world, mover) {
        return vec![];
    }
    crate::battle::units(world)
        .into_iter()
        .filter(|&e| hidden_from(world, e, side))
        .filter(|&e| {
            crate::battle::body_of(world, e).is_some_and(|b| {
                body.gap(b) == 1
                    && b.tiles()
                        .any(|t| crate::rules::positioning::facing::in_front_of(body, facing, t))
            })
        })
        .collect()
}
