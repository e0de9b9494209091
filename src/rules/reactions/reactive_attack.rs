//! R8.1–R8.5 reactive attacks: on the triggers of R8.2, by the reactors of
//! R8.3, resolved before the trigger's effects (R8.4), in initiative order
//! (R8.5), one per reactor and trigger. R3.2 limits each unit to
//! `1 + max(STR, DEX, 0)` a round; R2.3 none before its first turn.

use super::policy::{ReactionPolicies, ReactionPolicy, policy_of};
use crate::battle::{GridPos, Health, OffGuard, Prone, Side, out_of_action, side_of_body};
use crate::grid::{Body, Pos};
use crate::rules::attacks::attack::{DeclaredAttack, declare_attack, make_attack};
use crate::rules::attacks::resolution::resolve;
use crate::rules::command::CommandKind;
use crate::rules::events::{BattleEvent, Trigger, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Decisions, Handles, Pending};
use crate::rules::positioning::heights::{height_gap, heights_in_play};
use crate::rules::positioning::threat::{Threat, melee_weapon_for, threat_of};
use crate::rules::rule::Rule;
use crate::rules::turns::turn::TurnState;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// The schedule run as a reactive attack is made, before its roll: a rule
/// that makes a reaction another way (a trip, V7.4) takes it here.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReactSchedule;

/// The reactive attack about to be made (R8.1), while [`ReactSchedule`]
/// runs: a rule that makes it another way sets `made`, and the weapon blow
/// is not struck.
#[derive(Resource, Clone, Debug)]
pub struct Reacting {
    /// The blow the reactor would strike.
    pub draft: AttackDraft,
    /// What provoked it.
    pub trigger: Trigger,
    /// A rule made the reaction its own way.
    pub made: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_schedule(ReactSchedule);
    app.add_systems(
        CommandSchedule,
        provoke_the_shot
            .after(declare_attack)
            .before(make_attack)
            .in_set(Handles(CommandKind::Attack))
            .in_set(CommandSystems::Execute),
    );
}

/// R8.2: a ranged attack from a threatened tile provokes, before the shot
/// (R8.4): between the Attack's declaration and its roll. If a reactive
/// attack stops the attacker, the shot is not made.
fn provoke_the_shot(world: &mut World) {
    let Some(draft) = world.get_resource::<DeclaredAttack>().map(|d| d.0.clone()) else {
        return;
    };
    if draft.mode == AttackMode::Ranged && !provoke(world, draft.attacker, Trigger::Shoot) {
        world.resource_mut::<Pending>().interrupted = true;
    }
}

/// R8.3: the units that may react to `provoker` in its tile now: enemies
/// that threaten the tile (R4.4), are not off-guard (R2.3) and have a
/// reaction left (R3.2), in initiative order (R8.5), whose side takes them.
pub fn reactors(world: &mut World, provoker: Entity) -> Vec<Entity> {
    let (Some(side), Some(at)) = (
        world.get::<Side>(provoker).copied(),
        crate::battle::body_of(world, provoker),
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
                .is_some_and(|s| may_strike(world, provoker, side, s.0))
                && !e.contains::<OffGuard>()
                && crate::battle::reactive_attacks_left(world, r) > 0
                && threat_of(world, r).is_some_and(|t| t.covers_body(at))
        })
        .collect()
}

/// Whether a unit of side `theirs` could make a reactive attack on
/// `provoker` (of side `mine`): an enemy whose side takes reactions and
/// sees the provoker, for no unit may be targeted unseen (V8.8: a hidden
/// unit that sneaks out of reach provokes nothing, *decision*, DECISIONS.md).
fn may_strike(world: &World, provoker: Entity, mine: Side, theirs: usize) -> bool {
    theirs != mine.0
        && policy_of(world, theirs) != ReactionPolicy::Never
        && !crate::battle::hidden_from(world, provoker, theirs)
}

/// The enemies that threaten `provoker`'s tile but may not react, with the
/// rule that stops them: off-guard (R2.3) or out of reactions (R3.2), in
/// initiative order. Told as [`BattleEvent::ReactionBarred`] so that a
/// player sees why no blow came.
pub fn barred(world: &World, provoker: Entity) -> Vec<(Entity, Rule)> {
    let Some(at) = crate::battle::body_of(world, provoker) else {
        return vec![];
    };
    barred_enemies(world, provoker)
        .into_iter()
        .filter(|(r, _)| threat_of(world, *r).is_some_and(|t| t.covers_body(at)))
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
                .is_some_and(|s| may_strike(world, provoker, side, s.0));
            let ready = if e.contains::<OffGuard>() {
                Err(Rule::R2_3)
            } else if crate::battle::reactive_attacks_left(world, r) <= 0 {
                // Under Energy the Swift Attack is the budget (V5.9).
                Err(if crate::battle::energy(world) {
                    Rule::V5_9
                } else {
                    Rule::R3_2
                })
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
/// reaches it, across the height between them too where heights bound the
/// reach (V9.6: as R4.4's threat reads the longest reach, a shorter weapon
/// first in hand must not be picked for a blow it cannot span), no
/// iterative penalty. `None` when no weapon reaches. The rules resolve it;
/// the AI and the window preview it.
pub fn reactive_draft(
    world: &World,
    reactor: Entity,
    provoker: Entity,
    at: Pos,
) -> Option<AttackDraft> {
    let from = world.get::<GridPos>(reactor)?.0;
    let (mine, theirs) = (side_of_body(world, reactor), side_of_body(world, provoker));
    let (a, b) = (Body::new(from, mine), Body::new(at, theirs));
    let climb = heights_in_play(world).map_or(0, |level| height_gap(&level.map, a, b));
    let weapon = melee_weapon_for(world, reactor, a.gap(b).max(climb))?;
    let mut draft = AttackDraft::new(reactor, provoker, weapon, AttackMode::Melee, from, at);
    draft.reaction = true;
    Some(draft)
}

/// Resolves every reactive attack `trigger` draws (R8.1–R8.5), before its
/// effects. Returns whether the provoking action goes on: not when a
/// reaction left the provoker out of action, knocked it prone (R8.4) or
/// stunned it (V3).
pub fn provoke(world: &mut World, provoker: Entity, trigger: Trigger) -> bool {
    provoke_from(world, provoker, trigger, None)
}

/// [`provoke`], with only `only` (when given) among the reactors: a
/// maneuver provokes its target alone (V7.2).
pub fn provoke_from(
    world: &mut World,
    provoker: Entity,
    trigger: Trigger,
    only: Option<Entity>,
) -> bool {
    let goes_on = react_to(world, provoker, trigger, only, &mut None);
    if !goes_on {
        let unit = id_of(world, provoker);
        emit(world, BattleEvent::ActionInterrupted { unit });
    }
    goes_on
}

/// [`provoke`] on a Move's way: the reactions, without telling that the
/// action ends (R8.4): the walk tells it after its move, in the order a
/// reader expects. `walked`, the stretch walked since the Move started or
/// was last told, is told first, and only if a reaction is taken (it is
/// then taken out): a walk no blow meets reads as one Move, the enemies
/// that could not react (`cannot react`, which name the tile) before it.
pub fn provoke_on_the_way(
    world: &mut World,
    provoker: Entity,
    trigger: Trigger,
    walked: &mut Option<BattleEvent>,
) -> bool {
    react_to(world, provoker, trigger, None, walked)
}

/// The reactions `trigger` draws; whether the provoking action goes on.
/// `prelude` is told before the first reaction taken.
fn react_to(
    world: &mut World,
    provoker: Entity,
    trigger: Trigger,
    only: Option<Entity>,
    prelude: &mut Option<BattleEvent>,
) -> bool {
    let was_prone = world.entity(provoker).contains::<Prone>();
    let was_stunned = world.entity(provoker).contains::<crate::battle::Stunned>();
    let id = id_of(world, provoker);
    let among = |r: &Entity| only.is_none_or(|o| o == *r);
    let barred: Vec<_> = barred(world, provoker)
        .into_iter()
        .filter(|(r, _)| among(r))
        .collect();
    for (reactor, rule) in barred {
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
    let reactors: Vec<_> = reactors(world, provoker)
        .into_iter()
        .filter(among)
        .collect();
    for reactor in reactors {
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
        let draft = pick_in_pair(world, reactor, provoker, to, draft);
        crate::battle::spend_reactive_attack(world, reactor);
        let strikes = (draft.target != provoker).then(|| id_of(world, draft.target));
        tell_first(world, prelude);
        let event = BattleEvent::ReactionTaken {
            reactor: id_of(world, reactor),
            provoker: id_of(world, provoker),
            trigger,
            strikes,
        };
        emit(world, event);
        if crate::battle::energy(world) {
            // Under Energy it is the round's Swift Attack (V5.9).
            let unit = id_of(world, reactor);
            let energy_left = world
                .get::<crate::battle::ActionPoints>(reactor)
                .map_or(0, |a| a.ap);
            let swift = crate::rules::events::EnergyEvent::Swift { unit, energy_left };
            emit(world, BattleEvent::Energy(swift));
        }
        world.insert_resource(Reacting {
            draft: draft.clone(),
            trigger,
            made: false,
        });
        world.run_schedule(ReactSchedule);
        let made = world.remove_resource::<Reacting>().is_some_and(|r| r.made);
        if !made {
            resolve(world, draft);
        }
    }
    let stopped = out_of_action(world, provoker)
        || (!was_prone && world.entity(provoker).contains::<Prone>())
        || (!was_stunned && world.entity(provoker).contains::<crate::battle::Stunned>());
    !stopped
}

/// Tells `prelude`, once, before a reaction taken.
fn tell_first(world: &mut World, prelude: &mut Option<BattleEvent>) {
    if let Some(event) = prelude.take() {
        emit(world, event);
    }
}

/// A mounted pair provokes as one, and each reactor strikes rider or mount
/// (V12.5), *(decision)* the one its attack is likelier to put out of
/// action, then the one it harms more, then the one that provoked.
fn pick_in_pair(
    world: &mut World,
    reactor: Entity,
    provoker: Entity,
    at: Pos,
    draft: AttackDraft,
) -> AttackDraft {
    let Some(other) = crate::battle::partner(world, provoker).filter(|o| !out_of_action(world, *o))
    else {
        return draft;
    };
    let Some(alt) = reactive_draft(world, reactor, other, at) else {
        return draft;
    };
    let score = |world: &mut World, d: &AttackDraft| {
        let hp = world.get::<Health>(d.target).map_or(0, |h| h.hp);
        crate::rules::attacks::preview::preview_attack(world, d.clone())
            .map_or((0.0, 0.0), |p| (p.drop(hp), p.harm()))
    };
    let (a, b) = (score(world, &draft), score(world, &alt));
    if b.0 > a.0 + 1e-9 || ((b.0 - a.0).abs() <= 1e-9 && b.1 > a.1 + 1e-9) {
        alt
    } else {
        draft
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
                .map(|r| crate::battle::name_of(world, r))
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
    steps_provoking(&watchers, side_of_body(world, unit), start, path)
}

/// The units that could react to `unit` this turn ([`watchers`]) with the
/// reactions each has left (R3.2).
pub fn watchers_with_reactions(world: &World, unit: Entity) -> Vec<(Threat, i32)> {
    watchers(world, unit)
        .into_iter()
        .map(|t| {
            let left = crate::battle::reactive_attacks_left(world, t.unit);
            (t, left)
        })
        .collect()
}

/// The steps of a Move of a body of side `n` from `start` along `path`
/// that provoke the `watchers` (with their reactions left), counted down as
/// the walk does.
pub fn steps_provoking(
    watchers: &[(Threat, i32)],
    n: i32,
    start: Pos,
    path: &[Pos],
) -> Vec<(usize, Pos, Vec<Entity>)> {
    let mut left: Vec<i32> = watchers.iter().map(|w| w.1).collect();
    let mut out = vec![];
    let mut at = start;
    for (step, &next) in path.iter().enumerate() {
        let mut reactors = vec![];
        for (i, (t, _)) in watchers.iter().enumerate() {
            if left[i] > 0 && t.covers_body(Body::new(at, n)) {
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
