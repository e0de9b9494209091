//! The log's lines for V5's Energy: each round's budgets, what a command
//! cost, Swift Attacks, Exposed and Unguarded, Defend and catching one's
//! breath, each with its sub-rule.

use super::words::Names;
use crate::battle::UnitId;
use crate::rules::events::{BattleEvent, EnergyEvent};

/// The line of an Energy event (V5), `None` for any other or one the log
/// leaves out.
pub(super) fn line(event: &BattleEvent, names: &Names) -> Option<String> {
    let BattleEvent::Energy(e) = event else {
        return None;
    };
    let n = |id: &UnitId| names.unit(*id);
    Some(match e {
        EnergyEvent::Round { units, .. } => {
            let each: Vec<String> = units
                .iter()
                .map(|(u, energy, agility, _)| format!("{} {energy}/{agility}", n(u)))
                .collect();
            format!(
                "Energy by Stamina (V5.2) / Agility (V5.4): {}",
                each.join(", ")
            )
        }
        EnergyEvent::Paid {
            unit,
            command,
            energy,
            agility,
            stamina,
            stand_in,
            swift,
            energy_left,
            agility_left,
            stamina_left,
        } => {
            let mut parts = vec![];
            if *energy > 0 {
                parts.push(format!("{energy} Energy"));
            }
            if *agility > 0 {
                parts.push(format!("{agility} Agility"));
            }
            if *stamina > 0 {
                parts.push(format!("{stamina} Stamina"));
            }
            if parts.is_empty() {
                return None;
            }
            let mut why = String::new();
            if *stand_in {
                why.push_str(", 1 Stamina in place of 1 Energy (V5.3)");
            }
            if *swift {
                why.push_str(", a Swift Attack on an Unguarded target (V5.9)");
            }
            if *command == crate::rules::command::CommandKind::Move {
                // V5.6's turning penalty is left out (DECISIONS.md).
                why.push_str(", turning free (V5.6)");
            }
            format!(
                "  {} pays {} for {command}{why} (V5.5): {energy_left} Energy, {agility_left} Agility, {stamina_left} Stamina left",
                n(unit),
                parts.join(" + ")
            )
        }
        EnergyEvent::Swift { unit, energy_left } => format!(
            "  {}'s reactive attack is its Swift Attack of the round: 1 Energy, {energy_left} left (V5.9)",
            n(unit)
        ),
        EnergyEvent::Became {
            unit,
            condition,
            cause,
            until,
        } => format!(
            "  {} is {} by {} until the end of round {until} (V5.8)",
            n(unit),
            condition.label(),
            cause.label()
        ),
        EnergyEvent::PastArmor { unit } => format!(
            "  a natural 20: the blow passes all {}'s armor (V5.11)",
            n(unit)
        ),
        EnergyEvent::Cleared { unit } => {
            format!("  {}'s Defend clears its exposure (V5.12)", n(unit))
        }
        EnergyEvent::DefendEnded { unit } => {
            format!("  {}'s Defend ends (V5.12)", n(unit))
        }
        EnergyEvent::CaughtBreath { unit, stamina } => format!(
            "{} catches its breath: 1 Stamina back, {stamina} now (V5.5)",
            n(unit)
        ),
    })
}
