//! The previews of attacks rolled otherwise than R7's d20 against DV: a
//! shot against a Miss Chance (Energy, V5.10) and a contest of die ranks
//! (V6); and a melee kept 20 past armor (V5.11).

use super::preview::{AttackPreview, DamageDice, expected_damage, kept_probability};
use crate::rules::attacks::resolution::degrees;
use crate::rules::contest::Contest;
use crate::rules::miss_chance::MissChance;

/// `pierce[d]`: the chance of a kept 20 with `d` degrees (V5.11), as long
/// as `len` degree chances.
pub(super) fn melee_pierce(
    advantage: i32,
    bonus: i32,
    dv: i32,
    crit: u32,
    auto: bool,
    len: usize,
) -> Vec<f64> {
    let mut out = vec![0.0; len.max(2)];
    if auto {
        return out;
    }
    let d = degrees(20, 20 + bonus, dv, crit).max(0) as usize;
    if out.len() <= d {
        out.resize(d + 1, 0.0);
    }
    out[d] += kept_probability(20, advantage);
    out
}

/// The preview of a shot against a Miss Chance (Energy, V5.10): every
/// kept d20 against every evasion chain to its stated depth; no bonus, no
/// fumble, and a kept 20's hit past armor.
pub(super) fn with_miss_chance(mut p: AttackPreview, chance: &MissChance) -> AttackPreview {
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
pub(super) fn with_contest(mut p: AttackPreview, contest: &Contest) -> AttackPreview {
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
