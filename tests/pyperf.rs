//! pyperf's JSON as evidence, end to end: an article quoting what pyperf printed for its own
//! test data (`pyperf stats` of `telco.json`, `pyperf compare_to` of the three `mult_list`
//! files, tests/fixtures/harness/pyperf/, MIT) audited, proposed its checks by `suggest`, and
//! a latency rechecked against a second pyperf run (pyperformance's `py36.json` and
//! `py38.json`). Every quoted figure is pyperf's, as its tests pin it (SOURCE.md beside them).

use crate::support;
use std::path::Path;

use support::{claimcheck, paste_and_audit};

const FIXTURES: &str = "tests/fixtures/harness/pyperf";

/// The article: pyperf's `stats` line for telco and its `compare_to` of the three files, in its
/// one-line form and as its Markdown table (`--table-format md`), names in backticks as
/// Markdown writes code. Figures computed independently with Python's `statistics` over the
/// values of every run (calibration runs hold none): telco mean 22.5307 ms, stdev 0.18656 ms,
/// max 22.9207 ms; `[1,2]*1000` means 3.70437 us (py36) and 5.27711 us (py37), stdevs 0.0506
/// and 0.0907 us, ratio 1.42456; `[1]*1000` 2.12700 / 2.08966 = 1.01787 (faster); geometric
/// means of the ratios 1.22464 (py37 over py36) and 1/0.91959 = 1.08745 (py38 faster).
const ARTICLE: &str = "# Multiplying lists

`pyperf stats telco.json` reports Mean +- std dev: 22.5 ms +- 0.2 ms, with a maximum of 22.9 ms.

The newer interpreter made one case slower: `[1,2]*1000`: Mean +- std dev: [mult_list_py36] 3.70 us +- 0.05 us -> [mult_list_py37] 5.28 us +- 0.09 us: 1.42x slower.

| Benchmark      | mult_list_py36 | mult_list_py37        | mult_list_py38        |
|----------------|:--------------:|:---------------------:|:---------------------:|
| `[1]*1000`     | 2.13 us        | 2.09 us: 1.02x faster | not significant       |
| `[1,2]*1000`   | 3.70 us        | 5.28 us: 1.42x slower | 3.18 us: 1.16x faster |
| `[1,2,3]*1000` | 4.61 us        | 6.05 us: 1.31x slower | 4.17 us: 1.11x faster |
| Geometric mean | (ref)          | 1.22x slower          | 1.09x faster          |
";

/// A root with the four pyperf files under `evidence/` and [`ARTICLE`], after `init`.
fn root() -> tempfile::TempDir {
    root_with(ARTICLE)
}

/// A root with the four pyperf files under `evidence/` and `article`, after `init`.
fn root_with(article: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for d in ["article", "evidence"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for f in ["telco.json", "mult_list_py36.json", "mult_list_py37.json", "mult_list_py38.json"] {
        std::fs::copy(format!("{FIXTURES}/{f}"), root.join("evidence").join(f)).unwrap();
    }
    std::fs::write(root.join("article/a.md"), article).unwrap();
    let (code, _, err) = claimcheck(["init", "article/a.md", "--root", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    dir
}

fn suggest(root: &Path) -> String {
    let (code, out, err) = claimcheck(["suggest", "--root", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    out
}

/// Every number the article quotes is proposed a check over the pyperf files, the one pyperf
/// computed: each time the mean (`pyperf` prints means) or the standard deviation of its
/// benchmark in its file, each `x faster`/`x slower` the larger mean over the smaller of the
/// one benchmark in the two files the table's columns name, and each `Geometric mean` the
/// geometric mean of those ratios over the three benchmarks; and the cell that says `not
/// significant` is proposed pyperf's t-test of its two files. Pasted, all 24 hold.
#[test]
fn suggest_proposes_pyperf_s_own_computations_and_they_hold() {
    let dir = root();
    let out = suggest(dir.path());
    let proposed: toml::Table = toml::from_str(&out).unwrap();
    let claims = proposed["claim"].as_array().unwrap();
    assert_eq!(claims.len(), 24, "{out}");
    assert!(out.contains("1 cell that says `not significant`, which no claim binds"), "{out}");
    let verdict = claims.iter().find(|c| c["check"][0]["kind"].as_str() == Some("ttest")).unwrap_or_else(|| panic!("{out}"));
    assert_eq!((verdict["cell"]["row"].as_str(), verdict["cell"]["column"].as_str()), (Some("[1]*1000"), Some("mult_list_py38")), "{verdict:?}");
    let test = &verdict["check"][0];
    assert_eq!(test["significant"].as_bool(), Some(false));
    assert_eq!((test["base"]["samples"].as_str(), test["new"]["samples"].as_str()), (Some("evidence/mult_list_py36.json"), Some("evidence/mult_list_py38.json")));
    let check = |row: &str, column: &str, number: &str| {
        claims
            .iter()
            .filter(|c| c.get("cell").is_some_and(|cell| cell["row"].as_str() == Some(row) && cell["column"].as_str() == Some(column)))
            .flat_map(|c| c["check"].as_array().unwrap().iter())
            .find(|k| k["number"].as_str() == Some(number))
            .cloned()
            .unwrap_or_else(|| panic!("nothing proposed for {number} in {row} › {column}:\n{out}"))
    };
    let ref_mean = check("[1,2]*1000", "mult_list_py36", "3.70 us");
    assert_eq!((ref_mean["statistic"].as_str(), ref_mean["samples"].as_str()), (Some("mean"), Some("evidence/mult_list_py36.json")), "{ref_mean:?}");
    let file = |k: &toml::Value, side: &str| {
        let expr = k["expr"].as_str().unwrap().to_string();
        let (a, b) = expr.split_once('/').unwrap();
        let var = if side == "top" { a.trim() } else { b.trim() };
        k["vars"][var]["samples"].as_str().unwrap().to_string()
    };
    // `1.02x faster`: the reference's mean over the changed file's.
    let faster = check("[1]*1000", "mult_list_py37", "1.02x");
    assert_eq!((file(&faster, "top"), file(&faster, "bottom")), ("evidence/mult_list_py36.json".to_string(), "evidence/mult_list_py37.json".to_string()), "{faster:?}");
    // `1.42x slower`: the changed file's mean over the reference's.
    let slower = check("[1,2]*1000", "mult_list_py37", "1.42x");
    assert_eq!((file(&slower, "top"), file(&slower, "bottom")), ("evidence/mult_list_py37.json".to_string(), "evidence/mult_list_py36.json".to_string()), "{slower:?}");
    assert_eq!(slower["vars"]["a"]["statistic"].as_str(), Some("mean"));
    let geomean = check("Geometric mean", "mult_list_py37", "1.22x");
    assert_eq!(geomean["expr"].as_str(), Some("(n1 / o1 * n2 / o2 * n3 / o3) ^ (1 / 3)"), "{geomean:?}");

    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("24 checks: 24 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers; all claims hold"), "{stdout}");
}

/// The proposed registry holds; with a quoted number edited in the article's table and in its
/// check (pyperf printed `1.42x slower`; the cell now says `1.52x`), the audit fails on it.
#[test]
fn an_edited_speed_up_fails_the_audit() {
    let dir = root();
    let out = suggest(dir.path());
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    let article = dir.path().join("article/a.md");
    std::fs::write(&article, ARTICLE.replace("5.28 us: 1.42x slower", "5.28 us: 1.52x slower")).unwrap();
    let registry = dir.path().join("claims/a.toml");
    let text = std::fs::read_to_string(&registry).unwrap();
    let sha = claimcheck::hash::sha256_hex(std::fs::read(&article).unwrap().as_slice());
    let text: String = text.lines().map(|l| if l.starts_with("sha256 = ") { format!("sha256 = \"{sha}\"\n") } else { format!("{l}\n") }).collect();
    // The cell's claim, the one proposed for `[1,2]*1000` under `mult_list_py37`.
    let at = text.find("cell = { row = \"[1,2]*1000\", column = \"mult_list_py37\" }").unwrap();
    let (head, tail) = text.split_at(at);
    let tail = tail.replacen("\n  number = \"1.42x\"", "\n  number = \"1.52x\"", 1);
    std::fs::write(&registry, format!("{head}{tail}")).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("arith 1.52x: FAIL: quoted 1.52×, evidence 1.42×"), "{stdout}{stderr}");
    assert!(stdout.contains("24 checks: 23 passed, 1 failed, 0 skipped, 0 errors"), "{stdout}{stderr}");
}

/// A `not significant` written where pyperf printed a change (`[1,2]*1000` on 3.8 is 1.16x
/// faster, t = 41.50 over 118 degrees of freedom): the proposed t-test, pasted, fails on it,
/// while the cell pyperf itself wrote `not significant` in holds.
#[test]
fn a_not_significant_the_samples_contradict_fails_the_audit() {
    let edited = ARTICLE.replace("| 3.18 us: 1.16x faster |", "| not significant       |");
    let dir = root_with(&edited);
    let out = suggest(dir.path());
    assert!(out.contains("2 cells that say `not significant`, which no claim binds"), "{out}");
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("ttest: FAIL (the text says not significant, but Student's two-sample t-test as pyperf makes it finds the difference significant: |t| = 41.50 ≥ 1.984)"),
        "{stdout}"
    );
    assert!(stdout.contains("1 failed"), "{stdout}");
}

/// pyperf's own compressed result (`outliers.json.gz`, its documentation's example, MIT), as
/// pyperformance writes its results: `suggest` proposes each figure pyperf's documentation
/// prints for it over the compressed file, pasted they hold, and the file cut short in place
/// is an input error located at it, nothing else read from it.
#[test]
fn a_gzip_compressed_pyperf_file_is_evidence_as_it_is() {
    let article = "# Outliers\n\npyperf's timeit of `[1,2]*1000` gave Mean +- std dev: 4.34 us +- 0.31 us, with a median of 4.25 us and a maximum of 6.02 us.\n";
    let (dir, out) = support::suggested_over(article, |root| {
        std::fs::copy(format!("{FIXTURES}/outliers.json.gz"), root.join("evidence/outliers.json.gz")).unwrap();
    });
    for (number, first) in
        [("4.34 us", "mean time_s of 60 records of evidence/outliers.json.gz"), ("0.31 us", "stdev time_s"), ("4.25 us", "median time_s"), ("6.02 us", "max time_s")]
    {
        let at = out.find(&format!("`{number}` in ")).unwrap_or_else(|| panic!("{number}:\n{out}"));
        assert!(out[at..].lines().nth(1).unwrap().contains(first), "{number}: {}", out[at..].lines().nth(1).unwrap());
    }
    let (code, stdout) = paste_and_audit(dir.path(), &out);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("4 checks: 4 passed"), "{stdout}");
    let gz = std::fs::read(format!("{FIXTURES}/outliers.json.gz")).unwrap();
    std::fs::write(dir.path().join("evidence/outliers.json.gz"), &gz[..gz.len() - 40]).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("evidence/outliers.json.gz: line 1: this gzip-compressed file cannot be decompressed"), "{stderr}");
}

/// A root quoting pyperformance's `telco` mean on CPython 3.6 (10.7 ms, as pyperformance
/// printed it), its pyperf file accepted under `evidence/`.
fn recheck_root(margin: f64) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence/pyperf", "rerun/pyperf"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    let article = "# Telco\n\nThe telco benchmark took 10.7 ms on average.\n";
    std::fs::write(dir.path().join("article/a.md"), article).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    std::fs::write(
        dir.path().join("claims/a.toml"),
        format!(
            "[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n\n[[claim]]\nid = \"T1\"\nquote = \"The telco benchmark took 10.7 ms on average.\"\nverdict = \"retain\"\nfinding = \"The mean of 60 values.\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"10.7 ms\"\n  samples = \"evidence/pyperf/telco.json\"\n  format = \"pyperf\"\n  select = {{ name = \"telco\" }}\n  field = \"time_s\"\n  statistic = \"mean\"\n  margin = {margin}\n"
        ),
    )
    .unwrap();
    std::fs::copy(format!("{FIXTURES}/pyperformance-py36.json"), dir.path().join("evidence/pyperf/telco.json")).unwrap();
    dir
}

/// The same run again matches; CPython 3.8's run of the same benchmark (7.22 ms against
/// 10.7 ms) is a mismatch: pyperf's records are judged as any harness's are.
#[test]
fn recheck_fresh_judges_a_pyperf_latency() {
    let dir = recheck_root(0.1);
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::copy(format!("{FIXTURES}/pyperformance-py36.json"), dir.path().join("rerun/pyperf/telco.json")).unwrap();
    let (code, out, err) = claimcheck(["recheck", "--root", dir.path().to_str().unwrap(), "--fresh", "rerun"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 rows (1 MATCH, 0 MISMATCH"), "{out}");
    std::fs::copy(format!("{FIXTURES}/pyperformance-py38.json"), dir.path().join("rerun/pyperf/telco.json")).unwrap();
    let (code, out, err) = claimcheck(["recheck", "--root", dir.path().to_str().unwrap(), "--fresh", "rerun"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("7.22 ms") && out.contains("1 rows (0 MATCH, 1 MISMATCH"), "{out}");
}

/// pyperf's console pasted as code, as its users quote it: `compare_to --table`'s grid table
/// (pyperf's own documentation, `doc/cli.rst`, prints this table for the three `mult_list`
/// files) and its one-line comparison and `stats` result. Code is not prose, but these are read
/// as the harness's tables: every number of them is proposed pyperf's computation (the same
/// figures as [`ARTICLE`]'s, and `Median +- MAD` left to the text), and pasted, all hold. With
/// `[1,2]*1000`'s ratio edited in the grid, that cell fails.
#[test]
fn pyperf_s_console_in_code_blocks_is_read_as_its_tables() {
    let article = "# Lists

```
$ python3 -m pyperf compare_to --table mult_list_py36.json mult_list_py37.json mult_list_py38.json
+----------------+----------------+-----------------------+-----------------------+
| Benchmark      | mult_list_py36 | mult_list_py37        | mult_list_py38        |
+================+================+=======================+=======================+
| [1]*1000       | 2.13 us        | 2.09 us: 1.02x faster | not significant       |
+----------------+----------------+-----------------------+-----------------------+
| [1,2]*1000     | 3.70 us        | 5.28 us: 1.42x slower | 3.18 us: 1.16x faster |
+----------------+----------------+-----------------------+-----------------------+
| [1,2,3]*1000   | 4.61 us        | 6.05 us: 1.31x slower | 4.17 us: 1.11x faster |
+----------------+----------------+-----------------------+-----------------------+
| Geometric mean | (ref)          | 1.22x slower          | 1.09x faster          |
+----------------+----------------+-----------------------+-----------------------+
```

```
$ python3 -m pyperf compare_to mult_list_py36.json mult_list_py37.json -b '[1,2]*1000'
Mean +- std dev: [mult_list_py36] 3.70 us +- 0.05 us -> [mult_list_py37] 5.28 us +- 0.09 us: 1.42x slower
$ python3 -m pyperf show telco.json
Mean +- std dev: 22.5 ms +- 0.2 ms
```
";
    let dir = root_with(article);
    let root = dir.path();
    let out = suggest(root);
    // Every number of the two blocks: 15 in the grid, 5 in the one-line comparison, 2 in the
    // result; none without a proposal. The last two lines name no benchmark, as pyperf prints
    // them for a single one.
    assert!(out.contains("22 unbound numbers, 22 with a candidate"), "{out}");
    for (cell, first) in [
        (
            "`1.42x` in cell [1,2]*1000 › mult_list_py37",
            "mean time_s of 60 records of evidence/mult_list_py37.json with name = \"[1,2]*1000\" over mean time_s of 60 records of evidence/mult_list_py36.json",
        ),
        (
            "`1.09x` in cell Geometric mean › mult_list_py38",
            "the geometric mean of the ratios of 3 means of time_s in evidence/mult_list_py36.json over time_s in evidence/mult_list_py38.json",
        ),
        ("`0.09 us` in cell Mean +- std dev › mult_list_py37", "stdev time_s of 60 records of evidence/mult_list_py37.json"),
        ("`22.5 ms` in cell Mean +- std dev › Mean +- std dev", "mean time_s of"),
    ] {
        let at = out.find(cell).unwrap_or_else(|| panic!("{cell}:\n{out}"));
        assert!(out[at..].lines().nth(1).unwrap().contains(first), "{cell}: {}", out[at..].lines().nth(1).unwrap());
    }
    let (code, stdout) = paste_and_audit(root, &out);
    assert!(stdout.contains("23 checks: 23 passed") && stdout.contains("0 unbound numbers"), "{stdout}");
    assert_eq!(code, 0, "{stdout}");

    // The grid's 1.42x made 1.52x: the cell's check fails against the same files.
    let path = root.join("article/a.md");
    std::fs::write(&path, article.replacen("5.28 us: 1.42x slower |", "5.28 us: 1.52x slower |", 1)).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", root.to_str().unwrap()]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("1.52×, evidence 1.42×") && stdout.contains(": FAIL"), "{stdout}{stderr}");
}

/// `pyperf stats telco.json`'s table and two of its percentiles, pasted as pyperf prints them
/// (pyperf's tests pin these lines, `test_stats`): each line is read as a cell under its key,
/// and `suggest` proposes pyperf's own statistic for each value, the MAD where the key names it,
/// the percentile its ordinal names, and for `(-1% of the mean)` the change from the mean to
/// that percentile; pasted, they hold, and nothing is left unbound.
#[test]
fn pyperf_stats_lines_are_read_and_proposed_pyperf_s_statistics() {
    let article = "# Telco

```
$ python3 -m pyperf stats telco.json
Minimum:         22.1 ms
Median +- MAD:   22.5 ms +- 0.1 ms
Mean +- std dev: 22.5 ms +- 0.2 ms
Maximum:         22.9 ms

  0th percentile: 22.1 ms (-2% of the mean) -- minimum
  5th percentile: 22.3 ms (-1% of the mean)
```
";
    let dir = root_with(article);
    let root = dir.path();
    let out = suggest(root);
    for (cell, first) in [
        ("`0.1 ms` in cell Median +- MAD › Median +- MAD", "mad time_s of 120 records of evidence/telco.json"),
        ("`22.5 ms` in cell Median +- MAD › Median +- MAD", "median time_s of 120 records of evidence/telco.json"),
        ("`22.1 ms` in cell Minimum › Minimum", "min time_s of 120 records of evidence/telco.json"),
        ("`22.1 ms` in cell 0th percentile › 0th percentile", "min time_s of 120 records of evidence/telco.json"),
        ("`22.3 ms` in cell 5th percentile › 5th percentile", "p05 time_s of 120 records of evidence/telco.json"),
        ("`22.9 ms` in cell Maximum › Maximum", "max time_s of 120 records of evidence/telco.json"),
        ("`-2%` in cell 0th percentile › 0th percentile", "the change in % from mean time_s of 120 records of evidence/telco.json with name = \"telco\" to p0 time_s"),
        ("`-1%` in cell 5th percentile › 5th percentile", "the change in % from mean time_s of 120 records of evidence/telco.json with name = \"telco\" to p05 time_s"),
    ] {
        let at = out.find(cell).unwrap_or_else(|| panic!("{cell}:\n{out}"));
        assert!(out[at..].lines().nth(1).unwrap().contains(first), "{cell}: {}", out[at..].lines().nth(1).unwrap());
    }
    let (code, stdout) = paste_and_audit(root, &out);
    assert!(stdout.contains("10 checks: 10 passed") && stdout.contains("0 unbound numbers"), "{stdout}");
    assert_eq!(code, 0, "{stdout}");
}
