//! V5 Energy (002; a level's `rules: (actions: Energy)`): a turn is paid in
//! Energy, a budget per round set by Stamina, with Agility for quick
//! steps, Swift Attacks in place of the reaction budget, Exposed and
//! Unguarded, and ranged attacks against a Miss Chance (VARIANTS.md
//! V5.1–V5.12).
//!
//! - [`switch`]: the switch.
//! - [`budget`]: V5.1 turns stay, V5.2 Energy by Stamina each round,
//!   V5.3 the Stamina pool, V5.4 Agility; where each turn began.
//! - [`costs`]: V5.5 the price of every command, paid in Energy, Agility
//!   and Stamina (with 1 Stamina in place of 1 Energy once a round, V5.3);
//!   V5.9's Swift price on an Unguarded target; V5.12 Defend ended by a run.
//! - [`agile`]: V5.7 Agile Moves, and Catch Your Breath.
//! - [`conditions`]: V5.8 Exposed and Unguarded, their causes and their
//!   end; V5.11's kept 20 and 1–3 in melee; V5.12 Defend clearing them.
//! - [`aim`]: V5.10 the Miss Chance of ranged attacks, gathered with the
//!   attack; the roll and its odds are the core's
//!   [`miss_chance`](crate::rules::miss_chance). A kept 20 passes armor.
//!
//! Energy is kept in [`ActionPoints::ap`](crate::battle::ActionPoints), as
//! the core's turn loop, the legal commands and the AI read it;
//! [`Budget`](crate::battle::Budget) keeps the rest of a round's budgets.
//!
//! *Decisions* (DECISIONS.md, "Energy"): V5.6's turning penalty is left
//! out; a Step pays 2 Agility while the unit has them, else 1 Energy; the
//! commands the table does not price cost 3 Energy per AP.

pub mod agile;
pub mod aim;
pub mod budget;
pub mod conditions;
pub mod costs;
pub mod switch;

pub use switch::{on, switched_on};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        budget::plugin,
        costs::plugin,
        agile::plugin,
        conditions::plugin,
        aim::plugin,
    ));
}
