//! R4.7 Charge: at least 2 tiles in one straight line, up to Speed, ending
//! with the target in reach, then one melee attack with +1 advantage; until
//! the charger's next turn, melee attacks against it have +1 advantage.
//!
//! A charge of 3 tiles or more may end in a shove instead (`shove: true`,
//! V7.7's charge-shove, maneuvers): it runs to a tile beside the target and
//! leaves the shove to the maneuvers ([`ChargeShove`]).

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
    charge_plan_for(world, unit, target, false)
}

/// The charge's straight run, ending in an attack or, with `shove`, in a
/// charge-shove: at least 3 tiles, ending beside the target (V7.7).
pub fn charge_plan_for(
    world: &mut World,
    unit: Entity,
    target: Entity,
    shove: bool,
) -> Result<(Vec<Pos>, u32), Refusal> {
    let (level, occ, at) = view_for(world, unit);
    let map = &level.map;
    let speed = crate::rules::motion::movement::speed_of(world, unit);
    let to = crate::battle::body_of(world, target).unwrap_or(occ.body_at(at));
    let weapon = crate::rules::attacks::resolution::weapon_of(world, unit, None)?;
    if weapon.is_ranged() && !shove {
        return Err(Refusal::new(
            Rule::R4_7,
            "a charge ends with a melee attack",
        ));
    }
    let reach = crate::battle::reach_with(world, unit, weapon.reach);
    let (reach, shortest) = if shove { (1, 3) } else { (reach, 2) };
    let mut best: Option<(Vec<Pos>, u32)> = None;
    for dir in Dir::ALL {
        let mut state = (at, false);
        let mut cost = 0;
        let mut path = vec![];
        while cost <= speed {
            if step_block(map, &occ, state.0, dir).is_some() {
                break;
            }
            let (next, c) = step_cost(map, &occ, state, dir);
            cost += c;
            if cost > speed {
                break;
            }
            state = next;
            path.push(state.0);
            let ends_here = path.len() >= shortest
                && occ.under(state.0) == Occupant::Empty
                && occ.body_at(state.0).gap(to) <= reach;
            if ends_here {
                if best.as_ref().is_none_or(|b| path.len() < b.0.len()) {
                    best = Some((path.clone(), cost));
                }
                break;
            }
        }
    }
    best.ok_or_else(|| match shove {
        false => Refusal::new(
            Rule::R4_7,
            "no straight line of 2 tiles or more within Speed ends with the target in reach",
        ),
        true => Refusal::new(
            Rule::V7_7,
            "a charge-shove needs a straight line of 3 tiles or more within Speed ending beside the target",
        ),
    })
}

/// Whether the pending Charge ends in a shove (V7.7).
fn shoves(world: &World) -> bool {
    matches!(
        world.resource::<Pending>().command,
        Some(crate::rules::command::Command::Charge { shove: true, .. })
    )
}

/// A charge-shove that reached its target, for the maneuvers to resolve
/// (V7.7): who, whom, and the charge's direction.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeShove {
    /// The charger.
    pub unit: Entity,
    /// The target.
    pub target: Entity,
    /// The direction of the run: the push goes on that way.
    pub dir: Dir,
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
        let shove = shoves(world);
        let (path, cost) = charge_plan_for(world, actor, target, shove)?;
        // A charge-shove's shove is checked by the maneuvers (V7.7).
        if !shove {
            let mut draft = draft_for(world, actor, target, None)?;
            draft.from = *path.last().unwrap_or(&draft.from);
            draft.charge = true;
            check_attack(world, &draft)?;
        }
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

/// The Charge, carried out: the run, the opening (R4.7), then the attack
/// (or, for a charge-shove, the shove the maneuvers make, V7.7).
pub fn execute_charge(world: &mut World) {
    let Ok((actor, target)) = crate::rules::pipeline::actor_and_target(world) else {
        return;
    };
    let planned = world.resource_mut::<Pending>().plan.take();
    let shove = shoves(world);
    let Some(path) = planned.map(|p| p.path).or_else(|| {
        charge_plan_for(world, actor, target, shove)
            .ok()
            .map(|p| p.0)
    }) else {
        return;
    };
    let start = world.get::<GridPos>(actor).map_or(Pos::default(), |p| p.0);
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
    if shove {
        let dir = Dir::towards(start, path[0]).unwrap_or(Dir::N);
        world.insert_resource(ChargeShove {
            unit: actor,
            target,
            dir,
        });
        return;
    }
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
