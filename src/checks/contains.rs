//! `contains`: a pattern in a file of the repository (kernel source, PTX, a graph's DOT).
//!
//! What it does: counts the matches of the regular expression `pattern` in `file`. With
//! `absent = true` the pattern must not match; with `count` it must match exactly that often;
//! otherwise at least once. Yields the number of matches, so a quoted count can be checked.
//!
//! Why: sentences such as "the fused kernel reads each row once" or "the PTX has no local
//! memory" are claims about code, and code can be searched.
//!
//! ```toml
//! [[claim.check]]
//! kind = "contains"
//! file = "kernels/softmax.cu"
//! pattern = "__syncthreads\\(\\)"
//! count = 4
//! ```
//! Fails as `pattern matched 3 times, expected 4`.

use std::collections::HashMap;
use std::ops::Range;

use regex::Regex;
use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub file: Spanned<String>,
    pub pattern: Spanned<String>,
    #[serde(default)]
    pub absent: bool,
    #[serde(default)]
    pub count: Option<usize>,
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.file.get_ref().as_str()]
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        self.regex().map(|_| ())?;
        if self.absent && self.count.is_some_and(|c| c > 0) {
            return Err(("`absent = true` contradicts a non-zero `count`".into(), self.pattern.span()));
        }
        Ok(())
    }

    fn regex(&self) -> Result<Regex, (String, Range<usize>)> {
        compiled(self.pattern.get_ref()).map_err(|e| (format!("bad pattern: {e}"), self.pattern.span()))
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let regex = self.regex().map_err(|(m, s)| ctx.error_at(m, s, "here"))?;
        let text = ctx.read_text(&self.file)?;
        let found = regex.find_iter(&text).count();
        let mut problems = Vec::new();
        let pattern = self.pattern.get_ref();
        let file = self.file.get_ref();
        match (self.absent, self.count) {
            (true, _) if found > 0 => problems.push(format!("`{pattern}` must not occur in {file}, but matched {found} times")),
            (false, Some(want)) if found != want => problems.push(format!("`{pattern}` matched {found} times in {file}, expected {want}")),
            (false, None) if found == 0 => problems.push(format!("`{pattern}` does not occur in {file}")),
            _ => {}
        }
        Ok(Observation { value: Some(found as f64), unit: None, problems, detail: format!("{found} matches in {file}") })
    }
}


/// The pattern compiled, once per process: a check's pattern is compiled when it is validated
/// and again when it runs, and each copy of a registry asks for the same ones; compiling costs
/// more than the search. (`Regex` is a handle: a clone shares the compiled program.)
fn compiled(pattern: &str) -> Result<Regex, regex::Error> {
    static COMPILED: std::sync::LazyLock<std::sync::Mutex<HashMap<String, Regex>>> = std::sync::LazyLock::new(Default::default);
    let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(regex) = compiled.get(pattern) {
        return Ok(regex.clone());
    }
    let regex = Regex::new(pattern)?;
    compiled.insert(pattern.to_string(), regex.clone());
    Ok(regex)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml, parse_error};

    const SRC: &str = "__syncthreads();\nx = y;\n__syncthreads();\n";

    #[test]
    fn counts_matches() {
        let f = Fixture::new(&[("k.cu", SRC)]);
        let obs = f.observe(&check_toml("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"__syncthreads\"\ncount = 2")).unwrap();
        assert!(obs.problems.is_empty());
        assert_eq!(obs.value, Some(2.0));
        let obs = f.observe(&check_toml("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"__syncthreads\"\ncount = 3")).unwrap();
        assert_eq!(obs.problems.len(), 1);
    }

    #[test]
    fn absent_fails_when_present() {
        let f = Fixture::new(&[("k.cu", SRC)]);
        let obs = f.observe(&check_toml("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"x = y\"\nabsent = true")).unwrap();
        assert!(obs.problems[0].contains("must not occur"));
        let obs = f.observe(&check_toml("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"local\"\nabsent = true")).unwrap();
        assert!(obs.problems.is_empty());
    }

    #[test]
    fn a_pattern_that_never_matches_fails() {
        let f = Fixture::new(&[("k.cu", SRC)]);
        let obs = f.observe(&check_toml("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"grid.sync\"")).unwrap();
        assert!(obs.problems[0].contains("does not occur"));
    }

    #[test]
    fn a_bad_regex_is_refused_when_read() {
        assert!(parse_error("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"(\"").contains("bad pattern"));
    }
}
