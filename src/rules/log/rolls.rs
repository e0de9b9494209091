//! The log's line of a roll: an attack's (R7) or a maneuver's (V7.1), every
//! die, modifier with its source and rule, total and verdict.

use super::words::{Names, joined, listed, plural};
use crate::rules::command::ManeuverKind;
use crate::rules::contest::{ContestRoll, PoolRoll};
use crate::rules::events::AttackRoll;
use crate::rules::modifiers::{AttackMode, Effect};

/// The roll as every attack and maneuver line writes it, after the
/// verdict's "→": `d20 [4, 15] keep 15 natural 20 (R7.3) [rear attack +1
/// adv (R4.3)] +5 (MB +2 (R7.1), …) = 20 vs DV 12 (…)`. `None` for an
/// automatic hit (R7.9), which rolls nothing.
fn roll_terms(a: &AttackRoll) -> Option<String> {
    let kept = a.kept?;
    let keep = if a.dice.len() > 1 {
        format!(" keep {kept}")
    } else {
        String::new()
    };
    let natural = if a.natural_20() {
        " natural 20 (R7.3)"
    } else if a.natural_1() {
        " natural 1 (R7.3)"
    } else {
        ""
    };
    let adv_terms = listed(&a.modifiers, |e| {
        matches!(e, Effect::Advantage(_) | Effect::Reach(_))
    });
    let adv = if adv_terms.is_empty() {
        String::new()
    } else {
        format!(" [{adv_terms}]")
    };
    let bonus_terms = listed(&a.modifiers, |e| matches!(e, Effect::Bonus(_)));
    let dv_terms = listed(&a.modifiers, |e| matches!(e, Effect::Dv(_)));
    Some(format!(
        "d20 [{}]{keep}{natural}{adv} {:+} ({bonus_terms}) = {} vs DV {} ({dv_terms})",
        joined(&a.dice),
        a.bonus,
        a.total,
        a.dv
    ))
}

/// A maneuver's line (V7.1): like an attack's, but it succeeds on meeting
/// the DV, and its sub-rule is cited.
fn maneuver_line(a: &AttackRoll, m: ManeuverKind, who: &str, whom: &str) -> String {
    let (rule, label) = (m.rule(), m.label());
    let Some(roll) = roll_terms(a) else {
        let auto = listed(&a.modifiers, |e| matches!(e, Effect::AutoHit));
        return format!("{who} tries to {label} {whom}: {auto} → success, 1 degree ({rule})");
    };
    let verdict = if a.degrees > 0 {
        format!(
            "success, meeting the DV: {} degree{} (V7.1)",
            a.degrees,
            plural(a.degrees)
        )
    } else {
        "failure, below the DV (V7.1)".to_string()
    };
    let via = if a.reaction {
        " as a reaction (R8.1)"
    } else {
        ""
    };
    format!("{who} tries to {label} {whom}{via} ({rule}): {roll} → {verdict}")
}

/// An attack's line: every die, every modifier with its source and rule,
/// the total against the DV and the verdict (R7.1, R7.2, R7.3, R0.4).
pub(super) fn attack_line(a: &AttackRoll, names: &Names) -> String {
    let attacker = names.unit(a.attacker);
    let target = match a.target {
        Some(t) => names.unit(t).to_string(),
        None => format!("the tile {}", a.at),
    };
    let weapon = &a.weapon;
    if let Some(m) = a.maneuver {
        return maneuver_line(a, m, attacker, &target);
    }
    if let Some(c) = &a.contest {
        return contest_line(a, c, attacker, &target);
    }
    if let Some(m) = &a.miss_chance {
        return miss_chance_line(a, m, attacker, &target);
    }
    let Some(roll) = roll_terms(a) else {
        let auto = listed(&a.modifiers, |e| matches!(e, Effect::AutoHit));
        return format!("{attacker} attacks {target} with {weapon}: {auto} → hit, 1 degree");
    };
    let verb = if a.mode == AttackMode::Thrown {
        "throws"
    } else {
        "attacks"
    };
    let shift = listed(&a.modifiers, |e| matches!(e, Effect::Degrees(_)));
    let verdict = if a.degrees > 0 && !shift.is_empty() {
        format!(
            "hit, {} degree{} (R7.2); {shift}",
            a.degrees,
            plural(a.degrees)
        )
    } else if a.degrees > 0 {
        format!("hit, {} degree{} (R7.2)", a.degrees, plural(a.degrees))
    } else {
        "miss (R7.2)".to_string()
    };
    format!("{attacker} {verb} {target} with {weapon}: {roll} → {verdict}")
}

/// One side's dice of a contest: `ATT d10 [3, 7] keep 7`.
fn pool_terms(p: &PoolRoll) -> String {
    let keep = if p.dice.len() > 1 {
        let how = if p.pool.advantage >= 0 {
            "best"
        } else {
            "worst"
        };
        format!(" keep the {how} {}", p.kept)
    } else {
        String::new()
    };
    let cut = match p.pool.cut {
        0 => String::new(),
        n if n > 0 => format!(" ({n} rank{} above d12 lost, V6.1)", plural(n)),
        n => format!(" ({} rank{} below d2: a d2, V6.1)", -n, plural(-n)),
    };
    format!(
        "{} d{} [{}]{keep}{cut}",
        p.pool.label,
        p.pool.sides,
        joined(&p.dice)
    )
}

/// A die-rank attack's line (V6.3, V6.4): the attacker's dice with their
/// advantages and ranks, against the defender's, and the successes.
fn contest_line(a: &AttackRoll, c: &ContestRoll, who: &str, whom: &str) -> String {
    let verb = if a.mode == AttackMode::Thrown {
        "throws at"
    } else {
        "attacks"
    };
    let terms = listed(&a.modifiers, |e| {
        matches!(
            e,
            Effect::Advantage(_)
                | Effect::AttackRank(_)
                | Effect::DefenceRank(_)
                | Effect::Reach(_)
        )
    });
    let terms = if terms.is_empty() {
        String::new()
    } else {
        format!(" [{terms}]")
    };
    let via = if a.reaction {
        " as a reaction (R8.1)"
    } else {
        ""
    };
    let verdict = match c.successes {
        0 => format!("{} ≤ {}: miss", c.attack.kept, c.defence.kept),
        s => format!(
            "{} > {}: {s} success{} (V6.4)",
            c.attack.kept,
            c.defence.kept,
            if s == 1 { "" } else { "es" }
        ),
    };
    format!(
        "{who} {verb} {whom} with {}{via}: {}{terms} vs {} (V6.2, V6.3) → {verdict}",
        a.weapon,
        pool_terms(&c.attack),
        pool_terms(&c.defence)
    )
}

/// A shot against a Miss Chance (Energy, V5.10): the Hit roll, every term
/// of the Miss Chance, the evasion chain, and the verdict.
fn miss_chance_line(
    a: &AttackRoll,
    m: &crate::rules::miss_chance::MissChanceRoll,
    who: &str,
    whom: &str,
) -> String {
    let kept = a.kept.unwrap_or(1);
    let keep = if a.dice.len() > 1 {
        format!(" keep {kept}")
    } else {
        String::new()
    };
    let adv_terms = listed(&a.modifiers, |e| matches!(e, Effect::Advantage(_)));
    let adv = if adv_terms.is_empty() {
        String::new()
    } else {
        format!(" [{adv_terms}]")
    };
    let terms: Vec<String> = m.chance.terms.iter().map(|t| t.to_string()).collect();
    let evasion = match &m.chance.evasion {
        None => " (no evasion: the target cannot avoid it)".to_string(),
        Some(e) => {
            let chain: Vec<String> = m
                .evasion
                .iter()
                .zip(&m.kept)
                .map(|(dice, k)| {
                    if dice.len() > 1 {
                        format!("[{}]→{k}", joined(dice))
                    } else {
                        format!("{k}")
                    }
                })
                .collect();
            let extra: Vec<String> = e.terms.iter().map(|t| t.to_string()).collect();
            let extra = if extra.is_empty() {
                String::new()
            } else {
                format!(", {}", extra.join(", "))
            };
            format!(" + evasion d4! [{}]{extra}", chain.join(" + "))
        }
    };
    let ties = if m.chance.target_wins_ties {
        ", ties to the defender (V5.12)"
    } else {
        ""
    };
    let verdict = match (kept, a.degrees) {
        (20, d) => format!(
            "natural 20: hit, {d} degree{}, past armor (V5.10)",
            plural(d)
        ),
        (1, _) => "natural 1: miss (V5.10)".to_string(),
        (_, 0) => "miss (V5.10)".to_string(),
        (_, d) => format!("hit, {d} degree{} (V5.10)", plural(d)),
    };
    let verb = if a.mode == AttackMode::Thrown {
        "throws at"
    } else {
        "shoots"
    };
    format!(
        "{who} {verb} {whom} with {}: d20 [{}]{keep}{adv} vs Miss Chance {} ({}{evasion}{ties}) → {verdict}",
        a.weapon,
        joined(&a.dice),
        m.total,
        terms.join(", ")
    )
}
