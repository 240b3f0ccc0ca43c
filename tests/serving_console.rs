//! The LLM-serving benchmarks' reports pasted into an article's code blocks, through the command
//! line: vLLM's `vllm bench serve`, SGLang's `bench_serving` and TensorRT-LLM's `trtllm-bench`.
//! `init` names every value's cell by a selector that binds it alone, several reports of one
//! block told apart by `table`, and a claim on such a cell binds and is judged in the unit the
//! harness printed.

use crate::support;
use support::claimcheck;

/// vLLM's documentation (Apache-2.0): `vllm bench serve`'s default report.
const VLLM_DOCS: &str = include_str!("fixtures/harness/serving-console/vllm-docs-cli.txt");
/// vllm-ascend's performance guide (Apache-2.0): a sweep of four reports in one block.
const VLLM_ASCEND: &str = include_str!("fixtures/harness/serving-console/vllm-ascend-performance-benchmark.txt");
/// SGLang's `bench_serving` and `bench_offline_throughput`, made in their layout.
const SGLANG: &str = include_str!("fixtures/harness/serving-console/sglang-own.txt");
/// TensorRT-LLM's benchmarking guide (Apache-2.0): an engine's run among its log lines, and a
/// newer report with its latency breakdown and its dataset's percentiles.
const TRT_ENGINE: &str = include_str!("fixtures/harness/serving-console/trtllm-perf-benchmarking-engine.txt");
const TRT_MULTIMODAL: &str = include_str!("fixtures/harness/serving-console/trtllm-perf-benchmarking-multimodal.txt");

fn article() -> String {
    format!(
        "# Serving\n\nvLLM's example:\n\n```\n{VLLM_DOCS}```\n\nThe sweep over request rates:\n\n```\n{VLLM_ASCEND}```\n\nSGLang, online and offline:\n\n```\n{SGLANG}```\n\nTensorRT-LLM's engine:\n\n```\n{TRT_ENGINE}```\n\nAnd a multimodal run:\n\n```\n{TRT_MULTIMODAL}```\n"
    )
}

fn root(registry: Option<&str>) -> tempfile::TempDir {
    support::post_root(&article(), registry)
}

/// Every value is a number `init` writes a skeleton for: vLLM's 16, the sweep's 4 × 16, SGLang's
/// 30 and 9, the engine's 14 and the multimodal run's 46. Each under a selector of its own, the
/// sweep's reports (and vLLM's example, whose labels they share) told apart by `table`.
#[test]
fn init_names_every_serving_value_by_a_selector_of_its_own() {
    let dir = root(None);
    let text = support::init_cells_one_selector_each(dir.path(), 16 + 4 * 16 + 30 + 9 + 14 + 46);
    let selectors: Vec<&str> = text.lines().filter(|l| l.starts_with("# cell = ")).collect();
    for selector in [
        r#"# cell = { row = "Time to First Token", column = "Mean TTFT (ms)", section = "Serving", table = 5 }"#,
        r#"# cell = { row = "Serving Benchmark Result", column = "Output token throughput (tok/s)", section = "Serving", table = 1 }"#,
        r#"# cell = { row = "Inter-Token Latency", column = "Max ITL (ms)", section = "Serving" }"#,
        r#"# cell = { row = "Offline Throughput Benchmark Result", column = "Last generation throughput (tok/s)", section = "Serving" }"#,
        r#"# cell = { row = "WORLD + RUNTIME INFORMATION", column = "KV Memory Percentage", section = "Serving", table = 1 }"#,
        r#"# cell = { row = "PERFORMANCE OVERVIEW", column = "[Latency] P50", section = "Serving" }"#,
        r#"# cell = { row = "DATASET DETAILS", column = "Seq. Length › P99", section = "Serving" }"#,
    ] {
        assert!(selectors.contains(&selector), "{selector} not in:\n{text}");
    }
}

/// Claims on the cells hold against evidence in other units: vLLM's `71.54` ms TTFT against
/// seconds, the sweep's fourth `41.26` s duration against milliseconds, SGLang's `195.18` tok/s
/// in its own unit, TensorRT-LLM's `13525.6862` ms total latency against seconds, its `90.00%`
/// and its `[Latency] P50` against seconds. Moved to the sweep's third report, the same check
/// fails.
#[test]
fn claims_on_serving_cells_bind_and_hold_in_their_units() {
    let claim = |id: &str, cell: &str, field: &str, unit: &str| {
        format!(
            "[[claim]]\nid = \"{id}\"\ncell = {cell}\nverdict = \"retain\"\nfinding = \"As measured.\"\n\n[[claim.check]]\nkind = \"stat\"\nsamples = \"evidence/{id}.jsonl\"\nselect = {{}}\nfield = \"{field}\"\nstatistic = \"mean\"\n{unit}\n",
        )
    };
    let claims = [
        ("V1", r#"{ row = "Time to First Token", column = "Mean TTFT (ms)", table = 1 }"#, "ttft_s", "", "0.07154"),
        ("V2", r#"{ row = "Serving Benchmark Result", column = "Benchmark duration (s)", table = 5 }"#, "duration_ms", "", "41260"),
        ("S1", r#"{ row = "Serving Benchmark Result", column = "Output token throughput (tok/s)", table = 6 }"#, "output_throughput", "unit = \"tok/s\"\n", "195.18"),
        ("T1", r#"{ row = "PERFORMANCE OVERVIEW", column = "Total Latency (ms)", table = 1 }"#, "total_latency_s", "", "13.5256862"),
        ("T2", r#"{ row = "WORLD + RUNTIME INFORMATION", column = "KV Memory Percentage", table = 2 }"#, "kv_cache_pct", "", "90.0"),
        ("T3", r#"{ row = "PERFORMANCE OVERVIEW", column = "[Latency] P50" }"#, "p50_s", "", "3.9363022"),
    ];
    let registry: String = claims.iter().map(|(id, cell, field, unit, _)| claim(id, cell, field, unit)).collect();
    let write_evidence = |dir: &tempfile::TempDir| {
        for (id, _, field, _, value) in claims {
            std::fs::write(dir.path().join(format!("evidence/{id}.jsonl")), format!("{{\"{field}\": {value}}}\n")).unwrap();
        }
    };
    let dir = root(Some(&registry));
    write_evidence(&dir);
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("6 checks: 6 passed"), "{out}");

    let wrong = registry.replace("column = \"Benchmark duration (s)\", table = 5", "column = \"Benchmark duration (s)\", table = 4");
    let dir = root(Some(&wrong));
    write_evidence(&dir);
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("6 checks: 5 passed, 1 failed"), "{out}");
}
