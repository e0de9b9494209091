//! R7 attacks: the attack bonus (R7.1) and DV (R1.1) every attack gathers,
//! iterative attacks (R7.6), automatic hits on the unconscious (R7.9), and
//! the Attack command. The roll itself, shared by every kind of attack, is
//! in `resolution.rs`.

use crate::battle::{ActionPoints, ArmorReduction, Battlefield, Dying, Stable, Stats};
use crate::format::BodyPart;
use crate::rules::attacks::resolution::{check_attack, draft_for, resolve};
use crate::rules::attacks::techniques;
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Handles, Pending, handle};
use crate::rules::positioning::facing::face_towards;
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The source of R1.1's DEX term of the DV, which a rule may take out of
/// the DV (active defence, V2: DEX defends by dodging).
pub const DEX_DV: &str = "DEX";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        (
            add_attack_bonus.in_set(AttackSystems::Base),
            add_defence_value.in_set(AttackSystems::Base),
            add_armor_pool.in_set(AttackSystems::Base),
            add_iterative_penalty.in_set(AttackSystems::Situational),
            hit_the_unconscious.in_set(AttackSystems::Final),
        ),
    );
    handle(app, CommandKind::Attack, validate_attack, declare_attack);
    app.add_systems(
        CommandSchedule,
        make_attack
            .after(declare_attack)
            .in_set(Handles(CommandKind::Attack))
            .in_set(CommandSystems::Execute),
    );
}

/// R7.1: MB + attribute (melee: best of STR and DEX; ranged: DEX and WIS;
/// thrown: STR and DEX) + the weapon's bonus. R7.7: STR to the damage of
/// melee and thrown attacks (projectiles add none).
fn add_attack_bonus(mut draft: ResMut<AttackDraft>, stats: Query<&Stats>) {
    // A maneuver rolls its skill instead (V7.1).
    if draft.maneuver.is_some() {
        return;
    }
    let Ok(s) = stats.get(draft.attacker) else {
        return;
    };
    let t = &s.template;
    draft.push(Effect::Bonus(t.mb), "MB", Rule::R7_1);
    let (name, value) = match draft.mode {
        AttackMode::Melee | AttackMode::Thrown if t.str >= t.dex => ("STR", t.str),
        AttackMode::Melee | AttackMode::Thrown => ("DEX", t.dex),
        AttackMode::Ranged if t.dex >= t.wis => ("DEX", t.dex),
        AttackMode::Ranged => ("WIS", t.wis),
    };
    draft.push(Effect::Bonus(value), name, Rule::R7_1);
    let weapon_bonus = draft.weapon.attack_bonus;
    if weapon_bonus != 0 {
        let w = draft.weapon.name.clone();
        draft.push(Effect::Bonus(weapon_bonus), w, Rule::R7_1);
    }
    if draft.mode != AttackMode::Ranged && t.str != 0 {
        draft.push(Effect::Damage(t.str), "STR", Rule::R7_7);
    }
}

/// R1.1: DV = 10 + DEX + armor DV (shield and Defend in `defend.rs`).
fn add_defence_value(
    mut draft: ResMut<AttackDraft>,
    stats: Query<&Stats>,
    field: Res<Battlefield>,
) {
    if draft.aims_at_tile() {
        draft.push(Effect::Dv(5), "a tile", Rule::R9_1);
        return;
    }
    let Ok(s) = stats.get(draft.target) else {
        return;
    };
    let t = &s.template;
    draft.push(Effect::Dv(10), "base", Rule::R1_1);
    if t.dex != 0 {
        draft.push(Effect::Dv(t.dex), DEX_DV, Rule::R1_1);
    }
    if let Some(armor) = t.armor.as_ref().and_then(|a| field.0.catalog.armor(a))
        && armor.dv != 0
    {
        draft.push(Effect::Dv(armor.dv), armor.name.clone(), Rule::R1_1);
    }
}

/// R1.2: the AR a hit meets is the target's pool (a rule may split it by
/// where a hit lands: hit zones, V4).
fn add_armor_pool(mut draft: ResMut<AttackDraft>, armor: Query<&ArmorReduction>) {
    let pool = armor.get(draft.target).map_or(0, |a| a.0);
    draft.armor = vec![(1.0, pool)];
}

/// R7.6: each attack after the first in a turn has +1 disadvantage per
/// earlier one; reactive attacks have none (R8.1).
fn add_iterative_penalty(mut draft: ResMut<AttackDraft>) {
    if draft.earlier_attacks > 0 && !draft.reaction {
        let n = draft.earlier_attacks as i32;
        draft.push(
            Effect::Advantage(-n),
            format!("attack #{} this turn", n + 1),
            Rule::R7_6,
        );
    }
}

/// R7.9: melee attacks against an unconscious or dying unit hit
/// automatically.
fn hit_the_unconscious(
    mut draft: ResMut<AttackDraft>,
    down: Query<(), Or<(With<Dying>, With<Stable>)>>,
) {
    if draft.mode == AttackMode::Melee && down.contains(draft.target) {
        draft.push(Effect::AutoHit, "target unconscious", Rule::R7_9);
    }
}

/// The pending Attack: attacker, target, weapon, power, lunge, and the
/// part aimed at (V3).
type AttackOrder = (Entity, Entity, Option<String>, i32, bool, Option<BodyPart>);

fn attack_target(world: &World) -> Option<AttackOrder> {
    let pending = world.resource::<Pending>();
    let Some(Command::Attack {
        weapon,
        power,
        lunge,
        part,
        ..
    }) = pending.command.clone()
    else {
        return None;
    };
    Some((pending.actor?, pending.target?, weapon, power, lunge, part))
}

fn validate_attack(world: &mut World) {
    let result = match attack_target(world) {
        None => return,
        Some((actor, target, weapon, power, lunge, _)) => {
            if world.get::<ActionPoints>(actor).is_some_and(|a| a.defended) {
                Err(Refusal::new(
                    Rule::R4_6,
                    "after Defend a unit makes no more attacks this turn",
                ))
            } else {
                draft_for(world, actor, target, weapon.as_deref()).and_then(|mut d| {
                    techniques::check_techniques(world, &d, power, lunge)?;
                    d.power = power;
                    d.lunge = lunge;
                    check_attack(world, &d)
                })
            }
        }
    };
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

/// The attack being made by the pending Attack command, declared (turned,
/// techniques paid, counted) and not yet rolled: what a shot provokes
/// before its roll (R8.2, R8.4).
#[derive(Resource, Clone, Debug)]
pub struct DeclaredAttack(pub AttackDraft);

/// The Attack, declared: the attacker turns to its target (R4.2), pays its
/// techniques (R7.8) and counts the attack (R7.6).
pub fn declare_attack(world: &mut World) {
    let Some((actor, target, weapon, power, lunge, part)) = attack_target(world) else {
        return;
    };
    // R4.2: on its own turn an attack turns the attacker to its target.
    face_towards(world, actor, target);
    let Ok(mut draft) = draft_for(world, actor, target, weapon.as_deref()) else {
        return;
    };
    draft.power = power;
    draft.lunge = lunge;
    draft.aim = part;
    techniques::spend(world, &draft);
    if let Some(mut ap) = world.get_mut::<ActionPoints>(actor) {
        ap.attacks += 1;
    }
    world.insert_resource(DeclaredAttack(draft));
}

/// The Attack, made: the roll and its effects; a melee hit may be followed
/// by a Cleave (R7.8). Not when a reactive attack stopped the attacker
/// (R8.4).
pub fn make_attack(world: &mut World) {
    let Some(DeclaredAttack(draft)) = world.remove_resource::<DeclaredAttack>() else {
        return;
    };
    if world.resource::<Pending>().interrupted {
        return;
    }
    let (actor, target) = (draft.attacker, draft.target);
    let melee = draft.mode == AttackMode::Melee;
    let result = resolve(world, draft);
    techniques::remember_hit(world, actor, target, melee && result.degrees > 0);
}
