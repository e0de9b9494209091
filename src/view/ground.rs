//! Objects on the ground (R9.5): a small marker per object on its tile's
//! left edge, over the units, redrawn when they change.

use super::coords::{Grid, TILE};
use crate::art::tiles::{ICON, Icon, Icons};
use crate::battle::{GridPos, GroundObject};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_ground.in_set(super::frame::ViewSystems::Draw));
}

/// A marker for an object on the ground (R9.5).
#[derive(Component)]
struct GroundMarker;

/// Over the units and their labels (their z and the labels' own).
const MARKER_Z: f32 = 6.5;

/// Objects on the ground (R9.5): a small marker per object, redrawn when
/// they change.
fn show_ground(
    mut commands: Commands,
    grid: Option<Res<Grid>>,
    icons: Res<Icons>,
    objects: Query<(&GroundObject, &GridPos)>,
    changed: Query<
        (),
        (
            With<GroundObject>,
            Or<(Added<GroundObject>, Changed<GridPos>)>,
        ),
    >,
    mut removed: RemovedComponents<GroundObject>,
    markers: Query<Entity, With<GroundMarker>>,
) {
    let Some(grid) = grid else { return };
    let any_removed = removed.read().count() > 0;
    if changed.is_empty() && !any_removed && !markers.is_empty() {
        return;
    }
    for m in &markers {
        commands.entity(m).despawn();
    }
    for (object, pos) in &objects {
        // On the tile's left edge and above the units, so that an object
        // under a unit (a thrown one lands in its target's tile, R9.2)
        // stays in sight, clear of the bars and the icon row.
        let at = grid.world(pos.0) + Vec2::new(-(TILE - ICON as f32) / 2.0, 0.0);
        commands.spawn((
            GroundMarker,
            icons.sprite(Icon::Object, ICON as f32),
            Transform::from_translation(at.extend(MARKER_Z)),
            Name::new(object.name.clone()),
        ));
    }
}
