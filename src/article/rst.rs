//! reStructuredText (docutils' and Sphinx's documents) read into the same prose blocks as
//! Markdown, so that everything after the article model (binding, locks, checks, `init`,
//! `suggest`) reads an `.rst` manuscript as it reads a `.md` one.
//!
//! What is prose, as a reader of the rendered page sees it: paragraphs, the items of bullet,
//! enumerated, field and option lists, definition lists' terms and definitions, block quotes,
//! footnotes, and the bodies of admonitions and of every directive not known to hold code.
//! Section titles (underlined, or over- and underlined, their levels in the order their styles
//! first appear, as docutils orders them) name sections. Grid tables, simple tables and the
//! `list-table` and `csv-table` directives are tables, each cell one sentence with its row and
//! column, the header rows labelling the columns (rows of a header joined with ` › `), a
//! `table` directive's title giving a unit as an enclosing heading does.
//!
//! What is code, and read only for the harness console tables it may hold ([`super::console`]):
//! literal blocks (after a paragraph ending `::`, indented or quoted), doctest blocks, and the
//! bodies of `code-block`, `code`, `sourcecode` and the other directives that show code or
//! program output. Inline literals (` ``x`` `), interpreted text in the default role and the
//! roles that name code (`:func:`, `:option:`, any domain's role) read as inline code does in
//! Markdown: in the sentence, but giving no number. A reference's text (`` `title <url>`_ ``,
//! `:ref:`title <label>``) reads as a link's. Comments, hyperlink targets, substitution
//! definitions and directives that only configure the build (`toctree`, `index`, `highlight`)
//! are not read. The text an `include` brings in is spliced in before this reader runs
//! ([`super::inputs`]); a `csv-table`'s `:file:` and raw HTML are not read, and say so as a
//! [`super::Warning`], since the page shows text the manuscript does not hold.
//!
//! Every byte of a sentence maps to its byte in the source, as Markdown's do.

use std::ops::Range;

use super::{Block, SplitCell, console_blocks, enter_heading, lay_out_table};

/// One line of the source: where it starts, its first character that is not a space or a tab
/// (its end when it is blank), where its text ends (before `\r\n` or `\n`) and where the next
/// line starts, and the column of its first character (a tab advancing to the next multiple
/// of 8, as docutils expands tabs).
#[derive(Debug, Clone, Copy)]
struct Ln {
    line_start: usize,
    start: usize,
    end: usize,
    next: usize,
    indent: usize,
}

impl Ln {
    fn blank(&self) -> bool {
        self.start >= self.end
    }
}

fn lines_of(source: &str) -> Vec<Ln> {
    let mut out = Vec::new();
    let mut line_start = 0;
    while line_start < source.len() {
        let next = source[line_start..].find('\n').map_or(source.len(), |i| line_start + i + 1);
        let mut end = if source[..next].ends_with('\n') { next - 1 } else { next };
        if source[..end].ends_with('\r') && end > line_start {
            end -= 1;
        }
        let (mut start, mut indent) = (line_start, 0);
        for b in source[line_start..end].bytes() {
            match b {
                b' ' => indent += 1,
                b'\t' => indent = (indent / 8 + 1) * 8,
                _ => break,
            }
            start += 1;
        }
        // Trailing whitespace is no part of a line's text.
        let end = start + source[start..end].trim_end().len();
        out.push(Ln { line_start, start, end, next, indent });
        line_start = next;
    }
    out
}

/// The prose blocks of reStructuredText `source`, the images it shows, and what it holds that
/// was not read, each at its source bytes.
pub(super) fn prose_blocks(source: &str) -> (Vec<Block>, Vec<String>, Vec<(Range<usize>, String)>) {
    let lines = lines_of(source);
    let mut reader =
        Reader { source, section: Vec::new(), levels: Vec::new(), styles: Vec::new(), blocks: Vec::new(), images: Vec::new(), warnings: Vec::new(), n_tables: 0, caption: None, name: None };
    reader.body(&lines, true);
    (reader.blocks, reader.images, reader.warnings)
}

struct Reader<'a> {
    source: &'a str,
    section: Vec<String>,
    levels: Vec<usize>,
    /// The title styles met so far (the adornment's character, and whether it has an
    /// overline), in order: a title's level is its style's place here, from 1.
    styles: Vec<(char, bool)>,
    blocks: Vec<Block>,
    images: Vec<String>,
    warnings: Vec<(Range<usize>, String)>,
    n_tables: usize,
    /// The title of the `table` directive whose body is being read: a unit at its end applies
    /// to the table's cells as an enclosing heading's would.
    caption: Option<String>,
    /// The `:name:` option of the table directive being read: the table's name, which a
    /// registry's cell may give instead of the table's place, as a LaTeX `\label`.
    name: Option<String>,
}

/// The characters docutils takes for section adornments and transitions.
const ADORNMENTS: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// The character `text` repeats when it is an adornment (a run of one of [`ADORNMENTS`]).
fn adornment(text: &str) -> Option<char> {
    let c = text.chars().next()?;
    (ADORNMENTS.contains(c) && text.chars().all(|x| x == c)).then_some(c)
}

/// Directives whose body is code or program output: read only for console tables.
const CODE_DIRECTIVES: &[&str] = &[
    "code-block",
    "code",
    "sourcecode",
    "parsed-literal",
    "doctest",
    "testcode",
    "testoutput",
    "testsetup",
    "testcleanup",
    "ipython",
    "jupyter-execute",
    "math",
    "graphviz",
    "digraph",
    "graph",
    "plot",
    "productionlist",
    "program-output",
    "command-output",
    "runblock",
    "mermaid",
    "uml",
    "prompt",
    "literalinclude",
];

/// Directives that configure the build, or whose argument and body are no prose a reader reads
/// (an index entry, a table of contents, the generated documentation of a module).
const SILENT_DIRECTIVES: &[&str] = &[
    "toctree",
    "contents",
    "index",
    "highlight",
    "meta",
    "sectnum",
    "section-numbering",
    "header",
    "footer",
    "default-role",
    "role",
    "tabularcolumns",
    "currentmodule",
    "module",
    "program",
    "sectionauthor",
    "moduleauthor",
    "codeauthor",
    "target-notes",
    "title",
    "autosummary",
    "automodule",
    "autoclass",
    "autofunction",
    "automethod",
    "autodata",
    "autoattribute",
    "autoexception",
    "autoprogram",
    "only-in-toc",
];

/// Directives whose argument is a version, not prose; their bodies are prose.
const VERSION_DIRECTIVES: &[&str] = &["versionadded", "versionchanged", "deprecated", "versionremoved"];

/// Directives that describe an object: the argument is a signature (code), the body prose.
const DESCRIPTION_DIRECTIVES: &[&str] = &[
    "function",
    "class",
    "method",
    "staticmethod",
    "classmethod",
    "attribute",
    "property",
    "data",
    "exception",
    "decorator",
    "decoratormethod",
    "option",
    "cmdoption",
    "envvar",
    "describe",
    "object",
    "confval",
    "type",
    "macro",
    "member",
    "var",
    "struct",
    "enum",
    "enumerator",
];

/// Roles whose text is a reference: it reads as a link's text (`title` of `title <target>`).
const REFERENCE_ROLES: &[&str] = &["ref", "doc", "term", "numref", "any", "download", "pep", "rfc", "issue", "gh", "pr"];

/// Roles whose text is prose as it reads.
const TEXT_ROLES: &[&str] = &["emphasis", "strong", "title-reference", "title", "t", "subscript", "sub", "guilabel", "menuselection", "dfn", "abbr"];

impl<'a> Reader<'a> {
    fn text(&self, ln: Ln) -> &'a str {
        &self.source[ln.start..ln.end]
    }

    fn warn(&mut self, at: Range<usize>, message: impl Into<String>) {
        self.warnings.push((at, message.into()));
    }

    /// The byte at which column `column` of `ln` begins: within its indentation, the space or
    /// tab that reaches it; past it, one byte a column from its first character.
    fn byte_at(&self, ln: Ln, column: usize) -> usize {
        if column >= ln.indent {
            return (ln.start + (column - ln.indent)).min(ln.end.max(ln.start));
        }
        let mut col = 0;
        for (i, b) in self.source[ln.line_start..ln.start].bytes().enumerate() {
            if col >= column {
                return ln.line_start + i;
            }
            col = if b == b'\t' { (col / 8 + 1) * 8 } else { col + 1 };
        }
        ln.start
    }

    /// Reads a sequence of body elements. `top` is true for the document's own level, the only
    /// one where section titles stand.
    fn body(&mut self, lines: &[Ln], top: bool) {
        let Some(base) = lines.iter().filter(|l| !l.blank()).map(|l| l.indent).min() else { return };
        let mut i = 0;
        while i < lines.len() {
            let ln = lines[i];
            if ln.blank() {
                i += 1;
                continue;
            }
            if ln.indent > base {
                // A block quote: its own sequence of body elements.
                let j = indented_end(lines, i, base);
                self.body(&lines[i..j], false);
                i = j;
                continue;
            }
            let text = self.text(ln);
            if let Some(n) = top.then(|| self.title(lines, i)).flatten() {
                i += n;
            } else if adornment(text).is_some() && text.chars().count() >= 4 && (i == 0 || lines[i - 1].blank()) && lines.get(i + 1).is_none_or(|l| l.blank()) {
                // A transition: a rule, no text.
                i += 1;
            } else if is_grid_border(text) {
                i = self.grid_table(lines, i, base);
            } else if is_simple_border(text) {
                i = self.simple_table(lines, i, base);
            } else if text == ".." || text.starts_with(".. ") || text.starts_with("..\t") {
                i = self.explicit(lines, i, base);
            } else if text.starts_with(">>>") {
                let j = (i..lines.len()).find(|&k| lines[k].blank()).unwrap_or(lines.len());
                self.code(&lines[i..j]);
                i = j;
            } else if let Some(marker) = bullet(text) {
                i = self.list(lines, i, base, &|t| bullet(t).filter(|m| t[..*m].trim() == text[..marker].trim()));
            } else if enumerator(text).is_some() && self.starts_list(lines, i, base) {
                i = self.list(lines, i, base, &enumerator);
            } else if field_marker(text).is_some() {
                i = self.list(lines, i, base, &field_marker);
            } else if option_marker(text).is_some() {
                i = self.list(lines, i, base, &option_marker);
            } else {
                i = self.paragraph(lines, i, base);
            }
        }
    }

    /// Whether an enumerator at line `i` starts a list rather than a paragraph that happens to
    /// begin with one (`A. Smith wrote`): as docutils has it, the line after it is blank,
    /// indented, another item, or there is none.
    fn starts_list(&self, lines: &[Ln], i: usize, base: usize) -> bool {
        match lines.get(i + 1) {
            None => true,
            Some(l) => l.blank() || l.indent > base || enumerator(self.text(*l)).is_some(),
        }
    }

    /// A section title at line `i` (over- and underlined, or underlined): enters its section
    /// and says how many lines it took.
    fn title(&mut self, lines: &[Ln], i: usize) -> Option<usize> {
        let first = self.text(lines[i]);
        let (title, style, taken) = if let Some(c) = adornment(first) {
            let (mid, under) = (lines.get(i + 1)?, lines.get(i + 2)?);
            let under_text = self.text(*under);
            if mid.blank() || under.blank() || adornment(under_text) != Some(c) || adornment(self.text(*mid)).is_some() {
                return None;
            }
            (*mid, (c, true), 3)
        } else {
            let under = lines.get(i + 1)?;
            let under_text = self.text(*under);
            let c = adornment(under_text)?;
            let (width, length) = (first.chars().count(), under_text.chars().count());
            // Docutils takes an underline shorter than its title as text where it is under four
            // characters long, and as a title (with a warning) otherwise.
            if under.indent != lines[i].indent || (length < width && length < 4) {
                return None;
            }
            (lines[i], (c, false), 2)
        };
        let level = match self.styles.iter().position(|s| *s == style) {
            Some(k) => k + 1,
            None => {
                self.styles.push(style);
                self.styles.len()
            }
        };
        let mut block = Block::new(&self.section, true);
        self.inline(&mut block, &[title.start..title.end]);
        enter_heading(&mut self.section, &mut self.levels, level, block, &mut self.blocks);
        Some(taken)
    }

    /// A paragraph from line `i`: its lines, a literal block after it where it ends with `::`,
    /// or a definition list's item where one line is followed by an indented one.
    fn paragraph(&mut self, lines: &[Ln], i: usize, base: usize) -> usize {
        let mut j = i + 1;
        while j < lines.len() && !lines[j].blank() && lines[j].indent == base {
            j += 1;
        }
        // A line block: each line after its `| `.
        let line_block = self.text(lines[i]).starts_with("| ") || self.text(lines[i]) == "|";
        let pieces: Vec<Range<usize>> = lines[i..j]
            .iter()
            .map(|l| {
                let text = self.text(*l);
                let skip = if line_block && (text.starts_with("| ") || text == "|") { 1 } else { 0 };
                l.start + skip..l.end
            })
            .collect();
        if j == i + 1 && lines.get(j).is_some_and(|l| !l.blank() && l.indent > base) {
            // A definition list's item: the term, then its definition. A term that is a
            // command's option (`--loops=1000`, its description under it) is no prose.
            let k = indented_end(lines, j, base);
            if !is_option(self.text(lines[i])) {
                self.prose(&pieces);
            }
            self.body(&lines[j..k], false);
            return k;
        }
        let last = pieces.last().cloned().unwrap_or(0..0);
        let literal = self.source[last.clone()].ends_with("::");
        let mut pieces = pieces;
        if literal {
            // `text::` reads `text:`; `text ::` and a lone `::` read nothing of the marker.
            let piece = pieces.last_mut().expect("a paragraph has a line");
            let before = &self.source[piece.start..piece.end - 2];
            piece.end -= if before.is_empty() || before.ends_with(char::is_whitespace) { 2 } else { 1 };
            piece.end = piece.start + self.source[piece.clone()].trim_end().len();
        }
        self.prose(&pieces);
        if !literal {
            return j;
        }
        let Some(k) = (j..lines.len()).find(|&k| !lines[k].blank()) else { return lines.len() };
        if lines[k].indent > base {
            let end = indented_end(lines, k, base);
            self.code(&lines[k..end]);
            return end;
        }
        // A quoted literal block: unindented lines that each begin with the same punctuation.
        let quote = self.text(lines[k]).chars().next().filter(|c| ADORNMENTS.contains(*c));
        if let Some(q) = quote {
            let end = (k..lines.len()).find(|&m| lines[m].blank() || lines[m].indent != base || !self.text(lines[m]).starts_with(q)).unwrap_or(lines.len());
            self.code(&lines[k..end]);
            return end;
        }
        j
    }

    /// One prose block of the text of `pieces`, each a line's text, the lines joined by spaces.
    fn prose(&mut self, pieces: &[Range<usize>]) {
        let mut block = Block::new(&self.section, false);
        self.inline(&mut block, pieces);
        let end = pieces.last().map_or(0, |p| p.end);
        if let Some(b) = block.finish(end) {
            self.blocks.push(b);
        }
    }

    /// A list's items from line `i`, each item's body its own body elements: the item's first
    /// line after its marker (`marker` says how many bytes the marker and the spaces after it
    /// take, and whether a line starts another item of the list), and the lines indented under
    /// it.
    fn list(&mut self, lines: &[Ln], i: usize, base: usize, marker: &dyn Fn(&str) -> Option<usize>) -> usize {
        let mut i = i;
        while i < lines.len() && !lines[i].blank() && lines[i].indent == base {
            let Some(width) = marker(self.text(lines[i])) else { break };
            let end = indented_end(lines, i + 1, base);
            let item = self.item_lines(lines, i, width, end);
            self.body(&item, false);
            i = end;
            // Blank lines between items belong to the list.
            let next = (i..lines.len()).find(|&k| !lines[k].blank()).unwrap_or(lines.len());
            if next < lines.len() && lines[next].indent == base && marker(self.text(lines[next])).is_some() {
                i = next;
            }
        }
        i
    }

    /// The lines of an item whose marker takes `width` bytes of line `i`'s text, its body
    /// running to line `end`: the first line begins after the marker, at the indentation of
    /// the lines under it where they are indented less than its text (a field's body).
    fn item_lines(&self, lines: &[Ln], i: usize, width: usize, end: usize) -> Vec<Ln> {
        let ln = lines[i];
        let rest = &lines[i + 1..end];
        let mut first = ln;
        first.start = ln.start + width;
        first.start += self.source[first.start..ln.end].len() - self.source[first.start..ln.end].trim_start().len();
        let column = ln.indent + self.source[ln.start..first.start].chars().count();
        let under = rest.iter().filter(|l| !l.blank()).map(|l| l.indent).min();
        first.indent = under.map_or(column, |u| u.min(column));
        let mut item = vec![first];
        item.extend_from_slice(rest);
        item
    }

    /// Literal text (a literal block, a doctest block, a code directive's body): read for the
    /// console tables it may hold, each line without the indentation the block shares.
    fn code(&mut self, lines: &[Ln]) {
        let Some(min) = lines.iter().filter(|l| !l.blank()).map(|l| l.indent).min() else { return };
        let last = lines.iter().rposition(|l| !l.blank()).map_or(0, |k| k + 1);
        let mut parts: Vec<(String, Range<usize>)> = Vec::new();
        for ln in &lines[..last] {
            let from = if ln.blank() { ln.end } else { self.byte_at(*ln, min) };
            let content = &self.source[from..ln.end];
            if !content.is_empty() {
                parts.push((content.to_string(), from..ln.end));
            }
            parts.push(("\n".to_string(), ln.end..ln.next.max(ln.end)));
        }
        self.n_tables += console_blocks(&parts, self.source, &self.section, self.n_tables, &mut self.blocks);
    }

    /// Explicit markup at line `i`: a footnote or citation (prose), a directive, a hyperlink
    /// target, a substitution definition or a comment.
    fn explicit(&mut self, lines: &[Ln], i: usize, base: usize) -> usize {
        let end = indented_end(lines, i + 1, base);
        let ln = lines[i];
        let rest = self.text(ln)[2..].trim_start();
        let rest_at = ln.end - rest.len();
        if rest.starts_with('[')
            && let Some(close) = rest.find(']')
            && rest[close + 1..].chars().next().is_none_or(char::is_whitespace)
        {
            let item = self.item_lines(lines, i, rest_at - ln.start + close + 1, end);
            self.body(&item, false);
            return end;
        }
        if rest.starts_with('|') {
            // A substitution definition; an image it defines is shown where it is used.
            if let Some(at) = rest.find("image::").or_else(|| rest.find("figure::")) {
                let path = rest[at..].split_once("::").map_or("", |(_, p)| p.trim());
                if !path.is_empty() {
                    self.images.push(path.to_string());
                }
            }
            return end;
        }
        let Some((name, argument)) = directive(rest) else {
            // A hyperlink target (`.. _name:`) or a comment: nothing a reader reads.
            return end;
        };
        let argument_at = rest_at + (rest.len() - argument.len());
        let name = name.to_ascii_lowercase();
        let bare = name.rsplit(':').next().unwrap_or(&name).to_string();
        // The body: options (a field list straight after the directive line), then content.
        let body = &lines[i + 1..end];
        let mut k = 0;
        let mut options: Vec<(String, Ln)> = Vec::new();
        while let Some(option) = body.get(k).filter(|l| !l.blank()).and_then(|l| option_of(self.text(*l))) {
            options.push((option.to_string(), body[k]));
            k += 1;
        }
        let content = &body[k.min(body.len())..];
        let option = |name: &str| options.iter().find(|(o, _)| o == name).map(|(_, l)| *l);
        let argument_range = argument_at..argument_at + argument.len();
        match bare.as_str() {
            _ if CODE_DIRECTIVES.contains(&bare.as_str()) => {
                if bare == "literalinclude" {
                    self.warn(ln.start..ln.end, format!("`.. {name}::` shows {argument}, another file, which is not read"));
                }
                self.code(content);
            }
            // What an include at the start of a line brings in is spliced in before reading
            // ([`super::inputs`]), and one left there could not be read and was warned of; an
            // indented one (in a directive's body) is not spliced, since its text would leave
            // the block it belongs to.
            "include" => {
                let line_start = self.source[..ln.start].rfind('\n').map_or(0, |k| k + 1);
                if !self.source[line_start..].starts_with("..") {
                    self.warn(ln.start..ln.end, format!("not read: `.. include:: {argument}` is indented, inside a block, where its text is not spliced in"));
                }
            }
            "raw" => self.warn(ln.start..ln.end, "raw output (`.. raw::`) is not read"),
            "image" | "figure" => {
                if !argument.is_empty() {
                    self.images.push(argument.to_string());
                }
                if let Some(alt) = option("alt") {
                    let value = self.option_value(alt);
                    self.prose(&[alt.end - value.len()..alt.end]);
                }
                self.body(content, false);
            }
            "table" => {
                let caption = (!argument.is_empty()).then(|| argument.to_string());
                if caption.is_some() {
                    self.prose(&[argument_range]);
                }
                let outer = std::mem::replace(&mut self.caption, caption);
                let name = self.name_in(option("name"));
                let outer_name = std::mem::replace(&mut self.name, name);
                self.body(content, false);
                self.caption = outer;
                self.name = outer_name;
            }
            "list-table" => {
                if !argument.is_empty() {
                    self.prose(&[argument_range.clone()]);
                }
                let header_rows = option("header-rows").and_then(|l| self.option_value(l).parse().ok()).unwrap_or(0);
                let caption = (!argument.is_empty()).then(|| argument.to_string());
                let name = self.name_in(option("name"));
                let outer_name = std::mem::replace(&mut self.name, name);
                self.list_table(content, header_rows, caption);
                self.name = outer_name;
            }
            "csv-table" => {
                if !argument.is_empty() {
                    self.prose(&[argument_range.clone()]);
                }
                if let Some(file) = option("file").or_else(|| option("url")) {
                    self.warn(file.start..file.end, "a `csv-table` whose rows are in another file: they are not read");
                }
                let caption = (!argument.is_empty()).then(|| argument.to_string());
                let name = self.name_in(option("name"));
                let outer_name = std::mem::replace(&mut self.name, name);
                self.csv_table(content, option("header"), option("header-rows"), option("delim"), caption);
                self.name = outer_name;
            }
            _ if SILENT_DIRECTIVES.contains(&bare.as_str()) => {}
            _ if VERSION_DIRECTIVES.contains(&bare.as_str()) => {
                // The version is no claim; text after it on the same line is the body's start.
                let version_end = argument.find(char::is_whitespace).unwrap_or(argument.len());
                let after = argument[version_end..].trim_start();
                if !after.is_empty() {
                    let at = argument_range.end - after.len();
                    let mut first = ln;
                    first.start = at;
                    self.body(&[first], false);
                }
                self.body(content, false);
            }
            _ if DESCRIPTION_DIRECTIVES.contains(&bare.as_str()) || name.contains(':') => self.body(content, false),
            _ => {
                // An admonition or any other directive: its argument and body are prose.
                let mut item = Vec::new();
                if !argument.is_empty() {
                    let mut first = ln;
                    first.start = argument_at;
                    first.indent = content.iter().filter(|l| !l.blank()).map(|l| l.indent).min().unwrap_or(ln.indent + 3);
                    item.push(first);
                    // A blank line parts the argument from the content, which an admonition's
                    // first line runs into where none does.
                    if k > 0 || content.first().is_some_and(|l| l.blank()) {
                        item.push(Ln { line_start: ln.end, start: ln.end, end: ln.end, next: ln.end, indent: 0 });
                    }
                }
                item.extend_from_slice(content);
                self.body(&item, false);
            }
        }
        end
    }

    /// The value of a directive's option line (`:header-rows: 1` gives `1`).
    /// A table directive's `:name:`, where it gives one.
    fn name_in(&self, option: Option<Ln>) -> Option<String> {
        option.map(|ln| self.option_value(ln).to_string()).filter(|name| !name.is_empty())
    }

    fn option_value(&self, ln: Ln) -> &str {
        let text = self.text(ln);
        option_of(text).map_or("", |name| text[name.len() + 2..].trim())
    }

    /// A grid table from its top border at line `i`.
    fn grid_table(&mut self, lines: &[Ln], i: usize, base: usize) -> usize {
        let mut j = i;
        while j < lines.len() && !lines[j].blank() && lines[j].indent == base && matches!(self.text(lines[j]).chars().next(), Some('+' | '|')) {
            j += 1;
        }
        let grid: Vec<Vec<(char, usize)>> = lines[i..j].iter().map(|l| self.source[l.start..l.end].char_indices().map(|(k, c)| (c, l.start + k)).collect()).collect();
        match trace_grid(&grid) {
            Some((cells, header_end)) => {
                let header_rows = header_end.map_or(0, |h| cells.iter().filter(|c| c.bottom <= h).map(|c| c.top).collect::<std::collections::BTreeSet<_>>().len());
                let rows = grid_rows(&cells);
                let placed: Vec<TableCell> = cells
                    .iter()
                    .map(|c| {
                        let pieces = (c.top + 1..c.bottom)
                            .filter_map(|r| {
                                let line = &grid[r];
                                let from = line.get(c.left + 1).map(|x| x.1)?;
                                let to = line.get(c.right).map_or(lines[i + r].end, |x| x.1);
                                let text = &self.source[from..to];
                                let lead = text.len() - text.trim_start().len();
                                let piece = from + lead..from + text.trim_end().len();
                                (!piece.is_empty()).then_some(piece)
                            })
                            .collect();
                        TableCell {
                            row: rows.0.binary_search(&c.top).unwrap_or(0),
                            column: rows.1.binary_search(&c.left).unwrap_or(0),
                            columns: rows.1.iter().filter(|&&x| x >= c.left && x < c.right).count(),
                            content: pieces,
                        }
                    })
                    .collect();
                self.table(placed, header_rows, lines[j - 1].end, None);
            }
            None => {
                self.warn(lines[i].start..lines[j - 1].end, "a grid table whose borders do not meet: its text is read as a paragraph");
                self.prose(&lines[i..j].iter().map(|l| l.start..l.end).collect::<Vec<_>>());
            }
        }
        j
    }

    /// A simple table from its top border at line `i`: columns where the border's runs of `=`
    /// stand, a row's line whose first column is blank continuing the row above, a second
    /// border ending the header where a third follows.
    fn simple_table(&mut self, lines: &[Ln], i: usize, base: usize) -> usize {
        let columns = border_columns(self.text(lines[i]));
        // The borders: the table ends at one followed by a blank line or the end.
        let mut borders = vec![i];
        let mut k = i + 1;
        let end = loop {
            if k >= lines.len() {
                break None;
            }
            let l = lines[k];
            if !l.blank() && l.indent == base && is_simple_border(self.text(l)) {
                borders.push(k);
                if lines.get(k + 1).is_none_or(|n| n.blank()) {
                    break Some(k);
                }
            } else if !l.blank() && l.indent < base {
                break None;
            }
            k += 1;
        };
        let Some(end) = end else {
            self.warn(lines[i].start..lines[i].end, "a simple table with no bottom border: its text is read as a paragraph");
            return self.paragraph(lines, i, base);
        };
        let header_end = (borders.len() >= 3).then(|| borders[1]);
        let mut cells: Vec<TableCell> = Vec::new();
        let (mut row, mut started, mut header_rows) = (0usize, false, 0usize);
        for (r, l) in lines.iter().enumerate().take(end).skip(i + 1) {
            // Blank lines and the dashed lines that underline column spans hold no cell text.
            if l.blank() || borders.contains(&r) || self.text(*l).chars().all(|c| c == '-' || c == ' ') {
                continue;
            }
            let chars: Vec<usize> = self.source[l.start..l.end].char_indices().map(|(b, _)| l.start + b).collect();
            let offset = l.indent - base;
            let at = |column: usize| if column < offset { l.start } else { chars.get(column - offset).copied().unwrap_or(l.end) };
            let pieces: Vec<Range<usize>> = columns
                .iter()
                .enumerate()
                .map(|(c, column)| {
                    let (from, to) = (at(column.start), columns.get(c + 1).map_or(l.end, |n| at(n.start)));
                    let text = &self.source[from..to.max(from)];
                    from + (text.len() - text.trim_start().len())..from + text.trim_end().len()
                })
                .collect();
            if started && pieces[0].is_empty() {
                // A continuation line: each column's text joins its cell in the row above.
                for (c, piece) in pieces.into_iter().enumerate().filter(|(_, p)| !p.is_empty()) {
                    if let Some(cell) = cells.iter_mut().find(|x| x.row == row && x.column == c) {
                        cell.content.push(piece);
                    }
                }
                continue;
            }
            if started {
                row += 1;
            }
            started = true;
            if header_end.is_some_and(|h| r < h) {
                header_rows = row + 1;
            }
            for (c, piece) in pieces.into_iter().enumerate() {
                cells.push(TableCell { row, column: c, columns: 1, content: if piece.is_empty() { Vec::new() } else { vec![piece] } });
            }
        }
        self.table(cells, header_rows, lines[end].end, None);
        end + 1
    }

    /// A `list-table` directive's body: a bullet list of rows, each a bullet list of cells.
    fn list_table(&mut self, content: &[Ln], header_rows: usize, caption: Option<String>) {
        let mut cells = Vec::new();
        let rows = self.items(content);
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in self.items(row).iter().enumerate() {
                let pieces = cell.iter().filter(|l| !l.blank()).map(|l| l.start..l.end).collect();
                cells.push(TableCell { row: r, column: c, columns: 1, content: pieces });
            }
        }
        let end = content.iter().rev().find(|l| !l.blank()).map_or(0, |l| l.end);
        self.table(cells, header_rows, end, caption);
    }

    /// The items of the bullet list that `lines` hold, each as its lines (the first after its
    /// marker).
    fn items(&self, lines: &[Ln]) -> Vec<Vec<Ln>> {
        let Some(base) = lines.iter().filter(|l| !l.blank()).map(|l| l.indent).min() else { return Vec::new() };
        let mut out = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            if lines[i].blank() || lines[i].indent != base {
                i += 1;
                continue;
            }
            let Some(width) = bullet(self.text(lines[i])) else {
                i += 1;
                continue;
            };
            let end = indented_end(lines, i + 1, base);
            let mut item = self.item_lines(lines, i, width, end);
            if item[0].blank() {
                item.remove(0);
            }
            out.push(item);
            i = end;
        }
        out
    }

    /// A `csv-table` directive's header option and body, each line a row of fields split at the
    /// delimiter (a comma unless `:delim:` names another), a field in double quotes holding
    /// delimiters and doubled quotes, spaces after a delimiter skipped (as docutils reads them).
    fn csv_table(&mut self, content: &[Ln], header: Option<Ln>, header_rows: Option<Ln>, delim: Option<Ln>, caption: Option<String>) {
        let delimiter = delim.map(|l| self.option_value(l)).and_then(|v| match v {
            "tab" => Some('\t'),
            "space" => Some(' '),
            v if v.chars().count() == 1 => v.chars().next(),
            _ => None,
        });
        let delimiter = delimiter.unwrap_or(',');
        let mut cells = Vec::new();
        let mut row = 0;
        let mut header_count = 0;
        if let Some(h) = header {
            let value = self.option_value(h);
            let at = h.end - value.len();
            for (c, field) in csv_fields(&self.source[at..h.end], delimiter).into_iter().enumerate() {
                cells.push(TableCell { row, column: c, columns: 1, content: vec![at + field.start..at + field.end] });
            }
            row += 1;
            header_count = 1;
        }
        for l in content.iter().filter(|l| !l.blank()) {
            for (c, field) in csv_fields(&self.source[l.start..l.end], delimiter).into_iter().enumerate() {
                cells.push(TableCell { row, column: c, columns: 1, content: vec![l.start + field.start..l.start + field.end] });
            }
            row += 1;
        }
        let header_rows = header_count + header_rows.and_then(|l| self.option_value(l).parse::<usize>().ok()).unwrap_or(0);
        let end = content.iter().rev().find(|l| !l.blank()).map_or(header.map_or(0, |h| h.end), |l| l.end);
        self.table(cells, header_rows, end, caption);
    }

    /// Lays out one table's cells as table-cell blocks (see [`super::lay_out_table`]), each
    /// cell's text its pieces read as inline markup, a unit in the `table` directive's title
    /// applying to the cells as an enclosing heading's would.
    fn table(&mut self, cells: Vec<TableCell>, header_rows: usize, end: usize, caption: Option<String>) {
        let index = self.n_tables;
        self.n_tables += 1;
        let mut unit_section = self.section.clone();
        unit_section.extend(caption.or_else(|| self.caption.clone()));
        let section = self.section.clone();
        let mut blocks = std::mem::take(&mut self.blocks);
        let first_block = blocks.len();
        lay_out_table(&mut blocks, index, &section, &unit_section, cells, header_rows, end, |block, pieces| self.inline(block, pieces));
        for block in blocks.iter_mut().skip(first_block).filter(|b| b.cell.is_some()) {
            block.table_name.clone_from(&self.name);
        }
        self.blocks = blocks;
    }

    /// Appends the text of `pieces` (each a stretch of one line) to `block`, the pieces joined
    /// by spaces, its inline markup read: literals and code roles as code, references as links,
    /// emphasis and strong emphasis as their text, footnote references and escapes dropped.
    fn inline(&self, block: &mut Block, pieces: &[Range<usize>]) {
        let mut joined = String::new();
        let mut map: Vec<usize> = Vec::new();
        for (k, piece) in pieces.iter().enumerate() {
            if k > 0 {
                joined.push('\n');
                map.push(pieces[k - 1].end);
            }
            joined.push_str(&self.source[piece.clone()]);
            map.extend(piece.clone());
        }
        map.push(pieces.last().map_or(0, |p| p.end));
        for (kind, range) in inline_pieces(&joined) {
            let start = block.text.len();
            match kind {
                Piece::Sup => block.push_char('^', map[range.start]..map[range.start] + 1),
                _ => self.push_mapped(block, &joined, &map, range),
            }
            match kind {
                Piece::Code => block.code.push(start..block.text.len()),
                Piece::Link => block.links.push(start..block.text.len()),
                Piece::Text | Piece::Sup => {}
            }
        }
    }

    /// Pushes `joined[range]` onto `block`, a stretch at a time between line breaks, each from
    /// its own bytes of the source; a line break reads as a space.
    fn push_mapped(&self, block: &mut Block, joined: &str, map: &[usize], range: Range<usize>) {
        let mut at = range.start;
        for segment in joined[range.clone()].split('\n') {
            if at > range.start {
                block.push(" ", self.source, map[at - 1]..map[at - 1]);
            }
            if !segment.is_empty() {
                let (from, to) = (map[at], map[at + segment.len() - 1] + 1);
                block.push(segment, self.source, from..to);
            }
            at += segment.len() + 1;
        }
    }
}

/// One cell of a table being read, its text a stretch of the source a line.
type TableCell = SplitCell<Vec<Range<usize>>>;

/// The index of the first line after `i` that is not blank and is indented no more than
/// `base`: where an indented block that starts at `i` ends.
fn indented_end(lines: &[Ln], i: usize, base: usize) -> usize {
    let mut j = i;
    while j < lines.len() && (lines[j].blank() || lines[j].indent > base) {
        j += 1;
    }
    j
}

fn is_grid_border(text: &str) -> bool {
    text.len() >= 3 && text.starts_with('+') && text.ends_with('+') && text.chars().all(|c| matches!(c, '+' | '-' | '=')) && text.contains(['-', '='])
}

fn is_simple_border(text: &str) -> bool {
    text.starts_with('=') && text.chars().all(|c| c == '=' || c == ' ') && text.contains(' ')
}

/// The column ranges of a simple table's border: its runs of `=`.
fn border_columns(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (k, c) in text.chars().chain(std::iter::once(' ')).enumerate() {
        match (c, start) {
            ('=', None) => start = Some(k),
            (' ', Some(s)) => {
                out.push(s..k);
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The bytes a bullet marker and the spaces after it take (`* `, `- `, `+ `, `• `).
fn bullet(text: &str) -> Option<usize> {
    let c = text.chars().next()?;
    if !matches!(c, '*' | '-' | '+' | '•' | '‣' | '⁃') {
        return None;
    }
    let after = &text[c.len_utf8()..];
    if after.is_empty() {
        return Some(c.len_utf8());
    }
    after.starts_with([' ', '\t']).then(|| text.len() - after.trim_start().len())
}

/// The bytes an enumerator and the spaces after it take: `1.`, `1)`, `(1)`, `#.`, `a.`,
/// `iv.`.
fn enumerator(text: &str) -> Option<usize> {
    let (open, rest) = match text.strip_prefix('(') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let label_len = rest.find(['.', ')']).filter(|&n| n > 0 && n <= 8)?;
    let label = &rest[..label_len];
    let close = rest[label_len..].chars().next()?;
    if open && close != ')' {
        return None;
    }
    let valid = label == "#"
        || label.chars().all(|c| c.is_ascii_digit())
        || (label.len() == 1 && label.chars().all(|c| c.is_ascii_alphabetic()))
        || label.chars().all(|c| "ivxlcdm".contains(c))
        || label.chars().all(|c| "IVXLCDM".contains(c));
    if !valid {
        return None;
    }
    let after = &rest[label_len + 1..];
    if after.is_empty() {
        return Some(text.len());
    }
    after.starts_with([' ', '\t']).then(|| text.len() - after.trim_start().len())
}

/// The bytes a field list's marker (`:name: `) and the spaces after it take.
fn field_marker(text: &str) -> Option<usize> {
    let name = option_of(text)?;
    let after = &text[name.len() + 2..];
    if after.is_empty() {
        return Some(text.len());
    }
    after.starts_with([' ', '\t']).then(|| text.len() - after.trim_start().len())
}

/// The name of a field (`:name:` at the start of `text`), which a directive's options are too.
fn option_of(text: &str) -> Option<&str> {
    let rest = text.strip_prefix(':')?;
    if rest.starts_with([' ', '\t', ':', '`']) {
        return None;
    }
    let mut escaped = false;
    for (k, c) in rest.char_indices() {
        match c {
            '\\' => escaped = !escaped,
            ':' if !escaped => {
                let after = &rest[k + 1..];
                return (after.is_empty() || after.starts_with([' ', '\t'])).then_some(&rest[..k]);
            }
            '`' => return None,
            _ => escaped = false,
        }
    }
    None
}

/// The bytes an option list's options (`-a`, `--long=ARG`, `-o FILE, --output=FILE`) and the
/// two or more spaces after them take.
fn option_marker(text: &str) -> Option<usize> {
    if !is_option(text) {
        return None;
    }
    let gap = text.find("  ")?;
    let after = &text[gap..];
    Some(text.len() - after.trim_start().len())
}

/// Whether `text` starts with a command's option: `--name`, `-x` or `/x` (a letter, so that a
/// negative number is no option).
fn is_option(text: &str) -> bool {
    let letter_after = |prefix: &str| text.strip_prefix(prefix).is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()));
    text.strip_prefix("--").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphanumeric())) || letter_after("-") || letter_after("/")
}

/// A directive's name and argument, where `rest` (after `.. `) is `name:: argument`.
fn directive(rest: &str) -> Option<(&str, &str)> {
    let at = rest.find("::")?;
    let name = &rest[..at];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.' | '+')) {
        return None;
    }
    let after = &rest[at + 2..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    Some((name, after.trim()))
}

/// The fields of one CSV line, each a byte range inside its quotes (a doubled quote inside one
/// kept as written).
fn csv_fields(line: &str, delimiter: char) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let bytes: Vec<(usize, char)> = line.char_indices().collect();
    let mut k = 0;
    loop {
        while k < bytes.len() && bytes[k].1 == ' ' && delimiter != ' ' {
            k += 1;
        }
        let start = bytes.get(k).map_or(line.len(), |b| b.0);
        if bytes.get(k).is_some_and(|b| b.1 == '"') {
            let from = start + 1;
            let mut m = k + 1;
            while m < bytes.len() {
                if bytes[m].1 == '"' {
                    if bytes.get(m + 1).is_some_and(|b| b.1 == '"') {
                        m += 2;
                        continue;
                    }
                    break;
                }
                m += 1;
            }
            let to = bytes.get(m).map_or(line.len(), |b| b.0);
            out.push(from..to.max(from));
            k = m + 1;
            while k < bytes.len() && bytes[k].1 != delimiter {
                k += 1;
            }
        } else {
            let mut m = k;
            while m < bytes.len() && bytes[m].1 != delimiter {
                m += 1;
            }
            let to = bytes.get(m).map_or(line.len(), |b| b.0);
            let text = &line[start..to];
            out.push(start..start + text.trim_end().len());
            k = m;
        }
        if k >= bytes.len() {
            break;
        }
        k += 1;
    }
    out
}

/// A cell of a grid table: its rows and columns of the character grid, its borders included.
#[derive(Debug, Clone, Copy, PartialEq)]
struct GridCell {
    top: usize,
    left: usize,
    bottom: usize,
    right: usize,
}

/// The cells of a grid table, traced from corner to corner as docutils traces them, and the
/// row of its header's `=` border where it has one; `None` when the borders do not make whole
/// cells.
fn trace_grid(grid: &[Vec<(char, usize)>]) -> Option<(Vec<GridCell>, Option<usize>)> {
    let at = |r: usize, c: usize| grid.get(r).and_then(|l| l.get(c)).map_or(' ', |x| x.0);
    let bottom = grid.len().checked_sub(1)?;
    let right = grid[0].len().checked_sub(1)?;
    if bottom == 0 || right == 0 {
        return None;
    }
    let header = (1..bottom).find(|&r| grid[r].first().is_some_and(|x| x.0 == '+') && grid[r].iter().all(|x| matches!(x.0, '+' | '=')));
    let mut done = vec![None::<usize>; right + 1];
    let mut corners = vec![(0usize, 0usize)];
    let mut cells = Vec::new();
    while !corners.is_empty() {
        corners.sort_unstable();
        corners.dedup();
        let (top, left) = corners.remove(0);
        if top >= bottom || left >= right || done[left].is_some_and(|d| top < d) {
            continue;
        }
        let Some(cell) = scan_cell(&at, top, left, bottom, right) else { continue };
        for d in done.iter_mut().take(cell.right).skip(cell.left) {
            *d = Some(cell.bottom);
        }
        cells.push(cell);
        corners.push((top, cell.right));
        corners.push((cell.bottom, left));
    }
    // Every column must be traced to the bottom border, else a cell was lost.
    if done[..right].iter().any(|d| *d != Some(bottom)) {
        return None;
    }
    Some((cells, header))
}

/// The cell whose top-left corner is at (`top`, `left`): right along its top border to a
/// corner from which a border runs down, along the bottom back to the left, and up again.
fn scan_cell(at: &dyn Fn(usize, usize) -> char, top: usize, left: usize, bottom: usize, right: usize) -> Option<GridCell> {
    if at(top, left) != '+' {
        return None;
    }
    for r in left + 1..=right {
        match at(top, r) {
            '+' => {
                if let Some(b) = scan_down(at, top, left, r, bottom) {
                    return Some(GridCell { top, left, bottom: b, right: r });
                }
            }
            '-' | '=' => {}
            _ => return None,
        }
    }
    None
}

fn scan_down(at: &dyn Fn(usize, usize) -> char, top: usize, left: usize, right: usize, bottom: usize) -> Option<usize> {
    for b in top + 1..=bottom {
        match at(b, right) {
            '+' => {
                let along = (left + 1..right).all(|c| matches!(at(b, c), '-' | '=' | '+'));
                let up = (top + 1..b).all(|r| matches!(at(r, left), '|' | '+'));
                if at(b, left) == '+' && along && up {
                    return Some(b);
                }
            }
            '|' => {}
            _ => return None,
        }
    }
    None
}

/// The distinct top rows and left columns of a grid table's cells, sorted: a cell's row and
/// column are its top's and left's places among them.
fn grid_rows(cells: &[GridCell]) -> (Vec<usize>, Vec<usize>) {
    let mut tops: Vec<usize> = cells.iter().map(|c| c.top).collect();
    let mut lefts: Vec<usize> = cells.iter().map(|c| c.left).collect();
    tops.sort_unstable();
    tops.dedup();
    lefts.sort_unstable();
    lefts.dedup();
    (tops, lefts)
}

/// What a stretch of a paragraph's text reads as.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Piece {
    Text,
    Code,
    Link,
    /// A superscript's mark: the `^` that makes `10` followed by `:sup:`3`` read 10^3.
    Sup,
}

/// Whether `c`, before inline markup, lets it start (docutils' rule, simplified: the start of
/// the text, whitespace, or opening punctuation).
fn opens_after(c: Option<char>) -> bool {
    c.is_none_or(|c| c.is_whitespace() || "-:/'\"<([{‘“«".contains(c))
}

/// Whether `c`, after inline markup, lets it end: the end of the text, whitespace, or closing
/// punctuation.
fn closes_before(c: Option<char>) -> bool {
    c.is_none_or(|c| c.is_whitespace() || "-.,:;!?\\/'\")]}>’”»".contains(c))
}

/// The pieces of `text` with its inline markup read, each a byte range of `text`.
fn inline_pieces(text: &str) -> Vec<(Piece, Range<usize>)> {
    let mut out: Vec<(Piece, Range<usize>)> = Vec::new();
    let mut plain = 0;
    let mut i = 0;
    let char_at = |k: usize| text.get(k..).and_then(|s| s.chars().next());
    let char_before = |k: usize| text.get(..k).and_then(|s| s.chars().next_back());
    let flush = |out: &mut Vec<(Piece, Range<usize>)>, from: usize, to: usize| {
        if to > from {
            out.push((Piece::Text, from..to));
        }
    };
    while i < text.len() {
        let rest = &text[i..];
        let c = char_at(i).unwrap_or(' ');
        if c == '\\' {
            flush(&mut out, plain, i);
            let next = char_at(i + 1);
            // An escaped space is no text; any other escaped character is itself.
            match next {
                Some(n) if n.is_whitespace() => {
                    plain = i + 1 + n.len_utf8();
                    i = plain;
                }
                Some(n) => {
                    plain = i + 1;
                    i += 1 + n.len_utf8();
                }
                None => {
                    plain = i + 1;
                    i += 1;
                }
            }
            continue;
        }
        let opens = opens_after(char_before(i));
        if opens && let Some((pieces, end)) = markup_at(text, i) {
            flush(&mut out, plain, i);
            out.extend(pieces);
            i = end;
            plain = end;
            continue;
        }
        // A reference by its word (`name_`, `name__`): the word is its text.
        if c == '_' && char_before(i).is_some_and(|b| b.is_alphanumeric()) {
            let end = if rest.starts_with("__") { i + 2 } else { i + 1 };
            if closes_before(char_at(end)) {
                flush(&mut out, plain, i);
                i = end;
                plain = end;
                continue;
            }
        }
        i += c.len_utf8();
    }
    flush(&mut out, plain, text.len());
    out
}

/// The inline markup that starts at `i`, as pieces, and where it ends; `None` where none does.
fn markup_at(text: &str, i: usize) -> Option<(Vec<(Piece, Range<usize>)>, usize)> {
    let rest = &text[i..];
    let non_space_after = |k: usize| text.get(k..).and_then(|s| s.chars().next()).is_some_and(|c| !c.is_whitespace());
    // The end string `end` after `from`: preceded by no whitespace, followed by closing
    // punctuation, whitespace or the end.
    let find_end = |from: usize, end: &str| -> Option<usize> {
        let mut k = from;
        while let Some(found) = text.get(k..).and_then(|s| s.find(end)) {
            let at = k + found;
            let before = text[..at].chars().next_back();
            if at > from && before.is_some_and(|b| !b.is_whitespace() && b != '\\') && closes_before(text[at + end.len()..].chars().next()) {
                return Some(at);
            }
            k = at + end.len().max(1);
        }
        None
    };
    if rest.starts_with("``") && non_space_after(i + 2) {
        let at = find_end(i + 2, "``")?;
        return Some((vec![(Piece::Code, i + 2..at)], at + 2));
    }
    if rest.starts_with(':')
        && let Some(role_len) = role_prefix(rest)
        && rest[role_len..].starts_with('`')
    {
        let from = i + role_len + 1;
        let at = find_end_backquote(text, from)?;
        let role = &rest[1..role_len - 1];
        return Some((role_pieces(text, role, from..at), at + 1));
    }
    if rest.starts_with('`') && !rest.starts_with("``") && non_space_after(i + 1) {
        let from = i + 1;
        let at = find_end_backquote(text, from)?;
        let mut end = at + 1;
        let after = &text[end..];
        if after.starts_with("__") {
            end += 2;
        } else if after.starts_with('_') {
            end += 1;
        } else if let Some(role_len) = role_prefix(after) {
            let role = &after[1..role_len - 1];
            return Some((role_pieces(text, role, from..at), end + role_len));
        } else {
            // Interpreted text in the default role: code, as Sphinx projects mostly use it.
            return Some((vec![(Piece::Code, from..at)], end));
        }
        return Some((reference_pieces(text, from..at), end));
    }
    if rest.starts_with("_`") {
        let at = find_end_backquote(text, i + 2)?;
        return Some((vec![(Piece::Text, i + 2..at)], at + 1));
    }
    if rest.starts_with("**") && non_space_after(i + 2) {
        let at = find_end(i + 2, "**")?;
        return Some((vec![(Piece::Text, i + 2..at)], at + 2));
    }
    if rest.starts_with('*') && !rest.starts_with("**") && non_space_after(i + 1) {
        let at = find_end(i + 1, "*")?;
        return Some((vec![(Piece::Text, i + 1..at)], at + 1));
    }
    if rest.starts_with('[') {
        // A footnote or citation reference (`[1]_`, `[#note]_`): no text on the page but a mark.
        let close = rest.find("]_")?;
        let label = &rest[1..close];
        if label.is_empty() || label.contains(char::is_whitespace) {
            return None;
        }
        let end = i + close + 2;
        return closes_before(text[end..].chars().next()).then(|| (Vec::new(), end));
    }
    if rest.starts_with('|') && non_space_after(i + 1) {
        let close = rest[1..].find('|')? + 1;
        let name = i + 1..i + close;
        let mut end = i + close + 1;
        if text[end..].starts_with("__") {
            end += 2;
        } else if text[end..].starts_with('_') {
            end += 1;
        }
        return closes_before(text[end..].chars().next()).then(|| (vec![(Piece::Text, name)], end));
    }
    None
}

/// Where interpreted text that starts at `from` ends: the next backquote after something other
/// than whitespace.
fn find_end_backquote(text: &str, from: usize) -> Option<usize> {
    let mut k = from;
    while let Some(found) = text.get(k..).and_then(|s| s.find('`')) {
        let at = k + found;
        if at > from && text[..at].chars().next_back().is_some_and(|b| !b.is_whitespace() && b != '\\') {
            return Some(at);
        }
        k = at + 1;
    }
    None
}

/// The length of a role (`:name:` or `:domain:name:`) at the start of `text`.
fn role_prefix(text: &str) -> Option<usize> {
    let rest = text.strip_prefix(':')?;
    for (j, c) in rest.char_indices() {
        if c == ':' {
            let next = rest[j + 1..].chars().next();
            if next == Some('`') {
                return (j > 0).then_some(j + 2);
            }
            if !next.is_some_and(|n| n.is_alphanumeric()) {
                return None;
            }
        } else if !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '+')) {
            return None;
        }
    }
    None
}

/// The pieces a role's text reads as.
fn role_pieces(text: &str, role: &str, content: Range<usize>) -> Vec<(Piece, Range<usize>)> {
    let bare = role.rsplit(':').next().unwrap_or(role);
    if role.contains(':') {
        return vec![(Piece::Code, content)];
    }
    if REFERENCE_ROLES.contains(&bare) {
        return reference_pieces(text, content);
    }
    if bare == "sup" || bare == "superscript" {
        return vec![(Piece::Sup, content.clone()), (Piece::Text, content)];
    }
    if bare == "abbr" {
        // `:abbr:`LIFO (last-in, first-out)`` shows its abbreviation.
        let inner = &text[content.clone()];
        let end = inner.find(" (").map_or(content.end, |k| content.start + k);
        return vec![(Piece::Text, content.start..end)];
    }
    if TEXT_ROLES.contains(&bare) {
        return vec![(Piece::Text, content)];
    }
    vec![(Piece::Code, content)]
}

/// A reference's text: `title` of `title <target>`, else the target as it is written (a
/// leading `~` or `!` of Sphinx's short forms dropped).
fn reference_pieces(text: &str, content: Range<usize>) -> Vec<(Piece, Range<usize>)> {
    let inner = &text[content.clone()];
    if inner.ends_with('>')
        && let Some(open) = inner.rfind('<')
    {
        let title = &inner[..open];
        let trimmed = title.trim_end();
        if !trimmed.is_empty() {
            return vec![(Piece::Link, content.start..content.start + trimmed.len())];
        }
        return vec![(Piece::Code, content.start + open + 1..content.end - 1)];
    }
    let skip = inner.len() - inner.trim_start_matches(['~', '!']).len();
    vec![(Piece::Link, content.start + skip..content.end)]
}

#[cfg(test)]
mod tests {
    use super::super::{Article, Syntax};

    fn read(source: &str) -> Article {
        Article::parse_as("a.rst", source.as_bytes(), Syntax::ReStructuredText).unwrap()
    }

    fn sentences(source: &str) -> Vec<String> {
        read(source).sentences.into_iter().map(|s| s.text).collect()
    }

    /// Every table cell's table, row, column, row label, column label and text, in order.
    fn cells(a: &Article) -> Vec<(usize, usize, usize, String, String, String)> {
        a.sentences
            .iter()
            .filter_map(|s| {
                let c = s.cell.clone()?;
                Some((c.table, c.row, c.column, c.row_label, c.column_label, s.text.clone()))
            })
            .collect()
    }

    /// Every sentence's span is its own text in the source, markup aside: the test asserts
    /// the bytes each sentence starts and ends at.
    fn spans(a: &Article) -> Vec<&str> {
        a.sentences.iter().map(|s| &a.source[s.span.clone()]).collect()
    }

    #[test]
    fn titles_name_sections_in_the_order_their_styles_appear() {
        let a = read("=====\nTitle\n=====\n\nIntro 1.5 ms.\n\nPart\n----\n\nIn part.\n\nSub\n~~~\n\nDeep.\n\nOther\n-----\n\nLast.\n");
        let got: Vec<(String, Vec<String>)> = a.sentences.iter().map(|s| (s.text.clone(), s.section.clone())).collect();
        assert_eq!(got[0], ("Intro 1.5 ms.".to_string(), vec!["Title".to_string()]));
        assert_eq!(got[1].1, ["Title", "Part"]);
        assert_eq!(got[2].1, ["Title", "Part", "Sub"]);
        assert_eq!(got[3].1, ["Title", "Other"]);
        assert_eq!(a.sentences[0].numbers[0].value, 1.5);
        assert_eq!(a.sentences[0].line, 5);
    }

    #[test]
    fn inline_markup_reads_as_its_text_and_literals_give_no_number() {
        let a = read("The *mean* is **22.5 ms** with ``-p 3`` and `Student's t-test\n<https://x.y/t>`_ on :func:`bench_2` [1]_ and py38_ too.\n");
        assert_eq!(a.sentences.len(), 1);
        assert_eq!(a.sentences[0].text, "The mean is 22.5 ms with -p 3 and Student's t-test on bench_2 and py38 too.");
        let values: Vec<f64> = a.sentences[0].numbers.iter().map(|n| n.value).collect();
        assert_eq!(values, [22.5]);
        let n = &a.sentences[0].numbers[0];
        assert_eq!(&a.source[a.sentences[0].source_span(&n.span)], "22.5 ms");
    }

    #[test]
    fn a_literal_block_after_a_double_colon_is_code_and_its_marker_reads_as_one_colon() {
        let got = sentences("Example::\n\n    $ python3 -m pyperf show telco.json\n    Mean 22.5 ms.\n\nSee it ::\n\n    1.5 s\n\nAfter.\n");
        assert_eq!(got, ["Example:", "See it", "After."]);
    }

    #[test]
    fn a_pyperf_comparison_table_in_a_literal_block_reads_as_a_console_table() {
        let source = "Example::\n\n    $ python3 -m pyperf compare_to --table a.json b.json\n    +-----------+---------+-----------------------+\n    | Benchmark | a       | b                     |\n    +===========+=========+=======================+\n    | [1]*1000  | 2.13 us | 2.09 us: 1.02x faster |\n    +-----------+---------+-----------------------+\n";
        let a = read(source);
        let cell = a.sentences.iter().find(|s| s.cell.as_ref().is_some_and(|c| c.row_label == "[1]*1000" && c.column_label == "b")).expect("the cell is read");
        assert_eq!(cell.text, "2.09 us: 1.02x faster");
        assert_eq!(&source[cell.span.clone()], "2.09 us: 1.02x faster");
    }

    #[test]
    fn a_grid_table_gives_cells_with_rows_columns_units_and_spans() {
        let source = "+--------+-----------+\n| Shape  | Time (us) |\n+========+===========+\n| 4096   | 38.6      |\n| square | (median)  |\n+--------+-----------+\n| 1024   | 80.7      |\n+--------+-----------+\n| both rows: 2.0 ms  |\n+--------------------+\n";
        let a = read(source);
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
        assert!(a.sentences.iter().all(|s| s.cell.is_some()));
        let cells: Vec<(usize, usize, String, String, String)> = cells(&a).into_iter().map(|(_, row, column, r, c, t)| (row, column, r, c, t)).collect();
        assert_eq!(cells.len(), 7, "{cells:?}");
        assert_eq!(cells[0], (0, 0, "Shape".into(), "Shape".into(), "Shape".into()));
        assert_eq!(cells[3], (1, 1, "4096 square".into(), "Time (us)".into(), "38.6 (median)".into()));
        assert_eq!(cells[5], (2, 1, "1024".into(), "Time (us)".into(), "80.7".into()));
        assert_eq!((cells[6].1, cells[6].4.as_str()), (0, "both rows: 2.0 ms"));
        assert_eq!(a.sentences[3].numbers[0].unit, Some(super::super::numbers::Unit::Us));
        assert_eq!(spans(&a)[3], "38.6      |\n| square | (median)");
        // A border that stops short of the table's corner makes no cell: a warning, and the
        // text is still read.
        let broken = source.replace("+--------------------+\n", "+-------------------+\n");
        let a = read(&broken);
        assert_eq!(a.warnings.len(), 1, "{:?}", a.warnings);
        assert!(a.sentences.iter().any(|s| s.numbers.iter().any(|n| n.value == 80.7)));
    }

    #[test]
    fn a_simple_table_with_a_header_and_a_continuation_line() {
        let source = "=========  ========  ==========\nBenchmark  Before    After (ms)\n=========  ========  ==========\nfloat      12.1 ms   9.8\n           (noisy)\nnbody      140 ms    151\n=========  ========  ==========\n\nAfter.\n";
        let a = read(source);
        let cells: Vec<(usize, usize, String, String, String)> = cells(&a).into_iter().map(|(_, row, column, r, c, t)| (row, column, r, c, t)).collect();
        assert_eq!(cells.len(), 9);
        assert_eq!(cells[4], (1, 1, "float".into(), "Before".into(), "12.1 ms (noisy)".into()));
        assert_eq!(cells[8], (2, 2, "nbody".into(), "After (ms)".into(), "151".into()));
        let after = a.sentences.iter().find(|s| s.text == "151").unwrap();
        assert_eq!(after.numbers[0].unit, Some(super::super::numbers::Unit::Ms));
        assert_eq!(a.sentences.last().unwrap().text, "After.");
    }

    #[test]
    fn list_and_csv_tables_are_tables() {
        let source = ".. list-table:: Latency (ms)\n   :header-rows: 1\n\n   * - Case\n     - p50\n   * - warm\n     - 1.25\n\n.. csv-table:: Throughput\n   :header: \"Case\", \"GB/s\"\n\n   \"cold, first\", 3.5\n   warm, 4.0\n";
        let a = read(source);
        let cells: Vec<(usize, usize, String, String, String)> = cells(&a).into_iter().map(|(table, row, _, r, c, t)| (table, row, r, c, t)).collect();
        assert!(cells.contains(&(0, 1, "warm".into(), "p50".into(), "1.25".into())), "{cells:?}");
        assert!(cells.contains(&(1, 1, "cold, first".into(), "GB/s".into(), "3.5".into())), "{cells:?}");
        assert!(cells.contains(&(1, 2, "warm".into(), "GB/s".into(), "4.0".into())), "{cells:?}");
        // The list-table's title gives its cells their unit, as an enclosing heading would.
        let p50 = a.sentences.iter().find(|s| s.text == "1.25").unwrap();
        assert_eq!(p50.numbers[0].unit, Some(super::super::numbers::Unit::Ms));
        assert!(a.sentences.iter().any(|s| s.text == "Latency (ms)" && s.cell.is_none()));
    }

    #[test]
    fn lists_fields_definitions_and_admonitions_are_prose() {
        let source = "* First 1 ms.\n* Second\n  item 2 ms.\n\n1. One.\n2. Two.\n\n:Date: 2016\n:param x: The value,\n    in seconds.\n\nterm\n    Its definition.\n\n-p N, --processes=N  Run N processes.\n\n.. note:: Look 3 ms.\n\n   More.\n\n.. versionchanged:: 1.2\n   The option changed.\n\n  A quote.\n";
        let got = sentences(source);
        assert_eq!(
            got,
            [
                "First 1 ms.",
                "Second item 2 ms.",
                "One.",
                "Two.",
                "2016",
                "The value, in seconds.",
                "term",
                "Its definition.",
                "Run N processes.",
                "Look 3 ms.",
                "More.",
                "The option changed.",
                "A quote."
            ]
        );
    }

    #[test]
    fn comments_targets_and_build_directives_are_not_read_and_included_text_is_warned_of() {
        let source = ".. comment 5 ms\n   still 6 ms\n\n.. _label:\n\n.. toctree::\n   :maxdepth: 2\n\n   page1\n\n.. include:: other.rst\n\n.. code-block:: python\n\n   x = 1.5\n\n.. image:: figures/a.svg\n   :alt: Replay 2 us\n\nText.\n";
        let a = read(source);
        let got: Vec<&str> = a.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(got, ["Replay 2 us", "Text."]);
        assert_eq!(a.images, ["figures/a.svg"]);
        assert_eq!(a.warnings.len(), 1);
        assert!(a.warnings[0].message.contains("other.rst"), "{:?}", a.warnings);
        assert_eq!(a.warnings[0].line, 11);
    }

    #[test]
    fn an_indented_include_is_warned_of_once() {
        let a = read(".. note::\n\n   .. include:: part.rst\n\n.. include:: top.rst\n\nText.\n");
        let warned: Vec<(usize, &str)> = a.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(warned.len(), 2, "{warned:?}");
        assert!(warned[0].0 == 3 && warned[0].1.contains("is indented"), "{warned:?}");
        assert!(warned[1].0 == 5 && warned[1].1.contains("none is read here"), "{warned:?}");
    }

    #[test]
    fn a_paragraph_over_lines_maps_each_number_to_its_own_bytes() {
        let source = "  Quoted text says\n  the mean is 4.22 us, not\n  4.70 us.\n";
        let a = read(source);
        assert_eq!(a.sentences.len(), 1);
        let s = &a.sentences[0];
        let got: Vec<&str> = s.numbers.iter().map(|n| &source[s.source_span(&n.span)]).collect();
        assert_eq!(got, ["4.22 us", "4.70 us"]);
        assert_eq!((s.line, s.col), (1, 3));
    }

    #[test]
    fn markdown_names_and_drafts_keep_their_syntax() {
        assert_eq!(Syntax::of_path("doc/cli.rst"), Some(Syntax::ReStructuredText));
        assert_eq!(Syntax::of_path("a.REST"), Some(Syntax::ReStructuredText));
        assert_eq!(Syntax::of_path("a.md"), Some(Syntax::Markdown));
        assert_eq!(Syntax::of_path("draft.txt"), None);
        // Read as Markdown, an underlined title is a heading too, but a literal block is not
        // code: the syntax decides what is a claim.
        let text = "Title\n=====\n\nExample::\n\n  1.5 ms here\n";
        assert_eq!(sentences(text), ["Example:"]);
        let md = Article::parse("a.md", text.as_bytes()).unwrap();
        assert_eq!(md.sentences.iter().map(|s| s.text.as_str()).collect::<Vec<_>>(), ["Example::", "1.5 ms here"]);
    }

    #[test]
    fn hostile_input_never_panics() {
        for source in [
            "",
            "::",
            "..",
            ".. ::",
            "+",
            "+-+",
            "+-+\n|",
            "+--+\n|x|\n+--+",
            "===  ===\n",
            "=== ===\na b\n",
            "*",
            "* ",
            "1.",
            "(a)",
            ":x:",
            "``",
            "`",
            ":r:`",
            "|",
            "[1]_",
            "x_",
            "\\",
            "a\\",
            "Title\n=\n",
            "=\nx\n=\n",
            "\t\tx\n\ty\n",
            ".. list-table::\n   * -\n",
            ".. csv-table::\n   :header: \"a\n\n   \"b,c\n",
            "a::\n\n::\n",
            "é::\n\n  µ\n",
            "+-é-+\n| µ |\n+---+\n",
        ] {
            let _ = read(source);
        }
    }
}
