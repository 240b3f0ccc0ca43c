//! The side-by-side softmax benchmark table and its targets, as text. The rows and the
//! judgement of each target come from [`crate::commands::bench`]; this only lays them out.

use std::fmt::Write;

use crate::commands::bench::BenchReport;

/// The report as text.
pub(crate) fn render(report: &BenchReport) -> String {
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
    let mut out = table.to_string();
    out.push_str("\n\nTargets:\n");
    for (text, ok) in &report.targets {
        let _ = writeln!(out, "  {} {text}", if *ok { "met " } else { "MISS" });
    }
    out
}
