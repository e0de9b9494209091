//! R4.1–R4.6 positioning: facing and the arcs (R4.1–R4.3), the tiles a unit
//! threatens (R4.4), flanking (R4.5), Defend and Ready shield (R4.6); and
//! the heights that bound reach (V9.6).

pub mod defend;
pub mod facing;
pub mod flanking;
pub mod heights;
pub mod threat;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((facing::plugin, flanking::plugin, defend::plugin));
}
