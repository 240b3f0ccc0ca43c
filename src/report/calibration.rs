//! The calibration of runs of unchanged code for people (a table per configuration and the
//! rates the rule reached) and as the file the recheck reads (`evidence/calibration.json`,
//! whose wire type is [`crate::evidence::calibration::CalibrationFile`]).

use comfy_table::{Table, presets};

use crate::evidence::calibration::{CalibrationFile, Rates};

/// The file's text: pretty JSON with a trailing newline.
pub(crate) fn json(file: &CalibrationFile) -> String {
    let mut s = serde_json::to_string_pretty(file).expect("the calibration always serialises");
    s.push('\n');
    s
}

/// The table and the rates.
pub(crate) fn text(file: &CalibrationFile) -> String {
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED).force_no_tty();
    t.set_header([
        "Suite",
        "Case",
        "Variant",
        "Mode",
        "Field",
        "Runs",
        "Orders",
        "CV",
        "σ between",
        "σ within",
        "Pairs",
        "False MISMATCH",
        "False INCONCL.",
        "90 % excl. 1",
        "Proposed δ",
    ]);
    for c in &file.configurations {
        t.add_row([
            c.suite.clone(),
            c.case.clone(),
            c.variant.clone(),
            c.mode.clone(),
            c.field.clone(),
            c.medians.len().to_string(),
            c.orders.map_or_else(|| "-".to_string(), |n| n.to_string()),
            pct(c.cv_between),
            pct(c.between),
            pct(c.within),
            c.pairs.to_string(),
            pct(c.false_mismatch),
            pct(c.false_inconclusive),
            pct(c.excluding_one),
            pct(c.proposed_margin),
        ]);
    }
    let mut out = format!("calibration of {} runs of unchanged code: {}\n", file.runs.len(), file.runs.join(", "));
    out.push_str(&t.to_string());
    out.push('\n');
    let nominal = file.rule.nominal_excluding_one;
    out.push_str(&rates_line("in-sample (σ from every run)", &file.in_sample, nominal));
    if let Some(h) = &file.held_out {
        out.push_str(&rates_line("held out (σ without the pair judged)", h, nominal));
    }
    out.push_str(&format!(
        "rule: margin {:.0} %, Holm at {:.0} % family-wise per pair of runs and field, {} resamples, seed {}; proposed δ: the smallest margin at which {:.0} % of A/A pairs MATCH; default σ for a configuration not calibrated: {}\n",
        file.rule.margin * 100.0,
        file.rule.family_alpha * 100.0,
        file.rule.replicates,
        file.rule.seed,
        file.rule.target_match_rate * 100.0,
        pct(file.default_between)
    ));
    if file.configurations.iter().any(|c| c.orders_shared()) {
        out.push_str(
            "orders: runs with one seed and the same entries were timed in the same shuffled order; where a configuration's runs hold fewer orders than runs, σ between them leaves out what a place in an order does to its samples (kernels/NOTES.md, version 17)\n",
        );
    }
    // The protocol each σ was measured under, which the recheck matches before using it.
    let mut protocols: std::collections::BTreeMap<_, usize> = std::collections::BTreeMap::new();
    for c in &file.configurations {
        *protocols.entry(c.sets()).or_default() += 1;
    }
    let counted: Vec<String> = protocols.iter().map(|(how, n)| format!("{} in {n}", how.map_or_else(|| "not recorded".to_string(), |s| s.shown()))).collect();
    out.push_str(&format!("buffer sets taken: {}; the recheck widens a one-run side by a configuration's σ only where its runs took the sets alike\n", counted.join(", ")));
    for e in &file.excluded {
        out.push_str(&format!("excluded: {e}\n"));
    }
    out
}

/// One line of rates, with the two targets of issue 13: at most 5 % MISMATCH, and the share of
/// 90 % intervals excluding 1 within 5 points of nominal.
fn rates_line(what: &str, r: &Rates, nominal: f64) -> String {
    let n = r.judgements.max(1) as f64;
    let (mismatch, excluding) = (r.mismatched as f64 / n, r.excluding_one as f64 / n);
    let met = |ok: bool| if ok { "met" } else { "NOT met" };
    format!(
        "{what}: {} A/A judgements, {} MATCH, {} MISMATCH ({}; target ≤ 5 %: {}), {} INCONCLUSIVE; 90 % intervals excluding 1: {} (nominal {}, ± 5 points: {})\n",
        r.judgements,
        r.matched,
        r.mismatched,
        pct(mismatch),
        met(mismatch <= 0.05),
        r.inconclusive,
        pct(excluding),
        pct(nominal),
        met((excluding - nominal).abs() <= 0.05)
    )
}

fn pct(v: f64) -> String {
    if v.is_finite() { format!("{:.1} %", v * 100.0) } else { "—".into() }
}
