//! `recheck --gpu`: the device session of a recheck. It finds the runs the registries' latency
//! and ordering checks quote, asks the GPU suite to measure their suites again with the settings
//! those runs record, judges the fresh samples with the rule of [`crate::recheck`] before
//! anything is written, and has the suite write one new run whose `recheck.json` and
//! `recheck.txt` hold the outcome table. The accepted runs are only read. A fresh run whose
//! validation fails is written as rejected and is not judged.

use std::path::PathBuf;

use super::{Mode, Report, Rule, RunInfo};
use crate::evidence::meta::{self, Meta, Settings};
use crate::gpu::run;
use crate::status::Failure;
use crate::workspace::Workspace;

/// What the session produced: the judgement and where the fresh run was written.
pub(crate) struct Done {
    pub report: Report,
    /// The fresh run, root-relative.
    pub run: String,
}

/// Re-runs the suites the checks depend on and judges the fresh run. `rounds` overrides the
/// accepted runs' round count.
pub(crate) fn run(ws: &Workspace, rule: Rule, peers: &[PathBuf], rounds: Option<u32>) -> Result<Done, Failure> {
    let (targets, not_rechecked) = super::targets(ws)?;
    let Some(files) = ws.evidence() else { return Err(Failure::Input(ws.diagnostics.clone())) };
    if targets.is_empty() {
        return Err(Failure::Usage("the registries hold no latency or ordering checks to recheck".into()));
    }
    let accepted = super::accepted_runs(files, &targets)?;
    let suites = super::suites_needed(&accepted);
    if suites.is_empty() {
        return Err(Failure::Usage(format!("the runs these checks quote ({}) record no suites in their meta.json, so there is nothing to re-run", paths(&accepted))));
    }
    let mut settings = settings_of(&accepted).ok_or_else(|| Failure::Usage(format!("the runs these checks quote ({}) record no timing settings", paths(&accepted))))?;
    if let Some(r) = rounds {
        settings.rounds = r;
    }

    let measured = run::measure(&suites, settings, peers)?;
    let id = run::run_id("recheck");
    let run_path = format!("evidence/runs/{id}");
    let mut extra = Vec::new();
    let mut report = None;
    let mut judgement_failed = None;
    if measured.accepted() {
        let (samples, jsonl) = super::fresh_samples(&run_path, &measured.collected.samples)?;
        files.insert_jsonl(&samples, jsonl);
        let meta = Meta {
            status: Some(meta::ACCEPTED.into()),
            device: Some(measured.device.clone()),
            suites: measured.suites.clone(),
            cases: measured.collected.cases.clone(),
            clocks_before: measured.clocks_before.clone(),
            clocks_after: measured.clocks_after.clone(),
            ..Meta::default()
        };
        let fresh = RunInfo::from_meta(&run_path, &meta);
        let calibration = super::calibration_for(files, rule)?;
        // A run measured is written whatever its judgement does: an input error found while
        // judging it (a check the run cannot serve) must not throw away minutes of device time.
        let rows = match super::against_fresh(rule, &targets, &accepted, files, &fresh, &samples, calibration.as_deref()) {
            Ok(rows) => rows,
            Err(d) => {
                judgement_failed = Some(d);
                Vec::new()
            }
        };
        let r = Report {
            mode: Mode::Fresh,
            seed: rule.seed,
            replicates: rule.replicates,
            method: rule.method,
            alpha: rule.alpha,
            calibration: calibration.is_some().then(|| crate::evidence::calibration::PATH.to_string()),
            accepted,
            fresh: Some(fresh),
            rows,
            not_rechecked,
        };
        if judgement_failed.is_none() {
            extra.push(("recheck.json".to_string(), crate::report::recheck::json(&r).into_bytes()));
            extra.push(("recheck.txt".to_string(), crate::report::recheck::text(&r).into_bytes()));
            report = Some(r);
        }
    }
    let outcome = run::write_as(files.root().dir(), &id, &measured, &extra).map_err(Failure::Internal)?;
    let shown = files.root().relative(&outcome.dir);
    if let Some(d) = judgement_failed {
        return Err(Failure::InputRefused(vec![d], format!("{shown} was written (accepted) but not judged; fix the input and judge it with `recheck --fresh {shown}`")));
    }
    match report {
        Some(report) => Ok(Done { report, run: shown }),
        None => Err(Failure::RunRejected(format!("{shown} was written and not judged: {}", measured.rejected_because.join("; ")))),
    }
}

/// The timing settings of the first quoted run that records them; the runs of one article
/// are normally made with the same ones.
fn settings_of(runs: &[RunInfo]) -> Option<Settings> {
    runs.iter().find_map(|r| r.settings)
}

fn paths(runs: &[RunInfo]) -> String {
    runs.iter().map(|r| r.path.as_str()).collect::<Vec<_>>().join(", ")
}
