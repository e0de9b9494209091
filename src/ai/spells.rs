//! The AI's casts (V11): every spell it knows, at every level its MP pay
//! for, at every unit (and, for an area, every unit's tile), valued from
//! the rules' exact odds ([`cast_odds`]) in the utility AI's currency:
//! harm and drops to enemies for it, to allies against it, healing for it;
//! each MP spent costs a share of the caster's own worth, since MP never
//! come back (V11.2) — so it upcasts only when the higher level pays.

use super::acts::Act;
use super::profile::Weights;
use super::situation::Situation;
use crate::battle::{Health, Mp, Stats, name_of};
use crate::format::{SpellEffect, SpellKind, mp_cost};
use crate::rules::check;
use crate::rules::command::{Command, ThrowTarget};
use crate::rules::variants::spells::{cast::casting, odds::cast_odds, on};
use bevy::prelude::*;

/// What 1 MP spent is worth, as a share of the caster's worth *(AI
/// decision)*: a level-1 bolt pays for itself, a level-5 one (8 MP) only
/// where it drops a unit.
const MP_WORTH: f64 = 0.04;

/// What holding an enemy fast is worth, as a share of its worth *(AI
/// decision)*: it cannot close in nor get away while the spell holds.
const GRIP_WORTH: f64 = 0.5;

/// What knocking an enemy prone is worth, as a share of its worth *(AI
/// decision)*: an AP to stand, and attacks at it with advantage.
const PRONE_WORTH: f64 = 0.25;

/// Every cast of `me` from where it stands, valued; none without spells.
pub(super) fn casts(world: &mut World, sit: &Situation, w: &Weights) -> Vec<Act> {
    let me = sit.me().clone();
    if !on(world) {
        return vec![];
    }
    let Some(t) = world.get::<Stats>(me.entity).map(|s| s.template.clone()) else {
        return vec![];
    };
    let mp = world.get::<Mp>(me.entity).map_or(0, |m| m.0);
    let name = name_of(world, me.entity);
    let catalog = &sit.level.catalog;
    let mut out = vec![];
    for spell in t.spells.iter().filter_map(|s| catalog.spell(s)) {
        if spell.kind == SpellKind::Defense {
            continue;
        }
        let heals = matches!(spell.effect, SpellEffect::Heal(_));
        for level in spell.level..=spell.top() {
            if mp_cost(level) > mp {
                break;
            }
            for u in &sit.units {
                // Heal allies; strike enemies (an area may catch either).
                if u.down && !heals || (u.side == me.side) != heals {
                    continue;
                }
                let at = if spell.radius > 0 {
                    ThrowTarget::Tile(u.pos)
                } else {
                    ThrowTarget::Unit(name_of(world, u.entity))
                };
                let Ok(c) = casting(world, me.entity, &spell.name, Some(level), &at) else {
                    continue;
                };
                let command = Command::Cast {
                    unit: name.clone(),
                    spell: spell.name.clone(),
                    level: Some(level),
                    at,
                };
                if check(world, command.clone()).is_err() {
                    continue;
                }
                let Some(value) = cast_value(world, sit, &c, heals, w) else {
                    continue;
                };
                let value = value - MP_WORTH * me.worth * f64::from(mp_cost(level));
                out.push(Act {
                    value,
                    command,
                    attack: spell.kind == SpellKind::Projectile,
                    defend: false,
                });
            }
        }
    }
    out
}

/// A cast's worth: for each unit it reaches, its share of staying power
/// taken and its chance to drop, times its worth (for an enemy, against
/// an ally); healing an ally, the share of its HP given back. `None` for a
/// harmful spell that catches as many allies in action as enemies, or
/// more *(AI decision)*: an area goes where it catches more enemies.
fn cast_value(
    world: &mut World,
    sit: &Situation,
    c: &crate::rules::variants::spells::casting::Casting,
    heals: bool,
    w: &Weights,
) -> Option<f64> {
    let mine = sit.me().side;
    let odds = cast_odds(world, c);
    if !heals {
        let caught = |ours: bool| {
            odds.iter()
                .filter_map(|o| sit.units.iter().find(|u| u.entity == o.unit))
                .filter(|u| !u.down && (u.side == mine) == ours)
                .count()
        };
        let allies = caught(true);
        if allies > 0 && allies >= caught(false) {
            return None;
        }
    }
    let mut value = 0.0;
    for o in odds {
        let Some(u) = sit.units.iter().find(|u| u.entity == o.unit) else {
            continue;
        };
        if heals {
            let max = world.get::<Health>(o.unit).map_or(1, |h| h.max.max(1));
            let missing = f64::from((max - u.hp).max(0));
            let mean = match &c.spell.effect {
                SpellEffect::Heal(d) => {
                    f64::from(d.count) * f64::from(c.level) * f64::from(d.sides + 1) / 2.0
                        + f64::from(d.bonus)
                }
                _ => 0.0,
            };
            let woken = if u.down { w.drop } else { 0.0 };
            let given = o.affects * (mean.min(missing) / f64::from(max) * w.damage + woken);
            value += if u.side == mine { given } else { -given } * u.worth;
            continue;
        }
        let hp = f64::from(u.hp.max(1));
        // Held fast (V11.4), knocked down (R4.8): a turn's moves or its
        // footing lost, worth a share of the unit *(AI decision)*.
        let hampered = match c.spell.effect {
            SpellEffect::Grabbed => GRIP_WORTH,
            SpellEffect::Prone => PRONE_WORTH,
            _ => 0.0,
        };
        let harm = o.harm().min(hp) / hp * w.damage + o.drop() * w.drop + o.affects * hampered;
        value += if u.side == mine { -harm } else { harm } * u.worth;
    }
    Some(value)
}
