//! `pytest-benchmark`: the file `pytest --benchmark-json=FILE` writes, one record per round
//! of each benchmark (`benchmarks[].stats.data`). This module owns that layout; it never
//! reads the statistics pytest-benchmark computed (`stats.mean`, `stats.median`, …).
//!
//! pytest-benchmark times `iterations` calls per round and stores each round's time divided
//! by `iterations` (its `BenchmarkFixture` runner), so `data[i]` is already the time of one
//! call, in seconds.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `name` | the test's name with its parameters (`test_sorted[100]`) |
//! | `fullname` | the test's node id (`test_sort.py::test_sorted[100]`) |
//! | `group` | the benchmark group, null where none was set |
//! | `param` | the parameter id as written, where the test is parametrized |
//! | `param_<k>` | each parameter's value, as written |
//! | `extra_<k>` | each scalar of `extra_info`, as written |
//! | `round` | the round's index in `data`, from 0 |
//! | `iterations` | calls per round |
//! | `time_s` | the time of one call in that round, seconds (`stats.data[round]`) |
//!
//! A record's line is the line of its value in `data`.

use super::{Source, head, scalar, tree::Node};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether a document is pytest-benchmark's: `benchmarks` whose rows hold `stats`, beside
/// `machine_info`.
pub(super) fn looks_like(doc: &Node) -> bool {
    doc.get("machine_info").is_some() && doc.get("benchmarks").and_then(Node::as_array).is_some_and(|b| b.iter().all(|r| r.get("stats").is_some()))
}

pub(super) fn read(src: &Source, doc: &Node) -> Result<Jsonl, Diagnostic> {
    let benchmarks = src.array(doc, "benchmarks", "pytest-benchmark file")?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for bench in benchmarks {
        let stats = src.member(bench, "stats", "benchmark")?;
        let Some(data) = stats.get("data") else {
            return Err(src.summary_only(
                head(stats),
                "this pytest-benchmark result (`stats` without `data`)",
                "export with `pytest --benchmark-json=FILE`, which writes every round in `stats.data` (a file saved by `--benchmark-save` needs `--benchmark-save-data`)",
            ));
        };
        let data = data.as_array().ok_or_else(|| src.wrong(data, "data", "an array"))?;
        let times = src.numbers(data, "data")?;
        let mut fixed: Vec<(String, FieldValue<'_>)> = Vec::new();
        for key in ["name", "fullname", "group", "param"] {
            if let Some(v) = bench.get(key) {
                fixed.push((key.to_string(), scalar(v, src.text)));
            }
        }
        for (prefix, key) in [("param_", "params"), ("extra_", "extra_info")] {
            if let Some(members) = bench.get(key).and_then(Node::as_object) {
                fixed.extend(members.iter().map(|m| (format!("{prefix}{}", m.key), scalar(&m.value, src.text))));
            }
        }
        if let Some(n) = stats.get("iterations") {
            fixed.push(("iterations".to_string(), scalar(n, src.text)));
        }
        for (round, (node, t)) in data.iter().zip(&times).enumerate() {
            let (line, span) = src.at(node);
            let fields = fixed.iter().map(|(k, v)| (k.as_str(), *v)).chain([("round", FieldValue::Int(round as i64)), ("time_s", FieldValue::Float(*t))]);
            out.push(line, span, fields);
        }
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{json_fixture, read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    const FILE: &str = "pytest-benchmark/benchmark.json";

    #[test]
    fn rounds_are_detected_and_read() {
        let t = read_fixture(FILE, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::PytestBenchmark, Detected::ByContent));
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 30);
        let r = &j.records[0];
        assert_eq!(j.text_of(j.get(r, "fullname")), "test_sort.py::test_sorted[100]");
        assert_eq!(j.get(r, "param_n"), Some(Scalar::Int(100)));
        assert_eq!(j.get(r, "iterations"), Some(Scalar::Int(100)));
        assert!(j.line_text(r).trim().starts_with(&j.text_of(j.get(r, "time_s"))[..6]), "{}", j.line_text(r));
        let last = j.records.last().unwrap();
        assert_eq!(j.text_of(j.get(last, "group")), "sum");
    }

    /// pytest-benchmark's own statistics (Python's `statistics` module over `data`): the
    /// median of ten rounds is the midpoint of the middle two, which numpy's interpolation
    /// gives to rounding; min and max exactly.
    #[test]
    fn statistics_equal_pytest_benchmark_s_own() {
        let t = read_fixture(FILE, None).unwrap();
        let own = json_fixture(FILE);
        for bench in own["benchmarks"].as_array().unwrap() {
            let name = bench["name"].as_str().unwrap();
            let stats = &bench["stats"];
            let s = samples(&t, &format!("name = \"{name}\""), "time_s");
            assert_eq!(s.len() as u64, stats["rounds"].as_u64().unwrap());
            assert_eq!(s.min(), stats["min"].as_f64().unwrap());
            assert_eq!(s.max(), stats["max"].as_f64().unwrap());
            let close = |a: f64, b: f64| (a - b).abs() <= 2.0 * f64::EPSILON * b.abs();
            let median = stats["median"].as_f64().unwrap();
            assert!(close(s.median(), median), "{name}: {} vs {median}", s.median());
            let mean = stats["mean"].as_f64().unwrap();
            assert!(close(s.mean(), mean), "{name}: {} vs {mean}", s.mean());
            let sd = stats["stddev"].as_f64().unwrap();
            assert!((s.stdev() - sd).abs() <= 1e-12 * sd, "{name}: {} vs {sd}", s.stdev());
        }
    }

    #[test]
    fn stats_without_data_are_refused_as_summary_only() {
        let text = "{\"machine_info\": {}, \"benchmarks\": [\n {\"name\": \"t\", \"stats\": {\"min\": 1, \"median\": 2}}]}";
        let err = read_text("p.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:2:25");
        assert!(err.message.contains("holds only summaries, not samples"), "{}", err.message);
        assert!(err.message.contains("--benchmark-json"), "{}", err.message);
    }

    #[test]
    fn malformed_data_is_located() {
        let text = "{\"machine_info\": {}, \"benchmarks\": [\n {\"name\": \"t\", \"stats\": {\"data\": [0.1,\n null]}}]}";
        let err = read_text("p.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:3:2");
        assert!(err.message.contains("`data` is null, not a number"), "{}", err.message);
    }
}
