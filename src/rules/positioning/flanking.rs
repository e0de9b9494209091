//! R4.5 flanking: an attacker flanks a target when an ally also threatens
//! it and the segment between the two allies' tile centres crosses the
//! target's tile through opposite sides or opposite corners. Both get +1
//! advantage on melee attacks against it.

use crate::battle::{GridPos, Side};
use crate::grid::Pos;
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::positioning::threat::threat_of;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        add_flanking.in_set(AttackSystems::Situational),
    );
}

/// True when the segment from the centre of `a` to the centre of `b`
/// crosses the tile `t` through opposite sides (or opposite corners, the
/// boundary case). Exact integer arithmetic: no floating point.
pub fn crosses_opposite(a: Pos, b: Pos, t: Pos) -> bool {
    let (a, b) = ((a.x - t.x, a.y - t.y), (b.x - t.x, b.y - t.y));
    // Through the left and right sides x = ±1/2: at each, |y| ≤ 1/2.
    let through = |(ax, ay): (i32, i32), (bx, by): (i32, i32)| {
        if ax.min(bx) > -1 || ax.max(bx) < 1 {
            return false;
        }
        let d = (bx - ax) as i64;
        // 2·y(x)·d for x = ±1/2, compared with |d| (|y| ≤ 1/2).
        [-1i64, 1].iter().all(|s| {
            let twice = 2 * ay as i64 * d + (by - ay) as i64 * (s - 2 * ax as i64);
            twice.abs() <= d.abs()
        })
    };
    through(a, b) || through((a.1, a.0), (b.1, b.0))
}

/// The ally of `attacker` that completes a flank on `target` for a melee
/// attack from `from` (R4.5): it threatens the target, and the segment
/// between the two crosses the target's tile through opposite sides or
/// corners. Only allies within the longest reach (5, R7.5) can.
pub fn flank_partner(world: &World, attacker: Entity, target: Entity, from: Pos) -> Option<Entity> {
    let side = world.get::<Side>(attacker).copied()?;
    let target = world.get::<GridPos>(target).copied()?;
    crate::battle::units(world)
        .into_iter()
        .filter(|e| {
            *e != attacker
                && world.get::<Side>(*e) == Some(&side)
                && world
                    .get::<GridPos>(*e)
                    .is_some_and(|p| p.0.distance(target.0) <= 5)
        })
        .filter_map(|e| threat_of(world, e))
        .find(|t| t.covers(target.0) && crosses_opposite(t.pos, from, target.0))
        .map(|t| t.unit)
}

fn add_flanking(world: &mut World) {
    let Some((attacker, target, from, mode)) = world
        .get_resource::<AttackDraft>()
        .map(|d| (d.attacker, d.target, d.from, d.mode))
    else {
        return;
    };
    if mode != AttackMode::Melee {
        return;
    }
    if let Some(partner) = flank_partner(world, attacker, target, from) {
        let name = crate::battle::name_of(world, partner);
        world.resource_mut::<AttackDraft>().push(
            Effect::Advantage(1),
            format!("flanking with {name}"),
            Rule::R4_5,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn adjacent_flankers_must_stand_opposite() {
        let t = p(5, 5);
        assert!(crosses_opposite(p(4, 5), p(6, 5), t));
        assert!(crosses_opposite(p(5, 4), p(5, 6), t));
        assert!(crosses_opposite(p(4, 4), p(6, 6), t));
        assert!(crosses_opposite(p(6, 4), p(4, 6), t));
        assert!(
            !crosses_opposite(p(4, 5), p(6, 6), t),
            "beside, not opposite"
        );
        assert!(!crosses_opposite(p(4, 5), p(5, 4), t), "an L");
        assert!(!crosses_opposite(p(4, 4), p(6, 5), t));
    }

    #[test]
    fn reach_flankers_cross_opposite_sides() {
        let t = p(5, 5);
        assert!(crosses_opposite(p(3, 5), p(6, 5), t));
        assert!(
            crosses_opposite(p(3, 4), p(6, 5), t),
            "a shallow line through both sides"
        );
        assert!(crosses_opposite(p(3, 3), p(6, 6), t));
        assert!(!crosses_opposite(p(3, 4), p(6, 6), t));
    }
}
