//! R4.8 prone: attacks against and by prone units, and standing up.

use crate::battle::Prone;
use crate::format::WeaponTrait;
use crate::rules::command::CommandKind;
use crate::rules::command::Refusal;
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::Pending;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    crate::rules::pipeline::handle(
        app,
        CommandKind::StandUp,
        validate_stand_up,
        execute_stand_up,
    );
    app.add_systems(
        AttackSchedule,
        add_prone_modifiers.in_set(AttackSystems::Situational),
    );
}

fn validate_stand_up(mut pending: ResMut<Pending>, prone: Query<(Has<Prone>, &Name)>) {
    let Some(actor) = pending.actor else {
        return;
    };
    if let Ok((false, name)) = prone.get(actor) {
        pending.refuse(Refusal::new(Rule::R4_8, format!("{name} is not prone")));
    }
}

fn execute_stand_up(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    // R8.2: standing up in a threatened tile provokes, while still prone.
    if !crate::rules::reactions::reactive_attack::provoke(
        world,
        actor,
        crate::rules::events::Trigger::StandUp,
    ) {
        return;
    }
    world.entity_mut(actor).remove::<Prone>();
    let unit = id_of(world, actor);
    emit(world, BattleEvent::StoodUp { unit });
}

/// R4.8: melee against a prone target +1 advantage, ranged and thrown +1
/// disadvantage. A prone attacker: +1 disadvantage on melee against a
/// standing target and on throws; no bows; +1 advantage with crossbows and
/// firearms.
fn add_prone_modifiers(mut draft: ResMut<AttackDraft>, prone: Query<Has<Prone>>) {
    let target_prone = prone.get(draft.target).unwrap_or(false);
    let attacker_prone = prone.get(draft.attacker).unwrap_or(false);
    match draft.mode {
        AttackMode::Melee if target_prone => {
            draft.push(Effect::Advantage(1), "target prone", Rule::R4_8)
        }
        AttackMode::Ranged | AttackMode::Thrown if target_prone => {
            draft.push(Effect::Advantage(-1), "target prone", Rule::R4_8)
        }
        _ => {}
    }
    if !attacker_prone {
        return;
    }
    let weapon = draft.weapon.clone();
    match draft.mode {
        AttackMode::Melee if !target_prone => {
            draft.push(Effect::Advantage(-1), "attacker prone", Rule::R4_8)
        }
        AttackMode::Thrown => draft.push(Effect::Advantage(-1), "thrown while prone", Rule::R4_8),
        AttackMode::Ranged if weapon.has(WeaponTrait::Bow) => draft.refuse(Refusal::new(
            Rule::R4_8,
            format!("a prone unit cannot shoot a bow ({})", weapon.name),
        )),
        AttackMode::Ranged
            if weapon.has(WeaponTrait::Crossbow) || weapon.has(WeaponTrait::Firearm) =>
        {
            draft.push(Effect::Advantage(1), "braced prone", Rule::R4_8)
        }
        _ => {}
    }
}
