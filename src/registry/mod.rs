//! The claims registry: TOML files that bind sentences of an article to verdicts, findings,
//! sources and checks. This module owns reading and validating a registry on its own; it never
//! reads the article (that is binding's job) and never runs a check.
//!
//! Loading returns the registry *and* its diagnostics, so that one bad claim never hides the
//! others: a claim whose checks cannot be read is kept without them and reported.

pub(crate) mod binding;
pub(crate) mod lock;
pub(crate) mod source;

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::article::numbers::Unit;
use crate::checks::units::FieldUnits;
use crate::checks::{self, Check};
use crate::diagnostic::Diagnostic;
pub(crate) use source::Source;

/// One registry file.
#[derive(Debug, Clone)]
pub(crate) struct Registry {
    /// Root-relative path of the TOML file.
    pub file: String,
    /// Its text, so that diagnostics can show any span of it.
    pub source: String,
    pub manuscript: Manuscript,
    pub sources: Vec<Source>,
    pub claims: Vec<Claim>,
    pub labels: Vec<Label>,
    /// The unit of each field the `[[field]]` tables name.
    pub field_units: FieldUnits,
    /// Parts of the article the registry does not audit (`[[ignore]]`).
    pub ignore: Vec<Ignore>,
    pub policy: Policy,
}

/// A section whose numbers the registry does not audit, so they are not reported unbound:
/// every heading of that name, with what lies under it, or with `table = true` only the
/// tables under it. The report lists them as ignored.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Ignore {
    /// A heading's text, as the article writes it.
    pub section: Spanned<String>,
    /// Only the section's tables, not its prose: a results table the registry leaves to
    /// another registry, beside sentences it does audit.
    #[serde(default)]
    pub table: bool,
    /// Why, for the registry's readers.
    #[serde(default)]
    #[allow(dead_code)]
    pub reason: Option<String>,
}

/// How the audit treats what it finds (`[policy]`).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Policy {
    #[serde(default)]
    pub unbound: UnboundPolicy,
}

/// Whether an unbound number fails the audit (`error`, the default) or is only reported
/// (`warn`): then it neither fails the audit nor blocks `accept`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum UnboundPolicy {
    #[default]
    Error,
    Warn,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Manuscript {
    pub path: Spanned<String>,
    pub sha256: Spanned<String>,
}

/// A number of the article that names something (a year, a figure, a case's shape) rather than
/// states a quantity, declared so that it is not reported as unbound.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Label {
    pub number: Spanned<String>,
    /// Limits the label to the one sentence that contains this text; without it the label
    /// covers every sentence that quotes the number.
    #[serde(default)]
    pub quote: Option<Spanned<String>>,
    /// Why the number is a label; required so that every exemption is explained, and read by
    /// the registry's reviewers rather than by the tool.
    #[allow(dead_code)]
    pub reason: String,
}

/// The four verdicts an audit gives a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
// Variants are in alphabetical order, so that counts sort as the counts line prints them.
pub(crate) enum Verdict {
    /// Wrong: the finding says what is right.
    Correct,
    /// A recommendation or opinion that evidence informs but cannot settle.
    Judgment,
    /// Right only with a scope or condition the sentence should state.
    Qualify,
    /// The sentence is right as written.
    Retain,
}

impl Verdict {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Verdict::Retain => "retain",
            Verdict::Qualify => "qualify",
            Verdict::Correct => "correct",
            Verdict::Judgment => "judgment",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One claim: a sentence of the article, what the audit found, and how to check it.
#[derive(Debug, Clone)]
pub(crate) struct Claim {
    pub id: Spanned<String>,
    /// The sentence the claim is about: quoted, or named as a table cell.
    pub target: Target,
    pub verdict: Spanned<Verdict>,
    pub finding: String,
    pub sources: Vec<Spanned<String>>,
    /// Numbers of the sentence that are labels, not quantities.
    pub labels: Vec<Spanned<String>>,
    pub checks: Vec<Check>,
}

/// What a claim binds to.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// `quote`: a substring of exactly one sentence.
    Quote(Spanned<String>),
    /// `cell`: the table cell in a row and a column.
    Cell(Spanned<CellSelector>),
}

/// `cell = { row = "...", column = "...", section = "...", table = N }`: a table cell named by
/// the text of its row's first cell and of its column's header cell.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct CellSelector {
    pub row: String,
    pub column: String,
    /// A heading of the table's section (or several, joined by `›`), for a row and column that
    /// occur in more than one table.
    #[serde(default)]
    pub section: Option<String>,
    /// Which table the cell is in, where several hold this row and column: its place among
    /// them (in `section`, where it is given), or its name.
    #[serde(default)]
    pub table: Option<TableRef>,
}

/// `table = N` or `table = "name"`: which of the tables that hold a cell's row and column the
/// cell is in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TableRef {
    /// Its place among the tables that hold the row and column (in `section`, where it is
    /// given), from 1 in the article's order: for tables under one heading that share their
    /// rows and columns, as an article's `Before` and `After` of the same benchmarks.
    Place(usize),
    /// The name the article gives the table: a LaTeX `\label` in its float (or its
    /// longtable), the `:name:` option of a reStructuredText table directive, the `#id` of a
    /// Markdown table's pandoc caption, or an HTML table's `id`. A name stays
    /// the table's when tables are added or moved around it, where a place does not.
    Named(String),
}

impl TableRef {
    /// As a registry writes it: `2`, or `"tab:runtime"` as a TOML string.
    pub(crate) fn toml(&self) -> String {
        match self {
            TableRef::Place(n) => n.to_string(),
            TableRef::Named(name) => toml::Value::String(name.clone()).to_string(),
        }
    }
}

impl<'de> Deserialize<'de> for TableRef {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TableRef, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = TableRef;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("the table's place among those that hold the row and column, from 1, or its name (a LaTeX `\\label`, an rst `:name:`) as a string")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<TableRef, E> {
                match usize::try_from(n) {
                    Ok(n) if n >= 1 => Ok(TableRef::Place(n)),
                    _ => Err(E::custom(format!("`table = {n}`: a table's place counts from 1"))),
                }
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<TableRef, E> {
                if name.trim().is_empty() {
                    return Err(E::custom("`table` names no table: write its label, or its place from 1"));
                }
                Ok(TableRef::Named(name.to_string()))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl Ignore {
    /// Whether this entry leaves `sentence` out of the audit.
    pub(crate) fn covers(&self, sentence: &crate::article::Sentence) -> bool {
        sentence.section.iter().any(|h| h == self.section.get_ref()) && (!self.table || sentence.cell.is_some())
    }

    /// How the report names what is ignored: the section, or the tables under it.
    pub(crate) fn describe(&self) -> String {
        if self.table { format!("the tables of section \"{}\"", self.section.get_ref()) } else { format!("section \"{}\"", self.section.get_ref()) }
    }
}

impl Claim {
    /// The claim's quote, where it binds by one.
    pub(crate) fn quote(&self) -> Option<&Spanned<String>> {
        match &self.target {
            Target::Quote(q) => Some(q),
            Target::Cell(_) => None,
        }
    }

    /// The claim's cell, where it binds to one.
    pub(crate) fn cell(&self) -> Option<&Spanned<CellSelector>> {
        match &self.target {
            Target::Quote(_) => None,
            Target::Cell(c) => Some(c),
        }
    }

    /// Where the registry says what the claim binds to, for diagnostics.
    pub(crate) fn target_span(&self) -> Range<usize> {
        match &self.target {
            Target::Quote(q) => q.span(),
            Target::Cell(c) => c.span(),
        }
    }
}

/// `[[field]]`: the unit of a field of the evidence, for every check that reads it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawField {
    name: Spanned<String>,
    unit: Spanned<String>,
}

/// The registry as serde reads it, before checks are parsed kind by kind.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRegistry {
    manuscript: Manuscript,
    #[serde(default)]
    source: Vec<Source>,
    #[serde(default)]
    claim: Vec<Spanned<RawClaim>>,
    #[serde(default)]
    label: Vec<Label>,
    #[serde(default)]
    ignore: Vec<Ignore>,
    #[serde(default)]
    policy: Policy,
    #[serde(default)]
    field: Vec<RawField>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawClaim {
    id: Spanned<String>,
    #[serde(default)]
    quote: Option<Spanned<String>>,
    #[serde(default)]
    cell: Option<Spanned<CellSelector>>,
    verdict: Spanned<Verdict>,
    finding: String,
    #[serde(default)]
    sources: Vec<Spanned<String>>,
    #[serde(default)]
    labels: Vec<Spanned<String>>,
    // Checks are read a second time from the span-preserving tree, kind by kind, so that each
    // kind's unknown keys are reported where they stand.
    #[serde(default)]
    #[allow(dead_code)]
    check: Vec<toml::Value>,
}

/// Reads a registry from `source`, the text of `file`.
pub(crate) fn parse(file: &str, source: &str) -> (Option<Registry>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let toml_error = |e: toml::de::Error| Diagnostic::toml("invalid registry", file, source, &e);
    // The text is parsed once, into the span-preserving tree: the registry is deserialised from
    // that tree, and its checks are read from it kind by kind (below).
    let tree = match DeTable::parse(source) {
        Ok(tree) => tree,
        Err(e) => return (None, vec![toml_error(e)]),
    };
    let raw = match RawRegistry::deserialize(toml::de::Deserializer::from(tree.clone())) {
        Ok(raw) => raw,
        Err(e) => return (None, vec![toml_error(e)]),
    };
    let raw_checks = check_tables(tree.get_ref());

    let mut claims = Vec::new();
    for (claim_idx, raw_claim) in raw.claim.into_iter().enumerate() {
        let c = raw_claim.into_inner();
        let id = c.id.get_ref().clone();
        let mut parsed = Vec::new();
        for value in raw_checks.get(claim_idx).into_iter().flatten() {
            match checks::parse(value) {
                Ok(check) => parsed.push(check),
                Err(checks::ParseError::Toml(e)) => diagnostics.push(toml_error(e)),
                Err(checks::ParseError::At { message, span, label }) => diagnostics.push(Diagnostic::at(message, file, source, span, label)),
            }
        }
        // A claim binds one sentence, so it names it one way; a claim that names none is kept
        // out (its checks were read above, so their own problems still show).
        let target = match (c.quote, c.cell) {
            (Some(quote), None) => Target::Quote(quote),
            (None, Some(cell)) => Target::Cell(cell),
            (Some(quote), Some(cell)) => {
                diagnostics.push(
                    Diagnostic::at(format!("claim `{id}` gives both `quote` and `cell`"), file, source, cell.span(), "give `quote` or `cell`, not both")
                        .with_note("`quote` binds a sentence of prose; `cell` binds a table cell by its row and column"),
                );
                Target::Quote(quote)
            }
            (None, None) => {
                diagnostics.push(
                    Diagnostic::at(format!("claim `{id}` gives neither `quote` nor `cell`"), file, source, c.id.span(), "this claim binds nothing")
                        .with_note("give `quote = \"...\"` for a sentence or `cell = { row = \"...\", column = \"...\" }` for a table cell"),
                );
                continue;
            }
        };
        claims.push(Claim { id: c.id, target, verdict: c.verdict, finding: c.finding, sources: c.sources, labels: c.labels, checks: parsed });
    }
    let mut field_units = FieldUnits::new();
    for field in raw.field {
        let name = field.name.get_ref();
        match Unit::declared(field.unit.get_ref()) {
            Err(message) => diagnostics.push(Diagnostic::at(message, file, source, field.unit.span(), "unit")),
            Ok(_) if field_units.contains_key(name) => {
                diagnostics.push(Diagnostic::at(format!("field `{name}` has its unit declared twice"), file, source, field.name.span(), "declared again here"))
            }
            Ok(unit) => {
                field_units.insert(name.clone(), unit);
            }
        }
    }
    let registry = Registry {
        file: file.to_string(),
        source: source.to_string(),
        manuscript: raw.manuscript,
        sources: raw.source,
        claims,
        labels: raw.label,
        ignore: raw.ignore,
        policy: raw.policy,
        field_units,
    };
    diagnostics.extend(validate(&registry));
    (Some(registry), diagnostics)
}

/// The `[[claim.check]]` tables of each claim, in order, with their spans.
fn check_tables<'a>(tree: &'a DeTable<'a>) -> Vec<Vec<&'a Spanned<DeValue<'a>>>> {
    let Some(claims) = tree.get("claim").and_then(|v| v.get_ref().as_array()) else {
        return Vec::new();
    };
    claims
        .iter()
        .map(|claim| claim.get_ref().as_table().and_then(|t| t.get("check")).and_then(|c| c.get_ref().as_array()).map(|a| a.iter().collect()).unwrap_or_default())
        .collect()
}

/// The rule for a claim id, as README states it: ids name claims in reports, locks and file
/// names of findings, so they are short and plain.
pub(crate) const ID_RULE: &str = "a claim id is 1 to 64 ASCII letters, digits, `-`, `_` or `.`, starting with a letter or digit (such as `F11` or `graphs-3`)";

/// Whether `id` follows [`ID_RULE`]; the error says how it does not.
pub(crate) fn check_id(id: &str) -> Result<(), &'static str> {
    if id.is_empty() {
        return Err("is empty");
    }
    if id.len() > 64 {
        return Err("is longer than 64 characters");
    }
    if !id.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err("does not start with a letter or digit");
    }
    if !id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
        return Err("holds a character other than ASCII letters, digits, `-`, `_` and `.`");
    }
    Ok(())
}

/// Checks that need the whole registry: unique ids, defined sources, well-formed hashes.
fn validate(registry: &Registry) -> Vec<Diagnostic> {
    let file = registry.file.as_str();
    let source = registry.source.as_str();
    let mut out = Vec::new();
    let sha = registry.manuscript.sha256.get_ref();
    if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()) {
        out.push(Diagnostic::at(
            "manuscript.sha256 is not a SHA-256 in lowercase hex (64 characters)",
            file,
            source,
            registry.manuscript.sha256.span(),
            "expected 64 lowercase hex digits",
        ));
    }
    let mut keys: BTreeMap<&str, Range<usize>> = BTreeMap::new();
    for s in &registry.sources {
        if let Some(first) = keys.insert(s.key.get_ref(), s.key.span()) {
            out.push(
                Diagnostic::at(format!("source key `{}` is defined twice", s.key.get_ref()), file, source, s.key.span(), "defined again here")
                    .with_note(format!("first defined at byte {}", first.start)),
            );
        }
    }
    let mut ids: BTreeMap<&str, Range<usize>> = BTreeMap::new();
    for claim in &registry.claims {
        if let Err(why) = check_id(claim.id.get_ref()) {
            out.push(Diagnostic::at(format!("claim id `{}` {why}", claim.id.get_ref()), file, source, claim.id.span(), "not a claim id").with_note(ID_RULE));
        }
        if let Some(first) = ids.get(claim.id.get_ref().as_str()) {
            let first_line = source[..first.start].matches('\n').count() + 1;
            out.push(
                Diagnostic::at(format!("claim id `{}` is used twice", claim.id.get_ref()), file, source, claim.id.span(), "used again here")
                    .with_note(format!("first used at {file}:{first_line}")),
            );
        } else {
            ids.insert(claim.id.get_ref(), claim.id.span());
        }
        for key in &claim.sources {
            if !keys.contains_key(key.get_ref().as_str()) {
                out.push(Diagnostic::at(
                    format!("claim `{}` cites source `{}`, which no [[source]] defines", claim.id.get_ref(), key.get_ref()),
                    file,
                    source,
                    key.span(),
                    "undefined source",
                ));
            }
        }
        if let Some(quote) = claim.quote()
            && quote.get_ref().trim().is_empty()
        {
            out.push(Diagnostic::at(format!("claim `{}` has an empty quote", claim.id.get_ref()), file, source, quote.span(), "empty"));
        }
        if let Some(cell) = claim.cell()
            && (cell.get_ref().row.trim().is_empty() || cell.get_ref().column.trim().is_empty())
        {
            out.push(Diagnostic::at(
                format!("claim `{}` names a cell without a row or a column", claim.id.get_ref()),
                file,
                source,
                cell.span(),
                "row and column are the texts of the row's first cell and of the column's header",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[manuscript]
path = "article/a.md"
sha256 = "0000000000000000000000000000000000000000000000000000000000000000"

[[source]]
key = "guide"
title = "Guide"
url = "https://example.org/guide"

[[claim]]
id = "C1"
quote = "Replay took 14.96 µs"
verdict = "retain"
finding = "Matches the run."
sources = ["guide"]

  [[claim.check]]
  kind = "arith"
  number = "14.96 µs"
  expr = "14.96"
"#;

    #[test]
    fn reads_a_good_registry() {
        let (reg, diags) = parse("claims/a.toml", GOOD);
        assert!(diags.is_empty(), "{diags:?}");
        let reg = reg.unwrap();
        assert_eq!(reg.claims.len(), 1);
        assert_eq!(reg.claims[0].checks.len(), 1);
        assert_eq!(reg.claims[0].checks[0].kind.name().as_str(), "arith");
    }

    #[test]
    fn malformed_toml_is_located() {
        let (reg, diags) = parse("claims/a.toml", "[manuscript\npath = 1\n");
        assert!(reg.is_none());
        assert_eq!(diags[0].position().unwrap(), "claims/a.toml:1:12");
    }

    #[test]
    fn unknown_key_is_located() {
        let src = GOOD.replace("finding = \"Matches the run.\"", "finding = \"x\"\nfindings = \"y\"");
        let (_, diags) = parse("claims/a.toml", &src);
        assert!(diags[0].message.contains("findings"), "{:?}", diags[0]);
        assert!(diags[0].position().is_some());
    }

    #[test]
    fn unknown_check_kind_is_located() {
        let src = GOOD.replace("kind = \"arith\"", "kind = \"vibes\"");
        let (reg, diags) = parse("claims/a.toml", &src);
        assert!(diags[0].message.contains("unknown check kind `vibes`"), "{:?}", diags[0]);
        let line = src.lines().position(|l| l.contains("vibes")).unwrap() + 1;
        assert_eq!(diags[0].location.as_ref().unwrap().line, line);
        // The claim survives without the bad check, so other problems still show.
        assert_eq!(reg.unwrap().claims[0].checks.len(), 0);
    }

    #[test]
    fn unknown_key_in_a_check_is_located() {
        let src = GOOD.replace("expr = \"14.96\"", "expr = \"14.96\"\nexpresion = \"1\"");
        let (_, diags) = parse("claims/a.toml", &src);
        assert!(diags[0].message.contains("expresion"), "{:?}", diags[0]);
        let line = src.lines().position(|l| l.contains("expresion")).unwrap() + 1;
        assert_eq!(diags[0].location.as_ref().unwrap().line, line);
    }

    #[test]
    fn duplicate_ids_and_undefined_sources_are_reported_together() {
        let dup = GOOD.to_string() + "\n[[claim]]\nid = \"C1\"\nquote = \"x\"\nverdict = \"qualify\"\nfinding = \"f\"\nsources = [\"nope\"]\n";
        let (_, diags) = parse("claims/a.toml", &dup);
        let messages: Vec<_> = diags.iter().map(|d| d.message.as_str()).collect();
        assert!(messages.iter().any(|m| m.contains("claim id `C1` is used twice")), "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("source `nope`")), "{messages:?}");
    }

    #[test]
    fn claim_ids_follow_the_documented_rule() {
        for bad in ["", " ", "C 1", "-C1", "Ç1", &"C".repeat(65)] {
            let src = GOOD.replace("id = \"C1\"", &format!("id = \"{bad}\""));
            let (_, diags) = parse("claims/a.toml", &src);
            let d = diags.iter().find(|d| d.message.starts_with("claim id")).unwrap_or_else(|| panic!("{bad:?} accepted: {diags:?}"));
            let line = src.lines().position(|l| l.starts_with("id = ")).unwrap() + 1;
            assert_eq!(d.location.as_ref().unwrap().line, line, "{bad:?}");
        }
        for good in ["C1", "F11", "graphs-3", "a.b_c", "7"] {
            assert_eq!(check_id(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn bad_verdict_is_refused() {
        let src = GOOD.replace("verdict = \"retain\"", "verdict = \"maybe\"");
        let (reg, diags) = parse("claims/a.toml", &src);
        assert!(reg.is_none());
        assert!(diags[0].message.contains("maybe"), "{:?}", diags[0]);
    }

    const CELL: &str = "\n[[claim]]\nid = \"T1\"\ncell = { row = \"anyscale\", column = \"Median\", section = \"70B Models\" }\nverdict = \"retain\"\nfinding = \"f\"\n";

    #[test]
    fn a_claim_may_name_a_table_cell() {
        let (reg, diags) = parse("claims/a.toml", &(GOOD.to_string() + CELL));
        assert!(diags.is_empty(), "{diags:?}");
        let reg = reg.unwrap();
        let cell = reg.claims[1].cell().unwrap().get_ref();
        assert_eq!((cell.row.as_str(), cell.column.as_str(), cell.section.as_deref()), ("anyscale", "Median", Some("70B Models")));
        assert!(reg.claims[1].quote().is_none());
    }

    #[test]
    fn a_claim_with_both_quote_and_cell_is_located() {
        let src = GOOD.to_string() + &CELL.replace("cell = {", "quote = \"x\"\ncell = {");
        let (_, diags) = parse("claims/a.toml", &src);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(diags[0].message.contains("claim `T1` gives both `quote` and `cell`"), "{}", diags[0].message);
        let line = src.lines().position(|l| l.starts_with("cell = ")).unwrap() + 1;
        assert_eq!(diags[0].location.as_ref().unwrap().line, line);
    }

    #[test]
    fn a_claim_with_neither_quote_nor_cell_is_located() {
        let src = GOOD.to_string() + &CELL.replace("cell = { row = \"anyscale\", column = \"Median\", section = \"70B Models\" }\n", "");
        let (reg, diags) = parse("claims/a.toml", &src);
        assert!(diags[0].message.contains("claim `T1` gives neither `quote` nor `cell`"), "{}", diags[0].message);
        assert_eq!(reg.unwrap().claims.len(), 1);
    }

    #[test]
    fn an_unknown_key_in_a_cell_is_refused() {
        let (_, diags) = parse("claims/a.toml", &(GOOD.to_string() + &CELL.replace("section =", "heading =")));
        assert!(diags[0].message.contains("heading"), "{:?}", diags[0]);
    }

    #[test]
    fn field_tables_declare_units() {
        let src = GOOD.to_string() + "\n[[field]]\nname = \"ttft_s\"\nunit = \"s\"\n\n[[field]]\nname = \"tokens_per_s\"\nunit = \"tokens/s\"\n";
        let (reg, diags) = parse("claims/a.toml", &src);
        assert!(diags.is_empty(), "{diags:?}");
        let units = reg.unwrap().field_units;
        assert_eq!(units.get("ttft_s"), Some(&Unit::S));
        assert_eq!(units.get("tokens_per_s"), Some(&Unit::Other("tokens/s".into())));
    }

    #[test]
    fn a_field_declared_twice_or_without_a_unit_is_located() {
        let src = GOOD.to_string() + "\n[[field]]\nname = \"a_s\"\nunit = \"s\"\n\n[[field]]\nname = \"a_s\"\nunit = \"ms\"\n\n[[field]]\nname = \"b\"\nunit = \"\"\n";
        let (_, diags) = parse("claims/a.toml", &src);
        let messages: Vec<_> = diags.iter().map(|d| d.message.as_str()).collect();
        assert!(messages.iter().any(|m| m.contains("field `a_s` has its unit declared twice")), "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("a unit is not empty")), "{messages:?}");
        assert!(diags.iter().all(|d| d.location.is_some()));
    }
}
