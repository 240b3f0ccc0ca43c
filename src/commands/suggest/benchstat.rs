//! The cells of benchstat's comparison table that are no statistic of one sample, read by
//! where they stand rather than searched for: the interval after `±`, the p-value and the
//! sample counts in parentheses, the change from the base, and the `geomean` row.
//!
//! benchstat (golang.org/x/perf/cmd/benchstat since 2023, `golang/perf` at `712aea8`) lays its
//! table out the same way every time, and `article::console::benchstat_cells` reads each cell
//! under a label that says what it is: `<file> <unit>` for the median of the row's samples in
//! that file, `<file> <unit> ±` for the 95 % interval of that median in percent of it, and `<file> vs
//! base` after every file but the first, the base, for the change of the median from the
//! base's, then `(p=0.PPP n=N)` (`n=N1+N2` where the counts differ, base first; no `p=` where
//! p is 0; `benchmath/sample.go`, `Comparison.String`). The `geomean` row holds the geometric
//! mean of each column's medians and the geometric mean of the ratios to the base
//! (`cmd/benchstat/internal/benchtab/builder.go`, `summarizeCol`), which is the ratio of the
//! two geometric means when both files hold the same benchmarks.
//!
//! So for such a cell the candidate is the computation benchstat made, over the file the
//! column names and the benchmark the row names, and nothing else: a statistic that merely
//! rounds to `4%` (four is GOMAXPROCS) is no reading of an interval. Each candidate is still
//! computed and kept only where it reproduces the quote. A table of benchstat before 2023
//! (`old time/op`, `delta`) is left to the search: its `±` and its p-value are computed after
//! dropping outliers, which no check here repeats.

use std::collections::BTreeSet;

use super::{Binding, Candidate, Selection, Series, Source, StatRef, benchmark_ref, by_distance, context_words, fits, hints, quotable};
use crate::article::numbers::{Number, Unit};
use crate::article::{Article, Sentence};
use crate::checks::stat::{DEFAULT_CONFIDENCE, Measure};
use crate::checks::units;
use crate::evidence::readers::{Format, go_bench};
use crate::registry::Registry;
use crate::stats::Statistic;
use crate::stats::nonparametric::{Spread, mann_whitney, median_interval};

/// What a layout-read cell's number is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Role {
    /// `± X%`: the interval of the median of `file`'s samples.
    Interval { file: String },
    /// `p=…`: the U test of the base file's samples against `file`'s.
    PValue { file: String },
    /// `n=N`: both files' counts, which are equal; `n=N1+N2`: the base's (`new` false) or the
    /// new file's count.
    Count { file: String, both: bool, new: bool },
    /// `-6.02%`: the change of `file`'s median from the base's.
    Change { file: String },
    /// The `geomean` row's value under `file`: the geometric mean of the column's medians.
    Geomean { file: String },
    /// The `geomean` row's change: the geometric mean of the ratios of `file`'s medians to the
    /// base's.
    GeomeanChange { file: String },
}

/// A number's cell as benchstat's layout places it: its role, the table's base file, the
/// unit of the table's values, and the benchmarks of its rows.
pub(super) struct Placed {
    pub(super) role: Role,
    base: String,
    /// The go-bench field that holds the table's unit (`time_ns` for `sec/op`).
    field: String,
    /// The labels of the table's rows other than `geomean`, as printed.
    rows: Vec<String>,
}

/// One column of a benchstat table, by its label: `<file> <unit>`, then ` ±` or ` vs base`.
#[derive(Debug, PartialEq)]
enum Column<'a> {
    Values { file: &'a str, unit: &'a str },
    Interval { file: &'a str, unit: &'a str },
    Change { file: &'a str, unit: &'a str },
}

fn column(label: &str) -> Option<Column<'_>> {
    if let Some(values) = label.strip_suffix(" ±") {
        let (file, unit) = split(values)?;
        return Some(Column::Interval { file, unit });
    }
    if let Some(values) = label.strip_suffix(" vs base") {
        let (file, unit) = split(values)?;
        return Some(Column::Change { file, unit });
    }
    let (file, unit) = split(label)?;
    Some(Column::Values { file, unit })
}

/// `<file> <unit>` taken apart: the file's label may hold spaces, the unit (`sec/op`) none.
fn split(values: &str) -> Option<(&str, &str)> {
    values.rsplit_once(' ').filter(|(file, unit)| !file.is_empty() && unit.contains('/'))
}

/// The go-bench field of one of benchstat's units: benchstat turns `ns/op` into seconds
/// (`sec/op`) and Go's `MB/s` into bytes per second (`B/s`), and prints the rest as Go wrote
/// them.
fn field_of_unit(unit: &str) -> String {
    match unit {
        "sec/op" => "time_ns".into(),
        "B/s" => "mb_per_s".into(),
        other => go_bench::metric_field(other),
    }
}

/// Whether a row label is benchstat's geometric mean.
fn is_geomean(label: &str) -> bool {
    label == "geomean"
}

/// Where `number` stands in a benchstat table, if it stands in one and is one of the cells
/// this module reads (not a median, which the search finds as any statistic).
pub(super) fn place(article: &Article, sentence: &Sentence, number: &Number) -> Option<Placed> {
    let cell = sentence.cell.as_ref()?;
    let here = column(&cell.column_label)?;
    // The table's columns and rows, from every cell of it the article holds.
    let cells: Vec<_> = article.sentences.iter().filter_map(|s| s.cell.as_ref()).filter(|c| c.table == cell.table && c.row > 0).collect();
    let labels: BTreeSet<&str> = cells.iter().map(|c| c.column_label.as_str()).collect();
    // benchstat before 2023 (`delta`) is left to the search: see the module's documentation.
    if labels.iter().any(|l| l.ends_with(" delta")) {
        return None;
    }
    let columns: Vec<Column<'_>> = labels.iter().filter_map(|l| column(l)).collect();
    // Only benchstat's layout since 2023 marks the change `vs base`; an interval column without
    // one (a single file) still names its file.
    if !columns.iter().any(|c| matches!(c, Column::Change { .. } | Column::Interval { .. })) {
        return None;
    }
    // The base is the file of the first column of values.
    let base = cells
        .iter()
        .filter_map(|c| match column(&c.column_label) {
            Some(Column::Values { file, .. }) => Some((c.column, file)),
            _ => None,
        })
        .min()?
        .1
        .to_string();
    let (file, unit) = match here {
        Column::Values { file, unit } | Column::Interval { file, unit } | Column::Change { file, unit } => (file, unit),
    };
    let field = field_of_unit(unit);
    // In the table's order: each row's cells share its index and label.
    let rows: Vec<String> = cells.iter().filter(|c| !is_geomean(&c.row_label)).map(|c| (c.row, c.row_label.clone())).collect::<BTreeSet<_>>().into_iter().map(|(_, l)| l).collect();
    let file = file.to_string();
    let geomean = is_geomean(&cell.row_label);
    let before = sentence.text.get(..number.span.start).unwrap_or_default();
    let role = match here {
        Column::Values { .. } if geomean => Role::Geomean { file },
        Column::Values { .. } => return None,
        Column::Interval { .. } => Role::Interval { file },
        Column::Change { .. } if geomean => Role::GeomeanChange { file },
        Column::Change { .. } => {
            if before.ends_with("p=") {
                Role::PValue { file }
            } else if before.ends_with("n=") {
                let both = !sentence.text.get(number.span.end..).unwrap_or_default().starts_with('+');
                Role::Count { file, both, new: false }
            } else if before.ends_with('+') && before.contains("n=") {
                Role::Count { file, both: false, new: true }
            } else {
                Role::Change { file }
            }
        }
    };
    Some(Placed { role, base, field, rows })
}

/// The evidence files a column's label names: benchstat labels a column with the file's name
/// as given on its command line. Where no go-bench file has that name or stem, every go-bench
/// file may be it, and the words of the cell rank them.
fn files<'a>(sources: &'a [Source], label: &str) -> Vec<&'a Source> {
    let go: Vec<&Source> = sources.iter().filter(|s| s.format == Format::GoBench).collect();
    // benchstat prints the path as given (`bench/baseline.txt`), which need not be where the
    // file lies under evidence/: the file's name decides, with or without its extension.
    let wanted = label.rsplit('/').next().unwrap_or(label);
    let named: Vec<&Source> = go
        .iter()
        .copied()
        .filter(|s| {
            let name = s.path.rsplit('/').next().unwrap_or(&s.path);
            name == wanted || name.rsplit_once('.').is_some_and(|(stem, _)| stem == wanted)
        })
        .collect();
    if named.is_empty() { go } else { named }
}

/// The selection of `source` that holds the benchmark a row's label names, and its `field`:
/// the records selected by that name, or all of them where the file holds that benchmark alone.
fn row_series<'a>(source: &'a Source, label: &str, field: &str) -> Option<(&'a Selection, &'a Series)> {
    let name = go_bench::record_name(label);
    let alone = source.only_name.as_deref() == Some(name.as_str());
    let sel = source.selections.iter().find(|sel| match &sel.select {
        Some((f, v)) => f == "name" && *v == name,
        None => alone && sel.filter.is_none(),
    })?;
    let series = sel.series.iter().find(|s| s.field == field && s.derive.is_none())?;
    Some((sel, series))
}

/// A score above any the search gives a statistic that only rounds to the quote: the layout
/// says what the cell is. The words of the cell still rank two files that both could be it.
const PLACED: f64 = 10.0;

/// The candidates for a placed number, best first.
pub(super) fn candidates(sources: &[Source], registry: &Registry, placed: &Placed, sentence: &Sentence, number: &Number) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    let context = context_words(sentence, number);
    let row = sentence.cell.as_ref().map(|c| c.row_label.as_str()).unwrap_or_default();
    let field = placed.field.as_str();
    let unit = units::of_field(&registry.field_units, field);
    let mut out = Vec::new();
    // Each pair of a compared file and the base: two files, which the labels may both name.
    let file_pairs = |file: &str| -> Vec<(&Source, &Source)> {
        let bases = files(sources, &placed.base);
        files(sources, file).into_iter().flat_map(|new| bases.iter().filter(move |base| !std::ptr::eq(new, **base)).map(move |base| (new, *base))).collect()
    };
    // Each such pair that both hold `label`'s benchmark.
    let pairs = |file: &str, label: &str| {
        file_pairs(file).into_iter().filter_map(|(new, base)| Some(((new, row_series(new, label, field)?), (base, row_series(base, label, field)?)))).collect::<Vec<_>>()
    };
    match &placed.role {
        Role::Interval { file } => {
            for source in files(sources, file) {
                let Some((sel, series)) = row_series(source, row, field) else { continue };
                let Spread::Percent(percent) = median_interval(series.samples.sorted(), DEFAULT_CONFIDENCE).spread() else { continue };
                if !quoted.matches(percent, None) || quoted.unit.as_ref().is_some_and(|u| *u != Unit::Percent) {
                    continue;
                }
                let binding = Binding::Stat(benchmark_ref(source, sel, series, Measure::MedianCi { confidence: DEFAULT_CONFIDENCE }));
                out.push((Candidate { binding, value: percent, score: PLACED + hints(&context, source, sel, series) }, (percent - quoted.value).abs()));
            }
        }
        Role::PValue { file } => {
            for ((new, (nsel, nser)), (base, (bsel, bser))) in pairs(file, row) {
                let p = mann_whitney(bser.samples.sorted(), nser.samples.sorted()).p;
                if !quoted.matches(p, None) {
                    continue;
                }
                let score = PLACED + hints(&context, new, nsel, nser);
                let binding = Binding::UTest {
                    base: benchmark_ref(base, bsel, bser, Measure::Statistic(Statistic::Count)),
                    new: benchmark_ref(new, nsel, nser, Measure::Statistic(Statistic::Count)),
                };
                out.push((Candidate { binding, value: p, score }, (p - quoted.value).abs()));
            }
        }
        Role::Count { file, both, new: second } => {
            for ((new, (nsel, nser)), (base, (bsel, bser))) in pairs(file, row) {
                let (n_new, n_base) = (nser.samples.len() as f64, bser.samples.len() as f64);
                let score = PLACED + hints(&context, new, nsel, nser);
                let count = |s: &Source, sel, ser| benchmark_ref(s, sel, ser, Measure::Statistic(Statistic::Count));
                let (binding, value) = match (both, second) {
                    (true, _) if n_new == n_base => (Binding::Counts(count(base, bsel, bser), count(new, nsel, nser)), n_new),
                    (true, _) => continue,
                    (false, false) => (Binding::Stat(count(base, bsel, bser)), n_base),
                    (false, true) => (Binding::Stat(count(new, nsel, nser)), n_new),
                };
                if quoted.matches(value, None) {
                    out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
                }
            }
        }
        Role::Change { file } => {
            for ((new, (nsel, nser)), (base, (bsel, bser))) in pairs(file, row) {
                let (m_new, m_base) = (nser.samples.median(), bser.samples.median());
                if m_base == 0.0 {
                    continue;
                }
                let value = (m_new / m_base - 1.0) * 100.0;
                if !quoted.matches(value, None) {
                    continue;
                }
                let median = Measure::Statistic(Statistic::Median);
                let binding = Binding::Change { new: vec![benchmark_ref(new, nsel, nser, median.clone())], base: vec![benchmark_ref(base, bsel, bser, median)], less: false };
                out.push((Candidate { binding, value, score: PLACED + hints(&context, new, nsel, nser) }, (value - quoted.value).abs()));
            }
        }
        Role::Geomean { file } => {
            for source in files(sources, file) {
                let medians = column_medians(source, &placed.rows, field);
                let Some(value) = geomean(medians.iter().map(|(_, m)| *m)) else { continue };
                let Some(value) = fits(&quoted, value, &super::SeriesUnit::Plain(unit.clone())) else { continue };
                let binding = Binding::Geomean { of: medians.into_iter().map(|(s, _)| s).collect(), unit: unit.as_ref().map(|u| u.symbol().to_string()) };
                let score = PLACED + 2.0 * source.tokens.iter().filter(|t| context.contains(*t)).count() as f64;
                out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
            }
        }
        Role::GeomeanChange { file } => {
            for (new, base) in file_pairs(file) {
                // The ratios of the rows both files hold, as benchstat takes them.
                let both: Vec<String> = placed.rows.iter().filter(|l| row_series(new, l, field).is_some() && row_series(base, l, field).is_some()).cloned().collect();
                let (n, b) = (column_medians(new, &both, field), column_medians(base, &both, field));
                let Some(value) = geomean(n.iter().zip(&b).map(|((_, x), (_, y))| if *y > 0.0 { x / y } else { f64::NAN })) else { continue };
                let value = (value - 1.0) * 100.0;
                if !quoted.matches(value, None) {
                    continue;
                }
                let binding = Binding::Change { new: n.into_iter().map(|(s, _)| s).collect(), base: b.into_iter().map(|(s, _)| s).collect(), less: false };
                let score = PLACED + 2.0 * new.tokens.iter().filter(|t| context.contains(*t)).count() as f64;
                out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
            }
        }
    }
    by_distance(out)
}

/// The median of `field` of each row's benchmark that `source` holds, as a `stat` query and its
/// value: benchstat's geometric mean of a column is over the cells it has.
fn column_medians(source: &Source, rows: &[String], field: &str) -> Vec<(StatRef, f64)> {
    rows.iter()
        .filter_map(|label| {
            let (sel, series) = row_series(source, label, field)?;
            Some((benchmark_ref(source, sel, series, Measure::Statistic(Statistic::Median)), series.samples.median()))
        })
        .collect()
}

/// The geometric mean, as the arith check computes it (`exp` of the mean of `ln`); `None` for
/// no values or a value that is not positive, where benchstat prints no geometric mean.
fn geomean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut k) = (0.0, 0usize);
    for v in values {
        if v.is_nan() || v <= 0.0 {
            return None;
        }
        sum += v.ln();
        k += 1;
    }
    (k > 0).then(|| (sum / k as f64).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_label_says_which_file_and_what() {
        assert_eq!(column("v0.1.3 sec/op"), Some(Column::Values { file: "v0.1.3", unit: "sec/op" }));
        assert_eq!(column("v0.1.3 sec/op ±"), Some(Column::Interval { file: "v0.1.3", unit: "sec/op" }));
        assert_eq!(column("crc-new.txt B/s vs base"), Some(Column::Change { file: "crc-new.txt", unit: "B/s" }));
        assert_eq!(column("old time/op ±"), Some(Column::Interval { file: "old", unit: "time/op" }));
        assert_eq!(column("Benchmark"), None);
        assert_eq!(column("Median time"), None, "a unit has a slash");
    }

    #[test]
    fn benchstat_s_units_name_go_bench_fields() {
        assert_eq!(field_of_unit("sec/op"), "time_ns");
        assert_eq!(field_of_unit("B/op"), "bytes_per_op");
        assert_eq!(field_of_unit("allocs/op"), "allocs_per_op");
        assert_eq!(field_of_unit("B/s"), "mb_per_s");
    }

    #[test]
    fn a_geometric_mean_needs_positive_values() {
        assert!((geomean([2.0, 8.0].into_iter()).unwrap() - 4.0).abs() < 1e-12);
        assert_eq!(geomean([2.0, 0.0].into_iter()), None);
        assert_eq!(geomean(std::iter::empty()), None);
    }
}
