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

/// At most this many locked sentences are diffed against each new sentence of a draft: those
/// sharing the most words with it. An edit keeps at least half its words, so its original is
/// among them unless many locked sentences repeat the same words.
pub(crate) const MAX_EDIT_CANDIDATES: usize = 16;

/// A word diff compares at most this many words a side after their common beginning and end;
/// past it the middles are shown as removed and added whole. The diff's cost grows with the
/// product of the two lengths, and no reader wants a word diff of a megabyte.
pub(crate) const MAX_DIFF_WORDS: usize = 500;

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
    /// 1-based line in the accepted manuscript, or in `file`.
    pub line: usize,
    /// The file the manuscript brings in that held it (a LaTeX `\input`); absent for the
    /// manuscript's own text, as in every lock written before manuscripts brought files in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub fingerprint: String,
    /// Ids of the claims bound to this sentence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<String>,
    pub text: String,
}

impl LockedSentence {
    /// Where it stood when accepted: `line 12 of the accepted text`, or of a file the
    /// manuscript brought in.
    pub(crate) fn accepted_place(&self) -> String {
        match &self.file {
            None => format!("line {} of the accepted text", self.line),
            Some(file) => format!("line {} of {file} as accepted", self.line),
        }
    }
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

const REWRITE: &str = "a lock is written by `claimcheck accept`; delete it and accept again rather than edit it";

/// Parses a lock's text; a malformed lock is an error located in it. The schema version is
/// read first, so that a lock of another version is named as such rather than as a list of
/// fields this version does not know.
pub fn parse(file: &str, text: &str) -> Result<Lock, Diagnostic> {
    let tree = toml::de::DeTable::parse(text).map_err(|e| Diagnostic::toml("invalid lock", file, text, &e).with_note(REWRITE))?;
    if let Some(version) = tree.get_ref().get("schema-version") {
        let span: Range<usize> = version.span();
        let found = match version.get_ref() {
            toml::de::DeValue::Integer(i) => i.as_str().to_string(),
            _ => text.get(span.clone()).unwrap_or("?").to_string(),
        };
        if found.parse::<u32>().ok() != Some(SCHEMA_VERSION) {
            return Err(Diagnostic::at(format!("{file}: schema-version {found} is not {SCHEMA_VERSION}"), file, text, span, "another version")
                .with_note("accept again with this claimcheck to write a lock it reads"));
        }
    }
    let lock: Lock = toml::from_str(text).map_err(|e| Diagnostic::toml("invalid lock", file, text, &e).with_note(REWRITE))?;
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
            .map(|s| LockedSentence {
                line: s.line,
                file: (s.file != article.path).then(|| s.file.clone()),
                fingerprint: s.fingerprint.clone(),
                claims: claims.remove(&s.index).unwrap_or_default(),
                text: s.text.clone(),
            })
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
    let mut origins: Vec<Origin> =
        article.sentences.iter().map(|s| by_fingerprint.get_mut(s.fingerprint.as_str()).and_then(|q| q.pop_front()).map_or(Origin::New, Origin::Unchanged)).collect();
    let mut taken = vec![false; lock.sentences.len()];
    for o in &origins {
        if let Some(i) = o.locked() {
            taken[i] = true;
        }
    }
    let mut candidates = Vec::new();
    if origins.contains(&Origin::New) {
        // Only locked sentences that share enough words with a new one can be half alike, so
        // an index of their words nominates the few worth a word diff; pairing every new
        // sentence with every locked one is quadratic in a long draft.
        let index = crate::registry::binding::WordIndex::new(lock.sentences.iter().map(|s| s.text.as_str()));
        for (n, origin) in origins.iter().enumerate() {
            if *origin != Origin::New {
                continue;
            }
            let words = crate::registry::binding::compared_words(&article.sentences[n].text);
            for (o, _) in index.candidates(&words, MAX_EDIT_CANDIDATES, EDIT_SIMILARITY, |o| !taken[o]) {
                let ratio = crate::registry::binding::similarity(&lock.sentences[o].text, &article.sentences[n].text);
                if ratio >= EDIT_SIMILARITY {
                    candidates.push((ratio, n, o));
                }
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
    pair_number_edits(lock, article, &mut origins, &mut taken);
    let deleted = (0..lock.sentences.len()).filter(|o| !taken[*o]).collect();
    Alignment { origins, deleted }
}

/// Pairs what is still new with what is still unpaired when the two read the same with their
/// numbers masked: the same sentence with its numbers edited. A table cell is often one number
/// and nothing else, and no word diff finds `66` and `67` alike. Sentences of one masked form
/// pair in order, which keeps this linear however many cells changed.
fn pair_number_edits(lock: &Lock, article: &Article, origins: &mut [Origin], taken: &mut [bool]) {
    use crate::article::numbers;
    use crate::registry::binding::skeleton;
    if !origins.contains(&Origin::New) {
        return;
    }
    let masked = |text: &str| skeleton(text, &numbers::extract(text, &[]));
    let mut by_form: BTreeMap<String, VecDeque<usize>> = BTreeMap::new();
    for o in (0..lock.sentences.len()).filter(|o| !taken[*o]) {
        by_form.entry(masked(&lock.sentences[o].text)).or_default().push_back(o);
    }
    for (n, origin) in origins.iter_mut().enumerate() {
        if *origin != Origin::New {
            continue;
        }
        if let Some(o) = by_form.get_mut(&masked(&article.sentences[n].text)).and_then(VecDeque::pop_front) {
            *origin = Origin::Changed(o);
            taken[o] = true;
        }
    }
}

/// A word diff in the `wdiff` style: `[-removed-]{+added+}`, everything else as it reads.
/// Removing the marks and the added words gives `before`; removing the marks and the removed
/// words gives `after`.
pub fn word_diff(before: &str, after: &str) -> String {
    let (a, b) = (tokens(before), tokens(after));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (middle_a, middle_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    if middle_a.len().max(middle_b.len()) <= 2 * MAX_DIFF_WORDS {
        let diff = similar::TextDiff::from_words(before, after);
        return render_diff(diff.iter_all_changes().map(|c| (c.tag(), c.value())));
    }
    // Too long to diff word by word: the common ends read as they are, the middles as one
    // removal and one addition.
    let changes = a[..prefix]
        .iter()
        .map(|t| (similar::ChangeTag::Equal, *t))
        .chain(middle_a.iter().map(|t| (similar::ChangeTag::Delete, *t)))
        .chain(middle_b.iter().map(|t| (similar::ChangeTag::Insert, *t)))
        .chain(a[a.len() - suffix..].iter().map(|t| (similar::ChangeTag::Equal, *t)));
    render_diff(changes)
}

/// Words and the whitespace between them, as `similar` splits text for a word diff.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut space = None;
    for (i, c) in text.char_indices() {
        let is_space = c.is_whitespace();
        if space.is_some_and(|s| s != is_space) {
            out.push(&text[start..i]);
            start = i;
        }
        space = Some(is_space);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Renders a sequence of changes in the `wdiff` style.
fn render_diff<'a>(changes: impl Iterator<Item = (similar::ChangeTag, &'a str)>) -> String {
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
    for (tag, value) in changes {
        match tag {
            similar::ChangeTag::Equal => {
                flush(&mut out, &mut removed, &mut added);
                out.push_str(value);
            }
            similar::ChangeTag::Delete => removed.push_str(value),
            similar::ChangeTag::Insert => added.push_str(value),
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
    fn an_edited_cell_is_a_changed_sentence_however_short() {
        let table = "# T\n\n| a | b |\n|---|---|\n| x | 66 |\n| y | 0.21 |\n";
        let a = align(&lock_of(table), &Article::parse("a.md", table.replace("| 66 |", "| 67 |").as_bytes()).unwrap());
        let cell = 3;
        assert_eq!(a.origins[cell], Origin::Changed(cell));
        assert!(a.deleted.is_empty());
        // A cell that changed more than its numbers is new, and the old one deleted.
        let a = align(&lock_of(table), &Article::parse("a.md", table.replace("| 66 |", "| none |").as_bytes()).unwrap());
        assert_eq!((a.origins[cell], a.deleted.as_slice()), (Origin::New, &[cell][..]));
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
    fn a_huge_diff_is_bounded_and_keeps_its_common_ends() {
        let before = format!("start {}end", "a ".repeat(1_000_000));
        let after = format!("start {}end", "b ".repeat(1_000_000));
        let started = std::time::Instant::now();
        let d = word_diff(&before, &after);
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
        assert!(d.starts_with("start [-a a"), "{}", &d[..40]);
        assert!(d.ends_with("+} end"), "{}", &d[d.len() - 40..]);
    }

    #[test]
    fn tokens_split_words_and_spaces_as_similar_does() {
        for text in ["a  b\tc ", " lead", "", "µs 1.5 µs"] {
            let ours: Vec<&str> = tokens(text);
            let theirs: Vec<&str> = similar::TextDiff::from_words(text, text).iter_all_changes().map(|c| c.value()).collect();
            assert_eq!(ours, theirs, "{text:?}");
        }
    }

    #[test]
    fn a_long_draft_aligns_in_seconds() {
        let many: String = (0..50_000).map(|i| format!("Sentence number {i} is here. ")).collect();
        let lock = lock_of(&format!("# T\n\n{many}\n"));
        let edited: String = (0..50_000).map(|i| format!("Sentence number {i} is there. ")).collect();
        let started = std::time::Instant::now();
        let a = align(&lock, &Article::parse("a.md", format!("# T\n\n{edited}\n").as_bytes()).unwrap());
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        assert_eq!(a.origins[123], Origin::Changed(123));
    }

    #[test]
    fn another_schema_version_is_located() {
        let text = render(&lock_of(ACCEPTED)).replace("schema-version = 1", "schema-version = 7\nfuture = true");
        let err = parse("claims/a.lock", &text).unwrap_err();
        assert!(err.message.contains("schema-version 7 is not 1"), "{}", err.message);
        let line = text.lines().position(|l| l.starts_with("schema-version")).unwrap() + 1;
        assert_eq!(err.position().unwrap(), format!("claims/a.lock:{line}:18"));
    }

    #[test]
    fn word_diffs_mark_removed_and_added_words() {
        assert_eq!(word_diff("took 111.05 µs to run", "took 112.05 µs to run"), "took [-111.05-]{+112.05+} µs to run");
        assert_eq!(word_diff("a b c", "a c"), "a [-b-] c");
    }

    /// The word diff loses nothing: read without its additions it is the sentence before,
    /// read without its removals the sentence after (word for word; runs of spaces count as
    /// one, as they do in sentences).
    mod properties {
        use proptest::prelude::*;

        use super::*;

        /// Keeps the text outside `[-…-]` and `{+…+}`, and the inside of the kind kept.
        fn side(diff: &str, keep_removed: bool) -> String {
            let mut out = String::new();
            let mut rest = diff;
            loop {
                let next = [("[-", "-]", keep_removed), ("{+", "+}", !keep_removed)]
                    .into_iter()
                    .filter_map(|(open, close, keep)| rest.find(open).map(|i| (i, open, close, keep)))
                    .min_by_key(|(i, ..)| *i);
                let Some((i, open, close, keep)) = next else {
                    out.push_str(rest);
                    return out;
                };
                out.push_str(&rest[..i]);
                let inner = &rest[i + open.len()..];
                let end = inner.find(close).expect("a mark is closed");
                if keep {
                    out.push_str(&inner[..end]);
                }
                rest = &inner[end + close.len()..];
            }
        }

        fn words(text: &str) -> Vec<&str> {
            text.split_whitespace().collect()
        }

        fn sentence() -> impl Strategy<Value = String> {
            proptest::collection::vec(prop_oneof!["[a-e]{1,3}", "[0-9]{1,3}(\\.[0-9]{1,2})?", Just("µs".to_string())], 0..30).prop_map(|w| w.join(" "))
        }

        proptest! {
            #[test]
            fn the_word_diff_reconstructs_both_sides(before in sentence(), after in sentence()) {
                let diff = word_diff(&before, &after);
                let (old, new) = (side(&diff, true), side(&diff, false));
                prop_assert_eq!(words(&old), words(&before), "{}", diff);
                prop_assert_eq!(words(&new), words(&after), "{}", diff);
            }
        }

        #[test]
        fn a_diff_past_the_word_limit_reconstructs_both_sides() {
            let before: String = (0..3 * MAX_DIFF_WORDS).map(|i| format!("w{} ", i % 7)).collect();
            let after: String = (0..3 * MAX_DIFF_WORDS).map(|i| format!("w{} ", i % 5)).collect();
            let diff = word_diff(&before, &after);
            assert_eq!(words(&side(&diff, true)), words(&before));
            assert_eq!(words(&side(&diff, false)), words(&after));
        }
    }
}
