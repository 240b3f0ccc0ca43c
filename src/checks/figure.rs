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
use crate::diagnostic::Diagnostic;
use crate::figures::Provenance;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Spec {
    pub provenance: Spanned<String>,
}

impl Spec {
    pub(super) fn observe(&self, ctx: &Context<'_>) -> Result<Observation, Diagnostic> {
        let text = ctx.read_text(&self.provenance)?;
        let provenance: Provenance = toml::from_str(&text).map_err(|e| Diagnostic::toml(&format!("{}: not a provenance file", self.provenance.get_ref()), self.provenance.get_ref(), &text, &e))?;
        let mut problems = Vec::new();
        let runs: BTreeSet<&str> = provenance.figure.iter().map(|f| f.run.as_str()).collect();
        for run in runs {
            let at = |m: String| ctx.error_at(m, self.provenance.span(), "this provenance");
            let dir = ctx.root.resolve(run).map_err(|e| at(format!("{}: run {run}: {e}", self.provenance.get_ref())))?;
            let samples = std::fs::read_to_string(dir.join("samples.jsonl")).map_err(|e| at(format!("reading {run}/samples.jsonl: {e}")))?;
            let present: BTreeSet<(String, String, String, String)> = samples
                .lines()
                .filter_map(|l| serde_json::from_str::<crate::evidence::SampleRecord>(l).ok())
                .map(|s| (s.suite, s.case, s.variant, s.mode))
                .collect();
            let fresh = crate::figures::render(ctx.root.dir(), run).map_err(|e| at(format!("rendering the figures of {run}: {e:#}")))?;
            for figure in provenance.figure.iter().filter(|f| f.run == run) {
                let committed = ctx.root.resolve(&figure.file).ok().and_then(|p| std::fs::read(p).ok());
                match &committed {
                    None => problems.push(format!("{} is missing", figure.file)),
                    Some(bytes) if crate::article::sha256_hex(bytes) != figure.sha256 => {
                        problems.push(format!("{}: sha256 differs from the provenance file", figure.file))
                    }
                    Some(_) => {}
                }
                match fresh.iter().find(|f| format!("article/figures/{}", f.name) == figure.file) {
                    Some(f) if committed.as_deref() == Some(f.svg.as_bytes()) => {}
                    Some(_) => problems.push(format!("{} differs from a fresh rendering of {run}", figure.file)),
                    None => problems.push(format!("{} is not a figure that claimcheck renders", figure.file)),
                }
                for label in &figure.label {
                    let found = match &label.trace {
                        Some(trace) => ctx.root.resolve(trace).is_ok(),
                        None => label.cases.iter().all(|c| present.contains(&(label.suite.clone(), c.clone(), label.variant.clone(), label.mode.clone()))),
                    };
                    if !found {
                        problems.push(format!("{}: label `{}` has no samples in {run}", figure.file, label.label));
                    }
                }
            }
        }
        let n = provenance.figure.len();
        Ok(Observation { value: Some(n as f64), unit: None, problems, detail: format!("{n} figures match their run") })
    }
}
