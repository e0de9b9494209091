//! A rolled hit on its way to the target, and the moments where other
//! rules step in.
//!
//! Once an attack's d20s are rolled, the resolution carries the [`Hit`]
//! through three schedules, each run at its moment with the hit as a
//! resource that the systems read and change:
//!
//! - [`HitSchedule::Answer`], right after the d20s: the defender answers.
//!   First [`AnswerSystems::Declared`], an answer declared with the attack
//!   (active defence, V2), which then rules the hit; else
//!   [`AnswerSystems::Reactive`], R8.6's parry of a melee hit.
//! - [`HitSchedule::Land`], before the damage dice: where the hit lands and
//!   the armor standing there (hit zones, V4).
//! - [`HitSchedule::Wound`], after the damage: what else the hit does
//!   (injuries, V3).
//!
//! The dice of each come in that order (FORMAT.md's dice order).

use crate::format::BodyPart;
use crate::rules::modifiers::AttackDraft;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// The moments of a rolled hit, each a schedule of its own.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HitSchedule {
    /// The defender answers the rolled hit.
    Answer,
    /// Where the hit lands, before the damage dice.
    Land,
    /// What the hit does besides damage, after it.
    Wound,
}

/// The steps of [`HitSchedule::Answer`], in order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnswerSystems {
    /// An answer declared with the attack (V2): it sets
    /// [`Hit::answer_declared`], and no reactive answer follows.
    Declared,
    /// An answer chosen once hit: R8.6's parry.
    Reactive,
}

/// The hit being resolved.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Hit {
    /// The attack, its modifiers gathered.
    pub draft: AttackDraft,
    /// The kept d20 (`None` for an automatic hit).
    pub kept: Option<u32>,
    /// Roll + bonus.
    pub total: i32,
    /// Degrees of success as rolled (R7.2).
    pub rolled: i32,
    /// Degrees left after the answers (0: no damage).
    pub degrees: i32,
    /// An answer declared with the attack ruled this hit (V2): the target
    /// gives no other.
    pub answer_declared: bool,
    /// Damage an answer takes off (a block, V2).
    pub reduce: i32,
    /// Damage a ward absorbs after that (V11.3 SD).
    pub absorb: i32,
    /// The body part it lands on: a zone chosen by an answer (a parry, V2)
    /// or rolled (V4).
    pub zone: Option<BodyPart>,
    /// The AR standing against it where it lands (V4); `None`: the
    /// target's whole pool (R1.2).
    pub armor: Option<i32>,
    /// The target was dying or stable when hit (R10.3, R10.4).
    pub down: bool,
}

impl Hit {
    /// The hit of `draft`, rolled `kept` for `total` and `degrees`.
    pub fn new(draft: AttackDraft, kept: Option<u32>, total: i32, degrees: i32) -> Self {
        Self {
            draft,
            kept,
            total,
            rolled: degrees,
            degrees,
            answer_declared: false,
            reduce: 0,
            absorb: 0,
            zone: None,
            armor: None,
            down: false,
        }
    }

    /// The hit was answered away: a hit as rolled, no damage now.
    pub fn answered_away(&self) -> bool {
        self.rolled > 0 && self.degrees == 0
    }

    /// The body part the hit injures (V3): the zone it landed on, else the
    /// part aimed at, else the torso.
    pub fn part(&self) -> BodyPart {
        self.zone.or(self.draft.aim).unwrap_or(BodyPart::Torso)
    }
}

/// Carries `hit` through the schedule `moment` and returns it as the rules
/// left it.
pub fn run(world: &mut World, moment: HitSchedule, hit: Hit) -> Hit {
    world.insert_resource(hit);
    world.run_schedule(moment);
    world
        .remove_resource::<Hit>()
        .expect("the hit schedules keep the hit")
}

/// What one attack did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackResult {
    /// Degrees of success, 0 for a miss.
    pub degrees: i32,
    /// The kept d20 (None for an automatic hit).
    pub kept: Option<u32>,
    /// Roll + bonus.
    pub total: i32,
    /// The hit was answered away (a dodge or parry): no fumble.
    pub answered: bool,
    /// Damage an answer takes off (a block, V2).
    pub reduce: i32,
    /// Damage a ward absorbs after that (V11.3 SD).
    pub absorb: i32,
    /// The zone an answer chose (a parry, V2 with V4).
    pub zone: Option<BodyPart>,
}
