//! R11 victory: elimination (R2.5), holding a zone, surviving, reaching an
//! exit, and the draw at the round limit.

use super::log::log;
use super::turn::{Outcome, TurnState, round_limit};
use super::{CommandSystems, out_of_action};
use crate::battle::{Battlefield, GridPos, Side};
use crate::format::Victory;
use bevy::prelude::*;

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

/// Units in action per side: `(side, position, name)`.
fn in_action(world: &World) -> Vec<(usize, crate::grid::Pos, Entity)> {
    super::units(world)
        .into_iter()
        .filter(|e| !out_of_action(world, *e))
        .filter_map(|e| Some((world.get::<Side>(e)?.0, world.get::<GridPos>(e)?.0, e)))
        .collect()
}

fn declare(world: &mut World, outcome: Outcome) {
    let text = match &outcome {
        Outcome::Victory { side, by } => {
            let name = world.resource::<Battlefield>().0.sides()[*side]
                .name
                .clone();
            format!("{name} win ({by}, R11)")
        }
        Outcome::Draw => "the battle is a draw (R11)".to_string(),
    };
    log(world, text);
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
                    by: "Eliminate".into(),
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
                        by: "ReachExit".into(),
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
                    winner = s.map(|s| (s, "HoldZone"));
                }
            }
            Victory::SurviveRounds { side, rounds } if round >= *rounds => {
                let s = side_index(side);
                if active.iter().any(|(us, ..)| Some(*us) == s) && winner.is_none() {
                    winner = s.map(|s| (s, "SurviveRounds"));
                }
            }
            _ => {}
        }
    }
    world.resource_mut::<HoldStreaks>().0 = streaks;
    if let Some((side, by)) = winner {
        declare(
            world,
            Outcome::Victory {
                side,
                by: by.into(),
            },
        );
    } else if round >= round_limit(world) {
        declare(world, Outcome::Draw);
    }
}
