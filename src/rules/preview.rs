//! The exact preview of an attack: probability of a hit, of each number of
//! degrees, and the expected damage, from the same modifiers (the
//! [`AttackSchedule`](super::AttackSchedule)) and the same formulas
//! ([`degrees`], R7.7 damage) as the resolution. No sampling.

use super::attack::degrees;
use super::command::Refusal;
use super::modifiers::{AttackDraft, Modifier, gather};
use crate::battle::{Dying, Stable};
use crate::format::Dice;
use bevy::prelude::*;

/// What an attack would do, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    /// Probability of a hit (at least 1 degree).
    pub hit: f64,
    /// `degrees[d]`: probability of exactly `d` degrees (`degrees[0]` = miss).
    pub degrees: Vec<f64>,
    /// Expected damage rolled, before armor (0 against the dying, R10.3).
    pub expected_damage: f64,
    /// The modifiers that went into it, labelled.
    pub modifiers: Vec<Modifier>,
    /// Net advantage (R0.4).
    pub advantage: i32,
    /// Total added to the d20.
    pub bonus: i32,
    /// The target's DV.
    pub dv: i32,
}

/// Probability that the kept d20 is `k` when rolling `1 + |n|` and keeping
/// the best (`n ≥ 0`) or the worst (R0.4).
pub fn kept_probability(k: u32, advantage: i32) -> f64 {
    let n = 1 + advantage.unsigned_abs() as i32;
    let p = |x: u32| (x as f64 / 20.0).powi(n);
    if advantage >= 0 {
        p(k) - p(k - 1)
    } else {
        p(21 - k) - p(20 - k)
    }
}

/// The distribution of `count` dice of `sides` sides plus `bonus`, at least
/// 1 (R7.7), as its mean.
fn mean_damage(count: u32, sides: u32, bonus: i32) -> f64 {
    if count as i32 + bonus >= 1 {
        // The minimum of 1 never applies: the plain mean.
        return count as f64 * (sides as f64 + 1.0) / 2.0 + bonus as f64;
    }
    // dist[s] = probability that the dice sum to s.
    let mut dist = vec![1.0];
    for _ in 0..count {
        let mut next = vec![0.0; dist.len() + sides as usize];
        for (s, p) in dist.iter().enumerate() {
            for face in 1..=sides as usize {
                next[s + face] += p / sides as f64;
            }
        }
        dist = next;
    }
    dist.iter()
        .enumerate()
        .map(|(s, p)| p * ((s as i32 + bonus).max(1)) as f64)
        .sum()
}

/// Previews `draft` on the battle as it is (with `draft.from` as the
/// attacker's tile). Reads the battle, changes nothing.
pub fn preview_attack(world: &mut World, draft: AttackDraft) -> Result<AttackPreview, Refusal> {
    let draft = gather(world, draft);
    if let Some(r) = draft.refusal.clone() {
        return Err(r);
    }
    // A throw at a tile has no target unit (Entity::PLACEHOLDER).
    let down = world
        .get_entity(draft.target)
        .is_ok_and(|e| e.contains::<Dying>() || e.contains::<Stable>());
    let dice: &Dice = &draft.weapon.damage;
    let damage_at = |d: i32| {
        if down {
            0.0
        } else {
            mean_damage(
                dice.count + (d - 1).max(0) as u32,
                dice.sides,
                dice.bonus + draft.damage_bonus(),
            )
        }
    };
    let (advantage, bonus, dv) = (draft.advantage(), draft.bonus(), draft.dv());
    let mut by_degree = vec![0.0; 8];
    if draft.auto_hit() {
        by_degree[1] = 1.0;
    } else {
        let crit = draft.weapon.crit.clamp(2, 20) as u32;
        for k in 1..=20 {
            let d = degrees(k, k as i32 + bonus, dv, crit).max(0) as usize;
            if d >= by_degree.len() {
                by_degree.resize(d + 1, 0.0);
            }
            by_degree[d] += kept_probability(k, advantage);
        }
    }
    let expected_damage = by_degree
        .iter()
        .enumerate()
        .skip(1)
        .map(|(d, p)| {
            if *p > 0.0 {
                p * damage_at(d as i32)
            } else {
                0.0
            }
        })
        .sum();
    while by_degree.len() > 2 && by_degree.last() == Some(&0.0) {
        by_degree.pop();
    }
    Ok(AttackPreview {
        hit: 1.0 - by_degree[0],
        degrees: by_degree,
        expected_damage,
        modifiers: draft.modifiers,
        advantage,
        bonus,
        dv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_probabilities_sum_to_one() {
        for adv in -3..=3 {
            let s: f64 = (1..=20).map(|k| kept_probability(k, adv)).sum();
            assert!((s - 1.0).abs() < 1e-12, "{adv}: {s}");
        }
        assert!((kept_probability(20, 1) - 39.0 / 400.0).abs() < 1e-12);
        assert!((kept_probability(1, -1) - 39.0 / 400.0).abs() < 1e-12);
    }

    #[test]
    fn mean_damage_respects_minimum() {
        assert!((mean_damage(1, 6, 0) - 3.5).abs() < 1e-12);
        // 1d4-3: faces 1..4 give -2,-1,0,1 → all at least 1.
        assert!((mean_damage(1, 4, -3) - 1.0).abs() < 1e-12);
    }
}
