//! V6.1 the ladder of dice and V6.2 each unit's dice (003:5–13, 35).

use crate::battle::{Battlefield, Stats};
use crate::format::{DIE_LADDER, UnitTemplate};
use crate::rules::contest::Pool;
use bevy::prelude::*;

/// A rank on the ladder: 0 = d2 … 5 = d12 (V6.1).
pub type Rank = i32;

/// The highest rank (d12).
pub const TOP: Rank = DIE_LADDER.len() as Rank - 1;

/// The die of `rank` (V6.1): a rank below d2 stays d2, and ranks above
/// d12 are lost.
pub fn sides(rank: Rank) -> u32 {
    DIE_LADDER[rank.clamp(0, TOP) as usize]
}

/// The pool of `advantage` dice of `rank`, labelled `label`; a rank off
/// the ladder says where it was cut (V6.1).
pub fn pool(rank: Rank, advantage: i32, label: &'static str) -> Pool {
    Pool {
        sides: sides(rank),
        advantage,
        label: label.into(),
        cut: if rank > TOP { rank - TOP } else { rank.min(0) },
    }
}

/// The rank of a die of `sides` (a size `check` let through).
pub fn rank_of(sides: u32) -> Rank {
    DIE_LADDER
        .iter()
        .position(|s| *s >= sides)
        .map_or(TOP, |i| i as Rank)
}

/// V6.2's rank of a stat total `m`: `clamp(2 + ⌊m/2⌋, 0, 5)` (a d6 for 0).
pub fn rank(m: i32) -> Rank {
    (2 + m.div_euclid(2)).clamp(0, TOP)
}

/// A unit's dice under die ranks (V6.2), as ranks: the template's own
/// `dice`, else from its stats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRanks {
    /// ATT = rank(MB + best of STR and DEX): every attack.
    pub att: Rank,
    /// DEF = rank(DEX + armor DV), no shield (V6.5): the passive defence
    /// and the block.
    pub def: Rank,
    /// REF = rank(DEX): the dodge.
    pub reflexes: Rank,
    /// STR = rank(STR): unarmed attacks, less two ranks (V6.9).
    pub str: Rank,
}

impl UnitRanks {
    /// The ranks of `t` wearing armor of `armor_dv`.
    pub fn of(t: &UnitTemplate, armor_dv: i32) -> Self {
        let given = |d: Option<u32>, default: Rank| d.map_or(default, rank_of);
        UnitRanks {
            att: given(t.dice.att, rank(t.mb + t.str.max(t.dex))),
            def: given(t.dice.def, rank(t.dex + armor_dv)),
            reflexes: given(t.dice.reflexes, rank(t.dex)),
            str: given(t.dice.str, rank(t.str)),
        }
    }
}

/// A unit's ranks: its template's with the DV of the armor it wears.
pub fn ranks_of(world: &World, unit: Entity) -> Option<(UnitRanks, UnitTemplate)> {
    let t = world.get::<Stats>(unit)?.template.clone();
    let catalog = &world.resource::<Battlefield>().0.catalog;
    let armor = t
        .armor
        .as_ref()
        .and_then(|a| catalog.armor(a))
        .map_or(0, |a| a.dv);
    Some((UnitRanks::of(&t, armor), t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_clamps_at_both_ends() {
        assert_eq!(sides(-3), 2);
        assert_eq!(sides(0), 2);
        assert_eq!(sides(2), 6);
        assert_eq!(sides(5), 12);
        assert_eq!(sides(9), 12);
        for s in DIE_LADDER {
            assert_eq!(sides(rank_of(s)), s);
        }
    }

    #[test]
    fn ranks_follow_the_stats_as_the_seed_examples_say() {
        // VARIANTS.md V6.2: MB + best of STR and DEX 4 gives d10; 6 gives
        // d12; 0 a d6; −1 a d4; −4 and below a d2.
        assert_eq!(sides(rank(4)), 10);
        assert_eq!(sides(rank(6)), 12);
        assert_eq!(sides(rank(0)), 6);
        assert_eq!(sides(rank(-1)), 4);
        assert_eq!(sides(rank(-4)), 2);
        assert_eq!(sides(rank(-9)), 2);
    }
}
