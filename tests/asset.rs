//! The game's asset loader reads levels through the same parser.

use bevy::asset::{AssetPlugin, LoadState};
use bevy::prelude::*;
use skirmish::load::{LevelAsset, LevelLoadingPlugin};
use std::time::{Duration, Instant};

fn app(levels_dir: &str) -> App {
    let mut app = App::new();
    app.add_plugins((
        LevelLoadingPlugin {
            levels_dir: levels_dir.into(),
            ..default()
        },
        MinimalPlugins,
        AssetPlugin::default(),
    ));
    app.finish();
    app
}

/// Runs the app until `handle` has loaded or failed (10 s at most).
fn settle(app: &mut App, handle: &Handle<LevelAsset>) -> LoadState {
    let start = Instant::now();
    loop {
        app.update();
        let state = app.world().resource::<AssetServer>().load_state(handle);
        if state.is_loaded() || state.is_failed() || start.elapsed() > Duration::from_secs(10) {
            return state;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn loads_a_shipped_level_as_an_asset() {
    let mut app = app("levels");
    let handle: Handle<LevelAsset> = app
        .world()
        .resource::<AssetServer>()
        .load("levels://ford.ron");
    assert!(settle(&mut app, &handle).is_loaded());
    let levels = app.world().resource::<Assets<LevelAsset>>();
    let level = &levels.get(&handle).unwrap().0;
    assert_eq!(level.name(), "Ford");
    assert_eq!(level.units, crate::common::level("ford.ron").units);
}

#[test]
fn a_broken_level_fails_to_load_with_its_problems() {
    let mut app = app("tests/broken");
    let handle: Handle<LevelAsset> = app
        .world()
        .resource::<AssetServer>()
        .load("levels://unknown_template.ron");
    match settle(&mut app, &handle) {
        LoadState::Failed(e) => {
            let text = e.to_string();
            assert!(text.contains("unknown template \"paladin\""), "{text}");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

/// The rules texts the game ships (`assets/rules/RULES.md`, shown when a
/// rule id is hovered, and `assets/rules/VARIANTS.md`, where a sub-rule id
/// such as V7.4 opens) are the references beside the project, word for
/// word.
#[test]
fn the_shipped_rules_texts_are_the_references() {
    use skirmish::rules::rulebook::{REFERENCE, VARIANTS};
    for (file, shipped) in [("RULES.md", REFERENCE), ("VARIANTS.md", VARIANTS)] {
        let reference = crate::common::root().join("../shared").join(file);
        let Ok(reference) = std::fs::read_to_string(&reference) else {
            eprintln!("../shared/{file} is not beside the project: nothing to compare");
            continue;
        };
        assert!(
            shipped == reference,
            "assets/rules/{file} differs from ../shared/{file}: copy it again"
        );
    }
}
