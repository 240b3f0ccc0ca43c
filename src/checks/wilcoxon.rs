//! `wilcoxon`: the p-value of a two-sided Wilcoxon signed-rank test of paired samples, as
//! `scipy.stats.wilcoxon(x, y)` computes it with its defaults, optionally Holm-adjusted over a
//! family of such tests, such as the `p-value` column of a paper's table that compares two
//! frameworks problem by problem over the same 30 seeds.
//!
//! What it does: reads the records of `a` and of `b`, each a query as a `utest` side reads one
//! (`samples`, `select`, `field`, and optionally `format`, `records`, `where`, `derive`), pairs
//! them by the field `pair-by` (each key once on each side, the same keys on both), and tests
//! the differences `a − b` in the pairs by scipy's rules (scipy 1.15 and later, which is what a
//! script run in 2025 or 2026 called): exact when there are at most 50 pairs and no tie among
//! the |differences| and no zero difference; with a tie or a zero, every sign flip up to 13
//! pairs and the normal approximation with tie correction past them; zero differences dropped,
//! no continuity correction. So at 30 pairs a single tie or zero switches the test from the
//! exact distribution to the approximation. Yields the p-value, which has no unit. The
//! arithmetic, the scipy source it follows and how versions before 1.15 differ are in
//! [`crate::stats::nonparametric::signed_rank`].
//!
//! With `adjust = { method = "holm", across = "problem" }` the test is repeated, as the script
//! that printed the table loops over its problems, for every value of the field `across` that
//! both sides' records hold (each side's `select` with its own `across` entry replaced, the rest
//! of it and `where` unchanged), and the check yields the Holm-adjusted p-value of the value
//! the two `select`s name (Holm's step-down: the k-th smallest of m multiplied by m − k + 1,
//! capped at 1, never below a smaller one's). A test whose differences are all zero has no
//! p-value past 13 pairs (scipy gives NaN): it is left out of the family, as the VAMOS script's
//! `holm_adjust` leaves NaN out, and the detail says so.
//!
//! Why: a p-value in a comparison table is the number a reader acts on ("significant on 9 of 12
//! problems"); it should be recomputed from the runs it claims to test, by the test that printed
//! it, over the family it was adjusted in.
//!
//! ```toml
//! [[claim]]
//! id = "moead-hv-zdt4-p"
//! cell = { row = "zdt4", column = "p-value", table = "tab:stats_hypervolume_moead" }
//! [[claim.check]]
//! kind = "wilcoxon"
//! a = { samples = "evidence/experiments/benchmark_paper_moead.csv", select = { problem = "zdt4", framework = "VAMOS (numba)" }, field = "hypervolume" }
//! b = { samples = "evidence/experiments/benchmark_paper_moead.csv", select = { problem = "zdt4", framework = "pymoo" }, field = "hypervolume" }
//! pair-by = "seed"
//! adjust = { method = "holm", across = "problem" }
//! ```
//! yields 0.024190764874219894 (the VAMOS paper prints `0.024`). A changed number fails as
//! `FAIL: quoted 0.031, evidence 0.024 (Holm-adjusted p-value, over the 12 tests across
//! problem, of the two-sided Wilcoxon signed-rank test of 30 pairs of hypervolume paired by
//! seed (raw p = 4.032e-3, R⁺ = 369, exact distribution))`. Two sides that do not pair (a seed
//! on one side only) are an error at `pair-by` naming the keys; a seed twice on one side is an
//! error at its record's line; every difference zero is an error (scipy's NaN, printed `nan`).
//!
//! The VAMOS script pairs the two frameworks' values by their order in the file, which is the
//! seed order on both sides in its CSVs; pairing by the key is what its test means, and where
//! the two sides list their keys in different orders the detail says so, since a script that
//! pairs by position then tested other pairs.
//!
//! The Vargha-Delaney Â12 printed beside such a p-value is an unpaired statistic of the same
//! two samples, U/(m·n): it is `utest`'s `statistic = "a12"` (see [`super::utest`]), not a key
//! here, where `pair-by` and `adjust` would mean nothing for it.
//!
//! The recheck passes a p-value over, counted among the checks not rechecked, as it passes
//! `utest`'s: it is the test's statement about the two samples, not a quantity a fresh run
//! should reproduce within a margin.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::utest::Side;
use super::{Context, Observation, query};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::Scalar;
use crate::stats::nonparametric::signed_rank::{SignedRank, holm, wilcoxon};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    /// The first sample: scipy's `x`; the differences are `a − b`.
    pub a: Side,
    /// The second sample: scipy's `y`.
    pub b: Side,
    /// The field whose value pairs a record of `a` with one of `b` (a seed, a run).
    pub pair_by: Spanned<String>,
    /// The family the p-value is adjusted over, where it is.
    #[serde(default)]
    pub adjust: Option<Adjust>,
}

/// `adjust = { method = "holm", across = "problem" }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Adjust {
    /// The one adjustment there is: `"holm"`.
    pub method: Spanned<String>,
    /// The field whose values, each tested, make the family; both `select`s name one of them.
    pub across: Spanned<String>,
}

/// The one adjustment `adjust.method` names.
const HOLM: &str = "holm";

impl Spec {
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.a.samples.get_ref(), self.b.samples.get_ref()]
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        for (name, side) in [("a", &self.a), ("b", &self.b)] {
            // A side is read as `utest` reads one, but a value dropped as an outlier would
            // leave its partner unpaired.
            if let Some(outliers) = &side.outliers {
                return Err((format!("`{name}` drops outliers, and a paired test keeps every pair whole: drop `outliers`"), outliers.span()));
            }
            side.validate()?;
        }
        if self.pair_by.get_ref().is_empty() {
            return Err(("`pair-by` names the field that pairs the records of `a` with those of `b`; it is not empty".into(), self.pair_by.span()));
        }
        let Some(adjust) = &self.adjust else { return Ok(()) };
        if adjust.method.get_ref() != HOLM {
            return Err((
                format!("unknown adjustment `{}`: the one adjustment is \"{HOLM}\" (Holm's step-down, as the VAMOS paper's `holm_adjust` computes it)", adjust.method.get_ref()),
                adjust.method.span(),
            ));
        }
        let across = adjust.across.get_ref();
        if across == self.pair_by.get_ref() {
            return Err((format!("`across` and `pair-by` both name `{across}`: the family is tested across one field, and each test pairs by another"), adjust.across.span()));
        }
        for (name, side) in [("a", &self.a), ("b", &self.b)] {
            if !side.select.get_ref().contains_key(across) {
                return Err((
                    format!("`{name}`'s `select` has no `{across}`: the check yields the adjusted p-value of the `{across}` both sides select, so each names it"),
                    side.select.span(),
                ));
            }
        }
        let (in_a, in_b) = (&self.a.select.get_ref()[across], &self.b.select.get_ref()[across]);
        if !same_value(in_a, in_b) {
            return Err((
                format!("`a` selects `{across}` = {in_a} and `b` selects {in_b}: each test of the family compares the two sides at one value of `{across}`"),
                self.b.select.span(),
            ));
        }
        Ok(())
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let sides = self.sides();
        let Some(adjust) = &self.adjust else {
            let (test, order) = self.paired(ctx, &self.a.select, &self.b.select)?;
            let p = self.defined(ctx, &test)?;
            return Ok(observation(p, format!("p-value of the two-sided Wilcoxon signed-rank test of {} {sides} ({}){order}", test.n, about(&test))));
        };
        let across = adjust.across.get_ref();
        let family = self.family(ctx, across)?;
        let wanted = &self.a.select.get_ref()[across];
        let mut tests = Vec::with_capacity(family.len());
        let mut chosen = None;
        for value in &family {
            let a_select = replaced(&self.a.select, across, value);
            let b_select = replaced(&self.b.select, across, value);
            let tested = self.paired(ctx, &a_select, &b_select).map_err(|mut d| {
                d.message = format!("{} (testing `{across}` = {value}, one of the family Holm adjusts over)", d.message);
                d
            })?;
            if same_value(value, wanted) {
                chosen = Some(tests.len());
            }
            tests.push(tested);
        }
        let Some(chosen) = chosen else {
            // A side's own select keeps no record: its error says which, where it is written.
            self.paired(ctx, &self.a.select, &self.b.select)?;
            return Err(ctx.error_at(
                format!("no record of `a` and of `b` holds `{across}` = {wanted}: it is not among the {} values both sides hold", family.len()),
                self.a.select.span(),
                "selected here",
            ));
        };
        let (test, order) = &tests[chosen];
        let raw = self.defined(ctx, test)?;
        let p_values: Vec<f64> = tests.iter().map(|(t, _)| t.p).collect();
        let adjusted = holm(&p_values)[chosen];
        let counted = p_values.iter().filter(|p| p.is_finite()).count();
        let left_out: Vec<String> = family.iter().zip(&p_values).filter(|(_, p)| !p.is_finite()).map(|(v, _)| v.to_string()).collect();
        let left_out = if left_out.is_empty() { String::new() } else { format!(", {} left out where every difference is zero ({})", left_out.len(), left_out.join(", ")) };
        Ok(observation(
            adjusted,
            format!(
                "Holm-adjusted p-value, over the {counted} tests across {across}{left_out}, of the two-sided Wilcoxon signed-rank test of {} {sides} (raw p = {}, {}){order}",
                test.n,
                shown(raw),
                about(test)
            ),
        ))
    }

    /// "pairs of hypervolume paired by seed", or with the two fields where they differ.
    fn sides(&self) -> String {
        let (a, b, by) = (self.a.field.get_ref(), self.b.field.get_ref(), self.pair_by.get_ref());
        if a == b { format!("pairs of {a} paired by {by}") } else { format!("pairs of {a} and {b} paired by {by}") }
    }

    /// The test of the records the two selects keep, paired by key, and a note where the two
    /// sides list their keys in different orders.
    fn paired(
        &self,
        ctx: &Context<'_>,
        a_select: &Spanned<BTreeMap<String, toml::Value>>,
        b_select: &Spanned<BTreeMap<String, toml::Value>>,
    ) -> Result<(SignedRank, String), Diagnostic> {
        let by = self.pair_by.get_ref();
        let a = query::keyed(ctx, &self.a.query_through(a_select), by)?;
        let b = query::keyed(ctx, &self.b.query_through(b_select), by)?;
        let b_values: BTreeMap<&str, f64> = b.iter().map(|k| (k.key.as_str(), k.value)).collect();
        let only_a: Vec<&str> = a.iter().map(|k| k.key.as_str()).filter(|k| !b_values.contains_key(k)).collect();
        let a_keys: BTreeMap<&str, ()> = a.iter().map(|k| (k.key.as_str(), ())).collect();
        let only_b: Vec<&str> = b.iter().map(|k| k.key.as_str()).filter(|k| !a_keys.contains_key(k)).collect();
        if !only_a.is_empty() || !only_b.is_empty() {
            let mut sides = Vec::new();
            for (name, keys) in [("`a`", &only_a), ("`b`", &only_b)] {
                if !keys.is_empty() {
                    sides.push(format!("{} only on {name} ({})", keys.len(), few(keys)));
                }
            }
            return Err(ctx.error_at(
                format!(
                    "the two sides do not pair by `{by}`: {} of {} and {} records hold a key the other side lacks, {}",
                    only_a.len() + only_b.len(),
                    a.len(),
                    b.len(),
                    sides.join(", ")
                ),
                self.pair_by.span(),
                "paired by this field",
            ));
        }
        // The differences in `a`'s order; the order changes no rank or sum.
        let differences: Vec<f64> = a.iter().map(|k| k.value - b_values[k.key.as_str()]).collect();
        let order = if a.iter().map(|k| &k.key).eq(b.iter().map(|k| &k.key)) {
            String::new()
        } else {
            format!("; the two sides list their {by}s in different orders, so a script that pairs by position tested other pairs")
        };
        Ok((wilcoxon(&differences), order))
    }

    /// The p-value, or the error of a test scipy gives NaN for: every difference zero.
    fn defined(&self, ctx: &Context<'_>, test: &SignedRank) -> Result<f64, Diagnostic> {
        if test.p.is_finite() {
            return Ok(test.p);
        }
        Err(ctx.error_at(
            format!(
                "every one of the {} {} differs by zero: the signed-rank test has no p-value (scipy 1.15 and later give NaN past 13 pairs, earlier versions raise, and a script that catches it prints `nan`)",
                test.n,
                self.sides()
            ),
            self.pair_by.span(),
            "paired by this field",
        ))
    }

    /// The values of `across` that records of both sides hold, in the order `a`'s file first
    /// holds them: each side's `select` without `across`, with its `where`.
    fn family(&self, ctx: &Context<'_>, across: &str) -> Result<Vec<toml::Value>, Diagnostic> {
        let in_a = values_of(&self.a, ctx, across)?;
        let in_b = values_of(&self.b, ctx, across)?;
        Ok(in_a.into_iter().filter(|v| in_b.iter().any(|w| same_value(v, w))).collect())
    }
}

/// The distinct values of `across` among the records `side` keeps without its `across` entry,
/// in file order; a record without it, or with no plain value there, holds none.
fn values_of(side: &Side, ctx: &Context<'_>, across: &str) -> Result<Vec<toml::Value>, Diagnostic> {
    let mut rest = side.select.get_ref().clone();
    rest.remove(across);
    let rest = Spanned::new(side.select.span(), rest);
    let q = side.query_through(&rest);
    let table = query::table(ctx, &q)?;
    let jsonl = &table.jsonl;
    let mut values: Vec<toml::Value> = Vec::new();
    // Seen values by their number or text, so that a file of many values is read in one pass;
    // an integer and a float of the same value are one, as `same_value` says.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for record in query::kept(ctx, &q, jsonl)? {
        let value = match jsonl.get(record, across) {
            Some(Scalar::Str(_)) => toml::Value::String(jsonl.text_of(jsonl.get(record, across))),
            Some(Scalar::Int(i)) => toml::Value::Integer(i),
            Some(Scalar::Float(f)) => toml::Value::Float(f),
            Some(Scalar::Bool(b)) => toml::Value::Boolean(b),
            Some(Scalar::Null | Scalar::Nested) | None => continue,
        };
        let key = match &value {
            toml::Value::Integer(i) => format!("n{}", *i as f64),
            toml::Value::Float(f) => format!("n{f}"),
            toml::Value::String(text) => format!("s{text}"),
            other => format!("o{other}"),
        };
        if seen.insert(key) {
            values.push(value);
        }
    }
    Ok(values)
}

/// A p-value as the check yields it: no unit.
fn observation(p: f64, detail: String) -> Observation {
    Observation { value: Some(p), unit: None, problems: Vec::new(), detail, band: None }
}

/// `R⁺`, the zero differences dropped, and how the p-value was found.
fn about(test: &SignedRank) -> String {
    let zeros = match test.zeros {
        0 => String::new(),
        1 => ", 1 zero difference dropped".to_string(),
        z => format!(", {z} zero differences dropped"),
    };
    format!("R⁺ = {}{zeros}, {}", test.r_plus, test.method)
}

/// A p-value in a sentence: four decimals, or four significant digits below 0.01.
fn shown(p: f64) -> String {
    if p >= 0.01 { format!("{p:.4}") } else { format!("{p:.3e}") }
}

/// Up to five keys, and how many more.
fn few(keys: &[&str]) -> String {
    let shown: Vec<&str> = keys.iter().copied().take(5).collect();
    match keys.len() {
        n if n > 5 => format!("{} and {} more", shown.join(", "), n - 5),
        _ => shown.join(", "),
    }
}

/// `select` with its `across` entry set to `value`.
fn replaced(select: &Spanned<BTreeMap<String, toml::Value>>, across: &str, value: &toml::Value) -> Spanned<BTreeMap<String, toml::Value>> {
    let mut changed = select.get_ref().clone();
    changed.insert(across.to_string(), value.clone());
    Spanned::new(select.span(), changed)
}

/// Whether two values of `across` name the same records: equal, or a whole number written as
/// an integer on one side and a float on the other, as `select` compares them.
fn same_value(a: &toml::Value, b: &toml::Value) -> bool {
    match (a, b) {
        (toml::Value::Integer(i), toml::Value::Float(f)) | (toml::Value::Float(f), toml::Value::Integer(i)) => *i as f64 == *f,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};
    use super::super::{Outcome, judge};
    use crate::article::numbers::Quoted;

    /// Hollander and Wolfe's depression scores, nine patients before (`x`) and after (`y`), one
    /// record each, keyed by `seed`.
    #[allow(clippy::approx_constant)] // 3.14 is a patient's score, not π.
    fn scores() -> String {
        let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30];
        let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
        let mut text = String::new();
        for (side, values) in [("x", x), ("y", y)] {
            for (seed, v) in values.iter().enumerate() {
                text.push_str(&format!("{{\"when\":\"{side}\",\"seed\":{seed},\"score\":{v}}}\n"));
            }
        }
        text
    }

    const CHECK: &str = "kind = \"wilcoxon\"\na = { samples = \"s.jsonl\", select = { when = \"x\" }, field = \"score\" }\nb = { samples = \"s.jsonl\", select = { when = \"y\" }, field = \"score\" }\npair-by = \"seed\"";

    /// 10 of the 2⁹ sign patterns give R⁺ ≥ 40: 20/512, as `stats::nonparametric::signed_rank`
    /// and an enumeration in Python give it.
    #[test]
    fn the_p_value_of_paired_samples() {
        let f = Fixture::new(&[("s.jsonl", &scores())]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.value, Some(0.0390625));
        assert_eq!(obs.unit, None);
        assert_eq!(obs.detail, "p-value of the two-sided Wilcoxon signed-rank test of 9 pairs of score paired by seed (R⁺ = 40, exact distribution)");
    }

    /// Pairs are found by their key, whatever order each side lists them in; the detail says
    /// when the orders differ, since a script pairing by position would have tested others.
    #[test]
    fn records_pair_by_key_not_by_position() {
        let text = scores();
        let (x, y): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.contains("\"x\""));
        let shuffled: String = x.iter().chain(y.iter().rev()).map(|l| format!("{l}\n")).collect();
        let f = Fixture::new(&[("s.jsonl", &shuffled)]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.value, Some(0.0390625));
        assert!(obs.detail.ends_with("; the two sides list their seeds in different orders, so a script that pairs by position tested other pairs"), "{}", obs.detail);
    }

    #[test]
    fn a_key_on_one_side_only_is_an_error_at_pair_by() {
        let text = scores().lines().filter(|l| !(l.contains("\"y\"") && l.contains("\"seed\":3,"))).map(|l| format!("{l}\n")).collect::<String>();
        let f = Fixture::new(&[("s.jsonl", &text)]);
        let err = f.observe(&check_toml(CHECK)).unwrap_err();
        assert_eq!(err.message, "the two sides do not pair by `seed`: 1 of 9 and 8 records hold a key the other side lacks, 1 only on `a` (3)");
    }

    #[test]
    fn a_key_twice_on_one_side_is_an_error_at_its_line() {
        let text = format!("{}{{\"when\":\"y\",\"seed\":4,\"score\":1.0}}\n", scores());
        let f = Fixture::new(&[("s.jsonl", &text)]);
        let err = f.observe(&check_toml(CHECK)).unwrap_err();
        assert!(err.message.contains("`seed` = 4 a second time among the records this side keeps (the first at line 14)"), "{}", err.message);
        assert_eq!(err.position().as_deref(), Some("s.jsonl:19:1"));
        let keyless = format!("{}{{\"when\":\"y\",\"score\":1.0}}\n", scores());
        let f = Fixture::new(&[("s.jsonl", &keyless)]);
        let err = f.observe(&check_toml(CHECK)).unwrap_err();
        assert!(err.message.ends_with("no `seed` to pair this record by"), "{}", err.message);
    }

    /// scipy 1.15 and later: p = 1 by the permutation test up to 13 pairs, NaN past them, which
    /// the check refuses as an error rather than yield a number no table can quote.
    #[test]
    fn every_difference_zero_is_an_error_past_13_pairs() {
        let same = |n: usize| (0..n).flat_map(|s| ["x", "y"].map(|w| format!("{{\"when\":\"{w}\",\"seed\":{s},\"score\":2.5}}\n"))).collect::<String>();
        let f = Fixture::new(&[("s.jsonl", &same(14))]);
        let err = f.observe(&check_toml(CHECK)).unwrap_err();
        assert!(err.message.starts_with("every one of the 14 pairs of score paired by seed differs by zero: the signed-rank test has no p-value"), "{}", err.message);
        let f = Fixture::new(&[("s.jsonl", &same(13))]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert_eq!(obs.value, Some(1.0));
        assert!(obs.detail.contains("13 zero differences dropped, permutation test over every sign flip"), "{}", obs.detail);
    }

    #[test]
    fn bad_keys_are_errors_where_they_are_written() {
        let adjust = |a: &str| format!("{CHECK}\nadjust = {a}");
        let holm = adjust("{ method = \"holm\", across = \"when\" }");
        assert!(parse_error(&adjust("{ method = \"bonferroni\", across = \"when\" }")).contains("unknown adjustment `bonferroni`"));
        assert!(parse_error(&adjust("{ method = \"holm\", across = \"problem\" }")).contains("`a`'s `select` has no `problem`"));
        assert!(parse_error(&adjust("{ method = \"holm\", across = \"seed\" }")).contains("`across` and `pair-by` both name `seed`"));
        assert!(parse_error(&holm).contains("`a` selects `when` = \"x\" and `b` selects \"y\""));
        assert!(parse_error(&adjust("{ method = \"holm\" }")).contains("missing field `across`"));
        assert!(parse_error(&CHECK.replace("pair-by = \"seed\"", "pair-by = \"\"")).contains("it is not empty"));
        assert!(parse_error(&CHECK.replace("\npair-by = \"seed\"", "")).contains("missing field `pair-by`"));
        assert!(
            parse_error(&CHECK.replace("field = \"score\" }\nb", "field = \"score\", outliers = \"tukey\" }\nb")).contains("a paired test keeps every pair whole: drop `outliers`")
        );
        assert!(parse_error(&format!("{CHECK}\nmargin = 0.1")).contains("applies to latency checks"));
    }

    /// Three problems of 14 seeds: p1 and p2 with every difference positive and distinct (each
    /// exact, 2 of 2¹⁴ sign patterns as extreme, p = 2⁻¹³), p3 with every difference zero
    /// (scipy's NaN, left out). Holm over the two: 2·2⁻¹³ for both, 2⁻¹².
    fn family(missing: Option<(&str, u32)>) -> String {
        let mut text = String::new();
        for problem in ["p1", "p2", "p3"] {
            for seed in 0..14u32 {
                let gain = if problem == "p3" { 0.0 } else { f64::from(seed + 1) };
                for (fw, value) in [("new", 10.0 + gain), ("old", 10.0)] {
                    if missing == Some((problem, seed)) && fw == "old" {
                        continue;
                    }
                    text.push_str(&format!("{{\"problem\":\"{problem}\",\"fw\":\"{fw}\",\"seed\":{seed},\"v\":{value}}}\n"));
                }
            }
        }
        text
    }

    fn family_check(problem: &str) -> super::super::Check {
        let side = |fw: &str| format!("{{ samples = \"f.jsonl\", select = {{ problem = \"{problem}\", fw = \"{fw}\" }}, field = \"v\" }}");
        check_toml(&format!("kind = \"wilcoxon\"\na = {}\nb = {}\npair-by = \"seed\"\n{HOLM}", side("new"), side("old")))
    }

    #[test]
    fn a_test_with_every_difference_zero_is_left_out_of_the_family() {
        let f = Fixture::new(&[("f.jsonl", &family(None))]);
        let obs = f.observe(&family_check("p1")).unwrap();
        assert_eq!(obs.value, Some(0.000244140625));
        assert_eq!(
            obs.detail,
            "Holm-adjusted p-value, over the 2 tests across problem, 1 left out where every difference is zero (\"p3\"), of the two-sided Wilcoxon signed-rank test of 14 pairs of v paired by seed (raw p = 1.221e-4, R⁺ = 105, exact distribution)"
        );
        let err = f.observe(&family_check("p3")).unwrap_err();
        assert!(err.message.starts_with("every one of the 14 pairs of v paired by seed differs by zero"), "{}", err.message);
        let err = f.observe(&family_check("p9")).unwrap_err();
        assert!(err.message.contains("select matches no record of f.jsonl"), "{}", err.message);
    }

    /// Another member of the family that does not pair fails the check: its adjusted p-value
    /// depends on every test of the family.
    #[test]
    fn a_member_of_the_family_that_does_not_pair_is_an_error() {
        let f = Fixture::new(&[("f.jsonl", &family(Some(("p2", 5))))]);
        let err = f.observe(&family_check("p1")).unwrap_err();
        assert_eq!(
            err.message,
            "the two sides do not pair by `seed`: 1 of 14 and 13 records hold a key the other side lacks, 1 only on `a` (5) (testing `problem` = \"p2\", one of the family Holm adjusts over)"
        );
    }

    /// The VAMOS paper's MOEA/D data (`examples/vamos-paper`, the authors' CSV at commit
    /// 7f2552d), 30 seeds of 12 problems for each framework.
    const MOEAD: &str = include_str!("../../examples/vamos-paper/evidence/experiments/benchmark_paper_moead.csv");

    /// One problem's test of VAMOS (numba) against pymoo: the p-value, Holm-adjusted over the
    /// problems or not, or the Â12 beside it.
    fn vamos(problem: &str, metric: &str, extra: &str) -> super::super::Check {
        let side = |fw: &str| format!("{{ samples = \"m.csv\", select = {{ problem = \"{problem}\", framework = \"{fw}\" }}, field = \"{metric}\" }}");
        check_toml(&format!("kind = \"wilcoxon\"\na = {}\nb = {}\npair-by = \"seed\"\n{extra}", side("VAMOS (numba)"), side("pymoo")))
    }

    fn a12(problem: &str, metric: &str) -> super::super::Check {
        let side = |fw: &str| format!("{{ samples = \"m.csv\", select = {{ problem = \"{problem}\", framework = \"{fw}\" }}, field = \"{metric}\" }}");
        check_toml(&format!("kind = \"utest\"\nstatistic = \"a12\"\nbase = {}\nnew = {}", side("VAMOS (numba)"), side("pymoo")))
    }

    const HOLM: &str = "adjust = { method = \"holm\", across = \"problem\" }";

    /// The zdt4 row of the paper's MOEA/D hypervolume table, `zdt4 & 0.999 & 0.996 & 0.024 &
    /// 0.73`: the raw p-value is exact (30 pairs, no tie, no zero) and the authors'
    /// `statistical_tests_moead.csv` records it, and the adjusted one, to the bit.
    #[test]
    fn the_vamos_zdt4_cell_is_recomputed() {
        let f = Fixture::new(&[("m.csv", MOEAD)]);
        let raw = f.observe(&vamos("zdt4", "hypervolume", "")).unwrap();
        assert_eq!(raw.value, Some(0.004031794145703316));
        let check = vamos("zdt4", "hypervolume", HOLM);
        let adjusted = f.observe(&check).unwrap();
        assert_eq!(adjusted.value, Some(0.024190764874219894));
        assert_eq!(
            adjusted.detail,
            "Holm-adjusted p-value, over the 12 tests across problem, of the two-sided Wilcoxon signed-rank test of 30 pairs of hypervolume paired by seed (raw p = 4.032e-3, R⁺ = 369, exact distribution)"
        );
        let quote = |value: f64, decimals| Quoted { value, decimals, ..Quoted::default() };
        assert!(matches!(judge(&check, Some(&quote(0.024, 3)), adjusted.clone()), Outcome::Pass { .. }));
        assert!(matches!(judge(&check, Some(&quote(0.031, 3)), adjusted), Outcome::Fail { .. }));
        let effect = f.observe(&a12("zdt4", "hypervolume")).unwrap();
        assert_eq!(effect.value, Some(0.7266666666666667));
        assert!(matches!(judge(&a12("zdt4", "hypervolume"), Some(&quote(0.73, 2)), effect), Outcome::Pass { .. }));
    }

    /// Every p-value and Â12 of the paper's two MOEA/D tables (`paper/manuscript/stats_moead.tex`
    /// at 7f2552d), as the script prints them (`<0.0001` below 0.0001, else three decimals; Â12
    /// with two), and every raw p-value as `statistical_tests_moead.csv` records it. Two of them
    /// (dtlz3's) take the normal approximation, with zero differences among the 30 pairs, and
    /// agree within a few units in the last place; the rest are exact, to the bit.
    #[test]
    fn every_cell_of_the_vamos_moead_tables_is_recomputed() {
        #[rustfmt::skip]
        let rows: [(&str, &str, &str, &str, f64); 24] = [
            ("hypervolume", "zdt1", "<0.0001", "0.99", 1.862645149230957e-09),
            ("hypervolume", "zdt2", "<0.0001", "0.96", 1.862645149230957e-09),
            ("hypervolume", "zdt3", "<0.0001", "0.99", 1.862645149230957e-09),
            ("hypervolume", "zdt4", "0.024", "0.73", 0.004031794145703316),
            ("hypervolume", "zdt6", "<0.0001", "1.00", 1.862645149230957e-09),
            ("hypervolume", "dtlz1", "1.000", "0.57", 0.7151329666376114),
            ("hypervolume", "dtlz2", "<0.0001", "1.00", 1.862645149230957e-09),
            ("hypervolume", "dtlz3", "0.031", "0.64", 0.007645761692991623),
            ("hypervolume", "dtlz4", "1.000", "0.45", 0.9676735773682594),
            ("hypervolume", "dtlz5", "0.210", "0.62", 0.06989291124045849),
            ("hypervolume", "dtlz6", "<0.0001", "0.97", 3.725290298461914e-09),
            ("hypervolume", "dtlz7", "0.024", "0.71", 0.00466480478644371),
            ("igd_plus", "zdt1", "<0.0001", "0.01", 1.862645149230957e-09),
            ("igd_plus", "zdt2", "<0.0001", "0.03", 3.725290298461914e-09),
            ("igd_plus", "zdt3", "<0.0001", "0.01", 1.862645149230957e-09),
            ("igd_plus", "zdt4", "0.022", "0.27", 0.0037444327026605606),
            ("igd_plus", "zdt6", "<0.0001", "0.00", 1.862645149230957e-09),
            ("igd_plus", "dtlz1", "1.000", "0.44", 0.8552717231214046),
            ("igd_plus", "dtlz2", "<0.0001", "0.00", 1.862645149230957e-09),
            ("igd_plus", "dtlz3", "0.073", "0.24", 0.01453801617026329),
            ("igd_plus", "dtlz4", "1.000", "0.54", 1.0),
            ("igd_plus", "dtlz5", "0.220", "0.40", 0.07324407435953617),
            ("igd_plus", "dtlz6", "<0.0001", "0.14", 4.7124922275543213e-07),
            ("igd_plus", "dtlz7", "0.105", "0.30", 0.026228994131088257),
        ];
        let f = Fixture::new(&[("m.csv", MOEAD)]);
        for (metric, problem, p_cell, a12_cell, raw) in rows {
            let adjusted = f.observe(&vamos(problem, metric, HOLM)).unwrap().value.unwrap();
            let printed = if adjusted < 0.0001 { "<0.0001".to_string() } else { format!("{adjusted:.3}") };
            assert_eq!(printed, p_cell, "{metric} {problem}: {adjusted}");
            let effect = f.observe(&a12(problem, metric)).unwrap().value.unwrap();
            assert_eq!(format!("{effect:.2}"), a12_cell, "{metric} {problem}: {effect}");
            let got = f.observe(&vamos(problem, metric, "")).unwrap().value.unwrap();
            if problem == "dtlz3" {
                assert!((got - raw).abs() <= 4.0 * f64::EPSILON * raw, "{metric} {problem}: {got} against {raw}");
            } else {
                assert_eq!(got, raw, "{metric} {problem}");
            }
        }
    }

    /// dtlz3's hypervolume is 0 for many seeds of both frameworks: zero differences, which
    /// scipy drops and which switch it to the normal approximation.
    #[test]
    fn zero_differences_take_the_normal_approximation() {
        let f = Fixture::new(&[("m.csv", MOEAD)]);
        let obs = f.observe(&vamos("dtlz3", "hypervolume", "")).unwrap();
        assert!(obs.detail.contains("zero differences dropped, normal approximation"), "{}", obs.detail);
    }
}
