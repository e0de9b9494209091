//! An attack's odds as the odds panel and the hover lines show them: each
//! ending's chance (miss, answered, each degree), the damage through armor,
//! the chance to drop the target, and the lines of a variant's extras (hit
//! zones, injuries, the defender's answer), all from the rules' preview.

use crate::format::Guard;
use crate::grid::Pos;
use crate::rules::attacks::preview::{AttackPreview, total};
use crate::rules::command::ManeuverKind;
use crate::rules::contest::{Contest, Pool};
use crate::rules::modifiers::Effect;
use crate::rules::rule::Rule;

/// What an attack roll can come to, as the odds panel shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A miss (a fumble apart).
    Miss,
    /// A natural 1 that misses: the melee attacker drops its weapon (R7.3).
    Fumble,
    /// A hit the defender's answer takes away (V2): dodged, parried away,
    /// or otherwise answered.
    Answered(Option<Guard>),
    /// A hit of this many degrees (R7.2), after any answer; 3 stands for 3
    /// or more.
    Degrees(u8),
    /// Under die ranks (V6.4): a hit of this many successes (3 at most).
    Successes(u8),
}

impl Ending {
    /// Its words on the panel.
    pub fn label(self) -> &'static str {
        match self {
            Ending::Miss => "miss",
            Ending::Fumble => "fumble",
            Ending::Answered(Some(Guard::Dodge)) => "dodged",
            Ending::Answered(Some(Guard::Parry)) => "parried away",
            Ending::Answered(_) => "answered away",
            Ending::Degrees(1) => "1 degree",
            Ending::Degrees(2) => "2 degrees",
            Ending::Degrees(_) => "3+ degrees",
            Ending::Successes(1) => "1 success",
            Ending::Successes(2) => "2 successes",
            Ending::Successes(_) => "3 successes",
        }
    }
}

/// One way an attack roll can end and its chance.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// What happens.
    pub ending: Ending,
    /// Its probability.
    pub chance: f64,
}

/// An attack's odds, as the preview panel shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackOdds {
    /// The target's name.
    pub target: String,
    /// The tile the attack is previewed from, when not where the attacker
    /// stands (`Alt`).
    pub from: Option<Pos>,
    /// Miss, fumble (R7.3, melee only), 1, 2 and 3 or more degrees
    /// (R7.2): they sum to 1.
    pub outcomes: Vec<Outcome>,
    /// Expected damage that gets through the target's AR to its HP (R1.2).
    pub harm: f64,
    /// Chance to drop the target to 0 HP (R10.1).
    pub drop: f64,
    /// The target is down: a hit lowers its death timer instead (R10.3).
    pub down: bool,
    /// The roll: dice, bonus and DV.
    pub roll: String,
    /// Every modifier, as the log writes it, with its rule.
    pub modifiers: Vec<(String, Rule)>,
    /// A maneuver's odds (V7): success, not a hit.
    pub maneuver: Option<ManeuverKind>,
    /// Die ranks (V6): each success 1 damage that no armor stops.
    pub contest: bool,
}

impl AttackOdds {
    /// The odds of `preview` against a target with `ar` AR and `hp` HP.
    pub fn of(target: String, from: Option<Pos>, p: &AttackPreview, hp: i32) -> Self {
        let target_name = target.clone();
        // The degrees a hit keeps after the defender's answer (V2).
        let landed = p.landed_degrees();
        let degree = |d: usize| landed.get(d).copied().unwrap_or(0.0);
        let answered = Ending::Answered(p.answer.as_ref().map(|g| g.guard));
        // Only a melee attack fumbles (R7.3): a ranged one has no such
        // outcome to show. A block never takes a whole hit away.
        let blocks = p.answer.as_ref().is_some_and(|g| g.guard == Guard::Block);
        if let Some(c) = &p.contest {
            return Self::of_contest(target, from, p, c, hp);
        }
        let outcomes = [
            (Ending::Miss, p.degrees[0] - p.fumble),
            (Ending::Fumble, p.fumble),
            (answered, p.avoided),
            (Ending::Degrees(1), degree(1)),
            (Ending::Degrees(2), degree(2)),
            (Ending::Degrees(3), total(landed.iter().skip(3).copied())),
        ]
        .into_iter()
        // An unarmed maneuver drops no weapon (V7.1).
        .filter(|(ending, _)| {
            *ending != Ending::Fumble || (p.melee && p.maneuver.is_none_or(|m| m.with_weapon()))
        })
        // No answer declared (V2), nothing answered away to show.
        .filter(|(ending, _)| *ending != answered || (!blocks && p.answer.is_some()))
        .map(|(ending, chance)| Outcome { ending, chance })
        .collect();
        let keep = match p.advantage {
            0 => "",
            n if n > 0 => " keep the highest (R0.4)",
            _ => " keep the lowest (R0.4)",
        };
        AttackOdds {
            target,
            from,
            outcomes,
            harm: p.harm(),
            drop: p.drop(hp),
            down: p.down,
            roll: match &p.miss_chance {
                Some(m) => miss_chance_roll(m, keep),
                None => format!(
                    "d20 x{}{keep} {:+} vs DV {}: {}",
                    1 + p.advantage.unsigned_abs(),
                    p.bonus,
                    p.dv,
                    match p.maneuver {
                        Some(_) => "succeeds on meeting it (V7.1)",
                        None => "hit when higher (R0.5)",
                    }
                ),
            },
            maneuver: p.maneuver,
            contest: false,
            modifiers: p
                .modifiers
                .iter()
                .map(|m| (m.to_string(), m.rule))
                .chain(zone_line(p))
                .chain(guard_line(&target_name, p))
                .chain(ward_line(&target_name, p))
                .chain(injury_line(p))
                .chain(pierce_line(p))
                .collect(),
        }
    }

    /// The odds of a die-rank attack (V6): each number of successes, from
    /// every kept pair of dice the preview enumerates, the dice named.
    fn of_contest(
        target: String,
        from: Option<Pos>,
        p: &AttackPreview,
        c: &Contest,
        hp: i32,
    ) -> Self {
        let outcomes = [
            (Ending::Miss, p.degrees[0]),
            (
                Ending::Successes(1),
                p.degrees.get(1).copied().unwrap_or(0.0),
            ),
            (
                Ending::Successes(2),
                p.degrees.get(2).copied().unwrap_or(0.0),
            ),
            (
                Ending::Successes(3),
                total(p.degrees.iter().skip(3).copied()),
            ),
        ]
        .into_iter()
        .map(|(ending, chance)| Outcome { ending, chance })
        .collect();
        let dice = |pool: &Pool| match pool.advantage {
            0 => format!("{} d{}", pool.label, pool.sides),
            n => format!(
                "{} d{} x{} keep the {}",
                pool.label,
                pool.sides,
                pool.count(),
                if n > 0 { "highest" } else { "lowest" }
            ),
        };
        AttackOdds {
            roll: format!(
                "{} vs {}: a success for beating it, one per multiple, 3 at most (V6.3, V6.4)",
                dice(&c.attack),
                dice(&c.defence)
            ),
            outcomes,
            harm: p.harm(),
            drop: p.drop(hp),
            down: p.down,
            maneuver: None,
            contest: true,
            modifiers: p
                .modifiers
                .iter()
                .filter(|m| {
                    !matches!(
                        m.effect,
                        Effect::Bonus(_) | Effect::Dv(_) | Effect::Damage(_)
                    )
                })
                .map(|m| (m.to_string(), m.rule))
                .chain(zone_line(p))
                .chain(injury_line(p))
                .collect(),
            target,
            from,
        }
    }

    /// The chance of a hit: every outcome with degrees or successes.
    pub fn hit(&self) -> f64 {
        total(
            self.outcomes
                .iter()
                .filter(|o| matches!(o.ending, Ending::Degrees(_) | Ending::Successes(_)))
                .map(|o| o.chance),
        )
    }

    /// The headline: the chance to hit and what a hit does.
    pub fn headline(&self) -> String {
        let hit = self.hit();
        let from = self.from.map(|t| format!(" from {t}")).unwrap_or_default();
        if let Some(kind) = self.maneuver {
            let label = kind.label();
            let capital = label[..1].to_uppercase() + &label[1..];
            return format!(
                "{capital} {}{from}: {:.0}% to succeed, no damage ({})",
                self.target,
                hit * 100.0,
                kind.rule()
            );
        }
        if self.down {
            format!(
                "Attack {}{from}, down: {:.0}% to hit; a hit deals no damage but lowers its \
                 death timer by 1, and at 0 it dies (R10.3); a stabilized unit starts dying \
                 again (R10.4)",
                self.target,
                hit * 100.0
            )
        } else if self.contest {
            format!(
                "Attack {}{from}: {:.0}% to hit, {:.1} HP expected (a success each, no armor \
                 stops it, V6.4), {:.0}% to drop",
                self.target,
                hit * 100.0,
                self.harm,
                self.drop * 100.0
            )
        } else {
            format!(
                "Attack {}{from}: {:.0}% to hit, {:.1} HP expected through armor, {:.0}% to drop",
                self.target,
                hit * 100.0,
                self.harm,
                self.drop * 100.0
            )
        }
    }
}

/// Under Energy (V5.10), the Hit roll against the Miss Chance: its fixed
/// terms and the target's exploding evasion d4.
fn miss_chance_roll(m: &crate::rules::miss_chance::MissChance, keep: &str) -> String {
    let terms: Vec<String> = m.terms.iter().map(|t| t.to_string()).collect();
    let evasion = match &m.evasion {
        None => " (cannot evade)".to_string(),
        Some(e) => {
            let dice = match e.die.advantage {
                0 => "d4!".to_string(),
                n => format!(
                    "d4! x{} keep the {} each",
                    e.die.count(),
                    if n > 0 { "highest" } else { "lowest" }
                ),
            };
            let extra: String = e.terms.iter().map(|t| format!(", {t}")).collect();
            format!(" + {} {dice}{extra}", e.die.label)
        }
    };
    let ties = if m.target_wins_ties {
        "; ties to the defender (V5.12)"
    } else {
        ""
    };
    format!(
        "d20 x{}{keep} vs Miss Chance {} ({}){evasion}: hit on meeting it, a 20 always \
         (V5.10){ties}",
        1 + m.advantage.unsigned_abs(),
        m.fixed(),
        terms.join(", ")
    )
}

/// Under Energy, the chance of a kept 20 whose hit passes the armor
/// (V5.10, V5.11), as a line of the modifier list.
fn pierce_line(p: &AttackPreview) -> Option<(String, Rule)> {
    let pierce = total(p.pierce.iter().copied());
    (pierce > 0.0 && !p.down).then(|| {
        (
            format!(
                "a natural 20 ({:.1}%) hits past all armor and exposes the target",
                pierce * 100.0
            ),
            if p.miss_chance.is_some() {
                Rule::V5_10
            } else {
                Rule::V5_11
            },
        )
    })
}

/// With hit zones (V4), the AR a hit meets on each zone, as a line of the
/// modifier list (its rule opens on hover).
fn zone_line(p: &AttackPreview) -> Option<(String, Rule)> {
    if !p.by_zone() || p.down {
        return None;
    }
    let zones: Vec<String> = crate::format::BodyPart::chances()
        .iter()
        .zip(&p.armor)
        .map(|((part, chance), (_, ar))| {
            format!("{} {:.0}% (AR {ar})", part.name(), chance * 100.0)
        })
        .collect();
    Some((format!("a hit lands on: {}", zones.join(", ")), Rule::V4))
}

/// Under injuries (V3), where a hit injures and how likely its injuries
/// fell the target, as a line of the modifier list.
fn injury_line(p: &AttackPreview) -> Option<(String, Rule)> {
    if p.fell.is_empty() || p.down {
        return None;
    }
    let at = if p.by_zone() {
        "the zone it lands on".to_string()
    } else {
        format!("the {} (aimed: F aims elsewhere)", p.aim.name())
    };
    let save = if p.injure_only {
        "; no HP damage, the Constitution save included"
    } else {
        ""
    };
    Some((
        format!(
            "a hit injures {at}: 1 degree minor, each more one step worse; {:.0}% its \
             injuries knock out or kill{save}",
            p.felled() * 100.0
        ),
        Rule::V3,
    ))
}

/// Under spells (V11.3 SD), the ward the target will raise as a hit lands,
/// as a line of the modifier list: its d12 and what it absorbs, counted in
/// the odds above.
fn ward_line(target: &str, p: &AttackPreview) -> Option<(String, Rule)> {
    let w = p.ward.as_ref()?;
    Some((
        format!(
            "{target} wards with {} at level {} ({} MP, a reaction): d12 {:+} at least the              attack's total absorbs {}d{} (odds and harm count it)",
            w.spell, w.level, w.mp, w.bonus, w.dice.0, w.dice.1
        ),
        Rule::V11_3,
    ))
}

/// Under active defence (V2), the answer the target will give, as a line
/// of the modifier list.
fn guard_line(target: &str, p: &AttackPreview) -> Option<(String, Rule)> {
    let g = p.answer.as_ref()?;
    let away = format!("{:.0}% of all attacks", p.avoided * 100.0);
    let what = match g.guard {
        Guard::Block => format!(
            "blocks: d12 {:+} at least the attack's total takes {} off the damage ({:.0}% of \
             all attacks)",
            g.value,
            g.strength,
            p.blocked() * 100.0
        ),
        Guard::Parry => {
            let zone = g
                .zone
                .map(|(z, ar)| format!(", turns the hit to the {} (AR {ar})", z.name()))
                .unwrap_or_default();
            format!(
                "parries: d12 {:+} at least the total; a d12 of 10+ takes it all, else{zone} a \
                 second d12 at least the first does ({away} parried away)",
                g.value
            )
        }
        Guard::Dodge => format!(
            "dodges: d12 {:+} at least the total takes it all ({away} dodged)",
            g.value
        ),
        Guard::None => return None,
    };
    Some((format!("{target} {what}"), Rule::V2))
}
