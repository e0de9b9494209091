//! R2.1–R2.2 initiative: rolled once at the start of the battle, or fixed
//! by a scenario. (Side initiative, V1, reorders each round in
//! `variants/side_initiative.rs`.)

use crate::battle::{Battlefield, Side, Stats, UnitId};
use crate::dice::Dice;
use crate::format::Skill;
use crate::rules::events::{BattleEvent, emit};
use bevy::prelude::*;

/// Rolls initiative for every unit, in level order (FORMAT.md dice order):
/// d20 + DEX (R2.1); when a side is hidden, its units roll d20 + DEX +
/// Stealth and the others d20 + WIS + Perception (R2.2). Returns the units
/// in turn order: higher total first, then higher DEX, then level order.
pub fn roll_initiative(world: &mut World) -> Vec<(Entity, i32)> {
    let hidden: Vec<bool> = world
        .resource::<Battlefield>()
        .0
        .sides()
        .iter()
        .map(|s| s.hidden)
        .collect();
    let ambush = hidden.iter().any(|h| *h);
    let mut units: Vec<(UnitId, Entity, usize, i32, i32)> = world
        .query::<(Entity, &UnitId, &Side, &Stats)>()
        .iter(world)
        .map(|(e, id, side, stats)| {
            let t = &stats.template;
            let skill = |s| t.skills.get(&s).copied().unwrap_or(0);
            let bonus = match (ambush, hidden[side.0]) {
                (false, _) => t.dex,
                (true, true) => t.dex + skill(Skill::Stealth),
                (true, false) => t.wis + skill(Skill::Perception),
            };
            (*id, e, side.0, bonus, t.dex)
        })
        .collect();
    units.sort_by_key(|u| u.0);
    let mut rolled = Vec::new();
    for (id, entity, _, bonus, dex) in units {
        let roll = world.resource_mut::<Dice>().roll(20);
        let total = roll as i32 + bonus;
        emit(
            world,
            BattleEvent::InitiativeRolled {
                unit: id,
                roll,
                bonus,
                total,
                ambush,
            },
        );
        rolled.push((total, dex, id, entity));
    }
    rolled.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    rolled.into_iter().map(|(t, _, _, e)| (e, t)).collect()
}

/// Initiative fixed by a scenario: the named units first, in that order,
/// then the others in level order. No dice are rolled.
pub fn fixed_initiative(world: &mut World, names: &[String]) -> Vec<(Entity, i32)> {
    let mut units: Vec<(UnitId, Entity, String)> = world
        .query::<(Entity, &UnitId, &Name)>()
        .iter(world)
        .map(|(e, id, n)| (*id, e, n.to_string()))
        .collect();
    units.sort_by_key(|u| u.0);
    let rank = |name: &str| names.iter().position(|n| n == name).unwrap_or(usize::MAX);
    units.sort_by_key(|u| (rank(&u.2), u.0));
    let n = units.len() as i32;
    units
        .into_iter()
        .enumerate()
        .map(|(i, u)| (u.1, n - i as i32))
        .collect()
}
