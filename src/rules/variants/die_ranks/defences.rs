//! V6.5 active defences (003:9–15) and V6.6 the interrupt budget.
//!
//! Against each attack the defender meets it with its passive DEF, which
//! takes no action, or with one active defence, a minor interrupt:
//!
//! - **Block** (a shield): DEF at +1 advantage, against melee and shots.
//! - **Parry** (melee only): the defender's ATT, at +1 disadvantage when
//!   it is bare-handed against a weapon, its weapon is `NoParry`, or the
//!   attacker is two or more sizes larger (V10.5).
//! - **Dodge**: REF, at +1 disadvantage without room to manoeuvre (fewer
//!   than 2 of the 8 tiles around free and passable, *decision*).
//!
//! None from the rear (R4.3), against an unseen attacker (V8) or while
//! off-guard (R2.3). Each adds 1 to the AP the unit owes its next turn, as
//! a reactive attack does (V6.6): a unit may owe at most
//! [`MOST_OWED`](super::MOST_OWED), the budget that replaces R3.2's
//! reactions. The defender declares its answer with the attack, as under
//! V2: a human is asked, a scenario names it (`defences`, passive when not
//! named), and the AI weighs the harm it saves against the AP it costs.

use super::ladder::{Rank, UnitRanks, pool};
use super::ranks::{contest_for, contested, ranks_of};
use crate::battle::{Battlefield, OffGuard, Prone, Reactions, Side, out_of_action};
use crate::battle::{name_of, units_in};
use crate::format::{Guard, WeaponTrait};
use crate::grid::{Body, Dir};
use crate::rules::attacks::contest::Pool;
use crate::rules::attacks::hit::{AnswerSystems, Hit, HitSchedule};
use crate::rules::attacks::preview::{AttackPreview, preview_of};
use crate::rules::attacks::resolution::unarmed;
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{BattleEvent, Trigger, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, gather};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, DecideSystems, Decisions};
use crate::rules::pipeline::{Handles, Pending};
use crate::rules::positioning::facing::is_rear_attack;
use crate::rules::positioning::threat::melee_weapon_for;
use crate::rules::reactions::ask::{ask_about_reactions, questioned_command, some_side_is_asked};
use crate::rules::reactions::policy::{ReactionPolicy, policy_of};
use crate::rules::rule::Rule;
use crate::rules::variants::active_defence::{GuardOrders, declared_attack, held_attack};
use bevy::prelude::*;

/// What one AP owed is worth to the AI, in HP of harm it saves *(decision,
/// DECISIONS.md)*: an active defence is taken when it saves more.
pub const AP_WORTH: f64 = 0.75;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        HitSchedule::Answer,
        owe_the_interrupt
            .in_set(AnswerSystems::Declared)
            .run_if(super::switched_on),
    )
    .add_systems(
        CommandSchedule,
        (
            ask_the_defender
                .after(ask_about_reactions)
                .in_set(DecideSystems::Ask)
                .run_if(some_side_is_asked),
            refuse_an_answer_it_lacks
                .in_set(Handles(CommandKind::React))
                .in_set(CommandSystems::Validate),
        )
            .run_if(super::switched_on),
    );
}

/// The active defences the target of `draft` may give (V6.5), in the
/// order block, parry, dodge; empty when it may give none.
pub fn options(world: &World, draft: &AttackDraft) -> Vec<Guard> {
    let target = draft.target;
    let able = contested(draft)
        && draft.mode != AttackMode::Thrown
        && !draft.unanswerable
        && !draft.unseen
        && world.get_entity(target).is_ok()
        && world
            .get::<Side>(target)
            .is_some_and(|s| policy_of(world, s.0) != ReactionPolicy::Never)
        && !out_of_action(world, target)
        && !world.entity(target).contains::<OffGuard>()
        && world.get::<Reactions>(target).is_some_and(|n| n.0 > 0)
        && !is_rear_attack(world, draft.from, target);
    if !able {
        return vec![];
    }
    let Some((_, t)) = ranks_of(world, target) else {
        return vec![];
    };
    let mut out = vec![];
    if t.shield.is_some() {
        out.push(Guard::Block);
    }
    if draft.mode == AttackMode::Melee {
        out.push(Guard::Parry);
    }
    if !world.entity(target).contains::<Prone>() {
        out.push(Guard::Dodge);
    }
    out
}

/// The dice of `guard` for the target of `draft` (`None` for the passive
/// defence): `def_up` is the DEF ranks the draft gathered (V6.8).
pub fn guard_pool(
    world: &World,
    draft: &AttackDraft,
    guard: Guard,
    theirs: &UnitRanks,
    def_up: Rank,
) -> Option<Pool> {
    let target = draft.target;
    match guard {
        Guard::None => None,
        Guard::Block => Some(pool(theirs.def + def_up, 1, "DEF, blocking (V6.5)")),
        Guard::Parry => {
            let weapon = melee_weapon_for(world, target, 1);
            let bare = weapon.is_none() && draft.weapon.name != unarmed().name;
            let no_parry = weapon.is_some_and(|w| w.has(WeaponTrait::NoParry));
            let giant = draft.parry_advantage() < 0;
            let hindered = bare || no_parry || giant;
            let label = match (bare, no_parry, giant) {
                (true, ..) => "ATT, parrying bare-handed (V6.5)",
                (_, true, _) => "ATT, parrying with a weapon not made for it (V6.5)",
                (.., true) => "ATT, parrying a giant (V6.5)",
                _ => "ATT, parrying (V6.5)",
            };
            Some(pool(theirs.att, -i32::from(hindered), label))
        }
        Guard::Dodge => {
            let room = room_around(world, target) >= 2;
            let label = if room {
                "REF, dodging (V6.5)"
            } else {
                "REF, dodging with no room (V6.5)"
            };
            Some(pool(theirs.reflexes, -i32::from(!room), label))
        }
    }
}

/// The free, passable tiles among the 8 around `unit` (V6.5's room).
fn room_around(world: &World, unit: Entity) -> usize {
    let Some(at) = world.get::<crate::battle::GridPos>(unit).map(|p| p.0) else {
        return 0;
    };
    let map = &world.resource::<Battlefield>().0.map;
    Dir::ALL
        .iter()
        .map(|d| at.step(*d))
        .filter(|p| map.is_passable(*p) && units_in(world, Body::new(*p, 1)).is_empty())
        .count()
}

/// The answer the target of the gathered `draft` gives: a scenario's
/// order (passive when not named), a human's answer, else the AI's
/// choice ([`best`]).
pub fn chosen(world: &World, draft: &AttackDraft) -> Guard {
    let options = options(world, draft);
    if options.is_empty() {
        return Guard::None;
    }
    let pick = |g: Guard| if options.contains(&g) { g } else { Guard::None };
    if let Some(orders) = world.get_resource::<GuardOrders>() {
        return orders
            .0
            .get(&draft.target)
            .copied()
            .map_or(Guard::None, pick);
    }
    if let Some(g) = world
        .get_resource::<Decisions>()
        .and_then(|d| d.guard_of(draft.target))
    {
        return pick(g);
    }
    best(world, draft, &options)
}

/// The previews of `draft` (gathered, without its contest) met passively
/// and with each of `options`.
pub fn previews(
    world: &World,
    draft: &AttackDraft,
    options: &[Guard],
) -> Vec<(Guard, AttackPreview)> {
    std::iter::once(Guard::None)
        .chain(options.iter().copied())
        .filter_map(|g| {
            let mut d = draft.clone();
            let contest = contest_for(world, &mut d, g)?;
            d.contest = Some(contest);
            for zone in &mut d.armor {
                zone.1 = 0;
            }
            Some((g, preview_of(world, &d)))
        })
        .collect()
}

/// Of the passive defence and `options`, the one with the least harm and
/// chance to drop, an active defence costing [`AP_WORTH`] for the AP it
/// adds to the debt.
pub fn best(world: &World, draft: &AttackDraft, options: &[Guard]) -> Guard {
    let hp = world
        .get::<crate::battle::Health>(draft.target)
        .map_or(1, |h| h.hp);
    let score = |g: Guard, p: &AttackPreview| {
        let cost = if g == Guard::None { 0.0 } else { AP_WORTH };
        p.harm() + p.drop(hp) * f64::from(hp) + cost
    };
    previews(world, draft, options)
        .into_iter()
        .map(|(g, p)| (score(g, &p), g))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(Guard::None, |(_, g)| g)
}

/// An active defence rolled with the contest is an interrupt: 1 AP more
/// owed (V6.6). The answer rules the hit: no R8.6 parry follows.
fn owe_the_interrupt(world: &mut World) {
    let mut hit = world.resource::<Hit>().clone();
    hit.answer_declared = true;
    let guard = hit.draft.contest.as_ref().map_or(Guard::None, |c| c.guard);
    world.insert_resource(hit.clone());
    if guard == Guard::None {
        return;
    }
    let unit = hit.draft.target;
    if let Some(mut n) = world.get_mut::<Reactions>(unit) {
        n.0 -= 1;
    }
    let owed = super::owed(world, unit);
    let unit = id_of(world, unit);
    emit(world, BattleEvent::Owes { unit, guard, owed });
}

/// Decide phase: the defender of an attack of an `Ask` side declares its
/// answer with it, as a question (after the reactions it provokes).
fn ask_the_defender(world: &mut World) {
    let Some((command, actor)) = questioned_command(world) else {
        return;
    };
    let (target, from) = {
        let pending = world.resource::<Pending>();
        let path_end = pending.plan.as_ref().and_then(|p| p.path.last().copied());
        (pending.target, path_end)
    };
    if let Some(draft) = target.and_then(|t| declared_attack(world, actor, t, &command, from)) {
        let gathered = gather(world, draft);
        if !options(world, &gathered).is_empty() {
            let question = (gathered.target, Trigger::Attacked);
            world.resource_mut::<Pending>().questions.push(question);
        }
    }
}

/// An answer must be one the unit can give the held attack.
fn refuse_an_answer_it_lacks(world: &mut World) {
    let actor = world.resource::<Pending>().actor;
    if let Some(Command::React {
        take: true,
        guard: Some(g),
        ..
    }) = world.resource::<Pending>().command.clone()
        && let Some(unit) = actor
        && g != Guard::None
        && !held_attack_options(world, unit).contains(&g)
    {
        let who = name_of(world, unit);
        world.resource_mut::<Pending>().refuse(Refusal::new(
            Rule::V6_5,
            format!("{who} cannot {} this attack", g.label()),
        ));
    }
}

/// The active defences `defender` has to the held attack.
pub fn held_attack_options(world: &World, defender: Entity) -> Vec<Guard> {
    held_attack(world)
        .filter(|d| d.target == defender)
        .map(|d| options(world, &d))
        .unwrap_or_default()
}

/// The held attack on `defender` previewed with each active defence it
/// has and with its passive DEF (the question's odds).
pub fn held_attack_odds(world: &mut World, defender: Entity) -> Vec<(Guard, AttackPreview)> {
    let Some(draft) = held_attack(world).filter(|d| d.target == defender) else {
        return vec![];
    };
    let gathered = gather(world, draft);
    let mut plain = gathered.clone();
    plain.contest = None;
    let options = options(world, &gathered);
    let mut out = previews(world, &plain, &options);
    // The passive defence last, as V2's "no answer".
    out.rotate_left(1);
    out
}

/// The answer to the held attack the AI would give.
pub fn held_attack_best(world: &mut World, defender: Entity) -> Option<Guard> {
    let draft = held_attack(world).filter(|d| d.target == defender)?;
    let gathered = gather(world, draft);
    let options = options(world, &gathered);
    Some(best(world, &gathered, &options)).filter(|g| *g != Guard::None)
}
