//! `asv`: the results file airspeed velocity writes for one commit in one environment
//! (`.asv/results/<machine>/<commit>-<env>.json`), one record per sample of every benchmark and
//! parameter combination. This module owns that layout; it never reads the statistics asv
//! stored beside the samples (its median `result`, quartiles and interval), which the checks
//! recompute from the samples.
//!
//! What asv writes, as read in its source (airspeed-velocity/asv 0.6.6, `asv/results.py`,
//! `Results.save` and `Results.load`; asv_runner 0.2, `asv_runner/statistics.py`):
//!
//! - The document holds `commit_hash`, `env_name`, `params` (the machine's description, its
//!   `machine` among them), `version` (2), `result_columns` and `results`. `results` maps each
//!   benchmark's name to a row of values in the order `result_columns` names them (`result`,
//!   `params`, `version`, `started_at`, `duration`, `stats_ci_99_a`, `stats_ci_99_b`,
//!   `stats_q_25`, `stats_q_75`, `stats_number`, `stats_repeat`, `samples`, `profile`); a row
//!   ends early where its last values are all null. asv writes the file compact, on one line.
//! - A benchmark's `params` is a list of lists of parameter values, each as Python's `repr`
//!   writes it (`"100"`, `"'float'"`); its `result`, `samples` and each `stats_*` hold one
//!   entry per combination of those values, in the order `itertools.product` takes them (the
//!   last parameter varying fastest). A benchmark without parameters has one combination.
//! - A `result` entry is null where the benchmark failed and `NaN` where it was skipped
//!   (`NotImplementedError` in its setup): Python's `json` writes `NaN`, which JSON itself has
//!   not, and such an entry gives no record.
//! - A timing benchmark's (`time_`, `timeraw_`) `result` is the median of its samples, and its
//!   `samples` are kept only where asv ran with `--record-samples`; each sample is the time of
//!   one call in seconds (asv_runner divides each timing by `number`, the calls timed together,
//!   `stats_number`). Without samples such a file holds only summaries and is refused. What asv
//!   prints beside the median, `106±20μs`, is half the interquartile range of the samples, by
//!   the linear interpolation numpy also uses (`statistic = "asv-error"`).
//! - A memory (`mem_`, `peakmem_`) or tracking (`track_`) benchmark measures once: its `result`
//!   is the measurement itself, and gives one record.
//! - The parameters' names, each benchmark's type and its unit stand in `benchmarks.json` at the
//!   results directory's top (`.asv/results/benchmarks.json`, beside the machines' folders). It
//!   is read where it is there, above the file or beside it. Without it a parameter is named by
//!   its position, as asv names unnamed ones (`param1`), and the type is told by the name's
//!   prefix, as asv tells it.
//! - Format version 1 (asv before 0.5) has no `result_columns`: `asv update` rewrites such a
//!   file in version 2.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `benchmark` | the benchmark's name (`bench_sort.Sorting.time_sorted`) |
//! | `name` | the name with its parameters as `asv compare` and `asv show` print it, each value as Python's `repr` wrote it (`bench_sort.Sorting.time_sorted(100, 'int')`); the bare name where it has none |
//! | `param_<name>` | each parameter's value: a number as a number, a string without Python's quotes (as asv prints it), anything else as written |
//! | `sample` | the sample's index, from 0 (0 for a memory or tracking benchmark's one value) |
//! | `time_s` | a timing benchmark's sample: the time of one call, seconds |
//! | `memory_bytes` | a memory benchmark's size, bytes |
//! | `value` | a tracking benchmark's value, in its `unit` |
//! | `unit` | a tracking benchmark's unit, from `benchmarks.json` (`unit` where it is not there) |
//! | `number` | calls timed together for each sample (`stats_number`), where written |
//! | `commit` | the commit the file is of (`commit_hash`) |
//! | `machine` | the machine's name (`params.machine`), where written |
//! | `env` | the environment's name (`env_name`) |
//!
//! A record's line is the line of its sample (the file's one line, for asv's compact output).

use std::collections::HashMap;

use super::{Sidecar, Source, beside, head, scalar, tree::Node};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether a document is an asv results file: `result_columns` beside a `results` object and a
/// `commit_hash`, keys no other harness claimcheck reads writes.
pub(super) fn looks_like(doc: &Node) -> bool {
    doc.get("result_columns").and_then(Node::as_array).is_some() && doc.get("results").and_then(Node::as_object).is_some() && doc.get("commit_hash").is_some()
}

/// What kind of benchmark a row is, which says what its values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Type {
    Time,
    Memory,
    Track,
}

impl Type {
    /// asv's type by the benchmark's own name, as asv tells it (`benchmark_types` in
    /// asv_runner: the prefixes `time_`, `timeraw_`, `mem_`, `peakmem_` and `track_`).
    fn by_name(benchmark: &str) -> Option<Type> {
        let own = benchmark.rsplit('.').next().unwrap_or(benchmark);
        if own.starts_with("time_") || own.starts_with("timeraw_") {
            Some(Type::Time)
        } else if own.starts_with("mem_") || own.starts_with("peakmem_") {
            Some(Type::Memory)
        } else if own.starts_with("track_") {
            Some(Type::Track)
        } else {
            None
        }
    }

    /// asv's type as `benchmarks.json` names it.
    fn by_entry(kind: &str) -> Option<Type> {
        match kind {
            "time" => Some(Type::Time),
            "memory" | "peakmemory" => Some(Type::Memory),
            "track" => Some(Type::Track),
            _ => None,
        }
    }
}

/// Whether asv's name for a benchmark, or a row of its comparison table (the name with its
/// parameters), is a memory benchmark's (`mem_`, `peakmem_`), whose values are bytes.
pub(crate) fn measures_memory(name: &str) -> bool {
    let benchmark = split_environments(name).0;
    Type::by_name(benchmark.split('(').next().unwrap_or(benchmark).trim()) == Some(Type::Memory)
}

/// A row's name as `asv compare` prints it where the results it compares come from several
/// environments, split into the benchmark's `name` and the environments of the before and
/// after sides, each `machine/environment`; the label itself, and none, where it names no
/// environment. asv appends one to every row then (`"{} [{}]".format(*benchmark)` with
/// `f"{machine}/{env_name}"`, asv 0.6.6 `compare.py`), and asv_spyglass, comparing two
/// environments, appends both (`[m/virtualenv-py3.12 -> m/rattler-py3.12]`). An environment's
/// name may hold dots (`py3.12`), so a benchmark's type is told by the name before it.
pub(crate) fn split_environments(label: &str) -> (&str, Option<(&str, &str)>) {
    let split = || {
        let (name, inside) = label.trim_end().strip_suffix(']')?.rsplit_once(" [")?;
        let (before, after) = inside.split_once(" -> ").unwrap_or((inside, inside));
        let environment = |side: &str| side.split_once('/').is_some_and(|(machine, env)| !machine.is_empty() && !env.is_empty() && !side.contains(char::is_whitespace));
        let name = name.trim_end();
        (!name.is_empty() && environment(before) && environment(after)).then_some((name, (before, after)))
    };
    match split() {
        Some((name, sides)) => (name, Some(sides)),
        None => (label, None),
    }
}

/// What `benchmarks.json` says of one benchmark.
#[derive(Debug, Default, serde::Deserialize)]
struct Entry {
    #[serde(default)]
    param_names: Vec<String>,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    unit: Option<String>,
}

pub(super) fn read(src: &Source, doc: &Node, sidecar: Sidecar<'_>) -> Result<Jsonl, Diagnostic> {
    if doc.get("result_columns").is_none() && doc.get("results").is_some() {
        return Err(src
            .error(head(doc), "an asv results file of format version 1 (no `result_columns`), which claimcheck does not read", "format version 1")
            .with_note("`asv update` rewrites the results files in the current format (version 2)"));
    }
    if let Some(version) = doc.get("version")
        && version.f64(src.text) != Some(2.0)
    {
        return Err(src
            .error(version.span.clone(), format!("asv results format version {} is not 2, the one claimcheck reads", &src.text[version.span.clone()]), "unknown version")
            .with_note("asv 0.5 and later write version 2; `asv update` rewrites older files"));
    }
    let columns = src.array(doc, "result_columns", "asv results file")?;
    let mut column = HashMap::new();
    for (i, c) in columns.iter().enumerate() {
        let name = c.as_str().ok_or_else(|| src.wrong(c, "result_columns", "an array of strings"))?;
        column.entry(name).or_insert(i);
    }
    if !column.contains_key("result") {
        return Err(src.error(head(doc.get("result_columns").unwrap_or(doc)), "`result_columns` names no `result` column", "no `result`"));
    }
    let results = src.member(doc, "results", "asv results file")?;
    let results = results.as_object().ok_or_else(|| src.wrong(results, "results", "an object"))?;
    let entries = entries(src, sidecar)?;
    let fixed = fixed_fields(src, doc)?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for member in results {
        let name = member.key.as_str();
        let row = member.value.as_array().ok_or_else(|| src.wrong(&member.value, name, "an array (a row of `result_columns`)"))?;
        let cell = |key: &str| column.get(key).and_then(|&i| row.get(i)).filter(|n| !n.is_null());
        let Some(result) = cell("result") else { continue };
        let result = result.as_array().ok_or_else(|| src.wrong(result, "result", "an array"))?;
        let params = match cell("params") {
            Some(p) => p.as_array().ok_or_else(|| src.wrong(p, "params", "an array of arrays"))?,
            None => &[],
        };
        let mut values: Vec<&[Node]> = Vec::new();
        for p in params {
            values.push(p.as_array().ok_or_else(|| src.wrong(p, "params", "an array of arrays"))?);
        }
        let combinations = values.iter().try_fold(1usize, |n, v| n.checked_mul(v.len()));
        if combinations != Some(result.len()) {
            let expected = combinations.map_or("more than can be counted".to_string(), |n| n.to_string());
            return Err(src.error(
                head(&member.value),
                format!("`{name}` has {} results for {expected} combinations of its parameters", result.len()),
                "results and parameters disagree",
            ));
        }
        let entry = entries.get(name);
        let kind = match entry.and_then(|e| e.kind.as_deref()) {
            Some(k) => Type::by_entry(k),
            None => Type::by_name(name),
        };
        let Some(kind) = kind else {
            return Err(src
                .error(
                    member.key_span.clone(),
                    format!("cannot tell what `{name}` measures: its name has none of asv's prefixes (`time_`, `timeraw_`, `mem_`, `peakmem_`, `track_`)"),
                    "unknown benchmark type",
                )
                .with_note("put asv's `benchmarks.json` (in the results directory's top) above or beside this file: it names each benchmark's type"));
        };
        let param_names: Vec<String> =
            (0..values.len()).map(|i| entry.and_then(|e| e.param_names.get(i)).map_or_else(|| format!("param_param{}", i + 1), |n| format!("param_{n}"))).collect();
        let unit = entry.and_then(|e| e.unit.as_deref()).unwrap_or("unit");
        let samples = match cell("samples") {
            Some(s) => Some(s.as_array().ok_or_else(|| src.wrong(s, "samples", "an array"))?),
            None => None,
        };
        let numbers = match cell("stats_number") {
            Some(s) => Some(s.as_array().ok_or_else(|| src.wrong(s, "stats_number", "an array"))?),
            None => None,
        };
        for (j, value) in result.iter().enumerate() {
            // A failed combination (null) and a skipped one (NaN) have nothing to read.
            if value.is_null() || value.f64(src.text).is_some_and(f64::is_nan) {
                continue;
            }
            let mut rest = j;
            let mut picked = vec![FieldValue::Null; values.len()];
            let mut written = vec![""; values.len()];
            for (i, v) in values.iter().enumerate().rev() {
                let node = &v[rest % v.len()];
                picked[i] = param_value(node, src.text);
                written[i] = node.as_str().unwrap_or(&src.text[node.span.clone()]);
                rest /= v.len();
            }
            // As asv's `unroll_result` names a combination for `compare` and `show`.
            let unrolled = if values.is_empty() { name.to_string() } else { format!("{name}({})", written.join(", ")) };
            let mut fields: Vec<(&str, FieldValue<'_>)> = vec![("benchmark", FieldValue::Str(name))];
            fields.push(("name", FieldValue::Str(&unrolled)));
            fields.extend(param_names.iter().map(String::as_str).zip(picked));
            fields.extend(fixed.iter().cloned());
            if let Some(n) = numbers.and_then(|n| n.get(j)).filter(|n| !n.is_null()) {
                fields.push(("number", scalar(n, src.text)));
            }
            let own = samples.and_then(|s| s.get(j)).filter(|s| !s.is_null());
            match (kind, own) {
                (Type::Time, None) => {
                    return Err(src.summary_only(
                        value.span.clone(),
                        &format!("this asv result (`{name}`'s median, without its samples)"),
                        "run asv with `--record-samples` (`asv run --record-samples`, `asv continuous --record-samples`), which keeps every sample in the results file",
                    ));
                }
                (_, Some(own)) => {
                    let own = own.as_array().ok_or_else(|| src.wrong(own, "samples", "an array of arrays"))?;
                    let times = src.numbers(own, "samples")?;
                    let field = value_field(kind);
                    for (k, (node, t)) in own.iter().zip(&times).enumerate() {
                        let (line, span) = src.at(node);
                        let mut record = fields.clone();
                        record.extend([("sample", FieldValue::Int(k as i64)), (field, FieldValue::Float(*t))]);
                        if kind == Type::Track {
                            record.push(("unit", FieldValue::Str(unit)));
                        }
                        out.push(line, span, record);
                    }
                }
                (Type::Memory | Type::Track, None) => {
                    let v = src.finite(value, "result")?;
                    let (line, span) = src.at(value);
                    fields.extend([("sample", FieldValue::Int(0)), (value_field(kind), FieldValue::Float(v))]);
                    if kind == Type::Track {
                        fields.push(("unit", FieldValue::Str(unit)));
                    }
                    out.push(line, span, fields);
                }
            }
        }
    }
    Ok(out.finish())
}

/// The field a benchmark's values go in.
fn value_field(kind: Type) -> &'static str {
    match kind {
        Type::Time => "time_s",
        Type::Memory => "memory_bytes",
        Type::Track => "value",
    }
}

/// The fields every record of the file shares: the commit, the machine and the environment.
fn fixed_fields<'n>(src: &Source, doc: &'n Node) -> Result<Vec<(&'static str, FieldValue<'n>)>, Diagnostic> {
    let mut fixed = Vec::new();
    for (field, node) in [("commit", doc.get("commit_hash")), ("machine", doc.get("params").and_then(|p| p.get("machine"))), ("env", doc.get("env_name"))] {
        if let Some(node) = node {
            fixed.push((field, node.as_str().map(FieldValue::Str).ok_or_else(|| src.wrong(node, field, "a string"))?));
        }
    }
    Ok(fixed)
}

/// A parameter's value as asv prints it: Python's `repr` of a number read as the number, of a
/// string without its quotes (asv's `_format_param_value`), anything else as written; a value
/// asv would not write, not a string, as JSON reads it.
fn param_value<'n>(node: &'n Node, text: &str) -> FieldValue<'n> {
    let Some(repr) = node.as_str() else { return scalar(node, text) };
    if let Some(inner) = ["'", "u'"].iter().find_map(|open| repr.strip_prefix(open).and_then(|r| r.strip_suffix('\''))).filter(|s| !s.trim().is_empty()) {
        return FieldValue::Str(inner);
    }
    if let Some(inner) = repr.strip_prefix("<class '").and_then(|r| r.strip_suffix("'>")).filter(|s| !s.trim().is_empty()) {
        return FieldValue::Str(inner);
    }
    if let Ok(i) = repr.parse::<i64>() {
        return FieldValue::Int(i);
    }
    match repr.parse::<f64>() {
        Ok(f) if f.is_finite() && repr.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E')) => FieldValue::Float(f),
        _ => FieldValue::Str(repr),
    }
}

/// What `benchmarks.json` says of each benchmark, read from the results directory's top (above
/// this file's machine folder) or beside this file; empty where neither is there. A file that
/// is there but is not asv's is an error, so that parameters are never named by position
/// unawares.
fn entries(src: &Source, sidecar: Sidecar<'_>) -> Result<HashMap<String, Entry>, Diagnostic> {
    for name in ["../benchmarks.json", "benchmarks.json"] {
        let path = beside(src.path, name);
        if path.starts_with("..") {
            continue;
        }
        let Ok(bytes) = sidecar(&path) else { continue };
        let doc: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&bytes).map_err(|e| {
            Diagnostic::plain(format!("{path}: not asv's benchmarks.json ({e}), which {} is read with", src.path))
                .with_note("asv writes it at the top of the results directory; remove or replace it")
        })?;
        let mut out = HashMap::new();
        for (key, value) in doc {
            // The file's `version` is a number beside the benchmarks' objects.
            if !value.is_object() {
                continue;
            }
            let entry: Entry = serde_json::from_value(value)
                .map_err(|e| Diagnostic::plain(format!("{path}: `{key}` is not an asv benchmark's description ({e}), which {} is read with", src.path)))?;
            out.insert(key, entry);
        }
        return Ok(out);
    }
    Ok(HashMap::new())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ROOT, json_fixture, read_fixture, read_text, samples};
    use super::super::{Detected, Format, read};
    use crate::evidence::jsonl::Scalar;

    const BEFORE: &str = "asv/results/vm/7d98489b-existing-py_tmp_asvenv_bin_python3.json";
    const AFTER: &str = "asv/results/vm/b444ec0a-existing-py_tmp_asvenv_bin_python3.json";

    /// The combinations of `benchmark` in the file's order, as `select` tables, beside the
    /// results asv stored for them (its median and quartiles, or the one measurement).
    fn stored(rel: &str, benchmark: &str) -> Vec<(String, serde_json::Value, Option<(f64, f64)>)> {
        // serde_json reads no `NaN`, which asv writes for a skipped combination: read as null.
        let text = std::fs::read_to_string(format!("{ROOT}/{rel}")).unwrap().replace("NaN", "null");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let row = doc["results"][benchmark].as_array().unwrap().clone();
        let column = |name: &str| doc["result_columns"].as_array().unwrap().iter().position(|c| c == name).and_then(|i| row.get(i).cloned()).unwrap_or_default();
        let entry = &json_fixture("asv/results/benchmarks.json")[benchmark];
        let names: Vec<String> = entry["param_names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
        let params: Vec<Vec<String>> =
            column("params").as_array().unwrap().iter().map(|p| p.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()).collect();
        let mut combos: Vec<Vec<String>> = vec![vec![]];
        for values in &params {
            combos = combos.into_iter().flat_map(|c| values.iter().map(move |v| [c.clone(), vec![v.clone()]].concat())).collect();
        }
        combos
            .into_iter()
            .enumerate()
            .map(|(j, combo)| {
                let mut select = format!("benchmark = \"{benchmark}\"");
                for (name, value) in names.iter().zip(&combo) {
                    let value = value.trim_matches('\'');
                    if value.parse::<f64>().is_ok() {
                        select.push_str(&format!("\nparam_{name} = {value}"));
                    } else {
                        select.push_str(&format!("\nparam_{name} = \"{value}\""));
                    }
                }
                let quartiles = column("stats_q_25").get(j).and_then(|a| a.as_f64()).zip(column("stats_q_75").get(j).and_then(|b| b.as_f64()));
                (select, column("result")[j].clone(), quartiles)
            })
            .collect()
    }

    #[test]
    fn a_results_file_is_detected_and_every_sample_read() {
        for rel in [BEFORE, AFTER] {
            let t = read_fixture(rel, None).unwrap();
            assert_eq!((t.format, t.detected), (Format::Asv, Detected::ByContent), "{rel}");
            let j = &t.jsonl;
            let count = |select: &str| j.select(&toml::from_str(select).unwrap()).len();
            // Four combinations of ten samples, one of three that ran, and two plain timings.
            assert_eq!(count("benchmark = \"bench_sort.Sorting.time_sorted\""), 40);
            assert_eq!(count("benchmark = \"bench_sort.Edge.time_maybe\""), 10);
            assert_eq!(count("benchmark = \"bench_sort.time_join\""), 10);
            // One measurement a combination: four, two of three (one skipped), and one.
            assert_eq!(count("benchmark = \"bench_sort.Sorting.peakmem_sorted\""), 4);
            assert_eq!(count("benchmark = \"bench_sort.Edge.track_size\""), 2);
            assert_eq!(count("benchmark = \"bench_sort.track_answer\""), 1);
            assert_eq!(j.records.len(), 40 + 10 + 10 + 10 + 4 + 2 + 1 + 1);
            let r = &j.records[0];
            assert_eq!(j.text_of(j.get(r, "machine")), "vm");
            assert_eq!(j.text_of(j.get(r, "env")), "existing-py_tmp_asvenv_bin_python3");
            assert!(rel.contains(&j.text_of(j.get(r, "commit"))[..8]));
        }
    }

    /// asv's own numbers for each combination: its `result` is the median of the samples, and
    /// what it prints after `±` is half the distance between the stored quartiles (stored to
    /// five significant digits), both by linear interpolation; a memory or tracking result is
    /// its one record's value.
    #[test]
    fn statistics_equal_asv_s_own() {
        for rel in [BEFORE, AFTER] {
            let t = read_fixture(rel, None).unwrap();
            for benchmark in ["bench_sort.Sorting.time_sorted", "bench_sort.Edge.time_maybe"] {
                for (select, result, quartiles) in stored(rel, benchmark) {
                    let Some(median) = result.as_f64() else { continue };
                    let s = samples(&t, &select, "time_s");
                    assert_eq!(s.len(), 10, "{select}");
                    assert!((s.median() - median).abs() <= 4.0 * f64::EPSILON * median, "{select}: {} vs {median}", s.median());
                    let (q25, q75) = quartiles.unwrap();
                    let close = |a: f64, b: f64| (a - b).abs() <= 1e-4 * b.abs();
                    assert!(close(s.quantile(0.25), q25) && close(s.quantile(0.75), q75), "{select}: {} {} vs {q25} {q75}", s.quantile(0.25), s.quantile(0.75));
                }
            }
            for (select, result, _) in stored(rel, "bench_sort.Sorting.peakmem_sorted") {
                assert_eq!(samples(&t, &select, "memory_bytes").sorted(), [result.as_f64().unwrap()], "{select}");
            }
            for (select, result, _) in stored(rel, "bench_sort.Edge.track_size") {
                let j = &t.jsonl;
                let picked = j.select(&toml::from_str(&select).unwrap());
                match result.as_f64() {
                    Some(v) => {
                        assert_eq!(samples(&t, &select, "value").sorted(), [v]);
                        assert_eq!(j.text_of(j.get(picked[0], "unit")), "items");
                    }
                    None => assert!(picked.is_empty(), "{select}: a skipped combination gives no record"),
                }
            }
        }
    }

    #[test]
    fn parameters_are_named_and_written_as_asv_prints_them() {
        let t = read_fixture(BEFORE, Some(Format::Asv)).unwrap();
        let j = &t.jsonl;
        let sorted = j.select(&toml::from_str("benchmark = \"bench_sort.Sorting.time_sorted\"").unwrap());
        // The last parameter varies fastest, as `itertools.product` takes them.
        let combos: Vec<(Option<Scalar>, String)> = sorted.iter().step_by(10).map(|r| (j.get(r, "param_n"), j.text_of(j.get(r, "param_dtype")).to_string())).collect();
        assert_eq!(
            combos,
            [
                (Some(Scalar::Int(100)), "int".into()),
                (Some(Scalar::Int(100)), "float".into()),
                (Some(Scalar::Int(10000)), "int".into()),
                (Some(Scalar::Int(10000)), "float".into())
            ]
        );
        assert_eq!(j.get(sorted[0], "number"), Some(Scalar::Int(1)));
        // The name asv's compare table prints for each combination.
        let names: Vec<String> = sorted.iter().step_by(10).map(|r| j.text_of(j.get(r, "name"))).collect();
        assert_eq!(names[1], "bench_sort.Sorting.time_sorted(100, 'float')");
        let join = j.select(&toml::from_str("benchmark = \"bench_sort.time_join\"").unwrap());
        assert_eq!(j.text_of(j.get(join[0], "name")), "bench_sort.time_join");
    }

    /// Without `benchmarks.json` a parameter is named by its position and a benchmark's type
    /// by its name, as asv does for unnamed parameters and types.
    #[test]
    fn without_benchmarks_json_parameters_are_named_by_position() {
        let bytes = std::fs::read(format!("{ROOT}/{BEFORE}")).unwrap();
        let t = read("elsewhere/run.json", &bytes, None, None, &super::super::testing::no_sidecar).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.select(&toml::from_str("param_param1 = 10000\nparam_param2 = \"float\"").unwrap()).len(), 10 + 1);
        let track = j.select(&toml::from_str("benchmark = \"bench_sort.track_answer\"").unwrap());
        assert_eq!(j.text_of(j.get(track[0], "unit")), "unit");
    }

    #[test]
    fn a_timing_without_its_samples_is_refused_as_summary_only() {
        let err = read_fixture("asv/no-samples/vm/b444ec0a-existing-py_tmp_asvenv_bin_python3.json", None).unwrap_err();
        assert!(err.message.contains("holds only summaries, not samples"), "{}", err.message);
        assert!(err.message.contains("--record-samples"), "{}", err.message);
        assert!(err.message.contains("`bench_sort.Edge.time_maybe`"), "{}", err.message);
    }

    /// A results file nobody here wrote (asv_spyglass's test data, MIT), which asv wrote
    /// without `--record-samples`: detected, and refused at its first timing's median.
    #[test]
    fn a_public_results_file_without_samples_is_refused_at_its_first_timing() {
        let rel = "asv/spyglass/d6b286b8-virtualenv-py3.12-numpy.json";
        let err = read_fixture(rel, None).unwrap_err();
        assert!(err.message.starts_with(&format!("{rel}: line 1: this asv result (`benchmarks.TimeSuiteDecoratorSingle.time_keys`'s median")), "{}", err.message);
        assert!(err.message.contains("--record-samples"), "{}", err.message);
        let text = std::fs::read_to_string(format!("{ROOT}/{rel}")).unwrap();
        let at = text.find("\"benchmarks.TimeSuiteDecoratorSingle.time_keys\": [[").unwrap() + "\"benchmarks.TimeSuiteDecoratorSingle.time_keys\": [[".len();
        assert_eq!(err.position().unwrap(), format!("{rel}:1:{}", at + 1));
    }

    #[test]
    fn python_s_nan_is_read_only_in_an_asv_file() {
        let asv = "{\"commit_hash\": \"c\", \"result_columns\": [\"result\", \"params\", \"samples\"],\n\"results\": {\"b.time_x\": [[NaN, 1.5], [[\"1\", \"2\"]], [null, [1.0, 2.0]]]}, \"version\": 2}";
        let t = read_text("r.json", asv, None).unwrap();
        assert_eq!(t.format, Format::Asv);
        assert_eq!(samples(&t, "param_param1 = 2", "time_s").sorted(), [1.0, 2.0]);
        // A parameter written as a JSON number, not as asv's `repr` string, is that number.
        let t = read_text("r.json", &asv.replace("[\"1\", \"2\"]", "[1, 2]"), None).unwrap();
        assert_eq!(samples(&t, "param_param1 = 2", "time_s").sorted(), [1.0, 2.0]);
        let other = "{\"results\": [{\"command\": \"x\", \"times\": [NaN]}]}";
        let err = read_text("h.json", other, None).unwrap_err();
        assert!(err.message.contains("not valid JSON"), "{}", err.message);
    }

    #[test]
    fn malformed_files_are_located() {
        let cases = [
            ("{\"commit_hash\": \"c\", \"results\": {\"b.time_x\": 1.0}, \"version\": 1}", "r.json:1:1", "format version 1"),
            ("{\"commit_hash\": \"c\", \"result_columns\": [\"result\"], \"results\": {}, \"version\": 3}", "r.json:1:", "version 3 is not 2"),
            (
                "{\"commit_hash\": \"c\", \"result_columns\": [\"result\", \"params\"],\n\"results\": {\"b.time_x\": [[1.0], [[\"1\", \"2\"]]]}}",
                "r.json:2:",
                "1 results for 2 combinations",
            ),
            ("{\"commit_hash\": \"c\", \"result_columns\": [\"result\"],\n\"results\": {\"b.x\": [[1.0]]}}", "r.json:2:", "cannot tell what `b.x` measures"),
            (
                "{\"commit_hash\": \"c\", \"result_columns\": [\"result\", \"samples\"],\n\"results\": {\"b.time_x\": [[1.0], [[1.0, \"a\"]]]}}",
                "r.json:2:",
                "`samples` is a string, not a number",
            ),
            ("{\"commit_hash\": \"c\", \"result_columns\": [\"result\"],\n\"results\": {\"b.mem_x\": [[Infinity]]}}", "r.json:2:", "not a finite number"),
        ];
        for (text, at, message) in cases {
            let err = read_text("r.json", text, Some(Format::Asv)).unwrap_err();
            assert!(err.position().unwrap().starts_with(at), "{text}: {:?}", err.position());
            assert!(err.message.contains(message), "{text}: {}", err.message);
        }
    }

    /// Row names from asv's comparisons of several environments (the fixture's
    /// `compare-environments.txt`) and asv_spyglass's of two (its approved output).
    #[test]
    fn a_row_s_environments_are_split_from_its_benchmark() {
        use super::{measures_memory, split_environments};
        assert_eq!(
            split_environments("bench_sort.Sorting.time_sorted(100, 'int') [vm/existing-py_tmp_asvenv2_bin_python3]"),
            ("bench_sort.Sorting.time_sorted(100, 'int')", Some(("vm/existing-py_tmp_asvenv2_bin_python3", "vm/existing-py_tmp_asvenv2_bin_python3")))
        );
        assert_eq!(
            split_environments("benchmarks.time_sort(100) [rgx1gen11/virtualenv-py3.12-numpy -> rgx1gen11/rattler-py3.12-numpy]"),
            ("benchmarks.time_sort(100)", Some(("rgx1gen11/virtualenv-py3.12-numpy", "rgx1gen11/rattler-py3.12-numpy")))
        );
        // A parameter in brackets, or brackets that name no machine, are the name's own.
        for label in ["b.time_x('[a b]')", "b.time_x [draft]", "b.time_x(1) [a/b c]", "[m/e]"] {
            assert_eq!(split_environments(label), (label, None), "{label}");
        }
        // An environment's dots do not hide a memory benchmark's type.
        assert!(measures_memory("bench.mem_list [vm/virtualenv-py3.12-numpy]"));
        assert!(!measures_memory("bench.time_list [vm/virtualenv-py3.12-mem_x]"));
    }
}
