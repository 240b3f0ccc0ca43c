//! Malformed and hostile input as data: each `tests/malformed/<case>/` holds a `case.toml` (the
//! command, the exit code, where the error must point and what it must show) and a `tree/` of
//! files laid over a base fixture. This one test runs every case against the built binary in a
//! temporary folder that holds the tree as `root/` and a sibling `outside/` with a secret, and
//! checks:
//!
//! - the exit code, and no panic (never exit 101, never "panicked");
//! - the `file:line:col` location and the offending text in the output;
//! - the time limit;
//! - nothing in `root/` or `outside/` changed (every path, file content, mode and link target
//!   hashes the same before and after), and the secret never appears in the output.
//!
//! A case marked `pending = "<what it waits for>"` is run and reported but does not fail the
//! test while it fails; once it passes, the test fails until the marker is removed, so that a
//! fix is never left unrecorded.
//!
//! `case.toml` keys: `description`, `args` (`{root}` and `{outside}` are replaced), `exit`,
//! `location`, `snippet`, `stream` (`stderr`, the default, or `stdout`), `occurrences` (how
//! often `location` must appear), `absent` (texts that must not appear), `base` (`example`,
//! the default, or `none`), `copy` (`[{ from, to }]`: paths copied from the repository),
//! `generate` (`[{ path, repeat, times, prefix, suffix, insert_after }]`: large files written
//! here rather than stored), `symlinks` (`[{ path, target }]`, made here since git keeps links
//! poorly), `stdout_head` (read this many bytes, then close the pipe), `time_limit` (seconds,
//! default 10) and `pending`.

use crate::support;

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;
use sha2::{Digest, Sha256};

/// What no output may ever hold: the text of the file outside the root.
const SECRET: &str = "OUTSIDE-SECRET-c41m";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    description: String,
    args: Vec<String>,
    exit: i32,
    #[serde(default)]
    location: Option<String>,
    #[serde(default)]
    snippet: Option<String>,
    #[serde(default)]
    stream: Option<String>,
    #[serde(default)]
    occurrences: Option<usize>,
    #[serde(default)]
    absent: Vec<String>,
    #[serde(default)]
    base: Option<String>,
    #[serde(default)]
    copy: Vec<Copy>,
    #[serde(default)]
    generate: Vec<Generate>,
    #[serde(default)]
    symlinks: Vec<Link>,
    #[serde(default)]
    stdout_head: Option<usize>,
    #[serde(default)]
    time_limit: Option<f64>,
    #[serde(default)]
    pending: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Copy {
    from: String,
    to: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    path: String,
    repeat: String,
    times: usize,
    #[serde(default)]
    prefix: String,
    #[serde(default)]
    suffix: String,
    /// Insert into the file already there, after the first occurrence of this text.
    #[serde(default)]
    insert_after: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Link {
    path: String,
    target: String,
}

/// What one run showed.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

#[test]
fn malformed_inputs_are_located_contained_and_leave_everything_as_it_was() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("tests/malformed").unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("case.toml").is_file()).collect();
    cases.sort();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let mut failed = Vec::new();
    let mut pending_report = Vec::new();
    for dir in &cases {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(dir.join("case.toml")).unwrap();
        let case: Case = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}/case.toml: {e}"));
        let problems = run_case(dir, &case);
        match (&case.pending, problems.is_empty()) {
            (None, true) => {}
            (None, false) => failed.push(format!("{name} ({}):\n  {}", case.description, problems.join("\n  "))),
            (Some(what), false) => pending_report.push(format!("{name}: pending {what}: {}", problems[0])),
            (Some(what), true) => failed.push(format!("{name}: passes now; remove `pending = \"{what}\"` from its case.toml")),
        }
    }
    eprintln!("{} malformed cases, {} pending:", cases.len(), pending_report.len());
    for p in &pending_report {
        eprintln!("  {p}");
    }
    assert!(failed.is_empty(), "{} of {} cases failed:\n{}", failed.len(), cases.len(), failed.join("\n"));
}

/// Runs one case; returns what did not hold.
fn run_case(dir: &Path, case: &Case) -> Vec<String> {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("root");
    let outside = temp.path().join("outside");
    build_tree(dir, case, &root, &outside);
    let before = hash_tree(temp.path());
    let args: Vec<String> = case.args.iter().map(|a| a.replace("{root}", &root.display().to_string()).replace("{outside}", &outside.display().to_string())).collect();
    let run = run(&root, &args, case.stdout_head);
    let mut problems = Vec::new();
    let limit = Duration::from_secs_f64(case.time_limit.unwrap_or(10.0));
    if run.elapsed > limit {
        problems.push(format!("took {:.1} s, more than {:.0} s", run.elapsed.as_secs_f64(), limit.as_secs_f64()));
    }
    if run.code != Some(case.exit) {
        problems.push(format!("exit {:?}, expected {}", run.code, case.exit));
    }
    let all = format!("{}{}", run.stdout, run.stderr);
    if run.code == Some(101) || all.contains("panicked") {
        problems.push("it panicked".into());
    }
    let stream = match case.stream.as_deref() {
        None | Some("stderr") => &run.stderr,
        Some("stdout") => &run.stdout,
        Some(other) => panic!("unknown stream {other}"),
    };
    if let Some(location) = &case.location {
        let found = stream.matches(location.as_str()).count();
        match case.occurrences {
            Some(n) if found != n => problems.push(format!("location `{location}` appears {found} times, expected {n}")),
            None if found == 0 => problems.push(format!("no location `{location}`")),
            _ => {}
        }
    }
    if let Some(snippet) = &case.snippet
        && !stream.contains(snippet.as_str())
    {
        problems.push(format!("no snippet `{snippet}`"));
    }
    for text in &case.absent {
        if all.contains(text.as_str()) {
            problems.push(format!("`{text}` appears"));
        }
    }
    if all.contains(SECRET) {
        problems.push("the text of a file outside the root appears".into());
    }
    let after = hash_tree(temp.path());
    if after != before {
        let changed: Vec<&String> = before.keys().chain(after.keys()).filter(|k| before.get(*k) != after.get(*k)).collect();
        problems.push(format!("files changed: {changed:?}"));
    }
    if !problems.is_empty() {
        let tail = |s: &str| s.chars().rev().take(400).collect::<Vec<_>>().into_iter().rev().collect::<String>();
        problems.push(format!("stderr ends: {}", tail(&run.stderr)));
    }
    problems
}

fn build_tree(dir: &Path, case: &Case, root: &Path, outside: &Path) {
    match case.base.as_deref() {
        None | Some("example") => support::copy_dir(Path::new("tests/fixtures/example"), root),
        Some("none") => std::fs::create_dir_all(root).unwrap(),
        Some(other) => panic!("unknown base {other}"),
    }
    for c in &case.copy {
        let from = Path::new(&c.from);
        if from.is_dir() {
            support::copy_dir(from, &root.join(&c.to));
        } else {
            std::fs::create_dir_all(root.join(&c.to).parent().unwrap()).unwrap();
            std::fs::copy(from, root.join(&c.to)).unwrap();
        }
    }
    if dir.join("tree").is_dir() {
        support::copy_dir(&dir.join("tree"), root);
    }
    std::fs::create_dir_all(outside).unwrap();
    std::fs::write(outside.join("secret"), format!("{SECRET}\n")).unwrap();
    if dir.join("outside").is_dir() {
        support::copy_dir(&dir.join("outside"), outside);
    }
    for g in &case.generate {
        let path = root.join(&g.path);
        let mut text = g.prefix.clone();
        text.push_str(&g.repeat.repeat(g.times));
        text.push_str(&g.suffix);
        let whole = match &g.insert_after {
            Some(marker) => {
                let old = std::fs::read_to_string(&path).unwrap();
                let at = old.find(marker.as_str()).unwrap_or_else(|| panic!("{}: no `{marker}`", g.path)) + marker.len();
                format!("{}{text}{}", &old[..at], &old[at..])
            }
            None => text,
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, whole).unwrap();
    }
    for l in &case.symlinks {
        let path = root.join(&l.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path).unwrap(),
            Ok(_) => std::fs::remove_file(&path).unwrap(),
            Err(_) => {}
        }
        std::os::unix::fs::symlink(&l.target, &path).unwrap();
    }
}

/// Runs the binary in `root`; a run past 120 s is killed.
fn run(root: &Path, args: &[String], stdout_head: Option<usize>) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(args).current_dir(root).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdout_pipe = child.stdout.take().unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr_pipe.read_to_end(&mut s);
        s
    });
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        match stdout_head {
            // Read the first bytes, then close the pipe as `| head -c N` does.
            Some(n) => {
                let _ = (&mut stdout_pipe).take(n as u64).read_to_end(&mut s);
                drop(stdout_pipe);
            }
            None => {
                let _ = stdout_pipe.read_to_end(&mut s);
            }
        }
        s
    });
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    Run { code, stdout, stderr, elapsed }
}

/// Every path under `dir` with what it is: a file's mode and SHA-256, a folder's mode, a
/// link's target. Links are never followed.
fn hash_tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let rel = path.strip_prefix(base).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let mode = meta.permissions().mode() & 0o7777;
            if meta.file_type().is_symlink() {
                out.insert(rel, format!("link {}", std::fs::read_link(&path).unwrap().display()));
            } else if meta.is_dir() {
                out.insert(rel, format!("dir {mode:o}"));
                walk(base, &path, out);
            } else {
                let digest = Sha256::digest(std::fs::read(&path).unwrap());
                out.insert(rel, format!("file {mode:o} {digest:x}"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}
