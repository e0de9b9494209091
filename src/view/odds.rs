//! The attack preview panel: the hovered attack's outcomes as one bar
//! (miss, fumble, 1, 2, 3+ degrees, each as wide as its chance), and its
//! modifiers one per line; hovering a line shows its rule's text. Every
//! number comes from [`Hover::attack`], the rules' own preview.

use super::frame::ViewSystems;
use super::theme::Cites;

use super::attack_odds::{AttackOdds, Ending};
use super::preview::Hover;
use super::theme::text;
use crate::rules::rule::Rule;
use bevy::prelude::*;

/// The panel's systems (they need no window: tests run them headless).
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_odds
            .run_if(resource_changed::<Hover>)
            .in_set(ViewSystems::Draw),
    );
}

/// The panel's node in the side column; its children are rebuilt when the
/// odds change.
#[derive(Component, Default)]
pub struct OddsPanel {
    drawn: Option<AttackOdds>,
}

/// The colour of an ending of an attack on the panel's bar.
pub fn outcome_color(ending: Ending) -> Color {
    match ending {
        Ending::Miss | Ending::Answered(_) => Color::srgb(0.45, 0.45, 0.5),
        Ending::Fumble => Color::srgb(0.8, 0.2, 0.2),
        Ending::Degrees(1) | Ending::Successes(1) => Color::srgb(0.85, 0.75, 0.25),
        Ending::Degrees(2) | Ending::Successes(2) => Color::srgb(0.45, 0.8, 0.3),
        Ending::Degrees(_) | Ending::Successes(_) => Color::srgb(0.2, 0.95, 0.55),
    }
}

/// Rebuilds the panel when the hovered attack's odds change.
fn draw_odds(
    hover: Res<Hover>,
    mut panels: Query<(Entity, &mut OddsPanel, &mut Node)>,
    mut commands: Commands,
) {
    let Ok((entity, mut panel, mut node)) = panels.single_mut() else {
        return;
    };
    if panel.drawn == hover.attack {
        return;
    }
    panel.drawn = hover.attack.clone();
    commands.entity(entity).despawn_children();
    let Some(odds) = &hover.attack else {
        node.display = Display::None;
        return;
    };
    node.display = Display::Flex;
    commands.entity(entity).with_children(|p| {
        // The outcome bar: one segment per outcome, as wide as its chance.
        p.spawn(Node {
            width: percent(100),
            height: px(12),
            ..default()
        })
        .with_children(|bar| {
            for o in &odds.outcomes {
                if o.chance > 0.0 {
                    bar.spawn((
                        Node {
                            width: percent(o.chance * 100.0),
                            height: percent(100),
                            ..default()
                        },
                        BackgroundColor(outcome_color(o.ending)),
                    ));
                }
            }
        });
        // Its key: each outcome's colour and chance.
        p.spawn(Node {
            flex_wrap: FlexWrap::Wrap,
            column_gap: px(8),
            ..default()
        })
        .with_children(|key| {
            for o in &odds.outcomes {
                key.spawn((
                    Text::new(format!("{} {:.1}%", o.ending.label(), o.chance * 100.0)),
                    text(12.0, outcome_color(o.ending).lighter(0.15)),
                ));
            }
        });
        if odds.outcomes.iter().any(|o| o.ending == Ending::Fumble) {
            p.spawn((
                Cites(Rule::R7_3),
                Interaction::default(),
                Text::new("fumble: a natural 1 that misses drops the weapon (R7.3)"),
                text(11.0, Color::srgb(0.7, 0.72, 0.75)),
            ));
        }
        for (line, rule) in &odds.modifiers {
            p.spawn((
                Cites(*rule),
                Interaction::default(),
                Node {
                    padding: UiRect::left(px(12)),
                    ..default()
                },
            ))
            .with_children(|row| {
                row.spawn((Text::new(line.clone()), text(12.0, Color::WHITE)));
            });
        }
        p.spawn((
            Text::new("hover a modifier: its rule"),
            text(11.0, Color::srgb(0.7, 0.72, 0.75)),
        ));
    });
}
