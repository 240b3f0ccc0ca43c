//! Numbers quoted in prose: their value, unit, displayed precision and span. This module owns
//! recognising numbers and the matching rule; it never decides which number a check verifies.
//!
//! **Matching rule.** A quoted value with `d` decimals matches a computed value `c` when `c`
//! rounds to it at `d` decimals: `c` written with `d` decimals (from its exact binary value,
//! ties to even) is the quoted value. That is the half-unit interval around the quote, with
//! exactly one quote matching a value that sits on a boundary. With an explicit tolerance the
//! rule is `|c − q| ≤ tolerance` instead. Integers shown with thousands separators (`1,764`)
//! have `d = 0`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// The unit a number is quoted in, after normalising spellings (`us`, `µs` and `μs` are one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    Percent,
    Times,
    Ns,
    Us,
    Ms,
    S,
    Bytes,
    KiB,
    MiB,
    GiB,
    Kb,
    Mb,
    Gb,
    Tb,
    MbPerS,
    GbPerS,
    TbPerS,
    GflopPerS,
    TflopPerS,
}

impl Unit {
    fn parse(text: &str) -> Option<Unit> {
        Some(match text {
            "%" => Unit::Percent,
            "×" | "x" => Unit::Times,
            "ns" => Unit::Ns,
            "µs" | "μs" | "us" => Unit::Us,
            "ms" => Unit::Ms,
            "s" => Unit::S,
            "B" | "bytes" => Unit::Bytes,
            "KiB" => Unit::KiB,
            "MiB" => Unit::MiB,
            "GiB" => Unit::GiB,
            "KB" | "kB" => Unit::Kb,
            "MB" => Unit::Mb,
            "GB" => Unit::Gb,
            "TB" => Unit::Tb,
            "MB/s" => Unit::MbPerS,
            "GB/s" => Unit::GbPerS,
            "TB/s" => Unit::TbPerS,
            "GFLOP/s" => Unit::GflopPerS,
            "TFLOP/s" => Unit::TflopPerS,
            _ => return None,
        })
    }

    /// The canonical spelling, used in reports.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Percent => "%",
            Unit::Times => "×",
            Unit::Ns => "ns",
            Unit::Us => "µs",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Bytes => "B",
            Unit::KiB => "KiB",
            Unit::MiB => "MiB",
            Unit::GiB => "GiB",
            Unit::Kb => "KB",
            Unit::Mb => "MB",
            Unit::Gb => "GB",
            Unit::Tb => "TB",
            Unit::MbPerS => "MB/s",
            Unit::GbPerS => "GB/s",
            Unit::TbPerS => "TB/s",
            Unit::GflopPerS => "GFLOP/s",
            Unit::TflopPerS => "TFLOP/s",
        }
    }

    /// Seconds per unit for time units, so that a value computed in microseconds can be
    /// compared with one quoted in milliseconds.
    pub fn seconds(self) -> Option<f64> {
        match self {
            Unit::Ns => Some(1e-9),
            Unit::Us => Some(1e-6),
            Unit::Ms => Some(1e-3),
            Unit::S => Some(1.0),
            _ => None,
        }
    }
}

/// What shape of quantity the text shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// One value, such as `56.08 µs`, `1,764` or `38 %`.
    Single,
    /// Two values joined by a dash, such as `1.0–1.7×`: `value` is the low end.
    Range { high: f64, high_decimals: u32 },
    /// A tensor shape such as `4096×128`: a label naming a case, not a quantity.
    Dims(Vec<u64>),
}

/// One number as it stands in a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    /// The text exactly as quoted, for example `1.3-2.1 us`.
    pub text: String,
    /// Byte span of `text` inside the sentence.
    pub span: Range<usize>,
    pub value: f64,
    pub decimals: u32,
    pub unit: Option<Unit>,
    pub shape: Shape,
}

impl Number {
    /// A spelling-independent key: `14.96 µs`, `14.96us` and `14.96 μs` share it.
    pub fn key(&self) -> String {
        let unit = self.unit.map_or("", Unit::symbol);
        match &self.shape {
            Shape::Single => format!("{}{unit}", plain(&self.text_value())),
            Shape::Range { .. } => {
                let (lo, hi) = self.range_texts();
                format!("{}–{}{unit}", plain(&lo), plain(&hi))
            }
            Shape::Dims(_) => self.text.split(['×', 'x']).map(dimension_digits).collect::<Vec<_>>().join("×"),
        }
    }

    /// The value's digits as shown, without the unit.
    fn text_value(&self) -> String {
        format_decimals(self.value, self.decimals)
    }

    fn range_texts(&self) -> (String, String) {
        match &self.shape {
            Shape::Range { high, high_decimals } => {
                (format_decimals(self.value, self.decimals), format_decimals(*high, *high_decimals))
            }
            _ => (self.text_value(), self.text_value()),
        }
    }

    /// True when this number is a tensor shape (`4096×128`), which names a case.
    pub fn is_dims(&self) -> bool {
        matches!(self.shape, Shape::Dims(_))
    }
}

/// Which end of a range a check verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    Low,
    High,
}

/// The quoted value a check compares against: a single number, or one end of a range.
#[derive(Debug, Clone, PartialEq)]
pub struct Quoted {
    pub value: f64,
    pub decimals: u32,
    pub unit: Option<Unit>,
}

impl Quoted {
    /// Picks the value a check verifies out of a number. A range needs `part`; a single number
    /// ignores it.
    pub fn from_number(n: &Number, part: Option<Part>) -> Result<Quoted, String> {
        match (&n.shape, part) {
            (Shape::Single, _) => Ok(Quoted { value: n.value, decimals: n.decimals, unit: n.unit }),
            (Shape::Range { .. }, None) => {
                Err(format!("`{}` is a range: say which end the check verifies with part = \"low\" or \"high\"", n.text))
            }
            (Shape::Range { .. }, Some(Part::Low)) => Ok(Quoted { value: n.value, decimals: n.decimals, unit: n.unit }),
            (Shape::Range { high, high_decimals }, Some(Part::High)) => {
                Ok(Quoted { value: *high, decimals: *high_decimals, unit: n.unit })
            }
            (Shape::Dims(_), _) => Err(format!("`{}` is a shape that names a case, not a quantity to check", n.text)),
        }
    }

    /// The matching rule of this module's documentation.
    pub fn matches(&self, computed: f64, tolerance: Option<f64>) -> bool {
        if !computed.is_finite() {
            return false;
        }
        match tolerance {
            Some(t) => (computed - self.value).abs() <= t,
            None => {
                // Comparing the written forms as numbers makes -0.00 and 0.00 equal.
                let shown: f64 = format_decimals(computed, self.decimals).parse().unwrap_or(f64::NAN);
                let quoted: f64 = format_decimals(self.value, self.decimals).parse().unwrap_or(f64::NAN);
                shown == quoted
            }
        }
    }

    /// The computed value shown at the quoted precision, for reports.
    pub fn display(&self, computed: f64) -> String {
        // A recomputed value is shown with at least two decimals below 100 (three below 1), so
        // that a report of 1.86 against a quoted 5 does not read "2".
        let floor = if computed.fract() == 0.0 {
            0
        } else if computed.abs() < 1.0 {
            3
        } else if computed.abs() < 100.0 {
            2
        } else {
            1
        };
        let decimals = self.decimals.max(floor);
        format!("{}{}", format_decimals(computed, decimals), unit_suffix(self.unit))
    }

    pub fn shown(&self) -> String {
        format!("{}{}", format_decimals(self.value, self.decimals), unit_suffix(self.unit))
    }
}

/// Converts `value` between time units; any other pair is left as it stands.
pub fn convert(value: f64, from: Option<Unit>, to: Option<Unit>) -> f64 {
    match (from.and_then(Unit::seconds), to.and_then(Unit::seconds)) {
        (Some(a), Some(b)) => value * a / b,
        _ => value,
    }
}

/// `×` sticks to its number as in `1.7×`; every other unit is set off by a space.
fn unit_suffix(unit: Option<Unit>) -> String {
    match unit {
        None => String::new(),
        Some(Unit::Times) => "×".into(),
        Some(u) => format!(" {}", u.symbol()),
    }
}

/// Every number in `text`, in order, leaving out those whose span overlaps one of `skip`
/// (inline code) and digits that are part of a name (`H200`, `sm_90`, `Llama-3.2-1B`).
pub fn extract(text: &str, skip: &[Range<usize>]) -> Vec<Number> {
    static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
        let num = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?";
        let unit = r"GFLOP/s|TFLOP/s|GB/s|TB/s|MB/s|KiB|MiB|GiB|bytes|KB|kB|MB|GB|TB|µs|μs|us|ns|ms|%|×|x|s|B";
        Regex::new(&format!(
            r"(?x)
            (?P<dims>\d+(?:[×x]\d+)+)(?:[^\w.]|\.(?:[^\d]|$)|$)
            |
            (?P<lo>{num})
            (?:\x20?(?P<lounit>{unit}))??
            (?:\x20?(?:–|-|—)\x20?(?P<hi>{num}))?
            (?:\x20?(?P<unit>{unit}))?"
        ))
        .expect("number pattern is valid")
    });
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(caps) = NUMBER.captures_at(text, at) {
        let whole = caps.get(0).unwrap();
        at = whole.end().max(whole.start() + 1);
        if let Some(dims) = caps.name("dims") {
            let span = dims.range();
            if overlaps(&span, skip) || is_part_of_name(text, span.start) {
                continue;
            }
            // A dimension too large for 64 bits is still a label: it saturates here, and its
            // key is taken from the digits as written, so nothing overflows or goes missing.
            let digits = dims.as_str().split(['×', 'x']).collect::<Vec<_>>();
            let parts = digits.iter().map(|p| p.parse::<u64>().unwrap_or(u64::MAX)).collect::<Vec<_>>();
            at = span.end;
            out.push(Number {
                text: dims.as_str().to_string(),
                span,
                value: digits.first().and_then(|d| d.parse::<f64>().ok()).unwrap_or(f64::NAN),
                decimals: 0,
                unit: None,
                shape: Shape::Dims(parts),
            });
            continue;
        }
        let lo = caps.name("lo").unwrap();
        if is_part_of_name(text, lo.start()) {
            continue;
        }
        let (lo_value, lo_decimals) = parse_digits(lo.as_str());
        // A unit is real only when no letter or digit follows it: `21 samples` has no unit.
        let unit_ok = |m: regex::Match| !text[m.end()..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_');
        let mut end = lo.end();
        let mut unit = None;
        let mut shape = Shape::Single;
        if let Some(hi) = caps.name("hi") {
            // A range must not mix units (`2 ms-3 us` is two numbers), and its end must not be
            // the start of a name either.
            let lo_unit = caps.name("lounit");
            let hi_unit = caps.name("unit");
            let consistent = match (lo_unit, hi_unit) {
                (Some(a), Some(b)) => Unit::parse(a.as_str()) == Unit::parse(b.as_str()),
                (Some(_), None) => false,
                _ => true,
            };
            let hi_followed_by_letter = text[hi.end()..].chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && hi_unit.is_none();
            if consistent && !hi_followed_by_letter {
                let (hi_value, hi_decimals) = parse_digits(hi.as_str());
                shape = Shape::Range { high: hi_value, high_decimals: hi_decimals };
                end = hi.end();
                if let Some(u) = hi_unit.filter(|m| unit_ok(*m)) {
                    unit = Unit::parse(u.as_str());
                    end = u.end();
                }
            }
        }
        if matches!(shape, Shape::Single) {
            let unit_match = caps.name("lounit").or_else(|| if caps.name("hi").is_none() { caps.name("unit") } else { None });
            if let Some(u) = unit_match.filter(|m| unit_ok(*m)) {
                unit = Unit::parse(u.as_str());
                end = u.end();
            }
            at = end;
        }
        // Digits glued to letters (`1st`, `8B`) are a name, not a quantity.
        if unit.is_none() && text[end..].chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '^') {
            continue;
        }
        if text[..lo.start()].ends_with('^') {
            continue;
        }
        let span = lo.start()..end;
        if overlaps(&span, skip) {
            continue;
        }
        at = end;
        out.push(Number { text: text[span.clone()].to_string(), span, value: lo_value, decimals: lo_decimals, unit, shape });
    }
    out
}

/// Parses a number written on its own, as a check's `number` key is: it must hold exactly one.
pub fn parse_one(text: &str) -> Result<Number, String> {
    let found = extract(text.trim(), &[]);
    match found.as_slice() {
        [one] if one.span == (0..text.trim().len()) => Ok(one.clone()),
        [] => Err(format!("`{text}` holds no number")),
        _ => Err(format!("`{text}` is not one number with an optional unit")),
    }
}

fn parse_digits(s: &str) -> (f64, u32) {
    let clean: String = s.chars().filter(|c| *c != ',').collect();
    // A count of decimals beyond `u32` would need a 4 GiB number; it saturates rather than wraps.
    let decimals = clean.split_once('.').map_or(0, |(_, d)| u32::try_from(d.len()).unwrap_or(u32::MAX));
    (clean.parse().unwrap_or(f64::NAN), decimals)
}

/// A dimension's digits without leading zeros: the same text `u64::to_string` gives for any
/// dimension that fits, and still exact for one that does not.
fn dimension_digits(digits: &str) -> &str {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() && !digits.is_empty() { "0" } else { trimmed }
}

/// Every finite `f64` is a binary fraction whose decimal expansion ends within 1,074 places
/// (2^-1074 is the smallest subnormal), so writing more places only appends zeros.
const EXACT_DECIMALS: u32 = 1100;

/// `v` written with `decimals` places, exactly, for any count of places. The formatter itself
/// refuses a precision above 65,535, so the places past every f64's exact expansion are
/// appended as the zeros they are.
pub(crate) fn format_decimals(v: f64, decimals: u32) -> String {
    if decimals <= EXACT_DECIMALS || !v.is_finite() {
        return format!("{v:.*}", decimals.min(EXACT_DECIMALS) as usize);
    }
    let mut s = format!("{v:.*}", EXACT_DECIMALS as usize);
    let extra = (decimals - EXACT_DECIMALS) as usize;
    s.reserve(extra);
    s.extend(std::iter::repeat_n('0', extra));
    s
}

fn plain(s: &str) -> String {
    s.to_string()
}

fn overlaps(span: &Range<usize>, skip: &[Range<usize>]) -> bool {
    skip.iter().any(|s| s.start < span.end && span.start < s.end)
}

/// Digits that continue a word (`H200`, `sm_90`, `v1`, `2512.22219` after a letter) or a
/// hyphenated name whose previous piece is alphanumeric (`Llama-1B`, `Qwen3-8B`).
fn is_part_of_name(text: &str, start: usize) -> bool {
    let before = &text[..start];
    let mut rev = before.chars().rev();
    match rev.next() {
        None => false,
        Some(c) if c.is_alphanumeric() || c == '_' || c == '.' || c == '/' || c == '#' => true,
        Some('-') => rev.next().is_some_and(|c| c.is_alphanumeric()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        extract(s, &[]).into_iter().map(|n| n.text).collect()
    }

    #[test]
    fn decimals_and_units_are_kept_together() {
        assert_eq!(texts("Graph replay took 56.08 µs and 3.4us."), ["56.08 µs", "3.4us"]);
        let n = &extract("took 56.08 µs", &[])[0];
        assert_eq!((n.value, n.decimals, n.unit), (56.08, 2, Some(Unit::Us)));
    }

    #[test]
    fn thousands_separators_are_one_integer() {
        let n = &extract("It has 1,764 words.", &[])[0];
        assert_eq!((n.value, n.decimals, n.unit), (1764.0, 0, None));
    }

    #[test]
    fn percent_and_ratio_units() {
        let found = extract("a 38.1 % cut, or 1.6× faster, or 2x", &[]);
        let units: Vec<_> = found.iter().map(|n| n.unit).collect();
        assert_eq!(units, [Some(Unit::Percent), Some(Unit::Times), Some(Unit::Times)]);
    }

    #[test]
    fn ranges_keep_both_ends() {
        let n = &extract("improves by 1.0–1.7× over vLLM", &[])[0];
        assert_eq!(n.text, "1.0–1.7×");
        assert_eq!(n.shape, Shape::Range { high: 1.7, high_decimals: 1 });
        let n = &extract("costs 1.3-2.1 us per launch", &[])[0];
        assert_eq!((n.text.as_str(), n.unit), ("1.3-2.1 us", Some(Unit::Us)));
    }

    #[test]
    fn a_shape_may_end_a_sentence() {
        let found = extract("from 4096×128 to 8×262144.", &[]);
        assert_eq!(found.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["4096×128", "8×262144"]);
    }

    #[test]
    fn shapes_are_one_label_not_two_numbers() {
        let found = extract("at 4096×4096 and 32768x1024, rows", &[]);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].shape, Shape::Dims(vec![4096, 4096]));
        assert_eq!(found[1].shape, Shape::Dims(vec![32768, 1024]));
    }

    #[test]
    fn digits_inside_names_are_not_numbers() {
        assert!(texts("On the H200 with sm_90, Llama-3.2-1B and Qwen3-8B, arXiv 2512.22219v1").is_empty());
    }

    #[test]
    fn bandwidth_and_sizes() {
        assert_eq!(texts("copies at 4.3 TB/s over 64 MiB and 4244 GB/s"), ["4.3 TB/s", "64 MiB", "4244 GB/s"]);
    }

    #[test]
    fn words_after_a_number_are_not_units() {
        let found = extract("21 samples over 132 SMs and 8-way parallelism", &[]);
        assert_eq!(found.iter().map(|n| (n.text.as_str(), n.unit)).collect::<Vec<_>>(), [("21", None), ("132", None), ("8", None)]);
    }

    #[test]
    fn inline_code_is_skipped() {
        let s = "call `cudaGraphLaunch(g, 0)` 20 times";
        let code = s.find('`').unwrap()..s.rfind('`').unwrap() + 1;
        assert_eq!(extract(s, &[code]).iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["20"]);
    }

    #[test]
    fn half_unit_rule() {
        let q = Quoted { value: 14.96, decimals: 2, unit: Some(Unit::Us) };
        assert!(q.matches(14.9551, None));
        assert!(q.matches(14.964, None));
        assert!(!q.matches(14.966, None));
        // A value on the boundary matches exactly one of its two neighbours.
        let tie = 20.345;
        let lo = Quoted { value: 20.34, decimals: 2, unit: None };
        let hi = Quoted { value: 20.35, decimals: 2, unit: None };
        assert_ne!(lo.matches(tie, None), hi.matches(tie, None));
        assert!(!q.matches(f64::NAN, None));
        assert!(q.matches(15.0, Some(0.05)));
    }

    #[test]
    fn keys_ignore_spelling() {
        assert_eq!(parse_one("14.96 µs").unwrap().key(), parse_one("14.96us").unwrap().key());
        assert_eq!(parse_one("14.96 μs").unwrap().key(), parse_one("14.96 µs").unwrap().key());
        assert!(parse_one("about 3").is_err());
    }

    #[test]
    fn a_shape_too_large_for_64_bits_is_a_label_not_a_crash() {
        let big = "99999999999999999999x99999999999999999999";
        for text in [format!("Shape {big} here."), big.to_string(), format!("at {big}")] {
            let found = extract(&text, &[]);
            assert_eq!(found.len(), 1, "{text}");
            assert!(found[0].is_dims());
            assert_eq!(found[0].key(), "99999999999999999999×99999999999999999999");
        }
        assert_eq!(parse_one(big).unwrap().key(), parse_one("099999999999999999999×99999999999999999999").unwrap().key());
        assert_eq!(parse_one("4096x0128").unwrap().key(), "4096×128");
        assert_eq!(parse_one("0x7").map(|n| n.key()), Ok("0×7".to_string()));
    }

    #[test]
    fn numbers_with_more_decimals_than_the_formatter_allows_are_exact() {
        let text = format!("took 1.{} µs", "5".repeat(70_000));
        let n = &extract(&text, &[])[0];
        assert_eq!(n.decimals, 70_000);
        let key = n.key();
        assert_eq!(key.len(), "1.".len() + 70_000 + "µs".len());
        let q = Quoted::from_number(n, None).unwrap();
        assert!(q.matches(n.value, None));
        assert!(!q.matches(1.5, None));
        assert_eq!(format_decimals(0.5, 1105), format!("0.5{}", "0".repeat(1104)));
        assert_eq!(format_decimals(0.1, 3), "0.100");
        assert_eq!(format_decimals(f64::NAN, 70_000), "NaN");
    }

    #[test]
    fn a_range_needs_a_part() {
        let n = parse_one("1.0–1.7×").unwrap();
        assert!(Quoted::from_number(&n, None).is_err());
        assert_eq!(Quoted::from_number(&n, Some(Part::High)).unwrap().value, 1.7);
    }

    /// Properties over generated input: what the README promises for every number, not only
    /// for the examples above.
    mod properties {
        use proptest::prelude::*;

        use super::*;

        const UNITS: [&str; 20] = ["", "%", "×", "x", "ns", "µs", "μs", "us", "ms", "s", "B", "KiB", "MiB", "GiB", "GB", "TB/s", "GB/s", "MB/s", "GFLOP/s", "TFLOP/s"];

        /// A quoted number as prose writes it: digits, maybe thousands separators, maybe
        /// decimals, maybe a unit with or without a space.
        fn quoted() -> impl Strategy<Value = (String, f64, u32, Option<Unit>)> {
            (0u64..10_000_000_000, proptest::option::of("[0-9]{1,6}"), any::<bool>(), 0..UNITS.len(), any::<bool>()).prop_map(
                |(int, frac, separators, unit, space)| {
                    let digits = int.to_string();
                    let grouped = if separators && int >= 1000 {
                        let mut out = String::new();
                        for (i, c) in digits.chars().enumerate() {
                            if i > 0 && (digits.len() - i) % 3 == 0 {
                                out.push(',');
                            }
                            out.push(c);
                        }
                        out
                    } else {
                        digits.clone()
                    };
                    let (written, plain, decimals) = match &frac {
                        Some(f) => (format!("{grouped}.{f}"), format!("{digits}.{f}"), f.len() as u32),
                        None => (grouped, digits, 0),
                    };
                    let unit_text = UNITS[unit];
                    let text = match (unit_text, space) {
                        ("", _) => written,
                        (u, true) => format!("{written} {u}"),
                        (u, false) => format!("{written}{u}"),
                    };
                    (text, plain.parse().unwrap(), decimals, Unit::parse(unit_text))
                },
            )
        }

        proptest! {
            #[test]
            fn any_quoted_number_round_trips_through_extraction((text, value, decimals, unit) in quoted()) {
                let sentence = format!("The kernel took {text} in total.");
                let found = extract(&sentence, &[]);
                prop_assert_eq!(found.len(), 1, "{:?}", found);
                let n = &found[0];
                prop_assert_eq!(&n.text, &text);
                prop_assert_eq!(&sentence[n.span.clone()], text.as_str());
                prop_assert_eq!((n.value, n.decimals, n.unit), (value, decimals, unit));
                prop_assert_eq!(parse_one(&text).map(|m| m.key()), Ok(n.key()));
            }

            #[test]
            fn matching_accepts_exactly_one_quote_per_value(computed in 0.0f64..1.0e6, decimals in 0u32..7) {
                let scale = 10f64.powi(decimals as i32);
                let centre = (computed * scale).round() as i64;
                let quote = |k: i64| -> Quoted {
                    let text = if decimals == 0 { k.to_string() } else { format!("{}.{:0width$}", k / scale as i64, k % scale as i64, width = decimals as usize) };
                    Quoted { value: text.parse().unwrap(), decimals, unit: None }
                };
                let matching: Vec<i64> = (centre - 3..=centre + 3).filter(|k| *k >= 0 && quote(*k).matches(computed, None)).collect();
                prop_assert_eq!(matching.len(), 1, "{} at {} decimals: {:?}", computed, decimals, matching);
            }
        }
    }
}
