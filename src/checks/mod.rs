//! Executable checks: a closed set of kinds, one file each. This module owns parsing a check
//! table into its kind, the context every kind reads through, and the comparison of what a
//! check observed with the number the sentence quotes. A kind never compares with the quoted
//! number itself: it reports what it observed, and `run` judges.
//!
//! **Architecture Invariant:** a check reads files under the repository root and nothing
//! else; it never runs a program, and no registry value becomes a command.

pub(crate) mod arith;
pub(crate) mod cited;
pub(crate) mod compare;
pub(crate) mod contains;
pub(crate) mod figure;
pub(crate) mod filter;
pub(crate) mod json;
pub(crate) mod manifest;
pub(crate) mod query;
pub(crate) mod stat;
pub(crate) mod trace;
pub(crate) mod ttest;
pub(crate) mod units;
pub(crate) mod utest;
pub(crate) mod validation;
pub(crate) mod wilcoxon;
pub(crate) mod words;

#[cfg(test)]
mod testing;

use std::ops::Range;
use std::rc::Rc;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue, Deserializer};

use crate::article::Article;
use crate::article::numbers::{Part, Quoted, Unit};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::Jsonl;
use crate::evidence::store::{Ahead, Evidence, ReadError};
use crate::registry::source::Source;
use units::FieldUnits;

/// One check of a claim.
#[derive(Debug, Clone)]
pub(crate) struct Check {
    pub kind: Kind,
    pub common: Common,
    /// Span of the check's table in the registry.
    pub span: Range<usize>,
}

/// The closed set of check kinds, as one table: each row names the kind's variant, its name in a
/// registry, its module, and whether `recheck` judges it again (a latency or an ordering). The
/// enum, the names, parsing and every dispatch below come from this table, so adding a kind is
/// one row, and every `match` over [`Kind`] elsewhere is exhaustive.
macro_rules! kinds {
    ($($variant:ident => $name:literal, $module:ident, $rechecked:literal;)*) => {
        /// One check kind with its spec. Adding one forces every `match` over it to handle it.
        #[derive(Debug, Clone)]
        pub(crate) enum Kind {
            $($variant($module::Spec),)*
        }

        /// A kind without its spec: what renderers and the recheck match on.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(crate) enum KindName {
            $($variant,)*
        }

        impl KindName {
            /// Every kind, in the table's order.
            pub(crate) const ALL: &'static [KindName] = &[$(KindName::$variant,)*];

            /// The kind's name in a registry.
            pub(crate) fn as_str(self) -> &'static str {
                match self {
                    $(KindName::$variant => $name,)*
                }
            }

            /// Whether `recheck` judges checks of this kind again: latencies and orderings.
            pub(crate) fn rechecked(self) -> bool {
                match self {
                    $(KindName::$variant => $rechecked,)*
                }
            }

            /// The kind named `name` in a registry.
            pub(crate) fn parse(name: &str) -> Option<KindName> {
                KindName::ALL.iter().copied().find(|k| k.as_str() == name)
            }
        }

        impl Kind {
            pub(crate) fn name(&self) -> KindName {
                match self {
                    $(Kind::$variant(_) => KindName::$variant,)*
                }
            }

            fn from_table(name: KindName, table: DeTable<'_>, span: Range<usize>) -> Result<Kind, toml::de::Error> {
                match name {
                    $(KindName::$variant => Ok(Kind::$variant(from_table(table, span)?)),)*
                }
            }

            /// Checks that need no file: a statistic name, an expression's syntax, a pattern.
            fn validate(&self) -> Result<(), (String, Range<usize>)> {
                match self {
                    $(Kind::$variant(s) => s.validate(),)*
                }
            }

            fn observe(&self, ctx: &Context<'_>, quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
                match self {
                    $(Kind::$variant(s) => s.observe(ctx, quoted),)*
                }
            }

            /// The root-relative files this check reads, for the review and for `recheck`.
            pub(crate) fn files(&self) -> Vec<&str> {
                match self {
                    $(Kind::$variant(s) => s.files(),)*
                }
            }
        }
    };
}

kinds! {
    Stat => "stat", stat, true;
    Arith => "arith", arith, true;
    Manifest => "manifest", manifest, false;
    Contains => "contains", contains, false;
    Json => "json", json, false;
    Trace => "trace", trace, false;
    Validation => "validation", validation, false;
    Words => "words", words, false;
    Figure => "figure", figure, false;
    Cited => "cited", cited, false;
    Compare => "compare", compare, true;
    // A p-value is the test's statement about two samples, not a quantity a fresh run should
    // reproduce within a margin: the recheck passes it over (see `utest`).
    Utest => "utest", utest, false;
    // So is a significance test's verdict (see `ttest`).
    Ttest => "ttest", ttest, false;
    // And so is a paired test's p-value, adjusted or not (see `wilcoxon`).
    Wilcoxon => "wilcoxon", wilcoxon, false;
}

impl Kind {
    /// Whether the check's whole verdict is its value held against a quoted number: a statistic
    /// with no saved summary to agree with, an expression, a JSON number without `equals`, a
    /// p-value or an effect size. Without `number` such a check compares nothing, so it is
    /// skipped, not passed.
    fn only_yields_a_value(&self) -> bool {
        match self {
            Kind::Stat(s) => s.summary.is_none(),
            Kind::Json(j) => j.equals.is_none(),
            Kind::Arith(_) | Kind::Utest(_) | Kind::Wilcoxon(_) => true,
            _ => false,
        }
    }

    /// Whether the check states a verdict rather than a number (`ttest`'s `significant`): one
    /// without `number` verifies none of its cell's numbers, though the cell holds only one
    /// (pyperf's `2.09 us: 1.02x faster` is significant, and neither number is the test's).
    pub(crate) fn states_a_verdict(&self) -> bool {
        matches!(self, Kind::Ttest(_))
    }

    /// The files this check will parse, and how, for [`Evidence::read_ahead`]: the JSONL files
    /// it reads (as traces for a `trace` check), the CSV and TSV samples of `stat`, `compare`
    /// and `utest` checks (to stream where large), and the JSON documents that `json` and
    /// `arith` checks name.
    pub(crate) fn ahead(&self) -> Vec<(String, Ahead)> {
        let how = if matches!(self, Kind::Trace(_)) { Ahead::Trace } else { Ahead::Jsonl };
        let documents: Vec<&str> = match self {
            Kind::Json(spec) => vec![spec.file.get_ref()],
            Kind::Arith(spec) => spec.json_vars.values().map(|q| q.file.get_ref().as_str()).collect(),
            _ => Vec::new(),
        };
        // A check that recomputes from samples may stream a large CSV or TSV file.
        let samples = matches!(self, Kind::Stat(_) | Kind::Compare(_) | Kind::Utest(_) | Kind::Ttest(_));
        let read = self.files().into_iter().filter_map(|f| {
            if f.ends_with(".jsonl") {
                Some((f.to_string(), how))
            } else if samples && crate::evidence::store::delimiter(f).is_some() {
                Some((f.to_string(), Ahead::Stream))
            } else {
                None
            }
        });
        read.chain(documents.into_iter().map(|f| (f.to_string(), Ahead::Document))).collect()
    }
}

impl std::fmt::Display for KindName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Keys every kind accepts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Common {
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
    #[allow(dead_code)] // Read by people, never by the tool.
    pub note: Option<String>,
    /// The equivalence margin δ that `recheck` allows between a fresh run and the accepted
    /// one, as a fraction (0.1 is ±10 %); only for latency checks (`stat`, `arith`).
    #[serde(default)]
    pub margin: Option<f64>,
    /// The unit the check's value is in (`s`, `ms`, `µs`, `GB/s`, `tokens/s`, …), over the
    /// registry's `[[field]]` table and the field's name.
    #[serde(default)]
    pub unit: Option<Spanned<String>>,
}

impl Common {
    /// The unit the check declares, where it declares one; `parse` has refused an empty one.
    pub(crate) fn declared_unit(&self) -> Option<Unit> {
        self.unit.as_ref().and_then(|u| Unit::declared(u.get_ref()).ok())
    }
}

const COMMON_KEYS: [&str; 7] = ["number", "expect", "tolerance", "part", "note", "margin", "unit"];

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Expect {
    #[default]
    Match,
    Mismatch,
}

/// What a kind saw, before it is judged against the sentence.
#[derive(Debug, Clone, Default)]
pub(crate) struct Observation {
    /// The value a quoted number is compared with, where the kind yields one.
    pub value: Option<f64>,
    /// The unit of `value`, where the kind knows it (a field named `host_us` is in µs).
    pub unit: Option<Unit>,
    /// Conditions the kind checks for itself that do not hold (a bad hash, a task run twice).
    pub problems: Vec<String>,
    /// A short account of what was seen, for the report.
    pub detail: String,
    /// The values, in `value`'s unit, that are as much the quoted number's source as `value`:
    /// a quote of any of them matches. See [`BandWhy`].
    pub band: Option<Band>,
}

/// A range of values any of which a quote may state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Band {
    pub low: f64,
    pub high: f64,
    pub why: BandWhy,
}

/// Why a check's value is a range rather than one value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum BandWhy {
    /// `value` is one draw of a random computation the harness also drew once (criterion's
    /// bootstrap bounds): the harness's own draw lies in the band.
    HarnessDraw,
    /// `value` is computed from numbers an article printed rounded (`arith`'s `~98.61`): every
    /// value that rounds to them gives one in the band.
    RoundedOperands,
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    Pass {
        detail: String,
    },
    /// The registry records the sentence as wrong (`expect = "mismatch"`), and it is: what the
    /// sentence says and what the evidence says. The check holds.
    Wrong {
        says: String,
        evidence: String,
        detail: String,
    },
    Fail {
        expected: Option<String>,
        observed: Option<String>,
        detail: String,
    },
    /// A check whose value is held against no number (no `number` in a quote claim): what it
    /// computed, and that nothing compared it.
    Skipped {
        reason: String,
    },
    Error(Diagnostic),
}

impl Outcome {
    pub(crate) fn label(&self) -> &'static str {
        match self {
            Outcome::Pass { .. } | Outcome::Wrong { .. } => "pass",
            Outcome::Fail { .. } => "fail",
            Outcome::Skipped { .. } => "skipped",
            Outcome::Error(_) => "error",
        }
    }
}

/// Why a check table could not be read.
pub(crate) enum ParseError {
    Toml(toml::de::Error),
    At { message: String, span: Range<usize>, label: String },
}

/// Reads one `[[claim.check]]` table into its kind.
pub(crate) fn parse(value: &Spanned<DeValue<'_>>) -> Result<Check, ParseError> {
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
    if let Some(unit) = &common.unit
        && let Err(message) = Unit::declared(unit.get_ref())
    {
        return Err(ParseError::At { message, span: unit.span(), label: "unit".into() });
    }
    // An infinite tolerance passes any number, and a negative or NaN one none: both are
    // mistakes, refused where they are written.
    if let Some(t) = common.tolerance
        && !(t.is_finite() && t >= 0.0)
    {
        return Err(ParseError::At { message: format!("tolerance {t} is not a finite number at least 0"), span: tolerance_span, label: "tolerance".into() });
    }
    let Some(name) = KindName::parse(&kind_name) else {
        let names: Vec<&str> = KindName::ALL.iter().map(|k| k.as_str()).collect();
        return Err(ParseError::At { message: format!("unknown check kind `{kind_name}`"), span: kind.span(), label: format!("expected one of: {}", names.join(", ")) });
    };
    let kind = Kind::from_table(name, table, span.clone()).map_err(ParseError::Toml)?;
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

/// What every check reads through: the workspace's evidence (one reader for every registry of
/// the run), the article, and the registry (for locating diagnostics).
pub(crate) struct Context<'a> {
    pub evidence: &'a Evidence,
    pub article: &'a Article,
    /// The registry's sources, for `cited` checks.
    pub sources: &'a [Source],
    pub registry_file: &'a str,
    pub registry_source: &'a str,
    /// The units the registry's `[[field]]` tables declare.
    pub field_units: &'a FieldUnits,
}

/// No `[[field]]` tables: what a context has until it is given the registry's.
static NO_FIELD_UNITS: FieldUnits = FieldUnits::new();

impl<'a> Context<'a> {
    pub(crate) fn new(evidence: &'a Evidence, article: &'a Article, sources: &'a [Source], registry_file: &'a str, registry_source: &'a str) -> Self {
        Context { evidence, article, sources, registry_file, registry_source, field_units: &NO_FIELD_UNITS }
    }

    /// The context with the registry's `[[field]]` units.
    pub(crate) fn with_field_units(self, field_units: &'a FieldUnits) -> Self {
        Context { field_units, ..self }
    }

    /// A diagnostic pointing into the registry.
    pub(crate) fn error_at(&self, message: impl Into<String>, span: Range<usize>, label: impl Into<String>) -> Diagnostic {
        Diagnostic::at(message, self.registry_file, self.registry_source, span, label)
    }

    /// The error of a file the registry names, located at the path in the registry unless the
    /// problem lies inside the file.
    pub(crate) fn locate(&self, path: &Spanned<String>, e: ReadError) -> Diagnostic {
        match e {
            ReadError::Path(e) => self.error_at(e.to_string(), path.span(), "this path"),
            ReadError::Io(e) => self.error_at(format!("reading {}: {e}", path.get_ref()), path.span(), "this file"),
            ReadError::Parse(d) => d,
        }
    }

    /// A text file the registry names.
    pub(crate) fn read_text(&self, path: &Spanned<String>) -> Result<Rc<String>, Diagnostic> {
        self.evidence.text(path.get_ref()).map_err(|e| self.locate(path, e))
    }

    /// A JSONL evidence file the registry names.
    pub(crate) fn jsonl(&self, path: &Spanned<String>) -> Result<Rc<Jsonl>, Diagnostic> {
        self.evidence.jsonl(path.get_ref()).map_err(|e| self.locate(path, e))
    }
}

/// Runs `check` and judges it against `quoted`, the number of the sentence it verifies.
pub(crate) fn run(check: &Check, quoted: Option<&Quoted>, ctx: &Context<'_>) -> Outcome {
    let mut observation = match check.kind.observe(ctx, quoted) {
        Ok(o) => o,
        Err(d) => return Outcome::Error(d),
    };
    observation.unit = unit_of_value(check, observation.unit);
    judge(check, quoted, observation)
}

/// The unit of a check's value: the one it declares, whatever its field is named, else the one
/// its kind observed.
pub(crate) fn unit_of_value(check: &Check, observed: Option<Unit>) -> Option<Unit> {
    check.common.declared_unit().or(observed)
}

/// The comparison of an observation with the sentence, kept apart from I/O so that it can be
/// tested on its own.
pub(crate) fn judge(check: &Check, quoted: Option<&Quoted>, observation: Observation) -> Outcome {
    let Observation { value, unit, problems, detail, band } = observation;
    if !problems.is_empty() {
        return Outcome::Fail { expected: None, observed: None, detail: problems.join("; ") };
    }
    let Some(quoted) = quoted else {
        // A value no number is held against verifies nothing: reporting it as passed would be
        // a check that cannot fail.
        if check.kind.only_yields_a_value() {
            let shown = value.map_or("its value".to_string(), |v| Quoted { value: v, unit: unit.clone(), ..Quoted::default() }.display(v));
            return Outcome::Skipped { reason: format!("{shown} compared with nothing (no `number`): {detail}") };
        }
        return Outcome::Pass { detail };
    };
    let Some(value) = value else {
        return Outcome::Fail { expected: Some(quoted.shown()), observed: None, detail: format!("a {} check yields no value to compare with a quoted number", check.kind.name()) };
    };
    let value = match crate::article::numbers::convert(value, unit.as_ref(), quoted.unit.as_ref()) {
        Ok(v) => v,
        Err(why) => {
            let observed = format!("{value}{}", unit.as_ref().map_or(String::new(), |u| format!(" {}", u.symbol())));
            return Outcome::Fail { expected: Some(quoted.shown()), observed: Some(observed), detail: format!("{detail}; {why}") };
        }
    };
    // Within a band, any value is as much the quote's source as the one computed here.
    let why = band.map(|b| b.why);
    let band = band.and_then(|Band { low, high, .. }| {
        let low = crate::article::numbers::convert(low, unit.as_ref(), quoted.unit.as_ref()).ok()?;
        let high = crate::article::numbers::convert(high, unit.as_ref(), quoted.unit.as_ref()).ok()?;
        // Ordered where both are numbers; an end that is none stays, and matches nothing.
        Some(if high < low { (high, low) } else { (low, high) })
    });
    let matches = match band {
        Some((low, high)) => quoted.matches_within(low, high, check.common.tolerance),
        None => quoted.matches(value, check.common.tolerance),
    };
    let shown = match (band, why) {
        (Some((low, high)), Some(BandWhy::HarnessDraw)) => {
            format!("{} (the harness's own draw lies within {} to {})", quoted.display(value), quoted.display(low), quoted.display(high))
        }
        (Some((low, high)), _) => format!("{} (its rounded numbers give {} to {})", quoted.display(value), quoted.display(low), quoted.display(high)),
        (None, _) => quoted.display(value),
    };
    match (check.common.expect, matches) {
        (Expect::Match, true) => Outcome::Pass { detail: format!("{detail}: {shown}") },
        (Expect::Mismatch, false) => Outcome::Wrong { says: quoted.shown(), evidence: shown, detail },
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
    use crate::article::numbers::Unit;

    fn check(expect: Expect) -> Check {
        Check { kind: Kind::Words(words::Spec::default()), common: Common { expect, ..Common::default() }, span: 0..0 }
    }

    fn us(value: f64, decimals: u32) -> Quoted {
        Quoted { value, decimals, unit: Some(Unit::Us), ..Quoted::default() }
    }

    /// An expression with no number to hold it against verifies nothing, and says so; a kind
    /// whose verdict is its own (here `words`) still passes without one.
    #[test]
    fn a_value_held_against_no_number_is_skipped_not_passed() {
        let arith = Check { kind: Kind::Arith(arith::Spec { expr: toml::Spanned::new(0..5, "1 + 1".into()), vars: Default::default(), json_vars: Default::default() }), common: Common::default(), span: 0..0 };
        let obs = Observation { value: Some(2.0), detail: "1 + 1".into(), ..Observation::default() };
        match judge(&arith, None, obs.clone()) {
            Outcome::Skipped { reason } => assert_eq!(reason, "2 compared with nothing (no `number`): 1 + 1"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(judge(&arith, Some(&Quoted { value: 2.0, ..Quoted::default() }), obs.clone()), Outcome::Pass { .. }));
        assert!(matches!(judge(&check(Expect::Match), None, obs), Outcome::Pass { .. }));
    }

    /// A value drawn at random, which the harness drew once too, matches a quote anywhere in its
    /// band; out of the band it fails and shows the band; a band that is no range of numbers
    /// matches nothing.
    #[test]
    fn a_band_matches_the_quotes_it_spans_and_no_other() {
        let obs = |v, band: Option<(f64, f64)>| Observation {
            value: Some(v),
            unit: Some(Unit::Us),
            band: band.map(|(low, high)| Band { low, high, why: BandWhy::HarnessDraw }),
            ..Observation::default()
        };
        // 4.7776 drawn here, 4.7781 quoted: inside the band 4.7768 to 4.7783.
        assert!(matches!(judge(&check(Expect::Match), Some(&us(4.7781, 4)), obs(4.7776, Some((4.7768, 4.7783)))), Outcome::Pass { .. }));
        assert!(!matches!(judge(&check(Expect::Match), Some(&us(4.7781, 4)), obs(4.7776, None)), Outcome::Pass { .. }));
        match judge(&check(Expect::Match), Some(&us(4.7795, 4)), obs(4.7776, Some((4.7768, 4.7783)))) {
            Outcome::Fail { observed, .. } => assert_eq!(observed.as_deref(), Some("4.7776 µs (the harness's own draw lies within 4.7768 µs to 4.7783 µs)")),
            other => panic!("{other:?}"),
        }
        assert!(!matches!(judge(&check(Expect::Match), Some(&us(4.7781, 4)), obs(4.7776, Some((f64::NAN, 4.7783)))), Outcome::Pass { .. }));
        // A band from rounded numbers says so.
        let rounded = Observation { band: Some(Band { low: 4.7768, high: 4.7783, why: BandWhy::RoundedOperands }), ..obs(4.7776, None) };
        match judge(&check(Expect::Match), Some(&us(4.7795, 4)), rounded) {
            Outcome::Fail { observed, .. } => assert_eq!(observed.as_deref(), Some("4.7776 µs (its rounded numbers give 4.7768 µs to 4.7783 µs)")),
            other => panic!("{other:?}"),
        }
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
        match judge(&check(Expect::Mismatch), Some(&us(38.0, 0)), obs(61.9)) {
            Outcome::Wrong { says, evidence, .. } => assert_eq!((says.as_str(), evidence.as_str()), ("38 µs", "61.90 µs")),
            other => panic!("{other:?}"),
        }
        assert!(matches!(judge(&check(Expect::Mismatch), Some(&us(38.0, 0)), obs(38.2)), Outcome::Fail { .. }));
    }

    #[test]
    fn time_units_convert() {
        let obs = Observation { value: Some(1500.0), unit: Some(Unit::Us), ..Observation::default() };
        let ms = Quoted { value: 1.5, decimals: 1, unit: Some(Unit::Ms), ..Quoted::default() };
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

    fn seconds_check(unit: Option<&str>) -> Check {
        let mut c = check(Expect::Match);
        c.common.unit = unit.map(|u| Spanned::new(0..0, u.to_string()));
        c
    }

    #[test]
    fn a_field_in_seconds_matches_a_quote_in_milliseconds() {
        // The case: `ttft_s` = 0.5499 s against a quoted 550 ms.
        let obs = Observation { value: Some(0.5499), unit: units::from_suffix("ttft_s"), ..Observation::default() };
        let ms = Quoted { value: 550.0, decimals: 0, unit: Some(Unit::Ms), ..Quoted::default() };
        assert!(matches!(judge(&check(Expect::Match), Some(&ms), obs), Outcome::Pass { .. }));
    }

    /// The observation as `run` hands it to `judge`: in the unit the check declares, if any.
    fn declared(check: &Check, obs: Observation) -> Observation {
        Observation { unit: unit_of_value(check, obs.unit.clone()), ..obs }
    }

    #[test]
    fn a_declared_unit_overrides_the_field_name() {
        let obs = || Observation { value: Some(0.5499), unit: Some(Unit::Ms), ..Observation::default() };
        let ms = Quoted { value: 550.0, decimals: 0, unit: Some(Unit::Ms), ..Quoted::default() };
        let (plain, in_seconds) = (seconds_check(None), seconds_check(Some("s")));
        assert!(matches!(judge(&plain, Some(&ms), declared(&plain, obs())), Outcome::Fail { .. }));
        assert!(matches!(judge(&in_seconds, Some(&ms), declared(&in_seconds, obs())), Outcome::Pass { .. }));
    }

    #[test]
    fn a_free_unit_matches_itself_and_never_a_time() {
        let rate = Quoted { value: 185.0, decimals: 0, unit: Some(Unit::Other("tokens/s".into())), ..Quoted::default() };
        let obs = || Observation { value: Some(185.2), ..Observation::default() };
        let (rate_check, seconds) = (seconds_check(Some("tokens/s")), seconds_check(Some("s")));
        assert!(matches!(judge(&rate_check, Some(&rate), declared(&rate_check, obs())), Outcome::Pass { .. }));
        match judge(&seconds, Some(&rate), declared(&seconds, obs())) {
            Outcome::Fail { detail, .. } => assert!(detail.contains("does not convert"), "{detail}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_empty_unit_is_refused_where_it_is_written() {
        assert!(testing::parse_error("kind = \"words\"\nunit = \"\"").contains("a unit is not empty"));
        assert_eq!(testing::check_toml("kind = \"words\"\nunit = \"GB/s\"").common.declared_unit(), Some(Unit::GbPerS));
    }
}
