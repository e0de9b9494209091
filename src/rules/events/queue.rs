//! The battle's events as a queue: append-only, read at each reader's
//! pace.

use super::battle_event::BattleEvent;
use super::witness::{EVERY_SIDE, is_told};
use crate::battle::UnitId;
use bevy::prelude::*;

/// The battle's events, oldest first. Append-only: readers keep their own
/// [`EventCursor`].
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BattleEvents {
    events: Vec<BattleEvent>,
    /// Beside each event, the sides told of it, one bit per side (V8.1,
    /// [`super::witness`]): every bit set when nothing is hidden.
    told: Vec<u32>,
}

/// How far a reader has read [`BattleEvents`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventCursor(pub usize);

impl BattleEvents {
    /// Appends an event every side is told of.
    pub fn push(&mut self, event: BattleEvent) {
        self.push_told(event, EVERY_SIDE);
    }

    /// Appends an event told to the sides in `told` (one bit per side).
    pub fn push_told(&mut self, event: BattleEvent, told: u32) {
        self.events.push(event);
        self.told.push(told);
    }

    /// Beside each event, the sides told of it (one bit per side).
    pub fn told(&self) -> &[u32] {
        &self.told
    }

    /// The events `side` was told of (V8.1), oldest first: its view of
    /// the battle. `None`, the referee, reads them all.
    pub fn told_to(&self, side: Option<usize>) -> impl Iterator<Item = &BattleEvent> {
        self.events
            .iter()
            .zip(&self.told)
            .filter(move |(_, t)| side.is_none_or(|s| is_told(**t, s)))
            .map(|(e, _)| e)
    }

    /// Like [`Self::read`], for one side's view: the unread events `side`
    /// was told of, with their indices in the whole stream.
    pub fn read_for(
        &self,
        side: Option<usize>,
        cursor: &mut EventCursor,
    ) -> Vec<(usize, &BattleEvent)> {
        let from = cursor.0.min(self.events.len());
        cursor.0 = self.events.len();
        (from..self.events.len())
            .filter(|&i| side.is_none_or(|s| is_told(self.told[i], s)))
            .map(|i| (i, &self.events[i]))
            .collect()
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

    /// Drops every event after the first `len`: for a copy of a battle put
    /// back to a position it held ([`crate::save::SaveGame::rewind`]), so
    /// what stays is exactly what was there then.
    pub fn truncate(&mut self, len: usize) {
        self.events.truncate(len);
        self.told.truncate(len);
    }

    /// A queue holding `events`, each told to the sides in `told` beside
    /// it (a restored save); a save without them told every side all.
    pub fn from_events(events: Vec<BattleEvent>, mut told: Vec<u32>) -> Self {
        told.resize(events.len(), EVERY_SIDE);
        Self { events, told }
    }
}

/// Pushes `event` to the world's [`BattleEvents`], told to the sides that
/// witness it (V8.1, [`super::witness::witnesses`]).
pub fn emit(world: &mut World, event: BattleEvent) {
    let told = super::witness::witnesses(world, &event);
    world.resource_mut::<BattleEvents>().push_told(event, told);
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
