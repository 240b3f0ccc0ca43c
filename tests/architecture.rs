//! The "Architecture Invariant" lines of `src/lib.rs` that a text search can hold: which
//! layers may not reach which. Each module folder lists the crate paths it must never use.

use std::path::Path;

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    out
}

fn assert_never_uses(folder: &str, forbidden: &[&str]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(folder);
    let files = if dir.is_dir() { sources(&dir) } else { vec![(dir.display().to_string(), std::fs::read_to_string(dir.with_extension("rs")).unwrap())] };
    assert!(!files.is_empty(), "{folder} has no sources");
    for (file, text) in files {
        for path in forbidden {
            assert!(!text.contains(path), "{file} uses {path}, which src/lib.rs says it never does");
        }
    }
}

#[test]
fn the_gpu_suite_imports_nothing_above_evidence() {
    assert_never_uses("gpu", &["crate::report", "crate::recheck", "crate::commands", "crate::checks", "crate::workspace", "crate::registry"]);
}

#[test]
fn evidence_depends_on_no_consumer_of_it() {
    assert_never_uses("evidence", &["crate::report", "crate::recheck", "crate::commands", "crate::checks", "crate::workspace", "crate::registry", "crate::gpu"]);
}

#[test]
fn renderers_decide_nothing_and_run_nothing() {
    // A renderer reads the decided data; it never loads a workspace, runs a check or a recheck.
    assert_never_uses("report", &["Workspace::load", "checks::run(", "recheck::offline", "recheck::fresh", "std::fs::", "std::process"]);
}

#[test]
fn checks_read_sources_without_the_rest_of_the_registry() {
    // `registry` parses checks, so the checks may only reach its leaf `source` module.
    for (file, text) in sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/checks")) {
        for line in text.lines().filter(|l| l.contains("crate::registry")) {
            assert!(line.contains("crate::registry::source"), "{file}: {line}");
        }
    }
}

#[test]
fn nothing_outside_the_gpu_suite_starts_a_process() {
    for (file, text) in sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src")) {
        if file.contains("/src/gpu/") {
            continue;
        }
        assert!(!text.contains("std::process::Command"), "{file} starts a process");
        assert!(!text.contains("TcpStream") && !text.contains("UdpSocket"), "{file} opens a socket");
    }
}

#[test]
fn no_file_under_the_root_is_opened_by_path() {
    // Files under the root are opened, listed and written through `paths::Root` (its handle on
    // the root refuses a link that leaves it at the open itself) and the one atomic writer.
    // `std::fs` appears only where the path is the user's own choice or the tool's own
    // scratch space, each for the reason given.
    let allowed = [
        ("src/confined.rs", "the handle itself"),
        ("src/atomic.rs", "the one writer, over the handle"),
        ("src/workspace.rs", "a draft the user names outside the root"),
        ("src/commands/stats.rs", "the file `stats` is given, anywhere"),
        ("src/gpu/run.rs", "peer files the user names"),
        ("src/gpu/device.rs", "a scratch folder of its own"),
        ("src/evidence/writer.rs", "the runs folder a caller of `RunWriter::create` names"),
        ("src/checks/testing.rs", "the tests' fixture"),
        ("src/fuzz_api.rs", "the `bench_pool` target's own temporary tree, laid out before the command reads it through the root"),
    ];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (file, text) in sources(&src) {
        let rel = file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&file).trim_start_matches('/').to_string();
        if allowed.iter().any(|(f, _)| *f == rel) {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            for opener in ["std::fs::", "File::open", "File::create", "OpenOptions", "read_dir("] {
                assert!(!line.contains(opener), "{rel}:{}: `{opener}` opens by path; go through paths::Root", i + 1);
            }
        }
    }
}
