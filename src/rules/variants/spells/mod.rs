//! V11 spells (000, 004; a level's `rules: (spells: true)`): casters spend
//! MP to cast the catalog's spells, each resolved as its kind says: a spell
//! attack against DV, a save against the caster's roll, or no roll at all
//! (VARIANTS.md V11.1–V11.9).
//!
//! - [`switch`]: the switch.
//! - [`cast`]: V11.1 the Cast command (1 AP, once a turn, provoking at
//!   range), V11.2 MP and upcasting, V11.7 foci, V11.8 arms too hurt to
//!   cast.
//! - [`casting`]: a Cast as the rules read it, a spell's reach, foci.
//! - [`effects`]: V11.3 resolution by kind, V11.4 damage by level or dice
//!   per level (areas rolled once for all), healing and prone.
//! - [`concentration`]: V11.5 one spell held at a time, a save on each
//!   hit, its end.
//! - [`odds`]: the exact odds of a cast for every unit it reaches.
//!
//! *Decisions* (DECISIONS.md, "Spells"): a spell is not answered (no V2
//! answer, no R8.6 parry: the Defense spells are the answer); fields,
//! zones and Defense spells (V11.6, SD) come with the next part of #26.

pub mod cast;
pub mod casting;
pub mod concentration;
pub mod effects;
pub mod odds;
pub mod switch;

pub use switch::{on, switched_on};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((cast::plugin, effects::plugin, concentration::plugin));
}
