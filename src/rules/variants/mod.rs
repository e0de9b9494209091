//! The variants of RULES.md a level can switch on (`rules: (...)` in the
//! level, FORMAT.md), each a module with one plugin whose systems run only
//! when the level's switch is on. The core rules never name a variant: a
//! variant steps in through the core's extension points, which are
//! schedules and sets the core runs at the moment it matters:
//!
//! | extension point | who steps in |
//! |---|---|
//! | [`OrderRound`](crate::rules::turns::turn::OrderRound) | V1 reorders the round |
//! | [`RoundBegins`](crate::rules::turns::turn::RoundBegins), [`TurnBegins`](crate::rules::turns::turn::TurnBegins) | V5 sets each round's Energy and Agility, and notes where a turn began |
//! | [`AttackSchedule`](crate::rules::modifiers::AttackSchedule) | V6 (the contest of dice, its ranks and the declared defence), V2 (DEX out of the DV, the declared answer), V3 (disadvantage, what fells), V4 (armor by zone), V10 (size's bonus, degrees and parry), V12 (riders' advantage and disadvantage), V13 (disadvantage) |
//! | [`DecideSystems::Ask`](crate::rules::DecideSystems) | V2 asks the defender |
//! | [`HitSchedule::Answer`](crate::rules::HitSchedule) | V2 answers the hit (R8.6's parry is off then); V6 owes the interrupt of its defence |
//! | [`HitSchedule::Land`](crate::rules::HitSchedule) | V4 rolls the zone |
//! | [`HitSchedule::Wound`](crate::rules::HitSchedule) | V3 inflicts injuries |
//! | [`ReactSchedule`](crate::rules::reactions::reactive_attack::ReactSchedule) | V7 makes a reaction a maneuver |
//! | [`CommandSchedule`](crate::rules::CommandSchedule) | V7 handles its own commands (Maneuver, Sustain, Escape…), refuses moves in a grapple, and ends a charge-shove ([`ChargeShove`](crate::rules::motion::charge::ChargeShove)); V12 handles Mount and Dismount, keeps a mount from acting alone, and throws riders off |
//!
//! Deleting a variant's module and its line below leaves the core
//! compiling; its battle events stay in the event vocabulary, so old
//! records still read.

pub mod active_defence;
pub mod answers;
pub mod die_ranks;
pub mod energy;
pub mod hit_zones;
pub mod injuries;
pub mod jumping;
pub mod maneuvers;
pub mod mounts;
pub mod shooting_in_melee;
pub mod side_initiative;
pub mod size;
pub mod spells;
pub mod stealth;

pub use answers::{held_attack_best, held_attack_odds, held_attack_options};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        side_initiative::plugin,
        active_defence::plugin,
        die_ranks::plugin,
        energy::plugin,
        answers::plugin,
        injuries::plugin,
        hit_zones::plugin,
        shooting_in_melee::plugin,
        maneuvers::plugin,
        size::plugin,
        mounts::plugin,
        jumping::plugin,
        stealth::plugin,
        spells::plugin,
    ));
}
