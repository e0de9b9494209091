//! Heights (V9.1) as positions read them: whether a level's heights are in
//! play, and how many metres part two bodies (V9.6 reach across heights,
//! for threats and attacks alike).

use crate::battle::Battlefield;
use crate::grid::Body;
use crate::load::ValidLevel;
use crate::terrain::TerrainMap;
use bevy::prelude::*;
use std::sync::Arc;

/// The level when its heights matter (V9 on, and some tile above another):
/// what bounds reach across heights (V9.6).
pub fn heights_in_play(world: &World) -> Option<Arc<ValidLevel>> {
    let level = &world.get_resource::<Battlefield>()?.0;
    (level.rules().jumping && level.map.has_heights()).then(|| level.clone())
}

/// The least difference in metres between a tile of `a` and one of `b`
/// (V9.6, V10.6 for bodies).
pub fn height_gap(map: &TerrainMap, a: Body, b: Body) -> i32 {
    a.tiles()
        .flat_map(|s| {
            b.tiles()
                .map(move |t| (map.elevation(s) - map.elevation(t)).abs())
        })
        .min()
        .unwrap_or(0)
}
