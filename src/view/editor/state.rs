//! What the editor holds: the level being edited, the tool in hand, the
//! field being typed, and what an edit says in the status line.

use crate::design::editor::{Edit, Editor};
use crate::format::{Victory, Zone};
use crate::grid::Pos;
use bevy::prelude::*;

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
    /// Paint this height in metres (V9.1; digits choose it, drag to paint
    /// a stroke).
    Height(u8),
    /// Light tiles (V8.3): 0 the level's light, 1 bright, 2 dim, 3 dark
    /// (digits choose it, drag to paint a stroke).
    Light(u8),
}

/// The light a light tool of `level` paints (V8.3): 0 is the level's.
pub fn light_of(level: u8) -> Option<crate::terrain::Light> {
    use crate::terrain::Light;
    match level {
        1 => Some(Light::Bright),
        2 => Some(Light::Dim),
        3 => Some(Light::Dark),
        _ => None,
    }
}

impl Tool {
    /// The same tool, whatever it holds (a height tool of any metres).
    pub fn same_kind(self, other: Tool) -> bool {
        match (self, other) {
            (Tool::Height(_), Tool::Height(_)) | (Tool::Light(_), Tool::Light(_)) => true,
            (a, b) => a == b,
        }
    }
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
    pub(super) drag: Option<Pos>,
    /// A paint stroke in progress: its tiles are one edit.
    pub(super) stroke: bool,
    /// The field typed into and its text so far.
    pub typing: Option<(Field, String)>,
    /// What the last action did or why it was refused.
    pub status: String,
    /// Bumped at each change of the level: it is drawn again.
    pub(super) version: u64,
    /// Save the window to this PNG once drawn, then exit.
    pub screenshot: Option<std::path::PathBuf>,
    /// The version of the level when closing was refused for its unsaved
    /// edits: closing again with no edit since leaves.
    pub(super) close_warned: Option<u64>,
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
        let continuing = self.stroke
            && matches!(
                edit,
                Edit::Paint { .. } | Edit::SetHeight { .. } | Edit::SetLight { .. }
            );
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
        self.editor
            .level
            .full_legend()
            .into_iter()
            .map(|(c, t)| (c, t.name))
            .collect()
    }
}

pub(super) fn describe(edit: &Edit) -> String {
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
        Edit::SetHeight { at, metres } => format!("{at} raised to {metres} m (V9.1)"),
        Edit::SetLight { at, light } => match light {
            Some(l) => format!("{at} lit {} (V8.3)", format!("{l:?}").to_lowercase()),
            None => format!("{at} in the level's light (V8.3)"),
        },
    }
}

pub(super) fn victory_text(victory: &[Victory]) -> String {
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
