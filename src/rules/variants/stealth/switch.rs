//! The V8 switch: `rules: (stealth: true)`.

use crate::battle::Battlefield;
use bevy::prelude::*;

/// True when the level plays with stealth and vision (V8).
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().stealth)
}
