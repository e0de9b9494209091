//! The balance of worth a try of the look-ahead ([`super::search`]) is
//! judged by: each side's units by their worth, in action or not, and by
//! the HP and AR they have left (their injuries counted as HP where hits
//! injure only, V3 as 001); a battle won or lost counts a whole side.

use super::acts::INJURY_TOLERANCE;
use crate::battle::{ArmorReduction, Dying, GridPos, Health, UnitId};
use crate::grid::Pos;
use crate::rules::TurnState;
use crate::rules::events::Outcome;
use crate::rules::variants::injuries::{self, Injuries};
use bevy::prelude::*;

/// A unit the deciding side knows of, as a try counts it.
#[derive(Clone, Debug)]
pub(super) struct Known {
    /// Its entity in the copy the tries are played on.
    pub entity: Entity,
    /// Its id, the same in every copy.
    pub id: UnitId,
    /// Its side.
    pub side: usize,
    /// What the utility AI counts it worth.
    pub worth: f64,
    /// Its name.
    pub name: String,
    /// Its HP and AR at the decision ([`pool`]).
    pub pool: f64,
}

/// Where `me` stands and what each enemy has taken, as its turn ends.
pub(super) fn turn_end_of(
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
pub(super) fn balance(known: &[Known], side: usize, blind: bool, world: &World) -> f64 {
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
pub(super) fn pool(world: &World, unit: Entity) -> f64 {
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
