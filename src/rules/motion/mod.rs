//! R5 movement (Move and Step, and the paths and costs of R5.1), R4.7
//! charge and R4.8 prone.

pub mod charge;
pub mod movement;
pub mod paths;
pub mod prone;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((movement::plugin, prone::plugin, charge::plugin));
}
