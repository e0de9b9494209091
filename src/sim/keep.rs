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

use super::{GameResult, SimConfig, game_seed};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The run a file keeps the battles of: its first line.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Run {
    level: String,
    a: String,
    b: String,
    seed: u64,
    swap: bool,
}

impl Run {
    fn of(config: &SimConfig) -> Run {
        Run {
            level: config.level.name().to_string(),
            a: config.a.name.clone(),
            b: config.b.name.clone(),
            seed: config.seed,
            swap: config.swap,
        }
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let swap = if self.swap { ", sides swapped" } else { "" };
        write!(
            f,
            "{}, {} vs {}, seed {}{swap}",
            self.level, self.a, self.b, self.seed
        )
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
    pub fn open(path: &Path, config: &SimConfig) -> Result<(Keeper, Vec<GameResult>), String> {
        let name = path.display();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{name}: {e}")),
        };
        // Only whole lines count: what follows the last line end was cut
        // short.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let run = Run::of(config);
        let mut lines = text[..whole].lines().enumerate().map(|(i, l)| (i + 1, l));
        if let Some((n, line)) = lines.next() {
            let theirs: Run = serde_json::from_str(line).map_err(|e| {
                format!("{name}:{n}:{}: not a file of kept battles: {e}", e.column())
            })?;
            if theirs != run {
                return Err(format!(
                    "{name} keeps the battles of another run ({theirs}), not of this one \
                     ({run}): name another file, or run that run's command"
                ));
            }
        }
        let mut kept: Vec<GameResult> = Vec::new();
        for (n, line) in lines {
            let r: GameResult = serde_json::from_str(line)
                .map_err(|e| format!("{name}:{n}:{}: not a kept battle: {e}", e.column()))?;
            if r.seed != game_seed(config.seed, r.index)
                || r.swapped != (config.swap && r.index % 2 == 1)
            {
                return Err(format!(
                    "{name}:{n}: battle {} was not played with this run's seed and sides",
                    r.index
                ));
            }
            if !kept.iter().any(|k| k.index == r.index) {
                kept.push(r);
            }
        }
        let io = |e: std::io::Error| format!("{name}: {e}");
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if whole < text.len() {
            file.set_len(whole as u64).map_err(io)?;
        }
        if whole == 0 {
            let header = serde_json::to_string(&run).map_err(|e| e.to_string())?;
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
    pub fn keep(&self, result: &GameResult) -> Result<(), String> {
        let line = serde_json::to_string(result).map_err(|e| e.to_string())?;
        let mut file = self
            .file
            .lock()
            .map_err(|_| "a thread panicked keeping a battle")?;
        file.write_all(format!("{line}\n").as_bytes())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}
