//! `ttest`: whether two samples differ significantly by Student's two-sample t-test, as pyperf
//! decides it before it prints a comparison, `not significant` in its `compare_to` table, or
//! `Not significant!` under a comparison line.
//!
//! What it does: reads the samples of `base` and of `new`, each a query as a `stat` check reads
//! one (`samples`, `select`, `field`, and optionally `format`, `records`, `where`, `derive`),
//! and computes the t-score of `base` against `new` as pyperf's `_utils.tscore` does: the
//! difference of the means over the square root of twice the pooled variance (the squared
//! deviations of both samples over n₁ + n₂ − 2) divided by n. The difference is significant
//! when |t| reaches the 95 % two-tailed critical value for n₁ + n₂ − 2 degrees of freedom, read
//! from pyperf's own table (`tdist95conf_level`: exact values to 30, then steps down to 1.960
//! from 200). With `min-speed` (pyperf's `--min-speed`, in percent) a change smaller than that,
//! the larger mean over the smaller less one, is not significant either. Yields the t-score, so
//! that a quoted `Significant (t=-40.35)` can be checked too, and fails where the significance
//! is not what `significant` says the text states.
//!
//! pyperf does not test samples of different sizes (its `tscore` refuses them) nor two single
//! values, and calls both significant; so does this check, and its detail says that no test
//! was made. `base` is pyperf's reference file, the first it is given.
//!
//! Why: "not significant" is a claim about the samples like any number, and the one that
//! decides whether a change is reported at all; it should be recomputed by the rule that
//! printed it.
//!
//! ```toml
//! [[claim.check]]
//! kind = "ttest"
//! significant = false
//! base = { samples = "evidence/mult_list_py36.json", select = { name = "[1]*1000" }, field = "time_s" }
//! new = { samples = "evidence/mult_list_py38.json", select = { name = "[1]*1000" }, field = "time_s" }
//! ```
//! Where the samples do differ it fails as `the text says not significant, but Student's
//! two-sample t-test as pyperf makes it finds the difference significant: |t| = 5.21 ≥ 1.980`.
//!
//! The recheck passes it over, as it does a p-value: a test's statement about two samples is not
//! a quantity a fresh run should reproduce within a margin.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::utest::Side;
use super::{Context, Observation, query};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::stats::Samples;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    /// What the text states: `false` for pyperf's `not significant`.
    pub significant: Spanned<bool>,
    /// The first sample: pyperf's reference.
    pub base: Side,
    /// The second sample: the file compared with the reference.
    pub new: Side,
    /// pyperf's `--min-speed`: the smallest change, in percent, that counts as significant.
    #[serde(default)]
    pub min_speed: Option<Spanned<f64>>,
}

/// pyperf's critical values of Student's t at 95 %, two-tailed, for 0 to 30 degrees of freedom
/// (`pyperf/_utils.py`, `_T_DIST_95_CONF_LEVELS`, https://github.com/psf/pyperf).
const T_95: [f64; 31] = [
    0.0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
    2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/// pyperf's `tdist95conf_level`: its table to 30 degrees of freedom, the table's last value to
/// 39, then the steps it writes out.
fn critical_value(df: usize) -> f64 {
    match df {
        200.. => 1.960,
        100.. => 1.984,
        80.. => 1.990,
        60.. => 2.000,
        50.. => 2.009,
        40.. => 2.021,
        31.. => T_95[30],
        _ => T_95[df],
    }
}

/// What the test found.
#[derive(Debug, Clone, PartialEq)]
struct Test {
    significant: bool,
    /// The t-score and critical value, where a test was made.
    t: Option<(f64, f64)>,
    /// The change, the larger mean over the smaller less one, in percent, where `min-speed`
    /// ruled the difference out.
    below_min_speed: Option<f64>,
}

/// pyperf's `is_significant_benchs`, then its `--min-speed` rule.
fn test(base: &Samples, new: &Samples, min_speed: Option<f64>) -> Test {
    let (n1, n2) = (base.len(), new.len());
    let t = (n1 == n2 && n1 > 1).then(|| {
        let df = n1 + n2 - 2;
        let squares = |s: &Samples| {
            let mean = s.mean();
            s.sorted().iter().map(|x| (x - mean) * (x - mean)).sum::<f64>()
        };
        let pooled = (squares(base) + squares(new)) / df as f64;
        let t = (base.mean() - new.mean()) / (2.0 * pooled / n1 as f64).sqrt();
        (t, critical_value(df))
    });
    // pyperf calls a difference significant where it makes no test, and a t-score that is not
    // a number (two samples without spread and the same mean) is no reason to call it
    // significant either way: `abs(nan) >= c` is false in Python, as it is here.
    let mut significant = t.is_none_or(|(t, c)| t.abs() >= c);
    let mut below_min_speed = None;
    if let Some(min) = min_speed {
        let ratio = new.mean() / base.mean();
        let change = (if ratio < 1.0 { 1.0 / ratio } else { ratio } - 1.0) * 100.0;
        if change < min {
            significant = false;
            below_min_speed = Some(change);
        }
    }
    Test { significant, t, below_min_speed }
}

impl Spec {
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.base.file(), self.new.file()]
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        self.base.validate()?;
        self.new.validate()?;
        if let Some(min) = &self.min_speed
            && !(min.get_ref().is_finite() && *min.get_ref() >= 0.0)
        {
            return Err((format!("min-speed is a percentage of at least 0, not {}", min.get_ref()), min.span()));
        }
        Ok(())
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let base = query::samples(ctx, &self.base.query())?;
        let new = query::samples(ctx, &self.new.query())?;
        let found = test(&base, &new, self.min_speed.as_ref().map(|m| *m.get_ref()));
        let (base_field, new_field) = (self.base.field.get_ref(), self.new.field.get_ref());
        let sides = if base_field == new_field {
            format!("{} base against {} new values of {base_field}", base.len(), new.len())
        } else {
            format!("{} base values of {base_field} against {} new values of {new_field}", base.len(), new.len())
        };
        let verdict = if found.significant { "significant" } else { "not significant" };
        let how = match found.t {
            Some((t, c)) => format!("t = {t:.4}, critical value {c:.3} at {} degrees of freedom", base.len() + new.len() - 2),
            None if base.len() != new.len() => "no test made: pyperf calls samples of different sizes significant".to_string(),
            None => "no test made: pyperf calls two single values significant".to_string(),
        };
        let min_speed = match (found.below_min_speed, &self.min_speed) {
            (Some(change), Some(min)) => format!("; a change of {change:.2} % is below min-speed {} %", min.get_ref()),
            _ => String::new(),
        };
        let mut problems = Vec::new();
        if found.significant != *self.significant.get_ref() {
            let says = if *self.significant.get_ref() { "significant" } else { "not significant" };
            let why = match found.t {
                Some((t, c)) if found.below_min_speed.is_none() && found.significant => format!(": |t| = {:.2} ≥ {c:.3}", t.abs()),
                Some((t, c)) if found.below_min_speed.is_none() => format!(": |t| = {:.2} < {c:.3}", t.abs()),
                _ => min_speed.replacen("; ", ": ", 1),
            };
            problems.push(format!("the text says {says}, but Student's two-sample t-test as pyperf makes it finds the difference {verdict}{why}"));
        }
        Ok(Observation {
            value: found.t.map(|(t, _)| t),
            unit: None,
            problems,
            detail: format!("Student's two-sample t-test as pyperf makes it, of {sides} ({how}{min_speed}): {verdict}"),
            band: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};
    use super::super::{Outcome, judge};
    use super::*;
    use crate::article::numbers::Quoted;

    /// pyperf's own test (`test_compare_to` in `pyperf/tests/test_perf_cli.py`): 1.0, 1.5, 2.0
    /// against 1.5, 2.0, 2.5 is `Not significant!`. t = −0.5 / √(2 · 0.25 / 3) = −1.2247, below
    /// the 2.776 of 4 degrees of freedom.
    const PYPERF_TEST: &str = "{\"run\":\"ref\",\"t\":1.0}\n{\"run\":\"ref\",\"t\":1.5}\n{\"run\":\"ref\",\"t\":2.0}\n\
{\"run\":\"changed\",\"t\":1.5}\n{\"run\":\"changed\",\"t\":2.0}\n{\"run\":\"changed\",\"t\":2.5}\n";

    fn check(significant: bool) -> String {
        format!(
            "kind = \"ttest\"\nsignificant = {significant}\nbase = {{ samples = \"s.jsonl\", select = {{ run = \"ref\" }}, field = \"t\" }}\nnew = {{ samples = \"s.jsonl\", select = {{ run = \"changed\" }}, field = \"t\" }}"
        )
    }

    #[test]
    fn pyperf_s_own_not_significant_case_holds_and_the_opposite_claim_fails() {
        let f = Fixture::new(&[("s.jsonl", PYPERF_TEST)]);
        let obs = f.observe(&check_toml(&check(false))).unwrap();
        assert!(obs.problems.is_empty(), "{:?}", obs.problems);
        assert!((obs.value.unwrap() - (-0.5 / (2.0f64 * 0.25 / 3.0).sqrt())).abs() < 1e-12, "{:?}", obs.value);
        assert_eq!(
            obs.detail,
            "Student's two-sample t-test as pyperf makes it, of 3 base against 3 new values of t (t = -1.2247, critical value 2.776 at 4 degrees of freedom): not significant"
        );
        let obs = f.observe(&check_toml(&check(true))).unwrap();
        assert_eq!(obs.problems, ["the text says significant, but Student's two-sample t-test as pyperf makes it finds the difference not significant: |t| = 1.22 < 2.776"]);
    }

    /// A quoted t-score is judged at its decimals, as pyperf prints `Significant (t=-1.22)`.
    #[test]
    fn a_quoted_t_score_is_judged_at_its_decimals() {
        let f = Fixture::new(&[("s.jsonl", PYPERF_TEST)]);
        let c = check_toml(&check(false));
        let quote = |value: f64| Quoted { value, decimals: 2, ..Quoted::default() };
        assert!(matches!(judge(&c, Some(&quote(-1.22)), f.observe(&c).unwrap()), Outcome::Pass { .. }));
        assert!(matches!(judge(&c, Some(&quote(-1.23)), f.observe(&c).unwrap()), Outcome::Fail { .. }));
    }

    /// The critical values follow pyperf's steps, and a clear difference is significant until
    /// `min-speed` asks for more change than there is.
    #[test]
    fn critical_values_and_min_speed_follow_pyperf() {
        assert_eq!(
            [critical_value(1), critical_value(30), critical_value(35), critical_value(40), critical_value(118), critical_value(500)],
            [12.706, 2.042, 2.042, 2.021, 1.984, 1.960]
        );
        let samples = |v: &[f64]| Samples::new(v.to_vec()).unwrap();
        let (a, b) = (samples(&[1.0, 1.01, 0.99, 1.0]), samples(&[1.1, 1.11, 1.09, 1.1]));
        let found = test(&a, &b, None);
        assert!(found.significant && found.t.unwrap().0 < -10.0, "{found:?}");
        let found = test(&a, &b, Some(15.0));
        assert!(!found.significant, "{found:?}");
        assert!((found.below_min_speed.unwrap() - 10.0).abs() < 1e-9);
        assert!(test(&a, &b, Some(5.0)).significant);
        // No test: sizes differ, or one value a side; both called significant as pyperf does.
        assert_eq!(test(&a, &samples(&[1.0, 1.0]), None), Test { significant: true, t: None, below_min_speed: None });
        assert!(test(&samples(&[1.0]), &samples(&[1.0]), None).significant);
    }

    #[test]
    fn samples_of_different_sizes_get_no_test_and_the_detail_says_so() {
        let f = Fixture::new(&[("s.jsonl", &format!("{PYPERF_TEST}{{\"run\":\"changed\",\"t\":3.0}}\n"))]);
        let obs = f.observe(&check_toml(&check(false))).unwrap();
        assert_eq!(obs.value, None);
        assert!(obs.problems[0].starts_with("the text says not significant, but"), "{:?}", obs.problems);
        assert!(obs.detail.contains("no test made: pyperf calls samples of different sizes significant"), "{}", obs.detail);
    }

    #[test]
    fn the_claim_is_required_and_min_speed_is_a_percentage() {
        let no_claim = check(false).replace("significant = false\n", "");
        assert!(parse_error(&no_claim).contains("missing field `significant`"));
        assert!(parse_error(&format!("{}\nmin-speed = -1", check(false))).contains("min-speed is a percentage of at least 0"));
        assert!(parse_error(&check(false).replace("field = \"t\" }\nnew", "field = \"t\", statistic = \"mean\" }\nnew")).contains("unknown field `statistic`"));
    }
}
