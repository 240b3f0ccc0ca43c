//! The one door the fuzz targets (`fuzz/`) come through: thin wrappers that feed untrusted
//! bytes to each parser and reader, and exercise what is built from them. Everything else in
//! the crate may become `pub(crate)` or move without breaking the targets, as long as these
//! signatures stay. This module never touches the file system and holds no logic of its own.
//!
//! Each function must return normally for any input: a panic, an abort, a stack overflow or a
//! runaway allocation is a bug the fuzzer reports.

use std::collections::BTreeMap;

use crate::article::Article;
use crate::diagnostic::Diagnostic;

/// Parses an article and touches what reports read from it: spans, numbers and their keys.
pub fn parse_article(bytes: &[u8]) {
    let Ok(article) = Article::parse("article/a.md", bytes) else { return };
    for s in &article.sentences {
        let _ = s.source_span(&(0..s.text.len()));
        for n in &s.numbers {
            let _ = n.key();
            let _ = s.source_span(&n.span);
        }
    }
}

/// Extracts the numbers of a sentence, parses each as a check's `number`, and matches each
/// against its own value, as binding and judging do.
pub fn extract_numbers(text: &str) {
    for n in crate::article::numbers::extract(text, &[]) {
        let _ = n.key();
        let _ = crate::article::numbers::parse_one(&n.text);
        for part in [None, Some(crate::article::numbers::Part::Low), Some(crate::article::numbers::Part::High)] {
            if let Ok(q) = crate::article::numbers::Quoted::from_number(&n, part) {
                let _ = q.matches(q.value, None);
                let _ = q.display(q.value);
                let _ = q.shown();
            }
        }
    }
    let _ = crate::article::numbers::parse_one(text);
}

/// Reads a registry, binds it against an article, and renders every diagnostic.
pub fn parse_registry(registry: &str, article: &[u8]) {
    let (parsed, diagnostics) = crate::registry::parse("claims/a.toml", registry);
    render(&diagnostics);
    let (Some(registry), Ok(article)) = (parsed, Article::parse("article/a.md", article)) else { return };
    for b in crate::registry::binding::bind_against(&registry, &article, &std::collections::BTreeMap::new()) {
        if let crate::registry::binding::Binding::Bound(b) = b {
            for c in b.checks {
                if let Some(d) = c.error {
                    let _ = d.render();
                }
            }
        }
    }
}

/// Parses an `arith` expression and evaluates it with every variable it names set to 2.
pub fn arith(text: &str) {
    let Ok(expr) = crate::checks::arith::parse(text) else { return };
    let names: Vec<String> = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map(String::from).collect();
    let vars: BTreeMap<&str, f64> = names.iter().map(|n| (n.as_str(), 2.0)).collect();
    let _ = expr.eval(&vars);
}

/// Parses a JSONL evidence file and computes what checks compute from it: groups, samples of
/// a field, and a record deserialised from its line.
pub fn parse_jsonl(bytes: &[u8]) {
    let jsonl = match crate::evidence::jsonl::Jsonl::parse("evidence/runs/r/samples.jsonl", bytes) {
        Ok(j) => j,
        Err(d) => return render(&[d]),
    };
    let groups = jsonl.groups(&["suite".into(), "case".into(), "variant".into(), "mode".into()]);
    for records in groups.values() {
        if let Ok(s) = jsonl.samples(records, "host_us") {
            let _ = (s.median(), s.quantile(0.95));
        }
    }
    for r in jsonl.records.iter().take(64) {
        let _ = jsonl.record_as::<crate::evidence::SampleRecord>(r, "a sample");
        let _ = jsonl.line_text(r);
    }
    // Read as a trace, as the `trace` check does: a header, then tasks.
    let Some((first, rest)) = jsonl.records.split_first() else { return };
    let Ok(header) = jsonl.record_as::<crate::evidence::TraceHeader>(first, "a trace header") else { return };
    let Ok(tasks) = rest.iter().map(|r| jsonl.record_as::<crate::evidence::TraceTask>(r, "a trace task")).collect::<Result<Vec<_>, _>>() else { return };
    let _ = crate::evidence::trace::verify(&header, &tasks);
    for predicate in ["count(B.start < max(A.end))", "count(C)", "median(C.wait_us)", "p95(A.duration_us)", "makespan_us", "workers_used"] {
        if let Ok(p) = crate::checks::trace::parse_predicate(predicate) {
            let _ = crate::checks::trace::evaluate(&p, &tasks);
        }
    }
}

/// Reads up to three runs' samples files as `bench-report` reads each (the JSONL reader, every
/// line as a sample, the shared validation of `device_us`), judges them together with 200
/// bootstrap replicates a target, and lays out the report. The runs are split at lines that
/// hold only `---`; a third part keeps any further such line, which it then refuses.
pub fn bench_report(bytes: &[u8]) {
    let mut runs = Vec::new();
    for (n, part) in split_runs(bytes).into_iter().enumerate() {
        let run = format!("evidence/runs/r{}", n + 1);
        let jsonl = match crate::evidence::jsonl::Jsonl::parse(&format!("{run}/samples.jsonl"), part) {
            Ok(j) => j,
            Err(d) => return render(&[d]),
        };
        let samples = match jsonl.records.iter().map(|r| jsonl.record_as::<crate::evidence::SampleRecord>(r, "a sample")).collect::<Result<Vec<_>, _>>() {
            Ok(s) => s,
            Err(d) => return render(&[d]),
        };
        if !jsonl.records.is_empty()
            && let Err(d) = jsonl.samples(&jsonl.records.iter().collect::<Vec<_>>(), "device_us")
        {
            return render(&[d]);
        }
        runs.push((run, samples));
    }
    if let Ok(report) = crate::commands::bench::judge_with(&runs, 200) {
        let _ = report.all_met();
        let _ = crate::report::bench::render(&report);
    }
}

/// `bytes` cut at lines that hold only `---` (a CR before the newline allowed) into at most
/// three parts.
fn split_runs(bytes: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while parts.len() < 2 && at < bytes.len() {
        let end = bytes[at..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |i| at + i + 1);
        let line = &bytes[at..end];
        if matches!(line, b"---" | b"---\n" | b"---\r\n") {
            parts.push(&bytes[start..at]);
            start = end;
        }
        at = end;
    }
    parts.push(&bytes[start..]);
    parts
}

/// The first line as a run's dispatch record and the rest as its `ptx/softmax.ptx`: every
/// kernel the record names looked up as `bench-report` looks each up, and the first line as a
/// kernel name too.
pub fn ptx_entry(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let (dispatch, ptx) = text.split_once('\n').unwrap_or((&text, ""));
    for name in crate::commands::bench::kernel_names(dispatch).iter().map(String::as_str).chain([dispatch]) {
        if let Some(entry) = crate::evidence::ptx::entry_instructions(ptx, name) {
            assert!(entry.starts_with(".entry ") && entry.ends_with("\n}\n"), "an entry is cut at its own ends");
        }
    }
}

/// Parses a lock, aligns an article with it, and diffs each changed sentence.
pub fn parse_lock(lock: &str, article: &[u8]) {
    let lock = match crate::registry::lock::parse("claims/a.lock", lock) {
        Ok(l) => l,
        Err(d) => return render(&[d]),
    };
    let Ok(article) = Article::parse("article/a.md", article) else { return };
    let alignment = crate::registry::lock::align(&lock, &article);
    for (n, origin) in alignment.origins.iter().enumerate() {
        if let crate::registry::lock::Origin::Changed(o) = origin {
            let _ = crate::registry::lock::word_diff(&lock.sentences[*o].text, &article.sentences[n].text);
        }
    }
}

/// Diffs two sentences word by word.
pub fn word_diff(before: &str, after: &str) {
    let _ = crate::registry::lock::word_diff(before, after);
    let _ = crate::registry::binding::similarity(before, after);
}

/// Parses a run's `MANIFEST.sha256`.
pub fn parse_manifest(text: &str) {
    if let Err(d) = crate::evidence::manifest::parse_manifest("evidence/runs/r/MANIFEST.sha256", text) {
        render(&[d]);
    }
}

/// Reads a run's `meta.json` as `recheck` and `accept-run` do.
pub fn parse_meta(bytes: &[u8]) {
    let path = "evidence/runs/r/meta.json";
    let Ok(text) = std::str::from_utf8(bytes) else {
        return render(&[crate::evidence::store::not_utf8(path, bytes, 0)]);
    };
    match serde_json::from_str::<crate::evidence::meta::Meta>(text) {
        Ok(meta) => {
            let info = crate::recheck::RunInfo::from_meta("evidence/runs/r", &meta);
            let _ = info.incomparable_with(&info);
        }
        Err(e) => render(&[crate::evidence::store::json_error(path, text, &e)]),
    }
}

/// Reads `evidence/accepted.toml` as `figures` and `accept-run` do.
pub fn parse_accepted(text: &str) {
    if let Err(d) = crate::evidence::accepted::parse(text) {
        render(&[d]);
    }
}

/// The fast readers against the readers they stand in for, on the same bytes: the fast JSONL
/// reader against serde_json (the whole file, and each line as every typed record), and the
/// columnar JSONL, CSV and TSV readers against the whole-file and table readers. Panics where they differ, with how.
pub fn differential(bytes: &[u8]) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        if let Err(e) = crate::evidence::jsonl::fast_agrees_with_serde("s.jsonl", text) {
            panic!("{e}");
        }
        for line in text.lines().take(64) {
            if let Err(e) = crate::evidence::jsonl::typed_agree_with_serde(line) {
                panic!("{e}");
            }
        }
        let names = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for (by, fields) in [(names(&["suite", "case"]), names(&["host_us"])), (names(&["k"]), names(&["v"]))] {
            if let Err(e) = crate::evidence::columns::agrees_with_whole_reader(text, &by, &fields) {
                panic!("{e}");
            }
        }
    }
    // The first byte picks the delimiter; the columns are those the benches' generator writes,
    // and two short ones that hand-made inputs reach sooner.
    let (delimiter, rest) = match bytes.split_first() {
        Some((b, rest)) if b % 2 == 0 => (b'\t', rest),
        Some((_, rest)) => (b',', rest),
        None => (b',', bytes),
    };
    let strings = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for (by, fields) in [(strings(&["suite", "case"]), strings(&["host_us"])), (strings(&["k"]), strings(&["v"]))] {
        if let Err(e) = crate::evidence::columns::delimited::agrees_with_table_reader(rest, delimiter, &by, &fields) {
            panic!("{e}");
        }
    }
}

fn render(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let _ = d.render();
        let _ = d.to_string();
    }
}
