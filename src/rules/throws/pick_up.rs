//! R9.5 objects on the ground: Pick up (1 AP, R3 table) takes one from the
//! unit's tile or an adjacent one; it provokes (R8.2).

use crate::battle::{Battlefield, GridPos, GroundObject};
use crate::grid::Pos;
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{BattleEvent, Trigger, emit, id_of};
use crate::rules::pipeline::{Pending, handle};
use crate::rules::reactions::reactive_attack::provoke;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    handle(app, CommandKind::PickUp, validate_pick_up, execute_pick_up);
}

/// The objects `unit` can pick up (R9.5): in its own tile first, then the
/// adjacent ones, the tiles of each in `Pos` order (DECISIONS.md, "Pick
/// up"). What the rules accept, the window offers and the AI considers.
pub fn reachable_objects(world: &World, unit: Entity) -> Vec<(String, Entity, Pos)> {
    let Some(at) = crate::battle::body_of(world, unit) else {
        return vec![];
    };
    let mut found: Vec<(i32, Entity, Pos, String)> = world
        .iter_entities()
        .filter_map(|e| Some((e.id(), e.get::<GroundObject>()?, e.get::<GridPos>()?.0)))
        .filter(|(_, _, p)| at.nearest(*p).chebyshev(*p) <= 1)
        .map(|(e, o, p)| (at.nearest(p).chebyshev(p), e, p, o.name.clone()))
        .collect();
    // By tile, never by entity: a restored save and the AI's copy of the
    // battle spawn their objects anew, in another order than the battle
    // dropped them, and must take the same one.
    found.sort_by_key(|(d, _, p, _)| (*d, *p));
    found.into_iter().map(|(_, e, p, n)| (n, e, p)).collect()
}

/// The object called `item` that `unit` can reach (R9.5), the nearest.
pub fn reachable_object(world: &World, unit: Entity, item: &str) -> Option<(Entity, Pos)> {
    reachable_objects(world, unit)
        .into_iter()
        .find(|(name, ..)| name == item)
        .map(|(_, e, p)| (e, p))
}

fn pick_up_args(world: &World) -> Option<(Entity, String)> {
    let pending = world.resource::<Pending>();
    match (&pending.command, pending.actor) {
        (Some(Command::PickUp { item, .. }), Some(a)) => Some((a, item.clone())),
        _ => None,
    }
}

fn validate_pick_up(world: &mut World) {
    let Some((actor, item)) = pick_up_args(world) else {
        return;
    };
    if reachable_object(world, actor, &item).is_none() {
        world.resource_mut::<Pending>().refuse(Refusal::new(
            Rule::R9_5,
            format!("no \"{item}\" lies in or next to the unit's tile"),
        ));
    }
}

/// A picked-up weapon is wielded when the unit's hands are empty, otherwise
/// it joins the weapons the unit carries, to be used by name
/// (`Attack(weapon: ...)`); a second of a weapon already carried goes to the
/// pack with the items *(decision)*.
fn execute_pick_up(world: &mut World) {
    let Some((actor, item)) = pick_up_args(world) else {
        return;
    };
    // R8.2: picking up in a threatened tile provokes, before the pick.
    if !provoke(world, actor, Trigger::PickUp) {
        return;
    }
    let Some((object, at)) = reachable_object(world, actor, &item) else {
        return;
    };
    world.despawn(object);
    let is_weapon = world
        .resource::<Battlefield>()
        .0
        .catalog
        .weapon(&item)
        .is_some();
    // R4.4: a melee weapon picked up threatens at once.
    crate::battle::change_inventory(world, actor, |inv| {
        if is_weapon && !inv.weapons.contains(&item) {
            inv.weapons.push(item.clone());
        } else {
            inv.add(&item);
        }
    });
    let unit = id_of(world, actor);
    emit(
        world,
        BattleEvent::PickedUp {
            unit,
            object: item,
            at,
        },
    );
}
