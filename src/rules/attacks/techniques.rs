//! R7.8 stamina techniques, chosen before the roll: Power Attack (melee) and
//! Deadly Aim (ranged), up to MB stamina for +2 each; Lunge, 1 stamina for
//! +1 reach; Cleave, 1 stamina after a melee hit to attack another enemy
//! adjacent to the first. Lunge and Cleave open the attacker's defences:
//! melee attacks against it +1 advantage until its next turn.

use crate::battle::{Exposed, Stamina, Stats};
use crate::rules::attacks::resolution::{check_attack, draft_for, resolve};
use crate::rules::command::CommandKind;
use crate::rules::command::Refusal;
use crate::rules::events::{BattleEvent, Opening, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::CommandSystems;
use crate::rules::pipeline::Handles;
use crate::rules::pipeline::Pending;
use crate::rules::positioning::facing::face_towards;
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The last melee hit of the acting unit this turn, which a Cleave may
/// follow; any other command forgets it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LastHit(pub Option<(Entity, Entity)>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LastHit>()
        .add_systems(
            crate::rules::pipeline::CommandSchedule,
            (
                forget_last_hit.in_set(CommandSystems::Pay),
                validate_cleave
                    .in_set(Handles(CommandKind::Cleave))
                    .in_set(CommandSystems::Validate),
                execute_cleave
                    .in_set(Handles(CommandKind::Cleave))
                    .in_set(CommandSystems::Execute),
            ),
        )
        .add_systems(
            AttackSchedule,
            add_techniques.in_set(AttackSystems::Situational),
        );
}

/// Power Attack and Deadly Aim: attack bonus per stamina spent (R7.8).
pub const POWER_PER_STAMINA: i32 = 2;

/// The most Stamina one attack may take under Energy (V5.3, 002:80).
const ENERGY_BOOST_CAP: i32 = 4;

/// The Stamina a blow's techniques take (R7.8): its Power Attack or
/// Deadly Aim, and 1 for a Lunge.
pub fn stamina_for(power: i32, lunge: bool) -> i32 {
    power.max(0) + i32::from(lunge)
}

/// The most stamina `unit` may spend on Power Attack or Deadly Aim now
/// (R7.8): up to its MB, and what it has left after a Lunge's point;
/// under Energy at most 4, and never its last point (V5.3).
pub fn full_power(world: &World, unit: Entity, lunge: bool) -> i32 {
    let (mb, stamina) = technique_limits(world, unit);
    mb.min(stamina - i32::from(lunge)).max(0)
}

/// The most Power `unit` may put in one attack and the Stamina it may
/// spend on techniques (R7.8; V5.3 under Energy: at most 4 a blow, and
/// not the last point, which would knock it out).
fn technique_limits(world: &World, unit: Entity) -> (i32, i32) {
    let stamina = world.get::<Stamina>(unit).map_or(0, |s| s.0);
    let mb = world.get::<Stats>(unit).map_or(0, |s| s.template.mb);
    if crate::battle::energy(world) {
        (mb.min(ENERGY_BOOST_CAP), stamina - 1)
    } else {
        (mb, stamina)
    }
}

/// Refuses techniques the unit cannot use for `draft` (R7.8).
pub fn check_techniques(
    world: &World,
    draft: &AttackDraft,
    power: i32,
    lunge: bool,
) -> Result<(), Refusal> {
    let (mb, stamina) = technique_limits(world, draft.attacker);
    let rule = if crate::battle::energy(world) {
        Rule::V5_3
    } else {
        Rule::R7_8
    };
    if power < 0 || power > mb {
        return Err(Refusal::new(
            rule,
            format!("power {power}: up to MB ({mb}) stamina"),
        ));
    }
    if power > 0 && draft.mode == AttackMode::Thrown {
        return Err(Refusal::new(
            Rule::R7_8,
            "Power Attack is for melee, Deadly Aim for ranged attacks",
        ));
    }
    if lunge && draft.mode != AttackMode::Melee {
        return Err(Refusal::new(Rule::R7_8, "Lunge is for melee attacks"));
    }
    let cost = stamina_for(power, lunge);
    if cost > stamina {
        return Err(Refusal::new(
            rule,
            format!("needs {cost} stamina, has {stamina} to spare"),
        ));
    }
    Ok(())
}

/// Spends the stamina of `draft`'s techniques; Lunge opens defences.
pub fn spend(world: &mut World, draft: &AttackDraft) {
    let cost = stamina_for(draft.power, draft.lunge);
    if cost == 0 {
        return;
    }
    if let Some(mut s) = world.get_mut::<Stamina>(draft.attacker) {
        s.0 -= cost;
    }
    if draft.lunge {
        world.entity_mut(draft.attacker).insert(Exposed);
        let unit = id_of(world, draft.attacker);
        emit(
            world,
            BattleEvent::Opened {
                unit,
                by: Opening::Lunge,
            },
        );
    }
}

/// Power Attack / Deadly Aim: +2 per stamina (R7.8); melee attacks against
/// a unit that lunged or cleaved: +1 advantage.
fn add_techniques(mut draft: ResMut<AttackDraft>, exposed: Query<Has<Exposed>>) {
    if draft.power > 0 {
        let name = if draft.mode == AttackMode::Melee {
            "Power Attack"
        } else {
            "Deadly Aim"
        };
        let bonus = POWER_PER_STAMINA * draft.power;
        draft.push(Effect::Bonus(bonus), name, Rule::R7_8);
    }
    if draft.lunge {
        draft.push(Effect::Reach(1), "Lunge", Rule::R7_8);
    }
    if draft.mode == AttackMode::Melee && exposed.get(draft.target).unwrap_or(false) {
        draft.push(Effect::Advantage(1), "target exposed", Rule::R7_8);
    }
}

/// After an Attack: remember a melee hit for a Cleave.
pub fn remember_hit(world: &mut World, attacker: Entity, target: Entity, hit: bool) {
    world.resource_mut::<LastHit>().0 = hit.then_some((attacker, target));
}

fn forget_last_hit(pending: Res<Pending>, mut last: ResMut<LastHit>) {
    if !pending.is(CommandKind::Cleave) && !pending.is(CommandKind::Attack) {
        last.0 = None;
    }
}

fn check_cleave(world: &mut World) -> Result<AttackDraft, Refusal> {
    let (actor, target) = crate::rules::pipeline::actor_and_target(world)?;
    let Some((who, first)) = world.resource::<LastHit>().0 else {
        return Err(Refusal::new(Rule::R7_8, "a Cleave follows a melee hit"));
    };
    if who != actor {
        return Err(Refusal::new(
            Rule::R7_8,
            "a Cleave follows the unit's own melee hit",
        ));
    }
    if target == first {
        return Err(Refusal::new(Rule::R7_8, "a Cleave strikes another enemy"));
    }
    if !crate::battle::beside(world, first, target) {
        return Err(Refusal::new(
            Rule::R7_8,
            "the second enemy must be adjacent to the first",
        ));
    }
    // Under Energy never the last point (V5.3).
    let spare = technique_limits(world, actor).1;
    if spare < 1 {
        return Err(Refusal::new(Rule::R7_8, "a Cleave costs 1 stamina"));
    }
    let mut draft = draft_for(world, actor, target, None)?;
    // The same opening: the penalty of the attack it continues (R7.6).
    draft.earlier_attacks = draft.earlier_attacks.saturating_sub(1);
    if draft.mode != AttackMode::Melee {
        return Err(Refusal::new(Rule::R7_8, "a Cleave is a melee attack"));
    }
    check_attack(world, &draft)?;
    Ok(draft)
}

fn validate_cleave(world: &mut World) {
    if let Err(r) = check_cleave(world) {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn execute_cleave(world: &mut World) {
    let Ok(draft) = check_cleave(world) else {
        return;
    };
    let (actor, target) = (draft.attacker, draft.target);
    if let Some(mut s) = world.get_mut::<Stamina>(actor) {
        s.0 -= 1;
    }
    world.entity_mut(actor).insert(Exposed);
    let unit = id_of(world, actor);
    emit(
        world,
        BattleEvent::Opened {
            unit,
            by: Opening::Cleave,
        },
    );
    face_towards(world, actor, target);
    let result = resolve(world, draft);
    remember_hit(world, actor, target, result.degrees > 0);
}
