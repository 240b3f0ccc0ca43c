//! The README shows what the tool prints, so it cannot drift: its verdict table is
//! `claimcheck table` on the shipped default, and its draft example is the tail of `audit`
//! after the three edits it describes.

use crate::support;
use support::{claimcheck, repository_copy};

fn readme() -> String {
    std::fs::read_to_string("README.md").unwrap()
}

/// The body of the fenced block that follows `after`.
fn block_after(text: &str, after: &str) -> String {
    let start = text.find(after).unwrap_or_else(|| panic!("README lacks {after:?}")) + after.len();
    let body = &text[start..];
    let open = body.find("```text\n").unwrap() + "```text\n".len();
    let close = body[open..].find("```\n").unwrap();
    body[open..open + close].to_string()
}

#[test]
fn the_readme_opens_with_the_two_set_up_commands() {
    let text = readme();
    assert!(text.starts_with("# claimcheck\n\n```sh\ncargo run --release -- audit "), "{}", &text[..200]);
    assert!(text.lines().nth(4).unwrap().starts_with("cargo test --release "), "{}", &text[..200]);
}

#[test]
fn the_verdict_table_is_what_the_tool_prints() {
    let (code, table, _) = claimcheck(["table"]);
    assert_eq!(code, 0);
    assert_eq!(block_after(&readme(), "`claimcheck table` prints:\n"), table);
}

#[test]
fn the_draft_example_is_what_the_tool_prints() {
    let copy = repository_copy();
    let article = copy.path().join("article/graphs-fusion-megakernels.md");
    let text = std::fs::read_to_string(&article)
        .unwrap()
        .replacen("took 157.62 µs on a stream", "took 159.62 µs on a stream", 1)
        .replacen("It also keeps the completion ordering between nodes: a node starts after the previous one has finished.", "", 1)
        .replacen("Measure first which cost you have.", "Measure first which cost you have. A typical launch costs about 4.5 µs from the host.", 1);
    std::fs::write(&article, text).unwrap();
    let (code, stdout, _) = claimcheck(["audit".as_ref(), "--claims".as_ref(), "claims/graphs-fusion-megakernels.toml".as_ref(), "--root".as_ref(), copy.path().as_os_str()]);
    assert_eq!(code, 1);
    let example = block_after(&readme(), "deleted claim sentence and a new sentence with a number, it ends:\n");
    let shown = example.split_once("…\n").unwrap().1;
    assert!(stdout.ends_with(shown), "README:\n{shown}\ntool:\n{stdout}");
}
