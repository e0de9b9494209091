//! The log's lines for V7's maneuvers: what each did, with its sub-rule.

use super::words::Names;
use crate::battle::UnitId;
use crate::rules::command::Hold;
use crate::rules::events::{BattleEvent, GrappleEnd, Opening};
use crate::rules::rule::Rule;

/// The line of a maneuver's outcome event (V7), `None` for any other.
pub(super) fn line(event: &BattleEvent, names: &Names) -> Option<String> {
    use BattleEvent::*;
    let n = |id: &UnitId| names.unit(*id);
    let line = match event {
        Opened {
            unit,
            by: Opening::Maneuver,
        } => format!("  {} is opened: its target was not exposed (V7.3)", n(unit)),
        Opened {
            unit,
            by: Opening::Shove,
        } => format!("  {} is opened by the shove (V7.7)", n(unit)),
        KnockedDown { unit, by, rule } => {
            let how = match rule {
                Rule::V7_4 => "trips",
                // A spell's effect (V11.4).
                Rule::V11_4 => "throws down",
                _ => "forces down",
            };
            format!("  {} {how} {}: prone (R4.8, {rule})", n(by), n(unit))
        }
        Disarmed {
            unit,
            by,
            weapon,
            at,
            flung,
        } => {
            let lands = if *flung { "flung to" } else { "falls at" };
            format!(
                "  {} disarms {}: the {weapon} {lands} {at} (V7.5)",
                n(by),
                n(unit)
            )
        }
        Shoved {
            unit,
            by,
            from,
            to,
            charge,
        } => {
            let how = if *charge { "drives" } else { "shoves" };
            if from == to {
                format!(
                    "  {} {how} {}, but no tile behind it is free: it stays at {from} (V7.7)",
                    n(by),
                    n(unit)
                )
            } else {
                format!("  {} {how} {} {from} → {to} (V7.7)", n(by), n(unit))
            }
        }
        Grappled { unit, by, hold } => {
            let how = match hold {
                Hold::Held => "holds",
                Hold::Grabbed | Hold::Free => "grabs",
            };
            format!("  {} {how} {} (V7.6)", n(by), n(unit))
        }
        GrappleSustained { unit, target } => {
            format!("{} keeps its grip on {} (V7.6 Sustain)", n(unit), n(target))
        }
        GrappleEnded { unit, by, why } => {
            let why = match why {
                GrappleEnd::Released => format!("{} lets go of {}", n(by), n(unit)),
                GrappleEnd::Unsustained => {
                    format!("{} did not sustain its grip: {} is free", n(by), n(unit))
                }
                GrappleEnd::Escaped => format!("{} breaks free of {}", n(unit), n(by)),
                GrappleEnd::OutOfAction => {
                    format!("{}'s grapple on {} ends: out of action", n(by), n(unit))
                }
                GrappleEnd::Separated => {
                    format!("{} and {} are pushed apart", n(by), n(unit))
                }
            };
            format!("  {why} (V7.6)")
        }
        Dragged {
            unit,
            target,
            from,
            to,
            target_from,
            target_to,
        } => format!(
            "{} drags {} along: {from} → {to}, {} {target_from} → {target_to} (V7.6)",
            n(unit),
            n(target),
            n(target)
        ),
        Crushing { unit, target } => format!(
            "{} crushes {} in its hold: no answer (V7.6)",
            n(unit),
            n(target)
        ),
        _ => return None,
    };
    Some(line)
}
