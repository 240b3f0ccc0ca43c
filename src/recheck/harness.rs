//! `recheck --fresh PATH` for the output of another harness (hyperfine, criterion, Google
//! Benchmark, nvbench, pytest-benchmark, Go's `go test -bench`, JMH's `-rf json`, or records in
//! JSON, JSONL, CSV, TSV): the user reran their own benchmark and asks which quoted latencies and orderings
//! still hold. PATH is a
//! file or a folder; each accepted evidence file a latency or an ordering reads is paired with
//! a fresh one by `--map
//! ACCEPTED=FRESH`, else by the same relative layout under the folder (the accepted file's path
//! with leading folders dropped until it names a file under PATH), else, for a file, by being
//! the only accepted file or one of the same name. The fresh file is read by the accepted file's
//! format and query (`select`, `where`, `derive`), and judged by the same rule and outcomes as
//! our own runs ([`super::judge`]); claimcheck never runs the user's command.
//!
//! A harness's result is one run: each of its samples is resampled on its own (there are no
//! rounds), each variable's apart from the others' (two commands' fifth samples are not a
//! pair); a slope's sample is one record's (`per`, field) pair, drawn whole, as criterion draws
//! it. No calibration of the spread between its runs exists: with one accepted file neither
//! side is widened, which the rows say; a check that pools several files (paired by its
//! `samples` file) has those results for its accepted side, and the one fresh result is widened
//! by the spread measured between them. An ordering is judged inside the fresh file, as our own
//! orderings are inside the fresh run, and offline inside the accepted file, or across the
//! files it pools. A fresh file in another format
//! than the accepted one, or one that holds no samples the check selects, is INCOMPARABLE (for
//! an ordering, only the pairs it cannot judge); so is a latency whose records name their
//! device (nsys's traces do) where the fresh ones name another, as our own runs on another card
//! are: its ordering, judged inside the fresh file, is not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use toml::Spanned;

use super::{ByRound, Estimator, Judgement, Latency, Mode, Report, Round, Row, RowKind, Rule, RunInfo, Subject, Target, judge, targets};
use crate::checks::{Context, compare, query, stat};
use crate::diagnostic::Diagnostic;
use crate::evidence::readers::Format;
use crate::evidence::store::Evidence;
use crate::status::Failure;
use crate::workspace::Workspace;

/// Judges the harness output at `path` (root-relative) against the accepted evidence.
pub(crate) fn fresh(ws: &Workspace, path: &str, maps: &[String], rule: Rule) -> Result<Report, Failure> {
    let (all, mut not_rechecked) = targets(ws)?;
    let Some(files) = ws.evidence() else { return Err(Failure::Input(ws.diagnostics.clone())) };
    let path = path.trim_end_matches('/');
    // Opened through the root's handle, as every evidence file is: a link out of the root is
    // refused here and again when each file is read.
    let root = files.root();
    root.normal(path).map_err(|e| Failure::input(format!("--fresh {path}: {e}")))?;
    let is_dir = root.folder(path).is_ok();
    if !is_dir && !root.exists(path) {
        return Err(Failure::input(format!("--fresh {path}: no such file or folder under the root (a link out of it counts as none)")));
    }
    let maps = parse_maps(files, maps)?;
    let latencies: Vec<(&Target, &Latency)> = all
        .iter()
        .filter_map(|t| match &t.subject {
            Subject::Latency(l) => Some((t, l)),
            Subject::Ordering(_) => None,
        })
        .collect();
    let orderings: Vec<(&Target, &compare::Spec)> = all
        .iter()
        .filter_map(|t| match &t.subject {
            Subject::Ordering(c) => Some((t, c)),
            Subject::Latency(_) => None,
        })
        .collect();
    let accepted_files: Vec<String> = {
        let latency_files = latencies.iter().flat_map(|(_, l)| l.vars.iter().map(|(_, s)| s.samples.get_ref().clone()));
        let mut v: Vec<String> = latency_files.chain(orderings.iter().map(|(_, c)| c.samples.get_ref().clone())).collect();
        v.sort();
        v.dedup();
        v
    };
    let pair = |accepted: &str| -> Option<String> {
        if let Some((_, fresh)) = maps.iter().find(|(a, _)| a == accepted) {
            return Some(fresh.clone());
        }
        if is_dir {
            let parts: Vec<&str> = accepted.split('/').collect();
            return (0..parts.len()).map(|k| format!("{path}/{}", parts[k..].join("/"))).find(|c| root.exists(c) && root.folder(c).is_err());
        }
        let name = |p: &str| Path::new(p).file_name().map(|n| n.to_os_string());
        (accepted_files.len() == 1 || name(accepted) == name(path)).then(|| path.to_string())
    };
    let mut items = Vec::new();
    let mut used = BTreeMap::new();
    for (t, l) in &latencies {
        let pairs: Option<Vec<(String, String)>> = l.vars.iter().map(|(_, s)| pair(s.samples.get_ref()).map(|f| (s.samples.get_ref().clone(), f))).collect();
        let Some(pairs) = pairs else {
            not_rechecked += 1;
            continue;
        };
        let sides = sides(ws, files, t, l, &pairs)?;
        for (a, f) in pairs {
            used.insert(a, f);
        }
        items.push((*t, *l, sides));
    }
    // An ordering is judged in the fresh counterpart of its file, as a latency is.
    let mut ordering_items = Vec::new();
    for (t, c) in &orderings {
        let Some(fresh) = pair(c.samples.get_ref()) else {
            not_rechecked += 1;
            continue;
        };
        let pairs = ordering_pairs(ws, files, t, c, Some(&fresh))?;
        used.insert(c.samples.get_ref().clone(), fresh);
        ordering_items.push((*t, *c, pairs));
    }
    if items.is_empty() && ordering_items.is_empty() {
        let list = if accepted_files.is_empty() { "none".to_string() } else { accepted_files.join(", ") };
        return Err(Failure::input(format!(
            "--fresh {path}: no accepted evidence file that a quoted latency or ordering reads has a counterpart there (they read: {list}); pair them with --map ACCEPTED=FRESH"
        )));
    }
    let rows: Vec<Row> = judge::harness(rule, &items, &ordering_items);
    let run = |p: &str| RunInfo {
        path: p.to_string(),
        status: None,
        device: None,
        driver_major: None,
        suites: vec![],
        settings: None,
        clocks: BTreeMap::new(),
        run_clock: None,
        meta: None,
    };
    let accepted = used.keys().map(|a| run(a)).collect();
    let fresh_path = if used.values().all(|f| f == path) { path.to_string() } else { format!("{path} ({})", used.values().cloned().collect::<Vec<_>>().join(", ")) };
    Ok(Report {
        mode: Mode::Fresh,
        seed: rule.seed,
        replicates: rule.replicates,
        method: rule.method,
        alpha: rule.alpha,
        calibration: None,
        accepted,
        fresh: Some(run(&fresh_path)),
        rows,
        not_rechecked,
    })
}

/// The two sides of one latency: the accepted results (each file the check reads, `samples`
/// then `pool`, with every variable's samples) and the fresh one's samples per variable, or why
/// the fresh ones cannot be compared.
pub(super) type Sides = Result<(Vec<Vec<ByRound>>, Vec<ByRound>), String>;

fn sides(ws: &Workspace, files: &Evidence, t: &Target, l: &Latency, pairs: &[(String, String)]) -> Result<Sides, Failure> {
    let ctx = context(ws, files, t)?;
    let accepted = accepted_results(&ctx, t, &l.vars.iter().map(|(_, spec)| spec.clone()).collect::<Vec<_>>())?;
    let mut fresh = Vec::new();
    for ((_, spec), (_, fresh_file)) in l.vars.iter().zip(pairs) {
        match fresh_values(&ctx, spec, fresh_file)? {
            Ok(values) => fresh.push(values),
            Err(why) => return Ok(Err(why)),
        }
        // A time measured on another device is not a rerun of the quoted one, as our own runs
        // on another card are not: where the records name their device, the two must agree.
        if let Some(why) = other_device(&ctx, spec, fresh_file)? {
            return Ok(Err(why));
        }
    }
    Ok(Ok((accepted, fresh)))
}

/// The field a format's records name their device by, where they name it: nsys writes each
/// event's GPU (`NVIDIA H100 80GB HBM3 (0)`).
fn device_field(format: Format) -> Option<&'static str> {
    match format {
        Format::Nsys => Some("device"),
        _ => None,
    }
}

/// Why `spec`'s samples in `fresh_file` cannot be compared with its accepted ones for their
/// device: the records `spec` selects name other devices in the two files. A device is named by
/// its model, without the index nsys writes after it (`(0)`), so that the same card in another
/// slot is the same device. `None` where they agree, or where either file names none.
fn other_device(ctx: &Context<'_>, spec: &stat::Spec, fresh_file: &str) -> Result<Option<String>, Failure> {
    let devices = |file: &Spanned<String>| -> Result<BTreeSet<String>, Failure> {
        let q = query::Query { samples: file, ..spec.query() };
        let table = query::table(ctx, &q)?;
        let Some(field) = device_field(table.format) else { return Ok(BTreeSet::new()) };
        let jsonl = &table.jsonl;
        let kept = query::kept(ctx, &q, jsonl).unwrap_or_default();
        Ok(kept.iter().filter_map(|r| jsonl.get(r, field).and_then(|v| jsonl.str(v))).map(model).collect())
    };
    let accepted = devices(&spec.samples)?;
    let fresh = devices(&Spanned::new(spec.samples.span(), fresh_file.to_string()))?;
    if accepted.is_empty() || fresh.is_empty() || accepted == fresh {
        return Ok(None);
    }
    let list = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(", ");
    Ok(Some(format!("{fresh_file} ran on {}, the accepted {} on {}", list(&fresh), spec.samples.get_ref(), list(&accepted))))
}

/// A device's name without the index nsys writes after it: `NVIDIA Thor (0)` is `NVIDIA Thor`.
fn model(name: &str) -> String {
    let name = name.trim();
    match name.rsplit_once(" (") {
        Some((model, index)) if index.strip_suffix(')').is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit())) => model.to_string(),
        _ => name.to_string(),
    }
}

/// The accepted results of `specs` (the variables of one quantity): result k holds every
/// variable's samples in its k-th file (`samples`, then `pool`), read through the check's own
/// query. Variables that pool different numbers of files have no k-th result in common, and
/// are refused, as the audit refuses them.
fn accepted_results(ctx: &Context<'_>, t: &Target, specs: &[stat::Spec]) -> Result<Vec<Vec<ByRound>>, Failure> {
    let n = specs.first().map_or(0, |s| s.runs().len());
    if specs.iter().any(|s| s.runs().len() != n) {
        return Err(Failure::input(format!(
            "{} claim {} check {}: its variables pool different numbers of files; pool every variable over the same files",
            t.registry, t.claim, t.check
        )));
    }
    (0..n).map(|k| specs.iter().map(|spec| Ok(by_sample(ctx, spec, spec.runs()[k].clone())?)).collect()).collect()
}

/// `spec`'s values read from `fresh_file` instead of its own file, or why they cannot be
/// compared with the accepted ones: the file reads as another format, or holds none of the
/// samples `spec` selects.
fn fresh_values(ctx: &Context<'_>, spec: &stat::Spec, fresh_file: &str) -> Result<Result<ByRound, String>, Failure> {
    let accepted_format = query::table(ctx, &spec.query())?.format;
    let fresh_spanned = Spanned::new(spec.samples.span(), fresh_file.to_string());
    let q = query::Query { samples: &fresh_spanned, ..spec.query() };
    let table = query::table(ctx, &q)?;
    if table.format != accepted_format {
        return Ok(Err(format!("{fresh_file} reads as {}, the accepted {} as {}", table.format, spec.samples.get_ref(), accepted_format)));
    }
    match query::kept(ctx, &q, &table.jsonl) {
        Ok(_) => Ok(Ok(by_sample(ctx, spec, fresh_spanned)?)),
        Err(_) => Ok(Err(format!("{}: {fresh_file}", super::UNMEASURED))),
    }
}

/// One pair of an ordering over a harness's records, in one case: `faster` and one `slower`
/// name, each side's samples resampled on their own.
pub(super) struct OrderingPair {
    pub(super) case: String,
    pub(super) slower: String,
    /// The accepted results, one a file the check reads (`samples`, then `pool`), each with
    /// `faster`'s values, then `slower`'s.
    pub(super) accepted: Vec<Vec<ByRound>>,
    /// The fresh file's, or why they cannot be judged; `None` offline, where the ordering is
    /// judged inside the accepted file.
    pub(super) fresh: Option<Result<Vec<ByRound>, String>>,
}

/// Every pair of the ordering `c` (a check of `t`), read through the check's own query, in
/// the accepted file and, when given, in `fresh_file`.
pub(super) fn ordering_pairs(ws: &Workspace, files: &Evidence, t: &Target, c: &compare::Spec, fresh_file: Option<&str>) -> Result<Vec<OrderingPair>, Failure> {
    let ctx = context(ws, files, t)?;
    let mut out = Vec::new();
    for case in c.cases() {
        for slower in &c.slower {
            let specs = [c.query(case, &c.faster), c.query(case, slower)];
            // As the audit refuses, the recheck does not order samples timed differently, in
            // any file the check pools.
            for file in c.runs() {
                let jsonl = &query::table(&ctx, &query::Query { samples: file, ..specs[0].query() })?.jsonl;
                c.same_protocol(jsonl, case, slower)
                    .map_err(|m| Failure::input(format!("{}: claim {} check {}: {file}: {m}", t.registry, t.claim, t.check, file = file.get_ref())))?;
            }
            let accepted = accepted_results(&ctx, t, &specs)?;
            // Both sides read from the fresh file; the first that cannot be says why.
            let fresh = match fresh_file {
                None => None,
                Some(f) => Some(specs.iter().map(|spec| fresh_values(&ctx, spec, f)).collect::<Result<Vec<_>, _>>()?.into_iter().collect::<Result<Vec<_>, _>>()),
            };
            out.push(OrderingPair { case: case.to_string(), slower: slower.clone(), accepted, fresh });
        }
    }
    Ok(out)
}

/// The context the target's check runs in: its registry's sources and field units, and its
/// article.
fn context<'w>(ws: &'w Workspace, files: &'w Evidence, t: &Target) -> Result<Context<'w>, Failure> {
    let Some(loaded) = ws.registries.iter().find(|r| r.registry.file == t.registry) else { return Err(Failure::input(format!("{}: not loaded", t.registry))) };
    let Some(article) = &loaded.article else { return Err(Failure::Input(ws.diagnostics.clone())) };
    let r = &loaded.registry;
    Ok(Context::new(files, article, &r.sources, &r.file, &r.source).with_field_units(&r.field_units))
}

/// Offline, a latency whose query is not plain JSONL records with rounds (another format,
/// `records`, `where`, `derive`, samples without a `round`): its accepted values read through
/// the check's own query, as the audit reads them, and compared with the quote by the audit's
/// matching rule.
pub(super) fn offline(ws: &Workspace, files: &Evidence, t: &Target, l: &Latency) -> Result<Row, Failure> {
    let ctx = context(ws, files, t)?;
    let mut results = accepted_results(&ctx, t, &l.vars.iter().map(|(_, spec)| spec.clone()).collect::<Vec<_>>())?;
    if results.len() == 1 {
        let detail = format!("{}, read through the check's own query", l.describe());
        let vars = results.remove(0);
        return Ok(super::offline_latency_of(t, l, files, super::Quantity { vars, eval: l.eval() }, false, detail)?);
    }
    // Pooled, as the audit pools: the median of the results' values.
    let eval = l.eval();
    let value = super::hierarchical::Side::new(&results, &*eval).value();
    let detail = format!("{}, read through the check's own query, median over {} results", l.describe(), results.len());
    let used = super::RunsUsed { accepted: results.len(), fresh: 0, widened_by: 0.0, default_spread: false };
    Ok(l.offline_row(t, value, None, Vec::new(), detail, Some(used)))
}

/// A query's values with each sample its own round: a harness records no rounds, so samples
/// are what the bootstrap resamples, each variable's apart from the others' (unpaired). A
/// slope's sample is one record's (`per`, field) pair, read by the check's own query and kept
/// in file order, so that the whole file gives the audit's slope to the last bit and every
/// draw takes a record's two values together.
fn by_sample(ctx: &Context<'_>, spec: &stat::Spec, samples: Spanned<String>) -> Result<ByRound, Diagnostic> {
    let q = query::Query { samples: &samples, ..spec.query() };
    match Estimator::of(spec)? {
        (Estimator::Slope, Some(per)) => {
            let pairs = query::pairs(ctx, &q, &per)?;
            Ok(ByRound::unpaired(Estimator::Slope, pairs.into_iter().map(|(x, y)| Round { values: vec![y], per: vec![x] })))
        }
        (estimator, _) => {
            let values = query::samples(ctx, &q)?;
            Ok(ByRound::unpaired(estimator, values.sorted().iter().map(|v| Round { values: vec![*v], per: Vec::new() })))
        }
    }
}

/// `--map ACCEPTED=FRESH`, each side root-relative and inside the root.
fn parse_maps(files: &Evidence, maps: &[String]) -> Result<Vec<(String, String)>, Failure> {
    maps.iter()
        .map(|m| {
            let (a, f) = m.split_once('=').ok_or_else(|| Failure::Usage(format!("--map {m}: expected ACCEPTED=FRESH")))?;
            for p in [a, f] {
                files.root().normal(p).map_err(|e| Failure::input(format!("--map {m}: {p}: {e}")))?;
            }
            Ok((a.to_string(), f.to_string()))
        })
        .collect()
}

/// A row that was not judged, and why.
pub(super) fn incomparable(t: &Target, l: &Latency, why: &str) -> Row {
    Row {
        registry: t.registry.clone(),
        claim: t.claim.clone(),
        check: t.check,
        kind: RowKind::Latency,
        what: l.quoted.shown(),
        accepted: None,
        fresh: None,
        summary: None,
        unit: l.quoted.unit.clone(),
        ratio: None,
        interval: None,
        bound: Some(l.margin),
        outcome: Judgement::Incomparable,
        detail: format!("{}; {why}", l.describe()),
        level: None,
        adjusted: None,
        runs: None,
    }
}
