//! R4.7 Charge: at least 2 tiles in one straight line, up to Speed, ending
//! with the target in reach, then one melee attack with +1 advantage; until
//! the charger's next turn, melee attacks against it have +1 advantage.

use crate::battle::{ActionPoints, Charged, GridPos, Prone};
use crate::grid::{Dir, Pos};
use crate::rules::attacks::resolution::{check_attack, draft_for, resolve};
use crate::rules::command::CommandKind;
use crate::rules::command::Refusal;
use crate::rules::events::{BattleEvent, Opening, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::motion::movement::{Occupant, step_block, step_cost, view_for, walk};
use crate::rules::pipeline::Pending;
use crate::rules::positioning::facing::face_towards;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    crate::rules::pipeline::handle(app, CommandKind::Charge, validate_charge, execute_charge);
    app.add_systems(
        AttackSchedule,
        add_charge_modifiers.in_set(AttackSystems::Situational),
    );
}

/// The charge path the rules choose *(decision)*: the shortest straight
/// line (2 tiles or more, within Speed) that ends on a free tile with the
/// target in reach; ties go to the first direction clockwise from north.
pub fn charge_path(world: &mut World, unit: Entity, target: Entity) -> Result<Vec<Pos>, Refusal> {
    charge_plan(world, unit, target).map(|(path, _)| path)
}

/// [`charge_path`] with its movement cost (R5.1).
pub fn charge_plan(
    world: &mut World,
    unit: Entity,
    target: Entity,
) -> Result<(Vec<Pos>, u32), Refusal> {
    let (level, occ, at) = view_for(world, unit);
    let map = &level.map;
    let speed = crate::rules::motion::movement::speed_of(world, unit);
    let to = world.get::<GridPos>(target).map_or(at, |p| p.0);
    let weapon = crate::rules::attacks::resolution::weapon_of(world, unit, None)?;
    if weapon.is_ranged() {
        return Err(Refusal::new(
            Rule::R4_7,
            "a charge ends with a melee attack",
        ));
    }
    let mut best: Option<(Vec<Pos>, u32)> = None;
    for dir in Dir::ALL {
        let mut state = (at, false);
        let mut cost = 0;
        let mut path = vec![];
        while cost <= speed {
            if step_block(map, &occ, state.0, dir).is_some() {
                break;
            }
            let (next, c) = step_cost(map, state, dir);
            cost += c;
            if cost > speed {
                break;
            }
            state = next;
            path.push(state.0);
            let ends_here = path.len() >= 2
                && occ.at(state.0) == Occupant::Empty
                && state.0.distance(to) <= weapon.reach;
            if ends_here {
                if best.as_ref().is_none_or(|b| path.len() < b.0.len()) {
                    best = Some((path.clone(), cost));
                }
                break;
            }
        }
    }
    best.ok_or_else(|| {
        Refusal::new(
            Rule::R4_7,
            "no straight line of 2 tiles or more within Speed ends with the target in reach",
        )
    })
}

fn validate_charge(world: &mut World) {
    let result = crate::rules::pipeline::actor_and_target(world).and_then(|(actor, target)| {
        if world.entity(actor).contains::<Prone>() {
            return Err(Refusal::new(
                Rule::R4_8,
                "a prone unit cannot charge; stand up first",
            ));
        }
        if world.get::<ActionPoints>(actor).is_some_and(|a| a.defended) {
            return Err(Refusal::new(
                Rule::R4_6,
                "after Defend a unit makes no more attacks this turn",
            ));
        }
        let (path, cost) = charge_plan(world, actor, target)?;
        let mut draft = draft_for(world, actor, target, None)?;
        draft.from = *path.last().unwrap_or(&draft.from);
        draft.charge = true;
        check_attack(world, &draft)?;
        Ok((path, cost))
    });
    match result {
        Ok((path, cost)) => {
            world.resource_mut::<Pending>().plan = Some(crate::rules::pipeline::MovePlan {
                cost,
                path,
                triggers: None,
            })
        }
        Err(r) => world.resource_mut::<Pending>().refuse(r),
    }
}

fn execute_charge(world: &mut World) {
    let Ok((actor, target)) = crate::rules::pipeline::actor_and_target(world) else {
        return;
    };
    let planned = world.resource_mut::<Pending>().plan.take();
    let Some(path) = planned
        .map(|p| p.path)
        .or_else(|| charge_path(world, actor, target).ok())
    else {
        return;
    };
    if walk(world, actor, &path, None) < path.len() {
        return; // dropped by a reactive attack on the way (R8.4)
    }
    face_towards(world, actor, target);
    world.entity_mut(actor).insert(Charged);
    let unit = id_of(world, actor);
    emit(
        world,
        BattleEvent::Opened {
            unit,
            by: Opening::Charge,
        },
    );
    let Ok(mut draft) = draft_for(world, actor, target, None) else {
        return;
    };
    draft.charge = true;
    if let Some(mut ap) = world.get_mut::<ActionPoints>(actor) {
        ap.attacks += 1;
    }
    resolve(world, draft);
}

/// +1 advantage for the charge's attack; +1 advantage for melee attacks
/// against a unit that charged since its last turn (R4.7).
fn add_charge_modifiers(mut draft: ResMut<AttackDraft>, charged: Query<Has<Charged>>) {
    if draft.charge {
        draft.push(Effect::Advantage(1), "charge", Rule::R4_7);
    }
    if draft.mode == AttackMode::Melee && charged.get(draft.target).unwrap_or(false) {
        draft.push(Effect::Advantage(1), "target charged", Rule::R4_7);
    }
}
