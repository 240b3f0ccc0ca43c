//! Numbers in a table's row names and column headers (`[1,2]*1000`, `batch 32`): arguments
//! that name the cells they head, declared by the claims bound by `cell` there, whose selectors
//! write them. The table is pyperf's own `compare_to --table-format md` output for its test data
//! (tests/fixtures/harness/pyperf/, MIT), names bare as pyperf writes them.

use crate::support;
use std::path::Path;

use support::{claimcheck, paste_and_audit, suggested_over};

const FIXTURES: &str = "tests/fixtures/harness/pyperf";

/// pyperf's table as `MarkDownTable` lays it out (SOURCE.md beside the fixtures).
const PYPERF_TABLE: &str = "# Multiplying lists

| Benchmark      | mult_list_py36 | mult_list_py37        | mult_list_py38        |
|----------------|:--------------:|:---------------------:|:---------------------:|
| [1]*1000       | 2.13 us        | 2.09 us: 1.02x faster | not significant       |
| [1,2]*1000     | 3.70 us        | 5.28 us: 1.42x slower | 3.18 us: 1.16x faster |
| [1,2,3]*1000   | 4.61 us        | 6.05 us: 1.31x slower | 4.17 us: 1.11x faster |
| Geometric mean | (ref)          | 1.22x slower          | 1.09x faster          |
";

fn pyperf_files(root: &Path) {
    for f in ["mult_list_py36.json", "mult_list_py37.json", "mult_list_py38.json"] {
        std::fs::copy(format!("{FIXTURES}/{f}"), root.join("evidence").join(f)).unwrap();
    }
}

/// A root holding `article` as `article/a.md`, its registry started by `init`.
fn initialised(article: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("article")).unwrap();
    std::fs::write(dir.path().join("article/a.md"), article).unwrap();
    let (code, _, err) = claimcheck(["init", "article/a.md", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    dir
}

/// The unbound numbers an audit's output lists, in its order, each with its backquotes.
fn unbound(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.contains(": unbound number `")).map(|l| l.split(": unbound number ").nth(1).unwrap().split(':').next().unwrap()).collect()
}

fn audit(root: &Path) -> (i32, String) {
    let (code, out, err) = claimcheck(["audit", "--root", root.to_str().unwrap()]);
    (code, format!("{out}{err}"))
}

/// `init` starts no claim for a row's name, `suggest` proposes no statistic for its digits, and
/// once the proposed claims of the rows' cells are pasted, nothing is unbound: the names'
/// numbers are declared by the cells' selectors. An edited name loses its row's claims.
#[test]
fn the_numbers_of_a_row_s_name_are_declared_by_the_claims_of_its_cells() {
    let (dir, proposed) = suggested_over(PYPERF_TABLE, pyperf_files);
    let root = dir.path();
    let registry = std::fs::read_to_string(root.join("claims/a.toml")).unwrap();
    assert!(registry.contains("# line 6 (Multiplying lists): 1, 2, 1000 in a row's name"), "{registry}");
    assert!(!registry.contains("number = \"1000\""), "{registry}");
    for (at, number) in [("5:4", "1"), ("5:7", "1000"), ("6:6", "2"), ("7:8", "3")] {
        let note = format!("# article/a.md:{at} `{number}` in cell ");
        let k = proposed.find(&note).unwrap_or_else(|| panic!("{note}\n{proposed}"));
        assert!(proposed[k..].lines().nth(1).unwrap().starts_with("# part of the row's name"), "{proposed}");
    }
    let claims = toml::from_str::<toml::Table>(&proposed).unwrap()["claim"].as_array().unwrap().len();
    // 15 numbers of the cells, and the t-test of the cell that says `not significant`.
    assert_eq!(claims, 16, "{proposed}");

    // Before any claim is pasted, the name's digits are unbound, with what would name them.
    let (code, out) = audit(root);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a.md:6:9: unbound number `1000`: no check verifies it and no label declares it; it is part of its row's name"), "{out}");

    let (code, out) = paste_and_audit(root, &proposed);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 unbound numbers"), "{out}");

    // The row renamed: the claims of its cells no longer bind, and the audit says so.
    let edited = PYPERF_TABLE.replace("| [1,2]*1000     |", "| [1,2]*100      |");
    std::fs::write(root.join("article/a.md"), edited).unwrap();
    let (code, out) = audit(root);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no row of column `mult_list_py36` is `[1,2]*1000`"), "{out}");
}

/// A name is declared only where a claim bound by `cell` writes it: not by a claim of another
/// row, not by one bound by its quote, and never where the name holds a time, which is read
/// as a measurement wherever it stands. A header's number is declared by a claim under it.
#[test]
fn a_name_is_declared_only_by_a_cell_claim_of_its_own_row_or_column() {
    let article = "# Sizes

| Case | batch 32 | batch 64 |
|---|---|---|
| n 4096 | 1.20 ms | 2.40 ms |
| n 8192 | 2.50 ms | 5.10 ms |
| 12 ms budget | 0.80 ms | 1.70 ms |
| 64 | 64 | 1.90 ms |
";
    let dir = initialised(article);
    let root = dir.path();
    let claims = r#"
[[claim]]
id = "by-cell"
cell = { row = "n 4096", column = "batch 32" }
verdict = "retain"
finding = "A setting of the example."
labels = ["1.20 ms"]

[[claim]]
id = "by-quote"
quote = "2.50 ms"
verdict = "retain"
finding = "A setting of the example."
labels = ["2.50 ms"]

[[claim]]
id = "budget"
cell = { row = "12 ms budget", column = "batch 32" }
verdict = "retain"
finding = "A setting of the example."
labels = ["0.80 ms"]

[[claim]]
id = "same-as-name"
cell = { row = "64", column = "batch 64" }
verdict = "retain"
finding = "A setting of the example."
labels = ["1.90 ms"]
"#;
    let (code, out) = paste_and_audit(root, claims);
    assert_eq!(code, 1, "{out}");
    let unbound = unbound(&out);
    // `4096` and `32` are named by `by-cell`; `8192` only by a quote, and `12 ms` is a time.
    // The header's `64` and the last row's name are named by `same-as-name`, but the value
    // under `batch 32` that reads as the name is a value, which no claim verifies.
    assert_eq!(unbound, ["`2.40 ms`", "`8192`", "`5.10 ms`", "`12 ms`", "`1.70 ms`", "`64`"], "{out}");
    assert!(out.contains("a.md:8:8: unbound number `64`: no check verifies it and no label declares it\n"), "{out}");
    assert!(out.contains("unbound number `12 ms`: no check verifies it and no label declares it\n"), "{out}");
}

/// An HTML label cell that spans rows (`rowspan="2"`) is part of each spanned row's name: a
/// claim bound by `cell` in its second row writes it (`H 100 › b 16`) and so declares its
/// number, as it declares its own row's `16`; the first row's `8`, which no claim writes, stays
/// unbound, and so does a later row's own label.
#[test]
fn a_label_cell_spanning_rows_is_declared_by_a_claim_of_any_row_it_spans() {
    let article = "# Sizes

<table>
<tr><th>GPU</th><th>batch</th><th>t</th></tr>
<tr><td rowspan=\"2\">H 100</td><td>b 8</td><td>3 ms</td></tr>
<tr><td>b 16</td><td>5 ms</td></tr>
<tr><td>A 40</td><td>b 8</td><td>7 ms</td></tr>
</table>
";
    let dir = initialised(article);
    let root = dir.path();
    let claims = r#"
[[claim]]
id = "second-row"
cell = { row = "H 100 › b 16", column = "t" }
verdict = "retain"
finding = "A setting of the example."
labels = ["5 ms"]
"#;
    let (code, out) = paste_and_audit(root, claims);
    assert_eq!(code, 1, "{out}");
    let unbound = unbound(&out);
    assert_eq!(unbound, ["`8`", "`3 ms`", "`40`", "`8`", "`7 ms`"], "{out}");
}
