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

use std::ops::Range;
use std::sync::OnceLock;

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
    /// The pattern compiled, filled when the check is validated as its registry is read, so
    /// that running it (and running each copy of the registry, which clones the spec and so
    /// shares the compiled program) never compiles it again. Compiling costs more than the
    /// search.
    #[serde(skip)]
    regex: OnceLock<Regex>,
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

    /// The compiled pattern: compiled the first time it is asked for, kept in the spec.
    fn regex(&self) -> Result<&Regex, (String, Range<usize>)> {
        if let Some(regex) = self.regex.get() {
            return Ok(regex);
        }
        let regex = Regex::new(self.pattern.get_ref()).map_err(|e| (format!("bad pattern: {e}"), self.pattern.span()))?;
        Ok(self.regex.get_or_init(|| regex))
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let regex = self.regex().map_err(|(m, s)| ctx.error_at(m, s, "here"))?;
        let text = ctx.read_text(&self.file)?;
        // Counted once per process for every check (and every copy of a registry) that looks
        // for this pattern in this file.
        let key = format!("matches of {:?} in {:?}", self.pattern.get_ref(), self.file.get_ref());
        let found = *ctx.evidence.derived(&key, || regex.find_iter(&text).count());
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

    /// Reading the check compiles its pattern into the spec, and running it uses that program:
    /// nothing compiles the pattern again (no map outside the spec).
    #[test]
    fn the_pattern_is_compiled_once_when_the_check_is_read() {
        let check = check_toml("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"__syncthreads\"");
        let super::super::Kind::Contains(spec) = &check.kind else { panic!("not a contains check: {check:?}") };
        let compiled = spec.regex.get().expect("compiled when read") as *const regex::Regex;
        let f = Fixture::new(&[("k.cu", SRC)]);
        assert_eq!(f.observe(&check).unwrap().value, Some(2.0));
        assert_eq!(spec.regex.get().unwrap() as *const regex::Regex, compiled);
    }

    #[test]
    fn a_bad_regex_is_refused_when_read() {
        assert!(parse_error("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"(\"").contains("bad pattern"));
    }
}
