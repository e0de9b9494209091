//! The spells switch (`rules: (spells: true)`).

use bevy::prelude::*;

/// Whether the level has spells.
pub fn on(world: &World) -> bool {
    world
        .get_resource::<crate::battle::Battlefield>()
        .is_some_and(|f| f.0.rules().spells)
}

/// Run condition: the level has spells.
pub fn switched_on(field: Option<Res<crate::battle::Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().spells)
}
