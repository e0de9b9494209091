//! Maneuvers for the utility AI (V7), valued in its currency (a unit's
//! worth times the share of the fight a plan takes from it):
//!
//! - **trip**: a prone enemy gives every melee attack on it +1 advantage
//!   (and loses an action standing up): a trip is worth what that adds to
//!   the blows that follow it, ours this turn and those of our fighters
//!   beside it (setting up the kill);
//! - **grapple**: a hold takes an archer out of the fight (+2 disadvantage
//!   on every shot) and gives our blades +1 advantage on it; a grab less;
//! - **disarm**: an enemy with no second weapon fights unarmed;
//! - once grappling, keeping the grip (Sustain) while the hold is worth it;
//!   once grappled, escaping when the odds are fair.
//!
//! Shoves are left to the player until heights (V9) give them a ledge.
//! Every chance is the rules' exact preview; a maneuver that would provoke
//! its target first (V7.2) is not tried, and opening oneself against a
//! target that is not exposed (V7.3) is costed as any opening is.

use super::acts::{Act, attack_value};
use super::positions::exposed_cost;
use super::profile::Weights;
use super::situation::{Situation, Unit};
use crate::battle::{Inventory, name_of};
use crate::rules::attacks::preview::preview_attack;
use crate::rules::attacks::resolution::draft_for;
use crate::rules::check;
use crate::rules::command::{Command, Hold, ManeuverKind};
use crate::rules::modifiers::AttackMode;
use crate::rules::turns::turn::TurnState;
use crate::rules::variants::maneuvers::{
    self, Grappled, grappling, hold_on, is_exposed, preview_maneuver, provokes,
};
use bevy::prelude::*;

/// What a held archer is worth, as a share of its worth (a round's damage):
/// its shots at +2 disadvantage for as long as the grip is kept, about two
/// rounds of its fire; a held fighter (its own blows at +2 disadvantage),
/// besides the advantage our blades gain on it. Measured on `brawl.ron`
/// (`sim --games 400 --swap`): these values win 75% against greedy, a
/// third of them 68%, none 64%.
const HELD_SHOOTER: f64 = 2.0;
const HELD_FIGHTER: f64 = 0.5;
/// A grab: +1 disadvantage on its attacks on others, and it stays put.
const GRABBED: f64 = 0.4;
/// A disarmed enemy with nothing else in hand fights with its fists (1d2)
/// until it has spent a turn or more on picking its weapon up: about a
/// round of its worth. With a spare in hand, it loses less.
const DISARMED: f64 = 1.2;
const DISARMED_SPARE: f64 = 0.5;
/// Breaking free, as a share of the escapee's own worth.
const FREED: f64 = 0.3;

/// Every maneuver `me` may make from where it stands, and the grapple's
/// upkeep, valued. Empty in a level without maneuvers.
pub(super) fn maneuvers_here(world: &mut World, sit: &Situation, w: &Weights) -> Vec<Act> {
    if !maneuvers::on(world) {
        return vec![];
    }
    let me = sit.me().clone();
    let name = name_of(world, me.entity);
    let mut out = grapple_upkeep(world, sit, &name);
    let enemies: Vec<Unit> = sit.enemies().map(|(_, u)| u.clone()).collect();
    for enemy in enemies {
        if me.body().gap(enemy.body()) > 2 {
            continue;
        }
        for kind in [
            ManeuverKind::Trip,
            ManeuverKind::Grapple,
            ManeuverKind::Disarm,
        ] {
            if provokes(world, me.entity, enemy.entity, kind) {
                continue;
            }
            let command = Command::Maneuver {
                unit: name.clone(),
                target: name_of(world, enemy.entity),
                kind,
                to: None,
                fling: None,
            };
            if check(world, command.clone()).is_err() {
                continue;
            }
            let Ok(p) = preview_maneuver(world, me.entity, enemy.entity, kind) else {
                continue;
            };
            // The blows that follow at +1 advantage: ours this turn (one
            // AP goes to the maneuver) and the fighters' beside it, each
            // worth what the advantage adds to our own blow.
            let blows = ((sit.ap - 1).clamp(0, 2) + fighters_beside(sit, &enemy) as i32) as f64;
            let edge = advantage_worth(world, sit, &enemy, w) * blows;
            let gain = match kind {
                ManeuverKind::Trip => p.hit * edge,
                ManeuverKind::Grapple => {
                    // Grappling again only tightens a grab into a hold.
                    let already = hold_on(world, enemy.entity, me.entity);
                    if already == Hold::Held {
                        continue;
                    }
                    let grab = if already == Hold::Grabbed {
                        0.0
                    } else {
                        GRABBED
                    };
                    let held: f64 = p.landed_degrees().iter().skip(2).sum();
                    let hold = if enemy.ranged.is_some() && enemy.melee.is_none() {
                        HELD_SHOOTER
                    } else {
                        HELD_FIGHTER
                    };
                    held * (hold * enemy.worth + edge)
                        + (p.hit - held).max(0.0) * grab * enemy.worth
                }
                _ => {
                    let spare = world
                        .get::<Inventory>(enemy.entity)
                        .is_some_and(|i| i.weapons.len() > 1);
                    p.hit * enemy.worth * if spare { DISARMED_SPARE } else { DISARMED }
                }
            };
            let opened = if is_exposed(world, enemy.entity) {
                0.0
            } else {
                exposed_cost(sit, me.pos, w)
            };
            out.push(Act {
                value: gain - opened,
                command,
                attack: true,
                defend: false,
            });
        }
    }
    out
}

/// What +1 advantage adds to `me`'s next melee blow on `enemy` (R0.4),
/// valued as the AI values attacks; 0 without a blade that reaches.
fn advantage_worth(world: &mut World, sit: &Situation, enemy: &Unit, w: &Weights) -> f64 {
    let me = sit.me();
    let Ok(mut draft) = draft_for(world, me.entity, enemy.entity, None) else {
        return 0.0;
    };
    if draft.mode != AttackMode::Melee {
        return 0.0;
    }
    draft.earlier_attacks = sit.attacks + 1;
    let Ok(p) = preview_attack(world, draft) else {
        return 0.0;
    };
    (attack_value(enemy, &p.adjusted(1, 0), w) - attack_value(enemy, &p, w)).max(0.0)
}

/// Our fighters (besides `me`) beside `enemy`, who would strike it prone.
fn fighters_beside(sit: &Situation, enemy: &Unit) -> usize {
    let me = sit.me();
    sit.units
        .iter()
        .filter(|u| u.side == me.side && u.entity != me.entity && !u.down && u.melee.is_some())
        .filter(|u| u.body().gap(enemy.body()) <= 1)
        .count()
        .min(2)
}

/// Keeping a grip not yet kept this turn, and breaking free of one.
fn grapple_upkeep(world: &mut World, sit: &Situation, name: &str) -> Vec<Act> {
    let me = sit.me();
    let round = world.resource::<TurnState>().round;
    let mut out = vec![];
    if let Some((target, g)) = grappling(world, me.entity)
        && g.kept != round
        && let Some(t) = sit.units.iter().find(|u| u.entity == target)
    {
        let hold = if g.hold == Hold::Held {
            HELD_FIGHTER
        } else {
            GRABBED
        };
        out.push(Act {
            value: t.worth * hold,
            command: Command::Sustain {
                unit: name.to_string(),
            },
            attack: false,
            defend: false,
        });
    }
    if let Some(g) = world.get::<Grappled>(me.entity).copied() {
        let escape = Command::Escape {
            unit: name.to_string(),
        };
        let draft = maneuvers::maneuver_draft(world, me.entity, g.by, ManeuverKind::Escape);
        let chance = draft
            .ok()
            .and_then(|d| preview_attack(world, d).ok())
            .map_or(0.0, |p| p.hit);
        if check(world, escape.clone()).is_ok() {
            out.push(Act {
                value: me.worth * FREED * chance,
                command: escape,
                attack: false,
                defend: false,
            });
        }
    }
    out
}
