//! The player's hands: the cursor's tile, clicks and keys turned into
//! [`Command`]s for the unit whose turn it is, and the previews shown while
//! hovering (the rules' own numbers, never recomputed here).
//!
//! Mouse: left click on an enemy attacks it, on a reachable tile moves
//! there; right click faces the tile. Keys: `E`/`Enter` end the turn, `G`
//! Defend (guard), `R` Ready shield, `U` stand up, `X` Step to the hovered tile,
//! `C` Charge the hovered enemy, `T` throw at the hovered tile or unit, `P`
//! pick up, `H` drink a potion, `K` stabilize the hovered ally, `Q` Power
//! Attack / Deadly Aim and `Z` Lunge at the hovered enemy, `V` Cleave it,
//! `Y`/`N` answer a reaction question (`Shift+Y`/`Shift+N`: always / never
//! for that side this battle), `B`/`P`/`D`/`N` an attack under active
//! defence (with `Shift`, every attack after), `F` picks the body part
//! attacks aim at where the level aims them (V3 injuries without V4's
//! zones). `Tab` cycles the selection through your units; a click on one
//! selects it. The action bar lists what the rules allow now.
//!
//! The systems that turn input into commands read only [`CursorTile`] and
//! Bevy's `ButtonInput`s, so tests drive them without a window.

use super::controls::Action;
use super::controls::AimedPart;
use super::controls::Aiming;
use super::controls::AutoAnswers;
use super::controls::AutoGuards;
use super::controls::Clicked;
use super::controls::CursorTile;
use super::controls::Selected;
use super::controls::action_command;
use super::controls::aimed_part;
use super::controls::can_answer;
use super::controls::pressed_guard;
use super::preview::Hover;
use super::seat::human_asked;
use super::seat::human_to_act;
use super::seat::unit_at;

use super::coords::Grid;
use super::map::Highlights;

use crate::ai::Players;
use crate::battle::Side;
use crate::battle::{name_of, out_of_action, units};
use crate::format::{BodyPart, Guard};
use crate::grid::{Dir, Pos};
use crate::rules::submit;
use crate::rules::variants::injuries::parts_aimed;
use crate::rules::{Command, Refusal, TurnState};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        track_cursor
            .before(super::key_cursor::steer_key_cursor)
            .in_set(super::frame::ViewSystems::Input),
    );
    input_plugin(app);
    super::key_cursor::frame_plugin(app);
}

/// The input systems that need no window: tests add them to a headless app.
pub fn input_plugin(app: &mut App) {
    super::spell_bar::spell_input_plugin(app);
    app.init_resource::<CursorTile>()
        .init_resource::<Hover>()
        .init_resource::<Selected>()
        .init_resource::<AutoAnswers>()
        .init_resource::<AutoGuards>()
        .init_resource::<Aiming>()
        .init_resource::<AimedPart>()
        .init_resource::<Clicked>()
        .init_resource::<super::key_cursor::KeyCursor>()
        .init_resource::<Highlights>()
        .init_resource::<super::overlays::Overlays>()
        .init_resource::<super::overlays::OverlayMarks>()
        .init_resource::<super::overlays::Spotlight>()
        .init_resource::<super::seat::AimAtMount>()
        .add_systems(
            Update,
            super::seat::aim_at_mounts
                .in_set(super::frame::ViewSystems::Input)
                .before(send_player_commands),
        )
        .add_systems(
            Update,
            super::key_cursor::steer_key_cursor
                .in_set(super::frame::ViewSystems::Input)
                // (Also where the frame's sets are not chained: a test app.)
                .before(send_player_commands),
        )
        .add_systems(
            Update,
            (
                forget_past_refusals,
                send_player_commands,
                super::preview::preview_hover,
            )
                .chain()
                .in_set(super::frame::ViewSystems::Act),
        );
}

/// `F`, or the Aim button: the next part to aim at, where parts are aimed.
fn choose_aimed_part(world: &mut World) {
    let clicked = world.resource::<Clicked>().0 == Some(Action::Aim);
    let pressed = world
        .resource::<ButtonInput<KeyCode>>()
        .just_pressed(Action::Aim.key());
    if clicked {
        world.resource_mut::<Clicked>().0 = None;
    }
    if !(clicked || pressed) || !parts_aimed(world) {
        return;
    }
    let parts = BodyPart::all();
    let mut aimed = world.resource_mut::<AimedPart>();
    let next = parts
        .iter()
        .position(|p| *p == aimed.0)
        .map_or(0, |i| (i + 1) % parts.len());
    aimed.0 = parts[next];
}

/// Finds the tile under the cursor through the camera.
pub(super) fn track_cursor(
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<super::camera::BattleCamera>>,
    grid: Option<Res<Grid>>,
    options: Option<ResMut<super::frame::PlayOptions>>,
    motion: Res<bevy::input::mouse::AccumulatedMouseMotion>,
    mut cursor: ResMut<CursorTile>,
) {
    if let Some(mut options) = options
        && let Some(tile) = options.hover
    {
        // A pinned tile (`--hover`, a tour caption's) holds until the
        // player moves the mouse.
        if motion.delta == Vec2::ZERO {
            cursor.0 = Some(tile);
            return;
        }
        options.hover = None;
    }
    let (Ok(window), Ok((camera, at)), Some(grid)) = (window.single(), camera.single(), grid)
    else {
        return;
    };
    // Over the panels the cursor points at no tile, though the map may
    // lie under them.
    let tile = window
        .cursor_position()
        .filter(|p| {
            camera
                .logical_viewport_rect()
                .is_some_and(|r| r.contains(*p))
        })
        .and_then(|p| camera.viewport_to_world_2d(at, p).ok())
        .and_then(|w| grid.pos(w));
    if cursor.0 != tile {
        cursor.0 = tile;
    }
}

/// The command a click or key means now, if any.
pub fn command_for(
    world: &World,
    mouse: &ButtonInput<MouseButton>,
    keys: &ButtonInput<KeyCode>,
    tile: Option<Pos>,
) -> Option<Command> {
    if let Some(asked) = human_asked(world) {
        let unit = name_of(world, asked);
        let side = world.get::<Side>(asked).map(|s| s.0);
        let standing = world
            .resource::<AutoAnswers>()
            .0
            .iter()
            .find(|(s, _)| Some(*s) == side)
            .map(|(_, take)| *take);
        let react = |take, guard| {
            Some(Command::React {
                unit: unit.clone(),
                take,
                guard,
            })
        };
        // V2: asked how to answer an attack: B, P, D or N, or the side's
        // standing answer when the unit has it.
        let guards = crate::rules::variants::held_attack_options(world, asked);
        if !guards.is_empty() {
            let standing = world
                .resource::<AutoGuards>()
                .0
                .iter()
                .find(|(s, g)| Some(*s) == side && can_answer(&guards, *g))
                .map(|(_, g)| *g);
            let guard = standing.or_else(|| pressed_guard(keys, &guards))?;
            return react(
                guard != Guard::None,
                Some(guard).filter(|g| *g != Guard::None),
            );
        }
        if let Some(take) = standing {
            return react(take, None);
        }
        if keys.just_pressed(KeyCode::KeyY) {
            return react(true, None);
        }
        if keys.just_pressed(KeyCode::KeyN) {
            return react(false, None);
        }
        return None;
    }
    let me = human_to_act(world)?;
    let aiming = world.get_resource::<Aiming>().and_then(|a| a.0);
    let action = Action::ALL
        .into_iter()
        .find(|a| a.pressed(keys))
        .or_else(|| {
            world
                .get_resource::<Clicked>()
                .and_then(|c| c.0)
                .filter(|a| !a.aimed())
        })
        .or_else(|| aiming.filter(|_| mouse.just_pressed(MouseButton::Left)));
    if let Some(action) = action {
        return action_command(world, me, action, tile);
    }
    let unit = name_of(world, me);
    let tile = tile?;
    let target = unit_at(world, tile);
    let enemy = target.filter(|&t| world.get::<Side>(t) != world.get::<Side>(me));
    if mouse.just_pressed(MouseButton::Right) && aiming.is_none() {
        // From the body's centre (V10.6), in doubled coordinates.
        let from = crate::battle::body_of(world, me)?.centre2();
        let dir = Dir::towards(from, Pos::new(2 * tile.x, 2 * tile.y))?;
        return Some(Command::Face { unit, dir });
    }
    if mouse.just_pressed(MouseButton::Left) {
        return Some(match enemy {
            Some(t) => Command::Attack {
                unit,
                target: name_of(world, t),
                weapon: None,
                power: 0,
                lunge: false,
                part: aimed_part(world),
            },
            // Under Energy, a tile beside the unit while an Agile Move is
            // open: the Agile Move, which spends no Energy (V5.7).
            None if super::energy_pips::agile_open(world, me, tile) => {
                Command::AgileMove { unit, to: tile }
            }
            None => Command::Move {
                unit,
                to: tile,
                path: None,
                sprint: false,
            },
        });
    }
    None
}

/// A refusal is told for the turn it was made in: once another unit acts
/// (the turn ended, or the AI played), it is gone from the side panel.
fn forget_past_refusals(
    turn: Res<TurnState>,
    mut hover: ResMut<Hover>,
    mut acting: Local<Option<Entity>>,
) {
    if *acting != turn.current {
        *acting = turn.current;
        if hover.refusal.is_some() {
            hover.refusal = None;
        }
    }
}

/// Sends the command the player's click or key means; a refusal is kept
/// for the screen (the rules tell it as an event too).
fn send_player_commands(world: &mut World) {
    // A click on a button is not a click on the map under it.
    let over_ui = world
        .query::<&Interaction>()
        .iter(world)
        .any(|i| *i != Interaction::None);
    if over_ui {
        world
            .resource_mut::<ButtonInput<MouseButton>>()
            .clear_just_pressed(MouseButton::Left);
    }
    let tile = world.resource::<CursorTile>().0;
    choose_standing_answer(world);
    choose_aimed_part(world);
    select_units(world, tile);
    let command = {
        let mouse = world.resource::<ButtonInput<MouseButton>>();
        let keys = world.resource::<ButtonInput<KeyCode>>();
        command_for(world, mouse, keys, tile)
    };
    // A big body moves to the body the clicked tile centres (V10.6).
    let command = command.map(|c| match c {
        Command::Move {
            unit,
            to,
            path,
            sprint,
        } => {
            let to = human_to_act(world).map_or(to, |me| big_body_anchor(world, me, to));
            Command::Move {
                unit,
                to,
                path,
                sprint,
            }
        }
        other => other,
    });
    let clicked = world.resource_mut::<Clicked>().0.take();
    // An aimed action from the action bar waits for its target; a right
    // click or Escape drops it.
    {
        let mouse = world.resource::<ButtonInput<MouseButton>>();
        let keys = world.resource::<ButtonInput<KeyCode>>();
        let cancel = mouse.just_pressed(MouseButton::Right) || keys.just_pressed(KeyCode::Escape);
        let left = mouse.just_pressed(MouseButton::Left);
        let mut aiming = world.resource_mut::<Aiming>();
        if cancel || (left && command.is_some()) {
            aiming.0 = None;
        }
        if let Some(a) = clicked.filter(|a| a.aimed()) {
            aiming.0 = Some(a);
            return;
        }
    }
    let Some(command) = command else { return };
    let result: Result<(), Refusal> = submit(world, command);
    world.resource_mut::<Hover>().refusal = result.err();
}

/// `Shift+Y` / `Shift+N` while a unit of a human side is asked: that side
/// always / never takes its reactions for the rest of the battle. Asked how
/// to answer an attack (V2), `Shift+B`/`P`/`D`/`N`: that side answers
/// every attack so while its unit can.
fn choose_standing_answer(world: &mut World) {
    let Some(asked) = human_asked(world) else {
        return;
    };
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    let Some(side) = world.get::<Side>(asked).map(|s| s.0) else {
        return;
    };
    let guards = crate::rules::variants::held_attack_options(world, asked);
    if !guards.is_empty() {
        if let (true, Some(guard)) = (shift, pressed_guard(keys, &guards)) {
            let mut auto = world.resource_mut::<AutoGuards>();
            auto.0.retain(|(s, _)| *s != side);
            auto.0.push((side, guard));
        }
        return;
    }
    let take = match (
        keys.just_pressed(KeyCode::KeyY),
        keys.just_pressed(KeyCode::KeyN),
    ) {
        (true, _) => true,
        (_, true) => false,
        _ => return,
    };
    if shift {
        let mut auto = world.resource_mut::<AutoAnswers>();
        auto.0.retain(|(s, _)| *s != side);
        auto.0.push((side, take));
    }
}

/// `Tab` cycles through the player's living units; a left click on one of
/// them selects it.
fn select_units(world: &mut World, tile: Option<Pos>) {
    let Some(players) = world.get_resource::<Players>().cloned() else {
        return;
    };
    let mine: Vec<Entity> = units(world)
        .into_iter()
        .filter(|e| {
            !out_of_action(world, *e)
                && world
                    .get::<Side>(*e)
                    .is_some_and(|s| players.of(s.0).is_none())
        })
        .collect();
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let mouse = world.resource::<ButtonInput<MouseButton>>();
    let current = world.resource::<Selected>().0;
    let chosen = if keys.just_pressed(KeyCode::Tab) && !mine.is_empty() {
        let i = current
            .and_then(|c| mine.iter().position(|e| *e == c))
            .map_or(0, |i| (i + 1) % mine.len());
        Some(mine[i])
    } else if mouse.just_pressed(MouseButton::Left) {
        tile.and_then(|t| unit_at(world, t))
            .filter(|u| mine.contains(u))
    } else {
        None
    };
    if chosen.is_some() {
        world.resource_mut::<Selected>().0 = chosen;
    }
}

/// The anchor a click on `tile` moves `me` to: the tile itself for a
/// 1-tile body, else the reachable body the window shades for it (V10.6).
fn big_body_anchor(world: &mut World, me: Entity, tile: Pos) -> Pos {
    let n = crate::battle::body_of(world, me).map_or(1, |b| b.n);
    if n <= 1 {
        return tile;
    }
    let reach = crate::rules::motion::movement::move_reach(world, me);
    super::footprints::move_anchor(&reach, tile, n).unwrap_or(tile)
}
