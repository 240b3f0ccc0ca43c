//! The audit's findings as located annotations: one per thing that needs attention, each with
//! its rule (the finding kind), the article place of the number or sentence it is about, the
//! registry place of the check or claim, and a fingerprint that survives edits elsewhere in the
//! article. SARIF, GitHub workflow commands and the job summary lay these out; this module only
//! reads what the audit decided and never judges anything again.

use crate::checks::Outcome;
use crate::commands::audit::{Change, CheckReview, ClaimBinding, ClaimReview, Place, RegistryReview, Review};
use crate::hash::short;

/// The kinds of finding, one rule each. The ids are part of what users configure and what code
/// scanning tracks alerts by, so they never change once released; add a variant for a new kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Rule {
    CheckFailed,
    NumberChanged,
    SentenceEdited,
    ClaimLost,
    NotLocked,
    DeletedClaimSentence,
    UnboundNumber,
    ManuscriptHash,
    LockStale,
    InputError,
    ArticleNotRead,
    UnusedLabel,
}

/// How a finding is shown: as an error, which fails the audit, or as a warning, which the audit
/// reports and passes (an unbound number under `[policy] unbound = "warn"`, HTML it could not
/// read). The audit decides which; the renderers only lay it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Error,
    Warning,
}

impl Level {
    /// The name GitHub's workflow commands and SARIF give it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

impl Rule {
    /// Every rule, in the order SARIF lists them (its `ruleIndex` is the position here).
    pub(crate) const ALL: &'static [Rule] = &[
        Rule::CheckFailed,
        Rule::NumberChanged,
        Rule::SentenceEdited,
        Rule::ClaimLost,
        Rule::NotLocked,
        Rule::DeletedClaimSentence,
        Rule::UnboundNumber,
        Rule::ManuscriptHash,
        Rule::LockStale,
        Rule::InputError,
        Rule::ArticleNotRead,
        Rule::UnusedLabel,
    ];

    /// The stable rule id: `CC` and a number, as linters name their rules.
    pub(crate) fn id(self) -> &'static str {
        match self {
            Rule::CheckFailed => "CC001",
            Rule::NumberChanged => "CC002",
            Rule::SentenceEdited => "CC003",
            Rule::ClaimLost => "CC004",
            Rule::NotLocked => "CC005",
            Rule::DeletedClaimSentence => "CC006",
            Rule::UnboundNumber => "CC007",
            Rule::ManuscriptHash => "CC008",
            Rule::LockStale => "CC009",
            Rule::InputError => "CC010",
            Rule::ArticleNotRead => "CC011",
            Rule::UnusedLabel => "CC012",
        }
    }

    /// The level a finding of this rule has unless the audit says otherwise: only what the
    /// audit cannot fail on is a warning by default (an unbound number is an error unless the
    /// registry's policy makes it a warning).
    pub(crate) fn level(self) -> Level {
        match self {
            Rule::ArticleNotRead | Rule::UnusedLabel => Level::Warning,
            Rule::CheckFailed
            | Rule::NumberChanged
            | Rule::SentenceEdited
            | Rule::ClaimLost
            | Rule::NotLocked
            | Rule::DeletedClaimSentence
            | Rule::UnboundNumber
            | Rule::ManuscriptHash
            | Rule::LockStale
            | Rule::InputError => Level::Error,
        }
    }

    /// A readable name in kebab case.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Rule::CheckFailed => "check-failed",
            Rule::NumberChanged => "number-changed",
            Rule::SentenceEdited => "sentence-edited",
            Rule::ClaimLost => "claim-lost",
            Rule::NotLocked => "claim-not-locked",
            Rule::DeletedClaimSentence => "deleted-claim-sentence",
            Rule::UnboundNumber => "unbound-number",
            Rule::ManuscriptHash => "manuscript-hash",
            Rule::LockStale => "lock-stale",
            Rule::InputError => "input-error",
            Rule::ArticleNotRead => "article-not-read",
            Rule::UnusedLabel => "unused-label",
        }
    }

    /// One sentence: what the finding means.
    pub(crate) fn short(self) -> &'static str {
        match self {
            Rule::CheckFailed => "A check of a claim does not hold against the evidence.",
            Rule::NumberChanged => "A checked number of a claim's sentence differs from the number the registry audited.",
            Rule::SentenceEdited => "A claim's sentence reads differently from the sentence accepted in the lock.",
            Rule::ClaimLost => "A claim's accepted sentence was deleted or rewritten, and its quote binds no more.",
            Rule::NotLocked => "A claim was added to the registry after the lock was accepted.",
            Rule::DeletedClaimSentence => "A deleted sentence held claims.",
            Rule::UnboundNumber => "A number of the article that no check verifies and no label declares.",
            Rule::ManuscriptHash => "The manuscript's SHA-256 is not the one its registry was audited against.",
            Rule::LockStale => "The lock does not describe the registry as it is.",
            Rule::InputError => "The registry, the article or the evidence could not be read or bound.",
            Rule::ArticleNotRead => "Part of the article could not be read as written (HTML that is not well formed); the rest is audited.",
            Rule::UnusedLabel => "A label of the registry declares no number of the article: it exempts nothing now, and would exempt a number that came to read as it.",
        }
    }

    /// What to do about it.
    pub(crate) fn help(self) -> &'static str {
        match self {
            Rule::CheckFailed => "Correct the number in the article to what the evidence shows, or fix the check in the registry.",
            Rule::NumberChanged => "Restore the audited number, or change the registry's `number` after checking the new one against the evidence.",
            Rule::SentenceEdited => "Review the edit; run `claimcheck accept` after a clean audit to record it.",
            Rule::ClaimLost => "Restore the sentence, or update the claim's quote (or remove the claim) and accept again.",
            Rule::NotLocked => "Run `claimcheck accept` after a clean audit.",
            Rule::DeletedClaimSentence => "Restore the sentence, or remove its claims from the registry.",
            Rule::UnboundNumber => "Add a check that verifies the number, or declare it as a label with a reason.",
            Rule::ManuscriptHash => "Run `claimcheck accept` after a clean audit to record the manuscript's new SHA-256.",
            Rule::LockStale => "Run `claimcheck accept` after a clean audit.",
            Rule::InputError => "Fix the input at the place the message names.",
            Rule::ArticleNotRead => "Close or correct the HTML at the place the message names, so that its numbers are read as the page shows them.",
            Rule::UnusedLabel => "Remove the label, or write its number as the article now writes it.",
        }
    }
}

/// A place in a file: a region, or the whole file when `place` is `None`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Loc {
    pub file: String,
    pub place: Option<Region>,
}

/// A region: its start, and its end where it is known (exclusive, as SARIF's `endColumn`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Region {
    pub line: usize,
    pub col: usize,
    pub end: Option<(usize, usize)>,
}

impl From<&Place> for Region {
    fn from(p: &Place) -> Region {
        Region { line: p.line, col: p.col, end: Some((p.end_line, p.end_col)) }
    }
}

impl From<&Place> for Loc {
    /// The place in its own file: for the article's text, the article's file or the one it
    /// brings in that holds it.
    fn from(p: &Place) -> Loc {
        Loc { file: p.file.clone(), place: Some(p.into()) }
    }
}

/// One finding, located.
#[derive(Debug, Clone)]
pub(crate) struct Annotation {
    pub rule: Rule,
    pub level: Level,
    pub claim: Option<String>,
    pub message: String,
    /// Where it shows: the number or sentence in the article, or the file it is about.
    pub at: Option<Loc>,
    /// Other places that explain it, with what each is: the registry's check or claim.
    pub related: Vec<(Loc, String)>,
    /// What identifies the finding across commits: the claim id, the sentence's fingerprint and
    /// what in the sentence it is about, never a line number.
    pub fingerprint: String,
}

/// Every finding of the review, in registry order: the manuscript and lock first, then each
/// claim's findings in claim order, deleted claim sentences, unbound numbers, what of the
/// article could not be read, and last every input error.
pub(crate) fn annotations(review: &Review) -> Vec<Annotation> {
    let mut out = Vec::new();
    for r in &review.registries {
        registry_annotations(r, &mut out);
        article_warnings(r, &mut out);
        unused_labels(r, &mut out);
    }
    for d in review.errors() {
        let at = d.location.as_ref().map(|l| Loc { file: l.file.clone(), place: Some(Region { line: l.line, col: l.col, end: None }) });
        let mut message = d.message.clone();
        for note in &d.notes {
            message.push_str(&format!("; {note}"));
        }
        let key = format!("{}|{}", d.location.as_ref().map_or("", |l| l.file.as_str()), d.message);
        out.push(Annotation { rule: Rule::InputError, level: Level::Error, claim: None, message, at, related: vec![], fingerprint: fingerprint(&[&key]) });
    }
    out
}

fn registry_annotations(r: &RegistryReview, out: &mut Vec<Annotation>) {
    // A place in the article where one is known, else the manuscript as a whole.
    let article = |place: Option<Loc>| Some(place.unwrap_or_else(|| Loc { file: r.manuscript.clone(), place: None }));
    if let Some(actual) = &r.actual_sha256
        && *actual != r.recorded_sha256
    {
        out.push(Annotation {
            rule: Rule::ManuscriptHash,
            level: Level::Error,
            claim: None,
            message: format!("{}: SHA-256 {} differs from the {} recorded in {}", r.manuscript, short(actual), short(&r.recorded_sha256), r.file),
            at: Some(Loc::from(&r.sha256_at)),
            related: vec![(Loc { file: r.manuscript.clone(), place: None }, "the manuscript".into())],
            fingerprint: fingerprint(&[&r.file, "manuscript-sha256", &r.recorded_sha256]),
        });
    }
    if let Some(l) = &r.lock {
        for why in &l.stale {
            out.push(Annotation {
                rule: Rule::LockStale,
                level: Level::Error,
                claim: None,
                message: format!("{} is out of date: {why}", l.file),
                at: Some(Loc { file: l.file.clone(), place: None }),
                related: vec![],
                fingerprint: fingerprint(&[&l.file, why]),
            });
        }
    }
    for c in &r.claims {
        claim_annotations(r, c, out);
    }
    if let Some(l) = &r.lock {
        // A deleted sentence whose claims are all reported lost is not reported again.
        let reported = |id: &String| r.claims.iter().any(|c| c.id == *id && matches!(c.change, Some(Change::Lost { .. })));
        for d in l.deleted_claim_sentences.iter().filter(|d| !d.claims.iter().all(reported)) {
            out.push(Annotation {
                rule: Rule::DeletedClaimSentence,
                level: Level::Error,
                claim: d.claims.first().cloned(),
                message: format!("a deleted sentence ({}) held {}: {}", d.accepted_at, d.claims.join(", "), d.text),
                at: article(d.at.as_ref().map(point)),
                related: vec![],
                fingerprint: fingerprint(&[&d.claims.join(","), &crate::article::fingerprint(&d.text), "deleted"]),
            });
        }
    }
    for u in &r.unbound {
        let origin = match u.origin {
            Some("new") => " in a new sentence",
            Some("changed") => " in a changed sentence",
            _ => "",
        };
        let sentence = r.unbound_sentences.get(&u.sentence_index).map_or("", String::as_str);
        out.push(Annotation {
            rule: Rule::UnboundNumber,
            level: if r.unbound_warns { Level::Warning } else { Level::Error },
            claim: None,
            message: format!("unbound number `{}`{origin}: no check verifies it and no label declares it{}", u.number, super::table::names_hint(u)),
            at: Some(Loc::from(&u.at)),
            related: vec![],
            fingerprint: fingerprint(&[&crate::article::fingerprint(sentence), &u.number]),
        });
    }
}

/// What of the article could not be read as written, each a warning: the audit reports it and
/// passes, having audited everything it could read.
fn article_warnings(r: &RegistryReview, out: &mut Vec<Annotation>) {
    for w in &r.warnings {
        out.push(warning(Rule::ArticleNotRead, &w.file, Region { line: w.line, col: w.col, end: None }, &w.message));
    }
}

/// The registry's labels that declare no number, each a warning at its place in the registry.
fn unused_labels(r: &RegistryReview, out: &mut Vec<Annotation>) {
    for u in &r.unused_labels {
        out.push(warning(Rule::UnusedLabel, &r.file, (&u.at).into(), &u.message));
    }
}

/// A finding of `rule` that belongs to no claim, at `place` in `file`, told apart from others
/// of its file by its message.
fn warning(rule: Rule, file: &str, place: Region, message: &str) -> Annotation {
    Annotation {
        rule,
        level: rule.level(),
        claim: None,
        message: message.to_string(),
        at: Some(Loc { file: file.to_string(), place: Some(place) }),
        related: vec![],
        fingerprint: fingerprint(&[file, rule.name(), message]),
    }
}

fn claim_annotations(r: &RegistryReview, c: &ClaimReview, out: &mut Vec<Annotation>) {
    let quote_at = (Loc::from(&c.registry_at), format!("claim {} in the registry", c.id));
    let sentence = match &c.binding {
        ClaimBinding::Bound { sentence, .. } => Some(sentence),
        _ => None,
    };
    let sentence_at = sentence.map(|s| Loc { file: s.file.clone(), place: Some(Region { line: s.line, col: s.col, end: None }) });
    let sentence_fp = sentence.map_or("", |s| s.fingerprint.as_str());
    let mut push = |rule: Rule, message: String, at: Option<Loc>, related: Vec<(Loc, String)>, what: &str, fp: &str| {
        out.push(Annotation { rule, level: Level::Error, claim: Some(c.id.clone()), message, at, related, fingerprint: fingerprint(&[&c.id, fp, rule.id(), what]) });
    };
    match &c.change {
        Some(Change::Edited { diff, .. }) => {
            push(Rule::SentenceEdited, format!("{}: the claim's sentence was edited since the lock: {diff}", c.id), sentence_at.clone(), vec![quote_at.clone()], "", sentence_fp)
        }
        Some(Change::Lost { before, before_at, deleted, at, .. }) => {
            let how = if *deleted { "was deleted" } else { "was rewritten and no longer holds the quote" };
            let place = at.as_ref().map(point).unwrap_or_else(|| Loc { file: r.manuscript.clone(), place: None });
            push(
                Rule::ClaimLost,
                format!("{}: the sentence that held this claim ({before_at}) {how}: {before}", c.id),
                Some(place),
                vec![quote_at.clone()],
                "",
                &crate::article::fingerprint(before),
            )
        }
        Some(Change::NotLocked) => push(
            Rule::NotLocked,
            format!("{}: the claim was added to the registry after the lock was accepted", c.id),
            sentence_at.clone(),
            vec![quote_at.clone()],
            "",
            sentence_fp,
        ),
        Some(Change::NumberChanged { .. } | Change::Unchanged) | None => {}
    }
    let changed_checks = c.checks.iter().any(|k| k.number_now.is_some());
    if matches!(c.binding, ClaimBinding::Bound { numbers_changed: true, .. }) && !changed_checks {
        push(Rule::NumberChanged, format!("{}: a quoted number changed since the audit", c.id), sentence_at.clone(), vec![quote_at.clone()], "", sentence_fp);
    }
    for (i, k) in c.checks.iter().enumerate() {
        let rule = match (&k.outcome, &k.number_now) {
            (_, Some(_)) => Rule::NumberChanged,
            (Outcome::Fail { .. }, None) => Rule::CheckFailed,
            // An error is an input error, reported once with its own location.
            (Outcome::Pass { .. } | Outcome::Wrong { .. } | Outcome::Skipped { .. } | Outcome::Error(_), None) => continue,
        };
        let at = k.number_at.as_ref().map(Loc::from).or_else(|| sentence_at.clone());
        let check_at = (Loc::from(&k.registry_at), format!("check {} of claim {} ({})", i + 1, c.id, k.kind));
        let what = k.number.clone().unwrap_or_else(|| format!("#{}", i + 1));
        push(rule, check_message(c, i, k), at, vec![check_at, quote_at.clone()], &format!("{}|{what}", k.kind), sentence_fp);
    }
}

/// `F6 stat 163.49 µs: FAIL: audited 161.49 µs, draft 163.49 µs, evidence 161.49 µs (detail)`,
/// as the text report words it.
pub(crate) fn check_message(c: &ClaimReview, i: usize, k: &CheckReview) -> String {
    let number = k.number_now.as_ref().or(k.number.as_ref()).map_or(String::new(), |n| format!(" {n}"));
    let head = format!("{} check {} ({}{number})", c.id, i + 1, k.kind);
    match &k.outcome {
        Outcome::Fail { expected, observed, detail } => {
            let values = match (expected, observed, &k.number, &k.number_now) {
                (Some(e), Some(o), Some(was), Some(_)) => format!(": audited {was}, draft {e}, evidence {o}"),
                (Some(e), Some(o), _, _) => format!(": quoted {e}, evidence {o}"),
                _ => String::new(),
            };
            format!("{head}: FAIL{values} ({detail})")
        }
        Outcome::Pass { detail } => match (&k.number, &k.number_now) {
            (Some(was), Some(now)) => format!("{head}: the number changed from {was} to {now} ({detail})"),
            _ => format!("{head}: pass ({detail})"),
        },
        Outcome::Wrong { says, evidence, detail } => format!("{head}: wrong, as recorded: sentence says {says}; evidence says {evidence} ({detail})"),
        Outcome::Skipped { reason } => format!("{head}: skipped: {reason}"),
        Outcome::Error(d) => format!("{head}: error: {}", d.message),
    }
}

/// A zero-width region at a place, in its file.
fn point(p: &Place) -> Loc {
    Loc { file: p.file.clone(), place: Some(Region { line: p.line, col: p.col, end: None }) }
}

/// The first 32 hex digits of the SHA-256 of the parts joined: short enough to read, long
/// enough never to collide among one article's findings.
fn fingerprint(parts: &[&str]) -> String {
    crate::hash::sha256_hex(parts.join("\u{1f}").as_bytes())[..32].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_unique_and_stable() {
        let ids: Vec<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
        assert_eq!(ids, ["CC001", "CC002", "CC003", "CC004", "CC005", "CC006", "CC007", "CC008", "CC009", "CC010", "CC011", "CC012"]);
        let mut names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Rule::ALL.len());
    }

    #[test]
    fn a_clean_review_has_no_annotations() {
        assert!(annotations(&Review { registries: vec![], diagnostics: vec![] }).is_empty());
    }

    #[test]
    fn fingerprints_depend_on_every_part() {
        assert_ne!(fingerprint(&["a", "bc"]), fingerprint(&["ab", "c"]));
        assert_eq!(fingerprint(&["F6", "x"]).len(), 32);
    }
}
