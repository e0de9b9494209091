//! The window's side of live reload ([`crate::design::reload`]): a level
//! restarted from its edited files is drawn again where the camera is, and
//! an edit that does not load lists its problems over the battle, which
//! stays as it was.

use super::controls::{Aiming, AutoAnswers, AutoGuards, Clicked, Selected};
use super::frame::PlayOptions;
use super::map::Highlights;
use super::overlays::{OverlayMarks, Spotlight};
use super::playback::UnitSprite;
use super::preview::Hover;
use super::terrain_cache::TerrainPart;
use crate::battle::Battlefield;
use crate::design::reload::{LevelReloaded, LiveLevel, ReloadProblems};
use crate::save::Replay;
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::{TileStorage, TilemapId};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_problems_panel).add_systems(
        Update,
        (
            redraw_reloaded_level
                .run_if(on_message::<LevelReloaded>)
                .in_set(super::frame::ViewSystems::Input)
                .before(super::input::track_cursor),
            show_reload_problems
                .run_if(resource_changed::<ReloadProblems>)
                .in_set(super::frame::ViewSystems::Draw),
            open_editor
                .run_if(resource_exists::<LiveLevel>)
                .in_set(super::frame::ViewSystems::Input),
        ),
    );
}

/// F4 opens the level in the editor, in a window of its own: each save
/// there restarts the battle here (live reload).
fn open_editor(keys: Res<ButtonInput<KeyCode>>, live: Res<LiveLevel>, mut hover: ResMut<Hover>) {
    if !keys.just_pressed(KeyCode::F4) {
        return;
    }
    let mut args = vec!["edit".to_string(), live.level.display().to_string()];
    if let Some(catalog) = &live.catalog {
        args.extend(["--catalog".to_string(), catalog.display().to_string()]);
    }
    hover.note = Some(if super::frame::relaunch(&args) {
        format!(
            "editing {} in a new window: each save there shows here",
            live.level.display()
        )
    } else {
        "cannot start the editor".to_string()
    });
}

/// The box listing what keeps an edit from loading.
#[derive(Component)]
struct ProblemsPanel;

fn spawn_problems_panel(mut commands: Commands) {
    commands.spawn((
        ProblemsPanel,
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(15.0),
            ..default()
        },
        TextColor(Color::srgb(1.0, 0.92, 0.9)),
        Node {
            position_type: PositionType::Absolute,
            top: px(84),
            left: px(8),
            // Left of the side panel (the text column at x = 850).
            max_width: px(830),
            padding: UiRect::all(px(10)),
            border: UiRect::all(px(2)),
            display: Display::None,
            ..default()
        },
        BorderColor::all(Color::srgb(0.95, 0.3, 0.25)),
        BackgroundColor(Color::srgb(0.22, 0.04, 0.04)),
        GlobalZIndex(10),
    ));
}

/// The panel's text for `problems`: what happened, then every problem as
/// `file:line:col: message`.
pub fn problems_text(problems: &crate::load::Problems) -> String {
    format!(
        "The edit does not load; the battle on screen is the last good one.\n\
         Fix the file and save: it reloads.\n\n{problems}"
    )
}

fn show_reload_problems(
    problems: Res<ReloadProblems>,
    mut panel: Query<(&mut Text, &mut Node), With<ProblemsPanel>>,
) {
    for (mut text, mut node) in &mut panel {
        if problems.0.0.is_empty() {
            node.display = Display::None;
        } else {
            text.0 = problems_text(&problems.0);
            node.display = Display::Flex;
        }
    }
}

/// Draws the restarted battle: the map and the units anew, the selection,
/// hover and overlays cleared, the log started over. The camera stays.
fn redraw_reloaded_level(world: &mut World, mut cursor: Local<MessageCursor<LevelReloaded>>) {
    let Some(reloaded) = cursor
        .read(world.resource::<Messages<LevelReloaded>>())
        .last()
        .cloned()
    else {
        return;
    };
    redraw_battle(world);
    world.insert_resource(Selected::default());
    world.insert_resource(Aiming::default());
    world.insert_resource(Clicked::default());
    world.insert_resource(AutoAnswers::default());
    world.insert_resource(AutoGuards::default());
    world.insert_resource(Spotlight::default());
    world.resource_mut::<super::turns::Thinking>().0 = None;
    let level = (*world.resource::<Battlefield>().0).clone();
    let mut options = world.resource_mut::<PlayOptions>();
    options.level = level.clone();
    options.seed = reloaded.seed;
    let source = Replay::of(world, reloaded.seed);
    world.insert_resource(super::turns::ReplaySource(source));
    let after = reloaded
        .after_save
        .map(|d| format!(" ({:.2} s after the save)", d.as_secs_f32()))
        .unwrap_or_default();
    let note = format!("reloaded {}{after}", reloaded.file.display());
    info!("{note}");
    let mut hover = Hover::default();
    hover.note = Some(note);
    world.insert_resource(hover);
    let title = format!("Skirmish — {}", level.name());
    if let Ok(mut window) = world
        .query_filtered::<&mut Window, With<PrimaryWindow>>()
        .single_mut(world)
    {
        window.title = title;
    }
}

/// Draws the battle in `world` anew: the map and the units of a battle
/// spawned again (a reloaded level, an edit), the overlays cleared, the
/// shown board and log started over. The camera stays.
pub fn redraw_battle(world: &mut World) {
    let old: Vec<Entity> = world
        .query_filtered::<Entity, Or<(
            With<TileStorage>,
            With<TilemapId>,
            With<UnitSprite>,
            With<TerrainPart>,
            With<super::map::MapQuad>,
            With<super::map::Tree>,
        )>>()
        .iter(world)
        .collect();
    for entity in old {
        world.despawn(entity);
    }
    world.insert_resource(Highlights::default());
    world.insert_resource(OverlayMarks::default());
    let drawn = world
        .run_system_cached(super::map::spawn_battlefield)
        .and_then(|()| world.run_system_cached(super::units::spawn_units));
    if let Err(e) = drawn {
        error!("cannot draw the level: {e}");
    }
    super::playback::restart(world);
}
