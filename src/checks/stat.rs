//! `stat`: a statistic recomputed from raw JSONL samples.
//!
//! What it does: selects the records of `samples` whose fields equal every entry of
//! `select`, takes the numeric `field` of each, and computes `statistic` (`median`, `mean`,
//! `min`, `max`, `count`, `stdev`, `sum`, `mad`, `iqr`, or a percentile `pNN` by numpy's linear
//! method, from `p0`, the minimum, to `p100`, the maximum, as pyperf prints its `0th` to `100th
//! percentile`). `iqr` is `p75 − p25` by the same method, as pandas' `quantile(0.75) -
//! quantile(0.25)`. `mad` is the median absolute deviation as pyperf prints it after `Median +-`:
//! the median of the values' distances from their median, not scaled to estimate a standard
//! deviation ([`Samples::median_abs_dev`]); like a standard deviation it is a spread, which the
//! recheck passes over. Where
//! `summary` names a saved `summary.json`, the saved value of the same statistic must equal the
//! recomputed one, so a summary edited by hand fails.
//!
//! `statistic = "slope"` with `per = "FIELD"` is the least-squares slope through the origin of
//! `field` over `per` across the selected records, Σ(per·field) ÷ Σ(per²), in `field`'s unit per
//! one of `per`. It is the number criterion prints for a benchmark in its default linear
//! sampling mode, where each sample is a batch of `iters` iterations that took `batch_time_ns`
//! in all; the mean of the per-iteration times is another, larger or smaller, number:
//!
//! ```toml
//! samples = "evidence/criterion/sum/iter/64/new/sample.json"
//! select = {}
//! field = "batch_time_ns"
//! statistic = "slope"
//! per = "iters"
//! ```
//! `statistic = "jmh-error"` is the half-width of the 99.9 % confidence interval of the mean by
//! Student's t, t(0.9995, n − 1) · s / √n, which JMH prints as a score's `Error`
//! ([`crate::stats::student_t::mean_error`]; two samples or fewer have none, as in JMH, and are
//! an error at `statistic`). BenchmarkDotNet prints the same half-width as its `Error` (over a
//! `benchmarkdotnet` file's `time_ns` of one case). Over a `jmh` file's `score` of one benchmark
//! it is JMH's own:
//!
//! ```toml
//! samples = "evidence/jmh-result.json"
//! select = { benchmark = "org.sample.MyBenchmark.foo" }
//! field = "score"
//! statistic = "jmh-error"
//! ```
//! The recheck passes it over, as it does a slope: its bootstrap would resample a mean, not
//! the interval around one.
//!
//! A slope without `per`, `per` with another statistic, and a slope with `summary` (a saved
//! summary holds no slope) are refused when the registry is read; a `per` that is missing,
//! negative or not finite in a record is an error at that record, and one that is zero in every
//! record (no line to fit) an error at `per`. The recheck judges a slope as it judges a median,
//! alone or as a variable of an `arith` expression: its bootstrap draws each record's (`per`,
//! `field`) pair whole, as criterion's own bootstrap of its slope does, never one field's values
//! apart from the other's (`recheck::hierarchical`).
//!
//! `statistic = "median-ci"` is benchstat's `± X%`: the confidence interval of the median from
//! order statistics (at `confidence`, 0.95 unless given, as benchstat's `-confidence`), its
//! wider side as a percentage of the median, `100 · max(hi/median − 1, 1 − lo/median)`. The
//! value is in `%`, whatever the field's unit, and is what benchstat rounds to print `± 4%`.
//! At 30 samples and 0.95 the bounds are the 10th and 21st smallest; how benchstat finds them
//! for any n, and the sources read, are in [`crate::stats::nonparametric`]:
//!
//! ```toml
//! [[claim.check]]
//! kind = "stat"
//! number = "4%"
//! samples = "evidence/v0.1.3"
//! format = "go-bench"
//! select = { name = "Benchmark01CallOverhead" }
//! field = "time_ns"
//! statistic = "median-ci"
//! ```
//! `confidence` without `statistic = "median-ci"`, or outside (0, 1), and a `median-ci` with
//! `summary` (a saved summary holds no interval) or `pool` (benchstat's interval is of one
//! sample, and a median of several runs' intervals is none) are refused when the registry is
//! read. Too few samples for a finite interval (fewer than 6 at 0.95; benchstat prints `± ∞`)
//! and a lower bound of 0 under a positive median (benchstat prints `± ?`) are errors at
//! `statistic`. The recheck passes an interval over, counted among the checks not rechecked:
//! it is a percentage, not a latency, and it states the median's sampling uncertainty itself,
//! so resampling it would estimate the uncertainty of an uncertainty, which no equivalence
//! margin on a latency describes. The two-sample comparison benchstat prints beside it,
//! `(p=0.001 n=30)`, is the `utest` check's.
//!
//! `statistic = "asv-error"` is what airspeed velocity prints after a median's `±`
//! (`106±20μs`): half the interquartile range of the samples, `(q75 − q25) / 2`, its quartiles
//! by the linear interpolation numpy also uses (asv_runner's `get_err` and `quantile`), in the
//! field's unit. Like JMH's error it is of one result's samples: `summary` and `pool` are
//! refused, and the recheck passes it over as a spread.
//!
//! `statistic = "criterion-lower"` and `"criterion-upper"` are the two outer numbers criterion
//! prints on a benchmark's `time:` line: the bounds of the percentile bootstrap interval of its
//! estimate, the mean of `field`, or with `per` the slope of `field` over `per` (criterion's
//! linear sampling), at `confidence` (criterion's `confidence_level`, 0.95 unless given) over
//! `resamples` resamples (its `nresamples`, 100,000 unless given). criterion seeds its bootstrap
//! from the clock, so no one can draw its bounds again to the last digit: the check draws its
//! own from a fixed seed, and the quote matches where it rounds to any value in the band where
//! criterion's draw lies ([`crate::stats::bootstrap`], which says how wide and why):
//!
//! ```toml
//! number = "4.3631 ms"
//! samples = "evidence/target/criterion/hashes/vanilla/new/sample.json"
//! select = {}
//! field = "time_ns"
//! statistic = "criterion-lower"
//! ```
//! Like the other intervals it refuses `summary` and `pool`, and the recheck passes it over.
//!
//! `outliers = "tukey"` drops the values outside Tukey's fences before the statistic, as
//! benchstat before 2023 (`name  old time/op  new time/op  delta`) did before every number it
//! printed: the fences are 1.5 interquartile ranges beyond the quartiles, and the quartiles are
//! type 8 of Hyndman and Fan, as Go's `internal/stats` computes them
//! ([`crate::stats::fences`]). That benchstat's value is then the `mean` of the values kept, and
//! its `± 8%` is `statistic = "mean-range"`: the larger distance of their minimum or maximum
//! from their mean, in percent of it, `100 · max(1 − min/mean, max/mean − 1)`. The finding says
//! how many values the fences dropped:
//!
//! ```toml
//! [[claim.check]]
//! kind = "stat"
//! number = "1%"
//! samples = "evidence/old.txt"
//! format = "go-bench"
//! select = { name = "BenchmarkCRC32/poly=IEEE/size=40/align=0" }
//! field = "time_ns"
//! outliers = "tukey"
//! statistic = "mean-range"
//! ```
//! `outliers` with a slope (whose points are pairs) or a `summary` (a saved summary is of every
//! sample), and `mean-range` with `summary` or `pool`, are refused when the registry is read; a
//! mean or maximum of 0, where benchstat printed no `±`, is an error at `statistic`. The recheck
//! passes over a check with `outliers`, and a `mean-range`, counted among the checks not
//! rechecked: resampling would move the fences, and a range is a statement of spread.
//!
//! `outliers = "tukey-linear"` drops the values outside the same fences around quartiles taken
//! by linear interpolation, as `pyperf stats` takes them before it counts `Number of outlier
//! (out of 4.07 us..4.44 us): 9` ([`crate::stats::fences::tukey_linear`]). The count pyperf
//! prints is then the values' count less the count of those kept, an `arith` of the two:
//!
//! ```toml
//! [[claim.check]]
//! kind = "arith"
//! number = "9"
//! expr = "all - kept"
//! vars.all = { samples = "evidence/outliers.json.gz", format = "pyperf", select = {}, field = "time_s", statistic = "count" }
//! vars.kept = { samples = "evidence/outliers.json.gz", format = "pyperf", select = {}, field = "time_s", statistic = "count", outliers = "tukey-linear" }
//! ```
//!
//! Why: a latency in prose is only as good as the samples behind it; recomputing from raw
//! samples catches a re-quoted or mistyped number and a summary that drifted from its data.
//!
//! ```toml
//! [[claim.check]]
//! kind = "stat"
//! number = "14.96 µs"
//! samples = "evidence/runs/r1/samples.jsonl"
//! summary = "evidence/runs/r1/summary.json"
//! select = { suite = "softmax", case = "4096x4096", variant = "fused", mode = "graph" }
//! field = "host_us"
//! statistic = "median"
//! ```
//! A changed number fails as `expected 15.96 µs, observed 14.96 µs: median host_us of 21 samples`.
//!
//! The samples may be in any format claimcheck reads (`format`: `jsonl`, `json` with the array
//! at `records = "a.b"`, `csv`, `tsv`, `criterion`, `cargo-criterion`, `google-benchmark`,
//! `nvbench`, `hyperfine`, `pytest-benchmark`, `go-bench`, `jmh`; detected from the file when
//! absent). `where` filters records beyond `select`'s equalities, and `derive` computes a
//! field per record:
//!
//! ```toml
//! samples = "evidence/raw_data/groq_70b.json"
//! select = {}
//! where = "error_code == null"
//! derive = { tokens_per_s = "number_output_tokens / end_to_end_latency_s" }
//! field = "tokens_per_s"
//! statistic = "median"
//! ```
//!
//! With `groups = { by = "problem", statistic = "median" }` the statistic is of groups, not of
//! records: the records are grouped by the text of their field `by`, each group's values are
//! reduced to the group's `statistic`, and `statistic` is taken over those values. It is what a
//! table generator computes with pandas' `groupby("problem")["hv"].median()` followed by
//! `.median()` or `.quantile(0.75) - .quantile(0.25)`: a family's median over its problems'
//! medians, which is another number than the median of the family's runs pooled (that is the
//! same check without `groups`):
//!
//! ```toml
//! samples = "evidence/experiments/benchmark_paper_nsgaii_ss.csv"
//! select = { framework = "VAMOS (numba)" }
//! where = "problem == 'zdt1' or problem == 'zdt2' or problem == 'zdt3'"
//! field = "hypervolume"
//! statistic = "iqr"
//! groups = { by = "problem", statistic = "median" }
//! ```
//! A record without `by` is an error at its line. `groups` with `summary` (a saved summary is of
//! samples), with `outliers`, or with a statistic that is not one of the values above, is refused
//! when the registry is read. The recheck passes a statistic of groups over: its bootstrap
//! resamples one sample's values, and groups would need resampling at both levels.
//!
//! With `pool = ["evidence/runs/r2/samples.jsonl", …]` the statistic is computed in `samples`
//! and in every pooled file separately, and the value is the median of those per-run values
//! (the median of run medians, or of run slopes): runs are the unit of replication, so one
//! noisy run moves the pooled value less than it would move a median over all samples
//! together. A pooled check has no `summary`, since each run's summary holds only its own
//! value.
//!
//! A JSONL, CSV or TSV file of 8 MiB or more (10^5 samples and up) asked for a field as it is,
//! through a `select` of strings only (no `where`, `derive` or `records`), is streamed rather
//! than held:
//! read on every core into the one column the check needs, to the same values in the same
//! order, so every statistic is the same to the last bit (`query::streamed`). A slope reads
//! the file whole, since the two fields it pairs must stay together record by record.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{Band, BandWhy, Context, Observation, query, units};
use crate::article::numbers::{Quoted, Unit};
use crate::diagnostic::Diagnostic;
use crate::evidence::Summary;
use crate::stats::bootstrap;
use crate::stats::nonparametric::{Spread, median_interval, samples_for_finite_interval};
use crate::stats::{Samples, Statistic, slope_through_origin};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub samples: Spanned<String>,
    pub select: Spanned<BTreeMap<String, toml::Value>>,
    pub field: Spanned<String>,
    pub statistic: Spanned<String>,
    #[serde(default)]
    pub summary: Option<Spanned<String>>,
    /// The evidence format; detected from the file when absent.
    #[serde(default)]
    pub format: Option<Spanned<String>>,
    /// For `json`: the dotted path to the array of records.
    #[serde(default)]
    pub records: Option<Spanned<String>>,
    /// A filter over records, beside `select` ([`super::filter`]).
    #[serde(default, rename = "where")]
    pub filter: Option<Spanned<String>>,
    /// Fields computed per record from others, by an `arith` expression.
    #[serde(default)]
    pub derive: BTreeMap<String, Spanned<String>>,
    /// More runs' samples of the same configuration, pooled with `samples` by the median of
    /// the per-run statistics.
    #[serde(default)]
    pub pool: Vec<Spanned<String>>,
    /// For `statistic = "slope"`: the field the slope of `field` is taken over (criterion's
    /// `iters`).
    #[serde(default)]
    pub per: Option<Spanned<String>>,
    /// For `statistic = "median-ci"`: the interval's confidence level, in (0, 1); 0.95 when
    /// absent, as benchstat's. For criterion's bounds, its `confidence_level`, 0.95 when absent.
    #[serde(default)]
    pub confidence: Option<Spanned<f64>>,
    /// For criterion's bounds: its `nresamples`, the resamples of its bootstrap; 100,000 when
    /// absent, as criterion's.
    #[serde(default)]
    pub resamples: Option<Spanned<u64>>,
    /// `"tukey"`: drop the values outside Tukey's fences first, as benchstat before 2023 did;
    /// `"tukey-linear"`: outside the fences around linear quartiles, as `pyperf stats` counts.
    #[serde(default)]
    pub outliers: Option<Spanned<String>>,
    /// A statistic of the groups' statistics: the records grouped by a field and each group
    /// reduced first, then `statistic` taken over the groups' values.
    #[serde(default)]
    pub groups: Option<Spanned<Groups>>,
}

/// `groups = { by = "problem", statistic = "median" }`: each group of records that share the
/// field `by` reduced to `statistic` first.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Groups {
    pub by: String,
    pub statistic: String,
}

/// benchstat's confidence level when `-confidence` is not given.
pub(crate) const DEFAULT_CONFIDENCE: f64 = 0.95;

/// What a `stat` check computes from the records it selects.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Measure {
    /// A statistic of `field`'s values, which need not stay paired with anything.
    Statistic(Statistic),
    /// The least-squares slope through the origin of `field` over the field `per`
    /// ([`crate::stats::slope_through_origin`]): each record's two values are one point.
    Slope { per: String },
    /// benchstat's confidence interval of the median at `confidence`, its wider side as a
    /// percentage of the median ([`crate::stats::nonparametric::median_interval`]).
    MedianCi { confidence: f64 },
    /// The half-width of the 99.9 % confidence interval of `field`'s mean by Student's t, which
    /// JMH prints as `Error` ([`crate::stats::student_t::mean_error`]).
    JmhError,
    /// benchstat's `± X%` before 2023: the larger distance from the mean to the minimum or the
    /// maximum, in percent of the mean ([`Samples::mean_range`]).
    MeanRange,
    /// What asv prints after a median's `±`: half the interquartile range, the quartiles by
    /// linear interpolation (asv_runner's `get_err`), in the field's unit.
    AsvError,
    /// One bound of the percentile bootstrap interval criterion prints around its estimate: of
    /// the mean of `field`, or with `per` of the slope of `field` over `per`
    /// ([`crate::stats::bootstrap`]).
    CriterionBound { upper: bool, confidence: f64, resamples: usize, per: Option<String> },
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Measure::Statistic(s) => s.fmt(f),
            Measure::Slope { .. } => f.write_str("slope"),
            Measure::MedianCi { .. } => f.write_str("median-ci"),
            Measure::JmhError => f.write_str("jmh-error"),
            Measure::MeanRange => f.write_str("mean-range"),
            Measure::AsvError => f.write_str("asv-error"),
            Measure::CriterionBound { upper: false, .. } => f.write_str("criterion-lower"),
            Measure::CriterionBound { upper: true, .. } => f.write_str("criterion-upper"),
        }
    }
}

impl Spec {
    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        if let (Some(summary), Some(_)) = (&self.summary, self.pool.first()) {
            return Err(("a pooled statistic has no saved summary: drop `summary` or `pool`".into(), summary.span()));
        }
        match (self.measure()?, &self.summary, self.pool.first()) {
            (Measure::Slope { .. }, Some(summary), _) => return Err(("a saved summary holds no slope to compare with: drop `summary`".into(), summary.span())),
            (Measure::MedianCi { .. }, Some(summary), _) => return Err(("a saved summary holds no confidence interval to compare with: drop `summary`".into(), summary.span())),
            (Measure::MedianCi { .. }, None, Some(pooled)) => {
                return Err(("benchstat's interval is of one sample's median, and the median of several runs' intervals is no interval: drop `pool`".into(), pooled.span()));
            }
            (Measure::JmhError, Some(summary), _) => return Err(("a saved summary holds no JMH error to compare with: drop `summary`".into(), summary.span())),
            (Measure::JmhError, None, Some(pooled)) => {
                return Err(("JMH's error is of one result's iterations, and the median of several runs' errors is no error: drop `pool`".into(), pooled.span()));
            }
            (Measure::AsvError, Some(summary), _) => return Err(("a saved summary holds no asv error to compare with: drop `summary`".into(), summary.span())),
            (Measure::AsvError, None, Some(pooled)) => {
                return Err(("asv's error is of one result's samples, and the median of several runs' errors is no error: drop `pool`".into(), pooled.span()));
            }
            (Measure::MeanRange, Some(summary), _) => return Err(("a saved summary holds no range around the mean to compare with: drop `summary`".into(), summary.span())),
            (Measure::MeanRange, None, Some(pooled)) => {
                return Err(("benchstat's range is of one sample around its mean, and the median of several runs' ranges is no range: drop `pool`".into(), pooled.span()));
            }
            (Measure::CriterionBound { .. }, Some(summary), _) => {
                return Err(("a saved summary holds no bootstrap interval to compare with: drop `summary`".into(), summary.span()));
            }
            (Measure::CriterionBound { .. }, None, Some(pooled)) => {
                return Err(("criterion's interval is of one benchmark's samples, and the median of several runs' bounds is no bound: drop `pool`".into(), pooled.span()));
            }
            _ => {}
        }
        if let (Some(outliers), Some(_)) = (&self.outliers, &self.per) {
            return Err(("outliers are dropped from one field's values, and a slope's points are (per, field) pairs that stay whole: drop `outliers`".into(), outliers.span()));
        }
        if let (Some(outliers), Measure::CriterionBound { .. }) = (&self.outliers, self.measure()?) {
            return Err(("criterion bootstraps every sample, outliers included: drop `outliers`".into(), outliers.span()));
        }
        if let (Some(outliers), Some(_)) = (&self.outliers, &self.summary) {
            return Err(("a saved summary is of every sample, outliers included: drop `summary` or `outliers`".into(), outliers.span()));
        }
        if let Some(groups) = &self.groups {
            self.group_statistic()?;
            let refused = if self.summary.is_some() {
                Some("a saved summary holds statistics of the samples, not of groups: drop `summary` or `groups`")
            } else if self.outliers.is_some() {
                Some("outliers are dropped from one sample's values, and a group's fences would differ from the whole's: drop `outliers` or `groups`")
            } else if !matches!(self.measure()?, Measure::Statistic(_)) {
                Some("`groups` reduces each group to a value and takes a statistic over those values: use median, mean, min, max, count, stdev, sum, mad, iqr or pNN")
            } else {
                None
            };
            if let Some(message) = refused {
                return Err((message.into(), groups.span()));
            }
        }
        query::validate(&self.query())
    }

    /// The statistic each group is reduced to, where `groups` is given.
    fn group_statistic(&self) -> Result<Option<Statistic>, (String, Range<usize>)> {
        let Some(groups) = &self.groups else { return Ok(None) };
        let name = &groups.get_ref().statistic;
        let statistic = Statistic::parse(name)
            .ok_or_else(|| (format!("unknown statistic `{name}` for each group: use median, mean, min, max, count, stdev, sum, mad, iqr or pNN"), groups.span()))?;
        if groups.get_ref().by.trim().is_empty() {
            return Err(("`groups` needs `by`, the field whose values name the groups".into(), groups.span()));
        }
        Ok(Some(statistic))
    }

    /// The samples files of the runs this query reads: `samples`, then every pooled file.
    pub(crate) fn runs(&self) -> Vec<&Spanned<String>> {
        std::iter::once(&self.samples).chain(&self.pool).collect()
    }

    /// What the check computes: `statistic`, for a slope with the field `per` names, for an
    /// interval at the level `confidence` gives. `per` goes with a slope or criterion's bounds
    /// only, and a slope needs it; `confidence` goes with `median-ci` and criterion's bounds
    /// only, and is a level strictly between 0 and 1; `resamples` with criterion's bounds only.
    pub(crate) fn measure(&self) -> Result<Measure, (String, Range<usize>)> {
        let name = self.statistic.get_ref().as_str();
        let bound = matches!(name, "criterion-lower" | "criterion-upper");
        if let Some(confidence) = &self.confidence
            && name != "median-ci"
            && !bound
        {
            return Err((
                format!(
                    "`confidence` is the level of an interval, but the statistic is `{name}`: drop `confidence` or use `statistic = \"median-ci\"`, `\"criterion-lower\"` or `\"criterion-upper\"`"
                ),
                confidence.span(),
            ));
        }
        if let Some(resamples) = &self.resamples
            && !bound
        {
            return Err((format!("`resamples` is criterion's bootstrap's, but the statistic is `{name}`: drop `resamples`"), resamples.span()));
        }
        if bound {
            let confidence = match &self.confidence {
                Some(level) if !(*level.get_ref() > 0.0 && *level.get_ref() < 1.0) => {
                    return Err((format!("confidence {} is not a level between 0 and 1 (0.95 is criterion's 95 %)", level.get_ref()), level.span()));
                }
                level => level.as_ref().map_or(bootstrap::CRITERION_CONFIDENCE, |c| *c.get_ref()),
            };
            let resamples = match &self.resamples {
                Some(r) if *r.get_ref() < 1000 || *r.get_ref() > 10_000_000 => {
                    return Err((format!("{} resamples: criterion's bootstrap draws from 1,000 to 10,000,000 here (100,000 unless configured)", r.get_ref()), r.span()));
                }
                r => r.as_ref().map_or(bootstrap::CRITERION_RESAMPLES, |r| *r.get_ref() as usize),
            };
            let per = self.per.as_ref().map(|p| p.get_ref().clone());
            return Ok(Measure::CriterionBound { upper: name == "criterion-upper", confidence, resamples, per });
        }
        match (name, &self.per) {
            ("slope", Some(per)) => Ok(Measure::Slope { per: per.get_ref().clone() }),
            ("jmh-error", None) => Ok(Measure::JmhError),
            ("mean-range", None) => Ok(Measure::MeanRange),
            ("asv-error", None) => Ok(Measure::AsvError),
            ("slope", None) => Err(("`statistic = \"slope\"` needs `per`, the field the slope is taken over (`per = \"iters\"` for criterion)".into(), self.statistic.span())),
            (_, Some(per)) => Err((
                format!("`per` names the field a slope is taken over, but the statistic is `{name}`: drop `per` or use `statistic = \"slope\"`, `\"criterion-lower\"` or `\"criterion-upper\"`"),
                per.span(),
            )),
            ("median-ci", None) => match &self.confidence {
                Some(level) if !(*level.get_ref() > 0.0 && *level.get_ref() < 1.0) => {
                    Err((format!("confidence {} is not a level between 0 and 1 (0.95 is benchstat's 95 %)", level.get_ref()), level.span()))
                }
                level => Ok(Measure::MedianCi { confidence: level.as_ref().map_or(DEFAULT_CONFIDENCE, |c| *c.get_ref()) }),
            },
            (name, None) => Statistic::parse(name).map(Measure::Statistic).ok_or_else(|| {
                (
                    format!("unknown statistic `{name}`: use median, mean, min, max, count, stdev, sum, mad, iqr, pNN (p0 to p100), slope, median-ci, jmh-error, mean-range, asv-error, criterion-lower or criterion-upper"),
                    self.statistic.span(),
                )
            }),
        }
    }

    /// Whether the recheck can resample the check's statistic as a latency: a statistic of one
    /// field's values that locates them, or a slope, whose bootstrap draws each record's
    /// (`per`, `field`) pair whole. A standard deviation, a median's interval, JMH's error and
    /// a range around the mean are not: each states a sample's spread, and judging a spread by
    /// a latency's margin would ask whether the noise repeats within 10 %, which it rarely
    /// does, while its rows would widen the family every latency is tested in. Nor is a
    /// statistic of the values left inside Tukey's fences, whose fences a resample would move.
    pub(crate) fn resampled(&self) -> bool {
        let locates = match self.measure() {
            Ok(Measure::Statistic(statistic)) => !matches!(statistic, Statistic::Stdev | Statistic::Mad | Statistic::Iqr),
            Ok(Measure::Slope { .. }) => true,
            Ok(Measure::MedianCi { .. } | Measure::JmhError | Measure::MeanRange | Measure::AsvError | Measure::CriterionBound { .. }) | Err(_) => false,
        };
        // A statistic of groups' statistics would need the groups resampled and the records
        // within them, which the recheck's bootstrap of one sample does not do.
        self.outliers.is_none() && self.groups.is_none() && locates
    }

    /// Whether the check reads a JSONL file's fields as they are
    /// ([`query::Query::is_plain_jsonl`]), a slope's `per` as well as `field`: then the
    /// recheck can read the file's records itself and group them by round.
    pub(crate) fn is_plain_jsonl(&self) -> bool {
        self.query().is_plain_jsonl() && self.per.as_ref().is_none_or(|per| !self.derive.contains_key(per.get_ref()))
    }

    pub(super) fn files(&self) -> Vec<&str> {
        let mut files: Vec<&str> = self.runs().into_iter().map(|s| s.get_ref().as_str()).collect();
        files.extend(self.summary.as_ref().map(|s| s.get_ref().as_str()));
        files
    }

    /// The statistic's value, in the field's unit, and how many samples it came from; with
    /// `pool`, the median of the runs' values and the samples of all of them.
    pub(crate) fn compute(&self, ctx: &Context<'_>) -> Result<(f64, usize), Diagnostic> {
        let measure = self.measure().map_err(|(m, s)| ctx.error_at(m, s, "here"))?;
        let mut values = Vec::new();
        let mut n = 0;
        for file in self.runs() {
            let q = query::Query { samples: file, ..self.query() };
            match &measure {
                Measure::Statistic(statistic) => {
                    let samples = match (&self.groups, self.group_statistic().map_err(|(m, s)| ctx.error_at(m, s, "here"))?) {
                        (Some(groups), Some(each)) => {
                            let (values, records) = query::grouped(ctx, &q, &groups.get_ref().by, each)?;
                            n += records;
                            let values = values.into_iter().map(|(_, v)| v).collect();
                            crate::stats::Samples::new(values).map_err(|e| ctx.error_at(format!("the groups' values: {e}"), groups.span(), "here"))?
                        }
                        _ => {
                            let samples = query::samples(ctx, &q)?;
                            n += samples.len();
                            samples
                        }
                    };
                    values.push(samples.statistic(*statistic));
                }
                Measure::Slope { per } => {
                    let pairs = query::pairs(ctx, &q, per)?;
                    let at = self.per.as_ref().map_or_else(|| self.statistic.span(), Spanned::span);
                    let slope = slope_through_origin(&pairs)
                        .ok_or_else(|| ctx.error_at(format!("`{per}` is zero in every record selected in {}: a slope over it is undetermined", file.get_ref()), at, "all zero"))?;
                    values.push(slope);
                    n += pairs.len();
                }
                Measure::MedianCi { confidence } => {
                    let samples = query::samples(ctx, &q)?;
                    values.push(self.spread(ctx, &samples, *confidence)?);
                    n += samples.len();
                }
                Measure::MeanRange => {
                    let samples = query::samples(ctx, &q)?;
                    let range = samples.mean_range().ok_or_else(|| {
                        ctx.error_at(
                            format!("the mean or the largest value of {} is 0, and a range in percent of it is none (benchstat prints no `±`)", file.get_ref()),
                            self.statistic.span(),
                            "no percentage",
                        )
                    })?;
                    values.push(range);
                    n += samples.len();
                }
                Measure::JmhError => {
                    let samples = query::samples(ctx, &q)?;
                    let error = crate::stats::student_t::mean_error(&samples, 0.999).ok_or_else(|| {
                        ctx.error_at(format!("JMH's error needs three samples or more, and {} selects {}", file.get_ref(), samples.len()), self.statistic.span(), "too few samples")
                    })?;
                    values.push(error);
                    n += samples.len();
                }
                Measure::AsvError => {
                    let samples = query::samples(ctx, &q)?;
                    values.push(samples.half_interquartile_range());
                    n += samples.len();
                }
                Measure::CriterionBound { .. } => {
                    let (bound, count) = self.criterion_bound(ctx, &measure)?;
                    values.push(bound.value);
                    n += count;
                }
            }
        }
        let value = if values.len() == 1 { values[0] } else { crate::stats::Samples::new(values).map_or(f64::NAN, |s| s.median()) };
        Ok((value, n))
    }

    /// criterion's bound of `measure` over the selected samples, and how many there are. The
    /// bootstrap's sorted estimates are kept for the process, so that the lower and the upper
    /// bound of one benchmark draw them once.
    fn criterion_bound(&self, ctx: &Context<'_>, measure: &Measure) -> Result<(bootstrap::Bound, usize), Diagnostic> {
        let Measure::CriterionBound { upper, confidence, resamples, per } = measure else { unreachable!("called for criterion's bounds only") };
        let q = self.query();
        let key = format!(
            "criterion-bootstrap:{}|{:?}|{:?}|{:?}|{:?}|{}|{per:?}|{resamples}",
            self.samples.get_ref(),
            self.format.as_ref().map(Spanned::get_ref),
            self.records.as_ref().map(Spanned::get_ref),
            self.select.get_ref(),
            self.filter.as_ref().map(Spanned::get_ref),
            self.field.get_ref()
        );
        let too_many = |n: usize| {
            let at = self.resamples.as_ref().map_or_else(|| self.statistic.span(), Spanned::span);
            ctx.error_at(
                format!("{resamples} resamples of the {n} samples {} selects would draw {} values; a bootstrap here draws at most {}", self.samples.get_ref(), n.saturating_mul(*resamples), bootstrap::MAX_DRAWS),
                at,
                "too many draws",
            )
        };
        let (sorted, n) = match per {
            Some(per) => {
                let pairs = query::pairs(ctx, &q, per)?;
                if pairs.len().saturating_mul(*resamples) > bootstrap::MAX_DRAWS {
                    return Err(too_many(pairs.len()));
                }
                let sorted = ctx.evidence.derived(&key, || bootstrap::distribution(&bootstrap::Estimate::Slope(&pairs), *resamples));
                (sorted, pairs.len())
            }
            None => {
                let samples = query::samples(ctx, &q)?;
                if samples.len().saturating_mul(*resamples) > bootstrap::MAX_DRAWS {
                    return Err(too_many(samples.len()));
                }
                let sorted = ctx.evidence.derived(&key, || bootstrap::distribution(&bootstrap::Estimate::Mean(samples.sorted()), *resamples));
                (sorted, samples.len())
            }
        };
        let sorted = sorted.as_ref().as_ref().ok_or_else(|| {
            ctx.error_at(format!("a bootstrap needs two samples or more, and {} selects {n}", self.samples.get_ref()), self.statistic.span(), "too few samples")
        })?;
        if sorted.iter().any(|v| !v.is_finite()) {
            let message = match per {
                Some(per) => format!("`{per}` is zero in some resample of {}, or its values are too large to sum: the slope is undetermined", self.samples.get_ref()),
                None => format!("the values {} selects are too large to sum: a resample's mean is not a finite number", self.samples.get_ref()),
            };
            return Err(ctx.error_at(message, self.statistic.span(), "no finite bound"));
        }
        Ok((bootstrap::bound(sorted, *confidence, *upper), n))
    }

    /// benchstat's `± X%` of one run's samples, before rounding; an interval it cannot state
    /// as a percentage is an error at `statistic`, saying what benchstat prints instead.
    fn spread(&self, ctx: &Context<'_>, samples: &Samples, confidence: f64) -> Result<f64, Diagnostic> {
        let interval = median_interval(samples.sorted(), confidence);
        let n = samples.len();
        match interval.spread() {
            Spread::Percent(percent) => Ok(percent),
            Spread::Unbounded => {
                let need = samples_for_finite_interval(confidence).map_or_else(|| "more than 50".to_string(), |need| format!("at least {need}"));
                Err(ctx.error_at(
                    format!(
                        "the median of {n} sample{} has no finite {} % interval (benchstat prints `± ∞`): it needs {need} samples",
                        if n == 1 { "" } else { "s" },
                        level(confidence)
                    ),
                    self.statistic.span(),
                    "unbounded",
                ))
            }
            Spread::SignsDiffer => Err(ctx.error_at(
                format!(
                    "the {} % interval of the median {} of {n} samples runs from {} to {}, which is no percentage of it (benchstat prints `± ?`)",
                    level(confidence),
                    interval.center,
                    interval.lo,
                    interval.hi
                ),
                self.statistic.span(),
                "no percentage",
            )),
        }
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let measure = self.measure().map_err(|(m, s)| ctx.error_at(m, s, "here"))?;
        // criterion drew its bound from a generator seeded by the clock: the band is where its
        // draw lies. Bound and band come from one reading of the samples (`validate` refuses a
        // pooled bound, so there is one run).
        let (value, n, band) = match &measure {
            Measure::CriterionBound { .. } => {
                let (bound, n) = self.criterion_bound(ctx, &measure)?;
                (bound.value, n, Some((bound.low, bound.high)))
            }
            _ => {
                let (value, n) = self.compute(ctx)?;
                (value, n, None)
            }
        };
        let mut problems = Vec::new();
        // A slope has no summary: `validate` refuses one.
        if let (Some(summary_path), Measure::Statistic(statistic)) = (&self.summary, &measure) {
            let statistic = *statistic;
            let text = ctx.read_text(summary_path)?;
            // Each summary is read once per process, whichever check or registry asks.
            let parsed = ctx.evidence.derived(&format!("summary:{}", summary_path.get_ref()), || -> Result<Summary, Diagnostic> {
                serde_json::from_str(&text).map_err(|e| Diagnostic::json(&format!("{}: not a summary.json", summary_path.get_ref()), summary_path.get_ref(), &text, &e))
            });
            let summary = parsed.as_ref().as_ref().map_err(Clone::clone)?;
            match self.saved(summary, statistic) {
                Some(saved) if close(saved, value) => {}
                Some(saved) => problems.push(format!("{} says {statistic} {} = {saved}, but the samples give {value}", summary_path.get_ref(), self.field.get_ref())),
                None => {
                    if statistic.summary_key().is_some() {
                        problems.push(format!("{} has no row for this selection and field", summary_path.get_ref()));
                    }
                }
            }
        }
        let unit = self.unit_of(&measure, ctx.field_units);
        let field = self.field.get_ref();
        let what = match &measure {
            Measure::Statistic(statistic) => match &self.groups {
                Some(groups) => {
                    let groups = groups.get_ref();
                    format!("{statistic} of the per-`{}` {} {field}", groups.by, groups.statistic)
                }
                None => format!("{statistic} {field}"),
            },
            Measure::Slope { per } => format!("slope of {field} over {per} through the origin"),
            Measure::MedianCi { confidence } => format!("{} % interval of the median {field}", level(*confidence)),
            Measure::JmhError => format!("99.9 % Student-t error of the mean of {field}"),
            Measure::MeanRange => format!("range of {field} around its mean, its wider side in % of the mean"),
            Measure::AsvError => format!("half the interquartile range of {field} (asv's error)"),
            Measure::CriterionBound { upper, confidence, resamples, per } => {
                let estimate = per.as_ref().map_or_else(|| format!("the mean {field}"), |per| format!("the slope of {field} over {per}"));
                let side = if *upper { "upper" } else { "lower" };
                format!("{side} bound of criterion's {} % bootstrap interval of {estimate} ({resamples} resamples)", level(*confidence))
            }
        };
        // An interval names its bounds, for the reader; `compute` has refused an unbounded one,
        // and `validate` a pooled one.
        let bounds = match measure {
            Measure::MedianCi { confidence } => {
                let interval = median_interval(query::samples(ctx, &self.query())?.sorted(), confidence);
                let (lo, hi) = (interval.orders.lo, interval.orders.hi);
                format!(", x({lo}) = {} to x({hi}) = {} around {}, its wider side in % of the median", interval.lo, interval.hi, interval.center)
            }
            Measure::Statistic(_) | Measure::Slope { .. } | Measure::JmhError | Measure::MeanRange | Measure::AsvError | Measure::CriterionBound { .. } => String::new(),
        };
        let fenced = self.fenced_note(ctx)?;
        Ok(Observation {
            value: Some(value),
            unit,
            problems,
            detail: match self.pool.len() {
                0 => format!("{what} of {n} samples{fenced}{bounds}"),
                more => format!("median over {} runs of the {what}, {n} samples{fenced}", more + 1),
            },
            band: band.map(|(low, high)| Band { low, high, why: BandWhy::HarnessDraw }),
        })
    }

    /// The unit of this query's value as `measure` gives it, as `observe` gives it: its
    /// field's unit from `field_units` or its name; `None` for a count of samples.
    pub(crate) fn unit_of(&self, measure: &Measure, field_units: &units::FieldUnits) -> Option<Unit> {
        // A count is a number of samples, whatever unit the samples are in. A slope is in the
        // field's unit per one of `per`, which counts (iterations, bytes): the field's unit. An
        // interval's spread is a percentage of the median. JMH's error is a distance in the
        // field's unit.
        match measure {
            Measure::Statistic(Statistic::Count) => None,
            Measure::MedianCi { .. } | Measure::MeanRange => Some(Unit::Percent),
            Measure::Statistic(_) | Measure::Slope { .. } | Measure::JmhError | Measure::AsvError | Measure::CriterionBound { .. } => units::of_field(field_units, self.field.get_ref()),
        }
    }

    /// With `outliers`, what the fences dropped over every run read: ` (2 of 10 outside Tukey's
    /// fences dropped)`, `… outside Tukey's fences around linear quartiles dropped)` for
    /// pyperf's; nothing without.
    fn fenced_note(&self, ctx: &Context<'_>) -> Result<String, Diagnostic> {
        if self.outliers.is_none() {
            return Ok(String::new());
        }
        let (mut dropped, mut all) = (0, 0);
        for file in self.runs() {
            let (kept, out) = query::fenced(ctx, &query::Query { samples: file, ..self.query() })?;
            dropped += out;
            all += kept.len() + out;
        }
        let around = if self.outliers.as_ref().is_some_and(|o| o.get_ref() == query::TUKEY_LINEAR) { " around linear quartiles" } else { "" };
        Ok(format!(" ({dropped} of {all} outside Tukey's fences{around} dropped)"))
    }

    /// The records and field this check reads.
    pub(crate) fn query(&self) -> query::Query<'_> {
        query::Query {
            samples: &self.samples,
            format: self.format.as_ref(),
            records: self.records.as_ref(),
            select: &self.select,
            filter: self.filter.as_ref(),
            derive: &self.derive,
            field: &self.field,
            outliers: self.outliers.as_ref(),
        }
    }

    /// The value of `statistic` that a saved summary holds for this query, where it holds one.
    pub(crate) fn saved(&self, summary: &Summary, statistic: Statistic) -> Option<f64> {
        let key = statistic.summary_key()?;
        let select = self.select.get_ref();
        let wanted = |k: &str, v: &str| select.get(k).is_none_or(|t| t.as_str() == Some(v));
        let row = summary
            .configurations
            .iter()
            .find(|r| r.field == *self.field.get_ref() && wanted("suite", &r.suite) && wanted("case", &r.case) && wanted("variant", &r.variant) && wanted("mode", &r.mode))?;
        Some(match key {
            "median" => row.median,
            "mean" => row.mean,
            "min" => row.min,
            "max" => row.max,
            "n" => row.n as f64,
            "p05" => row.p05,
            "p95" => row.p95,
            _ => return None,
        })
    }
}

/// A confidence level in percent, as people write it: 95, 99.9.
fn level(confidence: f64) -> String {
    let text = format!("{:.6}", confidence * 100.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Saved and recomputed values agree when they differ only by the rounding of a JSON
/// round trip.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::super::Band;
    use super::super::testing::{Fixture, check_toml};
    use crate::article::numbers::Unit;

    const SAMPLES: &str = "{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"v\",\"mode\":\"graph\",\"host_us\":1.0}\n\
{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"v\",\"mode\":\"graph\",\"host_us\":3.0}\n\
{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"v\",\"mode\":\"graph\",\"host_us\":2.0}\n\
{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"w\",\"mode\":\"graph\",\"host_us\":9.0}\n";

    fn fixture() -> Fixture {
        Fixture::new(&[("e/samples.jsonl", SAMPLES)])
    }

    const CHECK: &str = r#"kind = "stat"
samples = "e/samples.jsonl"
select = { suite = "s", variant = "v" }
field = "host_us"
statistic = "median""#;

    #[test]
    fn median_of_the_selected_samples() {
        let f = fixture();
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.value, Some(2.0));
        assert_eq!(obs.unit, Some(Unit::Us));
        assert!(obs.detail.contains("3 samples"), "{}", obs.detail);
    }

    #[test]
    fn a_selection_that_matches_nothing_is_an_error() {
        let f = fixture();
        let err = f.observe(&check_toml(&CHECK.replace("\"v\"", "\"none\""))).unwrap_err();
        assert!(err.message.contains("select matches no record"), "{}", err.message);
    }

    #[test]
    fn an_unknown_statistic_is_refused_when_read() {
        assert!(super::super::testing::parse_error(&CHECK.replace("median", "mode")).contains("unknown statistic"));
    }

    /// One benchmark of the Go team's test data of benchstat before 2023 (`old.txt`,
    /// `CRC32/poly=IEEE/size=40/align=0-8`), which it printed `41.0ns ± 1%` with `n=8`: the two
    /// slowest of ten fall outside Tukey's fences.
    const CRC: &str = "{\"t\":41.0}\n{\"t\":43.0}\n{\"t\":40.9}\n{\"t\":42.3}\n{\"t\":41.0}\n{\"t\":41.0}\n{\"t\":41.3}\n{\"t\":40.8}\n{\"t\":41.1}\n{\"t\":41.2}\n";

    fn crc(statistic: &str, outliers: bool) -> super::super::Observation {
        let f = Fixture::new(&[("old.jsonl", CRC)]);
        let fences = if outliers { "\noutliers = \"tukey\"" } else { "" };
        f.observe(&check_toml(&format!("kind = \"stat\"\nsamples = \"old.jsonl\"\nselect = {{}}\nfield = \"t\"\nstatistic = \"{statistic}\"{fences}"))).unwrap()
    }

    #[test]
    fn outliers_outside_tukey_s_fences_are_dropped_first() {
        let mean = crc("mean", true);
        assert!((mean.value.unwrap() - 41.0375).abs() < 1e-12, "{:?}", mean.value);
        assert_eq!(mean.detail, "mean t of 8 samples (2 of 10 outside Tukey's fences dropped)");
        assert_eq!(crc("count", true).value, Some(8.0));
        let all = crc("mean", false);
        assert!((all.value.unwrap() - 41.36).abs() < 1e-12 && !all.detail.contains("Tukey"), "{all:?}");
    }

    /// benchstat's `± 1%` of those eight values: the minimum 40.8 lies 0.58 % below the mean
    /// 41.0375, the maximum 41.3 0.64 % above it.
    #[test]
    fn the_range_around_the_mean_is_its_wider_side_in_percent() {
        let range = crc("mean-range", true);
        assert!((range.value.unwrap() - 100.0 * (41.3 / 41.0375 - 1.0)).abs() < 1e-9, "{:?}", range.value);
        assert_eq!(range.unit, Some(Unit::Percent));
        // Without the fences the maximum is 43.0, 3.97 % above the mean 41.36: benchstat's `± 1%`
        // is not that.
        assert!(crc("mean-range", false).value.unwrap() > 3.9);
        let f = Fixture::new(&[("z.jsonl", "{\"t\":0}\n{\"t\":0}\n")]);
        let err = f.observe(&check_toml("kind = \"stat\"\nsamples = \"z.jsonl\"\nselect = {}\nfield = \"t\"\nstatistic = \"mean-range\"")).unwrap_err();
        assert!(err.message.contains("benchstat prints no `±`"), "{}", err.message);
    }

    #[test]
    fn outliers_and_the_range_are_refused_where_they_mean_nothing() {
        let parse = super::super::testing::parse_error;
        assert!(parse(&format!("{CHECK}\noutliers = \"iqr\"")).contains("unknown `outliers = \"iqr\"`"));
        assert!(parse(&CHECK.replace("\"median\"", "\"slope\"\nper = \"n\"\noutliers = \"tukey\"")).contains("a slope's points are (per, field) pairs"));
        assert!(parse(&format!("{CHECK}\noutliers = \"tukey\"\nsummary = \"e/summary.json\"")).contains("outliers included"));
        assert!(parse(&CHECK.replace("\"median\"", "\"mean-range\"\npool = [\"e/b.jsonl\"]")).contains("no range: drop `pool`"));
        assert!(parse(&CHECK.replace("\"median\"", "\"mean-range\"\nsummary = \"e/summary.json\"")).contains("no range around the mean"));
        let compare = "kind = \"compare\"\nsamples = \"e/t.jsonl\"\nselect = {}\nfield = \"t_ns\"\nstatistic = \"mean-range\"\nfaster = \"a\"\nslower = [\"b\"]";
        assert!(parse(compare).contains("`mean-range` is a `stat` check's alone"));
    }

    /// The recheck resamples neither a statistic of the values inside the fences (resampling
    /// would move them), nor a range, nor a standard deviation (spreads, not latencies); a
    /// percentile it does.
    #[test]
    fn fenced_statistics_and_ranges_are_not_resampled() {
        let spec = |extra: &str| match check_toml(&format!("{CHECK}{extra}")).kind {
            super::super::Kind::Stat(s) => s,
            other => panic!("{other:?}"),
        };
        assert!(spec("").resampled());
        assert!(!spec("\noutliers = \"tukey\"").resampled());
        assert!(spec("").query().is_plain_jsonl());
        assert!(!spec("\noutliers = \"tukey\"").query().is_plain_jsonl());
        let range = match check_toml(&CHECK.replace("\"median\"", "\"mean-range\"")).kind {
            super::super::Kind::Stat(s) => s,
            other => panic!("{other:?}"),
        };
        assert!(!range.resampled());
        let stdev = match check_toml(&CHECK.replace("\"median\"", "\"stdev\"")).kind {
            super::super::Kind::Stat(s) => s,
            other => panic!("{other:?}"),
        };
        assert!(!stdev.resampled(), "a standard deviation is a spread, not a latency");
        let p99 = match check_toml(&CHECK.replace("\"median\"", "\"p99\"")).kind {
            super::super::Kind::Stat(s) => s,
            other => panic!("{other:?}"),
        };
        assert!(p99.resampled());
    }

    #[test]
    fn a_summary_that_disagrees_with_the_samples_fails() {
        let summary = r#"{"schema_version":1,"configurations":[{"suite":"s","case":"c","variant":"v","mode":"graph","field":"host_us","n":3,"median":2.5,"mean":2,"p05":1.1,"p95":2.9,"min":1,"max":3}]}"#;
        let f = Fixture::new(&[("e/samples.jsonl", SAMPLES), ("e/summary.json", summary)]);
        let obs = f.observe(&check_toml(&format!("{CHECK}\nsummary = \"e/summary.json\""))).unwrap();
        assert_eq!(obs.problems.len(), 1, "{:?}", obs.problems);
        assert!(obs.problems[0].contains("2.5"));
        let good = summary.replace("2.5", "2");
        let f = Fixture::new(&[("e/samples.jsonl", SAMPLES), ("e/summary.json", &good)]);
        let obs = f.observe(&check_toml(&format!("{CHECK}\nsummary = \"e/summary.json\""))).unwrap();
        assert!(obs.problems.is_empty(), "{:?}", obs.problems);
    }

    #[test]
    fn a_pooled_statistic_is_the_median_of_the_runs_statistics() {
        let other = SAMPLES.replace("\"host_us\":1.0", "\"host_us\":7.0").replace("\"host_us\":3.0", "\"host_us\":8.0").replace("\"host_us\":2.0", "\"host_us\":6.0");
        let third = SAMPLES.replace("\"host_us\":2.0", "\"host_us\":2.5");
        let f = Fixture::new(&[("e/samples.jsonl", SAMPLES), ("f/samples.jsonl", &other), ("g/samples.jsonl", &third)]);
        let obs = f.observe(&check_toml(&format!("{CHECK}\npool = [\"f/samples.jsonl\", \"g/samples.jsonl\"]"))).unwrap();
        // Run medians 2, 7 and 2.5: their median.
        assert_eq!(obs.value, Some(2.5));
        assert!(obs.detail.contains("median over 3 runs"), "{}", obs.detail);
    }

    #[test]
    fn a_pooled_statistic_with_a_summary_is_refused() {
        let err = super::super::testing::parse_error(&format!("{CHECK}\nsummary = \"e/summary.json\"\npool = [\"f/samples.jsonl\"]"));
        assert!(err.contains("a pooled statistic has no saved summary"), "{err}");
    }

    #[test]
    fn a_path_outside_the_root_is_refused() {
        let f = fixture();
        let err = f.observe(&check_toml(&CHECK.replace("e/samples.jsonl", "../samples.jsonl"))).unwrap_err();
        assert!(err.message.contains("climbs out"), "{}", err.message);
    }

    #[test]
    fn a_field_in_seconds_is_in_seconds_and_a_count_has_no_unit() {
        let f = Fixture::new(&[("e/s.jsonl", "{\"ttft_s\":0.5499}\n{\"ttft_s\":0.5501}\n{\"ttft_s\":0.5497}\n")]);
        let check = "kind = \"stat\"\nsamples = \"e/s.jsonl\"\nselect = {}\nfield = \"ttft_s\"\nstatistic = \"median\"";
        let obs = f.observe(&check_toml(check)).unwrap();
        assert_eq!((obs.value, obs.unit), (Some(0.5499), Some(Unit::S)));
        let obs = f.observe(&check_toml(&check.replace("median", "count"))).unwrap();
        assert_eq!((obs.value, obs.unit), (Some(3.0), None));
    }
    /// A fixture file of the harness fixtures, read as it is.
    fn harness(path: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/harness/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    const SLOPE: &str = "kind = \"stat\"\nsamples = \"e/b.jsonl\"\nselect = {}\nfield = \"batch_time_ns\"\nstatistic = \"slope\"\nper = \"iters\"";

    /// The slope over criterion's own samples is the `slope` of its `estimates.json`, the number
    /// it prints in linear sampling, and not the mean of the per-iteration times, which
    /// `estimates.json` also holds and which differs (22.085 ns against 18.897 ns for
    /// `sum/iter/64`).
    #[test]
    fn a_slope_over_criterion_s_samples_is_criterion_s_own_slope() {
        for id in ["sum/iter/64", "sum/iter/1024", "parse_u64"] {
            let dir = format!("criterion/criterion/{id}/new");
            let (sample, benchmark) = (harness(&format!("{dir}/sample.json")), harness(&format!("{dir}/benchmark.json")));
            let own: serde_json::Value = serde_json::from_str(&harness(&format!("{dir}/estimates.json"))).unwrap();
            assert_eq!(serde_json::from_str::<serde_json::Value>(&sample).unwrap()["sampling_mode"], "Linear");
            let path = format!("e/criterion/{id}/new/sample.json");
            let f = Fixture::new(&[(path.as_str(), sample.as_str()), (&format!("e/criterion/{id}/new/benchmark.json"), benchmark.as_str())]);
            let obs = f.observe(&check_toml(&SLOPE.replace("e/b.jsonl", &path))).unwrap();
            let slope = own["slope"]["point_estimate"].as_f64().unwrap();
            assert_eq!(obs.value, Some(slope), "{id}");
            assert_eq!(obs.unit, Some(Unit::Ns));
            assert!(obs.detail.contains("slope of batch_time_ns over iters through the origin of 10 samples"), "{}", obs.detail);
            let mean = own["mean"]["point_estimate"].as_f64().unwrap();
            assert!((slope - mean).abs() > 0.01 * mean, "{id}: the slope and the mean coincide, so the fixture tells nothing apart");
        }
    }

    /// cargo-criterion prints `typical`, which in linear sampling is its `slope`; both are the
    /// slope over the samples of the same line.
    #[test]
    fn a_slope_over_cargo_criterion_s_samples_is_its_typical_estimate() {
        let text = harness("cargo-criterion/messages.jsonl");
        let f = Fixture::new(&[("e/messages.jsonl", text.as_str())]);
        let mut seen = 0;
        for line in text.lines() {
            let own: serde_json::Value = serde_json::from_str(line).unwrap();
            if own["reason"] != "benchmark-complete" {
                continue;
            }
            let id = own["id"].as_str().unwrap();
            let check = SLOPE
                .replace("e/b.jsonl", "e/messages.jsonl")
                .replace("select = {}", &format!("select = {{ id = \"{id}\", sampling_mode = \"Linear\" }}\nformat = \"cargo-criterion\""));
            let obs = f.observe(&check_toml(&check)).unwrap();
            assert_eq!(obs.value, own["slope"]["estimate"].as_f64(), "{id}");
            assert_eq!(obs.value, own["typical"]["estimate"].as_f64(), "{id}");
            // Its bounds, drawn by cargo-criterion's own bootstrap, lie in the bands of this one.
            for (statistic, key) in [("criterion-lower", "lower_bound"), ("criterion-upper", "upper_bound")] {
                let Band { low, high, .. } = f.observe(&check_toml(&check.replace("\"slope\"", &format!("\"{statistic}\"")))).unwrap().band.unwrap();
                let theirs = own["typical"][key].as_f64().unwrap();
                assert!(low <= theirs && theirs <= high, "{id} {key}: {theirs} outside {low}..{high}");
            }
            seen += 1;
        }
        assert_eq!(seen, 3);
    }

    /// criterion's own bounds of its slope (`estimates.json`, linear sampling) lie in the band
    /// around claimcheck's bootstrap of the same samples.
    #[test]
    fn criterion_s_bounds_of_a_slope_lie_in_the_band_around_claimcheck_s() {
        for id in ["sum/iter/64", "sum/iter/1024", "parse_u64"] {
            let dir = format!("criterion/criterion/{id}/new");
            let (sample, benchmark) = (harness(&format!("{dir}/sample.json")), harness(&format!("{dir}/benchmark.json")));
            let own: serde_json::Value = serde_json::from_str(&harness(&format!("{dir}/estimates.json"))).unwrap();
            let path = format!("e/criterion/{id}/new/sample.json");
            let f = Fixture::new(&[(path.as_str(), sample.as_str()), (&format!("e/criterion/{id}/new/benchmark.json"), benchmark.as_str())]);
            for (statistic, key) in [("criterion-lower", "lower_bound"), ("criterion-upper", "upper_bound")] {
                let obs = f.observe(&check_toml(&SLOPE.replace("e/b.jsonl", &path).replace("\"slope\"", &format!("\"{statistic}\"")))).unwrap();
                let theirs = own["slope"]["confidence_interval"][key].as_f64().unwrap();
                let Band { low, high, .. } = obs.band.unwrap();
                assert!(low <= theirs && theirs <= high, "{id} {key}: {theirs} outside {low}..{high} around {:?}", obs.value);
                assert_eq!(obs.unit, Some(Unit::Ns));
                assert!(obs.detail.contains("bound of criterion's 95 % bootstrap interval of the slope of batch_time_ns over iters (100000 resamples) of 10 samples"), "{}", obs.detail);
            }
        }
    }

    /// The band is narrow: the other bound, or the estimate, is far outside it; and the keys that
    /// belong to other statistics, or to no bootstrap, are refused where the registry is read.
    #[test]
    fn a_bound_s_band_is_narrow_and_its_keys_are_its_own() {
        let sample = harness("criterion/criterion/sum/iter/64/new/sample.json");
        let f = Fixture::new(&[("e/criterion/s/new/sample.json", sample.as_str())]);
        let check = SLOPE.replace("e/b.jsonl", "e/criterion/s/new/sample.json");
        let lower = f.observe(&check_toml(&check.replace("\"slope\"", "\"criterion-lower\""))).unwrap();
        let upper = f.observe(&check_toml(&check.replace("\"slope\"", "\"criterion-upper\""))).unwrap();
        let slope = f.observe(&check_toml(&check)).unwrap().value.unwrap();
        let (Band { high: lower_high, .. }, Band { low: upper_low, .. }) = (lower.band.unwrap(), upper.band.unwrap());
        assert!(lower_high < slope && slope < upper_low, "{lower:?} {upper:?} {slope}");
        let refused = |extra: &str, statistic: &str| super::super::testing::parse_error(&format!("{}\n{extra}", check.replace("\"slope\"", &format!("\"{statistic}\""))));
        assert!(refused("resamples = 1000", "slope").contains("`resamples` is criterion's bootstrap's"));
        assert!(refused("resamples = 10", "criterion-lower").contains("10 resamples"));
        assert!(refused("confidence = 1.5", "criterion-upper").contains("confidence 1.5 is not a level"));
        assert!(refused("pool = [\"e/criterion/s/new/sample.json\"]", "criterion-upper").contains("drop `pool`"));
        // Values whose sums overflow give no bound, and say why.
        let huge = "{\"t\":1e308}\n{\"t\":1.5e308}\n{\"t\":1.7e308}\n";
        let f = Fixture::new(&[("e/huge.jsonl", huge)]);
        let err = f.observe(&check_toml("kind = \"stat\"\nsamples = \"e/huge.jsonl\"\nselect = {}\nfield = \"t\"\nstatistic = \"criterion-lower\"\nresamples = 1000")).unwrap_err();
        assert!(err.message.contains("too large to sum"), "{}", err.message);
        // A registry that asks for more draws than a bootstrap makes here is an error at its
        // `resamples`, not an audit held for hours.
        let big: String = (0..300).map(|k| format!("{{\"t\":{k}}}\n")).collect();
        let f = Fixture::new(&[("e/big.jsonl", big.as_str())]);
        let err = f
            .observe(&check_toml("kind = \"stat\"\nsamples = \"e/big.jsonl\"\nselect = {}\nfield = \"t\"\nstatistic = \"criterion-upper\"\nresamples = 10000000"))
            .unwrap_err();
        assert!(err.message.contains("10000000 resamples of the 300 samples e/big.jsonl selects would draw 3000000000 values"), "{}", err.message);
        assert!(err.position().is_some(), "{}", err.message);
        let unflagged = check.replace("\"slope\"", "\"criterion-lower\"").replace("per = \"iters\"", "confidence = 0.99\nresamples = 20000");
        let super::super::Kind::Stat(spec) = check_toml(&unflagged).kind else { panic!() };
        assert_eq!(spec.measure(), Ok(super::Measure::CriterionBound { upper: false, confidence: 0.99, resamples: 20000, per: None }));
    }

    const BATCHES: &str = "{\"iters\":1,\"batch_time_ns\":2.1}\n{\"iters\":2,\"batch_time_ns\":3.9}\n{\"iters\":3,\"batch_time_ns\":6.3}\n";

    #[test]
    fn a_pooled_slope_is_the_median_of_the_runs_slopes() {
        // Each run's own line: the first run's, one through doubled times, and one of slope 1.
        let double = BATCHES.replace("2.1", "4.2").replace("3.9", "7.8").replace("6.3", "12.6");
        let third = "{\"iters\":1,\"batch_time_ns\":1}\n{\"iters\":2,\"batch_time_ns\":2}\n";
        let f = Fixture::new(&[("e/b.jsonl", BATCHES), ("f/b.jsonl", &double), ("g/b.jsonl", third)]);
        let obs = f.observe(&check_toml(&format!("{SLOPE}\npool = [\"f/b.jsonl\", \"g/b.jsonl\"]"))).unwrap();
        // Run slopes 2.057…, 4.114… and 1: their median is the first run's.
        assert_eq!(obs.value, Some((2.1 + 7.8 + 18.9) / 14.0));
        assert!(obs.detail.contains("median over 3 runs of the slope of batch_time_ns over iters"), "{}", obs.detail);
        assert!(obs.detail.contains("8 samples"), "{}", obs.detail);
    }

    #[test]
    fn a_slope_needs_per_and_per_needs_a_slope() {
        let err = super::super::testing::parse_error(&SLOPE.replace("per = \"iters\"", ""));
        assert!(err.contains("needs `per`"), "{err}");
        let err = super::super::testing::parse_error(&SLOPE.replace("\"slope\"", "\"mean\""));
        assert!(err.contains("`per` names the field a slope is taken over, but the statistic is `mean`"), "{err}");
        let err = super::super::testing::parse_error(&format!("{SLOPE}\nsummary = \"e/summary.json\""));
        assert!(err.contains("a saved summary holds no slope"), "{err}");
    }

    /// Iteration counts that are all zero leave the line undetermined, and a negative or missing
    /// one is no count: each is an error located where it is, never a value.
    #[test]
    fn a_slope_over_counts_that_determine_no_line_is_located() {
        let zeros = "{\"iters\":0,\"batch_time_ns\":2.1}\n{\"iters\":0,\"batch_time_ns\":3.9}\n";
        let f = Fixture::new(&[("e/b.jsonl", zeros)]);
        let err = f.observe(&check_toml(SLOPE)).unwrap_err();
        assert!(err.message.contains("`iters` is zero in every record selected in e/b.jsonl"), "{}", err.message);
        assert!(err.position().is_some(), "{}", err.message);
        let negative = BATCHES.replace("\"iters\":2", "\"iters\":-2");
        let f = Fixture::new(&[("e/b.jsonl", &negative)]);
        let err = f.observe(&check_toml(SLOPE)).unwrap_err();
        assert!(err.message.contains("e/b.jsonl: line 2: `iters` is negative (-2)"), "{}", err.message);
        let missing = BATCHES.replace("\"iters\":3,", "");
        let f = Fixture::new(&[("e/b.jsonl", &missing)]);
        let err = f.observe(&check_toml(SLOPE)).unwrap_err();
        assert!(err.message.contains("line 3: no `iters` in this sample"), "{}", err.message);
        // A derived count that divides by zero is an error at its record's line.
        let derived = format!("{SLOPE}\nderive = {{ iters = \"batch_time_ns / (iters - 1)\" }}");
        let f = Fixture::new(&[("e/b.jsonl", BATCHES)]);
        let err = f.observe(&check_toml(&derived)).unwrap_err();
        assert!(err.message.contains("e/b.jsonl: line 1: "), "{}", err.message);
    }

    const MEDIAN_CI: &str = "kind = \"stat\"\nsamples = \"e/t.jsonl\"\nselect = {}\nfield = \"t_ns\"\nstatistic = \"median-ci\"";

    /// `t_ns` of each record: the squares 1, 4, …, 900, in reverse order.
    fn squares(n: u32) -> String {
        (1..=n).rev().map(|i| format!("{{\"t_ns\":{}}}\n", i * i)).collect()
    }

    /// Of 30 samples, the 95 % interval of the median is the 10th to the 21st: 100 to 441
    /// around (225 + 256) / 2 = 240.5, and its wider side is the upper one, 441/240.5 − 1 =
    /// 83.37 % (the lower is 1 − 100/240.5 = 58.42 %).
    #[test]
    fn a_median_ci_is_benchstat_s_interval_in_percent_of_the_median() {
        let f = Fixture::new(&[("e/t.jsonl", &squares(30))]);
        let obs = f.observe(&check_toml(MEDIAN_CI)).unwrap();
        assert_eq!(obs.value, Some(100.0 * (441.0 / 240.5 - 1.0)));
        assert_eq!(obs.unit, Some(Unit::Percent));
        assert_eq!(obs.detail, "95 % interval of the median t_ns of 30 samples, x(10) = 100 to x(21) = 441 around 240.5, its wider side in % of the median");
        // At 0.5 the interval is the 14th to the 18th (go-moremath's, which leans right here).
        let obs = f.observe(&check_toml(&format!("{MEDIAN_CI}\nconfidence = 0.5"))).unwrap();
        assert_eq!(obs.value, Some(100.0 * (324.0 / 240.5 - 1.0)));
        assert!(obs.detail.starts_with("50 % interval of the median t_ns of 30 samples, x(14) = 196 to x(18) = 324"), "{}", obs.detail);
    }

    /// An interval benchstat prints as `± ∞` or `± ?` has no percentage to compare with: an
    /// error at `statistic` that says why.
    #[test]
    fn a_median_ci_benchstat_cannot_state_in_percent_is_an_error_at_the_statistic() {
        let f = Fixture::new(&[("e/t.jsonl", &squares(5))]);
        let err = f.observe(&check_toml(MEDIAN_CI)).unwrap_err();
        assert!(err.message.contains("the median of 5 samples has no finite 95 % interval (benchstat prints `± ∞`): it needs at least 6 samples"), "{}", err.message);
        assert!(err.position().is_some(), "{}", err.message);
        let zeros = format!("{}{}", "{\"t_ns\":0}\n".repeat(10), squares(20));
        let f = Fixture::new(&[("e/t.jsonl", &zeros)]);
        let err = f.observe(&check_toml(MEDIAN_CI)).unwrap_err();
        assert!(err.message.contains("runs from 0 to 121, which is no percentage of it (benchstat prints `± ?`)"), "{}", err.message);
    }

    #[test]
    fn a_median_ci_s_keys_are_checked_when_the_registry_is_read() {
        let err = super::super::testing::parse_error(&CHECK.replace("statistic = \"median\"", "statistic = \"median\"\nconfidence = 0.9"));
        assert!(err.contains("`confidence` is the level of an interval, but the statistic is `median`"), "{err}");
        for bad in ["1.0", "0.0", "95", "-0.5", "nan"] {
            let err = super::super::testing::parse_error(&format!("{MEDIAN_CI}\nconfidence = {bad}"));
            assert!(err.contains("is not a level between 0 and 1"), "{bad}: {err}");
        }
        let err = super::super::testing::parse_error(&format!("{MEDIAN_CI}\nsummary = \"e/summary.json\""));
        assert!(err.contains("a saved summary holds no confidence interval"), "{err}");
        let err = super::super::testing::parse_error(&format!("{MEDIAN_CI}\npool = [\"f/t.jsonl\"]"));
        assert!(err.contains("drop `pool`"), "{err}");
        let err = super::super::testing::parse_error(&format!("{MEDIAN_CI}\nper = \"iters\""));
        assert!(err.contains("`per` names the field a slope is taken over, but the statistic is `median-ci`"), "{err}");
        let compare = "kind = \"compare\"\nsamples = \"e/t.jsonl\"\nselect = {}\nfield = \"t_ns\"\nstatistic = \"median-ci\"\nfaster = \"a\"\nslower = [\"b\"]";
        assert!(super::super::testing::parse_error(compare).contains("`median-ci` is a `stat` check's alone"));
    }

    /// JMH's error is of one result's iterations: no saved summary holds it, no pool of runs
    /// makes one, and no ordering is by it.
    #[test]
    fn a_jmh_error_s_keys_are_checked_when_the_registry_is_read() {
        let jmh = MEDIAN_CI.replace("median-ci", "jmh-error");
        let err = super::super::testing::parse_error(&format!("{jmh}\nsummary = \"e/summary.json\""));
        assert!(err.contains("a saved summary holds no JMH error"), "{err}");
        let err = super::super::testing::parse_error(&format!("{jmh}\npool = [\"f/t.jsonl\"]"));
        assert!(err.contains("the median of several runs' errors is no error: drop `pool`"), "{err}");
        let err = super::super::testing::parse_error(&format!("{jmh}\nconfidence = 0.99"));
        assert!(err.contains("but the statistic is `jmh-error`"), "{err}");
        let compare = "kind = \"compare\"\nsamples = \"e/t.jsonl\"\nselect = {}\nfield = \"t_ns\"\nstatistic = \"jmh-error\"\nfaster = \"a\"\nslower = [\"b\"]";
        assert!(super::super::testing::parse_error(compare).contains("`jmh-error` is a `stat` check's alone"));
    }

    /// asv's `±` is half the distance between the quartiles, linearly interpolated: of the
    /// squares 1 … 900 (30 samples), the 25 % quantile lies at 7.25 (64 + 0.25 · 17 = 68.25)
    /// and the 75 % at 21.75 (484 + 0.75 · 45 = 517.75), so the error is 224.75 ns. Like JMH's,
    /// it is of one result's samples alone.
    #[test]
    fn an_asv_error_is_half_the_interquartile_range() {
        let asv = MEDIAN_CI.replace("median-ci", "asv-error");
        let f = Fixture::new(&[("e/t.jsonl", &squares(30))]);
        let obs = f.observe(&check_toml(&asv)).unwrap();
        assert_eq!(obs.value, Some((517.75 - 68.25) / 2.0));
        assert_eq!(obs.unit, Some(Unit::Ns));
        assert_eq!(obs.detail, "half the interquartile range of t_ns (asv's error) of 30 samples");
        let err = super::super::testing::parse_error(&format!("{asv}\nsummary = \"e/summary.json\""));
        assert!(err.contains("a saved summary holds no asv error"), "{err}");
        let err = super::super::testing::parse_error(&format!("{asv}\npool = [\"f/t.jsonl\"]"));
        assert!(err.contains("drop `pool`"), "{err}");
        let compare = "kind = \"compare\"\nsamples = \"e/t.jsonl\"\nselect = {}\nfield = \"t_ns\"\nstatistic = \"asv-error\"\nfaster = \"a\"\nslower = [\"b\"]";
        assert!(super::super::testing::parse_error(compare).contains("`asv-error` is a `stat` check's alone"));
    }

    /// Four problems' runs: medians 2, 15, 4 and 8 per problem, whose median is 6 and whose
    /// interquartile range is 9.75 − 3.5 = 6.25 (numpy's linear quartiles of 2, 4, 8, 15); the
    /// median of all eight runs pooled is 5.5 and their mean 7, where the mean of the problems'
    /// medians is 7.25.
    const PROBLEMS: &str = "problem,seed,hv\na,0,1\na,1,3\na,2,2\nb,0,10\nb,1,20\nc,0,4\nd,0,7\nd,1,9\n";
    const GROUPED: &str = "kind = \"stat\"\nsamples = \"e/runs.csv\"\nselect = {}\nfield = \"hv\"\nstatistic = \"median\"\ngroups = { by = \"problem\", statistic = \"median\" }";

    #[test]
    fn a_statistic_of_groups_is_taken_over_each_group_s_own() {
        let f = Fixture::new(&[("e/runs.csv", PROBLEMS)]);
        let obs = f.observe(&check_toml(GROUPED)).unwrap();
        assert_eq!(obs.value, Some(6.0));
        assert_eq!(obs.detail, "median of the per-`problem` median hv of 8 samples");
        assert_eq!(f.observe(&check_toml(&GROUPED.replacen("\"median\"", "\"iqr\"", 1))).unwrap().value, Some(6.25));
        assert_eq!(f.observe(&check_toml(&GROUPED.replacen("\"median\"", "\"mean\"", 1))).unwrap().value, Some(7.25));
        assert_eq!(f.observe(&check_toml(&GROUPED.replacen("\"median\"", "\"count\"", 1))).unwrap().value, Some(4.0));
        // Without `groups` the runs are pooled.
        let pooled = GROUPED.split("\ngroups").next().unwrap();
        assert_eq!(f.observe(&check_toml(pooled)).unwrap().value, Some(5.5));
        assert_eq!(f.observe(&check_toml(&pooled.replace("\"median\"", "\"mean\""))).unwrap().value, Some(7.0));
        // Each group's maximum (3, 20, 4, 9), then their minimum.
        let extremes = GROUPED.replacen("\"median\"", "\"min\"", 1).replace("statistic = \"median\" }", "statistic = \"max\" }");
        assert_eq!(f.observe(&check_toml(&extremes)).unwrap().value, Some(3.0));
    }

    #[test]
    fn groups_are_refused_where_they_mean_nothing_and_a_record_outside_every_group_is_located() {
        let err = super::super::testing::parse_error(&GROUPED.replace("by = \"problem\", statistic = \"median\"", "by = \"problem\", statistic = \"mode\""));
        assert!(err.contains("unknown statistic `mode` for each group"), "{err}");
        let err = super::super::testing::parse_error(&GROUPED.replace("by = \"problem\", ", ""));
        assert!(err.contains("missing field `by`"), "{err}");
        let err = super::super::testing::parse_error(&format!("{GROUPED}\nsummary = \"e/summary.json\""));
        assert!(err.contains("drop `summary` or `groups`"), "{err}");
        let err = super::super::testing::parse_error(&format!("{GROUPED}\noutliers = \"tukey\""));
        assert!(err.contains("drop `outliers` or `groups`"), "{err}");
        let err = super::super::testing::parse_error(&GROUPED.replacen("\"median\"", "\"median-ci\"", 1));
        assert!(err.contains("takes a statistic over those values"), "{err}");
        let super::super::Kind::Stat(grouped) = check_toml(GROUPED).kind else { panic!("a stat check") };
        assert!(!grouped.resampled(), "the recheck passes a statistic of groups over");
        let super::super::Kind::Stat(iqr) = check_toml(&CHECK.replace("\"median\"", "\"iqr\"")).kind else { panic!("a stat check") };
        assert!(!iqr.resampled(), "an interquartile range is a spread, not a latency");
        let f = Fixture::new(&[("e/runs.jsonl", "{\"problem\":\"a\",\"hv\":1}\n{\"hv\":2}\n")]);
        let err = f.observe(&check_toml(&GROUPED.replace("e/runs.csv", "e/runs.jsonl"))).unwrap_err();
        assert!(err.message.contains("line 2: no `problem` in this record"), "{}", err.message);
    }

    /// pyperf's own `telco.json` (its test data): what `pyperf stats` prints as `Median +- MAD:
    /// 22.5 ms +- 0.1 ms` and as its `0th` and `100th percentile`, to the digits pyperf 2.10.0
    /// computes them (`Benchmark.median_abs_dev` 0.0001291911239604815 s, `percentile(0)`
    /// 0.02211380250082584 s and `percentile(100)` 0.02292071737429069 s).
    #[test]
    fn pyperf_s_mad_and_end_percentiles_are_its_own() {
        let f = Fixture::new(&[("e/telco.json", &harness("pyperf/telco.json"))]);
        let check = |statistic: &str| {
            f.observe(&check_toml(&format!("kind = \"stat\"\nsamples = \"e/telco.json\"\nformat = \"pyperf\"\nselect = {{}}\nfield = \"time_s\"\nstatistic = \"{statistic}\"")))
                .unwrap()
        };
        let mad = check("mad");
        assert!((mad.value.unwrap() - 0.0001291911239604815).abs() < 1e-18, "{:?}", mad.value);
        assert_eq!((mad.unit, mad.detail.as_str()), (Some(Unit::S), "mad time_s of 120 samples"));
        assert_eq!(check("p0").value, Some(0.02211380250082584));
        assert_eq!(check("p100").value, Some(0.02292071737429069));
        assert_eq!(check("p0").value, check("min").value);
        let super::super::Kind::Stat(spec) = check_toml(&CHECK.replace("\"median\"", "\"mad\"")).kind else { panic!() };
        assert!(!spec.resampled(), "a MAD is a spread, not a latency");
        let compare = "kind = \"compare\"\nsamples = \"e/t.jsonl\"\nselect = {}\nfield = \"t_ns\"\nstatistic = \"mad\"\nfaster = \"a\"\nslower = [\"b\"]";
        assert!(super::super::testing::parse_error(compare).contains("`mad` is a `stat` check's alone"));
        assert!(super::super::testing::parse_error(&CHECK.replace("\"median\"", "\"p101\"")).contains("pNN (p0 to p100)"));
    }

    /// `outliers = "tukey-linear"` fences around linear quartiles, as `pyperf stats` counts
    /// outliers: of 1 … 10 and 17 it drops 17 (fences -4 and 16), which type 8's fences keep.
    #[test]
    fn linear_fences_drop_what_pyperf_counts_as_outliers() {
        let values: String = (1..=10).chain([17]).map(|v| format!("{{\"t\":{v}}}\n")).collect();
        let f = Fixture::new(&[("t.jsonl", &values)]);
        let count = |rule: &str| {
            f.observe(&check_toml(&format!("kind = \"stat\"\nsamples = \"t.jsonl\"\nselect = {{}}\nfield = \"t\"\nstatistic = \"count\"\noutliers = \"{rule}\""))).unwrap()
        };
        let linear = count("tukey-linear");
        assert_eq!(linear.value, Some(10.0));
        assert_eq!(linear.detail, "count t of 10 samples (1 of 11 outside Tukey's fences around linear quartiles dropped)");
        assert_eq!(count("tukey").value, Some(11.0));
        let message = super::super::testing::parse_error(&format!("{CHECK}\noutliers = \"linear\""));
        assert!(message.contains("the rules are \"tukey\"") && message.contains("\"tukey-linear\" (around linear quartiles, as `pyperf stats`)"), "{message}");
    }

    #[test]
    fn a_compare_check_refuses_a_slope() {
        let check = "kind = \"compare\"\nsamples = \"e/b.jsonl\"\nselect = {}\nfield = \"batch_time_ns\"\nstatistic = \"slope\"\nfaster = \"a\"\nslower = [\"b\"]";
        let err = super::super::testing::parse_error(check);
        assert!(err.contains("`slope` is a `stat` check's alone"), "{err}");
    }
}
