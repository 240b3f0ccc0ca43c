//! Binding: each claim of a registry to the one sentence of the article that its quote names,
//! and each check to the number of that sentence it verifies. This module owns the binding
//! rules; it never runs a check.
//!
//! A quote binds **exactly** when it is a substring of exactly one sentence (whitespace runs
//! count as one space) that cuts no number: `66` is not in `0.66`, nor `9` in `P99`. When no
//! sentence contains it, it binds with **numbers changed** when it matches exactly one sentence
//! once every number is masked: the sentence is the same but a quoted number was edited, so the
//! checks run against the numbers the sentence now shows and fail there. Otherwise the quote is
//! **lost** (no sentence) or **ambiguous** (several).
//!
//! A cell binds by its place: the table cell whose row's first cell and column's header read
//! as the registry writes them (in the named section, where several tables have them). Its
//! number is the claim's number: a check without `number` verifies the cell's one number, and
//! in a cell that holds several, `number` picks one. Because the place does not change when
//! the number does, a cell whose number was edited binds with numbers changed.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use crate::article::numbers::{self, Number, Quoted};
use crate::article::{Article, Sentence};
use crate::diagnostic::Diagnostic;
use crate::registry::{CellSelector, Claim, Registry, TableRef, Target};

/// How one claim bound.
#[derive(Debug, Clone)]
pub(crate) enum Binding {
    Bound(Bound),
    /// No sentence holds the quote, even with numbers masked. `nearest` is the most similar
    /// sentence, with its similarity in [0, 1].
    Lost {
        nearest: Option<(usize, f64)>,
    },
    /// Several sentences hold the quote.
    Ambiguous {
        sentences: Vec<usize>,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct Bound {
    pub sentence: usize,
    /// True when the quote matched only with its numbers masked.
    pub numbers_changed: bool,
    /// One entry per check of the claim, in order.
    pub checks: Vec<CheckBinding>,
}

/// The number a check verifies, as the registry names it and as the sentence now shows it.
#[derive(Debug, Clone, Default)]
pub(crate) struct CheckBinding {
    /// The registry's `number`, where the check has one.
    pub registry_number: Option<String>,
    /// The sentence's number it maps to.
    pub sentence_number: Option<Number>,
    /// Whether that number was found by its place rather than as the registry writes it: the
    /// number changed. One spelled otherwise (`14.96us` for `14.96 µs`, `<0.0001` for
    /// `< 0.0001`) is found as written, and is the same number.
    pub changed: bool,
    /// The value the check compares with (one end of a range, where `part` says so).
    pub quoted: Option<Quoted>,
    /// A problem binding this check's number, reported as a diagnostic.
    pub error: Option<Diagnostic>,
}

/// Binds every claim of `registry` against `article`, knowing the sentence each claim was audited against (claim id →
/// its text in the lock). A checked number missing from a sentence that is otherwise the audited
/// one word for word is the number at the same position: the number changed, and the check runs
/// against the draft's value instead of failing to bind.
pub fn bind_against(registry: &Registry, article: &Article, audited: &BTreeMap<&str, &str>) -> Vec<Binding> {
    // Both are built on first need and shared by every claim: the sentences with their numbers
    // masked, and the word index that finds a lost quote's nearest sentence.
    let skeletons = OnceCell::new();
    let nearest = Nearest::new(article);
    registry.claims.iter().map(|c| bind_claim(registry, c, article, audited.get(c.id.get_ref().as_str()).copied(), &skeletons, &nearest)).collect()
}

fn bind_claim(registry: &Registry, claim: &Claim, article: &Article, audited: Option<&str>, skeletons: &OnceCell<Vec<String>>, nearest: &Nearest<'_>) -> Binding {
    let quote = match &claim.target {
        Target::Quote(q) => normalise(q.get_ref()),
        Target::Cell(cell) => return bind_cell(registry, claim, cell.get_ref(), article, audited),
    };
    let search = QuoteSearch::new(&quote);
    let exact: Vec<usize> = article.sentences.iter().filter(|s| search.holds(&s.text)).map(|s| s.index).collect();
    match exact.as_slice() {
        [one] => {
            let sentence = &article.sentences[*one];
            let mut numbers_changed = false;
            let mut checks = Vec::new();
            for check in &claim.checks {
                let (mut binding, moved) = bind_exact(registry, claim, check, sentence, audited);
                numbers_changed |= moved;
                binding.changed = moved;
                checks.push(binding);
            }
            return Binding::Bound(Bound { sentence: *one, numbers_changed, checks });
        }
        [] => {}
        many => return Binding::Ambiguous { sentences: many.to_vec() },
    }
    let quote_numbers = numbers::extract(&quote, &[]);
    let quote_skeleton = skeleton(&quote, &quote_numbers);
    let mut masked = Vec::new();
    let skeletons = skeletons.get_or_init(|| article.sentences.iter().map(|s| skeleton(&s.text, &s.numbers)).collect());
    for (s, sk) in article.sentences.iter().zip(skeletons) {
        if let Some(at) = sk.find(&quote_skeleton) {
            // The index of the first sentence number inside the match.
            let base = sk[..at].matches(MASK).count();
            masked.push((s.index, base));
        }
    }
    match masked.as_slice() {
        [(index, base)] if !quote_numbers.is_empty() => {
            let sentence = &article.sentences[*index];
            let checks = claim.checks.iter().map(|check| bind_changed(registry, claim, check, sentence, &quote_numbers, *base)).collect();
            Binding::Bound(Bound { sentence: *index, numbers_changed: true, checks })
        }
        [] | [_] => Binding::Lost { nearest: nearest.find(&quote) },
        many => Binding::Ambiguous { sentences: many.iter().map(|(i, _)| *i).collect() },
    }
}

/// A quote looked for in text without cutting a number: where the quote begins with a
/// digit, the text before it does not continue a number or name (`0.66`, `P99`, `-4.5`, `$5`);
/// where it ends with a digit, the text after it does not continue the number (`0.66` after
/// `0`, `10k` after `10`, `1e-3` after `1`).
///
/// A claim's quote is looked for in every sentence of the article, and each registry binds
/// every claim, so the searcher is built once per quote ([`QuoteSearch::new`]) and reused for
/// every sentence: building one per sentence was the largest cost of auditing copies of a
/// registry.
pub(crate) struct QuoteSearch<'q> {
    finder: memchr::memmem::Finder<'q>,
    len: usize,
    starts_digit: bool,
    ends_digit: bool,
}

impl<'q> QuoteSearch<'q> {
    pub(crate) fn new(quote: &'q str) -> Self {
        QuoteSearch {
            finder: memchr::memmem::Finder::new(quote.as_bytes()),
            len: quote.len(),
            starts_digit: quote.starts_with(|c: char| c.is_ascii_digit()),
            ends_digit: quote.ends_with(|c: char| c.is_ascii_digit()),
        }
    }

    /// Whether the quote occurs in `text` without cutting a number. The matches are those of
    /// `str::match_indices`: non-overlapping, from the left, each on a character boundary (a
    /// non-empty UTF-8 quote can only match at one; the boundary test is for the empty quote).
    pub(crate) fn holds(&self, text: &str) -> bool {
        self.finder
            .find_iter(text.as_bytes())
            .filter(|&at| text.is_char_boundary(at))
            .any(|at| (!self.starts_digit || !continued_before(&text[..at])) && (!self.ends_digit || !continued_after(&text[at + self.len..])))
    }
}

/// Whether the text before a digit continues a number or a name into it.
fn continued_before(before: &str) -> bool {
    let mut rev = before.chars().rev();
    match rev.next() {
        None => false,
        Some(c) if c.is_alphanumeric() || matches!(c, '_' | '-' | '−' | '$' | '€' | '£' | '¥') => true,
        Some('.' | ',') => rev.next().is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// Whether the text after a digit continues its number: more digits, decimals or thousands,
/// an exponent, a multiplier, or a shape's next dimension.
fn continued_after(after: &str) -> bool {
    let mut chars = after.chars();
    let (first, second) = (chars.next(), chars.next());
    match (first, second) {
        (Some(c), _) if c.is_ascii_digit() => true,
        (Some('.' | ',' | '×' | 'x'), Some(d)) if d.is_ascii_digit() => true,
        (Some('e' | 'E'), Some(d)) if d.is_ascii_digit() || matches!(d, '-' | '+' | '−') => true,
        (Some('k' | 'M' | 'G'), next) => !next.is_some_and(|c| c.is_alphanumeric() || c == '_'),
        _ => false,
    }
}

/// The character that stands for a number in a skeleton.
const MASK: char = '\u{1}';

pub(crate) fn skeleton(text: &str, numbers: &[Number]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for n in numbers {
        out.push_str(&text[at..n.span.start]);
        out.push(MASK);
        at = n.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Binds one check's number in an exactly bound sentence; the flag says that the number was
/// found only by its position in the audited sentence.
fn bind_exact(registry: &Registry, claim: &Claim, check: &crate::checks::Check, sentence: &Sentence, audited: Option<&str>) -> (CheckBinding, bool) {
    let Some(number) = &check.common.number else {
        return (CheckBinding::default(), false);
    };
    let wanted = match numbers::parse_one(number.get_ref()) {
        Ok(n) => n,
        Err(m) => return (CheckBinding { error: Some(at(registry, number.span(), m, "not one number")), ..CheckBinding::default() }, false),
    };
    // A number may take its unit from its partner across `±` (`79.2±3μs`, `6.6 ± 0.2 ms`):
    // written without one, as the sentence writes it, it is that number.
    let same_text = |n: &&Number| wanted.unit.is_none() && n.text == wanted.text;
    if let Some(found) = sentence.numbers.iter().find(|n| n.key() == wanted.key()).or_else(|| sentence.numbers.iter().find(same_text)) {
        return (finish(registry, check, number.get_ref(), found.clone()), false);
    }
    if let Some(now) = audited.and_then(|old| same_place(old, sentence, &wanted)) {
        return (finish(registry, check, number.get_ref(), now.clone()), true);
    }
    let shown = sentence.numbers.iter().map(|n| format!("`{}`", n.text)).collect::<Vec<_>>().join(", ");
    let message = format!("claim `{}`: number `{}` is not in its sentence", claim.id.get_ref(), number.get_ref());
    let d = at(registry, number.span(), message, "not in the sentence").with_note(format!(
        "the sentence at line {} quotes {}",
        sentence.line,
        if shown.is_empty() { "no number".into() } else { shown }
    ));
    (CheckBinding { registry_number: Some(number.get_ref().clone()), error: Some(d), ..CheckBinding::default() }, false)
}

/// The number of `sentence` at the place `wanted` held in the audited text `old`, when the two
/// differ in their numbers alone.
fn same_place<'s>(old: &str, sentence: &'s Sentence, wanted: &Number) -> Option<&'s Number> {
    let old_numbers = numbers::extract(old, &[]);
    if skeleton(old, &old_numbers) != skeleton(&sentence.text, &sentence.numbers) {
        return None;
    }
    let k = old_numbers.iter().position(|n| n.key() == wanted.key())?;
    sentence.numbers.get(k)
}

fn bind_changed(registry: &Registry, claim: &Claim, check: &crate::checks::Check, sentence: &Sentence, quote_numbers: &[Number], base: usize) -> CheckBinding {
    let Some(number) = &check.common.number else {
        return CheckBinding::default();
    };
    let wanted = match numbers::parse_one(number.get_ref()) {
        Ok(n) => n,
        Err(m) => return CheckBinding { error: Some(at(registry, number.span(), m, "not one number")), ..CheckBinding::default() },
    };
    let Some(k) = quote_numbers.iter().position(|n| n.key() == wanted.key()) else {
        let message = format!("claim `{}`: number `{}` is not in its quote", claim.id.get_ref(), number.get_ref());
        return CheckBinding { registry_number: Some(number.get_ref().clone()), error: Some(at(registry, number.span(), message, "not in the quote")), ..CheckBinding::default() };
    };
    match sentence.numbers.get(base + k) {
        // Of a quote whose numbers changed, this one may be as it was.
        Some(now) => CheckBinding { changed: now.key() != wanted.key() && now.text != wanted.text, ..finish(registry, check, number.get_ref(), now.clone()) },
        None => CheckBinding { registry_number: Some(number.get_ref().clone()), ..CheckBinding::default() },
    }
}

/// Binds a claim that names a table cell: the one body cell in its row and column (and
/// section), and each check to the cell's number.
fn bind_cell(registry: &Registry, claim: &Claim, selector: &CellSelector, article: &Article, audited: Option<&str>) -> Binding {
    match cells_named(article, selector).as_slice() {
        [one] => {
            let sentence = &article.sentences[*one];
            let mut numbers_changed = false;
            let mut checks = Vec::new();
            for check in &claim.checks {
                let (mut binding, moved) = bind_in_cell(registry, claim, check, sentence, audited);
                numbers_changed |= moved;
                binding.changed = moved;
                checks.push(binding);
            }
            Binding::Bound(Bound { sentence: *one, numbers_changed, checks })
        }
        [] => Binding::Lost { nearest: None },
        many => Binding::Ambiguous { sentences: many.to_vec() },
    }
}

/// The body cells (not the header's) in the row and column `selector` names, in its section
/// where it names one, and in the table `table` names where it names one: the `table`-th of
/// the tables that hold them, or the table of that name.
pub(crate) fn cells_named(article: &Article, selector: &CellSelector) -> Vec<usize> {
    let cells = cells_at(article, &normalise(&selector.row), &normalise(&selector.column), selector.section.as_deref());
    let wanted = match &selector.table {
        None => return cells.into_iter().map(|(index, _)| index).collect(),
        Some(TableRef::Place(n)) => n.checked_sub(1).and_then(|k| tables_of(&cells).get(k).copied()),
        Some(TableRef::Named(name)) => table_named(article, name),
    };
    let Some(wanted) = wanted else { return Vec::new() };
    cells.into_iter().filter(|(_, t)| *t == wanted).map(|(index, _)| index).collect()
}

/// The table the article names `name`, its surrounding spaces aside.
fn table_named(article: &Article, name: &str) -> Option<usize> {
    article.table_names.iter().find(|(_, n)| n.trim() == name.trim()).map(|(t, _)| *t)
}

/// The body cells in a row and a column, within `section` where one is given: each sentence's
/// index and its table's, in the article's order. A label no cell has literally that ends in
/// ` #N` names the N-th of the rows (or columns) of one table that share the label before it:
/// a header spanning two columns (`colspan`) labels both, and a table may repeat a row's name.
fn cells_at(article: &Article, row: &str, column: &str, section: Option<&str>) -> Vec<(usize, usize)> {
    let body = || {
        article
            .sentences
            .iter()
            .filter(move |s| section.is_none_or(|wanted| in_section(&s.section, wanted)))
            .filter_map(|s| s.cell.as_ref().filter(|c| c.row > 0).map(|c| (s.index, c)))
    };
    let literal = |wanted: &str, label: fn(&crate::article::Cell) -> &str| body().any(|(_, c)| same_label(label(c), wanted));
    let row_nth = occurrence(row).filter(|_| !literal(row, |c| &c.row_label));
    let column_nth = occurrence(column).filter(|_| !literal(column, |c| &c.column_label));
    let (row, column) = (row_nth.map_or(row, |(base, _)| base), column_nth.map_or(column, |(base, _)| base));
    // The rows and columns bearing the label are counted in the whole table, in their order,
    // whichever of them the other label picks: each table's distinct places are gathered once,
    // in one pass, so that a table of many rows costs no more per claim than one of few.
    let places_of = |place: fn(&crate::article::Cell) -> usize, label: fn(&crate::article::Cell) -> &str, base: &str| {
        let mut by_table: HashMap<usize, Vec<usize>> = HashMap::new();
        for (_, o) in body().filter(|(_, o)| same_label(label(o), base)) {
            by_table.entry(o.table).or_default().push(place(o));
        }
        for places in by_table.values_mut() {
            places.sort_unstable();
            places.dedup();
        }
        by_table
    };
    let rows = row_nth.map(|(base, n)| (places_of(|o| o.row, |o| &o.row_label, base), n));
    let columns = column_nth.map(|(base, n)| (places_of(|o| o.column, |o| &o.column_label, base), n));
    let nth = |places: &Option<(HashMap<usize, Vec<usize>>, usize)>, table: usize, at: usize| {
        places.as_ref().is_none_or(|(by_table, n)| by_table.get(&table).and_then(|p| p.get(n - 1)) == Some(&at))
    };
    body()
        .filter(|(_, c)| same_label(&c.row_label, row) && same_label(&c.column_label, column))
        .filter(|(_, c)| nth(&rows, c.table, c.row) && nth(&columns, c.table, c.column))
        .map(|(index, c)| (index, c.table))
        .collect()
}

/// A selector label's ` #N` ending, N from 1: the label before it and N. A column past the
/// header's cells has no label, and its place alone names it (`#2`).
fn occurrence(wanted: &str) -> Option<(&str, usize)> {
    let (base, n) = wanted.trim_end().rsplit_once('#')?;
    if !(base.is_empty() || base.ends_with(char::is_whitespace)) {
        return None;
    }
    let n = n.bytes().all(|b| b.is_ascii_digit()).then(|| n.parse::<usize>().ok()).flatten().filter(|n| *n >= 1)?;
    Some((base.trim_end(), n))
}

/// The body cells of an article indexed by their labels, once, for writing each one's
/// selector: `init` and `suggest` write one for every cell, and a search of every sentence for
/// each took minutes over a table of thousands of rows.
pub(crate) struct Selectors<'a> {
    article: &'a Article,
    /// For each pair of a row and a column label (each with its runs of whitespace as one),
    /// the least and greatest table of the cells bearing them.
    tables: HashMap<(String, String), (usize, usize)>,
    /// Each table's distinct rows bearing a row label, and columns bearing a column label, in
    /// order.
    rows: HashMap<(usize, String), Vec<usize>>,
    columns: HashMap<(usize, String), Vec<usize>>,
    /// For each table and pair of labels, the least and greatest row and column of the cells
    /// bearing them: whether another such cell stands in another row is then one look, where a
    /// scan of them all for every cell took minutes over a table that repeats its labels in
    /// thousands of rows.
    spans: HashMap<(usize, String, String), Spans>,
}

/// The least and greatest rows and columns of a set of cells.
#[derive(Clone, Copy)]
struct Spans {
    rows: (usize, usize),
    columns: (usize, usize),
}

impl Spans {
    fn of(c: &crate::article::Cell) -> Spans {
        Spans { rows: (c.row, c.row), columns: (c.column, c.column) }
    }

    fn add(&mut self, c: &crate::article::Cell) {
        self.rows = (self.rows.0.min(c.row), self.rows.1.max(c.row));
        self.columns = (self.columns.0.min(c.column), self.columns.1.max(c.column));
    }
}

/// A label as [`same_label`] compares it.
fn label_key(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl<'a> Selectors<'a> {
    pub(crate) fn new(article: &'a Article) -> Selectors<'a> {
        let mut tables: HashMap<(String, String), (usize, usize)> = HashMap::new();
        let mut rows: HashMap<(usize, String), Vec<usize>> = HashMap::new();
        let mut columns: HashMap<(usize, String), Vec<usize>> = HashMap::new();
        let mut spans: HashMap<(usize, String, String), Spans> = HashMap::new();
        for c in article.sentences.iter().filter_map(|s| s.cell.as_ref().filter(|c| c.row > 0)) {
            let (row, column) = (label_key(&c.row_label), label_key(&c.column_label));
            spans.entry((c.table, row.clone(), column.clone())).and_modify(|s| s.add(c)).or_insert_with(|| Spans::of(c));
            rows.entry((c.table, row.clone())).or_default().push(c.row);
            columns.entry((c.table, column.clone())).or_default().push(c.column);
            tables.entry((row, column)).and_modify(|(low, high)| (*low, *high) = ((*low).min(c.table), (*high).max(c.table))).or_insert((c.table, c.table));
        }
        for places in rows.values_mut().chain(columns.values_mut()) {
            places.sort_unstable();
            places.dedup();
        }
        Selectors { article, tables, rows, columns, spans }
    }

    /// The row and column labels a selector writes for `cell`: each with ` #N` where another
    /// cell of its table bears both its labels in another row (or column), N its row's
    /// (column's) place among those of the table that bear the label, from 1. A console table
    /// whose rows place a column apart (Go's `B/op` after `MB/s` or not) needs no place where no
    /// two cells share both.
    pub(crate) fn labels(&self, cell: &crate::article::Cell) -> (String, String) {
        let (row, column) = (label_key(&cell.row_label), label_key(&cell.column_label));
        // Whether another cell of the table bears both labels in another row (column).
        let spans = self.spans.get(&(cell.table, row.clone(), column.clone()));
        let other = |span: (usize, usize), at: usize| span != (at, at);
        let placed = |needed: bool, label: &str, places: Option<&Vec<usize>>, place: usize| match places.and_then(|p| p.binary_search(&place).ok()) {
            Some(k) if needed => format!("{label} #{}", k + 1).trim_start().to_string(),
            _ => label.to_string(),
        };
        (
            placed(spans.is_some_and(|s| other(s.rows, cell.row)), &cell.row_label, self.rows.get(&(cell.table, row)), cell.row),
            placed(spans.is_some_and(|s| other(s.columns, cell.column)), &cell.column_label, self.columns.get(&(cell.table, column)), cell.column),
        )
    }

    /// The selector for a body cell within `section`: its [`labels`](Self::labels), and where
    /// other tables hold them too, `table`: the name the article gives the cell's table, with
    /// no section (a name says which table without one, and a section may be renamed), or
    /// where it gives none and several tables of the section hold them, the table's place
    /// among those, from 1.
    pub(crate) fn of(&self, cell: &crate::article::Cell, section: Option<String>) -> CellSelector {
        let (row, column) = self.labels(cell);
        // Only a cell whose labels stand in another table too needs the article searched for
        // the tables the selector names.
        let elsewhere = self.tables.get(&(label_key(&cell.row_label), label_key(&cell.column_label))).is_some_and(|span| *span != (cell.table, cell.table));
        if !elsewhere {
            return CellSelector { row, column, section, table: None };
        }
        // A name serves only where no other table bears it.
        let name = self.article.table_names.get(&cell.table).filter(|name| table_named(self.article, name) == Some(cell.table));
        if let Some(name) = name {
            return CellSelector { row, column, section: None, table: Some(TableRef::Named(name.clone())) };
        }
        let tables = tables_of(&cells_at(self.article, &row, &column, section.as_deref()));
        let table = (tables.len() > 1).then(|| tables.iter().position(|t| *t == cell.table).map(|k| TableRef::Place(k + 1))).flatten();
        CellSelector { row, column, section, table }
    }
}

/// Whether a cell's label is the one a registry writes, runs of whitespace aside. A label keeps
/// the spaces its table writes where they name something (BenchmarkDotNet's case
/// `'Command  Send': Job-CEIKLR`, a description with two spaces, as the evidence names it),
/// and a registry's selector may write them as they are or as one.
pub(crate) fn same_label(label: &str, wanted: &str) -> bool {
    label.split_whitespace().eq(wanted.split_whitespace())
}

/// The tables of `cells`, each once, in order.
fn tables_of(cells: &[(usize, usize)]) -> Vec<usize> {
    let mut tables: Vec<usize> = cells.iter().map(|(_, t)| *t).collect();
    tables.dedup();
    tables
}

/// Whether the heading path holds `wanted`: one heading, or several joined by `›` that follow
/// one another in the path (`Time to First Token (seconds) › 70B Models`).
pub(crate) fn in_section(path: &[String], wanted: &str) -> bool {
    let parts: Vec<String> = wanted.split('›').map(normalise).collect();
    path.windows(parts.len()).any(|w| w.iter().zip(&parts).all(|(heading, part)| normalise(heading) == *part))
}

/// Why no cell binds `selector`, for the diagnostic: the column is in no table, the row is not
/// in that column, or the section holds neither.
pub(crate) fn missing_cell(article: &Article, selector: &CellSelector) -> String {
    let (row, column) = (normalise(&selector.row), normalise(&selector.column));
    let body = || article.sentences.iter().filter_map(|s| s.cell.as_ref().filter(|c| c.row > 0).map(|c| (s, c)));
    let listed = |labels: Vec<&str>| {
        let mut unique: Vec<&str> = Vec::new();
        for l in labels {
            if !unique.contains(&l) {
                unique.push(l);
            }
        }
        let more = unique.len().saturating_sub(MAX_LISTED);
        let mut shown = unique.into_iter().take(MAX_LISTED).map(|l| format!("`{l}`")).collect::<Vec<_>>().join(", ");
        if more > 0 {
            shown.push_str(&format!(" and {more} more"));
        }
        shown
    };
    let in_column: Vec<_> = body().filter(|(_, c)| same_label(&c.column_label, &column)).collect();
    if in_column.is_empty() {
        return format!("no table has a column `{column}`; the columns are {}", listed(body().map(|(_, c)| c.column_label.as_str()).collect()));
    }
    let in_row: Vec<_> = in_column.iter().filter(|(_, c)| same_label(&c.row_label, &row)).collect();
    if in_row.is_empty() {
        return format!("no row of column `{column}` is `{row}`; its rows are {}", listed(in_column.iter().map(|(_, c)| c.row_label.as_str()).collect()));
    }
    let held = tables_of(&cells_at(article, &row, &column, selector.section.as_deref()));
    match (&selector.table, held.is_empty()) {
        (Some(TableRef::Place(n)), false) => {
            return format!("`table = {n}` names the table's place among those that hold row `{row}` and column `{column}`, from 1, and there are {}", held.len());
        }
        (Some(TableRef::Named(name)), _) => match table_named(article, name) {
            None if article.table_names.is_empty() => return format!("no table of the article has a name, and `table` names `{name}`"),
            None => return format!("no table is named `{name}`; the names are {}", listed(article.table_names.values().map(String::as_str).collect())),
            Some(table) => {
                // Said of the named table itself: its columns, or the rows of the column.
                let own: Vec<&crate::article::Cell> = body().map(|(_, c)| c).filter(|c| c.table == table).collect();
                let in_own_column: Vec<&str> = own.iter().filter(|c| same_label(&c.column_label, &column)).map(|c| c.row_label.as_str()).collect();
                let mut said = if in_own_column.is_empty() {
                    format!("table `{name}` has no column `{column}`; its columns are {}", listed(own.iter().map(|c| c.column_label.as_str()).collect()))
                } else {
                    format!("table `{name}` has no row `{row}` in column `{column}`; its rows are {}", listed(in_own_column))
                };
                if !held.is_empty() {
                    let names: Vec<&str> = held.iter().filter_map(|t| article.table_names.get(t).map(String::as_str)).collect();
                    let named = if names.is_empty() { String::new() } else { format!(" ({})", listed(names)) };
                    let (tables, have) = if held.len() == 1 { ("table has", "it") } else { ("tables have", "them") };
                    said.push_str(&format!("; {} other {tables} {have}{named}", held.len()));
                }
                return said;
            }
        },
        _ => {}
    }
    let sections: Vec<String> = in_row.iter().map(|(s, _)| s.section_title()).collect();
    format!("row `{row}` and column `{column}` are in {}, not in `{}`", listed(sections.iter().map(String::as_str).collect()), selector.section.as_deref().unwrap_or(""))
}

/// At most this many labels are listed in a diagnostic about a cell.
const MAX_LISTED: usize = 12;

/// Binds one check of a cell claim to a number of the cell; the flag says that the number
/// differs from the one the registry or the lock names.
fn bind_in_cell(registry: &Registry, claim: &Claim, check: &crate::checks::Check, cell: &Sentence, audited: Option<&str>) -> (CheckBinding, bool) {
    let quantities: Vec<(usize, &Number)> = cell.numbers.iter().enumerate().filter(|(_, n)| !n.is_dims()).collect();
    let Some(number) = &check.common.number else {
        if check.kind.states_a_verdict() {
            return (CheckBinding::default(), false);
        }
        return match quantities.as_slice() {
            [] => (CheckBinding::default(), false),
            [(k, now)] => {
                // The cell's one number is the claim's; the lock's cell says what it was.
                let before = audited.and_then(|old| number_at(old, cell, *k));
                let changed = before.as_ref().is_some_and(|b| b.key_without_unit() != now.key_without_unit());
                let named = before.map_or_else(|| now.text.clone(), |b| b.text);
                (finish(registry, check, &named, (*now).clone()), changed)
            }
            many => {
                let shown = many.iter().map(|(_, n)| format!("`{}`", n.text)).collect::<Vec<_>>().join(", ");
                let message = format!("claim `{}`: its cell holds {} numbers ({shown})", claim.id.get_ref(), many.len());
                let d = at(registry, check.span.clone(), message, "which one does this check verify?").with_note(format!("say which with `number = \"{}\"`", many[0].1.text));
                (CheckBinding { error: Some(d), ..CheckBinding::default() }, false)
            }
        };
    };
    let wanted = match numbers::parse_one(number.get_ref()) {
        Ok(n) => n,
        Err(m) => return (CheckBinding { error: Some(at(registry, number.span(), m, "not one number")), ..CheckBinding::default() }, false),
    };
    // A header's unit is often left out of the registry's number, so a number without a unit
    // names the cell's number of that value in whatever unit the cell has. A number written as
    // the cell writes it is that number, whatever unit the table gives it: BenchmarkDotNet's
    // `1.66 MB` is read as MiB in its table, and as MB alone.
    let same = |n: &Number| n.key() == wanted.key() || (wanted.unit.is_none() && n.key_without_unit() == wanted.key()) || n.text == wanted.text;
    if let Some((_, found)) = quantities.iter().find(|(_, n)| same(n)) {
        return (finish(registry, check, number.get_ref(), (*found).clone()), false);
    }
    if let Some(now) = audited.and_then(|old| same_place(old, cell, &wanted)) {
        return (finish(registry, check, number.get_ref(), now.clone()), true);
    }
    // The cell is found by its place, not its text: its one number of the same unit and shape
    // is the registry's number, edited.
    let like: Vec<&Number> = quantities.iter().map(|(_, n)| *n).filter(|n| same_kind(&wanted, n)).collect();
    if let [now] = like.as_slice() {
        return (finish(registry, check, number.get_ref(), (*now).clone()), true);
    }
    let shown = quantities.iter().map(|(_, n)| format!("`{}`", n.text)).collect::<Vec<_>>().join(", ");
    let message = format!("claim `{}`: number `{}` is not in its cell", claim.id.get_ref(), number.get_ref());
    let d = at(registry, number.span(), message, "not in the cell").with_note(format!(
        "the cell at line {} quotes {}",
        cell.line,
        if shown.is_empty() { "no number".into() } else { shown }
    ));
    (CheckBinding { registry_number: Some(number.get_ref().clone()), error: Some(d), ..CheckBinding::default() }, false)
}

/// Whether `n` could be `wanted` edited: the same unit (or none named) and the same shape.
fn same_kind(wanted: &Number, n: &Number) -> bool {
    (wanted.unit.is_none() || wanted.unit == n.unit) && std::mem::discriminant(&wanted.shape) == std::mem::discriminant(&n.shape)
}

/// The number at index `k` of `sentence`'s numbers as the audited text `old` showed it, when
/// the two differ in their numbers alone.
fn number_at(old: &str, sentence: &Sentence, k: usize) -> Option<Number> {
    let old_numbers = numbers::extract(old, &[]);
    if skeleton(old, &old_numbers) != skeleton(&sentence.text, &sentence.numbers) {
        return None;
    }
    old_numbers.into_iter().nth(k)
}

fn finish(registry: &Registry, check: &crate::checks::Check, registry_number: &str, found: Number) -> CheckBinding {
    let mut binding = CheckBinding { registry_number: Some(registry_number.to_string()), sentence_number: Some(found.clone()), ..CheckBinding::default() };
    match Quoted::from_number(&found, check.common.part) {
        Ok(q) => binding.quoted = Some(q),
        Err(m) => {
            let span = check.common.number.as_ref().map_or(check.span.clone(), |n| n.span());
            binding.error = Some(at(registry, span, m, "here"));
        }
    }
    binding
}

fn at(registry: &Registry, span: Range<usize>, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::at(message, &registry.file, &registry.source, span, label)
}

pub(crate) fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Sentences are compared on their first this many words. Prose sentences are far shorter;
/// the cap bounds the word diff, whose cost grows with the product of the two lengths, so that
/// a megabyte "sentence" costs no more than a long one.
pub(crate) const MAX_COMPARED_WORDS: usize = 100;

/// At most this many sentences are diffed against a lost quote: those that share the most
/// words with it, which bounds the similarity from above.
pub(crate) const MAX_NEAREST_CANDIDATES: usize = 64;

/// How many index entries one search may visit. The quote's rarest words are looked up first;
/// a word too common to fit in what is left nominates no candidates. In an article of a few
/// hundred sentences every entry fits, and the search is exhaustive.
const MAX_POSTINGS: usize = 8192;

/// How alike two sentences are, in [0, 1]: twice the words they share in order over the words
/// of both, over each one's first [`MAX_COMPARED_WORDS`] words. Whitespace is not a word, so
/// two unrelated sentences are not half alike.
pub fn similarity(a: &str, b: &str) -> f64 {
    ratio(&compared_words(a), &compared_words(b))
}

/// The words of `text` that similarity compares.
pub(crate) fn compared_words(text: &str) -> Vec<&str> {
    text.split_whitespace().take(MAX_COMPARED_WORDS).collect()
}

fn ratio(a: &[&str], b: &[&str]) -> f64 {
    f64::from(similar::TextDiff::from_slices(a, b).ratio())
}

/// The search for the sentence most similar to a lost quote, over one article. Its word index
/// is built on the first search and serves every later one.
pub(crate) struct Nearest<'a> {
    article: &'a Article,
    index: OnceCell<WordIndex<'a>>,
}

impl<'a> Nearest<'a> {
    pub(crate) fn new(article: &'a Article) -> Self {
        Nearest { article, index: OnceCell::new() }
    }

    /// The most similar sentence and its similarity; ties go to the earlier sentence, and a
    /// quote that shares no word with any sentence is nearest the first, at 0. Only sentences
    /// that share a word with the quote can be more than 0 alike, so only those are diffed,
    /// the most promising first.
    pub(crate) fn find(&self, text: &str) -> Option<(usize, f64)> {
        let first = self.article.sentences.first()?.index;
        let index = self.index.get_or_init(|| WordIndex::new(self.article.sentences.iter().map(|s| s.text.as_str())));
        let query = compared_words(text);
        let mut best = (first, 0.0);
        for (i, bound) in index.candidates(&query, MAX_NEAREST_CANDIDATES, 0.0, |_| true) {
            // Candidates come best bound first: once the bound cannot beat the best found, no
            // later one can either.
            if bound < best.1 {
                break;
            }
            let r = ratio(&query, index.words(i));
            if r > best.1 || (r == best.1 && i < best.0) {
                best = (i, r);
            }
        }
        Some((self.article.sentences[best.0].index, best.1))
    }
}

/// The compared words of a list of sentences, with an index from each word to the sentences
/// that hold it and how often.
pub(crate) struct WordIndex<'a> {
    words: Vec<Vec<&'a str>>,
    postings: HashMap<&'a str, Vec<(usize, u32)>>,
}

impl<'a> WordIndex<'a> {
    pub(crate) fn new(texts: impl Iterator<Item = &'a str>) -> Self {
        let words: Vec<Vec<&str>> = texts.map(compared_words).collect();
        let mut postings: HashMap<&str, Vec<(usize, u32)>> = HashMap::new();
        let mut counts: HashMap<&str, u32> = HashMap::new();
        for (i, w) in words.iter().enumerate() {
            counts.clear();
            for word in w {
                *counts.entry(word).or_default() += 1;
            }
            // Each word's list grows in sentence order whatever order the words come in.
            for (word, n) in counts.drain() {
                postings.entry(word).or_default().push((i, n));
            }
        }
        WordIndex { words, postings }
    }

    pub(crate) fn words(&self, i: usize) -> &[&'a str] {
        &self.words[i]
    }

    /// Sentences that share words with `query`, with an upper bound on their similarity (the
    /// words shared in any order, which bounds those shared in order), at least `min_bound`,
    /// best first then by position, at most `limit`, and only those `eligible` allows.
    pub(crate) fn candidates(&self, query: &[&str], limit: usize, min_bound: f64, eligible: impl Fn(usize) -> bool) -> Vec<(usize, f64)> {
        let mut wanted: HashMap<&str, u32> = HashMap::new();
        for word in query {
            *wanted.entry(word).or_default() += 1;
        }
        let mut by_rarity: Vec<(usize, &str, u32)> = wanted.iter().filter_map(|(w, n)| self.postings.get(w).map(|p| (p.len(), *w, *n))).collect();
        by_rarity.sort_unstable();
        let mut shared: HashMap<usize, u32> = HashMap::new();
        let mut budget = MAX_POSTINGS;
        // The words too common to look up may still be shared; counting them as shared keeps
        // the bound an upper bound, so that no nominated sentence is filtered out wrongly.
        let mut unseen = 0u32;
        for (len, word, n) in by_rarity {
            if len > budget {
                unseen += n;
                budget = 0;
                continue;
            }
            budget -= len;
            for (i, m) in &self.postings[word] {
                if eligible(*i) {
                    *shared.entry(*i).or_default() += n.min(*m);
                }
            }
        }
        let mut out: Vec<(usize, f64)> = shared
            .into_iter()
            .map(|(i, n)| {
                let (lq, li) = (query.len(), self.words[i].len());
                let most = (n + unseen).min(lq.min(li) as u32);
                (i, 2.0 * f64::from(most) / (lq + li) as f64)
            })
            .filter(|(_, bound)| *bound >= min_bound)
            .collect();
        out.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out.truncate(limit);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(text: &str, quote: &str) -> bool {
        QuoteSearch::new(quote).holds(text)
    }

    /// The searcher finds what `str::match_indices` finds, on text with multi-byte characters,
    /// repeated and overlapping candidates, digits at either end and the empty quote.
    #[test]
    fn the_quote_search_agrees_with_match_indices() {
        fn by_match_indices(text: &str, quote: &str) -> bool {
            let starts_digit = quote.starts_with(|c: char| c.is_ascii_digit());
            let ends_digit = quote.ends_with(|c: char| c.is_ascii_digit());
            text.match_indices(quote).any(|(at, _)| (!starts_digit || !continued_before(&text[..at])) && (!ends_digit || !continued_after(&text[at + quote.len()..])))
        }
        let pieces = ["1", "2", "0.5", "µs", "×", "−", " ", "ab", "aa", ".", ",", "k", "e", "−3", "€"];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..20_000 {
            let text: String = (0..next(12)).map(|_| pieces[next(pieces.len())]).collect();
            let quote: String = (0..next(4)).map(|_| pieces[next(pieces.len())]).collect();
            assert_eq!(holds(&text, &quote), by_match_indices(&text, &quote), "quote {quote:?} in {text:?}");
        }
    }

    fn bind(registry: &Registry, article: &Article) -> Vec<Binding> {
        bind_against(registry, article, &BTreeMap::new())
    }

    fn nearest(text: &str, article: &Article) -> Option<(usize, f64)> {
        Nearest::new(article).find(text)
    }
    use crate::registry;

    const ARTICLE: &str = "# T\n\nGraph replay took 14.96 µs at 4096×4096. The stream took 19.40 µs.\n\nFusion helps. Fusion helps.\n";

    fn registry_with(quote: &str, number: &str) -> Registry {
        let src = format!(
            "[manuscript]\npath = \"a.md\"\nsha256 = \"{}\"\n\n[[claim]]\nid = \"C1\"\nquote = \"{quote}\"\nverdict = \"retain\"\nfinding = \"f\"\n\n  [[claim.check]]\n  kind = \"arith\"\n  number = \"{number}\"\n  expr = \"14.96\"\n",
            "0".repeat(64)
        );
        let (reg, diags) = registry::parse("claims/a.toml", &src);
        assert!(diags.is_empty(), "{diags:?}");
        reg.unwrap()
    }

    fn article(text: &str) -> Article {
        Article::parse("a.md", text.as_bytes()).unwrap()
    }

    /// A row of BenchmarkDotNet's table named by a description with two spaces
    /// (`'Command  Send'`, net-mediate's CI run): the console's table in a code block and the
    /// GitHub report's Markdown (`&#39;`) name it so, as the evidence does, and a registry's
    /// `cell` binds it whether it writes the two spaces or one. Compared as written, the
    /// selector's spaces collapsed and the label's kept, the console's cells bound nothing.
    #[test]
    fn a_cell_binds_a_row_whose_label_holds_a_run_of_spaces() {
        let console = "| Method          | Job        | Mean     | Error    |\n|---------------- |----------- |---------:|---------:|\n| 'Command  Send' | Job-CEIKLR | 69.85 ns | 0.110 ns |\n";
        for md in [format!("# Run\n\n```\n{console}```\n"), format!("# Run\n\n{}", console.replace('\'', "&#39;"))] {
            let a = article(&md);
            for row in ["'Command  Send': Job-CEIKLR", "'Command Send': Job-CEIKLR"] {
                let selector = CellSelector { row: row.to_string(), column: "Error".to_string(), section: None, table: None };
                let cells = cells_named(&a, &selector);
                assert_eq!(cells.len(), 1, "{row} in {md}");
                assert_eq!(a.sentences[cells[0]].text, "0.110 ns");
            }
            let other = CellSelector { row: "'CommandSend': Job-CEIKLR".to_string(), column: "Error".to_string(), section: None, table: None };
            assert!(cells_named(&a, &other).is_empty());
            assert!(missing_cell(&a, &other).contains("its rows are `'Command  Send': Job-CEIKLR`"), "{}", missing_cell(&a, &other));
        }
    }

    #[test]
    fn an_exact_quote_binds_its_sentence_and_number() {
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(ARTICLE));
        let Binding::Bound(b) = &b[0] else { panic!("{b:?}") };
        assert_eq!((b.sentence, b.numbers_changed), (0, false));
        assert_eq!(b.checks[0].quoted.as_ref().unwrap().value, 14.96);
    }

    #[test]
    fn an_edited_number_binds_with_numbers_changed() {
        let edited = ARTICLE.replace("14.96", "15.96");
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(&edited));
        let Binding::Bound(b) = &b[0] else { panic!("{b:?}") };
        assert!(b.numbers_changed);
        assert_eq!(b.checks[0].sentence_number.as_ref().unwrap().text, "15.96 µs");
    }

    #[test]
    fn a_removed_sentence_is_lost_with_its_nearest_neighbour() {
        let edited = ARTICLE.replace("Graph replay took 14.96 µs at 4096×4096. ", "");
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(&edited));
        assert!(matches!(b[0], Binding::Lost { nearest: Some(_) }), "{b:?}");
    }

    #[test]
    fn a_quote_in_two_sentences_is_ambiguous() {
        let b = bind(&registry_with("Fusion helps", "14.96 µs"), &article(ARTICLE));
        assert!(matches!(&b[0], Binding::Ambiguous { sentences } if sentences.len() == 2), "{b:?}");
    }

    #[test]
    fn a_number_missing_from_the_sentence_is_an_error() {
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.97 µs"), &article(ARTICLE));
        let Binding::Bound(b) = &b[0] else { panic!() };
        let err = b.checks[0].error.as_ref().unwrap();
        assert!(err.message.contains("number `14.97 µs` is not in its sentence"), "{}", err.message);
    }

    /// `79.2±3μs` writes the unit once for the value and its spread: the check's `79.2`,
    /// written as the sentence writes it, is the value, though the sentence reads it in µs;
    /// a `79.2` that stands in no such pair still needs its unit.
    #[test]
    fn a_value_that_shares_its_spread_s_unit_binds_as_written() {
        let text = "# T\n\nJoining took 79.2±3μs before the change, and 79.2 µs after.\n";
        let b = bind(&registry_with("Joining took", "79.2"), &article(text));
        let Binding::Bound(b) = &b[0] else { panic!("{b:?}") };
        assert!(b.checks[0].error.is_none(), "{:?}", b.checks[0].error);
        let found = b.checks[0].sentence_number.as_ref().unwrap();
        assert_eq!((found.text.as_str(), found.span.start), ("79.2", 13));
        let b = bind(&registry_with("Joining took", "3"), &article("# T\n\nJoining took 3 µs.\n"));
        let Binding::Bound(b) = &b[0] else { panic!("{b:?}") };
        assert!(b.checks[0].error.is_some());
    }

    #[test]
    fn a_number_outside_the_quote_is_found_by_its_audited_place() {
        let reg = registry_with("Graph replay took", "14.96 µs");
        let edited = article(&ARTICLE.replace("14.96", "15.96"));
        let audited = BTreeMap::from([("C1", "Graph replay took 14.96 µs at 4096×4096.")]);
        let Binding::Bound(b) = &bind_against(&reg, &edited, &audited)[0] else { panic!() };
        assert!(b.numbers_changed);
        assert_eq!(b.checks[0].sentence_number.as_ref().unwrap().text, "15.96 µs");
        // Without the audited sentence the number cannot be placed, and binding says so.
        let Binding::Bound(b) = &bind_against(&reg, &edited, &BTreeMap::new())[0] else { panic!() };
        assert!(b.checks[0].error.is_some());
    }

    #[test]
    fn similarity_counts_words_not_spaces() {
        assert_eq!(similarity("a b c d", "a b c d"), 1.0);
        assert_eq!(similarity("It keeps the order.", "Three techniques attack costs."), 0.0);
        assert!((similarity("took 1 µs", "took 2 µs") - 2.0 * 2.0 / 6.0).abs() < 1e-6);
    }

    #[test]
    fn the_nearest_sentence_is_the_most_similar_and_the_first_on_a_tie() {
        let a = article("# T\n\nAlpha beta gamma. Delta epsilon zeta. Alpha beta gamma delta.\n");
        assert_eq!(nearest("Alpha beta gamma.", &a), Some((0, 1.0)));
        assert_eq!(nearest("alpha beta gamma", &a).map(|(i, _)| i), Some(2));
        assert_eq!(nearest("Alpha beta gamma delta.", &a), Some((2, 1.0)));
        assert_eq!(nearest("nothing shared", &a), Some((0, 0.0)));
        let exhaustive = a.sentences.iter().map(|s| (s.index, similarity("Delta epsilon", &s.text))).max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(&x.0)));
        assert_eq!(nearest("Delta epsilon", &a), exhaustive);
    }

    /// A 2 MB sentence and a 10 MB quote, and 200,000 sentences, where the unbounded diff took
    /// minutes. What bounds the search is asserted, not a time: each side is compared by its
    /// first [`MAX_COMPARED_WORDS`] words, and words too common for the posting budget nominate
    /// no candidate, so that of 200,000 sentences sharing four words with the quote only the
    /// one holding its rare word is diffed.
    #[test]
    fn the_nearest_sentence_search_is_bounded() {
        let long = format!("# T\n\n{}.\n", "word ".repeat(400_000).trim_end());
        let a = article(&long);
        let quote = "other ".repeat(2_000_000);
        assert_eq!(compared_words(&quote).len(), MAX_COMPARED_WORDS);
        assert_eq!(compared_words(&a.sentences[0].text).len(), MAX_COMPARED_WORDS);
        assert_eq!(nearest(&quote, &a).map(|(i, _)| i), Some(0));
        assert!(nearest(&"word ".repeat(2_000_000), &a).is_some_and(|(_, r)| r == 1.0));
        let many: String = (0..200_000).map(|i| format!("Sentence number {i} is here. ")).collect();
        let a = article(&format!("# T\n\n{many}\n"));
        let wanted = "Sentence number 123456 is here.";
        let index = WordIndex::new(a.sentences.iter().map(|s| s.text.as_str()));
        assert_eq!(index.candidates(&compared_words(wanted), MAX_NEAREST_CANDIDATES, 0.0, |_| true), [(123_456, 1.0)]);
        // A quote of common words alone nominates none: each word's 200,000 entries exceed the
        // budget, and the search settles for the first sentence rather than diff them all.
        assert_eq!(index.candidates(&compared_words("Sentence number"), MAX_NEAREST_CANDIDATES, 0.0, |_| true), []);
        assert_eq!(nearest("Sentence number", &a), Some((0, 0.0)));
        assert_eq!(nearest(wanted, &a), Some((123_456, 1.0)));
    }

    #[test]
    fn whitespace_in_the_article_does_not_break_a_quote() {
        let wrapped = ARTICLE.replace("took 14.96", "took\n14.96");
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(&wrapped));
        assert!(matches!(&b[0], Binding::Bound(b) if !b.numbers_changed));
    }

    #[test]
    fn a_quote_never_cuts_a_number() {
        assert!(holds("It took 66 ms.", "66"));
        assert!(!holds("The ratio was 0.66 here.", "66"));
        assert!(!holds("Its P99 is 12 ms.", "9"));
        assert!(!holds("Its P99 is 12 ms.", "99 is 12"));
        assert!(!holds("over 10k rows", "over 10"));
        assert!(!holds("rows 1,764 here", "764 here"));
        assert!(!holds("a -4.5 % change", "4.5 % change"));
        assert!(holds("a -4.5 % change", "-4.5 % change"));
        assert!(!holds("took 14.96 µs", "took 14.9"));
        assert!(holds("took 14.96µs", "took 14.96"));
        assert!(!holds("an error of 1e-3", "error of 1"));
        // A later occurrence at a boundary still holds.
        assert!(holds("from 0.66 to 66", "66"));
    }

    #[test]
    fn a_one_number_quote_binds_the_cell_that_shows_it_whole() {
        let a = article("# T\n\n| a | b |\n|---|---|\n| x | 0.66 |\n| y | 66 |\n| z | P99 |\n");
        let b = bind(&registry_with("66", "66"), &a);
        let Binding::Bound(b) = &b[0] else { panic!("{b:?}") };
        assert_eq!(a.sentences[b.sentence].text, "66");
    }

    const TABLES: &str = "# R\n\n## Throughput (tokens/s)\n\n### 70B\n\n| Framework | Median | P99 |\n|---|---|---|\n| anyscale | 66 | 82 |\n| groq | 185 | 208 |\n\n## Time to First Token (seconds)\n\n### 70B\n\n| Framework | Median | P99 |\n|---|---|---|\n| anyscale | 0.66 | 0.47 |\n\n## Speed\n\n| | Ipc |\n|---|---|\n| **`Block: 0`** | `670.99 ms` (✅ **1.20x faster**) |\n";

    /// A registry with one claim on `cell`, with `checks` (the bodies of its check tables).
    fn cell_claim(cell: &str, checks: &[&str]) -> Registry {
        let mut src = format!("[manuscript]\npath = \"a.md\"\nsha256 = \"{}\"\n\n[[claim]]\nid = \"T1\"\ncell = {cell}\nverdict = \"retain\"\nfinding = \"f\"\n", "0".repeat(64));
        for body in checks {
            src.push_str(&format!("\n  [[claim.check]]\n  kind = \"arith\"\n  expr = \"1\"\n{body}\n"));
        }
        let (reg, diags) = registry::parse("claims/a.toml", &src);
        assert!(diags.is_empty(), "{diags:?}");
        reg.unwrap()
    }

    fn bound(registry: &Registry, a: &Article, audited: &BTreeMap<&str, &str>) -> Bound {
        match bind_against(registry, a, audited).remove(0) {
            Binding::Bound(b) => b,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_cell_binds_by_row_column_and_section() {
        let a = article(TABLES);
        let reg = cell_claim("{ row = \"anyscale\", column = \"Median\", section = \"Throughput (tokens/s)\" }", &[""]);
        let b = bound(&reg, &a, &BTreeMap::new());
        assert_eq!(a.sentences[b.sentence].text, "66");
        let q = b.checks[0].quoted.as_ref().unwrap();
        assert_eq!((q.value, q.unit.clone()), (66.0, Some(numbers::Unit::Other("tokens/s".into()))));
        assert!(!b.numbers_changed);
        // Several headings joined by `›` name the table's path.
        let reg = cell_claim("{ row = \"anyscale\", column = \"P99\", section = \"Time to First Token (seconds) › 70B\" }", &[""]);
        let b = bound(&reg, &a, &BTreeMap::new());
        assert_eq!(a.sentences[b.sentence].text, "0.47");
    }

    /// Two tables of one section with the same rows and columns, as a paper's generated tables
    /// for two algorithms: named by their `\label`s (one in the float, one inside its caption,
    /// and a longtable's among its rows), each cell binds by its table's name, wherever the
    /// tables stand; a name no table has, and a name whose table lacks the column or the row,
    /// say what the article has.
    const LABELLED: &str = "\\section{Runtime}\n\n\\begin{table}\n\\caption{NSGA-II (seconds)}\\label{tab:nsga}\n\\begin{tabular}{lr}\n\\toprule\nFramework & ZDT \\\\\n\\midrule\nVAMOS & 8.97 \\\\\npymoo & 38.84 \\\\\n\\bottomrule\n\\end{tabular}\n\\end{table}\n\n\\begin{table}\n\\caption{MOEA/D (seconds)\\label{ tab:moead }}\n\\begin{tabular}{lr}\nFramework & ZDT \\\\\n\\hline\nVAMOS & 3.25 \\\\\npymoo & 14.76 \\\\\n\\end{tabular}\n\\end{table}\n\n\\begin{longtable}{lr}\n\\caption{SMS-EMOA}\\label{tab:sms} \\\\\nFramework & ZDT \\\\\n\\hline\\endhead\nVAMOS & 5.86 \\\\\n\\end{longtable}\n";

    #[test]
    fn a_cell_binds_by_its_table_s_name() {
        let a = Article::parse("paper.tex", LABELLED.as_bytes()).unwrap();
        assert_eq!(a.table_names.values().map(String::as_str).collect::<Vec<_>>(), ["tab:nsga", "tab:moead", "tab:sms"]);
        let text = |cell: &str| match bind(&cell_claim(cell, &[]), &a).remove(0) {
            Binding::Bound(b) => a.sentences[b.sentence].text.clone(),
            other => format!("{other:?}"),
        };
        assert!(text("{ row = \"VAMOS\", column = \"ZDT\" }").starts_with("Ambiguous"));
        assert_eq!(text("{ row = \"VAMOS\", column = \"ZDT\", table = \"tab:nsga\" }"), "8.97");
        assert_eq!(text("{ row = \"VAMOS\", column = \"ZDT\", table = \"tab:moead\" }"), "3.25");
        assert_eq!(text("{ row = \"VAMOS\", column = \"ZDT\", table = \"tab:sms\" }"), "5.86");
        assert_eq!(text("{ row = \"pymoo\", column = \"ZDT\", table = 2 }"), "14.76");
        // The selector `init` and `suggest` write names the table where it has a name.
        let selectors = Selectors::new(&a);
        let cell = a.sentences.iter().find(|s| s.text == "14.76").and_then(|s| s.cell.clone()).unwrap();
        let written = selectors.of(&cell, Some("Runtime".into()));
        assert_eq!((written.section, written.table), (None, Some(TableRef::Named("tab:moead".into()))));
        // What is said when the name or the place is wrong.
        let selector = |row: &str, column: &str, table: &str| CellSelector { row: row.into(), column: column.into(), section: None, table: Some(TableRef::Named(table.into())) };
        assert!(matches!(bind(&cell_claim("{ row = \"VAMOS\", column = \"ZDT\", table = \"tab:spea2\" }", &[]), &a)[0], Binding::Lost { .. }));
        assert_eq!(missing_cell(&a, &selector("VAMOS", "ZDT", "tab:spea2")), "no table is named `tab:spea2`; the names are `tab:nsga`, `tab:moead`, `tab:sms`");
        assert_eq!(
            missing_cell(&a, &selector("pymoo", "ZDT", "tab:sms")),
            "table `tab:sms` has no row `pymoo` in column `ZDT`; its rows are `VAMOS`; 2 other tables have them (`tab:nsga`, `tab:moead`)"
        );
        assert_eq!(missing_cell(&a, &selector("VAMOS", "DTLZ", "tab:sms")).split(';').next(), Some("no table has a column `DTLZ`"));
        let unnamed = article(TABLES);
        assert_eq!(missing_cell(&unnamed, &selector("anyscale", "Median", "tab:x")), "no table of the article has a name, and `table` names `tab:x`");
    }

    /// A number the registry spells otherwise than the cell is the cell's number, unchanged; one
    /// of another value, precision or bound is found by its place and changed; one of another
    /// unit is not the cell's number at all.
    #[test]
    fn a_number_spelled_otherwise_is_unchanged() {
        let a = article("# R\n\n| case | p | t | n |\n|---|---|---|---|\n| x | < 0.0001 | 14.96 µs | 10k |\n");
        let check = |column: &str, number: &str| {
            let b = &bind(&cell_claim(&format!("{{ row = \"x\", column = \"{column}\" }}"), &[&format!("  number = \"{number}\"")]), &a)[0];
            let Binding::Bound(b) = b else { panic!("{b:?}") };
            (b.checks[0].changed, b.checks[0].error.is_some())
        };
        for (column, number) in [("p", "<0.0001"), ("t", "14.96us"), ("n", "10K")] {
            assert_eq!(check(column, number), (false, false), "{number}");
        }
        for (column, number) in [("t", "15.96 µs"), ("p", "0.0001"), ("t", "14.960 µs")] {
            assert_eq!(check(column, number), (true, false), "{number}");
        }
        assert_eq!(check("t", "14.96 ms"), (false, true), "another unit is another number");
    }

    /// reStructuredText names a table by its directive's `:name:` option, in a `table`
    /// directive around a grid or simple table as in a `list-table` or a `csv-table`.
    #[test]
    fn an_rst_table_is_named_by_its_directive_s_name_option() {
        let rst = "Runtime\n=======\n\n.. table:: NSGA-II (seconds)\n   :name: tab-nsga\n\n   =========  =====\n   Framework  ZDT\n   =========  =====\n   VAMOS      8.97\n   =========  =====\n\n.. list-table:: MOEA/D (seconds)\n   :name: tab-moead\n   :header-rows: 1\n\n   * - Framework\n     - ZDT\n   * - VAMOS\n     - 3.25\n\n.. csv-table:: SMS-EMOA\n   :header: Framework, ZDT\n\n   VAMOS, 5.86\n\n.. csv-table:: SPEA2\n   :name: tab-spea2\n   :header: Framework, ZDT\n\n   VAMOS, 1.50\n";
        let a = Article::parse("paper.rst", rst.as_bytes()).unwrap();
        assert_eq!(a.table_names.values().map(String::as_str).collect::<Vec<_>>(), ["tab-nsga", "tab-moead", "tab-spea2"]);
        let text = |table: &str| match bind(&cell_claim(&format!("{{ row = \"VAMOS\", column = \"ZDT\", table = {table} }}"), &[]), &a).remove(0) {
            Binding::Bound(b) => a.sentences[b.sentence].text.clone(),
            other => format!("{other:?}"),
        };
        assert_eq!((text("\"tab-nsga\""), text("\"tab-moead\""), text("\"tab-spea2\""), text("3")), ("8.97".into(), "3.25".into(), "1.50".into(), "5.86".into()));
    }

    /// Markdown names a table by its pandoc caption's `#id` (Quarto's and pandoc-crossref's
    /// cross-reference labels), and HTML by the `<table>`'s `id`; a name no table has is an
    /// error that lists the names.
    #[test]
    fn markdown_and_html_tables_are_named_by_caption_ids_and_ids() {
        let md = "# Latency (µs)\n\n| Kernel | H200 |\n|---|---|\n| copy | 5.7 |\n\n: Before {#tbl-before}\n\n\
                  | Kernel | H200 |\n|---|---|\n| copy | 5.9 |\n\n: After {#tbl-after}\n\n\
                  <table id=\"tab-html\"><tr><th>Kernel</th><th>H200</th></tr><tr><td>copy</td><td>6.0</td></tr></table>\n";
        let a = article(md);
        let text = |table: &str| match bind(&cell_claim(&format!("{{ row = \"copy\", column = \"H200\", table = {table} }}"), &[]), &a).remove(0) {
            Binding::Bound(b) => a.sentences[b.sentence].text.clone(),
            other => format!("{other:?}"),
        };
        assert_eq!((text("\"tbl-before\""), text("\"tbl-after\""), text("\"tab-html\"")), ("5.7".into(), "5.9".into(), "6.0".into()));
        let selector = |table: &str| CellSelector { row: "copy".into(), column: "H200".into(), section: None, table: Some(TableRef::Named(table.into())) };
        assert_eq!(missing_cell(&a, &selector("tbl-gone")), "no table is named `tbl-gone`; the names are `tbl-before`, `tbl-after`, `tab-html`");
    }

    /// A table's place counts from 1, and a name is a non-empty string: anything else is
    /// refused where the registry writes it.
    #[test]
    fn a_table_is_a_place_from_one_or_a_name() {
        for (table, said) in [("0", "counts from 1"), ("-2", "counts from 1"), ("\"  \"", "names no table"), ("1.5", "its name"), ("true", "its name")] {
            let src = format!(
                "[manuscript]\npath = \"a.md\"\nsha256 = \"{}\"\n\n[[claim]]\nid = \"T1\"\ncell = {{ row = \"a\", column = \"b\", table = {table} }}\nverdict = \"retain\"\nfinding = \"f\"\n",
                "0".repeat(64)
            );
            let (_, diags) = registry::parse("claims/a.toml", &src);
            assert!(diags.iter().any(|d| d.message.contains(said) || d.render().contains(said)), "{table}: {diags:?}");
        }
    }

    #[test]
    fn a_cell_in_several_tables_needs_a_section() {
        let a = article(TABLES);
        let b = bind(&cell_claim("{ row = \"anyscale\", column = \"Median\" }", &[]), &a);
        assert!(matches!(&b[0], Binding::Ambiguous { sentences } if sentences.len() == 2), "{b:?}");
        let b = bind(&cell_claim("{ row = \"anyscale\", column = \"Median\", section = \"70B\" }", &[]), &a);
        assert!(matches!(&b[0], Binding::Ambiguous { sentences } if sentences.len() == 2), "{b:?}");
    }

    /// A header spanning two columns (`colspan`, as READMEs group a value and its speedup) and
    /// a Markdown table that repeats a column's title and a row's name: `#N` names the N-th of
    /// the columns (rows) bearing the label, the selector `init` and `suggest` write, while the
    /// bare label is ambiguous. A label that ends in `#N` itself (`Run #2`) binds as written.
    #[test]
    fn a_repeated_label_is_told_apart_by_its_place() {
        let html = article("# R\n\n<table>\n<tr><th>Model</th><th colspan=\"2\">Latency</th></tr>\n<tr><td>a</td><td>1.5 ms</td><td>2.0x</td></tr>\n<tr><td>b</td><td>3.5 ms</td><td>1.0x</td></tr>\n</table>\n");
        let text = |a: &Article, cell: &str| match bind(&cell_claim(cell, &[]), a).remove(0) {
            Binding::Bound(b) => a.sentences[b.sentence].text.clone(),
            other => format!("{other:?}"),
        };
        assert!(matches!(&bind(&cell_claim("{ row = \"b\", column = \"Latency\" }", &[]), &html)[0], Binding::Ambiguous { sentences } if sentences.len() == 2));
        assert_eq!(text(&html, "{ row = \"b\", column = \"Latency #1\" }"), "3.5 ms");
        assert_eq!(text(&html, "{ row = \"b\", column = \"Latency  #2 \" }"), "1.0x");
        assert!(matches!(bind(&cell_claim("{ row = \"b\", column = \"Latency #3\" }", &[]), &html)[0], Binding::Lost { .. }));
        let cell_of = |a: &Article, t: &str| a.sentences.iter().find(|s| s.text == t).and_then(|s| s.cell.clone()).unwrap();
        let selectors = Selectors::new(&html);
        assert_eq!(selectors.labels(&cell_of(&html, "2.0x")), ("a".to_string(), "Latency #2".to_string()));
        assert_eq!(selectors.labels(&cell_of(&html, "3.5 ms")), ("b".to_string(), "Latency #1".to_string()));

        let md = article("# R\n\n| Run #2 | ms | ms |\n|---|---|---|\n| x | 1 | 2 |\n| x | 3 | 4 |\n| y | 5 | 6 |\n");
        assert_eq!(text(&md, "{ row = \"x #2\", column = \"ms #1\" }"), "3");
        assert_eq!(text(&md, "{ row = \"y\", column = \"ms #2\" }"), "6");
        assert_eq!(text(&md, "{ row = \"x\", column = \"Run #2\" }").contains("Ambiguous"), true);
        let selectors = Selectors::new(&md);
        assert_eq!(selectors.labels(&cell_of(&md, "4")), ("x #2".to_string(), "ms #2".to_string()));
        assert_eq!(selectors.labels(&cell_of(&md, "y")), ("y".to_string(), "Run #2".to_string()));
        assert_eq!(text(&md, "{ row = \"y\", column = \"Run #2\" }"), "y");
        // `#0`, a sign or no number is no place, and `#1` alone names a column without a label.
        for label in ["ms #0", "ms #+1", "ms #", "ms#1", "#1"] {
            assert!(matches!(bind(&cell_claim(&format!("{{ row = \"y\", column = \"{label}\" }}"), &[]), &md)[0], Binding::Lost { .. }), "{label}");
        }
    }

    /// The selector `init` and `suggest` write for a body cell binds that cell and no other:
    /// over random HTML tables whose cells repeat three labels, span rows and columns, and
    /// stand two to a heading (so that `table` tells them apart too).
    #[test]
    fn the_selector_written_for_a_cell_binds_it_back() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
        let mut checked = 0;
        for _ in 0..2000 {
            let mut md = String::from("# R\n\n");
            let mut value = 0;
            for _ in 0..rng.random_range(1..=2) {
                md.push_str("<table>\n<tr>");
                let width = rng.random_range(2..=4);
                for _ in 0..width {
                    md.push_str(&format!("<th>{}</th>", ["a", "b", "c"][rng.random_range(0..3)]));
                }
                md.push_str("</tr>\n");
                for _ in 0..rng.random_range(1..=4) {
                    md.push_str("<tr>");
                    for _ in 0..rng.random_range(1..=width) {
                        let span = match rng.random_range(0..6) {
                            0 => " colspan=\"2\"",
                            1 => " rowspan=\"2\"",
                            _ => "",
                        };
                        let text = if rng.random_bool(0.4) { ["x", "y"][rng.random_range(0..2)].to_string() } else { value += 1; format!("v{value}") };
                        md.push_str(&format!("<td{span}>{text}</td>"));
                    }
                    md.push_str("</tr>\n");
                }
                md.push_str("</table>\n\n");
            }
            let a = article(&md);
            let selectors = Selectors::new(&a);
            for s in a.sentences.iter().filter(|s| s.cell.as_ref().is_some_and(|c| c.row > 0)) {
                let cell = s.cell.as_ref().unwrap();
                let selector = selectors.of(cell, None);
                assert_eq!(cells_named(&a, &selector), [s.index], "{selector:?} in\n{md}");
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn a_missing_cell_is_lost_and_says_what_exists() {
        let a = article(TABLES);
        let selector = |row: &str, column: &str| CellSelector { row: row.into(), column: column.into(), section: None, table: None };
        let b = bind(&cell_claim("{ row = \"fireworks\", column = \"Median\" }", &[]), &a);
        assert!(matches!(b[0], Binding::Lost { nearest: None }), "{b:?}");
        assert_eq!(missing_cell(&a, &selector("fireworks", "Median")), "no row of column `Median` is `fireworks`; its rows are `anyscale`, `groq`");
        assert!(missing_cell(&a, &selector("groq", "Mean")).starts_with("no table has a column `Mean`; the columns are `Framework`, `Median`, `P99`"));
        // The header row is not a row a claim can name.
        assert!(matches!(bind(&cell_claim("{ row = \"Framework\", column = \"Median\" }", &[]), &a)[0], Binding::Lost { .. }));
    }

    #[test]
    fn a_cell_with_two_numbers_needs_each_check_to_pick_one() {
        let a = article(TABLES);
        let cell = "{ row = \"Block: 0\", column = \"Ipc\" }";
        let b = bound(&cell_claim(cell, &[""]), &a, &BTreeMap::new());
        let err = b.checks[0].error.as_ref().unwrap();
        assert!(err.message.contains("its cell holds 2 numbers (`670.99 ms`, `1.20x`)"), "{}", err.message);
        let b = bound(&cell_claim(cell, &["  number = \"670.99 ms\"", "  number = \"1.20x\""]), &a, &BTreeMap::new());
        let units: Vec<_> = b.checks.iter().map(|c| c.quoted.as_ref().unwrap().unit.clone()).collect();
        assert_eq!(units, [Some(numbers::Unit::Ms), Some(numbers::Unit::Times)]);
    }

    #[test]
    fn a_number_without_the_headers_unit_names_the_cell_number() {
        let a = article(TABLES);
        let reg = cell_claim("{ row = \"anyscale\", column = \"Median\", section = \"Time to First Token (seconds)\" }", &["  number = \"0.66\"", "  number = \"0.66 s\""]);
        let b = bound(&reg, &a, &BTreeMap::new());
        assert!(b.checks.iter().all(|c| c.error.is_none() && c.quoted.as_ref().unwrap().unit == Some(numbers::Unit::S)), "{:?}", b.checks);
        assert!(!b.numbers_changed);
    }

    #[test]
    fn an_edited_cell_binds_with_numbers_changed() {
        let edited = article(&TABLES.replace("| 66 |", "| 67 |"));
        // With the number named, and no lock: the cell's one number of that kind, edited.
        let named = cell_claim("{ row = \"anyscale\", column = \"Median\", section = \"Throughput (tokens/s)\" }", &["  number = \"66\""]);
        let b = bound(&named, &edited, &BTreeMap::new());
        assert!(b.numbers_changed);
        assert_eq!(b.checks[0].sentence_number.as_ref().unwrap().text, "67");
        // With the number implied, the lock's cell says what it was.
        let implied = cell_claim("{ row = \"anyscale\", column = \"Median\", section = \"Throughput (tokens/s)\" }", &[""]);
        let b = bound(&implied, &edited, &BTreeMap::from([("T1", "66")]));
        assert!(b.numbers_changed);
        assert_eq!(b.checks[0].registry_number.as_deref(), Some("66"));
        assert_eq!(b.checks[0].sentence_number.as_ref().unwrap().text, "67");
        let b = bound(&implied, &article(TABLES), &BTreeMap::from([("T1", "66")]));
        assert!(!b.numbers_changed);
    }
}
