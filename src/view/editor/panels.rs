//! The editor's panels: the palette of terrain and tools, the title and
//! status lines, the side panel of the level's fields and the selection.

use super::state::{EditorState, Field, Tool, victory_text};
use crate::format::Victory;
use crate::grid::Pos;
use crate::view::controls::CursorTile;
use crate::view::coords::Grid;
use crate::view::map::Highlights;
use crate::view::theme::{SIDE_WIDTH, TOP, panel, text};
use bevy::prelude::*;

/// A palette button: the tool it picks.
#[derive(Component, Clone, Copy)]
pub(super) struct PaletteButton(Tool);

#[derive(Component)]
pub(super) struct TitleLine;

#[derive(Component)]
pub(super) struct StatusLine;

#[derive(Component)]
pub(super) struct SidePanel;

pub(super) fn spawn_panels(mut commands: Commands, state: Res<EditorState>) {
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                top: px(0),
                left: px(0),
                right: px(0),
                height: px(TOP),
                flex_direction: FlexDirection::Column,
                padding: UiRect::axes(px(10), px(6)),
                row_gap: px(6),
                ..default()
            },
            panel(),
        ))
        .with_children(|top| {
            top.spawn((TitleLine, Text::new(""), text(16.0, Color::WHITE)));
            top.spawn(Node {
                column_gap: px(4),
                flex_wrap: FlexWrap::Wrap,
                ..default()
            })
            .with_children(|row| {
                let mut tools: Vec<(Tool, String)> = state
                    .palette()
                    .into_iter()
                    .enumerate()
                    .map(|(i, (c, name))| (Tool::Paint(c), format!("{} {c} {name}", i + 1)))
                    .collect();
                tools.push((Tool::Units, "U units".into()));
                tools.push((Tool::Objects, "O objects".into()));
                tools.push((Tool::Zone, "Z zone".into()));
                tools.push((Tool::Height(1), "H heights".into()));
                tools.push((Tool::Light(3), "L light".into()));
                for (tool, label) in tools {
                    row.spawn((
                        Button,
                        PaletteButton(tool),
                        Node {
                            padding: UiRect::axes(px(7), px(3)),
                            ..default()
                        },
                        BackgroundColor(BUTTON),
                    ))
                    .with_children(|b| {
                        b.spawn((Text::new(label), text(13.0, Color::WHITE)));
                    });
                }
            });
            top.spawn((
                StatusLine,
                Text::new(""),
                text(14.0, Color::srgb(1.0, 0.9, 0.6)),
            ));
        });
    commands.spawn((
        SidePanel,
        Text::new(""),
        text(13.0, Color::srgb(0.95, 0.95, 0.85)),
        Node {
            position_type: PositionType::Absolute,
            top: px(TOP),
            right: px(0),
            bottom: px(0),
            width: px(SIDE_WIDTH),
            padding: UiRect::all(px(10)),
            ..default()
        },
        panel(),
    ));
}

pub(super) const BUTTON: Color = Color::srgb(0.18, 0.22, 0.3);

pub(super) const BUTTON_ON: Color = Color::srgb(0.75, 0.55, 0.15);

pub(super) fn press_palette(
    mut state: ResMut<EditorState>,
    mut buttons: Query<(&Interaction, &PaletteButton, &mut BackgroundColor)>,
) {
    for (interaction, button, _) in &buttons {
        if *interaction == Interaction::Pressed && !state.tool.same_kind(button.0) {
            state.tool = button.0;
        }
    }
    for (_, button, mut colour) in &mut buttons {
        let want = if button.0.same_kind(state.tool) {
            BUTTON_ON
        } else {
            BUTTON
        };
        if colour.0 != want {
            colour.0 = want;
        }
    }
}

/// The title, status line and side panel say what the level is now.
pub(super) fn show_panels(
    state: Res<EditorState>,
    cursor: Res<CursorTile>,
    grid: Option<Res<Grid>>,
    mut title: Query<&mut Text, (With<TitleLine>, Without<StatusLine>, Without<SidePanel>)>,
    mut status: Query<&mut Text, (With<StatusLine>, Without<TitleLine>, Without<SidePanel>)>,
    mut side: Query<&mut Text, (With<SidePanel>, Without<TitleLine>, Without<StatusLine>)>,
) {
    let e = &state.editor;
    let level = &e.level;
    let (undo, redo) = e.history();
    let size = grid.map_or(String::new(), |g| format!("{}x{}", g.width, g.height));
    let line = format!(
        "Editing {}{}  |  {size}  |  undo {undo} / redo {redo}  |  Ctrl+S save, Ctrl+Z undo, Ctrl+Y redo",
        e.file.display(),
        if e.dirty() { " (not saved)" } else { "" },
    );
    set(&mut title, line);
    set(&mut status, crate::view::theme::screen_text(&state.status));
    let typing = |f: Field, value: &str| match &state.typing {
        Some((t, typed)) if *t == f => format!("{typed}_   (Enter keeps, Esc drops)"),
        _ => value.to_string(),
    };
    let tool = match state.tool {
        Tool::Paint(c) => format!("paint '{c}' (drag for a stroke: one undo)"),
        Tool::Units => "units: click an empty tile to place, a unit to pick; drag to move".into(),
        Tool::Objects => "objects: click to place or pick; drag to move".into(),
        Tool::Zone => "zone: drag a rectangle".into(),
        Tool::Height(m) => format!(
            "heights: paint {m} m (0-9 choose; drag for a stroke; a ledge is 2 m or more: V9.1)"
        ),
        Tool::Light(l) => format!(
            "light: paint {} (0 the level's, 1 bright, 2 dim, 3 dark; +1 to a sneak per step darker: V8.3)",
            super::state::light_of(l).map_or("the level's light".into(), |l| format!("{l:?}")
                .to_lowercase())
        ),
    };
    let picked = match (state.picked(), state.object) {
        (Some(p), _) => format!(
            "{} ({}, {}) at {} facing {:?}\n  R/Shift+R turn | T template | G side | Del delete",
            p.name, p.side, p.template, p.at, p.facing
        ),
        (None, Some(at)) => level
            .ground
            .iter()
            .find(|o| o.at == at)
            .map(|o| format!("{} at {}\n  drag to move | Del delete", o.item, o.at))
            .unwrap_or_default(),
        _ => "nothing (click a unit or object)".into(),
    };
    let hovered = cursor.0.map_or(String::new(), |p| {
        let symbol = level
            .map
            .get(p.y as usize)
            .and_then(|r| r.chars().nth(p.x as usize))
            .unwrap_or(' ');
        let terrain = e
            .valid
            .map
            .get(p)
            .map_or("", |t| t.name.as_str())
            .to_string();
        let metres = e.valid.map.elevation(p);
        let height = if e.valid.map.has_heights() {
            format!(", {metres} m high")
        } else {
            String::new()
        };
        format!("Tile {p}: '{symbol}' {terrain}{height}")
    });
    let text = format!(
        "LEVEL\nName (F2): {}\nDescription (F3): {}\nVictory (V cycles): {}\nRound limit ([ ]): {}\n\n\
         TOOL: {tool}\nNew units (T, G): {} of {}\nNew objects (I): {}\n\n\
         PICKED: {picked}\n\n{hovered}\n\n\
         Keys: 1-9 terrain | U units | O objects | Z zone | H heights | L light | Esc drop pick | right click: drop pick | \
         arrows, middle drag, wheel: camera\n\
         Map: amber = a victory zone | green = picked | white = under the cursor\n\
         Every edit is checked as `skirmish check` checks a file: one it would refuse is refused \
         here, with the reason, and changes nothing.",
        typing(Field::Name, &level.name),
        typing(Field::Description, &level.description),
        victory_text(&level.victory),
        level.round_limit,
        state.template,
        state.side,
        state.item,
    );
    set(&mut side, crate::view::theme::screen_text(&text));
}

pub(super) fn set<F: bevy::ecs::query::QueryFilter>(q: &mut Query<&mut Text, F>, value: String) {
    if let Ok(mut t) = q.single_mut()
        && t.0 != value
    {
        t.0 = value;
    }
}

/// Tints: the hovered tile, the picked unit or object, the zone.
pub(super) fn mark_tiles(
    state: Res<EditorState>,
    cursor: Res<CursorTile>,
    mut highlights: ResMut<Highlights>,
) {
    let mut marks = Highlights::default();
    let level = &state.editor.level;
    let zones = level
        .victory
        .iter()
        .filter_map(|v| match v {
            Victory::HoldZone { zone, .. } | Victory::ReachExit { zone, .. } => Some(*zone),
            _ => None,
        })
        .chain(state.zone.filter(|_| state.tool == Tool::Zone));
    for zone in zones {
        for y in zone.from.y.min(zone.to.y)..=zone.from.y.max(zone.to.y) {
            for x in zone.from.x.min(zone.to.x)..=zone.from.x.max(zone.to.x) {
                marks
                    .0
                    .insert(Pos::new(x, y), Color::srgba(1.0, 0.75, 0.0, 0.55));
            }
        }
    }
    let picked = state.picked().map(|p| p.at).or(state.object);
    if let Some(at) = picked {
        marks.0.insert(at, Color::srgba(0.3, 1.0, 0.4, 0.6));
    }
    if let Some(at) = cursor.0 {
        marks.0.insert(at, Color::srgba(1.0, 1.0, 1.0, 0.45));
    }
    if *highlights != marks {
        *highlights = marks;
    }
}
