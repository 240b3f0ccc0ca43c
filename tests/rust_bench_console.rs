//! The two Rust benchmark harnesses' console output pasted into an article's code blocks,
//! through the command line: libtest's `#[bench]` lines and divan's tree table. `init` names
//! every value's cell by a selector that binds it alone, and a claim on such a cell binds and
//! is judged in the unit the harness printed.

use crate::support;
use support::claimcheck;

/// memchr 1.0's README (MIT or Unlicense): four lines with a throughput each.
const MEMCHR: &str = include_str!("fixtures/harness/libtest-console/memchr-readme.txt");
/// robinson's README (MIT or Apache-2.0): libtest since 2024, two decimals.
const ROBINSON: &str = include_str!("fixtures/harness/libtest-console/robinson-readme.txt");
/// divan's README (MIT or Apache-2.0): one function over six arguments.
const DIVAN: &str = include_str!("fixtures/harness/divan-console/divan-readme.txt");
/// measured's README (MIT or Apache-2.0): the allocation profiler's lines, the timer's precision.
const MEMORY: &str = include_str!("fixtures/harness/divan-console/measured-readme-memory.txt");

fn article() -> String {
    format!(
        "# Results\n\nmemchr, under libtest:\n\n```\n{MEMCHR}```\n\nrobinson, under a newer libtest:\n\n```\n{ROBINSON}```\n\nThe Fibonacci example, under divan:\n\n```\n{DIVAN}```\n\nThe metrics crates' memory:\n\n```\n{MEMORY}```\n"
    )
}

fn root(registry: Option<&str>) -> tempfile::TempDir {
    support::post_root(&article(), registry)
}

/// Every value is a number `init` writes a skeleton for: memchr's 4 lines of 3 (time, spread,
/// throughput), robinson's 15 of 2; divan's 6 leaves of 6 values and the arguments that name
/// them (`16` is a number too, as a cell of digits is), measured's timer, 4 leaves of 6 values
/// and their 72 allocation counts and sizes. Each under a selector of its own.
#[test]
fn init_names_every_rust_benchmark_value_by_a_selector_of_its_own() {
    let dir = root(None);
    let text = support::init_cells_one_selector_each(dir.path(), 4 * 3 + 15 * 2 + 6 * 6 + 6 + 1 + 4 * 6 + 72);
    let selectors: Vec<&str> = text.lines().filter(|l| l.starts_with("# cell = ")).collect();
    for selector in [
        r#"# cell = { row = "libc_memchr", column = "ns/iter", section = "Results" }"#,
        r#"# cell = { row = "iterator", column = "MB/s", section = "Results" }"#,
        r#"# cell = { row = "tiny::robinson", column = "+/-", section = "Results" }"#,
        r#"# cell = { row = "example::fibonacci::16", column = "median", section = "Results" }"#,
        r#"# cell = { row = "memory::prometheus", column = "grow count › mean", section = "Results" }"#,
        r#"# cell = { row = "Run", column = "Timer precision", section = "Results" }"#,
    ] {
        assert!(selectors.contains(&selector), "{selector} not in:\n{text}");
    }
}

/// Claims on the cells hold against evidence in other units: libtest's `202` ns/iter and its
/// `1893` MB/s, robinson's `1,970.23` against microseconds, divan's median `2.916` µs
/// against nanoseconds, an allocation's `142.6 MB` against bytes, and the timer's `2.25` µs.
/// Moved to another argument's row, the same check fails.
#[test]
fn claims_on_rust_benchmark_cells_bind_and_hold_in_their_units() {
    let claim = |id: &str, cell: &str, field: &str| {
        format!(
            "[[claim]]\nid = \"{id}\"\ncell = {cell}\nverdict = \"retain\"\nfinding = \"As measured.\"\n\n[[claim.check]]\nkind = \"stat\"\nsamples = \"evidence/{id}.jsonl\"\nselect = {{}}\nfield = \"{field}\"\nstatistic = \"mean\"\n\n",
        )
    };
    let claims = [
        ("L1", r#"{ row = "libc_memchr", column = "ns/iter" }"#, "time_ns", "202"),
        ("L2", r#"{ row = "iterator", column = "MB/s" }"#, "throughput_mb_per_s", "1893"),
        ("L3", r#"{ row = "tiny::robinson", column = "ns/iter" }"#, "time_us", "1.97023"),
        ("D1", r#"{ row = "example::fibonacci::16", column = "median" }"#, "time_ns", "2916"),
        ("D2", r#"{ row = "memory::prometheus", column = "alloc bytes › slowest" }"#, "alloc_bytes", "142600000"),
        ("D3", r#"{ row = "Run", column = "Timer precision" }"#, "precision_ns", "2250"),
    ];
    let registry: String = claims.iter().map(|(id, cell, field, _)| claim(id, cell, field)).collect();
    let write_evidence = |dir: &tempfile::TempDir| {
        for (id, _, field, value) in claims {
            std::fs::write(dir.path().join(format!("evidence/{id}.jsonl")), format!("{{\"{field}\": {value}}}\n")).unwrap();
        }
    };
    let dir = root(Some(&registry));
    write_evidence(&dir);
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("6 checks: 6 passed"), "{out}");

    let wrong = registry.replace("example::fibonacci::16", "example::fibonacci::8");
    let dir = root(Some(&wrong));
    write_evidence(&dir);
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("6 checks: 5 passed, 1 failed"), "{out}");
}
