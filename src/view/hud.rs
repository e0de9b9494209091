//! The text around the battlefield: the turn bar (round, whose turn, AP,
//! reactions, initiative order), the combat log, what hovering shows, the
//! reaction prompt and the end of the battle. Text is rebuilt only when
//! what it shows changed. The camera fits the level at start, pans with
//! the arrow keys, WASD or a middle-button drag, and zooms with the wheel.

use super::coords::Grid;
use super::input::{Action, Aiming, Clicked, Hover, human_asked};
use super::odds::Cites;
use super::playback::{Playback, Shown};
use super::tiles::{ICON, Icon, Icons};
use crate::ai::Players;
use crate::battle::{ActionPoints, Reactions, Side, Tally};
use crate::battle::{name_of, units};
use crate::format::Guard;
use crate::rules::pipeline::Decisions;
use crate::rules::{Outcome, TurnState};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogOpen>()
        .add_systems(Startup, (spawn_camera, spawn_hud))
        .add_systems(PreUpdate, fit_viewport)
        .add_systems(PostStartup, fit_camera)
        .add_systems(
            Update,
            (
                move_camera.in_set(super::ViewSystems::Input),
                (show_turn_bar, show_log, show_hover, show_prompt).in_set(super::ViewSystems::Draw),
                (build_action_bar, press_action_buttons)
                    .chain()
                    .in_set(super::ViewSystems::Input),
                (leave_battle, spotlight_log_line).in_set(super::ViewSystems::Input),
            ),
        );
}

/// The combat log panel: open (`L` toggles it), and how many lines back
/// from the newest it is scrolled (`PageUp`, `PageDown`, `End`).
#[derive(Resource, Clone, Copy, Debug)]
pub struct LogOpen(pub bool, pub usize);

impl Default for LogOpen {
    fn default() -> Self {
        Self(true, 0)
    }
}

#[derive(Component)]
struct TurnBar;

/// A line of the combat log, with the index of its event: hovering it
/// shows the event's rule, clicking it spotlights the event on the map.
#[derive(Component, Clone, Copy, Debug)]
pub struct LogLine(pub usize);

#[derive(Component)]
struct LogPanel;

#[derive(Component)]
struct HoverText;

#[derive(Component)]
struct Prompt;

/// The end screen's buttons: what each does.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum EndButton {
    Again,
    Menu,
}

#[derive(Component)]
struct EndButtons;

/// The row of action buttons.
#[derive(Component)]
struct ActionBar;

/// The line under the action bar: the hovered button's rule, or what an
/// aimed action waits for.
#[derive(Component)]
struct Tooltip;

/// Height of the turn bar and the action bar above the map, in pixels.
pub(super) const TOP: f32 = 104.0;

/// Width of the side column (preview, log, legend), in pixels.
pub(super) const SIDE_WIDTH: f32 = 430.0;
/// Lines of the log a page scrolls by half of.
const LOG_LINES: usize = 30;
/// The most the fitted camera magnifies a small level: more, and the
/// pixel-art tiles and the units' letters blur.
const MAX_FIT_ZOOM: f32 = 1.5;

/// The keys and the map's shades, under the log.
const KEYS_AND_SHADES: &str = "Space: skip animations · +/-: speed · L: log · PgUp/PgDn: scroll \
log · F5 save · F9 load · arrows/WASD, wheel: camera · 1-7: overlays · Alt: compare a tile\n\
Map: blue = reachable (lighter: cheaper) · yellow = path · red = provokes (R8.2) · \
bars: HP (green), AR (blue)";

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
}

pub(super) fn text(size: f32, color: Color) -> (TextFont, TextColor) {
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
pub(super) const PANEL: Color = Color::srgb(0.05, 0.06, 0.08);

/// The background of a panel that may lie over the map.
pub(super) fn panel() -> BackgroundColor {
    BackgroundColor(PANEL)
}

/// Height of the turn bar along the top of the window, in pixels: the map
/// is drawn under it, in the rest of the window left of the side column.
pub(super) const TURN_BAR: f32 = 52.0;

/// The colour of the one-pixel rules between panels.
const RULE: Color = Color::srgb(0.25, 0.27, 0.3);

/// A one-pixel rule between two sections of the side column. A node of
/// its own rather than a top border on the section: Bevy draws a border as
/// a quad over the whole node, and under software rendering that costs as
/// much as filling the section again.
fn divider() -> impl Bundle {
    (
        Node {
            height: px(1),
            flex_shrink: 0.0,
            ..default()
        },
        BackgroundColor(RULE),
    )
}

/// The cameras. The battle camera draws the map into its viewport, the
/// window left of the side column and under the turn bar, and clears the
/// window to the panels' colour; the UI camera then draws the panels over
/// it and shows the window. So the turn bar and the side column need no
/// background of their own: under software rendering filling them cost a
/// tenth of an idle frame (measured with llvmpipe). No multisampling: the
/// battlefield is pixel art on a grid, and with software rendering 4x MSAA
/// quadruples the cost of every pixel drawn.
pub(super) fn spawn_camera(mut commands: Commands) {
    use bevy::camera::CameraOutputMode;
    use bevy::camera::visibility::RenderLayers;
    commands.spawn((
        BattleCamera,
        Camera2d,
        Camera {
            clear_color: ClearColorConfig::Custom(PANEL),
            // The UI camera, after it, shows the picture both drew.
            output_mode: CameraOutputMode::Skip,
            viewport: Some(map_viewport(
                Vec2::new(super::WINDOW.0 as f32, super::WINDOW.1 as f32),
                1.0,
            )),
            ..default()
        },
        bevy::render::view::Msaa::Off,
    ));
    commands.spawn((
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        // The world is the battle camera's to draw.
        RenderLayers::none(),
        bevy::render::view::Msaa::Off,
        IsDefaultUiCamera,
    ));
}

/// The battle camera's viewport in a window of `size` logical pixels at
/// `scale` physical pixels each: left of the side column, under the turn
/// bar.
fn map_viewport(size: Vec2, scale: f32) -> bevy::camera::Viewport {
    let at = Vec2::new(0.0, TURN_BAR) * scale;
    let end = Vec2::new(size.x - SIDE_WIDTH, size.y) * scale;
    bevy::camera::Viewport {
        physical_position: at.as_uvec2(),
        physical_size: (end - at).max(Vec2::ONE).as_uvec2(),
        ..default()
    }
}

/// Keeps the battle camera's viewport fitted to the window as it is
/// resized or moved to a screen of another scale.
pub(super) fn fit_viewport(
    window: Query<&Window, (With<bevy::window::PrimaryWindow>, Changed<Window>)>,
    mut camera: Query<&mut Camera, With<BattleCamera>>,
) {
    let (Ok(window), Ok(mut camera)) = (window.single(), camera.single_mut()) else {
        return;
    };
    let viewport = map_viewport(window.size(), window.scale_factor());
    let same = camera.viewport.as_ref().is_some_and(|v| {
        (v.physical_position, v.physical_size)
            == (viewport.physical_position, viewport.physical_size)
    });
    if !same {
        camera.viewport = Some(viewport);
    }
}

/// The camera showing the battle in the window (panned and zoomed by the
/// player), as against the terrain's (see [`super::terrain_cache`]).
#[derive(Component)]
pub struct BattleCamera;

fn spawn_hud(
    mut commands: Commands,
    icons: Res<Icons>,
    level_file: Option<Res<crate::design::reload::LiveLevel>>,
) {
    let live = level_file.is_some();
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
                super::odds::RuleTip,
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
                // F4 edits the level when it was opened from its file.
                let keys = if live {
                    KEYS_AND_SHADES.replacen("F9 load", "F9 load · F4 edit", 1)
                } else {
                    KEYS_AND_SHADES.to_string()
                };
                legend.spawn((
                    Text::new(screen_text(&keys)),
                    text(12.0, Color::srgb(0.8, 0.82, 0.85)),
                ));
                spawn_icon_legend(legend, &icons);
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
            max_width: px(860),
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
fn spawn_icon_legend(parent: &mut ChildSpawnerCommands, icons: &Icons) {
    parent
        .spawn(Node {
            // A set width: wrapped rows inside a column need one to be
            // measured whole.
            width: px(SIDE_WIDTH - 16.0),
            flex_wrap: FlexWrap::Wrap,
            column_gap: px(10),
            row_gap: px(2),
            align_items: AlignItems::Center,
            ..default()
        })
        .with_children(|row| {
            for icon in Icon::ALL {
                row.spawn(Node {
                    column_gap: px(3),
                    align_items: AlignItems::Center,
                    ..default()
                })
                .with_children(|item| {
                    item.spawn((
                        ImageNode::from_atlas_image(icons.image.clone(), icons.atlas(icon)),
                        Node {
                            width: px(ICON as f32 * 1.5),
                            height: px(ICON as f32 * 1.5),
                            ..default()
                        },
                    ));
                    item.spawn((
                        Text::new(icon.meaning()),
                        text(12.0, Color::srgb(0.8, 0.82, 0.85)),
                    ));
                });
            }
        });
}

/// The room the rules tour's caption box takes under the bars, kept free
/// of the map so that no caption hides a tile (seven lines of text).
pub const CAPTION_ROOM: f32 = 128.0;

/// The camera that fits the whole level between the panels (and, in the
/// tour, under the caption): its scale and position.
pub fn fitted_camera(grid: &Grid, caption: bool) -> (f32, Vec2) {
    let (w, h) = (super::WINDOW.0 as f32, super::WINDOW.1 as f32);
    let margin = 12.0;
    let top = TOP + if caption { CAPTION_ROOM } else { 0.0 };
    let free = Vec2::new(w - SIDE_WIDTH - 2.0 * margin, h - top - 2.0 * margin);
    let scale = (grid.extent() / free).max_element().max(1.0 / MAX_FIT_ZOOM);
    // Centre the map in the free area: the camera's viewport (left of the
    // side column, under the turn bar) less the action bar and caption.
    (scale, Vec2::new(0.0, (top - TURN_BAR) / 2.0) * scale)
}

/// Where tile `p` is in the window, in pixels from its top left corner,
/// with the fitted camera (`caption`: the tour's): its top left corner and
/// its side.
pub fn tile_on_screen(grid: &Grid, p: crate::grid::Pos, caption: bool) -> (Vec2, f32) {
    let (scale, at) = fitted_camera(grid, caption);
    let centre = (grid.world(p) - at) / scale;
    let window = Vec2::new(super::WINDOW.0 as f32, super::WINDOW.1 as f32);
    // The middle of the battle camera's viewport.
    let middle = Vec2::new((window.x - SIDE_WIDTH) / 2.0, (TURN_BAR + window.y) / 2.0);
    let side = super::coords::TILE / scale;
    let screen = Vec2::new(middle.x + centre.x, middle.y - centre.y);
    (screen - Vec2::splat(side / 2.0), side)
}

pub(super) fn fit_camera(
    grid: Option<Res<Grid>>,
    tour: Option<Res<super::tour::Tour>>,
    mut camera: Query<&mut Transform, With<BattleCamera>>,
) {
    let (Some(grid), Ok(mut t)) = (grid, camera.single_mut()) else {
        return;
    };
    let (scale, at) = fitted_camera(&grid, tour.is_some());
    t.scale = Vec3::new(scale, scale, 1.0);
    t.translation.x = at.x;
    t.translation.y = at.y;
}

pub(super) fn move_camera(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    decisions: Option<Res<Decisions>>,
    mut camera: Query<&mut Transform, With<BattleCamera>>,
) {
    let Ok(mut t) = camera.single_mut() else {
        return;
    };
    // While a question is open, D answers it (a dodge, V2): the letters
    // do not pan then, the arrows still do.
    let asked = decisions.is_some_and(|d| d.asked().is_some());
    let mut dir = Vec2::ZERO;
    for (k, alt, d) in [
        (KeyCode::ArrowLeft, KeyCode::KeyA, Vec2::NEG_X),
        (KeyCode::ArrowRight, KeyCode::KeyD, Vec2::X),
        (KeyCode::ArrowUp, KeyCode::KeyW, Vec2::Y),
        (KeyCode::ArrowDown, KeyCode::KeyS, Vec2::NEG_Y),
    ] {
        if keys.pressed(k) || (keys.pressed(alt) && !asked) {
            dir += d;
        }
    }
    let scale = t.scale.x;
    t.translation += (dir * 600.0 * scale * time.delta_secs()).extend(0.0);
    if mouse.pressed(MouseButton::Middle) {
        let d = motion.delta * scale;
        t.translation += Vec3::new(-d.x, d.y, 0.0);
    }
    if scroll.delta.y != 0.0 {
        let s = (scale * (1.0 - 0.1 * scroll.delta.y.signum())).clamp(0.1, 8.0);
        t.scale = Vec3::new(s, s, 1.0);
    }
}

/// Sets the text of the one entity marked `M`, when it differs.
fn set_text<M: Component>(world: &mut World, value: String) {
    let mut q = world.query_filtered::<&mut Text, With<M>>();
    if let Ok(mut t) = q.single_mut(world)
        && t.0 != value
    {
        t.0 = value;
    }
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
        let who = match players.and_then(|p| p.of(side)) {
            Some(p) => format!("AI {}", p.name),
            None => "you".to_string(),
        };
        let ap = world.get::<ActionPoints>(c).map_or(0, |a| a.ap);
        let reactions = world.get::<Reactions>(c).map_or(0, |r| r.0);
        line += &format!(
            "  ·  {}'s turn ({}, {who})  ·  AP {ap}  ·  reactions {reactions}",
            name_of(world, c),
            sides.sides()[side].name
        );
    }
    if let Some(p) = world.get_resource::<Playback>() {
        line += &format!("  ·  speed x{}", p.speed);
    }
    if turn.outcome.is_none() {
        line += &format!("\nNext: {}", next_units(world, turn));
    }
    line
}

/// Which line of the log a log node shows.
#[derive(Component)]
struct LogRow(usize);

#[allow(clippy::too_many_arguments)]
fn show_log(
    shown: Option<Res<Shown>>,
    keys: Res<ButtonInput<KeyCode>>,
    events: Res<crate::rules::events::BattleEvents>,
    mut open: ResMut<LogOpen>,
    mut panel: Query<(Entity, &mut Visibility), With<LogPanel>>,
    rows: Query<(Entity, &LogRow, &Text)>,
    children: Query<&Children>,
    mut commands: Commands,
) {
    let Ok((panel, mut visible)) = panel.single_mut() else {
        return;
    };
    if keys.just_pressed(KeyCode::KeyL) {
        open.0 = !open.0;
        *visible = if open.0 {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
    let Some(shown) = shown else { return };
    let len = shown.log.len();
    let scrolled = if keys.just_pressed(KeyCode::PageUp) {
        open.1 = (open.1 + LOG_LINES / 2).min(len.saturating_sub(LOG_LINES));
        true
    } else if keys.just_pressed(KeyCode::PageDown) {
        open.1 = open.1.saturating_sub(LOG_LINES / 2);
        true
    } else if keys.just_pressed(KeyCode::End) {
        open.1 = 0;
        true
    } else {
        false
    };
    if !shown.is_changed() && !scrolled {
        return;
    }
    let to = len.saturating_sub(open.1);
    let from = to.saturating_sub(LOG_LINES);
    let line_node = |commands: &mut Commands, i: usize| {
        let event = shown.log_events.get(i).copied().unwrap_or(0);
        let mut line = commands.spawn((
            LogLine(event),
            LogRow(i),
            Interaction::default(),
            Text::new(screen_text(&shown.log[i])),
            text(11.0, Color::srgb(0.85, 0.87, 0.9)),
        ));
        if let Some(rule) = events
            .all()
            .get(event)
            .and_then(|e| e.rules().first().copied())
        {
            line.insert(super::odds::Cites(rule));
        }
        line.id()
    };
    // Following the newest lines, the lines still shown keep their nodes
    // (and their laid-out text): only the new ones are added and the
    // oldest dropped. Laying out every line again on each event cost 3 ms
    // a frame while the AI played (measured with llvmpipe).
    let present = children.get(panel).map_or(&[][..], |c| &c[..]);
    let kept: Vec<(Entity, usize)> = present
        .iter()
        .filter_map(|e| rows.get(*e).ok())
        .filter(|(_, row, text)| {
            shown.log.get(row.0).map(|l| screen_text(l)) == Some(text.0.clone())
        })
        .map(|(e, row, _)| (e, row.0))
        .collect();
    let newest = kept.iter().map(|(_, i)| *i).max();
    if open.1 == 0
        && !scrolled
        && kept.len() == present.len()
        && let Some(newest) = newest
    {
        let old: Vec<Entity> = kept
            .iter()
            .filter(|(_, i)| *i < from)
            .map(|(e, _)| *e)
            .collect();
        // The panel stacks its children from the bottom up: the new lines
        // go first, newest first.
        let new: Vec<Entity> = ((newest + 1).max(from)..to)
            .rev()
            .map(|i| line_node(&mut commands, i))
            .collect();
        for e in old {
            commands.entity(e).despawn();
        }
        commands.entity(panel).insert_children(0, &new);
        return;
    }
    // A line per node, newest first.
    let mut lines = Vec::new();
    if open.1 > 0 {
        lines.push(
            commands
                .spawn((
                    Text::new(format!("({} newer lines: PageDown, End)", open.1)),
                    text(11.0, Color::srgb(1.0, 0.9, 0.5)),
                ))
                .id(),
        );
    }
    for i in (from..to).rev() {
        lines.push(line_node(&mut commands, i));
    }
    commands.entity(panel).despawn_children();
    commands.entity(panel).add_children(&lines);
}

/// A click on a log line spotlights its event on the map (a second click,
/// or `Escape`, clears it).
fn spotlight_log_line(
    lines: Query<(&Interaction, &LogLine), Changed<Interaction>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut spotlight: ResMut<super::overlays::Spotlight>,
) {
    if keys.just_pressed(KeyCode::Escape) && spotlight.0.is_some() {
        spotlight.0 = None;
    }
    for (i, line) in &lines {
        if *i == Interaction::Pressed {
            spotlight.0 = if spotlight.0 == Some(line.0) {
                None
            } else {
                Some(line.0)
            };
        }
    }
}

fn show_hover(world: &mut World) {
    let hover = world.resource::<Hover>();
    let mut lines = vec![];
    if let Some(line) = super::input::selected_line(world) {
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

/// The reaction question (R8) of a human's unit, and the end of the battle.
fn show_prompt(world: &mut World) {
    let text = screen_text(&prompt_text(world));
    let mut q = world.query_filtered::<(&mut Text, &mut Visibility), With<Prompt>>();
    if let Ok((mut t, mut v)) = q.single_mut(world)
        && t.0 != text
    {
        *v = if text.is_empty() {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        t.0 = text;
    }
}

/// The odds of `reactor`'s reactive attack on `provoker` where it stands
/// (R8.1), from the rules' preview.
fn reaction_odds(world: &mut World, reactor: Entity, provoker: Entity) -> Option<String> {
    let at = world.get::<crate::battle::GridPos>(provoker)?.0;
    let draft =
        crate::rules::reactions::reactive_attack::reactive_draft(world, reactor, provoker, at)?;
    let p = crate::rules::attacks::preview::preview_attack(world, draft).ok()?;
    Some(format!(
        "{:.0}% to hit, {:.1} damage expected",
        p.hit * 100.0,
        p.expected_damage
    ))
}

/// Under active defence (V2), the question to a human defender: each
/// answer it has, its key, and what it would let through, from the rules'
/// preview.
fn guard_question(world: &mut World, asked: Entity) -> Option<String> {
    let odds = crate::rules::variants::active_defence::held_attack_odds(world, asked);
    let (_, unanswered) = odds.iter().find(|(g, _)| *g == Guard::None)?;
    let hit = unanswered.hit;
    let attacker = world
        .resource::<TurnState>()
        .current
        .map(|c| name_of(world, c))
        .unwrap_or_default();
    let defender = name_of(world, asked);
    let lines: Vec<String> = odds
        .iter()
        .map(|(g, p)| {
            let key = super::input::GUARD_KEYS
                .iter()
                .find(|k| k.1 == *g)
                .map_or("?", |k| k.2);
            // What the answer does, then what it lets through.
            let does = match (g, p.answer.as_ref()) {
                (Guard::Block, Some(b)) => format!(
                    "meets it {:.0}%: {} off the damage",
                    p.blocked() * 100.0,
                    b.strength
                ),
                (Guard::None, _) => "takes the hit as rolled".to_string(),
                _ => format!("avoids it {:.0}%", p.avoided * 100.0),
            };
            format!(
                "{key} {}: {does}\n   {:.1} HP expected through armor",
                g.label(),
                p.harm()
            )
        })
        .collect();
    Some(format!(
        "{attacker} attacks {defender}: {:.0}% to hit. How does {defender} answer? \
         (active defence, V2; costs a reaction)\n{}\nShift+key: answer so all battle \
         (asked again when a unit cannot)",
        hit * 100.0,
        lines.join("\n")
    ))
}

/// The prompt's text: a human's reaction question, or the end screen.
fn prompt_text(world: &mut World) -> String {
    let mut text = String::new();
    if let Some(asked) = human_asked(world)
        && let Some(text) = guard_question(world, asked)
    {
        return text;
    }
    if let Some(asked) = human_asked(world) {
        let d = world.resource::<Decisions>();
        let provoker = world
            .resource::<TurnState>()
            .current
            .map(|c| name_of(world, c))
            .unwrap_or_default();
        let what = d
            .questions
            .first()
            .map(|(_, t)| t.describe())
            .unwrap_or_default();
        let odds = world
            .resource::<TurnState>()
            .current
            .and_then(|p| reaction_odds(world, asked, p))
            .unwrap_or_default();
        text = format!(
            "{} may strike {provoker} {what} (reactive attack, R8.1): {odds}\n\
             Y: strike   N: let it pass   Shift+Y / Shift+N: always / never this battle",
            name_of(world, asked)
        );
    } else if let Some(outcome) = &world.resource::<TurnState>().outcome
        && world.get_resource::<Playback>().is_none_or(Playback::idle)
    {
        text = summary(world, outcome);
    }
    text
}

/// The end screen's text: who won, rounds, and each side's losses and
/// damage dealt.
fn summary(world: &World, outcome: &Outcome) -> String {
    let field = &world.resource::<crate::battle::Battlefield>().0;
    let turn = world.resource::<TurnState>();
    let mut out = match outcome {
        Outcome::Victory { side, by } => {
            format!("{} win ({by}, R11)", field.sides()[*side].name)
        }
        Outcome::Draw => "A draw (R11)".to_string(),
    };
    out += &format!(" after {} rounds\n", turn.round);
    for (i, side) in field.sides().iter().enumerate() {
        let mine: Vec<Entity> = units(world)
            .into_iter()
            .filter(|e| world.get::<Side>(*e).is_some_and(|s| s.0 == i))
            .collect();
        let lost = mine
            .iter()
            .filter(|e| crate::battle::out_of_action(world, **e))
            .count();
        let dealt: i32 = mine
            .iter()
            .filter_map(|e| world.get::<Tally>(*e))
            .map(|t| t.dealt)
            .sum();
        out += &format!(
            "{}: {lost} of {} units lost, {dealt} damage dealt\n",
            side.name,
            mine.len()
        );
    }
    out
}

/// At the end of a battle: `F2` plays the level again, `M` opens the level
/// menu. Each starts a new process (a window's event loop is made once per
/// process) and closes this one.
fn leave_battle(
    keys: Res<ButtonInput<KeyCode>>,
    turn: Res<TurnState>,
    playback: Res<Playback>,
    pressed: Query<(&Interaction, &EndButton), Changed<Interaction>>,
    mut shown: Query<&mut Visibility, With<EndButtons>>,
    mut exit: MessageWriter<AppExit>,
) {
    let over = turn.outcome.is_some() && playback.idle();
    if let Ok(mut v) = shown.single_mut() {
        let want = if over {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *v != want {
            *v = want;
        }
    }
    if !over {
        return;
    }
    let clicked = pressed
        .iter()
        .find(|(i, _)| **i == Interaction::Pressed)
        .map(|(_, b)| *b);
    let args: Vec<String> = if keys.just_pressed(KeyCode::F2) || clicked == Some(EndButton::Again) {
        std::env::args().skip(1).collect()
    } else if keys.just_pressed(KeyCode::KeyM) || clicked == Some(EndButton::Menu) {
        vec![]
    } else {
        return;
    };
    if super::relaunch(&args) {
        exit.write(AppExit::Success);
    }
}

/// The action bar: a button per action the rules allow the acting unit now
/// (rebuilt only when that list, or the part aimed at, changes).
fn build_action_bar(
    hover: Res<Hover>,
    aimed: Res<super::input::AimedPart>,
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
                super::odds::Cites(action.rule()),
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
struct ActionButton(Action);

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
