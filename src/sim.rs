//! Headless balance simulation (`skirmish sim`): many battles of one level
//! between two AI profiles, in parallel, and a report a designer can trust:
//! wins with a 95% confidence interval, draws, rounds, and what each unit
//! kind dealt, took, dropped and lost.
//!
//! Deterministic: game `i` has its own seed derived from the run's seed,
//! its result goes to slot `i`, and the report is built in game order, so
//! the number of threads changes the speed, never the figures. A long run
//! can keep each battle as it ends ([`Keeper`], `sim --keep FILE`) and,
//! stopped part way, go on where it stopped.

mod keep;
mod paired;

pub use keep::Keeper;
pub use paired::{Earlier, Paired};

use crate::ai::{Players, Profile, play};
use crate::battle::units;
use crate::battle::{Dead, Dying, Side, Stable, Stats, Tally};
use crate::load::ValidLevel;
use crate::rules::command::ManeuverKind;
use crate::rules::{Outcome, TurnState};
use crate::setup::headless_app;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most commands one battle may take before it counts as stalled.
pub const COMMAND_LIMIT: usize = 50_000;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The level.
    pub level: ValidLevel,
    /// Number of battles.
    pub games: usize,
    /// Profile A (side 0 unless swapped).
    pub a: Profile,
    /// Profile B (the other sides unless swapped).
    pub b: Profile,
    /// The run's seed: game `i` plays with [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Swap sides every other game, cancelling the map's bias.
    pub swap: bool,
}

impl SimConfig {
    /// Profile B plays side 0 in game `index`: every other game with
    /// `swap`.
    pub fn swapped(&self, index: usize) -> bool {
        self.swap && index % 2 == 1
    }
}

/// Which battles a run plays: runs of the same level against the same
/// opponent (profile B), with the same seed and sides, play the same
/// battles, game `i` on [`game_seed`]`(seed, i)`'s dice, whatever profile
/// A is. What a kept run ([`Keeper`]) and a paired one ([`Earlier`]) must
/// share, defined once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Battles {
    /// The level's name.
    pub level: String,
    /// Profile B: the opponent.
    pub b: String,
    /// The run's seed.
    pub seed: u64,
    /// Sides swapped every other battle (`swapped` in a report).
    #[serde(alias = "swapped")]
    pub swap: bool,
}

impl Battles {
    /// The battles `config` plays.
    pub fn of(config: &SimConfig) -> Battles {
        Battles {
            level: config.level.name().to_string(),
            b: config.b.name.clone(),
            seed: config.seed,
            swap: config.swap,
        }
    }

    /// The first thing in which this run's battles (`self`) and an earlier run's
    /// (`there`) differ, in words, or `None` when they are the same.
    pub fn differs(&self, there: &Battles) -> Option<String> {
        let says = |what: &str, here: &dyn fmt::Display, there: &dyn fmt::Display| {
            Some(format!(
                "this run's {what} is {here}, the earlier run's {there}"
            ))
        };
        if self.level != there.level {
            return says("level", &self.level, &there.level);
        }
        if self.b != there.b {
            return says("opponent (--vs)", &self.b, &there.b);
        }
        if self.seed != there.seed {
            return says("seed", &self.seed, &there.seed);
        }
        if self.swap != there.swap {
            return says("--swap", &self.swap, &there.swap);
        }
        None
    }
}

/// The seed of game `index` of a run seeded `seed` (SplitMix64 of the two:
/// neighbouring games get unrelated dice).
pub fn game_seed(seed: u64, index: usize) -> u64 {
    let z = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    crate::dice::mix64(z.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// One unit's part in one battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitRecord {
    /// Its kind (template).
    pub kind: String,
    /// Played by profile A (`false`: B).
    pub by_a: bool,
    /// Damage dealt (before armor).
    pub dealt: i32,
    /// Damage taken (before armor).
    pub taken: i32,
    /// Enemies it dropped.
    pub kills: u32,
    /// Out of action at the end (dying, stable or dead).
    pub fell: bool,
}

/// One battle's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// Its index in the run.
    pub index: usize,
    /// Its seed.
    pub seed: u64,
    /// Profile B played side 0.
    pub swapped: bool,
    /// The winning side, `None` for a draw.
    pub winner_side: Option<usize>,
    /// The winner was profile A (`None`: a draw).
    pub a_won: Option<bool>,
    /// Rounds played.
    pub rounds: u32,
    /// Commands accepted.
    pub commands: usize,
    /// Commands the rules refused (an AI bug if not 0).
    pub refused: usize,
    /// The battle hit [`COMMAND_LIMIT`].
    pub stalled: bool,
    /// Every unit's part.
    pub units: Vec<UnitRecord>,
    /// Maneuvers tried (V7): by profile A (`true`) or B, the kind, how
    /// many, and how many succeeded.
    pub maneuvers: Vec<(bool, ManeuverKind, u32, u32)>,
}

/// Plays game `index` of `config`.
pub fn play_game(config: &SimConfig, index: usize) -> GameResult {
    play_logged(config, index).0
}

/// Plays game `index` of `config` and returns its combat log too.
pub fn play_logged(config: &SimConfig, index: usize) -> (GameResult, String) {
    play_explained(config, index, 0)
}

/// Like [`play_logged`], with the `top` best plans each look-ahead
/// decision considered written in the log before its command (`sim
/// --explain`; 0: none).
pub fn play_explained(config: &SimConfig, index: usize, top: usize) -> (GameResult, String) {
    let seed = game_seed(config.seed, index);
    let swapped = config.swapped(index);
    let mut app = headless_app(&config.level, seed);
    let world = app.world_mut();
    let sides = config.level.sides().len();
    let players = Players(
        (0..sides)
            .map(|s| {
                let a_side = (s == 0) != swapped;
                Some(if a_side {
                    config.a.clone()
                } else {
                    config.b.clone()
                })
            })
            .collect(),
    );
    players.clone().install(world);
    let played = play(world, &players, COMMAND_LIMIT);
    let turn = world.resource::<TurnState>();
    let winner_side = match &turn.outcome {
        Some(Outcome::Victory { side, .. }) => Some(*side),
        _ => None,
    };
    let rounds = turn.round;
    let is_a = |side: usize| (side == 0) != swapped;
    let units = units(world)
        .into_iter()
        .filter_map(|e| {
            let entity = world.entity(e);
            let tally = entity.get::<Tally>().copied().unwrap_or_default();
            Some(UnitRecord {
                kind: entity.get::<Stats>()?.kind.clone(),
                by_a: is_a(entity.get::<Side>()?.0),
                dealt: tally.dealt,
                taken: tally.taken,
                kills: tally.downed,
                fell: entity.contains::<Dying>()
                    || entity.contains::<Stable>()
                    || entity.contains::<Dead>(),
            })
        })
        .collect();
    let mut maneuvers: BTreeMap<(bool, ManeuverKind), (u32, u32)> = BTreeMap::new();
    let sides: Vec<usize> = crate::battle::units(world)
        .into_iter()
        .map(|e| world.get::<Side>(e).map_or(0, |s| s.0))
        .collect();
    for e in world.resource::<crate::rules::BattleEvents>().all() {
        if let crate::rules::BattleEvent::AttackRolled(a) = e
            && let Some(kind) = a.maneuver
            && let Some(side) = sides.get(a.attacker.0 as usize)
        {
            let n = maneuvers.entry((is_a(*side), kind)).or_default();
            n.0 += 1;
            n.1 += u32::from(a.degrees > 0);
        }
    }
    // Refused AI commands are in the log as `refused ...` lines.
    let log = explained_log(world, &played.thoughts, top);
    let result = GameResult {
        index,
        seed,
        swapped,
        winner_side,
        a_won: winner_side.map(is_a),
        rounds,
        commands: played.commands,
        refused: played.refused.len(),
        stalled: played.stalled,
        units,
        maneuvers: maneuvers
            .into_iter()
            .map(|((a, k), (t, s))| (a, k, t, s))
            .collect(),
    };
    (result, log)
}

/// The combat log of the battle in `world` with each decision's `top`
/// plans before the events of its command.
fn explained_log(
    world: &bevy::prelude::World,
    thoughts: &[(usize, crate::ai::search::Thought)],
    top: usize,
) -> String {
    use crate::rules::log::{Names, event_lines};
    let names = Names::of(world);
    let events = world.resource::<crate::rules::BattleEvents>().all();
    let mut thoughts = thoughts.iter().filter(|_| top > 0).peekable();
    let mut out = String::new();
    for (i, event) in events.iter().enumerate() {
        while let Some((_, t)) = thoughts.next_if(|(at, _)| *at <= i) {
            t.lines(top)
                .iter()
                .for_each(|l| out.push_str(&format!("{l}\n")));
        }
        event_lines(event, &names)
            .iter()
            .for_each(|l| out.push_str(&format!("{l}\n")));
    }
    out
}

/// Plays every game of `config` on `config.jobs` threads; `done` is called
/// after each game (for a progress bar). Results are in game order.
pub fn run(config: &SimConfig, done: impl Fn() + Sync) -> Vec<GameResult> {
    run_on(config, Vec::new(), |_| done())
}

/// Plays the games of `config` that `kept` (the results an earlier run of
/// the same config kept, [`Keeper`]) does not hold, on `config.jobs`
/// threads; `done` is given each new result as it ends (to keep it, and
/// for a progress bar). Results are in game order, kept and new together:
/// each game's seed is its index's, so they are what one unbroken run
/// would have played.
pub fn run_on(
    config: &SimConfig,
    kept: Vec<GameResult>,
    done: impl Fn(&GameResult) + Sync,
) -> Vec<GameResult> {
    let mut slots: Vec<Option<GameResult>> = vec![None; config.games];
    for r in kept {
        if let Some(slot) = slots.get_mut(r.index) {
            *slot = Some(r);
        }
    }
    let todo: Vec<usize> = (0..config.games).filter(|&i| slots[i].is_none()).collect();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(slots);
    std::thread::scope(|scope| {
        for _ in 0..config.jobs.max(1).min(todo.len().max(1)) {
            scope.spawn(|| {
                while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let r = play_game(config, i);
                    done(&r);
                    results.lock().expect("no thread panics holding it")[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("no thread panicked holding it")
        .into_iter()
        .flatten()
        .collect()
}

/// A share with its 95% confidence interval (Wilson score interval).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    /// Successes.
    pub count: usize,
    /// Trials.
    pub of: usize,
    /// `count / of` (0 when `of` is 0).
    pub rate: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

impl Share {
    /// `count` out of `of`, with its Wilson 95% interval.
    pub fn new(count: usize, of: usize) -> Share {
        if of == 0 {
            return Share {
                count,
                of,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let (n, p, z) = (of as f64, count as f64 / of as f64, 1.96_f64);
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        Share {
            count,
            of,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{} = {:.1}% (95% CI {:.1}–{:.1}%)",
            self.count,
            self.of,
            100.0 * self.rate,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

/// Mean and standard deviation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Standard deviation (population).
    pub sd: f64,
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
}

impl Spread {
    fn of(values: impl Iterator<Item = f64> + Clone) -> Spread {
        let n = values.clone().count().max(1) as f64;
        let mean = values.clone().sum::<f64>() / n;
        let var = values.clone().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        Spread {
            mean,
            sd: var.sqrt(),
            min: values.clone().fold(f64::INFINITY, f64::min),
            max: values.fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// Sums up the records of `units` by kind, per unit and battle.
fn kind_stats<'a>(units: impl Iterator<Item = &'a UnitRecord>) -> BTreeMap<String, KindStats> {
    let mut sums: BTreeMap<String, (usize, i64, i64, u64, usize)> = BTreeMap::new();
    for u in units {
        let k = sums.entry(u.kind.clone()).or_default();
        k.0 += 1;
        k.1 += u.dealt as i64;
        k.2 += u.taken as i64;
        k.3 += u.kills as u64;
        k.4 += usize::from(u.fell);
    }
    sums.into_iter()
        .map(|(kind, (n, dealt, taken, kills, fell))| {
            let per = |x: f64| x / n.max(1) as f64;
            let stats = KindStats {
                units: n,
                dealt: per(dealt as f64),
                taken: per(taken as f64),
                kills: per(kills as f64),
                fell: per(fell as f64),
            };
            (kind, stats)
        })
        .collect()
}

/// One unit kind's figures over the run, per unit and battle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindStats {
    /// Units of this kind over all battles.
    pub units: usize,
    /// Mean damage dealt by one unit in one battle.
    pub dealt: f64,
    /// Mean damage taken.
    pub taken: f64,
    /// Mean enemies dropped.
    pub kills: f64,
    /// Share of them out of action at the end.
    pub fell: f64,
}

/// How often one profile tried one maneuver (V7) over the run, and how
/// often the roll succeeded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ManeuverStats {
    /// The profile's name.
    pub profile: String,
    /// The maneuver ("trip").
    pub kind: String,
    /// Tries.
    pub tried: u32,
    /// Successful rolls.
    pub succeeded: u32,
}

/// The report of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The level's name.
    pub level: String,
    /// Profile A's name.
    pub a: String,
    /// Profile B's name.
    pub b: String,
    /// The run's seed.
    pub seed: u64,
    /// Battles played.
    pub games: usize,
    /// Sides swapped every other game.
    pub swapped: bool,
    /// A's wins among decided battles.
    pub a_wins: Share,
    /// B's wins among decided battles.
    pub b_wins: Share,
    /// Draws among all battles.
    pub draws: Share,
    /// Wins of each map side among decided battles, by side name: the
    /// map's bias.
    pub side_wins: BTreeMap<String, Share>,
    /// Rounds per battle.
    pub rounds: Spread,
    /// Figures per unit kind.
    pub kinds: BTreeMap<String, KindStats>,
    /// The same figures for profile A's units and for profile B's: where
    /// one profile plays a kind better than the other.
    pub kinds_by_profile: [BTreeMap<String, KindStats>; 2],
    /// Maneuvers tried by each profile (V7).
    pub maneuvers: Vec<ManeuverStats>,
    /// Commands the rules refused (0 unless an AI has a bug).
    pub refused: usize,
    /// Battles that hit the command limit.
    pub stalled: usize,
    /// Each battle's winner in order, `A`, `B` or `-` for a draw: two
    /// runs with the same seed play the same battles (the rules' dice are
    /// seeded per battle), so comparing two profiles battle by battle
    /// against the same opponent counts only where they differ (a paired
    /// test, far sharper than two win rates).
    pub battles: String,
    /// This run beside an earlier one on the same battles (`sim --paired`),
    /// when asked for: left out of the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paired: Option<Paired>,
}

impl Report {
    /// Sums up `results` of a run of `config`.
    pub fn new(config: &SimConfig, results: &[GameResult]) -> Report {
        let decided = results.iter().filter(|r| r.a_won.is_some()).count();
        let a = results.iter().filter(|r| r.a_won == Some(true)).count();
        let b = results.iter().filter(|r| r.a_won == Some(false)).count();
        let side_wins = config
            .level
            .sides()
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let won = results.iter().filter(|r| r.winner_side == Some(i)).count();
                (s.name.clone(), Share::new(won, decided))
            })
            .collect();
        let units = || results.iter().flat_map(|r| &r.units);
        let kinds = kind_stats(units());
        let kinds_a = kind_stats(units().filter(|u| u.by_a));
        let kinds_b = kind_stats(units().filter(|u| !u.by_a));
        Report {
            level: config.level.name().to_string(),
            a: config.a.name.clone(),
            b: config.b.name.clone(),
            seed: config.seed,
            games: results.len(),
            swapped: config.swap,
            a_wins: Share::new(a, decided),
            b_wins: Share::new(b, decided),
            draws: Share::new(results.len() - decided, results.len()),
            side_wins,
            rounds: Spread::of(results.iter().map(|r| r.rounds as f64)),
            kinds,
            kinds_by_profile: [kinds_a, kinds_b],
            maneuvers: {
                let mut sum: BTreeMap<(bool, ManeuverKind), (u32, u32)> = BTreeMap::new();
                for (a, k, t, s) in results.iter().flat_map(|r| &r.maneuvers) {
                    let n = sum.entry((*a, *k)).or_default();
                    n.0 += t;
                    n.1 += s;
                }
                sum.into_iter()
                    .rev()
                    .map(|((a, kind), (tried, succeeded))| ManeuverStats {
                        profile: if a { &config.a.name } else { &config.b.name }.clone(),
                        kind: kind.label().to_string(),
                        tried,
                        succeeded,
                    })
                    .collect()
            },
            refused: results.iter().map(|r| r.refused).sum(),
            stalled: results.iter().filter(|r| r.stalled).count(),
            battles: results
                .iter()
                .map(|r| match r.a_won {
                    Some(true) => 'A',
                    Some(false) => 'B',
                    None => '-',
                })
                .collect(),
            paired: None,
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} battles, {} (A) vs {} (B), seed {}{}",
            self.level,
            self.games,
            self.a,
            self.b,
            self.seed,
            if self.swapped {
                ", sides swapped every other battle"
            } else {
                ""
            }
        )?;
        writeln!(f, "  {} wins  {}", self.a, self.a_wins)?;
        writeln!(f, "  {} wins  {}", self.b, self.b_wins)?;
        writeln!(f, "  draws     {}", self.draws)?;
        for (side, share) in &self.side_wins {
            writeln!(f, "  side {side} wins {share}")?;
        }
        writeln!(
            f,
            "  rounds    mean {:.1}, sd {:.1}, min {}, max {}",
            self.rounds.mean, self.rounds.sd, self.rounds.min, self.rounds.max
        )?;
        writeln!(
            f,
            "  {:<12} {:>6} {:>8} {:>8} {:>7} {:>6}   by {} | by {}",
            "kind", "units", "dealt", "taken", "kills", "fell", self.a, self.b
        )?;
        for (kind, k) in &self.kinds {
            let side = |i: usize| {
                self.kinds_by_profile[i]
                    .get(kind)
                    .map_or(String::new(), |k| {
                        format!("{:.1}/{:.1} {:.0}%", k.dealt, k.taken, 100.0 * k.fell)
                    })
            };
            writeln!(
                f,
                "  {:<12} {:>6} {:>8.1} {:>8.1} {:>7.2} {:>5.0}%   {} | {}",
                kind,
                k.units,
                k.dealt,
                k.taken,
                k.kills,
                100.0 * k.fell,
                side(0),
                side(1)
            )?;
        }
        for m in &self.maneuvers {
            writeln!(
                f,
                "  {} tried {:<8} {:>5} times, {:>5} succeeded (V7)",
                m.profile, m.kind, m.tried, m.succeeded
            )?;
        }
        if let Some(paired) = &self.paired {
            writeln!(f, "  {paired}")?;
        }
        if self.refused > 0 || self.stalled > 0 {
            writeln!(
                f,
                "  WARNING: {} refused AI commands, {} stalled battles",
                self.refused, self.stalled
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 75 of 100: 95% Wilson interval 65.7%–82.5%.
        let s = Share::new(75, 100);
        assert!((s.low - 0.6569).abs() < 1e-3, "{s}");
        assert!((s.high - 0.8245).abs() < 1e-3, "{s}");
        let all = Share::new(10, 10);
        assert_eq!(all.high, 1.0);
        assert!(all.low > 0.69 && all.low < 0.73, "{all}");
    }

    #[test]
    fn game_seeds_differ() {
        let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| game_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
    }
}
