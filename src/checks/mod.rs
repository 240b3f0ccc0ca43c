//! Executable checks: a closed set of kinds, one file each. This module owns parsing a check
//! table into its kind, the context every kind reads through, and the comparison of what a
//! check observed with the number the sentence quotes. A kind never compares with the quoted
//! number itself: it reports what it observed, and `run` judges.
//!
//! **Architecture Invariant:** a check reads files under the repository root and nothing
//! else; it never runs a program, and no registry value becomes a command.

pub mod arith;
pub mod cited;
pub mod compare;
pub mod contains;
pub mod figure;
pub mod json;
pub mod manifest;
pub mod stat;
pub mod trace;
pub mod validation;
pub mod words;

#[cfg(test)]
mod testing;

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::rc::Rc;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue, Deserializer};

use crate::article::Article;
use crate::diagnostic::Diagnostic;
use crate::jsonl::{CacheError, Jsonl, JsonlCache};
use crate::numbers::{Part, Quoted, Unit};
use crate::paths::Root;

/// One check of a claim.
#[derive(Debug, Clone)]
pub struct Check {
    pub kind: Kind,
    pub common: Common,
    /// Span of the check's table in the registry.
    pub span: Range<usize>,
}

/// The closed set of check kinds. Adding one forces every `match` over it to handle it.
#[derive(Debug, Clone)]
pub enum Kind {
    Stat(stat::Spec),
    Arith(arith::Spec),
    Manifest(manifest::Spec),
    Contains(contains::Spec),
    Json(json::Spec),
    Trace(trace::Spec),
    Validation(validation::Spec),
    Words(words::Spec),
    Figure(figure::Spec),
    Cited(cited::Spec),
    Compare(compare::Spec),
}

/// Keys every kind accepts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Common {
    /// Which number of the sentence this check verifies, as the sentence shows it.
    #[serde(default)]
    pub number: Option<Spanned<String>>,
    /// `mismatch` records that the sentence is wrong: the check passes when the quoted number
    /// does not match, and reports the right value. For claims whose verdict is `correct`.
    #[serde(default)]
    pub expect: Expect,
    /// An absolute tolerance, in the quoted unit, replacing the half-unit rule.
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// Which end of a quoted range the check verifies.
    #[serde(default)]
    pub part: Option<Part>,
    /// Why the check is there, for readers of the registry.
    #[serde(default)]
    pub note: Option<String>,
    /// The equivalence margin δ that `recheck` allows between a fresh run and the accepted
    /// one, as a fraction (0.1 is ±10 %); only for latency checks (`stat`, `arith`).
    #[serde(default)]
    pub margin: Option<f64>,
}

const COMMON_KEYS: [&str; 6] = ["number", "expect", "tolerance", "part", "note", "margin"];

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expect {
    #[default]
    Match,
    Mismatch,
}

/// What a kind saw, before it is judged against the sentence.
#[derive(Debug, Clone, Default)]
pub struct Observation {
    /// The value a quoted number is compared with, where the kind yields one.
    pub value: Option<f64>,
    /// The unit of `value`, where the kind knows it (a field named `host_us` is in µs).
    pub unit: Option<Unit>,
    /// Conditions the kind checks for itself that do not hold (a bad hash, a task run twice).
    pub problems: Vec<String>,
    /// A short account of what was seen, for the report.
    pub detail: String,
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Pass { detail: String },
    Fail { expected: Option<String>, observed: Option<String>, detail: String },
    Skipped { reason: String },
    Error(Diagnostic),
}

impl Outcome {
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Pass { .. } => "pass",
            Outcome::Fail { .. } => "fail",
            Outcome::Skipped { .. } => "skipped",
            Outcome::Error(_) => "error",
        }
    }
}

/// Why a check table could not be read.
pub enum ParseError {
    Toml(toml::de::Error),
    At { message: String, span: Range<usize>, label: String },
}

/// Reads one `[[claim.check]]` table into its kind.
pub fn parse(value: &Spanned<DeValue<'_>>) -> Result<Check, ParseError> {
    let span = value.span();
    let Some(table) = value.get_ref().as_table() else {
        return Err(ParseError::At { message: "a check must be a table".into(), span, label: "not a table".into() });
    };
    let mut table = table.clone();
    let Some(kind) = table.remove("kind") else {
        return Err(ParseError::At { message: "check has no `kind`".into(), span, label: "this check".into() });
    };
    let kind_name = kind.get_ref().as_str().unwrap_or_default().to_string();
    let mut common_table = DeTable::new();
    for key in COMMON_KEYS {
        if let Some((k, v)) = table.remove_entry(key) {
            common_table.insert(k, v);
        }
    }
    let tolerance_span = common_table.get("tolerance").map_or(span.clone(), |v| v.span());
    let margin_span = common_table.get("margin").map_or(span.clone(), |v| v.span());
    let common: Common = from_table(common_table, span.clone()).map_err(ParseError::Toml)?;
    // An infinite tolerance passes any number, and a negative or NaN one none: both are
    // mistakes, refused where they are written.
    if let Some(t) = common.tolerance
        && !(t.is_finite() && t >= 0.0)
    {
        return Err(ParseError::At {
            message: format!("tolerance {t} is not a finite number at least 0"),
            span: tolerance_span,
            label: "tolerance".into(),
        });
    }
    let kind = match kind_name.as_str() {
        "stat" => Kind::Stat(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "arith" => Kind::Arith(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "manifest" => Kind::Manifest(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "contains" => Kind::Contains(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "json" => Kind::Json(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "trace" => Kind::Trace(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "validation" => Kind::Validation(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "words" => Kind::Words(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "figure" => Kind::Figure(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "cited" => Kind::Cited(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        "compare" => Kind::Compare(from_table(table, span.clone()).map_err(ParseError::Toml)?),
        other => {
            return Err(ParseError::At {
                message: format!("unknown check kind `{other}`"),
                span: kind.span(),
                label: format!("expected one of: {}", Kind::NAMES.join(", ")),
            });
        }
    };
    if let Some(margin) = common.margin {
        let label = "margin".to_string();
        if !matches!(kind, Kind::Stat(_) | Kind::Arith(_)) {
            return Err(ParseError::At { message: format!("`margin` applies to latency checks (stat, arith), not to a {} check", kind.name()), span, label });
        }
        if !(margin > 0.0 && margin < 1.0) {
            return Err(ParseError::At { message: format!("margin {margin} is not a fraction between 0 and 1 (0.1 allows ±10 %)"), span: margin_span, label });
        }
    }
    let check = Check { kind, common, span };
    check.kind.validate().map_err(|(message, span)| ParseError::At { message, span, label: "here".into() })?;
    Ok(check)
}

fn from_table<T: DeserializeOwned>(table: DeTable<'_>, span: Range<usize>) -> Result<T, toml::de::Error> {
    let mut owned = table;
    owned.make_owned();
    T::deserialize(Deserializer::from(Spanned::new(span, owned)))
}

impl Kind {
    pub const NAMES: [&'static str; 11] = ["stat", "arith", "manifest", "contains", "json", "trace", "validation", "words", "figure", "cited", "compare"];

    pub fn name(&self) -> &'static str {
        match self {
            Kind::Stat(_) => "stat",
            Kind::Arith(_) => "arith",
            Kind::Manifest(_) => "manifest",
            Kind::Contains(_) => "contains",
            Kind::Json(_) => "json",
            Kind::Trace(_) => "trace",
            Kind::Validation(_) => "validation",
            Kind::Words(_) => "words",
            Kind::Figure(_) => "figure",
            Kind::Cited(_) => "cited",
            Kind::Compare(_) => "compare",
        }
    }

    /// Checks that need no file: a statistic name, an expression's syntax, a pattern.
    fn validate(&self) -> Result<(), (String, Range<usize>)> {
        match self {
            Kind::Stat(s) => s.validate(),
            Kind::Arith(s) => s.validate(),
            Kind::Manifest(_) => Ok(()),
            Kind::Contains(s) => s.validate(),
            Kind::Json(s) => s.validate(),
            Kind::Trace(s) => s.validate(),
            Kind::Validation(_) => Ok(()),
            Kind::Words(_) => Ok(()),
            Kind::Figure(_) => Ok(()),
            Kind::Cited(_) => Ok(()),
            Kind::Compare(s) => s.validate(),
        }
    }

    fn observe(&self, ctx: &Context<'_>, quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        match self {
            Kind::Stat(s) => s.observe(ctx),
            Kind::Arith(s) => s.observe(ctx),
            Kind::Manifest(s) => s.observe(ctx),
            Kind::Contains(s) => s.observe(ctx),
            Kind::Json(s) => s.observe(ctx),
            Kind::Trace(s) => s.observe(ctx),
            Kind::Validation(s) => s.observe(ctx),
            Kind::Words(s) => s.observe(ctx),
            Kind::Figure(s) => s.observe(ctx),
            Kind::Cited(s) => s.observe(ctx, quoted),
            Kind::Compare(s) => s.observe(ctx),
        }
    }

    /// The root-relative files this check reads, for the review and for `recheck`.
    pub fn files(&self) -> Vec<&str> {
        match self {
            Kind::Stat(s) => s.files(),
            Kind::Arith(s) => s.vars.values().flat_map(|v| v.files()).collect(),
            Kind::Manifest(s) => vec![s.manifest.get_ref().as_str()],
            Kind::Contains(s) => vec![s.file.get_ref().as_str()],
            Kind::Json(s) => vec![s.file.get_ref().as_str()],
            Kind::Trace(s) => vec![s.file.get_ref().as_str()],
            Kind::Validation(s) => vec![s.file.get_ref().as_str()],
            Kind::Words(_) => vec![],
            Kind::Figure(s) => vec![s.provenance.get_ref().as_str()],
            Kind::Cited(_) => vec![],
            Kind::Compare(s) => vec![s.samples.get_ref().as_str()],
        }
    }
}

/// What every check reads through: the root, the article, the registry (for locating
/// diagnostics) and a cache of parsed evidence files shared by all checks of one audit.
pub struct Context<'a> {
    pub root: &'a Root,
    pub article: &'a Article,
    /// The registry's sources, for `cited` checks.
    pub sources: &'a [crate::registry::Source],
    pub registry_file: &'a str,
    pub registry_source: &'a str,
    jsonl: JsonlCache<'a>,
    text: RefCell<HashMap<PathBuf, Rc<String>>>,
    failed: RefCell<HashMap<PathBuf, Diagnostic>>,
}

impl<'a> Context<'a> {
    pub fn new(root: &'a Root, article: &'a Article, sources: &'a [crate::registry::Source], registry_file: &'a str, registry_source: &'a str) -> Self {
        Context { root, article, sources, registry_file, registry_source, jsonl: JsonlCache::new(root), text: RefCell::default(), failed: RefCell::default() }
    }

    /// A diagnostic pointing into the registry.
    pub fn error_at(&self, message: impl Into<String>, span: Range<usize>, label: impl Into<String>) -> Diagnostic {
        Diagnostic::at(message, self.registry_file, self.registry_source, span, label)
    }

    /// Resolves a path the registry names, refusing anything outside the root.
    pub fn resolve(&self, path: &Spanned<String>) -> Result<PathBuf, Diagnostic> {
        self.root.resolve(path.get_ref()).map_err(|e| self.error_at(e.to_string(), path.span(), "this path"))
    }

    /// A text file the registry names, read once per audit.
    pub fn read_text(&self, path: &Spanned<String>) -> Result<Rc<String>, Diagnostic> {
        let full = self.resolve(path)?;
        if let Some(hit) = self.text.borrow().get(&full) {
            return Ok(hit.clone());
        }
        if let Some(d) = self.failed.borrow().get(&full) {
            return Err(d.clone());
        }
        let bytes = std::fs::read(&full).map_err(|e| self.error_at(format!("reading {}: {e}", path.get_ref()), path.span(), "this file"))?;
        // Undecodable text is located in the file itself, once, whichever checks read it.
        let text = String::from_utf8(bytes).map_err(|e| {
            let d = Diagnostic::not_utf8(path.get_ref(), e.as_bytes(), e.utf8_error().valid_up_to());
            self.failed.borrow_mut().insert(full.clone(), d.clone());
            d
        })?;
        let text = Rc::new(text);
        self.text.borrow_mut().insert(full, text.clone());
        Ok(text)
    }

    /// A JSONL evidence file the registry names, parsed once per audit.
    pub fn jsonl(&self, path: &Spanned<String>) -> Result<Rc<Jsonl>, Diagnostic> {
        self.jsonl.get(path.get_ref()).map_err(|e| match e {
            CacheError::Path(e) => self.error_at(e.to_string(), path.span(), "this path"),
            CacheError::Read(e) => self.error_at(format!("reading {}: {e}", path.get_ref()), path.span(), "this file"),
            CacheError::Parse(d) => d,
        })
    }
}

/// Runs `check` and judges it against `quoted`, the number of the sentence it verifies.
pub fn run(check: &Check, quoted: Option<&Quoted>, ctx: &Context<'_>) -> Outcome {
    let observation = match check.kind.observe(ctx, quoted) {
        Ok(o) => o,
        Err(d) => return Outcome::Error(d),
    };
    judge(check, quoted, observation)
}

/// The comparison of an observation with the sentence, kept apart from I/O so that it can be
/// tested on its own.
pub fn judge(check: &Check, quoted: Option<&Quoted>, observation: Observation) -> Outcome {
    let Observation { value, unit, problems, detail } = observation;
    if !problems.is_empty() {
        return Outcome::Fail { expected: None, observed: None, detail: problems.join("; ") };
    }
    let Some(quoted) = quoted else {
        return Outcome::Pass { detail };
    };
    let Some(value) = value else {
        return Outcome::Fail {
            expected: Some(quoted.shown()),
            observed: None,
            detail: format!("a {} check yields no value to compare with a quoted number", check.kind.name()),
        };
    };
    let value = crate::numbers::convert(value, unit, quoted.unit);
    let matches = quoted.matches(value, check.common.tolerance);
    let shown = quoted.display(value);
    match (check.common.expect, matches) {
        (Expect::Match, true) => Outcome::Pass { detail: format!("{detail}: {shown}") },
        (Expect::Mismatch, false) => Outcome::Pass { detail: format!("{detail}: {shown}; the sentence's {} is wrong, as recorded", quoted.shown()) },
        (Expect::Match, false) => Outcome::Fail { expected: Some(quoted.shown()), observed: Some(shown), detail },
        (Expect::Mismatch, true) => Outcome::Fail {
            expected: Some(format!("not {}", quoted.shown())),
            observed: Some(shown),
            detail: format!("{detail}; the registry records this number as wrong, but it now matches"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbers::Unit;

    fn check(expect: Expect) -> Check {
        Check { kind: Kind::Words(words::Spec::default()), common: Common { expect, ..Common::default() }, span: 0..0 }
    }

    fn us(value: f64, decimals: u32) -> Quoted {
        Quoted { value, decimals, unit: Some(Unit::Us) }
    }

    #[test]
    fn a_match_passes_and_a_mismatch_fails_with_both_values() {
        let obs = |v| Observation { value: Some(v), unit: Some(Unit::Us), ..Observation::default() };
        assert!(matches!(judge(&check(Expect::Match), Some(&us(14.96, 2)), obs(14.958)), Outcome::Pass { .. }));
        match judge(&check(Expect::Match), Some(&us(15.96, 2)), obs(14.958)) {
            Outcome::Fail { expected, observed, .. } => {
                assert_eq!(expected.as_deref(), Some("15.96 µs"));
                assert_eq!(observed.as_deref(), Some("14.96 µs"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn expected_mismatch_inverts_the_judgement() {
        let obs = |v| Observation { value: Some(v), ..Observation::default() };
        assert!(matches!(judge(&check(Expect::Mismatch), Some(&us(38.0, 0)), obs(61.9)), Outcome::Pass { .. }));
        assert!(matches!(judge(&check(Expect::Mismatch), Some(&us(38.0, 0)), obs(38.2)), Outcome::Fail { .. }));
    }

    #[test]
    fn time_units_convert() {
        let obs = Observation { value: Some(1500.0), unit: Some(Unit::Us), ..Observation::default() };
        let ms = Quoted { value: 1.5, decimals: 1, unit: Some(Unit::Ms) };
        assert!(matches!(judge(&check(Expect::Match), Some(&ms), obs), Outcome::Pass { .. }));
    }

    #[test]
    fn a_margin_is_a_fraction_on_a_latency_check() {
        let stat = "kind = \"stat\"\nsamples = \"s.jsonl\"\nselect = {}\nfield = \"t_us\"\nstatistic = \"median\"\n";
        assert_eq!(testing::check_toml(&format!("{stat}margin = 0.2")).common.margin, Some(0.2));
        assert!(testing::parse_error(&format!("{stat}margin = 10")).contains("not a fraction"));
        assert!(testing::parse_error("kind = \"words\"\nmargin = 0.1").contains("applies to latency checks"));
    }

    #[test]
    fn a_tolerance_must_be_finite_and_not_negative() {
        for bad in ["inf", "-inf", "nan", "-0.5"] {
            let err = testing::parse_error(&format!("kind = \"words\"\ntolerance = {bad}"));
            assert!(err.contains("not a finite number at least 0"), "{bad}: {err}");
        }
        assert_eq!(testing::check_toml("kind = \"words\"\ntolerance = 0.0").common.tolerance, Some(0.0));
    }

    #[test]
    fn problems_fail_even_without_a_number() {
        let obs = Observation { problems: vec!["task A:3 ran twice".into()], ..Observation::default() };
        assert!(matches!(judge(&check(Expect::Match), None, obs), Outcome::Fail { .. }));
    }
}
