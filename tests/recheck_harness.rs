//! `recheck --fresh PATH` with another harness's output: the hyperfine fixtures (two real runs of
//! `sleep 0.01`, tests/fixtures/harness/hyperfine/) judged by the recheck's rule, paired by
//! layout, by file and by `--map`. claimcheck reads the files; it runs no command.

use crate::support;
use support::claimcheck;

const FIXTURES: &str = "tests/fixtures/harness/hyperfine";
const ARTICLE: &str = "# Timing\n\nThe command took 18.24 ms at the median.\n";

/// A root quoting the median of `accepted.json`, with the check's margin δ.
fn root(margin: f64) -> tempfile::TempDir {
    let dir = root_with(
        &["evidence/hyperfine", "rerun/hyperfine"],
        ARTICLE,
        &format!(
            "id = \"T1\"\nquote = \"The command took 18.24 ms at the median.\"\nverdict = \"retain\"\nfinding = \"The median of 20 runs.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"18.24 ms\"\n  samples = \"evidence/hyperfine/accepted.json\"\n  format = \"hyperfine\"\n  select = {{ command = \"sleep 0.01\" }}\n  field = \"time_s\"\n  statistic = \"median\"\n  margin = {margin}\n"
        ),
    );
    for f in ["accepted.json", "fresh.json"] {
        std::fs::copy(format!("{FIXTURES}/{f}"), dir.path().join("evidence/hyperfine").join(f)).unwrap();
    }
    dir
}

/// A root holding `folders`, `article` as `article/a.md` and a registry of one claim, `claim`
/// (the claim table's body), bound to it.
fn root_with(folders: &[&str], article: &str, claim: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims"].iter().chain(folders) {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    std::fs::write(dir.path().join("article/a.md"), article).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    std::fs::write(dir.path().join("claims/a.toml"), format!("[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\n{claim}")).unwrap();
    dir
}

fn recheck(dir: &tempfile::TempDir, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["recheck", "--root", dir.path().to_str().unwrap()];
    all.extend_from_slice(args);
    claimcheck(all)
}

#[test]
fn the_same_result_in_the_same_layout_matches() {
    let dir = root(0.25);
    std::fs::copy(dir.path().join("evidence/hyperfine/accepted.json"), dir.path().join("rerun/hyperfine/accepted.json")).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("rerun/hyperfine/accepted.json") && out.contains("MATCH"), "{out}");
    assert!(out.contains("1 rows (1 MATCH, 0 MISMATCH"), "{out}");
}

#[test]
fn the_fresh_hyperfine_run_is_inconclusive_at_a_wide_margin() {
    let (code, out, err) = recheck(&root(0.25), &["--fresh", "evidence/hyperfine/fresh.json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("13.35 ms") && out.contains("0 MISMATCH, 1 INCONCLUSIVE"), "{out}");
}

#[test]
fn the_fresh_hyperfine_run_is_a_mismatch_at_a_narrow_margin() {
    let (code, out, err) = recheck(&root(0.02), &["--fresh", "evidence/hyperfine/fresh.json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 rows (0 MATCH, 1 MISMATCH"), "{out}");
}

#[test]
fn a_mapped_result_without_the_selected_command_is_incomparable() {
    let dir = root(0.25);
    let text = std::fs::read_to_string(dir.path().join("evidence/hyperfine/fresh.json")).unwrap();
    std::fs::write(dir.path().join("rerun/other.json"), text.replace("sleep 0.01", "sleep 0.02")).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun", "--map", "evidence/hyperfine/accepted.json=rerun/other.json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("INCOMPARABLE") && out.contains("0 MATCH, 0 MISMATCH, 0 INCONCLUSIVE, 1 INCOMPARABLE"), "{out}");
}

#[test]
fn a_path_that_pairs_with_nothing_is_bad_input() {
    let (code, _, err) = recheck(&root(0.25), &["--fresh", "article"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--map ACCEPTED=FRESH"), "{err}");
    let (code, _, err) = recheck(&root(0.25), &["--fresh", "rerun", "--map", "evidence/hyperfine/accepted.json=../x.json"]);
    assert_eq!(code, 2, "{err}");
}

/// A root whose one sentence orders three providers by cargo-criterion records: the anvil
/// example's real output (examples/anvil-benchmarks/, MIT, credited there), one ordering over
/// every record of the Sequential Simulation group.
fn ordering_root() -> tempfile::TempDir {
    let article = "# Providers\n\nIn the sequential simulation ethers-reth is faster than both other providers.\n";
    let claim = "id = \"O1\"\nquote = \"In the sequential simulation ethers-reth is faster than both other providers.\"\nverdict = \"retain\"\nfinding = \"By the median iteration.\"\n\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"evidence/output.json\"\n  format = \"cargo-criterion\"\n  select = { group = \"Sequential Simulation\" }\n  field = \"time_ns\"\n  statistic = \"median\"\n  by = \"function\"\n  faster = \"ethers-reth\"\n  slower = [\"Ipc\", \"Local_Http\"]\n";
    let dir = root_with(&["evidence", "rerun"], article, claim);
    std::fs::copy("examples/anvil-benchmarks/evidence/output.json", dir.path().join("evidence/output.json")).unwrap();
    dir
}

#[test]
fn an_ordering_over_criterion_records_is_judged_offline_and_in_a_fresh_file() {
    let dir = ordering_root();
    let (code, out, err) = recheck(&dir, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ethers-reth < Ipc") && out.contains("ethers-reth < Local_Http"), "{out}");
    assert!(out.contains("2 rows (2 MATCH, 0 MISMATCH"), "{out}");
    // The same records as a fresh result: the same orderings hold.
    std::fs::copy(dir.path().join("evidence/output.json"), dir.path().join("rerun/output.json")).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun/output.json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 rows (2 MATCH, 0 MISMATCH"), "{out}");
    // A fresh result where ethers-reth and Ipc traded names: that ordering is shown not to
    // hold; one without Local_Http cannot judge that pair, and the other is still judged.
    let text = std::fs::read_to_string(dir.path().join("evidence/output.json")).unwrap();
    let swapped = text.replace("/ethers-reth/", "/SWAP/").replace("/Ipc/", "/ethers-reth/").replace("/SWAP/", "/Ipc/");
    std::fs::write(dir.path().join("rerun/output.json"), swapped).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun/output.json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 MISMATCH"), "{out}");
    let without: String = text.lines().filter(|l| !l.contains("/Local_Http/")).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("rerun/output.json"), without).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun/output.json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 rows (1 MATCH, 0 MISMATCH, 0 INCONCLUSIVE, 1 INCOMPARABLE)"), "{out}");
}

/// A root whose one sentence quotes the median of `sleep 0.01` pooled over three real hyperfine
/// runs (tests/fixtures/harness/hyperfine/pooled/, each of `sleep 0.01` and `sleep 0.02`), and
/// orders the two commands over the same three runs; the fresh run lies beside them. `runs`
/// names the three files the checks read (`samples`, then `pool`).
fn pooled_root(runs: [&str; 3]) -> tempfile::TempDir {
    let article = "# Pooled\n\nOver three runs the shorter sleep took 15.56 ms at the median, less than the longer one.\n";
    let files = |k: usize| format!("evidence/hyperfine/{}", runs[k]);
    let pool = format!("[\"{}\", \"{}\"]", files(1), files(2));
    let claim = format!(
        "id = \"P1\"\nquote = \"Over three runs the shorter sleep took 15.56 ms at the median, less than the longer one.\"\nverdict = \"retain\"\nfinding = \"The median of three runs' medians.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"15.56 ms\"\n  samples = \"{}\"\n  pool = {pool}\n  format = \"hyperfine\"\n  select = {{ command = \"sleep 0.01\" }}\n  field = \"time_s\"\n  statistic = \"median\"\n  margin = 0.25\n\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"{}\"\n  pool = {pool}\n  format = \"hyperfine\"\n  select = {{}}\n  by = \"command\"\n  field = \"time_s\"\n  statistic = \"median\"\n  faster = \"sleep 0.01\"\n  slower = [\"sleep 0.02\"]\n",
        files(0),
        files(0)
    );
    let dir = root_with(&["evidence/hyperfine"], article, &claim);
    for f in ["run1.json", "run2.json", "run3.json", "fresh.json"] {
        std::fs::copy(format!("{FIXTURES}/pooled/{f}"), dir.path().join("evidence/hyperfine").join(f)).unwrap();
    }
    dir
}

fn json_report(out: &str, err: &str) -> claimcheck::report::recheck::WireRecheck {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}{err}"))
}

/// Offline, a latency pooled over a harness's files is the median of their values, as the audit
/// pools it, and an ordering pooled over them is judged across them; both used to be passed
/// over as not rechecked.
#[test]
fn pooled_harness_checks_are_rechecked_offline_across_their_files() {
    let dir = pooled_root(["run1.json", "run2.json", "run3.json"]);
    let (code, out, err) = recheck(&dir, &["--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let report = json_report(&out, &err);
    assert_eq!(report.not_rechecked, 0, "{out}");
    assert_eq!(report.rows.len(), 2, "{out}");
    let latency = &report.rows[report.rows.iter().position(|r| r.kind == "latency").unwrap()];
    assert_eq!(latency.outcome, "MATCH", "{latency:?}");
    // The runs' medians are 15.562, 14.757 and 16.577 ms: the pooled value is the middle one.
    assert!((latency.accepted.unwrap() - 15.562).abs() < 1e-3, "{latency:?}");
    assert!(latency.detail.contains("median over 3 results"), "{}", latency.detail);
    let ordering = &report.rows[report.rows.iter().position(|r| r.kind == "ordering").unwrap()];
    assert_eq!(ordering.outcome, "MATCH", "{ordering:?}");
    assert!(ordering.detail.contains("3 results, resampled"), "{}", ordering.detail);
    assert_eq!(ordering.runs.as_ref().unwrap().fresh, 3, "{ordering:?}");
}

/// `run1.json` with every time multiplied by `k`: a mutation of real output, for a pool whose
/// results differ by more than their own samples explain.
fn scaled_run(dir: &tempfile::TempDir, name: &str, k: f64) {
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(format!("{FIXTURES}/pooled/run1.json")).unwrap()).unwrap();
    for result in doc["results"].as_array_mut().unwrap() {
        for t in result["times"].as_array_mut().unwrap() {
            *t = serde_json::json!(t.as_f64().unwrap() * k);
        }
    }
    std::fs::write(dir.path().join("evidence/hyperfine").join(name), doc.to_string()).unwrap();
}

/// With a fresh result, a pooled latency's accepted side is its results and the one fresh
/// result is widened by the spread measured between them, as `calibrate` measures it: none for
/// one file read thrice; none for the three real runs either, whose medians (14.76 to 16.58 ms)
/// differ by less than the noise of each run's 20 samples explains; about 10 % where the same
/// run is scaled by 0.9, 1 and 1.1. Pooled checks used to refuse the whole recheck.
#[test]
fn a_pooled_harness_latency_widens_the_fresh_result_by_the_spread_between_its_files() {
    let judge = |runs: [&str; 3], scaled: bool| {
        let dir = pooled_root(runs);
        if scaled {
            scaled_run(&dir, "low.json", 0.9);
            scaled_run(&dir, "high.json", 1.1);
        }
        let map = format!("evidence/hyperfine/{}=evidence/hyperfine/fresh.json", runs[0]);
        let (code, out, err) = recheck(&dir, &["--fresh", "evidence/hyperfine/fresh.json", "--map", &map, "--format", "json"]);
        assert_ne!(code, 2, "{out}{err}");
        let report = json_report(&out, &err);
        assert_eq!(report.rows.len(), 2, "{out}");
        let ordering = report.rows.iter().find(|r| r.kind == "ordering").unwrap().clone();
        assert_eq!(ordering.outcome, "MATCH", "{ordering:?}");
        report.rows.into_iter().find(|r| r.kind == "latency").unwrap()
    };
    let width = |r: &claimcheck::report::recheck::WireRow| {
        let [lo, hi] = r.interval.unwrap();
        hi.unwrap() - lo.unwrap()
    };
    let same = judge(["run1.json", "run1.json", "run1.json"], false);
    assert_eq!(same.runs.clone().map(|r| (r.accepted, r.fresh, r.widened_by)), Some((3, 1, Some(0.0))), "{same:?}");
    assert!(same.detail.contains("3 accepted results") && same.detail.contains("widened by σ = 0.0 %"), "{}", same.detail);
    let real = judge(["run1.json", "run2.json", "run3.json"], false);
    assert_eq!(real.runs.clone().map(|r| (r.accepted, r.widened_by)), Some((3, Some(0.0))), "{real:?}");
    assert!((real.accepted.unwrap() - 15.562).abs() < 1e-3, "{real:?}");
    let apart = judge(["run1.json", "low.json", "high.json"], true);
    let widened = apart.runs.clone().unwrap().widened_by.unwrap();
    assert!((0.06..0.12).contains(&widened), "{apart:?}");
    assert!(width(&apart) > width(&same) + 0.1, "results that differ give a wider interval: {apart:?} against {same:?}");
}

/// A pooled ordering over a harness's JSONL records (no `round`) is judged offline as a
/// harness's ordering, not refused for want of rounds, and is refused, as the audit refuses
/// it, where any of its files, not only the first, timed the two sides by different protocols.
#[test]
fn a_pooled_harness_ordering_is_refused_where_a_pooled_file_mixes_protocols() {
    let article = "# Pooled\n\nThe new command was faster than the old one.\n";
    let claim = "id = \"O1\"\nquote = \"The new command was faster than the old one.\"\nverdict = \"retain\"\nfinding = \"Ordered in both files.\"\n\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"evidence/a.jsonl\"\n  pool = [\"evidence/b.jsonl\"]\n  select = {}\n  by = \"command\"\n  field = \"time_s\"\n  statistic = \"median\"\n  faster = \"new\"\n  slower = [\"old\"]\n";
    let dir = root_with(&["evidence"], article, claim);
    let records = |old_protocol: &str| {
        (0..5)
            .map(|i| {
                format!(
                    "{{\"command\":\"new\",\"protocol\":\"wall\",\"time_s\":{}}}\n{{\"command\":\"old\",\"protocol\":\"{old_protocol}\",\"time_s\":{}}}\n",
                    1.0 + 0.01 * i as f64,
                    2.0 + 0.01 * i as f64
                )
            })
            .collect::<String>()
    };
    std::fs::write(dir.path().join("evidence/a.jsonl"), records("wall")).unwrap();
    std::fs::write(dir.path().join("evidence/b.jsonl"), records("wall")).unwrap();
    let (code, out, err) = recheck(&dir, &[]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::write(dir.path().join("evidence/b.jsonl"), records("cpu")).unwrap();
    let (code, out, err) = recheck(&dir, &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("evidence/b.jsonl") && err.contains("claim O1 check 1"), "{err}");
}

/// A quoted extreme is never judged by the bootstrap, which keeps the observed minimum in
/// about 63 % of its resamples and so gives it too narrow an interval: with a fresh result the
/// minimum and maximum of hyperfine's table are INCOMPARABLE, each saying why, and take no part
/// in the family, while the median beside them is judged as ever. An ordering by the minimum
/// is refused in the same way, offline too.
#[test]
fn quoted_extremes_are_not_judged_by_the_bootstrap() {
    let article = "# Timing\n\nThe command took 18.24 ms at the median, 6.50 ms at the fastest and 34.35 ms at the slowest.\n";
    let check = |number: &str, statistic: &str| {
        format!(
            "\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{number}\"\n  samples = \"evidence/hyperfine/accepted.json\"\n  format = \"hyperfine\"\n  select = {{ command = \"sleep 0.01\" }}\n  field = \"time_s\"\n  statistic = \"{statistic}\"\n  margin = 0.25\n"
        )
    };
    let claim = format!(
        "id = \"T1\"\nquote = \"The command took 18.24 ms at the median, 6.50 ms at the fastest and 34.35 ms at the slowest.\"\nverdict = \"retain\"\nfinding = \"Of 20 runs.\"\n{}{}{}",
        check("18.24 ms", "median"),
        check("6.50 ms", "min"),
        check("34.35 ms", "max")
    );
    let dir = root_with(&["evidence/hyperfine"], article, &claim);
    for f in ["accepted.json", "fresh.json"] {
        std::fs::copy(format!("{FIXTURES}/{f}"), dir.path().join("evidence/hyperfine").join(f)).unwrap();
    }
    // Offline each quote is held against the recomputed value, which needs no interval.
    let (code, out, err) = recheck(&dir, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("3 rows (3 MATCH, 0 MISMATCH"), "{out}");
    let map = "evidence/hyperfine/accepted.json=evidence/hyperfine/fresh.json";
    let (code, out, err) = recheck(&dir, &["--fresh", "evidence/hyperfine/fresh.json", "--map", map, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let report = json_report(&out, &err);
    let row = |check: usize| report.rows.iter().find(|r| r.check == check).unwrap_or_else(|| panic!("{out}"));
    assert_eq!(row(1).outcome, "INCONCLUSIVE", "{:?}", row(1));
    assert!(row(1).level.is_some(), "the median takes part in the family: {:?}", row(1));
    for (check, name) in [(2, "min"), (3, "max")] {
        let r = row(check);
        assert_eq!(r.outcome, "INCOMPARABLE", "{r:?}");
        assert!(r.detail.contains(&format!("no bootstrap interval for an extreme ({name})")), "{}", r.detail);
        assert!(r.level.is_none() && r.fresh.is_some(), "{r:?}");
    }
    // With one row in the family, the median is tested at the full 5 %, not at 5 % over three.
    assert!((row(1).level.unwrap() - 0.05).abs() < 1e-12, "{:?}", row(1));

    // An ordering of the two pooled commands by their fastest run.
    let article = "# Pooled\n\nThe shorter sleep is faster at its fastest run.\n";
    let claim = "id = \"O1\"\nquote = \"The shorter sleep is faster at its fastest run.\"\nverdict = \"retain\"\nfinding = \"By the minimum.\"\n\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"evidence/hyperfine/run1.json\"\n  format = \"hyperfine\"\n  select = {}\n  by = \"command\"\n  field = \"time_s\"\n  statistic = \"min\"\n  faster = \"sleep 0.01\"\n  slower = [\"sleep 0.02\"]\n";
    let dir = root_with(&["evidence/hyperfine"], article, claim);
    std::fs::copy(format!("{FIXTURES}/pooled/run1.json"), dir.path().join("evidence/hyperfine/run1.json")).unwrap();
    let (code, out, err) = recheck(&dir, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 rows (0 MATCH, 0 MISMATCH, 0 INCONCLUSIVE, 1 INCOMPARABLE)") && out.contains("no bootstrap interval for an extreme (min)"), "{out}");
}

/// A time quoted as benchstat before 2023 computed it, the mean of the values inside Tukey's
/// fences, is bound and holds in the audit, and the recheck passes it over, counted among the
/// checks not rechecked: a resample would move the fences. The median of the same records,
/// without `outliers`, is a row, and a MATCH.
#[test]
fn a_statistic_with_outliers_dropped_is_not_resampled() {
    let case = |quote: &str, statistic: &str, fenced: &str| {
        let sentence = format!("Building the opticks index with narrow offsets took {quote}.");
        let claim = format!(
            "id = \"S1\"\nquote = \"{sentence}\"\nverdict = \"retain\"\nfinding = \"benchstat's value.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{quote}\"\n  samples = \"evidence/suffixarray.bench\"\n  format = \"go-bench\"\n  select = {{ name = \"BenchmarkNew/text=opticks/size=100K/bits=32\" }}\n  field = \"time_ns\"\n  statistic = \"{statistic}\"\n{fenced}"
        );
        let dir = root_with(&["evidence"], &format!("# Suffix arrays\n\n{sentence}\n"), &claim);
        std::fs::copy("tests/fixtures/harness/go-bench/suffixarray.bench", dir.path().join("evidence/suffixarray.bench")).unwrap();
        let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
        assert_eq!(code, 0, "{out}{err}");
        let (code, out, err) = recheck(&dir, &["--format", "json"]);
        assert_eq!(code, 0, "{out}{err}");
        let report = json_report(&out, &err);
        (report.rows.iter().map(|r| r.outcome.clone()).collect::<Vec<_>>(), report.not_rechecked)
    };
    // benchstat's `4.28ms ±13%` (suffixarray-benchstat-2017.txt).
    assert_eq!(case("4.28 ms", "mean", "  outliers = \"tukey\"\n"), (vec![], 1));
    assert_eq!(case("4.08 ms", "median", ""), (vec!["MATCH".to_string()], 0));
}

/// hyperfine's `Time (mean ± σ)` quoted whole: the mean is a latency and a row, the standard
/// deviation beside it a spread, bound and holding in the audit but not rechecked. Judged by a
/// latency's margin, the fresh run's σ (8.23 ms against 7.48 ms) would be asked whether the
/// noise repeats, and its row would widen the family the mean is tested in.
#[test]
fn a_standard_deviation_is_a_spread_and_not_rechecked_as_a_latency() {
    let sentence = "The command took 18.85 ms ± 7.48 ms (mean ± σ).";
    let check = |number: &str, statistic: &str| {
        format!(
            "\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{number}\"\n  samples = \"evidence/hyperfine/accepted.json\"\n  format = \"hyperfine\"\n  select = {{ command = \"sleep 0.01\" }}\n  field = \"time_s\"\n  statistic = \"{statistic}\"\n  margin = 0.5\n"
        )
    };
    let claim = format!(
        "id = \"T1\"\nquote = \"{sentence}\"\nverdict = \"retain\"\nfinding = \"hyperfine's mean and standard deviation of 20 runs.\"\n{}{}",
        check("18.85 ms", "mean"),
        check("7.48 ms", "stdev")
    );
    let dir = root_with(&["evidence/hyperfine"], &format!("# Timing\n\n{sentence}\n"), &claim);
    for f in ["accepted.json", "fresh.json"] {
        std::fs::copy(format!("{FIXTURES}/{f}"), dir.path().join("evidence/hyperfine").join(f)).unwrap();
    }
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2/2"), "both numbers hold in the audit: {out}");
    for args in [&[][..], &["--fresh", "evidence/hyperfine/fresh.json"][..]] {
        let (code, out, err) = recheck(&dir, &[args, &["--format", "json"][..]].concat());
        assert_eq!(code, 0, "{out}{err}");
        let report = json_report(&out, &err);
        assert_eq!(report.rows.len(), 1, "{args:?}: {out}");
        assert_eq!(report.rows[0].check, 1, "the mean is the row: {args:?}: {out}");
        assert_eq!(report.not_rechecked, 1, "{args:?}: {out}");
    }
}

/// An ordering over Go's `go test -bench -count 10` records: the Go team's own output of
/// `index/suffixarray` (tests/fixtures/harness/go-bench/suffixarray.bench, BSD 3-Clause,
/// credited in its SOURCE.md), where building the index of 100K of Go source with 32-bit
/// offsets is faster than with 64-bit ones by the median of ten runs each (the sentence says
/// it without numbers, which would otherwise be unbound). It holds in the audit, offline, and in
/// the same file given as a fresh result; with the two names traded in the fresh file it does
/// not.
#[test]
fn an_ordering_over_go_benchmark_lines_is_judged_offline_and_in_a_fresh_file() {
    let article = "# Suffix arrays\n\nOn Go source, the index of narrow offsets is built faster than the one of wide offsets.\n";
    let claim = "id = \"G1\"\nquote = \"On Go source, the index of narrow offsets is built faster than the one of wide offsets.\"\nverdict = \"retain\"\nfinding = \"By the median of ten runs each.\"\n\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"evidence/suffixarray.bench\"\n  format = \"go-bench\"\n  select = { pkg = \"index/suffixarray\" }\n  field = \"time_ns\"\n  statistic = \"median\"\n  by = \"name\"\n  faster = \"BenchmarkNew/text=go/size=100K/bits=32\"\n  slower = [\"BenchmarkNew/text=go/size=100K/bits=64\"]\n";
    let dir = root_with(&["evidence", "rerun"], article, claim);
    let text = std::fs::read_to_string("tests/fixtures/harness/go-bench/suffixarray.bench").unwrap();
    std::fs::write(dir.path().join("evidence/suffixarray.bench"), &text).unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 check: 1 passed"), "{out}");
    let (code, out, err) = recheck(&dir, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 rows (1 MATCH, 0 MISMATCH"), "{out}");
    std::fs::write(dir.path().join("rerun/suffixarray.bench"), &text).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun/suffixarray.bench"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 rows (1 MATCH, 0 MISMATCH"), "{out}");
    let swapped = text.replace("size=100K/bits=32-", "SWAP-").replace("size=100K/bits=64-", "size=100K/bits=32-").replace("SWAP-", "size=100K/bits=64-");
    std::fs::write(dir.path().join("rerun/suffixarray.bench"), swapped).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun/suffixarray.bench"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 rows (0 MATCH, 1 MISMATCH"), "{out}");
}

const CRITERION: &str = "tests/fixtures/harness/criterion/criterion";
const PARSE: &str = "evidence/criterion/parse_u64/new";

/// criterion's slope of each fixture benchmark, from its `estimates.json`: the number criterion
/// prints in linear sampling.
fn criterion_slope(id: &str) -> f64 {
    let text = std::fs::read_to_string(format!("{CRITERION}/{id}/new/estimates.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["slope"]["point_estimate"].as_f64().unwrap()
}

/// Copies criterion's files of `id` (tests/fixtures/harness/criterion/, real output of
/// criterion.rs 0.8.2) to `to/criterion/<id>/new/`, every batch's time multiplied by `k`.
fn criterion_files(dir: &tempfile::TempDir, id: &str, to: &str, k: f64) {
    let there = dir.path().join(format!("{to}/criterion/{id}/new"));
    std::fs::create_dir_all(&there).unwrap();
    std::fs::copy(format!("{CRITERION}/{id}/new/benchmark.json"), there.join("benchmark.json")).unwrap();
    let mut sample: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(format!("{CRITERION}/{id}/new/sample.json")).unwrap()).unwrap();
    if k != 1.0 {
        for t in sample["times"].as_array_mut().unwrap() {
            *t = serde_json::json!(t.as_f64().unwrap() * k);
        }
    }
    std::fs::write(there.join("sample.json"), sample.to_string()).unwrap();
}

/// A `stat` check of criterion's slope of the batches in `samples`.
fn slope_check(number: &str, samples: &str, extra: &str) -> String {
    format!(
        "\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{number}\"\n  samples = \"{samples}/sample.json\"\n  select = {{}}\n  field = \"batch_time_ns\"\n  statistic = \"slope\"\n  per = \"iters\"\n{extra}"
    )
}

/// A root whose one sentence quotes `number` as criterion's slope of `parse_u64`, with the
/// check's margin δ; the fixture's files lie in `evidence/`, and a folder `rerun/` waits for a
/// fresh result in the same layout.
fn criterion_root(number: &str, margin: f64) -> tempfile::TempDir {
    let article = format!("# Parsing\n\nParsing a number took {number} per call.\n");
    let claim = format!(
        "id = \"S1\"\nquote = \"Parsing a number took {number} per call.\"\nverdict = \"retain\"\nfinding = \"criterion's slope.\"\n{}",
        slope_check(number, PARSE, &format!("  margin = {margin}\n"))
    );
    let dir = root_with(&["rerun"], &article, &claim);
    criterion_files(&dir, "parse_u64", "evidence", 1.0);
    dir
}

/// criterion's slope of `parse_u64` is 18.634 ns: quoted so, the offline recheck recomputes it
/// from the batches through the check's own query (the same number to the bit) and calls it a
/// MATCH; quoted 30 % high, 24.224 ns, it is a MISMATCH. A slope used to be passed over as not
/// rechecked.
#[test]
fn a_criterion_slope_is_rechecked_offline_against_its_quote() {
    let (code, out, err) = recheck(&criterion_root("18.634 ns", 0.10), &["--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let report = json_report(&out, &err);
    assert_eq!((report.rows.len(), report.not_rechecked), (1, 0), "{out}");
    let row = &report.rows[0];
    assert_eq!(row.outcome, "MATCH", "{row:?}");
    let slope = criterion_slope("parse_u64");
    assert!((row.accepted.unwrap() / slope - 1.0).abs() < 1e-6, "{row:?} against criterion's {slope}");
    assert_eq!(row.detail, "slope of batch_time_ns over iters through the origin, read through the check's own query", "{row:?}");
    let (code, out, err) = recheck(&criterion_root("24.224 ns", 0.10), &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 rows (0 MATCH, 1 MISMATCH") && out.contains("0 other checks not rechecked"), "{out}");
}

/// The row of `parse_u64`'s slope quoted right at margin δ, judged against a fresh result in
/// the same layout whose batches took `k` times as long, with the bootstrap's `seed`.
fn fresh_slope_row(margin: f64, k: f64, seed: &str) -> claimcheck::report::recheck::WireRow {
    let dir = criterion_root("18.634 ns", margin);
    criterion_files(&dir, "parse_u64", "rerun", k);
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun", "--seed", seed, "--format", "json"]);
    assert_ne!(code, 2, "{out}{err}");
    let report = json_report(&out, &err);
    assert_eq!((report.rows.len(), report.not_rechecked), (1, 0), "{out}");
    report.rows[0].clone()
}

/// A fresh result of the same benchmark is judged by the bootstrap of its batches'
/// (iters, time) pairs against the accepted one's. Ten batches of a noisy machine leave the
/// slope uncertain by about 6 % a side (criterion's own 95 % interval is 16.16 to 20.53 ns), so
/// ln(fresh ÷ accepted) has an interval about ±0.17 wide at the row's level: the same batches
/// again are a MATCH at δ = 25 %, and INCONCLUSIVE at δ = 10 %, which ten batches cannot earn.
#[test]
fn a_criterion_slope_reproduced_in_a_fresh_result_matches_where_its_batches_allow() {
    let same = fresh_slope_row(0.25, 1.0, "20261202");
    assert_eq!(same.outcome, "MATCH", "{same:?}");
    assert_eq!(same.ratio, Some(1.0), "{same:?}");
    assert!(same.detail.starts_with("slope of batch_time_ns over iters through the origin; one result a side"), "{}", same.detail);
    let narrow = fresh_slope_row(0.10, 1.0, "20261202");
    assert_eq!(narrow.outcome, "INCONCLUSIVE", "{narrow:?}");
}

/// Batches 30 % faster in the fresh result (ln 0.7 = −0.36) are a MISMATCH at δ = 10 %. (30 %
/// slower, ln 1.3 = 0.26, lies within what ten batches a side tell apart from 10 % at the
/// row's level, so the test takes the change the fixture can resolve.)
#[test]
fn a_criterion_slope_30_percent_off_in_a_fresh_result_is_a_mismatch() {
    let faster = fresh_slope_row(0.10, 0.7, "20261202");
    assert_eq!(faster.outcome, "MISMATCH", "{faster:?}");
    assert!((faster.ratio.unwrap() - 0.7).abs() < 1e-6, "{faster:?}");
}

/// A slope's judgement is the same to the last digit for the same seed, and another seed draws
/// other resamples.
#[test]
fn a_fresh_criterion_slope_s_judgement_is_fixed_by_the_seed() {
    let row = fresh_slope_row(0.25, 1.0, "20261202");
    assert_eq!(fresh_slope_row(0.25, 1.0, "20261202"), row);
    assert_ne!(fresh_slope_row(0.25, 1.0, "7").interval, row.interval);
}

/// An expression over two slopes (how much longer summing 1024 numbers took than summing 64)
/// is rechecked as a latency: offline it is the difference of criterion's two slopes; with a
/// fresh result, each variable's pairs are drawn on their own, the two files' batches sharing
/// nothing.
#[test]
fn an_expression_over_criterion_slopes_is_rechecked() {
    let (short, long) = (criterion_slope("sum/iter/64"), criterion_slope("sum/iter/1024"));
    let article = "# Sums\n\nThe long sum took 360.98 ns more than the short one.\n";
    let var = |id: &str| format!("{{ samples = \"evidence/criterion/{id}/new/sample.json\", select = {{}}, field = \"batch_time_ns\", statistic = \"slope\", per = \"iters\" }}");
    let claim = format!(
        "id = \"E1\"\nquote = \"The long sum took 360.98 ns more than the short one.\"\nverdict = \"retain\"\nfinding = \"The difference of criterion's slopes.\"\n\n  [[claim.check]]\n  kind = \"arith\"\n  number = \"360.98 ns\"\n  expr = \"long - short\"\n  margin = 0.25\n  vars.short = {}\n  vars.long = {}\n",
        var("sum/iter/64"),
        var("sum/iter/1024")
    );
    let dir = root_with(&["rerun"], article, &claim);
    for id in ["sum/iter/64", "sum/iter/1024"] {
        criterion_files(&dir, id, "evidence", 1.0);
        criterion_files(&dir, id, "rerun", 1.0);
    }
    let (code, out, err) = recheck(&dir, &["--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let report = json_report(&out, &err);
    assert_eq!((report.rows.len(), report.not_rechecked), (1, 0), "{out}");
    assert_eq!(report.rows[0].outcome, "MATCH", "{out}");
    assert!((report.rows[0].accepted.unwrap() / (long - short) - 1.0).abs() < 1e-6, "{out}");
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let row = json_report(&out, &err).rows.remove(0);
    assert!(row.level.is_some() && row.interval.is_some() && row.ratio == Some(1.0), "{row:?}");
    assert!(row.detail.starts_with("long - short; one result a side"), "{}", row.detail);
}

/// A slope pooled over several results is the median of their slopes, offline as the audit
/// pools it; with a fresh result, the results are resampled, then each one's pairs, and the
/// one fresh result is widened by the spread between them. Here the pool is the fixture with
/// every time scaled by 0.9, 1 and 1.1, so the median is criterion's own slope, and the spread
/// is about 8 %: the 10 % steps between the results, less what the noise of each one's ten
/// batches already explains (σ² = var of their ln slopes − mean within-result variance).
#[test]
fn a_pooled_criterion_slope_is_judged_across_its_results() {
    let article = "# Parsing\n\nOver three runs parsing a number took 18.634 ns per call.\n";
    let pool = "  pool = [\"low/criterion/parse_u64/new/sample.json\", \"high/criterion/parse_u64/new/sample.json\"]\n";
    let claim = format!(
        "id = \"P1\"\nquote = \"Over three runs parsing a number took 18.634 ns per call.\"\nverdict = \"retain\"\nfinding = \"The median of three runs' slopes.\"\n{}",
        slope_check("18.634 ns", PARSE, &format!("{pool}  margin = 0.25\n"))
    );
    let dir = root_with(&["rerun"], article, &claim);
    for (to, k) in [("evidence", 1.0), ("low", 0.9), ("high", 1.1), ("rerun", 1.0)] {
        criterion_files(&dir, "parse_u64", to, k);
    }
    let (code, out, err) = recheck(&dir, &["--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let row = json_report(&out, &err).rows.remove(0);
    assert_eq!(row.outcome, "MATCH", "{row:?}");
    assert!(row.detail.contains("median over 3 results"), "{}", row.detail);
    let map = format!("{PARSE}/sample.json=rerun/criterion/parse_u64/new/sample.json");
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun", "--map", &map, "--format", "json"]);
    assert_ne!(code, 2, "{out}{err}");
    let row = json_report(&out, &err).rows.remove(0);
    let runs = row.runs.clone().unwrap();
    assert_eq!((runs.accepted, runs.fresh), (3, 1), "{row:?}");
    assert!((0.05..0.12).contains(&runs.widened_by.unwrap()), "{row:?}");
    assert!(row.detail.contains("3 accepted results, resampled, then their samples"), "{}", row.detail);
}

/// A latency and an ordering over JMH's `-rf json` records: twineworks/collections' run
/// (tests/fixtures/harness/jmh/twineworks-collections.json, MIT, credited in its SOURCE.md),
/// where a put into a big HashMap took 13.308 ns by the mean of ten iterations and the inline
/// caching accessor reads faster than HashMap. Both hold in the audit, offline, and in the same
/// file given as a fresh result; with the two read benchmarks' names traded in the fresh file,
/// the ordering does not.
#[test]
fn a_latency_and_an_ordering_over_jmh_results_are_judged_offline_and_in_a_fresh_file() {
    let article = "# Maps\n\nA put into a big HashMap took 13.308 ns, and the accessor reads faster than HashMap does.\n";
    let prefix = "io.twineworks.collections.shapemap.BigMapBenchmark";
    let claim = format!(
        "id = \"J1\"\nquote = \"A put into a big HashMap took 13.308 ns, and the accessor reads faster than HashMap does.\"\nverdict = \"retain\"\nfinding = \"By the mean of ten iterations.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"13.308 ns\"\n  samples = \"evidence/jmh-result.json\"\n  select = {{ benchmark = \"{prefix}.putHashMap\" }}\n  field = \"time_ns\"\n  statistic = \"mean\"\n\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"evidence/jmh-result.json\"\n  format = \"jmh\"\n  select = {{}}\n  field = \"time_ns\"\n  statistic = \"mean\"\n  by = \"benchmark\"\n  faster = \"{prefix}.readShapeMapAccessor\"\n  slower = [\"{prefix}.readHashMap\"]\n"
    );
    let dir = root_with(&["evidence", "rerun"], article, &claim);
    let text = std::fs::read_to_string("tests/fixtures/harness/jmh/twineworks-collections.json").unwrap();
    std::fs::write(dir.path().join("evidence/jmh-result.json"), &text).unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 checks: 2 passed"), "{out}");
    let (code, out, err) = recheck(&dir, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 rows (2 MATCH, 0 MISMATCH"), "{out}");
    std::fs::write(dir.path().join("rerun/jmh-result.json"), &text).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun/jmh-result.json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 rows (2 MATCH, 0 MISMATCH"), "{out}");
    let swapped = text
        .replace("BigMapBenchmark.readShapeMapAccessor\"", "SWAP\"")
        .replace("BigMapBenchmark.readHashMap\"", "BigMapBenchmark.readShapeMapAccessor\"")
        .replace("SWAP\"", "BigMapBenchmark.readHashMap\"");
    std::fs::write(dir.path().join("rerun/jmh-result.json"), swapped).unwrap();
    let (code, out, err) = recheck(&dir, &["--fresh", "rerun/jmh-result.json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("2 rows (1 MATCH, 1 MISMATCH"), "{out}");
}

/// An ordering between two benchmarks of one `go test -bench` output (this project's fixtures,
/// tests/fixtures/harness/go-bench/, SOURCE.md there): summing 64 values is faster than summing
/// 1024, by far. It holds in the audit either way; the recheck judges it only with six samples
/// a side or more. With `-count 1` (`one.txt`) a side is one value, whose bootstrap gives that
/// value as its interval, and with `-count 5` (`count5.txt`) five: both INCONCLUSIVE, saying
/// how many samples there were. Before, the first read MATCH with the interval [18.8, 18.8].
#[test]
fn an_ordering_of_fewer_than_six_samples_a_side_is_inconclusive() {
    let article = "# Sums\n\nSumming 64 values is faster than summing 1024.\n";
    for (file, samples) in [("one.txt", 1), ("count5.txt", 5)] {
        let claim = format!(
            "id = \"S1\"\nquote = \"Summing 64 values is faster than summing 1024.\"\nverdict = \"retain\"\nfinding = \"By the median.\"\nlabels = [\"64\", \"1024\"]\n\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"evidence/{file}\"\n  format = \"go-bench\"\n  select = {{}}\n  field = \"time_ns\"\n  statistic = \"median\"\n  by = \"name\"\n  faster = \"BenchmarkSum/n=64\"\n  slower = [\"BenchmarkSum/n=1024\"]\n"
        );
        let dir = root_with(&["evidence"], article, &claim);
        std::fs::copy(format!("tests/fixtures/harness/go-bench/{file}"), dir.path().join("evidence").join(file)).unwrap();
        let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        let (code, out, err) = recheck(&dir, &["--format", "json"]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        let report = json_report(&out, &err);
        let [row] = report.rows.as_slice() else { panic!("{file}: {out}") };
        assert_eq!(row.outcome, "INCONCLUSIVE", "{file}: {out}");
        assert!(row.detail.contains(&format!("{samples} sample")) && row.detail.contains("fewer than 6"), "{file}: {}", row.detail);
        assert!(row.interval.is_none() && row.level.is_none(), "{file}: no interval is shown: {out}");
    }
}
