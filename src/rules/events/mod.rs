//! What happened in a battle, as typed values: the one outcome stream that
//! the combat log formats, the view animates, and tests and the AI read.
//!
//! Every place the rules change the battle pushes a [`BattleEvent`] to the
//! [`BattleEvents`] queue, in the order things happen: a Move's steps come
//! one by one with the reactive attacks between them, an attack's roll
//! before its parry and its damage. Events name units by [`UnitId`] (never
//! an `Entity`), so they can be saved, compared and replayed.
//!
//! The queue is append-only for the battle: readers keep an
//! [`EventCursor`] and read what is new at their own pace
//! ([`BattleEvents::read`]). Commands run outside the frame ([`submit`]),
//! so Bevy `Message`s, which expire after two updates, would lose events
//! a slow reader had not seen.
//!
//! [`submit`]: crate::rules::pipeline::submit

mod battle_event;
mod die_ranks;
mod energy;
mod facts;
mod injuries;
mod jumps;
mod moves;
mod payload;
mod queue;
mod spells;
mod stealth;
pub mod witness;

pub use battle_event::{BattleEvent, EventKind};
pub use die_ranks::Debt;
pub use energy::{Cause, Condition, EnergyEvent};
pub use injuries::{InjurySave, ShockCheck};
pub use jumps::{FallCheck, FallRoll, JumpOutcome, JumpRoll};
pub use moves::{FallBack, Stretch};
pub use payload::{
    AttackRoll, DamageHow, DamageRoll, FallCause, GrappleEnd, MoveCost, Opening, Outcome, Reveal,
    Trigger, VictoryKind,
};
pub use queue::{BattleEvents, EventCursor, emit, id_of};
pub use spells::{Broken, Faded, SpellEvent};
pub use stealth::{Bump, Hiding, Revelation, StealthRoll};
pub use witness::{EVERY_SIDE, is_told};

impl EventKind {
    /// The kind's name as files write it (`"AttackRolled"`).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
