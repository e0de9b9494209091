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

use super::guards::options;
use super::ranks::contest_for;
use super::switch::{contested, owed, switched_on};
use crate::battle::Reactions;
use crate::format::Guard;
use crate::rules::attacks::hit::{AnswerSystems, Hit, HitSchedule};
use crate::rules::attacks::preview::{AttackPreview, preview_of};
use crate::rules::events::{BattleEvent, Debt, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackSchedule, AttackSystems, gather};
use crate::rules::pipeline::Decisions;
use crate::rules::variants::active_defence::{GuardOrders, held_attack};
use bevy::prelude::*;

/// What one AP owed is worth to the AI, in HP of harm it saves *(decision,
/// DECISIONS.md)*: an active defence is taken when it saves more.
pub const AP_WORTH: f64 = 0.75;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        gather_the_contest
            .in_set(AttackSystems::Answer)
            .run_if(switched_on),
    )
    .add_systems(
        HitSchedule::Answer,
        owe_the_interrupt
            .in_set(AnswerSystems::Declared)
            .run_if(switched_on),
    );
}

/// Turns the gathered draft into a contest: the attacker's dice and ranks,
/// the defender's answer (V6.5) and its dice. No armor stands against the
/// successes (V6.4): it is in the DEF die.
fn gather_the_contest(world: &mut World) {
    let draft = world.resource::<AttackDraft>().clone();
    if !contested(&draft) || draft.refusal.is_some() {
        return;
    }
    let guard = chosen(world, &draft);
    if let Some(draft) = met_with(world, &draft, guard) {
        world.insert_resource(draft);
    }
}

/// `draft` (gathered) rolled as the contest it is when met with `guard`
/// (`Guard::None`: the passive DEF), its ranks listed; no armor stands
/// against its successes (V6.4). `None` when the attacker has no stats.
fn met_with(world: &World, draft: &AttackDraft, guard: Guard) -> Option<AttackDraft> {
    let mut d = draft.clone();
    d.contest = Some(contest_for(world, &mut d, guard)?);
    for zone in &mut d.armor {
        zone.1 = 0;
    }
    Some(d)
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
        .filter_map(|g| Some((g, preview_of(world, &met_with(world, draft, g)?))))
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
/// owed (V6.6). (The resolution has already marked the hit answered, so
/// no R8.6 parry follows a contest.)
fn owe_the_interrupt(world: &mut World) {
    let (unit, guard) = {
        let hit = world.resource::<Hit>();
        let guard = hit.draft.contest.as_ref().map_or(Guard::None, |c| c.guard);
        (hit.draft.target, guard)
    };
    if guard == Guard::None {
        return;
    }
    if let Some(mut n) = world.get_mut::<Reactions>(unit) {
        n.0 -= 1;
    }
    let debt = Debt {
        unit: id_of(world, unit),
        owed: owed(world, unit),
        guard: Some(guard),
    };
    emit(world, BattleEvent::Owes(debt));
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
    let options = options(world, &gathered);
    let mut out = previews(world, &gathered, &options);
    // The passive defence last, as V2's "no answer".
    out.rotate_left(1);
    out
}

/// The answer to the held attack the rules give for a side that always
/// reacts and for the AI; `None` for the passive DEF.
pub fn held_attack_best(world: &mut World, defender: Entity) -> Option<Guard> {
    let draft = held_attack(world).filter(|d| d.target == defender)?;
    let gathered = gather(world, draft);
    let options = options(world, &gathered);
    Some(best(world, &gathered, &options)).filter(|g| *g != Guard::None)
}
