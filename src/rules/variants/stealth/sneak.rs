//! V8.3 the sneak check (004:172–181): a hidden unit that makes a Move, a
//! Step or a Charge rolls, before it leaves, against each enemy in
//! initiative order that sees a tile of its path (the start counts) and
//! that it is hidden from: d20 + DEX + Stealth against 10 + WIS +
//! Perception, with advantage the least, over the tiles that enemy sees,
//! of the tile's concealment and light. The first failure reveals it to
//! every enemy side, and no more checks are made. The checks come before
//! any reactive attack's dice.
//!
//! Concealment of a tile from a watcher (V8.3, decision): +2 behind total
//! cover on the line, +1 in concealing terrain (brush), 0 behind partial
//! cover, −1 beside cover or a wall, −2 in the open. Light: bright 0, dim
//! +1, dark +2 (a symbol's own `light`, else the level's).

use super::hidden::{Hidden, reveal};
use super::sight::sees;
use crate::battle::{Battlefield, GridPos, Side, Stats, out_of_action};
use crate::dice::Dice;
use crate::format::Skill;
use crate::grid::{Dir, Pos};
use crate::load::ValidLevel;
use crate::rules::command::Command;
use crate::rules::events::{BattleEvent, Reveal, StealthRoll, emit, id_of};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Pending};
use crate::rules::sight::line_of_effect::sight;
use crate::rules::turns::turn::TurnState;
use crate::terrain::{Cover, TerrainMap};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(CommandSchedule, check_sneaking.in_set(CommandSystems::Pay));
}

/// How well `tile` is concealed from a watcher at `from` (V8.3).
pub fn concealment(map: &TerrainMap, from: Pos, tile: Pos) -> i32 {
    let line = sight(map, from, tile);
    if line.cover == Cover::Total {
        2
    } else if map.get(tile).is_some_and(|t| t.conceal) {
        1
    } else if line.cover == Cover::Partial {
        0
    } else if Dir::ALL.iter().any(|d| {
        let n = tile.step(*d);
        map.cover(n) != Cover::None || map.flags(n) & TerrainMap::BLOCKS_LINE != 0
    }) {
        -1
    } else {
        -2
    }
}

/// The light's advantage on `tile` (V8.3).
pub fn light_at(level: &ValidLevel, tile: Pos) -> i32 {
    level
        .map
        .get(tile)
        .and_then(|t| t.light)
        .unwrap_or(level.rules().light)
        .advantage()
}

/// The sneak's advantage against `watcher` over `tiles` (V8.3): the least
/// concealment and light of the tiles it sees; `None` when it sees none.
pub fn sneak_advantage(world: &World, watcher: Entity, tiles: &[Pos]) -> Option<i32> {
    let level = &world.resource::<Battlefield>().0;
    let from = world.get::<GridPos>(watcher)?.0;
    tiles
        .iter()
        .filter(|t| sees(world, watcher, **t))
        .map(|t| concealment(&level.map, from, *t) + light_at(level, *t))
        .min()
}

/// `skill` plus `attribute` of `unit`.
fn score(
    world: &World,
    unit: Entity,
    attribute: fn(&crate::format::UnitTemplate) -> i32,
    skill: Skill,
) -> i32 {
    world.get::<Stats>(unit).map_or(0, |s| {
        attribute(&s.template) + s.template.skills.get(&skill).copied().unwrap_or(0)
    })
}

/// A sneaker's bonus: DEX + Stealth (V8.3).
pub fn sneak_bonus(world: &World, unit: Entity) -> i32 {
    score(world, unit, |t| t.dex, Skill::Stealth)
}

/// A watcher's DC: 10 + WIS + Perception (V8.3).
pub fn watch_dc(world: &World, watcher: Entity) -> i32 {
    10 + score(world, watcher, |t| t.wis, Skill::Perception)
}

/// Rolls one check: 1 + |advantage| d20s, the best kept with advantage,
/// the worst with disadvantage (R0.4).
pub fn roll_check(
    world: &mut World,
    unit: Entity,
    watcher: Entity,
    advantage: i32,
    bonus: i32,
    dc: i32,
) -> StealthRoll {
    let dice: Vec<u32> = (0..1 + advantage.unsigned_abs())
        .map(|_| world.resource_mut::<Dice>().roll(20))
        .collect();
    let kept = if advantage >= 0 {
        dice.iter().copied().max()
    } else {
        dice.iter().copied().min()
    }
    .unwrap_or(1);
    StealthRoll {
        unit: id_of(world, unit),
        watcher: id_of(world, watcher),
        dice,
        kept,
        advantage,
        bonus,
        total: kept as i32 + bonus,
        dc,
    }
}

/// The chance a check succeeds: d20 + `bonus` against `dc`, with
/// 1 + |advantage| d20s, the best kept with advantage, the worst without
/// (R0.4), as [`roll_check`] rolls them; the d20's faces counted.
pub fn check_chance(advantage: i32, bonus: i32, dc: i32) -> f64 {
    let one = (1..=20).filter(|f| f + bonus >= dc).count() as f64 / 20.0;
    let n = 1 + advantage.unsigned_abs() as i32;
    if advantage >= 0 {
        1.0 - (1.0 - one).powi(n)
    } else {
        one.powi(n)
    }
}

/// For a hidden `unit` moving along `path` (its start not included), the
/// chance it is still unseen when a Move ends on each of the path's tiles
/// (V8.3): the product, over the enemies it is hidden from, of each
/// one's check over the tiles it sees from the start to there — the checks
/// [`check_sneaking`] rolls. Only enemies `unit`'s side sees are counted
/// (a side reckons with what it knows, V8.1); empty when `unit` is hidden
/// from no one.
pub fn unseen_along(world: &World, unit: Entity, path: &[Pos]) -> Vec<f64> {
    let (Some(side), Some(start)) = (
        world.get::<Side>(unit).map(|s| s.0),
        world.get::<GridPos>(unit).map(|g| g.0),
    ) else {
        return vec![];
    };
    if !super::switch::on(world) || world.get::<Hidden>(unit).is_none_or(|h| h.0 == 0) {
        return vec![];
    }
    let known: Vec<Entity> = watchers(world, unit)
        .into_iter()
        .filter(|&w| !crate::battle::hidden_from(world, w, side))
        .collect();
    let bonus = sneak_bonus(world, unit);
    let mut tiles = vec![start];
    path.iter()
        .map(|p| {
            tiles.push(*p);
            known
                .iter()
                .filter_map(|&w| {
                    let advantage = sneak_advantage(world, w, &tiles)?;
                    Some(check_chance(advantage, bonus, watch_dc(world, w)))
                })
                .product()
        })
        .collect()
}

/// The enemies `unit` is hidden from, in action, in initiative order.
pub fn watchers(world: &World, unit: Entity) -> Vec<Entity> {
    let Some(hidden) = world.get::<Hidden>(unit).copied() else {
        return vec![];
    };
    world
        .resource::<TurnState>()
        .initiative
        .iter()
        .map(|(e, _)| *e)
        .filter(|&w| {
            world.get::<Side>(w).is_some_and(|s| hidden.from(s.0)) && !out_of_action(world, w)
        })
        .collect()
}

/// The tiles a hidden mover's command crosses, its start first.
fn crossed(world: &World, unit: Entity) -> Option<Vec<Pos>> {
    let pending = world.resource::<Pending>();
    let start = world.get::<GridPos>(unit)?.0;
    let path = match pending.command.as_ref()? {
        Command::Move { .. } | Command::Charge { .. } => pending.plan.as_ref()?.path.clone(),
        Command::Step { to, .. } => vec![*to],
        _ => return None,
    };
    Some(std::iter::once(start).chain(path).collect())
}

/// V8.3: the checks of a hidden unit that moves, before it leaves.
fn check_sneaking(world: &mut World) {
    if !super::switch::on(world) || world.resource::<Pending>().refusal.is_some() {
        return;
    }
    let Some(unit) = world.resource::<Pending>().actor else {
        return;
    };
    let Some(tiles) = crossed(world, unit) else {
        return;
    };
    for watcher in watchers(world, unit) {
        let Some(advantage) = sneak_advantage(world, watcher, &tiles) else {
            continue;
        };
        let (bonus, dc) = (sneak_bonus(world, unit), watch_dc(world, watcher));
        let roll = roll_check(world, unit, watcher, advantage, bonus, dc);
        let spotted = !roll.success();
        let by = roll.watcher;
        emit(world, BattleEvent::Sneaked(roll));
        if spotted {
            reveal(world, unit, Reveal::Spotted(by));
            break;
        }
    }
}
