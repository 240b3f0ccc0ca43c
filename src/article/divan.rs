//! divan's tree table, as READMEs, blog posts and pull requests paste what `cargo bench` prints
//! for a bench target whose harness is the `divan` crate.
//!
//! ```text
//! Timer precision: 41 ns
//! fibonacci         fastest       │ slowest       │ median        │ mean          │ samples │ iters
//! ├─ 10             76.48 ns      │ 180.4 ns      │ 77.48 ns      │ 79.13 ns      │ 100     │ 3200
//! ╰─ 20             9.396 µs      │ 12.54 µs      │ 9.521 µs      │ 9.662 µs      │ 100     │ 100
//! ```
//!
//! The first line of each table names the bench target's top-level module and heads divan's
//! columns (`TreeColumn` in its `tree_painter.rs`); the lines below it draw a tree of modules,
//! functions, their arguments (`├─ 10`), constants and thread counts (`t=4`), and every leaf
//! that ran prints its statistics beside it. Each such leaf is a row named by its path through
//! the tree from the top-level module, joined by `::` as divan itself joins it (`--list` prints
//! `fibonacci::10: benchmark`, and a filter matches against the same path), so that a name is
//! unique in its block. Its cells are `fastest`, `slowest`, `median` and `mean`, each in the
//! unit printed beside it (`ns`, `µs`, `ms`, `s`, and `m` and `h`, which divan prints for
//! minutes and hours), and the counts `samples` and `iters`. Each cell is the value's digits,
//! its unit the one printed after them, so that a unit the number reader would not take from
//! prose (divan's lone `m`, or `KHz`) is still read as the time or rate it is. A parent (a
//! module, or a function over several arguments) gives no cell, and neither does an `(ignored)`
//! leaf.
//!
//! Under a leaf divan prints further lines in the same four columns, whose cells are the leaf
//! row's under a column named by what they measure. A counter's throughput (`counter =
//! BytesCount::new(n)` and the like) is a line of rates, each value with its own unit: bytes
//! (`2.461 GB/s`, decimal, or `KiB/s` with `bytes_format = "binary"`), characters (`char/s`),
//! cycles (`Hz`, which divan scales to `GHz`) or items (`12.4 Mitem/s`, a unit of its own); its
//! cells are under `bytes/s › median`, `chars/s › median`, `cycles/s › median` or `items/s ›
//! median`. The allocation profiler (`AllocProfiler`) prints a label line, `max alloc:`,
//! `alloc:`, `dealloc:`, `grow:` or `shrink:`, then a line of counts and a line of sizes (`B`,
//! `KB`, `MB`, decimal unless binary was asked for): their cells are under `alloc count ›
//! median`, `alloc bytes › median`, and so on for each label. A count that is a mean
//! (`6.635`) is read as printed.
//!
//! `Timer precision: 41 ns`, which divan prints before a run's tables, is a table of its own of
//! one row, `Run`, under `Timer precision`: it is a measurement (divan times its timer at start)
//! that an article quotes to say which results lie near the floor of what can be measured.
//!
//! Pasted trees are not always divan's exact characters, and each of these, found in public
//! READMEs, reads the same: the tree and the bars converted to ASCII (`|- 10`, `+- 1000`, bars
//! `|`), a mix of both, `└─` for divan's rounded `╰─`, a whole block indented, a name too long
//! for its column that pushes its values to the right, and a tree whose branches were stripped
//! (each named line then a child of the top-level module). A row cut short gives the cells it
//! still holds; a line that continues a cut one gives none.

use std::ops::Range;

use super::console::{ConsoleCell, lines, trimmed_range};
use super::numbers::Unit;

/// divan's columns, in the order it prints them.
const COLUMNS: [&str; 6] = ["fastest", "slowest", "median", "mean", "samples", "iters"];

/// The marks that begin a name in the tree: divan's own (`├─`, `╰─`), the corner other tree
/// printers draw (`└─`), and the ASCII a paste may have been converted to.
const BRANCHES: [&str; 6] = ["├─", "╰─", "└─", "|-", "+-", "`-"];

/// The cells of divan's tables in `code`, or `None` when it holds none (no line of its columns'
/// titles). See the module's documentation for the tables they make.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut tables = 0;
    let mut current: Option<Table> = None;
    // The run's timer precision, printed before its first table: a cell only once a table
    // shows the block to be divan's.
    let mut precision: Option<Range<usize>> = None;
    for (start, line) in lines(code) {
        if let Some((name, columns)) = header(line) {
            if let Some(range) = precision.take() {
                let text = &code[range.clone()];
                if let Some((digits, Some(unit))) = value(text) {
                    let range = range.start + digits.start..range.start + digits.end;
                    cells.push(ConsoleCell { unit: Some(unit), ..ConsoleCell::plain(tables, 1, 1, "Run", "Timer precision", range) });
                    tables += 1;
                }
            }
            let indent = line.len() - line.trim_start_matches(' ').len();
            current = Some(Table { index: tables, top: line[name].to_string(), indent, columns, path: Vec::new(), row: 0, leaf: None, group: None, extra: Vec::new() });
            tables += 1;
            continue;
        }
        if let Some(range) = timer_precision(line) {
            precision = Some(start + range.start..start + range.end);
            continue;
        }
        if let Some(table) = current.as_mut() {
            table.read(start, line, &mut cells);
        }
    }
    cells.sort_by_key(|c| (c.table, c.row, c.column));
    (!cells.is_empty()).then_some(cells)
}

/// A table being read: where it stands in the block, what its header states, and where in the
/// tree the last line left off.
struct Table {
    index: usize,
    /// The top-level module's name, which begins every row's path.
    top: String,
    /// The header's indentation, which every line of a block indented as a whole shares.
    indent: usize,
    /// How many of divan's columns the header titles (all six, unless the line was cut).
    columns: usize,
    /// The names of the nodes above the next line, by depth from 1.
    path: Vec<String>,
    row: usize,
    /// The last leaf that printed statistics, its row and label: the lines below it are its.
    leaf: Option<(usize, String)>,
    /// The allocation operation whose label line (`alloc:`) came last under the leaf.
    group: Option<String>,
    /// The labels of the columns of lines under leaves, in the order they were first met; each
    /// one's column is its place after divan's six.
    extra: Vec<String>,
}

impl Table {
    /// Reads one line below the header: a node of the tree, or a line under a leaf.
    fn read(&mut self, start: usize, line: &str, cells: &mut Vec<ConsoleCell>) {
        let cut = (line.len() - line.trim_start_matches(' ').len()).min(self.indent);
        let (start, line) = (start + cut, &line[cut..]);
        // The tree's prefix: three characters a level, `│  ` or spaces, then a branch.
        let mut at = 0;
        let mut depth_chars = 0;
        let mut branch = None;
        while let Some(c) = line[at..].chars().next() {
            if let Some(mark) = BRANCHES.iter().find(|mark| line[at..].starts_with(**mark)) {
                branch = Some(at + mark.len());
                break;
            }
            if c != ' ' && !is_bar(c) {
                break;
            }
            at += c.len_utf8();
            depth_chars += 1;
        }
        match branch {
            Some(name_at) => self.node(start + name_at, &line[name_at..], Some(depth_chars / 3 + 1), cells),
            // A tree whose branches were stripped: each line that starts with a name and holds
            // the columns' bars is a child of the top-level module.
            None if at == 0 && parts(line).len() >= 4 => self.node(start, line, None, cells),
            None if at > 0 => self.under_leaf(start + at, &line[at..], cells),
            None => {}
        }
    }

    /// A node whose name begins `text` (at `start` in the block), at the depth its branch
    /// shows, or `None` where the tree's branches were stripped: a parent, or a leaf and its
    /// statistics.
    fn node(&mut self, start: usize, text: &str, depth: Option<usize>, cells: &mut Vec<ConsoleCell>) {
        let parts = parts(text);
        let Some(first) = parts.first().cloned() else { return };
        // The name, then at least two spaces of padding, then the first column's value.
        let (name, fastest) = match text[first.clone()].find("  ") {
            Some(gap) => (trimmed(text, first.start..first.start + gap), trimmed(text, first.start + gap..first.end)),
            None => (first.clone(), first.end..first.end),
        };
        // Without a branch, a line of values whose first column holds no name and value is
        // the rest of a line cut in two, not a node.
        if name.is_empty() || (depth.is_none() && fastest.is_empty() && parts[1..].iter().any(|r| !r.is_empty())) {
            return;
        }
        self.leaf = None;
        self.group = None;
        self.path.truncate(depth.unwrap_or(1) - 1);
        self.path.push(text[name.clone()].to_string());
        let label = if self.top.is_empty() { self.path.join("::") } else { format!("{}::{}", self.top, self.path.join("::")) };
        let values = std::iter::once(fastest).chain(parts.into_iter().skip(1)).take(self.columns);
        let mut found = Vec::new();
        for (k, range) in values.enumerate() {
            let Some((digits, unit)) = value(&text[range.clone()]) else { continue };
            // The counts print no unit; a time always does.
            if (k < 4) != unit.is_some() {
                continue;
            }
            found.push(ConsoleCell { unit, ..ConsoleCell::plain(self.index, 0, k + 1, &label, COLUMNS[k], start + range.start + digits.start..start + range.start + digits.end) });
        }
        // A parent prints no values, and an ignored leaf `(ignored)`: neither is a row.
        if found.is_empty() {
            return;
        }
        self.row += 1;
        cells.push(ConsoleCell::plain(self.index, self.row, 0, &label, "benchmark", start + name.start..start + name.end));
        cells.extend(found.into_iter().map(|c| ConsoleCell { row: self.row, ..c }));
        self.leaf = Some((self.row, label));
    }

    /// A line under a leaf, from its first value (at `start` in the block): a counter's rates,
    /// an allocation operation's label, or that operation's counts or sizes.
    fn under_leaf(&mut self, start: usize, text: &str, cells: &mut Vec<ConsoleCell>) {
        let Some((row, label)) = self.leaf.clone() else { return };
        let parts = parts(text);
        // Such a line fills the four time columns and leaves the counts empty.
        if parts.len() < 4 || parts[4..].iter().any(|r| !r.is_empty()) {
            return;
        }
        if let Some(operation) = text[parts[0].clone()].strip_suffix(':') {
            if parts[1..].iter().all(Range::is_empty) {
                self.group = Some(operation.trim().to_string());
            }
            return;
        }
        let mut values = Vec::new();
        for range in &parts[..4] {
            let Some((digits, unit)) = value(&text[range.clone()]) else { return };
            values.push((range.start + digits.start..range.start + digits.end, unit));
        }
        let what = match (values[0].1.as_ref().map(rate), &self.group) {
            (Some(Some(kind)), _) => kind.to_string(),
            (Some(None), Some(operation)) => format!("{operation} bytes"),
            (None, Some(operation)) => format!("{operation} count"),
            // A line of values that follows no label and states no rate: not divan's.
            _ => return,
        };
        for (k, (range, unit)) in values.into_iter().enumerate() {
            let column_label = format!("{what} › {}", COLUMNS[k]);
            let column = self.column(&column_label);
            cells.push(ConsoleCell { unit, ..ConsoleCell::plain(self.index, row, column, &label, &column_label, start + range.start..start + range.end) });
        }
    }

    /// The column of a line under a leaf labelled `label`, the same in every row of the table.
    fn column(&mut self, label: &str) -> usize {
        let at = match self.extra.iter().position(|l| l == label) {
            Some(at) => at,
            None => {
                self.extra.push(label.to_string());
                self.extra.len() - 1
            }
        };
        COLUMNS.len() + 1 + at
    }
}

/// The range of the top-level module's name in a header line, and how many of divan's columns
/// it titles; `None` where `line` is no header: a name, `fastest`, then `slowest`, `median` and
/// `mean` (and `samples` and `iters`, unless the line was cut) between bars.
fn header(line: &str) -> Option<(Range<usize>, usize)> {
    let parts = parts(line);
    let first = parts.first()?.clone();
    let name = line[first.clone()].strip_suffix("fastest")?;
    if !(name.is_empty() || name.ends_with(char::is_whitespace)) {
        return None;
    }
    let titles: Vec<&str> = parts[1..].iter().map(|r| &line[r.clone()]).collect();
    if !(3..=5).contains(&titles.len()) || titles.iter().zip(&COLUMNS[1..]).any(|(title, column)| title != column) {
        return None;
    }
    Some((trimmed(line, first.start..first.start + name.len()), titles.len() + 1))
}

/// The range of the value of `Timer precision: 41 ns` in `line`, or `None` where the line is
/// not that.
fn timer_precision(line: &str) -> Option<Range<usize>> {
    let rest = line.trim_start().strip_prefix("Timer precision:")?;
    let from = line.len() - rest.len();
    Some(trimmed(line, from..line.len())).filter(|r| !r.is_empty())
}

/// A value as divan prints it in a column: its digits, as a range of `text`, and the unit after
/// them; `None` for anything else (`(ignored)`, an empty column, a value cut short).
fn value(text: &str) -> Option<(Range<usize>, Option<Unit>)> {
    let (number, unit) = match text.split_once(' ') {
        Some((number, unit)) => (number, Some(unit)),
        None => (text, None),
    };
    let is_number = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit() || b == b'.') && number.parse::<f64>().is_ok_and(f64::is_finite);
    if !is_number {
        return None;
    }
    let unit = match unit {
        Some(unit) => Some(unit_of(unit)?),
        None => None,
    };
    Some((0..number.len(), unit))
}

/// The unit of a value divan prints with `text` after it: its times (`FineDuration`, whose
/// minutes and hours are `m` and `h`), its sizes and rates (`format_bytes`, `DisplayThroughput`),
/// or any other unit as a free unit that matches only itself (`Mitem/s`).
fn unit_of(text: &str) -> Option<Unit> {
    if text.contains(char::is_whitespace) {
        return None;
    }
    match text {
        "m" => Some(Unit::Min),
        "h" => Some(Unit::H),
        other => Unit::declared(other).ok(),
    }
}

/// What a rate measures, by its unit: bytes, characters, cycles or items a second, as divan's
/// counters print them (`GB/s`, `Mchar/s`, `GHz`, `Mitem/s`); `None` for a unit that is no rate.
fn rate(unit: &Unit) -> Option<&'static str> {
    let symbol = unit.symbol();
    if symbol.ends_with("B/s") {
        Some("bytes/s")
    } else if symbol.ends_with("char/s") {
        Some("chars/s")
    } else if symbol.ends_with("Hz") {
        Some("cycles/s")
    } else if symbol.ends_with("item/s") {
        Some("items/s")
    } else {
        symbol.ends_with("/s").then_some("throughput")
    }
}

/// A bar between divan's columns, or the stem of its tree: `│`, or `|` where a paste turned
/// them to ASCII.
fn is_bar(c: char) -> bool {
    c == '│' || c == '|'
}

/// The parts of `line` between its bars, each trimmed, as byte ranges of it.
fn parts(line: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in line.char_indices() {
        if is_bar(c) {
            out.push(trimmed(line, start..i));
            start = i + c.len_utf8();
        }
    }
    out.push(trimmed(line, start..line.len()));
    out
}

/// `range` of `line` without the whitespace at either end.
fn trimmed(line: &str, range: Range<usize>) -> Range<usize> {
    trimmed_range(line, &line[range])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::article::console::testing::laid_out_with_units as laid_out;

    /// divan's README (nvzqz/divan at bca5c9676a35751d0a8164df7d79bda70f23286b, MIT or
    /// Apache-2.0): one function over six arguments, times from ns to ms.
    const README: &str = include_str!("../../tests/fixtures/harness/divan-console/divan-readme.txt");
    /// measured's README (conradludgate/measured at 0191bf8c3b5e1a7f299ae3ec2dc298022d8bcc1f,
    /// MIT or Apache-2.0): the allocation profiler's lines under each leaf, a mean count.
    const MEMORY: &str = include_str!("../../tests/fixtures/harness/divan-console/measured-readme-memory.txt");
    /// The same README's encoding benchmarks: four functions, each over four arguments.
    const ENCODING: &str = include_str!("../../tests/fixtures/harness/divan-console/measured-readme-encoding.txt");


    /// The cells of the row labelled `row`, as (column label, text, unit).
    fn row<'a>(code: &'a str, cells: &'a [ConsoleCell], row: &str) -> Vec<(&'a str, &'a str, Option<Unit>)> {
        cells.iter().filter(|c| c.row_label == row).map(|c| (c.column_label.as_str(), &code[c.range.clone()], c.unit.clone())).collect()
    }

    #[test]
    fn a_leaf_is_a_row_named_by_its_path_with_each_value_in_its_unit() {
        let cells = cells(README).unwrap();
        assert_eq!(cells.len(), 6 * 7);
        assert_eq!(
            row(README, &cells, "example::fibonacci::16"),
            [
                ("benchmark", "16", None),
                ("fastest", "2.874", Some(Unit::Us)),
                ("slowest", "3.812", Some(Unit::Us)),
                ("median", "2.916", Some(Unit::Us)),
                ("mean", "3.006", Some(Unit::Us)),
                ("samples", "100", None),
                ("iters", "200", None),
            ]
        );
        assert_eq!(row(README, &cells, "example::fibonacci::1")[1], ("fastest", "0.626", Some(Unit::Ns)));
        assert_eq!(row(README, &cells, "example::fibonacci::32")[4], ("mean", "6.344", Some(Unit::Ms)));
        let rows: Vec<(usize, usize)> = cells.iter().filter(|c| c.is_name).map(|c| (c.table, c.row)).collect();
        assert_eq!(rows, (1..=6).map(|r| (0, r)).collect::<Vec<_>>(), "the parent `fibonacci` is no row");
        assert!(cells.iter().all(|c| c.is_name == (c.column == 0)));
        assert_eq!(super::super::console::cells(README).map(|c| c.len()), Some(cells.len()), "the console reader finds the layout");
    }

    /// The timer's precision is a table of its own; each allocation line is the leaf's, under
    /// its operation and what it counts; a mean count keeps its decimals.
    #[test]
    fn the_timer_and_the_allocation_profiler_give_their_cells() {
        let cells = cells(MEMORY).unwrap();
        let got = laid_out(MEMORY, &cells);
        assert_eq!(got[0], (0, 1, "Run", "Timer precision", "2.25", Some(Unit::Us)));
        assert!(got[1..].iter().all(|c| c.0 == 1));
        let measured = row(MEMORY, &cells, "memory::measured");
        assert_eq!(measured.len(), 7 + 4 * 4);
        assert_eq!(measured[2], ("slowest", "32.2", Some(Unit::Ms)));
        assert_eq!(measured[5], ("samples", "5000000", None));
        assert_eq!(measured[7], ("alloc count › fastest", "0", None));
        assert_eq!(measured[12], ("alloc bytes › slowest", "276.8", Some(Unit::Mb)));
        assert_eq!(measured[22], ("dealloc bytes › mean", "76.34", Some(Unit::Bytes)));
        let prometheus = row(MEMORY, &cells, "memory::prometheus");
        assert_eq!(prometheus.len(), 7 + 6 * 4);
        assert!(prometheus.contains(&("grow count › mean", "2.726", None)));
        assert!(prometheus.contains(&("alloc count › mean", "18.17", None)));
        // The last leaf's lines have no stem before them.
        assert_eq!(row(MEMORY, &cells, "memory::prometheus_client").last(), Some(&("dealloc bytes › mean", "112", Some(Unit::Bytes))));
        // Each label is one column in every row.
        let columns: std::collections::BTreeSet<(&str, usize)> = cells.iter().map(|c| (c.column_label.as_str(), c.column)).collect();
        let labels: std::collections::BTreeSet<&str> = columns.iter().map(|c| c.0).collect();
        assert_eq!(columns.len(), labels.len(), "{columns:?}");
    }

    #[test]
    fn nested_groups_name_rows_by_their_whole_path() {
        let cells = cells(ENCODING).unwrap();
        let names: Vec<&str> = cells.iter().filter(|c| c.is_name).map(|c| c.row_label.as_str()).collect();
        assert_eq!(names.len(), 16);
        assert_eq!(names[..5], ["encoding::measured::100", "encoding::measured::1000", "encoding::measured::10000", "encoding::measured::100000", "encoding::metrics::100"]);
        assert_eq!(names[15], "encoding::prometheus_client::100000");
        assert_eq!(row(ENCODING, &cells, "encoding::prometheus::1000")[2], ("slowest", "250", Some(Unit::Us)));
    }

    /// Counters' rates (values made up here, in divan's layout): items, bytes both decimal and
    /// binary, cycles and characters, each under its own kind.
    #[test]
    fn a_counter_s_rates_are_the_leaf_s_cells_by_kind() {
        let code = "Timer precision: 10 ns
ops                  fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ add               9.149 µs      │ 73.57 µs      │ 9.279 µs      │ 9.987 µs      │ 100     │ 100
│                    3.581 Gitem/s │ 445.3 Mitem/s │ 3.531 Gitem/s │ 3.28 Gitem/s  │         │
├─ copy              1.5 ms        │ 1.7 ms        │ 1.6 ms        │ 1.6 ms        │ 100     │ 100
│                    2.461 GB/s    │ 2.2 GB/s      │ 2.3 GB/s      │ 2.31 GB/s     │         │
│                    1.2 GHz       │ 1.1 GHz       │ 1.15 GHz      │ 1.15 GHz      │         │
╰─ parse             2.1 m         │ 2.3 m         │ 2.2 m         │ 2.2 m         │ 3       │ 3
                     12.4 Mchar/s  │ 11 KiB/s      │ 12 Mchar/s    │ 12 Mchar/s    │         │
";
        let cells = cells(code).unwrap();
        let add = row(code, &cells, "ops::add");
        assert_eq!(
            add[7..],
            [
                ("items/s › fastest", "3.581", Some(Unit::Other("Gitem/s".into()))),
                ("items/s › slowest", "445.3", Some(Unit::Other("Mitem/s".into()))),
                ("items/s › median", "3.531", Some(Unit::Other("Gitem/s".into()))),
                ("items/s › mean", "3.28", Some(Unit::Other("Gitem/s".into()))),
            ]
        );
        let copy = row(code, &cells, "ops::copy");
        assert_eq!(copy[7], ("bytes/s › fastest", "2.461", Some(Unit::GbPerS)));
        assert_eq!(copy[11], ("cycles/s › fastest", "1.2", Some(Unit::GHz)));
        let parse = row(code, &cells, "ops::parse");
        assert_eq!(parse[1], ("fastest", "2.1", Some(Unit::Min)), "divan's `m` is minutes");
        // The kind is the first value's: a line is one counter's.
        assert_eq!(parse[7..9], [("chars/s › fastest", "12.4", Some(Unit::Other("Mchar/s".into()))), ("chars/s › slowest", "11", Some(Unit::KiBPerS))]);
    }

    /// Trees as pasted: converted to ASCII (with a mix of both), `└─` for `╰─`, indented as a
    /// whole, a long name pushing its values right, thread counts, an ignored leaf, and
    /// branches stripped.
    #[test]
    fn pasted_trees_read_as_divan_printed_them() {
        let ascii = "Timer precision: 41 ns
copy_tree             fastest       | slowest       | median        | mean          | samples | iters
|- copy_tree_n_files                |               |               |               |         |
   |- 10              2.234 ms      | 14.69 ms      | 2.51 ms       | 2.648 ms      | 100     | 100
   +- 1000            168.3 ms      | 205.3 ms      | 170.1 ms      | 171.2 ms      | 100     | 100
";
        let cells = cells(ascii).unwrap();
        assert_eq!(row(ascii, &cells, "copy_tree::copy_tree_n_files::1000")[1], ("fastest", "168.3", Some(Unit::Ms)));
        let mixed = "    bench     fastest       | slowest       | median        | mean          | samples | iters
    ├─ large                |               |               |               |         |
    |  ├─ L1  99.48 ms      | 133.5 ms      | 107.7 ms      | 109.1 ms      | 100     | 100
    |  └─ L2  31.42 ms      | 41.47 ms      | 33.18 ms      | 33.96 ms      | 100     | 100
    └─ small                |               |               |               |         |
       ├─ ignored_bench (ignored)           |               |               |         |
       ├─ threads           |               |               |               |         |
       │  ├─ t=1  1.2 µs    │ 1.3 µs        │ 1.25 µs       │ 1.25 µs       │ 100     │ 100
       │  ╰─ t=4  2.2 µs    │ 2.3 µs        │ 2.25 µs       │ 2.25 µs       │ 100     │ 100
       ╰─ a_name_longer_than_its_column_was  5.1 ns │ 6.2 ns │ 5.5 ns │ 5.6 ns │ 100 │ 51200
";
        let cells = super::cells(mixed).unwrap();
        let names: Vec<&str> = cells.iter().filter(|c| c.is_name).map(|c| c.row_label.as_str()).collect();
        assert_eq!(names, ["bench::large::L1", "bench::large::L2", "bench::small::threads::t=1", "bench::small::threads::t=4", "bench::small::a_name_longer_than_its_column_was"]);
        assert_eq!(row(mixed, &cells, "bench::small::a_name_longer_than_its_column_was")[6], ("iters", "51200", None));
        let stripped = "bench_factory                          fastest       | slowest       | median        | mean          | samples | iters
bench_create                                      |               |               |               |         |
(\"Circle\", [5.0])                42.22 ns      | 200.1 ns      | 42.8 ns       | 45.26 ns      | 20642   | 21137408
";
        let cells = super::cells(stripped).unwrap();
        assert_eq!(row(stripped, &cells, "bench_factory::(\"Circle\", [5.0])")[4], ("mean", "45.26", Some(Unit::Ns)));
    }

    /// A line cut short gives the cells it holds; two runs in one block are tables in order.
    #[test]
    fn cut_rows_and_several_runs() {
        let code = "Timer precision: 41 ns
counters   fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ a       697 ns        │ 814.7 ns      │ 807.4 ns      │ 803.8 ns      │ 504     │ 50400000
╰─ b       3.179 µs      │ 3.8
54 µs      │ 3.818 µs      │ 3.793 µs      │ 504     │ 50400000

Timer precision: 2.36 µs
counters   fastest       │ slowest       │ median        │ mean          │ samples │ iters
╰─ a       17.4 ns       │ 27.21 ns      │ 23.3 ns       │ 23.34 ns      │ 512     │ 51200000
";
        let cells = cells(code).unwrap();
        let got = laid_out(code, &cells);
        let b: Vec<_> = got.iter().filter(|c| c.2 == "counters::b").map(|c| (c.3, c.4)).collect();
        assert_eq!(b, [("benchmark", "b"), ("fastest", "3.179")], "`3.8` is cut from its unit");
        assert!(got.iter().all(|c| c.2 != "counters::54 µs"), "the rest of a cut line is no row");
        let tables: Vec<(usize, &str, &str)> = got.iter().filter(|c| c.3 == "fastest" || c.2 == "Run").map(|c| (c.0, c.2, c.4)).collect();
        assert_eq!(tables, [(0, "Run", "41"), (1, "counters::a", "697"), (1, "counters::b", "3.179"), (2, "Run", "2.36"), (3, "counters::a", "17.4")]);
    }

    /// Box-drawn tables that are not divan's, and its titles without their bars, are no table.
    #[test]
    fn other_tables_are_not_divan_s() {
        for code in [
            "│ Node │ fastest │ slowest │ median │ mean │\n│ a │ 1 ns │ 2 ns │ 1 ns │ 1 ns │\n",
            "name fastest slowest median mean samples iters\na 1 ns 2 ns 1 ns 1 ns 100 100\n",
            "x     fastest │ slowest │ mean │ median\n├─ a  1 ns │ 2 ns │ 1 ns │ 1 ns\n",
            "Timer precision: 41 ns\n",
            "                      │    v0.1.3    │               v1.0.0                │\n",
        ] {
            assert_eq!(cells(code), None, "{code}");
        }
        assert_eq!(header("xfastest │ slowest │ median │ mean"), None);
        assert_eq!(header("fastest │ slowest │ median │ mean").map(|h| h.1), Some(4));
    }

    /// Every sample cut at every character, and odd bytes in a row: no panic, and every value
    /// cell is a number.
    #[test]
    fn cut_and_odd_lines_never_panic() {
        let sample = &MEMORY[..MEMORY.find("├─ metrics").unwrap_or(MEMORY.len())];
        for end in (0..=sample.len()).filter(|&k| sample.is_char_boundary(k)) {
            let code = &sample[..end];
            for cell in cells(code).unwrap_or_default() {
                let text = &code[cell.range.clone()];
                assert!(cell.is_name || text.parse::<f64>().is_ok(), "{code:?}: {text:?}");
            }
        }
        let header = "t  fastest │ slowest │ median │ mean │ samples │ iters\n";
        for row in [
            "├─",
            "├─ ",
            "├─   │",
            "│  │  │  ╰─ x  1 ns",
            "├─ a  1e3 ns │ NaN ns │ inf s │ -1 ns │ 1.5 │ x",
            "  alloc:",
            "├─ é  1 ns │ 2 µs │ 3 ms │ 4 s │ 5 │ 6\n│  alloc: │\n│  ",
            "+-|-`-└─╰─├─ a  1 ns",
        ] {
            let code = format!("{header}{row}\n");
            for cell in cells(&code).unwrap_or_default() {
                assert!(cell.is_name || code[cell.range.clone()].parse::<f64>().is_ok_and(|v| v >= 0.0), "{code:?}");
            }
        }
    }
}
