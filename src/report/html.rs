//! `claimcheck report --html OUT`: the review as one self-contained HTML page for the author and
//! reviewers of an article. The article is rendered from its Markdown by pulldown-cmark's HTML
//! renderer, with each bound sentence (or table cell) wrapped in a mark that shows its status
//! by a symbol as well as a colour (in the article's own HTML too, a table cell's mark inside
//! its `<td>`), and whose pop-up (on hover or keyboard focus) gives the claim's id, verdict,
//! finding, sources and every check with its expected and observed values and its recheck.
//! Unbound numbers are underlined; a draft's edits, changed numbers, lost claims and new
//! sentences are marked the same way. The verdict table links to the sentences, the figures are
//! inline SVG, and the page ends with the SHA-256 of every manuscript, registry, run manifest and
//! figure.
//!
//! The page makes no request: styles, script and figures are inline, and a Content Security
//! Policy forbids anything else (an `<img>` in the article's own HTML included).
//!
//! This module lays out what `commands::review::gather` collected and the audit decided; it
//! never judges a claim again. How a claim *shows* ([`Shown`]) is a choice among the statuses
//! the audit gave it.

use std::collections::BTreeMap;
use std::fmt::Write;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

use crate::article::{Article, HtmlToken, Syntax, tokenize_html};
use crate::checks::Outcome;
use crate::commands::audit::{Change, CheckReview, ClaimBinding, ClaimReview, ClaimStatus, RegistryReview};
use crate::commands::review::{Figure, ReviewFile};
use crate::registry::Verdict;
use crate::status::Status;

/// How a marked sentence shows, from the status the audit gave its claims. Ordered from the
/// least to the most urgent, so that a sentence with several claims shows the most urgent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Shown {
    Held,
    Unchecked,
    /// The sentence is wrong, and the registry records it so (`expect = "mismatch"`).
    Wrong,
    /// Changed since the lock: edited, a number changed, lost, or not yet locked.
    Changed,
    Failed,
}

impl Shown {
    pub(crate) const ALL: [Shown; 5] = [Shown::Held, Shown::Failed, Shown::Wrong, Shown::Unchecked, Shown::Changed];

    pub(crate) fn of(c: &ClaimReview) -> Shown {
        match c.status() {
            ClaimStatus::Wrong => Shown::Wrong,
            ClaimStatus::Ok | ClaimStatus::OkWithSkips if c.wrong_as_found() => Shown::Wrong,
            ClaimStatus::Ok | ClaimStatus::OkWithSkips => Shown::Held,
            ClaimStatus::Unchecked => Shown::Unchecked,
            ClaimStatus::Changed | ClaimStatus::Edited | ClaimStatus::NotLocked => Shown::Changed,
            // A lost claim that the lock explains is a change of the draft, not bad input.
            ClaimStatus::Lost if matches!(c.change, Some(Change::Lost { .. })) => Shown::Changed,
            ClaimStatus::Lost | ClaimStatus::Ambiguous | ClaimStatus::NoArticle | ClaimStatus::Error | ClaimStatus::Fail => Shown::Failed,
        }
    }

    /// The word the page's classes and `data-status` attributes use.
    pub(crate) fn class(self) -> &'static str {
        match self {
            Shown::Held => "held",
            Shown::Unchecked => "unchecked",
            Shown::Wrong => "wrong",
            Shown::Changed => "changed",
            Shown::Failed => "failed",
        }
    }

    /// The symbol shown beside the colour, so that the page reads without colour.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Shown::Held => "✓",
            Shown::Unchecked => "○",
            Shown::Wrong => "≠",
            Shown::Changed => "Δ",
            Shown::Failed => "✗",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Shown::Held => "held",
            Shown::Unchecked => "unchecked (a judgement)",
            Shown::Wrong => "wrong, as the audit found",
            Shown::Changed => "changed since the lock",
            Shown::Failed => "failed",
        }
    }
}

/// The page.
pub(crate) fn render(file: &ReviewFile) -> String {
    let audit = &file.audit;
    let mut body = String::new();
    let title = match audit.registries.as_slice() {
        [one] => format!("Review of {}", one.manuscript),
        _ => "claimcheck review".to_string(),
    };
    let _ = write!(body, "<header><h1>{}</h1>", esc(&title));
    let (sym, status) = match file.status {
        Status::Clean => ("✓", "all claims hold"),
        Status::NeedsAttention => ("✗", "needs attention"),
    };
    let _ = write!(
        body,
        "<p class=\"overall {}\" id=\"status\"><span class=\"sym\" aria-hidden=\"true\">{sym}</span> {status}: {} claims in {} {}; audit and offline recheck by claimcheck {}.</p>",
        if file.status == Status::Clean { "s-held" } else { "s-failed" },
        audit.claims().count(),
        audit.registries.len(),
        if audit.registries.len() == 1 { "registry" } else { "registries" },
        env!("CARGO_PKG_VERSION")
    );
    body.push_str(&legend());
    body.push_str("<nav aria-label=\"contents\"><ul>");
    for (i, r) in audit.registries.iter().enumerate() {
        let _ = write!(body, "<li><a href=\"#r{i}\">{}</a> <span class=\"muted\">({})</span></li>", esc(&r.manuscript), esc(&r.file));
    }
    body.push_str("<li><a href=\"#evidence\">Evidence and hashes</a></li></ul></nav></header><main>");
    for (i, r) in audit.registries.iter().enumerate() {
        let article = file.manuscripts.get(i).and_then(|m| m.article.as_deref());
        body.push_str(&registry_section(file, i, r, article));
    }
    body.push_str(&evidence_section(file));
    body.push_str("</main>");
    page(&title, &body)
}

/// The line `report --html OUT` prints once the page is written.
pub(crate) fn written_line(path: &str, file: &ReviewFile) -> String {
    let marked = file.audit.claims().count();
    let attention = file.audit.claims().filter(|c| !matches!(Shown::of(c), Shown::Held | Shown::Unchecked | Shown::Wrong)).count();
    format!(
        "report written: {path} ({marked} claims, {attention} needing attention; {})",
        match file.status {
            Status::Clean => "all claims hold",
            Status::NeedsAttention => "needs attention",
        }
    )
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n<script>{JS}</script>\n</body>\n</html>\n",
        esc(title)
    )
}

fn legend() -> String {
    let mut out = String::from("<p class=\"legend\" aria-label=\"legend\">");
    for s in Shown::ALL {
        let _ = write!(out, "<span class=\"key s-{}\"><span class=\"sym\" aria-hidden=\"true\">{}</span> {}</span> ", s.class(), s.symbol(), s.label());
    }
    out.push_str("<span class=\"key\"><span class=\"num unbound\">12.3</span> unbound number</span> ");
    out.push_str("<span class=\"key\"><span class=\"num num-changed\">4.5</span> number changed since the lock</span> ");
    out.push_str("<span class=\"key\"><span class=\"sent-new\"><span class=\"sym\" aria-hidden=\"true\">+</span> new sentence</span></span> ");
    out.push_str("<span class=\"key\"><span class=\"num num-failed\">1.0</span> number whose check fails</span> ");
    out.push_str("<span class=\"muted\">Hover or focus (Tab) a marked sentence for its claim; Escape closes.</span></p>");
    out
}

fn registry_section(file: &ReviewFile, ri: usize, r: &RegistryReview, article: Option<&Article>) -> String {
    let p = format!("r{ri}-");
    let mut out = String::new();
    let _ = write!(out, "<section class=\"registry\" id=\"r{ri}\" aria-labelledby=\"{p}h\"><h2 id=\"{p}h\">{}</h2>", esc(&r.manuscript));
    let _ = write!(out, "<p class=\"muted\">Claims registry <code>{}</code>", esc(&r.file));
    if let Some(of) = &r.draft_of {
        let _ = write!(out, "; a draft in place of <code>{}</code>", esc(of));
    }
    out.push_str(".</p>");
    out.push_str(&changes_panel(r, &p));
    out.push_str(&counts_table(r, &p));
    match article {
        Some(a) => {
            let _ = write!(out, "<h3>Article</h3><article class=\"doc\" aria-label=\"the article with its claims marked\">{}</article>", article_html(file, r, a, &p));
        }
        None => out.push_str("<p class=\"s-failed\">The article could not be read.</p>"),
    }
    out.push_str(&claims_table(r, &p));
    out.push_str("</section>");
    out
}

/// What changed against the lock, with links to each change's mark.
fn changes_panel(r: &RegistryReview, p: &str) -> String {
    let Some(l) = &r.lock else { return String::new() };
    let changed: Vec<&ClaimReview> = r.claims.iter().filter(|c| c.changed()).collect();
    let hash_differs = r.actual_sha256.as_deref() != Some(r.recorded_sha256.as_str());
    if changed.is_empty() && l.changed + l.new + l.deleted == 0 && r.unbound.is_empty() && !hash_differs && l.stale.is_empty() {
        return String::new();
    }
    let mut out = String::from("<div class=\"changes\" role=\"region\" aria-label=\"changes since the lock\"><h3>Changes since the lock</h3><ul>");
    if hash_differs {
        let _ = write!(
            out,
            "<li>SHA-256 <code>{}</code> differs from the <code>{}</code> recorded in <code>{}</code>.</li>",
            esc(r.actual_sha256.as_deref().unwrap_or("unreadable")),
            esc(&r.recorded_sha256),
            esc(&r.file)
        );
    }
    let _ = write!(out, "<li>Against <code>{}</code>: {} sentences unchanged, {} changed, {} new, {} deleted.</li>", esc(&l.file), l.unchanged, l.changed, l.new, l.deleted);
    for why in &l.stale {
        let _ = write!(out, "<li>The lock is out of date: {}.</li>", esc(why));
    }
    for c in changed {
        let what = c.change.as_ref().map_or("changed", |ch| ch.name());
        let _ = write!(out, "<li><a href=\"#{p}c-{}\">{}</a>: {}", attr(&c.id), esc(&c.id), esc(what));
        match &c.change {
            Some(Change::Edited { diff, .. } | Change::NumberChanged { diff, .. }) => {
                let _ = write!(out, " — {}", diff_html(diff));
            }
            Some(Change::Lost { before, deleted, .. }) => {
                let _ = write!(out, " — the sentence was {}: <del>{}</del>", if *deleted { "deleted" } else { "rewritten" }, esc(before));
            }
            _ => {}
        }
        out.push_str("</li>");
    }
    for (k, u) in r.unbound.iter().enumerate() {
        let _ = write!(
            out,
            "<li><a href=\"#{p}u-{k}\">unbound number {}</a> at {}{}</li>",
            esc(&u.number),
            esc(&line_and_column(&u.at, &r.manuscript)),
            u.origin.map_or(String::new(), |o| format!(" ({o} sentence)"))
        );
    }
    out.push_str("</ul></div>");
    out
}

/// Claims per verdict and how they show, each count linking to its verdict's rows.
fn counts_table(r: &RegistryReview, p: &str) -> String {
    let mut by: BTreeMap<Verdict, BTreeMap<Shown, usize>> = BTreeMap::new();
    for c in &r.claims {
        *by.entry(c.verdict).or_default().entry(Shown::of(c)).or_insert(0) += 1;
    }
    let mut out = String::from("<h3>Verdicts</h3><table class=\"counts\"><thead><tr><th scope=\"col\">verdict</th><th scope=\"col\">claims</th>");
    for s in Shown::ALL {
        let _ = write!(out, "<th scope=\"col\" class=\"s-{}\"><span class=\"sym\" aria-hidden=\"true\">{}</span> {}</th>", s.class(), s.symbol(), s.class());
    }
    out.push_str("</tr></thead><tbody>");
    for (v, shown) in &by {
        let total: usize = shown.values().sum();
        let _ = write!(out, "<tr><th scope=\"row\"><a href=\"#{p}v-{v}\">{v}</a></th><td><a href=\"#{p}v-{v}\">{total}</a></td>");
        for s in Shown::ALL {
            match shown.get(&s) {
                Some(n) => {
                    // The count links to the first such claim's sentence.
                    let first = r.claims.iter().find(|c| c.verdict == *v && Shown::of(c) == s).expect("a counted claim");
                    let _ = write!(out, "<td><a href=\"#{p}c-{}\" aria-label=\"{n} {v} claims {}, the first is {}\">{n}</a></td>", attr(&first.id), s.class(), attr(&first.id));
                }
                None => out.push_str("<td class=\"muted\">0</td>"),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

fn claims_table(r: &RegistryReview, p: &str) -> String {
    let mut out = String::from(
        "<h3>Claims</h3><table class=\"claims\"><thead><tr><th scope=\"col\">id</th><th scope=\"col\">status</th><th scope=\"col\">checks</th><th scope=\"col\">section</th><th scope=\"col\">finding</th></tr></thead>",
    );
    let mut verdicts: Vec<Verdict> = r.claims.iter().map(|c| c.verdict).collect();
    verdicts.sort();
    verdicts.dedup();
    for v in verdicts {
        let claims: Vec<&ClaimReview> = r.claims.iter().filter(|c| c.verdict == v).collect();
        let _ = write!(out, "<tbody id=\"{p}v-{v}\"><tr class=\"group\"><th colspan=\"5\" scope=\"rowgroup\">{v} ({})</th></tr>", claims.len());
        for c in claims {
            let s = Shown::of(c);
            let _ = write!(
                out,
                "<tr data-claim=\"{}\" data-status=\"{}\"><td><a href=\"#{p}c-{}\">{}</a></td><td class=\"s-{}\"><span class=\"sym\" aria-hidden=\"true\">{}</span> {}</td><td>{}/{}</td><td>{}</td><td>{}</td></tr>",
                attr(&c.id),
                s.class(),
                attr(&c.id),
                esc(&c.id),
                s.class(),
                s.symbol(),
                esc(&c.status().to_string()),
                c.passed(),
                c.checks.len(),
                esc(c.section().rsplit(" › ").next().unwrap_or("")),
                esc(&c.finding)
            );
        }
        out.push_str("</tbody>");
    }
    out.push_str("</table>");
    out
}

/// A stretch of the article's source wrapped in a mark.
struct Mark {
    span: (usize, usize),
    /// The opening of the first segment, with its symbol and pop-up.
    open: String,
    /// The opening of a later segment, where the mark had to close around other markup.
    cont: String,
    close: &'static str,
}

/// Marks of one level, sorted and not overlapping.
struct Level {
    marks: Vec<Mark>,
}

impl Level {
    fn containing(&self, at: usize) -> Option<usize> {
        let i = self.marks.partition_point(|m| m.span.0 <= at);
        (i > 0 && at < self.marks[i - 1].span.1).then(|| i - 1)
    }
}

/// The article as HTML with its sentences and numbers marked.
fn article_html(file: &ReviewFile, r: &RegistryReview, article: &Article, p: &str) -> String {
    let (levels, inserts) = marks(file, r, p);
    marked_html(&article.source, article.syntax, &levels, &inserts, &|dest| figure_open(file, &r.manuscript, dest))
}

/// The article marked at every sentence and every number, for the fuzz target (`fuzz_api`):
/// the page's renderer must take whatever article the parser takes. Marks of one level that
/// would overlap are dropped, as the page never makes them.
pub(crate) fn mark_everything(article: &Article) -> String {
    let level = |mut spans: Vec<(usize, usize)>| {
        spans.sort();
        let mut marks: Vec<Mark> = Vec::new();
        for span in spans {
            if span.0 < span.1 && marks.last().is_none_or(|m| m.span.1 <= span.0) {
                marks.push(Mark { span, open: "<mark>".into(), cont: "<mark>".into(), close: "</mark>" });
            }
        }
        Level { marks }
    };
    let sentences = article.sentences.iter().map(|s| (s.span.start, s.span.end)).collect();
    let numbers = article.sentences.iter().flat_map(|s| s.numbers.iter().map(|n| s.source_span(&n.span))).map(|r| (r.start, r.end)).collect();
    let mut inserts = article.sentences.iter().step_by(3).map(|s| (s.span.start, "<ins></ins>".to_string())).collect::<Vec<_>>();
    inserts.sort_by_key(|(o, _)| *o);
    marked_html(&article.source, article.syntax, &[level(sentences), level(numbers)], &inserts, &|dest| format!("<span><span data-dest=\"{}\">", esc(dest)))
}

/// Markdown `src` as HTML with `levels` of marks wrapped around their source spans, each
/// insert placed before the text at its offset, and each image opened by `figure`. A
/// reStructuredText article, which no renderer here lays out, shows as its source in a
/// preformatted block, marked the same way.
fn marked_html(src: &str, syntax: Syntax, levels: &[Level; 2], inserts: &[(usize, String)], figure: &dyn Fn(&str) -> String) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    let mut w = Writer {
        levels,
        inserts,
        next_insert: 0,
        stack: Vec::new(),
        opened: vec![vec![false; levels[0].marks.len()], vec![false; levels[1].marks.len()]],
        depth: 0,
        out: Vec::new(),
    };
    // pulldown-cmark hands an HTML block over a line at a time; it is marked as one text.
    let mut html_block: Vec<(CowStr, std::ops::Range<usize>)> = Vec::new();
    let events: Box<dyn Iterator<Item = (Event, std::ops::Range<usize>)>> = match syntax {
        Syntax::Markdown => Box::new(Parser::new_ext(src, options).into_offset_iter()),
        Syntax::ReStructuredText | Syntax::Latex => Box::new(
            [
                (Event::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(CowStr::from(if syntax == Syntax::Latex { "latex" } else { "rst" })))), 0..0),
                (Event::Text(CowStr::from(src)), 0..src.len()),
                (Event::End(TagEnd::CodeBlock), src.len()..src.len()),
            ]
            .into_iter(),
        ),
    };
    for (event, range) in events {
        if !matches!(event, Event::Html(_)) {
            w.html_block(src, std::mem::take(&mut html_block));
        }
        match event {
            Event::Html(html) => html_block.push((html, range)),
            Event::Text(text) => {
                if src.get(range.clone()) == Some(&*text) {
                    // The text is the source itself, so it can be cut at any mark's edge.
                    let cuts = w.cuts(src, range.start, range.end, |o| o);
                    for pair in cuts.windows(2) {
                        w.at(pair[0]);
                        w.out.push(Event::Text(CowStr::from(src[pair[0]..pair[1]].to_string())));
                    }
                } else {
                    w.at(range.start);
                    w.out.push(Event::Text(text));
                }
            }
            Event::Code(_) | Event::InlineMath(_) | Event::DisplayMath(_) | Event::FootnoteReference(_) => {
                w.at(range.start);
                w.out.push(event);
            }
            Event::SoftBreak | Event::HardBreak | Event::InlineHtml(_) | Event::TaskListMarker(_) => w.out.push(event),
            Event::Start(Tag::Image { dest_url, .. }) => {
                w.close_all();
                w.out.push(Event::InlineHtml(CowStr::from(figure(&dest_url))));
                w.depth += 1;
            }
            Event::End(TagEnd::Image) => {
                w.close_inside();
                w.out.push(Event::InlineHtml(CowStr::from("</span></span>")));
                w.depth -= 1;
            }
            Event::Start(Tag::Emphasis | Tag::Strong | Tag::Strikethrough | Tag::Superscript | Tag::Subscript | Tag::Link { .. }) => {
                w.out.push(event);
                w.depth += 1;
            }
            Event::End(TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Superscript | TagEnd::Subscript | TagEnd::Link) => {
                w.close_inside();
                w.out.push(event);
                w.depth -= 1;
            }
            // Every other tag is a block: a mark never spans one.
            Event::Start(_) | Event::End(_) | Event::Rule => {
                w.close_all();
                w.out.push(event);
            }
        }
    }
    w.html_block(src, html_block);
    w.close_all();
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, w.out.into_iter());
    // Changes that stood after the last sentence (a deleted closing sentence) come last.
    for (_, insert) in &inserts[w.next_insert..] {
        html.push_str(insert);
    }
    html
}

/// `at`, or the end of the character reference (`&amp;`, `&#8201;`) that `at` falls inside in
/// the HTML text `src[text]`: a mark's edge never splits one.
fn past_entity(src: &str, text: std::ops::Range<usize>, at: usize) -> usize {
    let before = &src[text.start..at];
    let Some(amp) = before.rfind('&') else { return at };
    let name = &before[amp + 1..];
    if name.len() > 32 || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'#') {
        return at;
    }
    let after = &src[at..text.end];
    match after.find(';') {
        Some(k) if k <= 32 && after[..k].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'#') => at + k + 1,
        _ => at,
    }
}

/// Walks the article's events, opening and closing marks so that they nest properly in the
/// markup: a mark closes before the end of an element it was opened in, and reopens after it.
struct Writer<'a> {
    levels: &'a [Level; 2],
    inserts: &'a [(usize, String)],
    next_insert: usize,
    /// Open marks: (level, index, inline depth it was opened at).
    stack: Vec<(usize, usize, usize)>,
    opened: Vec<Vec<bool>>,
    depth: usize,
    out: Vec<Event<'a>>,
}

impl Writer<'_> {
    /// Before text at source offset `at`: the changes that stood there, then exactly the marks
    /// that contain `at`.
    fn at(&mut self, at: usize) {
        while self.next_insert < self.inserts.len() && self.inserts[self.next_insert].0 <= at {
            // An inserted mark stands between sentences, outside any sentence's mark.
            self.close_all();
            self.out.push(Event::InlineHtml(CowStr::from(self.inserts[self.next_insert].1.clone())));
            self.next_insert += 1;
        }
        let wanted: Vec<(usize, usize)> = (0..2).filter_map(|l| self.levels[l].containing(at).map(|i| (l, i))).collect();
        let keep = self.stack.iter().zip(&wanted).take_while(|((l, i, _), w)| (*l, *i) == **w).count();
        while self.stack.len() > keep {
            self.pop();
        }
        for &(l, i) in &wanted[keep..] {
            let mark = &self.levels[l].marks[i];
            let html = if self.opened[l][i] { mark.cont.clone() } else { mark.open.clone() };
            self.opened[l][i] = true;
            self.out.push(Event::InlineHtml(CowStr::from(html)));
            self.stack.push((l, i, self.depth));
        }
    }

    /// Where the text `src[at..end]` is cut: its two ends and every mark's edge and insert inside
    /// it, each moved back to the start of the character it falls inside and then by `adjust`,
    /// in order. The marks of a level are sorted and never overlap, so only those that reach into
    /// the text are looked at: a long article's text events would otherwise each scan every mark
    /// of the article.
    ///
    /// A mark's edge can fall inside a character: where the article's reader could not map a
    /// piece of text to the source byte for byte (a console table's cell whose words a tag in a
    /// `<pre>` parts, so that its text is not found in its source range), each of the piece's
    /// bytes maps to the range's start, plus its place in the character, and the byte after that
    /// is not always the end of a character of the source. Slicing the source there panicked;
    /// the edge now moves to the character's start, so the mark still covers the text it was read
    /// from, give or take that character (a mark within one character is not drawn).
    fn cuts(&self, src: &str, at: usize, end: usize, adjust: impl Fn(usize) -> usize) -> Vec<usize> {
        let whole = |mut o: usize| {
            while o > at && !src.is_char_boundary(o) {
                o -= 1;
            }
            o
        };
        let mut cuts = vec![at, end];
        for level in self.levels {
            let first = level.marks.partition_point(|m| m.span.1 <= at);
            let last = level.marks.partition_point(|m| m.span.0 < end);
            cuts.extend(level.marks[first..last.max(first)].iter().flat_map(|m| [m.span.0, m.span.1]).filter(|o| *o > at && *o < end).map(whole).map(&adjust));
        }
        let first = self.inserts.partition_point(|(o, _)| *o <= at);
        cuts.extend(self.inserts[first..].iter().map(|(o, _)| *o).take_while(|o| *o < end).map(whole).map(&adjust));
        cuts.sort();
        cuts.dedup();
        cuts
    }

    /// An HTML block (a table, a `<pre>`, a `<p>`), with marks wrapped around its text where
    /// that text is the source's own bytes, as the article's HTML reader read it. A mark never
    /// spans a tag: it closes before each and opens again after. Text the source does not hold
    /// verbatim passes unmarked rather than marked at the wrong place.
    fn html_block(&mut self, src: &str, pieces: Vec<(CowStr<'_>, std::ops::Range<usize>)>) {
        if pieces.is_empty() {
            return;
        }
        let mut text = String::new();
        let mut offsets: Vec<Option<usize>> = Vec::new();
        for (piece, range) in &pieces {
            let verbatim = src.get(range.clone()) == Some(&**piece);
            offsets.extend((0..piece.len()).map(|i| verbatim.then_some(range.start + i)));
            text.push_str(piece);
        }
        self.close_all();
        for token in tokenize_html(&text) {
            let r = token.range();
            let start = offsets[r.start];
            let in_source = matches!(token, HtmlToken::Text(_)) && start.is_some_and(|s| (r.start..r.end).all(|i| offsets[i] == Some(s + i - r.start)));
            let Some(at) = start.filter(|_| in_source) else {
                self.close_all();
                self.out.push(Event::Html(CowStr::from(text[r].to_string())));
                continue;
            };
            let end = at + r.len();
            let cuts = self.cuts(src, at, end, |o| past_entity(src, at..end, o));
            for pair in cuts.windows(2) {
                self.at(pair[0]);
                self.out.push(Event::Html(CowStr::from(src[pair[0]..pair[1]].to_string())));
            }
        }
        self.close_all();
    }

    fn pop(&mut self) {
        if let Some((l, i, _)) = self.stack.pop() {
            self.out.push(Event::InlineHtml(CowStr::from(self.levels[l].marks[i].close)));
        }
    }

    fn close_all(&mut self) {
        while !self.stack.is_empty() {
            self.pop();
        }
    }

    /// Closes the marks opened inside the inline element that is ending.
    fn close_inside(&mut self) {
        while self.stack.last().is_some_and(|(_, _, d)| *d >= self.depth) {
            self.pop();
        }
    }
}

/// The opening of a figure: the image's SVG inline (or a PNG, JPEG or GIF as a data URI), and
/// the start of its caption, which the alt text's events fill.
fn figure_open(file: &ReviewFile, manuscript: &str, dest: &str) -> String {
    let figure: Option<&Figure> = file.figures.iter().find(|f| f.manuscript == manuscript && f.dest == dest);
    let image = match figure.and_then(|f| f.bytes.as_deref()) {
        Some(bytes) if dest.ends_with(".svg") => match std::str::from_utf8(bytes) {
            Ok(svg) => inline_svg(svg),
            Err(_) => missing(dest, "is not UTF-8"),
        },
        Some(bytes) => match dest.rsplit('.').next().map(str::to_ascii_lowercase).as_deref() {
            Some(kind @ ("png" | "gif")) => format!("<img alt=\"\" src=\"data:image/{kind};base64,{}\">", base64(bytes)),
            Some("jpg" | "jpeg") => format!("<img alt=\"\" src=\"data:image/jpeg;base64,{}\">", base64(bytes)),
            _ => missing(dest, "is not an image the page can show inline"),
        },
        None => missing(dest, "is not in the repository"),
    };
    let sha = figure.and_then(|f| f.sha256.as_deref()).map_or(String::new(), |s| format!(", SHA-256 <code>{}</code>", esc(crate::hash::short(s))));
    format!(
        "<span class=\"figure\" role=\"group\"><span class=\"image\">{image}</span><span class=\"caption\"><span class=\"muted\">Figure <code>{}</code>{sha}:</span> ",
        esc(dest)
    )
}

fn missing(dest: &str, why: &str) -> String {
    format!("<span class=\"s-failed\">the figure <code>{}</code> {why}</span>", esc(dest))
}

/// An SVG file as an element of the page, without an XML declaration or doctype; hidden from
/// screen readers, which read the caption that follows instead.
fn inline_svg(svg: &str) -> String {
    let start = svg.find("<svg").unwrap_or(0);
    svg[start..].replacen("<svg", "<svg aria-hidden=\"true\" focusable=\"false\"", 1)
}

/// The marks of a registry's article, by level (sentences, then numbers), and the marks of
/// what was deleted, by the source offset where it stood.
fn marks(file: &ReviewFile, r: &RegistryReview, p: &str) -> ([Level; 2], Vec<(usize, String)>) {
    // Sentence span → its claims and its change since the lock.
    let mut sentences: BTreeMap<(usize, usize), (Vec<&ClaimReview>, Option<&str>)> = BTreeMap::new();
    for c in &r.claims {
        match &c.binding {
            ClaimBinding::Bound { sentence, .. } => sentences.entry(sentence.span).or_default().0.push(c),
            ClaimBinding::Ambiguous { sentences: all } => {
                for s in all {
                    sentences.entry(s.span).or_default().0.push(c);
                }
            }
            ClaimBinding::Lost { .. } | ClaimBinding::NoArticle => {}
        }
    }
    for (s, origin) in &r.sentence_changes {
        sentences.entry(s.span).or_default().1 = Some(origin);
    }
    let mut level0 = Vec::new();
    for (k, (span, (claims, origin))) in sentences.iter().enumerate() {
        let id = format!("{p}s-{k}");
        if claims.is_empty() {
            // A new or changed sentence that holds no claim.
            let origin = origin.unwrap_or("changed");
            let class = format!("sent-{origin}");
            let pop = format!("<span class=\"pop\" role=\"tooltip\" id=\"{id}-pop\"><span class=\"pc\">A {origin} sentence since the lock; it holds no claim.</span></span>");
            level0.push(Mark {
                span: *span,
                open: format!("<span class=\"{class}\" tabindex=\"0\" id=\"{id}\" data-change=\"{origin}\" aria-describedby=\"{id}-pop\"><span class=\"sym\" aria-hidden=\"true\">+</span>{pop}"),
                cont: format!("<span class=\"{class} cont\">"),
                close: "</span>",
            });
            continue;
        }
        let shown = claims.iter().map(|c| Shown::of(c)).max().expect("a claim");
        let ids: Vec<&str> = claims.iter().map(|c| c.id.as_str()).collect();
        let change = claims.iter().filter_map(|c| c.change.as_ref()).map(|ch| ch.name()).find(|n| *n != "unchanged").or(*origin);
        let anchors: String = claims.iter().map(|c| format!("<span class=\"anchor\" id=\"{p}c-{}\"></span>", attr(&c.id))).collect();
        let pop: String = claims.iter().map(|c| claim_pop(file, r, c)).collect();
        let label = format!("claim {}: {}", ids.join(", "), shown.label());
        level0.push(Mark {
            span: *span,
            open: format!(
                "{anchors}<span class=\"mark s-{cls}\" tabindex=\"0\" id=\"{id}\" data-claims=\"{claims}\" data-status=\"{cls}\"{change} aria-describedby=\"{id}-pop\" aria-label=\"{label}\"><span class=\"sym\" aria-hidden=\"true\">{sym}</span><span class=\"pop\" role=\"tooltip\" id=\"{id}-pop\">{pop}</span>",
                cls = shown.class(),
                claims = attr(&ids.join(" ")),
                change = change.map_or(String::new(), |c| format!(" data-change=\"{c}\"")),
                label = attr(&label),
                sym = shown.symbol(),
            ),
            cont: format!("<span class=\"mark s-{} cont\" data-claims=\"{}\">", shown.class(), attr(&ids.join(" "))),
            close: "</span>",
        });
    }

    // Numbers: each checked number with how its checks went, and each unbound number.
    let mut checked: BTreeMap<(usize, usize), Vec<(&'static str, String)>> = BTreeMap::new();
    for c in &r.claims {
        for (i, k) in c.checks.iter().enumerate() {
            let Some(at) = &k.number_at else { continue };
            let (class, what) = number_class(k);
            checked.entry(at.span).or_default().push((class, format!("{} check {} ({}): {what}", c.id, i + 1, k.kind)));
        }
    }
    let mut numbers: BTreeMap<(usize, usize), Mark> = BTreeMap::new();
    for (span, checks) in checked {
        // Several checks of one number: the most urgent class shows, and every check's title.
        let class = checks.iter().map(|(c, _)| *c).max_by_key(|c| class_rank(c)).expect("a check");
        let titles: Vec<&str> = checks.iter().map(|(_, t)| t.as_str()).collect();
        numbers.insert(
            span,
            Mark { span, open: format!("<span class=\"num {class}\" title=\"{}\">", attr(&titles.join("; "))), cont: format!("<span class=\"num {class}\">"), close: "</span>" },
        );
    }
    for (k, u) in r.unbound.iter().enumerate() {
        let id = format!("{p}u-{k}");
        let origin = u.origin.map_or(String::new(), |o| format!(", in a {o} sentence"));
        let pop = format!(
            "<span class=\"pop\" role=\"tooltip\" id=\"{id}-pop\"><span class=\"pc\"><b>Unbound number</b> {}{origin}</span><span class=\"pf\">No check verifies it and no label declares it{} ({}).</span></span>",
            esc(&u.number),
            esc(super::table::names_hint(u)),
            esc(&line_and_column(&u.at, &r.manuscript))
        );
        numbers.insert(
            u.at.span,
            Mark {
                span: u.at.span,
                open: format!("<span class=\"num unbound\" tabindex=\"0\" id=\"{id}\" data-number=\"{}\" aria-describedby=\"{id}-pop\">{pop}", attr(&u.number)),
                cont: "<span class=\"num unbound cont\">".into(),
                close: "</span>",
            },
        );
    }
    let level1: Vec<Mark> = numbers.into_values().collect();

    // Lost claims and deleted claim sentences, where they stood.
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for c in &r.claims {
        if let Some(Change::Lost { before, deleted, at, nearest, .. }) = &c.change {
            let offset = at.as_ref().map_or(usize::MAX, |a| a.span.0);
            let how = if *deleted { "deleted" } else { "rewritten" };
            let near = nearest.as_ref().map_or(String::new(), |(s, ratio)| {
                format!("<span class=\"pk\">Most similar sentence now ({:.0} % alike), {}: {}</span>", ratio * 100.0, esc(&s.place(&r.manuscript)), esc(&s.text))
            });
            let id = format!("{p}c-{}", attr(&c.id));
            inserts.push((
                offset,
                format!(
                    "<span class=\"mark s-changed lost\" tabindex=\"0\" id=\"{id}\" data-claims=\"{}\" data-status=\"changed\" data-change=\"lost\" aria-describedby=\"{id}-pop\"><span class=\"sym\" aria-hidden=\"true\">⊘</span>{} {how}<span class=\"pop\" role=\"tooltip\" id=\"{id}-pop\">{}<span class=\"pchg\"><b>The sentence was {how}:</b> <del>{}</del></span>{near}</span></span> ",
                    attr(&c.id),
                    esc(&c.id),
                    claim_pop(file, r, c),
                    esc(before)
                ),
            ));
        }
    }
    if let Some(l) = &r.lock {
        let lost = |id: &String| r.claims.iter().any(|c| c.id == *id && matches!(c.change, Some(Change::Lost { .. })));
        for (k, d) in l.deleted_claim_sentences.iter().filter(|d| !d.claims.iter().all(lost)).enumerate() {
            let id = format!("{p}d-{k}");
            inserts.push((
                d.at.as_ref().map_or(usize::MAX, |a| a.span.0),
                format!(
                    "<span class=\"mark s-changed lost\" tabindex=\"0\" id=\"{id}\" data-claims=\"{}\" data-status=\"changed\" data-change=\"deleted\" aria-describedby=\"{id}-pop\"><span class=\"sym\" aria-hidden=\"true\">⊘</span>deleted<span class=\"pop\" role=\"tooltip\" id=\"{id}-pop\"><span class=\"pchg\"><b>A deleted sentence held {}:</b> <del>{}</del></span></span></span> ",
                    attr(&d.claims.join(" ")),
                    esc(&d.claims.join(", ")),
                    esc(&d.text)
                ),
            ));
        }
    }
    inserts.sort_by_key(|(o, _)| *o);
    ([Level { marks: level0 }, Level { marks: level1 }], inserts)
}

/// A checked number's class and what its checks say.
fn number_class(k: &CheckReview) -> (&'static str, String) {
    match (&k.outcome, &k.number, &k.number_now) {
        (Outcome::Fail { expected, observed, .. }, _, Some(now)) => (
            "num-changed num-failed",
            format!(
                "changed to {now} from {}; expected {}, evidence {}",
                k.number.as_deref().unwrap_or("?"),
                expected.as_deref().unwrap_or("?"),
                observed.as_deref().unwrap_or("?")
            ),
        ),
        (_, was, Some(now)) => ("num-changed", format!("changed from {} to {now}", was.as_deref().unwrap_or("?"))),
        (Outcome::Fail { expected, observed, .. }, _, None) => {
            ("num-failed", format!("FAIL: expected {}, evidence {}", expected.as_deref().unwrap_or("?"), observed.as_deref().unwrap_or("?")))
        }
        (Outcome::Error(d), _, None) => ("num-failed", format!("error: {}", d.message)),
        (Outcome::Pass { detail }, _, None) => ("num-ok", format!("pass: {detail}")),
        (Outcome::Wrong { says, evidence, .. }, _, None) => ("num-ok", format!("wrong, as recorded: the sentence says {says}, the evidence {evidence}")),
        (Outcome::Skipped { reason }, _, None) => ("num-ok", format!("skipped: {reason}")),
    }
}

fn class_rank(class: &str) -> u8 {
    match class {
        "num-changed num-failed" => 3,
        "num-failed" => 2,
        "num-changed" => 1,
        _ => 0,
    }
}

/// One claim's part of a pop-up: id, verdict, status, finding, sources, checks with their
/// values and rechecks, and its change since the lock.
fn claim_pop(file: &ReviewFile, r: &RegistryReview, c: &ClaimReview) -> String {
    let s = Shown::of(c);
    let mut out = format!(
        "<span class=\"pc\" data-claim=\"{}\" data-status=\"{}\"><b>{}</b> · verdict <b>{}</b> · <span class=\"s-{}\"><span class=\"sym\" aria-hidden=\"true\">{}</span> {} ({})</span></span>",
        attr(&c.id),
        s.class(),
        esc(&c.id),
        c.verdict,
        s.class(),
        s.symbol(),
        s.label(),
        esc(&c.status().to_string())
    );
    let _ = write!(out, "<span class=\"pf\"><b>Finding:</b> {}</span>", esc(&c.finding));
    if !c.sources.is_empty() {
        let links: Vec<String> = c
            .sources
            .iter()
            .map(|key| match r.sources.iter().find(|s| s.key == *key) {
                Some(s) => format!("<a href=\"{}\" rel=\"noreferrer noopener\">{}</a>", attr(&s.url), esc(&s.title)),
                None => esc(key),
            })
            .collect();
        let _ = write!(out, "<span class=\"ps\"><b>Sources:</b> {}</span>", links.join("; "));
    }
    match &c.change {
        Some(Change::Edited { diff, .. }) => {
            let _ = write!(out, "<span class=\"pchg\"><b>Edited since the lock:</b> {}</span>", diff_html(diff));
        }
        Some(Change::NumberChanged { diff, .. }) => {
            let _ = write!(out, "<span class=\"pchg\"><b>A number changed since the lock:</b> {}</span>", diff_html(diff));
        }
        Some(Change::NotLocked) => out.push_str("<span class=\"pchg\"><b>Not locked:</b> the claim was added after the lock was accepted.</span>"),
        Some(Change::Lost { .. } | Change::Unchanged) | None => {}
    }
    for (i, k) in c.checks.iter().enumerate() {
        let label = k.outcome.label();
        let expected = k.number_now.as_ref().or(k.number.as_ref());
        let mut line = format!("<b>Check {} · {}</b> <span class=\"o-{label}\">{}</span>", i + 1, k.kind, label.to_uppercase());
        if k.expect_mismatch {
            line.push_str(" <span class=\"muted\">(the registry records the quoted number as wrong)</span>");
        }
        match &k.outcome {
            Outcome::Fail { expected: e, observed: o, detail } => {
                let _ = write!(line, " · expected {} · observed {} · {}", esc(e.as_deref().unwrap_or("—")), esc(o.as_deref().unwrap_or("—")), esc(detail));
                if let (Some(was), Some(_)) = (&k.number, &k.number_now) {
                    let _ = write!(line, " · audited {}", esc(was));
                }
            }
            Outcome::Pass { detail } => {
                let _ = write!(line, " · expected {} · observed {}", esc(expected.map_or("—", String::as_str)), esc(detail));
            }
            Outcome::Wrong { says, evidence, detail } => {
                let _ = write!(line, " · the sentence says {} · the evidence says {} · {}", esc(says), esc(evidence), esc(detail));
            }
            Outcome::Skipped { reason } => {
                let _ = write!(line, " · {}", esc(reason));
            }
            Outcome::Error(d) => {
                let _ = write!(line, " · {}", esc(&d.message));
            }
        }
        line.push_str(&recheck_html(file, r, c, i + 1));
        let _ = write!(out, "<span class=\"pk\">{line}</span>");
    }
    out
}

/// The offline recheck of a check, and the stored recheck with its interval, where they exist.
fn recheck_html(file: &ReviewFile, r: &RegistryReview, c: &ClaimReview, check: usize) -> String {
    let mut out = String::new();
    for row in file.recheck.rows.iter().filter(|row| row.registry == r.file && row.claim == c.id && row.check == check) {
        let interval = row.interval.map_or(String::new(), |(lo, hi)| format!(", 90 % interval {lo:.3}–{hi:.3}"));
        let _ = write!(out, "<span class=\"rc\">Recheck offline ({}): <b>{}</b>{interval}</span>", esc(&row.what), row.outcome.name());
    }
    if let Some(stored) = &file.stored_recheck {
        for row in stored.rows.iter().filter(|row| row.registry == r.file && row.claim == c.id && row.check == check) {
            let ratio = row.ratio.map_or(String::new(), |v| format!(", fresh ÷ accepted {v:.3}"));
            let interval = match row.interval {
                Some([Some(lo), Some(hi)]) => format!(", 90 % interval {lo:.3}–{hi:.3}"),
                _ => String::new(),
            };
            let bound = match (row.kind.as_str(), row.bound) {
                ("latency", Some(b)) => format!(", margin ±{:.0} %", b * 100.0),
                (_, Some(b)) if b > 0.0 => format!(", minimum ratio {b}"),
                _ => String::new(),
            };
            // A row that is not a MATCH says why, as the recheck's own table does: a fresh run on
            // another card compares no absolute time.
            let why = if row.outcome == "MATCH" || row.detail.is_empty() { String::new() } else { format!(" · {}", esc(&row.detail)) };
            let _ = write!(
                out,
                "<span class=\"rc\">Recheck stored in <code>{}</code> ({}): <b>{}</b>{ratio}{interval}{bound}{why}</span>",
                esc(&stored.run),
                esc(&row.what),
                esc(&row.outcome)
            );
        }
    }
    out
}

fn evidence_section(file: &ReviewFile) -> String {
    let mut out = String::from("<section id=\"evidence\" aria-labelledby=\"evidence-h\"><h2 id=\"evidence-h\">Evidence and hashes</h2>");
    out.push_str("<h3>Manuscripts and registries</h3><table class=\"hashes\"><thead><tr><th scope=\"col\">file</th><th scope=\"col\">SHA-256</th><th scope=\"col\">note</th></tr></thead><tbody>");
    for (r, m) in file.audit.registries.iter().zip(&file.manuscripts) {
        let matches = r.actual_sha256.as_deref() == Some(r.recorded_sha256.as_str());
        let note = if matches {
            format!("<span class=\"s-held\">✓ as recorded in <code>{}</code></span>", esc(&r.file))
        } else {
            format!("<span class=\"s-failed\">✗ the registry records <code>{}</code></span>", esc(&r.recorded_sha256))
        };
        let _ =
            write!(out, "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{note}</td></tr>", esc(&r.manuscript), esc(r.actual_sha256.as_deref().unwrap_or("unreadable")));
        let lock =
            r.lock.as_ref().map_or(String::new(), |l| format!("lock <code>{}</code> accepted at <code>{}</code>", esc(&l.file), esc(crate::hash::short(&l.accepted_sha256))));
        let _ = write!(out, "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{lock}</td></tr>", esc(&m.registry), esc(&m.registry_sha256));
    }
    out.push_str("</tbody></table><h3>Evidence runs</h3>");
    for run in &file.runs {
        let _ = write!(out, "<div class=\"run\"><h4><code>{}</code></h4>", esc(&run.path));
        match &run.manifest {
            Some(m) => {
                let _ = write!(
                    out,
                    "<p>Manifest <code>{}</code>, SHA-256 <code>{}</code>.</p><details><summary>{} files it lists</summary><table class=\"hashes\"><tbody>",
                    esc(&m.path),
                    esc(&m.sha256),
                    m.files.len()
                );
                for (f, sha) in &m.files {
                    let _ = write!(out, "<tr><td><code>{}</code></td><td><code>{}</code></td></tr>", esc(f), esc(sha));
                }
                out.push_str("</tbody></table></details>");
            }
            None => out.push_str("<p class=\"muted\">No manifest.</p>"),
        }
        out.push_str("</div>");
    }
    if !file.figures.is_empty() {
        out.push_str("<h3>Figures</h3><table class=\"hashes\"><tbody>");
        for f in &file.figures {
            let _ = write!(out, "<tr><td><code>{}</code></td><td><code>{}</code></td></tr>", esc(&f.path), esc(f.sha256.as_deref().unwrap_or("missing")));
        }
        out.push_str("</tbody></table>");
    }
    let counts: BTreeMap<&str, usize> = file.recheck.rows.iter().fold(BTreeMap::new(), |mut m, r| {
        *m.entry(r.outcome.name()).or_insert(0) += 1;
        m
    });
    let counts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = write!(out, "<h3>Recheck</h3><p>Offline, from the raw samples and saved summaries: {} rows ({}).", file.recheck.rows.len(), counts.join(", "));
    if let Some(s) = &file.stored_recheck {
        let _ = write!(out, " Stored against a fresh run: <code>{}/recheck.json</code>, {} rows.", esc(&s.run), s.rows.len());
    }
    out.push_str("</p></section>");
    out
}

/// A word diff `[-old-]{+new+}` as `<del>` and `<ins>`.
fn diff_html(diff: &str) -> String {
    let mut out = String::new();
    let mut rest = diff;
    loop {
        let del = rest.find("[-");
        let ins = rest.find("{+");
        let (at, open, close, tag) = match (del, ins) {
            (Some(d), Some(i)) if d < i => (d, "[-", "-]", "del"),
            (Some(d), None) => (d, "[-", "-]", "del"),
            (_, Some(i)) => (i, "{+", "+}", "ins"),
            (None, None) => break,
        };
        out.push_str(&esc(&rest[..at]));
        let inner = &rest[at + open.len()..];
        match inner.find(close) {
            Some(end) => {
                let _ = write!(out, "<{tag}>{}</{tag}>", esc(&inner[..end]));
                rest = &inner[end + close.len()..];
            }
            None => {
                out.push_str(&esc(&rest[at..]));
                rest = "";
                break;
            }
        }
    }
    out.push_str(&esc(rest));
    out
}

/// Text for an element's content.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// Text for an attribute value (quoted with `"`).
fn attr(s: &str) -> String {
    esc(s)
}

/// Standard base64 with padding, for images other than SVG.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

const CSS: &str = r#"
:root { --held: #1a7f37; --failed: #cf222e; --wrong: #9a6700; --unchecked: #57606a; --changed: #0550ae; --focus: #8250df; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 1.5rem 4rem; color: #1f2328; background: #fff; }
h1 { font-size: 1.6rem; margin: .5rem 0; } h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .2rem; margin-top: 2.5rem; }
code { font-size: .9em; background: #f6f8fa; padding: 0 .2em; border-radius: 3px; word-break: break-all; }
a { color: #0550ae; } .muted { color: #57606a; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 2px; }
.sym { font-weight: 700; margin-right: .15em; }
.s-held { color: var(--held); } .s-failed { color: var(--failed); } .s-wrong { color: var(--wrong); } .s-unchecked { color: var(--unchecked); } .s-changed { color: var(--changed); }
.overall { font-weight: 600; }
.legend .key { display: inline-block; margin: 0 .8em .3em 0; }
nav ul { padding-left: 1.2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .92rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; }
table.counts td { text-align: right; } tr.group th { background: #f6f8fa; }
.doc { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem 1.5rem; }
.doc table { font-size: .88rem; }
.mark { position: relative; border-bottom: 2px solid currentColor; border-radius: 2px; padding: 0 .1em; color: inherit; cursor: help; }
.mark.s-held { background: #dafbe1; border-color: var(--held); }
.mark.s-failed { background: #ffebe9; border-color: var(--failed); border-bottom-style: double; border-bottom-width: 3px; }
.mark.s-wrong { background: #fff8c5; border-color: var(--wrong); border-bottom-style: dashed; }
.mark.s-unchecked { background: #f6f8fa; border-color: var(--unchecked); border-bottom-style: dotted; }
.mark.s-changed { background: #ddf4ff; border-color: var(--changed); border-bottom-style: dashed; }
.mark > .sym { font-size: .8em; }
.mark.s-held > .sym { color: var(--held); } .mark.s-failed > .sym { color: var(--failed); } .mark.s-wrong > .sym { color: var(--wrong); } .mark.s-unchecked > .sym { color: var(--unchecked); } .mark.s-changed > .sym { color: var(--changed); }
.mark.lost { font-size: .85em; font-weight: 600; color: var(--changed); text-decoration: line-through; }
.mark.lost .pop { text-decoration: none; font-weight: 400; }
.sent-new, .sent-changed { position: relative; background: #fbefff; border-left: 3px solid var(--focus); padding-left: .2em; }
.sent-new > .sym, .sent-changed > .sym { color: var(--focus); }
.num.num-failed { color: var(--failed); font-weight: 700; outline: 2px solid var(--failed); outline-offset: 1px; }
.num.num-changed { font-weight: 700; background: #fff8c5; }
.num.num-changed::before { content: "Δ"; font-size: .75em; vertical-align: super; }
.num.unbound { position: relative; text-decoration: underline wavy var(--failed) 2px; text-underline-offset: 3px; cursor: help; }
.pop { display: none; position: absolute; z-index: 10; left: 0; top: calc(100% + 4px); width: min(34rem, 80vw); background: #fff; color: #1f2328; border: 1px solid #8c959f; border-radius: 6px; box-shadow: 0 6px 20px rgba(0,0,0,.18); padding: .5rem .7rem; font-size: .85rem; line-height: 1.4; font-weight: 400; text-align: left; white-space: normal; cursor: auto; }
.pop > span { display: block; margin: .15rem 0; } .pop .pc + .pc { border-top: 1px solid #d0d7de; margin-top: .5rem; padding-top: .4rem; }
.pop .rc { display: block; padding-left: 1rem; color: #57606a; }
.o-pass { color: var(--held); font-weight: 700; } .o-fail, .o-error { color: var(--failed); font-weight: 700; } .o-skipped { color: var(--unchecked); }
.mark:hover:not(:has(.mark:hover, .num:hover)) > .pop, .mark:focus > .pop, .num.unbound:hover > .pop, .num.unbound:focus > .pop, .sent-new:hover > .pop, .sent-new:focus > .pop, .sent-changed:hover > .pop, .sent-changed:focus > .pop, .pop:focus-within { display: block; }
del { background: #ffebe9; } ins { background: #dafbe1; text-decoration: none; }
.figure { display: block; margin: 1rem 0; } .figure .image { display: block; } .figure svg, .figure img { display: block; max-width: 100%; height: auto; border: 1px solid #d0d7de; }
.figure .caption { display: block; font-size: .92rem; color: #1f2328; margin-top: .3rem; }
.changes { border: 1px solid var(--changed); border-radius: 6px; padding: .2rem 1rem; background: #f6fbff; }
.run h4 { margin-bottom: .2rem; }
@media print {
  body { max-width: none; font-size: 11pt; }
  nav, script, .legend .muted { display: none; }
  .pop { display: none !important; }
  .mark, .sent-new, .sent-changed { background: none !important; }
  .doc { border: none; padding: 0; }
  a[href^="http"]::after { content: " <" attr(href) ">"; font-size: .8em; word-break: break-all; }
  details > table { display: none; }
  .figure, tr { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
}
"#;

/// The page's only script: Escape closes a pop-up by moving focus off it, and a pop-up that
/// would run past the right edge of the window moves left until it fits.
const JS: &str = r#"
document.addEventListener("keydown", function (e) { if (e.key === "Escape" && document.activeElement) { document.activeElement.blur(); } });
function fit(e) {
  var mark = e.target.closest && e.target.closest(".mark, .num.unbound, .sent-new, .sent-changed");
  var pop = mark && mark.querySelector(":scope > .pop");
  if (!pop) { return; }
  pop.style.left = "0px";
  var over = pop.getBoundingClientRect().right - (document.documentElement.clientWidth - 8);
  if (over > 0) { pop.style.left = (-over) + "px"; }
}
document.addEventListener("focusin", fit);
document.addEventListener("mouseover", fit);
"#;

/// `line 12, column 3` of the manuscript, or of the file it brings in that holds the place,
/// named first.
fn line_and_column(at: &crate::commands::audit::Place, manuscript: &str) -> String {
    let file = if at.file == manuscript { String::new() } else { format!("{} ", at.file) };
    format!("{file}line {}, column {}", at.line, at.col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_diff_becomes_del_and_ins() {
        assert_eq!(diff_html("took [-161.49-]{+163.49+} µs <b>"), "took <del>161.49</del><ins>163.49</ins> µs &lt;b&gt;");
        assert_eq!(diff_html("unclosed [-x"), "unclosed [-x");
    }

    #[test]
    fn base64_pads_as_the_standard_says() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn text_and_attributes_are_escaped() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn an_svg_loses_its_prologue() {
        assert_eq!(inline_svg("<?xml version=\"1.0\"?>\n<svg width=\"1\"></svg>"), "<svg aria-hidden=\"true\" focusable=\"false\" width=\"1\"></svg>");
    }

    fn mark(span: (usize, usize), name: &str) -> Mark {
        Mark { span, open: format!("<{name}>"), cont: format!("<{name}+>"), close: "</m>" }
    }

    fn marked(src: &str, sentences: Vec<Mark>, numbers: Vec<Mark>, inserts: &[(usize, String)]) -> String {
        marked_html(src, Syntax::Markdown, &[Level { marks: sentences }, Level { marks: numbers }], inserts, &|dest| format!("<fig {dest}>"))
    }

    #[test]
    fn a_mark_wraps_exactly_its_span() {
        let src = "One. Two 12 µs here.\n";
        assert_eq!(marked(src, vec![mark((5, 21), "s")], vec![mark((9, 15), "n")], &[]), "<p>One. <s>Two <n>12 µs</m> here.</m></p>\n");
    }

    #[test]
    fn a_mark_closes_before_an_element_it_opened_in_ends_and_reopens_after() {
        // The sentence starts inside the emphasis and ends after it.
        let src = "A *b c* d.\n";
        assert_eq!(marked(src, vec![mark((3, 10), "s")], vec![], &[]), "<p>A <em><s>b c</m></em><s+> d.</m></p>\n");
    }

    /// A reStructuredText article shows as its escaped source, its marks at the same bytes.
    #[test]
    fn a_restructuredtext_article_shows_as_its_marked_source() {
        let src = "Title\n=====\n\nMean <b> 12 us.\n";
        let got = marked_html(src, Syntax::ReStructuredText, &[Level { marks: vec![mark((13, 28), "s")] }, Level { marks: vec![mark((22, 27), "n")] }], &[], &|d| d.to_string());
        assert_eq!(got, "<pre><code class=\"language-rst\">Title\n=====\n\n<s>Mean &lt;b&gt; <n>12 us</m>.</m>\n</code></pre>\n");
    }

    #[test]
    fn a_mark_never_spans_a_block() {
        let src = "a b\n\nc d\n";
        assert_eq!(marked(src, vec![mark((2, 6), "s")], vec![], &[]), "<p>a <s>b</m></p>\n<p><s+>c</m> d</p>\n");
    }

    #[test]
    fn inserts_stand_before_their_offset_and_at_the_end() {
        let src = "One. Two.\n";
        let inserts = [(5, "<i1>".to_string()), (usize::MAX, "<i2>".to_string())];
        assert_eq!(marked(src, vec![mark((5, 9), "s")], vec![], &inserts), "<p>One. <i1><s>Two.</m></p>\n<i2>");
    }

    #[test]
    fn an_image_caption_is_marked_inside_its_figure() {
        let src = "![Cap one.](f.svg)\n";
        assert_eq!(marked(src, vec![mark((2, 10), "s")], vec![], &[]), "<p><fig f.svg><s>Cap one.</m></span></span></p>\n");
    }

    /// An HTML table's cells are marked as a Markdown table's are: inside the cell, the tags
    /// untouched, whatever lines pulldown-cmark splits the block into.
    #[test]
    fn an_html_cell_is_marked_inside_its_tags() {
        let src = "<table>\n<tr><td>Fast</td>\n<td align=\"right\">12 ms</td></tr>\n</table>\n";
        let at = src.find("12 ms").unwrap();
        let got = marked(src, vec![mark((at, at + 5), "s")], vec![mark((at, at + 2), "n")], &[]);
        assert_eq!(got, "<table>\n<tr><td>Fast</td>\n<td align=\"right\"><s><n>12</m> ms</m></td></tr>\n</table>\n");
    }

    /// A sentence of an HTML paragraph that crosses a tag closes before it and opens again
    /// after, and an edge that falls inside a character reference moves past it.
    #[test]
    fn an_html_mark_never_spans_a_tag_or_splits_an_entity() {
        let src = "<p>Fast <b>12</b> ms &amp; more.</p>\n";
        let (start, amp) = (src.find("Fast").unwrap(), src.find("&amp;").unwrap());
        let got = marked(src, vec![mark((start, amp + 1), "s")], vec![], &[]);
        assert_eq!(got, "<p><s>Fast </m><b><s+>12</m></b><s+> ms &amp;</m> more.</p>\n");
    }

    /// HTML inside a block quote reaches the renderer a line at a time without the quote's `>`;
    /// each line is still the source's own bytes, so its cells are marked where they stand.
    #[test]
    fn html_in_a_block_quote_is_marked_where_it_stands() {
        let src = "> <table>\n> <tr><td>12 ms</td></tr>\n> </table>\n";
        let at = src.find("12 ms").unwrap();
        let got = marked(src, vec![mark((at, at + 5), "s")], vec![], &[]);
        assert!(got.contains("<tr><td><s>12 ms</m></td></tr>"), "{got}");
    }

    #[test]
    fn shown_orders_by_urgency() {
        assert!(Shown::Failed > Shown::Changed && Shown::Changed > Shown::Wrong && Shown::Wrong > Shown::Unchecked && Shown::Unchecked > Shown::Held);
    }
}
