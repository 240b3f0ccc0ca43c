//! The shipped article is the default the audit proves. These tests run the real binary on a
//! copy of the repository: the pristine copy passes, and changing any digit of any latency in
//! the article makes the audit fail on the claim that quotes it.

use std::path::Path;

use crate::support;
use std::process::Command;
use support::repository_copy;

use claimcheck::article::Article;
use claimcheck::article::numbers::Unit;

const ARTICLE: &str = "article/graphs-fusion-megakernels.md";

fn audit_json(root: &Path) -> (i32, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["audit", "--format", "json", "--root"]).arg(root).output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), json)
}

#[test]
fn the_shipped_article_passes_with_every_number_bound() {
    let (code, review) = audit_json(Path::new("."));
    assert_eq!(code, 0, "{review:#}");
    for r in review["registries"].as_array().unwrap() {
        assert_eq!(r["unbound"].as_array().unwrap().len(), 0, "{}", r["file"]);
        assert_eq!(r["manuscript"]["sha256_matches"], true, "{}", r["file"]);
    }
    let verdicts = review["counts"].as_object().unwrap();
    for v in ["correct", "judgment", "qualify", "retain"] {
        assert!(verdicts.get(v).and_then(|n| n.as_u64()).unwrap_or(0) > 0, "no {v} claim: {verdicts:?}");
    }
}

#[test]
fn changing_any_digit_of_any_latency_fails_its_claim() {
    let source = std::fs::read_to_string(ARTICLE).unwrap();
    let article = Article::parse(ARTICLE, source.as_bytes()).unwrap();
    let latencies: Vec<(std::ops::Range<usize>, String)> =
        article.sentences.iter().flat_map(|s| s.numbers.iter().filter(|n| n.unit == Some(Unit::Us)).map(move |n| (s.source_span(&n.span), n.text.clone()))).collect();
    assert!(latencies.len() >= 25, "only {} latencies found", latencies.len());
    let copy = repository_copy();
    let target = copy.path().join(ARTICLE);
    // The last digit before the unit, moved by `by`: whether the audit fails the claim on it.
    let caught = |span: &std::ops::Range<usize>, text: &str, by: u8| -> (bool, String) {
        let digit_at = span.start + text.rfind(|c: char| c.is_ascii_digit()).unwrap();
        let old = source.as_bytes()[digit_at] - b'0';
        let mut edited = source.clone().into_bytes();
        edited[digit_at] = b'0' + (old + by) % 10;
        std::fs::write(&target, &edited).unwrap();
        let (code, review) = audit_json(copy.path());
        let mutated = String::from_utf8(edited[span.clone()].to_vec()).unwrap();
        let failed_on_it = review["registries"][0]["claims"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["checks"].as_array().unwrap().iter().any(|k| k["outcome"] == "fail" && k["number_now"] == mutated.as_str()));
        (code == 1 && failed_on_it, format!("{text} -> {mutated}: exit {code}"))
    };
    let (mut missed, mut ties) = (Vec::new(), Vec::new());
    for (span, text) in &latencies {
        let (held, edit) = caught(span, text, 1);
        if held {
            continue;
        }
        // A median that is itself a sample on a half-unit boundary (18.255 µs quoted with two
        // decimals) is a decimal tie, which both of its neighbours match (the README's matching
        // rule): the edit to the other neighbour holds, and one a digit further must not.
        let (further, edit2) = caught(span, text, 2);
        if further { ties.push(text.clone()) } else { missed.extend([edit, edit2]) }
    }
    std::fs::write(&target, &source).unwrap();
    assert!(missed.is_empty(), "edits the audit did not catch: {missed:?}");
    // The article's three ties, each the median of 21 host samples written with three decimals
    // (18.255, 27.955 and 40.805 µs): an edit the rule lets through stays a faithful rounding.
    assert_eq!(ties, ["18.25 µs", "27.95 µs", "40.80 µs"]);
}

#[test]
fn the_figures_are_rendered_from_the_accepted_run_they_were_drawn_from() {
    // Six runs of the suites are accepted as replicates; the figures come from the one the
    // article quotes, which the provenance names, not from the first accepted run by name.
    let figures = |root: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(["figures", "--check", "--root"]).arg(root).output().unwrap();
        (out.status.code().unwrap(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, stdout) = figures(Path::new("."));
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("match a fresh rendering of evidence/runs/20261205T053553Z-all"), "{stdout}");
    // Once that run is no longer accepted, the first accepted run with the softmax suite is
    // the default, and the committed figures differ from its rendering.
    let copy = repository_copy();
    let path = copy.path().join("evidence/accepted.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let block = "[[run]]\npath = \"evidence/runs/20261205T053553Z-all\"\n";
    let at = text.find(block).expect("the run is accepted");
    let end = text[at + block.len()..].find("[[run]]").map_or(text.len(), |i| at + block.len() + i);
    std::fs::write(&path, format!("{}{}", &text[..at], &text[end..])).unwrap();
    let (code, stdout) = figures(copy.path());
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("differ from a fresh rendering of evidence/runs/20261205T035611Z-all"), "{stdout}");
}
