//! R3 action points: what each command costs, refusing what a unit cannot
//! afford, and paying.

use crate::battle::{ActionPoints, FreeMove, Ridden, StandUpExtra, UnitId};
use crate::rules::command::Command;
use crate::rules::command::Refusal;
use crate::rules::events::{BattleEvent, BattleEvents};
use crate::rules::pipeline::CommandSystems;
use crate::rules::pipeline::Pending;
use crate::rules::pipeline::accepted;
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// What a command costs (R3.1 table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Action points.
    pub ap: i32,
    /// Uses the turn's one free action.
    pub free_action: bool,
}

/// The cost of `command` (R3.1): Move, Step, Jump (V9.2), Hide and Search
/// (V8.4, V8.5), Attack, Throw, StandUp,
/// Defend, ReadyShield, Stabilize, PickUp 1 AP; Charge 2; Face and EndTurn
/// nothing; drinking a potion the free action, giving one 1 AP; Cleave is
/// paid in stamina (R7.8). Maneuvers (V7): a Maneuver, Sustain and
/// ForceDown 1 AP, Crush 2, Drag 3, Release nothing; an Escape is paid by
/// its degrees once rolled (V7.6), so nothing here.
pub fn cost(command: &Command) -> Cost {
    use Command::*;
    let ap = |ap| Cost {
        ap,
        free_action: false,
    };
    match command {
        Move { .. }
        | Step { .. }
        | Jump { .. }
        | Hide { .. }
        | Search { .. }
        | Attack { .. }
        | Throw { .. }
        | StandUp { .. }
        | Defend { .. }
        | ReadyShield { .. }
        | Stabilize { .. }
        | PickUp { .. }
        | Maneuver { .. }
        | Cast { .. }
        | Sustain { .. }
        | ForceDown { .. } => ap(1),
        Charge { .. } | Crush { .. } => ap(2),
        Drag { .. } => ap(3),
        // Mounting and dismounting are paid when done: the cost depends on
        // the rider's skill (V12.7).
        // Energy's own commands (V5.5, V5.7): its rules price them.
        Face { .. }
        | AgileMove { .. }
        | CatchBreath { .. }
        | EndConcentration { .. }
        | EndTurn
        | Cleave { .. }
        | React { .. }
        | Release { .. }
        | Escape { .. }
        | Mount { .. }
        | Dismount { .. } => ap(0),
        DrinkPotion { target: None, .. } => Cost {
            ap: 0,
            free_action: true,
        },
        DrinkPotion {
            target: Some(t),
            unit,
        } if t == unit => Cost {
            ap: 0,
            free_action: true,
        },
        DrinkPotion { .. } => ap(1),
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        crate::rules::pipeline::CommandSchedule,
        (
            // Under Energy its own rules price commands (V5.5).
            refuse_unaffordable
                .after(crate::rules::turns::turn::identify_actor)
                .in_set(CommandSystems::Identify)
                .run_if(paid_in_points),
            pay_action_points
                .run_if(accepted)
                .run_if(paid_in_points)
                .in_set(CommandSystems::Pay),
        ),
    );
}

/// Run condition: turns are paid in action points (R3.1), not Energy (V5).
fn paid_in_points(field: Option<Res<crate::battle::Battlefield>>) -> bool {
    !field.is_some_and(|f| f.0.rules().actions == crate::format::Actions::Energy)
}

/// Who pays for `actor`'s command: a ridden mount's rider (V12.2), else the
/// actor.
fn payer(actor: Entity, ridden: &Query<&Ridden>) -> Entity {
    ridden.get(actor).map_or(actor, |r| r.0)
}

/// The cost of `command` for a payer that may have its free Move (V12.2)
/// and whose injured feet and legs make standing up dearer (V3).
fn cost_with(command: &Command, free_move: bool, stand_extra: i32) -> Cost {
    match command {
        Command::Move { .. } if free_move => Cost::default(),
        Command::StandUp { .. } => Cost {
            ap: 1 + stand_extra,
            free_action: false,
        },
        _ => cost(command),
    }
}

/// The AP Stand up costs `unit` (R4.8, with V3's foot and leg injuries):
/// what the window and the AI show and plan with.
pub fn stand_up_cost(world: &World, unit: Entity) -> i32 {
    1 + world.get::<StandUpExtra>(unit).map_or(0, |e| e.0)
}

fn refuse_unaffordable(
    mut pending: ResMut<Pending>,
    units: Query<(&ActionPoints, &Name, Has<FreeMove>, Option<&StandUpExtra>)>,
    ridden: Query<&Ridden>,
) {
    let (Some(command), Some(actor)) = (pending.command.clone(), pending.actor) else {
        return;
    };
    let Ok((ap, name, free_move, extra)) = units.get(payer(actor, &ridden)) else {
        return;
    };
    let extra = extra.map_or(0, |e| e.0);
    let c = cost_with(&command, free_move, extra);
    if c.ap > ap.ap && extra > 0 && matches!(command, Command::StandUp { .. }) {
        pending.refuse(Refusal::new(
            Rule::V3,
            format!(
                "standing up costs {name} {} AP with its injured feet or legs (1 +{extra}), it has {} left",
                c.ap, ap.ap
            ),
        ));
    } else if c.ap > ap.ap {
        pending.refuse(Refusal::new(
            Rule::R3_1,
            format!(
                "{} costs {} AP, {name} has {} left",
                command.name(),
                c.ap,
                ap.ap
            ),
        ));
    } else if c.free_action && ap.free_used {
        pending.refuse(Refusal::new(
            Rule::R3_1,
            format!("{name} has already used this turn's free action"),
        ));
    }
}

fn pay_action_points(
    pending: Res<Pending>,
    mut units: Query<(
        &mut ActionPoints,
        &UnitId,
        Has<FreeMove>,
        Option<&crate::battle::Hidden>,
        Option<&StandUpExtra>,
    )>,
    ridden: Query<&Ridden>,
    mut events: ResMut<BattleEvents>,
    mut commands: Commands,
) {
    let (Some(command), Some(actor)) = (&pending.command, pending.actor) else {
        return;
    };
    let payer = payer(actor, &ridden);
    let free_move = units.get(payer).is_ok_and(|u| u.2);
    if free_move && matches!(command, Command::Move { .. }) {
        // The pair's free Move this turn (V12.2).
        commands.entity(payer).remove::<FreeMove>();
        if let Ok((_, id, _, hidden, _)) = units.get(payer) {
            let told = crate::rules::events::witness::told_of(hidden);
            events.push_told(BattleEvent::FreeMoveTaken { unit: *id }, told);
        }
        return;
    }
    let extra = units
        .get(payer)
        .ok()
        .and_then(|u| u.4.copied())
        .map_or(0, |e| e.0);
    let c = cost_with(command, false, extra);
    if c.ap == 0 && !c.free_action {
        return;
    }
    if let Ok((mut ap, id, _, hidden, _)) = units.get_mut(payer) {
        ap.ap = (ap.ap - c.ap).max(0);
        ap.free_used |= c.free_action;
        let spent = BattleEvent::ApSpent {
            unit: *id,
            command: command.kind(),
            ap: c.ap,
            free_action: c.free_action,
            ap_left: ap.ap,
        };
        events.push_told(spent, crate::rules::events::witness::told_of(hidden));
    }
}
