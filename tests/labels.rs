//! Labels that declare nothing: a claim's label or a registry's `[[label]]` whose number no
//! sentence it covers holds (an older draft's number, a date before dates were read as no
//! numbers) exempts nothing today and would exempt a number that came to read as it. The audit
//! reports each as a warning at its place in the registry (`CC012 unused-label`), and passes.

use crate::support;
use support::claimcheck;

const ARTICLE: &str = "# Labels\n\nThe box has 4 cores and 16 GB of memory.\n\nIt ran on Jun 3.\n";

/// A root with [`ARTICLE`] and a registry of one label that holds, three `[[label]]`s that do
/// not (no such number, a day now read as a date, a quote that reads otherwise) and a claim
/// with one label that holds and one that does not.
fn root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in ["article", "claims", "evidence"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    std::fs::write(dir.path().join("article/a.md"), ARTICLE).unwrap();
    let sha = claimcheck::hash::sha256_hex(ARTICLE.as_bytes());
    let registry = format!(
        r#"[manuscript]
path = "article/a.md"
sha256 = "{sha}"

[[label]]
number = "16 GB"
reason = "the machine's memory"

[[label]]
number = "32 GB"
reason = "a label left from an older draft"

[[label]]
number = "3"
quote = "It ran on Jun 3."
reason = "a day, before dates were read as dates"

[[label]]
number = "4"
quote = "The box has 8 cores"
reason = "a quote that no longer reads so"

[[claim]]
id = "cores"
quote = "The box has 4 cores and 16 GB of memory."
verdict = "judgment"
finding = "The machine as described."
labels = ["4", "5"]
"#
    );
    std::fs::write(dir.path().join("claims/a.toml"), registry).unwrap();
    dir
}

#[test]
fn labels_that_declare_nothing_are_warnings_at_their_place() {
    let dir = root();
    let at = dir.path().to_str().unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", at]);
    assert_eq!(code, 0, "warnings only: {out}{err}");
    assert!(out.contains("0 unbound numbers; all claims hold"), "{out}");
    let warnings: Vec<&str> = out.lines().filter(|l| l.contains(": warning: ")).collect();
    assert_eq!(
        warnings,
        [
            "claims/a.toml:28:16: warning: label `5` of claim cores declares no number of its sentence: remove it, or write the number as the sentence does",
            "claims/a.toml:10:10: warning: [[label]] `32 GB` declares no number of article/a.md: remove it, or write the number as the article does",
            "claims/a.toml:14:10: warning: [[label]] `3` declares no number of the sentence its quote finds: remove it, or write the number as the sentence does",
            "claims/a.toml:20:9: warning: [[label]] `4`: its quote \"The box has 8 cores\" is in no sentence of article/a.md: remove the label, or quote the sentence as it reads",
        ],
        "{out}"
    );
    let (code, github, _) = claimcheck(["audit", "--root", at, "--format", "github"]);
    assert_eq!(code, 0);
    assert_eq!(github.lines().filter(|l| l.starts_with("::warning file=claims/a.toml,") && l.contains("title=CC012 unused-label::")).count(), 4, "{github}");
    let (_, junit, _) = claimcheck(["audit", "--root", at, "--format", "junit"]);
    assert_eq!(junit.matches("<system-out>warning: CC012 unused-label: ").count(), 4, "{junit}");
    let (_, json, _) = claimcheck(["audit", "--root", at, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let unused = doc["registries"][0]["unused_labels"].as_array().unwrap();
    assert_eq!(unused.len(), 4);
    assert_eq!((unused[1]["line"].as_u64(), unused[1]["col"].as_u64()), (Some(10), Some(10)));
}

/// With the stale labels removed, nothing is reported: the labels that hold declare their
/// numbers, and the day of `Jun 3` needs none.
#[test]
fn labels_that_declare_their_numbers_are_not_reported() {
    let dir = root();
    let path = dir.path().join("claims/a.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: String = text.split("\n[[").enumerate().filter(|(i, part)| *i == 0 || !(part.contains("32 GB") || part.contains("Jun 3") || part.contains("8 cores"))).map(|(i, part)| if i == 0 { part.to_string() } else { format!("\n[[{part}") }).collect();
    std::fs::write(&path, kept.replace(r#"labels = ["4", "5"]"#, r#"labels = ["4"]"#)).unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("warning"), "{out}");
    assert!(out.contains("0 unbound numbers; all claims hold"), "{out}");
}
