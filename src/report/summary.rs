//! `audit --summary FILE`: a Markdown job summary (for `$GITHUB_STEP_SUMMARY`): the status, the
//! counts, the failing claims with expected against observed, what changed since the lock, and
//! every finding with its place, including those beyond the ten that GitHub annotates.

use std::fmt::Write;

use super::annotations::{self, Annotation};
use crate::checks::Outcome;
use crate::commands::audit::{ClaimStatus, Review};
use crate::status::Status;

/// The summary as Markdown.
pub(crate) fn render(review: &Review) -> String {
    let mut out = String::new();
    let verdict = match review.status() {
        Ok(Status::Clean) => "all claims hold",
        Ok(Status::NeedsAttention) => "needs attention",
        Err(_) => "input errors",
    };
    let _ = writeln!(out, "## claimcheck audit: {verdict}\n");
    for r in &review.registries {
        let shown = match &r.draft_of {
            Some(of) => format!("`{}` (draft of `{of}`)", r.manuscript),
            None => format!("`{}`", r.manuscript),
        };
        let _ = writeln!(out, "- {shown} against `{}`: SHA-256 `{}`", r.file, r.actual_sha256.as_deref().unwrap_or("unreadable"));
    }
    let checks: Vec<_> = review.claims().flat_map(|c| c.checks.iter()).collect();
    let count = |label: &str| checks.iter().filter(|c| c.outcome.label() == label).count();
    let unbound: usize = review.registries.iter().map(|r| r.unbound.len()).sum();
    let _ = writeln!(out, "\n| verdict | claims |\n|---|---:|");
    for (v, n) in review.counts() {
        let _ = writeln!(out, "| {v} | {n} |");
    }
    let _ = writeln!(
        out,
        "\n{} checks: {} passed, {} failed, {} skipped, {} errors; {unbound} unbound numbers.\n",
        checks.len(),
        count("pass"),
        count("fail"),
        count("skipped"),
        count("error")
    );

    let failing: Vec<String> = review
        .registries
        .iter()
        .flat_map(|r| r.claims.iter())
        .flat_map(|c| {
            c.checks.iter().filter_map(move |k| match &k.outcome {
                Outcome::Fail { expected, observed, detail } => {
                    let at = k.number_at.as_ref().map_or_else(String::new, |p| format!("{}:{}:{}", p.file, p.line, p.col));
                    Some(format!(
                        "| {} | {} | {} | {} | {} | {} |",
                        cell(&c.id),
                        cell(&k.kind.to_string()),
                        cell(&at),
                        cell(expected.as_deref().unwrap_or("")),
                        cell(observed.as_deref().unwrap_or("")),
                        cell(detail)
                    ))
                }
                _ => None,
            })
        })
        .collect();
    if !failing.is_empty() {
        let _ = writeln!(out, "### Failing checks\n\n| claim | check | where | expected | observed | detail |\n|---|---|---|---|---|---|");
        for row in failing {
            let _ = writeln!(out, "{row}");
        }
        out.push('\n');
    }
    let attention: Vec<_> = review.claims().filter(|c| !matches!(c.status(), ClaimStatus::Ok | ClaimStatus::OkWithSkips | ClaimStatus::Unchecked)).collect();
    if !attention.is_empty() {
        let _ = writeln!(out, "### Claims that need attention\n\n| claim | verdict | status | finding |\n|---|---|---|---|");
        for c in attention {
            let _ = writeln!(out, "| {} | {} | {} | {} |", cell(&c.id), c.verdict, c.status(), cell(&c.finding));
        }
        out.push('\n');
    }
    let all = annotations::annotations(review);
    if !all.is_empty() {
        let _ = writeln!(out, "### Every finding ({})\n\n| rule | level | where | message |\n|---|---|---|---|", all.len());
        for a in &all {
            let _ = writeln!(out, "| {} {} | {} | {} | {} |", a.rule.id(), a.rule.name(), a.level.name(), cell(&place(a)), cell(&a.message));
        }
    }
    out
}

fn place(a: &Annotation) -> String {
    match &a.at {
        Some(loc) => match loc.place {
            Some(r) => format!("{}:{}:{}", loc.file, r.line, r.col),
            None => loc.file.clone(),
        },
        None => String::new(),
    }
}

/// Text made safe for one cell of a Markdown table: pipes escaped, lines joined.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_their_table() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
    }

    #[test]
    fn a_review_without_registries_says_so_in_its_title() {
        let md = render(&Review { registries: vec![], diagnostics: vec![] });
        assert!(md.starts_with("## claimcheck audit: all claims hold"), "{md}");
    }
}
