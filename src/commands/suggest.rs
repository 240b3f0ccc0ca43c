//! `suggest`: for every number of an article that no check verifies, the statistics of the
//! evidence that reproduce it at its quoted precision and unit, best first, as checks a registry
//! can take. This module owns the search and the ranking; `report::suggest` lays the result out
//! as TOML. It reads evidence only through the workspace's store and runs nothing.
//!
//! **What is tried.** Every file under `evidence/` that a reader accepts (format detected), and
//! in each: all records; the records where a field that is sometimes null is null (`where = "F
//! == null"`, the usual mark of a failed request); and the records sharing a value of a text
//! field that splits the file into a few groups (`select = { F = "v" }`), and those sharing a
//! value of each of two such fields (`select = { F = "v" }`, `where = "G == 'w'"`: a table of
//! problems by framework names each cell by both). Over each selection:
//! every numeric field, every statistic (median, mean, min, max, p5 … p99, stdev, count), for
//! criterion's and cargo-criterion's records sampled in linear mode the slope of `batch_time_ns`
//! over `iters` (the number criterion prints there, ranked ahead of the mean), for a number in
//! the `Error` column of JMH's table JMH's error of the mean of the row's raw values
//! (`statistic = "jmh-error"`), and for a rate quoted per second (`185 tokens/s`) every
//! per-record ratio of a plain field to a time field (`derive`). For a quoted ratio (`1.20x`), the ratio of one selection's statistic
//! to another's of the same time field, as an `arith` check over two `stat` variables: the
//! row's statistic on top, except where the row is the faster side (pytest-benchmark's `OPS`
//! column, hyperfine's summary); the best row's own `1.00` (hyperfine's fastest command,
//! pytest-benchmark's `(1.0)`) as its statistic over the least of it and the other rows', which
//! fails when another row is faster, not as its statistic over itself, which never can. For
//! the spread written after a ratio (`1.33 ± 0.09`), no ratio but hyperfine's spread of the
//! ratio of two means, whose ratio reproduces the ratio beside it, as an `arith` over the two
//! means and their standard deviations. For a number in the
//! `Ratio` column of BenchmarkDotNet's table, BenchmarkDotNet's mean of the ratios of every pair
//! of the row's and another case's times, the row's mean times the mean of the other's
//! reciprocals, ranked above the ratio of the two means; in its `RatioSD` column, the standard
//! deviation of the same ratios; in either, no one selection's statistic.
//!
//! **asv.** A row of asv's comparison table is the records whose `name` its last column writes;
//! the median is asv's reading of a value, the number after `±` asv's error (half the
//! interquartile range, `statistic = "asv-error"`, with the tolerance its one significant digit
//! leaves) and `Ratio` the after file's median over the before file's ([`asv`]).
//!
//! **Nsight Compute.** The `ncu` reader's records are kernel launches. A kernel is named by
//! its function (`select = { function = "saxpy" }`, what the summary's `Minimum`, `Maximum` and
//! `Average` are over) and each launch is a selection of its own (`where = "id == 3"`), which a
//! details table's `Metric Value` column prefers; a console row names the field of its metric
//! (`Duration` in `us` is `duration_ns`). In each such table the selection that reproduces every
//! number of the table ranks first for all of them, since a table prints one launch or one
//! kernel.
//!
//! **benchstat's table.** A cell of benchstat's comparison that is no one sample's statistic
//! (an interval, a p-value, the counts, a change, the `geomean` row) is not searched for but read
//! by where it stands ([`benchstat`]): the computation benchstat made there is its only
//! candidate, kept where it reproduces the quote.
//!
//! **How it ranks.** A candidate must reproduce the number by the audit's own matching rule, in
//! a unit that converts to the quoted one. Candidates are then scored by what the text says
//! around the number: a statistic it names (a column `Median`, `P99`, `mean`; `requests` or
//! `iterations` for a count) counts most, then the words that the sentence, the table's row,
//! column and headings share with the file's path, the selection and the field. A format's
//! main time field (`time_ns` of criterion) is preferred over its others, and in JMH's table
//! the `Score` column names the mean and `Cnt` the count; a derived field, a filter and a ratio
//! each cost a little, so that the plainer of two equal explanations comes first. A ratio is preferred in the statistic that ranks first for another number of the same
//! sentence, or of the same row of a table (a mean time beside its speed-up). Candidates whose
//! scores are equal tie; they are ordered by their distance to the quoted value, and the report
//! says that they tie.

use std::collections::{BTreeMap, BTreeSet};

use crate::article::numbers::{Bound, Number, Quoted, Shape, Unit};
use crate::article::{Article, Sentence};
use crate::checks::filter::Filter;
use crate::checks::stat::Measure;
use crate::checks::units;
use crate::commands::audit;
use crate::evidence::jsonl::{Jsonl, Record, Scalar};
use crate::evidence::readers::{Format, go_bench, jmh, ncu};
use crate::evidence::store::Evidence;
use crate::paths::Kind;
use crate::registry::Registry;
use crate::registry::binding::Selectors;
use crate::stats::{Samples, Statistic, slope_through_origin};
use crate::workspace::Workspace;

mod asv;
mod benchstat;
mod criterion;

/// What `suggest` found for every registry of the workspace.
pub(crate) struct Suggestions {
    /// The evidence files read, each with how it was read and its records.
    pub files: Vec<(String, String)>,
    /// Files under `evidence/` no reader accepts, with the first line of why.
    pub skipped: Vec<(String, String)>,
    pub registries: Vec<RegistrySuggestions>,
}

pub(crate) struct RegistrySuggestions {
    pub file: String,
    pub manuscript: String,
    pub numbers: Vec<NumberSuggestions>,
    /// The table cells that state a verdict of a test and that no claim binds (pyperf's `not
    /// significant`): each with the test that decides it, `number` being the cell's text.
    pub verdicts: Vec<NumberSuggestions>,
}

/// One unbound number and its candidates, best first.
pub(crate) struct NumberSuggestions {
    /// The id the proposed claim gets: unused in its registry.
    pub id: String,
    pub number: String,
    /// The manuscript, or the file it brings in that holds the number.
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub target: Target,
    pub candidates: Vec<Candidate>,
    /// How many candidates share the best score (1 when the first stands alone).
    pub tied: usize,
    /// Where the number is part of a row's name or a column's header: it is searched for in no
    /// evidence, since the claims of the cells it heads name it.
    pub names: Option<crate::article::Names>,
    /// Where the number is a bound written as a comparator (`<0.0001`, `≥ 95 %`): it is
    /// searched for in no evidence either. Every value on its side satisfies a bound, so the
    /// statistics that do would be many (any minimum, any small spread), and ranking them by
    /// nearness to the limit would put first the one the author least likely computed: a
    /// p-value printed `<0.0001` is as a rule far below it. The claim is written by hand, with
    /// the test or statistic the text means. A bound in words (`at least 1.5x faster`) is
    /// searched for as its digits are, keeping only the statistics on its side: an author who
    /// writes it rounds a value measured near the limit (1.54 as `at least 1.5x`).
    pub bound: Option<Bound>,
}

/// What the proposed claim binds to.
pub(crate) enum Target {
    Quote(String),
    Cell { row: String, column: String, section: Option<String>, table: Option<crate::registry::TableRef> },
}

/// One way to reproduce a number from the evidence.
#[derive(Clone)]
pub(crate) struct Candidate {
    pub binding: Binding,
    /// The value in the quoted unit.
    pub value: f64,
    pub score: f64,
}

#[derive(Clone)]
pub(crate) enum Binding {
    Stat(StatRef),
    /// `numerator / denominator`, each a statistic.
    Ratio(StatRef, StatRef),
    /// A row's `1.00` against the best of its table (hyperfine's `Relative` for the fastest
    /// command, pytest-benchmark's `(1.0)`): the row's statistic over the least of it and every
    /// other row's, or with `rate` (a column of rates such as `OPS`) that least over the row's.
    /// Unlike the row over itself, which is 1 whatever the evidence says, it fails when another
    /// row of the table is faster.
    ToBest {
        row: StatRef,
        rivals: Vec<StatRef>,
        rate: bool,
    },
    /// A baseline's ratio to itself: the `1.00x` of criterion-table's baseline column (no other
    /// rows of the table to hold it against), BenchmarkDotNet's baseline `Ratio` of 1.00 and
    /// `RatioSD` of 0.00. It is 1 (or 0) whatever the evidence holds, so it is proposed as a
    /// label of its claim, not as a check that could only fail by a typing error.
    Itself(StatRef),
    /// BenchmarkDotNet's `Ratio`: the mean of the ratios of every pair of the row's and the
    /// baseline's per-operation times, which is the row's mean times the mean of the baseline's
    /// reciprocals. `reciprocal` is the baseline's query, its field derived as `1 / <field>`.
    /// With `sd`, its `RatioSD`: the standard deviation (over n − 1) of the same ratios.
    MeanOfRatios {
        row: StatRef,
        reciprocal: StatRef,
        sd: bool,
        style: RatioStyle,
    },
    /// The spread hyperfine writes after a ratio of two means (`1.33 ± 0.09` under
    /// `Relative`): the ratio times the two relative standard deviations combined as if
    /// independent. Each side is the mean; its standard deviation is the same query's `stdev`.
    RatioSpread(StatRef, StatRef),
    /// benchstat's p-value: the two-sided Mann-Whitney U test of `base`'s samples against
    /// `new`'s (a `utest` check; each side's `statistic` is not written).
    UTest {
        base: StatRef,
        new: StatRef,
    },
    /// The change from `base` to `new` in percent, `(new / base - 1) * 100`, or where `less`
    /// the reduction `(1 - new / base) * 100` (`57 % fewer bytes`); with several statistics a
    /// side, of their geometric means (benchstat's `geomean` row).
    Change {
        new: Vec<StatRef>,
        base: Vec<StatRef>,
        less: bool,
    },
    /// The geometric mean of several statistics, in `unit` (benchstat's `geomean` row).
    Geomean {
        of: Vec<StatRef>,
        unit: Option<String>,
    },
    /// One count that two files share (benchstat's `n=30`): a check of each.
    Counts(StatRef, StatRef),
    /// The geometric mean of the ratios `new[k] / base[k]` (pyperf's `Geometric mean` of
    /// `compare_to`, of each benchmark's mean in one file over its mean in the other).
    GeomeanRatio {
        new: Vec<StatRef>,
        base: Vec<StatRef>,
    },
    /// `part`'s share of `whole` in percent, `100 * part / whole`, each a sum: Nsight Systems'
    /// `Time (%)`, a kernel's total time over every kernel's in its report.
    Share {
        part: StatRef,
        whole: StatRef,
    },
    /// pyperf's verdict on a comparison, `significant` or not, by its t-test of `base` (the
    /// reference) against `new` (a `ttest` check; each side's `statistic` is not written).
    TTest {
        base: StatRef,
        new: StatRef,
        significant: bool,
    },
}

/// A `stat` query: the keys a registry writes.
#[derive(Clone, PartialEq)]
pub(crate) struct StatRef {
    pub samples: String,
    pub format: Format,
    pub select: Option<(String, String)>,
    pub filter: Option<String>,
    /// `(name, expression)` of a derived field; `field` is then its name.
    pub derive: Option<(String, String)>,
    pub field: String,
    /// A statistic of `field`, or its slope over another field.
    pub statistic: Measure,
    /// Whether the values outside Tukey's fences are dropped first (`outliers = "tukey"`), as
    /// benchstat before 2023 dropped them.
    pub outliers: bool,
    /// Samples the statistic is computed from, after any outliers are dropped.
    pub n: usize,
    /// An absolute tolerance in the quoted unit, where the harness rounds the number to fewer
    /// significant digits than its written digits resolve: asv prints its error to one, so
    /// `20μs` is any error from 15 to 25 µs. `None`: the half-unit rule.
    pub tolerance: Option<f64>,
}

/// How many candidates are kept per number.
const KEEP: usize = 5;

/// Runs the search over the workspace's unbound numbers.
pub(crate) fn suggest(ws: &Workspace) -> Suggestions {
    let review = audit::audit(ws);
    let Some(evidence) = ws.evidence() else {
        return Suggestions { files: vec![], skipped: vec![], registries: vec![] };
    };
    let (sources, files, skipped) = index_evidence(evidence);
    let mut registries = Vec::new();
    for (loaded, reviewed) in ws.registries.iter().zip(&review.registries) {
        let Some(article) = &loaded.article else { continue };
        let mut numbers = Vec::new();
        let mut seen: BTreeSet<(usize, String)> = BTreeSet::new();
        let mut used_ids: BTreeSet<String> = loaded.registry.claims.iter().map(|c| c.id.get_ref().clone()).collect();
        // First every number's single statistics, so that a ratio can prefer the statistic its
        // sentence's other numbers are quoted in.
        let mut wanted = Vec::new();
        let tables = benchstat::tables(article);
        let selectors = Selectors::new(article);
        for u in &reviewed.unbound {
            let sentence = &article.sentences[u.sentence_index];
            let Some(number) = sentence.numbers.iter().find(|n| n.text == u.number) else { continue };
            if !seen.insert((u.sentence_index, number.key())) {
                continue;
            }
            // A number in a row's name (`[1,2]*1000`) matching some statistic would be a
            // coincidence: the claims proposed for the row's cells name it. A bound written as
            // a comparator (`<0.0001`) is met by every statistic on its side: none is proposed,
            // and the comment says why.
            if u.names.is_some() || number.writes_its_bound() {
                let target = target(article, &selectors, sentence);
                numbers.push(NumberSuggestions {
                    id: String::new(),
                    number: number.text.clone(),
                    file: u.at.file.clone(),
                    line: u.line,
                    col: u.col,
                    target,
                    candidates: vec![],
                    tied: 0,
                    names: u.names,
                    bound: if u.names.is_none() { number.bound } else { None },
                });
                continue;
            }
            wanted.push((u, sentence, number, benchstat::place(&tables, sentence, number)));
        }
        let mut singles: Vec<Vec<Candidate>> = Vec::new();
        for (_, sentence, number, placed) in &wanted {
            // Ranked now, so that the statistic a ratio prefers is the one that ranks first for
            // its neighbours, not the one nearest their quoted value. A cell of benchstat's
            // table that is no one sample's statistic is read by its place alone.
            let mut cands = match placed {
                Some(placed) => benchstat::candidates(&sources, &loaded.registry, placed, sentence, number),
                None => single_candidates(&sources, &loaded.registry, sentence, number),
            };
            rank(&mut cands);
            singles.push(cands);
        }
        prefer_one_selection_a_table(&wanted, &mut singles);
        let mut top_stat: BTreeMap<Neighbours, Statistic> = BTreeMap::new();
        for ((_, sentence, _, _), cands) in wanted.iter().zip(&singles) {
            // A slope is no statistic a ratio of two selections can be taken in.
            if let Some(Candidate { binding: Binding::Stat(StatRef { statistic: Measure::Statistic(statistic), .. }), .. }) = cands.first() {
                top_stat.entry(Neighbours::of(sentence)).or_insert(*statistic);
            }
        }
        for ((u, sentence, number, placed), mut cands) in wanted.into_iter().zip(singles) {
            let preferred = top_stat.get(&Neighbours::of(sentence)).copied();
            // The spread written after a ratio is no ratio of two statistics, though it sits in
            // a ratio's column: it is tried as that ratio's spread instead.
            match spread_of_a_ratio(sentence, number) {
                _ if placed.is_some() => {}
                Some(ratio) => cands.extend(ratio_spread_candidates(&sources, sentence, number, &ratio)),
                None => {
                    cands.extend(ratio_candidates(&sources, article, sentence, number, preferred));
                    cands.extend(file_ratio_candidates(&sources, sentence, number, preferred));
                    cands.extend(mean_of_ratios_candidates(&sources, sentence, number));
                    cands.extend(change_candidates(&sources, sentence, number, preferred));
                    cands.extend(share_candidates(&sources, sentence, number));
                    cands.extend(pyperf_compare_candidates(&sources, article, sentence, number));
                    cands.extend(pyperf_of_the_mean_candidates(&sources, sentence, number));
                    cands.extend(asv::ratio_candidates(&sources, article, sentence, number));
                }
            }
            // A bound in words was searched for as its digits: only what lies on its side holds.
            if let Some(bounded) = quotable(number).filter(|_| number.bound.is_some()).map(|q| Quoted { bound: number.bound, ..q }) {
                cands.retain(|c| bounded.matches(c.value, None));
            }
            rank(&mut cands);
            let tied = cands.first().map_or(0, |best| cands.iter().take_while(|c| (c.score - best.score).abs() < 1e-9).count());
            prefer_the_articles_own_file(&mut cands[..tied], &article.path);
            cands.truncate(KEEP);
            let id = next_id(&mut used_ids, u.line);
            numbers.push(NumberSuggestions {
                id,
                number: number.text.clone(),
                file: u.at.file.clone(),
                line: u.line,
                col: u.col,
                target: target(article, &selectors, sentence),
                candidates: cands,
                tied,
                names: None,
                bound: None,
            });
        }
        // The numbers in names were set aside as they came: all stand in the audit's order.
        let position: BTreeMap<(&str, usize, usize), usize> = reviewed.unbound.iter().enumerate().rev().map(|(k, u)| ((u.at.file.as_str(), u.line, u.col), k)).collect();
        numbers.sort_by_key(|n| position.get(&(n.file.as_str(), n.line, n.col)).copied());
        let bound: BTreeSet<usize> = reviewed
            .claims
            .iter()
            .filter_map(|c| match &c.binding {
                audit::ClaimBinding::Bound { sentence, .. } => Some(sentence.index),
                _ => None,
            })
            .collect();
        let verdicts = pyperf_not_significant(&sources, article, &selectors, &bound, &mut used_ids);
        registries.push(RegistrySuggestions { file: loaded.registry.file.clone(), manuscript: article.path.clone(), numbers, verdicts });
    }
    Suggestions { files, skipped, registries }
}

/// The numbers a ratio is read beside: those of its sentence, or, in a table, those of its row.
/// A speed-up shares a cell with its time in criterion-table's layout (`670.99 ms (1.20x)`)
/// and a row in hyperfine's (`8.7 ± 0.5 | 8.0 | 10.3 | 1.33 ± 0.09`), where the first number
/// of the row is the mean that `Relative` divides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Neighbours {
    Sentence(usize),
    Row { table: usize, row: usize },
}

impl Neighbours {
    fn of(sentence: &Sentence) -> Neighbours {
        match &sentence.cell {
            Some(cell) => Neighbours::Row { table: cell.table, row: cell.row },
            None => Neighbours::Sentence(sentence.index),
        }
    }
}

/// An Nsight Compute table prints one launch (a details table's `Metric Value`) or one kernel's
/// launches (the per-kernel summary's `Minimum`, `Maximum`, `Average`). Where some selections
/// reproduce every number of a table that any selection reproduces, their candidates rank first
/// for each of the table's numbers: a clock that every launch rounds to (`2.62 Ghz`) is read
/// from the launch its table's duration names, and an average that a mix of two kernels also
/// rounds to from the kernel the rest of the summary names.
fn prefer_one_selection_a_table(wanted: &[(&audit::Unbound, &Sentence, &Number, Option<benchstat::Placed>)], singles: &mut [Vec<Candidate>]) {
    let picked = |c: &Candidate| -> Option<String> {
        match &c.binding {
            Binding::Stat(s) if s.format == Format::Ncu => Some(format!("{}\u{0}{:?}\u{0}{:?}", s.samples, s.select, s.filter)),
            _ => None,
        }
    };
    let table = |sentence: &Sentence| sentence.cell.as_ref().map(|c| c.table);
    let mut shared: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for ((_, sentence, _, _), cands) in wanted.iter().zip(singles.iter()) {
        let Some(table) = table(sentence) else { continue };
        let picks: BTreeSet<String> = cands.iter().filter_map(picked).collect();
        if picks.is_empty() {
            continue;
        }
        shared.entry(table).and_modify(|s| s.retain(|p| picks.contains(p))).or_insert(picks);
    }
    for ((_, sentence, _, _), cands) in wanted.iter().zip(singles.iter_mut()) {
        let Some(picks) = table(sentence).and_then(|t| shared.get(&t)).filter(|p| !p.is_empty()) else { continue };
        for c in cands.iter_mut() {
            if picked(c).is_some_and(|p| picks.contains(&p)) {
                c.score += 1.0;
            }
        }
        rank(cands);
    }
}

/// Among the best candidates, tied in score and all giving the first one's value exactly, those
/// read from a file whose path shares more words with the article's come first. A harness that
/// writes one file per report (BenchmarkDotNet's `<Type>-asm.md` beside `<Type>-report-github.md`)
/// can give every report the same number (the same `Code Size` in each), and the file the
/// report was written from is then the one its name points to. Candidates of another value, or
/// of equal overlap, keep their order.
fn prefer_the_articles_own_file(tied: &mut [Candidate], article_path: &str) {
    let Some(first) = tied.first() else { return };
    let value = first.value;
    let same = tied.iter().take_while(|c| c.value == value).count();
    let article = words(article_path);
    let overlap = |c: &Candidate| match &c.binding {
        Binding::Stat(s) => words(&s.samples).intersection(&article).count(),
        _ => 0,
    };
    tied[..same].sort_by_key(|c| std::cmp::Reverse(overlap(c)));
}

/// Best first: by score, then by distance to the quoted value, then in the order found.
fn rank(cands: &mut [Candidate]) {
    // The sort is stable, so candidates equal on both keys keep the order they were found in.
    cands.sort_by(|a, b| b.score.total_cmp(&a.score));
}

/// An id for a proposed claim, named by its line and unused in the registry.
fn next_id(used: &mut BTreeSet<String>, line: usize) -> String {
    let mut k = 0;
    loop {
        let id = if k == 0 { format!("line{line}") } else { format!("line{line}-{k}") };
        if used.insert(id.clone()) {
            return id;
        }
        k += 1;
    }
}

/// The claim's target: the sentence's text, or its cell with the fewest headings that tell its
/// table from others with the same row and column, as the binding matches them: a `section`
/// names every table whose heading path holds it anywhere, so a heading that another table's
/// path holds above that table's own (net-mediate's report under `Latest CI Benchmark Run`,
/// its console's table under `Latest CI Benchmark Run › Full Console Output`) tells nothing.
fn target(article: &Article, selectors: &Selectors<'_>, sentence: &Sentence) -> Target {
    use crate::registry::binding::{in_section, same_label};
    // A header cell is no body cell a `cell` names, so it is quoted.
    let Some(cell) = sentence.cell.as_ref().filter(|c| c.row > 0) else {
        return Target::Quote(sentence.text.split_whitespace().collect::<Vec<_>>().join(" "));
    };
    let same: Vec<&Sentence> = article
        .sentences
        .iter()
        .filter(|s| {
            s.cell.as_ref().is_some_and(|c| c.row > 0 && same_label(&c.row_label, &cell.row_label) && same_label(&c.column_label, &cell.column_label) && c.table != cell.table)
        })
        .collect();
    let distinguishing =
        (1..=sentence.section.len()).map(|k| sentence.section[sentence.section.len() - k..].join(" › ")).find(|suffix| !same.iter().any(|s| in_section(&s.section, suffix)));
    // Where no heading tells the tables apart (a `Before` and an `After` table under one
    // heading), the whole heading path and the table's place among those under it do, which
    // the selector then names.
    let section = match distinguishing {
        _ if same.is_empty() => None,
        Some(section) => Some(section),
        None => (!sentence.section.is_empty()).then(|| sentence.section_title()),
    };
    let crate::registry::CellSelector { row, column, section, table } = selectors.of(cell, section);
    Target::Cell { row, column, section, table }
}

// ---------------------------------------------------------------------------------------------
// The evidence, indexed once.

/// One readable evidence file: its selections and, per selection, the series of values.
struct Source {
    path: String,
    format: Format,
    tokens: BTreeSet<String>,
    selections: Vec<Selection>,
    /// The one benchmark every record names, by the format's name field, where they all name
    /// the same (a file of one benchmark gives no selection by name: it would be all records).
    only_name: Option<String>,
    /// The machine and environment of an asv file, as `asv compare` appends them to a row's
    /// name where it compares several ([`asv::environment`]).
    environment: Option<String>,
}

struct Selection {
    select: Option<(String, String)>,
    filter: Option<String>,
    /// The second field and value of a selection by two fields (`select = { framework = "pymoo" }`
    /// with `where = "problem == 'dtlz1'"`), which `filter` writes: a table of problems by
    /// framework names each cell by both.
    also: Option<(String, String)>,
    tokens: BTreeSet<String>,
    series: Vec<Series>,
    /// criterion's estimate where every record was sampled in its linear mode: the slope of
    /// `batch_time_ns` over `iters` ([`criterion_slope`]).
    slope: Option<f64>,
    /// The (`iters`, `batch_time_ns`) pairs that slope is taken over; empty without one.
    pairs: Vec<(f64, f64)>,
    /// The sorted bootstrap estimates of criterion's interval of this selection, drawn the
    /// first time a bound asks for them ([`criterion::bound_candidate`]).
    bootstrap: std::cell::OnceCell<Option<Vec<f64>>>,
    /// The events an nsys summary's `Time (%)` divides this selection's time by, where all its
    /// records are of one kind in one report ([`nsys_wholes`]).
    share_of: Option<Whole>,
}

/// The events of one kind in one report of an nsys trace (the kernels of `cuda_gpu_trace`, its
/// other GPU operations, every call of `cuda_api_trace`), picked as a registry would pick them,
/// with the sum of their durations.
#[derive(Clone)]
struct Whole {
    filter: Option<String>,
    n: usize,
    total: f64,
}

/// The values of one field (or derived field) over one selection.
struct Series {
    field: String,
    /// The expression of a derived per-second rate.
    derive: Option<String>,
    unit: SeriesUnit,
    primary: bool,
    tokens: BTreeSet<String>,
    samples: Samples,
}

#[derive(Clone, PartialEq)]
enum SeriesUnit {
    /// As the field's name or the registry says; `None` for a plain number.
    Plain(Option<Unit>),
    /// A per-record ratio of a plain field to a time, in something per second.
    PerSecond,
}

/// The statistics tried for every series.
const STATISTICS: [Statistic; 15] = [
    Statistic::Median,
    Statistic::Mean,
    Statistic::Min,
    Statistic::Max,
    Statistic::Percentile(25.0),
    Statistic::Percentile(75.0),
    Statistic::Percentile(90.0),
    Statistic::Percentile(95.0),
    Statistic::Percentile(99.0),
    Statistic::Percentile(5.0),
    Statistic::Percentile(10.0),
    Statistic::Stdev,
    Statistic::Count,
    Statistic::Sum,
    Statistic::Mad,
];

/// The statistics a ratio is tried in.
const RATIO_STATISTICS: [Statistic; 4] = [Statistic::Mean, Statistic::Median, Statistic::Min, Statistic::Max];

/// Evidence files larger than this are left out: a search reads every file whole.
const MAX_FILE: u64 = 64 << 20;

/// A text field splits a file into selections when it has at most this many values.
const MAX_GROUPS: usize = 64;

/// The longest value, in characters, that names a selection.
const MAX_LABEL: usize = 80;

/// Two fields that split a file split it further together where no one of them names a result
/// alone: a file of runs by framework and by problem (VAMOS's `benchmark_paper.csv`) has a
/// table cell for each pair, which neither field's selections reach. Each pair of fields that
/// split the records (at most [`MAX_PAIRED`] of them, the coarser first) gives a selection for
/// each pair of values, where the pairs are finer than either field alone, at most
/// [`MAX_GROUPS`] squared, of four records each on average, and their values can be written in a
/// filter: the coarser field's value as the `select`, the finer's beside it.
fn pair_splits<'r>(jsonl: &Jsonl, all: &[&'r Record], splits: &[(&str, BTreeMap<&str, Vec<&'r Record>>)]) -> Vec<((String, String), (String, String), Vec<&'r Record>)> {
    let mut out = Vec::new();
    if splits.len() > MAX_PAIRED {
        return out;
    }
    let mut by_size: Vec<&(&str, BTreeMap<&str, Vec<&Record>>)> = splits.iter().collect();
    by_size.sort_by_key(|(name, groups)| (groups.len(), *name));
    for (i, (coarse, coarse_groups)) in by_size.iter().enumerate() {
        for (fine, fine_groups) in &by_size[i + 1..] {
            let mut pairs: BTreeMap<(&str, &str), Vec<&Record>> = BTreeMap::new();
            for r in all {
                let value = |name: &str| jsonl.get(r, name).and_then(|v| jsonl.str(v));
                if let (Some(a), Some(b)) = (value(coarse), value(fine)) {
                    pairs.entry((a, b)).or_default().push(r);
                }
            }
            let finer = pairs.len() > coarse_groups.len().max(fine_groups.len());
            let writable = pairs.keys().all(|(_, b)| !b.contains(['\'', '\\']));
            if !finer || !writable || pairs.len() > MAX_GROUPS * MAX_GROUPS || pairs.len() * 4 > all.len() {
                continue;
            }
            for ((a, b), records) in pairs {
                out.push(((coarse.to_string(), a.to_string()), (fine.to_string(), b.to_string()), records));
            }
        }
    }
    out
}

/// The most fields that split a file whose pairs are tried ([`pair_splits`]).
const MAX_PAIRED: usize = 4;

/// Reads every file under `evidence/` that a reader accepts.
fn index_evidence(evidence: &Evidence) -> (Vec<Source>, Vec<(String, String)>, Vec<(String, String)>) {
    let mut paths = Vec::new();
    // Listed through the root's handle: sub-folders are walked, never through a link.
    if let Ok(entries) = evidence.root().list_tree("evidence") {
        let root = evidence.root();
        paths.extend(entries.into_iter().filter(|(_, k)| *k == Kind::File).map(|(p, _)| format!("evidence/{p}")).filter(|p| root.len(p).is_ok_and(|n| n <= MAX_FILE)));
    }
    paths.sort();
    let (mut sources, mut files, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    for rel in paths {
        match evidence.table(&rel, None, None) {
            Ok(table) => {
                let jsonl = &table.jsonl;
                files.push((rel.clone(), format!("{}, {} records", table.read_as(), jsonl.records.len())));
                sources.push(index_file(&rel, table.format, jsonl));
            }
            Err(e) => {
                let why = e.at(&rel).message;
                skipped.push((rel, why.lines().next().unwrap_or_default().to_string()));
            }
        }
    }
    (sources, files, skipped)
}

/// The field a harness format names each benchmark by, as its reader writes it.
fn name_field(format: Format) -> Option<&'static str> {
    match format {
        // Nsight Compute's console names a kernel by its function (`==PROF== Profiling "X"`).
        Format::Ncu => Some("function"),
        // nsys names every event, a kernel by its signature and a copy by its kind
        // (`[CUDA memcpy Host-to-Device]`); only a kernel has a `function`.
        Format::Nsys => Some("name"),
        Format::Hyperfine => Some("command"),
        Format::Criterion | Format::CargoCriterion => Some("id"),
        Format::GoogleBenchmark | Format::PytestBenchmark | Format::Pyperf | Format::GoBench => Some("name"),
        Format::Nvbench => Some("benchmark"),
        // asv's comparison table names a row by the benchmark with its parameters.
        Format::Asv => Some("name"),
        Format::Jmh => Some("name"),
        Format::BenchmarkDotNet => Some("name"),
        // nccl-tests names a result by its size; its `experiment_name` is mostly empty.
        Format::NcclTests => None,
        Format::Jsonl | Format::Json | Format::Csv | Format::Tsv => None,
    }
}

/// The main time field of a harness format, which a registry would read first.
///
/// Go's `ns/op` is `time_ns`. A console row pasted from a run of `-count 1` is its benchmark's
/// one record, so every statistic of the row's selection is that line's value, and the median,
/// first of [`STATISTICS`], is proposed. Where an article quotes one number per benchmark of a
/// `-count N` run, it is ranked as every harness's is: a statistic the text names first, else
/// the one nearest the quoted value, the median before the mean where both round to it (the
/// median is also what benchstat reports).
fn primary_field(format: Format) -> Option<&'static str> {
    match format {
        Format::Ncu | Format::Nsys => Some("duration_ns"),
        Format::Criterion | Format::CargoCriterion | Format::GoBench => Some("time_ns"),
        Format::GoogleBenchmark => Some("real_time_ns"),
        Format::Nvbench => Some("gpu_time_s"),
        Format::Hyperfine | Format::PytestBenchmark | Format::Pyperf | Format::Asv => Some("time_s"),
        Format::Jmh => Some("score"),
        Format::BenchmarkDotNet => Some("time_ns"),
        Format::NcclTests => Some("time_us"),
        Format::Jsonl | Format::Json | Format::Csv | Format::Tsv => None,
    }
}

fn index_file(path: &str, format: Format, jsonl: &Jsonl) -> Source {
    let names = jsonl.field_names();
    let all: Vec<&Record> = jsonl.records.iter().collect();
    // Candidate record sets, plainest first; a set equal to an earlier one is dropped.
    let mut sets: Vec<(Option<(String, String)>, Option<String>, Vec<&Record>)> = vec![(None, None, all.clone())];
    // The second field of each selection by two fields, by its place in `sets`.
    let mut also: BTreeMap<usize, (String, String)> = BTreeMap::new();
    // nsys's trace holds kernels and memory operations together, and only a kernel has a grid
    // (so its copies' empty grid cells would select the kernels as `grdx == null`'s opposite):
    // a kernel is named by its function, as Nsight Compute's launches are, where that short name
    // stands for one signature alone, before any filter takes the same records.
    if format == Format::Nsys {
        let mut kernels: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
        for r in &all {
            if let Some(f) = jsonl.get(r, "function").and_then(|v| jsonl.str(v)) {
                kernels.entry(f).or_default().push(r);
            }
        }
        for (function, records) in kernels {
            let signatures: BTreeSet<Option<&str>> = records.iter().map(|r| jsonl.get(r, "name").and_then(|v| jsonl.str(v))).collect();
            if signatures.len() == 1 {
                sets.push((Some(("function".to_string(), function.to_string())), None, records));
            }
        }
    }
    for name in &names {
        let nulls = all.iter().filter(|r| matches!(jsonl.get(r, name), Some(Scalar::Null))).count();
        if nulls > 0 && nulls < all.len() {
            let filter = format!("{name} == null");
            if let Ok(f) = Filter::parse(&filter) {
                let kept: Vec<&Record> = all.iter().copied().filter(|r| f.accepts(jsonl, r)).collect();
                sets.push((None, Some(filter), kept));
            }
        }
    }
    // Text fields that split the file, finest first: where two name the same records (`id`
    // and `function` of a benchmark alone in its function), the finer is the name a reader
    // recognises, and the one kept.
    let mut splits: Vec<(&str, BTreeMap<&str, Vec<&Record>>)> = Vec::new();
    for name in &names {
        let mut groups: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
        let mut text = true;
        let names_benchmarks = name_field(format) == Some(*name);
        for r in &all {
            // A selector's value names a case (`groq`, `Ipc`); a long text (an error message, a
            // generated answer) is data, not a name. The field a harness names its benchmarks
            // by is a name whatever it holds: a hyperfine command is as long as its author
            // wrote it, and may quote JSON (`dasel put -v '{"first":"Frank"}'`).
            match jsonl.get(r, name) {
                Some(v @ Scalar::Str(_)) if jsonl.str(v).is_some_and(|t| names_benchmarks || (t.chars().count() <= MAX_LABEL && !t.contains('{'))) => {
                    groups.entry(jsonl.str(v).unwrap_or_default()).or_default().push(r)
                }
                _ => {
                    text = false;
                    break;
                }
            }
        }
        // Groups of a few records each are a field of data, not names, except in the field a
        // harness names its benchmarks by: pytest-benchmark gives a slow benchmark one round,
        // so great_expectations' 24 taxi-trip benchmarks are 24 records of 24 names.
        let too_fine = groups.len() > MAX_GROUPS || groups.len() * 4 > all.len();
        if !text || groups.len() < 2 || (too_fine && !names_benchmarks) {
            continue;
        }
        splits.push((name, groups));
    }
    // Nsight Compute's details table prints one launch: each launch is a selection, by its
    // `id`, taken before the splits so that a kernel launched once is named by its launch.
    if format == Format::Ncu {
        let mut launches: BTreeMap<i64, Vec<&Record>> = BTreeMap::new();
        for r in &all {
            if let Some(Scalar::Int(id)) = jsonl.get(r, "id") {
                launches.entry(id).or_default().push(r);
            }
        }
        if launches.len() > 1 {
            for (id, records) in launches {
                sets.push((None, Some(format!("id == {id}")), records));
            }
        }
    }
    // Among fields that split the records alike, the one the format names its benchmarks by
    // comes first, so that it is the one kept: BenchmarkDotNet's `benchmark` (`Type.Method`)
    // and `name` (`Method [N=10]`) split a file without parameters alike, and only `name` is
    // what a row of its table is named by.
    splits.sort_by_key(|(name, groups)| (std::cmp::Reverse(groups.len()), name_field(format) != Some(*name)));
    let pairs = pair_splits(jsonl, &all, &splits);
    for (name, groups) in splits {
        for (value, records) in groups {
            sets.push((Some((name.to_string(), value.to_string())), None, records));
        }
    }
    for (select, second, records) in pairs {
        also.insert(sets.len(), second.clone());
        sets.push((Some(select), Some(format!("{} == '{}'", second.0, second.1)), records));
    }
    let wholes = if format == Format::Nsys { nsys_wholes(jsonl, &all) } else { BTreeMap::new() };
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    let mut selections = Vec::new();
    for (k, (select, filter, records)) in sets.into_iter().enumerate() {
        let lines: Vec<usize> = records.iter().map(|r| *r as *const Record as usize).collect();
        if records.is_empty() || !seen.insert(lines) {
            continue;
        }
        let also = also.remove(&k);
        let mut tokens = BTreeSet::new();
        for (_, v) in select.iter().chain(&also) {
            tokens.extend(words(v));
        }
        let series = series_of(format, jsonl, &names, &records);
        let (slope, pairs) = criterion_slope(format, jsonl, &records).map_or((None, Vec::new()), |(slope, pairs)| (Some(slope), pairs));
        let mut kinds = records.iter().map(|r| nsys_kind(jsonl, r));
        let share_of = kinds.next().flatten().filter(|first| kinds.all(|k| k.as_ref() == Some(first))).and_then(|kind| wholes.get(&kind).cloned());
        selections.push(Selection { select, filter, also, tokens, series, slope, pairs, bootstrap: std::cell::OnceCell::new(), share_of });
    }
    let stem = path.strip_prefix("evidence/").unwrap_or(path);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    let only_name = name_field(format).and_then(|field| {
        let mut names = all.iter().map(|r| jsonl.get(r, field).and_then(|v| jsonl.str(v).map(str::to_string)));
        let first = names.next()??;
        names.all(|n| n.as_deref() == Some(first.as_str())).then_some(first)
    });
    let environment = if format == Format::Asv { asv::environment(jsonl, &all) } else { None };
    Source { path: path.to_string(), format, tokens: words(stem), selections, only_name, environment }
}

/// An nsys event's duration, where it has one.
fn nsys_duration(jsonl: &Jsonl, r: &Record) -> Option<f64> {
    match jsonl.get(r, "duration_ns") {
        Some(Scalar::Int(i)) => Some(i as f64),
        Some(Scalar::Float(f)) => Some(f),
        _ => None,
    }
}

/// An nsys event's kind, as its summaries group them for `Time (%)`: its report, and whether
/// it is a kernel (only a kernel has a `function`) or another GPU operation beside them.
/// `None` for a record without a duration.
fn nsys_kind(jsonl: &Jsonl, r: &Record) -> Option<(Option<String>, bool)> {
    nsys_duration(jsonl, r)?;
    let report = jsonl.get(r, "report").and_then(|v| jsonl.str(v)).map(str::to_string);
    Some((report, !matches!(jsonl.get(r, "function"), None | Some(Scalar::Null))))
}

/// The wholes of an nsys trace's shares, by kind ([`nsys_kind`]), each picked by a filter: the
/// report where the file holds several, and kernels apart from copies where a report holds
/// both (`cuda_gpu_kern_sum` divides by the kernels' time, `cuda_gpu_mem_time_sum` by the
/// copies' and sets'). A kind whose records are not all timed gives no whole.
fn nsys_wholes(jsonl: &Jsonl, all: &[&Record]) -> BTreeMap<(Option<String>, bool), Whole> {
    let mut groups: BTreeMap<(Option<String>, bool), (usize, f64)> = BTreeMap::new();
    for r in all {
        let (Some(kind), Some(duration)) = (nsys_kind(jsonl, r), nsys_duration(jsonl, r)) else { return BTreeMap::new() };
        let entry = groups.entry(kind).or_default();
        entry.0 += 1;
        entry.1 += duration;
    }
    let reports: BTreeSet<&Option<String>> = groups.keys().map(|(report, _)| report).collect();
    let mut out = BTreeMap::new();
    for ((report, kernel), (n, total)) in &groups {
        let mut parts = Vec::new();
        if reports.len() > 1 {
            // A report nsys names is one word; one this filter cannot quote gives no whole.
            match report {
                Some(name) if !name.contains('\'') => parts.push(format!("report == '{name}'")),
                _ => continue,
            }
        }
        if groups.contains_key(&(report.clone(), !kernel)) {
            parts.push(if *kernel { "function != null".to_string() } else { "function == null".to_string() });
        }
        let filter = (!parts.is_empty()).then(|| parts.join(" and "));
        out.insert((report.clone(), *kernel), Whole { filter, n: *n, total: *total });
    }
    out
}

/// The slope of `batch_time_ns` over `iters` through the origin, where `records` are
/// criterion's or cargo-criterion's and every one of them was sampled in linear mode: the
/// number criterion prints for such a benchmark, which is not the mean of its per-iteration
/// times. In flat mode criterion prints that mean, and no slope is offered. The pairs it is taken
/// over come with it.
fn criterion_slope(format: Format, jsonl: &Jsonl, records: &[&Record]) -> Option<(f64, Vec<(f64, f64)>)> {
    if !matches!(format, Format::Criterion | Format::CargoCriterion) {
        return None;
    }
    let number = |r: &Record, name: &str| match jsonl.get(r, name) {
        Some(Scalar::Int(i)) => Some(i as f64),
        Some(Scalar::Float(f)) if f.is_finite() => Some(f),
        _ => None,
    };
    let pairs: Vec<(f64, f64)> = records
        .iter()
        .map(|r| {
            let linear = jsonl.get(r, "sampling_mode").and_then(|m| jsonl.str(m)) == Some("Linear");
            let (x, y) = (number(r, "iters")?, number(r, "batch_time_ns")?);
            (linear && x >= 0.0 && y >= 0.0).then_some((x, y))
        })
        .collect::<Option<_>>()?;
    Some((slope_through_origin(&pairs)?, pairs))
}

/// Every numeric field over `records`, and for a file with time fields the per-second rates.
fn series_of(format: Format, jsonl: &Jsonl, names: &[&str], records: &[&Record]) -> Vec<Series> {
    let primary = primary_field(format);
    let mut plain: Vec<(String, Vec<f64>)> = Vec::new();
    for name in names {
        let values: Option<Vec<f64>> = records
            .iter()
            .map(|r| match jsonl.get(r, name) {
                Some(Scalar::Int(i)) => Some(i as f64),
                Some(Scalar::Float(f)) => Some(f),
                _ => None,
            })
            .collect();
        if let Some(values) = values {
            plain.push((name.to_string(), values));
        }
    }
    let mut out = Vec::new();
    for (name, values) in &plain {
        if let Ok(samples) = Samples::new(values.clone()) {
            let unit = units::from_suffix(name);
            out.push(Series { field: name.clone(), derive: None, unit: SeriesUnit::Plain(unit), primary: primary == Some(name.as_str()), tokens: words(name), samples });
        }
    }
    // Rates: a plain field over a time field, per record (output tokens over latency).
    for (a, av) in &plain {
        // A numerator that is already a time or a rate (`…_per_s`) makes no rate per second.
        if units::from_suffix(a).is_some() || ["_per_s", "_per_sec", "_per_second"].iter().any(|r| a.ends_with(r)) {
            continue;
        }
        for (b, bv) in &plain {
            let Some(seconds) = units::from_suffix(b).and_then(|u| u.seconds()) else { continue };
            if bv.iter().any(|v| *v <= 0.0) {
                continue;
            }
            let values: Vec<f64> = av.iter().zip(bv).map(|(x, y)| x / (y * seconds)).collect();
            if let Ok(samples) = Samples::new(values) {
                let mut tokens = words(a);
                tokens.extend(words(b));
                out.push(Series { field: String::new(), derive: Some(format!("{a} / {b}")), unit: SeriesUnit::PerSecond, primary: false, tokens, samples });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Candidates and their scores.

/// Single statistics that reproduce `number`.
fn single_candidates(sources: &[Source], registry: &Registry, sentence: &Sentence, number: &Number) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    // BenchmarkDotNet's `Ratio` and `RatioSD` are of two cases, never one selection's statistic:
    // the baseline's `0.00` would otherwise be proposed whatever standard deviation is 0.
    let ratio_column = sentence.cell.as_ref().is_some_and(|c| c.column_label == "Ratio" || c.column_label == "RatioSD");
    if ratio_column && sources.iter().any(|s| s.format == Format::BenchmarkDotNet) {
        return vec![];
    }
    let context = context_words(sentence, number);
    let named = named_statistics(&context);
    // A number is tried as a count of records only where the words around it name one
    // (`150 requests`, a column `Cnt`, `n = 30`): a bare small number in prose (`1 CPU core`,
    // `from 1 to 100`) equals some selection's count by chance as often as not.
    let before = sentence.text.get(..number.span.start).unwrap_or_default().trim_end();
    let counts_named = named.contains("count") || before.ends_with("n=") || before.ends_with("n =") || before.ends_with("N=") || before.ends_with("N =");
    let row = row_selection(sources, sentence);
    let mut out = Vec::new();
    for source in sources {
        // A compared row's run is in the files of that run only.
        if row.as_ref().is_some_and(|r| !r.in_run(source)) {
            continue;
        }
        let names_row = row.as_ref().is_some_and(|r| source.selections.iter().any(|sel| sel.select.as_ref().is_some_and(|(f, v)| r.fields.contains(f) && *v == r.label)));
        // A file of several benchmarks, told apart by the field its harness names them by: a
        // statistic over all its records mixes them, which is seldom what a sentence quotes,
        // so it ranks below the same statistic of one benchmark (a trial's `18` allocations
        // were proposed the minimum over two benchmarks, 18 and 25, before the one's median).
        let several = name_field(source.format).is_some_and(|f| source.selections.iter().any(|sel| sel.select.as_ref().is_some_and(|(g, _)| g == f)));
        for sel in &source.selections {
            let mixed = if several && sel.select.is_none() { -1.0 } else { 0.0 };
            // In a file that names the row's benchmark, all its records mix that benchmark
            // with the others: their statistics are no reading of the row either.
            if picks_another_row(row.as_ref(), sel) || (names_row && sel.select.is_none()) {
                continue;
            }
            // A count is the same for every field of a selection: it is tried once, on the
            // format's main field or else on the first that every record has.
            let count_field = sel.series.iter().find(|s| s.primary).or_else(|| sel.series.iter().find(|s| s.derive.is_none())).map(|s| s.field.clone());
            for series in &sel.series {
                let unit = match &series.unit {
                    SeriesUnit::Plain(_) if series.derive.is_none() => SeriesUnit::Plain(units::of_field(&registry.field_units, &series.field)),
                    other => other.clone(),
                };
                // A rate quoted per second (`tokens/s`) is a rate field's value, or a derived
                // rate's, not a plain count's: a field without a unit must be named as a rate.
                let per_second = matches!(&quoted.unit, Some(Unit::Other(u)) if u.ends_with("/s") || u.ends_with("/sec"));
                let rate_named = ["_per_s", "_per_sec", "_per_second"].iter().any(|r| series.field.ends_with(r));
                if per_second && unit == SeriesUnit::Plain(None) && !rate_named {
                    continue;
                }
                for statistic in STATISTICS {
                    if statistic == Statistic::Count && (series.derive.is_some() || count_field.as_deref() != Some(series.field.as_str()) || !counts_named) {
                        continue;
                    }
                    // A total, like a count, is tried only where the words name one (`Total
                    // Time (ns)`): some selection's sum equals any number by chance. Of one
                    // record it is that record's value, which the median already reads.
                    if statistic == Statistic::Sum && (series.derive.is_some() || !named.contains("sum") || series.samples.len() < 2) {
                        continue;
                    }
                    // pyperf's MAD, like a total, is tried only where the words name it
                    // (`Median +- MAD`): a spread of a few hundredths equals many small numbers.
                    if statistic == Statistic::Mad && !named.contains("mad") {
                        continue;
                    }
                    let value_unit = if statistic == Statistic::Count { SeriesUnit::Plain(None) } else { unit.clone() };
                    let raw = series.samples.statistic(statistic);
                    let Some(value) = fits(&quoted, raw, &value_unit) else { continue };
                    let mut score = hints(&context, source, sel, series);
                    if named.contains(&statistic_key(statistic)) || (statistic != Statistic::Count && names_field(&context, series)) {
                        score += 5.0;
                    }
                    if series.primary {
                        score += 0.5;
                    }
                    // A percentile other than the median is quoted with its name (`p95`, `95th
                    // percentile`): where the words name no statistic, one that rounds as the
                    // median does is the lesser reading (a table of medians by problem printed
                    // 0.91 for a median of 0.9097 whose p25 was 0.9071).
                    if named.is_empty() && matches!(statistic, Statistic::Percentile(_)) {
                        score -= 0.25;
                    }
                    // pyperf prints the mean wherever it prints one number of a benchmark
                    // (`show`, `timeit`, `compare_to`'s cells): where the text names no
                    // statistic, the mean is its reading, ahead of a median that rounds alike.
                    if source.format == Format::Pyperf && statistic == Statistic::Mean && named.is_empty() {
                        score += 0.5;
                    }
                    // asv prints the median it stored wherever it prints one number of a
                    // benchmark (`run`, `compare`, `show`): likewise its reading.
                    if source.format == Format::Asv && statistic == Statistic::Median && named.is_empty() {
                        score += 0.5;
                    }
                    if column_is_go_unit(source.format, sentence, series)
                        || column_is_jmh_score(source.format, sentence, series, statistic)
                        || row_is_ncu_metric(source.format, sentence, series)
                    {
                        score += 5.0;
                    }
                    if launch_of(sel).is_some() && in_ncu_details(source.format, sentence) {
                        score += 2.0;
                    }
                    if series.derive.is_some() {
                        score -= 0.5;
                    }
                    score += filter_score(sel) + mixed;
                    let derive = series.derive.as_ref().map(|expr| (rate_name(quoted.unit.as_ref()), expr.clone()));
                    let field = derive.as_ref().map_or_else(|| series.field.clone(), |(name, _)| name.clone());
                    let stat = StatRef {
                        samples: source.path.clone(),
                        format: source.format,
                        select: sel.select.clone(),
                        filter: sel.filter.clone(),
                        derive,
                        field,
                        statistic: Measure::Statistic(statistic),
                        outliers: false,
                        n: series.samples.len(),
                        tolerance: None,
                    };
                    out.push((Candidate { binding: Binding::Stat(stat), value, score }, (value - quoted.value).abs()));
                }
            }
            out.extend(slope_candidate(registry, &quoted, &context, source, sel));
            out.extend(jmh_error_candidate(registry, &quoted, &context, source, sel, sentence));
            out.extend(asv::error_candidate(registry, &quoted, &context, source, sel, sentence, number));
            out.extend(criterion::bound_candidate(registry, &quoted, &context, source, sel, sentence, number));
        }
    }
    by_distance(out)
}

/// criterion's slope over a selection sampled in linear mode, where it reproduces `quoted`. It
/// is scored as the format's main time field is, and half a point above it: in linear mode the
/// slope is the number criterion prints, so where it and the mean of `time_ns` both round to
/// the quote, the slope is the reading. A statistic the text names still counts more.
fn slope_candidate(registry: &Registry, quoted: &Quoted, context: &BTreeSet<String>, source: &Source, sel: &Selection) -> Option<(Candidate, f64)> {
    let slope = sel.slope?;
    let batch = sel.series.iter().find(|s| s.field == "batch_time_ns" && s.derive.is_none())?;
    let value = fits(quoted, slope, &SeriesUnit::Plain(units::of_field(&registry.field_units, &batch.field)))?;
    let score = hints(context, source, sel, batch) + 1.0 + filter_score(sel);
    Some(measured(quoted, source, sel, batch, Measure::Slope { per: "iters".into() }, value, score))
}

/// A candidate that reads `measure` of `series` (a plain field) over `sel`, with its value in
/// the quoted unit and its score, beside its distance to the quoted value.
fn measured(quoted: &Quoted, source: &Source, sel: &Selection, series: &Series, measure: Measure, value: f64, score: f64) -> (Candidate, f64) {
    (Candidate { binding: Binding::Stat(query_ref(source, sel, series, measure)), value, score }, (value - quoted.value).abs())
}

/// JMH's error of the mean of a selection's raw values, where the number stands in the `Error`
/// column of JMH's or BenchmarkDotNet's table and reproduces it: the half-width of the 99.9 %
/// interval both print beside the mean, which no statistic of [`STATISTICS`] gives. For JMH it
/// is taken over the first of the fields holding the raw value ([`jmh::SCORE_FIELDS`]) in which
/// it fits the quote: `score` where the row's unit is no time, the field its time unit names
/// (`time_ns`) where it is one; for BenchmarkDotNet over `time_ns`, the time of one operation.
/// The column names it as plainly as a header that spells a statistic, and it is scored so.
fn jmh_error_candidate(registry: &Registry, quoted: &Quoted, context: &BTreeSet<String>, source: &Source, sel: &Selection, sentence: &Sentence) -> Option<(Candidate, f64)> {
    let fields: &[&str] = match source.format {
        Format::Jmh => &jmh::SCORE_FIELDS,
        Format::BenchmarkDotNet => &["time_ns"],
        _ => return None,
    };
    if sentence.cell.as_ref().is_none_or(|c| c.column_label != "Error") {
        return None;
    }
    let (series, value) = sel.series.iter().filter(|s| fields.contains(&s.field.as_str()) && s.derive.is_none()).find_map(|series| {
        let error = crate::stats::student_t::mean_error(&series.samples, 0.999)?;
        fits(quoted, error, &SeriesUnit::Plain(units::of_field(&registry.field_units, &series.field))).map(|value| (series, value))
    })?;
    let score = hints(context, source, sel, series) + 5.0 + filter_score(sel);
    Some(measured(quoted, source, sel, series, Measure::JmhError, value, score))
}

/// Whether `number` is written after another with `±` between them (`79.2±3μs`, `1.33 ± 0.09`).
pub(super) fn follows_plus_minus(sentence: &Sentence, number: &Number) -> bool {
    let Some(at) = sentence.numbers.iter().position(|n| n.span == number.span) else { return false };
    let Some(value) = at.checked_sub(1).and_then(|k| sentence.numbers.get(k)) else { return false };
    sentence.text.get(value.span.end..number.span.start).is_some_and(|between| matches!(between.trim(), "±" | "+/-" | "+-"))
}

/// The benchmark a table row names, as the evidence selects it.
struct RowName {
    /// The fields whose value is the name: Google Benchmark's `name` and `run_name` for a
    /// console row `copy_base`, hyperfine's `command` for a row that writes the command.
    fields: BTreeSet<String>,
    /// The benchmark's name as those fields hold it.
    label: String,
    /// For a row of `pytest-benchmark compare`, the run it came from: the first 12 characters
    /// of its file's name, as pytest-benchmark appends them (`test_x[1] (initial_base)`).
    run: Option<String>,
    /// For a row of asv's comparison of several environments, the machine and environment of
    /// the cell's side (`vm/virtualenv-py3.12`).
    environment: Option<String>,
}

impl RowName {
    /// Whether `source` can hold the row's benchmark: any file, for a compared row the files
    /// of its run, and for a row naming its environment the files measured there.
    fn in_run(&self, source: &Source) -> bool {
        self.run.as_ref().is_none_or(|run| source.path.rsplit('/').next().unwrap_or(&source.path).starts_with(run.as_str()))
            && self.environment.as_ref().is_none_or(|env| source.environment.as_ref() == Some(env))
    }
}

/// A share in percent of an nsys trace's time, where the number is one (`Time (%)` of a
/// pasted `nsys stats` summary): each selection's total duration over that of every event of
/// its kind in its report ([`Whole`]), as nsys computes the column. A word naming a time or a
/// share counts as a statistic's name does.
fn share_candidates(sources: &[Source], sentence: &Sentence, number: &Number) -> Vec<Candidate> {
    let Some(quoted) = quotable(number).filter(|q| q.unit == Some(Unit::Percent)) else { return vec![] };
    let context = context_words(sentence, number);
    let row = row_selection(sources, sentence);
    let named = if context.contains("time") || context.contains("share") { 5.0 } else { 0.0 };
    let mut out = Vec::new();
    for source in sources.iter().filter(|s| s.format == Format::Nsys) {
        for sel in source.selections.iter().filter(|sel| !picks_another_row(row.as_ref(), sel)) {
            let (Some(whole), Some(series)) = (&sel.share_of, sel.series.iter().find(|s| s.field == "duration_ns" && s.derive.is_none())) else { continue };
            if whole.total <= 0.0 {
                continue;
            }
            let share = 100.0 * series.samples.statistic(Statistic::Sum) / whole.total;
            let Some(value) = fits(&quoted, share, &SeriesUnit::Plain(Some(Unit::Percent))) else { continue };
            let part = stat_ref(source, sel, series, Statistic::Sum);
            let whole = StatRef { select: None, filter: whole.filter.clone(), n: whole.n, ..part.clone() };
            let score = hints(&context, source, sel, series) + named + filter_score(sel);
            out.push((Candidate { binding: Binding::Share { part, whole }, value, score }, (value - quoted.value).abs()));
        }
    }
    by_distance(out)
}

/// The benchmark a table cell's row names, when some selection picks records by exactly its
/// label; for a row that `pytest-benchmark compare` printed, by the name before the run it
/// appends (`name (source)`; its `normal` name format); for a row as Go's tools print it, by
/// the go-bench record name it stands for (benchstat's `05TemplateLogVsLogf-4`); for a row of
/// JMH's table, by the one `jmh` record name its shortened name and parameters stand for.
fn row_selection(sources: &[Source], sentence: &Sentence) -> Option<RowName> {
    let label = &sentence.cell.as_ref()?.row_label;
    let fields_naming = |name: &str, only: Option<Format>| -> BTreeSet<String> {
        sources
            .iter()
            .filter(|s| only.is_none_or(|f| s.format == f))
            .flat_map(|s| &s.selections)
            .filter_map(|sel| sel.select.as_ref().filter(|(_, v)| v == name).map(|(f, _)| f.clone()))
            .collect()
    };
    let fields = fields_naming(label, None);
    if !fields.is_empty() {
        return Some(RowName { fields, label: label.clone(), run: None, environment: None });
    }
    if let Some((name, run)) = compared_run(label) {
        let fields = fields_naming(name, Some(Format::PytestBenchmark));
        if !fields.is_empty() {
            return Some(RowName { fields, label: name.to_string(), run: Some(run.to_string()), environment: None });
        }
    }
    if let Some((name, environment)) = asv::row_environment(sentence) {
        let fields = fields_naming(name, Some(Format::Asv));
        if !fields.is_empty() {
            return Some(RowName { fields, label: name.to_string(), run: None, environment: environment.map(str::to_string) });
        }
    }
    // JMH prints a benchmark with its package cut short (`MyBenchmark.foo` for
    // `org.sample.MyBenchmark.foo`): the row is the one record name it can stand for.
    let jmh_names: BTreeSet<&str> = sources
        .iter()
        .filter(|s| s.format == Format::Jmh)
        .flat_map(|s| &s.selections)
        .filter_map(|sel| sel.select.as_ref().filter(|(f, v)| f == "name" && jmh::names_record(label, v)).map(|(_, v)| v.as_str()))
        .collect();
    if let [name] = jmh_names.into_iter().collect::<Vec<_>>().as_slice() {
        return Some(RowName { fields: BTreeSet::from(["name".to_string()]), label: name.to_string(), run: None, environment: None });
    }
    let name = go_bench::record_name(label);
    let fields = fields_naming(&name, Some(Format::GoBench));
    (!fields.is_empty()).then_some(RowName { fields, label: name, run: None, environment: None })
}

/// A row label as `pytest-benchmark compare` writes it, split into the benchmark's name and the
/// run in parentheses after it: `test_x[1-True] (initial_base)`.
fn compared_run(label: &str) -> Option<(&str, &str)> {
    let (name, run) = label.strip_suffix(')')?.rsplit_once(" (")?;
    let name = name.trim_end();
    (!name.is_empty() && !run.is_empty() && !run.contains(char::is_whitespace)).then_some((name, run))
}

/// Whether a selection picks another benchmark than the row's, by a field that names it: in a
/// row that names its benchmark, a statistic of another benchmark that happens to round to the
/// quoted value is a coincidence, not a reading of the row. itsy.bitsy's console table gives
/// `copy_base` 224000 iterations, which is the count of `fill_base` in the committed results,
/// not of `copy_base`.
fn picks_another_row(row: Option<&RowName>, sel: &Selection) -> bool {
    let Some(r) = row else { return false };
    sel.select.iter().chain(&sel.also).any(|(f, v)| r.fields.contains(f) && *v != r.label)
}

/// The labels of the other rows of `sentence`'s table, where it is a cell: the rows a ratio to
/// the table's best is taken against.
fn rows_beside(article: &Article, sentence: &Sentence) -> Vec<String> {
    let Some(cell) = &sentence.cell else { return vec![] };
    let mut rows: Vec<String> = Vec::new();
    for other in &article.sentences {
        if let Some(c) = &other.cell
            && c.table == cell.table
            && c.row > 0
            && c.row != cell.row
            && !rows.contains(&c.row_label)
        {
            rows.push(c.row_label.clone());
        }
    }
    rows
}

/// Ratios of two statistics that reproduce a number quoted as a ratio (`1.20x`). A row's ratio
/// to itself is proposed as its ratio to the best of the other rows of its table, where the file
/// names them ([`Binding::ToBest`]), and otherwise as a label ([`Binding::Itself`]), since a row
/// over itself is 1 whatever the evidence holds.
fn ratio_candidates(sources: &[Source], article: &Article, sentence: &Sentence, number: &Number, preferred: Option<Statistic>) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    if !quoted_as_ratio(sentence, number, &quoted) {
        return vec![];
    }
    let beside = rows_beside(article, sentence);
    let context = context_words(sentence, number);
    // In a row named by the harness's own name for a benchmark, the ratio is that benchmark's
    // statistic over another (hyperfine's `Relative`, pytest-benchmark's `(1.28)` to its
    // column's best). A row named by another field (anvil's criterion parameter `Block: 0, …`,
    // shared by three functions) still reads its ratio from any of its records.
    let row = row_selection(sources, sentence);
    // Two layouts put the row's statistic below the line. In a column of rates (pytest-
    // benchmark's `OPS`, calls per second) the ratio to the column's best is the row's rate over
    // the best's, which is the best's time over the row's; pytest-benchmark computes OPS as
    // 1 / Mean, so the ratio is one of means. In hyperfine's summary the row is the fastest
    // command, and the column (`faster than b`) the one whose mean it divides by the row's.
    let row_divides = sentence.cell.as_ref().is_some_and(|c| c.column_label == "OPS" || c.column_label.starts_with("OPS (") || c.column_label.starts_with("faster than "));
    let preferred = if row_divides { Some(Statistic::Mean) } else { preferred };
    let mut out = Vec::new();
    for source in sources {
        if row.as_ref().is_some_and(|r| !r.in_run(source)) {
            continue;
        }
        let name = name_field(source.format);
        let names_row = |sel: &Selection| row.as_ref().is_some_and(|r| sel.select.as_ref().is_some_and(|(f, v)| Some(f.as_str()) == name && r.fields.contains(f) && *v == r.label));
        let row_here = source.selections.iter().any(&names_row);
        // Only time fields: a speed-up is a ratio of times.
        let timed = timed_series(source);
        for statistic in RATIO_STATISTICS {
            let values: Vec<f64> = timed.iter().map(|(_, s)| s.samples.statistic(statistic)).collect();
            for (i, (sel_a, a)) in timed.iter().enumerate() {
                if row_here && !row_divides && !names_row(sel_a) {
                    continue;
                }
                for (j, (sel_b, b)) in timed.iter().enumerate() {
                    if a.field != b.field || values[j] <= 0.0 || (row_here && row_divides && !names_row(sel_b)) {
                        continue;
                    }
                    // The rows beside this one, as selections of the same field: where there
                    // are any, a row's ratio to itself is its ratio to the best of them all.
                    // Only the best row's `1.00` is read so: another row's ratio to the best
                    // is its ratio to that row, proposed as such where `j` is the best.
                    let rivals: Vec<usize> = if i == j && row_here {
                        (0..timed.len())
                            .filter(|&k| {
                                let (sel_k, k_series) = timed[k];
                                k_series.field == a.field && values[k] > 0.0 && sel_k.select.as_ref().is_some_and(|(f, v)| Some(f.as_str()) == name && beside.contains(v))
                            })
                            .collect()
                    } else {
                        vec![]
                    };
                    let least = rivals.iter().map(|&k| values[k]).fold(values[i], f64::min);
                    if !rivals.is_empty() && least < values[i] {
                        continue;
                    }
                    let value = match (rivals.is_empty(), row_divides) {
                        (true, _) => values[i] / values[j],
                        (false, false) => values[i] / least,
                        (false, true) => least / values[i],
                    };
                    if !quoted.matches(value, None) {
                        continue;
                    }
                    let mut score = pair_score(&context, source, (sel_a, a), (sel_b, b));
                    if preferred == Some(statistic) {
                        score += 1.0;
                    }
                    let binding = if i == j && rivals.is_empty() {
                        Binding::Itself(stat_ref(source, sel_a, a, statistic))
                    } else if rivals.is_empty() {
                        Binding::Ratio(stat_ref(source, sel_a, a, statistic), stat_ref(source, sel_b, b, statistic))
                    } else {
                        let rivals = rivals.iter().map(|&k| stat_ref(source, timed[k].0, timed[k].1, statistic)).collect();
                        Binding::ToBest { row: stat_ref(source, sel_a, a, statistic), rivals, rate: row_divides }
                    };
                    out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
                }
            }
        }
    }
    // Every statistic of every selection over itself is the same proposal, a label: only the
    // best placed of them is kept.
    let mut itself = false;
    out.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
    out.retain(|(c, _)| !matches!(c.binding, Binding::Itself(_)) || !std::mem::replace(&mut itself, true));
    by_distance(out)
}

/// A ratio between two benchmarks that the harness keeps in files of their own (criterion's
/// `target/criterion/<group>/<benchmark>/new/sample.json`): a statistic of all of one file's
/// records over the same statistic of another's, where it reproduces the quote. Files of one
/// benchmark each are many (fifteen in a small criterion suite), and so are their pairs: a pair
/// counts only where its two paths differ in one component alone (two benchmarks of a group,
/// `hashes/crc` and `hashes/fib`, or one benchmark in two runs' directories) and the words around
/// the number name one of its files (`CRC … 16x slower than Fib`), and it ranks by how many of
/// its files they name. Where criterion sampled flat, the mean is its estimate and ranks first.
fn file_ratio_candidates(sources: &[Source], sentence: &Sentence, number: &Number, preferred: Option<Statistic>) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    if !quoted_as_ratio(sentence, number, &quoted) {
        return vec![];
    }
    let context = context_words(sentence, number);
    // Each file of one benchmark, by a harness that names its benchmarks: its records whole, in
    // the format's main time field.
    let files: Vec<(&Source, &Selection, &Series, bool)> = sources
        .iter()
        .filter(|s| s.only_name.is_some() && name_field(s.format).is_some())
        .filter_map(|source| {
            let sel = source.selections.iter().find(|sel| sel.select.is_none() && sel.filter.is_none())?;
            let series = sel.series.iter().find(|s| s.primary && s.derive.is_none())?;
            // Named: a word of the file's path is among the number's (`crc` of `hashes/crc`).
            let named = source.tokens.iter().any(|t| context.contains(t));
            Some((source, sel, series, named))
        })
        .collect();
    let mut out = Vec::new();
    for &(sa, sel_a, a, named_a) in &files {
        for &(sb, sel_b, b, named_b) in &files {
            if std::ptr::eq(sa, sb) || sa.format != sb.format || a.field != b.field || !(named_a || named_b) || !siblings(&sa.path, &sb.path) {
                continue;
            }
            let flat = matches!(sa.format, Format::Criterion | Format::CargoCriterion) && sel_a.slope.is_none() && sel_b.slope.is_none();
            for statistic in RATIO_STATISTICS {
                let (va, vb) = (a.samples.statistic(statistic), b.samples.statistic(statistic));
                let value = va / vb;
                if vb <= 0.0 || !value.is_finite() || !quoted.matches(value, None) {
                    continue;
                }
                // Each side scored in its own file, as `pair_score` scores two sides of one.
                let mut score = hints(&context, sa, sel_a, a) + hints(&context, sb, sel_b, b) - 0.5;
                if preferred == Some(statistic) || (flat && statistic == Statistic::Mean) {
                    score += 1.0;
                }
                let binding = Binding::Ratio(stat_ref(sa, sel_a, a, statistic), stat_ref(sb, sel_b, b, statistic));
                out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
            }
        }
    }
    by_distance(out)
}

/// Whether two paths differ in exactly one component: `…/hashes/crc/new/sample.json` and
/// `…/hashes/fib/new/sample.json`, not `…/reads/fib/…`.
fn siblings(a: &str, b: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split('/').collect(), b.split('/').collect());
    a.len() == b.len() && a.iter().zip(&b).filter(|(x, y)| x != y).count() == 1
}

/// A selection's per-operation times as the `benchmarkdotnet` reader names them.
fn time_ns(sel: &Selection) -> Option<&Series> {
    sel.series.iter().find(|s| s.field == "time_ns" && s.derive.is_none())
}

/// The name of the field BenchmarkDotNet's `Ratio` derives from the baseline's times: a name
/// without a unit's suffix, since the reciprocal of a time is none.
const RECIPROCAL: &str = "reciprocal";

/// BenchmarkDotNet's `Ratio` of a row, where the number stands in that column of its table
/// and reproduces it: the mean of `time_ns`'s ratios over every pair of the row's and another
/// case's records (`RatioStatistics` in BenchmarkDotNet's `Mathematics`), which is not the
/// ratio of the two means, though it is seldom far from it. Each other case of the row's file
/// is tried as the baseline, the table printing none. The baseline's own `1.00` and `0.00` are
/// no statistic of two cases: `RatioStatistics` sets a case over itself to a mean of 1 and a
/// deviation of 0 without dividing. They are proposed as labels ([`Binding::Itself`]), ranked
/// below a ratio to another case that reproduces the number, which a check can hold.
///
/// BenchmarkDotNet prints the two columns in one of three styles (`RatioStyle`, in
/// `Columns/BaselineRatioColumn.cs`), each read here from the cell: `Value` (`0.27`, the mean
/// of the ratios), `Trend` (`1.23x slower` where that mean is at least 1; otherwise `3.67x
/// faster`, the mean of the inverted ratios, the baseline's times over the row's; `RatioSD`
/// then the deviation of whichever ratios the row's `Ratio` printed, `0.06x`) and `Percentage`
/// (`+23%` or `-73%`, the mean less one in percent, signed; `RatioSD` the deviation in percent
/// of that mean, `1.7%`). The baseline prints `baseline` in the last two, which holds no number.
fn mean_of_ratios_candidates(sources: &[Source], sentence: &Sentence, number: &Number) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    let Some(sd) = sentence.cell.as_ref().and_then(|c| match c.column_label.as_str() {
        "Ratio" => Some(false),
        "RatioSD" => Some(true),
        _ => None,
    }) else {
        return vec![];
    };
    let after = sentence.text.get(number.span.end..).unwrap_or_default().trim_start().to_lowercase();
    let (style, trend) = match (&quoted.unit, sd) {
        (None, _) => (RatioStyle::Value, None),
        (Some(Unit::Percent), _) => (RatioStyle::Percentage, None),
        (Some(Unit::Times), true) => (RatioStyle::Value, None),
        (Some(Unit::Times), false) if after.starts_with("slower") => (RatioStyle::Value, Some(Trend::Slower)),
        (Some(Unit::Times), false) if after.starts_with("faster") => (RatioStyle::Value, Some(Trend::Faster)),
        (Some(_), _) => return vec![],
    };
    let trend_sd = sd && quoted.unit == Some(Unit::Times);
    let Some(row) = row_selection(sources, sentence) else { return vec![] };
    let context = context_words(sentence, number);
    let mut out = Vec::new();
    for source in sources.iter().filter(|s| s.format == Format::BenchmarkDotNet) {
        let named = |sel: &&Selection| sel.select.as_ref().is_some_and(|(f, _)| row.fields.contains(f));
        let Some((sel_a, a)) =
            source.selections.iter().filter(named).find(|sel| sel.select.as_ref().is_some_and(|(_, v)| *v == row.label)).and_then(|sel| Some((sel, time_ns(sel)?)))
        else {
            continue;
        };
        let baseline = if sd { 0.0 } else { 1.0 };
        if style == RatioStyle::Value && trend.is_none() && !trend_sd && quoted.matches(baseline, None) {
            let score = pair_score(&context, source, (sel_a, a), (sel_a, a)) + 4.0;
            out.push((Candidate { binding: Binding::Itself(stat_ref(source, sel_a, a, Statistic::Mean)), value: baseline, score }, (baseline - quoted.value).abs()));
        }
        for sel_b in source.selections.iter().filter(named).filter(|sel| sel.select != sel_a.select) {
            let Some(b) = time_ns(sel_b) else { continue };
            let Some((mean, _)) = mean_of_ratios(&a.samples, &b.samples) else { continue };
            // In the trend style a row below its baseline is printed as the inverted ratio: the
            // baseline's times over the row's, the same computation with the two cases traded.
            let inverted = match (trend, trend_sd) {
                (Some(Trend::Slower), _) if mean < 1.0 => continue,
                (Some(Trend::Faster), _) if mean >= 1.0 => continue,
                (Some(Trend::Faster), _) => true,
                (_, true) => mean < 1.0,
                _ => false,
            };
            let ((sel_n, n), (sel_d, d)) = if inverted { ((sel_b, b), (sel_a, a)) } else { ((sel_a, a), (sel_b, b)) };
            let Some((mean, reciprocals)) = mean_of_ratios(&n.samples, &d.samples) else { continue };
            let value = match (sd, style) {
                (false, RatioStyle::Value) => mean,
                (false, RatioStyle::Percentage) => (mean - 1.0) * 100.0,
                (true, RatioStyle::Value) => ratio_sd(&n.samples, &reciprocals),
                (true, RatioStyle::Percentage) => 100.0 * ratio_sd(&n.samples, &reciprocals) / mean,
            };
            if !value.is_finite() || !quoted.matches(value, None) {
                continue;
            }
            // The column names this computation as plainly as a header names a statistic, and
            // ranks it above the ratio of the two means that usually rounds alike.
            let score = pair_score(&context, source, (sel_a, a), (sel_b, b)) + 5.0;
            let row_ref = stat_ref(source, sel_n, n, Statistic::Mean);
            let derive = Some((RECIPROCAL.to_string(), format!("1 / {}", d.field)));
            let reciprocal = StatRef { derive, field: RECIPROCAL.to_string(), ..stat_ref(source, sel_d, d, Statistic::Mean) };
            out.push((Candidate { binding: Binding::MeanOfRatios { row: row_ref, reciprocal, sd, style }, value, score }, (value - quoted.value).abs()));
        }
    }
    by_distance(out)
}

/// The mean of the ratios of every pair of `n`'s and `d`'s values, mean(n) · mean(1 / d), with
/// the reciprocals of `d`; none where `d` holds a value that is not positive.
fn mean_of_ratios(n: &crate::stats::Samples, d: &crate::stats::Samples) -> Option<(f64, crate::stats::Samples)> {
    let reciprocals: Vec<f64> = d.sorted().iter().map(|&v| (v > 0.0).then(|| 1.0 / v)).collect::<Option<_>>()?;
    let reciprocals = crate::stats::Samples::new(reciprocals).ok()?;
    Some((n.mean() * reciprocals.mean(), reciprocals))
}

/// How BenchmarkDotNet prints its `Ratio` and `RatioSD` (its `RatioStyle`), as far as the
/// check's expression differs: `Trend` computes as `Value` does, over the two cases in the
/// order the cell's word says.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum RatioStyle {
    Value,
    Percentage,
}

/// A trend-style `Ratio`'s word.
#[derive(Clone, Copy, PartialEq)]
enum Trend {
    Slower,
    Faster,
}

/// The standard deviation (over n − 1) of the ratios of every pair of `a`'s values and the
/// values whose reciprocals `r` holds, from the four means it takes (BenchmarkDotNet's
/// `RatioSD`): over the N·M ratios, Σ z² = N·M · mean(a²) · mean(r²) and their mean is
/// mean(a) · mean(r). The registry states the same as [`RATIO_SD`].
fn ratio_sd(a: &crate::stats::Samples, r: &crate::stats::Samples) -> f64 {
    let square_mean = |s: &crate::stats::Samples| s.sorted().iter().map(|v| v * v).sum::<f64>() / s.len() as f64;
    let pairs = (a.len() * r.len()) as f64;
    let mean = a.mean() * r.mean();
    (pairs * (square_mean(a) * square_mean(r) - mean * mean) / (pairs - 1.0)).max(0.0).sqrt()
}

/// [`ratio_sd`] as a registry's `arith` writes it: `a` and `b` the two means, `a2` and `b2` the
/// means of the squares, `n` and `m` the counts.
pub(crate) const RATIO_SD: &str = "sqrt(n * m * (a2 * b2 - (a * b) ^ 2) / (n * m - 1))";

/// Words that say a percentage is a change between two measurements.
const CHANGE_WORDS: [&str; 22] = [
    "faster", "slower", "less", "more", "fewer", "lower", "higher", "reduc", "increas", "decreas", "drop", "improv", "regress", "change", "grew", "fell", "saving", "save", "cut",
    "vs", "than", "longer",
];

/// Changes in percent between two statistics that reproduce a percentage quoted as one: signed
/// (`-57.48%`, `+5.68%`), the new side's over the base's less one; or unsigned beside words of
/// change (`5.68% slower`, `57.48% fewer bytes`), that or its reduction, one less the ratio.
/// The two sides are one field of two benchmarks of a file (selected by the field the harness
/// names them by), or of one benchmark in two files (a run before and after). Every field may
/// change, not only times: a change of `B/op` or `allocs/op` is quoted as often.
fn change_candidates(sources: &[Source], sentence: &Sentence, number: &Number, preferred: Option<Statistic>) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    if quoted.unit != Some(Unit::Percent) {
        return vec![];
    }
    let signed = number.text.starts_with(['+', '-', '−']);
    let text = sentence.text.to_lowercase();
    if !signed && !CHANGE_WORDS.iter().any(|w| text.split(|c: char| !c.is_alphanumeric()).any(|word| word.starts_with(w))) {
        return vec![];
    }
    let context = context_words(sentence, number);
    // Each benchmark's series: its file, selection and field, and the benchmark's name. A file
    // of one benchmark has no selection by name (it would be all records): all its records are
    // that benchmark.
    let named: Vec<(&Source, &Selection, &Series, &str)> = sources
        .iter()
        .flat_map(|source| {
            let field = name_field(source.format);
            source.selections.iter().filter(|sel| sel.filter.is_none()).flat_map(move |sel| {
                let name = match &sel.select {
                    Some((f, v)) if Some(f.as_str()) == field => Some(v.as_str()),
                    Some(_) => None,
                    None => source.only_name.as_deref(),
                };
                name.into_iter().flat_map(move |name| sel.series.iter().filter(|s| s.derive.is_none()).map(move |s| (source, sel, s, name)))
            })
        })
        .collect();
    let mut out = Vec::new();
    for (i, &(sa, sel_a, a, name_a)) in named.iter().enumerate() {
        for (j, &(sb, sel_b, b, name_b)) in named.iter().enumerate() {
            let same_file = std::ptr::eq(sa, sb);
            // Two benchmarks of one file, or one benchmark in two files.
            if i == j || a.field != b.field || same_file == (name_a == name_b) {
                continue;
            }
            for statistic in RATIO_STATISTICS {
                let (va, vb) = (a.samples.statistic(statistic), b.samples.statistic(statistic));
                if vb == 0.0 || !va.is_finite() || !vb.is_finite() {
                    continue;
                }
                let ratio = va / vb;
                let forms: &[bool] = if signed { &[false] } else { &[false, true] };
                for &less in forms {
                    let value = if less { (1.0 - ratio) * 100.0 } else { (ratio - 1.0) * 100.0 };
                    if (!signed && value <= 0.0) || !quoted.matches(value, None) {
                        continue;
                    }
                    let mut score = pair_score(&context, sa, (sel_a, a), (sel_b, b));
                    if preferred == Some(statistic) {
                        score += 1.0;
                    }
                    let side = |source, sel, s| benchmark_ref(source, sel, s, Measure::Statistic(statistic));
                    let binding = Binding::Change { new: vec![side(sa, sel_a, a)], base: vec![side(sb, sel_b, b)], less };
                    out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
                }
            }
        }
    }
    // Every statistic of every selection over itself is the same proposal, a label: only the
    // best placed of them is kept.
    let mut itself = false;
    out.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
    out.retain(|(c, _)| !matches!(c.binding, Binding::Itself(_)) || !std::mem::replace(&mut itself, true));
    by_distance(out)
}

/// pyperf's `compare_to` ratio (`_compare.py`): the changed file's mean over the reference
/// file's (`norm_mean`), printed `1.42x slower` where it is above 1 and inverted, `1.02x
/// faster`, where it is below; so the number printed is always the larger mean over the
/// smaller, and a pair of files whose ratio is at least 1 in that order is what a check reads.
/// A row's benchmark (its table's row, or its line's `name:` prefix in the text) is the one
/// compared; on a `Geometric mean` row or line, the geometric mean of the ratios of every
/// benchmark the two files share (`format_geometric_mean`, over all of them, significant or
/// not). Both are pyperf's own computations, named by the word after the number, and rank
/// above a coincidence of statistics within one file. pyperf names each file by its name less
/// `.json`: the reference is the table's first column of values (or the first `[name]` of a
/// line), the changed file the cell's column (or the second `[name]`), and a pair of files so
/// named, in the order the word after the number gives, ranks first where two pairs round
/// alike.
fn pyperf_compare_candidates(sources: &[Source], article: &Article, sentence: &Sentence, number: &Number) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    let after = sentence.text.get(number.span.end..).unwrap_or_default().trim_start().to_lowercase();
    if quoted.unit != Some(Unit::Times) || !(after.starts_with("faster") || after.starts_with("slower")) {
        return vec![];
    }
    let before = sentence.text.get(..number.span.start).unwrap_or_default();
    let geomean = sentence.cell.as_ref().map_or(before.contains("Geometric mean"), |c| c.row_label == "Geometric mean");
    let row = row_selection(sources, sentence).map(|r| r.label);
    let context = context_words(sentence, number);
    let (reference, changed) = match &sentence.cell {
        Some(cell) => {
            let first = article.sentences.iter().filter_map(|s| s.cell.as_ref()).find(|c| c.table == cell.table && c.column == 1).map(|c| c.column_label.clone());
            (first, Some(cell.column_label.clone()))
        }
        None => {
            let mut names = before.split('[').skip(1).filter_map(|part| part.split_once(']').map(|(name, _)| name.to_string()));
            (names.next(), names.next())
        }
    };
    // `slower` is the changed file's mean over the reference's, `faster` the inverse.
    let (numerator, denominator) = if after.starts_with("faster") { (&reference, &changed) } else { (&changed, &reference) };
    // Each pyperf file's benchmarks by name: the selection of its records and its value field.
    let files: Vec<(&Source, BTreeMap<&str, (&Selection, &Series)>)> = sources
        .iter()
        .filter(|s| s.format == Format::Pyperf)
        .map(|source| {
            let mut by_name = BTreeMap::new();
            for sel in source.selections.iter().filter(|sel| sel.filter.is_none()) {
                let Some(name) = pyperf_benchmark(source, sel) else { continue };
                if let Some(series) = pyperf_values(sel) {
                    by_name.entry(name).or_insert((sel, series));
                }
            }
            (source, by_name)
        })
        .collect();
    let mut out = Vec::new();
    for (sa, new) in &files {
        for (sb, base) in &files {
            if std::ptr::eq(*sa, *sb) {
                continue;
            }
            let shared: Vec<(&str, (&Selection, &Series), (&Selection, &Series))> =
                new.iter().filter_map(|(name, a)| base.get(name).filter(|b| b.1.field == a.1.field).map(|b| (*name, *a, *b))).collect();
            let ratio = |(_, a): (&Selection, &Series), (_, b): (&Selection, &Series)| a.samples.mean() / b.samples.mean();
            let score = |pairs: &[(&str, (&Selection, &Series), (&Selection, &Series))]| {
                let (a, b) = (pairs[0].1, pairs[0].2);
                let named = |name: &Option<String>, source: &Source| if name.as_deref() == Some(pyperf_name(source)) { 1.0 } else { 0.0 };
                hints(&context, sa, a.0, a.1) + hints(&context, sb, b.0, b.1) + 5.0 + named(numerator, sa) + named(denominator, sb)
            };
            if geomean {
                if shared.len() < 2 {
                    continue;
                }
                let logs: f64 = shared.iter().map(|(_, a, b)| ratio(*a, *b).ln()).sum();
                let value = (logs / shared.len() as f64).exp();
                if value < 1.0 || !value.is_finite() || !quoted.matches(value, None) {
                    continue;
                }
                let side = |source: &Source, (sel, s): (&Selection, &Series)| benchmark_ref(source, sel, s, Measure::Statistic(Statistic::Mean));
                let binding = Binding::GeomeanRatio { new: shared.iter().map(|(_, a, _)| side(sa, *a)).collect(), base: shared.iter().map(|(_, _, b)| side(sb, *b)).collect() };
                out.push((Candidate { binding, value, score: score(&shared) }, (value - quoted.value).abs()));
                continue;
            }
            for pair in &shared {
                if row.as_deref().is_some_and(|r| r != pair.0) {
                    continue;
                }
                let value = ratio(pair.1, pair.2);
                if value < 1.0 || !value.is_finite() || !quoted.matches(value, None) {
                    continue;
                }
                let side = |source: &Source, (sel, s): (&Selection, &Series)| benchmark_ref(source, sel, s, Measure::Statistic(Statistic::Mean));
                let binding = Binding::Ratio(side(sa, pair.1), side(sb, pair.2));
                out.push((Candidate { binding, value, score: score(std::slice::from_ref(pair)) }, (value - quoted.value).abs()));
            }
        }
    }
    by_distance(out)
}

/// pyperf's distances from the mean in percent, `(value - mean) * 100 / mean`: a percentile's
/// in `pyperf stats` (`  5th percentile: 4.15 us (-4% of the mean)`, `_cli.format_stats`) and
/// the minimum's or the maximum's in its warning (`the maximum (6.02 us) is 39% greater than
/// the mean`, `_cli.format_checks`, which prints a minimum's as `N% smaller`). Each is the
/// change from one benchmark's mean to its own percentile, minimum or maximum, of the same
/// series; the row or column names which (`5th percentile`, `the maximum`). They are pyperf's
/// own computations, and rank above a coincidence of two benchmarks' statistics.
fn pyperf_of_the_mean_candidates(sources: &[Source], sentence: &Sentence, number: &Number) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    let Some(cell) = &sentence.cell else { return vec![] };
    let after = sentence.text.get(number.span.end..).unwrap_or_default().trim_start();
    let (statistic, less) = if after.starts_with("of the mean") {
        let Some(p) = [&cell.column_label, &cell.row_label].into_iter().find_map(|l| l.strip_suffix("th percentile").and_then(ordinal_number)) else { return vec![] };
        (Statistic::Percentile(p), false)
    } else if after.starts_with("greater than the mean") && cell.column_label == "the maximum" {
        (Statistic::Max, false)
    } else if after.starts_with("smaller than the mean") && cell.column_label == "the minimum" {
        (Statistic::Min, true)
    } else {
        return vec![];
    };
    if quoted.unit != Some(Unit::Percent) {
        return vec![];
    }
    let context = context_words(sentence, number);
    let row = row_selection(sources, sentence).map(|r| r.label);
    let mut out = Vec::new();
    for source in sources.iter().filter(|s| s.format == Format::Pyperf) {
        for sel in source.selections.iter().filter(|sel| sel.filter.is_none()) {
            let Some(name) = pyperf_benchmark(source, sel) else { continue };
            if row.as_deref().is_some_and(|r| r != name) {
                continue;
            }
            let Some(series) = pyperf_values(sel) else { continue };
            let (value, mean) = (series.samples.statistic(statistic), series.samples.mean());
            let change = if less { (1.0 - value / mean) * 100.0 } else { (value / mean - 1.0) * 100.0 };
            if !change.is_finite() || !quoted.matches(change, None) {
                continue;
            }
            let side = |statistic| benchmark_ref(source, sel, series, Measure::Statistic(statistic));
            let binding = Binding::Change { new: vec![side(statistic)], base: vec![side(Statistic::Mean)], less };
            // The words name this computation whole (`of the mean` beside a percentile's row), so
            // it ranks above a statistic the same words name in part (the mean of another field).
            out.push((Candidate { binding, value: change, score: hints(&context, source, sel, series) + 6.0 }, (change - quoted.value).abs()));
        }
    }
    by_distance(out)
}

/// The benchmark a selection of a pyperf file's records is: the one it selects by name, or the
/// file's only one where it selects them all; `None` for a selection by anything else.
fn pyperf_benchmark<'a>(source: &'a Source, sel: &'a Selection) -> Option<&'a str> {
    match &sel.select {
        Some((f, v)) if f == "name" => Some(v.as_str()),
        Some(_) => None,
        None => source.only_name.as_deref(),
    }
}

/// The series of a pyperf selection's values: `time_s` for a time, `bytes` for memory, `value`
/// for any other unit.
fn pyperf_values(sel: &Selection) -> Option<&Series> {
    sel.series.iter().find(|s| s.derive.is_none() && ["time_s", "bytes", "value"].contains(&s.field.as_str()))
}

/// The number of pyperf's ordinal percentile (`5` of `5th`), where `digits` is one.
fn ordinal_number(digits: &str) -> Option<f64> {
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok()).flatten().filter(|p| *p <= 100.0)
}

/// The name pyperf gives a result file in its comparisons: the file's name less its extension,
/// then less a `.json` left before it (`bench.json.gz` is `bench`), as its `__main__` names one.
fn pyperf_name(source: &Source) -> &str {
    let file = source.path.rsplit('/').next().unwrap_or(&source.path);
    let stem = match file.rfind('.') {
        Some(k) if k > 0 => &file[..k],
        _ => file,
    };
    stem.strip_suffix(".json").unwrap_or(stem)
}

/// The cells of pyperf's `compare_to` table that say `not significant` and that no claim binds,
/// each proposed the t-test pyperf decided it by: of its row's benchmark in the reference file
/// (the table's first column of values) against the file its column names, each file named by
/// its name less `.json`, as pyperf names it.
fn pyperf_not_significant(sources: &[Source], article: &Article, selectors: &Selectors<'_>, bound: &BTreeSet<usize>, used_ids: &mut BTreeSet<String>) -> Vec<NumberSuggestions> {
    // The benchmark `name` in the pyperf file named `file`: its selection and value series.
    let find = |file: &str, name: &str| {
        sources.iter().filter(|s| s.format == Format::Pyperf && pyperf_name(s) == file).find_map(|source| {
            let sel = source.selections.iter().find(|sel| {
                sel.filter.is_none()
                    && match &sel.select {
                        Some((f, v)) => f == "name" && v == name,
                        None => source.only_name.as_deref() == Some(name),
                    }
            })?;
            let series = sel.series.iter().find(|s| s.derive.is_none() && ["time_s", "bytes", "value"].contains(&s.field.as_str()))?;
            Some(benchmark_ref(source, sel, series, Measure::Statistic(Statistic::Mean)))
        })
    };
    let mut out = Vec::new();
    for s in article.sentences.iter().filter(|s| !bound.contains(&s.index) && s.text.trim().eq_ignore_ascii_case("not significant")) {
        let Some(cell) = s.cell.as_ref().filter(|c| c.row > 0 && c.column > 1) else { continue };
        let Some(reference) = article.sentences.iter().filter_map(|s| s.cell.as_ref()).find(|c| c.table == cell.table && c.column == 1).map(|c| c.column_label.as_str()) else {
            continue;
        };
        let (Some(base), Some(new)) = (find(reference, &cell.row_label), find(&cell.column_label, &cell.row_label)) else { continue };
        if base.field != new.field {
            continue;
        }
        let binding = Binding::TTest { base, new, significant: false };
        let id = next_id(used_ids, s.line);
        let candidates = vec![Candidate { binding, value: 0.0, score: 1.0 }];
        out.push(NumberSuggestions {
            id,
            number: s.text.trim().to_string(),
            file: s.file.clone(),
            line: s.line,
            col: s.col,
            target: target(article, selectors, s),
            candidates,
            tied: 1,
            names: None,
            bound: None,
        });
    }
    out
}

/// A source's plain time series, with their selections: what a ratio of times is taken over.
fn timed_series(source: &Source) -> Vec<(&Selection, &Series)> {
    source
        .selections
        .iter()
        .flat_map(|sel| sel.series.iter().filter(|s| s.derive.is_none() && matches!(&s.unit, SeriesUnit::Plain(Some(u)) if u.seconds().is_some())).map(move |s| (sel, s)))
        .collect()
}

/// The score of a candidate over two series of `source`. Each side is scored on its own: the
/// base of a speed-up shares the row with the number, as the compared side does, so a base from
/// another table is the weaker explanation.
fn pair_score(context: &BTreeSet<String>, source: &Source, (sel_a, a): (&Selection, &Series), (sel_b, b): (&Selection, &Series)) -> f64 {
    let mut score = hints(context, source, sel_a, a) + hints(context, source, sel_b, b) - 0.5;
    if a.primary {
        score += 0.5;
    }
    score + filter_score(sel_a) + filter_score(sel_b)
}

/// The `stat` query of `statistic` over series `s` of selection `sel` in `source`.
fn stat_ref(source: &Source, sel: &Selection, s: &Series, statistic: Statistic) -> StatRef {
    query_ref(source, sel, s, Measure::Statistic(statistic))
}

/// The `stat` query of `measure` over the plain series `s` of selection `sel` in `source`.
fn query_ref(source: &Source, sel: &Selection, s: &Series, measure: Measure) -> StatRef {
    StatRef {
        samples: source.path.clone(),
        format: source.format,
        select: sel.select.clone(),
        filter: sel.filter.clone(),
        derive: None,
        field: s.field.clone(),
        statistic: measure,
        outliers: false,
        n: s.samples.len(),
        tolerance: None,
    }
}

/// [`query_ref`] naming its benchmark by the format's name field even where the selection is
/// the whole file of that one benchmark, so that the check still reads that benchmark alone if
/// another is added to the file.
fn benchmark_ref(source: &Source, sel: &Selection, s: &Series, measure: Measure) -> StatRef {
    let named = || Some((name_field(source.format)?.to_string(), source.only_name.clone()?));
    StatRef { select: sel.select.clone().or_else(named), ..query_ref(source, sel, s, measure) }
}

/// The ratio `number` is the spread of, where it is written after one with `±` between them
/// (`1.33 ± 0.09`) and that one is quoted as a ratio.
fn spread_of_a_ratio(sentence: &Sentence, number: &Number) -> Option<Quoted> {
    if !follows_plus_minus(sentence, number) {
        return None;
    }
    let at = sentence.numbers.iter().position(|n| n.span == number.span)?;
    let value = sentence.numbers.get(at.checked_sub(1)?)?;
    let quoted = quotable(value)?;
    quoted_as_ratio(sentence, value, &quoted).then_some(quoted)
}

/// hyperfine's spread of a ratio of two means, as it computes the `Relative` column's:
/// r · √((sₐ/mₐ)² + (s_b/m_b)²) with r = mₐ/m_b (`src/benchmark/relative_speed.rs`).
fn ratio_spread(mean_a: f64, sd_a: f64, mean_b: f64, sd_b: f64) -> f64 {
    mean_a / mean_b * ((sd_a / mean_a).powi(2) + (sd_b / mean_b).powi(2)).sqrt()
}

/// Pairs of time series whose ratio of means reproduces `ratio` and whose spread, computed as
/// hyperfine computes it, reproduces `number`.
fn ratio_spread_candidates(sources: &[Source], sentence: &Sentence, number: &Number, ratio: &Quoted) -> Vec<Candidate> {
    let Some(quoted) = quotable(number) else { return vec![] };
    let context = context_words(sentence, number);
    let mut out = Vec::new();
    for source in sources {
        let timed = timed_series(source);
        let moments: Vec<(f64, f64)> = timed.iter().map(|(_, s)| (s.samples.statistic(Statistic::Mean), s.samples.statistic(Statistic::Stdev))).collect();
        for (i, (sel_a, a)) in timed.iter().enumerate() {
            for (j, (sel_b, b)) in timed.iter().enumerate() {
                let ((mean_a, sd_a), (mean_b, sd_b)) = (moments[i], moments[j]);
                if i == j || a.field != b.field || mean_a <= 0.0 || mean_b <= 0.0 || !ratio.matches(mean_a / mean_b, None) {
                    continue;
                }
                let value = ratio_spread(mean_a, sd_a, mean_b, sd_b);
                if !quoted.matches(value, None) {
                    continue;
                }
                let score = pair_score(&context, source, (sel_a, a), (sel_b, b));
                let binding = Binding::RatioSpread(stat_ref(source, sel_a, a, Statistic::Mean), stat_ref(source, sel_b, b, Statistic::Mean));
                out.push((Candidate { binding, value, score }, (value - quoted.value).abs()));
            }
        }
    }
    by_distance(out)
}

/// Whether a number is quoted as a ratio: written with `×` (`1.20x faster`), or written bare
/// in a table column whose header names a ratio. hyperfine's `--export-markdown` writes its
/// speed-ups that way, `1.33 ± 0.09` under `Relative`, and a bare number elsewhere is a count
/// or a score as often as a ratio, so the header has to say so.
fn quoted_as_ratio(sentence: &Sentence, number: &Number, quoted: &Quoted) -> bool {
    // Prose writes a ratio in words as often as with `×`: `4 times as long`, `a 3-fold speed-up`.
    let after = sentence.text.get(number.span.end..).unwrap_or_default().to_lowercase();
    let after = after.trim_start().trim_start_matches('-');
    let in_words = matches!(after.split(|c: char| !c.is_alphabetic()).next(), Some("times" | "fold"));
    match &quoted.unit {
        Some(Unit::Times) => true,
        Some(_) => false,
        None if in_words => true,
        None => sentence.cell.as_ref().is_some_and(|cell| {
            let names_a_ratio = |word: &str| ["relative", "ratio", "speedup", "speed-up", "slowdown"].contains(&word.to_lowercase().as_str());
            cell.column > 0 && cell.column_label.split(|c: char| !(c.is_alphanumeric() || c == '-')).any(names_a_ratio)
        }),
    }
}

/// Candidates ordered by distance to the quoted value, for the stable sort by score to keep.
fn by_distance(mut found: Vec<(Candidate, f64)>) -> Vec<Candidate> {
    found.sort_by(|a, b| a.1.total_cmp(&b.1));
    found.into_iter().map(|(c, _)| c).collect()
}

/// The quoted value a candidate must reproduce: single numbers only, not ranges, shapes or
/// bounds written as comparators (see [`NumberSuggestions::bound`]).
fn quotable(number: &Number) -> Option<Quoted> {
    match number.shape {
        // A bound in words is searched for as the value its digits write; one written as a
        // comparator is not searched for.
        Shape::Single if !number.writes_its_bound() => Quoted::from_number(number, None).ok().map(|q| Quoted { bound: None, ..q }),
        Shape::Single => None,
        Shape::Range { .. } | Shape::Dims(_) => None,
    }
}

/// The candidate's value in the quoted unit, where its unit suits the quote and it matches.
fn fits(quoted: &Quoted, value: f64, unit: &SeriesUnit) -> Option<f64> {
    let converted = in_quoted_unit(quoted, value, unit)?;
    quoted.matches(converted, None).then_some(converted)
}

/// `value`, in the series' `unit`, converted to the quoted unit; `None` where the two are of
/// different kinds.
fn in_quoted_unit(quoted: &Quoted, value: f64, unit: &SeriesUnit) -> Option<f64> {
    Some(match (&quoted.unit, unit) {
        (Some(Unit::Other(u)), SeriesUnit::PerSecond) if u.ends_with("/s") || u.ends_with("/sec") => value,
        (_, SeriesUnit::PerSecond) => return None,
        (Some(q), SeriesUnit::Plain(None)) if q.seconds().is_some() => return None,
        // Within one kind of unit (times, bytes, byte rates) as the checks convert.
        (Some(q), SeriesUnit::Plain(Some(f))) => crate::article::numbers::convert(value, Some(f), Some(q)).ok()?,
        (Some(_), SeriesUnit::Plain(None)) => value,
        (None, SeriesUnit::Plain(None)) => value,
        (None, SeriesUnit::Plain(Some(_))) => return None,
    })
}

/// The name of a derived rate, from the quoted unit: `tokens/s` gives `tokens_per_s`.
fn rate_name(unit: Option<&Unit>) -> String {
    let text = unit.map_or("rate/s".to_string(), |u| u.symbol().to_string());
    let name: String = text.replace('/', "_per_").chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    name.trim_matches('_').to_string()
}

/// The words around a number: its sentence without it, and for a cell its row, column and
/// headings.
fn context_words(sentence: &Sentence, number: &Number) -> BTreeSet<String> {
    let mut text = String::new();
    text.push_str(&sentence.text[..number.span.start.min(sentence.text.len())]);
    text.push(' ');
    text.push_str(&sentence.text[number.span.end.min(sentence.text.len())..]);
    let mut out = sentence_words(&text);
    for heading in &sentence.section {
        out.extend(words(heading));
    }
    if let Some(cell) = &sentence.cell {
        out.extend(sentence_words(&cell.row_label));
        out.extend(sentence_words(&cell.column_label));
    }
    out
}

/// The words of a sentence, with `number of` kept as one phrase: `the number of calls` names a
/// count, where `a number from 1 to 100` or `version number 3` does not, and the word alone
/// cannot tell them apart. The phrase holds a space, which no word from [`words`] does, so it
/// never matches a file's or a field's words.
fn sentence_words(text: &str) -> BTreeSet<String> {
    let mut out = words(text);
    let lower = text.to_lowercase();
    if lower.split_whitespace().collect::<Vec<_>>().windows(2).any(|w| matches!(w[0], "number" | "numbers") && w[1] == "of") {
        out.insert(NUMBER_OF.to_string());
    }
    out
}

/// The phrase [`sentence_words`] keeps whole.
const NUMBER_OF: &str = "number of";

/// Lowercase words of two or more letters or digits, a plural's `s` dropped, common words out.
fn words(text: &str) -> BTreeSet<String> {
    const COMMON: &[&str] = &[
        "the", "of", "and", "to", "in", "is", "for", "by", "on", "at", "we", "it", "as", "an", "or", "with", "each", "are", "was", "be", "this", "that", "from", "json", "jsonl",
        "csv", "evidence",
    ];
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(|w| {
            let w = w.to_lowercase();
            if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") { w[..w.len() - 1].to_string() } else { w }
        })
        .filter(|w| !COMMON.contains(&w.as_str()))
        .collect()
}

/// How well a series fits the words around a number: the words its file's path and its
/// selection share with them count twice, since they name what was measured (a provider, a
/// benchmark); its field's words once.
fn hints(context: &BTreeSet<String>, source: &Source, sel: &Selection, series: &Series) -> f64 {
    let named: BTreeSet<&str> = source.tokens.iter().chain(&sel.tokens).map(String::as_str).filter(|t| context.contains(*t)).collect();
    let field = series.tokens.iter().filter(|t| context.contains(*t) && !named.contains(t.as_str())).count();
    // criterion keeps a benchmark's last run in `new/` and the baseline it compared that run
    // with in `base/` (or a baseline's own name): its console printed `new`'s, which ranks first
    // where both reproduce a number, as they do where no later run has moved the baseline.
    let latest = if source.format == Format::Criterion && source.path.contains("/new/") { 0.25 } else { 0.0 };
    2.0 * named.len() as f64 + field as f64 + latest
}

/// A filter that leaves out failed records (`error_code == null`) is what a benchmark's
/// statistics usually mean, so it is preferred where it fits as well as all records; any other
/// filter is a small cost.
fn filter_score(sel: &Selection) -> f64 {
    match &sel.filter {
        None => 0.0,
        Some(f) if f.contains("error") || f.contains("fail") => 0.25,
        Some(_) => -0.25,
    }
}

/// The statistics the words around a number name, as [`statistic_key`]s.
fn named_statistics(context: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // pyperf names its percentiles by ordinals (`  5th percentile:`, `100th percentile:`).
    let percentiles = context.contains("percentile");
    for w in context {
        let key = match w.as_str() {
            // pyperf's `Median +- MAD`, its median absolute deviation.
            "mad" => "mad".to_string(),
            // The 0th and 100th are the ends, which the minimum and the maximum read.
            "0th" if percentiles => "min".to_string(),
            "100th" if percentiles => "max".to_string(),
            w if percentiles && ordinal(w).is_some() => format!("p{}", ordinal(w).unwrap_or_default()),
            "median" | "p50" => "median".to_string(),
            "mean" | "average" | "avg" => "mean".to_string(),
            "min" | "minimum" | "fastest" => "min".to_string(),
            "max" | "maximum" | "slowest" => "max".to_string(),
            "stdev" | "stddev" | "deviation" | "std" => "stdev".to_string(),
            // `cnt` is JMH's column of samples; `Instances` and `Num Calls` are nsys's summaries'
            // counts of a kernel's launches and of an API's calls.
            "request" | "iteration" | "run" | "sample" | "time" | "round" | "repetition" | NUMBER_OF | "count" | "cnt" | "instance" | "call" | "invocation" => {
                "count".to_string()
            }
            // A total is a count of things (`150 total requests`) or a sum of values (nsys's
            // `Total Time (ns)`), which the unit tells apart. The word `sum` is left out: it
            // names what is measured as often (Go's `BenchmarkSum`).
            "total" => {
                out.insert("count".to_string());
                "sum".to_string()
            }
            w if w.len() >= 2 && w.starts_with('p') && w[1..].chars().all(|c| c.is_ascii_digit()) => format!("p{}", &w[1..].trim_start_matches('0')),
            _ => continue,
        };
        out.insert(key);
    }
    out
}

/// The number of an ordinal as pyperf writes its percentiles (`5th`, `95th`), without leading
/// zeros.
fn ordinal(word: &str) -> Option<&str> {
    let digits = word.strip_suffix("th").filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))?;
    Some(digits.trim_start_matches('0'))
}

/// Whether the words around a number name `series`'s field by a word that would otherwise name
/// a count: a column `Iterations` over a harness's `iterations` field (pytest-benchmark's and
/// Google Benchmark's calls per round) is that field's value, not the number of records, even
/// where a benchmark of one round makes the two equal.
/// The word must be the field's whole name: `request` also names a count, and is one word of
/// LLMPerf's summary field `results_num_completed_requests`, which a sentence about "150
/// requests" does not name.
fn names_field(context: &BTreeSet<String>, series: &Series) -> bool {
    match series.tokens.iter().collect::<Vec<_>>().as_slice() {
        [only] if series.derive.is_none() => context.contains(*only) && named_statistics(&BTreeSet::from([(*only).clone()])).contains("count"),
        _ => false,
    }
}

/// Whether a cell's row is the Nsight Compute metric whose values `series` holds: the console
/// names a row by the metric (`Duration`), and the ncu reader names its field after it
/// ([`ncu::names_metric`]). The unit then tells `Memory Throughput` in `%` from the same row in
/// `Gbyte/s`.
fn row_is_ncu_metric(format: Format, sentence: &Sentence, series: &Series) -> bool {
    format == Format::Ncu && series.derive.is_none() && sentence.cell.as_ref().is_some_and(|cell| ncu::names_metric(&series.field, &cell.row_label))
}

/// Whether a number stands in an Nsight Compute details table, whose `Metric Value` column
/// prints one launch's values (the per-kernel summary prints `Minimum`, `Maximum`, `Average`).
fn in_ncu_details(format: Format, sentence: &Sentence) -> bool {
    format == Format::Ncu && sentence.cell.as_ref().is_some_and(|c| c.column_label == "Metric Value")
}

/// The Nsight Compute launch a selection picks alone (`where = "id == 3"`), if it is one.
fn launch_of(sel: &Selection) -> Option<i64> {
    sel.filter.as_deref()?.strip_prefix("id == ")?.parse().ok()
}

/// Whether a cell's column is the unit of Go's output whose values `series` holds: a pasted
/// `go test -bench` line puts each value under its unit as printed (`B/op`), and the go-bench
/// reader records that unit's values under one field (`bytes_per_op`), so the column names the
/// field as plainly as a header that spells it. Without this, `0 B/op` would tie between the
/// bytes and the allocations of a benchmark that allocates nothing.
fn column_is_go_unit(format: Format, sentence: &Sentence, series: &Series) -> bool {
    format == Format::GoBench && series.derive.is_none() && sentence.cell.as_ref().is_some_and(|c| go_bench::metric_field(&c.column_label) == series.field)
}

/// Whether a cell is the `Score` of JMH's table and `series` with `statistic` is what JMH
/// printed there: the mean of the row's raw values (every JMH mode makes its score the mean of
/// the iterations', or samples', values), in `score` or the field its unit names
/// ([`jmh::SCORE_FIELDS`]; a time quote fits only the latter, whose unit is known). Without
/// this, the median of a benchmark whose values round alike would tie with it.
fn column_is_jmh_score(format: Format, sentence: &Sentence, series: &Series, statistic: Statistic) -> bool {
    format == Format::Jmh
        && statistic == Statistic::Mean
        && jmh::SCORE_FIELDS.contains(&series.field.as_str())
        && series.derive.is_none()
        && sentence.cell.as_ref().is_some_and(|c| c.column_label == "Score")
}

/// A statistic as [`named_statistics`] writes it.
fn statistic_key(statistic: Statistic) -> String {
    match statistic {
        Statistic::Percentile(p) => format!("p{p}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sibling_files_differ_in_one_component() {
        assert!(siblings("evidence/criterion/hashes/crc/new/sample.json", "evidence/criterion/hashes/fib/new/sample.json"));
        assert!(siblings("runs/v1/bench.json", "runs/v2/bench.json"));
        assert!(!siblings("evidence/criterion/hashes/crc/new/sample.json", "evidence/criterion/reads/fib/new/sample.json"));
        assert!(!siblings("a/b.json", "a/b.json") && !siblings("a/b.json", "a/c/b.json"));
    }

    #[test]
    fn words_drop_plurals_and_common_words() {
        let w = words("Output Tokens Throughput (tokens/s) of the 70B Models");
        assert!(w.contains("token") && w.contains("70b") && w.contains("model") && !w.contains("the"), "{w:?}");
    }

    #[test]
    fn number_names_a_count_only_as_the_number_of_something() {
        assert!(named_statistics(&sentence_words("The number of calls was large.")).contains("count"));
        assert!(named_statistics(&sentence_words("Numbers of  calls vary.")).contains("count"));
        assert!(!named_statistics(&sentence_words("Each worker picks a number from to at random.")).contains("count"));
        assert!(!named_statistics(&sentence_words("The version number is set.")).contains("count"));
    }

    #[test]
    fn a_column_named_p99_or_median_names_its_statistic() {
        let named = named_statistics(&words("P99 Median requests"));
        assert!(named.contains("p99") && named.contains("median") && named.contains("count"), "{named:?}");
        assert_eq!(statistic_key(Statistic::Percentile(99.0)), "p99");
    }

    /// pyperf's `stats` names its MAD and its percentiles by ordinals (a row `5th percentile`,
    /// whose `0th` and `100th` are the ends); an ordinal without `percentile` names nothing.
    #[test]
    fn pyperf_s_mad_and_ordinal_percentiles_name_their_statistics() {
        let named = |text: &str| named_statistics(&words(text));
        assert_eq!(named("Median +- MAD"), BTreeSet::from(["median".to_string(), "mad".to_string()]));
        assert_eq!(named("5th percentile"), BTreeSet::from(["p5".to_string()]));
        assert_eq!(named("95th percentile"), BTreeSet::from(["p95".to_string()]));
        assert_eq!(named("0th percentile"), BTreeSet::from(["min".to_string()]));
        assert_eq!(named("100th percentile"), BTreeSet::from(["max".to_string()]));
        assert!(!named("the 5th run").contains("p5"), "{:?}", named("the 5th run"));
        assert_eq!(statistic_key(Statistic::Percentile(5.0)), "p5");
        assert_eq!(statistic_key(Statistic::Mad), "mad");
    }

    #[test]
    fn a_time_converts_and_a_rate_matches_only_a_per_second_quote() {
        let q = Quoted { value: 550.0, decimals: 0, unit: Some(Unit::Ms), ..Quoted::default() };
        assert!(fits(&q, 0.5499, &SeriesUnit::Plain(Some(Unit::S))).is_some_and(|v| (v - 549.9).abs() < 1e-9));
        assert_eq!(fits(&q, 550.0, &SeriesUnit::Plain(None)), None);
        let rate = Quoted { value: 185.0, decimals: 0, unit: Some(Unit::Other("tokens/s".into())), ..Quoted::default() };
        assert!(fits(&rate, 185.2, &SeriesUnit::PerSecond).is_some());
        assert!(fits(&q, 550.0, &SeriesUnit::PerSecond).is_none());
        assert_eq!(rate_name(rate.unit.as_ref()), "tokens_per_s");
    }

    /// `pytest-benchmark compare` appends the run to a row's name; a name with a parameter in
    /// parentheses of its own, or words there, is no compared row.
    #[test]
    fn a_compared_row_splits_into_its_benchmark_and_run() {
        assert_eq!(compared_run("test_taxi_trips_benchmark[1-True-V3] (initial_base)"), Some(("test_taxi_trips_benchmark[1-True-V3]", "initial_base")));
        assert_eq!(compared_run("test_x[     512] (2114_work)"), Some(("test_x[     512]", "2114_work")));
        assert_eq!(compared_run("test_taxi_trips_benchmark[1-True-V3]"), None);
        assert_eq!(compared_run("dasel put (a JSON document)"), None);
        assert_eq!(compared_run("(initial_base)"), None);
    }

    /// A column `Iterations` names the `iterations` field, and a column `Rounds` names no field
    /// of that name but a count; `number` names a count, not every field with the word in it.
    #[test]
    fn a_column_names_a_field_by_its_whole_name_only() {
        let series = |field: &str| Series {
            field: field.into(),
            derive: None,
            unit: SeriesUnit::Plain(None),
            primary: false,
            tokens: words(field),
            samples: Samples::new(vec![1.0]).unwrap(),
        };
        assert!(names_field(&words("Iterations"), &series("iterations")));
        assert!(!names_field(&words("Rounds"), &series("iterations")));
        assert!(!names_field(&words("Total number of requests"), &series("number_output_tokens")));
        assert!(!names_field(&words("Median"), &series("median")), "median names a statistic, not a count");
    }
}
