//! The audit lock, `claims/<name>.lock`: the sentences of a manuscript as they read when a
//! clean audit of it was accepted, with the claims each one held. It lets an audit of an edited
//! draft tell unchanged sentences from edited, new and deleted ones without the old file. This
//! module owns the lock's format and the alignment of a draft's sentences with the locked ones;
//! it never writes (`accept` does) and never runs a check.
//!
//! **Architecture Invariant:** a lock is written only by `claimcheck accept`, after a clean
//! audit, never as a side effect of an audit.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::article::Article;
use crate::diagnostic::Diagnostic;
use crate::evidence::store::{Evidence, ReadError};

/// Bumped whenever a field changes meaning or disappears.
pub(crate) const SCHEMA_VERSION: u32 = 1;

/// A sentence pair is "the same sentence, edited" from this word similarity up.
pub(crate) const EDIT_SIMILARITY: f64 = 0.5;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Lock {
    pub schema_version: u32,
    /// The registry this lock belongs to, root-relative.
    pub registry: String,
    /// The manuscript that was audited, root-relative.
    pub manuscript: String,
    /// Its SHA-256 when accepted; the registry's `manuscript.sha256` says the same.
    pub manuscript_sha256: String,
    #[serde(default, rename = "sentence")]
    pub sentences: Vec<LockedSentence>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct LockedSentence {
    /// 1-based line in the accepted manuscript.
    pub line: usize,
    pub fingerprint: String,
    /// Ids of the claims bound to this sentence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<String>,
    pub text: String,
}

/// Where a sentence of the draft came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The locked sentence with this index, word for word.
    Unchanged(usize),
    /// The locked sentence with this index, edited.
    Changed(usize),
    New,
}

impl Origin {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Origin::Unchanged(_) => "unchanged",
            Origin::Changed(_) => "changed",
            Origin::New => "new",
        }
    }

    pub(crate) fn locked(self) -> Option<usize> {
        match self {
            Origin::Unchanged(i) | Origin::Changed(i) => Some(i),
            Origin::New => None,
        }
    }
}

/// The draft's sentences set against the locked ones.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Alignment {
    /// One entry per sentence of the draft, in order.
    pub origins: Vec<Origin>,
    /// Locked sentences with no counterpart in the draft, by index.
    pub deleted: Vec<usize>,
}

impl Alignment {
    /// The draft sentence a locked sentence became, if any.
    pub(crate) fn successor(&self, locked: usize) -> Option<(usize, Origin)> {
        self.origins.iter().enumerate().find(|(_, o)| o.locked() == Some(locked)).map(|(i, o)| (i, *o))
    }
}

/// `claims/name.toml` → `claims/name.lock`.
pub(crate) fn path_for(registry_file: &str) -> String {
    match registry_file.strip_suffix(".toml") {
        Some(stem) => format!("{stem}.lock"),
        None => format!("{registry_file}.lock"),
    }
}

/// Reads the lock of `registry_file`; `Ok(None)` when there is none.
pub(crate) fn read(evidence: &Evidence, registry_file: &str) -> Result<Option<Lock>, Diagnostic> {
    let file = path_for(registry_file);
    match evidence.text(&file) {
        Ok(text) => parse(&file, &text).map(Some),
        Err(ReadError::Path(crate::paths::PathError::Missing(_))) => Ok(None),
        Err(ReadError::Path(e)) => Err(Diagnostic::plain(format!("lock {file}: {e}"))),
        Err(e) => Err(e.at(&file)),
    }
}

/// Parses a lock's text; a malformed lock is an error located in it.
pub(crate) fn parse(file: &str, text: &str) -> Result<Lock, Diagnostic> {
    let lock: Lock = toml::from_str(text).map_err(|e| {
        let span: Range<usize> = e.span().unwrap_or(0..0);
        Diagnostic::at(format!("invalid lock: {}", e.message().trim_end()), file, text, span, "here")
            .with_note("a lock is written by `claimcheck accept`; delete it and accept again rather than edit it")
    })?;
    if lock.schema_version != SCHEMA_VERSION {
        return Err(Diagnostic::plain(format!("{file}: schema-version {} is not {SCHEMA_VERSION}; accept again with this claimcheck", lock.schema_version)));
    }
    Ok(lock)
}

/// The lock of a clean audit: every sentence of `article`, with the claims `bound` puts on it
/// (claim id → sentence index).
pub(crate) fn build(registry_file: &str, manuscript: &str, article: &Article, bound: &BTreeMap<String, usize>) -> Lock {
    let mut claims: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (id, sentence) in bound {
        claims.entry(*sentence).or_default().push(id.clone());
    }
    Lock {
        schema_version: SCHEMA_VERSION,
        registry: registry_file.to_string(),
        manuscript: manuscript.to_string(),
        manuscript_sha256: article.sha256.clone(),
        sentences: article
            .sentences
            .iter()
            .map(|s| LockedSentence { line: s.line, fingerprint: s.fingerprint.clone(), claims: claims.remove(&s.index).unwrap_or_default(), text: s.text.clone() })
            .collect(),
    }
}

/// The lock as TOML, with a header saying who writes it.
pub(crate) fn render(lock: &Lock) -> String {
    let body = toml::to_string(lock).expect("a lock always serialises");
    format!(
        "# Written by `claimcheck accept` after a clean audit of {}; do not edit.\n# `claimcheck audit --draft FILE` compares a draft's sentences with these.\n\n{body}",
        lock.manuscript
    )
}

impl Lock {
    /// Claim id → index of the locked sentence that held it.
    pub(crate) fn claim_sentences(&self) -> BTreeMap<&str, usize> {
        let mut out = BTreeMap::new();
        for (i, s) in self.sentences.iter().enumerate() {
            for c in &s.claims {
                out.insert(c.as_str(), i);
            }
        }
        out
    }
}

/// Sets the draft's sentences against the locked ones. A sentence whose fingerprint is locked
/// is unchanged, wherever it moved (repeated sentences pair in order). Of the rest, the most
/// similar pairs by word diff, at least [`EDIT_SIMILARITY`] alike, are the same sentence edited;
/// what is left is new (draft) or deleted (lock).
pub(crate) fn align(lock: &Lock, article: &Article) -> Alignment {
    let mut by_fingerprint: BTreeMap<&str, VecDeque<usize>> = BTreeMap::new();
    for (i, s) in lock.sentences.iter().enumerate() {
        by_fingerprint.entry(s.fingerprint.as_str()).or_default().push_back(i);
    }
    let mut origins: Vec<Origin> = article
        .sentences
        .iter()
        .map(|s| by_fingerprint.get_mut(s.fingerprint.as_str()).and_then(|q| q.pop_front()).map_or(Origin::New, Origin::Unchanged))
        .collect();
    let mut taken = vec![false; lock.sentences.len()];
    for o in &origins {
        if let Some(i) = o.locked() {
            taken[i] = true;
        }
    }
    let mut candidates = Vec::new();
    for (n, origin) in origins.iter().enumerate() {
        if *origin != Origin::New {
            continue;
        }
        for (o, locked) in lock.sentences.iter().enumerate().filter(|(o, _)| !taken[*o]) {
            let ratio = crate::registry::binding::similarity(&locked.text, &article.sentences[n].text);
            if ratio >= EDIT_SIMILARITY {
                candidates.push((ratio, n, o));
            }
        }
    }
    // Most alike first; ties go to the pair whose positions are closest, then to order.
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.abs_diff(a.2).cmp(&b.1.abs_diff(b.2))).then((a.1, a.2).cmp(&(b.1, b.2))));
    for (_, n, o) in candidates {
        if origins[n] == Origin::New && !taken[o] {
            origins[n] = Origin::Changed(o);
            taken[o] = true;
        }
    }
    let deleted = (0..lock.sentences.len()).filter(|o| !taken[*o]).collect();
    Alignment { origins, deleted }
}

/// A word diff in the `wdiff` style: `[-removed-]{+added+}`, everything else as it reads.
pub(crate) fn word_diff(before: &str, after: &str) -> String {
    let diff = similar::TextDiff::from_words(before, after);
    let mut out = String::new();
    let (mut removed, mut added) = (String::new(), String::new());
    let flush = |out: &mut String, removed: &mut String, added: &mut String| {
        if !removed.is_empty() {
            out.push_str(&format!("[-{}-]", removed.trim_end()));
            if removed.ends_with(' ') && added.is_empty() {
                out.push(' ');
            }
        }
        if !added.is_empty() {
            out.push_str(&format!("{{+{}+}}", added.trim_end()));
            if added.ends_with(' ') {
                out.push(' ');
            }
        }
        removed.clear();
        added.clear();
    };
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Equal => {
                flush(&mut out, &mut removed, &mut added);
                out.push_str(change.value());
            }
            similar::ChangeTag::Delete => removed.push_str(change.value()),
            similar::ChangeTag::Insert => added.push_str(change.value()),
        }
    }
    flush(&mut out, &mut removed, &mut added);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCEPTED: &str = "# T\n\nGraph replay took 14.96 µs. The stream took 19.40 µs.\n\nFusion helps here. Nothing else changes.\n";

    fn lock_of(text: &str) -> Lock {
        let a = Article::parse("a.md", text.as_bytes()).unwrap();
        build("claims/a.toml", "a.md", &a, &BTreeMap::from([("C1".to_string(), 0)]))
    }

    fn align_with(draft: &str) -> Alignment {
        align(&lock_of(ACCEPTED), &Article::parse("a.md", draft.as_bytes()).unwrap())
    }

    #[test]
    fn an_identical_draft_is_unchanged_throughout() {
        let a = align_with(ACCEPTED);
        assert_eq!(a.origins, [Origin::Unchanged(0), Origin::Unchanged(1), Origin::Unchanged(2), Origin::Unchanged(3)]);
        assert!(a.deleted.is_empty());
    }

    #[test]
    fn an_edited_number_is_a_changed_sentence() {
        let a = align_with(&ACCEPTED.replace("19.40", "19.90"));
        assert_eq!(a.origins[1], Origin::Changed(1));
        assert_eq!(a.origins.iter().filter(|o| matches!(o, Origin::Unchanged(_))).count(), 3);
    }

    #[test]
    fn deleted_and_new_sentences_are_told_apart_from_edits() {
        let draft = ACCEPTED.replace("Fusion helps here. ", "").replace("Nothing else changes.", "Nothing else changes. A kernel took 7.5 µs on Tuesday.");
        let a = align_with(&draft);
        assert_eq!(a.deleted, [2]);
        assert_eq!(a.origins.last(), Some(&Origin::New));
    }

    #[test]
    fn a_moved_sentence_is_unchanged() {
        let draft = "# T\n\nThe stream took 19.40 µs. Graph replay took 14.96 µs.\n\nFusion helps here. Nothing else changes.\n";
        let a = align_with(draft);
        assert_eq!(a.origins[0], Origin::Unchanged(1));
        assert_eq!(a.origins[1], Origin::Unchanged(0));
    }

    #[test]
    fn the_lock_round_trips_and_names_its_claims() {
        let lock = lock_of(ACCEPTED);
        let back = parse("claims/a.lock", &render(&lock)).unwrap();
        assert_eq!(back, lock);
        assert_eq!(back.claim_sentences().get("C1"), Some(&0));
        assert_eq!(path_for("claims/a.toml"), "claims/a.lock");
    }

    #[test]
    fn a_malformed_lock_is_located() {
        let text = render(&lock_of(ACCEPTED)).replace("fingerprint =", "fingerprnt =");
        let err = parse("claims/a.lock", &text).unwrap_err();
        assert!(err.message.contains("fingerprnt"), "{}", err.message);
        assert!(err.position().unwrap().starts_with("claims/a.lock:"), "{:?}", err.position());
    }

    #[test]
    fn word_diffs_mark_removed_and_added_words() {
        assert_eq!(word_diff("took 111.05 µs to run", "took 112.05 µs to run"), "took [-111.05-]{+112.05+} µs to run");
        assert_eq!(word_diff("a b c", "a c"), "a [-b-] c");
    }
}
