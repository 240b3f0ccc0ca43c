//! `recheck` on the shipped article: offline it recomputes every quoted latency from the raw
//! samples and saved summaries and judges every ordering inside the accepted run; `--fresh`
//! re-judges the committed H200 recheck run and must reproduce its stored table.

mod support;
use support::{claimcheck, repository_copy};

use claimcheck::report::recheck::WireRecheck;

const FRESH: &str = "evidence/runs/20261202T132204Z-recheck";

fn offline_json(root: &std::path::Path) -> (i32, WireRecheck) {
    let (code, stdout, stderr) = claimcheck(["recheck".as_ref(), "--format".as_ref(), "json".as_ref(), "--root".as_ref(), root.as_os_str()]);
    (code, serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}")))
}

#[test]
fn every_quoted_latency_and_ordering_holds_offline() {
    let (code, report) = offline_json(std::path::Path::new("."));
    assert_eq!(code, 0);
    assert_eq!(report.mode, "offline");
    let latencies: Vec<_> = report.rows.iter().filter(|r| r.kind == "latency").collect();
    let orderings: Vec<_> = report.rows.iter().filter(|r| r.kind == "ordering").collect();
    assert!(latencies.len() >= 24, "only {} latencies", latencies.len());
    assert!(orderings.len() >= 30, "only {} orderings", orderings.len());
    for r in &report.rows {
        assert_eq!(r.outcome, "MATCH", "{r:?}");
    }
    // Every latency was also found in its run's saved summary.
    for r in latencies {
        assert!(r.summary.is_some(), "{r:?}");
    }
}

#[test]
fn a_summary_edited_by_hand_is_a_mismatch() {
    let copy = repository_copy();
    let summary = copy.path().join("evidence/runs/20261202T102605Z-all/summary.json");
    let text = std::fs::read_to_string(&summary).unwrap();
    // The median host time of the stream-mode four-kernel softmax at 4096×4096 (claim F6).
    assert!(text.contains("161.492"), "the summary no longer holds 161.492");
    std::fs::write(&summary, text.replacen("161.492", "160.492", 1)).unwrap();
    let (code, report) = offline_json(copy.path());
    assert_eq!(code, 1);
    let bad: Vec<_> = report.rows.iter().filter(|r| r.outcome != "MATCH").collect();
    // F6 quotes that median; F7's two differences are computed from it.
    let named: Vec<_> = bad.iter().map(|r| (r.claim.as_str(), r.what.as_str())).collect();
    assert_eq!(named, [("F6", "161.49 µs"), ("F7", "6.26 µs"), ("F7", "116.16 µs")]);
    assert!(bad[0].detail.contains("the saved summary gives 160.492, the raw samples 161.492"), "{}", bad[0].detail);
}

#[test]
fn a_requoted_latency_is_a_mismatch() {
    let copy = repository_copy();
    let article = copy.path().join("article/graphs-fusion-megakernels.md");
    let text = std::fs::read_to_string(&article).unwrap();
    std::fs::write(&article, text.replacen("brought the fused kernel to 20.34 µs", "brought the fused kernel to 19.34 µs", 1)).unwrap();
    let (code, report) = offline_json(copy.path());
    assert_eq!(code, 1);
    let bad: Vec<_> = report.rows.iter().filter(|r| r.outcome != "MATCH").map(|r| (r.claim.as_str(), r.what.as_str())).collect();
    assert_eq!(bad, [("F11", "19.34 µs")]);
}

#[test]
fn the_committed_recheck_run_reproduces_its_stored_table() {
    let (code, stdout, stderr) = claimcheck(["recheck", "--fresh", FRESH]);
    assert!(stdout.contains(&format!("{FRESH}/recheck.json: every stored row is reproduced exactly")), "{stdout}{stderr}");
    // The run found one quoted latency that does not hold on the fresh run: exit 1.
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("F11 #4 MISMATCH 20.34 µs"), "{stdout}");
    let stored: WireRecheck = serde_json::from_slice(&std::fs::read(format!("{FRESH}/recheck.json")).unwrap()).unwrap();
    assert_eq!(stored.fresh_run.as_ref().unwrap().device.as_deref(), Some("NVIDIA H200"));
    assert_eq!(stored.rule.replicates, 2000);
    assert_eq!(stored.rule.confidence, 0.9);
}

#[test]
fn a_stored_table_that_differs_is_reported() {
    let copy = repository_copy();
    let path = copy.path().join(FRESH).join("recheck.json");
    let mut stored: WireRecheck = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let row = stored.rows.iter_mut().find(|r| r.outcome == "MISMATCH").unwrap();
    row.outcome = "MATCH".into();
    std::fs::write(&path, serde_json::to_string_pretty(&stored).unwrap()).unwrap();
    let (code, stdout, _) = claimcheck(["recheck".as_ref(), "--fresh".as_ref(), FRESH.as_ref(), "--root".as_ref(), copy.path().as_os_str()]);
    assert_eq!(code, 1);
    assert!(stdout.contains("1 stored rows DIFFER from this judgement"), "{stdout}");
}

#[test]
fn a_fresh_run_outside_the_root_is_refused() {
    let (code, _, stderr) = claimcheck(["recheck", "--fresh", "../elsewhere"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("../elsewhere"), "{stderr}");
}

#[test]
fn the_recheck_run_of_the_shared_timing_code_reproduces_its_stored_table() {
    // Made after the three suites' timed invocations became one `Rotation`: it was accepted,
    // and found no quoted latency that does not hold.
    let run = "evidence/runs/20261202T141249Z-recheck";
    let (code, stdout, stderr) = claimcheck(["recheck", "--fresh", run]);
    assert!(stdout.contains(&format!("{run}/recheck.json: every stored row is reproduced exactly")), "{stdout}{stderr}");
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("0 MISMATCH"), "{stdout}");
}
