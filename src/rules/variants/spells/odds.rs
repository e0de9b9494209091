//! The exact odds of a cast (V11.3, V11.4), for every unit it reaches,
//! allies too: the chance the spell takes hold of it (a spell attack's hit,
//! a failed save, a Surecast's certainty), the damage it deals then before
//! armor, and through the armor standing, the harm and the chance to drop
//! it. From the same draft and the same numbers as the resolution, every
//! die enumerated: what the screen and the AI read is what the dice do.

use super::casting::{Casting, has_focus};
use crate::battle::{ArmorReduction, Health};
use crate::format::{SpellDamage, SpellKind};
use crate::rules::attacks::damage::is_down;
use crate::rules::attacks::preview::preview_attack;
use crate::rules::contest::kept_chance;
use bevy::prelude::*;

/// What a cast would do to one unit.
#[derive(Clone, Debug, PartialEq)]
pub struct SpellOdds {
    /// The unit.
    pub unit: Entity,
    /// The chance the spell takes hold: a hit, a failed save, or 1.
    pub affects: f64,
    /// `damage[n]`: the chance of `n` damage before armor once it takes
    /// hold (empty: it deals none).
    pub damage: Vec<f64>,
    /// The AR standing against it (0 for an absolute spell).
    pub ar: i32,
    /// Its HP now.
    pub hp: i32,
}

impl SpellOdds {
    /// The expected damage through its armor, all chances counted.
    pub fn harm(&self) -> f64 {
        self.affects
            * self
                .damage
                .iter()
                .enumerate()
                .map(|(n, p)| p * (n as i32 - self.ar).max(0) as f64)
                .sum::<f64>()
    }

    /// The chance the cast drops it to 0 HP (R10.1).
    pub fn drop(&self) -> f64 {
        let needed = (self.hp + self.ar).max(1) as usize;
        self.affects * self.damage.iter().skip(needed).sum::<f64>()
    }
}

/// `p[s]`: the chance that `count` dice of `sides` and `bonus` sum to `s`
/// (at least 1, as R7.7 rolls damage).
fn sums(count: u32, sides: u32, bonus: i32) -> Vec<f64> {
    let dist = crate::rules::attacks::dice_odds::dice_sum(count, sides);
    let mut out = vec![0.0];
    for (s, p) in dist.iter().enumerate() {
        let n = (s as i32 + bonus).max(1) as usize;
        if out.len() <= n {
            out.resize(n + 1, 0.0);
        }
        out[n] += p;
    }
    out
}

/// The damage of `c` before armor, by its chance (V11.4).
fn damage_of(c: &Casting) -> Vec<f64> {
    match &c.spell.damage {
        None => vec![],
        Some(SpellDamage::Level) => {
            let mut out = vec![0.0; c.level.max(0) as usize + 1];
            out[c.level.max(0) as usize] = 1.0;
            out
        }
        Some(SpellDamage::Dice(d)) => sums(d.count * c.level.max(1) as u32, d.sides, d.bonus),
    }
}

/// The chance a save spell's DC is `dc` (V11.3): the caster's die (two,
/// the lower kept, without a focus; at least half its sides for DC+; a
/// flat half for DC), plus its attribute: a d20 and the attribute, or
/// under die ranks the attribute's die alone (V11.9).
fn dc_chances(c: &Casting, (sides, attr): (u32, i32), focused: bool) -> Vec<(i32, f64)> {
    let half = sides / 2;
    if c.spell.kind == SpellKind::Determined {
        return vec![(half as i32 + attr, 1.0)];
    }
    let advantage = if focused { 0 } else { -1 };
    (1..=sides)
        .map(|k| {
            let counted = if c.spell.kind == SpellKind::DeterminedPlus {
                k.max(half)
            } else {
                k
            };
            (counted as i32 + attr, kept_chance(k, sides, advantage))
        })
        .collect()
}

/// The odds of the Cast `c` for every unit it reaches, in the level's
/// order. Reads the battle, changes nothing.
pub fn cast_odds(world: &mut World, c: &Casting) -> Vec<SpellOdds> {
    let targets = super::effects::targets(world, c);
    let focused = has_focus(world, c.caster);
    let die = super::casting::spell_die(world, c.caster, c.spell.attribute);
    let damage = damage_of(c);
    let dcs = dc_chances(c, die, focused);
    let save = c.spell.save.unwrap_or_default();
    let mut out = vec![];
    for unit in targets {
        let affects = match c.spell.kind {
            SpellKind::Projectile => super::effects::spell_draft(world, c)
                .and_then(|d| preview_attack(world, d).ok())
                .map_or(0.0, |p| p.hit),
            SpellKind::Surecast => 1.0,
            SpellKind::Defense => 0.0,
            _ => {
                let (sides, bonus) = super::casting::spell_die(world, unit, save);
                // Against a caster without a focus, two dice, the higher.
                let advantage = if focused { 0 } else { 1 };
                dcs.iter()
                    .map(|(dc, p)| {
                        let fail: f64 = (1..=sides)
                            .filter(|k| (*k as i32 + bonus) < *dc)
                            .map(|k| kept_chance(k, sides, advantage))
                            .sum();
                        p * fail
                    })
                    .sum()
            }
        };
        let down = is_down(world, unit);
        let ar = if c.spell.absolute {
            0
        } else {
            world.get::<ArmorReduction>(unit).map_or(0, |a| a.0)
        };
        out.push(SpellOdds {
            unit,
            affects,
            damage: if down { vec![] } else { damage.clone() },
            ar,
            hp: world.get::<Health>(unit).map_or(0, |h| h.hp),
        });
    }
    out
}
