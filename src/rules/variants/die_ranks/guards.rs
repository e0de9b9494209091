//! V6.5's active defences (003:9–15): which a defender may give an
//! attack, and the dice each rolls.

use super::ladder::{Rank, UnitRanks, pool, ranks_of};
use super::switch::contested;
use crate::battle::{Battlefield, Prone, Reactions, units_in};
use crate::format::{Guard, WeaponTrait};
use crate::grid::{Body, Dir};
use crate::rules::contest::Pool;
use crate::rules::modifiers::{AttackDraft, AttackMode};
use crate::rules::positioning::threat::melee_weapon_for;
use crate::rules::variants::active_defence::answerable;
use bevy::prelude::*;

/// The active defences the target of `draft` may give (V6.5), in the
/// order block, parry, dodge; empty when it may give none.
pub fn options(world: &World, draft: &AttackDraft) -> Vec<Guard> {
    let target = draft.target;
    let able = contested(draft)
        && answerable(world, draft)
        && world.get::<Reactions>(target).is_some_and(|n| n.0 > 0);
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
            let bare = weapon.is_none() && draft.weapon.name != crate::format::UNARMED;
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
