//! JSON tokens as the fast evidence readers take them apart: keys and strings without
//! escapes, numbers read to the bits serde_json gives, `true`, `false`, `null`, and nested
//! values skipped after checking their grammar. This module owns only the tokens; what a line
//! or a record means belongs to the readers that call it ([`super::jsonl`], [`super::columns`],
//! [`super::trace`]).
//!
//! Every function here answers `None` where it cannot be sure to read a token exactly as
//! serde_json would (an escape, a control character, an integer past what it keeps exactly, a
//! value past the largest double, nesting past [`MAX_DEPTH`]): the caller then hands the line
//! to serde_json, which decides what it means and how its error reads. So a fast reader is
//! never more lenient or more strict than the reader it stands in for; it is only faster on the
//! lines it is sure of.

/// Two short byte strings compared in a loop the compiler keeps inline: keys are a few bytes,
/// where a call to `memcmp` costs more than the comparison.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i + 8 <= a.len() {
        if u64::from_ne_bytes(a[i..i + 8].try_into().unwrap_or_default()) != u64::from_ne_bytes(b[i..i + 8].try_into().unwrap_or_default()) {
            return false;
        }
        i += 8;
    }
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// The index of the closing quote of a string whose text starts at `i`; `None` for an escape
/// or a control character, which the line parser reads.
pub(crate) fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match *b.get(i)? {
            b'"' => return Some(i),
            b'\\' | 0..=0x1f => return None,
            _ => i += 1,
        }
    }
}

pub(crate) fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b.get(i..i + word.len()).filter(|w| *w == word).map(|_| i + word.len())
}

/// The members of a flat JSON object, one a line, walked key by key: the one line walker of
/// the fast readers ([`super::jsonl`] and [`super::columns`]). It keeps the keys of the line
/// before (its *shape*), each with a tag its reader gave it (a symbol, a column), and compares
/// each key in place with the one the line before had at that position: lines of one file
/// mostly repeat their keys, so a key of a known shape is neither searched for its end nor
/// looked up again. What a value is, and which values to keep, is the reader's to decide.
pub(crate) struct Members<T> {
    /// The keys of the last line whose shape was kept, with their tags.
    shape: Vec<(Vec<u8>, T)>,
    /// The keys of the line just walked, as ranges of its input.
    keys: Vec<(usize, usize)>,
}

impl<T: Copy> Members<T> {
    pub(crate) fn new() -> Members<T> {
        Members { shape: Vec::new(), keys: Vec::new() }
    }

    /// Walks the object that starts at `b[i]` (after blanks). For the `n`th member it calls
    /// `value(n, key, tag, start)`, with the key's range, the tag its key had in the line
    /// before (`None` where this line's keys differ from there on) and where its value starts;
    /// `value` returns where the value ends, or `None` where the line is not one the reader is
    /// sure of. Answers the index just past the closing brace and whether the line has the
    /// shape of the line before, or `None` where the object is not one the walker is sure of
    /// (an escape in a key, a syntax error): serde_json then reads it.
    #[inline]
    pub(crate) fn walk(&mut self, b: &[u8], i: usize, mut value: impl FnMut(usize, (usize, usize), Option<T>, usize) -> Option<usize>) -> Option<(usize, bool)> {
        self.keys.clear();
        let mut same_shape = true;
        let mut i = skip_ws(b, i);
        if *b.get(i)? != b'{' {
            return None;
        }
        i = skip_ws(b, i + 1);
        if *b.get(i)? == b'}' {
            return Some((i + 1, self.shape.is_empty()));
        }
        loop {
            if *b.get(i)? != b'"' {
                return None;
            }
            let ks = i + 1;
            let n = self.keys.len();
            let known = match self.shape.get(n) {
                Some((k, tag)) if same_shape && b.get(ks + k.len()) == Some(&b'"') && same_bytes(&b[ks..ks + k.len()], k) => Some((ks + k.len(), *tag)),
                _ => None,
            };
            let (ke, tag) = match known {
                Some((ke, tag)) => (ke, Some(tag)),
                None => {
                    same_shape = false;
                    (string_end(b, ks)?, None)
                }
            };
            i = skip_ws(b, ke + 1);
            if *b.get(i)? != b':' {
                return None;
            }
            self.keys.push((ks, ke));
            i = skip_ws(b, value(n, (ks, ke), tag, skip_ws(b, i + 1))?);
            match *b.get(i)? {
                b',' => i = skip_ws(b, i + 1),
                b'}' => return Some((i + 1, same_shape && self.keys.len() == self.shape.len())),
                _ => return None,
            }
        }
    }

    /// The keys of the line just walked, as ranges of its input.
    pub(crate) fn keys(&self) -> &[(usize, usize)] {
        &self.keys
    }

    /// Whether the line just walked (in `b`) repeats a key, which is serde's error to give.
    pub(crate) fn repeats_a_key(&self, b: &[u8]) -> bool {
        let key = |&(a, e): &(usize, usize)| &b[a..e];
        if self.keys.len() <= 32 {
            self.keys.iter().enumerate().any(|(x, k)| self.keys[..x].iter().any(|j| key(j) == key(k)))
        } else {
            let mut seen = rustc_hash::FxHashSet::default();
            !self.keys.iter().all(|k| seen.insert(key(k)))
        }
    }

    /// Keeps the keys of the line just walked (in `b`), with `tags` in their order, as the
    /// shape the next line is compared with.
    pub(crate) fn keep_shape(&mut self, b: &[u8], tags: impl IntoIterator<Item = T>) {
        self.shape.clear();
        self.shape.extend(self.keys.iter().zip(tags).map(|(&(a, e), tag)| (b[a..e].to_vec(), tag)));
    }

    /// Forgets the shape kept, so that the next line is walked as new.
    pub(crate) fn forget_shape(&mut self) {
        self.shape.clear();
    }
}

/// The end of a non-negative JSON number starting at `i`, checked against JSON's grammar.
pub(crate) fn number_end(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if b[i] == b'0' {
        i += 1;
    } else if !digits(&mut i) {
        return None;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return None;
        }
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        if !digits(&mut i) {
            return None;
        }
    }
    Some(i)
}

const POW10: [f64; 23] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// A number token (non-negative, valid JSON) as serde_json reads it, correctly rounded: an
/// integer as `i64` then `f64`, anything else as the nearest double. `None` where the line
/// parser must decide (an integer past 18 digits, a value past the largest double).
pub(crate) fn number(token: &[u8]) -> Option<f64> {
    let mut mantissa: u64 = 0;
    let mut n_digits = 0;
    let mut frac_digits = 0i32;
    let mut i = 0;
    let mut seen_dot = false;
    while i < token.len() {
        match token[i] {
            c @ b'0'..=b'9' => {
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                n_digits += 1;
                if seen_dot {
                    frac_digits += 1;
                }
            }
            b'.' => seen_dot = true,
            _ => break,
        }
        i += 1;
    }
    if i == token.len() && !seen_dot {
        // An integer: serde_json reads it as an integer, which a sample widens to a double.
        return (n_digits <= 18).then_some(mantissa as i64 as f64);
    }
    let mut exp = 0i32;
    if i < token.len() {
        // An exponent: `e`, a sign, digits (the grammar was checked).
        let negative = token[i + 1] == b'-';
        let digits = &token[i + 1 + usize::from(matches!(token[i + 1], b'+' | b'-'))..];
        if digits.len() > 4 {
            return slow_number(token);
        }
        exp = digits.iter().fold(0i32, |e, d| e * 10 + i32::from(d - b'0'));
        if negative {
            exp = -exp;
        }
    }
    let e = exp - frac_digits;
    // Clinger's fast path: a mantissa and a power of ten that are both exact doubles give the
    // correctly rounded quotient or product in one operation.
    if n_digits <= 15 && (-22..=22).contains(&e) {
        let m = mantissa as f64;
        return Some(if e < 0 { m / POW10[(-e) as usize] } else { m * POW10[e as usize] });
    }
    slow_number(token)
}

fn slow_number(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A scalar value as serde_json reads it into [`super::jsonl::Scalar`]: a string by its range
/// in the input (its text, since it has no escapes), a nested object or array only marked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Token {
    Str(usize, usize),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    Nested,
}

/// How deep the fast readers follow nested values; deeper ones go to serde_json, whose own
/// limit is 128.
pub(crate) const MAX_DEPTH: usize = 64;

/// The value starting at `b[i]` and the index just past it.
pub(crate) fn value(b: &[u8], i: usize) -> Option<(Token, usize)> {
    match *b.get(i)? {
        b'"' => {
            let end = string_end(b, i + 1)?;
            Some((Token::Str(i + 1, end), end + 1))
        }
        b'0'..=b'9' | b'-' => {
            let end = signed_number_end(b, i)?;
            Some((number_token(&b[i..end])?, end))
        }
        b't' => Some((Token::Bool(true), literal(b, i, b"true")?)),
        b'f' => Some((Token::Bool(false), literal(b, i, b"false")?)),
        b'n' => Some((Token::Null, literal(b, i, b"null")?)),
        b'[' | b'{' => Some((Token::Nested, skip_nested(b, i, 0)?)),
        _ => None,
    }
}

/// The end of a JSON number starting at `i`, with its sign, checked against JSON's grammar.
pub(crate) fn signed_number_end(b: &[u8], i: usize) -> Option<usize> {
    let i = if b.get(i) == Some(&b'-') { i + 1 } else { i };
    if !b.get(i)?.is_ascii_digit() {
        return None;
    }
    number_end(b, i)
}

/// A number token (valid JSON, signed) as serde_json reads it into a scalar: an integer that
/// fits `u64` as an integer (as a double past `i64`, as [`super::jsonl`] keeps it), a negative one as `i64` (`-0` as the
/// double -0.0, as serde_json makes it), anything else as the nearest double.
pub(crate) fn number_token(token: &[u8]) -> Option<Token> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.iter().all(u8::is_ascii_digit) {
        // Eighteen digits always fit an `i64` once negated; past that, and past `u64`,
        // serde_json takes its own path.
        if negative && digits.len() > 18 {
            return None;
        }
        let n = digits.iter().try_fold(0u64, |n, d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))?;
        return Some(match (negative, n) {
            (true, 0) => Token::Float(-0.0),
            (true, n) => Token::Int(-(n as i64)),
            (false, n) => i64::try_from(n).map_or(Token::Float(n as f64), Token::Int),
        });
    }
    let magnitude = number(digits)?;
    Some(Token::Float(if negative { -magnitude } else { magnitude }))
}

/// The index just past the array or object starting at `b[i]`, its grammar checked as
/// serde_json checks a value it ignores: numbers by their grammar only, strings without
/// escapes, objects with string keys (a repeated key inside a nested object is not an error).
fn skip_nested(b: &[u8], i: usize, depth: usize) -> Option<usize> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let object = match b[i] {
        b'{' => true,
        b'[' => false,
        _ => return None,
    };
    let close = if object { b'}' } else { b']' };
    let mut i = skip_ws(b, i + 1);
    if *b.get(i)? == close {
        return Some(i + 1);
    }
    loop {
        if object {
            if *b.get(i)? != b'"' {
                return None;
            }
            i = skip_ws(b, string_end(b, i + 1)? + 1);
            if *b.get(i)? != b':' {
                return None;
            }
            i = skip_ws(b, i + 1);
        }
        i = match *b.get(i)? {
            b'"' => string_end(b, i + 1)? + 1,
            b'0'..=b'9' | b'-' => signed_number_end(b, i)?,
            b't' => literal(b, i, b"true")?,
            b'f' => literal(b, i, b"false")?,
            b'n' => literal(b, i, b"null")?,
            b'[' | b'{' => skip_nested(b, i, depth + 1)?,
            _ => return None,
        };
        i = skip_ws(b, i);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            c if c == close => return Some(i + 1),
            _ => return None,
        }
    }
}

/// A line read straight into `T` (a record type of the evidence: a sample, a trace task, a
/// validation record), as `serde_json::from_str` reads it when that succeeds; `None` where
/// this reader is not sure (a token [`value`] leaves to serde_json) or where `T` refuses the
/// line. The caller then reads the line with serde_json, which gives the value or the error in
/// its own words: so the same line gives the same result through either reader, and this one
/// only spares serde_json's work on the lines it is sure of.
pub(crate) fn from_line<T: serde::de::DeserializeOwned>(line: &str) -> Option<T> {
    let mut de = LineReader { text: line, i: 0, depth: 0 };
    let value = T::deserialize(&mut de).ok()?;
    (skip_ws(line.as_bytes(), de.i) == line.len()).then_some(value)
}

/// Why [`from_line`] gave up; serde_json says why in words.
#[derive(Debug)]
pub(crate) struct Unsure;

impl std::fmt::Display for Unsure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for Unsure {}

impl serde::de::Error for Unsure {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Unsure
    }
}

/// The deserializer [`from_line`] runs over a line, at byte `i`. It hands each token to the
/// visitor the way serde_json does: a non-negative integer as `u64`, a negative one as `i64`,
/// any other number as `f64`, `null` as none or unit.
struct LineReader<'de> {
    text: &'de str,
    i: usize,
    depth: usize,
}

impl<'de> LineReader<'de> {
    fn peek(&mut self) -> Result<u8, Unsure> {
        self.i = skip_ws(self.text.as_bytes(), self.i);
        self.text.as_bytes().get(self.i).copied().ok_or(Unsure)
    }

    /// The string starting at the quote at `i`.
    fn string(&mut self) -> Result<&'de str, Unsure> {
        let end = string_end(self.text.as_bytes(), self.i + 1).ok_or(Unsure)?;
        // Both ends are at a quote: the slice cannot split a character.
        let s = &self.text[self.i + 1..end];
        self.i = end + 1;
        Ok(s)
    }

    fn nested(&mut self) -> Result<(), Unsure> {
        self.depth += 1;
        if self.depth >= MAX_DEPTH { Err(Unsure) } else { Ok(()) }
    }
}

impl<'de> serde::Deserializer<'de> for &mut LineReader<'de> {
    type Error = Unsure;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsure> {
        let b = self.text.as_bytes();
        match self.peek()? {
            b'"' => visitor.visit_borrowed_str(self.string()?),
            b'0'..=b'9' | b'-' => {
                let end = signed_number_end(b, self.i).ok_or(Unsure)?;
                let token = &b[std::mem::replace(&mut self.i, end)..end];
                if token.iter().all(u8::is_ascii_digit) {
                    // Up to `u64::MAX` an integer stays one, as serde_json keeps it.
                    let n = token.iter().try_fold(0u64, |n, d| n.checked_mul(10)?.checked_add(u64::from(d - b'0'))).ok_or(Unsure)?;
                    return visitor.visit_u64(n);
                }
                match number_token(token).ok_or(Unsure)? {
                    Token::Int(n) => visitor.visit_i64(n),
                    Token::Float(f) => visitor.visit_f64(f),
                    _ => Err(Unsure),
                }
            }
            b't' | b'f' | b'n' => {
                for (word, value) in [(&b"true"[..], Some(true)), (b"false", Some(false)), (b"null", None)] {
                    if let Some(end) = literal(b, self.i, word) {
                        self.i = end;
                        return match value {
                            Some(v) => visitor.visit_bool(v),
                            None => visitor.visit_unit(),
                        };
                    }
                }
                Err(Unsure)
            }
            b'[' => {
                self.nested()?;
                self.i += 1;
                let value = visitor.visit_seq(Items { de: &mut *self, first: true })?;
                if self.peek()? != b']' {
                    return Err(Unsure);
                }
                self.i += 1;
                self.depth -= 1;
                Ok(value)
            }
            b'{' => {
                self.nested()?;
                self.i += 1;
                let value = visitor.visit_map(Items { de: &mut *self, first: true })?;
                if self.peek()? != b'}' {
                    return Err(Unsure);
                }
                self.i += 1;
                self.depth -= 1;
                Ok(value)
            }
            _ => Err(Unsure),
        }
    }

    fn deserialize_option<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsure> {
        if self.peek()? == b'n' {
            self.i = literal(self.text.as_bytes(), self.i, b"null").ok_or(Unsure)?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The elements of an array or the entries of an object, after its opening bracket.
struct Items<'a, 'de> {
    de: &'a mut LineReader<'de>,
    first: bool,
}

impl Items<'_, '_> {
    /// Whether another item follows (`close` ends the items), past its comma.
    fn more(&mut self, close: u8) -> Result<bool, Unsure> {
        let c = self.de.peek()?;
        if c == close {
            return Ok(false);
        }
        if self.first {
            self.first = false;
            return Ok(true);
        }
        if c != b',' {
            return Err(Unsure);
        }
        self.de.i += 1;
        // A comma must be followed by an item, never by the closing bracket.
        if self.de.peek()? == close { Err(Unsure) } else { Ok(true) }
    }
}

impl<'de> serde::de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Unsure;
    fn next_element_seed<T: serde::de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Unsure> {
        if !self.more(b']')? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}

impl<'de> serde::de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Unsure;
    fn next_key_seed<K: serde::de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Unsure> {
        if !self.more(b'}')? {
            return Ok(None);
        }
        if self.de.peek()? != b'"' {
            return Err(Unsure);
        }
        let key = self.de.string()?;
        if self.de.peek()? != b':' {
            return Err(Unsure);
        }
        self.de.i += 1;
        seed.deserialize(serde::de::value::BorrowedStrDeserializer::new(key)).map(Some)
    }
    fn next_value_seed<V: serde::de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Unsure> {
        seed.deserialize(&mut *self.de)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        for _ in 0..200_000 {
            let digits: String = (0..rng.random_range(1..25)).map(|_| char::from(b'0' + rng.random_range(0..10u8))).collect();
            let digits = digits.trim_start_matches('0');
            let int = if digits.is_empty() { "0" } else { digits };
            let token = match rng.random_range(0..4) {
                0 => int.to_string(),
                1 => format!("{int}.{}", rng.random_range(0..1_000_000_000u64)),
                2 => format!("{int}e{}", rng.random_range(-40..40)),
                _ => format!("{}.{:06}E+{}", rng.random_range(0..1000), rng.random_range(0..1_000_000), rng.random_range(0..30)),
            };
            let expected = serde_json::from_str::<serde_json::Value>(&token).unwrap();
            let expected = expected.as_i64().map_or_else(|| expected.as_f64().unwrap(), |i| i as f64);
            if let Some(got) = number(token.as_bytes()) {
                assert_eq!(got.to_bits(), expected.to_bits(), "{token}");
            }
        }
        assert_eq!(number(b"24.577"), Some(24.577));
        assert_eq!(number(b"1e400"), None);
    }

    /// A value token read here is the scalar serde_json reads, bit for bit, or is left to it.
    #[test]
    fn value_tokens_read_as_serde_json_reads_them() {
        let cases = [
            "0",
            "-0",
            "7",
            "-7",
            "9223372036854775807",
            "9223372036854775808",
            "9999999999999999999",
            "-999999999999999999",
            "18446744073709551615",
            "18446744073709551616",
            "14098299565570749605",
            "-0.0",
            "-1.5e3",
            "2.5E-2",
            "1e400",
            "-1e-400",
            "0.30000000000000004",
            "true",
            "false",
            "null",
            "\"a b\"",
            "\"é\"",
            "[]",
            "{}",
            "[1, -2.5e9, [\"x\", {\"k\": null}]]",
            "{\"a\":1,\"a\":2}",
        ];
        for text in cases {
            let line = format!("{{\"v\":{text}}}");
            let read = value(text.as_bytes(), 0);
            let Ok(map) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&line) else {
                assert_eq!(read, None, "{text}: serde_json refuses it");
                continue;
            };
            let expected = map["v"].clone();
            let Some((token, end)) = read else {
                continue;
            };
            assert_eq!(end, text.len(), "{text}");
            let same = match (token, &expected) {
                (Token::Str(a, e), serde_json::Value::String(s)) => &text[a..e] == s,
                (Token::Int(i), serde_json::Value::Number(n)) => n.as_i64() == Some(i),
                (Token::Float(f), serde_json::Value::Number(n)) => {
                    n.is_f64() && n.as_f64().map(f64::to_bits) == Some(f.to_bits()) || n.as_u64().is_some_and(|u| u as f64 == f && u > i64::MAX as u64)
                }
                (Token::Bool(x), serde_json::Value::Bool(y)) => x == *y,
                (Token::Null, serde_json::Value::Null) => true,
                (Token::Nested, serde_json::Value::Array(_) | serde_json::Value::Object(_)) => true,
                _ => false,
            };
            assert!(same, "{text}: {token:?} against {expected:?}");
        }
        for refused in ["01", "-", "1.", ".5", "1e", "tru", "\"a\\\"b\"", "[1,]", "{\"a\"}", "[\"\u{1}\"]", "+1"] {
            assert!(value(refused.as_bytes(), 0).is_none_or(|(_, end)| end < refused.len()), "{refused}");
        }
    }

    #[test]
    fn nesting_past_the_limit_is_left_to_serde_json() {
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(value(deep.as_bytes(), 0), None);
        let shallow = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert_eq!(value(shallow.as_bytes(), 0), Some((Token::Nested, shallow.len())));
    }
}
