//! The `skirmish` command line.

use clap::{Parser, Subcommand};
use skirmish::format::Catalog;
use skirmish::load::{
    self, CATALOG_DIR, Diagnostic, FileKind, Problems, load_catalog_dir, parse_catalog, parse_level,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Skirmish: a rules-faithful turn-based tactical grid game.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check level and catalog files: prints `ok` or every problem per file,
    /// exits non-zero if any file has a problem.
    Check {
        /// Files to check (levels `Level(...)` or catalogs `Catalog(...)`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The catalog levels are checked against.
        #[arg(long, default_value = CATALOG_DIR)]
        catalog: PathBuf,
    },
    /// Run scenario files (scripted dice, commands, expectations): one line
    /// per scenario, then `N passed, M failed`; exits non-zero if any failed.
    Verify {
        /// Scenario files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the combat log of failing scenarios.
        #[arg(long)]
        log: bool,
    },
    /// Play a replay file (a level, a seed and the accepted commands) and
    /// print its combat log and result.
    Replay {
        /// The replay file (`Replay(...)` RON).
        file: PathBuf,
        /// The catalog the level is resolved against.
        #[arg(long, default_value = CATALOG_DIR)]
        catalog: PathBuf,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Check { files, catalog } => check(&files, &catalog),
        Command::Verify { files, log } => verify(&files, log),
        Command::Replay { file, catalog } => replay(&file, &catalog),
    }
}

/// `skirmish replay`: plays a recorded battle again.
fn replay(file: &Path, catalog_dir: &Path) -> ExitCode {
    let name = file.display().to_string();
    let result = std::fs::read(file)
        .map_err(|e| format!("{name}: cannot read: {e}"))
        .and_then(|bytes| {
            load::parse_file::<skirmish::save::Replay>(&bytes, &name, "Replay")
                .map_err(|p| p.to_string())
        })
        .and_then(|r| {
            let catalog = load_catalog_dir(catalog_dir).map_err(|p| p.to_string())?;
            r.run(&catalog)
                .map_err(|e| format!("{}: {e}", file.display()))
        });
    match result {
        Ok(app) => {
            let world = app.world();
            print!("{}", world.resource::<skirmish::rules::CombatLog>().text());
            let turn = world.resource::<skirmish::rules::TurnState>();
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

/// `skirmish verify`: runs each scenario and reports.
fn verify(files: &[PathBuf], show_log: bool) -> ExitCode {
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        match skirmish::scenario::run_file(path) {
            Ok(v) if v.passed() => {
                passed += 1;
                println!("ok    {}: {}", path.display(), v.name);
            }
            Ok(v) => {
                failed += 1;
                println!("FAIL  {}: {}", path.display(), v.name);
                for f in &v.failures {
                    println!("      {f}");
                }
                if show_log {
                    for line in v.log.lines() {
                        println!("      | {line}");
                    }
                }
            }
            Err(problems) => {
                failed += 1;
                println!("FAIL  {}", path.display());
                for d in &problems.0 {
                    println!("      {d}");
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `skirmish check`: one verdict per file.
fn check(files: &[PathBuf], catalog_dir: &Path) -> ExitCode {
    let catalog = load_catalog_dir(catalog_dir);
    let mut failed = 0;
    for path in files {
        let result = check_file(path, catalog.as_ref());
        match result {
            Ok(()) => println!("{}: ok", path.display()),
            Err(problems) => {
                failed += 1;
                for d in &problems.0 {
                    println!("{d}");
                }
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} files have problems", files.len());
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn check_file(path: &Path, catalog: Result<&Catalog, &Problems>) -> Result<(), Problems> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        Problems(vec![Diagnostic {
            file: file.clone(),
            at: None,
            message: format!("cannot read: {e}"),
        }])
    })?;
    match load::file_kind(&bytes) {
        FileKind::Catalog => {
            // A catalog file is checked against the rest of the catalog,
            // whose own problems are reported when it is checked itself.
            let empty = Catalog::default();
            parse_catalog(&bytes, &file, catalog.unwrap_or(&empty)).map(drop)
        }
        FileKind::Level => {
            let catalog = catalog.map_err(|p| {
                let mut all = vec![Diagnostic {
                    file: file.clone(),
                    at: None,
                    message: "cannot check a level: the catalog has problems".into(),
                }];
                all.extend(p.0.iter().cloned());
                Problems(all)
            })?;
            parse_level(&bytes, &file, catalog).map(drop)
        }
        FileKind::Scenario => skirmish::scenario::parse(&bytes, &file).map(drop),
    }
}
