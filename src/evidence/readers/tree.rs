//! A JSON document read into a tree that keeps the byte span of every value, so that a
//! reader can say on which line a record or a sample is, and a malformed file is reported at
//! the place where it goes wrong. This module owns JSON syntax; it never decides what a
//! document means.
//!
//! serde_json gives values without places, and its error for a file cut short ("EOF while
//! parsing a list") names neither the list nor where it opened. Here an unclosed array or
//! object is reported at its opening bracket, and every other error at the offending text.
//! Numbers keep their text and are converted when asked, as serde_json converts them: an
//! integer that fits `i64` stays an integer, anything else is the nearest double (Rust's
//! `f64` parsing is correctly rounded, as serde_json's `float_roundtrip` is).

use std::ops::Range;

/// One JSON value and the bytes of the document it was read from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) span: Range<usize>,
    pub(crate) kind: Kind,
}

/// What a value is. A number is kept as its text (`Node::span`), read by [`Node::number`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number,
    Str(String),
    Array(Vec<Node>),
    /// Members in document order, each with the span of its key.
    Object(Vec<Member>),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Member {
    pub(crate) key: String,
    pub(crate) key_span: Range<usize>,
    pub(crate) value: Node,
}

/// A number as serde_json reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    Int(i64),
    Float(f64),
}

/// Why a text is not one JSON document: a message and the span it is about.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SyntaxError {
    pub(crate) message: String,
    pub(crate) span: Range<usize>,
    pub(crate) label: &'static str,
}

/// Nesting deeper than this is refused rather than risking the stack on a hostile file; no
/// harness writes more than a handful of levels.
const MAX_DEPTH: usize = 256;

/// Parses `text` as one JSON document (surrounding whitespace and a leading byte-order mark
/// allowed).
pub(crate) fn parse(text: &str) -> Result<Node, SyntaxError> {
    parse_with(text, false)
}

/// As [`parse`], taking also the words Python's `json` module writes for numbers JSON cannot
/// hold (`NaN`, `Infinity`, `-Infinity`), as numbers whose value is not finite. Only a reader
/// whose harness writes them on purpose asks for this (asv marks a skipped benchmark `NaN`).
pub(crate) fn parse_python(text: &str) -> Result<Node, SyntaxError> {
    parse_with(text, true)
}

fn parse_with(text: &str, python: bool) -> Result<Node, SyntaxError> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut p = Parser { text, bytes: text.as_bytes(), at: start, python };
    p.skip_ws();
    if p.at >= p.bytes.len() {
        return Err(SyntaxError { message: "the file holds no JSON value".into(), span: p.at..p.at, label: "empty" });
    }
    let node = p.value(0)?;
    p.skip_ws();
    if p.at < p.bytes.len() {
        let end = p.token_end(p.at);
        return Err(SyntaxError { message: "more text after the JSON value ends".into(), span: p.at..end, label: "after the end of the value" });
    }
    Ok(node)
}

impl Node {
    /// The member `key` of an object (the last one, where a key repeats, as serde_json reads it).
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Object(members) => members.iter().rev().find(|m| m.key == key).map(|m| &m.value),
            _ => None,
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null)
    }

    pub(crate) fn as_array(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(members) => Some(members),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a number, where it is one; `text` is the document.
    pub(crate) fn number(&self, text: &str) -> Option<Number> {
        match self.kind {
            Kind::Number => Some(read_number(&text[self.span.clone()])),
            _ => None,
        }
    }

    /// The value as a double, where it is a number.
    pub(crate) fn f64(&self, text: &str) -> Option<f64> {
        self.number(text).map(|n| match n {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        })
    }

    /// What the value is, for messages: "a string", "an array", ….
    pub(crate) fn what(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Number => "a number",
            Kind::Str(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Object(_) => "an object",
        }
    }
}

/// A number's text as serde_json reads it: an integer that fits `i64` as one, an integer that
/// fits only `u64` as its double, anything else as the nearest double.
fn read_number(text: &str) -> Number {
    if !text.contains(['.', 'e', 'E'])
        && let Ok(i) = text.parse::<i64>()
    {
        return Number::Int(i);
    }
    // The text passed the JSON number grammar, which Rust's parser accepts whole.
    Number::Float(text.parse::<f64>().unwrap_or(f64::NAN))
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    /// Whether Python's `NaN`, `Infinity` and `-Infinity` are numbers ([`parse_python`]).
    python: bool,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.at < self.bytes.len() && matches!(self.bytes[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    /// The end of the word starting at `from`, to underline an unexpected token whole.
    fn token_end(&self, from: usize) -> usize {
        let mut end = from;
        while end < self.bytes.len() && !matches!(self.bytes[end], b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b':') {
            end += 1;
        }
        if end == from {
            end = (from + 1).min(self.bytes.len());
        }
        // Never cut a character in two.
        while end < self.bytes.len() && !self.text.is_char_boundary(end) {
            end += 1;
        }
        end
    }

    fn unexpected(&self, expected: &str) -> SyntaxError {
        if self.at >= self.bytes.len() {
            return SyntaxError { message: format!("the file ends where {expected} was expected"), span: self.at..self.at, label: "the file ends here" };
        }
        let end = self.token_end(self.at);
        SyntaxError { message: format!("expected {expected}, found `{}`", &self.text[self.at..end]), span: self.at..end, label: "unexpected" }
    }

    fn value(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        if depth > MAX_DEPTH {
            return Err(SyntaxError { message: format!("values nested deeper than {MAX_DEPTH} levels"), span: self.at..self.at + 1, label: "too deep" });
        }
        let start = self.at;
        match self.bytes.get(self.at) {
            None => Err(self.unexpected("a value")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                let s = self.string()?;
                Ok(Node { span: start..self.at, kind: Kind::Str(s) })
            }
            Some(b'N' | b'I' | b'-') if self.python && self.non_finite() => {
                let word = ["NaN", "Infinity", "-Infinity"].into_iter().find(|w| self.text[self.at..].starts_with(w)).map_or(0, str::len);
                self.at += word;
                Ok(Node { span: start..self.at, kind: Kind::Number })
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", Kind::Bool(true)),
            Some(b'f') => self.literal("false", Kind::Bool(false)),
            Some(b'n') => self.literal("null", Kind::Null),
            Some(_) => Err(self.unexpected("a value")),
        }
    }

    /// Whether Python's word for a number that is not finite starts here, whole.
    fn non_finite(&self) -> bool {
        let rest = &self.text[self.at..];
        ["NaN", "Infinity", "-Infinity"].into_iter().any(|w| rest.starts_with(w) && !rest[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
    }

    fn literal(&mut self, word: &str, kind: Kind) -> Result<Node, SyntaxError> {
        let start = self.at;
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(Node { span: start..self.at, kind })
        } else {
            Err(self.unexpected("a value"))
        }
    }

    fn number(&mut self) -> Result<Node, SyntaxError> {
        let start = self.at;
        let b = self.bytes;
        let mut i = self.at;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits = |i: &mut usize| {
            let from = *i;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            *i - from
        };
        let int_start = i;
        let n_int = digits(&mut i);
        let bad = |this: &Self| {
            let end = this.token_end(start);
            SyntaxError { message: format!("`{}` is not a JSON number", &this.text[start..end]), span: start..end, label: "not a number" }
        };
        if n_int == 0 || (n_int > 1 && b[int_start] == b'0') {
            return Err(bad(self));
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if digits(&mut i) == 0 {
                return Err(bad(self));
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if digits(&mut i) == 0 {
                return Err(bad(self));
            }
        }
        if i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
            return Err(bad(self));
        }
        self.at = i;
        Ok(Node { span: start..i, kind: Kind::Number })
    }

    /// A string; `self.at` is at its opening quote.
    fn string(&mut self) -> Result<String, SyntaxError> {
        let start = self.at;
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            match self.bytes.get(i) {
                None => {
                    return Err(SyntaxError {
                        message: "this string is never closed (the file ends first)".into(),
                        span: start..self.token_end(start),
                        label: "string opens here",
                    });
                }
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i += 2;
                }
                Some(c) if *c < 0x20 => {
                    let what = if *c == b'\n' { "a line break" } else { "a control character" };
                    return Err(SyntaxError {
                        message: format!("{what} inside a string (a string must be closed on its line, or the character escaped)"),
                        span: start..i,
                        label: "this string",
                    });
                }
                Some(_) => i += 1,
            }
        }
        let raw = &self.text[start..=i];
        self.at = i + 1;
        if !escaped {
            return Ok(raw[1..raw.len() - 1].to_string());
        }
        // Escapes are rare in harness output; serde_json decodes them, surrogate pairs included.
        serde_json::from_str::<String>(raw).map_err(|e| SyntaxError {
            message: format!("bad escape in a string: {}", strip_position(&e.to_string())),
            span: start..i + 1,
            label: "this string",
        })
    }

    fn array(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let open = self.at;
        self.at += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.at) == Some(&b']') {
            self.at += 1;
            return Ok(Node { span: open..self.at, kind: Kind::Array(items) });
        }
        loop {
            self.skip_ws();
            if self.at >= self.bytes.len() {
                return Err(unclosed(open, "array"));
            }
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.bytes.get(self.at) {
                Some(b',') => {
                    self.at += 1;
                    self.skip_ws();
                    if self.bytes.get(self.at) == Some(&b']') {
                        return Err(SyntaxError { message: "a comma before `]` (JSON allows no trailing comma)".into(), span: self.at - 1..self.at, label: "trailing comma" });
                    }
                }
                Some(b']') => {
                    self.at += 1;
                    return Ok(Node { span: open..self.at, kind: Kind::Array(items) });
                }
                None => return Err(unclosed(open, "array")),
                Some(_) => return Err(self.unexpected("`,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let open = self.at;
        self.at += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.at) == Some(&b'}') {
            self.at += 1;
            return Ok(Node { span: open..self.at, kind: Kind::Object(members) });
        }
        loop {
            self.skip_ws();
            match self.bytes.get(self.at) {
                None => return Err(unclosed(open, "object")),
                Some(b'"') => {}
                Some(_) => return Err(self.unexpected("a key in double quotes")),
            }
            let key_start = self.at;
            let key = self.string()?;
            let key_span = key_start..self.at;
            self.skip_ws();
            match self.bytes.get(self.at) {
                Some(b':') => self.at += 1,
                None => return Err(unclosed(open, "object")),
                Some(_) => return Err(self.unexpected("`:`")),
            }
            self.skip_ws();
            if self.at >= self.bytes.len() {
                return Err(unclosed(open, "object"));
            }
            let value = self.value(depth + 1)?;
            members.push(Member { key, key_span, value });
            self.skip_ws();
            match self.bytes.get(self.at) {
                Some(b',') => {
                    self.at += 1;
                    self.skip_ws();
                    if self.bytes.get(self.at) == Some(&b'}') {
                        return Err(SyntaxError { message: "a comma before `}` (JSON allows no trailing comma)".into(), span: self.at - 1..self.at, label: "trailing comma" });
                    }
                }
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Node { span: open..self.at, kind: Kind::Object(members) });
                }
                None => return Err(unclosed(open, "object")),
                Some(_) => return Err(self.unexpected("`,` or `}`")),
            }
        }
    }
}

/// The file ended inside a container: say where the container opened, which is where the
/// missing part belongs to, rather than at the end of the file.
fn unclosed(open: usize, what: &str) -> SyntaxError {
    SyntaxError {
        message: format!("the file ends inside the {what} that opens here: the {what} is never closed (the file is cut short?)"),
        span: open..open + 1,
        label: "opens here",
    }
}

/// serde_json's message without its own " at line 1 column 7", which is about the excerpt it
/// was given, not the file.
fn strip_position(message: &str) -> &str {
    message.rfind(" at line ").map_or(message, |i| &message[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_spans() {
        let text = "{\"a\": [1, 2.5, \"x\"], \"b\": null}";
        let doc = parse(text).unwrap();
        let a = doc.get("a").unwrap().as_array().unwrap();
        assert_eq!(&text[a[1].span.clone()], "2.5");
        assert_eq!(a[0].number(text), Some(Number::Int(1)));
        assert_eq!(a[1].number(text), Some(Number::Float(2.5)));
        assert_eq!(a[2].as_str(), Some("x"));
        assert_eq!(doc.get("b").unwrap().kind, Kind::Null);
    }

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        let text = "[9223372036854775807, 18446744073709551615, 0.30000000000000004, -0, 1e400]";
        let doc = parse(text).unwrap();
        let n: Vec<Number> = doc.as_array().unwrap().iter().map(|v| v.number(text).unwrap()).collect();
        assert_eq!(n[0], Number::Int(i64::MAX));
        assert_eq!(n[1], Number::Float(18446744073709551615.0));
        assert_eq!(n[2], Number::Float(0.1 + 0.2));
        assert_eq!(n[3], Number::Int(0));
        assert_eq!(n[4], Number::Float(f64::INFINITY));
    }

    #[test]
    fn escapes_are_decoded() {
        let doc = parse(r#"["a\"b\u00e9\ud83d\ude00"]"#).unwrap();
        assert_eq!(doc.as_array().unwrap()[0].as_str(), Some("a\"bé😀"));
    }

    #[test]
    fn an_unclosed_array_is_reported_at_its_opening() {
        let text = "[\n  {\"a\": 1},\n  {\"a\": 2}\n";
        let err = parse(text).unwrap_err();
        assert_eq!(err.span, 0..1);
        assert!(err.message.contains("never closed"), "{}", err.message);
        let text = "{\"x\": [1, 2";
        assert_eq!(parse(text).unwrap_err().span, 6..7);
    }

    #[test]
    fn syntax_errors_point_at_the_offending_text() {
        let cases = [
            ("[1, 2,]", 5..6, "trailing comma"),
            ("[1 2]", 3..4, "expected `,` or `]`, found `2`"),
            ("{\"a\" 1}", 5..6, "expected `:`"),
            ("{a: 1}", 1..2, "a key in double quotes"),
            ("[01]", 1..3, "`01` is not a JSON number"),
            ("[1.]", 1..3, "not a JSON number"),
            ("[NaN]", 1..4, "expected a value, found `NaN`"),
            ("[1] x", 4..5, "more text after"),
            ("[\"a\nb\"]", 1..3, "line break inside a string"),
            ("", 0..0, "no JSON value"),
            ("[tru]", 1..4, "expected a value"),
        ];
        for (text, span, message) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.message.contains(message), "{text:?}: {}", err.message);
            assert_eq!(err.span, span, "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_without_overflowing_the_stack() {
        let text = "[".repeat(100_000);
        assert!(parse(&text).unwrap_err().message.contains("nested deeper"));
    }

    #[test]
    fn multibyte_text_never_splits_a_character() {
        let err = parse("[µs]").unwrap_err();
        assert_eq!(err.span, 1..4);
    }
}
