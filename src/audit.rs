//! The audit: registries → articles → bindings → checks → a review. This module owns the
//! order of those steps and what makes an audit pass; it never prints (renderers do) and never
//! writes a file.
//!
//! Exit status: 2 when any input could not be read or bound (a diagnostic), else 1 when any
//! check fails, a quote's numbers changed, a number is unbound, or an article's SHA-256 is not
//! the one its registry was audited against, else 0.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::article::Article;
use crate::binding::{self, Binding};
use crate::checks::{self, Context, Outcome};
use crate::diagnostic::Diagnostic;
use crate::numbers::{self, Number};
use crate::paths::Root;
use crate::registry::{self, Registry, Verdict};

/// What to audit.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub root: PathBuf,
    /// Registry files, root-relative; empty means every `claims/*.toml`.
    pub claims: Vec<String>,
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
    pub manuscript: String,
    pub recorded_sha256: String,
    /// The article's SHA-256 now, where it could be read.
    pub actual_sha256: Option<String>,
    pub claims: Vec<ClaimReview>,
    pub unbound: Vec<Unbound>,
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

#[derive(Debug, Clone)]
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
    pub outcome: Outcome,
}

/// A number of the article that no check verifies and no label declares.
#[derive(Debug, Clone)]
pub struct Unbound {
    pub number: String,
    pub line: usize,
    pub col: usize,
    pub sentence: String,
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

    fn needs_attention(&self) -> bool {
        self.registries.iter().any(|r| {
            r.actual_sha256.as_deref() != Some(r.recorded_sha256.as_str())
                || !r.unbound.is_empty()
                || r.claims.iter().any(|c| c.failed())
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
    let mut registries = Vec::new();
    let mut articles: BTreeMap<String, Option<Article>> = BTreeMap::new();
    for file in files {
        let Some(registry) = load_registry(&root, &file, &mut diagnostics) else { continue };
        let article_path = registry.manuscript.path.get_ref().clone();
        let article = articles
            .entry(article_path.clone())
            .or_insert_with(|| load_article(&root, &registry, &mut diagnostics))
            .clone();
        registries.push(review_registry(&root, &registry, article.as_ref(), &mut diagnostics));
    }
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
        Ok(Err(_)) => {
            diagnostics.push(Diagnostic::plain(format!("registry {file} is not UTF-8")));
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
    read_article(path.get_ref(), &full).map_err(|m| diagnostics.push(at(m))).ok()
}

/// Reads and parses an article file.
pub fn read_article(shown: &str, full: &Path) -> Result<Article, String> {
    let bytes = std::fs::read(full).map_err(|e| format!("reading {shown}: {e}"))?;
    Article::parse(shown, &bytes).map_err(|e| e.to_string())
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
        manuscript: registry.manuscript.path.get_ref().clone(),
        recorded_sha256: registry.manuscript.sha256.get_ref().clone(),
        actual_sha256: article.map(|a| a.sha256.clone()),
        claims: Vec::new(),
        unbound: Vec::new(),
        sources,
    };
    let Some(article) = article else {
        let claims = registry.claims.iter().map(|c| claim_shell(c, ClaimBinding::NoArticle)).collect();
        return RegistryReview { claims, ..base };
    };
    let ctx = Context::new(root, article, &registry.sources, &registry.file, &registry.source);
    let bindings = binding::bind(registry, article);
    let mut claims = Vec::new();
    // Numbers verified or declared, per sentence, by their keys.
    let mut covered: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (claim, bound) in registry.claims.iter().zip(&bindings) {
        match bound {
            Binding::Bound(b) => {
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
                    checks.push(CheckReview { kind: check.kind.name(), number: cb.registry_number.clone(), number_now, outcome });
                }
                let mut review = claim_shell(claim, ClaimBinding::Bound { sentence: sentence_ref(sentence), numbers_changed: b.numbers_changed });
                review.checks = checks;
                claims.push(review);
            }
            Binding::Lost { nearest } => {
                let mut d = Diagnostic::at(
                    format!("claim `{}`: its quote matches no sentence of {}", claim.id.get_ref(), article.path),
                    &registry.file,
                    &registry.source,
                    claim.quote.span(),
                    "no sentence contains this",
                );
                if let Some((i, ratio)) = nearest {
                    let s = &article.sentences[*i];
                    d = d.with_note(format!("the most similar sentence ({:.0} % alike) is at {}:{}: {}", ratio * 100.0, article.path, s.line, s.text));
                }
                diagnostics.push(d);
                let nearest = nearest.map(|(i, r)| (sentence_ref(&article.sentences[i]), r));
                claims.push(claim_shell(claim, ClaimBinding::Lost { nearest }));
            }
            Binding::Ambiguous { sentences } => {
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
    let unbound = unbound_numbers(registry, article, &covered, diagnostics);
    RegistryReview { claims, unbound, ..base }
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
    let mut out = Vec::new();
    for s in &article.sentences {
        for n in &s.numbers {
            let key = n.key();
            let ok = global.contains(&key)
                || covered.get(&s.index).is_some_and(|k| k.contains(&key))
                || scoped.iter().any(|(k, q)| *k == key && s.text.contains(q.as_str()));
            if !ok {
                out.push(unbound(article, s, n));
            }
        }
    }
    out
}

fn unbound(article: &Article, s: &crate::article::Sentence, n: &Number) -> Unbound {
    let at = s.source_span(&n.span).start;
    let loc = crate::diagnostic::Location::new(&article.path, &article.source, at..at, "");
    Unbound { number: n.text.clone(), line: loc.line, col: loc.col, sentence: s.text.clone() }
}
