//! The files a manuscript brings in, spliced into one text as the page reads it: LaTeX's
//! `\input`, `\include`, `\subfile`, `\import`, `\subimport` and `\LTXtable`, and a package
//! the repository holds (`\usepackage{macros}` beside `macros.sty`), as `latexpand` flattens a
//! paper; and reStructuredText's `include` directive. Every byte of the spliced text maps back
//! to its file, so that a sentence of `sections/eval.tex` is reported at its own line there.
//!
//! Files are read through a [`Load`] function that the caller gives, confined to the
//! repository root: this module never opens a file itself. A file that cannot be read (missing,
//! refused because it lies outside the root, not UTF-8, already being read, too deep) leaves the
//! command in the text, where the reader prints nothing for it, and a warning located at it.
//!
//! LaTeX resolves `\input` and `\include` against the folder it runs in, which is the main
//! file's, whatever file holds the command; `\import{dir/}{file}` reads `file` in `dir` and the
//! `\input`s of that file in `dir` too, and `\subimport` takes `dir` relative to the importing
//! file's folder. `\includeonly{a,b}` in the main file keeps every other `\include` off the
//! page. docutils resolves `include` against the folder of the file that holds the directive.

use std::ops::Range;

use super::latex::comment_start;
use crate::hash::sha256_hex;

/// What reading one root-relative path gave.
pub(crate) enum Load {
    Read(Vec<u8>),
    /// Nothing stands at the path: another spelling may be tried (`intro.tex`, then `intro`).
    Missing,
    /// The path was refused or could not be read, and why.
    Refused(String),
}

/// One file of a manuscript: the main file first, then each file it brings in, once however
/// often it is brought in.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Root-relative path, as reports name it.
    pub path: String,
    /// SHA-256 of the file's bytes, lowercase hex.
    pub sha256: String,
    /// The file's text.
    pub text: String,
}

/// Where a run of the spliced text comes from: from byte `at` of the spliced text on, the bytes
/// are those of file `file` from byte `offset`, until the next segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Segment {
    pub at: usize,
    pub file: usize,
    pub offset: usize,
}

/// A manuscript with its inputs spliced in.
pub(super) struct Spliced {
    pub text: String,
    pub files: Vec<SourceFile>,
    /// In order of `at`; the first is at 0 in the main file.
    pub segments: Vec<Segment>,
    /// Inputs not read, each at its command in the spliced text.
    pub warnings: Vec<(Range<usize>, String)>,
}

/// The syntaxes whose inputs are spliced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Markup {
    Latex,
    ReStructuredText,
    /// Markdown (and HTML, read as Markdown): no file is brought in, but the containers of
    /// Python-Markdown's extensions, as MkDocs sites write them, are unindented
    /// ([`Splicer::markdown`]).
    Markdown,
}

/// How deep inputs may nest: LaTeX's own limit on open files is 15.
const MAX_DEPTH: usize = 16;
/// How large the spliced text may grow: a file brought in many times can multiply a small tree.
const MAX_BYTES: usize = 64 << 20;

/// The main file `path` holding `text`, with every file it brings in spliced in, resolved
/// against the root-relative folder `dir` (the main file's own, or for a draft its
/// manuscript's) and read through `load`; with none, no other file is read and each is warned
/// of, but a package, which is the TeX installation's where the repository holds none.
pub(super) fn splice(path: &str, text: &str, markup: Markup, dir: &str, load: Option<&dyn Fn(&str) -> Load>) -> Spliced {
    let main = SourceFile { path: path.to_string(), sha256: sha256_hex(text.as_bytes()), text: text.to_string() };
    let mut splicer = Splicer {
        load,
        out: String::with_capacity(text.len()),
        files: vec![main],
        segments: Vec::new(),
        warnings: Vec::new(),
        open: vec![path.to_string()],
        main_dir: dir.trim_matches('/').to_string(),
        only: None,
        budget_warned: false,
        in_package: 0,
    };
    match markup {
        Markup::Latex => {
            splicer.only = include_only(text);
            let base = splicer.main_dir.clone();
            splicer.latex(0, 0..text.len(), &base);
        }
        Markup::ReStructuredText => {
            let base = splicer.main_dir.clone();
            splicer.rst(0, 0..text.len(), &base);
        }
        Markup::Markdown => splicer.markdown(0, 0..text.len()),
    }
    if splicer.segments.is_empty() {
        splicer.segments.push(Segment { at: 0, file: 0, offset: 0 });
    }
    Spliced { text: splicer.out, files: splicer.files, segments: splicer.segments, warnings: splicer.warnings }
}

/// The file and the byte in it of byte `at` of the spliced text.
pub(super) fn locate(segments: &[Segment], at: usize) -> (usize, usize) {
    let k = segments.partition_point(|s| s.at <= at).saturating_sub(1);
    let s = segments[k];
    (s.file, s.offset + (at - s.at.min(at)))
}

struct Splicer<'a> {
    load: Option<&'a dyn Fn(&str) -> Load>,
    out: String,
    files: Vec<SourceFile>,
    segments: Vec<Segment>,
    warnings: Vec<(Range<usize>, String)>,
    /// The files being spliced, outermost first: one met again would bring itself in forever.
    open: Vec<String>,
    /// The main file's folder, root-relative ("" at the root).
    main_dir: String,
    /// The files `\includeonly` lets `\include` bring in, where the main file names any.
    only: Option<Vec<String>>,
    /// Whether [`MAX_BYTES`] was met and said so: it is said once.
    budget_warned: bool,
    /// How many packages are being spliced: what a package inputs and the repository does not
    /// hold is the installation's (`\input twocolumn.sty`), and goes unsaid too.
    in_package: usize,
}

/// What a command asks to bring in.
struct Request {
    /// The root-relative spellings to try, in order.
    candidates: Vec<String>,
    /// The folder that the brought-in file's own `\input`s are resolved against.
    base: String,
    /// Whether only the body between `\begin{document}` and `\end{document}` is read: a
    /// subfile is a document of its own, whose preamble is the main file's.
    body_only: bool,
    /// For reStructuredText's options, the part of the file to read.
    select: Select,
    /// Whether a file that does not exist goes unsaid: a package is the TeX installation's
    /// unless the repository holds it.
    quiet: bool,
}

#[derive(Default)]
struct Select {
    start_line: Option<i64>,
    end_line: Option<i64>,
    start_after: Option<String>,
    end_before: Option<String>,
}

impl Splicer<'_> {
    /// Copies `range` of file `file` to the spliced text.
    fn copy(&mut self, file: usize, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        if self.segments.last().is_none_or(|s| s.file != file || s.offset + (self.out.len() - s.at) != range.start) {
            self.segments.push(Segment { at: self.out.len(), file, offset: range.start });
        }
        let text = &self.files[file].text[range];
        self.out.push_str(text);
    }

    /// Copies the command that brought nothing in, and says why at it.
    fn refuse(&mut self, file: usize, command: Range<usize>, why: String) {
        let start = self.out.len();
        self.copy(file, command.clone());
        let written = &self.files[file].text[command];
        self.warnings.push((start..self.out.len(), format!("not read: `{written}` {why}")));
    }

    /// Brings in what `request` asks, in place of the `command` of file `file`.
    fn bring_in(&mut self, file: usize, command: Range<usize>, request: Request, markup: Markup) {
        if self.open.len() > MAX_DEPTH {
            return self.refuse(file, command, format!("is nested more than {MAX_DEPTH} files deep"));
        }
        let Some(index) = self.read_first(file, &command, &request.candidates, request.quiet || self.in_package > 0) else { return };
        let path = self.files[index].path.clone();
        if self.open.contains(&path) {
            return self.refuse(file, command, format!("brings in `{path}`, which is already being read: it would bring itself in forever"));
        }
        let size = self.files[index].text.len();
        if self.out.len() + size > MAX_BYTES {
            // Said once: past the bound, every further input would say the same.
            if std::mem::replace(&mut self.budget_warned, true) {
                return self.copy(file, command);
            }
            return self.refuse(file, command, format!("would take the manuscript past {} MiB with its inputs", MAX_BYTES >> 20));
        }
        let range = match markup {
            Markup::Latex if request.body_only => document_body(&self.files[index].text),
            Markup::ReStructuredText => selected(&self.files[index].text, &request.select),
            _ => None,
        }
        .unwrap_or(0..size);
        self.open.push(path);
        self.in_package += usize::from(request.quiet);
        match markup {
            Markup::Latex => self.latex(index, range, &request.base),
            Markup::ReStructuredText => self.rst(index, range, &request.base),
            Markup::Markdown => self.markdown(index, range),
        }
        self.in_package -= usize::from(request.quiet);
        self.open.pop();
    }

    /// The index in `files` of the first of `candidates` that can be read, read now if it was
    /// not before; `None`, with the command copied and why said, where none can.
    fn read_first(&mut self, file: usize, command: &Range<usize>, candidates: &[String], quiet: bool) -> Option<usize> {
        for candidate in candidates {
            if let Some(k) = self.files.iter().position(|f| &f.path == candidate) {
                return Some(k);
            }
            let loaded = match self.load {
                Some(load) => load(candidate),
                None if quiet => Load::Missing,
                None => Load::Refused("brings in another file, and none is read here".to_string()),
            };
            match loaded {
                Load::Read(bytes) => {
                    let text = match String::from_utf8(bytes) {
                        Ok(text) => text,
                        Err(e) => {
                            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                            let line = good.iter().filter(|b| **b == b'\n').count() + 1;
                            self.refuse(file, command.clone(), format!("brings in `{candidate}`, which is not UTF-8 (an invalid byte on its line {line})"));
                            return None;
                        }
                    };
                    self.files.push(SourceFile { sha256: sha256_hex(text.as_bytes()), path: candidate.clone(), text });
                    return Some(self.files.len() - 1);
                }
                Load::Missing => {}
                Load::Refused(why) => {
                    self.refuse(file, command.clone(), why);
                    return None;
                }
            }
        }
        if quiet {
            self.copy(file, command.clone());
            return None;
        }
        let tried = candidates.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" or ");
        self.refuse(file, command.clone(), format!("brings in {tried}, which does not exist under the root"));
        None
    }

    /// Splices `range` of LaTeX file `file`, whose `\input`s resolve against `base`.
    fn latex(&mut self, file: usize, range: Range<usize>, base: &str) {
        let mut last = range.start;
        let mut k = range.start;
        let mut end = range.end;
        while k < end {
            let step = {
                let text = &self.files[file].text;
                let bytes = text.as_bytes();
                match bytes[k] {
                    b'%' => Step::Past(line_end(bytes, k, end)),
                    b'\\' => {
                        let name_end = (k + 1..end).find(|&j| !bytes[j].is_ascii_alphabetic()).unwrap_or(end);
                        match &text[k + 1..name_end] {
                            // A control symbol (`\%`, `\\`): the character after it is not markup.
                            "" => Step::Past((k + 2).min(end)),
                            "begin" => Step::Past(skip_verbatim(text, name_end, end).unwrap_or(name_end)),
                            name @ ("verb" | "lstinline" | "mintinline") => Step::Past(skip_inline_code(bytes, name, name_end, end)),
                            // TeX reads the rest of the line and then stops reading the file.
                            "endinput" => Step::EndInput(name_end, line_end(bytes, name_end, end)),
                            "input" | "include" | "subfile" | "import" | "subimport" | "LTXtable" | "usepackage" | "RequirePackage" => {
                                match self.latex_request(file, k, name_end, end, base) {
                                    Some(request) => Step::Input(request),
                                    None => Step::Past(name_end),
                                }
                            }
                            _ => Step::Past(name_end),
                        }
                    }
                    _ => Step::Past(k + 1),
                }
            };
            match step {
                Step::Past(next) => k = next,
                Step::EndInput(next, line_end) => {
                    k = next;
                    end = line_end;
                }
                Step::Input((command, request)) => {
                    self.copy(file, last..command.start);
                    match request {
                        Ok(request) if request.candidates.is_empty() => {}
                        Ok(request) => self.bring_in(file, command.clone(), request, Markup::Latex),
                        Err(why) => self.refuse(file, command.clone(), why),
                    }
                    last = command.end;
                    k = command.end;
                }
            }
        }
        self.copy(file, last..end.max(last));
    }

    /// What the `\input`-like command at `at` of file `file` asks, its name ending at
    /// `name_end`, with the command's bytes: `None` where it takes no file (`\input` at the end
    /// of a macro's body), why where the file cannot be named, and no candidates where
    /// `\includeonly` keeps it off the page.
    fn latex_request(&self, file: usize, at: usize, name_end: usize, end: usize, base: &str) -> Option<(Range<usize>, Result<Request, String>)> {
        let text = &self.files[file].text;
        let bytes = text.as_bytes();
        let name = &text[at + 1..name_end];
        let (folder, file_name, after) = if name.ends_with("Package") || name == "usepackage" {
            // A package of the paper's own (`\usepackage{macros}` beside `macros.sty`) holds
            // the macros its text uses; options come first, and a list names no one file.
            let mut from = skip_spaces(bytes, name_end, end);
            if bytes.get(from) == Some(&b'[') && from < end {
                from = skip_spaces(bytes, (from..end).find(|&j| bytes[j] == b']').map_or(end, |j| j + 1), end);
            }
            let (f, next) = braced(bytes, from, end)?;
            if text[f.clone()].contains(',') {
                return None;
            }
            (None, text[f].trim(), next)
        } else if name.ends_with("import") || name == "LTXtable" {
            // `\import{dir/}{file}`; ltxtable's `\LTXtable{width}{file}` inputs a longtable.
            let (first, next) = braced(bytes, skip_spaces(bytes, name_end, end), end)?;
            let (f, next) = braced(bytes, skip_spaces(bytes, next, end), end)?;
            (name.ends_with("import").then(|| text[first].trim()), text[f].trim(), next)
        } else {
            let from = skip_spaces(bytes, name_end, end);
            match braced(bytes, from, end) {
                Some((f, next)) => (None, text[f].trim(), next),
                // TeX's own form, `\input intro`: the name runs to a space or a brace.
                None if name == "input" => {
                    let stop = bare_name_end(bytes, from, end);
                    if stop == from {
                        return None;
                    }
                    (None, &text[from..stop], stop)
                }
                None => return None,
            }
        };
        let command = at..after;
        let request = self.resolve(name, folder, file_name.trim_matches('"'), base);
        Some((command, request))
    }

    /// The files LaTeX's `command` tries for `file_name` (in `folder`, for the import
    /// package's commands), from a file whose `\input`s resolve against `base`.
    fn resolve(&self, command: &str, folder: Option<&str>, file_name: &str, base: &str) -> Result<Request, String> {
        if file_name.contains('#') {
            return Err("is named by a macro's argument, which is not followed".to_string());
        }
        if file_name.contains('\\') {
            return Err("is named through a macro, which is not followed".to_string());
        }
        if file_name.is_empty() {
            return Err("names no file".to_string());
        }
        let dir = match folder {
            Some(d) => join(if command == "import" { &self.main_dir } else { base }, d)?,
            None => base.to_string(),
        };
        if command == "include"
            && let Some(only) = &self.only
            && !only.iter().any(|o| o == file_name.trim_end_matches(".tex"))
        {
            return Ok(Request { candidates: Vec::new(), base: dir, body_only: false, select: Select::default(), quiet: false });
        }
        let path = join(&dir, file_name)?;
        // LaTeX tries the name with `.tex` added first; `\include` tries only that, and a
        // package is its `.sty` file.
        let package = command.ends_with("Package") || command == "usepackage";
        let candidates = if package {
            vec![format!("{path}.sty")]
        } else if path.ends_with(".tex") {
            vec![path]
        } else if command == "include" {
            vec![format!("{path}.tex")]
        } else {
            vec![format!("{path}.tex"), path]
        };
        // Inside an imported file, `\input` resolves against the import's folder.
        let base = if folder.is_some() { dir } else { base.to_string() };
        Ok(Request { candidates, base, body_only: command == "subfile", select: Select::default(), quiet: package })
    }

    /// Copies Markdown, unindenting the containers of Python-Markdown's extensions as MkDocs
    /// (and Material for MkDocs) renders them: an admonition (`!!! note "Title"`), a collapsible
    /// block (`??? note`, `???+ note`) and a content tab (`=== "Tab"`), whose body is the lines
    /// after the marker indented four spaces (or a tab) deeper. To CommonMark those lines would
    /// continue the paragraph before them, or after a blank line be indented code: a fenced
    /// block of a benchmark's output inside a tab would be read as prose, and prose inside a
    /// note as code. Unindented, the body is read as Markdown, as the site shows it. Each body
    /// line is copied from past its indentation, so that every byte still maps to its place in
    /// the file; the marker stands as a paragraph of its own (a newline of the file copied
    /// again before and after it). A marker inside a fenced block, or indented as code, is
    /// text, and a body ends at the first line that is not blank and is indented less.
    fn markdown(&mut self, file: usize, range: Range<usize>) {
        let text = &self.files[file].text;
        // The lines as (start, end without the newline, end with it), read once.
        let mut lines = Vec::new();
        let mut k = range.start;
        while k < range.end {
            let end = line_end(text.as_bytes(), k, range.end);
            lines.push((k, end, (end + 1).min(range.end)));
            k = end + 1;
        }
        let mut depth = 0;
        let mut fence: Option<(u8, usize)> = None;
        for (start, end, next) in lines {
            let line = &self.files[file].text[start..end];
            if line.trim().is_empty() {
                // A blank line belongs to the body it stands in; its indentation is dropped.
                self.copy(file, if depth > 0 { end..next } else { start..next });
                continue;
            }
            let (levels, cut) = indentation(line, depth);
            if levels < depth {
                depth = levels;
                fence = None;
            }
            let rest = &line[cut..];
            match fence {
                Some((mark, len)) => {
                    if fence_of(rest).is_some_and(|(m, n, info)| m == mark && n >= len && info.trim().is_empty()) {
                        fence = None;
                    }
                }
                None if let Some((mark, len, _)) = fence_of(rest) => fence = Some((mark, len)),
                None if is_container_marker(rest) => {
                    // The marker is a paragraph of its own: a newline of the file before it
                    // (the one that ends the line above) where the text so far does not end
                    // a block, and its own newline again after it.
                    if start > 0 && !self.out.is_empty() && !self.out.ends_with("\n\n") {
                        self.copy(file, start - 1..start);
                    }
                    self.copy(file, start + cut..next);
                    if next > end {
                        self.copy(file, end..next);
                    }
                    depth += 1;
                    continue;
                }
                None => {}
            }
            self.copy(file, start + cut..next);
        }
    }

    /// Splices `range` of reStructuredText file `file`, whose includes resolve against `base`,
    /// its own folder.
    fn rst(&mut self, file: usize, range: Range<usize>, base: &str) {
        let mut last = range.start;
        let mut k = range.start;
        while k < range.end {
            let text = &self.files[file].text;
            let line = k..line_end(text.as_bytes(), k, range.end);
            let next = (line.end + 1).min(range.end);
            let Some(argument) = text[line.clone()].strip_prefix("..").map(str::trim_start).and_then(|r| r.strip_prefix("include::")) else {
                k = next.max(line.end);
                continue;
            };
            let argument = argument.trim().to_string();
            // The directive's options are the indented lines under it.
            let mut select = Select::default();
            let mut literal = None;
            let mut stop = next;
            while stop < range.end {
                let option_line = stop..line_end(text.as_bytes(), stop, range.end);
                let option = &text[option_line.clone()];
                if option.trim().is_empty() || !option.starts_with([' ', '\t']) {
                    break;
                }
                let option = option.trim();
                if let Some(rest) = option.strip_prefix(':')
                    && let Some((key, value)) = rest.split_once(':')
                {
                    let value = value.trim();
                    match key {
                        "start-line" => select.start_line = value.parse().ok(),
                        "end-line" => select.end_line = value.parse().ok(),
                        "start-after" => select.start_after = Some(value.to_string()),
                        "end-before" => select.end_before = Some(value.to_string()),
                        "literal" | "code" | "parser" => literal = Some(key.to_string()),
                        _ => {}
                    }
                }
                stop = (option_line.end + 1).min(range.end);
            }
            let command = line.start..stop;
            self.copy(file, last..command.start);
            last = command.end;
            k = command.end.max(next);
            if let Some(key) = literal {
                self.refuse(file, command, format!("shows the file with `:{key}:`, not as text of the article"));
                continue;
            }
            if argument.starts_with('<') {
                self.refuse(file, command, "names one of docutils' own files, which is not read".to_string());
                continue;
            }
            match join(base, &argument) {
                Ok(path) => {
                    let inner_base = folder_of(&path);
                    self.bring_in(file, command, Request { candidates: vec![path], base: inner_base, body_only: false, select, quiet: false }, Markup::ReStructuredText)
                }
                Err(why) => self.refuse(file, command, why),
            }
        }
        self.copy(file, last..range.end.max(last));
    }
}

/// What the LaTeX splicer does at a byte.
enum Step {
    /// Reads on from here.
    Past(usize),
    /// `\endinput`: reads on from the first, and stops at the second, the line's end.
    EndInput(usize, usize),
    /// A command that brings in a file, at these bytes.
    Input((Range<usize>, Result<Request, String>)),
}

/// `name` resolved against the root-relative folder `dir`: `.` and `..` folded in, refused
/// where it climbs out of the root or is absolute.
fn join(dir: &str, name: &str) -> Result<String, String> {
    if name.starts_with('/') || name.starts_with('\\') || name.get(1..2) == Some(":") {
        return Err(format!("names `{name}`, an absolute path: only files under the root are read"));
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!("names `{name}`, which climbs out of the root with `..`: only files under the root are read"));
                }
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err(format!("names `{name}`, which is no file"));
    }
    Ok(parts.join("/"))
}

/// The folder of a root-relative path, "" at the root.
pub(crate) fn folder_of(path: &str) -> String {
    path.rsplit_once('/').map_or(String::new(), |(d, _)| d.to_string())
}

/// Where the line holding byte `k` ends (its `\n`), or `end`.
/// How many of `depth` levels of indentation `line` has, each four spaces or a tab (after up
/// to three spaces), and the bytes they take.
fn indentation(line: &str, depth: usize) -> (usize, usize) {
    let bytes = line.as_bytes();
    let mut at = 0;
    for level in 0..depth {
        let spaces = bytes[at..].iter().take(4).take_while(|b| **b == b' ').count();
        if spaces == 4 {
            at += 4;
        } else if bytes.get(at + spaces) == Some(&b'\t') {
            at += spaces + 1;
        } else {
            return (level, at);
        }
    }
    (depth, at)
}

/// The fence a line opens or closes (its character, its length and the text after it), as
/// CommonMark writes one: up to three spaces, then three or more backticks or tildes.
fn fence_of(line: &str) -> Option<(u8, usize, &str)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let mark = *trimmed.as_bytes().first().filter(|b| matches!(b, b'`' | b'~'))?;
    let len = trimmed.bytes().take_while(|b| *b == mark).count();
    (len >= 3).then(|| (mark, len, &trimmed[len..]))
}

/// Whether `line`, at its container's own indentation, opens a Python-Markdown container: an
/// admonition `!!! type` or `!!! type "Title"`, a collapsible block `??? type` or `???+ type`,
/// or a content tab `=== "Tab"` (`===!` and `===+` too). A tab needs its quoted title, so that
/// a setext heading's `===` underline stays one.
fn is_container_marker(line: &str) -> bool {
    let after = |mark: &str| line.strip_prefix(mark).filter(|rest| rest.starts_with(' '));
    let typed = |rest: &str| rest.trim_start().starts_with(|c: char| c.is_alphanumeric() || c == '"');
    if let Some(rest) = after("!!!").or_else(|| after("???+")).or_else(|| after("???")) {
        return typed(rest);
    }
    ["===", "===!", "===+"].iter().any(|mark| after(mark).is_some_and(|rest| rest.trim_start().starts_with('"')))
}

fn line_end(bytes: &[u8], k: usize, end: usize) -> usize {
    (k..end).find(|&j| bytes[j] == b'\n').unwrap_or(end)
}

/// Where the name of TeX's own `\input intro` that starts at `from` ends: at a space, a brace,
/// a command or a comment.
pub(super) fn bare_name_end(bytes: &[u8], from: usize, end: usize) -> usize {
    (from..end).find(|&j| matches!(bytes[j], b' ' | b'\t' | b'\r' | b'\n' | b'}' | b'{' | b'\\' | b'%')).unwrap_or(end)
}

/// Past spaces, tabs and line ends: TeX skips them between a command and its argument.
fn skip_spaces(bytes: &[u8], k: usize, end: usize) -> usize {
    (k..end).find(|&j| !matches!(bytes[j], b' ' | b'\t' | b'\r' | b'\n')).unwrap_or(end)
}

/// The inside of the braced group at `k`, and where it ends.
fn braced(bytes: &[u8], k: usize, end: usize) -> Option<(Range<usize>, usize)> {
    if bytes.get(k) != Some(&b'{') || k >= end {
        return None;
    }
    let mut depth = 0usize;
    for j in k..end {
        match bytes[j] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((k + 1..j, j + 1));
                }
            }
            b'\n' if bytes.get(j + 1) == Some(&b'\n') => return None,
            _ => {}
        }
    }
    None
}

/// The environments whose text LaTeX does not read as markup, so that an `\input` shown in a
/// listing is shown, not read.
const VERBATIM: &[&str] = &["verbatim", "verbatim*", "Verbatim", "BVerbatim", "lstlisting", "minted", "comment", "filecontents", "filecontents*", "alltt"];

/// Past the verbatim environment whose `\begin` ends at `k`, where it is one.
fn skip_verbatim(text: &str, k: usize, end: usize) -> Option<usize> {
    let (name, after) = braced(text.as_bytes(), k, end)?;
    let name = &text[name];
    if !VERBATIM.contains(&name) {
        return None;
    }
    let close = format!("\\end{{{name}}}");
    Some(text[after..end].find(&close).map_or(end, |i| after + i + close.len()))
}

/// Past inline code (`\verb|x|`, `\lstinline{x}`) whose command name ends at `k`.
fn skip_inline_code(bytes: &[u8], name: &str, k: usize, end: usize) -> usize {
    let mut j = k;
    if name == "verb" && bytes.get(j) == Some(&b'*') {
        j += 1;
    }
    if name != "verb" {
        // Options, and for `\mintinline` the language, come before the code.
        if bytes.get(j) == Some(&b'[') {
            j = (j..end).find(|&i| bytes[i] == b']').map_or(end, |i| i + 1);
        }
        if name == "mintinline" {
            j = braced(bytes, j, end).map_or(j, |(_, n)| n);
        }
    }
    let Some(&open) = bytes.get(j).filter(|_| j < end) else { return end };
    let close = if open == b'{' { b'}' } else { open };
    (j + 1..end).find(|&i| bytes[i] == close || bytes[i] == b'\n').map_or(end, |i| i + 1)
}

/// The files `\includeonly` names in `text`, outside comments.
fn include_only(text: &str) -> Option<Vec<String>> {
    let mut found = None;
    for line in text.lines() {
        let code = comment_start(line).map_or(line, |i| &line[..i]);
        if let Some(at) = code.find("\\includeonly") {
            let bytes = code.as_bytes();
            let from = skip_spaces(bytes, at + "\\includeonly".len(), bytes.len());
            if let Some((names, _)) = braced(bytes, from, bytes.len()) {
                found = Some(code[names].split(',').map(|n| n.trim().trim_end_matches(".tex").to_string()).filter(|n| !n.is_empty()).collect());
            }
        }
    }
    found
}

/// The body of a document (between `\begin{document}` and `\end{document}`), where `text`
/// has one outside comments.
fn document_body(text: &str) -> Option<Range<usize>> {
    let find = |needle: &str, from: usize| {
        let mut k = from;
        while let Some(i) = text[k..].find(needle) {
            let at = k + i;
            let line_start = text[..at].rfind('\n').map_or(0, |j| j + 1);
            if comment_start(&text[line_start..at]).is_none() {
                return Some(at);
            }
            k = at + needle.len();
        }
        None
    };
    let begin = find("\\begin{document}", 0)? + "\\begin{document}".len();
    let end = find("\\end{document}", begin).unwrap_or(text.len());
    Some(begin..end)
}

/// The part of an included reStructuredText file its options select: lines
/// `start-line..end-line` (counted from 0, negative from the end, as Python slices), then the
/// text after the first `start-after` and before the first `end-before` that follows it.
fn selected(text: &str, select: &Select) -> Option<Range<usize>> {
    if select.start_line.is_none() && select.end_line.is_none() && select.start_after.is_none() && select.end_before.is_none() {
        return None;
    }
    let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).filter(|&i| i < text.len()).collect();
    let n = starts.len() as i64;
    let index = |v: i64| if v < 0 { (n + v).max(0) } else { v.min(n) } as usize;
    let at = |line: usize| starts.get(line).copied().unwrap_or(text.len());
    let mut start = select.start_line.map_or(0, |v| at(index(v)));
    let mut end = select.end_line.map_or(text.len(), |v| at(index(v))).max(start);
    if let Some(after) = &select.start_after {
        start = text[start..end].find(after.as_str()).map_or(end, |i| start + i + after.len());
    }
    if let Some(before) = &select.end_before {
        end = text[start..end].find(before.as_str()).map_or(end, |i| start + i);
    }
    Some(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Splices `main` (at `path`) over the files of `tree`, as the root holds them.
    fn spliced(path: &str, main: &str, markup: Markup, tree: &[(&str, &str)]) -> Spliced {
        let files: HashMap<String, String> = tree.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        splice(
            path,
            main,
            markup,
            &folder_of(path),
            Some(&|rel| match files.get(rel) {
                Some(t) if t == "REFUSE" => Load::Refused(format!("path `{rel}` leads outside the repository root through a symbolic link")),
                Some(t) => Load::Read(t.as_bytes().to_vec()),
                None => Load::Missing,
            }),
        )
    }

    fn latex(main: &str, tree: &[(&str, &str)]) -> Spliced {
        spliced("paper/main.tex", main, Markup::Latex, tree)
    }

    /// The file and byte in it of the first byte of `needle` in the spliced text.
    fn origin(s: &Spliced, needle: &str) -> (String, usize) {
        let at = s.text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in {:?}", s.text));
        let (file, offset) = locate(&s.segments, at);
        (s.files[file].path.clone(), offset)
    }

    #[test]
    fn an_input_is_spliced_in_and_each_byte_maps_to_its_file() {
        let s = latex("Intro 1 ms.\n\\input{sections/eval}\nEnd 3 ms.\n", &[("paper/sections/eval.tex", "Eval 2 ms.\n")]);
        assert_eq!(s.text, "Intro 1 ms.\nEval 2 ms.\n\nEnd 3 ms.\n");
        assert_eq!(origin(&s, "Intro"), ("paper/main.tex".to_string(), 0));
        assert_eq!(origin(&s, "Eval"), ("paper/sections/eval.tex".to_string(), 0));
        assert_eq!(origin(&s, "2 ms"), ("paper/sections/eval.tex".to_string(), 5));
        // After the input, the main file resumes past the command.
        assert_eq!(origin(&s, "End"), ("paper/main.tex".to_string(), "Intro 1 ms.\n\\input{sections/eval}\n".len()));
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        assert_eq!(s.files.len(), 2);
    }

    #[test]
    fn latex_tries_the_name_with_tex_first_and_include_only_that() {
        let tree = [("paper/a.tex", "A.\n"), ("paper/a", "bare A.\n"), ("paper/b", "bare B.\n"), ("paper/c.tex", "C.\n")];
        let s = latex("\\input{a} \\input{b} \\include{b} \\input c \\input{a.tex}\n", &tree);
        assert!(s.text.starts_with("A.\n bare B.\n \\include{b} C.\n A.\n"), "{:?}", s.text);
        assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
        assert!(s.warnings[0].1.contains("`paper/b.tex`, which does not exist under the root"), "{:?}", s.warnings);
        assert_eq!(&s.text[s.warnings[0].0.clone()], "\\include{b}");
    }

    #[test]
    fn commands_in_comments_verbatim_and_inline_code_bring_nothing_in() {
        let main = "% \\input{x}\n50\\% \\input{x}\n\\begin{verbatim}\n\\input{x}\n\\end{verbatim}\n\\verb|\\input{x}| \\lstinline{\\input{x}}\n";
        let s = latex(main, &[("paper/x.tex", "X")]);
        assert_eq!(s.text.matches('X').count(), 1, "{:?}", s.text);
        assert!(s.text.contains("50\\% X"), "{:?}", s.text);
    }

    #[test]
    fn what_cannot_be_read_stays_and_is_warned_of_with_why() {
        let main = "\\input{gone}\n\\input{../../etc/passwd}\n\\input{/etc/passwd}\n\\newcommand{\\inc}[1]{\\input{#1}}\n\\input{\\dir/x}\n\\input{link}\n";
        let s = latex(main, &[("paper/link.tex", "REFUSE")]);
        assert_eq!(s.text, main, "nothing is spliced in");
        let why: Vec<&str> = s.warnings.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(why.len(), 6, "{why:?}");
        assert!(why[0].contains("`paper/gone.tex` or `paper/gone`, which does not exist"), "{why:?}");
        assert!(why[1].contains("climbs out of the root"), "{why:?}");
        assert!(why[2].contains("an absolute path"), "{why:?}");
        assert!(why[3].contains("a macro's argument"), "{why:?}");
        assert!(why[4].contains("through a macro"), "{why:?}");
        assert!(why[5].contains("outside the repository root through a symbolic link"), "{why:?}");
        for (span, w) in &s.warnings {
            assert!(w.starts_with(&format!("not read: `{}`", &s.text[span.clone()])), "{w}");
        }
    }

    #[test]
    fn a_file_that_brings_itself_in_is_read_once_and_said() {
        let s = latex("M \\input{a}\n", &[("paper/a.tex", "A \\input{b}\n"), ("paper/b.tex", "B \\input{a} \\input{main}\n")]);
        assert_eq!(s.text, "M A B \\input{a} \\input{main}\n\n\n");
        assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
        assert!(s.warnings.iter().all(|(_, w)| w.contains("already being read")), "{:?}", s.warnings);
    }

    #[test]
    fn a_package_of_the_papers_own_is_spliced_in_and_others_go_unsaid() {
        let tree = [("paper/macros.sty", "\\newcommand{\\sys}{Foo}\\input twocolumn.sty"), ("paper/inc/terms.sty", "\\newcommand{\\t}{T}")];
        let s = latex("\\usepackage{amsmath}\\usepackage[x]{macros}\\RequirePackage{inc/terms}\\usepackage{a,macros}\\usepackage{gone/x}\n", &tree);
        assert_eq!(s.text, "\\usepackage{amsmath}\\newcommand{\\sys}{Foo}\\input twocolumn.sty\\newcommand{\\t}{T}\\usepackage{a,macros}\\usepackage{gone/x}\n");
        assert!(s.warnings.is_empty(), "a package the repository does not hold is the installation's: {:?}", s.warnings);
    }

    #[test]
    fn ltxtable_brings_in_its_longtable() {
        let s = latex("\\LTXtable{\\textwidth}{tables/t.tex}\n", &[("paper/tables/t.tex", "\\begin{longtable}{lr}A & 1 \\\\\\end{longtable}")]);
        assert_eq!(s.text, "\\begin{longtable}{lr}A & 1 \\\\\\end{longtable}\n");
    }

    #[test]
    fn a_file_brought_in_twice_is_one_file_read_twice() {
        let s = latex("\\input{t} and \\input{t}\n", &[("paper/t.tex", "T")]);
        assert_eq!(s.text, "T and T\n");
        assert_eq!(s.files.len(), 2);
    }

    #[test]
    fn inputs_resolve_against_the_main_files_folder_and_climb_within_the_root() {
        // `\input` in `sections/a.tex` names its file from the main file's folder, as LaTeX
        // does; `..` may leave that folder while staying under the root.
        let tree = [("paper/sections/a.tex", "A \\input{sections/b}"), ("paper/sections/b.tex", "B"), ("shared/macros.tex", "M")];
        let s = latex("\\input{sections/a} \\input{../shared/macros}\n", &tree);
        assert_eq!(s.text, "A B M\n");
    }

    #[test]
    fn import_reads_inputs_in_its_folder_and_subimport_relative_to_the_importer() {
        let tree = [("paper/ch/a.tex", "A \\input{b} \\subimport{sub/}{c}"), ("paper/ch/b.tex", "B"), ("paper/ch/sub/c.tex", "C \\input{d}"), ("paper/ch/sub/d.tex", "D")];
        let s = latex("\\import{ch/}{a}\n", &tree);
        assert_eq!(s.text, "A B C D\n");
    }

    #[test]
    fn includeonly_keeps_other_includes_off_the_page() {
        let tree = [("paper/one.tex", "One."), ("paper/two.tex", "Two.")];
        let s = latex("\\includeonly{two}\n\\begin{document}\n\\include{one}\n\\include{two}\n", &tree);
        assert!(!s.text.contains("One.") && s.text.contains("Two."), "{:?}", s.text);
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    }

    #[test]
    fn a_subfile_gives_its_body_and_endinput_ends_a_file() {
        let sub = "\\documentclass[../main]{subfiles}\n\\begin{document}\nBody 4 ms.\n\\end{document}\n";
        let tree = [("paper/s.tex", sub), ("paper/e.tex", "Kept. \\endinput same line\nDropped 9 ms.\n")];
        let s = latex("\\subfile{s}\n\\input{e}\n", &tree);
        assert!(s.text.contains("\nBody 4 ms.\n") && !s.text.contains("documentclass"), "{:?}", s.text);
        assert!(s.text.contains("Kept. \\endinput same line") && !s.text.contains("Dropped"), "{:?}", s.text);
    }

    #[test]
    fn nesting_is_bounded() {
        let tree: Vec<(String, String)> = (0..40).map(|k| (format!("paper/f{k}.tex"), format!("{k} \\input{{f{}}}", k + 1))).collect();
        let refs: Vec<(&str, &str)> = tree.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let s = latex("\\input{f0}", &refs);
        assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
        assert!(s.warnings[0].1.contains("nested more than 16 files deep"), "{:?}", s.warnings);
    }

    #[test]
    fn rst_includes_resolve_against_their_own_folder_and_select_by_options() {
        let main = "Title\n=====\n\nBefore 1 ms.\n\n.. include:: parts/results.rst\n   :start-after: .. start\n   :end-before: .. end\n\nAfter 3 ms.\n";
        let results = "Ignored 7 ms.\n\n.. start\n\nKept 2 ms.\n\n.. include:: more.rst\n\n.. end\n\nIgnored too.\n";
        let tree = [("docs/parts/results.rst", results), ("docs/parts/more.rst", "More 5 ms.\n")];
        let s = spliced("docs/index.rst", main, Markup::ReStructuredText, &tree);
        assert!(s.text.contains("Kept 2 ms.") && s.text.contains("More 5 ms.") && !s.text.contains("Ignored"), "{:?}", s.text);
        assert!(s.text.contains("Before 1 ms.") && s.text.contains("After 3 ms."), "{:?}", s.text);
        assert!(!s.text.contains(":start-after:"), "the directive's options go with it: {:?}", s.text);
        assert_eq!(origin(&s, "More").0, "docs/parts/more.rst");
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    }

    #[test]
    fn rst_literal_includes_and_docutils_own_files_are_not_spliced() {
        let main = ".. include:: data.txt\n   :literal:\n\n.. include:: <isonum.txt>\n\nText.\n";
        let s = spliced("index.rst", main, Markup::ReStructuredText, &[("data.txt", "1 2 3")]);
        assert_eq!(s.text, main);
        assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
    }

    #[test]
    fn rst_line_selection_counts_from_zero_and_from_the_end() {
        let text = "l0\nl1\nl2\nl3\n";
        let pick = |a, b| {
            let r = selected(text, &Select { start_line: a, end_line: b, ..Select::default() }).unwrap();
            text[r].to_string()
        };
        assert_eq!(pick(Some(1), Some(3)), "l1\nl2\n");
        assert_eq!(pick(Some(-2), None), "l2\nl3\n");
        assert_eq!(pick(None, Some(-3)), "l0\n");
        assert_eq!(pick(Some(9), None), "");
    }

    #[test]
    fn markup_that_brings_in_nothing_is_the_file_itself() {
        let s = spliced("a.md", "\\input{x}\n.. include:: y\n", Markup::Markdown, &[("x.tex", "X"), ("y", "Y")]);
        assert_eq!(s.text, "\\input{x}\n.. include:: y\n");
        assert_eq!(s.segments, vec![Segment { at: 0, file: 0, offset: 0 }]);
    }
}
