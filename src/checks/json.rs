//! `json`: a value at a path in a JSON or TOML evidence file.
//!
//! What it does: reads `file` (TOML when it ends in `.toml`, JSON otherwise), follows `path`
//! (dotted keys with `[i]` indexes, such as `kernels[2].registers` or
//! `graphs.three-kernel.nodes.kernel`) and yields the number found there. With `equals` the
//! value must equal it instead (for strings and booleans).
//!
//! Why: node counts, register counts and occupancy are recorded by the run; a sentence that
//! quotes them should read them from there.
//!
//! ```toml
//! [[claim.check]]
//! kind = "json"
//! number = "3"
//! file = "evidence/runs/r1/graphs/nodes.json"
//! path = "pointwise.three-kernel.kernel"
//! ```
//! Fails as `expected 4, observed 3` or `no key `nodes` at graphs.three-kernel`.

use std::ops::Range;

use serde::Deserialize;
use serde_json::Value;
use toml::Spanned;

use super::{Context, Observation};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub file: Spanned<String>,
    pub path: Spanned<String>,
    #[serde(default)]
    pub equals: Option<toml::Value>,
}

/// One step of a path.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.file.get_ref().as_str()]
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        steps(self.path.get_ref()).map(|_| ()).map_err(|m| (m, self.path.span()))
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let file = self.file.get_ref();
        let value = lookup(ctx, &self.file, &self.path)?;
        let at = &value;
        let mut problems = Vec::new();
        if let Some(want) = &self.equals {
            let want_json = serde_json::to_value(want).unwrap_or(Value::Null);
            if *at != want_json {
                problems.push(format!("{file}: {} is {at}, expected {want_json}", self.path.get_ref()));
            }
        }
        Ok(Observation { value: at.as_f64(), unit: None, problems, detail: format!("{} in {file} is {at}", self.path.get_ref()), band: None })
    }
}

/// A number at a path of a JSON or TOML file, as an `arith` variable.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Query {
    pub file: Spanned<String>,
    pub path: Spanned<String>,
}

impl Query {
    pub(crate) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        steps(self.path.get_ref()).map(|_| ()).map_err(|m| (m, self.path.span()))
    }

    pub(crate) fn number(&self, ctx: &Context<'_>) -> Result<f64, Diagnostic> {
        let v = lookup(ctx, &self.file, &self.path)?;
        v.as_f64().ok_or_else(|| ctx.error_at(format!("{}: {} is {v}, not a number", self.file.get_ref(), self.path.get_ref()), self.path.span(), "not a number"))
    }
}

/// The value at `path` in `file` (TOML when it ends in `.toml`, JSON otherwise).
fn lookup(ctx: &Context<'_>, file_name: &Spanned<String>, path: &Spanned<String>) -> Result<Value, Diagnostic> {
    let file = file_name.get_ref();
    // Each document is parsed once per process, whichever registry or check reads it, and the
    // audit parses the documents its checks name ahead of them, on every core.
    let root = ctx.evidence.document(file).map_err(|e| ctx.locate(file_name, e))?;
    let root: &Value = &root;
    let steps = steps(path.get_ref()).map_err(|m| ctx.error_at(m, path.span(), "here"))?;
    let mut at = root;
    let mut walked = String::new();
    for step in &steps {
        let next = match step {
            Step::Key(k) => at.get(k.as_str()),
            Step::Index(i) => at.get(*i),
        };
        let Some(next) = next else {
            let what = match step {
                Step::Key(k) => format!("no key `{k}`"),
                Step::Index(i) => format!("no index [{i}]"),
            };
            let place = if walked.is_empty() { "the top".to_string() } else { walked.clone() };
            return Err(ctx.error_at(format!("{file}: {what} at {place}"), path.span(), "this path"));
        };
        match step {
            Step::Key(k) if walked.is_empty() => walked.push_str(k),
            Step::Key(k) => walked.push_str(&format!(".{k}")),
            Step::Index(i) => walked.push_str(&format!("[{i}]")),
        }
        at = next;
    }
    Ok(at.clone())
}

fn steps(path: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() && out.is_empty() && rest.is_empty() {
            return Err(format!("bad path `{path}`: empty key"));
        }
        if !key.is_empty() {
            out.push(Step::Key(key.to_string()));
        }
        while !rest.is_empty() {
            let close = rest.find(']').ok_or(format!("bad path `{path}`: `[` without `]`"))?;
            let index = rest[1..close].parse().map_err(|_| format!("bad path `{path}`: `{}` is not an index", &rest[1..close]))?;
            out.push(Step::Index(index));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(format!("bad path `{path}`: unexpected `{rest}`"));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};

    const KERNELS: &str = r#"{"kernels":[{"name":"a","registers":32},{"name":"b","registers":40}],"graph":{"nodes":{"kernel":3}}}"#;

    #[test]
    fn follows_keys_and_indexes() {
        let f = Fixture::new(&[("k.json", KERNELS)]);
        let obs = f.observe(&check_toml("kind = \"json\"\nfile = \"k.json\"\npath = \"kernels[1].registers\"")).unwrap();
        assert_eq!(obs.value, Some(40.0));
        let obs = f.observe(&check_toml("kind = \"json\"\nfile = \"k.json\"\npath = \"graph.nodes.kernel\"")).unwrap();
        assert_eq!(obs.value, Some(3.0));
    }

    #[test]
    fn a_missing_key_names_where_it_stopped() {
        let f = Fixture::new(&[("k.json", KERNELS)]);
        let err = f.observe(&check_toml("kind = \"json\"\nfile = \"k.json\"\npath = \"graph.edges\"")).unwrap_err();
        assert!(err.message.contains("no key `edges` at graph"), "{}", err.message);
    }

    #[test]
    fn equals_compares_strings() {
        let f = Fixture::new(&[("k.json", KERNELS)]);
        let obs = f.observe(&check_toml("kind = \"json\"\nfile = \"k.json\"\npath = \"kernels[0].name\"\nequals = \"b\"")).unwrap();
        assert_eq!(obs.problems.len(), 1);
    }

    #[test]
    fn reads_toml_files() {
        let f = Fixture::new(&[("a.toml", "[run]\nid = \"r1\"\nrounds = 21\n")]);
        let obs = f.observe(&check_toml("kind = \"json\"\nfile = \"a.toml\"\npath = \"run.rounds\"")).unwrap();
        assert_eq!(obs.value, Some(21.0));
    }

    #[test]
    fn a_bad_path_is_refused_when_read() {
        assert!(parse_error("kind = \"json\"\nfile = \"k.json\"\npath = \"a[x]\"").contains("not an index"));
    }
}
