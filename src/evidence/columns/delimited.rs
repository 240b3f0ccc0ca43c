//! A CSV or TSV samples file read straight into per-group `f64` columns, as [`super`] reads a
//! JSONL one: streamed in chunks of whole lines on every core, each worker keeping its own
//! groups, joined once at the end. This module owns that reading; the meaning of a header, a
//! row and a cell stays with the table reader ([`crate::evidence::readers`]'s `delimited`),
//! and this module never decides an error itself.
//!
//! A worker takes apart only the rows it is sure of: a row of plain cells (no quote in a CSV
//! file, no carriage return but the one before its line end) with as many cells as the header
//! has columns, whose wanted cells are finite non-negative numbers. Anything else (a quoted
//! cell, a row of the wrong length, a blank line, a byte that is not UTF-8, a header it cannot
//! use, a sample the samples would refuse) makes the whole file be read again by the table
//! reader, then grouped and sampled as the `stat` checks do, which gives the value or the
//! located error (`file:line:col`, the offending row). So the fast path is never more lenient
//! or more strict than the table reader; it is only faster on files it is sure of.
//!
//! **Invariant:** the result is what the table reader then `groups` and `samples` give for the
//! same file: the same groups (by their text), the same values. Cells are typed by the table
//! reader's own rule ([`cell`]), except a cell of plain digits, which is read to the same bits
//! by the shared scanner ([`number`]). As for JSONL, groups are told apart by their text, where
//! the table reader would keep two groups of one name (an empty cell and the text `null`).

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap;

use super::{Grouped, Source, agrees, ambiguous, columns_in_file_order, grouped, mark_chunk, next_chunk, on_threads, raw_group_key};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, JsonlBuilder};
use crate::evidence::readers::{self, Format, delimited::cell};
use crate::evidence::scan::{number, number_end};

/// Reads the CSV (`delimiter` `,`) or TSV (`\t`) file that `open` opens (shown as `shown` in
/// diagnostics), grouped by the columns `by`, keeping the numeric columns `fields`, on
/// `threads` threads. Each field of each group must be a finite non-negative number on every
/// row, as the samples require. `open` is called once more, to read the whole file with the
/// table reader, where the fast path is not sure of the file.
pub(crate) fn read<R: Read + Send>(
    shown: &str,
    open: impl Fn() -> std::io::Result<R>,
    delimiter: u8,
    by: &[String],
    fields: &[String],
    threads: usize,
) -> Result<Grouped, Diagnostic> {
    read_in_chunks(shown, open, delimiter, by, fields, threads, super::CHUNK)
}

fn read_in_chunks<R: Read + Send>(
    shown: &str,
    open: impl Fn() -> std::io::Result<R>,
    delimiter: u8,
    by: &[String],
    fields: &[String],
    threads: usize,
    chunk: usize,
) -> Result<Grouped, Diagnostic> {
    let io = |e: std::io::Error| Diagnostic::plain(format!("reading {shown}: {e}"));
    let mut input = open().map_err(io)?;
    if let Some(grouped) = fast(&mut input, delimiter, by, fields, threads, chunk).map_err(io)? {
        return Ok(grouped);
    }
    let mut bytes = Vec::new();
    open().and_then(|mut input| input.read_to_end(&mut bytes)).map_err(io)?;
    whole(shown, &bytes, delimiter, by, fields)
}

/// The file read by the table reader, grouped and sampled as the `stat` checks read it: the
/// reference the fast path gives, and what gives every error.
pub(crate) fn whole(shown: &str, bytes: &[u8], delimiter: u8, by: &[String], fields: &[String]) -> Result<Grouped, Diagnostic> {
    grouped(&table(shown, bytes, delimiter)?.jsonl, by, fields)
}

/// The file read by the table reader, as a CSV or TSV file.
fn table(shown: &str, bytes: &[u8], delimiter: u8) -> Result<readers::Table, Diagnostic> {
    let format = if delimiter == b'\t' { Format::Tsv } else { Format::Csv };
    let no_sidecar = |path: &str| Err(format!("{path}: a {} file refers to no other file", format.name()));
    readers::read(shown, bytes, Some(format), None, &no_sidecar)
}

/// The groups of a CSV or TSV file streamed from `input`, with their values in file order and
/// the groups whose `by` cells are all text ([`Grouped::strings`]); `None` where the table reader
/// must read the file (the caller reads it whole, which gives the value or the error).
pub(crate) fn stream(mut input: impl Read + Send, delimiter: u8, by: &[String], fields: &[String], threads: usize) -> std::io::Result<Option<Grouped>> {
    fast(&mut input, delimiter, by, fields, threads, super::CHUNK)
}

/// The file's groups by the fast path, or `None` where the table reader must read it.
fn fast<R: Read + Send>(input: &mut R, delimiter: u8, by: &[String], fields: &[String], threads: usize, chunk: usize) -> std::io::Result<Option<Grouped>> {
    let (header, carry) = first_line(input)?;
    let Some(columns) = header_columns(&header, delimiter) else {
        return Ok(None);
    };
    let position = |name: &String| columns.iter().position(|c| c == name);
    let by: Vec<Option<usize>> = by.iter().map(position).collect();
    let Some(fields) = fields.iter().map(position).collect::<Option<Vec<usize>>>() else {
        // A field no row has: every sample is missing, an error the table reader names.
        return Ok(None);
    };
    let plan = Plan { delimiter, n_columns: columns.len(), by, fields };
    let unsure = AtomicBool::new(false);
    let source = Mutex::new(Source { input, carry, next: 0, done: false, failed: None });
    let work = |source: &Mutex<Source<&mut R>>| {
        let mut worker = Worker::new(&plan);
        let mut buf = Vec::with_capacity(chunk + 4096);
        while !unsure.load(Ordering::Relaxed)
            && let Some(index) = next_chunk(source, &mut buf, chunk)
        {
            if !worker.chunk(index, &buf) {
                unsure.store(true, Ordering::Relaxed);
            }
        }
        worker
    };
    let workers: Vec<Worker> = on_threads(threads, || work(&source));
    let source = source.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = source.failed {
        return Err(e);
    }
    if unsure.into_inner() {
        return Ok(None);
    }
    let mut parts: BTreeMap<Vec<String>, Vec<Group>> = BTreeMap::new();
    for worker in workers {
        for g in worker.groups {
            parts.entry(g.key.clone()).or_default().push(g);
        }
    }
    let mut grouped = Grouped::default();
    for (key, parts) in parts {
        if parts.iter().all(|g| g.strings) {
            grouped.strings.insert(key.clone());
        }
        grouped.groups.insert(key, columns_in_file_order(parts.into_iter().map(|g| (g.columns, g.starts)).collect()));
    }
    Ok(Some(grouped))
}

/// The first line of the file (without its line end) and the bytes read past it.
fn first_line(input: &mut impl Read) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let mut line = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            return Ok((line, Vec::new()));
        }
        if let Some(at) = memchr::memchr(b'\n', &buf[..n]) {
            line.extend_from_slice(&buf[..at]);
            return Ok((line, buf[at + 1..n].to_vec()));
        }
        line.extend_from_slice(&buf[..n]);
    }
}

/// The column names of a header the fast path is sure of: UTF-8, past a byte order mark,
/// plain cells, each named and none twice. `None` for any other, which the table reader reads
/// (and refuses, where it is wrong).
fn header_columns(line: &[u8], delimiter: u8) -> Option<Vec<String>> {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    let line = plain_row(line, delimiter)?;
    let text = std::str::from_utf8(line).ok()?;
    let names: Vec<String> = text.split(delimiter as char).map(str::to_string).collect();
    let named = names.iter().all(|n| !n.trim().is_empty());
    let once = names.iter().enumerate().all(|(i, n)| !names[..i].contains(n));
    (named && once).then_some(names)
}

/// The row of `line` (its line end not included) without the `\r` of a CRLF line end, where it
/// is a row the fast path is sure of: not blank, no other carriage return (the `csv` crate ends
/// a row there), and in a CSV file no quote.
fn plain_row(line: &[u8], delimiter: u8) -> Option<&[u8]> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let quoted = delimiter != b'\t' && memchr::memchr(b'"', line).is_some();
    (!line.is_empty() && !quoted && memchr::memchr(b'\r', line).is_none()).then_some(line)
}

/// What a worker takes from each row: the header's width, and the columns of the `by` names
/// (`None` for a name the header lacks) and of the fields.
struct Plan {
    delimiter: u8,
    n_columns: usize,
    by: Vec<Option<usize>>,
    fields: Vec<usize>,
}

/// One group of one worker: its text, one column per field, where each chunk's values begin
/// in them (as the JSONL reader's groups keep them), and whether every row's `by` cells were
/// all text (typed as strings by the table reader).
struct Group {
    key: Vec<String>,
    columns: Vec<Vec<f64>>,
    starts: Vec<(usize, Vec<usize>)>,
    strings: bool,
}

/// A worker's groups.
struct Worker<'a> {
    plan: &'a Plan,
    groups: Vec<Group>,
    /// Group by the raw bytes of the `by` cells (each followed by 0xff, or 0xfe for a column
    /// the header lacks), so that a row's group is found with one hash of its bytes, without
    /// typing its cells; and by text, for the rows whose bytes differ but whose text is one.
    /// The group of the raw bytes, and whether its cells are all strings.
    by_raw: FxHashMap<Box<[u8]>, (usize, bool)>,
    by_text: FxHashMap<Vec<String>, usize>,
    cells: Vec<(usize, usize)>,
    raw_key: Vec<u8>,
    values: Vec<f64>,
}

impl<'a> Worker<'a> {
    fn new(plan: &'a Plan) -> Worker<'a> {
        Worker { plan, groups: Vec::new(), by_raw: FxHashMap::default(), by_text: FxHashMap::default(), cells: Vec::new(), raw_key: Vec::new(), values: Vec::new() }
    }

    /// Takes every row of a chunk of whole lines; `false` where the table reader must read
    /// the file.
    fn chunk(&mut self, index: usize, bytes: &[u8]) -> bool {
        if std::str::from_utf8(bytes).is_err() {
            return false;
        }
        let mut pos = 0;
        while pos < bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
            if !self.row(index, &bytes[pos..end]) {
                return false;
            }
            pos = end + 1;
        }
        true
    }

    fn row(&mut self, chunk: usize, line: &[u8]) -> bool {
        let plan = self.plan;
        let Some(line) = plain_row(line, plan.delimiter) else {
            return false;
        };
        self.cells.clear();
        let mut start = 0;
        for at in memchr::memchr_iter(plan.delimiter, line) {
            self.cells.push((start, at));
            start = at + 1;
        }
        self.cells.push((start, line.len()));
        if self.cells.len() != plan.n_columns {
            return false;
        }
        self.values.clear();
        for &f in &plan.fields {
            let (a, e) = self.cells[f];
            match sample(&line[a..e]) {
                Some(v) => self.values.push(v),
                None => return false,
            }
        }
        let cells = &self.cells;
        raw_group_key(&mut self.raw_key, plan.by.iter().map(|by| by.map(|c| &line[cells[c].0..cells[c].1])));
        let (group, strings) = match self.by_raw.get(self.raw_key.as_slice()) {
            Some(&found) => found,
            None => {
                // The chunk was checked to be UTF-8, and cells end at ASCII bytes.
                let text = |c: usize| std::str::from_utf8(&line[self.cells[c].0..self.cells[c].1]).unwrap_or_default();
                let key: Vec<String> = plan.by.iter().map(|by| by.map_or_else(String::new, |c| cell_text(text(c)))).collect();
                let strings = plan.by.iter().all(|by| by.is_some_and(|c| matches!(cell(text(c)), FieldValue::Str(_))));
                let g = match self.by_text.get(&key) {
                    Some(&g) => g,
                    None => {
                        self.groups.push(Group { key: key.clone(), columns: vec![Vec::new(); plan.fields.len()], starts: Vec::new(), strings: true });
                        self.by_text.insert(key, self.groups.len() - 1);
                        self.groups.len() - 1
                    }
                };
                self.by_raw.insert(self.raw_key.as_slice().into(), (g, strings));
                (g, strings)
            }
        };
        let g = &mut self.groups[group];
        g.strings &= strings;
        mark_chunk(&mut g.starts, &g.columns, chunk);
        for (column, v) in g.columns.iter_mut().zip(&self.values) {
            column.push(*v);
        }
        true
    }
}

/// A wanted cell as a sample: a finite non-negative number, read as the table reader types the
/// cell; `None` for anything the samples would refuse or the fast path is not sure of.
fn sample(cell_bytes: &[u8]) -> Option<f64> {
    // Plain digits (JSON's grammar, no sign) are read by the shared scanner, to the bits the
    // table reader's parser gives; every other cell is typed by the table reader's own rule.
    let v = if cell_bytes.first().is_some_and(u8::is_ascii_digit) && number_end(cell_bytes, 0) == Some(cell_bytes.len()) {
        number(cell_bytes)?
    } else {
        match cell(std::str::from_utf8(cell_bytes).ok()?) {
            FieldValue::Int(i) => i as f64,
            FieldValue::Float(f) => f,
            _ => return None,
        }
    };
    // `-0` reads as -0.0, which the samples take; NaN, infinities and negatives they refuse.
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// The text a group shows for a cell, as the table reader's groups write it: the cell typed by
/// its rule, then written as [`crate::evidence::Jsonl::text_of`] writes a value.
fn cell_text(text: &str) -> String {
    let mut one = JsonlBuilder::new("", String::new());
    one.push(1, 0..0, [("v", cell(text))]);
    let one = one.finish();
    one.text_of(one.get(&one.records[0], "v"))
}

/// [`agrees`] for the fast path on the CSV or TSV `bytes`, against the table reader.
pub(crate) fn agrees_with_table_reader(bytes: &[u8], delimiter: u8, by: &[String], fields: &[String]) -> Result<(), String> {
    let ambiguous = table("s.csv", bytes, delimiter).is_ok_and(|t| ambiguous(&t.jsonl, by));
    agrees(whole("s.csv", bytes, delimiter, by, fields), ambiguous, |threads, chunk| read_in_chunks("s.csv", || Ok(bytes), delimiter, by, fields, threads, chunk))
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::super::assert_same_reading;
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// The columns with every column sorted, so that readers in any order compare.
    fn sorted(mut g: Grouped) -> Grouped {
        for columns in g.groups.values_mut() {
            for c in columns.iter_mut() {
                c.sort_by(f64::total_cmp);
            }
        }
        g
    }

    fn chunked(bytes: &[u8], delimiter: u8, by: &[&str], fields: &[&str], threads: usize, chunk: usize) -> Result<Grouped, Diagnostic> {
        read_in_chunks("s.csv", || Ok(bytes), delimiter, &strings(by), &strings(fields), threads, chunk).map(sorted)
    }

    /// Whether the table reader's groups hold every row: where two groups have one text (an
    /// empty cell and the text `null`), the table reader keeps one of them only, and the
    /// readers are not compared.
    fn unambiguous(bytes: &[u8], delimiter: u8, by: &[&str]) -> bool {
        table("s.csv", bytes, delimiter).map_or(true, |t| !ambiguous(&t.jsonl, &strings(by)))
    }

    /// Both readers on `bytes`, in several chunkings: the same groups and values, or the same
    /// diagnostic at the same place.
    fn same_as_whole(bytes: &[u8], delimiter: u8, by: &[&str], fields: &[&str]) {
        let expected = whole("s.csv", bytes, delimiter, &strings(by), &strings(fields)).map(sorted);
        for (threads, chunk) in [(1, super::super::CHUNK), (2, 1), (2, 7), (3, 64), (2, 4096)] {
            let at = format!("threads {threads}, chunk {chunk}, input {:?}", String::from_utf8_lossy(bytes));
            assert_same_reading(&expected, &chunked(bytes, delimiter, by, fields, threads, chunk), &at);
        }
    }

    /// Whether the fast path reads `bytes` itself, without the table reader.
    fn read_fast(bytes: &[u8], delimiter: u8, by: &[&str], fields: &[&str]) -> bool {
        fast(&mut &bytes[..], delimiter, &strings(by), &strings(fields), 2, 64).unwrap().is_some()
    }

    fn samples_file(rows: usize, delimiter: char) -> String {
        let mut text = ["suite", "case", "round", "host_us", "device_us"].join(&delimiter.to_string()) + "\n";
        for i in 0..rows {
            let row = [format!("s{}", i % 3), format!("c{}", i % 5), (i / 15).to_string(), format!("{}.{:03}", (i * 7919) % 100, (i * 31) % 1000), ((i * 13) % 50).to_string()];
            text.push_str(&row.join(&delimiter.to_string()));
            text.push('\n');
        }
        text
    }

    #[test]
    fn the_fast_path_keeps_file_order_and_knows_its_groups_of_text() {
        // Many small chunks on four threads; a `case` of digits is a number to the table
        // reader, so its group is not one of text.
        let text = samples_file(5000, ',').replace(",c4,", ",4,");
        let by = strings(&["suite", "case"]);
        let fields = strings(&["host_us"]);
        let expected = whole("s.csv", text.as_bytes(), b',', &by, &fields).unwrap();
        assert!(expected.strings.contains(&strings(&["s1", "c2"])) && !expected.strings.contains(&strings(&["s1", "4"])), "{:?}", expected.strings);
        for _ in 0..20 {
            let got = fast(&mut text.as_bytes(), b',', &by, &fields, 4, 300).unwrap().unwrap();
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn a_samples_file_reads_as_the_table_reader_reads_it_on_the_fast_path() {
        for delimiter in [b',', b'\t'] {
            let text = samples_file(2000, delimiter as char);
            assert!(read_fast(text.as_bytes(), delimiter, &["suite", "case"], &["host_us"]));
            same_as_whole(text.as_bytes(), delimiter, &["suite", "case"], &["host_us", "device_us"]);
            same_as_whole(text.as_bytes(), delimiter, &["round"], &["host_us"]);
            same_as_whole(text.as_bytes(), delimiter, &[], &["device_us"]);
            same_as_whole(text.as_bytes(), delimiter, &["missing"], &["host_us"]);
        }
    }

    /// The CSV and TSV texts of the table reader's own tests, and files written as harnesses and
    /// spreadsheets write them: the repository holds no CSV or TSV file of its own.
    #[test]
    fn the_table_readers_cases_read_the_same() {
        let cases: [(&str, u8, &[&str], &[&str]); 12] = [
            ("provider,ttft_s,ok,code,note\ngroq,0.55,true,,\"a, b\"\ngroq,0.45,false,007,x\n", b',', &["provider"], &["ttft_s"]),
            ("name\tt_ms\n5\" screen\t1e-3\n", b'\t', &["name"], &["t_ms"]),
            ("a,b\n1,2\n3,4,5\n", b',', &["a"], &["b"]),
            ("\u{feff}name,t_s\r\na,1.5\r\nb,2\r\n", b',', &["name"], &["t_s"]),
            ("a,b\r\n1,2\r\n1,2,3\r\n", b',', &["a"], &["b"]),
            ("a,,c\n1,2,3\n", b',', &["a"], &["c"]),
            ("a,b,a\n1,2,3\n", b',', &["a"], &["b"]),
            ("t_s\n1\nNaN\n", b',', &[], &["t_s"]),
            ("k,v\nx, 12\ny,-0\nz,1E2\nx,0.30000000000000004\ny,18446744073709551616\n", b',', &["k"], &["v"]),
            ("k,v\n1.0,1\n1e0,2\ntrue,3\n\"q\",4\n007,5\n", b',', &["k"], &["v"]),
            ("k,v\nx,1\n\ny,2\n\n", b',', &["k"], &["v"]),
            ("k,v\nx,1\ny,-2\nx,\n", b',', &["k"], &["v"]),
        ];
        for (text, delimiter, by, fields) in cases {
            same_as_whole(text.as_bytes(), delimiter, by, fields);
        }
        // Errors: no header, a header only, a field the header lacks, a cell with a line end
        // inside quotes, a lone carriage return, a byte that is not UTF-8.
        for text in [&b""[..], b"k,v", b"k,v\nx,1\n", b"k,w\nx,1\n", b"k,v\n\"x\ny\",1\n", b"k,v\nx,1\ry,2\n", b"k,v\nx\xff,1\n"] {
            same_as_whole(text, b',', &["k"], &["v"]);
        }
    }

    /// Random edits of a samples file (bytes that mean something to CSV, TSV or numbers put in,
    /// taken out or swapped) read the same, or fail at the same place with the same message.
    #[test]
    fn randomly_changed_files_read_as_the_table_reader_reads_them() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        let alphabet: &[&[u8]] = &[
            b",",
            b"\t",
            b"\"",
            b"\r",
            b"\n",
            b"\r\n",
            b"-",
            b"0",
            b"9",
            b".",
            b"e",
            b"E",
            b"+",
            b" ",
            b"x",
            b"null",
            b"true",
            b"NaN",
            b"\xff",
            "é".as_bytes(),
            b"1e400",
            b"007",
            b"",
        ];
        let mut compared = 0;
        for case in 0..400 {
            let delimiter = if case % 3 == 0 { b'\t' } else { b',' };
            let mut bytes = samples_file(40, delimiter as char).into_bytes();
            for _ in 0..rng.random_range(1..4) {
                let at = rng.random_range(0..bytes.len());
                let what = alphabet[rng.random_range(0..alphabet.len())];
                let cut = rng.random_range(0..3).min(bytes.len() - at);
                bytes.splice(at..at + cut, what.iter().copied());
            }
            if unambiguous(&bytes, delimiter, &["suite", "case"]) {
                same_as_whole(&bytes, delimiter, &["suite", "case"], &["host_us", "device_us"]);
                compared += 1;
            }
        }
        assert!(compared > 300, "only {compared} files compared");
    }
}
