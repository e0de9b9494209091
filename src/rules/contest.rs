//! An opposed roll of dice: the attacker's dice against the defender's,
//! counted in successes (die ranks, V6.3). A rule that rolls attacks this
//! way fills [`AttackDraft::contest`](crate::rules::modifiers::AttackDraft)
//! while the attack is gathered; the resolution rolls it instead of R7's
//! d20, and the preview enumerates the same dice. The contest's words and
//! arithmetic, no rule's choice.

use crate::format::Guard;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One side's dice: `1 + |advantage|` dice of `sides`, the highest kept
/// with advantage, the lowest with disadvantage (R0.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    /// The die's sides (d2 … d12 on the ladder of V6.1).
    pub sides: u32,
    /// Net advantage on this side's roll.
    pub advantage: i32,
    /// What the die is, for the log: "ATT", "DEF", "STR −2 ranks"…
    pub label: Cow<'static, str>,
    /// Ranks the ladder cut off: above its top (positive) or below its
    /// foot (negative).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cut: i32,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl Pool {
    /// How many dice are rolled.
    pub fn count(&self) -> u32 {
        1 + self.advantage.unsigned_abs()
    }

    /// The kept die of `dice` (R0.4).
    pub fn keep(&self, dice: &[u32]) -> u32 {
        let pick = if self.advantage >= 0 {
            dice.iter().max()
        } else {
            dice.iter().min()
        };
        pick.copied().unwrap_or(1)
    }

    /// `p[k - 1]`: the chance the kept die is `k`.
    pub fn chances(&self) -> Vec<f64> {
        (1..=self.sides)
            .map(|k| kept_chance(k, self.sides, self.advantage))
            .collect()
    }
}

/// An attack rolled as an opposed contest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contest {
    /// The attacker's dice.
    pub attack: Pool,
    /// The defender's dice: its passive defence or its answer.
    pub defence: Pool,
    /// How the defender meets the attack: `None` for the passive defence,
    /// else the active defence it gives.
    pub guard: Guard,
    /// The most successes a roll counts.
    pub cap: u32,
}

impl Contest {
    /// `p[s]`: the chance of exactly `s` successes, every kept pair of
    /// dice enumerated.
    pub fn success_chances(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.cap as usize + 1];
        let defence = self.defence.chances();
        for (a, pa) in self.attack.chances().iter().enumerate() {
            for (d, pd) in defence.iter().enumerate() {
                let s = successes(a as u32 + 1, d as u32 + 1, self.cap);
                out[s as usize] += pa * pd;
            }
        }
        out
    }
}

/// The successes of an attack die showing `att` against a defence die
/// showing `def`: none unless it beats it (ties to the defender), else one
/// per whole multiple of the defence, at least 1 and at most `cap`.
pub fn successes(att: u32, def: u32, cap: u32) -> u32 {
    if att <= def {
        return 0;
    }
    (att / def.max(1)).clamp(1, cap)
}

/// The chance the kept die of `1 + |advantage|` dice of `sides` is `k`.
pub fn kept_chance(k: u32, sides: u32, advantage: i32) -> f64 {
    let n = 1 + advantage.unsigned_abs() as i32;
    let s = f64::from(sides);
    let at_most = |x: u32| (f64::from(x) / s).powi(n);
    if advantage >= 0 {
        at_most(k) - at_most(k - 1)
    } else {
        at_most(sides + 1 - k) - at_most(sides - k)
    }
}

/// One side's dice as rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolRoll {
    /// The pool.
    pub pool: Pool,
    /// Every die rolled.
    pub dice: Vec<u32>,
    /// The one kept.
    pub kept: u32,
}

/// A contest as rolled, for the events and the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContestRoll {
    /// The attacker's dice.
    pub attack: PoolRoll,
    /// The defender's.
    pub defence: PoolRoll,
    /// How the defender met it (`None`: its passive defence).
    pub guard: Guard,
    /// Successes counted.
    pub successes: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(sides: u32, advantage: i32) -> Pool {
        Pool {
            sides,
            advantage,
            label: "ATT".into(),
            cut: 0,
        }
    }

    #[test]
    fn successes_count_whole_multiples_capped() {
        assert_eq!(successes(4, 4, 3), 0);
        assert_eq!(successes(5, 4, 3), 1);
        assert_eq!(successes(8, 4, 3), 2);
        assert_eq!(successes(7, 2, 3), 3);
        assert_eq!(successes(10, 1, 3), 3);
    }

    #[test]
    fn kept_chances_sum_to_one() {
        for sides in [2, 4, 6, 8, 10, 12] {
            for adv in -2..=2 {
                let s: f64 = pool(sides, adv).chances().iter().sum();
                assert!((s - 1.0).abs() < 1e-12, "d{sides} {adv}: {s}");
            }
        }
        // Two d4s, the best: a 4 in 7 of 16.
        assert!((kept_chance(4, 4, 1) - 7.0 / 16.0).abs() < 1e-12);
        assert!((kept_chance(1, 4, -1) - 7.0 / 16.0).abs() < 1e-12);
    }

    #[test]
    fn the_seeds_odds_of_a_d10_against_a_d8() {
        // VARIANTS.md V6.4: d10 against d8 gives 0/1/2/3 successes with
        // 45/24/13/19% (capped).
        let c = Contest {
            attack: pool(10, 0),
            defence: pool(8, 0),
            guard: Guard::None,
            cap: 3,
        };
        let p: Vec<i64> = c
            .success_chances()
            .iter()
            .map(|p| (p * 100.0).round() as i64)
            .collect();
        assert_eq!(p, vec![45, 24, 13, 19]);
    }
}
