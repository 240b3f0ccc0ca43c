//! Evidence readers: every evidence format a check can read, each turned into the same table
//! of records that the JSONL reader gives ([`crate::evidence::jsonl::Jsonl`]). This module owns
//! choosing the format (given, or detected by file name and content) and the helpers the
//! readers share; each format is one file beside it. It never reads files itself: the caller
//! hands in the bytes, and a reader that needs another file (nvbench's sample sidecar,
//! criterion's `benchmark.json`) asks for it through the caller's `sidecar` function, so that
//! the caller keeps every path inside the repository root. It does no network or process work.
//!
//! | format | what it reads | records |
//! |---|---|---|
//! | `jsonl` | one JSON object a line | one a line, fields as written |
//! | `json` | an array of objects, or the array at `records = "a.b"` | one per element; nested objects flattened to `a.b` keys |
//! | `csv`, `tsv` | a header row, then rows (the `csv` crate) | one per row; numbers, `true`/`false`, empty = null |
//! | `criterion` | `target/criterion/<id>/new/sample.json` | one per sample: `id`, `group`, `function`, `value`, `sample`, `iters`, `batch_time_ns`, `time_ns` |
//! | `cargo-criterion` | `cargo criterion --message-format=json` | one per sample of each `benchmark-complete` line: `id`, `group`, `function`, `value`, `sample`, `iters`, `batch_time_ns`, `time_ns`, `unit` |
//! | `google-benchmark` | `--benchmark_format=json` with repetitions | one per `run_type = "iteration"` row: `name`, `run_name`, `repetition_index`, `iterations`, `real_time_ns`, `cpu_time_ns`, … |
//! | `nvbench` | `--jsonbin` JSON and its float32 sample files | one per sample: `benchmark`, `state`, `device`, axis values, `sample`, `gpu_time_s` |
//! | `hyperfine` | `--export-json` | one per run: `command`, `parameter_<name>`, `run`, `time_s`, `exit_code` |
//! | `pytest-benchmark` | `--benchmark-json` | one per round: `name`, `fullname`, `group`, `param`, `param_<k>`, `round`, `iterations`, `time_s` |
//! | `pyperf` | pyperf's JSON (`-o FILE`, pyperformance's results once decompressed) | one per value of every run that has values (warmups and calibration runs left out, as pyperf's statistics leave them): `name`, `run`, `value_index`, `time_s` (unit `second`), `value` and `bytes` (unit `byte`) or `value` (unit `integer`), `unit`, `loops`, `inner_loops`, `date` |
//! | `go-bench` | `go test -bench . -count N` output (text) | one per result line: `name`, `procs`, `iterations`, `sample`, `time_ns`, `bytes_per_op`, `allocs_per_op`, `mb_per_s`, other units, configuration (`goos`, `pkg`, `cpu`, …) |
//! | `jmh` | JMH's `-rf json` result file | one per raw value (each iteration of each fork; each sample of a `sample`-mode histogram; each value of a secondary metric): `benchmark`, `name`, `metric`, `mode`, `param_<name>`, `fork`, `iteration`, `score`, `unit`, `time_ns`/`time_us`/`time_ms`/`time_s` or `ops_per_s` |
//! | `benchmarkdotnet` | BenchmarkDotNet's `<Type>-measurements.csv` (`,` or `;`), or its JSON export (`-report-full.json`, `-report-full-compressed.json`, `-report-brief.json`, …); or its log (`BenchmarkDotNet.Artifacts/<Title>.log`, the same text as its console output); or its disassembly report `<Type>-asm.md` | one per `Workload`/`Result` measurement (what its table is computed from; in a brief export, each value of `Statistics.OriginalValues`, the same times; in the log, each `WorkloadResult` line of the case's launches): `benchmark`, `name`, `type`, `namespace` (not from the log), `method`, `params`, `param_<Name>`, `job`, `case`, `launch`, `iteration`, `operations`, `time_ns`, `value_ns` (CSV only), `gen0_per_1000_ops`…`gen2_per_1000_ops`, `allocated_bytes`; from `-asm.md`, one per benchmark case (`##` section): `benchmark`, `name`, `type`, `namespace`, `method`, `runtime`, `job`, `code_size_bytes` (its `Code Size`), `methods` |
//! | `ncu` | Nsight Compute's CSV: `ncu --csv` (the details page) or `ncu --csv --page raw`, with ncu's `==PROF==` lines and the program's output around it | one per kernel launch: `id`, `kernel`, `function`, `process_id`, `process`, `host`, `context`, `stream`, `device`, `cc`, `block_size`, `grid_size`, each metric in its base unit (`duration_ns`, `dram_throughput_pct`, `memory_throughput_bytes_per_s`; raw page: `gpu__time_duration.sum_ns`) |
//! | `asv` | airspeed velocity's results file (`asv run --record-samples`), `benchmarks.json` above it naming the parameters | one per sample of every benchmark and parameter combination (one per memory or tracking result): `benchmark`, `name`, `param_<name>`, `sample`, `time_s`, `memory_bytes` or `value` and `unit`, `number`, `commit`, `machine`, `env` |
//! | `nccl-tests` | nccl-tests' `-J FILE` JSON (`all_reduce_perf` …) of a run with `-I 1` | one per timed iteration of each size's out-of-place and in-place halves: `name`, `size_bytes`, `count`, `type`, `redop`, `root`, `place`, `iteration`, `skipped`, `time_us` |
//! | `nsys` | Nsight Systems' per-event reports (`nsys stats --report cuda_gpu_trace --format csv`, one file a report or several on standard output), its summaries refused | one per event: `report`, each column by its title in snake case with its unit's suffix, times in nanoseconds (`start_ns`, `duration_ns`, `grdx`, `strm`, `name`), `function` on a kernel's row |
//!
//! `src/evidence/readers/README.md` lists every field of every harness format with its meaning.
//!
//! **Invariant:** a reader never panics on its input. Every malformed file gives a
//! [`Diagnostic`] located at `file:line:col` with the offending text, and every record's
//! `line` is the line of the source file where the record (or its sample) is written.
//!
//! **Invariant:** a file that holds only summaries (criterion's `estimates.json`, Google
//! Benchmark's aggregates, nvbench's `--json` without `--jsonbin`, ncu's per-kernel
//! `--print-summary`, nsys's `*_sum` reports, nccl-tests' JSON without `-I 1`) is refused, with a sentence saying what to export instead: a statistic is
//! recomputed from samples or not at all.
//!
//! Time fields carry their unit as a suffix (`_s`, `_ns`), from which the checks infer units;
//! ncu's metrics carry their base unit's (`_ns`, `_bytes`, `_bytes_per_s`, `_pct`).

pub(crate) mod asv;
pub(crate) mod benchmarkdotnet;
mod benchmarkdotnet_asm;
mod benchmarkdotnet_json;
mod benchmarkdotnet_log;
mod cargo_criterion;
mod criterion;
pub(crate) mod delimited;
pub(crate) mod go_bench;
mod google_benchmark;
mod hyperfine;
pub(crate) mod jmh;
mod json;
mod jsonl;
mod nccl_tests;
pub(crate) mod ncu;
mod nsys;
mod nvbench;
mod pyperf;
mod pytest_benchmark;
pub(crate) mod ruled;
mod tree;

use std::fmt;
use std::ops::Range;
use std::rc::Rc;

use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl};
use tree::{Kind, Node, Number};

/// An evidence format, as a registry names it (`format = "hyperfine"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Format {
    Jsonl,
    Json,
    Csv,
    Tsv,
    Criterion,
    CargoCriterion,
    GoogleBenchmark,
    Nvbench,
    Hyperfine,
    PytestBenchmark,
    Pyperf,
    GoBench,
    Jmh,
    BenchmarkDotNet,
    Ncu,
    Nsys,
    Asv,
    NcclTests,
}

/// How the format of a file was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detected {
    /// The caller named it (`format`, or `records`, which only JSON records take).
    Given,
    /// From the file's name: its extension, or criterion's directory layout.
    ByName,
    /// From what the file holds.
    ByContent,
}

/// A file read as a table of records, and how its format was chosen.
#[derive(Debug)]
pub(crate) struct Table {
    pub(crate) format: Format,
    pub(crate) detected: Detected,
    /// Shared with [`crate::evidence::store::Evidence::jsonl`] for a JSONL file, which is then
    /// parsed once for both.
    pub(crate) jsonl: Rc<Jsonl>,
    /// Which of a format's layouts was read, for the report, where a format has several
    /// (BenchmarkDotNet's measurements CSV, its JSON exports, its log and its disassembly report).
    pub(crate) layout: Option<&'static str>,
}

/// Reads another file for a reader (a sidecar), by root-relative path; the error says why not.
pub(crate) type Sidecar<'a> = &'a dyn Fn(&str) -> Result<Vec<u8>, String>;

/// Reads the evidence file `rel_path` (its `bytes`) as `format`, or as the format its name and
/// content show when none is given. `records` is the dotted path to the array of records in a
/// JSON document (`json` only). `sidecar` reads the other files a format refers to, by path
/// relative to the root; readers resolve names relative to `rel_path`'s directory.
pub(crate) fn read(rel_path: &str, bytes: &[u8], format: Option<Format>, records: Option<&str>, sidecar: Sidecar<'_>) -> Result<Table, Diagnostic> {
    read_with(rel_path, bytes, format, records, sidecar, &|| Jsonl::parse(rel_path, bytes).map(Rc::new))
}

/// As [`read`], with the JSONL file (when the format is `jsonl`) from `jsonl`, which the
/// evidence reader answers from what it already parsed of the same bytes.
pub(crate) fn read_with(
    rel_path: &str,
    bytes: &[u8],
    format: Option<Format>,
    records: Option<&str>,
    sidecar: Sidecar<'_>,
    jsonl: &dyn Fn() -> Result<Rc<Jsonl>, Diagnostic>,
) -> Result<Table, Diagnostic> {
    if let (Some(f), Some(_)) = (format, records)
        && f != Format::Json
    {
        return Err(Diagnostic::plain(format!("{rel_path}: `records` applies to the json format only, not to {}", f.name())));
    }
    // A gzip-compressed file (pyperformance's `.json.gz`) is read as the file it holds, named
    // without its `.gz` where the name tells the format. Its hash, where a manifest checks it,
    // stays that of the compressed bytes, as written.
    let inflated = inflated(rel_path, bytes)?;
    let bytes = inflated.as_deref().unwrap_or(bytes);
    let text = utf8(rel_path, bytes)?;
    let named = strip_gz(rel_path);
    let (format, detected, doc) = match (format, records) {
        (Some(f), _) => (f, Detected::Given, None),
        (None, Some(_)) => (Format::Json, Detected::Given, None),
        (None, None) => detect(named, text)?,
    };
    let src = Source::new(rel_path, text);
    // A document parsed for detection is read once; otherwise the reader parses it now.
    let parsed = std::cell::Cell::new(doc);
    let doc = || -> Result<Node, Diagnostic> {
        match parsed.take() {
            Some(d) => Ok(d),
            None => src.parse_json(),
        }
    };
    let mut layout = None;
    let jsonl = match format {
        Format::Jsonl if inflated.is_some() => return Ok(Table { format, detected, jsonl: Rc::new(Jsonl::parse(rel_path, bytes)?), layout }),
        Format::Jsonl => return Ok(Table { format, detected, jsonl: jsonl()?, layout }),
        Format::Json => json::read(&src, &doc()?, records)?,
        Format::Csv => delimited::read(&src, b',')?,
        Format::Tsv => delimited::read(&src, b'\t')?,
        Format::Criterion => criterion::read(&src, &doc()?, sidecar)?,
        Format::CargoCriterion => cargo_criterion::read(&src)?,
        Format::GoogleBenchmark => google_benchmark::read(&src, &doc()?)?,
        Format::Nvbench => nvbench::read(&src, &doc()?, sidecar)?,
        Format::Hyperfine => hyperfine::read(&src, &doc()?)?,
        Format::PytestBenchmark => pytest_benchmark::read(&src, &doc()?)?,
        Format::Pyperf => pyperf::read(&src, &doc()?)?,
        // asv writes Python's `NaN` for a skipped benchmark, which plain JSON has not.
        Format::Asv => asv::read(&src, &src.parse_python_json_or(parsed.take())?, sidecar)?,
        Format::NcclTests => nccl_tests::read(&src, &doc()?)?,
        Format::GoBench => go_bench::read(&src)?,
        Format::Jmh => jmh::read(&src, &doc()?)?,
        // BenchmarkDotNet's measurements file and JSON export give the same records: its JSON
        // export is an object, its measurements file a table whose header begins `Target`. Its
        // disassembly report, which begins with a `## ` section, gives one record per case. Its
        // log, whose lines begin `// Benchmark: ` and `WorkloadResult`, gives the same records
        // as the measurements file.
        Format::BenchmarkDotNet if benchmarkdotnet_json::is_json(text) => {
            let (records, read) = benchmarkdotnet_json::read(&src, &doc()?)?;
            layout = Some(read);
            records
        }
        Format::BenchmarkDotNet if benchmarkdotnet_asm::is_asm_name(rel_path) || benchmarkdotnet_asm::begins_like(text) => {
            layout = Some(benchmarkdotnet_asm::LAYOUT);
            benchmarkdotnet_asm::read(&src)?
        }
        Format::BenchmarkDotNet if benchmarkdotnet_log::looks_like(text) => {
            layout = Some(benchmarkdotnet_log::LAYOUT);
            benchmarkdotnet_log::read(&src)?
        }
        Format::BenchmarkDotNet => {
            layout = Some("BenchmarkDotNet measurements CSV");
            benchmarkdotnet::read(&src)?
        }
        Format::Ncu => {
            let (records, read) = ncu::read(&src)?;
            layout = Some(read);
            records
        }
        Format::Nsys => {
            let (records, read) = nsys::read(&src)?;
            layout = Some(read);
            records
        }
    };
    Ok(Table { format, detected, jsonl: Rc::new(jsonl), layout })
}

impl Format {
    pub(crate) const ALL: [Format; 18] = [
        Format::Jsonl,
        Format::Json,
        Format::Csv,
        Format::Tsv,
        Format::Criterion,
        Format::CargoCriterion,
        Format::GoogleBenchmark,
        Format::Nvbench,
        Format::Hyperfine,
        Format::PytestBenchmark,
        Format::Pyperf,
        Format::GoBench,
        Format::Jmh,
        Format::BenchmarkDotNet,
        Format::Ncu,
        Format::Nsys,
        Format::Asv,
        Format::NcclTests,
    ];

    /// The format a registry's `format = "..."` names.
    pub(crate) fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The name a registry writes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Json => "json",
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Criterion => "criterion",
            Format::CargoCriterion => "cargo-criterion",
            Format::GoogleBenchmark => "google-benchmark",
            Format::Nvbench => "nvbench",
            Format::Hyperfine => "hyperfine",
            Format::PytestBenchmark => "pytest-benchmark",
            Format::Pyperf => "pyperf",
            Format::GoBench => "go-bench",
            Format::Jmh => "jmh",
            Format::BenchmarkDotNet => "benchmarkdotnet",
            Format::Ncu => "ncu",
            Format::Nsys => "nsys",
            Format::Asv => "asv",
            Format::NcclTests => "nccl-tests",
        }
    }

    /// What the format is, in words, for reports: "read as hyperfine JSON".
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Format::Jsonl => "JSON Lines",
            Format::Json => "JSON records",
            Format::Csv => "CSV",
            Format::Tsv => "TSV",
            Format::Criterion => "criterion sample.json",
            Format::CargoCriterion => "cargo-criterion JSON messages",
            Format::GoogleBenchmark => "Google Benchmark JSON",
            Format::Nvbench => "nvbench JSON with --jsonbin samples",
            Format::Hyperfine => "hyperfine JSON",
            Format::PytestBenchmark => "pytest-benchmark JSON",
            Format::Pyperf => "pyperf JSON",
            Format::GoBench => "Go benchmark output",
            Format::Jmh => "JMH JSON results",
            Format::BenchmarkDotNet => "BenchmarkDotNet measurements",
            Format::Ncu => "Nsight Compute CSV",
            Format::Nsys => "Nsight Systems `nsys stats` output",
            Format::Asv => "asv results JSON",
            Format::NcclTests => "nccl-tests JSON",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Table {
    /// How the file was read, for the report: "read as hyperfine JSON (detected)".
    pub(crate) fn read_as(&self) -> String {
        let what = self.layout.unwrap_or(self.format.describe());
        match self.detected {
            Detected::Given => format!("read as {what}"),
            Detected::ByName => format!("read as {what} (detected by its name)"),
            Detected::ByContent => format!("read as {what} (detected)"),
        }
    }
}

/// The format of a file none was given for: by name where the name says it, else by content.
/// A JSON document parsed to look at it is handed on, so it is read once.
fn detect(rel_path: &str, text: &str) -> Result<(Format, Detected, Option<Node>), Diagnostic> {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "jsonl" | "ndjson" if cargo_criterion::first_line_is_a_message(text) => return Ok((Format::CargoCriterion, Detected::ByContent, None)),
        "jsonl" | "ndjson" => return Ok((Format::Jsonl, Detected::ByName, None)),
        // BenchmarkDotNet's measurements file is a CSV file: told apart by its name where its
        // header begins as BenchmarkDotNet's does, else by that header, before any other CSV
        // file is taken for a plain table.
        "csv" if benchmarkdotnet::is_measurements_name(rel_path) && benchmarkdotnet::begins_like(text) => return Ok((Format::BenchmarkDotNet, Detected::ByName, None)),
        "csv" if benchmarkdotnet::looks_like(text) => return Ok((Format::BenchmarkDotNet, Detected::ByContent, None)),
        // Nsight Compute's CSV output likewise, by its header (after the lines ncu and the
        // profiled program print before it).
        "csv" if ncu::looks_like(text) => return Ok((Format::Ncu, Detected::ByContent, None)),
        // And Nsight Systems' reports, by a header that names a start or total time as nsys
        // spells it (`Start (ns)`), after the lines nsys prints before it.
        "csv" | "tsv" | "tab" if nsys::looks_like(text) => return Ok((Format::Nsys, Detected::ByContent, None)),
        "csv" => return Ok((Format::Csv, Detected::ByName, None)),
        "tsv" | "tab" => return Ok((Format::Tsv, Detected::ByName, None)),
        // BenchmarkDotNet's disassembly report is Markdown, named `<Type>-asm.md`.
        "md" if benchmarkdotnet_asm::is_asm_name(rel_path) => return Ok((Format::BenchmarkDotNet, Detected::ByName, None)),
        _ => {}
    }
    if criterion::is_criterion_path(rel_path) {
        return Ok((Format::Criterion, Detected::ByName, None));
    }
    let src = Source::new(rel_path, text);
    let first_char = text.trim_start_matches('\u{feff}').trim_start().chars().next();
    // An empty file is no format at all: most often a harness's output cut short or a
    // redirection that wrote nothing, which is better said plainly than as an unknown format.
    if first_char.is_none() {
        let what = if text.is_empty() { "this file is empty" } else { "this file holds only white space" };
        return Err(src
            .error(0..text.len(), format!("{what}: there are no records to read"), "no content")
            .with_note("write the harness's output into it again, or point the check at another file"));
    }
    match tree::parse(text) {
        // BenchmarkDotNet's JSON export by the names only its `JsonExporter` writes, before its
        // content is looked at.
        Ok(doc) if benchmarkdotnet_json::is_named(rel_path, &doc) => Ok((Format::BenchmarkDotNet, Detected::ByName, Some(doc))),
        Ok(doc) => {
            let format = classify(&doc, text).ok_or_else(|| {
                src.error(
                    head(&doc),
                    "cannot tell which format this JSON object is: it is none of the harness outputs claimcheck reads",
                    "this object",
                )
                .with_note("name the format (`format = \"json\"` with `records = \"path.to.array\"` for an array of records inside an object), or point at a file of one of: jsonl, json, csv, tsv, criterion, cargo-criterion, google-benchmark, nvbench, hyperfine, pytest-benchmark, pyperf, go-bench, jmh, benchmarkdotnet, ncu, nsys, asv, nccl-tests")
            })?;
            Ok((format, Detected::ByContent, Some(doc)))
        }
        Err(err) => {
            // asv's results file holds Python's `NaN` where a benchmark was skipped: read so, it
            // is told apart by its keys; any other file keeps its syntax error.
            if let Ok(doc) = tree::parse_python(text)
                && asv::looks_like(&doc)
            {
                return Ok((Format::Asv, Detected::ByContent, Some(doc)));
            }
            // Several JSON objects, one a line: JSON Lines, or cargo-criterion's messages.
            if first_char == Some('{') {
                let first_line = text.trim_start_matches('\u{feff}').lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                if let Ok(line) = tree::parse(first_line)
                    && line.as_object().is_some()
                {
                    let format = if cargo_criterion::first_line_is_a_message(text) { Format::CargoCriterion } else { Format::Jsonl };
                    return Ok((format, Detected::ByContent, None));
                }
            }
            // nsys's own output begins `[4/8] Executing 'cuda_gpu_trace' stats report`, which is
            // no JSON array: told apart before a `[` is taken for broken JSON.
            if first_char == Some('[') && ext != "json" && nsys::looks_like(text) {
                return Ok((Format::Nsys, Detected::ByContent, None));
            }
            if matches!(first_char, Some('{' | '[')) || ext == "json" {
                return Err(src.syntax(err));
            }
            // BenchmarkDotNet's disassembly report under another name, by its `## ` section and
            // its ```assembly blocks, which no other text claimcheck reads begins with.
            if benchmarkdotnet_asm::looks_like(text) {
                return Ok((Format::BenchmarkDotNet, Detected::ByContent, None));
            }
            // BenchmarkDotNet's log (its console output) by a case's `// Benchmark: ` line and a
            // measurement line after it, before its lines with commas are taken for a table.
            if benchmarkdotnet_log::looks_like(text) {
                return Ok((Format::BenchmarkDotNet, Detected::ByContent, None));
            }
            // Go's output is text whose result lines hold tabs: it is told apart before a
            // first line with tabs or commas is taken for a table's header.
            if go_bench::looks_like(text) {
                return Ok((Format::GoBench, Detected::ByContent, None));
            }
            // ncu's output begins with its own messages or the program's, and its header holds
            // commas: it is told apart before any such text is taken for a table.
            if ncu::looks_like(text) {
                return Ok((Format::Ncu, Detected::ByContent, None));
            }
            // nsys's output likewise: its own lines, then a header with tabs or commas.
            if nsys::looks_like(text) {
                return Ok((Format::Nsys, Detected::ByContent, None));
            }
            if benchmarkdotnet::looks_like(text) {
                return Ok((Format::BenchmarkDotNet, Detected::ByContent, None));
            }
            let header = text.lines().next().unwrap_or("");
            if header.contains('\t') {
                Ok((Format::Tsv, Detected::ByContent, None))
            } else if header.contains(',') {
                Ok((Format::Csv, Detected::ByContent, None))
            } else {
                Err(src.error(0..header.len(), "cannot tell the format of this file: it is neither JSON, nor a table with a header row, nor Go benchmark output", "first line").with_note(
                    "name the format with `format = \"...\"`: jsonl, json, csv, tsv, criterion, cargo-criterion, google-benchmark, nvbench, hyperfine, pytest-benchmark, pyperf, go-bench, jmh, benchmarkdotnet, ncu, nsys, asv, nccl-tests",
                ))
            }
        }
    }
}

/// Which format a whole JSON document is, by the keys each harness writes.
fn classify(doc: &Node, text: &str) -> Option<Format> {
    // JMH writes an array, each element a result holding its raw values: told apart before any
    // other array is taken for plain records.
    if jmh::looks_like(doc) {
        return Some(Format::Jmh);
    }
    if doc.as_array().is_some() {
        return Some(Format::Json);
    }
    doc.as_object()?;
    // BenchmarkDotNet's compressed export is one object on one line: told apart before such a
    // file is taken for JSON Lines.
    if benchmarkdotnet_json::looks_like(doc) {
        return Some(Format::BenchmarkDotNet);
    }
    // pyperf writes its file compact, on one line: told apart before such a file is taken
    // for JSON Lines.
    if pyperf::looks_like(doc) {
        return Some(Format::Pyperf);
    }
    // asv too writes its results file on one line.
    if asv::looks_like(doc) {
        return Some(Format::Asv);
    }
    // nccl-tests writes its whole file on one line too.
    if nccl_tests::looks_like(doc) {
        return Some(Format::NcclTests);
    }
    let n_lines = text.trim().lines().count();
    if n_lines == 1 && cargo_criterion::first_line_is_a_message(text) {
        return Some(Format::CargoCriterion);
    }
    if hyperfine::looks_like(doc) {
        return Some(Format::Hyperfine);
    }
    if criterion::looks_like(doc) {
        return Some(Format::Criterion);
    }
    if google_benchmark::looks_like(doc) {
        return Some(Format::GoogleBenchmark);
    }
    if nvbench::looks_like(doc) {
        return Some(Format::Nvbench);
    }
    if pytest_benchmark::looks_like(doc) {
        return Some(Format::PytestBenchmark);
    }
    // A file of one JSON object on one line is JSON Lines with one record.
    if n_lines == 1 {
        return Some(Format::Jsonl);
    }
    None
}

/// The most bytes a compressed evidence file may decompress to: far above any harness's output
/// (pyperformance's full suite is a few tens of MB), and far below what would exhaust memory,
/// so that a small file that inflates without end (a "gzip bomb") is refused, not followed.
pub(crate) const GUNZIP_LIMIT: u64 = 1 << 30;

/// What a gzip-compressed file holds (`None` for a file that is not compressed), as the readers
/// read it: the lines of an error or a record are lines of this text.
pub(crate) fn inflated(path: &str, bytes: &[u8]) -> Result<Option<Vec<u8>>, Diagnostic> {
    if bytes.starts_with(&[0x1f, 0x8b]) { gunzip(path, bytes, GUNZIP_LIMIT).map(Some) } else { Ok(None) }
}

/// `path` without a `.gz` ending, as the name of the file it holds.
pub(crate) fn strip_gz(path: &str) -> &str {
    match path.len().checked_sub(3).and_then(|k| path.get(k..).map(|end| (k, end))) {
        Some((k, end)) if end.eq_ignore_ascii_case(".gz") => &path[..k],
        _ => path,
    }
}

/// The bytes a gzip file holds (every member, as `gunzip` reads concatenated ones), or a
/// located error: a stream cut short (a file still being written) or damaged, or one that
/// decompresses past `limit` bytes ([`GUNZIP_LIMIT`]).
fn gunzip(path: &str, bytes: &[u8], limit: u64) -> Result<Vec<u8>, Diagnostic> {
    use std::io::Read;
    let mut out = Vec::new();
    let read = flate2::read::MultiGzDecoder::new(bytes).take(limit + 1).read_to_end(&mut out);
    let failed = |why: String| Diagnostic::at_line(format!("{path}: line 1: {why}"), path, 1, "1f 8b …", "gzip data");
    match read {
        Err(e) => Err(failed(format!("this gzip-compressed file cannot be decompressed ({e}): cut short or damaged"))
            .with_note("a file still being written, or copied in part, ends early; `gzip -t` tests one")),
        Ok(_) if out.len() as u64 > limit => Err(failed(format!("this gzip-compressed file decompresses to more than {limit} bytes, the most claimcheck reads"))),
        Ok(_) => Ok(out),
    }
}

/// `bytes` as text, or an error naming the line where it stops being UTF-8.
fn utf8<'a>(path: &str, bytes: &'a [u8]) -> Result<&'a str, Diagnostic> {
    std::str::from_utf8(bytes).map_err(|e| Diagnostic::not_utf8(path, bytes, e.valid_up_to()))
}

/// A source file's text with its line starts, to locate records and errors.
pub(crate) struct Source<'a> {
    pub(crate) path: &'a str,
    pub(crate) text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Source<'a> {
    pub(crate) fn new(path: &'a str, text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source { path, text, line_starts }
    }

    /// The 1-based line that holds byte `offset`, and that line's span (with its newline).
    pub(crate) fn locate(&self, offset: usize) -> (usize, Range<usize>) {
        let idx = self.line_starts.partition_point(|s| *s <= offset).max(1) - 1;
        let start = self.line_starts[idx];
        let end = self.line_starts.get(idx + 1).copied().unwrap_or(self.text.len());
        (idx + 1, start..end)
    }

    /// A diagnostic at `span`, its message prefixed with the file and line, as the JSONL
    /// reader's are.
    pub(crate) fn error(&self, span: Range<usize>, message: impl fmt::Display, label: impl Into<String>) -> Diagnostic {
        let (line, _) = self.locate(span.start);
        Diagnostic::at(format!("{}: line {line}: {message}", self.path), self.path, self.text, span, label)
    }

    /// The text as one JSON document, or its located syntax error.
    pub(crate) fn parse_json(&self) -> Result<Node, Diagnostic> {
        tree::parse(self.text).map_err(|e| self.syntax(e))
    }

    /// `doc` where detection parsed it already, else the text as JSON with Python's `NaN`,
    /// `Infinity` and `-Infinity` taken for numbers ([`tree::parse_python`]).
    fn parse_python_json_or(&self, doc: Option<Node>) -> Result<Node, Diagnostic> {
        match doc {
            Some(doc) => Ok(doc),
            None => tree::parse_python(self.text).map_err(|e| self.syntax(e)),
        }
    }

    fn syntax(&self, err: tree::SyntaxError) -> Diagnostic {
        let lines_of_objects = err.message.starts_with("more text after") && self.text[err.span.start..].starts_with('{');
        let not_a_number = matches!(self.text.get(err.span.clone()), Some("NaN" | "Infinity" | "-Infinity"));
        let d = self.error(err.span, format!("not valid JSON: {}", err.message), err.label);
        if lines_of_objects {
            d.with_note("one JSON object a line is JSON Lines: `format = \"jsonl\"`")
        } else if not_a_number {
            // BenchmarkDotNet before 0.13.0 wrote so a statistic it could not compute (the
            // error of two results or fewer), and some other writers do too.
            d.with_note("JSON has no `NaN` or `Infinity`: write the value as `null` (BenchmarkDotNet 0.13.0 and later write `\"\"`)")
        } else {
            d
        }
    }

    /// A record's place: the line where `node` starts, and that line's span.
    pub(crate) fn at(&self, node: &Node) -> (usize, Range<usize>) {
        self.locate(node.span.start)
    }

    /// The error for a value of the wrong kind: "`times` is a string, not an array".
    pub(crate) fn wrong(&self, node: &Node, name: &str, expected: &str) -> Diagnostic {
        self.error(head(node), format!("`{name}` is {}, not {expected}", node.what()), format!("expected {expected}"))
    }

    /// The member `key` of `object`, or an error at the object naming what it is.
    pub(crate) fn member<'n>(&self, object: &'n Node, key: &str, what: &str) -> Result<&'n Node, Diagnostic> {
        if object.as_object().is_none() {
            return Err(self.error(head(object), format!("{what} is {}, not an object", object.what()), "expected an object"));
        }
        object.get(key).ok_or_else(|| self.error(head(object), format!("no `{key}` in this {what}"), format!("`{key}` missing")))
    }

    /// The array `key` of `object`.
    pub(crate) fn array<'n>(&self, object: &'n Node, key: &str, what: &str) -> Result<&'n [Node], Diagnostic> {
        let node = self.member(object, key, what)?;
        node.as_array().ok_or_else(|| self.wrong(node, key, "an array"))
    }

    /// The string `key` of `object`.
    pub(crate) fn string<'n>(&self, object: &'n Node, key: &str, what: &str) -> Result<&'n str, Diagnostic> {
        let node = self.member(object, key, what)?;
        node.as_str().ok_or_else(|| self.wrong(node, key, "a string"))
    }

    /// `node` as a finite number; `name` says what it is in the error.
    pub(crate) fn finite(&self, node: &Node, name: &str) -> Result<f64, Diagnostic> {
        match node.f64(self.text) {
            Some(v) if v.is_finite() => Ok(v),
            Some(_) if matches!(&self.text[node.span.clone()], "NaN" | "Infinity" | "-Infinity") => {
                Err(self.error(node.span.clone(), format!("`{name}` is `{}`, not a finite number", &self.text[node.span.clone()]), "not finite"))
            }
            Some(_) => Err(self.error(node.span.clone(), format!("`{name}` is too large to be a finite number"), "not finite")),
            None => Err(self.wrong(node, name, "a number")),
        }
    }

    /// Each element of `items` as a finite number.
    pub(crate) fn numbers(&self, items: &[Node], name: &str) -> Result<Vec<f64>, Diagnostic> {
        items.iter().map(|n| self.finite(n, name)).collect()
    }

    /// The refusal of a file that holds summaries and no samples: `what` it is, and what to
    /// export instead.
    pub(crate) fn summary_only(&self, span: Range<usize>, what: &str, instead: &str) -> Diagnostic {
        self.error(span, format!("{what} holds only summaries, not samples, so no statistic can be recomputed from it: {instead}"), "summaries only")
            .with_note("a `json` check can still read one value from this file")
    }
}

/// A JSON scalar as a field value; an object or array is only marked, as in JSONL.
pub(crate) fn scalar<'n>(node: &'n Node, text: &str) -> FieldValue<'n> {
    match &node.kind {
        Kind::Null => FieldValue::Null,
        Kind::Bool(b) => FieldValue::Bool(*b),
        Kind::Number => match node.number(text) {
            Some(Number::Int(i)) => FieldValue::Int(i),
            Some(Number::Float(f)) => FieldValue::Float(f),
            None => FieldValue::Null,
        },
        Kind::Str(s) => FieldValue::Str(s),
        Kind::Array(_) | Kind::Object(_) => FieldValue::Nested,
    }
}

/// The first character of a value, to underline an object or array without all its lines.
pub(crate) fn head(node: &Node) -> Range<usize> {
    node.span.start..(node.span.start + 1).min(node.span.end)
}

/// The root-relative path of `name` written in the file `rel_path`, resolved against that
/// file's directory, with `.` and `dir/..` folded. A name that climbs out of the root stays
/// as it is, for the caller's sidecar function to refuse.
pub(crate) fn beside(rel_path: &str, name: &str) -> String {
    if name.starts_with('/') {
        return name.to_string();
    }
    let dir = rel_path.rsplit_once('/').map_or("", |(d, _)| d);
    let mut parts: Vec<&str> = Vec::new();
    for part in dir.split('/').chain(name.split('/')) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[cfg(test)]
pub(crate) mod testing {
    //! Fixture access for the readers' tests.

    use super::*;

    /// The root of the harness fixtures.
    pub(crate) const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/harness");

    /// Reads `rel` (under the fixtures' root) as `format`, sidecars from the same tree.
    pub(crate) fn read_fixture(rel: &str, format: Option<Format>) -> Result<Table, Diagnostic> {
        let bytes = std::fs::read(format!("{ROOT}/{rel}")).unwrap_or_else(|e| panic!("{rel}: {e}"));
        read(rel, &bytes, format, None, &fixture_sidecar)
    }

    pub(crate) fn fixture_sidecar(rel: &str) -> Result<Vec<u8>, String> {
        std::fs::read(format!("{ROOT}/{rel}")).map_err(|e| e.to_string())
    }

    /// A sidecar function for inputs that need none.
    pub(crate) fn no_sidecar(rel: &str) -> Result<Vec<u8>, String> {
        Err(format!("{rel}: no such file"))
    }

    /// Reads `text` as the file `path`.
    pub(crate) fn read_text(path: &str, text: &str, format: Option<Format>) -> Result<Table, Diagnostic> {
        read(path, text.as_bytes(), format, None, &no_sidecar)
    }

    /// The numeric `field` of every record whose fields equal `select` (TOML), as samples.
    pub(crate) fn samples(table: &Table, select: &str, field: &str) -> crate::stats::Samples {
        let j = &table.jsonl;
        let selected = j.select(&toml::from_str(select).unwrap());
        assert!(!selected.is_empty(), "{select} selects nothing");
        j.samples(&selected, field).unwrap()
    }

    /// The JSON file `rel` under the fixtures' root, as serde_json reads it, for the harness's
    /// own numbers.
    pub(crate) fn json_fixture(rel: &str) -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(format!("{ROOT}/{rel}")).unwrap()).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    #[test]
    fn every_format_name_parses_back() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.name()), Some(f));
        }
        assert_eq!(Format::parse("JSON"), None);
    }

    #[test]
    fn formats_are_detected_by_name_then_content() {
        let cases = [
            ("e/a.jsonl", "{\"t\":1}\n", Format::Jsonl, Detected::ByName),
            ("e/a.csv", "t\n1\n", Format::Csv, Detected::ByName),
            ("e/a.tsv", "t\n1\n", Format::Tsv, Detected::ByName),
            ("e/a.json", "[{\"t\":1}]", Format::Json, Detected::ByContent),
            ("e/a.json", "{\"t\":1}\n{\"t\":2}\n", Format::Jsonl, Detected::ByContent),
            ("e/a.json", "{\"t\":1}", Format::Jsonl, Detected::ByContent),
            ("e/a.txt", "a\tt\nx\t1\n", Format::Tsv, Detected::ByContent),
            ("e/a.txt", "a,t\nx,1\n", Format::Csv, Detected::ByContent),
            ("e/a.txt", "goos: linux\nBenchmarkA-8 \t 10 \t 2.5 ns/op\n", Format::GoBench, Detected::ByContent),
            ("e/old", "BenchmarkA-8\t10\t2.5 ns/op\t3 B/op\nPASS\n", Format::GoBench, Detected::ByContent),
            ("e/a.tsv", "BenchmarkA-8\t10\t2.5 ns/op\n", Format::Tsv, Detected::ByName),
            (
                "e/jmh-result.json",
                "[{\"benchmark\": \"a.B.m\", \"mode\": \"avgt\", \"threads\": 1, \"forks\": 1, \"primaryMetric\": {\"scoreUnit\": \"ns/op\", \"rawData\": [[1.5]]}}]",
                Format::Jmh,
                Detected::ByContent,
            ),
            ("e/b.json", "[{\"benchmark\": \"a.B.m\"}]", Format::Json, Detected::ByContent),
            ("e/other-measurements.csv", "t\n1\n", Format::Csv, Detected::ByName),
            (
                "e/x.json",
                "{\"Title\":\"T\",\"HostEnvironmentInfo\":{},\"Benchmarks\":[{\"Type\":\"T\",\"Method\":\"M\",\"Statistics\":{\"OriginalValues\":[1.5]}}]}\n",
                Format::BenchmarkDotNet,
                Detected::ByContent,
            ),
            ("e/x-report.json", "{\"Benchmarks\":[]}\n", Format::Jsonl, Detected::ByContent),
            (
                "e/ncu.csv",
                "==PROF== Connected to process 1 (/x)\nok\n\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\"0\",\"1\",\"k()\",\"Duration\",\"ns\",\"2,976.5\"\n",
                Format::Ncu,
                Detected::ByContent,
            ),
            ("e/ncu.txt", "\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\"\n\"\",\"\",\"\",\"ns\"\n\"0\",\"k()\",\"9.0\",\"2,976.5\"\n", Format::Ncu, Detected::ByContent),
            ("e/plain.csv", "\"ID\",\"Process ID\",\"Name\"\n\"0\",\"1\",\"k\"\n", Format::Csv, Detected::ByName),
            // nccl-tests writes its file on one line, which is not taken for JSON Lines.
            (
                "e/all_reduce.json",
                "{\"version\":3,\"config\":{\"ngpus\":8},\"results\":[{\"size\":8,\"count\":2,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    -1\",\"out_of_place\":{\"time\":1.0},\"out_of_place_per_iter\":{\"times_us\":[1.0]}}]}",
                Format::NcclTests,
                Detected::ByContent,
            ),
        ];
        for (path, text, format, detected) in cases {
            let table = read_text(path, text, None).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!((table.format, table.detected), (format, detected), "{path}: {text:?}");
        }
    }

    #[test]
    fn the_report_says_how_a_file_was_read() {
        let t = read_text("a.json", "[{\"t\":1}]", None).unwrap();
        assert_eq!(t.read_as(), "read as JSON records (detected)");
        let t = read_text("a.json", "[{\"t\":1}]", Some(Format::Json)).unwrap();
        assert_eq!(t.read_as(), "read as JSON records");
        let t = read_text("a.csv", "t\n1\n", None).unwrap();
        assert_eq!(t.read_as(), "read as CSV (detected by its name)");
    }

    #[test]
    fn an_unknown_object_or_text_is_not_guessed() {
        let err = read_text("a.json", "{\n  \"x\": 1\n}\n", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "a.json:1:1");
        assert!(err.message.contains("cannot tell which format"), "{}", err.message);
        let err = read_text("a.txt", "hello\n", None).unwrap_err();
        assert!(err.message.contains("cannot tell the format"), "{}", err.message);
        // An empty file says so, rather than that its format is unknown.
        let err = read_text("a.txt", "", None).unwrap_err();
        assert!(err.message.contains("this file is empty"), "{}", err.message);
        let err = read_text("bench.out", " \n\n", None).unwrap_err();
        assert!(err.message.contains("this file holds only white space"), "{}", err.message);
    }

    /// pyperf's own `.json.gz` (its documentation's `outliers.json.gz`, MIT) is read as the JSON
    /// it holds, detected as pyperf by its content and named as the compressed file; a copy cut
    /// short is refused at its first line as a file being written or damaged, whatever format is
    /// named; and one that inflates past the limit is refused, not followed.
    #[test]
    fn a_gzip_file_is_read_as_the_file_it_holds_and_a_cut_or_huge_one_is_refused() {
        let gz = std::fs::read(format!("{ROOT}/pyperf/outliers.json.gz")).unwrap();
        let table = read("e/outliers.json.gz", &gz, None, None, &no_sidecar).unwrap();
        assert_eq!((table.format, table.detected), (Format::Pyperf, Detected::ByContent));
        let values = samples(&table, "", "time_s");
        assert_eq!(values.len(), 60);
        // pyperf's documentation prints `Mean +- std dev: 4.34 us +- 0.31 us` and a maximum of
        // 6.02 us for it (doc/analyze.rst).
        assert_eq!((format!("{:.2}", values.mean() * 1e6), format!("{:.2}", values.max() * 1e6)), ("4.34".to_string(), "6.02".to_string()));
        for format in [None, Some(Format::Pyperf)] {
            let err = read("e/outliers.json.gz", &gz[..gz.len() / 2], format, None, &no_sidecar).unwrap_err();
            assert_eq!(err.position().unwrap(), "e/outliers.json.gz:1:1");
            assert!(err.message.contains("cannot be decompressed") && err.message.contains("cut short or damaged"), "{}", err.message);
        }
        let err = gunzip("e/outliers.json.gz", &gz, 1024).unwrap_err();
        assert!(err.message.contains("decompresses to more than 1024 bytes"), "{}", err.message);
        assert_eq!(gunzip("e/outliers.json.gz", &gz, GUNZIP_LIMIT).unwrap().len(), inflated_len(&gz));
        assert_eq!(strip_gz("e/a.JSONL.GZ"), "e/a.JSONL");
        assert_eq!(strip_gz("gz"), "gz");
    }

    /// The length of what `gz` holds, by flate2's reader without a limit.
    fn inflated_len(gz: &[u8]) -> usize {
        use std::io::Read;
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(gz).read_to_end(&mut out).unwrap();
        out.len()
    }

    /// A JSON Lines file compressed is read as JSON Lines, by its name without `.gz`.
    #[test]
    fn a_compressed_jsonl_file_is_jsonl() {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(b"{\"t\":1}\n{\"t\":2}\n").unwrap();
        let gz = enc.finish().unwrap();
        let table = read("e/s.jsonl.gz", &gz, None, None, &no_sidecar).unwrap();
        assert_eq!((table.format, table.jsonl.records.len()), (Format::Jsonl, 2));
    }

    #[test]
    fn records_take_the_json_format_only() {
        let err = read("a.csv", b"t\n1\n", Some(Format::Csv), Some("a"), &no_sidecar).unwrap_err();
        assert!(err.message.contains("`records` applies to the json format only"), "{}", err.message);
    }

    #[test]
    fn a_binary_file_is_refused_at_its_line() {
        let err = read("a.json", b"[\n{\"t\":1},\n\xff\xfe]", None, None, &no_sidecar).unwrap_err();
        assert_eq!(err.position().unwrap(), "a.json:3:1");
        assert!(err.message.contains("not UTF-8"), "{}", err.message);
    }

    #[test]
    fn json_lines_read_as_one_document_get_a_hint() {
        let err = read_text("a.json", "{\"t\":1}\n{\"t\":2}\n", Some(Format::Json)).unwrap_err();
        assert_eq!(err.position().unwrap(), "a.json:2:1");
        assert!(err.notes.iter().any(|n| n.contains("format = \"jsonl\"")), "{:?}", err.notes);
    }

    #[test]
    fn sidecar_names_resolve_beside_the_file() {
        assert_eq!(beside("e/r/out.json", "out.json-bin/0.bin"), "e/r/out.json-bin/0.bin");
        assert_eq!(beside("e/r/out.json", "./x/../y.bin"), "e/r/y.bin");
        assert_eq!(beside("out.json", "../../y.bin"), "../../y.bin");
        assert_eq!(beside("e/out.json", "/abs/y.bin"), "/abs/y.bin");
    }

    /// Every fixture cut short at many places, and with a byte changed, read with and without
    /// its format: a reader never panics, and every refusal is located in the file.
    #[test]
    fn damaged_fixtures_give_located_errors_and_never_panic() {
        let files = [
            ("hyperfine/accepted.json", Format::Hyperfine),
            ("criterion/criterion/sum/iter/64/new/sample.json", Format::Criterion),
            ("cargo-criterion/messages.jsonl", Format::CargoCriterion),
            ("google-benchmark/repetitions.json", Format::GoogleBenchmark),
            ("pytest-benchmark/benchmark.json", Format::PytestBenchmark),
            ("pyperf/telco.json", Format::Pyperf),
            ("pyperf/mult_list_py37.json", Format::Pyperf),
            ("nvbench/jsonbin/axes.json", Format::Nvbench),
            ("go-bench/suffixarray.bench", Format::GoBench),
            ("jmh/blacklite.json", Format::Jmh),
            ("benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.ConwayBenchmarks-measurements.csv", Format::BenchmarkDotNet),
            ("benchmarkdotnet/fantomas-0.12.1-report-full.json", Format::BenchmarkDotNet),
            ("benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.ConwayBenchmarks-asm.md", Format::BenchmarkDotNet),
            ("benchmarkdotnet-log/net-mediate-0.15.8.log", Format::BenchmarkDotNet),
            ("ncu/torch-softmax-details.csv", Format::Ncu),
            ("ncu/torch-softmax-raw.csv", Format::Ncu),
            ("nccl-tests/all_reduce_made_up.json", Format::NcclTests),
        ];
        let mut refused = 0;
        for (rel, format) in files {
            let bytes = std::fs::read(format!("{ROOT}/{rel}")).unwrap();
            let step = (bytes.len() / 97).max(1);
            for cut in (1..bytes.len()).step_by(step) {
                let mut damaged: Vec<Vec<u8>> = vec![bytes[..cut].to_vec()];
                for replacement in [b'"', b'x', b'\n', b'-'] {
                    let mut changed = bytes.clone();
                    changed[cut] = replacement;
                    damaged.push(changed);
                }
                for input in &damaged {
                    for given in [None, Some(format)] {
                        if let Err(err) = read(rel, input, given, None, &fixture_sidecar) {
                            refused += 1;
                            assert!(err.location.is_some(), "{rel} cut at {cut}, format {given:?}: unlocated: {}", err.message);
                            // The JSONL reader keeps serde's wording after its own location
                            // ("line 3: truncated JSON: EOF while parsing …"); every other
                            // reader says where an unclosed value opens instead.
                            if !err.message.contains(": truncated JSON: ") {
                                assert!(!err.message.contains("EOF while parsing"), "{}", err.message);
                            }
                        }
                    }
                }
            }
        }
        assert!(refused > 1000, "only {refused} inputs were refused");
    }

    #[test]
    fn lines_are_located_from_byte_offsets() {
        let src = Source::new("f", "ab\ncd\n\nef");
        assert_eq!(src.locate(0), (1, 0..3));
        assert_eq!(src.locate(4), (2, 3..6));
        assert_eq!(src.locate(6), (3, 6..7));
        assert_eq!(src.locate(8), (4, 7..9));
    }
}
