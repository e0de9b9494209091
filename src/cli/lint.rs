//! `skirmish lint`: the designers' warnings, and `--balance` battles.

use super::check::checked;
use super::check::per_file;
use super::check::warning_line;
use crate::format::Catalog;
use crate::load;
use crate::load::Diagnostic;
use crate::load::catalog_at;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

/// `skirmish lint`: `check`'s warnings and the lint's, per file; with
/// `--balance`, the battles' verdict too.
pub fn lint(
    files: &[PathBuf],
    catalog_dir: Option<&Path>,
    balance: Option<usize>,
    seed: u64,
) -> ExitCode {
    let catalog = catalog_at(catalog_dir);
    per_file(files, "could not be linted", |path| {
        let Some(warnings) = checked(path, catalog.as_ref(), true) else {
            return false;
        };
        let mut count = warnings.len();
        if let (Some(n), Ok(c)) = (balance, catalog.as_ref()) {
            match balance_of(path, c, n, seed) {
                Ok((found, verdict)) => {
                    println!("{}: {verdict}", path.display());
                    count += found.len();
                    for w in &found {
                        println!("{}", warning_line(w));
                    }
                }
                Err(e) => {
                    eprintln!("{e}");
                    return false;
                }
            }
        }
        let plural = if count == 1 { "" } else { "s" };
        println!("{}: {count} warning{plural}", path.display());
        true
    })
}

/// `lint --balance N`: N battles each way, with a progress bar.
pub fn balance_of(
    path: &Path,
    catalog: &Catalog,
    n: usize,
    seed: u64,
) -> Result<(Vec<Diagnostic>, String), String> {
    let level = load::load_level_file(path, catalog).map_err(|p| p.to_string())?;
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let profiles =
        crate::ai::Profiles::load(Path::new(crate::ai::PROFILE_DIR)).map_err(|p| p.to_string())?;
    let bar = indicatif::ProgressBar::new(2 * n as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "balance [{bar:30}] {pos}/{len} battles, ~{eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let found = crate::design::lint::balance(
        &level,
        &src,
        &path.display().to_string(),
        &profiles,
        n,
        seed,
        || bar.inc(1),
    );
    bar.finish_and_clear();
    found
}
