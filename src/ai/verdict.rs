//! The verdict of the look-ahead's tries ([`super::search`]): how much each
//! candidate gained over the utility AI's own choice on the same dice, how
//! sure that gain is, and which candidate is played.

use super::utility::Plan;
use crate::grid::Pos;
use crate::rules::command::Command;

/// One candidate first command and what its tries came to.
#[derive(Clone, Debug, PartialEq)]
pub struct Considered {
    /// The first command.
    pub command: Command,
    /// The utility AI's value of the plan it begins.
    pub utility: f64,
    /// The mean change of the balance of worth over its tries (ours minus
    /// the enemy's; a win or a loss counts every unit of the losing side).
    pub swing: f64,
    /// Tries played.
    pub tries: usize,
    /// What it is worth beyond the utility AI's own choice (the first
    /// candidate, 0): its mean gain of swing over the same dice, plus
    /// `prior` times the gain of utility value, plus any noise.
    pub score: f64,
    /// The standard error of that gain over its tries.
    pub spread: f64,
    /// The deciding unit's commands in its first try: the plan as it
    /// played out (where it goes, whom it attacks).
    pub line: Vec<Command>,
    /// Mean damage each enemy had taken when the deciding unit's turn
    /// ended, over the tries, by name: whom it attacks and what it expects
    /// to do. HP and AR; where hits injure only (V3 as 001) its injuries
    /// counted as HP, as the tries' balance counts them.
    pub harm: Vec<(String, f64)>,
    /// Where the deciding unit stood when its turn ended in the first try.
    pub end: Option<Pos>,
}

/// A candidate before its tries: the utility's plan and value alone.
pub(super) fn untried(plan: &Plan) -> Considered {
    Considered {
        command: plan.command.clone(),
        utility: plan.value,
        swing: 0.0,
        tries: 0,
        score: 0.0,
        spread: 0.0,
        line: vec![],
        harm: vec![],
        end: None,
    }
}

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

    fn scored(score: f64, spread: f64, tries: usize) -> Considered {
        Considered {
            score,
            spread,
            tries,
            ..untried(&Plan {
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
