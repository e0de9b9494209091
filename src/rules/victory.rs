//! R11 victory: elimination (R2.5), holding a zone, surviving, reaching an
//! exit, and the draw at the round limit.

use super::events::{BattleEvent, emit};
use super::turn::TurnState;
use super::{CommandSystems, out_of_action};
use crate::battle::{Battlefield, GridPos, Side};
use crate::format::Victory;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a battle ended (R11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// A side won, and by which condition.
    Victory {
        /// Index of the winning side.
        side: usize,
        /// The condition met.
        by: VictoryKind,
    },
    /// Nobody won: the round limit passed, or no one is left standing.
    Draw,
}

/// The condition a side won by (R11, the level's `victory` list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VictoryKind {
    /// Every enemy out of action (R2.5).
    Eliminate,
    /// A zone held for some rounds.
    HoldZone,
    /// Some rounds survived.
    SurviveRounds,
    /// A unit reached an exit zone.
    ReachExit,
}

impl fmt::Display for VictoryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The level's round limit: the battle is a draw after that round (R11).
pub fn round_limit(world: &World) -> u32 {
    world.resource::<Battlefield>().0.source.round_limit
}

/// Rounds in a row each HoldZone condition has been held (by index in the
/// level's victory list).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct HoldStreaks(pub Vec<u32>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HoldStreaks>().add_systems(
        super::CommandSchedule,
        check_victory.in_set(CommandSystems::Advance),
    );
}

/// Advance phase: checks the conditions that can be met at any moment.
pub(super) fn check_victory(world: &mut World) {
    check_victory_now(world);
}

/// Units in action: `(side, position, entity)`.
fn in_action(world: &World) -> Vec<(usize, crate::grid::Pos, Entity)> {
    super::units(world)
        .into_iter()
        .filter(|e| !out_of_action(world, *e))
        .filter_map(|e| Some((world.get::<Side>(e)?.0, world.get::<GridPos>(e)?.0, e)))
        .collect()
}

fn declare(world: &mut World, outcome: Outcome) {
    emit(
        world,
        BattleEvent::BattleEnded {
            outcome: outcome.clone(),
        },
    );
    world.resource_mut::<TurnState>().outcome = Some(outcome);
}

/// Elimination (R2.5) and reaching an exit: checked after every command and
/// every dying roll.
pub fn check_victory_now(world: &mut World) {
    if world.resource::<TurnState>().outcome.is_some() {
        return;
    }
    let active = in_action(world);
    let sides = world.resource::<Battlefield>().0.sides().len();
    let standing: Vec<usize> = (0..sides)
        .filter(|s| active.iter().any(|(side, ..)| side == s))
        .collect();
    match standing.as_slice() {
        [] => return declare(world, Outcome::Draw),
        [side] => {
            return declare(
                world,
                Outcome::Victory {
                    side: *side,
                    by: VictoryKind::Eliminate,
                },
            );
        }
        _ => {}
    }
    let level = world.resource::<Battlefield>().0.clone();
    for v in level.victory() {
        if let Victory::ReachExit { side, unit, zone } = v {
            let s = level.sides().iter().position(|x| &x.name == side);
            let wanted = unit.as_ref().map(|u| super::unit_named(world, u));
            let reached = active.iter().any(|(us, pos, e)| {
                Some(*us) == s && zone.contains(*pos) && wanted.is_none_or(|w| w == Some(*e))
            });
            if let (true, Some(s)) = (reached, s) {
                return declare(
                    world,
                    Outcome::Victory {
                        side: s,
                        by: VictoryKind::ReachExit,
                    },
                );
            }
        }
    }
}

/// The end of round `round`: HoldZone and SurviveRounds are scored, then
/// the round limit (R11).
pub fn end_of_round(world: &mut World, round: u32) {
    if world.resource::<TurnState>().outcome.is_some() {
        return;
    }
    let active = in_action(world);
    let level = world.resource::<Battlefield>().0.clone();
    let side_index = |name: &str| level.sides().iter().position(|x| x.name == name);
    let mut streaks = world.resource::<HoldStreaks>().0.clone();
    streaks.resize(level.victory().len(), 0);
    let mut winner = None;
    for (i, v) in level.victory().iter().enumerate() {
        match v {
            Victory::HoldZone { side, zone, rounds } => {
                let s = side_index(side);
                let mine = active
                    .iter()
                    .any(|(us, p, _)| Some(*us) == s && zone.contains(*p));
                let theirs = active
                    .iter()
                    .any(|(us, p, _)| Some(*us) != s && zone.contains(*p));
                streaks[i] = if mine && !theirs { streaks[i] + 1 } else { 0 };
                if streaks[i] >= *rounds && winner.is_none() {
                    winner = s.map(|s| (s, VictoryKind::HoldZone));
                }
            }
            Victory::SurviveRounds { side, rounds } if round >= *rounds => {
                let s = side_index(side);
                if active.iter().any(|(us, ..)| Some(*us) == s) && winner.is_none() {
                    winner = s.map(|s| (s, VictoryKind::SurviveRounds));
                }
            }
            _ => {}
        }
    }
    world.resource_mut::<HoldStreaks>().0 = streaks;
    if let Some((side, by)) = winner {
        declare(world, Outcome::Victory { side, by });
    } else if round >= round_limit(world) {
        declare(world, Outcome::Draw);
    }
}
