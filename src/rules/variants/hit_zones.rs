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
//!
//! Where it steps in: the armor by zone is gathered with every attack
//! ([`AttackSystems::Body`], for the preview), and a hit's zone is rolled
//! in [`HitSchedule::Land`] (unless an answer chose it, V2).

use crate::battle::{ArmorReduction, Battlefield, Stats};
use crate::dice::Dice;
use crate::format::BodyPart;
use crate::rules::attacks::hit::{Hit, HitSchedule};
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackSchedule, AttackSystems};
use bevy::prelude::*;

/// Whether the level plays with hit zones.
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().hit_zones)
}

/// Run condition: the level plays with hit zones.
pub fn switched_on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().hit_zones)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        add_armor_by_zone
            .in_set(AttackSystems::Body)
            .run_if(switched_on),
    )
    .add_systems(HitSchedule::Land, land_on_a_zone.run_if(switched_on));
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

/// The AR a hit on `unit` may meet, one entry per zone in the order of
/// [`BodyPart::chances`], with its chance.
pub fn armor_chances(world: &World, unit: Entity) -> Vec<(f64, i32)> {
    BodyPart::chances()
        .into_iter()
        .map(|(part, p)| (p, armor_faced(world, unit, Some(part))))
        .collect()
}

/// The armor a hit may meet, zone by zone (for the preview).
fn add_armor_by_zone(world: &mut World) {
    let target = world.resource::<AttackDraft>().target;
    if world.get_entity(target).is_err() {
        return;
    }
    let armor = armor_chances(world, target);
    world.resource_mut::<AttackDraft>().armor = armor;
}

/// Where the hit lands: the zone an answer chose (a parry, V2), else the
/// d10's (after the attack's d20s and any answer's d12s, before the damage
/// dice: FORMAT.md), told; and the AR that stands there.
pub(crate) fn land_on_a_zone(world: &mut World) {
    let mut hit = world.resource::<Hit>().clone();
    let target = hit.draft.target;
    if hit.zone.is_none() {
        let roll = world.resource_mut::<Dice>().roll(10);
        let part = BodyPart::of_d10(roll);
        let event = BattleEvent::ZoneRolled {
            unit: id_of(world, target),
            roll,
            part,
            covered: covered(world, target, part),
        };
        emit(world, event);
        hit.zone = Some(part);
    }
    hit.armor = Some(armor_faced(world, target, hit.zone));
    world.insert_resource(hit);
}
