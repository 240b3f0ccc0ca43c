//! Helpers for the kinds' unit tests: a temporary root with files, and a check read from a
//! TOML snippet the way a registry reads it.

use super::{Check, Context, Observation};
use crate::article::Article;
use crate::diagnostic::Diagnostic;
use crate::evidence::store::Evidence;
use crate::paths::Root;

pub(crate) struct Fixture {
    _dir: tempfile::TempDir,
    pub evidence: Evidence,
    pub article: Article,
}

impl Fixture {
    pub(crate) fn new(files: &[(&str, &str)]) -> Fixture {
        Fixture::with_article("# T\n\nOne sentence here. Another one.\n", files)
    }

    pub(crate) fn with_article(article: &str, files: &[(&str, &str)]) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        let root = Root::new(dir.path()).unwrap();
        let article = Article::parse("a.md", article.as_bytes()).unwrap();
        Fixture { _dir: dir, evidence: Evidence::new(root), article }
    }

    pub(crate) fn observe(&self, check: &Check) -> Result<Observation, Diagnostic> {
        let ctx = Context::new(&self.evidence, &self.article, &[], "claims/t.toml", "");
        check.kind.observe(&ctx, None)
    }
}

/// Reads a check from the body of one `[[claim.check]]` table.
pub(crate) fn check_toml(body: &str) -> Check {
    let tree = toml::de::DeTable::parse(body).unwrap();
    let value = toml::Spanned::new(tree.span(), toml::de::DeValue::Table(tree.into_inner()));
    match super::parse(&value) {
        Ok(c) => c,
        Err(super::ParseError::Toml(e)) => panic!("{e}"),
        Err(super::ParseError::At { message, .. }) => panic!("{message}"),
    }
}

/// The message of a check table that does not parse.
pub(crate) fn parse_error(body: &str) -> String {
    let tree = toml::de::DeTable::parse(body).unwrap();
    let value = toml::Spanned::new(tree.span(), toml::de::DeValue::Table(tree.into_inner()));
    match super::parse(&value) {
        Ok(_) => panic!("parsed"),
        Err(super::ParseError::Toml(e)) => e.message().to_string(),
        Err(super::ParseError::At { message, .. }) => message,
    }
}
