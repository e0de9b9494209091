//! R2 rounds, initiative and turns; R3 action points; R11 victory.
//!
//! The turn loop ([`turn`]) gives the turn, rolls the dying and starts
//! rounds; at the moments another rule must act it runs a schedule of its
//! own instead of calling that rule: [`turn::OrderRound`] when a round's
//! order is set (side initiative, V1, reorders it), [`turn::Settle`] when
//! the battle may have been decided (victory, R11, writes the outcome).

pub mod action_points;
pub mod initiative;
pub mod turn;
pub mod victory;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((turn::plugin, action_points::plugin, victory::plugin));
}
