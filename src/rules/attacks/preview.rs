//! The exact preview of an attack: probability of a hit, of each number of
//! degrees, and the expected damage, from the same modifiers (the
//! [`AttackSchedule`](crate::rules::modifiers::AttackSchedule)) and the same formulas
//! ([`degrees`], R7.7 damage) as the resolution. No sampling.

use super::dice_odds::DiceSums;
pub use super::dice_odds::{DamageDice, kept_probability};
pub use super::preview_rolls::{degree_chances, expected_damage, fumble_chance};
use super::preview_rolls::{mean, melee_pierce};
use crate::format::BodyPart;
use crate::rules::attacks::damage::is_down;
use crate::rules::attacks::resolution::degrees;
use crate::rules::command::Refusal;
use crate::rules::contest::Contest;
use crate::rules::miss_chance::MissChance;
use crate::rules::modifiers::{Answer, AnswerEffect, AttackDraft, AttackMode, Modifier, Ward};
use crate::rules::modifiers::{damage_degrees, gather};
use bevy::prelude::*;

/// What an attack would do, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    /// Probability of a hit (at least 1 degree).
    pub hit: f64,
    /// `degrees[d]`: probability of exactly `d` degrees (`degrees[0]` = miss).
    pub degrees: Vec<f64>,
    /// Expected damage rolled, before armor (0 against the dying, R10.3).
    pub expected_damage: f64,
    /// The modifiers that went into it, labelled.
    pub modifiers: Vec<Modifier>,
    /// Net advantage (R0.4).
    pub advantage: i32,
    /// Total added to the d20.
    pub bonus: i32,
    /// The target's DV.
    pub dv: i32,
    /// The total the roll must beat: the DV, or one less for a maneuver,
    /// which succeeds on meeting it (V7.1).
    pub threshold: i32,
    /// A maneuver (V7): no damage.
    pub maneuver: Option<crate::rules::command::ManeuverKind>,
    /// The damage of a 1-degree hit: dice and flat bonus (R7.7).
    pub damage: DamageDice,
    /// The lowest natural roll that is a critical (R7.3).
    pub crit: u32,
    /// The attack hits without a roll (R7.9).
    pub auto_hit: bool,
    /// Hits injure only and deal no HP damage (V3 as 001 has it,
    /// `hp_damage: false`): their injuries may still fell the target.
    pub injure_only: bool,
    /// The target is dying or stable: a hit deals no damage (R10.3).
    pub down: bool,
    /// The chance of a fumble: a natural 1 that misses, which makes a melee
    /// attacker drop its weapon (R7.3). 0 for ranged and thrown attacks.
    pub fumble: f64,
    /// A melee attack (only those fumble, R7.3).
    pub melee: bool,
    /// The AR the hit may meet and its chance: the target's pool, or with
    /// hit zones (V4) one entry per zone.
    pub armor: Vec<(f64, i32)>,
    /// The answer the defender declares (V2), if it gives one.
    pub answer: Option<Answer>,
    /// The chance the answer takes all the damage away (a dodge, a parry;
    /// V2): part of `1 - degrees[0]`, not of `hit`.
    pub avoided: f64,
    /// Under injuries (V3): for each part (torso, arms, legs, head) and
    /// degrees (0 to 12), the chance the hit's injuries kill the target or
    /// knock it out. Empty without injuries.
    pub fell: Vec<Vec<f64>>,
    /// Under injuries (V3): for each part and degrees, the sum of the
    /// values of the injuries a hit inflicts. Empty without injuries.
    pub wound_value: Vec<Vec<i32>>,
    /// The part aimed at (V3 without hit zones).
    pub aim: BodyPart,
    /// Degrees the size adds to a hit's damage and injury (V10.2).
    pub shift: i32,
    /// Die ranks (V6): the contest rolled instead of the d20; `degrees`
    /// are its successes, each 1 damage.
    pub contest: Option<Contest>,
    /// Energy (V5.10): the Miss Chance a shot is rolled against instead of
    /// the DV.
    pub miss_chance: Option<MissChance>,
    /// Energy (V5.10, V5.11): `pierce[d]`, the part of `degrees[d]` from a
    /// kept 20, whose hit passes armor. Empty without Energy.
    pub pierce: Vec<f64>,
    /// The shield the target casts against a hit (V11.3 SD), if it does.
    pub ward: Option<Ward>,
}

/// One way an attack can end: its chance, the degrees of the hit (0: no
/// damage), the damage a block takes off, and the AR it meets (`None`: the
/// target's, each zone by its chance).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Landing {
    p: f64,
    degrees: usize,
    reduce: i32,
    ar: Option<(BodyPart, i32)>,
    /// A kept 20 under Energy: no armor stands (V5.10, V5.11).
    pierce: bool,
}

impl AttackPreview {
    /// A hit deals no damage: the target is down (R10.3), or it is a
    /// maneuver (V7.1).
    pub fn harmless(&self) -> bool {
        self.down || self.maneuver.is_some()
    }

    /// A hit deals no HP damage: harmless, or it injures only (V3 as 001
    /// has it).
    pub fn no_hp(&self) -> bool {
        self.harmless() || self.injure_only
    }

    /// Whether a hit lands on a zone of the body (V4): `armor` then has one
    /// entry per zone.
    pub fn by_zone(&self) -> bool {
        self.armor.len() == BodyPart::chances().len()
    }

    /// The same attack with `advantage` more net advantage and `bonus` more
    /// on the roll (a later attack's R7.6 penalty, a Power Attack's R7.8
    /// bonus), without gathering the modifiers again.
    pub fn adjusted(&self, advantage: i32, bonus: i32) -> AttackPreview {
        let mut out = self.clone();
        out.advantage += advantage;
        out.bonus += bonus;
        // Die ranks (V6.8): advantages count on the attack dice; a bonus
        // is no rank.
        if let Some(c) = out.contest.as_mut() {
            c.attack.advantage += advantage;
            out.degrees = c.success_chances();
            return out.answered(None);
        }
        // Energy (V5.10): advantages count on the Hit roll; a bonus is
        // none of the Miss Chance's terms.
        if let Some(m) = out.miss_chance.as_mut() {
            m.advantage += advantage;
            (out.degrees, out.pierce) = m.degree_chances();
            return out.answered(None);
        }
        let (a, b, t) = (out.advantage, out.bonus, out.threshold);
        out.degrees = degree_chances(a, b, t, out.crit, out.auto_hit);
        if !out.pierce.is_empty() {
            out.pierce = melee_pierce(a, b, t, out.crit, out.auto_hit, out.degrees.len());
        }
        if out.melee && out.maneuver.is_none_or(|m| m.with_weapon()) {
            out.fumble = fumble_chance(a, b, t, out.crit, out.auto_hit);
        }
        let answer = out.answer.take();
        out.answered(answer)
    }

    /// The same attack answered by `answer` (V2; `None`: unanswered).
    pub fn answered(&self, answer: Option<Answer>) -> AttackPreview {
        let mut out = self.clone();
        out.answer = answer;
        out.avoided = 0.0;
        out.expected_damage = expected_damage(&out.degrees, out.damage, out.no_hp());
        // A size shift (V10.2) moves dice per degree: the damage's own
        // chances then, as an answer or injuries need them.
        if out.shift != 0 || out.walks() {
            out.expected_damage = mean(&out.damage_chances());
        }
        if out.walks() {
            out.avoided = out
                .landings()
                .iter()
                .filter(|l| l.degrees == 0)
                .map(|l| l.p)
                .sum::<f64>()
                - out.degrees[0];
        }
        out.hit = 1.0 - out.degrees[0] - out.avoided;
        out
    }

    /// Every way the attack can end, with the defender's answer (V2): for
    /// each kept d20, the degrees, then the answer's d12s.
    fn landings(&self) -> Vec<Landing> {
        let plain = |p: f64, degrees: usize| Landing {
            p,
            degrees,
            reduce: 0,
            ar: None,
            pierce: false,
        };
        let answer = self
            .answer
            .as_ref()
            .filter(|_| !self.auto_hit && !self.down);
        let ward = self.ward.as_ref().filter(|_| !self.auto_hit && !self.down);
        if answer.is_none() && ward.is_none() {
            // A kept 20 under Energy lands past armor (V5.10, V5.11).
            let mut out = vec![];
            for (d, p) in self.degrees.iter().enumerate() {
                let pierced = self.pierce.get(d).copied().unwrap_or(0.0);
                out.push(plain(p - pierced, d));
                if pierced > 0.0 {
                    out.push(Landing {
                        pierce: true,
                        ..plain(pierced, d)
                    });
                }
            }
            return out;
        }
        let lands = [(1.0, AnswerEffect::Lands)];
        let mut out = vec![];
        for k in 1..=20 {
            let q = kept_probability(k, self.advantage);
            let total = k as i32 + self.bonus;
            let d = degrees(k, total, self.threshold, self.crit).max(0) as usize;
            if d == 0 {
                out.push(plain(q, 0));
                continue;
            }
            let pierce = k == 20 && !self.pierce.is_empty();
            for &(p, effect) in answer.map_or(&lands[..], |a| a.ways_for(total)) {
                let plain = |p: f64, degrees: usize| Landing {
                    pierce,
                    ..plain(p, degrees)
                };
                let landing = match effect {
                    AnswerEffect::Lands => plain(q * p, d),
                    AnswerEffect::Avoided => plain(q * p, 0),
                    AnswerEffect::Reduced(n) => Landing {
                        reduce: n,
                        ..plain(q * p, d)
                    },
                    AnswerEffect::Redirected(part, ar) => Landing {
                        ar: Some((part, ar)),
                        ..plain(q * p, d)
                    },
                };
                // A hit that still lands meets the ward (V11.3 SD).
                match ward.filter(|_| landing.degrees > 0) {
                    None => out.push(landing),
                    Some(w) => out.extend(w.ways_for(total).into_iter().map(|(pw, n)| Landing {
                        p: landing.p * pw,
                        reduce: landing.reduce + n,
                        ..landing
                    })),
                }
            }
        }
        out
    }

    /// The chance the answer takes some damage off the hit (a block, V2):
    /// it lands, reduced.
    pub fn blocked(&self) -> f64 {
        total(
            self.landings()
                .iter()
                .filter(|l| l.reduce > 0 && l.degrees > 0)
                .map(|l| l.p),
        )
    }

    /// The chance the hit's injuries knock the target out or kill it (V3).
    pub fn felled(&self) -> f64 {
        if self.fell.is_empty() {
            return 0.0;
        }
        total(self.blows().iter().map(|b| b.0 * b.3))
    }

    /// `landed[d]`: the chance the attack ends with `d` degrees after the
    /// defender's answer (V2): `landed[0]` counts misses and hits answered
    /// away. Without an answer, [`AttackPreview::degrees`].
    pub fn landed_degrees(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.degrees.len()];
        for l in self.landings() {
            if out.len() <= l.degrees {
                out.resize(l.degrees + 1, 0.0);
            }
            out[l.degrees] += l.p;
        }
        out
    }

    /// Whether the preview must walk every landing (an answer, V2, or
    /// injuries, V3) rather than the degrees alone.
    pub fn walks(&self) -> bool {
        self.answer.is_some()
            || self.ward.is_some()
            || !self.fell.is_empty()
            || self.pierce.iter().any(|p| *p > 0.0)
    }

    /// The AR a landing meets and the part it lands on, with chances: the
    /// part a parry picked, each zone (V4), or the part aimed at.
    fn parts(&self, l: &Landing) -> Vec<(f64, i32, BodyPart)> {
        let mut parts = self.armor_parts(l);
        if l.pierce {
            for part in &mut parts {
                part.1 = 0;
            }
        }
        parts
    }

    /// [`Self::parts`] before a kept 20 passes the armor (V5.10).
    fn armor_parts(&self, l: &Landing) -> Vec<(f64, i32, BodyPart)> {
        match l.ar {
            Some((part, ar)) => vec![(1.0, ar, part)],
            None if self.by_zone() => self
                .armor
                .iter()
                .zip(BodyPart::chances())
                .map(|(&(p, ar), (part, _))| (p, ar, part))
                .collect(),
            None => self
                .armor
                .iter()
                .map(|&(p, ar)| (p, ar, self.aim))
                .collect(),
        }
    }

    /// The chance a hit of `degrees` on `part` fells the target by its
    /// injuries (V3).
    fn fells(&self, part: BodyPart, degrees: usize) -> f64 {
        if degrees == 0 || self.harmless() {
            return 0.0;
        }
        let i = BodyPart::all().iter().position(|p| *p == part).unwrap_or(0);
        // V10.2: the injury's degrees after the size's shift.
        let shifted = (degrees as i32 + self.shift).max(0) as usize;
        self.fell.get(i).map_or(0.0, |by| {
            by.get(shifted.min(by.len().saturating_sub(1)))
                .copied()
                .unwrap_or(0.0)
        })
    }

    /// The expected sum of the values of the injuries the attack inflicts
    /// (V3; 0 without injuries): what it adds to the DC of the target's
    /// Constitution saves.
    pub fn expected_wound_value(&self) -> f64 {
        if self.wound_value.is_empty() || self.harmless() {
            return 0.0;
        }
        let mut sum = 0.0;
        for l in self.landings() {
            if l.degrees == 0 {
                continue;
            }
            let shifted = (l.degrees as i32 + self.shift).max(0) as usize;
            for (pz, _, part) in self.parts(&l) {
                let i = BodyPart::all().iter().position(|p| *p == part).unwrap_or(0);
                let value = self.wound_value.get(i).map_or(0, |by| {
                    by.get(shifted.min(by.len().saturating_sub(1)))
                        .copied()
                        .unwrap_or(0)
                });
                sum += l.p * pz * f64::from(value);
            }
        }
        sum
    }

    /// The joint chances of the damage dealt before armor, the AR it meets
    /// and the chance its injuries fell the target (V3): `(chance, damage,
    /// AR, fells)`.
    pub fn blows(&self) -> Vec<(f64, i32, i32, f64)> {
        let mut sums = DiceSums::new(self.damage);
        let mut out = vec![];
        for l in self.landings() {
            if l.p == 0.0 {
                continue;
            }
            let armor = self.parts(&l);
            if l.degrees == 0 || self.harmless() {
                for (pz, ar, _) in armor {
                    out.push((l.p * pz, 0, ar, 0.0));
                }
                continue;
            }
            // V3 as 001 has it: no damage dice, only the injuries.
            if self.injure_only {
                for (pz, ar, part) in armor {
                    out.push((l.p * pz, 0, ar, self.fells(part, l.degrees)));
                }
                continue;
            }
            let dice = damage_degrees(l.degrees as i32, self.shift) as usize;
            for (sum, q) in sums.of_degrees(dice).iter().enumerate() {
                if *q == 0.0 {
                    continue;
                }
                // R7.7: at least 1; then the block's reduction (V2).
                let n = ((sum as i32 + self.damage.bonus).max(1) - l.reduce).max(0);
                for &(pz, ar, part) in &armor {
                    out.push((l.p * q * pz, n, ar, self.fells(part, l.degrees)));
                }
            }
        }
        out
    }

    /// The expected damage that gets through the target's `ar` points of
    /// armor to its HP (R1.2: AR takes damage first).
    pub fn expected_harm(&self, ar: i32) -> f64 {
        self.damage_chances()
            .iter()
            .enumerate()
            .map(|(n, p)| p * (n as i32 - ar.max(0)).max(0) as f64)
            .sum()
    }

    /// The chance the attack drops a target with `hp` HP and `ar` AR to 0
    /// HP (R1.2: AR takes damage first; R10.1).
    pub fn drop_chance(&self, hp: i32, ar: i32) -> f64 {
        let needed = hp.saturating_add(ar).max(1) as usize;
        if self.no_hp() {
            return 0.0;
        }
        total(self.damage_chances().into_iter().skip(needed))
    }

    /// The expected damage that gets through the target's armor as it
    /// stands (its AR now; with hit zones, each zone's, by its chance).
    pub fn harm(&self) -> f64 {
        if self.walks() {
            return self
                .blows()
                .iter()
                .map(|(p, n, ar, _)| p * (n - ar.max(&0)).max(0) as f64)
                .sum();
        }
        self.armor
            .iter()
            .map(|(p, ar)| p * self.expected_harm(*ar))
            .sum()
    }

    /// The chance the attack drops a target with `hp` HP through its armor
    /// as it stands (with hit zones, each zone's, by its chance).
    pub fn drop(&self, hp: i32) -> f64 {
        if self.walks() {
            if self.harmless() {
                return 0.0;
            }
            return total(self.blows().iter().map(|(p, n, ar, fells)| {
                if *n >= hp.saturating_add(*ar).max(1) {
                    *p
                } else {
                    p * fells
                }
            }));
        }
        self.armor
            .iter()
            .map(|(p, ar)| p * self.drop_chance(hp, *ar))
            .sum()
    }

    /// `chances[n]`: the probability that the attack deals exactly `n`
    /// damage before armor (a miss, or a hit on the dying, deals 0).
    pub fn damage_chances(&self) -> Vec<f64> {
        if self.walks() {
            let mut out = vec![0.0];
            for (p, n, ..) in self.blows() {
                let n = n as usize;
                if out.len() <= n {
                    out.resize(n + 1, 0.0);
                }
                out[n] += p;
            }
            // The AR entries of a landing split its chance: summed here.
            return out;
        }
        let mut out = vec![self.degrees[0]];
        let mut add = |n: usize, p: f64| {
            if out.len() <= n {
                out.resize(n + 1, 0.0);
            }
            out[n] += p;
        };
        let mut sums = DiceSums::new(self.damage);
        for (d, p) in self.degrees.iter().enumerate().skip(1) {
            if *p == 0.0 {
                continue;
            }
            if self.no_hp() {
                add(0, *p);
                continue;
            }
            let dice = damage_degrees(d as i32, self.shift) as usize;
            for (sum, q) in sums.of_degrees(dice).iter().enumerate() {
                if *q > 0.0 {
                    add((sum as i32 + self.damage.bonus).max(1) as usize, p * q);
                }
            }
        }
        out
    }
}

/// Previews `draft` on the battle as it is (with `draft.from` as the
/// attacker's tile), with the answer its target declares (V2). Reads the
/// battle, changes nothing.
pub fn preview_attack(world: &mut World, draft: AttackDraft) -> Result<AttackPreview, Refusal> {
    let draft = gather(world, draft);
    if let Some(r) = draft.refusal.clone() {
        return Err(r);
    }
    let preview = preview_of(world, &draft);
    Ok(preview.answered(draft.answer.clone()))
}

/// The preview of a gathered `draft`, unanswered.
pub fn preview_of(world: &World, draft: &AttackDraft) -> AttackPreview {
    // A throw at a tile has no target unit (Entity::PLACEHOLDER).
    let down = is_down(world, draft.target);
    let dice = DamageDice {
        count: draft.weapon.damage.count,
        sides: draft.weapon.damage.sides,
        bonus: draft.weapon.damage.bonus + draft.damage_bonus(),
    };
    let (advantage, bonus, dv) = (draft.advantage(), draft.bonus(), draft.dv());
    let threshold = draft.threshold();
    let (crit, auto_hit) = (draft.weapon.crit_threshold(), draft.auto_hit());
    let degrees = degree_chances(advantage, bonus, threshold, crit, auto_hit);
    let melee = draft.mode == AttackMode::Melee;
    // R7.3's fumble: melee attacks, and of the maneuvers only those made
    // with a weapon (V7.1).
    let fumbles = melee && draft.maneuver.is_none_or(|m| m.with_weapon());
    let fumble = if fumbles {
        fumble_chance(advantage, bonus, threshold, crit, auto_hit)
    } else {
        0.0
    };
    let injure_only = world
        .get_resource::<crate::battle::Battlefield>()
        .is_some_and(|f| f.0.rules().injure_only());
    let preview = AttackPreview {
        fumble,
        melee,
        hit: 1.0 - degrees[0],
        expected_damage: expected_damage(
            &degrees,
            dice,
            down || draft.maneuver.is_some() || injure_only,
        ),
        injure_only,
        degrees,
        modifiers: draft.modifiers.clone(),
        advantage,
        bonus,
        dv,
        threshold,
        maneuver: draft.maneuver,
        damage: dice,
        crit,
        auto_hit,
        down,
        armor: draft.armor.clone(),
        answer: None,
        avoided: 0.0,
        fell: draft.fell.clone(),
        wound_value: draft.wound_value.clone(),
        aim: draft.aim.unwrap_or(BodyPart::Torso),
        shift: if draft.maneuver.is_some() {
            0
        } else {
            draft.degree_shift()
        },
        contest: None,
        miss_chance: None,
        pierce: vec![],
        ward: draft.ward.clone(),
    };
    match (&draft.contest, &draft.miss_chance) {
        (Some(contest), _) => with_contest(preview, contest),
        (None, Some(chance)) => with_miss_chance(preview, chance),
        // Under Energy a melee kept 20 passes armor (V5.11).
        (None, None) if crate::battle::energy(world) && draft.maneuver.is_none() => {
            let mut p = preview;
            let (a, b, t) = (p.advantage, p.bonus, p.threshold);
            p.pierce = melee_pierce(a, b, t, p.crit, p.auto_hit, p.degrees.len());
            p
        }
        (None, None) => preview,
    }
}

/// The preview of a shot against a Miss Chance (Energy, V5.10): every
/// kept d20 against every evasion chain to its stated depth; no bonus, no
/// fumble, and a kept 20's hit past armor.
fn with_miss_chance(mut p: AttackPreview, chance: &MissChance) -> AttackPreview {
    (p.degrees, p.pierce) = chance.degree_chances();
    p.hit = 1.0 - p.degrees[0];
    p.expected_damage = expected_damage(&p.degrees, p.damage, p.down || p.injure_only);
    (p.advantage, p.bonus) = (chance.advantage, 0);
    (p.dv, p.threshold) = (chance.fixed(), chance.fixed());
    (p.crit, p.fumble) = (20, 0.0);
    p.miss_chance = Some(chance.clone());
    p
}

/// The preview of an attack rolled as a contest (die ranks, V6): every
/// kept pair of dice enumerated for the successes, each 1 damage that no
/// armor stops (V6.4); no d20, so no bonus, DV, critical or fumble.
fn with_contest(mut p: AttackPreview, contest: &Contest) -> AttackPreview {
    // One 1-sided die per success: the damage is the successes.
    p.damage = DamageDice {
        count: 1,
        sides: 1,
        bonus: 0,
    };
    p.degrees = contest.success_chances();
    p.hit = 1.0 - p.degrees[0];
    p.expected_damage = expected_damage(&p.degrees, p.damage, p.down || p.injure_only);
    (p.advantage, p.bonus, p.dv, p.threshold) = (contest.attack.advantage, 0, 0, 0);
    (p.crit, p.fumble) = (21, 0.0);
    p.contest = Some(contest.clone());
    p
}

/// The sum of some chances: 0 for none, where `Iterator::sum` gives -0.0
/// (an empty `f64` sum), which a percentage prints as "-0%".
pub fn total(chances: impl IntoIterator<Item = f64>) -> f64 {
    chances.into_iter().fold(0.0, |sum, p| sum + p)
}

#[cfg(test)]
#[path = "preview_tests.rs"]
mod tests;
