//! `recheck --gpu`: the device session of a recheck. It finds the runs the registries' latency
//! and ordering checks quote, re-runs their suites with the settings those runs record, judges
//! the fresh samples with [`crate::recheck`] before anything is written, and writes one new run
//! whose `recheck.json` and `recheck.txt` hold the outcome table. The accepted runs are only
//! read. A fresh run whose validation fails is written as rejected and is not judged.

use std::path::{Path, PathBuf};

use super::common::Settings;
use super::run::{self, RunError};
use crate::paths::Root;
use crate::jsonl::JsonlCache;
use crate::recheck::{self, Mode, Options, Report, RunInfo};

/// What the session produced.
pub struct Done {
    /// The fresh run directory.
    pub dir: PathBuf,
    /// The judgement; `None` when the fresh run was rejected.
    pub report: Option<Report>,
    pub rejected_because: Vec<String>,
}

/// Re-runs the suites the checks depend on and judges the fresh run. `rounds` overrides the
/// accepted runs' round count.
pub fn run(options: &Options, peers: &[PathBuf], rounds: Option<u32>) -> Result<Done, RunError> {
    let bad = |m: String| RunError::BadInput(m);
    let root = Root::new(&options.root).map_err(|e| bad(format!("cannot open root {}: {e}", options.root.display())))?;
    let (targets, not_rechecked) = recheck::targets(&root, &options.claims).map_err(|ds| bad(ds.iter().map(|d| d.render()).collect::<Vec<_>>().join("\n\n")))?;
    if targets.is_empty() {
        return Err(bad("the registries hold no latency or ordering checks to recheck".into()));
    }
    let accepted = recheck::accepted_runs(&root, &targets).map_err(|d| bad(d.render()))?;
    let suites = recheck::suites_needed(&accepted);
    if suites.is_empty() {
        return Err(bad(format!("the runs these checks quote ({}) record no suites in their meta.json, so there is nothing to re-run", paths(&accepted))));
    }
    let mut settings = settings_of(&accepted).ok_or_else(|| bad(format!("the runs these checks quote ({}) record no timing settings", paths(&accepted))))?;
    if let Some(r) = rounds {
        settings.rounds = r;
    }

    let measured = run::measure(&suites, settings, peers)?;
    let id = run::run_id("recheck");
    let run_path = format!("evidence/runs/{id}");
    let mut extra = Vec::new();
    let mut report = None;
    if measured.accepted() {
        let files = JsonlCache::new(&root);
        let (samples, jsonl) = recheck::fresh_samples(&run_path, &measured.collected.samples).map_err(|d| RunError::Failed(anyhow::anyhow!(d.render())))?;
        files.insert(samples.clone(), jsonl);
        let meta = serde_json::json!({ "status": "accepted", "device": measured.device, "suites": measured.suites });
        let fresh = RunInfo::from_meta(&run_path, &meta);
        let rows = recheck::against_fresh(options, &targets, &accepted, &files, &fresh, &samples).map_err(|d| RunError::Failed(anyhow::anyhow!(d.render())))?;
        let r = Report { mode: Mode::Fresh, seed: options.seed, replicates: options.replicates, accepted, fresh: Some(fresh), rows, not_rechecked };
        extra.push(("recheck.json".to_string(), crate::report::recheck::json(&r).into_bytes()));
        extra.push(("recheck.txt".to_string(), crate::report::recheck::text(&r).into_bytes()));
        report = Some(r);
    }
    let outcome = run::write_as(Path::new(&options.root), &id, &measured, &extra)?;
    Ok(Done { dir: outcome.dir, report, rejected_because: measured.rejected_because })
}

/// The timing settings of the first quoted run that records them; the runs of one article
/// are normally made with the same ones.
fn settings_of(runs: &[RunInfo]) -> Option<Settings> {
    runs.iter().find_map(|r| r.settings.as_ref().and_then(|s| serde_json::from_value(s.clone()).ok()))
}

fn paths(runs: &[RunInfo]) -> String {
    runs.iter().map(|r| r.path.as_str()).collect::<Vec<_>>().join(", ")
}
