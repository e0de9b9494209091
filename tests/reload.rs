//! Live reload (issue 12): the open level follows its files. Driven
//! headless: write a file, run the app's update until the battle changes.

use crate::common::root;
use bevy::prelude::*;
use skirmish::battle::{Battlefield, GridPos, Health};
use skirmish::design::reload::{LevelReloaded, LiveLevel, LiveReloadPlugin, ReloadProblems};
use skirmish::dice::Dice;
use skirmish::grid::Pos;
use skirmish::load::{catalog_at, load_level_file};
use skirmish::rules::turns::turn::begin_battle;
use skirmish::rules::{BattleEvent, BattleEvents, Command, TurnState};
use skirmish::rules::{History, submit};
use skirmish::setup::{BattlePlugin, headless_app, spawn_battle};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The level the tests edit (`tests/levels/reload.ron`).
const LEVEL: &str = include_str!("levels/reload.ron");

/// A scratch folder with the level, a copy of the catalog and a profiles
/// folder.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-reload-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("catalog")).unwrap();
    std::fs::create_dir_all(dir.join("ai")).unwrap();
    for entry in std::fs::read_dir(root().join("assets/catalog")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join("catalog").join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(dir.join("level.ron"), LEVEL).unwrap();
    dir
}

/// A headless app playing the scratch level, following its files.
fn live_app(dir: &Path) -> App {
    let live = LiveLevel {
        catalog: Some(dir.join("catalog")),
        profiles: dir.join("ai"),
        every: Duration::ZERO,
        ..LiveLevel::new(dir.join("level.ron"))
    };
    let (level, players) = live.load().expect("the scratch level loads");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, BattlePlugin, LiveReloadPlugin));
    let world = app.world_mut();
    spawn_battle(world, &level, Dice::seeded(3));
    begin_battle(world, None);
    players.install(world);
    world.insert_resource(live);
    app.update();
    app
}

/// Writes `text` to `path` as an editor would (a new modification time).
fn save(path: &Path, text: &str) {
    // File times can be coarse: wait until the new write is told apart.
    let before = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    loop {
        std::fs::write(path, text).unwrap();
        let after = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        if after != before {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn name(app: &App) -> String {
    app.world().resource::<Battlefield>().0.name().to_string()
}

fn problems(app: &App) -> Vec<String> {
    let p = &app.world().resource::<ReloadProblems>().0;
    p.0.iter().map(|d| d.to_string()).collect()
}

fn unit(app: &mut App, who: &str) -> Entity {
    let world = app.world_mut();
    world
        .query::<(Entity, &Name)>()
        .iter(world)
        .find(|(_, n)| n.as_str() == who)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no unit {who}"))
}

/// Runs the app until `done` or a second has passed (the bound).
fn update_until(app: &mut App, done: impl Fn(&mut App) -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        app.update();
        if done(app) {
            return true;
        }
    }
    false
}

fn turns_started(app: &App) -> usize {
    let events = app.world().resource::<BattleEvents>().all();
    events
        .iter()
        .filter(|e| matches!(e, BattleEvent::TurnStarted { .. }))
        .count()
}

fn reloads(app: &App) -> usize {
    app.world().resource::<Messages<LevelReloaded>>().len()
}

/// A valid edit restarts the battle at round 1 from the new file: the new
/// name, the moved unit, fresh events, the commands played forgotten.
#[test]
fn saving_the_level_restarts_the_battle_from_it() {
    let dir = scratch("valid");
    let mut app = live_app(&dir);
    // Play a little, so the restart has something to undo.
    submit(app.world_mut(), Command::EndTurn).unwrap();
    assert_eq!(app.world().resource::<History>().0.len(), 1);
    assert_eq!(turns_started(&app), 2);
    let edited = LEVEL
        .replace("\"first\"", "\"second\"")
        .replace("at: (1, 1)", "at: (2, 2)");
    save(&dir.join("level.ron"), &edited);
    assert!(
        update_until(&mut app, |a| name(a) == "second"),
        "reloaded within a second"
    );
    assert!(problems(&app).is_empty());
    let ila = unit(&mut app, "Ila");
    assert_eq!(app.world().get::<GridPos>(ila).unwrap().0, Pos::new(2, 2));
    assert_eq!(app.world().resource::<TurnState>().round, 1);
    assert_eq!(turns_started(&app), 1, "the log starts over");
    assert!(
        app.world()
            .get_resource::<History>()
            .is_none_or(|h| h.0.is_empty())
    );
    let units = app
        .world_mut()
        .query::<&skirmish::battle::UnitId>()
        .iter(app.world())
        .count();
    assert_eq!(units, 2, "the old battle's units are gone");
    assert!(reloads(&app) >= 1, "the window is told");
    // The reloaded battle is the one `play` would start from the file
    // (no seed given: 1), event for event.
    let catalog = catalog_at(Some(&dir.join("catalog"))).unwrap();
    let fresh = load_level_file(&dir.join("level.ron"), &catalog).unwrap();
    assert_eq!(app.world().resource::<Battlefield>().0.source, fresh.source);
    let started = headless_app(&fresh, 1);
    assert_eq!(
        app.world().resource::<BattleEvents>().all(),
        started.world().resource::<BattleEvents>().all()
    );
}

/// An edit that does not load keeps the last good battle and lists every
/// problem with its file, line and column; fixing the file clears them.
#[test]
fn a_broken_edit_keeps_the_battle_and_points_at_the_line() {
    let dir = scratch("broken");
    let mut app = live_app(&dir);
    let file = dir.join("level.ron");
    let shown = file.display().to_string();
    // A syntax error: a missing comma after the map, line 8.
    save(
        &file,
        &LEVEL.replacen("    ],\n    sides", "    ]\n    sides", 1),
    );
    assert!(update_until(&mut app, |a| !problems(a).is_empty()));
    let p = problems(&app);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].starts_with(&format!("{shown}:9:")), "{p:?}");
    assert_eq!(name(&app), "first", "the last good level stays");
    // Two checks at once: every problem is listed, each at its line.
    let two = LEVEL
        .replace("template: \"warden\"", "template: \"paladin\"")
        .replace("at: (6, 2)", "at: (0, 0)");
    save(&file, &two);
    assert!(update_until(&mut app, |a| problems(a).len() == 2));
    let p = problems(&app);
    assert!(p[0].starts_with(&format!("{shown}:11:")), "{p:?}");
    assert!(p[0].contains("paladin"), "{p:?}");
    assert!(p[1].starts_with(&format!("{shown}:12:")), "{p:?}");
    assert_eq!(name(&app), "first");
    // A file that vanishes (an editor's rename half done) is a problem too.
    std::fs::remove_file(&file).unwrap();
    assert!(update_until(&mut app, |a| problems(a)
        .iter()
        .any(|p| p.contains("cannot read"))));
    save(&file, &LEVEL.replace("\"first\"", "\"fixed\""));
    assert!(update_until(&mut app, |a| name(a) == "fixed"));
    assert!(problems(&app).is_empty(), "fixed: the problems clear");
}

/// Saving a catalog file reloads the level against it (a template's HP),
/// and a broken AI profile is a problem like a broken level.
#[test]
fn catalog_and_profile_edits_reload_the_level() {
    let dir = scratch("catalog");
    let mut app = live_app(&dir);
    let units = dir.join("catalog/units.ron");
    let text = std::fs::read_to_string(&units).unwrap();
    assert!(text.contains("hp: 15, stamina: 3"), "the warden's line");
    save(
        &units,
        &text.replacen("hp: 15, stamina: 3", "hp: 21, stamina: 3", 1),
    );
    assert!(update_until(&mut app, |a| {
        let ila = unit(a, "Ila");
        a.world().get::<Health>(ila).unwrap().max == 21
    }));
    let profile = dir.join("ai/cautious.ron");
    save(
        &profile,
        "Profile(kind: Utility, weights: (exposure: oops))",
    );
    assert!(update_until(&mut app, |a| problems(a)
        .iter()
        .any(|p| p.starts_with(&format!("{}:1:", profile.display())))));
    save(&profile, "Profile(kind: Utility)");
    assert!(update_until(&mut app, |a| problems(a).is_empty()));
    // A side naming a profile that is no file is reported as `check` does.
    let file = dir.join("level.ron");
    let named = LEVEL.replace(
        "(name: \"Red\", control: Human)",
        "(name: \"Red\", control: Ai(\"careful\"))",
    );
    assert_ne!(named, LEVEL);
    save(&file, &named);
    assert!(update_until(&mut app, |a| problems(a)
        .iter()
        .any(|p| p.contains("unknown AI profile \"careful\""))));
    save(&file, &named.replace("careful", "cautious"));
    assert!(update_until(&mut app, |a| problems(a).is_empty()));
    let players = app.world().resource::<skirmish::ai::Players>();
    assert_eq!(players.of(1).map(|p| p.name.as_str()), Some("cautious"));
}
