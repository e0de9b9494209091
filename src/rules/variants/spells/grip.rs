//! A spell's grip (V11.4's `Grabbed` effect, frost grip): a unit that
//! fails its save is grabbed as V7.6 grabs (*decision*: the spell is the
//! grappler, at whatever range). It may not Move, Step, Charge, Jump nor
//! make an Agile Move, and its attacks against anyone but the caster take
//! +1 disadvantage. The caster is not held: the spell holds, not its hands.
//! The grip lasts while the caster concentrates on the spell (it stands in
//! for V7.6's Sustain) and lets go when the concentration ends.

use crate::battle::name_of;
use crate::rules::command::{CommandKind, Refusal};
use crate::rules::events::{BattleEvent, SpellEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Handles, Pending};
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub use super::held::Gripped;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        hamper_the_gripped.in_set(AttackSystems::Situational),
    );
    for kind in [
        CommandKind::Move,
        CommandKind::Step,
        CommandKind::Charge,
        CommandKind::Jump,
        CommandKind::AgileMove,
    ] {
        app.add_systems(
            CommandSchedule,
            refuse_moving_in_a_grip
                .in_set(Handles(kind))
                .in_set(CommandSystems::Validate),
        );
    }
}

/// `caster`'s `spell` grips `target`.
pub fn seize(world: &mut World, caster: Entity, target: Entity, spell: &str) {
    world.entity_mut(target).insert(Gripped {
        by: caster,
        spell: spell.to_string(),
    });
    let (unit, by) = (id_of(world, target), id_of(world, caster));
    let spell = spell.to_string();
    emit(
        world,
        BattleEvent::Spell(SpellEvent::Gripped { unit, by, spell }),
    );
}

/// Whether a spell holds `unit` in place.
pub fn gripped(world: &World, unit: Entity) -> bool {
    world.get::<Gripped>(unit).is_some()
}

/// A gripped unit does not move.
fn refuse_moving_in_a_grip(world: &mut World) {
    let Some(actor) = world.resource::<Pending>().actor else {
        return;
    };
    let Some(g) = world.get::<Gripped>(actor).cloned() else {
        return;
    };
    let why = format!(
        "{} is held by {}'s {}: it cannot move while the spell holds (V11.4)",
        name_of(world, actor),
        name_of(world, g.by),
        g.spell
    );
    world
        .resource_mut::<Pending>()
        .refuse(Refusal::new(Rule::V7_6, why));
}

/// A gripped unit's attacks on anyone but its caster: +1 disadvantage.
fn hamper_the_gripped(world: &mut World) {
    let draft = world.resource::<AttackDraft>();
    let Some(g) = world.get::<Gripped>(draft.attacker) else {
        return;
    };
    if g.by == draft.target {
        return;
    }
    world
        .resource_mut::<AttackDraft>()
        .push(Effect::Advantage(-1), "held by a spell", Rule::V7_6);
}
