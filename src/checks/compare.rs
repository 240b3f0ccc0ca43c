//! `compare`: an ordering claim, such as "the fused kernel is faster than cuDNN and PyTorch at
//! every shape".
//!
//! What it does: for every case in `cases`, computes `statistic` of `field` over the samples
//! of `select` plus that case and each variant, and checks that `faster`'s value is below every
//! `slower` variant's, by at least `min-ratio` (slower ÷ faster) when given. With `by = "mode"`
//! the names are submission modes (`graph` against `stream`) instead of variants; `by` may name
//! any field, such as hyperfine's `command` or cargo-criterion's `function`. A case is a value
//! of `case-field` (default `case`, this repository's own runs; cargo-criterion's `value`, for
//! instance); without `cases` the ordering is judged once, over every record `select` picks.
//! Yields the smallest ratio found, so a quoted "at least 1.2×" can be checked too.
//!
//! Why: orderings survive a change of device better than absolute times, and they are what
//! readers remember; each one should be recomputed from the samples.
//!
//! ```toml
//! [[claim.check]]
//! kind = "compare"
//! samples = "evidence/runs/r2/samples.jsonl"
//! select = { suite = "softmax-bench", mode = "stream" }
//! field = "device_us"
//! statistic = "median"
//! faster = "fused"
//! slower = ["cudnn", "torch"]
//! cases = ["4096x4096", "4096x128"]
//! ```
//! Fails as `4096x128: fused 7.52 is not below cudnn 7.07`.
//!
//! Another harness's benchmarks, ordered by function in each parameter of a criterion group:
//! ```toml
//! [[claim.check]]
//! kind = "compare"
//! samples = "evidence/output.json"
//! format = "cargo-criterion"
//! select = { group = "Individual Block Simulation" }
//! field = "time_ns"
//! statistic = "mean"
//! by = "function"
//! faster = "ethers-reth"
//! slower = ["Ipc", "Local_Http"]
//! case-field = "value"
//! cases = ["Block: 0, TotalGas: 30,312,275"]
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation, query, stat};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::evidence::Jsonl;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub samples: Spanned<String>,
    pub select: Spanned<BTreeMap<String, toml::Value>>,
    pub field: Spanned<String>,
    pub statistic: Spanned<String>,
    pub faster: String,
    /// One name or a list: `slower = "b"` orders one pair, as `faster = "a"` names one side.
    #[serde(deserialize_with = "one_or_more")]
    pub slower: Vec<String>,
    /// The cases to order in, values of `case_field`; none means one ordering over every record
    /// `select` picks (see [`Self::cases`]).
    #[serde(default)]
    pub cases: Vec<String>,
    #[serde(default = "default_case_field")]
    pub case_field: Spanned<String>,
    #[serde(default)]
    pub min_ratio: Option<f64>,
    /// As `stat`'s: the evidence format, the JSON records path, a filter, derived fields.
    #[serde(default)]
    pub format: Option<Spanned<String>>,
    #[serde(default)]
    pub records: Option<Spanned<String>>,
    #[serde(default, rename = "where")]
    pub filter: Option<Spanned<String>>,
    #[serde(default)]
    pub derive: BTreeMap<String, Spanned<String>>,
    /// The sample field that `faster` and `slower` name: `variant` (the default) or `mode`.
    #[serde(default = "default_by")]
    pub by: String,
    /// More runs' samples of the same configurations, as `stat`'s `pool`: each ratio of an
    /// ordering is then the median of the runs' own ratios, and the recheck resamples the
    /// runs as well as their rounds, so that an ordering is judged across runs rather than
    /// inside the one a check happens to name.
    #[serde(default)]
    pub pool: Vec<Spanned<String>>,
}

fn default_by() -> String {
    "variant".into()
}

fn default_case_field() -> Spanned<String> {
    Spanned::new(0..0, "case".into())
}

/// A side's value in a problem: two decimals, or three significant digits where that shows
/// more (a time in seconds, such as hyperfine's 0.0045, would otherwise read 0.00).
fn shown(v: f64) -> String {
    let digits = if v.is_finite() && v != 0.0 { (2 - v.abs().log10().floor() as i64).clamp(2, 15) as usize } else { 2 };
    format!("{v:.digits$}")
}

/// `what` in `case`, as rows and problems name it: `case: what`, or `what` alone for the one
/// ordering of a check without cases.
pub(crate) fn in_case(case: &str, what: &str) -> String {
    if case.is_empty() { what.to_string() } else { format!("{case}: {what}") }
}

/// A string, or a list of them: what `slower` takes.
fn one_or_more<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMore {
        One(String),
        More(Vec<String>),
    }
    Ok(match OneOrMore::deserialize(d).map_err(|_| serde::de::Error::custom("`slower` is a name or a list of names, as `slower = \"b\"` or `slower = [\"b\", \"c\"]`"))? {
        OneOrMore::One(name) => vec![name],
        OneOrMore::More(names) => names,
    })
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        self.run_paths()
    }

    /// The samples files of the runs this check orders in: `samples`, then every pooled file.
    pub(crate) fn runs(&self) -> Vec<&Spanned<String>> {
        std::iter::once(&self.samples).chain(&self.pool).collect()
    }

    /// [`Self::runs`] as root-relative paths.
    pub(crate) fn run_paths(&self) -> Vec<&str> {
        self.runs().into_iter().map(|s| s.get_ref().as_str()).collect()
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        if self.slower.is_empty() {
            return Err(("a compare check needs at least one `slower` variant".into(), self.select.span()));
        }
        // An empty name would read as "no case" (see `cases`), so it is refused, not guessed at.
        if self.cases.iter().any(|c| c.is_empty()) {
            return Err(("a case of a compare check cannot be empty: leave `cases` out to order over every selected record".into(), self.select.span()));
        }
        // The default `case-field` has an empty span; one written in the registry has its own.
        let written = !self.case_field.span().is_empty();
        let case_field = self.case_field.get_ref();
        if written && self.cases.is_empty() {
            return Err((
                "`case-field` names the field of `cases`, and this check has none: give `cases`, or leave both out to order over every selected record".into(),
                self.case_field.span(),
            ));
        }
        if !self.cases.is_empty() && (case_field.is_empty() || *case_field == self.by) {
            let span = if written { self.case_field.span() } else { self.select.span() };
            return Err((format!("`case-field` must name a field other than `by` (`{}`), found `{case_field}`", self.by), span));
        }
        // Each side's records are `select` plus the name and the case; a `select` that fixes
        // either already would make every side the same records, or none.
        let fixes = |key: &str, what: &str| format!("`select` fixes `{key}`, which {what} names: the check would compare a field with itself");
        if self.select.get_ref().contains_key(self.by.as_str()) {
            return Err((fixes(&self.by, "`by`"), self.select.span()));
        }
        if !self.cases.is_empty() && self.select.get_ref().contains_key(case_field.as_str()) {
            return Err((fixes(case_field, "`case-field`"), self.select.span()));
        }
        // A slope pairs each record's field with another, which a compare check has no key for;
        // `stat`'s own message would send the reader looking for that key here. A median's
        // interval, JMH's error, the range around a mean and pyperf's MAD are spreads, not
        // places: ordering by them says nothing about which is faster.
        if let name @ ("slope" | "median-ci" | "jmh-error" | "mean-range" | "asv-error" | "mad") = self.statistic.get_ref().as_str() {
            return Err((
                format!("a compare check orders by where one field's values lie (median, mean, a percentile); `{name}` is a `stat` check's alone"),
                self.statistic.span(),
            ));
        }
        self.query("", "").validate()
    }

    /// The cases the check orders in, in its own order: `cases`, or, when it names none, one
    /// unnamed case (the empty string) that adds nothing to `select`. [`Self::validate`]
    /// refuses an empty name among `cases`, so the empty string means only this.
    pub(crate) fn cases(&self) -> Vec<&str> {
        if self.cases.is_empty() { vec![""] } else { self.cases.iter().map(String::as_str).collect() }
    }

    /// The `stat` query for one case (from [`Self::cases`]) and variant.
    pub(crate) fn query(&self, case: &str, variant: &str) -> stat::Spec {
        let mut select = self.select.get_ref().clone();
        if !case.is_empty() {
            select.insert(self.case_field.get_ref().clone(), toml::Value::String(case.into()));
        }
        select.insert(self.by.clone(), toml::Value::String(variant.into()));
        stat::Spec {
            samples: self.samples.clone(),
            select: Spanned::new(self.select.span(), select),
            field: self.field.clone(),
            statistic: self.statistic.clone(),
            summary: None,
            format: self.format.clone(),
            records: self.records.clone(),
            filter: self.filter.clone(),
            derive: self.derive.clone(),
            pool: self.pool.clone(),
            per: None,
            confidence: None,
            resamples: None,
            outliers: None,
            groups: None,
        }
    }

    /// Refuses to order `faster` and `other` in `case` when their samples were recorded under
    /// different protocols (`protocol` field): a graph replay timed by events and a call timed
    /// from the host differ by the protocol itself, so the ordering would say nothing about the
    /// kernels. Samples that record no protocol (older runs) compare with each other. A check
    /// `by = "mode"` compares submission modes, whose protocols differ by construction (that
    /// difference is its subject), so it is not refused.
    pub(crate) fn same_protocol(&self, jsonl: &Jsonl, case: &str, other: &str) -> Result<(), String> {
        if self.by == "mode" {
            return Ok(());
        }
        let protocols = |variant: &str| -> BTreeSet<String> {
            let query = self.query(case, variant);
            jsonl.select(query.select.get_ref()).into_iter().map(|r| jsonl.get(r, "protocol").map_or_else(|| "none recorded".to_string(), |v| jsonl.text_of(Some(v)))).collect()
        };
        let (a, b) = (protocols(&self.faster), protocols(other));
        if a == b || a.is_empty() || b.is_empty() {
            return Ok(());
        }
        let names = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
        Err(in_case(
            case,
            &format!("`{}` was timed by {} and `{other}` by {}: a compare check does not order samples recorded under different protocols", self.faster, names(&a), names(&b)),
        ))
    }

    /// `other` ÷ `faster` in `case` over the pooled runs: the median of each run's own ratio.
    /// The two sides of one run were timed in the same rounds, so their ratio is paired; a
    /// ratio of the two sides' pooled medians would let a run that ran slower throughout pull
    /// one side and not the other. It is also the value the recheck resamples (each run's
    /// ratio, pooled by the median), so the audit and the recheck state one number.
    fn pooled_ratio(&self, ctx: &Context<'_>, case: &str, other: &str) -> Result<f64, Diagnostic> {
        let mut ratios = Vec::with_capacity(self.pool.len() + 1);
        for file in self.runs() {
            let in_run = |variant: &str| stat::Spec { samples: file.clone(), pool: Vec::new(), ..self.query(case, variant) }.compute(ctx).map(|(v, _)| v);
            ratios.push(in_run(other)? / in_run(&self.faster)?);
        }
        Ok(crate::stats::Samples::new(ratios).map_or(f64::NAN, |s| s.median()))
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let mut problems = Vec::new();
        let mut smallest = f64::INFINITY;
        // Each run is read in the check's format, as its statistics are: a harness's file (a
        // hyperfine export is one JSON document over many lines) is no JSONL, and its records
        // are what the protocol test must look at.
        let spec = self.query("", &self.faster);
        let runs = self.runs().into_iter().map(|file| Ok((file, query::table(ctx, &query::Query { samples: file, ..spec.query() })?))).collect::<Result<Vec<_>, Diagnostic>>()?;
        for case in self.cases() {
            // One run orders by its two medians; pooled runs by the median of each run's own
            // ratio (`pooled_ratio`), which needs neither side's pooled median.
            let fast = if self.pool.is_empty() { Some(self.query(case, &self.faster).compute(ctx)?.0) } else { None };
            for other in &self.slower {
                // The same question from another registry is answered once per process.
                for (file, table) in &runs {
                    let key = format!("same-protocol:{:?}|{:?}|{}|{}|{case}|{other}", file.get_ref(), self.select.get_ref(), self.by, self.faster);
                    let verdict = ctx.evidence.derived(&key, || self.same_protocol(&table.jsonl, case, other));
                    verdict.as_ref().clone().map_err(|m| ctx.error_at(m, self.select.span(), "these samples were timed differently"))?;
                }
                let (ratio, sides) = match fast {
                    Some(fast) => {
                        let slow = self.query(case, other).compute(ctx)?.0;
                        (slow / fast, Some((fast, slow)))
                    }
                    None => (self.pooled_ratio(ctx, case, other)?, None),
                };
                smallest = smallest.min(ratio);
                let ok = match (self.min_ratio, sides) {
                    (Some(r), _) => ratio >= r,
                    (None, Some((fast, slow))) => fast < slow,
                    (None, None) => ratio > 1.0,
                };
                if !ok {
                    let need = self.min_ratio.map_or(String::new(), |r| format!(" by {r}×"));
                    let why = match sides {
                        Some((fast, slow)) => format!("{} {} is not below {other} {}{need}", self.faster, shown(fast), shown(slow)),
                        None => format!("{} is not below {other}{need}: over {} runs, {other} ÷ {} is {ratio:.3} at the median", self.faster, self.pool.len() + 1, self.faster),
                    };
                    problems.push(in_case(case, &why));
                }
            }
        }
        Ok(Observation {
            value: Some(smallest),
            unit: None,
            problems,
            detail: {
                let pooled = if self.pool.is_empty() { String::new() } else { format!(", each ratio the median of {} runs' own", self.pool.len() + 1) };
                let over = if self.cases.is_empty() { "every selected record".to_string() } else { format!("{} cases", self.cases.len()) };
                format!("{} against {} over {over}{pooled}; smallest ratio {smallest:.3}", self.faster, self.slower.join(", "))
            },
            band: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};

    const SAMPLES: &str = "{\"case\":\"a\",\"variant\":\"f\",\"t\":1}\n{\"case\":\"a\",\"variant\":\"s\",\"t\":2}\n{\"case\":\"b\",\"variant\":\"f\",\"t\":3}\n{\"case\":\"b\",\"variant\":\"s\",\"t\":2}\n";

    fn check(cases: &str, extra: &str) -> String {
        format!("kind = \"compare\"\nsamples = \"s.jsonl\"\nselect = {{}}\nfield = \"t\"\nstatistic = \"median\"\nfaster = \"f\"\nslower = [\"s\"]\ncases = {cases}\n{extra}")
    }

    #[test]
    fn an_ordering_that_holds_passes_with_its_smallest_ratio() {
        let f = Fixture::new(&[("s.jsonl", SAMPLES)]);
        let obs = f.observe(&check_toml(&check("[\"a\"]", ""))).unwrap();
        assert!(obs.problems.is_empty());
        assert_eq!(obs.value, Some(2.0));
    }

    /// `slower` takes one name as `faster` does, or a list; anything else is refused at its key.
    #[test]
    fn slower_is_one_name_or_a_list() {
        let f = Fixture::new(&[("s.jsonl", SAMPLES)]);
        let one = check("[\"a\"]", "").replace("slower = [\"s\"]", "slower = \"s\"");
        assert_eq!(f.observe(&check_toml(&one)).unwrap().value, Some(2.0));
        let wrong = check("[\"a\"]", "").replace("slower = [\"s\"]", "slower = 3");
        assert!(parse_error(&wrong).contains("`slower` is a name or a list of names"), "{}", parse_error(&wrong));
    }

    #[test]
    fn a_case_where_the_order_flips_fails() {
        let f = Fixture::new(&[("s.jsonl", SAMPLES)]);
        let obs = f.observe(&check_toml(&check("[\"a\", \"b\"]", ""))).unwrap();
        assert_eq!(obs.problems, ["b: f 3.00 is not below s 2.00"]);
    }

    #[test]
    fn a_pooled_ordering_takes_the_median_of_the_runs_ratios() {
        // Alone, the first run has `f` slower at `a`; the two others have it faster, and the
        // median of the three runs' ratios (0.4, 4 and 4) orders it faster.
        let other = "{\"case\":\"a\",\"variant\":\"f\",\"t\":1}\n{\"case\":\"a\",\"variant\":\"s\",\"t\":4}\n";
        let flipped = "{\"case\":\"a\",\"variant\":\"f\",\"t\":5}\n{\"case\":\"a\",\"variant\":\"s\",\"t\":2}\n";
        let f = Fixture::new(&[("s.jsonl", flipped), ("t.jsonl", other), ("u.jsonl", other)]);
        let alone = f.observe(&check_toml(&check("[\"a\"]", ""))).unwrap();
        assert_eq!(alone.problems, ["a: f 5.00 is not below s 2.00"]);
        let pooled = f.observe(&check_toml(&check("[\"a\"]", "pool = [\"t.jsonl\", \"u.jsonl\"]"))).unwrap();
        assert!(pooled.problems.is_empty(), "{:?}", pooled.problems);
        assert_eq!(pooled.value, Some(4.0));
        assert!(pooled.detail.contains("each ratio the median of 3 runs' own"), "{}", pooled.detail);
        // Where the pooled medians and the runs' ratios disagree, the paired ratios decide. The
        // sides' pooled medians (`f` 11 of 11, 100, 1; `s` 50 of 10, 90, 50) would order `f`
        // faster, but within two runs of three `f` is the slower one.
        let run = |f: u32, s: u32| format!("{{\"case\":\"a\",\"variant\":\"f\",\"t\":{f}}}\n{{\"case\":\"a\",\"variant\":\"s\",\"t\":{s}}}\n");
        let (r1, r2, r3) = (run(11, 10), run(100, 90), run(1, 50));
        let f = Fixture::new(&[("s.jsonl", r1.as_str()), ("t.jsonl", r2.as_str()), ("u.jsonl", r3.as_str())]);
        let obs = f.observe(&check_toml(&check("[\"a\"]", "pool = [\"t.jsonl\", \"u.jsonl\"]"))).unwrap();
        assert_eq!(obs.problems, ["a: f is not below s: over 3 runs, s ÷ f is 0.909 at the median"]);
        // Every pooled run is held to the same protocol as the first.
        let mixed = "{\"case\":\"a\",\"variant\":\"f\",\"t\":1,\"protocol\":\"graph-replay-events\"}\n{\"case\":\"a\",\"variant\":\"s\",\"t\":2,\"protocol\":\"stream-events\"}\n";
        let f = Fixture::new(&[("s.jsonl", other), ("t.jsonl", mixed)]);
        let err = f.observe(&check_toml(&check("[\"a\"]", "pool = [\"t.jsonl\"]"))).unwrap_err();
        assert!(err.message.contains("a compare check does not order samples recorded under different protocols"), "{}", err.message);
    }

    #[test]
    fn modes_can_be_compared_instead_of_variants() {
        let samples = "{\"case\":\"a\",\"mode\":\"graph\",\"t\":1}\n{\"case\":\"a\",\"mode\":\"stream\",\"t\":3}\n";
        let f = Fixture::new(&[("s.jsonl", samples)]);
        let body = "kind = \"compare\"\nsamples = \"s.jsonl\"\nselect = {}\nfield = \"t\"\nstatistic = \"median\"\nby = \"mode\"\nfaster = \"graph\"\nslower = [\"stream\"]\ncases = [\"a\"]";
        assert_eq!(f.observe(&check_toml(body)).unwrap().value, Some(3.0));
    }

    #[test]
    fn samples_timed_under_different_protocols_are_not_ordered() {
        let samples =
            "{\"case\":\"a\",\"variant\":\"f\",\"t\":1,\"protocol\":\"graph-replay-events\"}\n{\"case\":\"a\",\"variant\":\"s\",\"t\":2,\"protocol\":\"stream-events\"}\n";
        let f = Fixture::new(&[("s.jsonl", samples)]);
        let err = f.observe(&check_toml(&check("[\"a\"]", ""))).unwrap_err();
        assert!(err.message.contains("`f` was timed by graph-replay-events and `s` by stream-events"), "{}", err.message);
        // Located at the check's `select`, in the registry.
        assert!(err.position().is_some(), "{err:?}");
        let same = samples.replace("stream-events", "graph-replay-events");
        let f = Fixture::new(&[("s.jsonl", &same)]);
        assert_eq!(f.observe(&check_toml(&check("[\"a\"]", ""))).unwrap().value, Some(2.0));
    }

    #[test]
    fn submission_modes_are_compared_across_their_protocols() {
        let samples =
            "{\"case\":\"a\",\"mode\":\"graph\",\"t\":1,\"protocol\":\"graph-replay-events\"}\n{\"case\":\"a\",\"mode\":\"stream\",\"t\":3,\"protocol\":\"stream-events\"}\n";
        let f = Fixture::new(&[("s.jsonl", samples)]);
        let body = "kind = \"compare\"\nsamples = \"s.jsonl\"\nselect = {}\nfield = \"t\"\nstatistic = \"median\"\nby = \"mode\"\nfaster = \"graph\"\nslower = [\"stream\"]\ncases = [\"a\"]";
        assert_eq!(f.observe(&check_toml(body)).unwrap().value, Some(3.0));
    }

    /// Records as hyperfine's reader yields them: one command a record set, no case.
    const COMMANDS: &str =
        "{\"command\":\"grep x\",\"time_s\":0.020}\n{\"command\":\"grep x\",\"time_s\":0.022}\n{\"command\":\"rg x\",\"time_s\":0.004}\n{\"command\":\"rg x\",\"time_s\":0.005}\n";

    fn by_command(faster: &str, slower: &str, extra: &str) -> String {
        format!(
            "kind = \"compare\"\nsamples = \"h.jsonl\"\nselect = {{}}\nfield = \"time_s\"\nstatistic = \"median\"\nby = \"command\"\nfaster = \"{faster}\"\nslower = [\"{slower}\"]\n{extra}"
        )
    }

    #[test]
    fn without_cases_one_ordering_is_judged_over_every_selected_record() {
        let f = Fixture::new(&[("h.jsonl", COMMANDS)]);
        let obs = f.observe(&check_toml(&by_command("rg x", "grep x", ""))).unwrap();
        assert!(obs.problems.is_empty(), "{:?}", obs.problems);
        assert!((obs.value.unwrap() - 0.021 / 0.0045).abs() < 1e-9, "{:?}", obs.value);
        assert!(obs.detail.contains("over every selected record"), "{}", obs.detail);
        // The other way round it fails, and the problem names no case.
        let obs = f.observe(&check_toml(&by_command("grep x", "rg x", ""))).unwrap();
        assert_eq!(obs.problems, ["grep x 0.0210 is not below rg x 0.00450"]);
    }

    /// A real `hyperfine --export-json` file, one JSON document over many lines, read in its
    /// format: the protocol test once read every run as JSONL and failed on its first line.
    #[test]
    fn a_hyperfine_export_is_ordered_as_its_reader_reads_it() {
        let export = include_str!("../../tests/fixtures/harness/hyperfine/parameters.json");
        let f = Fixture::new(&[("h.json", export)]);
        for format in ["", "format = \"hyperfine\"\n"] {
            let body = by_command("sleep 0.005", "sleep 0.01", format).replace("h.jsonl", "h.json");
            let obs = f.observe(&check_toml(&body)).unwrap();
            assert!(obs.problems.is_empty(), "{:?}", obs.problems);
            assert!(obs.value.unwrap() > 1.0, "{:?}", obs.value);
        }
    }

    #[test]
    fn a_name_no_record_holds_is_an_error_not_a_pass() {
        let f = Fixture::new(&[("h.jsonl", COMMANDS)]);
        assert!(f.observe(&check_toml(&by_command("rg x", "ag x", ""))).is_err());
    }

    #[test]
    fn cases_may_be_values_of_another_field() {
        // As cargo-criterion's reader splits `group/function/value`.
        let samples = "{\"function\":\"new\",\"value\":\"64\",\"t\":1}\n{\"function\":\"old\",\"value\":\"64\",\"t\":2}\n{\"function\":\"new\",\"value\":\"1024\",\"t\":9}\n{\"function\":\"old\",\"value\":\"1024\",\"t\":8}\n";
        let f = Fixture::new(&[("c.jsonl", samples)]);
        let body = "kind = \"compare\"\nsamples = \"c.jsonl\"\nselect = {}\nfield = \"t\"\nstatistic = \"median\"\nby = \"function\"\nfaster = \"new\"\nslower = [\"old\"]\ncase-field = \"value\"\ncases = [\"64\", \"1024\"]";
        let obs = f.observe(&check_toml(body)).unwrap();
        assert_eq!(obs.problems, ["1024: new 9.00 is not below old 8.00"]);
        // Without `case-field`, the cases are looked up in `case`, which these records lack.
        assert!(f.observe(&check_toml(&body.replace("case-field = \"value\"\n", ""))).is_err());
    }

    #[test]
    fn ambiguous_cases_and_fields_are_refused_where_written() {
        assert!(parse_error(&by_command("a", "b", "cases = [\"\"]")).contains("cannot be empty"));
        assert!(parse_error(&by_command("a", "b", "case-field = \"command\"\ncases = [\"x\"]")).contains("other than `by`"));
        let fixed = by_command("a", "b", "").replace("select = {}", "select = { command = \"a\" }");
        assert!(parse_error(&fixed).contains("`select` fixes `command`"));
        let fixed = check("[\"a\"]", "").replace("select = {}", "select = { case = \"a\" }");
        assert!(parse_error(&fixed).contains("`select` fixes `case`"));
        // Without cases, `select` may fix what `case-field` would name, but a `case-field`
        // alone names nothing.
        let _ = check_toml(&by_command("a", "b", "").replace("select = {}", "select = { case = \"a\" }"));
        assert!(parse_error(&by_command("a", "b", "case-field = \"value\"")).contains("this check has none"));
    }

    #[test]
    fn a_minimum_ratio_is_enforced() {
        let f = Fixture::new(&[("s.jsonl", SAMPLES)]);
        let obs = f.observe(&check_toml(&check("[\"a\"]", "min-ratio = 2.5"))).unwrap();
        assert_eq!(obs.problems.len(), 1);
    }
}
