//! The combat log panel: the log's lines as the playback has shown them,
//! newest at the bottom (`L` shows or hides it, `PageUp`/`PageDown`/`End`
//! scroll); a line cites its event's rule, and a click spotlights the
//! event on the map.

use super::frame::ViewSystems;
use super::playback::Shown;
use super::theme::screen_text;
use super::theme::text;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogOpen>().add_systems(
        Update,
        (
            spotlight_log_line.in_set(ViewSystems::Input),
            show_log.in_set(ViewSystems::Draw),
        ),
    );
}

/// The combat log panel: open (`L` toggles it), and how many lines back
/// from the newest it is scrolled (`PageUp`, `PageDown`, `End`).
#[derive(Resource, Clone, Copy, Debug)]
pub struct LogOpen(pub bool, pub usize);

impl Default for LogOpen {
    fn default() -> Self {
        Self(true, 0)
    }
}

/// A line of the combat log, with the index of its event: hovering it
/// shows the event's rule, clicking it spotlights the event on the map.
#[derive(Component, Clone, Copy, Debug)]
pub struct LogLine(pub usize);

#[derive(Component)]
pub struct LogPanel;

/// Lines of the log a page scrolls by half of.
const LOG_LINES: usize = 30;

/// Which line of the log a log node shows.
#[derive(Component)]
pub struct LogRow(usize);

#[allow(clippy::too_many_arguments)]
fn show_log(
    shown: Option<Res<Shown>>,
    keys: Res<ButtonInput<KeyCode>>,
    events: Res<crate::rules::events::BattleEvents>,
    mut open: ResMut<LogOpen>,
    mut panel: Query<(Entity, &mut Visibility), With<LogPanel>>,
    rows: Query<(Entity, &LogRow, &Text)>,
    children: Query<&Children>,
    mut commands: Commands,
) {
    let Ok((panel, mut visible)) = panel.single_mut() else {
        return;
    };
    if keys.just_pressed(KeyCode::KeyL) {
        open.0 = !open.0;
        *visible = if open.0 {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
    let Some(shown) = shown else { return };
    let len = shown.log.len();
    let scrolled = if keys.just_pressed(KeyCode::PageUp) {
        open.1 = (open.1 + LOG_LINES / 2).min(len.saturating_sub(LOG_LINES));
        true
    } else if keys.just_pressed(KeyCode::PageDown) {
        open.1 = open.1.saturating_sub(LOG_LINES / 2);
        true
    } else if keys.just_pressed(KeyCode::End) {
        open.1 = 0;
        true
    } else {
        false
    };
    if !shown.is_changed() && !scrolled {
        return;
    }
    let to = len.saturating_sub(open.1);
    let from = to.saturating_sub(LOG_LINES);
    let line_node = |commands: &mut Commands, i: usize| {
        let event = shown.log_events.get(i).copied().unwrap_or(0);
        let mut line = commands.spawn((
            LogLine(event),
            LogRow(i),
            Interaction::default(),
            Text::new(screen_text(&shown.log[i])),
            text(11.0, Color::srgb(0.85, 0.87, 0.9)),
        ));
        if let Some(rule) = events
            .all()
            .get(event)
            .and_then(|e| e.rules().first().copied())
        {
            line.insert(super::theme::Cites(rule));
        }
        line.id()
    };
    // Following the newest lines, the lines still shown keep their nodes
    // (and their laid-out text): only the new ones are added and the
    // oldest dropped. Laying out every line again on each event cost 3 ms
    // a frame while the AI played (measured with llvmpipe).
    let present = children.get(panel).map_or(&[][..], |c| &c[..]);
    let kept: Vec<(Entity, usize)> = present
        .iter()
        .filter_map(|e| rows.get(*e).ok())
        .filter(|(_, row, text)| {
            shown.log.get(row.0).map(|l| screen_text(l)) == Some(text.0.clone())
        })
        .map(|(e, row, _)| (e, row.0))
        .collect();
    let newest = kept.iter().map(|(_, i)| *i).max();
    if open.1 == 0
        && !scrolled
        && kept.len() == present.len()
        && let Some(newest) = newest
    {
        let old: Vec<Entity> = kept
            .iter()
            .filter(|(_, i)| *i < from)
            .map(|(e, _)| *e)
            .collect();
        // The panel stacks its children from the bottom up: the new lines
        // go first, newest first.
        let new: Vec<Entity> = ((newest + 1).max(from)..to)
            .rev()
            .map(|i| line_node(&mut commands, i))
            .collect();
        for e in old {
            commands.entity(e).despawn();
        }
        commands.entity(panel).insert_children(0, &new);
        return;
    }
    // A line per node, newest first.
    let mut lines = Vec::new();
    if open.1 > 0 {
        lines.push(
            commands
                .spawn((
                    Text::new(format!("({} newer lines: PageDown, End)", open.1)),
                    text(11.0, Color::srgb(1.0, 0.9, 0.5)),
                ))
                .id(),
        );
    }
    for i in (from..to).rev() {
        lines.push(line_node(&mut commands, i));
    }
    commands.entity(panel).despawn_children();
    commands.entity(panel).add_children(&lines);
}

/// A click on a log line spotlights its event on the map (a second click,
/// or `Escape`, clears it).
fn spotlight_log_line(
    lines: Query<(&Interaction, &LogLine), Changed<Interaction>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut spotlight: ResMut<super::overlays::Spotlight>,
) {
    if keys.just_pressed(KeyCode::Escape) && spotlight.0.is_some() {
        spotlight.0 = None;
    }
    for (i, line) in &lines {
        if *i == Interaction::Pressed {
            spotlight.0 = if spotlight.0 == Some(line.0) {
                None
            } else {
                Some(line.0)
            };
        }
    }
}
