//! The level editor's window (`skirmish edit LEVEL`): the level drawn as
//! the game draws it, a palette of terrain and tools above it, the level's
//! fields and the selection beside it. Every change is an
//! [`Edit`] sent to the headless [`Editor`], which refuses what `check`
//! would refuse; the view only draws the result.

use super::coords::Grid;
use super::hud::{SIDE_WIDTH, TOP, panel, text};
use super::input::CursorTile;
use super::map::Highlights;
use crate::design::editor::{Edit, Editor};
use crate::dice::Dice;
use crate::format::{Victory, Zone};
use crate::grid::{Dir, Pos};
use crate::setup::{BattlePlugin, clear_battle, spawn_battle};
use crate::terrain::default_legend;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::window::WindowResolution;
use std::process::ExitCode;

/// What a click on the map does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Paint this map symbol (drag to paint a stroke).
    Paint(char),
    /// Place a unit on an empty tile, pick one up and drop it elsewhere.
    Units,
    /// The same for objects on the ground.
    Objects,
    /// Drag a rectangle: the zone of the victory conditions.
    Zone,
}

/// A level's text field being typed into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The level's name.
    Name,
    /// The level's description.
    Description,
}

/// The editor and what the designer has chosen.
#[derive(Resource)]
pub struct EditorState {
    /// The level and its history.
    pub editor: Editor,
    /// What a click does.
    pub tool: Tool,
    /// The template of new units.
    pub template: String,
    /// The side of new units and of zone victories.
    pub side: String,
    /// The item of new objects.
    pub item: String,
    /// The unit picked (by name).
    pub unit: Option<String>,
    /// The object picked (by tile).
    pub object: Option<Pos>,
    /// The zone last dragged.
    pub zone: Option<Zone>,
    /// Where a drag began.
    drag: Option<Pos>,
    /// A paint stroke in progress: its tiles are one edit.
    stroke: bool,
    /// The field typed into and its text so far.
    pub typing: Option<(Field, String)>,
    /// What the last action did or why it was refused.
    pub status: String,
    /// Bumped at each change of the level: it is drawn again.
    version: u64,
    /// Save the window to this PNG once drawn, then exit.
    pub screenshot: Option<std::path::PathBuf>,
    /// The version of the level when closing was refused for its unsaved
    /// edits: closing again with no edit since leaves.
    close_warned: Option<u64>,
}

impl EditorState {
    /// The editor on `editor`'s level, with its first template, side and
    /// object chosen.
    pub fn new(editor: Editor) -> Self {
        let template = editor
            .level
            .units
            .first()
            .map(|u| u.template.clone())
            .or_else(|| editor.templates().first().cloned())
            .unwrap_or_default();
        let side = editor
            .level
            .sides
            .first()
            .map(|s| s.name.clone())
            .unwrap_or_default();
        let item = editor.objects().first().cloned().unwrap_or_default();
        Self {
            editor,
            tool: Tool::Paint('#'),
            template,
            side,
            item,
            unit: None,
            object: None,
            zone: None,
            drag: None,
            stroke: false,
            typing: None,
            status: "Ready. Every edit is checked as `skirmish check` would.".into(),
            version: 0,
            screenshot: None,
            close_warned: None,
        }
    }

    /// Sends `edit`; says what happened in the status line.
    pub fn send(&mut self, edit: Edit) -> bool {
        let continuing = self.stroke && matches!(edit, Edit::Paint { .. });
        let result = if continuing {
            self.editor.apply_continuing(&edit)
        } else {
            self.editor.apply(&edit)
        };
        match result {
            Ok(()) => {
                self.version += 1;
                self.status = describe(&edit);
                true
            }
            Err(refused) => {
                self.status = format!("Refused: {refused}");
                false
            }
        }
    }

    /// The picked unit's placement.
    pub fn picked(&self) -> Option<&crate::format::UnitPlacement> {
        let name = self.unit.as_ref()?;
        self.editor.level.units.iter().find(|u| &u.name == name)
    }

    /// The map symbols of the palette: the default legend's, then the
    /// level's own.
    pub fn palette(&self) -> Vec<(char, String)> {
        let mut symbols: Vec<(char, String)> = default_legend()
            .into_iter()
            .map(|(c, t)| (c, t.name.to_string()))
            .collect();
        for (c, t) in &self.editor.level.legend {
            symbols.retain(|(s, _)| s != c);
            symbols.push((*c, t.name.to_string()));
        }
        symbols
    }
}

fn describe(edit: &Edit) -> String {
    match edit {
        Edit::Paint { at, symbol } => format!("painted '{symbol}' at {at}"),
        Edit::PlaceUnit { at, template, .. } => format!("placed a {template} at {at}"),
        Edit::MoveUnit { unit, to } => format!("moved {unit} to {to}"),
        Edit::TurnUnit { unit, facing } => format!("{unit} faces {facing:?}"),
        Edit::DeleteUnit { unit } => format!("deleted {unit}"),
        Edit::SetTemplate { unit, template } => format!("{unit}: template {template}"),
        Edit::SetSide { unit, side } => format!("{unit}: side {side}"),
        Edit::PlaceObject { item, at } => format!("placed {item} at {at}"),
        Edit::MoveObject { from, to } => format!("moved the object at {from} to {to}"),
        Edit::DeleteObject { at } => format!("deleted the object at {at}"),
        Edit::SetName(n) => format!("named the level \"{n}\""),
        Edit::SetDescription(_) => "described the level".into(),
        Edit::SetVictory(v) => format!("victory: {}", victory_text(v)),
        Edit::SetRoundLimit(n) => format!("round limit {n}"),
    }
}

fn victory_text(victory: &[Victory]) -> String {
    let parts: Vec<String> = victory
        .iter()
        .map(|v| match v {
            Victory::Eliminate => "eliminate".to_string(),
            Victory::HoldZone { side, zone, rounds } => {
                format!("{side} holds {}-{} for {rounds} rounds", zone.from, zone.to)
            }
            Victory::SurviveRounds { side, rounds } => format!("{side} survives {rounds} rounds"),
            Victory::ReachExit { side, zone, .. } => {
                format!("{side} reaches {}-{}", zone.from, zone.to)
            }
        })
        .collect();
    parts.join(", ")
}

/// Opens the editor window on `editor`'s level until it is closed.
pub fn run_editor(editor: Editor, screenshot: Option<std::path::PathBuf>) -> ExitCode {
    if let Some(problem) = super::display_problem() {
        eprintln!("skirmish: {problem}");
        return ExitCode::from(2);
    }
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("Skirmish editor — {}", editor.file.display()),
                    resolution: WindowResolution::from(super::WINDOW),
                    ..default()
                }),
                // Closing with unsaved edits asks first (guard_unsaved_edits).
                close_when_requested: false,
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    );
    app.add_plugins((bevy_ecs_tilemap::TilemapPlugin, BattlePlugin));
    app.configure_sets(
        Update,
        (
            super::ViewSystems::Input,
            super::ViewSystems::Act,
            super::ViewSystems::Animate,
            super::ViewSystems::Draw,
        )
            .chain(),
    );
    app.add_plugins((
        super::map::plugin,
        super::units::plugin,
        super::playback::plugin,
        super::terrain_cache::plugin,
        super::capture::pipelines_plugin,
        plugin,
    ));
    let world = app.world_mut();
    spawn_level(world, &editor.valid);
    let mut state = EditorState::new(editor);
    state.screenshot = screenshot;
    world.insert_resource(state);
    app.run();
    ExitCode::SUCCESS
}

/// The editor's systems: input to edits, the level drawn again after each.
pub fn plugin(app: &mut App) {
    app.init_resource::<CursorTile>()
        .init_resource::<Highlights>()
        .init_resource::<super::overlays::OverlayMarks>()
        .add_systems(Startup, (super::hud::spawn_camera, spawn_panels))
        .add_systems(PostStartup, super::hud::fit_camera)
        .add_systems(
            Update,
            (
                (
                    super::input::track_cursor,
                    super::hud::move_camera.run_if(not_typing),
                    type_text,
                    press_palette,
                    edit_by_keys.run_if(not_typing),
                    edit_on_map,
                )
                    .chain()
                    .in_set(super::ViewSystems::Input),
                redraw_level.in_set(super::ViewSystems::Act),
                (mark_tiles, show_panels).in_set(super::ViewSystems::Draw),
            ),
        )
        .add_systems(Last, (take_screenshot, guard_unsaved_edits));
}

/// Closing the window with edits not saved is refused once, with a word in
/// the status line; closing again (with no edit since) leaves without
/// saving.
fn guard_unsaved_edits(
    mut requests: MessageReader<bevy::window::WindowCloseRequested>,
    mut state: ResMut<EditorState>,
    mut exit: MessageWriter<AppExit>,
) {
    if requests.read().count() == 0 {
        return;
    }
    if !state.editor.dirty() || state.close_warned == Some(state.version) {
        exit.write(AppExit::Success);
        return;
    }
    state.close_warned = Some(state.version);
    state.status =
        "Edits not saved: Ctrl+S saves them; close again to leave without saving.".into();
}

fn not_typing(state: Res<EditorState>) -> bool {
    state.typing.is_none()
}

/// A palette button: the tool it picks.
#[derive(Component, Clone, Copy)]
struct PaletteButton(Tool);

#[derive(Component)]
struct TitleLine;

#[derive(Component)]
struct StatusLine;

#[derive(Component)]
struct SidePanel;

fn spawn_panels(mut commands: Commands, state: Res<EditorState>) {
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

const BUTTON: Color = Color::srgb(0.18, 0.22, 0.3);
const BUTTON_ON: Color = Color::srgb(0.75, 0.55, 0.15);

fn press_palette(
    mut state: ResMut<EditorState>,
    mut buttons: Query<(&Interaction, &PaletteButton, &mut BackgroundColor)>,
) {
    for (interaction, button, _) in &buttons {
        if *interaction == Interaction::Pressed && state.tool != button.0 {
            state.tool = button.0;
        }
    }
    for (_, button, mut colour) in &mut buttons {
        let want = if button.0 == state.tool {
            BUTTON_ON
        } else {
            BUTTON
        };
        if colour.0 != want {
            colour.0 = want;
        }
    }
}

/// The next of `names` after `current`, round.
fn next_of(names: &[String], current: &str) -> Option<String> {
    let i = names.iter().position(|n| n == current).map_or(0, |i| i + 1);
    names.get(i % names.len().max(1)).cloned()
}

/// Keys: tools, undo/redo, save, and changes to the picked unit or object
/// or to the level's fields.
fn edit_by_keys(keys: Res<ButtonInput<KeyCode>>, mut state: ResMut<EditorState>) {
    // A quick Ctrl+S may press and release Ctrl within one slow frame.
    let held = |k: [KeyCode; 2]| {
        keys.any_pressed(k) || keys.any_just_pressed(k) || keys.any_just_released(k)
    };
    let ctrl = held([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = held([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let hit = |k: KeyCode| keys.just_pressed(k);
    if ctrl {
        if hit(KeyCode::KeyZ) && !shift {
            state.status = if state.editor.undo() {
                "undone".into()
            } else {
                "nothing to undo".into()
            };
            state.version += 1;
        } else if hit(KeyCode::KeyY) || hit(KeyCode::KeyZ) && shift {
            state.status = if state.editor.redo() {
                "redone".into()
            } else {
                "nothing to redo".into()
            };
            state.version += 1;
        } else if hit(KeyCode::KeyS) {
            state.status = match state.editor.save() {
                Ok(()) => format!("saved {}", state.editor.file.display()),
                Err(problems) => format!("not saved: {problems}"),
            };
        }
        return;
    }
    let palette = state.palette();
    for (i, key) in super::input::DIGIT_KEYS.iter().enumerate() {
        if hit(*key)
            && let Some((c, _)) = palette.get(i)
        {
            state.tool = Tool::Paint(*c);
        }
    }
    for (key, tool) in [
        (KeyCode::KeyU, Tool::Units),
        (KeyCode::KeyO, Tool::Objects),
        (KeyCode::KeyZ, Tool::Zone),
    ] {
        if hit(key) {
            state.tool = tool;
        }
    }
    if hit(KeyCode::F2) {
        state.typing = Some((Field::Name, state.editor.level.name.clone()));
    }
    if hit(KeyCode::F3) {
        state.typing = Some((Field::Description, state.editor.level.description.clone()));
    }
    if hit(KeyCode::Escape) {
        state.unit = None;
        state.object = None;
    }
    // The picked unit, or the choices for new ones.
    let unit = state.unit.clone();
    if hit(KeyCode::KeyR)
        && let Some(u) = &unit
        && let Some(p) = state.picked()
    {
        let facing = p.facing.rotate(if shift { -1 } else { 1 });
        state.send(Edit::TurnUnit {
            unit: u.clone(),
            facing,
        });
    }
    if hit(KeyCode::KeyT) {
        let current = state
            .picked()
            .map_or(state.template.clone(), |p| p.template.clone());
        if let Some(next) = next_of(&state.editor.templates(), &current) {
            state.template = next.clone();
            if let Some(unit) = unit.clone() {
                state.send(Edit::SetTemplate {
                    unit,
                    template: next,
                });
            }
        }
    }
    if hit(KeyCode::KeyG) {
        let current = state
            .picked()
            .map_or(state.side.clone(), |p| p.side.clone());
        if let Some(next) = next_of(&state.editor.side_names(), &current) {
            state.side = next.clone();
            if let Some(unit) = unit.clone() {
                state.send(Edit::SetSide { unit, side: next });
            }
        }
    }
    if hit(KeyCode::KeyI) {
        let objects = state.editor.objects();
        if let Some(next) = next_of(&objects, &state.item.clone()) {
            state.item = next;
        }
    }
    if hit(KeyCode::Delete) || hit(KeyCode::Backspace) {
        if let Some(u) = unit {
            if state.send(Edit::DeleteUnit { unit: u }) {
                state.unit = None;
            }
        } else if let Some(at) = state.object
            && state.send(Edit::DeleteObject { at })
        {
            state.object = None;
        }
    }
    if hit(KeyCode::KeyV) {
        let victory = state.editor.next_victory(&state.side, state.zone);
        state.send(Edit::SetVictory(victory));
    }
    let limit = state.editor.level.round_limit;
    if hit(KeyCode::BracketRight) {
        state.send(Edit::SetRoundLimit(limit + 1));
    }
    if hit(KeyCode::BracketLeft) {
        state.send(Edit::SetRoundLimit(limit.saturating_sub(1)));
    }
}

/// Typing into the name or description: Enter keeps it, Escape drops it.
fn type_text(mut keys: MessageReader<KeyboardInput>, mut state: ResMut<EditorState>) {
    let Some((field, mut typed)) = state.typing.clone() else {
        keys.clear();
        return;
    };
    for key in keys.read() {
        if !key.state.is_pressed() {
            continue;
        }
        match &key.logical_key {
            Key::Enter => {
                state.typing = None;
                let edit = match field {
                    Field::Name => Edit::SetName(typed.trim().to_string()),
                    Field::Description => Edit::SetDescription(typed.trim().to_string()),
                };
                state.send(edit);
                return;
            }
            Key::Escape => {
                state.typing = None;
                state.status = "typing cancelled".into();
                return;
            }
            Key::Backspace => {
                typed.pop();
            }
            Key::Space => typed.push(' '),
            Key::Character(c) => typed.push_str(c),
            _ => {}
        }
    }
    state.typing = Some((field, typed));
}

/// Clicks and drags on the map, by tool. Clicks on the panels are theirs.
fn edit_on_map(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorTile>,
    buttons: Query<&Interaction>,
    mut state: ResMut<EditorState>,
) {
    if buttons.iter().any(|i| *i != Interaction::None) || state.typing.is_some() {
        return;
    }
    if mouse.just_pressed(MouseButton::Right) {
        state.unit = None;
        state.object = None;
    }
    let Some(tile) = cursor.0 else {
        if mouse.just_released(MouseButton::Left) {
            state.drag = None;
            state.stroke = false;
        }
        return;
    };
    let level = &state.editor.level;
    let unit_here = level
        .units
        .iter()
        .find(|u| u.at == tile)
        .map(|u| u.name.clone());
    let object_here = level.ground.iter().any(|o| o.at == tile);
    match state.tool {
        Tool::Paint(symbol) => {
            // A click may press and release within one frame.
            if mouse.pressed(MouseButton::Left) || mouse.just_pressed(MouseButton::Left) {
                let same = level
                    .map
                    .get(tile.y as usize)
                    .and_then(|r| r.chars().nth(tile.x as usize))
                    == Some(symbol);
                if !same {
                    state.send(Edit::Paint { at: tile, symbol });
                }
                state.stroke = true;
            }
        }
        Tool::Units => {
            if mouse.just_pressed(MouseButton::Left) {
                if let Some(name) = unit_here {
                    state.unit = Some(name);
                    state.drag = Some(tile);
                } else {
                    let (side, template) = (state.side.clone(), state.template.clone());
                    let placed = state.send(Edit::PlaceUnit {
                        at: tile,
                        side,
                        template,
                        facing: Dir::N,
                    });
                    if placed {
                        state.unit = state.editor.level.units.last().map(|u| u.name.clone());
                    }
                }
            }
            if mouse.just_released(MouseButton::Left)
                && let (Some(from), Some(unit)) = (state.drag, state.unit.clone())
                && from != tile
            {
                state.send(Edit::MoveUnit { unit, to: tile });
            }
        }
        Tool::Objects => {
            if mouse.just_pressed(MouseButton::Left) {
                if object_here {
                    state.object = Some(tile);
                    state.drag = Some(tile);
                } else {
                    let item = state.item.clone();
                    if state.send(Edit::PlaceObject { item, at: tile }) {
                        state.object = Some(tile);
                    }
                }
            }
            if mouse.just_released(MouseButton::Left)
                && let Some(from) = state.drag
                && from != tile
                && state.send(Edit::MoveObject { from, to: tile })
            {
                state.object = Some(tile);
            }
        }
        Tool::Zone => {
            if mouse.just_pressed(MouseButton::Left) {
                state.drag = Some(tile);
            }
            if mouse.pressed(MouseButton::Left)
                && let Some(from) = state.drag
            {
                state.zone = Some(Zone { from, to: tile });
            }
            if mouse.just_released(MouseButton::Left) {
                state.status = "zone chosen: V puts it in the victory conditions".into();
                // A zone already in the victory conditions moves with it.
                let zone = state.zone;
                let victory: Vec<Victory> = state
                    .editor
                    .level
                    .victory
                    .iter()
                    .cloned()
                    .map(|mut v| {
                        if let (
                            Victory::HoldZone { zone: z, .. } | Victory::ReachExit { zone: z, .. },
                            Some(new),
                        ) = (&mut v, zone)
                        {
                            *z = new;
                        }
                        v
                    })
                    .collect();
                if victory != state.editor.level.victory {
                    state.send(Edit::SetVictory(victory));
                }
            }
        }
    }
    if mouse.just_released(MouseButton::Left) {
        state.drag = None;
        state.stroke = false;
    }
}

/// After each change, the battle is spawned again from the level and drawn.
fn redraw_level(world: &mut World, mut drawn: Local<u64>) {
    let state = world.resource::<EditorState>();
    if state.version == *drawn {
        return;
    }
    *drawn = state.version;
    let level = state.editor.valid.clone();
    clear_battle(world);
    spawn_level(world, &level);
    super::live::redraw_battle(world);
}

/// The level's units and objects as placed, none of them off guard (no
/// battle has begun: the icon would only clutter the picture).
fn spawn_level(world: &mut World, level: &crate::load::ValidLevel) {
    spawn_battle(world, level, Dice::seeded(0));
    let units: Vec<Entity> = world
        .query_filtered::<Entity, With<crate::battle::OffGuard>>()
        .iter(world)
        .collect();
    for unit in units {
        world.entity_mut(unit).remove::<crate::battle::OffGuard>();
    }
}

/// Tints: the hovered tile, the picked unit or object, the zone.
fn mark_tiles(
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

/// The title, status line and side panel say what the level is now.
fn show_panels(
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
    set(&mut status, super::hud::screen_text(&state.status));
    let typing = |f: Field, value: &str| match &state.typing {
        Some((t, typed)) if *t == f => format!("{typed}_   (Enter keeps, Esc drops)"),
        _ => value.to_string(),
    };
    let tool = match state.tool {
        Tool::Paint(c) => format!("paint '{c}' (drag for a stroke: one undo)"),
        Tool::Units => "units: click an empty tile to place, a unit to pick; drag to move".into(),
        Tool::Objects => "objects: click to place or pick; drag to move".into(),
        Tool::Zone => "zone: drag a rectangle".into(),
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
        format!("Tile {p}: '{symbol}' {terrain}")
    });
    let text = format!(
        "LEVEL\nName (F2): {}\nDescription (F3): {}\nVictory (V cycles): {}\nRound limit ([ ]): {}\n\n\
         TOOL: {tool}\nNew units (T, G): {} of {}\nNew objects (I): {}\n\n\
         PICKED: {picked}\n\n{hovered}\n\n\
         Keys: 1-9 terrain | U units | O objects | Z zone | Esc drop pick | right click: drop pick | \
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
    set(&mut side, super::hud::screen_text(&text));
}

fn set<F: bevy::ecs::query::QueryFilter>(q: &mut Query<&mut Text, F>, value: String) {
    if let Ok(mut t) = q.single_mut()
        && t.0 != value
    {
        t.0 = value;
    }
}

/// `--screenshot`: the editor as it opens, saved once drawn.
fn take_screenshot(world: &mut World) {
    if let Some(path) = world.resource::<EditorState>().screenshot.clone() {
        super::capture::shoot_when_ready(world, path, true);
    }
}
