//! `where`: a filter over evidence records, beside `select`'s equalities. It reads comparisons
//! of a field with a value (`==`, `!=`, `<`, `<=`, `>`, `>=`), joined by `and`, `or` and `not`,
//! with parentheses; values are numbers, quoted strings (`'groq'` or `"groq"`), `true`, `false`
//! and `null`. A field a record lacks is `null`. It is data, never code: nothing but these
//! comparisons can be written, and its size and depth are bounded.
//!
//! ```toml
//! where = "error_code == null and provider == 'groq'"
//! ```

use std::ops::Range;

use crate::evidence::jsonl::{Jsonl, Record, Scalar};

/// The longest filter read, in characters, and the deepest nesting.
const MAX_LEN: usize = 4096;
const MAX_DEPTH: usize = 32;

/// A parsed filter.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Filter {
    And(Box<Filter>, Box<Filter>),
    Or(Box<Filter>, Box<Filter>),
    Not(Box<Filter>),
    Compare(String, Op, Value),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
}

/// A syntax error with its place in the filter's text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FilterError {
    pub message: String,
    pub at: Range<usize>,
}

impl Filter {
    /// Parses `text`; an error names the place it stops making sense.
    pub(crate) fn parse(text: &str) -> Result<Filter, FilterError> {
        if text.len() > MAX_LEN {
            return Err(FilterError { message: format!("a filter of {} characters is longer than the {MAX_LEN} read", text.len()), at: 0..0 });
        }
        let tokens = tokenize(text)?;
        let mut p = Parser { tokens, pos: 0, depth: 0, len: text.len() };
        let filter = p.or()?;
        match p.tokens.get(p.pos) {
            None => Ok(filter),
            Some((_, at)) => Err(FilterError { message: "expected `and`, `or` or the end".into(), at: at.clone() }),
        }
    }

    /// Whether `record` of `jsonl` passes.
    pub(crate) fn accepts(&self, jsonl: &Jsonl, record: &Record) -> bool {
        match self {
            Filter::And(a, b) => a.accepts(jsonl, record) && b.accepts(jsonl, record),
            Filter::Or(a, b) => a.accepts(jsonl, record) || b.accepts(jsonl, record),
            Filter::Not(a) => !a.accepts(jsonl, record),
            Filter::Compare(field, op, value) => compare(jsonl, jsonl.get(record, field), *op, value),
        }
    }
}

fn compare(jsonl: &Jsonl, found: Option<Scalar>, op: Op, value: &Value) -> bool {
    use std::cmp::Ordering;
    let ordering: Option<Ordering> = match (found, value) {
        (None | Some(Scalar::Null), Value::Null) => Some(Ordering::Equal),
        (None | Some(Scalar::Null), _) | (_, Value::Null) => None,
        (Some(Scalar::Bool(a)), Value::Bool(b)) => Some(a.cmp(b)),
        (Some(Scalar::Int(a)), Value::Number(b)) => (a as f64).partial_cmp(b),
        (Some(Scalar::Float(a)), Value::Number(b)) => a.partial_cmp(b),
        (Some(s @ Scalar::Str(_)), Value::Text(b)) => jsonl.str(s).map(|a| a.cmp(b.as_str())),
        _ => None,
    };
    match (op, ordering) {
        // Values of different kinds, or a null against a value, are unequal and unordered.
        (Op::Ne, None) => true,
        (_, None) => false,
        (Op::Eq, Some(o)) => o == Ordering::Equal,
        (Op::Ne, Some(o)) => o != Ordering::Equal,
        (Op::Lt, Some(o)) => o == Ordering::Less,
        (Op::Le, Some(o)) => o != Ordering::Greater,
        (Op::Gt, Some(o)) => o == Ordering::Greater,
        (Op::Ge, Some(o)) => o != Ordering::Less,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Op(Op),
    Text(String),
    Number(f64),
    Open,
    Close,
}

fn tokenize(text: &str) -> Result<Vec<(Token, Range<usize>)>, FilterError> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    let end_of = |j: usize| chars.get(j).map_or(text.len(), |(b, _)| *b);
    while i < chars.len() {
        let (start, c) = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let (token, next) = match c {
            '(' => (Token::Open, i + 1),
            ')' => (Token::Close, i + 1),
            '\'' | '"' => {
                let close = chars[i + 1..].iter().position(|(_, d)| *d == c).map(|p| i + 1 + p);
                let Some(close) = close else {
                    return Err(FilterError { message: "a string that never closes".into(), at: start..text.len() });
                };
                (Token::Text(text[end_of(i + 1)..chars[close].0].to_string()), close + 1)
            }
            '=' | '!' | '<' | '>' => {
                let two = chars.get(i + 1).is_some_and(|(_, d)| *d == '=');
                let op = match (c, two) {
                    ('=', true) => Op::Eq,
                    ('!', true) => Op::Ne,
                    ('<', true) => Op::Le,
                    ('>', true) => Op::Ge,
                    ('<', false) => Op::Lt,
                    ('>', false) => Op::Gt,
                    _ => return Err(FilterError { message: "expected `==` or `!=`".into(), at: start..end_of(i + 1) }),
                };
                (Token::Op(op), if two { i + 2 } else { i + 1 })
            }
            c if c.is_ascii_digit() || c == '-' || c == '.' => {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].1.is_ascii_alphanumeric() || matches!(chars[j].1, '.' | '-' | '+')) {
                    j += 1;
                }
                let word = &text[start..end_of(j)];
                let n: f64 = word.parse().map_err(|_| FilterError { message: format!("`{word}` is not a number"), at: start..end_of(j) })?;
                (Token::Number(n), j)
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].1.is_alphanumeric() || matches!(chars[j].1, '_' | '.' | '-')) {
                    j += 1;
                }
                (Token::Word(text[start..end_of(j)].to_string()), j)
            }
            other => return Err(FilterError { message: format!("unexpected `{other}`"), at: start..end_of(i + 1) }),
        };
        out.push((token, start..end_of(next)));
        i = next;
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<(Token, Range<usize>)>,
    pos: usize,
    depth: usize,
    len: usize,
}

impl Parser {
    fn word(&self, w: &str) -> bool {
        matches!(self.tokens.get(self.pos), Some((Token::Word(x), _)) if x == w)
    }

    fn here(&self) -> Range<usize> {
        self.tokens.get(self.pos).map_or(self.len..self.len, |(_, at)| at.clone())
    }

    fn deeper(&mut self) -> Result<(), FilterError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(FilterError { message: format!("a filter nested deeper than {MAX_DEPTH} levels"), at: self.here() });
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Filter, FilterError> {
        let mut left = self.and()?;
        while self.word("or") {
            self.pos += 1;
            left = Filter::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Filter, FilterError> {
        let mut left = self.not()?;
        while self.word("and") {
            self.pos += 1;
            left = Filter::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Filter, FilterError> {
        if self.word("not") {
            self.pos += 1;
            self.deeper()?;
            let inner = self.not()?;
            self.depth -= 1;
            return Ok(Filter::Not(Box::new(inner)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Filter, FilterError> {
        let at = self.here();
        match self.tokens.get(self.pos).cloned() {
            Some((Token::Open, _)) => {
                self.pos += 1;
                self.deeper()?;
                let inner = self.or()?;
                self.depth -= 1;
                if !matches!(self.tokens.get(self.pos), Some((Token::Close, _))) {
                    return Err(FilterError { message: "expected `)`".into(), at: self.here() });
                }
                self.pos += 1;
                Ok(inner)
            }
            Some((Token::Word(field), _)) if !matches!(field.as_str(), "and" | "or" | "not" | "null" | "true" | "false") => {
                self.pos += 1;
                let Some((Token::Op(op), _)) = self.tokens.get(self.pos).cloned() else {
                    return Err(FilterError { message: format!("expected a comparison after `{field}` (==, !=, <, <=, >, >=)"), at: self.here() });
                };
                self.pos += 1;
                let value = match self.tokens.get(self.pos).cloned() {
                    Some((Token::Number(n), _)) => Value::Number(n),
                    Some((Token::Text(t), _)) => Value::Text(t),
                    Some((Token::Word(w), _)) if w == "null" => Value::Null,
                    Some((Token::Word(w), _)) if w == "true" => Value::Bool(true),
                    Some((Token::Word(w), _)) if w == "false" => Value::Bool(false),
                    _ => return Err(FilterError { message: "expected a value: a number, a quoted string, true, false or null".into(), at: self.here() }),
                };
                self.pos += 1;
                Ok(Filter::Compare(field, op, value))
            }
            _ => Err(FilterError { message: "expected a field name, `not` or `(`".into(), at }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passing(filter: &str, lines: &str) -> Vec<usize> {
        let j = Jsonl::parse("s.jsonl", lines.as_bytes()).unwrap();
        let f = Filter::parse(filter).unwrap();
        j.records.iter().filter(|r| f.accepts(&j, r)).map(|r| r.line).collect()
    }

    const LINES: &str = "{\"p\":\"groq\",\"error_code\":null,\"t\":1.5}\n{\"p\":\"groq\",\"error_code\":429,\"t\":0}\n{\"p\":\"bedrock\",\"t\":2}\n";

    #[test]
    fn comparisons_join_with_and_or_not() {
        assert_eq!(passing("error_code == null and p == 'groq'", LINES), [1]);
        assert_eq!(passing("error_code == null", LINES), [1, 3]);
        assert_eq!(passing("not (p == \"groq\") or t >= 1.5", LINES), [1, 3]);
        assert_eq!(passing("error_code != null", LINES), [2]);
        assert_eq!(passing("t > 0 and t < 2", LINES), [1]);
    }

    #[test]
    fn a_malformed_filter_is_an_error_at_its_place() {
        let e = Filter::parse("p == 'groq' and").unwrap_err();
        assert_eq!(e.at, 15..15);
        let e = Filter::parse("p = 'groq'").unwrap_err();
        assert!(e.message.contains("=="), "{e:?}");
        assert!(Filter::parse("p == 'open").unwrap_err().message.contains("never closes"));
        assert!(Filter::parse(&format!("{}p == 1{}", "(".repeat(100), ")".repeat(100))).unwrap_err().message.contains("deeper"));
        assert!(Filter::parse(&"p == 1 and ".repeat(1000)).is_err());
    }
}
