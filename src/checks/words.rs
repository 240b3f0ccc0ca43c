//! `words`: the article's length in words.
//!
//! What it does: counts the whitespace-delimited words of the article's prose, as a reader
//! reads it (sentences and headings; code blocks and Markdown syntax do not count). Yields the
//! count for a quoted number, and checks `min` and `max` where given.
//!
//! Why: a brief that asks for 1,200–1,800 words, or a sentence that says how long the piece
//! is, can be checked rather than estimated.
//!
//! ```toml
//! [[claim.check]]
//! kind = "words"
//! min = 1200
//! max = 1800
//! ```
//! Fails as `the article has 1,950 words, more than 1800`.

use serde::Deserialize;

use super::{Context, Observation};
use crate::article::numbers::Quoted;
use crate::diagnostic::Diagnostic;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    #[serde(default)]
    pub min: Option<usize>,
    #[serde(default)]
    pub max: Option<usize>,
}

impl Spec {
    /// The root-relative files this check reads.
    pub(super) fn files(&self) -> Vec<&str> {
        vec![]
    }

    /// Nothing to check before files are read.
    pub(super) fn validate(&self) -> Result<(), (String, std::ops::Range<usize>)> {
        Ok(())
    }

    pub(super) fn observe(&self, ctx: &Context<'_>, _quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let n = ctx.article.word_count;
        let mut problems = Vec::new();
        if let Some(min) = self.min.filter(|m| n < *m) {
            problems.push(format!("the article has {n} words, fewer than {min}"));
        }
        if let Some(max) = self.max.filter(|m| n > *m) {
            problems.push(format!("the article has {n} words, more than {max}"));
        }
        Ok(Observation { value: Some(n as f64), unit: None, problems, detail: format!("{n} words of prose"), band: None })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml};

    #[test]
    fn counts_prose_words_only() {
        let f = Fixture::with_article("# Two words\n\nThree more here.\n\n```\nnot counted at all\n```\n", &[]);
        let obs = f.observe(&check_toml("kind = \"words\"")).unwrap();
        assert_eq!(obs.value, Some(5.0));
    }

    #[test]
    fn bounds_are_enforced() {
        let f = Fixture::with_article("One two three.\n", &[]);
        assert!(f.observe(&check_toml("kind = \"words\"\nmin = 4")).unwrap().problems[0].contains("fewer than 4"));
        assert!(f.observe(&check_toml("kind = \"words\"\nmax = 2")).unwrap().problems[0].contains("more than 2"));
        assert!(f.observe(&check_toml("kind = \"words\"\nmin = 3\nmax = 3")).unwrap().problems.is_empty());
    }
}
