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
//!
//! A number in a text report (a load generator's log, a profiler's summary) is read the same
//! way: a pattern with a group named `value` yields the number that group captures, in the
//! unit written after it, instead of a count, so the quoted number is judged against it as
//! against any statistic. The pattern must match once, or `take = "first"` or `"last"` says
//! which match is meant (a log that prints progress before its total).
//!
//! ```toml
//! [[claim.check]]
//! kind = "contains"
//! number = "13397.9"
//! file = "evidence/loadgen.txt"
//! pattern = "rps=(?P<value>[0-9.]+)"
//! take = "last"
//! ```

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
    /// Which match a `value` group is read from where the pattern matches more than once.
    #[serde(default)]
    pub take: Option<Spanned<Take>>,
    /// The pattern compiled, filled when the check is validated as its registry is read, so
    /// that running it (and running each copy of the registry, which clones the spec and so
    /// shares the compiled program) never compiles it again. Compiling costs more than the
    /// search.
    #[serde(skip)]
    regex: OnceLock<Regex>,
}

/// Which match of several a value is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Take {
    First,
    Last,
}

/// The capture group a value is read from.
const VALUE_GROUP: &str = "value";

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![self.file.get_ref().as_str()]
    }

    pub(super) fn validate(&self) -> Result<(), (String, Range<usize>)> {
        let reads_value = self.regex()?.capture_names().any(|n| n == Some(VALUE_GROUP));
        if self.absent && self.count.is_some_and(|c| c > 0) {
            return Err(("`absent = true` contradicts a non-zero `count`".into(), self.pattern.span()));
        }
        if reads_value && (self.absent || self.count.is_some()) {
            return Err(("a pattern with a `value` group reads a number, not a count: drop `absent` and `count`".into(), self.pattern.span()));
        }
        if let Some(take) = self.take.as_ref().filter(|_| !reads_value) {
            return Err(("`take` says which match a `value` group is read from, and the pattern has none: name a group `(?P<value>…)`".into(), take.span()));
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
        if regex.capture_names().any(|n| n == Some(VALUE_GROUP)) {
            return Ok(self.value(regex, &text));
        }
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
        Ok(Observation { value: Some(found as f64), unit: None, problems, detail: format!("{found} matches in {file}"), band: None })
    }

    /// The number the `value` group captures in the match `take` names (the only one without
    /// it), with the unit written with it. A file that holds no such match, or several where
    /// one is meant, or a capture that is not one number, is a finding of the check, not bad
    /// input: the report it reads may have changed.
    fn value(&self, regex: &Regex, text: &str) -> Observation {
        let (pattern, file) = (self.pattern.get_ref(), self.file.get_ref());
        let captures: Vec<regex::Captures<'_>> = regex.captures_iter(text).collect();
        let failed = |problem: String| Observation { value: None, unit: None, problems: vec![problem.clone()], detail: problem, band: None };
        let chosen = match (self.take.as_ref().map(|t| *t.get_ref()), captures.as_slice()) {
            (_, []) => return failed(format!("`{pattern}` does not occur in {file}")),
            (None, [one]) => one,
            (None, many) => {
                return failed(format!("`{pattern}` matched {} times in {file}; say which match the number is read from with `take = \"first\"` or `\"last\"`", many.len()));
            }
            (Some(Take::First), all) => &all[0],
            (Some(Take::Last), all) => &all[all.len() - 1],
        };
        let Some(group) = chosen.name(VALUE_GROUP) else { return failed(format!("the `value` group of `{pattern}` took no part in its match in {file}")) };
        let line = text[..group.start()].matches('\n').count() + 1;
        match crate::article::numbers::parse_one(group.as_str()) {
            Ok(n) => Observation { value: Some(n.value), unit: n.unit.clone(), problems: Vec::new(), detail: format!("`{}` read at {file}:{line}", group.as_str()), band: None },
            Err(why) => failed(format!("the `value` group read `{}` at {file}:{line}, which is no number: {why}", group.as_str())),
        }
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

    const LOG: &str = "warmup rps=9120.4\nrps=12876.0 p99=4.1ms\ndone: rps=13397.9 total 26956.76ms\n";

    #[test]
    fn a_value_group_reads_the_number_of_the_match_it_names() {
        let f = Fixture::new(&[("load.txt", LOG)]);
        let check = |extra: &str| check_toml(&format!("kind = \"contains\"\nnumber = \"13397.9\"\nfile = \"load.txt\"\npattern = \"rps=(?P<value>[0-9.]+)\"\n{extra}"));
        let obs = f.observe(&check("take = \"last\"")).unwrap();
        assert_eq!((obs.value, obs.problems.len()), (Some(13397.9), 0), "{obs:?}");
        assert!(obs.detail.contains("load.txt:3"), "{}", obs.detail);
        assert_eq!(f.observe(&check("take = \"first\"")).unwrap().value, Some(9120.4));
        // Three matches and no `take`: which is meant is not guessed.
        let obs = f.observe(&check("")).unwrap();
        assert!(obs.value.is_none() && obs.problems[0].contains("matched 3 times"), "{obs:?}");
        // The unit written after the digits comes with them.
        let total = check_toml("kind = \"contains\"\nnumber = \"26.96 s\"\nfile = \"load.txt\"\npattern = \"total (?P<value>[0-9.]+ms)\"");
        let obs = f.observe(&total).unwrap();
        assert_eq!((obs.value, obs.unit), (Some(26956.76), Some(crate::article::numbers::Unit::Ms)));
        let none = check_toml("kind = \"contains\"\nfile = \"load.txt\"\npattern = \"qps=(?P<value>[0-9.]+)\"");
        assert!(f.observe(&none).unwrap().problems[0].contains("does not occur"));
    }

    #[test]
    fn a_value_group_reads_no_count_and_take_needs_one() {
        let with = "kind = \"contains\"\nfile = \"k\"\npattern = \"x(?P<value>[0-9]+)\"\n";
        assert!(parse_error(&format!("{with}count = 2")).contains("reads a number, not a count"));
        assert!(parse_error(&format!("{with}absent = true")).contains("reads a number, not a count"));
        assert!(parse_error("kind = \"contains\"\nfile = \"k\"\npattern = \"x\"\ntake = \"last\"").contains("has none"));
        assert!(parse_error(&format!("{with}take = \"middle\"")).contains("unknown variant"));
    }

    #[test]
    fn a_bad_regex_is_refused_when_read() {
        assert!(parse_error("kind = \"contains\"\nfile = \"k.cu\"\npattern = \"(\"").contains("bad pattern"));
    }
}
