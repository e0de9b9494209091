//! The spell bar (V11): for a caster of the player's on its turn, a button
//! per spell it knows (`Shift+1` … `Shift+8`), each with its cast level and
//! MP; hovering one tells the spell and its rule, and the MP of every level
//! it may be cast at. A spell armed, `[` and `]` (or the wheel) choose the
//! level, the map shows its area and each unit's odds there
//! ([`super::spell_aim`]), and a click casts it: the same `Cast` command
//! the AI and scenario files send. A right click or `Esc` puts it down.

use super::controls::CursorTile;
use super::frame::ViewSystems;
use super::preview::Hover;
use super::seat::human_to_act;
pub use super::spell_armed::{ArmedSpell, aim_at, spells_of_actor};
use super::theme::{screen_text, text};
use crate::battle::name_of;
use crate::format::{Keyword, Spell, SpellDamage, SpellEffect, SpellKind, mp_cost};
use crate::rules::command::Command;
use crate::rules::rule::Rule;
use crate::rules::submit;
use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::prelude::*;

/// The row of spell buttons.
#[derive(Component)]
struct SpellBar;

/// The line over the spell bar: the hovered or armed spell told.
#[derive(Component)]
struct SpellTip;

/// A spell's button: its place in the caster's list.
#[derive(Component, Clone, Copy)]
struct SpellButton(usize);

/// The most spells the bar arms by key, with `Shift`: the digits 1 to 8.
const SPELL_KEYS: usize = 8;

/// The input systems of spells that need no window: tests add them.
pub fn spell_input_plugin(app: &mut App) {
    app.init_resource::<ArmedSpell>().add_systems(
        Update,
        (arm_spells, cast_armed_spell)
            .chain()
            .in_set(ViewSystems::Input),
    );
}

pub(super) fn plugin(app: &mut App) {
    spell_input_plugin(app);
    app.add_systems(Startup, spawn_spell_bar).add_systems(
        Update,
        (build_spell_bar, press_spell_buttons, tell_spells)
            .chain()
            .in_set(ViewSystems::Draw),
    );
}

/// `Shift+1` … `Shift+8` (or a button) arm a spell, again puts it down;
/// `[`/`]` and the wheel lower and raise its level within what it may be
/// cast at and the MP left; `Esc` or a right click put it down. A new turn
/// puts it down.
fn arm_spells(world: &mut World) {
    let actor = spells_of_actor(world);
    let clicked = world
        .query::<(&Interaction, &SpellButton)>()
        .iter(world)
        .find(|(i, _)| **i == Interaction::Pressed)
        .map(|(_, b)| b.0);
    let mouse = world.resource::<ButtonInput<MouseButton>>();
    let clicked = clicked.filter(|_| mouse.just_pressed(MouseButton::Left));
    let right = mouse.just_pressed(MouseButton::Right);
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    let pressed = super::controls::DIGIT_KEYS[..SPELL_KEYS]
        .iter()
        .position(|k| shift && keys.just_pressed(*k));
    let cancel = keys.just_pressed(KeyCode::Escape) || right;
    let step = i32::from(keys.just_pressed(KeyCode::BracketRight))
        - i32::from(keys.just_pressed(KeyCode::BracketLeft));
    let wheel = world
        .get_resource::<AccumulatedMouseScroll>()
        .map_or(0.0, |s| s.delta.y);
    let step = if wheel == 0.0 {
        step
    } else {
        wheel.signum() as i32
    };
    let Some((_, spells, mp)) = actor else {
        if world.resource::<ArmedSpell>().0.is_some() {
            world.resource_mut::<ArmedSpell>().0 = None;
        }
        return;
    };
    let mut armed = world.resource::<ArmedSpell>().0.clone();
    // `--spell`: armed once a unit that knows it is to act.
    let asked = world
        .get_resource::<super::frame::PlayOptions>()
        .and_then(|o| o.spell.clone())
        .filter(|(name, _)| spells.iter().any(|s| s.name == *name));
    if let Some(spell) = asked {
        armed = Some(spell);
        world.resource_mut::<super::frame::PlayOptions>().spell = None;
    }
    if let Some(i) = pressed.or(clicked) {
        armed = match (spells.get(i), &armed) {
            (Some(s), Some((name, _))) if *name == s.name => None,
            (Some(s), _) if s.kind != SpellKind::Defense => Some((s.name.clone(), s.level)),
            _ => armed,
        };
    }
    if cancel && armed.is_some() {
        armed = None;
        // The right click that puts the spell down turns nobody.
        world
            .resource_mut::<ButtonInput<MouseButton>>()
            .clear_just_pressed(MouseButton::Right);
    }
    if let Some((name, level)) = &mut armed
        && let Some(s) = spells.iter().find(|s| s.name == *name)
    {
        // The highest level its MP pay for, never below its own.
        let top = (s.level..=s.top())
            .rev()
            .find(|l| mp_cost(*l) <= mp)
            .unwrap_or(s.level);
        *level = (*level + step).clamp(s.level, top);
    }
    if world.resource::<ArmedSpell>().0 != armed {
        world.resource_mut::<ArmedSpell>().0 = armed;
        world.resource_mut::<Hover>().refresh();
    }
}

/// A left click on the map with a spell armed casts it there: at the unit
/// on the tile, else at the tile. The click is spent: it moves and attacks
/// nothing else. A refusal is kept for the screen, the spell stays armed.
fn cast_armed_spell(world: &mut World) {
    let Some((spell, level)) = world.resource::<ArmedSpell>().0.clone() else {
        return;
    };
    let left = world
        .resource::<ButtonInput<MouseButton>>()
        .just_pressed(MouseButton::Left);
    let over_ui = world
        .query::<&Interaction>()
        .iter(world)
        .any(|i| *i != Interaction::None);
    let (Some(me), Some(tile)) = (human_to_act(world), world.resource::<CursorTile>().0) else {
        return;
    };
    if !left || over_ui {
        return;
    }
    world
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear_just_pressed(MouseButton::Left);
    let command = Command::Cast {
        unit: name_of(world, me),
        spell,
        level: Some(level),
        at: aim_at(world, tile),
    };
    match submit(world, command) {
        Ok(()) => world.resource_mut::<ArmedSpell>().0 = None,
        Err(r) => world.resource_mut::<Hover>().refusal = Some(r),
    }
}

/// The spell bar, bottom left over the overlay toggles, with its tip line.
fn spawn_spell_bar(mut commands: Commands) {
    commands.spawn((
        SpellBar,
        Node {
            position_type: PositionType::Absolute,
            bottom: px(30),
            left: px(4),
            column_gap: px(4),
            ..default()
        },
    ));
    commands.spawn((
        SpellTip,
        Text::new(""),
        text(13.0, Color::srgb(0.8, 0.9, 1.0)),
        Node {
            position_type: PositionType::Absolute,
            bottom: px(60),
            left: px(4),
            right: px(super::theme::SIDE_WIDTH + 6.0),
            padding: UiRect::axes(px(4), px(2)),
            ..default()
        },
        // Over the map: a dark backing keeps it readable.
        BackgroundColor(Color::NONE),
    ));
}

/// A spell's button label: its key, name and level (with its MP).
fn label(i: usize, s: &Spell, armed: &Option<(String, i32)>) -> String {
    let level = match armed {
        Some((name, l)) if *name == s.name => *l,
        _ => s.level,
    };
    let react = if s.kind == SpellKind::Defense {
        " (reaction)"
    } else {
        ""
    };
    format!(
        "S-{} {} L{level} {} MP{react}",
        i + 1,
        s.name,
        mp_cost(level)
    )
}

/// Rebuilds the spell bar when the caster, its MP or the armed spell change.
fn build_spell_bar(
    world: &mut World,
    mut shown: Local<Option<(Option<Entity>, i32, Option<(String, i32)>)>>,
) {
    let actor = spells_of_actor(world);
    let armed = world.resource::<ArmedSpell>().0.clone();
    let now = Some((
        actor.as_ref().map(|a| a.0),
        actor.as_ref().map_or(0, |a| a.2),
        armed.clone(),
    ));
    if *shown == now {
        return;
    }
    *shown = now;
    let Some(bar) = world
        .query_filtered::<Entity, With<SpellBar>>()
        .iter(world)
        .next()
    else {
        return;
    };
    world.entity_mut(bar).despawn_children();
    let Some((_, spells, mp)) = actor else {
        return;
    };
    world.entity_mut(bar).with_children(|row| {
        for (i, s) in spells.iter().enumerate() {
            let on = armed.as_ref().is_some_and(|(n, _)| *n == s.name);
            let short = mp_cost(s.level) > mp;
            let color = match (on, short || s.kind == SpellKind::Defense) {
                (true, _) => Color::srgb(0.45, 0.3, 0.7),
                (false, true) => Color::srgb(0.16, 0.16, 0.2),
                (false, false) => Color::srgb(0.25, 0.2, 0.4),
            };
            row.spawn((
                Button,
                SpellButton(i),
                super::theme::Cites(rule_of(s)),
                Node {
                    padding: UiRect::axes(px(8), px(4)),
                    ..default()
                },
                BackgroundColor(color),
            ))
            .with_children(|b| {
                let ink = if short {
                    Color::srgb(0.55, 0.55, 0.6)
                } else {
                    Color::WHITE
                };
                b.spawn((
                    Text::new(screen_text(&label(i, s, &armed))),
                    text(13.0, ink),
                ));
            });
        }
    });
}

/// The rule a spell's kind follows, whose text hovering its button shows.
pub fn rule_of(s: &Spell) -> Rule {
    if s.has(Keyword::Field) || s.has(Keyword::Zone) {
        Rule::V11_6
    } else {
        Rule::V11_3
    }
}

/// Pressed and hovered buttons light up.
fn press_spell_buttons(
    mut buttons: Query<(&Interaction, &mut BackgroundColor), With<SpellButton>>,
) {
    for (i, mut color) in &mut buttons {
        if *i != Interaction::None {
            color.0 = Color::srgb(0.5, 0.4, 0.75);
        }
    }
}

/// The tip line: the hovered spell told, else the armed one with what a
/// click does, else nothing.
fn tell_spells(world: &mut World) {
    let actor = spells_of_actor(world);
    let hovered = world
        .query::<(&Interaction, &SpellButton)>()
        .iter(world)
        .find(|(i, _)| **i != Interaction::None)
        .map(|(_, b)| b.0);
    let armed = world.resource::<ArmedSpell>().0.clone();
    let tip = match (actor, hovered, armed) {
        (Some((_, spells, mp)), Some(i), _) => {
            spells.get(i).map(|s| describe(s, mp)).unwrap_or_default()
        }
        (Some((_, spells, mp)), None, Some((name, level))) => spells
            .iter()
            .find(|s| s.name == name)
            .map(|s| {
                format!(
                    "{} armed at level {level} ({} MP of {mp}): click a target on the map; [ and ] \
                     (or the wheel) change the level; Esc puts it down. {}",
                    s.name,
                    mp_cost(level),
                    describe(s, mp)
                )
            })
            .unwrap_or_default(),
        _ => String::new(),
    };
    let mut tips = world.query_filtered::<(&mut Text, &mut BackgroundColor), With<SpellTip>>();
    if let Ok((mut t, mut back)) = tips.single_mut(world) {
        let tip = screen_text(&tip);
        if t.0 != tip {
            back.0 = if tip.is_empty() {
                Color::NONE
            } else {
                Color::srgba(0.05, 0.04, 0.1, 0.82)
            };
            t.0 = tip;
        }
    }
}

/// A spell in words: how it is resolved, what it does by level, its reach
/// and area, its keywords, and the MP of each level it may be cast at
/// (V11.2), those past `mp` marked.
pub fn describe(s: &Spell, mp: i32) -> String {
    let attr = s.attribute.label();
    let how = match s.kind {
        SpellKind::Projectile => format!("a spell attack, d20 + {attr} against DV (V11.3)"),
        SpellKind::Attack => format!(
            "d20 + {attr} sets the DC; each target saves with d20 + {} (V11.3)",
            s.save.unwrap_or_default().label()
        ),
        SpellKind::Determined => format!(
            "a flat 10 + {attr} sets the DC; each saves with d20 + {} (V11.3)",
            s.save.unwrap_or_default().label()
        ),
        SpellKind::DeterminedPlus => format!(
            "d20 (at least 10) + {attr} sets the DC; each saves with d20 + {} (V11.3)",
            s.save.unwrap_or_default().label()
        ),
        SpellKind::Surecast => "no roll: it takes hold (V11.3)".to_string(),
        SpellKind::Defense => {
            format!("a reaction when hit: d12 + {attr} against the attack's total (V11.3)")
        }
    };
    let mut does = vec![];
    match &s.damage {
        Some(SpellDamage::Level) => does.push("damage = its level".to_string()),
        Some(SpellDamage::Dice(d)) => does.push(format!("{d} damage a level")),
        None => {}
    }
    match &s.effect {
        SpellEffect::Prone => does.push("knocks prone".into()),
        SpellEffect::Grabbed => does.push("holds fast (V7.6)".into()),
        SpellEffect::Heal(d) => does.push(format!("heals {d} a level")),
        SpellEffect::Absorb(d) => does.push(format!("absorbs {d} a level of the hit")),
        SpellEffect::None => {}
    }
    if s.absolute {
        does.push("no armor stands".into());
    }
    let reach = crate::rules::variants::spells::casting::reach_of(s);
    let mut shape = if s.touch {
        "touch".to_string()
    } else {
        format!("reach {reach}")
    };
    if s.radius > 0 {
        shape += &format!(", radius {}", s.radius);
    }
    let keywords: Vec<String> = s.keywords.iter().map(|k| format!("{k:?}")).collect();
    let ladder: Vec<String> = (s.level..=s.top())
        .map(|l| {
            let cost = mp_cost(l);
            if cost > mp {
                format!("L{l} {cost} MP (short)")
            } else {
                format!("L{l} {cost} MP")
            }
        })
        .collect();
    format!(
        "{}: {how}; {}; {shape}{}. {} (V11.2)",
        s.name,
        if does.is_empty() {
            "no damage".to_string()
        } else {
            does.join(", ")
        },
        if keywords.is_empty() {
            String::new()
        } else {
            format!("; {}", keywords.join(", "))
        },
        ladder.join(", ")
    )
}
