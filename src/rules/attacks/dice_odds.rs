//! The dice's own chances, for the exact previews: the sums of damage dice
//! (R7.7), the kept d20 of a roll with advantage (R0.4) and the mean
//! damage. Pure arithmetic over the dice, no rule.

/// The damage dice of a 1-degree hit, flat bonuses included (R7.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DamageDice {
    /// Number of dice.
    pub count: u32,
    /// Sides of each die.
    pub sides: u32,
    /// Flat bonus (weapon, STR, techniques).
    pub bonus: i32,
}

/// `dist[s]`: the probability that `count` dice of `sides` sides sum to `s`.
pub fn dice_sum(count: u32, sides: u32) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..count {
        dist = add_die(&dist, sides);
    }
    dist
}

/// The sums of the dice of `dist` and one more die of `sides` sides.
fn add_die(dist: &[f64], sides: u32) -> Vec<f64> {
    let sides = sides as usize;
    let mut next = vec![0.0; dist.len() + sides];
    if sides <= 100 {
        for (s, p) in dist.iter().enumerate() {
            for face in 1..=sides {
                next[s + face] += p / sides as f64;
            }
        }
    } else {
        // A die of very many sides (a value the catalog allows, not a
        // weapon's): each sum is a window of the last sums, kept running,
        // so a preview stays quick.
        let mut window = 0.0;
        for (t, n) in next.iter_mut().enumerate().skip(1) {
            if let Some(p) = dist.get(t - 1) {
                window += p;
            }
            if t > sides {
                window -= dist.get(t - 1 - sides).copied().unwrap_or(0.0);
            }
            *n = window / sides as f64;
        }
    }
    next
}

/// The sums of a hit's damage dice by its degrees (R7.7: one more die per
/// degree beyond the first), each built from the one before with one more
/// die (the same sums, operation for operation, as [`dice_sum`]). Asked in
/// rising degrees, as an attack's rolls rise, it keeps only the last.
pub(crate) struct DiceSums {
    damage: DamageDice,
    /// The degrees of `sums`, 0 before the first is asked.
    degrees: usize,
    sums: Vec<f64>,
}

impl DiceSums {
    pub(crate) fn new(damage: DamageDice) -> Self {
        Self {
            damage,
            degrees: 0,
            sums: vec![],
        }
    }

    /// The sums of the dice of a hit of `degrees` degrees (at least 1).
    pub(crate) fn of_degrees(&mut self, degrees: usize) -> &[f64] {
        let degrees = degrees.max(1);
        if degrees < self.degrees || self.degrees == 0 {
            let dice = self.damage.count + (degrees as u32 - 1);
            self.sums = dice_sum(dice, self.damage.sides);
            self.degrees = degrees;
        }
        while self.degrees < degrees {
            self.sums = add_die(&self.sums, self.damage.sides);
            self.degrees += 1;
        }
        &self.sums
    }
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
pub(crate) fn mean_damage(count: u32, sides: u32, bonus: i32) -> f64 {
    if count as i32 + bonus >= 1 {
        // The minimum of 1 never applies: the plain mean.
        return count as f64 * (sides as f64 + 1.0) / 2.0 + bonus as f64;
    }
    dice_sum(count, sides)
        .iter()
        .enumerate()
        .map(|(s, p)| p * ((s as i32 + bonus).max(1)) as f64)
        .sum()
}
