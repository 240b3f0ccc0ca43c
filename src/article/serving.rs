//! The LLM-serving benchmarks' reports, as articles on language-model inference, vendors' guides
//! and pull requests paste them: what vLLM's `vllm bench serve` (and its older
//! `benchmarks/benchmark_serving.py`), SGLang's `python -m sglang.bench_serving` and
//! `sglang.bench_offline_throughput`, and TensorRT-LLM's `trtllm-bench` print when a run ends.
//!
//! vLLM and SGLang print a banner, then one `label: value` line for each result, the label
//! padded to 40 characters (`"{:<40} {:<10}"`), grouped under rules that name each group:
//!
//! ```text
//! ============ Serving Benchmark Result ============
//! Successful requests:                     1000
//! Request rate configured (RPS):           1.50
//! Benchmark duration (s):                  56.78
//! Output token throughput (tok/s):         3493.28
//! ---------------Time to First Token----------------
//! Mean TTFT (ms):                          2456.23
//! P99 TTFT (ms):                           5678.90
//! ==================================================
//! ```
//!
//! `trtllm-bench` prints sections, each framed by rules and titled by a line that begins with
//! `= `; the labels are padded with spaces or tabs, and a section may hold subsections (`--
//! Request Latency Breakdown (ms) ---`) and, under `DATASET DETAILS`, a small table of
//! percentiles:
//!
//! ```text
//! ===========================================================
//! = PERFORMANCE OVERVIEW
//! ===========================================================
//! Request Throughput (req/sec):                     43.2089
//! Total Latency (ms):                               115716.9214
//!
//! -- Request Latency Breakdown (ms) -----------------------
//!
//! [Latency] P50    : 3936.3022
//! ```
//!
//! Each report is a table whose rows are the groups it prints, each named by its title as
//! printed: the banner's for the lines right under it (`Serving Benchmark Result`), each rule's
//! for the lines under that rule (`Time to First Token`, `Speculative Decoding`), and each of
//! `trtllm-bench`'s sections (`PERFORMANCE OVERVIEW`, `WORLD + RUNTIME INFORMATION`). Each value
//! is a cell under its line's label as printed, the colon and the padding left out, the unit in
//! parentheses kept (`Mean TTFT (ms)`, `Token Throughput (tokens/sec)`), so that the label a
//! registry names is the one the article shows; a selector is then `cell = { row = "Time to
//! First Token", column = "Mean TTFT (ms)" }`. The titles name the rows because `trtllm-bench`
//! repeats labels from one section to another (`Max Sequence Length` in its engine's details and
//! in its dataset's), and the same rule serves vLLM's and SGLang's reports. Several reports
//! pasted in one block (a sweep over request rates, the runs before and after a change) are as
//! many tables, which a selector tells apart by `table`, as `init` writes it; a report of
//! `trtllm-bench` ends where one of its section titles comes again, or where other text stands
//! between its sections.
//!
//! The unit is the one the label states in parentheses at its end, or, for a line without one,
//! the one its `trtllm-bench` subsection states (`-- Request Latency Breakdown (ms)`):
//! `(s)` and `(seconds)` are seconds, `(ms)` milliseconds, `(%)` and a value printed with `%` a
//! percentage. A rate keeps the unit as printed, `tok/s`, `req/s`, `tokens/sec`, `req/sec`,
//! `tps/user` or `tokens/sec/user`, as the number reader takes such a unit from prose: it
//! matches only itself, so that an article quoting `3493 tok/s` quotes the cell's unit, and a
//! check of it states the same (`unit = "tok/s"`). vLLM's `(RPS)`, requests a second, is kept
//! as `RPS` likewise. A label with no unit (`Successful requests`, `Total input tokens`,
//! `Concurrency`, `Acceptance length`) and one whose parentheses say something else
//! (`(tokens)`, `(retokenized)`, `(Inverse Real-Time Factor)`) give a plain number, a count or
//! a ratio. A value is a number as Python prints it, with a sign, decimals and an exponent
//! (`3.680275266452667e+18`, `5.0689E+14`); text (`Backend: sglang-oai`, `Max request
//! concurrency: not set`, `Dtype: float16`), a version (`TensorRT-LLM Version: 0.12.0`), `inf`
//! and `None` give no cell, and neither does a line whose value is followed by more words.
//!
//! A line of vLLM's that heads a list (`Per-position acceptance (%):`, then `  Position 0:
//! 73.59`) names the indented lines below it: their cells are under `Per-position acceptance
//! (%) › Position 0`, in the list's unit. A line of `trtllm-bench`'s percentile table (`MIN:
//! 167.0000  119.0000  300.0000`) gives a cell under each of the titles above it: `Input ›
//! MIN`, `Output › MIN`, `Seq. Length › MIN`; a row cut short, the cells it still holds, and
//! a row of more values than titles, none.
//!
//! Only the lines a report frames are read: vLLM's and SGLang's from the banner (`Serving
//! Benchmark Result` or `Offline Throughput Benchmark Result`) to the closing rule, a blank line
//! or a line of another shape; `trtllm-bench`'s within its framed sections, and only in a block
//! that holds one of its results' sections (`PERFORMANCE OVERVIEW`, `STATISTICS`, `STREAMING
//! STATISTICS`). What vLLM prints before its banner (`Traffic request rate: inf`, `Maximum
//! request concurrency: 25`) echoes the command's arguments and gives no cell, nor do the log
//! lines, progress bars and commands pasted around a report, nor any other block of `key:
//! value` lines. `trtllm-bench`'s machine line (`NVIDIA H100 80GB HBM3, memory 79.11 GB, 2.62
//! GHz`) holds no label and gives no cell.

use std::collections::HashMap;
use std::ops::Range;

use super::console::{ConsoleCell, lines, tokens};
use super::numbers::{Unit, unit_in_label};

/// The banners of vLLM's and SGLang's reports.
const BANNERS: [&str; 2] = ["Serving Benchmark Result", "Offline Throughput Benchmark Result"];

/// The titles of `trtllm-bench`'s sections that hold its results: a block must hold one for its
/// framed sections to be read.
const RESULT_SECTIONS: [&str; 3] = ["PERFORMANCE OVERVIEW", "STATISTICS", "STREAMING STATISTICS"];

/// The cells of the serving benchmarks' reports in `code`, or `None` when it holds none. See the
/// module's documentation for the tables they make.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let all: Vec<(usize, &str)> = lines(code).collect();
    let title_at = |k: usize| all.get(k).and_then(|(_, line)| trt_title(line, all.get(k + 1).map(|l| l.1)));
    let trt = (0..all.len()).filter_map(title_at).any(|t| RESULT_SECTIONS.iter().any(|r| r.eq_ignore_ascii_case(t)));
    let mut out = Tables::default();
    let mut state = State::Outside;
    let mut k = 0;
    while k < all.len() {
        let (start, line) = all[k];
        let title = if trt { title_at(k) } else { None };
        k += 1;
        if let Some(title) = banner(line) {
            out.open(title);
            state = State::Report { group: None };
            continue;
        }
        if let Some(title) = title {
            // A title that comes again, or text between this section and the last, begins
            // another report.
            let same_report = matches!(state, State::Section { .. } | State::Sections { gap: false }) && !out.has_row(title);
            if same_report {
                out.row(title);
            } else {
                out.open(title);
            }
            state = State::Section { titles: None, unit: None };
            // The rule under the title is part of it.
            k += 1;
            continue;
        }
        let text = line.trim();
        if is_rule(text, '=') {
            // A closing rule: vLLM's ends its report, `trtllm-bench`'s its section.
            state = match state {
                State::Section { .. } => State::Sections { gap: false },
                State::Sections { gap } => State::Sections { gap },
                State::Outside | State::Report { .. } => State::Outside,
            };
            continue;
        }
        match &mut state {
            State::Outside => {}
            State::Sections { gap } => *gap |= !text.is_empty(),
            State::Report { group } => {
                if let Some(title) = dashed_title(text) {
                    out.row(title);
                    *group = None;
                    continue;
                }
                // vLLM and SGLang print a report whole: a blank line or a line of another shape
                // is past its end.
                let Some(entry) = entry(line).filter(|_| !text.is_empty()) else {
                    state = State::Outside;
                    continue;
                };
                let indent = line.len() - line.trim_start().len();
                if group.as_ref().is_some_and(|g| indent <= g.indent) {
                    *group = None;
                }
                match &entry.values {
                    // A label alone heads the indented lines below it.
                    Some(values) if values.is_empty() => *group = Some(Group { indent, label: entry.label.clone(), unit: label_unit(&entry.label) }),
                    Some(_) => out.entry(start, line, &entry, group.as_ref(), None),
                    None => {}
                }
            }
            State::Section { titles, unit } => {
                if text.is_empty() || is_rule(text, '-') {
                    continue;
                }
                if let Some(sub) = text.strip_prefix("--") {
                    // A subsection: its unit is its lines', and any table of titles before it ends.
                    let title = sub.trim_matches(|c: char| c == '-' || c.is_whitespace());
                    *unit = unit_in_label(title);
                    *titles = None;
                    continue;
                }
                match entry(line) {
                    Some(entry) => {
                        let group = unit.clone().map(|unit| Group { indent: 0, label: String::new(), unit: Some(unit) });
                        out.entry(start, line, &entry, group.as_ref(), titles.as_deref());
                    }
                    None => {
                        if let Some(found) = column_titles(line) {
                            *titles = Some(found);
                        }
                    }
                }
            }
        }
    }
    (!out.cells.is_empty()).then_some(out.cells)
}

/// Where the reading stands.
enum State {
    /// Outside any report.
    Outside,
    /// In a report of vLLM or SGLang, under the list the last line headed, if any.
    Report { group: Option<Group> },
    /// In one of `trtllm-bench`'s sections: the titles of its table of percentiles and the unit
    /// of its current subsection, if any.
    Section { titles: Option<Vec<String>>, unit: Option<Unit> },
    /// Between `trtllm-bench`'s sections, and whether text other than blank lines stood there.
    Sections { gap: bool },
}

/// What the lines under a heading share: vLLM's list (`Per-position acceptance (%):`), whose
/// label heads their columns' and whose unit is theirs, or `trtllm-bench`'s subsection, whose
/// unit alone is.
struct Group {
    /// The heading's indentation: the list's lines are indented more.
    indent: usize,
    /// The label that heads the lines' columns, or none.
    label: String,
    unit: Option<Unit>,
}

/// The tables being made: each report's rows and columns, numbered as their first cells come,
/// so that a report or a group without a value leaves no gap.
#[derive(Default)]
struct Tables {
    cells: Vec<ConsoleCell>,
    /// The number of the current report's table: how many reports before it have a cell.
    table: usize,
    current: Option<Report>,
    /// The current row's label.
    row: String,
}

/// A report being read.
#[derive(Default)]
struct Report {
    has_cells: bool,
    /// Every row's label, in order, with or without cells.
    titles: Vec<String>,
    /// Each row's number by its label, from 1.
    rows: HashMap<String, usize>,
    /// Each column's number, from 1, by its label and, for a label that a row repeats, its
    /// occurrence in the row: a repeated label is a column of its own.
    columns: HashMap<(String, usize), usize>,
    /// How many cells each pair of a row and a column label has.
    seen: HashMap<(String, String), usize>,
}

impl Tables {
    /// Begins a report whose first row is `title`.
    fn open(&mut self, title: &str) {
        if self.current.as_ref().is_some_and(|r| r.has_cells) {
            self.table += 1;
        }
        self.current = Some(Report { titles: vec![title.to_string()], ..Report::default() });
        self.row = title.to_string();
    }

    /// Begins the row `title` in the current report.
    fn row(&mut self, title: &str) {
        if let Some(report) = self.current.as_mut() {
            report.titles.push(title.to_string());
        }
        self.row = title.to_string();
    }

    fn has_row(&self, title: &str) -> bool {
        self.current.as_ref().is_some_and(|r| r.titles.iter().any(|t| t == title))
    }

    /// The cells of the line `line` (at `start` in the block), read as `entry`: under `group`'s
    /// label where it heads a list, in its unit where the label states none, and under each of
    /// `titles`, in order, where a table's titles stand above it.
    fn entry(&mut self, start: usize, line: &str, entry: &Entry, group: Option<&Group>, titles: Option<&[String]>) {
        let Some(report) = self.current.as_mut() else { return };
        let Some(values) = &entry.values else { return };
        let unit = label_unit(&entry.label).or_else(|| group.and_then(|g| g.unit.clone()));
        let label = match group {
            Some(g) if !g.label.is_empty() => format!("{} › {}", g.label, entry.label),
            _ => entry.label.clone(),
        };
        // Under titles, the values stand in their columns in order, and a row cut short holds
        // the first of them.
        let columns: Vec<String> = match titles {
            Some(titles) if values.len() <= titles.len() => titles.iter().take(values.len()).map(|t| format!("{t} › {label}")).collect(),
            None if values.len() == 1 => vec![label],
            _ => return,
        };
        let next_row = report.rows.len() + 1;
        let row = *report.rows.entry(self.row.clone()).or_insert(next_row);
        for (column_label, value) in columns.into_iter().zip(values) {
            let text = &line[value.clone()];
            let occurrence = report.seen.entry((self.row.clone(), column_label.clone())).or_insert(0);
            *occurrence += 1;
            let next_column = report.columns.len() + 1;
            let column = *report.columns.entry((column_label.clone(), *occurrence)).or_insert(next_column);
            let unit = if text.ends_with('%') { Some(Unit::Percent) } else { unit.clone() };
            let range = start + value.start..start + value.end;
            self.cells.push(ConsoleCell { unit, ..ConsoleCell::plain(self.table, row, column, &self.row, &column_label, range) });
            report.has_cells = true;
        }
    }
}

/// A line's label and the bytes of each of its values: none for a label alone, which heads the
/// lines below it, and `None` for a value that is not numbers (text, a version, `inf`, a number
/// with words after it).
struct Entry {
    label: String,
    values: Option<Vec<Range<usize>>>,
}

/// The line `line` as a label and its values: the text before the first colon that a space, a
/// tab or the line's end follows, its runs of whitespace as one, then the tokens after it.
/// `None` for a line with no such colon or no label before it.
fn entry(line: &str) -> Option<Entry> {
    let colon = line.char_indices().find(|&(i, c)| c == ':' && line[i + 1..].chars().next().is_none_or(char::is_whitespace)).map(|(i, _)| i)?;
    let label = line[..colon].split_whitespace().collect::<Vec<_>>().join(" ");
    if label.is_empty() {
        return None;
    }
    let after = colon + 1;
    let values: Vec<Range<usize>> = tokens(&line[after..]).into_iter().map(|r| after + r.start..after + r.end).collect();
    let numbers = values.iter().all(|r| is_number(&line[r.clone()]));
    Some(Entry { label, values: numbers.then_some(values) })
}

/// The unit a label states: in parentheses at its end (`Mean TTFT (ms)`), and `RPS`, which vLLM
/// prints for requests a second and the number reader knows no unit by.
fn label_unit(label: &str) -> Option<Unit> {
    if label.ends_with("(RPS)") {
        return Some(Unit::Other("RPS".into()));
    }
    unit_in_label(label)
}

/// Whether `text` is a finite number as Python prints one: a sign, digits, decimals, an exponent
/// (`e+18`, `E+14`), and a `%` after them for a percentage.
fn is_number(text: &str) -> bool {
    let text = text.strip_suffix('%').unwrap_or(text);
    let text = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => digits(whole) && (fraction.is_empty() || digits(fraction)),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)))
}

/// The title of vLLM's or SGLang's banner on the line, `==== Serving Benchmark Result ====`.
fn banner(line: &str) -> Option<&'static str> {
    let text = line.trim();
    let inner = text.trim_start_matches('=');
    let inner = inner.trim_end_matches('=');
    if inner.len() + 6 > text.len() {
        return None;
    }
    BANNERS.into_iter().find(|b| *b == inner.trim())
}

/// The title within a rule of dashes, `---------------Time to First Token----------------`.
fn dashed_title(text: &str) -> Option<&str> {
    let inner = text.trim_start_matches('-');
    let lead = text.len() - inner.len();
    let inner = inner.trim_end_matches('-');
    let tail = text.len() - lead - inner.len();
    (lead >= 2 && tail >= 2 && !inner.trim().is_empty()).then(|| inner.trim())
}

/// The title of one of `trtllm-bench`'s sections: a line `= TITLE` that a rule of `=` follows.
fn trt_title<'a>(line: &'a str, next: Option<&str>) -> Option<&'a str> {
    let title = line.trim().strip_prefix("= ")?.trim();
    (!title.is_empty() && next.is_some_and(|n| is_rule(n.trim(), '='))).then_some(title)
}

/// Whether `text` is a rule of `mark` alone, ten or more of them.
fn is_rule(text: &str, mark: char) -> bool {
    text.len() >= 10 && text.chars().all(|c| c == mark)
}

/// The titles over `trtllm-bench`'s table of percentiles, `  Input    Output    Seq. Length`:
/// words parted by runs of two spaces or more, two titles or more, no number among them.
fn column_titles(line: &str) -> Option<Vec<String>> {
    if line.contains(':') {
        return None;
    }
    let titles: Vec<String> = line.split("  ").map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect();
    (titles.len() >= 2 && titles.iter().all(|t| !is_number(t) && t.chars().any(char::is_alphabetic))).then_some(titles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::article::console::testing::laid_out_with_units;

    /// The example of vLLM's documentation (`docs/benchmarking/cli.md` of vllm-project/vllm at
    /// 069c00b0ef0cdfe6b76be33796162a8a4323d69c, Apache-2.0): `vllm bench serve`'s default report.
    const VLLM_DOCS: &str = include_str!("../../tests/fixtures/harness/serving-console/vllm-docs-cli.txt");
    /// vllm-ascend's performance guide (vllm-project/vllm-ascend at
    /// d98e908da3af7992f7c134b0e5809939b427bc54, Apache-2.0): four reports of a sweep over
    /// request rates, values padded with trailing spaces, then `benchmark_latency.py`'s and
    /// `benchmark_throughput.py`'s lines.
    const VLLM_ASCEND: &str = include_str!("../../tests/fixtures/harness/serving-console/vllm-ascend-performance-benchmark.txt");
    /// vLLM's widest report, made here in its layout: failures, the concurrency and rate, peaks,
    /// `--metric-percentiles 50,90,95,99`, end-to-end latency and speculative decoding, after
    /// its log lines and progress bar.
    const VLLM_OWN: &str = include_str!("../../tests/fixtures/harness/serving-console/vllm-own.txt");
    /// SGLang's `bench_serving` and `bench_offline_throughput` reports, made here in their layout.
    const SGLANG_OWN: &str = include_str!("../../tests/fixtures/harness/serving-console/sglang-own.txt");
    /// TensorRT-LLM's benchmarking guide (`docs/source/performance/perf-benchmarking.md` of
    /// NVIDIA/TensorRT-LLM at 04276b44f20b97caa4106ba98f07504da314e5b9, Apache-2.0): a run of an
    /// engine among its log lines, a run of the PyTorch backend, and a multimodal run's newer
    /// report with its latency breakdown and its dataset's percentiles.
    const TRT_ENGINE: &str = include_str!("../../tests/fixtures/harness/serving-console/trtllm-perf-benchmarking-engine.txt");
    const TRT_PYTORCH: &str = include_str!("../../tests/fixtures/harness/serving-console/trtllm-perf-benchmarking-pytorch.txt");
    const TRT_MULTIMODAL: &str = include_str!("../../tests/fixtures/harness/serving-console/trtllm-perf-benchmarking-multimodal.txt");
    /// `trtllm-bench` 0.12's `STATISTICS`, then a newer streaming run with tabs, its breakdowns
    /// and its speculative decoding's statistics, made here in their layouts.
    const TRT_OWN: &str = include_str!("../../tests/fixtures/harness/serving-console/trtllm-own.txt");

    fn find<'a>(code: &'a str, cells: &[ConsoleCell], table: usize, row: &str, column: &str) -> Option<(&'a str, Option<Unit>)> {
        let found: Vec<&ConsoleCell> = cells.iter().filter(|c| c.table == table && c.row_label == row && c.column_label == column).collect();
        assert!(found.len() < 2, "{row} / {column} names {} cells", found.len());
        found.first().map(|c| (&code[c.range.clone()], c.unit.clone()))
    }

    fn other(unit: &str) -> Option<Unit> {
        Some(Unit::Other(unit.into()))
    }

    /// Each (table, row, column) names one cell.
    fn assert_unique(cells: &[ConsoleCell]) {
        let mut seen = std::collections::BTreeSet::new();
        for c in cells {
            assert!(seen.insert((c.table, c.row_label.clone(), c.column_label.clone())), "{} / {} twice", c.row_label, c.column_label);
            assert!(!c.is_name && c.column > 0);
        }
    }

    #[test]
    fn vllm_s_report_is_a_table_of_its_groups() {
        let cells = cells(VLLM_DOCS).unwrap();
        let got = laid_out_with_units(VLLM_DOCS, &cells);
        assert_eq!(got.len(), 7 + 3 * 3);
        let ms = Some(Unit::Ms);
        assert_eq!(
            got[..8],
            [
                (0, 1, "Serving Benchmark Result", "Successful requests", "10", None),
                (0, 1, "Serving Benchmark Result", "Benchmark duration (s)", "5.78", Some(Unit::S)),
                (0, 1, "Serving Benchmark Result", "Total input tokens", "1369", None),
                (0, 1, "Serving Benchmark Result", "Total generated tokens", "2212", None),
                (0, 1, "Serving Benchmark Result", "Request throughput (req/s)", "1.73", other("req/s")),
                (0, 1, "Serving Benchmark Result", "Output token throughput (tok/s)", "382.89", other("tok/s")),
                (0, 1, "Serving Benchmark Result", "Total token throughput (tok/s)", "619.85", other("tok/s")),
                (0, 2, "Time to First Token", "Mean TTFT (ms)", "71.54", ms.clone()),
            ]
        );
        assert_eq!(got[15], (0, 4, "Inter-token Latency", "P99 ITL (ms)", "8.39", ms.clone()));
        assert_eq!(find(VLLM_DOCS, &cells, 0, "Time per Output Token (excl. 1st token)", "Median TPOT (ms)"), Some(("7.96", ms)));
        assert_unique(&cells);
        assert_eq!(super::super::console::cells(VLLM_DOCS).map(|c| c.len()), Some(16), "the console reader finds the layout");
    }

    /// A sweep of four reports in one block is four tables; the offline benchmarks' lines after
    /// them, with no banner, give nothing.
    #[test]
    fn reports_one_after_another_are_tables_of_their_own() {
        let cells = cells(VLLM_ASCEND).unwrap();
        assert_eq!(cells.len(), 4 * 16);
        assert_eq!(cells.iter().map(|c| c.table).max(), Some(3));
        let ttft: Vec<&str> = (0..4).filter_map(|t| find(VLLM_ASCEND, &cells, t, "Time to First Token", "Mean TTFT (ms)")).map(|c| c.0).collect();
        assert_eq!(ttft, ["104.14", "115.62", "128.50", "3394.37"]);
        assert_eq!(find(VLLM_ASCEND, &cells, 3, "Serving Benchmark Result", "Total Token throughput (tok/s)"), Some(("2089.40", other("tok/s"))));
        assert!(!cells.iter().any(|c| c.column_label.contains("Total num") || c.column_label.contains("latency")), "the offline lines are no report");
        for t in 0..4 {
            assert_unique(&cells.iter().filter(|c| c.table == t).cloned().collect::<Vec<_>>());
        }
    }

    /// Every line vLLM prints with its widest options; the arguments echoed before the banner
    /// and the list of each position's acceptance.
    #[test]
    fn vllm_s_widest_report() {
        let cells = cells(VLLM_OWN).unwrap();
        assert_unique(&cells);
        let at = |row: &str, column: &str| find(VLLM_OWN, &cells, 0, row, column);
        let top = "Serving Benchmark Result";
        assert_eq!(at(top, "Failed requests"), Some(("0", None)));
        assert_eq!(at(top, "Maximum request concurrency"), Some(("25", None)));
        assert_eq!(at(top, "Request rate configured (RPS)"), Some(("1.50", other("RPS"))));
        assert_eq!(at(top, "Peak output token throughput (tok/s)"), Some(("1125.00", other("tok/s"))));
        assert_eq!(at(top, "Peak concurrent requests"), Some(("28.00", None)));
        assert_eq!(at("Time to First Token", "P90 TTFT (ms)"), Some(("601.93", Some(Unit::Ms))));
        assert_eq!(at("End-to-end Latency", "P99 E2EL (ms)"), Some(("14388.52", Some(Unit::Ms))));
        assert_eq!(at("Speculative Decoding", "Acceptance rate (%)"), Some(("61.27", Some(Unit::Percent))));
        assert_eq!(at("Speculative Decoding", "Acceptance length"), Some(("2.84", None)));
        assert_eq!(at("Speculative Decoding", "Accepted tokens"), Some(("97259", None)));
        assert_eq!(at("Speculative Decoding", "Per-position acceptance (%) › Position 2"), Some(("44.23", Some(Unit::Percent))));
        assert_eq!(cells.len(), 12 + 4 * 6 + 5 + 3);
        // The settings echoed before the banner are the command's, not results.
        assert!(!cells.iter().any(|c| c.column_label.starts_with("Traffic") || c.column_label.starts_with("Burstiness")));
    }

    /// SGLang's reports: its text values give no cell, `-0.00` is a number, and the offline
    /// benchmark's banner begins a second table.
    #[test]
    fn sglang_s_reports() {
        let cells = cells(SGLANG_OWN).unwrap();
        let at = |table: usize, row: &str, column: &str| find(SGLANG_OWN, &cells, table, row, column);
        let top = "Serving Benchmark Result";
        assert_eq!(at(0, top, "Backend"), None);
        assert_eq!(at(0, top, "Traffic request rate"), None, "inf is no number");
        assert_eq!(at(0, top, "Max request concurrency"), None, "not set");
        assert_eq!(at(0, top, "Total generated tokens (retokenized)"), Some(("6434", None)));
        assert_eq!(at(0, top, "Input token throughput (tok/s)"), Some(("769.39", other("tok/s"))));
        assert_eq!(at(0, top, "Concurrency"), Some(("58.22", None)));
        assert_eq!(at(0, top, "Accept length"), Some(("3.21", None)));
        assert_eq!(at(0, "End-to-End Latency", "P90 E2E Latency (ms)"), Some(("14021.55", Some(Unit::Ms))));
        assert_eq!(at(0, "Time per Output Token (excl. 1st token)", "Median TPOT (ms)"), Some(("-0.00", Some(Unit::Ms))));
        assert_eq!(at(0, "Inter-Token Latency", "Max ITL (ms)"), Some(("412.35", Some(Unit::Ms))));
        assert_eq!(at(1, "Offline Throughput Benchmark Result", "Last generation throughput (tok/s)"), Some(("0.00", other("tok/s"))));
        assert_eq!(at(1, "Offline Throughput Benchmark Result", "Benchmark duration (s)"), Some(("15.48", Some(Unit::S))));
        assert_eq!(cells.iter().filter(|c| c.table == 0).count(), 15 + 4 + 3 + 3 + 5);
        assert_eq!(cells.iter().filter(|c| c.table == 1).count(), 9);
        assert_unique(&cells.iter().filter(|c| c.table == 0).cloned().collect::<Vec<_>>());
    }

    /// `trtllm-bench`'s sections are the rows of one table; names, versions and text give no
    /// cell; a percentage and an exponent are read as printed; the log lines around give none.
    #[test]
    fn trtllm_bench_s_sections_are_rows() {
        let cells = cells(TRT_ENGINE).unwrap();
        assert_unique(&cells);
        let got = laid_out_with_units(TRT_ENGINE, &cells);
        let rows: Vec<(&str, &str, &str)> = got.iter().map(|c| (c.2, c.3, c.4)).collect();
        assert_eq!(
            rows,
            [
                ("ENGINE DETAILS", "Max Input Length", "256"),
                ("ENGINE DETAILS", "Max Sequence Length", "256"),
                ("WORLD + RUNTIME INFORMATION", "TP Size", "1"),
                ("WORLD + RUNTIME INFORMATION", "PP Size", "1"),
                ("WORLD + RUNTIME INFORMATION", "Max Runtime Batch Size", "4096"),
                ("WORLD + RUNTIME INFORMATION", "Max Runtime Tokens", "8192"),
                ("WORLD + RUNTIME INFORMATION", "KV Memory Percentage", "90.00%"),
                ("WORLD + RUNTIME INFORMATION", "Issue Rate (req/sec)", "5.0689E+14"),
                ("PERFORMANCE OVERVIEW", "Number of requests", "3000"),
                ("PERFORMANCE OVERVIEW", "Average Input Length (tokens)", "128.0000"),
                ("PERFORMANCE OVERVIEW", "Average Output Length (tokens)", "128.0000"),
                ("PERFORMANCE OVERVIEW", "Token Throughput (tokens/sec)", "28390.4265"),
                ("PERFORMANCE OVERVIEW", "Request Throughput (req/sec)", "221.8002"),
                ("PERFORMANCE OVERVIEW", "Total Latency (ms)", "13525.6862"),
            ]
        );
        assert!(got.iter().all(|c| c.0 == 0));
        let unit = |column: &str| got.iter().find(|c| c.3 == column).and_then(|c| c.5.clone());
        assert_eq!(unit("KV Memory Percentage"), Some(Unit::Percent));
        assert_eq!(unit("Issue Rate (req/sec)"), other("req/sec"));
        assert_eq!(unit("Token Throughput (tokens/sec)"), other("tokens/sec"));
        assert_eq!(unit("Total Latency (ms)"), Some(Unit::Ms));
        assert_eq!(unit("Average Input Length (tokens)"), None);
        let cells = super::cells(TRT_PYTORCH).unwrap();
        assert_eq!(cells.len(), 12, "the backend's section holds names alone");
        assert_eq!(find(TRT_PYTORCH, &cells, 0, "PERFORMANCE OVERVIEW", "Total Latency (ms)"), Some(("18563.6825", Some(Unit::Ms))));
    }

    /// The newer report: a subsection's unit for its lines, and the dataset's table of
    /// percentiles under its titles.
    #[test]
    fn trtllm_bench_s_breakdowns_and_percentiles() {
        let cells = cells(TRT_MULTIMODAL).unwrap();
        assert_unique(&cells);
        let at = |row: &str, column: &str| find(TRT_MULTIMODAL, &cells, 0, row, column);
        assert_eq!(at("REQUEST DETAILS", "Number of concurrent requests"), Some(("5.3019", None)));
        assert_eq!(at("WORLD + RUNTIME INFORMATION", "EP Size"), None);
        assert_eq!(at("PERFORMANCE OVERVIEW", "Per User Output Throughput (tokens/sec/user)"), Some(("38.1959", other("tokens/sec/user"))));
        assert_eq!(at("PERFORMANCE OVERVIEW", "[Latency] P90"), Some(("5514.4701", Some(Unit::Ms))));
        assert_eq!(at("PERFORMANCE OVERVIEW", "[Latency] MINIMUM"), Some(("2397.1047", Some(Unit::Ms))));
        assert_eq!(at("DATASET DETAILS", "Number of Sequences"), Some(("10", None)));
        assert_eq!(at("DATASET DETAILS", "Input › MAX"), Some(("1059.0000", None)));
        assert_eq!(at("DATASET DETAILS", "Seq. Length › P50"), Some(("427.0000", None)));
        assert_eq!(cells.len(), 4 + 6 + 14 + 1 + 7 * 3);
        let cut = TRT_MULTIMODAL.replace("P99:  1059.0000           137.0000          1178.0000", "P99:  1059.0000").replace("P95:  1059.0000", "P95:  1 2 3 1059.0000");
        let cells = super::cells(&cut).unwrap();
        let row =
            |stat: &str| cells.iter().filter(|c| c.column_label.ends_with(&format!("› {stat}"))).map(|c| (c.column_label.as_str(), &cut[c.range.clone()])).collect::<Vec<_>>();
        assert_eq!(row("P99"), [("Input › P99", "1059.0000")]);
        assert_eq!(row("P95"), [], "more values than titles");
    }

    /// 0.12's `STATISTICS` in seconds with a lowercase exponent, then a second report in the same
    /// block: tabs, each breakdown in its subsection's unit, the decoding statistics' counts.
    #[test]
    fn trtllm_bench_s_older_and_newer_reports() {
        let cells = cells(TRT_OWN).unwrap();
        let at = |table: usize, row: &str, column: &str| find(TRT_OWN, &cells, table, row, column);
        assert_eq!(at(0, "STATISTICS", "Total Latency (seconds)"), Some(("17.555620521", Some(Unit::S))));
        assert_eq!(at(0, "WORLD + RUNTIME INFORMATION", "Issue Rate (req/sec)"), Some(("3.680275266452667e+18", other("req/sec"))));
        assert_eq!(at(0, "WORLD + RUNTIME INFORMATION", "KV Memory Percentage"), Some(("99.0%", Some(Unit::Percent))));
        assert_eq!(at(0, "ENGINE DETAILS", "Max Input Length"), Some(("2048", None)));
        assert_eq!(cells.iter().filter(|c| c.table == 0).count(), 2 + 6 + 6);
        // The log lines between the two reports part them.
        assert_eq!(at(1, "PERFORMANCE OVERVIEW", "Request Throughput (req/sec)"), Some(("5.9214", other("req/sec"))));
        assert_eq!(at(1, "PERFORMANCE OVERVIEW", "Per User Output Throughput [w/ ctx] (tps/user)"), Some(("47.4902", other("tps/user"))));
        assert_eq!(at(1, "PERFORMANCE OVERVIEW", "Average time-to-first-token [TTFT] (ms)"), Some(("2116.0441", Some(Unit::Ms))));
        assert_eq!(at(1, "PERFORMANCE OVERVIEW", "[TTFT] P99"), Some(("5201.8831", Some(Unit::Ms))));
        assert_eq!(at(1, "PERFORMANCE OVERVIEW", "[GTPS] AVERAGE"), Some(("49.9016", other("tps/user"))));
        assert_eq!(at(1, "DECODING STATISTICS (MTP)", "[DT] MAXIMUM"), Some(("1536.00", None)));
        assert_eq!(at(1, "DECODING STATISTICS (MTP)", "[DAR] P50"), Some(("0.70", None)));
        assert_eq!(at(1, "DATASET DETAILS", "Output › P99"), Some(("2048.0000", None)));
        assert_eq!(at(1, "MACHINE DETAILS", "memory"), None);
        assert_eq!(cells.iter().filter(|c| c.table == 1).count(), 4 + 7 + 10 + 4 * 7 + 4 * 7 + 1 + 7 * 3);
        assert_unique(&cells.iter().filter(|c| c.table == 1).cloned().collect::<Vec<_>>());
    }

    /// The console reader reads every sample as this layout: no layout before it in the chain
    /// takes these blocks for its own.
    #[test]
    fn no_earlier_layout_takes_these_blocks() {
        for sample in [VLLM_DOCS, VLLM_ASCEND, VLLM_OWN, SGLANG_OWN, TRT_ENGINE, TRT_PYTORCH, TRT_MULTIMODAL, TRT_OWN] {
            assert_eq!(super::super::console::cells(sample), super::cells(sample));
        }
    }

    /// Only a harness's banner or sections open a report: other blocks of `key: value` lines,
    /// other programs' banners, and vLLM's lines pasted without their banner give nothing. A
    /// section title that comes again begins another report.
    #[test]
    fn only_the_harnesses_reports_are_read() {
        for code in [
            "Successful requests: 10\nBenchmark duration (s): 5.78\nMean TTFT (ms): 71.54\n",
            "=== PERFORMANCE OVERVIEW ===\nAverage FPS: 59.8\nCPU Usage: 12.5%\n",
            "======= Benchmark Result =======\nRequests: 10\n",
            "===========================================================\n= ENGINE DETAILS\n===========================================================\nMax Input Length: 2048\n",
            "= PERFORMANCE OVERVIEW\nRequest Throughput (req/sec): 1.2\n",
            "Avg latency: 4.944929537673791 seconds\nThroughput: 4.64 requests/s, 2000.51 total tokens/s\nTotal num prompt tokens:  42659\n",
        ] {
            assert_eq!(super::cells(code), None, "{code}");
        }
        let rule = "=".repeat(59);
        let once = format!("--- run-1.out ---\n= PERFORMANCE OVERVIEW \n{rule}\nRequest Throughput (req/sec):  16.2583\n\n");
        let twice = format!("{once}{}", once.replace("run-1", "run-2").replace("16.2583", "16.4733"));
        let cells = super::cells(&twice).unwrap();
        assert_eq!(cells.iter().map(|c| (c.table, &twice[c.range.clone()])).collect::<Vec<_>>(), [(0, "16.2583"), (1, "16.4733")]);
        let back_to_back = format!("{rule}\n= PERFORMANCE OVERVIEW\n{rule}\nTotal Latency (ms): 1.5\n{rule}\n= PERFORMANCE OVERVIEW\n{rule}\nTotal Latency (ms): 2.5\n");
        assert_eq!(super::cells(&back_to_back).unwrap().iter().map(|c| c.table).collect::<Vec<_>>(), [0, 1]);
        // A banner that no value follows makes no table.
        let empty_then_one = format!("============ Serving Benchmark Result ============\nBackend: vllm\n{}\n{VLLM_DOCS}", "=".repeat(50));
        assert!(super::cells(&empty_then_one).unwrap().iter().all(|c| c.table == 0));
    }

    /// A report ends at its closing rule, at a blank line or at a line of another shape; a label
    /// that a group repeats gets a column of its own.
    #[test]
    fn a_report_ends_where_its_lines_do() {
        let code = "============ Serving Benchmark Result ============\nSuccessful requests:   10\n\nTotal input tokens:   1369\n";
        assert_eq!(super::cells(code).unwrap().len(), 1);
        let code = "============ Serving Benchmark Result ============\nSuccessful requests:   10\nINFO the server stopped\nTotal input tokens:   1369\n";
        assert_eq!(super::cells(code).unwrap().len(), 1);
        let code = "============ Serving Benchmark Result ============\nDrafts:   10\nDrafts:   12\n";
        let cells = super::cells(code).unwrap();
        assert_eq!(cells.iter().map(|c| (c.column, &code[c.range.clone()])).collect::<Vec<_>>(), [(1, "10"), (2, "12")]);
    }

    /// Lines cut anywhere, odd spacing and characters of several bytes next to the layout's
    /// marks: no panic, and every cell points at a number.
    #[test]
    fn cut_and_odd_lines_never_panic() {
        for sample in [VLLM_OWN, SGLANG_OWN, TRT_OWN, TRT_MULTIMODAL] {
            for end in (0..=sample.len()).step_by(7).filter(|&k| sample.is_char_boundary(k)) {
                let code = &sample[..end];
                for cell in super::cells(code).unwrap_or_default() {
                    assert!(is_number(&code[cell.range.clone()]), "{:?}", &code[cell.range.clone()]);
                }
            }
        }
        for code in [
            "=",
            "= ",
            "= \n=",
            "==========µ Serving Benchmark Result ==========\n",
            "====== Serving Benchmark Result ======\n:\n: 1\nµ: 1\n  é:\n   ä: 2%\n",
            "---------µ---------\n",
            "------------\n= STATISTICS\n==========\n-- (ms\n—: 1e\nMIN: 1 2\n  é  ü  \nMIN: 1 2\n",
            "= STATISTICS\u{2028}\n==========\r\nTotal Latency (ms):\t\t1.5\r\n",
            "====== Serving Benchmark Result ======\nPer-position acceptance (%):\n  Position 0: 1.0\nDrafts: 3\n",
        ] {
            for cell in super::cells(code).unwrap_or_default() {
                assert!(is_number(&code[cell.range.clone()]), "{code:?}");
            }
        }
        assert!(is_number("-0.00") && is_number("3.680275266452667e+18") && is_number("5.0689E+14") && is_number("99.0%") && is_number("7."));
        assert!(!is_number("inf") && !is_number("None") && !is_number("0.12.0") && !is_number("e5") && !is_number("1e") && !is_number("%") && !is_number("-") && !is_number(".5"));
    }
}
