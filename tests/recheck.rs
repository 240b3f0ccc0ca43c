//! `recheck` on the shipped article: offline it recomputes every quoted latency from the raw
//! samples and saved summaries and judges every ordering inside the accepted run; `--fresh`
//! re-judges the committed H200 recheck runs against today's registry, and reproduces a table
//! stored from today's judgement row by row.

use crate::support;
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
    // Every latency of one run was also found in its run's saved summary; a pooled one has
    // none (each run's summary holds only that run's value).
    for r in latencies {
        let pooled = r.runs.as_ref().is_some_and(|u| u.accepted > 1);
        assert!(r.summary.is_some() || pooled, "{r:?}");
    }
}

#[test]
fn a_summary_edited_by_hand_is_a_mismatch() {
    let copy = repository_copy();
    let summary = copy.path().join("evidence/runs/20261205T053553Z-all/summary.json");
    let text = std::fs::read_to_string(&summary).unwrap();
    // The median host time of the stream-mode four-kernel softmax at 4096×4096 (claim F6).
    assert!(text.contains("157.621"), "the summary no longer holds 157.621");
    std::fs::write(&summary, text.replacen("157.621", "156.621", 1)).unwrap();
    let (code, report) = offline_json(copy.path());
    assert_eq!(code, 1);
    let bad: Vec<_> = report.rows.iter().filter(|r| r.outcome != "MATCH").collect();
    // F6 quotes that median; F7's two differences are computed from it.
    let named: Vec<_> = bad.iter().map(|r| (r.claim.as_str(), r.what.as_str())).collect();
    assert_eq!(named, [("F6", "157.62 µs"), ("F7", "4.70 µs"), ("F7", "115.18 µs")]);
    assert!(bad[0].detail.contains("the saved summary gives 156.621, the raw samples 157.621"), "{}", bad[0].detail);
}

#[test]
fn a_requoted_latency_is_a_mismatch() {
    let copy = repository_copy();
    let article = copy.path().join("article/graphs-fusion-megakernels.md");
    let text = std::fs::read_to_string(&article).unwrap();
    std::fs::write(&article, text.replacen("brought the fused kernel to 19.70 µs", "brought the fused kernel to 18.70 µs", 1)).unwrap();
    let (code, report) = offline_json(copy.path());
    assert_eq!(code, 1);
    let bad: Vec<_> = report.rows.iter().filter(|r| r.outcome != "MATCH").map(|r| (r.claim.as_str(), r.what.as_str())).collect();
    // The pooled median of six runs' medians: still checked against the quote.
    assert_eq!(bad, [("F11", "18.70 µs")]);
}

#[test]
fn the_committed_recheck_run_has_no_row_left_to_reproduce_after_the_rebinding() {
    let (code, stdout, stderr) = claimcheck(["recheck", "--fresh", FRESH]);
    // Every row it stores judged the runs the article quoted until its suites were re-bound to
    // 20261205T053553Z-all and the runs pooled with it: none is judged again, and none is
    // called different; its one MISMATCH (F11's 20.34 µs) is only in the stored table.
    assert!(stdout.contains(&format!("{FRESH}/recheck.json: no stored row is judged again")), "{stdout}{stderr}");
    assert!(!stdout.contains("DIFFER"), "{stdout}");
    assert!(stdout.contains("rows only in the stored table"), "{stdout}");
    let stored_text = std::fs::read_to_string(format!("{FRESH}/recheck.txt")).unwrap();
    assert!(stored_text.contains("F11 #4 MISMATCH 20.34 µs"), "{stored_text}");
    // This run gave each entry a cycle of buffer sets of its own; the runs quoted now take the
    // next set for every call. The rounds-only rule once called two of today's latencies
    // different from this run for that reason alone; it now compares no absolute time across
    // buffer sets taken otherwise, as the hierarchical rule does, and says so.
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("MISMATCH  "), "{stdout}");
    for row in ["P1 #1 INCOMPARABLE 16.79 µs", "F11 #12 INCOMPARABLE 19.18 µs"] {
        let line = stdout.lines().find(|l| l.starts_with(row)).unwrap_or_else(|| panic!("{row}: {stdout}"));
        assert!(line.contains("absolute times not compared: ") && line.contains("buffer sets taken per entry over"), "{line}");
    }
    let stored: WireRecheck = serde_json::from_slice(&std::fs::read(format!("{FRESH}/recheck.json")).unwrap()).unwrap();
    assert_eq!(stored.fresh_run.as_ref().unwrap().device.as_deref(), Some("NVIDIA H200"));
    assert_eq!(stored.rule.replicates, 2000);
    assert_eq!(stored.rule.confidence, 0.9);
}

#[test]
fn a_stored_table_that_differs_is_reported() {
    let copy = repository_copy();
    let root = copy.path().as_os_str();
    let path = copy.path().join(FRESH).join("recheck.json");
    let judge = || claimcheck(["recheck".as_ref(), "--fresh".as_ref(), FRESH.as_ref(), "--format".as_ref(), "json".as_ref(), "--root".as_ref(), root]);
    // Today's judgement of the run, stored as its table, is reproduced row by row.
    let (_, stdout, stderr) = judge();
    let mut stored: WireRecheck = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    // The comparison with the table the run stores is no part of a table.
    stored.stored = None;
    std::fs::write(&path, serde_json::to_string_pretty(&stored).unwrap()).unwrap();
    let (_, stdout, _) = judge();
    let now: WireRecheck = serde_json::from_str(&stdout).unwrap();
    let c = now.stored.expect("the run stores a table");
    assert!(c.compared > 0 && c.differing.is_empty() && c.other_level == 0 && c.only_stored + c.only_now == 0, "{c:?}");
    let (_, stdout, _) = claimcheck(["recheck".as_ref(), "--fresh".as_ref(), FRESH.as_ref(), "--root".as_ref(), root]);
    assert!(stdout.contains(&format!("{FRESH}/recheck.json: every stored row is reproduced exactly")), "{stdout}");
    // A row the registry still holds (the first MATCH), stored as judged otherwise.
    let row = stored.rows.iter_mut().find(|r| r.outcome == "MATCH").unwrap();
    let id = format!("{} #{}", row.claim, row.check);
    row.outcome = "INCONCLUSIVE".into();
    std::fs::write(&path, serde_json::to_string_pretty(&stored).unwrap()).unwrap();
    let (code, stdout, _) = judge();
    assert_eq!(code, 1);
    let differing = serde_json::from_str::<WireRecheck>(&stdout).unwrap().stored.unwrap().differing;
    assert_eq!(differing.len(), 1, "{differing:?}");
    assert!(differing[0].starts_with(&id), "{differing:?}");
    let (code, stdout, _) = claimcheck(["recheck".as_ref(), "--fresh".as_ref(), FRESH.as_ref(), "--root".as_ref(), root]);
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
fn the_recheck_run_of_the_shared_timing_code_is_judged_against_the_rebound_registry() {
    // Made after the three suites' timed invocations became one `Rotation`: it was accepted,
    // and found no quoted latency that does not hold. Its rows judged the runs of 2026-12-02,
    // so none is judged again since the suites were re-bound to 20261205T053553Z-all. Its
    // run gave each entry a cycle of buffer sets of its own, and the runs quoted now take the
    // next set for every call: its rounds-only rule used to call three latencies MISMATCH for
    // that alone, and now compares no absolute time across the two protocols, saying why once
    // for each configuration.
    let run = "evidence/runs/20261202T141249Z-recheck";
    let (code, stdout, stderr) = claimcheck(["recheck", "--fresh", run]);
    assert!(stdout.contains(&format!("{run}/recheck.json: no stored row is judged again")), "{stdout}{stderr}");
    assert!(!stdout.contains("DIFFER"), "{stdout}");
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("0 MISMATCH"), "{stdout}");
    for row in ["P1 #1 INCOMPARABLE 16.79 µs", "F7 #1 INCOMPARABLE 4.70 µs", "F11 #12 INCOMPARABLE 19.18 µs"] {
        assert!(stdout.contains(row), "{row}: {stdout}");
    }
    let f7 = stdout.lines().find(|l| l.starts_with("F7 #1 INCOMPARABLE")).unwrap();
    assert_eq!(f7.matches("softmax 4096x4096 four-kernel: buffer sets taken from one set here").count(), 1, "{f7}");
    // As JSON, the comparison with the stored table is part of the one document on stdout.
    let (json_code, stdout, stderr) = claimcheck(["recheck", "--fresh", run, "--format", "json"]);
    assert_eq!(json_code, code);
    let report: WireRecheck = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    let stored = report.stored.expect("the run stores a judgement");
    assert_eq!(stored.path, format!("{run}/recheck.json"));
    assert_eq!((stored.compared, stored.differing.len()), (0, 0), "{stored:?}");
    assert!(stored.only_stored > 0 && stored.only_now > 0, "{stored:?}");
    assert_eq!(report.counts.get("MISMATCH"), None, "{:?}", report.counts);
}

#[test]
fn the_fresh_rechecks_under_the_hierarchical_rule_judge_the_rebound_registry_without_a_difference() {
    // Two pairs of `recheck --gpu` runs, each pair of one commit on the H200, judged by
    // runs-then-rounds with the committed calibration and Holm over the table: no MISMATCH when
    // stored, the first configuration timed at a stable clock. Every row they store judged the
    // runs the article quoted before its suites were re-bound to 20261205T053553Z-all and its
    // benchmark paragraph to the runs of the fair protocol, so none is judged again and none is
    // called different. Judged against today's registry, the hierarchical rule compares no
    // absolute time of theirs with the runs quoted now, which took their buffer sets otherwise,
    // and the first pair (made before version 10, when Liger's softmax was faster than ours at
    // 1024x32768, as the article then said) shows that one ordering reversed: the check now
    // orders ours before Liger and Triton there, and with the Triton peer missing from those
    // runs the Liger pair is still judged.
    for (run, reversed) in [
        ("evidence/runs/20261202T192444Z-recheck", true),
        ("evidence/runs/20261202T192602Z-recheck", true),
        ("evidence/runs/20261203T220124Z-recheck", false),
        ("evidence/runs/20261203T220307Z-recheck", false),
    ] {
        let (code, stdout, stderr) = claimcheck(["recheck", "--fresh", run]);
        assert!(stdout.contains(&format!("{run}/recheck.json: no stored row is judged again")), "{stdout}{stderr}");
        assert!(!stdout.contains("DIFFER"), "{stdout}");
        assert!(
            stdout.contains("F6 #1 INCOMPARABLE 157.62 µs: median host_us; absolute times not compared: softmax 4096x4096 four-kernel: buffer sets taken from one set here and per invocation over 2 sets in evidence/runs/20261205T053553Z-all"),
            "{stdout}"
        );
        let mismatches: Vec<&str> = stdout.lines().filter(|l| l.trim_end().ends_with("MISMATCH     │")).collect();
        if reversed {
            assert_eq!(code, 1, "{stdout}");
            assert_eq!(mismatches.len(), 1, "{stdout}");
            assert!(mismatches[0].contains("F13 #6") && mismatches[0].contains("1024x32768: fused < liger"), "{stdout}");
        } else {
            assert_eq!(code, 0, "{stdout}");
            assert!(mismatches.is_empty(), "{stdout}");
        }
        let stored: WireRecheck = serde_json::from_slice(&std::fs::read(format!("{run}/recheck.json")).unwrap()).unwrap();
        assert_eq!(stored.rule.resampled, "runs, then rounds within each run");
        assert_eq!(stored.counts.get("MISMATCH"), None, "{:?}", stored.counts);
        assert!(stored.rows.iter().all(|r| r.level.is_some() || r.outcome == "INCOMPARABLE"));
        let meta: serde_json::Value = serde_json::from_slice(&std::fs::read(format!("{run}/meta.json")).unwrap()).unwrap();
        let first = &meta["cases"][0]["clocks"];
        assert_eq!(first["stable"], true, "{first}");
        assert_eq!(first["sm_mhz_before"], first["sm_mhz_after"], "{first}");
    }
}

#[test]
fn the_calibration_of_the_committed_runs_meets_its_targets() {
    // At most 5 % MISMATCH between runs of unchanged code, and the share of 90 % intervals
    // excluding 1 within 5 points of 10 %, with σ from every run (what the recheck uses).
    let cal: claimcheck::evidence::calibration::CalibrationFile = serde_json::from_slice(&std::fs::read("evidence/calibration.json").unwrap()).unwrap();
    let r = &cal.in_sample;
    assert!(r.judgements > 1000, "{r:?}");
    assert!(r.mismatched as f64 <= 0.05 * r.judgements as f64, "{r:?}");
    let excluding = r.excluding_one as f64 / r.judgements as f64;
    assert!((excluding - cal.rule.nominal_excluding_one).abs() <= 0.05, "{excluding}");
}

/// The one row of an offline recheck of `root`, which exits 0.
fn single_row(root: &std::path::Path) -> claimcheck::report::recheck::WireRow {
    let (code, report) = offline_json(root);
    assert_eq!(code, 0, "{report:?}");
    assert_eq!(report.rows.len(), 1, "{:?}", report.rows);
    report.rows.into_iter().next().unwrap()
}

/// Five request timings of endpoint `get` in milliseconds, one a line, each with its round or
/// none.
fn requests(rounds: bool) -> String {
    let ms = [11.0, 12.0, 12.5, 13.0, 14.0];
    let round = |r: usize| if rounds { format!("\"round\":{r},") } else { String::new() };
    ms.iter().enumerate().map(|(r, v)| format!("{{\"endpoint\":\"get\",{}\"ms\":{v}}}\n", round(r))).collect()
}

/// A root holding `article` as `article/a.md` and the timings as `evidence/requests.jsonl`
/// (with rounds), and an empty `claims/`; the article's SHA-256 for the registry.
fn own_harness(root: &std::path::Path, article: &str) -> String {
    for sub in ["article", "claims", "evidence"] {
        std::fs::create_dir(root.join(sub)).unwrap();
    }
    std::fs::write(root.join("article/a.md"), article).unwrap();
    std::fs::write(root.join("evidence/requests.jsonl"), requests(true)).unwrap();
    claimcheck::hash::sha256_hex(article.as_bytes())
}

/// Samples of the user's own harness (each with its round), outside any run and with no
/// summary beside them, have nothing saved to compare: the recheck judges the quote against
/// the raw samples alone. A summary the check names but that is missing is still a problem.
#[test]
fn samples_without_a_summary_are_judged_on_the_samples_alone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let sha = own_harness(root, "# Own harness\n\nThe median request took 12.5 ms.\n");
    let registry = |extra: &str| {
        format!(
            "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"R1\"\nquote = \"The median request took 12.5 ms\"\nverdict = \"retain\"\nfinding = \"the median of five requests\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"12.5 ms\"\n  samples = \"evidence/requests.jsonl\"\n  select = {{ endpoint = \"get\" }}\n  field = \"ms\"\n  unit = \"ms\"\n  statistic = \"median\"\n{extra}"
        )
    };
    std::fs::write(root.join("claims/a.toml"), registry("")).unwrap();
    let (code, report) = offline_json(root);
    assert_eq!(code, 0, "{report:?}");
    assert_eq!(report.rows.len(), 1);
    assert_eq!(report.rows[0].outcome, "MATCH", "{:?}", report.rows[0]);
    assert!(report.rows[0].summary.is_none());
    std::fs::write(root.join("claims/a.toml"), registry("  summary = \"evidence/summary.json\"\n")).unwrap();
    let (code, report) = offline_json(root);
    assert_eq!(code, 1);
    assert!(report.rows[0].detail.contains("the saved summary has no median row"), "{:?}", report.rows[0]);
}

/// The offline recheck reads a run's JSONL records itself; a latency whose query it cannot read
/// so (a harness's own JSON, a `where`, a derived field, samples without rounds) is recomputed
/// through the check's own query, as the audit computes it, rather than recomputed as another
/// quantity, refused as a truncated JSONL file, or passed over. The shipped llmperf example
/// reads the harness's JSON arrays; its recheck and review hold.
#[test]
fn queries_in_other_formats_are_rechecked_through_the_checks_own_query() {
    // The llmperf example reads the harness's own JSON with a `where`: every latency it quotes
    // is recomputed through that query, as the audit computes it.
    let example = std::path::Path::new("examples/llmperf-leaderboard");
    let (code, report) = offline_json(example);
    assert_eq!(code, 0, "{report:?}");
    assert!(report.rows.len() >= 100, "only {} rows", report.rows.len());
    for r in &report.rows {
        assert_eq!(r.outcome, "MATCH", "{r:?}");
        assert!(r.detail.contains("read through the check's own query"), "{r:?}");
    }
    // The registry records this quote as wrong: the mean over the requests without an error
    // is 1.8956 s, which only the `where` gives.
    let wrong = report.rows.iter().find(|r| r.claim == "ttft13-together-mean").expect("the row of ttft13-together-mean");
    assert!((wrong.accepted.unwrap() - 1.8956).abs() < 5e-5, "{wrong:?}");
    assert!(wrong.detail.contains("the registry records the quote as wrong"), "{wrong:?}");
    let out = tempfile::tempdir().unwrap();
    let review = out.path().join("review.json");
    let (code, _, stderr) = claimcheck(["review".as_ref(), "--root".as_ref(), example.as_os_str(), "--out".as_ref(), review.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");

    // A `where` keeps the slow requests only: recomputed without it, the median would be 12.5
    // and the quote a MISMATCH.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let article = "# Own harness\n\nThe median slow request took 13.5 ms.\n";
    let sha = own_harness(root, article);
    let registry = format!(
        "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"R1\"\nquote = \"The median slow request took 13.5 ms\"\nverdict = \"retain\"\nfinding = \"the median of the two slow requests\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"13.5 ms\"\n  samples = \"evidence/requests.jsonl\"\n  select = {{ endpoint = \"get\" }}\n  where = \"ms > 12.75\"\n  field = \"ms\"\n  unit = \"ms\"\n  statistic = \"median\"\n"
    );
    std::fs::write(root.join("claims/a.toml"), &registry).unwrap();
    let row = single_row(root);
    assert_eq!(row.accepted, Some(13.5), "{row:?}");
    assert_eq!(row.outcome, "MATCH", "{row:?}");
    let (code, _, stderr) = claimcheck(["audit".as_ref(), "--root".as_ref(), root.as_os_str()]);
    assert_eq!(code, 0, "the audit reads the `where`: {stderr}");

    // The same file without rounds: read through the query, each sample is its own.
    std::fs::write(root.join("evidence/requests.jsonl"), requests(false)).unwrap();
    let (code, report) = offline_json(root);
    assert_eq!(code, 0, "{report:?}");
    assert_eq!(report.rows[0].accepted, Some(13.5), "{:?}", report.rows[0]);

    // Without the `where`, the query is plain JSONL, but its samples have no rounds: read
    // through the query too, not refused for the missing `round`.
    let all = article.replace("13.5 ms", "12.5 ms");
    std::fs::write(root.join("article/a.md"), &all).unwrap();
    let plain = registry.replace("  where = \"ms > 12.75\"\n", "").replace("13.5 ms", "12.5 ms").replace(&sha, &claimcheck::hash::sha256_hex(all.as_bytes()));
    std::fs::write(root.join("claims/a.toml"), plain).unwrap();
    let row = single_row(root);
    assert_eq!(row.accepted, Some(12.5), "{row:?}");
    assert_eq!(row.outcome, "MATCH", "{row:?}");
    std::fs::write(root.join("article/a.md"), article).unwrap();

    // A `where` over one of our own runs: its saved summary holds what `select` picks, not
    // what the `where` keeps, so the recheck recomputes the quantity without comparing it.
    let run = "evidence/runs/20261202T190120Z-softmax-bench";
    let own = tempfile::tempdir().unwrap();
    let own_root = own.path();
    for sub in ["article", "claims", run] {
        std::fs::create_dir_all(own_root.join(sub)).unwrap();
    }
    for file in ["samples.jsonl", "summary.json"] {
        std::fs::copy(format!("{run}/{file}"), own_root.join(run).join(file)).unwrap();
    }
    let mut kept: Vec<f64> = std::fs::read_to_string(format!("{run}/samples.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["case"] == "4096x4096" && r["variant"] == "fused" && r["mode"] == "graph")
        .map(|r| r["device_us"].as_f64().unwrap())
        .filter(|&v| v > 36.0)
        .collect();
    kept.sort_by(f64::total_cmp);
    let n = kept.len();
    assert!(n >= 2, "the `where` keeps {n} samples");
    let median = if n % 2 == 1 { kept[n / 2] } else { (kept[n / 2 - 1] + kept[n / 2]) / 2.0 };
    let article = format!("# Own run\n\nThe slow launches took {median:.2} us.\n");
    std::fs::write(own_root.join("article/a.md"), &article).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    let own_registry = format!(
        "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"S1\"\nquote = \"The slow launches took {median:.2} us\"\nverdict = \"retain\"\nfinding = \"the median of the slow launches\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{median:.2} us\"\n  samples = \"{run}/samples.jsonl\"\n  select = {{ suite = \"softmax-bench\", case = \"4096x4096\", variant = \"fused\", mode = \"graph\" }}\n  where = \"device_us > 36.0\"\n  field = \"device_us\"\n  unit = \"us\"\n  statistic = \"median\"\n"
    );
    std::fs::write(own_root.join("claims/a.toml"), own_registry).unwrap();
    let (code, _, stderr) = claimcheck(["audit".as_ref(), "--root".as_ref(), own_root.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
    let row = single_row(own_root);
    assert_eq!(row.outcome, "MATCH", "{row:?}");
    assert_eq!(row.summary, None, "{row:?}");
    assert!((row.accepted.unwrap() - median).abs() < 1e-9, "{row:?}");

    // A quote the query does not give is a MISMATCH, and the recheck says so with exit 1.
    std::fs::write(root.join("claims/a.toml"), registry.replace("where = \"ms > 12.75\"", "where = \"ms > 11.5\"")).unwrap();
    let (code, report) = offline_json(root);
    assert_eq!(report.rows[0].accepted, Some(12.75), "{:?}", report.rows[0]);
    assert_eq!(report.rows[0].outcome, "MISMATCH", "{:?}", report.rows[0]);
    assert_ne!(code, 0, "{report:?}");
}

/// The recheck of 2026-12-06 04:15 UTC ran on an H100, which the device lent for a call that
/// asked for the H200. Its absolute latencies are INCOMPARABLE; its orderings are judged inside
/// it, and each says that it was judged on the H100, not on the accepted runs' H200, so that it
/// is not read as confirming the article's card. Its stored table, written before that note was
/// added, still reproduces row by row: the comparison is of what each row judged, not of the
/// words that explain it.
#[test]
fn an_ordering_judged_on_another_card_says_which() {
    let run = "evidence/runs/20261206T041532Z-recheck";
    let (code, stdout, stderr) = claimcheck(["recheck", "--fresh", run, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let report: WireRecheck = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let orderings: Vec<_> = report.rows.iter().filter(|r| r.kind == "ordering").collect();
    assert_eq!(orderings.len(), 45);
    for r in &orderings {
        assert!(r.detail.ends_with("judged on the fresh run's NVIDIA H100 80GB HBM3, not on the accepted runs' NVIDIA H200"), "{}", r.detail);
    }
    assert!(report.rows.iter().filter(|r| r.kind == "latency").all(|r| r.outcome == "INCOMPARABLE"));
    let stored = report.stored.expect("the run stores its judgement");
    assert_eq!((stored.compared, stored.differing.len()), (71, 0), "{stored:?}");
}
