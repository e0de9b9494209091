//! R8.6 parry: hit by a melee attack from its front arc, a unit with a
//! reaction and 1 stamina left may parry, taking degrees off the hit. It is
//! the defender's reactive answer ([`AnswerSystems::Reactive`]): a level
//! whose defenders declare their answers (active defence, V2) has none.

use super::policy::{ReactionPolicy, policy_of};
use crate::battle::{OffGuard, Prone, Reactions, Side, Stamina, Stats, out_of_action};
use crate::dice::Dice;
use crate::format::{UnitTemplate, Weapon};
use crate::rules::attacks::hit::{AnswerSystems, Hit, HitSchedule};
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode};
use crate::rules::positioning::facing::is_rear_attack;
use crate::rules::positioning::threat::melee_weapon_for;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        HitSchedule::Answer,
        parry_the_hit.in_set(AnswerSystems::Reactive),
    );
}

/// The defender of a melee hit parries it if it can (R8.6), unless an
/// answer declared with the attack rules the hit (V2).
fn parry_the_hit(world: &mut World) {
    let hit = world.resource::<Hit>();
    if hit.answer_declared
        || hit.degrees <= 0
        || hit.draft.mode != AttackMode::Melee
        || hit.draft.unanswerable
    {
        return;
    }
    let (draft, total, degrees) = (hit.draft.clone(), hit.total, hit.degrees);
    let left = parry(world, &draft, total, degrees);
    world.resource_mut::<Hit>().degrees = left;
}

/// R8.6: the degrees left after a parry that beat the attack by `m`: it
/// loses `1 + floor(m / 5)`; 0 means deflected.
pub fn degrees_after_parry(degrees: i32, m: i32) -> i32 {
    (degrees - 1 - m / 5).max(0)
}

/// What a parry adds to its die (R8.6, and V2's Parry Value before the
/// weapon's own `parry`): MB + the better of STR and DEX + the weapon's
/// attack bonus.
pub fn parry_bonus(t: &UnitTemplate, weapon: &Weapon) -> i32 {
    t.mb + t.str.max(t.dex) + weapon.attack_bonus
}

/// R8.6 parry: the target rolls its own attack (d20 + MB + attribute +
/// weapon bonus, no situational modifiers, *decision*); beating the
/// attacker's `total` by `m` takes `1 + floor(m / 5)` degrees off. Returns
/// the degrees left (0: deflected). A target that cannot parry (off-guard,
/// prone, out of reactions or stamina, hit from the rear, R4.3) takes the
/// hit as rolled.
pub fn parry(world: &mut World, draft: &AttackDraft, total: i32, degrees: i32) -> i32 {
    let target = draft.target;
    let policy = world.get::<Side>(target).map(|s| policy_of(world, s.0));
    let able = draft.mode == AttackMode::Melee
        && policy.is_some_and(|p| p != ReactionPolicy::Never)
        && !out_of_action(world, target)
        && !world.entity(target).contains::<OffGuard>()
        && !world.entity(target).contains::<Prone>()
        && world.get::<Reactions>(target).is_some_and(|n| n.0 > 0)
        // Under Energy never the last point: 0 is unconscious (V5.3).
        && world
            .get::<Stamina>(target)
            .is_some_and(|s| s.0 > i32::from(crate::battle::energy(world)))
        && !is_rear_attack(world, draft.from_tile(), target)
        && !draft.unseen;
    if !able {
        return degrees;
    }
    let Some(weapon) = melee_weapon_for(world, target, 1) else {
        return degrees;
    };
    if let Some(mut n) = world.get_mut::<Reactions>(target) {
        n.0 -= 1;
    }
    if let Some(mut s) = world.get_mut::<Stamina>(target) {
        s.0 -= 1;
    }
    let bonus = world
        .get::<Stats>(target)
        .map_or(weapon.attack_bonus, |s| parry_bonus(&s.template, &weapon));
    // R0.4 on the parry's d20: a giant's blow is parried at +1
    // disadvantage (V10.5), the worst of two kept.
    let count = 1 + draft.parry_advantage().unsigned_abs();
    let rolled: Vec<u32> = (0..count)
        .map(|_| world.resource_mut::<Dice>().roll(20))
        .collect();
    let roll = if draft.parry_advantage() < 0 {
        rolled.iter().copied().min().unwrap_or(1)
    } else {
        rolled.iter().copied().max().unwrap_or(1)
    };
    let dice = if rolled.len() > 1 { rolled } else { vec![] };
    let parry_total = roll as i32 + bonus;
    let m = parry_total - total;
    let left = if m > 0 {
        degrees_after_parry(degrees, m)
    } else {
        degrees
    };
    let unit = id_of(world, target);
    emit(
        world,
        BattleEvent::Parried {
            unit,
            weapon: weapon.name.clone(),
            roll,
            dice,
            bonus,
            total: parry_total,
            against: total,
            degrees_left: left,
        },
    );
    left
}
