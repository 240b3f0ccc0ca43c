//! `traces/*.jsonl`: a header line, then one task a line: what ran, where, when and after what.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// The first line of a trace file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceHeader {
    pub suite: String,
    pub case: String,
    pub variant: String,
    /// How many tasks the trace must hold, each exactly once.
    pub tasks: usize,
    pub workers: usize,
}

/// One task of a trace: what ran, where, when, and what it waited for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceTask {
    /// Unique id, `A:17`, `B:3`, `C:900`.
    pub task: String,
    pub stage: String,
    pub index: u32,
    pub row: u32,
    pub worker: u32,
    pub sm: u32,
    pub start_ns: u64,
    pub end_ns: u64,
    /// Ids of the tasks whose results this one reads.
    pub deps: Vec<String>,
}

/// Coverage and order. Returns what does not hold, at most a few of each kind, so that a
/// broken trace gives a readable report.
pub fn verify(header: &TraceHeader, tasks: &[TraceTask]) -> Vec<String> {
    const SHOWN: usize = 5;
    let mut problems = Vec::new();
    let mut by_id: BTreeMap<&str, &TraceTask> = BTreeMap::new();
    let mut duplicates = Vec::new();
    for t in tasks {
        if by_id.insert(t.task.as_str(), t).is_some() {
            duplicates.push(t.task.as_str());
        }
        if t.end_ns < t.start_ns {
            problems.push(format!("task {} ends before it starts", t.task));
        }
    }
    if !duplicates.is_empty() {
        problems.push(format!("{} tasks ran more than once: {}", duplicates.len(), duplicates.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ")));
    }
    if by_id.len() != header.tasks {
        problems.push(format!("the trace holds {} distinct tasks, the header declares {}", by_id.len(), header.tasks));
    }
    let mut missing = BTreeSet::new();
    let mut early = Vec::new();
    for t in tasks {
        for dep in &t.deps {
            match by_id.get(dep.as_str()) {
                None => {
                    missing.insert(dep.as_str());
                }
                Some(d) if t.start_ns < d.end_ns => early.push(format!("task {} starts {} ns before its dependency {} ends", t.task, d.end_ns - t.start_ns, d.task)),
                Some(_) => {}
            }
        }
    }
    if !missing.is_empty() {
        problems.push(format!("{} dependencies never ran: {}", missing.len(), missing.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ")));
    }
    if !early.is_empty() {
        let n = early.len();
        early.truncate(SHOWN);
        problems.push(format!("{n} order violations: {}", early.join("; ")));
    }
    problems
}
