//! What a registry audits and what it leaves out: `[[ignore]]`, `[policy] unbound`, and the
//! numbers an `arith` check computes from, each passing and failing, through the command line.

use crate::support;
use support::claimcheck;

const ARTICLE: &str = "# Results\n\nGoing from 2.1 µs to 1.3 µs is a 38% reduction.\n\n# Appendix\n\nWe ran 7 times on 3 machines.\n";

/// A root with the article and a registry holding one arith claim, with `extra` TOML appended.
fn root(expr: &str, extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("claims")).unwrap();
    std::fs::write(dir.path().join("a.md"), ARTICLE).unwrap();
    let sha = claimcheck::hash::sha256_hex(ARTICLE.as_bytes());
    let registry = format!(
        "[manuscript]\npath = \"a.md\"\nsha256 = \"{sha}\"\n\n{extra}\n[[claim]]\nid = \"R1\"\nquote = \"is a 38% reduction\"\nverdict = \"retain\"\nfinding = \"The arithmetic holds.\"\n\n[[claim.check]]\nkind = \"arith\"\nnumber = \"38%\"\nexpr = \"{expr}\"\n"
    );
    std::fs::write(dir.path().join("claims/a.toml"), registry).unwrap();
    dir
}

fn audit(dir: &tempfile::TempDir) -> (i32, String, String) {
    claimcheck(["audit", "--root", dir.path().to_str().unwrap()])
}

#[test]
fn the_operands_of_a_passing_arith_check_are_its_inputs() {
    let dir = root("(2.1-1.3)/2.1*100", "[[ignore]]\nsection = \"Appendix\"\n");
    let (code, out, err) = audit(&dir);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("R1 2.1 µs: bound as an input of its arith check"), "{out}");
    assert!(out.contains("R1 1.3 µs: bound as an input of its arith check"), "{out}");
}

/// A result the registry records as wrong (`expect = "mismatch"`, and it is) was computed from
/// the same operands as a passing one: they are its inputs too. (A trial on outside material
/// found them reported unbound, so that recording an error left its sentence's numbers to bind
/// again.)
#[test]
fn the_operands_of_an_arith_check_recorded_as_wrong_are_its_inputs() {
    // Recorded as wrong against the slower time: (2.1 − 1.3) ÷ 1.3 is 61.5 %, not 38 %.
    let dir = root("(2.1-1.3)/1.3*100", "[[ignore]]\nsection = \"Appendix\"\n");
    let registry = dir.path().join("claims/a.toml");
    let text = std::fs::read_to_string(&registry).unwrap().replace("verdict = \"retain\"", "verdict = \"correct\"") + "expect = \"mismatch\"\n";
    std::fs::write(&registry, text).unwrap();
    let (code, out, err) = audit(&dir);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("R1 2.1 µs: bound as an input of its arith check") && out.contains("R1 1.3 µs: bound as an input of its arith check"), "{out}");
}

#[test]
fn a_failing_arith_check_binds_no_inputs() {
    let dir = root("(2.1-1.2)/2.1*100", "[[ignore]]\nsection = \"Appendix\"\n");
    let (code, out, _) = audit(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unbound number `2.1 µs`") && out.contains("unbound number `1.3 µs`"), "{out}");
}

#[test]
fn an_ignored_section_is_listed_and_its_numbers_are_not_unbound() {
    let (code, out, _) = audit(&root("(2.1-1.3)/2.1*100", ""));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unbound number `7`") && out.contains("unbound number `3`"), "{out}");
    let (code, out, _) = audit(&root("(2.1-1.3)/2.1*100", "[[ignore]]\nsection = \"Appendix\"\nreason = \"run counts, not results\"\n"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("section \"Appendix\" is not audited ([[ignore]]): 2 numbers not checked"), "{out}");
    assert!(!out.contains("unbound number `"), "{out}");
}

#[test]
fn an_ignored_section_that_does_not_exist_is_a_located_error() {
    let (code, _, err) = audit(&root("(2.1-1.3)/2.1*100", "[[ignore]]\nsection = \"Apendix\"\n"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("claims/a.toml:6:11") && err.contains("Apendix"), "{err}");
}

/// The article with a table under "Appendix" beside its prose.
const WITH_TABLE: &str = "# Results\n\nGoing from 2.1 µs to 1.3 µs is a 38% reduction.\n\n# Appendix\n\nWe ran 7 times on 3 machines.\n\n| run | time |\n|---|---|\n| a | 4.5 |\n";

fn root_with_table(extra: &str) -> tempfile::TempDir {
    let dir = root("(2.1-1.3)/2.1*100", extra);
    std::fs::write(dir.path().join("a.md"), WITH_TABLE).unwrap();
    let registry = std::fs::read_to_string(dir.path().join("claims/a.toml")).unwrap();
    let old = claimcheck::hash::sha256_hex(ARTICLE.as_bytes());
    let new = claimcheck::hash::sha256_hex(WITH_TABLE.as_bytes());
    std::fs::write(dir.path().join("claims/a.toml"), registry.replace(&old, &new)).unwrap();
    dir
}

#[test]
fn an_ignored_table_leaves_the_sections_prose_audited() {
    let (code, out, _) = audit(&root_with_table("[[ignore]]\nsection = \"Appendix\"\ntable = true\n"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the tables of section \"Appendix\" is not audited ([[ignore]]): 1 numbers not checked"), "{out}");
    assert!(out.contains("unbound number `7`") && out.contains("unbound number `3`"), "{out}");
    assert!(!out.contains("unbound number `4.5`"), "{out}");
    let (code, out, _) = audit(&root_with_table("[[ignore]]\nsection = \"Appendix\"\n"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("section \"Appendix\" is not audited ([[ignore]]): 3 numbers not checked"), "{out}");
}

#[test]
fn an_ignored_table_under_a_section_without_tables_is_a_located_error() {
    let (code, _, err) = audit(&root("(2.1-1.3)/2.1*100", "[[ignore]]\nsection = \"Appendix\"\ntable = true\n"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("claims/a.toml:6:11") && err.contains("has no table"), "{err}");
}

#[test]
fn a_warn_policy_reports_unbound_numbers_without_failing_or_blocking_accept() {
    let dir = root("(2.1-1.3)/2.1*100", "[policy]\nunbound = \"warn\"\n");
    let (code, out, _) = audit(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("unbound number `7`") && out.contains("policy is unbound = \"warn\""), "{out}");
    let (code, out, err) = claimcheck(["accept", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.path().join("claims/a.lock").exists());
    let (code, _, err) = audit(&root("(2.1-1.3)/2.1*100", "[policy]\nunbound = \"maybe\"\n"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("claims/a.toml:"), "{err}");
}
