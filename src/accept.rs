//! `claimcheck accept`: records a clean audit. It writes each registry's lock
//! (`claims/<name>.lock`) and, where the manuscript changed since the registry recorded it, the
//! registry's `manuscript.sha256`, editing that one string in place so that the rest of the
//! registry stays as its authors wrote it. It is the only writer of locks.
//!
//! Clean means: no input error, every claim bound to its sentence exactly, every check
//! passing, and every number of the manuscript bound. What accepting resolves is allowed: a
//! changed SHA-256, edited sentences, claims not yet locked, a stale lock. Anything else refuses
//! the whole acceptance, and nothing is written.

use std::collections::BTreeMap;

use crate::audit::{self, ClaimBinding, Options, Review};
use crate::checks::Outcome;
use crate::diagnostic::Diagnostic;
use crate::lock;
use crate::paths::Root;

/// Why nothing was accepted.
#[derive(Debug)]
pub enum Refused {
    /// The input could not be read (exit 2).
    Input(Vec<Diagnostic>),
    /// The audit is not clean (exit 1): the review, and why.
    NotClean(Box<Review>, Vec<String>),
}

/// Accepts the audit of every registry `options` names; returns one line per file written or
/// found up to date.
pub fn accept(options: &Options) -> Result<Vec<String>, Refused> {
    let options = Options { draft: None, ..options.clone() };
    let review = audit::audit(&options);
    let errors = review.errors();
    if !errors.is_empty() {
        return Err(Refused::Input(errors));
    }
    let reasons = unclean(&review);
    if !reasons.is_empty() {
        return Err(Refused::NotClean(Box::new(review), reasons));
    }
    let root = Root::new(&options.root).map_err(|e| Refused::Input(vec![Diagnostic::plain(format!("cannot open root {}: {e}", options.root.display()))]))?;
    let files = audit::registry_files(&root, &options.claims).map_err(|d| Refused::Input(vec![d]))?;
    // Everything is prepared before anything is written, so that a problem found on the second
    // registry leaves the first untouched.
    let mut writes: Vec<(String, String)> = Vec::new();
    let mut lines = Vec::new();
    for file in &files {
        let Some(r) = review.registries.iter().find(|r| r.file == *file) else { continue };
        let mut diagnostics = Vec::new();
        let registry = audit::load_registry(&root, file, &mut diagnostics).ok_or_else(|| Refused::Input(diagnostics.clone()))?;
        let article = audit::load_article(&root, &registry, &mut diagnostics).ok_or_else(|| Refused::Input(diagnostics.clone()))?;
        // The lock must hold the sentences that were audited, not a later edit.
        if r.actual_sha256.as_deref() != Some(article.sha256.as_str()) {
            return Err(Refused::Input(vec![Diagnostic::plain(format!("{} changed while it was being accepted; run accept again", r.manuscript))]));
        }
        let bound: BTreeMap<String, usize> = r
            .claims
            .iter()
            .filter_map(|c| match &c.binding {
                ClaimBinding::Bound { sentence, .. } => Some((c.id.clone(), sentence.index)),
                _ => None,
            })
            .collect();
        let lock_file = lock::path_for(file);
        let text = lock::render(&lock::build(file, registry.manuscript.path.get_ref(), &article, &bound));
        let current = root.join_lexically(&lock_file).ok().and_then(|p| std::fs::read_to_string(p).ok());
        if current.as_deref() == Some(text.as_str()) {
            lines.push(format!("{lock_file}: up to date ({} sentences, {} claims)", article.sentences.len(), bound.len()));
        } else {
            lines.push(format!("{lock_file}: written ({} sentences, {} claims)", article.sentences.len(), bound.len()));
            writes.push((lock_file, text));
        }
        let recorded = registry.manuscript.sha256.get_ref();
        if *recorded != article.sha256 {
            let span = registry.manuscript.sha256.span();
            let mut source = registry.source.clone();
            source.replace_range(span, &format!("\"{}\"", article.sha256));
            lines.push(format!("{file}: manuscript.sha256 {}… → {}…", crate::diagnostic::first_chars(recorded, 12), crate::diagnostic::first_chars(&article.sha256, 12)));
            writes.push((file.clone(), source));
        }
    }
    for (rel, text) in writes {
        let path = root.join_lexically(&rel).map_err(|e| Refused::Input(vec![Diagnostic::plain(format!("{rel}: {e}"))]))?;
        crate::paths::write_atomic(&path, text.as_bytes()).map_err(|e| Refused::Input(vec![Diagnostic::plain(format!("writing {rel}: {e}"))]))?;
    }
    Ok(lines)
}

/// Why a review is not clean enough to accept; empty when it is.
pub fn unclean(review: &Review) -> Vec<String> {
    let mut out = Vec::new();
    for r in &review.registries {
        for c in &r.claims {
            match &c.binding {
                ClaimBinding::Bound { numbers_changed: false, .. } => {}
                ClaimBinding::Bound { numbers_changed: true, .. } => out.push(format!("{}: a quoted number changed", c.id)),
                _ => out.push(format!("{}: its quote does not bind to one sentence", c.id)),
            }
            let failing = c.checks.iter().filter(|k| !matches!(k.outcome, Outcome::Pass { .. })).count();
            if failing > 0 {
                out.push(format!("{}: {failing} checks do not pass", c.id));
            }
        }
        if !r.unbound.is_empty() {
            out.push(format!("{}: {} unbound numbers", r.manuscript, r.unbound.len()));
        }
    }
    out
}
