//! V2 active defence (004 with 003's notes; a level's `rules: (defence:
//! Active)`): the defender answers an attack with Block, Parry or Dodge, a
//! d12 against the attack's total.
//!
//! - **Block** (a shield): MB + STR + Block Value + 1d12 ≥ total: the damage
//!   is reduced by Block Strength (catalog `block`, `block_strength`).
//! - **Parry** (a melee weapon, melee attacks only): MB + best of STR and
//!   DEX + the weapon's attack and `parry` bonuses + 1d12 ≥ total; a d12 of
//!   10 or more is a perfect parry, no damage; otherwise the defender picks
//!   the zone the hit lands on (V4, no zone d10 then) and rolls a second d12:
//!   at least the first, no damage.
//! - **Dodge**: DEX + PER (WIS) + 1d12 ≥ total: no damage, shots too.
//!
//! *Decisions* (DECISIONS.md): the hit still has to beat a DV, the part of
//! R1.1 that is not the defender's own quickness (10 + armor + readied
//! shield + Defend + cover: DEX goes into Dodge instead), and its degrees
//! count as before. Each answer spends one reaction (R3.2). No answer is
//! possible off-guard (R2.3), from the rear (R4.3), out of action or with no
//! reaction left; a prone unit cannot dodge. Throws (R9) aim at a tile and
//! are not answered. The defender declares its answer when the attack is
//! declared: a human side is asked (the `Ask` flow of R8), the AI and sides
//! that always react pick the answer that lets the least damage through, a
//! scenario names it in `defences` (else block, parry, dodge in that order).
//!
//! Where it steps in: DEX leaves the DV and the declared answer is
//! gathered with the attack ([`AttackSchedule`]), the defender of an `Ask`
//! side is asked in the Decide phase, the answer is rolled in
//! [`HitSchedule::Answer`] (R8.6's parry is off then).

use crate::battle::{Battlefield, OffGuard, Prone, Reactions, Side, Stats};
use crate::battle::{out_of_action, unit_named};
use crate::dice::Dice;
use crate::format::{BodyPart, Defence, Guard};
use crate::grid::Pos;
use crate::rules::attacks::attack::DEX_DV;
use crate::rules::attacks::hit::{AnswerSystems, Hit, HitSchedule};
use crate::rules::attacks::preview::{AttackPreview, preview_of};
use crate::rules::attacks::resolution::draft_for;
use crate::rules::command::Command;
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::modifiers::{
    Answer, AnswerEffect, AttackDraft, AttackMode, AttackSchedule, AttackSystems, gather,
};
use crate::rules::pipeline::Decisions;
use crate::rules::positioning::facing::is_rear_attack;
use crate::rules::positioning::threat::melee_weapon_for;
use crate::rules::reactions::parry::parry_bonus;
use crate::rules::reactions::policy::{ReactionPolicy, policy_of};
use crate::rules::rule::Rule;
use crate::rules::turns::turn::TurnState;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use std::sync::Arc;

/// Whether the level plays with active defence.
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().defence == Defence::Active)
}

/// Run condition: the level plays with active defence.
pub fn switched_on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().defence == Defence::Active)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        (
            take_dex_out_of_the_dv.in_set(AttackSystems::Situational),
            declare_the_answer.in_set(AttackSystems::Answer),
        )
            .run_if(switched_on),
    )
    .add_systems(
        HitSchedule::Answer,
        answer_the_hit
            .in_set(AnswerSystems::Declared)
            .run_if(switched_on),
    );
}

/// A scenario's answers (`defences: { "T": Dodge }`): named units answer so;
/// the others by the scenario default (block, parry, dodge).
#[derive(Resource, Clone, Debug, Default)]
pub struct GuardOrders(pub HashMap<Entity, Guard>);

/// An answer a defender can give an attack, with its numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuardOdds {
    /// Which.
    pub guard: Guard,
    /// Added to the d12.
    pub value: i32,
    /// Block Strength (0 for the others).
    pub strength: i32,
    /// A parry's chosen zone and the AR that stands there (V4).
    pub zone: Option<(BodyPart, i32)>,
    /// Who answers for the target, if another does (V12.4).
    pub by: Option<Entity>,
    /// Two d12s, the lower counts (V12.4's mounted dodge).
    pub keep_lower: bool,
}

impl GuardOdds {
    /// The answer as the rules carry it: with what it makes of a hit of
    /// each total, by its d12s (and a parry's second d12).
    pub fn answer(&self) -> Answer {
        let hit_on = |zone: Option<(BodyPart, i32)>| match zone {
            Some((part, ar)) => AnswerEffect::Redirected(part, ar),
            None => AnswerEffect::Lands,
        };
        // ways[n]: the attack's total is value + n + 1, so the d12 must
        // roll n + 1 or more (n = 12: it cannot).
        let ways = (0..=12)
            .map(|n: i32| {
                let meets = meets(self.value, self.value + n + 1);
                // The lower of two d12s meets only when both do (V12.4).
                let meets = if self.keep_lower {
                    meets * meets
                } else {
                    meets
                };
                match self.guard {
                    Guard::Dodge => vec![
                        (meets, AnswerEffect::Avoided),
                        (1.0 - meets, AnswerEffect::Lands),
                    ],
                    Guard::Block => vec![
                        (meets, AnswerEffect::Reduced(self.strength)),
                        (1.0 - meets, AnswerEffect::Lands),
                    ],
                    Guard::Parry => (1..=12)
                        .flat_map(|r: i32| {
                            // The lower of two d12s against a much larger
                            // attacker (V10.5).
                            let p = if self.keep_lower {
                                f64::from((13 - r).pow(2) - (12 - r).pow(2)) / 144.0
                            } else {
                                1.0 / 12.0
                            };
                            if r <= n {
                                vec![(p, AnswerEffect::Lands)]
                            } else if r >= 10 {
                                vec![(p, AnswerEffect::Avoided)]
                            } else {
                                // The second d12 must meet the first.
                                let again = f64::from(13 - r) / 12.0;
                                vec![
                                    (p * again, AnswerEffect::Avoided),
                                    (p * (1.0 - again), hit_on(self.zone)),
                                ]
                            }
                        })
                        .collect(),
                    Guard::None => vec![(1.0, AnswerEffect::Lands)],
                }
            })
            .collect::<Vec<_>>();
        Answer {
            guard: self.guard,
            value: self.value,
            strength: self.strength,
            zone: self.zone,
            ways: Arc::from(ways),
            by: self.by,
            keep_lower: self.keep_lower,
        }
    }
}

/// Whether the target of `draft` may answer it at all.
pub fn able(world: &World, draft: &AttackDraft) -> bool {
    let target = draft.target;
    on(world)
        && answerable(world, draft)
        && (world.get::<Reactions>(target).is_some_and(|n| n.0 > 0)
            || crate::battle::partner(world, target).is_some_and(|p| ready(world, p)))
}

/// Whether `draft` is an attack its target could answer, whatever it has
/// left to answer with: not a throw (R9 aims at a tile), not one that
/// allows none (a crush, V7.6; an automatic hit, R7.9), and a target whose
/// side reacts, in action, not off-guard (R2.3), not struck from its rear
/// (R4.3) nor unseen (V8.7); under Energy, not a shot, which the target's
/// evasion meets (V5.10). Active defences (V2, and die ranks' V6.5)
/// share it.
pub fn answerable(world: &World, draft: &AttackDraft) -> bool {
    let target = draft.target;
    let shot_under_energy = draft.mode == AttackMode::Ranged && crate::battle::energy(world);
    draft.mode != AttackMode::Thrown
        && !shot_under_energy
        && !draft.unanswerable
        && !draft.auto_hit()
        && world.get_entity(target).is_ok()
        && world
            .get::<Side>(target)
            .is_some_and(|s| policy_of(world, s.0) != ReactionPolicy::Never)
        && !out_of_action(world, target)
        && !world.entity(target).contains::<OffGuard>()
        && !is_rear_attack(world, draft.from, target)
        && !draft.unseen
}

/// The answers `draft`'s target has, in the order block, parry, dodge
/// (empty when it may give none). A parry's zone is read from the armor
/// gathered with the draft (V4).
pub fn options(world: &World, draft: &AttackDraft) -> Vec<GuardOdds> {
    if !able(world, draft) {
        return vec![];
    }
    let target = draft.target;
    // A mounted pair answers for each other (V12.4): the rider blocks or
    // parries for itself or its mount, the mount dodges for both.
    let rider = crate::battle::rider_of(world, target);
    let mount = crate::battle::mount_of(world, target);
    let guard_by = rider.filter(|r| ready(world, *r)).unwrap_or(target);
    if rider.is_some() && guard_by == target && !ready(world, target) {
        return vec![];
    }
    let Some(t) = world.get::<Stats>(guard_by).map(|s| &s.template) else {
        return vec![];
    };
    let by = (guard_by != target).then_some(guard_by);
    let catalog = &world.resource::<Battlefield>().0.catalog;
    let mut out = vec![];
    // A block takes damage off, and a maneuver deals none: the target
    // parries or dodges it (004:201) *(decision)*.
    let blocks = draft.maneuver.is_none();
    if let Some(shield) = t
        .shield
        .as_ref()
        .and_then(|s| catalog.shield(s))
        .filter(|_| blocks)
    {
        out.push(GuardOdds {
            guard: Guard::Block,
            value: t.mb + t.str + shield.block_bonus(),
            strength: shield.strength().max(0),
            zone: None,
            by,
            keep_lower: false,
        });
    }
    if draft.mode == AttackMode::Melee
        && let Some(weapon) = melee_weapon_for(world, guard_by, 1)
            .filter(|w| !w.has(crate::format::WeaponTrait::Natural))
    {
        out.push(GuardOdds {
            guard: Guard::Parry,
            value: parry_bonus(t, &weapon) + weapon.parry,
            strength: 0,
            zone: parry_zone(draft),
            by,
            // A parry against an attacker 2+ sizes larger (V10.5).
            keep_lower: draft.parry_advantage() < 0,
        });
    }
    if let Some(dodge) = mounted_dodge(world, target, rider, mount) {
        out.extend(dodge);
    } else if !world.entity(target).contains::<Prone>() {
        out.push(GuardOdds {
            guard: Guard::Dodge,
            value: t.dex + t.wis,
            strength: 0,
            zone: None,
            by: None,
            keep_lower: false,
        });
    }
    out
}

/// A unit that may answer now: in action, with a reaction left.
fn ready(world: &World, unit: Entity) -> bool {
    !out_of_action(world, unit) && world.get::<Reactions>(unit).is_some_and(|n| n.0 > 0)
}

/// The dodge of a mounted pair (V12.4, 004:98): riders do not dodge; the
/// mount dodges for both with its DEX, the rider's WIS and Riding, two d12s
/// keeping the lower, spending the mount's reaction. `None` when `target`
/// is in no pair; an empty list when the mount cannot dodge.
fn mounted_dodge(
    world: &World,
    target: Entity,
    rider: Option<Entity>,
    mount: Option<Entity>,
) -> Option<Vec<GuardOdds>> {
    let (rider, mount) = match (rider, mount) {
        (Some(r), None) => (r, target),
        (None, Some(m)) => (target, m),
        _ => return None,
    };
    let (Some(r), Some(m)) = (world.get::<Stats>(rider), world.get::<Stats>(mount)) else {
        return Some(vec![]);
    };
    if !ready(world, mount) || world.entity(mount).contains::<Prone>() {
        return Some(vec![]);
    }
    let riding = r
        .template
        .skills
        .get(&crate::format::Skill::Riding)
        .copied()
        .unwrap_or(0);
    Some(vec![GuardOdds {
        guard: Guard::Dodge,
        value: m.template.dex + r.template.wis + riding,
        strength: 0,
        zone: None,
        by: (mount != target).then_some(mount),
        keep_lower: true,
    }])
}

/// The zone a parrying defender lets the hit land on when hits land by
/// zone (V4): the one where the most armor stands, the first in d10 order
/// on a tie.
fn parry_zone(draft: &AttackDraft) -> Option<(BodyPart, i32)> {
    let zones = BodyPart::chances();
    if draft.armor.len() != zones.len() {
        return None;
    }
    zones
        .iter()
        .zip(&draft.armor)
        .map(|((part, _), (_, ar))| (*part, *ar))
        .rev()
        .max_by_key(|(_, ar)| *ar)
}

/// The answer the target of the `gathered` draft gives, declared with the
/// attack: a scenario's order, a human's answer, else the one that lets
/// the least damage through ([`best`]). `None` when it gives none.
pub fn chosen(world: &World, gathered: &AttackDraft) -> Option<GuardOdds> {
    let draft = gathered;
    let options = options(world, draft);
    if options.is_empty() {
        return None;
    }
    let pick = |g: Guard| options.iter().copied().find(|o| o.guard == g);
    if let Some(orders) = world.get_resource::<GuardOrders>() {
        // A scenario: its named answer (none when the unit lacks it), else
        // the first it has of block, parry, dodge (FORMAT.md).
        return match orders.0.get(&draft.target) {
            Some(g) => pick(*g),
            None => options.first().copied(),
        };
    }
    if let Some(g) = world
        .get_resource::<Decisions>()
        .and_then(|d| d.guard_of(draft.target))
    {
        return pick(g);
    }
    best(world, draft, &options)
}

/// Of `options`, the answer that lets the least damage through to HP (the
/// exact preview of the `gathered` draft), then the least before armor.
pub fn best(world: &World, gathered: &AttackDraft, options: &[GuardOdds]) -> Option<GuardOdds> {
    let base = preview_of(world, gathered);
    // Against a maneuver, the answer that most often stops it (V7).
    let maneuver = gathered.maneuver.is_some();
    let score = |p: &AttackPreview| match maneuver {
        true => (p.hit, 0.0),
        false => (p.harm(), p.expected_damage),
    };
    let mut best: Option<(GuardOdds, (f64, f64))> = None;
    for o in options {
        let s = score(&base.answered(Some(o.answer())));
        if best.is_none_or(|(_, b)| s < b) {
            best = Some((*o, s));
        }
    }
    best.map(|(o, _)| o)
}

/// Under active defence DEX defends through Dodge, not the DV *(decision)*:
/// R1.1's DEX term leaves the DV.
fn take_dex_out_of_the_dv(mut draft: ResMut<AttackDraft>) {
    draft
        .modifiers
        .retain(|m| !(m.rule == Rule::R1_1 && m.source == DEX_DV));
}

/// The answer the defender declares with the attack, gathered with it, so
/// the preview and the roll see the same.
fn declare_the_answer(world: &mut World) {
    let draft = world.resource::<AttackDraft>().clone();
    let answer = chosen(world, &draft).map(|g| g.answer());
    world.resource_mut::<AttackDraft>().answer = answer;
}

/// Rolls the defender's declared answer to the hit (its d12s right after
/// the attack's d20s, FORMAT.md) and tells it. Under active defence the
/// declared answer rules every hit: there is no R8.6 parry.
fn answer_the_hit(world: &mut World) {
    let mut hit = world.resource::<Hit>().clone();
    hit.answer_declared = true;
    if let Some(odds) = hit.draft.answer.clone().filter(|_| hit.degrees > 0) {
        roll_the_answer(world, &mut hit, &odds);
    }
    world.insert_resource(hit);
}

fn roll_the_answer(world: &mut World, hit: &mut Hit, odds: &Answer) {
    let target = hit.draft.target;
    // The pair's other spends its own reaction when it answers (V12.4).
    if let Some(mut n) = world.get_mut::<Reactions>(odds.by.unwrap_or(target)) {
        n.0 -= 1;
    }
    let first = world.resource_mut::<Dice>().roll(12);
    // A mounted dodge rolls two d12s and keeps the lower (V12.4).
    let (roll, worse) = if odds.keep_lower {
        let other = world.resource_mut::<Dice>().roll(12);
        (first.min(other), Some(first.max(other)))
    } else {
        (first, None)
    };
    let success = roll as i32 + odds.value >= hit.total;
    let mut second = None;
    if success {
        match odds.guard {
            Guard::Block => hit.reduce = odds.strength,
            Guard::Dodge => hit.degrees = 0,
            Guard::Parry if roll >= 10 => hit.degrees = 0,
            Guard::Parry => {
                hit.zone = odds.zone.map(|z| z.0);
                let again = world.resource_mut::<Dice>().roll(12);
                second = Some(again);
                if again >= roll {
                    hit.degrees = 0;
                }
            }
            Guard::None => {}
        }
    }
    let event = BattleEvent::Guarded {
        unit: id_of(world, target),
        guard: odds.guard,
        roll,
        value: odds.value,
        against: hit.total,
        success,
        second,
        worse,
        by: odds.by.map(|b| id_of(world, b)),
        zone: hit.zone,
        reduce: hit.reduce,
        avoided: hit.degrees == 0,
    };
    emit(world, event);
}

/// The chance a d12 + `value` meets `total`.
pub fn meets(value: i32, total: i32) -> f64 {
    let need = i64::from(total) - i64::from(value);
    (13 - need).clamp(0, 12) as f64 / 12.0
}

/// The attack `command` (an Attack or a Charge by `actor` on `target`)
/// declares, drafted before it is carried out, for the defender's question
/// (V2): its weapon, Power Attack, Lunge and aimed part as ordered; a
/// Charge's from `charge_end` (its planned path's end) when known, else
/// from where the charger stands.
pub fn declared_attack(
    world: &World,
    actor: Entity,
    target: Entity,
    command: &Command,
    charge_end: Option<Pos>,
) -> Option<AttackDraft> {
    match command {
        Command::Attack {
            weapon,
            power,
            lunge,
            part,
            ..
        } => {
            let mut d = draft_for(world, actor, target, weapon.as_deref()).ok()?;
            (d.power, d.lunge, d.aim) = (*power, *lunge, *part);
            Some(d)
        }
        Command::Charge { .. } => {
            let mut d = draft_for(world, actor, target, None).ok()?;
            d.charge = true;
            d.from = charge_end.unwrap_or(d.from);
            Some(d)
        }
        _ => None,
    }
}

/// The attack held for the defenders' answers (V2).
pub fn held_attack(world: &World) -> Option<AttackDraft> {
    let held = world.get_resource::<Decisions>()?.held.clone()?;
    let actor = world.resource::<TurnState>().current?;
    let target = unit_named(world, held.target()?)?;
    declared_attack(world, actor, target, &held, None)
}

/// The answers `defender` has to the held attack (V2), `None` left out.
pub fn held_attack_options(world: &World, defender: Entity) -> Vec<Guard> {
    held_attack(world)
        .filter(|d| d.target == defender)
        .map(|d| options(world, &d).into_iter().map(|o| o.guard).collect())
        .unwrap_or_default()
}

/// The held attack on `defender` previewed with each answer it has and
/// with none (the question's odds, V2).
pub fn held_attack_odds(world: &mut World, defender: Entity) -> Vec<(Guard, AttackPreview)> {
    let Some(draft) = held_attack(world).filter(|d| d.target == defender) else {
        return vec![];
    };
    let gathered = gather(world, draft);
    let options = options(world, &gathered);
    let base = preview_of(world, &gathered);
    options
        .iter()
        .map(|o| (o.guard, base.answered(Some(o.answer()))))
        .chain([(Guard::None, base.clone())])
        .collect()
}

/// The answer to the held attack that lets the least damage through.
pub fn held_attack_best(world: &mut World, defender: Entity) -> Option<Guard> {
    let draft = held_attack(world).filter(|d| d.target == defender)?;
    let gathered = gather(world, draft);
    let options = options(world, &gathered);
    best(world, &gathered, &options).map(|o| o.guard)
}
