//! V8.4 Hide (1 AP; 002:406) and V8.5 Search (1 AP; 004:39).
//!
//! - **Hide:** allowed only when every enemy that sees the unit's tile
//!   gives it concealment 0 or better (half cover); a sneak check is made
//!   against each of them in initiative order, with the tile's concealment
//!   and light as advantage. All pass: it is hidden from every enemy side
//!   (who does not see the tile loses track of it); the first failure
//!   leaves it seen.
//! - **Search:** d20 + WIS + Perception against 10 + DEX + Stealth for each
//!   enemy hidden from the searcher's side on a tile it has a line of
//!   effect to; *decision:* the searcher may turn first (R4.2 free), so its
//!   facing does not limit it. Each success reveals that enemy.

use super::hidden::{Hidden, hidden_from, reveal};
use super::sight::sees;
use super::sneak::{concealment, light_at, roll_check, sneak_bonus, watch_dc};
use crate::battle::{Battlefield, GridPos, Side, name_of, out_of_action, units};
use crate::rules::command::{CommandKind, Refusal};
use crate::rules::events::{BattleEvent, Hiding, Reveal, emit, id_of};
use crate::rules::pipeline::{Pending, handle};
use crate::rules::rule::Rule;
use crate::rules::sight::line_of_effect::sight;
use crate::rules::turns::turn::TurnState;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    handle(app, CommandKind::Hide, validate_hide, execute_hide);
    handle(app, CommandKind::Search, validate_search, execute_search);
}

/// The actor of a pending `kind` command.
fn actor_of(world: &World, kind: CommandKind) -> Option<Entity> {
    let pending = world.resource::<Pending>();
    (pending.command.as_ref()?.kind() == kind)
        .then_some(pending.actor)
        .flatten()
}

/// The enemies of `unit` in action that see its tile, in initiative order,
/// each with the tile's concealment from it.
fn onlookers(world: &World, unit: Entity) -> Vec<(Entity, i32)> {
    let (Some(own), Some(at)) = (world.get::<Side>(unit), world.get::<GridPos>(unit)) else {
        return vec![];
    };
    let (own, at) = (own.0, at.0);
    let map = &world.resource::<Battlefield>().0.map;
    world
        .resource::<TurnState>()
        .initiative
        .iter()
        .map(|(e, _)| *e)
        .filter(|&w| world.get::<Side>(w).is_some_and(|s| s.0 != own) && sees(world, w, at))
        .filter_map(|w| Some((w, concealment(map, world.get::<GridPos>(w)?.0, at))))
        .collect()
}

fn validate_hide(world: &mut World) {
    let Some(unit) = actor_of(world, CommandKind::Hide) else {
        return;
    };
    let refusal = if !super::switch::on(world) {
        Some(Refusal::new(
            Rule::V8,
            "stealth is off in this level".to_string(),
        ))
    } else {
        onlookers(world, unit)
            .into_iter()
            .find(|(_, c)| *c < 0)
            .map(|(w, _)| {
                Refusal::new(
                    Rule::V8_4,
                    format!(
                        "{} sees {} in the open: no hiding in front of an enemy without half \
                         cover or better",
                        name_of(world, w),
                        name_of(world, unit)
                    ),
                )
            })
    };
    if let Some(r) = refusal {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn execute_hide(world: &mut World) {
    let Some(unit) = actor_of(world, CommandKind::Hide) else {
        return;
    };
    let Some(at) = world.get::<GridPos>(unit).map(|p| p.0) else {
        return;
    };
    let light = light_at(&world.resource::<Battlefield>().0, at);
    for (watcher, conceal) in onlookers(world, unit) {
        let (bonus, dc) = (sneak_bonus(world, unit), watch_dc(world, watcher));
        let roll = roll_check(world, unit, watcher, conceal + light, bonus, dc);
        let (spotted, by) = (!roll.success(), roll.watcher);
        emit(world, BattleEvent::Sneaked(roll));
        if spotted {
            reveal(world, unit, Reveal::Spotted(by));
            return;
        }
    }
    let own = world.get::<Side>(unit).map_or(0, |s| s.0);
    let sides = world.resource::<Battlefield>().0.sides().len().min(32);
    let bits = (0..sides)
        .filter(|s| *s != own)
        .fold(0u32, |b, s| b | 1 << s);
    let was = world.get::<Hidden>(unit).map_or(0, |h| h.0);
    world.entity_mut(unit).insert(Hidden(bits));
    let id = id_of(world, unit);
    // Every side that saw it until now saw it slip away, here (#24: its
    // ghost).
    if let Some(at) = world.get::<GridPos>(unit).map(|p| p.0) {
        let mut seen = world.get_resource_or_init::<crate::battle::LastSeen>();
        for side in (0..sides).filter(|s| bits & !was & 1 << s != 0) {
            seen.0.insert((side, id), at);
        }
    }
    let hiding = Hiding {
        unit: id,
        from: bits,
        at_start: false,
    };
    emit(world, BattleEvent::Hid(hiding));
}

fn validate_search(world: &mut World) {
    if actor_of(world, CommandKind::Search).is_some() && !super::switch::on(world) {
        let r = Refusal::new(Rule::V8, "stealth is off in this level".to_string());
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn execute_search(world: &mut World) {
    let Some(searcher) = actor_of(world, CommandKind::Search) else {
        return;
    };
    let (Some(side), Some(from)) = (
        world.get::<Side>(searcher).map(|s| s.0),
        world.get::<GridPos>(searcher).map(|p| p.0),
    ) else {
        return;
    };
    let id = crate::rules::events::id_of(world, searcher);
    emit(world, BattleEvent::Searching(id));
    let map = world.resource::<Battlefield>().0.clone();
    let found: Vec<Entity> = units(world)
        .into_iter()
        .filter(|&e| hidden_from(world, e, side) && !out_of_action(world, e))
        .filter(|&e| {
            world
                .get::<GridPos>(e)
                .is_some_and(|p| sight(&map.map, from, p.0).clear)
        })
        .collect();
    for hidden in found {
        let bonus = watch_dc(world, searcher) - 10;
        let dc = 10 + sneak_bonus(world, hidden);
        let roll = roll_check(world, hidden, searcher, 0, bonus, dc);
        let (success, by) = (roll.success(), roll.watcher);
        emit(world, BattleEvent::Searched(roll));
        if success {
            reveal(world, hidden, Reveal::Found(by));
        }
    }
}
