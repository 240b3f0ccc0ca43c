//! `audit --draft` and `accept` on the shipped article: an edited copy is compared with the
//! accepted sentences in `claims/graphs-fusion-megakernels.lock`, and reports exactly what was
//! edited; `accept` records a clean audit and nothing else.

use crate::support;
use support::{claimcheck, repository_copy};

use std::path::{Path, PathBuf};

const ARTICLE: &str = "article/graphs-fusion-megakernels.md";
const REGISTRY: &str = "claims/graphs-fusion-megakernels.toml";
const LOCK: &str = "claims/graphs-fusion-megakernels.lock";

/// One changed latency (claim F6), one deleted claim sentence (claim P6), one new sentence
/// carrying a number.
const CHANGED_LATENCY: (&str, &str) = ("took 157.62 µs on a stream", "took 159.62 µs on a stream");
const DELETED_SENTENCE: (&str, &str) = ("It also keeps the completion ordering between nodes: a node starts after the previous one has finished.", "");
const NEW_SENTENCE: (&str, &str) = ("Measure first which cost you have.", "Measure first which cost you have. A typical launch costs about 4.5 µs from the host.");

/// Writes the article with `edits` applied as `<dir>/graphs-fusion-megakernels.md`.
fn draft(dir: &Path, edits: &[(&str, &str)]) -> PathBuf {
    let mut text = std::fs::read_to_string(ARTICLE).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "the article no longer holds {from:?}");
        text = text.replacen(from, to, 1);
    }
    let path = dir.join("graphs-fusion-megakernels.md");
    std::fs::write(&path, text).unwrap();
    path
}

fn audit_draft(path: &Path) -> (i32, serde_json::Value) {
    let (code, stdout, stderr) = claimcheck(["audit".as_ref(), "--format".as_ref(), "json".as_ref(), "--draft".as_ref(), path.as_os_str()]);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    (code, json)
}

/// Claim id → change state, for every claim whose sentence is not unchanged.
fn changed_claims(review: &serde_json::Value) -> Vec<(String, String)> {
    review["registries"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["change"]["state"] != "unchanged")
        .map(|c| (c["id"].as_str().unwrap().to_string(), c["change"]["state"].as_str().unwrap().to_string()))
        .collect()
}

fn failing_checks(review: &serde_json::Value) -> Vec<String> {
    review["registries"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| {
            c["checks"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|k| k["outcome"] != "pass")
                .map(move |k| format!("{} {} {}", c["id"].as_str().unwrap(), k["kind"].as_str().unwrap(), k["outcome"].as_str().unwrap()))
        })
        .collect()
}

fn unbound(review: &serde_json::Value) -> Vec<(String, String)> {
    review["registries"][0]["unbound"].as_array().unwrap().iter().map(|u| (u["number"].as_str().unwrap().to_string(), u["origin"].as_str().unwrap_or("").to_string())).collect()
}

#[test]
fn an_unchanged_copy_passes_with_every_sentence_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (code, review) = audit_draft(&draft(dir.path(), &[]));
    assert_eq!(code, 0, "{review:#}");
    assert!(changed_claims(&review).is_empty());
    let counts = &review["registries"][0]["lock"]["sentences"];
    assert_eq!((counts["changed"].as_u64(), counts["new"].as_u64(), counts["deleted"].as_u64()), (Some(0), Some(0), Some(0)));
    assert_eq!(review["registries"][0]["manuscript"]["draft_of"], ARTICLE);
}

#[test]
fn three_edits_are_reported_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let path = draft(dir.path(), &[CHANGED_LATENCY, DELETED_SENTENCE, NEW_SENTENCE]);
    let (code, review) = audit_draft(&path);
    assert_eq!(code, 1);
    assert_eq!(review["registries"][0]["manuscript"]["sha256_matches"], false);
    assert_eq!(changed_claims(&review), [("P6".to_string(), "lost".to_string()), ("F6".to_string(), "number-changed".to_string())]);
    assert_eq!(failing_checks(&review), ["F6 stat fail"]);
    assert_eq!(unbound(&review), [("4.5 µs".to_string(), "new".to_string())]);
    let lock = &review["registries"][0]["lock"];
    assert_eq!(lock["deleted_claim_sentences"].as_array().unwrap().len(), 1);
    assert_eq!(lock["deleted_claim_sentences"][0]["claims"][0], "P6");
    assert_eq!(lock["stale"].as_array().unwrap().len(), 0);
    assert_eq!((lock["sentences"]["changed"].as_u64(), lock["sentences"]["new"].as_u64(), lock["sentences"]["deleted"].as_u64()), (Some(1), Some(1), Some(1)));

    // The text report names each one, with the three values of the changed number.
    let (code, text, _) = claimcheck(["audit".as_ref(), "--draft".as_ref(), path.as_os_str()]);
    assert_eq!(code, 1);
    for wanted in [
        "F6 number changed",
        "took [-157.62-]{+159.62+} µs",
        "F6 stat 159.62 µs: FAIL: audited 157.62 µs, draft 159.62 µs, evidence 157.62 µs",
        "P6 lost: the sentence that held it (line 28 of the accepted text) was deleted",
        "most similar sentence now",
        "unbound number `4.5 µs` in a new sentence",
    ] {
        assert!(text.contains(wanted), "missing {wanted:?} in:\n{text}");
    }
}

#[test]
fn a_changed_latency_alone_is_a_number_change() {
    let dir = tempfile::tempdir().unwrap();
    let (code, review) = audit_draft(&draft(dir.path(), &[CHANGED_LATENCY]));
    assert_eq!(code, 1);
    assert_eq!(changed_claims(&review), [("F6".to_string(), "number-changed".to_string())]);
    assert_eq!(failing_checks(&review), ["F6 stat fail"]);
    assert!(unbound(&review).is_empty());
}

#[test]
fn a_deleted_claim_sentence_alone_loses_its_claim_without_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, review) = audit_draft(&draft(dir.path(), &[DELETED_SENTENCE]));
    assert_eq!(code, 1, "a deleted sentence is a change of the draft, not bad input: {review:#}");
    assert_eq!(changed_claims(&review), [("P6".to_string(), "lost".to_string())]);
    assert!(review["diagnostics"].as_array().unwrap().is_empty());
    let p6 = review["registries"][0]["claims"].as_array().unwrap().iter().find(|c| c["id"] == "P6").unwrap().clone();
    assert_eq!(p6["change"]["deleted"], true);
    assert!(p6["binding"]["nearest"]["text"].is_string(), "{p6:#}");
}

#[test]
fn a_new_sentence_with_a_number_alone_is_unbound() {
    let dir = tempfile::tempdir().unwrap();
    let (code, review) = audit_draft(&draft(dir.path(), &[NEW_SENTENCE]));
    assert_eq!(code, 1);
    assert!(changed_claims(&review).is_empty());
    assert_eq!(unbound(&review), [("4.5 µs".to_string(), "new".to_string())]);
}

#[test]
fn an_edited_claim_sentence_shows_a_word_diff() {
    let dir = tempfile::tempdir().unwrap();
    let path = draft(
        dir.path(),
        &[(
            "At this size the work is tiny and the cost is submission, which is exactly what replay removes.",
            "At this size the work is tiny and the cost is submission, which is precisely what replay removes.",
        )],
    );
    let (code, review) = audit_draft(&path);
    assert_eq!(code, 1);
    let changed = changed_claims(&review);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].1, "edited");
    let (_, text, _) = claimcheck(["audit".as_ref(), "--draft".as_ref(), path.as_os_str()]);
    assert!(text.contains("[-exactly-]{+precisely+}"), "{text}");
    assert!(text.contains("EDITED"), "{text}");
}

#[test]
fn a_draft_named_like_no_manuscript_needs_claims() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.md");
    std::fs::copy(ARTICLE, &path).unwrap();
    let (code, _, stderr) = claimcheck(["audit".as_ref(), "--draft".as_ref(), path.as_os_str()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no registry's manuscript is named like it"), "{stderr}");
    assert!(stderr.contains("--claims claims/graphs-fusion-megakernels.toml") && stderr.contains("--claims claims/original-draft.toml"), "{stderr}");
    let (code, _, stderr) = claimcheck(["audit".as_ref(), "--claims".as_ref(), REGISTRY.as_ref(), "--draft".as_ref(), path.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_missing_draft_is_an_input_error() {
    let (code, _, stderr) = claimcheck(["audit", "--draft", "/nonexistent/graphs-fusion-megakernels.md"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("draft: reading /nonexistent/graphs-fusion-megakernels.md"), "{stderr}");
}

/// Every file of a tree with its bytes, to prove a command wrote nothing.
fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    claimcheck::evidence::list_files(root)
        .unwrap()
        .into_iter()
        .map(|f| {
            let b = std::fs::read(root.join(&f)).unwrap();
            (f, b)
        })
        .collect()
}

#[test]
fn accept_refuses_an_unclean_audit_and_writes_nothing() {
    let copy = repository_copy();
    draft(&copy.path().join("article"), &[CHANGED_LATENCY]);
    let before = snapshot(copy.path());
    let (code, stdout, _) = claimcheck(["accept".as_ref(), "--root".as_ref(), copy.path().as_os_str()]);
    assert_eq!(code, 1);
    assert!(stdout.contains("not accepted, nothing written: F6: a quoted number changed"), "{stdout}");
    assert!(snapshot(copy.path()) == before, "accept wrote a file");
}

#[test]
fn the_audit_never_writes_a_lock() {
    let copy = repository_copy();
    std::fs::remove_file(copy.path().join(LOCK)).unwrap();
    draft(&copy.path().join("article"), &[NEW_SENTENCE]);
    let before = snapshot(copy.path());
    let (code, _, _) = claimcheck(["audit".as_ref(), "--root".as_ref(), copy.path().as_os_str()]);
    assert_eq!(code, 1);
    assert!(snapshot(copy.path()) == before, "the audit wrote a file");
}

#[test]
fn accepting_an_edit_records_the_new_hash_and_sentences() {
    let copy = repository_copy();
    let root = copy.path().as_os_str();
    draft(&copy.path().join("article"), &[("Replay does not do what fusion does.", "Replay does not do what fusion does, whatever the size.")]);
    let (code, stdout, _) = claimcheck(["audit".as_ref(), "--root".as_ref(), root]);
    assert_eq!(code, 1, "an edited sentence needs attention until it is accepted: {stdout}");
    let (code, stdout, stderr) = claimcheck(["accept".as_ref(), "--root".as_ref(), root]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains(&format!("{LOCK}: written")), "{stdout}");
    assert!(stdout.contains(&format!("{REGISTRY}: manuscript.sha256 1cecc15c39b1… →")), "{stdout}");
    let registry = std::fs::read_to_string(copy.path().join(REGISTRY)).unwrap();
    let original = std::fs::read_to_string(REGISTRY).unwrap();
    // Only the hash string changed; every other line is as its authors wrote it.
    let differing: Vec<_> = registry.lines().zip(original.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(differing.len(), 1, "{differing:?}");
    assert!(differing[0].0.starts_with("sha256 = \""));
    let (code, stdout, _) = claimcheck(["audit".as_ref(), "--root".as_ref(), root]);
    assert_eq!(code, 0, "{stdout}");
    let (code, stdout, _) = claimcheck(["accept".as_ref(), "--root".as_ref(), root]);
    assert_eq!(code, 0);
    assert!(stdout.contains(&format!("{LOCK}: up to date")), "{stdout}");
}

#[test]
fn a_claim_added_since_the_lock_makes_it_out_of_date() {
    let copy = repository_copy();
    let root = copy.path().as_os_str();
    let registry = copy.path().join(REGISTRY);
    let mut text = std::fs::read_to_string(&registry).unwrap();
    text.push_str("\n[[claim]]\nid = \"Z1\"\nquote = \"Measure first which cost you have\"\nverdict = \"judgment\"\nfinding = \"Advice.\"\n");
    std::fs::write(&registry, text).unwrap();
    let (code, stdout, _) = claimcheck(["audit".as_ref(), "--root".as_ref(), root]);
    assert_eq!(code, 1);
    assert!(stdout.contains(&format!("{LOCK} is out of date: claims added since it was accepted: Z1")), "{stdout}");
    assert!(stdout.contains("NOT LOCKED"), "{stdout}");
    let (code, _, _) = claimcheck(["accept".as_ref(), "--root".as_ref(), root]);
    assert_eq!(code, 0);
    let (code, stdout, _) = claimcheck(["audit".as_ref(), "--root".as_ref(), root]);
    assert_eq!(code, 0, "{stdout}");
}

/// A root whose article quotes a time to first token in a table cell (in seconds, as its
/// heading says) and in prose (in milliseconds), both recomputed from a field `ttft_s`.
fn table_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "article/bench.md",
            "# Bench\n\n## Time to First Token (seconds)\n\n| Framework | Median |\n|---|---|\n| anyscale | 0.55 |\n\nThe anyscale requests answered their first token in 550 ms.\n",
        ),
        ("evidence/ttft.jsonl", "{\"provider\":\"anyscale\",\"ttft_s\":0.5499}\n{\"provider\":\"anyscale\",\"ttft_s\":0.5501}\n{\"provider\":\"anyscale\",\"ttft_s\":0.5497}\n"),
        (
            "claims/bench.toml",
            "[manuscript]\npath = \"article/bench.md\"\nsha256 = \"0000000000000000000000000000000000000000000000000000000000000000\"\n\n\
             [[claim]]\nid = \"T1\"\ncell = { row = \"anyscale\", column = \"Median\" }\nverdict = \"retain\"\nfinding = \"The median of the requests.\"\n\n  \
             [[claim.check]]\n  kind = \"stat\"\n  samples = \"evidence/ttft.jsonl\"\n  select = { provider = \"anyscale\" }\n  field = \"ttft_s\"\n  statistic = \"median\"\n\n\
             [[claim]]\nid = \"P1\"\nquote = \"answered their first token in 550 ms\"\nverdict = \"retain\"\nfinding = \"The same median, in milliseconds.\"\n\n  \
             [[claim.check]]\n  kind = \"stat\"\n  number = \"550 ms\"\n  samples = \"evidence/ttft.jsonl\"\n  select = { provider = \"anyscale\" }\n  field = \"ttft_s\"\n  statistic = \"median\"\n",
        ),
    ];
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    dir
}

#[test]
fn an_edited_table_cell_is_a_number_change() {
    let root = table_root();
    let root_arg = root.path().as_os_str();
    let (code, stdout, stderr) = claimcheck(["accept".as_ref(), "--root".as_ref(), root_arg]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // The cell binds by its row and column, and `ttft_s` is read in seconds for both quotes.
    let (code, stdout, stderr) = claimcheck(["audit".as_ref(), "--root".as_ref(), root_arg]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("cell anyscale › Median"), "{stdout}");

    let dir = tempfile::tempdir().unwrap();
    let edited = dir.path().join("bench.md");
    let text = std::fs::read_to_string(root.path().join("article/bench.md")).unwrap();
    std::fs::write(&edited, text.replace("| 0.55 |", "| 0.56 |")).unwrap();
    let args = |json: bool| {
        let mut a: Vec<&std::ffi::OsStr> = vec!["audit".as_ref(), "--root".as_ref(), root_arg, "--draft".as_ref(), edited.as_os_str()];
        if json {
            a.extend(["--format", "json"].map(std::ffi::OsStr::new));
        }
        a
    };
    let (code, stdout, stderr) = claimcheck(args(true));
    assert_eq!(code, 1, "{stdout}{stderr}");
    let review: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(changed_claims(&review), [("T1".to_string(), "number-changed".to_string())]);
    assert_eq!(failing_checks(&review), ["T1 stat fail"]);
    assert!(unbound(&review).is_empty());
    assert!(review["diagnostics"].as_array().unwrap().is_empty(), "{review:#}");
    assert_eq!(review["registries"][0]["lock"]["deleted_claim_sentences"].as_array().unwrap().len(), 0);
    let t1 = &review["registries"][0]["claims"][0];
    assert_eq!(t1["cell"], serde_json::json!({ "section": null, "row": "anyscale", "column": "Median" }));
    assert!(t1.get("quote").is_none());
    assert_eq!(t1["binding"]["sentence"]["cell"], serde_json::json!({ "row": "anyscale", "column": "Median" }));
    assert_eq!(t1["binding"]["sentence"]["section"], "Bench › Time to First Token (seconds)");

    let (code, text, _) = claimcheck(args(false));
    assert_eq!(code, 1);
    for wanted in ["T1 number changed", "[-0.55-]{+0.56+}", "T1 stat 0.56: FAIL: audited 0.55, draft 0.56 s, evidence 0.550 s"] {
        assert!(text.contains(wanted), "missing {wanted:?} in:\n{text}");
    }
}

#[test]
fn a_cell_no_claim_names_is_unbound_unless_labelled_without_its_unit() {
    let root = table_root();
    let article = root.path().join("article/bench.md");
    let text = std::fs::read_to_string(&article).unwrap();
    std::fs::write(&article, text.replace("| anyscale | 0.55 |\n", "| anyscale | 0.55 |\n| groq | 0.61 |\n")).unwrap();
    let audit = || {
        let (_, stdout, stderr) = claimcheck(["audit".as_ref(), "--format".as_ref(), "json".as_ref(), "--root".as_ref(), root.path().as_os_str()]);
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"))
    };
    assert_eq!(unbound(&audit()), [("0.61".to_string(), String::new())]);
    let registry = root.path().join("claims/bench.toml");
    let mut text = std::fs::read_to_string(&registry).unwrap();
    text.push_str("\n[[label]]\nnumber = \"0.61\"\nquote = \"0.61\"\nreason = \"a provider this registry does not audit\"\n");
    std::fs::write(&registry, text).unwrap();
    assert!(unbound(&audit()).is_empty());
}
