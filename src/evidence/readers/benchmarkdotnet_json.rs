//! `benchmarkdotnet`, JSON layout: the files BenchmarkDotNet's `JsonExporter` writes, read into
//! the same records as its measurements file (`super::benchmarkdotnet`, which owns the fields,
//! their meaning and the record builder both layouts share). This module owns the JSON layout:
//! which of its values are the results BenchmarkDotNet's table is computed from, and where the
//! file names the case, its job and its memory figures. It never reads BenchmarkDotNet's own
//! summaries (`Statistics`' `Mean`, `StandardDeviation`, `ConfidenceInterval`, `Metrics`), which
//! the checks recompute.
//!
//! What BenchmarkDotNet writes, from its own source (dotnet/BenchmarkDotNet at 5995bf68f and at
//! the tags named, under `src/BenchmarkDotNet/`):
//!
//! - `Exporters/Json/JsonExporter.cs` names the exports: `JsonExporter.Full` writes
//!   `<Title>-report-full.json` (indented), `FullCompressed` `-report-full-compressed.json` (one
//!   line; it is `JsonExporter.Default`, which `--exporters json` asks for, and the file the
//!   GitHub Action `benchmark-action/github-action-benchmark` reads), `Brief` and
//!   `BriefCompressed` `-report-brief.json` and `-report-brief-compressed.json`, without the
//!   measurements (`excludeMeasurements`); `[JsonExporter]` and `JsonExporter.Custom()` write
//!   `-report.json`, with the measurements unless told otherwise.
//! - `Exporters/Json/JsonExporterBase.cs` writes `{"Title", "HostEnvironmentInfo", "Benchmarks"}`,
//!   one benchmark per case: `DisplayInfo` (`BenchmarkCase.DisplayInfo`), `Namespace`, `Type`
//!   (`FullNameProvider.GetTypeName`: the type's name, a generic one's with its arguments,
//!   `Foo<Int32>`, where the measurements file writes ``Foo`1``), `Method` (the method's own
//!   name), `MethodTitle` (`WorkloadMethodDisplayInfo`: the name BenchmarkDotNet's table and the
//!   measurements file give the method, its `Description` where it has one), `Parameters` (the
//!   measurements file's `Params`, `N=10&Size=5`), `FullName`, `Statistics`
//!   (`BenchmarkReport.ResultStatistics`, null where the benchmark gave no result), with the
//!   memory diagnoser `Memory` (`Gen0Collections`, `Gen1Collections`, `Gen2Collections`,
//!   `TotalOperations`, `BytesAllocatedPerOperation`: the whole `GcStats` up to 0.13.1, whose
//!   0.13.1 has no `BytesAllocatedPerOperation`; those five from 0.13.2, the last null where
//!   unknown), and, unless brief, `Measurements` (`IterationMode`, `IterationStage` from 0.11.0,
//!   `LaunchIndex`, `IterationIndex`, `Operations`, `Nanoseconds`: every measurement of every
//!   stage) and `Metrics`. Numbers are written to the last bit (`ToString("r")` in every release,
//!   `System.Text.Json` on the main branch since commit a2871df3d), so `Nanoseconds` is exact
//!   where the measurements file rounds it to 0.01 ns. A value that is not a number is written
//!   `""` from 0.13.0 (commit 8149c3689, #1581), and as a bare `NaN`, which is not JSON, before.
//! - `Reports/BenchmarkReport.cs` computes `ResultStatistics` from the `Workload`/`Result`
//!   measurements alone, each `Nanoseconds / Operations` in their order
//!   (`GetResultRuns().Select(r => r.GetAverageTime().Nanoseconds)`), and
//!   `Mathematics/Statistics.cs` keeps those values as `OriginalValues`, dropping none: the
//!   results are the actual iterations less the overhead with the job's outliers already
//!   removed (`Engines/RunResults.cs`), and the outliers `Statistics` finds among them again
//!   (`LowerOutliers`, `UpperOutliers`) stay in `OriginalValues`, `Mean` and the rest. So
//!   `OriginalValues` are exactly the per-operation times of the result measurements: the
//!   github-action-benchmark fixtures show it to the bit for all 32 results of three cases.
//! - `Diagnosers/MemoryDiagnoser.cs` prints `Gen0` as `Gen0Collections / TotalOperations × 1000`
//!   in every release that writes `Memory`, and `Allocated` as `BytesAllocatedPerOperation`.
//! - `Running/BenchmarkCase.cs` writes `DisplayInfo` as `Type.MethodTitle: job [Name=value, …]`,
//!   the job being `Jobs/Job.cs`'s `DisplayInfo`: its id, then its characteristics in
//!   parentheses where it has any, `Job-ISNCHE(IterationCount=5, RunStrategy=ColdStart)`.
//!
//! Each record holds the fields of `super::benchmarkdotnet`, taken so:
//!
//! | field | from |
//! |---|---|
//! | `benchmark` | `Type.MethodTitle`, the measurements file's `Target` |
//! | `name`, `case` | as the measurements file's, from `MethodTitle`, `Parameters` and the job |
//! | `type`, `namespace`, `method` | `Type`, `Namespace` (empty where null), `MethodTitle` (`Method` where a file has no title) |
//! | `params`, `param_<Name>` | `Parameters` as written; each parameter's value |
//! | `job` | the job's id in `DisplayInfo`: what follows `.MethodTitle: `, less the parameters' `[…]` and the characteristics' `(Name=…)`; absent where `DisplayInfo` is not so |
//! | `launch`, `iteration`, `operations` | `LaunchIndex`, `IterationIndex`, `Operations` of the result measurement (absent from a record of `Statistics.OriginalValues`) |
//! | `time_ns` | `Nanoseconds / Operations`; in a file without result measurements, the value of `Statistics.OriginalValues` |
//! | `gen0_per_1000_ops` … `gen2_per_1000_ops` | `Memory.GenKCollections × 1000 / Memory.TotalOperations` (absent where `TotalOperations` is 0) |
//! | `allocated_bytes` | `Memory.BytesAllocatedPerOperation`, where written and not null |
//!
//! `value_ns`, the measurements file's own rounding of the time to 0.01 ns, is no field here,
//! since the JSON export writes no such rounding.
//!
//! **Which values are the results.** A benchmark whose `Measurements` hold results (`Workload`
//! with `IterationStage` `Result`; from 0.9.7 to 0.10.14, which wrote no stage, `IterationMode`
//! `Result`) gives one record per such measurement, at the line of its `{`; as many as
//! `Statistics.OriginalValues` holds, or the file is refused as edited. A benchmark without
//! `Measurements` (a brief export), or whose `Measurements` hold no result (the github-action-
//! benchmark test file, which keeps only the first 20 measurements of each case), gives one
//! record per value of `Statistics.OriginalValues`, at the value's line, which is the same
//! result's time without its launch, iteration and operations. A benchmark whose `Statistics` is
//! null gave no result and gives no record; a file of none is refused.
//!
//! A file cut short is not JSON, and is refused where the innermost value it leaves open opens.
//! A file of BenchmarkDotNet before 0.13.0 holding a bare `NaN` (the error of two results or
//! fewer) is not JSON either, and is refused at that `NaN` with what to write instead.

use super::benchmarkdotnet::{self as layout, Case, Iteration, Memory, Sample, push_record, record_name};
use super::{
    Source, head,
    tree::{Kind, Node, Number},
};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{Jsonl, JsonlBuilder};

/// How the report names the layout read: every result from its measurement, every one from
/// `Statistics` in a file without measurements, or some from `Statistics` where the file's
/// measurements hold none of them.
const FULL: &str = "BenchmarkDotNet full JSON";
const BRIEF: &str = "BenchmarkDotNet brief JSON";
const FROM_STATISTICS: &str = "BenchmarkDotNet JSON, results from Statistics.OriginalValues";

/// The names `JsonExporter` gives its files, which no other tool writes.
const EXPORT_NAMES: [&str; 4] = ["-report-full.json", "-report-full-compressed.json", "-report-brief.json", "-report-brief-compressed.json"];

/// Whether the first character of `text` (after a byte-order mark and white space) opens a
/// JSON object, as BenchmarkDotNet's JSON export does and its measurements file never does, or
/// an array, which this reader refuses as no export of BenchmarkDotNet's.
pub(super) fn is_json(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with(['{', '['])
}

/// Whether `rel_path` and `doc` are BenchmarkDotNet's by the file's name: one of the names only
/// `JsonExporter` writes, with a `Benchmarks` member (so that a file of that name cut or edited
/// is refused by this reader, which says where), or `-report.json`, which other tools write
/// too, holding what [`looks_like`] asks.
pub(super) fn is_named(rel_path: &str, doc: &Node) -> bool {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path).to_ascii_lowercase();
    if EXPORT_NAMES.iter().any(|suffix| name.ends_with(suffix)) {
        return doc.get("Benchmarks").is_some();
    }
    name.ends_with("-report.json") && looks_like(doc)
}

/// Whether a document is BenchmarkDotNet's JSON export: an object with `HostEnvironmentInfo`
/// and a non-empty `Benchmarks` array whose every entry holds `Measurements` or `Statistics`.
pub(super) fn looks_like(doc: &Node) -> bool {
    let entries = doc.get("Benchmarks").and_then(Node::as_array);
    doc.get("HostEnvironmentInfo").is_some_and(|h| h.as_object().is_some())
        && entries.is_some_and(|e| !e.is_empty() && e.iter().all(|b| b.get("Measurements").is_some() || b.get("Statistics").is_some()))
}

/// The records of the file, and how the report names the layout read.
pub(super) fn read(src: &Source, doc: &Node) -> Result<(Jsonl, &'static str), Diagnostic> {
    if doc.as_object().is_none() {
        return Err(src.error(head(doc), format!("this file is {}, not an object as BenchmarkDotNet's JSON export is", doc.what()), "expected an object"));
    }
    let benchmarks = src.member(doc, "Benchmarks", "BenchmarkDotNet JSON export")?;
    let entries = benchmarks.as_array().ok_or_else(|| src.wrong(benchmarks, "Benchmarks", "an array"))?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    let (mut records, mut from_statistics, mut with_measurements) = (0, 0, 0);
    for entry in entries {
        if entry.as_object().is_none() {
            return Err(src.error(head(entry), format!("a benchmark of `Benchmarks` is {}, not an object", entry.what()), "expected an object"));
        }
        let names = Names::read(src, entry)?;
        let memory = memory(src, entry)?;
        let original = original_values(src, entry)?;
        let measurements = entry.get("Measurements");
        with_measurements += usize::from(measurements.is_some());
        let results = match measurements {
            Some(m) => results(src, m)?,
            None => Vec::new(),
        };
        let samples = match (results.is_empty(), original) {
            (false, Some(values)) if values.len() != results.len() => {
                let at = measurements.map_or(head(entry), head);
                return Err(src
                    .error(
                        at,
                        format!(
                            "this benchmark's `Measurements` hold {} `Workload`/`Result` measurements, but its `Statistics.OriginalValues` hold {} values, which BenchmarkDotNet computes from those same measurements",
                            results.len(),
                            values.len()
                        ),
                        "results",
                    )
                    .with_note("the file was edited or cut: export it again with `JsonExporter.Full` (`--exporters fulljson`)"));
            }
            (false, _) => results.iter().map(|m| measured(src, m)).collect::<Result<Vec<_>, _>>()?,
            (true, Some(values)) => {
                from_statistics += 1;
                values.iter().map(|v| stated(src, v)).collect::<Result<Vec<_>, _>>()?
            }
            // A benchmark that failed has no result and null `Statistics`.
            (true, None) => Vec::new(),
        };
        let case = names.case();
        for sample in &samples {
            push_record(&mut out, &case, sample, &memory);
        }
        records += samples.len();
    }
    if records == 0 {
        return Err(src
            .error(
                head(benchmarks),
                "no benchmark of this file has a result (a `Workload`/`Result` measurement, or a value of `Statistics.OriginalValues`), so there are no records to read",
                "no results",
            )
            .with_note("BenchmarkDotNet writes them for every benchmark that ran to its end: rerun the benchmarks that failed"));
    }
    let caption = match (from_statistics, with_measurements) {
        (0, _) => FULL,
        (_, 0) => BRIEF,
        _ => FROM_STATISTICS,
    };
    Ok((out.finish(), caption))
}

/// What one benchmark of the file says of its case.
struct Names<'n> {
    benchmark: String,
    type_name: &'n str,
    namespace: &'n str,
    method: &'n str,
    params_text: &'n str,
    params: Vec<(String, String)>,
    job: Option<&'n str>,
}

impl<'n> Names<'n> {
    fn read(src: &Source, entry: &'n Node) -> Result<Names<'n>, Diagnostic> {
        let type_name = src.string(entry, "Type", "benchmark")?;
        let method = match entry.get("MethodTitle") {
            Some(title) => title.as_str().ok_or_else(|| src.wrong(title, "MethodTitle", "a string"))?,
            None => src.string(entry, "Method", "benchmark")?,
        };
        let namespace = optional_string(src, entry, "Namespace")?;
        let params_text = optional_string(src, entry, "Parameters")?;
        let params = layout::params(params_text, "Parameters").map_err(|(message, label)| {
            let at = entry.get("Parameters").map_or(head(entry), |p| p.span.clone());
            src.error(at, message, label)
        })?;
        let display = optional_string(src, entry, "DisplayInfo")?;
        let job = job_id(display, method, &params);
        Ok(Names { benchmark: format!("{type_name}.{method}"), type_name, namespace, method, params_text, params, job })
    }

    fn case(&self) -> Case<'_> {
        Case {
            benchmark: &self.benchmark,
            type_name: self.type_name,
            namespace: Some(self.namespace),
            method: self.method,
            params_text: self.params_text,
            params: &self.params,
            job: self.job,
        }
    }
}

/// The string `key` of `entry`, empty where it is absent or null (a type outside any namespace).
fn optional_string<'n>(src: &Source, entry: &'n Node, key: &str) -> Result<&'n str, Diagnostic> {
    match entry.get(key) {
        None => Ok(""),
        Some(node) if matches!(node.kind, Kind::Null) => Ok(""),
        Some(node) => node.as_str().ok_or_else(|| src.wrong(node, key, "a string")),
    }
}

/// The job's id in the case's `DisplayInfo` (`Type.Method: Job-ISNCHE(IterationCount=5) [N=10]`):
/// what follows `.method: `, less the parameters as BenchmarkDotNet writes them after it, and
/// less the job's characteristics, `(Name=value, …)`, where it has any. `None` where
/// `DisplayInfo` is not so written.
fn job_id<'d>(display: &'d str, method: &str, params: &[(String, String)]) -> Option<&'d str> {
    let pairs: Vec<(&str, &str)> = params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let rest = display.strip_suffix(&record_name("", &pairs))?;
    let marker = format!(".{method}: ");
    let job = &rest[rest.find(&marker)? + marker.len()..];
    // The characteristics open at the first `(` followed by a name and `=`: an id may hold a
    // parenthesis of its own (`Fast (x64)`), never one so followed.
    let opens_characteristics = |i: &usize| *i > 0 && job[i + 1..].split_once('=').is_some_and(|(name, _)| layout::is_identifier(name));
    let id = match job.match_indices('(').map(|(i, _)| i).find(opens_characteristics) {
        Some(i) if job.ends_with(')') => &job[..i],
        _ => job,
    };
    (!id.is_empty()).then_some(id)
}

/// The values of `Statistics.OriginalValues`, or `None` where `Statistics` is null (the
/// benchmark gave no result) or absent.
fn original_values<'n>(src: &Source, entry: &'n Node) -> Result<Option<&'n [Node]>, Diagnostic> {
    match entry.get("Statistics") {
        None => Ok(None),
        Some(s) if matches!(s.kind, Kind::Null) => Ok(None),
        Some(s) => src.array(s, "OriginalValues", "benchmark's `Statistics`").map(Some),
    }
}

/// The result measurements of one benchmark's `Measurements`: `Workload` at the stage `Result`,
/// or, where no measurement has a stage (0.9.7 to 0.10.14), `IterationMode` `Result`.
fn results<'n>(src: &Source, measurements: &'n Node) -> Result<Vec<&'n Node>, Diagnostic> {
    let items = measurements.as_array().ok_or_else(|| src.wrong(measurements, "Measurements", "an array"))?;
    let staged = items.iter().any(|m| m.get("IterationStage").is_some());
    let mut out = Vec::new();
    for m in items {
        if m.as_object().is_none() {
            return Err(src.error(head(m), format!("a measurement is {}, not an object", m.what()), "expected an object"));
        }
        let mode = src.string(m, "IterationMode", "measurement")?;
        let is_result = if staged { mode == "Workload" && src.string(m, "IterationStage", "measurement")? == "Result" } else { mode == "Result" };
        if is_result {
            out.push(m);
        }
    }
    Ok(out)
}

/// One result measurement, read and checked, at the line of its `{`.
fn measured(src: &Source, m: &Node) -> Result<Sample, Diagnostic> {
    let launch = count(src, m, "LaunchIndex", "measurement", 0)?;
    let index = count(src, m, "IterationIndex", "measurement", 0)?;
    let operations = count(src, m, "Operations", "measurement", 1)?;
    let nanoseconds = src.finite(src.member(m, "Nanoseconds", "measurement")?, "Nanoseconds")?;
    let (line, span) = src.at(m);
    Ok(Sample { line, span, iteration: Some(Iteration { launch, index, operations }), time_ns: nanoseconds / operations as f64, value_ns: None })
}

/// One value of `Statistics.OriginalValues`, at its line.
fn stated(src: &Source, value: &Node) -> Result<Sample, Diagnostic> {
    let time_ns = src.finite(value, "OriginalValues")?;
    let (line, span) = src.at(value);
    Ok(Sample { line, span, iteration: None, time_ns, value_ns: None })
}

/// The member `key` of `object` (a `what`) as a whole number no smaller than `least`.
fn count(src: &Source, object: &Node, key: &str, what: &str, least: i64) -> Result<i64, Diagnostic> {
    let node = src.member(object, key, what)?;
    match node.number(src.text) {
        Some(Number::Int(i)) if i >= least => Ok(i),
        Some(_) => Err(src.error(node.span.clone(), format!("`{key}` is {}, not a whole number of {least} or more", &src.text[node.span.clone()]), "not a count")),
        None => Err(src.wrong(node, key, &format!("a whole number of {least} or more"))),
    }
}

/// The memory diagnoser's figures of one benchmark, none where it has no `Memory`.
fn memory(src: &Source, entry: &Node) -> Result<Memory, Diagnostic> {
    let Some(node) = entry.get("Memory").filter(|m| !matches!(m.kind, Kind::Null)) else {
        return Ok(Memory::default());
    };
    let mut collections = [None; 3];
    for (k, slot) in collections.iter_mut().enumerate() {
        *slot = Some(count(src, node, &format!("Gen{k}Collections"), "`Memory`", 0)? as f64);
    }
    let operations = count(src, node, "TotalOperations", "`Memory`", 0)?;
    // Unknown (null from 0.13.2, `""` where a writer put a value it could not compute), or not
    // written at all (0.13.1).
    let allocated = match node.get("BytesAllocatedPerOperation") {
        Some(n) if !matches!(n.kind, Kind::Null) && n.as_str() != Some("") => Some(src.finite(n, "BytesAllocatedPerOperation")?),
        _ => None,
    };
    Ok(Memory { collections, operations, allocated })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ROOT, json_fixture, read_fixture, read_text, samples};
    use super::super::{Detected, Format, Table};
    use super::*;
    use crate::evidence::jsonl::Scalar;
    use crate::stats::student_t::mean_error;

    /// BenchmarkDotNet 0.12.1's full JSON export of the Fantomas benchmarks (one case, job
    /// `Job-ISNCHE`, cold start, 5 results, the memory diagnoser on), as github-action-benchmark
    /// first committed it.
    const FANTOMAS: &str = "benchmarkdotnet/fantomas-0.12.1-report-full.json";
    /// The same action's `Fib10`/`Fib20` sample run (0.12.1, `DefaultJob`, 14 and 13 results):
    /// whole, and as the action's test data keeps it, each case's `Measurements` cut to its first
    /// 20 (no result among them).
    const FIB: &str = "benchmarkdotnet/sample-fib-0.12.1-report-full.json";
    const FIB_TRIMMED: &str = "benchmarkdotnet/sample-fib-0.12.1-trimmed.json";

    fn fixture_text(rel: &str) -> String {
        std::fs::read_to_string(format!("{ROOT}/{rel}")).unwrap()
    }

    /// Every field of every record, as text, to compare two readings of one run.
    fn fields_of(t: &Table) -> Vec<Vec<(String, String)>> {
        let j = &t.jsonl;
        j.records.iter().map(|r| j.field_names().iter().filter_map(|n| j.get(r, n).map(|v| (n.to_string(), j.text_of(Some(v))))).collect()).collect()
    }

    /// Whether `ours` is BenchmarkDotNet's `theirs` within `ulps` units in its last place.
    fn assert_ulps(ours: f64, theirs: f64, ulps: f64, what: &str) {
        assert!((ours - theirs).abs() <= ulps * f64::EPSILON * theirs.abs(), "{what}: {ours} is not {theirs}");
    }

    /// `text` on one line, as `JsonExporter.FullCompressed` writes it: every white space outside
    /// a string left out.
    fn compressed(text: &str) -> String {
        let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
        for c in text.chars() {
            if in_string {
                in_string = escaped || c != '"';
                escaped = !escaped && c == '\\';
            } else if c.is_whitespace() {
                continue;
            } else {
                in_string = c == '"';
            }
            out.push(c);
        }
        out + "\n"
    }

    /// Each case's own `Statistics`, recomputed from its records: N, Mean, StandardDeviation,
    /// Min, Median and Max equal to the bit, Q1, Q3 and every percentile (numpy's linear
    /// quantiles, which BenchmarkDotNet's are) to a few units in the last place, and the
    /// confidence interval's `Margin` at its `Level` 12 (`ConfidenceLevel.L999`, the 13th of
    /// BenchmarkDotNet's levels, 99.9 %) as `mean_error(samples, 0.999)`, to ten significant
    /// digits (3 · 10⁻¹¹ apart at most: the two t quantiles' solvers differ there).
    fn assert_statistics(rel: &str) -> usize {
        let t = read_fixture(rel, None).unwrap();
        let own = json_fixture(rel);
        let mut cases = 0;
        for b in own["Benchmarks"].as_array().unwrap() {
            let stats = &b["Statistics"];
            let what = format!("{rel}: {}", b["DisplayInfo"]);
            let s = samples(&t, &format!("method = {}", b["MethodTitle"]), "time_ns");
            let theirs = |key: &str| stats[key].as_f64().unwrap();
            assert_eq!(s.len() as f64, theirs("N"), "{what}");
            let exact = [("Mean", s.mean()), ("StandardDeviation", s.stdev()), ("Min", s.min()), ("Median", s.median()), ("Max", s.max())];
            for (key, ours) in exact {
                assert_eq!(ours, theirs(key), "{what} {key}");
            }
            assert_ulps(s.quantile(0.25), theirs("Q1"), 4.0, &what);
            assert_ulps(s.quantile(0.75), theirs("Q3"), 4.0, &what);
            for (key, value) in stats["Percentiles"].as_object().unwrap() {
                let p: f64 = key[1..].parse().unwrap();
                assert_ulps(s.quantile(p / 100.0), value.as_f64().unwrap(), 4.0, &format!("{what} {key}"));
            }
            let ci = &stats["ConfidenceInterval"];
            assert_eq!(ci["Level"], 12, "{what}");
            let margin = ci["Margin"].as_f64().unwrap();
            let ours = mean_error(&s, 0.999).unwrap();
            assert!((ours / margin - 1.0).abs() < 1e-10, "{what}: {ours} is not {margin}");
            cases += 1;
        }
        cases
    }

    #[test]
    fn every_statistic_of_the_real_files_is_recomputed() {
        assert_eq!(assert_statistics(FANTOMAS), 1);
        assert_eq!(assert_statistics(FIB), 2);
        assert_eq!(assert_statistics(FIB_TRIMMED), 2);
    }

    /// `OriginalValues` are exactly the per-operation times of the `Workload`/`Result`
    /// measurements, in their order: all 32 results of the three cases, to the bit.
    #[test]
    fn original_values_are_the_results_to_the_bit() {
        let mut n = 0;
        for rel in [FANTOMAS, FIB] {
            let t = read_fixture(rel, None).unwrap();
            let j = &t.jsonl;
            let own = json_fixture(rel);
            let values: Vec<f64> =
                own["Benchmarks"].as_array().unwrap().iter().flat_map(|b| b["Statistics"]["OriginalValues"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap())).collect();
            let times: Vec<Option<Scalar>> = j.records.iter().map(|r| j.get(r, "time_ns")).collect();
            assert_eq!(times, values.iter().map(|v| Some(Scalar::Float(*v))).collect::<Vec<_>>(), "{rel}");
            n += values.len();
        }
        assert_eq!(n, 32);
    }

    #[test]
    fn the_fantomas_records_carry_their_fields_at_their_lines() {
        let t = read_fixture(FANTOMAS, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::BenchmarkDotNet, Detected::ByName));
        assert_eq!(t.read_as(), "read as BenchmarkDotNet full JSON (detected by its name)");
        let j = &t.jsonl;
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [126, 134, 142, 150, 158]);
        let first = &j.records[0];
        let text = |name: &str| j.text_of(j.get(first, name));
        assert_eq!(text("benchmark"), "CodePrinterTest.Format");
        assert_eq!(text("name"), "Format");
        assert_eq!((text("type"), text("namespace"), text("method")), ("CodePrinterTest".into(), "Fantomas.Benchmarks".into(), "Format".into()));
        assert_eq!(text("params"), "");
        // `DisplayInfo` is `CodePrinterTest.Format: Job-ISNCHE(IterationCount=5, RunStrategy=ColdStart)`.
        assert_eq!((text("job"), text("case")), ("Job-ISNCHE".into(), "Format: Job-ISNCHE".into()));
        assert_eq!((j.get(first, "launch"), j.get(first, "iteration"), j.get(first, "operations")), (Some(Scalar::Int(1)), Some(Scalar::Int(1)), Some(Scalar::Int(1))));
        assert_eq!(j.get(first, "time_ns"), Some(Scalar::Float(48016226159.0)));
        assert_eq!(j.get(first, "value_ns"), None);
        assert!(j.line_text(first).trim() == "{");
        // The memory diagnoser's columns, as its `Metrics` of the same file hold them: Gen0, Gen1
        // and Gen2 per 1000 operations (5272, 1841 and 314 collections over 1 operation) and
        // Allocated, 23,405,419,512 B per operation.
        let own = json_fixture(FANTOMAS);
        let metric = |id: &str| own["Benchmarks"][0]["Metrics"].as_array().unwrap().iter().find(|m| m["Descriptor"]["Id"] == id).unwrap()["Value"].as_f64().unwrap();
        let fields = [("gen0_per_1000_ops", "Gen0Collects"), ("gen1_per_1000_ops", "Gen1Collects"), ("gen2_per_1000_ops", "Gen2Collects"), ("allocated_bytes", "Allocated Memory")];
        for (field, id) in fields {
            let s = samples(&t, "name = \"Format\"", field);
            assert_eq!((s.min(), s.max()), (metric(id), metric(id)), "{field}");
        }
        assert_eq!(metric("Gen0Collects"), 5_272_000.0);
        assert_eq!(samples(&t, "case = \"Format: Job-ISNCHE\"", "time_ns").len(), 5);
    }

    /// The action's test file keeps each case's first 20 measurements, none of them a result:
    /// its records are `Statistics.OriginalValues`, the same times as the whole file's results,
    /// without their launch, iteration and operations, each at its value's line.
    #[test]
    fn a_file_whose_measurements_hold_no_result_is_read_from_its_statistics() {
        let trimmed = read_fixture(FIB_TRIMMED, None).unwrap();
        assert_eq!((trimmed.format, trimmed.detected), (Format::BenchmarkDotNet, Detected::ByContent));
        assert_eq!(trimmed.read_as(), "read as BenchmarkDotNet JSON, results from Statistics.OriginalValues (detected)");
        let whole = read_fixture(FIB, None).unwrap();
        assert_eq!(whole.read_as(), "read as BenchmarkDotNet full JSON (detected by its name)");
        let without = |t: &Table| -> Vec<Vec<(String, String)>> {
            fields_of(t).into_iter().map(|r| r.into_iter().filter(|(k, _)| !matches!(k.as_str(), "launch" | "iteration" | "operations")).collect()).collect()
        };
        assert_eq!(without(&trimmed), without(&whole));
        assert_eq!(trimmed.jsonl.records.len(), 27);
        assert!(!trimmed.jsonl.field_names().contains(&"launch"));
        assert_eq!(trimmed.jsonl.records[0].line, 33);
        assert_eq!(trimmed.jsonl.line_text(&trimmed.jsonl.records[0]).trim(), "24.805462032556534,");
        let j = &whole.jsonl;
        assert_eq!((j.text_of(j.get(&j.records[0], "job")), j.text_of(j.get(&j.records[0], "case"))), ("DefaultJob".into(), "Fib10: DefaultJob".into()));
    }

    /// The one-line export (`JsonExporter.FullCompressed`, what `--exporters json` writes and
    /// github-action-benchmark reads), made from the real file: the same records, all on line 1,
    /// detected by its name and by its content before a one-line object is taken for JSON Lines.
    #[test]
    fn the_compressed_export_reads_alike() {
        let indented = read_fixture(FANTOMAS, None).unwrap();
        let one_line = compressed(&fixture_text(FANTOMAS));
        assert_eq!(one_line.lines().count(), 1);
        for (path, detected) in [("r/Fantomas-report-full-compressed.json", Detected::ByName), ("r/fantomas.json", Detected::ByContent), ("r/fantomas", Detected::ByContent)] {
            let t = read_text(path, &one_line, None).unwrap();
            assert_eq!((t.format, t.detected), (Format::BenchmarkDotNet, detected), "{path}");
            assert_eq!(fields_of(&t), fields_of(&indented), "{path}");
            assert!(t.jsonl.records.iter().all(|r| r.line == 1));
        }
        let fib = read_fixture(FIB, None).unwrap();
        let t = read_text("r/Sample.Benchmarks-report.json", &compressed(&fixture_text(FIB)), None).unwrap();
        assert_eq!((t.detected, fields_of(&t)), (Detected::ByName, fields_of(&fib)));
    }

    /// A brief export (`JsonExporter.Brief`: the real file without `Measurements` and `Metrics`,
    /// which BenchmarkDotNet leaves out together; no real brief file was found): the full
    /// file's records without their launch, iteration and operations, the memory diagnoser's
    /// fields kept.
    #[test]
    fn a_brief_export_is_read_from_its_statistics() {
        let mut doc = json_fixture(FANTOMAS);
        let entry = doc["Benchmarks"][0].as_object_mut().unwrap();
        entry.remove("Measurements");
        entry.remove("Metrics");
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let t = read_text("r/Fantomas-report-brief.json", &text, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::BenchmarkDotNet, Detected::ByName));
        assert_eq!(t.read_as(), "read as BenchmarkDotNet brief JSON (detected by its name)");
        let full = read_fixture(FANTOMAS, None).unwrap();
        let mut expected = fields_of(&full);
        for r in &mut expected {
            r.retain(|(k, _)| !matches!(k.as_str(), "launch" | "iteration" | "operations"));
        }
        assert_eq!(fields_of(&t), expected);
        assert_eq!(t.jsonl.get(&t.jsonl.records[0], "gen1_per_1000_ops"), Some(Scalar::Float(1_841_000.0)));
    }

    /// A file cut short is refused where the innermost value left open opens (here the third
    /// measurement's `{`), indented or on one line, detected or named.
    #[test]
    fn a_truncated_file_is_located() {
        let text = fixture_text(FANTOMAS);
        let cut = &text[..text.find("\"Nanoseconds\": 46951833349").unwrap()];
        let one_line = compressed(&text);
        let cut_line = &one_line[..one_line.find("\"Nanoseconds\":46951833349").unwrap()];
        let col = cut_line.rfind('{').unwrap() + 1;
        for format in [None, Some(Format::BenchmarkDotNet)] {
            let err = read_text("r/Fantomas-report-full.json", cut, format).unwrap_err();
            assert_eq!(err.position().unwrap(), "r/Fantomas-report-full.json:102:17");
            assert!(err.message.contains("line 102: not valid JSON: the file ends inside the object that opens here"), "{}", err.message);
            let err = read_text("r/Fantomas-report-full-compressed.json", cut_line, format).unwrap_err();
            assert_eq!(err.position().unwrap(), format!("r/Fantomas-report-full-compressed.json:1:{col}"));
        }
    }

    /// A result measurement without `Nanoseconds` is refused at its `{`; one whose `Operations`
    /// is 0 at that number.
    #[test]
    fn a_measurement_missing_its_time_is_located() {
        let text = fixture_text(FANTOMAS);
        let at = text.find("\"IterationStage\": \"Result\"").unwrap();
        let key = at + text[at..].find("\"Nanoseconds\"").unwrap();
        let without = format!("{}\"Nanosecond\"{}", &text[..key], &text[key + "\"Nanoseconds\"".len()..]);
        let err = read_text("r/Fantomas-report-full.json", &without, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Fantomas-report-full.json:126:17");
        assert!(err.message.contains("line 126: no `Nanoseconds` in this measurement"), "{}", err.message);
        let ops = at + text[at..].find("\"Operations\": 1").unwrap();
        let zero = format!("{}\"Operations\": 0{}", &text[..ops], &text[ops + "\"Operations\": 1".len()..]);
        let err = read_text("r/Fantomas-report-full.json", &zero, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Fantomas-report-full.json:131:35");
        assert!(err.message.contains("`Operations` is 0, not a whole number of 1 or more"), "{}", err.message);
    }

    /// A file whose results are fewer than `OriginalValues` was edited, and is refused at its
    /// `Measurements`; a file of none (every benchmark failed) at its `Benchmarks`.
    #[test]
    fn results_that_do_not_match_the_statistics_are_refused() {
        let text = fixture_text(FANTOMAS);
        let edited = text.replacen("\"IterationStage\": \"Result\"", "\"IterationStage\": \"Actual\"", 1);
        let err = read_text("r/Fantomas-report-full.json", &edited, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Fantomas-report-full.json:85:29");
        assert!(err.message.contains("hold 4 `Workload`/`Result` measurements, but its `Statistics.OriginalValues` hold 5 values"), "{}", err.message);
        let mut doc = json_fixture(FANTOMAS);
        doc["Benchmarks"][0]["Statistics"] = serde_json::Value::Null;
        doc["Benchmarks"][0]["Measurements"] = serde_json::json!([]);
        let failed = serde_json::to_string_pretty(&doc).unwrap();
        let err = read_text("r/Fantomas-report-full.json", &failed, None).unwrap_err();
        assert!(err.message.contains("no benchmark of this file has a result"), "{}", err.message);
        assert_eq!(err.position().unwrap(), "r/Fantomas-report-full.json:22:17");
    }

    /// BenchmarkDotNet before 0.13.0 wrote a statistic it could not compute as a bare `NaN`:
    /// refused there, saying what to write.
    #[test]
    fn a_bare_nan_is_refused_with_what_to_write() {
        let text = fixture_text(FANTOMAS).replace("\"Margin\": 5084176929.812266", "\"Margin\": NaN");
        let err = read_text("r/Fantomas-report-full.json", &text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Fantomas-report-full.json:62:31");
        assert!(err.notes.iter().any(|n| n.contains("write the value as `null`")), "{:?}", err.notes);
        let t = read_text("r/Fantomas-report-full.json", &text.replace("NaN", "null"), None).unwrap();
        assert_eq!(t.jsonl.records.len(), 5);
    }

    /// A synthetic export with parameters and a job of its own id (no real one with parameters
    /// was found), as `JsonExporterBase` writes it: `Parameters` as the measurements file's
    /// `Params`, and `DisplayInfo` naming the job before the parameters.
    fn with_parameters(parameters: &str, display: &str) -> String {
        format!(
            r#"{{
    "Title": "Sums-20250101-000000",
    "HostEnvironmentInfo": {{ "BenchmarkDotNetCaption": "BenchmarkDotNet", "BenchmarkDotNetVersion": "0.14.0" }},
    "Benchmarks": [
        {{
            "DisplayInfo": "{display}",
            "Namespace": null,
            "Type": "Sums",
            "Method": "Add",
            "MethodTitle": "Add",
            "Parameters": "{parameters}",
            "FullName": "Sums.Add",
            "Statistics": {{ "OriginalValues": [250, 250.25], "N": 2 }},
            "Memory": {{ "Gen0Collections": 1, "Gen1Collections": 0, "Gen2Collections": 0, "TotalOperations": 4, "BytesAllocatedPerOperation": null }},
            "Measurements": [
                {{ "IterationMode": "Workload", "IterationStage": "Actual", "LaunchIndex": 1, "IterationIndex": 1, "Operations": 4, "Nanoseconds": 1100 }},
                {{ "IterationMode": "Workload", "IterationStage": "Result", "LaunchIndex": 1, "IterationIndex": 1, "Operations": 4, "Nanoseconds": 1000 }},
                {{ "IterationMode": "Workload", "IterationStage": "Result", "LaunchIndex": 1, "IterationIndex": 2, "Operations": 4, "Nanoseconds": 1001 }}
            ]
        }}
    ]
}}
"#
        )
    }

    #[test]
    fn parameters_and_the_job_name_the_record() {
        let text = with_parameters("N=10&Size=5", "Sums.Add: .NET 8.0(Runtime=.NET 8.0) [N=10, Size=5]");
        let t = read_text("r/Sums-report-full.json", &text, None).unwrap();
        let j = &t.jsonl;
        let first = &j.records[0];
        let field = |name: &str| j.text_of(j.get(first, name));
        assert_eq!((field("name"), field("benchmark"), field("namespace")), ("Add [N=10, Size=5]".into(), "Sums.Add".into(), String::new()));
        assert_eq!((field("params"), field("param_N"), field("param_Size")), ("N=10&Size=5".into(), "10".into(), "5".into()));
        assert_eq!((field("job"), field("case")), (".NET 8.0".into(), "Add: .NET 8.0 [N=10, Size=5]".into()));
        assert_eq!(j.get(first, "gen0_per_1000_ops"), Some(Scalar::Float(250.0)));
        assert_eq!(j.get(first, "allocated_bytes"), None);
        assert_eq!(samples(&t, "name = \"Add [N=10, Size=5]\"", "time_ns").sorted(), [250.0, 250.25]);
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [17, 18]);
        // A parameter written twice is refused at `Parameters`.
        let twice = with_parameters("N=10&N=20", "Sums.Add: DefaultJob [N=10, N=20]");
        let err = read_text("r/Sums-report-full.json", &twice, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Sums-report-full.json:11:27");
        assert!(err.message.contains("the parameter `N` is written twice in `Parameters` (\"N=10&N=20\")"), "{}", err.message);
    }

    #[test]
    fn the_job_is_read_from_display_info() {
        let params = [("N".to_string(), "10".to_string())];
        let cases: [(&str, &str, &[(String, String)], Option<&str>); 7] = [
            ("CodePrinterTest.Format: Job-ISNCHE(IterationCount=5, RunStrategy=ColdStart)", "Format", &[], Some("Job-ISNCHE")),
            ("Benchmarks.Fib10: DefaultJob", "Fib10", &[], Some("DefaultJob")),
            ("Sums.Add: ShortRun(IterationCount=3) [N=10]", "Add", &params, Some("ShortRun")),
            ("Sums.Add: Fast (x64) [N=10]", "Add", &params, Some("Fast (x64)")),
            ("Sums<Int32>.'Add two': Fast (x64)(Runtime=.NET 8.0)", "'Add two'", &[], Some("Fast (x64)")),
            ("Sums.Add: DefaultJob [N=20]", "Add", &params, None),
            ("Sums.Add", "Add", &[], None),
        ];
        for (display, method, params, job) in cases {
            assert_eq!(job_id(display, method, params), job, "{display}");
        }
    }

    /// The same fields and meaning as the measurements file's records: the Chrysalis
    /// `AlonzoBenchmarks` run written out as `JsonExporterBase` writes a full export (each
    /// `Nanoseconds` the number the CSV file prints; `Memory` its `Gen_k`, the operations of its
    /// results and `Allocated_Bytes`; `DisplayInfo` of its `Job_Display`) gives every field of
    /// every CSV record but `value_ns`, the CSV file's own rounding.
    #[test]
    fn the_measurements_file_and_its_json_give_the_same_records() {
        let rel = "benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.AlonzoBenchmarks-measurements.csv";
        let csv_table = read_fixture(rel, None).unwrap();
        let text = fixture_text(rel);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
        let mut entries: Vec<serde_json::Value> = Vec::new();
        for row in reader.records() {
            let row = row.unwrap();
            let cell = |name: &str| row.get(col(name)).unwrap().to_string();
            let number = |name: &str| cell(name).parse::<f64>().unwrap();
            let count = |name: &str| cell(name).parse::<i64>().unwrap();
            if entries.last().is_none_or(|e| e["Method"] != cell("Target_Method")) {
                entries.push(serde_json::json!({
                    "DisplayInfo": format!("{}.{}: {}", cell("Target_Type"), cell("Target_Method"), cell("Job_Display")),
                    "Namespace": cell("Target_Namespace"),
                    "Type": cell("Target_Type"),
                    "Method": cell("Target_Method"),
                    "MethodTitle": cell("Target_Method"),
                    "Parameters": cell("Params"),
                    "Statistics": { "OriginalValues": [] },
                    "Memory": { "Gen0Collections": count("Gen_0"), "Gen1Collections": count("Gen_1"), "Gen2Collections": count("Gen_2"), "TotalOperations": 0, "BytesAllocatedPerOperation": count("Allocated_Bytes") },
                    "Measurements": [],
                }));
            }
            let entry = entries.last_mut().unwrap();
            let (ns, ops) = (number("Measurement_Nanoseconds"), number("Measurement_Operations"));
            if cell("Measurement_IterationStage") == "Result" {
                entry["Statistics"]["OriginalValues"].as_array_mut().unwrap().push((ns / ops).into());
                entry["Memory"]["TotalOperations"] = count("Measurement_Operations").into();
            }
            entry["Measurements"].as_array_mut().unwrap().push(serde_json::json!({
                "IterationMode": cell("Measurement_IterationMode"),
                "IterationStage": cell("Measurement_IterationStage"),
                "LaunchIndex": count("Measurement_LaunchIndex"),
                "IterationIndex": count("Measurement_IterationIndex"),
                "Operations": count("Measurement_Operations"),
                "Nanoseconds": ns,
            }));
        }
        let doc = serde_json::json!({ "Title": "AlonzoBenchmarks", "HostEnvironmentInfo": { "BenchmarkDotNetVersion": "0.14.0" }, "Benchmarks": entries });
        let json_table = read_text("r/AlonzoBenchmarks-report-full.json", &serde_json::to_string_pretty(&doc).unwrap(), None).unwrap();
        let mut expected = fields_of(&csv_table);
        for r in &mut expected {
            r.retain(|(k, _)| k != "value_ns");
        }
        assert_eq!(fields_of(&json_table), expected);
        assert_eq!(json_table.jsonl.records.len(), 18);
    }

    /// By the names `JsonExporter` writes (refused there, with the place, where the content is
    /// not its layout), by `-report.json` only with its content, and by content under any name.
    #[test]
    fn the_export_is_detected_by_name_or_content() {
        let text = fixture_text(FANTOMAS);
        let cases = [
            ("r/Fantomas-report-full.json", Format::BenchmarkDotNet, Detected::ByName),
            ("r/FANTOMAS-REPORT-BRIEF-COMPRESSED.JSON", Format::BenchmarkDotNet, Detected::ByName),
            ("r/Fantomas-report.json", Format::BenchmarkDotNet, Detected::ByName),
            ("r/fantomas.json", Format::BenchmarkDotNet, Detected::ByContent),
            ("r/fantomas.txt", Format::BenchmarkDotNet, Detected::ByContent),
        ];
        for (path, format, detected) in cases {
            let t = read_text(path, &text, None).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!((t.format, t.detected), (format, detected), "{path}");
        }
        let err = read_text("r/x.json", "[1]", Some(Format::BenchmarkDotNet)).unwrap_err();
        assert!(err.message.contains("line 1: this file is an array, not an object as BenchmarkDotNet's JSON export is"), "{}", err.message);
        let other = "{\n  \"Benchmarks\": 3\n}\n";
        let err = read_text("r/x-report-full.json", other, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/x-report-full.json:2:17");
        assert!(err.message.contains("`Benchmarks` is a number, not an array"), "{}", err.message);
        let err = read_text("r/x-report.json", other, None).unwrap_err();
        assert!(err.message.contains("cannot tell which format"), "{}", err.message);
        // Named, a measurements file is still read as one.
        let csv = "benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.ConwayBenchmarks-measurements.csv";
        let t = read_fixture(csv, Some(Format::BenchmarkDotNet)).unwrap();
        assert_eq!(t.read_as(), "read as BenchmarkDotNet measurements CSV");
        assert_eq!(read_fixture(FANTOMAS, Some(Format::BenchmarkDotNet)).unwrap().read_as(), "read as BenchmarkDotNet full JSON");
    }
}
