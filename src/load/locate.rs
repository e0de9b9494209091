//! Finds where in a RON source a named thing is written, so that semantic
//! errors point at a line and column like syntax errors do.
//!
//! RON (and serde) keep no positions for parsed values, so this searches the
//! text: a path of needles, each looked for after the previous one. Comments
//! are blanked first so that a name in a comment is never taken for the real
//! one. It is best effort: a needle that is not found gives no position,
//! never a wrong panic.

/// A searchable copy of a RON source with its comments blanked out, and
/// every string literal with its content (escapes read, line breaks kept).
pub struct Locator {
    masked: Vec<u8>,
    line_starts: Vec<usize>,
    /// String literals in order: the opening quote's offset, the offset
    /// after the closing quote, and the text they hold.
    strings: Vec<(usize, usize, String)>,
}

/// What to look for.
#[derive(Clone, Copy, Debug)]
pub enum Needle<'a> {
    /// A field name or identifier, matched as a whole word.
    Ident(&'a str),
    /// A string literal holding exactly this text (however it is escaped).
    Str(&'a str),
    /// The `n`th string literal (0-based).
    NthStr(usize),
    /// A list entry's name: the string literal of a `name: "…"` field
    /// holding exactly this text (not a mention of it elsewhere, as a
    /// template's list of spells).
    Named(&'a str),
    /// A character literal `'c'`.
    Char(char),
}

impl Locator {
    /// Prepares `src` for searching.
    pub fn new(src: &str) -> Self {
        let (masked, strings) = scan(src.as_bytes());
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
            strings,
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

    /// Line and column of `path`, or of as much of it as is found (the
    /// start of the file when nothing is): every problem gets a place.
    pub fn locate_near(&self, path: &[Needle]) -> (usize, usize) {
        (0..=path.len())
            .rev()
            .find_map(|n| self.locate(&path[..n]).filter(|_| n > 0))
            .unwrap_or((1, 1))
    }

    fn find_one(&self, needle: Needle, from: usize) -> Option<usize> {
        let hay = &self.masked;
        match needle {
            Needle::Ident(word) => {
                let w = word.as_bytes();
                let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
                (from..hay.len().saturating_sub(w.len().saturating_sub(1))).find(|&i| {
                    hay[i..].starts_with(w)
                        && (i == 0 || !is_ident(hay[i - 1]))
                        && hay.get(i + w.len()).is_none_or(|&b| !is_ident(b))
                        && !self.in_string(i)
                })
            }
            Needle::Str(text) => self
                .strings
                .iter()
                .find(|(start, _, content)| *start >= from && content == text)
                .map(|(start, ..)| *start),
            Needle::Named(text) => self
                .strings
                .iter()
                .find(|(start, _, content)| {
                    *start >= from && content == text && self.after_name_field(*start)
                })
                .map(|(start, ..)| *start),
            Needle::NthStr(n) => self
                .strings
                .iter()
                .filter(|(start, ..)| *start >= from)
                .nth(n)
                .map(|(start, ..)| *start),
            Needle::Char(c) => {
                let lit = format!("'{c}'");
                let l = lit.as_bytes();
                (from..hay.len()).find(|&i| hay[i..].starts_with(l) && !self.in_string(i))
            }
        }
    }

    /// True when the string literal at `offset` is a `name:` field's value.
    fn after_name_field(&self, offset: usize) -> bool {
        // `name` and the colon sit just before the quote.
        let before = String::from_utf8_lossy(&self.masked[offset.saturating_sub(40)..offset]);
        let before = before.trim_end().strip_suffix(':').unwrap_or("");
        before.trim_end().ends_with("name")
            && before
                .trim_end()
                .strip_suffix("name")
                .is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
    }

    /// True when `offset` is inside a string literal (opening quote excluded).
    fn in_string(&self, offset: usize) -> bool {
        let i = self.strings.partition_point(|(start, ..)| *start < offset);
        i > 0 && offset < self.strings[i - 1].1
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

/// A copy of `src` where `//` and `/* */` comments are replaced by spaces
/// (keeping newlines and byte offsets), and its string literals: a string
/// may hold escapes (`\n`, `\"`, `\u{..}`) and line breaks; a raw string
/// (`r"..."`, `r#"..."#`) holds its text as written.
fn scan(src: &[u8]) -> (Vec<u8>, Vec<(usize, usize, String)>) {
    let mut out = src.to_vec();
    let mut strings = vec![];
    let mut i = 0;
    while i < out.len() {
        let b = out[i];
        let raw = b == b'r' && matches!(out.get(i + 1), Some(b'"' | b'#'));
        if b == b'"' || raw {
            let (end, content) = if raw {
                raw_string(src, i)
            } else {
                string(src, i)
            };
            strings.push((i, end, content));
            i = end.max(i + 1);
            continue;
        }
        match (b, out.get(i + 1)) {
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
    (out, strings)
}

/// The string literal whose quote is at `start`: the offset after its
/// closing quote (or the end) and its text, escapes read.
fn string(src: &[u8], start: usize) -> (usize, String) {
    let mut bytes = vec![];
    let mut i = start + 1;
    while i < src.len() {
        match src[i] {
            b'"' => return (i + 1, String::from_utf8_lossy(&bytes).into_owned()),
            b'\\' => {
                let (c, len) = escape(&src[i..]);
                let mut buf = [0; 4];
                bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i += len;
            }
            b => {
                bytes.push(b);
                i += 1;
            }
        }
    }
    (src.len(), String::from_utf8_lossy(&bytes).into_owned())
}

/// An escape at `s[0] == '\\'`: the character it stands for and its length.
fn escape(s: &[u8]) -> (char, usize) {
    match s.get(1) {
        Some(b'n') => ('\n', 2),
        Some(b't') => ('\t', 2),
        Some(b'r') => ('\r', 2),
        Some(b'0') => ('\0', 2),
        Some(b'u') if s.get(2) == Some(&b'{') => {
            let close = s.iter().position(|&b| b == b'}').unwrap_or(s.len() - 1);
            let hex = String::from_utf8_lossy(&s[3..close.max(3)]).into_owned();
            let c = u32::from_str_radix(&hex, 16)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or('\u{fffd}');
            (c, close + 1)
        }
        Some(b'x') if s.len() >= 4 => {
            let hex = String::from_utf8_lossy(&s[2..4]).into_owned();
            let c = u8::from_str_radix(&hex, 16).map_or('\u{fffd}', char::from);
            (c, 4)
        }
        Some(&b) => (b as char, 2),
        None => ('\\', 1),
    }
}

/// The raw string literal starting at `start` (`r`, hashes, a quote).
fn raw_string(src: &[u8], start: usize) -> (usize, String) {
    let hashes = src[start + 1..].iter().take_while(|&&b| b == b'#').count();
    let open = start + 1 + hashes;
    if src.get(open) != Some(&b'"') {
        return (start + 1, String::new());
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = open + 1;
    let end = (body..src.len())
        .find(|&i| src[i..].starts_with(&close))
        .unwrap_or(src.len());
    let content = String::from_utf8_lossy(&src[body..end]).into_owned();
    ((end + close.len()).min(src.len()), content)
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
    fn an_entry_is_found_by_its_name_field_not_a_mention() {
        let src = "templates: [(name: \"mage\", spells: [\"bolt\"])],\n\
                   spells: [(name: \"hex\"), (name: \"bolt\", level: 0)]";
        let loc = Locator::new(src);
        use Needle::*;
        // A plain string finds the template's mention first.
        assert_eq!(loc.locate(&[Str("bolt")]), Some((1, 37)));
        assert_eq!(loc.locate(&[Named("bolt")]), Some((2, 32)));
        assert_eq!(loc.locate(&[Named("bolt"), Ident("level")]), Some((2, 40)));
        assert_eq!(loc.locate(&[Named("mage")]), Some((1, 20)));
    }

    #[test]
    fn a_string_is_found_by_its_text_however_written() {
        let src = "units: [\n  (name: \"Ila\\nBob\"),\n  (name: \"Orm\nKai\", at: (1, 2)),\n]";
        let loc = Locator::new(src);
        assert_eq!(loc.locate(&[Needle::Str("Ila\nBob")]), Some((2, 10)));
        assert_eq!(loc.locate(&[Needle::Str("Orm\nKai")]), Some((3, 10)));
        // After a string that spans two lines, words are found as before.
        assert_eq!(
            loc.locate(&[Needle::Str("Orm\nKai"), Needle::Ident("at")]),
            Some((4, 7))
        );
        assert_eq!(
            loc.locate_near(&[Needle::Ident("units"), Needle::Str("Nobody")]),
            (1, 1)
        );
        assert_eq!(loc.locate_near(&[Needle::Ident("nowhere")]), (1, 1));
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
