//! The Energy switch (`rules: (actions: Energy)`).

use bevy::prelude::*;

/// Whether the level pays turns in Energy.
pub fn on(world: &World) -> bool {
    crate::battle::energy(world)
}

/// Run condition: the level pays turns in Energy.
pub fn switched_on(field: Option<Res<crate::battle::Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().actions == crate::format::Actions::Energy)
}
