//! Attack resolution, shared by every command that attacks (Attack, Charge,
//! Cleave, Throw, reactive attacks): the draft of an attack, its legality
//! (R7, R7.5), the roll (R0.4, R7.1–R7.3) and its effects.
//!
//! The modifiers themselves are gathered by the rules' systems in the
//! [`AttackSchedule`](crate::rules::modifiers::AttackSchedule); this module only reads
//! them. After the roll, the hit goes through the schedules of
//! [`hit`](super::hit), where the defender answers and other rules step in.

use super::hit::{AttackResult, Hit, HitSchedule, run};
use crate::battle::{ActionPoints, Battlefield, Dead, GridPos, GroundObject, Inventory, Side};
use crate::battle::{change_inventory, name_of};
use crate::format::{DamageType, Dice, Weapon};
use crate::rules::attacks::damage::apply_hit;
use crate::rules::command::Refusal;
use crate::rules::contest::{Contest, ContestRoll, Pool, PoolRoll, successes};
use crate::rules::events::{AttackRoll, BattleEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, gather};
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The fist's 1d2, parsed once: the AI asks for [`unarmed`] at every read
/// of each unit's DV.
static FIST: std::sync::LazyLock<Dice> =
    std::sync::LazyLock::new(|| Dice::parse("1d2").expect("a valid literal"));

/// The weapon a unit fights with when it has none in hand *(decision)*.
pub fn unarmed() -> Weapon {
    Weapon {
        name: crate::format::UNARMED.into(),
        damage: FIST.clone(),
        damage_type: DamageType::Bludgeoning,
        reach: 1,
        thrown: None,
        range: None,
        attack_bonus: 0,
        crit: 20,
        traits: vec![],
        parry: 0,
        accuracy: None,
        load: None,
    }
}

/// The weapon `unit` attacks with: `name` if it holds it, else its main
/// weapon, else [`unarmed`].
pub fn weapon_of(world: &World, unit: Entity, name: Option<&str>) -> Result<Weapon, Refusal> {
    let inventory = world.get::<Inventory>(unit).cloned().unwrap_or_default();
    let catalog = &world.resource::<Battlefield>().0.catalog;
    let who = name_of(world, unit);
    let wanted = match name {
        Some(n) if inventory.weapons.iter().any(|w| w == n) => n.to_string(),
        Some(n) => {
            return Err(Refusal::new(
                Rule::R7_1,
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
        .ok_or_else(|| Refusal::unknown(format!("weapon \"{wanted}\"")))
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

/// Resolves a drafted attack: gathers its modifiers, rolls (R0.4: `1 + |n|`
/// d20, best or worst kept), tells every term, and applies the hit.
pub fn resolve(world: &mut World, draft: AttackDraft) -> AttackResult {
    let (draft, result) = roll(world, draft);
    if result.degrees > 0 {
        apply_hit(world, &draft, &result);
    } else if result.kept == Some(1) && !result.answered && draft.mode == AttackMode::Melee {
        drop_weapon(world, draft.attacker, Some(&draft.weapon.name), false);
    }
    result
}

/// The roll of an attack, without its effects: gathers the modifiers, rolls
/// and tells it ([`BattleEvent::AttackRolled`]); a melee hit may be parried
/// (R8.6). Returns the gathered draft and the degrees. Throws (R9) apply
/// their own effects.
pub fn roll(world: &mut World, draft: AttackDraft) -> (AttackDraft, AttackResult) {
    let draft = gather(world, draft);
    let dv = draft.dv();
    let threshold = draft.threshold();
    let bonus = draft.bonus();
    let advantage = draft.advantage();
    let crit = draft.weapon.crit_threshold();
    let mut event = AttackRoll {
        attacker: id_of(world, draft.attacker),
        target: (!draft.aims_at_tile()).then(|| id_of(world, draft.target)),
        from: draft.from,
        at: draft.at,
        weapon: draft.weapon.name.clone(),
        mode: draft.mode,
        reaction: draft.reaction,
        modifiers: draft.modifiers.clone(),
        dice: vec![],
        kept: None,
        crit,
        advantage,
        bonus,
        total: 0,
        dv,
        degrees: 1,
        maneuver: draft.maneuver,
        contest: None,
        miss_chance: None,
    };
    if draft.auto_hit() {
        emit(world, BattleEvent::AttackRolled(Box::new(event)));
        let result = AttackResult {
            degrees: 1,
            kept: None,
            total: 0,
            answered: false,
            reduce: 0,
            absorb: 0,
            zone: None,
        };
        return (draft, result);
    }
    // Die ranks (V6): the attacker's dice against the defender's.
    if let Some(contest) = draft.contest.clone() {
        let rolled = roll_contest(world, &contest);
        event.total = rolled.attack.kept as i32;
        event.dv = rolled.defence.kept as i32;
        event.degrees = rolled.successes as i32;
        event.contest = Some(rolled);
        emit(world, BattleEvent::AttackRolled(Box::new(event.clone())));
        // The defender's answer was rolled with the contest: no R8.6
        // parry follows, and the rule of the contest settles its cost.
        let mut hit = Hit::new(draft, None, event.total, event.degrees);
        hit.answer_declared = true;
        let hit = run(world, HitSchedule::Answer, hit);
        let result = AttackResult {
            degrees: hit.degrees,
            kept: None,
            total: hit.total,
            answered: false,
            reduce: 0,
            absorb: 0,
            zone: None,
        };
        return (hit.draft, result);
    }
    let count = 1 + advantage.unsigned_abs();
    let dice: Vec<u32> = (0..count)
        .map(|_| world.resource_mut::<crate::dice::Dice>().roll(20))
        .collect();
    let kept = if advantage >= 0 {
        *dice.iter().max().unwrap_or(&1)
    } else {
        *dice.iter().min().unwrap_or(&1)
    };
    // Energy (V5.10): the kept d20 meets the Miss Chance, its evasion d4s
    // rolled right after the d20s.
    if let Some(chance) = draft.miss_chance.clone() {
        let rolled = crate::rules::miss_chance::roll(&chance, |n, sides| {
            world
                .resource_mut::<crate::dice::Dice>()
                .roll_many(n, sides)
        });
        let d = chance.degrees(kept, rolled.total);
        (event.dice, event.kept, event.crit) = (dice, Some(kept), 20);
        (event.bonus, event.total, event.dv) = (0, kept as i32, rolled.total);
        event.degrees = d;
        event.miss_chance = Some(rolled);
        emit(world, BattleEvent::AttackRolled(Box::new(event)));
        let hit = run(
            world,
            HitSchedule::Answer,
            Hit::new(draft, Some(kept), kept as i32, d),
        );
        let result = AttackResult {
            degrees: hit.degrees,
            kept: Some(kept),
            total: kept as i32,
            answered: hit.answered_away(),
            reduce: hit.reduce,
            absorb: hit.absorb,
            zone: hit.zone,
        };
        return (hit.draft, result);
    }
    let total = kept as i32 + bonus;
    let d = degrees(kept, total, threshold, crit);
    event.dice = dice;
    event.kept = Some(kept);
    event.total = total;
    event.degrees = d;
    emit(world, BattleEvent::AttackRolled(Box::new(event)));
    // The defender answers the hit (R8.6's parry, or an answer declared
    // with the attack, V2), before the damage dice.
    let hit = run(
        world,
        HitSchedule::Answer,
        Hit::new(draft, Some(kept), total, d),
    );
    let result = AttackResult {
        degrees: hit.degrees,
        kept: Some(kept),
        total,
        answered: hit.answered_away(),
        reduce: hit.reduce,
        absorb: hit.absorb,
        zone: hit.zone,
    };
    (hit.draft, result)
}

/// Rolls a contest (V6.3): the attacker's dice, then the defender's
/// (VARIANTS.md's dice order), each keeping its best or worst (R0.4).
pub fn roll_contest(world: &mut World, contest: &Contest) -> ContestRoll {
    let mut roll_pool = |pool: &Pool| {
        let dice = world
            .resource_mut::<crate::dice::Dice>()
            .roll_many(pool.count(), pool.sides);
        PoolRoll {
            kept: pool.keep(&dice),
            pool: pool.clone(),
            dice,
        }
    };
    let attack = roll_pool(&contest.attack);
    let defence = roll_pool(&contest.defence);
    ContestRoll {
        successes: successes(attack.kept, defence.kept, contest.cap),
        attack,
        defence,
        guard: contest.guard,
    }
}

/// R7.3: a natural 1 that misses makes a melee attacker drop its weapon in
/// its own tile; it threatens and flanks with what it has left (R4.4).
/// `weapon`: the one that falls, the weapon the blow was struck with (an
/// archer fumbling with its sword keeps its bow); `None` for the one in
/// hand, the first. `injured`: from a hurt hand or arm (V3), not a fumble.
/// A blow without a held weapon (unarmed) drops nothing.
pub fn drop_weapon(world: &mut World, unit: Entity, weapon: Option<&str>, injured: bool) {
    let Some(pos) = world.get::<GridPos>(unit).copied() else {
        return;
    };
    // `weapon_of` reads the hands as an attack does: the named weapon if
    // held, else the first; with none held, "unarmed", which drops nothing.
    let Ok(held) = weapon_of(world, unit, weapon) else {
        return;
    };
    // A body's own weapon stays where it grows (hooves, R7.3 *decision*).
    if held.has(crate::format::WeaponTrait::Natural) {
        return;
    }
    let dropped = change_inventory(world, unit, |inv| {
        let at = inv.weapons.iter().position(|w| *w == held.name)?;
        Some(inv.weapons.remove(at))
    });
    let Some(Some(weapon)) = dropped else {
        return;
    };
    world.spawn((
        GroundObject {
            name: weapon.clone(),
        },
        pos,
    ));
    let unit = id_of(world, unit);
    emit(
        world,
        BattleEvent::WeaponDropped {
            unit,
            weapon,
            at: pos.0,
            injured,
        },
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
    let name = |e: Entity| name_of(world, e);
    let (who, whom) = (name(draft.attacker), name(draft.target));
    if draft.attacker == draft.target {
        return Err(Refusal::new(
            Rule::R7,
            format!("{who} cannot attack itself"),
        ));
    }
    if world.get::<Side>(draft.attacker) == world.get::<Side>(draft.target) {
        return Err(Refusal::new(
            Rule::R7,
            format!("{whom} is an ally of {who}"),
        ));
    }
    if world.entity(draft.target).contains::<Dead>() {
        return Err(Refusal::new(Rule::R7, format!("{whom} is dead")));
    }
    if draft.mode == AttackMode::Melee {
        // R0.3 between the nearest tiles of the two bodies (V10.6).
        let mut at = draft.clone();
        at.at = crate::battle::body_of(world, draft.target).map_or(draft.at, |b| b.at);
        at.sides = (
            crate::battle::side_of_body(world, draft.attacker),
            crate::battle::side_of_body(world, draft.target),
        );
        let distance = at.distance();
        // R7.8 Lunge: +1 reach for this attack; V10.4 the size's.
        let reach = crate::battle::reach_with(world, draft.attacker, draft.weapon.reach)
            + i32::from(draft.lunge);
        if distance > reach {
            return Err(Refusal::new(
                Rule::R7_5,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crit_threshold_keeps_1_a_miss_and_20_a_crit() {
        let mut w = unarmed();
        for (crit, threshold) in [(1, 2), (2, 2), (19, 19), (20, 20), (25, 20)] {
            w.crit = crit;
            assert_eq!(w.crit_threshold(), threshold, "crit {crit}");
        }
        // With the lowest threshold a natural 1 still takes a degree away,
        // and a 2 hits even below the DV (R7.3).
        assert_eq!(degrees(1, 30, 10, 2), 3);
        assert_eq!(degrees(2, 5, 10, 2), 1);
    }
}
