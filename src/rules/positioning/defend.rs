//! R4.6 Defend and Ready shield, and the DV they give (R1.1; none from the
//! shield against a rear attack, R4.3).

use crate::battle::{ActionPoints, Battlefield, Defending, Facing, ShieldReady, Stats};
use crate::rules::command::CommandKind;
use crate::rules::command::Refusal;
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::CommandSystems;
use crate::rules::pipeline::Handles;
use crate::rules::pipeline::Pending;
use crate::rules::positioning::facing::in_front_of;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        crate::rules::pipeline::CommandSchedule,
        (
            validate_ready_shield
                .in_set(Handles(CommandKind::ReadyShield))
                .in_set(CommandSystems::Validate),
            execute_defend
                .in_set(Handles(CommandKind::Defend))
                .in_set(CommandSystems::Execute),
            execute_ready_shield
                .in_set(Handles(CommandKind::ReadyShield))
                .in_set(CommandSystems::Execute),
        ),
    )
    .add_systems(AttackSchedule, add_defensive_dv.in_set(AttackSystems::Base));
}

fn execute_defend(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    world.entity_mut(actor).insert(Defending);
    // Under Energy Defend does not forbid attacking: attacking ends it
    // (V5.12).
    let energy = crate::battle::energy(world);
    if let Some(mut ap) = world.get_mut::<ActionPoints>(actor) {
        ap.defended = !energy;
    }
    let bonus = world.get::<Stats>(actor).map_or(0, |s| s.template.mb);
    let unit = id_of(world, actor);
    emit(
        world,
        BattleEvent::Defended {
            unit,
            bonus,
            energy,
        },
    );
}

fn validate_ready_shield(mut pending: ResMut<Pending>, units: Query<(&Stats, &Name)>) {
    let Some(actor) = pending.actor else {
        return;
    };
    if let Ok((stats, name)) = units.get(actor)
        && stats.template.shield.is_none()
    {
        pending.refuse(Refusal::new(
            Rule::R4_6,
            format!("{name} carries no shield"),
        ));
    }
}

fn execute_ready_shield(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    world.entity_mut(actor).insert(ShieldReady);
    let unit = id_of(world, actor);
    emit(world, BattleEvent::ShieldReadied { unit });
}

/// Defend gives +MB to DV (R4.6); a readied shield its DV bonus (R1.1), but
/// not against an attack from the rear arc (R4.3).
fn add_defensive_dv(
    mut draft: ResMut<AttackDraft>,
    units: Query<(&Stats, &Facing, Has<Defending>, Has<ShieldReady>)>,
    field: Res<Battlefield>,
) {
    let Ok((stats, facing, defending, ready)) = units.get(draft.target) else {
        return;
    };
    let t = &stats.template;
    if defending && t.mb != 0 {
        draft.push(Effect::Dv(t.mb), "Defend", Rule::R4_6);
    }
    if ready
        && let Some(shield) = t.shield.as_ref().and_then(|s| field.0.catalog.shield(s))
        && in_front_of(draft.target_body(), facing.0, draft.from_tile())
        && !draft.unseen
    {
        draft.push(
            Effect::Dv(shield.dv),
            format!("{} readied", shield.name),
            Rule::R4_6,
        );
    }
}
