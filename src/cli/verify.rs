//! `skirmish verify`: rules scenarios run and reported.

use std::path::PathBuf;
use std::process::ExitCode;

/// `skirmish verify`: runs each scenario and reports.
pub fn verify(files: &[PathBuf], show_log: bool) -> ExitCode {
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        match crate::scenario::run_file(path) {
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
