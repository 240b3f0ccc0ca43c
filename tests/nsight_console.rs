//! Nsight Compute's and Nsight Systems' console tables pasted into an article's code blocks,
//! through the command line: `init` names every value's cell by a selector that binds it alone,
//! and a claim on such a cell binds and is judged in the unit its row or header states.

use crate::support;
use support::claimcheck;

/// Real ncu 2025.3.1 output, 16 launches of two sections each (tests/fixtures/harness/ncu).
const NCU: &str = include_str!("fixtures/harness/ncu/saxpy-console.txt");
/// nvcc4jupyter's `nsys profile --stats=true` example (MIT; fixtures/harness/nsight-console).
const NSYS: &str = include_str!("fixtures/harness/nsight-console/nvcc4jupyter-usage-nsys.txt");

fn article() -> String {
    format!("# Results\n\nThe kernel, under Nsight Compute:\n\n```\n{NCU}```\n\nThe API calls, under Nsight Systems:\n\n```\n{NSYS}```\n")
}

fn root(registry: Option<&str>) -> tempfile::TempDir {
    support::post_root(&article(), registry)
}

/// Every value of the 32 sections is a number `init` writes a skeleton for (21 a launch: ten in
/// the throughput section, eleven in the memory section, whose `no data` is none), and so is
/// every value of the nsys report (4 rows of 8); each under its own selector, the launches'
/// sections told apart by `table = N`, so that no two skeletons name the same cell.
#[test]
fn init_names_every_profiler_value_by_a_selector_of_its_own() {
    let dir = root(None);
    let text = support::init_cells_one_selector_each(dir.path(), 16 * 21 + 32);
    assert!(text.contains(r#"# cell = { row = "Duration", column = "Metric Value", section = "Results", table = 1 }"#), "{text}");
    assert!(text.contains(r#"# cell = { row = "Duration", column = "Metric Value", section = "Results", table = 16 }"#), "{text}");
    // `Memory Throughput` is a row of both sections: 32 tables hold it.
    assert!(text.contains(r#"# cell = { row = "Memory Throughput", column = "Metric Value", section = "Results", table = 32 }"#), "{text}");
    assert!(text.contains(r#"# cell = { row = "cudaMalloc", column = "Total Time (ns)", section = "Results" }"#), "{text}");
}

/// Claims on the cells: the fifth launch's `Duration`, `5.92` under `us`, holds against the
/// same time in nanoseconds; the first launch's memory throughput, `173.39` under `Gbyte/s`,
/// against bytes a second; nsys's `cudaMalloc` total in its header's nanoseconds. The first
/// launch's Duration is another cell, and the same check on it fails.
#[test]
fn claims_on_profiler_cells_bind_and_hold_in_their_units() {
    let claim = |id: &str, cell: &str, field: &str| {
        format!(
            "[[claim]]\nid = \"{id}\"\ncell = {cell}\nverdict = \"retain\"\nfinding = \"As measured.\"\n\n[[claim.check]]\nkind = \"stat\"\nsamples = \"evidence/{id}.jsonl\"\nselect = {{}}\nfield = \"{field}\"\nstatistic = \"mean\"\n\n",
        )
    };
    let claims = [
        ("D5", r#"{ row = "Duration", column = "Metric Value", section = "Results", table = 5 }"#, "duration_ns", "5920"),
        ("M1", r#"{ row = "Memory Throughput", column = "Metric Value", section = "Results", table = 2 }"#, "memory_throughput_bytes_per_s", "173390000000"),
        ("A1", r#"{ row = "cudaMalloc", column = "Total Time (ns)" }"#, "total_ns", "200844276"),
    ];
    let registry: String = claims.iter().map(|(id, cell, field, _)| claim(id, cell, field)).collect();
    let dir = root(Some(&registry));
    for (id, _, field, value) in claims {
        std::fs::write(dir.path().join(format!("evidence/{id}.jsonl")), format!("{{\"{field}\": {value}}}\n")).unwrap();
    }
    let at = dir.path().to_str().unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", at]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("3 checks: 3 passed"), "{out}");

    let wrong = registry.replace("table = 5 }", "table = 1 }");
    let dir = root(Some(&wrong));
    for (id, _, field, value) in claims {
        std::fs::write(dir.path().join(format!("evidence/{id}.jsonl")), format!("{{\"{field}\": {value}}}\n")).unwrap();
    }
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("3 checks: 2 passed, 1 failed"), "{out}");
}
