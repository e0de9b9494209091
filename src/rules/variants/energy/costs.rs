//! V5.5: what each command costs under Energy, refused when the unit cannot
//! pay and paid when carried out, in Energy, Agility and Stamina (V5.3's
//! stand-in of 1 Stamina for 1 Energy once a round; never the last
//! Stamina). V5.9's Swift price, and V5.12's Defend ended by a long run.

use super::switch::switched_on;
use crate::battle::{
    ActionPoints, Budget, Defending, Stamina, Stride, name_of, run_energy, unguarded,
};
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{BattleEvent, EnergyEvent, emit, id_of};
use crate::rules::motion::charge::charge_plan_for;
use crate::rules::motion::movement::{plan_move, speed_of};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Pending, accepted};
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// Energy per AP for the commands V5.5's table does not price *(decision)*:
/// a melee attack is 1 AP under R3 and 3 Energy here.
const ENERGY_PER_AP: i32 = 3;

/// A melee attack's Energy (V5.5, 002:9).
pub const MELEE: i32 = 3;

/// What a command costs under Energy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Price {
    /// Energy (V5.2).
    pub energy: i32,
    /// Agility (V5.4).
    pub agility: i32,
    /// Stamina, not counting a stand-in (V5.3).
    pub stamina: i32,
    /// A melee attack at its Swift price: the round's Swift Attack (V5.9).
    pub swift: bool,
    /// Movement a Run or a Charge spends (V5.12 counts it).
    pub moved: u32,
}

/// The price set in Validate, paid in Pay.
#[derive(Resource, Clone, Copy, Debug)]
struct Priced {
    actor: Entity,
    price: Price,
    stand_in: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        CommandSchedule,
        (
            refuse_what_cannot_be_paid
                .in_set(CommandSystems::Validate)
                .run_if(switched_on)
                .run_if(accepted),
            pay_in_energy
                .in_set(CommandSystems::Pay)
                .run_if(switched_on),
        ),
    );
}

/// The price of `command` for `actor` now (V5.5), or why it cannot be
/// priced (a Move or a Charge the movement rules refuse: their refusal
/// stands).
pub fn price(world: &mut World, actor: Entity, command: &Command) -> Result<Price, Refusal> {
    use Command::*;
    let energy = |energy| Price {
        energy,
        ..default()
    };
    let left = world.get::<ActionPoints>(actor).map_or(0, |a| a.ap);
    let budget = world.get::<Budget>(actor).copied().unwrap_or_default();
    Ok(match command {
        Move {
            to, path, sprint, ..
        } => {
            let (_, cost) = plan_move(world, actor, *to, path.as_deref(), *sprint)?;
            let speed = speed_of(world, actor);
            if *sprint {
                // A full Run and 1 Stamina (002:25).
                Price {
                    energy: 3,
                    stamina: 1,
                    moved: cost,
                    ..default()
                }
            } else {
                Price {
                    energy: run_energy(cost, speed),
                    moved: cost,
                    ..default()
                }
            }
        }
        // A Step is 1 Energy or 2 Agility: the Agility while it lasts
        // (*decision*: Energy pays for attacks).
        Step { .. } if budget.agility >= 2 => Price {
            agility: 2,
            ..default()
        },
        Step { .. } => energy(1),
        AgileMove { .. } => Price {
            agility: 1,
            ..default()
        },
        Attack { target, weapon, .. } => {
            let w = crate::rules::attacks::resolution::weapon_of(world, actor, weapon.as_deref())?;
            let target = crate::battle::unit_named(world, target);
            if w.is_ranged() {
                energy(1 + w.load())
            } else if !budget.swift_used && target.is_some_and(|t| unguarded(world, t)) {
                // V5.9: the first melee attack of the round on an Unguarded
                // target is a Swift Attack (002:481).
                Price {
                    energy: 1,
                    swift: true,
                    ..default()
                }
            } else if w.name == crate::format::UNARMED {
                energy(2)
            } else {
                energy(MELEE)
            }
        }
        Throw { .. } | PickUp { .. } | Defend { .. } | ReadyShield { .. } => energy(1),
        DrinkPotion { target: None, .. } => energy(1),
        DrinkPotion {
            target: Some(t),
            unit,
        } => energy(if t == unit { 1 } else { 2 }),
        StandUp { .. } => energy(2),
        Stabilize { .. } => energy(3),
        Charge { target, shove, .. } => {
            let target = crate::battle::unit_named(world, target)
                .ok_or_else(|| Refusal::unknown(format!("unit \"{target}\"")))?;
            let (_, cost) = charge_plan_for(world, actor, target, *shove)?;
            let speed = speed_of(world, actor);
            Price {
                energy: run_energy(cost, speed) + MELEE,
                moved: cost,
                ..default()
            }
        }
        Maneuver { kind, .. } if kind.with_weapon() => energy(MELEE),
        // Unarmed, as a shove or a grapple (002:541).
        Maneuver { .. } => energy(2),
        CatchBreath { .. } => energy(left.clamp(1, 3)),
        Jump { .. } => Price {
            energy: ENERGY_PER_AP,
            stamina: 1,
            ..default()
        },
        other => energy(ENERGY_PER_AP * crate::rules::turns::action_points::cost(other).ap),
    })
}

/// Whether `actor` can pay `price` now, and whether 1 Stamina stands in
/// for 1 Energy (V5.3); else why not.
pub fn afford(
    world: &World,
    actor: Entity,
    command: &Command,
    price: &Price,
) -> Result<bool, Refusal> {
    let name = name_of(world, actor);
    let left = world.get::<ActionPoints>(actor).map_or(0, |a| a.ap);
    let budget = world.get::<Budget>(actor).copied().unwrap_or_default();
    let stamina = world.get::<Stamina>(actor).map_or(0, |s| s.0);
    let what = command.name();
    // A blow's Power Attack or Deadly Aim and its Lunge (R7.8) are paid by
    // the attack, after this price: they count here too, or a stand-in
    // and a full Power Attack together would take the last point.
    let techniques = match command {
        Command::Attack { power, lunge, .. } => {
            crate::rules::attacks::techniques::stamina_for(*power, *lunge)
        }
        _ => 0,
    };
    let mut stand_in = false;
    if price.energy > left {
        let spare = stamina - price.stamina - techniques - 1;
        let short = format!(
            "{what} costs {} Energy, {name} has {left} left",
            price.energy
        );
        if price.energy != left + 1 {
            return Err(Refusal::new(Rule::V5_5, short));
        } else if budget.stand_in_used {
            return Err(Refusal::new(
                Rule::V5_3,
                format!("{short}, and its Stamina stood in for Energy once this round already"),
            ));
        } else if spare < 1 {
            let beside = if techniques > 0 {
                format!(" beside the {techniques} its techniques take (R7.8)")
            } else {
                String::new()
            };
            return Err(Refusal::new(
                Rule::V5_3,
                format!("{short}, and 1 Stamina in its place would be its last{beside}"),
            ));
        }
        stand_in = true;
    }
    if price.agility > budget.agility {
        return Err(Refusal::new(
            Rule::V5_4,
            format!(
                "{what} costs {} Agility, {name} has {} left",
                price.agility, budget.agility
            ),
        ));
    }
    let spent = price.stamina + techniques + i32::from(stand_in);
    if spent > 0 && stamina - spent < 1 {
        return Err(Refusal::new(
            Rule::V5_3,
            format!("{what} would spend {name}'s last Stamina ({stamina} left): 0 is unconscious"),
        ));
    }
    Ok(stand_in)
}

/// Validate: a command the unit cannot pay for is refused (V5.3–V5.5).
fn refuse_what_cannot_be_paid(world: &mut World) {
    world.remove_resource::<Priced>();
    let pending = world.resource::<Pending>();
    let (Some(command), Some(actor)) = (pending.command.clone(), pending.actor) else {
        return;
    };
    if matches!(command, Command::React { .. }) {
        return;
    }
    // A ridden mount's commands are its rider's to pay (V12.2).
    let payer = world
        .get::<crate::battle::Ridden>(actor)
        .map_or(actor, |r| r.0);
    let Ok(price) = price(world, actor, &command) else {
        return;
    };
    match afford(world, payer, &command, &price) {
        Ok(stand_in) => {
            world.insert_resource(Priced {
                actor: payer,
                price,
                stand_in,
            });
        }
        Err(r) => world.resource_mut::<Pending>().refuse(r),
    }
}

/// Whether `unit` has moved more than its Speed this round, by Runs and
/// Charges: what ends its Defend (V5.12). Never without Energy (no unit
/// has a [`Budget`] then).
pub fn ran_past_speed(world: &World, unit: Entity) -> bool {
    world
        .get::<Budget>(unit)
        .is_some_and(|b| b.moved > speed_of(world, unit))
}

/// Pay: the price is paid and told; the Agile Moves the command opens
/// (V5.7), a Sprint noted (V5.10), a Defend run out (V5.12).
fn pay_in_energy(world: &mut World) {
    let Some(Priced {
        actor,
        price,
        stand_in,
    }) = world.remove_resource::<Priced>()
    else {
        return;
    };
    let Some(command) = world.resource::<Pending>().command.clone() else {
        return;
    };
    let energy = price.energy - i32::from(stand_in);
    let stamina = price.stamina + i32::from(stand_in);
    let mut e = world.entity_mut(actor);
    let mut ap_left = 0;
    if let Some(mut ap) = e.get_mut::<ActionPoints>() {
        ap.ap = (ap.ap - energy).max(0);
        ap_left = ap.ap;
    }
    let mut stamina_left = 0;
    if let Some(mut s) = e.get_mut::<Stamina>() {
        s.0 = (s.0 - stamina).max(0);
        stamina_left = s.0;
    }
    let mut budget = e.get::<Budget>().copied().unwrap_or_default();
    budget.agility -= price.agility;
    budget.swift_used |= price.swift;
    budget.stand_in_used |= stand_in;
    budget.moved += price.moved;
    budget.agile = match command.kind() {
        CommandKind::AgileMove => (budget.agile - 1).max(0),
        CommandKind::Face | CommandKind::React => budget.agile,
        CommandKind::Move
        | CommandKind::Step
        | CommandKind::Charge
        | CommandKind::Jump
        | CommandKind::Drag
        | CommandKind::Dismount
        | CommandKind::EndTurn => 0,
        _ => price.energy,
    };
    e.insert(budget);
    if let (Command::Move { sprint: true, .. }, Some(mut stride)) =
        (&command, e.get_mut::<Stride>())
    {
        stride.sprinted = true;
    }
    let ran_out = e.contains::<Defending>() && ran_past_speed(world, actor);
    if ran_out {
        world.entity_mut(actor).remove::<Defending>();
    }
    let unit = id_of(world, actor);
    // A free command (a Face) pays nothing and tells no price, but a
    // Defend it finds run out is told all the same (V5.12): the events
    // must say every change.
    if price == Price::default() {
        if ran_out {
            emit(
                world,
                BattleEvent::Energy(EnergyEvent::DefendEnded { unit }),
            );
        }
        return;
    }
    emit(
        world,
        BattleEvent::ApSpent {
            unit,
            command: command.kind(),
            ap: energy,
            free_action: false,
            ap_left,
        },
    );
    emit(
        world,
        BattleEvent::Energy(EnergyEvent::Paid {
            unit,
            command: command.kind(),
            energy: price.energy,
            agility: price.agility,
            stamina,
            stand_in,
            swift: price.swift,
            energy_left: ap_left,
            agility_left: budget.agility,
            stamina_left,
        }),
    );
    if ran_out {
        emit(
            world,
            BattleEvent::Energy(EnergyEvent::DefendEnded { unit }),
        );
    }
}
