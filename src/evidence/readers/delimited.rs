//! `csv` and `tsv`: a header row naming the columns, then one record a row, read with the
//! `csv` crate. This module owns the header's rules and the typing of cells; it never
//! guesses a header that is not there.
//!
//! A cell is a number where it is written as JSON writes numbers (`12`, `-0.5`, `1e-3`; not
//! `007`, `.5` or `NaN`, which stay text), `true`/`false` as booleans, empty as null, anything
//! else as text. CSV follows RFC 4180 quoting; TSV has no quoting (a `"` is an ordinary
//! character there, as tab-separated files from databases and spreadsheets write it). A row
//! with more or fewer cells than the header is an error at its line. A record's line is the
//! line where its row starts. A harness's own CSV file (`benchmarkdotnet`) is split by the same
//! rows ([`Rows`]), its reader giving each row its meaning.

use std::ops::Range;

use super::{Source, tree};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

pub(super) fn read(src: &Source, delimiter: u8) -> Result<Jsonl, Diagnostic> {
    let kind = if delimiter == b'\t' { "TSV" } else { "CSV" };
    let mut rows = Rows::open(src, delimiter, delimiter != b'\t', kind)?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    while let Some(row) = rows.next()? {
        out.push(row.line, row.span, row.headers.iter().zip(row.cells.iter()).map(|(name, value)| (name, cell(value))));
    }
    Ok(out.finish())
}

/// The rows of a delimited file after its header, read with the `csv` crate under this
/// module's rules: a header with a name for every column and no name twice, and every row
/// with as many cells as the header. Readers of a harness's own CSV (`benchmarkdotnet`) read
/// their rows through it, so that a table is split, and its errors located, in one place.
pub(super) struct Rows<'s, 'a> {
    src: &'s Source<'a>,
    /// Where the table begins in the source's text: the `csv` crate counts from there.
    base: usize,
    kind: &'static str,
    reader: csv::Reader<&'a [u8]>,
    /// The header's names, in column order.
    pub(super) headers: csv::StringRecord,
    row: csv::StringRecord,
}

/// One row of a delimited file, as [`Rows::next`] gives it.
pub(super) struct Row<'r> {
    /// The 1-based line where the row starts, and that line's span.
    pub(super) line: usize,
    pub(super) span: Range<usize>,
    /// The byte where the row starts, from which [`cell_span`] finds a cell.
    pub(super) start: usize,
    pub(super) headers: &'r csv::StringRecord,
    pub(super) cells: &'r csv::StringRecord,
}

impl<'s, 'a> Rows<'s, 'a> {
    /// Reads and checks the header of `src`, split at `delimiter`, with RFC 4180 quoting where
    /// `quoting` is set; `kind` names the format in errors (`CSV`).
    pub(super) fn open(src: &'s Source<'a>, delimiter: u8, quoting: bool, kind: &'static str) -> Result<Self, Diagnostic> {
        Rows::open_in(src, 0..src.text.len(), delimiter, quoting, kind)
    }

    /// As [`Rows::open`], for the table that spans `within` of the source's text (one of several
    /// in a file, or one after lines that are not the table's), its header on the first line
    /// there; rows, lines and errors are located in the whole text.
    pub(super) fn open_in(src: &'s Source<'a>, within: Range<usize>, delimiter: u8, quoting: bool, kind: &'static str) -> Result<Self, Diagnostic> {
        let base = within.start;
        let mut reader = csv::ReaderBuilder::new().delimiter(delimiter).has_headers(true).flexible(false).quoting(quoting).from_reader(src.text[within].as_bytes());
        let headers = reader.headers().map_err(|e| located(src, base, kind, &e))?.clone();
        let header_span = src.locate(base).1;
        if headers.is_empty() {
            return Err(src.error(0..0, format!("{kind} file without a header row"), "expected a header row"));
        }
        for (idx, name) in headers.iter().enumerate() {
            if name.trim().is_empty() {
                return Err(src.error(header_span.clone(), format!("column {} has no name in the header row", idx + 1), "header row"));
            }
            if headers.iter().take(idx).any(|earlier| earlier == name) {
                return Err(src.error(header_span.clone(), format!("column `{name}` appears twice in the header row"), "header row"));
            }
        }
        Ok(Rows { src, base, kind, reader, headers, row: csv::StringRecord::new() })
    }

    /// The next row, `None` after the last, or the error of a row that breaks the rules.
    pub(super) fn next(&mut self) -> Result<Option<Row<'_>>, Diagnostic> {
        match self.reader.read_record(&mut self.row) {
            Ok(false) => return Ok(None),
            Ok(true) => {}
            Err(e) => return Err(located(self.src, self.base, self.kind, &e)),
        }
        let (start, line, span) = match self.row.position() {
            Some(pos) => {
                let start = row_start(self.src.text, self.base + pos.byte() as usize);
                let (line, span) = self.src.locate(start);
                (start, line, span)
            }
            None => (0, 0, 0..0),
        };
        Ok(Some(Row { line, span, start, headers: &self.headers, cells: &self.row }))
    }
}

/// The bytes of cell `index` (from 0) of the row that starts at byte `start` of `text`, its
/// quotes included, split as the `csv` crate splits it: a delimiter or line end between
/// quotes is part of the cell. Where the row has fewer cells, the rest of its first line.
pub(super) fn cell_span(text: &str, start: usize, delimiter: u8, index: usize) -> Range<usize> {
    let bytes = text.as_bytes();
    let start = start.min(bytes.len());
    let (mut cell, mut cell_start, mut quoted) = (0, start, false);
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => quoted = !quoted,
            b'\n' | b'\r' if !quoted => break,
            b if b == delimiter && !quoted => {
                if cell == index {
                    return cell_start..i;
                }
                cell += 1;
                cell_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if cell == index { cell_start..i } else { start..i }
}

/// A cell's value; see the module's documentation.
pub(crate) fn cell(text: &str) -> FieldValue<'_> {
    match text {
        "" => return FieldValue::Null,
        "true" => return FieldValue::Bool(true),
        "false" => return FieldValue::Bool(false),
        _ => {}
    }
    let numeric = text.trim_start().starts_with(|c: char| c == '-' || c.is_ascii_digit());
    if numeric
        && let Ok(node) = tree::parse(text)
        && let Some(n) = node.number(text)
    {
        return match n {
            tree::Number::Int(i) => FieldValue::Int(i),
            tree::Number::Float(f) => FieldValue::Float(f),
        };
    }
    FieldValue::Str(text)
}

/// Where the row the `csv` crate places at byte `at` starts. With CRLF line ends the crate's
/// position is one byte early (on the `\n` that ends the previous row) and its line count
/// falls behind, so the row is found from the byte, past any line-end characters; a row
/// never starts with one, since the crate skips blank lines.
fn row_start(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at.min(bytes.len());
    while i < bytes.len() && matches!(bytes[i], b'\r' | b'\n') {
        i += 1;
    }
    i
}

/// A `csv` error as a diagnostic at the row it is about, in a table that begins at byte `base`.
fn located(src: &Source, base: usize, kind: &str, err: &csv::Error) -> Diagnostic {
    let (pos, message) = match err.kind() {
        csv::ErrorKind::UnequalLengths { pos, expected_len, len } => (pos.clone(), format!("this row has {len} cells, but the header has {expected_len} columns")),
        csv::ErrorKind::Utf8 { pos, err } => (pos.clone(), format!("cell {} is not UTF-8", err.field() + 1)),
        _ => (None, format!("not valid {kind}: {err}")),
    };
    match pos {
        Some(pos) => {
            let span = src.locate(row_start(src.text, base + pos.byte() as usize)).1;
            let shown = src.text[span.clone()].trim_end_matches(['\n', '\r']).len();
            let span = span.start..span.start + shown;
            src.error(span, message, "this row")
        }
        None => Diagnostic::plain(format!("{}: {message}", src.path)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{read_text, samples};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    #[test]
    fn rows_become_typed_records_at_their_lines() {
        let text = "provider,ttft_s,ok,code,note\ngroq,0.55,true,,\"a, b\"\ngroq,0.45,false,007,x\n";
        let t = read_text("r.csv", text, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Csv, Detected::ByName));
        let j = &t.jsonl;
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3]);
        let r = &j.records[0];
        assert_eq!(j.get(r, "ttft_s"), Some(Scalar::Float(0.55)));
        assert_eq!(j.get(r, "ok"), Some(Scalar::Bool(true)));
        assert_eq!(j.get(r, "code"), Some(Scalar::Null));
        assert_eq!(j.text_of(j.get(r, "note")), "a, b");
        assert_eq!(j.text_of(j.get(&j.records[1], "code")), "007");
        assert_eq!(samples(&t, "provider = \"groq\"", "ttft_s").median(), 0.5);
    }

    #[test]
    fn tsv_has_no_quoting() {
        let t = read_text("r.tsv", "name\tt_ms\n5\" screen\t1e-3\n", None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.text_of(j.get(&j.records[0], "name")), "5\" screen");
        assert_eq!(j.get(&j.records[0], "t_ms"), Some(Scalar::Float(0.001)));
    }

    #[test]
    fn a_row_with_the_wrong_number_of_cells_is_located() {
        let err = read_text("r.csv", "a,b\n1,2\n3,4,5\n", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r.csv:3:1");
        assert!(err.message.contains("line 3: this row has 3 cells, but the header has 2 columns"), "{}", err.message);
        assert_eq!(err.location.unwrap().excerpt, "3,4,5");
    }

    #[test]
    fn a_byte_order_mark_and_crlf_line_ends_are_read() {
        let t = read_text("r.csv", "\u{feff}name,t_s\r\na,1.5\r\nb,2\r\n", None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.get(&j.records[0], "t_s"), Some(Scalar::Float(1.5)));
        assert_eq!(j.line_text(&j.records[1]), "b,2");
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(samples(&t, "name = \"b\"", "t_s").median(), 2.0);
        let err = read_text("r.csv", "a,b\r\n1,2\r\n1,2,3\r\n", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r.csv:3:1");
        assert_eq!(err.location.unwrap().excerpt.trim_end(), "1,2,3");
    }

    #[test]
    fn a_bad_header_is_refused() {
        let err = read_text("r.csv", "a,,c\n1,2,3\n", None).unwrap_err();
        assert!(err.message.contains("line 1: column 2 has no name"), "{}", err.message);
        let err = read_text("r.csv", "a,b,a\n1,2,3\n", None).unwrap_err();
        assert!(err.message.contains("column `a` appears twice"), "{}", err.message);
    }

    #[test]
    fn a_non_number_in_a_numeric_column_is_an_error_at_its_line() {
        let t = read_text("r.csv", "t_s\n1\nNaN\n", None).unwrap();
        let all: Vec<_> = t.jsonl.records.iter().collect();
        let err = t.jsonl.samples(&all, "t_s").unwrap_err();
        assert_eq!(err.position().unwrap(), "r.csv:3:1");
        assert!(err.message.contains("`t_s` is NaN, not a number"), "{}", err.message);
    }
}
