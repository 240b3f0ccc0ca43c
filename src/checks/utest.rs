//! `utest`: the p-value of a two-sided Mann-Whitney U test of two samples, such as the
//! `(p=0.001 n=30)` benchstat prints after the change of a benchmark from its base.
//!
//! What it does: reads the samples of `base` and of `new`, each a query as a `stat` check
//! reads one (`samples`, `select`, `field`, and optionally `format`, `records`, `where`,
//! `derive`), and tests whether one tends to be larger than the other, as benchstat does
//! (`benchmath.AssumeNothing.Compare`, go-moremath's `MannWhitneyUTest`): exactly, from the
//! distribution of U, when neither sample has more than 50 values and no value repeats, or
//! neither has more than 25 and some value repeats; otherwise by the normal approximation with
//! tie and continuity correction. So at 30 values a side, one repeated value anywhere switches
//! the test to the approximation. Yields the p-value, which has no unit; every value of both
//! samples the same yields 1, which benchstat reports for a test it cannot make. The arithmetic
//! and the sources it follows are in [`crate::stats::nonparametric`].
//!
//! `base` is the test's first sample, as benchstat passes its base column first: U counts the
//! pairs in which the base value is larger. The two-sided p-value does not depend on the order,
//! except where it comes from the exact distribution given ties, which need not be symmetric.
//!
//! Why: a p-value in a comparison table is a number like any other, and the one people act on
//! ("the change is significant"); it should be recomputed from the samples it claims to test,
//! by the test that printed it.
//!
//! ```toml
//! [[claim.check]]
//! kind = "utest"
//! number = "0.001"
//! base = { samples = "evidence/v0.1.3", format = "go-bench", select = { name = "Benchmark01CallOverhead" }, field = "time_ns" }
//! new = { samples = "evidence/v1.0.0", format = "go-bench", select = { name = "Benchmark01CallOverhead" }, field = "time_ns" }
//! ```
//! A changed number fails as `FAIL: quoted 0.002, evidence 0.001 (p-value of the two-sided
//! Mann-Whitney U test of 30 base against 30 new samples of time_ns (U = 679.5, normal
//! approximation with tie and continuity correction))`. A side is a sample, not a statistic:
//! `statistic`, `summary` and `pool` there are unknown keys, located.
//!
//! benchstat before 2023 (`old time/op … delta`) ran the same test on the values left inside
//! Tukey's fences; `outliers = "tukey"` on both sides drops the same values first
//! ([`crate::stats::fences`]), and the detail says how many each side lost.
//!
//! `statistic = "a12"` yields instead the Vargha-Delaney Â12 of the same two samples: the share
//! of the (base, new) pairs in which the base value is larger, a tie counting ½, which is this
//! test's U over n₁·n₂ (Vargha and Delaney, 2000). Papers print it beside a p-value as its
//! effect size (above 0.5, `base` tends to be larger). It belongs here rather than on the paired
//! `wilcoxon` check, even where it is printed beside that test's p-value: it pairs nothing (it
//! compares every value of one sample with every value of the other) and adjusts nothing, and
//! it is the U this check already computes. The VAMOS paper's `$\hat{A}_{12}$` column is
//! `vargha_delaney_a12(g1, g2)` with `g1` its first framework, so `base` is that framework:
//!
//! ```toml
//! [[claim.check]]
//! kind = "utest"
//! statistic = "a12"
//! base = { samples = "evidence/experiments/benchmark_paper_moead.csv", select = { problem = "zdt4", framework = "VAMOS (numba)" }, field = "hypervolume" }
//! new = { samples = "evidence/experiments/benchmark_paper_moead.csv", select = { problem = "zdt4", framework = "pymoo" }, field = "hypervolume" }
//! ```
//! yields 0.7266666666666667 (654 of the 900 pairs), which the paper prints as `0.73`.
//!
//! The recheck passes a p-value over, counted among the checks not rechecked: it is the
//! test's statement about the two samples, not a quantity a fresh run should reproduce within
//! a margin (under no difference, a fresh run's p-value is uniform on [0, 1]).

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation, query};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::stats::nonparametric::{mann_whitney, vargha_delaney_a12};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    /// The first sample: benchstat's base column.
    pub base: Side,
    /// The second sample: the column compared with the base.
    pub new: Side,
    /// What the check yields: `"p-value"` (the default) or `"a12"`, the Vargha-Delaney effect
    /// size of the two samples.
    #[serde(default)]
    pub statistic: Option<Spanned<String>>,
}

/// `statistic = "a12"`: the Vargha-Delaney Â12 in place of the p-value.
const A12: &str = "a12";

/// `statistic = "p-value"`: the test's p-value, what the check yields by default.
const P_VALUE: &str = "p-value";

/// One sample of the test: the records and field a `stat` check would read, without a
/// statistic.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Side {
    pub samples: Spanned<String>,
    pub select: Spanned<BTreeMap<String, toml::Value>>,
    pub field: Spanned<String>,
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
    /// `"tukey"`: drop the values outside Tukey's fences first, as benchstat before 2023 did.
    #[serde(default)]
    pub outliers: Option<Spanned<String>>,
}

impl Side {
    /// The file this side reads.
    pub(super) fn file(&self) -> &str {
        self.samples.get_ref()
    }

    /// What can be checked of this side before its file is read.
    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        query::validate(&self.query())
    }

    /// The records and field this side reads, as a `stat` check's query.
    pub(super) fn query(&self) -> query::Query<'_> {
        query::Query { outliers: self.outliers.as_ref(), ..self.query_through(&self.select) }
    }

    /// The records and field this side reads through another `select` (a `wilcoxon` family's,
    /// its `across` entry replaced), no value dropped: a paired test keeps every partner.
    pub(super) fn query_through<'a>(&'a self, select: &'a Spanned<BTreeMap<String, toml::Value>>) -> query::Query<'a> {
        query::Query {
            samples: &self.samples,
            format: self.format.as_ref(),
            records: self.records.as_ref(),
            select,
            filter: self.filter.as_ref(),
            derive: &self.derive,
            field: &self.field,
            outliers: None,
        }
    }
}

impl Spec {
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.base.file(), self.new.file()]
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        if let Some(statistic) = &self.statistic
            && ![P_VALUE, A12].contains(&statistic.get_ref().as_str())
        {
            return Err((
                format!("unknown `statistic = \"{}\"`: a `utest` yields \"{P_VALUE}\" (the default) or \"{A12}\" (the Vargha-Delaney effect size, U/(n₁·n₂))", statistic.get_ref()),
                statistic.span(),
            ));
        }
        self.base.validate()?;
        self.new.validate()
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let (base, base_out) = query::fenced(ctx, &self.base.query())?;
        let (new, new_out) = query::fenced(ctx, &self.new.query())?;
        let test = mann_whitney(base.sorted(), new.sorted());
        let (base_field, new_field) = (self.base.field.get_ref(), self.new.field.get_ref());
        let mut sides = if base_field == new_field {
            format!("{} base against {} new samples of {base_field}", test.n1, test.n2)
        } else {
            format!("{} base samples of {base_field} against {} new samples of {new_field}", test.n1, test.n2)
        };
        if self.base.outliers.is_some() || self.new.outliers.is_some() {
            sides.push_str(&format!(" ({base_out} and {new_out} outside Tukey's fences dropped)"));
        }
        if self.statistic.as_ref().is_some_and(|s| s.get_ref() == A12) {
            let a12 = vargha_delaney_a12(base.sorted(), new.sorted());
            let pairs = test.n1 * test.n2;
            return Ok(Observation {
                value: Some(a12),
                unit: None,
                problems: Vec::new(),
                detail: format!("Vargha-Delaney Â12 of {sides}: the share of the {pairs} (base, new) pairs in which base is larger, a tie counting one half (U = {})", test.u),
                band: None,
            });
        }
        Ok(Observation {
            value: Some(test.p),
            unit: None,
            problems: Vec::new(),
            detail: format!("p-value of the two-sided Mann-Whitney U test of {sides} (U = {}, {})", test.u, test.method),
            band: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};
    use super::super::{Outcome, judge};
    use crate::article::numbers::Quoted;

    /// Two runs of one benchmark, four samples each, with a value in both (a tie).
    const RUNS: &str = "{\"run\":\"a\",\"t\":1}\n{\"run\":\"a\",\"t\":2}\n{\"run\":\"a\",\"t\":2}\n{\"run\":\"a\",\"t\":3}\n\
{\"run\":\"b\",\"t\":2}\n{\"run\":\"b\",\"t\":3}\n{\"run\":\"b\",\"t\":3}\n{\"run\":\"b\",\"t\":4}\n{\"run\":\"b\",\"t\":5}\n";

    const CHECK: &str =
        "kind = \"utest\"\nbase = { samples = \"s.jsonl\", select = { run = \"a\" }, field = \"t\" }\nnew = { samples = \"s.jsonl\", select = { run = \"b\" }, field = \"t\" }";

    /// The exact distribution given the ties, as `stats::nonparametric`'s test of these values
    /// computes it: 0.15873015873015872 (10 of the C(9, 4) = 126 splits of the pooled values
    /// give a U of 3 or less, doubled).
    #[test]
    fn the_p_value_of_two_selected_samples() {
        let f = Fixture::new(&[("s.jsonl", RUNS)]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert!((obs.value.unwrap() - 0.15873015873015872).abs() < 1e-15, "{:?}", obs.value);
        assert_eq!(obs.unit, None);
        assert_eq!(obs.detail, "p-value of the two-sided Mann-Whitney U test of 4 base against 5 new samples of t (U = 3, exact distribution given the ties)");
    }

    /// The quote as benchstat prints it holds, and one digit off fails.
    #[test]
    fn a_quoted_p_value_is_judged_at_its_decimals() {
        let f = Fixture::new(&[("s.jsonl", RUNS)]);
        let check = check_toml(CHECK);
        let quote = |value: f64| Quoted { value, decimals: 3, ..Quoted::default() };
        assert!(matches!(judge(&check, Some(&quote(0.159)), f.observe(&check).unwrap()), Outcome::Pass { .. }));
        match judge(&check, Some(&quote(0.158)), f.observe(&check).unwrap()) {
            Outcome::Fail { expected, observed, .. } => assert_eq!((expected.as_deref(), observed.as_deref()), (Some("0.158"), Some("0.159"))),
            other => panic!("{other:?}"),
        }
    }

    /// benchstat before 2023 on the Go team's own test data (`old.txt`, `new.txt`,
    /// `CRC32/poly=IEEE/size=40/align=0-8`) printed `(p=0.000 n=8+10)`: the test of the eight old
    /// values inside the fences against all ten new ones.
    #[test]
    fn with_outliers_dropped_the_test_is_of_the_values_kept() {
        let values = |run: &str, ts: &[f64]| ts.iter().map(|t| format!("{{\"run\":\"{run}\",\"t\":{t}}}\n")).collect::<String>();
        let old = values("a", &[41.0, 43.0, 40.9, 42.3, 41.0, 41.0, 41.3, 40.8, 41.1, 41.2]);
        let new = values("b", &[43.9, 42.3, 42.7, 43.5, 44.9, 42.6, 41.3, 41.2, 41.3, 41.3]);
        let f = Fixture::new(&[("s.jsonl", &format!("{old}{new}"))]);
        let fenced = CHECK.replace("field = \"t\" }", "field = \"t\", outliers = \"tukey\" }");
        let obs = f.observe(&check_toml(&fenced)).unwrap();
        assert!(obs.value.unwrap() < 0.0005, "{:?}", obs.value);
        assert!(
            obs.detail.starts_with("p-value of the two-sided Mann-Whitney U test of 8 base against 10 new samples of t (2 and 0 outside Tukey's fences dropped)"),
            "{}",
            obs.detail
        );
        let all = f.observe(&check_toml(CHECK)).unwrap();
        assert!(all.detail.contains("10 base against 10 new") && !all.detail.contains("Tukey"), "{}", all.detail);
        assert!(super::super::testing::parse_error(&CHECK.replace("field = \"t\" }\nnew", "field = \"t\", outliers = \"trim\" }\nnew")).contains("unknown `outliers"));
    }

    /// Â12 of the same two runs: U = 3 of the 4 × 5 pairs (the 3 beats one 2 and ties two 3s,
    /// each 2 ties the other run's 2), 0.15; `"p-value"` is the default said aloud.
    #[test]
    fn a12_is_u_over_the_pairs() {
        let f = Fixture::new(&[("s.jsonl", RUNS)]);
        let check = check_toml(&format!("{CHECK}\nstatistic = \"a12\""));
        let obs = f.observe(&check).unwrap();
        assert_eq!(obs.value, Some(0.15));
        assert_eq!(
            obs.detail,
            "Vargha-Delaney Â12 of 4 base against 5 new samples of t: the share of the 20 (base, new) pairs in which base is larger, a tie counting one half (U = 3)"
        );
        let quote = Quoted { value: 0.15, decimals: 2, ..Quoted::default() };
        assert!(matches!(judge(&check, Some(&quote), obs), Outcome::Pass { .. }));
        let p = f.observe(&check_toml(&format!("{CHECK}\nstatistic = \"p-value\""))).unwrap();
        assert!((p.value.unwrap() - 0.15873015873015872).abs() < 1e-15, "{:?}", p.value);
        assert!(parse_error(&format!("{CHECK}\nstatistic = \"median\"")).contains("unknown `statistic = \"median\"`: a `utest` yields"));
    }

    #[test]
    fn every_value_the_same_gives_one_as_benchstat_reports_it() {
        let f = Fixture::new(&[("s.jsonl", "{\"run\":\"a\",\"t\":7}\n{\"run\":\"b\",\"t\":7}\n{\"run\":\"b\",\"t\":7}\n")]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.value, Some(1.0));
        assert!(obs.detail.contains("every value equal"), "{}", obs.detail);
    }

    #[test]
    fn a_side_that_selects_nothing_is_an_error_at_its_select() {
        let f = Fixture::new(&[("s.jsonl", RUNS)]);
        let err = f.observe(&check_toml(&CHECK.replace("run = \"b\"", "run = \"c\""))).unwrap_err();
        assert!(err.message.contains("select matches no record of s.jsonl"), "{}", err.message);
    }

    #[test]
    fn a_side_is_a_sample_not_a_statistic() {
        let err = parse_error(&CHECK.replace("field = \"t\" }\nnew", "field = \"t\", statistic = \"median\" }\nnew"));
        assert!(err.contains("unknown field `statistic`"), "{err}");
        let err = parse_error("kind = \"utest\"\nbase = { samples = \"s.jsonl\", select = {}, field = \"t\" }");
        assert!(err.contains("missing field `new`"), "{err}");
        let err = parse_error(&CHECK.replace("field = \"t\" }\nnew", "field = \"t\", format = \"xml\" }\nnew"));
        assert!(err.contains("unknown format `xml`"), "{err}");
        assert!(parse_error(&format!("{CHECK}\nmargin = 0.1")).contains("applies to latency checks"));
    }
}
