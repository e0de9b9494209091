//! The `skirmish` command line (see [`skirmish::cli`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    skirmish::cli::main()
}
