//! Edits from the keyboard and the mouse: the keys that pick a tool or a
//! field, the text typed into a field, and painting or placing on the
//! map; each becomes an `Edit` the headless editor checks.

use super::state::{EditorState, Field, Tool};
use crate::design::editor::Edit;
use crate::format::{Victory, Zone};
use crate::grid::Dir;
use crate::view::controls::CursorTile;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

/// The next of `names` after `current`, round.
pub(super) fn next_of(names: &[String], current: &str) -> Option<String> {
    let i = names.iter().position(|n| n == current).map_or(0, |i| i + 1);
    names.get(i % names.len().max(1)).cloned()
}

/// Keys: tools, undo/redo, save, and changes to the picked unit or object
/// or to the level's fields.
pub(super) fn edit_by_keys(keys: Res<ButtonInput<KeyCode>>, mut state: ResMut<EditorState>) {
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
    for (i, key) in crate::view::controls::DIGIT_KEYS.iter().enumerate() {
        if !hit(*key) {
            continue;
        }
        // With the height tool, 1-9 choose the metres (and 0 below).
        if let Tool::Height(_) = state.tool {
            state.tool = Tool::Height(i as u8 + 1);
        } else if let Tool::Light(_) = state.tool {
            state.tool = Tool::Light((i as u8 + 1).min(3));
        } else if let Some((c, _)) = palette.get(i) {
            state.tool = Tool::Paint(*c);
        }
    }
    if hit(KeyCode::Digit0) {
        match state.tool {
            Tool::Height(_) => state.tool = Tool::Height(0),
            Tool::Light(_) => state.tool = Tool::Light(0),
            _ => {}
        }
    }
    for (key, tool) in [
        (KeyCode::KeyU, Tool::Units),
        (KeyCode::KeyO, Tool::Objects),
        (KeyCode::KeyZ, Tool::Zone),
        (KeyCode::KeyH, Tool::Height(1)),
        (KeyCode::KeyL, Tool::Light(3)),
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
pub(super) fn type_text(mut keys: MessageReader<KeyboardInput>, mut state: ResMut<EditorState>) {
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
pub(super) fn edit_on_map(
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
        Tool::Height(metres) => {
            if mouse.pressed(MouseButton::Left) || mouse.just_pressed(MouseButton::Left) {
                let now = level
                    .heights
                    .get(tile.y as usize)
                    .and_then(|r| r.chars().nth(tile.x as usize))
                    .and_then(|c| c.to_digit(10))
                    .unwrap_or(0);
                if now != u32::from(metres) {
                    state.send(Edit::SetHeight { at: tile, metres });
                }
                state.stroke = true;
            }
        }
        Tool::Light(level) => {
            if mouse.pressed(MouseButton::Left) || mouse.just_pressed(MouseButton::Left) {
                let light = super::state::light_of(level);
                let now = state.editor.valid.map.get(tile).and_then(|t| t.light);
                if now != light {
                    state.send(Edit::SetLight { at: tile, light });
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
