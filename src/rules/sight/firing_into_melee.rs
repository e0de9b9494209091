//! R6.4 firing into melee: a ranged or thrown attack at a target adjacent
//! to an ally of the attacker has +1 disadvantage, unless the target is two
//! or more size categories larger than that ally.

use crate::battle::{Side, Stats};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::rule::Rule;
use crate::rules::sight::cover::size_rank;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        add_firing_into_melee.in_set(AttackSystems::Situational),
    );
}

/// Only allies in action count: one lying unconscious is not fighting
/// *(decision)*.
fn add_firing_into_melee(world: &mut World) {
    let Some((attacker, target, mode)) = world
        .get_resource::<AttackDraft>()
        .map(|d| (d.attacker, d.target, d.mode))
    else {
        return;
    };
    if mode == AttackMode::Melee {
        return;
    }
    let (Some(side), Some(target), Some(target_size)) = (
        world.get::<Side>(attacker).copied(),
        crate::battle::body_of(world, target),
        world
            .get::<Stats>(target)
            .map(|s| size_rank(s.template.size)),
    ) else {
        return;
    };
    let engaged = crate::battle::in_action_beside(world, target)
        .into_iter()
        .find(|&e| {
            e != attacker
                && world.get::<Side>(e) == Some(&side)
                && world
                    .get::<Stats>(e)
                    .is_some_and(|s| target_size < size_rank(s.template.size) + 2)
        });
    if let Some(ally) = engaged {
        let name = crate::battle::name_of(world, ally);
        world.resource_mut::<AttackDraft>().push(
            Effect::Advantage(-1),
            format!("firing into melee with {name}"),
            Rule::R6_4,
        );
    }
}
