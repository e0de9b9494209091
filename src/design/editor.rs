//! The level editor's model: a level, the edits a designer makes to it,
//! undo and redo, and saving. Headless: the editor window
//! (`view::editor`) sends these edits as the game's view sends commands,
//! and the tests send them directly.
//!
//! Every edit keeps the level valid: an edit that `check` would refuse (a
//! wall painted under a unit, a side left with no unit) is refused, changes
//! nothing and says why, as a refused command does in battle. So the level
//! on screen can always be drawn, played and saved. Saving writes the level
//! anew (comments are not kept) and only after the text written has been
//! read back and checked.

use crate::format::Catalog;
use crate::format::{GroundObject, Level, UnitPlacement, Victory, Zone};
use crate::grid::{Dir, Pos};
use crate::load::{Problems, ValidLevel, parse_file, parse_level, validate_level};
use crate::terrain::Terrain;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One change to a level. Units are named by their name, objects by their
/// tile.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Paint the tile with a map symbol (`#`, `.`, a legend symbol…).
    Paint {
        /// The tile.
        at: Pos,
        /// The symbol.
        symbol: char,
    },
    /// Place a new unit; it is named after its template ("Warden 2").
    PlaceUnit {
        /// The tile.
        at: Pos,
        /// The side's name.
        side: String,
        /// The template's name.
        template: String,
        /// Where it looks.
        facing: Dir,
    },
    /// Move a unit to another tile.
    MoveUnit {
        /// The unit.
        unit: String,
        /// The tile.
        to: Pos,
    },
    /// Turn a unit.
    TurnUnit {
        /// The unit.
        unit: String,
        /// Where it looks.
        facing: Dir,
    },
    /// Remove a unit.
    DeleteUnit {
        /// The unit.
        unit: String,
    },
    /// Give a unit another template.
    SetTemplate {
        /// The unit.
        unit: String,
        /// The template's name.
        template: String,
    },
    /// Give a unit to another side.
    SetSide {
        /// The unit.
        unit: String,
        /// The side's name.
        side: String,
    },
    /// Put an object on the ground (R9.5).
    PlaceObject {
        /// The item's name.
        item: String,
        /// The tile.
        at: Pos,
    },
    /// Move the object on a tile to another.
    MoveObject {
        /// Its tile.
        from: Pos,
        /// The new tile.
        to: Pos,
    },
    /// Remove the object on a tile.
    DeleteObject {
        /// Its tile.
        at: Pos,
    },
    /// The level's name.
    SetName(String),
    /// The level's description.
    SetDescription(String),
    /// The victory conditions (R11).
    SetVictory(Vec<Victory>),
    /// The round after which the battle is a draw (R11).
    SetRoundLimit(u32),
    /// Set a tile's height in metres, 0–9 (V9.1). A height above 0 switches
    /// jumping on, without which heights do not count; a level all at 0
    /// drops its `heights` rows.
    SetHeight {
        /// The tile.
        at: Pos,
        /// Its height in metres.
        metres: u8,
    },
    /// Light a tile (V8.3): its terrain as it is, with this light (`None`:
    /// the level's). The tile takes a legend symbol of that terrain and
    /// light, made (named "floor (dark)") when the legend has none.
    SetLight {
        /// The tile.
        at: Pos,
        /// Its light.
        light: Option<crate::terrain::Light>,
    },
}

/// Why an edit was refused; the level is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// A level being edited, with its history.
#[derive(Clone, Debug)]
pub struct Editor {
    /// The file it is read from and saved to.
    pub file: PathBuf,
    /// The level as edited.
    pub level: Level,
    /// The level checked, as the game would play it.
    pub valid: ValidLevel,
    catalog: Catalog,
    undo: Vec<Level>,
    redo: Vec<Level>,
    saved: Level,
}

impl Editor {
    /// Opens the level at `path`, checked against `catalog`.
    pub fn open(path: &Path, catalog: &Catalog) -> Result<Self, Problems> {
        let file = path.display().to_string();
        let bytes = crate::load::read_file(path)?;
        let valid = parse_level(&bytes, &file, catalog)?;
        let level: Level = parse_file(&bytes, &file, "Level")?;
        Ok(Self {
            file: path.to_path_buf(),
            saved: level.clone(),
            level,
            valid,
            catalog: catalog.clone(),
            undo: vec![],
            redo: vec![],
        })
    }

    /// Makes `edit`, or refuses it with the reason when the level would not
    /// be valid after it. Each accepted edit can be undone.
    pub fn apply(&mut self, edit: &Edit) -> Result<(), Refused> {
        self.make(edit, false)
    }

    /// Makes `edit` as part of the last one (a paint stroke): one undo
    /// takes back both.
    pub fn apply_continuing(&mut self, edit: &Edit) -> Result<(), Refused> {
        self.make(edit, !self.undo.is_empty())
    }

    fn make(&mut self, edit: &Edit, continuing: bool) -> Result<(), Refused> {
        let mut level = self.level.clone();
        change(&mut level, edit)?;
        if level == self.level {
            return Ok(());
        }
        let file = self.file.display().to_string();
        let valid = validate_level(level.clone(), &self.catalog, &file).map_err(|problems| {
            let reasons: Vec<String> = problems.0.iter().map(|d| d.message.clone()).collect();
            Refused(reasons.join("; "))
        })?;
        let before = std::mem::replace(&mut self.level, level);
        if !continuing {
            self.undo.push(before);
        }
        self.redo.clear();
        self.valid = valid;
        Ok(())
    }

    /// Takes back the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.step(true)
    }

    /// Makes again the last edit taken back; false when there is none.
    pub fn redo(&mut self) -> bool {
        self.step(false)
    }

    fn step(&mut self, back: bool) -> bool {
        let (from, to) = if back {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let Some(level) = from.pop() else {
            return false;
        };
        to.push(std::mem::replace(&mut self.level, level));
        let file = self.file.display().to_string();
        // Every level in the history was valid when it was made.
        if let Ok(valid) = validate_level(self.level.clone(), &self.catalog, &file) {
            self.valid = valid;
        }
        true
    }

    /// How many edits can be undone and redone.
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Whether there are edits not saved.
    pub fn dirty(&self) -> bool {
        self.level != self.saved
    }

    /// The names of the templates a unit may take: the catalog's and the
    /// level's own.
    pub fn templates(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .valid
            .catalog
            .templates
            .iter()
            .map(|t| t.name.clone())
            .collect();
        names.dedup();
        names
    }

    /// The names of the level's sides, in order.
    pub fn side_names(&self) -> Vec<String> {
        self.level.sides.iter().map(|s| s.name.clone()).collect()
    }

    /// The victory conditions after the current ones in the editor's cycle
    /// (R11): eliminate; then eliminate or `side` holding `zone` for 2
    /// rounds, or reaching it, or surviving half the round limit. Without a
    /// zone, the 2x2 tiles at the map's centre.
    pub fn next_victory(&self, side: &str, zone: Option<Zone>) -> Vec<Victory> {
        let level = &self.level;
        let zone = zone.unwrap_or_else(|| {
            let width = level.map.first().map_or(1, |r| r.chars().count()) as i32;
            let centre = Pos::new(width / 2, level.map.len() as i32 / 2);
            Zone {
                from: Pos::new(centre.x - 1, centre.y - 1),
                to: centre,
            }
        });
        let side = side.to_string();
        let next = match level.victory.as_slice() {
            [Victory::Eliminate] => Some(Victory::HoldZone {
                side,
                zone,
                rounds: 2,
            }),
            [_, Victory::HoldZone { .. }] => Some(Victory::ReachExit {
                side,
                unit: None,
                zone,
            }),
            [_, Victory::ReachExit { .. }] => Some(Victory::SurviveRounds {
                side,
                rounds: (level.round_limit / 2).max(1),
            }),
            _ => None,
        };
        std::iter::once(Victory::Eliminate).chain(next).collect()
    }

    /// The names of the items that can lie on the ground.
    pub fn objects(&self) -> Vec<String> {
        let c = &self.valid.catalog;
        c.items
            .iter()
            .map(|i| i.name.clone())
            .filter(|n| c.is_object(n))
            .collect()
    }

    /// Writes the level to its file, after reading the text back and
    /// checking it: a file that `check` would refuse is never written.
    pub fn save(&mut self) -> Result<(), Problems> {
        let text = level_text(&self.level);
        let file = self.file.display().to_string();
        parse_level(text.as_bytes(), &file, &self.catalog)?;
        let back: Level = parse_file(text.as_bytes(), &file, "Level")?;
        if back != self.level {
            return Err(Problems(vec![crate::load::Diagnostic {
                file,
                at: None,
                message: "the level written does not read back the same; not saved".into(),
            }]));
        }
        std::fs::write(&self.file, text).map_err(|e| {
            Problems(vec![crate::load::Diagnostic {
                file: self.file.display().to_string(),
                at: None,
                message: format!("cannot write: {e}"),
            }])
        })?;
        self.saved = self.level.clone();
        Ok(())
    }
}

/// The legend symbol for the terrain at `at` lit by `light` (V8.3): one
/// of the level's or the default legend's with that terrain and light,
/// else a new one in the level's legend, named after the terrain with the
/// light in brackets ("floor (dark)"), under the first free letter.
fn symbol_lit(
    level: &mut Level,
    at: Pos,
    light: Option<crate::terrain::Light>,
) -> Result<char, Refused> {
    let here = level.map[at.y as usize]
        .chars()
        .nth(at.x as usize)
        .unwrap_or('.');
    let legend = level.full_legend();
    let terrain = legend
        .iter()
        .find(|(c, _)| *c == here)
        .map(|(_, t)| t.clone())
        .ok_or_else(|| Refused(format!("'{here}' at {at} is in no legend")))?;
    let base = terrain.name.split(" (").next().unwrap_or(&terrain.name);
    let wanted = Terrain {
        name: match light {
            Some(l) => format!("{base} ({})", format!("{l:?}").to_lowercase()),
            None => base.to_string(),
        },
        light,
        ..terrain.clone()
    };
    let same = |t: &Terrain| {
        (t.movement, t.line, t.cover, t.conceal, t.light)
            == (
                wanted.movement,
                wanted.line,
                wanted.cover,
                wanted.conceal,
                wanted.light,
            )
            && t.name.split(" (").next() == Some(base)
    };
    if let Some((c, _)) = legend.iter().find(|(_, t)| same(t)) {
        return Ok(*c);
    }
    let free = ('a'..='z')
        .chain('A'..='Z')
        .find(|c| legend.iter().all(|(s, _)| s != c))
        .ok_or_else(|| Refused("the legend has no free letter left".into()))?;
    level.legend.insert(free, wanted);
    Ok(free)
}

/// Applies `edit` to `level`, unchecked but for what the edit names (a
/// unit, a tile on the map).
fn change(level: &mut Level, edit: &Edit) -> Result<(), Refused> {
    let on_map = |level: &Level, at: Pos| {
        let inside = at.y >= 0
            && (at.y as usize) < level.map.len()
            && at.x >= 0
            && (at.x as usize) < level.map[at.y as usize].chars().count();
        if inside {
            Ok(())
        } else {
            Err(Refused(format!("{at} is off the map")))
        }
    };
    let unit = |level: &mut Level, name: &str| -> Result<usize, Refused> {
        level
            .units
            .iter()
            .position(|u| u.name == name)
            .ok_or_else(|| Refused(format!("no unit \"{name}\"")))
    };
    let object = |level: &Level, at: Pos| -> Result<usize, Refused> {
        level
            .ground
            .iter()
            .position(|o| o.at == at)
            .ok_or_else(|| Refused(format!("no object at {at}")))
    };
    match edit {
        Edit::Paint { at, symbol } => {
            on_map(level, *at)?;
            let row = &mut level.map[at.y as usize];
            let mut chars: Vec<char> = row.chars().collect();
            chars[at.x as usize] = *symbol;
            *row = chars.into_iter().collect();
        }
        Edit::SetHeight { at, metres } => {
            on_map(level, *at)?;
            let digit = char::from_digit(u32::from(*metres), 10)
                .ok_or_else(|| Refused(format!("{metres} m: a height is 0 to 9 (V9.1)")))?;
            if level.heights.is_empty() {
                level.heights = level
                    .map
                    .iter()
                    .map(|r| "0".repeat(r.chars().count()))
                    .collect();
            }
            let row = &mut level.heights[at.y as usize];
            let mut chars: Vec<char> = row.chars().collect();
            chars[at.x as usize] = digit;
            *row = chars.into_iter().collect();
            if *metres > 0 {
                level.rules.jumping = true;
            }
            if level.heights.iter().all(|r| r.chars().all(|c| c == '0')) {
                level.heights.clear();
            }
        }
        Edit::SetLight { at, light } => {
            on_map(level, *at)?;
            let symbol = symbol_lit(level, *at, *light)?;
            let row = &mut level.map[at.y as usize];
            let mut chars: Vec<char> = row.chars().collect();
            chars[at.x as usize] = symbol;
            *row = chars.into_iter().collect();
            if light.is_some() {
                level.rules.stealth = true;
            }
        }
        Edit::PlaceUnit {
            at,
            side,
            template,
            facing,
        } => {
            on_map(level, *at)?;
            let name = free_name(level, template);
            level.units.push(UnitPlacement {
                name,
                side: side.clone(),
                template: template.clone(),
                at: *at,
                facing: *facing,
                stats: Default::default(),
                riding: None,
            });
        }
        Edit::MoveUnit { unit: u, to } => {
            on_map(level, *to)?;
            let i = unit(level, u)?;
            level.units[i].at = *to;
            // A rider moved alone gets down; a mount carries its rider
            // (V12.1).
            level.units[i].riding = None;
            for r in level.units.iter_mut() {
                if r.riding.as_deref() == Some(u.as_str()) {
                    r.at = *to;
                }
            }
        }
        Edit::TurnUnit { unit: u, facing } => {
            let i = unit(level, u)?;
            level.units[i].facing = *facing;
        }
        Edit::DeleteUnit { unit: u } => {
            let i = unit(level, u)?;
            level.units.remove(i);
            for r in level.units.iter_mut() {
                if r.riding.as_deref() == Some(u.as_str()) {
                    r.riding = None;
                }
            }
        }
        Edit::SetTemplate { unit: u, template } => {
            let i = unit(level, u)?;
            level.units[i].template = template.clone();
        }
        Edit::SetSide { unit: u, side } => {
            let i = unit(level, u)?;
            level.units[i].side = side.clone();
        }
        Edit::PlaceObject { item, at } => {
            on_map(level, *at)?;
            if level.ground.iter().any(|o| o.at == *at) {
                return Err(Refused(format!("{at} already has an object")));
            }
            level.ground.push(GroundObject {
                item: item.clone(),
                at: *at,
            });
        }
        Edit::MoveObject { from, to } => {
            on_map(level, *to)?;
            let i = object(level, *from)?;
            if from != to && level.ground.iter().any(|o| o.at == *to) {
                return Err(Refused(format!("{to} already has an object")));
            }
            level.ground[i].at = *to;
        }
        Edit::DeleteObject { at } => {
            let i = object(level, *at)?;
            level.ground.remove(i);
        }
        Edit::SetName(name) => level.name = name.clone(),
        Edit::SetDescription(text) => level.description = text.clone(),
        Edit::SetVictory(victory) => level.victory = victory.clone(),
        Edit::SetRoundLimit(limit) => level.round_limit = *limit,
    }
    Ok(())
}

/// A unit name not yet taken, from the template: "Warden", "Warden 2"…
fn free_name(level: &Level, template: &str) -> String {
    let mut base: String = template.to_string();
    if let Some(first) = base.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let taken = |n: &str| level.units.iter().any(|u| u.name == n);
    (1..)
        .map(|i| {
            if i == 1 {
                base.clone()
            } else {
                format!("{base} {i}")
            }
        })
        .find(|n| !taken(n))
        .expect("a free name")
}

/// RON for one value on one line.
fn inline<T: serde::Serialize>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true)
        .new_line("\n");
    ron::Options::default()
        .to_string_pretty(value, config)
        .unwrap_or_default()
}

/// RON for one value over several lines, indented by `indent`.
fn block<T: serde::Serialize>(value: &T, indent: &str) -> String {
    let config = ron::ser::PrettyConfig::new().indentor("    ");
    let text = ron::Options::default()
        .to_string_pretty(value, config)
        .unwrap_or_default();
    text.replace('\n', &format!("\n{indent}"))
}

/// The level as a designer would write it: one map row, unit and object
/// per line, fields at their defaults left out.
pub fn level_text(level: &Level) -> String {
    let mut out = String::from("Level(\n");
    let w = &mut out;
    let _ = writeln!(w, "    name: {},", inline(&level.name));
    if !level.description.is_empty() {
        let _ = writeln!(w, "    description: {},", inline(&level.description));
    }
    if level.rules != Default::default() {
        let _ = writeln!(w, "    rules: {},", inline(&level.rules));
    }
    if !level.legend.is_empty() {
        let _ = writeln!(w, "    legend: {},", block(&level.legend, "    "));
    }
    let _ = writeln!(w, "    map: [");
    for row in &level.map {
        let _ = writeln!(w, "        {},", inline(row));
    }
    let _ = writeln!(w, "    ],");
    // Heights (V9.1) are kept as written: the editor does not paint them yet.
    if !level.heights.is_empty() {
        let _ = writeln!(w, "    heights: [");
        for row in &level.heights {
            let _ = writeln!(w, "        {},", inline(row));
        }
        let _ = writeln!(w, "    ],");
    }
    let _ = writeln!(w, "    sides: [");
    for side in &level.sides {
        let hidden = if side.hidden { ", hidden: true" } else { "" };
        let _ = writeln!(
            w,
            "        (name: {}, control: {}{hidden}),",
            inline(&side.name),
            inline(&side.control)
        );
    }
    let _ = writeln!(w, "    ],");
    let _ = writeln!(w, "    units: [");
    for u in &level.units {
        let _ = write!(
            w,
            "        (name: {}, side: {}, template: {}, at: {}, facing: {}",
            inline(&u.name),
            inline(&u.side),
            inline(&u.template),
            inline(&u.at),
            inline(&u.facing)
        );
        if u.stats != Default::default() {
            let _ = write!(w, ", stats: {}", inline(&u.stats));
        }
        if let Some(mount) = &u.riding {
            let _ = write!(w, ", riding: Some({})", inline(mount));
        }
        let _ = writeln!(w, "),");
    }
    let _ = writeln!(w, "    ],");
    let local = [
        (
            "templates",
            block(&level.templates, "    "),
            level.templates.is_empty(),
        ),
        (
            "weapons",
            block(&level.weapons, "    "),
            level.weapons.is_empty(),
        ),
        ("armor", block(&level.armor, "    "), level.armor.is_empty()),
        (
            "shields",
            block(&level.shields, "    "),
            level.shields.is_empty(),
        ),
        ("items", block(&level.items, "    "), level.items.is_empty()),
    ];
    for (field, text, empty) in local {
        if !empty {
            let _ = writeln!(w, "    {field}: {text},");
        }
    }
    if !level.ground.is_empty() {
        let _ = writeln!(w, "    ground: [");
        for o in &level.ground {
            let _ = writeln!(w, "        {},", inline(o));
        }
        let _ = writeln!(w, "    ],");
    }
    let _ = writeln!(w, "    victory: {},", inline(&level.victory));
    let _ = writeln!(w, "    round_limit: {},", level.round_limit);
    if let Some(seed) = level.seed {
        let _ = writeln!(w, "    seed: {seed},");
    }
    out.push_str(")\n");
    out
}
