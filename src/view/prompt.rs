//! The prompt over the map: a reaction question to a human (R8, V2), with
//! the odds of each answer from the rules' preview; at the end of the
//! battle, the summary and the buttons to play again or leave.

use super::frame::ViewSystems;
use super::playback::Playback;
use super::seat::human_asked;
use super::theme::screen_text;
use crate::battle::Side;
use crate::battle::Tally;
use crate::battle::name_of;
use crate::battle::units;
use crate::format::Guard;
use crate::rules::Decisions;
use crate::rules::Outcome;
use crate::rules::TurnState;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            leave_battle.in_set(ViewSystems::Input),
            show_prompt.in_set(ViewSystems::Draw),
        ),
    );
}

#[derive(Component)]
pub struct Prompt;

/// The end screen's buttons: what each does.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
pub enum EndButton {
    Again,
    Menu,
}

#[derive(Component)]
pub struct EndButtons;

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
    let odds = crate::rules::variants::held_attack_odds(world, asked);
    let (_, unanswered) = odds.iter().find(|(g, _)| *g == Guard::None)?;
    let hit = unanswered.hit;
    let attacker = world
        .resource::<TurnState>()
        .current
        .map(|c| name_of(world, c))
        .unwrap_or_default();
    let defender = name_of(world, asked);
    if crate::rules::variants::die_ranks::on(world) {
        return Some(rank_question(world, asked, &attacker, &defender, &odds));
    }
    let lines: Vec<String> = odds
        .iter()
        .map(|(g, p)| {
            let key = key_of(*g);
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

/// The key that gives `guard` as an answer (B, P, D, N).
fn key_of(guard: Guard) -> &'static str {
    super::controls::GUARD_KEYS
        .iter()
        .find(|k| k.1 == guard)
        .map_or("?", |k| k.2)
}

/// Under die ranks (V6.5), the question to a human defender: its passive
/// DEF or an active defence, each with its dice, the chance of a hit and
/// the harm expected, and the AP the defence will cost (V6.6).
fn rank_question(
    world: &World,
    asked: Entity,
    attacker: &str,
    defender: &str,
    odds: &[(Guard, crate::rules::attacks::preview::AttackPreview)],
) -> String {
    let owed = crate::rules::variants::die_ranks::owed(world, asked);
    let lines: Vec<String> = odds
        .iter()
        .map(|(g, p)| {
            let key = key_of(*g);
            let dice = p.contest.as_ref().map_or(String::new(), |c| {
                format!(
                    "{} d{} x{}",
                    c.defence.label,
                    c.defence.sides,
                    c.defence.count()
                )
            });
            let (name, cost) = match g {
                Guard::None => ("passive DEF".to_string(), "free".to_string()),
                g => (g.label().to_string(), "1 AP of its next turn".to_string()),
            };
            format!(
                "{key} {name} ({dice}, {cost}): {:.0}% hit, {:.1} HP expected",
                p.hit * 100.0,
                p.harm()
            )
        })
        .collect();
    format!(
        "{attacker} attacks {defender}. How does {defender} meet it? (die ranks, V6.5; \
         owes {owed} of 3, V6.6)\n{}\nShift+key: answer so all battle (asked again when a \
         unit cannot)",
        lines.join("\n")
    )
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
    if super::frame::relaunch(&args) {
        exit.write(AppExit::Success);
    }
}
