//! A manuscript split into files: what `\input` and `.. include::` bring in is read where it is
//! brought in, reported at its own file and line, covered by the manuscript's SHA-256, read by
//! a draft from its manuscript's folder, and never read from outside the root.

use crate::support;
use support::claimcheck;

use std::path::Path;

const MAIN: &str = "\\documentclass{article}\n\\begin{document}\n\\section{Results}\nThe setup took 4 ms.\n\\input{sections/eval}\n\\end{document}\n";
const EVAL: &str = "% The evaluation.\nReplay took 2 ms on the card.\n";

/// A root with `paper/main.tex` bringing in `paper/sections/eval.tex`, and a registry that
/// binds the sentence of each file, recording `sha256`.
fn root(sha256: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "paper/main.tex", MAIN);
    write(dir.path(), "paper/sections/eval.tex", EVAL);
    let registry = format!(
        "[manuscript]\npath = \"paper/main.tex\"\nsha256 = \"{sha256}\"\n\n\
         [[claim]]\nid = \"S\"\nquote = \"The setup took 4 ms.\"\nverdict = \"retain\"\nfinding = \"As measured.\"\n\n  [[claim.check]]\n  kind = \"arith\"\n  number = \"4 ms\"\n  expr = \"4\"\n\n\
         [[claim]]\nid = \"R\"\nquote = \"Replay took 2 ms\"\nverdict = \"retain\"\nfinding = \"As measured.\"\n\n  [[claim.check]]\n  kind = \"arith\"\n  number = \"2 ms\"\n  expr = \"2\"\n"
    );
    write(dir.path(), "claims/main.toml", &registry);
    dir
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The manuscript's SHA-256 as the tool reads it: that of the main file with its input spliced
/// in where `\input` stood.
fn spliced_sha256() -> String {
    claimcheck::hash::sha256_hex(MAIN.replace("\\input{sections/eval}", EVAL).as_bytes())
}

#[test]
fn a_claim_in_a_file_brought_in_binds_and_is_reported_at_its_own_file_and_line() {
    let dir = root(&spliced_sha256());
    let at = dir.path().to_str().unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", at]);
    assert_eq!(code, 0, "{out}{err}");
    let (_, json, err) = claimcheck(["audit", "--root", at, "--format", "json"]);
    let review: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}{err}"));
    let claims = &review["registries"][0]["claims"];
    assert_eq!(claims[0]["binding"]["sentence"]["file"], "paper/main.tex", "{json}");
    assert_eq!(claims[0]["binding"]["sentence"]["line"], 4, "{json}");
    assert_eq!(claims[1]["binding"]["sentence"]["file"], "paper/sections/eval.tex", "{json}");
    assert_eq!(claims[1]["binding"]["sentence"]["line"], 2, "{json}");
    assert_eq!(claims[1]["binding"]["sentence"]["col"], 1, "{json}");
}

#[test]
fn an_edit_to_a_file_brought_in_changes_the_manuscript() {
    let dir = root(&spliced_sha256());
    let at = dir.path().to_str().unwrap();
    write(dir.path(), "paper/sections/eval.tex", &format!("{EVAL}It ran 9 times.\n"));
    let (code, out, err) = claimcheck(["audit", "--root", at, "--format", "github"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("manuscript-hash"), "{out}");
    // The new number is unbound at its place in the file that holds it.
    assert!(out.contains("file=paper/sections/eval.tex,line=3,col=8"), "{out}");
}

#[test]
fn init_names_each_number_at_its_file_and_gives_ids_that_do_not_collide() {
    let dir = root(&spliced_sha256());
    let at = dir.path().to_str().unwrap();
    std::fs::remove_file(dir.path().join("claims/main.toml")).unwrap();
    let (code, out, err) = claimcheck(["init", "paper/main.tex", "--root", at]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 skeletons for 2 numbers"), "{out}");
    let text = std::fs::read_to_string(dir.path().join("claims/main.toml")).unwrap();
    assert!(text.contains(&format!("sha256 = \"{}\"", spliced_sha256())), "{text}");
    assert!(text.contains("# line 4 (Results): 4 ms"), "{text}");
    assert!(text.contains("# paper/sections/eval.tex:2 (Results): 2 ms"), "{text}");
    assert!(text.contains("id = \"eval-line2-1\""), "{text}");
}

#[test]
fn a_draft_brings_in_its_manuscripts_inputs_wherever_it_is_saved() {
    let dir = root(&spliced_sha256());
    let at = dir.path().to_str().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let draft = elsewhere.path().join("main.tex");
    std::fs::write(&draft, MAIN.replace("\\input", "Drafted in 7 ms.\n\\input")).unwrap();
    let (code, out, err) = claimcheck(["audit", "--root", at, "--draft", draft.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains(&format!("{}:5:12: unbound number `7 ms`", draft.display())), "{out}");
    // Both claims bind: the one in the input was read from the manuscript's folder.
    assert!(!out.contains("matches no sentence") && !err.contains("matches no sentence"), "{out}{err}");
}

#[test]
fn an_input_that_leads_out_of_the_root_is_refused_and_never_read() {
    let dir = root(&spliced_sha256());
    let at = dir.path().to_str().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.tex"), "SECRET took 99 ms.\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.tex"), dir.path().join("paper/sections/more.tex")).unwrap();
    write(dir.path(), "paper/main.tex", &MAIN.replace("\\end{document}", "\\input{sections/more}\n\\input{/etc/hostname}\n\\input{../../x}\n\\end{document}"));
    let (_, out, err) = claimcheck(["audit", "--root", at]);
    assert!(!out.contains("SECRET") && !err.contains("SECRET") && !out.contains("99 ms"), "{out}{err}");
    assert!(
        out.contains("paper/main.tex:6:1: warning: not read: `\\input{sections/more}` path `paper/sections/more.tex` leads outside the repository root through a symbolic link"),
        "{out}"
    );
    assert!(out.contains("an absolute path") && out.contains("climbs out of the root"), "{out}");
}

#[test]
fn a_restructuredtext_include_is_read_from_the_including_files_folder() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "docs/index.rst", "Results\n=======\n\n.. include:: parts/timing.rst\n\nThe end.\n");
    write(dir.path(), "docs/parts/timing.rst", "Replay took 2 ms.\n");
    let (code, out, err) = claimcheck(["init", "docs/index.rst", "--root", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(dir.path().join("claims/index.toml")).unwrap();
    assert!(text.contains("# docs/parts/timing.rst:1 (Results): 2 ms"), "{text}");
}

#[test]
fn an_accepted_lock_places_a_sentence_of_a_file_brought_in_and_a_deletion_there_is_reported() {
    let dir = root(&spliced_sha256());
    let at = dir.path().to_str().unwrap();
    let (code, out, err) = claimcheck(["accept", "--root", at]);
    assert_eq!(code, 0, "{out}{err}");
    let lock = std::fs::read_to_string(dir.path().join("claims/main.lock")).unwrap();
    assert!(lock.contains("file = \"paper/sections/eval.tex\""), "{lock}");
    let (code, out, err) = claimcheck(["audit", "--root", at]);
    assert_eq!(code, 0, "{out}{err}");
    // The sentence that held R goes: the audit says where it stood, in its own file.
    write(dir.path(), "paper/sections/eval.tex", "% The evaluation.\n");
    let (code, out, err) = claimcheck(["audit", "--root", at]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(out.contains("R lost: the sentence that held it (line 2 of paper/sections/eval.tex as accepted) was deleted"), "{out}{err}");
}
