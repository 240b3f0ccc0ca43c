//! HTML in an article, read as the Markdown around it is read: a table as table cells, any other
//! text as prose. This module owns tokenizing the HTML that pulldown-cmark hands over (HTML
//! blocks, and the tags it finds inline) and placing table cells in their rows and columns; it
//! never decides what a number is (that is [`super::numbers`]), and it reads nothing but the
//! HTML events' own text.
//!
//! A README that needs row or column spans, bold best values or alignment writes its results as
//! an HTML table. Left out, every number of such a table went unread, and the audit of an
//! article whose results were all HTML said that nothing in it was unbound.
//!
//! **Tables.** Each `<td>` and `<th>` is one sentence, as a Markdown table's cell is, with its
//! table, row and column, the text of its row's first cell and of its column's header, and the
//! unit its header, its `<caption>` or a heading implies; its `id` names it. The header is the
//! rows in `<thead>`; in a table without
//! one, the leading rows whose cells are all `<th>`, or else the first row, as in a Markdown
//! table; and either way the rows that a header cell's `rowspan` reaches into. Every header row
//! is row 0; body rows count from 1. A cell spanning columns takes the column it starts in. A
//! column's label is the text of each header cell above it, top down, joined by ` › `
//! (`Latency (ms) › Avg`), and the unit of the innermost of them that states one applies.
//! A row's label is the text of its first cell; where that cell spans several rows (`rowspan`),
//! it is carried into each row it spans and joined with the next cell's text, and so on while
//! cells span rows, so that rows grouped under one spanning cell stay apart (`GPU A › fp16`).
//! Where the cell after a spanning first cell is already a value, the value is in the label:
//! nothing else tells those rows apart, and a claim naming such a row stops binding, visibly,
//! when that value is edited.
//! Tables nested in a cell are read as tables of their own, up to a depth of 8; a table nested
//! deeper is read as the text of the cell that holds it, and said so.
//!
//! **Other HTML** is prose. Block-level elements (`<p>`, `<div>`, `<li>`, `<details>`, …) end a
//! sentence's block, `<br>` and `<img>` part words, and inline elements (`<b>`, `<a>`, `<span>`,
//! …) leave the text as it reads. `<h1>`–`<h6>` are headings that name sections as Markdown's
//! do. `<code>` (and `<kbd>`, `<samp>`, `<tt>`) is inline code: no number is read from it,
//! except in a cell where it is one number as a whole. `<pre>` is a code block: not prose, but
//! read as a Google Benchmark console table where it holds one (see `console`). A `<sup>` that
//! starts with a digit reads as `^` (`2.5×10<sup>3</sup>` is 2.5×10^3, a footnote mark
//! `5 ms<sup>1</sup>` is no number, nor one after a decimal: `12.3<sup>1</sup>` is 12.3). What a reader never sees is not read: comments, the body
//! of `<script>` and `<style>`, and attribute values.
//!
//! **Entities** (`&nbsp;`, `&plusmn;`, `&times;`, `&micro;`, `&#177;`, `&#xB1;`, `&lt;`, …) read
//! as their characters; one this module does not know, or one without its `;`, reads as
//! written. Each character keeps the source bytes it came from, so that a number's place in the
//! file is where its digits are: an entity's character maps its first byte to the entity's
//! first byte and its last to the entity's `;`. A number that ends in an entity whose character
//! is one byte long (`50&#37;`) therefore ends, in the source, at the entity's `&`.
//!
//! **Malformed HTML** never stops the reading. End tags that HTML lets a writer leave out
//! (`</td>`, `</tr>`, `</thead>`) are implied, as a browser implies them. What cannot be read
//! is a located warning: a cell or row outside a table, an end tag that closes nothing, a table
//! not closed before a Markdown heading, before the end of the list item or block quote it
//! opened in, or before the end of the article (a table never runs past any of these), a tag
//! or comment cut off by the end of its HTML block (what follows it in that block is not shown
//! by a browser either, and is not read), and a table nested too deep or too wide (columns
//! past 1000 have no label). The reader is one pass over the text with explicit stacks: no
//! recursion, and every loop moves forward.

use std::ops::Range;
use std::rc::Rc;

use super::numbers::{self, Unit};
use super::{Block, Cell};

/// Tables nested deeper than this are read as the text of the cell that holds them.
const MAX_NESTING: usize = 8;
/// Columns past this have no header label and carry no row span: HTML itself clamps `colspan`
/// to 1000, and no table a reader reads is wider.
const MAX_COLUMNS: usize = 1000;
/// HTML clamps `rowspan` to 65534.
const MAX_ROWSPAN: usize = 65534;
/// A header deeper than this is not a header: its further rows are body rows.
const MAX_HEADER_ROWS: usize = 8;
/// Warnings past this many are counted, not listed.
const MAX_WARNINGS: usize = 100;
/// The longest entity name looked up (`&CounterClockwiseContourIntegral;` is 31 letters).
const MAX_ENTITY_NAME: usize = 32;

/// Whether `text` ends with a number written with a decimal point (`12.3`), which no `<sup>`
/// after it raises to a power.
fn ends_with_decimal(text: &str) -> bool {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_digit());
    digits.len() < text.len() && digits.strip_suffix('.').is_some_and(|before| before.ends_with(|c: char| c.is_ascii_digit()))
}

/// The cells of a console table in a `<pre>`, as a code block's are read.
fn read_pre(parts: Vec<(String, Range<usize>, bool)>, sink: &mut Sink) {
    let parts: Vec<(String, Range<usize>)> = parts.into_iter().map(|(text, range, _)| (text, range)).collect();
    *sink.n_tables += super::console_blocks(&parts, sink.source, sink.section, *sink.n_tables, sink.blocks);
}

/// HTML text gathered from pulldown-cmark's events, with the source offset of each byte.
pub(super) struct Html {
    text: String,
    offsets: Vec<usize>,
}

impl Html {
    pub(super) fn new() -> Html {
        Html { text: String::new(), offsets: Vec::new() }
    }

    /// Appends `text`, which came from `source[range]`. Where the source holds the text verbatim
    /// (as it does for HTML, except where a container's markers were taken out of a line) each
    /// byte maps to its own offset; otherwise every byte maps to the start of the range.
    pub(super) fn push(&mut self, text: &str, source: &str, range: Range<usize>) {
        let at = source.get(range.clone()).and_then(|s| s.find(text)).map(|i| range.start + i);
        self.offsets.extend((0..text.len()).map(|i| at.map_or(range.start, |a| a + i)));
        self.text.push_str(text);
    }

    /// An attribute's value, entities decoded and trimmed; none where it is absent or blank.
    fn value(&self, range: &Option<Range<usize>>) -> Option<String> {
        let mut value = String::new();
        decode(&self.text, range.clone()?, |ch, _| value.push(ch));
        Some(value.trim().to_string()).filter(|v| !v.is_empty())
    }

    /// The source bytes of `range` of the text.
    fn source_range(&self, range: &Range<usize>) -> Range<usize> {
        match (self.offsets.get(range.start), range.end.checked_sub(1).and_then(|e| self.offsets.get(e))) {
            (Some(&start), Some(&last)) if range.end > range.start => start..(last + 1).max(start),
            (Some(&start), _) => start..start,
            _ => self.offsets.last().map_or(0..0, |&o| o + 1..o + 1),
        }
    }
}

/// One piece of HTML text, by its byte range in the text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token {
    /// A start tag, its name in lowercase, with the attributes a reader uses.
    Start {
        name: String,
        range: Range<usize>,
        attributes: Attributes,
    },
    End {
        name: String,
        range: Range<usize>,
    },
    /// Text between tags, entities not yet decoded.
    Text(Range<usize>),
    /// A comment, a doctype, a processing instruction or the body of a `<script>` or `<style>`:
    /// nothing a reader sees.
    Hidden(Range<usize>),
    /// A tag, comment or script that runs to the end of the text: a browser shows nothing of it
    /// or after it.
    Cut {
        range: Range<usize>,
        what: String,
    },
}

/// The attributes of a start tag that a reader uses: the `rowspan` and `colspan` it gives, and
/// where its `src` and `id` values stand, entities not yet decoded.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Attributes {
    rowspan: Option<usize>,
    colspan: Option<usize>,
    src: Option<Range<usize>>,
    id: Option<Range<usize>>,
}

impl Token {
    /// The bytes of the text the token is.
    pub(crate) fn range(&self) -> Range<usize> {
        match self {
            Token::Start { range, .. } | Token::End { range, .. } | Token::Cut { range, .. } => range.clone(),
            Token::Text(range) | Token::Hidden(range) => range.clone(),
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// The tokens of `text`, in order, covering all of it.
pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut text_start) = (0, 0);
    while i < b.len() {
        if b[i] != b'<' {
            i = memchr::memchr(b'<', &b[i..]).map_or(b.len(), |k| i + k);
            continue;
        }
        let found = match (b.get(i + 1), b.get(i + 2)) {
            (Some(b'!' | b'?'), _) => Some(declaration(text, i)),
            (Some(b'/'), Some(c)) if c.is_ascii_alphabetic() => Some(tag(text, i, true)),
            (Some(b'/'), Some(b'>')) => Some((Token::Hidden(i..i + 3), i + 3)),
            (Some(b'/'), Some(_)) => Some(bogus(text, i)),
            (Some(c), _) if c.is_ascii_alphabetic() => Some(tag(text, i, false)),
            // A `<` before a space, a digit or the end is text (`a < b`, `<5 ms`).
            _ => None,
        };
        let Some((token, end)) = found else {
            i += 1;
            continue;
        };
        if text_start < i {
            out.push(Token::Text(text_start..i));
        }
        // The body of a script or style is not HTML: it runs, unread, to its end tag.
        let raw = match &token {
            Token::Start { name, .. } if name == "script" || name == "style" => Some(format!("</{name}")),
            _ => None,
        };
        out.push(token);
        (i, text_start) = (end, end);
        if let Some(close) = raw {
            match find_ignoring_case(b, end, close.as_bytes()) {
                Some(k) => {
                    if k > end {
                        out.push(Token::Hidden(end..k));
                    }
                    (i, text_start) = (k, k);
                }
                // Inline, pulldown-cmark hands over the start tag alone, and the script's text
                // follows as Markdown: only what this text holds after the tag is hidden.
                None if end < b.len() => {
                    out.push(Token::Cut { range: end..b.len(), what: format!("`<{}>` not closed", &close[2..]) });
                    (i, text_start) = (b.len(), b.len());
                }
                None => {}
            }
        }
    }
    if text_start < b.len() {
        out.push(Token::Text(text_start..b.len()));
    }
    out
}

/// The first `needle` in `b` from `from`, ASCII case ignored.
fn find_ignoring_case(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let mut k = from;
    while let Some(found) = memchr::memchr(needle[0], &b[k.min(b.len())..]) {
        let at = k + found;
        if b.len() - at >= needle.len() && b[at..at + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(at);
        }
        k = at + 1;
    }
    None
}

/// A comment (`<!-- -->`), doctype, CDATA section or processing instruction at `i`.
fn declaration(text: &str, i: usize) -> (Token, usize) {
    let rest = &text[i..];
    if let Some(body) = rest.strip_prefix("<!--") {
        // `<!-->` and `<!--->` are comments closed at once, as HTML reads them.
        let end = if body.starts_with('>') {
            Some(i + 5)
        } else if body.starts_with("->") {
            Some(i + 6)
        } else {
            body.find("-->").map(|k| i + 4 + k + 3)
        };
        return match end {
            Some(end) => (Token::Hidden(i..end), end),
            None => (Token::Cut { range: i..text.len(), what: "a comment (`<!--`) not closed".into() }, text.len()),
        };
    }
    bogus(text, i)
}

/// Markup that is no tag (`<!DOCTYPE …>`, `<?…?>`, `</ …>`): hidden up to the next `>`.
fn bogus(text: &str, i: usize) -> (Token, usize) {
    match memchr::memchr(b'>', &text.as_bytes()[i..]) {
        Some(k) => (Token::Hidden(i..i + k + 1), i + k + 1),
        None => (Token::Cut { range: i..text.len(), what: "markup with no `>`".into() }, text.len()),
    }
}

/// A start or end tag at `i`, with the span values its attributes give. Attributes are read
/// as HTML reads them (quoted values may hold `>`), and only `rowspan`, `colspan`, `src` and
/// `id` are kept.
fn tag(text: &str, i: usize, is_end: bool) -> (Token, usize) {
    let b = text.as_bytes();
    let mut j = i + if is_end { 2 } else { 1 };
    let name_start = j;
    while j < b.len() && !is_space(b[j]) && b[j] != b'/' && b[j] != b'>' {
        j += 1;
    }
    let name = text[name_start..j].to_ascii_lowercase();
    let cut = |name: &str| (Token::Cut { range: i..text.len(), what: format!("`<{}{name}` has no `>`", if is_end { "/" } else { "" }) }, text.len());
    let mut attributes = Attributes::default();
    let mut seen = 0u8;
    loop {
        while j < b.len() && (is_space(b[j]) || b[j] == b'/') {
            j += 1;
        }
        match b.get(j) {
            None => return cut(&name),
            Some(b'>') => {
                j += 1;
                break;
            }
            Some(_) => {}
        }
        // A name runs to a space, `/`, `>` or `=`; its first byte is taken whatever it is, so
        // that a stray `=` moves the reading on.
        let attr = j;
        j += 1;
        while j < b.len() && !is_space(b[j]) && !matches!(b[j], b'/' | b'>' | b'=') {
            j += 1;
        }
        let attr = &b[attr..j];
        while j < b.len() && is_space(b[j]) {
            j += 1;
        }
        if b.get(j) != Some(&b'=') {
            continue;
        }
        j += 1;
        while j < b.len() && is_space(b[j]) {
            j += 1;
        }
        let value = match b.get(j) {
            None => return cut(&name),
            Some(&quote @ (b'"' | b'\'')) => match memchr::memchr(quote, &b[j + 1..]) {
                Some(k) => {
                    let value = j + 1..j + 1 + k;
                    j += k + 2;
                    value
                }
                None => return cut(&name),
            },
            Some(_) => {
                let start = j;
                while j < b.len() && !is_space(b[j]) && b[j] != b'>' {
                    j += 1;
                }
                start..j
            }
        };
        // Of a repeated attribute the first counts, as HTML parsers take it.
        let read = ["rowspan", "colspan", "src", "id"].iter().position(|n| attr.eq_ignore_ascii_case(n.as_bytes()));
        if let Some(k) = read.filter(|k| seen & (1 << k) == 0) {
            seen |= 1 << k;
            let a = &mut attributes;
            match k {
                0 => a.rowspan = span_value(&b[value]),
                1 => a.colspan = span_value(&b[value]),
                2 => a.src = Some(value),
                _ => a.id = Some(value),
            }
        }
    }
    let range = i..j;
    let token = if is_end { Token::End { name, range } } else { Token::Start { name, range, attributes } };
    (token, j)
}

/// A `rowspan` or `colspan` value as HTML parses a non-negative integer: leading spaces, then
/// digits, whatever follows them; none is no value. Values saturate rather than overflow.
fn span_value(value: &[u8]) -> Option<usize> {
    let digits: Vec<u8> = value.iter().copied().skip_while(|b| is_space(*b)).take_while(u8::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    Some(digits.iter().fold(0usize, |n, d| n.saturating_mul(10).saturating_add(usize::from(d - b'0'))))
}

/// Calls `emit` with every character of the HTML text `text[range]`, entities decoded, and the
/// bytes of `text` it came from.
fn decode(text: &str, range: Range<usize>, mut emit: impl FnMut(char, Range<usize>)) {
    let mut i = range.start;
    while i < range.end {
        let Some(ch) = text[i..range.end].chars().next() else { break };
        if ch == '&'
            && let Some((decoded, end)) = entity(&text[..range.end], i)
        {
            emit(decoded, i..end);
            i = end;
            continue;
        }
        emit(ch, i..i + ch.len_utf8());
        i += ch.len_utf8();
    }
}

/// The character of the entity at `text[at]` (which is `&`) and the end of the entity, or
/// `None` where it is not one this module reads.
fn entity(text: &str, at: usize) -> Option<(char, usize)> {
    let rest = &text.as_bytes()[at + 1..];
    if rest.first() == Some(&b'#') {
        let hex = matches!(rest.get(1), Some(b'x' | b'X'));
        let first = if hex { 2 } else { 1 };
        let (radix, mut k, mut value) = (if hex { 16 } else { 10 }, first, 0u32);
        // Eight digits hold every code point; more are not read (and the entity reads as written).
        while k < rest.len() && k - first < 8 {
            let Some(d) = char::from(rest[k]).to_digit(radix) else { break };
            value = value * radix + d;
            k += 1;
        }
        if k == first || rest.get(k) != Some(&b';') {
            return None;
        }
        let ch = char::from_u32(value).filter(|c| *c != '\0').unwrap_or('\u{FFFD}');
        return Some((ch, at + 1 + k + 1));
    }
    let k = rest.iter().take(MAX_ENTITY_NAME + 1).position(|b| !b.is_ascii_alphanumeric())?;
    if k == 0 || rest[k] != b';' {
        return None;
    }
    named_entity(&text[at + 1..at + 1 + k]).map(|ch| (ch, at + 1 + k + 1))
}

/// The named entities an article about performance writes: spaces, signs, units, arrows and
/// punctuation. Names are case-sensitive, as in HTML.
fn named_entity(name: &str) -> Option<char> {
    Some(match name {
        "nbsp" => '\u{A0}',
        "ensp" => '\u{2002}',
        "emsp" => '\u{2003}',
        "thinsp" => '\u{2009}',
        "lt" | "LT" => '<',
        "gt" | "GT" => '>',
        "amp" | "AMP" => '&',
        "quot" | "QUOT" => '"',
        "apos" => '\'',
        "plusmn" | "pm" | "PlusMinus" => '±',
        "times" => '×',
        "divide" | "div" => '÷',
        "minus" => '−',
        "ndash" => '–',
        "mdash" => '—',
        "micro" => 'µ',
        "mu" => 'μ',
        "deg" => '°',
        "percnt" => '%',
        "permil" => '‰',
        "le" => '≤',
        "ge" => '≥',
        "ne" => '≠',
        "asymp" | "approx" => '≈',
        "sim" => '∼',
        "infin" => '∞',
        "hellip" => '…',
        "middot" => '·',
        "bull" => '•',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "laquo" => '«',
        "raquo" => '»',
        "larr" => '←',
        "rarr" => '→',
        "uarr" => '↑',
        "darr" => '↓',
        "sup1" => '¹',
        "sup2" => '²',
        "sup3" => '³',
        "frac12" => '½',
        "frac14" => '¼',
        "frac34" => '¾',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "check" => '✓',
        "cross" => '✗',
        "dollar" => '$',
        "euro" => '€',
        "pound" => '£',
        "yen" => '¥',
        "cent" => '¢',
        "num" => '#',
        "excl" => '!',
        "quest" => '?',
        "lpar" => '(',
        "rpar" => ')',
        "lsqb" | "lbrack" => '[',
        "rsqb" | "rbrack" => ']',
        "colon" => ':',
        "semi" => ';',
        "comma" => ',',
        "period" => '.',
        "sol" => '/',
        "bsol" => '\\',
        "ast" => '*',
        "plus" => '+',
        "equals" => '=',
        "lowbar" => '_',
        "verbar" | "vert" => '|',
        _ => return None,
    })
}

/// Elements that leave the text as it reads: no word or sentence ends at them.
fn is_inline(name: &str) -> bool {
    matches!(
        name,
        "a" | "abbr"
            | "b"
            | "bdi"
            | "bdo"
            | "big"
            | "cite"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "font"
            | "g-emoji"
            | "i"
            | "ins"
            | "label"
            | "mark"
            | "nobr"
            | "q"
            | "s"
            | "small"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "u"
            | "var"
            | "script"
            | "style"
    )
}

fn is_code(name: &str) -> bool {
    matches!(name, "code" | "kbd" | "samp" | "tt")
}

fn heading_level(name: &str) -> Option<usize> {
    match name.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(usize::from(d - b'0')),
        _ => None,
    }
}

/// What the reader writes into: the article's blocks and its heading path.
pub(super) struct Sink<'a> {
    pub(super) source: &'a str,
    pub(super) section: &'a mut Vec<String>,
    pub(super) levels: &'a mut Vec<usize>,
    pub(super) blocks: &'a mut Vec<Block>,
    /// Where the article's images point, Markdown's and HTML's `<img>` alike, in order.
    pub(super) images: &'a mut Vec<String>,
    /// Tables of the article so far (Markdown, console and HTML alike): the next one's index.
    pub(super) n_tables: &'a mut usize,
    /// How deep in Markdown containers (block quotes, list items) the HTML stands.
    pub(super) depth: usize,
}

/// The HTML reader of one article: its open tables, and the HTML text being read outside them.
pub(super) struct Reader {
    /// Open tables, innermost last.
    tables: Vec<Table>,
    /// Tables opened past `MAX_NESTING` and not closed yet: read as text.
    too_deep: usize,
    /// Text of an HTML block outside any cell.
    prose: Option<Block>,
    heading: Option<(usize, Block)>,
    /// The text of a `<pre>` outside any cell, each piece with its source range and whether
    /// the source holds the piece as it reads (no entity in it).
    pre: Option<Vec<(String, Range<usize>, bool)>>,
    /// How many code elements are open.
    code: usize,
    /// Where a `<sup>` just opened: the text after it reads as a power if it starts with a digit.
    sup: Option<Range<usize>>,
    next_cell: usize,
    warnings: Vec<(Range<usize>, String)>,
    unlisted: usize,
}

/// A table being read.
struct Table {
    index: usize,
    /// Its `id`, the name a registry may give it.
    name: Option<String>,
    /// The text of its `<caption>`, once read.
    caption: Option<String>,
    /// The `<table` tag in the source, where a warning about the table points.
    at: Range<usize>,
    depth: usize,
    in_head: bool,
    header_rows: usize,
    body_rows: usize,
    /// For each column, the header texts above it, top down (indices into `header_texts`).
    header_labels: Vec<Vec<usize>>,
    header_texts: Vec<String>,
    /// For each column, the cell from a row above that spans down into the next row: one copy
    /// per column it covers, each counting its own rows down.
    carried: Vec<Option<Carry>>,
    row: Option<Row>,
    cell: Option<OpenCell>,
    warned_wide: bool,
}

#[derive(Clone)]
struct Carry {
    rows_left: usize,
    text: Rc<str>,
    start: usize,
    width: usize,
    header: bool,
}

#[derive(Default)]
struct Row {
    cells: Vec<OpenCell>,
    next_column: usize,
    all_th: bool,
    in_head: bool,
}

struct OpenCell {
    id: usize,
    block: Block,
    column: usize,
    colspan: usize,
    rowspan: usize,
}

impl Table {
    fn new(index: usize, at: Range<usize>, depth: usize) -> Table {
        Table {
            index,
            name: None,
            caption: None,
            at,
            depth,
            in_head: false,
            header_rows: 0,
            body_rows: 0,
            header_labels: Vec::new(),
            header_texts: Vec::new(),
            carried: Vec::new(),
            row: None,
            cell: None,
            warned_wide: false,
        }
    }

    fn close_cell(&mut self) {
        if let Some(cell) = self.cell.take() {
            self.row.get_or_insert_with(|| Row { all_th: true, in_head: self.in_head, ..Row::default() }).cells.push(cell);
        }
    }

    /// Ends the row being read and writes its cells, placed, into `blocks`.
    fn end_row(&mut self, blocks: &mut Vec<Block>) {
        self.close_cell();
        let Some(row) = self.row.take() else { return };
        if row.cells.is_empty() {
            // A row of no cells of its own still passes under the spans from above.
            self.advance_carried();
            return;
        }
        let spanned_by_header = self.carried.iter().flatten().any(|c| c.header);
        let header = self.header_rows < MAX_HEADER_ROWS && (row.in_head || (self.body_rows == 0 && (self.header_rows == 0 || row.all_th || spanned_by_header)));
        let texts: Vec<String> = row.cells.iter().map(|c| c.block.text.trim().to_string()).collect();
        if header {
            self.header_rows += 1;
            for (cell, text) in row.cells.iter().zip(&texts) {
                let idx = self.header_texts.len();
                self.header_texts.push(text.clone());
                for column in cell.column..cell.column.saturating_add(cell.colspan).min(MAX_COLUMNS) {
                    if self.header_labels.len() <= column {
                        self.header_labels.resize_with(column + 1, Vec::new);
                    }
                    self.header_labels[column].push(idx);
                }
            }
        } else {
            self.body_rows += 1;
        }
        let (row_label, label_cells) = if header { (self.header_row_label(&row.cells, &texts), Vec::new()) } else { self.row_label(&row.cells, &texts) };
        let row_number = if header { 0 } else { self.body_rows };
        self.advance_carried();
        for (k, (cell, text)) in row.cells.into_iter().zip(texts).enumerate() {
            if cell.rowspan > 1 {
                let carry = Carry { rows_left: cell.rowspan - 1, text: Rc::from(text), start: cell.column, width: cell.colspan, header };
                for column in cell.column..cell.column.saturating_add(cell.colspan).min(MAX_COLUMNS) {
                    if self.carried.len() <= column {
                        self.carried.resize(column + 1, None);
                    }
                    self.carried[column] = Some(carry.clone());
                }
            }
            let mut block = cell.block;
            if !header {
                let names_row = cell.column == 0 || label_cells.contains(&k);
                let from_heading = || if names_row { None } else { self.caption.iter().chain(block.section.iter().rev()).find_map(|h| numbers::unit_in_label(h)) };
                block.unit = self.column_unit(cell.column).or_else(from_heading);
            }
            block.cell = Some(Cell { table: self.index, row: row_number, column: cell.column, row_label: row_label.clone(), column_label: self.column_label(cell.column) });
            block.table_name.clone_from(&self.name);
            if let Some(b) = block.finish(0) {
                blocks.push(b);
            }
        }
    }

    /// The cells from rows above have one row fewer to span.
    fn advance_carried(&mut self) {
        for slot in &mut self.carried {
            if let Some(c) = slot {
                c.rows_left = c.rows_left.saturating_sub(1);
                if c.rows_left == 0 {
                    *slot = None;
                }
            }
        }
    }

    /// A body row's label: its first cell's text, and while that cell spans several rows, the
    /// next cell's too; with the indices of the row's own cells that make it up.
    fn row_label(&self, cells: &[OpenCell], texts: &[String]) -> (String, Vec<usize>) {
        let mut parts: Vec<&str> = Vec::new();
        let mut own = Vec::new();
        let mut column = 0;
        // Each step moves past one cell, so the row's cells and spans bound the walk.
        for _ in 0..=cells.len() + self.carried.len() {
            if let Some(Some(carry)) = self.carried.get(column) {
                parts.push(&carry.text);
                column = carry.start + carry.width.max(1);
                continue;
            }
            let Some(k) = cells.iter().position(|c| c.column == column) else { break };
            parts.push(&texts[k]);
            own.push(k);
            if cells[k].rowspan <= 1 {
                break;
            }
            column = cells[k].column.saturating_add(cells[k].colspan.max(1));
        }
        let label = parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" › ");
        (label, own)
    }

    /// A header row's label, as a Markdown table's header row has it: the text of its first
    /// cell, which may span down from the row above.
    fn header_row_label(&self, cells: &[OpenCell], texts: &[String]) -> String {
        match self.carried.first() {
            Some(Some(carry)) => carry.text.to_string(),
            _ => texts.first().filter(|_| cells.first().is_some_and(|c| c.column == 0)).cloned().unwrap_or_default(),
        }
    }

    /// The header texts above `column`, top down, joined by ` › `.
    fn column_label(&self, column: usize) -> String {
        let mut parts: Vec<&str> = Vec::new();
        for &i in self.header_labels.get(column).map_or(&[][..], Vec::as_slice) {
            let text = self.header_texts[i].as_str();
            if !text.is_empty() && parts.last() != Some(&text) {
                parts.push(text);
            }
        }
        parts.join(" › ")
    }

    /// The unit of the innermost header above `column` that states one.
    fn column_unit(&self, column: usize) -> Option<Unit> {
        self.header_labels.get(column)?.iter().rev().find_map(|&i| numbers::unit_in_label(&self.header_texts[i]))
    }

    /// Ends the row and clears the spans: a row span never crosses a `<thead>`, `<tbody>` or
    /// `<tfoot>` boundary.
    fn end_group(&mut self, blocks: &mut Vec<Block>) {
        self.end_row(blocks);
        self.carried.clear();
    }
}

impl Reader {
    pub(super) fn new() -> Reader {
        Reader { tables: Vec::new(), too_deep: 0, prose: None, heading: None, pre: None, code: 0, sup: None, next_cell: 0, warnings: Vec::new(), unlisted: 0 }
    }

    /// The warnings, each at its source bytes, in the order found.
    pub(super) fn into_warnings(mut self) -> Vec<(Range<usize>, String)> {
        if self.unlisted > 0 {
            let at = self.warnings.last().map_or(0..0, |w| w.0.clone());
            self.warnings.push((at, format!("{} more warnings about the article's HTML are not listed", self.unlisted)));
        }
        self.warnings
    }

    fn warn(&mut self, at: Range<usize>, message: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push((at, message));
        } else {
            self.unlisted += 1;
        }
    }

    /// The HTML cell being read, which Markdown text between HTML blocks belongs to.
    pub(super) fn cell_mut(&mut self) -> Option<&mut Block> {
        self.tables.last_mut()?.cell.as_mut().map(|c| &mut c.block)
    }

    /// The id of the HTML cell being read.
    pub(super) fn cell_id(&self) -> Option<usize> {
        self.tables.last()?.cell.as_ref().map(|c| c.id)
    }

    /// Whether text now is code: inside `<code>` and its kin.
    pub(super) fn in_code(&self) -> bool {
        self.code > 0
    }

    /// Where a `<sup>` opened just before, once: the text after it reads as a power when it
    /// starts with a digit or a sign.
    pub(super) fn take_sup(&mut self) -> Option<Range<usize>> {
        self.sup.take()
    }

    /// A Markdown block ended outside any HTML cell: inline state does not carry past it.
    pub(super) fn end_markdown_block(&mut self) {
        if self.cell_id().is_none() {
            (self.code, self.sup) = (0, None);
        }
    }

    /// Reads one HTML block, whole.
    pub(super) fn block(&mut self, html: &Html, sink: &mut Sink) {
        for token in tokenize(&html.text) {
            self.token(&token, html, sink, &mut None, true);
        }
        self.end_block(sink);
    }

    /// Reads one tag pulldown-cmark found inline, in the Markdown block `outside` (where text
    /// outside any HTML cell goes).
    pub(super) fn inline(&mut self, html: &Html, sink: &mut Sink, outside: Option<&mut Block>) {
        let mut outside = outside;
        for token in tokenize(&html.text) {
            self.token(&token, html, sink, &mut outside, false);
        }
    }

    /// Whether a table is open.
    pub(super) fn in_table(&self) -> bool {
        !self.tables.is_empty()
    }

    /// Closes every table opened at a Markdown container depth of `depth` or deeper, saying
    /// why.
    pub(super) fn close_tables(&mut self, depth: usize, why: &str, sink: &mut Sink) {
        while self.tables.last().is_some_and(|t| t.depth >= depth) {
            let at = self.tables.last().map(|t| t.at.clone()).unwrap_or_default();
            self.warn(at, format!("`<table>` is not closed before {why}: its cells are read up to there"));
            self.close_table(sink);
        }
        if self.tables.is_empty() {
            self.too_deep = 0;
        }
    }

    /// The end of an HTML block: the prose, heading or `<pre>` it left open ends with it; open
    /// tables go on, since a table's cells may hold Markdown between HTML blocks.
    fn end_block(&mut self, sink: &mut Sink) {
        self.flush(sink);
        if self.cell_id().is_none() {
            (self.code, self.sup) = (0, None);
        }
    }

    /// Writes the prose, heading and `<pre>` being read outside cells.
    fn flush(&mut self, sink: &mut Sink) {
        if let Some(b) = self.prose.take().and_then(|b| b.finish(0)) {
            sink.blocks.push(b);
        }
        if let Some((level, block)) = self.heading.take() {
            super::enter_heading(sink.section, sink.levels, level, block, sink.blocks);
        }
        if let Some(parts) = self.pre.take() {
            read_pre(parts, sink);
        }
    }

    fn token(&mut self, token: &Token, html: &Html, sink: &mut Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        match token {
            Token::Text(range) => self.text(range.clone(), html, sink, outside, block_mode),
            Token::Hidden(_) => {}
            Token::Cut { range, what } => {
                let at = html.source_range(range);
                let at = at.start..at.start + html.text[range.clone()].chars().next().map_or(0, char::len_utf8);
                self.warn(at, format!("{what} before the end of its HTML block: the rest of the block is not read"));
            }
            Token::Start { name, range, attributes } => {
                self.sup = None;
                // An image the page shows is one of the article's figures, as a Markdown one is.
                if name == "img"
                    && let Some(dest) = html.value(&attributes.src)
                {
                    sink.images.push(dest);
                }
                let at = html.source_range(range);
                self.start(name, at, attributes, html, sink, outside, block_mode);
            }
            Token::End { name, range } => {
                self.sup = None;
                let at = html.source_range(range);
                self.end(name, at, sink, outside, block_mode);
            }
        }
    }

    /// Where text goes now, outside `<pre>`: the open cell, else (in an HTML block) the heading
    /// or prose being read, else the Markdown block the tag stands in.
    fn target<'a>(&'a mut self, sink: &Sink, outside: &'a mut Option<&mut Block>, block_mode: bool) -> Option<&'a mut Block> {
        if self.tables.last().is_some_and(|t| t.cell.is_some()) {
            return self.cell_mut();
        }
        if !block_mode {
            return outside.as_deref_mut();
        }
        if let Some((_, heading)) = &mut self.heading {
            return Some(heading);
        }
        Some(self.prose.get_or_insert_with(|| Block::new(&sink.section[..], false)))
    }

    fn text(&mut self, range: Range<usize>, html: &Html, sink: &mut Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        if block_mode
            && self.cell_id().is_none()
            && let Some(parts) = self.pre.as_mut()
        {
            decode(&html.text, range, |ch, r| {
                let from = html.source_range(&r);
                // A character the source holds as it reads joins the piece before it, so that a
                // long `<pre>` is a few pieces, not one a character.
                let verbatim = r.len() == ch.len_utf8() && from.len() == r.len();
                match parts.last_mut() {
                    Some((text, last, true)) if verbatim && last.end == from.start => {
                        text.push(ch);
                        last.end = from.end;
                    }
                    _ => parts.push((ch.to_string(), from, verbatim)),
                }
            });
            return;
        }
        let code = self.code > 0;
        let mut sup = self.sup.take();
        let Some(block) = self.target(sink, outside, block_mode) else { return };
        let start = block.text.len();
        decode(&html.text, range, |ch, r| {
            if let Some(at) = sup.take()
                && (ch.is_ascii_digit() || matches!(ch, '-' | '−' | '+'))
            {
                // A power's base is an integer (`10<sup>3</sup>`, `2<sup>20</sup>`); after a
                // decimal the superscript is a footnote mark (`12.3<sup>1</sup>`), which the
                // space leaves apart from the value, so that the value is read and the mark,
                // an exponent alone, is not. Glued, both were dropped as a name.
                if ends_with_decimal(&block.text) {
                    block.push_char(' ', at.clone());
                }
                block.push_char('^', at);
            }
            block.push_char(ch, html.source_range(&r));
        });
        if code && block.text.len() > start {
            block.code.push(start..block.text.len());
        }
    }

    /// A word break: a space in the text being read.
    fn space(&mut self, at: &Range<usize>, sink: &Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        if block_mode && self.cell_id().is_none() && self.pre.is_some() {
            return;
        }
        if let Some(b) = self.target(sink, outside, block_mode) {
            b.push_char(' ', at.clone());
        }
    }

    /// `<br>`: a space in a cell, which is one sentence whatever it holds; in prose, the end of
    /// a sentence, as a Markdown hard line break is.
    fn line_break(&mut self, at: &Range<usize>, sink: &Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        self.space(at, sink, outside, block_mode);
        if self.cell_id().is_none()
            && let Some(b) = self.target(sink, outside, block_mode)
        {
            b.breaks.push(b.text.len());
        }
    }

    /// A block-level element: in an HTML block outside any cell, the prose read so far is a
    /// block of its own; in a cell or inline, it parts words.
    fn block_break(&mut self, at: &Range<usize>, sink: &mut Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        if block_mode && self.cell_id().is_none() && self.heading.is_none() && self.pre.is_none() {
            if let Some(b) = self.prose.take().and_then(|b| b.finish(0)) {
                sink.blocks.push(b);
            }
        } else {
            self.space(at, sink, outside, block_mode);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn start(&mut self, name: &str, at: Range<usize>, attributes: &Attributes, html: &Html, sink: &mut Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        let Attributes { rowspan, colspan, .. } = *attributes;
        let structure = matches!(name, "table" | "tr" | "td" | "th" | "thead" | "tbody" | "tfoot" | "caption");
        if structure && self.too_deep > 0 {
            if name == "table" {
                self.too_deep += 1;
            }
            self.space(&at, sink, outside, block_mode);
            return;
        }
        match name {
            "table" => self.open_table(at, html.value(&attributes.id), sink),
            "tr" => match self.tables.last_mut() {
                Some(t) => {
                    t.end_row(sink.blocks);
                    t.row = Some(Row { all_th: true, in_head: t.in_head, ..Row::default() });
                    (self.code, self.sup) = (0, None);
                }
                None => self.outside_table(name, at, sink, outside, block_mode),
            },
            "td" | "th" => {
                if self.tables.is_empty() {
                    return self.outside_table(name, at, sink, outside, block_mode);
                }
                let id = self.next_cell;
                self.next_cell += 1;
                let section = sink.section.clone();
                let t = self.tables.last_mut().expect("a table");
                t.close_cell();
                let in_head = t.in_head;
                let row = t.row.get_or_insert_with(|| Row { all_th: true, in_head, ..Row::default() });
                row.all_th &= name == "th";
                // The cell takes the first column from where the row stands that no cell from a
                // row above spans into.
                let mut column = row.next_column;
                while t.carried.get(column).is_some_and(Option::is_some) {
                    column += 1;
                }
                let colspan = colspan.unwrap_or(1).clamp(1, MAX_COLUMNS);
                let rowspan = match rowspan {
                    // `rowspan="0"` spans to the end of the row group.
                    Some(0) => MAX_ROWSPAN,
                    r => r.unwrap_or(1).clamp(1, MAX_ROWSPAN),
                };
                row.next_column = column.saturating_add(colspan);
                let wide = row.next_column > MAX_COLUMNS && !t.warned_wide;
                t.warned_wide |= wide;
                t.cell = Some(OpenCell { id, block: Block::new(&section, false), column, colspan, rowspan });
                (self.code, self.sup) = (0, None);
                if wide {
                    self.warn(at, format!("a table wider than {MAX_COLUMNS} columns: cells past column {MAX_COLUMNS} have no column label"));
                }
            }
            "thead" | "tbody" | "tfoot" => match self.tables.last_mut() {
                Some(t) => {
                    t.end_group(sink.blocks);
                    t.in_head = name == "thead";
                }
                None => self.outside_table(name, at, sink, outside, block_mode),
            },
            "caption" => match self.tables.last_mut() {
                Some(t) => {
                    t.end_row(sink.blocks);
                    self.block_break(&at, sink, outside, block_mode);
                }
                None => self.outside_table(name, at, sink, outside, block_mode),
            },
            "br" => self.line_break(&at, sink, outside, block_mode),
            "img" | "wbr" => self.space(&at, sink, outside, block_mode),
            "sup" => self.sup = Some(at),
            "a" => {
                if let Some(b) = self.target(sink, outside, block_mode) {
                    b.open_links.push(b.text.len());
                }
            }
            "pre" if block_mode && self.cell_id().is_none() && self.heading.is_none() && self.pre.is_none() => {
                self.block_break(&at, sink, outside, block_mode);
                self.pre = Some(Vec::new());
            }
            "pre" => {
                self.space(&at, sink, outside, block_mode);
                self.code = self.code.saturating_add(1);
            }
            _ if is_code(name) => self.code = self.code.saturating_add(1),
            _ if is_inline(name) => {}
            _ => match heading_level(name) {
                Some(level) if block_mode && self.cell_id().is_none() && self.heading.is_none() && self.pre.is_none() => {
                    self.block_break(&at, sink, outside, block_mode);
                    self.heading = Some((level, Block::new(&sink.section[..], true)));
                }
                _ => self.block_break(&at, sink, outside, block_mode),
            },
        }
    }

    fn end(&mut self, name: &str, at: Range<usize>, sink: &mut Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        let structure = matches!(name, "table" | "tr" | "td" | "th" | "thead" | "tbody" | "tfoot" | "caption");
        if structure && self.too_deep > 0 {
            if name == "table" {
                self.too_deep -= 1;
            }
            self.space(&at, sink, outside, block_mode);
            return;
        }
        match name {
            "table" => match self.tables.is_empty() {
                false => self.close_table(sink),
                true => self.warn(at, "`</table>` closes no table".into()),
            },
            "tr" => match self.tables.last_mut() {
                Some(t) if t.row.is_some() || t.cell.is_some() => {
                    t.end_row(sink.blocks);
                    (self.code, self.sup) = (0, None);
                }
                _ => self.warn(at, "`</tr>` closes no row".into()),
            },
            "td" | "th" => match self.tables.last_mut() {
                Some(t) if t.cell.is_some() => {
                    t.close_cell();
                    (self.code, self.sup) = (0, None);
                }
                _ => self.warn(at, format!("`</{name}>` closes no cell")),
            },
            "thead" | "tbody" | "tfoot" => match self.tables.last_mut() {
                Some(t) => {
                    t.end_group(sink.blocks);
                    t.in_head = false;
                }
                None => self.warn(at, format!("`</{name}>` closes no table section")),
            },
            "caption" => {
                // The caption's text is the prose read since `<caption>`: a unit it states
                // applies to the table's cells, as a heading's would.
                if block_mode
                    && self.cell_id().is_none()
                    && self.heading.is_none()
                    && self.pre.is_none()
                    && let Some(text) = self.prose.as_ref().map(|b| b.text.trim().to_string())
                    && let Some(t) = self.tables.last_mut()
                {
                    t.caption = Some(text);
                }
                self.block_break(&at, sink, outside, block_mode)
            }
            "br" => self.line_break(&at, sink, outside, block_mode),
            "img" | "wbr" => self.space(&at, sink, outside, block_mode),
            "sup" => {}
            "a" => {
                if let Some(b) = self.target(sink, outside, block_mode)
                    && let Some(start) = b.open_links.pop()
                {
                    b.links.push(start..b.text.len());
                }
            }
            "pre" if block_mode && self.cell_id().is_none() && self.pre.is_some() => {
                let parts = self.pre.take().unwrap_or_default();
                read_pre(parts, sink);
            }
            "pre" => {
                self.code = self.code.saturating_sub(1);
                self.space(&at, sink, outside, block_mode);
            }
            _ if is_code(name) => self.code = self.code.saturating_sub(1),
            _ if is_inline(name) => {}
            _ => match heading_level(name) {
                Some(_) if block_mode && self.cell_id().is_none() && self.heading.is_some() => {
                    if let Some((level, block)) = self.heading.take() {
                        super::enter_heading(sink.section, sink.levels, level, block, sink.blocks);
                    }
                }
                _ => self.block_break(&at, sink, outside, block_mode),
            },
        }
    }

    /// A cell, row or table section tag with no table open: HTML drops the tag, and so does the
    /// reader, keeping the text where it stands.
    fn outside_table(&mut self, name: &str, at: Range<usize>, sink: &mut Sink, outside: &mut Option<&mut Block>, block_mode: bool) {
        self.warn(at.clone(), format!("`<{name}>` outside a table: read as text, not as a table cell"));
        self.space(&at, sink, outside, block_mode);
    }

    fn open_table(&mut self, at: Range<usize>, name: Option<String>, sink: &mut Sink) {
        match self.tables.last() {
            // A table in a cell is a table of its own, up to a depth.
            Some(t) if t.cell.is_some() && self.tables.len() >= MAX_NESTING => {
                self.too_deep = 1;
                self.warn(at, format!("a table nested more than {MAX_NESTING} deep: read as the text of the cell that holds it"));
                return;
            }
            Some(t) if t.cell.is_some() => {}
            // A table inside a table but outside any cell ends the one before, as HTML reads it.
            Some(_) => {
                let before = self.tables.last().map(|t| t.at.clone()).unwrap_or_default();
                self.warn(before, "`<table>` is not closed before another `<table>` outside any of its cells: its cells are read up to there".into());
                self.close_table(sink);
            }
            None => self.flush(sink),
        }
        self.tables.push(Table { name, ..Table::new(*sink.n_tables, at, sink.depth) });
        *sink.n_tables += 1;
        (self.code, self.sup) = (0, None);
    }

    fn close_table(&mut self, sink: &mut Sink) {
        if let Some(mut t) = self.tables.pop() {
            t.end_row(sink.blocks);
        }
        (self.code, self.sup) = (0, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::article::numbers::Bound;
    use crate::article::{Article, Sentence};

    fn parse(md: &str) -> Article {
        Article::parse("a.md", md.as_bytes()).unwrap()
    }

    /// An HTML cell's `&lt;` and `&ge;` decode to the comparators that make its number a bound;
    /// a `<br>` before a number, read as the tag it is, makes none.
    #[test]
    fn entities_decode_to_bounds() {
        let a = parse(
            "<table><tr><th>case</th><th>p</th><th>copy</th></tr><tr><td>zdt1</td><td>&lt;0.0001</td><td>&ge; 95 %</td></tr><tr><td>zdt2</td><td>0.5<br>3</td><td>&gt;&gt;4</td></tr></table>\n",
        );
        let bounds = |row: &str, column: &str| cell(&a, row, column).numbers.iter().map(|n| (n.text.clone(), n.bound)).collect::<Vec<_>>();
        assert_eq!(bounds("zdt1", "p"), [("<0.0001".to_string(), Some(Bound::Below))]);
        assert_eq!(bounds("zdt1", "copy"), [("≥ 95 %".to_string(), Some(Bound::AtLeast))]);
        assert!(bounds("zdt2", "p").iter().all(|(_, b)| b.is_none()), "{:?}", bounds("zdt2", "p"));
        assert_eq!(bounds("zdt2", "copy"), [("4".to_string(), None)]);
    }

    /// The cell in row `row` and column `column`, by their labels.
    fn cell<'a>(a: &'a Article, row: &str, column: &str) -> &'a Sentence {
        let found: Vec<&Sentence> = a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0 && c.row_label == row && c.column_label == column)).collect();
        assert_eq!(found.len(), 1, "cells at {row:?} × {column:?}: {:?}", a.sentences.iter().map(|s| (&s.text, &s.cell)).collect::<Vec<_>>());
        found[0]
    }

    fn texts(tokens: &[Token], text: &str) -> Vec<String> {
        tokens
            .iter()
            .map(|t| match t {
                Token::Start { name, .. } => format!("<{name}>"),
                Token::End { name, .. } => format!("</{name}>"),
                Token::Text(r) => text[r.clone()].to_string(),
                Token::Hidden(_) => "hidden".into(),
                Token::Cut { what, .. } => format!("cut: {what}"),
            })
            .collect()
    }

    #[test]
    fn tags_are_case_insensitive_and_keep_their_spans() {
        let text = "<TD Align=\"right\" ROWSPAN='2' colspan=3>a > b</Td><!-- x <td> --><br/>";
        let tokens = tokenize(text);
        assert_eq!(texts(&tokens, text), ["<td>", "a > b", "</td>", "hidden", "<br>"]);
        assert!(matches!(&tokens[0], Token::Start { attributes: Attributes { rowspan: Some(2), colspan: Some(3), .. }, range, .. } if range.end == text.find("a >").unwrap()));
    }

    #[test]
    fn a_less_than_sign_that_starts_no_tag_is_text() {
        let text = "a < b and <5 ms, </ x> <!DOCTYPE html> end";
        assert_eq!(texts(&tokenize(text), text), ["a < b and <5 ms, ", "hidden", " ", "hidden", " end"]);
    }

    #[test]
    fn quoted_attributes_may_hold_a_closing_bracket() {
        let text = "<a title=\"x > 5 ms\" href=x>link</a>";
        assert_eq!(texts(&tokenize(text), text), ["<a>", "link", "</a>"]);
    }

    #[test]
    fn cut_tags_comments_and_scripts_are_said_so() {
        for (text, what) in [("<td align=\"right", "`<td` has no `>`"), ("x <!-- 5 ms", "a comment (`<!--`) not closed"), ("<script>var t = '5 ms'", "`<script>` not closed")] {
            let tokens = tokenize(text);
            assert!(matches!(tokens.last(), Some(Token::Cut { what: w, .. }) if w == what), "{text}: {tokens:?}");
        }
        let text = "<script>if (a<b) { x = '</td>' }</SCRIPT>after";
        assert_eq!(texts(&tokenize(text), text), ["<script>", "hidden", "</script>", "after"]);
    }

    #[test]
    fn entities_decode_to_their_characters_and_keep_their_bytes() {
        let text = "12.3&plusmn;0.4&nbsp;ms &#177; &#xB1; &lt;5 &unknown; &amp &times;";
        let mut got = String::new();
        let mut ranges = Vec::new();
        decode(text, 0..text.len(), |ch, r| {
            got.push(ch);
            ranges.push(r);
        });
        assert_eq!(got, "12.3±0.4\u{A0}ms ± ± <5 &unknown; &amp ×");
        assert_eq!(&text[ranges[4].clone()], "&plusmn;");
        assert_eq!(&text[ranges[8].clone()], "&nbsp;");
    }

    #[test]
    fn span_values_parse_as_html_does() {
        assert_eq!(span_value(b" 2x"), Some(2));
        assert_eq!(span_value(b"x"), None);
        assert_eq!(span_value(b"99999999999999999999999999"), Some(usize::MAX));
    }

    const TABLE: &str = "# Results\n\n<table>\n  <thead>\n    <tr><th>Variant</th><th align=\"right\">Latency (ms)</th><th>Mean [us]</th></tr>\n  </thead>\n  <tbody>\n    <tr><td>base</td><td>12.3</td><td>4&nbsp;100</td></tr>\n    <tr><td><b>fast</b></td><td><strong>8.1</strong>&plusmn;0.2</td><td><code>7.5 ms</code></td></tr>\n  </tbody>\n</table>\n\nAfter 3.5 ms.\n";

    #[test]
    fn an_html_table_reads_as_cells_with_labels_and_units() {
        let a = parse(TABLE);
        let base = cell(&a, "base", "Latency (ms)");
        assert_eq!(base.text, "12.3");
        assert_eq!((base.numbers[0].value, base.numbers[0].unit.clone()), (12.3, Some(Unit::Ms)));
        let c = base.cell.as_ref().unwrap();
        assert_eq!((c.table, c.row, c.column), (0, 1, 1));
        assert_eq!(base.section, ["Results"]);
        let fast = cell(&a, "fast", "Latency (ms)");
        assert_eq!(fast.text, "8.1±0.2");
        assert_eq!(fast.numbers.iter().map(|n| (n.value, n.unit.clone())).collect::<Vec<_>>(), [(8.1, Some(Unit::Ms)), (0.2, Some(Unit::Ms))]);
        // Code that is one number as a whole is read in a cell; its own unit wins.
        assert_eq!(cell(&a, "fast", "Mean [us]").numbers[0].unit, Some(Unit::Ms));
        // The header is row 0 and its cells are sentences too.
        let header = a.sentences.iter().find(|s| s.text == "Latency (ms)").unwrap();
        assert_eq!(header.cell.as_ref().unwrap().row, 0);
        assert_eq!(a.sentences.last().unwrap().text, "After 3.5 ms.");
    }

    /// The digits of a number are where the file has them, an entity inside it included.
    #[test]
    fn numbers_point_at_their_bytes_in_the_source() {
        let a = parse(TABLE);
        let fast = cell(&a, "fast", "Latency (ms)");
        let spread = &fast.numbers[1];
        assert_eq!(&TABLE[fast.source_span(&spread.span)], "0.2");
        let first = &fast.numbers[0];
        assert_eq!(&TABLE[fast.source_span(&first.span)], "8.1");
        let line = TABLE[..fast.source_span(&first.span).start].matches('\n').count() + 1;
        assert_eq!((fast.line, line), (9, 9));
        // A no-break space written as an entity between digits groups thousands, as a literal
        // one does in Markdown: one number, whose span covers the entity.
        let grouped = cell(&a, "base", "Mean [us]");
        assert_eq!(grouped.text, "4 100");
        assert_eq!(grouped.numbers.iter().map(|n| (n.text.as_str(), n.value)).collect::<Vec<_>>(), [("4 100", 4100.0)]);
        assert_eq!(&TABLE[grouped.source_span(&grouped.numbers[0].span)], "4&nbsp;100");
        // An entity at the end of a number ends the span at its `;`.
        let src = "<table><tr><th>a</th><th>b</th></tr><tr><td>x</td><td>1.2&times; &minus;4.5&#37;</td></tr></table>\n";
        let a = parse(src);
        let c = cell(&a, "x", "b");
        assert_eq!(c.numbers.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["1.2×", "−4.5%"]);
        assert_eq!(&src[c.source_span(&c.numbers[0].span)], "1.2&times;");
        assert_eq!(&src[c.source_span(&c.numbers[1].span)], "&minus;4.5&", "a one-byte character from an entity ends at its `&`");
    }

    #[test]
    fn th_in_the_first_row_or_the_first_row_is_the_header() {
        let a = parse("<table>\n<tr><td>Name</td><td>Time</td></tr>\n<tr><td>a</td><td>5 ms</td></tr>\n</table>\n");
        assert_eq!(cell(&a, "a", "Time").text, "5 ms");
        let a = parse("<table>\n<tr><th>Name</th><th>Time</th></tr>\n<tr><th>Sub</th><th>Wall</th></tr>\n<tr><th>a</th><td>5 ms</td></tr>\n</table>\n");
        assert_eq!(cell(&a, "a", "Time › Wall").text, "5 ms");
    }

    /// A unit in a table's `<caption>` applies to its cells that state none, before a
    /// heading's; the caption is still prose of its own.
    #[test]
    fn a_caption_s_unit_applies_to_the_cells() {
        let a = parse(
            "# Build (s)\n\n<table><caption>Median latency (µs)</caption><tr><th>Kernel</th><th>H200</th></tr><tr><td>copy</td><td>5.7</td></tr></table>\n\n<table><caption>Build times</caption><tr><th>Crate</th><th>Before</th></tr><tr><td>one</td><td>18.3</td></tr></table>\n",
        );
        let unit = |text: &str| a.sentences.iter().find(|s| s.text == text).unwrap().numbers[0].unit.clone();
        assert_eq!((unit("5.7"), unit("18.3")), (Some(Unit::Us), Some(Unit::S)));
        assert!(a.sentences.iter().any(|s| s.text == "Median latency (µs)"));
    }

    /// A table's `id` is its name, entities decoded and trimmed, the first of a repeated one
    /// counting; a nested table has its own, and a blank one is none.
    #[test]
    fn a_table_is_named_by_its_id() {
        let a = parse(
            "<table id=\" tab&#45;latency \" id=\"second\"><tr><th>Kernel</th><th>µs</th></tr><tr><td>copy</td><td>5.7\
             <table ID='inner'><tr><td>x</td><td>1</td></tr></table></td></tr></table>\n\n\
             <table id=\"\"><tr><td>y</td><td>2</td></tr></table>\n\n<table><tr><td>z</td><td>3</td></tr></table>\n",
        );
        assert_eq!(a.table_names.iter().map(|(t, n)| (*t, n.as_str())).collect::<Vec<_>>(), [(0, "tab-latency"), (1, "inner")]);
        let named = |text: &str| a.sentences.iter().find(|s| s.text == text).and_then(|s| a.table_names.get(&s.cell.as_ref()?.table)).cloned();
        assert_eq!((named("copy"), named("x"), named("y"), named("z")), (Some("tab-latency".into()), Some("inner".into()), None, None));
    }

    /// A header of two rows (a group over its columns) and a row label spanning two rows, as
    /// READMEs write them: each number stays under its own column and row.
    #[test]
    fn rowspan_and_colspan_carry_labels() {
        let md = "<table>
<tr><th rowspan=2>GPU</th><th rowspan=\"2\">dtype</th><th colspan=\"2\">Latency (ms)</th></tr>
<tr><th>p50</th><th>p99</th></tr>
<tr><td rowspan=\"2\">A100</td><td>fp16</td><td>1.5</td><td>2.5</td></tr>
<tr><td>fp32</td><td>3.5</td><td>4.5</td></tr>
<tr><td>H100</td><td>fp16</td><td colspan=\"2\">0.9</td></tr>
</table>
";
        let a = parse(md);
        let p99 = cell(&a, "A100 › fp32", "Latency (ms) › p99");
        assert_eq!((p99.text.as_str(), p99.numbers[0].unit.clone()), ("4.5", Some(Unit::Ms)));
        assert_eq!(p99.cell.as_ref().unwrap().row, 2);
        assert_eq!(cell(&a, "A100 › fp16", "Latency (ms) › p50").text, "1.5");
        // A cell spanning columns takes the column it starts in.
        let wide = cell(&a, "H100", "Latency (ms) › p50");
        assert_eq!((wide.text.as_str(), wide.cell.as_ref().unwrap().column), ("0.9", 2));
        assert_eq!(cell(&a, "A100 › fp16", "GPU").text, "A100");
        // The header cells are row 0, both rows of them.
        assert!(a.sentences.iter().filter(|s| ["GPU", "dtype", "Latency (ms)", "p50", "p99"].contains(&s.text.as_str())).all(|s| s.cell.as_ref().unwrap().row == 0));
    }

    /// A cell spanning rows and columns at once covers every column it spans in every row it
    /// spans; where the only label column spans rows, the value after it tells the rows apart.
    #[test]
    fn a_cell_spanning_rows_and_columns_covers_them_all() {
        let md = "<table>
<tr><th rowspan=\"2\" colspan=\"2\">Config</th><th>Time (ms)</th><th>Note</th></tr>
<tr><th>p50</th><th>n</th></tr>
<tr><td>a</td><td>b</td><td>1.5</td><td>x</td></tr>
<tr><td rowspan=\"2\" colspan=\"2\">wide</td><td>2.5</td><td>y</td></tr>
<tr><td>3.5</td><td>z</td></tr>
<tr><td>c</td><td>d</td><td>4.5</td><td>w</td></tr>
</table>
";
        let a = parse(md);
        assert_eq!(cell(&a, "a", "Time (ms) › p50").numbers[0].unit, Some(Unit::Ms));
        assert_eq!(cell(&a, "wide › 2.5", "Note › n").text, "y");
        let third = cell(&a, "wide › 3.5", "Time (ms) › p50");
        assert_eq!((third.text.as_str(), third.cell.as_ref().unwrap().column), ("3.5", 2));
        assert_eq!(cell(&a, "wide › 3.5", "Note › n").text, "z");
        // The span ends after its two rows, in both its columns: the next row starts at column 0
        // again. Both columns under `Config` have its label: a selector tells them apart by
        // their place (`Config #2`), as binding's tests show.
        let d = a.sentences.iter().find(|s| s.text == "d").unwrap().cell.clone().unwrap();
        assert_eq!((d.row, d.column, d.row_label.as_str(), d.column_label.as_str()), (4, 1, "c", "Config"));
        assert_eq!(cell(&a, "c", "Time (ms) › p50").text, "4.5");
    }

    /// A table whose cells hold Markdown, blank lines apart, as GitHub READMEs write bold
    /// values: pulldown-cmark splits it into HTML blocks and paragraphs, and the cell gets the
    /// paragraph's text at its own bytes.
    #[test]
    fn markdown_between_html_blocks_is_the_cells_text() {
        let md = "<table>\n<tr><th>Run</th><th>Time</th></tr>\n<tr><td>a</td><td>\n\n**12.5 ms** `x`\n\n</td></tr>\n<tr><td>b</td><td>7 ms</td></tr>\n</table>\n\nNext 2 ms.\n";
        let a = parse(md);
        let c = cell(&a, "a", "Time");
        assert_eq!(c.text, "12.5 ms x");
        assert_eq!(&md[c.source_span(&c.numbers[0].span)], "12.5 ms");
        assert_eq!(cell(&a, "b", "Time").text, "7 ms");
        let texts: Vec<&str> = a.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["Run", "Time", "a", "12.5 ms x", "b", "7 ms", "Next 2 ms."]);
    }

    #[test]
    fn html_outside_tables_is_prose() {
        let md = "<p align=\"center\">took 5.5 ms<br>on <b>one</b> GPU</p>\n<div>Second 6 ms.</div>\n\n<details><summary>More (7 runs)</summary>\n\nIn Markdown 8 ms.\n\n</details>\n\n<!-- hidden 9 ms -->\n";
        let a = parse(md);
        let texts: Vec<&str> = a.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["took 5.5 ms on one GPU", "Second 6 ms.", "More (7 runs)", "In Markdown 8 ms."]);
        let s = &a.sentences[0];
        assert_eq!(&md[s.source_span(&s.numbers[0].span)], "5.5 ms");
        assert!(a.sentences.iter().all(|s| s.cell.is_none()));
    }

    #[test]
    fn html_headings_name_sections() {
        let a = parse("<h1 align=\"center\">Tool</h1>\n\n## Results\n\n<h3>GPU (ms)</h3>\n\n<table><tr><th>a</th><th>b</th></tr><tr><td>x</td><td>5</td></tr></table>\n");
        let c = cell(&a, "x", "b");
        assert_eq!(c.section, ["Tool", "Results", "GPU (ms)"]);
        assert_eq!(c.numbers[0].unit, Some(Unit::Ms), "the heading's unit");
        assert!(!a.sentences.iter().any(|s| s.text == "Tool"));
    }

    #[test]
    fn code_pre_and_sup_read_as_markdown_would() {
        let md = "<p>Run <code>bench --n 3</code> at 2.5&times;10<sup>3</sup> rps, 5 ms<sup>1</sup>.</p>\n\n<pre>\nBenchmark      Time     CPU   Iterations\nBM_a         12 ns   12 ns      1000\n</pre>\n\nInline <code>4 ms</code> and a<br>b.\n";
        let a = parse(md);
        let s = &a.sentences[0];
        assert_eq!(s.text, "Run bench --n 3 at 2.5×10^3 rps, 5 ms^1.");
        assert_eq!(s.numbers.iter().map(|n| (n.text.as_str(), n.value)).collect::<Vec<_>>(), [("2.5×10^3", 2500.0), ("5 ms", 5.0)]);
        assert_eq!(&md[s.source_span(&s.numbers[0].span)], "2.5&times;10<sup>3");
        assert_eq!(cell(&a, "BM_a", "Time").text, "12 ns");
        let last = a.sentences.last().unwrap();
        assert_eq!(last.text, "Inline 4 ms and a b.");
        assert!(last.numbers.is_empty(), "inline <code> in Markdown is code");
    }

    #[test]
    fn a_table_in_a_cell_is_a_table_of_its_own() {
        let md = "<table><tr><th>k</th><th>v</th></tr><tr><td>outer</td><td>before 1 ms <table><tr><th>i</th><th>j</th></tr><tr><td>in</td><td>2 ms</td></tr></table> after 3 ms</td></tr></table>\n";
        let a = parse(md);
        let inner = cell(&a, "in", "j");
        assert_eq!(inner.text, "2 ms");
        let outer = cell(&a, "outer", "v");
        assert_eq!(outer.text, "before 1 ms after 3 ms");
        assert_ne!(inner.cell.as_ref().unwrap().table, outer.cell.as_ref().unwrap().table);
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    }

    fn fixture(name: &str) -> (String, Article) {
        let text = std::fs::read_to_string(format!("{}/tests/fixtures/html/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let article = parse(&text);
        (text, article)
    }

    fn body_cells(a: &Article) -> Vec<&Sentence> {
        a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0 && c.column > 0)).collect()
    }

    /// http_benchmarks' results page (tests/fixtures/html/http-benchmarks): fourteen frameworks
    /// under a header of two rows of `<td>`, found by its `rowspan`; each number in its column,
    /// with the unit of the group header above it, at its bytes in the file.
    #[test]
    fn the_http_benchmarks_table_reads_with_its_two_row_header() {
        let (text, a) = fixture("http-benchmarks/multiple_routes.md");
        assert!(a.warnings.is_empty(), "{:?}", warnings(&a));
        let cells = body_cells(&a);
        assert_eq!(cells.len(), 14 * 9);
        assert!(cells.iter().all(|s| s.numbers.len() == 1), "a cell with other than one number");
        assert_eq!(cells.iter().map(|s| s.cell.as_ref().unwrap().row).max(), Some(14));
        let mut columns: Vec<&str> = cells.iter().map(|s| s.cell.as_ref().unwrap().column_label.as_str()).collect();
        columns.dedup();
        assert_eq!(
            columns[..9],
            [
                "Good-o-meter › Throughput",
                "Good-o-meter › Latency",
                "Throughput (rps) › Mean",
                "Throughput (rps) › Max",
                "Throughput (rps) › Standard deviation",
                "Throughput (rps) › Size per second",
                "Latency (ms) › Avg",
                "Latency (ms) › Min",
                "Latency (ms) › Max",
            ]
        );
        let avg = cell(&a, "Vixeny", "Latency (ms) › Avg");
        assert_eq!((avg.text.as_str(), avg.numbers[0].unit.clone()), ("0.65", Some(Unit::Ms)));
        assert_eq!((avg.line, avg.col), (29, 9));
        assert_eq!(&text[avg.source_span(&avg.numbers[0].span)], "0.65");
        let mean = cell(&a, "Vixeny", "Throughput (rps) › Mean");
        assert_eq!((mean.numbers[0].value, mean.numbers[0].unit.clone()), (95_860.0, None));
        assert_eq!(cell(&a, "Vixeny", "Throughput (rps) › Size per second").numbers[0].unit, Some(Unit::MiB));
        assert_eq!(cell(&a, "Acorn", "Latency (ms) › Max").text, "20.31");
        assert_eq!(cell(&a, "Vixeny", "Good-o-meter › Throughput").numbers[0].unit, Some(Unit::Percent));
        // The names are links and give no number; the header's cells are row 0, both rows.
        assert!(a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.column == 0)).all(|s| s.numbers.is_empty()));
        let header: Vec<&str> = a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row == 0)).map(|s| s.text.as_str()).collect();
        assert_eq!(header.len(), 4 + 9);
        assert_eq!(a.sentences.iter().map(|s| s.section.clone()).next(), Some(vec!["Multiple routes".to_string()]));
    }

    /// coreml-model-zoo's ResNet page (tests/fixtures/html/coreml-model-zoo): a header of three
    /// rows, groups over groups, and a header cell commented out that would otherwise move every
    /// later column; two rows share a label, as the page writes them.
    #[test]
    fn the_coreml_table_reads_with_its_three_row_header() {
        let (text, a) = fixture("coreml-model-zoo/resnet_v1.md");
        assert!(a.warnings.is_empty(), "{:?}", warnings(&a));
        let cells = body_cells(&a);
        // Source gives no number; size, four accuracies and five latencies do, in 8 rows.
        let numeric: Vec<&&Sentence> = cells.iter().filter(|s| !s.numbers.is_empty()).collect();
        assert_eq!(numeric.len(), 8 * 10);
        assert!(numeric.iter().all(|s| s.numbers.len() == 1 && s.numbers[0].unit.is_none()), "`Latency, ms` states no unit in brackets");
        let gpu = cell(&a, "ResNet18_V1", "Latency, ms › iPhone 7 › GPU");
        assert_eq!((gpu.text.as_str(), gpu.cell.as_ref().unwrap().column), ("49", 11));
        assert_eq!(&text[gpu.source_span(&gpu.numbers[0].span)], "49");
        assert_eq!(cell(&a, "ResNet18_V1", "Size, MB").text, "45");
        assert_eq!(cell(&a, "ResNet34_V1", "Quality: Accuracy, % › Source › Top-1").text, "73.30");
        assert_eq!(cell(&a, "ResNet34_V1", "Latency, ms › iPhone 11 Pro › ANE").text, "9");
        // A model quoted from two sources is two rows of one label: a cell claim there is
        // ambiguous, which binding reports, rather than the first row silently.
        let twice = a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0 && c.row_label == "ResNet50_V1" && c.column_label == "Size, MB")).count();
        assert_eq!(twice, 2);
        // The header is row 0 throughout; `iPhone 11 Pro` is a header cell with a number.
        let iphone = a.sentences.iter().find(|s| s.text == "iPhone 11 Pro").unwrap();
        assert_eq!((iphone.cell.as_ref().unwrap().row, iphone.numbers.len()), (0, 1));
        // The Markdown after the table is prose.
        assert!(a.sentences.iter().any(|s| s.text == "XCode 11.5" && s.cell.is_none()));
    }

    fn warnings(a: &Article) -> Vec<String> {
        a.warnings.iter().map(|w| format!("{}:{}: {}", w.line, w.col, w.message)).collect()
    }

    #[test]
    fn malformed_tables_are_read_as_far_as_they_go_and_warned_about() {
        let md = "<td>stray 1 ms</td>\n\n</table>\n\n<table><tr><th>a</th><th>b</th></tr>\n<tr><td>x</td><td>5 ms\n\n## Next\n\nProse 6 ms.\n";
        let a = parse(md);
        assert_eq!(a.sentences.iter().find(|s| s.numbers.iter().any(|n| n.value == 1.0)).unwrap().text, "stray 1 ms");
        assert_eq!(cell(&a, "x", "b").text, "5 ms");
        assert_eq!(a.sentences.last().unwrap().section, ["Next"]);
        assert_eq!(
            warnings(&a),
            [
                "1:1: `<td>` outside a table: read as text, not as a table cell",
                "1:15: `</td>` closes no cell",
                "3:1: `</table>` closes no table",
                "5:1: `<table>` is not closed before the heading at line 8: its cells are read up to there",
            ]
        );
    }

    #[test]
    fn a_table_closes_with_the_list_item_it_opened_in() {
        let a = parse("- item\n  <table><tr><th>a</th><th>b</th></tr><tr><td>x</td><td>5 ms\n- next 6 ms\n");
        assert_eq!(cell(&a, "x", "b").text, "5 ms");
        assert!(a.sentences.iter().any(|s| s.text == "next 6 ms" && s.cell.is_none()));
        assert_eq!(warnings(&a), ["2:3: `<table>` is not closed before the end of the block quote or list item that holds it: its cells are read up to there"]);
    }

    #[test]
    fn a_cut_tag_ends_what_is_read_of_its_block() {
        let a = parse("<p>took 5 ms <span title=\"x\n\nAfter 6 ms.\n");
        let texts: Vec<&str> = a.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["took 5 ms", "After 6 ms."]);
        assert_eq!(warnings(&a), ["1:14: `<span` has no `>` before the end of its HTML block: the rest of the block is not read"]);
    }

    #[test]
    fn deep_nesting_is_read_as_text_without_recursion() {
        let depth = 10_000;
        let md = format!("{}5 ms{}\n", "<table><tr><td>".repeat(depth), "</td></tr></table>".repeat(depth));
        let a = parse(&md);
        let five: Vec<&Sentence> = a.sentences.iter().filter(|s| s.numbers.iter().any(|n| n.value == 5.0)).collect();
        assert_eq!(five.len(), 1);
        assert!(five[0].cell.is_some());
        assert_eq!(warnings(&a), ["1:121: a table nested more than 8 deep: read as the text of the cell that holds it"]);
        // Huge spans are clamped, not allocated.
        let a = parse("<table><tr><td colspan=99999999 rowspan=99999999>a</td><td>1 ms</td></tr><tr><td>2 ms</td></tr></table>\n");
        assert!(a.sentences.iter().any(|s| s.text == "2 ms"));
        assert_eq!(a.warnings.len(), 1, "{:?}", warnings(&a));
    }

    /// A footnote mark after a decimal value in a cell (`12.3<sup>1</sup>`) leaves the value
    /// read, where both were dropped as a name; after an integer a superscript is still a power.
    #[test]
    fn a_footnote_mark_after_a_decimal_leaves_the_value() {
        let a =
            parse("<table>\n<tr><th>Engine</th><th>ns/op</th></tr>\n<tr><td>alpha</td><td>12.3<sup>1</sup></td></tr>\n<tr><td>beta</td><td>2<sup>10</sup></td></tr>\n</table>\n");
        let alpha = cell(&a, "alpha", "ns/op");
        let read: Vec<(&str, f64, Option<Unit>)> = alpha.numbers.iter().map(|n| (n.text.as_str(), n.value, n.unit.clone())).collect();
        assert_eq!(read, [("12.3", 12.3, Some(Unit::Ns))]);
        assert_eq!(&a.source[alpha.source_span(&alpha.numbers[0].span)], "12.3");
        let beta = cell(&a, "beta", "ns/op");
        assert_eq!(beta.numbers.iter().map(|n| n.value).collect::<Vec<_>>(), [1024.0]);
    }
}
