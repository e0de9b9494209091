//! The rules' text, for the reader: every rule id the game shows (in a
//! preview, the log, a refusal, a tooltip) opens its rule. The reference
//! (`assets/rules/RULES.md`, a copy of `../shared/RULES.md`) and this
//! project's decisions (`src/rules/DECISIONS.md`) ship inside the binary.

use crate::rules::rule::Rule;

/// The reference rules, as shipped.
pub const REFERENCE: &str = include_str!("../../assets/rules/RULES.md");

/// The variants V5–V12 spelt out with their sub-rules (`V7.4`), as
/// shipped (`assets/rules/VARIANTS.md`, a copy of `../shared/VARIANTS.md`).
pub const VARIANTS: &str = include_str!("../../assets/rules/VARIANTS.md");

/// This project's decisions where the reference is silent.
pub const DECISIONS: &str = include_str!("DECISIONS.md");

/// The text of `rule`: its paragraph of the reference (a section's heading
/// and first paragraph for a section id), then every decision of this
/// project that names it. `None` for an id the texts never state.
pub fn rule_text(rule: Rule) -> Option<String> {
    if rule == Rule::Format {
        return Some(
            "FORMAT: the file contract (../shared/FORMAT.md) for levels, catalogs and \
             scenarios; levels/README.md lists every field, default and error."
                .into(),
        );
    }
    // A variant's sub-rule (`V7.4`) is spelt out in VARIANTS.md; a variant
    // itself has its line in the reference.
    let mut text =
        reference_entry(REFERENCE, rule.id()).or_else(|| reference_entry(VARIANTS, rule.id()))?;
    let decided = decisions_naming(rule.id());
    if !decided.is_empty() {
        text.push_str("\n\nThis project decided:");
        for d in decided {
            text.push_str("\n- ");
            text.push_str(&d);
        }
    }
    Some(text)
}

/// The bullet of `text` that starts with `**id` (`R4.5`, `V1`), its
/// continuation lines joined; for a section id (`R4`), its heading.
fn reference_entry(text: &str, id: &str) -> Option<String> {
    let bullet = format!("- **{id}");
    let heading = format!("## {id} ");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with(&heading) {
            return Some(line.trim_start_matches("## ").to_string());
        }
        let rest = line.strip_prefix(&bullet);
        // `**R4.1` must not match `**R4.10`.
        if let Some(rest) = rest.filter(|r| r.starts_with(['*', ' ', '.'])) {
            let mut text = format!("{id}{}", unbold(rest));
            for more in lines.by_ref() {
                if !more.starts_with("  ") {
                    break;
                }
                text.push(' ');
                text.push_str(unbold(more.trim()).as_str());
            }
            return Some(text);
        }
    }
    None
}

/// The bullets of DECISIONS.md whose text names `id` (as `id` followed by
/// no further digit), each on one line.
fn decisions_naming(id: &str) -> Vec<String> {
    let mut out = vec![];
    let mut current = String::new();
    let mut flush = |current: &mut String| {
        if names(current, id) {
            out.push(unbold(current.trim()));
        }
        current.clear();
    };
    for line in DECISIONS.lines() {
        if let Some(rest) = line.strip_prefix("- ") {
            flush(&mut current);
            current.push_str(rest);
        } else if line.starts_with("  ") && !current.is_empty() {
            current.push(' ');
            current.push_str(line.trim());
        } else {
            flush(&mut current);
        }
    }
    flush(&mut current);
    out
}

/// `text` names rule `id`: `R4.5` but not `R4.50`, `R10.1` not `R0.1`.
fn names(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// `s` without Markdown's bold and code marks.
fn unbold(s: &str) -> String {
    s.replace("**", "").replace('`', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numbered_rule_and_section_has_its_text() {
        for rule in Rule::ALL {
            let text = rule_text(*rule).unwrap_or_else(|| panic!("no text for {rule}"));
            assert!(
                text.starts_with(rule.id()) || *rule == Rule::Format,
                "{text}"
            );
        }
    }

    #[test]
    fn a_rule_reads_its_own_paragraph_and_the_decisions_naming_it() {
        let flank = rule_text(Rule::R4_5).unwrap();
        assert!(
            flank.starts_with("R4.5 Flanking (001): an attacker flanks"),
            "{flank}"
        );
        assert!(flank.contains("exactly opposite"), "{flank}");
        assert!(!flank.contains("R4.6 Ready shield"), "{flank}");
        let off_guard = rule_text(Rule::R2_3).unwrap();
        assert!(
            off_guard.contains("This project decided:")
                && off_guard.contains("ends at the start of the unit's first turn"),
            "{off_guard}"
        );
        assert!(rule_text(Rule::R4).unwrap().starts_with("R4 Facing"));
    }

    #[test]
    fn ids_are_named_whole() {
        assert!(names("see R10.1.", "R10.1"));
        assert!(!names("see R10.12", "R10.1"));
        assert!(!names("see R10.1", "R0.1"));
        assert!(names("(R4.5)", "R4.5"));
    }
}
