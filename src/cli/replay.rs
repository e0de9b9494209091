//! `skirmish replay`: a recorded battle played again, headless (its log)
//! or in the window.

use crate::load;
use crate::load::catalog_at;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

/// Reads a replay file, or says what is wrong with it (with line and
/// column).
pub fn read_replay(file: &Path) -> Result<crate::save::Replay, String> {
    let name = file.display().to_string();
    let bytes = std::fs::read(file).map_err(|e| format!("{name}: cannot read: {e}"))?;
    load::parse_file::<crate::save::Replay>(&bytes, &name, "Replay").map_err(|p| p.to_string())
}

/// `skirmish replay FILE --watch`: the recorded battle, animated in the
/// window.
pub fn watch_replay(
    file: &Path,
    catalog_dir: Option<&Path>,
    speed: f32,
    screenshot: Option<PathBuf>,
    view_as: Option<String>,
) -> ExitCode {
    let name = file.display().to_string();
    let loaded = read_replay(file).and_then(|r| {
        let catalog = catalog_at(catalog_dir).map_err(|p| p.to_string())?;
        let level =
            load::validate_level(r.level.clone(), &catalog, &name).map_err(|p| p.to_string())?;
        Ok((r, level))
    });
    let (replay, level) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let side = view_as.map(|s| {
        level
            .side_index(&s)
            .ok_or_else(|| format!("{name}: no side \"{s}\""))
    });
    let view_as = match side.transpose() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let players = crate::ai::Players(vec![None; level.sides().len()]);
    let seed = replay.seed;
    crate::view::run(
        crate::view::PlayOptions {
            screenshot,
            speed: Some(speed),
            replay: Some(replay),
            view_as,
            ..crate::view::PlayOptions::new(level, seed, players)
        },
        None,
    )
}

/// `skirmish replay`: plays a recorded battle again.
pub fn replay(file: &Path, catalog_dir: Option<&Path>) -> ExitCode {
    let result = read_replay(file).and_then(|r| {
        let catalog = catalog_at(catalog_dir).map_err(|p| p.to_string())?;
        r.run(&catalog)
            .map_err(|e| format!("{}: {e}", file.display()))
    });
    match result {
        Ok(app) => {
            let world = app.world();
            print!("{}", crate::rules::log::CombatLog::of(world).text());
            let turn = world.resource::<crate::rules::turns::turn::TurnState>();
            match &turn.outcome {
                Some(o) => println!("result after round {}: {o:?}", turn.round),
                None => println!("unfinished, round {}", turn.round),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
