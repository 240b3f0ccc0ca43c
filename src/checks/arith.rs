//! `arith`: arithmetic in the text, recomputed.
//!
//! What it does: evaluates `expr` and compares the value with the quoted number. The
//! expression language is numbers, `+ - * / % ^`, parentheses, unary minus, the functions
//! `min`, `max`, `abs`, `sqrt`, `ln`, `log2`, `log10`, `exp`, and variables bound in `vars` to
//! `stat` queries over raw samples or in `json-vars` to numbers in JSON or TOML evidence.
//! Nothing else: no names are looked up anywhere else, and no code runs.
//!
//! Why: percentages with the wrong denominator and ratios copied from an older run are the
//! commonest stale numbers; an expression written next to the sentence makes the arithmetic
//! visible and re-runnable.
//!
//! ```toml
//! [[claim.check]]
//! kind = "arith"
//! number = "38.1 %"
//! expr = "(2.1 - 1.3) / 2.1 * 100"
//! ```
//! Fails as `expected 38.1 %, observed 61.5 %` when the denominator is wrong.
//!
//! A number the article printed rounded, as a harness prints its table, is written with a
//! tilde: `~98.61` stands for every value that rounds to it, 98.605 to 98.615 (and `~43557`
//! for 43,556.5 to 43,557.5). The expression is then also evaluated over those ranges, and the
//! quote matches where any value of the range it gives rounds to it: a bus bandwidth recomputed
//! from a printed algorithm bandwidth, `~98.61 * 2 * (32 - 1) / 32`, is 191.04 to 191.07, and
//! the table's `191.05` is one of them, where the point value 191.057 would not round to it.
//! Constants (`2`, the 32 ranks) are written without one: they are exact.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::units::FieldUnits;
use super::{Band, BandWhy, Context, Observation, json, stat};
use crate::article::numbers::{Dimension, Quoted, Unit};
use crate::diagnostic::Diagnostic;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub expr: Spanned<String>,
    #[serde(default)]
    pub vars: BTreeMap<String, stat::Spec>,
    /// Variables read from JSON or TOML evidence (`file`, `path`).
    #[serde(default)]
    pub json_vars: BTreeMap<String, json::Query>,
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        self.vars.values().flat_map(|v| v.files()).collect()
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        let expr = parse(self.expr.get_ref()).map_err(|e| (format!("bad expression: {}", e.message), self.inner_span(&e.at)))?;
        for name in expr.variables() {
            if !self.vars.contains_key(name) && !self.json_vars.contains_key(name) {
                return Err((format!("expression uses `{name}`, which neither `vars` nor `json-vars` defines"), self.expr.span()));
            }
        }
        for var in self.vars.values() {
            var.validate()?;
        }
        for var in self.json_vars.values() {
            var.validate()?;
        }
        Ok(())
    }

    /// The span inside the TOML string, past its opening quote.
    fn inner_span(&self, at: &Range<usize>) -> Range<usize> {
        let base = self.expr.span().start + 1;
        base + at.start..base + at.end.max(at.start + 1)
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let expr = parse(self.expr.get_ref()).map_err(|e| ctx.error_at(format!("bad expression: {}", e.message), self.inner_span(&e.at), "here"))?;
        let mut values = BTreeMap::new();
        let mut units = BTreeMap::new();
        for (name, query) in &self.vars {
            values.insert(name.as_str(), query.compute(ctx)?.0);
            units.insert(name.as_str(), Known::of(query, ctx.field_units));
        }
        for (name, query) in &self.json_vars {
            values.insert(name.as_str(), query.number(ctx)?);
        }
        let common = common_units(&expr, &units);
        if let Some(common) = &common {
            for (name, v) in values.iter_mut() {
                *v *= common.factor(name);
            }
        }
        let unit = common.and_then(|c| c.unit);
        let value = expr.eval(&values).map_err(|e| ctx.error_at(format!("cannot evaluate: {}", e.message), self.inner_span(&e.at), "here"))?;
        let band = expr.band(&values).map_err(|e| ctx.error_at(format!("cannot evaluate over its rounded numbers: {}", e.message), self.inner_span(&e.at), "here"))?;
        let shown = unit.as_ref().map_or(String::new(), |u| format!(" {}", u.symbol()));
        Ok(Observation {
            value: Some(value),
            unit,
            problems: Vec::new(),
            detail: format!("{} = {value}{shown}", self.expr.get_ref()),
            band: band.map(|(low, high)| Band { low, high, why: BandWhy::RoundedOperands }),
        })
    }
}

/// What is known of a variable's unit.
pub(crate) enum Known {
    /// A unit its field's name or the registry's `[[field]]` table gives.
    Unit(Unit),
    /// None: a count is a number.
    Number,
    /// Nothing: a field of no known unit (a derived `1 / time_ns` among them) or a number
    /// read from JSON may be anything.
    Nothing,
}

impl Known {
    /// What a `stat` query's value is: in its field's unit (from `field_units` or the field's
    /// name), a number where it counts samples, else of no known unit.
    pub(crate) fn of(query: &stat::Spec, field_units: &FieldUnits) -> Known {
        // The statistic is parsed once: a count is a number, any other takes its unit.
        match query.measure() {
            Ok(stat::Measure::Statistic(crate::stats::Statistic::Count)) => Known::Number,
            Ok(measure) => query.unit_of(&measure, field_units).map_or(Known::Nothing, Known::Unit),
            Err(_) => Known::Nothing,
        }
    }
}

/// The units an expression's variables are taken in, and its value's.
#[derive(Debug, Clone)]
pub(crate) struct CommonUnits {
    /// What each variable's value is multiplied by to be in its dimension's common unit.
    factors: BTreeMap<String, f64>,
    /// The value's unit: the common unit of a dimension where the expression is a quantity of
    /// it, none where it is a number.
    pub unit: Option<Unit>,
}

impl CommonUnits {
    pub(crate) fn factor(&self, name: &str) -> f64 {
        self.factors.get(name).copied().unwrap_or(1.0)
    }
}

/// How `expr` combines its variables' units (`units`, every variable of `expr` by name). Where
/// every variable is a count or has a unit that converts (a time, a size, a rate) and `expr`
/// combines them as quantities combine, the variables of each dimension are taken in the unit
/// of the first of them, and the value is in that unit where `expr` is a quantity of that
/// dimension (`2 * m`, `a - b` of two times is a time, which the judge converts to the
/// sentence's unit: a mean of pyperf's `time_s` doubled is compared in µs, not as a count of
/// seconds), and in none where it is a ratio (`a / b`) or a number. Otherwise (`m + 0.5`, a
/// percentage, a time squared, a variable of unknown unit or read from JSON) `None`: the values
/// are as read and the value has no unit, which a check's own `unit` key may give it. The audit
/// and the recheck both take an expression's units from here.
pub(crate) fn common_units(expr: &Expr, units: &BTreeMap<&str, Known>) -> Option<CommonUnits> {
    let mut first: Vec<(Dimension, Unit)> = Vec::new();
    let mut dims: BTreeMap<&str, Quantity> = BTreeMap::new();
    let mut factors = BTreeMap::new();
    if expr.variables().iter().any(|name| !units.contains_key(name)) {
        return None;
    }
    for (name, known) in units {
        let unit = match known {
            Known::Unit(unit) => unit,
            Known::Number => {
                dims.insert(name, Quantity::default());
                continue;
            }
            Known::Nothing => return None,
        };
        let (dimension, _) = unit.scale()?;
        let target = match first.iter().find(|(d, _)| *d == dimension) {
            Some((_, u)) => u.clone(),
            None => {
                first.push((dimension, unit.clone()));
                unit.clone()
            }
        };
        dims.insert(name, Quantity(vec![(dimension, 1)]));
        factors.insert(name.to_string(), crate::article::numbers::convert(1.0, Some(unit), Some(&target)).unwrap_or(1.0));
    }
    let unit = match expr.quantity(&dims)? {
        Quantity(q) if q.len() == 1 && q[0].1 == 1 => first.iter().find(|(d, _)| *d == q[0].0).map(|(_, u)| u.clone()),
        _ => None,
    };
    Some(CommonUnits { factors, unit })
}

/// The dimensions of a quantity and their powers, none of them zero: a time is `[(Time, 1)]`,
/// a ratio of two times `[]`.
#[derive(Debug, Clone, Default, PartialEq)]
struct Quantity(Vec<(Dimension, i32)>);

impl Quantity {
    fn times(&self, other: &Quantity, sign: i32) -> Quantity {
        let mut out = self.0.clone();
        for (d, p) in &other.0 {
            match out.iter_mut().find(|(e, _)| e == d) {
                Some(entry) => entry.1 += sign * p,
                None => out.push((*d, sign * p)),
            }
        }
        out.retain(|(_, p)| *p != 0);
        Quantity(out)
    }

    fn same(&self, other: &Quantity) -> bool {
        self.0.len() == other.0.len() && self.0.iter().all(|x| other.0.contains(x))
    }
}

/// Whether `number`, a single value of a sentence, is written literally in `expr`: "Going from
/// 2.1 µs to 1.3 µs is a 38 % reduction" with `(2.1-1.3)/2.1*100` computes the 38 % from the
/// 2.1 and the 1.3, which are then its inputs rather than numbers no check verifies. A literal
/// matches when it reads as the same value at the sentence's precision.
pub(crate) fn is_operand(expr: &str, number: &crate::article::numbers::Number) -> bool {
    if !matches!(number.shape, crate::article::numbers::Shape::Single) {
        return false;
    }
    let literals = expr.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|t| !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()));
    let scale = 10f64.powi(number.decimals as i32);
    literals.filter_map(|t| t.parse::<f64>().ok()).any(|v| (v * scale).round() == (number.value.abs() * scale).round() && (v - number.value.abs()).abs() * scale < 0.5 + 1e-9)
}

/// A syntax or evaluation error, with its span in the expression text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExprError {
    pub message: String,
    pub at: Range<usize>,
}

/// A parsed expression.
///
/// A run of left-associative operators of one precedence (`a + b - c`, `a * b / c`) is one
/// [`Expr::Chain`], not a left-leaning tree, so that the tree is only as deep as the
/// expression's nesting ([`MAX_DEPTH`]) however long it is: evaluating it, or dropping it,
/// then recurses that deep and no deeper.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Number(f64),
    /// A number written `~98.61`: its value, and half its last written place (0.005), so that
    /// it stands for every value that rounds to it.
    Rounded(f64, f64),
    Var(String, Range<usize>),
    Neg(Box<Expr>),
    /// The first operand, then each operator with its operand and the operator's span.
    Chain(Box<Expr>, Vec<(char, Expr, Range<usize>)>),
    /// `base ^ exponent`, with the caret's span.
    Power(Box<Expr>, Box<Expr>, Range<usize>),
    Call(String, Vec<Expr>, Range<usize>),
}

/// `x op y` for the operators a [`Expr::Chain`] or [`Expr::Power`] holds.
fn apply(op: char, x: f64, y: f64, at: &Range<usize>) -> Result<f64, ExprError> {
    Ok(match op {
        '+' => x + y,
        '-' => x - y,
        '*' => x * y,
        '/' if y == 0.0 => return Err(ExprError { message: "division by zero".into(), at: at.clone() }),
        '/' => x / y,
        '%' if y == 0.0 => return Err(ExprError { message: "remainder by zero".into(), at: at.clone() }),
        '%' => x % y,
        '^' => x.powf(y),
        _ => unreachable!("the parser makes only these operators"),
    })
}

/// The quantity of `x op y`, `None` where the operator cannot combine them.
fn combine(op: char, x: Quantity, y: &Quantity) -> Option<Quantity> {
    match op {
        '+' | '-' => x.same(y).then_some(x),
        '*' => Some(x.times(y, 1)),
        '/' => Some(x.times(y, -1)),
        _ => (x.0.is_empty() && y.0.is_empty()).then(Quantity::default),
    }
}

impl Expr {
    /// The quantity this expression computes from variables of the quantities `vars` gives;
    /// `None` where it adds or compares quantities of different dimensions (`m + 0.5` of a time
    /// and a number), or takes a power, root, logarithm or remainder of one that has a unit.
    fn quantity(&self, vars: &BTreeMap<&str, Quantity>) -> Option<Quantity> {
        match self {
            Expr::Number(_) | Expr::Rounded(..) => Some(Quantity::default()),
            Expr::Var(name, _) => vars.get(name.as_str()).cloned(),
            Expr::Neg(e) => e.quantity(vars),
            Expr::Chain(first, rest) => rest.iter().try_fold(first.quantity(vars)?, |x, (op, e, _)| combine(*op, x, &e.quantity(vars)?)),
            Expr::Power(base, exponent, _) => combine('^', base.quantity(vars)?, &exponent.quantity(vars)?),
            Expr::Call(name, args, _) => {
                let quantities = args.iter().map(|a| a.quantity(vars)).collect::<Option<Vec<_>>>()?;
                match name.as_str() {
                    "min" | "max" | "abs" => {
                        let first = quantities.first()?.clone();
                        quantities.iter().all(|q| q.same(&first)).then_some(first)
                    }
                    _ => quantities.iter().all(|q| q.0.is_empty()).then(Quantity::default),
                }
            }
        }
    }

    pub(crate) fn variables(&self) -> Vec<&str> {
        match self {
            Expr::Number(_) | Expr::Rounded(..) => vec![],
            Expr::Var(name, _) => vec![name.as_str()],
            Expr::Neg(e) => e.variables(),
            Expr::Chain(first, rest) => first.variables().into_iter().chain(rest.iter().flat_map(|(_, e, _)| e.variables())).collect(),
            Expr::Power(base, exponent, _) => [base.variables(), exponent.variables()].concat(),
            Expr::Call(_, args, _) => args.iter().flat_map(Expr::variables).collect(),
        }
    }

    pub(crate) fn eval(&self, vars: &BTreeMap<&str, f64>) -> Result<f64, ExprError> {
        let v = match self {
            Expr::Number(v) | Expr::Rounded(v, _) => *v,
            Expr::Var(name, at) => *vars.get(name.as_str()).ok_or(ExprError { message: format!("unknown variable `{name}`"), at: at.clone() })?,
            Expr::Neg(e) => -e.eval(vars)?,
            Expr::Chain(first, rest) => rest.iter().try_fold(first.eval(vars)?, |x, (op, e, at)| apply(*op, x, e.eval(vars)?, at))?,
            Expr::Power(base, exponent, at) => apply('^', base.eval(vars)?, exponent.eval(vars)?, at)?,
            Expr::Call(name, args, at) => {
                let vals = args.iter().map(|a| a.eval(vars)).collect::<Result<Vec<_>, _>>()?;
                let one = || -> Result<f64, ExprError> {
                    match vals.as_slice() {
                        [v] => Ok(*v),
                        _ => Err(ExprError { message: format!("`{name}` takes one argument"), at: at.clone() }),
                    }
                };
                match name.as_str() {
                    "min" | "max" if vals.is_empty() => {
                        return Err(ExprError { message: format!("`{name}` needs arguments"), at: at.clone() });
                    }
                    "min" => vals.iter().copied().fold(f64::INFINITY, f64::min),
                    "max" => vals.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    "abs" => one()?.abs(),
                    "sqrt" => one()?.sqrt(),
                    "ln" => one()?.ln(),
                    "log2" => one()?.log2(),
                    "log10" => one()?.log10(),
                    "exp" => one()?.exp(),
                    _ => return Err(ExprError { message: format!("unknown function `{name}`"), at: at.clone() }),
                }
            }
        };
        if v.is_finite() { Ok(v) } else { Err(ExprError { message: "the result is not a finite number".into(), at: 0..0 }) }
    }

    /// Whether a number of the expression is written rounded (`~98.61`).
    fn has_rounded(&self) -> bool {
        match self {
            Expr::Rounded(..) => true,
            Expr::Number(_) | Expr::Var(..) => false,
            Expr::Neg(e) => e.has_rounded(),
            Expr::Chain(first, rest) => first.has_rounded() || rest.iter().any(|(_, e, _)| e.has_rounded()),
            Expr::Power(base, exponent, _) => base.has_rounded() || exponent.has_rounded(),
            Expr::Call(_, args, _) => args.iter().any(Expr::has_rounded),
        }
    }

    /// The least and greatest values the expression takes where each rounded number is any
    /// value that rounds to it (interval arithmetic), or `None` where it writes none. Every
    /// operation here is monotonic in each argument over the ranges it accepts, so its least
    /// and greatest values are at the ends of its arguments' ranges. A remainder is not, a
    /// division by a range that holds zero and a power of a range that holds a negative base
    /// are unbounded or undefined: those are errors at their operator.
    pub(crate) fn band(&self, vars: &BTreeMap<&str, f64>) -> Result<Option<(f64, f64)>, ExprError> {
        if !self.has_rounded() {
            return Ok(None);
        }
        let (low, high) = self.interval(vars)?;
        if low.is_finite() && high.is_finite() { Ok(Some((low, high))) } else { Err(ExprError { message: "the range of the result is not finite".into(), at: 0..0 }) }
    }

    fn interval(&self, vars: &BTreeMap<&str, f64>) -> Result<(f64, f64), ExprError> {
        Ok(match self {
            Expr::Number(v) => (*v, *v),
            Expr::Rounded(v, half) => (v - half, v + half),
            Expr::Var(..) => {
                let v = self.eval(vars)?;
                (v, v)
            }
            Expr::Neg(e) => {
                let (low, high) = e.interval(vars)?;
                (-high, -low)
            }
            Expr::Chain(first, rest) => rest.iter().try_fold(first.interval(vars)?, |x, (op, e, at)| interval_apply(*op, x, e.interval(vars)?, at))?,
            Expr::Power(base, exponent, at) => interval_apply('^', base.interval(vars)?, exponent.interval(vars)?, at)?,
            Expr::Call(name, args, at) => {
                let ranges = args.iter().map(|a| a.interval(vars)).collect::<Result<Vec<_>, _>>()?;
                match (name.as_str(), ranges.as_slice()) {
                    ("min", [_, ..]) => (ranges.iter().map(|r| r.0).fold(f64::INFINITY, f64::min), ranges.iter().map(|r| r.1).fold(f64::INFINITY, f64::min)),
                    ("max", [_, ..]) => (ranges.iter().map(|r| r.0).fold(f64::NEG_INFINITY, f64::max), ranges.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max)),
                    ("abs", [(low, high)]) if *low < 0.0 && *high > 0.0 => (0.0, high.max(-low)),
                    ("abs", [(low, high)]) => (low.abs().min(high.abs()), low.abs().max(high.abs())),
                    ("sqrt", [(low, high)]) => (low.sqrt(), high.sqrt()),
                    ("ln", [(low, high)]) => (low.ln(), high.ln()),
                    ("log2", [(low, high)]) => (low.log2(), high.log2()),
                    ("log10", [(low, high)]) => (low.log10(), high.log10()),
                    ("exp", [(low, high)]) => (low.exp(), high.exp()),
                    // The point evaluation says what is wrong with the call.
                    _ => {
                        let v = self.eval(vars)?;
                        return Err(ExprError { message: format!("`{name}` cannot take a range (its value is {v})"), at: at.clone() });
                    }
                }
            }
        })
    }
}

/// `x op y` over ranges: the least and greatest of the operator at the ends of its arguments.
fn interval_apply(op: char, x: (f64, f64), y: (f64, f64), at: &Range<usize>) -> Result<(f64, f64), ExprError> {
    let refuse = |why: &str| Err(ExprError { message: why.to_string(), at: at.clone() });
    match op {
        '/' if y.0 <= 0.0 && y.1 >= 0.0 => return refuse("division by a rounded range that holds zero"),
        '%' => return refuse("a remainder of rounded numbers has no range here: write the numbers without `~`"),
        '^' if x.0 < 0.0 => return refuse("a power of a rounded range that holds a negative base has no range here"),
        _ => {}
    }
    let corners = [apply(op, x.0, y.0, at)?, apply(op, x.0, y.1, at)?, apply(op, x.1, y.0, at)?, apply(op, x.1, y.1, at)?];
    Ok((corners.iter().copied().fold(f64::INFINITY, f64::min), corners.iter().copied().fold(f64::NEG_INFINITY, f64::max)))
}

/// Half the last place `text`, a number as written, states: 0.005 for `98.61`, 0.5 for
/// `43557`, 50 for `1.5e3` (whose last place is the hundreds).
fn half_place(text: &str) -> f64 {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(k) => (&text[..k], text[k + 1..].parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len() as i32);
    0.5 * 10f64.powi(exponent - decimals)
}

/// The most tokens an expression may have: a registry's arithmetic is a line, not a program.
/// The stack the parser and the evaluation use is bounded by [`MAX_DEPTH`], not by this.
pub(crate) const MAX_TOKENS: usize = 1000;

/// The deepest nesting of parentheses, calls, unary minus and `^` the parser accepts: it
/// descends recursively, once per level.
pub(crate) const MAX_DEPTH: usize = 64;

/// Parses an expression by precedence climbing: `+ -` below `* / %` below unary minus below
/// `^`, which is right-associative, so `-2^2` is −4 as in mathematics. An expression longer
/// than [`MAX_TOKENS`] or nested deeper than [`MAX_DEPTH`] is an error at the token that
/// crosses the limit, never a stack overflow.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let tokens = tokenize(text)?;
    let mut p = Parser { tokens, pos: 0, len: text.len(), depth: 0 };
    let e = p.sum()?;
    match p.tokens.get(p.pos) {
        None => Ok(e),
        Some(t) => Err(ExprError { message: format!("unexpected `{}`", t.text), at: t.at.clone() }),
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    at: Range<usize>,
}

fn tokenize(text: &str) -> Result<Vec<Token>, ExprError> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if out.len() == MAX_TOKENS && !bytes[i..].iter().all(u8::is_ascii_whitespace) {
            // Stop at the first token past the limit, so that a huge expression costs no more
            // than a long one.
            let end = text[i..].find(|c: char| c.is_ascii_whitespace()).map_or(text.len(), |n| i + n);
            let end = end.max(i + text[i..].chars().next().map_or(1, char::len_utf8));
            return Err(ExprError { message: format!("expression too long: more than {MAX_TOKENS} tokens"), at: i..end });
        }
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || c == b'.' {
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.' || bytes[i] == b'_') {
                i += 1;
            }
            // An exponent such as 1e-6.
            if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
                let mut j = i + 1;
                if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
                    j += 1;
                }
                if j < bytes.len() && bytes[j].is_ascii_digit() {
                    i = j;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else if b"+-*/%^(),~".contains(&c) {
            i += 1;
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(ExprError { message: format!("unexpected character `{ch}`"), at: i..i + ch.len_utf8() });
        }
        out.push(Token { text: text[start..i].to_string(), at: start..i });
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    len: usize,
    /// How many nested descents are open: parentheses, calls, unary minus, exponents.
    depth: usize,
}

impl Parser {
    /// Runs `f` one level deeper, refusing to go past [`MAX_DEPTH`].
    fn nested(&mut self, f: impl FnOnce(&mut Parser) -> Result<Expr, ExprError>) -> Result<Expr, ExprError> {
        if self.depth >= MAX_DEPTH {
            let at = self.tokens.get(self.pos.saturating_sub(1)).map_or(self.len..self.len, |t| t.at.clone());
            return Err(ExprError { message: format!("expression too deep: more than {MAX_DEPTH} nested parentheses, calls, signs or powers"), at });
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.pos).map(|t| t.text.as_str())
    }

    fn next(&mut self) -> Result<Token, ExprError> {
        let t = self.tokens.get(self.pos).cloned().ok_or(ExprError { message: "unexpected end of expression".into(), at: self.len..self.len })?;
        self.pos += 1;
        Ok(t)
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        self.chain(&["+", "-"], Parser::product)
    }

    fn product(&mut self) -> Result<Expr, ExprError> {
        self.chain(&["*", "/", "%"], Parser::unary)
    }

    /// Operands read by `operand`, joined by any of `ops`, as one [`Expr::Chain`] (the operand
    /// alone where there is no operator).
    fn chain(&mut self, ops: &[&str], operand: fn(&mut Parser) -> Result<Expr, ExprError>) -> Result<Expr, ExprError> {
        let first = operand(self)?;
        let mut rest = Vec::new();
        while let Some(op) = self.peek().filter(|op| ops.contains(op)) {
            let op = op.chars().next().unwrap();
            let at = self.next()?.at;
            rest.push((op, operand(self)?, at));
        }
        Ok(if rest.is_empty() { first } else { Expr::Chain(Box::new(first), rest) })
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if self.peek() == Some("-") {
            self.next()?;
            return Ok(Expr::Neg(Box::new(self.nested(Parser::unary)?)));
        }
        self.power()
    }

    fn power(&mut self) -> Result<Expr, ExprError> {
        let base = self.atom()?;
        if self.peek() == Some("^") {
            let at = self.next()?.at;
            let exponent = self.nested(Parser::unary)?;
            return Ok(Expr::Power(Box::new(base), Box::new(exponent), at));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Expr, ExprError> {
        let t = self.next()?;
        if t.text == "~" {
            // A rounded number: the tilde is glued to digits, never to a name or a bracket.
            let n = self.next()?;
            let glued = n.at.start == t.at.end && n.text.as_bytes()[0].is_ascii_digit();
            let clean = n.text.replace('_', "");
            return match clean.parse::<f64>() {
                Ok(v) if glued => Ok(Expr::Rounded(v, half_place(&clean))),
                _ => Err(ExprError { message: "`~` marks a rounded number and is written before its digits, as `~98.61`".into(), at: t.at.start..n.at.end }),
            };
        }
        let first = t.text.as_bytes()[0];
        if first.is_ascii_digit() || first == b'.' {
            let clean = t.text.replace('_', "");
            return clean.parse().map(Expr::Number).map_err(|_| ExprError { message: format!("bad number `{}`", t.text), at: t.at });
        }
        if first.is_ascii_alphabetic() || first == b'_' {
            if self.peek() == Some("(") {
                self.next()?;
                let mut args = Vec::new();
                if self.peek() != Some(")") {
                    loop {
                        args.push(self.nested(Parser::sum)?);
                        if self.peek() == Some(",") {
                            self.next()?;
                            continue;
                        }
                        break;
                    }
                }
                let close = self.next()?;
                if close.text != ")" {
                    return Err(ExprError { message: "expected `)`".into(), at: close.at });
                }
                return Ok(Expr::Call(t.text, args, t.at));
            }
            return Ok(Expr::Var(t.text, t.at));
        }
        if t.text == "(" {
            let e = self.nested(Parser::sum)?;
            let close = self.next()?;
            if close.text != ")" {
                return Err(ExprError { message: "expected `)`".into(), at: close.at });
            }
            return Ok(e);
        }
        Err(ExprError { message: format!("unexpected `{}`", t.text), at: t.at })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};
    use super::*;

    fn eval(text: &str) -> f64 {
        parse(text).unwrap().eval(&BTreeMap::new()).unwrap()
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(eval("(2.1-1.3)/2.1*100"), (2.1 - 1.3) / 2.1 * 100.0);
        assert_eq!(eval("512 % 148"), 68.0);
        assert_eq!(eval("16777216*4/2^20"), 64.0);
        assert_eq!(eval("-2^2"), -4.0);
        assert_eq!(eval("2^3^2"), 512.0);
        assert_eq!(eval("8 - 2 - 1"), 5.0);
        assert_eq!(eval("10 - 2 + 3"), 11.0);
        assert_eq!(eval("64 / 4 / 2 * 3 % 5"), 4.0);
        assert_eq!(eval("1e-6 * 2e6"), 2.0);
        assert_eq!(eval("max(1, 4, 2) + min(3, 5)"), 7.0);
    }

    #[test]
    fn syntax_errors_point_at_the_token() {
        let e = parse("2 * (3 + ").unwrap_err();
        assert_eq!(e.message, "unexpected end of expression");
        let e = parse("2 $ 3").unwrap_err();
        assert_eq!(e.at, 2..3);
        let e = parse("2 3").unwrap_err();
        assert_eq!(e.at, 2..3);
    }

    /// The four shapes that overflowed the stack when the tree was unbounded. Each must be a
    /// located error, and is run on a thread with a small stack to prove the bound.
    #[test]
    fn huge_expressions_are_errors_not_stack_overflows() {
        let cases = [
            ("(".repeat(10_000) + "1" + &")".repeat(10_000), "expression too"),
            ("-".repeat(40_000) + "1", "expression too"),
            (vec!["2"; 100_000].join("^"), "expression too"),
            (vec!["1"; 50_000].join("+"), "expression too long"),
            ("(".repeat(100) + "1" + &")".repeat(100), "expression too deep"),
            ("-".repeat(100) + "1", "expression too deep"),
            (vec!["2"; 100].join("^"), "expression too deep"),
            ("min(".repeat(100) + "1" + &")".repeat(100), "expression too deep"),
            (vec!["1"; 60].join("^"), "ok"),
        ];
        std::thread::Builder::new()
            .stack_size(1024 * 1024)
            .spawn(move || {
                for (text, want) in cases {
                    match parse(&text) {
                        Ok(e) => {
                            assert_eq!(want, "ok", "{}…", &text[..20]);
                            let _ = e.eval(&BTreeMap::new());
                        }
                        Err(e) => {
                            assert!(e.message.contains(want), "{} for {}…", e.message, &text[..20]);
                            assert!(e.at.end <= text.len() && e.at.start < e.at.end, "{:?}", e.at);
                        }
                    }
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn the_longest_accepted_expression_evaluates_on_a_small_stack() {
        let text = vec!["1"; MAX_TOKENS / 2].join("+");
        assert!(matches!(parse(&text).unwrap(), Expr::Chain(_, ref rest) if rest.len() == MAX_TOKENS / 2 - 1), "one chain, not a tree as deep as it is long");
        std::thread::Builder::new()
            .stack_size(1024 * 1024)
            .spawn(move || assert_eq!(parse(&text).unwrap().eval(&BTreeMap::new()).unwrap(), (MAX_TOKENS / 2) as f64))
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn a_too_long_expression_in_a_registry_is_located() {
        let expr = vec!["1"; 2000].join(" + ");
        let err = parse_error(&format!("kind = \"arith\"\nexpr = \"{expr}\""));
        assert!(err.contains("expression too long"), "{err}");
    }

    #[test]
    fn division_by_zero_is_an_error_not_infinity() {
        assert!(parse("1/0").unwrap().eval(&BTreeMap::new()).is_err());
    }

    /// A number written `~98.61` stands for every value that rounds to it: the expression's
    /// range is its least and greatest value over them, and a quote matches where any value of
    /// the range rounds to it. nccl-tests' last all-reduce row of 32 ranks: `98.61` GB/s of
    /// algorithm bandwidth and `191.05` of bus bandwidth, which 98.61 × 2 × 31/32 = 191.057
    /// misses and the range 191.047 to 191.067 holds.
    #[test]
    fn rounded_numbers_give_a_range() {
        let band = |text: &str| parse(text).unwrap().band(&BTreeMap::new()).unwrap();
        assert_eq!([half_place("98.61"), half_place("43557"), half_place("1.5e3"), half_place("2.50e-3")], [0.005, 0.5, 50.0, 0.000005]);
        let (low, high) = band("~98.61 * 2 * (32 - 1) / 32").unwrap();
        assert!((low - 98.605 * 1.9375).abs() < 1e-9 && (high - 98.615 * 1.9375).abs() < 1e-9, "{low} {high}");
        assert_eq!(band("98.61 * 2"), None, "without a tilde there is no range");
        // Each operation at its arguments' ends: a difference, a quotient, a sign, functions.
        assert_eq!(band("~10 - ~4"), Some((5.0, 7.0)));
        assert_eq!(band("~8 / ~4"), Some((7.5 / 4.5, 8.5 / 3.5)));
        assert_eq!(band("-~2"), Some((-2.5, -1.5)));
        assert_eq!(band("abs(~0.1)"), Some((0.05, 0.15000000000000002)));
        assert_eq!(band("abs(~0 - 0.25)"), Some((0.0, 0.75)), "a range across zero");
        assert_eq!(band("max(~1, 1.2)"), Some((1.2, 1.5)));
        assert_eq!(band("~4 ^ 0.5"), Some((3.5f64.sqrt(), 4.5f64.sqrt())));
        // The point value is the written one.
        assert_eq!(eval("~98.61 * 2"), 197.22);
        // A range that makes a quotient, a remainder or a power undefined is a located error.
        for (text, at) in [("1 / ~0.0", 2..3), ("~7 % 2", 3..4), ("~-1", 0..2), ("~x", 0..2), ("~ 5", 0..3), ("(~0.1 - 1) ^ 0.5", 11..12)] {
            let e = parse(text).and_then(|e| e.band(&BTreeMap::new()));
            assert!(e.as_ref().is_err_and(|e| e.at == at), "{text}: {e:?}");
        }
        // Through the check: 191.05 is quoted.
        let f = Fixture::new(&[]);
        let observed = f.observe(&check_toml("kind = \"arith\"\nexpr = \"~98.61 * 2 * (32 - 1) / 32\"\n")).unwrap();
        assert_eq!(observed.band.map(|b| b.why), Some(BandWhy::RoundedOperands));
        let quoted = Quoted { value: 191.05, decimals: 2, ..Quoted::default() };
        let (low, high) = observed.band.map(|b| (b.low, b.high)).unwrap();
        assert!(quoted.matches_within(low, high, None) && !quoted.matches(observed.value.unwrap(), None));
    }

    #[test]
    fn undefined_variables_are_refused_when_read() {
        assert!(parse_error("kind = \"arith\"\nexpr = \"a / b\"").contains("`a`"));
    }

    #[test]
    fn json_variables_read_evidence() {
        let f = Fixture::new(&[("m.json", "{\"cases\":[{\"bytes\":{\"four-kernel\":80}}]}")]);
        let check = check_toml("kind = \"arith\"\nexpr = \"b / 4\"\n[json-vars.b]\nfile = \"m.json\"\npath = \"cases[0].bytes.four-kernel\"\n");
        assert_eq!(f.observe(&check).unwrap().value, Some(20.0));
    }

    #[test]
    fn variables_come_from_stat_queries() {
        let samples = "{\"v\":\"a\",\"t_us\":2}\n{\"v\":\"a\",\"t_us\":4}\n{\"v\":\"b\",\"t_us\":1}\n";
        let f = Fixture::new(&[("s.jsonl", samples)]);
        let check = check_toml(
            "kind = \"arith\"\nexpr = \"a / b\"\n[vars.a]\nsamples = \"s.jsonl\"\nselect = { v = \"a\" }\nfield = \"t_us\"\nstatistic = \"median\"\n[vars.b]\nsamples = \"s.jsonl\"\nselect = { v = \"b\" }\nfield = \"t_us\"\nstatistic = \"median\"\n",
        );
        assert_eq!(f.observe(&check).unwrap().value, Some(3.0));
    }

    /// pyperf's `time_s` is in seconds: twice a mean of it is a time, which the judge converts
    /// to the sentence's µs, while a ratio of two times is a number whatever their units, and a
    /// sum of a time and a bare number keeps the values as read, with no unit.
    #[test]
    fn variables_keep_their_units_through_the_expression() {
        let samples = "{\"v\":2,\"time_s\":0.000002,\"t_ms\":0.004}\n{\"v\":2,\"time_s\":0.000004,\"t_ms\":0.004}\n";
        let f = Fixture::new(&[("s.jsonl", samples)]);
        let var = |name: &str, field: &str| format!("[vars.{name}]\nsamples = \"s.jsonl\"\nselect = {{}}\nfield = \"{field}\"\nstatistic = \"mean\"\n");
        let observe = |expr: &str, vars: &str| f.observe(&check_toml(&format!("kind = \"arith\"\nexpr = \"{expr}\"\n{vars}"))).unwrap();
        let doubled = observe("2 * m", &var("m", "time_s"));
        assert_eq!((doubled.unit, doubled.value.map(|v| (v * 1e9).round())), (Some(Unit::S), Some(6000.0)));
        // Two units of one dimension: the second is taken in the first's.
        let sum = observe("m + n", &(var("m", "time_s") + &var("n", "t_ms")));
        assert_eq!((sum.unit, sum.value.map(|v| (v * 1e9).round())), (Some(Unit::S), Some(7000.0)));
        let ratio = observe("n / m", &(var("m", "time_s") + &var("n", "t_ms")));
        assert_eq!((ratio.unit, ratio.value.map(|v| (v * 1e6).round())), (None, Some(1333333.0)));
        let count = observe("m + 1", &var("m", "time_s"));
        assert_eq!((count.unit, count.value), (None, Some(1.000003)));
        let squared = observe("m * m", &var("m", "time_s"));
        assert_eq!(squared.unit, None);
        // A field of no known unit may be anything (BenchmarkDotNet's ratio multiplies a time by
        // the mean of a derived `1 / time_ns`): the values stay as read, with no unit.
        let unknown = observe("m * v", &(var("m", "t_ms") + &var("v", "v")));
        assert_eq!(unknown.unit, None);
        // A count is a number.
        let per = observe("m / n", &(var("m", "t_ms") + "[vars.n]\nsamples = \"s.jsonl\"\nselect = {}\nfield = \"t_ms\"\nstatistic = \"count\"\n"));
        assert_eq!((per.unit, per.value), (Some(Unit::Ms), Some(0.002)));
    }
}
