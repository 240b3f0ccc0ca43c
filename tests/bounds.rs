//! Numbers quoted as bounds: a p-value printed `<0.0001` in a Markdown table, in prose (`p <
//! 0.0001`) and in a LaTeX `tabular` (`$<$0.0001`, `\textless 0.0001`) holds against a p-value
//! recomputed below it and fails, at its place in the article, against one above it.

use crate::support;
use support::claimcheck;

const MARKDOWN: &str = "# Tests\n\nEvery difference is significant (p < 0.0001).\n\n| problem | p |\n|---|---|\n| zdt1 | <0.0001 |\n| zdt2 | <0.0001 |\n";

const LATEX: &str = "\\begin{document}\n\\begin{tabular}{lr}\nproblem & p \\\\\nzdt1 & $<$0.0001 \\\\\nzdt2 & \\textless 0.0001 \\\\\n\\end{tabular}\n\\end{document}\n";

/// One p-value far below the bound and one above it.
const PVALUES: &str = "problem,p\nzdt1,3e-9\nzdt2,0.0123\n";

/// A `stat` check of `problem`'s p-value, with `number` where one is given.
fn check(problem: &str, number: Option<&str>) -> String {
    let number = number.map_or(String::new(), |n| format!("  number = \"{n}\"\n"));
    format!(
        "\n  [[claim.check]]\n  kind = \"stat\"\n{number}  samples = \"evidence/pvalues.csv\"\n  select = {{ problem = \"{problem}\" }}\n  field = \"p\"\n  statistic = \"median\"\n"
    )
}

/// A claim on the cell of `problem`'s row in column `p`.
fn cell_claim(problem: &str, number: Option<&str>) -> String {
    format!("\n[[claim]]\nid = \"{problem}\"\ncell = {{ row = \"{problem}\", column = \"p\" }}\nverdict = \"retain\"\nfinding = \"Its p-value.\"\n{}", check(problem, number))
}

/// A root with the two articles, the p-values and a registry for each article: `markdown_claims`
/// and `latex_claims` follow each `[manuscript]` table.
fn root(markdown_claims: &str, latex_claims: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    std::fs::write(dir.path().join("evidence/pvalues.csv"), PVALUES).unwrap();
    for (name, text, claims) in [("a.md", MARKDOWN, markdown_claims), ("b.tex", LATEX, latex_claims)] {
        std::fs::write(dir.path().join("article").join(name), text).unwrap();
        let sha = claimcheck::hash::sha256_hex(text.as_bytes());
        let registry = format!("[manuscript]\npath = \"article/{name}\"\nsha256 = \"{sha}\"\n{claims}");
        let stem = name.split('.').next().unwrap();
        std::fs::write(dir.path().join(format!("claims/{stem}.toml")), registry).unwrap();
    }
    dir
}

#[test]
fn a_bound_holds_below_it_and_fails_above_it_at_its_place() {
    let prose = format!(
        "\n[[claim]]\nid = \"prose\"\nquote = \"Every difference is significant (p < 0.0001).\"\nverdict = \"retain\"\nfinding = \"zdt1's p-value.\"\n{}",
        check("zdt1", Some("<0.0001"))
    );
    let markdown = format!("{prose}{}{}", cell_claim("zdt1", None), cell_claim("zdt2", Some("<0.0001")));
    let latex = format!("{}{}", cell_claim("zdt1", None), cell_claim("zdt2", Some("<0.0001")));
    let dir = root(&markdown, &latex);
    let at = dir.path().to_str().unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", at]);
    assert_eq!(code, 1, "the zdt2 cells fail: {out}{err}");
    assert!(out.contains("5 checks: 3 passed, 2 failed, 0 skipped, 0 errors; 0 unbound numbers"), "{out}");
    let failures: Vec<&str> = out.lines().filter(|l| l.contains(": FAIL: ")).collect();
    assert_eq!(failures, ["zdt2 stat <0.0001: FAIL: quoted <0.0001, evidence 0.0123 (median p of 1 samples)"; 2], "{out}");
    let (_, github, _) = claimcheck(["audit", "--root", at, "--format", "github"]);
    let failed: Vec<&str> = github.lines().filter(|l| l.contains("CC001 check-failed")).map(|l| l.split(",endLine").next().unwrap()).collect();
    assert_eq!(failed, ["::error file=article/a.md,line=8,col=10", "::error file=article/b.tex,line=5,col=16"], "{github}");
    assert!(github.lines().filter(|l| l.contains("CC001")).all(|l| l.contains("quoted <0.0001, evidence 0.0123")), "{github}");
}

/// The sentence's number without its comparator is not the number it quotes: the registry is
/// told where, and what the sentence quotes.
#[test]
fn a_number_without_the_sentence_s_comparator_is_located_and_shown() {
    let prose = format!(
        "\n[[claim]]\nid = \"prose\"\nquote = \"Every difference is significant (p < 0.0001).\"\nverdict = \"retain\"\nfinding = \"zdt1's p-value.\"\n{}",
        check("zdt1", Some("0.0001"))
    );
    let dir = root(&prose, &cell_claim("zdt1", None));
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "an input error: {out}{err}");
    assert!(err.contains("error: claim `prose`: number `0.0001` is not in its sentence\n  --> claims/a.toml:13:12"), "{err}");
    assert!(err.contains("= note: the sentence at line 3 quotes `< 0.0001`"), "{err}");
}

/// `suggest` proposes no statistic for a bound, which many satisfy, and says why.
#[test]
fn suggest_proposes_nothing_for_a_bound() {
    let dir = root("", "");
    let (code, out, err) = claimcheck(["suggest", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let why = "# a bound (<), not a value: many statistics lie below it, so none is proposed; write its claim with the test or statistic the text means";
    assert_eq!(out.matches(why).count(), 5, "{out}");
    assert!(out.contains("# article/b.tex:4:9 `<0.0001` in cell zdt1 › p\n"), "{out}");
    assert!(!out.contains("[[claim]]"), "{out}");
}
