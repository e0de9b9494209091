//! The action bar: a button per action the rules allow the acting unit now
//! (with its key), hovering one shows what it does and its rule, pressing
//! it acts or aims.

use super::controls::Action;
use super::controls::Aiming;
use super::controls::Clicked;
use super::frame::ViewSystems;
use super::preview::Hover;
use super::theme::screen_text;
use super::theme::text;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (build_action_bar, press_action_buttons)
            .chain()
            .in_set(ViewSystems::Input),
    );
}

/// The row of action buttons.
#[derive(Component)]
pub struct ActionBar;

/// The line under the action bar: the hovered button's rule, or what an
/// aimed action waits for.
#[derive(Component)]
pub struct Tooltip;

/// The action bar: a button per action the rules allow the acting unit now
/// (rebuilt only when that list, or the part aimed at, changes).
fn build_action_bar(
    hover: Res<Hover>,
    aimed: Res<super::controls::AimedPart>,
    bar: Query<(Entity, Option<&Children>), With<ActionBar>>,
    mut shown: Local<Option<(Vec<Action>, crate::format::BodyPart)>>,
    mut commands: Commands,
) {
    let now = Some((hover.actions.clone(), aimed.0));
    if *shown == now {
        return;
    }
    *shown = now;
    let Ok((bar, children)) = bar.single() else {
        return;
    };
    for child in children.into_iter().flatten() {
        commands.entity(*child).despawn();
    }
    commands.entity(bar).with_children(|row| {
        for &action in &hover.actions {
            // The Aim button names the part the next attack aims at.
            let label = match action {
                Action::Aim => format!("{}: {}", action.label(), aimed.0.name()),
                _ => action.label().to_string(),
            };
            row.spawn((
                Button,
                ActionButton(action),
                super::theme::Cites(action.rule()),
                Node {
                    padding: UiRect::axes(px(8), px(4)),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.18, 0.22, 0.3)),
            ))
            .with_children(|b| {
                b.spawn((Text::new(label), text(13.0, Color::WHITE)));
            });
        }
    });
}

/// An action's button.
#[derive(Component, Clone, Copy)]
pub struct ActionButton(Action);

/// Hovering a button shows its rule; pressing it acts (or aims).
fn press_action_buttons(
    buttons: Query<(&Interaction, &ActionButton)>,
    mut colors: Query<(&Interaction, &mut BackgroundColor), With<ActionButton>>,
    aiming: Res<Aiming>,
    mut clicked: ResMut<Clicked>,
    mut tooltip: Query<&mut Text, With<Tooltip>>,
) {
    let mut tip = String::new();
    for (interaction, button) in &buttons {
        match interaction {
            Interaction::Pressed => {
                clicked.0 = Some(button.0);
                tip = button.0.tooltip().to_string();
            }
            Interaction::Hovered => tip = button.0.tooltip().to_string(),
            Interaction::None => {}
        }
    }
    for (interaction, mut color) in &mut colors {
        color.0 = match interaction {
            Interaction::None => Color::srgb(0.18, 0.22, 0.3),
            _ => Color::srgb(0.3, 0.38, 0.52),
        };
    }
    if let Some(a) = aiming.0
        && tip.is_empty()
    {
        tip = format!(
            "{}: click a target on the map (right click or Esc cancels). {}",
            a.label(),
            a.tooltip()
        );
    }
    if let Ok(mut t) = tooltip.single_mut()
        && t.0 != tip
    {
        t.0 = screen_text(&tip);
    }
}
