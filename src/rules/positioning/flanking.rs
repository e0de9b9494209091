//! R4.5 flanking: an attacker flanks a target when an ally also threatens
//! it and the segment between the two allies' tile centres crosses the
//! target's tile through opposite sides or opposite corners. Both get +1
//! advantage on melee attacks against it.

use crate::battle::{Side, bodies_of, body_of, side_of_body};
use crate::grid::{Body, Pos};
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
    crosses_body(Body::tile(a), Body::tile(b), Body::tile(t))
}

/// R4.5 for bodies of any size (V10.6): the segment between the centres
/// of `a` and `b` crosses the footprint `t` through opposite sides or
/// opposite corners. In doubled coordinates, where every centre is a
/// lattice point and `t`'s half side is its `n`.
pub fn crosses_body(a: Body, b: Body, t: Body) -> bool {
    let c = t.centre2();
    let h = i64::from(t.n);
    let rel = |p: Pos| (i64::from(p.x - c.x), i64::from(p.y - c.y));
    let (a, b) = (rel(a.centre2()), rel(b.centre2()));
    // Through the left and right sides x = ±h: at each, |y| ≤ h.
    let through = |(ax, ay): (i64, i64), (bx, by): (i64, i64)| {
        if ax.min(bx) > -h || ax.max(bx) < h {
            return false;
        }
        let d = bx - ax;
        // y(x)·d at x = ±h, compared with h·|d|.
        [-1i64, 1].iter().all(|s| {
            let scaled = ay * d + (by - ay) * (s * h - ax);
            scaled.abs() <= h * d.abs()
        })
    };
    through(a, b) || through((a.1, a.0), (b.1, b.0))
}

/// The ally of `attacker` that completes a flank on `target` for a melee
/// attack from `from` (R4.5): it threatens the target, and the segment
/// between the two crosses the target's footprint through opposite sides
/// or corners (V10.6). Only allies within the longest reach (5, R7.5, and
/// 1 more for a Huge body, V10.4) can.
pub fn flank_partner(world: &World, attacker: Entity, target: Entity, from: Pos) -> Option<Entity> {
    // No unit flanks itself: the line from a partner to the attacker's
    // centre, which is the target's, ends inside it and crosses no second
    // side. The AI gathers each unit's own DV by an attack on itself, at
    // every read of a battle: a roster scan for nothing.
    if attacker == target {
        return None;
    }
    let side = world.get::<Side>(attacker).copied()?;
    let target = body_of(world, target)?;
    let me = Body::new(from, side_of_body(world, attacker));
    let allies = crate::battle::roster_of(world)
        .iter()
        .copied()
        .filter(|&e| e != attacker && world.get::<Side>(e) == Some(&side));
    bodies_of(world, allies)
        .into_iter()
        .filter(|(_, b)| b.gap(target) <= 6)
        .filter_map(|(e, _)| threat_of(world, e))
        .find(|t| t.covers_body(target) && crosses_body(t.body(), me, target))
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

    /// A line from any body to the target's own centre ends inside the
    /// target and crosses no second side: a unit never flanked itself, so
    /// `flank_partner`'s early answer for one changes no outcome.
    #[test]
    fn a_line_ending_at_the_targets_centre_flanks_nothing() {
        for n in 1..=3 {
            let t = Body::new(p(5, 5), n);
            for (x, y, m) in
                (0..13).flat_map(|x| (0..13).flat_map(move |y| (1..=3).map(move |m| (x, y, m))))
            {
                assert!(
                    !crosses_body(Body::new(p(x, y), m), t, t),
                    "({x}, {y}) size {m} against size {n}"
                );
            }
        }
    }

    #[test]
    fn flankers_of_a_big_body_stand_on_opposite_sides_of_it() {
        // V10.6: a 2×2 ogre at (5, 5) fills (5..=6, 5..=6).
        let ogre = Body::new(p(5, 5), 2);
        let at = |x, y| Body::tile(p(x, y));
        assert!(crosses_body(at(4, 5), at(7, 6), ogre), "west and east");
        assert!(crosses_body(at(5, 4), at(6, 7), ogre), "north and south");
        assert!(crosses_body(at(4, 4), at(7, 7), ogre), "corner to corner");
        assert!(
            !crosses_body(at(4, 5), at(5, 4), ogre),
            "an L round a corner"
        );
        assert!(
            !crosses_body(at(4, 4), at(7, 4), ogre),
            "along its north side"
        );
        // A 3×3 giant between a 2×2 ogre and a man.
        let giant = Body::new(p(2, 2), 3);
        assert!(crosses_body(Body::new(p(0, 2), 2), at(5, 4), giant));
    }
}
