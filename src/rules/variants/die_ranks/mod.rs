//! V6 die ranks (003; a level's `rules: (resolution: DieRanks)`): attacks
//! roll the attacker's die against the defender's, on a ladder of dice
//! from d2 to d12, and count successes as damage (VARIANTS.md V6.1–V6.9).
//!
//! - [`switch`]: the switch, and the AP a unit owes (V6.6).
//! - [`ladder`]: V6.1 the ladder, V6.2 each unit's dice.
//! - [`ranks`]: the contest of an attack, gathered with it: V6.3 the
//!   dice, V6.7 unaware targets, V6.8 today's modifiers as ranks, V6.9
//!   bare hands. The roll and its successes (V6.4) are the core's
//!   [`contest`](crate::rules::contest): the resolution rolls
//!   them, the preview enumerates them.
//! - [`guards`]: V6.5 block, parry and dodge: who may give which, and
//!   their dice.
//! - [`defences`]: the defence declared with the attack (and so the
//!   contest gathered), and V6.6 the interrupt each adds to the AP owed.
//! - [`bare_hands`]: V6.9's provocation of an armed target.
//!
//! *Decisions* (DECISIONS.md, "Die ranks"): maneuvers (V7) keep their own
//! roll; a throw at a tile meets the range's minimum die; a scenario's
//! defender not named in `defences` meets the attack with its passive DEF.

pub mod bare_hands;
pub mod defences;
pub mod guards;
pub mod ladder;
pub mod ranks;
pub mod switch;

pub use switch::{MOST_OWED, on, owed, switched_on};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((defences::plugin, bare_hands::plugin));
}
