//! V10 size (001:129–134, 002:211–220, 452, 003:11; `rules: (size: true)`):
//! how much bigger or smaller a target is changes the attack.
//!
//! - **V10.1** a melee attack on a target k categories larger: +2^(k−1);
//!   smaller: −2^(k−1). Not for maneuvers (V7 has its own).
//! - **V10.2** a hit on a target k smaller: +k degrees, k larger: −k, for
//!   its damage dice (never below 1) and its injury (V3: at 0 or below, no
//!   injury).
//! - **V10.3** ranged and thrown attacks by the target's own size: Tiny −4,
//!   Small −2, Large +2, Huge +4, Gargantuan +6.
//! - **V10.4** reach: Huge +1, Tiny −1 (never below 1), in
//!   [`reach_with`](crate::battle::reach_with).
//! - **V10.5** a parry against an attacker 2+ categories larger: +1
//!   disadvantage.
//! - **V10.6** footprints: Large 2×2, Huge 3×3 — the geometry every rule
//!   asks ([`Body`](crate::grid::Body)), given each unit at spawn.

use crate::battle::{Battlefield, Stats};
use crate::format::Size;
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// True when the level plays with size (V10).
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().size)
}

/// Run condition: the level plays with size.
pub fn switched_on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().size)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        add_size_modifiers
            .in_set(AttackSystems::Situational)
            .run_if(switched_on),
    );
}

/// V10.1's modifier for a target `k` categories larger (negative:
/// smaller): ±2^(|k|−1), 0 for the same size.
pub fn melee_modifier(k: i32) -> i32 {
    match k {
        0 => 0,
        k => k.signum() * (1 << (k.abs() - 1).min(8)),
    }
}

/// V10.3's modifier for a target of `size` *(decision: 002:211–220's table,
/// Gargantuan extrapolated)*.
pub fn ranged_modifier(size: Size) -> i32 {
    match size {
        Size::Tiny => -4,
        Size::Small => -2,
        Size::Medium => 0,
        Size::Large => 2,
        Size::Huge => 4,
        Size::Gargantuan => 6,
    }
}

fn add_size_modifiers(mut draft: ResMut<AttackDraft>, stats: Query<&Stats>) {
    if draft.maneuver.is_some() || draft.aims_at_tile() {
        return;
    }
    let (Ok(me), Ok(them)) = (stats.get(draft.attacker), stats.get(draft.target)) else {
        return;
    };
    let (mine, theirs) = (me.template.size, them.template.size);
    let k = theirs as i32 - mine as i32;
    let cats = |k: i32| {
        let n = k.abs();
        format!(
            "{n} size{} {}",
            if n == 1 { "" } else { "s" },
            if k > 0 { "larger" } else { "smaller" }
        )
    };
    match draft.mode {
        AttackMode::Melee if k != 0 => {
            let words = format!("target {} ({})", theirs.label(), cats(k));
            draft.push(Effect::Bonus(melee_modifier(k)), words, Rule::V10_1);
        }
        AttackMode::Ranged | AttackMode::Thrown if ranged_modifier(theirs) != 0 => {
            let words = format!("target {}", theirs.label());
            draft.push(Effect::Bonus(ranged_modifier(theirs)), words, Rule::V10_3);
        }
        _ => {}
    }
    if k != 0 {
        let words = format!("target {} ({})", theirs.label(), cats(k));
        draft.push(Effect::Degrees(-k), words, Rule::V10_2);
    }
    // V10.4, shown where it counts: a blow only the size's reach lands.
    let extra = mine.reach_bonus();
    if draft.mode == AttackMode::Melee
        && extra > 0
        && draft.distance() > draft.weapon.reach + i32::from(draft.lunge)
    {
        draft.push(Effect::Reach(extra), mine.label(), Rule::V10_4);
    }
    // V10.5 (003:11): parrying a giant.
    if -k >= 2 && draft.mode == AttackMode::Melee {
        let words = format!("attacker {} ({})", mine.label(), cats(k));
        draft.push(Effect::Parry(-1), words, Rule::V10_5);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_melee_modifier_doubles_per_category() {
        assert_eq!(
            [-3, -2, -1, 0, 1, 2, 3, 4].map(melee_modifier),
            [-4, -2, -1, 0, 1, 2, 4, 8]
        );
    }
}
