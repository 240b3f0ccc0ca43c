//! The recheck's outcome table for people and its versioned JSON (`recheck.json` in a fresh
//! run) for programs. The wire types are apart from `recheck::Row`, and every float is kept to
//! seven significant digits, so that a judgement made on the device machine and the same
//! judgement made again here compare equal even where their maths libraries differ in the
//! last bit.

use std::collections::BTreeMap;

use comfy_table::{Table, presets};
use serde::{Deserialize, Serialize};

use crate::article::numbers::Unit;
use crate::recheck::{CONFIDENCE, DEFAULT_MARGIN, Judgement, Mode, Report, Row, RowKind, RunInfo};

/// Bumped whenever a field changes meaning or disappears.
pub(crate) const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRecheck {
    pub schema_version: u32,
    pub mode: String,
    pub rule: WireRule,
    pub accepted_runs: Vec<WireRun>,
    pub fresh_run: Option<WireRun>,
    pub counts: BTreeMap<String, usize>,
    pub not_rechecked: usize,
    pub rows: Vec<WireRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRule {
    pub resampled: String,
    pub confidence: f64,
    pub default_margin: f64,
    pub seed: u64,
    pub replicates: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRun {
    pub path: String,
    pub status: Option<String>,
    pub device: Option<String>,
    pub driver_major: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRow {
    pub registry: String,
    pub claim: String,
    pub check: usize,
    pub kind: String,
    pub what: String,
    pub unit: Option<String>,
    pub accepted: Option<f64>,
    pub fresh: Option<f64>,
    pub summary: Option<f64>,
    pub ratio: Option<f64>,
    pub interval: Option<[Option<f64>; 2]>,
    pub bound: Option<f64>,
    pub outcome: String,
    pub detail: String,
}

/// A float to seven significant digits; `None` for one JSON cannot hold.
fn sig(v: f64) -> Option<f64> {
    if !v.is_finite() {
        return None;
    }
    format!("{v:.6e}").parse().ok()
}

fn run(r: &RunInfo) -> WireRun {
    WireRun { path: r.path.clone(), status: r.status.clone(), device: r.device.clone(), driver_major: r.driver_major }
}

fn row(r: &Row) -> WireRow {
    WireRow {
        registry: r.registry.clone(),
        claim: r.claim.clone(),
        check: r.check,
        kind: r.kind.name().into(),
        what: r.what.clone(),
        unit: r.unit.as_ref().map(|u| u.symbol().to_string()),
        accepted: r.accepted.and_then(sig),
        fresh: r.fresh.and_then(sig),
        summary: r.summary.and_then(sig),
        ratio: r.ratio.and_then(sig),
        interval: r.interval.map(|(lo, hi)| [sig(lo), sig(hi)]),
        bound: r.bound.and_then(sig),
        outcome: r.outcome.name().into(),
        detail: r.detail.clone(),
    }
}

/// The wire form of a report.
pub(crate) fn wire(report: &Report) -> WireRecheck {
    let mut counts = BTreeMap::new();
    for r in &report.rows {
        *counts.entry(r.outcome.name().to_string()).or_insert(0) += 1;
    }
    WireRecheck {
        schema_version: SCHEMA_VERSION,
        mode: match report.mode {
            Mode::Offline => "offline".into(),
            Mode::Fresh => "fresh".into(),
        },
        rule: WireRule { resampled: "rounds".into(), confidence: CONFIDENCE, default_margin: DEFAULT_MARGIN, seed: report.seed, replicates: report.replicates },
        accepted_runs: report.accepted.iter().map(run).collect(),
        fresh_run: report.fresh.as_ref().map(run),
        counts,
        not_rechecked: report.not_rechecked,
        rows: report.rows.iter().map(row).collect(),
    }
}

/// The report as pretty JSON with a trailing newline.
pub(crate) fn json(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&wire(report)).expect("wire types always serialise");
    s.push('\n');
    s
}

/// What `recheck --fresh` says about the judgement a run stores.
pub(crate) fn stored_text(run: &str, c: &crate::recheck::StoredComparison) -> String {
    let mut out = String::new();
    if c.differing.is_empty() {
        out.push_str(&format!("{run}/recheck.json: every stored row is reproduced exactly\n"));
    } else {
        out.push_str(&format!("{run}/recheck.json: {} stored rows DIFFER from this judgement:\n", c.differing.len()));
        for d in &c.differing {
            out.push_str(&format!("  {d}\n"));
        }
    }
    if c.only_stored + c.only_now > 0 {
        out.push_str(&format!("{run}/recheck.json: {} rows only in the stored table, {} only in this one (the registries changed since the run)\n", c.only_stored, c.only_now));
    }
    out
}

/// The outcome tables (latencies, then orderings) and a closing counts line.
pub(crate) fn text(report: &Report) -> String {
    let mut out = String::new();
    if let Some(fresh) = &report.fresh {
        let device = fresh.device.as_deref().unwrap_or("an unknown device");
        out.push_str(&format!("fresh run {} on {device}, judged against {}\n", fresh.path, report.accepted.iter().map(|r| r.path.as_str()).collect::<Vec<_>>().join(" and ")));
    }
    let latencies: Vec<&Row> = report.rows.iter().filter(|r| r.kind == RowKind::Latency).collect();
    let orderings: Vec<&Row> = report.rows.iter().filter(|r| r.kind == RowKind::Ordering).collect();
    let pct = (CONFIDENCE * 100.0).round();
    if !latencies.is_empty() {
        let mut t = table();
        match report.mode {
            Mode::Offline => {
                t.set_header(["Claim", "Quoted", "Recomputed", "Saved summary", "Outcome"]);
                for r in latencies {
                    t.add_row([id(r), r.what.clone(), value(r.accepted, r.unit.as_ref()), value(r.summary, r.unit.as_ref()), r.outcome.name().into()]);
                }
            }
            Mode::Fresh => {
                t.set_header(["Claim", "Quoted", "Accepted", "Fresh", "Ratio", &format!("{pct} % interval"), "δ", "Outcome"]);
                for r in latencies {
                    t.add_row([
                        id(r),
                        r.what.clone(),
                        value(r.accepted, r.unit.as_ref()),
                        value(r.fresh, r.unit.as_ref()),
                        r.ratio.map_or("—".into(), |x| format!("{x:.3}")),
                        span(r.interval),
                        r.bound.map_or("—".into(), |d| format!("{:.0} %", d * 100.0)),
                        r.outcome.name().into(),
                    ]);
                }
            }
        }
        out.push_str("Latencies\n");
        out.push_str(&t.to_string());
        out.push('\n');
    }
    if !orderings.is_empty() {
        let mut t = table();
        let judged = match report.mode {
            Mode::Offline => "accepted run",
            Mode::Fresh => "fresh run",
        };
        match report.mode {
            Mode::Offline => t.set_header(["Claim", "Ordering", "Slower ÷ faster", &format!("{pct} % interval"), "Outcome"]),
            Mode::Fresh => t.set_header(["Claim", "Ordering", "Accepted ratio", "Fresh ratio", &format!("{pct} % interval"), "Outcome"]),
        };
        for r in orderings {
            let mut cells = vec![id(r), r.what.clone(), ratio(r.accepted)];
            if report.mode == Mode::Fresh {
                cells.push(ratio(r.fresh));
            }
            cells.push(span(r.interval));
            cells.push(r.outcome.name().into());
            t.add_row(cells);
        }
        out.push_str(&format!("Orderings, judged inside the {judged}\n"));
        out.push_str(&t.to_string());
        out.push('\n');
    }
    let counts: Vec<String> = [Judgement::Match, Judgement::Mismatch, Judgement::Inconclusive, Judgement::Incomparable]
        .iter()
        .map(|j| format!("{} {}", report.count(*j), j.name()))
        .collect();
    out.push_str(&format!(
        "recheck: {} rows ({}); bootstrap over rounds, {} resamples, seed {}; {} other checks are not latencies or orderings\n",
        report.rows.len(),
        counts.join(", "),
        report.replicates,
        report.seed,
        report.not_rechecked
    ));
    for r in report.rows.iter().filter(|r| matches!(r.outcome, Judgement::Mismatch)) {
        out.push_str(&format!("{} MISMATCH {}: {}\n", id(r), r.what, r.detail));
    }
    out
}

fn table() -> Table {
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED).force_no_tty();
    t
}

fn id(r: &Row) -> String {
    format!("{} #{}", r.claim, r.check)
}

fn value(v: Option<f64>, unit: Option<&Unit>) -> String {
    match (v, unit) {
        (Some(v), Some(u)) => format!("{v:.2} {}", u.symbol()),
        (Some(v), None) => format!("{v:.3}"),
        (None, _) => "—".into(),
    }
}

fn ratio(v: Option<f64>) -> String {
    v.map_or("—".into(), |x| format!("{x:.3}×"))
}

fn span(i: Option<(f64, f64)>) -> String {
    match i {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() && lo > 0.0 => format!("[{lo:.3}, {hi:.3}]"),
        Some(_) => "unbounded".into(),
        None => "—".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_keep_seven_significant_digits_and_drop_infinities() {
        assert_eq!(sig(18.876543219), Some(18.87654));
        assert_eq!(sig(f64::INFINITY), None);
        assert_eq!(sig(0.0), Some(0.0));
    }
}
