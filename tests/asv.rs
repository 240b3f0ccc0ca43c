//! airspeed velocity's results as evidence, end to end: an article pasting the comparison table
//! `asv compare` printed for two commits (asv 0.6.6, tests/fixtures/harness/asv/, see its
//! SOURCE.md), every cell proposed by `suggest` from the two results files asv wrote with
//! `--record-samples`, pasted into the registry and audited by the built binary. claimcheck
//! reads the files; it runs no benchmark.

mod support;
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
