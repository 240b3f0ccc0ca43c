//! Benchmark tables printed by a harness and pasted into an article as a code block. Code is
//! not prose, but Google Benchmark's console table is how its users quote their results:
//!
//! ```text
//! ----------------------------------------------------------------------
//! Benchmark                            Time             CPU   Iterations
//! ----------------------------------------------------------------------
//! is_sorted_by_hand                 2842 ns         2888 ns       248889
//! ```
//!
//! Left out, every number of such a table went unread: nothing to bind, nothing unbound, an
//! article whose results were all in code audited as holding none. This module finds that
//! layout (a header line `Benchmark Time CPU Iterations`, then one row per benchmark) and
//! gives each row's cells as a Markdown table's would be: the row named by the benchmark's
//! name, each value under its column's header. Any other code block stays code.

use std::ops::Range;

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
}

/// The whitespace-separated tokens of `line`, as byte ranges of it.
fn tokens(line: &str) -> Vec<Range<usize>> {
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
    let mut at = 0;
    for line in code.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let text = line.trim_end_matches(['\n', '\r']);
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
            table,
            row,
            column,
            row_label: label.clone(),
            column_label: h.get(column).cloned().unwrap_or_default(),
            range,
            is_name,
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

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "----------------------------------------------------------------------
Benchmark                            Time             CPU   Iterations
----------------------------------------------------------------------
noop                             0.000 ns        0.000 ns   1000000000
is_sorted_by_hand                 2842 ns         2888 ns       248889
";

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
}
