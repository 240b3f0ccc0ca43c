//! The `run` and `bench softmax` commands: open the device, run the suites, and write one new
//! evidence run directory, whole or not at all. A run whose validation fails is still written,
//! marked rejected in its `meta.json`, and never edited afterwards.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::common::{Collected, Settings};
use super::device::{DeviceInfo, Gpu};
use crate::evidence::graphs::nodes_file;
use crate::evidence::kernels::KernelsFile;
use crate::evidence::meta::{self, Median, Meta};
use crate::evidence::{RunWriter, SampleRecord, Summary, ValidationRecord};

/// Which suites a run holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    Pointwise,
    Softmax,
    Scheduling,
    All,
}

impl Suite {
    fn name(self) -> &'static str {
        match self {
            Suite::Pointwise => "pointwise",
            Suite::Softmax => "softmax",
            Suite::Scheduling => "scheduling",
            Suite::All => "all",
        }
    }
}

/// The outcome of a run, for the exit code.
pub(crate) struct Outcome {
    pub dir: PathBuf,
    pub accepted: bool,
    pub table: String,
}

/// Why a run could not be made, for the exit code: no GPU is a usage condition (2), the rest
/// are failures of the run itself.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunError {
    #[error(transparent)]
    Unavailable(#[from] super::device::Unavailable),
    #[error("{0}")]
    BadInput(String),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

/// Reads the card's clocks, temperature and power as `nvidia-smi` reports them: read only.
fn clocks() -> Option<String> {
    let out = std::process::Command::new("nvidia-smi")
        .args(["--query-gpu=clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,pstate", "--format=csv,noheader"])
        .output()
        .ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Runs this same command line `n` times more, each in a new process, one after the other,
/// without its `--repeat`: every run gets fresh process state (a new CUDA context, kernels
/// compiled again, a new allocator), because runs are the unit of replication and what differs
/// between processes is part of what a rerun of the article would see. Returns each process's
/// exit code.
pub(crate) fn repeat(n: u32) -> anyhow::Result<Vec<i32>> {
    let exe = std::env::current_exe()?;
    let mut args: Vec<String> = Vec::new();
    let mut skip = false;
    for a in std::env::args().skip(1) {
        if skip {
            skip = false;
        } else if a == "--repeat" {
            skip = true;
        } else if !a.starts_with("--repeat=") {
            args.push(a);
        }
    }
    let mut codes = Vec::new();
    for _ in 0..n {
        let status = std::process::Command::new(&exe).args(&args).status()?;
        codes.push(status.code().unwrap_or(4));
        // Run ids are stamped to the second: never start two in the same one.
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    Ok(codes)
}

/// A new run id: the UTC time to the second, then `suite`.
pub(crate) fn run_id(suite: &str) -> String {
    let now = time::OffsetDateTime::now_utc();
    let format = time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
    format!("{}-{suite}", now.format(&format).unwrap_or_else(|_| "unknown-time".into()))
}

/// Everything one device session measured, before it is written: the collected evidence, the
/// device it ran on, the card's clocks around it, and the judgement of its validation.
pub(crate) struct Measured {
    pub suites: Vec<String>,
    pub settings: Settings,
    pub device: DeviceInfo,
    pub collected: Collected,
    pub clocks_before: Option<String>,
    pub clocks_after: Option<String>,
    pub peer_meta: Vec<serde_json::Value>,
    /// Why the run is rejected; empty when every validation record holds.
    pub rejected_because: Vec<String>,
}

impl Measured {
    pub(crate) fn accepted(&self) -> bool {
        self.rejected_because.is_empty()
    }
}

/// Runs `suites` and writes the run under `root/evidence/runs`. `peers` are JSONL files of a
/// peer's samples and validation records (the torch script) to store in the same run.
pub(crate) fn run(root: &Path, name: &str, suites: &[&str], settings: Settings, peers: &[PathBuf]) -> Result<Outcome, RunError> {
    let measured = measure(suites, settings, peers)?;
    Ok(write_as(root, &run_id(name), &measured, &[])?)
}

/// Opens the device, runs `suites` with a progress bar, and judges validation. Peers are read
/// before the device is touched, so that bad input costs no GPU time. Nothing is written.
pub(crate) fn measure(suites: &[&str], settings: Settings, peers: &[PathBuf]) -> Result<Measured, RunError> {
    let mut peer_samples = Vec::new();
    let mut peer_validation = Vec::new();
    let mut peer_meta = Vec::new();
    for p in peers {
        read_peer(p, &mut peer_samples, &mut peer_validation, &mut peer_meta).map_err(RunError::BadInput)?;
        // Checked as each file joins, so that the file that disagrees is the one named.
        meta::check_peers(&peer_meta).map_err(|e| RunError::BadInput(format!("{}: {e} (peer records numbered over every peer file, in order)", p.display())))?;
    }
    for suite in suites {
        if configurations(suite).is_none() {
            return Err(RunError::BadInput(format!("unknown suite {suite}")));
        }
    }
    let gpu = Gpu::open()?;
    let clocks_before = clocks();
    let mut out = Collected::default();
    let total: usize = suites.iter().filter_map(|s| configurations(s)).sum();
    let progress = indicatif::ProgressBar::new(total as u64);
    progress
        .set_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} configurations, {elapsed}: {msg}").unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()));
    // Each suite announces a configuration as it starts it; the bar counts finished ones.
    let mut started = 0u64;
    let say = |m: &str| {
        if started > 0 {
            progress.inc(1);
        }
        started += 1;
        progress.set_message(m.to_string());
    };
    let mut say = say;
    for suite in suites {
        match *suite {
            "pointwise" => super::pointwise::run(&gpu, &settings, &mut out, &mut say)?,
            "softmax" => super::softmax::run(&gpu, &settings, &mut out, false, &mut say)?,
            "softmax-bench" => super::softmax::run(&gpu, &settings, &mut out, true, &mut say)?,
            "scheduling" => super::scheduling::run(&gpu, &settings, &mut out, &mut say)?,
            other => return Err(RunError::BadInput(format!("unknown suite {other}"))),
        }
    }
    progress.finish_and_clear();
    let clocks_after = clocks();
    out.samples.extend(peer_samples);
    out.validation.extend(peer_validation);

    let mut rejected_because: Vec<String> = out
        .validation
        .iter()
        .filter(|r| !r.holds())
        .map(|r| format!("{} {} {} {}: max rel err {:.3e} over {:.1e}, {} unwritten", r.suite, r.case, r.variant, r.what, r.max_rel_err, r.tolerance, r.unwritten))
        .collect();
    if out.samples.is_empty() {
        rejected_because.push("no timed samples".into());
    }
    Ok(Measured {
        suites: suites.iter().map(|s| s.to_string()).collect(),
        settings,
        device: gpu.info.clone(),
        collected: out,
        clocks_before,
        clocks_after,
        peer_meta,
        rejected_because,
    })
}

/// How many configurations a suite times, for the progress bar; `None` for an unknown suite.
pub(crate) fn configurations(suite: &str) -> Option<usize> {
    match suite {
        "pointwise" => Some(super::pointwise::SIZES.len()),
        "softmax" | "softmax-bench" => Some(super::softmax::SHAPES.len()),
        "scheduling" => Some(super::scheduling::CASES.len()),
        _ => None,
    }
}

/// Writes `measured` as the new run directory `id` (see [`run_id`]), with `extra` files
/// (name, bytes) beside the standard ones; all of them are in the manifest.
pub(crate) fn write_as(root: &Path, id: &str, measured: &Measured, extra: &[(String, Vec<u8>)]) -> anyhow::Result<Outcome> {
    let out = &measured.collected;
    let accepted = measured.accepted();
    let summary = Summary::of(&out.samples);
    let medians = summary
        .configurations
        .iter()
        .map(|r| Median { case: r.case.clone(), field: r.field.clone(), median: r.median, mode: r.mode.clone(), suite: r.suite.clone(), variant: r.variant.clone() })
        .collect();
    let text = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let meta = Meta {
        schema_version: 1,
        run_id: id.to_string(),
        status: Some(if accepted { meta::ACCEPTED } else { meta::REJECTED }.to_string()),
        rejected_because: measured.rejected_because.clone(),
        suites: measured.suites.clone(),
        device: Some(measured.device.clone()),
        clocks_before: measured.clocks_before.clone(),
        clocks_after: measured.clocks_after.clone(),
        git_commit: env!("CLAIMCHECK_GIT_COMMIT").to_string(),
        claimcheck_version: env!("CARGO_PKG_VERSION").to_string(),
        settings: Some(measured.settings),
        tolerances: BTreeMap::from([
            ("pointwise".to_string(), super::pointwise::TOLERANCE),
            ("softmax".to_string(), super::softmax::TOLERANCE),
            ("scheduling".to_string(), super::scheduling::TOLERANCE),
        ]),
        timing: text(&[
            ("host_us", "host clock from before the first submission call to after cuStreamSynchronize; graph capture, instantiation and upload excluded"),
            ("device_us", "cuEventElapsedTime between events recorded on the stream before and after the submission"),
            (
                "protocol",
                "per configuration: warm-up invocations of every entry, then rounds in which every entry runs once in an order shuffled from the timing seed, each invocation on the next buffer set whatever its entry",
            ),
        ]),
        nvrtc_options: out.nvrtc_options.clone(),
        cases: out.cases.clone(),
        graphs: out.graphs.clone(),
        medians,
        peers: measured.peer_meta.clone(),
        notes: out.notes.clone(),
    };

    let writer = RunWriter::create_in(crate::paths::Root::new(root)?, "evidence/runs", id)?;
    writer.write_json("meta.json", &meta)?;
    writer.write_jsonl("samples.jsonl", &out.samples)?;
    writer.write_json("summary.json", &summary)?;
    writer.write_jsonl("validation.jsonl", &out.validation)?;
    writer.write_json("kernels.json", &KernelsFile { kernels: out.kernels.clone() })?;
    for g in &out.graphs {
        writer.write(&format!("graphs/{}.dot", g.key()), g.dot.as_bytes())?;
    }
    if !out.graphs.is_empty() {
        writer.write_json("graphs/nodes.json", &nodes_file(&out.graphs))?;
    }
    for (name, lines) in &out.traces {
        writer.write_jsonl(&format!("traces/{name}.jsonl"), lines)?;
    }
    for (module, ptx) in &out.ptx {
        writer.write(&format!("ptx/{module}.ptx"), ptx.as_bytes())?;
    }
    for (name, bytes) in extra {
        writer.write(name, bytes)?;
    }
    let dir = writer.finish()?;
    Ok(Outcome { table: medians_table(&summary), dir, accepted })
}

/// A peer's JSONL: one object a line, each `{"sample": …}`, `{"validation": …}` or `{"meta": …}`.
fn read_peer(path: &Path, samples: &mut Vec<SampleRecord>, validation: &mut Vec<ValidationRecord>, meta: &mut Vec<serde_json::Value>) -> Result<(), String> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("reading peer file {shown}: {e}"))?;
    let jsonl = crate::evidence::Jsonl::parse(&shown, &bytes).map_err(|d| d.render())?;
    for record in &jsonl.records {
        let fields: serde_json::Map<String, serde_json::Value> = jsonl.record_as(record, "a JSON object").map_err(|d| d.render())?;
        let (key, value) = fields.iter().next().ok_or_else(|| format!("{shown}:{}: empty object", record.line))?;
        let bad = |e: serde_json::Error| format!("{shown}:{}: {key}: {e}", record.line);
        match key.as_str() {
            "sample" => samples.push(serde_json::from_value(value.clone()).map_err(bad)?),
            "validation" => validation.push(serde_json::from_value(value.clone()).map_err(bad)?),
            "meta" => {
                meta::check_peer_record(value).map_err(|e| format!("{shown}:{}: meta: {e}", record.line))?;
                meta.push(value.clone())
            }
            other => return Err(format!("{shown}:{}: unknown record `{other}`; expected sample, validation or meta", record.line)),
        }
    }
    if samples.is_empty() {
        return Err(format!("{shown}: no samples"));
    }
    Ok(())
}

/// Medians of device and host time per configuration, as a short table.
fn medians_table(summary: &Summary) -> String {
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED).force_no_tty();
    table.set_header(["suite", "case", "variant", "mode", "device µs", "host µs"]);
    let mut rows: BTreeMap<(String, String, String, String), [f64; 2]> = BTreeMap::new();
    for r in &summary.configurations {
        let e = rows.entry((r.suite.clone(), r.case.clone(), r.variant.clone(), r.mode.clone())).or_insert([f64::NAN; 2]);
        e[if r.field == "device_us" { 0 } else { 1 }] = r.median;
    }
    for ((suite, case, variant, mode), [d, h]) in rows {
        table.add_row([suite, case, variant, mode, format!("{d:.2}"), format!("{h:.2}")]);
    }
    table.to_string()
}

pub(crate) fn suites_for(suite: Suite) -> Vec<&'static str> {
    match suite {
        Suite::All => vec!["pointwise", "softmax", "scheduling"],
        one => vec![one.name()],
    }
}

impl From<RunError> for crate::status::Failure {
    fn from(e: RunError) -> Self {
        use crate::status::Failure;
        match e {
            RunError::Unavailable(e) => Failure::NoGpu(e.to_string()),
            RunError::BadInput(m) => Failure::Usage(m),
            RunError::Failed(e) => Failure::Internal(e.context("the run failed and nothing was written")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings { rounds: 1, warmup: 0, seed: 1, validation_fixtures: 1 }
    }

    /// A peer file with one sample and the given `meta` record.
    fn peer_file(dir: &Path, name: &str, meta: &str) -> PathBuf {
        let path = dir.join(name);
        let sample = r#"{"sample":{"suite":"softmax-bench","case":"8x262144","variant":"torch","mode":"graph","round":0,"order":0,"host_us":1.0,"device_us":1.0}}"#;
        std::fs::write(&path, format!("{sample}\n{{\"meta\":{meta}}}\n")).unwrap();
        path
    }

    fn refused(peers: &[PathBuf]) -> String {
        match measure(&["softmax-bench"], settings(), peers) {
            Err(RunError::BadInput(e)) => e,
            Err(other) => panic!("not refused as bad input: {other}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn peer_files_that_misstate_or_disagree_on_their_rotation_are_refused_before_the_device() {
        let dir = tempfile::tempdir().unwrap();
        let bad = peer_file(dir.path(), "bad.jsonl", r#"{"torch":"2.11","rotation":"per_invocation"}"#);
        let e = refused(&[bad]);
        assert!(e.ends_with(r#"bad.jsonl:2: meta: rotation "per_invocation" is not "per-entry" or "per-invocation""#), "{e}");
        let counts = peer_file(dir.path(), "counts.jsonl", r#"{"rotation":"per-invocation","rotation_sets":{"4096x4096":0}}"#);
        let e = refused(&[counts]);
        assert!(e.ends_with(r#"counts.jsonl:2: meta: rotation_sets {"4096x4096":0} is not a map of each case to a count of sets"#), "{e}");
        let new = peer_file(dir.path(), "new.jsonl", r#"{"rotation":"per-invocation"}"#);
        let old = peer_file(dir.path(), "old.jsonl", r#"{"rotation":"per-entry"}"#);
        let e = refused(&[new, old]);
        assert!(
            e.ends_with("old.jsonl: peer record 1 took its buffer sets per invocation but peer record 2 per entry; one run's peers are timed one way (peer records numbered over every peer file, in order)"),
            "{e}"
        );
    }
}
