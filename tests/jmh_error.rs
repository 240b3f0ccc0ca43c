//! `statistic = "jmh-error"`, JMH's 99.9 % Student-t error of a mean, as a registry uses it:
//! over a JMH file it holds where JMH's printed error is quoted, over too few samples it is an
//! error at `statistic`, and an ordering cannot be taken in it.

use crate::support;
use support::claimcheck;

/// A root with `article/a.md`, the twineworks/collections JMH result file as
/// `evidence/jmh-result.json` (tests/fixtures/harness/jmh, MIT) and `claims/a.toml` holding one
/// claim on the article's only sentence, with `checks` appended.
fn root(sentence: &str, checks: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    let article = format!("# Maps\n\n{sentence}\n");
    std::fs::write(dir.path().join("article/a.md"), &article).unwrap();
    std::fs::copy("tests/fixtures/harness/jmh/twineworks-collections.json", dir.path().join("evidence/jmh-result.json")).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    let registry =
        format!("[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"J1\"\nquote = \"{sentence}\"\nverdict = \"retain\"\nfinding = \"f\"\n{checks}");
    std::fs::write(dir.path().join("claims/a.toml"), registry).unwrap();
    dir
}

const SELECT: &str = "samples = \"evidence/jmh-result.json\"\n  select = { benchmark = \"io.twineworks.collections.shapemap.BigMapBenchmark.putHashMap\" }";

/// JMH printed `13.308 ± 1.121 ns/op`: the error holds in the quoted unit (`ns/op` is a time in
/// ns) and in another (`0.001121 µs`), and a wrong one fails with the recomputed value.
#[test]
fn jmh_s_printed_error_holds_and_a_wrong_one_fails() {
    let check = |number: &str| format!("\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"{number}\"\n  {SELECT}\n  field = \"time_ns\"\n  statistic = \"jmh-error\"\n");
    let dir = root("The error was 1.121 ns/op, or 0.001121 µs.", &(check("1.121 ns/op") + &check("0.001121 µs")));
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 checks: 2 passed"), "{out}");
    let dir = root("The error was 1.122 ns/op.", &check("1.122 ns/op"));
    let (code, out, _) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("quoted 1.122 ns, evidence 1.121 ns") && out.contains("99.9 % Student-t error of the mean of time_ns of 10 samples"), "{out}");
}

/// Two samples have no error in JMH (it prints none): the check is an error located at its
/// `statistic`, and the audit exits 2.
#[test]
fn two_samples_have_no_error() {
    let check =
        format!("\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"1.121 ns\"\n  {SELECT}\n  where = \"iteration <= 2\"\n  field = \"time_ns\"\n  statistic = \"jmh-error\"\n");
    let dir = root("The error was 1.121 ns.", &check);
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("JMH's error needs three samples or more, and evidence/jmh-result.json selects 2") && err.contains("claims/a.toml:18:15"), "{err}");
}

/// An ordering is by a statistic of each side; JMH's error is not one, and `compare` refuses it
/// when the registry is read.
#[test]
fn a_compare_check_refuses_jmh_s_error() {
    let check = "\n  [[claim.check]]\n  kind = \"compare\"\n  samples = \"evidence/jmh-result.json\"\n  select = {}\n  field = \"time_ns\"\n  statistic = \"jmh-error\"\n  by = \"benchmark\"\n  faster = \"a\"\n  slower = [\"b\"]\n";
    let dir = root("Reads are faster.", check);
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("jmh-error"), "{err}");
}
