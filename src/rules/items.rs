//! Objects: picking up what lies on the ground (R9.5, R3 table) and
//! drinking or giving potions (R10.5, R3 table).

use super::CommandKind;
use super::Pending;
use super::Rule;
use super::command::{Command, Refusal};
use super::dying::heal;
use super::events::{BattleEvent, emit, id_of};
use crate::battle::{Battlefield, GridPos, GroundObject, Inventory, Side};
use crate::dice::Dice;
use crate::grid::Pos;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    super::handle(app, CommandKind::PickUp, validate_pick_up, execute_pick_up);
    super::handle(
        app,
        CommandKind::DrinkPotion,
        validate_drink_potion,
        execute_drink_potion,
    );
}

/// The object called `item` that `unit` can reach: in its own tile first,
/// then the adjacent ones, the earliest spawned first.
pub fn reachable_object(world: &mut World, unit: Entity, item: &str) -> Option<(Entity, Pos)> {
    let at = world.get::<GridPos>(unit)?.0;
    let mut found: Vec<(i32, Entity, Pos)> = world
        .query::<(Entity, &GroundObject, &GridPos)>()
        .iter(world)
        .filter(|(_, o, p)| o.name == item && p.0.chebyshev(at) <= 1)
        .map(|(e, _, p)| (p.0.chebyshev(at), e, p.0))
        .collect();
    found.sort_by_key(|(d, e, _)| (*d, *e));
    found.first().map(|(_, e, p)| (*e, *p))
}

fn pick_up_args(world: &World) -> Option<(Entity, String)> {
    let pending = world.resource::<Pending>();
    match (&pending.command, pending.actor) {
        (Some(Command::PickUp { item, .. }), Some(a)) => Some((a, item.clone())),
        _ => None,
    }
}

fn validate_pick_up(world: &mut World) {
    let Some((actor, item)) = pick_up_args(world) else {
        return;
    };
    if reachable_object(world, actor, &item).is_none() {
        world.resource_mut::<Pending>().refuse(Refusal::new(
            Rule::R9_5,
            format!("no \"{item}\" lies in or next to the unit's tile"),
        ));
    }
}

/// A picked-up weapon is wielded when the unit's hands are empty, otherwise
/// it joins the weapons the unit carries, to be used by name
/// (`Attack(weapon: ...)`); a second of a weapon already carried goes to the
/// pack with the items *(decision)*.
fn execute_pick_up(world: &mut World) {
    let Some((actor, item)) = pick_up_args(world) else {
        return;
    };
    // R8.2: picking up in a threatened tile provokes, before the pick.
    if !super::reactions::provoke(world, actor, super::reactions::Trigger::PickUp) {
        return;
    }
    let Some((object, at)) = reachable_object(world, actor, &item) else {
        return;
    };
    world.despawn(object);
    let is_weapon = world
        .resource::<Battlefield>()
        .0
        .catalog
        .weapon(&item)
        .is_some();
    // R4.4: a melee weapon picked up threatens at once.
    crate::battle::change_inventory(world, actor, |inv| {
        if is_weapon && !inv.weapons.contains(&item) {
            inv.weapons.push(item.clone());
        } else {
            inv.add(&item);
        }
    });
    let unit = id_of(world, actor);
    emit(
        world,
        BattleEvent::PickedUp {
            unit,
            object: item,
            at,
        },
    );
}

/// The first carried item that heals: what DrinkPotion drinks or gives
/// (R10.5).
pub fn potion_of(world: &World, unit: Entity) -> Option<String> {
    let catalog = &world.resource::<Battlefield>().0.catalog;
    world
        .get::<Inventory>(unit)?
        .items
        .iter()
        .find_map(|(name, count)| {
            (*count > 0 && catalog.item(name).is_some_and(|i| i.heal.is_some()))
                .then(|| name.clone())
        })
}

fn drink_args(world: &mut World) -> Result<(Entity, Entity, String), Refusal> {
    let pending = world.resource::<Pending>();
    let (Some(Command::DrinkPotion { target, .. }), Some(actor)) =
        (pending.command.clone(), pending.actor)
    else {
        return Err(Refusal::unknown("potion: not a DrinkPotion command"));
    };
    let drinker = match target {
        Some(_) => world.resource::<Pending>().target.unwrap_or(actor),
        None => actor,
    };
    let who = super::name_of(world, actor);
    let potion = potion_of(world, actor)
        .ok_or_else(|| Refusal::new(Rule::R10_5, format!("{who} carries no potion")))?;
    Ok((actor, drinker, potion))
}

fn validate_drink_potion(world: &mut World) {
    let result = drink_args(world).and_then(|(actor, drinker, _)| {
        if actor == drinker {
            return Ok(());
        }
        let whom = super::name_of(world, drinker);
        if world.get::<Side>(actor) != world.get::<Side>(drinker) {
            return Err(Refusal::new(Rule::R10_5, format!("{whom} is not an ally")));
        }
        if world.entity(drinker).contains::<crate::battle::Dead>() {
            return Err(Refusal::new(Rule::R10_5, format!("{whom} is dead")));
        }
        let (a, b) = (world.get::<GridPos>(actor), world.get::<GridPos>(drinker));
        match (a, b) {
            (Some(a), Some(b)) if a.0.is_adjacent(b.0) => Ok(()),
            _ => Err(Refusal::new(Rule::R10_5, format!("{whom} is not adjacent"))),
        }
    });
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn execute_drink_potion(world: &mut World) {
    let Ok((actor, drinker, potion)) = drink_args(world) else {
        return;
    };
    let Some(dice) = world
        .resource::<Battlefield>()
        .0
        .catalog
        .item(&potion)
        .and_then(|i| i.heal.clone())
    else {
        return;
    };
    crate::battle::change_inventory(world, actor, |inv| inv.take(&potion));
    let rolls = world
        .resource_mut::<Dice>()
        .roll_many(dice.count, dice.sides);
    let amount = (rolls.iter().map(|&r| r as i32).sum::<i32>() + dice.bonus).max(0);
    let event = BattleEvent::PotionUsed {
        unit: id_of(world, actor),
        drinker: id_of(world, drinker),
        potion,
        dice: dice.to_string(),
        rolls,
        amount,
    };
    emit(world, event);
    heal(world, drinker, amount);
}
