//! V8 stealth and vision (004:172–181 sneaking, 001:6–7 ambush, 002:406
//! hiding, 002:489–501 surprise; `rules: (stealth: true, light: …)`).
//!
//! - [`sight`]: what a unit and a side see (V8.1);
//! - [`hidden`]: who is hidden from which side, from the start, and how a
//!   hidden unit is revealed (V8.2, V8.6);
//! - [`hide`]: the Hide and Search commands (V8.4, V8.5);
//! - [`sneak`]: the sneak check of a hidden unit on the move (V8.3);
//! - [`unseen`]: attacking from hiding (V8.7) and targeting only what the
//!   side sees (V8.8).

pub mod hidden;
pub mod hide;
pub mod sight;
pub mod sneak;
pub mod unseen;

use crate::battle::Battlefield;
use bevy::prelude::*;

/// True when the level plays with stealth and vision (V8).
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().stealth)
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((unseen::plugin, hidden::plugin, sneak::plugin, hide::plugin));
}
