//! `stat` checks over Nsight Compute's CSV end to end: an article quoting a kernel's median
//! duration, bound to ncu's real output of `saxpy.cu` on an H100
//! (tests/fixtures/harness/ncu/, see its SOURCE.md), audited by the built binary. claimcheck
//! reads the files; it runs no profiler.

use crate::support;
use support::claimcheck;

const FIXTURES: &str = "tests/fixtures/harness/ncu";

/// A root holding the ncu file `file` under `evidence/`, an article of the one sentence `quote`
/// and a registry of one claim whose `stat` check is `check` (its keys after `kind`).
fn root(file: &str, quote: &str, check: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    std::fs::copy(format!("{FIXTURES}/{file}"), dir.path().join("evidence").join(file)).unwrap();
    let article = format!("# Saxpy\n\n{quote}\n");
    std::fs::write(dir.path().join("article/a.md"), &article).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    let claim = format!(
        "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"N1\"\nquote = \"{quote}\"\nverdict = \"retain\"\nfinding = \"The median of four launches.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n{check}"
    );
    std::fs::write(dir.path().join("claims/a.toml"), claim).unwrap();
    dir
}

fn audit(dir: &tempfile::TempDir) -> (i32, String, String) {
    claimcheck(["audit", "--root", dir.path().to_str().unwrap()])
}

/// The median `Duration` of the four launches of `saxpy` over 65,536 blocks in the details page
/// is 70,064 ns (70,080, 70,048, 69,920 and 70,080), found by the function's short name and the
/// grid, with the format detected.
#[test]
fn a_median_duration_of_a_kernel_from_the_details_page_holds() {
    let check = "  number = \"70.06 µs\"\n  samples = \"evidence/saxpy-details.csv\"\n  select = { function = \"saxpy\", grid_size = \"(65536, 1, 1)\" }\n  field = \"duration_ns\"\n  statistic = \"median\"\n";
    let dir = root("saxpy-details.csv", "At the largest grid saxpy took 70.06 µs at the median.", check);
    let (code, out, err) = audit(&dir);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 check: 1 passed, 0 failed"), "{out}");
}

/// The same claim against another number fails.
#[test]
fn a_wrong_median_duration_fails() {
    let check = "  number = \"60.06 µs\"\n  samples = \"evidence/saxpy-details.csv\"\n  select = { function = \"saxpy\", grid_size = \"(65536, 1, 1)\" }\n  field = \"duration_ns\"\n  statistic = \"median\"\n";
    let dir = root("saxpy-details.csv", "At the largest grid saxpy took 60.06 µs at the median.", check);
    let (code, out, err) = audit(&dir);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 check: 0 passed, 1 failed"), "{out}");
}

/// The raw page names the duration by its metric id: the same launches' median from another
/// run, 69,216 ns (69,184, 69,216, 69,408, 69,216), with the format named.
#[test]
fn a_median_duration_from_the_raw_page_holds() {
    let check = "  number = \"69.22 µs\"\n  samples = \"evidence/saxpy-raw.csv\"\n  format = \"ncu\"\n  select = { function = \"saxpy\", grid_size = \"(65536, 1, 1)\" }\n  field = \"gpu__time_duration.sum_ns\"\n  statistic = \"median\"\n";
    let dir = root("saxpy-raw.csv", "At the largest grid saxpy took 69.22 µs at the median.", check);
    let (code, out, err) = audit(&dir);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 check: 1 passed, 0 failed"), "{out}");
}

/// A check over the per-kernel summary is refused as input, with what to export instead.
#[test]
fn a_check_over_the_per_kernel_summary_is_refused() {
    let check = "  number = \"3.0 µs\"\n  samples = \"evidence/saxpy-summary.csv\"\n  select = { process = \"saxpy\" }\n  field = \"duration_ns\"\n  statistic = \"median\"\n";
    let dir = root("saxpy-summary.csv", "Saxpy took 3.0 µs at the median.", check);
    let (code, out, err) = audit(&dir);
    let all = format!("{out}{err}");
    assert_ne!(code, 0, "{all}");
    assert!(all.contains("holds only summaries"), "{all}");
    assert!(all.contains("`ncu --csv` without `--print-summary`"), "{all}");
    assert!(all.contains("saxpy-summary.csv:5:1"), "{all}");
}
