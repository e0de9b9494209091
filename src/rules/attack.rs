//! R7 attacks: the roll (R7.1), hits and degrees (R7.2), natural 20 and 1
//! (R7.3), reach (R7.5), iterative attacks (R7.6), automatic hits on the
//! unconscious (R7.9), and the Attack command.

use super::Pending;
use super::command::{Command, Refusal};
use super::damage::apply_hit;
use super::facing::face_towards;
use super::log::log;
use super::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect, gather};
use crate::battle::{
    ActionPoints, Battlefield, Dying, GridPos, GroundObject, Inventory, Side, Stable, Stats,
};
use crate::format::{DamageType, Dice, Weapon};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        (
            add_attack_bonus.in_set(AttackSystems::Base),
            add_defence_value.in_set(AttackSystems::Base),
            add_iterative_penalty.in_set(AttackSystems::Situational),
            hit_the_unconscious.in_set(AttackSystems::Final),
        ),
    );
    super::handle(app, "Attack", validate_attack, execute_attack);
}

/// The weapon a unit fights with when it has none in hand *(decision)*.
pub fn unarmed() -> Weapon {
    Weapon {
        name: "unarmed".into(),
        damage: Dice::parse("1d2").expect("a valid literal"),
        damage_type: DamageType::Bludgeoning,
        reach: 1,
        thrown: None,
        range: None,
        attack_bonus: 0,
        crit: 20,
        traits: vec![],
    }
}

/// The weapon `unit` attacks with: `name` if it holds it, else its main
/// weapon, else [`unarmed`].
pub fn weapon_of(world: &World, unit: Entity, name: Option<&str>) -> Result<Weapon, Refusal> {
    let inventory = world.get::<Inventory>(unit).cloned().unwrap_or_default();
    let catalog = &world.resource::<Battlefield>().0.catalog;
    let who = super::name_of(world, unit);
    let wanted = match name {
        Some(n) if inventory.weapons.iter().any(|w| w == n) => n.to_string(),
        Some(n) => {
            return Err(Refusal::new(
                "R7.1",
                format!("{who} holds no weapon \"{n}\""),
            ));
        }
        None => match inventory.weapons.first() {
            Some(w) => w.clone(),
            None => return Ok(unarmed()),
        },
    };
    catalog
        .weapon(&wanted)
        .cloned()
        .ok_or_else(|| Refusal(format!("unknown weapon \"{wanted}\"")))
}

/// R7.1: MB + attribute (melee: best of STR and DEX; ranged: DEX and WIS;
/// thrown: STR and DEX) + the weapon's bonus. R7.7: STR to the damage of
/// melee and thrown attacks (projectiles add none).
fn add_attack_bonus(mut draft: ResMut<AttackDraft>, stats: Query<&Stats>) {
    let Ok(s) = stats.get(draft.attacker) else {
        return;
    };
    let t = &s.template;
    draft.push(Effect::Bonus(t.mb), "MB", "R7.1");
    let (name, value) = match draft.mode {
        AttackMode::Melee | AttackMode::Thrown if t.str >= t.dex => ("STR", t.str),
        AttackMode::Melee | AttackMode::Thrown => ("DEX", t.dex),
        AttackMode::Ranged if t.dex >= t.wis => ("DEX", t.dex),
        AttackMode::Ranged => ("WIS", t.wis),
    };
    draft.push(Effect::Bonus(value), name, "R7.1");
    let weapon_bonus = draft.weapon.attack_bonus;
    if weapon_bonus != 0 {
        let w = draft.weapon.name.clone();
        draft.push(Effect::Bonus(weapon_bonus), w, "R7.1");
    }
    if draft.mode != AttackMode::Ranged && t.str != 0 {
        draft.push(Effect::Damage(t.str), "STR", "R7.7");
    }
}

/// R1.1: DV = 10 + DEX + armor DV (shield and Defend in `defend.rs`).
fn add_defence_value(
    mut draft: ResMut<AttackDraft>,
    stats: Query<&Stats>,
    field: Res<Battlefield>,
) {
    if draft.aims_at_tile() {
        draft.push(Effect::Dv(5), "a tile", "R9.1");
        return;
    }
    let Ok(s) = stats.get(draft.target) else {
        return;
    };
    let t = &s.template;
    draft.push(Effect::Dv(10), "base", "R1.1");
    if t.dex != 0 {
        draft.push(Effect::Dv(t.dex), "DEX", "R1.1");
    }
    if let Some(armor) = t.armor.as_ref().and_then(|a| field.0.catalog.armor(a))
        && armor.dv != 0
    {
        draft.push(Effect::Dv(armor.dv), armor.name.clone(), "R1.1");
    }
}

/// R7.6: each attack after the first in a turn has +1 disadvantage per
/// earlier one; reactive attacks have none (R8.1).
fn add_iterative_penalty(mut draft: ResMut<AttackDraft>) {
    if draft.earlier_attacks > 0 && !draft.reaction {
        let n = draft.earlier_attacks as i32;
        draft.push(
            Effect::Advantage(-n),
            format!("attack #{} this turn", n + 1),
            "R7.6",
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
        draft.push(Effect::AutoHit, "target unconscious", "R7.9");
    }
}

/// Degrees of success (R7.2, R7.3): hit when `total > dv`, one degree and
/// one more per full 5 above; a natural 20 adds a degree or hits with 1; a
/// natural 1 takes one away. 0 means a miss.
pub fn degrees(kept: u32, total: i32, dv: i32, crit: u32) -> i32 {
    let mut d = if total > dv {
        1 + (total - dv - 1) / 5
    } else {
        0
    };
    if kept >= crit {
        d = if d == 0 { 1 } else { d + 1 };
    } else if kept == 1 && d > 0 {
        d -= 1;
    }
    d
}

/// R8.6: the degrees left after a parry that beat the attack by `m`: it
/// loses `1 + floor(m / 5)`; 0 means deflected.
pub fn degrees_after_parry(degrees: i32, m: i32) -> i32 {
    (degrees - 1 - m / 5).max(0)
}

/// What one attack did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackResult {
    /// Degrees of success, 0 for a miss.
    pub degrees: i32,
    /// The kept d20 (None for an automatic hit).
    pub kept: Option<u32>,
    /// Roll + bonus.
    pub total: i32,
}

/// Resolves a drafted attack: gathers its modifiers, rolls (R0.4: `1 + |n|`
/// d20, best or worst kept), logs every term, and applies the hit.
pub fn resolve(world: &mut World, draft: AttackDraft) -> AttackResult {
    let (draft, result) = roll(world, draft);
    if result.degrees > 0 {
        apply_hit(world, &draft, result.degrees);
    } else if result.kept == Some(1) && draft.mode == AttackMode::Melee {
        drop_weapon(world, draft.attacker);
    }
    result
}

/// The roll of an attack, without its effects: gathers the modifiers, rolls
/// and logs; a melee hit may be parried (R8.6). Returns the gathered draft
/// and the degrees. Throws (R9) apply their own effects.
pub fn roll(world: &mut World, draft: AttackDraft) -> (AttackDraft, AttackResult) {
    let draft = gather(world, draft);
    let name = |e: Entity| super::name_of(world, e);
    let attacker = name(draft.attacker);
    let target = if draft.aims_at_tile() {
        format!("the tile {}", draft.at)
    } else {
        name(draft.target)
    };
    let weapon = draft.weapon.name.clone();
    let verb = if draft.mode == AttackMode::Thrown {
        "throws"
    } else {
        "attacks"
    };
    let dv = draft.dv();
    let bonus = draft.bonus();
    let adv = draft.advantage();
    let dv_terms = draft.listed(|e| matches!(e, Effect::Dv(_)));
    if draft.auto_hit() {
        log(
            world,
            format!(
                "{attacker} attacks {target} with {weapon}: {} → hit, 1 degree",
                draft.listed(|e| matches!(e, Effect::AutoHit))
            ),
        );
        let result = AttackResult {
            degrees: 1,
            kept: None,
            total: 0,
        };
        return (draft, result);
    }
    let count = 1 + adv.unsigned_abs();
    let rolls: Vec<u32> = (0..count)
        .map(|_| world.resource_mut::<crate::dice::Dice>().roll(20))
        .collect();
    let kept = if adv >= 0 {
        *rolls.iter().max().unwrap_or(&1)
    } else {
        *rolls.iter().min().unwrap_or(&1)
    };
    let total = kept as i32 + bonus;
    let crit = draft.weapon.crit.clamp(2, 20) as u32;
    let d = degrees(kept, total, dv, crit);
    let adv_terms = draft.listed(|e| matches!(e, Effect::Advantage(_) | Effect::Reach(_)));
    let bonus_terms = draft.listed(|e| matches!(e, Effect::Bonus(_)));
    let natural = if kept >= crit {
        " natural 20 (R7.3)"
    } else if kept == 1 {
        " natural 1 (R7.3)"
    } else {
        ""
    };
    let verdict = if d > 0 {
        format!("hit, {d} degree{} (R7.2)", if d == 1 { "" } else { "s" })
    } else {
        "miss (R7.2)".to_string()
    };
    let rolled: Vec<String> = rolls.iter().map(u32::to_string).collect();
    let keep = if count > 1 {
        format!(" keep {kept}")
    } else {
        String::new()
    };
    let adv_text = if adv_terms.is_empty() {
        String::new()
    } else {
        format!(" [{adv_terms}]")
    };
    log(
        world,
        format!(
            "{attacker} {verb} {target} with {weapon}: d20 [{}]{keep}{natural}{adv_text} {bonus:+} ({bonus_terms}) = {total} vs DV {dv} ({dv_terms}) → {verdict}",
            rolled.join(", ")
        ),
    );
    // R8.6: the target may parry a melee hit, before the damage dice.
    let d = if d > 0 && draft.mode == AttackMode::Melee {
        super::reactions::parry(world, &draft, total, d)
    } else {
        d
    };
    let result = AttackResult {
        degrees: d,
        kept: Some(kept),
        total,
    };
    (draft, result)
}

/// R7.3: a natural 1 that misses makes a melee attacker drop its weapon in
/// its own tile.
fn drop_weapon(world: &mut World, unit: Entity) {
    let Some(pos) = world.get::<GridPos>(unit).copied() else {
        return;
    };
    let Some(mut inventory) = world.get_mut::<Inventory>(unit) else {
        return;
    };
    if inventory.weapons.is_empty() {
        return;
    }
    let weapon = inventory.weapons.remove(0);
    world.spawn((
        GroundObject {
            name: weapon.clone(),
        },
        pos,
    ));
    let who = super::name_of(world, unit);
    log(
        world,
        format!("{who} drops the {weapon} at {} (natural 1, R7.3)", pos.0),
    );
}

/// The draft of `unit` attacking `target` from where it stands now.
pub fn draft_for(
    world: &World,
    unit: Entity,
    target: Entity,
    weapon: Option<&str>,
) -> Result<AttackDraft, Refusal> {
    let weapon = weapon_of(world, unit, weapon)?;
    let mode = if weapon.is_ranged() {
        AttackMode::Ranged
    } else {
        AttackMode::Melee
    };
    let from = world.get::<GridPos>(unit).map(|p| p.0).unwrap_or_default();
    let at = world
        .get::<GridPos>(target)
        .map(|p| p.0)
        .unwrap_or_default();
    let mut draft = AttackDraft::new(unit, target, weapon, mode, from, at);
    draft.earlier_attacks = world.get::<ActionPoints>(unit).map_or(0, |a| a.attacks);
    Ok(draft)
}

/// Checks that `draft` is a legal attack (target, reach R7.5, and every
/// rule's refusal gathered by the attack schedule).
pub fn check_attack(world: &mut World, draft: &AttackDraft) -> Result<(), Refusal> {
    let name = |e: Entity| super::name_of(world, e);
    let (who, whom) = (name(draft.attacker), name(draft.target));
    if draft.attacker == draft.target {
        return Err(Refusal::new("R7", format!("{who} cannot attack itself")));
    }
    if world.get::<Side>(draft.attacker) == world.get::<Side>(draft.target) {
        return Err(Refusal::new("R7", format!("{whom} is an ally of {who}")));
    }
    if world.entity(draft.target).contains::<crate::battle::Dead>() {
        return Err(Refusal::new("R7", format!("{whom} is dead")));
    }
    if draft.mode == AttackMode::Melee {
        let to = world
            .get::<GridPos>(draft.target)
            .map(|p| p.0)
            .unwrap_or_default();
        let distance = draft.from.distance(to);
        // R7.8 Lunge: +1 reach for this attack.
        let reach = draft.weapon.reach + i32::from(draft.lunge);
        if distance > reach {
            return Err(Refusal::new(
                "R7.5",
                format!(
                    "{whom} is {distance} tiles away; the {} reaches {reach}",
                    draft.weapon.name
                ),
            ));
        }
    }
    let gathered = gather(world, draft.clone());
    match gathered.refusal {
        Some(r) => Err(r),
        None => Ok(()),
    }
}

fn attack_target(world: &World) -> Option<(Entity, Entity, Option<String>, i32, bool)> {
    let pending = world.resource::<Pending>();
    let Some(Command::Attack {
        weapon,
        power,
        lunge,
        ..
    }) = pending.command.clone()
    else {
        return None;
    };
    Some((pending.actor?, pending.target?, weapon, power, lunge))
}

fn validate_attack(world: &mut World) {
    let result = match attack_target(world) {
        None => return,
        Some((actor, target, weapon, power, lunge)) => {
            if world.get::<ActionPoints>(actor).is_some_and(|a| a.defended) {
                Err(Refusal::new(
                    "R4.6",
                    "after Defend a unit makes no more attacks this turn",
                ))
            } else {
                draft_for(world, actor, target, weapon.as_deref()).and_then(|mut d| {
                    super::techniques::check_techniques(world, &d, power, lunge)?;
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

fn execute_attack(world: &mut World) {
    let Some((actor, target, weapon, power, lunge)) = attack_target(world) else {
        return;
    };
    // R4.2: on its own turn an attack turns the attacker to its target.
    face_towards(world, actor, target);
    let Ok(mut draft) = draft_for(world, actor, target, weapon.as_deref()) else {
        return;
    };
    draft.power = power;
    draft.lunge = lunge;
    super::techniques::spend(world, &draft);
    if let Some(mut ap) = world.get_mut::<ActionPoints>(actor) {
        ap.attacks += 1;
    }
    // R8.2: shooting from a threatened tile provokes, before the shot.
    if draft.mode == AttackMode::Ranged
        && !super::reactions::provoke(world, actor, super::reactions::Trigger::Shoot)
    {
        return;
    }
    let melee = draft.mode == AttackMode::Melee;
    let result = resolve(world, draft);
    // R7.8 Cleave may follow a melee hit.
    super::techniques::remember_hit(world, actor, target, melee && result.degrees > 0);
}
