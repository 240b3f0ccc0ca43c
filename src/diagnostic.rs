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
    pub fn at(
        message: impl Into<String>,
        file: &str,
        source: &str,
        span: Range<usize>,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            message: message.into(),
            location: Some(Location::new(file, source, span, label)),
            notes: Vec::new(),
        }
    }

    /// A diagnostic pointing at one whole line of a line-oriented file (JSONL), whose text is
    /// given alone so that a large file need not be kept.
    pub fn at_line(message: impl Into<String>, file: &str, line_no: usize, line: &str, label: impl Into<String>) -> Self {
        let shown = line.trim_end_matches(['\n', '\r']);
        let span = 0..shown.len();
        Diagnostic {
            message: message.into(),
            location: Some(Location {
                file: file.to_string(),
                line: line_no,
                col: 1,
                excerpt: shown.to_string(),
                excerpt_span: span,
                label: label.into(),
            }),
            notes: Vec::new(),
        }
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

/// The largest char boundary at or below `i`.
pub fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
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
    fn span_past_end_is_clamped_instead_of_panicking() {
        let loc = Location::new("f", "abc", 10..20, "x");
        assert_eq!(loc.line, 1);
        assert_eq!(loc.excerpt_span, 3..3);
    }
}
