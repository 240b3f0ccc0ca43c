//! `traces/*.jsonl`: a header line, then one task a line: what ran, where, when and after what.

use std::collections::BTreeSet;

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

/// A trace file read: its header line and its tasks, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceFile {
    pub header: TraceHeader,
    pub tasks: Vec<TraceTask>,
}

/// A trace file's header and tasks, read straight from its lines by the fast typed reader
/// (`scan::from_line`), or `None` where the file must be read the whole way: as a
/// JSONL file, then each line through serde, which names what is wrong. So `Some` only where
/// that whole read would give the same header and tasks: every byte UTF-8, no blank line
/// before the last record, every line an object (serde would also take an array for a
/// struct, the JSONL reader would not) that the fast reader reads whole, and at least one task.
pub fn read_typed(bytes: &[u8]) -> Option<TraceFile> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.split_inclusive('\n').map(|l| l.trim_end_matches(['\n', '\r']));
    let record = |line: &str| line.trim_start_matches([' ', '\t', '\r']).starts_with('{');
    let header_line = lines.next()?;
    if !record(header_line) {
        return None;
    }
    let header: TraceHeader = super::scan::from_line(header_line)?;
    let mut tasks = Vec::with_capacity(header.tasks.min(1 << 20));
    let mut blank = false;
    for line in lines {
        if line.trim().is_empty() {
            blank = true;
            continue;
        }
        if blank || !record(line) {
            return None;
        }
        tasks.push(super::scan::from_line(line)?);
    }
    (!tasks.is_empty()).then_some(TraceFile { header, tasks })
}

/// Coverage and order. Returns what does not hold, at most a few of each kind, so that a
/// broken trace gives a readable report.
pub fn verify(header: &TraceHeader, tasks: &[TraceTask]) -> Vec<String> {
    const SHOWN: usize = 5;
    let mut problems = Vec::new();
    // A hash map: a trace holds thousands of tasks, each looked up once per dependency, and
    // nothing below depends on the map's order.
    let mut by_id: rustc_hash::FxHashMap<&str, &TraceTask> = rustc_hash::FxHashMap::default();
    by_id.reserve(tasks.len());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::jsonl::Jsonl;

    /// The whole read, as the `trace` check reads a trace the fast reader leaves to it.
    fn whole(bytes: &[u8]) -> Option<TraceFile> {
        let jsonl = Jsonl::parse("t.jsonl", bytes).ok()?;
        let (first, rest) = jsonl.records.split_first()?;
        let header = jsonl.record_as(first, "a trace header").ok()?;
        let tasks = rest.iter().map(|r| jsonl.record_as(r, "a trace task")).collect::<Result<Vec<TraceTask>, _>>().ok()?;
        Some(TraceFile { header, tasks })
    }

    /// Where the typed read gives a trace, the whole read gives the same one.
    fn typed_is_whole(bytes: &[u8]) -> bool {
        let Some(typed) = read_typed(bytes) else { return false };
        assert_eq!(Some(&typed), whole(bytes).as_ref(), "{}", String::from_utf8_lossy(bytes));
        true
    }

    fn traces() -> Vec<(String, Vec<u8>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        let mut dirs = vec![root.join("evidence"), root.join("tests")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.parent().is_some_and(|p| p.ends_with("traces")) && path.extension().is_some_and(|e| e == "jsonl") {
                    out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
                }
            }
        }
        out
    }

    #[test]
    fn every_shipped_trace_reads_typed_as_it_reads_whole() {
        let traces = traces();
        assert!(traces.len() > 50, "{} traces", traces.len());
        let runs = format!("{}/evidence/runs/", env!("CARGO_MANIFEST_DIR"));
        for (path, bytes) in &traces {
            let shipped = path.starts_with(&runs);
            assert!(typed_is_whole(bytes) || !shipped, "{path}: the typed reader left it to the whole read");
        }
    }

    #[test]
    fn a_trace_the_whole_read_refuses_is_left_to_it() {
        let runs = format!("{}/evidence/runs/", env!("CARGO_MANIFEST_DIR"));
        let (_, good) = traces().into_iter().find(|(p, _)| p.starts_with(&runs)).unwrap();
        let good = String::from_utf8(good).unwrap();
        let second = good.lines().nth(1).unwrap();
        let task: TraceTask = serde_json::from_str(second).unwrap();
        let as_array = serde_json::to_string(&(&task.task, &task.stage, task.index, task.row, task.worker, task.sm, task.start_ns, task.end_ns, &task.deps)).unwrap();
        let duplicated = second.replacen("\"stage\":", "\"sm\":1,\"stage\":", 1);
        for bad in [
            good.replacen(second, &as_array, 1),
            good.replacen(second, &duplicated, 1),
            good.replacen(second, &format!("\n{second}"), 1),
            good.replacen(second, &second.replacen("\"deps\":[", "\"deps\":[1,", 1), 1),
            good.replacen(second, &second.replacen('}', ",\"extra\":true}", 1), 1),
            good.lines().next().unwrap().to_string(),
        ] {
            assert!(!typed_is_whole(bad.as_bytes()), "{}", bad.lines().nth(1).unwrap_or(""));
        }
        let mut bytes = good.clone().into_bytes();
        bytes[good.len() / 2] = 0xff;
        assert!(!typed_is_whole(&bytes));
        // Blank lines at the end, a `\r\n` and spaces change nothing.
        assert!(typed_is_whole(format!("{good}\n\n").as_bytes()));
        assert!(typed_is_whole(good.replacen('\n', " \r\n", 3).as_bytes()));
    }
}
