//! `figure`: the article's figures are what the evidence says.
//!
//! What it does: reads a provenance file written by `claimcheck figures` and checks, for every
//! figure, that the SVG's SHA-256 is the recorded one, that every plotted label names samples
//! (or a trace) that exist in the recorded run, and that rendering the run afresh gives the
//! same bytes. Yields the number of figures.
//!
//! Why: a chart redrawn by hand, or left behind after the evidence changed, states numbers
//! that no check sees; rendering from the run is the check.
//!
//! ```toml
//! [[claim.check]]
//! kind = "figure"
//! provenance = "article/figures/provenance.toml"
//! ```
//! Fails as `article/figures/softmax.svg differs from a fresh rendering of evidence/runs/…`.

use std::collections::BTreeSet;

use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::figures::Provenance;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub provenance: Spanned<String>,
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.provenance.get_ref().as_str()]
    }

    /// Nothing to check before files are read.
    pub(super) fn validate(&self) -> Result<(), (String, std::ops::Range<usize>)> {
        Ok(())
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        // What a provenance file says of its figures depends on files only, so it is worked out
        // once per process for every registry that checks it; an error is not kept, since it
        // is located in the registry that asked.
        let kept = ctx.evidence.derived(&format!("figure check of {:?}", self.provenance.get_ref()), || self.verify(ctx).ok());
        let (n, problems) = match kept.as_ref() {
            Some(found) => found.clone(),
            None => self.verify(ctx)?,
        };
        Ok(Observation { value: Some(n as f64), unit: None, problems, detail: format!("{n} figures match their run"), band: None })
    }

    /// The number of figures the provenance file lists, and what is wrong with them.
    fn verify(&self, ctx: &Context<'_>) -> Result<(usize, Vec<String>), Diagnostic> {
        let text = ctx.read_text(&self.provenance)?;
        let provenance: Provenance =
            toml::from_str(&text).map_err(|e| Diagnostic::toml(&format!("{}: not a provenance file", self.provenance.get_ref()), self.provenance.get_ref(), &text, &e))?;
        let mut problems = Vec::new();
        let runs: BTreeSet<&str> = provenance.figure.iter().map(|f| f.run.as_str()).collect();
        for run in runs {
            let at = |m: String| ctx.error_at(m, self.provenance.span(), "this provenance");
            ctx.evidence.root().folder(run).map_err(|e| at(format!("{}: run {run}: {e}", self.provenance.get_ref())))?;
            let samples_path = format!("{run}/samples.jsonl");
            let samples = ctx.evidence.jsonl(&samples_path).map_err(|e| at(e.at(&samples_path).message))?;
            // The configurations a run has samples of, read once per process for every check:
            // from the samples the rendering reads where every record is one, else from the
            // records that are.
            let present = ctx.evidence.derived(&format!("configurations of {run}"), || -> BTreeSet<(String, String, String, String)> {
                let key = |s: &crate::evidence::SampleRecord| (s.suite.clone(), s.case.clone(), s.variant.clone(), s.mode.clone());
                match crate::figures::samples(ctx.evidence, run).as_ref() {
                    Ok(typed) => typed.iter().map(key).collect(),
                    Err(_) => samples.records.iter().filter_map(|r| samples.record_as(r, "a sample").ok()).map(|s| key(&s)).collect(),
                }
            });
            // Every registry that checks the figures of a run shares one rendering of it.
            let fresh = ctx.evidence.derived(&format!("figures of {run}"), || crate::figures::render(ctx.evidence, run).map_err(|e| format!("{e:#}")));
            let fresh = fresh.as_ref().as_ref().map_err(|e| at(format!("rendering the figures of {run}: {e}")))?;
            for figure in provenance.figure.iter().filter(|f| f.run == run) {
                let committed = ctx.evidence.bytes(&figure.file).ok();
                match &committed {
                    None => problems.push(format!("{} is missing", figure.file)),
                    Some(bytes) if crate::hash::sha256_hex(bytes.as_slice()) != figure.sha256 => problems.push(format!("{}: sha256 differs from the provenance file", figure.file)),
                    Some(_) => {}
                }
                match fresh.iter().find(|f| format!("article/figures/{}", f.name) == figure.file) {
                    Some(f) if committed.as_deref().map(Vec::as_slice) == Some(f.svg.as_bytes()) => {}
                    Some(_) => problems.push(format!("{} differs from a fresh rendering of {run}", figure.file)),
                    None => problems.push(format!("{} is not a figure that claimcheck renders", figure.file)),
                }
                for label in &figure.label {
                    let found = match &label.trace {
                        Some(trace) => ctx.evidence.exists(trace),
                        None => label.cases.iter().all(|c| present.contains(&(label.suite.clone(), c.clone(), label.variant.clone(), label.mode.clone()))),
                    };
                    if !found {
                        problems.push(format!("{}: label `{}` has no samples in {run}", figure.file, label.label));
                    }
                }
            }
        }
        Ok((provenance.figure.len(), problems))
    }
}
