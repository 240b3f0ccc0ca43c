//! JSONL evidence files read once and kept small: one JSON object a line, with every line's
//! text kept for diagnostics. This module owns parsing and looking up fields; it knows nothing
//! of what the fields mean.
//!
//! A run's samples file holds up to millions of lines, and a map of owned keys and values per
//! line costs about a kilobyte each. So a line's fields are kept as `(key, scalar)` pairs in one
//! array shared by the whole file, with keys and string values interned: the same name read a
//! million times is stored once. Objects and arrays nested in a line (a trace task's `deps`)
//! are not kept as fields; a record that needs them is deserialised from its line's text
//! ([`Jsonl::record_as`]). Numbers are parsed correctly rounded (serde_json's
//! `float_roundtrip`), so a value read here is the value written in the file.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::scan::{self, Token, same_bytes, skip_ws};
use crate::diagnostic::Diagnostic;
use crate::stats::{SampleError, Samples};

/// A parsed JSONL file.
pub struct Jsonl {
    pub path: String,
    text: String,
    pub records: Vec<Record>,
    symbols: Symbols,
    fields: Vec<(u32, Scalar)>,
    /// Per key asked for by [`Jsonl::select`], the records of each of its string values, in
    /// file order: made on the first selection by that key, so that the checks' selections
    /// (dozens on one samples file) each visit only the records of their rarest string. (An
    /// `Arc`, not an `Rc`, only so that a file parsed on another core can be handed over.)
    postings: RefCell<FxHashMap<u32, Arc<FxHashMap<u32, Vec<u32>>>>>,
}

/// One line of a JSONL file.
#[derive(Debug, Clone)]
pub struct Record {
    /// 1-based line number.
    pub line: usize,
    span: Range<usize>,
    fields: Range<usize>,
}

/// A field's value. Strings are interned in their file; nested objects and arrays are only
/// marked, and read through [`Jsonl::record_as`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Str(u32),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    Nested,
}

/// A field name of one file, looked up once and then compared as a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key(u32);

impl fmt::Debug for Jsonl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Jsonl {{ path: {:?}, records: {} }}", self.path, self.records.len())
    }
}

impl Jsonl {
    /// Parses `bytes`; a line that is not a JSON object (truncated, or not JSON at all) is an
    /// error naming the file and the line. Blank lines are allowed only at the end.
    pub fn parse(path: &str, bytes: &[u8]) -> Result<Jsonl, Diagnostic> {
        Jsonl::from_vec(path, bytes.to_vec())
    }

    /// As [`Jsonl::parse`], taking the bytes without a copy.
    ///
    /// A large file is read on every core: it is cut at line starts, each piece is parsed on
    /// its own, and the pieces' symbols are merged. Should any piece fail, the whole file is
    /// read again in one piece, so that the error names the same line it would have.
    pub fn from_vec(path: &str, bytes: Vec<u8>) -> Result<Jsonl, Diagnostic> {
        let text = String::from_utf8(bytes).map_err(|e| Diagnostic::not_utf8(path, e.as_bytes(), e.utf8_error().valid_up_to()))?;
        let cuts = cuts(&text, std::thread::available_parallelism().map_or(1, |n| n.get()));
        if cuts.len() > 2 {
            let pieces: Vec<Result<Piece, Diagnostic>> = std::thread::scope(|scope| {
                let handles: Vec<_> = cuts
                    .windows(2)
                    .map(|w| (w[0], w[1]))
                    .map(|(a, b)| {
                        scope.spawn({
                            let text = &text;
                            move || Piece::parse(path, &text[a..b], a)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(Diagnostic::plain(format!("{path}: a reader thread failed"))))).collect()
            });
            if let Ok(pieces) = pieces.into_iter().collect::<Result<Vec<_>, _>>()
                && let Some(merged) = Piece::merge(pieces)
            {
                return Ok(Jsonl { path: path.to_string(), text, records: merged.records, symbols: merged.symbols, fields: merged.fields, postings: RefCell::default() });
            }
        }
        let piece = Piece::parse(path, &text, 0)?;
        Ok(Jsonl { path: path.to_string(), text, records: piece.records, symbols: piece.symbols, fields: piece.fields, postings: RefCell::default() })
    }

    /// One line of `path` read alone, exactly as the whole-file read reads it at `line_no`:
    /// `None` for a blank line, else a table of one record at that line, whose errors (of the
    /// line, or of its samples) name `line_no` as the whole read would. The columnar reader
    /// ([`crate::evidence::columns`]) reads lines it does not take apart itself through this.
    pub fn parse_line(path: &str, line_no: usize, line: &str) -> Result<Option<Jsonl>, Diagnostic> {
        let body = line.trim_end_matches(['\n', '\r']);
        if body.trim().is_empty() {
            return Ok(None);
        }
        let mut symbols = Symbols::default();
        let mut fields = Vec::new();
        if !FastLine::default().read(body, 0..body.len(), &mut symbols, &mut fields) {
            parse_body(path, line_no, body, &mut symbols, &mut fields)?;
        }
        let record = Record { line: line_no, span: 0..body.len(), fields: 0..fields.len() };
        Ok(Some(Jsonl { path: path.to_string(), text: body.to_string(), records: vec![record], symbols, fields, postings: RefCell::default() }))
    }

    /// The text of a record's line, for diagnostics.
    pub fn line_text(&self, record: &Record) -> &str {
        self.text[record.span.clone()].trim_end_matches(['\n', '\r'])
    }

    /// A diagnostic pointing at a record's line.
    pub fn error_at(&self, record: &Record, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic::at_line(format!("{}: line {}: {}", self.path, record.line, message.into()), &self.path, record.line, self.line_text(record), label)
    }

    /// The key `name`, if any line of the file has it.
    pub fn key(&self, name: &str) -> Option<Key> {
        self.symbols.ids.get(name).map(|id| Key(*id))
    }

    /// A record's value of `key`; the last one where a line repeats a key, as JSON readers do.
    pub fn value(&self, record: &Record, key: Key) -> Option<Scalar> {
        self.fields[record.fields.clone()].iter().rev().find(|(k, _)| *k == key.0).map(|(_, v)| *v)
    }

    /// Every field name some record has, sorted: what `suggest` tries as a field or a selector.
    pub fn field_names(&self) -> Vec<&str> {
        let ids: std::collections::BTreeSet<u32> = self.fields.iter().map(|(k, _)| *k).collect();
        let mut names: Vec<&str> = ids.into_iter().map(|id| &*self.symbols.names[id as usize]).collect();
        names.sort_unstable();
        names
    }

    /// A record's value of the field `name`.
    pub fn get(&self, record: &Record, name: &str) -> Option<Scalar> {
        self.value(record, self.key(name)?)
    }

    /// The text of an interned string.
    pub fn str(&self, value: Scalar) -> Option<&str> {
        match value {
            Scalar::Str(id) => Some(&self.symbols.names[id as usize]),
            _ => None,
        }
    }

    /// A value as text: a string as it is, anything else as JSON writes it.
    pub fn text_of(&self, value: Option<Scalar>) -> String {
        match value {
            None => String::new(),
            Some(Scalar::Str(id)) => self.symbols.names[id as usize].to_string(),
            Some(Scalar::Int(i)) => i.to_string(),
            Some(Scalar::Float(f)) => serde_json::Number::from_f64(f).map_or_else(|| f.to_string(), |n| n.to_string()),
            Some(Scalar::Bool(b)) => b.to_string(),
            Some(Scalar::Null) => "null".into(),
            Some(Scalar::Nested) => "…".into(),
        }
    }

    /// Whether a value equals a TOML value from a registry's `select`.
    pub fn equals_toml(&self, value: Scalar, toml: &toml::Value) -> bool {
        match (value, toml) {
            (Scalar::Str(_), toml::Value::String(b)) => self.str(value) == Some(b.as_str()),
            (Scalar::Bool(a), toml::Value::Boolean(b)) => a == *b,
            (Scalar::Int(a), toml::Value::Integer(b)) => a == *b,
            (Scalar::Float(a), toml::Value::Integer(b)) => a == *b as f64,
            (Scalar::Int(a), toml::Value::Float(b)) => a as f64 == *b,
            (Scalar::Float(a), toml::Value::Float(b)) => a == *b,
            _ => false,
        }
    }

    /// The records whose fields equal every entry of `select`, in file order.
    pub fn select<'a>(&'a self, select: &BTreeMap<String, toml::Value>) -> Vec<&'a Record> {
        let mut wanted = Vec::with_capacity(select.len());
        for (name, value) in select {
            match self.key(name) {
                Some(k) => wanted.push((k, value, self.symbols.ids.get(value.as_str().unwrap_or_default()).copied())),
                None => return Vec::new(),
            }
        }
        // A string is compared by its symbol: every string of the file is interned, so a value
        // equals the wanted text exactly when it is that symbol (and no string equals a text
        // the file never holds). Other values are compared as `equals_toml` compares them.
        let matches = |value: Scalar, toml: &toml::Value, symbol: Option<u32>| match (value, toml) {
            (Scalar::Str(id), toml::Value::String(_)) => symbol == Some(id),
            _ => self.equals_toml(value, toml),
        };
        let keep = |r: &&Record| wanted.iter().all(|(k, v, symbol)| self.value(r, *k).is_some_and(|j| matches(j, v, *symbol)));
        // The candidates: the records of the rarest wanted string, or every record where no
        // string is wanted.
        let mut rarest: Option<(Arc<FxHashMap<u32, Vec<u32>>>, u32)> = None;
        for (k, v, symbol) in &wanted {
            if !v.is_str() {
                continue;
            }
            let Some(symbol) = symbol else { return Vec::new() };
            let postings = self.postings(*k);
            let n = postings.get(symbol).map_or(0, Vec::len);
            if n == 0 {
                return Vec::new();
            }
            if rarest.as_ref().is_none_or(|(p, s)| n < p[s].len()) {
                rarest = Some((postings, *symbol));
            }
        }
        match rarest {
            Some((postings, symbol)) => postings[&symbol].iter().map(|&i| &self.records[i as usize]).filter(keep).collect(),
            None => self.records.iter().filter(keep).collect(),
        }
    }

    /// The records of each string value of `key`, by the value's symbol (see `postings`).
    fn postings(&self, key: Key) -> Arc<FxHashMap<u32, Vec<u32>>> {
        if let Some(hit) = self.postings.borrow().get(&key.0) {
            return hit.clone();
        }
        let mut made: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for (i, record) in self.records.iter().enumerate() {
            if let Some(Scalar::Str(id)) = self.value(record, key) {
                made.entry(id).or_default().push(i as u32);
            }
        }
        let made = Arc::new(made);
        self.postings.borrow_mut().insert(key.0, made.clone());
        made
    }

    /// A record deserialised from its line, as `T`; an error is located at the line.
    ///
    /// The line is read by the fast typed reader (`scan::from_line`) when it is sure of it,
    /// and by serde_json otherwise: the value is the same either way, and an error is always
    /// serde_json's.
    pub fn record_as<T: DeserializeOwned>(&self, record: &Record, what: &str) -> Result<T, Diagnostic> {
        let line = self.line_text(record);
        if let Some(value) = scan::from_line(line) {
            return Ok(value);
        }
        serde_json::from_str(line).map_err(|e| self.error_at(record, format!("not {what}: {e}"), "here"))
    }

    /// The numeric `field` of every record in `selected`, as a validated sample. A record
    /// without the field, or with a value that is not a finite non-negative number, is an
    /// error at its line.
    pub fn samples(&self, selected: &[&Record], field: &str) -> Result<Samples, Diagnostic> {
        let values = self.values(selected, field)?;
        Samples::new(values).map_err(|e| match e {
            SampleError::Empty => Diagnostic::plain(format!("{}: no samples selected", self.path)),
            SampleError::NotFinite { index, value } | SampleError::Negative { index, value } => self.not_a_sample(selected[index], field, value),
        })
    }

    /// The numeric `field` of each selected record, in the records' order (a slope pairs them
    /// with another field's), each finite and not negative, or the error at the first record
    /// that breaks that.
    pub fn values(&self, selected: &[&Record], field: &str) -> Result<Vec<f64>, Diagnostic> {
        let key = self.key(field);
        let mut values = Vec::with_capacity(selected.len());
        for record in selected {
            let value = match key.and_then(|k| self.value(record, k)) {
                None => return Err(self.missing(record, field)),
                Some(Scalar::Int(i)) => i as f64,
                Some(Scalar::Float(f)) => f,
                Some(other) => {
                    return Err(self.error_at(record, format!("`{field}` is {}, not a number", self.text_of(Some(other))), "not a number"));
                }
            };
            if !value.is_finite() || value < 0.0 {
                return Err(self.not_a_sample(record, field, value));
            }
            values.push(value);
        }
        Ok(values)
    }

    /// The error for a value no sample may take: not finite, or negative.
    pub fn not_a_sample(&self, record: &Record, field: &str, value: f64) -> Diagnostic {
        let what = if value.is_finite() { "negative" } else { "not finite" };
        self.error_at(record, format!("`{field}` is {what} ({value})"), what)
    }

    /// The error for a selected record without `field`. A record a harness marked failed
    /// (`"error_occurred": true`, as Google Benchmark writes for a repetition that measured
    /// nothing) says so, with the harness's reason and the filter that leaves such records out,
    /// since the plain "no field" would send the user looking for a misspelt name.
    fn missing(&self, record: &Record, field: &str) -> Diagnostic {
        if self.get(record, "error_occurred") != Some(Scalar::Bool(true)) {
            return self.error_at(record, format!("no `{field}` in this sample"), "field missing");
        }
        let reason = match self.get(record, "error_message") {
            Some(m) => format!(" (`error_message`: {:?})", self.text_of(Some(m))),
            None => String::new(),
        };
        self.error_at(
            record,
            format!(
                "no `{field}` in this sample: it records `\"error_occurred\": true`{reason}, a failed measurement with no time; leave such samples out with `where = \"error_occurred != true\"`"
            ),
            "a failed measurement",
        )
    }

    /// The records grouped by the values of the fields `by` (as text; a missing field is
    /// empty), in sorted group order.
    pub fn groups(&self, by: &[String]) -> BTreeMap<Vec<String>, Vec<&Record>> {
        let keys: Vec<Option<Key>> = by.iter().map(|k| self.key(k)).collect();
        // Grouping on the interned values keeps the per-line work to comparing numbers, and
        // one scratch key serves every line.
        let mut index: rustc_hash::FxHashMap<Vec<Option<Scalar>>, usize> = rustc_hash::FxHashMap::default();
        let mut members: Vec<Vec<&Record>> = Vec::new();
        let mut scratch: Vec<Option<Scalar>> = Vec::with_capacity(keys.len());
        for record in &self.records {
            scratch.clear();
            scratch.extend(keys.iter().map(|k| k.and_then(|k| self.value(record, k))));
            let group = match index.get(scratch.as_slice()) {
                Some(g) => *g,
                None => {
                    index.insert(scratch.clone(), members.len());
                    members.push(Vec::new());
                    members.len() - 1
                }
            };
            members[group].push(record);
        }
        index.into_iter().map(|(key, g)| (key.into_iter().map(|v| self.text_of(v)).collect(), std::mem::take(&mut members[g]))).collect()
    }
}

// Grouping hashes values; a float is hashed by its bits, so equal bits group together.
impl Eq for Scalar {}

impl std::hash::Hash for Scalar {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Scalar::Str(id) => id.hash(state),
            Scalar::Int(i) => i.hash(state),
            Scalar::Float(f) => f.to_bits().hash(state),
            Scalar::Bool(b) => b.hash(state),
            Scalar::Null | Scalar::Nested => {}
        }
    }
}

/// Where to cut `text` for `cores` readers: line starts, first 0 and last the length. A file
/// under 4 MiB is read in one piece, where threads would cost more than they save.
fn cuts(text: &str, cores: usize) -> Vec<usize> {
    let pieces = if text.len() < 4 << 20 { 1 } else { cores.clamp(1, 8) };
    let mut out = vec![0];
    for i in 1..pieces {
        let at = text.len() * i / pieces;
        if let Some(nl) = text[at..].find('\n') {
            let cut = at + nl + 1;
            if cut > *out.last().unwrap_or(&0) && cut < text.len() {
                out.push(cut);
            }
        }
    }
    out.push(text.len());
    out
}

/// A run of whole lines parsed on its own: line numbers count from its first line.
struct Piece {
    records: Vec<Record>,
    fields: Vec<(u32, Scalar)>,
    symbols: Symbols,
    lines: usize,
    /// The first of the blank lines that end the piece, if it ends with any.
    trailing_blank: Option<usize>,
}

impl Piece {
    /// Parses `text`, which starts at byte `base` of the file.
    fn parse(path: &str, text: &str, base: usize) -> Result<Piece, Diagnostic> {
        Piece::parse_with(path, text, base, true)
    }

    /// As [`Piece::parse`]; `fast` is `false` only where the fast reader is compared with
    /// serde's ([`fast_agrees_with_serde`]).
    fn parse_with(path: &str, text: &str, base: usize, fast: bool) -> Result<Piece, Diagnostic> {
        let mut symbols = Symbols::default();
        let mut fields = Vec::new();
        // One record a line: reserving for all of them at once spares the copies of a growing
        // vector, which on a file of a few hundred kilobytes cost as much as the parse.
        let mut records = Vec::with_capacity(memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1);
        let mut reader = FastLine::default();
        let mut offset = base;
        let mut blank_at = None;
        let mut lines = 0;
        for (idx, line) in text.split_inclusive('\n').enumerate() {
            let line_no = idx + 1;
            lines = line_no;
            let span = offset..offset + line.len();
            let local = offset - base;
            offset += line.len();
            let body = line.trim_end_matches(['\n', '\r']);
            if body.trim().is_empty() {
                blank_at.get_or_insert(line_no);
                continue;
            }
            if let Some(blank) = blank_at {
                return Err(Diagnostic::at_line(format!("{path}: line {blank} is blank inside the file"), path, blank, "", "blank line"));
            }
            let start = fields.len();
            if !(fast && reader.read(text, local..local + body.len(), &mut symbols, &mut fields)) {
                parse_body(path, line_no, body, &mut symbols, &mut fields)?;
            }
            if records.is_empty() {
                // Lines of one file tend to have the same fields: as many as the first has.
                fields.reserve((fields.len() - start) * records.capacity());
            }
            records.push(Record { line: line_no, span, fields: start..fields.len() });
        }
        Ok(Piece { records, fields, symbols, lines, trailing_blank: blank_at })
    }

    /// The pieces of one file as one, in order; `None` when a piece that ends in blank lines is
    /// followed by records (a blank line inside the file, which a whole read reports).
    fn merge(pieces: Vec<Piece>) -> Option<Piece> {
        let mut iter = pieces.into_iter();
        let mut whole = iter.next()?;
        for piece in iter {
            if whole.trailing_blank.is_some() && !piece.records.is_empty() {
                return None;
            }
            let ids: Vec<u32> = piece.symbols.names.iter().map(|n| whole.symbols.intern(n)).collect();
            let field_base = whole.fields.len();
            whole.fields.extend(piece.fields.into_iter().map(|(k, v)| {
                let v = match v {
                    Scalar::Str(id) => Scalar::Str(ids[id as usize]),
                    other => other,
                };
                (ids[k as usize], v)
            }));
            let line_base = whole.lines;
            whole.records.extend(piece.records.into_iter().map(|r| Record {
                line: r.line + line_base,
                span: r.span,
                fields: r.fields.start + field_base..r.fields.end + field_base,
            }));
            whole.lines += piece.lines;
            if !whole.records.is_empty() || piece.trailing_blank.is_some() {
                whole.trailing_blank = piece.trailing_blank.map(|b| b + line_base);
            }
        }
        Some(whole)
    }
}

/// The fast reader of one line, without serde: a line it is sure of (an object whose keys and
/// strings have no escapes, whose numbers it reads to serde_json's bits, with no key twice; see
/// [`super::scan`]) is read into the same fields and symbols, in the same order, as
/// [`parse_body`] reads it. Any other line is left to [`parse_body`], which decides what it
/// means and how its error reads, so that both readers give one result.
///
/// Its line walker ([`scan::Members`]) keeps the keys of the line before with their symbols,
/// and the reader keeps the line before's string values, as ranges of the text it reads: lines
/// of one file mostly repeat the keys and many of the values of the line before, so a key or
/// value found in place is neither hashed nor interned again.
struct FastLine {
    /// The line walker, each key of the shape it keeps tagged with its symbol.
    members: scan::Members<u32>,
    /// Per position in the last line, its string value and symbol, if it had a string there.
    strings: Vec<Option<(Range<usize>, u32)>>,
    /// The current line's values, each with its key's symbol where the walker knew it.
    tokens: Vec<(Option<u32>, Token)>,
}

impl Default for FastLine {
    fn default() -> FastLine {
        FastLine { members: scan::Members::new(), strings: Vec::new(), tokens: Vec::new() }
    }
}

impl FastLine {
    /// Reads the line at `body` of `text` into `fields`; `false`, with nothing added, where
    /// [`parse_body`] must read it.
    fn read(&mut self, text: &str, body: Range<usize>, symbols: &mut Symbols, fields: &mut Vec<(u32, Scalar)>) -> bool {
        let b = &text.as_bytes()[..body.end];
        self.tokens.clear();
        let tokens = &mut self.tokens;
        let walked = self.members.walk(b, body.start, |_, _, id, start| {
            let (token, end) = scan::value(b, start)?;
            tokens.push((id, token));
            Some(end)
        });
        let same_keys = match walked {
            Some((end, same_keys)) if skip_ws(b, end) == b.len() => same_keys,
            _ => return false,
        };
        if !same_keys && self.members.repeats_a_key(b) {
            // A repeated key is serde's error to give.
            self.members.forget_shape();
            self.strings.clear();
            return false;
        }
        let start = fields.len();
        for (n, ((id, token), &(ka, ke))) in self.tokens.iter().zip(self.members.keys()).enumerate() {
            // Both ends of every range are at a quote, so slicing the text cannot split a
            // character.
            let key = id.unwrap_or_else(|| symbols.intern(&text[ka..ke]));
            let value = match *token {
                Token::Str(a, e) => Scalar::Str(match self.strings.get(n) {
                    Some(Some((was, id))) if same_bytes(&b[a..e], &b[was.clone()]) => *id,
                    _ => symbols.intern(&text[a..e]),
                }),
                Token::Int(i) => Scalar::Int(i),
                Token::Float(f) => Scalar::Float(f),
                Token::Bool(v) => Scalar::Bool(v),
                Token::Null => Scalar::Null,
                Token::Nested => Scalar::Nested,
            };
            fields.push((key, value));
        }
        let line = &fields[start..];
        if !same_keys {
            self.members.keep_shape(b, line.iter().map(|(k, _)| *k));
        }
        self.strings.clear();
        self.strings.extend(self.tokens.iter().zip(line).map(|((_, token), (_, v))| match (token, v) {
            (Token::Str(a, e), Scalar::Str(id)) => Some((*a..*e, *id)),
            _ => None,
        }));
        true
    }
}

/// Reads the non-blank line `body` (its terminator trimmed), line `line_no` of `path`, into
/// `fields`: the one place that decides what a line may hold and how its error reads.
fn parse_body(path: &str, line_no: usize, body: &str, symbols: &mut Symbols, fields: &mut Vec<(u32, Scalar)>) -> Result<(), Diagnostic> {
    let start = fields.len();
    let mut de = serde_json::Deserializer::from_str(body);
    let object = LineSeed { symbols, out: fields, start }.deserialize(&mut de).and_then(|o| de.end().map(|()| o)).map_err(|e| {
        let what = if e.is_eof() {
            "truncated JSON"
        } else if e.is_data() {
            "not a record"
        } else {
            "not valid JSON"
        };
        Diagnostic::at_line(format!("{path}: line {line_no}: {what}: {e}"), path, line_no, body, what).at_column(body, e.column())
    })?;
    if !object {
        return Err(Diagnostic::at_line(format!("{path}: line {line_no}: expected a JSON object"), path, line_no, body, "not an object"));
    }
    Ok(())
}

/// Interned names: keys and string values of one file. The map hashes with FxHash: a dozen
/// lookups a line make the hash the largest cost of reading a big file, and these keys come
/// from our own evidence files, not from an adversary.
#[derive(Default)]
struct Symbols {
    ids: rustc_hash::FxHashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
}

impl Symbols {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(id) = self.ids.get(s) {
            return *id;
        }
        let id = self.names.len() as u32;
        self.names.push(s.into());
        self.ids.insert(s.into(), id);
        id
    }
}

/// Reads one line into `out`, whose fields of this line begin at `start`; yields whether it
/// was an object.
struct LineSeed<'a> {
    symbols: &'a mut Symbols,
    out: &'a mut Vec<(u32, Scalar)>,
    start: usize,
}

/// Past this many fields a line's keys are checked for repeats through a set, not a scan.
const SCAN_KEYS: usize = 32;

impl<'de> DeserializeSeed<'de> for LineSeed<'_> {
    type Value = bool;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        // A repeated key would silently let the last value win, so a sample could say two
        // things at once; it is an error at the repeat instead.
        let mut seen: Option<rustc_hash::FxHashSet<u32>> = None;
        while let Some(key) = map.next_key_seed(Intern(self.symbols))? {
            let line = &self.out[self.start..];
            let repeated = match &mut seen {
                Some(set) => !set.insert(key),
                None if line.len() < SCAN_KEYS => line.iter().any(|(k, _)| *k == key),
                None => {
                    let mut set: rustc_hash::FxHashSet<u32> = line.iter().map(|(k, _)| *k).collect();
                    let repeated = !set.insert(key);
                    seen = Some(set);
                    repeated
                }
            };
            if repeated {
                return Err(serde::de::Error::custom(format!("duplicate key `{}`", self.symbols.names[key as usize])));
            }
            let value = map.next_value_seed(ScalarSeed(self.symbols))?;
            self.out.push((key, value));
        }
        Ok(true)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }
    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }
}

/// A key, interned.
struct Intern<'a>(&'a mut Symbols);

impl<'de> DeserializeSeed<'de> for Intern<'_> {
    type Value = u32;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Intern<'_> {
    type Value = u32;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E>(self, s: &str) -> Result<u32, E> {
        Ok(self.0.intern(s))
    }
}

/// A value, as a scalar.
struct ScalarSeed<'a>(&'a mut Symbols);

impl<'de> DeserializeSeed<'de> for ScalarSeed<'_> {
    type Value = Scalar;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ScalarSeed<'_> {
    type Value = Scalar;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_str<E>(self, s: &str) -> Result<Scalar, E> {
        Ok(Scalar::Str(self.0.intern(s)))
    }
    fn visit_bool<E>(self, b: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Scalar, E> {
        Ok(Scalar::Int(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Scalar, E> {
        Ok(i64::try_from(u).map_or(Scalar::Float(u as f64), Scalar::Int))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(f))
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Nested)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Nested)
    }
}

/// Whether the fast reader and serde_json read `text` (a JSONL file at `path`) alike: the
/// same symbols, fields (floats to the bit), records and lines, or the same error at the same
/// place. `Err` says how they differ. The tests hold every JSONL file of the repository to it,
/// and the `differential` fuzz target arbitrary bytes.
pub(crate) fn fast_agrees_with_serde(path: &str, text: &str) -> Result<(), String> {
    let fast = Piece::parse_with(path, text, 0, true);
    let slow = Piece::parse_with(path, text, 0, false);
    match (&fast, &slow) {
        (Ok(a), Ok(b)) => {
            let bits = |p: &Piece| -> Vec<(u32, String)> {
                p.fields
                    .iter()
                    .map(|(k, v)| {
                        (
                            *k,
                            match v {
                                Scalar::Float(f) => format!("float {:x}", f.to_bits()),
                                other => format!("{other:?}"),
                            },
                        )
                    })
                    .collect()
            };
            let records = |p: &Piece| -> Vec<(usize, Range<usize>, Range<usize>)> { p.records.iter().map(|r| (r.line, r.span.clone(), r.fields.clone())).collect() };
            let differ = |what: &str, a: String, b: String| if a == b { Ok(()) } else { Err(format!("{path}: {what}: fast {a}, serde {b}")) };
            differ("symbols", format!("{:?}", a.symbols.names), format!("{:?}", b.symbols.names))?;
            differ("fields", format!("{:?}", bits(a)), format!("{:?}", bits(b)))?;
            differ("records", format!("{:?}", records(a)), format!("{:?}", records(b)))?;
            differ("lines", format!("{:?}", (a.lines, a.trailing_blank)), format!("{:?}", (b.lines, b.trailing_blank)))
        }
        (Err(a), Err(b)) if (&a.message, a.position(), a.render()) == (&b.message, b.position(), b.render()) => Ok(()),
        _ => Err(format!("{path}: fast {:?}, serde {:?}", fast.as_ref().err(), slow.as_ref().err())),
    }
}

/// How many of the typed records (samples, trace tasks and headers, validation records, JSON
/// values) the fast typed reader reads `line` as, each read as serde_json reads it; `Err` for
/// one it reads otherwise, or where serde_json refuses what it read.
pub(crate) fn typed_agree_with_serde(line: &str) -> Result<usize, String> {
    fn one<T: DeserializeOwned + fmt::Debug>(line: &str) -> Result<bool, String> {
        let Some(fast) = scan::from_line::<T>(line) else { return Ok(false) };
        let slow = serde_json::from_str::<T>(line).map_err(|e| format!("{line}: serde_json refuses what the fast reader read: {e}"))?;
        if format!("{fast:?}") != format!("{slow:?}") {
            return Err(format!("{line}: fast {fast:?}, serde {slow:?}"));
        }
        Ok(true)
    }
    use crate::evidence::{SampleRecord, TraceHeader, TraceTask, ValidationRecord};
    let read = [
        one::<SampleRecord>(line)?,
        one::<TraceTask>(line)?,
        one::<TraceHeader>(line)?,
        one::<ValidationRecord>(line)?,
        one::<serde_json::Value>(line)?,
        one::<BTreeMap<String, Option<serde_json::Value>>>(line)?,
        one::<Vec<serde_json::Value>>(line)?,
    ];
    Ok(read.into_iter().filter(|r| *r).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_line_is_named() {
        let err = Jsonl::parse("s.jsonl", b"{\"a\":1}\n{\"a\":\n").unwrap_err();
        assert!(err.position().unwrap().starts_with("s.jsonl:2:"), "{:?}", err.position());
        assert!(err.message.contains("truncated JSON"), "{}", err.message);
    }

    #[test]
    fn non_json_and_non_objects_are_named() {
        let err = Jsonl::parse("s.jsonl", b"{\"a\":1}\nnot json\n").unwrap_err();
        assert!(err.message.contains("line 2: not valid JSON"), "{}", err.message);
        let err = Jsonl::parse("s.jsonl", b"[1, 2]\n").unwrap_err();
        assert!(err.message.contains("line 1: expected a JSON object"), "{}", err.message);
        let err = Jsonl::parse("s.jsonl", b"{\"a\":1} x\n").unwrap_err();
        assert!(err.message.contains("line 1: not valid JSON"), "{}", err.message);
    }

    #[test]
    fn a_repeated_key_in_a_line_is_located() {
        let err = Jsonl::parse("s.jsonl", b"{\"t\":1}\n{\"t\":1,\"u\":2,\"t\":3}\n").unwrap_err();
        assert!(err.message.contains("line 2: not a record: duplicate key `t`"), "{}", err.message);
        assert!(err.position().unwrap().starts_with("s.jsonl:2:"), "{:?}", err.position());
        let many: String = (0..100).map(|i| format!("\"k{i}\":{i},")).collect();
        let line = format!("{{{many}\"k7\":0}}\n");
        let err = Jsonl::parse("s.jsonl", line.as_bytes()).unwrap_err();
        assert!(err.message.contains("duplicate key `k7`"), "{}", err.message);
        assert_eq!(Jsonl::parse("s.jsonl", format!("{{{many}\"z\":0}}\n").as_bytes()).unwrap().records.len(), 1);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_located() {
        let err = Jsonl::parse("s.jsonl", b"{\"t\":1}\n{\"t\":\"\xc3\"}\n").unwrap_err();
        assert_eq!(err.position().unwrap(), "s.jsonl:2:7");
        assert!(err.render().contains("{\"t\":\"\u{fffd}\"}"), "{}", err.render());
    }

    #[test]
    fn a_blank_line_inside_the_file_is_refused() {
        let err = Jsonl::parse("s.jsonl", b"{\"a\":1}\n\n{\"a\":2}\n").unwrap_err();
        assert!(err.message.contains("line 2 is blank inside the file"), "{}", err.message);
        assert_eq!(Jsonl::parse("s.jsonl", b"{\"a\":1}\n\n").unwrap().records.len(), 1);
    }

    #[test]
    fn negative_and_missing_values_are_located() {
        let j = Jsonl::parse("s.jsonl", b"{\"t\":1}\n{\"t\":-2}\n{\"u\":3}\n").unwrap();
        let all: Vec<&Record> = j.records.iter().collect();
        let err = j.samples(&all[..2], "t").unwrap_err();
        assert!(err.message.contains("line 2") && err.message.contains("negative"), "{}", err.message);
        let err = j.samples(&all[2..], "t").unwrap_err();
        assert!(err.message.contains("line 3: no `t`"), "{}", err.message);
    }

    #[test]
    fn selection_compares_with_toml_values_by_type() {
        let j = Jsonl::parse("s.jsonl", b"{\"v\":\"a\",\"n\":2,\"x\":1.5,\"b\":true}\n{\"v\":\"b\",\"n\":2.0}\n").unwrap();
        let select = |t: &str| -> Vec<usize> { j.select(&toml::from_str(t).unwrap()).iter().map(|r| r.line).collect() };
        assert_eq!(select("v = \"a\""), [1]);
        assert_eq!(select("n = 2"), [1, 2]);
        assert_eq!(select("x = 1.5\nb = true"), [1]);
        assert_eq!(select("v = 1"), Vec::<usize>::new());
        assert_eq!(select("missing = \"a\""), Vec::<usize>::new());
    }

    /// Selections through the records of their rarest string are the records a plain filter
    /// keeps, in file order: strings, numbers of either type, a key only some lines have, a
    /// text no line holds, and a string that is also a key.
    #[test]
    fn selection_by_postings_is_the_plain_filter() {
        let text = concat!(
            "{\"s\":\"a\",\"c\":\"x\",\"r\":1}\n",
            "{\"s\":\"b\",\"c\":\"x\",\"r\":1}\n",
            "{\"s\":\"a\",\"c\":\"y\",\"r\":2,\"p\":\"s\"}\n",
            "{\"s\":\"b\",\"c\":\"y\",\"r\":2.0}\n",
            "{\"s\":\"a\",\"c\":\"x\",\"r\":3}\n",
            "{\"c\":\"x\",\"r\":1}\n",
        );
        let j = Jsonl::parse("s.jsonl", text.as_bytes()).unwrap();
        let selections = [
            "s = \"a\"",
            "s = \"b\"",
            "s = \"a\"\nc = \"x\"",
            "c = \"y\"\nr = 2",
            "r = 1",
            "s = \"a\"\nr = 3.0",
            "s = \"z\"",
            "p = \"s\"",
            "s = \"s\"",
            "c = \"x\"\ns = \"b\"",
            "r = \"1\"",
        ];
        for t in selections {
            let select: BTreeMap<String, toml::Value> = toml::from_str(t).unwrap();
            let plain: Vec<usize> =
                j.records.iter().filter(|r| select.iter().all(|(k, v)| j.key(k).and_then(|k| j.value(r, k)).is_some_and(|x| j.equals_toml(x, v)))).map(|r| r.line).collect();
            assert_eq!(j.select(&select).iter().map(|r| r.line).collect::<Vec<_>>(), plain, "{t}");
        }
    }

    #[test]
    fn records_group_by_their_fields() {
        let j = Jsonl::parse("s.jsonl", b"{\"v\":\"a\",\"t\":1}\n{\"v\":\"b\",\"t\":5}\n{\"v\":\"a\",\"t\":3}\n").unwrap();
        let groups = j.groups(&["v".to_string()]);
        let medians: Vec<(String, f64)> = groups.iter().map(|(k, r)| (k[0].clone(), j.samples(r, "t").unwrap().median())).collect();
        assert_eq!(medians, [("a".to_string(), 2.0), ("b".to_string(), 5.0)]);
    }

    #[test]
    fn nested_values_are_read_through_the_line() {
        #[derive(serde::Deserialize)]
        struct Task {
            deps: Vec<String>,
        }
        let j = Jsonl::parse("t.jsonl", b"{\"task\":\"B:1\",\"deps\":[\"A:1\",\"A:2\"]}\n").unwrap();
        assert_eq!(j.get(&j.records[0], "deps"), Some(Scalar::Nested));
        assert_eq!(j.record_as::<Task>(&j.records[0], "a task").unwrap().deps, ["A:1", "A:2"]);
        let err = j.record_as::<Vec<u8>>(&j.records[0], "a list").unwrap_err();
        assert!(err.message.starts_with("t.jsonl: line 1: not a list"), "{}", err.message);
    }

    /// A file big enough to be read in pieces: the pieces give what one read gives, and an
    /// error in a later piece names its line in the whole file.
    #[test]
    fn a_file_read_in_pieces_is_the_file_read_whole() {
        let mut text = String::new();
        for i in 0..100_000 {
            text.push_str(&format!("{{\"case\":\"c{}\",\"round\":{i},\"t\":{}.25,\"deps\":[\"A:{i}\"]}}\n", i % 7, i % 1000));
        }
        assert!(cuts(&text, 4).len() > 2, "the test file must be cut");
        let pieces = Jsonl::parse("s.jsonl", text.as_bytes()).unwrap();
        let whole = {
            let piece = Piece::parse("s.jsonl", &text, 0).unwrap();
            Jsonl { path: "s.jsonl".into(), text: text.clone(), records: piece.records, symbols: piece.symbols, fields: piece.fields, postings: RefCell::default() }
        };
        assert_eq!(pieces.records.len(), whole.records.len());
        for (a, b) in pieces.records.iter().zip(&whole.records) {
            assert_eq!((a.line, pieces.line_text(a)), (b.line, whole.line_text(b)));
            for k in ["case", "round", "t", "deps"] {
                assert_eq!(pieces.text_of(pieces.get(a, k)), whole.text_of(whole.get(b, k)));
            }
        }
        let broken = text.replacen("\"round\":59000,", "\"round\":59000", 1);
        assert_ne!(broken, text);
        let err = Jsonl::parse("s.jsonl", broken.as_bytes()).unwrap_err();
        assert!(err.message.contains("line 59001: not valid JSON"), "{}", err.message);
        let blank = text.replacen("\n{\"case\":\"c0\",\"round\":70000", "\n\n{\"case\":\"c0\",\"round\":70000", 1);
        assert_ne!(blank, text);
        let err = Jsonl::parse("s.jsonl", blank.as_bytes()).unwrap_err();
        assert!(err.message.contains("line 70001 is blank inside the file"), "{}", err.message);
    }

    #[test]
    fn decimals_read_as_the_nearest_double() {
        // 0.1 + 0.2 written with 17 digits must read back as exactly that double.
        let j = Jsonl::parse("s.jsonl", b"{\"t\":0.30000000000000004,\"u\":24.577}\n").unwrap();
        assert_eq!(j.get(&j.records[0], "t"), Some(Scalar::Float(0.1 + 0.2)));
        assert_eq!(j.get(&j.records[0], "u"), Some(Scalar::Float(24.577)));
    }

    /// The file read with the fast line reader and with serde alone: the same records, fields
    /// (floats to the bit) and symbols in the same order, or the same diagnostic.
    fn fast_is_serde(path: &str, text: &str) {
        if let Err(e) = fast_agrees_with_serde(path, text) {
            panic!("{e}");
        }
    }

    /// Every JSONL file the repository holds: the runs' evidence, the tests' fixtures (the
    /// malformed ones included) and the fuzz seeds.
    fn repository_jsonl() -> Vec<(String, String)> {
        fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
            let Ok(entries) = std::fs::read_dir(dir) else { return };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "jsonl") {
                    // A file that is not UTF-8 is refused before any line is read.
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        out.push((path.display().to_string(), text));
                    }
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        for dir in ["evidence", "examples", "tests", "fuzz/seeds"] {
            walk(&root.join(dir), &mut out);
        }
        out
    }

    #[test]
    fn the_fast_reader_reads_the_repository_as_serde_does() {
        let files = repository_jsonl();
        assert!(files.len() > 50, "{} files", files.len());
        for (path, text) in &files {
            fast_is_serde(path, text);
        }
        // The runs' own files are what the fast reader is for: it reads every line of them.
        let runs = format!("{}/evidence/runs/", env!("CARGO_MANIFEST_DIR"));
        for (path, text) in files.iter().filter(|(p, _)| p.starts_with(&runs)) {
            let mut reader = FastLine::default();
            let (mut symbols, mut fields) = (Symbols::default(), Vec::new());
            let mut at = 0;
            for (n, line) in text.split_inclusive('\n').enumerate() {
                let body = line.trim_end_matches(['\n', '\r']);
                assert!(reader.read(text, at..at + body.len(), &mut symbols, &mut fields), "{path}:{}", n + 1);
                at += line.len();
            }
        }
    }

    /// `line` read as `T` by the fast typed reader and by serde_json: where the fast one
    /// reads it, serde_json reads the same value (compared through `Debug`, which tells -0.0
    /// from 0.0 and an integer from a float). Whether the fast one read it.
    fn every_type_is_serde(line: &str) -> usize {
        typed_agree_with_serde(line).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn typed_records_read_as_serde_json_reads_them() {
        let files = repository_jsonl();
        let mut read = 0;
        for (_, text) in &files {
            for line in text.lines() {
                read += every_type_is_serde(line);
            }
        }
        // Each line of the runs is one of the record types, and any object is a `Value`.
        assert!(read > 100_000, "{read} lines read fast");
        let runs = format!("{}/evidence/runs/", env!("CARGO_MANIFEST_DIR"));
        for (path, text) in files.iter().filter(|(p, _)| p.starts_with(&runs)) {
            for (n, line) in text.lines().enumerate() {
                // Its own record type, `Value` and the map.
                assert!(every_type_is_serde(line) >= 3, "{path}:{}: no record type read it fast", n + 1);
            }
        }
    }

    /// Lines of the real files changed at random, each change one a reader could get wrong:
    /// the fast reader must take each as serde does, or leave it to serde.
    #[test]
    fn the_fast_reader_reads_changed_lines_as_serde_does() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1515);
        let files = repository_jsonl();
        let lines: Vec<&str> = files.iter().flat_map(|(_, t)| t.lines().take(40)).collect();
        let edits: [&dyn Fn(&str, usize) -> String; 14] = [
            &|l, at| format!("{}{}", &l[..at], &l[at + 1..]),
            &|l, at| format!("{}\\n{}", &l[..at], &l[at..]),
            &|l, at| format!("{}-{}", &l[..at], &l[at..]),
            &|l, at| format!("{}0{}", &l[..at], &l[at..]),
            &|l, at| format!("{}.5{}", &l[..at], &l[at..]),
            &|l, at| format!("{}e-7{}", &l[..at], &l[at..]),
            &|l, at| format!("{} {}", &l[..at], &l[at..]),
            &|l, at| format!("{}\t{}", &l[..at], &l[at..]),
            &|l, at| format!("{}[{}", &l[..at], &l[at..]),
            &|l, at| format!("{}\u{1}{}", &l[..at], &l[at..]),
            &|l, at| format!("{}99999999999999999999{}", &l[..at], &l[at..]),
            &|l, at| format!("{}é{}", &l[..at], &l[at..]),
            &|l, _| l.replacen("\":", "\":1,\"x\":", 1).replacen('{', "{\"x\":true,", 1),
            &|l, at| l[..at].to_string(),
        ];
        for _ in 0..4000 {
            let line = lines[rng.random_range(0..lines.len())];
            let mut at = rng.random_range(0..line.len().max(1));
            while !line.is_char_boundary(at) || !line.is_char_boundary((at + 1).min(line.len())) {
                at -= 1;
            }
            let edit = edits[rng.random_range(0..edits.len())];
            let changed = if at < line.len() { edit(line, at) } else { line.to_string() };
            let other = lines[rng.random_range(0..lines.len())];
            // The changed line between two good ones, so that the key cache is in play.
            fast_is_serde("s.jsonl", &format!("{other}\n{changed}\n{other}\n{changed}\n"));
            every_type_is_serde(&changed);
        }
        for text in ["{\"a\":1,\"a\":1}\n", "{\"a\":1}\n{\"a\":1,\"a\":2}\n", "{}\n{\"a\":-0}\n", "{\"a\":[1,{\"b\":[]}]} \r\n", "{\"a\":1}{}\n", " {\"a\" : \"\" }\n"] {
            fast_is_serde("s.jsonl", text);
        }
    }
}

/// A table made by a reader of another evidence format (`crate::readers`): the same records
/// and fields a JSONL file gives, each record located at a line of its own source file, so
/// that checks and their errors work alike whatever the file was.
///
/// `text` is the source file's text: a record's `span` is a range of it (the line where the
/// record or sample is), which diagnostics show. [`Jsonl::record_as`] reads a record from
/// that text, so it serves only tables whose records are JSON lines.
pub(crate) struct JsonlBuilder {
    path: String,
    text: String,
    records: Vec<Record>,
    symbols: Symbols,
    fields: Vec<(u32, Scalar)>,
}

/// A field's value handed to [`JsonlBuilder::push`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FieldValue<'a> {
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    /// An object or array, kept only as a mark, as the JSONL reader keeps one.
    Nested,
}

impl JsonlBuilder {
    pub(crate) fn new(path: &str, text: String) -> Self {
        JsonlBuilder { path: path.to_string(), text, records: Vec::new(), symbols: Symbols::default(), fields: Vec::new() }
    }

    /// Adds a record at 1-based `line`, whose text for diagnostics is `span` of the source
    /// (clamped to the text and to character boundaries, so a bad span cannot panic later).
    pub(crate) fn push<'v>(&mut self, line: usize, span: Range<usize>, fields: impl IntoIterator<Item = (&'v str, FieldValue<'v>)>) {
        let end = crate::diagnostic::floor_char_boundary(&self.text, span.end.min(self.text.len()));
        let start = crate::diagnostic::floor_char_boundary(&self.text, span.start.min(end));
        let first = self.fields.len();
        for (key, value) in fields {
            let key = self.symbols.intern(key);
            let value = match value {
                FieldValue::Str(s) => Scalar::Str(self.symbols.intern(s)),
                FieldValue::Int(i) => Scalar::Int(i),
                FieldValue::Float(f) => Scalar::Float(f),
                FieldValue::Bool(b) => Scalar::Bool(b),
                FieldValue::Null => Scalar::Null,
                FieldValue::Nested => Scalar::Nested,
            };
            self.fields.push((key, value));
        }
        self.records.push(Record { line, span: start..end, fields: first..self.fields.len() });
    }

    pub(crate) fn finish(self) -> Jsonl {
        Jsonl { path: self.path, text: self.text, records: self.records, symbols: self.symbols, fields: self.fields, postings: RefCell::default() }
    }
}

#[cfg(test)]
mod builder_tests {
    use super::*;

    #[test]
    fn a_built_table_reads_like_a_parsed_one() {
        let text = "command,time_s\nsleep,0.5\nsleep,1.5\n".to_string();
        let mut b = JsonlBuilder::new("t.csv", text);
        b.push(2, 15..25, [("command", FieldValue::Str("sleep")), ("time_s", FieldValue::Float(0.5))]);
        b.push(3, 25..35, [("command", FieldValue::Str("sleep")), ("time_s", FieldValue::Int(-1))]);
        let j = b.finish();
        assert_eq!(j.line_text(&j.records[0]), "sleep,0.5");
        assert_eq!(j.select(&toml::from_str("command = \"sleep\"").unwrap()).len(), 2);
        let all: Vec<&Record> = j.records.iter().collect();
        let err = j.samples(&all, "time_s").unwrap_err();
        assert_eq!(err.position().unwrap(), "t.csv:3:1");
        assert!(err.message.contains("line 3: `time_s` is negative"), "{}", err.message);
    }

    #[test]
    fn a_span_past_the_text_is_clamped() {
        let mut b = JsonlBuilder::new("t", "µ".to_string());
        b.push(1, 1..99, [("a", FieldValue::Null)]);
        let j = b.finish();
        assert_eq!(j.line_text(&j.records[0]), "µ");
    }
}
