//! `recheck --fresh PATH` with another harness's output: the hyperfine fixtures (two real runs of
//! `sleep 0.01`, tests/fixtures/harness/hyperfine/) judged by the recheck's rule, paired by
//! layout, by file and by `--map`. claimcheck reads the files; it runs no command.

mod support;
use support::claimcheck;

const FIXTURES: &str = "tests/fixtures/harness/hyperfine";
const ARTICLE: &str = "# Timing\n\nThe command took 18.24 ms at the median.\n";

/// A root quoting the median of `accepted.json`, with the check's margin δ.
fn root(margin: f64) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence/hyperfine", "rerun/hyperfine"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    for f in ["accepted.json", "fresh.json"] {
        std::fs::copy(format!("{FIXTURES}/{f}"), dir.path().join("evidence/hyperfine").join(f)).unwrap();
    }
    std::fs::write(dir.path().join("article/a.md"), ARTICLE).unwrap();
    let sha = claimcheck::hash::sha256_hex(ARTICLE.as_bytes());
    let registry = format!(
        "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"T1\"\nquote = \"The command took 18.24 ms at the median.\"\nverdict = \"retain\"\nfinding = \"The median of 20 runs.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"18.24 ms\"\n  samples = \"evidence/hyperfine/accepted.json\"\n  format = \"hyperfine\"\n  select = {{ command = \"sleep 0.01\" }}\n  field = \"time_s\"\n  statistic = \"median\"\n  margin = {margin}\n"
    );
    std::fs::write(dir.path().join("claims/a.toml"), registry).unwrap();
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
