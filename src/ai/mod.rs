//! The opponent AI. It plays a side through the same [`Command`]s as a
//! player: [`next_command`] reads the battle and answers what the battle
//! waits for, a reaction question (R8) or the current unit's next command.
//! It never changes the battle itself; whoever drives it submits the command.
//!
//! - [`utility`]: the AI of the game, scoring move-then-act plans with the
//!   rules' exact preview and a profile's [`Weights`].
//! - [`baseline`]: `random` and `greedy`, to measure it against (`skirmish
//!   sim`).
//! - [`situation`]: what a decision reads once (units, strikes, danger);
//!   `fields` keeps each enemy's terrain field per thread between reads.
//! - [`search`]: the look-ahead (the default), trying the utility AI's best
//!   first commands on copies of the battle (`sandbox`); `balance` judges
//!   a try, and `helper` plays tries on a second thread beside the
//!   deciding one.
//! - [`profile`]: the RON profiles of `assets/ai/`.
//!
//! Headless like the rules: no rendering, no timing; its randomness (the
//! random baseline's) comes from the dice's AI stream ([`Dice::pick`]),
//! never the rules' rolls, so a seed and the profiles reproduce a battle
//! exactly and a replay of its commands rolls the same rules' dice.

mod acts;
mod balance;
pub mod baseline;
mod energy;
mod fields;
mod helper;
pub mod intent;
mod jumps;
mod maneuvers;
mod mounts;
mod positions;
pub mod profile;
mod rearm;
mod respond;
mod sandbox;
pub mod search;
mod sight;
pub mod situation;
mod spells;
pub mod utility;
mod verdict;

pub use profile::{DEFAULT_PROFILE, Kind, Lookahead, PROFILE_DIR, Profile, Profiles, Weights};
pub use respond::fallback;

use crate::battle::Side;
use crate::dice::Dice;
use crate::rules::Decisions;
use crate::rules::command::Command;
use crate::rules::reactions::policy::{ReactionPolicies, ReactionPolicy};
use crate::rules::{TurnState, submit};
use bevy::prelude::*;

/// Who plays each side, by side index: a profile, or `None` for a human.
#[derive(Resource, Clone, Debug, Default)]
pub struct Players(pub Vec<Option<Profile>>);

impl Players {
    /// The player of side `side`.
    pub fn of(&self, side: usize) -> Option<&Profile> {
        self.0.get(side).and_then(Option::as_ref)
    }

    /// The sides a human plays, in order.
    pub fn humans(&self) -> Vec<usize> {
        (0..self.0.len())
            .filter(|s| self.of(*s).is_none())
            .collect()
    }

    /// The players a level's sides name (`control: Human`, `Ai`,
    /// `Ai("cautious")`): `None` for a human side; an unknown profile is
    /// `None` too (`skirmish check` reports it).
    pub fn for_level(level: &crate::load::ValidLevel, profiles: &Profiles) -> Players {
        Players(
            level
                .sides()
                .iter()
                .map(|s| profiles.for_control(&s.control).cloned())
                .collect(),
        )
    }

    /// The players of `level` as it names them, then overridden: every
    /// side by the AI with `watch`, else each `(side, ai)` pair (the
    /// command line's `--ai` and `--human`). A side given to the AI that
    /// the level leaves to a human gets the default profile.
    pub fn chosen(
        level: &crate::load::ValidLevel,
        profiles: &Profiles,
        watch: bool,
        overrides: &[(usize, bool)],
    ) -> Players {
        let mut players = Players::for_level(level, profiles);
        let default = profiles.get(DEFAULT_PROFILE).cloned();
        for (side, player) in players.0.iter_mut().enumerate() {
            let ai = if watch {
                true
            } else if let Some((_, ai)) = overrides.iter().find(|(s, _)| *s == side) {
                *ai
            } else {
                continue;
            };
            *player = if ai {
                player.clone().or_else(|| default.clone())
            } else {
                None
            };
        }
        players
    }

    /// Installs these players in `world`: every side's reactions are asked
    /// (policy `Ask`), so the AI decides its own by the same scoring and a
    /// human is asked by the window.
    pub fn install(self, world: &mut World) {
        world.insert_resource(ReactionPolicies(vec![ReactionPolicy::Ask; self.0.len()]));
        world.insert_resource(self);
    }
}

/// The command the AI sends now, if an AI is to act: the answer to an open
/// reaction question of one of its units, or the next command of its unit
/// whose turn it is. `None` when the battle is over or a human is to act.
pub fn next_command(world: &mut World, players: &Players) -> Option<Command> {
    if world.resource::<TurnState>().outcome.is_some() {
        return None;
    }
    let question = world.resource::<Decisions>().questions.first().copied();
    if let Some((asked, trigger)) = question {
        let profile = side_of(world, asked).and_then(|s| players.of(s))?;
        if trigger == crate::rules::events::Trigger::Attacked {
            return Some(respond::answer_attack(world, asked));
        }
        let take = match profile.kind {
            Kind::Random => world.resource_mut::<Dice>().pick(2) == 1,
            Kind::Greedy => true,
            Kind::Utility | Kind::Search => utility::react(world, asked, trigger, &profile.weights),
        };
        let unit = crate::battle::name_of(world, asked);
        return Some(Command::React {
            unit,
            take,
            guard: None,
        });
    }
    let current = world.resource::<TurnState>().current?;
    let profile = side_of(world, current).and_then(|s| players.of(s))?;
    Some(match profile.kind {
        Kind::Random => baseline::random(world),
        Kind::Greedy => baseline::greedy(world, current),
        Kind::Utility => utility::decide(world, current, &profile.weights),
        Kind::Search => search::decide(world, current, profile),
    })
}

fn side_of(world: &World, unit: Entity) -> Option<usize> {
    world.get::<Side>(unit).map(|s| s.0)
}

/// How a battle played by [`play`] went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Played {
    /// Commands accepted.
    pub commands: usize,
    /// Commands the rules refused (an AI bug: each is replaced by EndTurn).
    pub refused: Vec<String>,
    /// The battle hit the command limit before it ended.
    pub stalled: bool,
    /// Each look-ahead decision (kind `Search`) with the number of battle
    /// events told before its command: where it goes in the log.
    pub thoughts: Vec<(usize, search::Thought)>,
}

/// Plays the battle in `world` to its end with `players` (every side must
/// have one), at most `limit` commands.
pub fn play(world: &mut World, players: &Players, limit: usize) -> Played {
    let mut out = Played::default();
    while let Some(command) = next_command(world, players) {
        if out.commands + out.refused.len() >= limit {
            out.stalled = true;
            break;
        }
        if let Some(thought) = world.remove_resource::<search::Thought>() {
            let told = world.resource::<crate::rules::BattleEvents>().all().len();
            out.thoughts.push((told, thought));
        }
        // A headless battle is never updated as an app: the trackers of
        // removed components (every gathered draft is one, R7.1) are
        // cleared after each command, or they grow for the whole battle.
        world.clear_trackers();
        match submit(world, command.clone()) {
            Ok(()) => out.commands += 1,
            Err(r) => {
                out.refused.push(format!("{command:?}: {r}"));
                if submit(world, fallback(command)).is_err() {
                    out.stalled = true;
                    break;
                }
            }
        }
    }
    out
}
