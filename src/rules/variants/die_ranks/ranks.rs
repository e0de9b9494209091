//! The contest of an attack under die ranks, gathered with it (V6.3,
//! V6.7–V6.9): which dice each side rolls, with today's modifiers as
//! advantages and ranks.

use super::guards;
use super::ladder::{Rank, UnitRanks, pool, ranks_of};
use crate::battle::OffGuard;
use crate::format::{Guard, UnitTemplate};
use crate::rules::contest::{Contest, Pool};
use crate::rules::modifiers::{AttackDraft, AttackMode, Effect};
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The most successes a roll counts (V6.4 *decision*: 003 never names more
/// than "triple").
pub const CAP: u32 = 3;

/// The contest of `draft` met with `guard` (`Guard::None`: the passive
/// defence), pushing the ranks it adds to the draft's modifiers for the
/// log. `None` when the attacker has no stats.
pub fn contest_for(world: &World, draft: &mut AttackDraft, guard: Guard) -> Option<Contest> {
    // A draft gathered once already carries its ranks: counted afresh.
    draft.modifiers.retain(|m| m.rule != Rule::V6_8);
    let (mine, me) = ranks_of(world, draft.attacker)?;
    let attack = attack_pool(draft, &mine, &me);
    let defence = if draft.aims_at_tile() {
        pool(
            range_minimum(draft),
            0,
            "a tile: the range's least die (V6.7)",
        )
    } else {
        defence_pool(world, draft, guard)?
    };
    Some(Contest {
        attack,
        defence,
        guard,
        cap: CAP,
    })
}

/// V6.3: ATT for every weapon, STR less two ranks bare-handed (V6.9), with
/// every advantage the rules gathered (V6.8) and the ranks of a Power
/// Attack or Deadly Aim (1 a Stamina, up to MB) and a weapon's bonus.
fn attack_pool(draft: &mut AttackDraft, mine: &UnitRanks, me: &UnitTemplate) -> Pool {
    let bare = draft.weapon.name == crate::format::UNARMED;
    let (base, label) = if let Some(spell) = &draft.spell {
        // A spell attack rolls the spell's attribute, PRE for WIS (V11.9).
        (
            super::ladder::rank(me.attribute(spell.attribute)),
            "PRE (a spell, V11.9)",
        )
    } else if bare {
        (mine.str - 2, "STR −2 ranks (bare hands, V6.9)")
    } else {
        (mine.att, "ATT")
    };
    let power = draft.power.min(me.mb).max(0);
    if power > 0 {
        draft.push(Effect::AttackRank(power), "Stamina spent", Rule::V6_8);
    }
    if draft.weapon.attack_bonus >= 1 {
        let w = draft.weapon.name.clone();
        draft.push(Effect::AttackRank(1), w, Rule::V6_8);
    }
    let up = rank_sum(draft, |e| match e {
        Effect::AttackRank(n) => Some(n),
        _ => None,
    });
    pool(base + up, draft.advantage(), label)
}

/// The defender's dice: its answer's (V6.5), else its passive DEF with
/// the ranks of Defend, a readied shield and soft cover (V6.8), at +1
/// disadvantage when it is unaware, or the range's minimum die against a
/// shot at an unaware target (V6.7).
fn defence_pool(world: &World, draft: &mut AttackDraft, guard: Guard) -> Option<Pool> {
    let (theirs, them) = ranks_of(world, draft.target)?;
    // A spell that is no blow (no damage type) meets the better of PRE and
    // FOR (V11.9, 003:5 *decision*); a physical one, DEF as a shot does.
    if draft
        .spell
        .as_ref()
        .is_some_and(|s| s.damage_type.is_none())
    {
        let (pre, r#for) = (super::ladder::rank(them.wis), super::ladder::rank(them.con));
        let label = if pre >= r#for {
            "PRE (against a spell, V11.9)"
        } else {
            "FOR (against a spell, V11.9)"
        };
        return Some(pool(pre.max(r#for), 0, label));
    }
    // V6.8: the DV that R4.6 and R6.3 add, as DEF ranks.
    let mut ranks = vec![];
    for m in &draft.modifiers {
        match (m.rule, m.effect) {
            (Rule::R4_6, Effect::Dv(n)) if n > 0 => ranks.push((1, m.source.clone())),
            // Each creature's +2 DV a rank, one more per +2 of its size.
            (Rule::R6_3, Effect::Dv(n)) if n > 0 => ranks.push(((n + 1) / 2, m.source.clone())),
            _ => {}
        }
    }
    for (n, source) in ranks {
        draft.push(Effect::DefenceRank(n), source, Rule::V6_8);
    }
    let def_up = rank_sum(draft, |e| match e {
        Effect::DefenceRank(n) => Some(n),
        _ => None,
    });
    if let Some(pool) = guards::guard_pool(world, draft, guard, &theirs, def_up) {
        return Some(pool);
    }
    let def = theirs.def + def_up;
    if !unaware(world, draft) {
        return Some(pool(def, 0, "DEF"));
    }
    let least = range_minimum(draft);
    if draft.mode != AttackMode::Melee && least >= def {
        return Some(pool(least, 0, "the range's least die, unaware (V6.7)"));
    }
    Some(pool(def, -1, "DEF, unaware (V6.7)"))
}

/// An unaware target (V6.7, 003:7): off-guard (R2.3), or struck by an
/// attacker its side does not see (V8.7).
pub fn unaware(world: &World, draft: &AttackDraft) -> bool {
    draft.unseen
        || world
            .get_entity(draft.target)
            .is_ok_and(|e| e.contains::<OffGuard>())
}

/// The least die a shot meets (V6.7 *decision*, 003's table being
/// missing): a d4 within the first increment (or the trio's near and
/// normal), a rank more per further increment, up to a d12.
fn range_minimum(draft: &AttackDraft) -> Rank {
    let further: i32 = draft
        .modifiers
        .iter()
        .filter(|m| m.rule == Rule::R7_4)
        .map(|m| match m.effect {
            Effect::Advantage(n) => (-n).max(0),
            _ => 0,
        })
        .sum();
    1 + further
}

fn rank_sum(draft: &AttackDraft, pick: impl Fn(Effect) -> Option<i32>) -> Rank {
    draft.modifiers.iter().filter_map(|m| pick(m.effect)).sum()
}
