//! R8 reactions: reactive attacks on the triggers of R8.2 by the reactors
//! of R8.3, resolved before the trigger's effects (R8.4), in initiative
//! order (R8.5), one per reactor and trigger; and the parry (R8.6). R3.2
//! limits each unit to `1 + max(STR, DEX, 0)` a round; R2.3 none before its
//! first turn.

use super::attack::{degrees_after_parry, resolve};
use super::command::{Command, Refusal};
use super::facing::is_rear_attack;
use super::log::log;
use super::modifiers::{AttackDraft, AttackMode};
use super::threat::{melee_weapon_for, threat_of};
use super::{CommandSystems, Pending, TurnState, out_of_action, unit_named};
use crate::battle::{GridPos, OffGuard, Prone, Reactions, Side, Stamina, Stats};
use crate::dice::Dice;
use crate::grid::Pos;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Whether a side's units take the reactions they may.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReactionPolicy {
    /// Every allowed reaction is taken.
    #[default]
    Always,
    /// None is.
    Never,
    /// The side's player is asked: a Move, shot, throw, stand or pick-up that
    /// would provoke one of its units is held until it answers with `React`
    /// commands (the UI asks; the AI answers by itself). Parries are taken
    /// as with `Always` *(decision)*.
    Ask,
}

/// Each side's reaction policy, by side index; sides not listed: Always.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ReactionPolicies(pub Vec<ReactionPolicy>);

impl ReactionPolicies {
    /// The policy of side `side`.
    pub fn of(&self, side: usize) -> ReactionPolicy {
        self.0.get(side).copied().unwrap_or_default()
    }
}

/// The reaction policy of side `side` (Always when none is set).
pub fn policy_of(world: &World, side: usize) -> ReactionPolicy {
    world
        .get_resource::<ReactionPolicies>()
        .map_or(ReactionPolicy::Always, |p| p.of(side))
}

/// What provokes (R8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// Leaving this tile during a Move or a Charge.
    Leave(Pos),
    /// Making a ranged attack.
    Shoot,
    /// Throwing.
    Throw,
    /// Standing up.
    StandUp,
    /// Picking up an object.
    PickUp,
}

impl Trigger {
    fn describe(&self) -> String {
        match self {
            Trigger::Leave(p) => format!("leaving {p}"),
            Trigger::Shoot => "shooting".into(),
            Trigger::Throw => "throwing".into(),
            Trigger::StandUp => "standing up".into(),
            Trigger::PickUp => "picking up".into(),
        }
    }
}

/// R8.3: the units that may react to `provoker` in its tile now: enemies
/// that threaten the tile (R4.4), are not off-guard (R2.3) and have a
/// reaction left (R3.2), in initiative order (R8.5), whose side takes them.
pub fn reactors(world: &mut World, provoker: Entity) -> Vec<Entity> {
    let (Some(side), Some(at)) = (
        world.get::<Side>(provoker).copied(),
        world.get::<GridPos>(provoker).copied(),
    ) else {
        return vec![];
    };
    let order: Vec<Entity> = world
        .resource::<TurnState>()
        .initiative
        .iter()
        .map(|(e, _)| *e)
        .collect();
    order
        .into_iter()
        .filter(|&r| {
            let e = world.entity(r);
            e.get::<Side>()
                .is_some_and(|s| *s != side && policy_of(world, s.0) != ReactionPolicy::Never)
                && !e.contains::<OffGuard>()
                && e.get::<Reactions>().is_some_and(|n| n.0 > 0)
                && threat_of(world, r).is_some_and(|t| t.covers(at.0))
        })
        .collect()
}

/// The threats of every unit that could react to `provoker` this turn, in
/// initiative order (R8.3 without the tile: enemies, not off-guard, with a
/// reaction left, whose side takes reactions).
pub fn watchers(world: &World, provoker: Entity) -> Vec<super::threat::Threat> {
    let Some(side) = world.get::<Side>(provoker).copied() else {
        return vec![];
    };
    world
        .resource::<TurnState>()
        .initiative
        .iter()
        .filter(|(r, _)| {
            let e = world.entity(*r);
            e.get::<Reactions>().is_some_and(|n| n.0 > 0)
                && e.get::<Side>()
                    .is_some_and(|s| *s != side && policy_of(world, s.0) != ReactionPolicy::Never)
                && !e.contains::<OffGuard>()
        })
        .filter_map(|(r, _)| threat_of(world, *r))
        .collect()
}

/// Resolves every reactive attack `trigger` draws (R8.1–R8.5), before its
/// effects. Returns whether the provoking action goes on: not when a
/// reaction left the provoker out of action or knocked it prone (R8.4).
pub fn provoke(world: &mut World, provoker: Entity, trigger: Trigger) -> bool {
    let was_prone = world.entity(provoker).contains::<Prone>();
    for reactor in reactors(world, provoker) {
        if !takes(world, reactor, trigger) {
            continue;
        }
        // An earlier reaction may have changed things (R8.3 again).
        if out_of_action(world, provoker) || out_of_action(world, reactor) {
            break;
        }
        let (Some(from), Some(to)) = (
            world.get::<GridPos>(reactor).copied(),
            world.get::<GridPos>(provoker).copied(),
        ) else {
            continue;
        };
        let distance = from.0.distance(to.0);
        let Some(weapon) = melee_weapon_for(world, reactor, distance) else {
            continue;
        };
        if let Some(mut n) = world.get_mut::<Reactions>(reactor) {
            n.0 -= 1;
        }
        let (who, whom) = (
            super::name_of(world, reactor),
            super::name_of(world, provoker),
        );
        log(
            world,
            format!(
                "{who} reacts to {whom} {} (R8.2): reactive attack (R8.1)",
                trigger.describe()
            ),
        );
        let mut draft =
            AttackDraft::new(reactor, provoker, weapon, AttackMode::Melee, from.0, to.0);
        draft.reaction = true;
        resolve(world, draft);
    }
    let stopped = out_of_action(world, provoker)
        || (!was_prone && world.entity(provoker).contains::<Prone>());
    if stopped {
        let whom = super::name_of(world, provoker);
        log(world, format!("  {whom}'s action ends there (R8.4)"));
    }
    !stopped
}

/// R8.6 parry: hit by a melee attack from its front arc, a unit with a
/// reaction and 1 stamina left rolls its own attack (d20 + MB + attribute +
/// weapon bonus, no situational modifiers, *decision*); beating the
/// attacker's `total` by `m` takes `1 + floor(m / 5)` degrees off. Returns
/// the degrees left (0: deflected).
pub fn parry(world: &mut World, draft: &AttackDraft, total: i32, degrees: i32) -> i32 {
    let target = draft.target;
    let policy = world.get::<Side>(target).map(|s| policy_of(world, s.0));
    let able = draft.mode == AttackMode::Melee
        && policy.is_some_and(|p| p != ReactionPolicy::Never)
        && !out_of_action(world, target)
        && !world.entity(target).contains::<OffGuard>()
        && !world.entity(target).contains::<Prone>()
        && world.get::<Reactions>(target).is_some_and(|n| n.0 > 0)
        && world.get::<Stamina>(target).is_some_and(|s| s.0 >= 1)
        && !is_rear_attack(world, draft.from, target);
    if !able {
        return degrees;
    }
    let Some(weapon) = melee_weapon_for(world, target, 1) else {
        return degrees;
    };
    if let Some(mut n) = world.get_mut::<Reactions>(target) {
        n.0 -= 1;
    }
    if let Some(mut s) = world.get_mut::<Stamina>(target) {
        s.0 -= 1;
    }
    let t = world.get::<Stats>(target).map(|s| s.template.clone());
    let (mb, attr) = t.map_or((0, 0), |t| (t.mb, t.str.max(t.dex)));
    let d = world.resource_mut::<Dice>().roll(20) as i32;
    let parry_total = d + mb + attr + weapon.attack_bonus;
    let m = parry_total - total;
    let left = if m > 0 {
        degrees_after_parry(degrees, m)
    } else {
        degrees
    };
    let who = super::name_of(world, target);
    let outcome = match (m > 0, left) {
        (false, _) => "fails".to_string(),
        (true, 0) => "deflects the attack".to_string(),
        (true, l) => format!("leaves {l} degree{}", if l == 1 { "" } else { "s" }),
    };
    log(
        world,
        format!(
            "  {who} parries with {}: d20 [{d}] {:+} = {parry_total} vs {total}: {outcome} (R8.6)",
            weapon.name,
            mb + attr + weapon.attack_bonus
        ),
    );
    left
}

/// Reaction decisions of `Ask` sides: a command that would provoke their
/// units is held until each question is answered by a `React` command.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Decisions {
    /// The command waiting for answers.
    pub held: Option<Command>,
    /// Open questions: who is asked about which trigger, in order.
    pub questions: Vec<(Entity, Trigger)>,
    /// Answers given: who, about which trigger, and whether it reacts.
    pub answers: Vec<(Entity, Trigger, bool)>,
}

impl Decisions {
    /// The unit asked now, if a decision is pending.
    pub fn asked(&self) -> Option<Entity> {
        self.questions.first().map(|q| q.0)
    }
}

/// Whether `reactor` takes its reaction to `trigger`: per its side's
/// policy, or its answer when asked.
fn takes(world: &World, reactor: Entity, trigger: Trigger) -> bool {
    let policies = world
        .get_resource::<ReactionPolicies>()
        .cloned()
        .unwrap_or_default();
    match world.get::<Side>(reactor).map(|s| policies.of(s.0)) {
        Some(ReactionPolicy::Always) => true,
        Some(ReactionPolicy::Ask) => world.get_resource::<Decisions>().is_some_and(|d| {
            d.answers
                .iter()
                .any(|a| a.0 == reactor && a.1 == trigger && a.2)
        }),
        _ => false,
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Decisions>().add_systems(
        super::CommandSchedule,
        (
            hold_for_decisions.in_set(CommandSystems::Decide),
            forget_answers.in_set(CommandSystems::Advance),
        )
            .run_if(some_side_is_asked),
    );
    super::handle(app, "React", validate_react, execute_react);
}

/// Run condition: some side's reactions are asked (policy `Ask`).
fn some_side_is_asked(policies: Option<Res<ReactionPolicies>>) -> bool {
    policies.is_some_and(|p| p.0.contains(&ReactionPolicy::Ask))
}

/// The triggers the pending command will cause and who could react to
/// each, before anything happens (R8.2, R8.3).
fn expected_reactions(
    world: &mut World,
    actor: Entity,
    command: &Command,
) -> Vec<(Entity, Trigger)> {
    let single = |world: &mut World, trigger: Trigger| -> Vec<(Entity, Trigger)> {
        reactors(world, actor)
            .into_iter()
            .map(|r| (r, trigger))
            .collect()
    };
    match command {
        Command::Move { .. } | Command::Charge { .. } => {
            let path = match command {
                Command::Move { to, path, .. } => {
                    super::movement::plan_move(world, actor, *to, path.as_deref())
                        .ok()
                        .map(|(p, _)| p)
                }
                Command::Charge { target, .. } => unit_named(world, target)
                    .and_then(|t| super::charge::charge_path(world, actor, t).ok()),
                _ => None,
            };
            let path = path.unwrap_or_default();
            super::movement::provocations(world, actor, &path)
                .into_iter()
                .flat_map(|p| {
                    let trigger = Trigger::Leave(p.leaving);
                    p.reactors
                        .into_iter()
                        .filter_map(|n| unit_named(world, &n))
                        .map(move |r| (r, trigger))
                        .collect::<Vec<_>>()
                })
                .collect()
        }
        Command::Attack { weapon, target, .. } => {
            let ranged = unit_named(world, target)
                .and_then(|t| super::attack::draft_for(world, actor, t, weapon.as_deref()).ok())
                .is_some_and(|d| d.mode == AttackMode::Ranged);
            if ranged {
                single(world, Trigger::Shoot)
            } else {
                vec![]
            }
        }
        Command::Throw { .. } => single(world, Trigger::Throw),
        Command::StandUp { .. } => single(world, Trigger::StandUp),
        Command::PickUp { .. } => single(world, Trigger::PickUp),
        _ => vec![],
    }
}

/// Decide phase: a command that would provoke units of `Ask` sides with no
/// answer yet is held, and they are asked (in trigger, then initiative
/// order).
fn hold_for_decisions(world: &mut World) {
    let (Some(command), Some(actor)) = (
        world.resource::<Pending>().command.clone(),
        world.resource::<Pending>().actor,
    ) else {
        return;
    };
    if matches!(command, Command::React { .. }) {
        return;
    }
    let policies = world
        .get_resource::<ReactionPolicies>()
        .cloned()
        .unwrap_or_default();
    if !policies.0.contains(&ReactionPolicy::Ask) {
        return;
    }
    let answered = world.resource::<Decisions>().answers.clone();
    let open: Vec<(Entity, Trigger)> = expected_reactions(world, actor, &command)
        .into_iter()
        .filter(|(r, t)| {
            world
                .get::<Side>(*r)
                .is_some_and(|s| policies.of(s.0) == ReactionPolicy::Ask)
                && !answered.iter().any(|a| a.0 == *r && a.1 == *t)
        })
        .collect();
    if open.is_empty() {
        return;
    }
    let asked = super::name_of(world, open[0].0);
    log(
        world,
        format!(
            "{} waits: {asked} may react (R8), answer with React",
            command.name()
        ),
    );
    let mut d = world.resource_mut::<Decisions>();
    d.held = Some(command);
    d.questions = open;
    world.resource_mut::<Pending>().held = true;
}

fn validate_react(world: &mut World) {
    let actor = world.resource::<Pending>().actor;
    if world.resource::<Decisions>().asked().is_none()
        || world.resource::<Decisions>().asked() != actor
    {
        world.resource_mut::<Pending>().refuse(Refusal::new(
            "R8",
            "no reaction decision is asked of this unit",
        ));
    }
}

fn execute_react(world: &mut World) {
    let Some(Command::React { take, .. }) = world.resource::<Pending>().command.clone() else {
        return;
    };
    let mut d = world.resource_mut::<Decisions>();
    if d.questions.is_empty() {
        return;
    }
    let (reactor, trigger) = d.questions.remove(0);
    d.answers.push((reactor, trigger, take));
    let who = super::name_of(world, reactor);
    log(
        world,
        format!(
            "{who} {} ({})",
            if take { "will react" } else { "lets it pass" },
            trigger.describe()
        ),
    );
}

/// Every carried-out command but an answer ends the decisions it used.
fn forget_answers(pending: Res<Pending>, mut decisions: ResMut<Decisions>) {
    if !pending.is("React") && decisions.held.is_none() {
        decisions.answers.clear();
    }
}

/// The held command, once its last question is answered.
pub fn ready_command(world: &mut World) -> Option<Command> {
    let mut d = world.get_resource_mut::<Decisions>()?;
    if d.questions.is_empty() {
        d.held.take()
    } else {
        None
    }
}
