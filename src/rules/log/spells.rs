//! The log's lines for V11's spells: casts and their MP, the caster's roll
//! and each target's save, concentration.

use super::words::{Names, joined};
use crate::rules::events::{BattleEvent, Broken, Faded, SpellEvent};
use std::fmt::Write;

/// The line of a spell event (V11), `None` for any other.
pub(super) fn line(event: &BattleEvent, names: &Names) -> Option<String> {
    let BattleEvent::Spell(e) = event else {
        return None;
    };
    let n = |id| names.unit(id);
    Some(match e {
        SpellEvent::Cast {
            unit,
            spell,
            level,
            mp,
            mp_left,
            at,
        } => format!(
            "{} casts {spell} at level {level} on {at}: {mp} MP, {mp_left} left (V11.1, V11.2)",
            n(*unit)
        ),
        SpellEvent::CasterRoll {
            sides,
            dice,
            counted,
            bonus,
            dc,
            unfocused,
            ..
        } => {
            let kept = dice.iter().copied().min().unwrap_or(*counted);
            let mut roll = if dice.is_empty() {
                format!("a flat {counted}")
            } else if dice.len() > 1 {
                format!("d{sides} [{}] keep {kept}", joined(dice))
            } else {
                format!("d{sides} [{}]", joined(dice))
            };
            // DC+ (004:128): a die below half its sides counts as half.
            if !dice.is_empty() && kept != *counted {
                let _ = write!(roll, " counted as {counted} (DC+)");
            }
            let focus = if *unfocused {
                " [no focus +1 dis (V11.7)]"
            } else {
                ""
            };
            let ranks = if *sides == 20 { "" } else { ", V11.9" };
            format!("  the save's DC: {roll}{focus} {bonus:+} = {dc} (V11.3{ranks})")
        }
        SpellEvent::Saved {
            unit,
            sides,
            dice,
            kept,
            bonus,
            dc,
            saved,
        } => {
            let roll = if dice.len() > 1 {
                format!("d{sides} [{}] keep {kept}", joined(dice))
            } else {
                format!("d{sides} [{kept}]")
            };
            let verdict = if *saved { "saves" } else { "fails" };
            let ranks = if *sides == 20 { "" } else { ", V11.9" };
            format!(
                "  {} saves: {roll} {bonus:+} = {} vs DC {dc}: {verdict} (V11.3{ranks})",
                n(*unit),
                *kept as i32 + bonus
            )
        }
        SpellEvent::Concentrates { unit, spell } => {
            format!("  {} concentrates on {spell} (V11.5)", n(*unit))
        }
        SpellEvent::ConcentrationSave {
            unit,
            roll,
            bonus,
            dc,
            held,
        } => format!(
            "  {} keeps its concentration? d20 [{roll}] {bonus:+} = {} vs {dc}: {} (V11.5)",
            n(*unit),
            *roll as i32 + bonus,
            if *held { "it holds" } else { "broken" }
        ),
        SpellEvent::ConcentrationEnded { unit, spell, why } => {
            let why = match why {
                Broken::LetGo => "let go",
                Broken::Another => "another spell taken up",
                Broken::Hit => "broken by the hit",
                Broken::Down => "its caster is down",
            };
            format!("  {}'s {spell} ends: {why} (V11.5)", n(*unit))
        }
        SpellEvent::Conjured {
            spell,
            level,
            tiles,
            zone,
            dc,
            rounds,
            ..
        } => {
            let what = if *zone { "zone" } else { "field" };
            let save = dc.map_or(String::new(), |dc| format!(", save DC {dc}"));
            let lasts = match rounds {
                Some(1) => "1 round".to_string(),
                Some(r) => format!("{r} rounds"),
                None => "while held".to_string(),
            };
            format!(
                "  {spell} lies on {} tiles as a {what}, level {level}{save}, {lasts} (V11.6)",
                tiles.len()
            )
        }
        SpellEvent::Triggered {
            unit,
            spell,
            at,
            turn_start,
        } => {
            let how = if *turn_start {
                "starts its turn in"
            } else {
                "enters"
            };
            format!("  {} {how} the {spell} at {at} (V11.6)", n(*unit))
        }
        SpellEvent::Faded { unit, spell, why } => {
            let why = match why {
                Faded::Unheld => "no longer held",
                Faded::Expired => "its rounds are over",
            };
            format!("  {}'s {spell} fades: {why} (V11.6)", n(*unit))
        }
        SpellEvent::Gripped { unit, by, spell } => format!(
            "  {} is held fast by {}'s {spell}: it cannot move (V11.4, V7.6)",
            n(*unit),
            n(*by)
        ),
        SpellEvent::Released { unit, spell } => {
            format!("  {spell} lets {} go (V11.4, V7.6)", n(*unit))
        }
        SpellEvent::Warded {
            unit,
            spell,
            level,
            mp,
            roll,
            bonus,
            against,
            absorb,
        } => {
            let total = *roll as i32 + bonus;
            let verdict = match absorb {
                Some(r) => format!(
                    "it holds, absorbing {}d{} [{}]",
                    r.rolls.len(),
                    r.sides,
                    joined(&r.rolls)
                ),
                None => "it fails".to_string(),
            };
            format!(
                "  {} casts {spell} at level {level} as the blow lands ({mp} MP, a reaction): d12 [{roll}] {bonus:+} = {total} vs {against}: {verdict} (V11.1, V11.3)",
                n(*unit)
            )
        }
    })
}
