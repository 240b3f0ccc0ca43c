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
//! With a lock (`claims/<name>.lock`, see [`crate::lock`]) a quote that no longer binds because
//! its audited sentence was deleted or rewritten is a change of the manuscript (exit 1, shown
//! with the most similar sentence and a word diff). Without one, claimcheck cannot tell a
//! deleted sentence from a mistyped quote, and reports it at the quote (exit 2).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::article::Article;
use crate::binding::{self, Binding};
use crate::checks::{self, Context, Outcome};
use crate::diagnostic::Diagnostic;
use crate::lock;
use crate::numbers::{self, Number};
use crate::paths::Root;
use crate::registry::{self, Registry, Verdict};

/// What to audit.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub root: PathBuf,
    /// Registry files, root-relative; empty means every `claims/*.toml`.
    pub claims: Vec<String>,
    /// A draft audited in place of its registry's manuscript (any path the user names).
    pub draft: Option<PathBuf>,
}

/// The result of an audit, for renderers.
#[derive(Debug, Clone)]
pub struct Review {
    pub registries: Vec<RegistryReview>,
    /// Problems with the input, each located.
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone)]
pub struct RegistryReview {
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
    pub sources: Vec<SourceReview>,
}

#[derive(Debug, Clone)]
pub struct SourceReview {
    pub key: String,
    pub title: String,
    pub url: String,
}

#[derive(Debug, Clone)]
pub struct ClaimReview {
    pub id: String,
    pub verdict: Verdict,
    pub quote: String,
    pub finding: String,
    pub sources: Vec<String>,
    pub binding: ClaimBinding,
    pub checks: Vec<CheckReview>,
    /// The claim's sentence against the lock, where the registry has one.
    pub change: Option<Change>,
}

/// A claim's sentence now, against the sentence it held when the lock was accepted.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Unchanged,
    /// The quote still binds, but the sentence reads differently.
    Edited { before: String, diff: String },
    /// A checked number's value differs; its checks run against the draft's value.
    NumberChanged { before: String, diff: String },
    /// The quote no longer binds: the audited sentence was deleted (`deleted`) or rewritten.
    Lost { before: String, before_line: usize, deleted: bool, nearest: Option<(SentenceRef, f64)>, diff: Option<String> },
    /// The claim is not in the lock: added to the registry since the last `accept`.
    NotLocked,
}

impl Change {
    pub fn name(&self) -> &'static str {
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
pub struct LockReview {
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
pub struct DeletedSentence {
    /// Line in the accepted manuscript.
    pub line: usize,
    pub text: String,
    pub claims: Vec<String>,
}

/// Where a claim bound, as the review reports it.
#[derive(Debug, Clone)]
pub enum ClaimBinding {
    Bound { sentence: SentenceRef, numbers_changed: bool },
    Lost { nearest: Option<(SentenceRef, f64)> },
    Ambiguous { sentences: Vec<SentenceRef> },
    /// The article could not be read, so nothing was bound.
    NoArticle,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SentenceRef {
    pub index: usize,
    pub section: String,
    pub line: usize,
    pub col: usize,
    pub span: (usize, usize),
    pub text: String,
    pub fingerprint: String,
}

#[derive(Debug, Clone)]
pub struct CheckReview {
    pub kind: &'static str,
    /// The number as the registry names it.
    pub number: Option<String>,
    /// The number as the sentence shows it now, where that differs.
    pub number_now: Option<String>,
    /// The root-relative files the check reads.
    pub files: Vec<String>,
    pub outcome: Outcome,
}

/// A number of the article that no check verifies and no label declares.
#[derive(Debug, Clone)]
pub struct Unbound {
    pub number: String,
    pub line: usize,
    pub col: usize,
    /// The sentence that quotes it; its text is in [`RegistryReview::unbound_sentences`].
    pub sentence_index: usize,
    /// Against the lock: whether the sentence is `new`, `changed` or `unchanged`.
    pub origin: Option<&'static str>,
}

impl Review {
    pub fn exit_code(&self) -> u8 {
        let errors = !self.diagnostics.is_empty()
            || self.claims().any(|c| c.checks.iter().any(|k| matches!(k.outcome, Outcome::Error(_))));
        if errors {
            return 2;
        }
        if self.needs_attention() { 1 } else { 0 }
    }

    /// Every input problem: the review's diagnostics, then the checks that could not run, each
    /// once. Several checks reading one bad file meet the same problem, located in that file,
    /// and it is reported once rather than once per check.
    pub fn errors(&self) -> Vec<Diagnostic> {
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
                || !r.unbound.is_empty()
                || r.claims.iter().any(|c| c.failed() || c.changed())
                || r.lock.as_ref().is_some_and(|l| !l.stale.is_empty() || !l.deleted_claim_sentences.is_empty())
        })
    }

    pub fn claims(&self) -> impl Iterator<Item = &ClaimReview> {
        self.registries.iter().flat_map(|r| r.claims.iter())
    }

    /// Claims per verdict, over every registry.
    pub fn counts(&self) -> BTreeMap<Verdict, usize> {
        let mut out = BTreeMap::new();
        for c in self.claims() {
            *out.entry(c.verdict).or_insert(0) += 1;
        }
        out
    }
}

impl ClaimReview {
    pub fn passed(&self) -> usize {
        self.checks.iter().filter(|c| matches!(c.outcome, Outcome::Pass { .. })).count()
    }

    /// A claim fails when a check fails or errs, or its binding is not exact.
    pub fn failed(&self) -> bool {
        let bound_exactly = matches!(self.binding, ClaimBinding::Bound { numbers_changed: false, .. });
        !bound_exactly || self.checks.iter().any(|c| matches!(c.outcome, Outcome::Fail { .. } | Outcome::Error(_)))
    }

    /// Whether the lock says the claim's sentence changed, or does not know the claim.
    pub fn changed(&self) -> bool {
        self.change.as_ref().is_some_and(|c| *c != Change::Unchanged)
    }

    /// One word for the table.
    pub fn status(&self) -> &'static str {
        match &self.binding {
            ClaimBinding::Lost { .. } => return "LOST",
            ClaimBinding::Ambiguous { .. } => return "AMBIGUOUS",
            ClaimBinding::NoArticle => return "NO ARTICLE",
            ClaimBinding::Bound { numbers_changed: true, .. } => return "CHANGED",
            ClaimBinding::Bound { .. } => {}
        }
        if self.checks.iter().any(|c| matches!(c.outcome, Outcome::Error(_))) {
            "ERROR"
        } else if self.checks.iter().any(|c| matches!(c.outcome, Outcome::Fail { .. })) {
            "FAIL"
        } else if matches!(self.change, Some(Change::Edited { .. })) {
            "EDITED"
        } else if matches!(self.change, Some(Change::NotLocked)) {
            "NOT LOCKED"
        } else if self.checks.is_empty() {
            "unchecked"
        } else if self.checks.iter().any(|c| matches!(c.outcome, Outcome::Skipped { .. })) {
            "ok (skips)"
        } else {
            "ok"
        }
    }

    pub fn section(&self) -> &str {
        match &self.binding {
            ClaimBinding::Bound { sentence, .. } => &sentence.section,
            _ => "",
        }
    }
}

/// The registries an audit reads: those named, or every `claims/*.toml` under the root.
pub fn registry_files(root: &Root, named: &[String]) -> Result<Vec<String>, Diagnostic> {
    if !named.is_empty() {
        return Ok(named.to_vec());
    }
    let dir = root.dir().join("claims");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".toml"))
                .map(|n| format!("claims/{n}"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    if files.is_empty() {
        return Err(Diagnostic::plain(format!("no claims registry found: expected claims/*.toml under {}", display_root(root.dir())))
            .with_note("pass --root DIR for another repository, or --claims FILE for one registry"));
    }
    Ok(files)
}

fn display_root(dir: &Path) -> String {
    let shown = dir.display().to_string();
    if shown.is_empty() { ".".into() } else { shown }
}

/// Runs the audit. Input problems are collected, not returned early, so that one bad claim
/// never hides the others.
pub fn audit(options: &Options) -> Review {
    let mut diagnostics = Vec::new();
    let root = match Root::new(&options.root) {
        Ok(r) => r,
        Err(e) => {
            return Review { registries: vec![], diagnostics: vec![Diagnostic::plain(format!("cannot open root {}: {e}", options.root.display()))] };
        }
    };
    let files = match registry_files(&root, &options.claims) {
        Ok(f) => f,
        Err(d) => return Review { registries: vec![], diagnostics: vec![d] },
    };
    if let Some(draft) = &options.draft {
        return audit_draft(&root, &files, !options.claims.is_empty(), draft);
    }
    let mut registries = Vec::new();
    let mut articles: BTreeMap<String, Option<Article>> = BTreeMap::new();
    for file in files {
        let Some(registry) = load_registry(&root, &file, &mut diagnostics) else { continue };
        let article_path = registry.manuscript.path.get_ref().clone();
        // Registries that share a manuscript share its one parse; it is borrowed, never
        // copied, since a long article is large.
        let article = articles.entry(article_path).or_insert_with(|| load_article(&root, &registry, &mut diagnostics));
        registries.push(review_registry(&root, &registry, article.as_ref(), &mut diagnostics));
    }
    check_run_files(&root, &registries, &mut diagnostics);
    Review { registries, diagnostics }
}

/// Reads the metadata files of every run the checks read, as `review` and `recheck` do, so
/// that a malformed `meta.json` or `graphs/nodes.json` is bad input to every command alike.
fn check_run_files(root: &Root, registries: &[RegistryReview], diagnostics: &mut Vec<Diagnostic>) {
    let files = registries.iter().flat_map(|r| r.claims.iter()).flat_map(|c| c.checks.iter()).flat_map(|k| k.files.iter().map(String::as_str));
    for dir in crate::evidence::run_dirs(files) {
        if let Err(d) = crate::evidence::read_run_files(root, &dir) {
            diagnostics.push(d);
        }
    }
}

/// Audits `draft` in place of the manuscript of one registry: the one `--claims` named, else
/// the one whose manuscript has the draft's file name, else the only one.
fn audit_draft(root: &Root, files: &[String], named: bool, draft: &Path) -> Review {
    let mut diagnostics = Vec::new();
    let registries: Vec<Registry> = files.iter().filter_map(|f| load_registry(root, f, &mut diagnostics)).collect();
    if !diagnostics.is_empty() {
        return Review { registries: vec![], diagnostics };
    }
    let name = draft.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let candidates: Vec<&Registry> = if named || registries.len() == 1 {
        registries.iter().collect()
    } else {
        registries.iter().filter(|r| Path::new(r.manuscript.path.get_ref()).file_name().is_some_and(|n| n.to_string_lossy() == name)).collect()
    };
    let registry = match candidates.as_slice() {
        [one] => *one,
        _ => {
            let list: Vec<String> = registries.iter().map(|r| format!("--claims {} (manuscript {})", r.file, r.manuscript.path.get_ref())).collect();
            let what = if named { "several registries were named" } else if candidates.is_empty() { "no registry's manuscript is named like it" } else { "several registries' manuscripts are named like it" };
            let d = Diagnostic::plain(format!("cannot tell which registry the draft {} belongs to: {what}", draft.display()))
                .with_note(format!("name one with --claims: {}", list.join("; ")));
            return Review { registries: vec![], diagnostics: vec![d] };
        }
    };
    let shown = draft.display().to_string();
    let article = match read_article(&shown, draft) {
        Ok(a) => a,
        Err(d) if d.location.is_some() => return Review { registries: vec![], diagnostics: vec![d] },
        Err(d) => return Review { registries: vec![], diagnostics: vec![Diagnostic::plain(format!("draft: {}", d.message))] },
    };
    let mut review = review_registry(root, registry, Some(&article), &mut diagnostics);
    review.draft_of = Some(registry.manuscript.path.get_ref().clone());
    let registries = vec![review];
    check_run_files(root, &registries, &mut diagnostics);
    Review { registries, diagnostics }
}

/// Reads and parses one registry, adding its diagnostics.
pub fn load_registry(root: &Root, file: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Registry> {
    let path = match root.resolve(file) {
        Ok(p) => p,
        Err(e) => {
            diagnostics.push(Diagnostic::plain(format!("registry {file}: {e}")));
            return None;
        }
    };
    let text = match std::fs::read(&path).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(e)) => {
            diagnostics.push(Diagnostic::not_utf8(file, e.as_bytes(), e.utf8_error().valid_up_to()));
            return None;
        }
        Err(e) => {
            diagnostics.push(Diagnostic::plain(format!("reading registry {file}: {e}")));
            return None;
        }
    };
    let (registry, mut found) = registry::parse(file, &text);
    diagnostics.append(&mut found);
    registry
}

/// Reads the article a registry names, or the draft given in its place.
pub fn load_article(root: &Root, registry: &Registry, diagnostics: &mut Vec<Diagnostic>) -> Option<Article> {
    let path = &registry.manuscript.path;
    let at = |m: String| Diagnostic::at(m, &registry.file, &registry.source, path.span(), "the manuscript");
    let full = match root.resolve(path.get_ref()) {
        Ok(p) => p,
        Err(e) => {
            diagnostics.push(at(format!("manuscript: {e}")));
            return None;
        }
    };
    read_article(path.get_ref(), &full)
        .map_err(|d| match d.location {
            // A manuscript that cannot be decoded is located in itself; one that cannot be
            // read at all, at the registry line that names it.
            Some(_) => diagnostics.push(d.with_note(format!("the manuscript of {}", registry.file))),
            None => diagnostics.push(at(d.message)),
        })
        .ok()
}

/// Reads and parses an article file; text that is not UTF-8 is located at its first bad byte.
pub fn read_article(shown: &str, full: &Path) -> Result<Article, Diagnostic> {
    let bytes = std::fs::read(full).map_err(|e| Diagnostic::plain(format!("reading {shown}: {e}")))?;
    if let Err(e) = std::str::from_utf8(&bytes) {
        return Err(Diagnostic::not_utf8(shown, &bytes, e.valid_up_to()));
    }
    Article::parse(shown, &bytes).map_err(|e| Diagnostic::plain(e.to_string()))
}

/// Binds and checks one registry against its article.
pub fn review_registry(root: &Root, registry: &Registry, article: Option<&Article>, diagnostics: &mut Vec<Diagnostic>) -> RegistryReview {
    let sources = registry
        .sources
        .iter()
        .map(|s| SourceReview { key: s.key.get_ref().clone(), title: s.title.clone(), url: s.url.clone() })
        .collect();
    let base = RegistryReview {
        file: registry.file.clone(),
        manuscript: article.map_or_else(|| registry.manuscript.path.get_ref().clone(), |a| a.path.clone()),
        draft_of: None,
        lock: None,
        recorded_sha256: registry.manuscript.sha256.get_ref().clone(),
        actual_sha256: article.map(|a| a.sha256.clone()),
        claims: Vec::new(),
        unbound: Vec::new(),
        unbound_sentences: BTreeMap::new(),
        sources,
    };
    let Some(article) = article else {
        let claims = registry.claims.iter().map(|c| claim_shell(c, ClaimBinding::NoArticle)).collect();
        return RegistryReview { claims, ..base };
    };
    let ctx = Context::new(root, article, &registry.sources, &registry.file, &registry.source);
    let lock = lock::read(root, &registry.file).unwrap_or_else(|d| {
        diagnostics.push(d);
        None
    });
    let locked_claims = lock.as_ref().map(|l| l.claim_sentences()).unwrap_or_default();
    let audited: BTreeMap<&str, &str> = match &lock {
        Some(l) => locked_claims.iter().map(|(id, i)| (*id, l.sentences[*i].text.as_str())).collect(),
        None => BTreeMap::new(),
    };
    let alignment = lock.as_ref().map(|l| lock::align(l, article));
    let bindings = binding::bind_against(registry, article, &audited);
    let nearest_in_article = binding::Nearest::new(article);
    let mut claims = Vec::new();
    // Numbers verified or declared, per sentence, by their keys.
    let mut covered: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (claim, bound) in registry.claims.iter().zip(&bindings) {
        let explained = match bound {
            Binding::Lost { .. } => lost_by_edit(lock.as_ref(), &locked_claims, alignment.as_ref(), claim.id.get_ref()),
            _ => None,
        };
        match (bound, explained) {
            (Binding::Bound(b), _) => {
                let sentence = &article.sentences[b.sentence];
                let keys = covered.entry(b.sentence).or_default();
                for label in &claim.labels {
                    match numbers::parse_one(label.get_ref()) {
                        Ok(n) => {
                            keys.insert(n.key());
                        }
                        Err(m) => diagnostics.push(Diagnostic::at(m, &registry.file, &registry.source, label.span(), "not one number")),
                    }
                }
                let mut checks = Vec::new();
                for (check, cb) in claim.checks.iter().zip(&b.checks) {
                    if let Some(n) = &cb.sentence_number {
                        keys.insert(n.key());
                    }
                    let outcome = match &cb.error {
                        Some(d) => Outcome::Error(d.clone()),
                        None => checks::run(check, cb.quoted.as_ref(), &ctx),
                    };
                    let number_now = cb.sentence_number.as_ref().map(|n| n.text.clone()).filter(|now| Some(now) != cb.registry_number.as_ref());
                    checks.push(CheckReview {
                        kind: check.kind.name(),
                        number: cb.registry_number.clone(),
                        number_now,
                        files: check.kind.files().into_iter().map(String::from).collect(),
                        outcome,
                    });
                }
                let mut review = claim_shell(claim, ClaimBinding::Bound { sentence: sentence_ref(sentence), numbers_changed: b.numbers_changed });
                review.checks = checks;
                review.change = lock.as_ref().map(|l| match locked_claims.get(claim.id.get_ref().as_str()) {
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
                let mut review = claim_shell(claim, ClaimBinding::Lost { nearest: nearest.clone() });
                review.change = Some(Change::Lost {
                    before: before.text.clone(),
                    before_line: before.line,
                    deleted: successor.is_none(),
                    diff: nearest.as_ref().map(|(s, _)| lock::word_diff(&before.text, &s.text)),
                    nearest,
                });
                claims.push(review);
            }
            (Binding::Lost { nearest }, None) => {
                let mut d = Diagnostic::at(
                    format!("claim `{}`: its quote matches no sentence of {}", claim.id.get_ref(), article.path),
                    &registry.file,
                    &registry.source,
                    claim.quote.span(),
                    "no sentence contains this",
                );
                if let Some((i, ratio)) = nearest {
                    let s = &article.sentences[*i];
                    // A note shows the start of a long sentence; its line leads to the rest.
                    let shown = crate::diagnostic::first_chars(&s.text, 400);
                    let cut = if shown.len() < s.text.len() { "…" } else { "" };
                    d = d.with_note(format!("the most similar sentence ({:.0} % alike) is at {}:{}: {shown}{cut}", ratio * 100.0, article.path, s.line));
                }
                diagnostics.push(d);
                let nearest = nearest.map(|(i, r)| (sentence_ref(&article.sentences[i]), r));
                claims.push(claim_shell(claim, ClaimBinding::Lost { nearest }));
            }
            (Binding::Ambiguous { sentences }, _) => {
                let lines = sentences.iter().map(|i| article.sentences[*i].line.to_string()).collect::<Vec<_>>().join(", ");
                diagnostics.push(
                    Diagnostic::at(
                        format!("claim `{}`: its quote matches {} sentences of {}", claim.id.get_ref(), sentences.len(), article.path),
                        &registry.file,
                        &registry.source,
                        claim.quote.span(),
                        "quote more of the sentence",
                    )
                    .with_note(format!("the sentences are at lines {lines}")),
                );
                let sentences = sentences.iter().map(|i| sentence_ref(&article.sentences[*i])).collect();
                claims.push(claim_shell(claim, ClaimBinding::Ambiguous { sentences }));
            }
        }
    }
    let mut unbound = unbound_numbers(registry, article, &covered, diagnostics);
    let lock_review = match (&lock, &alignment) {
        (Some(l), Some(a)) => {
            for u in &mut unbound {
                u.origin = a.origins.get(u.sentence_index).map(|o| o.name());
            }
            Some(lock_review(registry, l, a, &claims))
        }
        _ => None,
    };
    // Each sentence's text once, however many of its numbers are unbound.
    let indices: BTreeSet<usize> = unbound.iter().map(|u| u.sentence_index).collect();
    let unbound_sentences = indices.into_iter().map(|i| (i, article.sentences[i].text.clone())).collect();
    RegistryReview { claims, unbound, unbound_sentences, lock: lock_review, ..base }
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

fn lock_review(registry: &Registry, l: &lock::Lock, a: &lock::Alignment, claims: &[ClaimReview]) -> LockReview {
    let mut stale = Vec::new();
    if l.registry != registry.file || l.manuscript != *registry.manuscript.path.get_ref() {
        stale.push(format!("it was accepted for {} with {}", l.manuscript, l.registry));
    }
    if l.manuscript_sha256 != *registry.manuscript.sha256.get_ref() {
        stale.push(format!(
            "it was accepted at SHA-256 {}…, but the registry records {}…",
            crate::diagnostic::first_chars(&l.manuscript_sha256, 12),
            crate::diagnostic::first_chars(registry.manuscript.sha256.get_ref(), 12)
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
    LockReview {
        file: lock::path_for(&registry.file),
        accepted_sha256: l.manuscript_sha256.clone(),
        stale,
        unchanged: a.origins.iter().filter(|o| matches!(o, lock::Origin::Unchanged(_))).count(),
        changed: a.origins.iter().filter(|o| matches!(o, lock::Origin::Changed(_))).count(),
        new: a.origins.iter().filter(|o| matches!(o, lock::Origin::New)).count(),
        deleted: a.deleted.len(),
        deleted_claim_sentences: a
            .deleted
            .iter()
            .map(|i| &l.sentences[*i])
            .filter(|s| !s.claims.is_empty())
            .map(|s| DeletedSentence { line: s.line, text: s.text.clone(), claims: s.claims.clone() })
            .collect(),
    }
}

fn claim_shell(claim: &registry::Claim, binding: ClaimBinding) -> ClaimReview {
    ClaimReview {
        id: claim.id.get_ref().clone(),
        verdict: *claim.verdict.get_ref(),
        quote: claim.quote.get_ref().clone(),
        finding: claim.finding.clone(),
        sources: claim.sources.iter().map(|s| s.get_ref().clone()).collect(),
        binding,
        checks: Vec::new(),
        change: None,
    }
}

pub fn sentence_ref(s: &crate::article::Sentence) -> SentenceRef {
    SentenceRef {
        index: s.index,
        section: s.section_title(),
        line: s.line,
        col: s.col,
        span: (s.span.start, s.span.end),
        text: s.text.clone(),
        fingerprint: s.fingerprint.clone(),
    }
}

/// Numbers of the article that no check of a bound claim verifies and no label declares.
fn unbound_numbers(
    registry: &Registry,
    article: &Article,
    covered: &BTreeMap<usize, BTreeSet<String>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Unbound> {
    let mut global = BTreeSet::new();
    let mut scoped: Vec<(String, String)> = Vec::new();
    for label in &registry.labels {
        let key = match numbers::parse_one(label.number.get_ref()) {
            Ok(n) => n.key(),
            Err(m) => {
                diagnostics.push(Diagnostic::at(m, &registry.file, &registry.source, label.number.span(), "not one number"));
                continue;
            }
        };
        match &label.quote {
            Some(q) => scoped.push((key, binding::normalise(q.get_ref()))),
            None => {
                global.insert(key);
            }
        }
    }
    let mut found: Vec<(&Number, usize)> = Vec::new();
    for s in &article.sentences {
        // Which scoped labels hold in this sentence is decided once per sentence, not once per
        // number: a long sentence with many numbers is searched once.
        let here: BTreeSet<&str> = scoped.iter().filter(|(_, q)| s.text.contains(q.as_str())).map(|(k, _)| k.as_str()).collect();
        for n in &s.numbers {
            let key = n.key();
            let ok = global.contains(&key) || covered.get(&s.index).is_some_and(|k| k.contains(&key)) || here.contains(key.as_str());
            if !ok {
                found.push((n, s.index));
            }
        }
    }
    let offsets: Vec<usize> = found.iter().map(|(n, i)| article.sentences[*i].source_span(&n.span).start).collect();
    let places = crate::diagnostic::line_cols(&article.source, &offsets);
    found
        .into_iter()
        .zip(places)
        .map(|((n, sentence_index), (line, col))| Unbound { number: n.text.clone(), line, col, sentence_index, origin: None })
        .collect()
}
