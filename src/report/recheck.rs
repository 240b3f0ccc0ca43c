//! The recheck's outcome table for people and its versioned JSON (`recheck.json` in a fresh
//! run) for programs. The wire types are apart from `recheck::Row`, and every float is kept to
//! seven significant digits, so that a judgement made on the device machine and the same
//! judgement made again here compare equal even where their maths libraries differ in the
//! last bit.

use std::collections::BTreeMap;

use comfy_table::{Table, presets};
use serde::{Deserialize, Serialize};

use crate::article::numbers::Unit;
use crate::recheck::{CONFIDENCE, DEFAULT_MARGIN, Judgement, Method, Mode, Report, Row, RowKind, RunInfo};

/// Bumped whenever a field changes meaning or disappears. Version 2 added the hierarchical
/// rule's fields (`family_alpha`, `family_method`, `calibration`, and per row `level`,
/// `adjusted_interval`, `runs`); a table judged by the rounds-only rule is still written as
/// version 1, field for field as it always was.
pub(crate) const SCHEMA_VERSION: u32 = 2;

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
    /// `recheck --fresh` of a run that stores its own judgement: how this one compares with it.
    /// Never part of a stored `recheck.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored: Option<WireStored>,
}

/// How a judgement compares with the one a run stores ([`crate::recheck::StoredComparison`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireStored {
    /// The stored table, root-relative.
    pub path: String,
    /// Stored rows judged again: those the registries still hold, against the same accepted runs.
    pub compared: usize,
    /// Rows judged differently, as `claim #check what: stored → now`.
    pub differing: Vec<String>,
    pub only_stored: usize,
    pub only_now: usize,
    /// Rows that reproduce their own numbers but were tested at another Holm level, and of them
    /// how many reached another outcome there.
    pub other_level: usize,
    pub other_level_outcome: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRule {
    pub resampled: String,
    pub confidence: f64,
    pub default_margin: f64,
    pub seed: u64,
    pub replicates: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family_alpha: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family_method: Option<String>,
    /// The calibration one-run sides were widened by, root-relative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<String>,
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
    /// The Holm level the row's claim was tested at, one-sided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
    /// The interval with `level` in each tail: the one that decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjusted_interval: Option<[Option<f64>; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<WireRuns>,
}

/// Runs on each side of a row and the widening of a one-run side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRuns {
    pub accepted: usize,
    pub fresh: usize,
    /// σ of ln value a one-run side was widened by (0 for none).
    pub widened_by: Option<f64>,
    pub default_spread: bool,
}

/// A float to seven significant digits; `None` for one JSON cannot hold.
pub(crate) fn sig(v: f64) -> Option<f64> {
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
        level: r.level.and_then(sig),
        adjusted_interval: r.adjusted.map(|(lo, hi)| [sig(lo), sig(hi)]),
        runs: r.runs.map(|u| WireRuns { accepted: u.accepted, fresh: u.fresh, widened_by: sig(u.widened_by), default_spread: u.default_spread }),
    }
}

/// The wire form of a report.
pub(crate) fn wire(report: &Report) -> WireRecheck {
    let mut counts = BTreeMap::new();
    for r in &report.rows {
        *counts.entry(r.outcome.name().to_string()).or_insert(0) += 1;
    }
    let hierarchical = report.method == Method::Hierarchical;
    WireRecheck {
        schema_version: if hierarchical { SCHEMA_VERSION } else { 1 },
        mode: match report.mode {
            Mode::Offline => "offline".into(),
            Mode::Fresh => "fresh".into(),
        },
        rule: WireRule {
            resampled: report.method.name().into(),
            confidence: CONFIDENCE,
            default_margin: DEFAULT_MARGIN,
            seed: report.seed,
            replicates: report.replicates,
            family_alpha: hierarchical.then_some(report.alpha),
            family_method: hierarchical.then(|| "Holm over every row's MATCH and MISMATCH hypotheses".to_string()),
            calibration: report.calibration.clone(),
        },
        accepted_runs: report.accepted.iter().map(run).collect(),
        fresh_run: report.fresh.as_ref().map(run),
        counts,
        not_rechecked: report.not_rechecked,
        rows: report.rows.iter().map(row).collect(),
        stored: None,
    }
}

/// The report as pretty JSON with a trailing newline.
pub(crate) fn json(report: &Report) -> String {
    pretty(&wire(report))
}

/// The report of `recheck --fresh RUN` as pretty JSON, with how it compares with the judgement
/// `RUN/recheck.json` stores: one document, so that stdout stays JSON a program can read.
pub(crate) fn json_with_stored(report: &Report, run: &str, c: &crate::recheck::StoredComparison) -> String {
    let mut w = wire(report);
    w.stored = Some(WireStored {
        path: format!("{run}/recheck.json"),
        compared: c.compared,
        differing: c.differing.clone(),
        only_stored: c.only_stored,
        only_now: c.only_now,
        other_level: c.other_level,
        other_level_outcome: c.other_level_outcome,
    });
    pretty(&w)
}

fn pretty(w: &WireRecheck) -> String {
    let mut s = serde_json::to_string_pretty(w).expect("wire types always serialise");
    s.push('\n');
    s
}

/// What `recheck --fresh` says about the judgement a run stores.
pub(crate) fn stored_text(run: &str, c: &crate::recheck::StoredComparison) -> String {
    let mut out = String::new();
    if c.compared == 0 && c.differing.is_empty() {
        // Every stored row left the registries, or judged other accepted runs: nothing was
        // reproduced, and saying "every row" of none would claim what was not shown.
        out.push_str(&format!("{run}/recheck.json: no stored row is judged again\n"));
    } else if c.differing.is_empty() && c.other_level == 0 {
        out.push_str(&format!("{run}/recheck.json: every stored row is reproduced exactly\n"));
    } else if c.differing.is_empty() {
        out.push_str(&format!("{run}/recheck.json: every stored row reproduces its own numbers\n"));
    } else {
        out.push_str(&format!("{run}/recheck.json: {} stored rows DIFFER from this judgement:\n", c.differing.len()));
        for d in &c.differing {
            out.push_str(&format!("  {d}\n"));
        }
    }
    if c.only_stored + c.only_now > 0 {
        out.push_str(&format!("{run}/recheck.json: {} rows only in the stored table, {} only in this one (the registries changed since the run)\n", c.only_stored, c.only_now));
    }
    if c.other_level > 0 {
        out.push_str(&format!(
            "{run}/recheck.json: {} rows reproduce their own numbers but were tested at another Holm level, since the table's rows changed ({} of them with another outcome)\n",
            c.other_level, c.other_level_outcome
        ));
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
    let hierarchical = report.method == Method::Hierarchical;
    let latencies: Vec<&Row> = report.rows.iter().filter(|r| r.kind == RowKind::Latency).collect();
    let orderings: Vec<&Row> = report.rows.iter().filter(|r| r.kind == RowKind::Ordering).collect();
    let pct = (CONFIDENCE * 100.0).round();
    let interval_header = format!("{pct} % interval");
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
                let mut header = vec!["Claim", "Quoted", "Accepted", "Fresh", "Ratio", interval_header.as_str()];
                if hierarchical {
                    header.extend(["Runs a/f, σ", "Level", "At level"]);
                }
                header.extend(["δ", "Outcome"]);
                t.set_header(header);
                for r in latencies {
                    let mut cells = vec![
                        id(r),
                        r.what.clone(),
                        value(r.accepted, r.unit.as_ref()),
                        value(r.fresh, r.unit.as_ref()),
                        r.ratio.map_or("—".into(), |x| format!("{x:.3}")),
                        span(r.interval),
                    ];
                    if hierarchical {
                        cells.extend([runs(r), level(r.level), span(r.adjusted)]);
                    }
                    cells.extend([r.bound.map_or("—".into(), |d| format!("{:.0} %", d * 100.0)), r.outcome.name().into()]);
                    t.add_row(cells);
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
        let mut header = match report.mode {
            Mode::Offline => vec!["Claim", "Ordering", "Slower ÷ faster", interval_header.as_str()],
            Mode::Fresh => vec!["Claim", "Ordering", "Accepted ratio", "Fresh ratio", interval_header.as_str()],
        };
        if hierarchical {
            header.extend(["Level", "At level"]);
        }
        header.push("Outcome");
        t.set_header(header);
        for r in orderings {
            let mut cells = vec![id(r), r.what.clone(), ratio(r.accepted)];
            if report.mode == Mode::Fresh {
                cells.push(ratio(r.fresh));
            }
            cells.push(span(r.interval));
            if hierarchical {
                cells.extend([level(r.level), span(r.adjusted)]);
            }
            cells.push(r.outcome.name().into());
            t.add_row(cells);
        }
        out.push_str(&format!("Orderings, judged inside the {judged}\n"));
        out.push_str(&t.to_string());
        out.push('\n');
    }
    let counts: Vec<String> =
        [Judgement::Match, Judgement::Mismatch, Judgement::Inconclusive, Judgement::Incomparable].iter().map(|j| format!("{} {}", report.count(*j), j.name())).collect();
    if hierarchical {
        let widened = match &report.calibration {
            Some(path) if report.mode == Mode::Fresh => {
                format!("; a one-run side widened by the σ between runs from {path} (σ marked * is the calibration's default for a configuration it did not measure)")
            }
            None if report.mode == Mode::Fresh => "; no calibration: one-run sides not widened".to_string(),
            _ => String::new(),
        };
        out.push_str(&format!(
            "recheck: {} rows ({}); hierarchical bootstrap (runs, then rounds within each run), {} resamples, seed {}; Holm over the table at {:.0} % family-wise, each row decided by its interval at its level{widened}; {} other checks not rechecked (not latencies or orderings, a spread (a standard deviation or a MAD, a `median-ci` interval, criterion's bounds, JMH's or asv's error, or a `mean-range`), a statistic with `outliers` dropped, a `utest` p-value and a `ttest` verdict among them, or an expression that reads `json-vars`, which no rerun reproduces; with another harness's output, a check whose file has no fresh counterpart)\n",
            report.rows.len(),
            counts.join(", "),
            report.replicates,
            report.seed,
            report.alpha * 100.0,
            report.not_rechecked
        ));
    } else {
        out.push_str(&format!(
            "recheck: {} rows ({}); bootstrap over rounds, {} resamples, seed {}; {} other checks not rechecked (not latencies or orderings, a spread (a standard deviation or a MAD, a `median-ci` interval, criterion's bounds, JMH's or asv's error, or a `mean-range`), a statistic with `outliers` dropped, a `utest` p-value and a `ttest` verdict among them, or an expression that reads `json-vars`, which no rerun reproduces; orderings this rule cannot judge: pooled over runs, or over another harness's records; with another harness's output, a check whose file has no fresh counterpart)\n",
            report.rows.len(),
            counts.join(", "),
            report.replicates,
            report.seed,
            report.not_rechecked
        ));
    }
    for r in report.rows.iter().filter(|r| matches!(r.outcome, Judgement::Mismatch)) {
        out.push_str(&format!("{} MISMATCH {}: {}\n", id(r), r.what, r.detail));
    }
    for r in report.rows.iter().filter(|r| matches!(r.outcome, Judgement::Incomparable)) {
        out.push_str(&format!("{} INCOMPARABLE {}: {}\n", id(r), r.what, r.detail));
    }
    out
}

/// "accepted runs / fresh runs" and the widening of a one-run side.
fn runs(r: &Row) -> String {
    match r.runs {
        Some(u) if u.widened_by > 0.0 => format!("{}/{} ±{:.1} %{}", u.accepted, u.fresh, u.widened_by * 100.0, if u.default_spread { "*" } else { "" }),
        Some(u) => format!("{}/{}", u.accepted, u.fresh),
        None => "—".into(),
    }
}

/// A one-sided level as a percentage with enough digits to tell small ones apart.
fn level(l: Option<f64>) -> String {
    match l {
        Some(l) if l >= 0.001 => format!("{:.2} %", l * 100.0),
        Some(l) => format!("{:.3} %", l * 100.0),
        None => "—".into(),
    }
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
