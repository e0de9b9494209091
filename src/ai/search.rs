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
//! is counted in the attacks the rules gather ([`Gathered`]), most of what
//! a command of a try costs, plus each command's walk over the map (its
//! reach and the enemies'; [`command_overhead`]): a command with many
//! targets in reach costs more than one with none, and the count follows
//! the time to within a sixth where commands alone were off by half.
//! Its dice seed is drawn from the AI's stream ([`Dice::pick_seed`]), never
//! the rules' rolls, so a replay of the commands rolls the same rules' dice.
//!
//! What its side may know (V8.10): the candidates are read from its side's
//! view, and the copy the tries are played on holds only what its side
//! knows: an enemy hidden from it is set down out of the battle there
//! ([`leave_out_hidden`]), so a try can neither run into it nor be struck
//! by it, and no try tells where it stands. A battle a try wins while some
//! are left out is not counted as won. With no enemy in its sight at all
//! it decides as the utility AI does.

use super::acts::INJURY_TOLERANCE;
use super::profile::{Profile, Weights};
use super::sight::{enemies_in_sight, hide_before_ending, hide_plan};
use super::situation::Situation;
use super::utility::plans;
pub use super::verdict::Considered;
use super::verdict::{chosen, gain_over_first, untried};
use crate::battle::{ArmorReduction, Battlefield, Dying, GridPos, Health, Side, name_of};
use crate::dice::Dice;
use crate::grid::Pos;
use crate::rules::command::Command;
use crate::rules::events::{BattleEvent, BattleEvents, Outcome};
use crate::rules::modifiers::Gathered;
use crate::rules::variants::injuries::{self, Injuries};
use crate::rules::{TurnState, submit};
use crate::save::SaveGame;
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
    let mut nodes = 0;
    let mut largest_try = 0;
    // The budget is in commands' worth of work ([`COMMAND_WORK`]).
    let budget = set.budget * COMMAND_WORK;
    let (mut spent, mut played) = (0, 0);
    // A try is begun only when one of the mean work so far still fits:
    // the budget is a bound on the time, not only a target.
    let fits = |spent: usize, played: usize| spent + spent / played.max(1) <= budget;
    let mut round = 0u64;
    while fits(spent, played) {
        let dice = seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for (i, c) in considered.iter_mut().enumerate() {
            // The budget holds within a round, the first too: a candidate
            // is compared on the tries it had, and one never tried is
            // never chosen (the utility's choice, tried first, stands).
            if !alive[i] || !fits(spent, played) {
                continue;
            }
            let tried = sandbox.try_out(Some(&c.command), dice, set.replies, round == 0);
            nodes += tried.nodes;
            spent += tried.work;
            largest_try = largest_try.max(tried.work);
            played += 1;
            swings[i].push(tried.swing);
            c.tries += 1;
            for (name, harm) in tried.harm {
                match c.harm.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, h)) => *h += harm,
                    None => c.harm.push((name, harm)),
                }
            }
            if round == 0 {
                c.line = tried.line;
                c.end = tried.end;
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
    let scale = sandbox.mean_worth;
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
        nodes,
        work: spent,
        largest_try,
        skipped: None,
    });
    command
}

impl Thought {
    /// The decision in words, a line each: the unit, then its `top` best
    /// candidates with their values (`sim --explain`).
    pub fn lines(&self, top: usize) -> Vec<String> {
        let mut out = vec![match self.skipped {
            Some(why) => format!("  [AI] {} decides without looking ahead: {why}", self.unit),
            None => format!(
                "  [AI] {} looks ahead ({} commands of tries, {} work):",
                self.unit, self.nodes, self.work
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

/// Sets down in `save` every enemy hidden from `side` as out of the
/// battle, and no longer hidden (V8.10): on a copy made from it, a try
/// plays on what `side` knows. Out of the battle, such a unit blocks no
/// path, gives no cover, takes no turn and strikes no one, wherever it
/// stood; no longer hidden, nothing a try does reveals it (V8.6), so the
/// try is the same wherever it stands. Where `side` last saw it (its
/// lead, [`crate::battle::LastSeen`]) is kept. Returns whether any was
/// left out.
fn leave_out_hidden(save: &mut SaveGame, side: usize) -> bool {
    let mut any = false;
    for u in &mut save.units {
        if u.side != side && crate::battle::Hidden(u.hidden).from(side) && !u.dead {
            u.dead = true;
            u.dying = None;
            u.hidden = 0;
            any = true;
        }
    }
    any
}

/// What one try came to.
pub(super) struct Tried {
    /// The change of the balance of worth (see [`balance`]).
    pub swing: f64,
    /// Commands played.
    pub nodes: usize,
    /// Its work: attacks gathered, plus [`command_overhead`] a command.
    pub work: usize,
    /// The deciding unit's commands, when recorded.
    pub line: Vec<Command>,
    /// What each enemy had taken as the deciding unit's turn ended.
    pub harm: Vec<(String, f64)>,
    /// Where the deciding unit stood then.
    pub end: Option<Pos>,
}

/// A copy of the battle to try commands on, put back to the decision's
/// position before each try.
pub(super) struct Sandbox {
    /// The copy (given back to this thread's [`COPY`] when done).
    app: Option<App>,
    save: SaveGame,
    /// The weights its side's utility AI plays the tries with.
    weights: Weights,
    /// The weights the enemy's side plays them with (its model of the
    /// enemy, [`crate::ai::Lookahead::enemy`]).
    enemy: Weights,
    me: Entity,
    side: usize,
    /// Each unit the deciding side knows of: its entity in the copy, side,
    /// worth, name, and HP and AR at the decision.
    known: Vec<Known>,
    /// The enemies it knows of, by id: whose turns are the replies.
    enemies: Vec<crate::battle::UnitId>,
    mean_worth: f64,
    before: f64,
    /// The work of a command beside its gatherings on this map.
    overhead: usize,
    /// Commands a try may play ([`crate::ai::Lookahead::length`]).
    length: usize,
    /// Whether enemies hidden from its side were left out of the copy
    /// ([`leave_out_hidden`]): a battle won there is not won.
    blind: bool,
}

struct Known {
    entity: Entity,
    side: usize,
    worth: f64,
    name: String,
    pool: f64,
}

thread_local! {
    /// The last copy of a battle this thread tried commands on. Building a
    /// copy (an app, its schedules, the level spawned) costs more than many
    /// tries, so one is kept per thread and put back to each decision's
    /// position ([`SaveGame::apply`], the window's F9) while the level is
    /// the same.
    static COPY: std::cell::RefCell<Option<App>> = const { std::cell::RefCell::new(None) };
}

/// A copy of the battle `save` holds: this thread's last one when it is of
/// the same level (to be put back to `save`'s position), else a new one.
fn copy_of(world: &World, save: &SaveGame) -> Option<App> {
    let kept = COPY.with(|c| c.borrow_mut().take());
    if let Some(app) = kept
        && app.world().resource::<Battlefield>().0.source == save.level
    {
        return Some(app);
    }
    save.restore(&world.resource::<Battlefield>().0.catalog)
        .ok()
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(app) = self.app.take() {
            COPY.with(|c| *c.borrow_mut() = Some(app));
        }
    }
}

/// The work of a command of a try beside the attacks it gathers, in
/// gatherings, on a map of `area` tiles: its paths, the enemies' reach
/// over the map and the rules carrying it out. Those walk the map, so they
/// grow with it: measured at about 25 µs a command on the shipped levels'
/// maps (a few hundred tiles), 180 µs on 32×32 and 610 µs on 64×64, where
/// a gathering takes 7 µs. Fitted to the big maps, it over-counts the
/// small ones (6 to 18 gatherings where about 4 were measured): erring
/// toward fewer tries, never toward a slower decision.
pub fn command_overhead(area: usize) -> usize {
    2 + area / 48
}

/// A command's worth of work, the unit of a profile's budget: a command
/// of a try on a shipped level gathers 58 (hill) to 91 (forest) attacks,
/// plus its overhead.
pub const COMMAND_WORK: usize = 64;

impl Sandbox {
    /// A copy of the battle in `world` for `me`'s decisions, its tries
    /// played by `profile`'s utility AI on every side.
    pub(super) fn new(world: &mut World, me: Entity, profile: &Profile) -> Option<Sandbox> {
        let sit = Situation::read(world, me, false, &profile.weights)?;
        let side = sit.me().side;
        let mut save = SaveGame::capture(world);
        let blind = leave_out_hidden(&mut save, side);
        let mut app = copy_of(world, &save)?;
        save.apply(app.world_mut());
        // Entities are spawned in the same order in the copy: match by id.
        let ids = |w: &World, e: Entity| w.get::<crate::battle::UnitId>(e).copied();
        let mut known = vec![];
        for u in &sit.units {
            let id = ids(world, u.entity)?;
            let entity = crate::battle::units(app.world())
                .into_iter()
                .find(|e| ids(app.world(), *e) == Some(id))?;
            known.push(Known {
                entity,
                side: u.side,
                worth: u.worth,
                name: name_of(world, u.entity),
                pool: pool(world, u.entity),
            });
        }
        let me = known.iter().find(|k| k.name == name_of(world, me))?.entity;
        let mean_worth = known.iter().map(|k| k.worth).sum::<f64>() / known.len().max(1) as f64;
        let before = balance(&known, side, blind, app.world());
        let enemies = known
            .iter()
            .filter(|k| k.side != side)
            .filter_map(|k| ids(app.world(), k.entity))
            .collect();
        let map = &world.resource::<Battlefield>().0.map;
        let overhead = command_overhead((map.width() * map.height()).max(0) as usize);
        let sandbox = Sandbox {
            blind,
            overhead,
            length: profile.search.length,
            enemies,
            app: Some(app),
            save,
            weights: profile.weights.clone(),
            enemy: profile.search.enemy.clone(),
            me,
            side,
            known,
            mean_worth,
            before,
        };
        Some(sandbox)
    }

    /// Plays `first` and on to the horizon, `replies` enemy turns past the
    /// deciding unit's (and allies' turns before them), with `dice`, from
    /// the decision's position;
    /// `record`: keep the deciding unit's line. No `first`: the deciding
    /// unit's turn begins now, out of order, and its AI plays it (what it
    /// would do were its turn now).
    pub(super) fn try_out(
        &mut self,
        first: Option<&Command>,
        dice: u64,
        replies: usize,
        record: bool,
    ) -> Tried {
        let Some(app) = self.app.as_mut() else {
            return Tried {
                swing: 0.0,
                nodes: 1,
                work: self.overhead,
                line: vec![],
                harm: vec![],
                end: None,
            };
        };
        let world = app.world_mut();
        // The copy holds the decision's position played on by the last
        // try (or the position itself, put there by `new`).
        self.save.rewind(world);
        world.insert_resource(Dice::seeded(dice));
        world.insert_resource(Gathered(0));
        if first.is_none() {
            crate::rules::turns::turn::start_turn_now(world, self.me);
        }
        let mut scanned = world.resource::<BattleEvents>().all().len();
        let mut enemy_turns = 0;
        let mut line = vec![];
        let mut nodes = 0;
        let mut turn_end = None;
        let mut next = match first {
            Some(first) => Some(first.clone()),
            None => next_of(world, self.side, &self.weights, &self.enemy),
        };
        // Each unit's k-th command of a try rolls dice of its own, drawn
        // from the round's seed, the unit and k: an enemy's reply has the
        // same luck in every candidate's try of a round, whatever dice
        // came before it (common random numbers kept in step).
        let mut acted: Vec<(String, u64)> = vec![];
        while let Some(command) = next {
            let mine = world.resource::<TurnState>().current == Some(self.me)
                && !matches!(command, Command::React { .. });
            let actor = match command.actor() {
                Some(name) => name.to_string(),
                None => world
                    .resource::<TurnState>()
                    .current
                    .map(|e| name_of(world, e))
                    .unwrap_or_default(),
            };
            let k = match acted.iter_mut().find(|(n, _)| *n == actor) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    acted.push((actor.clone(), 0));
                    0
                }
            };
            world.insert_resource(Dice::seeded(dice_of(dice, &actor, k)));
            if submit(world, command.clone()).is_err() {
                let _ = submit(world, super::respond::fallback(command.clone()));
            }
            // The copy is never updated as an app: its trackers of removed
            // components (every gathered draft is one) are cleared here, or
            // they grow by each preview for as long as the thread lives.
            world.clear_trackers();
            nodes += 1;
            if record && mine {
                line.push(command);
            }
            if turn_end.is_none() && world.resource::<TurnState>().current != Some(self.me) {
                turn_end = Some(turn_end_of(&self.known, self.side, self.me, world));
            }
            // The horizon: once `replies` enemy turns are played, the
            // next turn to begin ends the try. Allies' turns in between
            // are played too (initiative is by unit, R2.1: two of ours may
            // come first), so a try always meets the enemy's answer.
            let events = world.resource::<BattleEvents>().all();
            let mut over = false;
            for e in &events[scanned..] {
                if let BattleEvent::TurnStarted { unit, .. } = e {
                    if enemy_turns >= replies {
                        over = true;
                    } else if self.enemies.contains(unit) {
                        enemy_turns += 1;
                    }
                }
            }
            scanned = events.len();
            if over || nodes >= self.length {
                break;
            }
            next = next_of(world, self.side, &self.weights, &self.enemy);
        }
        let (end, harm) =
            turn_end.unwrap_or_else(|| turn_end_of(&self.known, self.side, self.me, world));
        let work = world.resource::<Gathered>().0 + self.overhead * nodes;
        Tried {
            swing: balance(&self.known, self.side, self.blind, world) - self.before,
            nodes,
            work,
            line,
            harm,
            end,
        }
    }
}

/// The next command of a try: `side`'s by its weights (`ours`), the
/// enemy's by its model of the enemy (`theirs`).
fn next_of(world: &mut World, side: usize, ours: &Weights, theirs: &Weights) -> Option<Command> {
    super::utility::next_by(world, |s| if s == side { ours } else { theirs })
}

/// The dice seed of `unit`'s `k`-th command in a try of round seed `round`
/// (FNV-1a over the name, then [`crate::dice::mix64`]): the same on any
/// machine.
fn dice_of(round: u64, unit: &str, k: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in unit.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    crate::dice::mix64(round ^ h ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Where `me` stands and what each enemy has taken, as its turn ends.
fn turn_end_of(
    known: &[Known],
    side: usize,
    me: Entity,
    world: &World,
) -> (Option<Pos>, Vec<(String, f64)>) {
    let end = world.get::<GridPos>(me).map(|p| p.0);
    let harm = known
        .iter()
        .filter(|k| k.side != side)
        .map(|k| (k.name.clone(), (k.pool - pool(world, k.entity)).max(0.0)))
        .filter(|(_, h)| *h > 0.0)
        .collect();
    (end, harm)
}

/// What a dying unit counts of its worth in the balance: it may yet be
/// saved (R10.4), or die.
const DYING: f64 = 0.1;
/// What a stabilised unit counts: saved from death, out of the fight
/// until healed (R10.4, R10.5). More than a dying one, or a try would
/// count a Stabilize as a loss and an archer would walk away from its
/// dying giant.
const STABLE: f64 = 0.2;

/// `side`'s worth in the battle minus the enemy's: a unit counts half
/// its worth for being in action and half by its HP and AR left; a
/// dying one [`DYING`], a stabilised one [`STABLE`]. A battle won counts
/// every enemy unit once more (not while `blind`: the enemies left out of
/// the copy fight on), one lost every one of ours.
fn balance(known: &[Known], side: usize, blind: bool, world: &World) -> f64 {
    let outcome = world.resource::<TurnState>().outcome.clone();
    let mut total = 0.0;
    for k in known {
        let mine = k.side == side;
        let sign = if mine { 1.0 } else { -1.0 };
        let standing = if world.get::<Dying>(k.entity).is_some() {
            DYING
        } else if world.get::<crate::battle::Stable>(k.entity).is_some()
            && world.get::<crate::battle::Dead>(k.entity).is_none()
        {
            STABLE
        } else if crate::battle::out_of_action(world, k.entity) {
            0.0
        } else {
            let left = pool(world, k.entity) / k.pool.max(1.0);
            0.5 + 0.5 * left.min(1.0)
        };
        total += sign * k.worth * standing;
        if let Some(Outcome::Victory { side: won, .. }) = outcome
            && (won == side) != mine
            && !(blind && won == side)
        {
            total -= sign * k.worth;
        }
    }
    total
}

/// A unit's HP and AR, less what its injuries stand for where weapons
/// take no HP (V3 as 001): there the injuries are all the harm a hit does,
/// and a try blind to them would see nothing but knock-outs. Measured as
/// the utility AI measures the same harm ([`INJURY_TOLERANCE`]).
fn pool(world: &World, unit: Entity) -> f64 {
    let health = world.get::<Health>(unit);
    let left = health.map_or(0, |h| h.hp) + world.get::<ArmorReduction>(unit).map_or(0, |a| a.0);
    let wounds = match world.get::<Injuries>(unit) {
        Some(i) if injuries::injure_only(world) => {
            i.value() as f64 * health.map_or(0, |h| h.max) as f64 / INJURY_TOLERANCE
        }
        _ => 0.0,
    };
    (left as f64 - wounds).max(0.0)
}
