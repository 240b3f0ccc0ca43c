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
/// are normally made with the same ones. Its seed too where every quoted run that records one
/// drew the same, so that the fresh run is timed in the shuffled order of the runs it is judged
/// against. Where they drew several (runs made since each run draws its own), no one order is
/// theirs, and replaying the first run's would favour it: the fresh run draws its own seed.
fn settings_of(runs: &[RunInfo]) -> Option<Settings> {
    let mut settings = runs.iter().find_map(|r| r.settings)?;
    let seeds: std::collections::BTreeSet<u64> = runs.iter().filter_map(|r| r.settings.map(|s| s.seed)).collect();
    if seeds.len() > 1 {
        settings.seed = crate::gpu::common::fresh_seed();
    }
    Some(settings)
}

fn paths(runs: &[RunInfo]) -> String {
    runs.iter().map(|r| r.path.as_str()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with_seed(path: &str, seed: u64) -> RunInfo {
        let meta = Meta { settings: Some(Settings { rounds: 21, warmup: 5, seed, validation_fixtures: 2 }), ..Meta::default() };
        RunInfo::from_meta(path, &meta)
    }

    #[test]
    fn a_fresh_run_replays_the_quoted_runs_seed_only_where_they_share_one() {
        let same = [run_with_seed("a", 20261202), run_with_seed("b", 20261202)];
        assert_eq!(settings_of(&same).map(|s| s.seed), Some(20261202));
        // A run that records no settings does not count as another seed.
        let with_none = [RunInfo::from_meta("c", &Meta::default()), run_with_seed("a", 7)];
        assert_eq!(settings_of(&with_none).map(|s| (s.seed, s.rounds)), Some((7, 21)));
        // Runs of several seeds: a fresh one, neither of theirs (a clash has odds of 2 in 2^53).
        let several = [run_with_seed("a", 20261202), run_with_seed("b", 6788103173458806)];
        let seed = settings_of(&several).map(|s| s.seed).unwrap();
        assert!(seed != 20261202 && seed != 6788103173458806, "{seed}");
        assert!(settings_of(&[RunInfo::from_meta("c", &Meta::default())]).is_none());
    }
}
