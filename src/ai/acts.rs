//! What a unit can do at the end tile of a plan, each valued in the
//! utility AI's currency: attacks (aimed where wounds fell, with Power
//! Attack or Lunge), throws, a Charge, Defend and Ready shield, help for a
//! dying ally, a potion.

use super::positions::{exposed_cost, position_value, provocation_cost, risk, shot_cost};
use super::profile::Weights;
use super::situation::{Situation, Unit};
use crate::battle::name_of;
use crate::battle::{ActionPoints, Inventory, ShieldReady, Stamina, Stats};
use crate::format::BodyPart;
use crate::grid::Pos;
use crate::rules::attacks::preview::{AttackPreview, preview_attack};
use crate::rules::attacks::techniques::POWER_PER_STAMINA;
use crate::rules::attacks::techniques::full_power;
use crate::rules::check;
use crate::rules::command::{Command, ThrowTarget};
use crate::rules::dying::potion_of;
use crate::rules::dying::stabilize_bonus;
use crate::rules::modifiers::{AttackDraft, AttackMode};
use crate::rules::motion::charge::charge_path;
use crate::rules::positioning::threat::{Threat, melee_weapon_for};
use crate::rules::sight::range::{THROWN_INCREMENTS, max_range, thrown_increment};
use crate::rules::throws::throw::{Missile, missile};
use bevy::prelude::*;

/// One action a plan may take at its end tile, with its value.
#[derive(Clone, Debug)]
pub(super) struct Act {
    pub(super) value: f64,
    pub(super) command: Command,
    /// An attack or a throw (R7.6 applies to the ones after it).
    pub(super) attack: bool,
    /// Defend: no attack may follow it.
    pub(super) defend: bool,
}

/// The best sequence of actions from `at` with `ap` points: its value and
/// its first command.
pub(super) fn actions_at(
    world: &mut World,
    sit: &Situation,
    at: Pos,
    ap: i32,
    watchers: &[(Threat, i32)],
    w: &Weights,
) -> (f64, Option<Command>) {
    actions_with(world, sit, at, ap, watchers, w, vec![])
}

/// [`actions_at`], with `more` acts besides the attacks, guards and help
/// (the maneuvers of the tile the unit stands on, V7).
pub(super) fn actions_with(
    world: &mut World,
    sit: &Situation,
    at: Pos,
    ap: i32,
    watchers: &[(Threat, i32)],
    w: &Weights,
    more: Vec<Act>,
) -> (f64, Option<Command>) {
    if ap <= 0 {
        return (0.0, None);
    }
    let mut acts = attacks_from(world, sit, at, sit.attacks, watchers, w);
    acts.extend(more);
    acts.extend(guards_at(world, sit, at, w));
    acts.extend(help_from(world, sit, at, w));
    acts.retain(|a| a.value > 0.0);
    acts.sort_by(|a, b| b.value.total_cmp(&a.value));
    // What each act costs: 1 AP, or its Energy (V5.5).
    let me = sit.me().entity;
    let costs: Vec<i32> = acts
        .iter()
        .map(|a| super::energy::cost(world, me, &a.command))
        .collect();
    // Under Energy, 1 Energy kept is a Swift Attack on an enemy that
    // leaves reach (V5.9): worth a share of the best blow from here.
    let best_blow = acts
        .iter()
        .filter(|a| a.attack && matches!(a.command, Command::Attack { .. }))
        .map(|a| a.value)
        .fold(0.0, f64::max);
    let reserve = super::energy::swift_reserve(world, me, best_blow);
    let Some((first, first_cost)) = acts
        .iter()
        .zip(&costs)
        .find(|(_, c)| **c <= ap)
        .map(|(a, c)| (a.clone(), *c))
    else {
        return (reserve, None);
    };
    // Later actions: attacks lose value to R7.6's growing disadvantage
    // (`w.follow` per earlier attack); Defend only last; each other action
    // once; each while the budget lasts.
    let mut total = first.value;
    let mut used = vec![first.command.clone()];
    let mut attacks_done = u32::from(first.attack);
    let mut defended = first.defend;
    let mut left = ap - first_cost.max(1);
    // Under Energy Defend does not stop attacks (V5.12).
    let energy = super::energy::on(world);
    while left > 0 {
        let next = acts
            .iter()
            .zip(&costs)
            .filter(|(_, c)| **c <= left)
            .map(|(a, _)| a)
            .filter(|a| energy || !(defended && a.attack))
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
        let spent = acts
            .iter()
            .position(|x| std::ptr::eq(x, a))
            .map_or(1, |i| costs[i]);
        // The last Energy goes only where it is worth more than a Swift
        // Attack kept.
        if left - spent < 1 && v < reserve {
            break;
        }
        left -= spent.max(1);
        total += v;
        attacks_done += u32::from(a.attack);
        defended |= a.defend;
        used.push(a.command.clone());
    }
    if left >= 1 {
        total += reserve;
    }
    // Defend last: when the best single action is Defend but attacks are
    // worth something too, attack first.
    let command = if first.defend && ap > first_cost {
        acts.iter()
            .find(|a| a.attack)
            .map_or(first.command, |a| a.command.clone())
    } else {
        first.command
    };
    (total, Some(command))
}

/// Every attack and throw of `me` from `at`, valued.
pub(super) fn attacks_from(
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
    // Borrowed from the level, never cloned: a catalog clone per tile was
    // a sixth of a look-ahead's time.
    let catalog = &sit.level.catalog;
    let inventory = world
        .get::<Inventory>(me.entity)
        .cloned()
        .unwrap_or_default();
    let stamina = world.get::<Stamina>(me.entity).map_or(0, |s| s.0);
    let shooting_cost = shot_cost(sit, watchers, at, w);
    // What it could throw (R9), read once: not once per target, as each
    // read builds the missile (over a quarter of the instructions of an opening
    // decision on 32×32, by callgrind).
    let throwables: Vec<Missile> = inventory
        .items
        .iter()
        .filter(|(_, n)| *n > 0)
        .filter_map(|(item, _)| missile(world, me.entity, item).ok())
        .collect();
    let mut out = vec![];
    for (i, target) in sit.units.iter().enumerate() {
        if target.side == me.side || i == sit.me {
            continue;
        }
        let d = me.gap_from(at, target);
        // Named only for an act: most targets are out of reach of most
        // tiles (a tenth of an opening decision went to names unused).
        let mut named: Option<String> = None;
        for (slot, weapon_name) in inventory.weapons.iter().enumerate() {
            let Some(weapon) = catalog.weapon(weapon_name) else {
                continue;
            };
            let ranged = weapon.is_ranged();
            let fits = if ranged {
                !target.down && d <= max_range(weapon)
            } else {
                d <= crate::battle::reach_with(world, me.entity, weapon.reach)
                    + i32::from(stamina >= 1 && !target.down)
            };
            if !fits {
                continue;
            }
            let mode = if ranged {
                AttackMode::Ranged
            } else {
                AttackMode::Melee
            };
            let lunge = !ranged && d > crate::battle::reach_with(world, me.entity, weapon.reach);
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
            let ranked = draft.clone();
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
            let target_name = name_once(&mut named, world, target.entity);
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
            let full = full_power(world, me.entity, lunge);
            // Under die ranks (V6.8) each Stamina is an ATT rank, and ranks
            // past d12 are lost: the least Stamina that does most, each
            // previewed with its ranks.
            let power = if preview.contest.is_some() {
                least_useful_power(world, &ranked, part, full)
            } else {
                full
            };
            if power > 0 && slot == 0 && !target.down {
                let strong = if preview.contest.is_some() {
                    let mut d = ranked.clone();
                    (d.power, d.aim) = (power, part);
                    preview_attack(world, d).unwrap_or_else(|_| preview.clone())
                } else {
                    preview.adjusted(0, POWER_PER_STAMINA * power)
                };
                let value =
                    attack_value(target, &strong, w) - cost - lunge_cost - w.stamina * power as f64;
                let target_name = name_once(&mut named, world, target.entity);
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
        for m in &throwables {
            if let Some(act) = throw_act(world, sit, at, earlier, m, target, w) {
                let target_name = name_once(&mut named, world, target.entity);
                out.push(Act {
                    value: act - shooting_cost,
                    command: Command::Throw {
                        unit: name.clone(),
                        item: m.name.clone(),
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

/// `unit`'s name, looked up the first time it is asked and kept in `named`.
fn name_once(named: &mut Option<String>, world: &World, unit: Entity) -> String {
    named.get_or_insert_with(|| name_of(world, unit)).clone()
}

/// Under die ranks (V6.8): of 1 to `full` Stamina, the least that rolls
/// the largest ATT die (ranks past d12 are lost); 0 when none adds a rank.
fn least_useful_power(
    world: &mut World,
    draft: &AttackDraft,
    part: Option<crate::format::BodyPart>,
    full: i32,
) -> i32 {
    let sides = |world: &mut World, power: i32| {
        let mut d = draft.clone();
        (d.power, d.aim) = (power, part);
        preview_attack(world, d)
            .ok()
            .and_then(|p| p.contest)
            .map_or(0, |c| c.attack.sides)
    };
    let base = sides(world, 0);
    let mut best = (base, 0);
    for power in 1..=full {
        let s = sides(world, power);
        if s > best.0 {
            best = (s, power);
        }
    }
    best.1
}

/// The attack of `draft` aimed where it is worth most, its value and
/// preview. Where the attacker picks the part (V3 without zones) each part
/// is previewed: the torso's heart kills at 5 degrees, but a unit with two
/// deadly head wounds is knocked out by a third (V3). Elsewhere, and on a
/// tie, the rules' default (the torso, `None`), so other levels' battles
/// are unchanged.
pub(super) fn best_aim(
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

/// The value of throwing `m` at `target` from `at`: a weapon made to be
/// thrown by its preview; a splash item by the expected splash on everyone
/// near the target, allies counting against (R9.4); nothing for a missile
/// that harms no one or is neither made to be thrown nor splashes.
pub(super) fn throw_act(
    world: &mut World,
    sit: &Situation,
    at: Pos,
    earlier: u32,
    m: &Missile,
    target: &Unit,
    w: &Weights,
) -> Option<f64> {
    if target.down || !m.harmful || (!m.made_to_throw && m.splash.is_none()) {
        return None;
    }
    let str = world
        .get::<Stats>(sit.me().entity)
        .map_or(0, |s| s.template.str);
    let increment = thrown_increment(m.weapon.thrown, str);
    if sit.me().gap_from(at, target) > THROWN_INCREMENTS * increment {
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
                if u.body().gap(target.body()) > *radius || u.down {
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
/// timer (R10.3), worth little when no ally can come to save it anyway.
pub(super) fn attack_value(target: &Unit, preview: &AttackPreview, w: &Weights) -> f64 {
    if target.down {
        // Left alone, it wakes only on a natural 20 (R10.2): one turn in 20.
        let saved = if target.rescuable { 1.0 } else { UNRESCUED };
        return w.finish * saved * target.worth * preview.hit;
    }
    let hp = target.hp.max(1);
    let (mut hp_loss, mut ar_loss, mut drop) = (0.0, 0.0, 0.0);
    // The damage and the AR it meets: the pool, or with hit zones (V4) each
    // zone's; under active defence (V2) the answer changes both, and under
    // injuries (V3) a wound may fell: the preview's joint chances then.
    // Without them the plain product is summed as before, so that the
    // battles of the other levels (the golden one too) replay unchanged to
    // the last bit.
    let blows: Vec<(f64, i32, i32, f64)> = if preview.walks() {
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
                    .map(move |(n, p)| (p * pz, n as i32, ar, 0.0))
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
        drop += if through >= hp { p } else { p * fells };
    }
    // Without HP damage (V3 as 001), the injuries' values are the harm:
    // they raise the DC of every knock-out save to come, which a d20 + CON
    // surely fails past about 20.
    if preview.injure_only {
        hp_loss = preview.expected_wound_value() * hp as f64 / INJURY_TOLERANCE;
    }
    // A hit on a caster holding a spell may break it (V11.5): about an
    // even chance a hit, its field or grip gone with it.
    let broken = if target.concentrating {
        CONCENTRATION_WORTH * preview.hit
    } else {
        0.0
    };
    target.worth * (w.damage * (hp_loss + w.armor * ar_loss) / hp as f64 + w.drop * drop + broken)
}

/// What breaking an enemy's concentration is worth, in its worth, a hit
/// *(AI decision)*: half the spells held are kept by the save.
const CONCENTRATION_WORTH: f64 = 0.15;

/// The sum of injury values a unit is taken to stand without HP (V3 as
/// 001): past about 20 its Constitution save fails whatever the d20.
pub(super) const INJURY_TOLERANCE: f64 = 20.0;

/// What finishing a dying enemy that no ally can reach is worth, relative
/// to one that could be saved: its own chance to wake over a few turns
/// (R10.2, 5% a turn).
const UNRESCUED: f64 = 0.15;

/// Defend (R4.6) and Ready shield at `at`: what they take off the risk.
pub(super) fn guards_at(world: &mut World, sit: &Situation, at: Pos, w: &Weights) -> Vec<Act> {
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
    // Under Energy a Defend after a run past Speed ends at once (V5.12).
    let run_out = crate::rules::variants::energy::costs::ran_past_speed(world, me.entity);
    if me.mb > 0 && !defended && !run_out {
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
pub(super) fn help_from(world: &mut World, sit: &Situation, at: Pos, w: &Weights) -> Vec<Act> {
    let me = sit.me();
    let name = name_of(world, me.entity);
    // WIS and Medicine (R10.4), read without cloning the template.
    let bonus = world
        .get::<Stats>(me.entity)
        .map(|s| stabilize_bonus(&s.template));
    // What DrinkPotion would give (R10.5), and its mean healing.
    let heal = potion_of(world, me.entity)
        .and_then(|p| sit.level.catalog.item(&p)?.heal.clone())
        .map_or(0.0, |d| d.mean());
    let mut out = vec![];
    for ally in &sit.units {
        if ally.side != me.side || ally.entity == me.entity || ally.body().gap(me.body_at(at)) != 1
        {
            continue;
        }
        let ally_name = name_of(world, ally.entity);
        let dying = world.entity(ally.entity).contains::<crate::battle::Dying>();
        if dying && let Some((wis, medicine)) = bonus {
            let modifier = wis + medicine;
            let chance = crate::rules::dying::stabilize_chance(modifier);
            out.push(Act {
                // Stable, it lives but stays out of the fight until a
                // potion wakes it (R10.4): worth less than waking it.
                value: w.rescue * w.rescue_stable * ally.worth * chance,
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
pub(super) fn drink_when_hurt(
    world: &mut World,
    sit: &Situation,
    name: &str,
    w: &Weights,
) -> Option<Command> {
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
pub(super) fn charge_value(
    world: &mut World,
    sit: &Situation,
    enemy: &Unit,
    watchers: &[(Threat, i32)],
    w: &Weights,
) -> Option<f64> {
    let me = sit.me();
    if me.melee.is_none() || me.body().gap(enemy.body()) > me.speed + 2 {
        return None;
    }
    let path = charge_path(world, me.entity, enemy.entity).ok()?;
    let end = *path.last()?;
    let weapon = melee_weapon_for(world, me.entity, me.gap_from(end, enemy))?;
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
    // 2 AP, or the run's Energy and a blow's (V5.5).
    let charge = Command::Charge {
        unit: name_of(world, me.entity),
        target: name_of(world, enemy.entity),
        shove: false,
    };
    let budget = super::energy::budget(world, me.entity, sit.ap);
    let left = budget - super::energy::cost(world, me.entity, &charge);
    if left < 0 {
        return None;
    }
    let (rest, _) = actions_at(world, sit, end, left, watchers, w);
    Some(value + rest * w.follow)
}
