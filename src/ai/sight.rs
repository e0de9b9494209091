//! What the AI may plan against (V8.10): the enemies its side sees; and
//! its own hiding (V8.4).

use super::utility::Plan;
use crate::battle::{Battlefield, Side, hidden_from, name_of, out_of_action, units};
use crate::rules::command::Command;
use crate::rules::pipeline::check;
use bevy::prelude::*;

/// The enemies of `side` still in the battle that it sees (V8.2): all it
/// may plan against or foresee (V8.10).
pub(super) fn enemies_in_sight(world: &World, side: usize) -> Vec<Entity> {
    units(world)
        .into_iter()
        .filter(|e| world.get::<Side>(*e).is_some_and(|s| s.0 != side))
        .filter(|e| !out_of_action(world, *e))
        .filter(|e| !hidden_from(world, *e, side))
        .collect()
}

/// V8.4: hiding, one more plan for the look-ahead's tries to weigh beside
/// `plans`, where the rules allow it and the unit is not already hidden
/// from every enemy side (it knows its own state, V8.10). The utility AI
/// has no measure of being unseen (utility1 never hides), so the plan's
/// utility is the least of the others'; the tries find what it is worth:
/// the enemy's reply cannot aim at the unit (V8.8), and its next blow
/// strikes unseen (V8.7).
pub(super) fn hide_plan(world: &mut World, me: Entity, plans: &[Plan]) -> Option<Plan> {
    let side = world.get::<Side>(me)?.0;
    let sides = world.resource::<Battlefield>().0.sides().len();
    let seen = (0..sides).any(|s| s != side && !hidden_from(world, me, s));
    let least = plans.iter().map(|p| p.value).reduce(f64::min)?;
    let hide = Command::Hide {
        unit: name_of(world, me),
    };
    (seen && check(world, hide.clone()).is_ok()).then_some(Plan {
        value: least,
        command: hide,
    })
}

/// V8.4 where the look-ahead cannot weigh plans, its side seeing no enemy
/// (V8.10): a unit about to end its turn with AP to spare hides first, if
/// the rules allow it (`plans` then holds [`hide_plan`]'s Hide). The AP
/// would be lost at the turn's end; whatever of the enemy sees its tile
/// rolls against its sneak (a failure leaves it seen, as it was), and
/// hidden it cannot be targeted (V8.8) and strikes unseen (V8.7). Puts the
/// Hide first, the others in their order after it.
pub(super) fn hide_before_ending(plans: &mut [Plan]) {
    let ends = plans.first().is_some_and(|p| p.command == Command::EndTurn);
    let hide = plans
        .iter()
        .position(|p| matches!(p.command, Command::Hide { .. }));
    if let (true, Some(i)) = (ends, hide) {
        plans[..=i].rotate_right(1);
    }
}
