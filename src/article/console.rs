//! Benchmark tables printed by a harness and pasted into an article as a code block. Code is
//! not prose, but a harness's console table is how its users quote their results. Google
//! Benchmark prints:
//!
//! ```text
//! ----------------------------------------------------------------------
//! Benchmark                            Time             CPU   Iterations
//! ----------------------------------------------------------------------
//! is_sorted_by_hand                 2842 ns         2888 ns       248889
//! ```
//!
//! and pytest-benchmark (its `TableResults`, for a run and for `pytest-benchmark compare`):
//!
//! ```text
//! Name (time in s)                         Min     Max    Mean  StdDev  Median     IQR  Outliers     OPS  Rounds  Iterations
//! -----------------------------------------------------------------------------------------------------------------------------
//! test_taxi_trips_benchmark[1-True-V3]     5.0488  5.0488  5.0488  0.0000  5.0488  0.0000       0;0  0.1981       1           1
//! ```
//!
//! and hyperfine's (each benchmark's statistics, then a summary of speed-ups; see
//! [`hyperfine_cells`]), criterion's (each benchmark's estimate within its interval; see
//! [`criterion_cells`]), Go's `go test -bench` lines (a value and unit a metric; see
//! [`go_bench_cells`]), benchstat's comparison of such outputs (each file's median, its
//! confidence interval and its change from the base; see [`benchstat_cells`]) and JMH's summary
//! table (each benchmark's score and error in the unit its row prints; see [`jmh_cells`], and
//! [`JmhPipe`] for the same table pasted as pipes), and BenchmarkDotNet's summary table (each
//! row a case, its sizes binary; `super::benchmarkdotnet`, which reads its Markdown form too),
//! and the profilers' tables GPU articles quote: Nsight Compute's sections and Nsight Systems'
//! `nsys stats` reports (each value in its row's or its header's unit; `super::nsight`); and
//! pyperf's output (see [`pyperf_cells`]: its result and comparison lines, `pyperf stats`' lines
//! by key, `pyperf hist`'s bins and its stability warnings), and grid tables, which `pyperf
//! compare_to --table` and Python's `tabulate` print (see [`grid_cells`]), and the HTTP load
//! generator wrk's report (its thread statistics, latency distribution and totals; see
//! [`wrk_cells`]), and nccl-tests' results (each message size's times and bandwidths;
//! `super::nccl`), and the two Rust harnesses': libtest's `#[bench]` lines, which the `bencher`
//! crate prints too (each benchmark's time, spread and throughput; `super::libtest`), and
//! divan's tree table (each leaf's statistics, counters and allocations, by its path through
//! the tree; `super::divan`), and the LLM-serving benchmarks' reports: vLLM's and SGLang's
//! `Serving Benchmark Result` and TensorRT-LLM's `trtllm-bench` sections (each value under its
//! label, in the unit its parentheses state, a row for each group the report prints;
//! `super::serving`).
//!
//! Left out, every number of such a table went unread: nothing to bind, nothing unbound, an
//! article whose results were all in code audited as holding none. This module finds those
//! layouts and gives each row's cells as a Markdown table's would be: the row named by the
//! benchmark's name, each value under its column's header, with the unit the header states
//! where the value does not state its own. Any other code block stays code.

use std::ops::Range;

use super::numbers::Unit;
use crate::evidence::readers::go_bench::{self, Line};

/// One cell of a console table: where it stands, and its bytes in the code block's text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ConsoleCell {
    /// Which table of the code block, from 0: each header line starts one.
    pub(crate) table: usize,
    /// The row, from 1 (the header is row 0 and gives no cells).
    pub(crate) row: usize,
    pub(crate) column: usize,
    /// The benchmark's name, as printed.
    pub(crate) row_label: String,
    pub(crate) column_label: String,
    /// The cell's bytes in the code block's text: a value with its unit (`2842 ns`), a count,
    /// or the rest of a row that does not have the columns' shape.
    pub(crate) range: Range<usize>,
    /// The first column: the benchmark's name, an identifier whose digits (`BM_Sum/64`) are
    /// arguments, not measurements.
    pub(crate) is_name: bool,
    /// The unit the column's header states for the cell's value (pytest-benchmark's
    /// `Name (time in ms)` for every time column), where the value is printed without one; or
    /// the unit a harness means by a letter that is no unit in prose (wrk's minutes, `1.00m`,
    /// whose cell is then the digits alone).
    pub(crate) unit: Option<Unit>,
    /// The bytes of the ratio printed after the value, `(1.28)`: pytest-benchmark's value over
    /// the best of its column in the table, a multiple rather than a quantity in the unit.
    pub(crate) ratio: Option<Range<usize>>,
    /// Whether the cell's `KB`, `MB` and `GB` are 1024-based, as BenchmarkDotNet prints every
    /// size.
    pub(crate) binary_sizes: bool,
    /// Whether the cell's size is an amount a second, as wrk's `Transfer/sec: 5.52MB` is.
    pub(crate) per_second: bool,
}

impl ConsoleCell {
    /// A cell whose value states its own unit, with no ratio after it and decimal sizes, in a
    /// row whose first column (column 0) is the benchmark's name.
    pub(super) fn plain(table: usize, row: usize, column: usize, row_label: &str, column_label: &str, range: Range<usize>) -> ConsoleCell {
        ConsoleCell {
            table,
            row,
            column,
            row_label: row_label.to_string(),
            column_label: column_label.to_string(),
            range,
            is_name: column == 0,
            unit: None,
            ratio: None,
            binary_sizes: false,
            per_second: false,
        }
    }
}

/// The cells of the harness console tables in `code` (Google Benchmark's, else JMH's,
/// pytest-benchmark's, hyperfine's, criterion's, Go's, benchstat's, BenchmarkDotNet's, or
/// Nsight Compute's and Nsight Systems', pyperf's lines, a grid table, asv's comparison, wrk's report, nccl-tests', libtest's, divan's, or the serving benchmarks' reports), or `None` when it
/// holds none. The layouts added last come last, so that a block any earlier layout reads is
/// read as it was before they were known.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    google_benchmark_cells(code)
        .or_else(|| jmh_cells(code))
        .or_else(|| pytest_benchmark_cells(code))
        .or_else(|| hyperfine_cells(code))
        .or_else(|| criterion_cells(code))
        .or_else(|| go_bench_cells(code))
        .or_else(|| benchstat_cells(code))
        .or_else(|| super::benchmarkdotnet::cells(code))
        .or_else(|| super::nsight::cells(code))
        .or_else(|| pyperf_cells(code))
        .or_else(|| grid_cells(code))
        .or_else(|| super::asv::cells(code))
        .or_else(|| wrk_cells(code))
        .or_else(|| super::nccl::cells(code))
        .or_else(|| super::libtest::cells(code))
        .or_else(|| super::divan::cells(code))
        .or_else(|| super::serving::cells(code))
}

/// The whitespace-separated tokens of `line`, as byte ranges of it.
pub(super) fn tokens(line: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..line.len());
    }
    out
}

fn is_value(token: &str) -> bool {
    token.parse::<f64>().is_ok_and(f64::is_finite)
}

fn is_count(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

/// A time's unit as the console prints it (`ns`, `us`, `ms`, `s`), or `%` for an aggregate's
/// coefficient of variation (`BM_x_cv`).
fn is_unit(token: &str) -> bool {
    matches!(token, "ns" | "us" | "µs" | "μs" | "ms" | "s" | "%")
}

/// Each line of `code` without its line ending, with the offset in `code` it starts at.
pub(crate) fn lines(code: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    code.split_inclusive('\n').map(move |line| {
        let start = at;
        at += line.len();
        (start, line.trim_end_matches(['\n', '\r']))
    })
}

/// The trimmed cells of a line of pipes, as byte ranges of it: `| a | b |` as Markdown (and
/// BenchmarkDotNet's and asv's consoles) write it, or `a | b |` as BenchmarkDotNet's console
/// wrote it before 0.11 (no pipe in front). `None` for a line without a pipe.
pub(super) fn pipe_cells(line: &str) -> Option<Vec<Range<usize>>> {
    let body = line.trim_end();
    if !body.contains('|') {
        return None;
    }
    let lead = body.len() - body.trim_start().len();
    let inner = body.trim_start();
    let (inner, first) = match inner.strip_prefix('|') {
        Some(rest) => (rest, lead + 1),
        None => (inner, lead),
    };
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut at = first;
    let mut out = Vec::new();
    for part in inner.split('|') {
        let trimmed = part.trim();
        let offset = at + (part.len() - part.trim_start().len());
        out.push(offset..offset + trimmed.len());
        at += part.len() + 1;
    }
    Some(out)
}

/// The cells of the grid tables in `code` (reStructuredText's, which `pyperf compare_to
/// --table` prints, and the Python `tabulate` package's `grid` format), or `None` when it holds
/// none:
///
/// ```text
/// +----------------+----------------+-----------------------+
/// | Benchmark      | mult_list_py36 | mult_list_py37        |
/// +================+================+=======================+
/// | [1,2]*1000     | 3.70 us        | 5.28 us: 1.42x slower |
/// +----------------+----------------+-----------------------+
/// ```
///
/// A table is a run of lines that each begin with `+` (a rule of `-` or `=` between `+`) or `|`
/// (a row, its cells between `|`). The rows above the `=` rule are the header, their cells
/// joined top down into each column's label; each row below is one line between two rules,
/// named by its first cell (a name, whose digits are no measurement), each other cell under its
/// column's label. A table without a `=` rule has no header to name its columns, and one whose
/// row runs over several lines, or whose rows have another number of cells than its header,
/// could be misread: both stay code.
pub(crate) fn grid_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let all: Vec<(usize, &str)> = lines(code).collect();
    let mut cells = Vec::new();
    let mut table = 0;
    let mut k = 0;
    while k < all.len() {
        let is_grid = |line: &str| {
            let line = line.trim();
            (line.starts_with('+') && line.len() > 1 && line.chars().all(|c| matches!(c, '+' | '-' | '='))) || (line.starts_with('|') && line.ends_with('|') && line.len() > 1)
        };
        if !all[k].1.trim().starts_with('+') || !is_grid(all[k].1) {
            k += 1;
            continue;
        }
        let mut end = k;
        while end < all.len() && is_grid(all[end].1) {
            end += 1;
        }
        if let Some(found) = grid_table(&all[k..end], table) {
            cells.extend(found);
            table += 1;
        }
        k = end;
    }
    (!cells.is_empty()).then_some(cells)
}

/// One grid table's cells, its lines from its first rule to its last line, as table `table`.
fn grid_table(table_lines: &[(usize, &str)], table: usize) -> Option<Vec<ConsoleCell>> {
    // Each row's cells, as ranges of the code, and whether a `=` rule or a `-` rule follows it.
    let mut rows: Vec<(Vec<Range<usize>>, bool)> = Vec::new();
    let mut open: Option<Vec<Range<usize>>> = None;
    for &(start, text) in table_lines {
        let line = text.trim();
        if line.starts_with('+') {
            // The rule above the first row closes none.
            if let Some(row) = open.take() {
                rows.push((row, line.contains('=')));
            }
            continue;
        }
        // A row over two lines: its cells' parts cannot be told apart from two rows'.
        if open.is_some() {
            return None;
        }
        // Each cell's range in `inner` (the line inside its outer bars), shifted to the code.
        let lead = text.len() - text.trim_start().len();
        let inner = &line[1..line.len() - 1];
        let base = start + lead + 1;
        open = Some(inner.split('|').map(|part| trimmed_range(inner, part)).map(|r| base + r.start..base + r.end).collect());
    }
    if open.is_some() {
        return None;
    }
    let header_end = rows.iter().position(|(_, double)| *double)?;
    let columns = rows[0].0.len();
    if columns < 2 || rows.iter().any(|(r, _)| r.len() != columns) {
        return None;
    }
    let code_of = |r: &Range<usize>| -> String {
        table_lines.iter().find(|(s, t)| *s <= r.start && r.end <= s + t.len()).map(|(s, t)| t[r.start - s..r.end - s].to_string()).unwrap_or_default()
    };
    let labels: Vec<String> = (0..columns).map(|c| rows[..=header_end].iter().map(|(r, _)| code_of(&r[c])).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")).collect();
    let mut cells = Vec::new();
    for (n, (row, _)) in rows[header_end + 1..].iter().enumerate() {
        let row_label = code_of(&row[0]);
        for (column, range) in row.iter().enumerate() {
            cells.push(ConsoleCell::plain(table, n + 1, column, &row_label, &labels[column], range.clone()));
        }
    }
    Some(cells)
}

/// The cells of pyperf's console output in `code`, or `None` when it holds none.
///
/// pyperf prints a benchmark's result (`pyperf show`, `timeit`, a script's `Runner`;
/// `_cli.format_result`) and `compare_to`'s comparison of two files (`_compare.py`, `oneliner`)
/// on one line each:
///
/// ```text
/// telco: Mean +- std dev: 22.5 ms +- 0.2 ms
/// Mean +- std dev: [py36] 4.70 us +- 0.18 us -> [py38] 4.22 us +- 0.08 us: 1.11x faster
/// - [1,2]*1000: 3.70 us +- 0.05 us -> 5.28 us +- 0.09 us: 1.42x slower
/// Benchmark hidden because not significant (1): [1]*1000
/// Geometric mean: 1.22x slower
/// ```
///
/// Each line is a row named by its benchmark (the name before the first `: `). pyperf names
/// none where it shows a single benchmark: such a line is a table of its own, its row named
/// `Mean +- std dev`, so that a registry tells two of them apart by `table`. A result's row
/// has the cell `Mean +- std dev`; a comparison's has a cell for each file, under the name
/// pyperf gives it in brackets (`py36`; `reference` and `changed` where the line gives none),
/// the changed file's holding the ratio and its word, and the change in percent that pyperf
/// printed after them before 2.1.0 (`1.11x faster (-10%)`). A `Geometric mean` line is a row of
/// that name whose one cell stands under the changed file of the comparisons above it. The
/// benchmarks `compare_to` hides as not significant are a row of that name, `Benchmark hidden
/// because not significant`, whose cell under the same name lists them, read as names: the
/// count pyperf prints before them is left unread, since it counts the names beside it and no
/// check counts t-tests, while a `ttest` of each benchmark binds to that cell. Where the block
/// also holds `compare_to --table`'s grid ([`grid_cells`]), its cells are read with these.
///
/// `pyperf stats` (`_cli.format_stats`) prints a benchmark's statistics as `Key: value` lines,
/// its percentiles, and the values outside Tukey's fences:
///
/// ```text
/// Total duration: 11.6 sec
/// Raw value minimum: 135 ms
/// Number of run with values: 20
/// Loop iterations per value: 2^15
/// Median +- MAD:   4.25 us +- 0.05 us
///   0th percentile: 4.12 us (-5% of the mean) -- minimum
///   5th percentile: 4.15 us (-4% of the mean)
/// Number of outlier (out of 4.07 us..4.44 us): 9
/// ```
///
/// Each line is a cell under its key (`Total duration`, `Median +- MAD`, `5th percentile`): the
/// value as printed, a percentile's with its distance from the mean but without the name pyperf
/// gives it after `--` (`Q1`, whose digit is no measurement). The outliers' line gives two, the
/// count under `Number of outlier` and the fences under `out of`. Where pyperf shows one
/// benchmark, the lines are one table whose rows are named by their keys, as a result line's
/// row is (`row = "Median +- MAD", column = "Median +- MAD"`; the outliers' row `Number of
/// outlier`); a key printed again starts another table. Where it shows several, each under its
/// name underlined with `-` (or its file's with `=`; `_cli.format_title`), each benchmark is a
/// row named by that title and each key a column. The keys any program might print
/// (`Minimum`, `Maximum`, `Mean`, `Total duration`, `Start date`, `End date`, `Number of
/// benchmarks`) are read only in a block that holds one that only pyperf prints (`Raw value
/// minimum`, `Median +- MAD`, a percentile, the outliers' line, …).
///
/// `pyperf hist` (`_cli.format_histogram`) prints each bin's start and count before a bar of
/// `#` (`|` for an empty bin): `4.10 us: 15 ##############`, `4.70 us:  0 |`. Each run of two
/// bins or more is a table of its own, a bin a row named by its start, with its start under
/// `Bin` and its count under `Count` (or under the benchmark's name where pyperf heads the
/// histogram `[ name ]`). The start is a measurement, a multiple of the bins' width, and is read
/// as one: it is no name cell.
///
/// pyperf's warnings on a benchmark's stability (`_cli.format_checks`, which `check`, `timeit`,
/// `show` and `stats` print) are rows named by what they warn of, as pyperf words it (`the
/// standard deviation`, `the minimum`, `the maximum`, `the shortest raw value`), the warning a
/// cell under that name: `* the maximum (6.02 us) is 39% greater than the mean (4.34 us)`.
/// Under a title each is a cell of the benchmark's row. The warning that there are not enough
/// samples quotes pyperf's own thresholds (95 %, 1 %), no measurement, and is not read.
pub(crate) fn pyperf_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    const MEAN: &str = "Mean +- std dev: ";
    const HIDDEN: &str = "Benchmark hidden because not significant";
    let all: Vec<(usize, &str)> = lines(code).collect();
    let stats_block = all.iter().any(|(_, text)| stats_line(text).is_some_and(|s| s.distinctive));
    let mut out = PyperfTables::default();
    // The changed file of the comparisons so far, which a `Geometric mean` line stands under.
    let mut changed_file: Option<String> = None;
    // The benchmark (or file) pyperf titled the lines below with, and the name it heads the
    // next histogram with.
    let mut title: Option<String> = None;
    let mut histogram_title: Option<String> = None;
    let mut k = 0;
    while k < all.len() {
        let (start, text) = all[k];
        k += 1;
        let line = text.trim();
        let at = |part: &str| start + (part.as_ptr() as usize - text.as_ptr() as usize);
        let span = |part: &str| at(part)..at(part) + part.len();
        if all.get(k).is_some_and(|(_, under)| is_underline(line, under)) {
            title = Some(line.to_string());
            k += 1;
            continue;
        }
        if let Some(name) = line.strip_prefix("[ ").and_then(|l| l.strip_suffix(" ]")) {
            histogram_title = Some(name.to_string());
            continue;
        }
        if let Some(bin) = hist_line(text) {
            // The histogram's bins, each line read once, with where it starts.
            let mut bins = vec![(start, text, bin)];
            while let Some(next) = all.get(k).and_then(|&(s, t)| hist_line(t).map(|b| (s, t, b))) {
                bins.push(next);
                k += 1;
            }
            if bins.len() >= 2 {
                let table = out.start(PyperfGroup::Histogram);
                let counts = histogram_title.take().unwrap_or_else(|| "Count".to_string());
                for (start, text, bin) in bins {
                    let at = |part: &str| start + (part.as_ptr() as usize - text.as_ptr() as usize);
                    // Each bin is a row of its own: bins narrower than the printed precision
                    // repeat a start (`26.4 ms` three times in pyperf's own `hist telco.json`),
                    // and a selector tells them apart by their rows (`26.4 ms #2`).
                    let row = out.new_row(bin.start);
                    out.push(table, row, 1, bin.start, "Bin", at(bin.start)..at(bin.start) + bin.start.len(), false);
                    out.push(table, row, 2, bin.start, &counts, at(bin.count)..at(bin.count) + bin.count.len(), false);
                }
            }
            continue;
        }
        if !line.is_empty() {
            histogram_title = None;
        }
        if let Some((subject, warning)) = warning_line(text) {
            let row_label = title.clone().unwrap_or_else(|| subject.to_string());
            if title.is_none() && out.holds_row(PyperfGroup::Warnings, &row_label) {
                out.start(PyperfGroup::Warnings);
            }
            let table = out.table(PyperfGroup::Warnings);
            let row = out.row(&row_label);
            let column = out.column(subject);
            out.push(table, row, column, &row_label, subject, span(warning), false);
            continue;
        }
        if let Some(stats) = stats_line(text).filter(|_| stats_block && !line.contains(" -> ")) {
            let row_label = title.clone().unwrap_or_else(|| stats.key.to_string());
            if title.is_none() && out.holds_row(PyperfGroup::Stats, &row_label) {
                out.start(PyperfGroup::Stats);
            }
            let table = out.table(PyperfGroup::Stats);
            let row = out.row(&row_label);
            for (column_label, value) in stats.cells {
                let column = out.column(column_label);
                out.push(table, row, column, &row_label, column_label, span(value), false);
            }
            continue;
        }
        let body = line.strip_prefix("- ").unwrap_or(line);
        if let Some(ratio) = body.strip_prefix("Geometric mean: ") {
            let Some(changed) = &changed_file else { continue };
            if !is_speed(ratio) {
                continue;
            }
            let table = out.table(PyperfGroup::Named);
            let row = out.row("Geometric mean");
            out.push(table, row, 0, "Geometric mean", "Benchmark", span(&body[.."Geometric mean".len()]), true);
            out.push(table, row, 2, "Geometric mean", changed, span(ratio), false);
            continue;
        }
        if let Some(names) = body.strip_prefix(HIDDEN).and_then(|rest| rest.trim_start().strip_prefix('(')).and_then(|rest| rest.split_once("): ")).map(|(_, names)| names.trim()) {
            if !names.is_empty() {
                let table = out.table(PyperfGroup::Named);
                let row = out.row(HIDDEN);
                out.push(table, row, 1, HIDDEN, HIDDEN, span(names), true);
            }
            continue;
        }
        // The benchmark's name, where the line begins with one: everything before the first
        // `: ` that is not the result itself.
        let (name, rest) = match body.find(": ") {
            Some(i) if !body.starts_with(MEAN) && !body[..i].contains(" -> ") => (Some(&body[..i]), &body[i + 2..]),
            _ => (None, body),
        };
        let label = name.unwrap_or("Mean +- std dev").to_string();
        // A line that names no benchmark is a table of its own, its row named `Mean +- std
        // dev`, so that two such lines in one block are told apart by their tables.
        let group = if name.is_some() { PyperfGroup::Named } else { PyperfGroup::Alone };
        let rest_mean = rest.strip_prefix(MEAN).unwrap_or(rest);
        if let Some((reference, changed)) = rest_mean.split_once(" -> ") {
            let Some((changed, ratio)) = changed.rsplit_once(": ") else { continue };
            if !is_speed(ratio) {
                continue;
            }
            let bracketed = |part: &str| -> Option<(String, usize)> {
                let inner = part.strip_prefix('[')?;
                let close = inner.find("] ")?;
                Some((inner[..close].to_string(), close + 3))
            };
            let (ref_name, ref_skip) = bracketed(reference).unwrap_or(("reference".into(), 0));
            let (chg_name, chg_skip) = bracketed(changed).unwrap_or(("changed".into(), 0));
            let reference = &reference[ref_skip..];
            // The changed file's cell runs from its value to the end of the line, its ratio and
            // the ratio's word with it.
            let changed = at(&changed[chg_skip..])..at(rest_mean) + rest_mean.len();
            let table = out.table(group);
            let row = out.row(&label);
            if let Some(n) = name {
                out.push(table, row, 0, &label, "Benchmark", span(n), true);
            }
            out.push(table, row, 1, &label, &ref_name, span(reference), false);
            out.push(table, row, 2, &label, &chg_name, changed, false);
            changed_file = Some(chg_name);
            continue;
        }
        if let Some(value) = rest.strip_prefix(MEAN) {
            if !value.contains(" +- ") {
                continue;
            }
            let table = out.table(group);
            let row = out.row(&label);
            if let Some(n) = name {
                out.push(table, row, 0, &label, "Benchmark", span(n), true);
            }
            out.push(table, row, 1, &label, "Mean +- std dev", span(value), false);
        }
    }
    if out.cells.is_empty() {
        return None;
    }
    let mut cells = out.cells;
    if let Some(grid) = grid_cells(code) {
        cells = in_block_order(cells, grid);
    }
    Some(cells)
}

/// Whether `text` is pyperf's speed of one file against another: `1.42x slower`, `1.02x faster`,
/// or as pyperf printed it before 2.1.0 with the change in percent after it, `1.11x faster
/// (-10%)`.
fn is_speed(text: &str) -> bool {
    let text = text.trim();
    // The change in percent, `(-10%)`, which pyperf signs with `%+.0f`.
    let text = match text.rsplit_once(" (") {
        Some((speed, percent)) => match percent.strip_suffix("%)") {
            Some(p) if p.starts_with(['+', '-']) && is_value(p) => speed,
            _ => return false,
        },
        None => text,
    };
    let Some((number, word)) = text.split_once("x ") else { return false };
    is_value(number) && matches!(word, "faster" | "slower")
}

/// What a table of pyperf's output holds, which decides whether the next line continues it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PyperfGroup {
    /// A result or comparison that names no benchmark: a table of its own.
    Alone,
    /// Results and comparisons that name their benchmarks, their geometric mean and the
    /// benchmarks hidden as not significant.
    Named,
    /// `pyperf stats`' lines.
    Stats,
    /// The warnings of `pyperf check`.
    Warnings,
    /// One histogram of `pyperf hist`.
    Histogram,
}

/// The cells of pyperf's output as they are read, and the table being filled.
#[derive(Default)]
struct PyperfTables {
    cells: Vec<ConsoleCell>,
    /// The table being filled and what it holds.
    open: Option<(PyperfGroup, usize)>,
    /// How many tables were started.
    tables: usize,
    /// The row being filled, from 1, and its label.
    row: usize,
    row_label: String,
    /// The open table's row labels and column labels, in the order they came.
    rows: Vec<String>,
    columns: Vec<String>,
}

impl PyperfTables {
    /// The open table where it holds `group`'s lines, else a new one; a line that names no
    /// benchmark (`Alone`) always starts one.
    fn table(&mut self, group: PyperfGroup) -> usize {
        match self.open {
            Some((open, table)) if open == group && group != PyperfGroup::Alone => table,
            _ => self.start(group),
        }
    }

    /// A new table of `group`'s lines.
    fn start(&mut self, group: PyperfGroup) -> usize {
        let table = self.tables;
        self.tables += 1;
        self.open = Some((group, table));
        self.row = 0;
        self.row_label.clear();
        self.rows.clear();
        self.columns.clear();
        table
    }

    /// Whether the open table holds `group`'s lines and a row named `label` already: the same
    /// statistic (or warning) printed again is another benchmark's, in a table of its own.
    fn holds_row(&self, group: PyperfGroup, label: &str) -> bool {
        self.open.is_some_and(|(open, _)| open == group) && self.rows.iter().any(|r| r == label)
    }

    /// The row named `label`: the row being filled where it is named so, else the next one.
    fn row(&mut self, label: &str) -> usize {
        if self.row == 0 || self.row_label != label {
            self.new_row(label);
        }
        self.row
    }

    /// A row after the last, whatever its label.
    fn new_row(&mut self, label: &str) -> usize {
        self.row += 1;
        self.row_label = label.to_string();
        self.rows.push(label.to_string());
        self.row
    }

    /// The place of the column labelled `label` in the open table, from 1: column 0 is a
    /// benchmark's name.
    fn column(&mut self, label: &str) -> usize {
        match self.columns.iter().position(|c| c == label) {
            Some(k) => k + 1,
            None => {
                self.columns.push(label.to_string());
                self.columns.len()
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push(&mut self, table: usize, row: usize, column: usize, row_label: &str, column_label: &str, range: Range<usize>, is_name: bool) {
        self.cells.push(ConsoleCell { is_name, ..ConsoleCell::plain(table, row, column, row_label, column_label, range) });
    }
}

/// Whether `under` underlines `line` as pyperf underlines a title (`_cli.format_title`): as
/// many `=` (a file's name) or `-` (a benchmark's) as the title has characters.
fn is_underline(line: &str, under: &str) -> bool {
    let under = under.trim();
    !line.is_empty() && (under.chars().all(|c| c == '-') || under.chars().all(|c| c == '=')) && under.chars().count() == line.chars().count()
}

/// The keys of `pyperf stats` that only pyperf prints (`_cli.format_stats`): a block holding
/// one of them is its output.
const PYPERF_STATS_KEYS: &[&str] = &[
    "Raw value minimum",
    "Raw value maximum",
    "Number of calibration run",
    "Number of run with values",
    "Total number of run",
    "Number of warmup per run",
    "Number of value per run",
    "Loop iterations per value",
    "Total number of values",
    "Median +- MAD",
];

/// The keys of `pyperf stats` that other programs may print as well (and `Number of
/// benchmarks`, `Total duration` and the dates, which it prints for a file of several
/// benchmarks above them): read only beside one of [`PYPERF_STATS_KEYS`].
const PYPERF_COMMON_KEYS: &[&str] = &["Total duration", "Start date", "End date", "Minimum", "Maximum", "Mean", "Mean +- std dev", "Number of benchmarks"];

/// The row the outliers' line is named by, and the column of its count.
const PYPERF_OUTLIERS: &str = "Number of outlier";

/// One line of `pyperf stats`: its key and its cells, each a column's label and its text.
struct StatsLine<'a> {
    key: &'a str,
    cells: Vec<(&'a str, &'a str)>,
    /// Whether only pyperf prints the key.
    distinctive: bool,
}

/// `text` as a line of `pyperf stats`, or `None`.
fn stats_line(text: &str) -> Option<StatsLine<'_>> {
    let line = text.trim();
    let (key, rest) = line.split_once(": ")?;
    let value = rest.trim();
    if value.is_empty() {
        return None;
    }
    // `Number of outlier (out of 4.07 us..4.44 us): 9`: the fences are in the key.
    if let Some(fences) = key.strip_prefix("Number of outlier (out of ").and_then(|k| k.strip_suffix(')')) {
        return Some(StatsLine { key: PYPERF_OUTLIERS, cells: vec![(PYPERF_OUTLIERS, value), ("out of", fences)], distinctive: true });
    }
    // `  5th percentile: 4.15 us (-4% of the mean)`, `%3sth` of 0, 5, 25, 50, 75, 95 and 100,
    // the first, the last and the quartiles named after `--`.
    if key.strip_suffix("th percentile").is_some_and(is_count) {
        let value = value.split_once(" -- ").map_or(value, |(v, _)| v.trim_end());
        return Some(StatsLine { key, cells: vec![(key, value)], distinctive: true });
    }
    let distinctive = PYPERF_STATS_KEYS.contains(&key);
    (distinctive || PYPERF_COMMON_KEYS.contains(&key)).then(|| StatsLine { key, cells: vec![(key, value)], distinctive })
}

/// The units `pyperf hist` prints a bin's start in (`_formatter`: times, sizes; an integer
/// benchmark's has none).
const PYPERF_UNITS: &[&str] = &["sec", "ms", "us", "ns", "bytes", "byte", "KiB", "MiB"];

/// A bin of `pyperf hist`: its start and its count, as parts of the line.
struct Bin<'a> {
    start: &'a str,
    count: &'a str,
}

/// `text` as a bin of `pyperf hist` (`4.10 us: 15 ####`, `4.70 us:  0 |`), or `None`.
fn hist_line(text: &str) -> Option<Bin<'_>> {
    let (label, rest) = text.split_once(": ")?;
    let start = label.trim();
    let mut words = start.split(' ');
    let (number, unit) = (words.next()?, words.next());
    if words.next().is_some() || !is_value(number) || unit.is_some_and(|u| !PYPERF_UNITS.contains(&u)) {
        return None;
    }
    let (count, bar) = rest.trim_start().split_once(' ')?;
    let bar = bar.trim_end();
    (is_count(count) && (bar == "|" || (!bar.is_empty() && bar.bytes().all(|b| b == b'#')))).then_some(Bin { start, count })
}

/// The warnings of `_cli.format_checks` that state measurements, by the words they open with
/// and what they warn of.
const PYPERF_WARNINGS: &[(&str, &str)] = &[
    ("the standard deviation (", "the standard deviation"),
    ("the minimum (", "the minimum"),
    ("the maximum (", "the maximum"),
    ("the shortest raw value is only ", "the shortest raw value"),
];

/// `text` as one of pyperf's warnings on a benchmark's stability (`* the maximum (6.02 us) is
/// 39% greater than the mean (4.34 us)`): what it warns of and the warning, or `None`.
fn warning_line(text: &str) -> Option<(&'static str, &str)> {
    let warning = text.trim().strip_prefix("* ")?;
    let &(_, subject) = PYPERF_WARNINGS.iter().find(|(opening, _)| warning.starts_with(opening))?;
    warning.contains(|c: char| c.is_ascii_digit()).then_some((subject, warning))
}

/// `first` and `second`, cells of two readings of one code block, as one reading: their tables
/// numbered in the order they begin in the block, each table's cells in their order.
fn in_block_order(first: Vec<ConsoleCell>, second: Vec<ConsoleCell>) -> Vec<ConsoleCell> {
    // Each table's first byte, by the reading it is of and its number there.
    let mut starts: Vec<(usize, usize, usize)> = Vec::new();
    for (reading, cells) in [&first, &second].into_iter().enumerate() {
        for c in cells {
            match starts.iter_mut().find(|(r, t, _)| *r == reading && *t == c.table) {
                Some(entry) => entry.2 = entry.2.min(c.range.start),
                None => starts.push((reading, c.table, c.range.start)),
            }
        }
    }
    starts.sort_by_key(|&(_, _, at)| at);
    let place = |reading: usize, table: usize| starts.iter().position(|&(r, t, _)| r == reading && t == table).unwrap_or_default();
    let mut cells: Vec<(usize, ConsoleCell)> = Vec::new();
    for (reading, readings) in [first, second].into_iter().enumerate() {
        cells.extend(readings.into_iter().map(|c| (place(reading, c.table), c)));
    }
    cells.sort_by_key(|(table, _)| *table);
    cells.into_iter().map(|(table, c)| ConsoleCell { table, ..c }).collect()
}

/// The cells of the Google Benchmark console tables in `code`, or `None` when it holds none.
///
/// A table starts at a line whose first four words are `Benchmark Time CPU Iterations`; its
/// rows are the lines after it up to a blank line, dashed rules skipped. A row of the usual
/// shape (`name  2842 ns  2888 ns  248889  [counters]`) gives the name, the `Time` and `CPU`
/// values with their units, the `Iterations` count and, where there is more, the rest of the
/// line as one cell under the fifth header (user counters). A row of another shape (`name
/// ERROR OCCURRED: ...`) gives its name and the rest of its line, under the second header, so
/// that a number in it is still read.
pub(crate) fn google_benchmark_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut headers: Option<Vec<String>> = None;
    let mut table = None;
    let mut row = 0;
    for (start, text) in lines(code) {
        let toks = tokens(text);
        let words: Vec<&str> = toks.iter().map(|t| &text[t.clone()]).collect();
        if words.len() >= 4 && words[..4] == ["Benchmark", "Time", "CPU", "Iterations"] {
            let mut h: Vec<String> = words[..4].iter().map(|w| w.to_string()).collect();
            if words.len() > 4 {
                h.push(words[4..].join(" "));
            }
            headers = Some(h);
            table = Some(table.map_or(0, |t| t + 1));
            row = 0;
            continue;
        }
        let Some(h) = &headers else { continue };
        if words.is_empty() {
            headers = None;
            continue;
        }
        if text.trim().chars().all(|c| c == '-' || c == '=') {
            continue;
        }
        row += 1;
        let label = words[0].to_string();
        let abs = |r: &Range<usize>| start + r.start..start + r.end;
        let table = table.unwrap_or_default();
        let cell = |column: usize, range: Range<usize>, is_name: bool| ConsoleCell {
            is_name,
            ..ConsoleCell::plain(table, row, column, &label, h.get(column).map_or("", |l| l.as_str()), range)
        };
        let name = cell(0, abs(&toks[0]), true);
        let shaped = words.len() >= 6 && is_value(words[1]) && is_unit(words[2]) && is_value(words[3]) && is_unit(words[4]) && is_count(words[5]);
        let mut row_cells = vec![name];
        if shaped {
            row_cells.push(cell(1, abs(&(toks[1].start..toks[2].end)), false));
            row_cells.push(cell(2, abs(&(toks[3].start..toks[4].end)), false));
            row_cells.push(cell(3, abs(&toks[5]), false));
            if let (Some(first), Some(last)) = (toks.get(6), toks.last()) {
                row_cells.push(cell(4, abs(&(first.start..last.end)), false));
            }
        } else if let (Some(first), Some(last)) = (toks.get(1), toks.last()) {
            row_cells.push(cell(1, abs(&(first.start..last.end)), false));
        }
        cells.extend(row_cells);
    }
    if cells.is_empty() { None } else { Some(cells) }
}

/// What a column of pytest-benchmark's table holds, by its header.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PytestColumn {
    /// `Min`, `Max`, `Mean`, `StdDev`, `Median`, `IQR`: a time in the unit of the first
    /// header, then a ratio to the column's best where the table compares several rows.
    Time,
    /// `OPS`, or `OPS (Kops/s)` where pytest-benchmark scaled it: calls per second, computed
    /// as 1 / Mean, then a ratio as for a time.
    Ops,
    /// `Outliers`: two counts, `1285;1554` (beyond one standard deviation; beyond 1.5 IQR).
    Outliers,
    /// `Rounds`, `Iterations`: one count.
    Count,
}

/// The kind of a pytest-benchmark column header, and the unit of its values where the
/// header states it; `None` for any other header.
fn pytest_column(label: &str, time: &Unit) -> Option<(PytestColumn, Option<Unit>)> {
    Some(match label {
        "Min" | "Max" | "Mean" | "StdDev" | "Median" | "IQR" => (PytestColumn::Time, Some(time.clone())),
        "OPS" => (PytestColumn::Ops, Some(Unit::Other("ops/s".into()))),
        "Outliers" => (PytestColumn::Outliers, None),
        "Rounds" | "Iterations" => (PytestColumn::Count, None),
        _ => {
            // The scaled heading `OPS (Kops/s)`, `OPS (Mops/s)`.
            let unit = label.strip_prefix("OPS (")?.strip_suffix(')')?;
            if !matches!(unit, "Kops/s" | "Mops/s") {
                return None;
            }
            (PytestColumn::Ops, Some(Unit::Other(unit.into())))
        }
    })
}

/// The start of pytest-benchmark's header, `Name (time in ms)`: the unit as written, the unit,
/// and the text after it.
fn pytest_name_header(text: &str) -> Option<(&str, Unit, &str)> {
    let rest = text.trim_start().strip_prefix("Name (time in ")?;
    let close = rest.find(')')?;
    let unit_text = &rest[..close];
    if !matches!(unit_text, "s" | "ms" | "us" | "ns") {
        return None;
    }
    Some((unit_text, Unit::declared(unit_text).ok()?, &rest[close + 1..]))
}

/// How a cell reads in a Markdown table that holds pytest-benchmark's table, pasted as pipes
/// (`| Name (time in ms) | Min | … | Outliers | OPS | Rounds |`), as READMEs quote it: the unit
/// of the cell's value (the first header's for a time, calls per second for `OPS`, none for a
/// count), and whether a ratio to the column's best may follow the value (`16.8111 (1.0)`).
/// `None` unless `label` is a column pytest-benchmark prints, so that any other column keeps the
/// unit its own header gives; `time` is the unit of the table's first header
/// ([`pytest_pipe_time`]).
pub(crate) fn pytest_pipe_column(time: &Unit, label: &str) -> Option<(Option<Unit>, bool)> {
    let (kind, unit) = pytest_column(label.trim(), time)?;
    Some((unit, matches!(kind, PytestColumn::Time | PytestColumn::Ops)))
}

/// The time unit of a Markdown table whose first header is pytest-benchmark's `Name (time in
/// ms)`, alone in its cell; `None` for any other table.
pub(crate) fn pytest_pipe_time(first_header: &str) -> Option<Unit> {
    pytest_name_header(first_header).filter(|(_, _, rest)| rest.trim().is_empty()).map(|(_, time, _)| time)
}

/// Where the ratio after a value begins in a cell's text (`16.8111 (1.0)`), if one ends it.
pub(crate) fn trailing_ratio(text: &str) -> Option<usize> {
    let text = text.trim_end();
    let open = text.rfind('(')?;
    (is_ratio(&text[open..]) && !text[..open].trim().is_empty()).then_some(open)
}

/// A pytest-benchmark header line: the unit its `Name (time in …)` states, and each column's
/// label, kind and unit. `None` unless every label after the first is one pytest-benchmark
/// prints, so that a line of prose that happens to start alike is not taken for a table.
fn pytest_header(text: &str) -> Option<(String, Vec<(String, PytestColumn, Option<Unit>)>)> {
    let (unit_text, time, rest) = pytest_name_header(text)?;
    let mut labels: Vec<String> = Vec::new();
    for word in rest.split_whitespace() {
        // A parenthesised word belongs to the label before it: `OPS (Kops/s)`.
        match labels.last_mut() {
            Some(last) if word.starts_with('(') => {
                last.push(' ');
                last.push_str(word);
            }
            _ => labels.push(word.to_string()),
        }
    }
    let columns = labels.into_iter().map(|l| pytest_column(&l, &time).map(|(kind, unit)| (l, kind, unit))).collect::<Option<Vec<_>>>()?;
    if columns.is_empty() {
        return None;
    }
    Some((format!("Name (time in {unit_text})"), columns))
}

/// A value as pytest-benchmark formats it, `{:,.4f}`: digits with thousands separators and
/// decimals (`1,586.3540`).
fn is_formatted_value(token: &str) -> bool {
    token.starts_with(|c: char| c.is_ascii_digit()) && token.replace(',', "").parse::<f64>().is_ok_and(f64::is_finite)
}

/// The ratio printed after a value: `(1.0)`, `(1.28)`, `(>1000.0)` or `(inf)`.
fn is_ratio(token: &str) -> bool {
    token.strip_prefix('(').and_then(|t| t.strip_suffix(')')).is_some_and(|inner| inner == "inf" || is_formatted_value(inner.strip_prefix('>').unwrap_or(inner)))
}

fn is_outliers(token: &str) -> bool {
    token.split_once(';').is_some_and(|(a, b)| is_count(a) && is_count(b))
}

/// The cells of a pytest-benchmark row, read from its right end, since a name may hold
/// spaces (a parameter `[     512]`, or the run `pytest-benchmark compare` appends, as in
/// `test_x[1] (0001_base)`): each column in turn from the last, a count, an outliers pair, or
/// a value with the ratio that may follow it. What remains on the left is the name. `None`
/// when the tokens do not have the columns' shape or leave no name.
fn pytest_row(text: &str, toks: &[Range<usize>], columns: &[(String, PytestColumn, Option<Unit>)]) -> Option<(Range<usize>, Vec<(Range<usize>, Option<Range<usize>>)>)> {
    let word = |i: usize| &text[toks[i].clone()];
    let mut end = toks.len();
    let mut cells = Vec::with_capacity(columns.len());
    for (_, kind, _) in columns.iter().rev() {
        match kind {
            PytestColumn::Count | PytestColumn::Outliers => {
                let i = end.checked_sub(1)?;
                let ok = if *kind == PytestColumn::Count { is_count(word(i)) } else { is_outliers(word(i)) };
                if !ok {
                    return None;
                }
                cells.push((toks[i].clone(), None));
                end = i;
            }
            PytestColumn::Time | PytestColumn::Ops => {
                let mut ratio = None;
                if end > 0 && is_ratio(word(end - 1)) {
                    ratio = Some(toks[end - 1].clone());
                    end -= 1;
                }
                let i = end.checked_sub(1)?;
                if !is_formatted_value(word(i)) {
                    return None;
                }
                let whole = toks[i].start..ratio.as_ref().map_or(toks[i].end, |r| r.end);
                cells.push((whole, ratio));
                end = i;
            }
        }
    }
    if end == 0 {
        return None;
    }
    cells.reverse();
    Some((toks[0].start..toks[end - 1].end, cells))
}

/// The cells of the pytest-benchmark console tables in `code`, or `None` when it holds none.
///
/// A table starts at a header line `Name (time in s)` followed by column labels pytest-benchmark
/// prints; the dashed rule under it is skipped, and its rows are the lines after, up to the
/// next dashed rule or a blank line. A row of the columns' shape gives its name and one cell
/// per column: a time or OPS value with the ratio after it (`5.0488 (1.0)`) in the unit its
/// header states, the outliers pair, a count. A row of another shape (edited by hand, a
/// column dropped) gives its first word as the name and the rest of its line under the second
/// header, so that a number in it is still read.
pub(crate) fn pytest_benchmark_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut header: Option<(String, Vec<(String, PytestColumn, Option<Unit>)>)> = None;
    let mut table = None;
    let mut row = 0;
    for (start, text) in lines(code) {
        if let Some(h) = pytest_header(text) {
            header = Some(h);
            table = Some(table.map_or(0, |t| t + 1));
            row = 0;
            continue;
        }
        let Some((name_label, columns)) = &header else { continue };
        let is_rule = !text.trim().is_empty() && text.trim().chars().all(|c| c == '-' || c == '=');
        if is_rule && row == 0 {
            continue;
        }
        if is_rule || text.trim().is_empty() {
            header = None;
            continue;
        }
        row += 1;
        let toks = tokens(text);
        let abs = |r: &Range<usize>| start + r.start..start + r.end;
        let table = table.unwrap_or_default();
        let label_of = |column: usize| if column == 0 { name_label.clone() } else { columns.get(column - 1).map(|c| c.0.clone()).unwrap_or_default() };
        let cell = |column: usize, row_label: &str, range: Range<usize>, unit: Option<Unit>, ratio: Option<Range<usize>>| ConsoleCell {
            unit,
            ratio: ratio.as_ref().map(abs),
            ..ConsoleCell::plain(table, row, column, row_label, &label_of(column), abs(&range))
        };
        match pytest_row(text, &toks, columns) {
            Some((name, row_cells)) => {
                let row_label = &text[name.clone()];
                cells.push(cell(0, row_label, name, None, None));
                for (k, ((range, ratio), (_, _, unit))) in row_cells.into_iter().zip(columns).enumerate() {
                    cells.push(cell(k + 1, row_label, range, unit.clone(), ratio));
                }
            }
            None => {
                let row_label = &text[toks[0].clone()];
                cells.push(cell(0, row_label, toks[0].clone(), None, None));
                if let (Some(first), Some(last)) = (toks.get(1), toks.last()) {
                    cells.push(cell(1, row_label, first.start..last.end, None, None));
                }
            }
        }
    }
    if cells.is_empty() { None } else { Some(cells) }
}

/// A hyperfine benchmark header (`Benchmark 1: sleep 0.1`, or `Benchmark #1:` before hyperfine
/// 1.11): whether it is the first benchmark of its run, and the command as a range of `line`.
fn hyperfine_benchmark(line: &str) -> Option<(bool, Range<usize>)> {
    let lead = line.len() - line.trim_start().len();
    let rest = line.trim_start().strip_prefix("Benchmark ")?;
    let rest = rest.strip_prefix('#').unwrap_or(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let name = rest[digits..].strip_prefix(": ").filter(|_| digits > 0)?;
    let start = line.len() - name.len();
    let end = start + name.trim_end().len();
    (end > start && start > lead).then_some((&rest[..digits] == "1", start..end))
}

/// `text` without the single quotes hyperfine puts around a command in its summary.
fn unquoted(text: &str) -> &str {
    let text = text.trim();
    text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or(text)
}

/// The range of `part`, a subslice of `line`, with its surrounding whitespace trimmed; empty,
/// after the whitespace, where `part` holds nothing else (the two trims would otherwise cross).
pub(super) fn trimmed_range(line: &str, part: &str) -> Range<usize> {
    let start = part.as_ptr() as usize - line.as_ptr() as usize;
    let lead = part.len() - part.trim_start().len();
    start + lead..start + part.trim_end().len().max(lead)
}

/// The cells of hyperfine's console output in `code`, or `None` when it holds none.
///
/// hyperfine prints, for each command, a header and two lines of statistics, then a summary:
///
/// ```text
/// Benchmark 1: kubectl get pods --context eks
///   Time (mean ± σ):     763.0 ms ±  24.8 ms    [User: 168.1 ms, System: 45.6 ms]
///   Range (min … max):   734.0 ms … 818.9 ms    10 runs
///
/// Summary
///   'kubectl get pods --context eks-proxy' ran
///     7.36 ± 0.50 times faster than 'kubectl get pods --context eks'
/// ```
///
/// Each benchmark is a row named by its command, with the cells `Time (mean ± σ)` (or `Time
/// (mean)`, `Time (abs ≡)` for one run), `User`, `System`, `Range (min … max)` and `Runs`, each
/// value with the unit hyperfine prints beside it. A summary line is a cell of the fastest
/// command's row, under the column `faster than <command>`, whose numbers are multiples (`×`).
/// A new table starts at each `Benchmark 1:` after the first (a block holding several runs of
/// hyperfine). Lines of any other shape (warnings, the command line itself) give no cell.
pub(crate) fn hyperfine_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut table: Option<usize> = None;
    let mut row = 0;
    // The row being read: its label, and whether it is a benchmark's or the summary's.
    let mut current: Option<(String, bool)> = None;
    let mut in_summary = false;
    let mut has_time = false;
    // The summary row's comparisons so far: each is a column of its own.
    let mut compared = 0;
    // Column 0 is a benchmark's command, its name.
    let cell = |table: usize, row: usize, column: usize, row_label: &str, column_label: &str, range: Range<usize>, unit: Option<Unit>| ConsoleCell {
        unit,
        ..ConsoleCell::plain(table, row, column, row_label, column_label, range)
    };
    for (start, text) in lines(code) {
        let abs = |r: Range<usize>| start + r.start..start + r.end;
        let line = text.trim();
        if let Some((first, name)) = hyperfine_benchmark(text) {
            if first || table.is_none() {
                table = Some(table.map_or(0, |t| t + 1));
                row = 0;
            }
            row += 1;
            in_summary = false;
            let label = text[name.clone()].to_string();
            cells.push(cell(table.unwrap_or_default(), row, 0, &label, "Benchmark", abs(name), None));
            current = Some((label, true));
            continue;
        }
        let Some(t) = table else { continue };
        if line == "Summary" {
            in_summary = true;
            current = None;
            continue;
        }
        let mut push = |row_label: &str, row: usize, column: usize, column_label: &str, range: Range<usize>, unit: Option<Unit>| {
            cells.push(cell(t, row, column, row_label, column_label, abs(range), unit));
        };
        if in_summary {
            // `'a' ran` on a line of its own, then `N ± M times faster than 'b'` lines; or, as
            // some print it, all of it on one line.
            // A command may itself hold ` ran `: on one line, the ` ran ` is the one a speed-up
            // follows.
            let one_line = line.match_indices(" ran ").map(|(i, _)| i).find(|&i| line[i + 5..].trim_start().starts_with(|c: char| c.is_ascii_digit()));
            let (fastest, comparison) = match (line.strip_suffix(" ran"), one_line) {
                (Some(a), _) => (Some(unquoted(a).to_string()), ""),
                (None, Some(i)) => (Some(unquoted(&line[..i]).to_string()), &line[i + 5..]),
                (None, None) => (None, line),
            };
            if let Some(a) = fastest {
                row += 1;
                compared = 0;
                current = Some((a, false));
            }
            let Some((label, false)) = &current else { continue };
            let Some((numbers, other)) = comparison.split_once(" times faster than ") else { continue };
            if numbers.split(['±', ' ']).filter(|w| !w.is_empty()).all(is_value) && !numbers.trim().is_empty() {
                let label = label.clone();
                compared += 1;
                push(&label, row, compared, &format!("faster than {}", unquoted(other)), trimmed_range(text, numbers), Some(Unit::Times));
            }
            continue;
        }
        let Some((label, true)) = &current else { continue };
        let label = label.clone();
        let Some((head, rest)) = line.split_once("):") else { continue };
        let head = format!("{head})");
        match head.as_str() {
            "Time (mean ± σ)" | "Time (mean)" | "Time (abs ≡)" => {
                has_time = true;
                let (value, bracket) = rest.split_once('[').map_or((rest, None), |(v, b)| (v, Some(b)));
                push(&label, row, 1, &head, trimmed_range(text, value), None);
                for part in bracket.map(|b| b.trim_end().trim_end_matches(']')).into_iter().flat_map(|b| b.split(',')) {
                    if let Some((name, value)) = part.split_once(':') {
                        let column = match name.trim() {
                            "User" => 2,
                            "System" => 3,
                            _ => continue,
                        };
                        push(&label, row, column, name.trim(), trimmed_range(text, value), None);
                    }
                }
            }
            "Range (min … max)" => {
                // `10 runs` ends the line where hyperfine counts them.
                let words = tokens(rest);
                let runs = match words.as_slice() {
                    [.., count, word] if is_count(&rest[count.clone()]) && &rest[word.clone()] == "runs" => Some(count.start..word.end),
                    _ => None,
                };
                let value = runs.as_ref().map_or(rest, |r| &rest[..r.start]);
                push(&label, row, 4, &head, trimmed_range(text, value), None);
                if let Some(r) = runs {
                    push(&label, row, 5, "Runs", trimmed_range(text, &rest[r]), None);
                }
            }
            _ => {}
        }
    }
    (has_time && !cells.is_empty()).then_some(cells)
}

/// Lines criterion prints between its estimates that name no benchmark.
const CRITERION_MESSAGES: &[&str] = &["Benchmarking ", "Warning:", "Found ", "Gnuplot", "Performance has", "No change", "Change within", "change:"];

/// The cells of criterion's console output in `code`, or `None` when it holds none.
///
/// criterion prints each benchmark's estimate as a confidence interval, the point estimate
/// between its bounds, with the id on the same line or, when long, on the line before:
///
/// ```text
/// fib 20                  time:   [26.029 µs 26.251 µs 26.505 µs]
///                         change: [-1.1% +0.3% +1.9%] (p = 0.70 > 0.05)
/// encode/1KB_6+3
///                         time:   [245.67 ns 256.78 ns 267.89 ns]
///                         thrpt:  [3.73 GiB/s 3.89 GiB/s 4.07 GiB/s]
/// ```
///
/// Each benchmark is a row named by its id, with a cell for each bracket under the word before
/// it (`time`, `thrpt`, `change`); a bracket of percentages under another word follows a bare
/// `change:` line (newer criterion) and is that change (`change › time`). Each value keeps the
/// unit printed beside it. Warnings, outlier counts and verdicts give no cell.
pub(crate) fn criterion_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut row = 0;
    let mut label: Option<String> = None;
    // The last line that could name the next benchmark, with its indentation.
    let mut candidate: Option<(Range<usize>, usize)> = None;
    let mut after_change = false;
    let mut has_time = false;
    // The row's cells after its id so far: each bracket is a column of its own.
    let mut columns = 0;
    // Column 0 is a benchmark's id, its name.
    let cell = |row: usize, column: usize, row_label: &str, column_label: &str, range: Range<usize>| ConsoleCell::plain(0, row, column, row_label, column_label, range);
    for (start, text) in lines(code) {
        let indent = text.len() - text.trim_start().len();
        let line = text.trim();
        let Some((before, bracket)) = ["time:", "thrpt:", "change:"].iter().find_map(|w| {
            // The word, then a space or the end of the line.
            let at = text.match_indices(w).map(|(i, _)| i).find(|&i| text[i + w.len()..].chars().next().is_none_or(|c| c.is_whitespace()))?;
            let rest = &text[at + w.len()..];
            let open = rest.find('[').filter(|&k| rest[..k].trim().is_empty());
            Some((at, (w.trim_end_matches(':'), open.map(|k| at + w.len() + k))))
        }) else {
            if !line.is_empty() && !CRITERION_MESSAGES.iter().any(|m| line.starts_with(m)) && !line.starts_with(|c: char| c.is_ascii_digit()) {
                candidate = Some((start + indent..start + indent + line.len(), indent));
            }
            continue;
        };
        let (word, open) = bracket;
        let Some(open) = open else {
            // A bare `change:` heads the changes printed below it.
            after_change = word == "change";
            continue;
        };
        let Some(close) = text[open..].find(']').map(|k| open + k) else { continue };
        let inner = &text[open + 1..close];
        let values: Vec<&str> = inner.split_whitespace().collect();
        let percent = !values.is_empty() && values.iter().all(|v| v.ends_with('%'));
        let name = text[..before].trim();
        if word == "time" && !percent {
            // A new benchmark: its id on this line, or the line before it.
            let name_range = if name.is_empty() {
                match &candidate {
                    Some((r, at)) if *at < indent => r.clone(),
                    _ => continue,
                }
            } else {
                let at = trimmed_range(text, &text[..before]);
                start + at.start..start + at.end
            };
            let id = code[name_range.clone()].to_string();
            row += 1;
            columns = 0;
            has_time = true;
            after_change = false;
            cells.push(cell(row, 0, &id, "Benchmark", name_range));
            label = Some(id);
        }
        let Some(id) = &label else { continue };
        let column_label = if percent && word != "change" { format!("change › {word}") } else { word.to_string() };
        if percent && word != "change" && !after_change {
            continue;
        }
        let range = trimmed_range(text, inner);
        columns += 1;
        cells.push(cell(row, columns, id, &column_label, start + range.start..start + range.end));
        candidate = None;
    }
    (has_time && !cells.is_empty()).then_some(cells)
}

/// The unit of a value Go prints with `unit`, as a table cell states it: `ns/op` a time in
/// nanoseconds, `B/op` bytes, `MB/s` megabytes per second (Go's are 10⁶ bytes, as
/// [`Unit::MbPerS`]'s), and any other unit (`allocs/op`, a `b.ReportMetric` unit) a free unit
/// that matches only itself.
fn go_unit(unit: &str) -> Unit {
    match unit {
        "ns/op" => Unit::Ns,
        "B/op" => Unit::Bytes,
        "MB/s" => Unit::MbPerS,
        other => Unit::Other(other.into()),
    }
}

/// The cells of Go benchmark output in `code`, or `None` when it holds no result line.
///
/// `go test -bench . -benchmem` prints one line per run of a benchmark, with a value and its
/// unit for each metric:
///
/// ```text
/// goos: linux
/// BenchmarkDecode/size=1k-8     1000000          1234 ns/op         512 B/op           3 allocs/op
/// ```
///
/// Each result line is a row named by the benchmark's name without its `-N` GOMAXPROCS suffix,
/// as the `go-bench` evidence reader records it (`crate::evidence::readers::go_bench`, whose
/// rule reads the line here too), so that a row's name selects its records. Its cells are the
/// iteration count under `Iterations` and each value under its unit as printed (`ns/op`,
/// `B/op`, `allocs/op`, `MB/s`), in the unit that one states (`ns/op` a time in ns). The cell
/// is the value alone: its unit is the column's, as under a table header that states one. A
/// result line broken after its count (edited by hand) gives its name and the rest of its line
/// under `Iterations`, so that a number in it is still read. Configuration lines (`goos:`,
/// `cpu:`), `PASS` and `ok` give no cell. The lines of a benchmark run `-count N` times (or
/// at several `-cpu` values) are rows of one name, which a `cell` cannot tell apart; an article
/// that quotes one statistic per benchmark binds each.
pub(crate) fn go_bench_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut row = 0;
    for (start, text) in lines(code) {
        let abs = |r: &Range<usize>| start + r.start..start + r.end;
        let (name, rest) = match go_bench::result_line(text) {
            Line::Result(r) => (r.name.clone(), Ok(r)),
            Line::Broken { printed, name, .. } => (name, Err(printed)),
            Line::Other => continue,
        };
        row += 1;
        let label = text[name.clone()].to_string();
        let cell =
            |column: usize, column_label: &str, range: Range<usize>, unit: Option<Unit>| ConsoleCell { unit, ..ConsoleCell::plain(0, row, column, &label, column_label, range) };
        match rest {
            Ok(r) => {
                // The name is the printed word, suffix and all: the suffix is no measurement either.
                cells.push(cell(0, "Benchmark", abs(&r.printed), None));
                cells.push(cell(1, "Iterations", abs(&r.iterations), None));
                for (k, (value, unit)) in r.pairs.iter().enumerate() {
                    let unit_text = &text[unit.clone()];
                    cells.push(cell(k + 2, unit_text, abs(value), Some(go_unit(unit_text))));
                }
            }
            Err(printed) => {
                cells.push(cell(0, "Benchmark", abs(&printed), None));
                let rest = &text[printed.end..];
                let at = trimmed_range(text, rest);
                if !at.is_empty() {
                    cells.push(cell(1, "Iterations", abs(&at), None));
                }
            }
        }
    }
    if cells.is_empty() { None } else { Some(cells) }
}

/// The column separator benchstat draws in its header lines.
const BAR: char = '│';

/// One column of files in benchstat's table: the header's label (the file's name, or whatever
/// `-col` groups by), the unit its values are in, the label of the change from the base that
/// follows each value where one does, and whether the values carry their unit after their
/// digits (`0.32ns`, benchstat before 2023) rather than an SI prefix (`0.3155n`).
#[derive(Debug, Clone, PartialEq)]
struct BenchstatColumn {
    label: String,
    unit: String,
    change: Option<String>,
    suffixed: bool,
    /// Where the file's group of columns ends, in characters from the line's start: the bar
    /// after it in the labels' line (`None` before 2023, which drew no bars). A row whose next
    /// word starts there or further holds nothing for this file: benchstat leaves a file's
    /// cells blank where it has no result for the row's benchmark.
    end: Option<usize>,
    /// Where the group begins: the bar before it in the labels' line (`None` before 2023). A
    /// row whose first word starts at or past the first group's bar has no name: benchstat
    /// prints none where its row projection is empty, as under `-table .fullname`.
    start: Option<usize>,
}

impl BenchstatColumn {
    /// The label of the column of values: the file's and the unit's.
    fn values(&self) -> String {
        format!("{} {}", self.label, self.unit).trim_start().to_string()
    }

    /// The label of the column of the values' confidence intervals: the values' label and `±`.
    /// The unit is in it because benchstat prints a table for each unit, often in one block,
    /// and each has a `±` column for every file.
    fn interval(&self) -> String {
        format!("{} ±", self.values())
    }
}

/// The parts of a benchstat header line between its bars, each trimmed, without the row labels'
/// area before the first bar; `None` when the line draws no bars.
fn bar_parts(line: &str) -> Option<Vec<&str>> {
    let (_, rest) = line.split_once(BAR)?;
    let mut parts: Vec<&str> = rest.split(BAR).map(str::trim).collect();
    // The closing bar leaves an empty part after it.
    if parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    (!parts.is_empty()).then_some(parts)
}

/// benchstat's two header lines, the columns' labels over their units, as columns; `None` when
/// they are not that pair.
fn benchstat_header(labels: &str, units: &str) -> Option<Vec<BenchstatColumn>> {
    let bars: Vec<usize> = labels.chars().enumerate().filter(|(_, c)| *c == BAR).map(|(at, _)| at).collect();
    let line = labels;
    let labels = bar_parts(labels)?;
    let units = bar_parts(units)?;
    if labels.len() != units.len() {
        return None;
    }
    // A labels' line without its closing bar ends its last group at the line's end.
    let ends: Vec<usize> = (1..=labels.len()).map(|k| bars.get(k).copied().unwrap_or_else(|| line.chars().count())).collect();
    labels
        .iter()
        .zip(&units)
        .zip(ends)
        .enumerate()
        .map(|(k, ((label, unit), end))| {
            let words: Vec<&str> = unit.split_whitespace().collect();
            let (unit, change) = match words.as_slice() {
                [unit] => (*unit, None),
                [unit, "vs", "base"] => (*unit, Some(format!("{label} {unit} vs base"))),
                _ => return None,
            };
            Some(BenchstatColumn { label: label.to_string(), unit: unit.to_string(), change, suffixed: false, end: Some(end), start: bars.get(k).copied() })
        })
        .collect()
}

/// Where a value benchstat prints ends as a cell, and the unit that cell's number is in.
///
/// benchstat scales each value and writes the prefix after the digits without a space
/// (`0.3155n` under `sec/op`): SI prefixes (`n`, `µ`, `m`, `k`, `M`, `G`, `T`) for most units,
/// binary ones (`Ki`, `Mi`, `Gi`, `Ti`) for bytes. A time is read in the unit the prefix makes
/// of seconds (`0.3155n` is 0.3155 ns), and bytes in the unit it makes of bytes, so that the
/// cell is the digits alone in that unit. A multiplier the number reader knows (`k`, `M`, `G`)
/// on another unit stays in the cell (`1.5k` under `allocs/op` is 1500 of them). Any other
/// prefix is read as part of a free unit (`2.0T` under `allocs/op` is 2.0 `Tallocs/op`), which
/// a registry may declare but nothing converts: a number still read, never one scaled wrong.
/// `None` when the token is not a number with a prefix.
fn benchstat_value(token: &str, unit: &str) -> Option<(usize, Unit)> {
    let digits = token.find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+'))).unwrap_or(token.len());
    let (number, prefix) = token.split_at(digits);
    if !is_value(number) {
        return None;
    }
    let free = || Unit::Other(format!("{prefix}{unit}").into());
    let read = match (unit, prefix) {
        ("sec/op", "") => (digits, Unit::S),
        ("sec/op", "m") => (digits, Unit::Ms),
        ("sec/op", "µ" | "μ") => (digits, Unit::Us),
        ("sec/op", "n") => (digits, Unit::Ns),
        ("B/op", "") => (digits, Unit::Bytes),
        ("B/op", "Ki") => (digits, Unit::KiB),
        ("B/op", "Mi") => (digits, Unit::MiB),
        ("B/op", "Gi") => (digits, Unit::GiB),
        // Go's `MB/s`, which benchstat turns into bytes per second with binary prefixes.
        ("B/s", "") => (digits, Unit::BPerS),
        ("B/s", "Ki") => (digits, Unit::KiBPerS),
        ("B/s", "Mi") => (digits, Unit::MiBPerS),
        ("B/s", "Gi") => (digits, Unit::GiBPerS),
        ("sec/op" | "B/op" | "B/s", _) => (digits, free()),
        (_, "k" | "M" | "G") => (token.len(), Unit::Other(unit.into())),
        (_, "") => (digits, Unit::Other(unit.into())),
        _ => (digits, free()),
    };
    Some(read)
}

/// The header of benchstat's table as it printed it before 2023, `name  old time/op  new
/// time/op  delta` (or `name  time/op` for one file, or `name \ time/op  a.txt  b.txt  c.txt`
/// for more than two), as columns; `None` for any other line.
///
/// With more than two files each column is labelled by its file, and a row leaves a file's
/// cell blank where that file lacks the benchmark. That benchstat pads each label to its
/// column's width and right-aligns each cell in the same width (`FormatText`), so a column
/// ends where the next label starts, and a row's next word at or past that place belongs to a
/// later column.
fn old_benchstat_header(line: &str) -> Option<Vec<BenchstatColumn>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let ["name", "\\", unit, files @ ..] = words.as_slice()
        && !files.is_empty()
        && (unit.contains('/') || *unit == "speed")
    {
        // Where each word starts, in characters, as the rows' words are placed.
        let starts: Vec<usize> = line.split_whitespace().map(|w| line[..w.as_ptr() as usize - line.as_ptr() as usize].chars().count()).collect();
        return Some(
            files
                .iter()
                .enumerate()
                .map(|(k, file)| BenchstatColumn { label: file.to_string(), unit: unit.to_string(), change: None, suffixed: true, end: starts.get(k + 4).copied(), start: None })
                .collect(),
        );
    }
    let column = |label: &str, unit: &str, change: Option<&str>| BenchstatColumn {
        label: label.into(),
        unit: unit.into(),
        change: change.map(Into::into),
        suffixed: true,
        end: None,
        start: None,
    };
    // Its metrics are Go's units renamed (`ns/op` is `time/op`, `B/op` `alloc/op`, `MB/s`
    // `speed`: `benchstat/table.go`, `metricSuffix`), or a unit as Go printed it.
    let metric = |unit: &str| unit.contains('/') || unit == "speed";
    match words.as_slice() {
        ["name", "old", unit, "new", again, "delta"] if unit == again && metric(unit) => Some(vec![column("old", unit, None), column("new", unit, Some(&format!("{unit} delta")))]),
        ["name", unit] if metric(unit) => Some(vec![column("", unit, None)]),
        _ => None,
    }
}

/// Where a value benchstat printed before 2023 ends as a cell, and the unit of its number
/// where the value does not state one: the value keeps its unit (`0.32ns`, `1.50kB`, which the
/// number reader reads), and a bare value (`12.0` under `allocs/op`) takes the column's.
fn old_benchstat_value(token: &str, unit: &str) -> Option<(usize, Option<Unit>)> {
    let digits = token.find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+'))).unwrap_or(token.len());
    if !is_value(&token[..digits]) {
        return None;
    }
    Some((token.len(), (digits == token.len()).then(|| Unit::Other(unit.into()))))
}

/// Whether `token` is one of benchstat's footnote marks (`¹`), which follow a value whose
/// statistics carry a warning printed under the table.
fn is_note(token: &str) -> bool {
    !token.is_empty() && token.chars().all(is_note_mark)
}

/// A superscript digit, as benchstat numbers its footnotes.
fn is_note_mark(c: char) -> bool {
    matches!(c, '¹' | '²' | '³' | '⁴' | '⁵' | '⁶' | '⁷' | '⁸' | '⁹' | '⁰')
}

/// Whether a line is one `key: value` pair, as benchstat prints a table's key above it
/// (`.fullname: Get/1_B-10`) and a file's configuration (`goos: linux`).
fn is_key_values(line: &str) -> bool {
    let line = line.trim();
    line.split_once(": ").is_some_and(|(key, value)| !key.is_empty() && !key.contains(char::is_whitespace) && !value.trim().is_empty() && !line.contains(BAR))
}

/// The cells of benchstat's comparison tables in `code`, or `None` when it holds none.
///
/// benchstat (golang.org/x/perf/cmd/benchstat, since 2023) prints one table per unit, headed by
/// two lines between bars: the files compared, then each one's unit, `vs base` after every
/// file but the first:
///
/// ```text
///                       │    v0.1.3    │               v1.0.0                │
///                       │    sec/op    │    sec/op     vs base               │
/// 01CallOverhead-4        0.3155n ± 4%   0.2965n ± 6%  -6.02% (p=0.001 n=30)
/// 02TatErrorsOnly-4        2.240n ± 0%    2.241n ± 0%       ~ (p=0.706 n=30)
/// geomean                  2.617n         2.592n       -0.96%
/// ```
///
/// Each row is named by its label as printed (the benchmark's name without its `Benchmark`
/// prefix, with the `-N` suffix; `geomean` for the geometric mean of the column's medians). For
/// each file its cells are the median under `<file> <unit>`, read in the unit its prefix makes
/// of the column's (see [`benchstat_value`]), and the 95 % confidence interval of the median
/// as a percentage of it under `<file> <unit> ±`; after every file but the base, the change of
/// the median from the base's under `<file> <unit> vs base`, `~` where the change is not significant,
/// followed by the test's p-value and sample counts in parentheses, which stay in that cell.
/// A row that benchstat prints without a name (its row projection empty, as under `-table
/// .fullname`, where each table's key stands above it as `.fullname: Get/1_B-10`) is named by
/// that `key: value` line, and its cells keep the columns they would have beside a name.
/// A row of another shape (edited by hand, or a file missing a benchmark) gives its cells up to
/// where it departs and the rest of its line as one cell under the next column's label, so
/// that a number in it is still read. A blank line or a line of bars ends a table; footnotes
/// and configuration lines (`goos:`, `cpu:`) give no cell.
///
/// benchstat before 2023 printed the same table without bars, each value with its unit and the
/// mean rather than the median (`name  old time/op  new time/op  delta`, then `Parse-8  0.32ns ±
/// 4%  0.30ns ± 6%  -6.02%  (p=0.001 n=30+30)`, and `[Geo mean]` for the geometric mean); its
/// cells are read alike, under `old time/op`, `old time/op ±`, `new time/op`, `new time/op ±`
/// and `time/op delta`.
pub(crate) fn benchstat_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let all: Vec<(usize, &str)> = lines(code).collect();
    let mut cells = Vec::new();
    let mut table: Option<usize> = None;
    let mut columns: Option<Vec<BenchstatColumn>> = None;
    let mut row = 0;
    // The last `key: value` line before a table (`.fullname: Get/1_B-10`): the name of a row
    // that benchstat prints without one.
    let mut title = String::new();
    let mut k = 0;
    while k < all.len() {
        let (start, text) = all[k];
        k += 1;
        if columns.is_none() && is_key_values(text) {
            title = text.trim().to_string();
            continue;
        }
        if text.contains(BAR) {
            // The labels' line, with the units' line after it, heads a new table; any other
            // line of bars ends the one being read.
            columns = all.get(k).and_then(|(_, units)| benchstat_header(text, units));
            if columns.is_some() {
                k += 1;
                table = Some(table.map_or(0, |t| t + 1));
                row = 0;
            }
            continue;
        }
        if let Some(old) = old_benchstat_header(text) {
            columns = Some(old);
            table = Some(table.map_or(0, |t| t + 1));
            row = 0;
            continue;
        }
        let Some(cols) = &columns else { continue };
        let mut toks = tokens(text);
        let Some(first) = toks.first() else {
            columns = None;
            continue;
        };
        // A footnote under the table starts with its mark.
        if text[first.clone()].starts_with(is_note_mark) {
            continue;
        }
        // Before 2023 a group of rows is headed by its configuration (`pkg:hash/crc32
        // goos:darwin goarch:386`, as `-split` groups them): every word a key and a value,
        // which no row of values is.
        if toks.iter().all(|t| text[t.clone()].split_once(':').is_some_and(|(k, v)| !k.is_empty() && !v.is_empty())) {
            continue;
        }
        // A row without a name starts with its first file's value, under that file's group.
        let nameless = cols.first().and_then(|c| c.start).is_some_and(|bar| text[..first.start].chars().count() >= bar);
        // benchstat before 2023 names the geometric mean's row `[Geo mean]`, two words.
        let mut first = first.clone();
        if toks.len() > 1 && &text[first.clone()] == "[Geo" && &text[toks[1].clone()] == "mean]" {
            first = first.start..toks[1].end;
            toks.remove(1);
            toks[0] = first.clone();
        }
        row += 1;
        let label = if nameless { title.clone() } else { text[first.clone()].to_string() };
        let abs = |r: &Range<usize>| start + r.start..start + r.end;
        let table = table.unwrap_or_default();
        let mut row_cells = Vec::new();
        // The values keep their columns whether or not the row is named: column 0 is the name's.
        let offset = usize::from(nameless);
        let mut push = |column_label: String, range: Range<usize>, is_name: bool, unit: Option<Unit>| {
            let column = row_cells.len() + offset;
            row_cells.push(ConsoleCell { is_name, unit, ..ConsoleCell::plain(table, row, column, &label, &column_label, range) });
        };
        if !nameless {
            push("Benchmark".into(), abs(&first), true, None);
        }
        let word = |i: usize| toks.get(i).map(|t| &text[t.clone()]);
        let mut i = usize::from(!nameless);
        // The label of the column the next token belongs to, where the row departs from the
        // table's shape.
        let mut departs: Option<String> = None;
        for col in cols {
            let starts_past = |end: usize| toks.get(i).is_some_and(|t| text[..t.start].chars().count() >= end);
            if col.end.is_some_and(starts_past) {
                continue;
            }
            let value = |w: &str| if col.suffixed { old_benchstat_value(w, &col.unit) } else { benchstat_value(w, &col.unit).map(|(end, unit)| (end, Some(unit))) };
            let Some((end, unit)) = word(i).and_then(value) else {
                departs = Some(col.values());
                break;
            };
            push(col.values(), abs(&(toks[i].start..toks[i].start + end)), false, unit);
            i += 1;
            let is_percent = |w: &str| w == "∞" || (w.ends_with('%') && is_value(&w[..w.len() - 1]));
            if word(i) == Some("±") {
                match word(i + 1) {
                    Some(w) if is_percent(w) => {
                        push(col.interval(), abs(&(toks[i].start..toks[i + 1].end)), false, None);
                        i += 2;
                    }
                    _ => {
                        departs = Some(col.interval());
                        break;
                    }
                }
            } else if word(i).and_then(|w| w.strip_prefix('±')).is_some_and(is_percent) {
                // benchstat before 2023 pads the percentage to three characters after `±`
                // (`± 8%`, `±11%`, `±100%`), so from two digits on the two are one word.
                push(col.interval(), abs(&toks[i]), false, None);
                i += 1;
            }
            while word(i).is_some_and(is_note) {
                i += 1;
            }
            let Some(change) = col.change.clone() else { continue };
            let Some(delta) = word(i) else {
                departs = Some(change);
                break;
            };
            let is_delta = matches!(delta, "~" | "?") || delta.strip_suffix('%').is_some_and(is_value);
            if !is_delta {
                departs = Some(change);
                break;
            }
            let from = toks[i].start;
            let mut to = toks[i].end;
            i += 1;
            // `(p=0.001 n=30)`: the test's p-value and sample counts, kept with the change.
            if word(i).is_some_and(|w| w.starts_with("(p=")) {
                while let Some(w) = word(i) {
                    to = toks[i].end;
                    i += 1;
                    if w.ends_with(')') {
                        break;
                    }
                }
            }
            while word(i).is_some_and(is_note) {
                i += 1;
            }
            push(change, abs(&(from..to)), false, None);
        }
        // Words after the last column's cells are no part of benchstat's shape: they are kept
        // under a column of their own.
        if departs.is_none() && i < toks.len() {
            departs = Some("more".into());
        }
        if let (Some(column_label), Some(rest)) = (departs, toks.get(i)) {
            let last = toks.last().map_or(rest.end, |t| t.end);
            push(column_label, abs(&(rest.start..last)), false, None);
        }
        cells.extend(row_cells);
    }
    if cells.is_empty() { None } else { Some(cells) }
}

/// The columns of JMH's summary table: its parameters' names, in the header's order, and the
/// label of its count column (`Cnt`, or `Samples` as JMH printed it before 1.3).
#[derive(Debug, Clone, PartialEq)]
struct JmhHeader {
    params: Vec<String>,
    count: String,
}

/// A header of JMH's table, `Benchmark  (size)  Mode  Cnt  Score  Error  Units`, as its words;
/// `None` for any other line.
fn jmh_header(words: &[&str]) -> Option<JmhHeader> {
    let (first, rest) = words.split_first()?;
    if *first != "Benchmark" {
        return None;
    }
    let n_params = rest.iter().take_while(|w| jmh_param(w).is_some()).count();
    let params = rest[..n_params].iter().filter_map(|w| jmh_param(w)).map(String::from).collect();
    match &rest[n_params..] {
        ["Mode", count @ ("Cnt" | "Samples"), "Score", "Error", "Units"] => Some(JmhHeader { params, count: count.to_string() }),
        _ => None,
    }
}

/// A parameter's header, `(size)`: its name.
fn jmh_param(label: &str) -> Option<&str> {
    label.strip_prefix('(')?.strip_suffix(')').filter(|name| !name.is_empty())
}

/// A score or error as JMH prints it, `%.3f` of the default locale: `Some(true)` for a number
/// the article reads (`12.345`), `Some(false)` for one it would misread (`12,345` from a
/// locale that writes a decimal comma, which reads as twelve thousand; `NaN`, printed for no
/// error before JMH 1.3), `None` for anything else.
fn jmh_value(token: &str) -> Option<bool> {
    if token == "NaN" {
        return Some(false);
    }
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match (token.split_once('.'), token.split_once(',')) {
        (Some((a, b)), None) if digits(a) && digits(b) => Some(true),
        (None, Some((a, b))) if digits(a) && digits(b) => Some(false),
        (None, None) if digits(token) => Some(true),
        _ => None,
    }
}

/// One row of JMH's table taken apart, each part a byte range of the line: the name, each
/// parameter's value, the count where printed (JMH leaves it out for one sample), the score
/// and the error where they read as numbers (an approximate score, `≈ 10⁻⁴`, and a missing or
/// misread error give none), and the unit.
struct JmhRow {
    name: Range<usize>,
    params: Vec<Range<usize>>,
    count: Option<Range<usize>>,
    score: Option<Range<usize>>,
    error: Option<Range<usize>>,
    unit: Range<usize>,
}

/// A row of JMH's table under `header`, as `TextResultFormat` prints it: the name, one value per
/// parameter, the mode, then from the right the unit, the error after `±` (where there is
/// one), the score and the count. `None` for a line of any other shape.
fn jmh_row(text: &str, toks: &[Range<usize>], header: &JmhHeader) -> Option<JmhRow> {
    let word = |r: &Range<usize>| &text[r.clone()];
    let p = header.params.len();
    let (name, rest) = toks.split_first()?;
    if rest.len() < p + 3 || !crate::evidence::readers::jmh::is_mode(word(&rest[p])) {
        return None;
    }
    let params = rest[..p].to_vec();
    let (unit, mut middle) = rest[p + 1..].split_last()?;
    // A row cut short ends in its score or its `±`, neither of which is a unit.
    if jmh_value(word(unit)).is_some() || matches!(word(unit), "±" | "≈") {
        return None;
    }
    let mut count = None;
    if middle.len() > 1 && is_count(word(&middle[0])) {
        count = Some(middle[0].clone());
        middle = &middle[1..];
    }
    let readable = |r: &Range<usize>| jmh_value(word(r)).is_some_and(|ok| ok).then(|| r.clone());
    let (score, after) = match middle {
        [approx, power, after @ ..] if word(approx) == "≈" && !word(power).is_empty() => (None, after),
        [score, after @ ..] if jmh_value(word(score)).is_some() => (readable(score), after),
        _ => return None,
    };
    let error = match after {
        [] => None,
        [pm, error] if word(pm) == "±" && jmh_value(word(error)).is_some() => readable(error),
        // A table retyped by hand may join the sign to the error: `±0.678`.
        [joined] if word(joined).strip_prefix('±').and_then(jmh_value).is_some() => {
            let at = joined.start + '±'.len_utf8();
            readable(&(at..joined.end))
        }
        _ => return None,
    };
    Some(JmhRow { name: name.clone(), params, count, score, error, unit: unit.clone() })
}

/// The cells of JMH's summary tables in `code`, or `None` when it holds none.
///
/// JMH prints, at the end of a run (`TextResultFormat`), one row per benchmark and parameter
/// combination, then one per secondary metric (`name:·gc.alloc.rate.norm`):
///
/// ```text
/// Benchmark                 (size)  Mode  Cnt   Score   Error  Units
/// MyBenchmark.foo              100  avgt   25  12.345 ± 0.678  ns/op
/// MyBenchmark.foo:·gc.alloc.rate.norm  100  avgt   25  24.000 ± 0.001   B/op
/// ```
///
/// Each row is named by its benchmark as printed (JMH shortens the package the run's
/// benchmarks share, see `crate::evidence::readers::jmh::names_row`), followed by its
/// parameters as the `jmh` reader's `name` writes them, `MyBenchmark.foo (size = 100)` (a
/// parameter printed `N/A`, which that benchmark lacks, left out), so that a row selects its
/// records. Its cells are the count under `Cnt` (`Samples` before JMH 1.3), and the score and
/// the error under `Score` and `Error`, each in the unit the row prints last (`ns/op` a time
/// in ns, `ops/ms` a free unit). The name is a cell too, read as code; a parameter's value
/// names the row and measures nothing, so it is no cell (as code, a value alone would still
/// read as a number). The mode and the unit give no number, and no cell. An approximate score (`≈ 10⁻⁴`), an error printed `NaN`, and a value a decimal-comma
/// locale printed (`12,345`, which would read as twelve thousand) give no cell: a number is
/// read as JMH meant it or not at all. A header line starts a table; blank lines and lines of
/// another shape between its rows are passed over (READMEs space the rows out in groups).
pub(crate) fn jmh_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut header: Option<JmhHeader> = None;
    let mut table: Option<usize> = None;
    let mut row = 0;
    for (start, text) in lines(code) {
        let toks = tokens(text);
        let words: Vec<&str> = toks.iter().map(|t| &text[t.clone()]).collect();
        if let Some(h) = jmh_header(&words) {
            header = Some(h);
            table = Some(table.map_or(0, |t| t + 1));
            row = 0;
            continue;
        }
        let Some(h) = &header else { continue };
        let Some(r) = jmh_row(text, &toks, h) else { continue };
        row += 1;
        let params: Vec<(&str, &str)> = h.params.iter().map(String::as_str).zip(r.params.iter().map(|v| &text[v.clone()])).filter(|(_, v)| *v != "N/A").collect();
        let label = crate::evidence::readers::jmh::record_name(&text[r.name.clone()], &params);
        let unit = Unit::declared(&text[r.unit.clone()]).ok();
        let abs = |range: &Range<usize>| start + range.start..start + range.end;
        let p = h.params.len();
        let table = table.unwrap_or_default();
        let mut push = |column: usize, column_label: String, range: &Range<usize>, is_name: bool, unit: Option<Unit>| {
            cells.push(ConsoleCell { is_name, unit, ..ConsoleCell::plain(table, row, column, &label, &column_label, abs(range)) });
        };
        push(0, "Benchmark".into(), &r.name, true, None);
        if let Some(count) = &r.count {
            push(p + 2, h.count.clone(), count, false, None);
        }
        if let Some(score) = &r.score {
            push(p + 3, "Score".into(), score, false, unit.clone());
        }
        if let Some(error) = &r.error {
            push(p + 4, "Error".into(), error, false, unit.clone());
        }
    }
    if cells.is_empty() { None } else { Some(cells) }
}

/// Where the columns of JMH's table stand in a Markdown table that holds it, pasted as pipes
/// (`| Benchmark | (size) | Mode | Cnt | Score | Error | Units |`, the `±` often a column of
/// its own or joined to the error), as READMEs quote it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JmhPipe {
    /// Each parameter's column and name.
    pub(crate) params: Vec<(usize, String)>,
    pub(crate) count: Option<usize>,
    pub(crate) score: usize,
    pub(crate) error: Option<usize>,
    pub(crate) units: usize,
}

impl JmhPipe {
    /// The columns of JMH's table in a Markdown table's `headers`, or `None` when its first
    /// header is not `Benchmark` or it has no `Score` and `Units`.
    pub(crate) fn of(headers: &[String]) -> Option<JmhPipe> {
        let position = |label: &str| headers.iter().position(|h| h.trim() == label);
        if position("Benchmark") != Some(0) {
            return None;
        }
        let params = headers.iter().enumerate().filter_map(|(k, h)| jmh_param(h.trim()).map(|name| (k, name.to_string()))).collect();
        let count = position("Cnt").or_else(|| position("Samples"));
        Some(JmhPipe { params, count, score: position("Score")?, error: position("Error"), units: position("Units")? })
    }

    /// A row's label from its cells' texts by column: the benchmark and its parameters, as the
    /// console table's rows are named ([`jmh_cells`]).
    pub(crate) fn row_label(&self, cell: impl Fn(usize) -> Option<String>) -> String {
        let name = cell(0).unwrap_or_default();
        let values: Vec<(String, String)> = self.params.iter().filter_map(|(k, n)| cell(*k).filter(|v| v != "N/A" && !v.is_empty()).map(|v| (n.clone(), v))).collect();
        let params: Vec<(&str, &str)> = values.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        crate::evidence::readers::jmh::record_name(&name, &params)
    }

    /// The unit a row's `Units` cell states, for its score and error.
    pub(crate) fn unit(units: &str) -> Option<Unit> {
        Unit::declared(units.trim()).ok()
    }

    /// Whether a column holds a value in the row's unit: the score or the error.
    pub(crate) fn is_value(&self, column: usize) -> bool {
        column == self.score || Some(column) == self.error
    }

    /// Whether a column holds a parameter's value, which names the row and measures nothing.
    pub(crate) fn is_param(&self, column: usize) -> bool {
        self.params.iter().any(|(k, _)| *k == column)
    }
}

/// The statistics wrk prints under its `Thread Stats` header, in the order of its columns.
const WRK_STATS: [&str; 4] = ["Avg", "Stdev", "Max", "+/- Stdev"];

/// The cells of wrk's report in `code`, or `None` when it holds none.
///
/// The HTTP load generator wrk prints each thread's statistics as a small table, then the
/// run's totals (here with `--latency`, which adds the distribution):
///
/// ```text
/// Running 10s test @ http://localhost:8080/
///   2 threads and 10 connections
///   Thread Stats   Avg      Stdev     Max   +/- Stdev
///     Latency   210.05us   88.31us   3.50ms   91.20%
///     Req/Sec    23.10k     1.02k   25.31k    70.30%
///   Latency Distribution
///      50%  195.00us
///      99%  470.00us
///   459707 requests in 10.10s, 55.72MB read
/// Requests/sec:  45516.54
/// Transfer/sec:      5.52MB
/// ```
///
/// Web framework benchmarks paste it whole and quote its latency and its requests per second.
/// The statistics are a table whose rows are `Latency` and `Req/Sec` under `Avg`, `Stdev`,
/// `Max` and `+/- Stdev`, each value with the unit wrk prints glued to it; the distribution a
/// second table whose rows are named by their percentile (`50%`, a name, not a measurement),
/// under `Latency`; and the run's settings and totals a third of one row, `Run`, under
/// `Duration`, `Threads`, `Connections`, `Requests`, `Time`, `Read`, `Requests/sec` and
/// `Transfer/sec`. Without the `Thread Stats` header the block is not wrk's; lines of any
/// other shape (socket errors, a script's output) give no cell.
pub(crate) fn wrk_cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let is_header = |text: &str| text.split_whitespace().eq(["Thread", "Stats", "Avg", "Stdev", "Max", "+/-", "Stdev"]);
    if !lines(code).any(|(_, text)| is_header(text)) {
        return None;
    }
    let mut cells = Vec::new();
    let mut percentiles = 0;
    let mut run = Vec::new();
    let mut stats_row = 0;
    for (start, text) in lines(code) {
        let toks = tokens(text);
        let word = |k: usize| toks.get(k).map_or("", |r| &text[r.clone()]);
        let abs = |r: &Range<usize>| start + r.start..start + r.end;
        let at = |k: usize| abs(&toks[k]);
        match (toks.len(), word(0), word(1), word(2), word(3)) {
            (5, name @ ("Latency" | "Req/Sec"), ..) => {
                stats_row += 1;
                cells.push(ConsoleCell::plain(0, stats_row, 0, name, "Thread Stats", at(0)));
                for (k, label) in WRK_STATS.iter().enumerate() {
                    let cell = ConsoleCell::plain(0, stats_row, k + 1, name, label, at(k + 1));
                    cells.push(if name == "Latency" { wrk_minutes(code, cell) } else { cell });
                }
            }
            (2, percentile, ..) if percentile.ends_with('%') && is_value(&percentile[..percentile.len() - 1]) => {
                percentiles += 1;
                cells.push(ConsoleCell::plain(1, percentiles, 0, percentile, "Latency Distribution", at(0)));
                cells.push(wrk_minutes(code, ConsoleCell::plain(1, percentiles, 1, percentile, "Latency", at(1))));
            }
            (5, "Running", _, "test", "@") => run.push(("Duration", at(1))),
            (5, _, "threads", "and", _) if word(4) == "connections" => run.extend([("Threads", at(0)), ("Connections", at(3))]),
            (6, _, "requests", "in", _) if word(5) == "read" => {
                // The time is printed with a comma after it, which is no part of the value.
                let time = toks[3].start..toks[3].end - usize::from(word(3).ends_with(','));
                run.extend([("Requests", at(0)), ("Time", abs(&time)), ("Read", at(4))]);
            }
            (2, "Requests/sec:", ..) => run.push(("Requests/sec", at(1))),
            (2, "Transfer/sec:", ..) => run.push(("Transfer/sec", at(1))),
            _ => {}
        }
    }
    if !run.is_empty() {
        // The totals follow the distribution's table where wrk printed one, else the statistics'.
        let table = if percentiles > 0 { 2 } else { 1 };
        // wrk prints its sizes with 1024-based prefixes (`format_binary` in its `src/units.c`),
        // and its transfer rate as a size a second.
        cells.extend(run.into_iter().enumerate().map(|(k, (label, range))| {
            wrk_minutes(
                code,
                ConsoleCell {
                    binary_sizes: matches!(label, "Read" | "Transfer/sec"),
                    per_second: label == "Transfer/sec",
                    ..ConsoleCell::plain(table, 1, k + 1, "Run", label, range)
                },
            )
        }));
    }
    (!cells.is_empty()).then_some(cells)
}

/// `cell` with a value wrk printed in minutes read as such. wrk prints a time of 51 seconds or
/// more in minutes, with a lone `m` (`1.00m`, `Running 1m test`; its `format_time_us` and
/// `format_time_s`, which never go on to hours), where a lone `m` in prose is no unit. The
/// cell then holds the digits alone, in minutes.
fn wrk_minutes(code: &str, cell: ConsoleCell) -> ConsoleCell {
    let text = &code[cell.range.clone()];
    match text.strip_suffix('m') {
        Some(digits) if is_value(digits) => ConsoleCell { range: cell.range.start..cell.range.end - 1, unit: Some(Unit::Min), ..cell },
        _ => cell,
    }
}

/// Helpers the console layouts' tests share: a block's cells laid out as tuples that an
/// assertion can spell.
#[cfg(test)]
pub(super) mod testing {
    use super::ConsoleCell;
    use crate::article::numbers::Unit;

    /// Each cell as (table, row, row label, column label, text).
    pub(in crate::article) fn laid_out<'a>(code: &'a str, cells: &'a [ConsoleCell]) -> Vec<(usize, usize, &'a str, &'a str, &'a str)> {
        cells.iter().map(|c| (c.table, c.row, c.row_label.as_str(), c.column_label.as_str(), &code[c.range.clone()])).collect()
    }

    /// Each cell as (table, row, row label, column label, text, unit).
    pub(in crate::article) fn laid_out_with_units<'a>(code: &'a str, cells: &'a [ConsoleCell]) -> Vec<(usize, usize, &'a str, &'a str, &'a str, Option<Unit>)> {
        cells.iter().map(|c| (c.table, c.row, c.row_label.as_str(), c.column_label.as_str(), &code[c.range.clone()], c.unit.clone())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::laid_out;
    use super::*;

    /// hyperfine's console output as it prints it (1.16 and later: `Benchmark 1:`), one
    /// benchmark with a warning line, one with its user and system times, and a summary.
    const HYPERFINE: &str = "$ hyperfine --warmup 3 'fd -e rs' 'find . -name \\'*.rs\\''
Benchmark 1: fd -e rs
  Time (mean ± σ):      26.1 ms ±   1.4 ms    [User: 61.0 ms, System: 73.2 ms]
  Range (min … max):    23.9 ms …  31.7 ms    108 runs

  Warning: Statistical outliers were detected. Consider re-running this benchmark.

Benchmark 2: find . -name '*.rs'
  Time (mean ± σ):     412.5 ms ±   6.0 ms    [User: 120.4 ms, System: 290.9 ms]
  Range (min … max):   405.1 ms … 424.8 ms    10 runs

Summary
  'fd -e rs' ran
   15.80 ± 0.89 times faster than 'find . -name '*.rs''
";

    #[test]
    fn hyperfine_output_gives_a_row_a_benchmark_and_the_summary_as_multiples() {
        let cells = hyperfine_cells(HYPERFINE).unwrap();
        let got: Vec<(usize, &str, &str, &str)> = cells.iter().map(|c| (c.row, c.row_label.as_str(), c.column_label.as_str(), text(HYPERFINE, c))).collect();
        assert_eq!(
            got,
            [
                (1, "fd -e rs", "Benchmark", "fd -e rs"),
                (1, "fd -e rs", "Time (mean ± σ)", "26.1 ms ±   1.4 ms"),
                (1, "fd -e rs", "User", "61.0 ms"),
                (1, "fd -e rs", "System", "73.2 ms"),
                (1, "fd -e rs", "Range (min … max)", "23.9 ms …  31.7 ms"),
                (1, "fd -e rs", "Runs", "108 runs"),
                (2, "find . -name '*.rs'", "Benchmark", "find . -name '*.rs'"),
                (2, "find . -name '*.rs'", "Time (mean ± σ)", "412.5 ms ±   6.0 ms"),
                (2, "find . -name '*.rs'", "User", "120.4 ms"),
                (2, "find . -name '*.rs'", "System", "290.9 ms"),
                (2, "find . -name '*.rs'", "Range (min … max)", "405.1 ms … 424.8 ms"),
                (2, "find . -name '*.rs'", "Runs", "10 runs"),
                (3, "fd -e rs", "faster than find . -name '*.rs'", "15.80 ± 0.89"),
            ]
        );
        assert!(cells.iter().all(|c| c.is_name == (c.column_label == "Benchmark")));
        assert_eq!(cells.last().unwrap().unit, Some(Unit::Times));
        assert!(cells.iter().all(|c| c.table == 0));
    }

    /// Older and other layouts: `Benchmark #1:` (before 1.11), one run (`Time (abs ≡)`, no
    /// range count), no user and system times, a summary on one line, commands that hold
    /// ` ran `, and a block holding three runs of hyperfine, each its own table. A block without a `Time` line is not hyperfine's.
    #[test]
    fn hyperfine_variants_read_and_other_blocks_do_not() {
        let code = "Benchmark #1: gzip -1 -c big.fastq
  Time (mean ± σ):     22.335 s ±  0.284 s    [User: 22.123 s, System: 0.202 s]
  Range (min … max):   21.963 s … 22.890 s    10 runs
Benchmark #1: make
  Time (abs ≡):         1.024 s               [User: 0.9 s, System: 0.1 s]
Benchmark #2: ninja
  Time (mean):          0.51 s
  Range (min … max):    0.49 s …  0.55 s
Summary
  ninja ran 2.01 times faster than make
Benchmark 1: ./ran grep ran
  Time (mean ± σ):     1.0 ms ±   0.1 ms
Benchmark 2: ./ran x
  Time (mean ± σ):     2.0 ms ±   0.1 ms
Summary
  './ran grep ran' ran
    2.00 ± 0.22 times faster than './ran x'
";
        let cells = hyperfine_cells(code).unwrap();
        let got: Vec<(usize, &str, &str, &str)> = cells.iter().filter(|c| !c.is_name).map(|c| (c.table, c.row_label.as_str(), c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(
            got,
            [
                (0, "gzip -1 -c big.fastq", "Time (mean ± σ)", "22.335 s ±  0.284 s"),
                (0, "gzip -1 -c big.fastq", "User", "22.123 s"),
                (0, "gzip -1 -c big.fastq", "System", "0.202 s"),
                (0, "gzip -1 -c big.fastq", "Range (min … max)", "21.963 s … 22.890 s"),
                (0, "gzip -1 -c big.fastq", "Runs", "10 runs"),
                (1, "make", "Time (abs ≡)", "1.024 s"),
                (1, "make", "User", "0.9 s"),
                (1, "make", "System", "0.1 s"),
                (1, "ninja", "Time (mean)", "0.51 s"),
                (1, "ninja", "Range (min … max)", "0.49 s …  0.55 s"),
                (1, "ninja", "faster than make", "2.01"),
                (2, "./ran grep ran", "Time (mean ± σ)", "1.0 ms ±   0.1 ms"),
                (2, "./ran x", "Time (mean ± σ)", "2.0 ms ±   0.1 ms"),
                (2, "./ran grep ran", "faster than ./ran x", "2.00 ± 0.22"),
            ]
        );
        assert_eq!(hyperfine_cells("Benchmark 1: x\n  took 3 ms\n"), None);
        assert_eq!(hyperfine_cells("Benchmark results: 3 ms\n  Time (mean ± σ): 1 ms\n"), None);
    }

    /// criterion's console output as it prints it: an id on its estimate's line and a long one
    /// on the line before, a change with its p-value, a throughput, the newer layout's bare
    /// `change:` over a time change and a throughput change, and the lines around them.
    const CRITERION: &str = "Benchmarking parse/small: Warming up for 3.0000 s
parse/small             time:   [1.6484 µs 1.6730 µs 1.7062 µs]
                        change: [-5.2341% -4.8901% -4.5231%] (p = 0.00 < 0.05)
                        Performance has improved.
Found 11 outliers among 100 measurements (11.00%)
  6 (6.00%) high mild
encode_comparison/implementation/1KB_6+3_erasure
                        time:   [245.67 ns 256.78 ns 267.89 ns]
                        thrpt:  [3.73 GiB/s 3.89 GiB/s 4.07 GiB/s]
                 change:
                        time:   [-1.0% +0.3% +1.9%] (p = 0.70 > 0.05)
                        thrpt:  [-1.9% -0.3% +1.0%]
                        No change in performance detected.
";

    #[test]
    fn criterion_output_gives_a_row_an_estimate_with_its_bounds() {
        let cells = criterion_cells(CRITERION).unwrap();
        let got: Vec<(usize, &str, &str, &str)> = cells.iter().map(|c| (c.row, c.row_label.as_str(), c.column_label.as_str(), text(CRITERION, c))).collect();
        let long = "encode_comparison/implementation/1KB_6+3_erasure";
        assert_eq!(
            got,
            [
                (1, "parse/small", "Benchmark", "parse/small"),
                (1, "parse/small", "time", "1.6484 µs 1.6730 µs 1.7062 µs"),
                (1, "parse/small", "change", "-5.2341% -4.8901% -4.5231%"),
                (2, long, "Benchmark", long),
                (2, long, "time", "245.67 ns 256.78 ns 267.89 ns"),
                (2, long, "thrpt", "3.73 GiB/s 3.89 GiB/s 4.07 GiB/s"),
                (2, long, "change › time", "-1.0% +0.3% +1.9%"),
                (2, long, "change › thrpt", "-1.9% -0.3% +1.0%"),
            ]
        );
        assert!(cells.iter().all(|c| c.is_name == (c.column_label == "Benchmark")));
        assert_eq!(criterion_cells("fn main() {\n    let time = [1, 2];\n}\n"), None);
        assert_eq!(super::cells(CRITERION).map(|c| c.len()), Some(8), "the console reader finds criterion's layout");
    }

    const TABLE: &str = "----------------------------------------------------------------------
Benchmark                            Time             CPU   Iterations
----------------------------------------------------------------------
noop                             0.000 ns        0.000 ns   1000000000
is_sorted_by_hand                 2842 ns         2888 ns       248889
";

    /// Each cell's table, row, labels and text, as the tests compare them.

    fn text<'a>(code: &'a str, c: &ConsoleCell) -> &'a str {
        &code[c.range.clone()]
    }

    #[test]
    fn a_console_table_gives_cells_under_its_headers() {
        let cells = google_benchmark_cells(TABLE).unwrap();
        assert_eq!(cells.len(), 8);
        let row: Vec<(&str, &str, &str)> = cells.iter().filter(|c| c.row == 2).map(|c| (c.row_label.as_str(), c.column_label.as_str(), text(TABLE, c))).collect();
        assert_eq!(
            row,
            [
                ("is_sorted_by_hand", "Benchmark", "is_sorted_by_hand"),
                ("is_sorted_by_hand", "Time", "2842 ns"),
                ("is_sorted_by_hand", "CPU", "2888 ns"),
                ("is_sorted_by_hand", "Iterations", "248889"),
            ]
        );
        assert!(cells[0].is_name && !cells[1].is_name);
        assert_eq!(text(TABLE, &cells[1]), "0.000 ns");
    }

    /// Aggregates (`_cv` in percent), user counters and a failed benchmark's line all keep
    /// their numbers in a cell; a blank line ends the table.
    #[test]
    fn counters_aggregates_and_errors_keep_their_numbers() {
        let code = "Benchmark        Time      CPU   Iterations UserCounters...
BM_Sum/64_mean   12.5 ns   12.4 ns         5 items_per_second=5.1G/s
BM_Sum/64_cv     0.52 %    0.50 %          5
BM_Bad           ERROR OCCURRED: 'bad benchmark result'

BM_After         1 ns      1 ns            3
";
        let cells = google_benchmark_cells(code).unwrap();
        let got: Vec<(usize, &str, &str)> = cells.iter().map(|c| (c.row, c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(
            got,
            [
                (1, "Benchmark", "BM_Sum/64_mean"),
                (1, "Time", "12.5 ns"),
                (1, "CPU", "12.4 ns"),
                (1, "Iterations", "5"),
                (1, "UserCounters...", "items_per_second=5.1G/s"),
                (2, "Benchmark", "BM_Sum/64_cv"),
                (2, "Time", "0.52 %"),
                (2, "CPU", "0.50 %"),
                (2, "Iterations", "5"),
                (3, "Benchmark", "BM_Bad"),
                (3, "Time", "ERROR OCCURRED: 'bad benchmark result'"),
            ]
        );
    }

    #[test]
    fn other_code_is_not_a_table() {
        assert_eq!(google_benchmark_cells("cargo run --release -- audit\nBenchmark results: 12 ns\n"), None);
        assert_eq!(google_benchmark_cells(""), None);
    }
    /// pytest-benchmark's table of one run, as great_expectations' contributing guide pastes
    /// it: every column a cell under its label, times in the header's unit.
    const PYTEST: &str = "--------------------------------------------------- benchmark: 1 tests ------------------------------------------------------
Name (time in s)                         Min     Max    Mean  StdDev  Median     IQR  Outliers     OPS  Rounds  Iterations
-----------------------------------------------------------------------------------------------------------------------------
test_taxi_trips_benchmark[1-True-V3]     5.0488  5.0488  5.0488  0.0000  5.0488  0.0000       0;0  0.1981       1           1
-----------------------------------------------------------------------------------------------------------------------------
";

    #[test]
    fn a_pytest_benchmark_table_gives_each_column_a_cell_in_its_unit() {
        let cells = cells(PYTEST).unwrap();
        let got: Vec<(&str, &str, Option<Unit>)> = cells.iter().map(|c| (c.column_label.as_str(), text(PYTEST, c), c.unit.clone())).collect();
        let ops = Some(Unit::Other("ops/s".into()));
        assert_eq!(
            got,
            [
                ("Name (time in s)", "test_taxi_trips_benchmark[1-True-V3]", None),
                ("Min", "5.0488", Some(Unit::S)),
                ("Max", "5.0488", Some(Unit::S)),
                ("Mean", "5.0488", Some(Unit::S)),
                ("StdDev", "0.0000", Some(Unit::S)),
                ("Median", "5.0488", Some(Unit::S)),
                ("IQR", "0.0000", Some(Unit::S)),
                ("Outliers", "0;0", None),
                ("OPS", "0.1981", ops),
                ("Rounds", "1", None),
                ("Iterations", "1", None),
            ]
        );
        assert!(cells.iter().all(|c| c.row == 1 && c.row_label == "test_taxi_trips_benchmark[1-True-V3]" && c.ratio.is_none()));
        assert!(cells[0].is_name && !cells[1].is_name);
    }

    /// `pytest-benchmark compare` appends each row's run to its name and a ratio to the
    /// column's best after each value; the name keeps its spaces, the ratio its own bytes.
    #[test]
    fn a_compared_row_keeps_its_run_in_the_name_and_its_ratios() {
        let code = "$ py.test-benchmark compare a.json b.json

------ benchmark 'x': 2 tests ------
Name (time in us)                     Min                Mean            Outliers  OPS (Kops/s)            Rounds  Iterations
-------------------------------------------------------------------------
test_x[     512] (initial_base)     5.0488 (1.0)      1,586.3540 (>1000.0)       0;0  0.1981 (1.0)           1           1
test_x[     512] (2114_work)        6.4675 (1.28)     6.4675 (inf)               2;13  0.1546 (0.78)          1           1
-------------------------------------------------------------------------

Legend:
  OPS: Operations Per Second, computed as 1 / Mean
";
        let cells = cells(code).unwrap();
        assert_eq!(cells.len(), 14);
        let second: Vec<(&str, &str, Option<&str>)> =
            cells.iter().filter(|c| c.row == 2).map(|c| (c.column_label.as_str(), text(code, c), c.ratio.clone().map(|r| &code[r]))).collect();
        assert_eq!(
            second,
            [
                ("Name (time in us)", "test_x[     512] (2114_work)", None),
                ("Min", "6.4675 (1.28)", Some("(1.28)")),
                ("Mean", "6.4675 (inf)", Some("(inf)")),
                ("Outliers", "2;13", None),
                ("OPS (Kops/s)", "0.1546 (0.78)", Some("(0.78)")),
                ("Rounds", "1", None),
                ("Iterations", "1", None),
            ]
        );
        assert_eq!(cells[0].row_label, "test_x[     512] (initial_base)");
        assert_eq!(text(code, &cells[2]), "1,586.3540 (>1000.0)");
        assert_eq!((cells[1].unit.clone(), cells[4].unit.clone()), (Some(Unit::Us), Some(Unit::Other("Kops/s".into()))));
    }

    /// A row edited by hand keeps its numbers in one cell; a rule or a blank line ends the
    /// table, and a line that only starts like a header is not one.
    #[test]
    fn an_odd_row_keeps_its_numbers_and_a_rule_ends_the_table() {
        let code = "Name (time in ms)   Min     Max
test_a           1.5000  2.0000
test_b           about 3 ms
----
test_c           9.0000  9.0000
";
        let read = cells(code).unwrap();
        let got: Vec<(usize, &str, &str)> = read.iter().map(|c| (c.row, c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(got, [(1, "Name (time in ms)", "test_a"), (1, "Min", "1.5000"), (1, "Max", "2.0000"), (2, "Name (time in ms)", "test_b"), (2, "Min", "about 3 ms")]);
        assert_eq!(pytest_benchmark_cells("Name (time in s) Min Fastest\nt 1.0 2.0\n"), None);
        assert_eq!(pytest_benchmark_cells("Name (time in hours) Min\nt 1.0\n"), None);
    }

    /// `go test -bench . -benchmem` as it printed it on this project's machine (the
    /// `go-bench/one.txt` fixture), with a `-v` line announcing a benchmark, a failure after a
    /// name, and a line edited by hand: each result line a row named by the benchmark without
    /// its `-N` suffix, each value a cell under its unit in the unit that states.
    const GO: &str = "goos: linux
goarch: amd64
pkg: example.com/sum
cpu: AMD EPYC
BenchmarkSum/n=64
BenchmarkSum/n=64-2         \t88800712\t        13.46 ns/op\t38036.85 MB/s\t       0 B/op\t       0 allocs/op
BenchmarkSum/n=1024-2       \t 4722308\t       253.0 ns/op\t32376.18 MB/s\t       0 B/op\t       0 allocs/op
BenchmarkItoa-2             \t69532087\t        16.50 ns/op\t       8 B/op\t       1 allocs/op
BenchmarkBad-2              \t--- FAIL: BenchmarkBad-2
BenchmarkEdited-2           \t 1000\t about 20 ns/op
PASS
ok  \texample.com/sum\t3.836s
";

    #[test]
    fn go_benchmark_output_gives_a_row_a_result_line_and_a_cell_a_value() {
        let cells = go_bench_cells(GO).unwrap();
        let got: Vec<(usize, &str, &str, &str, Option<Unit>)> =
            cells.iter().filter(|c| c.row == 1 || c.row >= 3).map(|c| (c.row, c.row_label.as_str(), c.column_label.as_str(), text(GO, c), c.unit.clone())).collect();
        let ns = Some(Unit::Ns);
        let allocs = Some(Unit::Other("allocs/op".into()));
        assert_eq!(
            got,
            [
                (1, "BenchmarkSum/n=64", "Benchmark", "BenchmarkSum/n=64-2", None),
                (1, "BenchmarkSum/n=64", "Iterations", "88800712", None),
                (1, "BenchmarkSum/n=64", "ns/op", "13.46", ns.clone()),
                (1, "BenchmarkSum/n=64", "MB/s", "38036.85", Some(Unit::MbPerS)),
                (1, "BenchmarkSum/n=64", "B/op", "0", Some(Unit::Bytes)),
                (1, "BenchmarkSum/n=64", "allocs/op", "0", allocs.clone()),
                (3, "BenchmarkItoa", "Benchmark", "BenchmarkItoa-2", None),
                (3, "BenchmarkItoa", "Iterations", "69532087", None),
                (3, "BenchmarkItoa", "ns/op", "16.50", ns),
                (3, "BenchmarkItoa", "B/op", "8", Some(Unit::Bytes)),
                (3, "BenchmarkItoa", "allocs/op", "1", allocs),
                (4, "BenchmarkEdited", "Benchmark", "BenchmarkEdited-2", None),
                (4, "BenchmarkEdited", "Iterations", "1000\t about 20 ns/op", None),
            ]
        );
        assert!(cells.iter().all(|c| c.is_name == (c.column == 0) && c.table == 0));
        assert_eq!(cells.iter().filter(|c| c.row == 2).count(), 6);
        assert_eq!(super::cells(GO).map(|c| c.len()), Some(19), "the console reader finds Go's layout");
    }

    /// JMH's summary table as `TextResultFormat` prints it, with a parameter, a secondary
    /// metric, a row whose count JMH leaves out (one sample), an approximate score, a value of a
    /// decimal-comma locale, a benchmark without the parameter (`N/A`), and a row retyped with
    /// the `±` joined: every row named by its benchmark and parameters, the count, score and
    /// error cells in the row's unit, and no cell where a number would be misread.
    #[test]
    fn jmh_tables_give_rows_by_benchmark_and_parameters() {
        let code = "Benchmark                              (size)  Mode  Cnt      Score     Error   Units
MyBenchmark.foo                           100  avgt   25     12.345 ±   0.678   ns/op
MyBenchmark.foo:·gc.alloc.rate.norm       100  avgt   25     24.000 ±   0.001    B/op
MyBenchmark.once                          100    ss           3.500             ms/op
MyBenchmark.tiny                          100  avgt   25      ≈ 10⁻⁴             ns/op
MyBenchmark.comma                         100  avgt   25     12,345 ±   0,678   ns/op
Other.bar                                 N/A  thrpt  10   1283.859 ±1034.753  ops/ms
";
        let cells = jmh_cells(code).unwrap();
        let got: Vec<(usize, &str, &str, &str, Option<Unit>)> =
            cells.iter().map(|c| (c.row, c.row_label.as_str(), c.column_label.as_str(), text(code, c), c.unit.clone())).collect();
        let ns = Some(Unit::Ns);
        let foo = "MyBenchmark.foo (size = 100)";
        let norm = "MyBenchmark.foo:·gc.alloc.rate.norm (size = 100)";
        let ops = Some(Unit::Other("ops/ms".into()));
        assert_eq!(
            got,
            [
                (1, foo, "Benchmark", "MyBenchmark.foo", None),
                (1, foo, "Cnt", "25", None),
                (1, foo, "Score", "12.345", ns.clone()),
                (1, foo, "Error", "0.678", ns.clone()),
                (2, norm, "Benchmark", "MyBenchmark.foo:·gc.alloc.rate.norm", None),
                (2, norm, "Cnt", "25", None),
                (2, norm, "Score", "24.000", Some(Unit::Bytes)),
                (2, norm, "Error", "0.001", Some(Unit::Bytes)),
                (3, "MyBenchmark.once (size = 100)", "Benchmark", "MyBenchmark.once", None),
                (3, "MyBenchmark.once (size = 100)", "Score", "3.500", Some(Unit::Ms)),
                (4, "MyBenchmark.tiny (size = 100)", "Benchmark", "MyBenchmark.tiny", None),
                (4, "MyBenchmark.tiny (size = 100)", "Cnt", "25", None),
                (5, "MyBenchmark.comma (size = 100)", "Benchmark", "MyBenchmark.comma", None),
                (5, "MyBenchmark.comma (size = 100)", "Cnt", "25", None),
                (6, "Other.bar", "Benchmark", "Other.bar", None),
                (6, "Other.bar", "Cnt", "10", None),
                (6, "Other.bar", "Score", "1283.859", ops.clone()),
                (6, "Other.bar", "Error", "1034.753", ops),
            ]
        );
        assert!(cells.iter().all(|c| c.is_name == (c.column == 0)));
        assert_eq!(cells.iter().find(|c| c.column_label == "Score").map(|c| c.column), Some(4));
        assert_eq!(super::cells(code).map(|c| c.len()), Some(cells.len()), "the console reader finds JMH's layout");
    }

    /// JMH before 1.3 printed `Samples` for the count and `± NaN` for no error; a header
    /// without JMH's columns, and rows before any header, give no cell.
    #[test]
    fn older_jmh_tables_read_and_other_text_does_not() {
        let code = "Benchmark        Mode  Samples    Score    Error  Units\nB.a             thrpt        1  439.000 ±    NaN  ops/ms\nB.b             thrpt       14  528.857 ±  278.142  ops/ms\n";
        let cells = jmh_cells(code).unwrap();
        let got: Vec<(&str, &str, &str)> = cells.iter().filter(|c| !c.is_name).map(|c| (c.row_label.as_str(), c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(got, [("B.a", "Samples", "1"), ("B.a", "Score", "439.000"), ("B.b", "Samples", "14"), ("B.b", "Score", "528.857"), ("B.b", "Error", "278.142")]);
        assert_eq!(jmh_cells("B.a  avgt  10  1.5 ± 0.1  ns/op\n"), None);
        let cut = "Benchmark  Mode  Cnt  Score  Error  Units\nB.a  avgt  10  1.5 ±\nB.b  avgt  10  1.5\n";
        assert_eq!(jmh_cells(cut), None, "a row cut after its `±` or its score has no unit");
        assert_eq!(jmh_cells("Benchmark  Mode  Score  Units\nB.a  avgt  1.5  ns/op\n"), None);
        assert_eq!(jmh_cells("Benchmark                  Time             CPU   Iterations\nBM_x  2 ns  2 ns  10\n"), None);
    }

    /// Text that only resembles Go's output gives no cell: criterion's `Benchmarking` lines,
    /// hyperfine's `Benchmark 1:`, a name announced alone, and prose.
    #[test]
    fn other_code_is_not_go_output() {
        assert_eq!(go_bench_cells("Benchmarking parse/small: Warming up for 3.0000 s\n"), None);
        assert_eq!(go_bench_cells("Benchmark 1: sleep 0.1\n"), None);
        assert_eq!(go_bench_cells("BenchmarkX-8\nPASS\nok  \tpkg\t1.2s\n"), None);
        assert_eq!(go_bench_cells("go test -bench . -count 10 > old.txt\n"), None);
        assert_eq!(super::cells(HYPERFINE).map(|c| c.len()), hyperfine_cells(HYPERFINE).map(|c| c.len()));
    }
    /// benchstat's comparison of two files as tattle's `stats/README.md` pastes it (its first
    /// two rows and the geometric mean).
    const BENCHSTAT: &str = "goos: linux
cpu: Intel(R) Core(TM) i5-4570 CPU @ 3.20GHz
                      │    v0.1.3    │               v1.0.0                │
                      │    sec/op    │    sec/op     vs base               │
01CallOverhead-4        0.3155n ± 4%   0.2965n ± 6%  -6.02% (p=0.001 n=30)
02TatErrorsOnly-4        2.240n ± 0%    2.241n ± 0%       ~ (p=0.706 n=30)
geomean                  2.617n         2.592n       -0.96%
";

    #[test]
    fn benchstat_gives_each_file_its_median_interval_and_change() {
        let cells = benchstat_cells(BENCHSTAT).unwrap();
        let got: Vec<(usize, &str, &str, &str, Option<Unit>)> =
            cells.iter().map(|c| (c.row, c.row_label.as_str(), c.column_label.as_str(), text(BENCHSTAT, c), c.unit.clone())).collect();
        let ns = Some(Unit::Ns);
        assert_eq!(
            got,
            [
                (1, "01CallOverhead-4", "Benchmark", "01CallOverhead-4", None),
                (1, "01CallOverhead-4", "v0.1.3 sec/op", "0.3155", ns.clone()),
                (1, "01CallOverhead-4", "v0.1.3 sec/op ±", "± 4%", None),
                (1, "01CallOverhead-4", "v1.0.0 sec/op", "0.2965", ns.clone()),
                (1, "01CallOverhead-4", "v1.0.0 sec/op ±", "± 6%", None),
                (1, "01CallOverhead-4", "v1.0.0 sec/op vs base", "-6.02% (p=0.001 n=30)", None),
                (2, "02TatErrorsOnly-4", "Benchmark", "02TatErrorsOnly-4", None),
                (2, "02TatErrorsOnly-4", "v0.1.3 sec/op", "2.240", ns.clone()),
                (2, "02TatErrorsOnly-4", "v0.1.3 sec/op ±", "± 0%", None),
                (2, "02TatErrorsOnly-4", "v1.0.0 sec/op", "2.241", ns.clone()),
                (2, "02TatErrorsOnly-4", "v1.0.0 sec/op ±", "± 0%", None),
                (2, "02TatErrorsOnly-4", "v1.0.0 sec/op vs base", "~ (p=0.706 n=30)", None),
                (3, "geomean", "Benchmark", "geomean", None),
                (3, "geomean", "v0.1.3 sec/op", "2.617", ns.clone()),
                (3, "geomean", "v1.0.0 sec/op", "2.592", ns),
                (3, "geomean", "v1.0.0 sec/op vs base", "-0.96%", None),
            ]
        );
        assert!(cells.iter().all(|c| c.is_name == (c.column == 0) && c.table == 0));
        assert_eq!(super::cells(BENCHSTAT), Some(cells), "the console reader finds benchstat's layout");
    }

    /// Each table of a block is one unit's; a prefix gives the unit of its number (a time's in
    /// seconds, bytes' binary, a multiplier kept in the cell), footnote marks and footnotes give
    /// no cell, and a row that departs from the shape keeps the rest of its line in one cell.
    #[test]
    fn benchstat_prefixes_give_units_and_odd_rows_keep_their_numbers() {
        let code = "        │   old.txt    │               new.txt                │
        │    sec/op    │    sec/op     vs base                │
Parse-8   1.500µ ± 2%    12.00m ± ∞ ¹  +799900.00% (p=0.002 n=6)
Slow-8    2.000 ± 1%     3.000 ± 1%    +50.00% (p=0.002 n=6)
Edited-8  about 3 ns
¹ need >= 6 samples for confidence interval at level 0.95

        │   old.txt    │              new.txt               │
        │     B/op     │    B/op     vs base                │
Parse-8   1.500Ki ± 0%   2.000Mi ± 0%  +99.00% (p=0.002 n=6)

        │   old.txt    │              new.txt               │
        │  allocs/op   │  allocs/op   vs base               │
Parse-8   1.500k ± 0%    2.000T ± 0%   +0.50% (p=0.002 n=6)
";
        let cells = benchstat_cells(code).unwrap();
        let find = |table: usize, row: &str, column: &str| {
            let c = cells.iter().find(|c| c.table == table && c.row_label == row && c.column_label == column).unwrap();
            (text(code, c), c.unit.clone())
        };
        assert_eq!(find(0, "Parse-8", "old.txt sec/op"), ("1.500", Some(Unit::Us)));
        assert_eq!(find(0, "Parse-8", "new.txt sec/op"), ("12.00", Some(Unit::Ms)));
        assert_eq!(find(0, "Parse-8", "new.txt sec/op ±"), ("± ∞", None));
        assert_eq!(find(0, "Parse-8", "new.txt sec/op vs base"), ("+799900.00% (p=0.002 n=6)", None));
        assert_eq!(find(0, "Slow-8", "old.txt sec/op"), ("2.000", Some(Unit::S)));
        assert_eq!(find(0, "Edited-8", "old.txt sec/op"), ("about 3 ns", None));
        assert_eq!(find(1, "Parse-8", "old.txt B/op"), ("1.500", Some(Unit::KiB)));
        assert_eq!(find(1, "Parse-8", "new.txt B/op"), ("2.000", Some(Unit::MiB)));
        assert_eq!(find(2, "Parse-8", "old.txt allocs/op"), ("1.500k", Some(Unit::Other("allocs/op".into()))));
        assert_eq!(find(2, "Parse-8", "new.txt allocs/op"), ("2.000", Some(Unit::Other("Tallocs/op".into()))));
        assert_eq!(cells.iter().filter(|c| c.row_label.starts_with('¹')).count(), 0, "a footnote is no row");
        assert_eq!(cells.iter().map(|c| c.table).max(), Some(2));
    }

    /// benchstat prints no name where a row's projection is empty, and puts the table's key
    /// above it instead: the row is named by that line and its first number is the first
    /// file's value, not a name. From coder/redjet's README (CC0 1.0, commit `83744278`).
    #[test]
    fn a_benchstat_row_without_a_name_is_named_by_its_table_s_key() {
        let code = ".fullname: Get/1_B-10
 │   redjet    │               redigo               │           go-redis            │               rueidis                │
 │   sec/op    │   sec/op     vs base               │   sec/op     vs base          │    sec/op     vs base                │
   908.2n ± 2%   962.4n ± 1%  +5.97% (p=0.000 n=10)   913.8n ± 3%  ~ (p=0.280 n=10)   1045.0n ± 1%  +15.06% (p=0.000 n=10)

 │  redjet   │            redigo            │           go-redis            │            rueidis            │
 │   B/op    │    B/op     vs base          │    B/op      vs base          │    B/op      vs base          │
   0.00 ± 0%   41.00 ± 0%  ? (p=0.000 n=10)   275.50 ± 2%  ? (p=0.000 n=10)   249.00 ± 0%  ? (p=0.000 n=10)
";
        let cells = benchstat_cells(code).unwrap();
        assert!(cells.iter().all(|c| c.row_label == ".fullname: Get/1_B-10" && !c.is_name && c.column > 0), "{cells:?}");
        let find = |table: usize, column: &str| {
            let c = cells.iter().find(|c| c.table == table && c.column_label == column).unwrap();
            (c.column, text(code, c), c.unit.clone())
        };
        assert_eq!(find(0, "redjet sec/op"), (1, "908.2", Some(Unit::Ns)));
        assert_eq!(find(0, "redigo sec/op vs base"), (5, "+5.97% (p=0.000 n=10)", None));
        assert_eq!(find(0, "rueidis sec/op"), (9, "1045.0", Some(Unit::Ns)));
        assert_eq!(find(1, "redjet B/op"), (1, "0.00", Some(Unit::Bytes)));
        assert_eq!(cells.iter().filter(|c| c.table == 1).count(), 11);
    }

    /// Lines of bars that are not benchstat's pair of header lines, and a header with nothing
    /// under it, give no cell; and no prefix of a benchstat table, cut at any character, panics
    /// or gives a cell outside the text.
    #[test]
    fn other_code_is_not_benchstat_and_cut_tables_are_read_safely() {
        assert_eq!(benchstat_cells("│ a │ b │\nrow 1 2\n"), None);
        assert_eq!(benchstat_cells("  │ old │\n  │ sec/op │\n"), None);
        assert_eq!(benchstat_cells("  │ old │\n  │ sec/op per day │\nX-8 1.0n ± 1%\n"), None);
        assert_eq!(benchstat_cells(HYPERFINE), None);
        for (end, _) in BENCHSTAT.char_indices() {
            let cut = &BENCHSTAT[..end];
            for c in benchstat_cells(cut).unwrap_or_default() {
                assert!(cut.get(c.range.clone()).is_some(), "{:?} is a range of {cut:?}", c.range);
            }
        }
    }
    /// A benchmark that only the second file holds: benchstat leaves the base's cells blank
    /// and prints the other file's under its own header, so its cells belong to that file's
    /// columns by where they stand, not to the first columns by their order. The geometric
    /// mean's row has both. (Written here in benchstat's layout: a file of one benchmark
    /// compared with one of two.)
    #[test]
    fn a_blank_base_cell_leaves_the_row_s_values_under_their_own_file() {
        let code = "               │ base.txt │              new.txt               │
               │  sec/op  │   sec/op     vs base               │
Parse-8         124.2µ ± 1%   131.3µ ± 7%  +5.68% (p=0.000 n=10)
Decode-8                      131.5µ ± 0%
geomean         124.2µ        131.4µ       +5.68%
";
        let cells = benchstat_cells(code).unwrap();
        let row = |label: &str| -> Vec<(&str, &str)> { cells.iter().filter(|c| c.row_label == label && !c.is_name).map(|c| (c.column_label.as_str(), text(code, c))).collect() };
        assert_eq!(row("Decode-8"), [("new.txt sec/op", "131.5"), ("new.txt sec/op ±", "± 0%")]);
        assert_eq!(row("Parse-8").len(), 5);
        assert_eq!(row("geomean"), [("base.txt sec/op", "124.2"), ("new.txt sec/op", "131.4"), ("new.txt sec/op vs base", "+5.68%")]);
    }

    /// benchstat's layout before 2023: no bars, the unit after each value, the change under
    /// `delta`, and the geometric mean's row named by two words.
    #[test]
    fn old_benchstat_tables_read_alike() {
        let code = "name            old time/op  new time/op  delta
CallOverhead-4  0.32ns ± 4%  0.30ns ± 6%  -6.02%  (p=0.001 n=30+30)
[Geo mean]      2.62ns       2.59ns       -0.96%

name            old allocs/op  new allocs/op  delta
Parse-8         12.0 ± 0%      11.0 ± 0%      -8.33%  (p=0.000 n=6+6)
";
        let cells = benchstat_cells(code).unwrap();
        let got: Vec<(usize, &str, &str, &str, Option<Unit>)> =
            cells.iter().map(|c| (c.table, c.row_label.as_str(), c.column_label.as_str(), text(code, c), c.unit.clone())).collect();
        let allocs = Some(Unit::Other("allocs/op".into()));
        assert_eq!(
            got,
            [
                (0, "CallOverhead-4", "Benchmark", "CallOverhead-4", None),
                (0, "CallOverhead-4", "old time/op", "0.32ns", None),
                (0, "CallOverhead-4", "old time/op ±", "± 4%", None),
                (0, "CallOverhead-4", "new time/op", "0.30ns", None),
                (0, "CallOverhead-4", "new time/op ±", "± 6%", None),
                (0, "CallOverhead-4", "time/op delta", "-6.02%  (p=0.001 n=30+30)", None),
                (0, "[Geo mean]", "Benchmark", "[Geo mean]", None),
                (0, "[Geo mean]", "old time/op", "2.62ns", None),
                (0, "[Geo mean]", "new time/op", "2.59ns", None),
                (0, "[Geo mean]", "time/op delta", "-0.96%", None),
                (1, "Parse-8", "Benchmark", "Parse-8", None),
                (1, "Parse-8", "old allocs/op", "12.0", allocs.clone()),
                (1, "Parse-8", "old allocs/op ±", "± 0%", None),
                (1, "Parse-8", "new allocs/op", "11.0", allocs),
                (1, "Parse-8", "new allocs/op ±", "± 0%", None),
                (1, "Parse-8", "allocs/op delta", "-8.33%  (p=0.000 n=6+6)", None),
            ]
        );
        assert_eq!(benchstat_cells("name  time/op\nParse-8  1.50µs ± 2%\n").map(|c| c.len()), Some(3));
        assert_eq!(benchstat_cells("name  value\nParse-8  1.50\n"), None);
    }

    /// That benchstat's table of more than two files (`all.golden` in its test data): a column
    /// a file, a blank where a file lacks the benchmark, found by where the next word starts;
    /// a group's configuration line gives no cell.
    #[test]
    fn old_benchstat_s_table_of_several_files_leaves_blanks_blank() {
        let code = "name \\ time/op                             new.txt        old.txt        slashslash4.txt  x386.txt
pkg:hash/crc32 goos:darwin goarch:amd64
CRC32/poly=IEEE/size=15/align=0-8            44.5ns ± 3%    46.9ns ± 8%
CRC32/poly=IEEE/size=40/align=0-8            42.5ns ± 6%    41.0ns ± 1%      42.1ns ± 3%
pkg:hash/crc32 goos:darwin goarch:386
CRC32/poly=IEEE/size=15/align=0-8                                                           62.4ns ± 9%
";
        let cells = benchstat_cells(code).unwrap();
        let got: Vec<(usize, &str, &str)> = cells.iter().filter(|c| !c.is_name).map(|c| (c.row, c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(
            got,
            [
                (1, "new.txt time/op", "44.5ns"),
                (1, "new.txt time/op ±", "± 3%"),
                (1, "old.txt time/op", "46.9ns"),
                (1, "old.txt time/op ±", "± 8%"),
                (2, "new.txt time/op", "42.5ns"),
                (2, "new.txt time/op ±", "± 6%"),
                (2, "old.txt time/op", "41.0ns"),
                (2, "old.txt time/op ±", "± 1%"),
                (2, "slashslash4.txt time/op", "42.1ns"),
                (2, "slashslash4.txt time/op ±", "± 3%"),
                (3, "x386.txt time/op", "62.4ns"),
                (3, "x386.txt time/op ±", "± 9%"),
            ]
        );
    }

    /// Two rows of the Go team's own test output of that benchstat (`golang/perf`,
    /// `cmd/benchstat/testdata/oldnew.golden` before commit `02c5517`): a range of two digits
    /// is one word with its `±`, and Go's `MB/s` is the metric `speed`.
    #[test]
    fn old_benchstat_s_wide_ranges_and_speeds_are_cells() {
        let code = "name                                       old time/op    new time/op     delta
CRC32/poly=Koopman/size=15/align=0-8         36.5ns ±11%     35.6ns ± 3%      ~     (p=0.216 n=10+10)

name                                       old speed      new speed       delta
CRC32/poly=Koopman/size=15/align=0-8        412MB/s ±10%    421MB/s ± 3%      ~     (p=0.218 n=10+10)
";
        let cells = benchstat_cells(code).unwrap();
        let got: Vec<(usize, &str, &str)> = cells.iter().filter(|c| !c.is_name).map(|c| (c.table, c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(
            got,
            [
                (0, "old time/op", "36.5ns"),
                (0, "old time/op ±", "±11%"),
                (0, "new time/op", "35.6ns"),
                (0, "new time/op ±", "± 3%"),
                (0, "time/op delta", "~     (p=0.216 n=10+10)"),
                (1, "old speed", "412MB/s"),
                (1, "old speed ±", "±10%"),
                (1, "new speed", "421MB/s"),
                (1, "new speed ±", "± 3%"),
                (1, "speed delta", "~     (p=0.218 n=10+10)"),
            ]
        );
    }

    /// A grid table's rows under its header, each cell's text as printed; a row over two lines,
    /// a table without a header rule, and rows of another width than the header stay code.
    #[test]
    fn grid_tables_are_read_only_where_each_row_is_one_line_under_a_header() {
        let code = "+------+---------+\n| Name | Time    |\n+======+=========+\n| a    | 2.13 us |\n+------+---------+\n| b    | 4.61 us |\n+------+---------+\n";
        let cells = grid_cells(code).unwrap();
        let got: Vec<(usize, &str, &str, &str)> = cells.iter().map(|c| (c.row, c.row_label.as_str(), c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(got, [(1, "a", "Name", "a"), (1, "a", "Time", "2.13 us"), (2, "b", "Name", "b"), (2, "b", "Time", "4.61 us")]);
        assert!(cells[0].is_name && !cells[1].is_name);
        let two_lines = code.replace("| b    | 4.61 us |\n", "| b    | 4.61 us |\n|      | 0.10 us |\n");
        assert_eq!(grid_cells(&two_lines), None);
        assert_eq!(grid_cells(&code.replace('=', "-")), None);
        assert_eq!(grid_cells(&code.replace("| b    | 4.61 us |", "| b    | 4.61 us | 9 |")), None);
    }

    /// pyperf's lines: a named comparison and the geometric mean under its changed file, then a
    /// single benchmark's result, which names none and is a table of its own.
    #[test]
    fn pyperf_lines_are_rows_named_by_their_benchmarks() {
        let code =
            "[1,2]*1000: Mean +- std dev: [py36] 3.70 us +- 0.05 us -> [py37] 5.28 us +- 0.09 us: 1.42x slower\nGeometric mean: 1.22x slower\nMean +- std dev: 22.5 ms +- 0.2 ms\n";
        let cells = pyperf_cells(code).unwrap();
        let got = laid_out(code, &cells);
        assert_eq!(
            got,
            [
                (0, 1, "[1,2]*1000", "Benchmark", "[1,2]*1000"),
                (0, 1, "[1,2]*1000", "py36", "3.70 us +- 0.05 us"),
                (0, 1, "[1,2]*1000", "py37", "5.28 us +- 0.09 us: 1.42x slower"),
                (0, 2, "Geometric mean", "Benchmark", "Geometric mean"),
                (0, 2, "Geometric mean", "py37", "1.22x slower"),
                (1, 1, "Mean +- std dev", "Mean +- std dev", "22.5 ms +- 0.2 ms"),
            ]
        );
        assert_eq!(pyperf_cells("Geometric mean: 1.22x slower\n"), None, "no comparison to stand under");
    }

    /// `pyperf stats -q` of pyperf's `doc/outliers.json.gz`, as pyperf 2.10.0 prints it (and
    /// pyperf's `doc/analyze.rst` quotes it).
    const PYPERF_STATS: &str = "Total duration: 11.6 sec
Start date: 2017-03-16 16:30:01
End date: 2017-03-16 16:30:16
Raw value minimum: 135 ms
Raw value maximum: 197 ms

Number of calibration run: 1
Number of run with values: 20
Total number of run: 21

Number of warmup per run: 1
Number of value per run: 3
Loop iterations per value: 2^15
Total number of values: 60

Minimum:         4.12 us
Median +- MAD:   4.25 us +- 0.05 us
Mean +- std dev: 4.34 us +- 0.31 us
Maximum:         6.02 us

  0th percentile: 4.12 us (-5% of the mean) -- minimum
  5th percentile: 4.15 us (-4% of the mean)
 25th percentile: 4.21 us (-3% of the mean) -- Q1
 50th percentile: 4.25 us (-2% of the mean) -- median
 75th percentile: 4.30 us (-1% of the mean) -- Q3
 95th percentile: 4.84 us (+12% of the mean)
100th percentile: 6.02 us (+39% of the mean) -- maximum

Number of outlier (out of 4.07 us..4.44 us): 9
";

    /// `pyperf stats`: one table whose rows are named by their keys, each value under its key;
    /// a percentile without the name after `--`, the outliers' count and fences apart.
    #[test]
    fn pyperf_stats_lines_are_rows_named_by_their_keys() {
        let cells = pyperf_cells(PYPERF_STATS).unwrap();
        let got: Vec<(usize, &str, &str, &str)> = cells.iter().map(|c| (c.row, c.row_label.as_str(), c.column_label.as_str(), text(PYPERF_STATS, c))).collect();
        let keyed = |row: usize, key: &'static str, value: &'static str| (row, key, key, value);
        assert_eq!(
            got,
            [
                keyed(1, "Total duration", "11.6 sec"),
                keyed(2, "Start date", "2017-03-16 16:30:01"),
                keyed(3, "End date", "2017-03-16 16:30:16"),
                keyed(4, "Raw value minimum", "135 ms"),
                keyed(5, "Raw value maximum", "197 ms"),
                keyed(6, "Number of calibration run", "1"),
                keyed(7, "Number of run with values", "20"),
                keyed(8, "Total number of run", "21"),
                keyed(9, "Number of warmup per run", "1"),
                keyed(10, "Number of value per run", "3"),
                keyed(11, "Loop iterations per value", "2^15"),
                keyed(12, "Total number of values", "60"),
                keyed(13, "Minimum", "4.12 us"),
                keyed(14, "Median +- MAD", "4.25 us +- 0.05 us"),
                keyed(15, "Mean +- std dev", "4.34 us +- 0.31 us"),
                keyed(16, "Maximum", "6.02 us"),
                keyed(17, "0th percentile", "4.12 us (-5% of the mean)"),
                keyed(18, "5th percentile", "4.15 us (-4% of the mean)"),
                keyed(19, "25th percentile", "4.21 us (-3% of the mean)"),
                keyed(20, "50th percentile", "4.25 us (-2% of the mean)"),
                keyed(21, "75th percentile", "4.30 us (-1% of the mean)"),
                keyed(22, "95th percentile", "4.84 us (+12% of the mean)"),
                keyed(23, "100th percentile", "6.02 us (+39% of the mean)"),
                keyed(24, "Number of outlier", "9"),
                (24, "Number of outlier", "out of", "4.07 us..4.44 us"),
            ]
        );
        assert!(cells.iter().all(|c| c.table == 0 && !c.is_name && c.column > 0), "{cells:?}");
        // The spans are the values' bytes in the block: `11.6 sec` after `Total duration: `, the
        // median's line after its padding, the fences inside the outliers' key, its count last.
        let range = |row: usize, column: &str| cells.iter().find(|c| c.row == row && c.column_label == column).unwrap().range.clone();
        assert_eq!(range(1, "Total duration"), 16..24);
        assert_eq!(range(14, "Median +- MAD"), 381..399);
        assert_eq!(range(17, "0th percentile"), 480..505);
        assert_eq!(range(24, "out of"), 843..859);
        assert_eq!(range(24, "Number of outlier"), 862..863);
        assert_eq!(super::cells(PYPERF_STATS), Some(cells), "the console reader finds pyperf's layout");
    }

    /// `pyperf stats` of a file of several benchmarks titles each (`=` under the file's name,
    /// `-` under a benchmark's): each benchmark is a row named by its title, each key a column.
    /// The same key printed again without titles is another benchmark's table.
    #[test]
    fn pyperf_stats_of_several_benchmarks_are_rows_named_by_their_titles() {
        let code = "mult_list_py36\n==============\n\nNumber of benchmarks: 3\nTotal duration: 37.5 sec\n\n[1]*1000\n--------\n\nTotal duration: 12.5 sec\nRaw value minimum: 134 ms\nLoop iterations per value: 2^16 (64 outer-loops x 1024 inner-loops)\nMedian +- MAD:   2.11 us +- 0.02 us\n\n[1,2]*1000\n----------\n\nTotal duration: 12.6 sec\nMedian +- MAD:   3.65 us +- 0.03 us\n";
        let cells = pyperf_cells(code).unwrap();
        let got: Vec<(usize, usize, &str, &str, &str)> = cells.iter().map(|c| (c.row, c.column, c.row_label.as_str(), c.column_label.as_str(), text(code, c))).collect();
        assert_eq!(
            got,
            [
                (1, 1, "mult_list_py36", "Number of benchmarks", "3"),
                (1, 2, "mult_list_py36", "Total duration", "37.5 sec"),
                (2, 2, "[1]*1000", "Total duration", "12.5 sec"),
                (2, 3, "[1]*1000", "Raw value minimum", "134 ms"),
                (2, 4, "[1]*1000", "Loop iterations per value", "2^16 (64 outer-loops x 1024 inner-loops)"),
                (2, 5, "[1]*1000", "Median +- MAD", "2.11 us +- 0.02 us"),
                (3, 2, "[1,2]*1000", "Total duration", "12.6 sec"),
                (3, 5, "[1,2]*1000", "Median +- MAD", "3.65 us +- 0.03 us"),
            ]
        );
        assert!(cells.iter().all(|c| c.table == 0));
        let twice = format!("{PYPERF_STATS}\n{PYPERF_STATS}");
        let tables: Vec<usize> = pyperf_cells(&twice).unwrap().iter().filter(|c| c.row_label == "Median +- MAD").map(|c| c.table).collect();
        assert_eq!(tables, [0, 1]);
    }

    /// The keys any program might print are pyperf's only beside one that pyperf alone prints:
    /// a block of `Minimum:` and `Maximum:` lines stays code, and so do lines of other shapes.
    #[test]
    fn common_keys_alone_are_not_pyperf_stats() {
        assert_eq!(pyperf_cells("Minimum: 4.12 us\nMaximum: 6.02 us\nTotal duration: 11.6 sec\n"), None);
        assert_eq!(pyperf_cells("Number of outlier: 9\n 5th percentile 4.15 us\nMedian +- MAD:\n"), None);
        let cells = pyperf_cells("Minimum: 4.12 us\nMedian +- MAD: 4.25 us +- 0.05 us\n").unwrap();
        assert_eq!(cells.iter().map(|c| c.row_label.as_str()).collect::<Vec<_>>(), ["Minimum", "Median +- MAD"]);
    }

    /// `pyperf hist` as it prints `doc/outliers.json.gz` in 71 columns and 22 lines (the first
    /// bins): each bin a row named by its start, its start under `Bin` (a measurement, no name)
    /// and its count under `Count`, an empty bin's bar `|`.
    #[test]
    fn pyperf_hist_bins_are_rows_of_a_start_and_a_count() {
        let code = "$ python3 -m pyperf hist outliers.json -q\n4.10 us: 15 ##############################\n4.20 us: 29 ##########################################################\n4.70 us:  0 |\n";
        let cells = pyperf_cells(code).unwrap();
        let got: Vec<(usize, usize, &str, &str, &str, std::ops::Range<usize>)> =
            cells.iter().map(|c| (c.row, c.column, c.row_label.as_str(), c.column_label.as_str(), text(code, c), c.range.clone())).collect();
        assert_eq!(
            got,
            [
                (1, 1, "4.10 us", "Bin", "4.10 us", 42..49),
                (1, 2, "4.10 us", "Count", "15", 51..53),
                (2, 1, "4.20 us", "Bin", "4.20 us", 85..92),
                (2, 2, "4.20 us", "Count", "29", 94..96),
                (3, 1, "4.70 us", "Bin", "4.70 us", 156..163),
                (3, 2, "4.70 us", "Count", "0", 166..167),
            ]
        );
        assert!(cells.iter().all(|c| !c.is_name && c.table == 0));
        // One bin alone is no histogram, and a bar of other characters is no bar.
        assert_eq!(pyperf_cells("4.10 us: 15 ###\n"), None);
        assert_eq!(pyperf_cells("4.10 us: 15 ===\n4.20 us: 29 ===\n"), None);
        assert_eq!(pyperf_cells("4.10 parsecs: 15 ###\n4.20 parsecs: 29 ###\n"), None);
    }

    /// Bins narrower than the printed precision repeat a start, as pyperf's own `cli.rst` shows
    /// for `hist telco.json`: each bin is still a row of its own, so that a selector tells them
    /// apart by their place (`26.4 ms #2`).
    #[test]
    fn pyperf_hist_bins_that_print_the_same_start_are_rows_of_their_own() {
        let code = "$ python3 -m pyperf hist telco.json\n26.4 ms:  1 ##\n26.4 ms:  1 ##\n26.4 ms:  2 #####\n26.5 ms:  1 ##\n";
        let cells = pyperf_cells(code).unwrap();
        let counts: Vec<(usize, &str, &str)> = cells.iter().filter(|c| c.column_label == "Count").map(|c| (c.row, c.row_label.as_str(), text(code, c))).collect();
        assert_eq!(counts, [(1, "26.4 ms", "1"), (2, "26.4 ms", "1"), (3, "26.4 ms", "2"), (4, "26.5 ms", "1")]);
    }

    /// `pyperf hist` of two files heads each histogram `[ name ]`: each is a table of its own,
    /// its counts under the file's name.
    #[test]
    fn pyperf_histograms_of_several_files_are_tables_under_their_names() {
        let code = "[ mult_list_py36 ]\n2.01 us:  2 ####\n2.06 us: 26 ###############################################\n\n[ mult_list_py38 ]\n2.01 us:  0 |\n2.06 us: 24 ###########################################\n";
        let cells = pyperf_cells(code).unwrap();
        let got = laid_out(code, &cells);
        assert_eq!(
            got,
            [
                (0, 1, "2.01 us", "Bin", "2.01 us"),
                (0, 1, "2.01 us", "mult_list_py36", "2"),
                (0, 2, "2.06 us", "Bin", "2.06 us"),
                (0, 2, "2.06 us", "mult_list_py36", "26"),
                (1, 1, "2.01 us", "Bin", "2.01 us"),
                (1, 1, "2.01 us", "mult_list_py38", "0"),
                (1, 2, "2.06 us", "Bin", "2.06 us"),
                (1, 2, "2.06 us", "mult_list_py38", "24"),
            ]
        );
    }

    /// pyperf's warnings: each a row named by what it warns of, the warning its cell; the
    /// result line after them a table of its own, and the warning that quotes pyperf's own
    /// thresholds left unread. The texts are pyperf's: perf 0.9.7's `timeit` (the maximum),
    /// pyperf 2.10.0's `check` of `doc/timeit_strip.json.gz`, and of a run with a slow value.
    #[test]
    fn pyperf_warnings_are_rows_named_by_what_they_warn_of() {
        let code = "WARNING: the benchmark result may be unstable
* the maximum (6.02 us) is 39% greater than the mean (4.34 us)
* the standard deviation (89.4 ns) is 12% of the mean (750 ns)
* the shortest raw value is only 636 ns
* the minimum (200 ms) is 78% smaller than the mean (900 ms)
* Not enough samples to get a stable result (95% certainly of less than 1% variation)

Try to rerun the benchmark with more runs, values and/or loops.

Mean +- std dev: 4.34 us +- 0.31 us
";
        let cells = pyperf_cells(code).unwrap();
        let got = laid_out(code, &cells);
        assert_eq!(
            got,
            [
                (0, 1, "the maximum", "the maximum", "the maximum (6.02 us) is 39% greater than the mean (4.34 us)"),
                (0, 2, "the standard deviation", "the standard deviation", "the standard deviation (89.4 ns) is 12% of the mean (750 ns)"),
                (0, 3, "the shortest raw value", "the shortest raw value", "the shortest raw value is only 636 ns"),
                (0, 4, "the minimum", "the minimum", "the minimum (200 ms) is 78% smaller than the mean (900 ms)"),
                (1, 1, "Mean +- std dev", "Mean +- std dev", "4.34 us +- 0.31 us"),
            ]
        );
        assert_eq!(cells[0].range, 48..108);
        assert_eq!(pyperf_cells("* the maximum is large\n* Not enough samples to get a stable result (95% certainly of less than 1% variation)\n"), None);
    }

    /// Before 2.1.0 pyperf printed the change in percent after a comparison's speed: the line is
    /// read as one without it, the change in the changed file's cell.
    #[test]
    fn a_pyperf_comparison_with_its_change_in_percent_reads() {
        let code = "$ python3 -m pyperf compare_to py36.json py38.json\nMean +- std dev: [py36] 4.70 us +- 0.18 us -> [py38] 4.22 us +- 0.08 us: 1.11x faster (-10%)\n";
        let cells = pyperf_cells(code).unwrap();
        let got: Vec<(&str, &str, std::ops::Range<usize>)> = cells.iter().map(|c| (c.column_label.as_str(), text(code, c), c.range.clone())).collect();
        assert_eq!(got, [("py36", "4.70 us +- 0.18 us", 75..93), ("py38", "4.22 us +- 0.08 us: 1.11x faster (-10%)", 104..143)]);
        assert!(cells.iter().all(|c| c.row == 1 && c.row_label == "Mean +- std dev"));
        for odd in ["1.11x faster (10%)", "1.11x faster (-10)", "1.11x faster (fast)", "1.11x faster -10%"] {
            assert!(!is_speed(odd), "{odd}");
        }
        assert!(is_speed("1.23x slower (+23%)"));
    }

    /// `compare_to --table`'s grid and the line after it that names the benchmarks hidden as not
    /// significant: the grid's cells as before, and a row of that name whose cell lists them as
    /// names, its count left unread.
    #[test]
    fn pyperf_hidden_benchmarks_are_a_row_beside_the_grid() {
        let code = "+----------------+----------------+-----------------------+
| Benchmark      | mult_list_py36 | mult_list_py38        |
+================+================+=======================+
| [1,2]*1000     | 3.70 us        | 3.18 us: 1.16x faster |
+----------------+----------------+-----------------------+

Benchmark hidden because not significant (2): [1]*1000, [1,2,3]*1000
";
        let cells = super::cells(code).unwrap();
        let got: Vec<(usize, usize, &str, &str, &str, bool)> =
            cells.iter().map(|c| (c.table, c.row, c.row_label.as_str(), c.column_label.as_str(), text(code, c), c.is_name)).collect();
        let hidden = "Benchmark hidden because not significant";
        assert_eq!(
            got,
            [
                (0, 1, "[1,2]*1000", "Benchmark", "[1,2]*1000", true),
                (0, 1, "[1,2]*1000", "mult_list_py36", "3.70 us", false),
                (0, 1, "[1,2]*1000", "mult_list_py38", "3.18 us: 1.16x faster", false),
                (1, 1, hidden, hidden, "[1]*1000, [1,2,3]*1000", true),
            ]
        );
        assert_eq!(cells[3].range, 347..369);
        // Without the grid the line is read alone, and without names it is not read.
        assert_eq!(pyperf_cells("Benchmark hidden because not significant (1): [1]*1000\n").map(|c| c.len()), Some(1));
        assert_eq!(pyperf_cells("Benchmark hidden because not significant (0): \n"), None);
        assert_eq!(grid_cells(code).map(|c| c.len()), Some(3));
    }

    /// wrk's report with `--latency`, as it prints it (values made up here), after a line of a
    /// shell session that is no part of it.
    const WRK: &str = "$ wrk -t2 -c16 -d5s --latency http://localhost:3000/
Running 5s test @ http://localhost:3000/
  2 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   402.18us  120.07us   4.25ms   88.10%
    Req/Sec    19.87k     0.93k   21.40k    71.00%
  Latency Distribution
     50%  380.00us
     99%    1.02ms
  197712 requests in 5.00s, 24.13MB read
Requests/sec:  39542.40
Transfer/sec:      4.83MB
";

    #[test]
    fn wrk_s_report_gives_its_statistics_distribution_and_totals() {
        let cells = wrk_cells(WRK).unwrap();
        let got = laid_out(WRK, &cells);
        assert_eq!(
            got,
            [
                (0, 1, "Latency", "Thread Stats", "Latency"),
                (0, 1, "Latency", "Avg", "402.18us"),
                (0, 1, "Latency", "Stdev", "120.07us"),
                (0, 1, "Latency", "Max", "4.25ms"),
                (0, 1, "Latency", "+/- Stdev", "88.10%"),
                (0, 2, "Req/Sec", "Thread Stats", "Req/Sec"),
                (0, 2, "Req/Sec", "Avg", "19.87k"),
                (0, 2, "Req/Sec", "Stdev", "0.93k"),
                (0, 2, "Req/Sec", "Max", "21.40k"),
                (0, 2, "Req/Sec", "+/- Stdev", "71.00%"),
                (1, 1, "50%", "Latency Distribution", "50%"),
                (1, 1, "50%", "Latency", "380.00us"),
                (1, 2, "99%", "Latency Distribution", "99%"),
                (1, 2, "99%", "Latency", "1.02ms"),
                (2, 1, "Run", "Duration", "5s"),
                (2, 1, "Run", "Threads", "2"),
                (2, 1, "Run", "Connections", "16"),
                (2, 1, "Run", "Requests", "197712"),
                (2, 1, "Run", "Time", "5.00s"),
                (2, 1, "Run", "Read", "24.13MB"),
                (2, 1, "Run", "Requests/sec", "39542.40"),
                (2, 1, "Run", "Transfer/sec", "4.83MB"),
            ]
        );
        assert!(cells.iter().all(|c| c.is_name == (c.column == 0) && c.unit.is_none()));
        // Its sizes are 1024-based, and its transfer rate is a size a second.
        let flags: Vec<(&str, bool, bool)> = cells.iter().filter(|c| c.binary_sizes || c.per_second).map(|c| (c.column_label.as_str(), c.binary_sizes, c.per_second)).collect();
        assert_eq!(flags, [("Read", true, false), ("Transfer/sec", true, true)]);
        assert_eq!(super::cells(WRK).map(|c| c.len()), Some(22), "the console reader finds wrk's layout");
        // Without the distribution the totals are the second table.
        let plain = WRK.replace("--latency ", "").replace("  Latency Distribution\n     50%  380.00us\n     99%    1.02ms\n", "");
        assert!(wrk_cells(&plain).unwrap().iter().all(|c| c.table == if c.row_label == "Run" { 1 } else { 0 }));
        // Without its statistics' header the same lines are not wrk's.
        assert_eq!(wrk_cells(&WRK.replace("Thread Stats", "Thread totals")), None);
    }

    /// wrk prints a time of 51 seconds or more in minutes with a lone `m`: the run's length,
    /// its time and a latency. Those cells are their digits, in minutes.
    #[test]
    fn wrk_s_minutes_are_minutes() {
        let code = WRK.replace("Running 5s", "Running 1m").replace("4.25ms", "1.50m").replace("in 5.00s,", "in 1.00m,");
        let cells = wrk_cells(&code).unwrap();
        let minutes: Vec<(&str, &str)> = cells.iter().filter(|c| c.unit == Some(Unit::Min)).map(|c| (c.column_label.as_str(), &code[c.range.clone()])).collect();
        assert_eq!(minutes, [("Max", "1.50"), ("Duration", "1"), ("Time", "1.00")]);
        assert_eq!(cells.iter().filter(|c| c.unit.is_some()).count(), 3, "no other cell is in minutes");
    }
}
