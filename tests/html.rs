//! The review page's structure, parsed with `scraper`, so that CI without a browser still checks
//! it: every claim of the shipped article has a marked element with its status and a pop-up with
//! its finding; the page is self-contained; a failing draft's changed number, deleted claim
//! sentence and new unbound number are marked. `tests/browser/run.sh` checks the same page in
//! headless chromium.

use crate::support;
use support::claimcheck;

use std::path::Path;

use scraper::{Html, Selector};

const ARTICLE: &str = "article/graphs-fusion-megakernels.md";

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

/// Writes the page for the shipped repository (or a draft) and parses it, with the audit JSON of
/// the same input.
fn page(dir: &Path, draft: Option<&Path>) -> (i32, Html, serde_json::Value) {
    let out = dir.join("review.html");
    let mut args: Vec<&std::ffi::OsStr> = vec!["report".as_ref(), "--html".as_ref(), out.as_os_str()];
    let mut audit: Vec<&std::ffi::OsStr> = vec!["audit".as_ref(), "--format".as_ref(), "json".as_ref()];
    if let Some(d) = draft {
        args.extend(["--draft".as_ref(), d.as_os_str()]);
        audit.extend(["--draft".as_ref(), d.as_os_str()]);
    }
    let (code, stdout, stderr) = claimcheck(args);
    assert!(stdout.starts_with("report written: "), "{stdout}{stderr}");
    let (_, json, _) = claimcheck(audit);
    (code, Html::parse_document(&std::fs::read_to_string(out).unwrap()), serde_json::from_str(&json).unwrap())
}

fn text(html: &Html, selector: &str) -> Vec<String> {
    html.select(&sel(selector)).map(|e| e.text().collect::<String>()).collect()
}

#[test]
fn every_claim_of_the_shipped_article_is_marked_with_its_status_and_finding() {
    let dir = tempfile::tempdir().unwrap();
    let (code, html, review) = page(dir.path(), None);
    assert_eq!(code, 0);
    let mut n = 0;
    for (i, r) in review["registries"].as_array().unwrap().iter().enumerate() {
        for c in r["claims"].as_array().unwrap() {
            let id = c["id"].as_str().unwrap();
            let mark = html.select(&sel(&format!("#r{i} .mark[data-claims~=\"{id}\"]"))).next().unwrap_or_else(|| panic!("{id} is not marked"));
            let status = mark.value().attr("data-status").unwrap();
            assert!(["held", "wrong", "unchecked"].contains(&status), "{id}: {status}");
            assert_eq!(mark.value().attr("tabindex"), Some("0"), "{id} cannot be focused");
            // The pop-up the mark describes itself by holds the finding.
            let pop_id = mark.value().attr("aria-describedby").unwrap();
            let pop: String = html.select(&sel(&format!("#{pop_id}"))).next().unwrap().text().collect();
            let finding = c["finding"].as_str().unwrap();
            assert!(pop.contains(finding), "{id}: {pop}");
            assert!(pop.contains(&format!("verdict {}", c["verdict"].as_str().unwrap())), "{id}: {pop}");
            assert!(html.select(&sel(&format!("#r{i}-c-{id}"))).next().is_some(), "{id} has no anchor");
            n += 1;
        }
    }
    assert_eq!(n, 69);
    // Unchecked judgements and sentences the registry records as wrong show as such.
    assert!(html.select(&sel("#r0 .mark[data-claims~=\"F12\"][data-status=\"unchecked\"]")).next().is_some());
    assert!(html.select(&sel("#r1 .mark[data-claims~=\"D3\"][data-status=\"wrong\"]")).next().is_some());
}

#[test]
fn each_check_shows_its_expected_and_observed_values_and_its_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html, _) = page(dir.path(), None);
    let pop = text(&html, "#r0 .mark[data-claims~=\"F6\"] > .pop").concat();
    assert!(pop.contains("Check 1 · stat") && pop.contains("expected 157.62 µs") && pop.contains("observed median host_us of 21 samples: 157.62 µs"), "{pop}");
    assert!(pop.contains("Recheck offline (157.62 µs): MATCH"), "{pop}");
    // A stored recheck that judged exactly the runs the checks read is shown, the newest: the
    // second H200 `recheck --gpu` of 2026-12-07 06:12 UTC, with its ratio and interval. (The
    // H200's of 06:10 and of 2026-12-06 02:14, and the H100's, which compared no absolute time,
    // are older: none is shown.)
    assert!(pop.contains("Recheck stored in evidence/runs/20261207T061216Z-recheck (157.62 µs): MATCH, fresh ÷ accepted 0.998, 90 % interval 0.995–1.004, margin ±10 %"), "{pop}");
    for older in ["20261207T061043Z-recheck", "20261206T041532Z-recheck", "20261206T021429Z-recheck", "20261205T151337Z-recheck"] {
        assert!(!pop.contains(older), "{pop}");
    }
    // Sources are links.
    let links: Vec<_> = html.select(&sel("#r0 .mark .ps a[href^=\"https://\"]")).collect();
    assert!(!links.is_empty());
}

#[test]
fn a_stored_recheck_of_the_runs_the_checks_read_is_shown_beside_each_check() {
    // A committed run of the current protocol given today's judgement of it as its table, as
    // `recheck --gpu` stores one: it judged exactly the runs the checks read, and the newest
    // such table is shown. (A committed recheck run took its buffer sets otherwise than the
    // runs quoted now, so its latencies would be INCOMPARABLE.)
    let copy = support::repository_copy();
    // Only this table is stored: the committed GPU rechecks (on an H100 and on the H200),
    // newer, would be shown instead.
    for newer in ["20261205T151337Z-recheck", "20261206T021429Z-recheck", "20261206T041419Z-recheck", "20261206T041532Z-recheck", "20261207T061043Z-recheck", "20261207T061216Z-recheck"] {
        std::fs::remove_dir_all(copy.path().join("evidence/runs").join(newer)).unwrap();
    }
    let run = "evidence/runs/20261205T053621Z-all";
    let (_, stdout, stderr) = claimcheck(["recheck".as_ref(), "--fresh".as_ref(), run.as_ref(), "--format".as_ref(), "json".as_ref(), "--root".as_ref(), copy.path().as_os_str()]);
    let table: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    std::fs::write(copy.path().join(run).join("recheck.json"), serde_json::to_string_pretty(&table).unwrap()).unwrap();
    let out = copy.path().join("review.html");
    let (_, stdout, stderr) = claimcheck(["report".as_ref(), "--html".as_ref(), out.as_os_str(), "--root".as_ref(), copy.path().as_os_str()]);
    assert!(stdout.starts_with("report written: "), "{stdout}{stderr}");
    let html = Html::parse_document(&std::fs::read_to_string(out).unwrap());
    let pop = text(&html, "#r0 .mark[data-claims~=\"F6\"] > .pop").concat();
    assert!(pop.contains(&format!("Recheck stored in {run} (157.62 µs): MATCH, fresh ÷ accepted ")), "{pop}");
    assert!(pop.contains("margin ±10 %"), "{pop}");
}

#[test]
fn the_page_is_self_contained() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html, _) = page(dir.path(), None);
    let csp = html.select(&sel("meta[http-equiv=\"Content-Security-Policy\"]")).next().unwrap().value().attr("content").unwrap();
    assert!(csp.starts_with("default-src 'none'"), "{csp}");
    assert_eq!(html.select(&sel("link, script[src], iframe, object, embed")).count(), 0);
    for e in html.select(&sel("[src]")) {
        assert!(e.value().attr("src").unwrap().starts_with("data:"), "{:?}", e.value());
    }
    // The article's two figures are inline SVG, and every manifest, registry and figure hash is there.
    assert_eq!(html.select(&sel(".doc .figure svg")).count(), 2);
    let evidence = text(&html, "#evidence").concat();
    for needle in ["evidence/runs/20261205T053553Z-all/MANIFEST.sha256", "article/figures/softmax.svg", "claims/graphs-fusion-megakernels.toml"] {
        assert!(evidence.contains(needle), "{needle}");
    }
    let registry_sha = claimcheck::hash::sha256_hex(&std::fs::read("claims/graphs-fusion-megakernels.toml").unwrap());
    assert!(evidence.contains(&registry_sha));
    let manifest_sha = claimcheck::hash::sha256_hex(&std::fs::read("evidence/runs/20261205T053553Z-all/MANIFEST.sha256").unwrap());
    assert!(evidence.contains(&manifest_sha));
}

#[test]
fn the_verdict_table_links_to_the_sentences() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html, _) = page(dir.path(), None);
    let ids: std::collections::BTreeSet<String> = html.select(&sel("[id]")).map(|e| e.value().attr("id").unwrap().to_string()).collect();
    let links: Vec<String> = html.select(&sel("table.counts a, table.claims a")).map(|a| a.value().attr("href").unwrap().to_string()).collect();
    assert!(links.len() > 66);
    for l in links {
        assert!(ids.contains(l.trim_start_matches('#')), "{l} leads nowhere");
    }
}

#[test]
fn a_failing_draft_marks_its_three_edits() {
    let dir = tempfile::tempdir().unwrap();
    let mut text_ = std::fs::read_to_string(ARTICLE).unwrap();
    for (from, to) in [
        ("took 157.62 µs on a stream", "took 159.62 µs on a stream"),
        ("It also keeps the completion ordering between nodes: a node starts after the previous one has finished.", ""),
        ("Measure first which cost you have.", "Measure first which cost you have. A typical launch costs about 4.5 µs from the host."),
    ] {
        text_ = text_.replacen(from, to, 1);
    }
    let draft = dir.path().join("graphs-fusion-megakernels.md");
    std::fs::write(&draft, text_).unwrap();
    let (code, html, _) = page(dir.path(), Some(&draft));
    assert_eq!(code, 1);
    let f6 = html.select(&sel("#r0 .mark[data-claims~=\"F6\"]")).next().unwrap();
    assert_eq!((f6.value().attr("data-status"), f6.value().attr("data-change")), (Some("changed"), Some("number-changed")));
    assert_eq!(text(&html, "#r0 .mark[data-claims~=\"F6\"] .num.num-changed.num-failed"), ["159.62 µs"]);
    let p6 = html.select(&sel("#r0 .mark.lost[data-claims~=\"P6\"][data-change=\"lost\"]")).next().expect("the lost claim is marked");
    assert!(p6.text().collect::<String>().contains("It also keeps the completion ordering"));
    let unbound = html.select(&sel("#r0 .num.unbound[data-number=\"4.5 µs\"]")).next().expect("the unbound number is marked");
    assert!(html.select(&sel(&format!("#{}", unbound.value().attr("aria-describedby").unwrap()))).next().is_some());
    assert!(text(&html, "#r0 .sent-new").concat().contains("A typical launch costs about"));
    // The changes panel links to each.
    let changes = text(&html, "#r0 .changes").concat();
    assert!(changes.contains("F6: number-changed") && changes.contains("P6: lost") && changes.contains("unbound number 4.5 µs"), "{changes}");
    // The draft's figures are the manuscript's.
    assert_eq!(html.select(&sel(".doc .figure svg")).count(), 2);
}

#[test]
fn bad_input_writes_no_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("review.html");
    let (code, _, stderr) = claimcheck(["report".as_ref(), "--html".as_ref(), out.as_os_str(), "--draft".as_ref(), "/nonexistent/graphs-fusion-megakernels.md".as_ref()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no report written"), "{stderr}");
    assert!(!out.exists());
}
