//! Every scenario under `tests/scenarios/` passes, and every rule id the
//! rules engine covers has at least one.

use crate::common::{ron_files, root};
use skirmish::rules::rule::Rule;
use skirmish::scenario::{Expect, Scenario, parse, run_file};
use std::collections::BTreeSet;

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

/// The rule ids the rules engine implements: every numbered id (`R4.5`),
/// `R11` and variant cited in `src/rules/`.
fn implemented_rules() -> BTreeSet<Rule> {
    let mut cited = BTreeSet::new();
    for entry in std::fs::read_dir(root().join("src/rules")).unwrap() {
        let path = entry.unwrap().path();
        // rule.rs lists every id of RULES.md, implemented or not.
        if path.ends_with("rule.rs") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap_or_default();
        cited.extend(rule_ids(&text));
    }
    cited
        .into_iter()
        .filter(|r| r.is_numbered() || *r == Rule::R11 || r.id().starts_with('V'))
        // R0.6 (one seeded source of randomness) is a property of whole
        // battles: tests/determinism.rs and tests/golden.rs check it.
        .filter(|r| *r != Rule::R0_6)
        .collect()
}

/// The rule ids written in `text` ("R1.1" is not found in "R1.10").
fn rule_ids(text: &str) -> BTreeSet<Rule> {
    let mut out = BTreeSet::new();
    for r in Rule::ALL {
        let id = r.id();
        let found = text.match_indices(id).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let rest = &text[i + id.len()..];
            let digit = |s: &str| s.starts_with(|c: char| c.is_ascii_digit());
            let continues = digit(rest) || (rest.starts_with('.') && digit(&rest[1..]));
            !before.is_some_and(|c| c.is_ascii_alphanumeric()) && !continues
        });
        if found {
            out.insert(*r);
        }
    }
    out
}

/// The rule ids a scenario's expectations pin: cited in a Log, NotLog,
/// LogOrder or Rejected text, or an Event's rule. Comments and names do
/// not count: only what a run checks.
fn pinned_by(scenario: &Scenario) -> BTreeSet<Rule> {
    let mut out = BTreeSet::new();
    for e in &scenario.expect {
        match e {
            Expect::Log { contains }
            | Expect::NotLog { contains }
            | Expect::Rejected { contains, .. } => out.extend(rule_ids(contains)),
            Expect::LogOrder { contains } => {
                for c in contains {
                    out.extend(rule_ids(c));
                }
            }
            Expect::Event { rule, .. } => out.extend(*rule),
            _ => {}
        }
    }
    out
}

#[test]
fn every_rule_id_is_pinned_by_a_scenario_expectation() {
    let implemented = implemented_rules();
    assert!(implemented.len() > 40, "{implemented:?}");
    let mut pinned = BTreeSet::new();
    for path in ron_files(&root().join("tests/scenarios")) {
        let bytes = std::fs::read(&path).unwrap();
        let scenario = parse(&bytes, &path.display().to_string()).unwrap();
        pinned.extend(pinned_by(&scenario));
    }
    let missing: Vec<&str> = implemented.difference(&pinned).map(|r| r.id()).collect();
    assert!(
        missing.is_empty(),
        "no scenario expectation checks {missing:?}"
    );
}

/// The rules tour's demos (`levels/demo/`) are scenarios too: each runs to
/// its end headless with its expectations holding, and its captions fit
/// its script (a caption before each step it names, overlays the window
/// knows, the last words when control passes to the player).
#[test]
fn every_tour_demo_runs_to_its_end_and_its_captions_fit() {
    let files = ron_files(&root().join("levels/demo"));
    assert!(files.len() >= 11, "one demo per rule area");
    for path in &files {
        let v = run_file(path).unwrap_or_else(|p| panic!("{p}"));
        assert!(v.passed(), "{}: {}", path.display(), v.failures.join("\n"));
        let (scenario, _) = skirmish::scenario::load_file(path).unwrap();
        let steps = scenario.commands.len();
        assert!(!scenario.tour.is_empty(), "{}: no captions", path.display());
        assert_eq!(
            scenario.tour[0].before,
            0,
            "{}: a first caption",
            path.display()
        );
        assert!(
            scenario.tour.iter().any(|c| c.before == steps),
            "{}: no last words for the player",
            path.display()
        );
        for c in &scenario.tour {
            assert!(
                c.before <= steps,
                "{}: caption after the end",
                path.display()
            );
            // Overlay and aim names are typed: a misspelt one does not load.
        }
    }
}

/// The names a scenario gives (an event's kind and rule, a caption's
/// overlays and aimed action) are types: each is read as a string or a
/// bare name, and a misspelt one is a load error at its line and column,
/// listing the names there are.
#[test]
fn a_misspelt_name_in_a_scenario_is_a_load_error_with_its_place() {
    let scenario = |expect: &str, caption: &str| {
        format!(
            "Scenario(\n    name: \"names\",\n    level: \"tests/levels/duel.ron\",\n    \
             commands: [EndTurn],\n    expect: [{expect}],\n    tour: [{caption}],\n)\n"
        )
    };
    let good = [
        scenario(
            "Event(kind: \"TurnStarted\", rule: \"R2.4\")",
            "(before: 0, text: \"a\", overlays: [\"reach\", threat], aim: \"throw\")",
        ),
        scenario(
            "Event(kind: TurnStarted)",
            "(before: 0, text: \"a\", overlays: [none], aim: Some(Charge))",
        ),
    ];
    for text in &good {
        let parsed = skirmish::scenario::parse(text.as_bytes(), "names.ron");
        assert!(parsed.is_ok(), "{text}\n{}", parsed.unwrap_err());
    }
    let parsed = skirmish::scenario::parse(good[0].as_bytes(), "names.ron").unwrap();
    let caption = &parsed.tour[0];
    assert_eq!(
        caption.overlays,
        Some(vec![
            skirmish::format::Overlay::Reach,
            skirmish::format::Overlay::Threat
        ])
    );
    assert_eq!(caption.aim, Some(skirmish::format::Aim::Throw));
    let bad = [
        (
            scenario("Event(kind: \"TurnStartd\")", ""),
            5,
            "unknown name \"TurnStartd\"",
        ),
        (
            scenario("Event(kind: TurnStarted, rule: \"R2.44\")", ""),
            5,
            "unknown rule id \"R2.44\"",
        ),
        (
            scenario("", "(before: 0, text: \"a\", overlays: [\"reech\"])"),
            6,
            "unknown name \"reech\"",
        ),
        (
            scenario("", "(before: 0, text: \"a\", aim: \"thro\")"),
            6,
            "unknown name \"thro\"",
        ),
    ];
    for (text, line, words) in bad {
        let problems = skirmish::scenario::parse(text.as_bytes(), "names.ron").unwrap_err();
        let message = problems.to_string();
        assert!(
            message.starts_with(&format!("names.ron:{line}:")) && message.contains(words),
            "{message}"
        );
    }
}
