//! `benchmarkdotnet`, its log: the text BenchmarkDotNet writes to its console and, always, to
//! `BenchmarkDotNet.Artifacts/<Title>.log` (`<Title>-<date>.log` in recent releases), one record
//! per `WorkloadResult` line, with the fields the measurements CSV gives
//! (`super::benchmarkdotnet`, whose [`push_record`] makes them). This module owns telling a
//! log apart from BenchmarkDotNet's other files, reading a case's header line, its launches, its
//! results and its `// GC:` line, and refusing a log cut short or from a release whose lines it
//! does not read. It never reads the summaries the log also prints (`Mean = …`, the table),
//! which the checks recompute.
//!
//! What BenchmarkDotNet writes, from its own source (dotnet/BenchmarkDotNet at 5995bf68f, and at
//! the tags v0.10.14, v0.11.0, v0.12.1 and v0.14.0, under `src/BenchmarkDotNet/`):
//!
//! - `Running/BenchmarkRunnerClean.cs` (`RunCore`, `Execute`) writes, for each benchmark case,
//!   `// Benchmark: ` and the case's `DisplayInfo`, then `// Launch: 1 / 3` (or `// Launch: 1`
//!   while the number of launches is still being chosen) before each launch, whose process's
//!   output it copies into the log line by line. After the launches, a diagnoser that needs a run
//!   of its own (`// Run, Diagnostic`) runs the case once more: its results are discarded, and so
//!   are they here. When every case has run it writes `// ***** BenchmarkRunner: Finish  *****`,
//!   since 0.11.0 (`Running/BenchmarkRunner.cs` there).
//! - `Running/BenchmarkCase.cs` makes `DisplayInfo` as `Type.Method: Job [Name=value, …]`:
//!   `Descriptor.DisplayInfo` (the type's name without its namespace, generic arguments written
//!   `<Int32>`, a dot, and `WorkloadMethodDisplayInfo`, the method's name or its description, in
//!   single quotes where it holds a space, a quote or a bracket), `Job.DisplayInfo` (the job's id,
//!   then its characteristics in parentheses where it has any: `ShortRun(IterationCount=3,
//!   LaunchCount=1, WarmupCount=3)`), and `ParameterInstances.DisplayInfo` (absent without
//!   parameters).
//! - `Engines/RunResults.cs` (`Print`) writes, in the benchmark's process, each result as
//!   `Measurement.ToString` writes it, `WorkloadResult  12: 8192000 op, 570821650.00 ns,
//!   69.6804 ns/op`: the iteration (from 1), its operations, and its whole time in nanoseconds
//!   with the format `0.00` in `DefaultCultureInfo`, the invariant culture with a point, whatever
//!   the machine's culture; then `GcStats.ToOutputLine` where there are any, `// GC:  15 0 0
//!   262144000 8192000` (collections of generations 0, 1 and 2, bytes allocated, `?` where not
//!   known, and the operations they were counted over). `Toolchains/Results/ExecuteResult.cs`
//!   parses those lines back, and they are what the summary's statistics are computed from; the
//!   results are the iterations of `WorkloadActual`, less the median of `OverheadActual`, upper
//!   outliers removed by default.
//! - The memory diagnoser's figures are the last launch's (`BenchmarkRunnerClean.Execute` runs
//!   it then alone), and `Diagnosers/MemoryDiagnoser.cs` makes its columns from that `// GC:`
//!   line: `Gen0` is collections × 1000 / operations, `Allocated` bytes / operations rounded to
//!   a whole byte, half to even (`GcStats.GetBytesAllocatedPerOperation`).
//!
//! Fields of each record, the same names with the same meanings as the measurements CSV's:
//!
//! | field | from the log |
//! |---|---|
//! | `benchmark` | the header's `Type.Method`: the CSV's `Target` (for a generic type the CSV writes its CLR name, `Sums`1`, the log `Sums<Int32>`) |
//! | `name` | `method`, then the parameters as the header writes them, `Sum [N=10, Size=5]`, as BenchmarkDotNet's table names the row |
//! | `type`, `method` | the header's type, and what follows its first dot up to the job |
//! | `params`, `param_<Name>` | the header's parameters joined by `&` as the CSV writes them (`N=10&Size=5`, empty without parameters), and each value as written |
//! | `job`, `case` | the job's id (before its characteristics), and `method: job [Name=value, …]` |
//! | `launch` | the number of the `// Launch:` line the result follows, from 1 |
//! | `iteration`, `operations` | the line's iteration and operations |
//! | `time_ns` | the line's nanoseconds / its operations (not its rounded `ns/op` figure) |
//! | `gen0_per_1000_ops` … `gen2_per_1000_ops`, `allocated_bytes` | from the `// GC:` line of the case's last launch, where it has one that counted operations (memory diagnoser) |
//!
//! The log does not hold the type's namespace, so no record has `namespace`, nor `value_ns`,
//! which is the CSV's own rounding of `time_ns`.
//!
//! **Refused.** A log whose last line has no line end, or which lacks BenchmarkDotNet's
//! `Finish` line, is refused as cut short, since its last case's results may be incomplete; a
//! case with no result (a benchmark that failed) gives no record, as it gives no row in the CSV,
//! and a log with no result at all is refused. BenchmarkDotNet before 0.11.0 wrote its results
//! as `Result  1: …` after `MainTarget`/`IdleTarget` iterations and counted collections otherwise;
//! such a log is refused at its first such line, with what to export instead. A time written with
//! a decimal comma is not one BenchmarkDotNet writes and is refused at it.
//!
//! A record's line is its `WorkloadResult` line.

use std::collections::BTreeSet;
use std::ops::Range;

use super::Source;
use super::benchmarkdotnet::{Case, Iteration, Memory, Sample, push_record};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{Jsonl, JsonlBuilder};

/// The layout's name in the report.
pub(crate) const LAYOUT: &str = "BenchmarkDotNet log";

const HEADER: &str = "// Benchmark: ";
const LAUNCH: &str = "// Launch: ";
const GC: &str = "// GC: ";
const RESULT: &str = "WorkloadResult";
const DIAGNOSTIC_RUN: &str = "// Run, Diagnostic";
const FINISH: &str = "// ***** BenchmarkRunner: Finish";

/// What to do instead with a log this reader refuses for its release.
const EXPORT_INSTEAD: &str = "rerun with BenchmarkDotNet 0.11.1 or later and point the check at its log, or at the measurements file of `[CsvMeasurementsExporter]`";

/// Whether `text` is BenchmarkDotNet's log: a line beginning `// Benchmark: `, and a later line
/// that is a measurement as BenchmarkDotNet writes one (`WorkloadResult   1: 6 op, …`, or an older
/// release's `Result  1: 6 op, …`), or begins as a result does. No CSV, JSON or Markdown file of BenchmarkDotNet's begins
/// a line so.
pub(super) fn looks_like(text: &str) -> bool {
    let mut header_seen = false;
    for line in text.lines().take(200_000) {
        if line.starts_with(HEADER) {
            header_seen = true;
        } else if header_seen && (measurement_mode(line).is_some() || line.starts_with("WorkloadResult ")) {
            return true;
        }
    }
    false
}

pub(super) fn read(src: &Source) -> Result<Jsonl, Diagnostic> {
    let text = src.text;
    if !text.is_empty() && !text.ends_with('\n') {
        let start = text.rfind('\n').map_or(0, |i| i + 1);
        return Err(src
            .error(start..text.len(), "this last line has no line end, so the log may be cut short inside it: BenchmarkDotNet ends every line with one", "cut short?")
            .with_note("use the log of a run that finished; if the line is whole, end it with a line end"));
    }
    let mut cases: Vec<CaseLog> = Vec::new();
    let mut finished = false;
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let start = at;
        at += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let span = start..start + line.len();
        if line.starts_with(FINISH) {
            finished = true;
            break;
        }
        if let Some(display) = line.strip_prefix(HEADER) {
            let header = Header::parse(display).map_err(|(offset, message)| {
                let col = start + HEADER.len() + offset;
                src.error(col..span.end, format!("this case's header is not `Type.Method: Job [Name=value, …]` as BenchmarkDotNet writes it: {message}"), "header")
            })?;
            cases.push(CaseLog { header, launch: None, diagnostic_run: false, results: Vec::new(), gc: Vec::new() });
            continue;
        }
        let Some(case) = cases.last_mut() else { continue };
        if let Some(rest) = line.strip_prefix(LAUNCH) {
            let number = rest.split(" / ").next().unwrap_or("");
            match number.parse::<i64>() {
                Ok(n) if n >= 1 => case.launch = Some(n),
                _ => {
                    let col = start + LAUNCH.len();
                    return Err(src.error(col..col + number.len(), format!("`// Launch:` is followed by \"{number}\", not a launch number of 1 or more"), "not a launch"));
                }
            }
            case.diagnostic_run = false;
            continue;
        }
        if line.starts_with(DIAGNOSTIC_RUN) {
            case.diagnostic_run = true;
            continue;
        }
        if let Some(rest) = line.strip_prefix(GC) {
            if !case.diagnostic_run {
                let gc = GcLine::parse(rest).map_err(|(offset, message)| {
                    let col = start + GC.len() + offset;
                    src.error(col..span.end, format!("this `// GC:` line is not BenchmarkDotNet's (`// GC:  gen0 gen1 gen2 bytes operations`): {message}"), "GC line")
                })?;
                case.gc.push((case.launch, gc));
            }
            continue;
        }
        // A line that begins as a result is read as one, so that a damaged one is refused
        // rather than passed over.
        let mode = if line.starts_with(RESULT) && line[RESULT.len()..].starts_with(' ') { Some(RESULT) } else { measurement_mode(line) };
        match mode {
            Some(RESULT) => {
                if case.diagnostic_run {
                    continue;
                }
                let Some(launch) = case.launch else {
                    return Err(src.error(span, "this result comes before any `// Launch:` line of its case, which BenchmarkDotNet writes before every launch", "no launch"));
                };
                let (iteration, operations, nanoseconds) =
                    parse_measurement(line).map_err(|(cols, message)| src.error(start + cols.start..start + cols.end, message, "not a result"))?;
                case.results.push(Result_ { line_span: span, launch, iteration, operations, nanoseconds });
            }
            Some(mode @ ("Result" | "MainTarget" | "IdleTarget" | "MainWarmup" | "IdleWarmup")) => {
                return Err(src
                    .error(
                        start..start + mode.len(),
                        format!("this line's mode is `{mode}`: BenchmarkDotNet before 0.11.0 wrote its iterations so, and counted its collections over other operations than one iteration's, which this reader does not read"),
                        "older release",
                    )
                    .with_note(EXPORT_INSTEAD));
            }
            _ => {}
        }
    }
    if !finished {
        let end = text.trim_end().len();
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        return Err(src
            .error(
                start..end,
                "this log has no `// ***** BenchmarkRunner: Finish  *****` line, which BenchmarkDotNet writes when every case has run: it was cut short or the run was stopped, and its last case's results may be incomplete",
                "cut short?",
            )
            .with_note("use the log of a run that finished"));
    }
    if cases.iter().all(|c| c.results.is_empty()) {
        let first = text.lines().next().unwrap_or("");
        return Err(src
            .error(
                0..first.len(),
                "no line of this log is a `WorkloadResult`, one of the results BenchmarkDotNet computes its table from, so there are no records to read",
                "no results",
            )
            .with_note("BenchmarkDotNet writes them for every benchmark that ran to its end: rerun the benchmarks that failed"));
    }
    let mut out = JsonlBuilder::new(src.path, text.to_string());
    for case in &cases {
        case.push(src, &mut out);
    }
    Ok(out.finish())
}

/// The mode and stage a measurement line begins with (`WorkloadResult`, `Result`), where the
/// line is one: a word of letters, spaces, a number and `: `, then a number and ` op`.
fn measurement_mode(line: &str) -> Option<&str> {
    let word_end = line.find(|c: char| !c.is_ascii_alphabetic())?;
    let (word, rest) = line.split_at(word_end);
    if word.is_empty() || !rest.starts_with(' ') {
        return None;
    }
    let rest = rest.trim_start_matches(' ');
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let rest = rest[digits..].strip_prefix(": ")?;
    (digits > 0 && rest.starts_with(|c: char| c.is_ascii_digit()) && rest.contains(" op")).then_some(word)
}

/// A `WorkloadResult` line's iteration, operations and nanoseconds; where it is not one as
/// BenchmarkDotNet writes it, the columns of the offending text and what is wrong.
fn parse_measurement(line: &str) -> Result<(i64, i64, f64), (Range<usize>, String)> {
    let after_mode = RESULT.len();
    let index_start = after_mode + line[after_mode..].len() - line[after_mode..].trim_start_matches(' ').len();
    let colon = index_start + line[index_start..].find(':').unwrap_or(line.len() - index_start);
    let index_text = &line[index_start..colon];
    let iteration = match index_text.parse::<i64>() {
        Ok(i) if i >= 1 => i,
        _ => return Err((index_start..colon, format!("the iteration is \"{index_text}\", not a whole number of 1 or more"))),
    };
    let ops_start = (colon + 2).min(line.len());
    let ops_end = ops_start + line[ops_start..].find(' ').unwrap_or(line.len() - ops_start);
    let ops_text = &line[ops_start..ops_end];
    let operations = match ops_text.parse::<i64>() {
        Ok(n) if n >= 1 => n,
        _ => return Err((ops_start..ops_end, format!("the operations are \"{ops_text}\", not a whole number of 1 or more"))),
    };
    let Some(ns_start) = line[ops_end..].strip_prefix(" op, ").map(|_| ops_end + " op, ".len()) else {
        return Err((ops_end..line.len(), format!("\"{}\" follows the operations where BenchmarkDotNet writes ` op, ` and the nanoseconds", &line[ops_end..])));
    };
    let ns_end = ns_start + line[ns_start..].find(' ').unwrap_or(line.len() - ns_start);
    let ns_text = &line[ns_start..ns_end];
    if !line[ns_end..].starts_with(" ns") {
        return Err((ns_start..line.len(), format!("\"{}\" is not a time in nanoseconds followed by ` ns`", &line[ns_start..])));
    }
    let decimal_comma = ns_text.contains(',') && !ns_text.contains('.');
    match ns_text.parse::<f64>() {
        Ok(ns) if ns.is_finite() && ns >= 0.0 && ns_text.bytes().all(|b| b.is_ascii_digit() || b == b'.') => Ok((iteration, operations, ns)),
        _ if decimal_comma => Err((
            ns_start..ns_end,
            format!(
                "the nanoseconds are \"{ns_text}\", written with a decimal comma: BenchmarkDotNet writes them with a point in every culture (`DefaultCultureInfo`), so this line was not written by it as it stands"
            ),
        )),
        _ => Err((ns_start..ns_end, format!("the nanoseconds are \"{ns_text}\", not a number of 0 or more"))),
    }
}

/// One `WorkloadResult` line, read.
struct Result_ {
    line_span: Range<usize>,
    launch: i64,
    iteration: i64,
    operations: i64,
    nanoseconds: f64,
}

/// A case as the log gives it: its header, the launch it is in, whether it is in the run a
/// diagnoser makes after the launches, its results, and its `// GC:` lines with their launches.
struct CaseLog {
    header: Header,
    launch: Option<i64>,
    diagnostic_run: bool,
    results: Vec<Result_>,
    gc: Vec<(Option<i64>, GcLine)>,
}

impl CaseLog {
    /// Pushes a record for each result, with the memory diagnoser's figures of the last launch
    /// where its `// GC:` line counted operations.
    fn push(&self, src: &Source, out: &mut JsonlBuilder) {
        let params_text = self.header.params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
        let case = Case {
            benchmark: &self.header.benchmark,
            type_name: &self.header.type_name,
            namespace: None,
            method: &self.header.method,
            params_text: &params_text,
            params: &self.header.params,
            job: Some(&self.header.job),
        };
        let last_launch = self.results.iter().map(|r| r.launch).max();
        let memory = self.gc.iter().rev().find(|(launch, gc)| *launch == last_launch && gc.operations > 0).map(|(_, gc)| gc.memory()).unwrap_or_default();
        for r in &self.results {
            let (line, span) = src.locate(r.line_span.start);
            let sample = Sample {
                line,
                span,
                iteration: Some(Iteration { launch: r.launch, index: r.iteration, operations: r.operations }),
                time_ns: r.nanoseconds / r.operations as f64,
                value_ns: None,
            };
            push_record(out, &case, &sample, &memory);
        }
    }
}

/// A case's `DisplayInfo`, split.
#[derive(Debug, PartialEq)]
struct Header {
    benchmark: String,
    type_name: String,
    method: String,
    job: String,
    params: Vec<(String, String)>,
}

impl Header {
    /// `Type.Method: Job(…) [Name=value, …]`; where it is not so, the byte offset in `display`
    /// of what is wrong, and what.
    fn parse(display: &str) -> Result<Header, (usize, String)> {
        let dot = display.find('.').ok_or((0, "no `.` between the type and the method".to_string()))?;
        let type_name = &display[..dot];
        let rest = &display[dot + 1..];
        // A method's description holding a space (and so `: `) is written in single quotes.
        let method_end = if rest.starts_with('\'') { rest.find("': ").map(|i| i + 1) } else { rest.find(": ") };
        let Some(method_end) = method_end.filter(|e| *e > 0 && !type_name.is_empty()) else {
            return Err((0, "no `: ` between the benchmark and its job".to_string()));
        };
        let method = &rest[..method_end];
        let job_start = dot + 1 + method_end + 2;
        let after = &display[job_start..];
        let mut depth = 0i32;
        let mut job_end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ' ' if depth == 0 && after[i..].starts_with(" [") => {
                    job_end = i;
                    break;
                }
                _ => {}
            }
        }
        let job_display = &after[..job_end];
        let job = job_display.split_once('(').map_or(job_display, |(id, _)| id);
        if job.is_empty() {
            return Err((job_start, "no job after `: `".to_string()));
        }
        let params_text = after[job_end..].trim_start();
        let params = if params_text.is_empty() {
            Vec::new()
        } else {
            let inner = params_text.strip_prefix('[').and_then(|p| p.strip_suffix(']'));
            let pairs = inner.and_then(split_params).ok_or((job_start + job_end + 1, format!("the parameters \"{params_text}\" are not `[Name=value, …]`")))?;
            let mut seen = BTreeSet::new();
            if let Some((name, _)) = pairs.iter().find(|(name, _)| !seen.insert(*name)) {
                return Err((job_start + job_end + 1, format!("the parameter `{name}` is written twice")));
            }
            pairs.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        Ok(Header { benchmark: format!("{type_name}.{method}"), type_name: type_name.to_string(), method: method.to_string(), job: job.to_string(), params })
    }
}

/// `Name=value, Name=value` split into its pairs; a piece after `, ` that does not begin with a
/// name and `=` belongs to the value before it, as a value may hold `, `.
fn split_params(text: &str) -> Option<Vec<(&str, &str)>> {
    let mut pairs: Vec<(&str, Range<usize>)> = Vec::new();
    let mut at = 0;
    for piece in text.split(", ") {
        let start = at;
        at += piece.len() + 2;
        match piece.split_once('=') {
            Some((name, _)) if is_identifier(name) => pairs.push((name, start + name.len() + 1..start + piece.len())),
            _ => pairs.last_mut()?.1.end = start + piece.len(),
        }
    }
    Some(pairs.into_iter().map(|(name, value)| (name, &text[value])).collect())
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// A `// GC:` line: collections of each generation, bytes allocated in all (`None` where
/// written `?`), and the operations they were counted over.
#[derive(Debug, PartialEq)]
struct GcLine {
    collections: [i64; 3],
    allocated: Option<i64>,
    operations: i64,
}

impl GcLine {
    /// The text after `// GC: `; where it is not five counts, the offset of what is wrong.
    fn parse(rest: &str) -> Result<GcLine, (usize, String)> {
        let mut words = Vec::new();
        let mut at = 0;
        for word in rest.split(' ') {
            if !word.is_empty() {
                words.push((at, word));
            }
            at += word.len() + 1;
        }
        if words.len() != 5 {
            return Err((0, format!("{} values where BenchmarkDotNet writes 5", words.len())));
        }
        let count =
            |(offset, word): (usize, &str)| -> Result<i64, (usize, String)> { word.parse::<i64>().ok().filter(|n| *n >= 0).ok_or((offset, format!("\"{word}\" is not a count"))) };
        let allocated = if words[3].1 == "?" { None } else { Some(count(words[3])?) };
        Ok(GcLine { collections: [count(words[0])?, count(words[1])?, count(words[2])?], allocated, operations: count(words[4])? })
    }

    /// The memory diagnoser's figures, as `MemoryDiagnoser.ProcessResults` computes them.
    fn memory(&self) -> Memory {
        let per_op = self.allocated.map(|bytes| (bytes as f64 / self.operations as f64).round_ties_even());
        Memory { collections: self.collections.map(|c| Some(c as f64)), operations: self.operations, allocated: per_op }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::{Detected, Format};
    use super::*;
    use crate::evidence::jsonl::Scalar;

    const NET_MEDIATE: &str = "benchmarkdotnet-log/net-mediate-0.15.8.log";

    fn fixture_text(rel: &str) -> String {
        std::fs::read_to_string(format!("{ROOT}/{rel}")).unwrap()
    }

    /// What BenchmarkDotNet printed for each case of the net-mediate run, in the log itself
    /// (`Mean = …, N = …, StdDev = …`, `Min = …, Median = …, Max = …`) and in its table
    /// (`Gen0`, `Allocated`): method, job, N, mean, standard deviation, min, median, max (ns, to
    /// three decimals), Gen0 (to four), Allocated (B).
    const PRINTED: [(&str, &str, usize, f64, f64, f64, f64, f64, f64, f64); 8] = [
        ("'Command  Send'", "Job-CEIKLR", 12, 69.853, 0.086, 69.680, 69.865, 69.965, 0.0018, 32.0),
        ("'Notification  Notify'", "Job-CEIKLR", 15, 119.371, 1.672, 117.677, 118.917, 123.057, 0.0162, 272.0),
        ("'Request  Request'", "Job-CEIKLR", 15, 88.228, 0.864, 87.011, 88.225, 89.643, 0.0061, 104.0),
        ("'Stream  RequestStream (3 items/call)'", "Job-CEIKLR", 14, 162.058, 0.652, 161.439, 161.906, 163.686, 0.0117, 200.0),
        ("'Command  Send'", "ShortRun", 3, 71.653, 0.086, 71.590, 71.618, 71.751, 0.0018, 32.0),
        ("'Notification  Notify'", "ShortRun", 3, 119.453, 1.725, 118.416, 118.499, 121.445, 0.0162, 272.0),
        ("'Request  Request'", "ShortRun", 3, 88.673, 0.236, 88.440, 88.667, 88.912, 0.0061, 104.0),
        ("'Stream  RequestStream (3 items/call)'", "ShortRun", 3, 171.070, 1.803, 169.280, 171.046, 172.886, 0.0117, 200.0),
    ];

    /// Every case's statistics recomputed from its records equal what BenchmarkDotNet printed
    /// for it, to the digits printed.
    #[test]
    fn the_net_mediate_log_reproduces_benchmarkdotnets_printed_statistics() {
        let t = read_fixture(NET_MEDIATE, None).unwrap();
        assert_eq!((t.format, t.detected, t.layout), (Format::BenchmarkDotNet, Detected::ByContent, Some(LAYOUT)));
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 68);
        for (method, job, n, mean, sd, min, median, max, gen0, allocated) in PRINTED {
            let select = format!("method = \"{method}\"\njob = \"{job}\"");
            let s = samples(&t, &select, "time_ns");
            assert_eq!(s.len(), n, "{method} {job}");
            let close = |got: f64, printed: f64, half: f64, what: &str| assert!((got - printed).abs() <= half, "{method} {job} {what}: {got} against {printed}");
            close(s.mean(), mean, 0.0005, "mean");
            close(s.stdev(), sd, 0.0005, "standard deviation");
            close(s.min(), min, 0.0005, "min");
            close(s.median(), median, 0.0005, "median");
            close(s.max(), max, 0.0005, "max");
            close(samples(&t, &select, "gen0_per_1000_ops").mean(), gen0, 0.00005, "Gen0");
            assert_eq!(samples(&t, &select, "allocated_bytes").sorted()[0], allocated, "{method} {job}");
        }
    }

    /// A record's fields, as the measurements CSV names them; the line is the result's.
    #[test]
    fn a_record_has_the_measurements_files_fields() {
        let t = read_fixture(NET_MEDIATE, None).unwrap();
        let j = &t.jsonl;
        let first = &j.records[0];
        let text = |f: &str| j.text_of(j.get(first, f));
        assert_eq!(text("benchmark"), "CoreDispatchBenchmarks.'Command  Send'");
        assert_eq!(text("name"), "'Command  Send'");
        assert_eq!(text("type"), "CoreDispatchBenchmarks");
        assert_eq!(text("job"), "Job-CEIKLR");
        assert_eq!(text("case"), "'Command  Send': Job-CEIKLR");
        assert_eq!(text("params"), "");
        assert_eq!(j.get(first, "namespace"), None);
        assert_eq!(j.get(first, "value_ns"), None);
        assert_eq!(j.get(first, "launch"), Some(Scalar::Int(1)));
        assert_eq!(j.get(first, "iteration"), Some(Scalar::Int(1)));
        assert_eq!(j.get(first, "operations"), Some(Scalar::Int(8192000)));
        // `WorkloadResult   1: 8192000 op, 570821650.00 ns, 69.6804 ns/op`: the time is the
        // whole iteration's over its operations, finer than the line's rounded figure.
        assert_eq!(j.get(first, "time_ns"), Some(Scalar::Float(570821650.0 / 8192000.0)));
        let source = fixture_text(NET_MEDIATE);
        assert_eq!(source.lines().nth(first.line - 1).unwrap(), "WorkloadResult   1: 8192000 op, 570821650.00 ns, 69.6804 ns/op");
        // `// GC:  15 0 0 262144000 8192000`.
        assert_eq!(j.get(first, "gen0_per_1000_ops"), Some(Scalar::Float(15.0 * 1000.0 / 8192000.0)));
        assert_eq!(j.get(first, "gen1_per_1000_ops"), Some(Scalar::Float(0.0)));
        assert_eq!(j.get(first, "allocated_bytes"), Some(Scalar::Float(32.0)));
    }

    /// A synthetic log in the net-mediate log's layout: a header per case, then its launches'
    /// lines, and BenchmarkDotNet's closing lines.
    fn synthetic(cases: &[(&str, &[&str])]) -> String {
        let mut out = String::from("// ***** BenchmarkRunner: Start   *****\n");
        for (header, lines) in cases {
            out.push_str(&format!("// **************************\n// Benchmark: {header}\n// *** Execute ***\n"));
            for line in *lines {
                out.push_str(line);
                out.push('\n');
            }
            out.push('\n');
        }
        out.push_str("// ***** BenchmarkRunner: Finish  *****\n\n");
        out
    }

    /// Parameters and several launches (synthetic: the net-mediate run has neither): `name`,
    /// `params` and `param_<Name>` as the CSV gives them, `launch` from the `// Launch:` lines,
    /// and the collections of the last launch alone.
    #[test]
    fn parameters_and_launches_are_read() {
        let text = synthetic(&[
            (
                "Sums.Add: ShortRun(IterationCount=3, LaunchCount=2) [N=10, Text=a, b]",
                &[
                    "// Launch: 1 / 2",
                    "WorkloadActual   1: 4 op, 1300.00 ns, 325.0000 ns/op",
                    "WorkloadResult   1: 4 op, 1000.00 ns, 250.0000 ns/op",
                    "// GC:  9 9 9 9000 4",
                    "// Launch: 2 / 2",
                    "WorkloadResult   1: 8 op, 2000.00 ns, 250.0000 ns/op",
                    "WorkloadResult   2: 8 op, 2004.00 ns, 250.5000 ns/op",
                    "// GC:  2 0 0 1000 8",
                    "// Run, Diagnostic",
                    "WorkloadResult   1: 8 op, 9000.00 ns, 1.1250 us/op",
                    "// GC:  7 7 7 7000 8",
                ],
            ),
            ("Sums.Add: ShortRun(IterationCount=3, LaunchCount=2) [N=20, Text=c]", &["// Launch: 1 / 1", "WorkloadResult   1: 1 op, 30.00 ns, 30.0000 ns/op"]),
        ]);
        let t = read_text("r/Sums.log", &text, None).unwrap();
        assert_eq!((t.format, t.layout), (Format::BenchmarkDotNet, Some(LAYOUT)));
        let j = &t.jsonl;
        let field = |f: &str| j.records.iter().map(|r| j.get(r, f)).collect::<Vec<_>>();
        let names: Vec<String> = j.records.iter().map(|r| j.text_of(j.get(r, "name"))).collect();
        assert_eq!(names, ["Add [N=10, Text=a, b]", "Add [N=10, Text=a, b]", "Add [N=10, Text=a, b]", "Add [N=20, Text=c]"]);
        assert_eq!(j.text_of(j.get(&j.records[0], "params")), "N=10&Text=a, b");
        assert_eq!(j.text_of(j.get(&j.records[0], "param_Text")), "a, b");
        assert_eq!(j.text_of(j.get(&j.records[0], "case")), "Add: ShortRun [N=10, Text=a, b]");
        assert_eq!(field("launch"), [Some(Scalar::Int(1)), Some(Scalar::Int(2)), Some(Scalar::Int(2)), Some(Scalar::Int(1))]);
        assert_eq!(field("time_ns"), [Some(Scalar::Float(250.0)), Some(Scalar::Float(250.0)), Some(Scalar::Float(250.5)), Some(Scalar::Float(30.0))]);
        // The last launch's `// GC:` line, not the first launch's nor the diagnoser's run's.
        assert_eq!(field("gen0_per_1000_ops")[..3], [Some(Scalar::Float(250.0)); 3]);
        assert_eq!(field("allocated_bytes")[..3], [Some(Scalar::Float(125.0)); 3]);
        assert_eq!(field("allocated_bytes")[3], None);
        assert_eq!(j.records[0].line, text.lines().position(|l| l.starts_with("WorkloadResult   1: 4 op")).unwrap() + 1);
    }

    #[test]
    fn headers_split_as_benchmarkdotnet_joins_them() {
        let h = Header::parse("A.'x: y [z]': .NET 8.0(Runtime=.NET 8.0) [N=1]").unwrap();
        assert_eq!((h.type_name.as_str(), h.method.as_str(), h.job.as_str()), ("A", "'x: y [z]'", ".NET 8.0"));
        assert_eq!(h.params, [("N".to_string(), "1".to_string())]);
        let h = Header::parse("Gen<Int32, String>.Run: DefaultJob").unwrap();
        assert_eq!((h.benchmark.as_str(), h.job.as_str(), h.params.len()), ("Gen<Int32, String>.Run", "DefaultJob", 0));
        assert!(Header::parse("NoMethod: DefaultJob").unwrap_err().1.contains("no `.`"));
        assert!(Header::parse("A.b DefaultJob").unwrap_err().1.contains("no `: `"));
        assert!(Header::parse("A.b: DefaultJob [N=1, N=2]").unwrap_err().1.contains("`N` is written twice"));
        assert!(Header::parse("A.b: DefaultJob [1]").unwrap_err().1.contains("not `[Name=value, …]`"));
    }

    #[test]
    fn gc_lines_give_benchmarkdotnets_columns() {
        let gc = GcLine::parse(" 15 0 0 262144000 8192000").unwrap();
        assert_eq!(gc, GcLine { collections: [15, 0, 0], allocated: Some(262144000), operations: 8192000 });
        assert_eq!(gc.memory().allocated, Some(32.0));
        // Bytes per operation are rounded half to even, as `GetBytesAllocatedPerOperation` does.
        assert_eq!(GcLine::parse(" 0 0 0 5 2").unwrap().memory().allocated, Some(2.0));
        assert_eq!(GcLine::parse(" 0 0 0 7 2").unwrap().memory().allocated, Some(4.0));
        assert_eq!(GcLine::parse(" 1 0 0 ? 4").unwrap().memory().allocated, None);
        assert_eq!(GcLine::parse(" 1 0 0 4").unwrap_err().1, "4 values where BenchmarkDotNet writes 5");
        assert_eq!(GcLine::parse(" 1 x 0 4 4").unwrap_err(), (3, "\"x\" is not a count".to_string()));
    }

    /// A damaged result line is refused at the offending text, with its file, line and column.
    #[test]
    fn a_bad_result_line_is_refused_where_it_is_wrong() {
        let good = "WorkloadResult   1: 4 op, 1000.00 ns, 250.0000 ns/op";
        let cases = [
            ("1000.00 ns", "559289400,00 ns", "559289400,00", "written with a decimal comma"),
            ("1000.00 ns", "1e3 ns", "1e3", "not a number of 0 or more"),
            ("4 op", "0 op", "0", "the operations are \"0\""),
            ("   1:", "   x1:", "x1", "the iteration is \"x1\""),
        ];
        for (from, to, cell, says) in cases {
            let line = good.replacen(from, to, 1);
            let text = synthetic(&[("A.b: DefaultJob", &["// Launch: 1 / 1", &line])]);
            let err = read_text("r/A.log", &text, Some(Format::BenchmarkDotNet)).unwrap_err();
            let n = text.lines().position(|l| l == line).unwrap() + 1;
            let col = line.find(cell).unwrap() + 1;
            assert_eq!(err.position().unwrap(), format!("r/A.log:{n}:{col}"), "{to}");
            assert!(err.message.contains(says), "{}", err.message);
            assert_eq!(err.location.unwrap().excerpt.trim_end(), line);
        }
    }

    /// Cut short: inside its last line, or before BenchmarkDotNet's `Finish` line; a log
    /// without any result; a result before any launch; a bad header.
    #[test]
    fn a_log_cut_short_or_without_results_is_refused() {
        let whole = synthetic(&[("A.b: DefaultJob", &["// Launch: 1 / 1", "WorkloadResult   1: 4 op, 1000.00 ns, 250.0000 ns/op"])]);
        let cut = &whole[..whole.find(" 1000.00").unwrap()];
        let err = read_text("r/A.log", cut, Some(Format::BenchmarkDotNet)).unwrap_err();
        assert!(err.message.contains("this last line has no line end"), "{}", err.message);
        assert_eq!(err.position().unwrap(), format!("r/A.log:{}:1", cut.lines().count()));
        let unfinished = &whole[..whole.find("// ***** BenchmarkRunner: Finish").unwrap()];
        let err = read_text("r/A.log", unfinished, None).unwrap_err();
        assert!(err.message.contains("has no `// ***** BenchmarkRunner: Finish  *****` line"), "{}", err.message);
        let failed = synthetic(&[("A.b: DefaultJob", &["// Launch: 1 / 1", "WorkloadActual   1: 4 op, 1000.00 ns, 250.0000 ns/op"])]);
        let err = read_text("r/A.log", &failed, Some(Format::BenchmarkDotNet)).unwrap_err();
        assert!(err.message.contains("no line of this log is a `WorkloadResult`"), "{}", err.message);
        let no_launch = synthetic(&[("A.b: DefaultJob", &["WorkloadResult   1: 4 op, 1000.00 ns, 250.0000 ns/op"])]);
        let err = read_text("r/A.log", &no_launch, None).unwrap_err();
        assert!(err.message.contains("before any `// Launch:` line"), "{}", err.message);
        let bad_header = synthetic(&[("Ab DefaultJob", &["// Launch: 1 / 1", "WorkloadResult   1: 4 op, 1000.00 ns, 250.0000 ns/op"])]);
        let err = read_text("r/A.log", &bad_header, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "r/A.log:3:15");
        assert!(err.message.contains("no `.` between the type and the method"), "{}", err.message);
    }

    /// BenchmarkDotNet 0.10.x wrote `MainTarget` iterations and `Result` lines: refused at the
    /// first, with what to do instead.
    #[test]
    fn a_log_of_benchmarkdotnet_0_10_is_refused_with_what_to_do() {
        let text = synthetic(&[(
            "A.b: DefaultJob",
            &["// Launch: 1 / 1", "IdleTarget  1: 4 op, 10.00 ns, 2.5000 ns/op", "MainTarget  1: 4 op, 1010.00 ns, 252.5000 ns/op", "Result  1: 4 op, 1000.00 ns, 250.0000 ns/op"],
        )]);
        let err = read_text("r/A.log", &text, None).unwrap_err();
        let n = text.lines().position(|l| l.starts_with("IdleTarget")).unwrap() + 1;
        assert_eq!(err.position().unwrap(), format!("r/A.log:{n}:1"));
        assert!(err.message.contains("BenchmarkDotNet before 0.11.0"), "{}", err.message);
        assert!(err.notes.iter().any(|n| n.contains("0.11.1 or later")), "{:?}", err.notes);
    }

    /// The log by its content under any name; BenchmarkDotNet's other files never as a log.
    #[test]
    fn the_log_is_told_apart_from_benchmarkdotnets_other_files() {
        let log = fixture_text(NET_MEDIATE);
        assert!(looks_like(&log));
        for other in [
            "benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.ConwayBenchmarks-measurements.csv",
            "benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.ConwayBenchmarks-asm.md",
            "benchmarkdotnet/fantomas-0.12.1-report-full.json",
            "benchmarkdotnet-log/net-mediate-0.15.8-report-github.md",
        ] {
            assert!(!looks_like(&fixture_text(other)), "{other}");
        }
        for name in ["r/x.log", "r/x.txt", "r/x", "r/CoreDispatchBenchmarks-20260505-121657.log"] {
            let t = read_text(name, &log, None).unwrap();
            assert_eq!((t.format, t.detected, t.read_as()), (Format::BenchmarkDotNet, Detected::ByContent, "read as BenchmarkDotNet log (detected)".to_string()), "{name}");
        }
        // The other layouts are still read as themselves with the format named.
        let csv = read_fixture("benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.ConwayBenchmarks-measurements.csv", Some(Format::BenchmarkDotNet)).unwrap();
        assert_eq!(csv.layout, Some("BenchmarkDotNet measurements CSV"));
        assert!(!looks_like("// Benchmark: A.b: DefaultJob\nOverhead 1: x\n"));
    }

    #[test]
    fn measurement_lines_are_recognised_by_their_shape() {
        assert_eq!(measurement_mode("WorkloadResult   1: 6 op, 559289400.00 ns, 93.2149 ms/op"), Some("WorkloadResult"));
        assert_eq!(measurement_mode("WorkloadActual  100: 6 op, 1.00 ns, 1 ns/op"), Some("WorkloadActual"));
        assert_eq!(measurement_mode("Result  1: 16 op, 123.00 ns, 7.6875 ns/op"), Some("Result"));
        assert_eq!(measurement_mode("Mean = 69.853 ns, StdErr = 0.025 ns"), None);
        assert_eq!(measurement_mode("// GC:  15 0 0 262144000 8192000"), None);
        assert_eq!(measurement_mode("WorkloadResult"), None);
    }
}
