//! Helpers shared by the test modules.

use skirmish::format::Catalog;
use skirmish::load::{ValidLevel, load_catalog_dir, load_level_file};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The project root (tests run with it as working directory, but say so).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped catalog, read once.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        load_catalog_dir(&root().join("assets/catalog"))
            .unwrap_or_else(|p| panic!("the shipped catalog must load:\n{p}"))
    })
}

/// A shipped level by file name, checked.
pub fn level(name: &str) -> ValidLevel {
    let path = root().join("levels").join(name);
    load_level_file(&path, catalog()).unwrap_or_else(|p| panic!("{name} must load:\n{p}"))
}

/// `*.ron` files of a folder, sorted.
pub fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// A level by its path from the project root, checked.
pub fn level_at(path: &str) -> ValidLevel {
    load_level_file(&root().join(path), catalog())
        .unwrap_or_else(|p| panic!("{path} must load:\n{p}"))
}

/// A headless app of `level` (dice seeded `seed`) with the window's input
/// systems and these overlays on, every side played at the window: what the
/// view shows and offers, without a renderer.
pub fn window_app(
    level: &ValidLevel,
    seed: u64,
    overlays: impl IntoIterator<Item = skirmish::format::Overlay>,
) -> bevy::prelude::App {
    use bevy::prelude::*;
    let mut app = skirmish::setup::headless_app(level, seed);
    app.init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>();
    skirmish::view::input::input_plugin(&mut app);
    skirmish::ai::Players(vec![None; level.sides().len()]).install(app.world_mut());
    app.insert_resource(skirmish::view::overlays::Overlays(
        overlays.into_iter().collect(),
    ));
    app
}

/// One step of a battle played on as the default AI would: an open
/// question answered with the first legal answer, else the acting unit's
/// command (an end of turn if the rules refuse it). False once the battle
/// is over.
pub fn play_on(world: &mut bevy::prelude::World) -> bool {
    use skirmish::rules::{Command, Decisions, TurnState, legal::legal_commands, submit};
    if world.resource::<TurnState>().outcome.is_some() {
        return false;
    }
    if world.resource::<Decisions>().asked().is_some() {
        let answer = legal_commands(world).remove(0);
        submit(world, answer).unwrap();
        return true;
    }
    let Some(me) = world.resource::<TurnState>().current else {
        return false;
    };
    let command = skirmish::ai::utility::decide(world, me, &skirmish::ai::Weights::default());
    if submit(world, command).is_err() {
        submit(world, Command::EndTurn).unwrap();
    }
    true
}

/// Cases of a property test: `PROPTEST_CASES` from the environment, else
/// `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The shipped AI profiles with the look-ahead's budget cut to 16 commands
/// a decision: the same code, quick enough for tests of many battles in a
/// debug build.
pub fn quick_profiles() -> skirmish::ai::Profiles {
    let mut profiles = skirmish::ai::Profiles::shipped();
    for p in profiles.0.values_mut() {
        if p.kind == skirmish::ai::Kind::Search {
            p.search.budget = 16;
        }
    }
    profiles
}

/// The two ways a save is put back into a running battle: `apply` (the
/// window's F9) and `rewind` (the AI's copy after each try).
pub const PUT_BACK: [(
    &str,
    fn(&skirmish::save::SaveGame, &mut bevy::prelude::World),
); 2] = [
    ("apply", skirmish::save::SaveGame::apply),
    ("rewind", skirmish::save::SaveGame::rewind),
];
