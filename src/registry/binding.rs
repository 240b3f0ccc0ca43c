//! Binding: each claim of a registry to the one sentence of the article that its quote names,
//! and each check to the number of that sentence it verifies. This module owns the binding
//! rules; it never runs a check.
//!
//! A quote binds **exactly** when it is a substring of exactly one sentence (whitespace runs
//! count as one space). When no sentence contains it, it binds with **numbers changed** when
//! it matches exactly one sentence once every number is masked: the sentence is the same but a
//! quoted number was edited, so the checks run against the numbers the sentence now shows and
//! fail there. Otherwise the quote is **lost** (no sentence) or **ambiguous** (several).

use std::collections::BTreeMap;
use std::ops::Range;

use crate::article::{Article, Sentence};
use crate::diagnostic::Diagnostic;
use crate::article::numbers::{self, Number, Quoted};
use crate::registry::{Claim, Registry};

/// How one claim bound.
#[derive(Debug, Clone)]
pub(crate) enum Binding {
    Bound(Bound),
    /// No sentence holds the quote, even with numbers masked. `nearest` is the most similar
    /// sentence, with its similarity in [0, 1].
    Lost { nearest: Option<(usize, f64)> },
    /// Several sentences hold the quote.
    Ambiguous { sentences: Vec<usize> },
}

#[derive(Debug, Clone)]
pub(crate) struct Bound {
    pub sentence: usize,
    /// True when the quote matched only with its numbers masked.
    pub numbers_changed: bool,
    /// One entry per check of the claim, in order.
    pub checks: Vec<CheckBinding>,
}

/// The number a check verifies, as the registry names it and as the sentence now shows it.
#[derive(Debug, Clone, Default)]
pub(crate) struct CheckBinding {
    /// The registry's `number`, where the check has one.
    pub registry_number: Option<String>,
    /// The sentence's number it maps to.
    pub sentence_number: Option<Number>,
    /// The value the check compares with (one end of a range, where `part` says so).
    pub quoted: Option<Quoted>,
    /// A problem binding this check's number, reported as a diagnostic.
    pub error: Option<Diagnostic>,
}

/// Binds every claim of `registry` against `article`, knowing the sentence each claim was audited against (claim id →
/// its text in the lock). A checked number missing from a sentence that is otherwise the audited
/// one word for word is the number at the same position: the number changed, and the check runs
/// against the draft's value instead of failing to bind.
pub(crate) fn bind_against(registry: &Registry, article: &Article, audited: &BTreeMap<&str, &str>) -> Vec<Binding> {
    registry.claims.iter().map(|c| bind_claim(registry, c, article, audited.get(c.id.get_ref().as_str()).copied())).collect()
}

fn bind_claim(registry: &Registry, claim: &Claim, article: &Article, audited: Option<&str>) -> Binding {
    let quote = normalise(claim.quote.get_ref());
    let exact: Vec<usize> = article.sentences.iter().filter(|s| s.text.contains(&quote)).map(|s| s.index).collect();
    match exact.as_slice() {
        [one] => {
            let sentence = &article.sentences[*one];
            let mut numbers_changed = false;
            let mut checks = Vec::new();
            for check in &claim.checks {
                let (binding, moved) = bind_exact(registry, claim, check, sentence, audited);
                numbers_changed |= moved;
                checks.push(binding);
            }
            return Binding::Bound(Bound { sentence: *one, numbers_changed, checks });
        }
        [] => {}
        many => return Binding::Ambiguous { sentences: many.to_vec() },
    }
    let quote_numbers = numbers::extract(&quote, &[]);
    let quote_skeleton = skeleton(&quote, &quote_numbers);
    let mut masked = Vec::new();
    for s in &article.sentences {
        let sk = skeleton(&s.text, &s.numbers);
        if let Some(at) = sk.find(&quote_skeleton) {
            // The index of the first sentence number inside the match.
            let base = sk[..at].matches(MASK).count();
            masked.push((s.index, base));
        }
    }
    match masked.as_slice() {
        [(index, base)] if !quote_numbers.is_empty() => {
            let sentence = &article.sentences[*index];
            let checks = claim
                .checks
                .iter()
                .map(|check| bind_changed(registry, claim, check, sentence, &quote_numbers, *base))
                .collect();
            Binding::Bound(Bound { sentence: *index, numbers_changed: true, checks })
        }
        [] | [_] => Binding::Lost { nearest: nearest(&quote, article) },
        many => Binding::Ambiguous { sentences: many.iter().map(|(i, _)| *i).collect() },
    }
}

/// The character that stands for a number in a skeleton.
const MASK: char = '\u{1}';

fn skeleton(text: &str, numbers: &[Number]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for n in numbers {
        out.push_str(&text[at..n.span.start]);
        out.push(MASK);
        at = n.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Binds one check's number in an exactly bound sentence; the flag says that the number was
/// found only by its position in the audited sentence.
fn bind_exact(registry: &Registry, claim: &Claim, check: &crate::checks::Check, sentence: &Sentence, audited: Option<&str>) -> (CheckBinding, bool) {
    let Some(number) = &check.common.number else {
        return (CheckBinding::default(), false);
    };
    let wanted = match numbers::parse_one(number.get_ref()) {
        Ok(n) => n,
        Err(m) => return (CheckBinding { error: Some(at(registry, number.span(), m, "not one number")), ..CheckBinding::default() }, false),
    };
    if let Some(found) = sentence.numbers.iter().find(|n| n.key() == wanted.key()) {
        return (finish(registry, check, number.get_ref(), found.clone()), false);
    }
    if let Some(now) = audited.and_then(|old| same_place(old, sentence, &wanted)) {
        return (finish(registry, check, number.get_ref(), now.clone()), true);
    }
    let shown = sentence.numbers.iter().map(|n| format!("`{}`", n.text)).collect::<Vec<_>>().join(", ");
    let message = format!("claim `{}`: number `{}` is not in its sentence", claim.id.get_ref(), number.get_ref());
    let d = at(registry, number.span(), message, "not in the sentence").with_note(format!(
        "the sentence at line {} quotes {}",
        sentence.line,
        if shown.is_empty() { "no number".into() } else { shown }
    ));
    (CheckBinding { registry_number: Some(number.get_ref().clone()), error: Some(d), ..CheckBinding::default() }, false)
}

/// The number of `sentence` at the place `wanted` held in the audited text `old`, when the two
/// differ in their numbers alone.
fn same_place<'s>(old: &str, sentence: &'s Sentence, wanted: &Number) -> Option<&'s Number> {
    let old_numbers = numbers::extract(old, &[]);
    if skeleton(old, &old_numbers) != skeleton(&sentence.text, &sentence.numbers) {
        return None;
    }
    let k = old_numbers.iter().position(|n| n.key() == wanted.key())?;
    sentence.numbers.get(k)
}

fn bind_changed(
    registry: &Registry,
    claim: &Claim,
    check: &crate::checks::Check,
    sentence: &Sentence,
    quote_numbers: &[Number],
    base: usize,
) -> CheckBinding {
    let Some(number) = &check.common.number else {
        return CheckBinding::default();
    };
    let wanted = match numbers::parse_one(number.get_ref()) {
        Ok(n) => n,
        Err(m) => return CheckBinding { error: Some(at(registry, number.span(), m, "not one number")), ..CheckBinding::default() },
    };
    let Some(k) = quote_numbers.iter().position(|n| n.key() == wanted.key()) else {
        let message = format!("claim `{}`: number `{}` is not in its quote", claim.id.get_ref(), number.get_ref());
        return CheckBinding { registry_number: Some(number.get_ref().clone()), error: Some(at(registry, number.span(), message, "not in the quote")), ..CheckBinding::default() };
    };
    match sentence.numbers.get(base + k) {
        Some(now) => finish(registry, check, number.get_ref(), now.clone()),
        None => CheckBinding { registry_number: Some(number.get_ref().clone()), ..CheckBinding::default() },
    }
}

fn finish(registry: &Registry, check: &crate::checks::Check, registry_number: &str, found: Number) -> CheckBinding {
    let mut binding = CheckBinding { registry_number: Some(registry_number.to_string()), sentence_number: Some(found.clone()), ..CheckBinding::default() };
    match Quoted::from_number(&found, check.common.part) {
        Ok(q) => binding.quoted = Some(q),
        Err(m) => {
            let span = check.common.number.as_ref().map_or(check.span.clone(), |n| n.span());
            binding.error = Some(at(registry, span, m, "here"));
        }
    }
    binding
}

fn at(registry: &Registry, span: Range<usize>, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::at(message, &registry.file, &registry.source, span, label)
}

pub(crate) fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The sentence most similar to `text` by [`similarity`].
pub(crate) fn nearest(text: &str, article: &Article) -> Option<(usize, f64)> {
    article.sentences.iter().map(|s| (s.index, similarity(text, &s.text))).max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
}

/// How alike two sentences are, in [0, 1]: twice the words they share in order over the words
/// of both. Whitespace is not a word, so two unrelated sentences are not half alike.
pub(crate) fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<&str> = a.split_whitespace().collect();
    let b: Vec<&str> = b.split_whitespace().collect();
    f64::from(similar::TextDiff::from_slices(&a, &b).ratio())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bind(registry: &Registry, article: &Article) -> Vec<Binding> {
        bind_against(registry, article, &BTreeMap::new())
    }
    use crate::registry;

    const ARTICLE: &str = "# T\n\nGraph replay took 14.96 µs at 4096×4096. The stream took 19.40 µs.\n\nFusion helps. Fusion helps.\n";

    fn registry_with(quote: &str, number: &str) -> Registry {
        let src = format!(
            "[manuscript]\npath = \"a.md\"\nsha256 = \"{}\"\n\n[[claim]]\nid = \"C1\"\nquote = \"{quote}\"\nverdict = \"retain\"\nfinding = \"f\"\n\n  [[claim.check]]\n  kind = \"arith\"\n  number = \"{number}\"\n  expr = \"14.96\"\n",
            "0".repeat(64)
        );
        let (reg, diags) = registry::parse("claims/a.toml", &src);
        assert!(diags.is_empty(), "{diags:?}");
        reg.unwrap()
    }

    fn article(text: &str) -> Article {
        Article::parse("a.md", text.as_bytes()).unwrap()
    }

    #[test]
    fn an_exact_quote_binds_its_sentence_and_number() {
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(ARTICLE));
        let Binding::Bound(b) = &b[0] else { panic!("{b:?}") };
        assert_eq!((b.sentence, b.numbers_changed), (0, false));
        assert_eq!(b.checks[0].quoted.as_ref().unwrap().value, 14.96);
    }

    #[test]
    fn an_edited_number_binds_with_numbers_changed() {
        let edited = ARTICLE.replace("14.96", "15.96");
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(&edited));
        let Binding::Bound(b) = &b[0] else { panic!("{b:?}") };
        assert!(b.numbers_changed);
        assert_eq!(b.checks[0].sentence_number.as_ref().unwrap().text, "15.96 µs");
    }

    #[test]
    fn a_removed_sentence_is_lost_with_its_nearest_neighbour() {
        let edited = ARTICLE.replace("Graph replay took 14.96 µs at 4096×4096. ", "");
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(&edited));
        assert!(matches!(b[0], Binding::Lost { nearest: Some(_) }), "{b:?}");
    }

    #[test]
    fn a_quote_in_two_sentences_is_ambiguous() {
        let b = bind(&registry_with("Fusion helps", "14.96 µs"), &article(ARTICLE));
        assert!(matches!(&b[0], Binding::Ambiguous { sentences } if sentences.len() == 2), "{b:?}");
    }

    #[test]
    fn a_number_missing_from_the_sentence_is_an_error() {
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.97 µs"), &article(ARTICLE));
        let Binding::Bound(b) = &b[0] else { panic!() };
        let err = b.checks[0].error.as_ref().unwrap();
        assert!(err.message.contains("number `14.97 µs` is not in its sentence"), "{}", err.message);
    }

    #[test]
    fn a_number_outside_the_quote_is_found_by_its_audited_place() {
        let reg = registry_with("Graph replay took", "14.96 µs");
        let edited = article(&ARTICLE.replace("14.96", "15.96"));
        let audited = BTreeMap::from([("C1", "Graph replay took 14.96 µs at 4096×4096.")]);
        let Binding::Bound(b) = &bind_against(&reg, &edited, &audited)[0] else { panic!() };
        assert!(b.numbers_changed);
        assert_eq!(b.checks[0].sentence_number.as_ref().unwrap().text, "15.96 µs");
        // Without the audited sentence the number cannot be placed, and binding says so.
        let Binding::Bound(b) = &bind_against(&reg, &edited, &BTreeMap::new())[0] else { panic!() };
        assert!(b.checks[0].error.is_some());
    }

    #[test]
    fn similarity_counts_words_not_spaces() {
        assert_eq!(similarity("a b c d", "a b c d"), 1.0);
        assert_eq!(similarity("It keeps the order.", "Three techniques attack costs."), 0.0);
        assert!((similarity("took 1 µs", "took 2 µs") - 2.0 * 2.0 / 6.0).abs() < 1e-6);
    }

    #[test]
    fn whitespace_in_the_article_does_not_break_a_quote() {
        let wrapped = ARTICLE.replace("took 14.96", "took\n14.96");
        let b = bind(&registry_with("Graph replay took 14.96 µs", "14.96 µs"), &article(&wrapped));
        assert!(matches!(&b[0], Binding::Bound(b) if !b.numbers_changed));
    }
}
