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

use crate::checks::Outcome;
use crate::commands::audit::{self, ClaimBinding, Review};
use crate::registry::lock;
use crate::status::Failure;
use crate::workspace::Workspace;

/// What `accept` did.
#[derive(Debug)]
pub(crate) enum Accepted {
    /// One line per file written or found up to date.
    Written(Vec<String>),
    /// The audit is not clean (exit 1): the review, and why; nothing was written.
    Refused(Box<Review>, Vec<String>),
}

/// Accepts the audit of every registry of the workspace, from the very articles it audited.
pub(crate) fn accept(ws: &Workspace) -> Result<Accepted, Failure> {
    let review = audit::audit(ws);
    let errors = review.errors();
    if !errors.is_empty() {
        return Err(Failure::Input(errors));
    }
    if ws.registries.iter().any(|l| l.draft_of.is_some()) {
        return Err(Failure::Usage("a draft is audited against the lock, never accepted; accept the manuscript itself".into()));
    }
    let reasons = unclean(&review);
    if !reasons.is_empty() {
        return Ok(Accepted::Refused(Box::new(review), reasons));
    }
    let Some(evidence) = ws.evidence() else { return Err(Failure::Input(ws.diagnostics.clone())) };
    let root = evidence.root();
    // Everything is prepared before anything is written, so that a problem found on the second
    // registry leaves the first untouched.
    let mut writes: Vec<(String, String)> = Vec::new();
    let mut lines = Vec::new();
    for (loaded, r) in ws.registries.iter().zip(&review.registries) {
        let registry = &loaded.registry;
        let Some(article) = loaded.article.as_deref() else { continue };
        let bound: BTreeMap<String, usize> = r
            .claims
            .iter()
            .filter_map(|c| match &c.binding {
                ClaimBinding::Bound { sentence, .. } => Some((c.id.clone(), sentence.index)),
                _ => None,
            })
            .collect();
        let file = &registry.file;
        let lock_file = lock::path_for(file);
        let text = lock::render(&lock::build(file, registry.manuscript.path.get_ref(), article, &bound));
        let current = loaded.lock.as_ref().map(lock::render);
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
            lines.push(format!("{file}: manuscript.sha256 {}… → {}…", crate::hash::short(recorded), &article.sha256[..12]));
            writes.push((file.clone(), source));
        }
    }
    for (rel, text) in writes {
        root.write(&rel, text.as_bytes()).map_err(|e| Failure::writing(&rel, e))?;
    }
    Ok(Accepted::Written(lines))
}

/// Why a review is not clean enough to accept; empty when it is.
pub(crate) fn unclean(review: &Review) -> Vec<String> {
    let mut out = Vec::new();
    for r in &review.registries {
        for c in &r.claims {
            match &c.binding {
                ClaimBinding::Bound { numbers_changed: false, .. } => {}
                ClaimBinding::Bound { numbers_changed: true, .. } => out.push(format!("{}: a quoted number changed", c.id)),
                _ => out.push(format!("{}: its quote does not bind to one sentence", c.id)),
            }
            let failing = c.checks.iter().filter(|k| !matches!(k.outcome, Outcome::Pass { .. } | Outcome::Wrong { .. })).count();
            if failing > 0 {
                out.push(format!("{}: {failing} checks do not pass", c.id));
            }
        }
        if !r.unbound.is_empty() && !r.unbound_warns {
            out.push(format!("{}: {} unbound numbers", r.manuscript, r.unbound.len()));
        }
    }
    out
}
