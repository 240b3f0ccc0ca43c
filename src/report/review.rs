//! The review file on the wire: versioned serde types apart from the internal ones, written
//! with every object's keys sorted and no time of its own, so that the same inputs give the
//! same bytes.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::checks::{KindName, Outcome};
use crate::commands::review::ReviewFile;
use crate::status::Status;

/// Bumped whenever a field changes meaning or disappears. Version 2: the registries are the
/// audit JSON's version 2 (unbound numbers refer to their sentence by index). Version 3: they
/// are its version 3 (a claim may name a table cell rather than quote a sentence).
pub const SCHEMA_VERSION: u32 = 3;

#[derive(Debug, Serialize)]
pub(crate) struct WireReviewFile {
    pub schema_version: u32,
    pub tool: WireTool,
    /// 0 when everything holds, 1 when something needs attention.
    pub exit_code: u8,
    pub counts: BTreeMap<String, usize>,
    /// The audit: manuscripts and their SHA-256, sources, claims with verdicts and checks.
    pub registries: Vec<super::json::WireRegistry>,
    /// Every quoted latency, recomputed from the raw samples and the saved summaries.
    pub latencies: Vec<super::recheck::WireRow>,
    /// Every ordering claim, judged inside the run it was quoted from.
    pub orderings: Vec<super::recheck::WireRow>,
    /// Every trace check and what it found.
    pub traces: Vec<WireTrace>,
    /// Graph node counts and kernel resource metadata of every run the checks read.
    pub runs: Vec<WireRun>,
    pub figures: Vec<WireFigure>,
    /// Every primary source the registries cite, with its URL.
    pub sources: Vec<super::json::WireSource>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireTool {
    pub name: String,
    pub version: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireTrace {
    pub registry: String,
    pub claim: String,
    pub check: usize,
    pub file: String,
    pub number: Option<String>,
    pub outcome: String,
    pub detail: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireRun {
    pub path: String,
    pub graphs: Vec<WireGraph>,
    pub kernels: Vec<Value>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireGraph {
    pub name: String,
    pub nodes: BTreeMap<String, u64>,
    pub setup_us: Option<f64>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireFigure {
    pub manuscript: String,
    pub path: String,
    pub sha256: Option<String>,
}

/// The wire form of a review file.
pub(crate) fn wire(file: &ReviewFile) -> WireReviewFile {
    let audit = super::json::wire(&file.audit);
    let recheck = super::recheck::wire(&file.recheck);
    let mut traces = Vec::new();
    for r in &file.audit.registries {
        for c in &r.claims {
            for (i, k) in c.checks.iter().enumerate().filter(|(_, k)| k.kind == KindName::Trace) {
                let (outcome, detail) = match &k.outcome {
                    Outcome::Pass { detail } | Outcome::Wrong { detail, .. } => ("pass", detail.clone()),
                    Outcome::Fail { detail, .. } => ("fail", detail.clone()),
                    Outcome::Skipped { reason } => ("skipped", reason.clone()),
                    Outcome::Error(d) => ("error", d.message.clone()),
                };
                traces.push(WireTrace {
                    registry: r.file.clone(),
                    claim: c.id.clone(),
                    check: i + 1,
                    file: k.files.first().cloned().unwrap_or_default(),
                    number: k.number.clone(),
                    outcome: outcome.into(),
                    detail,
                });
            }
        }
    }
    let mut sources: Vec<super::json::WireSource> = audit.registries.iter().flat_map(|r| r.sources.iter().cloned()).collect();
    sources.sort_by(|a, b| (&a.url, &a.key).cmp(&(&b.url, &b.key)));
    sources.dedup_by(|a, b| a.url == b.url && a.key == b.key);
    let (latencies, orderings) = recheck.rows.into_iter().partition(|r| r.kind == "latency");
    WireReviewFile {
        schema_version: SCHEMA_VERSION,
        tool: WireTool { name: "claimcheck".into(), version: env!("CARGO_PKG_VERSION").into() },
        exit_code: match file.status {
            Status::Clean => 0,
            Status::NeedsAttention => 1,
        },
        counts: audit.counts,
        registries: audit.registries,
        latencies,
        orderings,
        traces,
        runs: file
            .runs
            .iter()
            .map(|r| WireRun {
                path: r.path.clone(),
                graphs: r.graphs.iter().map(|(name, g)| WireGraph { name: name.clone(), nodes: g.nodes.clone(), setup_us: g.setup_us }).collect(),
                kernels: r.kernels.iter().map(|k| serde_json::to_value(k).expect("kernel facts always serialise")).collect(),
            })
            .collect(),
        figures: file.figures.iter().map(|f| WireFigure { manuscript: f.manuscript.clone(), path: f.path.clone(), sha256: f.sha256.clone() }).collect(),
        sources,
    }
}

/// The review file as pretty JSON with every object's keys sorted and a trailing newline.
pub(crate) fn render(file: &ReviewFile) -> String {
    let value = serde_json::to_value(wire(file)).expect("wire types always serialise");
    let mut s = serde_json::to_string_pretty(&sorted(value)).expect("a JSON value always serialises");
    s.push('\n');
    s
}

/// `value` with the keys of every object in sorted order.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The line `review --out FILE` prints once the file is written.
pub(crate) fn written_line(path: &str, file: &ReviewFile) -> String {
    use crate::recheck::RowKind;
    format!(
        "review written: {path} ({} claims, {} latencies, {} orderings; {})",
        file.audit.claims().count(),
        file.recheck.rows.iter().filter(|r| r.kind == RowKind::Latency).count(),
        file.recheck.rows.iter().filter(|r| r.kind == RowKind::Ordering).count(),
        match file.status {
            Status::Clean => "all claims hold",
            Status::NeedsAttention => "needs attention",
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_sorted_at_every_depth() {
        let v = serde_json::json!({"b": 1, "a": {"d": [{"z": 1, "y": 2}], "c": 3}});
        assert_eq!(serde_json::to_string(&sorted(v)).unwrap(), r#"{"a":{"c":3,"d":[{"y":2,"z":1}]},"b":1}"#);
    }
}
