//! The one door the fuzz targets (`fuzz/`) come through: thin wrappers that feed untrusted
//! bytes to each parser and reader, and exercise what is built from them. Everything else in
//! the crate may become `pub(crate)` or move without breaking the targets, as long as these
//! signatures stay. Only [`bench_pool`] and [`calibrate`] touch the file system, since what
//! they feed is a folder: each lays the input out as a tree of runs in a fresh temporary
//! folder and removes it afterwards. The module holds no logic of its own beyond laying out inputs and the checks
//! that tell a wrong answer from a bad input.
//!
//! Each function must return normally for any input: a panic, an abort, a stack overflow or a
//! runaway allocation is a bug the fuzzer reports.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStringExt;

use crate::article::{Article, Syntax};
use crate::diagnostic::Diagnostic;

/// Parses an article, as Markdown, as reStructuredText and as LaTeX, and touches what reports read from
/// each: spans, numbers and their keys, the warnings, and the review page's rendering with
/// every sentence and number marked. It panics where a sentence, a number or a warning points
/// outside the source or inside a character: a place must be one the audit can show.
///
/// The input is also read as a manuscript split into files, as LaTeX and as reStructuredText:
/// split at each zero byte, the first part is the main file and part N the file
/// `article/pN.tex` (or `.rst`, or with no extension) that it or another part may bring in,
/// so that nesting, cycles, missing and undecodable files are all reachable. Every sentence
/// and warning must then be placed at a line of a file read.
pub fn parse_article(bytes: &[u8]) {
    for syntax in [Syntax::Markdown, Syntax::ReStructuredText, Syntax::Latex] {
        if let Ok(article) = Article::parse_as("article/a", bytes, syntax) {
            touch_article(&article);
        }
    }
    let parts: Vec<&[u8]> = bytes.split(|b| *b == 0).collect();
    let load = |rel: &str| {
        let name = rel.strip_prefix("article/p").map(|n| n.trim_end_matches(".tex").trim_end_matches(".rst"));
        match name.and_then(|n| n.parse::<usize>().ok()).and_then(|k| parts.get(k)) {
            Some(part) => crate::article::Load::Read(part.to_vec()),
            None => crate::article::Load::Missing,
        }
    };
    for (syntax, path) in [(Syntax::Latex, "article/a.tex"), (Syntax::ReStructuredText, "article/a.rst")] {
        if let Ok(article) = Article::read(path, parts[0], syntax, "article", &load) {
            touch_article(&article);
            let lines = |file: &str| article.files.iter().find(|f| f.path == file).map(|f| f.text.split('\n').count());
            for (what, file, line) in article.sentences.iter().map(|s| ("sentence", &s.file, s.line)).chain(article.warnings.iter().map(|w| ("warning", &w.file, w.line))) {
                let count = lines(file).unwrap_or_else(|| panic!("a {what} in `{file}`, which is no file read"));
                assert!(line >= 1 && line <= count, "a {what} at line {line} of `{file}`, which has {count} lines");
            }
        }
    }
}

fn touch_article(article: &Article) {
    let len = article.source.len();
    for s in &article.sentences {
        let _ = s.source_span(&(0..s.text.len()));
        assert!(article.source.get(s.span.clone()).is_some(), "sentence `{}` at {:?} outside a source of {len} bytes or inside a character", s.text, s.span);
        for n in &s.numbers {
            let _ = n.key();
            let span = s.source_span(&n.span);
            assert!(span.start <= span.end && span.end <= len, "number `{}` at {span:?} outside a source of {len} bytes", n.text);
        }
    }
    for w in &article.warnings {
        assert!(w.span.start <= w.span.end && w.span.end <= len && w.line >= 1 && w.col >= 1, "warning at {:?} outside a source of {len} bytes", w.span);
    }
    let _ = crate::report::html::mark_everything(article);
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

/// What an article reads from one sentence whose spaces may group thousands
/// ([`crate::article::numbers::with_group_marks`], with no space grouped in the source, so that
/// only a plain space before a group that begins with `0` is marked), then `parse_one` on each
/// number found (its text, and the same bytes of the unmarked sentence, as a registry writes
/// them) and [`crate::article::numbers::Quoted::matches_within`] on bands whose ends are
/// `ends` read as little-endian `f64`s (low, high, tolerance, 8 bytes each, any bits: NaN and
/// the infinities among them) and on bands of special values. Panics where the marked text
/// differs from `text` other than by spaces marked, where a number's span is not a span of the
/// text on character boundaries, or where a value in a band matches a quote and the band does not.
pub fn marked_numbers(text: &str, ends: &[u8]) {
    use crate::article::numbers::{self, Part, Quoted};
    let marked = numbers::with_group_marks(text, |_| false);
    assert_eq!(marked.len(), text.len(), "marks keep every offset");
    for (a, b) in text.bytes().zip(marked.bytes()) {
        assert!(a == b || (a == b' ' && b == 0x1F), "only a plain space is marked, and only by the mark");
    }
    let word = |k: usize| ends.get(8 * k..8 * k + 8).map(|b| f64::from_le_bytes(b.try_into().expect("eight bytes")));
    let (low, high, tolerance) = (word(0), word(1), word(2));
    const SPECIAL: [f64; 10] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, 1.0];
    for n in numbers::extract(&marked, &[]).into_iter().take(8) {
        assert!(n.span.start <= n.span.end && n.span.end <= marked.len(), "number `{}` at {:?} outside a text of {} bytes", n.text, n.span, marked.len());
        assert!(marked.is_char_boundary(n.span.start) && marked.is_char_boundary(n.span.end), "number `{}` at {:?} not on character boundaries", n.text, n.span);
        let _ = numbers::parse_one(&n.text);
        let _ = numbers::parse_one(&text[n.span.clone()]);
        for part in [None, Some(Part::Low), Some(Part::High)] {
            let Ok(q) = Quoted::from_number(&n, part) else { continue };
            let chosen = [low, high].into_iter().flatten();
            let values: Vec<f64> = chosen.chain(SPECIAL).chain([q.value, n.value]).collect();
            for t in [None, tolerance, Some(f64::NAN), Some(f64::INFINITY), Some(-1.0), Some(0.0)] {
                if let (Some(a), Some(b)) = (low, high) {
                    let within = q.matches_within(a, b, t);
                    assert_eq!(within, q.matches_within(b, a, t), "a band matches either way round");
                    assert!(!within || (a.is_finite() && b.is_finite()), "a band with an end {a}, {b} that is not finite matches nothing");
                    for c in [a, b, q.value].into_iter().filter(|_| a.is_finite() && b.is_finite()) {
                        if a.min(b) <= c && c <= a.max(b) && q.matches(c, t) {
                            assert!(within, "{c} in {a}..{b} matches `{}` (tolerance {t:?}), and the band does not", n.text);
                        }
                    }
                }
                for &v in &values {
                    let _ = (q.matches_within(v, q.value, t), q.matches_within(q.value, v, t), q.matches_within(v, -v, t));
                }
            }
        }
    }
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
/// bootstrap replicates a target, every `x-…` variant as a candidate, and lays out the report
/// as text and JSON. The runs are split at lines that
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
    // Every variant named like a candidate (`x-…`) is judged as one too, so that the candidates'
    // family is read and laid out over the same input.
    let candidates: std::collections::BTreeSet<String> = runs.iter().flat_map(|(_, s)| s.iter().filter(|r| r.variant.starts_with("x-")).map(|r| r.variant.clone())).collect();
    let candidates: Vec<String> = candidates.into_iter().collect();
    if let Ok(report) = crate::commands::bench::judge_with(&runs, 200, &candidates) {
        let _ = report.all_met();
        let _ = crate::report::bench::render(&report);
        let _ = crate::report::bench::json(&report);
    }
}

/// `bytes` cut at lines that hold only `---` (a CR before the newline allowed) into at most
/// three parts.
fn split_runs(bytes: &[u8]) -> Vec<&[u8]> {
    split_at_separators(bytes, 3)
}

/// `bytes` cut at lines that hold only `---` (a CR before the newline allowed) into at most
/// `most` parts; the last part keeps any further such line.
fn split_at_separators(bytes: &[u8], most: usize) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while parts.len() + 1 < most && at < bytes.len() {
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

/// What every file the tree links out to holds, after the text of the file it stands in for:
/// were a reader to follow such a link, a parse error's snippet or a table built from it would
/// carry this text into the report, so finding it there shows a read outside the root.
const OUTSIDE_SECRET: &str = "OUTSIDE-SECRET-b3nchp00l";

/// The files of a run, in the order the input gives them.
const RUN_FILES: [&str; 3] = ["meta.json", "ptx/softmax.ptx", "samples.jsonl"];
/// The files of a run with the module of a suite whose cases name no kernel (`calibrate` compares
/// those by every entry of it), in the order the input gives them.
const POINTWISE_RUN_FILES: [&str; 4] = ["meta.json", "ptx/softmax.ptx", "samples.jsonl", "ptx/pointwise.ptx"];
const SCHEDULING_RUN_FILES: [&str; 4] = ["meta.json", "ptx/softmax.ptx", "samples.jsonl", "ptx/scheduling.ptx"];
/// The suites whose cases name no kernel, each compared by its own module, `ptx/<suite>.ptx`.
const WHOLE_MODULE_SUITES: [&str; 2] = ["pointwise", "scheduling"];

/// `bench-report RUN --with-same-code` over a folder of one to four runs laid out from `bytes`,
/// with 200 bootstrap replicates a target, the report laid out as text and as JSON.
///
/// The first byte steers the tree: bits 0–1 pick which run is RUN, bit 2 adds a folder with no
/// `meta.json` (which must be passed over without a word), bit 3 makes links relative rather
/// than absolute, bit 4 gives RUN with a trailing slash, bit 5 renames the last of several runs
/// to a name that is not UTF-8. The second byte, where it is not 0,
/// puts a link in place of one run's file or folder (`lay_link`). The rest is cut at lines
/// holding only `---` into at most twelve parts, three a run: `meta.json`, `ptx/softmax.ptx`
/// and `samples.jsonl`; a run whose parts run out lacks the files left.
///
/// Besides returning normally, the command must not read outside the root (no report or error
/// holds `OUTSIDE_SECRET`, and no run with a link out is pooled), must fail only as bad input
/// (exit 2), must put RUN first among the runs pooled, and must name no folder without a
/// `meta.json` among the runs left out.
pub fn bench_pool(bytes: &[u8]) {
    let Some(Tree { steer, link, parts, _tmp, root, outside, folder }) = lay_runs(bytes, &RUN_FILES) else { return };
    let runs = parts.len().div_ceil(3);
    if steer & 0b100 != 0 {
        // Notes and a copy of the first run's samples and code, but no `meta.json`: not a run.
        let notes = folder.join("notes");
        write_file(&notes.join("README.md"), b"Not a run: no meta.json.\n");
        for (name, text) in RUN_FILES.iter().zip(&parts).skip(1) {
            write_file(&notes.join(name), text);
        }
    }
    let unreadable = (link != 0).then(|| lay_link(&folder, &outside, &parts, &RUN_FILES, usize::from(link - 1), steer & 0b1000 != 0)).flatten();
    let mut names: Vec<String> = (1..=runs).map(|n| format!("evidence/runs/r{n}")).collect();
    if steer & 0b10_0000 != 0 && runs > 1 {
        // A folder name that is not UTF-8 cannot be given back as the path it was listed by.
        let odd = std::ffi::OsString::from_vec(format!("r{runs}\u{7f}").into_bytes().into_iter().chain([0xff]).collect());
        names[runs - 1] = format!("evidence/runs/{}", odd.to_string_lossy());
        std::fs::rename(folder.join(format!("r{runs}")), folder.join(odd)).expect("a folder of the tree renamed");
    }
    // The runs that may be named as left out: those with a `meta.json`, as a file or a link,
    // named as a listing shows them.
    let with_meta: Vec<String> = std::fs::read_dir(&folder)
        .expect("the folder of runs")
        .filter_map(Result::ok)
        .filter(|entry| std::fs::symlink_metadata(entry.path().join("meta.json")).is_ok())
        .map(|entry| format!("evidence/runs/{}", entry.file_name().to_string_lossy()))
        .collect();
    let base = usize::from(steer & 0b11) % runs;
    let run = format!("evidence/runs/r{}{}", base + 1, if steer & 0b1_0000 != 0 { "/" } else { "" });
    let shown = match crate::commands::bench::pool_with_same_code(&root, &run, 200, &[]) {
        Ok(report) => {
            let _ = report.all_met();
            assert_eq!(report.runs.first().map(String::as_str), Some(run.trim_end_matches('/')), "RUN comes first among the runs pooled");
            if let Some(n) = unreadable {
                assert!(!report.runs.contains(&names[n]), "{} is pooled, yet a file of it links out of the root or to nothing", names[n]);
            }
            for (left, why) in &report.left_out {
                assert!(with_meta.contains(left), "{left} has no meta.json, yet is named as left out ({why})");
            }
            pooled_alike(&root, &report.runs);
            let reasons: Vec<String> = report.left_out.iter().map(|(run, why)| format!("{run}: {why}")).collect();
            [crate::report::bench::render(&report), crate::report::bench::json(&report), reasons.join("\n")].join("\n")
        }
        Err(crate::status::Failure::Input(diagnostics) | crate::status::Failure::InputRefused(diagnostics, _)) => {
            diagnostics.iter().map(|d| format!("{}\n{d}", d.render())).collect::<Vec<_>>().join("\n")
        }
        Err(other) => panic!("bad input must be refused as bad input (exit 2), not as {other:?}"),
    };
    assert!(!shown.contains(OUTSIDE_SECRET), "a file outside the root was read:\n{shown}");
}

/// Panics where two of the runs pooled took their buffer sets otherwise, as their `meta.json`
/// says. For a `softmax-bench` case both hold (the last of a name where a run holds it twice)
/// that is its count of sets and, where there were several,
/// [`crate::evidence::meta::CaseMeta::rotation`]; where both ran peers, the same for the peers'
/// replays of the case: the count the first peer record that names the case gives (the case's
/// own where none does) and [`crate::evidence::meta::Meta::peer_rotation`], which must also be
/// the same at every case, as a record of the peers' protocol. `calibrate` and the
/// recheck read them so, and runs timed by other protocols are not replicates. Read here
/// without `SetsTaken`, so that the check does not share the code it checks.
fn pooled_alike(root: &std::path::Path, runs: &[String]) {
    // Sets as (count, rotation where there were several): with one set every invocation took
    // it, whatever rotation the run records.
    type Sets = (usize, Option<crate::evidence::meta::SetRotation>);
    // Per case: ours, and the peers' where the run timed peers.
    type Cases = BTreeMap<String, (Sets, Option<Sets>)>;
    let taken: Vec<(&String, Cases, Option<crate::evidence::meta::SetRotation>)> = runs
        .iter()
        .filter_map(|run| {
            let meta = serde_json::from_slice::<crate::evidence::meta::Meta>(&std::fs::read(root.join(run).join("meta.json")).ok()?).ok()?;
            let sets = |count: usize, rotation: crate::evidence::meta::SetRotation| (count, (count > 1).then_some(rotation));
            let peers = |case: &crate::evidence::meta::CaseMeta| {
                let recorded = meta.peers.iter().find_map(|p| p.get("rotation_sets")?.get(&case.case)?.as_u64());
                (!meta.peers.is_empty()).then(|| sets(recorded.map_or(case.rotation_sets, |n| n as usize), meta.peer_rotation()))
            };
            let cases = meta.cases.iter().filter(|c| c.suite == "softmax-bench").map(|c| (c.case.clone(), (sets(c.rotation_sets, c.rotation()), peers(c)))).collect();
            Some((run, cases, (!meta.peers.is_empty()).then(|| meta.peer_rotation())))
        })
        .collect();
    for (n, (run, cases, rotation)) in taken.iter().enumerate() {
        for (other, other_cases, other_rotation) in &taken[..n] {
            if let (Some(a), Some(b)) = (rotation, other_rotation) {
                assert_eq!(a, b, "{run} and {other} are pooled, yet their peers took their buffer sets otherwise");
            }
            for (case, (ours, peers)) in cases {
                let Some((other_ours, other_peers)) = other_cases.get(case) else { continue };
                assert_eq!(ours, other_ours, "{run} and {other} are pooled, yet took the buffer sets of {case} otherwise");
                if let (Some(a), Some(b)) = (peers, other_peers) {
                    assert_eq!(a, b, "{run} and {other} are pooled, yet their peers took the buffer sets of {case} otherwise");
                }
            }
        }
    }
}

/// A folder-level input laid out as runs: `steer` and `link`, the input's first two bytes, then
/// the rest cut at lines holding only `---` into at most four runs' parts, one a file of the
/// run (`RUN_FILES`, or a longer list such as `POINTWISE_RUN_FILES`), written under `folder` (`root/evidence/runs/rN`) in a fresh temporary folder
/// that also holds `outside`, for links out of the root. The folder goes with `_tmp`.
struct Tree<'a> {
    steer: u8,
    link: u8,
    parts: Vec<&'a [u8]>,
    _tmp: tempfile::TempDir,
    root: std::path::PathBuf,
    outside: std::path::PathBuf,
    folder: std::path::PathBuf,
}

/// `bytes` laid out as a [`Tree`] of runs of `files`; `None` for an input that holds
/// `OUTSIDE_SECRET` itself, whose appearance in an output would then prove nothing.
fn lay_runs<'a>(bytes: &'a [u8], files: &[&str]) -> Option<Tree<'a>> {
    if bytes.windows(OUTSIDE_SECRET.len()).any(|w| w == OUTSIDE_SECRET.as_bytes()) {
        return None;
    }
    let (steer, link, rest) = match bytes {
        [steer, link, rest @ ..] => (*steer, *link, rest),
        [steer] => (*steer, 0, &[][..]),
        [] => (0, 0, &[][..]),
    };
    let parts = split_at_separators(rest, files.len() * 4);
    // A failure to lay out the tree is the machine's (a full disk), not the input's, and would
    // make every later input test nothing; it stops the fuzzer at once.
    let tmp = tempfile::tempdir().expect("a temporary folder for the tree");
    let (root, outside) = (tmp.path().join("root"), tmp.path().join("outside"));
    let folder = root.join("evidence/runs");
    for (n, texts) in parts.chunks(files.len()).enumerate() {
        let run = folder.join(format!("r{}", n + 1));
        for (name, text) in files.iter().zip(texts) {
            write_file(&run.join(name), text);
        }
    }
    Some(Tree { steer, link, parts, _tmp: tmp, root, outside, folder })
}

/// Writes `bytes` to `path`, making its folders.
fn write_file(path: &std::path::Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("a folder of the tree");
    }
    std::fs::write(path, bytes).expect("a file of the tree");
}

/// One link in the tree under `folder` (`evidence/runs`) of runs of `files`, chosen by `pick`:
/// which of `files.len() + 4` kinds (seven for [`RUN_FILES`]), in which run (`pick` divided by
/// the kinds, modulo the runs). `files.len() + 2` lead outside the root to `outside`, whose
/// files hold what they stand in for followed by [`OUTSIDE_SECRET`]: one of the run's files
/// (the first kinds, in the order of `files`), its `ptx` folder or the whole run folder. One
/// leads to another run's `meta.json` inside the root, and one to nothing in place of the
/// samples. Returns the run whose files cannot all be read, where the link makes one.
fn lay_link(folder: &std::path::Path, outside: &std::path::Path, parts: &[&[u8]], files: &[&str], pick: usize, relative: bool) -> Option<usize> {
    let runs = parts.len().div_ceil(files.len());
    let kinds = files.len() + 4;
    let n = pick / kinds % runs;
    let text = |file: usize| {
        let mut text = parts.get(files.len() * n + file).copied().unwrap_or_default().to_vec();
        text.extend_from_slice(format!("\n{OUTSIDE_SECRET}\n").as_bytes());
        text
    };
    let kind = pick % kinds;
    let (at, to) = if kind < files.len() {
        write_file(&outside.join(files[kind]), &text(kind));
        (files[kind], outside.join(files[kind]))
    } else if kind < files.len() + 2 {
        for (file, name) in files.iter().enumerate() {
            write_file(&outside.join(name), &text(file));
        }
        if kind == files.len() { ("ptx", outside.join("ptx")) } else { ("", outside.to_path_buf()) }
    } else if kind == files.len() + 2 {
        ("meta.json", folder.join(format!("r{}", (n + 1) % runs + 1)).join("meta.json"))
    } else {
        ("samples.jsonl", outside.join("missing"))
    };
    let run = folder.join(format!("r{}", n + 1));
    let path = if at.is_empty() { run } else { run.join(at) };
    // The link replaces whatever the input put there, file or folder.
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&path);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("a folder of the tree");
    }
    // A relative link climbs from its own folder to the temporary folder that holds both the
    // root and `outside`, then down to its target.
    let base = folder.parent().and_then(|evidence| evidence.parent()).and_then(|root| root.parent()).expect("the tree's own folders");
    let target = match (relative, to.strip_prefix(base)) {
        (true, Ok(below)) => {
            let ups = path.strip_prefix(base).map_or(0, |p| p.components().count() - 1);
            std::path::PathBuf::from("../".repeat(ups)).join(below)
        }
        _ => to,
    };
    std::os::unix::fs::symlink(&target, &path).expect("a link of the tree");
    (kind != files.len() + 2).then_some(n)
}

/// `calibrate RUN RUN [RUN...]` over two to four runs laid out from `bytes`, with 100
/// resamples an A/A judgement (raised, as always, to what Holm's smallest level needs), the
/// calibration laid out as text and as the JSON file the recheck reads.
///
/// The first byte steers the command line and the layout: bit 0 makes links relative rather
/// than absolute, bit 1 gives every run with a trailing slash, bit 2 names the first run again
/// at the end (which the command must refuse as usage), bit 3 names the runs in reverse order,
/// bit 4 gives each run a fourth file, `ptx/pointwise.ptx`, or, with bit 5 too,
/// `ptx/scheduling.ptx`. The second byte, where it is not 0, puts a link in place of one run's
/// file or folder (`lay_link`). The rest is cut at lines holding only `---` into at most four
/// runs' parts, three a run (`meta.json`, `ptx/softmax.ptx` and `samples.jsonl`) or four with
/// the module; a run whose parts run out lacks the files left, and a second run is named even
/// where the input lays out only one.
///
/// Besides returning normally, the command must not read outside the root (no calibration or
/// error holds `OUTSIDE_SECRET`, and no run is calibrated whose `meta.json` or samples link
/// out, whose `ptx/softmax.ptx` links out while its `meta.json` names kernels, whose
/// `ptx/pointwise.ptx` or `ptx/scheduling.ptx` links out while it holds a case of that suite
/// naming none, or whose `ptx` folder links out while it holds either), and must fail only as
/// bad input (exit 2), or as usage where a run is named twice.
pub fn calibrate(bytes: &[u8]) {
    let files: &[&str] = match bytes.first().map(|steer| steer & 0b11_0000) {
        Some(0b1_0000) => &POINTWISE_RUN_FILES,
        Some(0b11_0000) => &SCHEDULING_RUN_FILES,
        _ => &RUN_FILES,
    };
    let Some(Tree { steer, link, parts, _tmp, root, outside, folder }) = lay_runs(bytes, files) else { return };
    let runs = parts.len().div_ceil(files.len()).max(2);
    let pick = usize::from(link.wrapping_sub(1));
    let unreadable = (link != 0).then(|| lay_link(&folder, &outside, &parts, files, pick, steer & 0b1 != 0)).flatten();
    let slash = if steer & 0b10 != 0 { "/" } else { "" };
    let mut names: Vec<String> = (1..=runs).map(|n| format!("evidence/runs/r{n}{slash}")).collect();
    if steer & 0b1000 != 0 {
        names.reverse();
    }
    let twice = steer & 0b100 != 0;
    if twice {
        names.push(names[0].clone());
    }
    let options = crate::recheck::calibrate::Options { replicates: 100, ..Default::default() };
    let shown = match crate::recheck::calibrate::calibrate(&root, &names, options) {
        Ok(file) => {
            assert!(!twice, "a run named twice is calibrated as two replicates");
            if let Some(n) = unreadable {
                // Only a link in place of a module (or the `ptx` folder) may be passed over, and
                // only where the run's `meta.json` holds no case that reads it: one that names
                // kernels reads `ptx/softmax.ptx`, one of a suite that names none its own module.
                let meta = parts.get(files.len() * n).and_then(|text| serde_json::from_slice::<crate::evidence::meta::Meta>(text).ok());
                let modules: Vec<String> = meta
                    .iter()
                    .flat_map(|m| &m.cases)
                    .filter_map(|c| {
                        if !crate::evidence::ptx::kernel_names(c.dispatch.as_deref().unwrap_or_default()).is_empty() {
                            Some("ptx/softmax.ptx".to_string())
                        } else {
                            WHOLE_MODULE_SUITES.contains(&c.suite.as_str()).then(|| format!("ptx/{}.ptx", c.suite))
                        }
                    })
                    .collect();
                let kind = pick % (files.len() + 4);
                let passed_over = match files.get(kind) {
                    Some(file) => file.starts_with("ptx/") && !modules.iter().any(|m| m == file),
                    None => kind == files.len() && modules.is_empty(),
                };
                assert!(passed_over, "r{} is calibrated, yet a file it needs links out of the root or to nothing", n + 1);
            }
            [crate::report::calibration::text(&file), crate::report::calibration::json(&file)].join("\n")
        }
        Err(crate::status::Failure::Input(diagnostics) | crate::status::Failure::InputRefused(diagnostics, _)) => {
            diagnostics.iter().map(|d| format!("{}\n{d}", d.render())).collect::<Vec<_>>().join("\n")
        }
        Err(crate::status::Failure::Usage(why)) if twice => why,
        Err(other) => panic!("bad input must be refused as bad input (exit 2), not as {other:?}"),
    };
    assert!(!shown.contains(OUTSIDE_SECRET), "a file outside the root was read:\n{shown}");
}

/// The first line as a run's dispatch record and the rest as its `ptx/softmax.ptx`: every
/// kernel the record names looked up as `bench-report` looks each up, and the first line as a
/// kernel name too. The rest is also read as a whole module, as `calibrate` reads
/// `ptx/pointwise.ptx` ([`crate::evidence::ptx::module_hashes`]): it must list every name that
/// follows `.entry ` up to a `(` with no whitespace between, once each, in order, and hash the
/// first 64 as the lookup by name reads them.
pub fn ptx_entry(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let (dispatch, ptx) = text.split_once('\n').unwrap_or((&text, ""));
    // Every head, where it begins and what it names, found apart from the module's reader.
    let heads: Vec<(usize, &str)> = ptx
        .match_indices(".entry ")
        .filter_map(|(at, _)| {
            let (name, _) = ptx[at + ".entry ".len()..].split_once('(')?;
            (!name.contains(char::is_whitespace)).then_some((at, name))
        })
        .collect();
    let names: Vec<String> = crate::evidence::ptx::kernel_names(dispatch);
    for name in names.iter().map(String::as_str).chain([dispatch]) {
        if let Some(entry) = crate::evidence::ptx::entry_instructions(ptx, name) {
            // An entry is cut at its closing brace, at the next head, or at the module's end.
            let start = heads.iter().find(|(_, n)| *n == name).map(|(at, _)| *at).expect("an entry found has a head");
            let next = heads.iter().map(|(at, _)| *at).find(|at| *at > start).unwrap_or(ptx.len());
            assert!(entry.starts_with(".entry "), "an entry begins at its head");
            assert!(entry.ends_with("\n}\n") || !ptx[start..next].contains("\n}\n"), "an entry with a closing brace before the next head ends there");
        }
    }
    let hashed = crate::evidence::ptx::instruction_hashes(ptx, &names);
    if let Ok(hashes) = &hashed {
        assert_eq!(hashes.len(), names.len(), "one hash a name, however often it is named");
    }
    let hashes = crate::evidence::ptx::module_hashes(ptx);
    let listed: Vec<(&str, &str)> = hashes.iter().map(|h| h.rsplit_once(' ').expect("a name and its hash")).collect();
    assert!(listed.windows(2).all(|w| w[0].0 < w[1].0), "the entries are listed once each, in name order: {listed:?}");
    let found: std::collections::BTreeSet<&str> = heads.iter().map(|(_, name)| *name).collect();
    assert_eq!(listed.iter().map(|(name, _)| *name).collect::<std::collections::BTreeSet<_>>(), found, "every entry's head is listed");
    for (name, hash) in listed.iter().take(64) {
        let entry = crate::evidence::ptx::entry_instructions(ptx, name).expect("a listed entry is found by its name");
        assert_eq!(*hash, crate::hash::sha256_hex(entry.as_bytes()), "{name} is hashed as its entry is read by name");
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

/// The names a harness's file is read under where no format is given: each extension the
/// detection reads by name, criterion's layout, a text file, and none at all, so that every
/// branch of the detection by name and by content is reached from the same bytes.
const HARNESS_NAMES: [&str; 7] = ["bench/x.json", "bench/x.jsonl", "bench/x.csv", "bench/x.tsv", "bench/x.txt", "bench/criterion/a/new/sample.json", "bench/x"];

/// The numeric fields of the harness readers' records, which a `stat` check's `field` names.
const HARNESS_FIELDS: [&str; 13] = [
    "time_s",
    "time_ns",
    "batch_time_ns",
    "real_time_ns",
    "cpu_time_ns",
    "gpu_time_s",
    "iterations",
    "iters",
    "measured",
    "bytes_per_op",
    "score",
    "duration_ns",
    "gpu__time_duration.sum_ns",
];

/// Reads a harness's evidence file as a `stat` or `compare` check reads it
/// ([`crate::evidence::readers::read`]): with its format detected under each name of
/// [`HARNESS_NAMES`], then as each format named, and as JSON records at `benchmarks` (the format
/// implied) and at `context` (named). The input is cut at the first line holding only `---`:
/// before it the file, after it what every file the format refers to holds (nvbench's sample
/// files, criterion's `benchmark.json`); with no such line a sidecar is refused, as a file
/// missing from the root is.
///
/// On a read it touches what the checks touch: how the file was read, its field names, every
/// record's line and fields, groups, a selection, and the samples of each numeric field over
/// every record and over each group; a failed read is rendered. Besides returning normally, it
/// panics where a record or an error about the file points past the file's last line (the empty
/// line after a final newline counted as one), since the audit must be able to show that place.
pub fn read_harness(bytes: &[u8]) {
    use crate::evidence::readers::{self, Format};
    let parts = split_at_separators(bytes, 2);
    let (file, sidecar_bytes) = (parts[0], parts.get(1).copied());
    let sidecar = |rel: &str| -> Result<Vec<u8>, String> { sidecar_bytes.map(<[u8]>::to_vec).ok_or_else(|| format!("{rel}: no such file")) };
    // A compressed file's errors and records are located in the text it holds.
    let text = readers::inflated("bench/x", file).ok().flatten();
    let lines = text.as_deref().unwrap_or(file).iter().filter(|b| **b == b'\n').count() + 1;
    let reads = HARNESS_NAMES
        .iter()
        .map(|name| (*name, None, None))
        .chain(Format::ALL.iter().map(|f| ("bench/x", Some(*f), None)))
        .chain([("bench/x.json", None, Some("benchmarks")), ("bench/x", Some(Format::Json), Some("context"))]);
    for (name, format, records) in reads {
        match readers::read(name, file, format, records, &sidecar) {
            Ok(table) => touch_table(&table, lines),
            Err(d) => {
                if let Some(at) = d.location.as_ref().filter(|at| at.file == name) {
                    assert!(at.line >= 1 && at.line <= lines, "{name}: an error at line {} of a file of {lines} lines:\n{}", at.line, d.render());
                }
                render(&[d]);
            }
        }
    }
}

/// What the checks read of a table: see [`read_harness`].
fn touch_table(table: &crate::evidence::readers::Table, lines: usize) {
    let _ = table.read_as();
    let jsonl = &table.jsonl;
    let names: Vec<String> = jsonl.field_names().into_iter().map(String::from).collect();
    for r in &jsonl.records {
        assert!(r.line >= 1 && r.line <= lines, "{}: a record at line {} of a file of {lines} lines", jsonl.path, r.line);
    }
    for r in jsonl.records.iter().take(64) {
        let _ = jsonl.line_text(r);
        for name in &names {
            let _ = jsonl.text_of(jsonl.get(r, name));
        }
        let _ = jsonl.error_at(r, "m", "l").render();
    }
    // A selection by the first record's value of each text field, as a check's `select` reads.
    if let Some(first) = jsonl.records.first() {
        let select: BTreeMap<String, toml::Value> =
            names.iter().filter_map(|n| jsonl.get(first, n).and_then(|v| jsonl.str(v)).map(|s| (n.clone(), toml::Value::String(s.to_string())))).take(3).collect();
        let _ = jsonl.select(&select);
    }
    let all: Vec<&crate::evidence::jsonl::Record> = jsonl.records.iter().collect();
    let by: Vec<String> = ["name", "id", "command", "benchmark", "state", "function"].iter().filter(|n| names.iter().any(|m| m == *n)).map(|n| n.to_string()).collect();
    let groups = jsonl.groups(&by);
    for field in HARNESS_FIELDS.iter().filter(|f| names.iter().any(|n| n == *f)) {
        for records in std::iter::once(&all).chain(groups.values().take(16)) {
            match jsonl.samples(records, field) {
                Ok(s) => {
                    let _ = (s.median(), s.quantile(0.95), s.mean(), s.stdev(), s.min(), s.max());
                    // JMH's error, as `statistic = "jmh-error"` computes it: the t quantile's
                    // search must end for any spread of values.
                    let _ = crate::stats::student_t::mean_error(&s, 0.999);
                }
                Err(d) => render(&[d]),
            }
        }
    }
}

fn render(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let _ = d.render();
        let _ = d.to_string();
    }
}
