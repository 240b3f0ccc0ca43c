//! Rechecking quoted latencies: offline against the raw samples and saved summaries, and
//! against a fresh run of the suites on the device. This module owns which checks are
//! rechecked, the equivalence rule and its bootstrap; it never runs the GPU itself (the
//! command hands it a fresh run) and never prints (the renderer in `report::recheck` does).
//!
//! What is rechecked:
//! - a **latency**: a `stat` check, or an `arith` check over `stat` variables, whose quoted
//!   number is a time (ns, µs, ms, s) and whose statistics locate the samples (a median, a
//!   percentile, a slope), not their spread (a standard deviation is a time but no latency);
//! - an **ordering**: a `compare` check (variant A faster than variant B, optionally by at least
//!   a ratio).
//!
//! # The rule
//!
//! A latency is judged by an equivalence test on ln(fresh ÷ accepted) of the quantity the
//! check computes (a median, a slope, or an expression over them), with the check's margin δ
//! (default 10 %), by a **hierarchical bootstrap** ([`hierarchical`]): runs are the unit of
//! replication, so each side's runs are resampled, then the rounds within each drawn run, and
//! a side's value is the median of its runs' values. A side of one run is widened by the
//! between-run spread that `claimcheck calibrate` measured for that configuration
//! (`evidence/calibration.json`; the table says so per row). Every row states MATCH or
//! MISMATCH only when its one-sided tests are rejected under Holm's procedure over the whole
//! table ([`family`]), so that the chance of any false claim in the table is at most 5 %; the
//! level each row was tested at is shown with the interval at that level. A fresh run whose
//! device model or driver major version differs from the accepted run's, whose SM clock
//! differs from it by more than [`CLOCK_BOUND`], or that took a configuration's buffer sets
//! otherwise (another count, or another rotation where there were several:
//! [`RunInfo::sets_differ`]), is INCOMPARABLE for
//! those rows. So is a row whose statistic the bootstrap gives no valid interval, an extreme
//! or a percentile with few samples beyond it ([`hierarchical::no_interval`]), offline too for
//! an ordering; offline, a latency's quote is still held against the recomputed value, which
//! needs no interval.
//!
//! An ordering is judged inside one run (the fresh one, or offline the accepted one), so it
//! holds across devices: ln(slower ÷ faster) must lie above ln(min-ratio) (0 without one) for
//! MATCH, below for MISMATCH, under the same family-wise control. A check with several cases
//! gives one row per pair. Samples recorded under different protocols are never ordered.
//!
//! Resampling rounds rather than single samples keeps together what one round measured, so an
//! expression over several configurations (a difference of two medians) sees the pairing the
//! shuffled round order gave it. For the same reason a slope (criterion's estimate in linear
//! sampling, `statistic = "slope"` with `per`) keeps each record's (`per`, field) pair in its
//! round ([`Round`]): a draw takes a batch's iteration count and its time together, as
//! criterion's own bootstrap of the slope does, and never one field's values apart from the
//! other's.
//!
//! Another harness's output (hyperfine, criterion, …) is judged by the same rule in
//! [`harness`]: `recheck --fresh PATH` with a file or folder that is not one of our runs.
//! Offline, a latency whose query the records reader here cannot follow (another format,
//! `records`, `where`, `derive`, samples without a `round`) is recomputed there too, through
//! the check's own query.
//!
//! Runs judged before this rule (their `recheck.json` records `resampled = "rounds"`) are
//! judged again by the rule they were stored with, so that their tables still reproduce: each
//! run resampled by rounds, 2000 times, a 90 % percentile interval, no family-wise control.

pub(crate) mod calibrate;
pub(crate) mod device;
pub(crate) mod family;
pub(crate) mod harness;
pub(crate) mod hierarchical;
mod judge;

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::article::numbers::{Quoted, Unit, convert};
use crate::checks::{self, Check, Expect, Kind, Observation, Outcome, arith, compare, stat, units};
use crate::diagnostic::Diagnostic;
use crate::evidence::calibration::CalibrationFile;
use crate::evidence::meta::{self, Meta, SetsTaken, Settings};
use crate::evidence::store::{Evidence, ReadError};
use crate::evidence::{Jsonl, Scalar, Summary};
use crate::registry::binding::Binding;
use crate::report::recheck::{WireRecheck, WireRow};
use crate::stats::{Statistic, quantile_sorted};
use crate::status::{Failure, Status};
use crate::workspace::Workspace;

/// The margin δ a latency check gets when its registry entry names none.
pub(crate) const DEFAULT_MARGIN: f64 = 0.10;
/// The bootstrap seed when none is given; it is recorded with every judgement.
pub(crate) const DEFAULT_SEED: u64 = 20261202;
/// Resamples per judgement: enough for Holm's smallest level over a table of 250 rows to be
/// reachable (see [`family::replicates_needed`]).
pub(crate) const DEFAULT_REPLICATES: usize = 10_000;
/// The coverage of the interval shown beside every row (before family-wise adjustment).
pub(crate) const CONFIDENCE: f64 = 0.90;
/// How far the SM clock a configuration was timed at may differ between the fresh and the
/// accepted run before absolute times are not compared: a 5 % slower clock can make a
/// launch- or compute-bound kernel 5 % slower, half the default margin.
pub(crate) const CLOCK_BOUND: f64 = 0.05;

/// How the bootstrap resamples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    /// Runs, then rounds within each run; one-run sides widened by calibration; Holm over the
    /// table.
    Hierarchical,
    /// The rule before runs were the unit of replication: rounds of one run a side, a 90 %
    /// interval, no family-wise control. Kept so that stored tables still reproduce.
    Rounds,
}

impl Method {
    /// The name `recheck.json` records under `rule.resampled`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Method::Hierarchical => "runs, then rounds within each run",
            Method::Rounds => "rounds",
        }
    }
}

/// The bootstrap's seed, size and method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rule {
    pub seed: u64,
    pub replicates: usize,
    pub method: Method,
    /// The family-wise level (hierarchical rule only).
    pub alpha: f64,
}

impl Default for Rule {
    fn default() -> Rule {
        Rule { seed: DEFAULT_SEED, replicates: DEFAULT_REPLICATES, method: Method::Hierarchical, alpha: family::FAMILY_ALPHA }
    }
}

impl Rule {
    /// The rule with what the command line gives, the defaults for the rest.
    pub(crate) fn new(seed: Option<u64>, replicates: Option<usize>) -> Rule {
        Rule { seed: seed.unwrap_or(DEFAULT_SEED), replicates: replicates.unwrap_or(DEFAULT_REPLICATES), ..Rule::default() }
    }

    /// The rounds-only rule a stored table was judged by.
    pub(crate) fn rounds(seed: u64, replicates: usize) -> Rule {
        Rule { seed, replicates, method: Method::Rounds, alpha: f64::NAN }
    }
}

/// The outcome of one rechecked quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Judgement {
    Match,
    Inconclusive,
    Incomparable,
    Mismatch,
}

impl Judgement {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Judgement::Match => "MATCH",
            Judgement::Mismatch => "MISMATCH",
            Judgement::Inconclusive => "INCONCLUSIVE",
            Judgement::Incomparable => "INCOMPARABLE",
        }
    }
}

/// A rechecked latency or ordering, found in a registry.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub registry: String,
    pub claim: String,
    /// 1-based position of the check in its claim.
    pub check: usize,
    pub subject: Subject,
}

#[derive(Debug, Clone)]
pub(crate) enum Subject {
    Latency(Latency),
    Ordering(compare::Spec),
}

/// A quoted time and how to recompute it.
#[derive(Debug, Clone)]
pub(crate) struct Latency {
    /// The check as the registry states it: its quoted value is judged by the audit's rule.
    pub check: Check,
    pub quoted: Quoted,
    pub margin: f64,
    /// The expression over `vars`; `None` when the check is one `stat` query.
    pub expr: Option<arith::Expr>,
    pub expr_text: Option<String>,
    pub vars: Vec<(String, stat::Spec)>,
    /// The unit of a single `stat` query's value: the check's `unit`, the registry's
    /// `[[field]]` table or the field's name.
    pub unit: Option<Unit>,
    /// How the expression combines its variables' units, as the audit takes them
    /// (`arith::common_units`); `None` for one query, or where the audit takes the values as read.
    pub expr_units: Option<arith::CommonUnits>,
}

/// One line of a recheck's outcome table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub registry: String,
    pub claim: String,
    pub check: usize,
    pub kind: RowKind,
    /// The quoted number, or for an ordering `case: faster < slower`.
    pub what: String,
    /// Latency: the value recomputed from the accepted run. Ordering: slower ÷ faster there.
    pub accepted: Option<f64>,
    /// Latency: the value in the fresh run. Ordering: slower ÷ faster in the judged run.
    pub fresh: Option<f64>,
    /// Offline: the value the run's saved summary holds, where it holds one.
    pub summary: Option<f64>,
    /// The unit `accepted`, `fresh` and `summary` are shown in.
    pub unit: Option<Unit>,
    /// Fresh ÷ accepted (latency), where both exist.
    pub ratio: Option<f64>,
    /// The 90 % interval of the judged ratio (fresh ÷ accepted, or slower ÷ faster).
    pub interval: Option<(f64, f64)>,
    /// The margin δ (latency) or the minimum ratio (ordering) the interval was judged against.
    pub bound: Option<f64>,
    pub outcome: Judgement,
    pub detail: String,
    /// Hierarchical rule: the Holm level this row's claim was tested at (one-sided).
    pub level: Option<f64>,
    /// Hierarchical rule: the interval with `level` in each tail, which decides the outcome.
    pub adjusted: Option<(f64, f64)>,
    /// Hierarchical rule: runs on each side (accepted, fresh; an ordering's judged run on the
    /// fresh side) and the σ of ln value each one-run side was widened by (0 for none).
    pub runs: Option<RunsUsed>,
}

/// How many runs a row's sides had and how much a one-run side was widened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RunsUsed {
    pub accepted: usize,
    pub fresh: usize,
    pub widened_by: f64,
    /// Whether `widened_by` came from the calibration's default for configurations it did not
    /// measure.
    pub default_spread: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowKind {
    Latency,
    Ordering,
}

impl RowKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            RowKind::Latency => "latency",
            RowKind::Ordering => "ordering",
        }
    }
}

/// How the rows were judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The quoted numbers against the accepted runs' raw samples and saved summaries.
    Offline,
    /// A fresh run against the accepted runs.
    Fresh,
}

/// A recheck's result, for renderers.
#[derive(Debug, Clone)]
pub(crate) struct Report {
    pub mode: Mode,
    pub seed: u64,
    pub replicates: usize,
    pub method: Method,
    pub alpha: f64,
    /// The calibration the one-run sides were widened by, root-relative.
    pub calibration: Option<String>,
    /// Root-relative run directories the targets read, with the device each records.
    pub accepted: Vec<RunInfo>,
    pub fresh: Option<RunInfo>,
    pub rows: Vec<Row>,
    /// How many checks of the registries are not rechecked: neither latencies nor orderings,
    /// or, offline, queries other than a JSONL field read as it is.
    pub not_rechecked: usize,
}

impl Report {
    /// Needs attention when any row is a MISMATCH.
    pub(crate) fn status(&self) -> Status {
        Status::from_attention(self.rows.iter().any(|r| r.outcome == Judgement::Mismatch))
    }

    pub(crate) fn count(&self, outcome: Judgement) -> usize {
        self.rows.iter().filter(|r| r.outcome == outcome).count()
    }
}

/// What a run directory says about where it ran.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunInfo {
    pub path: String,
    pub status: Option<String>,
    pub device: Option<String>,
    pub driver_major: Option<i64>,
    pub suites: Vec<String>,
    pub settings: Option<Settings>,
    /// The SM clock each configuration was timed at, by (suite, case), where recorded.
    pub clocks: BTreeMap<(String, String), u32>,
    /// The SM clock the run-level readings before and after the run give (the lower).
    pub run_clock: Option<u32>,
    /// The run's record, where it has one, for how each configuration took its buffer sets.
    pub meta: Option<Rc<Meta>>,
}

impl RunInfo {
    /// Reads `dir/meta.json`; a run without one records nothing about its device.
    pub(crate) fn read(evidence: &Evidence, dir: &str) -> Result<RunInfo, Diagnostic> {
        let meta_path = format!("{dir}/meta.json");
        match evidence.json::<Meta>(&meta_path) {
            Ok(meta) => Ok(RunInfo::from_meta(dir, &meta)),
            Err(ReadError::Path(_)) => Ok(RunInfo::from_meta(dir, &Meta::default())),
            Err(e) => Err(e.at(&meta_path)),
        }
    }

    pub(crate) fn from_meta(dir: &str, meta: &Meta) -> RunInfo {
        let device = meta.device.as_ref();
        RunInfo {
            path: dir.to_string(),
            status: meta.status.clone(),
            device: device.map(|d| d.name.clone()).filter(|n| !n.is_empty()),
            // cuDriverGetVersion reports 1000 × major + 10 × minor; 0 means not recorded.
            driver_major: device.map(|d| d.driver_version).filter(|v| *v != 0).map(|v| i64::from(v) / 1000),
            suites: meta.suites.clone(),
            settings: meta.settings,
            clocks: meta.cases.iter().filter_map(|c| Some(((c.suite.clone(), c.case.clone()), c.clocks?.timed_mhz()))).collect(),
            run_clock: [&meta.clocks_before, &meta.clocks_after].iter().filter_map(|r| r.as_deref().and_then(meta::sm_mhz_of_reading)).min(),
            meta: Some(Rc::new(meta.clone())),
        }
    }

    /// How `variant` of `suite` `case` took its buffer sets, and how many there were.
    pub(crate) fn sets_of(&self, suite: &str, case: &str, variant: &str) -> Option<SetsTaken> {
        let meta = self.meta.as_deref()?;
        let c = meta.cases.iter().find(|c| c.suite == suite && c.case == case)?;
        Some(meta.sets_of(c, variant))
    }

    /// Why the absolute times of `variant` at `suite` `case` cannot be compared with
    /// `accepted`'s because the two runs took their buffer sets otherwise ([`SetsTaken`]): taking
    /// them per entry, or from one set, let an invocation find in L2 data of the one before it,
    /// and that moved times by several per cent. `None` where either run records no such case,
    /// or both took them alike (one set is one protocol whichever rotation is recorded).
    /// The reason comes in two parts, what differs and where, so that a row judged against
    /// several accepted runs can name them all after saying it once.
    pub(crate) fn sets_differ(&self, accepted: &RunInfo, suite: &str, case: &str, variant: &str) -> Option<(String, String)> {
        let (here, there) = (self.sets_of(suite, case, variant)?, accepted.sets_of(suite, case, variant)?);
        (here != there).then(|| (format!("{suite} {case} {variant}: buffer sets taken {} here and {} in", here.shown(), there.shown()), accepted.path.clone()))
    }

    /// The SM clock `suite` `case` was timed at: its own reading, else the run's.
    pub(crate) fn clock_of(&self, suite: &str, case: &str) -> Option<u32> {
        self.clocks.get(&(suite.to_string(), case.to_string())).copied().or(self.run_clock)
    }

    /// Why the absolute times of `suite` `case` here cannot be compared with `accepted`'s
    /// because the SM clocks differ by more than [`CLOCK_BOUND`]; `None` when they agree or
    /// either run records no clock.
    pub(crate) fn clock_differs(&self, accepted: &RunInfo, suite: &str, case: &str) -> Option<String> {
        let (here, there) = (self.clock_of(suite, case)?, accepted.clock_of(suite, case)?);
        let off = (f64::from(here) / f64::from(there)).ln().abs();
        (off > (1.0 + CLOCK_BOUND).ln()).then(|| format!("SM clock {here} MHz here, {there} MHz in {} ({suite} {case}; bound {:.0} %)", accepted.path, CLOCK_BOUND * 100.0))
    }

    /// Why absolute times of `self` cannot be compared with those of `accepted`, if they can't.
    pub(crate) fn incomparable_with(&self, accepted: &RunInfo) -> Option<String> {
        match (&self.device, &accepted.device, self.driver_major, accepted.driver_major) {
            (Some(a), Some(b), Some(da), Some(db)) if a == b && da == db => None,
            (Some(a), Some(b), Some(da), Some(db)) if a == b => Some(format!("driver {da}.x here, {db}.x in {}", accepted.path)),
            (Some(a), Some(b), _, _) if a != b => Some(format!("{a} here, {b} in {}", accepted.path)),
            _ => Some(format!("{} records no device and driver to compare with", accepted.path)),
        }
    }
}

/// The rechecked checks of every registry, bound to their sentences as the audit binds them
/// (through the lock). A claim whose quote does not bind is left out.
pub(crate) fn targets(ws: &Workspace) -> Result<(Vec<Target>, usize), Vec<Diagnostic>> {
    if !ws.diagnostics.is_empty() {
        return Err(ws.diagnostics.clone());
    }
    let mut out = Vec::new();
    let mut skipped = 0;
    for loaded in &ws.registries {
        collect(&loaded.registry, &loaded.bindings, &mut out, &mut skipped);
    }
    Ok((out, skipped))
}

fn collect(registry: &crate::registry::Registry, bindings: &[Binding], out: &mut Vec<Target>, skipped: &mut usize) {
    for (claim, bound) in registry.claims.iter().zip(bindings) {
        let Binding::Bound(b) = bound else {
            *skipped += claim.checks.len();
            continue;
        };
        for (idx, (check, cb)) in claim.checks.iter().zip(&b.checks).enumerate() {
            // The kinds table says which kinds are rechecked at all; below, which of their
            // checks are latencies (a time quoted) or orderings.
            if !check.kind.name().rechecked() {
                *skipped += 1;
                continue;
            }
            let target = |subject| Target { registry: registry.file.clone(), claim: claim.id.get_ref().clone(), check: idx + 1, subject };
            let is_time = |q: &Quoted| q.unit.as_ref().and_then(Unit::seconds).is_some();
            let latency = |quoted: &Quoted, expr: Option<arith::Expr>, expr_text, vars: Vec<(String, stat::Spec)>| Latency {
                check: check.clone(),
                quoted: quoted.clone(),
                margin: check.common.margin.unwrap_or(DEFAULT_MARGIN),
                expr_units: expr.as_ref().and_then(|e| {
                    let known = vars.iter().map(|(name, spec)| (name.as_str(), arith::Known::of(spec, &registry.field_units))).collect();
                    arith::common_units(e, &known)
                }),
                expr,
                expr_text,
                unit: vars.first().and_then(|(_, spec)| checks::unit_of_value(check, units::of_field(&registry.field_units, spec.field.get_ref()))),
                vars,
            };
            match (&check.kind, &cb.quoted) {
                // A median's interval (`median-ci`, benchstat's `± 4%`) is passed over below: a
                // percentage, not a latency, that already states the median's sampling
                // uncertainty; resampling it would judge the uncertainty of an uncertainty
                // against a latency's margin. JMH's error (`jmh-error`), the range around a
                // mean (`mean-range`) and a standard deviation (hyperfine's `± σ`) are passed
                // over for the same reason, spreads that are times, and a statistic of
                // the values inside Tukey's fences (`outliers`) because a resample moves them, and
                // a statistic of groups' statistics (`groups`), whose groups a bootstrap of one
                // sample does not resample. A slope is judged, alone or in an expression: its
                // records' (per, field) pairs are resampled whole ([`Round`]).
                (Kind::Stat(s), Some(q)) if is_time(q) && s.resampled() => out.push(target(Subject::Latency(latency(q, None, None, vec![("value".into(), s.clone())])))),
                (Kind::Arith(a), Some(q)) if is_time(q) && !a.vars.is_empty() && a.json_vars.is_empty() && a.vars.values().all(stat::Spec::resampled) => {
                    match arith::parse(a.expr.get_ref()) {
                        Ok(expr) => {
                            let vars = a.vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                            out.push(target(Subject::Latency(latency(q, Some(expr), Some(a.expr.get_ref().clone()), vars))));
                        }
                        Err(_) => *skipped += 1,
                    }
                }
                (Kind::Compare(c), _) => out.push(target(Subject::Ordering(c.clone()))),
                // A statistic or an expression whose quoted number is not a time, that reads
                // `json` variables, which no run can reproduce, or that is or reads a spread (a
                // standard deviation, a median's interval, JMH's error); the other kinds (a `utest` or `wilcoxon` p-value and a `ttest` verdict among them) were passed over
                // above.
                (
                    Kind::Stat(_)
                    | Kind::Arith(_)
                    | Kind::Manifest(_)
                    | Kind::Contains(_)
                    | Kind::Json(_)
                    | Kind::Trace(_)
                    | Kind::Validation(_)
                    | Kind::Words(_)
                    | Kind::Figure(_)
                    | Kind::Cited(_)
                    | Kind::Utest(_)
                    | Kind::Ttest(_)
                    | Kind::Wilcoxon(_),
                    _,
                ) => *skipped += 1,
            }
        }
    }
}

/// The run directory a samples path lies in (`evidence/runs/X/samples.jsonl` → `evidence/runs/X`).
pub(crate) fn run_dir(samples: &str) -> String {
    samples.rsplit_once('/').map_or(".", |(d, _)| d).to_string()
}

impl Target {
    /// Whether every query of the target reads a JSONL file's field as it is
    /// ([`query::Query::is_plain_jsonl`](crate::checks::query::Query::is_plain_jsonl)), as the
    /// offline recheck reads its runs' records.
    fn reads_plain_jsonl(&self) -> bool {
        match &self.subject {
            Subject::Latency(l) => l.vars.iter().all(|(_, spec)| spec.is_plain_jsonl()),
            Subject::Ordering(c) => c.query("", "").query().is_plain_jsonl(),
        }
    }

    /// Whether every sample the target's queries select carries a `round`, which the records
    /// reader groups by: a latency's variables, or every record an ordering's `select` picks.
    /// Records without one are another harness's, whose samples are resampled one by one
    /// ([`harness`]). A file that cannot be read answers yes, so that the records reader
    /// reports it where it fails.
    fn has_rounds(&self, files: &Evidence) -> bool {
        let all_have_rounds = |paths: Vec<&toml::Spanned<String>>, select: &std::collections::BTreeMap<String, toml::Value>| {
            paths.iter().all(|path| {
                let Ok(jsonl) = sample_file(files, path.get_ref()) else { return true };
                jsonl.select(select).iter().all(|&r| round_of(&jsonl, r).is_some())
            })
        };
        match &self.subject {
            Subject::Latency(l) => l.vars.iter().all(|(_, spec)| all_have_rounds(spec.runs(), spec.select.get_ref())),
            Subject::Ordering(c) => all_have_rounds(c.runs(), c.select.get_ref()),
        }
    }

    /// The samples files this target reads in the accepted runs.
    pub(crate) fn samples_files(&self) -> Vec<String> {
        match &self.subject {
            Subject::Latency(l) => l.vars.iter().flat_map(|(_, v)| v.runs()).map(|s| s.get_ref().clone()).collect(),
            Subject::Ordering(c) => c.run_paths().into_iter().map(str::to_string).collect(),
        }
    }
}

/// A sample's round: a non-negative integer, or `None`.
fn round_of(jsonl: &Jsonl, record: &crate::evidence::Record) -> Option<u64> {
    match jsonl.get(record, "round") {
        Some(Scalar::Int(r)) if r >= 0 => Some(r as u64),
        _ => None,
    }
}

/// A samples file of the workspace's evidence, with a plain diagnostic when it cannot be had.
fn sample_file(files: &Evidence, path: &str) -> Result<Rc<Jsonl>, Diagnostic> {
    files.jsonl(path).map_err(|e| e.at(path))
}

/// What the recheck recomputes of one query's samples, in the accepted and fresh runs and in
/// every resample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Estimator {
    /// A statistic of the field's values, each value a sample of its own.
    Statistic(Statistic),
    /// The least-squares slope through the origin of the field over `per`
    /// ([`crate::stats::slope_through_origin`]), criterion's estimate in linear sampling: each
    /// record's (`per`, field) pair is one point, and is drawn whole ([`Round`]).
    Slope,
}

impl Estimator {
    /// What `spec` computes, and for a slope the field it is taken over. A median's interval and
    /// JMH's error are never resampled: [`stat::Spec::resampled`] keeps them out of the targets.
    fn of(spec: &stat::Spec) -> Result<(Estimator, Option<String>), Diagnostic> {
        match spec.measure() {
            Ok(stat::Measure::Statistic(statistic)) => Ok((Estimator::Statistic(statistic), None)),
            Ok(stat::Measure::Slope { per }) => Ok((Estimator::Slope, Some(per))),
            Ok(stat::Measure::MedianCi { .. } | stat::Measure::JmhError | stat::Measure::MeanRange | stat::Measure::AsvError | stat::Measure::CriterionBound { .. }) => {
                Err(Diagnostic::plain(format!("`{}` is not resampled: it states an interval, not a latency", spec.statistic.get_ref())))
            }
            Err((message, _)) => Err(Diagnostic::plain(message)),
        }
    }
}

/// One round's samples of one query.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Round {
    values: Vec<f64>,
    /// For a slope, the `per` of each of `values`, in the same order; empty for a statistic. A
    /// record's two values are kept in one round, so that whatever draws the round draws them
    /// together: drawn apart, an iteration count would be paired with another batch's time, and
    /// the slope's interval would be that of a line through points nobody measured.
    per: Vec<f64>,
}

impl Round {
    /// The (per, value) points of a slope's round, in order.
    fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.per.iter().copied().zip(self.values.iter().copied())
    }
}

/// The values of one query, grouped by the round they were measured in.
#[derive(Debug, Clone)]
pub(crate) struct ByRound {
    estimator: Estimator,
    rounds: BTreeMap<u64, Round>,
    /// Whether a round names the same round in the quantity's other variables (our runs,
    /// where every configuration is timed in each round) rather than this variable's own
    /// sample (a harness's, [`harness`]); the bootstrap draws the rounds of paired variables
    /// together and the others apart.
    paired: bool,
}

impl ByRound {
    /// Selects the records of `jsonl` that `spec` selects and groups `spec.field` (and a
    /// slope's `per`) by `round`.
    pub(crate) fn select(jsonl: &Jsonl, spec: &stat::Spec) -> Result<ByRound, Diagnostic> {
        let (estimator, per) = Estimator::of(spec)?;
        let selected = jsonl.select(spec.select.get_ref());
        if selected.is_empty() {
            let select: Vec<String> = spec.select.get_ref().iter().map(|(k, v)| format!("{k} = {v}")).collect();
            return Err(Diagnostic::plain(format!("{}: no sample has {}", jsonl.path, select.join(", "))));
        }
        Ok(ByRound { estimator, rounds: by_round(jsonl, &selected, spec.field.get_ref(), per.as_deref())?, paired: true })
    }

    /// The medians of values already grouped by round.
    pub(crate) fn medians_of(rounds: BTreeMap<u64, Vec<f64>>) -> ByRound {
        let rounds = rounds.into_iter().map(|(r, values)| (r, Round { values, per: Vec::new() })).collect();
        ByRound { estimator: Estimator::Statistic(Statistic::Median), rounds, paired: true }
    }

    /// Groups `field` of `records` by `round`.
    pub(crate) fn from_records(jsonl: &Jsonl, selected: &[&crate::evidence::Record], field: &str, statistic: Statistic) -> Result<ByRound, Diagnostic> {
        Ok(ByRound { estimator: Estimator::Statistic(statistic), rounds: by_round(jsonl, selected, field, None)?, paired: true })
    }

    /// A harness's samples (one [`Round`] each, in the order given), which share no rounds with
    /// any other variable's.
    fn unpaired(estimator: Estimator, samples: impl Iterator<Item = Round>) -> ByRound {
        ByRound { estimator, rounds: (0..).zip(samples).collect(), paired: false }
    }

    /// The statistic over every sample.
    pub(crate) fn value(&self) -> f64 {
        self.value_of(self.rounds.keys().copied())
    }

    fn value_of(&self, rounds: impl Iterator<Item = u64>) -> f64 {
        hierarchical::estimate(self.estimator, rounds.filter_map(|r| self.rounds.get(&r)), &mut Vec::new())
    }
}

/// `field` of the `selected` records, and a slope's `per` beside it, grouped by `round`. Every
/// value must be present, finite and non-negative (the shared sample validation, which says
/// where one is not).
fn by_round(jsonl: &Jsonl, selected: &[&crate::evidence::Record], field: &str, per: Option<&str>) -> Result<BTreeMap<u64, Round>, Diagnostic> {
    if selected.is_empty() {
        return Err(Diagnostic::plain(format!("{}: no samples selected", jsonl.path)));
    }
    let values = jsonl.values(selected, field)?;
    let per = per.map(|per| jsonl.values(selected, per)).transpose()?;
    let mut rounds: BTreeMap<u64, Round> = BTreeMap::new();
    for (i, &record) in selected.iter().enumerate() {
        let Some(round) = round_of(jsonl, record) else {
            return Err(jsonl.error_at(record, "no `round` in this sample; rounds are what the recheck resamples", "no round"));
        };
        let round = rounds.entry(round).or_default();
        round.values.push(values[i]);
        round.per.extend(per.as_ref().map(|per| per[i]));
    }
    Ok(rounds)
}

/// A quantity over one or more queries of one run: the queries' values combined by `eval`.
pub(super) struct Quantity<'e> {
    vars: Vec<ByRound>,
    eval: Box<dyn Fn(&[f64]) -> f64 + 'e>,
}

impl Quantity<'_> {
    fn rounds(&self) -> Vec<u64> {
        let set: BTreeSet<u64> = self.vars.iter().flat_map(|v| v.rounds.keys().copied()).collect();
        set.into_iter().collect()
    }

    fn value(&self) -> f64 {
        (self.eval)(&self.vars.iter().map(ByRound::value).collect::<Vec<_>>())
    }

    /// `replicates` values, each over rounds drawn with replacement, once for all variables.
    /// Only the rounds-only rule resamples here, and only our own runs, whose variables share
    /// their rounds; a harness's unpaired samples go to the hierarchical bootstrap, which
    /// draws them apart ([`hierarchical::Side`]).
    fn resample(&self, rng: &mut ChaCha8Rng, replicates: usize) -> Vec<f64> {
        debug_assert!(self.vars.iter().all(|v| v.paired), "the rounds-only rule resamples shared rounds only");
        let rounds = self.rounds();
        let mut out = Vec::with_capacity(replicates);
        let mut drawn = Vec::with_capacity(rounds.len());
        for _ in 0..replicates {
            drawn.clear();
            drawn.extend((0..rounds.len()).map(|_| rounds[rng.random_range(0..rounds.len())]));
            let values: Vec<f64> = self.vars.iter().map(|v| v.value_of(drawn.iter().copied())).collect();
            out.push((self.eval)(&values));
        }
        out
    }
}

/// The 90 % interval of a bootstrap distribution; infinite where a resample gave no finite
/// value, so that such a quantity is never called a match.
fn interval(mut values: Vec<f64>) -> (f64, f64) {
    if values.iter().any(|v| !v.is_finite()) {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    values.sort_by(f64::total_cmp);
    let tail = (1.0 - CONFIDENCE) / 2.0;
    (quantile_sorted(&values, tail), quantile_sorted(&values, 1.0 - tail))
}

/// The equivalence rule on an interval of ln(fresh / accepted).
pub(crate) fn equivalence(lo: f64, hi: f64, margin: f64) -> Judgement {
    let bound = (1.0 + margin).ln();
    if lo >= -bound && hi <= bound {
        Judgement::Match
    } else if hi < -bound || lo > bound {
        Judgement::Mismatch
    } else {
        Judgement::Inconclusive
    }
}

impl From<family::Claim> for Judgement {
    /// What a row states once Holm's procedure has decided its claim.
    fn from(claim: family::Claim) -> Judgement {
        match claim {
            family::Claim::Match => Judgement::Match,
            family::Claim::Mismatch => Judgement::Mismatch,
            family::Claim::Neither => Judgement::Inconclusive,
        }
    }
}

/// The ordering rule on an interval of ln(slower / faster).
pub(crate) fn ordering(lo: f64, hi: f64, min_ratio: f64) -> Judgement {
    let bound = min_ratio.ln();
    if lo > bound {
        Judgement::Match
    } else if hi < bound {
        Judgement::Mismatch
    } else {
        Judgement::Inconclusive
    }
}

/// A seed for one judgement, from the recheck's seed and what is judged, so that a row's
/// interval does not depend on which other rows were judged before it.
pub(crate) fn row_seed(seed: u64, parts: &[&str]) -> u64 {
    let mut h: u64 = seed ^ 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Where a target's values come from: the accepted run's files, or one fresh samples file.
pub(crate) enum Source<'f> {
    Accepted,
    Fresh(&'f str),
}

impl Latency {
    /// The (suite, case, variant) of each of its variables, each once.
    pub(super) fn configurations(&self) -> BTreeSet<(String, String, String)> {
        self.vars
            .iter()
            .map(|(_, v)| {
                let key = |k: &str| v.select.get_ref().get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
                (key("suite"), key("case"), key("variant"))
            })
            .collect()
    }

    /// Offline, a latency is judged against its quote by the audit's rule: a sentence the
    /// registry records as wrong still MATCHes when the evidence gives what the registry found.
    pub(super) fn judged_against_quote(&self, value: f64, problems: Vec<String>) -> Judgement {
        // The quantity is already in the quoted unit, so the observation carries none.
        let observation = Observation { value: Some(value), unit: None, problems, detail: String::new(), band: None };
        match checks::judge(&self.check, Some(&self.quoted), observation) {
            Outcome::Pass { .. } | Outcome::Wrong { .. } => Judgement::Match,
            _ => Judgement::Mismatch,
        }
    }

    /// An offline row: the value the accepted evidence gives, judged against the quote, with
    /// no fresh side. `detail` says how the value was found; the row adds that the quote is
    /// recorded as wrong where it is, and any `problems` (which make it a MISMATCH).
    pub(super) fn offline_row(&self, t: &Target, value: f64, summary: Option<f64>, problems: Vec<String>, mut detail: String, runs: Option<RunsUsed>) -> Row {
        // A MATCH here says the evidence still disagrees with the quote as recorded; the quote
        // carries the mark, so that a table that shows no detail does not read as the quote
        // holding.
        let recorded_wrong = self.check.common.expect == Expect::Mismatch;
        if recorded_wrong {
            detail.push_str("; the registry records the quote as wrong");
        }
        if !problems.is_empty() {
            detail = format!("{detail}; {}", problems.join("; "));
        }
        Row {
            registry: t.registry.clone(),
            claim: t.claim.clone(),
            check: t.check,
            kind: RowKind::Latency,
            what: if recorded_wrong { format!("{} (recorded wrong)", self.quoted.shown()) } else { self.quoted.shown() },
            accepted: Some(value),
            fresh: None,
            summary,
            unit: self.quoted.unit.clone(),
            ratio: None,
            interval: None,
            bound: None,
            outcome: self.judged_against_quote(value, problems),
            detail,
            level: None,
            adjusted: None,
            runs,
        }
    }

    fn quantity<'e>(&'e self, files: &Evidence, source: &Source<'_>) -> Result<Quantity<'e>, Diagnostic> {
        let mut vars = Vec::new();
        for (_, spec) in &self.vars {
            let path = match source {
                Source::Accepted => spec.samples.get_ref().as_str(),
                Source::Fresh(p) => p,
            };
            vars.push(ByRound::select(&*sample_file(files, path)?, spec)?);
        }
        Ok(Quantity { vars, eval: self.eval() })
    }

    /// How the variables' values combine into the quoted quantity, in the quoted unit.
    fn eval<'e>(&'e self) -> Box<dyn Fn(&[f64]) -> f64 + 'e> {
        let names: Vec<&str> = self.vars.iter().map(|(n, _)| n.as_str()).collect();
        // A stat query's value is in its field's unit; the quoted number may be in another. An
        // expression's variables are taken in the units the audit takes them in, and its value
        // is in the unit its check declares (`unit = "s"` over times in seconds), else in the
        // unit those give it (a time, for `2 * m` of times), as the audit reads it, else in the
        // quoted unit.
        let found = self.expr_units.as_ref().and_then(|u| u.unit.clone());
        let scale = match (&self.expr, self.vars.first()) {
            (None, Some(_)) => convert(1.0, self.unit.as_ref(), self.quoted.unit.as_ref()).unwrap_or(1.0),
            (Some(_), _) => checks::unit_of_value(&self.check, found).map_or(1.0, |unit| convert(1.0, Some(&unit), self.quoted.unit.as_ref()).unwrap_or(1.0)),
            (None, None) => 1.0,
        };
        let factors: Vec<f64> = names.iter().map(|name| self.expr_units.as_ref().map_or(1.0, |u| u.factor(name))).collect();
        match &self.expr {
            None => Box::new(move |v: &[f64]| v[0] * scale),
            Some(expr) => Box::new(move |v: &[f64]| {
                let map: BTreeMap<&str, f64> = names.iter().copied().zip(v.iter().zip(&factors).map(|(x, f)| x * f)).collect();
                expr.eval(&map).unwrap_or(f64::NAN) * scale
            }),
        }
    }

    fn describe(&self) -> String {
        match (&self.expr_text, self.vars.first()) {
            (Some(e), _) => e.clone(),
            (None, Some((_, s))) => match &s.per {
                Some(per) => format!("slope of {} over {} through the origin", s.field.get_ref(), per.get_ref()),
                None => format!("{} {}", s.statistic.get_ref(), s.field.get_ref()),
            },
            _ => String::new(),
        }
    }
}

/// The offline recheck: every latency recomputed from the accepted run's raw samples and
/// compared with the quoted number and the run's saved summary; every ordering judged inside
/// the accepted run.
pub(crate) fn offline(ws: &Workspace, rule: Rule) -> Result<Report, Failure> {
    let (targets, mut not_rechecked) = targets(ws)?;
    let Some(files) = ws.evidence() else { return Err(Failure::Input(ws.diagnostics.clone())) };
    // The offline recheck reads the runs' JSONL records itself, by `select` and `round`. A
    // latency whose query is in another format, goes through `records`, `where` or `derive`,
    // or selects samples without a `round` (a harness's own JSONL) is read through the check's
    // own query instead (`harness::offline`), as the audit reads it, and pooled over the files
    // it pools as the audit pools them. An ordering of such files is judged inside its one file,
    // or across the files it pools, each side's samples resampled on their own.
    let (targets, other): (Vec<Target>, Vec<Target>) = targets.into_iter().partition(|t| t.reads_plain_jsonl() && t.has_rounds(files));
    let (queried, other): (Vec<Target>, Vec<Target>) = other.into_iter().partition(|t| matches!(t.subject, Subject::Latency(_)));
    // Harness orderings are the hierarchical rule's alone: the rounds rule pairs rounds.
    let mut harness_pairs = Vec::new();
    for t in &other {
        match &t.subject {
            Subject::Ordering(c) if rule.method == Method::Hierarchical => harness_pairs.push((t, c, harness::ordering_pairs(ws, files, t, c, None)?)),
            _ => not_rechecked += 1,
        }
    }
    let mut rows = match rule.method {
        Method::Hierarchical => judge::offline(rule, &targets, files, &harness_pairs)?,
        Method::Rounds => {
            let mut rows = Vec::new();
            for t in &targets {
                match &t.subject {
                    Subject::Latency(l) => rows.push(offline_latency(t, l, files)?),
                    // The rounds rule orders inside one run; an ordering pooled over runs is
                    // the hierarchical rule's to judge, and is passed over here.
                    Subject::Ordering(c) if !c.pool.is_empty() => not_rechecked += 1,
                    Subject::Ordering(c) => rows.extend(judge_ordering(t, c, files, &Source::Accepted, rule, &BTreeSet::new())?),
                }
            }
            rows
        }
    };
    // Judged by the audit's matching rule, outside the family, as every offline latency is.
    for t in &queried {
        if let Subject::Latency(l) = &t.subject {
            rows.push(harness::offline(ws, files, t, l)?);
        }
    }
    let accepted = accepted_runs(files, &targets)?;
    Ok(Report {
        mode: Mode::Offline,
        seed: rule.seed,
        replicates: rule.replicates,
        method: rule.method,
        alpha: rule.alpha,
        calibration: None,
        accepted,
        fresh: None,
        rows,
        not_rechecked,
    })
}

pub(super) fn offline_latency(t: &Target, l: &Latency, files: &Evidence) -> Result<Row, Diagnostic> {
    offline_latency_of(t, l, files, l.quantity(files, &Source::Accepted)?, true, l.describe())
}

/// The offline row of a latency whose accepted values are `quantity`, checked against the
/// saved summaries when `summaries` (a summary holds what `select` picks, so a query through
/// `where` or `derive` has none to check against).
pub(super) fn offline_latency_of(t: &Target, l: &Latency, files: &Evidence, quantity: Quantity<'_>, summaries: bool, detail: String) -> Result<Row, Diagnostic> {
    let value = quantity.value();
    let mut problems = Vec::new();
    // The saved summary holds each variable's statistic; recompute the quantity from them.
    // Samples without a summary (a file of the user's own harness, outside any run) have
    // nothing saved to compare; a summary without the row is a problem.
    let mut saved = Vec::new();
    if summaries {
        for (name, spec) in &l.vars {
            match saved_statistic(files, spec)? {
                Saved::Value(v) => saved.push(v),
                Saved::NoRow => problems.push(format!("the saved summary has no {} row for `{name}`", spec.statistic.get_ref())),
                Saved::NoSummary => {}
            }
        }
    }
    // Recomputed only where every variable's statistic was saved.
    let summary = (!l.vars.is_empty() && saved.len() == l.vars.len()).then(|| (quantity.eval)(&saved));
    if let Some(s) = summary
        && (s - value).abs() > 1e-9 * s.abs().max(value.abs()).max(1.0)
    {
        // Six decimals are finer than the nanosecond the samples are kept to, and drop the
        // noise of subtracting two doubles.
        let six = |v: f64| (v * 1e6).round() / 1e6;
        problems.push(format!("the saved summary gives {}, the raw samples {}", six(s), six(value)));
    }
    Ok(l.offline_row(t, value, summary, problems, detail, None))
}

/// What the summary of a check's run saved of its statistic.
enum Saved {
    Value(f64),
    /// The summary has no such row, does not store that statistic, or is missing though the
    /// check names it.
    NoRow,
    /// The check names no summary and none lies beside its samples, or it asks for what no
    /// summary saves (a slope).
    NoSummary,
}

/// The statistic `spec` asks for, as the summary of its run saved it: the `summary` the check
/// names, else `summary.json` beside the samples.
fn saved_statistic(files: &Evidence, spec: &stat::Spec) -> Result<Saved, Diagnostic> {
    // A summary holds statistics of one field's values and no slope (which is why a slope may
    // name none); one lying beside a slope's samples has nothing of it to compare.
    if !matches!(spec.measure(), Ok(stat::Measure::Statistic(_))) {
        return Ok(Saved::NoSummary);
    }
    let path = spec.summary.as_ref().map_or_else(|| format!("{}/summary.json", run_dir(spec.samples.get_ref())), |s| s.get_ref().clone());
    let summary = match files.json::<Summary>(&path) {
        Ok(s) => s,
        Err(ReadError::Path(_)) if spec.summary.is_none() => return Ok(Saved::NoSummary),
        Err(ReadError::Path(_)) => return Ok(Saved::NoRow),
        Err(e) => return Err(e.at(&path)),
    };
    Ok(Statistic::parse(spec.statistic.get_ref()).and_then(|statistic| spec.saved(&summary, statistic)).map_or(Saved::NoRow, Saved::Value))
}

/// The recheck of a fresh run: every latency against the accepted run it was quoted from, every
/// ordering inside the fresh run. `accepted` are the runs the targets read
/// ([`accepted_runs`]); `fresh_samples` is the fresh run's samples file, already in `files`.
pub(crate) fn against_fresh(
    rule: Rule,
    targets: &[Target],
    accepted: &[RunInfo],
    files: &Evidence,
    fresh: &RunInfo,
    fresh_samples: &str,
    calibration: Option<&CalibrationFile>,
) -> Result<Vec<Row>, Diagnostic> {
    if rule.method == Method::Hierarchical {
        return judge::fresh(rule, targets, accepted, files, &[(fresh, fresh_samples)], calibration);
    }
    let mut rows = Vec::new();
    for t in targets {
        let unjudged = unmeasured(t, files, &[fresh_samples])?;
        let latency_unmeasured = !unjudged.rows.is_empty();
        rows.extend(unjudged.rows);
        match &t.subject {
            Subject::Latency(_) if latency_unmeasured => {}
            Subject::Latency(l) => {
                let dir = run_dir(l.vars[0].1.samples.get_ref());
                // Buffer sets taken otherwise are another protocol, whatever the rule: an
                // invocation that found its input in L2 is no measure of one that did not, so
                // this rule, too, compares no absolute time across them.
                let incomparable = match accepted.iter().find(|r| r.path == dir) {
                    Some(info) => fresh.incomparable_with(info).or_else(|| {
                        // Each configuration once, however many variables read it.
                        let sets: Vec<String> = l
                            .configurations()
                            .iter()
                            .filter_map(|(suite, case, variant)| fresh.sets_differ(info, suite, case, variant))
                            .map(|(what, place)| format!("{what} {place}"))
                            .collect();
                        (!sets.is_empty()).then(|| sets.join("; "))
                    }),
                    None => Some(format!("{dir} is not among the accepted runs read")),
                };
                rows.push(judge_latency(t, l, files, fresh_samples, incomparable, rule)?);
            }
            Subject::Ordering(c) => rows.extend(judge_ordering(t, c, files, &Source::Fresh(fresh_samples), rule, &unjudged.pairs)?),
        }
    }
    Ok(rows)
}

/// What a row says when the fresh run holds no samples of a configuration its check selects.
pub(crate) const UNMEASURED: &str = "the fresh run holds no samples this check selects";

/// What the fresh runs cannot judge of a target: its INCOMPARABLE rows, and for an ordering the
/// pairs (case, slower variant) they are for, which the judgement leaves out.
#[derive(Default)]
pub(crate) struct Unmeasured {
    pub rows: Vec<Row>,
    pub pairs: BTreeSet<(String, String)>,
}

/// What of a target some fresh run holds no samples of (a check edited since the run, or a
/// suite or peer the run lacks), so that one such check never stops the judgement of the
/// others, nor loses a fresh run already measured. A latency missing any of its samples is one
/// INCOMPARABLE row. An ordering gets one row for each pair a fresh run cannot order, and the
/// pairs it can are judged as ever: a peer missing from a fresh run leaves the others judged.
pub(crate) fn unmeasured(t: &Target, files: &Evidence, fresh: &[&str]) -> Result<Unmeasured, Diagnostic> {
    let runs = fresh.iter().map(|p| sample_file(files, p)).collect::<Result<Vec<_>, _>>()?;
    let missing = |spec: &stat::Spec| runs.iter().any(|jsonl| jsonl.select(spec.select.get_ref()).is_empty());
    let row = |kind, what: String, detail: String| Row {
        registry: t.registry.clone(),
        claim: t.claim.clone(),
        check: t.check,
        kind,
        what,
        accepted: None,
        fresh: None,
        summary: None,
        unit: None,
        ratio: None,
        interval: None,
        bound: None,
        outcome: Judgement::Incomparable,
        detail: format!("{detail}; {UNMEASURED}"),
        level: None,
        adjusted: None,
        runs: None,
    };
    let mut out = Unmeasured::default();
    match &t.subject {
        Subject::Latency(l) => {
            if l.vars.iter().any(|(_, v)| missing(v)) {
                out.rows.push(row(RowKind::Latency, l.quoted.shown(), l.describe()));
            }
        }
        Subject::Ordering(c) => {
            let need = c.min_ratio.map_or(String::new(), |r| format!(" by {r}×"));
            // In the check's own order of cases and variants, as judged rows are.
            for case in c.cases() {
                let fast_missing = missing(&c.query(case, &c.faster));
                for slower in &c.slower {
                    if fast_missing || missing(&c.query(case, slower)) {
                        let detail = format!("{} {} by {}", c.statistic.get_ref(), c.field.get_ref(), c.by);
                        out.rows.push(row(RowKind::Ordering, compare::in_case(case, &format!("{} < {slower}{need}", c.faster)), detail));
                        out.pairs.insert((case.to_string(), slower.clone()));
                    }
                }
            }
        }
    }
    Ok(out)
}

fn judge_latency(t: &Target, l: &Latency, files: &Evidence, fresh_samples: &str, incomparable: Option<String>, rule: Rule) -> Result<Row, Diagnostic> {
    let accepted = l.quantity(files, &Source::Accepted)?;
    let fresh = l.quantity(files, &Source::Fresh(fresh_samples))?;
    let (a, f) = (accepted.value(), fresh.value());
    let mut row = Row {
        registry: t.registry.clone(),
        claim: t.claim.clone(),
        check: t.check,
        kind: RowKind::Latency,
        what: l.quoted.shown(),
        accepted: Some(a),
        fresh: Some(f),
        summary: None,
        unit: l.quoted.unit.clone(),
        ratio: Some(f / a),
        interval: None,
        bound: Some(l.margin),
        outcome: Judgement::Incomparable,
        detail: l.describe(),
        level: None,
        adjusted: None,
        runs: None,
    };
    if let Some(why) = incomparable {
        row.ratio = None;
        row.detail = format!("{}; absolute times not compared: {why}", row.detail);
        return Ok(row);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(row_seed(rule.seed, &[&t.registry, &t.claim, &t.check.to_string()]));
    let a_boot = accepted.resample(&mut rng, rule.replicates);
    let f_boot = fresh.resample(&mut rng, rule.replicates);
    let logs: Vec<f64> = a_boot.iter().zip(&f_boot).map(|(a, f)| if *a > 0.0 && *f > 0.0 { (f / a).ln() } else { f64::NAN }).collect();
    let (lo, hi) = interval(logs);
    row.interval = Some((lo.exp(), hi.exp()));
    row.outcome = equivalence(lo, hi, l.margin);
    Ok(row)
}

/// The rows of an ordering check judged by the rounds-only rule, but for the pairs in `skip`.
fn judge_ordering(t: &Target, c: &compare::Spec, files: &Evidence, source: &Source<'_>, rule: Rule, skip: &BTreeSet<(String, String)>) -> Result<Vec<Row>, Diagnostic> {
    let min_ratio = c.min_ratio.unwrap_or(1.0);
    let path = match source {
        Source::Accepted => c.samples.get_ref().as_str(),
        Source::Fresh(p) => p,
    };
    // The accepted run's ratio is shown beside a fresh judgement, for reference.
    let accepted_path = c.samples.get_ref().clone();
    let mut rows = Vec::new();
    for case in c.cases() {
        for slower in c.slower.iter().filter(|s| !skip.contains(&(case.to_string(), (*s).clone()))) {
            let ratio_in = |files: &Evidence, p: &str| -> Result<Quantity<'static>, Diagnostic> {
                let jsonl = sample_file(files, p)?;
                let fast = ByRound::select(&jsonl, &c.query(case, &c.faster))?;
                let slow = ByRound::select(&jsonl, &c.query(case, slower))?;
                Ok(Quantity { vars: vec![fast, slow], eval: Box::new(|v: &[f64]| v[1] / v[0]) })
            };
            let judged = ratio_in(files, path)?;
            let accepted_ratio = match source {
                Source::Accepted => judged.value(),
                Source::Fresh(_) => ratio_in(files, &accepted_path)?.value(),
            };
            let mut rng = ChaCha8Rng::seed_from_u64(row_seed(rule.seed, &[&t.registry, &t.claim, &t.check.to_string(), case, slower]));
            let logs: Vec<f64> = judged.resample(&mut rng, rule.replicates).into_iter().map(|r| if r > 0.0 { r.ln() } else { f64::NAN }).collect();
            let (lo, hi) = interval(logs);
            let need = c.min_ratio.map_or(String::new(), |r| format!(" by {r}×"));
            rows.push(Row {
                registry: t.registry.clone(),
                claim: t.claim.clone(),
                check: t.check,
                kind: RowKind::Ordering,
                what: compare::in_case(case, &format!("{} < {slower}{need}", c.faster)),
                accepted: Some(accepted_ratio),
                fresh: match source {
                    Source::Accepted => None,
                    Source::Fresh(_) => Some(judged.value()),
                },
                summary: None,
                unit: None,
                ratio: None,
                interval: Some((lo.exp(), hi.exp())),
                bound: Some(min_ratio),
                outcome: ordering(lo, hi, min_ratio),
                detail: format!("{} {} by {}", c.statistic.get_ref(), c.field.get_ref(), c.by),
                level: None,
                adjusted: None,
                runs: None,
            });
        }
    }
    Ok(rows)
}

/// The runs the targets read, with what each records about its device.
pub(crate) fn accepted_runs(files: &Evidence, targets: &[Target]) -> Result<Vec<RunInfo>, Diagnostic> {
    let dirs: BTreeSet<String> = targets.iter().flat_map(|t| t.samples_files()).map(|s| run_dir(&s)).collect();
    dirs.iter().map(|d| RunInfo::read(files, d)).collect()
}

/// The suites a fresh run must hold to recheck `runs`, in the order `run --suite all` uses.
pub(crate) fn suites_needed(runs: &[RunInfo]) -> Vec<&'static str> {
    const ORDER: [&str; 4] = ["pointwise", "softmax", "scheduling", "softmax-bench"];
    ORDER.into_iter().filter(|s| runs.iter().any(|r| r.suites.iter().any(|x| x == s))).collect()
}

/// The fresh run's samples, parsed as the accepted runs' are, under the path it will have.
pub(crate) fn fresh_samples(run_path: &str, samples: &[crate::evidence::SampleRecord]) -> Result<(String, Jsonl), Diagnostic> {
    let mut text = String::new();
    for s in samples {
        text.push_str(&serde_json::to_string(s).map_err(|e| Diagnostic::plain(e.to_string()))?);
        text.push('\n');
    }
    let path = format!("{run_path}/samples.jsonl");
    let jsonl = Jsonl::parse(&path, text.as_bytes())?;
    Ok((path, jsonl))
}

/// The calibration a judgement under `rule` widens one-run sides by: `evidence/calibration.json`
/// for the hierarchical rule, where it exists; none for the rounds-only rule, which never did.
pub(crate) fn calibration_for(files: &Evidence, rule: Rule) -> Result<Option<Rc<CalibrationFile>>, Diagnostic> {
    match rule.method {
        Method::Hierarchical => crate::evidence::calibration::read(files),
        Method::Rounds => Ok(None),
    }
}

/// A stored run judged again, and how the judgement compares with the one it stores.
pub(crate) struct Judged {
    pub report: Report,
    pub stored: Option<StoredComparison>,
}

/// `recheck --fresh RUN`: judges a run already written (root-relative) against the accepted
/// runs. A run that stores its judgement (`recheck.json`) is judged again with the seed and
/// size it records, unless `seed` or `replicates` say otherwise, so that the two compare.
pub(crate) fn fresh(ws: &Workspace, run: &str, seed: Option<u64>, replicates: Option<usize>) -> Result<Judged, Failure> {
    let (targets, not_rechecked) = targets(ws)?;
    let Some(files) = ws.evidence() else { return Err(Failure::Input(ws.diagnostics.clone())) };
    let run = run.trim_end_matches('/');
    files.root().folder(run).map_err(|e| Failure::input(format!("run {run}: {e}")))?;
    let stored_path = format!("{run}/recheck.json");
    let stored = match files.json::<WireRecheck>(&stored_path) {
        Ok(s) => Some(s),
        Err(ReadError::Path(_)) => None,
        Err(e) => return Err(e.at(&stored_path).into()),
    };
    // A stored table is judged again by the rule it records, so that it can reproduce.
    let rule = match &stored {
        Some(s) if s.rule.resampled == Method::Rounds.name() => Rule::rounds(seed.unwrap_or(s.rule.seed), replicates.unwrap_or(s.rule.replicates)),
        Some(s) => Rule { seed: seed.unwrap_or(s.rule.seed), replicates: replicates.unwrap_or(s.rule.replicates), ..Rule::default() },
        None => Rule::new(seed, replicates),
    };
    let info = RunInfo::read(files, run)?;
    if info.status.as_deref() != Some(meta::ACCEPTED) {
        return Err(Failure::input(format!("{run} is marked `{}`: a rejected run is not judged", info.status.as_deref().unwrap_or("unknown"))));
    }
    let samples = format!("{run}/samples.jsonl");
    sample_file(files, &samples)?;
    let accepted = accepted_runs(files, &targets)?;
    let calibration = calibration_for(files, rule)?;
    let rows = against_fresh(rule, &targets, &accepted, files, &info, &samples, calibration.as_deref())?;
    let report = Report {
        mode: Mode::Fresh,
        seed: rule.seed,
        replicates: rule.replicates,
        method: rule.method,
        alpha: rule.alpha,
        calibration: calibration.is_some().then(|| crate::evidence::calibration::PATH.to_string()),
        accepted,
        fresh: Some(info),
        rows,
        not_rechecked,
    };
    let stored = stored.map(|s| compare_stored(&s, &crate::report::recheck::wire(&report)));
    Ok(Judged { report, stored })
}

/// How a judgement made again compares with the one a run stores, row by row: rows are keyed
/// by registry, claim, check and what they judge, so that a registry edited since the run
/// (a check re-bound to other accepted runs among the edits) shows as rows added or removed
/// rather than as a different judgement.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct StoredComparison {
    /// Stored rows judged again here: those the registries still hold, against the same
    /// accepted runs.
    pub compared: usize,
    /// Rows judged differently, as `claim #check what: stored → now`.
    pub differing: Vec<String>,
    pub only_stored: usize,
    pub only_now: usize,
    /// Rows whose own numbers are reproduced but that were tested at another Holm level,
    /// because the table holds other rows than when it was stored; of them, how many reached
    /// another outcome at that level.
    pub other_level: usize,
    pub other_level_outcome: usize,
}

pub(crate) fn compare_stored(stored: &WireRecheck, now: &WireRecheck) -> StoredComparison {
    let key = |r: &WireRow| (r.registry.clone(), r.claim.clone(), r.check, r.what.clone());
    let stored_rows: BTreeMap<_, &WireRow> = stored.rows.iter().map(|r| (key(r), r)).collect();
    let now_rows: BTreeMap<_, &WireRow> = now.rows.iter().map(|r| (key(r), r)).collect();
    // A row whose accepted side differs, where the table was judged against other accepted
    // runs than these, judges another run's value: the registry was re-bound to other evidence
    // since the run, so the row is one the registry no longer has and one it has now, not a
    // different judgement of the same row.
    let paths = |t: &WireRecheck| t.accepted_runs.iter().map(|r| r.path.clone()).collect::<Vec<_>>();
    let rebound_runs = paths(stored) != paths(now);
    let rebound = |s: &WireRow, n: &WireRow| rebound_runs && s.accepted != n.accepted;
    // Holm's procedure tests each row at a level set by the whole table, so a row's level (and
    // the interval and outcome at that level) can only be reproduced when the table holds the
    // same rows; otherwise only what the row computes from its own samples can be.
    let same_table = stored_rows.keys().eq(now_rows.keys()) && !stored_rows.iter().any(|(k, s)| now_rows.get(k).is_some_and(|n| rebound(s, n)));
    let own = |r: &WireRow| WireRow { level: None, adjusted_interval: None, outcome: String::new(), detail: String::new(), ..r.clone() };
    // What a row judged, without the words that explain it: a table stored before a detail was
    // reworded (or a note added, such as the card a fresh ordering was judged on) still
    // reproduces row by row.
    let judged = |r: &WireRow| WireRow { detail: String::new(), ..r.clone() };
    let mut out = StoredComparison::default();
    if stored.rule != now.rule || stored.fresh_run != now.fresh_run {
        out.differing.push("the rule or the fresh run differs".into());
    }
    for (k, s) in &stored_rows {
        match now_rows.get(k) {
            Some(n) if judged(n) == judged(s) => out.compared += 1,
            Some(n) if rebound(s, n) => {
                out.only_stored += 1;
                out.only_now += 1;
            }
            // A check that now selects samples the run does not hold changed with the
            // registry: like a row the registry no longer has, not a different judgement.
            Some(n) if n.detail.contains(UNMEASURED) => out.only_stored += 1,
            // Only a row tested at a Holm level has a level, and so an outcome, that depends on
            // the other rows; a row judged by the rounds-only rule must reproduce its outcome.
            Some(n) if !same_table && s.level.is_some() && own(n) == own(s) => {
                out.compared += 1;
                out.other_level += 1;
                out.other_level_outcome += usize::from(n.outcome != s.outcome);
            }
            Some(n) => {
                out.compared += 1;
                out.differing.push(format!(
                    "{} #{} {}: stored {} {:?} (level {:?}, interval at it {:?}), now {} {:?} (level {:?}, interval at it {:?})",
                    k.1, k.2, k.3, s.outcome, s.interval, s.level, s.adjusted_interval, n.outcome, n.interval, n.level, n.adjusted_interval
                ));
            }
            None => out.only_stored += 1,
        }
    }
    out.only_now += now_rows.keys().filter(|k| !stored_rows.contains_key(*k)).count();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::meta::SetRotation;

    #[test]
    fn a_row_judged_against_other_accepted_runs_is_a_registry_change_not_a_difference() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/evidence/runs/20261203T220307Z-recheck/recheck.json");
        let stored: WireRecheck = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let ordering = stored.rows.iter().position(|r| r.kind == "ordering" && r.accepted.is_some()).expect("an ordering with an accepted ratio");
        // The same accepted runs: an accepted value that moved is a different judgement.
        let mut now = stored.clone();
        now.rows[ordering].accepted = now.rows[ordering].accepted.map(|a| a * 1.01);
        assert_eq!(compare_stored(&stored, &now).differing.len(), 1);
        // Other accepted runs (the registry re-bound since the run): the row the table stored is
        // gone and another stands in its place, and no row is called different.
        now.accepted_runs[0].path = "evidence/runs/elsewhere-all".into();
        let rebound = compare_stored(&stored, &now);
        assert!(rebound.differing.is_empty(), "{rebound:?}");
        assert_eq!((rebound.compared, rebound.only_stored, rebound.only_now), (stored.rows.len() - 1, 1, 1));
        // A row whose accepted side is unchanged must still reproduce the rest of its numbers.
        let other = stored.rows.iter().enumerate().position(|(i, r)| i != ordering && r.fresh.is_some()).expect("another row with a fresh value");
        now.rows[other].fresh = now.rows[other].fresh.map(|f| f + 1.0);
        assert_eq!(compare_stored(&stored, &now).differing.len(), 1);
    }

    #[test]
    fn a_stored_table_is_compared_at_the_holm_levels_only_when_it_holds_the_same_rows() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/evidence/runs/20261203T220307Z-recheck/recheck.json");
        let stored: WireRecheck = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let tested = stored.rows.iter().position(|r| r.level.is_some()).expect("a row tested at a Holm level");
        assert_eq!(compare_stored(&stored, &stored), StoredComparison { compared: stored.rows.len(), ..StoredComparison::default() });
        // The same rows, one at another level: that level should have been reproduced.
        let mut now = stored.clone();
        now.rows[tested].level = now.rows[tested].level.map(|l| l / 2.0);
        let same = compare_stored(&stored, &now);
        assert_eq!(same.differing.len(), 1, "{same:?}");
        assert!(same.differing[0].contains("level"), "{same:?}");
        // Another row removed: the family changed, so only the row's own numbers must match,
        // and its other level and outcome are counted, not called a difference.
        let removed = (tested + 1) % now.rows.len();
        now.rows[tested].outcome = "INCONCLUSIVE-elsewhere".into();
        now.rows.remove(removed);
        let other = compare_stored(&stored, &now);
        assert!(other.differing.is_empty(), "{other:?}");
        assert_eq!((other.only_stored, other.other_level, other.other_level_outcome), (1, 1, 1));
        // A number of the row's own still differs whatever the family.
        let at = if removed < tested { tested - 1 } else { tested };
        now.rows[at].fresh = now.rows[at].fresh.map(|f| f + 1.0);
        assert_eq!(compare_stored(&stored, &now).differing.len(), 1);
    }

    /// A samples file of one configuration per variant: 21 rounds around each centre, with a
    /// relative spread, from a seed.
    fn samples(variants: &[(&str, f64, f64)], seed: u64) -> String {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = String::new();
        for round in 0..21 {
            for (variant, centre, spread) in variants {
                let value = centre * (1.0 + spread * (rng.random::<f64>() - 0.5));
                out.push_str(&format!("{{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"{variant}\",\"mode\":\"graph\",\"round\":{round},\"host_us\":{value:.3}}}\n"));
            }
        }
        out
    }

    /// A root with an accepted run `a` and a fresh run `f`, each with a device in its meta.
    fn root_with(accepted: &str, fresh: &str, fresh_device: &str) -> (tempfile::TempDir, Evidence) {
        let dir = tempfile::tempdir().unwrap();
        for (run, text, device) in [("a", accepted, "NVIDIA H200"), ("f", fresh, fresh_device)] {
            let run_dir = dir.path().join("evidence/runs").join(run);
            std::fs::create_dir_all(&run_dir).unwrap();
            std::fs::write(run_dir.join("samples.jsonl"), text).unwrap();
            let meta = serde_json::json!({"status": "accepted", "suites": ["s"], "device": {"name": device, "driver_version": 13000}});
            std::fs::write(run_dir.join("meta.json"), meta.to_string()).unwrap();
        }
        let root = crate::paths::Root::new(dir.path()).unwrap();
        (dir, Evidence::new(root))
    }

    fn query(variant: &str) -> stat::Spec {
        toml::from_str(&format!("samples = \"evidence/runs/a/samples.jsonl\"\nselect = {{ suite = \"s\", case = \"c\", variant = \"{variant}\", mode = \"graph\" }}\nfield = \"host_us\"\nstatistic = \"median\"\n")).unwrap()
    }

    fn latency_target(variant: &str) -> Target {
        let quoted = Quoted { value: 10.0, decimals: 2, unit: Some(Unit::Us), ..Quoted::default() };
        let spec = query(variant);
        let check = Check { kind: Kind::Stat(spec.clone()), common: checks::Common::default(), span: 0..0 };
        let latency = Latency { check, quoted, margin: DEFAULT_MARGIN, expr: None, expr_text: None, vars: vec![("value".into(), spec)], unit: Some(Unit::Us), expr_units: None };
        Target { registry: "claims/t.toml".into(), claim: "C1".into(), check: 1, subject: Subject::Latency(latency) }
    }

    /// An expression over times in seconds whose check declares `unit = "s"` is in seconds, and
    /// is judged against a quote in µs as the audit judges it (pyperf's outlier fences, `q1 -
    /// 1.5 * (q3 - q1)`, quoted `4.07 us`); one that declares no unit is in the quoted unit.
    #[test]
    fn an_expression_is_in_the_unit_its_check_declares() {
        let spec = query("fused");
        let quoted = Quoted { value: 4.07, decimals: 2, unit: Some(Unit::Us), ..Quoted::default() };
        let expression = |unit: Option<&str>| {
            let common = checks::Common { unit: unit.map(|u| toml::Spanned::new(0..0, u.to_string())), ..checks::Common::default() };
            let check = Check { kind: Kind::Stat(spec.clone()), common, span: 0..0 };
            let expr = arith::parse("q1 - 1.5 * (q3 - q1)").unwrap();
            Latency { check, quoted: quoted.clone(), margin: DEFAULT_MARGIN, expr: Some(expr), expr_text: None, vars: vec![("q1".into(), spec.clone()), ("q3".into(), spec.clone())], unit: None, expr_units: None }
        };
        let fences = [4.2080e-6, 4.3027e-6];
        let in_seconds = expression(Some("s"));
        assert!((in_seconds.eval()(&fences) - 4.06595).abs() < 1e-9, "{}", in_seconds.eval()(&fences));
        assert_eq!(in_seconds.judged_against_quote(in_seconds.eval()(&fences), Vec::new()), Judgement::Match);
        let undeclared = expression(None);
        assert!((undeclared.eval()(&[4.2080, 4.3027]) - 4.06595).abs() < 1e-9);
        // Declaring none, it is in the unit its variables give it, as the audit takes it: a time
        // in seconds where they are `time_s` (pyperf's), judged against the quote in µs.
        let mut inferred = expression(None);
        let known = BTreeMap::from([("q1", arith::Known::Unit(Unit::S)), ("q3", arith::Known::Unit(Unit::S))]);
        inferred.expr_units = arith::common_units(inferred.expr.as_ref().unwrap(), &known);
        assert!((inferred.eval()(&fences) - 4.06595).abs() < 1e-9, "{}", inferred.eval()(&fences));
        assert_eq!(inferred.judged_against_quote(inferred.eval()(&fences), Vec::new()), Judgement::Match);
    }

    fn ordering_target() -> Target {
        let spec: compare::Spec = toml::from_str("samples = \"evidence/runs/a/samples.jsonl\"\nselect = { suite = \"s\", mode = \"graph\" }\nfield = \"host_us\"\nstatistic = \"median\"\nfaster = \"fused\"\nslower = [\"four\"]\ncases = [\"c\"]\n").unwrap();
        Target { registry: "claims/t.toml".into(), claim: "C2".into(), check: 1, subject: Subject::Ordering(spec) }
    }

    fn judge(accepted: &str, fresh: &str, fresh_device: &str, target: Target) -> Row {
        let (_dir, files) = root_with(accepted, fresh, fresh_device);
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let accepted = [RunInfo::read(&files, "evidence/runs/a").unwrap()];
        let mut rows = against_fresh(Rule::default(), &[target], &accepted, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap();
        rows.remove(0)
    }

    /// Writes run `name` under `dir` with `samples` and a meta whose device is the H200 and
    /// whose case `s c` was timed at `sm_mhz` (when given).
    fn write_run(dir: &std::path::Path, name: &str, samples: &str, sm_mhz: Option<u32>) {
        let run_dir = dir.join("evidence/runs").join(name);
        std::fs::create_dir_all(&run_dir).unwrap();
        std::fs::write(run_dir.join("samples.jsonl"), samples).unwrap();
        let mut meta = serde_json::json!({"status": "accepted", "suites": ["s"], "device": {"name": "NVIDIA H200", "driver_version": 13000}});
        if let Some(mhz) = sm_mhz {
            meta["cases"] = serde_json::json!([{"suite": "s", "case": "c", "shape": [1], "rotation_sets": 1, "bytes_per_set": 1, "timing_fixture_seed": 1, "variants": [], "modes": [], "logical_bytes": {},
                "clocks": {"sm_mhz_warmup_start": 345, "sm_mhz_before": mhz, "sm_mhz_after": mhz, "warmup_ms": 120.0, "warmup_invocations": 900, "stable": true}}]);
        }
        std::fs::write(run_dir.join("meta.json"), meta.to_string()).unwrap();
    }

    /// Judges `target` with accepted runs `a0, a1, …` (the first is the check's `samples`,
    /// the rest its `pool`) and fresh run `f`, with an optional calibration file.
    fn judge_runs(accepted: &[String], fresh: &str, target: Target, calibration: Option<&CalibrationFile>) -> Row {
        let dir = tempfile::tempdir().unwrap();
        for (i, text) in accepted.iter().enumerate() {
            write_run(dir.path(), &format!("a{i}"), text, None);
        }
        write_run(dir.path(), "f", fresh, None);
        let files = Evidence::new(crate::paths::Root::new(dir.path()).unwrap());
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let infos: Vec<RunInfo> = (0..accepted.len()).map(|i| RunInfo::read(&files, &format!("evidence/runs/a{i}")).unwrap()).collect();
        against_fresh(Rule::default(), &[target], &infos, &files, &fresh_info, "evidence/runs/f/samples.jsonl", calibration).unwrap().remove(0)
    }

    /// A latency target over `runs` accepted runs `a0`, `a1`, … pooled.
    fn pooled_target(runs: usize) -> Target {
        let pool: Vec<String> = (1..runs).map(|i| format!("\"evidence/runs/a{i}/samples.jsonl\"")).collect();
        let spec: stat::Spec = toml::from_str(&format!(
            "samples = \"evidence/runs/a0/samples.jsonl\"\npool = [{}]\nselect = {{ suite = \"s\", case = \"c\", variant = \"fused\", mode = \"graph\" }}\nfield = \"host_us\"\nstatistic = \"median\"\n",
            pool.join(", ")
        ))
        .unwrap();
        let quoted = Quoted { value: 40.0, decimals: 2, unit: Some(Unit::Us), ..Quoted::default() };
        let check = Check { kind: Kind::Stat(spec.clone()), common: checks::Common::default(), span: 0..0 };
        let latency = Latency { check, quoted, margin: DEFAULT_MARGIN, expr: None, expr_text: None, vars: vec![("value".into(), spec)], unit: Some(Unit::Us), expr_units: None };
        Target { registry: "claims/t.toml".into(), claim: "C1".into(), check: 1, subject: Subject::Latency(latency) }
    }

    /// A calibration that says runs of `fused` differ by σ = `between` in ln median.
    fn calibration(between: f64) -> CalibrationFile {
        use crate::evidence::calibration::*;
        CalibrationFile {
            schema_version: SCHEMA_VERSION,
            runs: vec![],
            rule: CalibrationRule { seed: 1, replicates: 1, margin: 0.1, family_alpha: 0.05, target_match_rate: 0.9, nominal_excluding_one: 0.1 },
            default_between: 0.5,
            in_sample: Rates::default(),
            held_out: None,
            configurations: vec![ConfigurationCalibration {
                suite: "s".into(),
                case: "c".into(),
                variant: "fused".into(),
                mode: "graph".into(),
                field: "host_us".into(),
                medians: vec![],
                cv_between: between,
                between,
                within: 0.0,
                pairs: 1,
                false_mismatch: 0.0,
                false_inconclusive: 0.0,
                excluding_one: 0.0,
                proposed_margin: 0.1,
                orders: None,
                rotation_sets: None,
                rotation: None,
            }],
            excluded: vec![],
        }
    }

    #[test]
    fn runs_not_rounds_are_the_unit_of_replication() {
        // Three accepted runs, each tight inside itself, whose levels differ by ±10 %: a fresh
        // run at their middle is not a MATCH at δ = 10 %, because another run could land
        // anywhere among them; against the one middle run alone it is.
        let spread: Vec<String> = [40.0, 44.0, 36.4].iter().enumerate().map(|(i, l)| samples(&[("fused", *l, 0.01)], i as u64)).collect();
        let fresh = samples(&[("fused", 40.0, 0.01)], 9);
        let pooled = judge_runs(&spread, &fresh, pooled_target(3), None);
        assert_eq!(pooled.outcome, Judgement::Inconclusive, "{pooled:?}");
        assert_eq!(pooled.runs.unwrap().accepted, 3);
        let (lo, hi) = pooled.interval.unwrap();
        assert!(lo < 0.93 && hi > 1.07, "{pooled:?}");
        let one = judge_runs(&spread[..1], &fresh, pooled_target(1), None);
        assert_eq!(one.outcome, Judgement::Match, "{one:?}");
        assert!(one.detail.contains("not widened: no calibration"), "{}", one.detail);
    }

    #[test]
    fn a_one_run_side_is_widened_by_the_calibrated_spread() {
        let a = vec![samples(&[("fused", 40.0, 0.01)], 1)];
        let f = samples(&[("fused", 40.4, 0.01)], 2);
        let tight = judge_runs(&a, &f, pooled_target(1), Some(&calibration(0.002)));
        assert_eq!(tight.outcome, Judgement::Match, "{tight:?}");
        let wide = judge_runs(&a, &f, pooled_target(1), Some(&calibration(0.06)));
        assert_eq!(wide.outcome, Judgement::Inconclusive, "{wide:?}");
        assert!((wide.runs.unwrap().widened_by - 0.06).abs() < 1e-12, "{wide:?}");
    }

    /// Batches timed in rounds, as a harness that numbers its rounds writes them: in each of 21
    /// rounds, batches of 100, 200 and 400 iterations at `ns` an iteration, within `spread`.
    fn batches(ns: f64, spread: f64, seed: u64) -> String {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = String::new();
        for round in 0..21 {
            for iters in [100, 200, 400] {
                let time = ns * f64::from(iters) * (1.0 + spread * (rng.random::<f64>() - 0.5));
                out.push_str(&format!(
                    "{{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"fused\",\"mode\":\"graph\",\"round\":{round},\"iters\":{iters},\"batch_time_ns\":{time:.3}}}\n"
                ));
            }
        }
        out
    }

    /// A latency target quoting `ns` ns, the slope of `batch_time_ns` over `iters` pooled over
    /// `runs` accepted runs `a0`, `a1`, ….
    fn slope_target(runs: usize, ns: f64) -> Target {
        let mut target = pooled_target(runs);
        let Subject::Latency(l) = &mut target.subject else { unreachable!() };
        let spec = &mut l.vars[0].1;
        spec.field = toml::Spanned::new(0..0, "batch_time_ns".into());
        spec.statistic = toml::Spanned::new(0..0, "slope".into());
        spec.per = Some(toml::Spanned::new(0..0, "iters".into()));
        l.check.kind = Kind::Stat(spec.clone());
        l.quoted = Quoted { value: ns, decimals: 2, unit: Some(Unit::Ns), ..Quoted::default() };
        l.unit = Some(Unit::Ns);
        target
    }

    /// A slope over a run's records with rounds is read by the records reader, each record's
    /// (iters, time) pair kept in its round. Offline it is the audit's slope, and it is not held
    /// to the run's saved summary, which holds no slope (a summary beside it would otherwise make
    /// the row a MISMATCH for want of a "slope row"). A derived count is left to the check's own
    /// query, which computes it.
    #[test]
    fn a_slope_over_a_run_s_rounds_is_the_audit_s_and_held_to_no_summary() {
        let dir = tempfile::tempdir().unwrap();
        write_run(dir.path(), "a0", &batches(5.0, 0.02, 1), None);
        let summary = r#"{"schema_version":1,"configurations":[{"suite":"s","case":"c","variant":"fused","mode":"graph","field":"batch_time_ns","n":63,"median":1000,"mean":1000,"p05":500,"p95":2000,"min":500,"max":2000}]}"#;
        std::fs::write(dir.path().join("evidence/runs/a0/summary.json"), summary).unwrap();
        let files = Evidence::new(crate::paths::Root::new(dir.path()).unwrap());
        let t = slope_target(1, 5.0);
        let Subject::Latency(l) = &t.subject else { unreachable!() };
        assert!(t.reads_plain_jsonl() && t.has_rounds(&files));
        let mut derived = slope_target(1, 5.0);
        if let Subject::Latency(l) = &mut derived.subject {
            l.vars[0].1.derive.insert("iters".into(), toml::Spanned::new(0..0, "iters * 2".into()));
        }
        assert!(!derived.reads_plain_jsonl());
        let row = offline_latency(&t, l, &files).unwrap();
        assert_eq!(row.outcome, Judgement::Match, "{row:?}");
        assert_eq!((row.summary, row.detail.as_str()), (None, "slope of batch_time_ns over iters through the origin"), "{row:?}");
        let jsonl = sample_file(&files, "evidence/runs/a0/samples.jsonl").unwrap();
        let selected = jsonl.select(l.vars[0].1.select.get_ref());
        let pairs: Vec<(f64, f64)> = jsonl.values(&selected, "iters").unwrap().into_iter().zip(jsonl.values(&selected, "batch_time_ns").unwrap()).collect();
        assert_eq!(row.accepted, crate::stats::slope_through_origin(&pairs), "the audit's slope, summed in the same order");
    }

    /// Against fresh runs, a slope is judged by runs, then rounds, each round's pairs whole, by
    /// the hierarchical rule and the rounds rule alike: batches at the same 5 ns an iteration
    /// MATCH, batches 30 % slower are a MISMATCH.
    #[test]
    fn a_slope_over_runs_with_rounds_is_judged_against_fresh_runs() {
        let accepted: Vec<String> = (0..3).map(|i| batches(5.0, 0.02, 10 + i)).collect();
        let same = judge_runs(&accepted, &batches(5.0, 0.02, 20), slope_target(3, 5.0), None);
        assert_eq!(same.outcome, Judgement::Match, "{same:?}");
        assert_eq!(same.runs.map(|r| (r.accepted, r.fresh)), Some((3, 1)));
        let slower = judge_runs(&accepted, &batches(6.5, 0.02, 20), slope_target(3, 5.0), None);
        assert_eq!(slower.outcome, Judgement::Mismatch, "{slower:?}");
        assert!((slower.ratio.unwrap() - 1.3).abs() < 0.01, "{slower:?}");
        let (_dir, files) = root_with(&batches(5.0, 0.02, 1), &batches(6.5, 0.02, 2), "NVIDIA H200");
        let infos = [RunInfo::read(&files, "evidence/runs/a").unwrap()];
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let mut target = slope_target(1, 5.0);
        if let Subject::Latency(l) = &mut target.subject {
            l.vars[0].1.samples = toml::Spanned::new(0..0, "evidence/runs/a/samples.jsonl".into());
        }
        let rounds = against_fresh(Rule::rounds(1, 2000), &[target], &infos, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap().remove(0);
        assert_eq!(rounds.outcome, Judgement::Mismatch, "{rounds:?}");
    }

    #[test]
    fn every_row_is_decided_at_its_holm_level() {
        // Two rows: each tested at a level no larger than α ÷ 2 (four hypotheses), and the
        // interval at that level is the one that decides.
        let a = samples(&[("fused", 40.0, 0.04), ("four", 90.0, 0.04)], 1);
        let f = samples(&[("fused", 40.4, 0.04), ("four", 90.0, 0.04)], 2);
        let (_dir, files) = root_with(&a, &f, "NVIDIA H200");
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let accepted = [RunInfo::read(&files, "evidence/runs/a").unwrap()];
        let rows = against_fresh(Rule::default(), &[latency_target("fused"), ordering_target()], &accepted, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap();
        for r in &rows {
            let level = r.level.unwrap();
            assert!((0.05 / 4.0 - 1e-12..=0.05 / 2.0 + 1e-12).contains(&level), "{r:?}");
            let (lo, hi) = r.adjusted.unwrap();
            let (lo90, hi90) = r.interval.unwrap();
            assert!(lo <= lo90 && hi >= hi90, "the decisive interval is the wider one: {r:?}");
        }
    }

    #[test]
    fn a_fresh_run_at_another_clock_is_incomparable_with_the_clocks_shown() {
        let dir = tempfile::tempdir().unwrap();
        write_run(dir.path(), "a0", &samples(&[("fused", 40.0, 0.01)], 1), Some(1980));
        write_run(dir.path(), "f", &samples(&[("fused", 44.0, 0.01)], 2), Some(1755));
        let files = Evidence::new(crate::paths::Root::new(dir.path()).unwrap());
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let infos = [RunInfo::read(&files, "evidence/runs/a0").unwrap()];
        let row = against_fresh(Rule::default(), &[pooled_target(1)], &infos, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap().remove(0);
        assert_eq!(row.outcome, Judgement::Incomparable, "{row:?}");
        assert!(row.detail.contains("SM clock 1755 MHz here, 1980 MHz in evidence/runs/a0"), "{}", row.detail);
        // Within the bound, the same runs are judged.
        write_run(dir.path(), "f", &samples(&[("fused", 40.0, 0.01)], 2), Some(1950));
        let files = Evidence::new(crate::paths::Root::new(dir.path()).unwrap());
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let row = against_fresh(Rule::default(), &[pooled_target(1)], &infos, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap().remove(0);
        assert_eq!(row.outcome, Judgement::Match, "{row:?}");
    }

    #[test]
    fn a_fresh_run_that_took_its_sets_otherwise_is_incomparable_and_says_so_once() {
        let dir = tempfile::tempdir().unwrap();
        for (name, seed) in [("a0", 1), ("a1", 2), ("f", 3)] {
            write_run(dir.path(), name, &samples(&[("fused", 40.0, 0.01)], seed), Some(1980));
            // Eight sets of a variant of ours; the fresh run took them one an invocation.
            let meta = dir.path().join(format!("evidence/runs/{name}/meta.json"));
            let rotation = if name == "f" { r#","rotation":"per-invocation""# } else { "" };
            let text = std::fs::read_to_string(&meta)
                .unwrap()
                .replace(r#""rotation_sets":1"#, &format!(r#""rotation_sets":8{rotation}"#))
                .replace(r#""variants":[]"#, r#""variants":["fused"]"#);
            std::fs::write(&meta, text).unwrap();
        }
        let files = Evidence::new(crate::paths::Root::new(dir.path()).unwrap());
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let infos = [RunInfo::read(&files, "evidence/runs/a0").unwrap(), RunInfo::read(&files, "evidence/runs/a1").unwrap()];
        let row = against_fresh(Rule::default(), &[pooled_target(2)], &infos, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap().remove(0);
        assert_eq!(row.outcome, Judgement::Incomparable, "{row:?}");
        let why = "s c fused: buffer sets taken per invocation over 8 sets here and per entry over 8 sets in evidence/runs/a0, evidence/runs/a1";
        assert!(row.detail.ends_with(&format!("absolute times not compared: {why}")), "{}", row.detail);
    }

    #[test]
    fn a_spread_calibrated_under_another_protocol_is_not_used() {
        // Both runs took `fused`'s eight sets one an invocation; the calibration measured σ on
        // runs that took them per entry, so it is not this configuration's σ: the one-run sides
        // are widened by the calibration's default instead, and the row says why.
        let dir = tempfile::tempdir().unwrap();
        for (name, seed, level) in [("a0", 1, 40.0), ("f", 2, 40.4)] {
            write_run(dir.path(), name, &samples(&[("fused", level, 0.01)], seed), Some(1980));
            let meta = dir.path().join(format!("evidence/runs/{name}/meta.json"));
            let text = std::fs::read_to_string(&meta)
                .unwrap()
                .replace(r#""rotation_sets":1"#, r#""rotation_sets":8,"rotation":"per-invocation""#)
                .replace(r#""variants":[]"#, r#""variants":["fused"]"#);
            std::fs::write(&meta, text).unwrap();
        }
        let files = Evidence::new(crate::paths::Root::new(dir.path()).unwrap());
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let infos = [RunInfo::read(&files, "evidence/runs/a0").unwrap()];
        let judge_with = |rotation: crate::evidence::meta::SetRotation| {
            let mut cal = calibration(0.002);
            cal.configurations[0].rotation_sets = Some(8);
            cal.configurations[0].rotation = Some(rotation);
            against_fresh(Rule::default(), &[pooled_target(1)], &infos, &files, &fresh_info, "evidence/runs/f/samples.jsonl", Some(&cal)).unwrap().remove(0)
        };
        let alike = judge_with(crate::evidence::meta::SetRotation::PerInvocation);
        assert_eq!(alike.outcome, Judgement::Match, "{alike:?}");
        assert!((alike.runs.as_ref().unwrap().widened_by - 0.002).abs() < 1e-12, "{alike:?}");
        assert!(!alike.runs.unwrap().default_spread);
        let otherwise = judge_with(crate::evidence::meta::SetRotation::PerEntry);
        assert_eq!(otherwise.outcome, Judgement::Inconclusive, "{otherwise:?}");
        let used = otherwise.runs.unwrap();
        assert!(used.default_spread && (used.widened_by - 0.5).abs() < 1e-12, "{used:?}");
        let why = "one-run sides widened by the calibration's default σ (s c fused calibrated with buffer sets taken per entry over 8 sets, here per invocation over 8 sets)";
        assert!(otherwise.detail.ends_with(why), "{}", otherwise.detail);
        // A calibration that does not record how its runs took their sets is used as it is.
        let unrecorded =
            against_fresh(Rule::default(), &[pooled_target(1)], &infos, &files, &fresh_info, "evidence/runs/f/samples.jsonl", Some(&calibration(0.002))).unwrap().remove(0);
        assert_eq!(unrecorded.outcome, Judgement::Match, "{unrecorded:?}");
    }

    #[test]
    fn an_ordering_across_protocols_is_refused() {
        let a = samples(&[("fused", 40.0, 0.04), ("four", 90.0, 0.04)], 1);
        let f = samples(&[("fused", 40.0, 0.04), ("four", 90.0, 0.04)], 2)
            .lines()
            .map(|l| if l.contains("\"four\"") { l.replace("}", ",\"protocol\":\"stream-events\"}") } else { l.replace("}", ",\"protocol\":\"graph-replay-events\"}") })
            .collect::<Vec<_>>()
            .join("\n");
        let (_dir, files) = root_with(&a, &f, "NVIDIA H200");
        let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
        let accepted = [RunInfo::read(&files, "evidence/runs/a").unwrap()];
        let err = against_fresh(Rule::default(), &[ordering_target()], &accepted, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap_err();
        assert!(err.message.contains("`fused` was timed by graph-replay-events and `four` by stream-events"), "{}", err.message);
        assert!(err.message.contains("claims/t.toml: claim C2 check 1"), "{}", err.message);
    }

    #[test]
    fn a_quote_recorded_as_wrong_matches_offline_while_the_evidence_still_disagrees() {
        let Subject::Latency(mut l) = pooled_target(2).subject else { unreachable!() };
        l.check.common.expect = checks::Expect::Mismatch;
        // The sentence says 40.00 µs; evidence of 61.90 µs is what the registry found.
        assert!(matches!(l.judged_against_quote(61.9, Vec::new()), Judgement::Match));
        assert!(matches!(l.judged_against_quote(40.0, Vec::new()), Judgement::Mismatch));
        let t = pooled_target(2);
        let row = l.offline_row(&t, 61.9, None, Vec::new(), "d".into(), None);
        assert_eq!(row.outcome, Judgement::Match);
        assert!(row.detail.ends_with("the registry records the quote as wrong"), "{}", row.detail);
        // The quote itself carries the mark, for a table that shows no detail.
        assert_eq!(row.what, "40.00 µs (recorded wrong)");
        let row = l.offline_row(&t, 61.9, Some(62.0), vec!["the saved summary gives 62, the raw samples 61.9".into()], "d".into(), None);
        assert_eq!(row.outcome, Judgement::Mismatch, "a problem makes the row a MISMATCH");
        assert!(row.detail.ends_with("quote as wrong; the saved summary gives 62, the raw samples 61.9"), "{}", row.detail);
    }

    #[test]
    fn the_same_latency_measured_again_matches() {
        let row = judge(&samples(&[("fused", 40.0, 0.04)], 1), &samples(&[("fused", 40.4, 0.04)], 2), "NVIDIA H200", latency_target("fused"));
        assert_eq!(row.outcome, Judgement::Match, "{row:?}");
        let (lo, hi) = row.interval.unwrap();
        assert!(lo < 1.01 && hi > 1.0 && hi < 1.1, "{row:?}");
    }

    #[test]
    fn a_latency_half_again_as_long_is_a_mismatch() {
        let row = judge(&samples(&[("fused", 40.0, 0.04)], 1), &samples(&[("fused", 60.0, 0.04)], 2), "NVIDIA H200", latency_target("fused"));
        assert_eq!(row.outcome, Judgement::Mismatch, "{row:?}");
        assert!((row.ratio.unwrap() - 1.5).abs() < 0.03, "{row:?}");
    }

    #[test]
    fn a_noisy_fresh_run_near_the_margin_is_inconclusive() {
        let row = judge(&samples(&[("fused", 40.0, 0.04)], 1), &samples(&[("fused", 43.6, 0.5)], 2), "NVIDIA H200", latency_target("fused"));
        assert_eq!(row.outcome, Judgement::Inconclusive, "{row:?}");
    }

    #[test]
    fn another_device_is_incomparable_but_its_orderings_are_judged() {
        let a = samples(&[("fused", 40.0, 0.04), ("four", 90.0, 0.04)], 1);
        let f = samples(&[("fused", 20.0, 0.04), ("four", 45.0, 0.04)], 2);
        let row = judge(&a, &f, "NVIDIA H100", latency_target("fused"));
        assert_eq!(row.outcome, Judgement::Incomparable, "{row:?}");
        assert!(row.detail.contains("NVIDIA H100 here"), "{}", row.detail);
        let row = judge(&a, &f, "NVIDIA H100", ordering_target());
        assert_eq!(row.outcome, Judgement::Match, "{row:?}");
    }

    #[test]
    fn a_reversed_ordering_is_a_mismatch() {
        let a = samples(&[("fused", 40.0, 0.04), ("four", 90.0, 0.04)], 1);
        let f = samples(&[("fused", 95.0, 0.04), ("four", 90.0, 0.04)], 2);
        let row = judge(&a, &f, "NVIDIA H200", ordering_target());
        assert_eq!(row.outcome, Judgement::Mismatch, "{row:?}");
        assert!(row.accepted.unwrap() > 2.0 && row.fresh.unwrap() < 1.0, "{row:?}");
    }

    #[test]
    fn a_peer_missing_from_the_fresh_run_leaves_the_other_pairs_judged() {
        // The check orders `fused` before `four` and `peer`; the fresh run lacks `peer`. Both
        // rule: the pair with `peer` is INCOMPARABLE, the pair with `four` judged (here a
        // reversal, so a MISMATCH that a whole-check INCOMPARABLE would hide).
        let a = samples(&[("fused", 40.0, 0.04), ("four", 90.0, 0.04), ("peer", 80.0, 0.04)], 1);
        let f = samples(&[("fused", 95.0, 0.04), ("four", 90.0, 0.04)], 2);
        let spec: compare::Spec = toml::from_str("samples = \"evidence/runs/a/samples.jsonl\"\nselect = { suite = \"s\", mode = \"graph\" }\nfield = \"host_us\"\nstatistic = \"median\"\nfaster = \"fused\"\nslower = [\"four\", \"peer\"]\ncases = [\"c\"]\n").unwrap();
        let target = Target { registry: "claims/t.toml".into(), claim: "C2".into(), check: 1, subject: Subject::Ordering(spec) };
        for rule in [Rule::default(), Rule::rounds(20261202, 2000)] {
            let (_dir, files) = root_with(&a, &f, "NVIDIA H200");
            let fresh_info = RunInfo::read(&files, "evidence/runs/f").unwrap();
            let accepted = [RunInfo::read(&files, "evidence/runs/a").unwrap()];
            let rows = against_fresh(rule, std::slice::from_ref(&target), &accepted, &files, &fresh_info, "evidence/runs/f/samples.jsonl", None).unwrap();
            let outcomes: Vec<(&str, Judgement)> = rows.iter().map(|r| (r.what.as_str(), r.outcome)).collect();
            assert_eq!(outcomes.len(), 2, "{rows:?}");
            assert!(outcomes.contains(&("c: fused < peer", Judgement::Incomparable)), "{outcomes:?}");
            assert!(outcomes.contains(&("c: fused < four", Judgement::Mismatch)), "{outcomes:?}");
        }
    }

    #[test]
    fn the_judgement_is_fixed_by_the_seed() {
        let a = samples(&[("fused", 40.0, 0.2)], 1);
        let f = samples(&[("fused", 41.0, 0.2)], 2);
        assert_eq!(judge(&a, &f, "NVIDIA H200", latency_target("fused")), judge(&a, &f, "NVIDIA H200", latency_target("fused")));
    }

    #[test]
    fn a_sample_without_a_round_is_located() {
        let jsonl = Jsonl::parse("s.jsonl", b"{\"suite\":\"s\",\"case\":\"c\",\"variant\":\"fused\",\"mode\":\"graph\",\"host_us\":1.0}\n").unwrap();
        let err = ByRound::select(&jsonl, &query("fused")).unwrap_err();
        assert_eq!(err.position().as_deref(), Some("s.jsonl:1:1"));
        assert!(err.message.contains("no `round`"), "{}", err.message);
    }

    #[test]
    fn equivalence_needs_the_whole_interval_inside_the_margin() {
        let m = 0.10;
        let b = 1.1f64.ln();
        assert_eq!(equivalence(-0.02, 0.03, m), Judgement::Match);
        assert_eq!(equivalence(-b, b, m), Judgement::Match);
        assert_eq!(equivalence(0.05, b + 0.01, m), Judgement::Inconclusive);
        assert_eq!(equivalence(b + 0.001, 0.5, m), Judgement::Mismatch);
        assert_eq!(equivalence(-0.5, -b - 0.001, m), Judgement::Mismatch);
        assert_eq!(equivalence(f64::NEG_INFINITY, f64::INFINITY, m), Judgement::Inconclusive);
    }

    #[test]
    fn an_ordering_must_clear_its_minimum_ratio() {
        assert_eq!(ordering(0.1, 0.3, 1.0), Judgement::Match);
        assert_eq!(ordering(-0.1, 0.3, 1.0), Judgement::Inconclusive);
        assert_eq!(ordering(-0.3, -0.1, 1.0), Judgement::Mismatch);
        assert_eq!(ordering(0.1, 0.3, 1.2), Judgement::Inconclusive);
    }

    #[test]
    fn the_interval_of_a_distribution_with_a_non_finite_value_is_unbounded() {
        assert_eq!(interval(vec![1.0, f64::NAN, 2.0]), (f64::NEG_INFINITY, f64::INFINITY));
        let (lo, hi) = interval((0..=100).map(f64::from).collect());
        assert!((lo - 5.0).abs() < 1e-12 && (hi - 95.0).abs() < 1e-12, "{lo} {hi}");
    }

    #[test]
    fn buffer_sets_taken_otherwise_make_a_case_incomparable_where_there_were_several() {
        let run = |path: &str, rotation: Option<SetRotation>, peers: Option<SetRotation>| {
            let case = |name: &str, sets: usize| crate::evidence::meta::CaseMeta {
                suite: "softmax-bench".into(),
                case: name.into(),
                shape: vec![1],
                rotation_sets: sets,
                rotation,
                bytes_per_set: 1,
                timing_fixture_seed: 1,
                variants: vec!["fused".into()],
                modes: vec![],
                logical_bytes: BTreeMap::new(),
                dispatch: None,
                clocks: None,
            };
            let peers = peers.map(|r| vec![serde_json::json!({ "rotation": r.name() })]).unwrap_or_default();
            RunInfo::from_meta(path, &Meta { cases: vec![case("8x262144", 8), case("1024x32768", 1)], peers, ..Meta::default() })
        };
        let old = run("old", None, None);
        let new = run("new", Some(SetRotation::PerInvocation), Some(SetRotation::PerInvocation));
        assert_eq!(
            new.sets_differ(&old, "softmax-bench", "8x262144", "fused"),
            Some(("softmax-bench 8x262144 fused: buffer sets taken per invocation over 8 sets here and per entry over 8 sets in".to_string(), "old".to_string()))
        );
        // A peer is judged by the peer script's rotation.
        assert!(
            new.sets_differ(&old, "softmax-bench", "8x262144", "torch").unwrap().0.contains("torch: buffer sets taken per invocation over 8 sets here and per entry over 8 sets")
        );
        assert_eq!(run("ours-only", Some(SetRotation::PerInvocation), None).sets_differ(&old, "softmax-bench", "8x262144", "torch"), None);
        // One set: every invocation took it either way.
        assert_eq!(new.sets_differ(&old, "softmax-bench", "1024x32768", "fused"), None);
        // Two sets where there was one: the invocation before no longer left its data to reuse.
        let mut two = run("two", Some(SetRotation::PerInvocation), Some(SetRotation::PerInvocation));
        if let Some(meta) = two.meta.as_mut() {
            std::rc::Rc::make_mut(meta).cases[1].rotation_sets = 2;
        }
        assert_eq!(
            two.sets_differ(&old, "softmax-bench", "1024x32768", "torch"),
            Some(("softmax-bench 1024x32768 torch: buffer sets taken per invocation over 2 sets here and from one set in".to_string(), "old".to_string()))
        );
        assert_eq!(new.sets_differ(&run("same", Some(SetRotation::PerInvocation), None), "softmax-bench", "8x262144", "fused"), None);
        // A case one run lacks is left to the check that finds it unmeasured.
        assert_eq!(new.sets_differ(&old, "softmax-bench", "4096x128", "fused"), None);
    }

    #[test]
    fn a_device_or_driver_change_makes_runs_incomparable() {
        let info = |name: &str, driver: i32| {
            RunInfo::from_meta(
                "r",
                &Meta { device: Some(crate::evidence::meta::DeviceInfo { name: name.into(), driver_version: driver, ..Default::default() }), ..Meta::default() },
            )
        };
        assert_eq!(info("NVIDIA H200", 13000).incomparable_with(&info("NVIDIA H200", 13020)), None);
        assert!(info("NVIDIA H200", 13000).incomparable_with(&info("NVIDIA H100", 13000)).unwrap().contains("NVIDIA H100"));
        assert!(info("NVIDIA H200", 12080).incomparable_with(&info("NVIDIA H200", 13000)).unwrap().contains("driver 12.x"));
        assert!(info("NVIDIA H200", 13000).incomparable_with(&RunInfo::from_meta("old", &Meta::default())).unwrap().contains("records no device"));
    }

    #[test]
    fn row_seeds_differ_by_what_is_judged() {
        assert_ne!(row_seed(1, &["a", "b"]), row_seed(1, &["ab"]));
        assert_eq!(row_seed(1, &["a", "b"]), row_seed(1, &["a", "b"]));
        assert_ne!(row_seed(1, &["a"]), row_seed(2, &["a"]));
    }
}
