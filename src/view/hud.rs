//! The text around the battlefield: the turn bar (round, whose turn, AP,
//! reactions, initiative order), the combat log, what hovering shows, the
//! reaction prompt and the end of the battle. Text is rebuilt only when
//! what it shows changed. The camera fits the level at start, pans with
//! the arrow keys, WASD or a middle-button drag, and zooms with the wheel.

use super::action_bar::ActionBar;
use super::action_bar::Tooltip;
use super::frame::ViewSystems;
use super::log::LogPanel;
use super::prompt::EndButton;
use super::prompt::EndButtons;
use super::prompt::Prompt;
use super::theme::RULE;
use super::theme::SIDE_WIDTH;
use super::theme::TURN_BAR;
use super::theme::divider;
use super::theme::panel;
use super::theme::screen_text;
use super::theme::set_text;
use super::theme::text;

use super::playback::Playback;
use super::preview::Hover;
use super::theme::Cites;
use crate::ai::Players;
use crate::art::tiles::{ICON, Icon, Icons};
use crate::battle::name_of;
use crate::battle::{ActionPoints, Reactions, Side};
use crate::rules::{Outcome, TurnState};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_hud).add_systems(
        Update,
        (show_turn_bar, show_hover).in_set(ViewSystems::Draw),
    );
}

#[derive(Component)]
struct TurnBar;

#[derive(Component)]
struct HoverText;

/// The keys and the map's shades, under the log.
const KEYS_AND_SHADES: &str = "Space: skip animations · +/-: speed · L: log · PgUp/PgDn: scroll \
log · F5 save · F9 load · arrows, Enter: tile cursor · WASD, wheel: camera · 1-7: overlays · \
Alt: compare a tile · Ctrl: aim at the mount · /: enemy intent · M: mute · Esc: settings\n\
Map: blue = reachable (lighter: cheaper) · yellow = path · deepest = provokes (R8.2) · \
bars: HP (green), AR (blue)";

/// The colour of the legend's words.
const LEGEND_WORDS: Color = Color::srgb(0.8, 0.82, 0.85);

/// The shades a stealth level adds (V8), under the others.
const STEALTH_SHADES: &str = "\nStealth: darker = dim or dark light (V8.3) · grey, hatched = \
no unit of your side sees it (V8.1) · \"Name?\" = where your side last saw a unit that hid (V8.4)";

fn spawn_hud(
    mut commands: Commands,
    icons: Res<Icons>,
    level_file: Option<Res<crate::design::reload::LiveLevel>>,
    field: Option<Res<crate::battle::Battlefield>>,
) {
    let live = level_file.is_some();
    let stealth = field.as_ref().is_some_and(|f| f.0.rules().stealth);
    let spells = field.as_ref().is_some_and(|f| f.0.rules().spells);
    let energy = field
        .as_ref()
        .is_some_and(|f| f.0.rules().actions == crate::format::Actions::Energy);
    commands.spawn((
        TurnBar,
        Text::new(""),
        text(16.0, Color::WHITE),
        Node {
            position_type: PositionType::Absolute,
            top: px(0),
            left: px(0),
            right: px(0),
            padding: UiRect::axes(px(10), px(6)),
            ..default()
        },
    ));
    // Rules under the turn bar and along the side column's edge.
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(TURN_BAR - 1.0),
            left: px(0),
            right: px(0),
            height: px(1),
            ..default()
        },
        BackgroundColor(RULE),
    ));
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(TURN_BAR),
            bottom: px(0),
            right: px(SIDE_WIDTH),
            width: px(1),
            ..default()
        },
        BackgroundColor(RULE),
    ));
    // The side column: what hovering shows (the preview) on top, the
    // combat log under it, the map legend at the bottom. The map keeps the
    // rest of the window.
    commands
        .spawn((Node {
            position_type: PositionType::Absolute,
            top: px(TURN_BAR),
            right: px(0),
            bottom: px(0),
            width: px(SIDE_WIDTH),
            flex_direction: FlexDirection::Column,
            ..default()
        },))
        .with_children(|side| {
            side.spawn((
                HoverText,
                // Hovering a refusal shows its rule's text.
                Interaction::default(),
                Text::new(""),
                text(13.0, Color::srgb(0.95, 0.95, 0.85)),
                Node {
                    padding: UiRect::all(px(8)),
                    ..default()
                },
            ));
            side.spawn((
                super::odds::OddsPanel::default(),
                Node {
                    display: Display::None,
                    flex_direction: FlexDirection::Column,
                    row_gap: px(2),
                    padding: UiRect::new(px(8), px(8), px(0), px(6)),
                    ..default()
                },
            ));
            side.spawn((
                super::theme::RuleTip,
                Text::new(""),
                text(12.0, Color::srgb(1.0, 0.95, 0.75)),
                Node {
                    display: Display::None,
                    margin: UiRect::horizontal(px(6)),
                    padding: UiRect::all(px(6)),
                    border: UiRect::all(px(1)),
                    ..default()
                },
                BorderColor::all(Color::srgb(1.0, 0.9, 0.5)),
            ));
            side.spawn(divider());
            side.spawn((
                LogPanel,
                Node {
                    flex_grow: 1.0,
                    min_height: px(0),
                    padding: UiRect::axes(px(8), px(4)),
                    overflow: Overflow::clip(),
                    flex_direction: FlexDirection::ColumnReverse,
                    ..default()
                },
            ));
            side.spawn(divider());
            side.spawn(Node {
                padding: UiRect::all(px(8)),
                flex_direction: FlexDirection::Column,
                row_gap: px(4),
                ..default()
            })
            .with_children(|legend| {
                // The key to the enemies' intent, shown while it is drawn.
                super::intent::spawn_intent_key(legend, field.as_deref(), LEGEND_WORDS);
                // F4 edits the level when it was opened from its file.
                let mut keys = if live {
                    KEYS_AND_SHADES.replacen("F9 load", "F9 load · F4 edit", 1)
                } else {
                    KEYS_AND_SHADES.to_string()
                };
                if stealth {
                    keys.push_str(STEALTH_SHADES);
                }
                legend.spawn((Text::new(screen_text(&keys)), text(12.0, LEGEND_WORDS)));
                spawn_icon_legend(legend, &icons, (energy, spells));
            });
        });
    commands.spawn((
        ActionBar,
        Node {
            position_type: PositionType::Absolute,
            top: px(54),
            left: px(4),
            column_gap: px(4),
            ..default()
        },
    ));
    commands.spawn((
        Tooltip,
        Text::new(""),
        text(13.0, Color::srgb(1.0, 0.95, 0.7)),
        Node {
            position_type: PositionType::Absolute,
            top: px(84),
            left: px(6),
            // Wrapped within the map's width, never under the side column.
            right: px(SIDE_WIDTH + 6.0),
            ..default()
        },
    ));
    commands
        .spawn((
            EndButtons,
            // Under the summary, over the log's oldest lines: opaque, or
            // those lines show between and behind the buttons.
            Node {
                position_type: PositionType::Absolute,
                top: px(218),
                right: px(0),
                width: px(SIDE_WIDTH),
                column_gap: px(12),
                padding: UiRect::all(px(8)),
                ..default()
            },
            panel(),
            GlobalZIndex(11),
            Visibility::Hidden,
        ))
        .with_children(|row| {
            for (button, label) in [
                (EndButton::Again, "Play again (F2)"),
                (EndButton::Menu, "Level menu (M)"),
            ] {
                row.spawn((
                    Button,
                    button,
                    Node {
                        padding: UiRect::axes(px(16), px(10)),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.2, 0.3, 0.45)),
                ))
                .with_children(|b| {
                    b.spawn((Text::new(label), text(15.0, Color::WHITE)));
                });
            }
        });
    commands.spawn((
        Prompt,
        Text::new(""),
        text(16.0, Color::srgb(1.0, 0.9, 0.5)),
        // Over the top of the log column (its oldest lines), so the map
        // stays in sight.
        Node {
            position_type: PositionType::Absolute,
            top: px(56),
            right: px(0),
            width: px(SIDE_WIDTH),
            padding: UiRect::all(px(12)),
            border: UiRect::all(px(2)),
            ..default()
        },
        BorderColor::all(Color::srgb(1.0, 0.9, 0.5)),
        GlobalZIndex(10),
        panel(),
        Visibility::Hidden,
    ));
}

/// The map legend's icons, each with what it means and its rule.
/// The condition icons and their meanings; Energy's (V5.8) only on a
/// level that pays in Energy.
fn spawn_icon_legend(
    parent: &mut ChildSpawnerCommands,
    icons: &Icons,
    (energy, spells): (bool, bool),
) {
    parent
        .spawn(super::theme::legend_row())
        .with_children(|row| {
            let shown = Icon::ALL
                .into_iter()
                .filter(|i| energy || !matches!(i, Icon::ExposedV5 | Icon::Unguarded))
                .filter(|i| spells || !matches!(i, Icon::Concentrating | Icon::Gripped));
            for icon in shown {
                row.spawn(super::theme::legend_item())
                    .with_children(|item| {
                        item.spawn((
                            ImageNode::from_atlas_image(icons.image.clone(), icons.atlas(icon)),
                            Node {
                                width: px(ICON as f32 * 1.5),
                                height: px(ICON as f32 * 1.5),
                                ..default()
                            },
                        ));
                        item.spawn((Text::new(icon.meaning()), text(12.0, LEGEND_WORDS)));
                    });
            }
        });
}

fn show_turn_bar(world: &mut World) {
    let line = screen_text(&turn_line(world));
    set_text::<TurnBar>(world, line);
}

/// The turn order from the acting unit (in brackets) on, the dead left
/// out, as many names as fit on one line.
fn next_units(world: &World, turn: &TurnState) -> String {
    let alive: Vec<Entity> = turn
        .order
        .iter()
        .copied()
        .filter(|e| !world.entity(*e).contains::<crate::battle::Dead>())
        // A ridden mount acts on its rider's turn (V12.1).
        .filter(|e| !world.entity(*e).contains::<crate::battle::Ridden>())
        // Nor is an enemy hidden from the side at the window named (V8.1).
        .filter(|e| !super::seat::unseen_here(world, *e))
        .collect();
    let now = alive
        .iter()
        .position(|e| Some(*e) == turn.current)
        .unwrap_or(0);
    let mut text = String::new();
    let mut count = 0;
    for (i, e) in alive.iter().cycle().skip(now).take(alive.len()).enumerate() {
        let name = name_of(world, *e);
        let name = if i == 0 && turn.current == Some(*e) {
            format!("[{name}]")
        } else {
            name
        };
        if text.len() + name.len() > 88 {
            break;
        }
        if count > 0 {
            text += " > ";
        }
        text += &name;
        count += 1;
    }
    if count < alive.len() {
        text += &format!(" > ... ({} more)", alive.len() - count);
    }
    text
}

/// The turn bar's text: the round, whose turn, AP and reactions left, the
/// speed, and the initiative order with the acting unit in brackets.
fn turn_line(world: &World) -> String {
    let turn = world.resource::<TurnState>();
    let players = world.get_resource::<Players>();
    let sides = &world.resource::<crate::battle::Battlefield>().0;
    let mut line = format!("Round {}", turn.round);
    if let Some(outcome) = &turn.outcome {
        line += &match outcome {
            Outcome::Victory { side, by } => format!(
                "  ·  battle over: {} win ({by}, R11)",
                sides.sides()[*side].name
            ),
            Outcome::Draw => "  ·  battle over: a draw (R11)".into(),
        };
    } else if let Some(c) = turn.current {
        let side = world.get::<Side>(c).map_or(0, |s| s.0);
        // A replay's sides are nobody's: its commands are recorded.
        let replayed = world
            .get_resource::<super::frame::PlayOptions>()
            .is_some_and(|o| o.replay.is_some());
        let who = match players.and_then(|p| p.of(side)) {
            Some(p) => format!("AI {}", p.name),
            None if replayed => "replay".to_string(),
            None => "you".to_string(),
        };
        let ap = world.get::<ActionPoints>(c).map_or(0, |a| a.ap);
        let reactions = world.get::<Reactions>(c).map_or(0, |r| r.0);
        if super::seat::unseen_here(world, c) {
            line += &format!(
                "  ·  an unseen enemy moves ({}, V8.2)",
                sides.sides()[side].name
            );
        } else if crate::battle::energy(world) {
            // Under Energy the AP are the round's Energy (V5.2); the pips
            // at the right show the rest.
            line += &format!(
                "  ·  {}'s turn ({}, {who})  ·  Energy {ap} of 5 (V5.2)",
                name_of(world, c),
                sides.sides()[side].name
            );
        } else if crate::rules::variants::die_ranks::on(world) {
            // Under die ranks the reactions are the interrupt budget: what
            // the unit may still owe its next turn (V6.6).
            line += &format!(
                "  ·  {}'s turn ({}, {who})  ·  AP {ap}  ·  owes {} of 3 (V6.6)",
                name_of(world, c),
                sides.sides()[side].name,
                crate::rules::variants::die_ranks::owed(world, c)
            );
        } else {
            line += &format!(
                "  ·  {}'s turn ({}, {who})  ·  AP {ap}  ·  reactions {reactions}",
                name_of(world, c),
                sides.sides()[side].name
            );
        }
    }
    if let Some(p) = world.get_resource::<Playback>() {
        line += &format!("  ·  speed x{}", p.speed);
    }
    if turn.outcome.is_none() {
        line += &format!("\nNext: {}", next_units(world, turn));
    }
    line
}

fn show_hover(world: &mut World) {
    let hover = world.resource::<Hover>();
    let mut lines = vec![];
    if let Some(line) = super::unit_panel::selected_line(world) {
        lines.push(line);
    }
    lines.extend(hover.lines.iter().cloned());
    if let Some(r) = &hover.refusal {
        lines.push(format!("Refused: {r}"));
    }
    if let Some(n) = &hover.note {
        lines.push(n.clone());
    }
    let text = screen_text(&lines.join("\n"));
    let cites = hover.cited();
    set_text::<HoverText>(world, text);
    // The refusal's rule opens when the text is hovered (R-ids anywhere
    // open their rule).
    let mut q = world.query_filtered::<(Entity, Option<&Cites>), With<HoverText>>();
    if let Ok((e, now)) = q.single(world)
        && now.map(|c| c.0) != cites
    {
        match cites {
            Some(rule) => world.entity_mut(e).insert(Cites(rule)),
            None => world.entity_mut(e).remove::<Cites>(),
        };
    }
}
