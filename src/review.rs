//! The review file (`claimcheck review --out FILE`): everything an outside reader needs to
//! trust the article, gathered in one place. This module gathers: the audit, the offline
//! recheck of every quoted latency and ordering, the graph node counts and kernel resource
//! metadata of every run the checks read, and the SHA-256 of every figure the manuscripts
//! show. It never decides an outcome (the audit and the recheck do) and never writes (the
//! command does); `report::review` renders it.

use std::collections::{BTreeMap, BTreeSet};

use crate::audit::{self, Options, Review};
use crate::diagnostic::Diagnostic;
use crate::paths::Root;
use crate::recheck;

/// What the review file holds, before it is put on the wire.
pub struct ReviewFile {
    pub audit: Review,
    pub recheck: recheck::Report,
    pub runs: Vec<RunEvidence>,
    pub figures: Vec<Figure>,
}

/// A run the checks read: its graphs and kernels, as the run recorded them.
pub struct RunEvidence {
    pub path: String,
    /// Graph name → node counts by type and setup time (µs), from `graphs/nodes.json`.
    pub graphs: BTreeMap<String, (BTreeMap<String, u64>, Option<f64>)>,
    /// The objects of `kernels.json`, as written by the run.
    pub kernels: Vec<serde_json::Value>,
}

/// An image of a manuscript and the SHA-256 of its file.
pub struct Figure {
    pub manuscript: String,
    /// Root-relative path of the image.
    pub path: String,
    /// `None` when the file is not there (or not inside the root).
    pub sha256: Option<String>,
}

/// Gathers the review of the registries `options` names. Input problems are returned as
/// diagnostics, and then nothing should be written.
pub fn gather(options: &Options) -> Result<ReviewFile, Vec<Diagnostic>> {
    let review = audit::audit(options);
    let errors = review.errors();
    if !errors.is_empty() {
        return Err(errors);
    }
    let recheck = recheck::offline(&recheck::Options {
        root: options.root.clone(),
        claims: options.claims.clone(),
        seed: recheck::DEFAULT_SEED,
        replicates: recheck::DEFAULT_REPLICATES,
    })?;
    let root = Root::new(&options.root).map_err(|e| vec![Diagnostic::plain(format!("cannot open root {}: {e}", options.root.display()))])?;
    let run_dirs: BTreeSet<String> = review.claims().flat_map(|c| c.checks.iter()).flat_map(|k| k.files.iter()).filter_map(|f| run_of(f)).collect();
    let runs = run_dirs.iter().map(|d| run_evidence(&root, d)).collect::<Result<Vec<_>, _>>().map_err(|d| vec![d])?;
    let mut figures = Vec::new();
    for r in &review.registries {
        let Ok(article) = audit::read_article(&r.manuscript, &root.dir().join(&r.manuscript)) else { continue };
        let dir = r.manuscript.rsplit_once('/').map_or("", |(d, _)| d);
        for image in &article.images {
            let path = if dir.is_empty() { image.clone() } else { format!("{dir}/{image}") };
            let sha256 = root.resolve(&path).ok().and_then(|p| std::fs::read(p).ok()).map(|b| crate::article::sha256_hex(&b));
            figures.push(Figure { manuscript: r.manuscript.clone(), path, sha256 });
        }
    }
    Ok(ReviewFile { audit: review, recheck, runs, figures })
}

/// `evidence/runs/X/...` → `evidence/runs/X`.
fn run_of(file: &str) -> Option<String> {
    let rest = file.strip_prefix("evidence/runs/")?;
    let (run, _) = rest.split_once('/')?;
    Some(format!("evidence/runs/{run}"))
}

fn run_evidence(root: &Root, dir: &str) -> Result<RunEvidence, Diagnostic> {
    let files = crate::evidence::read_run_files(root, dir)?;
    let mut graphs = BTreeMap::new();
    if let Some(serde_json::Value::Object(nodes)) = files.nodes {
        for (name, g) in nodes {
            let counts = g["nodes"].as_object().map(|o| o.iter().filter_map(|(k, v)| Some((k.clone(), v.as_u64()?))).collect()).unwrap_or_default();
            graphs.insert(name, (counts, g["setup_us"].as_f64()));
        }
    }
    let kernels = files.kernels.and_then(|k| k["kernels"].as_array().cloned()).unwrap_or_default();
    Ok(RunEvidence { path: dir.to_string(), graphs, kernels })
}
