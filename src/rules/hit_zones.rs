//! V4 hit zones (004, a level's `rules: (hit_zones: true)`): every hit that
//! deals damage rolls a d10 for where it lands (1-5 torso, 6-7 arms, 8-9
//! legs, 10 head). Body armor covers the zones its catalog entry lists
//! (`covers`, every zone by default); a hit on a zone it leaves bare meets
//! only the shield's AR (R1.2).
//!
//! *Decisions:* the AR pool of R1.2 stays one pool (armor and shield
//! together, worn down by every hit); a bare zone lets at most the shield's
//! AR of what is left absorb. Splash damage (R9.4) is no hit on a zone: the
//! whole pool stands. A hit on the dying or stable (R10.3) deals no damage
//! and rolls no zone.

use super::events::{BattleEvent, emit, id_of};
use crate::battle::{ArmorReduction, Battlefield, Stats};
use crate::dice::Dice;
use crate::format::BodyPart;
use bevy::prelude::*;

/// Whether the level plays with hit zones.
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().hit_zones)
}

/// Whether `unit`'s body armor covers `part` (true without armor: there is
/// nothing to leave bare).
pub fn covered(world: &World, unit: Entity, part: BodyPart) -> bool {
    let Some(field) = world.get_resource::<Battlefield>() else {
        return true;
    };
    let armor = world
        .get::<Stats>(unit)
        .and_then(|s| s.template.armor.as_ref())
        .and_then(|a| field.0.catalog.armor(a));
    armor.is_none_or(|a| a.covers.contains(&part))
}

/// The AR that stands against a hit on `part` (`None`: no zone, the whole
/// pool): the pool, or on a bare zone no more of it than the shield's AR.
pub fn armor_faced(world: &World, unit: Entity, part: Option<BodyPart>) -> i32 {
    let pool = world.get::<ArmorReduction>(unit).map_or(0, |a| a.0);
    match part {
        Some(p) if !covered(world, unit, p) => pool.min(shield_ar(world, unit)),
        _ => pool,
    }
}

fn shield_ar(world: &World, unit: Entity) -> i32 {
    let Some(field) = world.get_resource::<Battlefield>() else {
        return 0;
    };
    world
        .get::<Stats>(unit)
        .and_then(|s| s.template.shield.as_ref())
        .and_then(|s| field.0.catalog.shield(s))
        .map_or(0, |s| s.ar)
}

/// Rolls the zone of a hit on `unit` and tells it, when the level plays
/// with hit zones (the d10 comes after the attack's d20s, before the
/// damage dice: FORMAT.md).
pub fn roll_zone(world: &mut World, unit: Entity) -> Option<BodyPart> {
    if !on(world) {
        return None;
    }
    let roll = world.resource_mut::<Dice>().roll(10);
    let part = BodyPart::of_d10(roll);
    let event = BattleEvent::ZoneRolled {
        unit: id_of(world, unit),
        roll,
        part,
        covered: covered(world, unit, part),
    };
    emit(world, event);
    Some(part)
}

/// The AR a hit on `unit` may meet, with its chance: one entry (the pool)
/// without hit zones, else one per zone in the order of
/// [`BodyPart::chances`].
pub fn armor_chances(world: &World, unit: Entity) -> Vec<(f64, i32)> {
    if !on(world) || world.get_entity(unit).is_err() {
        let pool = world.get::<ArmorReduction>(unit).map_or(0, |a| a.0);
        return vec![(1.0, pool)];
    }
    BodyPart::chances()
        .into_iter()
        .map(|(part, p)| (p, armor_faced(world, unit, Some(part))))
        .collect()
}
