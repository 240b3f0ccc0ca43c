//! NVIDIA's profilers' console tables, as GPU articles paste them into code blocks and quote
//! their numbers ("Duration 27.01 ms", "DRAM Throughput 86.36 %"): Nsight Compute's sections
//! and Nsight Systems' `nsys stats` reports. This module reads their cells; it never judges
//! what a metric means.
//!
//! Nsight Compute (`ncu`) prints each section of each kernel launch as a table between dashed
//! rules, every value with its unit in a column of its own:
//!
//! ```text
//!   saxpy(int, float, const float *, float *) (256, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
//!     Section: GPU Speed Of Light Throughput
//!     ----------------------- ----------- ------------
//!     Metric Name             Metric Unit Metric Value
//!     ----------------------- ----------- ------------
//!     Elapsed Cycles                cycle        5,947
//!     Duration                         us         3.04
//!     ----------------------- ----------- ------------
//! ```
//!
//! and with `--print-summary per-kernel` the same table with `Minimum`, `Maximum` and
//! `Average` columns in place of `Metric Value`. Nsight Systems prints each `nsys stats` report
//! as a header over a dashed rule, each column's unit in its header and the name last:
//!
//! ```text
//!  Time (%)  Total Time (ns)  Instances   Avg (ns)   …  StdDev (ns)   Style      Range
//!  --------  ---------------  ---------  -----------   -----------  -------  ------------
//!      95.0        3,481,709          1  3,481,709.0           0.0  PushPop  Profile_Loop
//! ```
//!
//! Both tables are read by the columns their dashed rule marks out, not by words: a metric's
//! name (`L1/TEX Cache Throughput`), a kernel's (`void sbd::MultAlphaBeta<double>(double*,
//! double const*)`) and an operation's (`[CUDA memcpy Host-to-Device]`) hold spaces, and a
//! metric may have no unit (`Waves Per SM`). A word belongs to the rightmost column whose rule
//! starts at or before the word's last character, which places a right-aligned value wider than
//! its rule and a left-aligned name longer than its rule alike.
//!
//! Each table is a table of the code block. A row is named by its metric (Nsight Compute) or by
//! its name column (Nsight Systems: `Name`, `Range` or `Operation`); each value that is a number
//! is a cell under its column's header, in the unit its row's `Metric Unit` states (Nsight
//! Compute) or its header states in parentheses (Nsight Systems, `Total Time (ns)`). The name
//! and unit columns name the row and give no cell, as BenchmarkDotNet's parameter columns do,
//! and neither does a text column (`Style`) or a value that is no number (`no data`).
//!
//! A unit the number reader knows (`us`, `msecond`, `Gbyte/s`, `%`, `Ghz`, `cycle/nsecond`)
//! converts as any other, so the console's `2.62 Ghz` is the `hz` its CSV prints for the same
//! metric; any other (`cycle`, `sector`, `inst/cycle`) is a free unit that matches only itself,
//! as Go's `allocs/op` is (see `console::go_bench_cells`). A free unit is kept rather than
//! dropped because it still says what the number counts: a registry that declares
//! `unit = "cycle"` binds it, and a check whose evidence has no unit is judged on the value
//! alone.
//!
//! What a table does not carry: the kernel launch and section a table belongs to are printed on
//! the lines above it, and an article's table has no caption to hold them. Tables of the same
//! section for several launches share their rows and columns, and a claim tells them apart by
//! their place, `table = N`, as `init` and `suggest` write it.

use std::ops::Range;

use super::console::{ConsoleCell, lines};
use super::numbers::{Unit, unit_in_label};
use crate::evidence::readers::ruled::{columns, labels, rule_of, words};

/// The headers that name an Nsight Systems report's rows: its last column.
const NAME_HEADERS: &[&str] = &["Name", "Range", "Operation"];

/// The cells of the Nsight Compute and Nsight Systems console tables in `code`, or `None` when
/// it holds none.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let all: Vec<(usize, &str)> = lines(code).collect();
    let mut cells = Vec::new();
    let mut table = 0;
    let mut k = 0;
    while k < all.len() {
        let found = ncu_table(&all, k).or_else(|| nsys_table(&all, k));
        let Some((kind, rule, labels, first_row)) = found else {
            k += 1;
            continue;
        };
        let mut row = 0;
        k = first_row;
        while let Some(&(start, text)) = all.get(k) {
            // A blank line or a rule ends the table; Nsight Compute closes each with a rule.
            if text.trim().is_empty() || rule_of(text).is_some() {
                break;
            }
            row += 1;
            k += 1;
            let by_column = columns(text, &rule);
            let text_of = |c: usize| by_column.get(c).and_then(Option::as_ref).map_or(String::new(), |r| words(&text[r.clone()]));
            let (label, unit) = match kind {
                Kind::Ncu => {
                    let unit = text_of(1);
                    (text_of(0), (!unit.is_empty()).then(|| Unit::declared(&unit).ok()).flatten())
                }
                Kind::Nsys => (text_of(rule.len() - 1), None),
            };
            let values = match kind {
                Kind::Ncu => 2..rule.len(),
                Kind::Nsys => 0..rule.len() - 1,
            };
            for column in values {
                let Some(range) = by_column.get(column).cloned().flatten() else { continue };
                if !is_number(&text[range.clone()]) {
                    continue;
                }
                let column_label = labels.get(column).cloned().unwrap_or_default();
                let unit = match kind {
                    Kind::Ncu => unit.clone(),
                    Kind::Nsys => unit_in_label(&column_label),
                };
                cells.push(ConsoleCell { is_name: false, unit, ..ConsoleCell::plain(table, row, column, &label, &column_label, start + range.start..start + range.end) });
            }
        }
        table += 1;
    }
    if cells.is_empty() { None } else { Some(cells) }
}

/// Which profiler printed a table, which says where its name and units are.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// Nsight Compute: the metric's name first, its unit second, then the values.
    Ncu,
    /// Nsight Systems: the values first, each header stating its unit, the name last.
    Nsys,
}

/// A table the lines from `k` start: its kind, its columns' extents, their headers, and the
/// line its first row is on.
type Found = (Kind, Vec<Range<usize>>, Vec<String>, usize);

/// An Nsight Compute table at line `k`: a rule, the header `Metric Name  Metric Unit  …`, and
/// the same rule again. At least one column of values follows the unit's.
fn ncu_table(all: &[(usize, &str)], k: usize) -> Option<Found> {
    let rule = rule_of(all.get(k)?.1).filter(|r| r.len() >= 3)?;
    let header = all.get(k + 1)?.1;
    if rule_of(all.get(k + 2)?.1).as_ref() != Some(&rule) {
        return None;
    }
    let labels = labels(header, &rule);
    (labels[0] == "Metric Name" && labels[1] == "Metric Unit" && labels[2..].iter().all(|l| !l.is_empty())).then_some((Kind::Ncu, rule, labels, k + 3))
}

/// An Nsight Systems report at line `k`: a header over a rule, the last header naming the
/// rows (`Name`, `Range`, `Operation`) and at least one stating a unit in parentheses (`Total
/// Time (ns)`, or `Time(%)` as older versions print it), so that another tool's table over a
/// rule is not taken for one.
fn nsys_table(all: &[(usize, &str)], k: usize) -> Option<Found> {
    let header = all.get(k)?.1;
    if header.trim().is_empty() || rule_of(header).is_some() {
        return None;
    }
    let rule = rule_of(all.get(k + 1)?.1).filter(|r| r.len() >= 2)?;
    let labels = labels(header, &rule);
    let named = labels.last().is_some_and(|l| NAME_HEADERS.contains(&l.as_str()));
    let measured = labels.iter().any(|l| unit_in_label(l).is_some());
    (named && measured && labels.iter().all(|l| !l.is_empty())).then_some((Kind::Nsys, rule, labels, k + 2))
}

/// A value as the profilers print it: digits with thousands separators and decimals
/// (`1,641.89`, `3,481,709.0`), perhaps negative; not `no data`, not a name.
fn is_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.starts_with(|c: char| c.is_ascii_digit()) && digits.replace(',', "").parse::<f64>().is_ok_and(f64::is_finite)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAXPY: &str = include_str!("../../tests/fixtures/harness/ncu/saxpy-console.txt");
    const SAXPY_SUMMARY: &str = include_str!("../../tests/fixtures/harness/ncu/saxpy-summary-console.txt");
    const SOFTMAX: &str = include_str!("../../tests/fixtures/harness/ncu/torch-softmax-console.txt");
    const NVCC4JUPYTER_NCU: &str = include_str!("../../tests/fixtures/harness/nsight-console/nvcc4jupyter-usage-ncu.txt");
    const NVCC4JUPYTER_NSYS: &str = include_str!("../../tests/fixtures/harness/nsight-console/nvcc4jupyter-usage-nsys.txt");
    const NSYS_OWN: &str = include_str!("../../tests/fixtures/harness/nsight-console/nsys-stats-own.txt");

    /// Each cell as (table, row label, column label, text, unit).
    fn read(code: &str) -> Vec<(usize, String, String, String, Option<Unit>)> {
        cells(code).unwrap_or_default().into_iter().map(|c| (c.table, c.row_label, c.column_label, code[c.range].to_string(), c.unit)).collect()
    }

    fn named<'a>(got: &'a [(usize, String, String, String, Option<Unit>)], row: &str, column: &str) -> Vec<&'a (usize, String, String, String, Option<Unit>)> {
        got.iter().filter(|c| c.1 == row && c.2 == column).collect()
    }

    /// Real ncu 2025.3.1 output (`tests/fixtures/harness/ncu/SOURCE.md`): 16 launches, two
    /// sections each, so 32 tables; every launch's `Duration` is found with its value in
    /// microseconds, in the order printed.
    #[test]
    fn every_duration_of_the_saxpy_console_is_a_cell_in_microseconds() {
        let got = read(SAXPY);
        let tables: std::collections::BTreeSet<usize> = got.iter().map(|c| c.0).collect();
        assert_eq!(tables.len(), 32);
        let durations = named(&got, "Duration", "Metric Value");
        let printed: Vec<&str> = SAXPY.lines().filter(|l| l.trim_start().starts_with("Duration ")).map(|l| l.split_whitespace().last().unwrap()).collect();
        assert_eq!(printed.len(), 16);
        assert_eq!(durations.iter().map(|c| c.3.as_str()).collect::<Vec<_>>(), printed);
        assert!(durations.iter().all(|c| c.4 == Some(Unit::Us)));
        // Each launch's Duration is in its own table, the first section of each launch.
        assert_eq!(durations.iter().map(|c| c.0).collect::<Vec<_>>(), (0..16).map(|k| 2 * k).collect::<Vec<_>>());
    }

    /// A metric's unit is its row's: `Gbyte/s` gigabytes a second, `%` a percentage, `Mbyte`
    /// megabytes; a unit the number reader does not know stays as a free unit. Thousands
    /// separators stay in the cell for the number reader; `no data` and the unit-less row's
    /// empty unit are read as they are.
    #[test]
    fn the_memory_workload_section_reads_each_row_in_its_unit() {
        let got = read(SAXPY);
        let first = |row: &str| named(&got, row, "Metric Value").into_iter().next().cloned().unwrap_or_else(|| panic!("{row}"));
        assert_eq!(first("Memory Throughput"), (0, "Memory Throughput".into(), "Metric Value".into(), "12.87".into(), Some(Unit::Percent)));
        let mwa = named(&got, "Memory Throughput", "Metric Value")[1].clone();
        assert_eq!((mwa.0, mwa.3.as_str(), mwa.4), (1, "173.39", Some(Unit::GbPerS)));
        assert_eq!(first("L2 Persisting Size").4, Some(Unit::Mb));
        assert_eq!(first("Elapsed Cycles").3, "5,947");
        assert_eq!(first("Elapsed Cycles").4, Some(Unit::Other("cycle".into())));
        assert_eq!(first("DRAM Frequency").4, Some(Unit::GHz));
        assert_eq!(first("L2 Compression Input Sectors").4, Some(Unit::Other("sector".into())));
        assert_eq!(first("SM Active Cycles").3, "1,641.89");
        assert_eq!(first("Local Memory Spilling Requests"), (1, "Local Memory Spilling Requests".into(), "Metric Value".into(), "0".into(), None));
        assert!(named(&got, "Local Memory Spilling Request Overhead", "Metric Value").is_empty(), "no data is no cell");
        assert!(got.iter().all(|c| c.2 == "Metric Value"), "the name and unit columns give no cell");
        // Warnings, rule explanations (`OPT ... 0.2 full waves`) and the kernel line give none.
        assert!(!got.iter().any(|c| c.3.contains("0.2") && c.1.is_empty()));
    }

    /// PyTorch's softmax kernel, whose name holds `>` and commas: four launches, one section.
    #[test]
    fn the_torch_softmax_console_gives_four_tables() {
        let got = read(SOFTMAX);
        let durations = named(&got, "Duration", "Metric Value");
        assert_eq!(durations.iter().map(|c| (c.0, c.3.as_str())).collect::<Vec<_>>(), [(0, "57.73"), (1, "58.30"), (2, "56.96"), (3, "56.70")]);
        assert_eq!(named(&got, "SM Active Cycles", "Metric Value")[0].3, "107,222.77");
    }

    /// `--print-summary per-kernel`: one table per kernel and launch shape, its minimum, maximum
    /// and average each a cell in the row's unit.
    #[test]
    fn the_per_kernel_summary_gives_minimum_maximum_and_average() {
        let got = read(SAXPY_SUMMARY);
        let duration: Vec<(usize, &str, &str)> =
            named(&got, "Duration", "Minimum").into_iter().chain(named(&got, "Duration", "Average")).map(|c| (c.0, c.2.as_str(), c.3.as_str())).collect();
        assert_eq!(
            duration,
            [
                (0, "Minimum", "2.94"),
                (1, "Minimum", "5.89"),
                (2, "Minimum", "69.25"),
                (3, "Minimum", "62.91"),
                (0, "Average", "3.04"),
                (1, "Average", "5.94"),
                (2, "Average", "69.70"),
                (3, "Average", "63.66")
            ]
        );
        assert_eq!(named(&got, "Elapsed Cycles", "Maximum")[3].3, "127,280.00");
        assert!(got.iter().filter(|c| c.1 == "Duration").all(|c| c.4 == Some(Unit::Us)));
        assert_eq!(got.len(), 4 * 10 * 3);
    }

    /// nvcc4jupyter's documentation (MIT; `tests/fixtures/harness/nsight-console/SOURCE.md`)
    /// quotes an older ncu, which spells units `cycle/nsecond` and `usecond`.
    #[test]
    fn an_older_ncu_s_units_read() {
        let got = read(NVCC4JUPYTER_NCU);
        assert_eq!(named(&got, "Duration", "Metric Value")[0].3, "3.94");
        assert_eq!(named(&got, "Duration", "Metric Value")[0].4, Some(Unit::Us));
        assert_eq!(named(&got, "SM Frequency", "Metric Value")[0].4, Some(Unit::MHz));
        assert_eq!(named(&got, "Elapsed Cycles", "Metric Value")[0].3, "2,145");
        assert_eq!(got.len(), 10);
    }

    /// The same documentation's `nsys profile --stats=true` report, `cuda_api_sum`: each row
    /// named by its API call, each value in the unit its header states.
    #[test]
    fn an_nsys_report_names_rows_by_their_last_column() {
        let got = read(NVCC4JUPYTER_NSYS);
        let malloc: Vec<(&str, &str, Option<Unit>)> = got.iter().filter(|c| c.1 == "cudaMalloc").map(|c| (c.2.as_str(), c.3.as_str(), c.4.clone())).collect();
        assert_eq!(
            malloc,
            [
                ("Time (%)", "77.3", Some(Unit::Percent)),
                ("Total Time (ns)", "200,844,276", Some(Unit::Ns)),
                ("Num Calls", "1", None),
                ("Avg (ns)", "200,844,276.0", Some(Unit::Ns)),
                ("Med (ns)", "200,844,276.0", Some(Unit::Ns)),
                ("Min (ns)", "200,844,276", Some(Unit::Ns)),
                ("Max (ns)", "200,844,276", Some(Unit::Ns)),
                ("StdDev (ns)", "0.0", Some(Unit::Ns)),
            ]
        );
        assert_eq!(named(&got, "cuModuleGetLoadingMode", "Total Time (ns)")[0].3, "1,970");
        assert_eq!(got.len(), 4 * 8);
    }

    /// Reports of our own making in nsys's layout (no licensed public copy of these two was
    /// found): an NVTX summary, whose `Style` column is text and gives no cell; a memory
    /// operations summary, whose names hold spaces; a kernel summary whose names hold spaces
    /// and run past their rule; and the sizes report, in megabytes.
    #[test]
    fn nsys_text_columns_give_no_cell_and_names_keep_their_spaces() {
        let got = read(NSYS_OWN);
        assert!(!got.iter().any(|c| c.2 == "Style"));
        assert_eq!(named(&got, "Profile_Loop", "Total Time (ns)")[0].3, "3,481,709");
        assert_eq!(named(&got, "[CUDA memcpy Host-to-Device]", "Count")[0].3, "3");
        assert_eq!(named(&got, "[CUDA memcpy Device-to-Host]", "Time (%)")[0].3, "66.9");
        let kernel = named(&got, "void sbd::MultAlphaBeta<double>(double*, double const*)", "Instances");
        assert_eq!(kernel.iter().map(|c| (c.0, c.3.as_str())).collect::<Vec<_>>(), [(2, "10")]);
        assert_eq!(named(&got, "[CUDA memcpy Host-to-Device]", "Total (MB)")[0].4, Some(Unit::Mb));
        let tables: std::collections::BTreeSet<usize> = got.iter().map(|c| c.0).collect();
        assert_eq!(tables.len(), 4);
    }

    /// In an article, each cell's number is read as the table gives it: thousands separators
    /// and all (`5,947` is 5947 cycles), in the row's unit, and a row without a unit bare.
    #[test]
    fn an_article_reads_each_cell_s_number_in_its_unit() {
        let md = format!("# Profile\n\n```\n{SAXPY}```\n");
        let a = crate::article::Article::parse("a.md", md.as_bytes()).unwrap();
        let first = |row: &str| {
            let s = a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == row)).unwrap_or_else(|| panic!("{row}"));
            s.numbers.iter().map(|n| (n.value, n.unit.clone())).collect::<Vec<_>>()
        };
        assert_eq!(first("Elapsed Cycles"), [(5947.0, Some(Unit::Other("cycle".into())))]);
        assert_eq!(first("SM Active Cycles"), [(1641.89, Some(Unit::Other("cycle".into())))]);
        assert_eq!(first("Duration"), [(3.04, Some(Unit::Us))]);
        assert_eq!(first("Memory Throughput"), [(12.87, Some(Unit::Percent))]);
        assert_eq!(first("Local Memory Spilling Requests"), [(0.0, None)]);
        // The kernel line, warnings and the rules' advice are code, and give no number.
        assert!(a.sentences.iter().all(|s| s.cell.is_some()));
    }

    /// Other tables over a rule stay code: a Markdown-like rule under prose, a Google Benchmark
    /// table, a table whose last column names nothing.
    #[test]
    fn other_ruled_tables_are_not_read() {
        assert!(cells("Benchmark   Time   CPU   Iterations\n---------------------------------\nBM_x  12 ns  12 ns  100\n").is_none());
        assert!(cells(" a     b      c\n ---  ----  ----\n 1     2      3\n").is_none());
        assert!(cells(" Count  Name\n -----  ----\n     3  x\n").is_none(), "no header states a unit");
        assert!(cells("-- --- ---\nMetric Name Metric Unit Metric Value\n").is_none());
    }

    /// Whatever the input, no panic: rules without rows, rows wider than their rule, words
    /// outside any column, characters wider than a byte.
    #[test]
    fn ragged_input_never_panics() {
        for code in [
            "---- ----- -----\nMetric Name Metric Unit Metric Value\n---- ----- -----\n",
            "--- --- ---\nMetric Name Metric Unit Metric Value\n--- --- ---\nµs é ü 1 2 3 4 5 6\n",
            " Time (%)  Name\n --------  ----\n",
            " Time (%)  Name\n --------  ----\n 1,0,0  é\n\t\t5\n-",
            "Time(%) Name\n- -\n1 2 3 4 5",
            "\n-\n-\n-",
        ] {
            let _ = read(code);
        }
    }
}
