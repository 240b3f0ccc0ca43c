//! `benchmarkdotnet`, disassembly layout: the `<Type>-asm.md` file that BenchmarkDotNet's
//! `DisassemblyDiagnoser` writes beside its reports, read into one record per benchmark case
//! with the size of its native code, which is what BenchmarkDotNet's `Code Size` column shows.
//! This module owns that layout: its sections, its code blocks and the size each block states.
//! It never reads the instructions themselves, whose bytes the file does not hold, and it names a
//! case as `super::benchmarkdotnet` does ([`record_name`]), so that a check selects a row of
//! BenchmarkDotNet's table by the same `name` in every layout.
//!
//! What BenchmarkDotNet writes and computes, from its own source (dotnet/BenchmarkDotNet at
//! 5995bf68f and at the tag v0.14.0, under `src/BenchmarkDotNet/`):
//!
//! - `Disassemblers/Exporters/GithubMarkdownDisassemblyExporter.cs` (`FileCaption` `asm`,
//!   `FileExtension` `md`) writes, for each benchmark case that was disassembled, in the
//!   summary's order of cases, a header `## <runtime>` (`Summary.GetRuntimeInfo()`, `.NET 9.0.1
//!   (9.0.124.61010), X64 RyuJIT AVX2`; on the main branch since 0.14.0, `## <runtime> (Job:
//!   <job's DisplayInfo>)` followed by an empty line), then one ```` ```assembly ```` block per
//!   method it could disassemble: `; <method's name>` (the benchmark's own method first, as
//!   ClrMd names it, `Namespace.Type.Method()`), the instructions, labels and source lines, and
//!   last `; Total bytes of code N`, the sum of the lengths of the block's instructions
//!   (`asm.InstructionLength`); then, for the methods it could not disassemble, `**<problem>**`
//!   and their names, outside any block; then an empty line.
//! - `Disassemblers/DisassemblyDiagnoser.cs` gives each case one metric, `Code Size`
//!   (`NativeCodeSizeMetricDescriptor`, `DisplayName => Column.CodeSize`, in bytes, `N0`), whose
//!   value is `SumNativeCodeSize`: the lengths of the instructions of every method of the case,
//!   summed (v0.14.0 lines 56 and 186–187, 5995bf68f lines 65 and 219–220). That is the sum of
//!   the case's blocks' `Total bytes of code`, since a method that could not be disassembled has
//!   no instructions to count.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `benchmark` | `Type.Method` as the section's first block names it, without its arguments' `(…)`: `AlonzoBenchmarks.New`, the measurements file's `Target` |
//! | `type`, `namespace`, `method` | the parts of that name: `AlonzoBenchmarks`, `Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers`, `New` |
//! | `name` | what a row of BenchmarkDotNet's table stands for, as `super::benchmarkdotnet` names it: the method (`New`); the file does not write a case's parameters |
//! | `runtime` | the section's header after `## `, less its `(Job: …)` |
//! | `job` | the job's id, where the header names the job (`(Job: ShortRun(IterationCount=3))` gives `ShortRun`) |
//! | `code_size_bytes` | the sum of the section's `Total bytes of code`: BenchmarkDotNet's `Code Size` |
//! | `methods` | how many methods (blocks) the section holds |
//!
//! A record's line is its section's `##` line. The file does not write a case's parameters, so
//! the cases of one method that differ only by their parameters (or, before the header named
//! the job, by their job) are records of the same `name` in the file's order; a check of one of
//! them selects all, and reads one value only where they agree.
//!
//! A file that is not so is refused where it stops being so: text before the first section, a
//! section without a block, a block whose first line does not name its method, a block that
//! does not end with its `; Total bytes of code N` or whose N is not a whole number, a block not
//! closed before the next section or the end of the file, or a file without a section.

use std::ops::Range;

use super::Source;
use super::benchmarkdotnet::record_name;
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// The layout's name in the report: "read as BenchmarkDotNet disassembly (`-asm.md`)".
pub(super) const LAYOUT: &str = "BenchmarkDotNet disassembly (`-asm.md`)";

/// What BenchmarkDotNet writes before each block's size.
const TOTAL: &str = "; Total bytes of code ";

/// Whether `rel_path` is named as BenchmarkDotNet names the file: `<Type>-asm.md`.
pub(super) fn is_asm_name(rel_path: &str) -> bool {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    name.to_ascii_lowercase().ends_with("-asm.md")
}

/// Whether `text` begins as the file does, with a `## ` header: neither of BenchmarkDotNet's
/// other layouts (a JSON object, a table whose header begins `Target`) can.
pub(super) fn begins_like(text: &str) -> bool {
    first_line(text).starts_with("## ")
}

/// Whether `text` is the file by its content: a `## ` header first, and an ```` ```assembly ````
/// block ending with its size, which no other file claimcheck reads holds.
pub(super) fn looks_like(text: &str) -> bool {
    begins_like(text) && text.lines().any(|l| l.trim_end() == "```assembly") && text.contains(TOTAL)
}

pub(super) fn read(src: &Source) -> Result<Jsonl, Diagnostic> {
    let sections = parse(src)?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for s in &sections {
        let name = record_name(s.method, &[]);
        let mut fields: Vec<(&str, FieldValue<'_>)> = vec![
            ("benchmark", FieldValue::Str(&s.benchmark)),
            ("name", FieldValue::Str(&name)),
            ("type", FieldValue::Str(s.type_name)),
            ("namespace", FieldValue::Str(s.namespace)),
            ("method", FieldValue::Str(s.method)),
            ("runtime", FieldValue::Str(s.runtime)),
        ];
        if let Some(job) = s.job {
            fields.push(("job", FieldValue::Str(job)));
        }
        fields.push(("code_size_bytes", FieldValue::Int(s.code_size)));
        fields.push(("methods", FieldValue::Int(s.methods)));
        out.push(s.line, s.span.clone(), fields);
    }
    Ok(out.finish())
}

/// The first line of `text` that is not blank, after any byte-order mark, without its line end.
fn first_line(text: &str) -> &str {
    text.trim_start_matches('\u{feff}').lines().map(str::trim_end).find(|l| !l.is_empty()).unwrap_or("")
}

/// One `##` section, read and checked.
struct Section<'a> {
    line: usize,
    span: Range<usize>,
    runtime: &'a str,
    job: Option<&'a str>,
    /// `Type.Method`, and its parts, from the first block's first line.
    benchmark: String,
    type_name: &'a str,
    namespace: &'a str,
    method: &'a str,
    code_size: i64,
    methods: i64,
}

/// A section being read: its header, and the name its first block gives.
struct Open<'a> {
    line: usize,
    span: Range<usize>,
    header: &'a str,
    /// Namespace, type and method of the first block's method.
    named: Option<(&'a str, &'a str, &'a str)>,
    code_size: i64,
    methods: i64,
}

/// A block being read: where its fence is, and its last line so far.
struct Block<'a> {
    fence: Range<usize>,
    fence_line: usize,
    /// The line after the fence, and the last line before the closing fence.
    first: Option<(&'a str, Range<usize>)>,
    last: Option<(&'a str, Range<usize>)>,
}

/// Every section of the file, each with its blocks' sizes summed.
fn parse<'a>(src: &Source<'a>) -> Result<Vec<Section<'a>>, Diagnostic> {
    let text = src.text;
    let mut sections = Vec::new();
    let mut open: Option<Open<'a>> = None;
    let mut block: Option<Block<'a>> = None;
    let mut at = 0;
    let mut line_no = 0;
    for raw in text.split_inclusive('\n') {
        let start = at;
        at += raw.len();
        line_no += 1;
        // A byte-order mark before the first line is no part of it.
        let bom = if start == 0 && raw.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        let line = raw[bom..].trim_end_matches(['\n', '\r']);
        let span = start + bom..start + bom + line.len();
        if let Some(b) = &mut block {
            if line.trim_end() == "```" {
                let b = block.take().unwrap_or_else(|| unreachable!("a block is open"));
                let Some(section) = open.as_mut() else { unreachable!("a block opens only inside a section") };
                close_block(src, section, b, span)?;
            } else if line.starts_with("## ") {
                return Err(src
                    .error(
                        b.fence.clone(),
                        format!("this code block is not closed before the next section (line {line_no}): BenchmarkDotNet closes every block with ```"),
                        "not closed",
                    )
                    .with_note("the file may have been cut or edited: write it again"));
            } else {
                if b.first.is_none() {
                    b.first = Some((line, span.clone()));
                }
                b.last = Some((line, span));
            }
            continue;
        }
        if let Some(header) = line.strip_prefix("## ") {
            if let Some(done) = open.take() {
                sections.push(finish(src, done)?);
            }
            open = Some(Open { line: line_no, span, header: header.trim(), named: None, code_size: 0, methods: 0 });
        } else if line.trim_end() == "```assembly" {
            if open.is_none() {
                return Err(src.error(span, "this code block comes before any `## ` section, which names the benchmark case BenchmarkDotNet disassembled", "no section"));
            }
            block = Some(Block { fence: span, fence_line: line_no, first: None, last: None });
        } else if line.starts_with("```") {
            return Err(src.error(span, "this code block is not one BenchmarkDotNet's disassembly report writes: each of its blocks opens with ```assembly", "not ```assembly"));
        } else if open.is_none() && !line.trim().is_empty() {
            return Err(src
                .error(span, "this is not BenchmarkDotNet's disassembly report (`-asm.md`): it does not begin with a `## ` section", "before any section")
                .with_note("BenchmarkDotNet's `DisassemblyDiagnoser` writes the file; name another format for another file"));
        }
        // Other lines outside a block are the methods BenchmarkDotNet could not disassemble
        // (`**problem**` and their names) and the empty lines between sections: no code to count.
    }
    if let Some(b) = block {
        return Err(src
            .error(b.fence, format!("this code block (line {}) is not closed: the file ends inside it, so it may be cut short", b.fence_line), "not closed")
            .with_note("BenchmarkDotNet closes every block with ``` and ends the file with an empty line: write it again"));
    }
    match open {
        Some(done) => sections.push(finish(src, done)?),
        None => {
            let end = text.len().min(first_line(text).len().max(1));
            return Err(src
                .error(0..end, "this file has no `## ` section, so there is no benchmark case to read: BenchmarkDotNet's disassembly report gives one a case", "no section")
                .with_note("the diagnoser writes it for the cases it disassembled: run the benchmarks with `[DisassemblyDiagnoser]` again"));
        }
    }
    Ok(sections)
}

/// Checks a closed block and adds its size to its section; the first block names the section's
/// case.
fn close_block<'a>(src: &Source<'a>, section: &mut Open<'a>, b: Block<'a>, closing: Range<usize>) -> Result<(), Diagnostic> {
    let Some((last, last_span)) = b.last else {
        return Err(src.error(b.fence, "this code block is empty: BenchmarkDotNet writes a method's name, its code and `; Total bytes of code N` in each", "empty block"));
    };
    let Some(size) = last.strip_prefix(TOTAL) else {
        return Err(src
            .error(closing, "this code block closes without `; Total bytes of code N` on its last line, where BenchmarkDotNet writes the size of the method's code", "no size")
            .with_note("the file may have been cut or edited: write it again"));
    };
    let size_start = last_span.start + TOTAL.len();
    let size_span = size_start..last_span.end.max(size_start);
    let size = size.trim_end();
    let bytes: i64 = match size.parse::<u64>().ok().and_then(|n| i64::try_from(n).ok()) {
        Some(n) if size.bytes().all(|c| c.is_ascii_digit()) => n,
        _ => return Err(src.error(size_span, format!("the size of this method's code is \"{size}\", not a whole number of bytes"), "not a size")),
    };
    if section.named.is_none() {
        let (first, first_span) = b.first.unwrap_or((last, last_span));
        section.named = Some(method_name(src, first, first_span)?);
    }
    section.code_size =
        section.code_size.checked_add(bytes).ok_or_else(|| src.error(closing.clone(), "the sizes of this section's code add up past what a whole number holds", "too large"))?;
    section.methods += 1;
    Ok(())
}

/// The namespace, type and method of a block's first line, `; Namespace.Type.Method(args)`,
/// split at the last `.` outside brackets before the arguments (a generic type's arguments hold
/// dots of their own).
fn method_name<'a>(src: &Source<'a>, line: &'a str, span: Range<usize>) -> Result<(&'a str, &'a str, &'a str), Diagnostic> {
    let refuse =
        || src.error(span.clone(), "the first block of a section names the benchmark's method as `; Namespace.Type.Method()`, and this line does not", "not a method's name");
    let full = line.strip_prefix("; ").ok_or_else(refuse)?.trim_end();
    if full.starts_with("Total bytes of code") {
        return Err(refuse());
    }
    let name = full.split_once('(').map_or(full, |(n, _)| n);
    let dots = top_level_dots(name);
    let Some(&method_dot) = dots.last() else { return Err(refuse()) };
    let (type_full, method) = (&name[..method_dot], &name[method_dot + 1..]);
    let (namespace, type_name) = match dots.iter().rev().nth(1) {
        Some(&d) => (&name[..d], &name[d + 1..method_dot]),
        None => ("", type_full),
    };
    if method.is_empty() || type_name.is_empty() {
        return Err(refuse());
    }
    Ok((namespace, type_name, method))
}

/// The byte offsets of the `.`s of `name` outside `[…]` and `<…>`.
fn top_level_dots(name: &str) -> Vec<usize> {
    let mut depth = 0i32;
    let mut dots = Vec::new();
    for (i, c) in name.char_indices() {
        match c {
            '[' | '<' => depth += 1,
            ']' | '>' => depth -= 1,
            '.' if depth == 0 => dots.push(i),
            _ => {}
        }
    }
    dots
}

/// A section whose blocks are all read: its record's fields, or the refusal of a section with
/// no block to name its case.
fn finish<'a>(src: &Source<'a>, s: Open<'a>) -> Result<Section<'a>, Diagnostic> {
    let Some((namespace, type_name, method)) = s.named else {
        return Err(src
            .error(s.span, "this section holds no ```assembly block, so neither its benchmark nor its code size can be read", "no code")
            .with_note("BenchmarkDotNet writes a section without a block where it could disassemble none of the case's methods (listed after `**…**`): rerun it, or leave the case's `Code Size` unbound"));
    };
    let (runtime, job) = split_job(s.header);
    Ok(Section { line: s.line, span: s.span, runtime, job, benchmark: format!("{type_name}.{method}"), type_name, namespace, method, code_size: s.code_size, methods: s.methods })
}

/// The header as the runtime and, where it names one (`… (Job: ShortRun(IterationCount=3))`,
/// BenchmarkDotNet after 0.14.0), the job's id, less its characteristics.
fn split_job(header: &str) -> (&str, Option<&str>) {
    match header.find(" (Job: ") {
        Some(i) if header.ends_with(')') => {
            let display = &header[i + " (Job: ".len()..header.len() - 1];
            let id = display.split_once('(').map_or(display, |(id, _)| id).trim();
            (header[..i].trim_end(), Some(id).filter(|id| !id.is_empty()))
        }
        _ => (header, None),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{ROOT, read_fixture, read_text};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    const TYPES: [&str; 4] = ["AlonzoBenchmarks", "AlonzoDuplicateKeyBenchmarks", "BabbageBenchmarks", "ConwayBenchmarks"];

    fn fixture(type_name: &str) -> String {
        format!("benchmarkdotnet/Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers.{type_name}-asm.md")
    }

    /// The four real reports: two cases each (`New`, `Old`), each of three methods of 68, 33
    /// and 125 bytes, 226 in all: the `Code Size` BenchmarkDotNet printed for all eight rows of
    /// the reports written beside them.
    #[test]
    fn chrysalis_reports_give_each_case_its_code_size() {
        for type_name in TYPES {
            let t = read_fixture(&fixture(type_name), None).unwrap();
            assert_eq!((t.format, t.detected), (Format::BenchmarkDotNet, Detected::ByName), "{type_name}");
            assert_eq!(t.read_as(), "read as BenchmarkDotNet disassembly (`-asm.md`) (detected by its name)");
            let j = &t.jsonl;
            assert_eq!(j.records.len(), 2, "{type_name}");
            for (record, (method, line)) in j.records.iter().zip([("New", 1), ("Old", 91)]) {
                let text = |name: &str| j.text_of(j.get(record, name));
                assert_eq!(record.line, line, "{type_name}.{method}");
                assert_eq!(text("benchmark"), format!("{type_name}.{method}"));
                assert_eq!(text("name"), method);
                assert_eq!(text("type"), type_name);
                assert_eq!(text("namespace"), "Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers");
                assert_eq!(text("method"), method);
                assert_eq!(text("runtime"), ".NET 9.0.1 (9.0.124.61010), X64 RyuJIT AVX2");
                assert_eq!(j.get(record, "job"), None);
                assert_eq!(j.get(record, "code_size_bytes"), Some(Scalar::Int(68 + 33 + 125)));
                assert_eq!(j.get(record, "methods"), Some(Scalar::Int(3)));
            }
        }
    }

    /// The size is the sum of every `Total bytes of code` line of a case, and the file's own
    /// lines say so: each section holds as many sizes as blocks.
    #[test]
    fn the_code_size_is_the_sum_of_the_sections_sizes() {
        let text = std::fs::read_to_string(format!("{ROOT}/{}", fixture("ConwayBenchmarks"))).unwrap();
        let sizes: Vec<i64> = text.lines().filter_map(|l| l.strip_prefix("; Total bytes of code ")).map(|n| n.parse().unwrap()).collect();
        assert_eq!(sizes, [68, 33, 125, 68, 33, 125]);
        let t = read_fixture(&fixture("ConwayBenchmarks"), Some(Format::BenchmarkDotNet)).unwrap();
        assert_eq!(t.detected, Detected::Given);
        let total: i64 = t
            .jsonl
            .records
            .iter()
            .map(|r| match t.jsonl.get(r, "code_size_bytes") {
                Some(Scalar::Int(n)) => n,
                other => panic!("{other:?}"),
            })
            .sum();
        assert_eq!(total, sizes.iter().sum::<i64>());
    }

    /// Synthetic: the layout of BenchmarkDotNet after 0.14.0, whose header names the job and is
    /// followed by an empty line, with a method that could not be disassembled, a generic type
    /// and a benchmark with arguments.
    #[test]
    fn synthetic_headers_with_a_job_and_problems_are_read() {
        let text = "## .NET 8.0.0 (8.0.23.53103), X64 RyuJIT AVX2 (Job: ShortRun(IterationCount=3, LaunchCount=1))\n\n```assembly\n; My.App.Bench`1[[System.Int32, System.Private.CoreLib]].Sum(Int32)\n       ret\n; Total bytes of code 1\n```\n```assembly\n; My.App.Helper.Run()\n       ret\n; Total bytes of code 40\n```\n**No ClrMd method**\nSystem.Foo.Bar()\n\n";
        let t = read_text("x.md", text, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::BenchmarkDotNet, Detected::ByContent));
        let j = &t.jsonl;
        let r = &j.records[0];
        let text_of = |name: &str| j.text_of(j.get(r, name));
        assert_eq!(text_of("runtime"), ".NET 8.0.0 (8.0.23.53103), X64 RyuJIT AVX2");
        assert_eq!(text_of("job"), "ShortRun");
        assert_eq!(text_of("namespace"), "My.App");
        assert_eq!(text_of("type"), "Bench`1[[System.Int32, System.Private.CoreLib]]");
        assert_eq!(text_of("method"), "Sum");
        assert_eq!(text_of("name"), "Sum");
        assert_eq!(j.get(r, "code_size_bytes"), Some(Scalar::Int(41)));
        assert_eq!(j.get(r, "methods"), Some(Scalar::Int(2)));
    }

    /// Synthetic broken files, each refused at the line that breaks the layout.
    #[test]
    fn synthetic_broken_files_are_refused_where_they_break() {
        let good_block = "```assembly\n; N.T.M()\n       ret\n; Total bytes of code 1\n```\n";
        let cases = [
            // A block without its size.
            ("## R\n```assembly\n; N.T.M()\n       ret\n```\n".to_string(), "x-asm.md:5:1", "closes without `; Total bytes of code N`"),
            // A size that is not a number.
            ("## R\n```assembly\n; N.T.M()\n; Total bytes of code 12x\n```\n".to_string(), "x-asm.md:4:23", "\"12x\", not a whole number"),
            ("## R\n```assembly\n; N.T.M()\n; Total bytes of code -3\n```\n".to_string(), "x-asm.md:4:23", "\"-3\", not a whole number"),
            // A block cut short at the end of the file, and one not closed before the next section.
            ("## R\n```assembly\n; N.T.M()\n       ret\n".to_string(), "x-asm.md:2:1", "the file ends inside it"),
            (format!("## R\n```assembly\n; N.T.M()\n## R\n{good_block}"), "x-asm.md:2:1", "not closed before the next section (line 4)"),
            // No section at all, text before the first, a block outside any, a section without a block.
            ("\n\n".to_string(), "x-asm.md:1:1", "no `## ` section"),
            (format!("# Title\n## R\n{good_block}"), "x-asm.md:1:1", "does not begin with a `## ` section"),
            (format!("{good_block}## R\n"), "x-asm.md:1:1", "comes before any `## ` section"),
            (format!("## R\n{good_block}\n## S\n\n**No ClrMd method**\nN.T.M()\n"), "x-asm.md:8:1", "holds no ```assembly block"),
            // A first line that names no method, an empty block, a block in another language.
            ("## R\n```assembly\n       ret\n; Total bytes of code 1\n```\n".to_string(), "x-asm.md:3:1", "names the benchmark's method"),
            ("## R\n```assembly\n```\n".to_string(), "x-asm.md:2:1", "this code block is empty"),
            ("## R\n```text\n```\n".to_string(), "x-asm.md:2:1", "each of its blocks opens with ```assembly"),
        ];
        for (text, at, says) in cases {
            let err = read_text("x-asm.md", &text, None).unwrap_err();
            assert_eq!(err.position().as_deref(), Some(at), "{text:?}: {}", err.message);
            assert!(err.message.contains(says), "{text:?}: {}", err.message);
        }
        // The same, with the format given and a name that does not say it.
        let err = read_text("asm.txt", "## R\n```assembly\n; N.T.M()\n```\n", Some(Format::BenchmarkDotNet)).unwrap_err();
        assert!(err.message.contains("closes without"), "{}", err.message);
    }

    /// A Markdown file that is not the report is not taken for one by its content.
    #[test]
    fn other_markdown_is_not_taken_for_the_report() {
        assert!(!super::looks_like("## Results\n\n| a | b |\n"));
        assert!(!super::looks_like("# T\n## R\n```assembly\n; N.T.M()\n; Total bytes of code 1\n```\n"));
        assert!(super::is_asm_name("results/X.Y-asm.md") && !super::is_asm_name("results/X.Y-report-github.md"));
    }
}
