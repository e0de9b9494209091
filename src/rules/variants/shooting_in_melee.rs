//! V13 shooting in melee (000, a level's `rules: (shooting_in_melee:
//! true)`): a ranged or thrown attack made while an enemy is adjacent to
//! the attacker has +1 disadvantage, on top of any reactive attack it
//! provokes (R8.2).
//!
//! *Decisions:* an enemy out of action does not count (000: "who isn't
//! incapacitated"); 000's "who can see you" is left out, as Skirmish has no
//! vision rules; a thrown attack is a ranged attack (000 counts any attack
//! "with a weapon, a spell, or some other means" made at range); the tile
//! is the one the attack is made from, so the preview of an attack from
//! another tile (Alt) counts the enemies beside that tile.

use crate::battle::{Battlefield, Side};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        add_shooting_in_melee.in_set(AttackSystems::Situational),
    );
}

fn add_shooting_in_melee(world: &mut World) {
    let on = world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().shooting_in_melee);
    let Some((attacker, from, mode)) = world
        .get_resource::<AttackDraft>()
        .map(|d| (d.attacker, d.attacker_body(), d.mode))
    else {
        return;
    };
    if !on || mode == AttackMode::Melee {
        return;
    }
    let Some(side) = world.get::<Side>(attacker).copied() else {
        return;
    };
    let adjacent = crate::battle::in_action_beside(world, from)
        .into_iter()
        .find(|&e| e != attacker && world.get::<Side>(e) != Some(&side));
    if let Some(enemy) = adjacent {
        let name = crate::battle::name_of(world, enemy);
        world.resource_mut::<AttackDraft>().push(
            Effect::Advantage(-1),
            format!("shooting with {name} adjacent"),
            Rule::V13,
        );
    }
}
