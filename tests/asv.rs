//! airspeed velocity's results as evidence, end to end: an article pasting the comparison table
//! `asv compare` printed for two commits (asv 0.6.6, tests/fixtures/harness/asv/, see its
//! SOURCE.md), every cell proposed by `suggest` from the two results files asv wrote with
//! `--record-samples`, pasted into the registry and audited by the built binary. claimcheck
//! reads the files; it runs no benchmark.

use crate::support;
use support::{claimcheck, paste_and_audit, suggested_over};

const FIXTURES: &str = "tests/fixtures/harness/asv";

/// asv's comparison table as it printed it, under a heading.
fn article() -> String {
    let compare = std::fs::read_to_string(format!("{FIXTURES}/compare.txt")).unwrap();
    let table: String = compare.lines().skip_while(|l| !l.starts_with("| Change")).map(|l| format!("{l}\n")).collect();
    format!("# Sorting and joining\n\nasv compared the two commits:\n\n{table}\nJoining took 79.2±3μs before the change.\n")
}

/// Copies asv's results directory (`results/benchmarks.json` and `results/vm/*.json`), or the
/// one results file without samples, under the root's `evidence/`.
fn fill(root: &std::path::Path, results: &str) {
    let from = std::path::Path::new(FIXTURES).join(results);
    let to = root.join("evidence").join(results);
    std::fs::create_dir_all(to.join("vm")).unwrap();
    for entry in std::fs::read_dir(from.join("vm")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join("vm").join(entry.file_name())).unwrap();
    }
    if from.join("benchmarks.json").exists() {
        std::fs::copy(from.join("benchmarks.json"), to.join("benchmarks.json")).unwrap();
    }
}

/// Every number of the table is proposed as asv computed it: a median of the samples of the
/// row's benchmark and parameters in the file of the column's commit, the `±` as half the
/// interquartile range (with a tolerance where asv's one significant digit is a ten), a size in
/// bytes, and `Ratio` as the after file's median over the before file's. Pasted, all hold and
/// nothing is left unbound; a cell edited afterwards is reported.
#[test]
fn suggest_reproduces_every_cell_of_asv_s_comparison_table() {
    let (dir, proposed) = suggested_over(&article(), |root| fill(root, "results"));
    assert!(!proposed.contains("no statistic of the evidence reproduces it"), "{proposed}");
    assert!(proposed.contains("read as asv results JSON (detected), 78 records"), "{proposed}");
    assert!(proposed.contains("statistic = \"asv-error\""), "{proposed}");
    // `927±100μs`'s error rounds to a hundred, `20μs`'s to a ten.
    assert!(proposed.contains("number = \"20μs\"\n  tolerance = 5\n"), "{proposed}");
    assert!(proposed.contains("select = { name = \"bench_sort.Sorting.time_sorted(100, 'int')\" }"), "{proposed}");
    assert!(proposed.contains("field = \"memory_bytes\""), "{proposed}");
    assert!(proposed.contains("kind = \"arith\"\n  number = \"1.28\"\n  expr = \"a / b\"\n  vars.a = { samples = \"evidence/results/vm/b444ec0a"), "{proposed}");
    let (code, out) = paste_and_audit(dir.path(), &proposed);
    assert!(out.contains("61 checks: 61 passed, 0 failed"), "{out}");
    assert!(out.contains("0 unbound numbers"), "{out}");
    assert_eq!(code, 0, "{out}");

    // Edited afterwards, the cell no longer holds the number its check verifies: an input
    // error at the check's `number`, which says what the cell now quotes.
    let edited = article().replace("| 3.06±0.5μs ", "| 2.06±0.5μs ");
    assert_ne!(edited, article());
    std::fs::write(dir.path().join("article/a.md"), edited).unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("number `3.06` is not in its cell") && err.contains("the cell at line 18 quotes `2.06`"), "{err}");
}

/// A results file asv wrote without `--record-samples` holds only each timing's median: it is
/// refused at that median, with the flag that keeps the samples, and a check on it is an error.
#[test]
fn results_without_samples_are_refused_with_the_flag_that_keeps_them() {
    let (dir, proposed) = suggested_over(&article(), |root| fill(root, "no-samples"));
    assert!(proposed.contains("not read (evidence/no-samples/vm/b444ec0a-existing-py_tmp_asvenv_bin_python3.json: line 1: this asv result"), "{proposed}");
    assert!(proposed.contains("--record-samples"), "{proposed}");
    let check = "[[claim]]\nid = \"J\"\nquote = \"Joining took 79.2±3μs before the change.\"\nverdict = \"retain\"\nfinding = \"f\"\n\n  [[claim.check]]\n  kind = \"stat\"\n  number = \"79.2\"\n  samples = \"evidence/no-samples/vm/b444ec0a-existing-py_tmp_asvenv_bin_python3.json\"\n  select = { benchmark = \"bench_sort.time_join\" }\n  field = \"time_s\"\n  statistic = \"median\"\n";
    let (code, out) = paste_and_audit(dir.path(), check);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("holds only summaries, not samples"), "{out}");
}

/// The same comparison as asv 0.5.1 printed it, pasted as a code block: its cells are read by
/// their place in asv's old layout and, proposed by `suggest` and pasted, all hold.
#[test]
fn asv_s_older_layout_in_a_code_block_is_checked_too() {
    let compare = std::fs::read_to_string(format!("{FIXTURES}/compare-asv-0.5.1.txt")).unwrap();
    let article = format!("# Sorting and joining\n\nasv 0.5.1 compared the two commits:\n\n```\n{}```\n", compare.trim_start());
    let (dir, proposed) = suggested_over(&article, |root| fill(root, "results"));
    assert!(!proposed.contains("no statistic of the evidence reproduces it"), "{proposed}");
    assert!(proposed.contains("cell = { row = \"bench_sort.Sorting.time_sorted(100, 'int')\", column = \"ratio\" }"), "{proposed}");
    let (code, out) = paste_and_audit(dir.path(), &proposed);
    // The table's 59 numbers, the prose sentence of the other test being absent here.
    assert!(out.contains("59 checks: 59 passed, 0 failed"), "{out}");
    assert!(out.contains("0 unbound numbers"), "{out}");
    assert_eq!(code, 0, "{out}");
}

/// asv's comparison of the two commits measured in two environments (`asv run -E
/// existing:… -E existing:…`, the fixture's `environments/`): every row names its benchmark
/// and then its machine and environment (`[vm/existing-py_tmp_asvenv2_bin_python3]`). Each
/// cell is proposed from the files of its row's environment only, a ratio from the two commits'
/// files of that environment, and pasted, all hold.
#[test]
fn a_row_naming_its_environment_is_read_from_that_environment_s_files() {
    let compare = std::fs::read_to_string(format!("{FIXTURES}/environments/compare.txt")).unwrap();
    let table: String = compare.lines().skip_while(|l| !l.starts_with("| Change")).map(|l| format!("{l}\n")).collect();
    let (dir, proposed) = suggested_over(&format!("# Two environments\n\n{table}"), |root| fill(root, "environments/results"));
    assert!(proposed.contains("116 unbound numbers, 115 with a candidate"), "{proposed}");
    // Every check of a row reads that row's environment: the same medians differ by
    // environment (`time_maybe(1)` took 1.17μs in one and 941ns in the other).
    let mut read = 0;
    for claim in proposed.split("[[claim]]").skip(1) {
        let Some((_, env)) = claim.split_once(" [vm/").and_then(|(_, rest)| rest.split_once(']')).map(|(env, _)| ((), env)) else { continue };
        for path in claim.split("samples = \"").skip(1).map(|rest| rest.split('"').next().unwrap()) {
            assert!(path.ends_with(&format!("-{env}.json")), "{env}: {path}");
            read += 1;
        }
    }
    assert_eq!(read, 144);
    assert!(
        proposed.contains("vars.a = { samples = \"evidence/environments/results/vm/b444ec0a-existing-py_tmp_asvenv2_bin_python3.json\", format = \"asv\", select = { name = \"bench_sort.timeraw_import\" }")
    );
    let (code, out) = paste_and_audit(dir.path(), &proposed);
    assert!(out.contains("115 checks: 115 passed, 0 failed"), "{out}");
    assert_eq!(code, 0, "{out}");
}

/// A row of a comparison between two environments, as asv_spyglass names it
/// (`[vm/envA -> vm/envB]`): the `Before` value is of the first environment's file, the `After`
/// value of the second's, and the ratio is the second's median over the first's.
#[test]
fn a_row_comparing_two_environments_reads_each_side_from_its_own() {
    let (one, two) = ("vm/existing-py_tmp_asvenv_bin_python3", "vm/existing-py_tmp_asvenv2_bin_python3");
    let article = format!(
        "# One commit, two environments\n\n| Change | Before | After | Ratio | Benchmark (Parameter) |\n|---|---|---|---|---|\n|  | 95.5±3μs | 92.6±0.9μs | 0.97 | bench_sort.time_join [{one} -> {two}] |\n| - | 7.88±1ms | 6.04±0.2ms | 0.77 | bench_sort.timeraw_import [{one} -> {two}] |\n"
    );
    let (dir, proposed) = suggested_over(&article, |root| fill(root, "environments/results"));
    assert!(proposed.contains("10 unbound numbers, 10 with a candidate"), "{proposed}");
    let file = |env: &str| format!("evidence/environments/results/vm/b444ec0a-{}.json", env.trim_start_matches("vm/"));
    assert!(proposed.contains(&format!("number = \"95.5\"\n  samples = \"{}\"", file(one))), "{proposed}");
    assert!(proposed.contains(&format!("number = \"92.6\"\n  samples = \"{}\"", file(two))), "{proposed}");
    assert!(proposed.contains(&format!("number = \"0.97\"\n  expr = \"a / b\"\n  vars.a = {{ samples = \"{}\"", file(two))), "{proposed}");
    assert!(proposed.contains(&format!("number = \"0.77\"\n  expr = \"a / b\"\n  vars.a = {{ samples = \"{}\"", file(two))), "{proposed}");
    let (code, out) = paste_and_audit(dir.path(), &proposed);
    assert!(out.contains("10 checks: 10 passed, 0 failed"), "{out}");
    assert_eq!(code, 0, "{out}");
}
