//! The review file (`claimcheck review --out FILE`): everything an outside reader needs to
//! trust the article, gathered in one place. This module gathers: the audit, the offline
//! recheck of every quoted latency and ordering, the graph node counts and kernel resource
//! metadata of every run the checks read, and the SHA-256 of every figure the manuscripts
//! show. It never decides an outcome (the audit and the recheck do) and never writes (the
//! command does); `report::review` renders it.

use std::collections::BTreeSet;

use crate::commands::audit::{self, Review};
use crate::diagnostic::Diagnostic;
use crate::evidence::graphs::NodesFile;
use crate::evidence::kernels::KernelInfo;
use crate::evidence::run;
use crate::evidence::store::Evidence;
use crate::recheck;
use crate::status::{Failure, Status};
use crate::workspace::Workspace;

/// What the review file holds, before it is put on the wire.
pub(crate) struct ReviewFile {
    pub audit: Review,
    pub recheck: recheck::Report,
    pub runs: Vec<RunEvidence>,
    pub figures: Vec<Figure>,
    /// The audit's and the recheck's status together.
    pub status: Status,
}

/// A run the checks read: its graphs and kernels, as the run recorded them.
pub(crate) struct RunEvidence {
    pub path: String,
    /// Graph name → node counts by type and setup time (µs), from `graphs/nodes.json`.
    pub graphs: NodesFile,
    /// The kernels of `kernels.json`.
    pub kernels: Vec<KernelInfo>,
}

/// An image of a manuscript and the SHA-256 of its file.
pub(crate) struct Figure {
    pub manuscript: String,
    /// Root-relative path of the image.
    pub path: String,
    /// `None` when the file is not there (or not inside the root).
    pub sha256: Option<String>,
}

/// Gathers the review of the workspace. Input problems are a failure, and then nothing should
/// be written.
pub(crate) fn gather(ws: &Workspace) -> Result<ReviewFile, Failure> {
    let review = audit::audit(ws);
    let audit_status = review.status()?;
    let recheck = recheck::offline(ws, recheck::Rule::default())?;
    let Some(evidence) = ws.evidence() else { return Err(Failure::Input(ws.diagnostics.clone())) };
    let run_dirs: BTreeSet<String> = review.claims().flat_map(|c| c.checks.iter()).flat_map(|k| k.files.iter()).filter_map(|f| run::run_of(f)).collect();
    let runs = run_dirs.iter().map(|d| run_evidence(evidence, d)).collect::<Result<Vec<_>, _>>()?;
    let mut figures = Vec::new();
    for loaded in &ws.registries {
        let Some(article) = &loaded.article else { continue };
        let dir = article.path.rsplit_once('/').map_or("", |(d, _)| d);
        for image in &article.images {
            let path = if dir.is_empty() { image.clone() } else { format!("{dir}/{image}") };
            let sha256 = evidence.bytes(&path).ok().map(|b| crate::hash::sha256_hex(&b));
            figures.push(Figure { manuscript: article.path.clone(), path, sha256 });
        }
    }
    let status = audit_status.and(recheck.status());
    Ok(ReviewFile { audit: review, recheck, runs, figures, status })
}

fn run_evidence(evidence: &Evidence, dir: &str) -> Result<RunEvidence, Diagnostic> {
    let files = run::read(evidence, dir)?;
    Ok(RunEvidence { path: dir.to_string(), graphs: files.nodes, kernels: files.kernels })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Options;

    #[test]
    fn reviewing_the_shipped_repository_opens_each_file_once() {
        let ws = Workspace::load(&Options { root: env!("CARGO_MANIFEST_DIR").into(), ..Options::default() });
        let file = gather(&ws).unwrap_or_else(|f| panic!("{f:?}"));
        assert!(file.recheck.rows.len() > 20 && !file.runs.is_empty());
        let opens = ws.evidence().unwrap().opens();
        // The registries, manuscripts, locks and every evidence file the checks read.
        assert!(opens.len() > 50, "{opens:?}");
        let twice: Vec<_> = opens.iter().filter(|(_, n)| **n > 1).collect();
        assert!(twice.is_empty(), "opened more than once: {twice:?}");
        for file in ["claims/graphs-fusion-megakernels.toml", "article/graphs-fusion-megakernels.md", "evidence/runs/20261202T102605Z-all/summary.json", "evidence/runs/20261202T102605Z-all/samples.jsonl"] {
            assert_eq!(opens.get(file), Some(&1), "{file}");
        }
    }
}
