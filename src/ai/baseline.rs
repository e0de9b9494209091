//! The baselines the utility AI is measured against (`skirmish sim`):
//! `random`, a uniformly random legal command, and `greedy`, the closest
//! enemy and the best immediate expected damage with no look at risk.

use super::profile::Weights;
use super::situation::Situation;
use crate::battle::Inventory;
use crate::battle::name_of;
use crate::dice::Dice;
use crate::grid::Pos;
use crate::rules::attacks::preview::preview_attack;
use crate::rules::check;
use crate::rules::command::Command;
use crate::rules::legal::legal_commands;
use crate::rules::modifiers::{AttackDraft, AttackMode};
use crate::rules::motion::movement::move_reach;
use bevy::prelude::*;

/// A uniformly random legal command, drawn with the dice's AI stream.
pub fn random(world: &mut World) -> Command {
    let legal = legal_commands(world);
    if legal.is_empty() {
        return Command::EndTurn;
    }
    let i = world.resource_mut::<Dice>().pick(legal.len() as u32) as usize - 1;
    legal[i].clone()
}

/// The greedy baseline: stand up if prone; attack for the best expected
/// damage from where it stands; else move where an attack is best, or
/// toward the closest enemy; else end the turn.
pub fn greedy(world: &mut World, me: Entity) -> Command {
    let name = name_of(world, me);
    let Some(sit) = Situation::read(world, me, false, &Weights::default()) else {
        return Command::EndTurn;
    };
    if sit.ap <= 0 {
        return Command::EndTurn;
    }
    if sit.me().prone {
        let stand = Command::StandUp { unit: name.clone() };
        if check(world, stand.clone()).is_ok() {
            return stand;
        }
    }
    let here = sit.me().pos;
    if let Some((_, cmd)) = best_attack(world, &sit, here, &name)
        && check(world, cmd.clone()).is_ok()
    {
        return cmd;
    }
    // Where could it attack after one move? The best such tile, else the
    // tile closest to the closest enemy: where a Move may end now (under
    // Energy, as far as it pays for, V5.5).
    let mut tiles: Vec<Pos> = move_reach(world, me).into_keys().collect();
    tiles.sort();
    let nearest = |p: Pos| {
        sit.enemies()
            .map(|(_, e)| sit.me().gap_from(p, e))
            .min()
            .unwrap_or(0)
    };
    let mut best: Option<(f64, Pos)> = None;
    if sit.ap >= 2 {
        for &t in tiles
            .iter()
            .filter(|t| nearest(**t) <= 1 || sit.me().ranged.is_some())
        {
            if let Some((v, _)) = best_attack(world, &sit, t, &name)
                && best.is_none_or(|b| v > b.0)
            {
                best = Some((v, t));
            }
        }
    }
    let to = best.map(|b| b.1).or_else(|| {
        tiles
            .iter()
            .copied()
            .filter(|t| nearest(*t) < nearest(here))
            .min_by_key(|t| (nearest(*t), *t))
    });
    // A Move the rules refuse (held fast by a spell, V11.4) ends the turn.
    let step = to.map(|to| Command::Move {
        unit: name,
        to,
        path: None,
        sprint: false,
    });
    match step {
        Some(cmd) if check(world, cmd.clone()).is_ok() => cmd,
        _ => Command::EndTurn,
    }
}

/// The attack with the best expected damage from `at` with the unit's
/// weapons (no techniques), and its expected damage.
fn best_attack(world: &mut World, sit: &Situation, at: Pos, name: &str) -> Option<(f64, Command)> {
    let me = sit.me().entity;
    let weapons = world
        .get::<Inventory>(me)
        .map(|i| i.weapons.clone())
        .unwrap_or_default();
    let mut best: Option<(f64, Command)> = None;
    for (_, enemy) in sit.enemies() {
        for (slot, w) in weapons.iter().enumerate() {
            let Some(weapon) = sit.level.catalog.weapon(w) else {
                continue;
            };
            let mode = if weapon.is_ranged() {
                AttackMode::Ranged
            } else {
                AttackMode::Melee
            };
            let reach = crate::battle::reach_with(world, me, weapon.reach);
            if mode == AttackMode::Melee && sit.me().gap_from(at, enemy) > reach {
                continue;
            }
            let mut draft = AttackDraft::new(me, enemy.entity, weapon.clone(), mode, at, enemy.pos);
            draft.earlier_attacks = sit.attacks;
            let Ok(p) = preview_attack(world, draft) else {
                continue;
            };
            // Without HP damage (V3 as 001), the injury's degrees stand
            // in for the damage.
            let harm = if p.injure_only {
                p.landed_degrees()
                    .iter()
                    .enumerate()
                    .map(|(d, q)| d as f64 * q)
                    .sum()
            } else {
                p.expected_damage
            };
            if harm > best.as_ref().map_or(0.0, |b| b.0) {
                let target = name_of(world, enemy.entity);
                best = Some((
                    harm,
                    Command::Attack {
                        unit: name.to_string(),
                        target,
                        weapon: (slot > 0).then(|| w.clone()),
                        power: 0,
                        lunge: false,
                        part: None,
                    },
                ));
            }
        }
    }
    best
}
