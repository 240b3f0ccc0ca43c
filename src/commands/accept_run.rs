//! `claimcheck accept-run RUN [RUN...] [--add]`: names runs as the ones the article uses, in
//! `evidence/accepted.toml`, after checking that each run was accepted when written and that it
//! verifies against its manifest. A rejected run stays rejected. Runs of the same suites are
//! replicates of one another (runs are the unit of replication): the runs named together
//! replace those named before for their suites, unless `--add` keeps them.

use std::path::Path;

use crate::evidence::accepted::{self, AcceptedRun};
use crate::evidence::manifest;
use crate::evidence::meta::Meta;
use crate::evidence::store::Evidence;
use crate::paths::Root;
use crate::status::Failure;

/// Accepts `runs` (root-relative) as replicates and returns the line to print; nothing is
/// written unless every run can be accepted.
pub(crate) fn accept_runs(root: &Path, runs: &[String], add: bool) -> Result<String, Failure> {
    let root = Root::new(root).map_err(|e| Failure::input(format!("cannot open root {}: {e}", root.display())))?;
    let evidence = Evidence::new(root);
    let mut accepted = Vec::new();
    let mut lines = Vec::new();
    for run in runs {
        let (entry, verified) = check(&evidence, run.trim_end_matches('/'))?;
        lines.push(format!("{} ({verified} files verified)", entry.path));
        accepted.push(entry);
    }
    let mut file = accepted::read(&evidence)?.unwrap_or_default();
    if !add {
        // A new set of runs replaces the older runs of the same suites.
        file.run.retain(|r| !accepted.iter().any(|a| a.suites == r.suites));
    }
    file.run.retain(|r| !accepted.iter().any(|a| a.path == r.path));
    file.run.extend(accepted);
    file.run.sort_by(|a, b| a.path.cmp(&b.path));
    accepted::write(evidence.root(), &file).map_err(|e| crate::status::Failure::writing(accepted::PATH, e))?;
    Ok(format!("{} now names {}", accepted::PATH, lines.join(", ")))
}

/// Checks one run: accepted when written, and verifying against its manifest.
fn check(evidence: &Evidence, run: &str) -> Result<(AcceptedRun, usize), Failure> {
    evidence.root().folder(run).map_err(|e| Failure::input(format!("run {run}: {e}")))?;
    let meta_path = format!("{run}/meta.json");
    let meta = evidence.json::<Meta>(&meta_path).map_err(|e| e.at(&meta_path))?;
    if !meta.is_accepted() {
        return Err(Failure::input(format!("{run} is marked `{}`; a rejected run stays rejected and cannot be named for the article", meta.status_name())));
    }
    // A samples file that does not read is located in it, before the manifest says only that
    // its hash differs.
    let samples_path = format!("{run}/samples.jsonl");
    evidence.jsonl(&samples_path).map_err(|e| e.at(&samples_path))?;
    let manifest_path = format!("{run}/MANIFEST.sha256");
    let text = evidence.text(&manifest_path).map_err(|e| e.at(&manifest_path))?;
    let (verified, problems) = manifest::verify(evidence, run, &text, &manifest_path, &[])?;
    if !problems.is_empty() {
        return Err(Failure::input(format!("{run} does not verify against its manifest: {}", problems.join("; "))));
    }
    Ok((AcceptedRun { path: run.to_string(), suites: meta.suites.clone(), manifest_sha256: crate::hash::sha256_hex(text.as_bytes()) }, verified))
}
