//! The article model: a Markdown file read into sections and sentences, each with its byte
//! span, line and fingerprint, and the numbers it quotes. This module owns what counts as prose
//! and where sentences end; it never looks at a registry.
//!
//! Prose is the text of paragraphs, list items, table cells, block quotes and image captions
//! (alt text). Headings name sections and are not sentences. Code blocks and HTML are not
//! prose. Inline code and link text stay in the sentence as they read, but a sentence never
//! ends inside inline code, and no number is taken from inside it.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use sha2::{Digest, Sha256};

use crate::numbers::{self, Number};

/// A parsed article.
#[derive(Debug, Clone)]
pub struct Article {
    /// Root-relative path, for reports.
    pub path: String,
    /// The exact file text.
    pub source: String,
    /// SHA-256 of the exact file bytes, lowercase hex.
    pub sha256: String,
    pub sentences: Vec<Sentence>,
    /// Words of the prose a reader reads: sentences and headings, split on whitespace.
    pub word_count: usize,
    /// Where the article's images point, as written (`figures/softmax.svg`), in order.
    pub images: Vec<String>,
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
    /// 1-based line and column of the first byte.
    pub line: usize,
    pub col: usize,
    /// SHA-256 of the whitespace-normalised text.
    pub fingerprint: String,
    pub numbers: Vec<Number>,
    /// Source offset of each byte of `text`, and one past the end.
    offsets: Vec<usize>,
}

impl Sentence {
    /// The source span of a span of `text`.
    pub fn source_span(&self, span: &Range<usize>) -> Range<usize> {
        let start = self.offsets[span.start.min(self.offsets.len() - 1)];
        let end_idx = span.end.min(self.offsets.len() - 1);
        let end = if span.end > span.start { self.offsets[end_idx - 1] + 1 } else { start };
        start..end.max(start)
    }

    /// The section path joined for display: `CUDA Graphs › Timing`.
    pub fn section_title(&self) -> String {
        self.section.join(" › ")
    }
}

/// Why an article could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ArticleError {
    #[error("{path} is not UTF-8: invalid byte at line {line}, column {col}")]
    NotUtf8 { path: String, line: usize, col: usize },
}

impl Article {
    /// Parses `bytes` read from `path`.
    pub fn parse(path: &str, bytes: &[u8]) -> Result<Article, ArticleError> {
        let sha256 = sha256_hex(bytes);
        let source = match std::str::from_utf8(bytes) {
            Ok(s) => s.to_string(),
            Err(e) => {
                let good = &bytes[..e.valid_up_to()];
                let line = good.iter().filter(|b| **b == b'\n').count() + 1;
                let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
                let col = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
                return Err(ArticleError::NotUtf8 { path: path.to_string(), line, col });
            }
        };
        let (blocks, images) = prose_blocks(&source);
        let mut sentences = Vec::new();
        let mut word_count = 0;
        for block in &blocks {
            word_count += block.text.split_whitespace().count();
            if block.is_heading {
                continue;
            }
            // Code spans and sentences both run in order through the block, so one cursor
            // walks the spans once instead of every sentence scanning all of them.
            let mut first_code = 0;
            for range in split_sentences(&block.text, &block.code) {
                let text = block.text[range.clone()].to_string();
                let offsets: Vec<usize> = block.offsets[range.start..=range.end].to_vec();
                while first_code < block.code.len() && block.code[first_code].end <= range.start {
                    first_code += 1;
                }
                let code: Vec<Range<usize>> = block.code[first_code..]
                    .iter()
                    .take_while(|c| c.start < range.end)
                    .filter(|c| c.start < range.end && range.start < c.end)
                    .map(|c| c.start.saturating_sub(range.start)..(c.end - range.start).min(text.len()))
                    .collect();
                let numbers = numbers::extract(&text, &code);
                let mut sentence = Sentence {
                    index: sentences.len(),
                    fingerprint: fingerprint(&text),
                    text,
                    section: block.section.clone(),
                    span: 0..0,
                    line: 0,
                    col: 0,
                    numbers,
                    offsets,
                };
                sentence.span = sentence.source_span(&(0..sentence.text.len()));
                sentences.push(sentence);
            }
        }
        // Lines and columns in one sweep of the source for all sentences: counting from the
        // start for each sentence is quadratic in a long article.
        let starts: Vec<usize> = sentences.iter().map(|s: &Sentence| s.offsets[0]).collect();
        for (sentence, (line, col)) in sentences.iter_mut().zip(crate::diagnostic::line_cols(&source, &starts)) {
            sentence.line = line;
            sentence.col = col;
        }
        Ok(Article { path: path.to_string(), source, sha256, sentences, word_count, images })
    }
}

/// SHA-256 of `bytes` as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
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

/// A run of prose between block boundaries, with a source offset for every byte.
struct Block {
    text: String,
    offsets: Vec<usize>,
    code: Vec<Range<usize>>,
    section: Vec<String>,
    is_heading: bool,
}

impl Block {
    fn new(section: &[String], is_heading: bool) -> Block {
        Block { text: String::new(), offsets: Vec::new(), code: Vec::new(), section: section.to_vec(), is_heading }
    }

    /// Appends `text`, which came from `source[range]`. When the event text is the source
    /// text itself each byte maps to its own offset; otherwise (entities, escapes) the bytes
    /// map to the start of the range, which is as close as the parser lets us get.
    ///
    /// Runs of whitespace become one space as they are pushed, so that sentence text, quotes
    /// and fingerprints all see the same normal form.
    fn push(&mut self, text: &str, source: &str, range: Range<usize>) {
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

    fn push_code(&mut self, text: &str, source: &str, range: Range<usize>) {
        let start = self.text.len();
        self.push(text, source, range);
        self.code.push(start..self.text.len());
    }

    fn finish(mut self, end: usize) -> Option<Block> {
        self.offsets.push(self.offsets.last().map_or(end, |o| o + 1));
        if self.text.trim().is_empty() { None } else { Some(self) }
    }
}

/// The prose blocks of `source`, and the destinations of its images.
fn prose_blocks(source: &str) -> (Vec<Block>, Vec<String>) {
    let options = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    let mut blocks = Vec::new();
    let mut section: Vec<String> = Vec::new();
    // A stack, because an image caption is its own block inside a paragraph, and a paragraph
    // sits inside a list item.
    let mut open: Vec<Block> = Vec::new();
    let mut heading_level = 0usize;
    let mut in_code_block = false;
    let mut images = Vec::new();
    for (event, range) in Parser::new_ext(source, options).into_offset_iter() {
        if let Event::Start(Tag::Image { dest_url, .. }) = &event {
            images.push(dest_url.to_string());
        }
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            _ if in_code_block => {}
            Event::Start(Tag::Heading { level, .. }) => {
                heading_level = level as usize;
                open.push(Block::new(&section, true));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(block) = open.pop() {
                    let title = block.text.trim().to_string();
                    section.truncate(heading_level.saturating_sub(1));
                    section.push(title);
                    if let Some(b) = block.finish(range.end) {
                        blocks.push(b);
                    }
                }
            }
            Event::Start(Tag::Paragraph | Tag::Item | Tag::TableCell | Tag::Image { .. }) => {
                open.push(Block::new(&section, false));
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell | TagEnd::Image) => {
                if let Some(b) = open.pop().and_then(|b| b.finish(range.end)) {
                    blocks.push(b);
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
                if let Some(b) = open.last_mut() {
                    b.push(&text, source, range);
                }
            }
            Event::Code(text) => {
                if let Some(b) = open.last_mut() {
                    b.push_code(&text, source, range);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(b) = open.last_mut() {
                    b.push(" ", source, range.start..range.start);
                }
            }
            _ => {}
        }
    }
    (blocks, images)
}

/// Words after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] = &["e.g", "i.e", "vs", "etc", "cf", "Fig", "fig", "Eq", "eq", "al", "approx", "No", "Sec", "sec", "resp", "Ref", "ref", "Vol"];

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
            let space_follows = j >= chars.len() || chars[j].1.is_whitespace();
            if space_follows {
                let mut n = j;
                while n < chars.len() && chars[n].1.is_whitespace() {
                    n += 1;
                }
                let next_lower = n < chars.len() && chars[n].1.is_lowercase();
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

    fn sentences(md: &str) -> Vec<String> {
        Article::parse("a.md", md.as_bytes()).unwrap().sentences.into_iter().map(|s| s.text).collect()
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

    #[test]
    fn sha256_is_over_exact_bytes() {
        let a = Article::parse("a.md", b"x\n").unwrap();
        assert_eq!(a.sha256, sha256_hex(b"x\n"));
        assert_ne!(a.sha256, sha256_hex(b"x"));
    }
}
