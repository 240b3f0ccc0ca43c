//! The evidence formats of a run directory, `evidence/runs/<id>/`: the contract between the
//! GPU suite that writes them and the checks that read them. This module owns parsing and
//! writing those files; it never measures anything.
//!
//! A run directory holds `meta.json`, `samples.jsonl`, `summary.json`, `validation.jsonl`,
//! `traces/*.jsonl`, `graphs/*.dot`, `kernels.json`, `ptx/*.ptx` and `MANIFEST.sha256`, which
//! lists every other file with its SHA-256 in `sha256sum -c` format.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::article::sha256_hex;
use crate::diagnostic::Diagnostic;
use crate::stats::Samples;

pub use crate::jsonl::{Jsonl, Record, Scalar};

/// One timed sample of `samples.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleRecord {
    pub suite: String,
    pub case: String,
    pub variant: String,
    pub mode: String,
    pub round: u32,
    pub order: u32,
    pub host_us: f64,
    pub device_us: f64,
}

/// `summary.json`: per configuration and field, the statistics the audit recomputes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub schema_version: u32,
    pub configurations: Vec<SummaryRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub suite: String,
    pub case: String,
    pub variant: String,
    pub mode: String,
    pub field: String,
    pub n: usize,
    pub median: f64,
    pub mean: f64,
    pub p05: f64,
    pub p95: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// Summarises `samples` per (suite, case, variant, mode), for `host_us` and `device_us`,
    /// with the same statistics code the audit uses.
    pub fn of(samples: &[SampleRecord]) -> Summary {
        let mut groups: BTreeMap<(String, String, String, String), (Vec<f64>, Vec<f64>)> = BTreeMap::new();
        for s in samples {
            let entry = groups.entry((s.suite.clone(), s.case.clone(), s.variant.clone(), s.mode.clone())).or_default();
            entry.0.push(s.host_us);
            entry.1.push(s.device_us);
        }
        let mut configurations = Vec::new();
        for ((suite, case, variant, mode), (host, device)) in groups {
            for (field, values) in [("device_us", device), ("host_us", host)] {
                let Ok(s) = Samples::new(values) else { continue };
                configurations.push(SummaryRow {
                    suite: suite.clone(),
                    case: case.clone(),
                    variant: variant.clone(),
                    mode: mode.clone(),
                    field: field.to_string(),
                    n: s.len(),
                    median: s.median(),
                    mean: s.mean(),
                    p05: s.quantile(0.05),
                    p95: s.quantile(0.95),
                    min: s.min(),
                    max: s.max(),
                });
            }
        }
        Summary { schema_version: 1, configurations }
    }
}

/// One record of `validation.jsonl`: one compared array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidationRecord {
    pub suite: String,
    pub case: String,
    pub variant: String,
    /// Which array was compared: `y`, `rms`, `row_max`, `tile_m`, …
    pub what: String,
    /// Which fresh random fixture (its seed).
    pub fixture: u64,
    pub elements: usize,
    pub max_abs_err: f64,
    /// The largest element-wise relative error, |out − ref| / |ref|.
    pub max_rel_err: f64,
    /// The norm-wise relative error, ‖out − ref‖₂ / ‖ref‖₂.
    #[serde(default)]
    pub norm_rel_err: f64,
    /// Which error `tolerance` bounds: `max-rel`, `norm-rel`, or `bits` (bit-identical).
    #[serde(default = "default_criterion")]
    pub criterion: String,
    /// The bound, declared in the code before the run.
    pub tolerance: f64,
    /// Elements left at the poison value or not finite.
    pub unwritten: usize,
    /// Elements whose bits differ, for `bits` comparisons.
    #[serde(default)]
    pub differing: usize,
    pub pass: bool,
}

fn default_criterion() -> String {
    "max-rel".into()
}

impl ValidationRecord {
    /// Whether the record is within its own tolerance, judged afresh rather than trusted.
    pub fn holds(&self) -> bool {
        let within = match self.criterion.as_str() {
            "norm-rel" => self.norm_rel_err.is_finite() && self.norm_rel_err <= self.tolerance,
            "bits" => self.differing == 0,
            _ => self.max_rel_err.is_finite() && self.max_rel_err <= self.tolerance,
        };
        self.unwritten == 0 && within && self.pass
    }

    /// The error the tolerance bounds, for reports.
    pub fn judged_error(&self) -> f64 {
        match self.criterion.as_str() {
            "norm-rel" => self.norm_rel_err,
            "bits" => self.differing as f64,
            _ => self.max_rel_err,
        }
    }
}

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

/// One line of `MANIFEST.sha256`.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestEntry {
    pub sha256: String,
    /// Path relative to the manifest's directory.
    pub path: String,
    pub line: usize,
}

/// Parses `sha256sum` output: `<64 hex>  <path>` (or `<hex> *<path>` for binary mode).
pub fn parse_manifest(path: &str, text: &str) -> Result<Vec<ManifestEntry>, Diagnostic> {
    let mut out = Vec::new();
    for (idx, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed = line.split_once("  ").or_else(|| line.split_once(" *"));
        match parsed {
            Some((hash, file)) if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && !file.is_empty() => {
                out.push(ManifestEntry { sha256: hash.to_ascii_lowercase(), path: file.to_string(), line: idx + 1 });
            }
            _ => {
                return Err(Diagnostic::at_line(
                    format!("{path}: line {}: expected `<sha256>  <file>`", idx + 1),
                    path,
                    idx + 1,
                    line,
                    "not a manifest line",
                ));
            }
        }
    }
    Ok(out)
}

/// Verifies a run directory against its manifest: every listed file has its SHA-256, and
/// every file of the directory is listed. Returns the number of files verified and what does
/// not hold. `remote_only` names listed files that may be absent here.
pub fn verify_manifest(manifest_path: &Path, manifest_text: &str, shown: &str, remote_only: &[String]) -> Result<(usize, Vec<String>), Diagnostic> {
    let entries = parse_manifest(shown, manifest_text)?;
    let dir = manifest_path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let manifest_name = manifest_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut problems = Vec::new();
    let mut verified = 0;
    for entry in &entries {
        if entry.path.split('/').any(|p| p == ".." || p.is_empty()) {
            problems.push(format!("line {}: `{}` leaves the run directory", entry.line, entry.path));
            continue;
        }
        match std::fs::read(dir.join(&entry.path)) {
            Ok(bytes) => {
                let actual = sha256_hex(&bytes);
                if actual == entry.sha256 {
                    verified += 1;
                } else {
                    problems.push(format!("{}: sha256 is {}…, manifest says {}…", entry.path, crate::diagnostic::first_chars(&actual, 12), crate::diagnostic::first_chars(&entry.sha256, 12)));
                }
            }
            Err(_) if remote_only.contains(&entry.path) => {}
            Err(_) => problems.push(format!("{}: listed but missing", entry.path)),
        }
    }
    let files = list_files(&dir).map_err(|e| Diagnostic::plain(format!("listing {}: {e}", dir.display())))?;
    for file in files {
        if file != manifest_name && !entries.iter().any(|e| e.path == file) {
            problems.push(format!("{file}: present but not listed"));
        }
    }
    Ok((verified, problems))
}

/// Every regular file under `dir`, as sorted `/`-separated paths relative to it.
pub fn list_files(dir: &Path) -> std::io::Result<Vec<String>> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            if kind.is_dir() {
                walk(base, &path, out)?;
            } else {
                let rel = path.strip_prefix(base).unwrap_or(&path);
                out.push(rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// Reads a text file; bytes that are not UTF-8 are an error located at the first of them.
pub(crate) fn read_text(shown: &str, full: &Path) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(full).map_err(|e| Diagnostic::plain(format!("reading {shown}: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Diagnostic::not_utf8(shown, e.as_bytes(), e.utf8_error().valid_up_to()))
}

/// Parses a JSON evidence file; an error is located at the line and column where it stops.
pub(crate) fn parse_json(shown: &str, bytes: &[u8]) -> Result<serde_json::Value, Diagnostic> {
    let text = std::str::from_utf8(bytes).map_err(|e| Diagnostic::not_utf8(shown, bytes, e.valid_up_to()))?;
    serde_json::from_str(text).map_err(|e| Diagnostic::json(&format!("{shown}: not JSON"), shown, text, &e))
}

/// The metadata files of a run directory that reports read, each parsed where present:
/// `meta.json`, `graphs/nodes.json`, `kernels.json` and `summary.json`.
#[derive(Debug, Default)]
pub(crate) struct RunFiles {
    pub(crate) meta: Option<serde_json::Value>,
    pub(crate) nodes: Option<serde_json::Value>,
    pub(crate) kernels: Option<serde_json::Value>,
}

/// Reads a run's metadata files. The audit reads them too, for every run its checks read, so
/// that a malformed one is the same input error for `audit` as for `review` and `recheck`.
/// Each must be a JSON object; a file that is not there is `None`.
pub(crate) fn read_run_files(root: &crate::paths::Root, dir: &str) -> Result<RunFiles, Diagnostic> {
    let read = |name: &str| -> Result<Option<serde_json::Value>, Diagnostic> {
        let rel = format!("{dir}/{name}");
        let Ok(full) = root.resolve(&rel) else { return Ok(None) };
        if !full.is_file() {
            return Ok(None);
        }
        let bytes = std::fs::read(&full).map_err(|e| Diagnostic::plain(format!("reading {rel}: {e}")))?;
        let value = parse_json(&rel, &bytes)?;
        if !value.is_object() {
            let text = String::from_utf8_lossy(&bytes);
            let at = text.len() - text.trim_start().len();
            return Err(Diagnostic::at(format!("{rel}: expected a JSON object"), &rel, &text, at..at + 1, "not an object"));
        }
        Ok(Some(value))
    };
    // `summary.json` is read typed, as `recheck` reads it, and located by reading its text
    // again should it not be a summary.
    if let Some(value) = read("summary.json")?
        && serde_json::from_value::<Summary>(value).is_err()
    {
        let rel = format!("{dir}/summary.json");
        let text = read_text(&rel, &root.resolve(&rel).map_err(|e| Diagnostic::plain(e.to_string()))?)?;
        return Err(match serde_json::from_str::<Summary>(&text) {
            Err(e) => Diagnostic::json(&format!("{rel}: not a summary.json"), &rel, &text, &e),
            Ok(_) => Diagnostic::plain(format!("{rel}: not a summary.json")),
        });
    }
    Ok(RunFiles { meta: read("meta.json")?, nodes: read("graphs/nodes.json")?, kernels: read("kernels.json")? })
}

/// The run directories whose metadata a review of checks reading `files` reads: the folder
/// of each file, and the run a file under `evidence/runs/` belongs to.
pub(crate) fn run_dirs<'a>(files: impl Iterator<Item = &'a str>) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for file in files {
        if let Some((dir, _)) = file.rsplit_once('/') {
            out.insert(dir.to_string());
        }
        if let Some((run, _)) = file.strip_prefix("evidence/runs/").and_then(|rest| rest.split_once('/')) {
            out.insert(format!("evidence/runs/{run}"));
        }
    }
    out
}

/// `evidence/accepted.toml`: the accepted runs, one per set of suites, written by
/// `claimcheck accept-run`.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptedFile {
    #[serde(default)]
    pub run: Vec<AcceptedRun>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AcceptedRun {
    pub path: String,
    pub suites: Vec<String>,
    pub manifest_sha256: String,
}

/// Parses `evidence/accepted.toml`; a malformed one is an error located in it.
pub(crate) fn parse_accepted(shown: &str, text: &str) -> Result<AcceptedFile, Diagnostic> {
    toml::from_str(text).map_err(|e| {
        Diagnostic::toml(&format!("{shown}: not a list of accepted runs"), shown, text, &e).with_note("it is written by `claimcheck accept-run`")
    })
}

/// The root-relative path of the accepted run that holds `suite`.
pub fn accepted_run_with(root: &Path, suite: &str) -> Result<String, Diagnostic> {
    const SHOWN: &str = "evidence/accepted.toml";
    let text = read_text(SHOWN, &root.join(SHOWN))?;
    let accepted = parse_accepted(SHOWN, &text)?;
    accepted
        .run
        .into_iter()
        .find(|r| r.suites.iter().any(|s| s == suite))
        .map(|r| r.path)
        .ok_or_else(|| Diagnostic::plain(format!("evidence/accepted.toml names no run with the {suite} suite")))
}

/// Writes a run directory so that it appears whole or not at all: files go into a temporary
/// sibling directory, the manifest is written last, and the directory is renamed into place.
/// An existing run is never overwritten.
pub struct RunWriter {
    final_dir: PathBuf,
    tmp_dir: PathBuf,
    finished: bool,
}

impl RunWriter {
    /// Starts a run named `id` under `runs_dir`.
    pub fn create(runs_dir: &Path, id: &str) -> anyhow::Result<RunWriter> {
        let final_dir = runs_dir.join(id);
        if final_dir.exists() {
            anyhow::bail!("run {} already exists; runs are never overwritten", final_dir.display());
        }
        std::fs::create_dir_all(runs_dir)?;
        let tmp_dir = runs_dir.join(format!(".{id}.tmp"));
        if tmp_dir.exists() {
            std::fs::remove_dir_all(&tmp_dir)?;
        }
        std::fs::create_dir_all(&tmp_dir)?;
        Ok(RunWriter { final_dir, tmp_dir, finished: false })
    }

    /// Writes `bytes` to `rel` inside the run (creating folders).
    pub fn write(&self, rel: &str, bytes: &[u8]) -> anyhow::Result<()> {
        anyhow::ensure!(!rel.contains("..") && !rel.starts_with('/'), "bad run file name {rel}");
        let path = self.tmp_dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)?;
        Ok(())
    }

    pub fn write_json<T: Serialize>(&self, rel: &str, value: &T) -> anyhow::Result<()> {
        let mut text = serde_json::to_string_pretty(value)?;
        text.push('\n');
        self.write(rel, text.as_bytes())
    }

    pub fn write_jsonl<T: Serialize>(&self, rel: &str, rows: &[T]) -> anyhow::Result<()> {
        let mut text = String::new();
        for row in rows {
            text.push_str(&serde_json::to_string(row)?);
            text.push('\n');
        }
        self.write(rel, text.as_bytes())
    }

    /// Writes `MANIFEST.sha256` over every file written and moves the run into place.
    pub fn finish(mut self) -> anyhow::Result<PathBuf> {
        let mut manifest = String::new();
        for rel in list_files(&self.tmp_dir)? {
            let bytes = std::fs::read(self.tmp_dir.join(&rel))?;
            manifest.push_str(&format!("{}  {rel}\n", sha256_hex(&bytes)));
        }
        std::fs::write(self.tmp_dir.join("MANIFEST.sha256"), manifest)?;
        if self.final_dir.exists() {
            anyhow::bail!("run {} appeared while writing; not overwriting it", self.final_dir.display());
        }
        std::fs::rename(&self.tmp_dir, &self.final_dir)?;
        self.finished = true;
        Ok(self.final_dir.clone())
    }
}

impl Drop for RunWriter {
    /// A run that did not finish leaves nothing behind: no partial evidence directory.
    fn drop(&mut self) {
        if !self.finished {
            let _ = std::fs::remove_dir_all(&self.tmp_dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_lines_parse_and_bad_lines_are_located() {
        let hash = "a".repeat(64);
        let entries = parse_manifest("M", &format!("{hash}  samples.jsonl\n{hash} *traces/q.jsonl\n")).unwrap();
        assert_eq!(entries[1].path, "traces/q.jsonl");
        let err = parse_manifest("M", &format!("{hash}  a\nbroken\n")).unwrap_err();
        assert_eq!(err.position().unwrap(), "M:2:1");
    }

    #[test]
    fn run_writer_renames_whole_runs_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let w = RunWriter::create(dir.path(), "r1").unwrap();
        w.write("samples.jsonl", b"{}\n").unwrap();
        w.write("traces/t.jsonl", b"{}\n").unwrap();
        let run = w.finish().unwrap();
        let manifest = std::fs::read_to_string(run.join("MANIFEST.sha256")).unwrap();
        assert_eq!(manifest.lines().count(), 2);
        assert!(manifest.contains("  traces/t.jsonl"));
        assert!(RunWriter::create(dir.path(), "r1").is_err());
    }

    #[test]
    fn an_abandoned_run_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        {
            let w = RunWriter::create(dir.path(), "r2").unwrap();
            w.write("samples.jsonl", b"{}\n").unwrap();
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn summary_uses_the_shared_statistics() {
        let rows: Vec<SampleRecord> = (0..5)
            .map(|i| SampleRecord {
                suite: "s".into(),
                case: "c".into(),
                variant: "v".into(),
                mode: "graph".into(),
                round: i,
                order: 0,
                host_us: f64::from(i + 1),
                device_us: 1.0,
            })
            .collect();
        let s = Summary::of(&rows);
        let host = s.configurations.iter().find(|r| r.field == "host_us").unwrap();
        assert_eq!((host.n, host.median, host.min, host.max), (5, 3.0, 1.0, 5.0));
        assert!((host.p95 - 4.8).abs() < 1e-12);
    }
}
