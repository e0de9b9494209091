//! V5.8 Exposed and Unguarded (002:456–477), V5.11's kept d20 in melee and
//! V5.10's in a shot (a 20 exposes the target and passes its armor; 1–3
//! expose the attacker until the end of the next round), and V5.12 Defend:
//! it clears both (not a parent's: prone keeps a unit Exposed) and ends
//! when its unit attacks, or at once when taken after a run past Speed.
//!
//! Conditions come from what a command did: once it is carried out, its
//! events are read in order (a stand-up, a pick-up, a push, a landing, a
//! roll) and each cause applies. Both last until the end of the round
//! (002:460, 468), a fumble's until the end of the next.

use super::switch::switched_on;
use crate::battle::{Defending, Guardless, Roster, UnitId};
use crate::rules::TurnState;
use crate::rules::attacks::hit::{Hit, HitSchedule};
use crate::rules::command::{Command, ManeuverKind};
use crate::rules::events::{BattleEvent, Cause, Condition, EnergyEvent, emit, id_of};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Pending, command_events};
use bevy::prelude::*;

/// The actor of a maneuver against a target that was not Exposed as the
/// command began (002:477).
#[derive(Resource, Clone, Copy, Debug, Default)]
struct Overreach(Option<Entity>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Overreach>()
        .add_systems(
            CommandSchedule,
            (
                note_an_overreach
                    .in_set(CommandSystems::Identify)
                    .after(crate::rules::turns::turn::identify_actor)
                    .run_if(switched_on),
                apply_what_the_command_caused
                    .in_set(CommandSystems::Advance)
                    .before(crate::rules::turns::turn::advance_turn)
                    .run_if(switched_on),
            ),
        )
        .add_systems(
            HitSchedule::Land,
            pass_armor_on_a_kept_20
                .after(crate::rules::variants::hit_zones::land_on_a_zone)
                .run_if(switched_on),
        );
}

/// Notes, before the command changes anything, whether it is a maneuver
/// against a target not Exposed (002:477).
fn note_an_overreach(world: &mut World) {
    let pending = world.resource::<Pending>();
    let overreach = match (&pending.command, pending.actor, pending.target) {
        (Some(Command::Maneuver { kind, .. }), Some(actor), Some(target))
            if *kind != ManeuverKind::Escape
                && !crate::rules::variants::maneuvers::roll::is_exposed(world, target) =>
        {
            Some(actor)
        }
        _ => None,
    };
    world.insert_resource(Overreach(overreach));
}

/// V5.10, V5.11: a kept natural 20 deals its damage straight to HP; a
/// shot's log line says so, a blow's is told here.
fn pass_armor_on_a_kept_20(world: &mut World) {
    let mut hit = world.resource_mut::<Hit>();
    if hit.kept != Some(20) || hit.draft.maneuver.is_some() || hit.down {
        return;
    }
    hit.armor = Some(0);
    let (target, shot) = (hit.draft.target, hit.draft.miss_chance.is_some());
    if !shot {
        let unit = id_of(world, target);
        emit(world, BattleEvent::Energy(EnergyEvent::PastArmor { unit }));
    }
}

/// After a command: each cause among its events, in order (V5.8), and
/// Defend's clearing and end (V5.12).
fn apply_what_the_command_caused(world: &mut World) {
    let Overreach(overreach) = *world.resource::<Overreach>();
    let events = command_events(world);
    let round = world.resource::<TurnState>().round;
    let entity = |world: &World, id: UnitId| {
        world
            .get_resource::<Roster>()
            .and_then(|r| r.units().get(id.0 as usize).copied())
    };
    if let Some(actor) = overreach {
        impose(
            world,
            actor,
            Condition::Unguarded,
            Cause::Overreached,
            round,
        );
    }
    for event in events {
        let (unit, condition, cause, until) = match event {
            BattleEvent::StoodUp { unit } => (unit, Condition::Unguarded, Cause::StoodUp, round),
            BattleEvent::PickedUp { unit, .. } => {
                (unit, Condition::Exposed, Cause::PickedUp, round)
            }
            BattleEvent::Shoved { unit, .. } => (unit, Condition::Unguarded, Cause::Pushed, round),
            BattleEvent::Jumped(j) if j.outcome == crate::rules::events::JumpOutcome::Landed => {
                (j.unit, Condition::Unguarded, Cause::Landed, round)
            }
            BattleEvent::Defended { unit, .. } => {
                if let Some(e) = entity(world, unit) {
                    clear(world, e);
                    // It lasts until the unit has moved more than its
                    // Speed this round: taken after such a run, it clears
                    // and ends at once (V5.12; a decision, DECISIONS.md).
                    if super::costs::ran_past_speed(world, e) {
                        world.entity_mut(e).remove::<Defending>();
                        emit(
                            world,
                            BattleEvent::Energy(EnergyEvent::DefendEnded { unit }),
                        );
                    }
                }
                continue;
            }
            BattleEvent::AttackRolled(a) => {
                if let Some(e) = entity(world, a.attacker)
                    && world.entity(e).contains::<Defending>()
                {
                    world.entity_mut(e).remove::<Defending>();
                    emit(
                        world,
                        BattleEvent::Energy(EnergyEvent::DefendEnded { unit: a.attacker }),
                    );
                }
                match (a.maneuver, a.kept) {
                    (Some(ManeuverKind::Shove), _) if a.degrees == 0 => {
                        (a.attacker, Condition::Unguarded, Cause::Pushed, round)
                    }
                    (None, Some(20)) if a.target.is_some() => (
                        a.target.unwrap_or(a.attacker),
                        Condition::Exposed,
                        Cause::Critical,
                        round,
                    ),
                    (None, Some(1..=3)) => {
                        (a.attacker, Condition::Exposed, Cause::Fumbled, round + 1)
                    }
                    _ => continue,
                }
            }
            _ => continue,
        };
        if let Some(e) = entity(world, unit) {
            impose(world, e, condition, cause, until);
        }
    }
}

/// `unit` becomes `condition` until the end of round `until` (a longer
/// spell already running stands), told.
pub fn impose(world: &mut World, unit: Entity, condition: Condition, cause: Cause, until: u32) {
    if crate::battle::out_of_action(world, unit) {
        return;
    }
    let mut g = world.get::<Guardless>(unit).copied().unwrap_or_default();
    let slot = match condition {
        Condition::Exposed => &mut g.exposed,
        Condition::Unguarded => &mut g.unguarded,
    };
    if slot.is_some_and(|u| u >= until) {
        return;
    }
    *slot = Some(until);
    world.entity_mut(unit).insert(g);
    let unit = id_of(world, unit);
    emit(
        world,
        BattleEvent::Energy(EnergyEvent::Became {
            unit,
            condition,
            cause,
            until,
        }),
    );
}

/// Defend clears Exposed and Unguarded (V5.12); prone, their parent,
/// stays.
fn clear(world: &mut World, unit: Entity) {
    let had = world
        .get::<Guardless>(unit)
        .is_some_and(|g| g.exposed.is_some() || g.unguarded.is_some());
    if had {
        world.entity_mut(unit).insert(Guardless::default());
        let unit = id_of(world, unit);
        emit(world, BattleEvent::Energy(EnergyEvent::Cleared { unit }));
    }
}
