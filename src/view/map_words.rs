//! The overlays' words and links drawn over the map ([`OverlayMarks`]):
//! a tile's words on its tile, words about a unit beside its figure
//! ([`super::labels`]), links as lines between tiles.
//!
//! Drawing only: what the words say is worked out by the overlays and the
//! aims that fill [`OverlayMarks`].

use super::coords::Grid;
use super::frame::ViewSystems;
use super::labels::{Crowd, LABEL_PLATE, label_size, place_words};
use super::overlays::{OverlayMarks, shadowed_words};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_marks.in_set(ViewSystems::Draw));
}

/// A word or a link drawn over the map.
#[derive(Component, Clone)]
struct Mark;

/// Draws the overlays' words and links, anew when they change or the
/// figures and bars they keep clear of have moved. (Marks set in the frame
/// the units are spawned, as a tour's step does, see them before their
/// transforms are worked out: drawn again a frame later, where they
/// stand.)
fn draw_marks(
    marks: Res<OverlayMarks>,
    grid: Option<Res<Grid>>,
    old: Query<Entity, With<Mark>>,
    crowd: Crowd,
    mut drawn_by: Local<(Vec<Rect>, Vec<Rect>)>,
    mut commands: Commands,
) {
    let Some(grid) = grid else { return };
    let (bars, figures) = (crowd.bars_and_icons(), crowd.figures());
    if !marks.is_changed() && drawn_by.0 == bars && drawn_by.1 == figures {
        return;
    }
    *drawn_by = (bars.clone(), figures.clone());
    for e in &old {
        commands.entity(e).despawn();
    }
    for (from, to, color) in &marks.links {
        let (a, b) = (grid.world(*from), grid.world(*to));
        let d = b - a;
        commands.spawn((
            Mark,
            Sprite::from_color(color.with_alpha(0.9), Vec2::new(d.length(), 3.0)),
            // Above the units: a flank links two of them.
            Transform::from_translation(((a + b) / 2.0).extend(6.5))
                .with_rotation(Quat::from_rotation_z(d.to_angle())),
        ));
    }
    let placed = place_words(&marks.labels, &grid, WORDS_SIZE, bars, &figures);
    for (at, words, plated) in placed {
        if plated {
            commands.spawn((
                Mark,
                Sprite::from_color(LABEL_PLATE, label_size(words, WORDS_SIZE)),
                Transform::from_translation(at.extend(7.95)),
            ));
        }
        shadowed_words(
            &mut commands,
            Mark,
            at.extend(8.0),
            words,
            WORDS_SIZE,
            Color::WHITE,
        );
    }
}

/// The size of the overlays' words on the map.
const WORDS_SIZE: f32 = 11.0;
