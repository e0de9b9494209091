//! R7.4 range: one disadvantage per full range increment, at most 10
//! increments for projectiles and 5 for throws; or a range trio
//! `(near, far, max)`. Thrown increments: the weapon's (2 tiles without
//! one) plus 1 tile per point of positive STR (R9.1).

use super::Rule;
use super::command::Refusal;
use super::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::battle::{GridPos, Stats};
use crate::format::Range;
use bevy::prelude::*;

/// Most increments a projectile flies (R7.4).
pub const PROJECTILE_INCREMENTS: i32 = 10;
/// Most increments an object is thrown (R7.4).
pub const THROWN_INCREMENTS: i32 = 5;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(AttackSchedule, add_range.in_set(AttackSystems::Situational));
}

/// The thrown range increment (R9.1) for an object of increment `base`
/// (2 without one) thrown by a unit of strength `str`.
pub fn thrown_increment(base: Option<i32>, str: i32) -> i32 {
    base.unwrap_or(2).max(1) + str.max(0)
}

/// The farthest a projectile weapon shoots (R7.4): 10 increments, or the
/// maximum of its range trio; a melee weapon's reach.
pub fn max_range(weapon: &crate::format::Weapon) -> i32 {
    match weapon.range {
        Some(Range::Increment(i)) => i * PROJECTILE_INCREMENTS,
        Some(Range::Trio(_, _, max)) => max,
        None => weapon.reach,
    }
}

/// The increments between thrower and target for a throw (R9.3 uses them).
pub fn increments(distance: i32, increment: i32) -> i32 {
    distance / increment.max(1)
}

fn add_range(mut draft: ResMut<AttackDraft>, stats: Query<&Stats>) {
    let target = GridPos(draft.at);
    let d = draft.from.distance(target.0);
    let str = stats.get(draft.attacker).map_or(0, |s| s.template.str);
    let (increment, max) = match (draft.mode, draft.weapon.range) {
        (AttackMode::Melee, _) => return,
        (AttackMode::Ranged, Some(Range::Trio(near, far, max))) => {
            if d > max {
                let why = format!(
                    "the target is {d} tiles away, beyond the {}'s maximum range {max}",
                    draft.weapon.name
                );
                draft.refuse(Refusal::new(Rule::R7_4, why));
            } else if d <= near {
                draft.push(
                    Effect::Advantage(1),
                    format!("near range ({d} ≤ {near})"),
                    Rule::R7_4,
                );
            } else if d > far {
                draft.push(
                    Effect::Advantage(-1),
                    format!("far range ({d} > {far})"),
                    Rule::R7_4,
                );
            }
            return;
        }
        (AttackMode::Ranged, Some(Range::Increment(inc))) => (inc, PROJECTILE_INCREMENTS),
        (AttackMode::Ranged, None) => return,
        (AttackMode::Thrown, _) => (
            thrown_increment(draft.weapon.thrown, str),
            THROWN_INCREMENTS,
        ),
    };
    if d > increment * max {
        draft.refuse(Refusal::new(
            Rule::R7_4,
            format!("the target is {d} tiles away, beyond {max} increments of {increment}"),
        ));
        return;
    }
    let n = increments(d, increment);
    if n > 0 {
        draft.push(
            Effect::Advantage(-n),
            format!(
                "range {d}: {n} increment{} of {increment}",
                if n == 1 { "" } else { "s" }
            ),
            Rule::R7_4,
        );
    }
}
