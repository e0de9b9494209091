//! R6.1–R6.3 on attacks: no attack without a line of effect; terrain cover
//! (partial +1, total +2 disadvantage); soft cover from creatures on the
//! line of ranged and thrown attacks (+2 DV each, +2 more per size category
//! larger than the target).

use crate::battle::{Battlefield, Dead, GridPos, Prone, Stats, UnitId};
use crate::format::Size;
use crate::grid::Pos;
use crate::rules::command::Refusal;
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::rule::Rule;
use crate::rules::sight::line_of_effect::{Cell, sight, supercover};
use crate::terrain::Cover;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        (add_terrain_cover, add_soft_cover).in_set(AttackSystems::Situational),
    );
}

/// R6.1, R6.2: refuses an attack without a line of effect; adds the
/// greatest terrain cover on the line.
fn add_terrain_cover(mut draft: ResMut<AttackDraft>, field: Res<Battlefield>) {
    let target = GridPos(draft.at);
    let map = &field.0.map;
    let s = sight(map, draft.from, target.0);
    if !s.clear {
        let why = format!("no line of effect from {} to {}", draft.from, target.0);
        draft.refuse(Refusal::new(Rule::R6_1, why));
        return;
    }
    let name = s
        .cover_at
        .and_then(|p| map.get(p))
        .map_or(String::new(), |t| t.name.clone());
    match s.cover {
        Cover::Partial => draft.push(
            Effect::Advantage(-1),
            format!("partial cover ({name})"),
            Rule::R6_2,
        ),
        Cover::Total => draft.push(
            Effect::Advantage(-2),
            format!("total cover ({name})"),
            Rule::R6_2,
        ),
        Cover::None => {}
    }
}

/// Size categories from Tiny (0) up.
pub fn size_rank(size: Size) -> i32 {
    size as i32
}

/// R6.3: each standing creature on the line gives the target +2 DV, +2 more
/// per size category it is larger than the target; where the line passes a
/// corner, the lesser of the two tiles counts *(decision, as R6.1)*. Lying
/// creatures (prone, dying) do not block *(decision)*. The tiles of the
/// line from `from` to `target` that give soft cover, with the DV each
/// gives; the attack schedule sums them, the window marks them.
pub fn soft_cover(world: &mut World, from: Pos, target: Entity) -> Vec<(Pos, i32)> {
    let mut units =
        world.query_filtered::<(&GridPos, &Stats, Has<Prone>, Has<Dead>), With<UnitId>>();
    let Ok((to, target_stats, ..)) = units.get(world, target) else {
        return vec![];
    };
    let (to, target_size) = (to.0, size_rank(target_stats.template.size));
    let standing: Vec<(Pos, i32)> = units
        .iter(world)
        .filter(|(_, _, prone, dead)| !prone && !dead)
        .map(|(p, s, ..)| (p.0, size_rank(s.template.size)))
        .collect();
    let bonus_at = |p: Pos| {
        standing
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(0, |(_, size)| 2 + 2 * (size - target_size).max(0))
    };
    supercover(from, to)
        .into_iter()
        .filter_map(|cell| {
            let (at, bonus) = match cell {
                Cell::Tile(p) => (p, bonus_at(p)),
                Cell::Corner(a, b) => {
                    let (ba, bb) = (bonus_at(a), bonus_at(b));
                    if ba <= bb { (a, ba) } else { (b, bb) }
                }
            };
            (bonus > 0).then_some((at, bonus))
        })
        .collect()
}

fn add_soft_cover(world: &mut World) {
    let Some((from, target, mode)) = world
        .get_resource::<AttackDraft>()
        .map(|d| (d.from, d.target, d.mode))
    else {
        return;
    };
    if mode == AttackMode::Melee {
        return;
    }
    let total: i32 = soft_cover(world, from, target).iter().map(|(_, b)| b).sum();
    if total > 0 {
        world
            .resource_mut::<AttackDraft>()
            .push(Effect::Dv(total), "soft cover", Rule::R6_3);
    }
}
