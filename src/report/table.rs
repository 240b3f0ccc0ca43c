//! The verdict table and the list of mismatches, as text.

use std::fmt::Write;

use comfy_table::{ContentArrangement, Table, presets};

use crate::checks::Outcome;
use crate::commands::audit::{Change, ClaimBinding, Review};
use crate::hash::short;
use crate::status::Status;

/// The verdict table: ID, section, verdict, quote (shortened), checks passed/total, status;
/// then the counts line.
pub(crate) fn verdict_table(review: &Review) -> String {
    let mut table = Table::new();
    table.load_style(presets::UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Disabled).force_no_tty();
    table.set_header(["ID", "Section", "Verdict", "Quote", "Checks", "Status"]);
    for claim in review.claims() {
        table.add_row([
            claim.id.clone(),
            shorten(claim.section().rsplit(" › ").next().unwrap_or(""), 24),
            claim.verdict.to_string(),
            shorten(&claim.target(), 48),
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
pub(crate) fn counts_line(review: &Review) -> String {
    let counts = review.counts();
    let parts: Vec<String> = counts.iter().map(|(v, n)| format!("{v} {n}")).collect();
    if parts.is_empty() { "Counts: no claims.".into() } else { format!("Counts: {}.", parts.join(", ")) }
}

/// Everything that needs attention, after the table: manuscripts whose hash changed, what
/// changed against the lock, failing checks with their values, and unbound numbers.
pub(crate) fn findings(review: &Review) -> String {
    let mut out = String::new();
    for r in &review.registries {
        let shown = match &r.draft_of {
            Some(of) => format!("{} (draft of {of})", r.manuscript),
            None => r.manuscript.clone(),
        };
        match &r.actual_sha256 {
            Some(actual) if *actual != r.recorded_sha256 => {
                let _ = writeln!(
                    out,
                    "{shown}: SHA-256 {} differs from the {} recorded in {} (the registry was audited against another draft)",
                    short(actual),
                    short(&r.recorded_sha256),
                    r.file
                );
            }
            _ => {}
        }
        if let Some(l) = &r.lock {
            if l.changed + l.new + l.deleted > 0 {
                let _ = writeln!(
                    out,
                    "{shown} against {} (accepted at {}): {} sentences unchanged, {} changed, {} new, {} deleted",
                    l.file,
                    short(&l.accepted_sha256),
                    l.unchanged,
                    l.changed,
                    l.new,
                    l.deleted
                );
            }
            for why in &l.stale {
                let _ = writeln!(out, "{} is out of date: {why}; run `claimcheck accept` after a clean audit", l.file);
            }
        }
        for claim in &r.claims {
            // The file that holds the sentence: the article's, or one it brings in.
            let (file, line) = match &claim.binding {
                ClaimBinding::Bound { sentence, .. } => (sentence.file.as_str(), sentence.line),
                _ => (r.manuscript.as_str(), 0),
            };
            match (&claim.change, &claim.binding) {
                (Some(Change::Edited { before, diff }), _) => {
                    let _ = writeln!(
                        out,
                        "{} edited ({file}:{line}): the quote still binds, but the sentence reads differently:\n    was: {before}\n    now: {diff}",
                        claim.id
                    );
                }
                (Some(Change::NumberChanged { diff, .. }), _) => {
                    let _ = writeln!(out, "{} number changed ({file}:{line}): {diff}", claim.id);
                }
                (Some(Change::Lost { before, before_at, deleted, nearest, diff, .. }), _) => {
                    let how = if *deleted { "was deleted" } else { "was rewritten and no longer holds the quote" };
                    let _ = writeln!(out, "{} lost: the sentence that held it ({before_at}) {how}:\n    was: {before}", claim.id);
                    if let (Some((s, ratio)), Some(diff)) = (nearest, diff) {
                        let _ = writeln!(out, "    most similar sentence now ({:.0} % alike), {}:{}: {}\n    diff: {diff}", ratio * 100.0, s.file, s.line, s.text);
                    }
                }
                (_, ClaimBinding::Bound { numbers_changed: true, .. }) => {
                    let _ = writeln!(out, "{} ({file}:{line}): a quoted number changed since the audit", claim.id);
                }
                _ => {}
            }
            for check in &claim.checks {
                let number = match (&check.number, &check.number_now) {
                    (Some(_), Some(now)) => format!(" {now}"),
                    (Some(n), None) => format!(" {n}"),
                    _ => String::new(),
                };
                match &check.outcome {
                    Outcome::Fail { expected, observed, detail } => {
                        let _ = write!(out, "{} {}{number}: FAIL", claim.id, check.kind);
                        match (expected, observed, &check.number, &check.number_now) {
                            (Some(e), Some(o), Some(was), Some(_)) => {
                                let _ = write!(out, ": audited {was}, draft {e}, evidence {o}");
                            }
                            (Some(e), Some(o), _, _) => {
                                let _ = write!(out, ": quoted {e}, evidence {o}");
                            }
                            _ => {}
                        }
                        let _ = writeln!(out, " ({detail})");
                    }
                    Outcome::Skipped { reason } => {
                        let _ = writeln!(out, "{} {}{number}: skipped: {reason}", claim.id, check.kind);
                    }
                    Outcome::Wrong { says, evidence, detail } => {
                        let _ = writeln!(out, "{} {}{number}: wrong, as recorded: sentence says {says}; evidence says {evidence} ({detail})", claim.id, check.kind);
                    }
                    Outcome::Pass { .. } | Outcome::Error(_) => {}
                }
            }
        }
        if let Some(l) = &r.lock {
            // A deleted sentence whose claims are all reported lost above is not repeated.
            let reported = |id: &String| r.claims.iter().any(|c| c.id == *id && matches!(c.change, Some(Change::Lost { .. })));
            for d in l.deleted_claim_sentences.iter().filter(|d| !d.claims.iter().all(reported)) {
                let _ = writeln!(out, "deleted sentence ({}) held {}: {}", d.accepted_at, d.claims.join(", "), d.text);
            }
        }
        for i in &r.inputs {
            let _ = writeln!(out, "{} {}: bound as an input of its arith check", i.claim, i.number);
        }
        for (what, n) in &r.ignored {
            let _ = writeln!(out, "{}: {what} is not audited ([[ignore]]): {n} numbers not checked", r.manuscript);
        }
        for w in &r.warnings {
            let _ = writeln!(out, "{}:{}:{}: warning: {}", w.file, w.line, w.col, w.message);
        }
        for u in &r.unused_labels {
            let _ = writeln!(out, "{}:{}:{}: warning: {}", r.file, u.at.line, u.at.col, u.message);
        }
        for (k, u) in r.unbound.iter().enumerate() {
            let origin = match u.origin {
                Some("new") => " in a new sentence",
                Some("changed") => " in a changed sentence",
                _ => "",
            };
            let warns = if r.unbound_warns { " (a warning: the registry's policy is unbound = \"warn\")" } else { "" };
            let _ = writeln!(
                out,
                "{}:{}:{}: unbound number `{}`{origin}: no check verifies it and no label declares it{}{warns}",
                u.at.file,
                u.line,
                u.col,
                u.number,
                names_hint(u)
            );
            // A new or changed sentence is shown once, after the last of its unbound numbers.
            let last_of_sentence = r.unbound.get(k + 1).is_none_or(|next| next.sentence_index != u.sentence_index);
            if last_of_sentence && u.origin.is_some_and(|o| o != "unchanged") {
                let _ = writeln!(out, "    {}", r.unbound_sentences.get(&u.sentence_index).map_or("", String::as_str));
            }
        }
    }
    out
}

/// The table, the findings and a closing summary line.
pub(crate) fn audit_text(review: &Review) -> String {
    if review.registries.is_empty() {
        return String::new();
    }
    let mut out = verdict_table(review);
    let findings = findings(review);
    if !findings.is_empty() {
        out.push('\n');
        out.push_str(&findings);
    }
    let checks: Vec<_> = review.claims().flat_map(|c| c.checks.iter()).collect();
    let count = |label: &str| checks.iter().filter(|c| c.outcome.label() == label).count();
    let unbound: usize = review.registries.iter().map(|r| r.unbound.len()).sum();
    // Input errors are printed by `status::finish` on standard error once the report is out,
    // so the line points below, where a terminal shows them.
    let ending = match review.status() {
        Ok(Status::Clean) => "all claims hold",
        Ok(Status::NeedsAttention) => "needs attention",
        Err(_) => "input errors (printed below, on standard error)",
    };
    out.push_str(&format!(
        "\naudit: {} in {}; {}: {} passed, {} failed, {} skipped, {}; {}; {ending}\n",
        counted(review.claims().count(), "claim", "claims"),
        counted(review.registries.len(), "registry", "registries"),
        counted(checks.len(), "check", "checks"),
        count("pass"),
        count("fail"),
        count("skipped"),
        counted(count("error"), "error", "errors"),
        counted(unbound, "unbound number", "unbound numbers"),
    ));
    out
}

/// `n` and the noun that agrees with it: `1 claim`, `2 claims`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

/// What the message about an unbound number adds where the number is part of a row's name or a
/// column's header: the claim that would name it, as the audit found it.
pub(crate) fn names_hint(u: &crate::commands::audit::Unbound) -> &'static str {
    match u.names {
        Some(crate::article::Names::Row) => "; it is part of its row's name (of every row its cell spans), which any claim bound by `cell` in such a row names",
        Some(crate::article::Names::Column) => "; it is part of a column's header, which any claim bound by `cell` under it names",
        None => "",
    }
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
    fn a_hash_with_multibyte_characters_is_shortened_on_a_character_boundary() {
        assert_eq!(short("é".repeat(64).as_str()), "é".repeat(12));
        assert_eq!(short("abc"), "abc");
    }

    #[test]
    fn counts_line_lists_verdicts_alphabetically() {
        let review = Review { registries: vec![], diagnostics: vec![] };
        assert_eq!(counts_line(&review), "Counts: no claims.");
    }
}
