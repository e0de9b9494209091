//! The window's look in one place: the panels' layout and colours, text
//! styles, the one-pixel rules between sections, and the rule tooltips
//! (every node that cites a rule opens its text when hovered).

use super::frame::ViewSystems;
use crate::rules::Rule;
use crate::rules::rulebook::rule_text;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, show_rule_under_pointer.in_set(ViewSystems::Draw));
}

/// Height of the turn bar and the action bar above the map, in pixels.
pub const TOP: f32 = 104.0;

/// Width of the side column (preview, log, legend), in pixels.
pub const SIDE_WIDTH: f32 = 430.0;

/// `s` with the characters the built-in font lacks spelled in ASCII (the
/// log's arrows and dashes).
pub fn screen_text(s: &str) -> String {
    s.replace('→', "->")
        .replace('—', "--")
        .replace('·', "|")
        .replace('≤', "<=")
        .replace('≥', ">=")
        .replace('×', "x")
        .replace('−', "-")
        .replace('½', "1/2 ")
}

pub fn text(size: f32, color: Color) -> (TextFont, TextColor) {
    (
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(color),
    )
}

/// The panels' colour. Panels over the map are opaque: under software
/// rendering a blended panel costs as much as the map under it (measured:
/// idle frames 30.1 → 25.6 ms).
pub const PANEL: Color = Color::srgb(0.05, 0.06, 0.08);

/// The background of a panel that may lie over the map.
pub fn panel() -> BackgroundColor {
    BackgroundColor(PANEL)
}

/// Height of the turn bar along the top of the window, in pixels: the map
/// is drawn under it, in the rest of the window left of the side column.
pub const TURN_BAR: f32 = 52.0;

/// The colour of the one-pixel rules between panels.
pub const RULE: Color = Color::srgb(0.25, 0.27, 0.3);

/// A one-pixel rule between two sections of the side column. A node of
/// its own rather than a top border on the section: Bevy draws a border as
/// a quad over the whole node, and under software rendering that costs as
/// much as filling the section again.
pub fn divider() -> impl Bundle {
    (
        Node {
            height: px(1),
            flex_shrink: 0.0,
            ..default()
        },
        BackgroundColor(RULE),
    )
}

/// The room the rules tour's caption box takes under the bars, kept free
/// of the map so that no caption hides a tile (seven lines of text).
pub const CAPTION_ROOM: f32 = 128.0;

/// Sets the text of the one entity marked `M`, when it differs.
pub fn set_text<M: Component>(world: &mut World, value: String) {
    let mut q = world.query_filtered::<&mut Text, With<M>>();
    if let Ok(mut t) = q.single_mut(world)
        && t.0 != value
    {
        t.0 = value;
    }
}

/// The text box that shows the rule of the line under the pointer.
#[derive(Component)]
pub struct RuleTip;

/// A line that cites a rule: hovering it shows the rule's text.
#[derive(Component, Clone, Copy, Debug)]
pub struct Cites(pub Rule);

/// Shows the text of the rule cited by the line under the pointer.
fn show_rule_under_pointer(
    lines: Query<(&Interaction, &Cites)>,
    mut tip: Query<(&mut Text, &mut Node), With<RuleTip>>,
) {
    let Ok((mut text, mut node)) = tip.single_mut() else {
        return;
    };
    let hovered = lines
        .iter()
        .find(|(i, _)| **i != Interaction::None)
        .map(|(_, c)| c.0);
    let value = hovered
        .and_then(rule_text)
        .map(|t| super::theme::screen_text(&t))
        .unwrap_or_default();
    if text.0 != value {
        node.display = if value.is_empty() {
            Display::None
        } else {
            Display::Flex
        };
        text.0 = value;
    }
}

/// A row of the legend under the log whose items (a swatch or an icon,
/// then its words) wrap across the side column.
pub fn legend_row() -> Node {
    Node {
        // A set width: wrapped rows inside a column need one to be
        // measured whole.
        width: px(SIDE_WIDTH - 16.0),
        flex_wrap: FlexWrap::Wrap,
        column_gap: px(10),
        row_gap: px(2),
        align_items: AlignItems::Center,
        ..default()
    }
}

/// One item of a [`legend_row`]: its swatch or icon beside its words.
pub fn legend_item() -> Node {
    Node {
        column_gap: px(3),
        align_items: AlignItems::Center,
        ..default()
    }
}
