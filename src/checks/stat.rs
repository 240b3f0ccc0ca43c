//! `stat`: a statistic recomputed from raw JSONL samples.
//!
//! What it does: selects the records of `samples` whose fields equal every entry of
//! `select`, takes the numeric `field` of each, and computes `statistic` (`median`, `mean`,
//! `min`, `max`, `count`, `stdev`, or a percentile `pNN` by numpy's linear method). Where
//! `summary` names a saved `summary.json`, the saved value of the same statistic must equal the
//! recomputed one, so a summary edited by hand fails.
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
//! `nvbench`, `hyperfine`, `pytest-benchmark`, `go-bench`; detected from the file when
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
//! With `pool = ["evidence/runs/r2/samples.jsonl", …]` the statistic is computed in `samples`
//! and in every pooled file separately, and the value is the median of those per-run values
//! (the median of run medians): runs are the unit of replication, so one noisy run moves the
//! pooled value less than it would move a median over all samples together. A pooled check
//! has no `summary`, since each run's summary holds only its own value.
//!
//! A JSONL, CSV or TSV file of 8 MiB or more (10^5 samples and up) asked for a field as it is,
//! through a `select` of strings only (no `where`, `derive` or `records`), is streamed rather
//! than held:
//! read on every core into the one column the check needs, to the same values in the same
//! order, so every statistic is the same to the last bit (`query::streamed`).

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation, query};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::evidence::Summary;
use crate::stats::Statistic;

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
}

impl Spec {
    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        if let (Some(summary), Some(_)) = (&self.summary, self.pool.first()) {
            return Err(("a pooled statistic has no saved summary: drop `summary` or `pool`".into(), summary.span()));
        }
        self.parsed_statistic()?;
        query::validate(self.format.as_ref(), self.filter.as_ref(), &self.derive)
    }

    /// The samples files of the runs this query reads: `samples`, then every pooled file.
    pub(crate) fn runs(&self) -> Vec<&Spanned<String>> {
        std::iter::once(&self.samples).chain(&self.pool).collect()
    }

    fn parsed_statistic(&self) -> Result<Statistic, (String, Range<usize>)> {
        Statistic::parse(self.statistic.get_ref())
            .ok_or_else(|| (format!("unknown statistic `{}`: use median, mean, min, max, count, stdev or pNN", self.statistic.get_ref()), self.statistic.span()))
    }

    pub(super) fn files(&self) -> Vec<&str> {
        let mut files: Vec<&str> = self.runs().into_iter().map(|s| s.get_ref().as_str()).collect();
        files.extend(self.summary.as_ref().map(|s| s.get_ref().as_str()));
        files
    }

    /// The statistic's value, in the field's unit, and how many samples it came from; with
    /// `pool`, the median of the runs' values and the samples of all of them.
    pub(crate) fn compute(&self, ctx: &Context<'_>) -> Result<(f64, usize), Diagnostic> {
        let statistic = self.parsed_statistic().map_err(|(m, s)| ctx.error_at(m, s, "here"))?;
        let mut values = Vec::new();
        let mut n = 0;
        for file in self.runs() {
            let samples = query::samples(ctx, &query::Query { samples: file, ..self.query() })?;
            values.push(samples.statistic(statistic));
            n += samples.len();
        }
        let value = if values.len() == 1 { values[0] } else { crate::stats::Samples::new(values).map_or(f64::NAN, |s| s.median()) };
        Ok((value, n))
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let (value, n) = self.compute(ctx)?;
        let statistic = self.parsed_statistic().map_err(|(m, s)| ctx.error_at(m, s, "here"))?;
        let mut problems = Vec::new();
        if let Some(summary_path) = &self.summary {
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
        // A count is a number of samples, whatever unit the samples are in.
        let unit = if matches!(statistic, Statistic::Count) { None } else { ctx.field_unit(self.field.get_ref()) };
        Ok(Observation {
            value: Some(value),
            unit,
            problems,
            detail: match self.pool.len() {
                0 => format!("{statistic} {} of {n} samples", self.field.get_ref()),
                more => format!("median over {} runs of the {statistic} {}, {n} samples", more + 1, self.field.get_ref()),
            },
        })
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

/// Saved and recomputed values agree when they differ only by the rounding of a JSON
/// round trip.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[cfg(test)]
mod tests {
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
}
