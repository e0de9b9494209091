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

mod switch;

pub use switch::on;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((unseen::plugin, hidden::plugin, sneak::plugin, hide::plugin));
}
