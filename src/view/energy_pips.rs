//! Energy in the window (V5): at the top right, over the side column, the
//! acting unit's Energy, Agility and Swift Attack as rows of pips, lit for
//! what is left this round, dark for what is spent, Stamina beside them
//! (shown only on a level that pays in Energy); and which click is an
//! Agile Move. It reads the battle, and sends nothing.

use super::ViewSystems;
use super::theme::{SIDE_WIDTH, text};
use crate::battle::{ActionPoints, Battlefield, Budget, Stamina, Stats, stamina_pool};
use crate::format::Actions;
use crate::grid::Pos;
use crate::rules::TurnState;
use bevy::prelude::*;

/// The most Energy a round gives (V5.2): the Energy row's length.
const MOST_ENERGY: i32 = 5;
/// A pip's side, in pixels.
const PIP: f32 = 11.0;

/// The pips' panel.
#[derive(Component)]
struct Pips;

/// One row of pips: which budget, and its `n`th square.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Pip {
    Energy(i32),
    Agility(i32),
    Swift,
}

/// The Stamina text beside the rows.
#[derive(Component)]
struct StaminaText;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_pips)
        .add_systems(Update, show_pips.in_set(ViewSystems::Draw));
}

fn spawn_pips(mut commands: Commands) {
    let row = |label: &'static str| {
        (
            Node {
                column_gap: px(3),
                align_items: AlignItems::Center,
                ..default()
            },
            children![(Text::new(label), text(12.0, Color::srgb(0.8, 0.82, 0.85)))],
        )
    };
    let square = |pip: Pip| {
        (
            pip,
            Node {
                width: px(PIP),
                height: px(PIP),
                border: UiRect::all(px(1)),
                ..default()
            },
            BorderColor::all(Color::srgb(0.1, 0.1, 0.12)),
            BackgroundColor(Color::NONE),
        )
    };
    commands
        .spawn((
            Pips,
            Visibility::Hidden,
            Node {
                position_type: PositionType::Absolute,
                top: px(6),
                right: px(10),
                width: px(SIDE_WIDTH - 20.0),
                column_gap: px(12),
                justify_content: JustifyContent::FlexEnd,
                align_items: AlignItems::Center,
                ..default()
            },
        ))
        .with_children(|p| {
            p.spawn(row("Energy")).with_children(|r| {
                for n in 0..MOST_ENERGY {
                    r.spawn(square(Pip::Energy(n)));
                }
            });
            p.spawn(row("Agility")).with_children(|r| {
                for n in 0..6 {
                    r.spawn(square(Pip::Agility(n)));
                }
            });
            p.spawn(row("Swift")).with_children(|r| {
                r.spawn(square(Pip::Swift));
            });
            p.spawn((
                StaminaText,
                Text::new(""),
                text(12.0, Color::srgb(0.8, 0.82, 0.85)),
            ));
        });
}

/// Lights the acting unit's pips: Energy (gold), Agility (sky), the Swift
/// Attack (red) while unspent; an Agility square past the unit's round
/// budget is not drawn.
fn show_pips(
    turn: Res<TurnState>,
    field: Option<Res<Battlefield>>,
    units: Query<(&ActionPoints, Option<&Budget>, &Stamina, &Stats)>,
    mut panel: Query<&mut Visibility, With<Pips>>,
    mut pips: Query<(&Pip, &mut BackgroundColor, &mut Node)>,
    mut stamina_text: Query<&mut Text, With<StaminaText>>,
) {
    let current = turn.current;
    let on = field.is_some_and(|f| f.0.rules().actions == Actions::Energy) && current.is_some();
    for mut v in &mut panel {
        *v = if on {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
    let Some((ap, budget, stamina, stats)) = current.filter(|_| on).and_then(|u| units.get(u).ok())
    else {
        return;
    };
    let left = ap.ap;
    let budget = budget.copied().unwrap_or_default();
    let agility = stats.template.agility.min(6);
    let dark = Color::srgb(0.22, 0.23, 0.26);
    for (pip, mut color, mut node) in &mut pips {
        let (lit, shown, hue) = match *pip {
            Pip::Energy(n) => (n < left, true, Color::srgb(0.98, 0.8, 0.25)),
            Pip::Agility(n) => (n < budget.agility, n < agility, Color::srgb(0.45, 0.8, 1.0)),
            Pip::Swift => (
                !budget.swift_used && left >= 1,
                true,
                Color::srgb(0.95, 0.35, 0.3),
            ),
        };
        node.display = if shown { Display::Flex } else { Display::None };
        color.0 = if lit { hue } else { dark };
    }
    let (stamina, most) = (stamina.0, stamina_pool(&stats.template));
    for mut t in &mut stamina_text {
        t.0 = format!("Stamina {stamina}/{most}");
    }
}

/// Whether a click on `tile` is an Agile Move of `me` (V5.7): under Energy,
/// a tile beside it, while the last command left one open and Agility
/// pays for it.
pub fn agile_open(world: &World, me: Entity, tile: Pos) -> bool {
    let budget = world.get::<crate::battle::Budget>(me).copied();
    let at = world.get::<crate::battle::GridPos>(me).map(|p| p.0);
    crate::battle::energy(world)
        && budget.is_some_and(|b| b.agile > 0 && b.agility > 0)
        && at.is_some_and(|a| a != tile && a.chebyshev(tile) == 1)
}
