//! V1 side initiative (000; a level's `rules: (initiative: Sides)`): each
//! round a coin (a d2: 1 = heads) decides whether the first side listed in
//! the level or the others act first; within a side, the R2.1 order.

use crate::battle::{Battlefield, Side};
use crate::dice::Dice;
use crate::format::Initiative;
use crate::rules::events::{BattleEvent, emit};
use crate::rules::turns::turn::{OrderRound, TurnState};
use bevy::prelude::*;

/// Whether the level plays with side initiative.
pub fn on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().initiative == Initiative::Sides)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OrderRound, flip_for_the_first_side.run_if(on));
}

/// The round's coin (its d2 comes at the start of the round, after any
/// initiative d20s: FORMAT.md): 1 puts the first listed side's units first,
/// 2 the others'; each group keeps the initiative order.
fn flip_for_the_first_side(world: &mut World) {
    let round = world.resource::<TurnState>().round;
    let coin = world.resource_mut::<Dice>().roll(2);
    emit(world, BattleEvent::SideInitiative { round, coin });
    let order = world.resource::<TurnState>().order.clone();
    let first = |e: &Entity| world.get::<Side>(*e).is_some_and(|s| s.0 == 0);
    let (firsts, others): (Vec<Entity>, Vec<Entity>) = order.iter().partition(|e| first(e));
    let order = if coin == 1 {
        [firsts, others].concat()
    } else {
        [others, firsts].concat()
    };
    world.resource_mut::<TurnState>().order = order;
}
