//! `claimcheck init`: a new registry that loads as written, reports every number unbound, and
//! is never written over an existing one.

use crate::support;
use support::claimcheck;

const ARTICLE: &str = "# Results\n\nThe median request took 0.52 s over 150 requests.\n\n| Provider | Median |\n|---|---|\n| groq | 185 |\n";

fn root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("article")).unwrap();
    std::fs::create_dir_all(dir.path().join("evidence")).unwrap();
    std::fs::write(dir.path().join("article/post.md"), ARTICLE).unwrap();
    std::fs::write(dir.path().join("evidence/r.csv"), "provider,ttft_s\ngroq,0.5\ngroq,0.54\n").unwrap();
    dir
}

#[test]
fn init_writes_a_registry_that_audits_as_unbound_numbers_not_as_bad_input() {
    let dir = root();
    let at = dir.path().to_str().unwrap();
    let (code, out, err) = claimcheck(["init", "article/post.md", "--evidence", "evidence", "--root", at]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("claims/post.toml written: 2 skeletons for 3 numbers"), "{out}");
    let text = std::fs::read_to_string(dir.path().join("claims/post.toml")).unwrap();
    assert!(text.contains(&claimcheck::hash::sha256_hex(ARTICLE.as_bytes())), "{text}");
    assert!(text.contains("# cell = { row = \"groq\", column = \"Median\""), "{text}");
    assert!(text.contains("evidence/r.csv: read as CSV"), "{text}");
    let (code, out, err) = claimcheck(["audit", "--root", at]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    for n in ["0.52 s", "150", "185"] {
        assert!(out.contains(&format!("unbound number `{n}`")), "{out}");
    }
}

#[test]
fn init_never_replaces_a_registry() {
    let dir = root();
    let at = dir.path().to_str().unwrap();
    std::fs::create_dir_all(dir.path().join("claims")).unwrap();
    std::fs::write(dir.path().join("claims/post.toml"), "# mine\n").unwrap();
    let (code, _, err) = claimcheck(["init", "article/post.md", "--root", at]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("claims/post.toml exists"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.path().join("claims/post.toml")).unwrap(), "# mine\n");
}

#[test]
fn init_of_an_article_outside_the_root_is_refused() {
    let dir = root();
    let (code, _, err) = claimcheck(["init", "../post.md", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(!dir.path().join("claims").exists());
}
