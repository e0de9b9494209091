//! V5.10 (002:190–246): under Energy a ranged or thrown attack is a d20
//! with advantage against the target's Miss Chance, gathered here with the
//! attack and rolled and previewed by the core
//! ([`miss_chance`](crate::rules::miss_chance)):
//!
//! MC = 8 − Accuracy − ½DEX (shooter) + size + movement + soft cover
//! \+ the target's evasion: d4! + ½DEX + its shield facing the shot − its
//! armor's penalty.
//!
//! The Hit roll keeps the attack's advantages (range, cover, R7.6, prone,
//! V13) but the rear arc's, which the evasion pays instead (disadvantage,
//! no shield); bonuses and DV give way to the Miss Chance's terms.

use super::switch::switched_on;
use crate::battle::{
    Battlefield, Defending, Dying, Facing, GridPos, OffGuard, Prone, Stable, Stats, Stride,
    Surprised,
};
use crate::format::Size;
use crate::rules::contest::Pool;
use crate::rules::miss_chance::{Evasion, MissChance, Term};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::positioning::facing::in_front_of;
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The movement term of a target that has not changed tiles since its
/// last turn began, and of one that sprinted (002:222–226).
const STILL: i32 = -5;
const SPRINTED: i32 = 5;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        gather_the_miss_chance
            .in_set(AttackSystems::Answer)
            .run_if(switched_on),
    );
}

/// A "halved modifier" (002): integer division toward zero.
fn halved(n: i32) -> i32 {
    n / 2
}

fn term(value: i32, source: impl Into<std::borrow::Cow<'static, str>>) -> Term {
    Term {
        value,
        source: source.into(),
        rule: Rule::V5_10,
    }
}

/// The size term (002:211–220; Gargantuan −6 *decision*).
fn size_term(size: Size) -> i32 {
    match size {
        Size::Tiny => 4,
        Size::Small => 2,
        Size::Medium => 0,
        Size::Large => -2,
        Size::Huge => -4,
        Size::Gargantuan => -6,
    }
}

fn gather_the_miss_chance(world: &mut World) {
    let draft = world.resource::<AttackDraft>().clone();
    let shot = matches!(draft.mode, AttackMode::Ranged | AttackMode::Thrown);
    // A spell attack keeps V11.3's roll against DV.
    let other = draft.maneuver.is_some() || draft.spell.is_some() || draft.contest.is_some();
    if !shot || other || draft.auto_hit() {
        return;
    }
    let chance = miss_chance(world, &draft);
    let mut draft = draft;
    // The rear arc is the evasion's to pay (002:404); bonuses and DV are
    // the Miss Chance's terms now.
    draft.modifiers.retain(|m| match m.effect {
        Effect::Advantage(_) => m.rule != Rule::R4_3,
        Effect::Bonus(_) | Effect::Dv(_) => false,
        _ => true,
    });
    let advantage = draft.advantage();
    draft.miss_chance = Some(MissChance {
        advantage,
        ..chance
    });
    // The evasion is the target's answer to a shot (V2 answers melee).
    draft.answer = None;
    world.insert_resource(draft);
}

/// The Miss Chance of `draft`'s shot, its Hit roll's advantage left to
/// the caller.
fn miss_chance(world: &World, draft: &AttackDraft) -> MissChance {
    let shooter = world.get::<Stats>(draft.attacker).map(|s| &s.template);
    let mut terms = vec![
        term(8, "base"),
        term(-draft.weapon.accuracy(), "Accuracy"),
        term(-halved(shooter.map_or(0, |t| t.dex)), "½DEX"),
    ];
    terms.retain(|t| t.value != 0 || t.source == "base");
    let soft: i32 = draft
        .modifiers
        .iter()
        .filter(|m| m.rule == Rule::R6_3)
        .filter_map(|m| match m.effect {
            Effect::Dv(n) => Some(n),
            _ => None,
        })
        .sum();
    if draft.aims_at_tile() {
        terms.push(term(STILL, "a tile stands still"));
        return MissChance {
            terms,
            evasion: None,
            target_wins_ties: false,
            advantage: 0,
        };
    }
    let target = world.entity(draft.target);
    let t = target.get::<Stats>().map(|s| &s.template);
    let size = size_term(t.map_or(Size::Medium, |t| t.size));
    if size != 0 {
        terms.push(term(size, "size"));
    }
    let at = target.get::<GridPos>().map(|p| p.0);
    match target.get::<Stride>() {
        Some(s) if s.sprinted => terms.push(term(SPRINTED, "sprinted")),
        Some(s) if Some(s.from) == at => terms.push(term(STILL, "standing still")),
        _ => {}
    }
    if soft != 0 {
        terms.push(term(soft, "soft cover"));
    }
    MissChance {
        terms,
        evasion: evasion(world, draft),
        target_wins_ties: target.contains::<Defending>(),
        advantage: 0,
    }
}

/// The target's Ranged Evasion roll (002:204, 336), if it may avoid the
/// shot: aware, not off-guard, surprised, down, held, nor shot unseen
/// (002:202, 346; V8).
fn evasion(world: &World, draft: &AttackDraft) -> Option<Evasion> {
    let target = world.entity(draft.target);
    let held = target
        .get::<crate::rules::variants::maneuvers::grappled::Grappled>()
        .is_some_and(|g| g.hold == crate::rules::command::Hold::Held);
    let unaware = target.contains::<OffGuard>() || target.contains::<Surprised>();
    let down = target.contains::<Dying>() || target.contains::<Stable>();
    if unaware || down || held || draft.unseen {
        return None;
    }
    let t = &target.get::<Stats>()?.template;
    let catalog = &world.resource::<Battlefield>().0.catalog;
    let facing = target.get::<Facing>().map(|f| f.0)?;
    let front = in_front_of(draft.target_body(), facing, draft.from_tile());
    let mut advantage = 0;
    let mut terms = vec![term(halved(t.dex), "½DEX")];
    if front {
        if let Some(shield) = t.shield.as_ref().and_then(|s| catalog.shield(s))
            && shield.dv != 0
        {
            terms.push(term(shield.dv, shield.name.clone()));
        }
    } else {
        advantage -= 1;
    }
    if target.contains::<Prone>() {
        advantage -= 1;
    }
    if let Some(armor) = t.armor.as_ref().and_then(|a| catalog.armor(a))
        && armor.penalty != 0
    {
        terms.push(term(-armor.penalty, format!("{} penalty", armor.name)));
    }
    terms.retain(|t| t.value != 0);
    let label = match (front, target.contains::<Prone>()) {
        (true, false) => "evasion",
        (false, false) => "evasion, rear arc",
        (true, true) => "evasion, prone",
        (false, true) => "evasion, rear arc and prone",
    };
    Some(Evasion {
        die: Pool {
            sides: 4,
            advantage,
            label: label.into(),
            cut: 0,
        },
        terms,
    })
}
