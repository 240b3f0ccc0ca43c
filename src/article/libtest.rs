//! libtest's benchmark report, as READMEs, blog posts and pull requests paste it: what `cargo
//! bench` prints for `#[bench]` functions on nightly Rust, and what the `bencher` crate prints
//! on stable Rust in the same layout.
//!
//! ```text
//! running 3 tests
//! test bench_fib_10   ... bench:          34 ns/iter (+/- 1)
//! test bench_parse    ... bench:       1,234 ns/iter (+/- 56)
//! test bench_big      ... bench:   1,234,567 ns/iter (+/- 12,345) = 830 MB/s
//!
//! test result: ok. 0 passed; 0 failed; 0 ignored; 3 measured; 0 filtered out; finished in 5.12s
//! ```
//!
//! Each benchmark's line is a row named by the benchmark as printed, its module path and all
//! (`huge::robinson`), which is the name `cargo bench -- NAME` filters by. Its cells are the
//! time per iteration under `ns/iter`, in ns; the spread after `+/-` under `+/-`, in ns; and,
//! where the benchmark set `b.bytes`, the throughput after `=` under `MB/s`, decimal megabytes a
//! second (libtest's `bench.rs` divides the bytes by the nanoseconds and multiplies by 1000).
//! Each cell is the value's digits, its unit the column's, as Go's `ns/op` is read. The time is
//! the median of libtest's samples of the time per iteration; the spread is no standard
//! deviation but the range of those samples, their maximum less their minimum after
//! winsorizing at 5 % (`fmt_bench_samples`), so that a claim on it is a claim on that range.
//!
//! The layout has grown. Until 2015 (rust-lang/rust#26068) the values had no thousands
//! separators (`3608 ns/iter (+/- 367)`); since then libtest groups them with commas (`1,234
//! ns/iter`), and since nightly-2024-05-11 (rust-lang/rust#124774) it prints both with two
//! decimals (`1,970.23 ns/iter (+/- 21.82)`), where the `bencher` crate keeps the integers. Each
//! value is read as printed. Lines pasted without libtest's `test` and `... bench:` (`literal
//! 124 ns/iter (+/- 0)`, as hand-made summaries of it are), with tabs between the words (tools
//! that print the same layout), indented, with no `=` before the throughput, or with a comment
//! after them read the same.
//!
//! Any other line gives nothing: `test x ... ok`, `... ignored` (with or without a reason),
//! `FAILED`, `running 3 tests`. Nor does the summary `test result: ok. ... finished in 5.12s`,
//! as Go's `ok  pkg  2.345s` gives none: its counts count the run's tests rather than measure
//! any, and its time is the wall time of the whole run, calibration included, which is no
//! benchmark's result; read, they would only add half a dozen unbound numbers to every block. A
//! block with no benchmark line (one whose benchmarks were all `ignored`) is no report.
//!
//! A block may hold several runs: cargo's `Running benches/a.rs (…)` and `running 6 tests`
//! before each bench target's, or runs pasted one after the other under a label such as
//! `after:`. A line of any other text after a run's rows starts the next table, so that the
//! same benchmark in two runs is two rows a `table` tells apart; blank lines, which separate
//! the groups of one run, and libtest's own status lines do not.

use std::ops::Range;

use super::console::{ConsoleCell, lines, tokens};
use super::numbers::Unit;

/// The columns of a row, after the benchmark's name: each one's label and unit.
const COLUMNS: [(&str, Unit); 3] = [("ns/iter", Unit::Ns), ("+/-", Unit::Ns), ("MB/s", Unit::MbPerS)];

/// The cells of libtest's benchmark lines in `code`, or `None` when it holds none. See the
/// module's documentation for the tables they make.
pub(crate) fn cells(code: &str) -> Option<Vec<ConsoleCell>> {
    let mut cells = Vec::new();
    let mut table = 0;
    let mut row = 0;
    for (start, text) in lines(code) {
        let Some(bench) = bench_line(text) else {
            // Text that is neither a benchmark, a blank line nor libtest's own status line ends
            // the run before it.
            let line = text.trim();
            if row > 0 && !line.is_empty() && !line.starts_with("test ") {
                table += 1;
                row = 0;
            }
            continue;
        };
        row += 1;
        let abs = |r: &Range<usize>| start + r.start..start + r.end;
        let label = &text[bench.name.clone()];
        cells.push(ConsoleCell::plain(table, row, 0, label, "benchmark", abs(&bench.name)));
        for (k, (range, (column, unit))) in [Some(bench.time), Some(bench.spread), bench.throughput].into_iter().zip(COLUMNS).enumerate() {
            if let Some(range) = range {
                cells.push(ConsoleCell { unit: Some(unit), ..ConsoleCell::plain(table, row, k + 1, label, column, abs(&range)) });
            }
        }
    }
    (!cells.is_empty()).then_some(cells)
}

/// One benchmark's line: the bytes of its name and of each value, in the line.
struct Bench {
    name: Range<usize>,
    time: Range<usize>,
    spread: Range<usize>,
    throughput: Option<Range<usize>>,
}

/// The benchmark on the line `text`, or `None` where the line is not one: a value, `ns/iter`,
/// `(+/-` and a value closed by `)`, named by the word before libtest's `...`, or where the line
/// has none by its only word before the value (after a `test`).
fn bench_line(text: &str) -> Option<Bench> {
    let toks = tokens(text);
    let word = |k: usize| toks.get(k).map_or("", |r| &text[r.clone()]);
    let unit = (1..toks.len()).find(|&k| word(k) == "ns/iter" && word(k + 1) == "(+/-")?;
    let time = toks[unit - 1].clone();
    let spread = toks.get(unit + 2)?.clone();
    let spread = spread.start..spread.end.checked_sub(1).filter(|_| text[spread.clone()].ends_with(')'))?;
    if !is_amount(&text[time.clone()]) || !is_amount(&text[spread.clone()]) {
        return None;
    }
    let name = match (0..unit - 1).rev().find(|&k| word(k) == "...") {
        Some(dots) => toks[dots.checked_sub(1)?].clone(),
        None => match unit - 1 {
            1 => toks[0].clone(),
            2 if word(0) == "test" => toks[1].clone(),
            _ => return None,
        },
    };
    // libtest prints `= 830 MB/s`; a line edited by hand may have lost the `=`.
    let after = if word(unit + 3) == "=" { unit + 4 } else { unit + 3 };
    let throughput = (word(after + 1) == "MB/s" && is_amount(word(after))).then(|| toks[after].clone());
    Some(Bench { name, time, spread, throughput })
}

/// Whether `text` is a non-negative amount as libtest prints one: digits, grouped in threes by
/// commas or not, and two decimals since 2024.
fn is_amount(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let mut groups = whole.split(',');
    let first = groups.next().unwrap_or("");
    let rest: Vec<&str> = groups.collect();
    digits(first) && (rest.is_empty() || first.len() <= 3) && rest.iter().all(|g| g.len() == 3 && digits(g)) && fraction.is_none_or(digits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::article::console::testing::laid_out_with_units as laid_out;

    /// The benchmarks of memchr 1.0's README (BurntSushi/memchr at
    /// c4cfa280eddcac76f664652f467141936623990e, MIT or Unlicense): integers with separators,
    /// and a throughput on every line.
    const MEMCHR: &str = include_str!("../../tests/fixtures/harness/libtest-console/memchr-readme.txt");
    /// robinson's README (adamreichold/robinson at 5b2d89e6740abb514a40ea25406dc923de7242c2,
    /// MIT or Apache-2.0): libtest since 2024, two decimals, groups parted by blank lines.
    const ROBINSON: &str = include_str!("../../tests/fixtures/harness/libtest-console/robinson-readme.txt");
    /// const-hex's README (DaniPopes/const-hex at 63021c291d929360254dfd1c98a65346056360fd, MIT
    /// or Apache-2.0): 114 benchmarks in six groups, two decimals, values from 1.57 ns to 12 ms.
    const CONST_HEX: &str = include_str!("../../tests/fixtures/harness/libtest-console/const-hex-readme.txt");


    #[test]
    fn a_line_gives_its_name_time_spread_and_throughput() {
        let cells = cells(MEMCHR).unwrap();
        let got = laid_out(MEMCHR, &cells);
        assert_eq!(got.len(), 16);
        let ns = Some(Unit::Ns);
        assert_eq!(
            got[..4],
            [
                (0, 1, "iterator", "benchmark", "iterator", None),
                (0, 1, "iterator", "ns/iter", "5,280", ns.clone()),
                (0, 1, "iterator", "+/-", "13", ns.clone()),
                (0, 1, "iterator", "MB/s", "1893", Some(Unit::MbPerS)),
            ]
        );
        assert_eq!(got[15], (0, 4, "libc_memrchr", "MB/s", "50761", Some(Unit::MbPerS)));
        assert!(cells.iter().all(|c| c.is_name == (c.column == 0)));
        assert_eq!(super::super::console::cells(MEMCHR).map(|c| c.len()), Some(16), "the console reader finds the layout");
    }

    /// libtest since 2024 prints two decimals; a blank line between groups keeps one table.
    #[test]
    fn decimals_and_groups_read_as_one_run() {
        let cells = cells(ROBINSON).unwrap();
        let got = laid_out(ROBINSON, &cells);
        assert_eq!(got.len(), 15 * 3);
        assert!(got.iter().all(|c| c.0 == 0), "blank lines start no table");
        assert_eq!(
            got[3..6].iter().map(|c| (c.1, c.2, c.3, c.4)).collect::<Vec<_>>(),
            [(2, "gigantic::robinson", "benchmark", "gigantic::robinson"), (2, "gigantic::robinson", "ns/iter", "214,256.85"), (2, "gigantic::robinson", "+/-", "2,676.48"),]
        );
        assert_eq!(got[44].4, "91.92");
        let cells = super::cells(CONST_HEX).unwrap();
        assert_eq!(cells.len(), 114 * 3);
        let find = |row: &str, column: &str| cells.iter().find(|c| c.row_label == row && c.column_label == column).map(|c| &CONST_HEX[c.range.clone()]);
        assert_eq!(find("encode_to_slice::const_hex::bench1_32b", "ns/iter"), Some("1.57"));
        assert_eq!(find("format::std::bench6_1m", "ns/iter"), Some("12,348,138.40"));
        assert_eq!(find("format::std::bench6_1m", "+/-"), Some("291,827.38"));
    }

    /// The layouts before separators, without libtest's words, with tabs, indented, with no `=`
    /// and with a comment after the line; a line whose values are not libtest's is none.
    #[test]
    fn older_and_edited_lines_read_alike() {
        let code = "test e ... bench:      3608 ns/iter (+/- 367)
literal                                 124 ns/iter (+/- 0)
easy0_32                                 44 ns/iter (+/- 0) = 727 MB/s
test greek_00\t... bench:\t15585711 ns/iter (+/- 0) = 481 MB/s
  test short::kmp_find          ... bench:       6,515 ns/iter (+/- 272)  391 MB/s
  test short::gs_find           ... bench:       4,791 ns/iter (+/- 184) = 532 MB/s  // NOTE
    tests::bench_answer ... bench:  10,605,870.00 ns/iter (+/- 626,060.00)
";
        let cells = cells(code).unwrap();
        let rows: Vec<(&str, Vec<&str>)> = (1..=7)
            .map(|row| {
                let mine: Vec<&ConsoleCell> = cells.iter().filter(|c| c.row == row).collect();
                (mine[0].row_label.as_str(), mine[1..].iter().map(|c| &code[c.range.clone()]).collect())
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("e", vec!["3608", "367"]),
                ("literal", vec!["124", "0"]),
                ("easy0_32", vec!["44", "0", "727"]),
                ("greek_00", vec!["15585711", "0", "481"]),
                ("short::kmp_find", vec!["6,515", "272", "391"]),
                ("short::gs_find", vec!["4,791", "184", "532"]),
                ("tests::bench_answer", vec!["10,605,870.00", "626,060.00"]),
            ]
        );
        for line in [
            "test x ... bench:       1,23 ns/iter (+/- 1)",
            "test x ... bench:       12.5.1 ns/iter (+/- 1)",
            "test x ... bench:       12 ns/iter (+/- 1",
            "test x ... bench:       -12 ns/iter (+/- 1)",
            "one two 12 ns/iter (+/- 1)",
            "... bench: 12 ns/iter (+/- 1)",
        ] {
            assert_eq!(super::cells(line), None, "{line}");
        }
    }

    /// `ok`, `ignored` and the summary give no cell, and a block of only those is no report.
    /// Text after a run's rows (cargo's `Running` line, a label) starts another table.
    #[test]
    fn status_lines_give_nothing_and_other_text_parts_runs() {
        let code = "running 3 tests
test tests::it_works ... ok
test benches::sanity ... ignored, needs a large input
test benches::hand ... bench:   1,218,778.12 ns/iter (+/- 53,255.62)

test result: ok. 1 passed; 0 failed; 1 ignored; 1 measured; 0 filtered out; finished in 2.51s

     Running benches/other.rs (target/release/deps/other-1d1858f62ff0a79c)

running 1 test
test benches::hand ... bench:   1,077,039.57 ns/iter (+/- 25,587.99)
";
        let cells = cells(code).unwrap();
        let got = laid_out(code, &cells);
        assert_eq!(
            got.iter().map(|c| (c.0, c.1, c.3, c.4)).collect::<Vec<_>>(),
            [
                (0, 1, "benchmark", "benches::hand"),
                (0, 1, "ns/iter", "1,218,778.12"),
                (0, 1, "+/-", "53,255.62"),
                (1, 1, "benchmark", "benches::hand"),
                (1, 1, "ns/iter", "1,077,039.57"),
                (1, 1, "+/-", "25,587.99"),
            ]
        );
        assert_eq!(super::cells("running 2 tests\ntest a ... ignored\ntest b ... ignored\n\ntest result: ok. 0 passed; 0 failed; 2 ignored; 0 measured\n"), None);
    }

    /// Lines cut anywhere, odd characters and bytes next to the layout's words: no panic, and no
    /// cell that does not point at a value.
    #[test]
    fn cut_and_odd_lines_never_panic() {
        let line = "test µ::é ... bench:   1,234.56 ns/iter (+/- 7.89) = 830 MB/s\n";
        for end in (0..=line.len()).filter(|&k| line.is_char_boundary(k)) {
            let code = &line[..end];
            for cell in super::cells(code).unwrap_or_default() {
                let text = &code[cell.range.clone()];
                assert!(cell.column == 0 || is_amount(text), "{code:?}: {text:?}");
            }
        }
        for code in
            ["ns/iter (+/- 1)", "ns/iter", " (+/- ns/iter (+/-", "x ns/iter (+/- )", "x 1 ns/iter (+/- )", "test ... bench: 1 ns/iter (+/- 1)", "\u{2028}1 ns/iter (+/- 1)\r\n"]
        {
            let _ = super::cells(code);
        }
        assert!(!is_amount("") && !is_amount(",") && !is_amount("1,") && !is_amount("1.") && !is_amount(".5") && !is_amount("1234,567"));
        assert!(is_amount("0") && is_amount("1,234,567") && is_amount("0.25") && is_amount("1234"));
    }
}
