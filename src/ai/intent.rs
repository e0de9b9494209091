//! What AI units mean to do, for the window (as Into the Breach shows an
//! enemy's intent): where each will end its turn, whom it will strike and
//! what it expects to take from them.
//!
//! - During an AI unit's turn, its look-ahead decision's best plan
//!   ([`Intent::of_thought`]).
//! - On demand during a human's turn, each enemy as it would act were its
//!   turn now ([`foresee`]): its turn begun out of order on a copy of the
//!   battle and played by its own AI a few times over with sampled dice.
//!   The copy holds only what the asking side may see (V8.10): a hidden
//!   enemy is not foreseen.

use super::Players;
use super::sandbox::Sandbox;
use super::search::Thought;
use crate::battle::{GridPos, Side, name_of};
use crate::grid::Pos;
use bevy::prelude::*;

/// One AI unit's intent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Intent {
    /// The unit.
    pub unit: String,
    /// Where it stands now.
    pub from: Pos,
    /// Where it will end its turn.
    pub to: Pos,
    /// Whom it will harm, with the HP and AR it expects them to lose
    /// (a mean over its tries), most first.
    pub targets: Vec<(String, f64)>,
}

/// Tries of each enemy's turn behind a foreseen intent.
const TRIES: u64 = 4;

impl Intent {
    /// The intent of the look-ahead's chosen plan: `from` where the unit
    /// stands as it decides.
    pub fn of_thought(thought: &Thought, from: Pos) -> Option<Intent> {
        let best = thought.considered.first()?;
        let mut targets = best.harm.clone();
        targets.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(Intent {
            unit: thought.unit.clone(),
            from,
            to: best.end.unwrap_or(from),
            targets,
        })
    }
}

/// What each unit an AI plays against `viewer`'s side would do were its
/// turn now, those `viewer` can see (V8.10) and still in action.
pub fn foresee(world: &mut World, players: &Players, viewer: usize) -> Vec<Intent> {
    let mut out = vec![];
    for unit in super::sight::enemies_in_sight(world, viewer) {
        let side = world.get::<Side>(unit).map_or(0, |s| s.0);
        let Some(profile) = players.of(side).cloned() else {
            continue;
        };
        let Some(from) = world.get::<GridPos>(unit).map(|p| p.0) else {
            continue;
        };
        let Some(mut sandbox) = Sandbox::new(world, unit, &profile) else {
            continue;
        };
        let mut to = from;
        let mut targets: Vec<(String, f64)> = vec![];
        for i in 0..TRIES {
            let tried = sandbox.try_out(None, 0x1D7E_u64 + i, 0, false);
            if i == 0 {
                to = tried.end.unwrap_or(from);
            }
            for (name, harm) in tried.harm {
                match targets.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, h)) => *h += harm,
                    None => targets.push((name, harm)),
                }
            }
        }
        targets.iter_mut().for_each(|(_, h)| *h /= TRIES as f64);
        targets.sort_by(|a, b| b.1.total_cmp(&a.1));
        out.push(Intent {
            unit: name_of(world, unit),
            from,
            to,
            targets,
        });
    }
    out
}
