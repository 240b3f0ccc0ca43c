//! `claimcheck bench-report RUN [RUN...]`: the softmax benchmark of one or more runs, from their
//! raw samples alone: per shape and variant the median device time, the bandwidth counting one
//! read and one write, the fraction of the best copy, and the ratio to the best peer; then the
//! targets of issue 16, each judged here by the recheck's ordering rule. `report::bench` lays it
//! out.
//!
//! A target is never judged on medians alone. Two entries of the same kernel in one run differ
//! by up to 1 % at 1024×32768 (`kernels/NOTES.md`, version 13), as much as the distance to the
//! 95 % target, so a run whose medians happen to fall on the right side would otherwise meet a
//! target by luck. Each target is a ratio (copy ÷ ours, peer ÷ ours), bootstrapped as the
//! recheck bootstraps an ordering: runs are the unit of replication and rounds are resampled
//! within each run, keeping a round's variants together. Holm's procedure holds the chance of
//! any false MATCH or MISMATCH over the whole list at 5 %, as it does over a recheck table.
//!
//! Only runs the suite accepted count (every variant validated against FP64). Runs pooled as
//! replicates must be replicates: timed by the same protocol, and running the
//! same code at every shape they share (the kernels their `meta.json` says were dispatched,
//! compiled to the same instructions in their `ptx/softmax.ptx`), with the peers timed by the
//! same library versions. Anything else is refused. `--with-same-code` pools one run with
//! every other run of its folder that qualifies, and says why each of the others did not.
//!
//! `--candidate VARIANT` judges a candidate form (`x-…`) by the same rule: faster than the
//! dispatched form, and its share of the copy where the shape has a copy target. Candidates are
//! a family of their own, so that asking about them never moves a target's verdict.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::evidence::SampleRecord;
use crate::evidence::meta::{Meta, SetsTaken, ShuffleOrder};
use crate::evidence::ptx;
use crate::evidence::store::Evidence;
use crate::paths::Root;
use crate::recheck::family::{self, FAMILY_ALPHA, Trial};
use crate::recheck::hierarchical::{Side, log_distribution, parallel_map, percentile_interval};
use crate::recheck::{ByRound, DEFAULT_REPLICATES, DEFAULT_SEED, Judgement, row_seed};
use crate::status::Failure;

/// The rows and the targets with how each was judged.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BenchReport {
    /// The runs pooled, in the order given.
    pub runs: Vec<String>,
    /// Bootstrap replicates a target, and the seed each target's own seed is derived from.
    pub replicates: usize,
    pub seed: u64,
    pub rows: Vec<Row>,
    pub targets: Vec<Target>,
    /// With `--candidate`: each candidate's comparisons, judged as a family of their own.
    pub candidates: Vec<Target>,
    /// With `--with-same-code`: the other runs of the folder that were not pooled, and why.
    pub left_out: Vec<(String, String)>,
    /// Where several runs are pooled: how many shuffled orders they hold at each shape.
    pub orders: Vec<Orders>,
}

/// How many distinct shuffled orders the pooled runs timed one shape in, ours and the peers'.
/// The harness shuffles each round's entries from the run's seed, so runs with the same seed
/// and the same entries ran them in the same order, and what a position in that order does to
/// its sample (the invocation before it, what that left in L2) recurs in every one of them:
/// pooling such runs narrows the interval without averaging it out (`kernels/NOTES.md`,
/// version 17). Every run before 2026-12-05 used the seed 20261202.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Orders {
    pub case: String,
    pub ours: usize,
    /// Zero where no pooled run timed peers.
    pub peers: usize,
    /// The pooled runs that time this shape, and those of them that timed peers.
    pub runs: usize,
    pub peer_runs: usize,
}

impl Orders {
    /// Whether some of the runs shared an order, ours or the peers'.
    pub(crate) fn shared(&self) -> bool {
        self.ours < self.runs || self.peers < self.peer_runs
    }
}

impl BenchReport {
    /// Whether the rule showed every target to hold.
    pub(crate) fn all_met(&self) -> bool {
        self.targets.iter().all(|t| t.outcome == Judgement::Match)
    }
}

/// Reads `run/samples.jsonl` of every run (root-relative) and judges them together, with the
/// `candidates` (variant names) judged apart.
pub(crate) fn report(root: &Path, runs: &[String], candidates: &[String]) -> Result<BenchReport, Failure> {
    let evidence = open(root)?;
    let read = runs.iter().map(|run| read_samples(&evidence, run.trim_end_matches('/'))).collect::<Result<Vec<_>, _>>()?;
    judge_read(&evidence, &read, None, DEFAULT_REPLICATES, candidates)
}

/// `run` pooled with every other run in its folder that can be pooled with it: accepted by the
/// suite, timed by the same protocol, the same code at every shape and the same peers. Pooling
/// runs picked by hand invites picking the runs that help; this takes every one, in name order,
/// and says why each other run of the folder was left out.
pub(crate) fn report_with_same_code(root: &Path, run: &str, candidates: &[String]) -> Result<BenchReport, Failure> {
    pool_with_same_code(root, run, DEFAULT_REPLICATES, candidates)
}

/// [`report_with_same_code`] with at least `replicates` bootstrap replicates a target; the fuzz
/// target asks for few, so that it runs fast over the same reading and pooling.
pub(crate) fn pool_with_same_code(root: &Path, run: &str, replicates: usize, candidates: &[String]) -> Result<BenchReport, Failure> {
    let evidence = open(root)?;
    let run = run.trim_end_matches('/');
    let base = read_samples(&evidence, run)?;
    let folder = run.rsplit_once('/').map_or(".", |(folder, _)| folder);
    let entries = evidence.root().list(folder).map_err(|e| Failure::input(format!("{folder}: {e}")))?;
    let mut chosen = vec![base];
    let mut codes = vec![(run.to_string(), code_of(&evidence, run)?)];
    let mut left_out = Vec::new();
    for (name, kind) in entries {
        let other = if folder == "." { name.clone() } else { format!("{folder}/{name}") };
        if other == run {
            continue;
        }
        // A link may stand for a run, but runs are never read through one (it could lead out of
        // the root, or pool a run twice), so it is named rather than passed over.
        if kind == crate::confined::Kind::Link {
            left_out.push((other, "a link: runs are not read through links".to_string()));
            continue;
        }
        if kind != crate::confined::Kind::Dir {
            continue;
        }
        if evidence.root().not_utf8(&other) {
            left_out.push((other, "its name is not UTF-8, so it cannot be named to be read".to_string()));
            continue;
        }
        // A folder with no `meta.json` is not a run; one whose `meta.json` cannot be read is,
        // and is named.
        let meta_path = format!("{other}/meta.json");
        if let Ok(None) = evidence.root().kind(&meta_path) {
            continue;
        }
        let meta = match evidence.json::<Meta>(&meta_path) {
            Ok(meta) => meta,
            Err(e) => {
                left_out.push((other, one_line(&e.at(&meta_path))));
                continue;
            }
        };
        if !meta.suites.iter().any(|s| s == "softmax-bench") {
            continue;
        }
        if let Some(why) = meta.not_accepted_because() {
            left_out.push((other, why));
            continue;
        }
        // Other kernels or peers show in `meta.json`; only runs that declare the same are read
        // further, so that a folder of many runs is not held in memory whole.
        let mut code = declared_code(&meta);
        let declared: Vec<(&str, RunCode)> = codes.iter().map(|(r, c)| (r.as_str(), without_instructions(c))).chain([(other.as_str(), code.clone())]).collect();
        if let Some((why, _)) = difference(&declared) {
            left_out.push((other, why));
            continue;
        }
        if let Err(e) = add_instructions(&evidence, &other, &mut code) {
            left_out.push((other, why(e)));
            continue;
        }
        let with: Vec<(&str, RunCode)> = codes.iter().map(|(r, c)| (r.as_str(), c.clone())).chain([(other.as_str(), code.clone())]).collect();
        if let Some((why, _)) = difference(&with) {
            left_out.push((other, why));
            continue;
        }
        let samples = match read_samples(&evidence, &other) {
            Ok(samples) => samples,
            Err(e) => {
                left_out.push((other, why(e)));
                continue;
            }
        };
        let (theirs, ours) = (protocol(&samples.1), protocol(&chosen[0].1));
        if theirs != ours {
            left_out.push((other, format!("timed by {theirs} where {run} was timed by {ours}")));
            continue;
        }
        chosen.push(samples);
        codes.push((other, code));
    }
    let mut report = judge_read(&evidence, &chosen, Some(&codes), replicates, candidates)?;
    report.left_out = left_out;
    Ok(report)
}

/// `code` as its `meta.json` alone declares it.
fn without_instructions(code: &RunCode) -> RunCode {
    let mut code = code.clone();
    code.shapes.values_mut().for_each(|shape| shape.instructions.clear());
    code
}

/// What kept a run out of the pool, on one line.
fn why(failure: Failure) -> String {
    match failure {
        Failure::Input(diagnostics) | Failure::InputRefused(diagnostics, _) => diagnostics.iter().map(one_line).collect::<Vec<_>>().join("; "),
        other => format!("{other:?}"),
    }
}

fn one_line(d: &crate::diagnostic::Diagnostic) -> String {
    match &d.location {
        Some(at) => format!("{}:{}:{}: {}", at.file, at.line, at.col, d.message),
        None => d.message.clone(),
    }
}

fn open(root: &Path) -> Result<Evidence, Failure> {
    let root = Root::new(root).map_err(|e| Failure::input(format!("cannot open root {}: {e}", root.display())))?;
    Ok(Evidence::new(root))
}

/// One run's benchmark samples, every time checked by the shared sample validation.
fn read_samples(evidence: &Evidence, run: &str) -> Result<(String, Vec<SampleRecord>), Failure> {
    let path = format!("{run}/samples.jsonl");
    let jsonl = evidence.jsonl(&path).map_err(|e| e.at(&path))?;
    let samples = jsonl.records.iter().map(|r| jsonl.record_as::<SampleRecord>(r, "a sample")).collect::<Result<Vec<_>, _>>()?;
    // The shared sample validation first, so that a time that is not finite or negative is
    // reported at its line; `judge` still refuses zero, which no ratio can divide by.
    if !jsonl.records.is_empty() {
        jsonl.samples(&jsonl.records.iter().collect::<Vec<_>>(), "device_us")?;
    }
    Ok((run.to_string(), samples))
}

/// The runs read, refused unless they are replicates of one another, then judged. `known` is
/// each run's code where the caller has already read it, so that no PTX is hashed twice;
/// `replicates` is the least number of bootstrap replicates a target.
fn judge_read(
    evidence: &Evidence,
    read: &[(String, Vec<SampleRecord>)],
    known: Option<&[(String, RunCode)]>,
    replicates: usize,
    candidates: &[String],
) -> Result<BenchReport, Failure> {
    let times = group(read).map_err(Failure::input)?;
    let mut metas = Vec::new();
    // A run the suite rejected (a variant that failed its check against FP64) is not evidence
    // for a target, whichever variant failed; nor is one that records no status.
    for (run, _) in read {
        let meta_path = format!("{run}/meta.json");
        let meta = evidence.json::<Meta>(&meta_path).map_err(|e| e.at(&meta_path))?;
        if let Some(why) = meta.not_accepted_because() {
            return Err(Failure::input(format!("{run} is {why}: its times are not evidence for the targets (`claimcheck stats {run}/samples.jsonl` gives its medians)")));
        }
        metas.push(meta);
    }
    // Runs are replicates only of the same code: a run of other kernels pooled in would move
    // every interval toward a kernel that is not the one judged.
    if read.len() > 1 {
        let codes = match known {
            Some(known) => known.iter().map(|(run, code)| (run.as_str(), code.clone())).collect(),
            None => read.iter().map(|(run, _)| Ok((run.as_str(), code_of(evidence, run)?))).collect::<Result<Vec<_>, Failure>>()?,
        };
        same_code(&codes).map_err(Failure::input)?;
    }
    let mut report = judge_grouped(times, replicates, candidates).map_err(Failure::input)?;
    if read.len() > 1 {
        report.orders = orders(&metas);
    }
    Ok(report)
}

/// [`Orders`] at every benchmark shape the runs record. Ours are told apart by the run's seed
/// and the case's entries (variants and modes), the peers' by the peer record's seed and peer
/// list, which is what each shuffle is drawn from.
fn orders(metas: &[std::rc::Rc<Meta>]) -> Vec<Orders> {
    // Per shape: our orders, the peers' orders, the runs, the runs with peers.
    type Seen = (BTreeSet<ShuffleOrder>, BTreeSet<ShuffleOrder>, usize, usize);
    let mut by_case: BTreeMap<&str, Seen> = BTreeMap::new();
    for meta in metas {
        for case in meta.cases.iter().filter(|c| c.suite == "softmax-bench") {
            let Some(first) = case.variants.first() else { continue };
            let seen = by_case.entry(case.case.as_str()).or_default();
            seen.0.insert(meta.order_of(case, first));
            seen.2 += 1;
            if !meta.peers.is_empty() {
                seen.1.insert(meta.peer_order());
                seen.3 += 1;
            }
        }
    }
    by_case.into_iter().map(|(case, (ours, peers, runs, peer_runs))| Orders { case: case.to_string(), ours: ours.len(), peers: peers.len(), runs, peer_runs }).collect()
}

/// What a run ran at one shape: the kernels its dispatch names, and a hash of each one's
/// instructions ([`ptx::entry_instructions`]).
#[derive(Debug, Clone, PartialEq)]
struct Code {
    kernels: Vec<String>,
    instructions: Vec<String>,
    /// How the shape's invocations took their buffer sets ([`Meta::sets_of`]).
    sets: SetsTaken,
    /// How the peers' replays took theirs, where the run timed peers.
    peer_sets: Option<SetsTaken>,
}

/// What a run ran: each benchmark shape's code, and what timed the peers.
#[derive(Debug, Clone, PartialEq, Default)]
struct RunCode {
    shapes: BTreeMap<String, Code>,
    /// [`PEER_KEYS`] as the run's peer records give them.
    peers: BTreeMap<String, String>,
}

/// What in a peer record names the code that ran: the libraries' versions, the CUDA the wheels
/// were built for, the device and the timing protocol. The peer script's own hash is left out:
/// it changes with what the script records, not only with how it times.
const PEER_KEYS: [&str; 6] = ["torch", "triton", "liger_kernel", "cuda", "device", "protocol"];

/// What `run` ran, from its `meta.json` and `ptx/softmax.ptx`.
fn code_of(evidence: &Evidence, run: &str) -> Result<RunCode, Failure> {
    let meta_path = format!("{run}/meta.json");
    let meta = evidence.json::<Meta>(&meta_path).map_err(|e| e.at(&meta_path))?;
    let mut code = declared_code(&meta);
    add_instructions(evidence, run, &mut code)?;
    Ok(code)
}

/// What `meta` says a run ran: each shape's kernels (their instructions not yet read) and the
/// peers' libraries.
fn declared_code(meta: &Meta) -> RunCode {
    let mut out = RunCode::default();
    for case in meta.cases.iter().filter(|c| c.suite == "softmax-bench") {
        let kernels = case.dispatch.as_deref().map(ptx::kernel_names).unwrap_or_default();
        let peer_sets = (!meta.peers.is_empty()).then(|| meta.peer_sets(&case.case, case.rotation_sets));
        out.shapes.insert(case.case.clone(), Code { kernels, instructions: Vec::new(), sets: case.sets(), peer_sets });
    }
    for record in &meta.peers {
        for key in PEER_KEYS {
            if let Some(value) = record.get(key).and_then(|v| v.as_str()) {
                out.peers.entry(key.to_string()).or_insert_with(|| value.to_string());
            }
        }
    }
    // The peer script took its sets per entry until it recorded how it took them: read as
    // `calibrate` and the recheck read it ([`Meta::peer_rotation`]), whichever record says it.
    if !meta.peers.is_empty() {
        out.peers.insert("rotation".to_string(), meta.peer_rotation().name().to_string());
    }
    out
}

/// Each declared kernel's instructions, hashed, from the run's `ptx/softmax.ptx`.
fn add_instructions(evidence: &Evidence, run: &str, code: &mut RunCode) -> Result<(), Failure> {
    let ptx_path = format!("{run}/ptx/softmax.ptx");
    let text = evidence.text(&ptx_path).map_err(|e| e.at(&ptx_path))?;
    for (case, shape) in &mut code.shapes {
        shape.instructions = ptx::instruction_hashes(&text, &shape.kernels)
            .map_err(|kernel| Failure::input(format!("{ptx_path}: no entry `{kernel}`, which {run}/meta.json names as dispatched at {case}")))?;
    }
    Ok(())
}

/// Refuses runs that ran other kernels, or other instructions under the same names, at a
/// shape they share, or whose peers were timed with other libraries, on another device or by
/// another protocol (compared where both runs record it; older runs record fewer versions).
fn same_code(runs: &[(&str, RunCode)]) -> Result<(), String> {
    match difference(runs) {
        None => Ok(()),
        Some((what, must)) => Err(format!("{what}; runs pooled as replicates must {must} (report them one by one)")),
    }
}

/// The first difference between `runs` that keeps them from being replicates, and what
/// replicates must share instead.
fn difference(runs: &[(&str, RunCode)]) -> Option<(String, &'static str)> {
    let mut first: BTreeMap<&str, (&str, &Code)> = BTreeMap::new();
    let mut first_peer: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for (run, code) in runs {
        for (case, code) in &code.shapes {
            let Some(&(other, seen)) = first.get(case.as_str()) else {
                first.insert(case, (run, code));
                continue;
            };
            if seen.kernels != code.kernels {
                return Some((format!("{case}: {other} dispatched {} but {run} dispatched {}", shown(&seen.kernels), shown(&code.kernels)), "run the same code"));
            }
            if seen.sets != code.sets {
                return Some((format!("{case}: {other} took its buffer sets {} but {run} {}", seen.sets.shown(), code.sets.shown()), "be timed by the same protocol"));
            }
            if let (Some(a), Some(b)) = (seen.peer_sets, code.peer_sets)
                && a != b
            {
                return Some((format!("{case}: {other} replayed the peers {} but {run} {}", a.shown(), b.shown()), "time the same peers"));
            }
            if seen.instructions != code.instructions {
                return Some((
                    format!("{case}: {other} and {run} both dispatched {}, but compiled to different instructions (ptx/softmax.ptx)", shown(&code.kernels)),
                    "run the same code",
                ));
            }
        }
        for (key, value) in &code.peers {
            match first_peer.get(key.as_str()) {
                None => {
                    first_peer.insert(key, (run, value));
                }
                Some(&(other, seen)) if seen != value => {
                    return Some((format!("{other} timed the peers with {key} {seen} but {run} with {key} {value}"), "time the same peers"));
                }
                Some(_) => {}
            }
        }
    }
    None
}

fn shown(kernels: &[String]) -> String {
    if kernels.is_empty() { "no recorded kernel".into() } else { kernels.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ") }
}

/// The peers of the plain softmax (`fused`): cuDNN, torch.softmax, and the Triton kernel
/// (Liger's, or ours where Liger is absent).
const PLAIN_PEERS: [&str; 4] = ["cudnn", "torch", "liger", "triton"];
/// The peers of the RMS-scaled softmax (`fused-rms`).
const RMS_PEERS: [&str; 1] = ["torch-compile-rms"];
/// The copies whose faster one is the ceiling.
const COPIES: [&str; 2] = ["copy", "copy-kernel"];
/// How much slower than the plain softmax the RMS-scaled one may be.
const RMS_SLACK: f64 = 0.10;

/// The share of the best copy that the fused softmax (plain and RMS-scaled) must reach at a
/// shape (issue 16): 95 % at every shape of at least 2^20 elements, except 80 % at 8×262144,
/// where each row's blocks must meet before any of the row is written. Smaller shapes are bound
/// by the launch, not the bytes, and have no such target.
fn copy_target(rows: f64, cols: f64, case: &str) -> Option<f64> {
    match case {
        "8x262144" => Some(0.80),
        _ if rows * cols >= (1u64 << 20) as f64 => Some(0.95),
        _ => None,
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub case: String,
    pub variant: String,
    /// The median over rounds; over several runs, the median of the runs' medians.
    pub median_us: f64,
    pub gb_per_s: f64,
    pub fraction_of_copy: f64,
    /// Best peer's median over this variant's (above 1: this variant is faster).
    pub speedup_over_best_peer: Option<f64>,
}

/// What a target asks of a shape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Goal {
    /// `variant` reaches `share` of the best copy's bandwidth: q = copy ÷ variant ≥ share.
    CopyShare { variant: String, share: f64 },
    /// `variant` is faster than `peer`: q = peer ÷ variant > 1.
    Faster { variant: String, peer: String },
    /// The RMS-scaled softmax is at most `slack` slower than the plain one:
    /// q = fused ÷ fused-rms ≥ 1 ÷ (1 + slack).
    Near { slack: f64 },
}

impl Goal {
    /// `variant` reaches `share` of the best copy.
    pub(crate) fn copy_share(variant: &str, share: f64) -> Goal {
        Goal::CopyShare { variant: variant.to_string(), share }
    }

    /// `variant` is faster than `peer`.
    pub(crate) fn faster(variant: &str, peer: &str) -> Goal {
        Goal::Faster { variant: variant.to_string(), peer: peer.to_string() }
    }

    /// The bound q must exceed.
    pub(crate) fn bound(&self) -> f64 {
        match self {
            Goal::CopyShare { share, .. } => *share,
            Goal::Faster { .. } => 1.0,
            Goal::Near { slack } => 1.0 / (1.0 + slack),
        }
    }

    /// A name for the target's seed, so that its interval does not depend on the others.
    fn key(&self) -> String {
        match self {
            Goal::CopyShare { variant, share } => format!("{variant} copy {share}"),
            Goal::Faster { variant, peer } => format!("{variant} faster than {peer}"),
            Goal::Near { slack } => format!("rms near {slack}"),
        }
    }
}

/// One judged target.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub case: String,
    pub goal: Goal,
    /// The goal's quantity q, pooled like every value of the table.
    pub value: f64,
    /// Its bootstrap interval with the level Holm's procedure compared this target's claim with
    /// in each tail: wholly above the bound for a MATCH, wholly below it for a MISMATCH. An
    /// INCONCLUSIVE target's may also clear the bound, since the procedure stops at its first
    /// failure; (0, ∞) where a replicate had no finite value.
    pub interval: (f64, f64),
    pub outcome: Judgement,
    /// How many of the runs hold every variant the target needs.
    pub runs: usize,
}

/// A target before the family's decision: its quantity's variants and how they combine.
struct Pending {
    case: String,
    goal: Goal,
    /// `vars[0]` is ours; the others are what it is held against.
    vars: Vec<String>,
    eval: fn(&[f64]) -> f64,
}

/// One run's device times per shape and variant, grouped by round.
struct RunTimes {
    name: String,
    by: BTreeMap<(String, String), ByRound>,
}

/// The report's rows, and the targets judged over `runs` (each a run's name and its samples).
#[cfg(test)]
fn judge(runs: &[(String, Vec<SampleRecord>)]) -> Result<BenchReport, String> {
    judge_with(runs, DEFAULT_REPLICATES, &[])
}

/// The rows and targets over `runs` with at least `replicates` bootstrap replicates a target
/// (more where Holm's procedure over the list needs them); the fuzz target asks for few, so
/// that it runs fast.
pub(crate) fn judge_with(runs: &[(String, Vec<SampleRecord>)], replicates: usize, candidates: &[String]) -> Result<BenchReport, String> {
    judge_grouped(group(runs)?, replicates, candidates)
}

/// [`judge_with`] over runs already grouped.
fn judge_grouped(times: Vec<RunTimes>, replicates: usize, candidates: &[String]) -> Result<BenchReport, String> {
    let keys: BTreeSet<(String, String)> = times.iter().flat_map(|t| t.by.keys().cloned()).collect();
    let mut medians: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for (case, variant) in &keys {
        let runs: Vec<Vec<ByRound>> = times.iter().filter_map(|t| t.by.get(&(case.clone(), variant.clone())).map(|b| vec![b.clone()])).collect();
        medians.entry(case.clone()).or_default().insert(variant.clone(), Side::new(&runs, &|v: &[f64]| v[0]).value());
    }
    // Only candidate forms (`x-…`): a dispatched form judged against itself, or a copy or a peer
    // held to the copy target, would say nothing.
    if let Some(other) = candidates.iter().find(|c| !c.starts_with("x-")) {
        return Err(format!("`{other}` is not a candidate: candidates are the variants named `x-…`, judged against the dispatched form"));
    }
    if let Some(missing) = candidates.iter().find(|c| !medians.values().any(|by| by.contains_key(c.as_str()))) {
        return Err(format!("candidate `{missing}` was not timed in any of the runs (candidates are variants named `x-…` in the table)"));
    }
    let mut rows = Vec::new();
    let mut pending = Vec::new();
    let mut pending_candidates = Vec::new();
    for (case, by_variant) in &medians {
        let (r, cols) = case.split_once('x').and_then(|(r, c)| Some((r.parse::<f64>().ok()?, c.parse::<f64>().ok()?))).ok_or(format!("case `{case}` is not RxC"))?;
        let bytes = 2.0 * r * cols * 4.0;
        let best = |names: &[&str]| names.iter().filter_map(|p| by_variant.get(*p)).copied().fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))));
        let copy = best(&COPIES);
        let (best_peer, best_rms_peer) = (best(&PLAIN_PEERS), best(&RMS_PEERS));
        for (variant, &median) in by_variant {
            let speedup = match variant.as_str() {
                "fused" => best_peer.map(|p| p / median),
                // Runs from before the RMS-scaled peer existed compared it with the plain peers.
                "fused-rms" => best_rms_peer.or(best_peer).map(|p| p / median),
                _ => None,
            };
            rows.push(Row {
                case: case.clone(),
                variant: variant.clone(),
                median_us: median,
                gb_per_s: bytes / median / 1e3,
                fraction_of_copy: copy.map_or(f64::NAN, |c| c / median),
                speedup_over_best_peer: speedup,
            });
        }
        pending.extend(targets_of(case, r, cols, by_variant));
        pending_candidates.extend(candidate_goals(case, r, cols, by_variant, candidates));
    }
    // Each family draws as many replicates as its own Holm levels need, so that candidates
    // never change how the targets are drawn.
    let candidate_replicates = replicates.max(family::replicates_needed(pending_candidates.len(), FAMILY_ALPHA));
    let replicates = replicates.max(family::replicates_needed(pending.len(), FAMILY_ALPHA));
    let targets = decide(&times, pending, replicates);
    let candidates = decide(&times, pending_candidates, candidate_replicates);
    Ok(BenchReport { runs: times.into_iter().map(|t| t.name).collect(), replicates, seed: DEFAULT_SEED, rows, targets, candidates, left_out: Vec::new(), orders: Vec::new() })
}

/// What a candidate is asked at a shape where it was timed: to be faster than the dispatched
/// form of its softmax (`fused-rms` for a name ending in `-rms`, `fused` otherwise), and to
/// reach the shape's copy target where it has one.
fn candidate_goals(case: &str, rows: f64, cols: f64, timed: &BTreeMap<String, f64>, candidates: &[String]) -> Vec<Pending> {
    let has = |v: &str| timed.contains_key(v);
    let copies: Vec<&'static str> = COPIES.into_iter().filter(|c| has(c)).collect();
    let mut out = Vec::new();
    for variant in candidates.iter().map(String::as_str).filter(|c| has(c)) {
        let rule = if variant.ends_with("-rms") { "fused-rms" } else { "fused" };
        if has(rule) {
            out.push(Pending { case: case.into(), goal: Goal::faster(variant, rule), vars: names(&[variant, rule]), eval: |v| v[1] / v[0] });
        }
        if let (Some(share), false) = (copy_target(rows, cols, case), copies.is_empty()) {
            out.push(Pending { case: case.into(), goal: Goal::copy_share(variant, share), vars: names(&[&[variant], &copies[..]].concat()), eval: best_copy_over_first });
        }
    }
    out
}

/// The copy-share quantity: the faster copy in each resampled run (`v[1..]`) over the variant
/// (`v[0]`), the ceiling not picked beforehand.
fn best_copy_over_first(v: &[f64]) -> f64 {
    v[1..].iter().copied().fold(f64::INFINITY, f64::min) / v[0]
}

/// The targets a shape has, given which variants were timed there.
fn targets_of(case: &str, rows: f64, cols: f64, timed: &BTreeMap<String, f64>) -> Vec<Pending> {
    let has = |v: &str| timed.contains_key(v);
    let mut out = Vec::new();
    let copies: Vec<&'static str> = COPIES.into_iter().filter(|c| has(c)).collect();
    if let (Some(share), false) = (copy_target(rows, cols, case), copies.is_empty()) {
        for variant in ["fused", "fused-rms"].into_iter().filter(|v| has(v)) {
            out.push(Pending { case: case.into(), goal: Goal::copy_share(variant, share), vars: names(&[&[variant], &copies[..]].concat()), eval: best_copy_over_first });
        }
    }
    let ratio: fn(&[f64]) -> f64 = |v| v[1] / v[0];
    for (variant, peers) in [("fused", &PLAIN_PEERS[..]), ("fused-rms", &RMS_PEERS[..])] {
        for &peer in peers.iter().filter(|p| has(variant) && has(p)) {
            out.push(Pending { case: case.into(), goal: Goal::faster(variant, peer), vars: names(&[variant, peer]), eval: ratio });
        }
    }
    if has("fused") && has("fused-rms") {
        out.push(Pending { case: case.into(), goal: Goal::Near { slack: RMS_SLACK }, vars: names(&["fused-rms", "fused"]), eval: ratio });
    }
    out
}

/// Variant names as a target's quantity holds them.
fn names(variants: &[&str]) -> Vec<String> {
    variants.iter().map(|v| v.to_string()).collect()
}

/// Each target's bootstrap distribution, then Holm's procedure over the whole list.
fn decide(times: &[RunTimes], pending: Vec<Pending>, replicates: usize) -> Vec<Target> {
    // Only runs that timed every variant of the quantity, so that its rounds stay paired.
    // Variants timed only in different runs cannot be paired: no target, rather than one
    // judged on nothing.
    let jobs: Vec<(Pending, Vec<Vec<ByRound>>)> = pending
        .into_iter()
        .map(|p| {
            let runs = times.iter().filter_map(|t| p.vars.iter().map(|v| t.by.get(&(p.case.clone(), v.clone())).cloned()).collect::<Option<Vec<_>>>()).collect();
            (p, runs)
        })
        .filter(|(_, runs): &(Pending, Vec<Vec<ByRound>>)| !runs.is_empty())
        .collect();
    // Each target draws from its own seed, so spreading them over threads changes no bit.
    let measured = parallel_map(&jobs, |(p, runs)| {
        let side = Side::new(runs, &p.eval);
        let mut rng = ChaCha8Rng::seed_from_u64(row_seed(DEFAULT_SEED, &["bench-report", &p.case, &p.goal.key()]));
        (side.value(), log_distribution(&side, &mut rng, replicates))
    });
    let trials: Vec<Trial> = jobs
        .iter()
        .zip(&measured)
        .map(|((p, _), (_, dist))| dist.as_deref().map_or(Trial { p_match: 1.0, p_mismatch: 1.0 }, |d| family::ordering_trial(d, p.goal.bound().ln())))
        .collect();
    jobs.into_iter()
        .zip(measured)
        .zip(family::holm(&trials, FAMILY_ALPHA))
        .map(|(((p, runs), (value, dist)), d)| Target {
            case: p.case,
            goal: p.goal,
            value,
            interval: dist.map_or((0.0, f64::INFINITY), |dist| {
                let (lo, hi) = percentile_interval(&dist, d.level);
                (lo.exp(), hi.exp())
            }),
            outcome: d.claim.into(),
            runs: runs.len(),
        })
        .collect()
}

/// How a run timed the benchmark. Every peer is timed by graph replay with events where a run
/// has graph samples; the table then reads only those, so that every row is timed by the same
/// protocol. Older runs hold stream samples only.
fn protocol(samples: &[SampleRecord]) -> &'static str {
    if samples.iter().any(|s| s.suite == "softmax-bench" && s.mode == "graph") { "graph" } else { "stream" }
}

/// Every run's benchmark samples grouped by shape, variant and round, all under one protocol.
fn group(runs: &[(String, Vec<SampleRecord>)]) -> Result<Vec<RunTimes>, String> {
    let mut out: Vec<RunTimes> = Vec::new();
    let mut mode_of: Option<(&str, &str)> = None;
    for (name, samples) in runs {
        if out.iter().any(|t| &t.name == name) {
            return Err(format!("{name} is named twice; each run is one replicate"));
        }
        if !samples.iter().any(|s| s.suite == "softmax-bench") {
            return Err(format!("{name}: no softmax-bench samples in this run"));
        }
        let mode = protocol(samples);
        match mode_of {
            Some((first, m)) if m != mode => return Err(format!("{name}: timed by {mode} where {first} was timed by {m}; runs pooled in one report must be timed alike")),
            None => mode_of = Some((name, mode)),
            _ => {}
        }
        let mut by: BTreeMap<(String, String), BTreeMap<u64, Vec<f64>>> = BTreeMap::new();
        for s in samples.iter().filter(|s| s.suite == "softmax-bench" && s.mode == mode) {
            if !(s.device_us.is_finite() && s.device_us > 0.0) {
                return Err(format!("{name}: {} {} round {}: device time {} is not a positive number", s.case, s.variant, s.round, s.device_us));
            }
            by.entry((s.case.clone(), s.variant.clone())).or_default().entry(u64::from(s.round)).or_default().push(s.device_us);
        }
        if by.is_empty() {
            return Err(format!("{name}: no softmax-bench samples timed by {mode}"));
        }
        out.push(RunTimes { name: name.clone(), by: by.into_iter().map(|(k, rounds)| (k, ByRound::medians_of(rounds))).collect() });
    }
    if out.is_empty() {
        return Err("no run given".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rounds` samples of `variant` around `us`, each round off by up to ±`jitter` (a
    /// fraction) in a fixed order that differs between variants, so that every test sees the
    /// same spread and no two variants move together.
    fn timed(case: &str, variant: &str, us: f64, jitter: f64, rounds: u32) -> Vec<SampleRecord> {
        let shift: u32 = variant.bytes().map(u32::from).sum();
        (0..rounds)
            .map(|round| {
                let step = f64::from((round * 8 + shift) % rounds) / f64::from(rounds.max(2) - 1) - 0.5;
                let v = us * (1.0 + 2.0 * jitter * step);
                SampleRecord {
                    suite: "softmax-bench".into(),
                    case: case.into(),
                    variant: variant.into(),
                    mode: "graph".into(),
                    round,
                    order: 0,
                    host_us: v,
                    device_us: v,
                    protocol: None,
                }
            })
            .collect()
    }

    fn code(kernels: &[&str], instructions: &[&str]) -> Code {
        Code {
            kernels: kernels.iter().map(|k| k.to_string()).collect(),
            instructions: instructions.iter().map(|i| i.to_string()).collect(),
            sets: SetsTaken::new(crate::evidence::meta::SetRotation::PerEntry, 1),
            peer_sets: None,
        }
    }

    #[test]
    fn runs_of_one_seed_and_the_same_entries_count_as_one_order() {
        let meta = |seed: u64, variants: &[&str], peer_seed: Option<u64>| -> std::rc::Rc<Meta> {
            let peers = peer_seed.map(|s| format!(r#","peers":[{{"seed":{s},"peers":["torch","triton"]}}]"#)).unwrap_or_default();
            let variants = serde_json::to_string(variants).unwrap();
            let text = format!(
                r#"{{"settings":{{"rounds":21,"warmup":5,"seed":{seed},"validation_fixtures":2}},"cases":[{{"suite":"softmax-bench","case":"8x262144","shape":[8,262144],"rotation_sets":8,"bytes_per_set":1,"timing_fixture_seed":1,"variants":{variants},"modes":["stream","graph"],"logical_bytes":{{}},"dispatch":null}},{{"suite":"softmax","case":"8x262144","shape":[8,262144],"rotation_sets":8,"bytes_per_set":1,"timing_fixture_seed":1,"variants":[],"modes":[],"logical_bytes":{{}},"dispatch":null}}]{peers}}}"#
            );
            std::rc::Rc::new(serde_json::from_str(&text).unwrap())
        };
        let plain = ["copy", "fused"];
        let count = |metas: &[std::rc::Rc<Meta>]| orders(metas).iter().map(|o| (o.case.clone(), o.ours, o.peers)).collect::<Vec<_>>();
        let shared = |metas: &[std::rc::Rc<Meta>]| orders(metas).iter().map(Orders::shared).collect::<Vec<_>>();
        assert_eq!(shared(&[meta(1, &plain, Some(1)), meta(2, &plain, Some(2))]), [false]);
        assert_eq!(shared(&[meta(1, &plain, Some(1)), meta(2, &plain, Some(1))]), [true], "the peers shared their order");
        assert_eq!(shared(&[meta(1, &plain, None), meta(1, &plain, Some(1))]), [true]);
        // Same seed, same entries: one order, however many runs, whatever other suites hold.
        assert_eq!(count(&[meta(1, &plain, Some(1)), meta(1, &plain, Some(1)), meta(1, &plain, Some(1))]), [("8x262144".to_string(), 1, 1)]);
        // Another seed, or another entry list under the same seed, is another shuffle.
        assert_eq!(count(&[meta(1, &plain, Some(1)), meta(2, &plain, Some(1))]), [("8x262144".to_string(), 2, 1)]);
        assert_eq!(count(&[meta(1, &plain, Some(1)), meta(1, &["copy", "fused", "x-slot-4x512"], Some(2))]), [("8x262144".to_string(), 2, 2)]);
        assert_eq!(count(&[meta(1, &plain, None), meta(2, &plain, None)]), [("8x262144".to_string(), 2, 0)]);
    }

    #[test]
    fn one_set_pools_whichever_rotation_is_recorded_but_not_with_two() {
        let meta = |sets: usize, rotation: &str| -> Meta {
            serde_json::from_str(&format!(
                r#"{{"cases":[{{"suite":"softmax-bench","case":"4096x4096","shape":[4096,4096],"rotation_sets":{sets},"rotation":"{rotation}","bytes_per_set":1,"timing_fixture_seed":1,"variants":[],"modes":[],"logical_bytes":{{}},"dispatch":"k: x"}}]}}"#
            ))
            .unwrap()
        };
        let code = |sets, rotation| declared_code(&meta(sets, rotation));
        assert_eq!(same_code(&[("r1", code(1, "per-entry")), ("r2", code(1, "per-invocation"))]), Ok(()));
        assert_eq!(
            same_code(&[("r1", code(1, "per-invocation")), ("r2", code(2, "per-invocation"))]).unwrap_err(),
            "4096x4096: r1 took its buffer sets from one set but r2 per invocation over 2 sets; runs pooled as replicates must be timed by the same protocol (report them one by one)"
        );
        // The peers' count, as their script records it, is compared too.
        let with_peers = |peer_sets: usize| {
            let mut meta = meta(2, "per-invocation");
            meta.peers = vec![serde_json::json!({ "rotation": "per-invocation", "rotation_sets": { "4096x4096": peer_sets } })];
            declared_code(&meta)
        };
        assert_eq!(same_code(&[("r1", with_peers(2)), ("r2", with_peers(2))]), Ok(()));
        assert_eq!(
            same_code(&[("r1", with_peers(2)), ("r2", with_peers(1))]).unwrap_err(),
            "4096x4096: r1 replayed the peers per invocation over 2 sets but r2 from one set; runs pooled as replicates must time the same peers (report them one by one)"
        );
    }

    #[test]
    fn runs_that_took_their_buffer_sets_otherwise_are_not_pooled() {
        // A run from before `rotation` was recorded, ours and the peers' alike, took its sets
        // per entry; one that records `per-invocation` was timed by another protocol.
        let meta = |rotation: Option<&str>| -> Meta {
            let extra = rotation.map(|r| format!(r#","rotation":"{r}""#)).unwrap_or_default();
            let text = format!(
                r#"{{"status":"accepted","suites":["softmax-bench"],"cases":[{{"suite":"softmax-bench","case":"8x262144","shape":[8,262144],"rotation_sets":8,"bytes_per_set":1,"timing_fixture_seed":1,"variants":[],"modes":[],"logical_bytes":{{}},"dispatch":"k: x"{extra}}}],"peers":[{{"torch":"2.11.0"{extra}}}]}}"#
            );
            serde_json::from_str(&text).unwrap()
        };
        let (old, also_old, new) = (declared_code(&meta(None)), declared_code(&meta(Some("per-entry"))), declared_code(&meta(Some("per-invocation"))));
        assert_eq!(same_code(&[("r1", old.clone()), ("r2", also_old)]), Ok(()));
        let e = same_code(&[("r1", old.clone()), ("r2", new.clone())]).unwrap_err();
        assert_eq!(
            e,
            "8x262144: r1 took its buffer sets per entry over 8 sets but r2 per invocation over 8 sets; runs pooled as replicates must be timed by the same protocol (report them one by one)"
        );
        // The peers alone differ too: their script recorded its rotation only once it changed.
        let mut ours_alike = new.clone();
        ours_alike.shapes = old.shapes.clone();
        let e = same_code(&[("r1", old), ("r2", ours_alike)]).unwrap_err();
        assert_eq!(
            e,
            "r1 timed the peers with rotation per-entry but r2 with rotation per-invocation; runs pooled as replicates must time the same peers (report them one by one)"
        );
    }

    #[test]
    fn runs_of_other_kernels_or_other_instructions_are_not_pooled() {
        let case = |c: Code| RunCode { shapes: BTreeMap::from([("8x262144".to_string(), c)]), peers: BTreeMap::new() };
        let slot = code(&["rms", "plain"], &["a", "b"]);
        assert_eq!(same_code(&[("r1", case(slot.clone())), ("r2", case(slot.clone())), ("r3", RunCode::default())]), Ok(()));
        let e = same_code(&[("r1", case(slot.clone())), ("r2", case(code(&["rms2", "plain"], &["a", "b"])))]).unwrap_err();
        assert!(e.starts_with("8x262144: r1 dispatched `rms`, `plain` but r2 dispatched `rms2`, `plain`"), "{e}");
        let e = same_code(&[("r1", case(slot.clone())), ("r2", case(slot.clone())), ("r3", case(code(&["rms", "plain"], &["a", "c"])))]).unwrap_err();
        assert!(e.starts_with("8x262144: r1 and r3 both dispatched `rms`, `plain`, but compiled to different instructions"), "{e}");
        // A shape the first run lacks is compared between the runs that have it.
        let e = same_code(&[("r1", RunCode::default()), ("r2", case(slot.clone())), ("r3", case(code(&[], &[])))]).unwrap_err();
        assert!(e.contains("r2 dispatched `rms`, `plain` but r3 dispatched no recorded kernel"), "{e}");
    }

    #[test]
    fn runs_whose_peers_ran_other_libraries_are_not_pooled() {
        let peers = |pairs: &[(&str, &str)]| RunCode { shapes: BTreeMap::new(), peers: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect() };
        let now = peers(&[("torch", "2.11.0+cu130"), ("liger_kernel", "0.8.5")]);
        // A run from before the Liger version was recorded pools with one that records it.
        assert_eq!(same_code(&[("r1", peers(&[("torch", "2.11.0+cu130")])), ("r2", now.clone()), ("r3", now.clone())]), Ok(()));
        let e = same_code(&[("r1", peers(&[("torch", "2.11.0+cu130")])), ("r2", now.clone()), ("r3", peers(&[("liger_kernel", "0.9.0")]))]).unwrap_err();
        assert_eq!(e, "r2 timed the peers with liger_kernel 0.8.5 but r3 with liger_kernel 0.9.0; runs pooled as replicates must time the same peers (report them one by one)");
    }

    fn run(parts: &[(&str, &str, f64, f64)]) -> Vec<SampleRecord> {
        parts.iter().flat_map(|&(case, variant, us, jitter)| timed(case, variant, us, jitter, 21)).collect()
    }

    fn one(samples: Vec<SampleRecord>) -> BenchReport {
        judge(&[("r".into(), samples)]).unwrap()
    }

    fn outcome(report: &BenchReport, case: &str, goal: Goal) -> Judgement {
        report.targets.iter().find(|t| t.case == case && t.goal == goal).unwrap_or_else(|| panic!("no {goal:?} at {case}: {:?}", report.targets)).outcome
    }

    #[test]
    fn bandwidth_fraction_and_speedup_come_from_medians() {
        let report = one(run(&[
            ("1024x1024", "copy", 2.5, 0.01),
            ("1024x1024", "copy-kernel", 2.0, 0.01),
            ("1024x1024", "fused", 2.04, 0.01),
            ("1024x1024", "cudnn", 4.2, 0.01),
            ("1024x1024", "torch", 3.0, 0.01),
            ("1024x1024", "fused-rms", 2.05, 0.01),
        ]));
        let fused = report.rows.iter().find(|r| r.variant == "fused").unwrap();
        assert!((fused.median_us - 2.04).abs() < 1e-12, "{fused:?}");
        assert!((fused.gb_per_s - 2.0 * 1024.0 * 1024.0 * 4.0 / 2.04 / 1e3).abs() < 1e-9);
        assert!((fused.fraction_of_copy - 2.0 / 2.04).abs() < 1e-12);
        assert!((fused.speedup_over_best_peer.unwrap() - 3.0 / 2.04).abs() < 1e-12);
        // Margins of 2 % and more with 1 % jitter are shown, each target with its interval.
        assert!(report.all_met(), "{:?}", report.targets);
        let share = report.targets.iter().find(|t| matches!(&t.goal, Goal::CopyShare { variant, .. } if variant == "fused")).unwrap();
        assert!(share.interval.0 < share.value && share.value < share.interval.1 && share.interval.0 > 0.95, "{share:?}");
    }

    #[test]
    fn the_copy_targets_follow_the_shape() {
        let shares = |case: &str, fused: f64, rms: f64| {
            let report = one(run(&[(case, "copy", 8.0, 0.002), (case, "fused", fused, 0.002), (case, "fused-rms", rms, 0.002)]));
            report.targets.into_iter().filter_map(|t| matches!(t.goal, Goal::CopyShare { .. }).then_some((t.goal.clone(), t.outcome))).collect::<Vec<_>>()
        };
        // 95 % at a shape of 2^20 elements or more, for both softmaxes: 8 µs against 8.4 µs is
        // 95.2 %, against 8.5 µs 94.1 %.
        let big = shares("1024x1024", 8.4, 8.5);
        assert_eq!(big, [(Goal::copy_share("fused", 0.95), Judgement::Match), (Goal::copy_share("fused-rms", 0.95), Judgement::Mismatch)]);
        // 80 % at 8×262144: 9.9 µs against an 8 µs copy holds, 10.1 µs does not.
        let long = shares("8x262144", 9.9, 10.1);
        assert_eq!(long.iter().map(|(_, o)| *o).collect::<Vec<_>>(), [Judgement::Match, Judgement::Mismatch]);
        assert!(matches!(long[0].0, Goal::CopyShare { share, .. } if share == 0.80));
        // None below 2^20 elements, where the launch, not the bytes, sets the time.
        assert!(shares("4096x128", 80.0, 80.0).is_empty());
    }

    #[test]
    fn a_median_on_the_right_side_by_chance_is_not_a_met_target() {
        // The medians put fused 0.5 % ahead of cuDNN, but rounds spread by ±3 %: medians alone
        // would call this met; the rule cannot tell, and the report must not pass.
        let report = one(run(&[("1024x1024", "copy", 2.0, 0.03), ("1024x1024", "fused", 2.0, 0.03), ("1024x1024", "cudnn", 2.01, 0.03)]));
        let row = |v: &str| report.rows.iter().find(|r| r.variant == v).unwrap().median_us;
        assert!(row("fused") < row("cudnn"));
        assert_eq!(outcome(&report, "1024x1024", Goal::faster("fused", "cudnn")), Judgement::Inconclusive);
        assert!(!report.all_met());
    }

    #[test]
    fn a_clear_miss_is_a_mismatch() {
        let report = one(run(&[("1024x1024", "copy", 2.0, 0.01), ("1024x1024", "fused", 3.0, 0.01), ("1024x1024", "cudnn", 2.5, 0.01)]));
        assert_eq!(outcome(&report, "1024x1024", Goal::copy_share("fused", 0.95)), Judgement::Mismatch);
        assert_eq!(outcome(&report, "1024x1024", Goal::faster("fused", "cudnn")), Judgement::Mismatch);
    }

    #[test]
    fn the_ceiling_is_the_faster_copy_and_the_rms_softmax_is_held_near_the_plain_one() {
        let report =
            one(run(&[("1024x1024", "copy", 3.0, 0.005), ("1024x1024", "copy-kernel", 2.0, 0.005), ("1024x1024", "fused", 2.05, 0.005), ("1024x1024", "fused-rms", 2.4, 0.005)]));
        // 2.0 ÷ 2.05: the kernel copy is the ceiling, not the slower DMA copy.
        let share = report.targets.iter().find(|t| t.goal == Goal::copy_share("fused", 0.95)).unwrap();
        assert!((share.value - 2.0 / 2.05).abs() < 1e-12, "{share:?}");
        assert_eq!(share.outcome, Judgement::Match);
        // fused-rms is 17 % slower than fused: more than the 10 % allowed.
        assert_eq!(outcome(&report, "1024x1024", Goal::Near { slack: 0.10 }), Judgement::Mismatch);
    }

    #[test]
    fn runs_are_pooled_as_replicates() {
        // Three runs: in one the medians say fused is ahead, in two it is 4 % behind. The table
        // shows the median of the runs' medians, and the target is judged over all three.
        let a = run(&[("1024x1024", "copy", 2.0, 0.002), ("1024x1024", "fused", 2.0, 0.002), ("1024x1024", "cudnn", 2.02, 0.002)]);
        let b = run(&[("1024x1024", "copy", 2.0, 0.002), ("1024x1024", "fused", 2.1, 0.002), ("1024x1024", "cudnn", 2.02, 0.002)]);
        let c = run(&[("1024x1024", "copy", 2.0, 0.002), ("1024x1024", "fused", 2.1, 0.002), ("1024x1024", "cudnn", 2.02, 0.002)]);
        let alone = one(a.clone());
        assert_eq!(outcome(&alone, "1024x1024", Goal::faster("fused", "cudnn")), Judgement::Match);
        let pooled = judge(&[("a".into(), a), ("b".into(), b), ("c".into(), c)]).unwrap();
        assert_eq!(pooled.runs, ["a", "b", "c"]);
        let fused = pooled.rows.iter().find(|r| r.variant == "fused").unwrap();
        assert!((fused.median_us - 2.1).abs() < 1e-12, "{fused:?}");
        let target = pooled.targets.iter().find(|t| t.goal == Goal::faster("fused", "cudnn")).unwrap();
        assert_eq!(target.runs, 3);
        assert_ne!(target.outcome, Judgement::Match, "{target:?}");
    }

    #[test]
    fn every_interval_agrees_with_its_outcome() {
        // Clear wins, clear losses and ties, judged together as one list.
        let report = one(run(&[
            ("1024x1024", "copy", 2.0, 0.02),
            ("1024x1024", "fused", 2.0, 0.02),
            ("1024x1024", "fused-rms", 2.5, 0.02),
            ("1024x1024", "cudnn", 2.6, 0.02),
            ("1024x1024", "torch", 2.0, 0.02),
            ("1024x1024", "torch-compile-rms", 2.0, 0.02),
        ]));
        let outcomes: std::collections::BTreeSet<Judgement> = report.targets.iter().map(|t| t.outcome).collect();
        assert_eq!(outcomes.len(), 3, "{:?}", report.targets);
        for t in &report.targets {
            let (lo, hi) = t.interval;
            assert!(lo <= t.value && t.value <= hi, "{t:?}");
            match t.outcome {
                Judgement::Match => assert!(lo > t.goal.bound(), "{t:?}"),
                Judgement::Mismatch => assert!(hi < t.goal.bound(), "{t:?}"),
                _ => {}
            }
        }
    }

    #[test]
    fn runs_timed_alike_and_named_once() {
        let graph = run(&[("1024x1024", "copy", 2.0, 0.01), ("1024x1024", "fused", 2.1, 0.01)]);
        let mut stream = graph.clone();
        stream.iter_mut().for_each(|s| s.mode = "stream".into());
        let mixed = judge(&[("g".into(), graph.clone()), ("s".into(), stream)]).unwrap_err();
        assert!(mixed.contains("s: timed by stream where g was timed by graph"), "{mixed}");
        let twice = judge(&[("g".into(), graph.clone()), ("g".into(), graph)]).unwrap_err();
        assert!(twice.contains("g is named twice"), "{twice}");
        assert!(judge(&[("e".into(), Vec::new())]).unwrap_err().contains("e: no softmax-bench samples"));
    }

    #[test]
    fn variants_timed_only_in_different_runs_make_no_target() {
        let a = run(&[("1024x1024", "copy", 2.0, 0.01), ("1024x1024", "cudnn", 2.5, 0.01)]);
        let b = run(&[("1024x1024", "fused", 2.0, 0.01)]);
        let report = judge(&[("a".into(), a), ("b".into(), b)]).unwrap();
        assert_eq!(report.rows.len(), 3);
        assert!(report.targets.is_empty(), "{:?}", report.targets);
    }

    #[test]
    fn candidates_are_judged_apart_from_the_targets() {
        // A plain candidate 5 % ahead of the dispatched form, an RMS-scaled one level with its
        // own; the copy target is missed by both dispatched forms.
        let samples = run(&[
            ("1024x1024", "copy", 2.0, 0.005),
            ("1024x1024", "fused", 2.3, 0.005),
            ("1024x1024", "fused-rms", 2.3, 0.005),
            ("1024x1024", "x-a", 2.19, 0.005),
            ("1024x1024", "x-a-rms", 2.3, 0.005),
        ]);
        let runs = [("r".to_string(), samples)];
        let alone = judge(&runs).unwrap();
        let with = judge_with(&runs, DEFAULT_REPLICATES, &["x-a".into(), "x-a-rms".into()]).unwrap();
        assert!(alone.candidates.is_empty());
        assert_eq!(with.targets, alone.targets, "asking about candidates moves no target");
        let judged: Vec<(Goal, Judgement)> = with.candidates.iter().map(|t| (t.goal.clone(), t.outcome)).collect();
        assert_eq!(
            judged,
            [
                (Goal::faster("x-a", "fused"), Judgement::Match),
                (Goal::copy_share("x-a", 0.95), Judgement::Mismatch),
                (Goal::faster("x-a-rms", "fused-rms"), Judgement::Inconclusive),
                (Goal::copy_share("x-a-rms", 0.95), Judgement::Mismatch),
            ]
        );
        // Many candidates need more replicates than the targets do; the targets are drawn as
        // they would be without them.
        let many: Vec<String> = (0..40).map(|i| format!("x-c{i}")).collect();
        let mut samples = runs[0].1.clone();
        for name in &many {
            samples.extend(timed("1024x1024", name, 2.25, 0.005, 21));
        }
        let runs_many = [("r".to_string(), samples)];
        let few = judge_with(&runs_many, 100, &[]).unwrap();
        let crowded = judge_with(&runs_many, 100, &many).unwrap();
        assert_eq!(crowded.targets, few.targets);
        assert_eq!(crowded.replicates, few.replicates);
        assert_eq!(crowded.candidates.len(), 2 * many.len());
        // A name no run timed is a mistake to say, not a candidate with nothing to judge.
        let e = judge_with(&runs, DEFAULT_REPLICATES, &["x-b".into()]).unwrap_err();
        assert!(e.contains("candidate `x-b` was not timed in any of the runs"), "{e}");
        for other in ["fused-rms", "copy", ""] {
            let e = judge_with(&runs, DEFAULT_REPLICATES, &[other.into()]).unwrap_err();
            assert!(e.contains(&format!("`{other}` is not a candidate: candidates are the variants named `x-…`")), "{e}");
        }
    }

    #[test]
    fn a_time_that_is_not_positive_is_refused_with_its_place() {
        let mut samples = run(&[("1024x1024", "copy", 2.0, 0.01), ("1024x1024", "fused", 2.1, 0.01)]);
        samples[3].device_us = 0.0;
        let e = judge(&[("r".into(), samples)]).unwrap_err();
        assert!(e.contains("r: 1024x1024 copy round 3: device time 0 is not a positive number"), "{e}");
    }
}
