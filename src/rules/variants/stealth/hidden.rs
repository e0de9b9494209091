//! V8.2 hidden units and V8.6 revealing. A unit of a `hidden` side (R2.2)
//! starts hidden from every other side, and any unit out of all of a
//! side's sight at the start starts hidden from that side (decision). A
//! hidden unit that attacks is revealed once the attack is resolved (it
//! strikes unseen, V8.7).

use super::sight::side_sees_tile;
use crate::battle::{Battlefield, Side, body_of, units};
use crate::rules::events::{BattleEvent, Reveal, emit, id_of};
use bevy::prelude::*;

pub use crate::battle::{Hidden, hidden_from};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(crate::rules::turns::turn::OrderRound, end_surprise);
}

/// Hides at the start of the battle (V8.2): a hidden side's units from
/// every other side, and every unit from each side that sees none of its
/// tiles. Nothing without stealth.
pub fn hide_at_start(world: &mut World) {
    if !super::switch::on(world) {
        return;
    }
    let sides = world.resource::<Battlefield>().0.sides().to_vec();
    let mut hidden = vec![];
    for unit in units(world) {
        let Some(own) = world.get::<Side>(unit).map(|s| s.0) else {
            continue;
        };
        let Some(body) = body_of(world, unit) else {
            continue;
        };
        let mut bits = 0u32;
        for (side, _) in sides
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != own && *s < 32)
        {
            let unseen = !body.tiles().any(|t| side_sees_tile(world, side, t));
            if sides[own].hidden || unseen {
                bits |= 1 << side;
            }
        }
        if bits != 0 {
            hidden.push((unit, bits));
        }
    }
    let told = world.contains_resource::<crate::rules::events::BattleEvents>();
    for (unit, bits) in hidden {
        world.entity_mut(unit).insert(Hidden(bits));
        if told {
            let hiding = crate::rules::events::Hiding {
                unit: id_of(world, unit),
                from: bits,
                at_start: true,
            };
            emit(world, BattleEvent::Hid(hiding));
        }
    }
    // Surprise (V8.9): a hidden side ambushes every other side.
    if sides.iter().any(|s| s.hidden) {
        for unit in units(world) {
            let own = world.get::<Side>(unit).map(|s| s.0);
            if own.is_some_and(|s| !sides[s].hidden) {
                world.entity_mut(unit).insert(crate::battle::Surprised);
            }
        }
    }
}

/// V8.9: surprise ends with round 1; the ambushed are off-guard no more
/// once round 2 begins (and its start tells it).
fn end_surprise(world: &mut World) {
    if world
        .resource::<crate::rules::turns::turn::TurnState>()
        .round
        != 2
    {
        return;
    }
    for unit in units(world) {
        if world
            .entity_mut(unit)
            .take::<crate::battle::Surprised>()
            .is_some()
        {
            world.entity_mut(unit).remove::<crate::battle::OffGuard>();
        }
    }
}

/// Reveals `unit` to every side it was hidden from, telling why (V8.6).
pub fn reveal(world: &mut World, unit: Entity, cause: Reveal) {
    if world.entity_mut(unit).take::<Hidden>().is_some() {
        let e = world.entity(unit);
        let revelation = crate::rules::events::Revelation {
            unit: id_of(world, unit),
            cause,
            at: e
                .get::<crate::battle::GridPos>()
                .map_or_else(Default::default, |p| p.0),
            facing: e
                .get::<crate::battle::Facing>()
                .map_or(crate::grid::Dir::N, |f| f.0),
            hp: e.get::<crate::battle::Health>().map_or(0, |h| h.hp),
        };
        emit(world, BattleEvent::Revealed(revelation));
        // Seen again by every side: no side's ghost of it is left (#24).
        if let Some(mut seen) = world.get_resource_mut::<crate::battle::LastSeen>() {
            seen.0.retain(|(_, u), _| *u != revelation.unit);
        }
    }
}
