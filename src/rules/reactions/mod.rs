//! R8 reactions: who may react and the reactive attack (R8.1–R8.5), what a
//! side's policy is and how an asked side answers (R8), and the parry
//! (R8.6), which answers a melee hit.
//!
//! Moves, charges, throws, standing up and picking up call
//! [`reactive_attack::provoke`] themselves (their rooms sit above this one);
//! the Attack command sits below, so [`reactive_attack`] provokes a shot
//! between the attack's declaration and its roll.

pub mod ask;
pub mod parry;
pub mod policy;
pub mod reactive_attack;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((reactive_attack::plugin, ask::plugin, parry::plugin));
}
