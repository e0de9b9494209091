//! `skirmish check`: levels and catalogs checked, every problem located.

use crate::format::Catalog;
use crate::load;
use crate::load::Diagnostic;
use crate::load::FileKind;
use crate::load::Problems;
use crate::load::catalog_at;
use crate::load::parse_catalog;
use crate::load::parse_level;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

/// `skirmish check`: one verdict per file.
pub fn check(files: &[PathBuf], catalog_dir: Option<&Path>, lint: bool) -> ExitCode {
    let catalog = catalog_at(catalog_dir);
    // The levels are checked against this catalog: its warnings (unusual
    // numbers a level's units carry) are told once, each at its place.
    if let Some(dir) = catalog_dir {
        for w in load::lint_catalog_dir(dir) {
            println!("{}", warning_line(&w));
        }
    }
    per_file(files, "have problems", |path| {
        let ok = checked(path, catalog.as_ref(), lint).is_some();
        if ok {
            println!("{}: ok", path.display());
        }
        ok
    })
}

/// Runs `each` on every file (`false`: that file failed), then says how
/// many failed and exits accordingly.
pub fn per_file(files: &[PathBuf], failure: &str, mut each: impl FnMut(&Path) -> bool) -> ExitCode {
    let failed = files.iter().filter(|p| !each(p)).count();
    if failed > 0 {
        eprintln!("{failed} of {} files {failure}", files.len());
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks one file and prints its warnings (then returns them) or its
/// problems (then `None`).
pub fn checked(
    path: &Path,
    catalog: Result<&Catalog, &Problems>,
    lint: bool,
) -> Option<Vec<Diagnostic>> {
    match check_file(path, catalog, lint) {
        Ok(warnings) => {
            for w in &warnings {
                println!("{}", warning_line(w));
            }
            Some(warnings)
        }
        Err(problems) => {
            for d in &problems.0 {
                println!("{d}");
            }
            None
        }
    }
}

/// A warning as `check` prints it, on one line: `file:line:col: warning:
/// message`.
pub fn warning_line(d: &Diagnostic) -> String {
    let message = load::one_line(&d.message);
    match d.at {
        Some((line, col)) => format!("{}:{line}:{col}: warning: {message}", d.file),
        None => format!("{}: warning: {message}", d.file),
    }
}

/// Checks one file: its warnings, or every problem it has.
pub fn check_file(
    path: &Path,
    catalog: Result<&Catalog, &Problems>,
    lint: bool,
) -> Result<Vec<Diagnostic>, Problems> {
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
            let others = catalog.unwrap_or(&empty);
            parse_catalog(&bytes, &file, others)?;
            Ok(load::lint_catalog(&bytes, &file, others))
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
            let valid = parse_level(&bytes, &file, catalog)?;
            // The AI profiles its sides name must exist (assets/ai/).
            let profiles = crate::ai::Profiles::load(Path::new(crate::ai::PROFILE_DIR))?;
            let src = String::from_utf8_lossy(&bytes);
            let problems = profiles.check_level(&valid.source, &src, &file);
            if problems.is_empty() {
                let mut warnings = valid.warnings.clone();
                if lint {
                    warnings.extend(crate::design::lint::lint_level(&valid, &src, &file));
                }
                Ok(warnings)
            } else {
                Err(Problems(problems))
            }
        }
        FileKind::Scenario => crate::scenario::parse(&bytes, &file).map(|_| vec![]),
    }
}
