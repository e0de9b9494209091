//! The battle's only source of randomness (R0.6): a seeded ChaCha generator
//! whose whole state can be saved, so a seed and the commands replay a
//! battle exactly.

use bevy::prelude::Resource;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Seeded dice. Every roll of the rules goes through [`Dice::roll`].
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    rng: ChaCha8Rng,
}

impl Dice {
    /// Dice seeded with `seed`: the same seed gives the same rolls.
    pub fn seeded(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Rolls one die of `sides` sides (1 to `sides`).
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.rng.random_range(1..=sides.max(1))
    }
}
