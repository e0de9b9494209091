//! Live reload: a level open in the window follows its files. Saving the
//! level, a catalog file or an AI profile restarts the battle from them at
//! round 1; an edit that does not load leaves the battle as it was and
//! lists every problem (as `file:line:col: message`) until the files are
//! fixed.
//!
//! Headless: the window draws what this plugin does (see
//! `view::live`), and the tests drive it with `App::update`.
//!
//! The files are polled (their modification time and size, four times a
//! second) rather than watched through Bevy's `file_watcher`: a level may
//! live anywhere on disk, not under one asset source; it depends on catalog
//! and profile files that its loader cannot see; editors that save by
//! renaming a new file over the old one are seen like any other; and the
//! same code runs in tests with no watcher thread. A few `stat` calls every
//! quarter second cost nothing beside a frame.

use crate::ai::{PROFILE_DIR, Players, Profiles};
use crate::dice::Dice;
use crate::load::{
    CATALOG_DIR, Problems, ValidLevel, catalog_at, parse_level, read_file, ron_files,
};
use crate::rules::turns::turn::begin_battle;
use crate::setup::{clear_battle, spawn_battle};
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often the files are looked at: a save shows within this plus one
/// reload (a few milliseconds), well inside a second.
pub const POLL: Duration = Duration::from_millis(250);

/// The files the open level is read from, and how its battle starts.
#[derive(Resource, Clone, Debug)]
pub struct LiveLevel {
    /// The level file.
    pub level: PathBuf,
    /// The catalog folder given on the command line (`None`: the standard
    /// catalog, `assets/catalog` when it is there).
    pub catalog: Option<PathBuf>,
    /// The folder of AI profiles over the shipped ones.
    pub profiles: PathBuf,
    /// The seed given on the command line (`None`: the level's, else 1).
    pub seed: Option<u64>,
    /// Every side played by the AI (`--watch`).
    pub watch: bool,
    /// Sides given to the AI (`true`) or a human (`false`) on the command
    /// line.
    pub overrides: Vec<(usize, bool)>,
    /// The profile every plain `Ai` side plays (`play --difficulty`).
    pub difficulty: Option<String>,
    /// Time between looks at the files.
    pub every: Duration,
}

impl LiveLevel {
    /// The level at `level`, with the standard catalog and profiles.
    pub fn new(level: impl Into<PathBuf>) -> Self {
        Self {
            level: level.into(),
            catalog: None,
            profiles: PathBuf::from(PROFILE_DIR),
            seed: None,
            watch: false,
            overrides: vec![],
            difficulty: None,
            every: POLL,
        }
    }

    /// Every file the level is read from: the level, the catalog's and the
    /// profiles' `*.ron` files (new ones count as they appear).
    pub fn files(&self) -> Vec<PathBuf> {
        let catalog = self
            .catalog
            .clone()
            .unwrap_or_else(|| PathBuf::from(CATALOG_DIR));
        let mut files = vec![self.level.clone()];
        for dir in [&catalog, &self.profiles] {
            files.extend(ron_files(dir));
        }
        files
    }

    /// Reads the files again: the level, resolved against the catalog, and
    /// the players with the profiles. Every problem of every file.
    pub fn load(&self) -> Result<(ValidLevel, Players), Problems> {
        let catalog = catalog_at(self.catalog.as_deref());
        let profiles = Profiles::load(&self.profiles);
        let (catalog, profiles) = match (catalog, profiles) {
            (Ok(c), Ok(p)) => (c, p),
            (c, p) => {
                let mut problems = c.err().unwrap_or_default();
                problems.0.extend(p.err().unwrap_or_default().0);
                return Err(problems);
            }
        };
        // Read once: what is parsed is what the profile names are located in.
        let file = self.level.display().to_string();
        let bytes = read_file(&self.level)?;
        let level = parse_level(&bytes, &file, &catalog)?;
        // A side's unknown profile, as `check` reports it.
        let unknown = profiles.check_level(&level.source, &String::from_utf8_lossy(&bytes), &file);
        if !unknown.is_empty() {
            return Err(Problems(unknown));
        }
        let profiles = profiles
            .with_default(self.difficulty.as_deref())
            .map_err(|message| {
                Problems(vec![crate::load::Diagnostic {
                    file: file.clone(),
                    at: None,
                    message,
                }])
            })?;
        let players = Players::chosen(&level, &profiles, self.watch, &self.overrides);
        Ok((level, players))
    }
}

/// What the last look at the files found wrong: shown in the window until
/// an edit loads. Empty when all is well.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ReloadProblems(pub Problems);

/// The battle was restarted from edited files.
#[derive(Message, Clone, Debug)]
pub struct LevelReloaded {
    /// The file whose save was seen.
    pub file: PathBuf,
    /// The seed of the new battle's dice.
    pub seed: u64,
    /// From that save (the file's modification time) to the battle in
    /// place.
    pub after_save: Option<Duration>,
}

/// A file's modification time and size (`None`: missing).
type Stamp = Option<(SystemTime, u64)>;

/// The files as last seen.
#[derive(Resource, Debug, Default)]
struct Seen {
    stamps: BTreeMap<PathBuf, Stamp>,
    since: Duration,
}

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// Follows the files of the [`LiveLevel`] resource, if there is one.
pub struct LiveReloadPlugin;

impl Plugin for LiveReloadPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ReloadProblems>()
            .init_resource::<Seen>()
            .add_message::<LevelReloaded>()
            .add_systems(First, follow_files.run_if(resource_exists::<LiveLevel>));
    }
}

/// Looks at the files every [`LiveLevel::every`]; when any changed since
/// the last look, reloads.
fn follow_files(world: &mut World) {
    let live = world.resource::<LiveLevel>().clone();
    let delta = world.resource::<Time<Real>>().delta();
    let mut seen = world.resource_mut::<Seen>();
    seen.since += delta;
    if seen.since < live.every && !seen.stamps.is_empty() {
        return;
    }
    seen.since = Duration::ZERO;
    let stamps: BTreeMap<PathBuf, Stamp> = live
        .files()
        .into_iter()
        .map(|f| {
            let s = stamp(&f);
            (f, s)
        })
        .collect();
    let first_look = seen.stamps.is_empty();
    let changed = stamps
        .iter()
        .filter(|(f, s)| seen.stamps.get(*f) != Some(*s))
        .max_by_key(|(_, s)| s.map(|(t, _)| t))
        .map(|(f, s)| (f.clone(), *s));
    let removed = seen.stamps.keys().any(|f| !stamps.contains_key(f));
    seen.stamps = stamps;
    if first_look || (changed.is_none() && !removed) {
        return;
    }
    let (file, saved) = changed.unwrap_or_else(|| (live.level.clone(), None));
    match reload(world, &live) {
        Ok(seed) => {
            world.resource_mut::<ReloadProblems>().0 = Problems::default();
            let after_save = saved.and_then(|(t, _)| SystemTime::now().duration_since(t).ok());
            world.write_message(LevelReloaded {
                file,
                seed,
                after_save,
            });
        }
        Err(problems) => world.resource_mut::<ReloadProblems>().0 = problems,
    }
}

/// Restarts the battle from the files of `live` at round 1, or, when they
/// do not load, changes nothing and says why. Gives the seed of the new
/// battle's dice.
pub fn reload(world: &mut World, live: &LiveLevel) -> Result<u64, Problems> {
    let (level, players) = live.load()?;
    let seed = live.seed.or(level.source.seed).unwrap_or(1);
    clear_battle(world);
    spawn_battle(world, &level, Dice::seeded(seed));
    begin_battle(world, None);
    players.install(world);
    Ok(seed)
}
