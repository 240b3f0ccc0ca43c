//! The article model: a Markdown file read into sections and sentences, each with its byte
//! span, line and fingerprint, and the numbers it quotes. This module owns what counts as prose
//! and where sentences end; it never looks at a registry.
//!
//! Prose is the text of paragraphs, list items, table cells, block quotes and image captions
//! (alt text), and the text of HTML, which [`html`] reads: an HTML table's `<td>` and `<th>`
//! cells as table cells, other HTML text as paragraphs, `<h1>`–`<h6>` as headings. Headings
//! name sections and are not sentences. Code blocks (and `<pre>`) are not prose. Inline code
//! (and `<code>`) and link text stay in the sentence as they read, but a sentence never ends
//! inside inline code, and no number is taken from inside it; a bare integer in link text
//! (`[Table 2](#t2)`) is an ordinal that names the target, not a number. What a reader of the
//! rendered page never sees is not read: HTML comments, scripts, styles and attribute values.
//!
//! A table cell is one sentence, however many periods it holds, and knows its place: its
//! table, row and column, the text of its row's first cell and of its column's header. A unit
//! in parentheses or square brackets at the end of the column's header (`TTFT (seconds)`,
//! hyperfine's `Mean [ms]`) applies to the cell's
//! numbers that state none; failing that, so does one at the end of an enclosing heading
//! (`### Time to First Token (seconds)`), except in the first column, whose cells name rows.
//! In a cell, inline code that is one number as a whole (`` `670.99 ms` ``) is read as that
//! number. An HTML table's header may span several rows and its cells several rows or columns;
//! [`html`] says how their labels are made.
//!
//! HTML that is not well formed is read as far as it goes; what cannot be read is a
//! [`Warning`] located in the file, which the audit reports.

mod asv;
mod benchmarkdotnet;
mod console;
mod divan;
mod html;
mod inputs;
mod latex;
mod libtest;
mod nccl;
mod nsight;
pub mod numbers;
mod rst;
mod serving;

pub(crate) use html::{Token as HtmlToken, tokenize as tokenize_html};
pub(crate) use inputs::{Load, folder_of};
pub use inputs::SourceFile;

use std::collections::BTreeMap;
use std::ops::Range;

use crate::hash::sha256_hex;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use sha2::{Digest, Sha256};

use numbers::{Number, Scale, Shape, Unit};

/// A parsed article.
#[derive(Debug, Clone)]
pub struct Article {
    /// Root-relative path, for reports.
    pub path: String,
    /// The exact file text, with the text of every file it brings in (a LaTeX `\input`, a
    /// reStructuredText `include`) in place of the command that brings it in.
    pub source: String,
    /// SHA-256 of the manuscript, lowercase hex: the file's own where it brings in nothing
    /// (a Markdown file's `source` holds its MkDocs containers unindented), else of `source`'s
    /// bytes.
    pub sha256: String,
    /// The files read: this one first, then each it brings in, once each.
    pub files: Vec<SourceFile>,
    /// Which file each run of `source` comes from.
    segments: Vec<inputs::Segment>,
    pub sentences: Vec<Sentence>,
    /// Words of the prose a reader reads: sentences and headings, split on whitespace.
    pub word_count: usize,
    /// Where the article's images point, as written (`figures/softmax.svg`), in order.
    pub images: Vec<String>,
    /// What could not be read as written (HTML that is not well formed), in the order found.
    pub warnings: Vec<Warning>,
    /// The markup the article was read as.
    pub syntax: Syntax,
    /// The names the article gives its tables, by table index: a LaTeX `\label` in the float
    /// around a table or in a longtable, an rst table directive's `:name:`, the `#id` in the
    /// attributes of a pipe table's pandoc caption (`: Latency {#tbl-latency}`, as Quarto and
    /// pandoc-crossref write it) or the bookdown label its caption begins with
    /// (`Table: (\#tab:latency)`), the `#id` of a Quarto div opened directly before it, or an
    /// HTML `<table>`'s `id`. A registry's cell may name its table by one.
    pub table_names: BTreeMap<usize, String>,
}

/// The markup an article is written in: Markdown, reStructuredText (Sphinx's and docutils'
/// documents, read by [`rst`]), or LaTeX (papers, reports and theses, read by [`latex`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Markdown,
    ReStructuredText,
    Latex,
}

impl Syntax {
    /// The syntax a file's extension names: `.rst` and `.rest` reStructuredText, `.tex`,
    /// `.latex` and `.ltx` LaTeX, `.md`, `.markdown`, `.mdown`, `.mkd`, Quarto's `.qmd` and R
    /// Markdown's `.rmd` Markdown; `None` for
    /// any other, which a caller settles (a manuscript as Markdown, a draft as the manuscript
    /// it stands in for).
    pub fn of_path(path: &str) -> Option<Syntax> {
        let extension = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "rst" | "rest" => Some(Syntax::ReStructuredText),
            "tex" | "latex" | "ltx" => Some(Syntax::Latex),
            "md" | "markdown" | "mdown" | "mkd" | "qmd" | "rmd" => Some(Syntax::Markdown),
            _ => None,
        }
    }
}

/// A problem with the article's text that did not stop it being read: HTML that is not well
/// formed, read as far as it goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// Byte span in the article source.
    pub span: Range<usize>,
    /// The file that holds it: the article's, or one it brings in.
    pub file: String,
    /// 1-based line and column (in characters) of the first byte, in `file`.
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// One sentence of prose.
#[derive(Debug, Clone)]
pub struct Sentence {
    pub index: usize,
    /// The sentence as it reads: inline code without backticks, links as their text.
    pub text: String,
    /// The heading path, outermost first.
    pub section: Vec<String>,
    /// Byte span in the article source.
    pub span: Range<usize>,
    /// The file that holds its first byte: the article's, or one it brings in.
    pub file: String,
    /// 1-based line and column of the first byte, in `file`.
    pub line: usize,
    pub col: usize,
    /// SHA-256 of the whitespace-normalised text.
    pub fingerprint: String,
    pub numbers: Vec<Number>,
    /// Where the sentence stands in a table, when it is a table cell.
    pub cell: Option<Cell>,
    /// Source offset of each byte of `text`, and one past the end.
    offsets: Vec<usize>,
}

/// A table cell's place.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Which table of the article, from 0.
    pub table: usize,
    /// The row, 0 being the header row.
    pub row: usize,
    /// The column, from 0.
    pub column: usize,
    /// The text of the row's first cell; in JMH's table pasted as pipes, the benchmark with its
    /// parameters, as the console table names the row (`console::JmhPipe`).
    pub row_label: String,
    /// The text of the column's header cell.
    pub column_label: String,
}

impl Sentence {
    /// The source span of a span of `text`.
    pub fn source_span(&self, span: &Range<usize>) -> Range<usize> {
        let start = self.offsets[span.start.min(self.offsets.len() - 1)];
        let end_idx = span.end.min(self.offsets.len() - 1);
        let end = if span.end > span.start { self.offsets[end_idx - 1] + 1 } else { start };
        start..end.max(start)
    }

    /// Where it stands, for a reader of `article_path`: `line 12` in that file, and
    /// `sections/eval.tex:12` in a file it brings in.
    pub fn place(&self, article_path: &str) -> String {
        place(&self.file, self.line, article_path)
    }

    /// The section path joined for display: `CUDA Graphs › Timing`.
    pub fn section_title(&self) -> String {
        self.section.join(" › ")
    }

    /// What the sentence names, where it is a table cell that names other cells rather than
    /// stating a value of its own: a header cell names its column, and a body cell that makes
    /// up its row's label names its row: the first cell, or in an HTML table whose first cells
    /// span rows, one of the cells that come first and whose texts the label joins. A value
    /// that merely reads as the row's name (`| 1024 | 1024 |`) names nothing.
    pub fn names(&self) -> Option<Names> {
        let cell = self.cell.as_ref()?;
        if cell.row == 0 {
            return Some(Names::Column);
        }
        let parts: Vec<&str> = label_parts(&cell.row_label).collect();
        let same = |part: &&str| crate::registry::binding::same_label(part, &self.text);
        let names = match cell.column {
            // The first cell is the row's own part of its label, after any a row across
            // the table above it gives (`A100 › gemm`).
            0 => parts.iter().any(same),
            k => parts.len() > 1 && k < parts.len() && parts[1..].iter().any(same),
        };
        names.then_some(Names::Row)
    }
}

/// Where line `line` of `file` stands, for a reader of `article_path`: `line 12` in that file,
/// `sections/eval.tex:12` in a file it brings in.
pub fn place(file: &str, line: usize, article_path: &str) -> String {
    if file == article_path { format!("line {line}") } else { format!("{file}:{line}") }
}

/// What a table cell names: see [`Sentence::names`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    Row,
    Column,
}

/// The parts of a row's or column's label: an HTML table joins the texts of the cells that make
/// one up with ` › `.
pub fn label_parts(label: &str) -> impl Iterator<Item = &str> {
    label.split(" › ")
}

/// Why an article could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ArticleError {
    #[error("{path} is not UTF-8: invalid byte at line {line}, column {col}")]
    NotUtf8 { path: String, line: usize, col: usize },
}

impl Article {
    /// Parses `bytes` read from `path`, in the syntax its extension names, Markdown where it
    /// names none, reading no other file.
    pub fn parse(path: &str, bytes: &[u8]) -> Result<Article, ArticleError> {
        Article::parse_as(path, bytes, Syntax::of_path(path).unwrap_or(Syntax::Markdown))
    }

    /// Parses `bytes` read from `path` as `syntax`, reading no other file: a file it brings in
    /// is warned of as not read, and a package (`.sty`) taken for the TeX installation's, as
    /// where the repository holds none.
    pub fn parse_as(path: &str, bytes: &[u8], syntax: Syntax) -> Result<Article, ArticleError> {
        Article::read_with(path, bytes, syntax, &inputs::folder_of(path), None)
    }

    /// Parses `bytes` read from `path` as `syntax`, with each file it brings in resolved
    /// against the root-relative folder `dir`, read by `load` (given a root-relative path) and
    /// spliced in where it is brought in.
    pub(crate) fn read(path: &str, bytes: &[u8], syntax: Syntax, dir: &str, load: &dyn Fn(&str) -> Load) -> Result<Article, ArticleError> {
        Article::read_with(path, bytes, syntax, dir, Some(load))
    }

    fn read_with(path: &str, bytes: &[u8], syntax: Syntax, dir: &str, load: Option<&dyn Fn(&str) -> Load>) -> Result<Article, ArticleError> {
        let text = match std::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                let good = &bytes[..e.valid_up_to()];
                let line = good.iter().filter(|b| **b == b'\n').count() + 1;
                let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
                let col = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
                return Err(ArticleError::NotUtf8 { path: path.to_string(), line, col });
            }
        };
        let markup = match syntax {
            Syntax::Latex => inputs::Markup::Latex,
            Syntax::ReStructuredText => inputs::Markup::ReStructuredText,
            Syntax::Markdown => inputs::Markup::Markdown,
        };
        let spliced = inputs::splice(path, text, markup, dir, load);
        let source = spliced.text;
        // A manuscript of one file is that file, whatever its reading unindents.
        let sha256 = match spliced.files.as_slice() {
            [only] => only.sha256.clone(),
            _ => sha256_hex(source.as_bytes()),
        };
        let (blocks, images, mut warned) = match syntax {
            Syntax::Markdown => prose_blocks(&source),
            Syntax::ReStructuredText => rst::prose_blocks(&source),
            Syntax::Latex => latex::prose_blocks(&source),
        };
        warned.extend(spliced.warnings);
        warned.sort_by_key(|(span, _)| span.start);
        let mut sentences = Vec::new();
        let mut word_count = 0;
        let mut table_names = BTreeMap::new();
        for block in &blocks {
            if let (Some(cell), Some(name)) = (&block.cell, &block.table_name) {
                table_names.entry(cell.table).or_insert_with(|| name.clone());
            }
            if !block.console {
                word_count += block.text.split_whitespace().count();
            }
            if block.is_heading {
                continue;
            }
            // Code spans and sentences both run in order through the block, so one cursor
            // walks the spans once instead of every sentence scanning all of them.
            let mut first_code = 0;
            // A cell is one sentence: its text is what a row and a column name.
            let ranges = match block.cell {
                Some(_) => {
                    let mut whole = Vec::new();
                    push_trimmed(&mut whole, &block.text, 0..block.text.len());
                    whole
                }
                None => split_at_breaks(&block.text, &block.code, &block.breaks),
            };
            for range in ranges {
                let text = block.text[range.clone()].to_string();
                let offsets: Vec<usize> = block.offsets[range.start..=range.end].to_vec();
                while first_code < block.code.len() && block.code[first_code].end <= range.start {
                    first_code += 1;
                }
                let mut code: Vec<Range<usize>> = block.code[first_code..]
                    .iter()
                    .take_while(|c| c.start < range.end)
                    .filter(|c| c.start < range.end && range.start < c.end)
                    .map(|c| c.start.saturating_sub(range.start)..(c.end - range.start).min(text.len()))
                    .collect();
                // Tables set values in code for alignment (`670.99 ms`): in a cell, code that is
                // one number as a whole is that number, while code holding anything else (a
                // command, a name with digits) still gives none. A bound in code (`> 500
                // msgs/s`) is a test's assertion as its source writes it, not a value the
                // table reports, and gives none either.
                if block.cell.is_some() {
                    code.retain(|c| !numbers::parse_one(&text[c.clone()]).is_ok_and(|n| n.bound.is_none()));
                }
                let mut numbers = numbers::extract(&numbers::with_group_marks(&text, |i| source.get(offsets[i]..).is_some_and(numbers::groups_thousands)), &code);
                let links: Vec<Range<usize>> = block
                    .links
                    .iter()
                    .filter(|l| l.start < range.end && range.start < l.end)
                    .map(|l| l.start.saturating_sub(range.start)..(l.end.min(range.end) - range.start))
                    .collect();
                numbers.retain(|n| !(is_ordinal(n) && links.iter().any(|l| l.start <= n.span.start && n.span.end <= l.end)));
                // A console table's ratio to its column's best (pytest-benchmark's `(1.28)`) is a
                // multiple, not a quantity in the column's unit.
                if let Some(at) = block.ratio_at {
                    for n in numbers.iter_mut().filter(|n| n.unit.is_none() && range.start + n.span.start >= at) {
                        n.unit = Some(Unit::Times);
                    }
                }
                if let Some(unit) = &block.unit {
                    for n in numbers.iter_mut().filter(|n| n.unit.is_none() && !n.is_dims()) {
                        n.unit = Some(unit.clone());
                    }
                }
                if block.binary_sizes {
                    for n in &mut numbers {
                        n.unit = n.unit.take().map(Unit::binary);
                    }
                }
                if block.per_second {
                    for n in &mut numbers {
                        n.unit = n.unit.take().map(Unit::per_second);
                    }
                }
                let mut sentence = Sentence {
                    index: sentences.len(),
                    fingerprint: fingerprint(&text),
                    text,
                    section: block.section.clone(),
                    span: 0..0,
                    file: String::new(),
                    line: 0,
                    col: 0,
                    numbers,
                    cell: block.cell.clone(),
                    offsets,
                };
                // Text the parser decoded (an entity in an HTML cell) maps every byte to where
                // it began, and a span one byte past that may end inside a character: the span
                // is widened to whole characters, as every report cuts the source at it.
                let span = sentence.source_span(&(0..sentence.text.len()));
                let (mut start, mut end) = (span.start.min(source.len()), span.end.min(source.len()));
                while !source.is_char_boundary(start) {
                    start -= 1;
                }
                while !source.is_char_boundary(end) {
                    end += 1;
                }
                sentence.span = start..end;
                sentences.push(sentence);
            }
        }
        let mut article =
            Article { path: path.to_string(), source, sha256, files: spliced.files, segments: spliced.segments, sentences: Vec::new(), word_count, images, warnings: Vec::new(), syntax, table_names };
        // The places of sentences and warnings together, in one sweep of each file.
        let starts: Vec<usize> = sentences.iter().map(|s: &Sentence| s.offsets[0]).chain(warned.iter().map(|(span, _)| span.start)).collect();
        let mut places = article.places_of(&starts).into_iter().map(|(f, l, c)| (f.to_string(), l, c));
        for (sentence, (file, line, col)) in sentences.iter_mut().zip(places.by_ref()) {
            sentence.file = file;
            sentence.line = line;
            sentence.col = col;
        }
        article.warnings = warned.into_iter().zip(places).map(|((span, message), (file, line, col))| Warning { span, file, line, col, message }).collect();
        article.sentences = sentences;
        Ok(article)
    }

    /// The file, line and column (1-based, in characters) of each byte offset of `source`, in
    /// the order given: the place in the file it was read from, which for a file brought in is
    /// that file, not the article's. One sweep of each file serves every offset.
    pub(crate) fn places_of(&self, offsets: &[usize]) -> Vec<(&str, usize, usize)> {
        let located: Vec<(usize, usize)> = offsets.iter().map(|&o| inputs::locate(&self.segments, o.min(self.source.len()))).collect();
        let mut by_file: Vec<Vec<usize>> = vec![Vec::new(); self.files.len()];
        for (i, (file, _)) in located.iter().enumerate() {
            by_file[*file].push(i);
        }
        let mut out = vec![("", 1, 1); offsets.len()];
        for (file, mine) in self.files.iter().zip(by_file) {
            let at: Vec<usize> = mine.iter().map(|&i| located[i].1).collect();
            for (i, (line, col)) in mine.into_iter().zip(crate::diagnostic::line_cols(&file.text, &at)) {
                out[i] = (file.path.as_str(), line, col);
            }
        }
        out
    }
}

/// The fingerprint of a sentence: SHA-256 of its text with runs of whitespace made one space.
/// The words are hashed as they are found, without building the normal form: an article of
/// 200,000 sentences hashes each once.
pub fn fingerprint(text: &str) -> String {
    let mut hasher = Sha256::new();
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            hasher.update(b" ");
        }
        hasher.update(word.as_bytes());
    }
    hex(&hasher.finalize())
}

/// Lowercase hex, written digit by digit rather than formatted byte by byte.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// A bare integer without a unit: in link text, an ordinal (`Table 2`) rather than a quantity.
fn is_ordinal(n: &Number) -> bool {
    n.shape == Shape::Single && n.decimals == 0 && n.scale == Scale::None && n.unit.is_none()
}

/// A run of prose between block boundaries, with a source offset for every byte.
struct Block {
    text: String,
    offsets: Vec<usize>,
    code: Vec<Range<usize>>,
    /// Link text, and where the links still open began.
    links: Vec<Range<usize>>,
    open_links: Vec<usize>,
    section: Vec<String>,
    is_heading: bool,
    /// The block's place, when it is a table cell.
    cell: Option<Cell>,
    /// The unit its header or heading gives the numbers of a table cell.
    unit: Option<Unit>,
    /// A cell of a harness's console table in a code block: its numbers are read, but its
    /// words are not prose a reader reads, so the word count leaves them out.
    console: bool,
    /// Where, in `text`, a console cell's ratio to its column's best begins (`(1.28)` after
    /// pytest-benchmark's value): its number is a multiple, `×`, whatever unit the column has.
    ratio_at: Option<usize>,
    /// Whether the block's `KB`, `MB` and `GB` are 1024-based: a cell of BenchmarkDotNet's
    /// table, whose sizes are binary whatever their symbol.
    binary_sizes: bool,
    /// Whether the block's sizes are amounts a second: a cell of wrk's `Transfer/sec`.
    per_second: bool,
    /// For a Markdown table cell opened inside an HTML table cell, that HTML cell: the Markdown
    /// cell keeps its own text rather than giving it to the HTML cell around it.
    in_html_cell: Option<usize>,
    /// The text as the parser gave it, entities decoded but whitespace as written: a name in
    /// BenchmarkDotNet's table is the case's name, whose runs of spaces are part of it
    /// (`'Command  Send'`, a description with two spaces), and `text` makes them one.
    verbatim: String,
    /// Where in `text` a hard line break stands (Markdown's two trailing spaces or backslash):
    /// a sentence ends there, as a reader sees each line of `Model: 7B  ⏎ Context: 4096` apart.
    breaks: Vec<usize>,
    /// For a table cell, the name the article gives its table (see `Article::table_names`).
    table_name: Option<String>,
}

impl Block {
    fn new(section: &[String], is_heading: bool) -> Block {
        Block {
            text: String::new(),
            offsets: Vec::new(),
            code: Vec::new(),
            links: Vec::new(),
            open_links: Vec::new(),
            section: section.to_vec(),
            is_heading,
            cell: None,
            unit: None,
            console: false,
            ratio_at: None,
            binary_sizes: false,
            per_second: false,
            in_html_cell: None,
            verbatim: String::new(),
            breaks: Vec::new(),
            table_name: None,
        }
    }

    /// Appends `text`, which came from `source[range]`. When the event text is the source
    /// text itself each byte maps to its own offset; otherwise (entities, escapes) the bytes
    /// map to the start of the range, which is as close as the parser lets us get.
    ///
    /// Runs of whitespace become one space as they are pushed, so that sentence text, quotes
    /// and fingerprints all see the same normal form.
    fn push(&mut self, text: &str, source: &str, range: Range<usize>) {
        self.verbatim.push_str(text);
        let verbatim = source.get(range.clone()).and_then(|s| s.find(text)).map(|i| range.start + i);
        for (i, ch) in text.char_indices() {
            let offset = verbatim.map_or(range.start, |v| v + i);
            if ch.is_whitespace() {
                if self.text.ends_with(' ') || self.text.is_empty() {
                    continue;
                }
                self.text.push(' ');
                self.offsets.push(offset);
                continue;
            }
            self.text.push(ch);
            for k in 0..ch.len_utf8() {
                self.offsets.push(offset + k);
            }
        }
    }

    /// Appends one character that came from `source[range]`, with whitespace normalised as
    /// `push` does. Its first byte maps to the range's start and its last to the range's last
    /// byte, so that a span that starts or ends at the character (an entity such as `&times;`
    /// read as `×`) starts or ends where it does in the source; a one-byte character maps to
    /// the range's start.
    fn push_char(&mut self, ch: char, range: Range<usize>) {
        let last = range.end.saturating_sub(1).max(range.start);
        self.verbatim.push(ch);
        if ch.is_whitespace() {
            if !(self.text.ends_with(' ') || self.text.is_empty()) {
                self.text.push(' ');
                self.offsets.push(range.start);
            }
            return;
        }
        self.text.push(ch);
        let n = ch.len_utf8();
        for k in 0..n {
            self.offsets.push(if n > 1 && k + 1 == n { last } else { (range.start + k).min(last) });
        }
    }

    /// Appends `other`'s text, each character at the source bytes it came from, and its code
    /// spans: a piece read apart (a LaTeX unit, before it is known whether a space goes
    /// first) joined as if read in place.
    fn append(&mut self, other: &Block) {
        let start = self.text.len();
        for (i, ch) in other.text.char_indices() {
            let (first, last) = (other.offsets[i], other.offsets[i + ch.len_utf8() - 1]);
            self.push_char(ch, first..last + 1);
        }
        self.code.extend(other.code.iter().map(|c| start + c.start..(start + c.end).min(self.text.len())));
    }

    fn push_code(&mut self, text: &str, source: &str, range: Range<usize>) {
        let start = self.text.len();
        self.push(text, source, range);
        self.code.push(start..self.text.len());
    }

    /// Reads the block as a table's caption, where it is one, and marks its attributes as code,
    /// so that no number is read in them.
    fn mark_caption(&mut self) -> Option<Caption> {
        let caption = Caption::of(&self.text)?;
        self.code.extend(caption.markup.iter().cloned());
        self.code.sort_by_key(|c| c.start);
        Some(caption)
    }

    /// Marks pandoc's attributes in the text as code: an id's digits (`#sec-2`) or a width
    /// (`width=50%`) are no numbers the article states.
    fn mark_attributes(&mut self) {
        let found: Vec<Range<usize>> = ATTRIBUTES.find_iter(&self.text).map(|m| m.range()).filter(|m| !self.code.iter().any(|c| c.start < m.end && m.start < c.end)).collect();
        if !found.is_empty() {
            self.code.extend(found);
            self.code.sort_by_key(|c| c.start);
        }
    }

    fn finish(mut self, end: usize) -> Option<Block> {
        self.offsets.push(self.offsets.last().map_or(end, |o| o + 1));
        if self.text.trim().is_empty() { None } else { Some(self) }
    }
}

/// The table being read: where its cells stand, and its header's labels.
struct TableState {
    index: usize,
    in_head: bool,
    row: usize,
    column: usize,
    headers: Vec<String>,
    row_label: String,
    /// The time unit of pytest-benchmark's first header (`Name (time in ms)`), where the table
    /// is its table pasted as pipes: read once, when the header ends.
    pytest_time: Option<Unit>,
    /// Where JMH's columns stand, where the table is JMH's table pasted as pipes: read once,
    /// when the header ends.
    jmh: Option<console::JmhPipe>,
    /// Where BenchmarkDotNet's columns stand, where the table is its summary table: read once,
    /// when the header ends.
    bdn: Option<benchmarkdotnet::Layout>,
    /// Where asv's columns stand, where the table is its comparison table: read once, when the
    /// header ends.
    asv: Option<asv::Layout>,
    /// How many blocks there were when the row began, so that the row's cells can be found
    /// when it ends.
    row_start: usize,
    /// The caption pandoc's Markdown (and Quarto's) gives a pipe table, where it has one.
    caption: Option<Caption>,
    /// The name the article gives the table: its caption's `#id` or label, else the `#id` of
    /// the Quarto div opened directly before it.
    name: Option<String>,
}

/// A pipe table's caption as pandoc reads one: a paragraph directly before or after the table
/// that begins with `:` (not followed by punctuation), `Table:` or `table:`. It may end in
/// attributes whose `#id` names the table (`: Latency (µs) {#tbl-latency}`, as Quarto and
/// pandoc-crossref write it), or begin with bookdown's label (`Table: (\#tab:latency) Latency`,
/// as knitr's `kable` writes it for R Markdown books). See
/// <https://pandoc.org/MANUAL.html#extension-table_captions>,
/// <https://quarto.org/docs/authoring/cross-references.html> and
/// <https://bookdown.org/yihui/bookdown/tables.html>.
struct Caption {
    /// The caption's words, without the marker, the label and the attributes: a unit they state
    /// applies to the cells as an enclosing heading's would.
    text: String,
    /// The `#id` of its attributes, or its bookdown label.
    name: Option<String>,
    /// Where its attributes and its label stand in the text read: an id's digits (`#tbl-2`) or
    /// a width (`tbl-colwidths="[75,25]"`) are not numbers the article states.
    markup: Vec<Range<usize>>,
}

impl Caption {
    /// The caption that `text`, a paragraph's text, is, if it is one.
    fn of(text: &str) -> Option<Caption> {
        let body = text.trim_start();
        let start = text.len() - body.len();
        let after = ["Table:", "table:"]
            .iter()
            .find_map(|m| body.strip_prefix(m))
            .or_else(|| body.strip_prefix(':').filter(|rest| !rest.starts_with(|c: char| c.is_ascii_punctuation())))?;
        let words_start = start + body.len() - after.len();
        let trimmed = text.trim_end();
        // The attributes are the last `{…}` of the paragraph, with nothing after them.
        let attributes = trimmed
            .strip_suffix('}')
            .and_then(|t| t.rfind('{'))
            .filter(|&open| open >= words_start && !trimmed[open + 1..trimmed.len() - 1].contains('{'))
            .map(|open| open..trimmed.len());
        let words_end = attributes.as_ref().map_or(trimmed.len(), |a| a.start);
        let mut name =
            attributes.as_ref().and_then(|a| text[a.start + 1..a.end - 1].split_whitespace().find_map(|w| w.strip_prefix('#')).filter(|id| !id.is_empty()).map(str::to_string));
        let mut markup: Vec<Range<usize>> = attributes.into_iter().collect();
        // bookdown's `(\#tab:label)` first, its backslash gone where the Markdown was read.
        let words = &text[words_start..words_end.max(words_start)];
        let label_start = words_start + words.len() - words.trim_start().len();
        let mut words_start = words_start;
        if let Some(rest) = text[label_start..].strip_prefix("(\\#").or_else(|| text[label_start..].strip_prefix("(#"))
            && let Some(close) = rest.find(')')
            && let label = &rest[..close]
            && !label.is_empty()
            && !label.contains(char::is_whitespace)
        {
            let end = label_start + (text.len() - label_start - rest.len()) + close + 1;
            if end <= words_end {
                name = name.or_else(|| Some(label.to_string()));
                markup.insert(0, label_start..end);
                words_start = end;
            }
        }
        Some(Caption { text: text[words_start..words_end.max(words_start)].trim().to_string(), name, markup })
    }
}

impl TableState {
    fn new(index: usize) -> TableState {
        TableState {
            index,
            in_head: false,
            row: 0,
            column: 0,
            headers: Vec::new(),
            row_label: String::new(),
            pytest_time: None,
            jmh: None,
            bdn: None,
            asv: None,
            row_start: 0,
            caption: None,
            name: None,
        }
    }

    /// The header has been read: which harness's table its labels make it, if any, decides how
    /// the body's cells are named and what unit they take.
    fn end_head(&mut self) {
        self.in_head = false;
        self.pytest_time = self.headers.first().and_then(|h| console::pytest_pipe_time(h));
        self.jmh = if self.pytest_time.is_none() { console::JmhPipe::of(&self.headers) } else { None };
        self.bdn = if self.pytest_time.is_none() && self.jmh.is_none() { benchmarkdotnet::Layout::of(&self.headers) } else { None };
        self.asv = asv::Layout::of(&self.headers);
    }

    /// Places a finished cell block in the table and gives it the unit its column implies.
    fn place(&mut self, block: &mut Block, section: &[String]) {
        let text = block.text.trim().to_string();
        if self.column == 0 {
            self.row_label = text.clone();
        }
        if self.in_head {
            self.headers.push(text);
        }
        let column_label = self.headers.get(self.column).cloned().unwrap_or_default();
        if !self.in_head {
            // pytest-benchmark's table pasted as pipes states one unit for every time column in
            // its first header, and follows each value with its ratio to the column's best; its
            // counts take no unit, whatever a heading says.
            if self.column == 0 && (self.pytest_time.is_some() || self.bdn.is_some()) {
                // The name is a test's id (or a .NET method's), read as inline code is:
                // `[1-False-V2]` holds parameters, not measurements, as in the console table.
                block.code = vec![std::ops::Range { start: 0, end: block.text.len() }];
            } else if let Some((unit, ratio)) = self.pytest_time.as_ref().and_then(|time| console::pytest_pipe_column(time, &column_label)) {
                block.unit = unit;
                block.ratio_at = if ratio { console::trailing_ratio(&block.text) } else { None };
            } else {
                let from_heading =
                    || if self.column == 0 { None } else { self.caption.iter().map(|c| &c.text).chain(section.iter().rev()).find_map(|h| numbers::unit_in_label(h)) };
                // A label joined from header rows (`Time (ms) › Mean`) takes the unit of its
                // innermost part that states one: a spanning header states it for the columns
                // under it.
                block.unit = label_parts(&column_label).collect::<Vec<_>>().into_iter().rev().find_map(numbers::unit_in_label).or_else(from_heading);
            }
        }
        block.binary_sizes = self.bdn.is_some();
        block.cell = Some(Cell { table: self.index, row: self.row, column: self.column, row_label: self.row_label.clone(), column_label });
        block.table_name.clone_from(&self.name);
        self.column += 1;
    }

    /// Completes a row of JMH's table pasted as pipes, whose unit stands in its last column
    /// and whose name includes the parameters in the columns after the first: each score and
    /// error takes the row's `Units`, the count none, the name is read as code, every cell of
    /// the row is named as `console::jmh_cells` names the console table's rows, and a
    /// parameter's value, which the name now holds, is no cell of its own (it names the row
    /// and measures nothing, and a value alone would read as a number even as code).
    fn finish_jmh_row(&self, blocks: &mut Vec<Block>) {
        let Some(jmh) = &self.jmh else { return };
        let start = self.row_start.min(blocks.len());
        let of_row = |b: &Block| b.cell.as_ref().is_some_and(|c| c.table == self.index && c.row == self.row);
        let text_of = |column: usize| blocks[start..].iter().find(|b| of_row(b) && b.cell.as_ref().is_some_and(|c| c.column == column)).map(|b| b.text.trim().to_string());
        let label = jmh.row_label(text_of);
        let unit = text_of(jmh.units).and_then(|u| console::JmhPipe::unit(&u));
        for b in blocks[start..].iter_mut().filter(|b| of_row(b)) {
            let column = b.cell.as_ref().map_or(0, |c| c.column);
            if jmh.is_value(column) {
                b.unit = unit.clone();
            } else if Some(column) == jmh.count {
                b.unit = None;
            }
            if column == 0 {
                b.code = vec![std::ops::Range { start: 0, end: b.text.len() }];
            }
            if let Some(cell) = &mut b.cell {
                cell.row_label = label.clone();
            }
        }
        let mut k = start;
        while k < blocks.len() {
            if of_row(&blocks[k]) && blocks[k].cell.as_ref().is_some_and(|c| jmh.is_param(c.column)) {
                blocks.remove(k);
            } else {
                k += 1;
            }
        }
    }
}

impl TableState {
    /// Completes a row of BenchmarkDotNet's summary table: every cell of the row is named by
    /// the case it measures (the method and its parameters), and a parameter's value, which
    /// the name now holds, is no cell of its own. The name is the cells' text as written, runs
    /// of spaces kept, as BenchmarkDotNet names the case and the evidence reader's `case` and
    /// `name` write it: its GitHub report writes a method described `Command  Send` as
    /// `&#39;Command  Send&#39;`, which reads `'Command  Send'`, not `'Command Send'`.
    fn finish_bdn_row(&self, blocks: &mut Vec<Block>) {
        let Some(layout) = &self.bdn else { return };
        self.name_row(blocks, |text_of| layout.row_label(text_of), |_, _, _| {}, |column| layout.names_row(column));
    }

    /// Completes a row of asv's comparison table: every cell is named by the benchmark and
    /// parameters its last column writes, a value takes the unit the row's benchmark implies
    /// where it writes none (bytes for a memory benchmark, a multiple under `Ratio`), and the
    /// last column, which names the row, is no cell of its own.
    fn finish_asv_row(&self, blocks: &mut Vec<Block>) {
        let Some(layout) = &self.asv else { return };
        self.name_row(blocks, |text_of| layout.row_label(text_of), |b, column, label| b.unit = layout.unit(column, label), |column| layout.names_row(column));
    }

    /// Names every cell of the row just read by `label` (from the cells' texts as written, by
    /// column), lets `each` adjust each of its blocks (by its column, with that name), and
    /// drops the cells of the columns that `names_row` says name the row and measure nothing.
    fn name_row(
        &self,
        blocks: &mut Vec<Block>,
        label: impl FnOnce(&dyn Fn(usize) -> Option<String>) -> String,
        each: impl Fn(&mut Block, usize, &str),
        names_row: impl Fn(usize) -> bool,
    ) {
        let start = self.row_start.min(blocks.len());
        let of_row = |b: &Block| b.cell.as_ref().is_some_and(|c| c.table == self.index && c.row == self.row);
        let text_of = |column: usize| blocks[start..].iter().find(|b| of_row(b) && b.cell.as_ref().is_some_and(|c| c.column == column)).map(|b| b.verbatim.trim().to_string());
        let label = label(&text_of);
        for b in blocks[start..].iter_mut().filter(|b| of_row(b)) {
            let column = b.cell.as_ref().map_or(0, |c| c.column);
            each(b, column, &label);
            if let Some(cell) = &mut b.cell {
                cell.row_label = label.clone();
            }
        }
        let row = blocks.split_off(start);
        blocks.extend(row.into_iter().filter(|b| !(of_row(b) && b.cell.as_ref().is_some_and(|c| names_row(c.column)))));
    }
}

/// One cell of a table a reader has split into rows and columns: its row (header rows first,
/// from 0), its column, how many columns it spans, and what the reader needs to read its text.
struct SplitCell<T> {
    row: usize,
    column: usize,
    columns: usize,
    content: T,
}

/// Lays out one table's cells, numbered `index`, as table-cell blocks pushed onto `blocks`,
/// `read` turning a cell's content into its block's text. The first `header_rows` rows label
/// the columns (a column's label the texts of the header cells over it, joined with ` › `
/// where there are several) and are all row 0; the body's rows are numbered from 1, each cell
/// named by its row's first cell and its column's label, and given the unit its column's label
/// implies, or else one a heading of `unit_section` (the sections, and a caption) states.
#[allow(clippy::too_many_arguments)]
fn lay_out_table<T>(
    blocks: &mut Vec<Block>,
    index: usize,
    section: &[String],
    unit_section: &[String],
    mut cells: Vec<SplitCell<T>>,
    header_rows: usize,
    end: usize,
    mut read: impl FnMut(&mut Block, &T),
) {
    cells.sort_by_key(|c| (c.row, c.column));
    let mut t = TableState::new(index);
    let n_columns = cells.iter().map(|c| c.column + c.columns).max().unwrap_or(0);
    let mut labels: Vec<Vec<String>> = vec![Vec::new(); n_columns];
    let mut head: Vec<(usize, Block)> = Vec::new();
    for cell in cells.iter().filter(|c| c.row < header_rows) {
        let mut block = Block::new(section, false);
        read(&mut block, &cell.content);
        let text = block.text.trim().to_string();
        for label in labels.iter_mut().skip(cell.column).take(cell.columns.max(1)) {
            if !text.is_empty() && label.last() != Some(&text) {
                label.push(text.clone());
            }
        }
        head.push((cell.column, block));
    }
    t.headers = labels.iter().map(|l| l.join(" › ")).collect();
    let first_label = t.headers.first().cloned().unwrap_or_default();
    for (column, mut block) in head {
        block.cell = Some(Cell { table: t.index, row: 0, column, row_label: first_label.clone(), column_label: t.headers.get(column).cloned().unwrap_or_default() });
        if let Some(b) = block.finish(end) {
            blocks.push(b);
        }
    }
    t.end_head();
    let body: Vec<&SplitCell<T>> = cells.iter().filter(|c| c.row >= header_rows).collect();
    let mut k = 0;
    while k < body.len() {
        let row = body[k].row;
        t.row = row - header_rows + 1;
        t.row_start = blocks.len();
        while k < body.len() && body[k].row == row {
            let cell = body[k];
            let mut block = Block::new(section, false);
            read(&mut block, &cell.content);
            t.column = cell.column;
            t.place(&mut block, unit_section);
            if let Some(b) = block.finish(end) {
                blocks.push(b);
            }
            k += 1;
        }
        t.finish_jmh_row(blocks);
        t.finish_bdn_row(blocks);
        t.finish_asv_row(blocks);
    }
}

/// The prose blocks of `source`, the destinations of its images, and the warnings about its
/// HTML, each at its source bytes.
fn prose_blocks(source: &str) -> (Vec<Block>, Vec<String>, Vec<(Range<usize>, String)>) {
    // The front matter is read as blank lines: every byte of it a space but its line ends, so
    // that every other byte keeps its offset.
    let masked;
    let source = match front_matter_end(source) {
        Some(end) => {
            masked = source[..end].bytes().map(|b| if b == b'\n' { '\n' } else { ' ' }).collect::<String>() + &source[end..];
            masked.as_str()
        }
        None => source,
    };
    let options = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    let mut blocks = Vec::new();
    let mut section: Vec<String> = Vec::new();
    // The level of each heading in `section`: a heading closes every open one of its level or
    // deeper, so that a `###` after a `####` (levels skipped) is not nested under it.
    let mut levels: Vec<usize> = Vec::new();
    // A stack, because an image caption is its own block inside a paragraph, and a paragraph
    // sits inside a list item.
    let mut open: Vec<Block> = Vec::new();
    let mut heading_level = 0usize;
    let mut in_code_block = false;
    // The text of the code block being read, each piece with the source range it came from.
    let mut code_parts: Vec<(String, Range<usize>)> = Vec::new();
    let mut images = Vec::new();
    let mut table: Option<TableState> = None;
    let mut n_tables = 0;
    // Where the paragraph that is the last table's caption after it begins: that paragraph's
    // attributes are marked when it is read, and it is no caption of a table after it.
    let mut caption_after: Option<usize> = None;
    // HTML: the reader keeps its open tables across events, since a table's cells may hold
    // Markdown between HTML blocks; the HTML block being gathered; and how deep in block quotes
    // and list items the events stand, so that a table never outlives the container it opened in.
    let mut html = html::Reader::new();
    let mut html_block = html::Html::new();
    let mut depth = 0usize;
    macro_rules! sink {
        () => {
            html::Sink { source, section: &mut section, levels: &mut levels, blocks: &mut blocks, images: &mut images, n_tables: &mut n_tables, depth }
        };
    }
    for (event, range) in Parser::new_ext(source, options).into_offset_iter() {
        if let Event::Start(Tag::Image { dest_url, .. }) = &event {
            images.push(dest_url.to_string());
        }
        match &event {
            Event::Start(Tag::BlockQuote(_) | Tag::Item | Tag::FootnoteDefinition(_)) => depth += 1,
            Event::End(TagEnd::BlockQuote(_) | TagEnd::Item | TagEnd::FootnoteDefinition) => {
                depth = depth.saturating_sub(1);
                if html.in_table() {
                    html.close_tables(depth + 1, "the end of the block quote or list item that holds it", &mut sink!());
                }
            }
            // A Markdown heading ends any HTML table left open, so that an unclosed `<table>`
            // never takes in the sections after it.
            Event::Start(Tag::Heading { .. }) if html.in_table() => {
                let line = source[..range.start.min(source.len())].matches('\n').count() + 1;
                html.close_tables(0, &format!("the heading at line {line}"), &mut sink!());
            }
            _ => {}
        }
        match event {
            Event::Start(Tag::CodeBlock(_)) => {
                in_code_block = true;
                code_parts.clear();
            }
            Event::Text(text) if in_code_block => code_parts.push((text.to_string(), range)),
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                n_tables += console_blocks(&code_parts, source, &section, n_tables, &mut blocks);
            }
            _ if in_code_block => {}
            Event::Start(Tag::HtmlBlock) => html_block = html::Html::new(),
            Event::Html(text) => html_block.push(&text, source, range),
            Event::End(TagEnd::HtmlBlock) => {
                let gathered = std::mem::replace(&mut html_block, html::Html::new());
                html.block(&gathered, &mut sink!());
            }
            Event::InlineHtml(text) => {
                let mut tag = html::Html::new();
                tag.push(&text, source, range);
                let mut outside = open.pop();
                html.inline(&tag, &mut sink!(), outside.as_mut());
                open.extend(outside);
            }
            Event::Start(Tag::Heading { level, .. }) => {
                heading_level = level as usize;
                open.push(Block::new(&section, true));
            }
            Event::End(TagEnd::Heading(_)) => {
                html.end_markdown_block();
                if let Some(block) = open.pop() {
                    enter_heading(&mut section, &mut levels, heading_level, block, &mut blocks);
                }
            }
            Event::Start(Tag::Table(_)) => {
                let mut t = TableState::new(n_tables);
                n_tables += 1;
                // A caption before the table, unless it was the caption after the one before.
                let before = blocks.last_mut().filter(|b| ends_just_before(b, source, range.start));
                let (caption, fence) = match before {
                    Some(b) if caption_after != b.offsets.first().copied() => (b.mark_caption(), div_fence_id(&b.text)),
                    Some(b) => (None, div_fence_id(&b.text)),
                    None => (None, None),
                };
                t.caption = caption;
                if t.caption.is_none()
                    && let Some((at, caption)) = caption_after_table(source, range.end)
                {
                    (t.caption, caption_after) = (Some(caption), Some(at));
                }
                // In a Quarto div, the paragraph that closes the div is the table's caption,
                // whatever it begins with: a unit it states applies to the cells.
                if t.caption.is_none() && fence.is_some() {
                    t.caption = div_caption_after_table(source, range.end);
                }
                // A Quarto div opened directly before the table (`::: {#tbl-letters}`) names
                // it where its caption does not.
                t.name = t.caption.as_ref().and_then(|c| c.name.clone()).or(fence);
                table = Some(t);
            }
            Event::End(TagEnd::Table) => table = None,
            Event::Start(Tag::TableHead) => {
                if let Some(t) = &mut table {
                    (t.in_head, t.row, t.column) = (true, 0, 0);
                }
            }
            Event::End(TagEnd::TableHead) => {
                if let Some(t) = &mut table {
                    t.end_head();
                }
            }
            Event::Start(Tag::TableRow) => {
                if let Some(t) = &mut table {
                    (t.row, t.column) = (t.row + 1, 0);
                    t.row_label.clear();
                    t.row_start = blocks.len();
                }
            }
            Event::End(TagEnd::TableRow) => {
                if let Some(t) = &table {
                    t.finish_jmh_row(&mut blocks);
                    t.finish_bdn_row(&mut blocks);
                    t.finish_asv_row(&mut blocks);
                }
            }
            Event::Start(Tag::TableCell) => {
                let mut b = Block::new(&section, false);
                b.in_html_cell = html.cell_id();
                open.push(b);
            }
            Event::End(TagEnd::TableCell) => {
                html.end_markdown_block();
                if let Some(mut b) = open.pop() {
                    if let Some(t) = &mut table {
                        t.place(&mut b, &section);
                    }
                    if let Some(b) = b.finish(range.end) {
                        blocks.push(b);
                    }
                }
            }
            Event::Start(Tag::Link { .. }) => {
                if let Some(b) = target(&mut html, &mut open) {
                    b.open_links.push(b.text.len());
                }
            }
            Event::End(TagEnd::Link) => {
                if let Some(b) = target(&mut html, &mut open)
                    && let Some(start) = b.open_links.pop()
                {
                    b.links.push(start..b.text.len());
                }
            }
            Event::Start(Tag::Paragraph | Tag::Item | Tag::Image { .. }) => {
                open.push(Block::new(&section, false));
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::Image) => {
                html.end_markdown_block();
                if let Some(mut b) = open.pop().and_then(|b| b.finish(range.end)) {
                    if caption_after.is_some() && b.offsets.first().copied() == caption_after {
                        b.mark_caption();
                    }
                    blocks.push(b);
                }
                // Paragraphs in an HTML cell are one sentence, their words apart.
                if let Some(cell) = html.cell_mut() {
                    cell.push(" ", source, range.end..range.end);
                }
            }
            // A nested list ends the text of the item that holds it, so that the item's own
            // words and the sub-items are separate blocks.
            Event::Start(Tag::List(_)) => {
                if let Some(b) = open.pop().and_then(|b| b.finish(range.start)) {
                    blocks.push(b);
                }
                open.push(Block::new(&section, false));
            }
            Event::End(TagEnd::List(_)) => {
                if let Some(b) = open.pop().and_then(|b| b.finish(range.end)) {
                    blocks.push(b);
                }
            }
            Event::Text(text) => {
                let code = html.in_code();
                let sup = html.take_sup();
                if let Some(b) = target(&mut html, &mut open) {
                    // A `<sup>` before digits makes them a power (`10<sup>3</sup>` reads 10^3).
                    if let Some(at) = sup
                        && text.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '−' | '+'))
                    {
                        b.push_char('^', at);
                    }
                    if code {
                        b.push_code(&text, source, range);
                    } else {
                        b.push(&text, source, range);
                    }
                }
            }
            Event::Code(text) => {
                if let Some(b) = target(&mut html, &mut open) {
                    b.push_code(&text, source, range);
                }
            }
            Event::SoftBreak => {
                if let Some(b) = target(&mut html, &mut open) {
                    b.push(" ", source, range.start..range.start);
                }
            }
            Event::HardBreak => {
                if let Some(b) = target(&mut html, &mut open) {
                    b.push(" ", source, range.start..range.start);
                    b.breaks.push(b.text.len());
                }
            }
            _ => {}
        }
    }
    if html.in_table() {
        html.close_tables(0, "the end of the article", &mut sink!());
    }
    for block in &mut blocks {
        block.mark_attributes();
    }
    (blocks, images, html.into_warnings())
}

/// Where the front matter that static-site generators, Quarto and R Markdown read ends: a YAML
/// block from a first line of `---` to a line of `---` or `...`, or a TOML one between lines of
/// `+++` (Hugo), its first line not blank. Only at the very start of the article: elsewhere a
/// line of `---` is a thematic break or a heading's underline, and the text after it is prose.
fn front_matter_end(source: &str) -> Option<usize> {
    let mut lines = source.split_inclusive('\n');
    let first = lines.next()?;
    let closes: &[&str] = match first.trim_end() {
        "---" => &["---", "..."],
        "+++" => &["+++"],
        _ => return None,
    };
    let mut end = first.len();
    for (k, line) in lines.enumerate() {
        end += line.len();
        let line = line.trim_end();
        if k == 0 && (line.is_empty() || closes.contains(&line)) {
            return None;
        }
        if closes.contains(&line) {
            return Some(end.min(source.len()));
        }
    }
    None
}

/// pandoc's attributes, as Quarto, R Markdown and pandoc-crossref write them after a heading,
/// an image, a span or a div's fence: `{#sec-results}`, `{width=50%}`, `{#tbl-panel
/// layout-ncol=2}`. A group of ids, classes and `key=value` pairs and nothing else.
static ATTRIBUTES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r#"\{\s*(?:(?:#[^\s{}#.=]+|\.[^\s{}#=]+|[A-Za-z_][\w.:-]*=(?:"[^"]*"|'[^']*'|[^\s{}"']+))\s*)+\}"#).expect("attribute pattern is valid")
});

/// Whether `b` is a paragraph that ends where only blank space stands between it and `at`.
fn ends_just_before(b: &Block, source: &str, at: usize) -> bool {
    b.cell.is_none() && !b.is_heading && !b.console && b.offsets.last().is_some_and(|&end| end <= at && source.get(end..at).is_some_and(|gap| gap.trim().is_empty()))
}

/// The `#id` of a pandoc div's opening fence, `text` being the fence and nothing else
/// (`::: {#tbl-letters}`, `:::: {#tbl-panel layout-ncol=2}`).
fn div_fence_id(text: &str) -> Option<String> {
    let attributes = text.trim().strip_prefix(":::")?.trim_start_matches(':').trim();
    let whole = ATTRIBUTES.find(attributes).filter(|m| m.range() == (0..attributes.len()))?;
    whole.as_str()[1..whole.len() - 1].split_whitespace().find_map(|w| w.strip_prefix('#')).filter(|id| !id.is_empty()).map(str::to_string)
}

/// The paragraph after a table, as the captions below read it.
struct ParagraphAfter {
    /// Where it begins in the source.
    at: usize,
    /// Its text, whitespace read as one space, as a block's text is.
    text: String,
    /// Whether a pandoc div's closing fence (`:::`) follows it, directly or after blank lines.
    closes_div: bool,
}

/// The paragraph after a table that ends at `end`, where it begins a line indented by at most
/// three spaces (so not code). It runs to its first blank line or a div's closing fence.
fn paragraph_after_table(source: &str, end: usize) -> Option<ParagraphAfter> {
    let rest = source.get(end..)?;
    let body = rest.trim_start();
    let at = end + rest.len() - body.len();
    let indent = source[..at].rsplit('\n').next().unwrap_or_default();
    if indent.len() > 3 || !indent.bytes().all(|b| b == b' ') {
        return None;
    }
    let is_fence = |l: &str| {
        let l = l.trim();
        l.len() >= 3 && l.bytes().all(|b| b == b':')
    };
    let mut lines = body.lines();
    let paragraph: Vec<&str> = lines.by_ref().take_while(|l| !l.trim().is_empty() && !is_fence(l)).collect();
    // `take_while` consumed the line that ended the paragraph: the fence, or a blank line
    // after which the fence is the next line that is not blank.
    let ended_by_fence = body.lines().nth(paragraph.len()).is_some_and(is_fence);
    let closes_div = ended_by_fence || lines.find(|l| !l.trim().is_empty()).is_some_and(is_fence);
    let text = paragraph.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(ParagraphAfter { at, text, closes_div })
}

/// The caption after a table that ends at `end`: the next paragraph, where it reads as one;
/// with where it begins.
fn caption_after_table(source: &str, end: usize) -> Option<(usize, Caption)> {
    let p = paragraph_after_table(source, end)?;
    Caption::of(&p.text).map(|c| (p.at, c))
}

/// The caption of a table that ends at `end` inside a Quarto div: the paragraph after it where
/// the div's closing fence (`:::`) follows that paragraph, as Quarto reads a div's last
/// paragraph, and it is no table's row. Its words only: it carries no `#id` of its own, the
/// div's names the table.
fn div_caption_after_table(source: &str, end: usize) -> Option<Caption> {
    let p = paragraph_after_table(source, end)?;
    (p.closes_div && !p.text.starts_with('|')).then_some(Caption { text: p.text, name: None, markup: Vec::new() })
}

/// Where Markdown text goes: into the HTML table cell being read, where one is open (its
/// Markdown stands between the HTML blocks of the table), unless a Markdown table cell opened
/// inside it keeps its own; else into the innermost Markdown block.
fn target<'a>(html: &'a mut html::Reader, open: &'a mut [Block]) -> Option<&'a mut Block> {
    let keeps_own = open.last().is_some_and(|b| b.in_html_cell.is_some() && b.in_html_cell == html.cell_id());
    if !keeps_own && html.cell_id().is_some() {
        return html.cell_mut();
    }
    open.last_mut()
}

/// A heading's block ends: it names a section (closing every open one of its level or deeper)
/// and is a block of its own, which the word count reads and no sentence is made of.
fn enter_heading(section: &mut Vec<String>, levels: &mut Vec<usize>, level: usize, block: Block, blocks: &mut Vec<Block>) {
    let title = block.text.trim().to_string();
    while levels.last().is_some_and(|l| *l >= level) {
        levels.pop();
        section.pop();
    }
    levels.push(level);
    section.push(title);
    if let Some(b) = block.finish(0) {
        blocks.push(b);
    }
}

/// The cells of the harness console tables in a code block (see [`console`]), as table-cell
/// blocks numbered from table `first_table`, pushed onto `blocks`; how many tables there were.
/// The code block's pieces map their bytes to the source one for one where the source holds
/// them verbatim (a fenced block does), else to the start of their range.
fn console_blocks(parts: &[(String, Range<usize>)], source: &str, section: &[String], first_table: usize, blocks: &mut Vec<Block>) -> usize {
    let mut code = String::new();
    let mut offsets = Vec::new();
    for (text, range) in parts {
        let verbatim = source.get(range.clone()) == Some(text.as_str());
        offsets.extend((0..text.len()).map(|i| if verbatim { range.start + i } else { range.start }));
        code.push_str(text);
    }
    let Some(cells) = console::cells(&code) else { return 0 };
    let mut tables = 0;
    for cell in cells {
        tables = tables.max(cell.table + 1);
        // A cell of no bytes (a harness's column left empty, `Time (mean ± σ):` with nothing
        // before its bracket) holds no number and no words.
        if cell.range.is_empty() {
            continue;
        }
        let (start, end) = (offsets[cell.range.start], offsets[cell.range.end - 1] + 1);
        let text = &code[cell.range.clone()];
        let mut b = Block::new(section, false);
        b.console = true;
        // The name is an identifier, read as inline code is: no number comes from it.
        if cell.is_name {
            b.push_code(text, source, start..end);
        } else if let Some(ratio) = &cell.ratio {
            let at = offsets[ratio.start];
            b.push(&code[cell.range.start..ratio.start], source, start..at);
            b.ratio_at = Some(b.text.len());
            b.push(&code[ratio.clone()], source, at..end);
        } else {
            b.push(text, source, start..end);
        }
        b.unit = cell.unit;
        b.binary_sizes = cell.binary_sizes;
        b.per_second = cell.per_second;
        b.cell = Some(Cell { table: first_table + cell.table, row: cell.row, column: cell.column, row_label: cell.row_label, column_label: cell.column_label });
        if let Some(b) = b.finish(end) {
            blocks.push(b);
        }
    }
    tables
}

/// Words after which a period does not end a sentence: abbreviations of references, months
/// (`Dec. 19`) and titles.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "etc", "cf", "Fig", "fig", "Eq", "eq", "al", "approx", "No", "Sec", "sec", "resp", "Ref", "ref", "Vol", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug",
    "Sep", "Sept", "Oct", "Nov", "Dec", "Mr", "Mrs", "Ms", "Dr", "Prof", "St", "Jr", "Sr", "Inc", "Ltd", "Co", "Corp", "ca", "pp", "Ch", "Tab", "Nr",
    "Figs", "Eqs", "Secs", "Sect", "Sects", "Alg", "Algs", "Thm", "Lem", "Def", "Prop", "Cor", "App", "Apx", "Ex", "Refs", "Nos", "vol", "std", "dev", "avg",
];

/// Splits `text` into sentence ranges, trimmed of surrounding whitespace. A sentence ends at
/// `.`, `!` or `?` (with any closing quotes or brackets) followed by whitespace and then
/// something other than a lowercase letter, except after an abbreviation or inside code.
fn split_sentences(text: &str, code: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    // Code spans are in order and positions only grow, so a cursor answers "inside code?"
    // without scanning every span at every character.
    let mut code_at = 0;
    let mut in_code = |i: usize| {
        while code_at < code.len() && code[code_at].end <= i {
            code_at += 1;
        }
        code.get(code_at).is_some_and(|c| c.start <= i)
    };
    let mut k = 0;
    while k < chars.len() {
        let (i, c) = chars[k];
        if matches!(c, '.' | '!' | '?') && !in_code(i) {
            let mut j = k + 1;
            while j < chars.len() && matches!(chars[j].1, ')' | '"' | '\'' | '”' | '’' | ']' | '*' | '_') {
                j += 1;
            }
            // A stop tied to what follows (`Sect.~3`, `et al.&nbsp;[4]`, LaTeX's `dev.\ 0.5`,
            // which the LaTeX reader gives as a no-break space) is an abbreviation's: the
            // author said the sentence goes on.
            let tied = j < chars.len() && chars[j].1 == '\u{a0}';
            let space_follows = j >= chars.len() || chars[j].1.is_whitespace();
            if space_follows && !tied {
                let mut n = j;
                while n < chars.len() && chars[n].1.is_whitespace() {
                    n += 1;
                }
                // A lowercase word after a stop continues the sentence (an abbreviation this
                // list lacks), unless it is a name written with a capital inside it (`jMetalPy`,
                // `iPhone`), which begins one.
                let camel = || chars[n + 1..].iter().map(|c| c.1).take_while(|c| c.is_alphanumeric()).any(char::is_uppercase);
                // Nor does a word of code continue it (`` `fold` needs``, a reference's key):
                // code is written as it must be, not in a sentence's case.
                let starts_code = || code.iter().any(|c| c.start <= chars[n].0 && chars[n].0 < c.end);
                let next_lower = n < chars.len() && chars[n].1.is_lowercase() && !camel() && !starts_code();
                let word = text[..i].rsplit(|ch: char| ch.is_whitespace() || ch == '(').next().unwrap_or("");
                let abbreviation = c == '.' && ABBREVIATIONS.contains(&word);
                if !next_lower && !abbreviation {
                    let end = if j < chars.len() { chars[j].0 } else { text.len() };
                    push_trimmed(&mut out, text, start..end);
                    start = end;
                    k = j;
                    continue;
                }
            }
        }
        k += 1;
    }
    push_trimmed(&mut out, text, start..text.len());
    out
}

/// The sentences of `text`, split first at each of `breaks` (hard line breaks) that a word
/// not in lowercase follows, then as [`split_sentences`] splits each piece. A lowercase word
/// after a break goes on with the sentence, as after a stop: a banner wraps a sentence
/// (`took 5.5 ms<br>on one GPU`), where `Size: 7B` and `Context: 4096` are lines of their own.
fn split_at_breaks(text: &str, code: &[Range<usize>], breaks: &[usize]) -> Vec<Range<usize>> {
    if breaks.is_empty() {
        return split_sentences(text, code);
    }
    let mut out = Vec::new();
    let mut from = 0;
    for &at in breaks.iter().chain(std::iter::once(&text.len())) {
        if at <= from || !text.is_char_boundary(at) {
            continue;
        }
        if at < text.len() && text[at..].trim_start().starts_with(char::is_lowercase) {
            continue;
        }
        let piece: Vec<Range<usize>> = code.iter().filter(|c| c.start < at && from < c.end).map(|c| c.start.max(from) - from..c.end.min(at) - from).collect();
        out.extend(split_sentences(&text[from..at], &piece).into_iter().map(|r| r.start + from..r.end + from));
        from = at;
    }
    out
}

fn push_trimmed(out: &mut Vec<Range<usize>>, text: &str, range: Range<usize>) {
    let piece = &text[range.clone()];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    if piece.trim().is_empty() {
        return;
    }
    out.push(range.start + lead..range.end - trail);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HTML's `<br>` ends a sentence in prose as a hard line break does; in a cell, which is one
    /// sentence, it is a space.
    #[test]
    fn an_html_line_break_ends_a_sentence_outside_cells() {
        let a = Article::parse("a.md", b"<p>Size: 7 GB<br>Context: 4096 tokens<br/>on 2 GPUs</p>\n\n<table><tr><th>A</th></tr><tr><td>1 ms<br>Two 2 ms</td></tr></table>\n").unwrap();
        let texts: Vec<&str> = a.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["Size: 7 GB", "Context: 4096 tokens on 2 GPUs", "A", "1 ms Two 2 ms"]);
    }

    /// A hard line break (two trailing spaces, or a backslash) ends a sentence where a word not in
    /// lowercase follows: a model card's `Key: value` lines are statements of their own, however
    /// the paragraph runs on, and a wrapped sentence goes on.
    #[test]
    fn a_hard_line_break_ends_a_sentence() {
        let a = Article::parse("a.md", b"**Model Size**: 30 billion parameters  \n**Context**: 4096 tokens\\\nRan in `2 ms` each  \nwrapped, and soft breaks join.\n").unwrap();
        let texts: Vec<&str> = a.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["Model Size: 30 billion parameters", "Context: 4096 tokens", "Ran in 2 ms each wrapped, and soft breaks join."]);
        assert_eq!(a.sentences[1].line, 2);
        assert!(a.sentences[2].numbers.is_empty(), "code keeps its place after a break: {:?}", a.sentences[2].numbers);
    }

    fn sentences(md: &str) -> Vec<String> {
        Article::parse("a.md", md.as_bytes()).unwrap().sentences.into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn a_name_with_a_capital_inside_begins_a_sentence_after_a_stop() {
        let got = sentences("The line marks parity. jMetalPy is 6× slower, e.g. iPhone ran. pymoo is close.\n");
        assert_eq!(got, ["The line marks parity.", "jMetalPy is 6× slower, e.g. iPhone ran. pymoo is close."]);
    }

    #[test]
    fn a_sentence_may_begin_with_code() {
        let got = sentences("It took 6 s. `fold` needs 8 more. Then e.g. `x` ran.\n");
        assert_eq!(got, ["It took 6 s.", "`fold` needs 8 more.", "Then e.g. `x` ran."].map(|s| s.replace('`', "")));
    }

    #[test]
    fn abbreviations_of_papers_do_not_end_sentences() {
        let got = sentences("Latency (std. dev. 0.5 ms) was 3 ms. As in Sect. 3.2 and Alg. 1 and Figs. 2 it takes 5 ms. Next one.\n");
        assert_eq!(got, ["Latency (std. dev. 0.5 ms) was 3 ms.", "As in Sect. 3.2 and Alg. 1 and Figs. 2 it takes 5 ms.", "Next one."]);
    }

    #[test]
    fn a_stop_tied_to_what_follows_does_not_end_a_sentence() {
        let blocks = split_sentences("Done.\u{a0}3 ran. Next.", &[]);
        assert_eq!(blocks.len(), 2, "{blocks:?}");
    }

    #[test]
    fn decimals_and_abbreviations_do_not_split() {
        let got = sentences("Replay took 56.08 µs, e.g. on 4096×4096 vs. the stream. Next one.\n");
        assert_eq!(got, ["Replay took 56.08 µs, e.g. on 4096×4096 vs. the stream.", "Next one."]);
    }

    #[test]
    fn inline_code_and_links_read_as_text() {
        let got = sentences("Call `cudaGraphLaunch()` once. See [the guide](https://x.y/a.b). Done.\n");
        assert_eq!(got, ["Call cudaGraphLaunch() once.", "See the guide.", "Done."]);
    }

    #[test]
    fn a_period_inside_code_does_not_end_a_sentence() {
        let got = sentences("Use `x. Y` here. Then.\n");
        assert_eq!(got, ["Use x. Y here.", "Then."]);
    }

    #[test]
    fn code_blocks_are_not_prose() {
        let got = sentences("Before.\n\n```\nlet x = 1.5;\n```\n\nAfter.\n");
        assert_eq!(got, ["Before.", "After."]);
    }

    /// itsy.bitsy's README quotes its results as Google Benchmark printed them, in a code
    /// block: each value is a cell under its header, at its own bytes of the source, and the
    /// benchmark's name gives no number and no words to the prose count.
    #[test]
    fn a_google_benchmark_console_table_in_code_reads_as_a_table() {
        let md = "## GCC\n\nThe numbers:\n\n```\n---\nBenchmark                  Time             CPU   Iterations\n---\nnoop                   0.000 ns        0.000 ns   1000000000\nBM_Sum/64               2842 ns         2888 ns       248889\n```\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        assert_eq!(a.word_count, 3);
        let cell = |row: &str, column: &str| a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == row && c.column_label == column)).unwrap();
        let time = cell("BM_Sum/64", "Time");
        assert_eq!(time.text, "2842 ns");
        assert_eq!(&md[time.span.clone()], "2842 ns");
        assert_eq!((time.line, time.section.clone()), (10, vec!["GCC".to_string()]));
        assert_eq!(time.numbers.len(), 1);
        assert_eq!((time.numbers[0].value, time.numbers[0].unit.clone()), (2842.0, Some(Unit::Ns)));
        assert_eq!(cell("BM_Sum/64", "Iterations").numbers[0].value, 248889.0);
        assert_eq!(cell("noop", "CPU").text, "0.000 ns");
        assert!(cell("BM_Sum/64", "Benchmark").numbers.is_empty());
        let c = time.cell.as_ref().unwrap();
        assert_eq!((c.table, c.row, c.column), (0, 2, 1));
    }

    /// Go's `go test -bench` lines pasted in a code block: each value a cell at its own bytes of
    /// the source, read in the unit its unit states, and the benchmark's name giving no number.
    #[test]
    fn go_benchmark_output_in_code_reads_as_a_table_with_units() {
        let md = "## Sum\n\n```\ngoos: linux\nBenchmarkSum/n=64-2    \t88800712\t  13.46 ns/op\t38036.85 MB/s\t  0 B/op\t  0 allocs/op\nPASS\n```\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let cell = |column: &str| a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == "BenchmarkSum/n=64" && c.column_label == column)).unwrap();
        let read = |s: &Sentence| s.numbers.iter().map(|n| (n.value, n.unit.clone())).collect::<Vec<_>>();
        let time = cell("ns/op");
        assert_eq!((time.text.as_str(), &md[time.span.clone()], time.line), ("13.46", "13.46", 5));
        assert_eq!(read(time), [(13.46, Some(Unit::Ns))]);
        assert_eq!(read(cell("MB/s")), [(38036.85, Some(Unit::MbPerS))]);
        assert_eq!(read(cell("B/op")), [(0.0, Some(Unit::Bytes))]);
        assert_eq!(read(cell("allocs/op")), [(0.0, Some(Unit::Other("allocs/op".into())))]);
        assert_eq!(read(cell("Iterations")), [(88800712.0, None)]);
        assert!(cell("Benchmark").numbers.is_empty());
        assert_eq!(a.word_count, 1);
    }

    /// The sentence of the table cell at `row` and `column`.
    fn sentence_in<'a>(a: &'a Article, row: &str, column: &str) -> &'a Sentence {
        a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == row && c.column_label == column)).unwrap_or_else(|| panic!("{row} › {column}"))
    }

    /// Each number of a sentence with its unit.
    fn read(s: &Sentence) -> Vec<(f64, Option<Unit>)> {
        s.numbers.iter().map(|n| (n.value, n.unit.clone())).collect()
    }

    /// JMH's summary table pasted in a code block, from twineworks/collections' README (MIT,
    /// `tests/fixtures/harness/jmh/SOURCE.md`), with the blank lines its author put between
    /// groups, and a parameterised table with a secondary metric: each score and error read in
    /// the row's unit, the count bare, and the name and parameters giving no number.
    #[test]
    fn a_jmh_table_in_code_reads_with_each_row_s_unit() {
        let md = "## Results\n\n```\n# Run complete. Total time: 00:11:09\n\nBenchmark                        Mode  Cnt   Score   Error  Units\nBigMapBenchmark.putHashMap       avgt   10  13.308 ± 1.121  ns/op\n\nSmallMapBenchmark.readShapeMap   avgt   10   7.003 ± 0.076  us/op\n```\n\n```\nBenchmark           (size)  Mode  Cnt      Score     Error   Units\nB.sum                 1024  thrpt   25   1283.859 ± 1034.753  ops/ms\nB.sum:·gc.alloc.rate.norm  1024  thrpt   25   24.000 ±   0.001    B/op\n```\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let cell = |row: &str, column: &str| sentence_in(&a, row, column);
        let score = cell("BigMapBenchmark.putHashMap", "Score");
        assert_eq!((&md[score.span.clone()], score.line), ("13.308", 7));
        assert_eq!(read(score), [(13.308, Some(Unit::Ns))]);
        assert_eq!(read(cell("BigMapBenchmark.putHashMap", "Error")), [(1.121, Some(Unit::Ns))]);
        assert_eq!(read(cell("BigMapBenchmark.putHashMap", "Cnt")), [(10.0, None)]);
        assert_eq!(read(cell("SmallMapBenchmark.readShapeMap", "Score")), [(7.003, Some(Unit::Us))]);
        assert!(cell("BigMapBenchmark.putHashMap", "Benchmark").numbers.is_empty());
        assert_eq!(read(cell("B.sum (size = 1024)", "Score")), [(1283.859, Some(Unit::Other("ops/ms".into())))]);
        assert_eq!(read(cell("B.sum:·gc.alloc.rate.norm (size = 1024)", "Error")), [(0.001, Some(Unit::Bytes))]);
        assert!(a.sentences.iter().all(|s| s.cell.as_ref().is_none_or(|c| c.row == 0 || c.column_label != "(size)")), "a parameter names the row");
        assert_eq!(a.word_count, 1);
    }

    /// JMH's table retyped as a Markdown pipe table, as READMEs quote it (s50600822/jmh_tut's
    /// layout, the `±` joined to the error; and a `±` column of its own with a parameter): the
    /// score and error take the row's `Units`, the count none, and the row is named by the
    /// benchmark and its parameters.
    #[test]
    fn a_jmh_table_as_pipes_takes_each_row_s_unit() {
        let md = "# R\n\n| Benchmark | Mode | Cnt | Score | Error | Units |\n|---|---|---|---|---|---|\n| MyBenchmark.testPointHashMap | thrpt | 25 | 2169.424 | ±20.832 | ops/s |\n| MyBenchmark.get | avgt | 25 | 4.398 | ±0.009 | ns/op |\n\n| Benchmark | (size) | Mode | Cnt | Score | | Error | Units |\n|---|---|---|---|---|---|---|---|\n| B.sum | 1024 | avgt | 5 | 12.5 | ± | 0.5 | us/op |\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let cell = |row: &str, column: &str| sentence_in(&a, row, column);
        assert_eq!(read(cell("MyBenchmark.testPointHashMap", "Score")), [(2169.424, Some(Unit::Other("ops/s".into())))]);
        assert_eq!(read(cell("MyBenchmark.testPointHashMap", "Error")), [(20.832, Some(Unit::Other("ops/s".into())))]);
        assert_eq!(read(cell("MyBenchmark.get", "Score")), [(4.398, Some(Unit::Ns))]);
        assert_eq!(read(cell("MyBenchmark.get", "Cnt")), [(25.0, None)]);
        assert_eq!(read(cell("B.sum (size = 1024)", "Score")), [(12.5, Some(Unit::Us))]);
        assert_eq!(read(cell("B.sum (size = 1024)", "Error")), [(0.5, Some(Unit::Us))]);
        assert!(a.sentences.iter().all(|s| s.cell.as_ref().is_none_or(|c| c.row == 0 || c.column_label != "(size)")), "a parameter names the row");
        assert!(cell("B.sum (size = 1024)", "Benchmark").numbers.is_empty());
    }

    /// BenchmarkDotNet's GitHub report as it writes it (the Chrysalis example's
    /// `AlonzoBenchmarks-report-github.md`, SAIB-Inc/Chrysalis, MIT, with a parameter column
    /// and a job column added in BenchmarkDotNet's layout): each row is named by its method and
    /// parameters, and by its job where the table shows one (`New: Job-ONJMYK [Size=10]`, as
    /// BenchmarkDotNet names a case), a parameter's or a job's value is no cell, every value
    /// keeps the unit it prints, and the sizes are binary (`4.64 MB` is 4.64 MiB). The same
    /// table in a code block, as its console prints it, reads the same way.
    #[test]
    fn a_benchmarkdotnet_report_names_rows_by_case_and_reads_binary_sizes() {
        let table = "| Method | Job        | Size | Mean      | Error     | Gen0     | Allocated | Code Size |\n|------- |----------- |----- |----------:|----------:|---------:|----------:|----------:|\n| New    | Job-ONJMYK | 10   |  4.081 ms | 0.1141 ms | 289.0625 |   4.64 MB |     226 B |\n| Old    | Job-ONJMYK | 10   | 14.965 ms | 0.1619 ms |        - |   8.04 KB |     226 B |\n";
        for md in [
            format!("# Alonzo\n\n```\nBenchmarkDotNet v0.14.0, Ubuntu 24.04.1 LTS\n```\n{table}"),
            format!("# Alonzo\n\n```\nBenchmarkDotNet v0.14.0, Ubuntu 24.04.1 LTS\n\n{table}```\n"),
        ] {
            let a = Article::parse("a.md", md.as_bytes()).unwrap();
            let cell = |row: &str, column: &str| sentence_in(&a, row, column);
            assert_eq!(read(cell("New: Job-ONJMYK [Size=10]", "Mean")), [(4.081, Some(Unit::Ms))]);
            assert_eq!(read(cell("Old: Job-ONJMYK [Size=10]", "Error")), [(0.1619, Some(Unit::Ms))]);
            assert_eq!(read(cell("New: Job-ONJMYK [Size=10]", "Gen0")), [(289.0625, None)]);
            assert_eq!(read(cell("New: Job-ONJMYK [Size=10]", "Allocated")), [(4.64, Some(Unit::MiB))]);
            assert_eq!(read(cell("Old: Job-ONJMYK [Size=10]", "Allocated")), [(8.04, Some(Unit::KiB))]);
            assert_eq!(read(cell("New: Job-ONJMYK [Size=10]", "Code Size")), [(226.0, Some(Unit::Bytes))]);
            assert!(cell("Old: Job-ONJMYK [Size=10]", "Gen0").numbers.is_empty());
            assert!(cell("New: Job-ONJMYK [Size=10]", "Method").numbers.is_empty());
            assert!(a.sentences.iter().all(|s| s.cell.as_ref().is_none_or(|c| c.row == 0 || c.column_label != "Size")), "a parameter names the row");
            assert!(a.sentences.iter().all(|s| s.cell.as_ref().is_none_or(|c| c.row == 0 || c.column_label != "Job")), "a job names the row");
            // The environment line is code, in either form.
            assert!(!a.sentences.iter().any(|s| s.numbers.iter().any(|n| n.value == 24.04)));
        }
    }

    /// BenchmarkDotNet's GitHub report names a method by its description in quotes, HTML-escaped
    /// (`&#39;Command  Send&#39;`, two rows of the net-mediate CI run's report,
    /// tests/fixtures/harness/benchmarkdotnet-log/, MIT): the row is the case as the log's
    /// reader names it, `'Command  Send': Job-CEIKLR`, its two spaces kept, in the Markdown
    /// table as in the console's table in a code block. Read as prose, the two spaces were one,
    /// and no selection of the evidence named the row, so `suggest` offered another row's records
    /// for its cells.
    #[test]
    fn a_benchmarkdotnet_report_names_a_described_method_with_its_spaces_and_quotes() {
        let markdown = "| Method                                 | Job        | IterationCount | Mean      | Error     | StdDev   | Gen0   | Allocated |\n|--------------------------------------- |----------- |--------------- |----------:|----------:|---------:|-------:|----------:|\n| &#39;Command  Send&#39;                        | Job-CEIKLR | Default        |  69.85 ns |  0.110 ns | 0.086 ns | 0.0018 |      32 B |\n| &#39;Stream  RequestStream (3 items/call)&#39; | ShortRun   | 3              | 171.07 ns | 32.894 ns | 1.803 ns | 0.0117 |     200 B |\n";
        let console = markdown.replace("&#39;", "'");
        for md in [format!("# Run\n\n{markdown}"), format!("# Run\n\n```\n{console}```\n")] {
            let a = Article::parse("a.md", md.as_bytes()).unwrap();
            let rows: std::collections::BTreeSet<&str> = a.sentences.iter().filter_map(|s| s.cell.as_ref()).filter(|c| c.row > 0).map(|c| c.row_label.as_str()).collect();
            assert_eq!(rows, std::collections::BTreeSet::from(["'Command  Send': Job-CEIKLR", "'Stream  RequestStream (3 items/call)': ShortRun"]), "{md}");
            assert_eq!(read(sentence_in(&a, "'Command  Send': Job-CEIKLR", "Mean")), [(69.85, Some(Unit::Ns))]);
            assert_eq!(read(sentence_in(&a, "'Stream  RequestStream (3 items/call)': ShortRun", "Error")), [(32.894, Some(Unit::Ns))]);
            assert_eq!(read(sentence_in(&a, "'Stream  RequestStream (3 items/call)': ShortRun", "Allocated")), [(200.0, Some(Unit::Bytes))]);
            // The method's `3` names the case and measures nothing; the job's iteration count
            // names the row too.
            assert!(sentence_in(&a, "'Stream  RequestStream (3 items/call)': ShortRun", "Method").numbers.is_empty());
            assert!(a.sentences.iter().all(|s| s.cell.as_ref().is_none_or(|c| c.row == 0 || c.column_label != "IterationCount")));
        }
    }

    /// great_expectations' contributing guide quotes `pytest-benchmark compare` as it printed
    /// it: each value is read in the header's seconds, the ratio after it as a multiple of the
    /// column's best, OPS in calls per second, outliers and rounds as bare counts, and the
    /// name, run appended, gives no number.
    #[test]
    fn a_pytest_benchmark_compare_table_in_code_reads_with_units_and_ratios() {
        let md = "## Comparing\n\n```\n$ py.test-benchmark compare a.json\n\n--- benchmark 'x': 2 tests ---\nName (time in s)                 Min             Outliers     OPS            Rounds\n---\ntest_t[1-True-V3] (initial_base)     5.0488 (1.0)         0;0  0.1981 (1.0)        1\ntest_t[1-True-V3] (2114_work)        6.4675 (1.28)        0;0  0.1546 (0.78)       1\n---\n```\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let cell = |row: &str, column: &str| a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == row && c.column_label == column)).unwrap();
        let read = |s: &Sentence| s.numbers.iter().map(|n| (n.text.clone(), n.unit.clone())).collect::<Vec<_>>();
        let min = cell("test_t[1-True-V3] (2114_work)", "Min");
        assert_eq!(min.text, "6.4675 (1.28)");
        assert_eq!(&md[min.span.clone()], "6.4675 (1.28)");
        assert_eq!(read(min), [("6.4675".to_string(), Some(Unit::S)), ("1.28".to_string(), Some(Unit::Times))]);
        let ops = cell("test_t[1-True-V3] (initial_base)", "OPS");
        assert_eq!(read(ops), [("0.1981".to_string(), Some(Unit::Other("ops/s".into()))), ("1.0".to_string(), Some(Unit::Times))]);
        assert_eq!(read(cell("test_t[1-True-V3] (initial_base)", "Outliers")), [("0".to_string(), None), ("0".to_string(), None)]);
        assert_eq!(read(cell("test_t[1-True-V3] (initial_base)", "Rounds")), [("1".to_string(), None)]);
        assert!(cell("test_t[1-True-V3] (initial_base)", "Name (time in s)").numbers.is_empty());
        assert_eq!(a.word_count, 1);
    }

    /// READMEs paste pytest-benchmark's table as a Markdown pipe table, first header and all:
    /// its cells read as the console table's do, whatever order or subset of its columns the
    /// table keeps, and a heading's unit gives a count none. A table whose first header is not
    /// pytest-benchmark's keeps the units its own headers give.
    #[test]
    fn a_pytest_benchmark_table_pasted_as_pipes_reads_with_units_and_ratios() {
        let md = "## Results (s)\n\n| Name (time in ms) | Min | Mean | Outliers | OPS (Kops/s) | Rounds |\n|:--|--:|--:|--:|--:|--:|\n| `test_dict[1-x]` | 16.8111 (1.0) | 17.2 (1.0) | 1;0 | 59.4845 (1.0) | 12 |\n| test_list | 142.5689 (8.48) | 166.4766 (9.68) | 0;3 | 6.0068 (0.10) | 5 |\n\n| Name | Min (ms) | Rounds |\n|---|---|---|\n| test_other | 3.5 | 7 |\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let cell = |row: &str, column: &str| a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == row && c.column_label == column)).unwrap();
        let read = |s: &Sentence| s.numbers.iter().map(|n| (n.text.clone(), n.unit.clone())).collect::<Vec<_>>();
        let times = |text: &str| (text.to_string(), Some(Unit::Times));
        assert_eq!(read(cell("test_list", "Min")), [("142.5689".to_string(), Some(Unit::Ms)), times("8.48")]);
        assert_eq!(read(cell("test_dict[1-x]", "Mean")), [("17.2".to_string(), Some(Unit::Ms)), times("1.0")]);
        assert!(cell("test_dict[1-x]", "Name (time in ms)").numbers.is_empty(), "a test's id gives no number");
        assert!(cell("test_list", "Name (time in ms)").numbers.is_empty());
        assert_eq!(read(cell("test_list", "OPS (Kops/s)")), [("6.0068".to_string(), Some(Unit::Other("Kops/s".into()))), times("0.10")]);
        assert_eq!(read(cell("test_list", "Outliers")), [("0".to_string(), None), ("3".to_string(), None)]);
        assert_eq!(read(cell("test_dict[1-x]", "Rounds")), [("12".to_string(), None)], "a count takes no unit, not even the heading's");
        assert_eq!(read(cell("test_other", "Min (ms)")), [("3.5".to_string(), Some(Unit::Ms))]);
        assert_eq!(read(cell("test_other", "Rounds")), [("7".to_string(), Some(Unit::S))], "another table's column takes the heading's unit as before");
    }

    /// Thousands grouped SI style, by a thin, narrow no-break or no-break space, are one number
    /// in the article as in a check, though the sentence's text shows a plain space where the
    /// source has one of them (as quotes and fingerprints compare it); a plain space groups
    /// nothing.
    #[test]
    fn thousands_grouped_by_thin_spaces_are_one_number() {
        let md = "# N\n\nWe read 1\u{202F}234\u{202F}567 rows in 2\u{2009}048 ms, not 1 234 rows.\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let s = &a.sentences[0];
        assert_eq!(s.text, "We read 1 234 567 rows in 2 048 ms, not 1 234 rows.");
        let read: Vec<(&str, f64)> = s.numbers.iter().map(|n| (n.text.as_str(), n.value)).collect();
        assert_eq!(read, [("1 234 567", 1_234_567.0), ("2 048 ms", 2048.0), ("1", 1.0), ("234", 234.0)]);
        assert_eq!(&md[s.source_span(&s.numbers[1].span)], "2\u{2009}048 ms");
    }

    #[test]
    fn lists_tables_quotes_and_captions_count() {
        let md = "# T\n\n- First item.\n- Second item.\n\n| a | b |\n|---|---|\n| Cell one. | Two. |\n\n> Quoted.\n\n![A caption.](f.svg)\n";
        assert_eq!(sentences(md), ["First item.", "Second item.", "a", "b", "Cell one.", "Two.", "Quoted.", "A caption."]);
    }

    #[test]
    fn image_destinations_are_kept_in_order() {
        let a = Article::parse("a.md", b"Text.\n\n![One.](figures/a.svg)\n\n![Two.](b.png \"t\")\n").unwrap();
        assert_eq!(a.images, ["figures/a.svg", "b.png"]);
    }

    /// READMEs size their figures with HTML: an `<img>` is one of the article's images, its
    /// `src` decoded as HTML decodes it, in document order with the Markdown ones; an `<img>`
    /// without a `src`, and a `src` on another element, are none.
    #[test]
    fn html_images_are_images_too() {
        let md = "![One.](a.svg)\n\n<p align=\"center\"><img width=\"400\" SRC='figs/b&amp;c.png' alt=\"B\"></p>\n\nText <img src=d.jpg> here.\n\n<img alt=\"none\">\n<script src=\"x.js\"></script>\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        assert_eq!(a.images, ["a.svg", "figs/b&c.png", "d.jpg"]);
    }

    #[test]
    fn sections_follow_the_heading_path() {
        let a = Article::parse("a.md", b"# Top\n\n## Graphs\n\nOne.\n\n## Fusion\n\nTwo.\n").unwrap();
        assert_eq!(a.sentences[0].section, ["Top", "Graphs"]);
        assert_eq!(a.sentences[1].section_title(), "Top › Fusion");
    }

    #[test]
    fn spans_and_lines_point_into_the_source() {
        let src = "# T\n\nFirst.\nSecond `code` here.\n";
        let a = Article::parse("a.md", src.as_bytes()).unwrap();
        let s = &a.sentences[1];
        assert_eq!(&src[s.span.clone()], "Second `code` here.");
        assert_eq!((s.line, s.col), (4, 1));
    }

    #[test]
    fn fingerprint_ignores_whitespace_runs() {
        assert_eq!(fingerprint("a  b\nc"), fingerprint("a b c"));
        assert_ne!(fingerprint("a b c"), fingerprint("a b d"));
    }

    #[test]
    fn non_utf8_is_located() {
        let err = Article::parse("a.md", b"ok\nab\xffc").unwrap_err();
        assert_eq!(err, ArticleError::NotUtf8 { path: "a.md".into(), line: 2, col: 3 });
    }

    /// MkDocs' containers: a note's body is prose of its own, a tab's fenced block is code
    /// (here a harness's table, read as one), each reported at its place in the file, and the
    /// manuscript's hash is the file's. A marker in a fenced block or indented as code, and a
    /// setext heading's `===`, are what they were.
    #[test]
    fn mkdocs_containers_are_read_as_the_site_shows_them() {
        let md = "# Results\n\nThe run below took 3 nodes.\n!!! note \"Why 2 GPUs\"\n    Each node held 2 GPUs and 4 cards.\n\n    A second paragraph of 5 words.\n\n=== \"Latency\"\n    ```\n    Benchmark        Time     CPU   Iterations\n    -------------------------------------------\n    BM_copy/64     21.5 ns   21.4 ns     3250000\n    ```\n\nAfter the tab, 7 runs.\n\n```\n!!! note \"in code\"\n    12 stays code\n```\n\n    !!! note \"indented code\"\n\nTitle 9\n===\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        assert_eq!(a.sha256, sha256_hex(md.as_bytes()), "the manuscript's hash is the file's");
        let at = |text: &str| a.sentences.iter().find(|s| s.text.contains(text)).map(|s| (s.text.clone(), s.line, s.col));
        assert_eq!(at("took 3 nodes"), Some(("The run below took 3 nodes.".to_string(), 3, 1)), "the marker does not join the paragraph above");
        assert_eq!(at("Each node"), Some(("Each node held 2 GPUs and 4 cards.".to_string(), 5, 5)));
        assert_eq!(at("second paragraph"), Some(("A second paragraph of 5 words.".to_string(), 7, 5)));
        let cell = a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.column_label == "Time")).unwrap();
        assert_eq!((cell.text.as_str(), cell.line, cell.col), ("21.5 ns", 13, 20), "the tab's block is a console table");
        assert_eq!(at("After the tab").map(|s| s.1), Some(16));
        assert!(at("12 stays code").is_none() && at("indented code").is_none(), "markers in code are code");
        assert!(!a.sentences.iter().any(|s| s.text.contains("Title 9")), "a setext underline is no marker: it makes a heading, which is no sentence");
    }

    #[test]
    fn sha256_is_over_exact_bytes() {
        let a = Article::parse("a.md", b"x\n").unwrap();
        assert_eq!(a.sha256, sha256_hex(b"x\n"));
        assert_ne!(a.sha256, sha256_hex(b"x"));
    }

    #[test]
    fn a_period_after_a_month_or_title_does_not_split() {
        let got = sentences("Results of Dec. 19, 2023 came from Dr. Smith. Next one.\n");
        assert_eq!(got, ["Results of Dec. 19, 2023 came from Dr. Smith.", "Next one."]);
    }

    const TABLE: &str = "# R\n\n## Time to First Token (seconds)\n\n| Framework | Median | Max (ms) | Speed |\n|---|---|---|---|\n| anyscale 5 | 0.21 | 710 | `4.10 s` (**1.21x faster**) |\n| groq | 0.22. Or so. | 9 % | `cmd --n 3` |\n\nProse with 0.5 here.\n";

    fn cell_at(a: &Article, text: &str) -> Cell {
        a.sentences.iter().find(|s| s.text == text).unwrap_or_else(|| panic!("no sentence {text:?}")).cell.clone().unwrap()
    }

    #[test]
    fn cells_know_their_table_row_and_column() {
        let a = Article::parse("a.md", TABLE.as_bytes()).unwrap();
        let c = cell_at(&a, "710");
        assert_eq!((c.table, c.row, c.column, c.row_label.as_str(), c.column_label.as_str()), (0, 1, 2, "anyscale 5", "Max (ms)"));
        assert_eq!(cell_at(&a, "Median").row, 0);
        assert_eq!(cell_at(&a, "groq").row_label, "groq");
        // A cell is one sentence, whatever periods it holds.
        assert_eq!(cell_at(&a, "0.22. Or so.").column_label, "Median");
        assert!(a.sentences.last().unwrap().cell.is_none());
    }

    #[test]
    fn a_header_or_heading_unit_applies_to_cells_that_state_none() {
        let a = Article::parse("a.md", TABLE.as_bytes()).unwrap();
        let units = |text: &str| a.sentences.iter().find(|s| s.text == text).unwrap().numbers.iter().map(|n| n.unit.clone()).collect::<Vec<_>>();
        assert_eq!(units("0.21"), [Some(Unit::S)], "the heading's unit");
        assert_eq!(units("710"), [Some(Unit::Ms)], "the header's unit wins over the heading's");
        assert_eq!(units("9 %"), [Some(Unit::Percent)], "a cell's own unit wins");
        assert_eq!(units("anyscale 5"), [None], "the first column names rows");
        assert_eq!(units("Prose with 0.5 here."), [None], "prose takes no unit from a heading");
    }

    /// pandoc's table captions, as Quarto and pandoc-crossref write them: a paragraph beginning
    /// `:` or `Table:` directly after or before a pipe table captions it, its `#id` names the
    /// table, and a unit it states applies to the cells as a heading's would, before the
    /// heading's.
    #[test]
    fn a_pandoc_caption_names_its_table_and_states_its_unit() {
        let md = "# Results (seconds)\n\n| Kernel | Median |\n|---|---|\n| copy | 5.7 |\n\n: Latency of each kernel (µs) {#tbl-latency tbl-colwidths=\"[75,25]\"}\n\n\
                  Table: Throughput {#tbl:throughput}\n\n| Kernel | Rate |\n|---|---|\n| copy | 3.9 |\n\n\
                  | Kernel | Median |\n|---|---|\n| fused | 6.1 |\n\n: Fused kernels, a caption with no id.\n\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        assert_eq!(a.table_names.iter().map(|(t, n)| (*t, n.as_str())).collect::<Vec<_>>(), [(0, "tbl-latency"), (1, "tbl:throughput")]);
        let numbers = |text: &str| {
            a.sentences.iter().find(|s| s.text.starts_with(text)).unwrap_or_else(|| panic!("{text}")).numbers.iter().map(|n| (n.text.clone(), n.unit.clone())).collect::<Vec<_>>()
        };
        assert_eq!(numbers("5.7"), [("5.7".to_string(), Some(Unit::Us))], "the caption's unit before the heading's");
        assert_eq!(numbers("3.9"), [("3.9".to_string(), Some(Unit::S))], "a caption without a unit leaves the heading's");
        assert_eq!(numbers("6.1"), [("6.1".to_string(), Some(Unit::S))]);
        assert!(numbers(": Latency").is_empty(), "the attributes' digits are no numbers");
        // The third table's caption would be the one after it; a paragraph that is the caption
        // after one table is not also the caption before the next, and `::` is none.
        let md = "| a | b |\n|---|---|\n| x | 1 |\n\n: First {#tbl-one}\n\n| a | b |\n|---|---|\n| x | 2 |\n\n:: no {#tbl-none}\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        assert_eq!(a.table_names.values().map(String::as_str).collect::<Vec<_>>(), ["tbl-one"]);
        // bookdown's label, before the table as knitr's `kable` writes it or after it, names
        // it too, and its digits are no number.
        let md = "Table: (\\#tab:kable-2) Build times (s)\n\n| a | b |\n|---|---|\n| x | 1.5 |\n\n| a | b |\n|---|---|\n| y | 2.5 |\n\nTable: (\\#tab:after) Times (ms)\n";
        let a = Article::parse("a.rmd", md.as_bytes()).unwrap();
        assert_eq!(a.table_names.values().map(String::as_str).collect::<Vec<_>>(), ["tab:kable-2", "tab:after"]);
        let numbers = |text: &str| a.sentences.iter().find(|s| s.text.starts_with(text)).unwrap().numbers.iter().map(|n| (n.text.clone(), n.unit.clone())).collect::<Vec<_>>();
        assert_eq!((numbers("1.5"), numbers("2.5")), (vec![("1.5".to_string(), Some(Unit::S))], vec![("2.5".to_string(), Some(Unit::Ms))]));
        assert!(numbers("Table: (#tab:kable-2)").is_empty());
        // A Quarto div around a table names it, its caption the div's last paragraph; a
        // subtable's own caption names it before the div around it does.
        let md = "::: {#tbl-single}\n| a | b |\n|---|---|\n| x | 1 |\n\nA caption.\n:::\n\n::: {#tbl-panel layout-ncol=2}\n| a | b |\n|---|---|\n| x | 2 |\n\n: First {#tbl-first}\n\n:::\n\n::: {.callout-note}\n| a | b |\n|---|---|\n| x | 3 |\n:::\n";
        let a = Article::parse("a.qmd", md.as_bytes()).unwrap();
        assert_eq!(a.table_names.iter().map(|(t, n)| (*t, n.as_str())).collect::<Vec<_>>(), [(0, "tbl-single"), (1, "tbl-first")]);
        // The div's caption states the cells' unit, a blank line before its fence or none; a
        // paragraph the fence does not close is no caption.
        for md in ["::: {#tbl-lat}\n| a | b |\n|---|---|\n| x | 1.5 |\n\nLatency (ms)\n:::\n", "::: {#tbl-lat}\n| a | b |\n|---|---|\n| x | 1.5 |\n\nLatency\n(ms)\n\n:::\n"] {
            let a = Article::parse("a.qmd", md.as_bytes()).unwrap();
            let cell = a.sentences.iter().find(|s| s.text == "1.5").unwrap();
            assert_eq!(cell.numbers[0].unit, Some(Unit::Ms), "{md}");
        }
        let a = Article::parse("a.qmd", b"::: {#tbl-lat}\n| a | b |\n|---|---|\n| x | 1.5 |\n\nLatency (ms)\n\nMore text.\n:::\n").unwrap();
        assert_eq!(a.sentences.iter().find(|s| s.text == "1.5").unwrap().numbers[0].unit, None);
        // An indented `:` after a table is code, no caption.
        let a = Article::parse("a.md", b"| a | b |\n|---|---|\n| x | 1 |\n\n    : code {#tbl-code}\n").unwrap();
        assert!(a.table_names.is_empty());
    }

    /// Front matter (YAML between `---` lines, or `...` closing it; TOML between `+++`) is no
    /// prose, only at the very start; the lines after it keep their numbers.
    #[test]
    fn front_matter_is_not_prose() {
        let md = "---\ntitle: \"Faster softmax\"\ndate: 2024-03-01\nfig-width: 8\n---\n\n# Results\n\nThe kernel took 5.7 µs.\n";
        let a = Article::parse("post.qmd", md.as_bytes()).unwrap();
        assert_eq!(a.sentences.iter().map(|s| s.text.as_str()).collect::<Vec<_>>(), ["The kernel took 5.7 µs."]);
        assert_eq!((a.sentences[0].line, a.sentences[0].section.clone()), (9, vec!["Results".to_string()]));
        let a = Article::parse("post.md", b"+++\ndate = 2024-03-01\n+++\nIt took 3 s.\n").unwrap();
        assert_eq!(sentences_of(&a), ["It took 3 s."]);
        let a = Article::parse("a.md", b"---\nweight: 5\n...\nIt took 3 s.\n").unwrap();
        assert_eq!(sentences_of(&a), ["It took 3 s."]);
        // Not at the start, not closed, or a blank first line: read as Markdown reads it.
        for md in ["Intro.\n\n---\nIt took 4 s.\n\nThen 5 s.\n\n---\n", "---\nIt took 4 s.\n", "---\n\nIt took 4 s.\n\n---\n"] {
            let a = Article::parse("a.md", md.as_bytes()).unwrap();
            assert!(a.sentences.iter().any(|s| s.text.contains("4 s")), "{md:?}: {:?}", sentences_of(&a));
        }
    }

    fn sentences_of(a: &Article) -> Vec<&str> {
        a.sentences.iter().map(|s| s.text.as_str()).collect()
    }

    /// pandoc's attributes after a heading, an image or a div's fence hold no numbers the
    /// article states; braces that are not attributes are read as text.
    #[test]
    fn pandoc_attributes_hold_no_numbers() {
        let md = "## Results {#sec-2}\n\n![A 2x speed-up](f.png){width=50% fig-alt=\"bar 3\"}\n\n::: {#tbl-panel layout-ncol=2}\nSee [the 4 runs]{.mark}.\n:::\n\nThe set {1.5, 2} holds 2 values.\n";
        let a = Article::parse("a.qmd", md.as_bytes()).unwrap();
        let numbers: Vec<Vec<&str>> = a.sentences.iter().map(|s| s.numbers.iter().map(|n| n.text.as_str()).collect()).collect();
        assert_eq!(numbers, [vec!["2x"], vec![], vec!["4"], vec![], vec!["1.5", "2", "2"]], "{:?}", sentences_of(&a));
    }

    /// wrk's sizes, pasted in a code block, are 1024-based (its `format_binary`), and its
    /// `Transfer/sec` is a rate: `4.83MB` there is 4.83 MiB/s, which converts to B/s and MB/s.
    #[test]
    fn wrk_s_transfer_rate_is_a_binary_rate() {
        let md = "# Load\n\n```\nRunning 5s test @ http://localhost:3000/\n  2 threads and 16 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   402.18us  120.07us   4.25ms   88.10%\n    Req/Sec    19.87k     0.93k   21.40k    71.00%\n  197712 requests in 5.00s, 24.13MB read\nRequests/sec:  39542.40\nTransfer/sec:      4.83MB\n```\n";
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let number = |text: &str| a.sentences.iter().find(|s| s.text == text).unwrap().numbers[0].clone();
        assert_eq!((number("4.83MB").value, number("4.83MB").unit), (4.83, Some(Unit::MiBPerS)));
        assert_eq!(number("24.13MB").unit, Some(Unit::MiB));
        assert_eq!(number("402.18us").unit, Some(Unit::Us));
        // A run of a minute or more: wrk prints its length and time in minutes, with a lone `m`.
        let md = md.replace("Running 5s", "Running 1m").replace("in 5.00s,", "in 1.00m,");
        let a = Article::parse("a.md", md.as_bytes()).unwrap();
        let time = a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.column_label == "Time")).unwrap();
        assert_eq!((time.text.as_str(), time.numbers[0].value, time.numbers[0].unit.clone()), ("1.00", 1.0, Some(Unit::Min)));
        assert_eq!(numbers::convert(time.numbers[0].value, time.numbers[0].unit.as_ref(), Some(&Unit::S)), Ok(60.0));
    }

    #[test]
    fn a_number_set_as_code_in_a_cell_is_read() {
        let a = Article::parse("a.md", TABLE.as_bytes()).unwrap();
        let texts = |text: &str| a.sentences.iter().find(|s| s.text == text).unwrap().numbers.iter().map(|n| n.text.clone()).collect::<Vec<_>>();
        assert_eq!(texts("4.10 s (1.21x faster)"), ["4.10 s", "1.21x"]);
        assert!(texts("cmd --n 3").is_empty());
        // In prose, code still gives no number.
        let a = Article::parse("a.md", b"Set `4.10 s` here.\n").unwrap();
        assert!(a.sentences[0].numbers.is_empty());
    }

    #[test]
    fn an_integer_in_link_text_is_an_ordinal() {
        let a = Article::parse("a.md", b"See [Table 2](#t2) and [a 2.5x speed-up](#s), then 3 runs.\n").unwrap();
        let texts: Vec<_> = a.sentences[0].numbers.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(texts, ["2.5x", "3"]);
    }

    /// The llmperf leaderboard excerpt: 224 numeric cells, each in seconds or tokens/s as its
    /// section heading says, and its prose split where its sentences end.
    #[test]
    fn the_llmperf_tables_read_with_their_units() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/llmperf-leaderboard/article/llmperf-leaderboard.md")).unwrap();
        let a = Article::parse("a.md", text.as_bytes()).unwrap();
        let cells: Vec<&Sentence> = a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0 && c.column > 1)).collect();
        assert_eq!(cells.len(), 224);
        assert!(cells.iter().all(|s| s.numbers.len() == 1), "a cell with other than one number");
        let tokens = Unit::Other("tokens/s".into());
        let (ttft, rate): (Vec<&Sentence>, Vec<&Sentence>) = cells.iter().copied().partition(|s| s.section.iter().any(|h| h.starts_with("Time to First Token")));
        assert_eq!((ttft.len(), rate.len()), (112, 112));
        assert!(ttft.iter().all(|s| s.numbers[0].unit == Some(Unit::S)));
        assert!(rate.iter().all(|s| s.numbers[0].unit.as_ref() == Some(&tokens)));
    }

    /// The anvil excerpt: each result cell holds a time and a speed-up, read from inline code
    /// and emphasis; the row labels in code give no number.
    #[test]
    fn the_anvil_cells_hold_a_time_and_a_speed_up() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/anvil-benchmarks/article/anvil-benchmarks.md")).unwrap();
        let a = Article::parse("a.md", text.as_bytes()).unwrap();
        let cells: Vec<&Sentence> = a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0 && c.column > 0)).collect();
        assert_eq!(cells.len(), 36);
        for s in &cells {
            let units: Vec<_> = s.numbers.iter().map(|n| n.unit.clone()).collect();
            assert!(matches!(units.as_slice(), [Some(Unit::S | Unit::Ms), Some(Unit::Times)]), "{}: {units:?}", s.text);
        }
        let c = cell_at(&a, "670.99 ms (✅ 1.20x faster)");
        assert_eq!((c.row_label.as_str(), c.column_label.as_str()), ("Block: 0, TotalGas: 30,312,275", "Ipc"));
        assert!(a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.column == 0)).all(|s| s.numbers.is_empty()));
    }

    /// A row's name is its first cell, or in HTML the first cells whose texts its label joins
    /// where the first spans rows; a header names its column; a value equal to the name is a
    /// value.
    #[test]
    fn cells_that_name_their_row_or_column() {
        let md = Article::parse("a.md", b"| n | t |\n|---|---|\n| 64 | 64 |\n").unwrap();
        let named: Vec<(String, Option<Names>)> = md.sentences.iter().map(|s| (s.text.clone(), s.names())).collect();
        assert_eq!(named, [("n".into(), Some(Names::Column)), ("t".into(), Some(Names::Column)), ("64".into(), Some(Names::Row)), ("64".into(), None)]);
        let html = "<table><tr><th>GPU</th><th>batch</th><th>t</th></tr><tr><td rowspan=\"2\">H 1</td><td>b 8</td><td>3 ms</td></tr><tr><td>b 16</td><td>5 ms</td></tr></table>\n";
        let a = Article::parse("a.md", html.as_bytes()).unwrap();
        let named: Vec<(&str, Option<Names>)> = a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0)).map(|s| (s.text.as_str(), s.names())).collect();
        assert_eq!(named, [("H 1", Some(Names::Row)), ("b 8", Some(Names::Row)), ("3 ms", None), ("b 16", Some(Names::Row)), ("5 ms", None)]);
    }

    #[test]
    fn a_heading_closes_deeper_ones_when_levels_are_skipped() {
        let a = Article::parse("a.md", b"# Top\n\n#### Deep\n\nOne.\n\n### Next\n\nTwo.\n\n## Side\n\nThree.\n").unwrap();
        let sections: Vec<String> = a.sentences.iter().map(Sentence::section_title).collect();
        assert_eq!(sections, ["Top › Deep", "Top › Next", "Top › Side"]);
    }
}
