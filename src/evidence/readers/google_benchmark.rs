//! `google-benchmark`: the file `--benchmark_format=json` (or `--benchmark_out=FILE
//! --benchmark_out_format=json`) writes, one record per repetition: each `"run_type":
//! "iteration"` row of `benchmarks`. This module owns that layout and the conversion of its
//! times to nanoseconds; it never reads the aggregate rows (`mean`, `median`, `stddev`, `cv`),
//! which are summaries, and refuses a file that holds nothing else.
//!
//! Each row's `real_time` and `cpu_time` are already means over the row's `iterations`, in
//! `time_unit`: a repetition is the sample, so run with `--benchmark_repetitions=N` to have
//! N of them (Google Benchmark's own `compare.py` warns below 9).
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `name` | the benchmark's name with its arguments (`BM_Sum/64`) |
//! | `run_name` | the name without the repetition's suffixes |
//! | `run_type` | `iteration` (written by Google Benchmark 1.5 and later; a row without it counts as one) |
//! | `family_index`, `per_family_instance_index` | the benchmark's indices, as written |
//! | `repetitions`, `repetition_index` | how many repetitions, and this one's index from 0 |
//! | `threads` | threads the benchmark ran on |
//! | `iterations` | iterations the repetition's times are the mean of |
//! | `real_time_ns` | wall-clock time of one iteration, ns (`real_time` converted from `time_unit`) |
//! | `cpu_time_ns` | CPU time of one iteration, ns (`cpu_time` converted from `time_unit`) |
//! | `time_unit` | the unit the file wrote the times in (`ns`, `us`, `ms`, `s`) |
//! | `label`, `error_occurred`, `error_message` | as written, where present |
//! | counters | every other member as written: `items_per_second`, `bytes_per_second`, user counters |
//!
//! A repetition with `"error_occurred": true` measured nothing (Google Benchmark writes its
//! times as 0): its record has every field but `real_time_ns` and `cpu_time_ns`, so that a
//! statistic over them fails at the row's `"error_occurred": true` rather than counting a zero.
//!
//! Converting to nanoseconds multiplies by 10³, 10⁶ or 10⁹, which can move a value by one
//! unit in its last place; a value already in `ns` is kept to the bit. A record's line is the
//! line of its row's opening `{` (of `"error_occurred": true` for a failed repetition).

use super::{
    Source, head, scalar,
    tree::{Kind, Node},
};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether a document is Google Benchmark's: a `context` object beside a `benchmarks` array.
pub(super) fn looks_like(doc: &Node) -> bool {
    doc.get("context").is_some_and(|c| c.as_object().is_some()) && doc.get("benchmarks").is_some_and(|b| b.as_array().is_some())
}

pub(super) fn read(src: &Source, doc: &Node) -> Result<Jsonl, Diagnostic> {
    let rows = src.array(doc, "benchmarks", "Google Benchmark file")?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    let mut first_aggregate = None;
    let mut n_iteration = 0;
    for row in rows {
        let members = row.as_object().ok_or_else(|| src.error(head(row), format!("a row of `benchmarks` is {}, not an object", row.what()), "expected an object"))?;
        let run_type = match row.get("run_type") {
            None => "iteration",
            Some(t) => t.as_str().ok_or_else(|| src.wrong(t, "run_type", "a string"))?,
        };
        if run_type != "iteration" {
            first_aggregate.get_or_insert(row);
            continue;
        }
        n_iteration += 1;
        src.string(row, "name", "benchmark row")?;
        let unit = src.string(row, "time_unit", "benchmark row")?;
        let factor = match unit {
            "ns" => 1.0,
            "us" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            other => {
                let node = row.get("time_unit").unwrap_or(row);
                return Err(src.error(node.span.clone(), format!("unknown `time_unit` \"{other}\": expected ns, us, ms or s"), "unknown unit"));
            }
        };
        let real = src.finite(src.member(row, "real_time", "benchmark row")?, "real_time")? * factor;
        let cpu = src.finite(src.member(row, "cpu_time", "benchmark row")?, "cpu_time")? * factor;
        // A repetition that failed (`state.SkipWithError`, or a result Google Benchmark
        // rejects) measured nothing: the harness writes `"error_occurred": true`, the
        // reason, one iteration and times of 0. Those zeros are not samples, and taken as
        // ones they pull a mean towards zero or make a minimum of 0 ns. The record keeps
        // every other field, `error_message` among them, but no time, so that a statistic
        // over its times is an error located at the row's `"error_occurred": true`, which
        // says why.
        let error_flag = row.get("error_occurred").filter(|v| matches!(v.kind, Kind::Bool(true)));
        let errored = error_flag.is_some();
        let mut fields: Vec<(&str, FieldValue<'_>)> = Vec::with_capacity(members.len() + 1);
        for m in members {
            match m.key.as_str() {
                "real_time" | "cpu_time" if errored => {}
                "real_time" => fields.push(("real_time_ns", FieldValue::Float(real))),
                "cpu_time" => fields.push(("cpu_time_ns", FieldValue::Float(cpu))),
                "run_type" => {}
                key => fields.push((key, scalar(&m.value, src.text))),
            }
        }
        fields.push(("run_type", FieldValue::Str("iteration")));
        let (line, span) = src.at(error_flag.unwrap_or(row));
        out.push(line, span, fields);
    }
    if n_iteration == 0
        && let Some(row) = first_aggregate
    {
        return Err(src.summary_only(
            head(row),
            "this Google Benchmark file (aggregate rows only)",
            "rerun with `--benchmark_repetitions=N` but without `--benchmark_report_aggregates_only`, so that the file keeps every repetition (`\"run_type\": \"iteration\"` rows)",
        ));
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{json_fixture, read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    const FILE: &str = "google-benchmark/repetitions.json";

    #[test]
    fn repetitions_are_detected_and_read() {
        let t = read_fixture(FILE, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::GoogleBenchmark, Detected::ByContent));
        assert_eq!(t.jsonl.records.len(), 15);
        let j = &t.jsonl;
        let r = &j.records[0];
        assert_eq!(r.line, 39);
        assert_eq!(j.text_of(j.get(r, "name")), "BM_Sum/64");
        assert_eq!(j.get(r, "repetition_index"), Some(Scalar::Int(0)));
        assert!(matches!(j.get(r, "items_per_second"), Some(Scalar::Float(_))));
    }

    /// Google Benchmark's own aggregates over the repetitions, recomputed from the iteration
    /// rows. It computes them in seconds and converts each value to `time_unit` as it writes
    /// it, so even the median of five, one of the rows, agrees only to the last bit or two.
    #[test]
    fn statistics_equal_the_aggregates_google_benchmark_wrote() {
        let t = read_fixture(FILE, None).unwrap();
        let own = json_fixture(FILE);
        let aggregate = |run_name: &str, which: &str, field: &str| -> f64 {
            let row = own["benchmarks"].as_array().unwrap().iter().find(|r| r["run_name"] == run_name && r["aggregate_name"] == which).unwrap();
            let factor = match row["time_unit"].as_str().unwrap() {
                "ns" => 1.0,
                "us" => 1e3,
                other => panic!("{other}"),
            };
            row[field].as_f64().unwrap() * factor
        };
        for run_name in ["BM_Sum/64", "BM_Sum/4096", "BM_Sum/1024"] {
            for (field, ours) in [("real_time", "real_time_ns"), ("cpu_time", "cpu_time_ns")] {
                let s = samples(&t, &format!("run_name = \"{run_name}\""), ours);
                assert_eq!(s.len(), 5);
                let close = |a: f64, b: f64, tol: f64| (a - b).abs() <= tol * b.abs();
                let median = aggregate(run_name, "median", field);
                assert!(close(s.median(), median, 4.0 * f64::EPSILON), "{run_name} {field}: {} vs {median}", s.median());
                let mean = aggregate(run_name, "mean", field);
                assert!(close(s.mean(), mean, 1e-15), "{run_name} {field}: {} vs {mean}", s.mean());
                let sd = aggregate(run_name, "stddev", field);
                assert!(close(s.stdev(), sd, 1e-9), "{run_name} {field}: {} vs {sd}", s.stdev());
            }
        }
    }

    #[test]
    fn microseconds_are_converted_to_nanoseconds() {
        let t = read_fixture(FILE, None).unwrap();
        let own = json_fixture(FILE);
        let row = own["benchmarks"].as_array().unwrap().iter().find(|r| r["name"] == "BM_Sum/1024" && r["run_type"] == "iteration").unwrap();
        assert_eq!(row["time_unit"], "us");
        let j = &t.jsonl;
        let r = j.records.iter().find(|r| j.text_of(j.get(r, "name")) == "BM_Sum/1024").unwrap();
        assert_eq!(j.get(r, "real_time_ns"), Some(Scalar::Float(row["real_time"].as_f64().unwrap() * 1e3)));
        assert_eq!(j.text_of(j.get(r, "time_unit")), "us");
    }

    #[test]
    fn aggregates_only_are_refused_as_summary_only() {
        let err = read_fixture("google-benchmark/aggregates_only.json", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "google-benchmark/aggregates_only.json:39:5");
        assert!(err.message.contains("aggregate rows only) holds only summaries, not samples"), "{}", err.message);
        assert!(err.message.contains("without `--benchmark_report_aggregates_only`"), "{}", err.message);
    }

    /// A failed repetition is in the file with times of 0 (itsy.bitsy's committed results
    /// hold 60 such rows); its zeros must not become samples, and reading its time must fail
    /// at the row, with its other fields kept.
    #[test]
    fn a_failed_repetition_has_no_time() {
        let text = "{\"context\": {},\n\"benchmarks\": [\n{\"name\": \"a\", \"run_name\": \"a\", \"run_type\": \"iteration\", \"iterations\": 8, \"real_time\": 3, \"cpu_time\": 3, \"time_unit\": \"ns\"},\n{\"name\": \"a\", \"run_name\": \"a\", \"run_type\": \"iteration\",\n\"error_occurred\": true, \"error_message\": \"bad benchmark result\", \"iterations\": 1, \"real_time\": 0, \"cpu_time\": 0, \"time_unit\": \"ns\"},\n{\"name\": \"b\", \"run_name\": \"b\", \"run_type\": \"iteration\", \"error_occurred\": false, \"iterations\": 8, \"real_time\": 5, \"cpu_time\": 4, \"time_unit\": \"ns\"}]}";
        let t = read_text("g.json", text, None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 3);
        let failed = &j.records[1];
        assert_eq!(j.get(failed, "real_time_ns"), None);
        assert_eq!(j.get(failed, "cpu_time_ns"), None);
        assert_eq!(j.text_of(j.get(failed, "error_message")), "bad benchmark result");
        assert_eq!(j.get(failed, "iterations"), Some(Scalar::Int(1)));
        // `"error_occurred": false` is a measurement like any other.
        assert_eq!(j.get(&j.records[2], "real_time_ns"), Some(Scalar::Float(5.0)));
        let refs: Vec<_> = j.records.iter().filter(|r| j.text_of(j.get(r, "name")) == "a").collect();
        let err = j.samples(&refs, "real_time_ns").unwrap_err();
        // At the line of `"error_occurred": true`, not of the row's opening brace.
        assert_eq!(err.position().unwrap(), "g.json:5:1");
        assert!(err.message.contains("no `real_time_ns` in this sample: it records `\"error_occurred\": true` (`error_message`: \"bad benchmark result\")"), "{}", err.message);
        assert!(err.message.contains("where = \"error_occurred != true\""), "{}", err.message);
        // What the filter the message proposes keeps: the repetition that measured something.
        let kept: Vec<_> = refs.iter().copied().filter(|r| j.get(r, "error_occurred") != Some(Scalar::Bool(true))).collect();
        assert_eq!(j.samples(&kept, "real_time_ns").unwrap().sorted(), [3.0]);
    }

    #[test]
    fn malformed_rows_are_located() {
        let text = "{\"context\": {},\n\"benchmarks\": [\n{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"min\"}]}";
        let err = read_text("g.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "g.json:3:59");
        assert!(err.message.contains("unknown `time_unit` \"min\""), "{}", err.message);
        let text = "{\"context\": {},\n\"benchmarks\": [\n{\"name\": \"a\", \"real_time\": \"1\", \"cpu_time\": 1, \"time_unit\": \"ns\"}]}";
        let err = read_text("g.json", text, None).unwrap_err();
        assert!(err.message.contains("line 3: `real_time` is a string, not a number"), "{}", err.message);
    }
}
