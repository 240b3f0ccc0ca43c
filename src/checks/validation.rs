//! `validation`: every compared array of a run is within its declared tolerance.
//!
//! What it does: reads a `validation.jsonl` written by the GPU suite and judges each record
//! afresh: no unwritten (poisoned) elements, a finite maximum relative error no larger than the
//! record's own tolerance, and the record's `pass` flag set. Yields the number of records, so
//! that "all 96 comparisons passed" can be checked.
//!
//! Why: a speed figure means nothing if the fast version computes another function; the
//! validation file is the proof, and it must not be trusted on its `pass` flag alone.
//!
//! ```toml
//! [[claim.check]]
//! kind = "validation"
//! number = "96"
//! file = "evidence/runs/r1/validation.jsonl"
//! ```
//! Fails as `line 7: softmax 4096x128 fused y: max rel err 3.1e-4 over tolerance 1e-5`.

use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::evidence::ValidationRecord;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub file: Spanned<String>,
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.file.get_ref().as_str()]
    }

    /// Nothing to check before files are read.
    pub(super) fn validate(&self) -> Result<(), (String, std::ops::Range<usize>)> {
        Ok(())
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let jsonl = ctx.jsonl(&self.file)?;
        // The records are judged once per process, whichever registry asks.
        let judged = ctx.evidence.derived(&format!("validation:{}", self.file.get_ref()), || -> Result<Vec<String>, Diagnostic> {
            let mut problems = Vec::new();
            for record in &jsonl.records {
                let r: ValidationRecord = jsonl.record_as(record, "a validation record")?;
                if !r.holds() {
                    problems.push(format!(
                        "line {}: {} {} {} {}: max rel err {:.3e} (tolerance {:.1e}), {} unwritten, pass={}",
                        record.line, r.suite, r.case, r.variant, r.what, r.max_rel_err, r.tolerance, r.unwritten, r.pass
                    ));
                }
            }
            Ok(problems)
        });
        let mut problems = judged.as_ref().clone()?;
        if jsonl.records.is_empty() {
            problems.push(format!("{} holds no record", self.file.get_ref()));
        }
        let n = jsonl.records.len();
        Ok(Observation { value: Some(n as f64), unit: None, problems, detail: format!("{n} comparisons in {}", self.file.get_ref()), band: None })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml};

    fn record(rel: f64, tol: f64, unwritten: usize, pass: bool) -> String {
        format!(
            "{{\"suite\":\"softmax\",\"case\":\"4096x128\",\"variant\":\"fused\",\"what\":\"y\",\"fixture\":1,\"elements\":10,\"max_abs_err\":0.0,\"max_rel_err\":{rel},\"tolerance\":{tol},\"unwritten\":{unwritten},\"pass\":{pass}}}\n"
        )
    }

    const CHECK: &str = "kind = \"validation\"\nfile = \"v.jsonl\"";

    #[test]
    fn passing_records_count() {
        let text = record(1e-7, 1e-5, 0, true) + &record(2e-7, 1e-5, 0, true);
        let f = Fixture::new(&[("v.jsonl", &text)]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert!(obs.problems.is_empty());
        assert_eq!(obs.value, Some(2.0));
    }

    #[test]
    fn a_record_over_tolerance_fails_even_if_it_says_pass() {
        let f = Fixture::new(&[("v.jsonl", &record(1e-3, 1e-5, 0, true))]);
        let obs = f.observe(&check_toml(CHECK)).unwrap();
        assert!(obs.problems[0].contains("line 1"), "{:?}", obs.problems);
    }

    #[test]
    fn unwritten_elements_fail() {
        let f = Fixture::new(&[("v.jsonl", &record(0.0, 1e-5, 3, true))]);
        assert_eq!(f.observe(&check_toml(CHECK)).unwrap().problems.len(), 1);
    }

    #[test]
    fn an_empty_file_fails() {
        let f = Fixture::new(&[("v.jsonl", "")]);
        assert_eq!(f.observe(&check_toml(CHECK)).unwrap().problems.len(), 1);
    }
}
