//! An article whose results are HTML: its table cells are audited as Markdown's are (bound by
//! `cell`, unbound when no claim binds them, proposed by `suggest`), its other HTML text is
//! prose, and HTML that is not well formed is a located warning. (`tests/html.rs` is the review
//! page, which is HTML of another kind.)

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::support;
use support::claimcheck;

/// A root holding `article` as `article/bench.md`, `registry` (after a `[manuscript]` table
/// naming it) as `claims/bench.toml`, and `evidence` as `evidence/lat.jsonl`.
fn root(article: &str, registry: &str, evidence: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let sha: String = Sha256::digest(article.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    write("article/bench.md", article);
    write("claims/bench.toml", &format!("[manuscript]\npath = \"article/bench.md\"\nsha256 = \"{sha}\"\n\n{registry}"));
    write("evidence/lat.jsonl", evidence);
    dir
}

fn run(root: &Path, command: &str) -> (i32, String, String) {
    claimcheck([command.as_ref(), "--root".as_ref(), root.as_os_str()])
}

/// Every one of `lines` stands in `out`.
fn assert_holds(out: &str, lines: &[&str]) {
    for line in lines {
        assert!(out.contains(line), "no {line:?} in\n{out}");
    }
}

/// The defect this reader fixed: an HTML table (and a paragraph of HTML) used to be no prose,
/// so an empty registry audited clean while the whole table went unread.
#[test]
fn an_html_table_no_claim_binds_is_unbound_at_its_digits() {
    let article = "# Results\n\n<table>\n<tr><th>Variant</th><th>Latency (ms)</th></tr>\n<tr><td>base</td><td>12.3 ms</td></tr>\n<tr><td>fast</td><td><b>8.1</b></td></tr>\n</table>\n\n<p>took 5.5 ms</p>\n";
    let dir = root(article, "", "");
    let (code, stdout, stderr) = run(dir.path(), "audit");
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_holds(
        &stdout,
        &[
            "article/bench.md:5:22: unbound number `12.3 ms`",
            "article/bench.md:6:25: unbound number `8.1`",
            "article/bench.md:9:9: unbound number `5.5 ms`",
            "3 unbound numbers; needs attention",
        ],
    );
}

const ARTICLE: &str = r#"# Bench

## Latency

<table>
  <thead>
    <tr><th rowspan="2">GPU</th><th rowspan="2">dtype</th><th colspan="2">Latency (ms)</th></tr>
    <tr><th>p50</th><th>max</th></tr>
  </thead>
  <tbody>
    <tr><td rowspan="2"><b>A100</b></td><td>fp16</td><td>1.50</td><td>1.70</td></tr>
    <tr><td>fp32</td><td><strong>3.10</strong></td><td>3.30</td></tr>
  </tbody>
</table>

<p>On the A100, fp16 took 1.50&nbsp;ms at the median.</p>
"#;

const CLAIM: &str = r#"[[claim]]
id = "L1"
cell = { row = "A100 › fp16", column = "Latency (ms) › p50" }
verdict = "retain"
finding = "The median of five runs."

  [[claim.check]]
  kind = "stat"
  samples = "evidence/lat.jsonl"
  select = { gpu = "A100", dtype = "fp16" }
  field = "latency_ms"
  statistic = "median"
"#;

fn evidence() -> String {
    let mut out = String::new();
    for (dtype, values) in [("fp16", [1.3, 1.4, 1.5, 1.6, 1.7]), ("fp32", [2.9, 3.0, 3.1, 3.2, 3.3])] {
        for v in values {
            out.push_str(&format!("{{\"gpu\": \"A100\", \"dtype\": \"{dtype}\", \"latency_ms\": {v}}}\n"));
        }
    }
    out
}

/// A cell of an HTML table binds by its row (carried down a `rowspan`) and its column (joined
/// from a header of two rows), and `suggest` proposes the other cells by the same names: pasted
/// into the registry, they leave nothing unbound and every check holding.
#[test]
fn html_cells_bind_by_row_and_column_and_suggest_proposes_them() {
    let dir = root(ARTICLE, CLAIM, &evidence());
    let (code, stdout, _) = run(dir.path(), "audit");
    assert_eq!(code, 1);
    assert!(stdout.contains("│ L1 ┆ Latency ┆ retain  ┆ cell A100 › fp16 › Latency (ms) › p50 ┆ 1/1    ┆ ok     │"), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed") && stdout.contains("4 unbound numbers"), "{stdout}");
    assert!(stdout.contains("article/bench.md:12:34: unbound number `3.10`"), "{stdout}");

    let (code, proposed, stderr) = run(dir.path(), "suggest");
    assert_eq!(code, 0, "{stderr}");
    assert_holds(
        &proposed,
        &[
            "cell = { row = \"A100 › fp16\", column = \"Latency (ms) › max\" }",
            "cell = { row = \"A100 › fp32\", column = \"Latency (ms) › p50\" }",
            "cell = { row = \"A100 › fp32\", column = \"Latency (ms) › max\" }",
            "quote = \"On the A100, fp16 took 1.50 ms at the median.\"",
        ],
    );
    let registry = dir.path().join("claims/bench.toml");
    let mut text = std::fs::read_to_string(&registry).unwrap();
    text.push('\n');
    text.push_str(&proposed);
    std::fs::write(&registry, text).unwrap();
    let (code, stdout, stderr) = run(dir.path(), "audit");
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("5 checks: 5 passed, 0 failed, 0 skipped, 0 errors; 0 unbound numbers; all claims hold"), "{stdout}");
}

/// A `cell` the table does not have is an input error that lists the rows there are, as for a
/// Markdown table: the carried row label is what a registry names.
#[test]
fn a_cell_named_by_the_spanning_label_alone_is_refused_with_the_rows_there_are() {
    let claim = CLAIM.replace("row = \"A100 › fp16\"", "row = \"A100\"");
    let dir = root(ARTICLE, &claim, &evidence());
    let (code, stdout, stderr) = run(dir.path(), "audit");
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("no row of column `Latency (ms) › p50` is `A100`; its rows are `A100 › fp16`, `A100 › fp32`"), "{stderr}");
}

/// HTML that is not well formed is read as far as it goes, and what could not be read is a
/// warning at its place, in the text report and the JSON one.
#[test]
fn malformed_html_is_a_located_warning() {
    let article = "# Results\n\n<table><tr><th>a</th><th>b</th></tr>\n<tr><td>x</td><td>5 ms\n\n## Next\n\n</td></tr></table>\n";
    let dir = root(article, "[policy]\nunbound = \"warn\"\n", "");
    let (code, stdout, stderr) = run(dir.path(), "audit");
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_holds(
        &stdout,
        &[
            "article/bench.md:3:1: warning: `<table>` is not closed before the heading at line 6: its cells are read up to there",
            "article/bench.md:8:1: warning: `</td>` closes no cell",
            "article/bench.md:8:6: warning: `</tr>` closes no row",
            "article/bench.md:8:11: warning: `</table>` closes no table",
            "article/bench.md:4:19: unbound number `5 ms`",
        ],
    );
    let (_, json, _) = claimcheck(["audit".as_ref(), "--root".as_ref(), dir.path().as_os_str(), "--format".as_ref(), "json".as_ref()]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let warnings = json["registries"][0]["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 4);
    assert_eq!((warnings[0]["line"].as_u64(), warnings[0]["col"].as_u64()), (Some(3), Some(1)));
}

/// `init` starts a registry whose cell skeletons name HTML cells as a claim must, and quotes a
/// header cell that states a measurement, which no `cell` names. A header's number that is
/// part of a name (`iPhone 11 Pro`) is left to the claims under it.
#[test]
fn init_names_html_cells_and_quotes_header_cells() {
    let article = "<table>\n<tr><th>Model</th><th>iPhone 11 Pro (ms)</th><th>Budget 25 ms</th></tr>\n<tr><td>ResNet18</td><td>20</td><td>yes</td></tr>\n</table>\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("article")).unwrap();
    std::fs::write(dir.path().join("article/zoo.md"), article).unwrap();
    let (code, _, stderr) = claimcheck(["init".as_ref(), "article/zoo.md".as_ref(), "--root".as_ref(), dir.path().as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(dir.path().join("claims/zoo.toml")).unwrap();
    assert!(text.contains("# cell = { row = \"ResNet18\", column = \"iPhone 11 Pro (ms)\" }"), "{text}");
    assert!(text.contains("# quote = \"Budget 25 ms\""), "{text}");
    assert!(text.contains("# line 2 (): 11 in a column's header, which a claim bound by `cell` under it names"), "{text}");
    assert!(!text.contains("# quote = \"iPhone 11 Pro (ms)\""), "{text}");
}

/// The review page marks an HTML table's cells as a Markdown table's: the bound cell inside its
/// `<td>` with its claim and status, the unbound numbers underlined where they stand (inside
/// the `<strong>` of a bold cell and in an HTML paragraph with an `&nbsp;`), and the table's
/// markup otherwise as the article wrote it.
#[test]
fn the_review_page_marks_html_cells_and_unbound_numbers_in_place() {
    use scraper::{Html, Selector};
    let dir = root(ARTICLE, CLAIM, &evidence());
    let out = dir.path().join("review.html");
    let (code, stdout, stderr) = claimcheck(["report".as_ref(), "--html".as_ref(), out.as_os_str(), "--root".as_ref(), dir.path().as_os_str()]);
    assert!(stdout.starts_with("report written: "), "{code} {stdout}{stderr}");
    let page = Html::parse_document(&std::fs::read_to_string(&out).unwrap());
    let sel = |s: &str| Selector::parse(s).unwrap();
    let mark = page.select(&sel("td > .mark[data-claims~=\"L1\"]")).next().expect("the bound cell is marked inside its td");
    assert_eq!(mark.value().attr("data-status"), Some("held"));
    let shown: String = mark.text().collect();
    assert!(shown.contains("1.50"), "{shown}");
    // An underlined number's pop-up comes first, then the number as the article shows it.
    let unbound: Vec<String> = page.select(&sel("article .num.unbound")).map(|e| e.text().collect()).collect();
    for n in ["1.70", "3.10", "3.30", "1.50\u{a0}ms"] {
        assert!(unbound.iter().any(|u| u.ends_with(n)), "{n:?} is not underlined: {unbound:?}");
    }
    assert!(page.select(&sel("td > strong > .num.unbound")).next().is_some(), "the bold cell's number is marked inside its strong");
    assert_eq!(page.select(&sel("table th[rowspan=\"2\"]")).count(), 2, "the table's own markup is kept");
}

/// A header spanning a value's column and its speedup's (`colspan`, as READMEs group them)
/// labels both columns alike. A bare label names two cells, an input error whose help writes
/// each one's place; `Latency #1` names the first column, and `suggest` writes the place
/// where the label repeats, so its proposals bind and leave nothing unbound.
#[test]
fn columns_under_one_spanning_header_are_told_apart_by_their_place() {
    let article = "# Bench\n\n<table>\n<tr><th>dtype</th><th colspan=\"2\">Latency</th></tr>\n<tr><td>fp16</td><td>1.50 ms</td><td>2.07x</td></tr>\n<tr><td>fp32</td><td>3.10 ms</td><td>1.00x</td></tr>\n</table>\n";
    let claim = |column: &str| CLAIM.replace("row = \"A100 › fp16\", column = \"Latency (ms) › p50\"", &format!("row = \"fp16\", column = \"{column}\""));
    let dir = root(article, &claim("Latency"), &evidence());
    let (code, stdout, stderr) = run(dir.path(), "audit");
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_holds(
        &stderr,
        &[
            "claim `L1`: row `fp16` and column `Latency` name 2 cells of article/bench.md",
            "these cells are in one table, whose rows or columns repeat the label: write its place among them, as in row = \"fp16\", column = \"Latency #1\" or row = \"fp16\", column = \"Latency #2\"",
        ],
    );

    let dir = root(article, &claim("Latency #1"), &evidence());
    let (code, stdout, stderr) = run(dir.path(), "audit");
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("cell fp16 › Latency #1 ┆ 1/1    ┆ ok"), "{stdout}");
    let (code, proposed, stderr) = run(dir.path(), "suggest");
    assert_eq!(code, 0, "{stderr}");
    assert!(proposed.contains("cell = { row = \"fp32\", column = \"Latency #1\" }"), "{proposed}");
    let registry = dir.path().join("claims/bench.toml");
    let mut text = std::fs::read_to_string(&registry).unwrap();
    text.push('\n');
    text.push_str(&proposed);
    // The speedups have no evidence here; judged claims declare them.
    for (row, value) in [("fp16", "2.07x"), ("fp32", "1.00x")] {
        text.push_str(&format!("\n[[claim]]\nid = \"S-{row}\"\ncell = {{ row = \"{row}\", column = \"Latency #2\" }}\nverdict = \"judgment\"\nfinding = \"Against fp32.\"\n\n  [[claim.check]]\n  kind = \"arith\"\n  expr = \"{}\"\n", value.trim_end_matches('x')));
    }
    std::fs::write(&registry, text).unwrap();
    let (code, stdout, stderr) = run(dir.path(), "audit");
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("0 unbound numbers"), "{stdout}");
}
