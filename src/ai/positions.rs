//! What a tile is worth to the utility AI: the danger there next round,
//! the reactive attacks a path or a shot draws, the flanks it sets up for
//! allies, and how much attacking the best plan there could do.

use super::profile::Weights;
use super::situation::{Situation, Unit};
use crate::battle::{Inventory, Stats};
use crate::grid::Pos;
use crate::rules::positioning::threat::Threat;
use crate::rules::reactions::reactive_attack::steps_provoking;
use crate::rules::sight::range::{THROWN_INCREMENTS, max_range, thrown_increment};
use bevy::prelude::*;

/// What standing on `at` at the end of the turn is worth: minus the risk of
/// the enemies' next round there (facing the safest way), plus closing in
/// on the fight, plus setting up flanks for allies.
pub(super) fn position_value(sit: &Situation, at: Pos, w: &Weights) -> f64 {
    let me = sit.me();
    let (_, danger) = sit.best_facing(at, 0);
    let mut value = -risk(me, danger, w);
    let reach = me
        .ranged
        .map(|s| s.reach)
        .or(me.melee.map(|s| s.reach))
        .unwrap_or(1);
    if let (Some(now), Some(then)) = (sit.distance_to_fight(me.pos), sit.distance_to_fight(at)) {
        let gap = |d: i32| (d - reach).max(0) as f64;
        let urgency = 1.0 + w.urgency * sit.lateness;
        value += w.approach * urgency * me.worth * (gap(now) - gap(then)) / me.speed.max(1) as f64;
    }
    if sit.goals.contains(&at) {
        value += w.objective * me.worth;
    }
    value + w.flank_setup * flank_setups(sit, at)
}

/// How many enemies `at` is next to whose opposite tile an ally could take
/// (a flank for the next ally, R4.5), weighted by their worth.
pub(super) fn flank_setups(sit: &Situation, at: Pos) -> f64 {
    let me = sit.me();
    if me.melee.is_none() {
        return 0.0;
    }
    let mut value = 0.0;
    for (_, e) in sit.enemies() {
        if me.gap_from(at, e) != 1 {
            continue;
        }
        // My centre mirrored through the enemy's (doubled coordinates, so
        // that bodies of any size mirror exactly, V10.6).
        let (c, mine) = (e.body().centre2(), me.body_at(at).centre2());
        let opposite = Pos::new(
            (2 * c.x - mine.x).div_euclid(2),
            (2 * c.y - mine.y).div_euclid(2),
        );
        let ally_can = sit.units.iter().any(|a| {
            a.side == me.side
                && a.entity != me.entity
                && !a.down
                && a.melee.is_some()
                && (a.pos == opposite || a.pos.distance(opposite) <= a.speed)
        });
        if ally_can && sit.level.map.is_passable(opposite) {
            value += e.worth / e.pool().max(1.0) * 2.0;
        }
    }
    value
}

/// The cost of an expected `damage` to `me`: its worth times the share of
/// its staying power lost, growing with the chance it falls.
pub(super) fn risk(me: &Unit, damage: f64, w: &Weights) -> f64 {
    w.exposure * me.worth * loss(me, damage, w.fall_aversion)
}

/// Past twice its staying power, more danger is no worse: the fall is as
/// good as sure. Measured on `hill.ron` against greedy (`sim --games 400
/// --swap --seed 5`): uncapped 67%, capped at 1 74%, at 2 76%.
const SHARE_CAP: f64 = 2.0;

/// The share of `me`'s staying power an expected `damage` takes, weighted
/// up by `aversion` as it nears a fall (R10.1), up to [`SHARE_CAP`]: a
/// unit cannot lose more than all it has, so that next to a giant every
/// tile is not "five deaths" deep and nothing worth doing is left.
fn loss(me: &Unit, damage: f64, aversion: f64) -> f64 {
    let share = (damage / me.pool()).min(SHARE_CAP);
    share * (1.0 + aversion * share)
}

/// The cost of the reactive attacks a Move along `path` provokes (R8.2).
pub(super) fn provocation_cost(
    sit: &Situation,
    watchers: &[(Threat, i32)],
    start: Pos,
    path: &[Pos],
    w: &Weights,
) -> f64 {
    let me = sit.me();
    let mut damage = 0.0;
    for (_, _, reactors) in steps_provoking(watchers, me.n, start, path) {
        for r in reactors {
            if let Some(s) = sit
                .units
                .iter()
                .find(|u| u.entity == r)
                .and_then(|u| u.melee)
            {
                damage += s.expected(0, me.dv);
            }
        }
    }
    if damage == 0.0 {
        return 0.0;
    }
    w.provoked * me.worth * loss(me, damage, 1.0)
}

/// The expected damage of the reactive attacks that an act provoking where
/// `me` stands on `at` draws (a shot, a throw, standing up: R8.2), each
/// with `advantage` (+1 on the prone, R4.8).
pub(super) fn reaction_damage(
    sit: &Situation,
    watchers: &[(Threat, i32)],
    at: Pos,
    advantage: i32,
) -> f64 {
    let me = sit.me();
    watchers
        .iter()
        .filter(|(t, left)| *left > 0 && t.covers_body(me.body_at(at)))
        .filter_map(|(t, _)| sit.units.iter().find(|u| u.entity == t.unit)?.melee)
        .map(|s| s.expected(advantage, me.dv))
        .sum()
}

/// Reactive attacks a shot or throw from `at` provokes (R8.2).
pub(super) fn shot_cost(sit: &Situation, watchers: &[(Threat, i32)], at: Pos, w: &Weights) -> f64 {
    let me = sit.me();
    let damage = reaction_damage(sit, watchers, at, 0);
    w.provoked * me.worth * loss(me, damage, 1.0)
}

/// The extra risk of being open to melee (+1 advantage against, R4.7, R7.8)
/// until the next turn.
pub(super) fn exposed_cost(sit: &Situation, at: Pos, w: &Weights) -> f64 {
    let me = sit.me();
    if me.open {
        return 0.0;
    }
    risk(me, sit.best_facing(at, 0).1 * w.open_danger, w)
}

/// The farthest `me` can attack from: melee reach with a Lunge (R7.8), its
/// weapons' range (R7.4), its throws (5 increments, R9.1).
pub(super) fn farthest_attack(world: &World, sit: &Situation) -> i32 {
    let me = sit.me();
    let str = world.get::<Stats>(me.entity).map_or(0, |s| s.template.str);
    let catalog = &sit.level.catalog;
    let throws = world
        .get::<Inventory>(me.entity)
        .into_iter()
        .flat_map(|i| i.items.iter().map(|(n, _)| n))
        .filter_map(|n| {
            let base = catalog
                .weapon(n)
                .map(|w| w.thrown)
                .or_else(|| catalog.item(n).map(|i| i.thrown))?;
            Some(THROWN_INCREMENTS * thrown_increment(base, str))
        });
    let weapons = world
        .get::<Inventory>(me.entity)
        .into_iter()
        .flat_map(|i| i.weapons.iter())
        .filter_map(|w| catalog.weapon(w))
        // Melee: the reach as the rules give it (a Huge body's +1, V10.4),
        // and a Lunge's tile more (R7.8).
        .map(|w| match w.is_ranged() {
            true => max_range(w),
            false => crate::battle::reach_with(world, me.entity, w.reach) + 1,
        });
    throws.chain(weapons).max().unwrap_or(1)
}

/// An upper bound of what acting with `ap` points from `at` can be worth:
/// lets the search skip tiles that cannot beat the best plan found.
/// `farthest`: [`farthest_attack`].
pub(super) fn attack_ceiling(sit: &Situation, at: Pos, ap: i32, farthest: i32, w: &Weights) -> f64 {
    if ap <= 0 {
        return 0.0;
    }
    let me = sit.me();
    let mut best: f64 = 0.0;
    for u in &sit.units {
        if u.side == me.side {
            if u.down {
                best = best.max(w.rescue * u.worth * w.rescue_approach);
            }
            continue;
        }
        if me.gap_from(at, u) <= farthest {
            best = best.max(u.worth * (w.damage + w.drop) + w.finish * u.worth);
        }
    }
    // Defend and a readied shield are worth at most the whole risk here.
    let guard = risk(me, sit.best_facing(at, 0).1, w);
    best.max(guard) * ap as f64
}
