//! The cells of benchstat's comparison table, read by where they stand rather than searched
//! for: each file's value, the interval after `±`, the p-value and the sample counts in
//! parentheses, the change from the base, and the `geomean` row. A value is the median of the
//! row's samples, which the search would find too, but among ties: at seven samples a median
//! can equal a quartile, and the layout says which it is.
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
//! benchstat before 2023 (`golang.org/x/perf/benchstat`, replaced at `golang/perf` commit
//! `02c5517`) printed `name  old time/op  new time/op  delta`, read under `old time/op`,
//! `old time/op ±`, `new time/op`, `new time/op ±` and `time/op delta` (`name  time/op` for one
//! file). It first dropped each benchmark's values outside Tukey's fences
//! ([`crate::stats::fences`]), then printed the mean of the rest, `± X%` for the larger
//! distance of their minimum or maximum from that mean ([`crate::stats::Samples::mean_range`]),
//! the change of the new mean from the old as `%+.2f%%` where the U test's p-value was below
//! 0.05 (`~` otherwise), `(p=0.PPP n=N1+N2)` from the test over the values kept, and `[Geo
//! mean]`, the geometric mean of each column's non-zero means and the ratio of the two
//! (`data.go`, `computeStats`; `table.go`, `addGeomean`). Its columns are `old` and `new`, not
//! the files' names, so the value of a cell tells which file it is. Each such candidate carries
//! `outliers = "tukey"`.
//!
//! So for such a cell the candidate is the computation benchstat made, over the file the
//! column names and the benchmark the row names, and nothing else: a statistic that merely
//! rounds to `4%` (four is GOMAXPROCS) is no reading of an interval. Each candidate is still
//! computed and kept only where it reproduces the quote.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::{Binding, Candidate, Selection, Series, Source, StatRef, benchmark_ref, by_distance, context_words, fits, hints, quotable};
use crate::article::numbers::{Number, Quoted, Unit};
use crate::article::{Article, Sentence};
use crate::checks::stat::{DEFAULT_CONFIDENCE, Measure};
use crate::checks::units;
use crate::evidence::readers::{Format, go_bench};
use crate::registry::Registry;
use crate::stats::nonparametric::{Spread, mann_whitney, median_interval};
use crate::stats::{Samples, Statistic, fences};

/// What a layout-read cell's number is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Role {
    /// The value of `file`'s column: the median of its samples (before 2023: the mean of the
    /// values the fences keep).
    Center { file: String },
    /// `± X%`: the interval of the median of `file`'s samples (before 2023: the range of the
    /// values kept around their mean).
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

/// Which benchstat printed a table.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Layout {
    /// Since 2023: medians, over every value.
    Current,
    /// Before 2023: means, over the values inside Tukey's fences.
    Old,
}

/// A benchstat table of the article, read once for all its cells: its layout, its base file,
/// the benchmarks of its rows, and before 2023 the values it prints.
pub(super) struct Table {
    layout: Layout,
    base: String,
    /// The labels of the table's rows other than `geomean`, as printed, in the table's order.
    rows: Vec<String>,
    /// Before 2023, the values the table prints in each column of values (`old`, `new`), by
    /// row: what tells which file a column is, where no file is named so.
    printed: Vec<(String, String, Quoted)>,
}

/// A number's cell as benchstat's layout places it: its role, the go-bench field that holds
/// its column's unit (`time_ns` for `sec/op`), and its table.
pub(super) struct Placed {
    pub(super) role: Role,
    field: String,
    table: Rc<Table>,
}

impl std::ops::Deref for Placed {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

/// One column of a benchstat table, by its label: `<file> <unit>`, then ` ±` or ` vs base`.
#[derive(Debug, PartialEq)]
enum Column<'a> {
    Values { file: &'a str, unit: &'a str },
    Interval { file: &'a str, unit: &'a str },
    Change { file: &'a str, unit: &'a str },
}

fn column(label: &str) -> Option<Column<'_>> {
    // Before 2023: the change of `new` from `old` is `<unit> delta`, and the columns of one
    // file name no file.
    if let Some(unit) = label.strip_suffix(" delta").filter(|u| is_old_unit(u)) {
        return Some(Column::Change { file: "new", unit });
    }
    if is_old_unit(label.strip_suffix(" ±").unwrap_or(label)) {
        return match label.strip_suffix(" ±") {
            Some(unit) => Some(Column::Interval { file: "", unit }),
            None => Some(Column::Values { file: "", unit: label }),
        };
    }
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
    values.rsplit_once(' ').filter(|(file, unit)| !file.is_empty() && (unit.contains('/') || *unit == "speed"))
}

/// Whether `unit` alone is a column label of benchstat before 2023: a metric without a file
/// (one file's table), one word with a slash, or `speed`.
fn is_old_unit(unit: &str) -> bool {
    !unit.contains(' ') && (unit.contains('/') || unit == "speed")
}

/// The go-bench field of one of benchstat's units: benchstat turns `ns/op` into seconds
/// (`sec/op`) and Go's `MB/s` into bytes per second (`B/s`), and prints the rest as Go wrote
/// them. Before 2023 it named a metric instead of a unit: `ns/op` is `time/op`, `ns/GC`
/// `time/GC`, `B/op` `alloc/op` and `MB/s` `speed`, alone or after a prefix and a dash
/// (`user-ns/op` is `user-time/op`; `benchstat/table.go`, `metricOf`).
fn field_of_unit(unit: &str) -> String {
    match (unit, go_unit_of_old_metric(unit)) {
        ("sec/op", _) => "time_ns".into(),
        ("B/s", _) => "mb_per_s".into(),
        (_, Some(go)) => go_bench::metric_field(&go),
        (other, None) => go_bench::metric_field(other),
    }
}

/// Go's unit that a metric of benchstat before 2023 renamed (`time/op` is `ns/op`,
/// `user-time/op` `user-ns/op`; `benchstat/table.go`, `metricOf`); `None` for a unit it printed
/// as Go wrote it.
fn go_unit_of_old_metric(metric: &str) -> Option<String> {
    const METRICS: [(&str, &str); 4] = [("time/op", "ns/op"), ("time/GC", "ns/GC"), ("alloc/op", "B/op"), ("speed", "MB/s")];
    METRICS.iter().find_map(|(name, go)| match metric.strip_suffix(name) {
        Some("") => Some(go.to_string()),
        Some(prefix) if prefix.ends_with('-') => Some(format!("{prefix}{go}")),
        _ => None,
    })
}

/// Whether a row label is benchstat's geometric mean (`[Geo mean]` before 2023).
fn is_geomean(label: &str) -> bool {
    label == "geomean" || label == "[Geo mean]"
}

/// Every benchstat table of `article`, by its index among the article's tables: each read once,
/// from all its cells, rather than once for each of its numbers.
pub(super) fn tables(article: &Article) -> BTreeMap<usize, Rc<Table>> {
    let mut by_table: BTreeMap<usize, Vec<&Sentence>> = BTreeMap::new();
    for sentence in &article.sentences {
        if let Some(cell) = sentence.cell.as_ref().filter(|c| c.row > 0) {
            by_table.entry(cell.table).or_default().push(sentence);
        }
    }
    by_table.into_iter().filter_map(|(index, sentences)| Some((index, Rc::new(table(&sentences)?)))).collect()
}

/// One table from the sentences of its cells; `None` where it is not benchstat's.
fn table(sentences: &[&Sentence]) -> Option<Table> {
    let cells: Vec<_> = sentences.iter().filter_map(|s| s.cell.as_ref()).collect();
    let labels: BTreeSet<&str> = cells.iter().map(|c| c.column_label.as_str()).collect();
    let columns: Vec<Column<'_>> = labels.iter().filter_map(|l| column(l)).collect();
    // Only benchstat's layouts mark the change `vs base` or `delta`; an interval column without
    // one (a single file) is benchstat's too.
    if !columns.iter().any(|c| matches!(c, Column::Change { .. } | Column::Interval { .. })) {
        return None;
    }
    // Before 2023: a `delta` column, a column that names no file, or a metric that benchstat
    // no longer prints (with more than two files each column names its file). A table of
    // `allocs/op` or of Go's other units alone, from more than two files, reads as today's.
    let old = |l: &&str| {
        l.ends_with(" delta")
            || is_old_unit(l.strip_suffix(" ±").unwrap_or(l))
            || column(l).is_some_and(|c| match c {
                Column::Values { unit, .. } | Column::Interval { unit, .. } | Column::Change { unit, .. } => go_unit_of_old_metric(unit).is_some(),
            })
    };
    let layout = if labels.iter().any(old) { Layout::Old } else { Layout::Current };
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
    // In the table's order: each row's cells share its index and label.
    let rows: Vec<String> = cells.iter().filter(|c| !is_geomean(&c.row_label)).map(|c| (c.row, c.row_label.clone())).collect::<BTreeSet<_>>().into_iter().map(|(_, l)| l).collect();
    let printed = match layout {
        Layout::Current => Vec::new(),
        Layout::Old => sentences
            .iter()
            .filter_map(|s| Some((s.cell.as_ref().filter(|c| !is_geomean(&c.row_label))?, s)))
            .filter_map(|(c, s)| match column(&c.column_label)? {
                Column::Values { file, .. } => Some((file.to_string(), c.row_label.clone(), quotable(s.numbers.first()?)?)),
                _ => None,
            })
            .collect(),
    };
    Some(Table { layout, base, rows, printed })
}

/// Where `number` stands in one of benchstat's `tables`, if it stands in one.
pub(super) fn place(tables: &BTreeMap<usize, Rc<Table>>, sentence: &Sentence, number: &Number) -> Option<Placed> {
    let cell = sentence.cell.as_ref()?;
    let table = tables.get(&cell.table)?;
    let here = column(&cell.column_label)?;
    let (file, unit) = match here {
        Column::Values { file, unit } | Column::Interval { file, unit } | Column::Change { file, unit } => (file, unit),
    };
    let field = field_of_unit(unit);
    let file = file.to_string();
    let geomean = is_geomean(&cell.row_label);
    let before = sentence.text.get(..number.span.start).unwrap_or_default();
    let role = match here {
        Column::Values { .. } if geomean => Role::Geomean { file },
        Column::Values { .. } => Role::Center { file },
        Column::Interval { .. } => Role::Interval { file },
        Column::Change { .. } if geomean => Role::GeomeanChange { file },
        Column::Change { .. } => {
            if before.ends_with("p=") {
                Role::PValue { file }
            } else if before.ends_with("n=") {
                // `n=10` (since 2023, for equal counts) and `n=10+10` (before 2023, always two)
                // both say that both files kept 10: a cell's second `10` is the same text as its
                // first, and binds with it, so the one check verifies both counts.
                let after = sentence.text.get(number.span.end..).unwrap_or_default();
                let second = after.strip_prefix('+').map(|rest| &rest[..rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len())]);
                let both = second.is_none_or(|n| n == number.text);
                Role::Count { file, both, new: false }
            } else if before.ends_with('+') && before.contains("n=") {
                Role::Count { file, both: false, new: true }
            } else {
                Role::Change { file }
            }
        }
    };
    Some(Placed { role, field, table: Rc::clone(table) })
}

/// The evidence files a column's label names: benchstat labels a column with the file's name
/// as given on its command line. Where no go-bench file has that name or stem, every go-bench
/// file may be it, and the words of the cell rank them.
fn named_files<'a>(sources: &'a [Source], label: &str) -> Vec<&'a Source> {
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

impl Placed {
    /// The evidence files a column's label names ([`named_files`]). Before 2023 a table of two
    /// files labels them `old` and `new`; where no file is named so, the column is the file
    /// whose means reproduce most of the column's printed values, so that a count or a p-value,
    /// which either file could give, is bound to the file the column is.
    fn files<'a>(&self, sources: &'a [Source], label: &str, unit: Option<&Unit>) -> Vec<&'a Source> {
        let named = named_files(sources, label);
        if self.layout == Layout::Current || named.len() < 2 {
            return named;
        }
        let field = self.field.as_str();
        let reproduced = |source: &Source| {
            self.printed
                .iter()
                .filter(|(file, row, quoted)| {
                    file == label
                        && row_series(source, row, field).is_some_and(|(_, series)| fits(quoted, self.kept(series).mean(), &super::SeriesUnit::Plain(unit.cloned())).is_some())
                })
                .count()
        };
        let counts: Vec<usize> = named.iter().map(|s| reproduced(s)).collect();
        let best = counts.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return named;
        }
        named.into_iter().zip(counts).filter(|(_, n)| *n == best).map(|(s, _)| s).collect()
    }

    /// The values of a row's series that the table's benchstat computed from: all of them
    /// since 2023, those inside Tukey's fences before.
    fn kept(&self, series: &Series) -> Samples {
        match self.layout {
            Layout::Current => series.samples.clone(),
            Layout::Old => fences::tukey(&series.samples).kept,
        }
    }

    /// The statistic of a column's cell: the median since 2023, the mean before.
    fn center(&self) -> Statistic {
        match self.layout {
            Layout::Current => Statistic::Median,
            Layout::Old => Statistic::Mean,
        }
    }

    /// A query of a row's benchmark as the table's benchstat read it: before 2023 with its
    /// outliers dropped, and counted after.
    fn query(&self, source: &Source, sel: &Selection, series: &Series, measure: Measure) -> StatRef {
        let query = benchmark_ref(source, sel, series, measure);
        match self.layout {
            Layout::Current => query,
            Layout::Old => StatRef { outliers: true, n: self.kept(series).len(), ..query },
        }
    }
}

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
        let bases = placed.files(sources, &placed.base, unit.as_ref());
        placed.files(sources, file, unit.as_ref()).into_iter().flat_map(|new| bases.iter().filter(move |base| !std::ptr::eq(new, **base)).map(move |base| (new, *base))).collect()
    };
    // Each such pair that both hold `label`'s benchmark.
    let pairs = |file: &str, label: &str| {
        file_pairs(file).into_iter().filter_map(|(new, base)| Some(((new, row_series(new, label, field)?), (base, row_series(base, label, field)?)))).collect::<Vec<_>>()
    };
    let count = Measure::Statistic(Statistic::Count);
    match &placed.role {
        Role::Center { file } => {
            let center = placed.center();
            for source in placed.files(sources, file, unit.as_ref()) {
                let Some((sel, series)) = row_series(source, row, field) else { continue };
                let Some(value) = fits(&quoted, placed.kept(series).statistic(center), &super::SeriesUnit::Plain(unit.clone())) else { continue };
                let binding = Binding::Stat(placed.query(source, sel, series, Measure::Statistic(center)));
                out.push((Candidate { binding, value, score: PLACED + hints(&context, source, sel, series) }, (value - quoted.value).abs()));
            }
        }
        Role::Interval { file } => {
            for source in placed.files(sources, file, unit.as_ref()) {
                let Some((sel, series)) = row_series(source, row, field) else { continue };
                let (percent, measure) = match placed.layout {
                    Layout::Current => match median_interval(series.samples.sorted(), DEFAULT_CONFIDENCE).spread() {
                        Spread::Percent(percent) => (percent, Measure::MedianCi { confidence: DEFAULT_CONFIDENCE }),
                        _ => continue,
                    },
                    Layout::Old => match placed.kept(series).mean_range() {
                        Some(percent) => (percent, Measure::MeanRange),
                        None => continue,
                    },
                };
                if !quoted.matches(percent, None) || quoted.unit.as_ref().is_some_and(|u| *u != Unit::Percent) {
                    continue;
                }
                let binding = Binding::Stat(placed.query(source, sel, series, measure));
                out.push((Candidate { binding, value: percent, score: PLACED + hints(&context, source, sel, series) }, (percent - quoted.value).abs()));
            }
        }
        Role::PValue { file } => {
            for ((new, (nsel, nser)), (base, (bsel, bser))) in pairs(file, row) {
                let p = mann_whitney(placed.kept(bser).sorted(), placed.kept(nser).sorted()).p;
                if !quoted.matches(p, None) {
                    continue;
                }
                let score = PLACED + hints(&context, new, nsel, nser);
                let binding = Binding::UTest { base: placed.query(base, bsel, bser, count.clone()), new: placed.query(new, nsel, nser, count.clone()) };
                out.push((Candidate { binding, value: p, score }, (p - quoted.value).abs()));
            }
        }
        Role::Count { file, both, new: second } => {
            for ((new, (nsel, nser)), (base, (bsel, bser))) in pairs(file, row) {
                let (n_new, n_base) = (placed.kept(nser).len() as f64, placed.kept(bser).len() as f64);
                let score = PLACED + hints(&context, new, nsel, nser);
                let count = |s: &Source, sel, ser| placed.query(s, sel, ser, count.clone());
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
            let center = placed.center();
            for ((new, (nsel, nser)), (base, (bsel, bser))) in pairs(file, row) {
                let (m_new, m_base) = (placed.kept(nser).statistic(center), placed.kept(bser).statistic(center));
                if m_base == 0.0 {
                    continue;
                }
                let value = (m_new / m_base - 1.0) * 100.0;
                if !quoted.matches(value, None) {
                    continue;
                }
                let measure = Measure::Statistic(center);
                let binding = Binding::Change { new: vec![placed.query(new, nsel, nser, measure.clone())], base: vec![placed.query(base, bsel, bser, measure)], less: false };
                out.push((Candidate { binding, value, score: PLACED + hints(&context, new, nsel, nser) }, (value - quoted.value).abs()));
            }
        }
        Role::Geomean { file } => {
            for source in placed.files(sources, file, unit.as_ref()) {
                let centers = column_centers(placed, source, placed.rows.iter(), field);
                let Some(value) = geomean(centers.iter().map(|(_, _, m)| *m)) else { continue };
                let Some(value) = fits(&quoted, value, &super::SeriesUnit::Plain(unit.clone())) else { continue };
                let binding = Binding::Geomean { of: centers.into_iter().map(|(_, s, _)| s).collect(), unit: unit.as_ref().map(|u| u.symbol().to_string()) };
                let score = PLACED + 2.0 * source.tokens.iter().filter(|t| context.contains(*t)).count() as f64;
                out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
            }
        }
        Role::GeomeanChange { file } => {
            for (new, base) in file_pairs(file) {
                // The ratios of the rows both files hold, as benchstat takes them. Before 2023
                // it took the ratio of the two columns' geometric means instead, each over its
                // own rows (those with a mean other than 0); over the same rows the two are one
                // number, and only then is one proposed.
                let (n, b) = match placed.layout {
                    Layout::Current => {
                        let both = || placed.rows.iter().filter(|l| row_series(new, l, field).is_some() && row_series(base, l, field).is_some());
                        (column_centers(placed, new, both(), field), column_centers(placed, base, both(), field))
                    }
                    Layout::Old => {
                        let (n, b) = (column_centers(placed, new, placed.rows.iter(), field), column_centers(placed, base, placed.rows.iter(), field));
                        if n.iter().map(|c| &c.0).ne(b.iter().map(|c| &c.0)) {
                            continue;
                        }
                        (n, b)
                    }
                };
                let Some(value) = geomean(n.iter().zip(&b).map(|((_, _, x), (_, _, y))| if *y > 0.0 { x / y } else { f64::NAN })) else { continue };
                let value = (value - 1.0) * 100.0;
                if !quoted.matches(value, None) {
                    continue;
                }
                let binding = Binding::Change { new: n.into_iter().map(|(_, s, _)| s).collect(), base: b.into_iter().map(|(_, s, _)| s).collect(), less: false };
                let score = PLACED + 2.0 * new.tokens.iter().filter(|t| context.contains(*t)).count() as f64;
                out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
            }
        }
    }
    by_distance(out)
}

/// The median of `field` of each row's benchmark that `source` holds (before 2023 the mean of
/// the values kept), with the row's label, as a `stat` query and its value: benchstat's
/// geometric mean of a column is over the cells it has. Before 2023 it left out a mean of 0
/// (`addGeomean`).
fn column_centers<'r>(placed: &Placed, source: &Source, rows: impl Iterator<Item = &'r String>, field: &str) -> Vec<(&'r str, StatRef, f64)> {
    let center = placed.center();
    rows.filter_map(|label| {
        let (sel, series) = row_series(source, label, field)?;
        let value = placed.kept(series).statistic(center);
        if placed.layout == Layout::Old && value == 0.0 {
            return None;
        }
        Some((label.as_str(), placed.query(source, sel, series, Measure::Statistic(center)), value))
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
        // Before 2023, metrics named for Go's units.
        assert_eq!(field_of_unit("time/op"), "time_ns");
        assert_eq!(field_of_unit("speed"), "mb_per_s");
        assert_eq!(field_of_unit("alloc/op"), "bytes_per_op");
        assert_eq!(field_of_unit("user-time/op"), "user_ns_per_op");
        assert_eq!(field_of_unit("time/GC"), "ns_per_gc");
        assert_eq!(field_of_unit("quick-bytes"), "quick_bytes");
    }

    #[test]
    fn a_geometric_mean_needs_positive_values() {
        assert!((geomean([2.0, 8.0].into_iter()).unwrap() - 4.0).abs() < 1e-12);
        assert_eq!(geomean([2.0, 0.0].into_iter()), None);
        assert_eq!(geomean(std::iter::empty()), None);
    }
}
