//! A run set beside an earlier one on the same battles (`sim --paired
//! FILE`): the same level, opponent, seed and sides play the same
//! battles (a game's dice are its index's, [`super::game_seed`]), so two
//! versions of profile A, two profiles or two builds, are compared only
//! where they came out otherwise. Most battles come out the same for
//! both, and the few that differ carry the whole comparison: a paired
//! (sign) test on them is far sharper than two win rates, each with a
//! spread of several points over 200 battles.

use super::{Battles, Report};
use crate::load::Diagnostic;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// What a run is paired on: the fields of an earlier run's JSON report
/// (`sim --json`) that say which battles it played and how each ended.
#[derive(Clone, Debug, Deserialize)]
pub struct Earlier {
    /// Its profile A: the one compared.
    pub a: String,
    /// The battles it played: the same for both runs.
    #[serde(flatten)]
    pub played: Battles,
    /// Each battle's winner in order: `A`, `B` or `-` ([`Report::battles`]).
    pub battles: String,
}

impl Earlier {
    /// Reads the JSON report at `path`. An error names the file, and the
    /// line and column where the JSON breaks or a field is missing.
    pub fn read(path: &Path) -> Result<Earlier, Diagnostic> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Diagnostic {
            file: file.clone(),
            at: None,
            message: e.to_string(),
        })?;
        serde_json::from_str(&text).map_err(|e| Diagnostic {
            file,
            at: Some((e.line(), e.column())),
            message: format!("not a `sim --json` report: {e}"),
        })
    }

    /// Whether a run that plays `battles` plays the same ones as this one;
    /// if not, what differs.
    pub fn check(&self, battles: &Battles) -> Result<(), String> {
        match battles.differs(&self.played) {
            None => Ok(()),
            Some(what) => Err(format!("not the same battles: {what}")),
        }
    }
}

/// A run beside an earlier one, battle by battle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Paired {
    /// The earlier run's profile A.
    pub with: String,
    /// Battles both runs played (the first of each).
    pub battles: usize,
    /// Battles this run's A came out of better (won where the earlier
    /// lost or drew, or drew where it lost).
    pub ahead: usize,
    /// Battles it came out of worse.
    pub behind: usize,
    /// The sign test's two-sided p: how often chance alone, each differing
    /// battle a coin toss, splits them at least this unevenly.
    pub p: f64,
}

impl Paired {
    /// `report` beside `earlier`, battle by battle. The two must have
    /// played the same battles: `sim` checks that with [`Earlier::check`]
    /// before its run, so that a wrong file fails at once.
    pub fn of(report: &Report, earlier: &Earlier) -> Paired {
        let (battles, ahead, behind) = compare(&report.battles, &earlier.battles);
        Paired {
            with: earlier.a.clone(),
            battles,
            ahead,
            behind,
            p: sign_test(ahead, behind),
        }
    }
}

impl fmt::Display for Paired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "paired with {} over {} battles: +{} / -{} (sign test, two-sided p = {:.3})",
            self.with, self.battles, self.ahead, self.behind, self.p
        )
    }
}

/// Battle by battle over the first of both (`A`, `B`, `-` each, as
/// [`Report::battles`]): how many were compared, and in how many A came
/// out better `here` than `there`, and worse. A win counts over a draw and
/// a draw over a loss: a draw where the other lost is better, as a win
/// where it drew.
fn compare(here: &str, there: &str) -> (usize, usize, usize) {
    let score = |c: char| match c {
        'A' => 2,
        '-' => 1,
        _ => 0,
    };
    let (mut battles, mut ahead, mut behind) = (0, 0, 0);
    for (h, t) in here.chars().zip(there.chars()) {
        battles += 1;
        match score(h).cmp(&score(t)) {
            std::cmp::Ordering::Greater => ahead += 1,
            std::cmp::Ordering::Less => behind += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    (battles, ahead, behind)
}

/// The exact two-sided sign test: the chance that `ahead + behind` fair
/// coin tosses split at least as unevenly as these.
fn sign_test(ahead: usize, behind: usize) -> f64 {
    let n = ahead + behind;
    let k = ahead.min(behind);
    // An even split, or one battle off it: every split is at least this
    // uneven. Said exactly, not summed (half the tosses' chance, doubled,
    // comes out a rounding under 1 in logarithms).
    if 2 * k + 1 >= n {
        return 1.0;
    }
    // P(X <= k) for X ~ Binomial(n, 1/2), each term in logarithms (n
    // reaches thousands, where 2^n overflows).
    let ln_half_n = n as f64 * 0.5_f64.ln();
    let mut ln_choose = 0.0; // ln C(n, 0)
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_report_says_which_battles_it_played() {
        // A report's own words: `swapped`, with the rest of the report
        // beside the fields read.
        let report = r#"{"level": "Ford", "a": "n720", "b": "utility1", "seed": 5,
            "games": 2, "swapped": true, "refused": 0, "battles": "AB"}"#;
        let earlier: Earlier = serde_json::from_str(report).expect("a report");
        let played = |seed, swap| Battles {
            level: "Ford".into(),
            b: "utility1".into(),
            seed,
            swap,
        };
        assert_eq!(earlier.played, played(5, true));
        assert_eq!(
            (earlier.a.as_str(), earlier.battles.as_str()),
            ("n720", "AB")
        );
        assert_eq!(earlier.check(&played(5, true)), Ok(()));
        assert_eq!(
            earlier.check(&played(4, true)),
            Err("not the same battles: this run's seed is 4, the earlier run's 5".into())
        );
        assert_eq!(
            earlier.check(&played(5, false)),
            Err("not the same battles: this run's --swap is false, the earlier run's true".into())
        );
    }

    #[test]
    fn battles_are_compared_one_by_one_draws_between() {
        // Won where it lost, won where it drew, drew where it lost (twice):
        // ahead; lost where it won, drew where it won: behind; both won:
        // the same.
        assert_eq!(compare("AA-AB--", "B-BAABA"), (7, 4, 2));
        // Only the battles both played.
        assert_eq!(compare("AAAA", "BB"), (2, 2, 0));
        assert_eq!(compare("", "AB"), (0, 0, 0));
    }

    #[test]
    fn the_sign_test_matches_the_binomial() {
        // 5 of 5 one way: 2 / 32.
        assert!((sign_test(5, 0) - 0.0625).abs() < 1e-12);
        assert!((sign_test(0, 5) - 0.0625).abs() < 1e-12);
        // 24 against 12: 2 P(X <= 12), X ~ B(36, 1/2) = 0.0652 (tables).
        assert!(
            (sign_test(24, 12) - 0.0652).abs() < 5e-4,
            "{}",
            sign_test(24, 12)
        );
        // An even split, or nothing differing, is no evidence at all.
        assert_eq!(sign_test(7, 7), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
        // 1 against 2: every split of 3 is at least this uneven.
        assert_eq!(sign_test(1, 2), 1.0);
        assert_eq!(sign_test(14, 13), 1.0);
        // Thousands of battles stay finite: 1100 against 900, p about 1e-5.
        let big = sign_test(1100, 900);
        assert!(big > 1e-6 && big < 1e-4, "{big}");
    }
}
