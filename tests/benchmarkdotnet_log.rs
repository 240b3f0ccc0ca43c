//! BenchmarkDotNet's log as evidence, end to end: an article quoting the summary table that
//! BenchmarkDotNet printed at the end of the same log (the net-mediate CI run,
//! tests/fixtures/harness/benchmarkdotnet-log/, see its SOURCE.md), bound by `stat` checks over
//! the log's `WorkloadResult` lines and audited by the built binary; and `suggest` proposing
//! those checks from the log alone.

use crate::support;
use std::path::Path;

use support::{claimcheck, paste_and_audit, suggested_over};

const LOG: &str = "tests/fixtures/harness/benchmarkdotnet-log/net-mediate-0.15.8.log";

/// The summary table BenchmarkDotNet printed in the log (`// * Summary *`), two of its rows:
/// one case under each job.
const TABLE: &str = "| Method                                 | Job        | Mean      | Error     | StdDev   | Gen0   | Allocated |\n|--------------------------------------- |----------- |----------:|----------:|---------:|-------:|----------:|\n| 'Command  Send'                        | Job-CEIKLR |  69.85 ns |  0.110 ns | 0.086 ns | 0.0018 |      32 B |\n| 'Notification  Notify'                 | ShortRun   | 119.45 ns | 31.477 ns | 1.725 ns | 0.0162 |     272 B |\n";

/// A root holding the log under `evidence/` (under the name BenchmarkDotNet gives its log), an
/// article of the one sentence `quote` and a registry of one claim whose `stat` checks are
/// `checks` (each its keys after `kind`).
fn root(quote: &str, checks: &[String]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    std::fs::copy(LOG, dir.path().join("evidence/CoreDispatchBenchmarks-20260505-121657.log")).unwrap();
    let article = format!("# Dispatch\n\n{quote}\n");
    std::fs::write(dir.path().join("article/a.md"), &article).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    let mut claim = format!(
        "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"N1\"\nquote = \"{quote}\"\nverdict = \"retain\"\nfinding = \"BenchmarkDotNet's own figures.\"\n"
    );
    for check in checks {
        claim.push_str(&format!("\n  [[claim.check]]\n  kind = \"stat\"\n{check}"));
    }
    std::fs::write(dir.path().join("claims/a.toml"), claim).unwrap();
    dir
}

fn audit(dir: &Path) -> (i32, String) {
    let (code, out, err) = claimcheck(["audit", "--root", dir.to_str().unwrap()]);
    (code, format!("{out}{err}"))
}

/// A `stat` check of `statistic` of `field` over the case `case`, quoting `number`.
fn check(number: &str, case: &str, field: &str, statistic: &str) -> String {
    format!(
        "  number = \"{number}\"\n  samples = \"evidence/CoreDispatchBenchmarks-20260505-121657.log\"\n  format = \"benchmarkdotnet\"\n  select = {{ case = \"{case}\" }}\n  field = \"{field}\"\n  statistic = \"{statistic}\"\n"
    )
}

/// The sentence quoting the table's `'Command  Send'` row under the default job, and its checks.
fn command_send(mean: &str, stdev: &str) -> (String, Vec<String>) {
    let quote = format!("Sending a command took {mean} on average, with a standard deviation of {stdev}.");
    let case = "'Command  Send': Job-CEIKLR";
    (quote, vec![check(mean, case, "time_ns", "mean"), check(stdev, case, "time_ns", "stdev")])
}

/// The mean (69.853 ns, printed 69.85 ns) and standard deviation (0.086 ns) of the 12 results
/// BenchmarkDotNet kept hold against the log's records.
#[test]
fn the_tables_mean_and_standard_deviation_hold_over_the_log() {
    let (quote, checks) = command_send("69.85 ns", "0.086 ns");
    let dir = root(&quote, &checks);
    let (code, out) = audit(dir.path());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 checks: 2 passed, 0 failed"), "{out}");
}

/// The same claims with one quoted number changed fail.
#[test]
fn a_changed_mean_or_standard_deviation_fails() {
    for (mean, stdev) in [("69.95 ns", "0.086 ns"), ("69.85 ns", "0.096 ns")] {
        let (quote, checks) = command_send(mean, stdev);
        let dir = root(&quote, &checks);
        let (code, out) = audit(dir.path());
        assert_eq!(code, 1, "{mean} {stdev}: {out}");
        assert!(out.contains("2 checks: 1 passed, 1 failed"), "{mean} {stdev}: {out}");
    }
}

/// `suggest` over an article quoting two rows of the table, with the log alone in `evidence/`:
/// every number of the two rows is proposed a check over the log, each row selected by its case,
/// and pasted into the registry they hold. Changed, the mean is no longer proposed a check.
#[test]
fn suggest_proposes_checks_over_the_log_that_hold() {
    let (dir, out) = suggested(&format!("# Dispatch\n\n{TABLE}"));
    assert!(out.contains("select = { case = \"'Command  Send': Job-CEIKLR\" }"), "{out}");
    assert!(out.contains("select = { case = \"'Notification  Notify': ShortRun\" }"), "{out}");
    assert!(out.contains("CoreDispatchBenchmarks-20260505-121657.log"), "{out}");
    for field in ["time_ns", "gen0_per_1000_ops", "allocated_bytes"] {
        assert!(out.contains(&format!("field = \"{field}\"")), "{field}: {out}");
    }
    let (code, audited) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{audited}");
    assert!(audited.contains(" 0 failed"), "{audited}");

    let changed = TABLE.replace("69.85 ns", "79.85 ns");
    let (_dir, out) = suggested(&format!("# Dispatch\n\n{changed}"));
    assert!(!out.contains("number = \"79.85 ns\""), "{out}");
}

/// `suggest` over a fresh root holding the log under `evidence/` and `article`.
fn suggested(article: &str) -> (tempfile::TempDir, String) {
    suggested_over(article, |root| {
        std::fs::copy(LOG, root.join("evidence/CoreDispatchBenchmarks-20260505-121657.log")).unwrap();
    })
}

/// BenchmarkDotNet's GitHub report of the same run, as it wrote it (the fixture's
/// `net-mediate-0.15.8-report-github.md`): its methods are descriptions in HTML-escaped quotes,
/// `&#39;Command  Send&#39;`, with two spaces. Each row is named by its case as the log's records
/// are, spaces kept (`'Command  Send': Job-CEIKLR`), so that every candidate `suggest` lists for
/// a cell is a statistic of that row's case, and the pasted checks all hold: 40 cells, 8 rows of
/// `Mean`, `Error`, `StdDev`, `Gen0` and `Allocated`. Read as prose, the row was
/// `'Command Send': Job-CEIKLR`, which no record names, and the row's `StdDev` of 0.086 ns was
/// offered the `ShortRun` case's standard deviation too.
#[test]
fn suggest_names_the_github_reports_rows_by_their_cases_with_their_spaces() {
    let report = std::fs::read_to_string("tests/fixtures/harness/benchmarkdotnet-log/net-mediate-0.15.8-report-github.md").unwrap();
    let (dir, out) = suggested(&format!("# Dispatch\n\n{report}"));
    let mut cells = 0;
    for block in out.split("\n# article/a.md:").skip(1) {
        let header = block.lines().next().unwrap();
        let row = header.split(" in cell ").nth(1).and_then(|c| c.split(" › ").next()).unwrap_or_else(|| panic!("{header}"));
        assert!(row.contains("  "), "the row keeps its method's two spaces: {header}");
        for candidate in block.lines().filter(|l| l.starts_with("#   ")) {
            assert!(candidate.contains(&format!("case = \"{row}\"")), "a candidate of another case for {header}: {candidate}");
        }
        assert!(block.contains(&format!("cell = {{ row = \"{row}\"")), "{block}");
        cells += 1;
    }
    assert_eq!(cells, 40, "{out}");
    let (code, audited) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{audited}");
    assert!(audited.contains("40 checks: 40 passed, 0 failed"), "{audited}");
}

/// The report and the console's own table of the same run, the console's in a code block under
/// a heading below the report's (`## Latest run`, then `### Full Console Output`), as
/// net-mediate's BENCHMARKS.md holds them: the rows and columns are the same, so each proposal
/// names its table by what the binding tells apart. `section = "Latest run"` names both, since
/// the console's heading path holds it too; the report's cells are named by their whole path and
/// their place among its tables (`table = 1`), the console's by their own heading. Pasted, all
/// 80 checks bind one cell each and hold.
#[test]
fn suggest_tells_the_report_from_the_console_table_below_it() {
    let report = std::fs::read_to_string("tests/fixtures/harness/benchmarkdotnet-log/net-mediate-0.15.8-report-github.md").unwrap();
    let console = std::fs::read_to_string(LOG).unwrap();
    let (dir, out) = suggested(&format!("# Benchmarks\n\n## Latest run\n\n{report}\n### Full Console Output\n\n```\n{console}```\n"));
    assert!(out.contains("cell = { row = \"'Command  Send': Job-CEIKLR\", column = \"Mean\", section = \"Benchmarks › Latest run\", table = 1 }"), "{out}");
    assert!(out.contains("cell = { row = \"'Command  Send': Job-CEIKLR\", column = \"Mean\", section = \"Full Console Output\" }"), "{out}");
    assert!(!out.contains("section = \"Latest run\" }"), "{out}");
    let (code, audited) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{audited}");
    assert!(audited.contains("80 checks: 80 passed, 0 failed"), "{audited}");
}
