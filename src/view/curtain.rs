//! The hot-seat curtain (V8.1, #24): when two players share the window and
//! each side knows only what it sees, the battle is hidden while the seat
//! passes. Before a side's view is shown, a curtain names the side whose
//! player should sit down; a key or a click lifts it. Until then no
//! command is taken ([`super::seat::human_to_act`]).

use super::seat::{Curtain, Viewer};
use super::theme;
use crate::ai::Players;
use crate::battle::Battlefield;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Curtain>().add_systems(
        Update,
        (draw_curtain, lift_curtain, raise_curtain)
            .chain()
            .in_set(super::frame::ViewSystems::Draw),
    );
}

/// The curtain's panel.
#[derive(Component)]
struct CurtainPanel;

/// Whether a change of the shown side from `was` to `now` calls for the
/// curtain: with stealth on and at least two human sides, whenever a side
/// is shown that was not (the first included).
pub fn curtain_for(was: Option<usize>, now: Option<usize>, stealth: bool, humans: usize) -> bool {
    stealth && humans >= 2 && now.is_some() && now != was
}

/// Raises the curtain when the shown side changes to another player's.
fn raise_curtain(
    viewer: Res<Viewer>,
    players: Option<Res<Players>>,
    field: Option<Res<Battlefield>>,
    mut curtain: ResMut<Curtain>,
    mut shown: Local<Option<usize>>,
    script: Option<Res<super::seat::Script>>,
    tour: Option<Res<super::tour::Tour>>,
    options: Option<Res<super::frame::PlayOptions>>,
) {
    if !viewer.is_changed() && shown.is_some() {
        return;
    }
    // Nobody takes a seat at a replay or a script, and the tour is one
    // learner's, its last caption on screen: nothing to hide.
    let watched =
        script.is_some() || tour.is_some() || options.is_some_and(|o| o.view_as.is_some());
    let stealth = field.is_some_and(|f| f.0.rules().stealth) && !watched;
    let humans = players.map_or(0, |p| p.humans().len());
    if curtain_for(*shown, viewer.0, stealth, humans) {
        curtain.0 = viewer.0;
    }
    *shown = viewer.0;
}

/// Lifts the curtain on Enter, Space or a click. It runs after the frame's
/// input, so the press that lifts it does nothing else.
fn lift_curtain(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut curtain: ResMut<Curtain>,
) {
    let pressed = keys.any_just_pressed([KeyCode::Enter, KeyCode::Space])
        || mouse.just_pressed(MouseButton::Left);
    if curtain.0.is_some() && pressed {
        curtain.0 = None;
    }
}

/// Draws the curtain over the whole window while it is down.
fn draw_curtain(
    mut commands: Commands,
    curtain: Res<Curtain>,
    field: Option<Res<Battlefield>>,
    panels: Query<Entity, With<CurtainPanel>>,
) {
    if !curtain.is_changed() {
        return;
    }
    for panel in &panels {
        commands.entity(panel).despawn();
    }
    let (Some(side), Some(field)) = (curtain.0, field) else {
        return;
    };
    let name = field
        .0
        .sides()
        .get(side)
        .map_or_else(|| format!("side {}", side + 1), |s| s.name.clone());
    let words = format!(
        "{name} to play\n\nPass the seat to the player of {name}:\neach side sees only what its units see (V8.1).\n\nEnter, Space or click: show the view of {name}"
    );
    commands
        .spawn((
            CurtainPanel,
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                ..default()
            },
            BackgroundColor(Color::srgb(0.05, 0.06, 0.09)),
            GlobalZIndex(50),
        ))
        .with_children(|c| {
            c.spawn((
                Text::new(theme::screen_text(&words)),
                theme::text(22.0, Color::srgb(0.9, 0.88, 0.8)),
                TextLayout::justify(Justify::Center),
            ));
        });
}

#[cfg(test)]
mod tests {
    use super::curtain_for;

    #[test]
    fn the_curtain_falls_when_the_seat_passes_between_players() {
        // Hot-seat with stealth: at the start and at each change of side.
        assert!(curtain_for(None, Some(0), true, 2));
        assert!(curtain_for(Some(0), Some(1), true, 2));
        // Not while the same side plays on, nor for a spectator.
        assert!(!curtain_for(Some(1), Some(1), true, 2));
        assert!(!curtain_for(Some(1), None, true, 2));
        // One player, or nothing hidden: no curtain.
        assert!(!curtain_for(None, Some(0), true, 1));
        assert!(!curtain_for(Some(0), Some(1), false, 2));
    }
}
