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
//! - [`fields`]: V11.6 fields and zones on the ground, set off by entering
//!   and at a turn's start, for as long as they last.
//! - [`grip`]: the `Grabbed` effect, a spell's hold (V7.6 grabbed).
//! - [`held`]: what a spell holds (fields, grips) and its letting go.
//! - [`ward`]: V11.3 SD, a Defense spell cast against a hit as a reaction,
//!   absorbing some of it.
//! - [`odds`]: the exact odds of a cast for every unit it reaches.
//!
//! *Decisions* (DECISIONS.md, "Spells"): a spell is not answered (no V2
//! answer, no R8.6 parry: the Defense spells are the answer).

pub mod cast;
pub mod casting;
pub mod concentration;
pub mod effects;
pub mod fields;
pub mod grip;
pub mod held;
pub mod odds;
pub mod switch;
pub mod ward;

pub use switch::{on, switched_on};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        cast::plugin,
        effects::plugin,
        concentration::plugin,
        fields::plugin,
        grip::plugin,
        ward::plugin,
    ));
}
