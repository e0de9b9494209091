//! R6.1–R6.3 on attacks: no attack without a line of effect; terrain cover
//! (partial +1, total +2 disadvantage); soft cover from creatures on the
//! line of ranged and thrown attacks (+2 DV each, +2 more per size category
//! larger than the target).

use crate::battle::{Battlefield, Dead, Prone, Stats, body_of};
use crate::format::Size;
use crate::grid::{Body, Pos};
use crate::rules::command::Refusal;
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::rule::Rule;
use crate::rules::sight::line_of_effect::{Cell, Sight, sight_on, walk_line};
use crate::terrain::Cover;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        add_terrain_cover.in_set(AttackSystems::Situational),
    );
}

/// The line an attack is drawn along, between one tile of the attacker
/// and one of its target (R6.1–R6.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The attacker's tile.
    pub from: Pos,
    /// The target's tile.
    pub to: Pos,
    /// Whether it is clear, and the terrain cover on it.
    pub sight: Sight,
    /// The tiles whose creatures give soft cover, with the DV each gives
    /// (none for melee).
    pub soft: Vec<(Pos, i32)>,
}

impl Line {
    /// The soft cover's DV (R6.3).
    pub fn soft_dv(&self) -> i32 {
        self.soft.iter().map(|(_, dv)| dv).sum()
    }
}

/// V10.6 with R6.1–R6.3: of every pair of a tile of `from` (the attacker's
/// body) and a tile of `to` (the target's), the line with the least cover —
/// clear first, then the least terrain cover, the least soft cover (counted
/// when `soft`), the shortest, the first in row order *(decision: terrain
/// before soft cover)*. For one-tile units, the one line between them. When
/// no pair is clear, the first pair's blocked line.
pub fn best_line(
    world: &World,
    attacker: Entity,
    from: Body,
    target: Entity,
    to: Body,
    soft: bool,
) -> Line {
    let Some(field) = world.get_resource::<Battlefield>() else {
        return Line {
            from: from.at,
            to: to.at,
            sight: Sight {
                clear: true,
                cover: Cover::None,
                cover_at: None,
            },
            soft: vec![],
        };
    };
    let standing = if soft {
        standing_bodies(world, attacker, target, (from, to))
    } else {
        vec![]
    };
    let target_size = world
        .get::<Stats>(target)
        .map(|s| size_rank(s.template.size));
    let mut best: Option<((bool, Cover, i32, i32), Line)> = None;
    for a in from.tiles() {
        for b in to.tiles() {
            let sight = sight_on(&field.0, a, b);
            let soft = match target_size {
                Some(size) if soft => soft_cover_on(&standing, size, a, b),
                _ => vec![],
            };
            let line = Line {
                from: a,
                to: b,
                sight,
                soft,
            };
            let key = (!sight.clear, sight.cover, line.soft_dv(), a.distance(b));
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, line));
            }
        }
    }
    best.map(|(_, line)| line).expect("a body has a tile")
}

/// R6.1, R6.2: refuses an attack without a line of effect; adds the
/// greatest terrain cover on the line (the best line between two bodies,
/// V10.6).
fn add_terrain_cover(world: &mut World) {
    let Some(draft) = world.get_resource::<AttackDraft>() else {
        return;
    };
    let soft = draft.mode != AttackMode::Melee;
    let line = best_line(
        world,
        draft.attacker,
        draft.attacker_body(),
        draft.target,
        draft.target_body(),
        soft,
    );
    let s = line.sight;
    let map = &world.resource::<Battlefield>().0.map;
    let name = s
        .cover_at
        .and_then(|p| map.get(p))
        .map_or(String::new(), |t| t.name.clone());
    let mut draft = world.resource_mut::<AttackDraft>();
    if !s.clear {
        let why = format!("no line of effect from {} to {}", line.from, line.to);
        draft.refuse(Refusal::new(Rule::R6_1, why));
        return;
    }
    match s.cover {
        Cover::Partial => draft.push(
            Effect::Advantage(-1),
            format!("partial cover ({name})"),
            Rule::R6_2,
        ),
        Cover::Total => draft.push(
            Effect::Advantage(-2),
            format!("total cover ({name})"),
            Rule::R6_2,
        ),
        Cover::None => {}
    }
    // R6.3: ranged and thrown attacks only.
    let total = line.soft_dv();
    if soft && total > 0 {
        draft.push(Effect::Dv(total), "soft cover", Rule::R6_3);
    }
}

/// Size categories from Tiny (0) up.
pub fn size_rank(size: Size) -> i32 {
    size as i32
}

/// The standing creatures that may give soft cover (R6.3) on a line
/// between the bodies `from` and `to`: every unit not dead and not lying,
/// other than the two in the attack, with its body and size rank. Lying
/// creatures (prone, dying) do not block *(decision)*.
fn standing_bodies(
    world: &World,
    attacker: Entity,
    target: Entity,
    (from, to): (Body, Body),
) -> Vec<(Entity, Body, i32)> {
    let side = world
        .get::<crate::battle::Side>(attacker)
        .map_or(0, |s| s.0);
    // Every line between the two bodies stays inside the rectangle that
    // spans them (the supercover steps only toward its end): a body
    // outside it is on no line, whatever else it is. Tested first, as most
    // units stand elsewhere and the other tests each look the unit up.
    let (lo_x, hi_x) = (
        from.at.x.min(to.at.x),
        (from.at.x + from.n).max(to.at.x + to.n),
    );
    let (lo_y, hi_y) = (
        from.at.y.min(to.at.y),
        (from.at.y + from.n).max(to.at.y + to.n),
    );
    let on_the_way =
        |b: Body| b.at.x < hi_x && lo_x < b.at.x + b.n && b.at.y < hi_y && lo_y < b.at.y + b.n;
    let others = crate::battle::roster_of(world)
        .iter()
        .copied()
        .filter(|&e| e != attacker && e != target);
    crate::battle::bodies_of(world, others)
        .into_iter()
        .filter(|&(_, b)| on_the_way(b))
        // A unit hidden from the attacker's side gives no soft cover: the
        // odds shown are the odds rolled from what the side knows (V8.10).
        .filter(|&(e, _)| !crate::battle::hidden_from(world, e, side))
        .filter(|&(e, _)| {
            let e = world.entity(e);
            !e.contains::<Prone>() && !e.contains::<Dead>()
        })
        .filter_map(|(e, body)| {
            let size = size_rank(world.get::<Stats>(e)?.template.size);
            Some((e, body, size))
        })
        .collect()
}

/// R6.3: each standing creature on the line from `from` to `to` gives the
/// target +2 DV, +2 more per size category it is larger than the target;
/// where the line passes a corner, the lesser of the two tiles counts
/// *(decision, as R6.1)*; a creature counts once however many of its tiles
/// are on the line (V10.6). The tiles that give it, with the DV each gives.
fn soft_cover_on(
    standing: &[(Entity, Body, i32)],
    target_size: i32,
    from: Pos,
    to: Pos,
) -> Vec<(Pos, i32)> {
    // Only a body the line meets can hold a tile the walk visits: the
    // others are left out before it, in order, so that the walk (a search
    // among the bodies at every tile) looks through those few, or is not
    // taken at all.
    let near: Vec<(Entity, Body, i32)> = standing
        .iter()
        .filter(|(_, b, _)| meets(*b, from, to))
        .copied()
        .collect();
    soft_cover_along(&near, target_size, from, to)
}

/// Whether the segment between the centres of the tiles `from` and `to`
/// meets the closed square of `body`. Every tile [`walk_line`] visits
/// does, through its inside or at a corner the line passes, so a body it
/// misses holds none of them. Exact, in the doubled coordinates of
/// [`Body::centre2`] (as flanking's `crosses_body`): the square spans its
/// centre ± `n`.
fn meets(body: Body, from: Pos, to: Pos) -> bool {
    let wide = |p: Pos| (i64::from(p.x), i64::from(p.y));
    let ((px, py), (qx, qy)) = (
        wide(Body::tile(from).centre2()),
        wide(Body::tile(to).centre2()),
    );
    let ((cx, cy), h) = (wide(body.centre2()), i64::from(body.n));
    let (x0, x1, y0, y1) = (cx - h, cx + h, cy - h, cy + h);
    if px.max(qx) < x0 || px.min(qx) > x1 || py.max(qy) < y0 || py.min(qy) > y1 {
        return false;
    }
    // The square's corners all strictly on one side of the line: missed.
    let side = |x: i64, y: i64| ((qx - px) * (y - py) - (qy - py) * (x - px)).signum();
    let sides = [side(x0, y0), side(x1, y0), side(x0, y1), side(x1, y1)];
    !(sides.iter().all(|&s| s > 0) || sides.iter().all(|&s| s < 0))
}

/// [`soft_cover_on`]'s walk along the line, searching `standing` at every
/// tile it visits.
fn soft_cover_along(
    standing: &[(Entity, Body, i32)],
    target_size: i32,
    from: Pos,
    to: Pos,
) -> Vec<(Pos, i32)> {
    let mut counted: Vec<Entity> = vec![];
    let mut out = vec![];
    if standing.is_empty() {
        return out;
    }
    walk_line(from, to, |cell| {
        let bonus_at = |p: Pos, counted: &[Entity]| {
            standing
                .iter()
                .find(|(e, b, _)| b.contains(p) && !counted.contains(e))
                .map_or((None, 0), |(e, _, size)| {
                    (Some(*e), 2 + 2 * (size - target_size).max(0))
                })
        };
        let (at, (who, bonus)) = match cell {
            Cell::Tile(p) => (p, bonus_at(p, &counted)),
            Cell::Corner(a, b) => {
                let (ba, bb) = (bonus_at(a, &counted), bonus_at(b, &counted));
                if ba.1 <= bb.1 { (a, ba) } else { (b, bb) }
            }
        };
        if let Some(e) = who.filter(|_| bonus > 0) {
            counted.push(e);
            out.push((at, bonus));
        }
        true
    });
    out
}

/// The soft cover (R6.3) on the line an attack from `attacker` standing
/// where it stands on `target` takes (the best line, V10.6): the tiles that
/// give it with their DV, for the window.
pub fn soft_cover(world: &World, attacker: Entity, target: Entity) -> Vec<(Pos, i32)> {
    match (body_of(world, attacker), body_of(world, target)) {
        (Some(a), Some(b)) => best_line(world, attacker, a, target, b, true).soft,
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Leaving out the bodies the line misses changes no soft cover
        /// (R6.3, V10.6): the same tiles and DV as the walk through every
        /// standing body, for lines of any slope (corners included) and
        /// bodies of 1 to 3 tiles a side, overlapping as a rider and its
        /// mount do.
        #[test]
        fn bodies_the_line_misses_give_no_soft_cover(
            from in (0..14i32, 0..14i32),
            to in (0..14i32, 0..14i32),
            bodies in proptest::collection::vec((0..14i32, 0..14i32, 1..4i32, 0..5i32), 0..8),
            target_size in 0..5i32,
        ) {
            let standing: Vec<(Entity, Body, i32)> = bodies
                .iter()
                .enumerate()
                .map(|(i, &(x, y, n, size))| {
                    (Entity::from_raw_u32(i as u32 + 1).unwrap(), Body::new(Pos::new(x, y), n), size)
                })
                .collect();
            let (from, to) = (Pos::new(from.0, from.1), Pos::new(to.0, to.1));
            prop_assert_eq!(
                soft_cover_on(&standing, target_size, from, to),
                soft_cover_along(&standing, target_size, from, to)
            );
        }
    }

    /// A body the line passes only at a corner is met; one beside the line
    /// is not.
    #[test]
    fn a_line_meets_a_body_at_a_corner_and_misses_one_beside_it() {
        let (from, to) = (Pos::new(0, 0), Pos::new(4, 4));
        assert!(
            meets(Body::tile(Pos::new(1, 0)), from, to),
            "a corner on the diagonal"
        );
        assert!(meets(Body::tile(Pos::new(2, 2)), from, to));
        assert!(!meets(Body::tile(Pos::new(2, 0)), from, to));
        assert!(!meets(Body::tile(Pos::new(5, 5)), from, to), "past the end");
        assert!(
            meets(Body::new(Pos::new(2, 0), 2), from, to),
            "a 2×2 whose corner the diagonal passes"
        );
    }
}
