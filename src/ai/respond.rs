//! The answers every profile gives alike: a held attack's answer (V2) and
//! what stands in for a refused command.

use crate::rules::command::Command;
use bevy::prelude::*;

/// V2: the answer to the held attack on `defender` that lets the least
/// damage through, as the rules pick for sides that always react; under
/// die ranks (V6.5) the harm and chance to drop it saves, weighed against
/// the AP it will owe (`die_ranks::defences::best`).
pub fn answer_attack(world: &mut World, defender: Entity) -> Command {
    let unit = crate::battle::name_of(world, defender);
    let guard = crate::rules::variants::held_attack_best(world, defender);
    Command::React {
        unit,
        take: guard.is_some(),
        guard,
    }
}

/// What to send instead of a refused AI command (an AI bug, told in the
/// log), so a battle never stalls: decline the reaction, else end the turn.
pub fn fallback(command: Command) -> Command {
    match command {
        Command::React { unit, .. } => Command::React {
            unit,
            take: false,
            guard: None,
        },
        _ => Command::EndTurn,
    }
}
