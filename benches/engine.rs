//! The speed of the engine, with its targets on a 2-core machine:
//! - the full offline audit of the shipped article: under 100 ms;
//! - the statistics recompute over a synthetic JSONL of 10⁶ samples (medians and p95s of every
//!   configuration, in process): under 1 s;
//! - `claimcheck stats` end to end against the numpy/pandas peer (`benches/peers/stats.py`) on
//!   the same file, in the same run: identical values, and at least 10× faster.
//!
//! Run with `cargo bench --bench engine`. The synthetic file is written once, from a seed, to
//! `target/bench-data/`. The peer needs python3 with numpy and pandas; without them its
//! benchmark is skipped and the closing report says so. The report reads criterion's own
//! estimates (`target/criterion/<group>/<id>/new/estimates.json`), so every figure in it is the
//! median criterion measured in this run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use claimcheck::evidence::Jsonl;
use criterion::Criterion;

#[path = "scale/samples.rs"]
mod samples;

const SAMPLES: usize = 1_000_000;
const PEER: &str = "benches/peers/stats.py";

fn main() {
    let started = std::time::SystemTime::now();
    let mut c = Criterion::default().configure_from_args();
    let data = synthetic_samples();
    let peer = peer_available();

    let mut group = c.benchmark_group("audit");
    group.bench_function("shipped-article", |b| {
        // The whole command as a user runs it: load the workspace, audit, render the table.
        use clap::Parser;
        b.iter(|| {
            let cli = claimcheck::cli::Cli::parse_from(["claimcheck", "audit"]);
            let mut out = claimcheck::status::Output::to(Box::new(std::io::sink()));
            let status = claimcheck::cli::run(cli, &mut out);
            assert!(matches!(status, Ok(claimcheck::status::Status::Clean)), "the shipped article must pass for its audit time to mean anything");
        })
    });
    group.finish();

    let mut group = c.benchmark_group("stats-1e6");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    group.bench_function("parse", |b| b.iter(|| Jsonl::from_vec("samples.jsonl", std::fs::read(&data).unwrap()).unwrap()));
    group.bench_function("recompute", |b| b.iter(|| recompute(&data)));
    group.bench_function("claimcheck-process", |b| b.iter(|| run(claimcheck_stats(&data))));
    if peer {
        group.measurement_time(Duration::from_secs(90));
        group.bench_function("numpy-pandas-process", |b| b.iter(|| run(peer_stats(&data))));
    }
    group.finish();
    c.final_summary();
    report(&data, peer, started);
}

/// Medians and p95s of host and device time for every configuration, as the audit computes
/// them: the shared JSONL reader and the shared statistics.
fn recompute(data: &Path) -> Vec<(Vec<String>, f64, f64)> {
    let jsonl = Jsonl::from_vec("samples.jsonl", std::fs::read(data).unwrap()).unwrap();
    let by: Vec<String> = ["suite", "case", "variant", "mode"].map(String::from).to_vec();
    let mut out = Vec::new();
    let groups = jsonl.groups(&by);
    for field in ["host_us", "device_us"] {
        for (key, records) in &groups {
            let s = jsonl.samples(records, field).unwrap();
            out.push((key.clone(), s.median(), s.quantile(0.95)));
        }
    }
    out
}

fn claimcheck_stats(data: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_claimcheck"));
    cmd.arg("stats").arg(data);
    cmd
}

fn peer_stats(data: &Path) -> Command {
    let mut cmd = Command::new("python3");
    cmd.arg(PEER).arg(data);
    cmd
}

/// Runs a command to the end and returns its standard output; it must succeed.
fn run(mut cmd: Command) -> Vec<u8> {
    let out = cmd.stderr(Stdio::inherit()).output().expect("the command starts");
    assert!(out.status.success(), "{cmd:?} failed");
    out.stdout
}

fn peer_available() -> bool {
    let ok = Command::new("python3").args(["-c", "import numpy, pandas"]).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("python3 with numpy and pandas is not available: the peer benchmark is skipped");
    }
    ok
}

/// The shared synthetic samples file (`benches/scale/samples.rs`), written once.
fn synthetic_samples() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap_or(Path::new("target")).join("bench-data");
    let path = dir.join("samples-1e6.jsonl");
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(&dir).unwrap();
    samples::write(&path, SAMPLES).unwrap();
    path
}

/// The median criterion measured for `group/id` in this run (an estimate older than
/// `started` is from another run, and is not used), in seconds.
fn estimate(group: &str, id: &str, started: std::time::SystemTime) -> Option<f64> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent()?.to_path_buf();
    let path = target.join("criterion").join(group).join(id).join("new/estimates.json");
    if std::fs::metadata(&path).and_then(|m| m.modified()).ok()? < started {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(v["median"]["point_estimate"].as_f64()? / 1e9)
}

/// The rows of a `stats` output, parsed, so that values compare as numbers.
fn rows(output: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(output).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn report(data: &Path, peer: bool, started: std::time::SystemTime) {
    let estimate = |group: &str, id: &str| estimate(group, id, started);
    let line = |what: &str, seconds: Option<f64>, limit: f64| match seconds {
        Some(s) => println!("  {what}: {:.1} ms (target < {:.0} ms): {}", s * 1e3, limit * 1e3, if s < limit { "met" } else { "MISSED" }),
        None => println!("  {what}: not measured in this run"),
    };
    println!("\nengine targets on this machine ({} cores):", std::thread::available_parallelism().map_or(1, |n| n.get()));
    line("full offline audit of the shipped article", estimate("audit", "shipped-article"), 0.100);
    line("recompute over 10⁶ samples, in process", estimate("stats-1e6", "recompute"), 1.0);
    line("of which parsing the JSONL", estimate("stats-1e6", "parse"), 1.0);
    let ours = estimate("stats-1e6", "claimcheck-process");
    line("claimcheck stats end to end", ours, 1.0);
    if !peer {
        println!("  numpy/pandas peer: skipped (python3 with numpy and pandas not found)");
        return;
    }
    let theirs = estimate("stats-1e6", "numpy-pandas-process");
    match (ours, theirs) {
        (Some(a), Some(b)) => {
            println!("  numpy/pandas peer end to end: {:.0} ms; claimcheck is {:.1}× faster (target ≥ 10×): {}", b * 1e3, b / a, if b / a >= 10.0 { "met" } else { "MISSED" })
        }
        _ => println!("  numpy/pandas peer: not measured in this run"),
    }
    let a = rows(&run(claimcheck_stats(data)));
    let b = rows(&run(peer_stats(data)));
    let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count() + a.len().abs_diff(b.len());
    if differing == 0 {
        println!("  values: identical in all {} rows (medians and p95s of host and device time)", a.len());
    } else {
        println!("  values: {differing} of {} rows DIFFER from the peer's", a.len().max(b.len()));
    }
}
