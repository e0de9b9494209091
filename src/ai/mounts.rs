//! The utility AI on a mount (V12): the pair's free Move changes what a
//! move costs, and the mount's own kicks are acts of the rider's turn,
//! paid with the rider's AP (V12.2).

use super::acts::{Act, best_aim};
use super::profile::Weights;
use super::situation::Situation;
use crate::battle::{ActionPoints, FreeMove, Inventory, mount_of, name_of, reach_with};
use crate::grid::Pos;
use crate::rules::command::Command;
use crate::rules::modifiers::{AttackDraft, AttackMode};
use bevy::prelude::*;

/// What a Move costs the deciding unit now: nothing while its pair's free
/// Move is still to take (V12.2), else 1 AP.
pub(super) fn move_cost(world: &World, me: Entity) -> i32 {
    i32::from(!world.entity(me).contains::<FreeMove>())
}

/// The attacks of the deciding rider's mount on each enemy, from the pair
/// standing on `at`, valued as the rider's own attacks are.
pub(super) fn mount_attacks(world: &mut World, sit: &Situation, at: Pos, w: &Weights) -> Vec<Act> {
    let me = sit.me().clone();
    let Some(mount) = mount_of(world, me.entity) else {
        return vec![];
    };
    let Some(weapon) = world
        .get::<Inventory>(mount)
        .and_then(|i| i.weapons.first().cloned())
        .and_then(|w| sit.level.catalog.weapon(&w).cloned())
    else {
        return vec![];
    };
    if weapon.is_ranged() {
        return vec![];
    }
    let earlier = world.get::<ActionPoints>(mount).map_or(0, |a| a.attacks);
    let reach = reach_with(world, mount, weapon.reach);
    let mount_name = name_of(world, mount);
    let mut out = vec![];
    for (i, target) in sit.units.iter().enumerate() {
        if target.side == me.side || i == sit.me || me.gap_from(at, target) > reach {
            continue;
        }
        let mut draft = AttackDraft::new(
            mount,
            target.entity,
            weapon.clone(),
            AttackMode::Melee,
            at,
            target.pos,
        );
        draft.earlier_attacks = earlier;
        let Some((value, part, _)) = best_aim(world, draft, target, w) else {
            continue;
        };
        out.push(Act {
            value,
            command: Command::Attack {
                unit: mount_name.clone(),
                target: name_of(world, target.entity),
                weapon: None,
                power: 0,
                lunge: false,
                part,
            },
            attack: true,
            defend: false,
        });
    }
    out
}
