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
            let (rider, mount) = (n(unit), n(mount));
            match why {
                FallCause::MountDown => {
                    format!("  {mount} is down: {rider} falls to {to}, prone (R4.8, V12.7)")
                }
                FallCause::Prone => {
                    format!("  {rider}, knocked prone, falls from {mount} to {to} (V12.7)")
                }
                FallCause::RiderDown => format!("  {rider} falls from {mount} to {to} (V12.7)"),
            }
        }
        _ => return None,
    };
    Some(line)
}
