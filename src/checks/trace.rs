//! `trace`: a dependency trace of a persistent kernel is complete, ordered, and says what the
//! sentence says.
//!
//! What it does: reads a trace (JSONL: a header line with the expected task count, then one
//! line per task with its id, stage, worker, SM, start and end in nanoseconds and the ids it
//! depends on) and checks **coverage** (every task exactly once, the count the header
//! declares, every dependency present) and **order** (every task starts after each of its
//! dependencies ends). `predicate` then yields a number:
//! - `count(B.start < max(A.end))`: tasks of stage B that start before the last A ends (also
//!   `<=`, `>`, `>=`, `min(...)`, `.end` on either side);
//! - `count(C)`: tasks of stage C;
//! - `median(C.wait_us)`, `p95(B.duration_us)`, …: a statistic over tasks of a stage, where
//!   `wait_us` is the time from the last dependency's end to the task's start;
//! - `makespan_us`: first start to last end; `workers_used`: distinct workers.
//!
//! Why: "the queue lets row reductions start while tiles are still being reduced" is a claim
//! about an execution order, and the trace is where that order was recorded.
//!
//! ```toml
//! [[claim.check]]
//! kind = "trace"
//! number = "97"
//! file = "evidence/runs/r1/traces/queue-ragged.jsonl"
//! predicate = "count(B.start < max(A.end))"
//! ```
//! Fails as `task C:17 starts 120 ns before its dependency B:2 ends`.

use std::collections::BTreeSet;
use std::ops::Range;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;
use crate::evidence::trace::{TraceFile, TraceHeader, TraceTask, verify};
use crate::stats::{Samples, Statistic};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub file: Spanned<String>,
    #[serde(default)]
    pub predicate: Option<Spanned<String>>,
}

/// A parsed predicate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Predicate {
    CountBefore { stage: String, edge: Edge, cmp: Cmp, agg: Agg, other: String, other_edge: Edge },
    CountStage(String),
    Stat { statistic: Statistic, stage: String, quantity: Quantity },
    MakespanUs,
    WorkersUsed,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Edge {
    Start,
    End,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Agg {
    Max,
    Min,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Quantity {
    WaitUs,
    DurationUs,
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.file.get_ref().as_str()]
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        if let Some(p) = &self.predicate {
            parse_predicate(p.get_ref()).map_err(|m| (m, p.span()))?;
        }
        Ok(())
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let trace = read(ctx, &self.file)?;
        let file = self.file.get_ref();
        let Ok(Some(Trace { file: read, problems })) = trace.as_ref() else {
            return Ok(Observation { problems: vec![format!("{file} is empty")], ..Observation::default() });
        };
        let problems = problems.clone();
        let tasks = &read.tasks;
        let (value, detail) = match &self.predicate {
            None => (Some(tasks.len() as f64), format!("{} tasks, coverage and order hold", tasks.len())),
            Some(p) => {
                let predicate = parse_predicate(p.get_ref()).map_err(|m| ctx.error_at(m, p.span(), "here"))?;
                // The same predicate over the same trace, from another registry, is evaluated once.
                let value = *ctx.evidence.derived(&format!("trace-predicate:{file}|{}", p.get_ref()), || evaluate(&predicate, tasks));
                (value, format!("{} over {} tasks", p.get_ref(), tasks.len()))
            }
        };
        let unit = match &self.predicate {
            Some(p) if p.get_ref().contains("_us") => Some(crate::article::numbers::Unit::Us),
            _ => None,
        };
        Ok(Observation { value, unit, problems, detail, band: None })
    }
}

static COUNT_BEFORE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^count\(\s*(\w+)\.(start|end)\s*(<=|<|>=|>)\s*(max|min)\(\s*(\w+)\.(start|end)\s*\)\s*\)$").expect("valid"));
static COUNT_STAGE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^count\(\s*(\w+)\s*\)$").expect("valid"));
static STAT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\w+(?:\.\d+)?)\(\s*(\w+)\.(wait_us|duration_us)\s*\)$").expect("valid"));

/// Compiles the predicate patterns now (their Unicode classes take milliseconds), on the thread
/// `Workspace::load` starts for this while it reads the registries.
pub(crate) fn compile_patterns() {
    LazyLock::force(&COUNT_BEFORE);
    LazyLock::force(&COUNT_STAGE);
    LazyLock::force(&STAT);
}

pub(crate) fn parse_predicate(text: &str) -> Result<Predicate, String> {
    let text = text.trim();
    let edge = |s: &str| if s == "start" { Edge::Start } else { Edge::End };
    if let Some(c) = COUNT_BEFORE.captures(text) {
        let cmp = match &c[3] {
            "<" => Cmp::Lt,
            "<=" => Cmp::Le,
            ">" => Cmp::Gt,
            _ => Cmp::Ge,
        };
        let agg = if &c[4] == "max" { Agg::Max } else { Agg::Min };
        return Ok(Predicate::CountBefore { stage: c[1].to_string(), edge: edge(&c[2]), cmp, agg, other: c[5].to_string(), other_edge: edge(&c[6]) });
    }
    if let Some(c) = COUNT_STAGE.captures(text) {
        return Ok(Predicate::CountStage(c[1].to_string()));
    }
    if let Some(c) = STAT.captures(text) {
        let statistic = Statistic::parse(&c[1]).ok_or(format!("unknown statistic `{}` in predicate", &c[1]))?;
        let quantity = if &c[3] == "wait_us" { Quantity::WaitUs } else { Quantity::DurationUs };
        return Ok(Predicate::Stat { statistic, stage: c[2].to_string(), quantity });
    }
    match text {
        "makespan_us" => Ok(Predicate::MakespanUs),
        "workers_used" => Ok(Predicate::WorkersUsed),
        _ => Err(format!("unknown predicate `{text}`: use count(B.start < max(A.end)), count(C), median(C.wait_us), makespan_us or workers_used")),
    }
}

/// The predicate's value over the tasks; `None` when it selects no task to take a statistic of.
pub(crate) fn evaluate(predicate: &Predicate, tasks: &[TraceTask]) -> Option<f64> {
    let at = |t: &TraceTask, e: Edge| match e {
        Edge::Start => t.start_ns,
        Edge::End => t.end_ns,
    };
    match predicate {
        Predicate::CountBefore { stage, edge, cmp, agg, other, other_edge } => {
            let others = tasks.iter().filter(|t| t.stage == *other).map(|t| at(t, *other_edge));
            let bound = match agg {
                Agg::Max => others.max()?,
                Agg::Min => others.min()?,
            };
            let n = tasks
                .iter()
                .filter(|t| t.stage == *stage)
                .filter(|t| {
                    let v = at(t, *edge);
                    match cmp {
                        Cmp::Lt => v < bound,
                        Cmp::Le => v <= bound,
                        Cmp::Gt => v > bound,
                        Cmp::Ge => v >= bound,
                    }
                })
                .count();
            Some(n as f64)
        }
        Predicate::CountStage(stage) => Some(tasks.iter().filter(|t| t.stage == *stage).count() as f64),
        Predicate::Stat { statistic, stage, quantity } => {
            let ends: rustc_hash::FxHashMap<&str, u64> = tasks.iter().map(|t| (t.task.as_str(), t.end_ns)).collect();
            let values: Vec<f64> = tasks
                .iter()
                .filter(|t| t.stage == *stage)
                .map(|t| match quantity {
                    Quantity::DurationUs => t.end_ns.saturating_sub(t.start_ns) as f64 / 1000.0,
                    Quantity::WaitUs => {
                        let ready = t.deps.iter().filter_map(|d| ends.get(d.as_str())).max().copied().unwrap_or(t.start_ns);
                        t.start_ns.saturating_sub(ready) as f64 / 1000.0
                    }
                })
                .collect();
            Samples::new(values).ok().map(|s| s.statistic(*statistic))
        }
        Predicate::MakespanUs => {
            let start = tasks.iter().map(|t| t.start_ns).min()?;
            let end = tasks.iter().map(|t| t.end_ns).max()?;
            // A task that ends before it starts is reported by `verify`; here it must not
            // underflow.
            Some(end.saturating_sub(start) as f64 / 1000.0)
        }
        Predicate::WorkersUsed => Some(tasks.iter().map(|t| t.worker).collect::<BTreeSet<_>>().len() as f64),
    }
}

/// A trace file read: its tasks and what its verifier found against its header.
pub(crate) struct Trace {
    file: Rc<TraceFile>,
    problems: Vec<String>,
}

/// The trace at `file`, deserialised and verified once per process, whatever registry or check
/// asks (`None` for an empty file).
///
/// A trace whose every line the fast typed reader is sure of is read straight into its tasks
/// ([`crate::evidence::store::Evidence::trace`], maybe ahead of the check, on another core);
/// any other is read as before, as a JSONL file and then line by line through serde, which
/// locates its errors. Both give the same tasks.
fn read(ctx: &Context<'_>, file: &Spanned<String>) -> Result<Rc<Result<Option<Trace>, Diagnostic>>, Diagnostic> {
    let rel = file.get_ref();
    let key = format!("trace:{rel}");
    if let Ok(typed) = ctx.evidence.trace(rel)
        && let Some(typed) = typed.as_ref()
    {
        return Ok(ctx.evidence.derived(&key, || Ok(Some(Trace { problems: verify(&typed.header, &typed.tasks), file: typed.clone() }))));
    }
    let jsonl = ctx.jsonl(file)?;
    let trace = ctx.evidence.derived(&key, || -> Result<Option<Trace>, Diagnostic> {
        let Some((first, rest)) = jsonl.records.split_first() else {
            return Ok(None);
        };
        let header: TraceHeader = jsonl.record_as(first, "a trace header")?;
        let tasks = rest.iter().map(|r| jsonl.record_as::<TraceTask>(r, "a trace task")).collect::<Result<Vec<_>, _>>()?;
        let problems = verify(&header, &tasks);
        Ok(Some(Trace { file: Rc::new(TraceFile { header, tasks }), problems }))
    });
    match trace.as_ref() {
        Err(d) => Err(d.clone()),
        Ok(_) => Ok(trace),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};
    use super::*;

    fn task(id: &str, start: u64, end: u64, deps: &[&str]) -> TraceTask {
        let (stage, index) = id.split_once(':').unwrap();
        TraceTask {
            task: id.into(),
            stage: stage.into(),
            index: index.parse().unwrap(),
            row: 0,
            worker: index.parse::<u32>().unwrap() % 2,
            sm: 0,
            start_ns: start,
            end_ns: end,
            deps: deps.iter().map(|d| d.to_string()).collect(),
        }
    }

    fn header(n: usize) -> TraceHeader {
        TraceHeader { suite: "scheduling".into(), case: "ragged".into(), variant: "queue".into(), tasks: n, workers: 2 }
    }

    fn good() -> Vec<TraceTask> {
        vec![task("A:0", 0, 100, &[]), task("A:1", 0, 300, &[]), task("B:0", 150, 200, &["A:0"]), task("C:0", 250, 260, &["B:0"])]
    }

    #[test]
    fn a_good_trace_has_no_problems() {
        assert!(verify(&header(4), &good()).is_empty());
    }

    #[test]
    fn a_task_run_twice_or_missing_is_reported() {
        let mut t = good();
        t.push(task("C:0", 270, 280, &["B:0"]));
        assert!(verify(&header(4), &t)[0].contains("more than once"));
        let t = good()[..3].to_vec();
        assert!(verify(&header(4), &t)[0].contains("3 distinct tasks"));
    }

    #[test]
    fn a_task_that_starts_before_its_dependency_ends_is_reported() {
        let mut t = good();
        t[3] = task("C:0", 190, 260, &["B:0"]);
        let problems = verify(&header(4), &t);
        assert!(problems[0].contains("C:0 starts 10 ns before its dependency B:0"), "{problems:?}");
    }

    #[test]
    fn counting_predicate() {
        let p = parse_predicate("count(B.start < max(A.end))").unwrap();
        assert_eq!(evaluate(&p, &good()), Some(1.0));
        let p = parse_predicate("count(C.start < max(A.end))").unwrap();
        assert_eq!(evaluate(&p, &good()), Some(1.0));
        let p = parse_predicate("count(C.start >= max(A.end))").unwrap();
        assert_eq!(evaluate(&p, &good()), Some(0.0));
    }

    #[test]
    fn wait_and_makespan() {
        let p = parse_predicate("median(B.wait_us)").unwrap();
        assert_eq!(evaluate(&p, &good()), Some(0.05));
        assert_eq!(evaluate(&Predicate::MakespanUs, &good()), Some(0.3));
        assert_eq!(evaluate(&Predicate::WorkersUsed, &good()), Some(2.0));
    }

    #[test]
    fn reads_a_trace_file() {
        let mut text = serde_json::to_string(&header(4)).unwrap() + "\n";
        for t in good() {
            text += &(serde_json::to_string(&t).unwrap() + "\n");
        }
        let f = Fixture::new(&[("t.jsonl", &text)]);
        let obs = f.observe(&check_toml("kind = \"trace\"\nfile = \"t.jsonl\"\npredicate = \"count(B)\"")).unwrap();
        assert!(obs.problems.is_empty(), "{:?}", obs.problems);
        assert_eq!(obs.value, Some(1.0));
    }

    #[test]
    fn an_unknown_predicate_is_refused_when_read() {
        assert!(parse_error("kind = \"trace\"\nfile = \"t.jsonl\"\npredicate = \"all good\"").contains("unknown predicate"));
    }
}
