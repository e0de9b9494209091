//! A problem found in a file, written like a compiler error, and all of a
//! file's problems together.

use std::fmt;

/// One problem in a file, written like a compiler error:
/// `levels/ford.ron:12:9: unknown template "knight" for unit "Orm"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as the user named it.
    pub file: String,
    /// 1-based line and column, where known.
    pub at: Option<(usize, usize)>,
    /// What is wrong, naming the thing at fault.
    pub message: String,
}

/// Written on one line, whatever the message quotes: a line break or
/// another control character in it (a name written across two lines) is
/// shown escaped (`\n`).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = one_line(&self.message);
        match self.at {
            Some((line, col)) => write!(f, "{}:{line}:{col}: {message}", self.file),
            None => write!(f, "{}: {message}", self.file),
        }
    }
}

/// `text` with its control characters escaped (`\n`, `\t`, `\u{1b}`): one
/// line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// Every problem of one or more files.
#[derive(Clone, Debug, Default, PartialEq, Eq, thiserror::Error)]
pub struct Problems(pub Vec<Diagnostic>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl Problems {
    /// True when any message contains `text` (case-insensitive).
    pub fn mentions(&self, text: &str) -> bool {
        let text = text.to_lowercase();
        self.0
            .iter()
            .any(|d| d.message.to_lowercase().contains(&text))
    }
}
