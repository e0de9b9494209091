//! Collecting a file's problems as it is checked: each error or warning
//! located at its line and column.

use super::locate::{Locator, Needle};
use super::problems::Diagnostic;

/// Most symbol errors reported for one map or heights layer: past that,
/// a count.
pub(super) const MAX_SYMBOL_ERRORS: usize = 20;

/// Collects diagnostics for one file: errors (what the rules cannot play)
/// and warnings (unusual but playable values, FORMAT.md).
pub(super) struct Report<'a> {
    pub(super) file: &'a str,
    pub(super) loc: &'a Locator,
    pub(super) out: Vec<Diagnostic>,
    pub(super) warnings: Vec<Diagnostic>,
}

impl Report<'_> {
    pub(super) fn diagnostic(&self, path: &[Needle], message: String) -> Diagnostic {
        Diagnostic {
            file: self.file.to_string(),
            at: Some(self.loc.locate_near(path)),
            message,
        }
    }

    pub(super) fn error(&mut self, path: &[Needle], message: String) {
        let d = self.diagnostic(path, message);
        self.out.push(d);
    }

    pub(super) fn warn(&mut self, path: &[Needle], message: String) {
        let d = self.diagnostic(path, message);
        self.warnings.push(d);
    }

    /// An error at the `x`-th character of the string row at `row_path`
    /// (a map or heights row): its own column, not the row's quote.
    pub(super) fn error_at_char(&mut self, row_path: &[Needle], x: usize, message: String) {
        let at = self.loc.find(row_path).map(|o| {
            let (line, col) = self.loc.line_col(o);
            (line, col + 1 + x)
        });
        self.out.push(Diagnostic {
            file: self.file.to_string(),
            at,
            message,
        });
    }
}

pub(super) fn quoted_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let list: Vec<String> = names.map(|n| format!("\"{n}\"")).collect();
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

/// `name` between quotes as one line: a line break or another control
/// character is shown escaped (`"Ila\nBob"`), so a message about it reads
/// on one line.
pub fn quoted(name: &str) -> String {
    format!("{name:?}")
}

/// A name must be one line: a line break or another control character in
/// it is an error at the name (`what`: "unit", "side"…).
pub(super) fn check_name(r: &mut Report, path: &[Needle], what: &str, name: &str) {
    if name.chars().any(char::is_control) {
        r.error(
            path,
            format!(
                "{what} name {} holds a line break or another control character; a name is one \
                 line",
                quoted(name)
            ),
        );
    }
}
