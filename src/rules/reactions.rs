//! R8 reactions: reactive attacks on the triggers of R8.2 by the reactors
//! of R8.3, resolved before the trigger's effects (R8.4), in initiative
//! order (R8.5), one per reactor and trigger; and the parry (R8.6). R3.2
//! limits each unit to `1 + max(STR, DEX, 0)` a round; R2.3 none before its
//! first turn.

use super::CommandKind;
use super::Rule;
use super::command::{Command, Refusal};
use super::events::{BattleEvent, emit, id_of};
use super::modifiers::{AttackDraft, AttackMode};
use super::resolution::resolve;
use super::threat::{Threat, melee_weapon_for, threat_of};
use super::{CommandSystems, Pending, TurnState, out_of_action};
use crate::battle::{GridPos, OffGuard, Prone, Reactions, Side};
use crate::format::Guard;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// Being attacked under active defence (V2): the question is how to
    /// answer (block, parry, dodge or not at all), not whether to strike.
    Attacked,
}

impl Trigger {
    /// As the log says it: "leaving (2, 2)", "shooting".
    pub fn describe(&self) -> String {
        match self {
            Trigger::Leave(p) => format!("leaving {p}"),
            Trigger::Shoot => "shooting".into(),
            Trigger::Throw => "throwing".into(),
            Trigger::StandUp => "standing up".into(),
            Trigger::PickUp => "picking up".into(),
            Trigger::Attacked => "attacking".into(),
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

/// The enemies that threaten `provoker`'s tile but may not react, with the
/// rule that stops them: off-guard (R2.3) or out of reactions (R3.2), in
/// initiative order. Told as [`BattleEvent::ReactionBarred`] so that a
/// player sees why no blow came.
pub fn barred(world: &World, provoker: Entity) -> Vec<(Entity, Rule)> {
    let Some(at) = world.get::<GridPos>(provoker).copied() else {
        return vec![];
    };
    barred_enemies(world, provoker)
        .into_iter()
        .filter(|(r, _)| threat_of(world, *r).is_some_and(|t| t.covers(at.0)))
        .collect()
}

/// The threats of the enemies that threaten tiles but may not react to
/// `provoker` this turn: off-guard (R2.3) or out of reactions (R3.2).
pub fn barred_watchers(world: &World, provoker: Entity) -> Vec<Threat> {
    barred_enemies(world, provoker)
        .into_iter()
        .filter_map(|(r, _)| threat_of(world, r))
        .collect()
}

/// The enemies of `provoker` whose side reacts but who may not now, and
/// why, in initiative order.
fn barred_enemies(world: &World, provoker: Entity) -> Vec<(Entity, Rule)> {
    enemies_ready(world, provoker)
        .into_iter()
        .filter_map(|(r, ready)| ready.err().map(|rule| (r, rule)))
        .collect()
}

/// The enemies of `provoker` whose side takes reactions, in initiative
/// order, each ready to react this turn or barred by the rule that bars it:
/// off-guard (R2.3) or out of reactions (R3.2).
fn enemies_ready(world: &World, provoker: Entity) -> Vec<(Entity, Result<(), Rule>)> {
    let Some(side) = world.get::<Side>(provoker).copied() else {
        return vec![];
    };
    world
        .resource::<TurnState>()
        .initiative
        .iter()
        .filter_map(|&(r, _)| {
            let e = world.entity(r);
            let enemy = e
                .get::<Side>()
                .is_some_and(|s| *s != side && policy_of(world, s.0) != ReactionPolicy::Never);
            let ready = if e.contains::<OffGuard>() {
                Err(Rule::R2_3)
            } else if e.get::<Reactions>().is_some_and(|n| n.0 <= 0) {
                Err(Rule::R3_2)
            } else {
                Ok(())
            };
            enemy.then_some((r, ready))
        })
        .collect()
}

/// The threats of every unit that could react to `provoker` this turn, in
/// initiative order (R8.3 without the tile: enemies, not off-guard, with a
/// reaction left, whose side takes reactions).
pub fn watchers(world: &World, provoker: Entity) -> Vec<Threat> {
    enemies_ready(world, provoker)
        .into_iter()
        .filter(|(_, ready)| ready.is_ok())
        .filter_map(|(r, _)| threat_of(world, r))
        .collect()
}

/// The reactive attack (R8.1) `reactor` would make on `provoker` standing
/// at `at` (the tile it leaves, R8.4): a melee attack with the weapon that
/// reaches it, no iterative penalty. `None` when no weapon reaches. The
/// rules resolve it; the AI and the window preview it.
pub fn reactive_draft(
    world: &World,
    reactor: Entity,
    provoker: Entity,
    at: Pos,
) -> Option<AttackDraft> {
    let from = world.get::<GridPos>(reactor)?.0;
    let weapon = melee_weapon_for(world, reactor, from.distance(at))?;
    let mut draft = AttackDraft::new(reactor, provoker, weapon, AttackMode::Melee, from, at);
    draft.reaction = true;
    Some(draft)
}

/// Resolves every reactive attack `trigger` draws (R8.1–R8.5), before its
/// effects. Returns whether the provoking action goes on: not when a
/// reaction left the provoker out of action or knocked it prone (R8.4).
pub fn provoke(world: &mut World, provoker: Entity, trigger: Trigger) -> bool {
    let was_prone = world.entity(provoker).contains::<Prone>();
    let id = id_of(world, provoker);
    for (reactor, rule) in barred(world, provoker) {
        let reactor = id_of(world, reactor);
        emit(
            world,
            BattleEvent::ReactionBarred {
                reactor,
                provoker: id,
                trigger,
                rule,
            },
        );
    }
    for reactor in reactors(world, provoker) {
        if !takes(world, reactor, trigger) {
            let (reactor, provoker) = (id_of(world, reactor), id_of(world, provoker));
            emit(
                world,
                BattleEvent::ReactionDeclined {
                    reactor,
                    provoker,
                    trigger,
                },
            );
            continue;
        }
        // An earlier reaction may have changed things (R8.3 again).
        if out_of_action(world, provoker) || out_of_action(world, reactor) {
            break;
        }
        let Some(to) = world.get::<GridPos>(provoker).map(|p| p.0) else {
            continue;
        };
        let Some(draft) = reactive_draft(world, reactor, provoker, to) else {
            continue;
        };
        if let Some(mut n) = world.get_mut::<Reactions>(reactor) {
            n.0 -= 1;
        }
        let event = BattleEvent::ReactionTaken {
            reactor: id_of(world, reactor),
            provoker: id_of(world, provoker),
            trigger,
        };
        emit(world, event);
        resolve(world, draft);
    }
    let stopped = out_of_action(world, provoker)
        || (!was_prone && world.entity(provoker).contains::<Prone>());
    if stopped {
        let unit = id_of(world, provoker);
        emit(world, BattleEvent::ActionInterrupted { unit });
    }
    !stopped
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
    /// Defenders' declared answers to the held attack (V2).
    pub guards: Vec<(Entity, Guard)>,
}

impl Decisions {
    /// The unit asked now, if a decision is pending.
    pub fn asked(&self) -> Option<Entity> {
        self.questions.first().map(|q| q.0)
    }

    /// The answer `unit` declared to the attack held for it (V2).
    pub fn guard_of(&self, unit: Entity) -> Option<Guard> {
        self.guards.iter().find(|g| g.0 == unit).map(|g| g.1)
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
    super::handle(app, CommandKind::React, validate_react, execute_react);
}

/// Run condition: some side's reactions are asked (policy `Ask`).
fn some_side_is_asked(policies: Option<Res<ReactionPolicies>>) -> bool {
    policies.is_some_and(|p| p.0.contains(&ReactionPolicy::Ask))
}

/// The triggers the pending command will cause and who could react to
/// each, before anything happens (R8.2, R8.3). A Move's or Charge's are
/// counted on the path Validate planned, and kept in the plan.
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
            let path = world
                .resource::<Pending>()
                .plan
                .as_ref()
                .map(|p| p.path.clone())
                .unwrap_or_default();
            let triggers: Vec<(Entity, Trigger)> = provoking_steps(world, actor, &path)
                .into_iter()
                .flat_map(|(_, leaving, reactors)| {
                    reactors
                        .into_iter()
                        .map(move |r| (r, Trigger::Leave(leaving)))
                })
                .collect();
            if let Some(plan) = world.resource_mut::<Pending>().plan.as_mut() {
                plan.triggers = Some(triggers.clone());
            }
            triggers
        }
        Command::Attack { weapon, .. } => {
            let target = world.resource::<Pending>().target;
            let ranged = target
                .and_then(|t| super::resolution::draft_for(world, actor, t, weapon.as_deref()).ok())
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
    let mut expected = expected_reactions(world, actor, &command);
    // V2: the defender of an attack declares its answer with it.
    let (target, from) = {
        let pending = world.resource::<Pending>();
        let path_end = pending.plan.as_ref().and_then(|p| p.path.last().copied());
        (pending.target, path_end)
    };
    if let Some(draft) =
        target.and_then(|t| super::active_defence::declared_attack(world, actor, t, &command, from))
        && !super::active_defence::options(world, &draft).is_empty()
    {
        expected.push((draft.target, Trigger::Attacked));
    }
    let open: Vec<(Entity, Trigger)> = expected
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
    let provoker = id_of(world, actor);
    for (reactor, trigger) in &open {
        let event = BattleEvent::ReactionOffered {
            command: command.kind(),
            reactor: id_of(world, *reactor),
            provoker,
            trigger: *trigger,
        };
        emit(world, event);
    }
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
            Rule::R8,
            "no reaction decision is asked of this unit",
        ));
        return;
    }
    // V2: an answer the unit can give this attack.
    if let Some(Command::React {
        take: true,
        guard: Some(g),
        ..
    }) = world.resource::<Pending>().command.clone()
        && let Some(unit) = actor
        && g != Guard::None
        && !super::active_defence::held_attack_options(world, unit).contains(&g)
    {
        let who = super::name_of(world, unit);
        world.resource_mut::<Pending>().refuse(Refusal::new(
            Rule::V2,
            format!("{who} cannot {} this attack", g.label()),
        ));
    }
}

fn execute_react(world: &mut World) {
    let Some(Command::React { take, guard, .. }) = world.resource::<Pending>().command.clone()
    else {
        return;
    };
    let mut d = world.resource_mut::<Decisions>();
    if d.questions.is_empty() {
        return;
    }
    let (reactor, trigger) = d.questions.remove(0);
    d.answers.push((reactor, trigger, take));
    if trigger == Trigger::Attacked {
        let guard = if take {
            guard.unwrap_or(Guard::None)
        } else {
            Guard::None
        };
        d.guards.push((reactor, guard));
    }
    let reactor = id_of(world, reactor);
    emit(
        world,
        BattleEvent::ReactionAnswered {
            reactor,
            trigger,
            take,
        },
    );
}

/// Every carried-out command but an answer ends the decisions it used.
fn forget_answers(pending: Res<Pending>, mut decisions: ResMut<Decisions>) {
    if !pending.is(CommandKind::React) && decisions.held.is_none() {
        decisions.answers.clear();
        decisions.guards.clear();
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

/// A step of a planned Move that would provoke (R8.2), and from whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provocation {
    /// Index in the path of the step that leaves the tile (0: the first).
    pub step: usize,
    /// The tile left.
    pub leaving: Pos,
    /// Who would react, in initiative order (R8.5).
    pub reactors: Vec<String>,
}

/// The preview of a Move along `path`: every step that would provoke and
/// from whom, with each reactor's reactions counted down (R3.2), as the
/// walk resolves them (before any die says whether the mover falls).
pub fn provocations(world: &World, unit: Entity, path: &[Pos]) -> Vec<Provocation> {
    provoking_steps(world, unit, path)
        .into_iter()
        .map(|(step, leaving, reactors)| Provocation {
            step,
            leaving,
            reactors: reactors
                .into_iter()
                .map(|r| super::name_of(world, r))
                .collect(),
        })
        .collect()
}

/// [`provocations`] by entity: each provoking step's index, the tile left
/// and the reactors in initiative order (R8.5).
pub fn provoking_steps(
    world: &World,
    unit: Entity,
    path: &[Pos],
) -> Vec<(usize, Pos, Vec<Entity>)> {
    let Some(start) = world.get::<GridPos>(unit).map(|p| p.0) else {
        return vec![];
    };
    let watchers = watchers_with_reactions(world, unit);
    steps_provoking(&watchers, start, path)
}

/// The units that could react to `unit` this turn ([`watchers`]) with the
/// reactions each has left (R3.2).
pub fn watchers_with_reactions(world: &World, unit: Entity) -> Vec<(Threat, i32)> {
    watchers(world, unit)
        .into_iter()
        .map(|t| {
            let left = world.get::<Reactions>(t.unit).map_or(0, |r| r.0);
            (t, left)
        })
        .collect()
}

/// The steps of a Move from `start` along `path` that provoke the
/// `watchers` (with their reactions left), counted down as the walk does.
pub fn steps_provoking(
    watchers: &[(Threat, i32)],
    start: Pos,
    path: &[Pos],
) -> Vec<(usize, Pos, Vec<Entity>)> {
    let mut left: Vec<i32> = watchers.iter().map(|w| w.1).collect();
    let mut out = vec![];
    let mut at = start;
    for (step, &next) in path.iter().enumerate() {
        let mut reactors = vec![];
        for (i, (t, _)) in watchers.iter().enumerate() {
            if left[i] > 0 && t.covers(at) {
                left[i] -= 1;
                reactors.push(t.unit);
            }
        }
        if !reactors.is_empty() {
            out.push((step, at, reactors));
        }
        at = next;
    }
    out
}
