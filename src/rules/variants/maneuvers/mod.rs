//! V7 maneuvers (001, 002, 003, 004; a level's `rules: (maneuvers: true)`):
//! attacks that deal no damage. VARIANTS.md V7.1–V7.7, room by room:
//!
//! | module | rule |
//! |---|---|
//! | here | V7.1 the one roll against DV with degrees, V7.2 what provokes, V7.3 the target that is not exposed, the size modifier on maneuvers |
//! | [`trip`] | V7.4 trip |
//! | [`disarm`] | V7.5 disarm and the fling |
//! | [`grapple`] | V7.6 grabbed and held, sustain, force down, crush, drag, escape, release |
//! | [`shove`] | V7.7 shove and the charge-shove |
//! | here | a maneuver made as a reactive attack (V7.1), a trip of a moving unit (V7.4) |
//!
//! A maneuver is an attack (001:168): it costs 1 AP, counts for R7.6, turns
//! the maneuverer to its target (R4.2) and gathers its modifiers in the
//! [`AttackSchedule`] like any attack, so the preview, the AI and the roll
//! read the same numbers. It rolls d20 + MB + the skill's attribute + the
//! skill bonus and succeeds on **meeting** the DV (001:127), with R7.2's
//! degrees counted from the DV itself ([`AttackDraft::threshold`]). It deals
//! no damage, no injury (V3) and rolls no zone (V4).

pub mod disarm;
pub mod grapple;
pub mod grappled;
pub mod roll;
pub mod shove;
pub mod trip;

pub use grapple::held_in_place;
pub use grappled::{Grappled, grappling, hold_on, partner};
pub use roll::{
    attempt, is_exposed, larger_by, maneuver_draft, on, open, provokes, size_of, skill_roll,
    switched_off, switched_on,
};

use crate::battle::{ActionPoints, out_of_action};
use crate::grid::Pos;
use crate::rules::attacks::preview::{AttackPreview, preview_attack};
use crate::rules::attacks::resolution::check_attack;
use crate::rules::command::{Command, CommandKind, ManeuverKind, Refusal};
use crate::rules::events::{Opening, Trigger};
use crate::rules::modifiers::AttackDraft;
use crate::rules::modifiers::Effect;
use crate::rules::pipeline::{CommandSchedule, DecideSystems, Pending, actor_and_target, handle};
use crate::rules::positioning::facing::face_towards;
use crate::rules::reactions::reactive_attack::{ReactSchedule, Reacting, provoke_from, reactors};
use crate::rules::rule::Rule;
use bevy::prelude::*;
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    handle(app, CommandKind::Maneuver, validate_maneuver, make_maneuver);
    app.add_systems(
        CommandSchedule,
        ask_the_target
            .in_set(DecideSystems::Ask)
            .run_if(crate::rules::reactions::ask::some_side_is_asked),
    );
    app.add_systems(ReactSchedule, react_with_a_maneuver);
    app.add_plugins((roll::plugin, grapple::plugin, shove::plugin));
}

/// Checks `unit`'s maneuver `kind` against `target` (with a shove's
/// destination `to` and a disarm's `fling`) and returns its draft.
pub fn check_maneuver(
    world: &mut World,
    unit: Entity,
    target: Entity,
    kind: ManeuverKind,
    to: Option<Pos>,
    fling: Option<Pos>,
) -> Result<AttackDraft, Refusal> {
    if !on(world) {
        return Err(switched_off());
    }
    if kind == ManeuverKind::Escape {
        return Err(Refusal::new(
            Rule::V7_6,
            "an escape is its own command: Escape(unit: ...)",
        ));
    }
    let (who, whom) = (
        crate::battle::name_of(world, unit),
        crate::battle::name_of(world, target),
    );
    if world.get::<ActionPoints>(unit).is_some_and(|a| a.defended) {
        return Err(Refusal::new(
            Rule::R4_6,
            "after Defend a unit makes no more attacks this turn",
        ));
    }
    if target != unit && out_of_action(world, target) {
        // *(decision)* Nothing to gain: the down are already prone and
        // hit automatically (R7.9).
        return Err(Refusal::new(
            Rule::V7,
            format!(
                "{whom} is out of action: there is nothing to {}",
                kind.label()
            ),
        ));
    }
    let draft = maneuver_draft(world, unit, target, kind)?;
    check_attack(world, &draft)?;
    let k = larger_by(world, unit, target);
    let limit = match kind {
        ManeuverKind::Trip => 1,
        ManeuverKind::Grapple | ManeuverKind::Shove => 0,
        _ => i32::MAX,
    };
    if k > limit {
        let how = if limit == 0 {
            "no larger than".to_string()
        } else {
            "at most 1 size category larger than".to_string()
        };
        return Err(Refusal::new(
            kind.rule(),
            format!(
                "{whom} ({:?}) is too big to {}: the target must be {how} {who} ({:?})",
                size_of(world, target),
                kind.label(),
                size_of(world, unit)
            ),
        ));
    }
    match kind {
        ManeuverKind::Disarm => disarm::check(world, &draft, fling)?,
        ManeuverKind::Shove => {
            shove::destination(world, unit, target, to)?;
        }
        ManeuverKind::Grapple => grapple::check_seize(world, unit, target)?,
        _ => {}
    }
    if to.is_some() && kind != ManeuverKind::Shove {
        return Err(Refusal::new(kind.rule(), "only a shove takes a `to` tile"));
    }
    if fling.is_some() && kind != ManeuverKind::Disarm {
        return Err(Refusal::new(
            kind.rule(),
            "only a disarm takes a `fling` tile",
        ));
    }
    Ok(draft)
}

/// The exact preview of `unit`'s maneuver `kind` against `target`: the
/// chance of success and of each degree, by the same modifiers the roll
/// gathers. Reads the battle, changes nothing.
pub fn preview_maneuver(
    world: &mut World,
    unit: Entity,
    target: Entity,
    kind: ManeuverKind,
) -> Result<AttackPreview, Refusal> {
    let draft = check_maneuver(world, unit, target, kind, None, None)?;
    preview_attack(world, draft)
}

fn maneuver_order(world: &World) -> Option<(ManeuverKind, Option<Pos>, Option<Pos>)> {
    match world.resource::<Pending>().command.clone()? {
        Command::Maneuver {
            kind, to, fling, ..
        } => Some((kind, to, fling)),
        _ => None,
    }
}

fn validate_maneuver(world: &mut World) {
    let Some((kind, to, fling)) = maneuver_order(world) else {
        return;
    };
    let result = actor_and_target(world)
        .and_then(|(unit, target)| check_maneuver(world, unit, target, kind, to, fling));
    if let Err(r) = result {
        world.resource_mut::<Pending>().refuse(r);
    }
}

/// Decide phase: a maneuver that provokes (V7.2) asks its target, when its
/// side is asked (R8).
fn ask_the_target(world: &mut World) {
    let Some((kind, ..)) = maneuver_order(world) else {
        return;
    };
    let Ok((unit, target)) = actor_and_target(world) else {
        return;
    };
    if provokes(world, unit, target, kind) && reactors(world, unit).contains(&target) {
        world
            .resource_mut::<Pending>()
            .questions
            .push((target, Trigger::Maneuver));
    }
}

/// The Maneuver: the maneuverer turns to its target (R4.2) and counts the
/// attack (R7.6); a provoked reactive attack comes first (V7.2, R8.4);
/// then the roll and, on success, what the maneuver does.
fn make_maneuver(world: &mut World) {
    let Some((kind, to, fling)) = maneuver_order(world) else {
        return;
    };
    let Ok((unit, target)) = actor_and_target(world) else {
        return;
    };
    face_towards(world, unit, target);
    let Ok(draft) = maneuver_draft(world, unit, target, kind) else {
        return;
    };
    if let Some(mut ap) = world.get_mut::<ActionPoints>(unit) {
        ap.attacks += 1;
    }
    if provokes(world, unit, target, kind)
        && !provoke_from(world, unit, Trigger::Maneuver, Some(target))
    {
        world.resource_mut::<Pending>().interrupted = true;
        return;
    }
    carry_out(world, draft, to, fling);
}

/// A maneuver's `draft`, made: the roll (V7.1) and, on success, what its
/// kind does (a shove to `to`, a disarm's `fling`); a failed shove opens the
/// shover, and a maneuver on a target that was not exposed opens the
/// maneuverer whatever the result (V7.3).
pub fn carry_out(world: &mut World, draft: AttackDraft, to: Option<Pos>, fling: Option<Pos>) {
    let (Some(kind), unit, target) = (draft.maneuver, draft.attacker, draft.target) else {
        return;
    };
    let exposed = is_exposed(world, target);
    let result = attempt(world, draft);
    if result.degrees > 0 {
        match kind {
            ManeuverKind::Trip => trip::knock_down(world, unit, target),
            ManeuverKind::Disarm => disarm::knock_away(world, unit, target, fling),
            ManeuverKind::Shove => shove::push(world, unit, target, to),
            ManeuverKind::Grapple => grapple::seize(world, unit, target, result.degrees),
            ManeuverKind::Escape => {}
        }
    } else if kind == ManeuverKind::Shove {
        // A failed shove leaves the shover open (002:585).
        open(world, unit, Opening::Shove);
    }
    if !exposed {
        open(world, unit, Opening::Maneuver);
    }
}

/// Who meets a provocation with which maneuver instead of a weapon blow (a
/// scenario's `reaction_maneuvers: {"Orm": Trip}`). *(decision)* The AI
/// and the window's players do not choose reactive maneuvers yet: their
/// reactions stay weapon blows.
#[derive(Resource, Clone, Debug, Default)]
pub struct ReactiveManeuvers(pub HashMap<Entity, ManeuverKind>);

/// A maneuver made as a reactive attack (V7.1, 001:225: "perform an attack
/// action"), when its reactor is ordered so and could make it there (else
/// it strikes). A trip of a unit leaving the tile, a moving target, has +1
/// advantage (V7.4, 002:559); a mover tripped stops there (R8.4).
fn react_with_a_maneuver(world: &mut World) {
    let Some(r) = world.get_resource::<Reacting>().cloned() else {
        return;
    };
    let reactor = r.draft.attacker;
    let kind = world
        .get_resource::<ReactiveManeuvers>()
        .and_then(|o| o.0.get(&reactor).copied());
    let Some(kind) = kind.filter(|_| on(world)) else {
        return;
    };
    let Ok(mut draft) = check_maneuver(world, reactor, r.draft.target, kind, None, None) else {
        return;
    };
    draft.reaction = true;
    if kind == ManeuverKind::Trip && matches!(r.trigger, Trigger::Leave(_)) {
        draft.push(Effect::Advantage(1), "tripping a moving target", Rule::V7_4);
    }
    world.resource_mut::<Reacting>().made = true;
    carry_out(world, draft, None, None);
}
