//! `claimcheck calibrate RUN RUN [RUN...]`: runs of unchanged code taken as A/A pairs. Per
//! configuration and field it measures how much the runs' medians differ (the coefficient of
//! variation, and σ, the spread of ln median between runs beyond what the rounds inside a run
//! explain), then judges every pair of runs by the recheck's rule as if one were the accepted
//! run and the other a fresh one, and counts how often that rule calls unchanged code a
//! MISMATCH or INCONCLUSIVE. It proposes for each configuration the smallest margin at which
//! its A/A pairs MATCH at the target rate. It decides; `report::calibration` lays it out.
//!
//! σ between runs: with mᵣ = ln median of run r and wᵣ the variance of mᵣ over resampled rounds
//! of run r, σ² = max(0, var(mᵣ) − mean(wᵣ)); the rule adds σ to a one-run side.
//!
//! Each pair of runs is one family (every configuration the two share, one field), controlled
//! by Holm as a recheck's table is. Every pair is judged twice: with σ measured on all the runs
//! (in-sample: what the committed file gives the recheck), and with σ measured without the two
//! runs judged (held out, where two other runs remain), which shows whether σ generalises.
//! Configurations whose code differs between runs are not A/A pairs there: the runs that share
//! the code most runs have are used, the others are listed as excluded. A configuration's code
//! is its case's dispatch record and, where that names kernels (the softmax suites), each
//! one's instructions in the run's `ptx/softmax.ptx`, as `bench-report` compares runs: a kernel
//! changed under its old name is other code. The pointwise and scheduling suites name no
//! kernel, so their code is every entry of their own module (`ptx/<suite>.ptx`) where the run
//! kept it. Runs that took a configuration's buffer sets otherwise (`rotation`) were timed by
//! another protocol and are not A/A pairs either.

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::family::{self, Claim, Trial};
use super::hierarchical::{Side, between, parallel_map, percentile_interval, ratio_distribution, variance_of};
use super::{ByRound, CONFIDENCE, DEFAULT_MARGIN, DEFAULT_SEED, row_seed};
use crate::evidence::calibration::{CalibrationFile, CalibrationRule, ConfigurationCalibration, Rates, SCHEMA_VERSION};
use crate::evidence::meta::{CaseMeta, Meta, SetsTaken, ShuffleOrder};
use crate::evidence::ptx;
use crate::evidence::store::Evidence;
use crate::paths::Root;
use crate::stats::{Statistic, quantile_sorted};
use crate::status::Failure;

/// The share of A/A pairs that must MATCH at a configuration's proposed margin.
pub(crate) const TARGET_MATCH_RATE: f64 = 0.90;
/// The fields calibrated: host completion and device time.
const FIELDS: [&str; 2] = ["host_us", "device_us"];
/// Resamples of one run's rounds for the within-run variance of its median.
pub(super) const WITHIN_REPLICATES: usize = 1000;

/// What to calibrate with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    pub seed: u64,
    /// Resamples per A/A judgement; raised to what Holm's smallest level needs.
    pub replicates: usize,
    pub margin: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options { seed: DEFAULT_SEED, replicates: 4000, margin: DEFAULT_MARGIN }
    }
}

/// One configuration and field across the runs that hold it with the same dispatch.
struct Config {
    key: [String; 5],
    /// Indices into the runs, and each run's values by round.
    runs: Vec<(usize, ByRound)>,
    log_medians: Vec<f64>,
    within_var: Vec<f64>,
    /// How many shuffled orders the runs kept were timed in.
    orders: usize,
    /// How the runs kept took their buffer sets (all alike: runs that took them otherwise are
    /// not kept).
    sets: SetsTaken,
}

/// What a configuration ran: its case's dispatch record, where one is kept, and instructions:
/// those of the kernels it names, or, where it names none, of every kernel in the suite's own
/// module (empty for a run that kept no module).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct CaseCode {
    dispatch: Option<String>,
    instructions: Vec<String>,
}

/// What a configuration's samples are replicates of: how its invocations took their buffer sets
/// (a part of the protocol), and the code its case ran.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Identity {
    sets: SetsTaken,
    code: CaseCode,
}

/// The suites whose cases record no kernel by name, with the module (`ptx/<name>.ptx`) that
/// holds every kernel they launch.
const WHOLE_MODULE: [&str; 2] = ["pointwise", "scheduling"];

/// Each case's code in `run` by (suite, case): the dispatch its `meta.json` records, with the
/// instructions of the kernels it names read from `ptx/softmax.ptx`, or, for a suite whose
/// record names none, those of every entry of its own module where the run kept it. A named
/// kernel the module lacks is bad input.
fn case_codes<'m>(evidence: &Evidence, run: &str, meta: &'m Meta) -> Result<BTreeMap<(String, String), (&'m CaseMeta, CaseCode)>, Failure> {
    let ptx_path = format!("{run}/ptx/softmax.ptx");
    let mut out = BTreeMap::new();
    for case in &meta.cases {
        let kernels = case.dispatch.as_deref().map(ptx::kernel_names).unwrap_or_default();
        let instructions = if !kernels.is_empty() {
            // The reader keeps the module once read, so each case asks it again.
            let text = evidence.text(&ptx_path).map_err(|e| e.at(&ptx_path))?;
            ptx::instruction_hashes(&text, &kernels)
                .map_err(|kernel| Failure::input(format!("{ptx_path}: no entry `{kernel}`, which {run}/meta.json names as dispatched at {} {}", case.suite, case.case)))?
        } else if WHOLE_MODULE.contains(&case.suite.as_str()) {
            let module = format!("{run}/ptx/{}.ptx", case.suite);
            match evidence.root().kind(&module) {
                // Runs from before modules were kept are compared by their dispatch alone,
                // whether they kept a `ptx` folder or none.
                Ok(None) | Err(crate::paths::PathError::Missing(_)) => Vec::new(),
                Ok(Some(_)) => ptx::module_hashes(&evidence.text(&module).map_err(|e| e.at(&module))?),
                Err(e) => return Err(Failure::input(format!("{module}: {e}"))),
            }
        } else {
            Vec::new()
        };
        let code = CaseCode { dispatch: case.dispatch.clone(), instructions };
        out.insert((case.suite.clone(), case.case.clone()), (case, code));
    }
    Ok(out)
}

/// Calibrates `runs` (root-relative run directories).
pub(crate) fn calibrate(root: &Path, runs: &[String], options: Options) -> Result<CalibrationFile, Failure> {
    let root = Root::new(root).map_err(|e| Failure::input(format!("cannot open root {}: {e}", root.display())))?;
    let evidence = Evidence::new(root);
    let runs: Vec<String> = runs.iter().map(|r| r.trim_end_matches('/').to_string()).collect();
    if runs.len() < 2 {
        return Err(Failure::Usage("calibrate needs at least two runs of unchanged code".into()));
    }
    for (i, r) in runs.iter().enumerate() {
        if runs[..i].contains(r) {
            return Err(Failure::Usage(format!("{r} is named twice; each run is one replicate")));
        }
        evidence.root().folder(r).map_err(|e| Failure::input(format!("run {r}: {e}")))?;
    }

    // Every run's configurations, by key: each run's values by round, with the code its case ran
    // and the shuffled order it was timed in.
    let mut by_key: BTreeMap<[String; 5], Vec<(usize, Identity, ByRound, ShuffleOrder)>> = BTreeMap::new();
    for (idx, run) in runs.iter().enumerate() {
        let meta_path = format!("{run}/meta.json");
        let meta = evidence.json::<Meta>(&meta_path).map_err(|e| e.at(&meta_path))?;
        // A run its own validation did not accept is no replicate of the code it ran.
        if let Some(why) = meta.not_accepted_because() {
            return Err(Failure::input(format!("{run} is {why}: only accepted runs are calibrated")));
        }
        let cases = case_codes(&evidence, run, &meta)?;
        let samples = format!("{run}/samples.jsonl");
        let jsonl = evidence.jsonl(&samples).map_err(|e| e.at(&samples))?;
        let by: Vec<String> = ["suite", "case", "variant", "mode"].map(String::from).to_vec();
        for (group, records) in jsonl.groups(&by) {
            let case = cases.get(&(group[0].clone(), group[1].clone()));
            let d = Identity {
                // A case the harness did not record was the peer script's alone: its count of
                // sets is the script's, where it records one.
                sets: case.map_or_else(|| meta.peer_sets(&group[1], 1), |(c, _)| meta.sets_of(c, &group[2])),
                code: case.map(|(_, code)| code.clone()).unwrap_or(CaseCode { dispatch: None, instructions: Vec::new() }),
            };
            let order = case.map_or_else(|| meta.peer_order(), |(c, _)| meta.order_of(c, &group[2]));
            for field in FIELDS {
                // A sample that is not a number, or has no round, is bad input to say where it
                // is, not a configuration to leave out without a word.
                let values = ByRound::from_records(&jsonl, &records, field, Statistic::Median).map_err(Failure::from)?;
                let key = [group[0].clone(), group[1].clone(), group[2].clone(), group[3].clone(), field.to_string()];
                by_key.entry(key).or_default().push((idx, d.clone(), values, order.clone()));
            }
        }
    }

    let mut excluded = Vec::new();
    let mut configs = Vec::new();
    for (key, mut entries) in by_key {
        // The code most runs share; runs with other code are not replicates of these.
        let mut counts: BTreeMap<Identity, usize> = BTreeMap::new();
        for (_, d, _, _) in &entries {
            *counts.entry(d.clone()).or_default() += 1;
        }
        let Some(best) = counts.iter().max_by_key(|(_, n)| **n).map(|(d, _)| d.clone()) else { continue };
        let shown = key.join(" ");
        let (kept, other): (Vec<_>, Vec<_>) = entries.drain(..).partition(|(_, d, _, _)| *d == best);
        let (other_rotation, other_code): (Vec<_>, Vec<_>) = other.iter().partition(|(_, d, _, _)| d.sets != best.sets);
        let dispatch_of = |d: &Identity| d.code.dispatch.clone();
        let (other_dispatch, other_instructions): (Vec<_>, Vec<_>) = other_code.into_iter().partition(|(_, d, _, _)| dispatch_of(d) != dispatch_of(&best));
        let rotation_words = format!("took its buffer sets otherwise than the runs kept, which took them {}", best.sets.shown());
        for (list, what) in [
            (other_rotation, rotation_words.as_str()),
            (other_dispatch, "ran another kernel dispatch"),
            (other_instructions, "ran other instructions under the same dispatch (or, where none names kernels, in its suite's module)"),
        ] {
            if !list.is_empty() {
                let names: Vec<&str> = list.iter().map(|(i, _, _, _)| runs[*i].as_str()).collect();
                excluded.push(format!("{shown}: {} {what}", names.join(", ")));
            }
        }
        if kept.len() < 2 {
            excluded.push(format!("{shown}: in fewer than two runs with the same dispatch"));
            continue;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(row_seed(options.seed, &[&shown, "within"]));
        let distinct: std::collections::BTreeSet<&ShuffleOrder> = kept.iter().map(|(_, _, _, order)| order).collect();
        let mut config = Config { orders: distinct.len(), sets: best.sets, key, runs: Vec::new(), log_medians: Vec::new(), within_var: Vec::new() };
        for (idx, _, values, _) in kept {
            let run = vec![vec![values.clone()]];
            let (log_median, within) = Side::new(&run, &identity).log_value_and_within(0, 0, &mut rng, WITHIN_REPLICATES);
            config.log_medians.push(log_median);
            config.within_var.push(within);
            config.runs.push((idx, values));
        }
        configs.push(config);
    }
    if configs.is_empty() {
        return Err(Failure::input(format!("the runs {} share no configuration to calibrate", runs.join(", "))));
    }

    // Every A/A judgement, grouped into families: one per pair of runs and field.
    let mut jobs: Vec<Job> = Vec::new();
    for (c, config) in configs.iter().enumerate() {
        let held_idx: Vec<usize> = config.runs.iter().map(|(i, _)| *i).collect();
        for a in 0..config.runs.len() {
            for b in a + 1..config.runs.len() {
                let (ia, ib) = (held_idx[a], held_idx[b]);
                let others: Vec<usize> = (0..config.runs.len()).filter(|k| *k != a && *k != b).collect();
                let held_out = (others.len() >= 2)
                    .then(|| between(&others.iter().map(|k| config.log_medians[*k]).collect::<Vec<_>>(), &others.iter().map(|k| config.within_var[*k]).collect::<Vec<_>>()));
                jobs.push(Job { config: c, a, b, family: (ia, ib, config.key[4].clone()), spread: between(&config.log_medians, &config.within_var), held_out, out: None });
            }
        }
    }
    let mut family_sizes: BTreeMap<(usize, usize, String), usize> = BTreeMap::new();
    for j in &jobs {
        *family_sizes.entry(j.family.clone()).or_default() += 1;
    }
    let largest = family_sizes.values().copied().max().unwrap_or(1);
    let replicates = options.replicates.max(family::replicates_needed(largest, family::FAMILY_ALPHA));
    run_jobs(&mut jobs, &configs, &runs, options, replicates, &family_sizes);

    // Holm per family, in-sample and held out.
    let mut outcome: Vec<[Option<Claim>; 2]> = vec![[None; 2]; jobs.len()];
    for fam in family_sizes.keys() {
        let members: Vec<usize> = (0..jobs.len()).filter(|&j| &jobs[j].family == fam).collect();
        for (slot, pick) in [0usize, 1].into_iter().zip([false, true]) {
            let with: Vec<usize> = members.iter().copied().filter(|&j| jobs[j].out.as_ref().is_some_and(|o| if pick { o.held_out.is_some() } else { true })).collect();
            let trials: Vec<Trial> = with.iter().filter_map(|&j| jobs[j].out.as_ref().and_then(|o| if pick { o.held_out.map(|h| h.0) } else { Some(o.in_sample.0) })).collect();
            for (&j, d) in with.iter().zip(family::holm(&trials, family::FAMILY_ALPHA)) {
                outcome[j][slot] = Some(d.claim);
            }
        }
    }

    let mut in_sample = Rates::default();
    let mut held_out = Rates::default();
    let mut entries = Vec::new();
    for (c, config) in configs.iter().enumerate() {
        let mine: Vec<usize> = (0..jobs.len()).filter(|&j| jobs[j].config == c).collect();
        let mut rates = Rates::default();
        let mut margins = Vec::new();
        for &j in &mine {
            let Some(out) = &jobs[j].out else { continue };
            count(&mut rates, outcome[j][0], out.in_sample.1);
            if let (Some(claim), Some(h)) = (outcome[j][1], out.held_out) {
                count(&mut held_out, Some(claim), h.1);
            }
            margins.push(out.min_margin);
        }
        in_sample.add(&rates);
        margins.sort_by(f64::total_cmp);
        let medians: Vec<f64> = config.log_medians.iter().map(|m| m.exp()).collect();
        let mean = medians.iter().sum::<f64>() / medians.len() as f64;
        let n = rates.judgements.max(1) as f64;
        let k = ((TARGET_MATCH_RATE * margins.len() as f64).ceil() as usize).clamp(1, margins.len().max(1)) - 1;
        entries.push(ConfigurationCalibration {
            suite: config.key[0].clone(),
            case: config.key[1].clone(),
            variant: config.key[2].clone(),
            mode: config.key[3].clone(),
            field: config.key[4].clone(),
            cv_between: variance_of(&medians).sqrt() / mean,
            between: between(&config.log_medians, &config.within_var),
            within: (config.within_var.iter().sum::<f64>() / config.within_var.len() as f64).sqrt(),
            pairs: rates.judgements,
            false_mismatch: rates.mismatched as f64 / n,
            false_inconclusive: rates.inconclusive as f64 / n,
            excluding_one: rates.excluding_one as f64 / n,
            proposed_margin: margins.get(k).map_or(f64::NAN, |m| ((m * 200.0).ceil() / 200.0).max(0.005)),
            medians: medians.iter().map(|m| (m * 1000.0).round() / 1000.0).collect(),
            orders: Some(config.orders),
            rotation_sets: Some(config.sets.count()),
            rotation: config.sets.rotation(),
        });
    }
    let mut spreads: Vec<f64> = entries.iter().map(|e| e.between).collect();
    spreads.sort_by(f64::total_cmp);
    Ok(CalibrationFile {
        schema_version: SCHEMA_VERSION,
        runs,
        rule: CalibrationRule {
            seed: options.seed,
            replicates,
            margin: options.margin,
            family_alpha: family::FAMILY_ALPHA,
            target_match_rate: TARGET_MATCH_RATE,
            nominal_excluding_one: 1.0 - CONFIDENCE,
        },
        default_between: quantile_sorted(&spreads, 0.9),
        in_sample,
        held_out: (held_out.judgements > 0).then_some(held_out),
        configurations: entries,
        excluded,
    })
}

/// One A/A judgement to make, and what it gave.
struct Job {
    config: usize,
    /// Positions in the configuration's runs.
    a: usize,
    b: usize,
    /// (first run, second run, field): the family it belongs to.
    family: (usize, usize, String),
    spread: f64,
    held_out: Option<f64>,
    out: Option<JobOut>,
}

struct JobOut {
    /// The trial and whether the 90 % interval excludes a ratio of 1.
    in_sample: (Trial, bool),
    held_out: Option<(Trial, bool)>,
    /// The smallest margin at which this pair would MATCH at the family's first Holm level.
    min_margin: f64,
}

fn run_jobs(jobs: &mut [Job], configs: &[Config], runs: &[String], options: Options, replicates: usize, sizes: &BTreeMap<(usize, usize, String), usize>) {
    let outs = parallel_map(jobs, |job| {
        let config = &configs[job.config];
        let run_a = vec![vec![config.runs[job.a].1.clone()]];
        let run_b = vec![vec![config.runs[job.b].1.clone()]];
        let (sa, sb) = (Side::new(&run_a, &identity), Side::new(&run_b, &identity));
        let name = config.key.join(" ");
        let seed = |what: &str| row_seed(options.seed, &[&name, &runs[config.runs[job.a].0], &runs[config.runs[job.b].0], what]);
        let judge = |spread: f64, what: &str| -> Option<(Trial, bool, Vec<f64>)> {
            let mut rng = ChaCha8Rng::seed_from_u64(seed(what));
            let d = ratio_distribution(&sa, &sb, [spread, spread], &mut rng, replicates)?;
            let (lo, hi) = percentile_interval(&d, (1.0 - CONFIDENCE) / 2.0);
            Some((family::latency_trial(&d, (1.0 + options.margin).ln()), lo > 0.0 || hi < 0.0, d))
        };
        let (trial, excludes, dist) = judge(job.spread, "in-sample")?;
        let level = family::FAMILY_ALPHA / (2 * sizes[&job.family]) as f64;
        let (lo, hi) = percentile_interval(&dist, level);
        let held_out = job.held_out.and_then(|s| judge(s, "held-out")).map(|(t, e, _)| (t, e));
        Some(JobOut { in_sample: (trial, excludes), held_out, min_margin: (-lo).max(hi).exp() - 1.0 })
    });
    for (job, out) in jobs.iter_mut().zip(outs) {
        job.out = out;
    }
}

fn identity(v: &[f64]) -> f64 {
    v[0]
}

fn count(rates: &mut Rates, claim: Option<Claim>, excludes_one: bool) {
    let Some(claim) = claim else { return };
    rates.judgements += 1;
    match claim {
        Claim::Match => rates.matched += 1,
        Claim::Mismatch => rates.mismatched += 1,
        Claim::Neither => rates.inconclusive += 1,
    }
    rates.excluding_one += usize::from(excludes_one);
}

impl Rates {
    fn add(&mut self, other: &Rates) {
        self.judgements += other.judgements;
        self.matched += other.matched;
        self.mismatched += other.mismatched;
        self.inconclusive += other.inconclusive;
        self.excluding_one += other.excluding_one;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run directory with `levels[i]`-centred samples for each of a few configurations.
    fn write_run(dir: &Path, name: &str, levels: &[(&str, f64)], noise: f64, seed: u64) {
        use rand::Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let run = dir.join("evidence/runs").join(name);
        std::fs::create_dir_all(&run).unwrap();
        let mut text = String::new();
        for round in 0..21 {
            for (variant, level) in levels {
                let v = level * (1.0 + noise * (rng.random::<f64>() - 0.5));
                text.push_str(&format!(
                    "{{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"{variant}\",\"mode\":\"graph\",\"round\":{round},\"host_us\":{v:.3},\"device_us\":{v:.3}}}\n"
                ));
            }
        }
        std::fs::write(run.join("samples.jsonl"), text).unwrap();
        std::fs::write(run.join("meta.json"), r#"{"status":"accepted","cases":[{"suite":"s","case":"c","shape":[1],"rotation_sets":1,"bytes_per_set":1,"timing_fixture_seed":1,"variants":[],"modes":[],"logical_bytes":{},"dispatch":"k"}]}"#).unwrap();
    }

    #[test]
    fn runs_that_differ_between_them_get_a_spread_and_a_wider_margin() {
        let dir = tempfile::tempdir().unwrap();
        // "steady" is the same in every run; "drifting" moves by several percent from run to run.
        let drift = [1.0, 1.06, 0.95, 1.03, 0.97];
        let names: Vec<String> = (0..5).map(|i| format!("r{i}")).collect();
        for (i, name) in names.iter().enumerate() {
            write_run(dir.path(), name, &[("steady", 20.0), ("drifting", 20.0 * drift[i])], 0.02, i as u64);
        }
        let runs: Vec<String> = names.iter().map(|n| format!("evidence/runs/{n}")).collect();
        let cal = calibrate(dir.path(), &runs, Options { replicates: 1000, ..Options::default() }).unwrap();
        let get = |v: &str| cal.configurations.iter().find(|c| c.variant == v && c.field == "host_us").unwrap();
        assert!(get("steady").between < 0.01, "{}", get("steady").between);
        assert!(get("drifting").between > 0.02, "{}", get("drifting").between);
        assert!(get("drifting").proposed_margin > get("steady").proposed_margin);
        assert_eq!(get("steady").pairs, 10);
        // Widened by their spread, unchanged code is never called a MISMATCH here.
        assert_eq!(cal.in_sample.mismatched, 0, "{:?}", cal.in_sample);
        assert!(cal.held_out.is_some());
    }

    #[test]
    fn the_orders_the_runs_kept_were_timed_in_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        for (name, seed) in [("a", 1), ("b", 2), ("c", 3)] {
            write_run(dir.path(), name, &[("v", 10.0), ("peer", 12.0)], 0.02, seed);
        }
        // a and b ran `v` from one seed, c from another; the peer script used one seed in all.
        for (run, seed) in [("a", 5), ("b", 5), ("c", 6)] {
            let meta = dir.path().join(format!("evidence/runs/{run}/meta.json"));
            let text = std::fs::read_to_string(&meta).unwrap().replace(r#""variants":[]"#, r#""variants":["v"]"#).replace(
                r#""status":"accepted","#,
                &format!(r#""status":"accepted","settings":{{"rounds":21,"warmup":5,"seed":{seed},"validation_fixtures":2}},"peers":[{{"seed":9,"peers":["peer"]}}],"#),
            );
            std::fs::write(&meta, text).unwrap();
        }
        let runs = ["a", "b", "c"].map(|r| format!("evidence/runs/{r}"));
        let cal = calibrate(dir.path(), &runs, Options { replicates: 500, ..Options::default() }).unwrap();
        let orders = |v: &str| cal.configurations.iter().find(|c| c.variant == v && c.field == "host_us").unwrap().orders;
        assert_eq!((orders("v"), orders("peer")), (Some(2), Some(1)));
        let text = crate::report::calibration::text(&cal);
        assert!(text.contains("\norders: runs with one seed and the same entries were timed in the same shuffled order;"), "{text}");
    }

    #[test]
    fn a_run_that_took_its_buffer_sets_otherwise_is_not_an_a_a_pair() {
        let dir = tempfile::tempdir().unwrap();
        for (name, seed) in [("a", 1), ("b", 2), ("c", 3), ("d", 4)] {
            write_run(dir.path(), name, &[("v", 10.0), ("peer", 12.0)], 0.02, seed);
        }
        // `v` is ours in every run, over 8 sets; c took them per invocation, and d's peer
        // script did.
        let edit = |run: &str, from: &str, to: &str| {
            let meta = dir.path().join(format!("evidence/runs/{run}/meta.json"));
            std::fs::write(&meta, std::fs::read_to_string(&meta).unwrap().replace(from, to)).unwrap();
        };
        for run in ["a", "b", "c", "d"] {
            edit(run, r#""rotation_sets":1"#, r#""rotation_sets":8"#);
        }
        for run in ["a", "b", "d"] {
            edit(run, r#""variants":[]"#, r#""variants":["v"]"#);
        }
        edit("c", r#""variants":[]"#, r#""variants":["v"],"rotation":"per-invocation""#);
        edit("d", r#""dispatch":"k"}]"#, r#""dispatch":"k"}],"peers":[{"rotation":"per-invocation"}]"#);
        let runs = ["a", "b", "c", "d"].map(|r| format!("evidence/runs/{r}"));
        let cal = calibrate(dir.path(), &runs, Options { replicates: 500, ..Options::default() }).unwrap();
        let said = |what: &str| cal.excluded.iter().any(|e| e == what);
        assert!(said("s c v graph host_us: evidence/runs/c took its buffer sets otherwise than the runs kept, which took them per entry over 8 sets"), "{:?}", cal.excluded);
        assert!(said("s c peer graph host_us: evidence/runs/d took its buffer sets otherwise than the runs kept, which took them per entry over 8 sets"), "{:?}", cal.excluded);
        let pairs = |v: &str| cal.configurations.iter().find(|c| c.variant == v && c.field == "host_us").unwrap().pairs;
        assert_eq!((pairs("v"), pairs("peer")), (3, 3));
        // The file records the protocol its σ was measured under, for the recheck to match.
        let v = cal.configurations.iter().find(|c| c.variant == "v" && c.field == "host_us").unwrap();
        assert_eq!((v.rotation_sets, v.rotation), (Some(8), Some(crate::evidence::meta::SetRotation::PerEntry)));
        assert_eq!(v.sets().map(|s| s.shown()).as_deref(), Some("per entry over 8 sets"));
        let json = crate::report::calibration::json(&cal);
        assert!(json.contains("\"rotation_sets\": 8,\n      \"rotation\": \"per-entry\""), "{json}");
    }

    #[test]
    fn a_configuration_whose_dispatch_differs_is_not_an_a_a_pair() {
        let dir = tempfile::tempdir().unwrap();
        write_run(dir.path(), "a", &[("v", 10.0)], 0.02, 1);
        write_run(dir.path(), "b", &[("v", 10.0)], 0.02, 2);
        write_run(dir.path(), "c", &[("v", 14.0)], 0.02, 3);
        let meta = dir.path().join("evidence/runs/c/meta.json");
        std::fs::write(&meta, std::fs::read_to_string(&meta).unwrap().replace("\"k\"", "\"other\"")).unwrap();
        let runs = ["a", "b", "c"].map(|r| format!("evidence/runs/{r}"));
        let cal = calibrate(dir.path(), &runs, Options { replicates: 500, ..Options::default() }).unwrap();
        assert!(cal.excluded.iter().any(|e| e.contains("evidence/runs/c ran another kernel dispatch")), "{:?}", cal.excluded);
        assert!(cal.configurations.iter().all(|c| c.pairs == 1));
    }

    #[test]
    fn a_suite_that_names_no_kernel_is_compared_by_its_whole_module() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |name: &str, body: &str| format!(".visible .entry {name}(\n)\n{{\n\t{body}\n\tret;\n}}\n");
        for (run, seed) in [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)] {
            write_run(dir.path(), run, &[("v", 10.0)], 0.02, seed);
            let path = dir.path().join("evidence/runs").join(run);
            let meta = path.join("meta.json");
            // A pointwise case records no dispatch; the kernels it ran are its module's.
            std::fs::write(&meta, std::fs::read_to_string(&meta).unwrap().replace(r#""suite":"s""#, r#""suite":"pointwise""#).replace(r#","dispatch":"k""#, "")).unwrap();
            let samples = path.join("samples.jsonl");
            std::fs::write(&samples, std::fs::read_to_string(&samples).unwrap().replace(r#""suite":"s""#, r#""suite":"pointwise""#)).unwrap();
            if run != "e" {
                std::fs::create_dir_all(path.join("ptx")).unwrap();
            }
            // b holds the same two kernels in the other order; c changed one; d kept no module
            // (and e no `ptx` folder at all).
            let module = match run {
                "a" => format!("{}{}", entry("three", "mov.u32 %r1, 3;"), entry("fused", "mov.u32 %r1, 1;")),
                "b" => format!("{}{}", entry("fused", "mov.u32 %r1, 1;"), entry("three", "mov.u32 %r1, 3;")),
                "c" => format!("{}{}", entry("three", "mov.u32 %r1, 3;"), entry("fused", "mov.u32 %r1, 2;")),
                _ => continue,
            };
            std::fs::write(path.join("ptx/pointwise.ptx"), module).unwrap();
        }
        let runs = ["a", "b", "c", "d"].map(|r| format!("evidence/runs/{r}"));
        let cal = calibrate(dir.path(), &runs, Options { replicates: 500, ..Options::default() }).unwrap();
        let other =
            "pointwise c v graph host_us: evidence/runs/c, evidence/runs/d ran other instructions under the same dispatch (or, where none names kernels, in its suite's module)";
        assert!(cal.excluded.iter().any(|e| e == other), "{:?}", cal.excluded);
        assert!(cal.configurations.iter().all(|c| c.pairs == 1), "a and b are the one pair");
    }

    #[test]
    fn a_kernel_changed_under_its_name_is_not_an_a_a_pair() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |body: &str| format!(".visible .entry k_a(\n)\n{{\n\t{body}\n$L__BB0_1:\n\tret;\n}}\n");
        for (run, seed, body) in [("a", 1, "bra.uni $L__BB0_1;"), ("b", 2, "bra.uni $L__BB0_1;"), ("c", 3, "mov.u32 %r1, 0;")] {
            write_run(dir.path(), run, &[("v", 10.0)], 0.02, seed);
            let path = dir.path().join("evidence/runs").join(run);
            let meta = path.join("meta.json");
            std::fs::write(&meta, std::fs::read_to_string(&meta).unwrap().replace("\"k\"", "\"k_a: a kernel\"")).unwrap();
            std::fs::create_dir_all(path.join("ptx")).unwrap();
            // Run b's module has the entry renumbered after another: the same instructions.
            let module = if run == "b" { format!(".visible .entry z(\n)\n{{\n\tret;\n}}\n{}", entry(body).replace("BB0_", "BB1_")) } else { entry(body) };
            std::fs::write(path.join("ptx/softmax.ptx"), module).unwrap();
        }
        let runs = ["a", "b", "c"].map(|r| format!("evidence/runs/{r}"));
        let cal = calibrate(dir.path(), &runs, Options { replicates: 500, ..Options::default() }).unwrap();
        assert!(cal.excluded.iter().any(|e| e.contains("evidence/runs/c ran other instructions under the same dispatch")), "{:?}", cal.excluded);
        assert!(cal.configurations.iter().all(|c| c.pairs == 1), "a and b are the one pair");
        // A dispatched kernel the module lacks is bad input, named with the run and the case.
        std::fs::write(dir.path().join("evidence/runs/c/ptx/softmax.ptx"), entry("ret;").replace("k_a", "k_b")).unwrap();
        let Err(Failure::Input(d)) = calibrate(dir.path(), &runs, Options { replicates: 500, ..Options::default() }) else { panic!("a missing entry is bad input") };
        assert!(d[0].message.contains("evidence/runs/c/ptx/softmax.ptx: no entry `k_a`, which evidence/runs/c/meta.json names as dispatched at s c"), "{:?}", d);
    }

    #[test]
    fn a_sample_that_is_not_a_number_is_refused_where_it_is() {
        let dir = tempfile::tempdir().unwrap();
        write_run(dir.path(), "a", &[("v", 10.0)], 0.02, 1);
        write_run(dir.path(), "b", &[("v", 10.0)], 0.02, 2);
        // Until this was refused, the configuration was left out of the calibration without a word.
        let samples = dir.path().join("evidence/runs/b/samples.jsonl");
        let text = std::fs::read_to_string(&samples).unwrap();
        let broken = text.replacen("\"device_us\":", "\"device_us\":-", 1);
        std::fs::write(&samples, broken).unwrap();
        let runs = ["a", "b"].map(|r| format!("evidence/runs/{r}"));
        let Err(Failure::Input(d)) = calibrate(dir.path(), &runs, Options { replicates: 200, ..Options::default() }) else { panic!("a negative time is bad input") };
        let at = d[0].location.as_ref().expect("a located error");
        assert_eq!((at.file.as_str(), at.line), ("evidence/runs/b/samples.jsonl", 1), "{d:?}");
    }

    #[test]
    fn one_run_is_refused() {
        assert!(matches!(calibrate(Path::new("."), &["evidence/runs/x".into()], Options::default()), Err(Failure::Usage(_))));
    }

    #[test]
    fn a_run_not_marked_accepted_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (name, seed) in [("a", 1), ("b", 2)] {
            write_run(dir.path(), name, &[("v", 10.0)], 0.02, seed);
        }
        let runs = ["a", "b"].map(|r| format!("evidence/runs/{r}"));
        let meta = dir.path().join("evidence/runs/b/meta.json");
        let accepted = std::fs::read_to_string(&meta).unwrap();
        for (status, said) in [(r#""status":"rejected","rejected_because":["v: max rel err 1"],"#, "marked rejected (v: max rel err 1)"), ("", "marked with no status")] {
            std::fs::write(&meta, accepted.replace(r#""status":"accepted","#, status)).unwrap();
            let Err(Failure::Input(d)) = calibrate(dir.path(), &runs, Options { replicates: 100, ..Options::default() }) else { panic!("calibrated a run not accepted") };
            let shown = d.iter().map(|d| d.render()).collect::<String>();
            assert!(shown.contains(&format!("evidence/runs/b is {said}: only accepted runs are calibrated")), "{shown}");
        }
    }
}
