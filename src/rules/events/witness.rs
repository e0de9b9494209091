//! Who is told of each event (V8.1, #24): the battle's one stream, cut
//! per side. The referee's stream (scenarios, replays, saves, the
//! invariants) holds every event; a side's view (its window, its AI, its
//! log) reads only the events it could witness.
//!
//! The mask is decided when the event happens, from who is hidden from
//! whom at that moment *(decisions, DECISIONS.md "Stealth and vision")*:
//! - a side is told of an event when it sees every unit the event names;
//! - a unit hidden from a side is still named to it when the event is its
//!   own unmasking: the strike of a hidden attacker on a unit the side
//!   sees (V8.7: it is revealed right after, V8.6), the unit a Move ran
//!   into (V8.6), a unit a Search found (V8.5);
//! - the summary of a Move (from where to where) is told only to sides
//!   that saw the unit when the command began: a unit spotted halfway is
//!   shown from where it was seen (its Revealed event carries its tile,
//!   its later steps follow), never from where it set out;
//! - hiding at the start (V8.2) is told to the unit's own side (and any
//!   that sees it), a Hide during the battle to every side that saw it
//!   until then: they see it slip away and keep its last-known tile
//!   ([`crate::battle::LastSeen`]);
//! - a revealed unit, and events naming nobody (rounds, landings, the
//!   end), are told to every side; a refusal to the sides that see the
//!   actor.

use super::BattleEvent;
use crate::battle::{Hidden, Roster, UnitId};
use bevy::prelude::*;

/// Every side told: the mask of an event nothing hides.
pub const EVERY_SIDE: u32 = u32::MAX;

/// True when the mask `told` includes `side`.
pub fn is_told(told: u32, side: usize) -> bool {
    side >= 32 || told & (1 << side) != 0
}

/// The sides each unit was hidden from when the command now running
/// began, by [`UnitId`]: a Move's summary is told only to the sides that
/// saw the mover set out.
#[derive(Resource, Clone, Debug, Default)]
pub struct HiddenAtCommand(Vec<u32>);

/// Notes who is hidden from whom as a command begins.
pub fn note_command_start(world: &mut World) {
    let masks = world
        .get_resource::<Roster>()
        .map(|r| r.units().to_vec())
        .unwrap_or_default()
        .into_iter()
        .map(|e| world.get::<Hidden>(e).map_or(0, |h| h.0))
        .collect();
    world.insert_resource(HiddenAtCommand(masks));
}

/// The sides told of an event naming one unit only, hidden as `hidden`
/// says: for systems that push to [`super::BattleEvents`] with a query.
pub fn told_of(hidden: Option<&Hidden>) -> u32 {
    hidden.map_or(EVERY_SIDE, |h| !h.0)
}

/// The sides hidden from `unit` now, one bit per side.
fn hidden_now(world: &World, unit: UnitId) -> u32 {
    world
        .get_resource::<Roster>()
        .and_then(|r| r.units().get(unit.0 as usize).copied())
        .and_then(|e| world.get::<Hidden>(e))
        .map_or(0, |h| h.0)
}

/// The unit this event unmasks, named to a side that does not see it yet
/// because the event itself shows it: a hidden striker (V8.7), the unit a
/// Move ran into (V8.6), the unit a Search found (V8.5).
fn unmasked(event: &BattleEvent) -> Option<UnitId> {
    use BattleEvent::*;
    match event {
        AttackRolled(a) => Some(a.attacker),
        // A unit's own harm (a fall, V9.4) unmasks no one.
        Damaged { source, unit, .. } if source != unit => Some(*source),
        ReactionTaken { reactor, .. } => Some(*reactor),
        KnockedDown { by, .. } | Disarmed { by, .. } | Shoved { by, .. } | Grappled { by, .. } => {
            Some(*by)
        }
        Crushing { unit, .. } | Bumped(super::Bump { unit, .. }) => Some(*unit),
        Searched(r) if r.success() => Some(r.unit),
        _ => None,
    }
}

/// The sides told of `event` as the battle stands now, one bit per side.
pub fn witnesses(world: &World, event: &BattleEvent) -> u32 {
    use BattleEvent::*;
    let named = event.units();
    let at_command = |u: UnitId| {
        world
            .get_resource::<HiddenAtCommand>()
            .and_then(|h| h.0.get(u.0 as usize).copied())
            .unwrap_or(0)
    };
    match event {
        Hid(h) if h.at_start => !h.from,
        Hid(h) => !at_command(h.unit),
        Revealed(_) => EVERY_SIDE,
        CommandRefused { command, .. } => command
            .actor()
            .and_then(|n| crate::battle::unit_named(world, n))
            .and_then(|e| world.get::<Hidden>(e))
            .map_or(EVERY_SIDE, |h| !h.0),
        Walked(super::Stretch { unit, .. }) | Moved { unit, .. } => {
            !(hidden_now(world, *unit) | at_command(*unit))
        }
        _ => {
            let shown = unmasked(event);
            named
                .iter()
                .filter(|u| Some(**u) != shown)
                .fold(EVERY_SIDE, |told, u| told & !hidden_now(world, *u))
        }
    }
}
