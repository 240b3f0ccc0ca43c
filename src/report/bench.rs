//! The side-by-side softmax benchmark table and its targets, as text for people and as
//! versioned JSON for programs (a CI job that gates on the targets). The rows and the
//! judgement of each target come from [`crate::commands::bench`]; this only lays them out. The
//! wire types are apart from the internal ones, and floats keep seven significant digits, as
//! in `recheck.json`.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::recheck::sig;
use crate::commands::bench::{BenchReport, Goal, Orders, Row, Target};
use crate::recheck::family::FAMILY_ALPHA;
use crate::recheck::{Judgement, Method};

/// Bumped whenever a field changes meaning or disappears.
pub(crate) const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireBenchReport {
    pub schema_version: u32,
    /// The runs pooled as replicates, in the order given.
    pub runs: Vec<String>,
    pub rule: WireBenchRule,
    /// How many targets are MATCH, MISMATCH and INCONCLUSIVE.
    pub counts: BTreeMap<String, usize>,
    /// Whether every target is a MATCH (the command's exit status 0).
    pub all_met: bool,
    pub rows: Vec<WireBenchRow>,
    pub targets: Vec<WireTarget>,
    /// With `--candidate`, each candidate's comparisons (goals as in `targets`), judged as a
    /// family of their own; they do not count in `counts` or `all_met`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<WireTarget>,
    /// With `--with-same-code`, the other runs of the folder not pooled and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<WireLeftOut>,
    /// Where several runs are pooled: how many shuffled orders they timed each shape in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<WireOrders>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireOrders {
    pub case: String,
    /// Distinct orders of ours, and of the peers'.
    pub ours: usize,
    pub peers: usize,
    /// The pooled runs that time the shape, and those of them that timed peers: where a count
    /// of orders is below its count of runs, some runs shared an order.
    pub runs: usize,
    pub peer_runs: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireLeftOut {
    pub run: String,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireBenchRule {
    pub resampled: String,
    pub family_alpha: f64,
    pub family_method: String,
    pub seed: u64,
    /// Bootstrap replicates a target; candidates draw at least as many, more where their own
    /// family's Holm levels need them.
    pub replicates: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireBenchRow {
    pub case: String,
    pub variant: String,
    pub median_us: Option<f64>,
    /// One read and one write of the shape, over the median.
    pub gb_per_s: Option<f64>,
    /// The best copy's median over this one; `None` where the run timed no copy.
    pub fraction_of_copy: Option<f64>,
    /// The best peer's median over this one, for `fused` and `fused-rms`.
    pub best_peer_over_this: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireTarget {
    pub case: String,
    /// `copy_share`: q = best copy ÷ variant; `faster`: q = peer ÷ variant; `near`: q = fused ÷
    /// fused-rms. Each asks q > `bound`.
    pub goal: String,
    pub variant: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<String>,
    pub bound: Option<f64>,
    pub value: Option<f64>,
    /// The interval at the level Holm's procedure compared this target with; `None` where a
    /// replicate had no finite value.
    pub interval: Option<[f64; 2]>,
    pub outcome: String,
    /// How many of the runs timed every variant the target needs.
    pub runs: usize,
}

/// The report as pretty JSON with a trailing newline.
pub(crate) fn json(report: &BenchReport) -> String {
    let mut s = serde_json::to_string_pretty(&wire(report)).expect("wire types always serialise");
    s.push('\n');
    s
}

fn wire(report: &BenchReport) -> WireBenchReport {
    let mut counts = BTreeMap::new();
    for j in [Judgement::Match, Judgement::Mismatch, Judgement::Inconclusive] {
        counts.insert(j.name().to_string(), report.targets.iter().filter(|t| t.outcome == j).count());
    }
    WireBenchReport {
        schema_version: SCHEMA_VERSION,
        runs: report.runs.clone(),
        rule: WireBenchRule {
            resampled: Method::Hierarchical.name().into(),
            family_alpha: FAMILY_ALPHA,
            family_method: "holm".into(),
            seed: report.seed,
            replicates: report.replicates,
        },
        counts,
        all_met: report.all_met(),
        rows: report.rows.iter().map(wire_row).collect(),
        targets: report.targets.iter().map(wire_target).collect(),
        candidates: report.candidates.iter().map(wire_target).collect(),
        left_out: report.left_out.iter().map(|(run, why)| WireLeftOut { run: run.clone(), why: why.clone() }).collect(),
        orders: report.orders.iter().map(|o| WireOrders { case: o.case.clone(), ours: o.ours, peers: o.peers, runs: o.runs, peer_runs: o.peer_runs }).collect(),
    }
}

fn wire_row(r: &Row) -> WireBenchRow {
    WireBenchRow {
        case: r.case.clone(),
        variant: r.variant.clone(),
        median_us: sig(r.median_us),
        gb_per_s: sig(r.gb_per_s),
        fraction_of_copy: sig(r.fraction_of_copy),
        best_peer_over_this: r.speedup_over_best_peer.and_then(sig),
    }
}

fn wire_target(t: &Target) -> WireTarget {
    let (goal, variant, peer) = match &t.goal {
        Goal::CopyShare { variant, .. } => ("copy_share", variant.as_str(), None),
        Goal::Faster { variant, peer } => ("faster", variant.as_str(), Some(peer.clone())),
        Goal::Near { .. } => ("near", "fused-rms", None),
    };
    let interval = match (sig(t.interval.0), sig(t.interval.1)) {
        (Some(lo), Some(hi)) => Some([lo, hi]),
        _ => None,
    };
    WireTarget {
        case: t.case.clone(),
        goal: goal.into(),
        variant: variant.into(),
        peer,
        bound: sig(t.goal.bound()),
        value: sig(t.value),
        interval,
        outcome: t.outcome.name().into(),
        runs: t.runs,
    }
}

/// The report as text.
pub(crate) fn render(report: &BenchReport) -> String {
    let mut out = match report.runs.as_slice() {
        [one] => format!("{one}: medians over its rounds\n"),
        runs => format!("{} runs pooled as replicates (each value the median of the runs' medians): {}\n", runs.len(), runs.join(", ")),
    };
    if !report.orders.is_empty() {
        let shapes: Vec<String> = report.orders.iter().map(|o| format!("{} {}", o.case, o.ours)).collect();
        let peers = report.orders.iter().map(|o| o.peers).max().unwrap_or(0);
        let _ = write!(out, "Shuffled orders among them: ours {}; the peers' {peers}.", shapes.join(", "));
        if report.orders.iter().any(Orders::shared) {
            out.push_str(
                " Runs of one seed and the same entries ran them in the same order, so what a position in it does to its sample is repeated in each, not averaged (kernels/NOTES.md, version 17).",
            );
        }
        out.push('\n');
    }
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED).force_no_tty();
    table.set_header(["shape", "variant", "median µs", "GB/s (1 read + 1 write)", "of best copy", "best peer ÷ this"]);
    for r in &report.rows {
        table.add_row([
            r.case.clone(),
            r.variant.clone(),
            format!("{:.2}", r.median_us),
            format!("{:.0}", r.gb_per_s),
            if r.fraction_of_copy.is_nan() { "-".into() } else { format!("{:.1} %", 100.0 * r.fraction_of_copy) },
            r.speedup_over_best_peer.map_or("-".into(), |s| format!("{s:.2}×")),
        ]);
    }
    out.push_str(&table.to_string());
    out.push_str(
        "\n\nTargets, judged by the recheck's ordering rule: rounds resampled within each run and runs \
         resampled; Holm's procedure over this list at 5 %, each interval at the level its target \
         faced (the procedure stops at its first failure, so an INCONCLUSIVE interval may clear the \
         bound). MATCH: shown to hold; MISMATCH: shown not to; INCONCLUSIVE: not shown either way.\n",
    );
    let width = report.targets.iter().map(|t| t.outcome.name().len()).max().unwrap_or(0);
    for t in &report.targets {
        let _ = writeln!(out, "  {:width$} {}", t.outcome.name(), describe(t, report.runs.len()));
    }
    let count = |list: &[Target], j: Judgement| list.iter().filter(|t| t.outcome == j).count();
    let counts =
        |list: &[Target]| format!("{} MATCH, {} MISMATCH, {} INCONCLUSIVE", count(list, Judgement::Match), count(list, Judgement::Mismatch), count(list, Judgement::Inconclusive));
    let _ = writeln!(out, "{}", counts(&report.targets));
    if !report.candidates.is_empty() {
        out.push_str(
            "\nCandidates, judged by the same rule as a family of their own (Holm's procedure over this \
             list at 5 %; the targets above are judged without them): faster than the dispatched form, \
             and the copy share of the shape's target.\n",
        );
        let width = report.candidates.iter().map(|t| t.outcome.name().len()).max().unwrap_or(0);
        for t in &report.candidates {
            let _ = writeln!(out, "  {:width$} {}", t.outcome.name(), describe(t, report.runs.len()));
        }
        let _ = writeln!(out, "{}", counts(&report.candidates));
    }
    if !report.left_out.is_empty() {
        let _ = writeln!(out, "\n{} other runs of the folder left out of the pool:", report.left_out.len());
        for (run, why) in &report.left_out {
            let _ = writeln!(out, "  {run}: {why}");
        }
    }
    out
}

/// One target's sentence: what it asks, the pooled value and its interval.
fn describe(t: &Target, runs: usize) -> String {
    let (lo, hi) = t.interval;
    let fewer = if t.runs < runs { format!(", in the {} runs that timed it", t.runs) } else { String::new() };
    match &t.goal {
        Goal::CopyShare { variant, share } => {
            format!("{}: {variant} ≥ {:.0} % of copy bandwidth ({:.1} %, interval {:.1}–{:.1} %{fewer})", t.case, 100.0 * share, 100.0 * t.value, 100.0 * lo, 100.0 * hi)
        }
        Goal::Faster { variant, peer } => format!("{}: {variant} faster than {peer} ({peer} ÷ {variant} {:.3}, interval {lo:.3}–{hi:.3}{fewer})", t.case, t.value),
        // q is fused ÷ fused-rms; the sentence gives how much slower the RMS-scaled one is.
        Goal::Near { slack } => {
            let slower = |q: f64| 100.0 * (1.0 / q - 1.0);
            format!("{}: fused-rms within {:.0} % of fused ({:+.1} %, interval {:+.1} to {:+.1} %{fewer})", t.case, 100.0 * slack, slower(t.value), slower(hi), slower(lo))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> BenchReport {
        let target = |goal, interval, outcome| Target { case: "8x262144".into(), goal, value: 0.7, interval, outcome, runs: 2 };
        BenchReport {
            runs: vec!["evidence/runs/a".into(), "evidence/runs/b".into()],
            replicates: 10_000,
            seed: 7,
            rows: vec![Row {
                case: "8x262144".into(),
                variant: "fused".into(),
                median_us: 8.123456789,
                gb_per_s: 2065.0,
                fraction_of_copy: f64::NAN,
                speedup_over_best_peer: Some(5.5),
            }],
            targets: vec![
                target(Goal::copy_share("fused", 0.8), (0.69, 0.75), Judgement::Mismatch),
                target(Goal::faster("fused", "torch"), (0.0, f64::INFINITY), Judgement::Inconclusive),
                target(Goal::Near { slack: 0.1 }, (0.88, 0.93), Judgement::Inconclusive),
            ],
            candidates: vec![target(Goal::faster("x-slot-8x256", "fused"), (1.01, 1.03), Judgement::Match)],
            left_out: vec![("evidence/runs/c".into(), "marked rejected".into())],
            orders: vec![Orders { case: "8x262144".into(), ours: 2, peers: 1, runs: 2, peer_runs: 2 }],
        }
    }

    #[test]
    fn the_json_names_every_target_and_keeps_what_json_can_hold() {
        let text = json(&report());
        let back: WireBenchReport = serde_json::from_str(&text).unwrap();
        assert_eq!(back, wire(&report()), "the file reads back as what was written");
        assert_eq!(back.schema_version, SCHEMA_VERSION);
        assert_eq!((back.rule.seed, back.rule.replicates, back.rule.family_method.as_str()), (7, 10_000, "holm"));
        assert_eq!(back.counts, BTreeMap::from([("MATCH".into(), 0), ("MISMATCH".into(), 1), ("INCONCLUSIVE".into(), 2)]));
        assert!(!back.all_met);
        let row = &back.rows[0];
        assert_eq!((row.median_us, row.fraction_of_copy, row.best_peer_over_this), (Some(8.123457), None, Some(5.5)), "seven digits, and no NaN");
        let [copy, faster, near] = &back.targets[..] else { panic!("three targets: {:?}", back.targets) };
        assert_eq!((copy.goal.as_str(), copy.variant.as_str(), copy.peer.as_deref(), copy.bound, copy.interval), ("copy_share", "fused", None, Some(0.8), Some([0.69, 0.75])));
        assert_eq!((faster.goal.as_str(), faster.peer.as_deref(), faster.bound, faster.interval), ("faster", Some("torch"), Some(1.0), None), "an unbounded interval is null");
        assert_eq!((near.goal.as_str(), near.variant.as_str(), near.bound), ("near", "fused-rms", Some(0.9090909)));
        assert_eq!(near.outcome, "INCONCLUSIVE");
        assert!(text.ends_with("}\n") && !text.contains("NaN") && !text.contains("inf"));
        assert_eq!(back.left_out, [WireLeftOut { run: "evidence/runs/c".into(), why: "marked rejected".into() }]);
        assert!(render(&report()).ends_with("1 other runs of the folder left out of the pool:\n  evidence/runs/c: marked rejected\n"));
        // A candidate is listed apart and counts in neither the counts nor `all_met`.
        let [cand] = &back.candidates[..] else { panic!("one candidate: {:?}", back.candidates) };
        assert_eq!((cand.goal.as_str(), cand.variant.as_str(), cand.peer.as_deref(), cand.outcome.as_str()), ("faster", "x-slot-8x256", Some("fused"), "MATCH"));
        let text = render(&report());
        let (targets, candidates) = text.split_once("\nCandidates, judged by the same rule").expect("a candidates section");
        assert!(targets.ends_with("0 MATCH, 1 MISMATCH, 2 INCONCLUSIVE\n"), "{targets}");
        assert!(
            candidates.contains("\n  MATCH 8x262144: x-slot-8x256 faster than fused (fused ÷ x-slot-8x256 0.700, interval 1.010–1.030)\n1 MATCH, 0 MISMATCH, 0 INCONCLUSIVE\n"),
            "{candidates}"
        );
        // Without candidates the JSON has no such field, as before they existed.
        let plain = BenchReport { candidates: Vec::new(), ..report() };
        assert!(!json(&plain).contains("\"candidates\"") && !render(&plain).contains("Candidates"));
        // The orders the pool holds are said in both forms, and not where nothing was pooled.
        assert_eq!(back.orders, [WireOrders { case: "8x262144".into(), ours: 2, peers: 1, runs: 2, peer_runs: 2 }]);
        assert!(render(&report()).contains("\nShuffled orders among them: ours 8x262144 2; the peers' 1. Runs of one seed"), "{}", render(&report()));
        let apart = BenchReport { orders: vec![Orders { case: "8x262144".into(), ours: 2, peers: 2, runs: 2, peer_runs: 2 }], ..report() };
        assert!(render(&apart).contains("\nShuffled orders among them: ours 8x262144 2; the peers' 2.\n"), "{}", render(&apart));
        let single = BenchReport { orders: Vec::new(), ..report() };
        assert!(!json(&single).contains("\"orders\"") && !render(&single).contains("Shuffled orders"));
    }
}
