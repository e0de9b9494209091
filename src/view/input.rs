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

use super::coords::Grid;
use super::map::Highlights;
pub use super::preview::Hover;
use crate::ai::Players;
use crate::battle::{ArmorReduction, GridPos, GroundObject, Health, Inventory, Side};
use crate::battle::{name_of, out_of_action, units};
use crate::format::{BodyPart, Guard};
use crate::grid::{Dir, Pos};
use crate::rules::pipeline::Decisions;
use crate::rules::submit;
use crate::rules::variants::injuries::parts_aimed;
use crate::rules::{Command, Refusal, ThrowTarget, TurnState};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, track_cursor.in_set(super::ViewSystems::Input));
    input_plugin(app);
}

/// The input systems that need no window: tests add them to a headless app.
pub fn input_plugin(app: &mut App) {
    app.init_resource::<CursorTile>()
        .init_resource::<Hover>()
        .init_resource::<Selected>()
        .init_resource::<AutoAnswers>()
        .init_resource::<AutoGuards>()
        .init_resource::<Aiming>()
        .init_resource::<AimedPart>()
        .init_resource::<Clicked>()
        .init_resource::<Highlights>()
        .init_resource::<super::overlays::Overlays>()
        .init_resource::<super::overlays::OverlayMarks>()
        .init_resource::<super::overlays::Spotlight>()
        .add_systems(
            Update,
            (
                forget_past_refusals,
                send_player_commands,
                super::preview::preview_hover,
            )
                .chain()
                .in_set(super::ViewSystems::Act),
        );
}

/// The keys `1` to `9`, in order: overlays, menu entries, the editor's
/// palette.
pub const DIGIT_KEYS: [KeyCode; 9] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// The unit whose details the player looks at (`Tab`, or a click on one of
/// theirs); the acting unit when none is chosen.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selected(pub Option<Entity>);

/// Standing answers to reaction questions, by side, for this battle
/// (`Shift+Y` always, `Shift+N` never): the view answers for the player
/// with `React` commands, as the player would.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AutoAnswers(pub Vec<(usize, bool)>);

/// The body part the player's attacks aim at where the level aims them
/// (V3 injuries without V4's zones; see
/// [`crate::rules::variants::injuries::parts_aimed`]): `F`, or the
/// action bar's Aim button, cycles torso, arms, legs, head.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AimedPart(pub BodyPart);

impl Default for AimedPart {
    /// The torso: the rules' own default (V3).
    fn default() -> Self {
        AimedPart(BodyPart::Torso)
    }
}

/// The part the player's attack commands name: the aimed one where parts
/// are aimed and it is not the torso (the rules' default, left out so a
/// record reads as before), else none.
pub fn aimed_part(world: &World) -> Option<BodyPart> {
    let part = world.get_resource::<AimedPart>().map(|a| a.0)?;
    (parts_aimed(world) && part != BodyPart::Torso).then_some(part)
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

/// Standing answers to attacks under active defence (V2), by side, for
/// this battle (`Shift+B`/`P`/`D`/`N`): the view answers each attack with
/// that guard when the unit has it, and asks when it has not.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AutoGuards(pub Vec<(usize, Guard)>);

/// The tile under the cursor, if any.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CursorTile(pub Option<Pos>);

/// Finds the tile under the cursor through the camera.
pub(super) fn track_cursor(
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<super::hud::BattleCamera>>,
    grid: Option<Res<Grid>>,
    options: Option<ResMut<super::PlayOptions>>,
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

/// The unit whose turn it is, when a human plays its side.
pub fn human_to_act(world: &World) -> Option<Entity> {
    if world.contains_resource::<super::turns::Script>() {
        return None;
    }
    let players = world.get_resource::<Players>()?;
    if world.resource::<TurnState>().outcome.is_some() {
        return None;
    }
    if world.resource::<Decisions>().asked().is_some() {
        return None;
    }
    let current = world.resource::<TurnState>().current?;
    let side = world.get::<Side>(current)?.0;
    players.of(side).is_none().then_some(current)
}

/// The keys that answer an attack under active defence (V2), with their
/// letter as the prompt shows it.
pub const GUARD_KEYS: [(KeyCode, Guard, &str); 4] = [
    (KeyCode::KeyB, Guard::Block, "B"),
    (KeyCode::KeyP, Guard::Parry, "P"),
    (KeyCode::KeyD, Guard::Dodge, "D"),
    (KeyCode::KeyN, Guard::None, "N"),
];

/// Whether a defender whose answers are `guards` can answer with `guard`:
/// not answering always can (V2).
fn can_answer(guards: &[Guard], guard: Guard) -> bool {
    guard == Guard::None || guards.contains(&guard)
}

/// The answer whose key was just pressed, among those the defender has
/// (V2).
fn pressed_guard(keys: &ButtonInput<KeyCode>, guards: &[Guard]) -> Option<Guard> {
    GUARD_KEYS
        .iter()
        .find(|(k, g, _)| keys.just_pressed(*k) && can_answer(guards, *g))
        .map(|(_, g, _)| *g)
}

/// The unit a human is asked about (a reaction question, R8), if any.
pub fn human_asked(world: &World) -> Option<Entity> {
    if world.contains_resource::<super::turns::Script>() {
        return None;
    }
    let players = world.get_resource::<Players>()?;
    let asked = world.resource::<Decisions>().asked()?;
    let side = world.get::<Side>(asked)?.0;
    players.of(side).is_none().then_some(asked)
}

/// The living unit on `tile`, if any.
pub fn unit_at(world: &World, tile: Pos) -> Option<Entity> {
    units(world).into_iter().find(|&e| {
        !world.entity(e).contains::<crate::battle::Dead>()
            && world.get::<GridPos>(e).is_some_and(|p| p.0 == tile)
    })
}

/// What the player can ask for besides a click on the map: each has a key
/// and a button in the action bar; the aimed ones take the hovered (or
/// next clicked) tile or unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// End the turn.
    EndTurn,
    /// Step one tile.
    Step,
    /// Charge an enemy.
    Charge,
    /// Power Attack / Deadly Aim with every point allowed.
    PowerAttack,
    /// Lunge.
    Lunge,
    /// Cleave after a melee hit.
    Cleave,
    /// Throw at a tile or unit.
    Throw,
    /// Defend.
    Defend,
    /// Ready the shield.
    ReadyShield,
    /// Stand up.
    StandUp,
    /// Stabilize a dying ally.
    Stabilize,
    /// Pick up an object.
    PickUp,
    /// Drink a potion.
    Potion,
    /// Aim attacks at the next body part (V3 without V4): no command, a
    /// choice the next attacks carry.
    Aim,
}

impl Action {
    /// Every action, in the action bar's order.
    pub const ALL: [Action; 14] = [
        Action::Step,
        Action::Charge,
        Action::PowerAttack,
        Action::Lunge,
        Action::Cleave,
        Action::Throw,
        Action::Defend,
        Action::ReadyShield,
        Action::StandUp,
        Action::Stabilize,
        Action::PickUp,
        Action::Potion,
        Action::Aim,
        Action::EndTurn,
    ];

    /// Its key.
    pub fn key(self) -> KeyCode {
        match self {
            Action::EndTurn => KeyCode::KeyE,
            Action::Step => KeyCode::KeyX,
            Action::Charge => KeyCode::KeyC,
            Action::PowerAttack => KeyCode::KeyQ,
            Action::Lunge => KeyCode::KeyZ,
            Action::Cleave => KeyCode::KeyV,
            Action::Throw => KeyCode::KeyT,
            Action::Defend => KeyCode::KeyG,
            Action::ReadyShield => KeyCode::KeyR,
            Action::StandUp => KeyCode::KeyU,
            Action::Stabilize => KeyCode::KeyK,
            Action::PickUp => KeyCode::KeyP,
            Action::Potion => KeyCode::KeyH,
            Action::Aim => KeyCode::KeyF,
        }
    }

    /// The button's label: key and name.
    pub fn label(self) -> &'static str {
        match self {
            Action::EndTurn => "E End turn",
            Action::Step => "X Step",
            Action::Charge => "C Charge",
            Action::PowerAttack => "Q Power",
            Action::Lunge => "Z Lunge",
            Action::Cleave => "V Cleave",
            Action::Throw => "T Throw",
            Action::Defend => "G Defend",
            Action::ReadyShield => "R Shield",
            Action::StandUp => "U Stand",
            Action::Stabilize => "K Stabilize",
            Action::PickUp => "P Pick up",
            Action::Potion => "H Potion",
            Action::Aim => "F Aim",
        }
    }

    /// The rule it carries out, whose text hovering its button shows.
    pub fn rule(self) -> crate::rules::rule::Rule {
        use crate::rules::rule::Rule;
        match self {
            Action::EndTurn | Action::Step => Rule::R3_1,
            Action::Charge => Rule::R4_7,
            Action::PowerAttack | Action::Lunge | Action::Cleave => Rule::R7_8,
            Action::Throw => Rule::R9_1,
            Action::Defend | Action::ReadyShield => Rule::R4_6,
            Action::StandUp => Rule::R4_8,
            Action::Stabilize => Rule::R10_4,
            Action::PickUp => Rule::R9_5,
            Action::Potion => Rule::R10_5,
            Action::Aim => Rule::V3,
        }
    }

    /// The tooltip: what the rules say it does, with the rule.
    pub fn tooltip(self) -> &'static str {
        match self {
            Action::EndTurn => "End the turn; unused AP are lost (R3.1, R2.4)",
            Action::Step => {
                "1 AP: move exactly one tile, never into difficult terrain; never provokes (R3.1, R8.2)"
            }
            Action::Charge => {
                "2 AP: a straight run of 2+ tiles, then a melee attack at +1 advantage; melee against you +1 advantage until your turn (R4.7)"
            }
            Action::PowerAttack => {
                "Power Attack / Deadly Aim: +2 to hit per stamina, up to MB (R7.8)"
            }
            Action::Lunge => {
                "Lunge: 1 stamina, +1 reach for this attack; melee against you +1 advantage until your turn (R7.8)"
            }
            Action::Cleave => {
                "Cleave: 1 stamina, after a melee hit strike another enemy next to the first (R7.8)"
            }
            Action::Throw => "1 AP: throw at a unit or a tile; a miss scatters by d8 (R9.1, R9.3)",
            Action::Defend => {
                "1 AP: +MB to DV until your next turn; no more attacks this turn (R4.6)"
            }
            Action::ReadyShield => {
                "1 AP: the shield's DV until your next turn, not from the rear (R4.6, R4.3)"
            }
            Action::StandUp => "1 AP: stand up from prone; provokes (R4.8, R8.2)",
            Action::Stabilize => {
                "1 AP: d20 + WIS + Medicine vs 15 to stop an adjacent ally dying (R10.4)"
            }
            Action::PickUp => {
                "1 AP: pick up an object in or next to your tile; provokes (R9.5, R8.2)"
            }
            Action::Potion => {
                "Free action: drink a potion; 1 AP to give it to an adjacent ally (R10.5, R3.1)"
            }
            Action::Aim => {
                "Aim your attacks at the next body part (torso, arms, legs, head); a hit injures \
                 the part aimed at: arms weaken and disarm, legs slow and lame, the head knocks \
                 out, the torso's heart kills (V3)"
            }
        }
    }

    /// The aimed action named `name` (its button's word, any case), as a
    /// tour caption names it.
    pub fn parse(name: &str) -> Option<Action> {
        Action::ALL
            .into_iter()
            .filter(|a| a.aimed())
            .find(|a| a.label()[2..].eq_ignore_ascii_case(name))
    }

    /// It needs a tile or a unit: the hovered one, or the next clicked.
    pub fn aimed(self) -> bool {
        matches!(
            self,
            Action::Step
                | Action::Charge
                | Action::PowerAttack
                | Action::Lunge
                | Action::Cleave
                | Action::Throw
                | Action::Stabilize
        )
    }
}

/// An aimed action chosen from the action bar, waiting for its target:
/// the next left click on the map (a right click cancels).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aiming(pub Option<Action>);

/// An action button clicked this frame.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clicked(pub Option<Action>);

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
        let guards = crate::rules::variants::active_defence::held_attack_options(world, asked);
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
        .find(|a| keys.just_pressed(a.key()))
        .or_else(|| keys.just_pressed(KeyCode::Enter).then_some(Action::EndTurn))
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
        let from = world.get::<GridPos>(me)?.0;
        let dir = Dir::towards(from, tile)?;
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
            None => Command::Move {
                unit,
                to: tile,
                path: None,
            },
        });
    }
    None
}

/// The command `action` of `me` means, aimed at `tile` where it needs one.
pub fn action_command(
    world: &World,
    me: Entity,
    action: Action,
    tile: Option<Pos>,
) -> Option<Command> {
    let unit = name_of(world, me);
    let target = tile.and_then(|t| unit_at(world, t));
    let enemy = target.filter(|&t| world.get::<Side>(t) != world.get::<Side>(me));
    let named = |e: Entity| name_of(world, e);
    Some(match action {
        Action::EndTurn => Command::EndTurn,
        Action::Defend => Command::Defend { unit },
        Action::ReadyShield => Command::ReadyShield { unit },
        Action::StandUp => Command::StandUp { unit },
        Action::Potion => Command::DrinkPotion { unit, target: None },
        // A choice, not a command: `choose_aimed_part` makes it.
        Action::Aim => return None,
        Action::PickUp => {
            let at = world.get::<GridPos>(me)?.0;
            let item = ground_objects(world)
                .into_iter()
                .find(|(_, p)| p.chebyshev(at) <= 1)?
                .0;
            Command::PickUp { unit, item }
        }
        Action::Step => Command::Step { unit, to: tile? },
        Action::Charge => Command::Charge {
            unit,
            target: named(enemy?),
        },
        Action::Cleave => Command::Cleave {
            unit,
            target: named(enemy?),
        },
        Action::Stabilize => Command::Stabilize {
            unit,
            target: named(target?),
        },
        Action::PowerAttack | Action::Lunge => {
            let lunge = action == Action::Lunge;
            // Power Attack / Deadly Aim with every point the rules allow:
            // MB, and the stamina left (R7.8).
            let mb = world
                .get::<crate::battle::Stats>(me)
                .map_or(0, |s| s.template.mb);
            let stamina = world.get::<crate::battle::Stamina>(me).map_or(0, |s| s.0);
            let power = if lunge { 0 } else { mb.min(stamina).max(1) };
            Command::Attack {
                unit,
                target: named(enemy?),
                weapon: None,
                power,
                lunge,
                part: aimed_part(world),
            }
        }
        Action::Throw => {
            let item = throwable(world, me)?;
            let at = match target {
                Some(t) => ThrowTarget::Unit(named(t)),
                None => ThrowTarget::Tile(tile?),
            };
            Command::Throw { unit, item, at }
        }
    })
}

/// What `unit` would throw with `T`: its first item or spare weapon made
/// for throwing, else its first item.
fn throwable(world: &World, unit: Entity) -> Option<String> {
    let inv = world.get::<Inventory>(unit)?;
    let catalog = &world.resource::<crate::battle::Battlefield>().0.catalog;
    let thrown = |n: &String| {
        catalog.weapon(n).is_some_and(|w| w.is_throwing())
            || catalog
                .item(n)
                .is_some_and(|i| i.thrown.is_some() || i.damage.is_some())
    };
    inv.items
        .iter()
        .map(|(n, _)| n)
        .chain(inv.weapons.iter().skip(1))
        .find(|n| thrown(n))
        .or_else(|| inv.items.first().map(|(n, _)| n))
        .cloned()
}

fn ground_objects(world: &World) -> Vec<(String, Pos)> {
    let mut out = vec![];
    for e in world.iter_entities() {
        if let (Some(o), Some(p)) = (e.get::<GroundObject>(), e.get::<GridPos>()) {
            out.push((o.name.clone(), p.0));
        }
    }
    out
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

/// What the acting unit may do now besides clicking the map, from the
/// rules' legal commands.
pub(super) fn action_bar(world: &mut World) -> Vec<Action> {
    use crate::rules::command::CommandKind as K;
    let legal = crate::rules::legal::legal_commands(world);
    let can = |k: K| legal.iter().any(|c| c.kind() == k);
    let technique = |lunge: bool| {
        legal.iter().any(|c| {
            matches!(c, Command::Attack { power, lunge: l, .. } if (lunge && *l) || (!lunge && *power > 0))
        })
    };
    Action::ALL
        .into_iter()
        .filter(|a| match a {
            Action::EndTurn => can(K::EndTurn),
            Action::Step => can(K::Step),
            Action::Charge => can(K::Charge),
            Action::PowerAttack => technique(false),
            Action::Lunge => technique(true),
            Action::Cleave => can(K::Cleave),
            Action::Throw => can(K::Throw),
            Action::Defend => can(K::Defend),
            Action::ReadyShield => can(K::ReadyShield),
            Action::StandUp => can(K::StandUp),
            Action::Stabilize => can(K::Stabilize),
            Action::PickUp => can(K::PickUp),
            Action::Potion => can(K::DrinkPotion),
            // A standing choice: offered whenever parts are aimed.
            Action::Aim => parts_aimed(world),
        })
        .collect()
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
    let guards = crate::rules::variants::active_defence::held_attack_options(world, asked);
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

/// What the selected unit (else the acting one) is: its numbers and gear.
pub fn selected_line(world: &World) -> Option<String> {
    if world.resource::<TurnState>().outcome.is_some() {
        return None;
    }
    let unit = world
        .resource::<Selected>()
        .0
        .or(world.resource::<TurnState>().current)?;
    let stats = world.get::<crate::battle::Stats>(unit)?;
    let hp = world.get::<Health>(unit)?;
    let ar = world.get::<ArmorReduction>(unit).map_or(0, |a| a.0);
    let stamina = world.get::<crate::battle::Stamina>(unit).map_or(0, |s| s.0);
    let inv = world.get::<Inventory>(unit)?;
    let t = &stats.template;
    let mut line = format!(
        "{} ({}): HP {}/{} AR {ar} stamina {stamina} | MB {} STR {} DEX {} speed {} | {}",
        name_of(world, unit),
        stats.kind,
        hp.hp,
        hp.max,
        t.mb,
        t.str,
        t.dex,
        crate::rules::motion::movement::speed_of(world, unit),
        if inv.weapons.is_empty() {
            "unarmed".to_string()
        } else {
            inv.weapons.join(", ")
        }
    );
    if let Some(text) = injuries_text(world, unit) {
        line.push('\n');
        line.push_str(&text);
    }
    Some(line)
}

/// A unit's injuries and what they do (V3), for its panel: "injuries:
/// arms severe x2 | legs minor; attacks +2 dis (V3)".
pub fn injuries_text(world: &World, unit: Entity) -> Option<String> {
    let injuries = world.get::<crate::rules::variants::injuries::Injuries>(unit)?;
    if injuries.0.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = vec![];
    for part in crate::format::BodyPart::all() {
        // Worst first, repeats counted: "arms severe x2, major".
        let mut counts = std::collections::BTreeMap::new();
        for (_, s) in injuries.0.iter().filter(|(p, _)| *p == part) {
            *counts.entry(*s).or_insert(0) += 1;
        }
        if counts.is_empty() {
            continue;
        }
        let listed: Vec<String> = counts
            .iter()
            .rev()
            .map(|(s, n)| match n {
                1 => s.name().to_string(),
                n => format!("{} x{n}", s.name()),
            })
            .collect();
        parts.push(format!("{} {}", part.name(), listed.join(", ")));
    }
    let mut effects = vec![];
    if injuries.attack_disadvantage() > 0 {
        effects.push(format!("attacks +{} dis", injuries.attack_disadvantage()));
    }
    if injuries.slowed() > 0 {
        effects.push(format!("speed -{}", injuries.slowed()));
    }
    if injuries.lamed() {
        effects.push("cannot stand".to_string());
    }
    let effects = if effects.is_empty() {
        String::new()
    } else {
        format!("; {}", effects.join(", "))
    };
    Some(format!("injuries: {}{effects} (V3)", parts.join(" | ")))
}
