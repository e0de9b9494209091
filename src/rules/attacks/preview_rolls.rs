//! The pure arithmetic of an attack's preview: the chance of each number
//! of degrees of a d20 roll (R7.2, R7.3), of a fumble, of a kept 20 past
//! armor (V5.11), and the expected damage by degrees (R7.7).

use super::dice_odds::{DamageDice, kept_probability, mean_damage};
use crate::rules::attacks::resolution::degrees;

/// `chances[d]`: the probability of exactly `d` degrees (R7.2, R7.3) for a
/// roll with net `advantage` (R0.4) and `bonus` against `dv`.
pub fn degree_chances(advantage: i32, bonus: i32, dv: i32, crit: u32, auto_hit: bool) -> Vec<f64> {
    let mut by_degree = vec![0.0; 8];
    if auto_hit {
        by_degree[1] = 1.0;
    } else {
        for k in 1..=20 {
            let d = degrees(k, k as i32 + bonus, dv, crit).max(0) as usize;
            if d >= by_degree.len() {
                by_degree.resize(d + 1, 0.0);
            }
            by_degree[d] += kept_probability(k, advantage);
        }
    }
    while by_degree.len() > 2 && by_degree.last() == Some(&0.0) {
        by_degree.pop();
    }
    by_degree
}

/// The chance that the kept d20 is a natural 1 and the attack misses
/// (R7.3), for a rolled attack.
pub fn fumble_chance(advantage: i32, bonus: i32, dv: i32, crit: u32, auto_hit: bool) -> f64 {
    if auto_hit || degrees(1, 1 + bonus, dv, crit) > 0 {
        return 0.0;
    }
    kept_probability(1, advantage)
}

/// The mean of a distribution by value (`chances[n]`: the chance of `n`).
pub(super) fn mean(chances: &[f64]) -> f64 {
    chances.iter().enumerate().map(|(n, p)| n as f64 * p).sum()
}

/// The expected damage of a roll with these degree chances.
pub fn expected_damage(by_degree: &[f64], dice: DamageDice, down: bool) -> f64 {
    if down {
        return 0.0;
    }
    by_degree
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, p)| **p > 0.0)
        .map(|(d, p)| p * mean_damage(dice.count + (d as u32 - 1), dice.sides, dice.bonus))
        .sum()
}

/// `pierce[d]`: the chance of a kept 20 with `d` degrees (V5.11), as long
/// as `len` degree chances.
pub(super) fn melee_pierce(
    advantage: i32,
    bonus: i32,
    dv: i32,
    crit: u32,
    auto: bool,
    len: usize,
) -> Vec<f64> {
    let mut out = vec![0.0; len.max(2)];
    if auto {
        return out;
    }
    let d = degrees(20, 20 + bonus, dv, crit).max(0) as usize;
    if out.len() <= d {
        out.resize(d + 1, 0.0);
    }
    out[d] += kept_probability(20, advantage);
    out
}
