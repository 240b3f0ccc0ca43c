//! `ncu`: the CSV that NVIDIA Nsight Compute's command line (`ncu --csv`) prints, one record per
//! kernel launch it profiled. This module owns ncu's two per-launch layouts (the details page,
//! the default, and the raw page, `--page raw`), the lines ncu and the profiled program print
//! around them, ncu's units and how a metric's field is named from its name and unit
//! ([`field_name`], which the article's side calls to find the field of a row of ncu's console
//! tables). It never reads ncu's per-kernel summary (`--print-summary per-kernel`), which holds
//! only the minimum, maximum and average of each metric: a statistic is recomputed from the
//! launches or not at all.
//!
//! What ncu writes, as seen in ncu 2025.3.1's own output (`tests/fixtures/harness/ncu/`):
//!
//! - ncu's own messages (`==PROF== Connected to process …`, `==WARNING== …`, `==ERROR== …`)
//!   and whatever the profiled program prints go to the same stream as the table, before it
//!   and, for a program that prints while it runs, between its rows. Those lines are skipped:
//!   ncu quotes every cell of every row, header included, so a row is a line that begins with
//!   `"`. Any other line is skipped, and a line that begins with `"` after the header is a row
//!   that must be whole.
//! - The details page's header is `"ID","Process ID","Process Name","Host Name","Kernel Name",
//!   "Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name",
//!   "Metric Unit","Metric Value","Rule Name","Rule Type","Rule Description","Estimated Speedup
//!   Type","Estimated Speedup"`. Each launch writes one row per metric of each section it
//!   collected (ending after `Metric Value` with a comma, so with one empty cell after it), and
//!   one row per rule result (empty `Metric Name`, all cells written), which is not a
//!   measurement and is skipped.
//! - The raw page's header is `"ID", …, "CC"` and then one column per metric id
//!   (`gpu__time_duration.sum`, `dram__bytes_read.sum`, `device__attribute_*`); the row after the
//!   header holds each column's unit (`ns`, `byte`, `%`, empty), and every row after it is one
//!   launch.
//! - Numbers are written with the locale's separators: `2,615,053,763.44`, `5,870`, and under a
//!   locale with a decimal comma `1.640,63`, `12,91`. Which is which is decided once per file
//!   ([`Separators`]), and a file that does not show it is refused rather than guessed.
//! - Units are base units by default (`ns`, `byte`, `byte/s`, `hz`, `cycle`, `%`, `sector`);
//!   `--print-units auto` scales them (`usecond`, `Mbyte`, `Gbyte/s`, `Ghz`, `cycle/nsecond`),
//!   with decimal prefixes: ncu prints 9,830,400 bytes as `9.83 Mbyte`. Every value is converted
//!   to its base unit ([`base_unit`]), so that a field means one unit whatever the file wrote.
//! - `no data`, `n/a` and an empty cell stand for no value, and are read as null.
//! - Written from a saved report (`ncu --import report.ncu-rep --csv`), the details page prints
//!   the console's scaled and rounded values (`56.35` `usecond`), where the raw page keeps every
//!   digit (`56,352` `ns`): a check over such a details page recomputes no more digits than the
//!   console shows.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `id` | `ID`: the launch's number in the profiling session, from 0 |
//! | `kernel` | `Kernel Name` as written: `saxpy(int, float, const float *, float *)` |
//! | `function` | the kernel's short name, as ncu prints it in `==PROF== Profiling "saxpy"` (without return type, namespaces, template arguments and parameters; see [`function_name`]) |
//! | `process_id`, `process`, `host` | `Process ID`, `Process Name`, `Host Name` |
//! | `context`, `stream`, `device` | `Context`, `Stream`, `Device` (numbers) |
//! | `cc` | `CC`, the compute capability, as written (`9.0`) |
//! | `block_size`, `grid_size` | `Block Size`, `Grid Size` as written (`(256, 1, 1)`) |
//! | details page: each metric | [`field_name`] of its name and unit: `Duration` in `ns` is `duration_ns`, `DRAM Throughput` in `%` is `dram_throughput_pct`, `Memory Throughput` in `byte/s` is `memory_throughput_bytes_per_s`; its value in that base unit |
//! | raw page: each metric column | the metric id with the unit's suffix: `gpu__time_duration.sum_ns`, `dram__bytes_read.sum_bytes`, `dram__throughput.avg.pct_of_peak_sustained_elapsed_pct`, `device__attribute_clock_rate` (no unit); its value in that base unit |
//! | raw page: each console row's field | where the page holds the metric behind a row of the console's `GPU Speed Of Light Throughput` or `Memory Workload Analysis` section, in that row's unit, the details page's field of that row with the same value (`duration_ns` beside `gpu__time_duration.sum_ns`; see [`CONSOLE_ROWS`]) |
//!
//! A metric's value is a number (in its base unit) where the cell is one, null where it is
//! `no data`, `n/a` or empty, and else the text as written (`PolicySpread`, `NVIDIA H100 80GB
//! HBM3`). Where two sections of one launch give the same field different values, each of
//! those is named with its section before it (`memory_workload_analysis.mem_busy_pct`) and the
//! plain name is not given, since it would not say which; the same value from two sections is
//! one field. A metric whose field would be one of the fixed fields above is named with its
//! section too.
//!
//! A record's line is the line of the launch's first row. A row that begins as one but has
//! another number of cells than the layout holds, a quoted cell left open at the file's end, a
//! last row without its line end (ncu ends every row with one: the file was cut short), an
//! `ID` that is not a number and a second header are refused, each at its place.

use std::collections::BTreeMap;
use std::ops::Range;

use super::Source;
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// The layouts this reader reads, as the report names them (`read as …`).
pub(super) const DETAILS_PAGE: &str = "Nsight Compute CSV (details page)";
pub(super) const RAW_PAGE: &str = "Nsight Compute CSV (raw page)";

/// What to export instead of a file that holds summaries only.
const EXPORT_PER_LAUNCH: &str =
    "export each launch instead: `ncu --csv` without `--print-summary` (the details page), `ncu --csv --page raw`, or `ncu --import report.ncu-rep --csv` from a saved report";

/// Whether `text` is ncu's CSV output: its first row (a line beginning with `"`, after ncu's
/// messages and the program's output) is a header of one of ncu's layouts.
pub(super) fn looks_like(text: &str) -> bool {
    find_header(text).is_some()
}

/// The field a details-page metric `metric` in `unit` gives, in any spelling of the unit ncu
/// prints (base, as the CSV writes by default, or scaled, as the console and `--print-units
/// auto` write): the metric's name in snake case, then the suffix of the unit's base unit
/// (`_ns`, `_bytes`, `_bytes_per_s`, `_pct`, `_hz`, `_cycles`, `_sectors`; `_` and the unit in
/// snake case for any other, `register/thread` as `_register_per_thread`; nothing without a
/// unit), which is left off where the name already ends with it (`Elapsed Cycles` in `cycle` is
/// `elapsed_cycles`). `Duration` in `us` is `duration_ns`, `Memory Throughput` in `Gbyte/s` is
/// `memory_throughput_bytes_per_s`. `None` where the name holds no letter or digit.
pub(crate) fn field_name(metric: &str, unit: &str) -> Option<String> {
    let name = snake(metric);
    if name.is_empty() {
        return None;
    }
    let suffix = unit_suffix(&base_unit(unit).0);
    // A name that already ends with its unit's word (`Elapsed Cycles` in `cycle`) does not
    // repeat it.
    if name.ends_with(&suffix) {
        return Some(name);
    }
    Some(format!("{name}{suffix}"))
}

/// Whether `field` is a field this reader names after the metric `metric` (a row of ncu's
/// console), in any base unit: `duration_ns` and `memory_workload_analysis.mem_busy_pct` are
/// `Duration` and `Mem Busy`. A metric's field is its name and its unit's suffix, so a longer
/// metric name that begins with this one (`Duration Foo`) is not it.
pub(crate) fn names_metric(field: &str, metric: &str) -> bool {
    // A section-qualified field is the section, a dot, and the metric's own field.
    let field = field.rsplit_once('.').map_or(field, |(_, f)| f);
    const BASES: [&str; 9] = ["", "ns", "byte", "byte/s", "%", "hz", "cycle", "sector", "inst"];
    BASES.iter().any(|unit| field_name(metric, unit).as_deref() == Some(field))
}

/// The base unit of a unit ncu prints, and the power of ten that takes a value in `unit` to it:
/// `usecond` is (`ns`, 3), `Gbyte/s` (`byte/s`, 9), `Ghz` and `cycle/nsecond` (`hz`, 9),
/// `Mbyte` (`byte`, 6; ncu's prefixes are decimal). A unit it does not know is its own base.
pub(crate) fn base_unit(unit: &str) -> (String, i32) {
    let unit = unit.trim();
    if unit == "%" {
        return ("%".to_string(), 0);
    }
    if let Some(exp) = time_exp(unit) {
        return ("ns".to_string(), exp + 9);
    }
    if let Some((num, den)) = unit.split_once('/') {
        // A rate over time (bytes or cycles per second) is per second; any other ratio
        // (`register/thread`, `byte/block`) keeps its denominator.
        if let Some(per) = time_exp(den) {
            if let Some(exp) = prefixed(num, "byte") {
                return ("byte/s".to_string(), exp - per);
            }
            if let Some(exp) = prefixed(num, "cycle") {
                return ("hz".to_string(), exp - per);
            }
        }
        if let Some((base, exp)) = counted(num) {
            return (format!("{base}/{den}"), exp);
        }
        return (unit.to_string(), 0);
    }
    if let Some(exp) = prefixed(unit, "hz").or_else(|| prefixed(unit, "Hz")) {
        return ("hz".to_string(), exp);
    }
    if let Some((base, exp)) = counted(unit) {
        return (base.to_string(), exp);
    }
    (unit.to_string(), 0)
}

/// The short name of a kernel as ncu prints it (`==PROF== Profiling "saxpy"`): the name of the
/// function without its return type, namespaces, class, template arguments and parameters.
/// `saxpy(int, float, const float *, float *)` is `saxpy`, `void
/// unnamed>::cunn_SoftMaxForwardReg<float, …>(T3 *, const T1 *, T5)` is
/// `cunn_SoftMaxForwardReg`. A name this cannot take apart is returned up to its first `(`.
pub(crate) fn function_name(kernel: &str) -> String {
    // ncu writes the anonymous namespace as `(anonymous namespace)` or `<unnamed>`, and its
    // CSV as `unnamed>` without the opening bracket: each is made one word first, so that the
    // brackets of template arguments can be counted.
    let s = kernel.replace("(anonymous namespace)", "anon").replace("<unnamed>", "anon").replace("unnamed>", "anon");
    let chars: Vec<char> = s.chars().collect();
    let mut last: Option<String> = None;
    let mut i = 0;
    while i < chars.len() {
        if !is_ident(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        let ident: String = chars[start..i].iter().collect();
        match chars.get(i) {
            Some('(') => return ident,
            Some('<') => {
                // The template arguments end where the brackets balance; a class template's
                // member (`Foo<int>::bar`) goes on to the member.
                let Some(close) = matching(&chars, i) else { return ident };
                if chars.get(close + 1) == Some(&':') && chars.get(close + 2) == Some(&':') {
                    i = close + 3;
                    last = None;
                    continue;
                }
                return ident;
            }
            _ => last = Some(ident),
        }
    }
    last.unwrap_or_else(|| kernel.split('(').next().unwrap_or(kernel).trim().to_string())
}

pub(super) fn read(src: &Source) -> Result<(Jsonl, &'static str), Diagnostic> {
    let Some(header) = find_header(src.text) else {
        let first = first_content_line(src.text);
        return Err(src
            .error(first, "this is not Nsight Compute's CSV output: no line holds its header (`\"ID\",\"Process ID\",\"Process Name\",…,\"Kernel Name\"`)", "no ncu header")
            .with_note("write it with `ncu --csv` (the details page) or `ncu --csv --page raw`; a file re-saved without ncu's quotes is a plain table: `format = \"csv\"`"));
    };
    let columns = Columns::of(&header.cells);
    let header_span = header.line_span.clone();
    // The per-kernel summary names no launch: `Invocations`, then the minimum, maximum and
    // average of each metric over them.
    if columns.id.is_none() && (columns.has("Invocations") || columns.has("Average")) {
        return Err(src.summary_only(header_span, "Nsight Compute's per-kernel summary (`--print-summary per-kernel`)", EXPORT_PER_LAUNCH));
    }
    let Some(id) = columns.id else {
        return Err(src
            .error(header_span, "this Nsight Compute header has no `ID` column, so its rows cannot be told apart by launch", "header")
            .with_note("write it with `ncu --csv` (the details page) or `ncu --csv --page raw`"));
    };
    let Some(kernel) = columns.find("Kernel Name") else {
        return Err(src.error(header_span, "this Nsight Compute header has no `Kernel Name` column", "header"));
    };
    let details = match (columns.find("Metric Name"), columns.find("Metric Unit"), columns.find("Metric Value")) {
        (Some(name), Some(unit), Some(value)) => Some(Details { section: columns.find("Section Name"), name, unit, value }),
        (None, None, None) => None,
        _ => {
            return Err(src.error(
                header_span,
                "this Nsight Compute header names some of `Metric Name`, `Metric Unit` and `Metric Value` but not all three, as the details page does",
                "header",
            ));
        }
    };
    // A metric's row of the details page ends with a comma after its value, so with one empty
    // cell where the rule columns begin; a rule's row, and every row of the raw page, has a cell
    // for every column.
    // Such a short row must still hold every column read (as ncu's, whose launch and metric
    // columns come first), or a crafted header could point past its cells.
    let read_max =
        FIXED.iter().filter_map(|(title, _, _)| columns.find(title)).chain(details.iter().flat_map(|d| [d.section, Some(d.name), Some(d.unit), Some(d.value)]).flatten()).max();
    let short = details.as_ref().map(|d| d.value + 2).filter(|n| *n < header.cells.len() && read_max.is_some_and(|m| m < *n));
    let rows = rows_after(src, &header, short)?;
    if rows.is_empty() {
        return Err(no_launches(src, header_span));
    }
    let fixed = Fixed { id, kernel, columns: &columns };
    match details {
        Some(d) => Ok((read_details(src, &fixed, &d, &rows)?, DETAILS_PAGE)),
        None => Ok((read_raw(src, &header, &fixed, &rows)?, RAW_PAGE)),
    }
}

/// The columns of the details page that give a metric.
struct Details {
    section: Option<usize>,
    name: usize,
    unit: usize,
    value: usize,
}

/// The header's titles, to find columns by.
struct Columns {
    titles: Vec<String>,
    id: Option<usize>,
}

impl Columns {
    fn of(cells: &[Cell]) -> Columns {
        let titles: Vec<String> = cells.iter().map(|c| c.text.clone()).collect();
        let id = titles.iter().position(|t| t == "ID");
        Columns { titles, id }
    }

    fn find(&self, title: &str) -> Option<usize> {
        self.titles.iter().position(|t| t == title)
    }

    fn has(&self, title: &str) -> bool {
        self.find(title).is_some()
    }
}

/// The columns every launch's record takes, by their titles: (title, field, whether a number).
const FIXED: [(&str, &str, bool); 11] = [
    ("ID", "id", true),
    ("Process ID", "process_id", true),
    ("Process Name", "process", false),
    ("Host Name", "host", false),
    ("Kernel Name", "kernel", false),
    ("Context", "context", true),
    ("Stream", "stream", true),
    ("Block Size", "block_size", false),
    ("Grid Size", "grid_size", false),
    ("Device", "device", true),
    ("CC", "cc", false),
];

/// Every fixed field's name, `function` included, which a metric's field must not take.
fn is_fixed_field(name: &str) -> bool {
    name == "function" || FIXED.iter().any(|(_, f, _)| *f == name)
}

/// Where a launch's own columns are.
struct Fixed<'c> {
    id: usize,
    kernel: usize,
    columns: &'c Columns,
}

impl Fixed<'_> {
    /// The launch's number in `row`, or the error at its cell.
    fn id_of(&self, src: &Source, row: &Row) -> Result<i64, Diagnostic> {
        let cell = &row.cells[self.id];
        cell.text.parse::<i64>().map_err(|_| src.error(cell.span.clone(), format!("`ID` is `{}`, not the number of a launch", cell.text), "not a launch's number"))
    }

    /// The fixed fields of the launch `row` is a row of, in the order of the module's table.
    fn fields<'r>(&self, row: &'r Row, function: &'r str) -> Vec<(&'r str, FieldValue<'r>)> {
        let mut out = Vec::new();
        for (title, field, numeric) in FIXED {
            let Some(idx) = self.columns.find(title) else { continue };
            let text = row.cells[idx].text.as_str();
            let value = match text.parse::<i64>() {
                Ok(n) if numeric => FieldValue::Int(n),
                _ => FieldValue::Str(text),
            };
            out.push((field, value));
            if idx == self.kernel {
                out.push(("function", FieldValue::Str(function)));
            }
        }
        out
    }
}

/// A quoted cell: its text with quotes undone, and its span in the file (quotes included).
#[derive(Debug, Clone)]
struct Cell {
    text: String,
    span: Range<usize>,
}

/// A row of the table: the line it starts on, that line's span, and its cells.
struct Row {
    line: usize,
    line_span: Range<usize>,
    cells: Vec<Cell>,
}

/// The header row: its cells, its line's span and where the text after it begins.
struct Header {
    cells: Vec<Cell>,
    line_span: Range<usize>,
    end: usize,
}

/// How a line that begins with `"` failed to split into cells.
enum Broken {
    /// A quoted cell opened at this byte is not closed before the file ends.
    Open(usize),
    /// After a closing quote at this byte comes something other than `,` or the line's end.
    AfterQuote(usize),
}

/// The header of ncu's CSV output in `text`: the first line that begins with `"` and splits into
/// cells where it names `Kernel Name` and `ID` or `Process ID`. The search stops at the first
/// line that splits into two cells or more (a table's header or row) and is not ncu's header, so
/// that a plain table is not searched to its end; a program's line of one quoted string is passed
/// over.
fn find_header(text: &str) -> Option<Header> {
    let mut pos = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        if text[pos..].starts_with('"')
            && let Ok((cells, row_end)) = split_row(text, pos)
        {
            let names = |t: &str| cells.iter().any(|c| c.text == t);
            if names("Kernel Name") && (names("ID") || names("Process ID")) {
                return Some(Header { cells, line_span: pos..line_end(text, pos), end: row_end });
            }
            if cells.len() >= 2 {
                return None;
            }
        }
        pos = end;
    }
    None
}

/// The rows after `header`: every line that begins with `"`, split into cells, each with as many
/// as the header or else `short` (a metric's row of the details page); every other line skipped.
fn rows_after(src: &Source, header: &Header, short: Option<usize>) -> Result<Vec<Row>, Diagnostic> {
    let text = src.text;
    let n_columns = header.cells.len();
    let mut rows = Vec::new();
    let mut pos = header.end;
    while pos < text.len() {
        if !text[pos..].starts_with('"') {
            pos = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
            continue;
        }
        let (line, _) = src.locate(pos);
        let line_span = pos..line_end(text, pos);
        let (cells, end) = split_row(text, pos).map_err(|broken| match broken {
            Broken::Open(at) => src
                .error(at..text.len().min(line_end(text, at)), "this row is cut short: the quoted cell that opens here is not closed before the file ends", "cut short")
                .with_note("write the file again: ncu closes every cell it opens"),
            Broken::AfterQuote(at) => {
                src.error(at..at + 1, "this row is not ncu's CSV: a quoted cell is followed by something other than `,` or the line's end", "after a closing quote")
            }
        })?;
        if !text[..end].ends_with('\n') {
            return Err(src
                .error(line_span, "this last row has no line end, so the file may be cut short inside it: ncu ends every row with one", "cut short?")
                .with_note("write the file again; if the row is whole, end it with a line end"));
        }
        let n = cells.len();
        if n != n_columns && Some(n) != short {
            let expected = match short {
                Some(k) => format!("{k} (a metric's row) or {n_columns} (a rule's row)"),
                None => format!("{n_columns}"),
            };
            return Err(src
                .error(line_span, format!("this row has {n} cells where ncu writes {expected} under this header of {n_columns} columns"), "wrong number of cells")
                .with_note("the row may be cut short or edited: write the file again with ncu"));
        }
        if cells.iter().zip(&header.cells).all(|(a, b)| a.text == b.text) && n == n_columns {
            return Err(src
                .error(line_span, "a second header: this file holds the output of more than one ncu run, whose launches are numbered alike", "second header")
                .with_note("keep each run's output in its own file"));
        }
        rows.push(Row { line, line_span, cells });
        pos = end;
    }
    Ok(rows)
}

/// The cells of the row starting at `start` (a `"`), and where the text after it begins. A
/// quoted cell may hold commas, doubled quotes and line ends; an unquoted one (the empty cell
/// after a row's last comma) runs to the next comma or the line's end.
fn split_row(text: &str, start: usize) -> Result<(Vec<Cell>, usize), Broken> {
    let bytes = text.as_bytes();
    let mut cells = Vec::new();
    let mut i = start;
    loop {
        let cell_start = i;
        if bytes.get(i) == Some(&b'"') {
            let mut value = String::new();
            let mut j = i + 1;
            loop {
                let Some(k) = text[j..].find('"').map(|k| j + k) else { return Err(Broken::Open(cell_start)) };
                value.push_str(&text[j..k]);
                if bytes.get(k + 1) == Some(&b'"') {
                    value.push('"');
                    j = k + 2;
                } else {
                    i = k + 1;
                    break;
                }
            }
            cells.push(Cell { text: value, span: cell_start..i });
        } else {
            let stop = text[i..].find([',', '\n', '\r']).map_or(text.len(), |k| i + k);
            cells.push(Cell { text: text[i..stop].to_string(), span: i..stop });
            i = stop;
        }
        match bytes.get(i) {
            Some(b',') => i += 1,
            None => return Ok((cells, i)),
            Some(b'\n') => return Ok((cells, i + 1)),
            Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => return Ok((cells, i + 2)),
            Some(_) => return Err(Broken::AfterQuote(i)),
        }
    }
}

/// The refusal of a file with a header (and a units row) but no launch.
fn no_launches(src: &Source, header_span: Range<usize>) -> Diagnostic {
    src.error(header_span, "this file has Nsight Compute's header but no launch after it: there are no records to read", "no launches").with_note(
        "ncu writes the header alone when it profiled no kernel: check its `--kernel-name`, `--launch-skip` and `--launch-count` filters, and that the program launched kernels; or the file was cut short",
    )
}

/// The details page's records: one per launch, from its metric rows.
fn read_details(src: &Source, fixed: &Fixed, d: &Details, rows: &[Row]) -> Result<Jsonl, Diagnostic> {
    let metric_rows: Vec<&Row> = rows.iter().filter(|r| !r.cells[d.name].text.trim().is_empty()).collect();
    let seps = Separators::of(src, metric_rows.iter().map(|r| &r.cells[d.value]))?;
    // The launches in the order their first rows appear, each with its rows.
    let mut order: Vec<(i64, Vec<&Row>)> = Vec::new();
    let mut index: BTreeMap<i64, usize> = BTreeMap::new();
    for row in rows {
        let id = fixed.id_of(src, row)?;
        match index.get(&id) {
            Some(&k) => {
                let first = order[k].1[0];
                let (a, b) = (&first.cells[fixed.kernel], &row.cells[fixed.kernel]);
                if a.text != b.text {
                    return Err(src.error(
                        b.span.clone(),
                        format!("launch {id} names the kernel `{}` here but `{}` at line {}: its rows must name one kernel", b.text, a.text, first.line),
                        "another kernel",
                    ));
                }
                order[k].1.push(row);
            }
            None => {
                index.insert(id, order.len());
                order.push((id, vec![row]));
            }
        }
    }
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for (_, launch_rows) in &order {
        let first = launch_rows[0];
        let function = function_name(&first.cells[fixed.kernel].text);
        let metrics = launch_metrics(src, d, &seps, launch_rows)?;
        let mut fields = fixed.fields(first, &function);
        fields.extend(metrics.iter().map(|(name, value)| (name.as_str(), *value)));
        out.push(first.line, first.line_span.clone(), fields);
    }
    Ok(out.finish())
}

/// The metric fields of one launch (see the module's documentation for names given twice).
fn launch_metrics<'r>(src: &Source, d: &Details, seps: &Separators, rows: &[&'r Row]) -> Result<Vec<(String, FieldValue<'r>)>, Diagnostic> {
    struct Metric<'r> {
        section: String,
        field: String,
        value: FieldValue<'r>,
        row: &'r Row,
    }
    let mut metrics: Vec<Metric<'r>> = Vec::new();
    for row in rows {
        let name = &row.cells[d.name].text;
        let Some(field) = field_name(name, &row.cells[d.unit].text) else { continue };
        let (_, exp) = base_unit(&row.cells[d.unit].text);
        let section = d.section.map(|s| row.cells[s].text.as_str()).unwrap_or("");
        metrics.push(Metric { section: snake(section), field, value: seps.value(&row.cells[d.value].text, exp), row });
    }
    // A name is qualified with its section where the launch gives it more than one value, or
    // where it is a fixed field's.
    let mut values: BTreeMap<&str, Vec<FieldValue<'r>>> = BTreeMap::new();
    for m in &metrics {
        let seen = values.entry(m.field.as_str()).or_default();
        if !seen.iter().any(|v| same(*v, m.value)) {
            seen.push(m.value);
        }
    }
    let qualify: Vec<bool> = metrics.iter().map(|m| is_fixed_field(&m.field) || values[m.field.as_str()].len() > 1).collect();
    let mut out: Vec<(String, FieldValue<'r>)> = Vec::new();
    let mut at: BTreeMap<String, (FieldValue<'r>, usize)> = BTreeMap::new();
    for (m, q) in metrics.iter().zip(qualify) {
        let name = if q { format!("{}.{}", if m.section.is_empty() { "section" } else { &m.section }, m.field) } else { m.field.clone() };
        match at.get(&name) {
            Some((v, _)) if same(*v, m.value) => {}
            Some((_, line)) => {
                return Err(src.error(
                    m.row.cells[d.value].span.clone(),
                    format!("the field `{name}` of this launch is given another value here than at line {line}: its section writes the metric twice"),
                    "another value",
                ));
            }
            None => {
                at.insert(name.clone(), (m.value, m.row.line));
                out.push((name, m.value));
            }
        }
    }
    Ok(out)
}

/// Whether two values are the same, a number by its bits (so that NaN equals itself).
fn same(a: FieldValue<'_>, b: FieldValue<'_>) -> bool {
    match (a, b) {
        (FieldValue::Float(x), FieldValue::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// The raw page's records: the units row, then one launch a row.
fn read_raw(src: &Source, header: &Header, fixed: &Fixed, rows: &[Row]) -> Result<Jsonl, Diagnostic> {
    let header_span = header.line_span.clone();
    let Some((units, launches)) = rows.split_first() else { return Err(no_launches(src, header_span)) };
    let id_unit = &units.cells[fixed.id];
    if !id_unit.text.is_empty() {
        return Err(src
            .error(
                units.line_span.clone(),
                format!(
                    "the raw page's row after its header holds each column's unit, with the `ID` cell empty, but this row's `ID` is `{}`: its units row is missing",
                    id_unit.text
                ),
                "expected the units row",
            )
            .with_note("write the file again with `ncu --csv --page raw`, which writes the units under the header"));
    }
    if launches.is_empty() {
        return Err(no_launches(src, header_span));
    }
    // Each metric column's field and the power of ten to its base unit.
    let mut metrics: Vec<(usize, String, i32)> = Vec::new();
    for (idx, cell) in header.cells.iter().enumerate() {
        if FIXED.iter().any(|(title, _, _)| *title == cell.text) {
            continue;
        }
        let (base, exp) = base_unit(&units.cells[idx].text);
        let field = format!("{}{}", cell.text, unit_suffix(&base));
        if is_fixed_field(&field) || metrics.iter().any(|(_, f, _)| *f == field) {
            return Err(src.error(
                cell.span.clone(),
                format!("the column `{}` gives the field `{field}`, which another column of this header gives too", cell.text),
                "field twice",
            ));
        }
        metrics.push((idx, field, exp));
    }
    let seps = Separators::of(src, launches.iter().flat_map(|r| metrics.iter().map(move |(idx, _, _)| &r.cells[*idx])))?;
    // The details page's field of each console row whose metric this page holds in the unit
    // the row is in, unless a column of the page already gives that name.
    let aliases: Vec<(String, String)> = CONSOLE_ROWS
        .iter()
        .filter_map(|(id, row, unit)| {
            let field = format!("{id}{}", unit_suffix(unit));
            let (_, field, _) = metrics.iter().find(|(_, f, _)| *f == field)?;
            let alias = field_name(row, unit)?;
            (!metrics.iter().any(|(_, f, _)| *f == alias) && !is_fixed_field(&alias)).then(|| (alias, field.clone()))
        })
        .collect();
    let mut seen: BTreeMap<i64, usize> = BTreeMap::new();
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for row in launches {
        let id = fixed.id_of(src, row)?;
        if let Some(line) = seen.insert(id, row.line) {
            return Err(src.error(
                row.cells[fixed.id].span.clone(),
                format!("launch {id} is written again here, after line {line}: the raw page writes each launch once"),
                "launch written twice",
            ));
        }
        let function = function_name(&row.cells[fixed.kernel].text);
        let mut fields = fixed.fields(row, &function);
        fields.extend(metrics.iter().map(|(idx, field, exp)| (field.as_str(), seps.value(&row.cells[*idx].text, *exp))));
        let named: Vec<(&str, FieldValue<'_>)> =
            aliases.iter().filter_map(|(alias, metric)| fields.iter().find(|(f, _)| *f == metric.as_str()).map(|(_, v)| (alias.as_str(), *v))).collect();
        fields.extend(named);
        out.push(row.line, row.line_span.clone(), fields);
    }
    Ok(out.finish())
}

/// The metric behind each row of the console's `GPU Speed Of Light Throughput` and `Memory
/// Workload Analysis` sections that the raw page names by its id, with the row's name and unit:
/// the raw page gives each such launch the details page's field too (`duration_ns` beside
/// `gpu__time_duration.sum_ns`), so that a number quoted from the console is found by its row
/// whichever page was saved. Each pair was read off one report's raw page against its details
/// page, every launch's value equal (`tests/fixtures/harness/ncu/report`, ncu 2025.3.1).
const CONSOLE_ROWS: [(&str, &str, &str); 15] = [
    ("gpu__time_duration.sum", "Duration", "ns"),
    ("dram__cycles_elapsed.avg.per_second", "DRAM Frequency", "hz"),
    ("gpc__cycles_elapsed.avg.per_second", "SM Frequency", "hz"),
    ("gpc__cycles_elapsed.max", "Elapsed Cycles", "cycle"),
    ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "Memory Throughput", "%"),
    ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "DRAM Throughput", "%"),
    ("l1tex__throughput.avg.pct_of_peak_sustained_active", "L1/TEX Cache Throughput", "%"),
    ("lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 Cache Throughput", "%"),
    ("sm__cycles_active.avg", "SM Active Cycles", "cycle"),
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) Throughput", "%"),
    ("gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed", "Mem Busy", "%"),
    ("gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed", "Max Bandwidth", "%"),
    ("l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate", "%"),
    ("lts__t_sector_hit_rate.pct", "L2 Hit Rate", "%"),
    ("sm__memory_throughput.avg.pct_of_peak_sustained_elapsed", "Mem Pipes Busy", "%"),
];

/// The separators of a file's numbers: the decimal one and the one between groups of thousands.
/// ncu writes them as the locale it runs under does: `1,640.63` in English, `1.640,63` where
/// the decimal separator is a comma. A number shows which it is where it holds both, where one
/// of them appears twice (`2,615,053,763`), or where one is followed by other than three digits
/// (`12,91`, `5.29`); `1,234` alone could be either.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Separators {
    decimal: char,
    thousands: char,
}

impl Separators {
    /// The separators the metric values `cells` show, or the error of a file that shows both
    /// ways, or neither where a value's reading depends on it.
    fn of<'c>(src: &Source, cells: impl Iterator<Item = &'c Cell>) -> Result<Separators, Diagnostic> {
        let mut point: Option<&Cell> = None;
        let mut comma: Option<&Cell> = None;
        let mut ambiguous: Option<&Cell> = None;
        for cell in cells {
            match decimal_shown(&cell.text) {
                Shown::Decimal('.') => point = point.or(Some(cell)),
                Shown::Decimal(_) => comma = comma.or(Some(cell)),
                Shown::Ambiguous => ambiguous = ambiguous.or(Some(cell)),
                Shown::Nothing => {}
            }
        }
        match (point, comma) {
            (Some(p), Some(c)) => {
                let later = if c.span.start > p.span.start { c } else { p };
                let (pl, cl) = (src.locate(p.span.start).0, src.locate(c.span.start).0);
                Err(src
                    .error(
                        later.span.clone(),
                        format!(
                            "this file writes numbers with a decimal point (`{}` at line {pl}) and with a decimal comma (`{}` at line {cl}), so its separators cannot be told apart",
                            p.text, c.text
                        ),
                        "other separators",
                    )
                    .with_note("keep each ncu run's output in its own file, written under one locale (`LC_ALL=C ncu --csv …` writes a decimal point)"))
            }
            (None, Some(_)) => Ok(Separators { decimal: ',', thousands: '.' }),
            (Some(_), None) => Ok(Separators { decimal: '.', thousands: ',' }),
            (None, None) => match ambiguous {
                Some(a) => Err(src
                    .error(
                        a.span.clone(),
                        format!(
                            "cannot tell whether `{}` holds a decimal separator or a thousands separator: no number of this file shows which separator its locale writes for decimals",
                            a.text
                        ),
                        "which separator?",
                    )
                    .with_note("write the file again under a known locale (`LC_ALL=C ncu --csv …` writes a decimal point and `,` between thousands)")),
                None => Ok(Separators { decimal: '.', thousands: ',' }),
            },
        }
    }

    /// A metric's value read with these separators: a number (times ten to `exp`, into its
    /// base unit), null for `no data`, `n/a` or nothing, else the text as written.
    fn value<'t>(&self, text: &'t str, exp: i32) -> FieldValue<'t> {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("no data") || t.eq_ignore_ascii_case("n/a") {
            return FieldValue::Null;
        }
        match self.number(t, exp) {
            Some(v) => FieldValue::Float(v),
            None => FieldValue::Str(text),
        }
    }

    /// `text` as a number times ten to `exp`, where it is one: an optional sign, digits in
    /// groups of three between thousands separators (or none), an optional decimal part and
    /// exponent. The power of ten is applied to the decimal text, so that `3.04` `usecond` is
    /// exactly 3040 ns.
    fn number(&self, text: &str, exp: i32) -> Option<f64> {
        let (sign, rest) = match text.strip_prefix('-') {
            Some(r) => ("-", r),
            None => ("", text.strip_prefix('+').unwrap_or(text)),
        };
        let (mantissa, e) = match rest.find(['e', 'E']) {
            Some(k) => (&rest[..k], rest[k + 1..].parse::<i32>().ok()?),
            None => (rest, 0),
        };
        let (int, frac) = match mantissa.split_once(self.decimal) {
            Some((i, f)) => (i, Some(f)),
            None => (mantissa, None),
        };
        let groups: Vec<&str> = int.split(self.thousands).collect();
        let grouped = groups.len() == 1 || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !grouped || !groups.iter().all(|g| digits(g)) || frac.is_some_and(|f| !digits(f)) {
            return None;
        }
        let total = e.checked_add(exp)?;
        let written = format!("{sign}{}.{}e{total}", groups.concat(), frac.unwrap_or("0"));
        written.parse::<f64>().ok().filter(|v| v.is_finite())
    }
}

/// What one value shows of the file's decimal separator.
enum Shown {
    Decimal(char),
    /// One separator followed by three digits (`1,234`): either.
    Ambiguous,
    /// No separator, or not a number.
    Nothing,
}

fn decimal_shown(text: &str) -> Shown {
    let t = text.trim().trim_start_matches(['-', '+']);
    let t = t.split(['e', 'E']).next().unwrap_or("");
    if t.is_empty() || !t.starts_with(|c: char| c.is_ascii_digit()) || !t.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ',') {
        return Shown::Nothing;
    }
    let (dots, commas) = (t.matches('.').count(), t.matches(',').count());
    match (dots, commas) {
        (0, 0) => Shown::Nothing,
        // Both: the last one is the decimal separator.
        (_, c) if c > 0 && dots > 0 => Shown::Decimal(if t.rfind('.') > t.rfind(',') { '.' } else { ',' }),
        // One of them twice or more separates thousands, so the other is the decimal one.
        (d, 0) if d > 1 => Shown::Decimal(','),
        (0, c) if c > 1 => Shown::Decimal('.'),
        _ => {
            let sep = if dots == 1 { '.' } else { ',' };
            let (before, after) = t.split_once(sep).unwrap_or((t, ""));
            // Thousands are three digits after a group that does not start with 0.
            if after.len() != 3 || before.starts_with('0') || before.len() > 3 { Shown::Decimal(sep) } else { Shown::Ambiguous }
        }
    }
}

/// The power of ten from a time unit ncu prints to seconds: `usecond` and `us` are -6.
fn time_exp(unit: &str) -> Option<i32> {
    match unit {
        "s" | "second" | "sec" => Some(0),
        "ms" | "msecond" => Some(-3),
        "us" | "usecond" | "µs" => Some(-6),
        "ns" | "nsecond" => Some(-9),
        _ => None,
    }
}

/// The power of ten of a decimal prefix ncu writes before a unit, `K` (or `k`), `M`, `G`, `T`,
/// `P`: `Kbyte` is `byte` times 10³.
fn prefixed(unit: &str, base: &str) -> Option<i32> {
    let prefix = unit.strip_suffix(base)?;
    match prefix {
        "" => Some(0),
        "K" | "k" => Some(3),
        "M" => Some(6),
        "G" => Some(9),
        "T" => Some(12),
        "P" => Some(15),
        _ => None,
    }
}

/// A count ncu may scale with a decimal prefix (`Kbyte`, `Mcycle`, `Ksector`): its base and the
/// power of ten.
fn counted(unit: &str) -> Option<(&'static str, i32)> {
    const COUNTS: [&str; 8] = ["byte", "cycle", "sector", "inst", "request", "warp", "thread", "block"];
    COUNTS.iter().find_map(|base| prefixed(unit, base).map(|exp| (*base, exp)))
}

/// The field suffix of a base unit (see [`field_name`]).
fn unit_suffix(base: &str) -> String {
    match base {
        "" => String::new(),
        "ns" => "_ns".to_string(),
        "byte" => "_bytes".to_string(),
        "byte/s" => "_bytes_per_s".to_string(),
        "%" => "_pct".to_string(),
        "hz" => "_hz".to_string(),
        "cycle" => "_cycles".to_string(),
        "sector" => "_sectors".to_string(),
        other => {
            let s = snake(&other.replace('/', " per ").replace('%', " pct "));
            if s.is_empty() { String::new() } else { format!("_{s}") }
        }
    }
}

/// `text` lower-cased, each run of characters other than letters and digits one `_`, none at
/// either end: `L1/TEX Cache Throughput` is `l1_tex_cache_throughput`.
pub(super) fn snake(text: &str) -> String {
    let mut out = String::new();
    let mut gap = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('_');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The index of the `>` that closes the `<` at `open`, counting brackets; `None` where they do
/// not balance.
fn matching(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, c) in chars.iter().enumerate().skip(open) {
        match c {
            '<' => depth += 1,
            '>' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The end of the line holding `pos`, without its line end.
fn line_end(text: &str, pos: usize) -> usize {
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    if end > pos && text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end }
}

/// The span of the first line that is not blank, for an error about the whole file.
fn first_content_line(text: &str) -> Range<usize> {
    let mut pos = 0;
    while pos < text.len() {
        let end = line_end(text, pos);
        if !text[pos..end].trim().is_empty() {
            return pos..end;
        }
        pos = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
    }
    0..text.len()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ROOT, read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use super::*;
    use crate::evidence::jsonl::Scalar;

    /// The fixtures' folder under the harness fixtures' root.
    const DIR: &str = "ncu";

    fn fixture(name: &str) -> super::super::Table {
        read_fixture(&format!("{DIR}/{name}"), None).unwrap_or_else(|e| panic!("{name}: {}", e.render()))
    }

    fn text_of(name: &str) -> String {
        std::fs::read_to_string(format!("{ROOT}/{DIR}/{name}")).unwrap()
    }

    /// The value of `field` in every record, in file order.
    fn column(t: &super::super::Table, field: &str) -> Vec<Option<Scalar>> {
        t.jsonl.records.iter().map(|r| t.jsonl.get(r, field)).collect()
    }

    fn floats(values: &[f64]) -> Vec<Option<Scalar>> {
        values.iter().map(|v| Some(Scalar::Float(*v))).collect()
    }

    /// One report's raw page and details page (`report/`, both written by `ncu --import` from the
    /// same `.ncu-rep`): the raw page gives each launch the details page's field of every console
    /// row whose metric it holds, with the same value, so a number quoted from the console reads
    /// alike from either page. The same value at the details page's precision: written from a
    /// report, the details page prints the console's scaled and rounded values (`56.35` in
    /// `usecond`, 56,350 ns), the raw page every digit (56,352 ns).
    #[test]
    fn the_raw_page_also_names_the_console_rows_its_metrics_are() {
        let raw = fixture("report/report-raw.csv");
        let details = fixture("report/report-details.csv");
        assert_eq!((raw.layout, details.layout), (Some(RAW_PAGE), Some(DETAILS_PAGE)));
        assert_eq!(raw.jsonl.records.len(), 15);
        assert_eq!(column(&raw, "duration_ns"), column(&raw, "gpu__time_duration.sum_ns"));
        let mut compared = 0;
        for (_, row, unit) in CONSOLE_ROWS {
            let field = field_name(row, unit).unwrap();
            let (a, b) = (column(&raw, &field), column(&details, &field));
            assert!(a.iter().all(Option::is_some), "{field} on every launch of the raw page");
            let close = a.iter().zip(&b).all(|(x, y)| match (x, y) {
                (Some(Scalar::Float(x)), Some(Scalar::Float(y))) => (x - y).abs() <= 0.005 * y.abs() + 0.005,
                (Some(Scalar::Int(x)), Some(Scalar::Int(y))) => x == y,
                (x, y) => x == y,
            });
            assert!(close, "{field}: raw {a:?} against details {b:?}");
            compared += 1;
        }
        assert_eq!(compared, 15);
        // 56.35 us in the console is launch 3's duration on both pages.
        assert_eq!(column(&raw, "duration_ns")[3], Some(Scalar::Float(56352.0)));
    }

    /// ncu 2025.3.1's default CSV (the details page) of `saxpy.cu`: 12 launches of `saxpy`, 4 of
    /// `scale_rows`, two sections each, after ncu's messages and the program's own `no error`.
    #[test]
    fn the_saxpy_details_page_gives_one_record_per_launch() {
        let t = fixture("saxpy-details.csv");
        assert_eq!((t.format, t.detected), (Format::Ncu, Detected::ByContent));
        assert_eq!(t.read_as(), "read as Nsight Compute CSV (details page) (detected)");
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 16);
        assert_eq!(column(&t, "id"), (0..16).map(|i| Some(Scalar::Int(i))).collect::<Vec<_>>());
        let first = &j.records[0];
        assert_eq!(first.line, 6);
        assert!(j.line_text(first).starts_with("\"0\",\"2585\",\"saxpy\""), "{}", j.line_text(first));
        assert_eq!(j.records[1].line, 29);
        assert_eq!(j.records[15].line, 351);
        assert_eq!(j.text_of(j.get(first, "kernel")), "saxpy(int, float, const float *, float *)");
        assert_eq!(j.text_of(j.get(first, "function")), "saxpy");
        assert_eq!(j.text_of(j.get(&j.records[12], "function")), "scale_rows");
        assert_eq!(j.get(first, "process_id"), Some(Scalar::Int(2585)));
        assert_eq!(j.text_of(j.get(first, "process")), "saxpy");
        assert_eq!(j.text_of(j.get(first, "host")), "127.0.0.1");
        assert_eq!([j.get(first, "context"), j.get(first, "stream"), j.get(first, "device")], [Some(Scalar::Int(1)), Some(Scalar::Int(7)), Some(Scalar::Int(0))]);
        assert_eq!(j.text_of(j.get(first, "cc")), "9.0");
        assert_eq!(j.text_of(j.get(first, "block_size")), "(256, 1, 1)");
        assert_eq!(j.text_of(j.get(first, "grid_size")), "(256, 1, 1)");
        assert_eq!(j.text_of(j.get(&j.records[8], "grid_size")), "(65536, 1, 1)");
        // The metrics of both sections, in their base units, thousands separators read.
        let expect = [
            ("duration_ns", Scalar::Float(2976.0)),
            ("dram_frequency_hz", Scalar::Float(2_615_053_763.44)),
            ("sm_frequency_hz", Scalar::Float(1_970_514_112.90)),
            ("elapsed_cycles", Scalar::Float(5870.0)),
            ("sm_active_cycles", Scalar::Float(1640.63)),
            ("memory_throughput_pct", Scalar::Float(12.91)),
            ("dram_throughput_pct", Scalar::Float(5.29)),
            ("l1_tex_cache_throughput_pct", Scalar::Float(5.39)),
            ("l2_cache_throughput_pct", Scalar::Float(19.14)),
            ("compute_sm_throughput_pct", Scalar::Float(4.15)),
            ("memory_throughput_bytes_per_s", Scalar::Float(177_032_258_064.52)),
            ("mem_busy_pct", Scalar::Float(12.91)),
            ("l2_persisting_size_bytes", Scalar::Float(9_830_400.0)),
            ("local_memory_spilling_requests", Scalar::Float(0.0)),
            ("local_memory_spilling_request_overhead_pct", Scalar::Null),
        ];
        for (field, value) in expect {
            assert_eq!(j.get(first, field), Some(value), "{field}");
        }
        // A rule's row is not a metric.
        assert!(!j.field_names().iter().any(|f| f.contains("sol") || f.contains("bottleneck")), "{:?}", j.field_names());
        assert_eq!(j.get(&j.records[15], "duration_ns"), Some(Scalar::Float(63712.0)));
        assert_eq!(j.get(&j.records[12], "memory_throughput_bytes_per_s"), Some(Scalar::Float(1_922_721_060_683.32)));
        // The three sizes of `saxpy`, four launches each, select by function and grid.
        let small = samples(&t, "function = \"saxpy\"\ngrid_size = \"(256, 1, 1)\"", "duration_ns");
        assert_eq!(small.len(), 4);
        assert_eq!(samples(&t, "function = \"saxpy\"", "duration_ns").len(), 12);
        assert_eq!(samples(&t, "function = \"scale_rows\"", "duration_ns").len(), 4);
    }

    /// `--print-units base` and `--log-file` write the same layout: the first with the program's
    /// output before the table, the second without it.
    #[test]
    fn the_base_units_and_log_file_outputs_read_alike() {
        for (name, first_line, durations) in [("saxpy-details-base.csv", 6, [3040.0, 63584.0, 63520.0]), ("saxpy-logfile.csv", 5, [3008.0, 64096.0, 63360.0])] {
            let t = fixture(name);
            assert_eq!(t.layout, Some(DETAILS_PAGE), "{name}");
            let j = &t.jsonl;
            assert_eq!(j.records.len(), 16, "{name}");
            assert_eq!(j.records[0].line, first_line, "{name}");
            let got: Vec<_> = [0, 12, 15].iter().map(|&k| j.get(&j.records[k], "duration_ns")).collect();
            assert_eq!(got, floats(&durations), "{name}");
            // Only the Speed Of Light section was collected.
            assert_eq!(j.get(&j.records[0], "memory_throughput_bytes_per_s"), None, "{name}");
            assert!(j.get(&j.records[0], "memory_throughput_pct").is_some(), "{name}");
        }
    }

    /// PyTorch's own softmax kernel: a templated name in an anonymous namespace, which ncu's
    /// CSV writes `unnamed>::`, still gives the short name ncu's console prints.
    #[test]
    fn the_torch_softmax_details_page_names_the_kernel_as_ncu_prints_it() {
        let t = fixture("torch-softmax-details.csv");
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 4);
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>()[..2], [5, 16]);
        for r in &j.records {
            assert_eq!(j.text_of(j.get(r, "function")), "cunn_SoftMaxForwardReg");
            assert_eq!(j.text_of(j.get(r, "process")), "python3.12");
        }
        assert!(j.text_of(j.get(&j.records[0], "kernel")).starts_with("void unnamed>::cunn_SoftMaxForwardReg<float, float, float, unnamed>::SoftMaxForwardEpilogue"));
        assert_eq!(j.get(&j.records[0], "duration_ns"), Some(Scalar::Float(56352.0)));
        assert_eq!(j.get(&j.records[0], "memory_throughput_pct"), Some(Scalar::Float(61.90)));
        assert_eq!(samples(&t, "function = \"cunn_SoftMaxForwardReg\"", "duration_ns").len(), 4);
    }

    /// `--page raw`: a units row under the header, then one row a launch; each metric id with
    /// its unit's suffix.
    #[test]
    fn the_raw_pages_give_one_record_per_launch_with_metric_ids() {
        let t = fixture("saxpy-raw.csv");
        assert_eq!((t.format, t.layout), (Format::Ncu, Some(RAW_PAGE)));
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 16);
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), (7..=22).collect::<Vec<_>>());
        let durations = [2880.0, 2976.0, 3008.0, 3168.0, 5952.0, 5952.0, 5952.0, 6240.0, 69184.0, 69216.0, 69408.0, 69216.0, 64384.0, 63520.0, 63712.0, 64000.0];
        assert_eq!(column(&t, "gpu__time_duration.sum_ns"), floats(&durations));
        let first = &j.records[0];
        assert_eq!(j.get(first, "dram__bytes_read.sum_bytes"), Some(Scalar::Float(527_104.0)));
        assert_eq!(j.get(first, "dram__throughput.avg.pct_of_peak_sustained_elapsed_pct"), Some(Scalar::Float(5.50)));
        assert_eq!(j.get(first, "device__attribute_clock_rate"), Some(Scalar::Float(1_980_000.0)));
        assert_eq!(j.text_of(j.get(first, "device__attribute_display_name")), "NVIDIA H100 80GB HBM3");
        assert_eq!(j.text_of(j.get(first, "launch__cluster_scheduling_policy")), "PolicySpread");
        assert_eq!(j.get(first, "launch__registers_per_thread_register_per_thread"), Some(Scalar::Float(16.0)));
        assert_eq!(j.get(first, "launch__shared_mem_per_block_byte_per_block"), Some(Scalar::Float(1024.0)));
        assert_eq!(j.get(first, "launch__kernel_name"), Some(Scalar::Null));
        assert_eq!(j.text_of(j.get(first, "function")), "saxpy");
        assert_eq!(j.text_of(j.get(&j.records[12], "function")), "scale_rows");
        assert_eq!(j.get(first, "id"), Some(Scalar::Int(0)));

        let t = fixture("torch-softmax-raw.csv");
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 4);
        assert_eq!(j.records[0].line, 6);
        assert_eq!(column(&t, "gpu__time_duration.sum_ns"), floats(&[56704.0, 57088.0, 56256.0, 56672.0]));
        assert_eq!(j.text_of(j.get(&j.records[3], "function")), "cunn_SoftMaxForwardReg");
    }

    /// The per-kernel summary holds the minimum, maximum and average of each metric only.
    #[test]
    fn the_per_kernel_summary_is_refused_with_what_to_export() {
        for format in [None, Some(Format::Ncu)] {
            let err = read_fixture(&format!("{DIR}/saxpy-summary.csv"), format).unwrap_err();
            assert_eq!(err.position().unwrap(), "ncu/saxpy-summary.csv:5:1", "{format:?}");
            assert!(err.message.contains("Nsight Compute's per-kernel summary (`--print-summary per-kernel`) holds only summaries"), "{}", err.message);
            assert!(err.message.contains("`ncu --csv` without `--print-summary`"), "{}", err.message);
            assert!(err.message.contains("`ncu --csv --page raw`"), "{}", err.message);
            assert!(err.message.contains("`ncu --import report.ncu-rep --csv`"), "{}", err.message);
        }
    }

    /// A file whose name does not say CSV is told apart by its header; the console's text is not.
    #[test]
    fn ncu_output_is_detected_under_any_name() {
        let text = text_of("saxpy-details.csv");
        for name in ["out/ncu.txt", "out/ncu.log", "out/ncu"] {
            let t = read_text(name, &text, None).unwrap();
            assert_eq!((t.format, t.jsonl.records.len()), (Format::Ncu, 16), "{name}");
        }
        assert!(!looks_like(&text_of("saxpy-console.txt")));
        assert!(!looks_like("name,time_ns\na,1\n"));
        assert!(!looks_like("\"a\",\"b\",\"c\",\"d\",\"e\"\n\"ID\",\"Process ID\",\"Kernel Name\"\n"));
        // A plain table stays one.
        assert_eq!(read_text("a.csv", "id,kernel\n1,k\n", None).unwrap().format, Format::Csv);
        // Windows line ends read alike.
        let t = read_text("out/ncu.csv", &text.replace('\n', "\r\n"), None).unwrap();
        assert_eq!(t.jsonl.records.len(), 16);
        assert_eq!(t.jsonl.get(&t.jsonl.records[0], "duration_ns"), Some(Scalar::Float(2976.0)));
        assert_eq!(t.jsonl.text_of(t.jsonl.get(&t.jsonl.records[0], "cc")), "9.0");
    }

    /// The header and one launch's rows, as ncu writes them, with `rows` (section, metric,
    /// unit, value) after it: a synthetic file.
    fn synthetic(rows: &[(&str, &str, &str, &str)]) -> String {
        let mut out = String::from(
            "==PROF== Connected to process 1 (/x)\n\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\",\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n",
        );
        for (section, metric, unit, value) in rows {
            out.push_str(&format!(
                "\"0\",\"1\",\"x\",\"h\",\"k(int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"{section}\",\"{metric}\",\"{unit}\",\"{value}\",\n"
            ));
        }
        out
    }

    /// Synthetic: `--print-units auto` scales units; each value is taken back to its base unit,
    /// exactly where the scale is a power of ten applied to the written decimal.
    #[test]
    fn scaled_units_are_read_in_base_units() {
        let text = synthetic(&[
            ("S", "Duration", "usecond", "3.04"),
            ("S", "Elapsed", "msecond", "1.5"),
            ("S", "DRAM Frequency", "Ghz", "2.59"),
            ("S", "SM Frequency", "cycle/nsecond", "1.95"),
            ("S", "Memory Throughput", "Gbyte/s", "173.39"),
            ("S", "L2 Persisting Size", "Mbyte", "9.83"),
            ("S", "Shared", "Kbyte", "32.77"),
            ("S", "Peak", "Tbyte/s", "1.92"),
            ("S", "Registers", "register/thread", "16"),
        ]);
        let t = read_text("a.csv", &text, None).unwrap();
        let (j, r) = (&t.jsonl, &t.jsonl.records[0]);
        assert_eq!(j.records.len(), 1);
        assert_eq!(r.line, 3);
        let expect = [
            ("duration_ns", 3040.0),
            ("elapsed_ns", 1_500_000.0),
            ("dram_frequency_hz", 2.59e9),
            ("sm_frequency_hz", 1.95e9),
            ("memory_throughput_bytes_per_s", 173.39e9),
            ("l2_persisting_size_bytes", 9.83e6),
            ("shared_bytes", 32770.0),
            ("peak_bytes_per_s", 1.92e12),
            ("registers_register_per_thread", 16.0),
        ];
        for (field, value) in expect {
            assert_eq!(j.get(r, field), Some(Scalar::Float(value)), "{field}");
        }
    }

    /// The console's units give the field the CSV's base units give, which the article's side
    /// looks a console row up by.
    /// A console row names its metric's field in any base unit, and only its metric's.
    #[test]
    fn a_console_row_names_its_metric_s_field() {
        assert!(names_metric("duration_ns", "Duration"));
        assert!(names_metric("elapsed_cycles", "Elapsed Cycles"));
        assert!(names_metric("memory_throughput_bytes_per_s", "Memory Throughput"));
        assert!(names_metric("memory_workload_analysis.mem_busy_pct", "Mem Busy"));
        assert!(names_metric("local_memory_spilling_requests", "Local Memory Spilling Requests"));
        assert!(!names_metric("duration_foo_ns", "Duration"));
        assert!(!names_metric("dram_throughput_pct", "Memory Throughput"));
    }

    #[test]
    fn field_names_take_any_spelling_of_a_unit() {
        let cases = [
            ("Duration", "ns", "duration_ns"),
            ("Duration", "us", "duration_ns"),
            ("Duration", "usecond", "duration_ns"),
            ("Duration", "msecond", "duration_ns"),
            ("Memory Throughput", "Gbyte/s", "memory_throughput_bytes_per_s"),
            ("Memory Throughput", "byte/s", "memory_throughput_bytes_per_s"),
            ("Memory Throughput", "%", "memory_throughput_pct"),
            ("DRAM Throughput", "%", "dram_throughput_pct"),
            ("L1/TEX Cache Throughput", "%", "l1_tex_cache_throughput_pct"),
            ("Compute (SM) Throughput", "%", "compute_sm_throughput_pct"),
            ("DRAM Frequency", "Ghz", "dram_frequency_hz"),
            ("SM Frequency", "hz", "sm_frequency_hz"),
            ("SM Frequency", "cycle/usecond", "sm_frequency_hz"),
            ("Elapsed Cycles", "cycle", "elapsed_cycles"),
            ("L2 Compression Input Sectors", "sector", "l2_compression_input_sectors"),
            ("L2 Persisting Size", "Mbyte", "l2_persisting_size_bytes"),
            ("Local Memory Spilling Requests", "", "local_memory_spilling_requests"),
            ("Registers Per Thread", "register/thread", "registers_per_thread_register_per_thread"),
        ];
        for (metric, unit, field) in cases {
            assert_eq!(field_name(metric, unit).as_deref(), Some(field), "{metric} / {unit}");
        }
        assert_eq!(field_name(" -- ", "ns"), None);
        assert_eq!(base_unit("Mbyte"), ("byte".to_string(), 6));
        assert_eq!(base_unit("Gbyte/s"), ("byte/s".to_string(), 9));
        assert_eq!(base_unit("Kbyte/block"), ("byte/block".to_string(), 3));
        assert_eq!(base_unit("widget"), ("widget".to_string(), 0));
    }

    #[test]
    fn function_names_drop_return_type_namespaces_templates_and_parameters() {
        let cases = [
            ("saxpy(int, float, const float *, float *)", "saxpy"),
            ("void unnamed>::cunn_SoftMaxForwardReg<float, float, float, unnamed>::SoftMaxForwardEpilogue, long, 4>(T3 *, const T1 *, T5)", "cunn_SoftMaxForwardReg"),
            ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char *, 1>>(int, T2, T3)", "vectorized_elementwise_kernel"),
            ("void (anonymous namespace)::k<int>(int)", "k"),
            ("void Foo<int>::bar(int)", "bar"),
            ("ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn"),
            ("void ns::plain(float *)", "plain"),
            ("void broken<int(int)", "broken"),
            ("", ""),
        ];
        for (kernel, function) in cases {
            assert_eq!(function_name(kernel), function, "{kernel}");
        }
    }

    /// Synthetic: a file written under a locale with a decimal comma (`1.640,63`, `12,91`) is
    /// read so; one that mixes both ways, or shows neither where it matters, is refused at the
    /// value that cannot be read.
    #[test]
    fn decimal_commas_are_detected_per_file_and_never_guessed() {
        let text = synthetic(&[("S", "SM Active Cycles", "cycle", "1.640,63"), ("S", "Memory Throughput", "%", "12,91"), ("S", "Duration", "ns", "2.976"), ("S", "X", "", "9,00")]);
        let t = read_text("a.csv", &text, None).unwrap();
        let (j, r) = (&t.jsonl, &t.jsonl.records[0]);
        assert_eq!(j.get(r, "sm_active_cycles"), Some(Scalar::Float(1640.63)));
        assert_eq!(j.get(r, "memory_throughput_pct"), Some(Scalar::Float(12.91)));
        assert_eq!(j.get(r, "duration_ns"), Some(Scalar::Float(2976.0)));
        assert_eq!(j.get(r, "x"), Some(Scalar::Float(9.0)));

        let mixed = synthetic(&[("S", "Duration", "ns", "2,976.5"), ("S", "Memory Throughput", "%", "12,91")]);
        let err = read_text("a.csv", &mixed, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "a.csv:4:98", "{}", err.message);
        assert!(err.message.contains("with a decimal point (`2,976.5` at line 3) and with a decimal comma (`12,91` at line 4)"), "{}", err.message);
        let loc = err.location.unwrap();
        assert_eq!(&loc.excerpt[loc.excerpt_span.clone()], "\"12,91\"");

        let unknown = synthetic(&[("S", "Duration", "ns", "2,976"), ("S", "Elapsed Cycles", "cycle", "5")]);
        let err = read_text("a.csv", &unknown, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "a.csv:3:90", "{}", err.message);
        assert!(err.message.contains("cannot tell whether `2,976` holds a decimal separator or a thousands separator"), "{}", err.message);
        // Integers alone need no separator.
        let t = read_text("a.csv", &synthetic(&[("S", "Duration", "ns", "2976")]), None).unwrap();
        assert_eq!(t.jsonl.get(&t.jsonl.records[0], "duration_ns"), Some(Scalar::Float(2976.0)));
    }

    /// Synthetic: two sections of one launch giving one field different values name each with
    /// its section; the same value is one field; a fixed field's name is always qualified.
    #[test]
    fn a_field_given_two_values_by_two_sections_is_named_with_each_section() {
        let text = synthetic(&[
            ("GPU Speed Of Light Throughput", "Mem Busy", "%", "12.91"),
            ("Memory Workload Analysis", "Mem Busy", "%", "13.5"),
            ("GPU Speed Of Light Throughput", "Duration", "ns", "100.5"),
            ("Memory Workload Analysis", "Duration", "usecond", "0.1005"),
            ("Launch Statistics", "ID", "", "3"),
        ]);
        let t = read_text("a.csv", &text, None).unwrap();
        let (j, r) = (&t.jsonl, &t.jsonl.records[0]);
        assert_eq!(j.get(r, "mem_busy_pct"), None);
        assert_eq!(j.get(r, "gpu_speed_of_light_throughput.mem_busy_pct"), Some(Scalar::Float(12.91)));
        assert_eq!(j.get(r, "memory_workload_analysis.mem_busy_pct"), Some(Scalar::Float(13.5)));
        assert_eq!(j.get(r, "duration_ns"), Some(Scalar::Float(100.5)));
        assert_eq!(j.get(r, "id"), Some(Scalar::Int(0)));
        assert_eq!(j.get(r, "launch_statistics.id"), Some(Scalar::Float(3.0)));
        // One section writing a metric twice with two values cannot be named apart.
        let twice = synthetic(&[("S", "Duration", "ns", "1.5"), ("S", "Duration", "ns", "2.5")]);
        let err = read_text("a.csv", &twice, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "a.csv:4:90", "{}", err.message);
        assert!(err.message.contains("the field `s.duration_ns` of this launch is given another value here than at line 3"), "{}", err.message);
    }

    /// Synthetic (the `harness` fuzz target's hand-made seed): a decimal comma, scaled units, the
    /// program's output and ncu's messages between rows, a rule's row with doubled quotes and a
    /// comma in its cells, and a field two sections give two values.
    #[test]
    fn the_hand_made_fuzz_seed_reads_as_documented() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/harness/edge-ncu-decimal-comma-scaled.csv");
        let t = read_text("x.csv", &std::fs::read_to_string(path).unwrap(), None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Ncu, Detected::ByContent));
        let j = &t.jsonl;
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [5, 13]);
        let [a, b] = [&j.records[0], &j.records[1]];
        assert_eq!(j.text_of(j.get(a, "function")), "k");
        assert_eq!(j.text_of(j.get(a, "cc")), "8,6");
        assert_eq!(j.get(a, "duration_ns"), Some(Scalar::Float(3040.0)));
        assert_eq!(j.get(a, "sm_active_cycles"), Some(Scalar::Float(1640.63)));
        assert_eq!(j.get(a, "memory_throughput_pct"), Some(Scalar::Float(12.91)));
        assert_eq!(j.get(a, "memory_throughput_bytes_per_s"), Some(Scalar::Float(173.39e9)));
        assert_eq!(j.get(a, "mem_busy_pct"), Some(Scalar::Null));
        assert_eq!(j.get(b, "duration_ns"), Some(Scalar::Float(3100.0)));
        assert_eq!(j.get(b, "mem_busy_pct"), None);
        assert_eq!(j.get(b, "memory_workload_analysis.mem_busy_pct"), Some(Scalar::Float(13.5)));
        assert_eq!(j.get(b, "gpu_speed_of_light_throughput.mem_busy_pct"), Some(Scalar::Float(14.0)));
    }

    /// Synthetic: the program's output between rows is skipped; a row with a cell missing, a row
    /// cut inside a quoted cell, a last row without its line end, a second header and an `ID`
    /// that is not a number are refused where they are.
    #[test]
    fn broken_rows_are_located() {
        let good = synthetic(&[("S", "Duration", "ns", "1.5")]);
        let t = read_text(
            "a.csv",
            &format!(
                "{good}step 2 done\n==PROF== Disconnected\n\n{}",
                &synthetic(&[("S", "Elapsed Cycles", "cycle", "5")])[good.find("\"ID\"").unwrap()..].split_once('\n').unwrap().1
            ),
            None,
        )
        .unwrap();
        assert_eq!(t.jsonl.records.len(), 1);
        assert_eq!(t.jsonl.get(&t.jsonl.records[0], "elapsed_cycles"), Some(Scalar::Float(5.0)));

        let row = "\"1\",\"1\",\"x\",\"h\",\"k(int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"S\",\"Duration\",\"ns\",\"2.5\",\n";
        let header = good.lines().nth(1).unwrap();
        let cases: Vec<(String, &str, &str, &str)> = vec![
            (
                row.replace("\"h\",", ""),
                "a.csv:4:1",
                "this row has 15 cells where ncu writes 16 (a metric's row) or 20 (a rule's row) under this header of 20 columns",
                "wrong number of cells",
            ),
            (row[..40].to_string(), "a.csv:4:34", "this row is cut short: the quoted cell that opens here is not closed", "cut short"),
            (row.trim_end().to_string(), "a.csv:4:1", "this last row has no line end", "cut short?"),
            (format!("{header}\n{row}"), "a.csv:4:1", "a second header", "second header"),
            (row.replacen("\"1\"", "\"one\"", 1), "a.csv:4:1", "`ID` is `one`, not the number of a launch", "not a launch's number"),
            (row.replacen("\"x\",", "\"x\"y,", 1), "a.csv:4:12", "a quoted cell is followed by something other than `,`", "after a closing quote"),
        ];
        for (bad, at, says, label) in cases {
            let err = read_text("a.csv", &format!("{good}{bad}"), Some(Format::Ncu)).expect_err(&bad);
            assert_eq!(err.position().unwrap(), at, "{bad:?}: {}", err.message);
            assert!(err.message.contains(says), "{bad:?}: {}", err.message);
            assert!(err.message.starts_with("a.csv: line 4: "), "{}", err.message);
            assert_eq!(err.location.as_ref().unwrap().label, label, "{bad:?}");
        }
    }

    /// Synthetic: a header whose `Kernel Name` comes after `Metric Value` takes no short row,
    /// which would lack it, so such a row is refused rather than read past its end.
    #[test]
    fn a_short_row_must_hold_every_column_read() {
        let text = "\"ID\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Kernel Name\"\n\"0\",\"S\",\"Duration\",\"ns\",\"1.5\",\n";
        let err = read_text("a.csv", text, Some(Format::Ncu)).unwrap_err();
        assert_eq!(err.position().unwrap(), "a.csv:2:1");
        assert!(err.message.contains("this row has 6 cells where ncu writes 7"), "{}", err.message);
    }

    /// Synthetic: an empty file, ncu's messages alone, a header alone and a raw page without its
    /// units row have no launches to read, and say so.
    #[test]
    fn files_without_launches_are_refused() {
        let header = synthetic(&[]);
        let cases = [
            ("", "a.csv:1:1", "no line holds its header"),
            ("==PROF== Connected to process 1 (/x)\n==ERROR== the application returned an error\n", "a.csv:1:1", "no line holds its header"),
            (header.as_str(), "a.csv:2:1", "has Nsight Compute's header but no launch after it"),
            ("\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\"\n\"\",\"\",\"\",\"ns\"\n", "a.csv:1:1", "has Nsight Compute's header but no launch after it"),
            ("\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\"\n\"0\",\"k()\",\"9.0\",\"1\"\n", "a.csv:2:1", "its units row is missing"),
        ];
        for (text, at, says) in cases {
            let err = read_text("a.csv", text, Some(Format::Ncu)).unwrap_err();
            assert_eq!(err.position().unwrap(), at, "{text:?}: {}", err.message);
            assert!(err.message.contains(says), "{text:?}: {}", err.message);
        }
    }

    /// Every fixture cut short at many places, or with a byte changed: never a panic, and every
    /// refusal located in the file.
    #[test]
    fn damaged_fixtures_give_located_errors_and_never_panic() {
        let mut refused = 0;
        for name in ["saxpy-details.csv", "saxpy-raw.csv", "torch-softmax-details.csv", "saxpy-summary.csv"] {
            let bytes = std::fs::read(format!("{ROOT}/{DIR}/{name}")).unwrap();
            let step = (bytes.len() / 151).max(1);
            for cut in (1..bytes.len()).step_by(step) {
                let mut damaged = vec![bytes[..cut].to_vec()];
                for replacement in [b'"', b',', b'\n', b'.'] {
                    let mut changed = bytes.clone();
                    changed[cut] = replacement;
                    damaged.push(changed);
                }
                for input in &damaged {
                    let Ok(text) = std::str::from_utf8(input) else { continue };
                    if let Err(err) = read_text(name, text, Some(Format::Ncu)) {
                        refused += 1;
                        assert!(err.location.is_some(), "{name} cut at {cut}: unlocated: {}", err.message);
                    }
                }
            }
        }
        assert!(refused > 300, "only {refused} inputs were refused");
    }
}
