//! The guided rules tour (`skirmish tour`): one short demo per rule area,
//! each a scenario of `levels/demo/` whose `tour` captions say what to
//! watch. The demo's commands play one step at a time with its scripted
//! dice (`→` or `N` next, `←` or `B` back, `P` plays on by itself); after
//! the last one the player takes over the battle. `]`/`[` open the next or
//! previous demo.
//!
//! Stepping back restores the battle saved before that step, so the same
//! dice fall again. While the script plays, neither clicks nor the AI act.

use super::controls::Action;

use super::frame::PlayOptions;
use super::overlays::Overlays;
use super::seat::{Guided, Script};
use crate::ai::Players;
use crate::dice::Dice;
use crate::format::Caption;
use crate::rules::submit;
use crate::save::SaveGame;
use crate::scenario::Scenario;
use bevy::prelude::*;
use std::path::PathBuf;

/// A demo of the tour, as the window plays it.
#[derive(Resource, Clone, Debug)]
pub struct Tour {
    /// Every demo's file, in order.
    pub demos: Vec<PathBuf>,
    /// Which of them is open.
    pub index: usize,
    /// The open demo.
    pub scenario: Scenario,
    /// The players once the script is done.
    pub players: Players,
    /// The next command to play.
    pub next: usize,
    /// The battle before each command played, to step back to.
    saves: Vec<SaveGame>,
    /// Playing on by itself (`P`).
    pub auto: bool,
    /// Seconds until the next step when playing on by itself.
    wait: f32,
}

impl Tour {
    /// A tour of `demos` at demo `index`, its script at step 0.
    pub fn new(demos: Vec<PathBuf>, index: usize, scenario: Scenario, players: Players) -> Self {
        Tour {
            demos,
            index,
            scenario,
            players,
            next: 0,
            saves: vec![],
            auto: false,
            wait: 0.0,
        }
    }

    /// The script is played: the player has the battle.
    pub fn handed_over(&self) -> bool {
        self.next >= self.scenario.commands.len()
    }

    /// The caption to show now: the last one at or before the next step.
    pub fn caption(&self) -> Option<&Caption> {
        self.scenario
            .tour
            .iter()
            .filter(|c| c.before <= self.next)
            .max_by_key(|c| c.before)
    }
}

/// The tour's systems, for a window app.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_caption).add_systems(
        Update,
        (
            step_tour.in_set(super::frame::ViewSystems::Act),
            (show_caption, hide_the_tooltip_under_the_caption)
                .chain()
                .in_set(super::frame::ViewSystems::Draw),
        ),
    );
}

/// The caption says what an aimed action does: the action bar's tooltip,
/// drawn in the same place, would only peek out around its edges.
fn hide_the_tooltip_under_the_caption(
    caption: Query<&Text, With<CaptionText>>,
    mut tip: Query<&mut Visibility, With<super::action_bar::Tooltip>>,
) {
    let shown = caption.iter().any(|t| !t.0.is_empty());
    for mut v in &mut tip {
        let want = if shown {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        v.set_if_neq(want);
    }
}

/// Seconds between steps when the tour plays on by itself.
const AUTO_STEP: f32 = 2.5;

/// Steps the demo forward or back, opens another, hands over at the end.
fn step_tour(world: &mut World) {
    let Some(tour) = world.get_resource::<Tour>() else {
        return;
    };
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let pressed = |k: &[KeyCode]| k.iter().any(|k| keys.just_pressed(*k));
    let forward = pressed(&[KeyCode::ArrowRight, KeyCode::KeyN]);
    let back = pressed(&[KeyCode::ArrowLeft, KeyCode::KeyB]);
    let toggle_auto = pressed(&[KeyCode::KeyP]);
    let next_demo = pressed(&[KeyCode::BracketRight]);
    let previous_demo = pressed(&[KeyCode::BracketLeft]);
    let (handed_over, index, count) = (tour.handed_over(), tour.index, tour.demos.len());
    if next_demo && index + 1 < count {
        open_demo(index + 1, world);
        return;
    }
    if previous_demo && index > 0 {
        open_demo(index - 1, world);
        return;
    }
    let dt = world.resource::<Time>().delta_secs();
    let idle = world
        .get_resource::<super::playback::Playback>()
        .is_none_or(super::playback::Playback::idle);
    let mut tour = world.resource_mut::<Tour>();
    if toggle_auto {
        tour.auto = !tour.auto;
        tour.wait = 0.0;
    }
    let auto_step = tour.auto && idle && !handed_over && {
        tour.wait += dt;
        tour.wait >= AUTO_STEP
    };
    if back && tour.next > 0 && !tour.saves.is_empty() {
        tour.next -= 1;
        let save = tour.saves.pop().expect("a save per step played");
        save.apply(world);
        // Back in the script: it plays the battle again.
        world.insert_resource(Script::default());
        world.insert_resource(Guided);
        super::playback::restart(world);
        apply_caption(world);
        return;
    }
    if (forward || auto_step) && !handed_over && idle {
        step_forward(world);
    }
}

/// Plays the demo's next command (saving the battle before it); after the
/// last, hands the battle to its players with fresh dice.
pub fn step_forward(world: &mut World) {
    let save = SaveGame::capture(world);
    let mut tour = world.resource_mut::<Tour>();
    let Some(command) = tour.scenario.commands.get(tour.next).cloned() else {
        return;
    };
    tour.saves.push(save);
    tour.next += 1;
    tour.wait = 0.0;
    if let Err(r) = submit(world, command.clone()) {
        // A demo may show a refusal on purpose (its `Rejected`
        // expectation); the log and the hover panel say why.
        world.resource_mut::<super::preview::Hover>().refusal = Some(r);
    }
    if world.resource::<Tour>().handed_over() {
        hand_over(world);
    }
    apply_caption(world);
}

/// The script is done: the level's players take over, with seeded dice.
fn hand_over(world: &mut World) {
    world.remove_resource::<Script>();
    world.remove_resource::<Guided>();
    let seed = world.get_resource::<PlayOptions>().map_or(1, |o| o.seed);
    world.insert_resource(Dice::seeded(seed));
    let players = world.resource::<Tour>().players.clone();
    players.install(world);
}

/// Shows the current caption's overlays and points at its tile.
pub fn apply_caption(world: &mut World) {
    let Some(caption) = world.resource::<Tour>().caption().cloned() else {
        return;
    };
    // No overlays named keep the ones shown; none switches every one off.
    if let Some(overlays) = &caption.overlays {
        world.insert_resource(Overlays(overlays.iter().copied().collect()));
    }
    if let Some(mut options) = world.get_resource_mut::<PlayOptions>() {
        options.hover = caption.hover;
    }
    let aim = caption.aim.map(Action::aimed_by);
    world.insert_resource(super::controls::Aiming(aim));
    world.insert_resource(super::spell_armed::ArmedSpell(caption.spell.clone()));
    // The preview aims where the script's next attack aims (V3), so the
    // odds shown are the ones it is about to roll.
    let tour = world.resource::<Tour>();
    if let Some(crate::rules::command::Command::Attack { part, .. }) =
        tour.scenario.commands.get(tour.next)
    {
        let part = part.unwrap_or(crate::format::BodyPart::Torso);
        world.insert_resource(super::controls::AimedPart(part));
    }
}

/// Opens demo `index` in a new window of the game (the battlefield is
/// built at start), closing this one.
fn open_demo(index: usize, world: &mut World) {
    let mut args = vec!["tour".to_string(), "--demo".into(), (index + 1).to_string()];
    if let Some(dir) = world
        .resource::<Tour>()
        .demos
        .first()
        .and_then(|d| d.parent())
    {
        args.extend(["--dir".into(), dir.display().to_string()]);
    }
    if super::frame::relaunch(&args) {
        world.write_message(AppExit::Success);
    }
}

/// The caption box, over the top of the map.
#[derive(Component)]
struct CaptionText;

fn spawn_caption(mut commands: Commands, tour: Option<Res<Tour>>) {
    if tour.is_none() {
        return;
    }
    commands.spawn((
        CaptionText,
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(15.0),
            ..default()
        },
        TextColor(Color::srgb(1.0, 0.95, 0.75)),
        Node {
            position_type: PositionType::Absolute,
            top: px(84),
            left: px(8),
            max_width: px(820),
            padding: UiRect::all(px(8)),
            border: UiRect::all(px(1)),
            ..default()
        },
        BorderColor::all(Color::srgb(1.0, 0.85, 0.4)),
        BackgroundColor(Color::srgb(0.08, 0.08, 0.12)),
        GlobalZIndex(5),
    ));
}

/// What the caption box says: the demo, the step, the caption, the keys
/// (once the script is done, whether the battle is `over`).
pub fn caption_text(tour: &Tour, over: bool) -> String {
    let total = tour.scenario.commands.len();
    let head = format!(
        "Tour {}/{}: {}  (step {}/{})",
        tour.index + 1,
        tour.demos.len(),
        tour.scenario.name,
        tour.next.min(total),
        total
    );
    let words = tour.caption().map_or("", |c| c.text.as_str());
    let keys = if tour.handed_over() && over {
        "The battle is over.   ]: next demo   [: previous".to_string()
    } else if tour.handed_over() {
        "Your turn: play it out.   ]: next demo   [: previous".to_string()
    } else {
        format!(
            "->/N: next step   <-/B: back   P: {}   ]/[: next/previous demo",
            if tour.auto { "pause" } else { "play" }
        )
    };
    format!("{head}\n{words}\n{keys}")
}

fn show_caption(
    tour: Option<Res<Tour>>,
    turn: Option<Res<crate::rules::turns::turn::TurnState>>,
    mut text: Query<&mut Text, With<CaptionText>>,
) {
    let (Some(tour), Ok(mut text)) = (tour, text.single_mut()) else {
        return;
    };
    let over = turn.is_some_and(|t| t.outcome.is_some());
    let value = super::theme::screen_text(&caption_text(&tour, over));
    if text.0 != value {
        text.0 = value;
    }
}
