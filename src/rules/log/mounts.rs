//! The log's lines for V12's mounted combat: mounting, dismounting, the
//! free Move and falls, each with its sub-rule.

use super::words::Names;
use crate::battle::UnitId;
use crate::rules::events::{BattleEvent, FallCause};

/// The line of a mounted-combat event (V12), `None` for any other.
pub(super) fn line(event: &BattleEvent, names: &Names) -> Option<String> {
    use BattleEvent::*;
    let n = |id: &UnitId| names.unit(*id);
    let cost = |ap: i32| match ap {
        1 => "1 AP".to_string(),
        ap => format!("{ap} AP, unskilled (V12.6)"),
    };
    let line = match event {
        FreeMoveTaken { unit } => format!("{} rides: the pair's free Move, no AP (V12.2)", n(unit)),
        Mounted {
            unit, mount, ap, ..
        } => {
            format!("{} mounts {} ({}, V12.7)", n(unit), n(mount), cost(*ap))
        }
        Dismounted {
            unit,
            mount,
            to,
            ap,
            ..
        } => format!(
            "{} dismounts {} to {to} ({}, V12.7)",
            n(unit),
            n(mount),
            cost(*ap)
        ),
        ThrownOff {
            unit,
            mount,
            to,
            why,
        } => {
            let (why, lands) = match why {
                FallCause::MountDown => (format!("{} is down", n(mount)), ": prone (R4.8)"),
                FallCause::Prone => (format!("{} is knocked prone", n(unit)), ""),
                FallCause::RiderDown => (format!("{} is down", n(unit)), ""),
            };
            format!(
                "  {why}: {} falls from {} to {to}{lands} (V12.7)",
                n(unit),
                n(mount)
            )
        }
        _ => return None,
    };
    Some(line)
}
