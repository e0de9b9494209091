//! The `skirmish` command line: a module per subcommand; `main.rs` only
//! calls [`main`].

mod args;
mod check;
mod design;
mod lint;
mod replay;
mod sim;
mod verify;
mod window;

use args::{Cli, Command};
use check::check;
use clap::Parser;
use design::{new_level, render};
use lint::lint;
use replay::{replay, watch_replay};
use sim::sim;
use std::process::ExitCode;
use verify::verify;
use window::{edit, menu, play, tour};

/// Runs the command line: parses the arguments and runs the subcommand
/// (without one, the level menu).
pub fn main() -> ExitCode {
    let Some(command) = Cli::parse().command else {
        return menu();
    };
    match command {
        Command::Check {
            files,
            catalog,
            lint,
        } => check(&files, catalog.as_deref(), lint),
        Command::Lint {
            files,
            balance,
            seed,
            catalog,
        } => lint(&files, catalog.as_deref(), balance, seed),
        Command::Render {
            level,
            output,
            reach,
            threat,
            tile,
            catalog,
        } => render(
            &level,
            &output,
            catalog.as_deref(),
            crate::design::render::RenderOptions {
                reach,
                threat,
                tile_px: tile,
            },
        ),
        Command::New { name, size, output } => new_level(&name, size, output),
        Command::Edit {
            level,
            catalog,
            screenshot,
        } => edit(&level, catalog.as_deref(), screenshot),
        Command::Verify { files, log } => verify(&files, log),
        Command::Replay {
            file,
            catalog,
            watch: false,
            ..
        } => replay(&file, catalog.as_deref()),
        Command::Replay {
            file,
            catalog,
            speed,
            screenshot,
            view_as,
            ..
        } => watch_replay(&file, catalog.as_deref(), speed, screenshot, view_as),
        Command::Sim(args) => sim(&args),
        Command::Play(args) => play(&args),
        Command::Tour {
            demo,
            step,
            dir,
            screenshot,
        } => tour(demo, step, dir, screenshot),
    }
}
