//! V6 die ranks (003; a level's `rules: (resolution: DieRanks)`): attacks
//! roll the attacker's die against the defender's, on a ladder of dice
//! from d2 to d12, and count successes as damage (VARIANTS.md V6.1–V6.9).
//!
//! - [`ladder`]: V6.1 the ladder, V6.2 each unit's dice.
//! - [`ranks`]: the contest of an attack, gathered with it: V6.3 the
//!   dice, V6.7 unaware targets, V6.8 today's modifiers as ranks, V6.9
//!   bare hands. The roll and its successes (V6.4) are the core's
//!   [`contest`](crate::rules::attacks::contest): the resolution rolls
//!   them, the preview enumerates them.
//! - [`defences`]: V6.5 block, parry and dodge, declared with the attack,
//!   and V6.6 the interrupt each adds to the AP a unit owes.
//! - [`bare_hands`]: V6.9's provocation of an armed target.
//!
//! *Decisions* (DECISIONS.md, "Die ranks"): maneuvers (V7) keep their own
//! roll; a throw at a tile meets the range's minimum die; a scenario's
//! defender not named in `defences` meets the attack with its passive DEF.

pub mod bare_hands;
pub mod defences;
pub mod ladder;
pub mod ranks;

use crate::battle::{Battlefield, Reactions};
use crate::format::Resolution;
use bevy::prelude::*;

pub use crate::battle::MOST_OWED;

/// Whether the level rolls die ranks.
pub fn on(world: &World) -> bool {
    crate::battle::die_ranks(world)
}

/// Run condition: the level rolls die ranks.
pub fn switched_on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().resolution == Resolution::DieRanks)
}

/// The AP `unit` owes its next turn for its interrupts (V6.6): under die
/// ranks its reactions are what it may still owe, so the debt is the
/// budget less them. 0 when die ranks are off.
pub fn owed(world: &World, unit: Entity) -> i32 {
    if !on(world) {
        return 0;
    }
    world
        .get::<Reactions>(unit)
        .map_or(0, |r| (MOST_OWED - r.0).clamp(0, MOST_OWED))
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((ranks::plugin, defences::plugin, bare_hands::plugin));
}
