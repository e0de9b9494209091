//! The die-ranks switch (`rules: (resolution: DieRanks)`), what it takes
//! over, and the AP a unit owes (V6.6).

use crate::battle::Reactions;
use crate::rules::modifiers::AttackDraft;
use bevy::prelude::*;

pub use crate::battle::MOST_OWED;

/// Whether the level rolls die ranks.
pub fn on(world: &World) -> bool {
    crate::battle::die_ranks(world)
}

/// Run condition: the level rolls die ranks.
pub fn switched_on(field: Option<Res<crate::battle::Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().resolution == crate::format::Resolution::DieRanks)
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

/// Whether the attack of `draft` rolls a contest: every attack and throw,
/// but not a maneuver (V7 keeps its own roll, *decision*) nor an automatic
/// hit (R7.9 stays, V6.7).
pub fn contested(draft: &AttackDraft) -> bool {
    draft.maneuver.is_none() && !draft.auto_hit()
}
