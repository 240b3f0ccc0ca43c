//! `pyperf`: the JSON file that Python's pyperf writes (`python -m pyperf timeit -o FILE`,
//! `Runner` scripts with `-o FILE`, pyperformance's results), one record per value of every
//! run of every benchmark. This module owns that layout; it never reads a statistic pyperf
//! printed, which the checks recompute from the values.
//!
//! What pyperf writes, as read in its source (psf/pyperf at commit ab7fd04d, pyperf 2.10.0:
//! `pyperf/_bench.py`, `BenchmarkSuite._json_load`, `Benchmark._json_load`, `Run._json_load`
//! and their `_as_json`):
//!
//! - The document is a suite: `{"version": "1.0", "metadata": {…}, "benchmarks": [{"metadata":
//!   {…}, "runs": [{"metadata": {…}, "warmups": [[loops, value], …], "values": [v, …]}]}]}`. A
//!   file of one benchmark is a suite of one. pyperf writes it compact, on one line
//!   (`BenchmarkSuite.dump`); only `pyperf convert --indent` writes it indented.
//! - Metadata is inherited: what every benchmark shares is written once at the suite's level,
//!   what every run of a benchmark shares at the benchmark's, and a run holds only its own; a
//!   run's metadata is the three merged, the inner overriding the outer. A benchmark's `name`,
//!   `unit` (`second`, `byte` or `integer`; `second` where none is written), `loops` and
//!   `inner_loops` may stand at any of the three levels.
//! - A value is the time (or size, or count) of one loop iteration: pyperf divides each raw
//!   timing by `loops × inner_loops` before storing it. Warmups are `(loops, value)` pairs.
//! - A run without `values` is a calibration run (of the number of loops or of warmups); it
//!   holds only warmups. pyperf's statistics (`Benchmark.get_values`, and so `mean`, `stdev`,
//!   `median`, `percentile` and `compare_to`) are over the values of every run, so warmups and
//!   calibration runs are left out of them; here they give no record.
//! - The format's versions (`_JSON_MAP_VERSION`): `"1.0"` since pyperf 1.0, `6` from perf
//!   0.9.6 and `5` from perf 0.8.3. Version 5 names a run's values `samples` and a benchmark's
//!   metadata `common_metadata`, and has no suite metadata; 6 and `"1.0"` differ only in how
//!   warmups are stored, which no record holds. Any other version is refused, as pyperf refuses
//!   it.
//!
//! pyperformance writes its results gzip-compressed (`.json.gz`), and so may pyperf: such a
//! file is read as the JSON it holds (the readers' module decompresses any gzip file first,
//! up to a bound), its errors located in the decompressed text.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `name` | the benchmark's name (metadata `name`) |
//! | `run` | the run's number in its benchmark, from 1, counting calibration runs, as `pyperf dump` numbers them (`Run 2: 1 warmup, 3 values, 8 loops`) |
//! | `value_index` | the value's number in its run, from 1, as `pyperf dump` writes `value 1` |
//! | `time_s` | the value, for a benchmark in seconds (unit `second`): the time of one loop iteration |
//! | `value` | the value as written, for a benchmark in bytes or an integer count |
//! | `bytes` | the value, for a benchmark in bytes (unit `byte`, pyperf's `--track-memory` and pyperformance's memory runs) |
//! | `unit` | the benchmark's unit as pyperf names it |
//! | `loops` | outer loop iterations per value (metadata `loops`), where written |
//! | `inner_loops` | inner loop iterations per outer one (metadata `inner_loops`), where written |
//! | `date` | when the run started (metadata `date`), where written |
//! | `warmups` | how many warmups the run took before its values (the length of its `warmups`), as `pyperf stats` counts `Number of warmup per run` |
//! | `total_duration_s` | the benchmark's duration: the sum of every one of its runs' `duration` metadata, calibration runs included, in seconds, as `pyperf stats` prints `Total duration` (`Benchmark.get_total_duration`); where every run records its duration |
//!
//! A record's line is the line of its value in `values` (the file's one line, for pyperf's
//! compact output).

use super::{Source, head, scalar, tree::Node};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether a document is pyperf's: a `version` beside a `benchmarks` array, each benchmark an
/// object holding a `runs` array. No other harness claimcheck reads writes `runs` inside each
/// of its benchmarks.
pub(super) fn looks_like(doc: &Node) -> bool {
    doc.get("version").is_some()
        && doc.get("benchmarks").and_then(Node::as_array).is_some_and(|b| !b.is_empty() && b.iter().all(|e| e.get("runs").and_then(Node::as_array).is_some()))
}

pub(super) fn read(src: &Source, doc: &Node) -> Result<Jsonl, Diagnostic> {
    let version = Version::of(src, doc)?;
    let benchmarks = src.array(doc, "benchmarks", "pyperf file")?;
    let suite = match version {
        Version::Five => &[][..],
        Version::Six | Version::One => metadata(src, doc, "metadata")?,
    };
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for bench in benchmarks {
        let bench_key = if version == Version::Five { "common_metadata" } else { "metadata" };
        let bench_meta = metadata(src, bench, bench_key)?;
        let runs = src.array(bench, "runs", "pyperf benchmark")?;
        let total_duration = total_duration(src, runs, bench_meta, suite)?;
        for (run_idx, run) in runs.iter().enumerate() {
            let run_meta = metadata(src, run, "metadata")?;
            // The run's own metadata first, then its benchmark's, then the suite's: the first
            // found is the one pyperf's `dict(outer, **inner)` keeps.
            let lookup = |key: &str| [run_meta, bench_meta, suite].into_iter().find_map(|m| m.iter().find(|member| member.key == key).map(|member| &member.value));
            let values_key = if version == Version::Five { "samples" } else { "values" };
            let Some(values) = run.get(values_key) else { continue };
            let values = values.as_array().ok_or_else(|| src.wrong(values, values_key, "an array"))?;
            if values.is_empty() {
                continue;
            }
            let name = match lookup("name") {
                Some(n) => n.as_str().ok_or_else(|| src.wrong(n, "name", "a string"))?,
                None => {
                    return Err(src
                        .error(head(run), "this pyperf run has no `name` in its metadata, nor in its benchmark's or the file's", "no benchmark name")
                        .with_note("pyperf refuses a benchmark without a name; write the file again with pyperf"));
                }
            };
            let unit = match lookup("unit") {
                Some(u) => u.as_str().ok_or_else(|| src.wrong(u, "unit", "a string"))?,
                None => "second",
            };
            let value_field = match unit {
                "second" => "time_s",
                "byte" => "bytes",
                "integer" => "value",
                _ => {
                    let node = lookup("unit").unwrap_or(run);
                    return Err(src
                        .error(node.span.clone(), format!("pyperf's unit `{unit}` is none of `second`, `byte` and `integer`"), "unknown unit")
                        .with_note("pyperf formats only these three units (`UNIT_FORMATTERS` in pyperf/_formatter.py)"));
                }
            };
            let numbers = src.numbers(values, values_key)?;
            // pyperf's `Run` refuses a value that is not above zero, so such a file was not
            // written by pyperf, or was edited since.
            if let Some((node, v)) = values.iter().zip(&numbers).find(|(_, v)| **v <= 0.0) {
                return Err(src.error(node.span.clone(), format!("a pyperf value must be above zero, not {v}"), "not above zero"));
            }
            let mut fixed: Vec<(&str, FieldValue<'_>)> = vec![("name", FieldValue::Str(name)), ("unit", FieldValue::Str(unit)), ("run", FieldValue::Int(run_idx as i64 + 1))];
            for key in ["loops", "inner_loops", "date"] {
                if let Some(v) = lookup(key) {
                    fixed.push((key, scalar(v, src.text)));
                }
            }
            // A run without warmups writes none, or `null` (pyperf's `warmups or None`).
            let warmups = run.get("warmups").and_then(Node::as_array).map_or(0, <[Node]>::len);
            fixed.push(("warmups", FieldValue::Int(warmups as i64)));
            if let Some(total) = total_duration {
                fixed.push(("total_duration_s", FieldValue::Float(total)));
            }
            for (k, (node, v)) in values.iter().zip(&numbers).enumerate() {
                let (line, span) = src.at(node);
                let mut fields = fixed.clone();
                fields.push(("value_index", FieldValue::Int(k as i64 + 1)));
                if value_field != "time_s" {
                    fields.push(("value", scalar(node, src.text)));
                }
                if value_field != "value" {
                    fields.push((value_field, FieldValue::Float(*v)));
                }
                out.push(line, span, fields);
            }
        }
    }
    let table = out.finish();
    if table.records.is_empty() {
        let node = doc.get("benchmarks").unwrap_or(doc);
        return Err(src
            .error(head(node), "no run of any benchmark in this pyperf file holds values: every run is a calibration run, which holds only warmups", "no values")
            .with_note("pyperf leaves calibration runs and warmups out of its statistics; run the benchmark with at least one process that measures values"));
    }
    Ok(table)
}

/// The sum of the `duration` metadata of every run of a benchmark, calibration runs included, as
/// pyperf's `Benchmark.get_total_duration` sums them; `None` where a run records none (pyperf
/// then sums that run's raw timings instead, which a file that records durations never needs).
fn total_duration(src: &Source, runs: &[Node], bench_meta: &[super::tree::Member], suite: &[super::tree::Member]) -> Result<Option<f64>, Diagnostic> {
    let mut total = 0.0;
    for run in runs {
        let run_meta = metadata(src, run, "metadata")?;
        let Some(duration) = [run_meta, bench_meta, suite].into_iter().find_map(|m| m.iter().find(|member| member.key == "duration").map(|member| &member.value)) else {
            return Ok(None);
        };
        total += src.finite(duration, "duration")?;
    }
    Ok(Some(total))
}

/// A version of pyperf's JSON format that it still reads (`_JSON_MAP_VERSION`).
#[derive(Clone, Copy, PartialEq)]
enum Version {
    /// `5`, perf 0.8.3: `samples` and `common_metadata`, no suite metadata.
    Five,
    /// `6`, perf 0.9.6: `values`, `metadata` at every level, raw warmups.
    Six,
    /// `"1.0"`, pyperf 1.0 and later: warmups per loop iteration.
    One,
}

impl Version {
    fn of(src: &Source, doc: &Node) -> Result<Version, Diagnostic> {
        let node = src.member(doc, "version", "pyperf file")?;
        match &src.text[node.span.clone()] {
            "\"1.0\"" => Ok(Version::One),
            "6" => Ok(Version::Six),
            "5" => Ok(Version::Five),
            other => Err(src
                .error(node.span.clone(), format!("pyperf's file format version {other} is not one pyperf reads (\"1.0\", 6 or 5)"), "unsupported version")
                .with_note("pyperf refuses any other version too (`_JSON_MAP_VERSION` in pyperf/_bench.py): it reads the formats of perf 0.8.3 and later")),
        }
    }
}

/// The members of the object `key` of `node`, none where it is absent or null.
fn metadata<'n>(src: &Source, node: &'n Node, key: &str) -> Result<&'n [super::tree::Member], Diagnostic> {
    if node.as_object().is_none() {
        return Err(src.error(head(node), format!("a pyperf benchmark or run is {}, not an object", node.what()), "expected an object"));
    }
    match node.get(key) {
        None | Some(Node { kind: super::tree::Kind::Null, .. }) => Ok(&[]),
        Some(m) => m.as_object().ok_or_else(|| src.wrong(m, key, "an object")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    const TELCO: &str = "pyperf/telco.json";

    /// pyperf's `telco.json` (its own test data): 41 runs, the first a calibration run of four
    /// warmups and no values, then 40 runs of one warmup and three values at 8 loops each.
    #[test]
    fn values_are_read_and_calibration_runs_and_warmups_skipped() {
        let t = read_fixture(TELCO, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Pyperf, Detected::ByContent));
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 120);
        let r = &j.records[0];
        assert_eq!(j.text_of(j.get(r, "name")), "telco");
        // The first run is the calibration run: the first value is run 2's, as `pyperf dump`
        // numbers it ("Run 2: 1 warmup, 3 values, 8 loops" / "value 1: 22.8 ms").
        assert_eq!(j.get(r, "run"), Some(Scalar::Int(2)));
        assert_eq!(j.get(r, "value_index"), Some(Scalar::Int(1)));
        assert_eq!(j.get(r, "loops"), Some(Scalar::Int(8)));
        assert_eq!(j.text_of(j.get(r, "unit")), "second");
        let t0 = match j.get(r, "time_s") {
            Some(Scalar::Float(f)) => f,
            other => panic!("{other:?}"),
        };
        assert_eq!(format!("{:.1}", t0 * 1e3), "22.8");
        // The record's line is its value's, in this indented file.
        assert!(j.line_text(r).trim().starts_with("0.02275220"), "{}", j.line_text(r));
        let last = j.records.last().unwrap();
        assert_eq!(j.get(last, "run"), Some(Scalar::Int(41)));
        assert_eq!(j.get(last, "value_index"), Some(Scalar::Int(3)));
        assert!(j.get(r, "value").is_none() && j.get(r, "bytes").is_none());
    }

    /// What `pyperf stats telco.json` prints (pyperf's tests, `test_stats`): Minimum 22.1 ms,
    /// Median +- MAD 22.5 ms +- 0.1 ms, Mean +- std dev 22.5 ms +- 0.2 ms, Maximum 22.9 ms,
    /// 5th percentile 22.3 ms, 25th 22.4 ms, 75th 22.7 ms, 95th 22.9 ms. pyperf's percentile
    /// interpolates linearly between the sorted values at (n − 1)·p, as claimcheck's does;
    /// its std dev is `statistics.stdev`, over n − 1.
    #[test]
    fn statistics_round_to_what_pyperf_stats_prints() {
        let t = read_fixture(TELCO, None).unwrap();
        let s = samples(&t, "name = \"telco\"", "time_s");
        let ms = |v: f64| format!("{:.1}", v * 1e3);
        assert_eq!(s.len(), 120);
        assert_eq!(ms(s.min()), "22.1");
        assert_eq!(ms(s.median()), "22.5");
        assert_eq!(ms(s.mean()), "22.5");
        assert_eq!(ms(s.stdev()), "0.2");
        assert_eq!(ms(s.max()), "22.9");
        let p = |q: f64| ms(s.quantile(q));
        assert_eq!([p(0.05), p(0.25), p(0.75), p(0.95)], ["22.3", "22.4", "22.7", "22.9"]);
    }

    /// What `pyperf stats` prints of pyperf's `doc/outliers.json.gz` (perf 0.9.7): `Total
    /// duration: 11.6 sec`, the sum of its 21 runs' durations (11.645 s; its 20 runs of values
    /// alone took 11.365 s, the calibration run the rest), and `Number of warmup per run: 1`
    /// (the calibration run's 16 warmups give no record).
    #[test]
    fn the_total_duration_counts_every_run_and_warmups_are_counted_per_run() {
        let t = read_fixture("pyperf/outliers.json.gz", None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 60);
        for r in &j.records {
            assert_eq!(j.get(r, "warmups"), Some(Scalar::Int(1)));
            match j.get(r, "total_duration_s") {
                Some(Scalar::Float(total)) => assert!((total - 11.645032168977195).abs() < 1e-12, "{total}"),
                other => panic!("{other:?}"),
            }
        }
        // A run without a duration leaves the total unknown, and a run without warmups has none.
        let text = r#"{"version": "1.0", "metadata": {"name": "b"}, "benchmarks": [{"runs": [
  {"metadata": {"duration": 0.25}, "warmups": [[1, 0.5], [2, 0.25]]},
  {"metadata": {"duration": 0.5}, "warmups": null, "values": [1e-3]}]}]}"#;
        let t = read_text("p.json", text, None).unwrap();
        let r = &t.jsonl.records[0];
        assert_eq!((t.jsonl.get(r, "warmups"), t.jsonl.get(r, "total_duration_s")), (Some(Scalar::Int(0)), Some(Scalar::Float(0.75))));
        let t = read_text("p.json", &text.replace("{\"duration\": 0.25}", "{}"), None).unwrap();
        assert!(t.jsonl.get(&t.jsonl.records[0], "total_duration_s").is_none());
        let err = read_text("p.json", &text.replace("0.25}", "\"long\"}"), None).unwrap_err();
        assert!(err.message.contains("`duration` is a string, not a number"), "{}", err.message);
    }

    /// Metadata stands at the suite's level in pyperformance's `mem1.json` (`name`, `unit =
    /// "byte"`), and a benchmark's overrides the suite's, and a run's the benchmark's.
    #[test]
    fn metadata_is_inherited_from_the_suite_and_the_benchmark() {
        let t = read_fixture("pyperf/pyperformance-mem1.json", None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 1);
        let r = &j.records[0];
        assert_eq!(j.text_of(j.get(r, "name")), "call_simple");
        assert_eq!(j.text_of(j.get(r, "unit")), "byte");
        assert_eq!(j.get(r, "bytes"), Some(Scalar::Float(8085504.0)));
        assert_eq!(j.get(r, "value"), Some(Scalar::Float(8085504.0)));
        assert!(j.get(r, "time_s").is_none());
        let text = r#"{"version": "1.0", "metadata": {"name": "suite", "loops": 4, "inner_loops": 10},
 "benchmarks": [{"metadata": {"name": "b", "loops": 8}, "runs": [
  {"metadata": {"loops": 16, "date": "2024-01-02 03:04:05"}, "values": [1e-3]},
  {"values": [2e-3]}]}]}"#;
        let t = read_text("p.json", text, None).unwrap();
        let j = &t.jsonl;
        let (a, b) = (&j.records[0], &j.records[1]);
        assert_eq!(j.text_of(j.get(a, "name")), "b");
        assert_eq!((j.get(a, "loops"), j.get(b, "loops")), (Some(Scalar::Int(16)), Some(Scalar::Int(8))));
        assert_eq!(j.get(b, "inner_loops"), Some(Scalar::Int(10)));
        assert_eq!(j.text_of(j.get(a, "date")), "2024-01-02 03:04:05");
        assert!(j.get(b, "date").is_none());
        assert_eq!((a.line, b.line), (3, 4));
    }

    #[test]
    fn version_5_reads_samples_and_common_metadata() {
        let text = r#"{"version": 5, "benchmarks": [{"common_metadata": {"name": "old", "unit": "integer"}, "runs": [{"samples": [3, 4]}]}]}"#;
        let t = read_text("p.json", text, Some(Format::Pyperf)).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 2);
        assert_eq!(j.get(&j.records[1], "value"), Some(Scalar::Int(4)));
        assert_eq!(j.text_of(j.get(&j.records[1], "name")), "old");
    }

    #[test]
    fn an_unknown_version_is_refused_where_it_is_written() {
        let text = "{\"version\": \"2.0\",\n \"benchmarks\": [{\"runs\": []}]}";
        let err = read_text("p.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:1:13");
        assert!(err.message.contains("version \"2.0\" is not one pyperf reads"), "{}", err.message);
    }

    #[test]
    fn a_value_that_is_no_positive_number_is_located() {
        let text = "{\"version\": \"1.0\", \"metadata\": {\"name\": \"b\"}, \"benchmarks\": [{\"runs\": [\n{\"values\": [0.5,\n \"x\"]}]}]}";
        let err = read_text("p.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:3:2");
        assert!(err.message.contains("`values` is a string, not a number"), "{}", err.message);
        let err = read_text("p.json", &text.replace("\"x\"", "-1.5"), None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:3:2");
        assert!(err.message.contains("above zero, not -1.5"), "{}", err.message);
    }

    #[test]
    fn a_benchmark_without_a_name_or_with_an_unknown_unit_is_refused() {
        let text = "{\"version\": \"1.0\", \"benchmarks\": [{\"runs\": [\n {\"values\": [0.5]}]}]}";
        let err = read_text("p.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:2:2");
        assert!(err.message.contains("no `name`"), "{}", err.message);
        let text = "{\"version\": \"1.0\", \"metadata\": {\"name\": \"b\",\n \"unit\": \"meter\"}, \"benchmarks\": [{\"runs\": [{\"values\": [0.5]}]}]}";
        let err = read_text("p.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:2:10");
        assert!(err.message.contains("unit `meter`"), "{}", err.message);
    }

    #[test]
    fn a_file_of_calibration_runs_only_is_refused() {
        let text = "{\"version\": \"1.0\", \"metadata\": {\"name\": \"b\"},\n \"benchmarks\": [{\"runs\": [{\"metadata\": {\"calibrate_loops\": 8}, \"warmups\": [[1, 0.5]]}]}]}";
        let err = read_text("p.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "p.json:2:16");
        assert!(err.message.contains("every run is a calibration run"), "{}", err.message);
    }

    /// pyperf's compact output is one line: cut short, it is refused as JSON cut short, not read
    /// as JSON Lines or as a shorter file.
    #[test]
    fn a_truncated_file_is_refused() {
        let text = std::fs::read_to_string(format!("{}/pyperf/mult_list_py36.json", super::super::testing::ROOT)).unwrap();
        for cut in [text.len() / 2, text.len() - 3] {
            let err = read_text("mult_list_py36.json", &text[..cut], None).unwrap_err();
            assert!(err.position().unwrap().starts_with("mult_list_py36.json:1:"), "{}", err.message);
            assert!(err.message.contains("not valid JSON"), "{}", err.message);
        }
    }

    /// JSON that is not pyperf's is not taken for it, even with `version` and `benchmarks`.
    #[test]
    fn other_json_with_benchmarks_is_not_pyperf() {
        let gbench = "{\"context\": {}, \"version\": 1, \"benchmarks\": [{\"name\": \"a\", \"real_time\": 1}]}\n{}";
        assert!(read_text("a.json", gbench, None).map_or(true, |t| t.format != Format::Pyperf));
        let t = read_text("a.json", "{\"version\": \"1.0\", \"benchmarks\": [{\"name\": \"a\"}]}", None).unwrap();
        assert_eq!(t.format, Format::Jsonl);
    }
}
