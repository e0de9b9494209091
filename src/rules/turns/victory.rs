//! R11 victory: elimination (R2.5), holding a zone, surviving, reaching an
//! exit, and the draw at the round limit.
//!
//! One system decides, [`settle_outcome`], run by the turn loop's
//! [`Settle`] schedule after every command, every dying roll and at the end
//! of every round: it is the only writer of [`TurnState::outcome`].

use super::turn::{Settle, TurnState};
use crate::battle::{Battlefield, Side, body_of, out_of_action, unit_named, units};
use crate::format::Victory;
use crate::grid::Body;
use crate::rules::events::{BattleEvent, Outcome, VictoryKind, emit};
use bevy::prelude::*;

/// The level's round limit: the battle is a draw after that round (R11).
pub fn round_limit(world: &World) -> u32 {
    world.resource::<Battlefield>().0.source.round_limit
}

/// Rounds in a row each HoldZone condition has been held (by index in the
/// level's victory list).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct HoldStreaks(pub Vec<u32>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HoldStreaks>()
        .add_systems(Settle, settle_outcome);
}

/// Units in action: `(side, body, entity)`. A body is in a zone when any
/// of its tiles is *(decision, V10.6)*.
fn in_action(world: &World) -> Vec<(usize, Body, Entity)> {
    units(world)
        .into_iter()
        .filter(|e| !out_of_action(world, *e))
        .filter_map(|e| Some((world.get::<Side>(e)?.0, body_of(world, e)?, e)))
        .collect()
}

/// Decides whether the battle is over and tells it: elimination (R2.5) and
/// reaching an exit at any moment; at the end of a round
/// ([`TurnState::round_over`]), holding a zone, surviving and the round
/// limit.
pub fn settle_outcome(world: &mut World) {
    if world.resource::<TurnState>().outcome.is_some() {
        return;
    }
    let round_over = world.resource::<TurnState>().round_over;
    let outcome =
        decided_now(world).or_else(|| round_over.and_then(|round| decided_by_round(world, round)));
    if let Some(outcome) = outcome {
        emit(
            world,
            BattleEvent::BattleEnded {
                outcome: outcome.clone(),
            },
        );
        world.resource_mut::<TurnState>().outcome = Some(outcome);
    }
}

/// Elimination (R2.5) and reaching an exit, which can happen at any moment.
fn decided_now(world: &World) -> Option<Outcome> {
    let active = in_action(world);
    let sides = world.resource::<Battlefield>().0.sides().len();
    let standing: Vec<usize> = (0..sides)
        .filter(|s| active.iter().any(|(side, ..)| side == s))
        .collect();
    match standing.as_slice() {
        [] => return Some(Outcome::Draw),
        [side] => {
            return Some(Outcome::Victory {
                side: *side,
                by: VictoryKind::Eliminate,
            });
        }
        _ => {}
    }
    let level = &world.resource::<Battlefield>().0;
    for v in level.victory() {
        if let Victory::ReachExit { side, unit, zone } = v {
            let s = level.sides().iter().position(|x| &x.name == side);
            let wanted = unit.as_ref().map(|u| unit_named(world, u));
            let reached = active.iter().any(|(us, pos, e)| {
                Some(*us) == s
                    && pos.tiles().any(|t| zone.contains(t))
                    && wanted.is_none_or(|w| w == Some(*e))
            });
            if let (true, Some(s)) = (reached, s) {
                return Some(Outcome::Victory {
                    side: s,
                    by: VictoryKind::ReachExit,
                });
            }
        }
    }
    None
}

/// The end of round `round`: HoldZone and SurviveRounds are scored (the
/// hold streaks counted), then the round limit (R11).
fn decided_by_round(world: &mut World, round: u32) -> Option<Outcome> {
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
                    .any(|(us, p, _)| Some(*us) == s && p.tiles().any(|t| zone.contains(t)));
                let theirs = active
                    .iter()
                    .any(|(us, p, _)| Some(*us) != s && p.tiles().any(|t| zone.contains(t)));
                streaks[i] = if mine && !theirs {
                    streaks[i].saturating_add(1)
                } else {
                    0
                };
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
    match winner {
        Some((side, by)) => Some(Outcome::Victory { side, by }),
        None if round >= round_limit(world) => Some(Outcome::Draw),
        None => None,
    }
}
