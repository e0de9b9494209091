//! The copy of the battle the look-ahead ([`super::search`]) tries its
//! candidates on: a [`Sandbox`] holds a copy (an app, kept per thread
//! between decisions and put back to each decision's position), what its
//! side knows of the units in it, and plays one try: a first command, then
//! both sides by the utility AI to the horizon, on dice drawn from the
//! round's seed, the unit and its count of commands. A helper thread
//! builds a sandbox of its own from the same [`Setup`].
//!
//! What its side may know (V8.10): the copy holds only what its side
//! knows: an enemy hidden from it is set down out of the battle there
//! ([`leave_out_hidden`]), so a try can neither run into it nor be struck
//! by it, and no try tells where it stands.

use super::balance::{Known, balance, pool, turn_end_of};
use super::profile::{Profile, Weights};
use super::situation::Situation;
use crate::battle::{Battlefield, UnitId, name_of};
use crate::dice::Dice;
use crate::grid::Pos;
use crate::load::ValidLevel;
use crate::rules::command::Command;
use crate::rules::events::{BattleEvent, BattleEvents};
use crate::rules::modifiers::Gathered;
use crate::rules::{TurnState, submit};
use crate::save::SaveGame;
use bevy::prelude::*;
use std::sync::Arc;

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
    /// The deciding unit in the copy.
    me: Entity,
    /// Each unit the deciding side knows of, with its entity in the copy.
    known: Vec<Known>,
    /// What the tries start from and are judged by, the same on every
    /// thread that plays them.
    setup: Arc<Setup>,
}

/// What a decision's tries start from and are judged by: all a sandbox
/// holds but its copy, so that a helper thread can build its own.
pub(super) struct Setup {
    /// The level, whose catalog a new copy is built from.
    level: Arc<ValidLevel>,
    /// The decision's position, as its side knows it.
    save: SaveGame,
    /// The weights its side's utility AI plays the tries with.
    weights: Weights,
    /// The weights the enemy's side plays them with (its model of the
    /// enemy, [`crate::ai::Lookahead::enemy`]).
    enemy: Weights,
    /// The deciding unit.
    me: UnitId,
    side: usize,
    /// Each unit the deciding side knows of: side, worth, name, and HP and
    /// AR at the decision (its entity is the first copy's).
    known: Vec<Known>,
    /// The enemies it knows of, by id: whose turns are the replies.
    enemies: Vec<UnitId>,
    mean_worth: f64,
    /// The balance of worth at the decision.
    before: f64,
    /// The work of a command beside its gatherings on this map.
    overhead: usize,
    /// Commands a try may play ([`crate::ai::Lookahead::length`]).
    length: usize,
    /// Whether enemies hidden from its side were left out of the copy
    /// ([`leave_out_hidden`]): a battle won there is not won.
    blind: bool,
}

thread_local! {
    /// The last copy of a battle this thread tried commands on. Building a
    /// copy (an app, its schedules, the level spawned) costs more than many
    /// tries, so one is kept per thread and put back to each decision's
    /// position ([`SaveGame::apply`], the window's F9) while the level is
    /// the same.
    static COPY: std::cell::RefCell<Option<App>> = const { std::cell::RefCell::new(None) };
}

/// A copy of the battle `save` holds, of `level`: this thread's last one
/// when it is of the same level (to be put back to `save`'s position),
/// else a new one.
fn copy_of(level: &ValidLevel, save: &SaveGame) -> Option<App> {
    let kept = COPY.with(|c| c.borrow_mut().take());
    if let Some(app) = kept
        && app.world().resource::<Battlefield>().0.source == save.level
    {
        return Some(app);
    }
    save.restore(&level.catalog).ok()
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(app) = self.app.take() {
            // `try_with`: a helper thread's sandbox may be dropped as the
            // thread ends, after its copy's slot.
            let _ = COPY.try_with(|c| *c.borrow_mut() = Some(app));
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
    /// What its tries start from, for a helper thread's sandbox.
    pub(super) fn setup(&self) -> Arc<Setup> {
        self.setup.clone()
    }

    /// The mean worth of the units its side knows of: the scale of a
    /// profile's noise.
    pub(super) fn mean_worth(&self) -> f64 {
        self.setup.mean_worth
    }

    /// A copy of the battle in `world` for `me`'s decisions, its tries
    /// played by `profile`'s utility AI on every side.
    pub(super) fn new(world: &mut World, me: Entity, profile: &Profile) -> Option<Sandbox> {
        let sit = Situation::read(world, me, false, &profile.weights)?;
        let side = sit.me().side;
        let mut save = SaveGame::capture(world);
        let blind = leave_out_hidden(&mut save, side);
        let level = world.resource::<Battlefield>().0.clone();
        let mut app = copy_of(&level, &save)?;
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
                id,
                side: u.side,
                worth: u.worth,
                name: name_of(world, u.entity),
                pool: pool(world, u.entity),
            });
        }
        let me_entity = known.iter().find(|k| k.name == name_of(world, me))?.entity;
        let me = ids(world, me)?;
        let mean_worth = known.iter().map(|k| k.worth).sum::<f64>() / known.len().max(1) as f64;
        let before = balance(&known, side, blind, app.world());
        let enemies = known
            .iter()
            .filter(|k| k.side != side)
            .map(|k| k.id)
            .collect();
        let map = &level.map;
        let overhead = command_overhead((map.width() * map.height()).max(0) as usize);
        let setup = Setup {
            level,
            save,
            weights: profile.weights.clone(),
            enemy: profile.search.enemy.clone(),
            me,
            side,
            known: known.clone(),
            enemies,
            mean_worth,
            before,
            overhead,
            length: profile.search.length,
            blind,
        };
        Some(Sandbox {
            app: Some(app),
            me: me_entity,
            known,
            setup: Arc::new(setup),
        })
    }

    /// A sandbox of the same decision on this thread, for a helper thread
    /// to play tries beside the deciding one: its own copy, put back to
    /// the decision's position, its units found by id.
    fn rebuilt(setup: Arc<Setup>) -> Option<Sandbox> {
        let mut app = copy_of(&setup.level, &setup.save)?;
        setup.save.apply(app.world_mut());
        let world = app.world();
        let entity_of = |id: UnitId| {
            crate::battle::units(world)
                .into_iter()
                .find(|e| world.get::<UnitId>(*e) == Some(&id))
        };
        let mut known = setup.known.clone();
        for k in &mut known {
            k.entity = entity_of(k.id)?;
        }
        let me = entity_of(setup.me)?;
        Some(Sandbox {
            app: Some(app),
            me,
            known,
            setup,
        })
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
        let setup = &*self.setup;
        let Some(app) = self.app.as_mut() else {
            return Tried {
                swing: 0.0,
                nodes: 1,
                work: setup.overhead,
                line: vec![],
                harm: vec![],
                end: None,
            };
        };
        let world = app.world_mut();
        // The copy holds the decision's position played on by the last
        // try (or the position itself, put there by `new`).
        setup.save.rewind(world);
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
            None => next_of(world, setup.side, &setup.weights, &setup.enemy),
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
                turn_end = Some(turn_end_of(&self.known, setup.side, self.me, world));
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
                    } else if setup.enemies.contains(unit) {
                        enemy_turns += 1;
                    }
                }
            }
            scanned = events.len();
            if over || nodes >= setup.length {
                break;
            }
            next = next_of(world, setup.side, &setup.weights, &setup.enemy);
        }
        let (end, harm) =
            turn_end.unwrap_or_else(|| turn_end_of(&self.known, setup.side, self.me, world));
        let work = world.resource::<Gathered>().0 + setup.overhead * nodes;
        Tried {
            swing: balance(&self.known, setup.side, setup.blind, world) - setup.before,
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

thread_local! {
    /// A helper thread's sandbox of the decision it last played tries of.
    static REBUILT: std::cell::RefCell<Option<Sandbox>> = const { std::cell::RefCell::new(None) };
}

/// On a helper thread: a try of `first`, as [`Sandbox::try_out`] plays it,
/// on this thread's sandbox of `setup`'s decision (built on its first try).
pub(super) fn try_on_helper(
    setup: Arc<Setup>,
    first: &Command,
    dice: u64,
    replies: usize,
    record: bool,
) -> Option<Tried> {
    REBUILT.with(|r| {
        let mut rebuilt = r.borrow_mut();
        // The sandbox kept holds its decision's setup, so a new decision's
        // can never share its address.
        if !rebuilt
            .as_ref()
            .is_some_and(|s| Arc::ptr_eq(&s.setup, &setup))
        {
            // The old one first: its copy goes back to be put back.
            *rebuilt = None;
            *rebuilt = Sandbox::rebuilt(setup);
        }
        Some(
            rebuilt
                .as_mut()?
                .try_out(Some(first), dice, replies, record),
        )
    })
}
