//! The review file (`claimcheck review --out FILE`): everything an outside reader needs to
//! trust the article, gathered in one place. This module gathers: the audit, the offline
//! recheck of every quoted latency and ordering, the graph node counts and kernel resource
//! metadata of every run the checks read, and the SHA-256 of every figure the manuscripts
//! show, with what the HTML page lays out beside them: each manuscript's text and its
//! registry's SHA-256, each run's manifest, the figures' bytes, and the newest recheck stored
//! against the runs the checks read. It never decides an outcome (the audit and the recheck
//! do) and never writes (the command does); `report::review` and `report::html` render it.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::article::Article;
use crate::commands::audit::{self, Review};
use crate::diagnostic::Diagnostic;
use crate::evidence::graphs::NodesFile;
use crate::evidence::kernels::KernelInfo;
use crate::evidence::run;
use crate::evidence::store::{Evidence, ReadError};
use crate::paths::PathError;
use crate::recheck;
use crate::report::recheck::{WireRecheck, WireRow};
use crate::status::{Failure, Status};
use crate::workspace::Workspace;

/// What the review file holds, before it is put on the wire.
pub(crate) struct ReviewFile {
    pub audit: Review,
    pub recheck: recheck::Report,
    pub runs: Vec<RunEvidence>,
    pub figures: Vec<Figure>,
    /// One per registry of the audit, in its order: what the audit read.
    pub manuscripts: Vec<Manuscript>,
    /// The newest stored recheck (`recheck.json` of a run) judged against the runs the checks
    /// read, where there is one.
    pub stored_recheck: Option<StoredRecheck>,
    /// The audit's and the recheck's status together.
    pub status: Status,
}

/// A registry's text as the audit read it.
pub(crate) struct Manuscript {
    pub registry: String,
    pub registry_sha256: String,
    /// The manuscript (or the draft in its place), where it could be read.
    pub article: Option<Rc<Article>>,
}

/// A recheck stored in a run directory.
pub(crate) struct StoredRecheck {
    /// The run directory that holds it.
    pub run: String,
    pub rows: Vec<WireRow>,
}

/// A run's `MANIFEST.sha256`: its own SHA-256 and every file it lists.
pub(crate) struct RunManifest {
    pub path: String,
    pub sha256: String,
    /// Path relative to the run, and its SHA-256 as the manifest records it.
    pub files: Vec<(String, String)>,
}

/// A run the checks read: its graphs and kernels, as the run recorded them.
pub(crate) struct RunEvidence {
    pub path: String,
    /// Graph name → node counts by type and setup time (µs), from `graphs/nodes.json`.
    pub graphs: NodesFile,
    /// The kernels of `kernels.json`.
    pub kernels: Vec<KernelInfo>,
    /// `None` when the run has no manifest.
    pub manifest: Option<RunManifest>,
}

/// An image of a manuscript and the SHA-256 of its file.
pub(crate) struct Figure {
    pub manuscript: String,
    /// Root-relative path of the image.
    pub path: String,
    /// The image's address as the manuscript writes it.
    pub dest: String,
    /// `None` when the file is not there (or not inside the root).
    pub sha256: Option<String>,
    pub bytes: Option<Rc<Vec<u8>>>,
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
        // A draft is a copy of the manuscript it stands in for, wherever it lies, so its images
        // are the manuscript's.
        let shown_at = loaded.draft_of.as_deref().unwrap_or(&article.path);
        let dir = shown_at.rsplit_once('/').map_or("", |(d, _)| d);
        for image in &article.images {
            // As GitHub renders a README: `/figs/a.png` is from the repository's root, and an
            // address with a scheme is no file of it (its bytes are not read, so it has no hash).
            let path = match image.strip_prefix('/') {
                Some(from_root) => from_root.to_string(),
                None if image.contains("://") || dir.is_empty() => image.clone(),
                None => format!("{dir}/{image}"),
            };
            let bytes = evidence.bytes(&path).ok();
            let sha256 = bytes.as_ref().map(|b| crate::hash::sha256_hex(b));
            figures.push(Figure { manuscript: article.path.clone(), path, dest: image.clone(), sha256, bytes });
        }
    }
    let manuscripts = ws
        .registries
        .iter()
        .map(|l| Manuscript { registry: l.registry.file.clone(), registry_sha256: crate::hash::sha256_hex(l.registry.source.as_bytes()), article: l.article.clone() })
        .collect();
    let stored_recheck = stored_recheck(evidence, &run_dirs)?;
    let status = audit_status.and(recheck.status());
    Ok(ReviewFile { audit: review, recheck, runs, figures, manuscripts, stored_recheck, status })
}

/// The newest run under `evidence/runs/` whose `recheck.json` judged exactly runs the checks
/// read. Run directories are named by their UTC start, so the newest sorts last.
fn stored_recheck(evidence: &Evidence, read: &BTreeSet<String>) -> Result<Option<StoredRecheck>, Diagnostic> {
    let mut runs: Vec<String> =
        evidence.root().list("evidence/runs").map(|entries| entries.into_iter().map(|(name, _)| format!("evidence/runs/{name}")).collect()).unwrap_or_default();
    runs.sort();
    for run in runs.iter().rev() {
        let path = format!("{run}/recheck.json");
        if !evidence.exists(&path) {
            continue;
        }
        let stored = evidence.json::<WireRecheck>(&path).map_err(|e| e.at(&path))?;
        if !stored.accepted_runs.is_empty() && stored.accepted_runs.iter().all(|r| read.contains(&r.path)) {
            return Ok(Some(StoredRecheck { run: run.clone(), rows: stored.rows.clone() }));
        }
    }
    Ok(None)
}

fn run_evidence(evidence: &Evidence, dir: &str) -> Result<RunEvidence, Diagnostic> {
    let files = run::read(evidence, dir)?;
    let manifest_path = format!("{dir}/MANIFEST.sha256");
    let manifest = match evidence.text(&manifest_path) {
        Ok(text) => {
            let entries = crate::evidence::manifest::parse_manifest(&manifest_path, &text)?;
            Some(RunManifest { sha256: crate::hash::sha256_hex(text.as_bytes()), files: entries.into_iter().map(|e| (e.path, e.sha256)).collect(), path: manifest_path })
        }
        Err(ReadError::Path(PathError::Missing(_))) => None,
        Err(e) => return Err(e.at(&manifest_path)),
    };
    Ok(RunEvidence { path: dir.to_string(), graphs: files.nodes, kernels: files.kernels, manifest })
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
        for file in [
            "claims/graphs-fusion-megakernels.toml",
            "article/graphs-fusion-megakernels.md",
            "evidence/runs/20261205T053553Z-all/summary.json",
            "evidence/runs/20261205T053553Z-all/samples.jsonl",
        ] {
            assert_eq!(opens.get(file), Some(&1), "{file}");
        }
    }
}
