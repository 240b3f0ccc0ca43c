//! `benchmarkdotnet`: the measurements file that BenchmarkDotNet's `CsvMeasurementsExporter`
//! writes (`<Type>-measurements.csv`, which its `RPlotExporter` also asks for), one record per
//! measurement that BenchmarkDotNet computes its summary table from. This module owns that
//! layout, which rows those measurements are, the name a row of BenchmarkDotNet's table gives a
//! benchmark, and the record both of BenchmarkDotNet's layouts give ([`push_record`]: the
//! format's JSON exports, which `super::benchmarkdotnet_json` reads, give the same fields with
//! the same meaning); it splits the file with the `csv` reader's [`Rows`], and never reads
//! BenchmarkDotNet's own summaries (`-report.csv`, `-report-github.md`), which the checks
//! recompute.
//!
//! What BenchmarkDotNet writes and computes, from its own source (dotnet/BenchmarkDotNet at
//! 5995bf68f and at the tag v0.14.0, under `src/BenchmarkDotNet/`):
//!
//! - `Exporters/Csv/CsvMeasurementsExporter.cs` writes a header, then one row for every
//!   measurement of every benchmark case, case by case and launch by launch: `Target`
//!   (`Type.Method`), `Target_Namespace`, `Target_Type`, `Target_Method`, a `Job_<id>` column for
//!   each characteristic of a job (`Job_Id` first), `Job_Display`, `Params` (`Name=value` pairs
//!   joined by `&`, empty without parameters), `Measurement_LaunchIndex`,
//!   `Measurement_IterationMode` (`Overhead`, `Workload`), `Measurement_IterationStage`
//!   (`Jitting`, `Pilot`, `Warmup`, `Actual`, `Result`), `Measurement_IterationIndex`,
//!   `Measurement_Nanoseconds` (the iteration's whole time), `Measurement_Operations` and
//!   `Measurement_Value` (nanoseconds per operation), both times printed with the format `0.##`,
//!   to 0.01 ns; and with the memory diagnoser `Gen_0`, `Gen_1`, `Gen_2` (collections) and
//!   `Allocated_Bytes` (per operation; `?` where unknown). Cells are separated by the current
//!   culture's list separator (`,`, or `;` in many cultures), and a cell holding a comma, that
//!   separator, a quote or a line end is quoted as RFC 4180 says (`Exporters/Csv/CsvHelper.cs`).
//! - `Engines/RunResults.cs` makes the `Workload`/`Result` measurements: each `Workload`/`Actual`
//!   iteration that is not an outlier under the job's `OutlierMode` (upper outliers removed by
//!   default), less the median of the `Overhead`/`Actual` iterations and never below 0.
//!   `Reports/BenchmarkReport.cs` (`GetResultRuns`) takes those alone for the statistics of the
//!   table (Mean, Error, StdDev, Min, Max, Median, …), each as nanoseconds per operation.
//! - `Engines/Engine.cs` counts collections and allocated bytes in one extra iteration after
//!   the actual ones, of as many operations as each of them; only the last launch runs it
//!   (`Running/BenchmarkRunnerClean.cs`), and `BenchmarkReport.GcStats`, which every row of a
//!   case repeats, is that launch's. `Diagnosers/MemoryDiagnoser.cs` prints `Gen0` as
//!   collections per 1000 operations, `Gen_0 / TotalOperations × 1000`, where `TotalOperations`
//!   is that iteration's operations, which are the operations of each `Result` row of the last
//!   launch.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `benchmark` | `Target` as written: `AlonzoBenchmarks.New` |
//! | `name` | what a row of BenchmarkDotNet's table stands for: `method`, then its parameters in file order as BenchmarkDotNet's `DisplayInfo` writes them, `Sum [N=10, Size=5]` (`method` alone without parameters); see [`record_name`] |
//! | `type`, `namespace`, `method` | `Target_Type`, `Target_Namespace`, `Target_Method` as written |
//! | `params` | `Params` as written (`N=10&Size=5`, empty without parameters) |
//! | `param_<Name>` | each parameter's value as written (a string); a parameter written twice is refused |
//! | `job` | `Job_Id` (`Job-ONJMYK`, `DefaultJob`, `.NET 8.0`), where the file has the column |
//! | `case` | what a row of a table of several jobs stands for (`| Method | Job | Runtime | Mean |`): `method: job`, then the parameters as in `name`, `Sum: .NET 8.0 [N=10]`, as BenchmarkDotNet's `BenchmarkCase.DisplayInfo` names a case; see [`case_name`] |
//! | `launch`, `iteration` | `Measurement_LaunchIndex` and `Measurement_IterationIndex`, from 1 |
//! | `operations` | `Measurement_Operations`: operations in the iteration |
//! | `time_ns` | one operation's time, `Measurement_Nanoseconds / Measurement_Operations`: finer than `Measurement_Value` where an operation takes a few nanoseconds, since the whole iteration's time is printed to 0.01 ns |
//! | `value_ns` | `Measurement_Value` as written: the same time rounded to 0.01 ns |
//! | `gen0_per_1000_ops`, `gen1_per_1000_ops`, `gen2_per_1000_ops` | `Gen_0`, `Gen_1`, `Gen_2` × 1000 / the operations of the case's `Result` rows in its last launch: BenchmarkDotNet's `Gen0`, `Gen1`, `Gen2` columns (memory diagnoser only) |
//! | `allocated_bytes` | `Allocated_Bytes`: bytes allocated per operation, BenchmarkDotNet's `Allocated` (memory diagnoser only; absent where written `?` or `NA`) |
//!
//! Only the `Workload`/`Result` rows give records: the other stages are the iterations those
//! were computed from, before the overhead was taken off and the outliers were removed, and a
//! statistic over them is not BenchmarkDotNet's. A file without such a row (every benchmark
//! failed, or the file was cut short before them) is refused. A parameter's field is `param_`
//! and its name, and no fixed field begins with `param_`. A value holding `&` is read whole
//! where the text after the `&` is not `Name=`, as BenchmarkDotNet's names are identifiers; a
//! value holding `&Name=` cannot be told from two parameters, as the file writes both alike.
//!
//! A cell is a number as JSON writes one; where the separator is not a comma, a comma in a
//! number is read as its decimal separator, as a culture that writes one prints `0.##`. A
//! complete file ends with a line end, as BenchmarkDotNet ends every row with one: a last row
//! without one is refused as cut short, since a row cut inside its last cell keeps its number
//! of cells.
//!
//! **Older files.** `Measurement_IterationStage` came with BenchmarkDotNet 0.11.1 (2018, commit
//! 2be698ba). From 0.10.1 to 0.10.14 a file has no stage and marks the same measurements with
//! `Measurement_IterationMode` `Result`, the iterations they come from being `MainTarget` and
//! `IdleTarget`; such a file is read, without the garbage-collection fields, since those
//! releases counted collections over other operations than one iteration's (all the actual
//! iterations together up to 0.10.11; invocations rather than operations from 0.10.12), which
//! the file does not hold. 0.11.0 wrote the modes `Workload` and `Overhead` without a stage, so
//! that its results cannot be told from the iterations they come from, and a file from before
//! 0.10.1 names its columns without underscores (`MeasurementIterationMode`): both are refused
//! with what to export instead.
//!
//! A record's line is the line where its row starts.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::Source;
use super::delimited::{self, Row, Rows, cell_span};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// What to export instead of a file this reader refuses for its layout.
const EXPORT_INSTEAD: &str = "rerun with BenchmarkDotNet 0.11.1 or later, whose `CsvMeasurementsExporter` (`[CsvMeasurementsExporter]`, or `--exporters csvmeasurements`) writes `Measurement_IterationStage`; or name `format = \"csv\"` to read this file as a plain table";

/// How BenchmarkDotNet writes a value it does not know: `?` in this file since 0.13.6
/// (`MetricColumn.UnknownRepresentation`), `NA` in its tables; an empty cell is read alike.
const UNKNOWN: [&str; 3] = ["?", "NA", ""];

/// Whether `rel_path` is named as BenchmarkDotNet names the file: `<Type>-measurements.csv`.
pub(super) fn is_measurements_name(rel_path: &str) -> bool {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    name.to_ascii_lowercase().ends_with("-measurements.csv")
}

/// Whether the first line of `text` begins as BenchmarkDotNet's header does, with `Target` and
/// a separator: a file named as its measurements file whose header does not is another table.
pub(super) fn begins_like(text: &str) -> bool {
    header_line(text).1.strip_prefix("Target").and_then(|rest| rest.chars().next()).is_some_and(|c| !c.is_alphanumeric() && c != '_')
}

/// Whether the first line of `text` is BenchmarkDotNet's header, by two columns no other
/// table names: `Target_Method` and `Measurement_IterationStage`.
pub(super) fn looks_like(text: &str) -> bool {
    let header = header_line(text).1;
    header.contains("Target_Method") && header.contains("Measurement_IterationStage")
}

/// The record `case` of a row of BenchmarkDotNet's table that names its job as well (a table of
/// several jobs, `| Method | Job | Runtime | Mean |`): `method: job [Name=value, …]`, as
/// BenchmarkDotNet's own `BenchmarkCase.DisplayInfo` names a case.
pub(crate) fn case_name(method: &str, job: &str, params: &[(&str, &str)]) -> String {
    record_name(&format!("{method}: {job}"), params)
}

/// The record `name` of a row of BenchmarkDotNet's table: `method`, then `[Name=value, …]` in
/// the file's order, as BenchmarkDotNet's `ParameterInstances.DisplayInfo` writes them; `method`
/// alone without parameters.
pub(crate) fn record_name(method: &str, params: &[(&str, &str)]) -> String {
    if params.is_empty() {
        return method.to_string();
    }
    let list: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{method} [{}]", list.join(", "))
}

/// A benchmark case as both of BenchmarkDotNet's files name it: what every record of its
/// results holds before the result's own fields. The measurements file names it on every row,
/// the JSON export once for all of the case's results.
pub(super) struct Case<'a> {
    /// `Type.Method`: the measurements file's `Target`, the JSON export's `Type` and `MethodTitle`.
    pub(super) benchmark: &'a str,
    pub(super) type_name: &'a str,
    /// Absent from BenchmarkDotNet's log, whose header line names the type without it.
    pub(super) namespace: Option<&'a str>,
    /// The method as BenchmarkDotNet's table titles it (`WorkloadMethodDisplayInfo`).
    pub(super) method: &'a str,
    /// The parameters as written (`N=10&Size=5`), and split into their pairs by [`params`].
    pub(super) params_text: &'a str,
    pub(super) params: &'a [(String, String)],
    /// The job's id, where the file says it.
    pub(super) job: Option<&'a str>,
}

/// One result of a case: where the file writes it, and one operation's time.
pub(super) struct Sample {
    pub(super) line: usize,
    pub(super) span: Range<usize>,
    /// The iteration the result comes from, where the file holds it (a brief JSON export holds
    /// the times alone).
    pub(super) iteration: Option<Iteration>,
    pub(super) time_ns: f64,
    /// `Measurement_Value`, the measurements file's own rounding of the time to 0.01 ns.
    pub(super) value_ns: Option<f64>,
}

/// Where a result was measured: its launch and its iteration (from 1), and the operations the
/// iteration ran.
pub(super) struct Iteration {
    pub(super) launch: i64,
    pub(super) index: i64,
    pub(super) operations: i64,
}

/// The memory diagnoser's figures of a case, which every record of it repeats: collections of
/// each generation, the operations they were counted over, and bytes allocated per operation.
#[derive(Default)]
pub(super) struct Memory {
    pub(super) collections: [Option<f64>; 3],
    pub(super) operations: i64,
    pub(super) allocated: Option<f64>,
}

/// Pushes the record of one result of `case`, with the fields the module's documentation lists;
/// a rate of collections only where there were operations to count them over.
pub(super) fn push_record(out: &mut JsonlBuilder, case: &Case<'_>, sample: &Sample, memory: &Memory) {
    let params: Vec<(&str, &str)> = case.params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let name = record_name(case.method, &params);
    let param_fields: Vec<(String, &str)> = case.params.iter().map(|(k, v)| (format!("param_{k}"), v.as_str())).collect();
    let mut fields: Vec<(&str, FieldValue<'_>)> = vec![("benchmark", FieldValue::Str(case.benchmark)), ("name", FieldValue::Str(&name)), ("type", FieldValue::Str(case.type_name))];
    if let Some(namespace) = case.namespace {
        fields.push(("namespace", FieldValue::Str(namespace)));
    }
    fields.push(("method", FieldValue::Str(case.method)));
    fields.push(("params", FieldValue::Str(case.params_text)));
    fields.extend(param_fields.iter().map(|(k, v)| (k.as_str(), FieldValue::Str(v))));
    let case_field = case.job.map(|job| case_name(case.method, job, &params));
    if let (Some(job), Some(case_field)) = (case.job, &case_field) {
        fields.push(("job", FieldValue::Str(job)));
        fields.push(("case", FieldValue::Str(case_field)));
    }
    if let Some(it) = &sample.iteration {
        fields.push(("launch", FieldValue::Int(it.launch)));
        fields.push(("iteration", FieldValue::Int(it.index)));
        fields.push(("operations", FieldValue::Int(it.operations)));
    }
    fields.push(("time_ns", FieldValue::Float(sample.time_ns)));
    if let Some(value) = sample.value_ns {
        fields.push(("value_ns", FieldValue::Float(value)));
    }
    let gen_names = ["gen0_per_1000_ops", "gen1_per_1000_ops", "gen2_per_1000_ops"];
    for (name, collections) in gen_names.into_iter().zip(memory.collections) {
        if let Some(c) = collections.filter(|_| memory.operations > 0) {
            fields.push((name, FieldValue::Float(c * 1000.0 / memory.operations as f64)));
        }
    }
    if let Some(bytes) = memory.allocated {
        fields.push(("allocated_bytes", FieldValue::Float(bytes)));
    }
    out.push(sample.line, sample.span.clone(), fields);
}

/// A case's parameters as written (`N=10&Size=5`, in the member or column `what`), split into
/// their `Name=value` pairs in the file's order; where they are not such pairs, or a name is
/// written twice, the error's message and label, for the caller to locate.
pub(super) fn params(written: &str, what: &str) -> Result<Vec<(String, String)>, (String, &'static str)> {
    let Some(pairs) = split_params(written) else {
        return Err((format!("`{what}` is \"{written}\", not `Name=value` pairs joined by `&`"), "not parameters"));
    };
    let mut seen = BTreeSet::new();
    for (name, _) in &pairs {
        if !seen.insert(*name) {
            return Err((format!("the parameter `{name}` is written twice in `{what}` (\"{written}\")"), "written twice"));
        }
    }
    Ok(pairs.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
}

pub(super) fn read(src: &Source) -> Result<Jsonl, Diagnostic> {
    let delimiter = separator(src)?;
    let mut rows = Rows::open(src, delimiter, true, "CSV")?;
    let columns = Columns::find(src, &rows.headers)?;
    let mut results = Vec::new();
    while let Some(row) = rows.next()? {
        if columns.is_result(src, &row, delimiter)? {
            results.push(Measurement::parse(src, &columns, &row, delimiter)?);
        }
    }
    if !src.text.is_empty() && !src.text.ends_with('\n') {
        let start = src.text.rfind('\n').map_or(0, |i| i + 1);
        return Err(src
            .error(start..src.text.len(), "this last row has no line end, so the file may be cut short inside it: BenchmarkDotNet ends every row with one", "cut short?")
            .with_note("write the file again; if the row is whole, end it with a line end"));
    }
    if results.is_empty() {
        let what = if columns.stage.is_some() { "`Measurement_IterationMode` Workload and `Measurement_IterationStage` Result" } else { "`Measurement_IterationMode` Result" };
        let header = header_line(src.text);
        return Err(src
            .error(
                header.0..header.0 + header.1.len(),
                format!("no row of this file is one of the measurements BenchmarkDotNet computes its table from ({what}), so there are no records to read"),
                "no results",
            )
            .with_note("BenchmarkDotNet writes them for every benchmark that ran to its end: rerun the benchmarks that failed, or export the file again if it was cut short"));
    }
    // The collections of a case were counted in an extra iteration of its last launch, of as
    // many operations as each of that launch's results.
    let mut last_launch: BTreeMap<[&str; 4], (i64, i64)> = BTreeMap::new();
    for m in &results {
        let entry = last_launch.entry(m.case(&columns)).or_insert((m.launch, m.operations));
        if m.launch >= entry.0 {
            *entry = (m.launch, m.operations);
        }
    }
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for m in &results {
        let gc_operations = last_launch.get(&m.case(&columns)).map_or(m.operations, |(_, ops)| *ops);
        m.push(&mut out, &columns, gc_operations);
    }
    Ok(out.finish())
}

/// The first line of `text` after any byte-order mark: where it starts, and its text without
/// its line end.
fn header_line(text: &str) -> (usize, &str) {
    let start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let rest = &text[start..];
    let line = rest.split('\n').next().unwrap_or("");
    (start, line.strip_suffix('\r').unwrap_or(line))
}

/// The byte that separates the cells: the culture's list separator, which BenchmarkDotNet
/// writes right after the header's first title, `Target`. A separator of more than one byte
/// (Arabic's `؛`) cannot split a CSV file, and is refused with what to export instead.
fn separator(src: &Source) -> Result<u8, Diagnostic> {
    let (start, header) = header_line(src.text);
    let after = header.strip_prefix("Target").and_then(|rest| rest.chars().next());
    match after {
        Some(c) if c.is_ascii() && !c.is_ascii_alphanumeric() && !matches!(c, '_' | '"') => Ok(c as u8),
        Some(c) if !c.is_alphanumeric() && c != '_' => {
            let at = start + "Target".len();
            Err(src
                .error(
                    at..at + c.len_utf8(),
                    format!("BenchmarkDotNet separated this file's cells with `{c}`, its culture's list separator, which is not one of the single-byte separators a CSV file is split at"),
                    "separator",
                )
                .with_note("export it with `[CsvMeasurementsExporter(CsvSeparator.Comma)]` (or `CsvSeparator.Semicolon`) instead"))
        }
        _ => Err(src
            .error(
                start..start + header.len(),
                "this is not BenchmarkDotNet's measurements file: its header does not begin with `Target` and a separator, as the header of `CsvMeasurementsExporter` does",
                "header",
            )
            .with_note("name `format = \"csv\"` to read it as a plain table")),
    }
}

/// Where each column BenchmarkDotNet writes is, by its title.
struct Columns {
    target: usize,
    namespace: usize,
    type_name: usize,
    method: usize,
    job: Option<usize>,
    job_display: Option<usize>,
    params: usize,
    launch: usize,
    mode: usize,
    /// Absent before BenchmarkDotNet 0.11.1, whose results are marked by their mode.
    stage: Option<usize>,
    iteration: usize,
    nanoseconds: usize,
    operations: usize,
    value: usize,
    /// `Gen_0` … `Gen_2` and `Allocated_Bytes`, read only where the file has a stage (see the
    /// module's documentation).
    gen_collections: [Option<usize>; 3],
    allocated: Option<usize>,
}

impl Columns {
    fn find(src: &Source, headers: &csv::StringRecord) -> Result<Columns, Diagnostic> {
        let find = |name: &str| headers.iter().position(|h| h == name);
        let (start, header) = header_line(src.text);
        let header_span = start..start + header.len();
        if find("MeasurementIterationMode").is_some() || find("TargetMethod").is_some() {
            return Err(src
                .error(
                    header_span,
                    "this measurements file is from BenchmarkDotNet before 0.10.1 (columns named without underscores, `MeasurementIterationMode`), whose layout this reader does not read",
                    "header",
                )
                .with_note(EXPORT_INSTEAD));
        }
        let need = |name: &str| {
            find(name).ok_or_else(|| {
                src.error(
                    header_span.clone(),
                    format!("the header has no `{name}` column, which every measurements file of BenchmarkDotNet (`CsvMeasurementsExporter`, 0.10.1 and later) has"),
                    "header",
                )
                .with_note(EXPORT_INSTEAD)
            })
        };
        let stage = find("Measurement_IterationStage");
        let gc = |name: &str| stage.and(find(name));
        Ok(Columns {
            target: need("Target")?,
            namespace: need("Target_Namespace")?,
            type_name: need("Target_Type")?,
            method: need("Target_Method")?,
            job: find("Job_Id"),
            job_display: find("Job_Display"),
            params: need("Params")?,
            launch: need("Measurement_LaunchIndex")?,
            mode: need("Measurement_IterationMode")?,
            stage,
            iteration: need("Measurement_IterationIndex")?,
            nanoseconds: need("Measurement_Nanoseconds")?,
            operations: need("Measurement_Operations")?,
            value: need("Measurement_Value")?,
            gen_collections: [gc("Gen_0"), gc("Gen_1"), gc("Gen_2")],
            allocated: gc("Allocated_Bytes"),
        })
    }

    /// Whether `row` is one of the measurements BenchmarkDotNet's table is computed from. A
    /// file without a stage whose modes are 0.11.0's is refused at the first such row.
    fn is_result(&self, src: &Source, row: &Row<'_>, delimiter: u8) -> Result<bool, Diagnostic> {
        let mode = text(row, self.mode);
        match self.stage {
            Some(stage) => Ok(mode == "Workload" && text(row, stage) == "Result"),
            None if mode == "Result" => Ok(true),
            None if mode == "Workload" || mode == "Overhead" => Err(src
                .error(
                    cell_span(src.text, row.start, delimiter, self.mode),
                    format!(
                        "this row's `Measurement_IterationMode` is {mode} and the file has no `Measurement_IterationStage` column: BenchmarkDotNet 0.11.0 wrote its measurements so, and its results cannot be told from the iterations they were computed from"
                    ),
                    "no stage",
                )
                .with_note(EXPORT_INSTEAD)),
            None => Ok(false),
        }
    }
}

/// A cell's text, empty where the row has no such cell (the `csv` reader gives every row as
/// many cells as the header, so that is never, but a reader does not index past an end).
fn text<'r>(row: &'r Row<'_>, col: usize) -> &'r str {
    row.cells.get(col).unwrap_or("")
}

/// One `Result` row, read and checked.
struct Measurement {
    line: usize,
    span: Range<usize>,
    cells: csv::StringRecord,
    params: Vec<(String, String)>,
    launch: i64,
    iteration: i64,
    operations: i64,
    nanoseconds: f64,
    value: f64,
    gen_collections: [Option<f64>; 3],
    allocated: Option<f64>,
}

impl Measurement {
    fn parse(src: &Source, columns: &Columns, row: &Row<'_>, delimiter: u8) -> Result<Measurement, Diagnostic> {
        let cell = Cell { src, row, delimiter };
        let mut gen_collections = [None; 3];
        for (k, col) in columns.gen_collections.iter().enumerate() {
            if let Some(col) = col {
                gen_collections[k] = cell.known_number(*col, &format!("Gen_{k}"))?;
            }
        }
        let allocated = match columns.allocated {
            Some(col) => cell.known_number(col, "Allocated_Bytes")?,
            None => None,
        };
        Ok(Measurement {
            line: row.line,
            span: row.span.clone(),
            cells: row.cells.clone(),
            params: cell.params(columns.params)?,
            launch: cell.count(columns.launch, "Measurement_LaunchIndex", 0)?,
            iteration: cell.count(columns.iteration, "Measurement_IterationIndex", 0)?,
            operations: cell.count(columns.operations, "Measurement_Operations", 1)?,
            nanoseconds: cell.number(columns.nanoseconds, "Measurement_Nanoseconds")?,
            value: cell.number(columns.value, "Measurement_Value")?,
            gen_collections,
            allocated,
        })
    }

    fn get(&self, col: usize) -> &str {
        self.cells.get(col).unwrap_or("")
    }

    /// The benchmark case the row belongs to: its target, parameters and job.
    fn case(&self, columns: &Columns) -> [&str; 4] {
        let optional = |col: Option<usize>| col.map_or("", |c| self.get(c));
        [self.get(columns.target), self.get(columns.params), optional(columns.job), optional(columns.job_display)]
    }

    /// Pushes the record; `gc_operations` are the operations its case's collections were
    /// counted over.
    fn push(&self, out: &mut JsonlBuilder, columns: &Columns, gc_operations: i64) {
        let case = Case {
            benchmark: self.get(columns.target),
            type_name: self.get(columns.type_name),
            namespace: Some(self.get(columns.namespace)),
            method: self.get(columns.method),
            params_text: self.get(columns.params),
            params: &self.params,
            job: columns.job.map(|job| self.get(job)),
        };
        let iteration = Iteration { launch: self.launch, index: self.iteration, operations: self.operations };
        let sample =
            Sample { line: self.line, span: self.span.clone(), iteration: Some(iteration), time_ns: self.nanoseconds / self.operations as f64, value_ns: Some(self.value) };
        let memory = Memory { collections: self.gen_collections, operations: gc_operations, allocated: self.allocated };
        push_record(out, &case, &sample, &memory);
    }
}

/// The cells of one row, read as numbers, counts and parameters, each error at its cell.
struct Cell<'c, 'r, 'a> {
    src: &'c Source<'a>,
    row: &'c Row<'r>,
    delimiter: u8,
}

impl Cell<'_, '_, '_> {
    fn text(&self, col: usize) -> &str {
        text(self.row, col)
    }

    fn error(&self, col: usize, message: String, label: &str) -> Diagnostic {
        self.src.error(cell_span(self.src.text, self.row.start, self.delimiter, col), message, label)
    }

    /// The cell as a finite number. A culture whose decimal separator is a comma prints
    /// `1234,56`, which is read where the comma cannot be the cells' separator.
    fn number(&self, col: usize, name: &str) -> Result<f64, Diagnostic> {
        let written = self.text(col);
        let text: Cow<'_, str> = if self.delimiter != b',' && written.contains(',') { Cow::Owned(written.replacen(',', ".", 1)) } else { Cow::Borrowed(written) };
        match delimited::cell(&text) {
            FieldValue::Int(i) => Ok(i as f64),
            FieldValue::Float(f) if f.is_finite() => Ok(f),
            _ => Err(self.error(col, format!("`{name}` is \"{written}\", not a number"), "not a number")),
        }
    }

    /// The cell as a number, or `None` where BenchmarkDotNet wrote that it does not know it.
    fn known_number(&self, col: usize, name: &str) -> Result<Option<f64>, Diagnostic> {
        if UNKNOWN.contains(&self.text(col)) { Ok(None) } else { self.number(col, name).map(Some) }
    }

    /// The cell as a whole number no smaller than `least`.
    fn count(&self, col: usize, name: &str, least: i64) -> Result<i64, Diagnostic> {
        let written = self.text(col);
        match delimited::cell(written) {
            FieldValue::Int(i) if i >= least => Ok(i),
            _ => Err(self.error(col, format!("`{name}` is \"{written}\", not a whole number of {least} or more"), "not a count")),
        }
    }

    /// The `Name=value` pairs of `Params`, joined by `&`, in the file's order. A piece after a
    /// `&` that does not begin with a name and `=` belongs to the value before it.
    fn params(&self, col: usize) -> Result<Vec<(String, String)>, Diagnostic> {
        params(self.text(col), "Params").map_err(|(message, label)| self.error(col, message, label))
    }
}

/// `Params` split into its pairs (none where it is empty), or `None` where it does not begin
/// with a name and `=`.
fn split_params(text: &str) -> Option<Vec<(&str, &str)>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    // Each pair as the name and the range of its value in `text`, which a piece without a
    // name of its own extends.
    let mut pairs: Vec<(&str, Range<usize>)> = Vec::new();
    let mut at = 0;
    for piece in text.split('&') {
        let start = at;
        at += piece.len() + 1;
        match piece.split_once('=') {
            Some((name, _)) if is_identifier(name) => pairs.push((name, start + name.len() + 1..start + piece.len())),
            _ => pairs.last_mut()?.1.end = start + piece.len(),
        }
    }
    Some(pairs.into_iter().map(|(name, value)| (name, &text[value])).collect())
}

/// Whether `name` is a C# identifier, as the names of BenchmarkDotNet's parameters and
/// arguments are.
pub(super) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ROOT, read_fixture, read_text, samples};
    use super::super::{Detected, Format, Table};
    use super::*;
    use crate::evidence::jsonl::Scalar;
    use crate::stats::student_t::mean_error;

    /// The files of SAIB-Inc/Chrysalis' run of 2025-02-20 (BenchmarkDotNet 0.14.0, the memory
    /// diagnoser on), by their type.
    const TYPES: [&str; 4] = ["Alonzo", "AlonzoDuplicateKey", "Babbage", "Conway"];

    fn fixture(kind: &str) -> String {
        format!("benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.{kind}Benchmarks-measurements.csv")
    }

    fn fixture_text(kind: &str) -> String {
        std::fs::read_to_string(format!("{ROOT}/{}", fixture(kind))).unwrap()
    }

    /// One row of BenchmarkDotNet's table as its `-report-github.md` of the same run printed it:
    /// type, method, and Mean, Error, StdDev, Min, Max (ms), Gen0, Gen1 (`-` for none) and
    /// Allocated (MB, binary). The count is not printed: it is the `Result` rows there are.
    struct Printed {
        kind: &'static str,
        method: &'static str,
        n: usize,
        times_ms: [&'static str; 5],
        collections: [&'static str; 2],
        allocated_mb: &'static str,
    }

    const PRINTED: [Printed; 8] = [
        Printed { kind: "Alonzo", method: "New", n: 9, times_ms: ["4.081", "0.1141", "0.0679", "3.922", "4.153"], collections: ["289.0625", "117.1875"], allocated_mb: "4.64" },
        Printed { kind: "Alonzo", method: "Old", n: 9, times_ms: ["14.965", "0.1619", "0.0964", "14.868", "15.148"], collections: ["500.0000", "203.1250"], allocated_mb: "8.04" },
        Printed {
            kind: "AlonzoDuplicateKey",
            method: "New",
            n: 10,
            times_ms: ["11.23", "0.070", "0.046", "11.18", "11.32"],
            collections: ["531.2500", "250.0000"],
            allocated_mb: "8.5",
        },
        Printed { kind: "AlonzoDuplicateKey", method: "Old", n: 10, times_ms: ["30.86", "0.469", "0.310", "30.50", "31.45"], collections: ["812.5000", "-"], allocated_mb: "13" },
        Printed { kind: "Babbage", method: "New", n: 10, times_ms: ["3.815", "0.0838", "0.0554", "3.744", "3.896"], collections: ["226.5625", "93.7500"], allocated_mb: "3.71" },
        Printed { kind: "Babbage", method: "Old", n: 9, times_ms: ["10.419", "0.1258", "0.0748", "10.333", "10.536"], collections: ["343.7500", "109.3750"], allocated_mb: "5.63" },
        Printed { kind: "Conway", method: "New", n: 9, times_ms: ["0.8472", "0.0178", "0.0106", "0.8293", "0.8614"], collections: ["66.4063", "7.8125"], allocated_mb: "1.1" },
        Printed { kind: "Conway", method: "Old", n: 9, times_ms: ["2.4368", "0.0546", "0.0325", "2.3870", "2.4769"], collections: ["101.5625", "23.4375"], allocated_mb: "1.66" },
    ];

    /// Whether `value` prints as `printed` to `decimals` places (those of `printed` where none
    /// are given): within half a unit of its last place, whichever way a tie was rounded
    /// (.NET rounds 66.40625 up to 66.4063, Rust's formatting to even).
    fn assert_prints(value: f64, printed: &str, decimals: Option<usize>, what: &str) {
        let shown: f64 = if printed == "-" { 0.0 } else { printed.parse().unwrap() };
        let decimals = decimals.unwrap_or_else(|| printed.split_once('.').map_or(0, |(_, d)| d.len()));
        let half = 0.5 * 10f64.powi(-(decimals as i32));
        assert!((value - shown).abs() <= half * (1.0 + 1e-9), "{what}: {value} does not print as {printed}");
    }

    /// Every number of BenchmarkDotNet's table of each of the four files, recomputed from the
    /// records of its rows: Mean, StdDev (n − 1), Min and Max of `time_ns`, Error (the 99.9 %
    /// Student-t half-width of the mean), Gen0 and Gen1 (Gen2 is 0 everywhere and not printed)
    /// and Allocated in binary megabytes.
    #[test]
    fn chrysalis_tables_are_recomputed_from_the_result_rows() {
        for p in &PRINTED {
            let t = read_fixture(&fixture(p.kind), None).unwrap();
            assert_eq!((t.format, t.detected), (Format::BenchmarkDotNet, Detected::ByName));
            let what = format!("{}Benchmarks.{}", p.kind, p.method);
            let select = format!("name = \"{}\"", p.method);
            let s = samples(&t, &select, "time_ns");
            assert_eq!(s.len(), p.n, "{what}");
            let error = mean_error(&s, 0.999).unwrap();
            let ours = [s.mean(), error, s.stdev(), s.min(), s.max()];
            for ((value, printed), column) in ours.iter().zip(p.times_ms).zip(["Mean", "Error", "StdDev", "Min", "Max"]) {
                assert_prints(value / 1e6, printed, None, &format!("{what} {column}"));
            }
            for (k, printed) in p.collections.iter().enumerate() {
                let per_1000 = samples(&t, &select, &format!("gen{k}_per_1000_ops"));
                assert_eq!(per_1000.min(), per_1000.max(), "{what}: every row of a case repeats its collections");
                assert_prints(per_1000.min(), printed, None, &format!("{what} Gen{k}"));
            }
            assert_eq!(samples(&t, &select, "gen2_per_1000_ops").max(), 0.0, "{what}");
            let allocated = samples(&t, &select, "allocated_bytes");
            assert_prints(allocated.min() / (1u64 << 20) as f64, p.allocated_mb, Some(2), &format!("{what} Allocated"));
        }
    }

    /// The figures of `AlonzoBenchmarks.New`, and where its nine results come from: ten actual
    /// iterations, the slowest taken out as an upper outlier, each less the median of the twenty
    /// overhead iterations (to the 0.01 ns the file prints).
    #[test]
    fn alonzo_new_is_nine_actual_iterations_less_overhead() {
        let t = read_fixture(&fixture("Alonzo"), None).unwrap();
        let s = samples(&t, "name = \"New\"", "time_ns");
        assert_eq!(s.len(), 9);
        assert_eq!(format!("{:.3}", s.mean() / 1e6), "4.081");
        assert_eq!(format!("{:.4}", s.stdev() / 1e6), "0.0679");
        assert_eq!((format!("{:.3}", s.min() / 1e6), format!("{:.3}", s.max() / 1e6)), ("3.922".to_string(), "4.153".to_string()));
        assert_eq!(format!("{:.4}", mean_error(&s, 0.999).unwrap() / 1e6), "0.1141");
        assert_eq!(samples(&t, "name = \"New\"", "gen0_per_1000_ops").min(), 37.0 * 1000.0 / 128.0);
        assert_eq!(samples(&t, "name = \"New\"", "allocated_bytes").min(), 4866608.0);
        assert_eq!(format!("{:.2}", 4866608.0 / (1u64 << 20) as f64), "4.64");

        // The same file as a plain table holds every stage.
        let plain = read_fixture(&fixture("Alonzo"), Some(Format::Csv)).unwrap();
        let stage = |mode: &str, stage: &str| {
            let select = format!("Target_Method = \"New\"\nMeasurement_IterationMode = \"{mode}\"\nMeasurement_IterationStage = \"{stage}\"");
            samples(&plain, &select, "Measurement_Nanoseconds")
        };
        let (actual, overhead) = (stage("Workload", "Actual"), stage("Overhead", "Actual"));
        assert_eq!((actual.len(), overhead.len()), (10, 20));
        let kept = &actual.sorted()[..9];
        let results = samples(&t, "name = \"New\"", "time_ns");
        for (a, r) in kept.iter().zip(results.sorted()) {
            assert!(((a - overhead.median()) / 128.0 - r).abs() < 0.01 / 128.0, "{a} less {} is not {r} × 128", overhead.median());
        }
    }

    /// Every `Workload`/`Result` row of the four files is a record at its line, and no other
    /// row is.
    #[test]
    fn every_result_row_and_no_other_is_a_record() {
        for kind in TYPES {
            let text = fixture_text(kind);
            let result_lines: Vec<usize> = text.lines().enumerate().filter(|(_, l)| l.contains(",Workload,Result,")).map(|(i, _)| i + 1).collect();
            let t = read_fixture(&fixture(kind), None).unwrap();
            assert_eq!(t.jsonl.records.iter().map(|r| r.line).collect::<Vec<_>>(), result_lines, "{kind}");
        }
    }

    #[test]
    fn records_carry_their_fields_at_their_lines() {
        let t = read_fixture(&fixture("Alonzo"), None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 18);
        let first = &j.records[0];
        assert_eq!(first.line, 61);
        let text = |name: &str| j.text_of(j.get(first, name));
        assert_eq!(text("benchmark"), "AlonzoBenchmarks.New");
        assert_eq!(text("name"), "New");
        assert_eq!(text("type"), "AlonzoBenchmarks");
        assert_eq!(text("namespace"), "Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers");
        assert_eq!(text("method"), "New");
        assert_eq!(text("params"), "");
        assert_eq!(text("job"), "Job-ONJMYK");
        assert_eq!(text("case"), "New: Job-ONJMYK");
        assert_eq!((j.get(first, "launch"), j.get(first, "iteration"), j.get(first, "operations")), (Some(Scalar::Int(1)), Some(Scalar::Int(1)), Some(Scalar::Int(128))));
        // `Measurement_Nanoseconds` 502045375.5 over 128 operations, which `Measurement_Value`
        // rounds to 3922229.5.
        assert_eq!(j.get(first, "time_ns"), Some(Scalar::Float(502045375.5 / 128.0)));
        assert_eq!(j.get(first, "value_ns"), Some(Scalar::Float(3922229.5)));
        assert_eq!(j.get(first, "gen1_per_1000_ops"), Some(Scalar::Float(15.0 * 1000.0 / 128.0)));
        assert!(j.line_text(first).starts_with("AlonzoBenchmarks.New,"));
        assert!(j.field_names().iter().all(|f| !f.starts_with("param_")));
        let lines: Vec<usize> = j.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, (61..=69).chain(127..=135).collect::<Vec<_>>());
    }

    /// Every field of every record, as text, to compare two readings of one run.
    fn contents(t: &Table) -> Vec<Vec<(String, String)>> {
        let j = &t.jsonl;
        let names = j.field_names();
        j.records.iter().map(|r| names.iter().map(|n| (n.to_string(), j.text_of(j.get(r, n)))).collect()).collect()
    }

    /// `text` written again with `separator`, each cell escaped as BenchmarkDotNet's `CsvHelper`
    /// escapes one, and the decimal points of the two time columns as `decimal`.
    fn rewritten(text: &str, separator: char, decimal: char) -> String {
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
        let mut out = String::new();
        let mut times = Vec::new();
        for (n, record) in reader.records().enumerate() {
            let record = record.unwrap();
            if n == 0 {
                times = record.iter().enumerate().filter(|(_, h)| matches!(*h, "Measurement_Nanoseconds" | "Measurement_Value")).map(|(i, _)| i).collect();
            }
            let cells: Vec<String> = record
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    let cell = if n > 0 && times.contains(&i) { cell.replace('.', &decimal.to_string()) } else { cell.to_string() };
                    if cell.contains(['\n', '\r', '"', ',', separator]) { format!("\"{}\"", cell.replace('"', "\"\"")) } else { cell }
                })
                .collect();
            out.push_str(&cells.join(&separator.to_string()));
            out.push('\n');
        }
        out
    }

    /// A culture whose list separator is `;` gives the same records, and one whose decimal
    /// separator is a comma too (made from the real file, which is written with `,` and `.`).
    #[test]
    fn a_semicolon_file_and_decimal_commas_read_alike() {
        let text = fixture_text("Conway");
        let comma = read_text("r/Conway-measurements.csv", &text, None).unwrap();
        let semicolon = rewritten(&text, ';', '.');
        assert!(semicolon.starts_with("Target;Target_Namespace;"));
        let t = read_text("r/Conway-measurements.csv", &semicolon, None).unwrap();
        assert_eq!(t.format, Format::BenchmarkDotNet);
        assert_eq!(contents(&t), contents(&comma));
        let decimal_commas = rewritten(&text, ';', ',');
        assert!(decimal_commas.contains(";\"2476862,29\";"), "a decimal comma is quoted, as BenchmarkDotNet quotes any comma");
        let t = read_text("r/Conway-measurements.csv", &decimal_commas, None).unwrap();
        assert_eq!(contents(&t), contents(&comma));
        assert_eq!(t.jsonl.records.iter().map(|r| r.line).collect::<Vec<_>>(), comma.jsonl.records.iter().map(|r| r.line).collect::<Vec<_>>());
    }

    /// A file cut inside a row is refused at that row, with its text: by its count of cells,
    /// or, where it was cut inside the last cell, by the missing line end.
    #[test]
    fn a_row_cut_short_is_located() {
        let text = fixture_text("Alonzo");
        let line_65 = text.match_indices('\n').nth(63).unwrap().0 + 1;
        let cut = &text[..line_65 + 300];
        let err = read_text("r/Alonzo-measurements.csv", cut, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Alonzo-measurements.csv:65:1");
        assert!(err.message.contains("line 65: this row has") && err.message.contains("but the header has 60 columns"), "{}", err.message);
        assert!(err.location.unwrap().excerpt.starts_with("AlonzoBenchmarks.New,"));
        // Inside the quoted `Job_Display`.
        let in_quotes = &text[..line_65 + text[line_65..].find("Job-ONJMYK(").unwrap() + 12];
        let err = read_text("r/Alonzo-measurements.csv", in_quotes, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Alonzo-measurements.csv:65:1");
        // Inside the last cell: as many cells, but no line end.
        let in_last = &text[..text.len() - 4];
        let err = read_text("r/Alonzo-measurements.csv", in_last, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Alonzo-measurements.csv:135:1");
        assert!(err.message.contains("line 135: this last row has no line end"), "{}", err.message);
    }

    #[test]
    fn a_file_without_result_rows_is_refused() {
        let text = fixture_text("Alonzo");
        let without: String = text.split_inclusive('\n').filter(|line| !line.contains(",Workload,Result,")).collect();
        let err = read_text("r/Alonzo-measurements.csv", &without, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Alonzo-measurements.csv:1:1");
        assert!(err.message.contains("no row of this file is one of the measurements BenchmarkDotNet computes its table from"), "{}", err.message);
        let header_only: String = text.split_inclusive('\n').take(1).collect();
        assert!(read_text("r/Alonzo-measurements.csv", &header_only, None).unwrap_err().message.contains("no row of this file"));
    }

    /// The header and one job's cells of the Chrysalis files, for files made in their layout.
    fn chrysalis_layout() -> (String, String) {
        let text = fixture_text("Alonzo");
        let mut lines = text.lines();
        let header = lines.next().unwrap().to_string();
        let row = lines.next().unwrap();
        // The job's cells run from `Job_Id`, the fifth, to the quoted `Job_Display`.
        let start = row.match_indices(',').nth(3).unwrap().0 + 1;
        let end = row.find(")\",").unwrap() + 2;
        (header, row[start..end].to_string())
    }

    /// A number as .NET's format `0.##` prints it.
    fn dotnet(x: f64) -> String {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }

    /// A synthetic measurements file in the exact layout of the Chrysalis files (BenchmarkDotNet
    /// 0.14.0 with the memory diagnoser): its header, and for each of `rows` (method, `Params`,
    /// launch, mode, stage, index, nanoseconds, operations, then `Gen_0,Gen_1,Gen_2,Allocated_Bytes`)
    /// a row of the type `Sums` with the Chrysalis job's cells.
    fn synthetic(rows: &[(&str, &str, u32, &str, &str, u32, f64, u64, &str)]) -> String {
        let (header, job) = chrysalis_layout();
        let mut out = header + "\n";
        for (method, params, launch, mode, stage, index, ns, ops, gc) in rows {
            let value = dotnet(ns / *ops as f64);
            let ns = dotnet(*ns);
            out.push_str(&format!("Sums.{method},Synthetic.Benchmarks,Sums,{method},{job},{params},{launch},{mode},{stage},{index},{ns},{ops},{value},{gc}\n"));
        }
        out
    }

    /// Parameters (a synthetic file: the Chrysalis benchmarks have none): `name` as
    /// BenchmarkDotNet's table names the row, each value a field of its own, and a value
    /// holding `&` read whole.
    #[test]
    fn parameters_name_the_record() {
        let text = synthetic(&[
            ("Add", "N=10&Size=5", 1, "Workload", "Actual", 1, 1200.0, 4, "0,0,0,0"),
            ("Add", "N=10&Size=5", 1, "Workload", "Result", 1, 1000.0, 4, "0,0,0,0"),
            ("Add", "N=10&Size=5", 1, "Workload", "Result", 2, 1001.0, 4, "0,0,0,0"),
            ("Add", "N=20&Size=5", 1, "Workload", "Result", 1, 2000.0, 4, "0,0,0,0"),
            ("Join", "Text=a&b&N=1", 1, "Workload", "Result", 1, 30.0, 1, "0,0,0,0"),
        ]);
        let t = read_text("r/Sums-measurements.csv", &text, None).unwrap();
        let j = &t.jsonl;
        let names: Vec<String> = j.records.iter().map(|r| j.text_of(j.get(r, "name"))).collect();
        assert_eq!(names, ["Add [N=10, Size=5]", "Add [N=10, Size=5]", "Add [N=20, Size=5]", "Join [Text=a&b, N=1]"]);
        assert_eq!(record_name("Add", &[("N", "10"), ("Size", "5")]), "Add [N=10, Size=5]");
        assert_eq!(record_name("Add", &[]), "Add");
        assert_eq!(case_name("Add", ".NET 8.0", &[("N", "10")]), "Add: .NET 8.0 [N=10]");
        assert_eq!(case_name("Add", "Job-ONJMYK", &[]), "Add: Job-ONJMYK");
        let first = &j.records[0];
        assert_eq!((j.text_of(j.get(first, "param_N")), j.text_of(j.get(first, "param_Size"))), ("10".to_string(), "5".to_string()));
        assert_eq!(j.text_of(j.get(first, "params")), "N=10&Size=5");
        assert_eq!(j.text_of(j.get(&j.records[3], "param_Text")), "a&b");
        assert_eq!(first.line, 3);
        assert_eq!(samples(&t, "name = \"Add [N=10, Size=5]\"", "time_ns").mean(), 250.125);
        assert_eq!(samples(&t, "param_N = \"20\"", "time_ns").mean(), 500.0);
    }

    #[test]
    fn a_parameter_written_twice_or_no_parameters_are_refused_at_the_cell() {
        let twice = synthetic(&[("Add", "N=10&N=20", 1, "Workload", "Result", 1, 1000.0, 4, "0,0,0,0")]);
        let err = read_text("r/Sums-measurements.csv", &twice, None).unwrap_err();
        let col = twice.lines().nth(1).unwrap().find("N=10&N=20").unwrap() + 1;
        assert_eq!(err.position().unwrap(), format!("r/Sums-measurements.csv:2:{col}"));
        assert!(err.message.contains("the parameter `N` is written twice in `Params`"), "{}", err.message);
        assert_eq!(err.location.unwrap().excerpt.trim_end(), twice.lines().nth(1).unwrap());
        let garbled = synthetic(&[("Add", "10&Size=5", 1, "Workload", "Result", 1, 1000.0, 4, "0,0,0,0")]);
        let err = read_text("r/Sums-measurements.csv", &garbled, None).unwrap_err();
        assert!(err.message.contains("`Params` is \"10&Size=5\", not `Name=value` pairs joined by `&`"), "{}", err.message);
    }

    /// `NA` and `?` (BenchmarkDotNet's unknown) leave `allocated_bytes` out; the collections stay.
    #[test]
    fn unknown_allocations_are_absent() {
        let text = synthetic(&[
            ("Add", "", 1, "Workload", "Result", 1, 1000.0, 4, "2,1,0,NA"),
            ("Add", "", 1, "Workload", "Result", 2, 1000.0, 4, "2,1,0,?"),
            ("Add", "", 1, "Workload", "Result", 3, 1000.0, 4, "2,1,0,96"),
        ]);
        let t = read_text("r/Sums-measurements.csv", &text, None).unwrap();
        let j = &t.jsonl;
        let allocated: Vec<Option<Scalar>> = j.records.iter().map(|r| j.get(r, "allocated_bytes")).collect();
        assert_eq!(allocated, [None, None, Some(Scalar::Float(96.0))]);
        assert!(j.records.iter().all(|r| j.get(r, "gen0_per_1000_ops") == Some(Scalar::Float(500.0))));
        // A statistic over the field fails at the first record without it.
        let all: Vec<_> = j.records.iter().collect();
        let err = j.samples(&all, "allocated_bytes").unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Sums-measurements.csv:2:1");
    }

    /// Collections were counted in the last launch, over as many operations as each of its
    /// iterations: with launches of 64 and 128 operations, every record's rate is over 128.
    #[test]
    fn collections_are_per_the_last_launchs_operations() {
        let text = synthetic(&[
            ("Add", "", 1, "Workload", "Result", 1, 6400.0, 64, "32,0,0,16"),
            ("Add", "", 2, "Workload", "Result", 1, 12800.0, 128, "32,0,0,16"),
            ("Sub", "", 1, "Workload", "Result", 1, 6400.0, 64, "8,0,0,16"),
        ]);
        let t = read_text("r/Sums-measurements.csv", &text, None).unwrap();
        let j = &t.jsonl;
        let per_1000: Vec<Option<Scalar>> = j.records.iter().map(|r| j.get(r, "gen0_per_1000_ops")).collect();
        assert_eq!(per_1000, [Some(Scalar::Float(250.0)), Some(Scalar::Float(250.0)), Some(Scalar::Float(125.0))]);
    }

    #[test]
    fn a_number_that_does_not_parse_is_located_at_its_cell() {
        let good = synthetic(&[("Add", "", 1, "Workload", "Result", 1, 1000.0, 4, "0,0,0,0")]);
        let row = good.lines().nth(1).unwrap();
        let cases = [
            (",1000,4,250,", ",1e3x,4,250,", "`Measurement_Nanoseconds` is \"1e3x\", not a number", "1e3x"),
            (",1000,4,250,", ",1000,0,250,", "`Measurement_Operations` is \"0\", not a whole number of 1 or more", "0"),
            (",1000,4,250,", ",1000,4.5,250,", "`Measurement_Operations` is \"4.5\", not a whole number of 1 or more", "4.5"),
            (",1000,4,250,", ",1000,4,NaN,", "`Measurement_Value` is \"NaN\", not a number", "NaN"),
            (",Workload,Result,1,", ",Workload,Result,x,", "`Measurement_IterationIndex` is \"x\"", "x"),
            (",250,0,0,0,0", ",250,zero,0,0,0", "`Gen_0` is \"zero\", not a number", "zero"),
        ];
        for (from, to, says, cell) in cases {
            let text = good.replacen(from, to, 1);
            assert_ne!(text, good, "{from}");
            let err = read_text("r/Sums-measurements.csv", &text, None).unwrap_err();
            let bad = text.lines().nth(1).unwrap();
            let col = bad.find(to).unwrap() + to.find(&format!(",{cell},")).unwrap() + 2;
            assert_eq!(err.position().unwrap(), format!("r/Sums-measurements.csv:2:{col}"), "{says}");
            assert!(err.message.contains(&format!("line 2: {says}")), "{}", err.message);
            assert_eq!(err.location.unwrap().excerpt.trim_end(), bad);
        }
        assert!(row.ends_with(",1,Workload,Result,1,1000,4,250,0,0,0,0"), "{row}");
    }

    /// BenchmarkDotNet 0.10.1 to 0.10.14 marked its results by their mode and wrote no stage:
    /// read, without the collections, which those releases counted otherwise.
    #[test]
    fn a_file_of_benchmarkdotnet_0_10_is_read_by_its_result_mode() {
        let header = "Target,Target_Namespace,Target_Type,Target_Method,Job_Id,Job_Display,Params,Measurement_LaunchIndex,Measurement_IterationMode,Measurement_IterationIndex,Measurement_Nanoseconds,Measurement_Operations,Measurement_Value,Gen_0,Gen_1,Gen_2,Allocated_Bytes\n";
        let rows = [
            "Sums.Add,Synthetic,Sums,Add,DefaultJob,DefaultJob,,1,IdleTarget,1,100,4,25,3,0,0,24\n",
            "Sums.Add,Synthetic,Sums,Add,DefaultJob,DefaultJob,,1,MainTarget,1,1100,4,275,3,0,0,24\n",
            "Sums.Add,Synthetic,Sums,Add,DefaultJob,DefaultJob,,1,Result,1,1000,4,250,3,0,0,24\n",
            "Sums.Add,Synthetic,Sums,Add,DefaultJob,DefaultJob,,1,Result,2,1002,4,250.5,3,0,0,24\n",
        ];
        let text = format!("{header}{}", rows.concat());
        let t = read_text("r/Sums-measurements.csv", &text, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::BenchmarkDotNet, Detected::ByName));
        let j = &t.jsonl;
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>(), [4, 5]);
        assert_eq!(samples(&t, "name = \"Add\"", "time_ns").sorted(), [250.0, 250.5]);
        assert!(!j.field_names().iter().any(|f| f.starts_with("gen") || *f == "allocated_bytes"), "{:?}", j.field_names());
        // Without its name, such a file is a plain table: its header has no stage.
        assert_eq!(read_text("r/sums.csv", &text, None).unwrap().format, Format::Csv);
    }

    /// 0.11.0 wrote `Workload` and `Overhead` without a stage, and a file from before 0.10.1
    /// names its columns without underscores: both refused, with what to export instead.
    #[test]
    fn older_layouts_are_refused_with_what_to_export() {
        let header = "Target,Target_Namespace,Target_Type,Target_Method,Job_Id,Job_Display,Params,Measurement_LaunchIndex,Measurement_IterationMode,Measurement_IterationIndex,Measurement_Nanoseconds,Measurement_Operations,Measurement_Value\n";
        let text = format!("{header}Sums.Add,Synthetic,Sums,Add,DefaultJob,DefaultJob,,1,Overhead,1,100,4,25\n");
        let err = read_text("r/Sums-measurements.csv", &text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Sums-measurements.csv:2:54");
        assert!(err.message.contains("BenchmarkDotNet 0.11.0 wrote its measurements so"), "{}", err.message);
        assert!(err.notes.iter().any(|n| n.contains("BenchmarkDotNet 0.11.1 or later")), "{:?}", err.notes);
        let text = "Target;TargetType;TargetMethod;Job;Params;MeasurementLaunchIndex;MeasurementIterationMode;MeasurementIterationIndex;MeasurementNanoseconds;MeasurementOperations;MeasurementValue\nSums.Add;Sums;Add;Default;;1;Result;1;1000;4;250\n";
        let err = read_text("r/Sums-measurements.csv", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Sums-measurements.csv:1:1");
        assert!(err.message.contains("from BenchmarkDotNet before 0.10.1"), "{}", err.message);
        let missing = "Target,Target_Namespace,Target_Type,Target_Method,Params\nA.b,N,A,b,\n";
        let err = read_text("r/A-measurements.csv", missing, None).unwrap_err();
        assert!(err.message.contains("the header has no `Measurement_LaunchIndex` column"), "{}", err.message);
    }

    #[test]
    fn a_separator_of_more_than_one_byte_is_refused() {
        let text = rewritten(&fixture_text("Conway"), ',', '.').replace(",Target_Namespace,", "؛Target_Namespace,");
        let err = read_text("r/Conway-measurements.csv", &text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/Conway-measurements.csv:1:7");
        assert!(err.message.contains("separated this file's cells with `؛`"), "{}", err.message);
        assert!(err.notes.iter().any(|n| n.contains("CsvSeparator.Comma")), "{:?}", err.notes);
    }

    /// By name where the header begins as BenchmarkDotNet's; by its header under any other
    /// name, before a plain CSV table; a file of that name with another header is a table.
    #[test]
    fn the_file_is_detected_by_name_or_header() {
        let text = fixture_text("Babbage");
        let cases = [
            ("r/Babbage-measurements.csv", text.as_str(), Format::BenchmarkDotNet, Detected::ByName),
            ("r/BABBAGE-MEASUREMENTS.CSV", text.as_str(), Format::BenchmarkDotNet, Detected::ByName),
            ("r/babbage.csv", text.as_str(), Format::BenchmarkDotNet, Detected::ByContent),
            ("r/babbage.txt", text.as_str(), Format::BenchmarkDotNet, Detected::ByContent),
            ("r/babbage", text.as_str(), Format::BenchmarkDotNet, Detected::ByContent),
            ("r/room-measurements.csv", "room,temperature_c\nhall,19.5\n", Format::Csv, Detected::ByName),
        ];
        for (path, text, format, detected) in cases {
            let t = read_text(path, text, None).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!((t.format, t.detected), (format, detected), "{path}");
        }
        let t = read_text("r/babbage.csv", &text, None).unwrap();
        assert_eq!(t.read_as(), "read as BenchmarkDotNet measurements CSV (detected)");
        // Named, the file is read as a plain table too.
        assert_eq!(read_text("r/Babbage-measurements.csv", &text, Some(Format::Csv)).unwrap().jsonl.records.len(), 133);
    }

    #[test]
    fn params_split_at_names() {
        assert_eq!(split_params(""), Some(vec![]));
        assert_eq!(split_params("N=1"), Some(vec![("N", "1")]));
        assert_eq!(split_params("N=1&_m2=x=y"), Some(vec![("N", "1"), ("_m2", "x=y")]));
        assert_eq!(split_params("Q=a&&b&"), Some(vec![("Q", "a&&b&")]));
        assert_eq!(split_params("Größe=1&N="), Some(vec![("Größe", "1"), ("N", "")]));
        assert_eq!(split_params("=1"), None);
        assert_eq!(split_params("1N=1"), None);
    }

    #[test]
    fn cells_are_found_past_quoted_separators() {
        let text = "a,b\nx,\"y,\"\"z\",w\n";
        assert_eq!(&text[cell_span(text, 4, b',', 0)], "x");
        assert_eq!(&text[cell_span(text, 4, b',', 1)], "\"y,\"\"z\"");
        assert_eq!(&text[cell_span(text, 4, b',', 2)], "w");
        assert_eq!(&text[cell_span(text, 4, b',', 5)], "x,\"y,\"\"z\",w");
    }
}
