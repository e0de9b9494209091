//! V5.1–V5.4: turns stay (R2), but Energy is a budget per round, set by
//! Stamina as the round begins (002:53–62), with Agility beside it
//! (002:88–90); and where each unit's turn began, for the movement term of
//! the Miss Chance (V5.10).

use super::switch::switched_on;
use crate::battle::{
    ActionPoints, Budget, GridPos, Guardless, Slowed, Stamina, Stats, Stride, energy_of_stamina,
    out_of_action,
};
use crate::rules::TurnState;
use crate::rules::events::{BattleEvent, EnergyEvent, emit, id_of};
use crate::rules::turns::turn::{RoundBegins, TurnBegins};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(RoundBegins, set_round_budgets.run_if(switched_on))
        .add_systems(TurnBegins, note_where_the_turn_began.run_if(switched_on));
}

/// The Agility a unit has each round (V5.4): its template's (3 unless it
/// says otherwise), none while slowed (002:674).
pub fn agility_of(world: &World, unit: Entity) -> i32 {
    if world.get::<Slowed>(unit).is_some_and(|s| s.0 > 0) {
        return 0;
    }
    world
        .get::<Stats>(unit)
        .map_or(3, |s| s.template.agility.max(0))
}

/// As a round begins: every unit in action gets Energy by its Stamina and
/// its Agility anew, its Swift Attack and its Stamina stand-in back
/// (V5.2–V5.4, V5.9), and the conditions that lasted until the end of the
/// last round lift (V5.8). Told in initiative order.
fn set_round_budgets(world: &mut World) {
    let turn = world.resource::<TurnState>();
    let round = turn.round;
    let order: Vec<Entity> = turn.initiative.iter().map(|(e, _)| *e).collect();
    let mut told = vec![];
    for unit in order {
        lift_conditions(world, unit, round);
        if out_of_action(world, unit) {
            continue;
        }
        let stamina = world.get::<Stamina>(unit).map_or(0, |s| s.0);
        let energy = energy_of_stamina(stamina);
        let agility = agility_of(world, unit);
        let at = world.get::<GridPos>(unit).map(|p| p.0).unwrap_or_default();
        let mut e = world.entity_mut(unit);
        if let Some(mut ap) = e.get_mut::<ActionPoints>() {
            ap.ap = energy;
        }
        e.insert(Budget {
            agility,
            ..default()
        });
        if !e.contains::<Stride>() {
            e.insert(Stride {
                from: at,
                sprinted: false,
            });
        }
        told.push((id_of(world, unit), energy, agility, stamina));
    }
    emit(
        world,
        BattleEvent::Energy(EnergyEvent::Round { round, units: told }),
    );
}

/// Conditions that lasted until the end of a round before `round` lift.
fn lift_conditions(world: &mut World, unit: Entity, round: u32) {
    let Some(mut g) = world.get_mut::<Guardless>(unit) else {
        return;
    };
    g.exposed = g.exposed.filter(|until| *until >= round);
    g.unguarded = g.unguarded.filter(|until| *until >= round);
}

/// As a unit's turn begins: where it stands, for the movement term of the
/// Miss Chance of shots at it until its next turn (V5.10); its Agile Moves
/// from the last round are gone (V5.7).
fn note_where_the_turn_began(world: &mut World) {
    let Some(unit) = world.resource::<TurnState>().current else {
        return;
    };
    let at = world.get::<GridPos>(unit).map(|p| p.0).unwrap_or_default();
    let mut e = world.entity_mut(unit);
    e.insert(Stride {
        from: at,
        sprinted: false,
    });
    if let Some(mut b) = e.get_mut::<Budget>() {
        b.agile = 0;
    }
}
