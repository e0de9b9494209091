//! R9 throws with scatter, and the objects on the ground: picking up
//! (R9.5).

pub mod pick_up;
pub mod throw;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((throw::plugin, pick_up::plugin));
}
