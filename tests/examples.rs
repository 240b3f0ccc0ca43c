//! The external examples under `examples/` audit with the exit code their READMEs state: each
//! is an article nobody here wrote, bound to its authors' raw results in their own format.

use std::path::Path;
use std::process::Command;

use claimcheck::article::Article;
use sha2::{Digest, Sha256};

use crate::support;

fn audit_json(root: &str) -> (i32, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["audit", "--format", "json", "--root", root]).output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), json)
}

/// The claims of the example's one registry whose status is `wrong`, by id.
fn wrong_claims(review: &serde_json::Value) -> Vec<String> {
    let claims = review["registries"][0]["claims"].as_array().unwrap();
    claims.iter().filter(|c| c["status"] == "wrong").map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

/// The exit code an example's README states, from its line "The audit exits N".
fn stated_exit_code(example: &str) -> i32 {
    let readme = std::fs::read_to_string(Path::new("examples").join(example).join("README.md")).unwrap();
    let at = readme.find("The audit exits ").unwrap_or_else(|| panic!("{example}/README.md states no exit code"));
    readme[at + "The audit exits ".len()..].chars().take_while(|c| c.is_ascii_digit()).collect::<String>().parse().unwrap()
}

/// The number of checks an example's README states in its sentence "The audit exits N: …, M
/// checks".
fn stated_checks(example: &str) -> usize {
    let readme = std::fs::read_to_string(Path::new("examples").join(example).join("README.md")).unwrap();
    let at = readme.find("The audit exits ").unwrap_or_else(|| panic!("{example}/README.md states no exit code"));
    let sentence = &readme[at..readme[at..].find(". ").map_or(readme.len(), |k| at + k)];
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let i = words.iter().position(|w| w.trim_end_matches([',', ';']) == "checks").unwrap_or_else(|| panic!("{example}: no check count in {sentence:?}"));
    words[i - 1].replace(',', "").parse().unwrap_or_else(|e| panic!("{example}: {e} in {sentence:?}"))
}

/// Every example's README states the number of checks its audit runs, and a check added to or
/// removed from the registry without the README changing fails here.
#[test]
fn every_example_readme_states_the_checks_its_audit_runs() {
    for entry in std::fs::read_dir("examples").unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() {
            continue;
        }
        let example = entry.file_name().into_string().unwrap();
        let (_, review) = audit_json(&format!("examples/{example}"));
        let checks: usize = review["registries"].as_array().unwrap().iter().flat_map(|r| r["claims"].as_array().unwrap()).map(|c| c["checks"].as_array().unwrap().len()).sum();
        assert_eq!(checks, stated_checks(&example), "{example}/README.md states another number of checks than its audit runs");
    }
}

#[test]
fn llmperf_leaderboard_audits_with_its_stated_exit_code_and_eleven_wrong_cells() {
    let (code, review) = audit_json("examples/llmperf-leaderboard");
    assert_eq!(code, stated_exit_code("llmperf-leaderboard"), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    assert_eq!(registry["unbound"].as_array().unwrap().len(), 0);
    let wrong = wrong_claims(&review);
    let cells = wrong.iter().filter(|id| id.starts_with("tp") || id.starts_with("ttft")).count();
    assert_eq!(cells, 11, "{wrong:?}");
    // The two sentences that say 150 requests where some files hold fewer.
    assert!(wrong.contains(&"requests".to_string()) && wrong.contains(&"throughput-requests".to_string()), "{wrong:?}");
}

#[test]
fn anvil_benchmarks_audits_with_its_stated_exit_code_and_every_cell_holding() {
    let (code, review) = audit_json("examples/anvil-benchmarks");
    assert_eq!(code, stated_exit_code("anvil-benchmarks"), "{review:#}");
    assert_eq!(code, 0);
    assert_eq!(review["registries"][0]["unbound"].as_array().unwrap().len(), 0);
    assert!(wrong_claims(&review).is_empty());
    let claims = review["registries"][0]["claims"].as_array().unwrap();
    let cells = claims.iter().filter(|c| c.get("cell").is_some_and(|c| !c.is_null())).count();
    assert_eq!(cells, 36);
    // No check divides a statistic by itself: the baseline's `1.00x` is a label.
    let arith: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).filter(|k| k["kind"] == "arith").collect();
    assert_eq!(arith.len(), 25);
    assert!(arith.iter().all(|k| k["number"] != "1.00x"), "{arith:?}");
}

/// hyperfine's own tables: every cell read in the unit its header states in brackets
/// (`Mean [ms]`), every spread after `±`, every ratio without `×`, and the orderings read from
/// the export itself. Each count would fall if one of those readings regressed.
#[test]
fn dasel_benchmarks_audits_with_its_stated_exit_code_and_every_hyperfine_cell_holding() {
    let (code, review) = audit_json("examples/dasel-benchmarks");
    assert_eq!(code, stated_exit_code("dasel-benchmarks"), "{review:#}");
    assert_eq!(code, 0);
    let registries = review["registries"].as_array().unwrap();
    assert_eq!(registries.len(), 2);
    let tables = registries.iter().find(|r| r["file"] == "claims/dasel-benchmarks.toml").unwrap();
    assert_eq!(tables["unbound"].as_array().unwrap().len(), 0);
    let claims = tables["claims"].as_array().unwrap();
    assert_eq!(claims.iter().filter(|c| c.get("cell").is_some_and(|c| !c.is_null())).count(), 144);
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    let passed = |kind: &str| checks.iter().filter(|k| k["kind"] == kind && k["outcome"] == "pass").count();
    assert_eq!((passed("stat"), passed("arith"), passed("compare"), checks.len()), (144, 63, 9, 216));
    // Times are read in the header's milliseconds, converted from hyperfine's seconds.
    assert!(checks[0]["detail"].as_str().unwrap().ends_with(" ms"), "{}", checks[0]["detail"]);
    // The README's "up to 3x faster than jq and 15x faster than yq" holds for dasel v1 only.
    let readme = registries.iter().find(|r| r["file"] == "claims/dasel-readme.toml").unwrap();
    let claim = &readme["claims"][0];
    assert_eq!((claim["verdict"].as_str(), claim["status"].as_str()), (Some("qualify"), Some("ok")));
    assert_eq!(review["counts"], serde_json::json!({ "qualify": 1, "retain": 144 }));
}

/// Google Benchmark's console tables, pasted into the README as code blocks, read as tables:
/// every cell bound, in the nanoseconds it states, to the mean of the committed repetitions or
/// their iteration count; the four numbers whose every repetition failed stay unbound (a
/// warning by the registry's policy) instead of being averaged from the zeros the harness wrote.
/// Each count would change if the console tables went unread again (every cell an input error),
/// or if a failed repetition's 0 ns were taken as a sample.
#[test]
fn itsy_bitsy_benchmarks_audits_with_its_stated_exit_code_and_every_console_cell_bound() {
    let (code, review) = audit_json("examples/itsy-bitsy-benchmarks");
    assert_eq!(code, stated_exit_code("itsy-bitsy-benchmarks"), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    let unbound: Vec<&str> = registry["unbound"].as_array().unwrap().iter().map(|u| u["number"].as_str().unwrap()).collect();
    assert_eq!(unbound, ["2842 ns", "2888 ns", "2812 ns", "2825 ns"]);
    let claims = registry["claims"].as_array().unwrap();
    assert_eq!(claims.iter().filter(|c| c.get("cell").is_some_and(|c| !c.is_null())).count(), 344);
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert_eq!(checks.iter().filter(|k| k["kind"] == "stat" && k["outcome"] == "pass").count(), 344);
    assert_eq!(review["counts"], serde_json::json!({ "correct": 313, "retain": 31 }));
    // A time is read in the unit its cell writes, from the file's nanoseconds.
    assert_eq!(checks[0]["detail"], "mean real_time_ns of 30 samples: 0.000 ns");
    // The README's 190 ns is from a run that was not committed; the JSON's mean is 279,700 ns.
    let copy = claims.iter().find(|c| c["id"] == "vc-sized-copy-itsy-bitsy-time").unwrap();
    assert_eq!((copy["verdict"].as_str(), copy["status"].as_str()), (Some("correct"), Some("wrong")));
}

/// Every example's offline recheck: each quoted latency recomputed from the authors' raw
/// samples and each ordering judged inside their results, by the same rule as ours. Every row
/// is a MATCH (a quote the registry records as wrong matches the evidence's disagreement as
/// recorded) but the one ordering great_expectations' three runs do not show either way, and
/// the counts say how many rows each example gives the recheck, so that a reader or binding
/// that stopped yielding rows would show here.
#[test]
fn every_example_rechecks_offline_with_its_rows_as_found() {
    let examples = [
        ("anvil-benchmarks", 38, 0),
        ("llmperf-leaderboard", 112, 0),
        ("dasel-benchmarks", 135, 0),
        ("itsy-bitsy-benchmarks", 228, 0),
        ("great-expectations-performance", 10, 27),
        ("tattle-benchstat", 14, 0),
        ("twineworks-jmh", 44, 0),
        ("chrysalis-benchmarkdotnet", 24, 0),
        ("net-mediate-benchmarkdotnet", 16, 0),
        ("hash-funsies-criterion", 15, 0),
        ("pyperf-docs", 52, 0),
        ("vamos-paper", 183, 0),
        // Its checks are arithmetic in the text: no latency to recompute from samples.
        ("rust-blog-hint-mostly-unused", 0, 0),
        ("deepops-nccl-tests", 0, 0),
    ];
    for (example, matches, inconclusive) in examples {
        let root = format!("examples/{example}");
        let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["recheck", "--format", "json", "--root", &root]).output().unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{example}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(out.status.code(), Some(0), "{example}: {json:#}");
        let outcomes: Vec<&str> = json["rows"].as_array().unwrap().iter().map(|r| r["outcome"].as_str().unwrap()).collect();
        let count = |outcome: &str| outcomes.iter().filter(|o| **o == outcome).count();
        assert_eq!((count("MATCH"), count("INCONCLUSIVE"), outcomes.len()), (matches, inconclusive, matches + inconclusive), "{example}: {outcomes:?}");
    }
}

/// pytest-benchmark's console tables, pasted into great_expectations' contributing guide as
/// code blocks, read as tables: every cell of the run's row and of the compared `(initial_base)`
/// row bound to the three committed baseline runs (`--benchmark-json`, one round a benchmark),
/// times in the seconds the header states, each `(1.0)` after a value read as a ratio, not a
/// time. The 10 times and OPS the guide kept from a deleted baseline are recorded as wrong; the
/// 18 numbers of a local run nobody committed stay unbound (a warning by the registry's policy).
/// Each count would change if the console tables went unread again (every number unbound, none
/// bound), or if a ratio took the column's seconds (every `(1.0)` check would fail to convert).
#[test]
fn great_expectations_performance_audits_with_its_stated_exit_code_and_every_pytest_benchmark_cell_bound() {
    let (code, review) = audit_json("examples/great-expectations-performance");
    assert_eq!(code, stated_exit_code("great-expectations-performance"), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    let unbound: Vec<&serde_json::Value> = registry["unbound"].as_array().unwrap().iter().collect();
    assert_eq!(unbound.len(), 18);
    assert!(unbound.iter().all(|u| u["line"] == 54), "{unbound:?}");
    let claims = registry["claims"].as_array().unwrap();
    assert_eq!(claims.iter().filter(|c| c.get("cell").is_some_and(|c| !c.is_null())).count(), 20);
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    // The two speed-ups the finding states are computed against no number of the sentence:
    // skipped, with their values, not passed.
    let skipped: Vec<&str> = checks.iter().filter(|k| k["outcome"] == "skipped").map(|k| k["detail"].as_str().unwrap()).collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped[0].starts_with("14.90 compared with nothing (no `number`): b / m = 14.90"), "{skipped:?}");
    assert!(checks.iter().all(|k| k["outcome"] == "pass" || (k["outcome"] == "skipped" && k["number"].is_null())), "{checks:?}");
    let kinds = |kind: &str| checks.iter().filter(|k| k["kind"] == kind).count();
    // Recorded mismatches pass as recorded: the guide's number beside the evidence's.
    let recorded_wrong = checks.iter().filter(|k| k["expected"].is_string() && k["expected"] != k["observed"]).count();
    assert_eq!((kinds("stat"), kinds("arith"), kinds("json"), kinds("compare"), checks.len(), recorded_wrong), (14, 13, 4, 2, 33, 10));
    assert_eq!(wrong_claims(&review).len(), 10);
    assert_eq!(review["counts"], serde_json::json!({ "correct": 10, "qualify": 1, "retain": 12 }));
    // The guide's 5.0488 s against the committed runs' median, in seconds.
    let min = claims.iter().find(|c| c["id"] == "run-min").unwrap();
    assert_eq!((min["checks"][0]["expected"].as_str(), min["checks"][0]["observed"].as_str()), (Some("5.0488 s"), Some("3.5200 s")));
    // A ratio to the column's best is a multiple, not seconds.
    let ratio = &claims.iter().find(|c| c["id"] == "baseline-min").unwrap()["checks"][1];
    assert_eq!((ratio["kind"].as_str(), ratio["number"].as_str(), ratio["outcome"].as_str()), (Some("arith"), Some("1.0"), Some("pass")));
}

/// benchstat's comparison table, pasted into tattle's `stats/README.md` as a code block, read as
/// a table: each median read in the nanoseconds its `n` prefix makes of `sec/op` and bound to the
/// raw `go test -bench` samples it summarises, each `± X%` recomputed as benchstat's interval of
/// that median (`statistic = "median-ci"`), the geometric means and the changes from the base
/// recomputed, each p-value by benchstat's Mann-Whitney U test (`utest`), and each `n=30`
/// counted. Every number of the table is bound, none is recorded as wrong. Every count would
/// change if the table went unread again (no cell bound), if a prefix were read in another unit
/// (every median would fail), or if an interval or a p-value stopped binding (unbound again).
#[test]
fn tattle_benchstat_audits_with_its_stated_exit_code_and_every_number_bound() {
    let (code, review) = audit_json("examples/tattle-benchstat");
    assert_eq!(code, stated_exit_code("tattle-benchstat"), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    let unbound: Vec<&str> = registry["unbound"].as_array().unwrap().iter().map(|u| u["number"].as_str().unwrap()).collect();
    assert!(unbound.is_empty(), "{unbound:?}");
    let claims = registry["claims"].as_array().unwrap();
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert!(checks.iter().all(|k| k["outcome"] == "pass"), "{checks:?}");
    let kinds = |kind: &str| checks.iter().filter(|k| k["kind"] == kind).count();
    assert_eq!((kinds("stat"), kinds("arith"), kinds("utest"), checks.len()), (36, 5, 6, 47));
    let cells = |column: &str| claims.iter().filter(|c| c["cell"]["column"] == column).count();
    assert_eq!((cells("v0.1.3 sec/op ±"), cells("v1.0.0 sec/op ±")), (6, 6));
    // `± 4%`: the 10th to the 21st of 30 samples, 4.37 % below the median at its wider side.
    let interval = claims.iter().find(|c| c["id"] == "01calloverhead-old-ci").unwrap();
    assert_eq!(
        interval["checks"][0]["detail"],
        "95 % interval of the median time_ns of 30 samples, x(10) = 0.3017 to x(21) = 0.3278 around 0.3155, its wider side in % of the median: 4.37 %"
    );
    // `p=0.001`: 0.00071 by the normal approximation, since values repeat at 30 a side.
    let change = claims.iter().find(|c| c["id"] == "01calloverhead-vs-base").unwrap();
    let utest = change["checks"].as_array().unwrap().iter().find(|k| k["kind"] == "utest").unwrap();
    assert_eq!(
        utest["detail"],
        "p-value of the two-sided Mann-Whitney U test of 30 base against 30 new samples of time_ns (U = 679.5, normal approximation with tie and continuity correction): 0.001"
    );
    assert!(wrong_claims(&review).is_empty(), "{:?}", wrong_claims(&review));
    // `0.3155n` under `sec/op` is 0.3155 ns, the median of the 30 samples.
    let first = claims.iter().find(|c| c["id"] == "01calloverhead-old-median").unwrap();
    assert_eq!(first["checks"][0]["detail"], "median time_ns of 30 samples: 0.3155 ns");
    // A decimal tie: the median of 5.590 and 5.591 ns computes as 5.5905000000000005 ns, and
    // benchstat's 5.590 holds, as its other neighbour would.
    let tie = claims.iter().find(|c| c["id"] == "05templatelogvslogf-old-median").unwrap();
    assert_eq!((tie["verdict"].as_str(), tie["checks"][0]["outcome"].as_str()), (Some("retain"), Some("pass")), "{tie:#}");
}

/// Each of tattle's 12 intervals and 6 p-values, quoted one unit off in its last digit (`± 5%`
/// for the `± 4%` benchstat printed, `p=0.002` for its `p=0.001`), in the article and in the
/// registry's `number` alike (and the registry's hash moved to the edited article's), fails the
/// check that binds it, and that check alone: the audit exits 1, the check's expected value is
/// the edited quote and its observed value benchstat's.
#[test]
fn tattle_benchstat_a_wrong_interval_or_p_value_fails_its_check() {
    let example = Path::new("examples/tattle-benchstat");
    let (_, review) = audit_json("examples/tattle-benchstat");
    let article = std::fs::read_to_string(example.join("article/tattle-stats.md")).unwrap();
    let registry = std::fs::read_to_string(example.join("claims/tattle-stats.toml")).unwrap();
    let mut edited = Vec::new();
    for claim in review["registries"][0]["claims"].as_array().unwrap() {
        for (index, check) in claim["checks"].as_array().unwrap().iter().enumerate() {
            let interval = check["kind"] == "stat" && claim["cell"]["column"].as_str().is_some_and(|c| c.ends_with(" ±"));
            if !(interval || check["kind"] == "utest") {
                continue;
            }
            let id = claim["id"].as_str().unwrap();
            let number = check["number"].as_str().unwrap();
            let wrong = one_off_in_its_last_digit(number);
            // In the article: the number inside the claim's cell.
            let span = &claim["binding"]["sentence"]["span"];
            let (start, end) = (span[0].as_u64().unwrap() as usize, span[1].as_u64().unwrap() as usize);
            let at = start + article[start..end].find(number).unwrap_or_else(|| panic!("{id}: {number} not in its cell"));
            let new_article = format!("{}{wrong}{}", &article[..at], &article[at + number.len()..]);
            // In the registry: the `number` of the claim's check, and the manuscript's hash.
            let claim_at = registry.find(&format!("id = \"{id}\"")).unwrap();
            let check_at = registry[claim_at..].match_indices("[[claim.check]]").nth(index).unwrap().0 + claim_at;
            let key = format!("number = \"{number}\"");
            let number_at = registry[check_at..].find(&key).unwrap() + check_at;
            let new_registry = format!("{}number = \"{wrong}\"{}", &registry[..number_at], &registry[number_at + key.len()..]);
            let old_sha = format!("{:x}", Sha256::digest(article.as_bytes()));
            let new_sha = format!("{:x}", Sha256::digest(new_article.as_bytes()));
            let new_registry = new_registry.replacen(&old_sha, &new_sha, 1);
            let copy = tempfile::tempdir().unwrap();
            support::copy_dir(example, copy.path());
            std::fs::write(copy.path().join("article/tattle-stats.md"), &new_article).unwrap();
            std::fs::write(copy.path().join("claims/tattle-stats.toml"), &new_registry).unwrap();
            let (code, after) = audit_json(copy.path().to_str().unwrap());
            assert_eq!(code, 1, "{id}: {number} -> {wrong}: {after:#}");
            let failed: Vec<(String, usize, &serde_json::Value)> = after["registries"][0]["claims"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|c| c["checks"].as_array().unwrap().iter().enumerate().map(move |(i, k)| (c["id"].as_str().unwrap().to_string(), i, k)))
                .filter(|(_, _, k)| k["outcome"] != "pass")
                .collect();
            assert_eq!(failed.len(), 1, "{id}: {number} -> {wrong}: {failed:?}");
            let (failed_id, failed_index, failed_check) = &failed[0];
            assert_eq!((failed_id.as_str(), *failed_index, failed_check["outcome"].as_str()), (id, index, Some("fail")), "{failed_check:#}");
            assert_eq!(failed_check["expected"].as_str(), Some(wrong.replace('%', " %").as_str()), "{failed_check:#}");
            // The observed value is shown more precisely than quoted; at the quote's decimals
            // it is the number benchstat printed.
            let observed: f64 = failed_check["observed"].as_str().unwrap().trim_end_matches(" %").parse().unwrap();
            let decimals = number.trim_end_matches('%').split('.').nth(1).map_or(0, str::len);
            assert_eq!(format!("{observed:.decimals$}"), number.trim_end_matches('%'), "{failed_check:#}");
            edited.push(format!("{number} -> {wrong}"));
        }
    }
    assert_eq!(edited.len(), 18, "{edited:?}");
    assert!(edited.contains(&"4% -> 5%".to_string()) && edited.contains(&"0.001 -> 0.002".to_string()), "{edited:?}");
}

/// `number` with its last digit moved up by one (9 wraps to 0).
fn one_off_in_its_last_digit(number: &str) -> String {
    let at = number.rfind(|c: char| c.is_ascii_digit()).unwrap();
    let digit = number.as_bytes()[at] - b'0';
    format!("{}{}{}", &number[..at], (digit + 1) % 10, &number[at + 1..])
}

/// JMH's summary table, pasted into twineworks/collections' `benchmarks/README.md` as a code
/// block, read as a table: each score bound to the mean of its benchmark's 10 raw iterations in
/// the committed `-rf json` file, each error to JMH's 99.9 % Student-t half-width of that mean
/// (`statistic = "jmh-error"`), each `Cnt` to the count, in the nanoseconds the row's `ns/op`
/// states; the row names JMH shortened select their benchmarks' full names. Every count would
/// change if the table went unread again (no cell bound, 96 numbers unread), if the error were
/// another interval (every error would fail), or if `ns/op` were read as a free unit (every
/// score bound to `time_ns` would fail to convert).
#[test]
fn twineworks_jmh_audits_with_its_stated_exit_code_and_every_score_and_error_bound() {
    let (code, review) = audit_json("examples/twineworks-jmh");
    assert_eq!(code, stated_exit_code("twineworks-jmh"), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    assert_eq!(registry["unbound"].as_array().unwrap().len(), 0);
    let claims = registry["claims"].as_array().unwrap();
    assert_eq!(claims.iter().filter(|c| c.get("cell").is_some_and(|c| !c.is_null())).count(), 96);
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert!(checks.iter().all(|k| k["outcome"] == "pass"), "{checks:?}");
    let kinds = |kind: &str| checks.iter().filter(|k| k["kind"] == kind).count();
    assert_eq!((kinds("stat"), kinds("compare"), checks.len()), (96, 4, 100));
    assert!(wrong_claims(&review).is_empty(), "{:?}", wrong_claims(&review));
    assert_eq!(review["counts"], serde_json::json!({ "judgment": 1, "retain": 96 }));
    let check = |id: &str| claims.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id}"))["checks"][0]["detail"].as_str().unwrap().to_string();
    assert_eq!(check("big-map-put-hash-map-score"), "mean time_ns of 10 samples: 13.308 ns");
    assert_eq!(check("big-map-put-hash-map-error"), "99.9 % Student-t error of the mean of time_ns of 10 samples: 1.121 ns");
    assert_eq!(check("big-map-put-hash-map-cnt"), "count score of 10 samples: 10");
}

/// BenchmarkDotNet's four GitHub reports in SAIB-Inc/Chrysalis, bound to the measurements CSV
/// and the disassembly report the same run wrote: each time is a statistic of the case's
/// `Result` iterations (`time_ns`, outliers already removed by BenchmarkDotNet), each `Error` the
/// 99.9 % Student-t half-width, each `Gen0`/`Gen1` the collections per 1000 operations, each
/// `Allocated` the bytes per operation in the binary megabytes BenchmarkDotNet prints as `MB`,
/// each `Code Size` the sum of the case's methods' sizes in `-asm.md`. The counts would change if
/// the reader kept another stage (every mean of the five cases with an outlier removed would
/// fail), if `MB` were read as 10^6 bytes (every `Allocated` would fail), if a code size were one
/// method's (68 B) rather than the case's sum, or if the table's rows went unnamed by case.
#[test]
fn chrysalis_benchmarkdotnet_audits_with_its_stated_exit_code_and_every_cell_bound() {
    let (code, review) = audit_json("examples/chrysalis-benchmarkdotnet");
    assert_eq!(code, stated_exit_code("chrysalis-benchmarkdotnet"), "{review:#}");
    assert_eq!(code, 0);
    let registries = review["registries"].as_array().unwrap();
    assert_eq!(registries.len(), 4);
    let unbound: Vec<&str> = registries.iter().flat_map(|r| r["unbound"].as_array().unwrap()).map(|u| u["number"].as_str().unwrap()).collect();
    assert!(unbound.is_empty(), "every number is bound, the code sizes too: {unbound:?}");
    let claims: Vec<&serde_json::Value> = registries.iter().flat_map(|r| r["claims"].as_array().unwrap()).collect();
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert_eq!(checks.len(), 71);
    assert!(checks.iter().all(|k| k["outcome"] == "pass" && k["kind"] == "stat"), "{checks:?}");
    assert_eq!(review["counts"], serde_json::json!({ "retain": 71 }));
    let check = |id: &str| claims.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id}"))["checks"][0]["detail"].as_str().unwrap().to_string();
    assert_eq!(check("alonzo-new-mean"), "mean time_ns of 9 samples: 4.081 ms");
    assert_eq!(check("alonzo-new-error"), "99.9 % Student-t error of the mean of time_ns of 9 samples: 0.1141 ms");
    assert_eq!(check("alonzo-new-allocated"), "median allocated_bytes of 9 samples: 4.64 MiB");
    // 17 × 1000 / 256 = 66.40625 exactly, a decimal tie: .NET printed it 66.4063 (away from
    // zero), the detail writes it 66.4062 (to even), and the matching rule takes both.
    assert_eq!(check("conway-new-gen0"), "median gen0_per_1000_ops of 9 samples: 66.4062");
}

/// net-mediate's BENCHMARKS.md, whole, bound to BenchmarkDotNet's log of the CI run it reports
/// (the console output the CI appended to the same file): both of BenchmarkDotNet's tables of
/// that run, the GitHub report under "Latest CI Benchmark Run" (its methods HTML-escaped,
/// `&#39;Command  Send&#39;`) and the console's own table under "Full Console Output", each cell
/// bound to its own table's cell (lines 289-296 and 1218-1225) and to its case's
/// `WorkloadResult` lines; the throughput table's rates and the footnote's items a second are
/// the document's own arithmetic; the four elapsed times of a run nobody committed stay unbound.
/// The counts would change if a row named by a description with two spaces stopped binding (the
/// console's 40 cells were unbound until its label and the registry's were compared whitespace
/// aside), if the report's cells and the console's named one another's, if the reader kept
/// another stage than the results, or if `Error` were not the 99.9 % Student-t half-width.
#[test]
fn net_mediate_benchmarkdotnet_audits_with_its_stated_exit_code_and_every_cell_bound() {
    let (code, review) = audit_json("examples/net-mediate-benchmarkdotnet");
    assert_eq!(code, stated_exit_code("net-mediate-benchmarkdotnet"), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    let unbound: Vec<&str> = registry["unbound"].as_array().unwrap().iter().map(|u| u["number"].as_str().unwrap()).collect();
    assert_eq!(unbound, ["40.13", "33.36", "26.49", "38.51"], "only the elapsed times of the uncommitted throughput run");
    let claims = registry["claims"].as_array().unwrap();
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert!(checks.iter().all(|k| k["outcome"] == "pass"), "{checks:?}");
    let kinds = |kind: &str| checks.iter().filter(|k| k["kind"] == kind).count();
    assert_eq!((kinds("stat"), kinds("arith"), checks.len()), (84, 5, 89));
    assert_eq!(review["counts"], serde_json::json!({ "judgment": 1, "retain": 88 }));
    // Every cell of both tables bound, each in its own table, by its case.
    for (prefix, lines) in [("report-", 289..=296), ("console-", 1218..=1225)] {
        let cells: Vec<&serde_json::Value> = claims.iter().filter(|c| c["id"].as_str().unwrap().starts_with(prefix)).collect();
        assert_eq!(cells.len(), 40, "{prefix}");
        for c in cells {
            let line = c["binding"]["sentence"]["line"].as_u64().unwrap_or(0);
            assert!(c["binding"]["state"] == "bound" && lines.contains(&line) && c["status"] == "ok", "{c:#}");
            assert!(c["cell"]["row"].as_str().unwrap().contains("  "), "a row is its case, two spaces and all: {c:#}");
        }
    }
    let check = |id: &str| claims.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id}"))["checks"][0]["detail"].as_str().unwrap().to_string();
    assert_eq!(check("report-command-default-mean"), "mean time_ns of 12 samples: 69.85 ns");
    assert_eq!(check("report-command-default-error"), "99.9 % Student-t error of the mean of time_ns of 12 samples: 0.110 ns");
    assert_eq!(check("console-notification-shortrun-error"), "99.9 % Student-t error of the mean of time_ns of 3 samples: 31.477 ns");
    assert_eq!(check("report-stream-default-gen0"), "median gen0_per_1000_ops of 14 samples: 0.0117");
    assert_eq!(check("console-notification-default-allocated"), "median allocated_bytes of 15 samples: 272 B");
    assert_eq!(check("throughput-request"), "50000 / (26.49 / 1000) = 1887504.7187617968: 1887504.7 msgs/s");
}

/// The same run's latencies rechecked against the earlier run the repository committed two days
/// before (`earlier-run-e6a1d4d0/`, the code refactored between them), as a user rechecks a
/// quoted table against a new run of their harness: the files pair by name, and the outcomes
/// are as the example's README states them.
#[test]
fn chrysalis_benchmarkdotnet_rechecked_against_its_earlier_run_gives_the_stated_outcomes() {
    let root = "examples/chrysalis-benchmarkdotnet";
    let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["recheck", "--format", "json", "--root", root, "--fresh", "earlier-run-e6a1d4d0"]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(1), "a MISMATCH exits 1: {json:#}");
    let outcomes: Vec<&str> = json["rows"].as_array().unwrap().iter().map(|r| r["outcome"].as_str().unwrap()).collect();
    let count = |outcome: &str| outcomes.iter().filter(|o| **o == outcome).count();
    assert_eq!((count("MATCH"), count("MISMATCH"), count("INCONCLUSIVE"), count("INCOMPARABLE")), (2, 2, 4, 16), "{outcomes:?}");
}

/// dtaralla/hash_funsies' criterion console blocks, bound to the `sample.json` files criterion
/// saved: each estimate the mean of the per-iteration times, each bound criterion's bootstrap
/// bound, matched within the band where criterion's own clock-seeded draw lies. Every bound of
/// the `estimates.json` criterion wrote beside the samples lies in its band too, to all its
/// digits. The counts would change if the band were dropped: 23 of the 30 bounds drawn here
/// round to another last digit than the quote.
#[test]
fn hash_funsies_criterion_audits_with_its_stated_exit_code_and_every_bound_in_its_band() {
    let example = "hash-funsies-criterion";
    let (code, review) = audit_json(&format!("examples/{example}"));
    assert_eq!(code, stated_exit_code(example), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    assert_eq!(registry["unbound"].as_array().unwrap().len(), 0);
    let claims = registry["claims"].as_array().unwrap();
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert!(checks.iter().all(|k| k["outcome"] == "pass" || k["outcome"] == "wrong"), "{checks:?}");
    assert_eq!(checks.len(), 56);
    let mut wrong = wrong_claims(&review);
    wrong.sort();
    assert_eq!(wrong, ["ahash-around-2x", "fib-14x-faster-to-hash", "reads-3.5x-fib", "vanilla-14x-fib"]);
    assert_eq!(review["counts"], serde_json::json!({ "correct": 1, "qualify": 3, "retain": 18 }));
    // Each bound's band, in ms or µs as quoted, against criterion's own bound in ns.
    let band = |detail: &str| -> (f64, f64) {
        let (_, inside) = detail.split_once("own draw lies within ").unwrap();
        let (low, rest) = inside.split_once(" to ").unwrap();
        let ns = |t: &str| {
            let (v, unit) = t.trim_end_matches(')').split_once(' ').unwrap();
            v.parse::<f64>().unwrap() * if unit == "ms" { 1e6 } else { 1e3 }
        };
        (ns(low), ns(rest))
    };
    let mut bounds = 0;
    let mut drawn_apart = 0;
    for claim in claims.iter().filter(|c| c.get("cell").is_some_and(|c| !c.is_null())) {
        let id = claim["id"].as_str().unwrap();
        let (group, bench) = id.split_once('-').unwrap();
        let dir = format!("examples/{example}/evidence/criterion/{group}/{bench}/new");
        let own: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/estimates.json")).unwrap()).unwrap();
        for (k, key) in [(0, "lower_bound"), (2, "upper_bound")] {
            let check = &claim["checks"][k];
            let detail = check["detail"].as_str().unwrap();
            let (low, high) = band(detail);
            let theirs = own["mean"]["confidence_interval"][key].as_f64().unwrap();
            assert!(low <= theirs && theirs <= high, "{id} {key}: {theirs} outside {low}..{high}");
            let drawn = detail.split(": ").last().unwrap().split(" (").next().unwrap();
            drawn_apart += usize::from(drawn.replace(' ', "") != check["number"].as_str().unwrap().replace(' ', ""));
            bounds += 1;
        }
    }
    assert_eq!((bounds, drawn_apart), (30, 23));
}

/// psf/pyperf's `doc/analyze.rst`, read as reStructuredText: the console output of its literal
/// blocks (`stats`, `hist`, a `timeit` warning, `compare_to` and its grid) read as pyperf
/// prints it and bound to the result files pyperf commits, `.json.gz` among them. Every number
/// the page quotes but one count is read and holds, or is recorded wrong (two ends of a range
/// the prose reads off the histogram); `2^15` and both ends of `4.07 us..4.44 us` are numbers.
#[test]
fn pyperf_docs_audits_with_its_stated_exit_code_and_every_number_bound() {
    let example = "pyperf-docs";
    let (code, review) = audit_json(&format!("examples/{example}"));
    assert_eq!(code, stated_exit_code(example), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    assert_eq!(registry["manuscript"]["path"], "article/analyze.rst", "{:#}", registry["manuscript"]);
    assert_eq!(registry["unbound"].as_array().unwrap().len(), 0, "{:#}", registry["unbound"]);
    assert!(registry["warnings"].as_array().is_none_or(|w| w.is_empty()), "{:#}", registry["warnings"]);
    let claims = registry["claims"].as_array().unwrap();
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert!(checks.iter().all(|k| k["outcome"] == "pass" || k["outcome"] == "wrong"), "{checks:?}");
    assert_eq!(checks.len(), 111);
    assert_eq!(wrong_claims(&review), ["histogram-reading"]);
    assert_eq!(review["counts"], serde_json::json!({ "correct": 2, "qualify": 6, "retain": 72 }));
    let numbers: Vec<&str> = checks.iter().filter_map(|k| k["number"].as_str()).collect();
    for read in ["2^15", "4.07 us", "4.44 us"] {
        assert!(numbers.contains(&read), "{read} is bound: {numbers:?}");
    }
}

/// The VAMOS manuscript, read whole as LaTeX: its runtime tables (`tabular` under booktabs
/// rules, `\textbf` cells, `nan` and `-` cells, the unit in the caption), its appendix tables and
/// its prose (`50{,}000`, `$4$--$12\times$`, `30\,s`) bound to the per-run CSVs its scripts
/// committed, and the twelve generated tables it brings in with `\input`. Every number of the
/// excerpt is bound; the sentences and the table older than the data hold for the older
/// committed CSV and are recorded wrong against the current one.
#[test]
fn vamos_paper_audits_with_its_stated_exit_code_and_its_stale_sentences_wrong() {
    let example = "vamos-paper";
    let (code, review) = audit_json(&format!("examples/{example}"));
    assert_eq!(code, stated_exit_code(example), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    assert_eq!(registry["manuscript"]["path"], "article/main.tex", "{:#}", registry["manuscript"]);
    let claims = registry["claims"].as_array().unwrap();
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert!(checks.iter().all(|k| ["pass", "wrong", "skipped"].contains(&k["outcome"].as_str().unwrap())), "{checks:?}");
    assert_eq!(checks.len(), stated_checks(example));
    let cells = claims.iter().filter(|c| c.get("cell").is_some_and(|x| !x.is_null())).count();
    // The excerpt's 136 cells, and the generated tables' 375 (a `median (IQR)` cell is one
    // claim of two numbers).
    assert_eq!(cells, 136 + 375, "claims bound by cell");
    let numbers: Vec<&str> = checks.iter().filter_map(|k| k["number"].as_str()).collect();
    for read in ["4.19", "0.28 MB", "30 s", "50,000", "<0.0001"] {
        assert!(numbers.contains(&read), "{read} is bound: {numbers:?}");
    }
    // The twelve tables the manuscript brings in with `\input` are read where they stand, each
    // cell in its own file and named by its table's `\label`, and no `\input` is warned of.
    let warnings = registry["warnings"].as_array().cloned().unwrap_or_default();
    assert!(!warnings.iter().any(|w| w.to_string().contains("\\input")), "{warnings:?}");
    let named: Vec<&serde_json::Value> = claims.iter().filter(|c| c["cell"]["table"].as_str().is_some_and(|t| t.starts_with("tab:"))).collect();
    let files: std::collections::BTreeSet<&str> = named.iter().map(|c| c["binding"]["sentence"]["file"].as_str().unwrap()).collect();
    assert_eq!(files.len(), 13, "{files:?}");
    assert!(files.iter().all(|f| f.starts_with("article/")), "{files:?}");
    // A p-value is a paired signed-rank test adjusted over the table's problems, and an Â12
    // the unpaired effect size, each recomputed from the runs.
    let kind = |kind: &str| checks.iter().filter(|k| k["kind"] == kind).count();
    assert!(kind("wilcoxon") >= 69 && kind("utest") >= 69, "{} wilcoxon, {} utest", kind("wilcoxon"), kind("utest"));
    // The NSGA-II statistics table is older than its CSV: each of its numbers that the
    // committed CSV no longer gives is recorded wrong, and matches the CSV of 2026-01-29.
    let stale: Vec<&serde_json::Value> = claims.iter().filter(|c| c["id"].as_str().unwrap().starts_with("stats-hypervolume-nsgaii-") && c["status"] == "wrong").collect();
    assert!(stale.len() >= 40, "{} stale cells", stale.len());
    for claim in &stale {
        assert!(claim["finding"].as_str().unwrap().contains("b32f2c6"), "{claim:#}");
        let checks = claim["checks"].as_array().unwrap();
        assert_eq!(checks.len(), 2, "{claim:#}");
        assert!(checks[0]["expected"].is_string() && checks[0]["expected"] != checks[0]["observed"], "{claim:#}");
        assert!(checks[1]["outcome"] == "pass" && checks[1]["expected"].is_null(), "{claim:#}");
    }
}

/// `suggest` over the VAMOS manuscript and its CSVs, with no claim registered: a cell of the
/// appendix's tables of problems by framework is the median of the runs of one framework on one
/// problem, which only a selection by both fields reaches (`select = { framework = "pymoo" }`,
/// `where = "problem == 'dtlz1'"`); it ranks first for nearly all of them. A cell of the
/// framework table's `VAMOS` column (which the CSV calls `VAMOS (numba)`, beside `VAMOS
/// (moocore)`, both named by the word) may rank the other backend first where it rounds alike.
#[test]
fn vamos_paper_suggest_proposes_each_cell_by_framework_and_problem() {
    let root = Path::new("examples/vamos-paper");
    let article = std::fs::read_to_string(root.join("article/main.tex")).unwrap();
    let (_dir, proposed) = support::suggested_over_as("article/main.tex", &article, |to| support::copy_dir(&root.join("evidence"), &to.join("evidence")));
    let (mut cells, mut first) = (0, 0);
    for block in proposed.split("\n# article/main.tex:").skip(1) {
        let line: usize = block.split(':').next().unwrap().parse().unwrap();
        let Some((_, cell)) = block.split_once(" in cell ") else { continue };
        let (row, column) = cell.lines().next().unwrap().split_once(" › ").unwrap();
        if !(664..=722).contains(&line) || row == "Average" {
            continue;
        }
        cells += 1;
        let framework = match column {
            "Numba" => "VAMOS (numba)",
            "MooCore" => "VAMOS (moocore)",
            "NumPy" => "VAMOS (numpy)",
            "VAMOS" => "VAMOS (numba)",
            other => other,
        };
        let best = block.lines().find(|l| l.starts_with("#   1. ")).unwrap();
        if best.starts_with("#   1. median runtime_seconds of 30 records") && best.contains(&format!("framework = \"{framework}\" where problem == '{row}'")) {
            first += 1;
        }
    }
    assert_eq!((first, cells), (107, 108));
}

/// `suggest` over the same article and samples, with no claim registered, proposes first for
/// each of the 45 console numbers the check the registry holds: the mean for the estimate, and
/// criterion's bound for each bound, of the line's own benchmark.
#[test]
fn hash_funsies_criterion_suggest_proposes_every_console_number_first() {
    let root = Path::new("examples/hash-funsies-criterion");
    let article = std::fs::read_to_string(root.join("article/hash-funsies.md")).unwrap();
    let (_dir, proposed) = support::suggested_over(&article, |to| support::copy_dir(&root.join("evidence"), &to.join("evidence")));
    let mut first = 0;
    for block in proposed.split("\n# article/a.md:").skip(1) {
        let Some((_, cell)) = block.split_once(" in cell ") else { continue };
        let (row, rest) = cell.split_once(" › time").unwrap();
        let column: usize = block.split(':').nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
        let statistic = match column {
            34 => "criterion-lower",
            44 => "mean",
            54 => "criterion-upper",
            other => panic!("{row}: column {other}"),
        };
        let (group, bench) = row.to_lowercase().split_once('/').map(|(g, b)| (g.to_string(), b.to_string())).unwrap();
        let best = rest.lines().nth(1).unwrap();
        assert!(best.starts_with(&format!("#   1. {statistic} time_ns")), "{row} {column}: {best}");
        assert!(best.contains(&format!("criterion/{group}/{bench}/new/sample.json")), "{row} {column}: {best}");
        first += 1;
    }
    assert_eq!(first, 45);
    // A ratio of two benchmarks of one group, each in a file of its own.
    let best = |quote: &str| proposed.split(quote).nth(1).unwrap().lines().nth(1).unwrap().to_string();
    let ratio = best("`16x` in");
    assert!(ratio.starts_with("#   1. mean time_ns") && ratio.contains("hashes/crc/new/sample.json over mean time_ns") && ratio.contains("hashes/fib/new"), "{ratio}");
    let ratio = best("`1.5x` in");
    assert!(ratio.contains("inserts/vanilla/new/sample.json over mean time_ns") && ratio.contains("inserts/ahash/new"), "{ratio}");
    assert_eq!(best("`3.5x` in"), "# no statistic of the evidence reproduces it at its quoted precision and unit");
}

/// A blog post written for a static-site generator: its TOML front matter is read as no prose
/// (the audit finds no unbound number in `path`, `title` or `authors`), a build time written
/// `3m 48s` is one number of 228 s, and each signed `Delta` is recomputed from the two times
/// beside it. The post publishes no raw timings, so the times are judgments; every check passes.
#[test]
fn rust_blog_post_audits_its_arithmetic_with_front_matter_unread_and_durations_whole() {
    let example = "rust-blog-hint-mostly-unused";
    let (code, review) = audit_json(&format!("examples/{example}"));
    assert_eq!(code, stated_exit_code(example), "{review:#}");
    assert_eq!(code, 0);
    let registry = &review["registries"][0];
    assert_eq!(registry["unbound"].as_array().unwrap().len(), 0, "{:#}", registry["unbound"]);
    let claims = registry["claims"].as_array().unwrap();
    let checks: Vec<&serde_json::Value> = claims.iter().flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert_eq!(checks.len(), 6);
    assert!(checks.iter().all(|k| k["kind"] == "arith" && k["outcome"] == "pass"), "{checks:#?}");
    let quoted: Vec<&str> = checks.iter().map(|k| k["number"].as_str().unwrap()).collect();
    assert_eq!(quoted, ["-42%", "-23%", "-27%", "-51%", "-50%", "7.5s"]);
    let article = Article::parse("post.md", &std::fs::read(format!("examples/{example}/article/call-for-testing-hint-mostly-unused.md")).unwrap()).unwrap();
    let durations: Vec<(String, f64)> = article.sentences.iter().flat_map(|s| &s.numbers).filter(|n| n.text.contains('m')).map(|n| (n.text.clone(), n.value)).collect();
    assert_eq!(durations, [("3m 48s".to_string(), 228.0), ("2m 55s".into(), 175.0), ("4m 07s".into(), 247.0), ("2m 04s".into(), 124.0)]);
    assert!(!article.sentences.iter().any(|s| s.text.contains("authors =")), "the front matter is no prose");
}

/// Two DeepOps guides' pasted nccl-tests reports, read as tables (one row a message size, each
/// value under its half's title, the footer a row `Run`), every number bound. Each algbw and busbw
/// is recomputed from its row's size and printed time, standing for every value that rounds to
/// it; at the point value, many would miss the printed two decimals by their rounding alone.
/// An edited busbw, in a cell or in the prose, fails against its row's time.
#[test]
fn deepops_nccl_tests_reports_audit_from_their_own_arithmetic_and_an_edit_fails() {
    let example = "deepops-nccl-tests";
    let (code, review) = audit_json(&format!("examples/{example}"));
    assert_eq!(code, stated_exit_code(example), "{review:#}");
    assert_eq!(code, 0);
    let registries = review["registries"].as_array().unwrap();
    assert_eq!(registries.len(), 2);
    let checks: Vec<&serde_json::Value> = registries.iter().flat_map(|r| r["claims"].as_array().unwrap()).flat_map(|c| c["checks"].as_array().unwrap()).collect();
    assert_eq!(checks.len(), 180);
    assert!(checks.iter().all(|k| k["kind"] == "arith" && k["outcome"] == "pass"), "{checks:#?}");
    assert!(registries.iter().all(|r| r["unbound"].as_array().unwrap().is_empty()));
    // Every cell of both tables that measures is bound: 13 and 30 rows of eight values.
    let cells = registries.iter().flat_map(|r| r["claims"].as_array().unwrap()).filter(|c| c.get("cell").is_some_and(|c| !c.is_null())).count();
    assert_eq!(cells, (13 + 30) * 8 + 2 * 2);

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(example);
    support::copy_dir(&Path::new("examples").join(example), &root);
    let text = std::fs::read_to_string(root.join("article/slurm-perf-cluster.md")).unwrap();
    let edited = text.replacen("   85.19  1e-06", "   85.29  1e-06", 1).replacen("busbw of 191.05 GB/s", "busbw of 193.05 GB/s", 1);
    assert_ne!(edited, text);
    std::fs::write(root.join("article/draft.md"), edited).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_claimcheck"))
        .args(["audit", "--format", "json", "--claims", "claims/slurm-perf-cluster.toml", "--draft"])
        .arg(root.join("article/draft.md"))
        .arg("--root")
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let review: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed: Vec<&str> = review["registries"][0]["claims"].as_array().unwrap().iter().filter(|c| c["checks"].as_array().unwrap().iter().any(|k| k["outcome"] == "fail")).map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(failed, ["out-of-place-busbw-4gib", "in-busbw-16777216"]);
}
