//! The hierarchical rule's judgements: each row's bootstrap distribution ([`super::hierarchical`]),
//! then Holm's procedure over the whole table ([`super::family`]). Rows that cannot be compared
//! (INCOMPARABLE) and offline latencies (judged by the audit's matching rule) take no part in
//! the family.

use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::family::{self, Trial};
use super::hierarchical::{Side, log_distribution, percentile_interval, propagated_spread, ratio_distribution};
use super::{ByRound, CONFIDENCE, Judgement, Latency, Row, RowKind, Rule, RunInfo, RunsUsed, Subject, Target, row_seed, run_dir, sample_file};
use crate::checks::compare;
use crate::diagnostic::Diagnostic;
use crate::evidence::calibration::CalibrationFile;
use crate::evidence::store::Evidence;

/// Why no interval can judge `sides`, and the outcome that says so: INCOMPARABLE where its
/// statistic has no bootstrap interval however many samples it had (an extreme, a sum),
/// INCONCLUSIVE where a side holds too few samples (more would decide), and INCOMPARABLE where
/// a percentile has too few beyond it in these runs.
fn unjudgeable(sides: &[&Side<'_>]) -> Option<(Judgement, String)> {
    let never = sides.iter().find_map(|s| s.never_interval()).map(|why| (Judgement::Incomparable, why));
    let few = || sides.iter().find_map(|s| s.too_few()).map(|why| (Judgement::Inconclusive, why));
    never.or_else(few).or_else(|| sides.iter().find_map(|s| s.no_interval()).map(|why| (Judgement::Incomparable, why)))
}

/// A row waiting for the family's decision.
struct Pending {
    row: Row,
    /// `None` for a row outside the family (INCOMPARABLE, or an offline latency).
    test: Option<Test>,
}

struct Test {
    /// The sorted distribution of the judged log ratio; `None` when a replicate had no finite
    /// positive value.
    dist: Option<Vec<f64>>,
    trial: Trial,
}

/// Offline: latencies by the audit's matching rule (pooled over a check's runs), orderings
/// inside the accepted run, or across its runs where the check pools several, under
/// family-wise control.
/// `harness` holds the orderings over another harness's records, each judged inside its
/// accepted file ([`harness_orderings`]).
pub(super) fn offline(rule: Rule, targets: &[Target], files: &Evidence, harness: &[HarnessOrdering<'_>]) -> Result<Vec<Row>, Diagnostic> {
    let mut pending = Vec::new();
    for t in targets {
        match &t.subject {
            Subject::Latency(l) if l.vars.iter().all(|(_, v)| v.pool.is_empty()) => pending.push(Pending { row: super::offline_latency(t, l, files)?, test: None }),
            Subject::Latency(l) => pending.push(Pending { row: pooled_offline_latency(t, l, files)?, test: None }),
            Subject::Ordering(c) => pending.extend(orderings(t, c, files, &c.run_paths(), false, rule, &BTreeSet::new())?),
        }
    }
    pending.extend(harness_orderings(harness, rule));
    Ok(finish(pending, rule))
}

/// An ordering check over another harness's records and its pairs, read by
/// [`super::harness::ordering_pairs`].
pub(super) type HarnessOrdering<'t> = (&'t Target, &'t compare::Spec, Vec<super::harness::OrderingPair>);

/// The rows of orderings over a harness's records: each pair judged in the fresh file where
/// one was read, else inside the accepted one, its two sides' samples resampled apart (a
/// harness's samples share no rounds). A pair the fresh file cannot judge is INCOMPARABLE.
fn harness_orderings(items: &[HarnessOrdering<'_>], rule: Rule) -> Vec<Pending> {
    let ratio = |v: &[f64]| v[1] / v[0];
    let mut out = Vec::new();
    for (t, c, pairs) in items {
        let min_ratio = c.min_ratio.unwrap_or(1.0);
        let need = c.min_ratio.map_or(String::new(), |r| format!(" by {r}×"));
        for p in pairs {
            let what = compare::in_case(&p.case, &format!("{} < {}{need}", c.faster, p.slower));
            // Offline, a pooled ordering is judged across the files it pools, as ours is across
            // runs: results resampled, then each side's samples within them.
            let results = match (&p.fresh, p.accepted.len()) {
                (None, n) if n > 1 => format!("{n} results, resampled, then each side's samples within them on their own"),
                _ => "one result, each side's samples resampled on their own".to_string(),
            };
            let detail = format!("{} {} by {}; {results}", c.statistic.get_ref(), c.field.get_ref(), c.by);
            let accepted = Side::new(&p.accepted, &ratio).value();
            let row = |outcome, fresh, detail| Row {
                registry: t.registry.clone(),
                claim: t.claim.clone(),
                check: t.check,
                kind: RowKind::Ordering,
                what: what.clone(),
                accepted: Some(accepted),
                fresh,
                summary: None,
                unit: None,
                ratio: None,
                interval: None,
                bound: Some(min_ratio),
                outcome,
                detail,
                level: None,
                adjusted: None,
                runs: None,
            };
            let judged_runs = match &p.fresh {
                None => p.accepted.clone(),
                Some(Ok(fresh)) => vec![fresh.clone()],
                Some(Err(why)) => {
                    out.push(Pending { row: row(Judgement::Incomparable, None, format!("{detail}; {why}")), test: None });
                    continue;
                }
            };
            let side = Side::new(&judged_runs, &ratio);
            if let Some((outcome, why)) = unjudgeable(&[&side]) {
                out.push(Pending { row: row(outcome, p.fresh.is_some().then(|| side.value()), format!("{detail}; {why}")), test: None });
                continue;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(row_seed(rule.seed, &[&t.registry, &t.claim, &t.check.to_string(), &p.case, &p.slower]));
            let dist = log_distribution(&side, &mut rng, rule.replicates);
            let trial = dist.as_deref().map_or(Trial { p_match: 1.0, p_mismatch: 1.0 }, |d| family::ordering_trial(d, min_ratio.ln()));
            let judged = Row {
                runs: Some(RunsUsed { accepted: 0, fresh: judged_runs.len(), widened_by: 0.0, default_spread: false }),
                ..row(Judgement::Inconclusive, p.fresh.is_some().then(|| side.value()), detail.clone())
            };
            out.push(Pending { row: judged, test: Some(Test { dist, trial }) });
        }
    }
    out
}

/// A fresh run (or several) against the accepted runs.
pub(super) fn fresh(
    rule: Rule,
    targets: &[Target],
    accepted: &[RunInfo],
    files: &Evidence,
    fresh: &[(&RunInfo, &str)],
    calibration: Option<&CalibrationFile>,
) -> Result<Vec<Row>, Diagnostic> {
    let paths: Vec<&str> = fresh.iter().map(|(_, p)| *p).collect();
    let mut pending = Vec::new();
    for t in targets {
        // What some fresh run cannot judge is INCOMPARABLE: a latency whole, an ordering by
        // its pairs, the others judged.
        let unjudged = super::unmeasured(t, files, &paths)?;
        let latency_unmeasured = !unjudged.rows.is_empty();
        pending.extend(unjudged.rows.into_iter().map(|row| Pending { row, test: None }));
        match &t.subject {
            Subject::Latency(_) if latency_unmeasured => {}
            Subject::Latency(l) => pending.push(latency(t, l, files, accepted, fresh, calibration, rule)?),
            Subject::Ordering(c) => {
                let mut rows = orderings(t, c, files, &paths, true, rule, &unjudged.pairs)?;
                // An ordering is judged inside the fresh run, whatever its card: on another
                // card it says what holds there, which the row says, so that it is not read as
                // confirming what the accepted runs' card showed.
                if let Some(cards) = other_card(accepted, fresh) {
                    rows.iter_mut().for_each(|p| p.row.detail = format!("{}; {cards}", p.row.detail));
                }
                pending.extend(rows);
            }
        }
    }
    Ok(finish(pending, rule))
}

/// The fresh runs' card and the accepted runs', where they differ (`None` where every run
/// records the same device, or where one records none).
fn other_card(accepted: &[RunInfo], fresh: &[(&RunInfo, &str)]) -> Option<String> {
    let of = |runs: &mut dyn Iterator<Item = &RunInfo>| runs.filter_map(|r| r.device.clone()).collect::<BTreeSet<String>>();
    let (here, there) = (of(&mut fresh.iter().map(|(r, _)| *r)), of(&mut accepted.iter()));
    (!here.is_empty() && !there.is_empty() && here != there).then(|| {
        let list = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
        format!("judged on the fresh run's {}, not on the accepted runs' {}", list(&here), list(&there))
    })
}

/// Latencies of another harness's output: each side one result whose samples are resampled
/// on their own ([`super::harness`]), under the same family-wise control.
pub(super) fn harness(rule: Rule, items: &[(&Target, &Latency, super::harness::Sides)], orderings: &[HarnessOrdering<'_>]) -> Vec<Row> {
    let mut pending = harness_orderings(orderings, rule);
    for (t, l, sides) in items {
        let (accepted, fresh) = match sides {
            Ok(s) => s,
            Err(why) => {
                pending.push(Pending { row: super::harness::incomparable(t, l, why), test: None });
                continue;
            }
        };
        let eval = l.eval();
        let fresh_runs = vec![fresh.clone()];
        let (a, f) = (Side::new(accepted, &*eval), Side::new(&fresh_runs, &*eval));
        let (av, fv) = (a.value(), f.value());
        if let Some((outcome, why)) = unjudgeable(&[&a, &f]) {
            let row = Row { accepted: Some(av), fresh: Some(fv), ratio: Some(fv / av), outcome, ..super::harness::incomparable(t, l, &why) };
            pending.push(Pending { row, test: None });
            continue;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(row_seed(rule.seed, &[&t.registry, &t.claim, &t.check.to_string()]));
        // The fresh result is one run. Where the accepted side pools several, the spread
        // between them is measured as `calibrate` measures it, and the fresh side is widened
        // by it, as a calibrated one-run side of ours is; with one accepted result nothing
        // shows how results differ, and the row says the sides are not widened.
        let spread = a.spreads_between_own_runs(&mut rng, super::calibrate::WITHIN_REPLICATES).map(|s| propagated_spread(&f, &s));
        let spread = spread.filter(|s| s.is_finite());
        let detail = match (a.n_runs(), spread) {
            (1, _) => format!("{}; one result a side, its samples resampled, not widened: no calibration of the spread between runs", l.describe()),
            (n, Some(s)) => {
                format!("{}; {n} accepted results, resampled, then their samples; the one fresh result widened by σ = {:.1} % measured between them", l.describe(), s * 100.0)
            }
            (n, None) => format!("{}; {n} accepted results, resampled, then their samples; the one fresh result not widened: no finite spread between them", l.describe()),
        };
        let row = Row {
            registry: t.registry.clone(),
            claim: t.claim.clone(),
            check: t.check,
            kind: RowKind::Latency,
            what: l.quoted.shown(),
            accepted: Some(av),
            fresh: Some(fv),
            summary: None,
            unit: l.quoted.unit.clone(),
            ratio: Some(fv / av),
            interval: None,
            bound: Some(l.margin),
            outcome: Judgement::Inconclusive,
            detail,
            level: None,
            adjusted: None,
            runs: Some(RunsUsed { accepted: a.n_runs(), fresh: 1, widened_by: spread.unwrap_or(0.0), default_spread: false }),
        };
        let dist = ratio_distribution(&a, &f, [0.0, spread.unwrap_or(0.0)], &mut rng, rule.replicates);
        let trial = dist.as_deref().map_or(Trial { p_match: 1.0, p_mismatch: 1.0 }, |d| family::latency_trial(d, (1.0 + l.margin).ln()));
        pending.push(Pending { row, test: Some(Test { dist, trial }) });
    }
    finish(pending, rule)
}

/// Holm over every row that takes part, then each row's outcome, level and intervals.
fn finish(mut pending: Vec<Pending>, rule: Rule) -> Vec<Row> {
    let members: Vec<usize> = (0..pending.len()).filter(|&i| pending[i].test.is_some()).collect();
    let trials: Vec<Trial> = members.iter().filter_map(|&i| pending[i].test.as_ref().map(|t| t.trial)).collect();
    let decisions = family::holm(&trials, rule.alpha);
    for (&i, decision) in members.iter().zip(decisions) {
        let p = &mut pending[i];
        let Some(test) = &p.test else { continue };
        p.row.outcome = decision.claim.into();
        p.row.level = Some(decision.level);
        let exp = |(lo, hi): (f64, f64)| (lo.exp(), hi.exp());
        let unbounded = (0.0, f64::INFINITY);
        p.row.interval = Some(test.dist.as_deref().map_or(unbounded, |d| exp(percentile_interval(d, (1.0 - CONFIDENCE) / 2.0))));
        p.row.adjusted = Some(test.dist.as_deref().map_or(unbounded, |d| exp(percentile_interval(d, decision.level))));
    }
    pending.into_iter().map(|p| p.row).collect()
}

/// The runs of a latency's accepted side: run k holds every variable's k-th file (`samples`
/// first, then `pool`).
fn accepted_runs(l: &Latency, files: &Evidence) -> Result<Vec<Vec<ByRound>>, Diagnostic> {
    let n = l.vars.first().map_or(0, |(_, v)| v.runs().len());
    if l.vars.iter().any(|(_, v)| v.runs().len() != n) {
        return Err(Diagnostic::plain(format!("the variables of `{}` pool different numbers of runs; pool every variable over the same runs", l.describe())));
    }
    (0..n).map(|k| l.vars.iter().map(|(_, spec)| ByRound::select(&*sample_file(files, spec.runs()[k].get_ref())?, spec)).collect()).collect()
}

/// The pooled value of a latency offline, against the quote by the audit's matching rule.
fn pooled_offline_latency(t: &Target, l: &Latency, files: &Evidence) -> Result<Row, Diagnostic> {
    let runs = accepted_runs(l, files)?;
    let eval = l.eval();
    let value = Side::new(&runs, &*eval).value();
    let detail = format!("{}, median over {} runs", l.describe(), runs.len());
    let used = RunsUsed { accepted: runs.len(), fresh: 0, widened_by: 0.0, default_spread: false };
    Ok(l.offline_row(t, value, None, Vec::new(), detail, Some(used)))
}

/// The calibrated σ of ln value of each variable of `l`, and why any came from the
/// calibration's default instead (each reason once); `None` without a calibration. A
/// configuration's σ is used only where the accepted runs took its buffer sets as the calibrated
/// runs did: under another protocol runs differ between themselves by other amounts, so a σ
/// measured there is not this configuration's.
fn spreads(l: &Latency, calibration: Option<&CalibrationFile>, accepted_info: &[RunInfo]) -> Option<(Vec<f64>, Vec<String>)> {
    let calibration = calibration?;
    let mut defaulted: Vec<String> = Vec::new();
    let mut default_because = |why: String| {
        if !defaulted.contains(&why) {
            defaulted.push(why);
        }
        calibration.default_between
    };
    let spreads = l
        .vars
        .iter()
        .map(|(_, spec)| {
            let key = |k: &str| spec.select.get_ref().get(k).and_then(|v| v.as_str()).unwrap_or("");
            let (suite, case, variant) = (key("suite"), key("case"), key("variant"));
            let Some(calibrated) = calibration.configuration(suite, case, variant, key("mode"), spec.field.get_ref()) else {
                return default_because("configuration not calibrated".to_string());
            };
            let there = calibrated.sets();
            let other = spec
                .runs()
                .into_iter()
                .map(|s| run_dir(s.get_ref()))
                .filter_map(|dir| accepted_info.iter().find(|r| r.path == dir))
                .filter_map(|info| info.sets_of(suite, case, variant))
                .find(|here| there.is_some_and(|there| there != *here));
            match (other, there) {
                (Some(here), Some(there)) => default_because(format!("{suite} {case} {variant} calibrated with buffer sets taken {}, here {}", there.shown(), here.shown())),
                _ => calibrated.between,
            }
        })
        .collect();
    Some((spreads, defaulted))
}

fn latency(
    t: &Target,
    l: &Latency,
    files: &Evidence,
    accepted_info: &[RunInfo],
    fresh: &[(&RunInfo, &str)],
    calibration: Option<&CalibrationFile>,
    rule: Rule,
) -> Result<Pending, Diagnostic> {
    let eval = l.eval();
    let accepted_runs = accepted_runs(l, files)?;
    let fresh_runs = fresh
        .iter()
        .map(|(_, path)| {
            let jsonl = sample_file(files, path)?;
            l.vars.iter().map(|(_, spec)| ByRound::select(&jsonl, spec)).collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (a, f) = (Side::new(&accepted_runs, &*eval), Side::new(&fresh_runs, &*eval));
    let (av, fv) = (a.value(), f.value());
    let mut row = Row {
        registry: t.registry.clone(),
        claim: t.claim.clone(),
        check: t.check,
        kind: RowKind::Latency,
        what: l.quoted.shown(),
        accepted: Some(av),
        fresh: Some(fv),
        summary: None,
        unit: l.quoted.unit.clone(),
        ratio: Some(fv / av),
        interval: None,
        bound: Some(l.margin),
        outcome: Judgement::Incomparable,
        detail: l.describe(),
        level: None,
        adjusted: None,
        runs: None,
    };

    // Another device, driver or clock: absolute times say nothing about the article.
    let dirs: BTreeSet<String> = l.vars.iter().flat_map(|(_, v)| v.runs()).map(|s| run_dir(s.get_ref())).collect();
    let configurations = l.configurations();
    let mut why = Vec::new();
    // Buffer sets taken otherwise: each configuration said once, with every accepted run it
    // differs from.
    let mut rotations: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for dir in &dirs {
        let Some(info) = accepted_info.iter().find(|r| &r.path == dir) else {
            why.push(format!("{dir} is not among the accepted runs read"));
            continue;
        };
        for (fresh_info, _) in fresh {
            why.extend(fresh_info.incomparable_with(info));
            let clocks: BTreeSet<(&String, &String)> = configurations.iter().map(|(suite, case, _)| (suite, case)).collect();
            why.extend(clocks.into_iter().filter_map(|(suite, case)| fresh_info.clock_differs(info, suite, case)));
            for (what, place) in configurations.iter().filter_map(|(suite, case, variant)| fresh_info.sets_differ(info, suite, case, variant)) {
                rotations.entry(what).or_default().push(place);
            }
        }
    }
    why.extend(rotations.into_iter().map(|(what, places)| format!("{what} {}", places.join(", "))));
    if !why.is_empty() {
        row.ratio = None;
        row.detail = format!("{}; absolute times not compared: {}", row.detail, why.join("; "));
        return Ok(Pending { row, test: None });
    }

    if let Some((outcome, why)) = unjudgeable(&[&a, &f]) {
        row.detail = format!("{}; {why}", row.detail);
        row.outcome = outcome;
        return Ok(Pending { row, test: None });
    }

    // A one-run side is widened by the calibrated between-run spread of its configurations.
    let calibrated = spreads(l, calibration, accepted_info);
    let widen = |side: &Side<'_>| match (&calibrated, side.n_runs()) {
        (Some((s, _)), 1) => propagated_spread(side, s),
        _ => 0.0,
    };
    let spread = [widen(&a), widen(&f)];
    let defaulted = calibrated.as_ref().map_or(&[][..], |(_, why)| why.as_slice());
    row.runs = Some(RunsUsed { accepted: a.n_runs(), fresh: f.n_runs(), widened_by: spread[0].max(spread[1]), default_spread: !defaulted.is_empty() });
    row.detail = match (&calibrated, a.n_runs().min(f.n_runs())) {
        (None, 1) => format!("{}; a side of one run, not widened: no calibration", row.detail),
        (Some(_), 1) if !defaulted.is_empty() => format!("{}; one-run sides widened by the calibration's default σ ({})", row.detail, defaulted.join("; ")),
        _ => row.detail,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(row_seed(rule.seed, &[&t.registry, &t.claim, &t.check.to_string()]));
    let dist = ratio_distribution(&a, &f, spread, &mut rng, rule.replicates);
    let trial = dist.as_deref().map_or(Trial { p_match: 1.0, p_mismatch: 1.0 }, |d| family::latency_trial(d, (1.0 + l.margin).ln()));
    Ok(Pending { row, test: Some(Test { dist, trial }) })
}

/// An ordering check's rows, judged in the runs `judged` (the fresh runs, or offline the
/// accepted one); `fresh` says which, for what the row shows.
fn orderings(t: &Target, c: &compare::Spec, files: &Evidence, judged: &[&str], fresh: bool, rule: Rule, skip: &BTreeSet<(String, String)>) -> Result<Vec<Pending>, Diagnostic> {
    let min_ratio = c.min_ratio.unwrap_or(1.0);
    let ratio = |v: &[f64]| v[1] / v[0];
    let accepted = c.run_paths();
    let mut out = Vec::new();
    for case in c.cases() {
        for slower in c.slower.iter().filter(|s| !skip.contains(&(case.to_string(), (*s).clone()))) {
            let runs_of = |paths: &[&str]| -> Result<Vec<Vec<ByRound>>, Diagnostic> {
                paths
                    .iter()
                    .map(|p| {
                        let jsonl = sample_file(files, p)?;
                        c.same_protocol(&jsonl, case, slower).map_err(|m| Diagnostic::plain(format!("{}: claim {} check {}: {p}: {m}", t.registry, t.claim, t.check)))?;
                        Ok(vec![ByRound::select(&jsonl, &c.query(case, &c.faster))?, ByRound::select(&jsonl, &c.query(case, slower))?])
                    })
                    .collect()
            };
            let runs = runs_of(judged)?;
            let side = Side::new(&runs, &ratio);
            let value = side.value();
            let accepted_ratio = if fresh { Side::new(&runs_of(&accepted)?, &ratio).value() } else { value };
            let need = c.min_ratio.map_or(String::new(), |r| format!(" by {r}×"));
            let row = Row {
                registry: t.registry.clone(),
                claim: t.claim.clone(),
                check: t.check,
                kind: RowKind::Ordering,
                what: compare::in_case(case, &format!("{} < {slower}{need}", c.faster)),
                accepted: Some(accepted_ratio),
                fresh: fresh.then_some(value),
                summary: None,
                unit: None,
                ratio: None,
                interval: None,
                bound: Some(min_ratio),
                outcome: Judgement::Inconclusive,
                detail: format!("{} {} by {}", c.statistic.get_ref(), c.field.get_ref(), c.by),
                level: None,
                adjusted: None,
                runs: Some(RunsUsed { accepted: 0, fresh: runs.len(), widened_by: 0.0, default_spread: false }),
            };
            if let Some((outcome, why)) = unjudgeable(&[&side]) {
                out.push(Pending { row: Row { outcome, detail: format!("{}; {why}", row.detail), ..row }, test: None });
                continue;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(row_seed(rule.seed, &[&t.registry, &t.claim, &t.check.to_string(), case, slower]));
            let dist = log_distribution(&side, &mut rng, rule.replicates);
            let trial = dist.as_deref().map_or(Trial { p_match: 1.0, p_mismatch: 1.0 }, |d| family::ordering_trial(d, min_ratio.ln()));
            out.push(Pending { row, test: Some(Test { dist, trial }) });
        }
    }
    Ok(out)
}
