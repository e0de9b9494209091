//! The combat log: a formatter over the [`BattleEvents`]. Every roll,
//! modifier (with its source and R-id), total, degree and damage, in the
//! order it happened, as deterministic text. Scenarios search it, `replay`
//! and `sim --log` print it, the view shows it; nothing parses it.

use crate::battle::UnitId;
use crate::format::{BodyPart, Guard};
use crate::rules::events::Outcome;
use crate::rules::events::{BattleEvent, BattleEvents, DamageHow, Opening};
use crate::rules::modifiers::Effect;
use bevy::prelude::*;
use std::fmt::Write;

mod energy;
mod jumps;
mod maneuvers;
mod mounts;
mod moves;
mod reactions;
mod rolls;
mod spells;
mod stealth;
mod words;

use rolls::attack_line;
pub use words::{Names, listed, roll_text};
use words::{joined, ordinal, plural};

/// The combat log of a battle: its events as text, a line each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CombatLog {
    lines: Vec<String>,
}

impl CombatLog {
    /// The log of the battle in `world`.
    pub fn of(world: &World) -> Self {
        let names = Names::of(world);
        let events = world
            .get_resource::<BattleEvents>()
            .map(BattleEvents::all)
            .unwrap_or_default();
        Self::format(events, &names)
    }

    /// The log of `events`.
    pub fn format(events: &[BattleEvent], names: &Names) -> Self {
        let mut lines = vec![];
        for e in events {
            write_event(&mut lines, e, names);
        }
        Self { lines }
    }

    /// All lines.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The whole log as text, a line each.
    pub fn text(&self) -> String {
        let mut out = self.lines.join("\n");
        out.push('\n');
        out
    }

    /// True when some line contains `needle`, ignoring case.
    pub fn contains(&self, needle: &str) -> bool {
        let needle = needle.to_lowercase();
        self.lines
            .iter()
            .any(|l| l.to_lowercase().contains(&needle))
    }
}

/// The lines of one event (none for events the log leaves to the view:
/// each step, AP paid, a facing turned by an attack).
pub fn event_lines(event: &BattleEvent, names: &Names) -> Vec<String> {
    let mut lines = vec![];
    write_event(&mut lines, event, names);
    lines
}

/// The lines of `event` as a player sees them: the death timer of a unit
/// `hidden` says is not the player's own is left out (R10.1: it is hidden
/// from the other side). Everything else reads as [`event_lines`].
pub fn event_lines_seen(
    event: &BattleEvent,
    names: &Names,
    hidden: impl Fn(UnitId) -> bool,
) -> Vec<String> {
    use BattleEvent::*;
    let line = match event {
        FellDying { unit, .. } if hidden(*unit) => format!(
            "  {} falls, dying: its death timer is hidden from its foes (R10.1)",
            names.unit(*unit)
        ),
        TimerLowered { unit, timer } if hidden(*unit) && *timer > 0 => format!(
            "  the hit lowers {}'s hidden death timer by 1 (R10.3)",
            names.unit(*unit)
        ),
        DyingAgain { unit, .. } if hidden(*unit) => format!(
            "  {} is dying again, with a new hidden timer (R10.4)",
            names.unit(*unit)
        ),
        DyingRolled {
            unit,
            roll,
            timer,
            woke: false,
        } if hidden(*unit) && *timer > 0 => format!(
            "{} rolls d20 [{roll}] while dying: its hidden timer drops by 1 (R10.2)",
            names.unit(*unit)
        ),
        _ => return event_lines(event, names),
    };
    vec![line]
}

fn write_event(out: &mut Vec<String>, event: &BattleEvent, names: &Names) {
    use BattleEvent::*;
    let n = |id: &UnitId| names.unit(*id);
    let line = match event {
        InitiativeRolled {
            unit,
            roll,
            bonus,
            total,
            ambush,
        } => {
            let rule = if *ambush { "R2.2" } else { "R2.1" };
            format!(
                "initiative: {} d20 [{roll}] {bonus:+} = {total} ({rule})",
                n(unit)
            )
        }
        SideInitiative { round, coin } => {
            let first = names.side(0);
            let when = if *coin == 1 { "first" } else { "last" };
            format!("round {round}: side initiative d2 [{coin}]: {first} act {when} (V1)")
        }
        RoundStarted { round, .. } => format!("— round {round} —"),
        TurnStarted { round, unit, .. } => format!("round {round}: {}'s turn", n(unit)),
        ApSpent { .. } | Stepped { .. } | ReactionDeclined { .. } => return,
        FellBack(_) | Walked(_) | Moved { .. } | Shifted { .. } => {
            out.extend(moves::lines(event, names));
            return;
        }
        Faced {
            unit,
            dir,
            by_command,
        } => {
            if !by_command {
                return;
            }
            format!("{} faces {dir} (R4.2)", n(unit))
        }
        AttackRolled(a) => attack_line(a, names),
        Parried {
            unit,
            weapon,
            roll,
            dice,
            bonus,
            total,
            against,
            degrees_left,
        } => {
            let outcome = match (total > against, degrees_left) {
                (false, _) => "fails".to_string(),
                (true, 0) => "deflects the attack".to_string(),
                (true, l) => format!("leaves {l} degree{}", plural(*l)),
            };
            let d20 = match dice.len() {
                0 | 1 => format!("[{roll}]"),
                k => format!(
                    "[{}] keep {roll} (a larger attacker: +{} dis, V10.5)",
                    words::joined(dice),
                    k - 1
                ),
            };
            format!(
                "  {} parries with {weapon}: d20 {d20} {bonus:+} = {total} vs {against}: {outcome} (R8.6)",
                n(unit)
            )
        }
        Guarded {
            unit,
            guard,
            roll,
            value,
            against,
            success,
            second,
            worse,
            by,
            zone,
            reduce,
            avoided,
        } => {
            let total = *roll as i32 + value;
            // A mounted pair answers for each other (V12.4).
            let who = match by {
                Some(b) => format!("{} (by {})", n(unit), n(b)),
                None => n(unit).to_string(),
            };
            let dice = match (by, worse) {
                (_, Some(w)) if *guard == Guard::Parry => {
                    format!("d12 [{roll}, {w}] keep {roll} (a larger attacker: +1 dis, V10.5)")
                }
                (_, Some(w)) => format!("d12 [{roll}, {w}] keep {roll} (a mounted dodge, V12.4)"),
                (Some(_), None) => format!("d12 [{roll}] (V12.4)"),
                (None, None) => format!("d12 [{roll}]"),
            };
            let outcome = match (guard, success, second) {
                (_, false, _) => "fails".to_string(),
                (Guard::Block, true, _) => format!("blocks {reduce} damage"),
                (Guard::Dodge, true, _) => "dodges: no damage".to_string(),
                (Guard::Parry, true, None) => "a perfect parry (d12 of 10+): no damage".to_string(),
                (Guard::Parry, true, Some(again)) => {
                    let at = zone
                        .map(|z| format!(", the hit turned to the {}", z.name()))
                        .unwrap_or_default();
                    let end = if *avoided {
                        "no damage"
                    } else {
                        "the hit lands"
                    };
                    format!("parried{at}; second d12 [{again}] vs [{roll}]: {end}")
                }
                (Guard::None, ..) => "no answer".to_string(),
            };
            format!(
                "  {who} answers with a {}: {dice} {value:+} = {total} vs {against}: {outcome} (V2)",
                guard.label()
            )
        }
        Injured {
            unit,
            part,
            severity,
            nth,
        } => format!(
            "  {} takes a {} injury to the {} (its {} there, V3)",
            n(unit),
            severity.name(),
            part.name(),
            ordinal(*nth)
        ),
        Lamed { unit } => format!(
            "  {}'s legs give way: prone, and it cannot stand (V3)",
            n(unit)
        ),
        KnockedOut { unit, shock: false } => format!(
            "  a third deadly head injury knocks {} out: 0 HP (V3)",
            n(unit)
        ),
        KnockedOut { unit, shock: true } => {
            format!("  {} is knocked out by its injuries: 0 HP (V3)", n(unit))
        }
        ShockCheck(crate::rules::events::ShockCheck {
            unit,
            part,
            roll,
            bonus,
            dc,
            stunned,
            ..
        }) => {
            let outcome = match (stunned, part) {
                (true, _) => "stunned for a round",
                (false, BodyPart::Head) => "only dazed for a round",
                (false, _) => "holds on",
            };
            let wound = if *part == BodyPart::Head {
                "head"
            } else {
                "heart"
            };
            format!(
                "  {}'s {wound} injury: Constitution check d20 [{roll}] {bonus:+} = {} vs DC {dc}: {outcome} (V3)",
                n(unit),
                *roll as i32 + bonus
            )
        }
        TurnLost { unit } => format!("{} is stunned and loses the turn (V3)", n(unit)),
        Owes(crate::rules::events::Debt { unit, guard, owed }) => format!(
            "  {}'s {} is an interrupt: {} AP owed from its next turn (V6.6)",
            n(unit),
            guard.map_or("defence", |g| g.label()),
            owed
        ),
        DebtPaid(crate::rules::events::Debt { unit, owed, .. }) => format!(
            "  {} pays the {owed} AP it owes for its interrupts (V6.6)",
            n(unit)
        ),
        InjurySave(crate::rules::events::InjurySave {
            unit,
            roll,
            bonus,
            dc,
            passed,
            stabilized,
            awake,
        }) => {
            let outcome = match (passed, stabilized, awake) {
                (_, true, _) => "a natural 20: stable",
                (true, false, true) => "stays up",
                (true, false, false) => "lives",
                (false, _, true) => "knocked out",
                (false, _, false) => "dies",
            };
            let when = if *awake {
                "injured"
            } else {
                "injured while down"
            };
            format!(
                "  {} {when}: Constitution save d20 [{roll}] {bonus:+} = {} vs DC {dc} (its injuries): {outcome} (V3)",
                n(unit),
                *roll as i32 + bonus
            )
        }
        ZoneRolled {
            unit,
            roll,
            part,
            covered,
        } => {
            let armor = if *covered {
                ""
            } else {
                ", which the armor leaves bare: only a shield's AR stands"
            };
            format!(
                "  the hit lands on {}'s {}: d10 [{roll}]{armor} (V4)",
                n(unit),
                part.name()
            )
        }
        Damaged {
            unit,
            how,
            amount,
            absorbed,
            ar_left,
            hp_before,
            hp_after,
            ..
        } => {
            let how = match how {
                DamageHow::Hit {
                    roll,
                    modifiers,
                    halved,
                    blocked,
                    warded,
                } => {
                    let mut text = roll_text(roll);
                    if *halved {
                        text.push_str(", halved: not made to be thrown (R9.1)");
                    }
                    let extra = listed(modifiers, |e| matches!(e, Effect::Damage(_)));
                    if !extra.is_empty() {
                        let _ = write!(text, " [{extra}]");
                    }
                    if *blocked > 0 {
                        let _ = write!(text, ", {blocked} blocked (V2)");
                    }
                    if *warded > 0 {
                        let _ = write!(text, ", {warded} absorbed by the ward (V11.3)");
                    }
                    text
                }
                DamageHow::Splash => format!("splash {amount}"),
                DamageHow::Fall => format!("falling {amount}"),
                DamageHow::Successes { .. } => "by successes (V6.4)".to_string(),
                DamageHow::Spell {
                    spell,
                    level,
                    roll,
                    absolute,
                } => {
                    let dice = roll.as_ref().map_or(format!("level {level}"), |r| {
                        format!("{} at level {level}", roll_text(r))
                    });
                    let through = if *absolute {
                        ", absolute: no armor"
                    } else {
                        ""
                    };
                    format!("of {spell}: {dice}{through} (V11.4)")
                }
            };
            let armor = if *absorbed > 0 {
                format!(", AR absorbs {absorbed} ({ar_left} left, R1.2)")
            } else {
                String::new()
            };
            format!(
                "  damage {how} = {amount}{armor}; {} HP {hp_before} → {hp_after}",
                n(unit)
            )
        }
        WeaponDropped {
            unit,
            weapon,
            at,
            injured: false,
        } => format!("{} drops the {weapon} at {at} (natural 1, R7.3)", n(unit)),
        WeaponDropped {
            unit,
            weapon,
            at,
            injured: true,
        } => format!(
            "  {} drops the {weapon} at {at}: a second injury to the hand or arm (V3)",
            n(unit)
        ),
        FellStable(unit) => format!(
            "  {} falls senseless but stable: beaten with bare hands (V6.9)",
            n(unit)
        ),
        FellDying { unit, roll, timer } => format!(
            "  {} falls, dying: death timer d4 [{roll}] + CON = {timer} (R10.1)",
            n(unit)
        ),
        TimerLowered { unit, timer } => format!(
            "  the hit lowers {}'s death timer to {} (R10.3)",
            n(unit),
            timer.max(&0)
        ),
        DyingAgain { unit, roll, timer } => format!(
            "  {} is dying again: new timer d4 [{roll}] + CON = {timer} (R10.4)",
            n(unit)
        ),
        DyingRolled {
            unit,
            roll,
            timer,
            woke,
        } => {
            if *woke {
                format!(
                    "{} rolls d20 [{roll}] while dying: wakes with 1 HP, prone (R10.2)",
                    n(unit)
                )
            } else {
                format!(
                    "{} rolls d20 [{roll}] while dying: timer {} (R10.2)",
                    n(unit),
                    timer.max(&0)
                )
            }
        }
        Died { unit } => format!("  {} dies (R10.2)", n(unit)),
        Stabilized {
            unit,
            target,
            roll,
            wis,
            medicine,
            total,
            dc,
            success,
        } => format!(
            "{} stabilizes {}: d20 [{roll}] + WIS {wis} + Medicine {medicine} = {total} vs DC {dc} → {} (R10.4)",
            n(unit),
            n(target),
            if *success { "stable" } else { "fails" }
        ),
        PotionUsed {
            unit,
            drinker,
            potion,
            dice,
            rolls,
            amount,
        } => {
            let how = if unit == drinker {
                format!("{} drinks a {potion}", n(unit))
            } else {
                format!("{} gives {} a {potion}", n(unit), n(drinker))
            };
            format!("{how}: {dice} [{}] = {amount} (R10.5)", joined(rolls))
        }
        Healed {
            unit,
            before,
            after,
            woke,
        } => {
            if *woke {
                out.push(format!("  {} wakes up, prone (R10.5)", n(unit)));
            }
            format!("  {} HP {before} → {after}", n(unit))
        }
        StoodUp { unit } => format!("{} stands up (R4.8)", n(unit)),
        Defended {
            unit,
            bonus,
            energy,
        } => {
            let until = if *energy {
                "until it attacks or runs past its Speed (R4.6, V5.12)"
            } else {
                "until its next turn (R4.6)"
            };
            format!("{} defends: DV +{bonus} (MB) {until}", n(unit))
        }
        ShieldReadied { unit } => {
            format!("{} readies its shield until its next turn (R4.6)", n(unit))
        }
        Opened {
            unit,
            by: Opening::Cleave,
        } => format!("{} cleaves on (R7.8)", n(unit)),
        KnockedDown { .. }
        | Disarmed { .. }
        | Shoved { .. }
        | Grappled { .. }
        | GrappleSustained { .. }
        | GrappleEnded { .. }
        | Dragged { .. }
        | Crushing { .. }
        | Opened {
            by: Opening::Maneuver | Opening::Shove,
            ..
        } => match maneuvers::line(event, names) {
            Some(line) => line,
            None => return,
        },
        Opened { .. } => return,
        Revealed(_) | Hid(_) | Bumped(_) | Searching(_) | Searched(_) | Sneaked(_) => {
            match stealth::line(event, names) {
                Some(line) => line,
                None => return,
            }
        }
        Spell(_) => match spells::line(event, names) {
            Some(line) => line,
            None => return,
        },
        Energy(_) => match energy::line(event, names) {
            Some(line) => line,
            None => return,
        },
        Jumped(_) | Fell(_) => match jumps::line(event, names) {
            Some(line) => line,
            None => return,
        },
        FreeMoveTaken { .. } | Mounted { .. } | Dismounted { .. } | ThrownOff { .. } => {
            match mounts::line(event, names) {
                Some(line) => line,
                None => return,
            }
        }
        PickedUp { unit, object, at } => {
            format!("{} picks up the {object} at {at} (R9.5)", n(unit))
        }
        ThrowFlight {
            object,
            scatter,
            landing,
            ..
        } => match scatter {
            Some(d) => format!("  the {object} scatters: d8 [{d}] → lands at {landing} (R9.3)"),
            None => return,
        },
        ObjectLanded { object, at } => format!("  the {object} lands at {at} (R9.5)"),
        ObjectBroke { object, at } => format!("  the {object} breaks at {at}"),
        ObjectStuck { object, unit } => format!("  the {object} sticks in {} (R9.2)", n(unit)),
        StuckDropped { object, unit, at } => {
            format!("  the {object} stuck in {} drops at {at} (R9.2)", n(unit))
        }
        SplashBurst {
            object,
            at,
            roll,
            amount,
            radius,
            ..
        } => format!(
            "  the {object} bursts at {at}: {} = {amount} within {radius} (R9.4)",
            roll_text(roll)
        ),
        ReactionOffered { .. }
        | ReactionAnswered { .. }
        | ReactionTaken { .. }
        | ReactionBarred { .. } => match reactions::line(event, names) {
            Some(line) => line,
            None => return,
        },
        ActionInterrupted { unit } => format!("  {}'s action ends there (R8.4)", n(unit)),
        CommandRefused { command, refusal } => format!("refused {command}: {refusal}"),
        BattleEnded { outcome } => match outcome {
            Outcome::Victory { side, by } => format!("{} win ({by}, R11)", names.side(*side)),
            Outcome::Draw => "the battle is a draw (R11)".to_string(),
        },
    };
    out.push(line);
}
