//! `nsys`: the CSV (or TSV) that NVIDIA Nsight Systems writes for its per-event reports
//! (`nsys stats --report cuda_gpu_trace --format csv`), one record per event: a kernel launch or
//! memory operation of `cuda_gpu_trace`, an API call of `cuda_api_trace`, an NVTX range of
//! `nvtx_pushpop_trace`, and so on for every report whose rows are events. This module owns
//! finding those tables among the lines nsys prints around them, naming a column's field from its
//! header and unit, and the refusal of nsys's summary reports (`cuda_gpu_kern_sum`,
//! `cuda_api_sum`, `nvtx_sum`, …), which hold each name's total, count, average, median, minimum,
//! maximum and standard deviation and no event: a statistic is recomputed from the events or not
//! at all. (A summary pasted into an article, in nsys's console layout, is read on the article's
//! side, `article::nsight`; its numbers are checked against the trace this module reads.)
//!
//! What nsys writes, as seen in the real `cuda_gpu_trace` and `nvtx_pushpop_trace` reports of
//! nsys 2025.3.2 and 2026.3.1 (`tests/fixtures/harness/nsys/`):
//!
//! - A header row of titles, a time column's title naming its unit: `Start (ns),Duration
//!   (ns),CorrId,GrdX,…,Strm,Name`. `--timeunit` prints times in `us`, `ms` or `s` instead, and
//!   every time is read back in nanoseconds, so that a field means one unit whatever the file
//!   wrote. Other units are kept as written: `Bytes (MB)`, `Throughput (MB/s)`, `Time (%)`.
//! - Then one row per event, RFC 4180 quoting where a cell holds the delimiter (a kernel's
//!   signature: `"saxpy(float, const float *, float *, unsigned long)"`), an empty cell where a
//!   column does not apply to the event (a memory copy has no grid), and a line end after every
//!   row.
//! - Written to standard output (`nsys stats … --format csv` without `--output`), each report is
//!   preceded by nsys's own lines (`Generating SQLite file …`, `Processing [x.sqlite] with
//!   [/…/reports/cuda_gpu_trace.py]... `) and ends at a blank line; several reports follow one
//!   another. Written to files (`--output base`), each report is one file,
//!   `base_cuda_gpu_trace.csv`, holding the table alone.
//! - Without `--format` nsys prints its console layout (`column`): the same titles over a dashed
//!   rule, each value under its column's dashes, numbers grouped by thousands (`1,134,711,990`),
//!   names left-aligned and holding spaces; `nsys profile --stats=true` and a run of several
//!   reports print `[4/8] Executing 'cuda_gpu_trace' stats report` before each. Such output
//!   saved to a file is read by the columns its rule marks out (`super::ruled`, as the article's
//!   side reads it pasted), to the same records as the CSV.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `report` | the report the row belongs to (`cuda_gpu_trace`), from nsys's `Processing … with […/cuda_gpu_trace.py]` line before its table, else from the file's name (`base_cuda_gpu_trace.csv`); absent where neither says |
//! | each column | its title in snake case (lower case, each run of other characters one `_`: `CorrId` is `corrid`, `Reg/Trd` is `reg_trd`, `GrdX` is `grdx`, `Name` is `name`), then its unit's suffix: a time in any unit is `_ns`, in nanoseconds (`Duration (ns)` is `duration_ns`, `Start (us)` is `start_ns`), `%` is `_pct`, `MB/s` (or `MBps`) `_mb_per_s`, any other unit `_` and the unit in snake case (`Bytes (MB)` is `bytes_mb`); the value a number where the cell is one, null where it is empty, else the text as written |
//! | `function` | on a kernel's row (one with a grid, `GrdX`), its short name from `Name`, as Nsight Compute prints it (`saxpyKernel` for `vernier::bench::demo::<unnamed>::saxpyKernel(float, …)`; `super::ncu::function_name`) |
//!
//! A record's line is its row's line. A row with another number of cells than its header, a time
//! cell that is not a number, a last row without its line end (nsys ends every row with one: the
//! file was cut short) and a file with no event are refused, each at its place; a file whose
//! every table is a summary is refused with the trace report to export instead.

use std::ops::Range;

use super::delimited::{Rows, cell, cell_span};
use super::ruled::{self, labels, rule_of};
use super::{Source, ncu, strip_gz};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// The report nsys writes each event of, for the summary a file holds instead (by its report's
/// name): what the refusal says to export.
const TRACE_OF_SUMMARY: [(&str, &str); 10] = [
    ("cuda_gpu_kern_sum", "cuda_gpu_trace"),
    ("cuda_gpu_kern_gb_sum", "cuda_gpu_trace"),
    ("cuda_gpu_mem_time_sum", "cuda_gpu_trace"),
    ("cuda_gpu_mem_size_sum", "cuda_gpu_trace"),
    ("cuda_gpu_sum", "cuda_gpu_trace"),
    ("cuda_api_sum", "cuda_api_trace"),
    ("cuda_kern_exec_sum", "cuda_kern_exec_trace"),
    ("nvtx_pushpop_sum", "nvtx_pushpop_trace"),
    ("nvtx_startend_sum", "nvtx_startend_trace"),
    ("nvtx_gpu_proj_sum", "nvtx_gpu_proj_trace"),
];

/// The first words of the reports' names that nsys ships (`cuda_gpu_trace`, `nvtx_sum`,
/// `osrt_sum`, `mpi_event_trace`, …), to find a report's name at the end of a file's name.
const REPORT_PREFIXES: [&str; 14] = ["cuda_", "nvtx_", "osrt_", "mpi_", "um_", "openmp_", "openacc_", "opengl_", "vulkan_", "dx11_", "dx12_", "wddm_", "syscall_", "nvvideo_"];

/// Whether `text` holds a table of one of nsys's reports, per event or summary: a header whose
/// titles name a start time (`Start (ns)`, `Projected Start (ns)`) or a total time (`Total Time
/// (ns)`), each in a unit nsys prints, as CSV or TSV or over a dashed rule.
pub(super) fn looks_like(text: &str) -> bool {
    // Detection looks at every CSV file: it stops at the first header rather than cutting the
    // whole file into tables, which `read` does once the format is known.
    let mut all = lines(text).map(|(_, line)| bare(line)).peekable();
    while let Some(line) = all.next() {
        let ruled = all.peek().and_then(|next| rule_of(next)).filter(|r| r.len() >= 2 && !line.trim().is_empty() && rule_of(line).is_none());
        let titles = ruled.map(|rule| labels(line, &rule));
        if titles.is_some_and(|t| kind_of(&t.iter().map(String::as_str).collect::<Vec<_>>()).is_some()) || header_kind(line).is_some() {
            return true;
        }
    }
    false
}

/// The layouts this reader reads, as the report names them (`read as …`).
const CSV: &str = "Nsight Systems `nsys stats` CSV";
const TSV: &str = "Nsight Systems `nsys stats` TSV";
const COLUMN: &str = "Nsight Systems `nsys stats` console table";

/// The records of every table of events in the file, and the layout of the first one read.
pub(super) fn read(src: &Source) -> Result<(Jsonl, &'static str), Diagnostic> {
    let tables = tables(src.text);
    let name_report = report_in_name(src.path);
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    let mut first_summary: Option<&Table> = None;
    let mut events = 0usize;
    for table in &tables {
        if table.kind == HeaderKind::Summary {
            first_summary.get_or_insert(table);
            continue;
        }
        let report = table.report.clone().or_else(|| name_report.clone());
        events += read_table(src, table, report.as_deref(), &mut out)?;
    }
    if events > 0 {
        let first = tables.iter().find(|t| t.kind == HeaderKind::Events).map(|t| &t.layout);
        let layout = match first {
            Some(Layout::Delimited(b'\t')) => TSV,
            Some(Layout::Ruled(_)) => COLUMN,
            _ => CSV,
        };
        return Ok((out.finish(), layout));
    }
    if let Some(summary) = first_summary {
        let report = summary.report.clone().or(name_report);
        return Err(refuse_summary(src, summary, report.as_deref()));
    }
    if let Some(table) = tables.first() {
        return Err(src
            .error(table.header.clone(), "this nsys report's table has a header but no event after it: there are no records to read", "no events")
            .with_note("nsys writes a header alone when the profile holds no such event: profile with the trace that collects them (`nsys profile --trace cuda,nvtx …`)"));
    }
    let skipped = lines(src.text).find(|(_, line)| line.starts_with("SKIPPED:"));
    if let Some((span, line)) = skipped {
        return Err(src
            .error(span.clone(), format!("nsys wrote no table here, only that it skipped the report: `{}`", line.trim_end()), "skipped")
            .with_note("profile with the trace that collects the report's events (`nsys profile --trace cuda,nvtx …`), then run `nsys stats` again"));
    }
    let first = lines(src.text).find(|(_, line)| !line.trim().is_empty()).map_or(0..0, |(span, _)| span);
    Err(src
        .error(first, "this is not an nsys report's table: no line holds a report's header (`Start (ns),Duration (ns),…` or `Time (%),Total Time (ns),…`, as CSV, TSV or over a dashed rule)", "no nsys header")
        .with_note("write it with `nsys stats --report cuda_gpu_trace --format csv --output base report.nsys-rep`; a table of another tool is `format = \"csv\"`"))
}

/// Whether a header is that of a report of events or of a summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeaderKind {
    Events,
    Summary,
}

/// One report's table in the text: its header line, where its rows end, how its cells are
/// parted, and the report's name where nsys printed it before the table.
struct Table {
    header: Range<usize>,
    end: usize,
    layout: Layout,
    kind: HeaderKind,
    report: Option<String>,
}

/// How a table's cells are parted: by a delimiter (`--format csv`, `tsv`), or by the columns a
/// dashed rule under the header marks out (`--format column`, what `nsys stats` prints by
/// default, its numbers grouped by thousands: `1,134,711,990`).
enum Layout {
    Delimited(u8),
    Ruled(Vec<Range<usize>>),
}

/// The tables of `text`, in order. A table begins at a header line (over a rule, in the column
/// layout) and ends before the first blank line, line of nsys's own (`Processing [`) or rule
/// after it, or at the end of the text.
fn tables(text: &str) -> Vec<Table> {
    let all: Vec<(Range<usize>, &str)> = lines(text).collect();
    let mut out: Vec<Table> = Vec::new();
    let mut report: Option<String> = None;
    let mut k = 0;
    while k < all.len() {
        let (span, line) = (&all[k].0, bare(all[k].1));
        if let Some(name) = processing_report(line) {
            report = Some(name);
            k += 1;
            continue;
        }
        let rule = all.get(k + 1).and_then(|(_, next)| rule_of(bare(next))).filter(|r| r.len() >= 2 && !line.trim().is_empty() && rule_of(line).is_none());
        let found = match rule {
            Some(rule) => {
                let titles = labels(line, &rule);
                kind_of(&titles.iter().map(String::as_str).collect::<Vec<_>>()).map(|kind| (Layout::Ruled(rule), kind, 2))
            }
            None => None,
        }
        .or_else(|| header_kind(line).map(|kind| (Layout::Delimited(if line.contains('\t') { b'\t' } else { b',' }), kind, 1)));
        let Some((layout, kind, header_lines)) = found else {
            k += 1;
            continue;
        };
        let header = span.start..span.start + line.len();
        let mut end = all[k + header_lines - 1].0.end;
        k += header_lines;
        while let Some((span, line)) = all.get(k) {
            let line = bare(line);
            if line.trim().is_empty() || line.starts_with("Processing [") || (matches!(layout, Layout::Ruled(_)) && rule_of(line).is_some()) {
                break;
            }
            end = span.end;
            k += 1;
        }
        out.push(Table { header, end, layout, kind, report: report.take() });
    }
    out
}

/// `line` without its line end.
fn bare(line: &str) -> &str {
    line.trim_end_matches(['\r', '\n'])
}

/// Each line of `text` with its span (line end included), a byte order mark left out.
fn lines(text: &str) -> impl Iterator<Item = (Range<usize>, &str)> {
    let start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let mut pos = start;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        let span = pos..end;
        pos = end;
        Some((span.clone(), &text[span]))
    })
}

/// The report's name in nsys's line before its table, `Processing [x.sqlite] with
/// [/opt/…/reports/cuda_gpu_trace.py]... ` (the script's name without its folder and `.py`) or
/// `[6/8] Executing 'cuda_gpu_kern_sum' stats report`.
fn processing_report(line: &str) -> Option<String> {
    // `nsys profile --stats=true` and `nsys stats` with several reports print `[3/8] Executing
    // 'nvtx_sum' stats report` before each table instead.
    if let Some(rest) = line.strip_prefix('[').and_then(|r| r.split_once("] Executing '")).map(|(_, r)| r) {
        let name = rest.split_once('\'')?.0;
        return is_report_name(name).then(|| name.to_string());
    }
    let rest = line.strip_prefix("Processing [")?;
    let script = rest.split_once("] with [")?.1;
    let script = &script[..script.find(']')?];
    let name = script.rsplit(['/', '\\']).next()?;
    let name = name.strip_suffix(".py").unwrap_or(name);
    is_report_name(name).then(|| name.to_string())
}

/// The report's name at the end of a file's name as `nsys stats --output base` writes it
/// (`base_cuda_gpu_trace.csv`), with or without `.gz`.
fn report_in_name(path: &str) -> Option<String> {
    let name = strip_gz(path.rsplit('/').next().unwrap_or(path));
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    REPORT_PREFIXES.iter().filter_map(|prefix| stem.rfind(prefix).map(|at| &stem[at..])).filter(|name| is_report_name(name)).max_by_key(|name| name.len()).map(str::to_string)
}

/// Whether `name` is spelt as nsys's reports are: lower-case words joined by `_`.
fn is_report_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Whether `line` is the header of one of nsys's reports as CSV or TSV, and of which kind (split
/// at the tab or comma it holds; see [`kind_of`]).
fn header_kind(line: &str) -> Option<HeaderKind> {
    let line = line.trim_end_matches(['\r', '\n']);
    let delimiter = if line.contains('\t') { '\t' } else { ',' };
    kind_of(&line.split(delimiter).map(|t| t.trim_matches('"')).collect::<Vec<_>>())
}

/// Whether `titles` head one of nsys's reports, and of which kind: a title names a start time
/// (`Start (ns)`) for a report of events, or a total time (`Total Time (ns)`) for a summary, in
/// a time unit nsys prints; no title is empty.
fn kind_of(titles: &[&str]) -> Option<HeaderKind> {
    if titles.len() < 2 || titles.iter().any(|t| t.trim().is_empty()) {
        return None;
    }
    let timed = |t: &str, label: &str| titled(t).is_some_and(|(l, unit)| time_scale(unit).is_some() && (l == label || l.ends_with(&format!(" {label}"))));
    if titles.iter().any(|t| timed(t, "Total Time")) {
        return Some(HeaderKind::Summary);
    }
    titles.iter().any(|t| timed(t, "Start")).then_some(HeaderKind::Events)
}

/// A title `Label (unit)` taken apart, or `None` where it names no unit.
fn titled(title: &str) -> Option<(&str, &str)> {
    let inner = title.strip_suffix(')')?;
    let open = inner.rfind(" (")?;
    let (label, unit) = (&inner[..open], &inner[open + 2..]);
    (!label.is_empty() && !unit.is_empty()).then_some((label, unit))
}

/// How many nanoseconds one of a time unit nsys prints is, or `None` for another unit.
fn time_scale(unit: &str) -> Option<f64> {
    match unit {
        "ns" | "nsec" => Some(1.0),
        "us" | "usec" | "μs" | "µs" => Some(1e3),
        "ms" | "msec" => Some(1e6),
        "s" | "sec" => Some(1e9),
        _ => None,
    }
}

/// The field a column's title gives, and for a time the factor that takes its values to
/// nanoseconds (`None` for any other column, whose cells are typed as written: a number, empty
/// as null, else text). See the module's table.
fn field_of(title: &str) -> (String, Option<f64>) {
    let Some((label, unit)) = titled(title) else { return (ncu::snake(title), None) };
    let label = ncu::snake(label);
    if let Some(scale) = time_scale(unit) {
        return (format!("{label}_ns"), Some(scale));
    }
    let suffix = match unit {
        "%" => "pct".to_string(),
        "MB/s" | "MBps" => "mb_per_s".to_string(),
        other => ncu::snake(&other.replace('/', " per ").replace('%', " pct ")),
    };
    if suffix.is_empty() { (label, None) } else { (format!("{label}_{suffix}"), None) }
}

/// Reads one report's table of events into `out`, each row with `report`; the number of events.
fn read_table(src: &Source, table: &Table, report: Option<&str>, out: &mut JsonlBuilder) -> Result<usize, Diagnostic> {
    let text = src.text;
    if table.end == text.len() && !text.ends_with('\n') && table.end > table.header.end {
        let last = lines(text).last().map_or(0..0, |(span, _)| span);
        return Err(src
            .error(last, "this last row has no line end, so the file may be cut short inside it: nsys ends every row with one", "cut short?")
            .with_note("write the file again with `nsys stats`; if the row is whole, end it with a line end"));
    }
    match &table.layout {
        Layout::Delimited(delimiter) => {
            let delimiter = *delimiter;
            let kind = if delimiter == b'\t' { "TSV" } else { "CSV" };
            // TSV has no quoting, as `delimited` reads it.
            let mut rows = Rows::open_in(src, table.header.start..table.end, delimiter, delimiter != b'\t', kind)?;
            let titles: Vec<String> = rows.headers.iter().map(str::to_string).collect();
            let columns = Columns::of(src, table, &titles, report, false)?;
            let mut n = 0;
            while let Some(row) = rows.next()? {
                let cells: Vec<&str> = row.cells.iter().collect();
                // A cell's span is found only for an error: finding each would scan the row once
                // per column, and a trace holds up to millions of rows.
                let at = |k: usize| cell_span(text, row.start, delimiter, k);
                columns.push(src, row.line, row.span.clone(), &cells, &at, out)?;
                n += 1;
            }
            Ok(n)
        }
        Layout::Ruled(rule) => {
            let header = &text[table.header.clone()];
            let titles = labels(header, rule);
            let columns = Columns::of(src, table, &titles, report, true)?;
            let mut n = 0;
            // The rows begin after the header and its rule. The lines are read from the
            // header's own line, not from the text's start: a file of thousands of reports
            // would otherwise be walked from its first byte for each.
            let from = text[..table.header.start].rfind('\n').map_or(0, |i| i + 1);
            let shifted = lines(&text[from..table.end]).map(|(span, line)| (from + span.start..from + span.end, line));
            for (span, line) in shifted.skip_while(|(span, _)| span.start <= table.header.start).skip(1) {
                let line = line.trim_end_matches(['\r', '\n']);
                let by_column = ruled::columns(line, rule);
                let words: Vec<String> = by_column.iter().map(|r| r.as_ref().map_or(String::new(), |r| ruled::words(&line[r.clone()]))).collect();
                let cells: Vec<&str> = words.iter().map(String::as_str).collect();
                let at = |k: usize| by_column[k].as_ref().map_or(span.start..span.start, |r| span.start + r.start..span.start + r.end);
                let (row_line, _) = src.locate(span.start);
                columns.push(src, row_line, span.start..span.start + line.len(), &cells, &at, out)?;
                n += 1;
            }
            Ok(n)
        }
    }
}

/// A table's columns: each one's field and time scale ([`field_of`]), its title, and where the
/// kernel's grid and name are; the report its rows belong to, and whether its numbers may group
/// their thousands with commas, as nsys prints them in the column layout.
struct Columns<'t> {
    titles: &'t [String],
    fields: Vec<(String, Option<f64>)>,
    grid: Option<usize>,
    name: Option<usize>,
    report: Option<&'t str>,
    grouped: bool,
}

impl<'t> Columns<'t> {
    /// The columns `titles` give, or the error of a header nsys does not write: two titles that
    /// give one field, or one that gives a field this reader gives itself.
    fn of(src: &Source, table: &Table, titles: &'t [String], report: Option<&'t str>, grouped: bool) -> Result<Columns<'t>, Diagnostic> {
        let fields: Vec<(String, Option<f64>)> = titles.iter().map(|t| field_of(t)).collect();
        for (i, (field, _)) in fields.iter().enumerate() {
            let clash = fields[..i].iter().position(|(f, _)| f == field);
            if let Some(j) = clash.or_else(|| ["report", "function"].contains(&field.as_str()).then_some(i)) {
                let (a, b) = (&titles[j], &titles[i]);
                let why = if j == i { format!("column `{b}` would be named `{field}`, a field this reader gives itself") } else { format!("columns `{a}` and `{b}` would both be named `{field}`") };
                return Err(src.error(table.header.clone(), why, "header").with_note("this is not a header nsys writes: write the report again with `nsys stats`"));
            }
        }
        let grid = titles.iter().position(|t| t == "GrdX");
        let name = titles.iter().position(|t| t == "Name");
        Ok(Columns { titles, fields, grid, name, report, grouped })
    }

    /// Pushes one row, its cells' texts in column order, as a record at `line`. A time that is
    /// not a number is an error at its cell, whose span `at` gives.
    fn push(&self, src: &Source, line: usize, span: Range<usize>, cells: &[&str], at: &dyn Fn(usize) -> Range<usize>, out: &mut JsonlBuilder) -> Result<(), Diagnostic> {
        let mut fields: Vec<(&str, FieldValue)> = Vec::with_capacity(self.fields.len() + 2);
        if let Some(r) = self.report {
            fields.push(("report", FieldValue::Str(r)));
        }
        for (k, ((field, scale), value)) in self.fields.iter().zip(cells).enumerate() {
            let number = if self.grouped { ungrouped(value) } else { number(value) };
            let value = match (scale, number) {
                (_, _) if value.is_empty() => FieldValue::Null,
                (None, Some(n)) => n,
                (None, None) => cell(value),
                (Some(scale), Some(n)) if *scale == 1.0 => n,
                (Some(scale), Some(FieldValue::Int(i))) => FieldValue::Float(i as f64 * scale),
                (Some(scale), Some(FieldValue::Float(f))) => FieldValue::Float(f * scale),
                (Some(_), _) => return Err(src.error(at(k), format!("`{}` is `{value}` here, not a number", self.titles[k]), "not a number")),
            };
            fields.push((field.as_str(), value));
        }
        let kernel = self.grid.zip(self.name).filter(|(g, _)| cells.get(*g).is_some_and(|c| !c.is_empty())).and_then(|(_, nm)| cells.get(nm)).map(|c| ncu::function_name(c));
        if let Some(function) = kernel.as_deref() {
            fields.push(("function", FieldValue::Str(function)));
        }
        out.push(line, span, fields);
        Ok(())
    }
}

/// A cell as a number, where it is written as one (`12`, `6337.593`, `3.103e+08`).
fn number(text: &str) -> Option<FieldValue<'_>> {
    match cell(text.trim()) {
        v @ (FieldValue::Int(_) | FieldValue::Float(_)) => Some(v),
        _ => None,
    }
}

/// A cell of the column layout as a number: as [`number`], or with its thousands grouped by
/// commas (`1,134,711,990`, `6,856.3`), each group after the first of three digits.
fn ungrouped(text: &str) -> Option<FieldValue<'static>> {
    let text = text.trim();
    let (int, frac) = text.split_once('.').map_or((text, None), |(i, f)| (i, Some(f)));
    let digits = int.strip_prefix('-').unwrap_or(int);
    let mut groups = digits.split(',');
    let first = groups.next()?;
    let grouped_well = (1..=3).contains(&first.len()) && groups.all(|g| g.len() == 3) && digits.chars().all(|c| c.is_ascii_digit() || c == ',');
    if digits.contains(',') && !grouped_well {
        return None;
    }
    let plain = format!("{}{}", int.replace(',', ""), frac.map_or(String::new(), |f| format!(".{f}")));
    match cell(&plain) {
        FieldValue::Int(i) => Some(FieldValue::Int(i)),
        FieldValue::Float(f) => Some(FieldValue::Float(f)),
        _ => None,
    }
}

/// The refusal of a file whose every table is one of nsys's summaries.
fn refuse_summary(src: &Source, table: &Table, report: Option<&str>) -> Diagnostic {
    let what = match report {
        Some(r) => format!("nsys's `{r}` report (each name's total, count, average, median, minimum, maximum and standard deviation)"),
        None => "this nsys summary report (each name's total, count, average, median, minimum, maximum and standard deviation)".to_string(),
    };
    let trace = report.and_then(|r| TRACE_OF_SUMMARY.iter().find(|(s, _)| *s == r)).map_or("cuda_gpu_trace", |(_, t)| t);
    let instead = format!("export its events instead, one row each: `nsys stats --report {trace} --format csv --output base report.nsys-rep`");
    src.summary_only(table.header.clone(), &what, &instead)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use super::*;
    use crate::evidence::jsonl::Scalar;

    const TRACE_2026: &str = "nsys/vernier-2026.3.1_cuda_gpu_trace.csv";
    const TRACE_2025: &str = "nsys/vernier-2025.3.2_cuda_gpu_trace.csv";
    const PUSHPOP_2026: &str = "nsys/vernier-2026.3.1_nvtx_pushpop_trace.csv";

    fn text_of(rel: &str) -> String {
        std::fs::read_to_string(format!("{}/{rel}", super::super::testing::ROOT)).unwrap()
    }

    /// nsys 2026.3.1's GPU trace of four calls of the demo: per call two copies in, the kernel
    /// and a copy out. Every row is a record at its line, every time in nanoseconds, the
    /// kernel's quoted signature whole, and a copy's grid absent.
    #[test]
    fn a_gpu_trace_gives_one_record_per_event() {
        let t = read_fixture(TRACE_2026, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Nsys, Detected::ByContent));
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 16);
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), (2..=17).collect::<Vec<_>>());
        let kernel = &j.records[2];
        assert_eq!(j.text_of(j.get(kernel, "report")), "cuda_gpu_trace");
        assert_eq!(j.get(kernel, "duration_ns"), Some(Scalar::Int(7072)));
        assert_eq!(j.get(kernel, "start_ns"), Some(Scalar::Int(1136125733)));
        assert_eq!(j.get(kernel, "grdx"), Some(Scalar::Int(4096)));
        assert_eq!(j.get(kernel, "reg_trd"), Some(Scalar::Int(16)));
        assert_eq!(j.get(kernel, "strm"), Some(Scalar::Int(13)));
        assert_eq!(j.text_of(j.get(kernel, "name")), "vernier::bench::demo::<unnamed>::saxpyKernel(float, const float *, float *, unsigned long)");
        assert_eq!(j.text_of(j.get(kernel, "function")), "saxpyKernel");
        assert_eq!(j.text_of(j.get(kernel, "device")), "NVIDIA RTX 5000 Ada Generation Laptop GPU (0)");
        let copy = &j.records[0];
        assert_eq!(j.text_of(j.get(copy, "name")), "[CUDA memcpy Host-to-Device]");
        assert_eq!(j.get(copy, "grdx"), Some(Scalar::Null));
        assert_eq!(j.get(copy, "function"), None, "a copy is no kernel");
        assert_eq!(j.get(copy, "bytes_mb"), Some(Scalar::Float(4.194)));
        assert_eq!(j.get(copy, "throughput_mb_per_s"), Some(Scalar::Float(6337.593)));
        assert_eq!(j.text_of(j.get(copy, "srcmemkd")), "Pinned");
        // The four launches' durations as the file writes them: 7,072, 6,945, 6,816 and 6,592 ns.
        let s = samples(&t, "function = \"saxpyKernel\"", "duration_ns");
        assert_eq!(s.len(), 4);
        assert_eq!(s.median(), (6816.0 + 6945.0) / 2.0);
    }

    /// nsys 2025.3.2 on another device writes the same columns; the same query reads it.
    #[test]
    fn the_2025_release_reads_alike() {
        let t = read_fixture(TRACE_2025, None).unwrap();
        let s = samples(&t, "function = \"saxpyKernel\"", "duration_ns");
        assert_eq!(s.len(), 4);
        assert_eq!(s.median(), 22624.0);
        let copies = samples(&t, "name = \"[CUDA memcpy Device-to-Host]\"", "duration_ns");
        assert_eq!(copies.len(), 4);
    }

    /// NVTX's push/pop trace: ranges with their start, end and duration, and a nested range's
    /// parent; a top-level range has none.
    #[test]
    fn an_nvtx_trace_gives_one_record_per_range() {
        let t = read_fixture(PUSHPOP_2026, None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 8);
        let inner = &j.records[6];
        assert_eq!(j.text_of(j.get(inner, "report")), "nvtx_pushpop_trace");
        assert_eq!(j.text_of(j.get(inner, "name")), ":kernel");
        assert_eq!(j.get(inner, "duration_ns"), Some(Scalar::Int(89014)));
        assert_eq!(j.get(inner, "end_ns"), Some(Scalar::Int(1502821610)));
        assert_eq!(j.get(inner, "durnonchild_ns"), Some(Scalar::Int(89014)));
        assert_eq!(j.get(inner, "parentid"), Some(Scalar::Int(5)));
        assert_eq!(j.get(&j.records[0], "parentid"), Some(Scalar::Null));
        assert_eq!(j.get(inner, "function"), None);
    }

    /// Standard output with nsys's lines around two reports: each table read, each row named by
    /// the report of the `Processing` line before it, and a summary among them left out.
    #[test]
    fn reports_on_standard_output_are_read_with_their_names() {
        let trace = text_of(TRACE_2026);
        let pushpop = text_of(PUSHPOP_2026);
        let text = format!(
            "Generating SQLite file report1.sqlite from report1.nsys-rep\nProcessing [report1.sqlite] with [/opt/nvidia/nsight-systems/2026.3.1/host-linux-x64/reports/cuda_gpu_trace.py]... \n{trace}\nProcessing [report1.sqlite] with [/opt/nvidia/nsight-systems/2026.3.1/host-linux-x64/reports/cuda_gpu_kern_sum.py]... \nTime (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n100.0,27425,4,6856.3,6880.5,6592,7072,204.8,saxpyKernel\n\nProcessing [report1.sqlite] with [/opt/nvidia/nsight-systems/2026.3.1/host-linux-x64/reports/nvtx_pushpop_trace.py]... \n{pushpop}\n"
        );
        let t = read_text("nsys-stats.txt", &text, None).unwrap();
        assert_eq!(t.format, Format::Nsys);
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 16 + 8);
        assert_eq!(j.text_of(j.get(&j.records[0], "report")), "cuda_gpu_trace");
        assert_eq!(j.records[0].line, 4);
        assert_eq!(j.text_of(j.get(&j.records[16], "report")), "nvtx_pushpop_trace");
        assert_eq!(j.line_text(&j.records[16]), text.lines().nth(j.records[16].line - 1).unwrap());
        assert_eq!(samples(&t, "report = \"nvtx_pushpop_trace\"\nname = \":kernel\"", "duration_ns").len(), 2);
    }

    /// `nsys stats`'s default console layout (`--format column`) saved to a file: the same 2026.3.1
    /// trace laid out as nsys lays out its columns (constructed from the CSV: `SOURCE.md`), read
    /// by the columns its dashed rule marks out, its grouped thousands read as numbers, gives every
    /// field of every record as the CSV does, the report named by nsys's `Executing` line.
    #[test]
    fn the_console_layout_reads_as_the_csv_does() {
        let csv = read_fixture(TRACE_2026, None).unwrap();
        let column = read_fixture("nsys/vernier-2026.3.1_cuda_gpu_trace-column.txt", None).unwrap();
        assert_eq!((column.format, column.layout, csv.layout), (Format::Nsys, Some(COLUMN), Some(CSV)));
        let (a, b) = (&csv.jsonl, &column.jsonl);
        assert_eq!(a.records.len(), b.records.len());
        assert_eq!(a.field_names(), b.field_names());
        for (ra, rb) in a.records.iter().zip(&b.records) {
            assert_eq!(rb.line, ra.line + 3, "nsys's `Executing` line, a blank line and the rule before the rows");
            for field in a.field_names() {
                assert_eq!(a.text_of(a.get(ra, field)), b.text_of(b.get(rb, field)), "{field} at line {}", rb.line);
            }
        }
        assert_eq!(b.get(&b.records[2], "start_ns"), Some(Scalar::Int(1136125733)));
        assert_eq!(b.get(&b.records[0], "throughput_mb_per_s"), Some(Scalar::Float(6337.593)));
        // A time whose thousands are grouped otherwise is no number, and is refused at its cell.
        let text = text_of("nsys/vernier-2026.3.1_cuda_gpu_trace-column.txt").replacen("      661,398", "    66,13,98", 1);
        let err = read_text("t.txt", &text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "t.txt:5:20");
        assert!(err.message.contains("`Duration (ns)` is `66,13,98` here, not a number"), "{}", err.message);
    }

    /// nvcc4jupyter's `nsys profile --stats=true` output (MIT; `nsight-console/`), which holds
    /// only summaries, each after nsys's `Executing` line: refused, naming the first report and
    /// the trace to export.
    #[test]
    fn a_console_summary_is_refused_by_its_report() {
        let err = read_fixture("nsight-console/nvcc4jupyter-usage-nsys.txt", Some(Format::Nsys)).unwrap_err();
        assert!(err.message.contains("nsys's `cuda_api_sum` report"), "{}", err.message);
        assert!(err.message.contains("--report cuda_api_trace"), "{}", err.message);
        assert_eq!(err.position().unwrap(), "nsight-console/nvcc4jupyter-usage-nsys.txt:3:1");
    }

    /// `--timeunit usec` prints microseconds; the field is still in nanoseconds. TSV reads alike.
    #[test]
    fn times_in_other_units_are_read_in_nanoseconds() {
        let t = read_text("r_cuda_gpu_trace.csv", "Start (us),Duration (us),CorrId,Name\n1719000.000,41.28,7,k\n", None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.get(&j.records[0], "duration_ns"), Some(Scalar::Float(41280.0)));
        assert_eq!(j.get(&j.records[0], "start_ns"), Some(Scalar::Float(1719000000.0)));
        assert_eq!(j.text_of(j.get(&j.records[0], "report")), "cuda_gpu_trace");
        let t = read_text("out.tsv", "Start (ms)\tDuration (ms)\tName\n1.5\t0.25\tk\n", None).unwrap();
        assert_eq!((t.format, t.layout, t.jsonl.get(&t.jsonl.records[0], "duration_ns")), (Format::Nsys, Some(TSV), Some(Scalar::Float(250000.0))));
    }

    #[test]
    fn a_summary_is_refused_with_the_trace_to_export() {
        let text = "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n100.0,27425,4,6856.3,6880.5,6592,7072,204.8,saxpyKernel\n";
        let err = read_text("rep_cuda_gpu_kern_sum.csv", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "rep_cuda_gpu_kern_sum.csv:1:1");
        assert!(err.message.contains("nsys's `cuda_gpu_kern_sum` report"), "{}", err.message);
        assert!(err.message.contains("holds only summaries"), "{}", err.message);
        assert!(err.message.contains("--report cuda_gpu_trace"), "{}", err.message);
        let api = "Processing [a.sqlite] with [/x/reports/cuda_api_sum.py]... \nTime (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n99.3,494092651,3,164697550.3,3870.0,2020,494086761,285259424.2,cudaMalloc\n";
        let err = read_text("stats.txt", api, Some(Format::Nsys)).unwrap_err();
        assert!(err.message.contains("--report cuda_api_trace"), "{}", err.message);
        assert_eq!(err.position().unwrap(), "stats.txt:2:1");
    }

    #[test]
    fn broken_files_are_located() {
        let trace = text_of(TRACE_2026);
        // The last row cut short, inside its name.
        let cut = &trace[..trace.len() - 20];
        let err = read_text("t.csv", cut, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "t.csv:17:1");
        assert!(err.message.contains("no line end"), "{}", err.message);
        // A row with a cell too many.
        let extra = trace.replacen("\n1135375308,", "\n1135375308,9,", 1);
        let err = read_text("t.csv", &extra, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "t.csv:3:1");
        assert!(err.message.contains("this row has 22 cells, but the header has 21 columns"), "{}", err.message);
        // A time that is not a number, located at its cell.
        let bad = trace.replacen("\n1135375308,660534,", "\n1135375308,66o534,", 1);
        let err = read_text("t.csv", &bad, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "t.csv:3:12");
        assert!(err.message.contains("`Duration (ns)` is `66o534` here, not a number"), "{}", err.message);
        // A header alone, and a report nsys skipped.
        let err = read_text("t.csv", "Start (ns),Duration (ns),Name\n", None).unwrap_err();
        assert!(err.message.contains("no event after it"), "{}", err.message);
        let err = read_text("t.txt", "Processing [a.sqlite] with [/x/cuda_gpu_trace.py]... \nSKIPPED: a.sqlite does not contain CUDA trace data.\n", Some(Format::Nsys)).unwrap_err();
        assert_eq!(err.position().unwrap(), "t.txt:2:1");
        assert!(err.message.contains("only that it skipped the report"), "{}", err.message);
        let err = read_text("t.csv", "a,b\n1,2\n", Some(Format::Nsys)).unwrap_err();
        assert!(err.message.contains("not an nsys report's table"), "{}", err.message);
    }

    #[test]
    fn titles_name_fields_by_one_rule() {
        assert_eq!(field_of("Duration (ns)"), ("duration_ns".to_string(), Some(1.0)));
        assert_eq!(field_of("Projected Start (us)"), ("projected_start_ns".to_string(), Some(1e3)));
        assert_eq!(field_of("Time (%)"), ("time_pct".to_string(), None));
        assert_eq!(field_of("Throughput (MBps)"), ("throughput_mb_per_s".to_string(), None));
        assert_eq!(field_of("StcSMem (MB)"), ("stcsmem_mb".to_string(), None));
        assert_eq!(field_of("Reg/Trd"), ("reg_trd".to_string(), None));
        assert_eq!(field_of("CorrId"), ("corrid".to_string(), None));
        assert_eq!(report_in_name("evidence/run_3_cuda_gpu_trace.csv").as_deref(), Some("cuda_gpu_trace"));
        assert_eq!(report_in_name("evidence/x_nvtx_pushpop_trace.tsv.gz").as_deref(), Some("nvtx_pushpop_trace"));
        assert_eq!(report_in_name("evidence/trace.csv"), None);
    }

    /// A table of another tool that happens to time its rows is not taken for nsys's: only a
    /// header with nsys's spelling of a start or total time is.
    #[test]
    fn other_tables_are_not_taken_for_nsys() {
        assert!(!looks_like("name,start_ns,duration_ns\nk,1,2\n"));
        assert!(!looks_like("Start,Duration\n1,2\n"));
        assert!(!looks_like("Start (bytes),Name\n1,k\n"));
        let t = read_text("r.csv", "name,start_ns\nk,1\n", None).unwrap();
        assert_eq!(t.format, Format::Csv);
    }
}
