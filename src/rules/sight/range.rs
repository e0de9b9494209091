//! R7.4 range: one disadvantage per full range increment, at most 10
//! increments for projectiles and 5 for throws; or a range trio
//! `(near, far, max)`. Thrown increments: the weapon's (2 tiles without
//! one) plus 1 tile per point of positive STR (R9.1).

use crate::battle::Stats;
use crate::format::Range;
use crate::rules::command::Refusal;
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::rule::Rule;
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
    base.unwrap_or(2).max(1).saturating_add(str.max(0))
}

/// The farthest a projectile weapon shoots (R7.4): 10 increments, or the
/// maximum of its range trio; a melee weapon's reach.
pub fn max_range(weapon: &crate::format::Weapon) -> i32 {
    match weapon.range {
        Some(Range::Increment(i)) => i.saturating_mul(PROJECTILE_INCREMENTS),
        Some(Range::Trio(_, _, max)) => max,
        None => weapon.reach,
    }
}

/// The increments between thrower and target for a throw (R9.3 uses them).
pub fn increments(distance: i32, increment: i32) -> i32 {
    distance / increment.max(1)
}

/// What range does to an attack with `weapon` in `mode` on a target `d`
/// tiles away, by an attacker of strength `str` (R7.4): `None` for melee
/// (reach is R7.5's); else the net advantage with the modifier's words, or
/// why the target is out of range. The attack schedule and the window's
/// range bands both ask this.
pub fn range_modifier(
    weapon: &crate::format::Weapon,
    mode: AttackMode,
    str: i32,
    d: i32,
) -> Option<Result<(i32, String), String>> {
    let (increment, max) = match (mode, weapon.range) {
        (AttackMode::Melee, _) | (AttackMode::Ranged, None) => return None,
        (AttackMode::Ranged, Some(Range::Trio(near, far, max))) => {
            return Some(if d > max {
                Err(format!(
                    "the target is {d} tiles away, beyond the {}'s maximum range {max}",
                    weapon.name
                ))
            } else if d <= near {
                Ok((1, format!("near range ({d} ≤ {near})")))
            } else if d > far {
                Ok((-1, format!("far range ({d} > {far})")))
            } else {
                Ok((0, String::new()))
            });
        }
        (AttackMode::Ranged, Some(Range::Increment(inc))) => (inc, PROJECTILE_INCREMENTS),
        (AttackMode::Thrown, _) => (thrown_increment(weapon.thrown, str), THROWN_INCREMENTS),
    };
    if d > increment.saturating_mul(max) {
        return Some(Err(format!(
            "the target is {d} tiles away, beyond {max} increments of {increment}"
        )));
    }
    let n = increments(d, increment);
    Some(Ok((
        -n,
        format!(
            "range {d}: {n} increment{} of {increment}",
            if n == 1 { "" } else { "s" }
        ),
    )))
}

fn add_range(mut draft: ResMut<AttackDraft>, stats: Query<&Stats>) {
    let d = draft.distance();
    let str = stats.get(draft.attacker).map_or(0, |s| s.template.str);
    match range_modifier(&draft.weapon, draft.mode, str, d) {
        None | Some(Ok((0, _))) => {}
        Some(Ok((n, words))) => draft.push(Effect::Advantage(n), words, Rule::R7_4),
        Some(Err(why)) => draft.refuse(Refusal::new(Rule::R7_4, why)),
    }
}
