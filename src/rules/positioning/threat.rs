//! R4.4 threatening: which tiles a unit threatens, for flanking (R4.5) and
//! reactive attacks (R8). A tile it has no line of effect to (R6.1) it
//! cannot strike, so it does not threaten it *(decision, DECISIONS.md)*:
//! a halberd does not reach past a standing stone. With heights (V9.6), a
//! tile more metres above or below than the unit's reach is out of it.

use crate::battle::{Battlefield, Facing, GridPos, Inventory, MeleeReach, Prone, Side};
use crate::battle::{out_of_action, reach_with, side_of_body};
use crate::format::Weapon;
use crate::grid::{Body, Dir, Pos};
use crate::load::ValidLevel;
use crate::rules::positioning::facing::in_front_of;
use crate::rules::positioning::heights::{height_gap, heights_in_play};
use crate::rules::sight::line_of_effect::sight;
use bevy::prelude::*;
use std::sync::Arc;

/// What a unit threatens: the tiles in its front arc within its reach.
#[derive(Clone, Debug, PartialEq)]
pub struct Threat {
    /// The threatening unit.
    pub unit: Entity,
    /// Its side.
    pub side: usize,
    /// Its tile (the anchor of its footprint, V10.6).
    pub pos: Pos,
    /// The side of its footprint (V10.6).
    pub n: i32,
    /// Its facing.
    pub facing: Dir,
    /// Its longest melee reach.
    pub reach: i32,
    /// The level it stands on, whose walls bar its blows (R6.1); `None`
    /// only outside a battle.
    pub level: Option<Arc<ValidLevel>>,
    /// Whether the level's heights bound the reach (V9.6): off on flat
    /// ground or with jumping off.
    pub heights: bool,
}

impl Threat {
    /// Its body (V10.6).
    pub fn body(&self) -> Body {
        Body::new(self.pos, self.n)
    }

    /// True when the unit threatens `tile` (R4.4): within reach (R7.5) of
    /// one of its tiles, in its front arc (R4.1), both for a body of any
    /// size (V10.6), and with a line of effect to it from one of its tiles
    /// (R6.1, as an attack's line is drawn, V10.6).
    pub fn covers(&self, tile: Pos) -> bool {
        let body = self.body();
        !body.contains(tile)
            && body.distance_to(tile) <= self.reach
            && in_front_of(body, self.facing, tile)
            && self.level.as_ref().is_none_or(|level| {
                (!self.heights || height_gap(&level.map, body, Body::new(tile, 1)) <= self.reach)
                    && body.tiles().any(|from| sight(&level.map, from, tile).clear)
            })
    }

    /// True when it threatens any tile of `body` (V10.6).
    pub fn covers_body(&self, body: Body) -> bool {
        if body.n == 1 {
            return self.covers(body.at);
        }
        body.tiles().any(|t| self.covers(t))
    }
}

/// The melee weapon `unit` strikes with at `distance` tiles: the first in
/// hand order whose reach (with the size's, V10.4) suffices.
pub fn melee_weapon_for(world: &World, unit: Entity, distance: i32) -> Option<Weapon> {
    let catalog = &world.resource::<Battlefield>().0.catalog;
    world
        .get::<Inventory>(unit)?
        .weapons
        .iter()
        .filter_map(|w| catalog.weapon(w))
        .find(|w| !w.is_ranged() && reach_with(world, unit, w.reach) >= distance)
        .cloned()
}

/// `unit`'s threat, or `None` when it threatens nothing (R4.4): out of
/// action, prone, or without a melee weapon.
pub fn threat_of(world: &World, unit: Entity) -> Option<Threat> {
    if out_of_action(world, unit) || world.entity(unit).contains::<Prone>() {
        return None;
    }
    Some(Threat {
        unit,
        side: world.get::<Side>(unit)?.0,
        pos: world.get::<GridPos>(unit)?.0,
        n: side_of_body(world, unit),
        facing: world.get::<Facing>(unit)?.0,
        reach: world.get::<MeleeReach>(unit)?.0?,
        level: world.get_resource::<Battlefield>().map(|b| b.0.clone()),
        heights: heights_in_play(world).is_some(),
    })
}

/// Every unit's threat, in unit id order.
pub fn all_threats(world: &World) -> Vec<Threat> {
    crate::battle::units(world)
        .into_iter()
        .filter_map(|e| threat_of(world, e))
        .collect()
}

/// The tiles of `width`×`height` threatened by any unit not of side `side`:
/// where a member of `side` would provoke by leaving (R8.2).
pub fn threat_map(threats: &[Threat], side: usize, width: i32, height: i32) -> Vec<bool> {
    let mut map = vec![false; (width * height).max(0) as usize];
    for t in threats.iter().filter(|t| t.side != side) {
        let far = t.n - 1 + t.reach;
        for y in (t.pos.y - t.reach).max(0)..=(t.pos.y + far).min(height - 1) {
            for x in (t.pos.x - t.reach).max(0)..=(t.pos.x + far).min(width - 1) {
                if t.covers(Pos::new(x, y)) {
                    map[(y * width + x) as usize] = true;
                }
            }
        }
    }
    map
}
