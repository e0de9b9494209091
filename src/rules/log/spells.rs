//! The log's lines for V11's spells: casts and their MP, the caster's roll
//! and each target's save, concentration.

use super::words::{Names, joined};
use crate::rules::events::{BattleEvent, Broken, SpellEvent};
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
            dice,
            counted,
            bonus,
            dc,
            unfocused,
            ..
        } => {
            let kept = dice.iter().copied().min().unwrap_or(*counted);
            let mut roll = if dice.is_empty() {
                "a flat 10".to_string()
            } else if dice.len() > 1 {
                format!("d20 [{}] keep {kept}", joined(dice))
            } else {
                format!("d20 [{}]", joined(dice))
            };
            // DC+ (004:128): a die below 10 counts as 10.
            if !dice.is_empty() && kept != *counted {
                let _ = write!(roll, " counted as {counted} (DC+)");
            }
            let focus = if *unfocused {
                " [no focus +1 dis (V11.7)]"
            } else {
                ""
            };
            format!("  the save's DC: {roll}{focus} {bonus:+} = {dc} (V11.3)")
        }
        SpellEvent::Saved {
            unit,
            dice,
            kept,
            bonus,
            dc,
            saved,
        } => {
            let roll = if dice.len() > 1 {
                format!("d20 [{}] keep {kept}", joined(dice))
            } else {
                format!("d20 [{kept}]")
            };
            let verdict = if *saved { "saves" } else { "fails" };
            format!(
                "  {} saves: {roll} {bonus:+} = {} vs DC {dc}: {verdict} (V11.3)",
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
    })
}
