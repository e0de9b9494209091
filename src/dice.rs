//! The battle's only source of randomness (R0.6): a seeded ChaCha generator
//! whose whole state can be saved, or a script of dice for scenarios, so a
//! seed (or a script) and the commands replay a battle exactly.
//!
//! The AI's choices (the random baseline's) come from a second stream of
//! the same seed, apart from the rules' rolls: whoever chooses the
//! commands, the rules roll the same dice, so a replay of the commands
//! alone rolls them again; and the same seed and profiles play the same
//! battle in `sim`, in the window and after a save is loaded.

use bevy::prelude::Resource;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Where the dice come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Source {
    Seeded(Box<ChaCha8Rng>),
    /// Scenario dice: `(sides, value)` in the order the rules roll them.
    Scripted(VecDeque<(u32, u32)>),
}

/// The dice. Every roll of the rules goes through [`Dice::roll`], every
/// choice the AI leaves to chance through [`Dice::pick`].
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    source: Source,
    /// Every die rolled so far: `(sides, value)`.
    rolled: u64,
    /// The first way a script was not followed (wrong die or ran out).
    script_error: Option<String>,
    /// The AI's stream: the seed's second ChaCha stream (seed 0's for
    /// scripted dice). Saves from before it had none: a fresh one then.
    #[serde(default = "ai_stream_of_none")]
    ai: Box<ChaCha8Rng>,
}

/// The AI's stream of dice seeded `seed` (or of a script: seed 0).
fn ai_stream(seed: Option<[u8; 32]>) -> Box<ChaCha8Rng> {
    let mut rng = match seed {
        Some(seed) => ChaCha8Rng::from_seed(seed),
        None => ChaCha8Rng::seed_from_u64(0),
    };
    rng.set_stream(1);
    Box::new(rng)
}

fn ai_stream_of_none() -> Box<ChaCha8Rng> {
    ai_stream(None)
}

impl Dice {
    /// Dice seeded with `seed`: the same seed gives the same rolls.
    pub fn seeded(seed: u64) -> Self {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        let ai = ai_stream(Some(rng.get_seed()));
        Self {
            source: Source::Seeded(Box::new(rng)),
            rolled: 0,
            script_error: None,
            ai,
        }
    }

    /// Dice that give exactly `script`, `(sides, value)` in order. Rolling a
    /// die of another size, or past the end, records an error (see
    /// [`Dice::script_error`]) and gives 1.
    pub fn scripted(script: impl IntoIterator<Item = (u32, u32)>) -> Self {
        Self {
            source: Source::Scripted(script.into_iter().collect()),
            rolled: 0,
            script_error: None,
            ai: ai_stream(None),
        }
    }

    /// Rolls one die of `sides` sides (1 to `sides`).
    pub fn roll(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        self.rolled += 1;
        match &mut self.source {
            Source::Seeded(rng) => rng.random_range(1..=sides),
            Source::Scripted(script) => match script.pop_front() {
                Some((s, v)) if s == sides && (1..=s).contains(&v) => v,
                Some((s, v)) => {
                    self.script_error.get_or_insert(format!(
                        "die #{}: the rules rolled a d{sides} but the script has ({s}, {v})",
                        self.rolled
                    ));
                    1
                }
                None => {
                    self.script_error.get_or_insert(format!(
                        "die #{}: the rules rolled a d{sides} but the script has run out",
                        self.rolled
                    ));
                    1
                }
            },
        }
    }

    /// A number from 1 to `sides` for a choice the AI leaves to chance:
    /// from the AI's stream, never the rules' (a script is not consumed).
    pub fn pick(&mut self, sides: u32) -> u32 {
        self.ai.random_range(1..=sides.max(1))
    }

    /// A seed for a search's own dice (the look-ahead's tries), from the
    /// AI's stream: the rules' rolls are not touched.
    pub fn pick_seed(&mut self) -> u64 {
        self.ai.random()
    }

    /// The AI's stream as it stands, to carry a decision made on a copy of
    /// the battle back to the battle.
    pub fn ai_stream(&self) -> ChaCha8Rng {
        (*self.ai).clone()
    }

    /// Puts the AI's stream where a decision on a copy of the battle left
    /// it.
    pub fn set_ai_stream(&mut self, stream: ChaCha8Rng) {
        *self.ai = stream;
    }

    /// Rolls `count` dice of `sides` sides, in order (damage R7.7, healing
    /// R10.5).
    pub fn roll_many(&mut self, count: u32, sides: u32) -> Vec<u32> {
        (0..count).map(|_| self.roll(sides)).collect()
    }

    /// How a script was not followed, if it was not.
    pub fn script_error(&self) -> Option<&str> {
        self.script_error.as_deref()
    }

    /// Scripted dice not rolled yet (0 for seeded dice).
    pub fn script_left(&self) -> usize {
        match &self.source {
            Source::Seeded(_) => 0,
            Source::Scripted(s) => s.len(),
        }
    }

    /// The seed of seeded dice (`None` for a script): what the AI's own
    /// stream is made from.
    pub fn seed(&self) -> Option<[u8; 32]> {
        match &self.source {
            Source::Seeded(rng) => Some(rng.get_seed()),
            Source::Scripted(_) => None,
        }
    }

    /// Number of dice rolled so far.
    pub fn rolled(&self) -> u64 {
        self.rolled
    }
}

/// SplitMix64's finalizer: a well-mixed 64-bit number from `z`, the same on
/// any machine. Derived seeds (a game's of a run, a look-ahead try's of a
/// unit's command) are made with it, so neighbours get unrelated dice.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
