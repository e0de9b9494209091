//! R6.4 firing into melee: a ranged or thrown attack at a target adjacent
//! to an ally of the attacker has +1 disadvantage, unless the target is two
//! or more size categories larger than that ally.

use super::cover::size_rank;
use super::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use super::out_of_action;
use crate::battle::{GridPos, Side, Stats, UnitId};
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
    let Some(draft) = world.get_resource::<AttackDraft>().cloned() else {
        return;
    };
    if draft.mode == AttackMode::Melee {
        return;
    }
    let (Some(side), Some(target), Some(target_stats)) = (
        world.get::<Side>(draft.attacker).copied(),
        world.get::<GridPos>(draft.target).copied(),
        world
            .get::<Stats>(draft.target)
            .map(|s| size_rank(s.template.size)),
    ) else {
        return;
    };
    let allies: Vec<(Entity, bevy::prelude::Name, i32)> = world
        .query::<(Entity, &UnitId, &Side, &GridPos, &Stats, &Name)>()
        .iter(world)
        .filter(|(e, _, s, p, ..)| **s == side && *e != draft.attacker && p.0.is_adjacent(target.0))
        .map(|(e, _, _, _, st, n)| (e, n.clone(), size_rank(st.template.size)))
        .collect();
    let engaged = allies
        .into_iter()
        .find(|(e, _, size)| !out_of_action(world, *e) && target_stats < size + 2);
    if let Some((_, name, _)) = engaged {
        world.resource_mut::<AttackDraft>().push(
            Effect::Advantage(-1),
            format!("firing into melee with {name}"),
            "R6.4",
        );
    }
}
