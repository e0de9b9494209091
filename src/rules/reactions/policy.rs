//! Whether a side takes its reactions (R8): always, never, or asked. An
//! asked side's player answers each question with a `React` command (the
//! window asks a human; the AI answers for itself).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Whether a side's units take the reactions they may.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReactionPolicy {
    /// Every allowed reaction is taken.
    #[default]
    Always,
    /// None is.
    Never,
    /// The side's player is asked: a Move, shot, throw, stand or pick-up that
    /// would provoke one of its units is held until it answers with `React`
    /// commands (the UI asks; the AI answers by itself). Parries are taken
    /// as with `Always` *(decision)*.
    Ask,
}

/// Each side's reaction policy, by side index; sides not listed: Always.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ReactionPolicies(pub Vec<ReactionPolicy>);

impl ReactionPolicies {
    /// The policy of side `side`.
    pub fn of(&self, side: usize) -> ReactionPolicy {
        self.0.get(side).copied().unwrap_or_default()
    }
}

/// The reaction policy of side `side` (Always when none is set).
pub fn policy_of(world: &World, side: usize) -> ReactionPolicy {
    world
        .get_resource::<ReactionPolicies>()
        .map_or(ReactionPolicy::Always, |p| p.of(side))
}
