//! The battle's events as a queue: append-only, read at each reader's
//! pace.

use super::battle_event::BattleEvent;
use crate::battle::UnitId;
use bevy::prelude::*;

/// The battle's events, oldest first. Append-only: readers keep their own
/// [`EventCursor`].
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BattleEvents {
    events: Vec<BattleEvent>,
}

/// How far a reader has read [`BattleEvents`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventCursor(pub usize);

impl BattleEvents {
    /// Appends an event.
    pub fn push(&mut self, event: BattleEvent) {
        self.events.push(event);
    }

    /// Every event so far.
    pub fn all(&self) -> &[BattleEvent] {
        &self.events
    }

    /// The events `cursor` has not read yet; moves the cursor past them.
    pub fn read(&self, cursor: &mut EventCursor) -> &[BattleEvent] {
        let from = cursor.0.min(self.events.len());
        cursor.0 = self.events.len();
        &self.events[from..]
    }

    /// A cursor at the end: it will read only what happens from now on.
    pub fn cursor_at_end(&self) -> EventCursor {
        EventCursor(self.events.len())
    }

    /// A queue holding `events` (a restored save).
    pub fn from_events(events: Vec<BattleEvent>) -> Self {
        Self { events }
    }
}

/// Pushes `event` to the world's [`BattleEvents`].
pub fn emit(world: &mut World, event: BattleEvent) {
    world.resource_mut::<BattleEvents>().push(event);
}

/// The stable id of `unit` ([`UnitId`]); `u32::MAX` for an entity that is
/// not a unit.
pub fn id_of(world: &World, unit: Entity) -> UnitId {
    world
        .get::<UnitId>(unit)
        .copied()
        .unwrap_or(UnitId(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_each_event_once() {
        let mut q = BattleEvents::default();
        let mut c = EventCursor::default();
        q.push(BattleEvent::Died { unit: UnitId(1) });
        assert_eq!(q.read(&mut c).len(), 1);
        assert!(q.read(&mut c).is_empty());
        q.push(BattleEvent::Died { unit: UnitId(2) });
        q.push(BattleEvent::Died { unit: UnitId(3) });
        assert_eq!(
            q.read(&mut c),
            &[
                BattleEvent::Died { unit: UnitId(2) },
                BattleEvent::Died { unit: UnitId(3) }
            ]
        );
    }
}
