//! The verdict of the look-ahead's tries ([`super::search`]): how much each
//! candidate gained over the utility AI's own choice on the same dice, how
//! sure that gain is, and which candidate is played.

use super::search::Considered;

/// How much better candidate `i` did than the first (the utility's own
/// choice), try by try on the same dice, plus `prior` times the difference
/// of their utility values; and the spread of that mean (its standard
/// error; infinite with fewer than two tries).
pub(super) fn gain_over_first(
    considered: &[Considered],
    swings: &[Vec<f64>],
    i: usize,
    prior: f64,
) -> (f64, f64) {
    let prior_gain = prior * (considered[i].utility - considered[0].utility);
    let k = swings[i].len().min(swings[0].len());
    if i == 0 {
        return (0.0, 0.0);
    }
    if k == 0 {
        return (prior_gain, f64::INFINITY);
    }
    let d: Vec<f64> = (0..k).map(|r| swings[i][r] - swings[0][r]).collect();
    let mean = d.iter().sum::<f64>() / k as f64;
    let spread = if k < 2 {
        f64::INFINITY
    } else {
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        (var / k as f64).sqrt()
    };
    (mean + prior_gain, spread)
}

/// Which of `considered` (scored) to play: the utility's choice (the
/// first) stands unless another beats it by more than `confidence` times
/// the spread of its tries, widened for so few tries ([`small_sample`]).
pub(super) fn chosen(considered: &[Considered], confidence: f64) -> usize {
    let mut chosen = 0;
    for (i, c) in considered.iter().enumerate().skip(1) {
        let bar = if confidence > 0.0 {
            confidence * small_sample(c.tries) * c.spread
        } else {
            0.0
        };
        if c.score > bar && c.score > considered[chosen].score {
            chosen = i;
        }
    }
    chosen
}

/// How much farther than a normal one the reach of one standard error
/// goes for a mean of `k` paired tries (Student's t with `k - 1` degrees of
/// freedom at the normal's 84%, one-sided): a spread read from two tries is
/// itself a guess, and a gain of one such spread comes by chance a quarter
/// of the time, not a sixth.
fn small_sample(k: usize) -> f64 {
    const T: [f64; 10] = [
        1.837, 1.321, 1.197, 1.142, 1.111, 1.091, 1.077, 1.067, 1.059, 1.053,
    ];
    match k {
        0 | 1 => f64::INFINITY,
        k if k - 2 < T.len() => T[k - 2],
        k => 1.0 + 0.5 / (k - 1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::utility::Plan;
    use crate::rules::command::Command;

    fn scored(score: f64, spread: f64, tries: usize) -> Considered {
        Considered {
            score,
            spread,
            tries,
            ..crate::ai::search::untried(&Plan {
                value: 0.0,
                command: Command::EndTurn,
            })
        }
    }

    #[test]
    fn a_gain_of_one_spread_over_two_tries_does_not_overrule_the_utility() {
        let first = scored(0.0, 0.0, 2);
        // One standard error over two tries: by chance a quarter of the
        // time; the same over ten tries a sixth and a bit.
        assert_eq!(chosen(&[first.clone(), scored(1.5, 1.0, 2)], 1.0), 0);
        assert_eq!(chosen(&[first.clone(), scored(1.9, 1.0, 2)], 1.0), 1);
        assert_eq!(chosen(&[first.clone(), scored(1.1, 1.0, 10)], 1.0), 1);
        // Never on one try, whatever its gain; any gain at confidence 0.
        assert_eq!(
            chosen(&[first.clone(), scored(9.0, f64::INFINITY, 1)], 1.0),
            0
        );
        assert_eq!(chosen(&[first.clone(), scored(0.1, 5.0, 2)], 0.0), 1);
        // The best of those that clear the bar.
        let three = [first, scored(3.0, 0.5, 4), scored(2.0, 0.1, 4)];
        assert_eq!(chosen(&three, 1.0), 1);
    }
}
