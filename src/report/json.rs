//! The machine-readable review: serde wire types kept apart from the internal review, with a
//! `schema_version`, so that a change to an internal struct cannot silently change the file
//! that users parse. Keys are sorted by declaration order and output is deterministic.

use serde::Serialize;

use crate::checks::Outcome;
use crate::commands::audit::{CellPlace, CellRef, Change, ClaimBinding, Review, SentenceRef};
use crate::registry::TableRef;

/// Bumped whenever a field changes meaning or disappears. Version 2: an unbound number names
/// its sentence by index (`sentence`), and each such sentence's text is given once in the
/// registry's `unbound_sentences`. Version 3: a claim may name a table cell instead of quoting
/// a sentence; its `quote` is then absent and `cell` gives the section, row and column it
/// names, and a sentence that is a table cell carries `cell` with its row and column. Within
/// version 3, a sentence, an unbound number and a warning name their `file`, whose `line` and
/// `col` they give: the manuscript's path, or that of a file it brings in (a LaTeX `\input`),
/// which no manuscript did before; a label's warning names the registry. A claim's `cell`
/// gives the `table` its registry names, a number (its place) or a string (its name), where it
/// names one: a field added, none changed.
pub const SCHEMA_VERSION: u32 = 3;

#[derive(Debug, Serialize)]
pub(crate) struct WireReview {
    pub schema_version: u32,
    pub exit_code: u8,
    pub counts: std::collections::BTreeMap<String, usize>,
    pub registries: Vec<WireRegistry>,
    pub diagnostics: Vec<WireDiagnostic>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireRegistry {
    pub file: String,
    pub manuscript: WireManuscript,
    /// The comparison with `claims/<name>.lock`, where the registry has one.
    pub lock: Option<WireLock>,
    pub sources: Vec<WireSource>,
    pub claims: Vec<WireClaim>,
    pub unbound: Vec<WireUnbound>,
    /// The sentences that hold unbound numbers, each once, in article order.
    pub unbound_sentences: Vec<WireUnboundSentence>,
    /// `error` (unbound numbers fail the audit) or `warn` (they are only reported).
    pub unbound_policy: String,
    /// What the registry ignores (`section "X"`, or `the tables of section "X"`), with how many
    /// numbers each holds.
    pub ignored: std::collections::BTreeMap<String, usize>,
    /// Numbers bound as the operands of a passing `arith` check of their claim.
    pub inputs: Vec<WireInput>,
    /// What of the article could not be read as written (HTML that is not well formed), each
    /// at its line and column; added in version 3 without a bump, since no field changed.
    pub warnings: Vec<WireWarning>,
    /// Labels of the registry that declare no number of the article, each at its line and column
    /// in the registry (`file`); added in version 3 without a bump, since no field changed.
    pub unused_labels: Vec<WireWarning>,
}

#[derive(Debug, Serialize)]
pub struct WireWarning {
    /// The file: the manuscript, a file it brings in, or for a label the registry.
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

#[derive(Debug, Serialize)]
pub struct WireInput {
    pub claim: String,
    pub number: String,
}

#[derive(Debug, Serialize)]
pub struct WireUnboundSentence {
    pub index: usize,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireLock {
    pub file: String,
    pub accepted_sha256: String,
    /// Why the lock does not describe the registry as it is (empty when it does).
    pub stale: Vec<String>,
    pub sentences: WireSentenceCounts,
    pub deleted_claim_sentences: Vec<WireDeleted>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireSentenceCounts {
    pub unchanged: usize,
    pub changed: usize,
    pub new: usize,
    pub deleted: usize,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireDeleted {
    pub line: usize,
    pub text: String,
    pub claims: Vec<String>,
}

/// A claim's sentence against the lock.
#[derive(Debug, Serialize)]
pub(crate) struct WireChange {
    /// `unchanged`, `edited`, `number-changed`, `lost` or `not-locked`.
    pub state: String,
    /// The sentence as accepted.
    pub before: Option<String>,
    /// A word diff from the accepted sentence: `[-removed-]{+added+}`.
    pub diff: Option<String>,
    /// For a lost claim: whether its sentence was deleted (else rewritten).
    pub deleted: Option<bool>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireManuscript {
    pub path: String,
    /// With `audit --draft`: the manuscript the draft stands in for.
    pub draft_of: Option<String>,
    pub sha256: Option<String>,
    pub recorded_sha256: String,
    pub sha256_matches: bool,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct WireSource {
    pub key: String,
    pub title: String,
    pub url: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireClaim {
    pub id: String,
    pub verdict: String,
    pub status: String,
    /// The quote, for a claim that binds a sentence by one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// The table cell, for a claim that names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<WireCellRef>,
    pub finding: String,
    pub sources: Vec<String>,
    pub binding: WireBinding,
    pub change: Option<WireChange>,
    pub checks: Vec<WireCheck>,
}

#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub(crate) enum WireBinding {
    Bound { numbers_changed: bool, sentence: WireSentence },
    Lost { nearest: Option<WireSentence>, similarity: Option<f64> },
    Ambiguous { sentences: Vec<WireSentence> },
    NoArticle,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireSentence {
    pub index: usize,
    pub section: String,
    /// The manuscript, or the file it brings in that holds the sentence.
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub span: [usize; 2],
    pub text: String,
    pub fingerprint: String,
    /// The row and column, when the sentence is a table cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<WireCellPlace>,
}

/// A table cell as a claim names it.
#[derive(Debug, Serialize)]
pub(crate) struct WireCellRef {
    /// The section the registry names, where it names one.
    pub section: Option<String>,
    pub row: String,
    pub column: String,
    /// The table the registry names, where it names one: its place among those that hold the
    /// row and column (a number), or its name (a string). Absent where it names none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<serde_json::Value>,
}

/// Where a table cell stands: the texts of its row's first cell and of its column's header.
#[derive(Debug, Serialize)]
pub(crate) struct WireCellPlace {
    pub row: String,
    pub column: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireCheck {
    pub kind: String,
    pub number: Option<String>,
    pub number_now: Option<String>,
    pub outcome: String,
    pub expected: Option<String>,
    pub observed: Option<String>,
    pub detail: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireUnbound {
    pub number: String,
    /// The manuscript, or the file it brings in that holds the number.
    pub file: String,
    pub line: usize,
    pub col: usize,
    /// The index of its sentence, whose text is in the registry's `unbound_sentences`.
    pub sentence: usize,
    /// Against the lock: `new`, `changed` or `unchanged`.
    pub origin: Option<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireDiagnostic {
    pub message: String,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub col: Option<usize>,
    pub notes: Vec<String>,
}

impl From<&crate::diagnostic::Diagnostic> for WireDiagnostic {
    fn from(d: &crate::diagnostic::Diagnostic) -> Self {
        WireDiagnostic {
            message: d.message.clone(),
            file: d.location.as_ref().map(|l| l.file.clone()),
            line: d.location.as_ref().map(|l| l.line),
            col: d.location.as_ref().map(|l| l.col),
            notes: d.notes.clone(),
        }
    }
}

fn sentence(s: &SentenceRef) -> WireSentence {
    WireSentence {
        index: s.index,
        section: s.section.clone(),
        file: s.file.clone(),
        line: s.line,
        col: s.col,
        span: [s.span.0, s.span.1],
        text: s.text.clone(),
        fingerprint: s.fingerprint.clone(),
        cell: s.cell.as_ref().map(|CellPlace { row, column }| WireCellPlace { row: row.clone(), column: column.clone() }),
    }
}

/// The wire form of a review.
pub(crate) fn wire(review: &Review) -> WireReview {
    let registries = review
        .registries
        .iter()
        .map(|r| WireRegistry {
            file: r.file.clone(),
            lock: r.lock.as_ref().map(|l| WireLock {
                file: l.file.clone(),
                accepted_sha256: l.accepted_sha256.clone(),
                stale: l.stale.clone(),
                sentences: WireSentenceCounts { unchanged: l.unchanged, changed: l.changed, new: l.new, deleted: l.deleted },
                deleted_claim_sentences: l.deleted_claim_sentences.iter().map(|d| WireDeleted { line: d.line, text: d.text.clone(), claims: d.claims.clone() }).collect(),
            }),
            manuscript: WireManuscript {
                path: r.manuscript.clone(),
                draft_of: r.draft_of.clone(),
                sha256: r.actual_sha256.clone(),
                recorded_sha256: r.recorded_sha256.clone(),
                sha256_matches: r.actual_sha256.as_deref() == Some(r.recorded_sha256.as_str()),
            },
            sources: r.sources.iter().map(|s| WireSource { key: s.key.clone(), title: s.title.clone(), url: s.url.clone() }).collect(),
            claims: r
                .claims
                .iter()
                .map(|c| WireClaim {
                    id: c.id.clone(),
                    verdict: c.verdict.to_string(),
                    status: c.status().to_string(),
                    quote: c.quote.clone(),
                    cell: c.cell.as_ref().map(|CellRef { section, row, column, table }| WireCellRef {
                        section: section.clone(),
                        row: row.clone(),
                        column: column.clone(),
                        table: table.as_ref().map(|t| match t {
                            TableRef::Place(n) => serde_json::Value::from(*n),
                            TableRef::Named(name) => serde_json::Value::from(name.as_str()),
                        }),
                    }),
                    finding: c.finding.clone(),
                    sources: c.sources.clone(),
                    binding: match &c.binding {
                        ClaimBinding::Bound { sentence: s, numbers_changed } => WireBinding::Bound { numbers_changed: *numbers_changed, sentence: sentence(s) },
                        ClaimBinding::Lost { nearest } => {
                            WireBinding::Lost { nearest: nearest.as_ref().map(|(s, _)| sentence(s)), similarity: nearest.as_ref().map(|(_, r)| (r * 1000.0).round() / 1000.0) }
                        }
                        ClaimBinding::Ambiguous { sentences } => WireBinding::Ambiguous { sentences: sentences.iter().map(sentence).collect() },
                        ClaimBinding::NoArticle => WireBinding::NoArticle,
                    },
                    change: c.change.as_ref().map(change),
                    checks: c.checks.iter().map(check).collect(),
                })
                .collect(),
            unbound: r
                .unbound
                .iter()
                .map(|u| WireUnbound { number: u.number.clone(), file: u.at.file.clone(), line: u.line, col: u.col, sentence: u.sentence_index, origin: u.origin.map(String::from) })
                .collect(),
            unbound_sentences: r.unbound_sentences.iter().map(|(index, text)| WireUnboundSentence { index: *index, text: text.clone() }).collect(),
            unbound_policy: if r.unbound_warns { "warn" } else { "error" }.into(),
            ignored: r.ignored.clone(),
            inputs: r.inputs.iter().map(|i| WireInput { claim: i.claim.clone(), number: i.number.clone() }).collect(),
            warnings: r.warnings.iter().map(|w| WireWarning { file: w.file.clone(), line: w.line, col: w.col, message: w.message.clone() }).collect(),
            unused_labels: r.unused_labels.iter().map(|u| WireWarning { file: u.at.file.clone(), line: u.at.line, col: u.at.col, message: u.message.clone() }).collect(),
        })
        .collect();
    WireReview {
        schema_version: SCHEMA_VERSION,
        exit_code: review.exit_code(),
        counts: review.counts().into_iter().map(|(v, n)| (v.to_string(), n)).collect(),
        registries,
        diagnostics: review.diagnostics.iter().map(WireDiagnostic::from).collect(),
    }
}

fn change(c: &Change) -> WireChange {
    let (before, diff, deleted) = match c {
        Change::Unchanged | Change::NotLocked => (None, None, None),
        Change::Edited { before, diff } | Change::NumberChanged { before, diff } => (Some(before.clone()), Some(diff.clone()), None),
        Change::Lost { before, deleted, diff, .. } => (Some(before.clone()), diff.clone(), Some(*deleted)),
    };
    WireChange { state: c.name().into(), before, diff, deleted }
}

fn check(c: &crate::commands::audit::CheckReview) -> WireCheck {
    let (expected, observed, detail) = match &c.outcome {
        Outcome::Pass { detail } => (None, None, detail.clone()),
        Outcome::Wrong { says, evidence, detail } => (Some(says.clone()), Some(evidence.clone()), detail.clone()),
        Outcome::Fail { expected, observed, detail } => (expected.clone(), observed.clone(), detail.clone()),
        Outcome::Skipped { reason } => (None, None, reason.clone()),
        Outcome::Error(d) => (None, None, d.to_string()),
    };
    WireCheck { kind: c.kind.to_string(), number: c.number.clone(), number_now: c.number_now.clone(), outcome: c.outcome.label().to_string(), expected, observed, detail }
}

/// The review as pretty JSON with a trailing newline.
pub(crate) fn render(review: &Review) -> String {
    let mut s = serde_json::to_string_pretty(&wire(review)).expect("wire types always serialise");
    s.push('\n');
    s
}
