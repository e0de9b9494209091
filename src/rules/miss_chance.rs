//! The Miss Chance of a ranged attack under Energy (V5.10, 002:190–246): a
//! d20 with advantage that hits on meeting the target's Miss Chance, a
//! number made of the shooter's aim, the target's size and movement and
//! an exploding evasion d4. A rule that rolls ranged attacks this way fills
//! [`AttackDraft::miss_chance`](crate::rules::modifiers::AttackDraft) while
//! the attack is gathered; the resolution rolls it instead of R7.1's total
//! against DV, and the preview enumerates the same dice. The words and
//! arithmetic, no rule's choice.

use crate::rules::contest::{Pool, kept_chance};
use crate::rules::rule::Rule;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Explosions of the evasion d4 the preview follows (V5.10 *decision*):
/// without advantage on the evasion dice the chance of more is 4⁻²¹, below
/// 10⁻¹²; the preview counts that remainder as a miss.
pub const DEPTH: usize = 20;

/// The most explosions a roll makes: a guard against a script of endless
/// 4s, far past any chance.
const MOST_EXPLOSIONS: usize = 100;

/// One labelled term of a Miss Chance or of an evasion roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// Added to the number.
    pub value: i32,
    /// What it is, for the log ("Accuracy", "standing still").
    pub source: Cow<'static, str>,
    /// The rule that says so.
    pub rule: Rule,
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {:+}", self.source, self.value)
    }
}

/// The target's Ranged Evasion roll (002:204, 336): an exploding d4 (a 4
/// adds another die; advantage counts on each die of the chain) plus its
/// terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evasion {
    /// Each d4 of the chain: `1 + |advantage|` dice, the best or worst kept.
    pub die: Pool,
    /// DEX, a shield facing the shot, the armor's penalty.
    pub terms: Vec<Term>,
}

impl Evasion {
    /// The sum of its terms.
    pub fn bonus(&self) -> i32 {
        self.terms.iter().map(|t| t.value).sum()
    }

    /// `p[s]`: the chance the chain of kept d4s sums to `s`, followed to
    /// [`DEPTH`] explosions (the rest, past the end, is left out).
    pub fn chain_chances(&self) -> Vec<f64> {
        let die = self.die.chances();
        let top = die.len();
        let explode = die[top - 1];
        let mut out = vec![0.0; top * (DEPTH + 1) + 1];
        let mut reach = 1.0;
        for k in 0..=DEPTH {
            for (face, p) in die.iter().enumerate().take(top - 1) {
                out[top * k + face + 1] += reach * p;
            }
            reach *= explode;
        }
        out
    }
}

/// A ranged attack's Miss Chance, as gathered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissChance {
    /// Its fixed terms: the base 8, Accuracy, DEX, size, movement, soft
    /// cover.
    pub terms: Vec<Term>,
    /// The evasion roll, when the target may avoid the shot (002:202).
    pub evasion: Option<Evasion>,
    /// The target took Defend: it wins ties (002:35, V5.12).
    pub target_wins_ties: bool,
    /// The Hit roll's net advantage (R0.4).
    pub advantage: i32,
}

impl MissChance {
    /// The sum of its fixed terms.
    pub fn fixed(&self) -> i32 {
        self.terms.iter().map(|t| t.value).sum()
    }

    /// `p[m]` for each Miss Chance `m` from `lowest()`: the fixed terms,
    /// the evasion's and its chain of d4s.
    fn totals(&self) -> (i32, Vec<f64>) {
        match &self.evasion {
            None => (self.fixed(), vec![1.0]),
            Some(e) => (self.fixed() + e.bonus(), e.chain_chances()),
        }
    }

    /// `(degrees, pierce)`: `degrees[d]`, the chance of exactly `d`
    /// degrees (0: a miss); `pierce[d]`, the part of it from a kept 20,
    /// whose hit passes armor (V5.10). Every kept d20 and every evasion
    /// chain to [`DEPTH`] explosions enumerated.
    pub fn degree_chances(&self) -> (Vec<f64>, Vec<f64>) {
        let mut degrees = vec![0.0; 2];
        let mut pierce = vec![0.0; 2];
        let (low, chances) = self.totals();
        let add = |out: &mut Vec<f64>, d: usize, p: f64| {
            if out.len() <= d {
                out.resize(d + 1, 0.0);
            }
            out[d] += p;
        };
        let mut covered = 0.0;
        for (s, q) in chances.iter().enumerate() {
            if *q == 0.0 {
                continue;
            }
            covered += q;
            let mc = low + s as i32;
            for k in 1..=20u32 {
                let p = q * kept_chance(k, 20, self.advantage);
                let d = self.degrees(k, mc) as usize;
                add(&mut degrees, d, p);
                if k == 20 {
                    add(&mut pierce, d, p);
                }
            }
        }
        // The chains past DEPTH: a miss, but for a kept 20.
        let rest = (1.0 - covered).max(0.0);
        let crit = kept_chance(20, 20, self.advantage);
        add(&mut degrees, 0, rest * (1.0 - crit));
        add(&mut degrees, 1, rest * crit);
        add(&mut pierce, 1, rest * crit);
        pierce.resize(degrees.len(), 0.0);
        (degrees, pierce)
    }

    /// The degrees of a kept d20 `kept` against Miss Chance `mc` (V5.10
    /// *decision*): a hit on meeting it (beating it when the target wins
    /// ties), 1 degree and one more per full 5 above; a kept 20 always hits
    /// and adds a degree (as R7.3); a kept 1 always misses.
    pub fn degrees(&self, kept: u32, mc: i32) -> i32 {
        let roll = kept as i32;
        if kept == 1 {
            return 0;
        }
        let hits = if self.target_wins_ties {
            roll > mc
        } else {
            roll >= mc
        };
        let d = if hits { 1 + (roll - mc).max(0) / 5 } else { 0 };
        match (kept, d) {
            (20, 0) => 1,
            (20, d) => d + 1,
            _ => d,
        }
    }
}

/// A Miss Chance as rolled: the evasion dice and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissChanceRoll {
    /// What was rolled against.
    pub chance: MissChance,
    /// The evasion chain: each link's d4s (empty without evasion).
    pub evasion: Vec<Vec<u32>>,
    /// The kept d4 of each link.
    pub kept: Vec<u32>,
    /// The Miss Chance it came to.
    pub total: i32,
}

/// Rolls the evasion chain of `chance` with `roll_many(count, sides)` and
/// totals the Miss Chance (VARIANTS.md's dice order: after the Hit roll's
/// d20s).
pub fn roll(
    chance: &MissChance,
    mut roll_many: impl FnMut(u32, u32) -> Vec<u32>,
) -> MissChanceRoll {
    let mut out = MissChanceRoll {
        chance: chance.clone(),
        evasion: vec![],
        kept: vec![],
        total: chance.fixed(),
    };
    let Some(e) = &chance.evasion else {
        return out;
    };
    out.total += e.bonus();
    for _ in 0..=MOST_EXPLOSIONS {
        let dice = roll_many(e.die.count(), e.die.sides);
        let kept = e.die.keep(&dice);
        out.evasion.push(dice);
        out.kept.push(kept);
        out.total += kept as i32;
        if kept < e.die.sides {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chance(evasion: Option<i32>, ties: bool) -> MissChance {
        MissChance {
            terms: vec![Term {
                value: 8,
                source: "base".into(),
                rule: Rule::V5_10,
            }],
            evasion: evasion.map(|adv| Evasion {
                die: Pool {
                    sides: 4,
                    advantage: adv,
                    label: "evasion".into(),
                    cut: 0,
                },
                terms: vec![],
            }),
            target_wins_ties: ties,
            advantage: 0,
        }
    }

    #[test]
    fn a_still_target_is_hit_on_meeting_the_number() {
        let c = chance(None, false);
        let (d, pierce) = c.degree_chances();
        // 8..=20 hit: 13 faces; 20 adds a degree; 13..=17 a second degree.
        assert!((1.0 - d[0] - 13.0 / 20.0).abs() < 1e-12);
        assert!((pierce.iter().sum::<f64>() - 0.05).abs() < 1e-12);
        // With Defend the target wins the tie on 8.
        let (d, _) = chance(None, true).degree_chances();
        assert!((1.0 - d[0] - 12.0 / 20.0).abs() < 1e-12);
    }

    #[test]
    fn the_evasion_chain_sums_to_one_within_its_bound() {
        for adv in [0, -1, -2] {
            let e = chance(Some(adv), false).evasion.unwrap();
            let total: f64 = e.chain_chances().iter().sum();
            assert!((1.0 - total) < 1e-12, "adv {adv}: {total}");
            let (d, _) = chance(Some(adv), false).degree_chances();
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        // A 4 explodes: 4 then 2 is 6; 1 alone is 1.
        let chain = chance(Some(0), false).evasion.unwrap().chain_chances();
        assert!((chain[6] - 1.0 / 16.0).abs() < 1e-15);
        assert_eq!(chain[4], 0.0);
    }

    #[test]
    fn a_roll_follows_the_chain_and_totals_it() {
        let c = chance(Some(0), false);
        let mut faces = vec![4, 4, 3].into_iter();
        let r = roll(&c, |n, _| (0..n).map(|_| faces.next().unwrap()).collect());
        assert_eq!(r.kept, vec![4, 4, 3]);
        assert_eq!(r.total, 8 + 11);
    }
}
