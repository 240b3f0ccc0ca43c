//! `cited`: a number the article takes from a primary source is the number the source gives.
//!
//! What it does: finds the `[[source]]` named by `source` and looks for the sentence's number
//! among the numbers of that source's `excerpt` (the source's own words, quoted in the
//! registry): the same value at the same precision and unit, or one end of a quoted range.
//!
//! Why: an attributed figure drifts like any other ("over 1.5×" becomes "2×" in a later
//! draft); the excerpt pins what the source said, and its URL says where.
//!
//! ```toml
//! [[claim.check]]
//! kind = "cited"
//! number = "78 %"
//! source = "hazy-megakernel"
//! ```
//! Fails as `78 % is not among the numbers of source hazy-megakernel's excerpt (50%, 78%, 1.5x)`.

use serde::Deserialize;
use toml::Spanned;

use super::{Context, Observation};
use crate::article::numbers::{self, Quoted, Scale, Shape, Unit};
use crate::diagnostic::Diagnostic;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Spec {
    pub source: Spanned<String>,
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

    pub(super) fn observe(&self, ctx: &Context<'_>, quoted: Option<&Quoted>) -> Result<Observation, Diagnostic> {
        let key = self.source.get_ref();
        let source =
            ctx.sources.iter().find(|s| s.key.get_ref() == key).ok_or_else(|| ctx.error_at(format!("no [[source]] has key `{key}`"), self.source.span(), "undefined source"))?;
        let excerpt =
            source.excerpt.as_deref().ok_or_else(|| ctx.error_at(format!("source `{key}` has no excerpt to check the number against"), self.source.span(), "this source"))?;
        let quoted = quoted.ok_or_else(|| ctx.error_at("a cited check needs a `number`", self.source.span(), "which number?"))?;
        let found = numbers::extract(excerpt, &[]);
        let same = |value: f64, decimals: u32, scale: Scale, unit: &Option<Unit>| {
            decimals == quoted.decimals && scale == quoted.scale && *unit == quoted.unit && (value - quoted.value).abs() < 1e-9
        };
        // A bound is the same quote only with the same comparator: `<0.05` is not `0.05`.
        let hit = found.iter().find(|n| match n.shape {
            Shape::Single => n.bound == quoted.bound && same(n.value, n.decimals, n.scale, &n.unit),
            Shape::Range { high, high_decimals } => same(n.value, n.decimals, Scale::None, &n.unit) || same(high, high_decimals, Scale::None, &n.unit),
            Shape::Dims(_) => false,
        });
        let shown = found.iter().map(|n| n.text.as_str()).collect::<Vec<_>>().join(", ");
        let mut problems = Vec::new();
        if hit.is_none() {
            problems.push(format!("{} is not among the numbers of source {key}'s excerpt ({shown})", quoted.shown()));
        }
        Ok(Observation {
            value: hit.map(|_| quoted.held_by()),
            unit: quoted.unit.clone(),
            problems,
            detail: format!("as quoted from {} ({})", source.title, source.url),
            band: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::article::numbers::Unit;
    use crate::checks::testing::{Fixture, check_toml};
    use crate::registry::source::Source;

    fn source() -> Source {
        Source {
            key: Spanned::new(0..0, "hazy".into()),
            title: "Look Ma, No Bubbles".into(),
            url: "https://hazyresearch.stanford.edu/blog/2025-05-27-no-bubbles".into(),
            scope: None,
            accessed: None,
            excerpt: Some("on an H100, we use 78% of memory bandwidth and outperform existing systems by over 1.5x; 20-35% faster".into()),
        }
    }

    fn observe(quoted: Quoted) -> Observation {
        let f = Fixture::new(&[]);
        let sources = [source()];
        let ctx = Context::new(&f.evidence, &f.article, &sources, "claims/t.toml", "");
        let check = check_toml("kind = \"cited\"\nsource = \"hazy\"");
        let crate::checks::Kind::Cited(spec) = &check.kind else { panic!() };
        spec.observe(&ctx, Some(&quoted)).unwrap()
    }

    #[test]
    fn a_number_in_the_excerpt_passes_whatever_its_spelling() {
        assert!(observe(Quoted { value: 78.0, decimals: 0, unit: Some(Unit::Percent), ..Quoted::default() }).problems.is_empty());
        assert!(observe(Quoted { value: 1.5, decimals: 1, unit: Some(Unit::Times), ..Quoted::default() }).problems.is_empty());
        assert!(observe(Quoted { value: 35.0, decimals: 0, unit: Some(Unit::Percent), ..Quoted::default() }).problems.is_empty());
    }

    #[test]
    fn a_drifted_number_fails() {
        let obs = observe(Quoted { value: 2.0, decimals: 1, unit: Some(Unit::Times), ..Quoted::default() });
        assert!(obs.problems[0].contains("is not among the numbers"), "{:?}", obs.problems);
        let obs = observe(Quoted { value: 78.0, decimals: 0, unit: Some(Unit::Times), ..Quoted::default() });
        assert_eq!(obs.problems.len(), 1, "a unit change is a drift too");
    }
}
