//! The formats CI reads, generated for the failing draft of `tests/draft.rs` (a changed latency,
//! a deleted claim sentence, a new sentence with a number): SARIF validates against the vendored
//! 2.1.0 schema, GitHub workflow commands parse, JUnit XML parses, the job summary is written,
//! and in each the three edits stand at the article line and column of the number (or of where
//! the deleted sentence stood) and at the registry line of the check or claim.

use crate::support;
use support::claimcheck;

use std::path::{Path, PathBuf};

const ARTICLE: &str = "article/graphs-fusion-megakernels.md";
const REGISTRY: &str = "claims/graphs-fusion-megakernels.toml";

const EDITS: [(&str, &str); 3] = [
    ("took 157.62 µs on a stream", "took 159.62 µs on a stream"),
    ("It also keeps the completion ordering between nodes: a node starts after the previous one has finished.", ""),
    ("Measure first which cost you have.", "Measure first which cost you have. A typical launch costs about 4.5 µs from the host."),
];

/// Writes the article with `edits` applied, after `prefix`, as `<dir>/graphs-fusion-megakernels.md`.
fn draft(dir: &Path, prefix: &str, edits: &[(&str, &str)]) -> PathBuf {
    let mut text = std::fs::read_to_string(ARTICLE).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "the article no longer holds {from:?}");
        text = text.replacen(from, to, 1);
    }
    let path = dir.join("graphs-fusion-megakernels.md");
    std::fs::write(&path, format!("{prefix}{text}")).unwrap();
    path
}

/// 1-based line and character column of the first `needle` in `text` (after `after`, if given),
/// and the column just past it.
fn place(text: &str, needle: &str, after: Option<&str>) -> (usize, usize, usize) {
    let from = after.map_or(0, |a| text.find(a).unwrap_or_else(|| panic!("no {a:?}")));
    let at = from + text[from..].find(needle).unwrap_or_else(|| panic!("no {needle:?}"));
    let line = text[..at].matches('\n').count() + 1;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..at].chars().count() + 1;
    (line, col, col + needle.chars().count())
}

/// Where the three edits stand: (line, col, end col) in the draft of the changed number, of the
/// sentence after the deleted one, and of the unbound number; and the registry lines of F6's
/// first check (its `number`) and of P6's quote.
struct Expected {
    number: (usize, usize, usize),
    deleted: (usize, usize),
    unbound: (usize, usize, usize),
    f6_check_line: usize,
    p6_quote_line: usize,
}

fn expected(draft: &Path) -> Expected {
    let text = std::fs::read_to_string(draft).unwrap();
    let registry = std::fs::read_to_string(REGISTRY).unwrap();
    let (deleted_line, deleted_col, _) = place(&text, "Capturing, instantiating and uploading that graph", None);
    Expected {
        number: place(&text, "159.62 µs", None),
        deleted: (deleted_line, deleted_col),
        unbound: place(&text, "4.5 µs", None),
        f6_check_line: place(&registry, "number = \"157.62 µs\"", Some("id = \"F6\"")).0,
        p6_quote_line: place(&registry, "quote = ", Some("id = \"P6\"")).0,
    }
}

fn run(args: &[&str], draft: &Path) -> (i32, String, String) {
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    all.push("--draft".as_ref());
    all.push(draft.as_os_str());
    claimcheck(all)
}

#[test]
fn sarif_validates_against_the_schema_and_locates_the_three_edits() {
    let dir = tempfile::tempdir().unwrap();
    let path = draft(dir.path(), "", &EDITS);
    let want = expected(&path);
    let (code, stdout, stderr) = run(&["audit", "--format", "sarif"], &path);
    assert_eq!(code, 1, "{stderr}");
    let log: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mut schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("tests/schemas/sarif-schema-2.1.0.json").unwrap()).unwrap();
    drop_broken_pattern(&mut schema);
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let results = log["runs"][0]["results"].as_array().unwrap();
    let find = |rule: &str| results.iter().find(|r| r["ruleId"] == rule).unwrap_or_else(|| panic!("no {rule} in {results:#?}")).clone();
    let region = |r: &serde_json::Value| r["locations"][0]["physicalLocation"]["region"].clone();
    let uri = path.to_str().unwrap();

    let changed = find("CC002");
    assert!(changed["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap().ends_with(uri.trim_start_matches('/')));
    let r = region(&changed);
    assert_eq!((r["startLine"].as_u64(), r["startColumn"].as_u64(), r["endColumn"].as_u64()), (Some(want.number.0 as u64), Some(want.number.1 as u64), Some(want.number.2 as u64)));
    let check = &changed["relatedLocations"][0]["physicalLocation"];
    assert_eq!(check["artifactLocation"]["uri"], REGISTRY);
    assert_eq!(check["region"]["startLine"].as_u64(), Some(want.f6_check_line as u64));

    let lost = find("CC004");
    let r = region(&lost);
    assert_eq!((r["startLine"].as_u64(), r["startColumn"].as_u64()), (Some(want.deleted.0 as u64), Some(want.deleted.1 as u64)));
    assert_eq!(lost["relatedLocations"][0]["physicalLocation"]["region"]["startLine"].as_u64(), Some(want.p6_quote_line as u64));

    let unbound = find("CC007");
    let r = region(&unbound);
    assert_eq!(
        (r["startLine"].as_u64(), r["startColumn"].as_u64(), r["endColumn"].as_u64()),
        (Some(want.unbound.0 as u64), Some(want.unbound.1 as u64), Some(want.unbound.2 as u64))
    );

    // Every rule a result names is declared at the index it gives.
    let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    for result in results {
        assert_eq!(rules[result["ruleIndex"].as_u64().unwrap() as usize]["id"], result["ruleId"]);
        assert_eq!(result["partialFingerprints"]["claimcheck/v1"].as_str().unwrap().len(), 32);
    }
}

/// The OASIS schema's pattern for a language tag (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`) has
/// a stray `]`, which ECMAScript reads as a literal and Rust's regex engines refuse; the schema
/// is vendored as published, and the one keyword that cannot compile is dropped before use. Our
/// logs never set `language`, so nothing they hold goes unchecked.
fn drop_broken_pattern(value: &mut serde_json::Value) {
    const BROKEN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match value {
        serde_json::Value::Object(map) => {
            if map.get("pattern").and_then(|p| p.as_str()) == Some(BROKEN) {
                map.remove("pattern");
            }
            map.values_mut().for_each(drop_broken_pattern);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_broken_pattern),
        _ => {}
    }
}

#[test]
fn sarif_fingerprints_survive_lines_moving() {
    let fingerprints = |prefix: &str| {
        let dir = tempfile::tempdir().unwrap();
        let path = draft(dir.path(), prefix, &EDITS);
        let (_, stdout, _) = run(&["audit", "--format", "sarif"], &path);
        let log: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap().clone();
        let lines: Vec<u64> = results.iter().filter_map(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64()).collect();
        let prints: Vec<String> = results.iter().filter(|r| r["ruleId"] != "CC008").map(|r| r["partialFingerprints"]["claimcheck/v1"].as_str().unwrap().to_string()).collect();
        (lines, prints)
    };
    let (lines, prints) = fingerprints("");
    // Blank lines before the title move every finding down without changing a sentence.
    let (moved, moved_prints) = fingerprints("\n\n\n");
    assert_ne!(lines, moved);
    assert_eq!(prints, moved_prints);
}

/// A workflow command: its kind, its properties (unescaped) and its message (unescaped).
type Command = (String, Vec<(String, String)>, String);

fn parse_command(line: &str) -> Option<Command> {
    let rest = line.strip_prefix("::")?;
    let (head, message) = rest.split_once("::")?;
    let (kind, props) = head.split_once(' ').unwrap_or((head, ""));
    let unescape = |s: &str| s.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%");
    let props = props.split(',').filter(|p| !p.is_empty()).map(|p| {
        let (k, v) = p.split_once('=').unwrap();
        (k.to_string(), unescape(v))
    });
    Some((kind.to_string(), props.collect(), unescape(message)))
}

#[test]
fn github_commands_parse_and_locate_the_three_edits() {
    let dir = tempfile::tempdir().unwrap();
    let path = draft(dir.path(), "", &EDITS);
    let want = expected(&path);
    let (code, stdout, stderr) = run(&["audit", "--format", "github"], &path);
    assert_eq!(code, 1, "{stderr}");
    let commands: Vec<_> = stdout.lines().map(|l| parse_command(l).unwrap_or_else(|| panic!("not a command: {l}"))).collect();
    assert_eq!(commands.len(), 4, "{stdout}");
    let get = |props: &[(String, String)], k: &str| props.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let with_title = |rule: &str| commands.iter().find(|(_, p, _)| get(p, "title").is_some_and(|t| t.starts_with(rule))).unwrap_or_else(|| panic!("no {rule}: {stdout}")).clone();
    let draft = path.to_str().unwrap().to_string();

    let (kind, props, message) = with_title("CC002");
    assert_eq!(kind, "error");
    assert_eq!(get(&props, "file"), Some(draft.clone()));
    assert_eq!(
        (get(&props, "line"), get(&props, "col"), get(&props, "endColumn")),
        (Some(want.number.0.to_string()), Some(want.number.1.to_string()), Some(want.number.2.to_string()))
    );
    assert!(message.contains("audited 157.62 µs, draft 159.62 µs, evidence 157.62 µs"), "{message}");
    assert!(message.contains(&format!("{REGISTRY}:{}:", want.f6_check_line)), "{message}");

    let (_, props, message) = with_title("CC004");
    assert_eq!((get(&props, "line"), get(&props, "col")), (Some(want.deleted.0.to_string()), Some(want.deleted.1.to_string())));
    assert!(message.contains(&format!("{REGISTRY}:{}:", want.p6_quote_line)), "{message}");

    let (_, props, _) = with_title("CC007");
    assert_eq!(
        (get(&props, "line"), get(&props, "col"), get(&props, "endColumn")),
        (Some(want.unbound.0.to_string()), Some(want.unbound.1.to_string()), Some(want.unbound.2.to_string()))
    );
}

#[test]
fn github_annotates_ten_findings_and_summarises_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let many: String = (1..=12).map(|k| format!(" Launch {k} costs about {k}.5 µs from the host.")).collect();
    let edit = ("Measure first which cost you have.", format!("Measure first which cost you have.{many}"));
    let path = draft(dir.path(), "", &[(edit.0, edit.1.as_str())]);
    let (code, stdout, _) = run(&["audit", "--format", "github"], &path);
    assert_eq!(code, 1);
    let (_, sarif, _) = run(&["audit", "--format", "sarif"], &path);
    let total = serde_json::from_str::<serde_json::Value>(&sarif).unwrap()["runs"][0]["results"].as_array().unwrap().len();
    assert!(total >= 13, "the manuscript hash and at least twelve unbound numbers: {total}");
    let errors = stdout.lines().filter(|l| l.starts_with("::error ")).count();
    assert_eq!(errors, 10, "{stdout}");
    let notice = stdout.lines().find(|l| l.starts_with("::notice ")).expect("a notice for the rest");
    assert!(notice.contains(&format!("{} more findings", total - 10)), "{notice}");
    // The rest follow as plain log lines, one each.
    assert_eq!(stdout.lines().filter(|l| !l.starts_with("::")).count(), total - 10, "{stdout}");
}

#[test]
fn junit_parses_with_a_case_per_check_and_locates_the_three_edits() {
    let dir = tempfile::tempdir().unwrap();
    let path = draft(dir.path(), "", &EDITS);
    let want = expected(&path);
    let (code, xml, stderr) = run(&["audit", "--format", "junit"], &path);
    assert_eq!(code, 1, "{stderr}");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    let (_, json, _) = run(&["audit", "--format", "json"], &path);
    let review: serde_json::Value = serde_json::from_str(&json).unwrap();
    let claims = review["registries"][0]["claims"].as_array().unwrap();
    let n_checks: usize = claims.iter().map(|c| c["checks"].as_array().unwrap().len()).sum();
    let check_cases = cases.iter().filter(|c| c.attribute("name").is_some_and(|n| n.contains(" check "))).count();
    assert_eq!(check_cases, n_checks);
    let case = |name: &str| *cases.iter().find(|c| c.attribute("name") == Some(name)).unwrap_or_else(|| panic!("no case {name}"));
    let failure = |c: roxmltree::Node| c.children().find(|n| n.has_tag_name("failure")).map(|f| f.attribute("message").unwrap_or("").to_string());

    let f6 = case("F6 check 1 stat 159.62 µs");
    assert!(failure(f6).unwrap().contains("evidence 157.62 µs"));
    assert_eq!((f6.attribute("line"), f6.attribute("column")), (Some(want.number.0.to_string().as_str()), Some(want.number.1.to_string().as_str())));
    assert_eq!(f6.attribute("registry-line"), Some(want.f6_check_line.to_string().as_str()));

    let p6 = case("P6 sentence");
    assert!(failure(p6).unwrap().contains("deleted"));
    assert_eq!(p6.attribute("line"), Some(want.deleted.0.to_string().as_str()));
    assert_eq!(p6.attribute("registry-line"), Some(want.p6_quote_line.to_string().as_str()));

    let unbound = cases.iter().find(|c| c.attribute("name").is_some_and(|n| n.starts_with("unbound 4.5 µs"))).expect("an unbound case");
    assert!(failure(*unbound).is_some());
    assert_eq!(unbound.attribute("line"), Some(want.unbound.0.to_string().as_str()));

    let suites = doc.root_element();
    assert_eq!(suites.attribute("failures"), Some("5"), "hash, P6, F6 sentence, F6 check, unbound");
}

#[test]
fn the_summary_lists_counts_failures_and_every_finding() {
    let dir = tempfile::tempdir().unwrap();
    let path = draft(dir.path(), "", &EDITS);
    let want = expected(&path);
    let summary = dir.path().join("summary.md");
    let (code, _, _) = run(&["audit", "--format", "github", "--summary", summary.to_str().unwrap()], &path);
    assert_eq!(code, 1);
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("## claimcheck audit: needs attention"), "{md}");
    assert!(md.contains(&format!("| F6 | stat | {}:{}:{} | 159.62 µs | 157.62 µs |", path.display(), want.number.0, want.number.1)), "{md}");
    assert!(md.contains("| P6 | retain | LOST |"), "{md}");
    assert!(md.contains(&format!("| CC007 unbound-number | error | {}:{}:{} |", path.display(), want.unbound.0, want.unbound.1)), "{md}");
}

#[test]
fn the_shipped_article_gives_empty_findings_in_every_format() {
    let (code, sarif, _) = claimcheck(["audit", "--format", "sarif"]);
    assert_eq!(code, 0);
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 0);
    let (code, github, _) = claimcheck(["audit", "--format", "github"]);
    assert_eq!((code, github.as_str()), (0, ""));
    let (code, xml, _) = claimcheck(["audit", "--format", "junit"]);
    assert_eq!(code, 0);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
}

/// The workflow's claimcheck steps, run here as the workflow runs them, produce the files it
/// uploads: the SARIF log, the summary and the review page.
#[test]
fn the_workflow_steps_produce_the_files_it_uploads() {
    let workflow = std::fs::read_to_string(".github/workflows/claimcheck.yml").unwrap();
    let steps: Vec<&str> = workflow.lines().filter_map(|l| l.trim().strip_prefix("run: target/release/claimcheck ")).collect();
    assert_eq!(steps.len(), 3, "{workflow}");
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("step-summary.md");
    for step in steps {
        // Each step is `ARGS [> FILE] [|| [ $? -eq 1 ]]`; run the arguments, keep the output.
        let command = step.split(" || ").next().unwrap().replace("\"$GITHUB_STEP_SUMMARY\"", summary.to_str().unwrap());
        let (args, redirect) = match command.split_once(" > ") {
            Some((a, f)) => (a.to_string(), Some(f.trim().to_string())),
            None => (command.clone(), None),
        };
        let args: Vec<String> = args.split_whitespace().map(|a| a.replace("claimcheck-review.html", dir.path().join("claimcheck-review.html").to_str().unwrap())).collect();
        let (code, stdout, stderr) = claimcheck(&args);
        assert_eq!(code, 0, "{step}: {stderr}");
        if let Some(file) = redirect {
            std::fs::write(dir.path().join(file), stdout).unwrap();
        }
    }
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("claimcheck.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(std::fs::read_to_string(&summary).unwrap().starts_with("## claimcheck audit: all claims hold"));
    assert!(std::fs::read_to_string(dir.path().join("claimcheck-review.html")).unwrap().starts_with("<!DOCTYPE html>"));
    // The workflow uploads what the steps wrote.
    assert!(workflow.contains("sarif_file: claimcheck.sarif") && workflow.contains("path: claimcheck-review.html"));
}

#[test]
fn the_readme_shows_the_workflow_as_it_is() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let workflow = std::fs::read_to_string(".github/workflows/claimcheck.yml").unwrap();
    assert!(readme.contains(&format!("```yaml\n{workflow}```\n")), "the README's workflow differs from .github/workflows/claimcheck.yml");
}

/// What the audit passes is a warning in every CI format (a passing case in JUnit, which has no
/// warnings), so that a passing job shows no error:
/// great_expectations' guide (examples/, Apache-2.0) has 18 unbound numbers under the policy
/// `unbound = "warn"` and exits 0, and HTML the audit cannot read is a warning (CC011) beside an
/// unbound number that stays an error. GitHub shows ten annotations of each level.
#[test]
fn findings_the_audit_passes_are_warnings_in_github_and_sarif() {
    let root = "examples/great-expectations-performance";
    let (code, github, _) = claimcheck(["audit", "--root", root, "--format", "github"]);
    assert_eq!(code, 0, "{github}");
    assert_eq!(github.lines().filter(|l| l.starts_with("::error ")).count(), 0, "{github}");
    assert_eq!(github.lines().filter(|l| l.starts_with("::warning ") && l.contains("title=CC007 unbound-number")).count(), 10, "{github}");
    assert!(github.lines().any(|l| l.starts_with("::notice ") && l.contains("8 more findings")), "{github}");
    assert_eq!(github.lines().filter(|l| l.contains(": warning CC007 unbound-number: ")).count(), 8, "{github}");
    let (_, sarif, _) = claimcheck(["audit", "--root", root, "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let levels: Vec<&str> = log["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert_eq!((levels.len(), levels.iter().all(|l| *l == "warning")), (18, true), "{levels:?}");
    let (_, xml, _) = claimcheck(["audit", "--root", root, "--format", "junit"]);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"), "{xml}");
    let unbound: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.attribute("name").is_some_and(|a| a.starts_with("unbound "))).collect();
    assert_eq!(unbound.len(), 18);
    assert!(unbound.iter().all(|c| c.children().any(|n| n.has_tag_name("system-out") && n.text().is_some_and(|t| t.starts_with("warning: unbound number")))), "{xml}");

    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    let article = "# R\n\nIt took 4.5 ms.\n\n<td>7</td>\n";
    std::fs::write(dir.path().join("article/a.md"), article).unwrap();
    let sha = claimcheck::hash::sha256_hex(article.as_bytes());
    std::fs::write(dir.path().join("claims/a.toml"), format!("[manuscript]\npath = \"article/a.md\"\nsha256 = \"{sha}\"\n")).unwrap();
    let root = dir.path().to_str().unwrap();
    let (code, github, _) = claimcheck(["audit", "--root", root, "--format", "github"]);
    assert_eq!(code, 1, "{github}");
    let warning = github.lines().find(|l| l.starts_with("::warning ")).unwrap_or_else(|| panic!("{github}"));
    assert!(warning.contains("title=CC011 article-not-read") && warning.contains("line=5"), "{warning}");
    assert!(github.lines().any(|l| l.starts_with("::error ") && l.contains("CC007") && l.contains("4.5 ms")), "{github}");
    let (_, sarif, _) = claimcheck(["audit", "--root", root, "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let mut schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("tests/schemas/sarif-schema-2.1.0.json").unwrap()).unwrap();
    drop_broken_pattern(&mut schema);
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.iter_errors(&log).next().is_none());
    let level_of = |rule: &str| log["runs"][0]["results"].as_array().unwrap().iter().find(|r| r["ruleId"] == rule).map(|r| r["level"].clone());
    assert_eq!((level_of("CC011"), level_of("CC007")), (Some("warning".into()), Some("error".into())));
}
