//! `claimcheck review --out FILE`: the versioned, deterministic review of the shipped article.

use crate::support;
use support::{claimcheck, repository_copy};

use serde_json::Value;
use sha2::Digest;

fn write_review(root: &std::path::Path, out: &std::path::Path) -> (i32, String) {
    let (code, stdout, stderr) = claimcheck(["review".as_ref(), "--root".as_ref(), root.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    (code, format!("{stdout}{stderr}"))
}

#[test]
fn two_invocations_write_the_same_bytes_whatever_the_root_is_called() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (dir.path().join("a.json"), dir.path().join("b.json"), dir.path().join("c.json"));
    assert_eq!(write_review(std::path::Path::new("."), &a).0, 0);
    assert_eq!(write_review(std::path::Path::new("."), &b).0, 0);
    assert_eq!(write_review(&std::env::current_dir().unwrap(), &c).0, 0);
    let a = std::fs::read(a).unwrap();
    assert!(a == std::fs::read(b).unwrap(), "two invocations differ");
    assert!(a == std::fs::read(c).unwrap(), "an absolute --root changed the output");
}

#[test]
fn the_review_holds_what_a_reader_needs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("review.json");
    assert_eq!(write_review(std::path::Path::new("."), &out).0, 0);
    let review: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(review["schema_version"], 3);
    assert_eq!(review["exit_code"], 0);
    let manuscript = &review["registries"][0]["manuscript"];
    let article = std::fs::read("article/graphs-fusion-megakernels.md").unwrap();
    assert_eq!(manuscript["sha256"], claimcheck::hash::sha256_hex(&article));
    // Every quoted latency, with its value recomputed and its outcome.
    let latencies = review["latencies"].as_array().unwrap();
    assert!(latencies.len() >= 24);
    let f6 = latencies.iter().find(|l| l["claim"] == "F6" && l["what"] == "157.62 µs").unwrap();
    assert_eq!((f6["accepted"].as_f64(), f6["outcome"].as_str()), (Some(157.621), Some("MATCH")));
    // Trace checks, graph node counts, kernel resources, figure hashes, source URLs.
    assert!(review["traces"].as_array().unwrap().iter().any(|t| t["file"].as_str().unwrap().ends_with("traces/queue-ragged.jsonl")), "{:#}", review["traces"]);
    let runs = review["runs"].as_array().unwrap();
    let all = runs.iter().find(|r| r["path"] == "evidence/runs/20261205T053553Z-all").unwrap();
    let graph = all["graphs"].as_array().unwrap().iter().find(|g| g["name"] == "softmax-4096x4096-four-kernel").unwrap();
    assert_eq!(graph["nodes"]["kernel"], 4);
    assert!(all["kernels"].as_array().unwrap().iter().all(|k| k["registers"].is_u64()));
    for f in review["figures"].as_array().unwrap() {
        let bytes = std::fs::read(f["path"].as_str().unwrap()).unwrap();
        assert_eq!(f["sha256"], claimcheck::hash::sha256_hex(&bytes), "{f}");
    }
    assert!(review["figures"].as_array().unwrap().len() >= 2);
    let sources = review["sources"].as_array().unwrap();
    assert!(sources.iter().all(|s| s["url"].as_str().unwrap().starts_with("https://")));
    assert!(sources.iter().any(|s| s["url"] == "https://hazyresearch.stanford.edu/blog/2025-05-27-no-bubbles"));
    // Per-claim verdicts and check outcomes.
    let claims = review["registries"][0]["claims"].as_array().unwrap();
    assert!(claims.iter().all(|c| c["verdict"].is_string() && c["checks"].as_array().unwrap().iter().all(|k| k["outcome"] == "pass")));
}

#[test]
fn bad_input_writes_nothing_and_keeps_an_older_review() {
    let copy = repository_copy();
    let registry = copy.path().join("claims/graphs-fusion-megakernels.toml");
    let text = std::fs::read_to_string(&registry).unwrap();
    std::fs::write(&registry, text.replacen("[[claim]]", "[[claim]", 1)).unwrap();
    let out = copy.path().join("review.json");
    std::fs::write(&out, "an older review\n").unwrap();
    let (code, output) = write_review(copy.path(), &out);
    assert_eq!(code, 2, "{output}");
    assert!(output.contains("claims/graphs-fusion-megakernels.toml:") && output.contains("no review written"), "{output}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "an older review\n");
}

#[test]
fn a_dash_writes_to_standard_output() {
    let (code, stdout, _) = claimcheck(["review", "--out", "-"]);
    assert_eq!(code, 0);
    let review: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(review["tool"]["name"], "claimcheck");
}

#[test]
fn a_reader_that_closes_early_ends_the_review_quietly() {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_claimcheck"))
        .args(["review", "--out", "-"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe is closed here, as `| head -c10` closes it.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A README's figures as GitHub shows them: a Markdown image beside the article, an HTML
/// `<img>` from the repository's root (`/figs/a.png`, as READMEs write it), and one on the web,
/// whose bytes are not read. Each is listed; the two files are hashed where they lie.
#[test]
fn figures_are_found_where_github_shows_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let article = "# Figures\n\n![Beside.](b.png)\n\n<p align=\"center\"><img src=\"/figs/a.png\"\n  alt=\"From the root\"></p>\n\n<img src=\"https://example.org/c.png\">\n";
    for (path, bytes) in [("article/a.md", article.as_bytes()), ("article/b.png", b"b".as_slice()), ("figs/a.png", b"a".as_slice())] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), bytes).unwrap();
    }
    let sha = |b: &[u8]| sha2::Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect::<String>();
    std::fs::create_dir_all(root.join("claims")).unwrap();
    std::fs::write(root.join("claims/a.toml"), format!("[manuscript]\npath = \"article/a.md\"\nsha256 = \"{}\"\n", sha(article.as_bytes()))).unwrap();
    let out = root.join("review.json");
    let (code, text) = write_review(root, &out);
    assert_eq!(code, 0, "{text}");
    let review: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    let figures: Vec<(&str, Option<&str>)> = review["figures"].as_array().unwrap().iter().map(|f| (f["path"].as_str().unwrap(), f["sha256"].as_str())).collect();
    let (a, b) = (sha(b"a"), sha(b"b"));
    assert_eq!(figures, [("article/b.png", Some(b.as_str())), ("figs/a.png", Some(a.as_str())), ("https://example.org/c.png", None)]);
}
