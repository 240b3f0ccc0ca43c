//! Located diagnostics for user input: a message, the file, the line and column, and the
//! offending text. This module owns rendering them; it never decides what is an error.

use std::fmt;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

/// One problem with the user's input (registry, article, evidence), pointing at where it is.
///
/// Internal failures (a bug, a broken device) are not diagnostics: they travel as
/// `anyhow::Error` and are printed plainly.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub message: String,
    pub location: Option<Location>,
    pub notes: Vec<String>,
}

/// Where a diagnostic points: a root-relative file, a 1-based line and column, and the lines
/// that hold the offending text so that it can be shown without re-reading the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub col: usize,
    /// The whole lines that contain the span.
    pub excerpt: String,
    /// The span inside `excerpt`.
    pub excerpt_span: Range<usize>,
    pub label: String,
}

impl Diagnostic {
    /// A diagnostic with no location, for problems that belong to no file (a usage error).
    pub fn plain(message: impl Into<String>) -> Self {
        Diagnostic { message: message.into(), location: None, notes: Vec::new() }
    }

    /// A diagnostic pointing at `span` of `source`, which is the text of `file`.
    pub fn at(message: impl Into<String>, file: &str, source: &str, span: Range<usize>, label: impl Into<String>) -> Self {
        Diagnostic { message: message.into(), location: Some(Location::new(file, source, span, label)), notes: Vec::new() }
    }

    /// A diagnostic pointing at one whole line of a line-oriented file (JSONL), whose text is
    /// given alone so that a large file need not be kept.
    pub fn at_line(message: impl Into<String>, file: &str, line_no: usize, line: &str, label: impl Into<String>) -> Self {
        let shown = line.trim_end_matches(['\n', '\r']);
        let span = 0..shown.len();
        Diagnostic {
            message: message.into(),
            location: Some(Location { file: file.to_string(), line: line_no, col: 1, excerpt: shown.to_string(), excerpt_span: span, label: label.into() }),
            notes: Vec::new(),
        }
    }

    /// Bytes of `file` that are not UTF-8, located at the first invalid byte (`valid_up_to`
    /// bytes in), with its line shown as far as it can be read: invalid bytes show as `�`.
    pub fn not_utf8(file: &str, bytes: &[u8], valid_up_to: usize) -> Self {
        Diagnostic::not_utf8_after(file, bytes, valid_up_to, 0)
    }

    /// As [`Diagnostic::not_utf8`] for `bytes` that are a part of `file` starting after
    /// `lines_before` whole lines (a chunk read alone), so that the line named is the file's.
    pub fn not_utf8_after(file: &str, bytes: &[u8], valid_up_to: usize, lines_before: usize) -> Self {
        let at = valid_up_to.min(bytes.len());
        let line_start = bytes[..at].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let line_end = bytes[at..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |i| at + i);
        let line = lines_before + bytes[..line_start].iter().filter(|b| **b == b'\n').count() + 1;
        // The bytes before `at` are valid, so the lossy line keeps them, and their offsets.
        let shown = String::from_utf8_lossy(&bytes[line_start..line_end]).trim_end_matches('\r').to_string();
        let start = (at - line_start).min(shown.len());
        let col = shown[..start].chars().count() + 1;
        let end = shown[start..].chars().next().map_or(start, |c| start + c.len_utf8());
        let byte = bytes.get(at).map_or(String::new(), |b| format!(" (byte 0x{b:02x})"));
        Diagnostic {
            message: format!("{file} is not UTF-8: invalid byte at line {line}, column {col}{byte}"),
            location: Some(Location { file: file.to_string(), line, col, excerpt: shown, excerpt_span: start..end, label: "not UTF-8".into() }),
            notes: Vec::new(),
        }
    }

    /// A TOML error of `source`, the text of `file`, located where the parser says, or where a
    /// span-less error (the key-depth limit) must be.
    pub fn toml(what: &str, file: &str, source: &str, error: &toml::de::Error) -> Self {
        let span = toml_span(source, error);
        Diagnostic::at(format!("{what}: {}", error.message().trim_end()), file, source, span, "here")
    }

    /// A JSON error of `source`, the text of `file`, located at serde's line and column, which
    /// the message then no longer repeats.
    pub fn json(what: &str, file: &str, source: &str, error: &serde_json::Error) -> Self {
        let text = error.to_string();
        let message = text.rfind(" at line ").map_or(text.as_str(), |i| &text[..i]);
        let at = json_offset(source, error.line(), error.column());
        Diagnostic::at(format!("{what}: {message}"), file, source, at..at, "here")
    }

    /// Moves the location of a diagnostic made by [`Diagnostic::at_line`] to the 1-based byte
    /// column `col` of that `line` (a parser's position), keeping the whole line as excerpt.
    pub fn at_column(mut self, line: &str, col: usize) -> Self {
        if let Some(loc) = &mut self.location {
            let shown = &loc.excerpt;
            let start = floor_char_boundary(shown, col.saturating_sub(1).min(shown.len()).min(line.len()));
            let end = shown[start..].chars().next().map_or(start, |c| start + c.len_utf8());
            loc.col = shown[..start].chars().count() + 1;
            loc.excerpt_span = start..end;
        }
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// `file:line:col` where the diagnostic has a location.
    pub fn position(&self) -> Option<String> {
        self.location.as_ref().map(|l| format!("{}:{}:{}", l.file, l.line, l.col))
    }

    /// Renders the diagnostic as cargo does: a title, an arrow to `file:line:col`, the excerpt
    /// with a caret under the span, then the notes.
    pub fn render(&self) -> String {
        let title = Level::ERROR.primary_title(self.message.as_str());
        let mut group = Vec::new();
        match &self.location {
            Some(loc) => {
                let snippet = Snippet::source(loc.excerpt.as_str())
                    .line_start(loc.line)
                    .path(loc.file.as_str())
                    .annotation(AnnotationKind::Primary.span(loc.excerpt_span.clone()).label(loc.label.as_str()));
                let mut g = title.element(snippet);
                for note in &self.notes {
                    g = g.element(Level::NOTE.message(note.as_str()));
                }
                group.push(g);
            }
            None => {
                // A diagnostic without a file has nothing to excerpt; keep it to the title
                // and the notes, in the same shape as the located form.
                let mut out = format!("error: {}", self.message);
                for note in &self.notes {
                    out.push_str(&format!("\n  = note: {note}"));
                }
                return out;
            }
        }
        Renderer::plain().render(&group).to_string()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position() {
            Some(p) => write!(f, "{p}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl Location {
    /// Computes line, column and excerpt of `span` in `source`. A span past the end is clamped,
    /// so that a diagnostic can always be built.
    pub fn new(file: &str, source: &str, span: Range<usize>, label: impl Into<String>) -> Self {
        let start = floor_char_boundary(source, span.start.min(source.len()));
        let end = floor_char_boundary(source, span.end.clamp(start, source.len()));
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[end..].find('\n').map_or(source.len(), |i| end + i);
        let line = source[..start].matches('\n').count() + 1;
        let col = source[line_start..start].chars().count() + 1;
        Location {
            file: file.to_string(),
            line,
            col,
            excerpt: source[line_start..line_end].to_string(),
            excerpt_span: (start - line_start)..(end - line_start),
            label: label.into(),
        }
    }
}

/// The byte offset of serde_json's 1-based line and column (a byte column; 0 before the first
/// byte of a line), clamped into the text and onto a character boundary.
fn json_offset(source: &str, line: usize, col: usize) -> usize {
    // Column 0 is serde's way of saying "just past the end of the line before", where it
    // noticed a problem only on reading the newline.
    if col == 0 && line > 1 {
        return json_offset(source, line - 1, usize::MAX);
    }
    let mut start = 0;
    for _ in 1..line.max(1) {
        match source[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return source.len(),
        }
    }
    let end = source[start..].find('\n').map_or(source.len(), |i| start + i);
    floor_char_boundary(source, start.saturating_add(col.saturating_sub(1)).min(end))
}

/// Where a TOML error is. The parser gives a span for almost every error; the one it gives
/// none for is a key of more parts than it accepts (`a.a.a…` in a key or a table header), which
/// would otherwise point at 1:1. That key is found here: the first run of key text, outside
/// brackets and values, with at least as many dots as the limit allows.
pub(crate) fn toml_span(source: &str, error: &toml::de::Error) -> Range<usize> {
    if let Some(span) = error.span() {
        return span;
    }
    // toml refuses a key path of 80 parts or more.
    const KEY_PARTS: usize = 80;
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let mut start = 0;
        for piece in line.split(['=', '[', ']', '{', '}', ',']) {
            if piece.matches('.').count() + 1 >= KEY_PARTS {
                let lead = piece.len() - piece.trim_start().len();
                let at = offset + start + lead;
                return at..at + piece.trim().len();
            }
            start += piece.len() + 1;
        }
        offset += line.len();
    }
    0..0
}

/// The 1-based line and column (in characters) of each byte offset of `source`, in the order
/// given. One sweep over the text serves every offset, so locating a million numbers of a
/// one-line article costs one pass, not a million. Offsets past the end, or inside a
/// character, are clamped as [`Location::new`] clamps them.
pub(crate) fn line_cols(source: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    let mut out = vec![(1, 1); offsets.len()];
    let (mut pos, mut line, mut col) = (0usize, 1usize, 1usize);
    for i in order {
        let target = floor_char_boundary(source, offsets[i].min(source.len()));
        for ch in source[pos..target].chars() {
            if ch == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        pos = target;
        out[i] = (line, col);
    }
    out
}

/// The largest char boundary at or below `i`.
pub fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The first `n` characters of `s`, cut on a character boundary: text from the input may hold
/// any characters, and slicing it by bytes could split one.
pub fn first_chars(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_counts_lines_and_columns_from_one() {
        let src = "a = 1\nquote = \"Graph µs\"\n";
        let at = src.find("Graph").unwrap();
        let loc = Location::new("claims/x.toml", src, at..at + 5, "here");
        assert_eq!((loc.line, loc.col), (2, 10));
        assert_eq!(loc.excerpt, "quote = \"Graph µs\"");
    }

    #[test]
    fn render_shows_position_and_offending_text() {
        let src = "[[claim]]\nid = \"C1\"\nid = \"C1\"\n";
        let d = Diagnostic::at("duplicate key", "claims/x.toml", src, 20..22, "again here");
        let out = d.render();
        assert!(out.contains("claims/x.toml:3:1"), "{out}");
        assert!(out.contains("id = \"C1\""), "{out}");
        assert!(out.contains("again here"), "{out}");
    }

    #[test]
    fn invalid_utf8_is_located_at_its_byte_with_its_line() {
        let d = Diagnostic::not_utf8("claims/a.toml", b"ok = 1\nid = \"\xff\"\nx = 2\n", 13);
        assert_eq!(d.position().unwrap(), "claims/a.toml:2:7");
        let loc = d.location.as_ref().unwrap();
        assert_eq!(loc.excerpt, "id = \"\u{fffd}\"");
        assert_eq!(&loc.excerpt[loc.excerpt_span.clone()], "\u{fffd}");
        assert!(d.message.contains("0xff"), "{}", d.message);
    }

    #[test]
    fn a_key_too_deep_for_toml_is_located_at_the_key() {
        let keys = vec!["a"; 200].join(".");
        let src = format!("x = 1\n[{keys}]\ny = 2\n");
        let e = toml::from_str::<toml::Value>(&src).unwrap_err();
        let d = Diagnostic::toml("invalid registry", "claims/a.toml", &src, &e);
        assert_eq!(d.position().unwrap(), "claims/a.toml:2:2");
    }

    #[test]
    fn a_json_error_is_located_at_serdes_position() {
        let src = "{\n  \"a\": 1,\n  \"b\": tru\n}";
        let e = serde_json::from_str::<serde_json::Value>(src).unwrap_err();
        let d = Diagnostic::json("meta.json: not JSON", "r/meta.json", src, &e);
        assert_eq!(d.position().unwrap(), "r/meta.json:3:11");
        assert!(!d.message.contains("at line"), "{}", d.message);
    }

    #[test]
    fn line_cols_agree_with_location() {
        let src = "ab\nµc\n\nxyz";
        let offsets: Vec<usize> = (0..=src.len()).rev().filter(|i| src.is_char_boundary(*i)).collect();
        let got = line_cols(src, &offsets);
        for (o, lc) in offsets.iter().zip(got) {
            let loc = Location::new("f", src, *o..*o, "");
            assert_eq!((loc.line, loc.col), lc, "offset {o}");
        }
    }

    #[test]
    fn span_past_end_is_clamped_instead_of_panicking() {
        let loc = Location::new("f", "abc", 10..20, "x");
        assert_eq!(loc.line, 1);
        assert_eq!(loc.excerpt_span, 3..3);
    }
}
