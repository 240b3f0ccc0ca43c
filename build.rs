//! Embeds the git commit the binary was built from, read from `.git` directly (no command is
//! run), so that every evidence run can say which code produced it.

use std::path::Path;

fn main() {
    let git = Path::new(".git");
    let mut commit = String::from("unknown");
    if let Ok(head) = std::fs::read_to_string(git.join("HEAD")) {
        println!("cargo:rerun-if-changed=.git/HEAD");
        let head = head.trim();
        if let Some(reference) = head.strip_prefix("ref: ") {
            println!("cargo:rerun-if-changed=.git/{reference}");
            println!("cargo:rerun-if-changed=.git/packed-refs");
            if let Ok(id) = std::fs::read_to_string(git.join(reference)) {
                commit = id.trim().to_string();
            } else if let Ok(packed) = std::fs::read_to_string(git.join("packed-refs"))
                && let Some(line) = packed.lines().find(|l| l.ends_with(reference)) {
                    commit = line.split_whitespace().next().unwrap_or("unknown").to_string();
                }
        } else {
            commit = head.to_string();
        }
    }
    println!("cargo:rustc-env=CLAIMCHECK_GIT_COMMIT={commit}");
}
