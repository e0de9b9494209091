//! V7.5 Disarm (Acrobatics; 002:563–567): knock the weapon out of the
//! target's hands. The maneuverer must stand in the target's front arc
//! (the target faces it); a `Light` weapon cannot disarm a `Heavy` one. On
//! success the wielded weapon falls in the target's tile, or, unless it is
//! `Heavy`, is flung up to 2 tiles from it to a tile the target has a line
//! to (R6.1); the target wields its next weapon, as after R7.3's drop.
//! *(decision)* Without V5 the fling is free.

use crate::battle::name_of;
use crate::battle::{Battlefield, Facing, GridPos, GroundObject, Inventory, change_inventory};
use crate::format::{Weapon, WeaponTrait};
use crate::grid::Pos;
use crate::rules::command::Refusal;
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::modifiers::AttackDraft;
use crate::rules::positioning::facing::in_front_of;
use crate::rules::rule::Rule;
use crate::rules::sight::line_of_effect::sight;
use bevy::prelude::*;

/// The weapon in `unit`'s hands, if any.
pub fn wielded(world: &World, unit: Entity) -> Option<Weapon> {
    let name = world.get::<Inventory>(unit)?.weapons.first()?.clone();
    world
        .resource::<Battlefield>()
        .0
        .catalog
        .weapon(&name)
        .cloned()
}

/// Refuses what V7.5 forbids: a target with nothing in hand or not facing
/// the maneuverer, a Light weapon against a Heavy one, a fling too far, out
/// of the target's line, onto a wall, or of a Heavy weapon.
pub fn check(world: &World, draft: &AttackDraft, fling: Option<Pos>) -> Result<(), Refusal> {
    let whom = name_of(world, draft.target);
    let Some(weapon) = wielded(world, draft.target) else {
        return Err(Refusal::new(
            Rule::V7_5,
            format!("{whom} holds no weapon to disarm"),
        ));
    };
    let (body, facing) = match (
        crate::battle::body_of(world, draft.target),
        world.get::<Facing>(draft.target),
    ) {
        (Some(b), Some(f)) => (b, f.0),
        _ => return Ok(()),
    };
    let mut from = draft.clone();
    from.sides = (crate::battle::side_of_body(world, draft.attacker), body.n);
    if !in_front_of(body, facing, from.from_tile()) {
        return Err(Refusal::new(
            Rule::V7_5,
            format!(
                "{whom} does not face {}: a disarm comes from its front arc",
                name_of(world, draft.attacker)
            ),
        ));
    }
    if weapon.has(WeaponTrait::Natural) {
        return Err(Refusal::new(
            Rule::V7_5,
            format!("the {} are part of {whom}: nothing to disarm", weapon.name),
        ));
    }
    if draft.weapon.has(WeaponTrait::Light) && weapon.has(WeaponTrait::Heavy) {
        return Err(Refusal::new(
            Rule::V7_5,
            format!(
                "a Light {} cannot disarm a Heavy {}",
                draft.weapon.name, weapon.name
            ),
        ));
    }
    let Some(to) = fling else {
        return Ok(());
    };
    let map = &world.resource::<Battlefield>().0.map;
    // A big body flings from its tile nearest the landing (V10.6).
    let at = body.nearest(to);
    let why = if weapon.has(WeaponTrait::Heavy) {
        Some(format!(
            "the {} is Heavy: it falls, it is not flung",
            weapon.name
        ))
    } else if at.distance(to) > 2 {
        Some(format!(
            "{to} is {} tiles from {whom}: a fling goes up to 2",
            at.distance(to)
        ))
    } else if !map.is_passable(to) {
        Some(format!("{to} is no place for a weapon to land"))
    } else if !sight(map, at, to).clear {
        Some(format!("{whom} has no line to {to} (R6.1)"))
    } else {
        None
    };
    match why {
        Some(why) => Err(Refusal::new(Rule::V7_5, why)),
        None => Ok(()),
    }
}

/// A disarm that succeeded: the weapon in `target`'s hands lands in its
/// tile, or at `fling`; it wields its next weapon.
pub fn knock_away(world: &mut World, unit: Entity, target: Entity, fling: Option<Pos>) {
    let Some(at) = world.get::<GridPos>(target).map(|p| p.0) else {
        return;
    };
    let taken = change_inventory(world, target, |inv| {
        (!inv.weapons.is_empty()).then(|| inv.weapons.remove(0))
    });
    let Some(Some(weapon)) = taken else {
        return;
    };
    let lands = fling.unwrap_or(at);
    world.spawn((
        GroundObject {
            name: weapon.clone(),
        },
        GridPos(lands),
    ));
    let (who, by) = (id_of(world, target), id_of(world, unit));
    emit(
        world,
        BattleEvent::Disarmed {
            unit: who,
            by,
            weapon,
            at: lands,
            flung: lands != at,
        },
    );
}
