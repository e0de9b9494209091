//! What the player's keys and buttons mean: the actions (each with its
//! key, label, rule and tooltip), the command an action means now, the
//! actions the rules allow, and the choices the player holds (the tile
//! under the cursor, the selection, an action aiming, the body part
//! aimed at, standing answers).

use super::seat::unit_at;
use crate::battle::Inventory;
use crate::battle::Side;
use crate::battle::name_of;
use crate::format::Aim;
use crate::format::BodyPart;
use crate::format::Guard;
use crate::grid::Pos;
use crate::rules::Command;
use crate::rules::ThrowTarget;
use crate::rules::attacks::techniques::full_power;
use crate::rules::command::ManeuverKind;
use crate::rules::throws::pick_up::reachable_objects;
use crate::rules::variants::injuries::parts_aimed;
use bevy::prelude::*;

/// The keys `1` to `9`, in order: overlays, the spell bar, the editor's
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

/// The part the player's attack commands name: the aimed one where parts
/// are aimed and it is not the torso (the rules' default, left out so a
/// record reads as before), else none.
pub fn aimed_part(world: &World) -> Option<BodyPart> {
    let part = world.get_resource::<AimedPart>().map(|a| a.0)?;
    (parts_aimed(world) && part != BodyPart::Torso).then_some(part)
}

/// Standing answers to attacks under active defence (V2), by side, for
/// this battle (`Shift+B`/`P`/`D`/`N`): the view answers each attack with
/// that guard when the unit has it, and asks when it has not.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AutoGuards(pub Vec<(usize, Guard)>);

/// The tile under the cursor, if any.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CursorTile(pub Option<Pos>);

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
pub fn can_answer(guards: &[Guard], guard: Guard) -> bool {
    guard == Guard::None || guards.contains(&guard)
}

/// The answer whose key was just pressed, among those the defender has
/// (V2).
pub fn pressed_guard(keys: &ButtonInput<KeyCode>, guards: &[Guard]) -> Option<Guard> {
    GUARD_KEYS
        .iter()
        .find(|(k, g, _)| keys.just_pressed(*k) && can_answer(guards, *g))
        .map(|(_, g, _)| *g)
}

/// What the player can ask for besides a click on the map: each has a key
/// and a button in the action bar; the aimed ones take the hovered (or
/// next clicked) tile or unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// Trip an enemy (V7.4).
    Trip,
    /// Disarm an enemy (V7.5).
    Disarm,
    /// Shove an enemy a tile away (V7.7).
    Shove,
    /// Grapple an enemy (V7.6).
    Grapple,
    /// Keep a grapple this turn (V7.6).
    Sustain,
    /// Let go of a grapple (V7.6).
    Release,
    /// Break free of a grapple (V7.6).
    Escape,
    /// Force the grappled enemy prone (V7.6).
    ForceDown,
    /// Crush the held enemy (V7.6).
    Crush,
    /// Drag the held enemy along (V7.6).
    Drag,
    /// Charge and shove the enemy on (V7.7).
    ChargeShove,
    /// Get on a mount beside the unit, or down from it to a tile (V12.7).
    Ride,
    /// The ridden mount's own attack, paid with the rider's AP (V12.2).
    Kick,
    /// Jump to a tile: over a gap, up or down a ledge (V9.2).
    Jump,
    /// Sprint to a tile a third of Speed past a Run (V5.5).
    Sprint,
    /// An Agile Move to a tile beside it after a command (V5.7).
    Agile,
    /// Catch Your Breath (V5.5).
    Breath,
}

impl Action {
    /// Every action, in the action bar's order.
    pub const ALL: [Action; 31] = [
        Action::Step,
        Action::Agile,
        Action::Sprint,
        Action::Jump,
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
        Action::Trip,
        Action::Disarm,
        Action::Shove,
        Action::Grapple,
        Action::Sustain,
        Action::Release,
        Action::Escape,
        Action::ForceDown,
        Action::Crush,
        Action::Drag,
        Action::ChargeShove,
        Action::Ride,
        Action::Kick,
        Action::Breath,
        Action::EndTurn,
    ];

    /// The maneuver an action makes (V7), if it is one.
    pub fn maneuver(self) -> Option<ManeuverKind> {
        match self {
            Action::Trip => Some(ManeuverKind::Trip),
            Action::Disarm => Some(ManeuverKind::Disarm),
            Action::Shove => Some(ManeuverKind::Shove),
            Action::Grapple => Some(ManeuverKind::Grapple),
            _ => None,
        }
    }

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
            Action::Trip | Action::Escape => KeyCode::KeyJ,
            Action::Disarm | Action::ForceDown => KeyCode::KeyI,
            Action::Shove | Action::Release => KeyCode::KeyO,
            Action::Grapple | Action::Sustain => KeyCode::KeyY,
            Action::Crush => KeyCode::KeyV,
            Action::Drag => KeyCode::KeyX,
            Action::ChargeShove => KeyCode::KeyC,
            Action::Ride => KeyCode::KeyH,
            Action::Kick => KeyCode::KeyK,
            Action::Jump => KeyCode::KeyB,
            Action::Sprint => KeyCode::KeyR,
            Action::Agile => KeyCode::KeyE,
            Action::Breath => KeyCode::KeyG,
        }
    }

    /// Its key is pressed with Shift (the grapple's own actions, V7.6).
    pub fn shifted(self) -> bool {
        matches!(
            self,
            Action::Sustain
                | Action::Release
                | Action::Escape
                | Action::ForceDown
                | Action::Crush
                | Action::Drag
                | Action::ChargeShove
                | Action::Ride
                | Action::Kick
                | Action::Sprint
                | Action::Agile
                | Action::Breath
        )
    }

    /// Whether this frame's keys press it: its key, with Shift when it is
    /// shifted, and without when a shifted action shares the key.
    pub fn pressed(self, keys: &ButtonInput<KeyCode>) -> bool {
        let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
        let shared = Action::ALL
            .iter()
            .any(|b| b.key() == self.key() && b.shifted() != self.shifted());
        keys.just_pressed(self.key()) && (!shared || shift == self.shifted())
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
            Action::Trip => "J Trip",
            Action::Disarm => "I Disarm",
            Action::Shove => "O Shove",
            Action::Grapple => "Y Grapple",
            Action::Sustain => "Shift-Y Keep grip",
            Action::Release => "Shift-O Let go",
            Action::Escape => "Shift-J Escape",
            Action::ForceDown => "Shift-I Force down",
            Action::Crush => "Shift-V Crush",
            Action::Drag => "Shift-X Drag",
            Action::ChargeShove => "Shift-C Charge-shove",
            Action::Ride => "Shift-H Mount/get down",
            Action::Kick => "Shift-K Mount kicks",
            Action::Jump => "B Jump",
            Action::Sprint => "Shift-R Sprint",
            Action::Agile => "Shift-E Agile move",
            Action::Breath => "Shift-G Catch breath",
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
            Action::Trip => Rule::V7_4,
            Action::Disarm => Rule::V7_5,
            Action::Shove => Rule::V7_7,
            Action::Grapple
            | Action::Sustain
            | Action::Release
            | Action::Escape
            | Action::ForceDown
            | Action::Crush
            | Action::Drag => Rule::V7_6,
            Action::ChargeShove => Rule::V7_7,
            Action::Ride => Rule::V12_7,
            Action::Kick => Rule::V12_2,
            Action::Jump => Rule::V9_2,
            Action::Sprint | Action::Breath => Rule::V5_5,
            Action::Agile => Rule::V5_7,
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
            Action::Trip => {
                "1 AP: d20 + MB + DEX + Acrobatics, meeting the DV knocks the enemy prone; at \
                 most one size larger; +1 dis unless it is exposed (V7.4, V7.1, V7.3)"
            }
            Action::Disarm => {
                "1 AP: from its front arc, knock the weapon from its hands; a Light weapon cannot \
                 disarm a Heavy one (V7.5)"
            }
            Action::Shove => {
                "1 AP: d20 + MB + STR + Athletics, meeting the DV pushes it a tile away and opens \
                 it; a failure opens you (V7.7)"
            }
            Action::Grapple => {
                "1 AP: unarmed; 1 degree grabs, 2 hold: neither moves, and a hold hampers its \
                 attacks (V7.6)"
            }
            Action::Sustain => "1 AP: keep your grip this turn, or it ends with your turn (V7.6)",
            Action::Release => "Free: let go of the grapple (V7.6)",
            Action::Escape => {
                "d20 + MB + the better of STR + Athletics and DEX + Acrobatics vs the grappler's \
                 DV: 1 degree costs 2 AP and ends your turn, 2 degrees 1 AP, 3 none (V7.6)"
            }
            Action::ForceDown => "1 AP: force the grappled enemy to the ground, prone (V7.6)",
            Action::Crush => "2 AP: an unarmed strike the held enemy cannot parry or answer (V7.6)",
            Action::Drag => {
                "3 AP: step a tile and drag the held enemy along by the same step (V7.6)"
            }
            Action::ChargeShove => {
                "2 AP: charge 3+ tiles in a straight line and shove at +1 advantage: success \
                 drives the enemy up to 3 tiles on (V7.7, R4.7)"
            }
            Action::Ride => {
                "1 AP (3 unskilled): get on a mount of your side beside you, or down to a free \
                 tile beside it; neither provokes (V12.7)"
            }
            Action::Kick => {
                "1 AP of yours: your mount attacks an enemy in its reach, with its own roll \
                 (V12.2)"
            }
            Action::Jump => {
                "1 AP: jump to a tile up to your speed away and up to your size's reach high: \
                 d20 + STR + DEX vs 4 per metre up + 2 per tile; under twice the DC you land \
                 prone; a failure may fall (V9.2, V9.3, V9.4)"
            }
            Action::Sprint => {
                "3 Energy and 1 Stamina: run up to a third of your Speed farther than a Run \
                 (V5.5); shots at you get +5 Miss Chance until your next turn (V5.10)"
            }
            Action::Agile => {
                "1 Agility: a tile beside you, right after a command that spent Energy, one \
                 per Energy it spent; never provokes (V5.7)"
            }
            Action::Breath => "Your Energy left (at most 3): 1 Stamina back (V5.5, V5.3)",
        }
    }

    /// The action a tour caption's aim names.
    pub fn aimed_by(aim: Aim) -> Action {
        match aim {
            Aim::Step => Action::Step,
            Aim::Charge => Action::Charge,
            Aim::Power => Action::PowerAttack,
            Aim::Lunge => Action::Lunge,
            Aim::Cleave => Action::Cleave,
            Aim::Throw => Action::Throw,
            Aim::Stabilize => Action::Stabilize,
            Aim::Trip => Action::Trip,
            Aim::Disarm => Action::Disarm,
            Aim::Shove => Action::Shove,
            Aim::Grapple => Action::Grapple,
            Aim::Jump => Action::Jump,
        }
    }

    /// It needs a tile or a unit: the hovered one, or the next clicked.
    pub fn aimed(self) -> bool {
        matches!(
            self,
            Action::Step
                | Action::Sprint
                | Action::Agile
                | Action::Jump
                | Action::Trip
                | Action::Disarm
                | Action::Shove
                | Action::Grapple
                | Action::Drag
                | Action::ChargeShove
                | Action::Charge
                | Action::PowerAttack
                | Action::Lunge
                | Action::Cleave
                | Action::Throw
                | Action::Stabilize
                | Action::Ride
                | Action::Kick
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
            // The nearest object the rules let it reach (R9.5).
            let (item, ..) = reachable_objects(world, me).into_iter().next()?;
            Command::PickUp { unit, item }
        }
        Action::Step => Command::Step { unit, to: tile? },
        Action::Sprint => Command::Move {
            unit,
            to: tile?,
            path: None,
            sprint: true,
        },
        Action::Agile => Command::AgileMove { unit, to: tile? },
        Action::Breath => Command::CatchBreath { unit },
        Action::Jump => Command::Jump { unit, to: tile? },
        Action::Trip | Action::Disarm | Action::Shove | Action::Grapple => Command::Maneuver {
            unit,
            target: named(enemy?),
            kind: action.maneuver()?,
            to: None,
            fling: None,
        },
        Action::Sustain => Command::Sustain { unit },
        Action::Release => Command::Release { unit },
        Action::Escape => Command::Escape { unit },
        Action::ForceDown => Command::ForceDown { unit },
        Action::Crush => Command::Crush { unit },
        Action::Drag => Command::Drag { unit, to: tile? },
        Action::ChargeShove => Command::Charge {
            unit,
            target: named(enemy?),
            shove: true,
        },
        Action::Charge => Command::Charge {
            unit,
            target: named(enemy?),
            shove: false,
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
            // Power Attack / Deadly Aim with every point the rules allow
            // (R7.8); with none, 1, so that the rules say why not.
            let power = if lunge {
                0
            } else {
                full_power(world, me, false).max(1)
            };
            Command::Attack {
                unit,
                target: named(enemy?),
                weapon: None,
                power,
                lunge,
                part: aimed_part(world),
            }
        }
        // Down to the tile when mounted, else onto the mount there (V12.7).
        Action::Ride => match crate::battle::mount_of(world, me) {
            Some(_) => Command::Dismount { unit, to: tile? },
            None => Command::Mount {
                unit,
                mount: named(target?),
            },
        },
        Action::Kick => Command::Attack {
            unit: named(crate::battle::mount_of(world, me)?),
            target: named(enemy?),
            weapon: None,
            power: 0,
            lunge: false,
            part: None,
        },
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

/// What `unit` would throw with `T`: the first thing it carries that is
/// made for throwing (items, then spare weapons, then the one in hand),
/// else its first item, else a spare weapon, else the one in hand (R9.1:
/// anything can be thrown, an object not made for it at half damage).
fn throwable(world: &World, unit: Entity) -> Option<String> {
    let inv = world.get::<Inventory>(unit)?;
    let catalog = &world.resource::<crate::battle::Battlefield>().0.catalog;
    let thrown = |n: &&String| {
        catalog.weapon(n).is_some_and(|w| w.is_throwing())
            || catalog
                .item(n)
                .is_some_and(|i| i.thrown.is_some() || i.damage.is_some())
    };
    let items = || inv.items.iter().map(|(n, _)| n);
    let spare = || inv.weapons.iter().skip(1);
    let in_hand = || inv.weapons.first();
    items()
        .chain(spare())
        .chain(in_hand())
        .find(thrown)
        .or_else(|| items().next())
        .or_else(|| spare().next())
        .or_else(in_hand)
        .cloned()
}

/// What the acting unit may do now besides clicking the map, from the
/// rules' legal commands.
pub fn action_bar(world: &mut World) -> Vec<Action> {
    use crate::rules::command::CommandKind as K;
    let legal = crate::rules::legal::legal_commands(world);
    let can = |k: K| legal.iter().any(|c| c.kind() == k);
    // A legal attack by another than the unit to act is its mount's (V12.2).
    let acting = world
        .resource::<crate::rules::TurnState>()
        .current
        .map(|c| name_of(world, c));
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
            Action::Sprint => legal
                .iter()
                .any(|c| matches!(c, Command::Move { sprint: true, .. })),
            Action::Agile => can(K::AgileMove),
            Action::Breath => can(K::CatchBreath),
            Action::Jump => can(K::Jump),
            Action::Charge => legal
                .iter()
                .any(|c| matches!(c, Command::Charge { shove: false, .. })),
            Action::ChargeShove => legal
                .iter()
                .any(|c| matches!(c, Command::Charge { shove: true, .. })),
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
            Action::Trip | Action::Disarm | Action::Shove | Action::Grapple => legal.iter().any(
                |c| matches!(c, Command::Maneuver { kind, .. } if Some(*kind) == a.maneuver()),
            ),
            Action::Sustain => can(K::Sustain),
            Action::Release => can(K::Release),
            Action::Escape => can(K::Escape),
            Action::ForceDown => can(K::ForceDown),
            Action::Crush => can(K::Crush),
            Action::Drag => can(K::Drag),
            Action::Ride => can(K::Mount) || can(K::Dismount),
            Action::Kick => legal.iter().any(
                |c| matches!(c, Command::Attack { unit, .. } if Some(unit) != acting.as_ref()),
            ),
        })
        .collect()
}

impl Default for AimedPart {
    /// The torso: the rules' own default (V3).
    fn default() -> Self {
        AimedPart(BodyPart::Torso)
    }
}
