//! A primary source a registry cites (`[[source]]`). A leaf: the checks read sources (`cited`)
//! without depending on the rest of the registry, which depends on them.

use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Source {
    pub key: Spanned<String>,
    pub title: String,
    pub url: String,
    /// What the source says and in what scope, in the registry's own words.
    // `scope` and `accessed` document the source for the registry's readers; the tool checks
    // only that they are well-formed.
    #[serde(default)]
    #[allow(dead_code)]
    pub scope: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    pub accessed: Option<String>,
    /// The source's own words that the article's numbers are taken from, quoted verbatim
    /// and short; `cited` checks read their numbers.
    #[serde(default)]
    pub excerpt: Option<String>,
}
