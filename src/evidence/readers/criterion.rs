//! `criterion`: the samples criterion.rs saves for a benchmark,
//! `target/criterion/<id>/new/sample.json` (`{"sampling_mode", "iters", "times"}`), one record
//! per sample. This module owns that layout and the benchmark's name; it never reads
//! criterion's own estimates, and refuses `estimates.json` (summaries only).
//!
//! Each sample is a batch: `iters[i]` iterations took `times[i]` nanoseconds in all, so the
//! time of one iteration is `times[i] / iters[i]`, which is what criterion's own analysis
//! takes as its sample (`avg_times` in its `analysis/mod.rs`). Criterion's book calls these
//! files private implementation details; cargo-criterion's `--message-format=json` is the
//! stable interface to the same numbers (see `cargo_criterion`).
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `id` | the benchmark id, `group/function/value` (`full_id` of `benchmark.json` beside the file, else the directories between `criterion/` and `new/`) |
//! | `group` | the benchmark group (`group_id`), or the id's first part |
//! | `function` | the function in the group (`function_id`), where there is one |
//! | `value` | the input's value (`value_str`), where there is one |
//! | `sampling_mode` | `Linear` or `Flat`, as saved |
//! | `sample` | the sample's index, from 0 |
//! | `iters` | iterations in the sample |
//! | `batch_time_ns` | the sample's total time, ns (`times[i]`) |
//! | `time_ns` | the time of one iteration, ns (`times[i] / iters[i]`) |
//!
//! A record's line is the line of its value in `times` (criterion writes the file on one line).

use serde::Deserialize;

use super::{Sidecar, Source, beside, head, tree::Node};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether a path is one criterion writes: a JSON file of its own name in a baseline directory
/// (`new`, `base`, …) under a directory called `criterion`.
pub(super) fn is_criterion_path(rel_path: &str) -> bool {
    let parts: Vec<&str> = rel_path.split('/').collect();
    let Some((file, dirs)) = parts.split_last() else { return false };
    matches!(*file, "sample.json" | "estimates.json" | "benchmark.json" | "tukey.json") && dirs.len() >= 3 && dirs[..dirs.len() - 2].contains(&"criterion")
}

/// Whether a document is a criterion sample (`iters` and `times`) or estimates file.
pub(super) fn looks_like(doc: &Node) -> bool {
    (doc.get("iters").is_some() && doc.get("times").is_some()) || is_estimates(doc)
}

fn is_estimates(doc: &Node) -> bool {
    ["mean", "median", "slope"].iter().any(|k| doc.get(k).is_some_and(|e| e.get("point_estimate").is_some()))
}

pub(super) fn read(src: &Source, doc: &Node, sidecar: Sidecar<'_>) -> Result<Jsonl, Diagnostic> {
    if is_estimates(doc) {
        return Err(src.summary_only(
            head(doc),
            "criterion's estimates.json",
            "point at `sample.json` beside it, which holds every sample (per-iteration time = times[i] / iters[i]), or at the output of `cargo criterion --message-format=json`",
        ));
    }
    if doc.get("group_id").is_some() || doc.get("full_id").is_some() {
        return Err(src.error(head(doc), "criterion's benchmark.json names a benchmark and holds no samples: point at `sample.json` beside it", "not samples"));
    }
    if doc.get("iters").is_none() && doc.get("times").is_none() {
        return Err(src.error(head(doc), "not criterion's sample.json: it has no `iters` and `times`", "expected criterion's sample.json"));
    }
    let iters_nodes = src.array(doc, "iters", "criterion sample file")?;
    let times_nodes = src.array(doc, "times", "criterion sample file")?;
    if iters_nodes.len() != times_nodes.len() {
        return Err(src.error(head(doc), format!("`iters` has {} values but `times` has {}", iters_nodes.len(), times_nodes.len()), "one per sample expected"));
    }
    let iters = src.numbers(iters_nodes, "iters")?;
    let times = src.numbers(times_nodes, "times")?;
    let mode = match doc.get("sampling_mode") {
        Some(m) => Some(m.as_str().ok_or_else(|| src.wrong(m, "sampling_mode", "a string"))?),
        None => None,
    };
    let name = name(src.path, sidecar);
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for (idx, ((n, t), (n_node, t_node))) in iters.iter().zip(&times).zip(iters_nodes.iter().zip(times_nodes)).enumerate() {
        if *n <= 0.0 {
            return Err(src.error(n_node.span.clone(), format!("sample {idx} has {n} iterations; a sample needs at least one"), "not a count"));
        }
        let (line, span) = src.at(t_node);
        let mut fields = vec![("id", FieldValue::Str(&name.id)), ("group", FieldValue::Str(&name.group))];
        fields.extend(name.function.as_deref().map(|f| ("function", FieldValue::Str(f))));
        fields.extend(name.value.as_deref().map(|v| ("value", FieldValue::Str(v))));
        fields.extend(mode.map(|m| ("sampling_mode", FieldValue::Str(m))));
        fields.extend([("sample", FieldValue::Int(idx as i64)), ("iters", FieldValue::Float(*n)), ("batch_time_ns", FieldValue::Float(*t)), ("time_ns", FieldValue::Float(t / n))]);
        out.push(line, span, fields);
    }
    Ok(out.finish())
}

/// A benchmark's name: from `benchmark.json` beside the sample file where it can be read,
/// since criterion writes the names there unchanged, while the directories hold them made
/// safe for a file system.
struct Name {
    id: String,
    group: String,
    function: Option<String>,
    value: Option<String>,
}

#[derive(Deserialize)]
struct BenchmarkJson {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
    full_id: String,
}

fn name(rel_path: &str, sidecar: Sidecar<'_>) -> Name {
    if let Ok(bytes) = sidecar(&beside(rel_path, "benchmark.json"))
        && let Ok(b) = serde_json::from_slice::<BenchmarkJson>(&bytes)
    {
        return Name { id: b.full_id, group: b.group_id, function: b.function_id, value: b.value_str };
    }
    let parts: Vec<&str> = rel_path.split('/').collect();
    // Drop the file name and its baseline directory (`new`).
    let dirs = &parts[..parts.len().saturating_sub(2)];
    let start = dirs.iter().rposition(|p| *p == "criterion").map_or(dirs.len().saturating_sub(1), |i| i + 1);
    let id_parts = &dirs[start.min(dirs.len())..];
    Name {
        id: id_parts.join("/"),
        group: id_parts.first().unwrap_or(&"").to_string(),
        function: id_parts.get(1).map(|s| s.to_string()),
        value: (id_parts.len() > 2).then(|| id_parts[2..].join("/")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{json_fixture, no_sidecar, read_fixture, read_text, samples};
    use super::super::{Detected, Format, read};
    use super::*;
    use crate::evidence::jsonl::Scalar;

    const SAMPLE_64: &str = "criterion/criterion/sum/iter/64/new/sample.json";

    #[test]
    fn a_sample_file_is_detected_by_its_path() {
        let t = read_fixture(SAMPLE_64, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Criterion, Detected::ByName));
        assert_eq!(t.jsonl.records.len(), 10);
        assert!(is_criterion_path("target/criterion/parse_u64/new/sample.json"));
        assert!(!is_criterion_path("criterion/sample.json"));
        // Outside criterion's layout, the content tells.
        let bytes = std::fs::read(format!("{}/{SAMPLE_64}", super::super::testing::ROOT)).unwrap();
        let t = read("e/s.json", &bytes, None, None, &no_sidecar).unwrap();
        assert_eq!((t.format, t.detected), (Format::Criterion, Detected::ByContent));
    }

    /// Criterion's own estimates from the same samples: its mean and median of
    /// times[i] / iters[i], recomputed. Criterion sums in sample order and interpolates its
    /// median from below, so the two agree to rounding, not always to the last bit.
    #[test]
    fn per_iteration_statistics_equal_criterion_s_estimates() {
        for id in ["sum/iter/64", "sum/iter/1024", "parse_u64"] {
            let t = read_fixture(&format!("criterion/criterion/{id}/new/sample.json"), None).unwrap();
            let own = json_fixture(&format!("criterion/criterion/{id}/new/estimates.json"));
            let s = samples(&t, &format!("id = \"{id}\""), "time_ns");
            let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs();
            let mean = own["mean"]["point_estimate"].as_f64().unwrap();
            let median = own["median"]["point_estimate"].as_f64().unwrap();
            assert!(close(s.mean(), mean), "{id}: {} vs {mean}", s.mean());
            assert!(close(s.median(), median), "{id}: {} vs {median}", s.median());
            let sd = own["std_dev"]["point_estimate"].as_f64().unwrap();
            assert!((s.stdev() - sd).abs() <= 1e-12 * sd, "{id}: {} vs {sd}", s.stdev());
        }
    }

    #[test]
    fn names_come_from_benchmark_json_or_the_path() {
        let t = read_fixture(SAMPLE_64, None).unwrap();
        let j = &t.jsonl;
        let r = &j.records[3];
        assert_eq!(j.text_of(j.get(r, "id")), "sum/iter/64");
        assert_eq!(j.text_of(j.get(r, "group")), "sum");
        assert_eq!(j.text_of(j.get(r, "function")), "iter");
        assert_eq!(j.text_of(j.get(r, "value")), "64");
        assert_eq!(j.get(r, "sample"), Some(Scalar::Int(3)));
        let t = read_fixture("criterion/criterion/parse_u64/new/sample.json", None).unwrap();
        assert_eq!(t.jsonl.get(&t.jsonl.records[0], "function"), None);
        let bytes = std::fs::read(format!("{}/{SAMPLE_64}", super::super::testing::ROOT)).unwrap();
        let t = read("target/criterion/sum/iter/64/new/sample.json", &bytes, None, None, &no_sidecar).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.text_of(j.get(&j.records[0], "id")), "sum/iter/64");
        assert_eq!(j.text_of(j.get(&j.records[0], "value")), "64");
    }

    #[test]
    fn per_iteration_time_is_the_batch_over_its_iterations() {
        let t = read_fixture(SAMPLE_64, None).unwrap();
        let own = json_fixture(SAMPLE_64);
        let j = &t.jsonl;
        for (i, r) in j.records.iter().enumerate() {
            let expected = own["times"][i].as_f64().unwrap() / own["iters"][i].as_f64().unwrap();
            assert_eq!(j.get(r, "time_ns"), Some(Scalar::Float(expected)));
        }
    }

    #[test]
    fn estimates_json_is_refused_as_summary_only() {
        let err = read_fixture("criterion/criterion/sum/iter/64/new/estimates.json", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "criterion/criterion/sum/iter/64/new/estimates.json:1:1");
        assert!(err.message.contains("criterion's estimates.json holds only summaries, not samples"), "{}", err.message);
        assert!(err.message.contains("`sample.json` beside it"), "{}", err.message);
        let err = read_fixture("criterion/criterion/sum/iter/64/new/benchmark.json", None).unwrap_err();
        assert!(err.message.contains("holds no samples"), "{}", err.message);
    }

    #[test]
    fn malformed_samples_are_located() {
        let err = read_text("s.json", "{\"iters\":[1.0,2.0],\"times\":[5.0]}", Some(Format::Criterion)).unwrap_err();
        assert!(err.message.contains("`iters` has 2 values but `times` has 1"), "{}", err.message);
        let err = read_text("s.json", "{\"iters\":[1.0,0.0],\n\"times\":[5.0,6.0]}", Some(Format::Criterion)).unwrap_err();
        assert_eq!(err.position().unwrap(), "s.json:1:15");
        assert!(err.message.contains("sample 1 has 0 iterations"), "{}", err.message);
        let err = read_text("s.json", "{\"iters\":[1.0],\"times\":[5.0", Some(Format::Criterion)).unwrap_err();
        assert_eq!(err.position().unwrap(), "s.json:1:24");
        let err = read_text("s.json", "[1, 2]", Some(Format::Criterion)).unwrap_err();
        assert!(err.message.contains("not criterion's sample.json"), "{}", err.message);
    }
}
