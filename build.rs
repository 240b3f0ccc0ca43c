//! Embeds the git commit the binary was built from, read from `.git` directly (no command is
//! run), so that every evidence run can say which code produced it.

use std::path::Path;

fn main() {
    // In a linked worktree `.git` is a file naming the worktree's git directory, whose
    // `commondir` holds the refs; the commit is read from there the same way.
    let dot_git = Path::new(".git");
    let gitdir = std::fs::read_to_string(dot_git).ok().and_then(|t| t.trim().strip_prefix("gitdir: ").map(std::path::PathBuf::from));
    println!("cargo:rerun-if-changed=.git");
    let (git, common) = match &gitdir {
        Some(dir) => {
            let common = std::fs::read_to_string(dir.join("commondir")).map(|c| dir.join(c.trim())).unwrap_or_else(|_| dir.clone());
            (dir.clone(), common)
        }
        None => (dot_git.to_path_buf(), dot_git.to_path_buf()),
    };
    let git = git.as_path();
    let mut commit = String::from("unknown");
    if let Ok(head) = std::fs::read_to_string(git.join("HEAD")) {
        println!("cargo:rerun-if-changed={}", git.join("HEAD").display());
        let head = head.trim();
        if let Some(reference) = head.strip_prefix("ref: ") {
            println!("cargo:rerun-if-changed={}", common.join(reference).display());
            // Watched only where it exists: cargo takes a missing watched file as changed, which
            // rebuilt the crate on every command in a checkout without packed refs. Without it,
            // the loose ref above is what changes when the branch moves.
            let packed = common.join("packed-refs");
            if packed.exists() {
                println!("cargo:rerun-if-changed={}", packed.display());
            }
            if let Ok(id) = std::fs::read_to_string(common.join(reference)) {
                commit = id.trim().to_string();
            } else if let Ok(packed) = std::fs::read_to_string(common.join("packed-refs"))
                && let Some(line) = packed.lines().find(|l| l.ends_with(reference))
            {
                commit = line.split_whitespace().next().unwrap_or("unknown").to_string();
            }
        } else {
            commit = head.to_string();
        }
    }
    println!("cargo:rustc-env=CLAIMCHECK_GIT_COMMIT={commit}");
}
