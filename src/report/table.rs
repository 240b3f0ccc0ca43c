//! The verdict table and the list of mismatches, as text.

use std::fmt::Write;

use comfy_table::{ContentArrangement, Table, presets};

use crate::audit::{ClaimBinding, Review};
use crate::checks::Outcome;

/// The verdict table: ID, section, verdict, quote (shortened), checks passed/total, status;
/// then the counts line.
pub fn verdict_table(review: &Review) -> String {
    let mut table = Table::new();
    table.load_style(presets::UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Disabled).force_no_tty();
    table.set_header(["ID", "Section", "Verdict", "Quote", "Checks", "Status"]);
    for claim in review.claims() {
        table.add_row([
            claim.id.clone(),
            shorten(claim.section().rsplit(" › ").next().unwrap_or(""), 24),
            claim.verdict.to_string(),
            shorten(&claim.quote, 48),
            format!("{}/{}", claim.passed(), claim.checks.len()),
            claim.status().to_string(),
        ]);
    }
    let mut out = table.to_string();
    out.push('\n');
    out.push_str(&counts_line(review));
    out.push('\n');
    out
}

/// `Counts: correct 11, judgment 1, qualify 38, retain 21.`
pub fn counts_line(review: &Review) -> String {
    let counts = review.counts();
    let parts: Vec<String> = counts.iter().map(|(v, n)| format!("{v} {n}")).collect();
    if parts.is_empty() { "Counts: no claims.".into() } else { format!("Counts: {}.", parts.join(", ")) }
}

/// Everything that needs attention, after the table: manuscripts whose hash changed, failing
/// checks with expected and observed values, changed numbers, and unbound numbers.
pub fn findings(review: &Review) -> String {
    let mut out = String::new();
    for r in &review.registries {
        match &r.actual_sha256 {
            Some(actual) if *actual != r.recorded_sha256 => {
                let _ = writeln!(
                    out,
                    "{}: SHA-256 {} differs from the {} recorded in {} (the registry was audited against another draft)",
                    r.manuscript, short(actual), short(&r.recorded_sha256), r.file
                );
            }
            _ => {}
        }
        for claim in &r.claims {
            if let ClaimBinding::Bound { numbers_changed: true, sentence } = &claim.binding {
                let _ = writeln!(out, "{} ({}:{}): a quoted number changed since the audit", claim.id, r.manuscript, sentence.line);
            }
            for check in &claim.checks {
                let number = match (&check.number, &check.number_now) {
                    (Some(was), Some(now)) => format!(" {now} (registry: {was})"),
                    (Some(n), None) => format!(" {n}"),
                    _ => String::new(),
                };
                match &check.outcome {
                    Outcome::Fail { expected, observed, detail } => {
                        let _ = write!(out, "{} {}{number}: FAIL", claim.id, check.kind);
                        if let (Some(e), Some(o)) = (expected, observed) {
                            let _ = write!(out, ": quoted {e}, recomputed {o}");
                        }
                        let _ = writeln!(out, " ({detail})");
                    }
                    Outcome::Skipped { reason } => {
                        let _ = writeln!(out, "{} {}{number}: skipped: {reason}", claim.id, check.kind);
                    }
                    Outcome::Pass { .. } | Outcome::Error(_) => {}
                }
            }
        }
        for u in &r.unbound {
            let _ = writeln!(out, "{}:{}:{}: unbound number `{}`: no check verifies it and no label declares it", r.manuscript, u.line, u.col, u.number);
        }
    }
    out
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_keeps_short_text_and_marks_cuts() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdefgh", 5), "abcd…");
        assert_eq!(shorten("µµµµµµ", 3), "µµ…");
    }

    #[test]
    fn counts_line_lists_verdicts_alphabetically() {
        let review = Review { registries: vec![], diagnostics: vec![] };
        assert_eq!(counts_line(&review), "Counts: no claims.");
    }
}
