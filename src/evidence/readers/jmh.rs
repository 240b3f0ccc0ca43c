//! `jmh`: the file the Java Microbenchmark Harness writes with `-rf json` (`-rff FILE`), one
//! record per raw value: each measurement iteration of each fork (each sample of a `sample`-mode
//! histogram), and each value of a secondary metric. This module owns that layout,
//! the names JMH gives a benchmark in its console table, and the fields a unit of JMH's makes;
//! it never reads the summaries JMH computed (`score`, `scoreError`, `scoreConfidence`,
//! `scorePercentiles`), which the checks recompute from the raw values.
//!
//! What JMH writes and computes, from its own source (openjdk/jmh at
//! 139694248ced741a9491c253a3422a19371c32a9, under `jmh-core/src/main/java/org/openjdk/jmh/`):
//!
//! - `results/format/JSONResultFormat.java` writes a JSON array with one object per benchmark
//!   and parameter combination: `jmhVersion` (from JMH 1.19 on), `benchmark`, `mode` (`thrpt`,
//!   `avgt`, `sample`, `ss`), `threads`, `forks`, `params` (only where the benchmark has
//!   `@Param`s; each value a string), `primaryMetric` and `secondaryMetrics`. A metric holds
//!   `score`, `scoreError`, `scoreConfidence`, `scorePercentiles`, `scoreUnit` and its raw
//!   values: `rawData`, one array per fork holding each measurement iteration's score, or, for
//!   the primary metric in `sample` mode from JMH 1.14 on, `rawDataHistogram`, one array per
//!   fork of one array per iteration of `[value, count]` pairs (before 1.14, sample mode wrote
//!   each iteration's mean in `rawData`, which is read as any other mode's). A value that is
//!   not finite is written as the string `"NaN"`, `"+INF"` or `"-INF"`;
//!   `-Djmh.json.rawData=false` leaves the raw arrays empty.
//! - `results/RunResult.java` (`getAggregatedResult`) merges the iterations of every fork into
//!   one result, and each mode's iteration aggregator (`ThroughputResult`,
//!   `AverageTimeResult`, `SingleShotResult`: a `ListStatistics` of the iterations' scores;
//!   `SampleTimeResult`: every sample of every iteration joined) makes the score its mean
//!   (`Result.getScore`, policy `AVG`).
//! - `results/Result.java` (`getScoreError`) makes the error `getMeanErrorAt(0.999)`, which
//!   `util/AbstractStatistics.java` computes as t(0.9995, n − 1) · s / √n over those same n
//!   values, `NaN` for n ≤ 2; `crate::stats::student_t` recomputes it, and a `stat` check's
//!   `statistic = "jmh-error"` asks for it.
//! - `results/format/TextResultFormat.java` prints the table (`Benchmark (param)… Mode Cnt
//!   Score Error Units`) that `crate::article::console` reads, naming each row by
//!   `util/ClassUtils.java`'s `denseClassNames` (see [`names_row`]) and a secondary metric's
//!   row `benchmark:label`.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `benchmark` | the benchmark's full name (`org.sample.MyBenchmark.foo`); for a secondary metric's value, the name JMH's table gives its row, `benchmark:label` (`org.sample.MyBenchmark.foo:·gc.alloc.rate.norm`), so that selecting a benchmark never mixes its metrics |
//! | `name` | `benchmark` with its parameters as JMH's log writes them, sorted by name: `org.sample.MyBenchmark.foo (size = 100, type = a)`; `benchmark` alone where there are none |
//! | `metric` | a secondary metric's label as written (`·gc.alloc.rate.norm`, `gc.alloc.rate.norm` from JMH 1.37); absent from the primary metric's records |
//! | `mode` | `thrpt`, `avgt`, `sample` or `ss`, as written |
//! | `threads`, `forks` | as written |
//! | `jmh_version` | `jmhVersion`, where written |
//! | `param_<name>` | each `@Param`'s value, as written (a string) |
//! | `fork` | the fork the value was measured in, from 1, as JMH's log counts them |
//! | `iteration` | the measurement iteration, from 1; absent from a secondary metric's values in a fork where the metric was not reported in every iteration, since JMH's file does not say which iterations those were |
//! | `score` | the raw value, in `unit` |
//! | `unit` | the metric's `scoreUnit` as written (`ns/op`, `ops/ms`, `B/op`, `MB/sec`) |
//! | `time_ns`, `time_us`, `time_ms`, `time_s` | for a time per operation (`ns/op`, `us/op`, `ms/op`, `s/op`): `score` under the field its unit names, the same value; `min/op`, `hr/op` and `day/op` converted to `time_s` |
//! | `ops_per_s` | for a throughput (`ops/ns` … `ops/day`): `score` converted to operations per second |
//!
//! A parameter's field is `param_` and its name, and no fixed field begins with `param_`, so a
//! parameter never hides a field; a parameter written twice in one `params` object is refused at
//! its second place. The unit-named fields are how the checks learn a value's unit
//! (`checks::units`): a `stat` check over `time_us` compares `1.2 ms` in the text with
//! 1200 µs, while `score` carries no unit of its own and is compared as written (`12.3 ns/op`
//! with a score in `ns/op`, `1283.859 ops/ms` with one in `ops/ms`).
//!
//! **Secondary metrics** (`-prof gc` and the other profilers) are records of their own, since
//! their raw arrays need not have the primary metric's shape. Their `mean` is JMH's score where
//! the metric was reported in every iteration and JMH averages it (`gc.alloc.rate`,
//! `gc.alloc.rate.norm`): `ScalarResult`'s aggregation counts an iteration that did not report
//! a metric (`gc.churn.*` in an iteration without a collection) as a zero that the raw array
//! leaves out, and the counters (`gc.count`, `gc.time`) are sums, which no statistic of the raw
//! values gives. The records hold what JMH wrote; neither of those is made up.
//!
//! **Sample mode** (`-bm sample`): each `[value, count]` pair of `rawDataHistogram` stands for
//! `count` samples of `value`, and is read as that many records, so that every statistic
//! weighs each value by its count as JMH's `MultisetStatistics` does (JMH's score and error are
//! the mean and the interval over every sample of every iteration). A file holding more than
//! [`MAX_HISTOGRAM_SAMPLES`] samples in all is refused rather than held, with what to export
//! instead. JMH's own percentiles of such a run (`·p0.50` …) are computed by its own rank rule
//! (`MultisetStatistics.getPercentile`), not numpy's, and are not what a `pNN` statistic gives.
//!
//! A record's line is the line of its raw value (of its `[value, count]` pair).

use std::collections::BTreeSet;

use super::{
    Source, head,
    tree::{Kind, Node, Number},
};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// The most samples a sample-mode file's histograms may stand for: each becomes a record of a
/// few hundred bytes, and a longer run is better read from JMH's per-iteration averages.
const MAX_HISTOGRAM_SAMPLES: u64 = 100_000;

/// JMH's modes, by the short label it writes (`Mode.shortLabel`).
const MODES: [&str; 4] = ["thrpt", "avgt", "sample", "ss"];

/// Whether a document is JMH's: a non-empty array whose every element is an object with a
/// `benchmark` string and a `primaryMetric` object.
pub(super) fn looks_like(doc: &Node) -> bool {
    doc.as_array().is_some_and(|rows| {
        !rows.is_empty() && rows.iter().all(|r| r.get("benchmark").and_then(Node::as_str).is_some() && r.get("primaryMetric").and_then(Node::as_object).is_some())
    })
}

/// Whether `mode` is one of JMH's modes, as its table prints it.
pub(crate) fn is_mode(mode: &str) -> bool {
    MODES.contains(&mode)
}

/// The record `name` of a benchmark with its parameters: the benchmark, then `(k = v, …)` sorted
/// by name, as JMH's log writes `# Parameters:`.
pub(crate) fn record_name(benchmark: &str, params: &[(&str, &str)]) -> String {
    if params.is_empty() {
        return benchmark.to_string();
    }
    let mut sorted = params.to_vec();
    sorted.sort();
    let list: Vec<String> = sorted.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    format!("{benchmark} ({})", list.join(", "))
}

/// Whether the name JMH's table gives a row, `label`, is the benchmark `full` (both before any
/// parameter list, each `benchmark` or `benchmark:metric`). JMH's `denseClassNames` drops the
/// package prefix that every benchmark of the run shares (the leading all-lower-case parts of
/// the name), or, where the run's benchmarks differ in it, abbreviates each of those parts to
/// its first letter: `org.sample.MyBenchmark.foo` is printed `MyBenchmark.foo` or
/// `o.s.MyBenchmark.foo`. A label names a benchmark when it is the full name, or when its
/// parts are the full name's with some leading lower-case parts dropped, or with the same
/// number of leading parts each cut to its first letter.
fn names_row(label: &str, full: &str) -> bool {
    if label == full {
        return true;
    }
    // A secondary metric's label may hold dots (`gc.alloc.rate`), so the metric is compared
    // whole and only the benchmark's own name is taken apart.
    let (label_bench, label_metric) = label.split_once(':').map_or((label, None), |(b, m)| (b, Some(m)));
    let (full_bench, full_metric) = full.split_once(':').map_or((full, None), |(b, m)| (b, Some(m)));
    if label_metric != full_metric {
        return false;
    }
    let short: Vec<&str> = label_bench.split('.').collect();
    let long: Vec<&str> = full_bench.split('.').collect();
    if short.len() > long.len() || short.is_empty() {
        return false;
    }
    let is_prefix_part = |p: &str| !p.is_empty() && p.to_lowercase() == p;
    let dropped = long.len() - short.len();
    if dropped > 0 {
        // The dropped parts are the shared lower-case prefix, and the rest is written out.
        return long[..dropped].iter().all(|p| is_prefix_part(p)) && long[dropped..] == short[..];
    }
    // As many parts: each differing one is a lower-case prefix part cut to its first letter.
    let mut abbreviating = true;
    for (s, l) in short.iter().zip(&long) {
        if s == l {
            abbreviating = false;
            continue;
        }
        let first = l.chars().next().map(String::from);
        if !(abbreviating && is_prefix_part(l) && first.as_deref() == Some(*s)) {
            return false;
        }
    }
    true
}

/// The fields that hold a record's raw value: `score` as written, and the same value under the
/// field its unit names ([`unit_field`]).
pub(crate) const SCORE_FIELDS: [&str; 6] = ["score", "time_ns", "time_us", "time_ms", "time_s", "ops_per_s"];

/// Whether a row of JMH's table named `label` (a benchmark as [`names_row`] reads it, then its
/// parameters as [`record_name`] writes them) is the record `name`: the parameters written
/// alike, and the benchmarks named alike.
pub(crate) fn names_record(label: &str, name: &str) -> bool {
    let split = |s: &'_ str| -> (String, String) {
        match s.split_once(" (") {
            Some((bench, params)) => (bench.to_string(), params.to_string()),
            None => (s.to_string(), String::new()),
        }
    };
    let ((label_bench, label_params), (bench, params)) = (split(label), split(name));
    label_params == params && names_row(&label_bench, &bench)
}

/// The field a value in `unit` is also recorded under, with its value: a time per operation
/// under the field its time unit names, a throughput converted to operations per second. `None`
/// for any other unit (`B/op`, `MB/sec`, `counts`, a profiler's `ms` total).
fn unit_field(unit: &str, score: f64) -> Option<(&'static str, f64)> {
    let (top, bottom) = unit.split_once('/')?;
    let seconds = |u: &str| match u {
        "ns" => Some(1e-9),
        "us" | "µs" | "μs" => Some(1e-6),
        "ms" => Some(1e-3),
        "s" => Some(1.0),
        "min" => Some(60.0),
        "hr" => Some(3600.0),
        "day" => Some(86400.0),
        _ => None,
    };
    match (top, bottom) {
        ("ns", "op") => Some(("time_ns", score)),
        ("us" | "µs" | "μs", "op") => Some(("time_us", score)),
        ("ms", "op") => Some(("time_ms", score)),
        ("s", "op") => Some(("time_s", score)),
        (time, "op") => seconds(time).map(|s| ("time_s", score * s)),
        ("ops", time) => seconds(time).map(|s| ("ops_per_s", score / s)),
        _ => None,
    }
}

/// What every record of one result holds before its own fork, iteration and value.
struct Header<'a> {
    benchmark: &'a str,
    mode: &'a str,
    threads: &'a Node,
    forks: &'a Node,
    jmh_version: Option<&'a str>,
    params: Vec<(String, &'a str)>,
}

pub(super) fn read(src: &Source, doc: &Node) -> Result<Jsonl, Diagnostic> {
    let rows = doc.as_array().ok_or_else(|| src.wrong(doc, "the JMH result file", "an array"))?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    let mut histogram_samples = 0u64;
    for row in rows {
        let result = header(src, row)?;
        let primary = src.member(row, "primaryMetric", "JMH result")?;
        let unit = src.string(primary, "scoreUnit", "primary metric")?;
        // The iterations of each fork, which a secondary metric's values are paired with, and how
        // many records the primary metric gave.
        let (iterations, read) = match (primary.get("rawData"), primary.get("rawDataHistogram")) {
            (Some(raw), _) => push_raw(src, &mut out, &result, None, unit, raw, None)?,
            (None, Some(histogram)) => push_histogram(src, &mut out, &result, unit, histogram, &mut histogram_samples)?,
            (None, None) => (Vec::new(), 0),
        };
        if read == 0 {
            return Err(src.summary_only(
                head(primary),
                &format!("this JMH result of {} (no raw values in `rawData`)", result.benchmark),
                "rerun with `-rf json` and without `-Djmh.json.rawData=false`, so that the file keeps every iteration's score in `rawData`",
            ));
        }
        let Some(secondaries) = row.get("secondaryMetrics") else { continue };
        let members = secondaries.as_object().ok_or_else(|| src.wrong(secondaries, "secondaryMetrics", "an object"))?;
        for m in members {
            let unit = src.string(&m.value, "scoreUnit", "secondary metric")?;
            let raw = src.member(&m.value, "rawData", "secondary metric")?;
            push_raw(src, &mut out, &result, Some(&m.key), unit, raw, Some(&iterations))?;
        }
    }
    Ok(out.finish())
}

/// A result's benchmark, mode, thread and fork counts, version and parameters, each checked.
fn header<'a>(src: &Source, row: &'a Node) -> Result<Header<'a>, Diagnostic> {
    let benchmark = src.string(row, "benchmark", "JMH result")?;
    let mode_node = src.member(row, "mode", "JMH result")?;
    let mode = src.string(row, "mode", "JMH result")?;
    if !is_mode(mode) {
        return Err(src.error(mode_node.span.clone(), format!("unknown JMH mode \"{mode}\": expected thrpt, avgt, sample or ss"), "unknown mode"));
    }
    let threads = src.member(row, "threads", "JMH result")?;
    let forks = src.member(row, "forks", "JMH result")?;
    for (node, name) in [(threads, "threads"), (forks, "forks")] {
        if !matches!(node.number(src.text), Some(Number::Int(n)) if n >= 0) {
            return Err(src.wrong(node, name, "a count"));
        }
    }
    let jmh_version = match row.get("jmhVersion") {
        None => None,
        Some(v) => Some(v.as_str().ok_or_else(|| src.wrong(v, "jmhVersion", "a string"))?),
    };
    let mut params = Vec::new();
    if let Some(p) = row.get("params") {
        let members = p.as_object().ok_or_else(|| src.wrong(p, "params", "an object"))?;
        let mut seen = BTreeSet::new();
        for m in members {
            if !seen.insert(m.key.as_str()) {
                return Err(src.error(m.key_span.clone(), format!("the parameter `{}` is written twice in one `params` object", m.key), "written twice"));
            }
            let value = m.value.as_str().ok_or_else(|| src.wrong(&m.value, &m.key, "a string"))?;
            params.push((m.key.clone(), value));
        }
    }
    Ok(Header { benchmark, mode, threads, forks, jmh_version, params })
}

/// A raw value as JMH writes it: a number, or `"NaN"`, `"+INF"` or `"-INF"`, kept so that a
/// statistic over it fails at its line rather than the whole file failing to read.
fn raw_value(src: &Source, node: &Node, what: &str) -> Result<f64, Diagnostic> {
    match &node.kind {
        Kind::Str(s) if s == "NaN" => Ok(f64::NAN),
        Kind::Str(s) if s == "+INF" => Ok(f64::INFINITY),
        Kind::Str(s) if s == "-INF" => Ok(f64::NEG_INFINITY),
        Kind::Number => node.f64(src.text).ok_or_else(|| src.wrong(node, what, "a number")),
        Kind::Str(s) => Err(src.error(
            node.span.clone(),
            format!("a value of `{what}` is the string \"{s}\", not a number (JMH writes a value that is not finite as \"NaN\", \"+INF\" or \"-INF\")"),
            "not a number",
        )),
        _ => Err(src.wrong(node, what, "a number")),
    }
}

/// The arrays of `node`, one per fork.
fn forks_of<'n>(src: &Source, node: &'n Node, key: &str) -> Result<&'n [Node], Diagnostic> {
    node.as_array().ok_or_else(|| src.wrong(node, key, "an array with one array per fork"))
}

/// Pushes one record per value of `raw` (`rawData`: per fork, per iteration), of the primary
/// metric where `metric` is `None`; the number of values in each fork, and in all. A secondary
/// metric's values carry their iteration where the fork has one value per iteration of the
/// primary's (`primary`), and none otherwise.
fn push_raw(
    src: &Source,
    out: &mut JsonlBuilder,
    result: &Header<'_>,
    metric: Option<&str>,
    unit: &str,
    raw: &Node,
    primary: Option<&[usize]>,
) -> Result<(Vec<usize>, usize), Diagnostic> {
    let key = "rawData";
    let mut counts = Vec::new();
    for (f, fork) in forks_of(src, raw, key)?.iter().enumerate() {
        let values = fork.as_array().ok_or_else(|| src.wrong(fork, key, "an array of one fork's iterations"))?;
        let complete = primary.is_none_or(|p| p.get(f) == Some(&values.len()));
        for (i, node) in values.iter().enumerate() {
            let value = raw_value(src, node, key)?;
            push(src, out, result, metric, unit, node, f + 1, complete.then_some(i + 1), value);
        }
        counts.push(values.len());
    }
    let total = counts.iter().sum();
    Ok((counts, total))
}

/// Pushes `count` records for each `[value, count]` pair of a sample-mode histogram, per fork,
/// per iteration; the number of iterations in each fork, and of samples in all. `total` counts
/// the file's samples so far, and the read stops with an error where they pass
/// [`MAX_HISTOGRAM_SAMPLES`].
fn push_histogram(src: &Source, out: &mut JsonlBuilder, result: &Header<'_>, unit: &str, histogram: &Node, total: &mut u64) -> Result<(Vec<usize>, usize), Diagnostic> {
    let key = "rawDataHistogram";
    let mut counts = Vec::new();
    let mut samples = 0usize;
    for (f, fork) in forks_of(src, histogram, key)?.iter().enumerate() {
        let iterations = fork.as_array().ok_or_else(|| src.wrong(fork, key, "an array of one fork's iterations"))?;
        for (i, iteration) in iterations.iter().enumerate() {
            let pairs = iteration.as_array().ok_or_else(|| src.wrong(iteration, key, "an array of `[value, count]` pairs"))?;
            for pair in pairs {
                let (value, count) = match pair.as_array() {
                    Some([value, count]) => (raw_value(src, value, key)?, count),
                    _ => return Err(src.error(head(pair), format!("a histogram entry of `{key}` is {}, not a `[value, count]` pair", pair.what()), "expected [value, count]")),
                };
                let Some(Number::Int(n)) = count.number(src.text).filter(|n| matches!(n, Number::Int(n) if *n >= 0)) else {
                    return Err(src.wrong(count, "a histogram count", "a count"));
                };
                *total = total.saturating_add(n as u64);
                if *total > MAX_HISTOGRAM_SAMPLES {
                    return Err(src.error(
                        count.span.clone(),
                        format!(
                            "the sample-mode histograms of this file stand for more than {MAX_HISTOGRAM_SAMPLES} samples, more than claimcheck reads one record each: rerun with `-bm avgt` (or `thrpt`), whose `rawData` holds each iteration's average, or bind JMH's own score through a `json` check"
                        ),
                        "too many samples",
                    ));
                }
                for _ in 0..n {
                    push(src, out, result, None, unit, pair, f + 1, Some(i + 1), value);
                }
                samples += n as usize;
            }
        }
        counts.push(iterations.len());
    }
    Ok((counts, samples))
}

/// One record: the result's fields, then the value's own.
#[allow(clippy::too_many_arguments)]
fn push(src: &Source, out: &mut JsonlBuilder, result: &Header<'_>, metric: Option<&str>, unit: &str, node: &Node, fork: usize, iteration: Option<usize>, value: f64) {
    let benchmark = match metric {
        Some(m) => format!("{}:{m}", result.benchmark),
        None => result.benchmark.to_string(),
    };
    let params: Vec<(&str, &str)> = result.params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let name = record_name(&benchmark, &params);
    let param_fields: Vec<(String, &str)> = result.params.iter().map(|(k, v)| (format!("param_{k}"), *v)).collect();
    let mut fields: Vec<(&str, FieldValue<'_>)> = vec![("benchmark", FieldValue::Str(&benchmark)), ("name", FieldValue::Str(&name))];
    if let Some(m) = metric {
        fields.push(("metric", FieldValue::Str(m)));
    }
    fields.push(("mode", FieldValue::Str(result.mode)));
    fields.push(("threads", super::scalar(result.threads, src.text)));
    fields.push(("forks", super::scalar(result.forks, src.text)));
    if let Some(v) = result.jmh_version {
        fields.push(("jmh_version", FieldValue::Str(v)));
    }
    fields.extend(param_fields.iter().map(|(k, v)| (k.as_str(), FieldValue::Str(v))));
    fields.push(("fork", FieldValue::Int(fork as i64)));
    if let Some(i) = iteration {
        fields.push(("iteration", FieldValue::Int(i as i64)));
    }
    fields.push(("score", FieldValue::Float(value)));
    fields.push(("unit", FieldValue::Str(unit)));
    if let Some((field, converted)) = unit_field(unit, value) {
        fields.push((field, FieldValue::Float(converted)));
    }
    let (line, span) = src.at(node);
    out.push(line, span, fields);
}

#[cfg(test)]
mod tests {
    use super::super::testing::{json_fixture, read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use super::*;
    use crate::evidence::jsonl::Scalar;
    use crate::stats::student_t::mean_error;

    const TWINEWORKS: &str = "jmh/twineworks-collections.json";
    const JCASBIN: &str = "jmh/jcasbin.json";
    const BLACKLITE: &str = "jmh/blacklite.json";

    /// JMH's own score and error of every result of `file`, recomputed from the records of its
    /// primary metric: the mean equal to JMH's `score` to a few units in the last place (JMH
    /// sums in iteration order, `Samples` in sorted order), the error to nine significant
    /// digits (Commons Math solves JMH's t quantile to an absolute 10⁻⁹), and both equal in
    /// the three decimals JMH prints. An error of 10⁷ or more is the exception: there the
    /// solver's tolerance reaches the third decimal (jcasbin's `removePolicyLarge`, an error of
    /// 47,107,252,964.949 to 40 digits, which JMH wrote as …964.95012 and this module computes
    /// as …964.951), and only the nine digits are asserted. Returns how many results were
    /// compared.
    fn recompute_every_result(file: &str) -> usize {
        let t = read_fixture(file, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Jmh, Detected::ByContent), "{file}");
        let own = json_fixture(file);
        let mut compared = 0;
        for result in own.as_array().unwrap() {
            let primary = &result["primaryMetric"];
            let name = record_name(result["benchmark"].as_str().unwrap(), &params_of(result));
            let s = samples(&t, &format!("name = {}", toml::Value::String(name.clone())), "score");
            let n: usize = primary["rawData"].as_array().unwrap().iter().map(|f| f.as_array().unwrap().len()).sum();
            assert_eq!(s.len(), n, "{name}");
            let score = primary["score"].as_f64().unwrap();
            assert!((s.mean() - score).abs() <= 4.0 * f64::EPSILON * score, "{name}: mean {} vs {score}", s.mean());
            assert_eq!(format!("{:.3}", s.mean()), format!("{score:.3}"), "{name}");
            let error = mean_error(&s, 0.999);
            match primary["scoreError"].as_f64() {
                Some(e) => {
                    let ours = error.unwrap();
                    assert!((ours - e).abs() <= 1e-9 * e, "{name}: error {ours} vs {e}");
                    if e < 1e7 {
                        assert_eq!(format!("{ours:.3}"), format!("{e:.3}"), "{name}");
                    }
                }
                None => assert_eq!((primary["scoreError"].as_str(), error), (Some("NaN"), None), "{name}"),
            }
            compared += 1;
        }
        compared
    }

    fn params_of(result: &serde_json::Value) -> Vec<(&str, &str)> {
        result["params"].as_object().map_or(Vec::new(), |p| p.iter().map(|(k, v)| (k.as_str(), v.as_str().unwrap())).collect())
    }

    /// twineworks/collections' run of 2015 (JMH 1.11.1, one fork of ten iterations, average time):
    /// every one of its 32 scores and errors, which the repository's README also prints.
    #[test]
    fn twineworks_scores_and_errors_are_recomputed_exactly() {
        assert_eq!(recompute_every_result(TWINEWORKS), 32);
    }

    /// jcasbin's run (JMH 1.37, parameters, throughput in ops/ms, average time in ns/op and single
    /// shots in ms/op, three iterations each, where the error takes t(0.9995, 2) = 31.6).
    #[test]
    fn jcasbin_scores_and_errors_are_recomputed_exactly() {
        assert_eq!(recompute_every_result(JCASBIN), 86);
    }

    /// blacklite's run (JMH 1.35, three forks of 20 and of 10 iterations, `-prof gc`).
    #[test]
    fn blacklite_scores_and_errors_are_recomputed_exactly() {
        assert_eq!(recompute_every_result(BLACKLITE), 6);
    }

    #[test]
    fn records_carry_fork_iteration_params_and_unit_fields() {
        let t = read_fixture(JCASBIN, None).unwrap();
        let j = &t.jsonl;
        let first = &j.records[0];
        assert_eq!(first.line, 47);
        assert_eq!(j.text_of(j.get(first, "benchmark")), "org.casbin.jcasbin.main.benchmark.BenchmarkEnforce.enforce");
        assert_eq!(j.text_of(j.get(first, "name")), "org.casbin.jcasbin.main.benchmark.BenchmarkEnforce.enforce (dataScale = small, modelType = basic, useCache = false)");
        assert_eq!(j.text_of(j.get(first, "param_modelType")), "basic");
        assert_eq!(j.text_of(j.get(first, "mode")), "thrpt");
        assert_eq!(j.text_of(j.get(first, "jmh_version")), "1.37");
        assert_eq!((j.get(first, "fork"), j.get(first, "iteration")), (Some(Scalar::Int(1)), Some(Scalar::Int(1))));
        assert_eq!(j.get(first, "score"), Some(Scalar::Float(1313.0177563884006)));
        assert_eq!(j.text_of(j.get(first, "unit")), "ops/ms");
        assert_eq!(j.get(first, "ops_per_s"), Some(Scalar::Float(1313.0177563884006 / 1e-3)));
        assert_eq!(j.get(first, "metric"), None);
        let avgt = j.records.iter().find(|r| j.text_of(j.get(r, "unit")) == "ns/op").unwrap();
        assert_eq!(j.get(avgt, "time_ns"), j.get(avgt, "score"));
        let ss = j.records.iter().find(|r| j.text_of(j.get(r, "mode")) == "ss").unwrap();
        assert_eq!((j.text_of(j.get(ss, "unit")), j.get(ss, "time_ms")), ("ms/op".to_string(), j.get(ss, "score")));
        assert_eq!(j.records.len(), 86 * 3);
    }

    /// `-prof gc`: each secondary metric's values are records named as JMH's table names the
    /// row; their mean is JMH's score where every iteration reported the metric, and a fork that
    /// lacks some iterations gives values without an iteration.
    #[test]
    fn secondary_metrics_are_records_of_their_own() {
        let t = read_fixture(BLACKLITE, None).unwrap();
        let j = &t.jsonl;
        let own = json_fixture(BLACKLITE);
        let bench = "com.tersesystems.blacklite.DefaultEntryStoreBenchmark.insertAndBatchCommit";
        let norm = samples(&t, &format!("benchmark = \"{bench}:·gc.alloc.rate.norm\""), "score");
        assert_eq!(norm.len(), 60);
        let result = own.as_array().unwrap().iter().find(|r| r["benchmark"] == bench).unwrap();
        let jmh = result["secondaryMetrics"]["·gc.alloc.rate.norm"]["score"].as_f64().unwrap();
        assert!((norm.mean() - jmh).abs() <= 4.0 * f64::EPSILON * jmh);
        // Selecting the benchmark selects its primary metric alone.
        assert_eq!(samples(&t, &format!("benchmark = \"{bench}\""), "score").len(), 60);
        let churn: Vec<_> =
            j.records.iter().filter(|r| j.text_of(j.get(r, "metric")) == "·gc.churn.G1_Eden_Space" && j.text_of(j.get(r, "benchmark")).starts_with(bench)).collect();
        assert_eq!(churn.len(), 11);
        assert!(churn.iter().all(|r| j.get(r, "iteration").is_none()), "4 of 20 iterations: which ones, the file does not say");
        let with_iteration = j.records.iter().filter(|r| j.text_of(j.get(r, "metric")) == "·gc.alloc.rate" && j.get(r, "iteration").is_some()).count();
        assert!(with_iteration > 0);
        assert_eq!(j.text_of(j.get(churn[0], "unit")), "MB/sec");
        assert_eq!(j.get(churn[0], "ops_per_s"), None);
    }

    /// A sample-mode histogram stands for each value `count` times: JMH's mean and error are
    /// those of every sample (constructed in the layout `JSONResultFormat` writes).
    #[test]
    fn a_sample_mode_histogram_is_read_value_by_count() {
        let text = "[\n{\n\"benchmark\" : \"a.B.m\",\n\"mode\" : \"sample\",\n\"threads\" : 1,\n\"forks\" : 1,\n\"primaryMetric\" : {\n\"scoreUnit\" : \"us/op\",\n\"rawDataHistogram\" : [\n[\n[\n[1.5, 3],\n[2.0, 1]\n],\n[\n[1.5, 2],\n[4.0, 2]\n]\n]\n]\n},\n\"secondaryMetrics\" : {\n\"·p0.50\" : {\"scoreUnit\" : \"us/op\", \"rawData\" : [[1.5, 4.0]]}\n}\n}\n]\n";
        let t = read_text("r.json", text, None).unwrap();
        assert_eq!(t.format, Format::Jmh);
        let s = samples(&t, "benchmark = \"a.B.m\"", "time_us");
        assert_eq!(s.sorted(), [1.5, 1.5, 1.5, 1.5, 1.5, 2.0, 4.0, 4.0]);
        let j = &t.jsonl;
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [12, 12, 12, 13, 16, 16, 17, 17, 23, 23]);
        let primary: Vec<_> = j.records.iter().filter(|r| j.get(r, "metric").is_none()).collect();
        assert_eq!(primary.iter().filter(|r| j.get(r, "iteration") == Some(Scalar::Int(2))).count(), 4);
        // A secondary metric reported once an iteration is paired with the iterations, not the
        // samples.
        let median: Vec<_> = j.records.iter().filter(|r| j.text_of(j.get(r, "metric")) == "·p0.50").map(|r| j.get(r, "iteration")).collect();
        assert_eq!(median, [Some(Scalar::Int(1)), Some(Scalar::Int(2))]);
        let many = text.replace("[4.0, 2]", "[4.0, 100000]");
        let err = read_text("r.json", &many, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r.json:17:7");
        assert!(err.message.contains("more than 100000 samples") && err.message.contains("-bm avgt"), "{}", err.message);
    }

    #[test]
    fn a_file_without_raw_values_is_refused_as_summary_only() {
        let text = "[\n  {\n    \"benchmark\" : \"a.B.m\", \"mode\" : \"avgt\", \"threads\" : 1, \"forks\" : 1,\n    \"primaryMetric\" : { \"score\" : 2.5, \"scoreError\" : 0.1, \"scoreUnit\" : \"ns/op\", \"rawData\" : [] },\n    \"secondaryMetrics\" : {}\n  }\n]\n";
        let err = read_text("r.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r.json:4:23");
        assert!(err.message.contains("holds only summaries") && err.message.contains("jmh.json.rawData=false"), "{}", err.message);
        let without = text.replace(", \"rawData\" : []", "");
        assert!(read_text("r.json", &without, None).unwrap_err().message.contains("holds only summaries"));
    }

    /// Malformed results are refused where they break, with the offending text.
    #[test]
    fn malformed_results_are_located() {
        let good = "[{\"benchmark\": \"a.B.m\", \"mode\": \"avgt\", \"threads\": 1, \"forks\": 1, \"params\": {\"n\": \"1\"},\n\"primaryMetric\": {\"scoreUnit\": \"ns/op\", \"rawData\": [[1.0, 2.0, \"NaN\"]]}, \"secondaryMetrics\": {}}]";
        let t = read_text("r.json", good, None).unwrap();
        let all: Vec<_> = t.jsonl.records.iter().collect();
        let err = t.jsonl.samples(&all, "score").unwrap_err();
        assert_eq!(err.position().unwrap(), "r.json:2:1");
        let cases = [
            (good.replace("\"avgt\"", "\"fast\""), "r.json:1:33", "unknown JMH mode \"fast\""),
            (good.replace("2.0,", "\"two\","), "r.json:2:59", "a value of `rawData` is the string \"two\", not a number"),
            (good.replace("[[1.0", "[1.0").replace("\"NaN\"]]", "\"NaN\"]"), "r.json:2:53", "an array of one fork's iterations"),
            (good.replace("{\"n\": \"1\"}", "{\"n\": \"1\", \"n\": \"2\"}"), "r.json:1:88", "the parameter `n` is written twice"),
            (good.replace("{\"n\": \"1\"}", "{\"n\": 1}"), "r.json:1:83", "`n` is a number, not a string"),
            (good.replace("\"threads\": 1", "\"threads\": -1"), "r.json:1:52", "`threads` is a number, not a count"),
        ];
        for (text, at, says) in cases {
            let err = read_text("r.json", &text, Some(Format::Jmh)).unwrap_err();
            assert_eq!(err.position().unwrap(), at, "{says}: {}", err.message);
            assert!(err.message.contains(says), "{}", err.message);
        }
    }

    #[test]
    fn dense_names_name_their_rows() {
        let full = "org.sample.MyBenchmark.foo";
        for label in ["org.sample.MyBenchmark.foo", "MyBenchmark.foo", "sample.MyBenchmark.foo", "o.s.MyBenchmark.foo", "o.sample.MyBenchmark.foo"] {
            assert!(names_row(label, full), "{label}");
        }
        for label in ["MyBenchmark.bar", "foo", "x.s.MyBenchmark.foo", "o.s.M.foo", "Other.MyBenchmark.foo", "", "org.sample.MyBenchmark.foo.x"] {
            assert!(!names_row(label, full), "{label}");
        }
        assert!(names_row("MyBenchmark.foo:·gc.alloc.rate.norm", "org.sample.MyBenchmark.foo:·gc.alloc.rate.norm"));
        assert!(!names_row("MyBenchmark.foo:·gc.alloc.rate", "org.sample.MyBenchmark.foo:·gc.alloc.rate.norm"));
        assert!(!names_row("MyBenchmark.foo", "org.sample.MyBenchmark.foo:·gc.alloc.rate"));
        assert!(names_record("MyBenchmark.foo (n = 1)", "org.sample.MyBenchmark.foo (n = 1)"));
        assert!(!names_record("MyBenchmark.foo (n = 2)", "org.sample.MyBenchmark.foo (n = 1)"));
        assert!(!names_record("MyBenchmark.foo", "org.sample.MyBenchmark.foo (n = 1)"));
        assert!(names_record("BigMapBenchmark.putHashMap", "io.twineworks.collections.shapemap.BigMapBenchmark.putHashMap"));
    }

    #[test]
    fn units_give_their_fields() {
        assert_eq!(unit_field("ns/op", 2.5), Some(("time_ns", 2.5)));
        assert_eq!(unit_field("us/op", 2.5), Some(("time_us", 2.5)));
        assert_eq!(unit_field("ms/op", 2.5), Some(("time_ms", 2.5)));
        assert_eq!(unit_field("s/op", 2.5), Some(("time_s", 2.5)));
        assert_eq!(unit_field("min/op", 2.0), Some(("time_s", 120.0)));
        assert_eq!(unit_field("ops/s", 2.5), Some(("ops_per_s", 2.5)));
        assert_eq!(unit_field("ops/ms", 2.5), Some(("ops_per_s", 2.5 / 1e-3)));
        assert_eq!(unit_field("ops/hr", 7200.0), Some(("ops_per_s", 2.0)));
        for other in ["B/op", "MB/sec", "counts", "ms", "ops/fortnight"] {
            assert_eq!(unit_field(other, 1.0), None, "{other}");
        }
    }

    /// An array of JMH results is JMH's, not plain JSON records; an array of other objects is
    /// still records, and a JMH file can be read as records when asked.
    #[test]
    fn detection_tells_jmh_from_records() {
        assert_eq!(read_text("a.json", "[{\"t\":1}]", None).unwrap().format, Format::Json);
        let t = read_fixture(TWINEWORKS, Some(Format::Json)).unwrap();
        assert_eq!(t.format, Format::Json);
        assert_eq!(t.jsonl.records.len(), 32);
        assert_eq!(read_fixture(TWINEWORKS, None).unwrap().read_as(), "read as JMH JSON results (detected)");
    }
}
