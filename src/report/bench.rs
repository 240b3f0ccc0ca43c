//! The side-by-side softmax benchmark table and its targets, as text. The rows and the
//! judgement of each target come from [`crate::commands::bench`]; this only lays them out.

use std::fmt::Write;

use crate::commands::bench::{BenchReport, Goal, Target};
use crate::recheck::Judgement;

/// The report as text.
pub(crate) fn render(report: &BenchReport) -> String {
    let mut out = match report.runs.as_slice() {
        [one] => format!("{one}: medians over its rounds\n"),
        runs => format!("{} runs pooled as replicates (each value the median of the runs' medians): {}\n", runs.len(), runs.join(", ")),
    };
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
    let count = |j: Judgement| report.targets.iter().filter(|t| t.outcome == j).count();
    let _ = writeln!(out, "{} MATCH, {} MISMATCH, {} INCONCLUSIVE", count(Judgement::Match), count(Judgement::Mismatch), count(Judgement::Inconclusive));
    out
}

/// One target's sentence: what it asks, the pooled value and its interval.
fn describe(t: &Target, runs: usize) -> String {
    let (lo, hi) = t.interval;
    let fewer = if t.runs < runs { format!(", in the {} runs that timed it", t.runs) } else { String::new() };
    match t.goal {
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
