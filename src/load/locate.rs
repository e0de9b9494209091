//! Finds where in a RON source a named thing is written, so that semantic
//! errors point at a line and column like syntax errors do.
//!
//! RON (and serde) keep no positions for parsed values, so this searches the
//! text: a path of needles, each looked for after the previous one. Comments
//! are blanked first so that a name in a comment is never taken for the real
//! one. It is best effort: a needle that is not found gives no position,
//! never a wrong panic.

/// A searchable copy of a RON source with its comments blanked out.
pub struct Locator {
    masked: Vec<u8>,
    line_starts: Vec<usize>,
}

/// What to look for.
#[derive(Clone, Copy, Debug)]
pub enum Needle<'a> {
    /// A field name or identifier, matched as a whole word.
    Ident(&'a str),
    /// A string literal with exactly this content (quotes added here).
    Str(&'a str),
    /// The `n`th string literal (0-based).
    NthStr(usize),
    /// A character literal `'c'`.
    Char(char),
}

impl Locator {
    /// Prepares `src` for searching.
    pub fn new(src: &str) -> Self {
        let masked = mask_comments(src.as_bytes());
        let mut line_starts = vec![0];
        line_starts.extend(
            src.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Self {
            masked,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let end = offset.min(self.masked.len());
        let col = String::from_utf8_lossy(&self.masked[start.min(end)..end])
            .chars()
            .count()
            + 1;
        (line, col)
    }

    /// Byte offset where the last needle of `path` starts, each needle looked
    /// for after the start of the one before.
    pub fn find(&self, path: &[Needle]) -> Option<usize> {
        let mut at = 0;
        for (i, needle) in path.iter().enumerate() {
            let from = if i == 0 { 0 } else { at + 1 };
            at = self.find_one(*needle, from)?;
        }
        Some(at)
    }

    /// Line and column of [`Locator::find`].
    pub fn locate(&self, path: &[Needle]) -> Option<(usize, usize)> {
        self.find(path).map(|o| self.line_col(o))
    }

    fn find_one(&self, needle: Needle, from: usize) -> Option<usize> {
        let hay = &self.masked;
        match needle {
            Needle::Ident(word) => {
                let w = word.as_bytes();
                let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
                (from..hay.len().saturating_sub(w.len() - 1)).find(|&i| {
                    hay[i..].starts_with(w)
                        && (i == 0 || !is_ident(hay[i - 1]))
                        && hay.get(i + w.len()).is_none_or(|&b| !is_ident(b))
                        && !self.in_string(i)
                })
            }
            Needle::Str(text) => {
                let quoted = format!("\"{text}\"");
                let q = quoted.as_bytes();
                (from..hay.len()).find(|&i| hay[i..].starts_with(q) && !self.in_string(i))
            }
            Needle::NthStr(n) => self.string_starts(from).nth(n),
            Needle::Char(c) => {
                let lit = format!("'{c}'");
                let l = lit.as_bytes();
                (from..hay.len()).find(|&i| hay[i..].starts_with(l) && !self.in_string(i))
            }
        }
    }

    /// Offsets of the opening quotes of string literals starting at `from`
    /// or later (assumes `from` is outside a string).
    fn string_starts(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        let hay = &self.masked;
        let mut i = from;
        std::iter::from_fn(move || {
            while i < hay.len() {
                match hay[i] {
                    b'"' => {
                        let start = i;
                        i += 1;
                        while i < hay.len() && hay[i] != b'"' {
                            i += if hay[i] == b'\\' { 2 } else { 1 };
                        }
                        i += 1;
                        return Some(start);
                    }
                    b'\'' => i += char_literal_len(&hay[i..]),
                    _ => i += 1,
                }
            }
            None
        })
    }

    /// True when `offset` is inside a string literal (opening quote excluded).
    fn in_string(&self, offset: usize) -> bool {
        let hay = &self.masked;
        let line_start = self.line_starts[self.line_starts.partition_point(|&s| s <= offset) - 1];
        // Strings in level files do not span lines; counting quotes from the
        // start of the line is enough.
        let mut inside = false;
        let mut i = line_start;
        while i < offset {
            match hay[i] {
                b'\\' if inside => i += 1,
                b'"' => inside = !inside,
                b'\'' if !inside => {
                    i += char_literal_len(&hay[i..]);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        inside
    }
}

/// Length of a char literal starting at `s[0] == '\''`, or 1 if it is not one.
fn char_literal_len(s: &[u8]) -> usize {
    if s.len() >= 4 && s[1] == b'\\' && s[3] == b'\'' {
        4
    } else if s.len() >= 3 && s[2] == b'\'' {
        3
    } else {
        // Multibyte chars: find the closing quote within 6 bytes.
        s.iter()
            .skip(1)
            .take(5)
            .position(|&b| b == b'\'')
            .map_or(1, |p| p + 2)
    }
}

/// A copy of `src` where `//` and `/* */` comments are replaced by spaces,
/// keeping newlines and byte offsets.
fn mask_comments(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let mut i = 0;
    let mut in_str = false;
    while i < out.len() {
        let b = out[i];
        if in_str {
            match b {
                b'\\' => i += 1,
                b'"' | b'\n' => in_str = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (b, out.get(i + 1)) {
            (b'"', _) => {
                in_str = true;
                i += 1;
            }
            (b'\'', _) => i += char_literal_len(&out[i..]),
            (b'/', Some(b'/')) => {
                while i < out.len() && out[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let mut depth = 0;
                while i < out.len() {
                    if out[i..].starts_with(b"/*") {
                        depth += 1;
                        out[i] = b' ';
                        out[i + 1] = b' ';
                        i += 2;
                    } else if out[i..].starts_with(b"*/") {
                        depth -= 1;
                        out[i] = b' ';
                        out[i + 1] = b' ';
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if out[i] != b'\n' {
                            out[i] = b' ';
                        }
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"Level(
    // units: "Ila" is mentioned in a comment
    units: [
        (name: "Ila", template: "archer", at: (7, 1)),
        (name: "Orm", template: "knight", at: (99, 1)),
    ],
)"#;

    #[test]
    fn finds_path_after_comments() {
        let loc = Locator::new(SRC);
        use Needle::*;
        assert_eq!(loc.locate(&[Ident("units"), Str("Ila")]), Some((4, 16)));
        assert_eq!(
            loc.locate(&[Ident("units"), Str("Orm"), Str("knight")]),
            Some((5, 33))
        );
        assert_eq!(loc.locate(&[Str("Orm"), Ident("at")]), Some((5, 43)));
        assert_eq!(loc.locate(&[Ident("nowhere")]), None);
    }

    #[test]
    fn nth_string_skips_comments() {
        let loc = Locator::new(SRC);
        assert_eq!(
            loc.locate(&[Needle::Ident("units"), Needle::NthStr(2)]),
            Some((5, 16))
        );
    }
}
