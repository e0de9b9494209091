//! R5 movement (Move and Step), R4.7 charge and R4.8 prone.

pub mod charge;
pub mod movement;
pub mod prone;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((movement::plugin, prone::plugin, charge::plugin));
}
