//! Labelled modifiers and the attack schedule that gathers them.
//!
//! An attack (real, previewed or imagined by the AI) is an [`AttackDraft`]
//! run through the [`AttackSchedule`]: every rule that changes attacks has a
//! system there that reads the draft and the battle and pushes
//! [`Modifier`]s, each with its source and R-id. Resolution, preview and AI
//! all call [`gather`], so what the screen promises is what the dice do.
//!
//! Besides modifiers, the schedule gathers what the target's body and
//! defence make of a hit, for the exact preview: the armor standing where a
//! hit may land ([`AttackDraft::armor`]), the degrees whose wounds fell the
//! target ([`AttackDraft::fell`]) and the answer the defender declares
//! ([`AttackDraft::answer`]).

use crate::format::{BodyPart, Guard, Weapon};
use crate::grid::{Body, Pos};
use crate::rules::command::{ManeuverKind, Refusal};
use crate::rules::rule::Rule;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// The schedule that gathers an attack's modifiers.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttackSchedule;

/// Phases of gathering, in order (configured in `RulesPlugin`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackSystems {
    /// The attack's own numbers: R7.1 bonus, R1.1 DV, R7.7 damage bonus,
    /// the AR pool a hit meets (R1.2).
    Base,
    /// Situational modifiers: facing, prone, charge, flanking, cover, range…
    Situational,
    /// Rules that override the roll: automatic hits (R7.9).
    Final,
    /// Where a hit may land and what it does there: the armor by zone (V4),
    /// the degrees whose injuries fell the target (V3).
    Body,
    /// The answer the defender declares with the attack (V2), which may
    /// depend on all of the above.
    Answer,
}

/// What a declared answer makes of a hit that meets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerEffect {
    /// The hit lands as rolled.
    Lands,
    /// No damage at all.
    Avoided,
    /// The damage less this much.
    Reduced(i32),
    /// The hit lands on this body part, where this much AR stands.
    Redirected(BodyPart, i32),
}

/// An answer the defender declares with the attack (active defence, V2,
/// fills it in [`AttackSystems::Answer`]): what it is, for the reader and
/// the roll, and what it makes of a hit, for the exact preview.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Block, parry or dodge.
    pub guard: Guard,
    /// Added to the answer's die.
    pub value: i32,
    /// Damage a successful block takes off.
    pub strength: i32,
    /// The zone a parry lets the hit land on, and the AR standing there.
    pub zone: Option<(BodyPart, i32)>,
    /// `ways[n]`: how a hit ends, with each way's chance, when the attack's
    /// total is `value + n + 1` (index 0: at most `value + 1`; the last:
    /// beyond the answer's reach). The answer's own dice are the rule's.
    pub ways: Arc<[Vec<(f64, AnswerEffect)>]>,
    /// Who answers, when another than the target does: a mount dodging for
    /// its rider, a rider blocking or parrying for its mount (V12.4). Its
    /// reaction is spent, its name told.
    pub by: Option<Entity>,
    /// Two d12s, the lower counts: a mounted dodge (V12.4, 004:98).
    pub keep_lower: bool,
}

impl Answer {
    /// How a hit of `total` ends against this answer, with chances.
    pub fn ways_for(&self, total: i32) -> &[(f64, AnswerEffect)] {
        let last = self.ways.len().saturating_sub(1) as i64;
        let n = (i64::from(total) - i64::from(self.value) - 1).clamp(0, last);
        self.ways.get(n as usize).map_or(&[], |w| w.as_slice())
    }
}

/// How an attack is made (R7.1 picks the attribute by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AttackMode {
    /// A melee weapon within reach.
    Melee,
    /// A projectile weapon.
    Ranged,
    /// A thrown weapon or item (R9).
    Thrown,
}

/// What a modifier does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// Advantages (positive) or disadvantages (negative), counted (R0.4).
    Advantage(i32),
    /// Added to the attack roll (R7.1).
    Bonus(i32),
    /// Added to the target's DV (R1.1).
    Dv(i32),
    /// Added to the damage (R7.7).
    Damage(i32),
    /// The attack hits with 1 degree, no roll (R7.9).
    AutoHit,
    /// Extra reach for this attack (R7.8 Lunge); shown, not summed.
    Reach(i32),
    /// Degrees added to a hit's damage and injury (V10.2 size); a hit keeps
    /// at least 1 for its damage.
    Degrees(i32),
    /// Advantage (negative: disadvantage) on the defender's parry of this
    /// attack (V10.5: a giant's blow is hard to parry).
    Parry(i32),
    /// Ranks up (negative: down) the attacker's die (die ranks, V6.8).
    AttackRank(i32),
    /// Ranks up (negative: down) the defender's die (die ranks, V6.8).
    DefenceRank(i32),
}

/// One labelled modifier: what it does, why, and which rule says so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// The effect.
    pub effect: Effect,
    /// Its source, for the log ("rear attack", "MB").
    pub source: Cow<'static, str>,
    /// The rule that says so (R4.3).
    pub rule: Rule,
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, r) = (&self.source, self.rule);
        match self.effect {
            Effect::Advantage(n) if n >= 0 => write!(f, "{s} +{n} adv ({r})"),
            Effect::Advantage(n) => write!(f, "{s} +{} dis ({r})", -n),
            Effect::Bonus(n) => write!(f, "{s} {n:+} ({r})"),
            Effect::Dv(n) => write!(f, "{s} {n:+} DV ({r})"),
            Effect::Damage(n) => write!(f, "{s} {n:+} damage ({r})"),
            Effect::AutoHit => write!(f, "{s}: automatic hit ({r})"),
            Effect::Reach(n) => write!(f, "{s} +{n} reach ({r})"),
            Effect::Parry(n) if n >= 0 => write!(f, "{s}: parry +{n} adv ({r})"),
            Effect::Parry(n) => write!(f, "{s}: parry +{} dis ({r})", -n),
            Effect::AttackRank(n) => write!(f, "{s} {n:+} ATT rank ({r})"),
            Effect::DefenceRank(n) => write!(f, "{s} {n:+} DEF rank ({r})"),
            Effect::Degrees(n) => {
                let unit = if n.abs() == 1 { "degree" } else { "degrees" };
                write!(f, "{s} {n:+} {unit} ({r})")
            }
        }
    }
}

/// An attack to gather modifiers for. The input fields say what is tried;
/// rules fill `modifiers`, or `refusal` when the attack is impossible.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct AttackDraft {
    /// The attacker.
    pub attacker: Entity,
    /// The target unit; [`Entity::PLACEHOLDER`] for a throw at a tile.
    pub target: Entity,
    /// The aimed tile: the target's, or the tile thrown at (R9.1).
    pub at: Pos,
    /// The weapon (resolved from the catalog; "unarmed" without one).
    pub weapon: Arc<Weapon>,
    /// Melee, ranged or thrown.
    pub mode: AttackMode,
    /// The attacker's tile: its own, or a hypothetical one for previews.
    pub from: Pos,
    /// Attacks and throws the attacker made earlier this turn (R7.6).
    pub earlier_attacks: u32,
    /// A reactive attack (R8.1): no iterative penalty.
    pub reaction: bool,
    /// The attack ending a Charge (R4.7).
    /// The target's side does not see the attacker (V8.7): the blow lands
    /// as from the rear (R4.3: no shield DV, no parry) and meets no answer.
    pub unseen: bool,
    pub charge: bool,
    /// Stamina spent on Power Attack or Deadly Aim (R7.8).
    pub power: i32,
    /// Lunge: +1 reach for this attack (R7.8).
    pub lunge: bool,
    /// The body part aimed at (V3 without hit zones; `None`: the torso).
    pub aim: Option<BodyPart>,
    /// What the rules add.
    pub modifiers: Vec<Modifier>,
    /// Why the attack cannot be made, if it cannot.
    pub refusal: Option<Refusal>,
    /// The AR a hit may meet and its chance: the target's pool (R1.2), or
    /// with hit zones (V4) one entry per zone in the order of
    /// [`BodyPart::chances`].
    pub armor: Vec<(f64, i32)>,
    /// For each part of [`BodyPart::all`], by degrees (0 to 12, more as
    /// 12), the chance that the hit's injuries fell the target: surely (a
    /// knock-out, a death), or by a failed knock-out save; empty when hits
    /// do not injure (V3).
    pub fell: Vec<Vec<f64>>,
    /// For each part and degrees as [`AttackDraft::fell`], the sum of the
    /// values of the injuries the hit inflicts (minor 1 … fatal 5, V3): what
    /// it adds to the DC of the target's Constitution saves.
    pub wound_value: Vec<Vec<i32>>,
    /// The answer the defender declares (V2), if it gives one.
    pub answer: Option<Answer>,
    /// A maneuver (V7): no damage; it succeeds on a total of at least the
    /// DV (V7.1).
    pub maneuver: Option<ManeuverKind>,
    /// The target cannot answer it: no parry, no declared answer (a crush
    /// in a hold, V7.6).
    pub unanswerable: bool,
    /// The sides of the attacker's and the target's footprints (V10.6),
    /// read from the battle by [`gather`]: `(1, 1)` for one-tile units and
    /// a throw at a tile.
    pub sides: (i32, i32),
    /// The attack is rolled as an opposed contest of dice (die ranks, V6.3,
    /// fill it in [`AttackSystems::Answer`]) instead of R7's d20: its
    /// successes are the hit's degrees and its damage.
    pub contest: Option<crate::rules::contest::Contest>,
    /// The ranged attack is rolled against a Miss Chance (Energy, V5.10,
    /// filled in [`AttackSystems::Answer`]) instead of R7.1's total against
    /// DV.
    pub miss_chance: Option<crate::rules::miss_chance::MissChance>,
    /// A spell attack (PA, V11.3): the spell's attribute in place of R7.1's
    /// bonus; a touch meets the touch DV.
    pub spell: Option<Arc<crate::format::Spell>>,
    /// A shield the target casts against the hit as it lands (a Defense
    /// spell, V11.3 SD), declared with the attack.
    pub ward: Option<Ward>,
}

/// A Defense spell the target casts against a hit (V11.3 SD): 1d12 + its
/// attribute ≥ the attack's total, and it absorbs its dice of the damage.
#[derive(Clone, Debug, PartialEq)]
pub struct Ward {
    /// The spell.
    pub spell: String,
    /// The level it is cast at.
    pub level: i32,
    /// Its MP.
    pub mp: i32,
    /// Added to the d12.
    pub bonus: i32,
    /// The absorbing dice at this level: count, sides and bonus.
    pub dice: (u32, u32, i32),
    /// `(chance, absorbed)` of the dice, for the exact preview.
    pub absorbs: Arc<[(f64, i32)]>,
}

impl Ward {
    /// How a hit of `total` ends against the ward: `(chance, absorbed)`,
    /// 0 when the d12 falls short (or, beyond its reach, is not rolled).
    pub fn ways_for(&self, total: i32) -> Vec<(f64, i32)> {
        let works = (1..=12).filter(|f| f + self.bonus >= total).count() as f64 / 12.0;
        let mut out = vec![(1.0 - works, 0)];
        if works > 0.0 {
            out.extend(self.absorbs.iter().map(|&(q, n)| (works * q, n)));
        }
        out
    }
}

impl AttackDraft {
    /// A draft with no modifiers yet.
    pub fn new(
        attacker: Entity,
        target: Entity,
        weapon: Weapon,
        mode: AttackMode,
        from: Pos,
        at: Pos,
    ) -> Self {
        Self {
            attacker,
            target,
            at,
            weapon: Arc::new(weapon),
            mode,
            from,
            earlier_attacks: 0,
            reaction: false,
            unseen: false,
            charge: false,
            power: 0,
            lunge: false,
            aim: None,
            modifiers: vec![],
            refusal: None,
            armor: vec![(1.0, 0)],
            fell: vec![],
            wound_value: vec![],
            answer: None,
            maneuver: None,
            unanswerable: false,
            sides: (1, 1),
            contest: None,
            miss_chance: None,
            spell: None,
            ward: None,
        }
    }

    /// The total the roll must beat: the DV for an attack (R7.2), one less
    /// for a maneuver, which succeeds on meeting it (V7.1, 001:127).
    pub fn threshold(&self) -> i32 {
        self.dv() - i32::from(self.maneuver.is_some())
    }

    /// The attacker's body standing at `from` (V10.6).
    pub fn attacker_body(&self) -> Body {
        Body::new(self.from, self.sides.0)
    }

    /// The target's body at `at`, or the tile thrown at (V10.6).
    pub fn target_body(&self) -> Body {
        Body::new(self.at, self.sides.1)
    }

    /// The grid distance of the attack: between the nearest tiles of the
    /// two bodies (V10.6).
    pub fn distance(&self) -> i32 {
        self.attacker_body().gap(self.target_body())
    }

    /// The attacker's tile the attack comes from: its tile nearest the
    /// target's centre (V10.6; its own tile for a one-tile unit).
    pub fn from_tile(&self) -> Pos {
        self.attacker_body().facing_tile(self.target_body())
    }

    /// Adds a modifier.
    pub fn push(&mut self, effect: Effect, source: impl Into<Cow<'static, str>>, rule: Rule) {
        self.modifiers.push(Modifier {
            effect,
            source: source.into(),
            rule,
        });
    }

    /// Marks the attack impossible (the first reason stands).
    pub fn refuse(&mut self, refusal: Refusal) {
        self.refusal.get_or_insert(refusal);
    }

    fn sum(&self, pick: impl Fn(Effect) -> Option<i32>) -> i32 {
        self.modifiers.iter().filter_map(|m| pick(m.effect)).sum()
    }

    /// Net advantage `n = adv − dis` (R0.4).
    pub fn advantage(&self) -> i32 {
        self.sum(|e| match e {
            Effect::Advantage(n) => Some(n),
            _ => None,
        })
    }

    /// True for a throw at a tile (R9.1): no target unit.
    pub fn aims_at_tile(&self) -> bool {
        self.target == Entity::PLACEHOLDER
    }

    /// Total added to the d20.
    pub fn bonus(&self) -> i32 {
        self.sum(|e| match e {
            Effect::Bonus(n) => Some(n),
            _ => None,
        })
    }

    /// The target's DV.
    pub fn dv(&self) -> i32 {
        self.sum(|e| match e {
            Effect::Dv(n) => Some(n),
            _ => None,
        })
    }

    /// Degrees added to a hit (V10.2).
    pub fn degree_shift(&self) -> i32 {
        self.sum(|e| match e {
            Effect::Degrees(n) => Some(n),
            _ => None,
        })
    }

    /// Net advantage on the defender's parry (V10.5).
    pub fn parry_advantage(&self) -> i32 {
        self.sum(|e| match e {
            Effect::Parry(n) => Some(n),
            _ => None,
        })
    }

    /// Flat damage added to the weapon dice.
    pub fn damage_bonus(&self) -> i32 {
        self.sum(|e| match e {
            Effect::Damage(n) => Some(n),
            _ => None,
        })
    }

    /// True when the attack hits without a roll (R7.9).
    pub fn auto_hit(&self) -> bool {
        self.modifiers.iter().any(|m| m.effect == Effect::AutoHit)
    }

    /// The modifiers of one kind, for the log.
    pub fn listed(&self, kind: fn(&Effect) -> bool) -> String {
        let parts: Vec<String> = self
            .modifiers
            .iter()
            .filter(|m| kind(&m.effect))
            .map(|m| m.to_string())
            .collect();
        parts.join(", ")
    }
}

/// The degrees a hit of `degrees` rolls its damage dice with after a
/// `shift` (V10.2): never below 1 for a hit; 0 for a miss.
pub fn damage_degrees(degrees: i32, shift: i32) -> i32 {
    if degrees > 0 {
        (degrees + shift).max(1)
    } else {
        0
    }
}

/// How many attacks [`gather`] has run while this resource is in the world.
/// Gathering is most of what the AI's reading of a battle costs (measured:
/// a look-ahead's time is 7 µs a gathering to within a sixth, a command's
/// 58 to 91 of them), so the look-ahead counts its work in gatherings:
/// counted, not timed, the same on any machine.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gathered(pub usize);

/// Runs the [`AttackSchedule`] on `draft` and returns it with every
/// modifier the rules add. Reads the battle, changes nothing (but the
/// count of [`Gathered`], where one is kept).
pub fn gather(world: &mut World, mut draft: AttackDraft) -> AttackDraft {
    if let Some(mut n) = world.get_resource_mut::<Gathered>() {
        n.0 += 1;
    }
    draft.sides = (
        crate::battle::side_of_body(world, draft.attacker),
        if draft.aims_at_tile() {
            1
        } else {
            crate::battle::side_of_body(world, draft.target)
        },
    );
    world.insert_resource(draft);
    world.run_schedule(AttackSchedule);
    let mut draft = world
        .remove_resource::<AttackDraft>()
        .expect("the attack schedule keeps the draft");
    // The systems of a set run in an order Bevy may change whenever a rule
    // is added; the modifiers are listed in RULES.md order (a stable sort:
    // one system's own order stays), so the log, the events and the odds
    // panel read the same from build to build.
    draft.modifiers.sort_by_key(|m| m.rule);
    draft
}
