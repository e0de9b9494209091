//! R6 line of effect and cover, R6.4 firing into melee, R7.4 range: what
//! stands between an attacker and its target.

pub mod cover;
pub mod firing_into_melee;
pub mod line_of_effect;
pub mod range;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((cover::plugin, firing_into_melee::plugin, range::plugin));
}
