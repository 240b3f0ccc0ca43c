//! `claimcheck accept-run RUN`: names a run as one the article uses, in
//! `evidence/accepted.toml`, after checking that the run was accepted when written and that it
//! verifies against its manifest. A rejected run stays rejected.

use std::path::Path;

use crate::evidence::accepted::{self, AcceptedRun};
use crate::evidence::manifest;
use crate::evidence::meta::Meta;
use crate::evidence::store::Evidence;
use crate::paths::Root;
use crate::status::Failure;

/// Accepts `run` (root-relative) and returns the line to print.
pub(crate) fn accept_run(root: &Path, run: &str) -> Result<String, Failure> {
    let root = Root::new(root).map_err(|e| Failure::input(format!("cannot open root {}: {e}", root.display())))?;
    let run = run.trim_end_matches('/');
    root.resolve(run).map_err(|e| Failure::input(format!("run {run}: {e}")))?;
    let evidence = Evidence::new(root);
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
    let (verified, problems) = manifest::verify(&evidence, run, &text, &manifest_path, &[])?;
    if !problems.is_empty() {
        return Err(Failure::input(format!("{run} does not verify against its manifest: {}", problems.join("; "))));
    }
    let mut file = accepted::read(&evidence)?.unwrap_or_default();
    // One accepted run per set of suites: a newer one replaces the older.
    file.run.retain(|r| r.suites != meta.suites && r.path != run);
    file.run.push(AcceptedRun { path: run.to_string(), suites: meta.suites.clone(), manifest_sha256: crate::hash::sha256_hex(text.as_bytes()) });
    file.run.sort_by(|a, b| a.path.cmp(&b.path));
    accepted::write(evidence.root(), &file).map_err(|e| Failure::Internal(anyhow::anyhow!("writing {}: {e}", accepted::PATH)))?;
    Ok(format!("{} now names {run} ({verified} files verified)", accepted::PATH))
}
