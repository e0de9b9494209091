//! The utility AI: every plan of "move to a reachable tile (or stay), then
//! act with the action points left" is scored with the rules' exact preview
//! and the profile's weights, and the first command of the best plan is
//! sent. After each command the battle is read again and the plans scored
//! anew (Wesnoth's candidate-action loop): a miss or a kill changes the
//! best next step.
//!
//! Values are in one currency: a unit's *worth* (the damage it deals in a
//! round) times the share of its staying power (HP and AR) a plan takes
//! from it. Damage to an enemy counts for its worth, damage to us against
//! ours, so focus on wounded and dangerous enemies, caution for our own
//! wounded, and trades between the two come out of the same sums.

use super::profile::Weights;
use super::situation::{Situation, Unit};
use crate::battle::name_of;
use crate::battle::{ActionPoints, Inventory, ShieldReady, Stamina, Stats};
use crate::format::{BodyPart, Catalog};
use crate::grid::Pos;
use crate::rules::attacks::preview::{AttackPreview, preview_attack};
use crate::rules::attacks::techniques::POWER_PER_STAMINA;
use crate::rules::command::{Command, ThrowTarget};
use crate::rules::dying::potion_of;
use crate::rules::dying::stabilize_bonus;
use crate::rules::events::Trigger;
use crate::rules::modifiers::{AttackDraft, AttackMode};
use crate::rules::motion::charge::charge_path;
use crate::rules::motion::movement::{reachable, view_for};
use crate::rules::positioning::threat::{Threat, melee_weapon_for};
use crate::rules::reactions::reactive_attack::{steps_provoking, watchers_with_reactions};
use crate::rules::sight::range::{THROWN_INCREMENTS, max_range, thrown_increment};
use crate::rules::throws::throw::missile;
use crate::rules::{TurnState, check};
use bevy::prelude::*;

/// One action a plan may take at its end tile, with its value.
#[derive(Clone, Debug)]
struct Act {
    value: f64,
    command: Command,
    /// An attack or a throw (R7.6 applies to the ones after it).
    attack: bool,
    /// Defend: no attack may follow it.
    defend: bool,
}

/// The plan with the best value so far.
struct Best {
    value: f64,
    command: Option<Command>,
}

impl Best {
    fn offer(&mut self, value: f64, command: impl FnOnce() -> Command) {
        if value > self.value + 1e-9 {
            self.value = value;
            self.command = Some(command());
        }
    }
}

/// The next command of `me`, the unit whose turn it is.
pub fn decide(world: &mut World, me: Entity, w: &Weights) -> Command {
    let name = name_of(world, me);
    let Some(sit) = Situation::read(world, me, true, w) else {
        return Command::EndTurn;
    };
    let free_used = world.get::<ActionPoints>(me).is_some_and(|a| a.free_used);
    // The turn's free action first: a potion when badly hurt (R3.1, R10.5).
    if !free_used && let Some(cmd) = drink_when_hurt(world, &sit, &name, w) {
        return cmd;
    }
    if sit.ap >= 1 && sit.me().prone {
        let stand = Command::StandUp { unit: name.clone() };
        if check(world, stand.clone()).is_ok() {
            return stand;
        }
    }
    if sit.ap <= 0 {
        return finish_turn(&sit, &name);
    }
    let watchers = watchers_with_reactions(world, me);
    let me_unit = sit.me().clone();
    let start = me_unit.pos;
    // Doing nothing more: the position as it is.
    let stay = position_value(&sit, start, w);
    let mut best = Best {
        value: stay,
        command: None,
    };
    // Acting from here.
    let here = actions_at(world, &sit, start, sit.ap, &watchers, w);
    if let Some(first) = here.1.clone() {
        best.offer(stay + here.0, || first);
    }
    // Moving first (R5), then acting with what is left.
    let farthest = farthest_attack(world, &sit);
    let (level, occ, at) = view_for(world, me);
    let speed = me_unit.speed.max(0) as u32;
    let mut tiles: Vec<_> = reachable(&level.map, &occ, at, speed).into_iter().collect();
    tiles.sort_by_key(|(p, _)| *p);
    for (to, reach) in tiles {
        let provoked = provocation_cost(&sit, &watchers, start, &reach.path, w);
        let value = position_value(&sit, to, w) - provoked;
        let upper = value + attack_ceiling(&sit, to, sit.ap - 1, farthest, w);
        if upper <= best.value {
            continue;
        }
        let (acts, _) = actions_at(world, &sit, to, sit.ap - 1, &watchers, w);
        best.offer(value + acts, || Command::Move {
            unit: name.clone(),
            to,
            path: None,
        });
    }
    // Stepping (1 AP, one tile, never provokes: R8.2) out of a threatened
    // tile, to shoot or withdraw without reactive attacks.
    if watchers
        .iter()
        .any(|(t, left)| *left > 0 && t.covers(start))
    {
        for dir in crate::grid::Dir::ALL {
            let to = start.step(dir);
            let step = Command::Step {
                unit: name.clone(),
                to,
            };
            if check(world, step.clone()).is_err() {
                continue;
            }
            let value = position_value(&sit, to, w);
            let (acts, _) = actions_at(world, &sit, to, sit.ap - 1, &watchers, w);
            best.offer(value + acts, || step);
        }
    }
    // Charging (R4.7): 2 AP, a straight run and one attack with advantage.
    if sit.ap >= 2 {
        for (_, enemy) in sit.enemies() {
            let enemy = enemy.clone();
            if let Some(value) = charge_value(world, &sit, &enemy, &watchers, w) {
                best.offer(value, || Command::Charge {
                    unit: name.clone(),
                    target: name_of(world, enemy.entity),
                });
            }
        }
    }
    match best.command {
        Some(cmd) if check(world, cmd.clone()).is_ok() => cmd,
        _ => finish_turn(&sit, &name),
    }
}

/// Ends the turn facing the safest way (R4.2: turning is free on one's own
/// turn): a Face command first when the facing should change.
fn finish_turn(sit: &Situation, name: &str) -> Command {
    let me = sit.me();
    if me.down {
        return Command::EndTurn;
    }
    let (dir, danger) = sit.best_facing(me.pos, 0);
    let now = sit.danger(me.pos, me.facing, 0);
    if dir != me.facing && danger < now - 1e-6 {
        Command::Face {
            unit: name.to_string(),
            dir,
        }
    } else {
        Command::EndTurn
    }
}

/// What standing on `at` at the end of the turn is worth: minus the risk of
/// the enemies' next round there (facing the safest way), plus closing in
/// on the fight, plus setting up flanks for allies.
fn position_value(sit: &Situation, at: Pos, w: &Weights) -> f64 {
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
fn flank_setups(sit: &Situation, at: Pos) -> f64 {
    let me = sit.me();
    if me.melee.is_none() {
        return 0.0;
    }
    let mut value = 0.0;
    for (_, e) in sit.enemies() {
        if at.chebyshev(e.pos) != 1 {
            continue;
        }
        let opposite = Pos::new(2 * e.pos.x - at.x, 2 * e.pos.y - at.y);
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
fn risk(me: &Unit, damage: f64, w: &Weights) -> f64 {
    let share = damage / me.pool();
    w.exposure * me.worth * share * (1.0 + w.fall_aversion * share)
}

/// The cost of the reactive attacks a Move along `path` provokes (R8.2).
fn provocation_cost(
    sit: &Situation,
    watchers: &[(Threat, i32)],
    start: Pos,
    path: &[Pos],
    w: &Weights,
) -> f64 {
    let me = sit.me();
    let mut damage = 0.0;
    for (_, _, reactors) in steps_provoking(watchers, start, path) {
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
    let share = damage / me.pool();
    w.provoked * me.worth * share * (1.0 + share)
}

/// Reactive attacks a shot or throw from `at` provokes (R8.2).
fn shot_cost(sit: &Situation, watchers: &[(Threat, i32)], at: Pos, w: &Weights) -> f64 {
    let me = sit.me();
    let damage: f64 = watchers
        .iter()
        .filter(|(t, left)| *left > 0 && t.covers(at))
        .filter_map(|(t, _)| sit.units.iter().find(|u| u.entity == t.unit)?.melee)
        .map(|s| s.expected(0, me.dv))
        .sum();
    let share = damage / me.pool();
    w.provoked * me.worth * share * (1.0 + share)
}

/// The farthest `me` can attack from: melee reach with a Lunge (R7.8), its
/// weapons' range (R7.4), its throws (5 increments, R9.1).
fn farthest_attack(world: &World, sit: &Situation) -> i32 {
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
        .map(|w| max_range(w) + i32::from(!w.is_ranged()));
    throws.chain(weapons).max().unwrap_or(1)
}

/// An upper bound of what acting with `ap` points from `at` can be worth:
/// lets the search skip tiles that cannot beat the best plan found.
/// `farthest`: [`farthest_attack`].
fn attack_ceiling(sit: &Situation, at: Pos, ap: i32, farthest: i32, w: &Weights) -> f64 {
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
        if at.distance(u.pos) <= farthest {
            best = best.max(u.worth * (w.damage + w.drop) + w.finish * u.worth);
        }
    }
    // Defend and a readied shield are worth at most the whole risk here.
    let guard = risk(me, sit.best_facing(at, 0).1, w);
    best.max(guard) * ap as f64
}

/// The best sequence of actions from `at` with `ap` points: its value and
/// its first command.
fn actions_at(
    world: &mut World,
    sit: &Situation,
    at: Pos,
    ap: i32,
    watchers: &[(Threat, i32)],
    w: &Weights,
) -> (f64, Option<Command>) {
    if ap <= 0 {
        return (0.0, None);
    }
    let mut acts = attacks_from(world, sit, at, sit.attacks, watchers, w);
    acts.extend(guards_at(world, sit, at, w));
    acts.extend(help_from(world, sit, at, w));
    acts.retain(|a| a.value > 0.0);
    acts.sort_by(|a, b| b.value.total_cmp(&a.value));
    let Some(first) = acts.first().cloned() else {
        return (0.0, None);
    };
    // Later actions: attacks lose value to R7.6's growing disadvantage
    // (`w.follow` per earlier attack); Defend only last; each other action
    // once.
    let mut total = first.value;
    let mut used = vec![first.command.clone()];
    let mut attacks_done = u32::from(first.attack);
    let mut defended = first.defend;
    for _ in 1..ap {
        let next = acts
            .iter()
            .filter(|a| !(defended && a.attack))
            .filter(|a| a.attack || !used.contains(&a.command))
            .map(|a| {
                let v = if a.attack {
                    a.value * w.follow.powi(attacks_done as i32)
                } else {
                    a.value
                };
                (v, a)
            })
            .max_by(|x, y| x.0.total_cmp(&y.0));
        let Some((v, a)) = next else { break };
        if v <= 0.0 {
            break;
        }
        total += v;
        attacks_done += u32::from(a.attack);
        defended |= a.defend;
        used.push(a.command.clone());
    }
    // Defend last: when the best single action is Defend but attacks are
    // worth something too, attack first.
    let command = if first.defend && ap > 1 {
        acts.iter()
            .find(|a| a.attack)
            .map_or(first.command, |a| a.command.clone())
    } else {
        first.command
    };
    (total, Some(command))
}

/// Every attack and throw of `me` from `at`, valued.
fn attacks_from(
    world: &mut World,
    sit: &Situation,
    at: Pos,
    earlier: u32,
    watchers: &[(Threat, i32)],
    w: &Weights,
) -> Vec<Act> {
    let me = sit.me().clone();
    let name = name_of(world, me.entity);
    let defended = world
        .get::<ActionPoints>(me.entity)
        .is_some_and(|a| a.defended);
    if defended {
        return vec![];
    }
    let catalog: Catalog = sit.level.catalog.clone();
    let inventory = world
        .get::<Inventory>(me.entity)
        .cloned()
        .unwrap_or_default();
    let stats = world.get::<Stats>(me.entity).map(|s| s.template.clone());
    let stamina = world.get::<Stamina>(me.entity).map_or(0, |s| s.0);
    let mb = stats.as_ref().map_or(0, |t| t.mb);
    let shooting_cost = shot_cost(sit, watchers, at, w);
    let mut out = vec![];
    for (i, target) in sit.units.iter().enumerate() {
        if target.side == me.side || i == sit.me {
            continue;
        }
        let d = at.distance(target.pos);
        let target_name = name_of(world, target.entity);
        for (slot, weapon_name) in inventory.weapons.iter().enumerate() {
            let Some(weapon) = catalog.weapon(weapon_name) else {
                continue;
            };
            let ranged = weapon.is_ranged();
            let fits = if ranged {
                !target.down && d <= max_range(weapon)
            } else {
                d <= weapon.reach + i32::from(stamina >= 1 && !target.down)
            };
            if !fits {
                continue;
            }
            let mode = if ranged {
                AttackMode::Ranged
            } else {
                AttackMode::Melee
            };
            let lunge = !ranged && d > weapon.reach;
            let mut draft = AttackDraft::new(
                me.entity,
                target.entity,
                weapon.clone(),
                mode,
                at,
                target.pos,
            );
            draft.earlier_attacks = earlier;
            draft.lunge = lunge;
            let Some((value, part, preview)) = best_aim(world, draft, target, w) else {
                continue;
            };
            let weapon_arg = (slot > 0).then(|| weapon_name.clone());
            let cost = if ranged { shooting_cost } else { 0.0 };
            let lunge_cost = if lunge {
                w.stamina + exposed_cost(sit, at, w)
            } else {
                0.0
            };
            let base = value - cost - lunge_cost;
            out.push(Act {
                value: base,
                command: Command::Attack {
                    unit: name.clone(),
                    target: target_name.clone(),
                    weapon: weapon_arg.clone(),
                    power: 0,
                    lunge,
                    part,
                },
                attack: true,
                defend: false,
            });
            // Power Attack / Deadly Aim with all the MB the stamina allows
            // (R7.8), the same preview (and part) adjusted.
            let power = mb.min(stamina - i32::from(lunge));
            if power > 0 && slot == 0 && !target.down {
                let strong = preview.adjusted(0, POWER_PER_STAMINA * power);
                let value =
                    attack_value(target, &strong, w) - cost - lunge_cost - w.stamina * power as f64;
                out.push(Act {
                    value,
                    command: Command::Attack {
                        unit: name.clone(),
                        target: target_name.clone(),
                        weapon: None,
                        power,
                        lunge,
                        part,
                    },
                    attack: true,
                    defend: false,
                });
            }
        }
        // Throws (R9): weapons made to be thrown and splash items.
        for (item, _) in inventory
            .items
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(n, c)| (n.clone(), *c))
            .collect::<Vec<_>>()
        {
            if let Some(act) = throw_act(world, sit, at, earlier, &item, target, w) {
                out.push(Act {
                    value: act - shooting_cost,
                    command: Command::Throw {
                        unit: name.clone(),
                        item: item.clone(),
                        at: ThrowTarget::Unit(target_name.clone()),
                    },
                    attack: true,
                    defend: false,
                });
            }
        }
    }
    out
}

/// The attack of `draft` aimed where it is worth most, its value and
/// preview. Where the attacker picks the part (V3 without zones) each part
/// is previewed: the torso's heart kills at 5 degrees, but a unit with two
/// deadly head wounds is knocked out by a third (V3). Elsewhere, and on a
/// tie, the rules' default (the torso, `None`), so other levels' battles
/// are unchanged.
fn best_aim(
    world: &mut World,
    draft: AttackDraft,
    target: &Unit,
    w: &Weights,
) -> Option<(f64, Option<BodyPart>, AttackPreview)> {
    // The torso first, as `None`: ties keep it.
    let parts: Vec<Option<BodyPart>> = if crate::rules::variants::injuries::parts_aimed(world) {
        BodyPart::all()
            .into_iter()
            .map(|p| (p != BodyPart::Torso).then_some(p))
            .collect()
    } else {
        vec![None]
    };
    let mut best: Option<(f64, Option<BodyPart>, AttackPreview)> = None;
    for part in parts {
        let mut aimed = draft.clone();
        aimed.aim = part;
        let Ok(preview) = preview_attack(world, aimed) else {
            continue;
        };
        let value = attack_value(target, &preview, w);
        if best.as_ref().is_none_or(|(v, ..)| value > *v) {
            best = Some((value, part, preview));
        }
    }
    best
}

/// The value of throwing `item` at `target` from `at`: a weapon made to be
/// thrown by its preview; a splash item by the expected splash on everyone
/// near the target, allies counting against (R9.4).
fn throw_act(
    world: &mut World,
    sit: &Situation,
    at: Pos,
    earlier: u32,
    item: &str,
    target: &Unit,
    w: &Weights,
) -> Option<f64> {
    if target.down {
        return None;
    }
    let m = missile(world, sit.me().entity, item).ok()?;
    if !m.harmful || (!m.made_to_throw && m.splash.is_none()) {
        return None;
    }
    let str = world
        .get::<Stats>(sit.me().entity)
        .map_or(0, |s| s.template.str);
    let increment = thrown_increment(m.weapon.thrown, str);
    if at.distance(target.pos) > THROWN_INCREMENTS * increment {
        return None;
    }
    let mut draft = AttackDraft::new(
        sit.me().entity,
        target.entity,
        m.weapon.clone(),
        AttackMode::Thrown,
        at,
        target.pos,
    );
    draft.earlier_attacks = earlier;
    let preview = preview_attack(world, draft).ok()?;
    match &m.splash {
        None => Some(attack_value(target, &preview, w) - w.spend_item),
        Some((dice, radius)) => {
            let mean = dice.mean();
            let me = sit.me();
            let mut value = 0.0;
            for u in &sit.units {
                if u.pos.distance(target.pos) > *radius || u.down {
                    continue;
                }
                let share = (mean / u.pool()).min(1.0);
                let v = u.worth * (w.damage * share + w.drop * f64::from(mean >= u.pool()));
                if u.side == me.side {
                    value -= w.ally_splash * v;
                } else {
                    value += v;
                }
            }
            Some(preview.hit * value - w.spend_item)
        }
    }
}

/// What an attack with this `preview` on `target` is worth: the share of its
/// staying power taken (HP, and AR at `w.armor`) and the chance to drop it
/// (R10.1), times its worth; against the dying, the hit that shortens its
/// timer (R10.3).
fn attack_value(target: &Unit, preview: &AttackPreview, w: &Weights) -> f64 {
    if target.down {
        return w.finish * target.worth * preview.hit;
    }
    let hp = target.hp.max(1);
    let (mut hp_loss, mut ar_loss, mut drop) = (0.0, 0.0, 0.0);
    // The damage and the AR it meets: the pool, or with hit zones (V4) each
    // zone's; under active defence (V2) the answer changes both, and under
    // injuries (V3) a wound may fell: the preview's joint chances then.
    // Without them the plain product is summed as before, so that the
    // battles of the other levels (the golden one too) replay unchanged to
    // the last bit.
    let blows: Vec<(f64, i32, i32, bool)> = if preview.walks() {
        preview.blows()
    } else {
        let chances = preview.damage_chances();
        preview
            .armor
            .iter()
            .flat_map(|&(pz, ar)| {
                chances
                    .iter()
                    .enumerate()
                    .map(move |(n, p)| (p * pz, n as i32, ar, false))
            })
            .collect()
    };
    for (p, n, ar, fells) in blows {
        if p == 0.0 {
            continue;
        }
        let absorbed = ar.max(0).min(n);
        let through = n - absorbed;
        hp_loss += p * through.min(hp) as f64;
        ar_loss += p * absorbed as f64;
        // V3: injuries that kill or knock out drop it as surely as 0 HP.
        if through >= hp || fells {
            drop += p;
        }
    }
    target.worth * (w.damage * (hp_loss + w.armor * ar_loss) / hp as f64 + w.drop * drop)
}

/// The extra risk of being open to melee (+1 advantage against, R4.7, R7.8)
/// until the next turn.
fn exposed_cost(sit: &Situation, at: Pos, w: &Weights) -> f64 {
    let me = sit.me();
    if me.open {
        return 0.0;
    }
    risk(me, sit.best_facing(at, 0).1 * w.open_danger, w)
}

/// Defend (R4.6) and Ready shield at `at`: what they take off the risk.
fn guards_at(world: &mut World, sit: &Situation, at: Pos, w: &Weights) -> Vec<Act> {
    let me = sit.me();
    let name = name_of(world, me.entity);
    let (_, base) = sit.best_facing(at, 0);
    if base <= 0.0 {
        return vec![];
    }
    let mut out = vec![];
    let ready = world.entity(me.entity).contains::<ShieldReady>();
    let shield = if ready { 0 } else { me.shield };
    let defended = world
        .get::<ActionPoints>(me.entity)
        .is_some_and(|a| a.defended);
    if me.mb > 0 && !defended {
        let (_, d) = sit.best_facing(at, me.mb + if ready { me.shield } else { 0 });
        out.push(Act {
            value: risk(me, base, w) - risk(me, d, w),
            command: Command::Defend { unit: name.clone() },
            attack: false,
            defend: true,
        });
    }
    if shield > 0 {
        let (_, d) = sit.best_facing(at, shield);
        out.push(Act {
            value: risk(me, base, w) - risk(me, d, w),
            command: Command::ReadyShield { unit: name },
            attack: false,
            defend: false,
        });
    }
    out
}

/// Help for allies next to `at`: Stabilize the dying (R10.4), a potion for
/// the dying or badly hurt (R10.5).
fn help_from(world: &mut World, sit: &Situation, at: Pos, w: &Weights) -> Vec<Act> {
    let me = sit.me();
    let name = name_of(world, me.entity);
    let stats = world.get::<Stats>(me.entity).map(|s| s.template.clone());
    // What DrinkPotion would give (R10.5), and its mean healing.
    let heal = potion_of(world, me.entity)
        .and_then(|p| sit.level.catalog.item(&p)?.heal.clone())
        .map_or(0.0, |d| d.mean());
    let mut out = vec![];
    for ally in &sit.units {
        if ally.side != me.side || ally.entity == me.entity || ally.pos.chebyshev(at) != 1 {
            continue;
        }
        let ally_name = name_of(world, ally.entity);
        let dying = world.entity(ally.entity).contains::<crate::battle::Dying>();
        if dying && let Some(t) = &stats {
            let (wis, medicine) = stabilize_bonus(t);
            let modifier = wis + medicine;
            let chance = crate::rules::dying::stabilize_chance(modifier);
            out.push(Act {
                value: w.rescue * ally.worth * chance,
                command: Command::Stabilize {
                    unit: name.clone(),
                    target: ally_name.clone(),
                },
                attack: false,
                defend: false,
            });
        }
        if heal > 0.0 {
            let value = if ally.down {
                // Healed, it wakes (R10.5): back in the fight.
                w.rescue * ally.worth * w.rescue_wake
            } else {
                let max = world
                    .get::<crate::battle::Health>(ally.entity)
                    .map_or(0, |h| h.max);
                let gained = heal.min((max - ally.hp) as f64);
                if (ally.hp as f64) > max as f64 * w.heal_below {
                    0.0
                } else {
                    w.heal * ally.worth * gained / ally.pool()
                }
            };
            out.push(Act {
                value,
                command: Command::DrinkPotion {
                    unit: name.clone(),
                    target: Some(ally_name.clone()),
                },
                attack: false,
                defend: false,
            });
        }
    }
    out
}

/// The free potion for oneself (R3.1, R10.5) when at half HP or less.
fn drink_when_hurt(world: &mut World, sit: &Situation, name: &str, w: &Weights) -> Option<Command> {
    let me = sit.me();
    let max = world.get::<crate::battle::Health>(me.entity)?.max;
    if me.hp * 2 > max || w.heal <= 0.0 {
        return None;
    }
    let cmd = Command::DrinkPotion {
        unit: name.to_string(),
        target: None,
    };
    check(world, cmd.clone()).is_ok().then_some(cmd)
}

/// A Charge at `enemy` (R4.7): its attack with the charge's advantage, the
/// position it ends on, the reactions its run provokes, the opening it
/// gives, and what the last AP can still do there.
fn charge_value(
    world: &mut World,
    sit: &Situation,
    enemy: &Unit,
    watchers: &[(Threat, i32)],
    w: &Weights,
) -> Option<f64> {
    let me = sit.me();
    if me.melee.is_none() || me.pos.distance(enemy.pos) > me.speed + 2 {
        return None;
    }
    let path = charge_path(world, me.entity, enemy.entity).ok()?;
    let end = *path.last()?;
    let weapon = melee_weapon_for(world, me.entity, end.distance(enemy.pos))?;
    let mut draft = AttackDraft::new(
        me.entity,
        enemy.entity,
        weapon,
        AttackMode::Melee,
        end,
        enemy.pos,
    );
    draft.charge = true;
    draft.earlier_attacks = sit.attacks;
    let preview = preview_attack(world, draft).ok()?;
    let value = attack_value(enemy, &preview, w) + position_value(sit, end, w)
        - provocation_cost(sit, watchers, me.pos, &path, w)
        - exposed_cost(sit, end, w);
    let (rest, _) = actions_at(world, sit, end, sit.ap - 2, watchers, w);
    Some(value + rest * w.follow)
}

/// Whether `reactor` takes its reactive attack on the unit whose turn it is
/// (R8.1), struck where the trigger happens (the tile it leaves, R8.4):
/// when the attack is worth more than keeping the reaction.
pub fn react(world: &mut World, reactor: Entity, trigger: Trigger, w: &Weights) -> bool {
    let Some(provoker) = world.resource::<TurnState>().current else {
        return false;
    };
    let Some(sit) = Situation::read(world, reactor, false, w) else {
        return false;
    };
    let Some(mut target) = sit.units.iter().find(|u| u.entity == provoker).cloned() else {
        return false;
    };
    if let Trigger::Leave(tile) = trigger {
        target.pos = tile;
    }
    let Some(draft) = crate::rules::reactions::reactive_attack::reactive_draft(
        world, reactor, provoker, target.pos,
    ) else {
        return false;
    };
    preview_attack(world, draft).is_ok_and(|p| attack_value(&target, &p, w) > w.react)
}
