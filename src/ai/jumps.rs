//! Jumps for the utility AI (V9.2–V9.4): onto ground no Move reaches (up a
//! ledge, over a chasm), each weighed by the rules' exact odds
//! ([`jump_odds`]): the chance to land standing, off-balance (prone) and to
//! fail, with where a failure ends and any fall on the way, all in the
//! utility's one currency.
//!
//! Off-balance, the unit lies prone: it pays the AP to stand before acting
//! (R4.8), so its acts count one AP fewer. A fall costs its expected
//! damage; a chasm, the unit (V9.5).

use super::acts::actions_at;
use super::positions::{attack_ceiling, position_value, provocation_cost, risk};
use super::profile::Weights;
use super::situation::Situation;
use crate::battle::name_of;
use crate::grid::Pos;
use crate::rules::command::Command;
use crate::rules::events::JumpOutcome;
use crate::rules::motion::movement::{Reach, speed_of};
use crate::rules::positioning::threat::Threat;
use crate::rules::variants::jumping::{self, FallOdds, jump_odds};
use bevy::prelude::*;
use std::collections::HashMap;

/// The farthest a jump is planned, in tiles: a longer one is a DC of 10 or
/// more on level ground alone, seldom worth its risk.
const FARTHEST: i32 = 4;

/// Every jump worth more than `floor`, with its value: to the tiles within
/// [`FARTHEST`] (and the unit's speed) that no Move in `reach` ends on.
pub(super) fn jumps(
    world: &mut World,
    sit: &Situation,
    reach: &HashMap<Pos, Reach>,
    watchers: &[(Threat, i32)],
    floor: f64,
    w: &Weights,
) -> Vec<(f64, Command)> {
    let me = sit.me().clone();
    if !jumping::on(world) || sit.ap < 1 || me.prone || me.n > 1 {
        return vec![];
    }
    let far = FARTHEST.min(speed_of(world, me.entity) as i32);
    let farthest = super::positions::farthest_attack(world, sit);
    let name = name_of(world, me.entity);
    let start = me.pos;
    // Leaving the tile provokes as a Move does (V9.2, R8.2).
    let provoked = |to: Pos| provocation_cost(sit, watchers, start, &[to], w);
    let mut out = vec![];
    for dy in -far..=far {
        for dx in -far..=far {
            let to = Pos::new(start.x + dx, start.y + dy);
            if to == start || reach.contains_key(&to) || start.distance(to) > far {
                continue;
            }
            let upper =
                position_value(sit, to, w) + attack_ceiling(sit, to, sit.ap - 1, farthest, w);
            if upper <= floor {
                continue;
            }
            let Ok(odds) = jump_odds(world, me.entity, to) else {
                continue;
            };
            let mut ending = |at: Pos, ap: i32, fall: Option<&FallOdds>| {
                let fallen = fall.map_or(0.0, |f| fall_cost(sit, f, w));
                position_value(sit, at, w) + actions_at(world, sit, at, ap, watchers, w).0 - fallen
            };
            let left = sit.ap - 1;
            let landing = odds.landing_fall.as_ref();
            let mut value = odds.landed * ending(to, left, landing)
                + odds.off_balance * ending(to, left - 1, landing);
            if odds.failed > 0.0 {
                let ap = match odds.failed_as {
                    JumpOutcome::Stayed => left,
                    _ => left - 1,
                };
                value += odds.failed * ending(odds.failed_at, ap, odds.failing_fall.as_ref());
            }
            value -= provoked(to);
            if value > floor {
                out.push((
                    value,
                    Command::Jump {
                        unit: name.clone(),
                        to,
                    },
                ));
            }
        }
    }
    out
}

/// What a fall costs the faller: its expected damage, or the unit itself
/// in a chasm (V9.4, V9.5).
fn fall_cost(sit: &Situation, fall: &FallOdds, w: &Weights) -> f64 {
    let me = sit.me();
    let damage = if fall.chasm {
        // As sure a loss as any: the cap of the risk's scale.
        4.0 * me.pool()
    } else {
        fall.expected_damage()
    };
    risk(me, damage, w).max(if fall.chasm { me.worth } else { 0.0 })
}
