//! The look-ahead AI (profile kind `Search`): the utility AI proposes its
//! best first commands, and each is tried on copies of the battle, played
//! on by both sides' utility AI through the enemy's replies, and judged by
//! what stands at the end. The dice of each try are sampled from the rules'
//! own rolls (Monte Carlo over the real outcome distributions: every
//! modifier, reaction, variant and splash the rules apply), with the same
//! dice for every candidate in a round (common random numbers), so the
//! candidates are compared on the same luck: each unit's k-th command of a
//! try rolls from its own seed (the round's, the unit's name and k), so an
//! enemy's reply has the same luck whatever the candidate rolled before it
//! (measured on hill: this halves the spread of a candidate's gain, worth
//! four times the tries).
//!
//! Budget and determinism: a decision spends a budget of *work* in its
//! tries (the profile's `budget`), never wall time, in rounds of one try
//! per candidate, so it is anytime (more budget, more rounds, a sharper
//! mean) and the same seed and budget always give the same command. Work
//! is counted in the attacks the rules gather
//! ([`crate::rules::modifiers::Gathered`]), most of what
//! a command of a try costs, plus each command's walk over the map (its
//! reach and the enemies'; [`command_overhead`]): a command with many
//! targets in reach costs more than one with none, and the count follows
//! the time to within a sixth where commands alone were off by half.
//! Its dice seed is drawn from the AI's stream ([`Dice::pick_seed`]), never
//! the rules' rolls, so a replay of the commands rolls the same rules' dice.
//! With [`TryThreads`] at 2, a helper thread plays the next candidate's
//! try of a round beside each: the same tries, counted in the same order.
//!
//! What its side may know (V8.10): the candidates are read from its side's
//! view, and the copy the tries are played on holds only what its side
//! knows: an enemy hidden from it is set down out of the battle there
//! (`sandbox::leave_out_hidden`), so a try can neither run into it nor be struck
//! by it, and no try tells where it stands. A battle a try wins while some
//! are left out is not counted as won. With no enemy in its sight at all
//! it decides as the utility AI does.

use super::profile::Profile;
pub use super::sandbox::{COMMAND_WORK, command_overhead};
use super::sandbox::{Sandbox, Tried, try_on_helper};
use super::sight::{enemies_in_sight, hide_before_ending, hide_plan};
use super::utility::plans;
pub use super::verdict::Considered;
use super::verdict::{chosen, gain_over_first, untried};
use crate::battle::{Side, name_of};
use crate::dice::Dice;
use crate::rules::command::Command;
use bevy::prelude::*;

/// A decision of the look-ahead, for `--explain`, the log of `sim` and the
/// window's intent markers.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Thought {
    /// The deciding unit.
    pub unit: String,
    /// The candidates, best first by score.
    pub considered: Vec<Considered>,
    /// Commands played in all the tries.
    pub nodes: usize,
    /// Work spent in all the tries (attacks gathered, plus
    /// [`command_overhead`] a command): what the budget bounds.
    pub work: usize,
    /// The work of the costliest try: the budget is overrun by at most
    /// one try, begun while one of the mean so far still fitted.
    pub largest_try: usize,
    /// Tries played on a helper thread ([`TryThreads`]), counted among
    /// the rest: the same tries as on one thread.
    pub helped: usize,
    /// Why the search was not run, when it was not (one plan, an enemy
    /// hidden).
    pub skipped: Option<&'static str>,
}

/// The next command of `me` by the look-ahead of `profile`; the decision's
/// [`Thought`] is left in `world`.
pub fn decide(world: &mut World, me: Entity, profile: &Profile) -> Command {
    let set = &profile.search;
    let w = &profile.weights;
    let unit = name_of(world, me);
    let mut candidates = plans(world, me, w, set.width.max(1));
    candidates.extend(hide_plan(world, me, &candidates));
    let skip = if candidates.len() < 2 {
        Some("one plan")
    } else if world
        .get::<Side>(me)
        .is_none_or(|s| enemies_in_sight(world, s.0).is_empty())
    {
        hide_before_ending(&mut candidates);
        Some("no enemy in its side's sight (V8.10)")
    } else {
        None
    };
    if let Some(why) = skip {
        let command = candidates[0].command.clone();
        world.insert_resource(Thought {
            unit,
            considered: candidates.iter().map(untried).collect(),
            nodes: 0,
            work: 0,
            largest_try: 0,
            helped: 0,
            skipped: Some(why),
        });
        return command;
    }
    let seed = world.resource_mut::<Dice>().pick_seed();
    let noise: Vec<f64> = (0..candidates.len())
        .map(|_| {
            if set.noise > 0.0 {
                let r = world.resource_mut::<Dice>().pick(2001) as f64;
                set.noise * (r - 1001.0) / 1000.0
            } else {
                0.0
            }
        })
        .collect();
    let Some(mut sandbox) = Sandbox::new(world, me, profile) else {
        return candidates[0].command.clone();
    };
    let mut considered: Vec<Considered> = candidates.iter().map(untried).collect();
    let n = considered.len();
    // Each candidate's swing in each round: round r's dice are the same
    // for all, so candidates are compared try by try.
    let mut swings: Vec<Vec<f64>> = vec![vec![]; n];
    let mut alive = vec![true; n];
    // The budget is in commands' worth of work ([`COMMAND_WORK`]).
    let mut spent = Spent::new(set.budget * COMMAND_WORK);
    let helper = world.get_resource::<TryThreads>().is_some_and(|t| t.0 > 1);
    let mut round = 0u64;
    while spent.fits() {
        let dice = seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let record = round == 0;
        let mut i = 0;
        while i < n {
            // The budget holds within a round, the first too: a candidate
            // is compared on the tries it had, and one never tried is
            // never chosen (the utility's choice, tried first, stands).
            if !alive[i] || !spent.fits() {
                i += 1;
                continue;
            }
            // With a helper thread, the next candidate in the round is
            // tried beside this one, and its try counted only where the
            // budget would have begun it after this one: the same tries,
            // counted in the same order, as on one thread.
            let next = (i + 1..n).find(|&j| alive[j]).filter(|_| helper);
            let ahead = next.and_then(|j| {
                let (setup, first) = (sandbox.setup(), considered[j].command.clone());
                let replies = set.replies;
                super::helper::start(move || try_on_helper(setup, &first, dice, replies, record))
            });
            let tried = sandbox.try_out(Some(&considered[i].command), dice, set.replies, record);
            spent.add(&tried);
            take(&mut considered[i], &mut swings[i], tried, record);
            i += 1;
            if let (Some(j), Some(ahead)) = (next, ahead) {
                if spent.fits() {
                    let c = &mut considered[j];
                    let tried = match ahead.wait().flatten() {
                        Some(tried) => {
                            spent.helped += 1;
                            tried
                        }
                        None => sandbox.try_out(Some(&c.command), dice, set.replies, record),
                    };
                    spent.add(&tried);
                    take(c, &mut swings[j], tried, record);
                }
                i = j + 1;
            }
        }
        round += 1;
        // A candidate clearly worse than the utility's own choice is tried
        // no more: the budget goes to those still in doubt.
        for (i, alive) in alive.iter_mut().enumerate().skip(1) {
            let (gain, spread) = gain_over_first(&considered, &swings, i, set.prior);
            if *alive && gain + 2.0 * spread < 0.0 {
                *alive = false;
            }
        }
        if alive.iter().filter(|a| **a).count() < 2 {
            break;
        }
    }
    let scale = sandbox.mean_worth();
    for i in 0..n {
        let (gain, spread) = gain_over_first(&considered, &swings, i, set.prior);
        let c = &mut considered[i];
        let tries = c.tries.max(1) as f64;
        c.swing = swings[i].iter().sum::<f64>() / tries;
        c.harm.iter_mut().for_each(|(_, h)| *h /= tries);
        c.score = gain + noise[i] * scale;
        c.spread = spread;
    }
    let chosen = chosen(&considered, set.confidence);
    let pick = considered.remove(chosen);
    considered.sort_by(|a, b| b.score.total_cmp(&a.score));
    considered.insert(0, pick);
    let command = considered[0].command.clone();
    world.insert_resource(Thought {
        unit,
        considered,
        nodes: spent.nodes,
        work: spent.work,
        largest_try: spent.largest,
        helped: spent.helped,
        skipped: None,
    });
    command
}

/// How many threads a decision's tries are played on: 1 (where no such
/// resource is) or 2, a helper thread ([`super::helper`]) playing the next
/// candidate's try of a round beside each. The decisions are the same
/// either way, command for command; only their time differs. The
/// window's AI sets 2 where the machine has two cores or more; `sim`
/// keeps 1, its battles already filling the cores (`--jobs`).
#[derive(Resource, Clone, Copy, Debug)]
pub struct TryThreads(pub usize);

impl TryThreads {
    /// Two threads where the machine has two cores or more, else one.
    pub fn of_machine() -> TryThreads {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        TryThreads(cores.min(2))
    }
}

/// The work a decision's tries have spent against its budget.
struct Spent {
    budget: usize,
    work: usize,
    nodes: usize,
    played: usize,
    /// The work of the costliest try.
    largest: usize,
    /// Tries played on the helper thread.
    helped: usize,
}

impl Spent {
    fn new(budget: usize) -> Spent {
        Spent {
            budget,
            work: 0,
            nodes: 0,
            played: 0,
            largest: 0,
            helped: 0,
        }
    }

    /// Whether a try may begin: only while one of the mean work so far
    /// still fits, so the budget bounds the time, not only aims at it.
    fn fits(&self) -> bool {
        self.work + self.work / self.played.max(1) <= self.budget
    }

    fn add(&mut self, tried: &Tried) {
        self.nodes += tried.nodes;
        self.work += tried.work;
        self.largest = self.largest.max(tried.work);
        self.played += 1;
    }
}

/// Counts a try of candidate `c` (`swings`: its swing in each round);
/// `record`: the first round's, whose line and end are the plan shown.
fn take(c: &mut Considered, swings: &mut Vec<f64>, tried: Tried, record: bool) {
    swings.push(tried.swing);
    c.tries += 1;
    for (name, harm) in tried.harm {
        match c.harm.iter_mut().find(|(n, _)| *n == name) {
            Some((_, h)) => *h += harm,
            None => c.harm.push((name, harm)),
        }
    }
    if record {
        c.line = tried.line;
        c.end = tried.end;
    }
}

impl Thought {
    /// The decision in words, a line each: the unit, then its `top` best
    /// candidates with their values (`sim --explain`).
    pub fn lines(&self, top: usize) -> Vec<String> {
        let mut out = vec![match self.skipped {
            Some(why) => format!("  [AI] {} decides without looking ahead: {why}", self.unit),
            None => format!(
                "  [AI] {} looks ahead ({} commands of tries, {} work{}):",
                self.unit,
                self.nodes,
                self.work,
                match self.helped {
                    0 => String::new(),
                    n => format!("; {n} tries on a second thread"),
                }
            ),
        }];
        for (i, c) in self.considered.iter().take(top).enumerate() {
            let line = if c.line.is_empty() {
                c.command.to_string()
            } else {
                c.line
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", then ")
            };
            let values = if c.tries == 0 {
                format!("utility {:.2}", c.utility)
            } else {
                format!(
                    "gain {:+.2} ± {:.2} over the utility's choice: swing {:+.2} over {} tries, utility {:.2}",
                    c.score, c.spread, c.swing, c.tries, c.utility
                )
            };
            out.push(format!("  [AI]   {}. {line} ({values})", i + 1));
        }
        out
    }
}
