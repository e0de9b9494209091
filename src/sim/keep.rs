//! A run's battles kept as they end (`sim --keep FILE`), so that a run of
//! hours stopped part way (a session's end, a machine switched off) goes
//! on where it stopped instead of from the start.
//!
//! The file is JSON lines: first the run it belongs to (level, profiles,
//! seed, sides swapped), then one [`GameResult`] a line in the order the
//! battles ended. A game's seed is its index's ([`game_seed`]), so the
//! battles kept and those played after are the ones one unbroken run plays,
//! and its report is the same, byte for byte. A larger `--games` adds
//! battles to a kept run.

use super::{Battles, GameResult, SimConfig, game_seed};
use crate::load::Diagnostic;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The run a file keeps the battles of: its first line. Kept battles go
/// on only the same profile A's run on the same battles.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Run {
    a: String,
    #[serde(flatten)]
    battles: Battles,
}

impl Run {
    fn of(config: &SimConfig) -> Run {
        Run {
            a: config.a.name.clone(),
            battles: Battles::of(config),
        }
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Battles {
            level,
            b,
            seed,
            swap,
        } = &self.battles;
        let swap = if *swap { ", sides swapped" } else { "" };
        write!(f, "{level}, {} vs {b}, seed {seed}{swap}", self.a)
    }
}

/// Keeps each battle of a run in a file as it ends.
pub struct Keeper {
    path: PathBuf,
    file: Mutex<File>,
}

impl Keeper {
    /// Opens `path` for the run of `config` (creating it when missing) and
    /// returns the battles it already keeps. A last line without its end
    /// (the run was stopped while writing it) is dropped from the file: that
    /// battle is played again. An error names the file, and the line and
    /// column where there is one: a file of another run, a line that is no
    /// battle, or a battle whose seed is not its index's in this run.
    pub fn open(path: &Path, config: &SimConfig) -> Result<(Keeper, Vec<GameResult>), Diagnostic> {
        let fail = |at: Option<(usize, usize)>, message: String| Diagnostic {
            file: path.display().to_string(),
            at,
            message,
        };
        let io = |e: std::io::Error| fail(None, e.to_string());
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        // Only whole lines count: what follows the last line end was cut
        // short.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let run = Run::of(config);
        let mut lines = text[..whole].lines().enumerate().map(|(i, l)| (i + 1, l));
        if let Some((n, line)) = lines.next() {
            let theirs: Run = serde_json::from_str(line).map_err(|e| {
                let message = format!("not a file of kept battles: {e}");
                fail(Some((n, e.column())), message)
            })?;
            if theirs != run {
                let message = format!(
                    "the battles of another run ({theirs}) are kept here, not of this one \
                     ({run}): name another file, or run that run's command"
                );
                return Err(fail(Some((n, 1)), message));
            }
        }
        let mut kept: Vec<GameResult> = Vec::new();
        for (n, line) in lines {
            let r: GameResult = serde_json::from_str(line)
                .map_err(|e| fail(Some((n, e.column())), format!("not a kept battle: {e}")))?;
            if r.seed != game_seed(config.seed, r.index) || r.swapped != config.swapped(r.index) {
                let message = format!(
                    "battle {} was not played with this run's seed and sides",
                    r.index
                );
                return Err(fail(Some((n, 1)), message));
            }
            if !kept.iter().any(|k| k.index == r.index) {
                kept.push(r);
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if whole < text.len() {
            file.set_len(whole as u64).map_err(io)?;
        }
        if whole == 0 {
            let header = serde_json::to_string(&run).map_err(|e| fail(None, e.to_string()))?;
            file.write_all(format!("{header}\n").as_bytes())
                .map_err(io)?;
        }
        let keeper = Keeper {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        };
        Ok((keeper, kept))
    }

    /// Adds a battle to the file, in one write of one line, so that a run
    /// stopped at any moment leaves whole lines and at most one cut short.
    pub fn keep(&self, result: &GameResult) -> Result<(), Diagnostic> {
        let fail = |message: String| Diagnostic {
            file: self.path.display().to_string(),
            at: None,
            message,
        };
        let line = serde_json::to_string(result).map_err(|e| fail(e.to_string()))?;
        let mut file = self
            .file
            .lock()
            .map_err(|_| fail("a thread panicked keeping a battle".into()))?;
        file.write_all(format!("{line}\n").as_bytes())
            .map_err(|e| fail(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_kept_before_the_battles_were_named_apart_is_still_read() {
        // The first line as builds before `Battles` wrote it (the fields in
        // another order): a run stopped then goes on.
        let old = r#"{"level":"Giant's Hill","a":"normal","b":"greedy","seed":5,"swap":true}"#;
        let run: Run = serde_json::from_str(old).expect("the old first line");
        let battles = Battles {
            level: "Giant's Hill".into(),
            b: "greedy".into(),
            seed: 5,
            swap: true,
        };
        let expected = Run {
            a: "normal".into(),
            battles,
        };
        assert_eq!(run, expected);
        assert_eq!(
            run.to_string(),
            "Giant's Hill, normal vs greedy, seed 5, sides swapped"
        );
        // What this build writes reads back as itself.
        let again: Run = serde_json::from_str(&serde_json::to_string(&run).unwrap()).unwrap();
        assert_eq!(again, run);
    }
}
