//! The audit: registries → articles → bindings → checks → a review. This module owns the
//! order of those steps and what makes an audit pass; it never prints (renderers do) and never
//! writes a file.
//!
//! Exit status: 2 when any input could not be read or bound (a diagnostic), else 1 when any
//! check fails, a quote's numbers changed, a number is unbound, an article's SHA-256 is not
//! the one its registry was audited against, or — where the registry has a lock — a claim's
//! sentence was edited or deleted, a claim is not in the lock, or the lock is out of date;
//! else 0.
//!
//! With a lock (`claims/<name>.lock`, see [`crate::registry::lock`]) a quote that no longer binds because
//! its audited sentence was deleted or rewritten is a change of the manuscript (exit 1, shown
//! with the most similar sentence and a word diff). Without one, claimcheck cannot tell a
//! deleted sentence from a mistyped quote, and reports it at the quote (exit 2).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::article::Article;
use crate::article::numbers::{self, Number};
use crate::checks::{self, Context, Kind, KindName, Outcome, arith};
use crate::diagnostic::Diagnostic;
use crate::evidence::run;
use crate::evidence::store::Evidence;
use crate::registry::binding::{self, Binding};
use crate::registry::lock;
use crate::registry::{self, Registry, TableRef, UnboundPolicy, Verdict};
use crate::status::{Failure, Status};
use crate::workspace::{Loaded, Workspace};

/// The result of an audit, for renderers.
#[derive(Debug, Clone)]
pub(crate) struct Review {
    pub registries: Vec<RegistryReview>,
    /// Problems with the input, each located.
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone)]
pub(crate) struct RegistryReview {
    pub file: String,
    /// The file audited: the manuscript, or the draft given in its place.
    pub manuscript: String,
    /// With `--draft`, the registry's own manuscript path that the draft stands in for.
    pub draft_of: Option<String>,
    /// The comparison with the registry's lock, where it has one.
    pub lock: Option<LockReview>,
    pub recorded_sha256: String,
    /// The article's SHA-256 now, where it could be read.
    pub actual_sha256: Option<String>,
    pub claims: Vec<ClaimReview>,
    pub unbound: Vec<Unbound>,
    /// The text of each sentence that holds an unbound number, once, by sentence index: the
    /// numbers refer to it rather than each carrying a copy, which for a long sentence with
    /// many numbers would cost the sentence's length times their count.
    pub unbound_sentences: BTreeMap<usize, String>,
    /// Whether unbound numbers only warn (`[policy] unbound = "warn"`).
    pub unbound_warns: bool,
    /// Numbers in sections the registry ignores (`[[ignore]]`), by section.
    pub ignored: BTreeMap<String, usize>,
    /// What of the article could not be read as written (HTML that is not well formed), each
    /// located: reported, while everything that could be read is audited as usual.
    pub warnings: Vec<crate::article::Warning>,
    /// Labels of the registry that declare no number of the article, each at its place in the
    /// registry: reported as warnings, since such a label exempts nothing today and would
    /// silently exempt a number that came to read as it.
    pub unused_labels: Vec<UnusedLabel>,
    /// Numbers bound as the literal operands of a passing `arith` check of their claim.
    pub inputs: Vec<Input>,
    pub sources: Vec<SourceReview>,
    /// Where the registry records the manuscript's SHA-256, for annotations on a changed hash.
    pub sha256_at: Place,
    /// Against the lock: the article's sentences that are new or changed, in article order,
    /// with the origin's name; empty without a lock.
    pub sentence_changes: Vec<(SentenceRef, &'static str)>,
}

/// A span of a file as people count it: 1-based line and column (in characters) of its start,
/// and the line and column just past its end, as SARIF's `endColumn` and GitHub's annotations
/// read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    /// The file: the registry, the article, or a file the article brings in.
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub end_line: usize,
    pub end_col: usize,
    /// The byte span in the file, for renderers that mark the text itself.
    pub span: (usize, usize),
}

impl Place {
    /// The places of many byte spans of one text, found in one sweep of it: resolving each span
    /// on its own would walk a long article once per number.
    pub(crate) fn of_spans(file: &str, source: &str, spans: &[Range<usize>]) -> Vec<Place> {
        let offsets: Vec<usize> = spans.iter().flat_map(|s| [s.start, s.end.max(s.start)]).collect();
        let found = crate::diagnostic::line_cols(source, &offsets);
        found
            .chunks(2)
            .zip(spans)
            .map(|(p, s)| Place { file: file.to_string(), line: p[0].0, col: p[0].1, end_line: p[1].0, end_col: p[1].1, span: (s.start, s.end.max(s.start)) })
            .collect()
    }

    /// The places of byte spans of an article's text, each in the file it was read from (the
    /// article's, or one it brings in); a span that ends in another file ends where it starts.
    pub(crate) fn in_article(article: &Article, spans: &[Range<usize>]) -> Vec<Place> {
        let offsets: Vec<usize> = spans.iter().flat_map(|s| [s.start, s.end.max(s.start)]).collect();
        let found = article.places_of(&offsets);
        found
            .chunks(2)
            .zip(spans)
            .map(|(p, s)| {
                let (file, line, col) = p[0];
                let (end_line, end_col) = if p[1].0 == file { (p[1].1, p[1].2) } else { (line, col) };
                Place { file: file.to_string(), line, col, end_line, end_col, span: (s.start, s.end.max(s.start)) }
            })
            .collect()
    }
}

/// A label that declares no number: what it is and why, at its place in the registry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UnusedLabel {
    pub message: String,
    pub at: Place,
}

/// A number of a claim's sentence that its `arith` check computes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Input {
    pub claim: String,
    pub number: String,
}

#[derive(Debug, Clone)]
pub(crate) struct SourceReview {
    pub key: String,
    pub title: String,
    pub url: String,
}

#[derive(Debug, Clone)]
pub(crate) struct ClaimReview {
    pub id: String,
    pub verdict: Verdict,
    /// The quote, for a claim that binds by one.
    pub quote: Option<String>,
    /// The cell, for a claim that names a table cell.
    pub cell: Option<CellRef>,
    pub finding: String,
    pub sources: Vec<String>,
    pub binding: ClaimBinding,
    pub checks: Vec<CheckReview>,
    /// The claim's sentence against the lock, where the registry has one.
    pub change: Option<Change>,
    /// Where the claim's quote stands in the registry.
    pub registry_at: Place,
}

/// A claim's sentence now, against the sentence it held when the lock was accepted.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Change {
    Unchanged,
    /// The quote still binds, but the sentence reads differently.
    Edited {
        before: String,
        diff: String,
    },
    /// A checked number's value differs; its checks run against the draft's value.
    NumberChanged {
        before: String,
        diff: String,
    },
    /// The quote no longer binds: the audited sentence was deleted (`deleted`) or rewritten.
    /// `at` is where the sentence stood in the audited text: the start of the sentence it became
    /// where it was rewritten, else the start of the first later sentence that survived.
    Lost {
        before: String,
        /// Where it stood when accepted (`line 12 of the accepted text`).
        before_at: String,
        deleted: bool,
        nearest: Option<(SentenceRef, f64)>,
        diff: Option<String>,
        at: Option<Place>,
    },
    /// The claim is not in the lock: added to the registry since the last `accept`.
    NotLocked,
}

impl Change {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Change::Unchanged => "unchanged",
            Change::Edited { .. } => "edited",
            Change::NumberChanged { .. } => "number-changed",
            Change::Lost { .. } => "lost",
            Change::NotLocked => "not-locked",
        }
    }
}

/// The manuscript (or draft) against the registry's lock.
#[derive(Debug, Clone)]
pub(crate) struct LockReview {
    pub file: String,
    /// The SHA-256 the lock was accepted at.
    pub accepted_sha256: String,
    /// Why the lock does not describe the registry as it is now (empty when it does).
    pub stale: Vec<String>,
    pub unchanged: usize,
    pub changed: usize,
    pub new: usize,
    pub deleted: usize,
    /// Deleted sentences that held claims.
    pub deleted_claim_sentences: Vec<DeletedSentence>,
}

#[derive(Debug, Clone)]
pub(crate) struct DeletedSentence {
    /// Line in the accepted manuscript, or in the file it brought in that held it.
    pub line: usize,
    /// Where it stood when accepted (`line 12 of the accepted text`).
    pub accepted_at: String,
    pub text: String,
    pub claims: Vec<String>,
    /// Where it stood in the audited text (see [`Change::Lost`]).
    pub at: Option<Place>,
}

/// Where a claim bound, as the review reports it.
#[derive(Debug, Clone)]
pub(crate) enum ClaimBinding {
    Bound {
        sentence: SentenceRef,
        numbers_changed: bool,
    },
    Lost {
        nearest: Option<(SentenceRef, f64)>,
    },
    Ambiguous {
        sentences: Vec<SentenceRef>,
    },
    /// The article could not be read, so nothing was bound.
    NoArticle,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SentenceRef {
    pub index: usize,
    pub section: String,
    /// The file that holds it: the article's, or one the article brings in.
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub span: (usize, usize),
    pub text: String,
    pub fingerprint: String,
    /// The row and column, when the sentence is a table cell.
    pub cell: Option<CellPlace>,
}

/// A table cell as a claim names it: the texts of its row's first cell and of its column's
/// header, and the section and the table where the registry gives them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CellRef {
    pub section: Option<String>,
    pub row: String,
    pub column: String,
    pub table: Option<TableRef>,
}

/// Where a sentence that is a table cell stands: its row's and its column's labels.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CellPlace {
    pub row: String,
    pub column: String,
}

#[derive(Debug, Clone)]
pub(crate) struct CheckReview {
    pub kind: KindName,
    /// The number as the registry names it.
    pub number: Option<String>,
    /// The number as the sentence shows it now, where that differs.
    pub number_now: Option<String>,
    /// The root-relative files the check reads.
    pub files: Vec<String>,
    pub outcome: Outcome,
    /// `expect = "mismatch"`: the registry records the quoted number as wrong, and the check
    /// passes while it stays wrong.
    pub expect_mismatch: bool,
    /// Where the article shows the checked number, where the check names one.
    pub number_at: Option<Place>,
    /// Where the registry states the check: its `number` key, else its table.
    pub registry_at: Place,
}

/// A number of the article that no check verifies and no label declares.
#[derive(Debug, Clone)]
pub(crate) struct Unbound {
    pub number: String,
    pub line: usize,
    pub col: usize,
    /// The number's whole span in the article.
    pub at: Place,
    /// The sentence that quotes it; its text is in [`RegistryReview::unbound_sentences`].
    pub sentence_index: usize,
    /// Against the lock: whether the sentence is `new`, `changed` or `unchanged`.
    pub origin: Option<&'static str>,
    /// Where the number is part of a row's name or a column's header, which a claim bound by
    /// `cell` in that row or column would name: what the message suggests instead of a check.
    pub names: Option<crate::article::Names>,
}

impl Review {
    /// How the audit ended: its input errors as a failure, else whether anything needs
    /// attention.
    pub(crate) fn status(&self) -> Result<Status, Failure> {
        let errors = self.errors();
        if !errors.is_empty() {
            return Err(Failure::Input(errors));
        }
        Ok(Status::from_attention(self.needs_attention()))
    }

    /// The exit code [`Review::status`] leads to, for the wire formats that record it.
    pub(crate) fn exit_code(&self) -> u8 {
        let errors = !self.diagnostics.is_empty() || self.claims().any(|c| c.checks.iter().any(|k| matches!(k.outcome, Outcome::Error(_))));
        if errors {
            return 2;
        }
        if self.needs_attention() { 1 } else { 0 }
    }

    /// Every input problem: the review's diagnostics, then the checks that could not run, each
    /// once. Several checks reading one bad file meet the same problem, located in that file,
    /// and it is reported once rather than once per check.
    pub(crate) fn errors(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = Vec::new();
        let mut seen = BTreeSet::new();
        let checks = self.claims().flat_map(|c| c.checks.iter()).filter_map(|k| match &k.outcome {
            Outcome::Error(d) => Some(d),
            _ => None,
        });
        for d in self.diagnostics.iter().chain(checks) {
            if seen.insert((d.position(), d.message.clone())) {
                out.push(d.clone());
            }
        }
        out
    }

    fn needs_attention(&self) -> bool {
        self.registries.iter().any(|r| {
            r.actual_sha256.as_deref() != Some(r.recorded_sha256.as_str())
                || (!r.unbound.is_empty() && !r.unbound_warns)
                || r.claims.iter().any(|c| c.failed() || c.changed())
                || r.lock.as_ref().is_some_and(|l| !l.stale.is_empty() || !l.deleted_claim_sentences.is_empty())
        })
    }

    pub(crate) fn claims(&self) -> impl Iterator<Item = &ClaimReview> {
        self.registries.iter().flat_map(|r| r.claims.iter())
    }

    /// Claims per verdict, over every registry.
    pub(crate) fn counts(&self) -> BTreeMap<Verdict, usize> {
        let mut out = BTreeMap::new();
        for c in self.claims() {
            *out.entry(c.verdict).or_insert(0) += 1;
        }
        out
    }
}

/// A claim's status in one word, as the table and the JSON show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClaimStatus {
    Lost,
    Ambiguous,
    NoArticle,
    Changed,
    Error,
    Fail,
    /// Found wrong, as the registry records: the sentence says one thing, the evidence another.
    Wrong,
    Edited,
    NotLocked,
    Unchecked,
    OkWithSkips,
    Ok,
}

impl std::fmt::Display for ClaimStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ClaimStatus::Lost => "LOST",
            ClaimStatus::Ambiguous => "AMBIGUOUS",
            ClaimStatus::NoArticle => "NO ARTICLE",
            ClaimStatus::Changed => "CHANGED",
            ClaimStatus::Error => "ERROR",
            ClaimStatus::Fail => "FAIL",
            ClaimStatus::Wrong => "wrong",
            ClaimStatus::Edited => "EDITED",
            ClaimStatus::NotLocked => "NOT LOCKED",
            ClaimStatus::Unchecked => "unchecked",
            ClaimStatus::OkWithSkips => "ok (skips)",
            ClaimStatus::Ok => "ok",
        })
    }
}

impl ClaimReview {
    pub(crate) fn passed(&self) -> usize {
        self.checks.iter().filter(|c| matches!(c.outcome, Outcome::Pass { .. } | Outcome::Wrong { .. })).count()
    }

    /// A claim fails when a check fails or errs, or its binding is not exact.
    pub(crate) fn failed(&self) -> bool {
        let bound_exactly = matches!(self.binding, ClaimBinding::Bound { numbers_changed: false, .. });
        !bound_exactly || self.checks.iter().any(|c| matches!(c.outcome, Outcome::Fail { .. } | Outcome::Error(_)))
    }

    /// Whether the lock says the claim's sentence changed, or does not know the claim.
    pub(crate) fn changed(&self) -> bool {
        self.change.as_ref().is_some_and(|c| *c != Change::Unchanged)
    }

    /// The claim's status: the first that applies of a binding problem, a check that could
    /// not run, a failing check, a change since the lock, no checks, skipped checks, ok.
    pub(crate) fn status(&self) -> ClaimStatus {
        match &self.binding {
            ClaimBinding::Lost { .. } => return ClaimStatus::Lost,
            ClaimBinding::Ambiguous { .. } => return ClaimStatus::Ambiguous,
            ClaimBinding::NoArticle => return ClaimStatus::NoArticle,
            ClaimBinding::Bound { numbers_changed: true, .. } => return ClaimStatus::Changed,
            ClaimBinding::Bound { .. } => {}
        }
        if self.checks.iter().any(|c| matches!(c.outcome, Outcome::Error(_))) {
            ClaimStatus::Error
        } else if self.checks.iter().any(|c| matches!(c.outcome, Outcome::Fail { .. })) {
            ClaimStatus::Fail
        } else if self.checks.iter().any(|c| matches!(c.outcome, Outcome::Wrong { .. })) {
            ClaimStatus::Wrong
        } else if matches!(self.change, Some(Change::Edited { .. })) {
            ClaimStatus::Edited
        } else if matches!(self.change, Some(Change::NotLocked)) {
            ClaimStatus::NotLocked
        } else if self.checks.is_empty() {
            ClaimStatus::Unchecked
        } else if self.checks.iter().any(|c| matches!(c.outcome, Outcome::Skipped { .. })) {
            ClaimStatus::OkWithSkips
        } else {
            ClaimStatus::Ok
        }
    }

    /// What the claim names, in one line: its quote, or its cell as `row › column`.
    pub(crate) fn target(&self) -> String {
        match (&self.quote, &self.cell) {
            (Some(q), _) => q.clone(),
            (None, Some(c)) => format!("cell {} › {}", c.row, c.column),
            (None, None) => String::new(),
        }
    }

    /// Whether the claim holds only because the registry records its sentence as wrong: a
    /// check with `expect = "mismatch"` passed, so the sentence is wrong as the audit found.
    pub(crate) fn wrong_as_found(&self) -> bool {
        self.checks.iter().any(|c| c.expect_mismatch && matches!(c.outcome, Outcome::Wrong { .. }))
    }

    pub(crate) fn section(&self) -> &str {
        match &self.binding {
            ClaimBinding::Bound { sentence, .. } => &sentence.section,
            _ => "",
        }
    }
}

/// Audits every registry of the workspace. Input problems are collected, not returned early,
/// so that one bad claim never hides the others.
pub(crate) fn audit(ws: &Workspace) -> Review {
    let mut diagnostics = ws.diagnostics.clone();
    let Some(evidence) = ws.evidence() else { return Review { registries: Vec::new(), diagnostics } };
    // The JSONL files, traces and JSON documents the checks read were parsed as the workspace
    // loaded, on every core; the checks find them parsed.
    let registries: Vec<RegistryReview> = ws.registries.iter().map(|loaded| review_registry(evidence, loaded, &mut diagnostics)).collect();
    // The metadata of every run the checks read is read as `review` and `recheck` read it, so
    // a malformed file is bad input to every command alike.
    let runs: BTreeSet<String> = registries.iter().flat_map(|r| &r.claims).flat_map(|c| &c.checks).flat_map(|k| &k.files).filter_map(|f| run::run_of(f)).collect();
    for dir in runs {
        if let Err(d) = run::read(evidence, &dir) {
            diagnostics.push(d);
        }
    }
    Review { registries, diagnostics }
}

/// Binds and checks one registry against its article.
fn review_registry(evidence: &Evidence, loaded: &Loaded, diagnostics: &mut Vec<Diagnostic>) -> RegistryReview {
    let registry = &loaded.registry;
    let article = loaded.article.as_deref();
    let sources = registry.sources.iter().map(|s| SourceReview { key: s.key.get_ref().clone(), title: s.title.clone(), url: s.url.clone() }).collect();
    let base = RegistryReview {
        file: registry.file.clone(),
        manuscript: article.map_or_else(|| registry.manuscript.path.get_ref().clone(), |a| a.path.clone()),
        draft_of: loaded.draft_of.clone(),
        lock: None,
        recorded_sha256: registry.manuscript.sha256.get_ref().clone(),
        actual_sha256: article.map(|a| a.sha256.clone()),
        claims: Vec::new(),
        unbound: Vec::new(),
        unbound_sentences: BTreeMap::new(),
        unbound_warns: registry.policy.unbound == UnboundPolicy::Warn,
        ignored: BTreeMap::new(),
        warnings: article.map(|a| a.warnings.clone()).unwrap_or_default(),
        unused_labels: Vec::new(),
        inputs: Vec::new(),
        sources,
        sha256_at: Place::of_spans(&registry.file, &registry.source, &[registry.manuscript.sha256.span()]).remove(0),
        sentence_changes: Vec::new(),
    };
    // The registry places of every quote and every check, in one sweep of the registry.
    let mut registry_spans: Vec<Range<usize>> = Vec::new();
    for claim in &registry.claims {
        registry_spans.push(claim.target_span());
        registry_spans.extend(claim.checks.iter().map(|k| k.common.number.as_ref().map_or(k.span.clone(), |n| n.span())));
    }
    let mut registry_places = Place::of_spans(&registry.file, &registry.source, &registry_spans).into_iter();
    let mut shell = |claim: &registry::Claim, binding: ClaimBinding| {
        let quote_at = registry_places.next().expect("a place per quote");
        let check_places: Vec<Place> = registry_places.by_ref().take(claim.checks.len()).collect();
        (claim_shell(claim, binding, quote_at), check_places)
    };
    let Some(article) = article else {
        let claims = registry.claims.iter().map(|c| shell(c, ClaimBinding::NoArticle).0).collect();
        return RegistryReview { claims, ..base };
    };
    let ctx = Context::new(evidence, article, &registry.sources, &registry.file, &registry.source).with_field_units(&registry.field_units);
    let lock = loaded.lock.as_ref();
    let locked_claims = lock.map(|l| l.claim_sentences()).unwrap_or_default();
    let alignment = loaded.alignment.as_ref();
    let bindings = &loaded.bindings;
    let nearest_in_article = binding::Nearest::new(article);
    let mut claims = Vec::new();
    let mut inputs = Vec::new();
    // Article spans whose places are found in one sweep once every claim is reviewed: the
    // checked numbers (claim, check, span) and where lost sentences stood (claim, span).
    let mut number_spans: Vec<(usize, usize, Range<usize>)> = Vec::new();
    let mut lost_spans: Vec<(usize, Range<usize>)> = Vec::new();
    // Numbers verified or declared, per sentence, by their keys.
    let mut covered: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    // Labels that declare nothing, with their spans in the registry, placed in one sweep below.
    let mut unused_spans: Vec<(String, Range<usize>)> = Vec::new();
    // The cells that claims bind by their row and column: each selector writes its row's and
    // column's names whole, so a claim bound there stands only while those names read as it
    // writes them.
    let mut by_cell: Vec<&crate::article::Cell> = Vec::new();
    for (claim, bound) in registry.claims.iter().zip(bindings) {
        if let (Binding::Bound(b), Some(_)) = (bound, claim.cell()) {
            by_cell.extend(article.sentences[b.sentence].cell.as_ref());
        }
        let explained = match bound {
            Binding::Lost { .. } => lost_by_edit(lock, &locked_claims, alignment, claim.id.get_ref()),
            _ => None,
        };
        match (bound, explained) {
            (Binding::Bound(b), _) => {
                let sentence = &article.sentences[b.sentence];
                let keys = covered.entry(b.sentence).or_default();
                for label in &claim.labels {
                    match numbers::parse_one(label.get_ref()) {
                        Ok(n) => {
                            if !declares(sentence, &n.key()) {
                                unused_spans.push((
                                    format!("label `{}` of claim {} declares no number of its sentence: remove it, or write the number as the sentence does", label.get_ref(), claim.id.get_ref()),
                                    label.span(),
                                ));
                            }
                            keys.insert(n.key());
                        }
                        Err(m) => diagnostics.push(Diagnostic::at(m, &registry.file, &registry.source, label.span(), "not one number")),
                    }
                }
                let (mut review, check_places) = shell(claim, ClaimBinding::Bound { sentence: sentence_ref(sentence), numbers_changed: b.numbers_changed });
                let mut checks = Vec::new();
                let mut passing_arith = Vec::new();
                for ((check, cb), registry_at) in claim.checks.iter().zip(&b.checks).zip(check_places) {
                    if let Some(n) = &cb.sentence_number {
                        keys.insert(n.key());
                        number_spans.push((claims.len(), checks.len(), sentence.source_span(&n.span)));
                    }
                    let outcome = match &cb.error {
                        Some(d) => Outcome::Error(d.clone()),
                        None => checks::run(check, cb.quoted.as_ref(), &ctx),
                    };
                    // A result the registry records as wrong (`expect = "mismatch"`) was still
                    // computed from the operands it names: they are as much its inputs.
                    if let (Kind::Arith(a), Outcome::Pass { .. } | Outcome::Wrong { .. }) = (&check.kind, &outcome) {
                        passing_arith.push(a.expr.get_ref().as_str());
                    }
                    // The binding says whether the number changed; one spelled otherwise did not.
                    let number_now = cb.sentence_number.as_ref().filter(|_| cb.changed).map(|n| n.text.clone());
                    checks.push(CheckReview {
                        kind: check.kind.name(),
                        number: cb.registry_number.clone(),
                        number_now,
                        files: check.kind.files().into_iter().map(String::from).collect(),
                        outcome,
                        expect_mismatch: check.common.expect == checks::Expect::Mismatch,
                        number_at: None,
                        registry_at,
                    });
                }
                // A number of the sentence that no check verifies, written literally as an
                // operand of an `arith` check that holds (passing, or recorded as wrong and
                // wrong), is what the check computed from: an input, bound by it.
                for n in &sentence.numbers {
                    if !keys.contains(&n.key()) && passing_arith.iter().any(|e| arith::is_operand(e, n)) {
                        keys.insert(n.key());
                        inputs.push(Input { claim: claim.id.get_ref().clone(), number: n.text.clone() });
                    }
                }
                review.checks = checks;
                review.change = lock.map(|l| match locked_claims.get(claim.id.get_ref().as_str()) {
                    None => Change::NotLocked,
                    Some(i) if l.sentences[*i].fingerprint == sentence.fingerprint => Change::Unchanged,
                    Some(i) => {
                        let before = l.sentences[*i].text.clone();
                        let diff = lock::word_diff(&before, &sentence.text);
                        if b.numbers_changed { Change::NumberChanged { before, diff } } else { Change::Edited { before, diff } }
                    }
                });
                claims.push(review);
            }
            // With a lock, a quote lost because its audited sentence was deleted or rewritten
            // is a change of the manuscript, not a registry error.
            (Binding::Lost { .. }, Some((l, i, successor))) => {
                let before = &l.sentences[i];
                // The sentence it became, where it was rewritten; else the most similar one.
                let nearest = match successor {
                    Some(n) => {
                        let s = &article.sentences[n];
                        Some((sentence_ref(s), binding::similarity(&before.text, &s.text)))
                    }
                    None => nearest_in_article.find(&before.text).map(|(n, r)| (sentence_ref(&article.sentences[n]), r)),
                };
                let (mut review, _) = shell(claim, ClaimBinding::Lost { nearest: nearest.clone() });
                let stood = match successor {
                    Some(n) => Some(article.sentences[n].span.start),
                    None => stood_at(l, a_of(alignment), i, article),
                };
                if let Some(offset) = stood {
                    lost_spans.push((claims.len(), offset..offset));
                }
                review.change = Some(Change::Lost {
                    before: before.text.clone(),
                    before_at: before.accepted_place(),
                    deleted: successor.is_none(),
                    diff: nearest.as_ref().map(|(s, _)| lock::word_diff(&before.text, &s.text)),
                    nearest,
                    at: None,
                });
                claims.push(review);
            }
            (Binding::Lost { .. }, None) if claim.cell().is_some() => {
                let cell = claim.cell().expect("a cell claim").get_ref();
                let section = cell.section.as_ref().map_or(String::new(), |s| format!(" in section `{s}`"));
                let section = match &cell.table {
                    None => section,
                    Some(TableRef::Place(n)) => format!("{section} in table {n} of those that hold it"),
                    Some(TableRef::Named(name)) => format!("{section} in table `{name}`"),
                };
                diagnostics.push(
                    Diagnostic::at(
                        format!("claim `{}`: no table cell of {} is in row `{}` and column `{}`{section}", claim.id.get_ref(), article.path, cell.row, cell.column),
                        &registry.file,
                        &registry.source,
                        claim.target_span(),
                        "no cell has this row and column",
                    )
                    .with_note(binding::missing_cell(article, cell)),
                );
                claims.push(shell(claim, ClaimBinding::Lost { nearest: None }).0);
            }
            (Binding::Lost { nearest }, None) => {
                let mut d = Diagnostic::at(
                    format!("claim `{}`: its quote matches no sentence of {}", claim.id.get_ref(), article.path),
                    &registry.file,
                    &registry.source,
                    claim.target_span(),
                    "no sentence contains this",
                );
                if let Some((i, ratio)) = nearest {
                    let s = &article.sentences[*i];
                    // A note shows the start of a long sentence; its line leads to the rest.
                    let shown = crate::diagnostic::first_chars(&s.text, 400);
                    let cut = if shown.len() < s.text.len() { "…" } else { "" };
                    d = d.with_note(format!("the most similar sentence ({:.0} % alike) is at {}:{}: {shown}{cut}", ratio * 100.0, s.file, s.line));
                }
                diagnostics.push(d);
                let nearest = nearest.map(|(i, r)| (sentence_ref(&article.sentences[i]), r));
                claims.push(shell(claim, ClaimBinding::Lost { nearest }).0);
            }
            (Binding::Ambiguous { sentences }, _) if claim.cell().is_some() => {
                let cell = claim.cell().expect("a cell claim").get_ref();
                let name_of = |s: &crate::article::Sentence| s.cell.as_ref().and_then(|c| article.table_names.get(&c.table));
                let places = sentences
                    .iter()
                    .map(|i| {
                        let s = &article.sentences[*i];
                        let name = name_of(s).map_or(String::new(), |n| format!(", table `{n}`"));
                        format!("{} ({}{name})", s.section_title(), s.place(&article.path))
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                // Cells of one table that share their row and column labels are told apart by
                // their place among the rows or columns bearing the label, not by the table.
                let cells: Vec<&crate::article::Cell> = sentences.iter().filter_map(|i| article.sentences[*i].cell.as_ref()).collect();
                let names: Vec<&String> = sentences.iter().filter_map(|i| name_of(&article.sentences[*i])).collect();
                let help = if cells.windows(2).all(|w| w[0].table == w[1].table) {
                    let selectors = binding::Selectors::new(article);
                    let written: Vec<String> = cells.iter().map(|c| {
                        let (row, column) = selectors.labels(c);
                        format!("row = \"{row}\", column = \"{column}\"")
                    }).collect();
                    format!("these cells are in one table, whose rows or columns repeat the label: write its place among them, as in {}", written.join(" or "))
                } else if names.len() == sentences.len() {
                    // Every table has a name: the name says which, wherever the table moves.
                    let written: Vec<String> = names.iter().map(|n| format!("table = {}", crate::registry::TableRef::Named((*n).clone()).toml())).collect();
                    format!("name the table, as in {}", written.join(" or "))
                } else {
                    "add `section`, or `table`: the table's name, or its place among the tables under it, from 1, to say which table".to_string()
                };
                diagnostics.push(
                    Diagnostic::at(
                        format!("claim `{}`: row `{}` and column `{}` name {} cells of {}", claim.id.get_ref(), cell.row, cell.column, sentences.len(), article.path),
                        &registry.file,
                        &registry.source,
                        claim.target_span(),
                        help,
                    )
                    .with_note(format!("the cells are in {places}")),
                );
                let sentences = sentences.iter().map(|i| sentence_ref(&article.sentences[*i])).collect();
                claims.push(shell(claim, ClaimBinding::Ambiguous { sentences }).0);
            }
            (Binding::Ambiguous { sentences }, _) => {
                let lines = sentences.iter().map(|i| article.sentences[*i].place(&article.path)).collect::<Vec<_>>().join(", ");
                diagnostics.push(
                    Diagnostic::at(
                        format!("claim `{}`: its quote matches {} sentences of {}", claim.id.get_ref(), sentences.len(), article.path),
                        &registry.file,
                        &registry.source,
                        claim.target_span(),
                        "quote more of the sentence",
                    )
                    .with_note(format!("the sentences are at {lines}")),
                );
                let sentences = sentences.iter().map(|i| sentence_ref(&article.sentences[*i])).collect();
                claims.push(shell(claim, ClaimBinding::Ambiguous { sentences }).0);
            }
        }
    }
    let spans: Vec<Range<usize>> = number_spans.iter().map(|(_, _, s)| s.clone()).chain(lost_spans.iter().map(|(_, s)| s.clone())).collect();
    let mut places = Place::in_article(article, &spans).into_iter();
    for ((c, k, _), place) in number_spans.iter().zip(places.by_ref()) {
        claims[*c].checks[*k].number_at = Some(place);
    }
    for ((c, _), place) in lost_spans.iter().zip(places) {
        if let Some(Change::Lost { at, .. }) = &mut claims[*c].change {
            *at = Some(place);
        }
    }
    let (mut unbound, ignored, unused_registry) = unbound_numbers(registry, article, &covered, &by_cell, diagnostics);
    unused_spans.extend(unused_registry);
    let unused_places = Place::of_spans(&registry.file, &registry.source, &unused_spans.iter().map(|(_, span)| span.clone()).collect::<Vec<_>>());
    let unused_labels = unused_spans.into_iter().zip(unused_places).map(|((message, _), at)| UnusedLabel { message, at }).collect();
    let mut sentence_changes = Vec::new();
    let lock_review = match (lock, alignment) {
        (Some(l), Some(a)) => {
            for u in &mut unbound {
                u.origin = a.origins.get(u.sentence_index).map(|o| o.name());
            }
            sentence_changes =
                a.origins.iter().zip(&article.sentences).filter(|(o, _)| !matches!(o, lock::Origin::Unchanged(_))).map(|(o, s)| (sentence_ref(s), o.name())).collect();
            Some(lock_review(registry, l, a, &claims, article))
        }
        _ => None,
    };
    // Each sentence's text once, however many of its numbers are unbound.
    let indices: BTreeSet<usize> = unbound.iter().map(|u| u.sentence_index).collect();
    let unbound_sentences = indices.into_iter().map(|i| (i, article.sentences[i].text.clone())).collect();
    RegistryReview { claims, unbound, unbound_sentences, ignored, inputs, lock: lock_review, sentence_changes, unused_labels, ..base }
}

/// Whether `sentence` holds a number that a label of key `key` declares: the same number, or in
/// a table cell the same without the unit its header gives, as [`unbound_numbers`] matches them.
fn declares(sentence: &crate::article::Sentence, key: &str) -> bool {
    sentence.numbers.iter().any(|n| n.key() == key || (sentence.cell.is_some() && n.key_without_unit() == key))
}

/// The registry's `[[label]]` entries that declare no number of the article, each with why and
/// its span in the registry, from what [`unbound_numbers`] found of each (as indexed in
/// `registry.labels`): whether its quote `held` in some sentence and whether it was `used` to
/// declare a number. One with a quote that no sentence holds is reported at its quote; one whose
/// sentences, or, without a quote, the whole article, hold no such number at its number. A label
/// that cannot be read as one number is an input error reported elsewhere.
fn unused_registry_labels(registry: &Registry, article: &Article, held: &[bool], used: &[bool]) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    for (idx, label) in registry.labels.iter().enumerate() {
        if used[idx] || numbers::parse_one(label.number.get_ref()).is_err() {
            continue;
        }
        let number = label.number.get_ref();
        match &label.quote {
            Some(q) if !held[idx] => {
                out.push((format!("[[label]] `{number}`: its quote \"{}\" is in no sentence of {}: remove the label, or quote the sentence as it reads", q.get_ref(), article.path), q.span()));
            }
            Some(_) => out.push((format!("[[label]] `{number}` declares no number of the sentence its quote finds: remove it, or write the number as the sentence does"), label.number.span())),
            None => out.push((format!("[[label]] `{number}` declares no number of {}: remove it, or write the number as the article does", article.path), label.number.span())),
        }
    }
    out
}

/// The alignment, which a lock that explains a lost claim always comes with.
fn a_of(alignment: Option<&lock::Alignment>) -> &lock::Alignment {
    alignment.expect("a lock is aligned whenever it is read")
}

/// Where the deleted locked sentence `deleted` stood in the audited text: the start of the
/// first later locked sentence that survived, since the text continues there; else the end of
/// the last earlier one; `None` when no locked sentence survived.
fn stood_at(l: &lock::Lock, a: &lock::Alignment, deleted: usize, article: &Article) -> Option<usize> {
    let later = (deleted + 1..l.sentences.len()).find_map(|j| a.successor(j)).map(|(n, _)| article.sentences[n].span.start);
    later.or_else(|| (0..deleted).rev().find_map(|j| a.successor(j)).map(|(n, _)| article.sentences[n].span.end))
}

/// Where a claim's lost quote is explained by the lock: the lock, the claim's locked sentence,
/// and the draft sentence it became (`None` when it was deleted). `None` when the lock does
/// not know the claim or its sentence is still there word for word.
fn lost_by_edit<'l>(
    lock: Option<&'l lock::Lock>,
    locked_claims: &BTreeMap<&str, usize>,
    alignment: Option<&lock::Alignment>,
    id: &str,
) -> Option<(&'l lock::Lock, usize, Option<usize>)> {
    let (l, a) = (lock?, alignment?);
    let i = *locked_claims.get(id)?;
    match a.successor(i) {
        Some((_, lock::Origin::Unchanged(_))) => None,
        Some((n, _)) => Some((l, i, Some(n))),
        None => Some((l, i, None)),
    }
}

fn lock_review(registry: &Registry, l: &lock::Lock, a: &lock::Alignment, claims: &[ClaimReview], article: &Article) -> LockReview {
    let mut stale = Vec::new();
    if l.registry != registry.file || l.manuscript != *registry.manuscript.path.get_ref() {
        stale.push(format!("it was accepted for {} with {}", l.manuscript, l.registry));
    }
    if l.manuscript_sha256 != *registry.manuscript.sha256.get_ref() {
        stale.push(format!(
            "it was accepted at SHA-256 {}…, but the registry records {}…",
            crate::hash::short(&l.manuscript_sha256),
            crate::hash::short(registry.manuscript.sha256.get_ref())
        ));
    }
    let ids: BTreeSet<&str> = registry.claims.iter().map(|c| c.id.get_ref().as_str()).collect();
    let gone: Vec<&str> = l.sentences.iter().flat_map(|s| s.claims.iter().map(String::as_str)).filter(|c| !ids.contains(c)).collect();
    if !gone.is_empty() {
        stale.push(format!("it holds claims the registry no longer has: {}", gone.join(", ")));
    }
    let not_locked: Vec<&str> = claims.iter().filter(|c| c.change == Some(Change::NotLocked)).map(|c| c.id.as_str()).collect();
    if !not_locked.is_empty() {
        stale.push(format!("claims added since it was accepted: {}", not_locked.join(", ")));
    }
    let held: Vec<usize> = a.deleted.iter().copied().filter(|i| !l.sentences[*i].claims.is_empty()).collect();
    let stood: Vec<Option<usize>> = held.iter().map(|i| stood_at(l, a, *i, article)).collect();
    let spans: Vec<Range<usize>> = stood.iter().flatten().map(|o| *o..*o).collect();
    let mut places = Place::in_article(article, &spans).into_iter();
    let deleted_claim_sentences = held
        .iter()
        .zip(&stood)
        .map(|(i, offset)| {
            let s = &l.sentences[*i];
            DeletedSentence { line: s.line, accepted_at: s.accepted_place(), text: s.text.clone(), claims: s.claims.clone(), at: offset.and_then(|_| places.next()) }
        })
        .collect();
    LockReview {
        file: lock::path_for(&registry.file),
        accepted_sha256: l.manuscript_sha256.clone(),
        stale,
        unchanged: a.origins.iter().filter(|o| matches!(o, lock::Origin::Unchanged(_))).count(),
        changed: a.origins.iter().filter(|o| matches!(o, lock::Origin::Changed(_))).count(),
        new: a.origins.iter().filter(|o| matches!(o, lock::Origin::New)).count(),
        deleted: a.deleted.len(),
        deleted_claim_sentences,
    }
}

fn claim_shell(claim: &registry::Claim, binding: ClaimBinding, registry_at: Place) -> ClaimReview {
    ClaimReview {
        id: claim.id.get_ref().clone(),
        verdict: *claim.verdict.get_ref(),
        quote: claim.quote().map(|q| q.get_ref().clone()),
        cell: claim.cell().map(|c| {
            let c = c.get_ref();
            CellRef { section: c.section.clone(), row: c.row.clone(), column: c.column.clone(), table: c.table.clone() }
        }),
        finding: claim.finding.clone(),
        sources: claim.sources.iter().map(|s| s.get_ref().clone()).collect(),
        binding,
        checks: Vec::new(),
        change: None,
        registry_at,
    }
}

impl SentenceRef {
    /// Where it stands, for a reader of `manuscript`: `line 12`, or `sections/eval.tex:12` in a
    /// file the manuscript brings in.
    pub(crate) fn place(&self, manuscript: &str) -> String {
        crate::article::place(&self.file, self.line, manuscript)
    }
}

pub(crate) fn sentence_ref(s: &crate::article::Sentence) -> SentenceRef {
    SentenceRef {
        index: s.index,
        section: s.section_title(),
        file: s.file.clone(),
        line: s.line,
        col: s.col,
        span: (s.span.start, s.span.end),
        text: s.text.clone(),
        fingerprint: s.fingerprint.clone(),
        cell: s.cell.as_ref().map(|c| CellPlace { row: c.row_label.clone(), column: c.column_label.clone() }),
    }
}

/// Numbers of the article that no check of a bound claim verifies, no label declares and no
/// claim's cell names, and how many numbers each ignored section holds.
fn unbound_numbers(
    registry: &Registry,
    article: &Article,
    covered: &BTreeMap<usize, BTreeSet<String>>,
    by_cell: &[&crate::article::Cell],
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Unbound>, BTreeMap<String, usize>, Vec<(String, Range<usize>)>) {
    let mut ignored: BTreeMap<String, usize> = BTreeMap::new();
    // Each `[[label]]`'s key, as the index of the label in the registry: those without a quote
    // by key, those with one with their quote.
    let mut global: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut scoped: Vec<(String, String, usize)> = Vec::new();
    for (idx, label) in registry.labels.iter().enumerate() {
        let key = match numbers::parse_one(label.number.get_ref()) {
            Ok(n) => n.key(),
            Err(m) => {
                diagnostics.push(Diagnostic::at(m, &registry.file, &registry.source, label.number.span(), "not one number"));
                continue;
            }
        };
        match &label.quote {
            Some(q) => scoped.push((key, binding::normalise(q.get_ref()), idx)),
            None => global.entry(key).or_default().push(idx),
        }
    }
    // Each scoped label's quote is searched for in every sentence: its searcher is built once.
    let scoped: Vec<(&str, binding::QuoteSearch<'_>, usize)> = scoped.iter().map(|(k, q, idx)| (k.as_str(), binding::QuoteSearch::new(q), *idx)).collect();
    // Whether each label's quote holds in some sentence, and whether it declares some number of
    // one, in any section, ignored ones included: a label that does not is reported below.
    let mut held = vec![false; registry.labels.len()];
    let mut used = vec![false; registry.labels.len()];
    let mut found: Vec<(&Number, usize)> = Vec::new();
    for s in &article.sentences {
        // Which scoped labels hold in this sentence is decided once per sentence, not once per
        // number: a long sentence with many numbers is searched once.
        let here: Vec<(&str, usize)> = scoped.iter().filter(|(_, q, _)| q.holds(&s.text)).map(|(k, _, idx)| (*k, *idx)).collect();
        for (_, idx) in &here {
            held[*idx] = true;
        }
        let skipped = registry.ignore.iter().find(|i| i.covers(s));
        if let Some(i) = skipped {
            *ignored.entry(i.describe()).or_insert(0) += s.numbers.len();
        }
        for n in &s.numbers {
            // In a table cell, a label may leave out the unit the header gives, as a check's
            // `number` may.
            let keys = [Some(n.key()), s.cell.is_some().then(|| n.key_without_unit())];
            let mut declared = false;
            for key in keys.iter().flatten() {
                for idx in global.get(key).into_iter().flatten().copied().chain(here.iter().filter(|(k, _)| k == key).map(|(_, idx)| *idx)) {
                    used[idx] = true;
                    declared = true;
                }
                declared |= covered.get(&s.index).is_some_and(|k| k.contains(key));
            }
            if skipped.is_none() && !declared && !(n.can_name() && named_by_a_claim(s, by_cell)) {
                found.push((n, s.index));
            }
        }
    }
    let unused = unused_registry_labels(registry, article, &held, &used);
    let spans: Vec<Range<usize>> = found.iter().map(|(n, i)| article.sentences[*i].source_span(&n.span)).collect();
    let places = Place::in_article(article, &spans);
    for i in &registry.ignore {
        if !article.sentences.iter().any(|s| s.section.iter().any(|h| h == i.section.get_ref())) {
            diagnostics.push(Diagnostic::at(
                format!("[[ignore]] names the section \"{}\", which {} has no heading for", i.section.get_ref(), article.path),
                &registry.file,
                &registry.source,
                i.section.span(),
                "no such heading",
            ));
        } else if !article.sentences.iter().any(|s| i.covers(s)) {
            // An entry that ignores nothing is a mistake the registry's author should see,
            // like a heading that does not exist: most likely the table moved elsewhere.
            diagnostics.push(Diagnostic::at(
                format!("[[ignore]] with `table = true` names the section \"{}\", which has no table in {}", i.section.get_ref(), article.path),
                &registry.file,
                &registry.source,
                i.section.span(),
                "no table under this heading",
            ));
        }
    }
    let unbound = found
        .into_iter()
        .zip(places)
        .map(|((n, sentence_index), at)| {
            let names = article.sentences[sentence_index].names().filter(|_| n.can_name());
            Unbound { number: n.text.clone(), line: at.line, col: at.col, at, sentence_index, origin: None, names }
        })
        .collect();
    (unbound, ignored, unused)
}

/// Whether `s` is a cell that names a row or a column of its table, which a claim bound by
/// `cell` names in its selector: a row's name (`| [1,2]*1000 | 3.70 us |`, `| 4096×128 | … |`)
/// by a claim of that row (of any row it spans, for an HTML label cell with `rowspan`), a header
/// by a claim under it. The selector binds only while the name
/// reads as it writes it, so an edited `1000` loses the claim; what the binding verifies needs
/// no check or label of its own. A name that no bound claim writes stays unbound.
fn named_by_a_claim(s: &crate::article::Sentence, by_cell: &[&crate::article::Cell]) -> bool {
    use crate::article::{Names, label_parts};
    let Some(cell) = &s.cell else { return false };
    let part_of = |label: &str| label_parts(label).any(|part| binding::same_label(part, &s.text));
    match s.names() {
        Some(Names::Row) => {
            // In an HTML table a label cell may span rows (`rowspan`): it is the same part of
            // each spanned row's label, whose claims write it too. A Markdown row's label is
            // its first cell alone, its own.
            let own: Vec<&str> = label_parts(&cell.row_label).collect();
            let at = own.iter().position(|part| binding::same_label(part, &s.text)).filter(|_| own.len() > 1);
            by_cell.iter().any(|b| {
                b.table == cell.table
                    && match at {
                        Some(k) => b.row >= cell.row && label_parts(&b.row_label).nth(k).is_some_and(|part| binding::same_label(part, &s.text)),
                        None => b.row == cell.row && part_of(&b.row_label),
                    }
            })
        }
        Some(Names::Column) => by_cell.iter().any(|b| b.table == cell.table && b.column >= cell.column && part_of(&b.column_label)),
        None => false,
    }
}

#[cfg(test)]
mod sharing_tests {
    use super::*;
    use crate::workspace::Options;

    fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }

    /// Ten copies of the shipped registries (new names, the same manuscripts and evidence) read
    /// every file once: the evidence, parsed documents and traces are shared between registries.
    #[test]
    fn ten_copies_of_the_shipped_registries_open_each_file_once() {
        let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = tempfile::tempdir().unwrap();
        for sub in ["article", "evidence", "claims"] {
            copy_dir(&shipped.join(sub), &dir.path().join(sub));
        }
        for name in ["graphs-fusion-megakernels", "original-draft"] {
            for copy in 2..=10 {
                std::fs::copy(dir.path().join(format!("claims/{name}.toml")), dir.path().join(format!("claims/copy{copy}-{name}.toml"))).unwrap();
            }
        }
        let ws = Workspace::load(&Options { root: dir.path().into(), ..Options::default() });
        let review = audit(&ws);
        assert_eq!(review.registries.len(), 20);
        let opens = ws.evidence().unwrap().opens();
        let twice: Vec<_> = opens.iter().filter(|(_, n)| **n > 1).collect();
        assert!(twice.is_empty(), "opened more than once: {twice:?}");
        for file in ["article/graphs-fusion-megakernels.md", "evidence/runs/20261205T053553Z-all/meta.json", "evidence/runs/20261205T053553Z-all/samples.jsonl"] {
            assert_eq!(opens.get(file), Some(&1), "{file}: {opens:?}");
        }
    }
}
