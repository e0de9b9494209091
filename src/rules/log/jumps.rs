//! The log's lines for V9's jumps and falls, each with its sub-rule and
//! every die: "Kay jumps (2, 3) → (4, 3): d20 [12] +4 = 16 vs DC 4 (2
//! tiles, rise 0) → lands (V9.3)".

use super::words::Names;
use crate::rules::events::{BattleEvent, JumpOutcome};

/// The line of a jump or fall event (V9), `None` for any other.
pub(super) fn line(event: &BattleEvent, names: &Names) -> Option<String> {
    let line = match event {
        BattleEvent::Jumped(j) => {
            let outcome = match j.outcome {
                JumpOutcome::Landed => "lands (V9.3)".to_string(),
                JumpOutcome::OffBalance => format!(
                    "lands off-balance, prone: below twice the DC, {} (V9.3, R4.8)",
                    2 * j.dc
                ),
                JumpOutcome::Stayed => "fails: stays at the takeoff, the AP spent (V9.3)".into(),
                JumpOutcome::Short => format!("fails: comes down short at {}, prone (V9.3)", j.to),
                JumpOutcome::Plunged => format!("fails: drops at {} (V9.3)", j.to),
            };
            format!(
                "{} jumps {} → {}: d20 [{}] {:+} = {} vs DC {} ({} tiles, rise {} m) → {outcome}",
                names.unit(j.unit),
                j.from,
                j.aimed,
                j.roll,
                j.bonus,
                j.score,
                j.dc,
                j.distance,
                j.rise
            )
        }
        BattleEvent::Fell(f) => {
            let who = names.unit(f.unit);
            if f.chasm {
                return Some(format!(
                    "  {who} falls into the chasm at {} and dies (V9.5)",
                    f.at
                ));
            }
            let check = match &f.check {
                Some(c) if c.success() => format!(
                    "; fall check d20 [{}] {:+} = {} vs DC {}: {} m saved",
                    c.roll, c.bonus, c.total, c.dc, c.saved
                ),
                Some(c) => format!(
                    "; fall check d20 [{}] {:+} = {} vs DC {}: fails",
                    c.roll, c.bonus, c.total, c.dc
                ),
                None => String::new(),
            };
            let fallen = f.dice.len();
            let damage: u32 = f.dice.iter().sum();
            let dice = f
                .dice
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let prone = if f.prone { ", prone" } else { "" };
            format!(
                "  {who} falls {} m at {}{check}: {fallen}d4 [{dice}] = {damage}, no armor{prone} (V9.4)",
                f.metres, f.at
            )
        }
        _ => return None,
    };
    Some(line)
}
