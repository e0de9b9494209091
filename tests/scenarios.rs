//! Every scenario under `tests/scenarios/` passes, and every rule id the
//! rules engine covers has at least one.

use crate::common::{ron_files, root};
use skirmish::scenario::run_file;

#[test]
fn every_scenario_passes() {
    let files = ron_files(&root().join("tests/scenarios"));
    assert!(files.len() >= 30);
    let mut failed = vec![];
    for path in &files {
        match run_file(path) {
            Ok(v) if v.passed() => {}
            Ok(v) => failed.push(format!(
                "{}: {}\n  {}\n{}",
                path.display(),
                v.name,
                v.failures.join("\n  "),
                v.log
            )),
            Err(p) => failed.push(format!("{}: {p}", path.display())),
        }
    }
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The rule ids of the rules-engine issue; R2.3 (off-guard) and R3.2
/// (reactions per round) only show with reactive attacks and are pinned by
/// the tactical scenarios.
const RULES: &[&str] = &[
    "R0.3", "R0.4", "R0.5", "R1.1", "R1.2", "R2.1", "R2.2", "R2.4", "R2.5", "R3.1", "R4.1", "R4.2",
    "R4.3", "R4.6", "R4.7", "R4.8", "R5.1", "R5.2", "R5.3", "R7.1", "R7.2", "R7.3", "R7.5", "R7.6",
    "R7.7", "R7.9", "R10.1", "R10.2", "R10.3", "R10.4", "R10.5", "R11", "V1",
];

#[test]
fn every_rule_id_has_a_scenario() {
    let texts: Vec<String> = ron_files(&root().join("tests/scenarios"))
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let missing: Vec<&&str> = RULES
        .iter()
        .filter(|id| {
            !texts.iter().any(|t| {
                t.match_indices(**id).any(|(i, _)| {
                    // "R1.1" must not be found inside "R1.10", nor "R6" in "R6.1".
                    !t[i + id.len()..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
                })
            })
        })
        .collect();
    assert!(missing.is_empty(), "no scenario for {missing:?}");
}
