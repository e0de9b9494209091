//! Taking a weapon back up (R9.5) for the utility AI. A unit whose weapon
//! was knocked from its hand (a natural 1, R7.3; a disarm, V7.5) fights
//! with its fists until it picks one up: the plans weigh the pick-up
//! against everything else it could do with the action point.

use super::acts::Act;
use super::positions::shot_cost;
use super::profile::Weights;
use super::situation::Situation;
use crate::battle::{GridPos, GroundObject, name_of};
use crate::format::Weapon;
use crate::grid::Pos;
use crate::rules::command::Command;
use crate::rules::positioning::threat::Threat;
use bevy::prelude::*;

/// The chance of a blow landing, for the worth of a weapon not yet in hand
/// (about the R1.1 DV of a typical target against a typical bonus).
const TYPICAL_HIT: f64 = 0.6;

/// A weapon on the ground that the deciding unit would fight better with.
#[derive(Clone, Debug)]
pub(super) struct Loose {
    /// Where it lies.
    at: Pos,
    /// Its name, as Pick up names it.
    name: String,
    /// Its catalog entry.
    weapon: Weapon,
}

/// The weapons lying on the ground that fill an empty hand of `me`: a melee
/// weapon when it has none, a bow or sling when it has nothing at all.
pub(super) fn wanted(world: &mut World, sit: &Situation) -> Vec<Loose> {
    let me = sit.me();
    if me.melee.is_some() {
        return vec![];
    }
    let catalog = &sit.level.catalog;
    let mut query = world.query::<(&GroundObject, &GridPos)>();
    let mut out: Vec<Loose> = query
        .iter(world)
        .filter_map(|(object, at)| {
            let weapon = catalog.weapon(&object.name)?.clone();
            let fills = !weapon.is_ranged() || me.ranged.is_none();
            fills.then(|| Loose {
                at: at.0,
                name: object.name.clone(),
                weapon,
            })
        })
        .collect();
    // The query's order is the world's: sort, so the same battle decides
    // the same way.
    out.sort_by(|a, b| (a.at, &a.name).cmp(&(b.at, &b.name)));
    out
}

/// Picking up each of `loose` within reach of `me`'s body standing on `at`
/// (its tiles and the ones beside them, R9.5), valued as a round of the
/// blows the weapon would add, less the reactive attacks the pick-up
/// provokes there (R8.2).
pub(super) fn pick_ups(
    world: &World,
    sit: &Situation,
    at: Pos,
    loose: &[Loose],
    watchers: &[(Threat, i32)],
    w: &Weights,
) -> Vec<Act> {
    let me = sit.me();
    let body = me.body_at(at);
    let unit = name_of(world, me.entity);
    let mut out: Vec<Act> = vec![];
    for l in loose {
        if body.nearest(l.at).chebyshev(l.at) > 1 || out.iter().any(|a| names(a, &l.name)) {
            continue;
        }
        let blows = w.worth_attacks * TYPICAL_HIT * l.weapon.damage.mean();
        out.push(Act {
            value: blows - shot_cost(sit, watchers, at, w),
            command: Command::PickUp {
                unit: unit.clone(),
                item: l.name.clone(),
            },
            attack: false,
            defend: false,
        });
    }
    out
}

/// Whether `act` picks up an object called `name`.
fn names(act: &Act, name: &str) -> bool {
    matches!(&act.command, Command::PickUp { item, .. } if item == name)
}
