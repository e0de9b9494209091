//! The utility AI: every plan of "move to a reachable tile (or stay), then
//! act with the action points left" is scored with the rules' exact preview
//! and the profile's weights, and the first command of the best plan is
//! sent. After each command the battle is read again and the plans scored
//! anew (Wesnoth's candidate-action loop): a miss or a kill changes the
//! best next step.
//!
//! Values are in one currency: a unit's *worth* (the damage it deals in a
//! round) times the share of its staying power (HP and AR) a plan takes
//! from it. Damage to an enemy counts for its worth, damage to us against
//! ours, so focus on wounded and dangerous enemies, caution for our own
//! wounded, and trades between the two come out of the same sums.

use super::acts::{actions_at, actions_with, attack_value, charge_value, drink_when_hurt};
use super::positions::{
    attack_ceiling, farthest_attack, position_value, provocation_cost, reaction_damage,
};
use super::profile::Weights;
use super::situation::Situation;
use crate::battle::ActionPoints;
use crate::battle::name_of;
use crate::rules::attacks::preview::preview_attack;
use crate::rules::command::Command;
use crate::rules::events::Trigger;
use crate::rules::motion::movement::move_reach;
use crate::rules::reactions::reactive_attack::watchers_with_reactions;
use crate::rules::{TurnState, check};
use bevy::prelude::*;

/// The share of its HP and AR the reactive blows on a prone unit standing
/// up may be expected to take before it rather stays down (R4.8, R8.2).
const STAND_UNDER: f64 = 0.5;

/// A first command and the value of the plan it begins (the move-then-act
/// plan's, in unit worths).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The plan's value.
    pub value: f64,
    /// Its first command.
    pub command: Command,
}

/// The plans with the best values so far, best first: the best alone for
/// [`decide`], the `keep` best for the look-ahead ([`plans`]).
struct Best {
    value: f64,
    command: Option<Command>,
    keep: usize,
    others: Vec<Plan>,
}

impl Best {
    fn new(stay: f64, keep: usize) -> Self {
        Best {
            value: stay,
            command: None,
            keep,
            others: vec![],
        }
    }

    fn offer(&mut self, value: f64, command: impl FnOnce() -> Command) {
        if value > self.value + 1e-9 {
            let old = self.command.replace(command());
            if let Some(old) = old {
                self.push_other(self.value, old);
            }
            self.value = value;
        } else if self.keep > 1 && self.worth_keeping(value) {
            let command = command();
            self.push_other(value, command);
        }
    }

    /// The value a plan must beat to be kept: the best's alone, else the
    /// last kept's once `keep` are kept.
    fn floor(&self, stay: f64) -> f64 {
        if self.keep <= 1 {
            self.value
        } else if self.others.len() + 1 >= self.keep {
            self.others.last().map_or(self.value, |p| p.value)
        } else {
            stay
        }
    }

    fn worth_keeping(&self, value: f64) -> bool {
        self.others.len() + 1 < self.keep
            || self.others.last().is_some_and(|p| value > p.value + 1e-9)
    }

    fn push_other(&mut self, value: f64, command: Command) {
        if self.keep <= 1 || self.others.iter().any(|p| p.command == command) {
            return;
        }
        let at = self.others.partition_point(|p| p.value >= value);
        self.others.insert(at, Plan { value, command });
        self.others.truncate(self.keep - 1);
    }
}

/// The utility AI's command for whatever the battle waits for, every side
/// played by it (the look-ahead's tries): the answer to an open reaction
/// question, else the next command of the unit whose turn it is; `None`
/// once the battle is over.
pub fn next(world: &mut World, w: &Weights) -> Option<Command> {
    next_by(world, |_| w)
}

/// [`next`], each side played with its own weights (`weights` of the side
/// of the unit asked to react or whose turn it is): the look-ahead plays
/// its own side as it plays and the enemy as it models the enemy.
pub fn next_by<'w>(world: &mut World, weights: impl Fn(usize) -> &'w Weights) -> Option<Command> {
    if world.resource::<TurnState>().outcome.is_some() {
        return None;
    }
    let question = world
        .resource::<crate::rules::Decisions>()
        .questions
        .first()
        .copied();
    let side = |world: &World, e: Entity| world.get::<crate::battle::Side>(e).map_or(0, |s| s.0);
    if let Some((asked, trigger)) = question {
        if trigger == Trigger::Attacked {
            return Some(super::respond::answer_attack(world, asked));
        }
        let w = weights(side(world, asked));
        let take = react(world, asked, trigger, w);
        let unit = name_of(world, asked);
        return Some(Command::React {
            unit,
            take,
            guard: None,
        });
    }
    let current = world.resource::<TurnState>().current?;
    let w = weights(side(world, current));
    Some(decide(world, current, w))
}

/// The next command of `me`, the unit whose turn it is.
pub fn decide(world: &mut World, me: Entity, w: &Weights) -> Command {
    plans(world, me, w, 1).swap_remove(0).command
}

/// The `keep` best plans of `me`, the unit whose turn it is, best first,
/// each a first command the rules accept now; never empty. A forced step
/// (a potion when badly hurt, standing up) is the only plan; doing nothing
/// more (end the turn facing the safest way, or a watchman's Search) is one
/// among the others.
pub fn plans(world: &mut World, me: Entity, w: &Weights, keep: usize) -> Vec<Plan> {
    let name = name_of(world, me);
    let only = |command| {
        vec![Plan {
            value: 0.0,
            command,
        }]
    };
    let Some(sit) = Situation::read(world, me, true, w) else {
        return only(Command::EndTurn);
    };
    let free_used = world.get::<ActionPoints>(me).is_some_and(|a| a.free_used);
    // The turn's free action first: a potion when badly hurt (R3.1, R10.5).
    if !free_used && let Some(cmd) = drink_when_hurt(world, &sit, &name, w) {
        return only(cmd);
    }
    // Only the reactions its side knows of (V8.10).
    let mine = world.get::<crate::battle::Side>(me).map_or(0, |s| s.0);
    let watchers: Vec<_> = watchers_with_reactions(world, me)
        .into_iter()
        .filter(|(t, _)| !crate::battle::hidden_from(world, t.unit, mine))
        .collect();
    // Standing up provokes (R8.2) with +1 advantage on the prone (R4.8):
    // under a blow likely to drop it, it acts from the ground instead.
    if sit.ap >= 1 && sit.me().prone {
        let stand = Command::StandUp { unit: name.clone() };
        let blows = reaction_damage(&sit, &watchers, sit.me().pos, 1);
        if blows < STAND_UNDER * sit.me().pool() && check(world, stand.clone()).is_ok() {
            return only(stand);
        }
    }
    // A rider's free Move is a move without AP (V12.2).
    let move_ap = super::mounts::move_cost(world, me);
    // AP, or Energy with the round's stand-in (V5.3).
    let budget = super::energy::budget(world, me, sit.ap);
    if budget <= 0 && move_ap > 0 {
        return only(finish_turn(&sit, &name));
    }
    let me_unit = sit.me().clone();
    let start = me_unit.pos;
    // Doing nothing more: the position as it is.
    let stay = position_value(&sit, start, w);
    let mut best = Best::new(stay, keep);
    // Acting from here.
    // Maneuvers are drafted from where the unit stands (V7).
    let mut more = super::maneuvers::maneuvers_here(world, &sit, w);
    more.extend(super::mounts::mount_attacks(world, &sit, start, w));
    // Spells are cast from where the unit stands (V11).
    more.extend(super::spells::casts(world, &sit, w));
    // A weapon knocked from its hand, taken back up (R9.5).
    let loose = super::rearm::wanted(world, &sit);
    more.extend(super::rearm::pick_ups(
        world, &sit, start, &loose, &watchers, w,
    ));
    let here = actions_with(world, &sit, start, budget, &watchers, w, more);
    if let Some(first) = here.1.clone() {
        best.offer(stay + here.0, || first);
    }
    // A grapple holds both in place (V7.6): acting from here is all.
    // So does a spell's grip (V11.4).
    if crate::rules::variants::maneuvers::held_in_place(world, me)
        || crate::rules::variants::spells::grip::gripped(world, me)
    {
        let idle = finish_turn(&sit, &name);
        return ranked(world, best, stay, idle);
    }
    // Moving first (R5), then acting with what is left.
    let farthest = farthest_attack(world, &sit);
    // Where a Move may end as the rules allow it: a crawl when prone (R4.8).
    let reach = move_reach(world, me);
    let mut tiles: Vec<_> = reach.clone().into_iter().collect();
    tiles.sort_by_key(|(p, _)| *p);
    for (to, reach) in tiles {
        let provoked = provocation_cost(&sit, &watchers, start, &reach.path, w);
        let value = position_value(&sit, to, w) - provoked;
        // Under Energy a Run costs by its length (V5.5).
        let left = budget - super::energy::move_cost(world, me, reach.cost, move_ap);
        let picks = super::rearm::pick_ups(world, &sit, to, &loose, &watchers, w);
        let upper = value + attack_ceiling(&sit, to, left, farthest, w);
        if upper <= best.floor(stay) && picks.is_empty() {
            continue;
        }
        let mut more = super::mounts::mount_attacks(world, &sit, to, w);
        more.extend(picks);
        let (acts, _) = super::acts::actions_with(world, &sit, to, left, &watchers, w, more);
        best.offer(value + acts, || Command::Move {
            unit: name.clone(),
            to,
            path: None,
            sprint: false,
        });
    }
    // Jumping (V9.2) where no Move goes: up a ledge, over a chasm.
    for (value, jump) in super::jumps::jumps(world, &sit, &reach, &watchers, best.value, w) {
        best.offer(value, || jump);
    }
    // Stepping (1 AP, one tile, never provokes: R8.2) out of a threatened
    // tile, to shoot or withdraw without reactive attacks.
    if watchers
        .iter()
        .any(|(t, left)| *left > 0 && t.covers_body(me_unit.body()))
    {
        for dir in crate::grid::Dir::ALL {
            let to = start.step(dir);
            // Under Energy an Agile Move after a command does it for 1
            // Agility (V5.7).
            let agile = Command::AgileMove {
                unit: name.clone(),
                to,
            };
            let step = Command::Step {
                unit: name.clone(),
                to,
            };
            for shift in [agile, step] {
                if check(world, shift.clone()).is_err() {
                    continue;
                }
                let value = position_value(&sit, to, w);
                let left = budget - super::energy::cost(world, me, &shift);
                let (acts, _) = actions_at(world, &sit, to, left, &watchers, w);
                best.offer(value + acts, || shift);
            }
        }
    }
    // Charging (R4.7): 2 AP (under Energy the run's and a blow's), a
    // straight run and one attack with advantage.
    if budget >= 2 {
        for (_, enemy) in sit.enemies() {
            let enemy = enemy.clone();
            if let Some(value) = charge_value(world, &sit, &enemy, &watchers, w) {
                best.offer(value, || Command::Charge {
                    unit: name.clone(),
                    target: name_of(world, enemy.entity),
                    shove: false,
                });
            }
        }
    }
    let idle = search_when_idle(world, &sit, &name).unwrap_or_else(|| finish_turn(&sit, &name));
    ranked(world, best, stay, idle)
}

/// The plans `best` kept, best first, those the rules refuse left out, and
/// doing nothing more (`idle`, worth `stay`) in its place among them.
fn ranked(world: &mut World, best: Best, stay: f64, idle: Command) -> Vec<Plan> {
    let mut all: Vec<Plan> = best
        .command
        .map(|command| Plan {
            value: best.value,
            command,
        })
        .into_iter()
        .chain(best.others)
        .filter(|p| check(world, p.command.clone()).is_ok())
        .collect();
    let at = all.partition_point(|p| p.value > stay + 1e-9);
    all.insert(
        at,
        Plan {
            value: stay,
            command: idle,
        },
    );
    all.truncate(best.keep.max(1));
    all
}

/// With nothing better to do and an enemy its side has lost track of (V8.4),
/// a unit Searches (V8.5) once a turn rather than idle: a watchman's sweep.
/// It knows only that the enemy is out there, never where (V8.10).
fn search_when_idle(world: &mut World, sit: &Situation, name: &str) -> Option<Command> {
    let me = sit.me();
    let lost = crate::battle::units(world).into_iter().any(|e| {
        world
            .get::<crate::battle::Side>(e)
            .is_some_and(|s| s.0 != me.side)
            && crate::battle::hidden_from(world, e, me.side)
            && !crate::battle::out_of_action(world, e)
    });
    let idle = sit.ap >= 1 && !me.down && lost && !searched_this_turn(world, me.entity);
    let search = Command::Search {
        unit: name.to_string(),
    };
    (idle && check(world, search.clone()).is_ok()).then_some(search)
}

/// Whether `unit` has searched since its turn began (V8.5).
fn searched_this_turn(world: &World, unit: Entity) -> bool {
    let Some(id) = world.get::<crate::battle::UnitId>(unit).copied() else {
        return false;
    };
    let events = world.resource::<crate::rules::events::BattleEvents>().all();
    for e in events.iter().rev() {
        match e {
            crate::rules::events::BattleEvent::Searching(u) if *u == id => return true,
            crate::rules::events::BattleEvent::TurnStarted { unit, .. } if *unit == id => {
                return false;
            }
            _ => {}
        }
    }
    false
}

/// Ends the turn facing the safest way (R4.2: turning is free on one's own
/// turn): a Face command first when the facing should change.
fn finish_turn(sit: &Situation, name: &str) -> Command {
    let me = sit.me();
    if me.down {
        return Command::EndTurn;
    }
    let (dir, danger) = sit.best_facing(me.pos, 0);
    let now = sit.danger(me.pos, me.facing, 0);
    if dir != me.facing && danger < now - 1e-6 {
        Command::Face {
            unit: name.to_string(),
            dir,
        }
    } else {
        Command::EndTurn
    }
}

/// Whether `reactor` takes its reactive attack on the unit whose turn it is
/// (R8.1), struck where the trigger happens (the tile it leaves, R8.4):
/// when the attack is worth more than keeping the reaction.
pub fn react(world: &mut World, reactor: Entity, trigger: Trigger, w: &Weights) -> bool {
    let Some(provoker) = world.resource::<TurnState>().current else {
        return false;
    };
    let Some(sit) = Situation::read(world, reactor, false, w) else {
        return false;
    };
    let Some(mut target) = sit.units.iter().find(|u| u.entity == provoker).cloned() else {
        return false;
    };
    if let Trigger::Leave(tile) = trigger {
        target.pos = tile;
    }
    let Some(draft) = crate::rules::reactions::reactive_attack::reactive_draft(
        world, reactor, provoker, target.pos,
    ) else {
        return false;
    };
    // Under die ranks a reactive attack costs an AP of the next turn
    // (V6.6). Weighing that AP as one of the unit's attacks made the AI
    // decline reactions, and lose: 54% over greedy against 63% (1000
    // battles of ranks.ron, DECISIONS.md). It takes them as before.
    preview_attack(world, draft).is_ok_and(|p| attack_value(&target, &p, w) > w.react)
}
