//! A JSONL samples file read straight into what `claimcheck stats` needs: per group (the text
//! of the `by` fields), one column of `f64` per field asked for. This module owns that reading;
//! it never computes a statistic and never keeps a line it has read.
//!
//! The file is read in chunks of whole lines, never whole: each worker thread takes the next
//! chunk from the file under a lock, scans it on its own, and keeps its own groups; the groups
//! of the workers are joined once at the end, by group, never record by record. A line is taken
//! apart by a scanner that knows only the JSON such files hold (an object of plain keys, strings
//! without escapes, non-negative numbers, `true`, `false`, `null`) and keeps only the tokens of
//! the fields asked for. Any other line (a nested value, an escape, a negative number, a blank
//! line, a syntax error) is read by the whole-file reader's own line parser
//! ([`Jsonl::parse_line`]), so what a line means and how its error reads is decided in one place.
//!
//! **Invariant:** the result is what [`Jsonl`] then `groups` and `samples` give for the same
//! file: the same groups, the same values (numbers correctly rounded, as serde_json reads
//! them), and on bad input the same diagnostic, located at the same `file:line:col`. Where the
//! old reader would name one of several problems, it names the same one: a byte that is not
//! UTF-8 before anything else, then the first bad line, then the first bad sample of the first
//! field and group in output order. Only the groups' identity differs where the old reader was
//! ambiguous: groups are told apart by their text (a string `"1"` and a number `1` are one
//! group here, two groups of the same name there).

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::Mutex;

use rustc_hash::FxHashMap;

use super::jsonl::{Jsonl, Scalar};

pub(crate) mod delimited;
use super::scan::{Members, literal, number, number_end, string_end};
use crate::diagnostic::Diagnostic;

/// The bytes a worker takes from the file at a time (rounded up to the end of a line).
pub const CHUNK: usize = 4 << 20;

/// The fields asked for, per group, in sorted group order: `columns[j]` holds the values of
/// `fields[j]`, in file order.
#[derive(Debug, Default, PartialEq)]
pub struct Grouped {
    pub groups: BTreeMap<Vec<String>, Vec<Vec<f64>>>,
    /// The groups whose every line held every `by` field as a string (a JSON string, or a CSV
    /// or TSV cell the table reader types as text): there, a group is exactly the records a
    /// `select` of those strings keeps, since no number, literal or missing field shares its
    /// text.
    pub strings: std::collections::BTreeSet<Vec<String>>,
}

/// Reads the JSONL file `path` from `input` (shown as `shown` in diagnostics), grouped by the
/// fields `by`, keeping the numeric `fields`, on `threads` threads. Each field of each group must
/// be a non-negative number on every line, as [`Jsonl::samples`] requires.
pub fn read(shown: &str, input: impl Read + Send, by: &[String], fields: &[String], threads: usize) -> Result<Grouped, Diagnostic> {
    read_in_chunks(shown, input, by, fields, threads, CHUNK)
}

/// How many threads to read a file of `len` bytes with: one per core, and one for a file that
/// fits in a chunk or two, where a thread would cost more than it saves.
pub fn threads_for(len: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    if len < 2 * CHUNK as u64 { 1 } else { cores }
}

fn read_in_chunks(shown: &str, input: impl Read + Send, by: &[String], fields: &[String], threads: usize, chunk: usize) -> Result<Grouped, Diagnostic> {
    let wanted = Wanted::new(by, fields);
    let source = Mutex::new(Source { input, carry: Vec::new(), next: 0, done: false, failed: None });
    let work = |source: &Mutex<Source<_>>| {
        let mut worker = Worker::new(shown, &wanted);
        let mut buf = Vec::with_capacity(chunk + 4096);
        while let Some(index) = next_chunk(source, &mut buf, chunk) {
            worker.chunk(index, &buf);
        }
        worker
    };
    let workers: Vec<Worker> = on_threads(threads, || work(&source));
    let source = source.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = source.failed {
        return Err(Diagnostic::plain(format!("reading {shown}: {e}")));
    }
    join(shown, &wanted, workers)
}

/// A row's group as the raw bytes of its grouping cells, each ended by 0xff (0xfe for an absent
/// one), into `key`: rows of one group give the same bytes, so a row's group is found by one
/// hash before any cell is turned into text. Both columnar readers key their groups this way.
fn raw_group_key<'a>(key: &mut Vec<u8>, cells: impl Iterator<Item = Option<&'a [u8]>>) {
    key.clear();
    for cell in cells {
        match cell {
            Some(bytes) => {
                key.extend_from_slice(bytes);
                key.push(0xff);
            }
            None => key.push(0xfe),
        }
    }
}

/// Runs `work` on `threads` threads, or on this one when there is one, and returns what each
/// gave: the JSONL and the delimited readers' workers, each pulling chunks until the file ends.
fn on_threads<T: Send>(threads: usize, work: impl Fn() -> T + Sync) -> Vec<T> {
    if threads <= 1 {
        return vec![work()];
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(&work)).collect();
        handles.into_iter().map(|h| h.join().expect("a reader thread panicked")).collect()
    })
}

/// The file, read by whichever worker holds the lock.
struct Source<R> {
    input: R,
    /// The start of a line the last chunk cut through.
    carry: Vec<u8>,
    next: usize,
    done: bool,
    failed: Option<std::io::Error>,
}

/// Fills `buf` with the next chunk of whole lines and returns its index, or `None` at the end.
fn next_chunk<R: Read>(source: &Mutex<Source<R>>, buf: &mut Vec<u8>, chunk: usize) -> Option<usize> {
    let mut s = source.lock().unwrap_or_else(|e| e.into_inner());
    if s.done {
        return None;
    }
    buf.clear();
    buf.append(&mut s.carry);
    loop {
        let before = buf.len();
        let want = chunk.saturating_sub(before).max(4096) as u64;
        match (&mut s.input).take(want).read_to_end(buf) {
            Ok(_) => {}
            Err(e) => {
                s.failed = Some(e);
                s.done = true;
                return None;
            }
        }
        let eof = buf.len() == before;
        if eof {
            s.done = true;
            break;
        }
        if buf.len() >= chunk
            && let Some(cut) = memchr::memrchr(b'\n', buf)
        {
            s.carry.extend_from_slice(&buf[cut + 1..]);
            buf.truncate(cut + 1);
            break;
        }
    }
    if buf.is_empty() {
        return None;
    }
    let index = s.next;
    s.next += 1;
    Some(index)
}

/// The names the scanner keeps, each once: `by[i]` and `fields[j]` are indices into `names`.
struct Wanted {
    names: Vec<Vec<u8>>,
    by: Vec<usize>,
    fields: Vec<usize>,
    by_names: Vec<String>,
    field_names: Vec<String>,
}

impl Wanted {
    fn new(by: &[String], fields: &[String]) -> Wanted {
        let mut names: Vec<Vec<u8>> = Vec::new();
        let mut slot = |name: &String| match names.iter().position(|n| n == name.as_bytes()) {
            Some(i) => i,
            None => {
                names.push(name.as_bytes().to_vec());
                names.len() - 1
            }
        };
        let by_slots = by.iter().map(&mut slot).collect();
        let field_slots = fields.iter().map(&mut slot).collect();
        Wanted { names, by: by_slots, fields: field_slots, by_names: by.to_vec(), field_names: fields.to_vec() }
    }

    fn slot(&self, key: &[u8]) -> Option<usize> {
        self.names.iter().position(|n| n == key)
    }
}

/// Where a line is: its chunk, its line within the chunk (from 1), and its text, kept only for
/// the first problem of a kind.
#[derive(Debug, Clone)]
struct At {
    chunk: usize,
    line: usize,
    text: String,
}

/// What a chunk says about the file as a whole: its lines, its blank lines, its first error.
#[derive(Debug, Default)]
struct ChunkInfo {
    lines: usize,
    first_blank: Option<usize>,
    first_record: Option<usize>,
    /// The first line of a record after a blank line of this chunk.
    record_after_blank: Option<usize>,
    /// The first line that does not parse, with its text.
    error: Option<(usize, String)>,
    /// The first byte that is not UTF-8: its line's bytes, the byte's offset in them.
    not_utf8: Option<(usize, Vec<u8>, usize)>,
}

/// One group of one worker.
struct Group {
    key: Vec<String>,
    columns: Vec<Vec<f64>>,
    /// Where each chunk's values begin in `columns`: the chunk, and the length of every column
    /// before it. The workers' parts are joined in chunk order by them, so a column holds its
    /// values in file order.
    starts: Vec<(usize, Vec<usize>)>,
    /// Whether every line so far held every `by` field as a string.
    strings: bool,
    /// Per field, the first line without a number (missing, or not a number), and the first
    /// with a negative one: the two errors [`Jsonl::samples`] reports, in its order.
    missing: Vec<Option<At>>,
    negative: Vec<Option<At>>,
}

/// A worker's groups and what it learnt of its chunks.
struct Worker<'a> {
    shown: &'a str,
    wanted: &'a Wanted,
    groups: Vec<Group>,
    /// Group by the raw tokens of the `by` fields (each followed by 0xff, or 0xfe when missing).
    by_raw: FxHashMap<Box<[u8]>, usize>,
    by_text: FxHashMap<Vec<String>, usize>,
    chunks: Vec<(usize, ChunkInfo)>,
    scanner: Scanner,
    raw_key: Vec<u8>,
    values: Vec<Value>,
}

/// A field's value on one line, as the samples see it.
#[derive(Clone, Copy)]
enum Value {
    Number(f64),
    /// Missing, or not a number: an error if the line's group is printed.
    Missing,
}

impl<'a> Worker<'a> {
    fn new(shown: &'a str, wanted: &'a Wanted) -> Worker<'a> {
        Worker {
            shown,
            wanted,
            groups: Vec::new(),
            by_raw: FxHashMap::default(),
            by_text: FxHashMap::default(),
            chunks: Vec::new(),
            scanner: Scanner::new(wanted.names.len()),
            raw_key: Vec::new(),
            values: vec![Value::Missing; wanted.fields.len()],
        }
    }

    fn chunk(&mut self, index: usize, bytes: &[u8]) {
        let mut info = ChunkInfo::default();
        if let Err(e) = std::str::from_utf8(bytes) {
            info.lines = count_lines(bytes);
            let at = e.valid_up_to();
            let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
            let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
            let line = count_lines(&bytes[..start]) + 1;
            info.not_utf8 = Some((line, bytes[start..end].to_vec(), at - start));
            self.chunks.push((index, info));
            return;
        }
        let mut pos = 0;
        let mut line = 0;
        while pos < bytes.len() {
            line += 1;
            let next = match self.scanner.scan(bytes, pos, self.wanted) {
                Some(next) if self.take_scanned(index, line, bytes, pos) => next,
                _ => {
                    let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i + 1);
                    // The chunk was checked to be UTF-8 and is cut at line ends.
                    let text = std::str::from_utf8(&bytes[pos..end]).unwrap_or_default();
                    match Jsonl::parse_line(self.shown, line, text) {
                        Ok(None) => {
                            info.first_blank.get_or_insert(line);
                            pos = end;
                            continue;
                        }
                        Ok(Some(jsonl)) => self.take_parsed(index, line, &jsonl),
                        Err(_) => {
                            info.first_record.get_or_insert(line);
                            if info.first_blank.is_some() {
                                info.record_after_blank = Some(line);
                            } else {
                                info.error = Some((line, text.trim_end_matches('\n').to_string()));
                            }
                            break;
                        }
                    }
                    end
                }
            };
            info.first_record.get_or_insert(line);
            if info.first_blank.is_some() {
                // A record after a blank line: the file is refused here, whatever follows.
                info.record_after_blank = Some(line);
                break;
            }
            pos = next;
        }
        // A chunk read to its end counted its lines on the way; one left early counts them now.
        info.lines = if pos >= bytes.len() { line } else { count_lines(bytes) };
        self.chunks.push((index, info));
    }

    /// Takes a line the scanner read; `false` when a value needs the line parser after all (a
    /// number too large for a double).
    fn take_scanned(&mut self, chunk: usize, line: usize, bytes: &[u8], pos: usize) -> bool {
        let tokens = &self.scanner.tokens;
        for (j, &slot) in self.wanted.fields.iter().enumerate() {
            self.values[j] = match tokens[slot] {
                None => Value::Missing,
                Some((a, b)) => match bytes[a] {
                    b'0'..=b'9' => match number(&bytes[a..b]) {
                        Some(v) => Value::Number(v),
                        None => return false,
                    },
                    _ => Value::Missing,
                },
            };
        }
        raw_group_key(&mut self.raw_key, self.wanted.by.iter().map(|&slot| tokens[slot].map(|(a, b)| &bytes[a..b])));
        let group = match self.by_raw.get(self.raw_key.as_slice()) {
            Some(&g) => g,
            None => {
                let mut key = Vec::with_capacity(self.wanted.by.len());
                for &slot in &self.wanted.by {
                    match tokens[slot] {
                        Some((a, b)) => match token_text(&bytes[a..b]) {
                            Some(text) => key.push(text),
                            None => return false,
                        },
                        None => key.push(String::new()),
                    }
                }
                let g = self.group(key);
                self.by_raw.insert(self.raw_key.as_slice().into(), g);
                g
            }
        };
        let strings = self.wanted.by.iter().all(|&slot| self.scanner.tokens[slot].is_some_and(|(a, _)| bytes[a] == b'"'));
        self.push(group, strings, chunk, line, || line_text(bytes, pos));
        true
    }

    /// Takes a line the line parser read.
    fn take_parsed(&mut self, chunk: usize, line: usize, jsonl: &Jsonl) {
        let record = &jsonl.records[0];
        let key: Vec<String> = self.wanted.by_names.iter().map(|k| jsonl.text_of(jsonl.get(record, k))).collect();
        let group = self.group(key);
        for (j, name) in self.wanted.field_names.iter().enumerate() {
            self.values[j] = match jsonl.get(record, name) {
                Some(Scalar::Int(i)) => Value::Number(i as f64),
                Some(Scalar::Float(f)) => Value::Number(f),
                _ => Value::Missing,
            };
        }
        let strings = self.wanted.by_names.iter().all(|k| matches!(jsonl.get(record, k), Some(Scalar::Str(_))));
        self.push(group, strings, chunk, line, || jsonl.line_text(record).to_string());
    }

    /// The worker's group of `key`, made on first sight.
    fn group(&mut self, key: Vec<String>) -> usize {
        if let Some(&g) = self.by_text.get(&key) {
            return g;
        }
        let n = self.wanted.fields.len();
        self.groups.push(Group { key: key.clone(), columns: vec![Vec::new(); n], starts: Vec::new(), strings: true, missing: vec![None; n], negative: vec![None; n] });
        self.by_text.insert(key, self.groups.len() - 1);
        self.groups.len() - 1
    }

    /// Adds the line's values to `group`, noting the first line of each kind of bad value.
    fn push(&mut self, group: usize, strings: bool, chunk: usize, line: usize, text: impl Fn() -> String) {
        let g = &mut self.groups[group];
        g.strings &= strings;
        mark_chunk(&mut g.starts, &g.columns, chunk);
        for (j, value) in self.values.iter().enumerate() {
            match *value {
                Value::Number(v) => {
                    if v < 0.0 && g.negative[j].is_none() {
                        g.negative[j] = Some(At { chunk, line, text: text() });
                    }
                    g.columns[j].push(v);
                }
                Value::Missing => {
                    if g.missing[j].is_none() {
                        g.missing[j] = Some(At { chunk, line, text: text() });
                    }
                }
            }
        }
    }
}

/// The text of the line at `pos`, without its line end.
fn line_text(bytes: &[u8], pos: usize) -> String {
    let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
    String::from_utf8_lossy(&bytes[pos..end]).into_owned()
}

fn count_lines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count() + usize::from(bytes.last().is_some_and(|b| *b != b'\n'))
}

/// The workers' groups as one, or the error the whole-file reader would have given.
fn join(shown: &str, wanted: &Wanted, workers: Vec<Worker>) -> Result<Grouped, Diagnostic> {
    let mut chunks: Vec<(usize, ChunkInfo)> = Vec::new();
    let mut all_groups = Vec::new();
    for w in workers {
        chunks.extend(w.chunks);
        all_groups.push(w.groups);
    }
    chunks.sort_by_key(|(i, _)| *i);
    let mut lines_before = Vec::with_capacity(chunks.len());
    let mut total = 0;
    for (_, info) in &chunks {
        lines_before.push(total);
        total += info.lines;
    }
    // A byte that is not UTF-8 comes first: the whole-file reader decodes before it parses.
    for ((_, info), before) in chunks.iter().zip(&lines_before) {
        if let Some((line, bytes, at)) = &info.not_utf8 {
            return Err(Diagnostic::not_utf8_after(shown, bytes, *at, before + line - 1));
        }
    }
    // Then the first line that does not parse, or the first blank line with a record after it.
    let mut blank: Option<usize> = None;
    for ((_, info), before) in chunks.iter().zip(&lines_before) {
        let blank_error = |line: usize| Diagnostic::at_line(format!("{shown}: line {line} is blank inside the file"), shown, line, "", "blank line");
        if let (Some(b), Some(_)) = (blank, info.first_record) {
            return Err(blank_error(b));
        }
        if let Some(after) = info.record_after_blank
            && info.error.as_ref().is_none_or(|(e, _)| after <= *e)
        {
            return Err(blank_error(before + info.first_blank.unwrap_or(after)));
        }
        if let Some((line, text)) = &info.error {
            return Err(reparse(shown, before + line, text).err().unwrap_or_else(|| Diagnostic::plain(format!("{shown}: line {}: unreadable", before + line))));
        }
        if blank.is_none() {
            blank = info.first_blank.map(|b| before + b);
        }
    }
    // The workers' groups, joined by group.
    let mut parts: BTreeMap<Vec<String>, Vec<Group>> = BTreeMap::new();
    for groups in all_groups {
        for g in groups {
            parts.entry(g.key.clone()).or_default().push(g);
        }
    }
    let joined: BTreeMap<Vec<String>, Group> = parts.into_iter().map(|(key, parts)| (key, in_file_order(parts))).collect();
    // The first bad sample in the order the groups are printed: field by field, group by group.
    for (j, field) in wanted.field_names.iter().enumerate() {
        for g in joined.values() {
            if let Some(at) = g.missing[j].as_ref().or(g.negative[j].as_ref()) {
                // Chunks are numbered from 0 without gaps, so a chunk's number is its place.
                let line = lines_before[at.chunk] + at.line;
                let jsonl = reparse(shown, line, &at.text)?;
                let record = &jsonl.records[0];
                return Err(jsonl.samples(&[record], field).err().unwrap_or_else(|| Diagnostic::plain(format!("{shown}: line {line}: a bad sample"))));
            }
        }
    }
    let strings = joined.iter().filter(|(_, g)| g.strings).map(|(k, _)| k.clone()).collect();
    Ok(Grouped { groups: joined.into_iter().map(|(k, g)| (k, g.columns)).collect(), strings })
}

/// One group from the workers' parts of it: each column's values in file order, and the first
/// line of each kind of bad value.
fn in_file_order(mut parts: Vec<Group>) -> Group {
    if parts.len() == 1 {
        return parts.pop().expect("one part");
    }
    let n = parts[0].columns.len();
    let first_of = |pick: fn(&Group) -> &Vec<Option<At>>| -> Vec<Option<At>> {
        (0..n).map(|j| parts.iter().filter_map(|g| pick(g)[j].clone()).min_by_key(|at| (at.chunk, at.line))).collect()
    };
    let missing = first_of(|g| &g.missing);
    let negative = first_of(|g| &g.negative);
    let strings = parts.iter().all(|g| g.strings);
    let key = std::mem::take(&mut parts[0].key);
    let columns = columns_in_file_order(parts.into_iter().map(|g| (g.columns, g.starts)).collect());
    Group { key, columns, starts: Vec::new(), strings, missing, negative }
}

/// Notes where `chunk`'s values begin in a group's columns, at the group's first value from
/// that chunk (a worker reads its chunks one after another), for [`columns_in_file_order`].
fn mark_chunk(starts: &mut Vec<(usize, Vec<usize>)>, columns: &[Vec<f64>], chunk: usize) {
    if starts.last().is_none_or(|(c, _)| *c != chunk) {
        starts.push((chunk, columns.iter().map(Vec::len).collect()));
    }
}

/// The columns of one group from the workers' parts of it, each part's columns given with
/// where each of its chunks begins in them (the chunk, and every column's length before it):
/// every chunk was read by one worker, so its values lie in one part, between its start and
/// the part's next start, and the chunks in order give the file's order. Both columnar readers
/// join their groups so.
fn columns_in_file_order(parts: Vec<(Vec<Vec<f64>>, Vec<(usize, Vec<usize>)>)>) -> Vec<Vec<f64>> {
    let mut pieces: Vec<(usize, usize, usize)> = Vec::new();
    for (p, (_, starts)) in parts.iter().enumerate() {
        for (i, (chunk, _)) in starts.iter().enumerate() {
            pieces.push((*chunk, p, i));
        }
    }
    pieces.sort_unstable();
    let n = parts.first().map_or(0, |(columns, _)| columns.len());
    let mut columns: Vec<Vec<f64>> = (0..n).map(|j| Vec::with_capacity(parts.iter().map(|(c, _)| c[j].len()).sum())).collect();
    for &(_, p, i) in &pieces {
        let (part, starts) = &parts[p];
        for (j, column) in columns.iter_mut().enumerate() {
            let from = starts[i].1[j];
            let to = starts.get(i + 1).map_or(part[j].len(), |(_, s)| s[j]);
            column.extend_from_slice(&part[j][from..to]);
        }
    }
    columns
}

/// What the whole-file JSONL reader gives for the same question: [`grouped`] of the file
/// parsed whole. The reference this reader is held to.
pub(crate) fn whole(text: &str, by: &[String], fields: &[String]) -> Result<Grouped, Diagnostic> {
    grouped(&Jsonl::parse("s.jsonl", text.as_bytes())?, by, fields)
}

/// The records of `jsonl` grouped by `by` as the checks read them: each field's values per
/// group in file order, every sample checked as [`Jsonl::samples`] checks it (the first bad one
/// is the error), and the groups whose every record holds every `by` field as a string. What
/// both columnar readers are held to, and what the CSV reader gives where it reads a file
/// through the table reader.
pub(crate) fn grouped(jsonl: &Jsonl, by: &[String], fields: &[String]) -> Result<Grouped, Diagnostic> {
    let grouped = jsonl.groups(by);
    for field in fields {
        for records in grouped.values() {
            jsonl.samples(records, field)?;
        }
    }
    let strings =
        grouped.iter().filter(|(_, records)| records.iter().all(|r| by.iter().all(|k| matches!(jsonl.get(r, k), Some(Scalar::Str(_)))))).map(|(key, _)| key.clone()).collect();
    let number = |r: &&super::jsonl::Record, f: &String| match jsonl.get(r, f) {
        Some(Scalar::Int(i)) => i as f64,
        Some(Scalar::Float(v)) => v,
        // The samples were checked above: every value is a number.
        _ => f64::NAN,
    };
    let groups = grouped.into_iter().map(|(key, records)| (key, fields.iter().map(|f| records.iter().map(|r| number(r, f)).collect()).collect())).collect();
    Ok(Grouped { groups, strings })
}

/// Whether `jsonl` has two groups by `by` of one text (a string `"1"` and a number `1`; in a
/// CSV file an empty cell and the text `null`): its groups then hold fewer records than it
/// has, since one text names one group, and a columnar reader's groups cannot be compared
/// with them value by value.
pub(crate) fn ambiguous(jsonl: &Jsonl, by: &[String]) -> bool {
    jsonl.groups(by).values().map(Vec::len).sum::<usize>() != jsonl.records.len()
}

/// Whether a columnar reader read a file as the whole-file reader did (`expected`), in each
/// chunking `read` is asked for: the same groups, the same values in file order, the same
/// groups of strings only; or the same error at the same place. Where the groups are
/// [`ambiguous`], only their names are compared. `Err` says how they differ. The
/// `differential` fuzz target holds both columnar readers to it.
fn agrees(expected: Result<Grouped, Diagnostic>, ambiguous: bool, read: impl Fn(usize, usize) -> Result<Grouped, Diagnostic>) -> Result<(), String> {
    let shown = |r: Result<Grouped, Diagnostic>| {
        r.map(|g| {
            if ambiguous {
                return format!("{:?}", g.groups.keys().collect::<Vec<_>>());
            }
            let groups: Vec<_> = g.groups.iter().map(|(k, c)| (k, c.iter().map(|c| c.iter().map(|v| v.to_bits()).collect::<Vec<_>>()).collect::<Vec<_>>())).collect();
            format!("{groups:?} strings {:?}", g.strings)
        })
        .map_err(|d| (d.message.clone(), d.position(), d.render()))
    };
    let expected = shown(expected);
    for (threads, chunk) in [(1, CHUNK), (2, 7)] {
        let got = shown(read(threads, chunk));
        if got != expected {
            return Err(format!("threads {threads}, chunk {chunk}: columnar {got:?}, whole {expected:?}"));
        }
    }
    Ok(())
}

/// [`agrees`] for this reader on the JSONL `text`.
pub(crate) fn agrees_with_whole_reader(text: &str, by: &[String], fields: &[String]) -> Result<(), String> {
    let ambiguous = Jsonl::parse("s.jsonl", text.as_bytes()).is_ok_and(|j| ambiguous(&j, by));
    agrees(whole(text, by, fields), ambiguous, |threads, chunk| read_in_chunks("s.jsonl", text.as_bytes(), by, fields, threads, chunk))
}

/// In the tests of both columnar readers: the two readings the same, or the same diagnostic at
/// the same place; `at` says which chunking.
#[cfg(test)]
pub(super) fn assert_same_reading(expected: &Result<Grouped, Diagnostic>, got: &Result<Grouped, Diagnostic>, at: &str) {
    match (expected, got) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{at}"),
        (Err(a), Err(b)) => {
            assert_eq!(a.message, b.message, "{at}");
            assert_eq!(a.position(), b.position(), "{at}");
            assert_eq!(a.render(), b.render(), "{at}");
        }
        _ => panic!("{at}: whole {expected:?}, columns {got:?}"),
    }
}

/// A line read again by the line parser, now that its number in the file is known.
fn reparse(shown: &str, line: usize, text: &str) -> Result<Jsonl, Diagnostic> {
    Jsonl::parse_line(shown, line, text)?.ok_or_else(|| Diagnostic::plain(format!("{shown}: line {line} is blank")))
}

/// The scanner of one line: the tokens of the wanted fields. Its line walker
/// ([`Members`]) keeps the keys of the line before, each with its wanted slot, against which a
/// line's keys are checked for repeats at the cost of one comparison each.
struct Scanner {
    /// Per wanted name, its token's range in the chunk, if the line has it.
    tokens: Vec<Option<(usize, usize)>>,
    members: Members<Option<usize>>,
}

impl Scanner {
    fn new(n_wanted: usize) -> Scanner {
        Scanner { tokens: vec![None; n_wanted], members: Members::new() }
    }

    /// Scans the line at `pos` of `b`; the start of the next line, or `None` where the line is
    /// not one the scanner takes apart (the line parser then reads it).
    fn scan(&mut self, b: &[u8], pos: usize, wanted: &Wanted) -> Option<usize> {
        self.tokens.fill(None);
        let tokens = &mut self.tokens;
        let (mut i, same_shape) = self.members.walk(b, pos, |_, (ks, ke), slot, vs| {
            let end = match *b.get(vs)? {
                b'"' => string_end(b, vs + 1)? + 1,
                b'0'..=b'9' => number_end(b, vs)?,
                b't' => literal(b, vs, b"true")?,
                b'f' => literal(b, vs, b"false")?,
                b'n' => literal(b, vs, b"null")?,
                _ => return None,
            };
            // A key the line before did not have here is looked up among the wanted names.
            if let Some(s) = slot.unwrap_or_else(|| wanted.slot(&b[ks..ke])) {
                tokens[s] = Some((vs, end));
            }
            Some(end)
        })?;
        while let Some(c) = b.get(i) {
            match c {
                b' ' | b'\t' | b'\r' => i += 1,
                b'\n' => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
        if !same_shape {
            // A new shape: a repeated key is the line parser's error to give.
            if self.members.repeats_a_key(b) {
                return None;
            }
            let slots: Vec<Option<usize>> = self.members.keys().iter().map(|&(a, e)| wanted.slot(&b[a..e])).collect();
            self.members.keep_shape(b, slots);
        }
        Some(i)
    }
}

/// The text a group shows for a value token, as [`Jsonl::text_of`] writes the value the line
/// parser reads from it; `None` where the line parser must decide.
fn token_text(token: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(token).ok()?;
    let line = format!("{{\"v\":{text}}}");
    let jsonl = Jsonl::parse_line("", 1, &line).ok()??;
    Some(jsonl.text_of(jsonl.get(&jsonl.records[0], "v")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn read_text(text: &str, by: &[&str], fields: &[&str], threads: usize, chunk: usize) -> Result<Grouped, Diagnostic> {
        read_in_chunks("s.jsonl", text.as_bytes(), &strings(by), &strings(fields), threads, chunk)
    }

    /// Both readers on `text`, in several chunkings: the same groups, the same values in the
    /// same (file) order, the same groups of strings only; or the same diagnostic at the same
    /// place.
    fn same_as_whole(text: &str, by: &[&str], fields: &[&str]) {
        let expected = whole(text, &strings(by), &strings(fields));
        for (threads, chunk) in [(1, CHUNK), (2, 1), (2, 7), (3, 64), (2, 4096)] {
            assert_same_reading(&expected, &read_text(text, by, fields, threads, chunk), &format!("threads {threads}, chunk {chunk}"));
        }
    }

    fn samples_file(lines: usize) -> String {
        let mut text = String::new();
        for i in 0..lines {
            text.push_str(&format!(
                "{{\"suite\":\"s{}\",\"case\":\"c{}\",\"round\":{},\"host_us\":{}.{:03},\"device_us\":{}}}\n",
                i % 3,
                i % 5,
                i / 15,
                (i * 7919) % 100,
                (i * 31) % 1000,
                (i * 13) % 50
            ));
        }
        text
    }

    #[test]
    fn a_samples_file_reads_as_the_whole_file_reader_reads_it() {
        let text = samples_file(2000);
        same_as_whole(&text, &["suite", "case"], &["host_us", "device_us"]);
        same_as_whole(&text, &["round"], &["host_us"]);
        same_as_whole(&text, &[], &["device_us"]);
        same_as_whole(&text, &["missing"], &["host_us"]);
    }

    #[test]
    fn a_group_is_of_strings_only_where_no_line_gives_its_text_otherwise() {
        // `case` 7 as a number, `"7"` as a string, `"8"` with an escape (the line parser's),
        // and a line without `case`: one group "7" of both kinds, which is not of strings only.
        let text = concat!(
            "{\"case\":\"7\",\"t\":1}\n",
            "{\"case\":7,\"t\":2}\n",
            "{\"case\":\"\\u0038\",\"t\":3}\n",
            "{\"case\":\"8\",\"t\":4}\n",
            "{\"t\":5}\n",
            "{\"case\":\"\",\"t\":6}\n",
            "{\"case\":true,\"t\":7}\n",
        );
        // (The whole-file reader's groups tell the kinds apart under one name, so they are not
        // compared here.)
        let got = read_text(text, &["case"], &["t"], 2, 1).unwrap();
        assert_eq!(got.strings, [vec!["8".to_string()]].into_iter().collect(), "{got:?}");
        assert_eq!(got.groups[&vec!["8".to_string()]], vec![vec![3.0, 4.0]]);
        assert_eq!(got.groups[&vec!["7".to_string()]], vec![vec![1.0, 2.0]]);
    }

    #[test]
    fn the_fuzz_targets_comparison_holds_on_plain_ambiguous_and_bad_files() {
        let by = strings(&["suite", "case"]);
        let fields = strings(&["host_us"]);
        for text in [samples_file(500), samples_file(500).replacen("\"c1\"", "1", 3), samples_file(50).replacen("\"host_us\":", "\"host_us\":-", 1), "{\"suite\":".to_string()] {
            agrees_with_whole_reader(&text, &by, &fields).unwrap();
        }
    }

    #[test]
    fn values_keep_file_order_whichever_worker_read_them() {
        // Many small chunks on four threads: the chunks of a group are spread over workers.
        let text = samples_file(5000);
        let expected = whole(&text, &strings(&["suite"]), &strings(&["host_us"])).unwrap();
        for _ in 0..20 {
            assert_eq!(read_text(&text, &["suite"], &["host_us"], 4, 300).unwrap(), expected);
        }
    }

    #[test]
    fn unusual_lines_read_through_the_line_parser() {
        let text = concat!(
            "{\"v\":\"a\",\"t\":1}\n",
            "  {\"t\" : 2.5e1 , \"v\" : \"a\"}  \r\n",
            "{\"v\":\"\\u0061\",\"t\":3,\"deps\":[\"x\",{\"y\":1}]}\n",
            "{\"v\":\"b\",\"t\":-0.0}\n",
            "{\"v\":\"b\",\"t\":123456789012345678901234}\n",
            "{\"v\":\"b\",\"t\":0.30000000000000004}\n",
            "{\"v\":1.0,\"t\":1E-3}\n",
            "{\"v\":1e0,\"t\":12345678901234567}\n",
            "{\"v\":null,\"t\":4}\n",
            "{\"t\":5}\n",
            "{\"v\":\"é\",\"t\":6}\n",
            "{}\n",
        );
        same_as_whole(text, &["v"], &["t"]);
        let got = read_text(text, &["v"], &["t"], 2, 16).unwrap_err();
        assert!(got.message.contains("line 12: no `t`"), "{}", got.message);
    }

    #[test]
    fn bad_lines_are_named_as_the_whole_file_reader_names_them() {
        let good = samples_file(300);
        let lines: Vec<&str> = good.lines().collect();
        let with = |at: usize, bad: &str| {
            let mut l = lines.clone();
            l[at] = bad;
            l.join("\n") + "\n"
        };
        for bad in [
            "{\"suite\":\"s0\",\"case\":",
            "not json",
            "[1, 2]",
            "{\"suite\":\"s0\",\"case\":\"c0\",\"host_us\":1,\"host_us\":2,\"device_us\":1}",
            "{\"suite\":\"s0\",\"case\":\"c0\",\"host_us\":01,\"device_us\":1}",
            "{\"suite\":\"s0\",\"case\":\"c0\",\"host_us\":1} x",
            "{\"suite\":\"s0\",\"case\":\"c0\",\"host_us\":-1,\"device_us\":1}",
            "{\"suite\":\"s0\",\"case\":\"c0\",\"host_us\":\"fast\",\"device_us\":1}",
            "{\"suite\":\"s0\",\"case\":\"c0\",\"device_us\":1}",
            "{\"suite\":\"s0\",\"case\":\"c0\",\"host_us\":1e400,\"device_us\":1}",
            "",
        ] {
            for at in [0, 150, 299] {
                same_as_whole(&with(at, bad), &["suite", "case"], &["host_us", "device_us"]);
            }
        }
        // A negative value in an earlier group, a missing one in a later: the missing one of
        // the first field wins only in its own group order.
        let text = with(10, "{\"suite\":\"s2\",\"case\":\"c4\",\"host_us\":-1,\"device_us\":1}");
        let mut l: Vec<&str> = text.lines().collect();
        l[200] = "{\"suite\":\"s0\",\"case\":\"c0\",\"device_us\":1}";
        same_as_whole(&(l.join("\n") + "\n"), &["suite", "case"], &["host_us", "device_us"]);
        // Blank lines: at the end they are allowed, inside the file they are named.
        same_as_whole(&(good.clone() + "\n\n"), &["suite"], &["host_us"]);
        same_as_whole(&good.replacen('\n', "\n\n", 1), &["suite"], &["host_us"]);
        same_as_whole(&good.replacen('\n', "\n \n", 3), &["suite"], &["host_us"]);
        // No line end at the end of the file.
        same_as_whole(good.trim_end(), &["suite"], &["host_us"]);
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_named_before_any_bad_line() {
        let good = samples_file(300);
        let mut bytes = good.replacen("\"s1\"", "\"\"", 1).into_bytes();
        let at = bytes.len() - 40;
        bytes[at] = 0xff;
        let expected = Jsonl::from_vec("s.jsonl", bytes.clone()).unwrap_err();
        for (threads, chunk) in [(1, CHUNK), (2, 100)] {
            let got = read_in_chunks("s.jsonl", bytes.as_slice(), &strings(&["suite"]), &strings(&["host_us"]), threads, chunk).unwrap_err();
            assert_eq!((got.position(), got.message), (expected.position(), expected.message.clone()));
        }
    }

    #[test]
    fn an_empty_file_has_no_groups() {
        assert_eq!(read_text("", &["a"], &["t"], 2, 8).unwrap(), Grouped::default());
    }
}
