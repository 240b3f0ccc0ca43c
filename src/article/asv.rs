//! airspeed velocity's comparison table, as pull requests and release notes of Python projects
//! (NumPy, SciPy, pandas, astropy) quote it: what `asv compare` and `asv continuous` print, a
//! GitHub Markdown table since asv 0.6.
//!
//! ```text
//! | Change   | Before [7d98489b] <master~1>   | After [b444ec0a] <master>   | Ratio   | Benchmark (Parameter)                        |
//! |----------|--------------------------------|-----------------------------|---------|----------------------------------------------|
//! | +        | 2.39±0.03μs                    | 3.06±0.5μs                  | 1.28    | bench_sort.Sorting.time_sorted(100, 'int')   |
//! |          | 24.7M                          | 24.7M                       | 1.00    | bench_sort.Sorting.peakmem_sorted(100, 'int') |
//! ```
//!
//! Three things set it apart from any table. A row is named by its last column, the benchmark
//! and its parameters as the `asv` evidence reader's `name` field writes them, not by its first,
//! which holds only asv's mark (`+` slower, `-` faster, `x` not comparable); that last column
//! measures nothing (its `100` is a parameter) and is no cell. The values carry their own
//! units, but a size does not say it is one: asv prints a memory benchmark's (`mem_`,
//! `peakmem_`) bytes with a decimal prefix and no symbol (`24.7M`, `8.06k`; `human_file_size`
//! in asv's `util.py`), so in such a row a value is in bytes. And `Ratio` is after over before,
//! a multiple (`~1.05` where asv finds the change not significant).

use std::ops::Range;

use super::console::{ConsoleCell, lines, pipe_cells};
use crate::article::numbers::Unit;
use crate::evidence::readers::asv::measures_memory;

/// Where the columns of asv's comparison table stand in a table's headers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    /// The `Benchmark (Parameter)` column, which names the row.
    name: usize,
    /// The `Ratio` column.
    ratio: usize,
}

impl Layout {
    /// The layout of `headers`, or `None` when they are not asv's: `Change` first, a `Ratio`,
    /// and a last column that names the benchmark (`Benchmark (Parameter)`).
    pub(crate) fn of(headers: &[String]) -> Option<Layout> {
        let label = |k: usize| headers.get(k).map(|h| h.trim());
        if label(0) != Some("Change") || headers.len() < 3 {
            return None;
        }
        let name = headers.len() - 1;
        if !label(name).is_some_and(|h| h.starts_with("Benchmark")) {
            return None;
        }
        let ratio = headers.iter().position(|h| h.trim() == "Ratio")?;
        Some(Layout { name, ratio })
    }

    /// A row's label from its cells' texts by column: the benchmark with its parameters.
    pub(crate) fn row_label(&self, cell: impl Fn(usize) -> Option<String>) -> String {
        cell(self.name).unwrap_or_default()
    }

    /// Whether a column names the row and measures nothing.
    pub(crate) fn names_row(&self, column: usize) -> bool {
        column == self.name
    }

    /// The unit a value cell of the row `label` takes where its numbers write none: bytes for
    /// a memory benchmark, a multiple in the `Ratio` column, else none (a tracking benchmark's
    /// value is in a unit the table does not state).
    pub(crate) fn unit(&self, column: usize, label: &str) -> Option<Unit> {
        if column == self.ratio {
            return Some(Unit::Times);
        }
        if column == self.name { None } else { memory_unit(label) }
    }
}

/// The unit of a value of the benchmark `label` where it writes none: bytes for a memory
/// benchmark (`mem_`, `peakmem_`), whose sizes asv prints with a decimal prefix and no symbol.
fn memory_unit(label: &str) -> Option<Unit> {
    measures_memory(label).then_some(Unit::Bytes)
}

/// The cells of asv's comparison tables printed in `code`, or `None` when it holds none: the
/// Markdown table asv 0.6 prints, pasted as code, and the layout asv printed before 0.6, which
/// pull requests of NumPy, SciPy and pandas quote by the thousand:
///
/// ```text
///        before           after         ratio
///      [7d98489b]       [b444ec0a]
///      <master~1>       <master>
/// +      2.39±0.03μs      3.06±0.5μs     1.28  bench_sort.Sorting.time_sorted(100, 'int')
/// ```
///
/// A row is named by its benchmark and parameters, the rest of its line after the ratio (column
/// 0, a name); its values are columns 1 and 2 under `before` and `after` (the Markdown table's
/// own headers where it is one), its ratio column 3, a multiple. asv's mark (`+`, `-`, `x`, `!`)
/// opens the line where it has one. Every other line stays code.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut tables = 0;
    let mut table: Option<(usize, [String; 3], usize)> = None;
    let mut markdown: Option<(usize, Vec<String>, Layout, usize)> = None;
    for (start, text) in lines(code) {
        let abs = |r: Range<usize>| start + r.start..start + r.end;
        let words: Vec<&str> = text.split_whitespace().collect();
        if words == ["before", "after", "ratio"] {
            table = Some((tables, ["before".into(), "after".into(), "ratio".into()], 0));
            markdown = None;
            tables += 1;
            continue;
        }
        if text.trim_start().starts_with('|') {
            let pipes = pipe_cells(text).unwrap_or_default();
            let names: Vec<String> = pipes.iter().map(|r| text[r.clone()].trim().to_string()).collect();
            if let Some(layout) = Layout::of(&names) {
                markdown = Some((tables, names, layout, 0));
                table = None;
                tables += 1;
                continue;
            }
            if let Some((t, headers, layout, row)) = &mut markdown {
                if names.iter().all(|n| n.chars().all(|c| matches!(c, '-' | ':'))) {
                    continue;
                }
                if names.len() != headers.len() {
                    markdown = None;
                    continue;
                }
                *row += 1;
                let label = names[layout.name].clone();
                for (k, range) in pipes.iter().enumerate() {
                    if k == 0 || names[k].is_empty() {
                        continue;
                    }
                    let column = if layout.names_row(k) { 0 } else { k };
                    let unit = if column == 0 { None } else { layout.unit(k, &label) };
                    let cell = ConsoleCell { unit, ..ConsoleCell::plain(*t, *row, column, &label, &headers[k], abs(range.clone())) };
                    cells.push(cell);
                }
                continue;
            }
            continue;
        }
        markdown = None;
        let Some((t, headers, row)) = &mut table else { continue };
        // The commits and branches under the header.
        if words.iter().all(|w| (w.starts_with('[') && w.ends_with(']')) || (w.starts_with('<') && w.ends_with('>'))) && !words.is_empty() {
            continue;
        }
        let Some(parsed) = old_row(text) else {
            if !text.trim().is_empty() {
                table = None;
            }
            continue;
        };
        *row += 1;
        let label = text[parsed.name.clone()].to_string();
        cells.push(ConsoleCell::plain(*t, *row, 0, &label, "benchmark", abs(parsed.name.clone())));
        for (k, range) in [parsed.before, parsed.after].into_iter().enumerate() {
            cells.push(ConsoleCell { unit: memory_unit(&label), ..ConsoleCell::plain(*t, *row, k + 1, &label, &headers[k], abs(range)) });
        }
        cells.push(ConsoleCell { unit: Some(Unit::Times), ..ConsoleCell::plain(*t, *row, 3, &label, &headers[2], abs(parsed.ratio)) });
    }
    (!cells.is_empty()).then_some(cells)
}

/// The places of one row of the layout before asv 0.6, in its line.
struct OldRow {
    before: Range<usize>,
    after: Range<usize>,
    ratio: Range<usize>,
    name: Range<usize>,
}

/// A row of the layout before asv 0.6: an optional mark, the two values (`failed` and `n/a`
/// where there is none), the ratio (`~` before it where not significant, `n/a`), then the
/// benchmark's name to the end of the line.
fn old_row(line: &str) -> Option<OldRow> {
    let mut tokens = Vec::new();
    let mut at = 0;
    while tokens.len() < 5 {
        let rest = &line[at..];
        let lead = rest.len() - rest.trim_start().len();
        let begin = at + lead;
        if begin >= line.len() {
            break;
        }
        let end = line[begin..].find(char::is_whitespace).map_or(line.len(), |k| begin + k);
        tokens.push(begin..end);
        at = end;
    }
    let word = |r: &Range<usize>| &line[r.clone()];
    let marked = tokens.first().is_some_and(|r| matches!(word(r), "+" | "-" | "x" | "!" | "*"));
    let values = &tokens[usize::from(marked)..];
    let [before, after, ratio, first_of_name, ..] = values else { return None };
    let is_value = |w: &str| w == "failed" || w == "n/a" || w.starts_with(|c: char| c.is_ascii_digit());
    let is_ratio = |w: &str| w == "n/a" || w.trim_start_matches('~').parse::<f64>().is_ok();
    if !(is_value(word(before)) && is_value(word(after)) && is_ratio(word(ratio))) {
        return None;
    }
    Some(OldRow { before: before.clone(), after: after.clone(), ratio: ratio.clone(), name: first_of_name.start..line.trim_end().len() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::article::Article;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/harness/asv/compare.txt");

    fn headers(line: &str) -> Vec<String> {
        line.trim().trim_matches('|').split('|').map(|h| h.trim().to_string()).collect()
    }

    /// asv 0.5.1's own comparison of the fixture's two commits, and asv 0.6.6's Markdown table
    /// pasted as code: the same cells, each named by its benchmark and parameters.
    #[test]
    fn a_comparison_in_a_code_block_is_read_in_either_layout() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/harness/asv");
        for file in ["compare-asv-0.5.1.txt", "compare.txt"] {
            let code = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
            let found = cells(&code).unwrap_or_else(|| panic!("{file}"));
            let at = |row: &str, column: usize| {
                let c = found.iter().find(|c| c.row_label == row && c.column == column).unwrap_or_else(|| panic!("{file}: {row} {column}"));
                (code[c.range.clone()].to_string(), c.unit.clone())
            };
            let row = "bench_sort.Sorting.time_sorted(100, 'int')";
            assert_eq!(at(row, 1), ("2.39±0.03μs".to_string(), None), "{file}");
            assert_eq!(at(row, 2), ("3.06±0.5μs".to_string(), None), "{file}");
            assert_eq!(at(row, 3), ("1.28".to_string(), Some(Unit::Times)), "{file}");
            assert!(found.iter().any(|c| c.row_label == row && c.column == 0 && c.is_name), "{file}");
            assert_eq!(at("bench_sort.mem_list", 1), ("8.06k".to_string(), Some(Unit::Bytes)), "{file}");
            assert_eq!(at("bench_sort.Edge.time_maybe(3)", 1).0, "failed", "{file}");
            let rows: std::collections::BTreeSet<&str> = found.iter().map(|c| c.row_label.as_str()).collect();
            assert_eq!(rows.len(), 18, "{file}");
        }
        assert!(cells("       before           after         ratio\nnothing here\n").is_none());
        assert!(cells("| Change | Before | After | Ratio | Notes |\n|---|---|---|---|---|\n| | 1 | 2 | 2.00 | x |\n").is_none());
    }

    /// asv_spyglass's `compare --split` (MIT; its test's approved output, tests/fixtures'
    /// SOURCE.md), three of asv's tables one after another as Markdown: every row is named by
    /// its last column as printed, environments and all, and its values read in their units.
    #[test]
    fn asv_spyglass_s_tables_are_read_as_asv_s() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/harness/asv/spyglass/test_results.test_do_compare_split.approved.txt")).unwrap();
        let a = Article::parse("a.md", format!("# Results\n\n{text}").as_bytes()).unwrap();
        let values: Vec<_> = a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0)).collect();
        let rows: std::collections::BTreeSet<(usize, &str)> = values.iter().filter_map(|s| s.cell.as_ref()).map(|c| (c.table, c.row_label.as_str())).collect();
        assert_eq!(rows.len(), 5 + 5 + 6);
        let row = "benchmarks.time_sort(100) [rgx1gen11/virtualenv-py3.12-numpy -> rgx1gen11/rattler-py3.12-numpy]";
        let cell = |column: &str| values.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == row && c.column_label == column)).unwrap();
        let read = |column: &str| cell(column).numbers.iter().map(|n| (n.value, n.unit.clone())).collect::<Vec<_>>();
        assert_eq!(read("Before"), [(1.83, Some(Unit::Us)), (0.01, Some(Unit::Us))]);
        assert_eq!(read("Ratio"), [(0.89, Some(Unit::Times))]);
        assert!(!values.iter().any(|s| s.cell.as_ref().is_some_and(|c| c.column_label.starts_with("Benchmark"))));
    }

    #[test]
    fn asv_s_headers_are_told_apart() {
        let asv = headers("| Change   | Before [7d98489b] <master~1>   | After [b444ec0a] <master>   | Ratio   | Benchmark (Parameter)   |");
        assert_eq!(Layout::of(&asv), Some(Layout { name: 4, ratio: 3 }));
        assert_eq!(Layout::of(&headers("| Change | Before | After | Ratio | Notes |")), None);
        assert_eq!(Layout::of(&headers("| Method | Mean | Ratio | Benchmark |")), None);
        assert_eq!(Layout::of(&headers("| Change | Benchmark |")), None);
    }

    /// asv's own output (`asv compare` of the fixture's two commits), pasted as a Markdown
    /// table: every value cell is named by its benchmark and parameters, sizes are bytes,
    /// ratios multiples, and the names' parameters are no numbers of the article.
    #[test]
    fn a_comparison_table_names_rows_by_benchmark_and_reads_sizes_in_bytes() {
        let compare = std::fs::read_to_string(FIXTURE).unwrap();
        let table: String = compare.lines().skip_while(|l| !l.starts_with("| Change")).map(|l| format!("{l}\n")).collect();
        let a = Article::parse("a.md", format!("# Results\n\n{table}").as_bytes()).unwrap();
        let cell = |row: &str, column: &str| {
            a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == row && c.column_label.starts_with(column))).unwrap_or_else(|| panic!("{row} › {column}"))
        };
        let read = |row: &str, column: &str| cell(row, column).numbers.iter().map(|n| (n.value, n.unit.clone())).collect::<Vec<_>>();
        assert_eq!(read("bench_sort.Sorting.time_sorted(100, 'int')", "Before"), [(2.39, Some(Unit::Us)), (0.03, Some(Unit::Us))]);
        assert_eq!(read("bench_sort.Sorting.time_sorted(100, 'int')", "Ratio"), [(1.28, Some(Unit::Times))]);
        assert_eq!(read("bench_sort.Sorting.peakmem_sorted(10000, 'float')", "Before"), [(24.8e6, Some(Unit::Bytes))]);
        assert_eq!(read("bench_sort.mem_list", "After"), [(8.06e3, Some(Unit::Bytes))]);
        // A tracking benchmark's value states no unit; a failed or skipped one holds no number.
        assert_eq!(read("bench_sort.track_answer", "Before"), [(42.0, None)]);
        assert!(read("bench_sort.Edge.time_maybe(3)", "Before").is_empty());
        // The benchmark's column is no cell, and its parameters no numbers.
        assert!(!a.sentences.iter().any(|s| s.cell.as_ref().is_some_and(|c| c.row > 0 && c.column_label.starts_with("Benchmark"))));
        let rows: std::collections::BTreeSet<&str> = a.sentences.iter().filter_map(|s| s.cell.as_ref()).filter(|c| c.row > 0).map(|c| c.row_label.as_str()).collect();
        assert_eq!(rows.len(), 18);
    }
}
