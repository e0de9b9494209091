//! The luck of a try, taken out of its verdict (an experiment, off unless
//! a profile sets `search.luck`): each try's swing is mostly the dice, a
//! hit or a miss, a high or a low damage roll, and a handful of tries
//! cannot tell two close candidates apart through it. What the dice gave
//! beyond their mean is read off the try's own events, each roll against
//! the distribution the rules rolled it from (R7.2's degrees from the
//! preview's [`degree_chances`], R7.7's damage dice from their sides), so
//! its mean is exactly 0 whatever the candidate: subtracted from the swing
//! in proportion (control variates, fitted over the decision's tries), it
//! leaves each candidate's mean where it was and takes away the part of
//! its spread the dice explain.

use crate::battle::UnitId;
use crate::rules::attacks::preview::degree_chances;
use crate::rules::events::{BattleEvent, DamageHow};

/// What a try's dice gave beyond their mean, in the balance's terms: each
/// roll's excess weighed by its target's worth over its HP and AR at the
/// decision, and signed for the deciding side (a lucky blow on an enemy
/// counts up, on one of ours down). `[degrees of hits, damage dice]`.
pub(super) type Luck = [f64; 2];

/// A unit the luck is counted for: its id, whether it is of the deciding
/// side, and its worth per point of HP and AR.
pub(super) struct Stake {
    pub id: UnitId,
    pub ours: bool,
    pub per_point: f64,
}

/// The luck of the try whose events are `events`.
pub(super) fn luck_of(events: &[BattleEvent], stakes: &[Stake]) -> Luck {
    let weight = |id: &UnitId| {
        stakes
            .iter()
            .find(|s| s.id == *id)
            .map_or(0.0, |s| if s.ours { -s.per_point } else { s.per_point })
    };
    let mut luck = [0.0; 2];
    for e in events {
        match e {
            BattleEvent::AttackRolled(a) => {
                // Only the d20 rolls have the preview's distribution here;
                // contests (V6) and Miss Chances (V5.10) are left as they
                // fell, and an automatic hit rolls nothing.
                let (Some(_), Some(target)) = (a.kept, a.target) else {
                    continue;
                };
                if a.contest.is_some() || a.miss_chance.is_some() {
                    continue;
                }
                let threshold = a.dv - i32::from(a.maneuver.is_some());
                let chances = degree_chances(a.advantage, a.bonus, threshold, a.crit, false);
                let mean: f64 = chances.iter().enumerate().map(|(d, p)| d as f64 * p).sum();
                luck[0] += weight(&target) * (a.degrees.max(0) as f64 - mean);
            }
            BattleEvent::Damaged {
                unit,
                how: DamageHow::Hit { roll, .. },
                ..
            } => {
                let rolled: u32 = roll.rolls.iter().sum();
                let mean = roll.rolls.len() as f64 * (roll.sides as f64 + 1.0) / 2.0;
                luck[1] += weight(unit) * (rolled as f64 - mean);
            }
            _ => {}
        }
    }
    luck
}

/// The swings with the luck taken out: `swings[i][r]` less `β · luck[i][r]`,
/// β fitted by least squares over every candidate's tries, each about its
/// candidate's mean (so the fit sees how the dice move a try, not how the
/// candidates differ). Too few tries to fit two slopes: unchanged.
pub(super) fn without_luck(swings: &[Vec<f64>], lucks: &[Vec<Luck>]) -> Vec<Vec<f64>> {
    let centred = |xs: &[f64]| {
        let m = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
        xs.iter().map(|x| x - m).collect::<Vec<_>>()
    };
    // The normal equations of y = β0·x0 + β1·x1 over the centred tries.
    let (mut a, mut b, mut c, mut d, mut e, mut n) = (0.0, 0.0, 0.0, 0.0, 0.0, 0usize);
    for (ys, ls) in swings.iter().zip(lucks) {
        if ys.len() < 2 {
            continue;
        }
        let y = centred(ys);
        let x0 = centred(&ls.iter().map(|l| l[0]).collect::<Vec<_>>());
        let x1 = centred(&ls.iter().map(|l| l[1]).collect::<Vec<_>>());
        for r in 0..y.len() {
            a += x0[r] * x0[r];
            b += x0[r] * x1[r];
            c += x1[r] * x1[r];
            d += x0[r] * y[r];
            e += x1[r] * y[r];
        }
        n += y.len() - 1;
    }
    // A slope whose luck never varied (no d20 rolled, as under die ranks,
    // V6) is held at 0 by a touch of ridge, not left to divide by 0.
    let ridge = 1e-9 * (a + c) + 1e-12;
    let (a, c) = (a + ridge, c + ridge);
    let det = a * c - b * b;
    if n < 4 {
        return swings.to_vec();
    }
    let beta = [(c * d - b * e) / det, (a * e - b * d) / det];
    swings
        .iter()
        .zip(lucks)
        .map(|(ys, ls)| {
            ys.iter()
                .zip(ls)
                .map(|(y, l)| y - beta[0] * l[0] - beta[1] * l[1])
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luck_fitted_out_leaves_the_means_and_narrows_the_spread() {
        // Two candidates, the second better by 1; each try's swing is its
        // candidate's value plus twice the luck of its dice.
        let luck = [0.9, -1.3, 0.4, 1.7, -0.8, -0.2];
        let swings: Vec<Vec<f64>> = (0..2)
            .map(|i| luck.iter().map(|l| i as f64 + 2.0 * l).collect())
            .collect();
        // The damage dice's luck played no part here, and no d20 at all
        // is the same fit with the other slope.
        for other in [[0.3, 0.1, -0.5, 0.2, 0.0, -0.4], [0.0; 6]] {
            let lucks: Vec<Vec<Luck>> = (0..2)
                .map(|_| luck.iter().zip(other).map(|(l, o)| [*l, o]).collect())
                .collect();
            let out = without_luck(&swings, &lucks);
            for (i, row) in out.iter().enumerate() {
                for y in row {
                    assert!((y - i as f64).abs() < 1e-6, "{y} for {i}");
                }
            }
        }
        // Too few tries: left as they were.
        let short = vec![vec![1.0, 2.0], vec![0.5]];
        let ls = vec![vec![[1.0, 0.0], [0.0, 1.0]], vec![[0.0, 0.0]]];
        assert_eq!(without_luck(&short, &ls), short);
    }
}
