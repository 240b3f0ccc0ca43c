//! nccl-tests' report, as GPU cluster write-ups, vendors' guides and pull requests paste it:
//! what `all_reduce_perf`, `all_gather_perf`, `alltoall_perf` and the other collective tests of
//! NVIDIA's nccl-tests print.
//!
//! ```text
//! # nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
//! #
//! #                                                              out-of-place                       in-place
//! #       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
//! #        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
//!   8589934592    2147483648     float     sum      -1    37043  231.89  405.81       0    36962  232.40  406.70       0
//! # Out of bounds values : 0 OK
//! # Avg bus bandwidth    : 405.811
//! ```
//!
//! Articles quote its bus bandwidth, at the largest size or as the average of the footer. The
//! results are a table whose rows are named by the message size in bytes; each value stands
//! under its column's title, prefixed with the half of the table it is in (`out-of-place busbw`,
//! `in-place time`), as the line above the titles groups them. nccl-tests prints no unit beside
//! a value: every time is in µs and every bandwidth in GB/s, decimal (`1.0E9` bytes a second in
//! its `common.cu`), as its line of units says. The count, type, reduction and root describe
//! the case and are names, as the size is. Where two rows share a size (a run over several
//! types or reductions, `-d all`), the row is named by the size and those of the case's columns
//! that tell them apart (`1024 half sum`). The run's settings and its footer are a second table
//! of one row, `Run`: `nThread`, `nGpus`, `minBytes`, `maxBytes`, `warmup iters` and `iters`
//! from the settings line, `Out of bounds values` and `Avg bus bandwidth` from the footer.
//!
//! The layout has grown: older releases print no `root` column and head the validation column
//! `error` (a largest error such as `1e-07`) rather than `#wrong`; `-I` adds each half's
//! per-iteration statistics (`i_min`, `i_max`, `i_p99` in µs, `i_cv%`); `-C` titles the time
//! `cputime`; a timestamp may end the line. The titles are read from the report itself, so each
//! of these is read as it is printed. A `N/A` (no validation) gives no cell, and a line of any
//! other shape (the devices, MPI's own lines) gives none.

use std::ops::Range;

use super::console::{ConsoleCell, lines, tokens};
use super::numbers::Unit;

/// How a column of the results is read.
#[derive(Debug, Clone, PartialEq)]
enum Column {
    /// A description of the case (size, count, type, reduction, root): a name.
    Case(String),
    /// A measurement, in the unit nccl-tests prints it in.
    Value { label: String, unit: Option<Unit> },
}

/// The columns of a results table, from its line of titles, or `None` where the line is not
/// one: `#` then `size`, with an `algbw` and a `busbw` after.
fn columns(line: &str) -> Option<Vec<Column>> {
    let rest = line.strip_prefix('#')?;
    let titles: Vec<&str> = rest.split_whitespace().collect();
    if titles.first() != Some(&"size") || !titles.contains(&"algbw") || !titles.contains(&"busbw") {
        return None;
    }
    let mut out = Vec::new();
    let mut halves = 0;
    for title in titles {
        let unit = match title {
            "time" | "cputime" => {
                // Each half of the table begins with its time: out-of-place first, as
                // nccl-tests prints them.
                halves += 1;
                Some(Unit::Us)
            }
            "algbw" | "busbw" => Some(Unit::GbPerS),
            "i_min" | "i_max" | "i_p99" => Some(Unit::Us),
            "i_cv%" => Some(Unit::Percent),
            "#wrong" | "error" => None,
            // A timestamp ends the line: its date and time are no measurement.
            "timestamp" => break,
            case => {
                if halves == 0 {
                    out.push(Column::Case(case.to_string()));
                    continue;
                }
                None
            }
        };
        let half = if halves <= 1 { "out-of-place" } else { "in-place" };
        out.push(Column::Value { label: format!("{half} {title}"), unit });
    }
    Some(out)
}

/// The settings nccl-tests prints at its start that a reader may quote, by the words before
/// each value: `# nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters:
/// 5 iters: 20 agg iters: 1 validation: 1 graph: 0`.
const SETTINGS: [(&[&str], &str); 6] =
    [(&["nThread"], "nThread"), (&["nGpus"], "nGpus"), (&["minBytes"], "minBytes"), (&["maxBytes"], "maxBytes"), (&["warmup", "iters:"], "warmup iters"), (&["iters:"], "iters")];

/// One row of results as read, before its label is settled.
struct Row {
    table: usize,
    /// The texts of the case's columns, the size first.
    case: Vec<String>,
    /// Each cell: its column's index, label and unit, and its bytes in the block.
    cells: Vec<(usize, String, Option<Unit>, Range<usize>)>,
}

/// The cells of nccl-tests' reports in `code`, or `None` when it holds none (no line of
/// titles). See the module's documentation for the tables they make.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut rows: Vec<Row> = Vec::new();
    let mut runs: Vec<(usize, Vec<(&'static str, Range<usize>)>)> = Vec::new();
    let mut header: Option<(usize, Vec<Column>)> = None;
    let mut tables = 0;
    // The settings line comes before its table's titles; the footer after its rows.
    let mut settings: Vec<(&'static str, Range<usize>)> = Vec::new();
    for (start, line) in lines(code) {
        let tag = launcher_prefix(line);
        let (start, text) = (start + tag, &line[tag..]);
        let toks = tokens(text);
        let word = |k: usize| toks.get(k).map_or("", |r| &text[r.clone()]);
        let abs = |r: &Range<usize>| start + r.start..start + r.end;
        if let Some(found_columns) = columns(text.trim_start()) {
            header = Some((tables, found_columns));
            tables += 2;
            if !settings.is_empty() {
                runs.push((tables - 1, std::mem::take(&mut settings)));
            }
            continue;
        }
        if word(0) == "#" && word(1) == "nThread" {
            settings = settings_of(text, &toks).into_iter().map(|(label, r)| (label, abs(&r))).collect();
            continue;
        }
        if word(0) == "#"
            && let Some(label) = footer(text)
        {
            let Some((table, _)) = &header else { continue };
            let Some(value) = toks.iter().find(|r| r.start > text.find(':').unwrap_or(0)) else { continue };
            let run = match runs.last_mut() {
                Some((t, run)) if *t == table + 1 => run,
                _ => {
                    runs.push((table + 1, Vec::new()));
                    &mut runs.last_mut().unwrap().1
                }
            };
            run.push((label, abs(value)));
            continue;
        }
        let Some((table, columns)) = &header else { continue };
        if text.trim_start().starts_with('#') || !word(0).bytes().all(|b| b.is_ascii_digit()) || word(0).is_empty() {
            continue;
        }
        if toks.len() < columns.len() {
            continue;
        }
        let mut row = Row { table: *table, case: Vec::new(), cells: Vec::new() };
        for (k, column) in columns.iter().enumerate() {
            match column {
                // The size names the row. The other columns of the case are no cells: a value
                // alone would read as a number, and where they tell rows apart the row's name
                // holds them.
                Column::Case(name) => {
                    row.case.push(word(k).to_string());
                    if k == 0 {
                        row.cells.push((k, name.clone(), None, abs(&toks[k])));
                    }
                }
                Column::Value { label, unit } if word(k) != "N/A" => row.cells.push((k, label.clone(), unit.clone(), abs(&toks[k]))),
                Column::Value { .. } => {}
            }
        }
        rows.push(row);
    }
    // Every report opens with its line of titles: without one the block is no report.
    if tables == 0 {
        return None;
    }
    let mut cells = Vec::new();
    let mut row_numbers = std::collections::BTreeMap::new();
    let labels = row_labels(&rows);
    for (row, label) in rows.iter().zip(labels) {
        let number = row_numbers.entry(row.table).or_insert(0);
        *number += 1;
        for (k, column_label, unit, range) in &row.cells {
            cells.push(ConsoleCell { unit: unit.clone(), ..ConsoleCell::plain(row.table, *number, *k, &label, column_label, range.clone()) });
        }
    }
    for (table, run) in runs {
        for (k, (label, range)) in run.into_iter().enumerate() {
            let unit = (label == "Avg bus bandwidth").then_some(Unit::GbPerS);
            cells.push(ConsoleCell { unit, ..ConsoleCell::plain(table, 1, k + 1, "Run", label, range) });
        }
    }
    // Tables are numbered two a report, results then its run, so that a report without
    // settings or a footer leaves a gap; the numbers are closed up, in order.
    let mut used: Vec<usize> = cells.iter().map(|c| c.table).collect();
    used.sort_unstable();
    used.dedup();
    for cell in &mut cells {
        cell.table = used.binary_search(&cell.table).unwrap_or(0);
    }
    cells.sort_by_key(|c| (c.table, c.row, c.column));
    Some(cells)
}

/// The length of the tag a parallel launcher writes before each line of a rank's output, which
/// multi-node reports are pasted with: Open MPI's `--tag-output` (`[1,0]<stdout>:`), Slurm's
/// `srun --label` (`0: `, ` 12: `) and MPICH's `-prepend-rank` (`[0] `); 0 where the line has
/// none.
fn launcher_prefix(line: &str) -> usize {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let lead = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[lead..];
    if let Some(inner) = rest.strip_prefix('[') {
        // `[1,0]<stdout>:` or `[0] `.
        let (rank, after) = inner.split_once(']').unwrap_or(("", ""));
        let is_rank = !rank.is_empty() && rank.split(',').all(|p| !p.is_empty() && digits(p) == p.len());
        if is_rank {
            for tag in ["<stdout>:", "<stderr>:"] {
                if after.starts_with(tag) {
                    return lead + 1 + rank.len() + 1 + tag.len();
                }
            }
            if !rank.contains(',') && after.starts_with(' ') {
                return lead + 1 + rank.len() + 2;
            }
        }
        return 0;
    }
    let n = digits(rest);
    if n > 0 && rest[n..].starts_with(": ") { lead + n + 2 } else { 0 }
}

/// The label of a footer's line that a reader may quote, `# Out of bounds values : 0 OK` or `#
/// Avg bus bandwidth    : 405.811`.
fn footer(line: &str) -> Option<&'static str> {
    let (label, _) = line.trim_start().strip_prefix('#')?.split_once(':')?;
    ["Out of bounds values", "Avg bus bandwidth"].into_iter().find(|l| *l == label.trim())
}

/// The settings of [`SETTINGS`] in the settings line `text` (tokens `toks`), each with the
/// bytes of its value.
fn settings_of(text: &str, toks: &[Range<usize>]) -> Vec<(&'static str, Range<usize>)> {
    let words: Vec<&str> = toks.iter().map(|r| &text[r.clone()]).collect();
    let mut out: Vec<(&'static str, Range<usize>)> = Vec::new();
    let mut k = 1;
    while k < words.len() {
        // `iters:` alone is the timed iterations, not the end of `warmup iters:` or `agg iters:`.
        let matched = SETTINGS.iter().find(|(key, _)| words[k..].starts_with(key) && (key.len() > 1 || !matches!(words[k - 1], "warmup" | "agg")));
        match matched {
            Some((key, label)) if k + key.len() < words.len() && !out.iter().any(|(l, _)| l == label) => {
                out.push((label, toks[k + key.len()].clone()));
                k += key.len() + 1;
            }
            _ => k += 1,
        }
    }
    out
}

/// Each row's label: its size, and where sizes repeat in its table, the size with the case's
/// columns whose texts differ between the rows of that table. Each table is looked over once,
/// so that a long report costs no more than its rows.
fn row_labels(rows: &[Row]) -> Vec<String> {
    use std::collections::BTreeMap;
    // For each table: how often each size occurs, and which of the case's columns vary.
    let mut sizes: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    let mut first: BTreeMap<usize, &Row> = BTreeMap::new();
    let mut varies: BTreeMap<(usize, usize), bool> = BTreeMap::new();
    for row in rows {
        *sizes.entry((row.table, row.case.first().map_or("", String::as_str))).or_insert(0) += 1;
        let head = *first.entry(row.table).or_insert(row);
        for k in 0..row.case.len().max(head.case.len()) {
            *varies.entry((row.table, k)).or_insert(false) |= row.case.get(k) != head.case.get(k);
        }
    }
    rows.iter()
        .map(|row| {
            let size = row.case.first().map_or("", String::as_str);
            if sizes[&(row.table, size)] < 2 {
                return size.to_string();
            }
            // The count follows from the size and the type, so it tells no rows apart on its own.
            let parts: Vec<&str> =
                row.case.iter().enumerate().filter(|(k, _)| *k == 0 || (*k > 1 && varies.get(&(row.table, *k)).copied().unwrap_or(false))).map(|(_, t)| t.as_str()).collect();
            parts.join(" ")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::article::console::testing::laid_out;

    /// An 8-GPU all-reduce as nccl-tests 2.13 and later prints it (values made up here, in
    /// its layout), after the command that ran it and its devices.
    const REPORT: &str = "$ ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 8
# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid  40211 on     node-a device  0 [0x18] NVIDIA H100 80GB HBM3
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
           8             2     float     sum      -1    21.18    0.00    0.00       0    20.96    0.00    0.00       0
   134217728      33554432     float     sum      -1    698.2  192.23  336.41       0    697.5  192.43  336.75       0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 168.29
#
# Collective test concluded: all_reduce_perf
";

    #[test]
    fn a_report_gives_its_results_by_size_and_its_run() {
        let cells = cells(REPORT).unwrap();
        let got = laid_out(REPORT, &cells);
        let row: Vec<_> = got.iter().filter(|c| c.1 == 2 && c.0 == 0).map(|c| (c.3, c.4)).collect();
        assert_eq!(
            row,
            [
                ("size", "134217728"),
                ("out-of-place time", "698.2"),
                ("out-of-place algbw", "192.23"),
                ("out-of-place busbw", "336.41"),
                ("out-of-place #wrong", "0"),
                ("in-place time", "697.5"),
                ("in-place algbw", "192.43"),
                ("in-place busbw", "336.75"),
                ("in-place #wrong", "0"),
            ]
        );
        assert!(got.iter().filter(|c| c.0 == 0 && c.1 == 2).all(|c| c.2 == "134217728"), "the row is named by its size");
        let run: Vec<_> = got.iter().filter(|c| c.0 == 1).map(|c| (c.2, c.3, c.4)).collect();
        assert_eq!(
            run,
            [
                ("Run", "nThread", "1"),
                ("Run", "nGpus", "8"),
                ("Run", "minBytes", "8"),
                ("Run", "maxBytes", "134217728"),
                ("Run", "warmup iters", "5"),
                ("Run", "iters", "20"),
                ("Run", "Out of bounds values", "0"),
                ("Run", "Avg bus bandwidth", "168.29"),
            ]
        );
        // The size is a name, and the rest of the case gives no cell; times are µs and
        // bandwidths decimal GB/s.
        let unit = |label: &str| cells.iter().find(|c| c.column_label == label).map(|c| (c.is_name, c.unit.clone()));
        assert_eq!(unit("size"), Some((true, None)));
        assert_eq!(unit("count"), None);
        assert_eq!(unit("in-place time"), Some((false, Some(Unit::Us))));
        assert_eq!(unit("out-of-place busbw"), Some((false, Some(Unit::GbPerS))));
        assert_eq!(unit("Avg bus bandwidth"), Some((false, Some(Unit::GbPerS))));
        assert_eq!(unit("nGpus"), Some((false, None)));
        assert_eq!(super::super::console::cells(REPORT).map(|c| c.len()), Some(cells.len()), "the console reader finds the layout");
        // Without its titles the lines are no report.
        assert_eq!(super::cells(&REPORT.replace("algbw", "bw")), None);
    }

    /// Older releases: no `root`, an `error` column holding the largest error; and `-R`'s
    /// per-iteration columns with a `N/A` where nothing was validated.
    #[test]
    fn older_and_wider_layouts_read_by_their_titles() {
        let old = "#                                                     out-of-place                       in-place
#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
     1048576        262144   float     sum    65.32   16.05   28.09  5e-07    64.90   16.16   28.27  5e-07
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 28.18
";
        let cells = cells(old).unwrap();
        let got = laid_out(old, &cells);
        assert_eq!(got.iter().filter(|c| c.3 == "out-of-place error").map(|c| c.4).collect::<Vec<_>>(), ["5e-07"]);
        assert_eq!(got.iter().filter(|c| c.0 == 1).map(|c| (c.3, c.4)).collect::<Vec<_>>(), [("Out of bounds values", "0"), ("Avg bus bandwidth", "28.18")]);
        let wide = "#       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%
        4096          1024     float     sum      -1    10.52    0.39    0.68    N/A     9.81    14.20    13.90     6.10    10.31    0.40    0.69    N/A     9.70    13.05    12.88     5.02
";
        let cells = super::cells(wide).unwrap();
        let labels: Vec<&str> = cells.iter().filter(|c| !c.is_name).map(|c| c.column_label.as_str()).collect();
        assert!(!labels.iter().any(|l| l.ends_with("#wrong")), "a `N/A` gives no cell: {labels:?}");
        assert_eq!(cells.iter().find(|c| c.column_label == "in-place i_cv%").map(|c| (&wide[c.range.clone()], c.unit.clone())), Some(("5.02", Some(Unit::Percent))));
        assert_eq!(cells.iter().find(|c| c.column_label == "out-of-place i_p99").map(|c| &wide[c.range.clone()]), Some("13.90"));
    }

    /// Reports of several nodes, each line tagged by the launcher with its rank: Open MPI's
    /// `--tag-output`, Slurm's `--label`, MPICH's `-prepend-rank`; NCCL's own lines between.
    #[test]
    fn lines_tagged_by_a_launcher_read_as_the_report() {
        let plain = cells(REPORT).unwrap();
        for tag in ["[1,0]<stdout>:", "0: ", " 12: ", "[0] "] {
            let tagged: String =
                REPORT.lines().map(|l| format!("{tag}{l}\n")).collect::<String>() + &format!("{tag}node-a:40211:40211 [0] NCCL INFO comm 0x55d0 rank 0 nranks 8 - Init COMPLETE\n");
            let cells = cells(&tagged).unwrap();
            let texts = |code: &str, cells: &[ConsoleCell]| cells.iter().map(|c| code[c.range.clone()].to_string()).collect::<Vec<_>>();
            assert_eq!(texts(&tagged, &cells), texts(REPORT, &plain), "{tag}");
        }
        assert_eq!(launcher_prefix("12345  678 float"), 0, "a row's size is no rank");
        assert_eq!(launcher_prefix("[1,x]<stdout>:#"), 0);
    }

    /// A run over several types repeats each size: its rows are named by the size and type.
    /// Two reports in one block are two pairs of tables.
    #[test]
    fn repeated_sizes_and_repeated_reports() {
        let rows = "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
        1024           256     float     sum      -1    11.02    0.09    0.16       0    10.95    0.09    0.16       0
        1024           512      half     sum      -1    10.88    0.09    0.16       0    10.80    0.09    0.17       0
# Avg bus bandwidth    : 0.16
";
        let two = format!("{rows}{rows}");
        let cells = cells(&two).unwrap();
        let names: Vec<(usize, &str)> = cells.iter().filter(|c| c.column == 0).map(|c| (c.table, c.row_label.as_str())).collect();
        assert_eq!(names, [(0, "1024 float"), (0, "1024 half"), (2, "1024 float"), (2, "1024 half")]);
        assert_eq!(cells.iter().filter(|c| c.row_label == "Run").map(|c| c.table).collect::<Vec<_>>(), [1, 3]);
    }
}
