//! What a plan costs the AI: R3.1's action points, or under Energy (V5)
//! the rules' own prices ([`price`]), so the AI budgets a round's Energy
//! as the rules will charge it: a Run by its length, a melee blow 3, a
//! shot 1 + its load, a Step paid in Agility while it lasts.

use crate::battle::{Budget, Stamina, run_energy};
use crate::rules::command::Command;
use crate::rules::motion::movement::speed_of;
use crate::rules::turns::action_points::cost as ap_cost;
use crate::rules::variants::energy::costs::price;
use bevy::prelude::*;

/// Whether the battle is paid in Energy.
pub(super) fn on(world: &World) -> bool {
    crate::battle::energy(world)
}

/// What `me` may spend this turn: its AP, or its Energy and, while its
/// Stamina can spare it without costing the next round's Energy, the
/// round's 1 Stamina in place of 1 Energy (V5.3).
pub(super) fn budget(world: &World, me: Entity, ap: i32) -> i32 {
    if !on(world) {
        return ap;
    }
    let stand_in = world.get::<Budget>(me).is_some_and(|b| !b.stand_in_used)
        && world.get::<Stamina>(me).is_some_and(|s| s.0 > 5);
    ap + i32::from(stand_in)
}

/// What `command` costs `me` in the plan's currency: its AP (the free
/// action none), or its Energy; one the rules cannot price costs more
/// than any budget.
pub(super) fn cost(world: &mut World, me: Entity, command: &Command) -> i32 {
    if !on(world) {
        return ap_cost(command).ap;
    }
    price(world, me, command).map_or(i32::MAX / 2, |p| p.energy)
}

/// A Move of `movement` for `me`: `ap` AP (none for a rider's free Move),
/// or its Run's Energy (V5.5).
pub(super) fn move_cost(world: &World, me: Entity, movement: u32, ap: i32) -> i32 {
    if !on(world) {
        return ap;
    }
    run_energy(movement, speed_of(world, me))
}

/// The chance an enemy in reach gives a kept Swift Attack its chance
/// before the round ends (V5.9) *(AI decision: measured on
/// second_wind.ron, DECISIONS.md "Energy")*.
const SWIFT_ODDS: f64 = 0.35;

/// What 1 Energy kept is worth to `me` under Energy: its round's Swift
/// Attack, while unspent, as a share of `best_blow`, the value of its best
/// attack from where the plan ends; 0 without Energy.
pub(super) fn swift_reserve(world: &World, me: Entity, best_blow: f64) -> f64 {
    if !on(world) || world.get::<Budget>(me).is_none_or(|b| b.swift_used) {
        return 0.0;
    }
    SWIFT_ODDS * best_blow
}
