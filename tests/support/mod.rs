//! Helpers shared by the integration tests.

use std::path::Path;

/// Copies the tree at `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs the built `claimcheck` with `args`; returns the exit code, stdout and stderr.
#[allow(dead_code)]
pub fn claimcheck<I, S>(args: I) -> (i32, String, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_claimcheck")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A fresh root holding `article` as `article/post.md`, an empty `evidence/` and, where
/// `registry` is given, `claims/post.toml`: the manuscript's hash and a warning policy for
/// unbound numbers before the registry's claims.
#[allow(dead_code)]
pub fn post_root(article: &str, registry: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("article")).unwrap();
    std::fs::create_dir_all(dir.path().join("evidence")).unwrap();
    std::fs::write(dir.path().join("article/post.md"), article).unwrap();
    if let Some(claims) = registry {
        std::fs::create_dir_all(dir.path().join("claims")).unwrap();
        let sha = claimcheck::hash::sha256_hex(article.as_bytes());
        std::fs::write(dir.path().join("claims/post.toml"), format!("[manuscript]\npath = \"article/post.md\"\nsha256 = \"{sha}\"\n\n[policy]\nunbound = \"warn\"\n\n{claims}"))
            .unwrap();
    }
    dir
}

/// Runs `init` on `article/post.md` under `root` and checks that it wrote a skeleton for each of
/// `numbers` numbers, each under a `cell` selector no other skeleton names: the registry's text,
/// whose `# cell = ...` lines a test then looks for.
#[allow(dead_code)]
pub fn init_cells_one_selector_each(root: &Path, numbers: usize) -> String {
    let (code, out, err) = claimcheck(["init", "article/post.md", "--root", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("{numbers} skeletons for {numbers} numbers")), "{out}");
    let text = std::fs::read_to_string(root.join("claims/post.toml")).unwrap();
    let selectors: Vec<&str> = text.lines().filter(|l| l.starts_with("# cell = ")).collect();
    assert_eq!(selectors.len(), numbers);
    let unique: std::collections::BTreeSet<&str> = selectors.iter().copied().collect();
    assert_eq!(unique.len(), selectors.len(), "two skeletons name the same cell");
    text
}

/// A copy of what an audit of the shipped article reads, in a temporary directory.
#[allow(dead_code)]
pub fn repository_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in ["claims", "article", "evidence", "kernels", "src", "benches"] {
        copy_dir(Path::new(part), &dir.path().join(part));
    }
    dir
}

/// `suggest` over a fresh root whose `evidence/` folder `fill` puts in place, with `article` as
/// `article/a.md` and the registry `init` starts for it (`claims/a.toml`): the root and the
/// proposals.
#[allow(dead_code)]
pub fn suggested_over(article: &str, fill: impl FnOnce(&Path)) -> (tempfile::TempDir, String) {
    suggested_over_as("article/a.md", article, fill)
}

/// [`suggested_over`] with the article at `path` (`article/main.tex`), whose extension names its
/// syntax.
pub fn suggested_over_as(path: &str, article: &str, fill: impl FnOnce(&Path)) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("article")).unwrap();
    std::fs::create_dir_all(root.join("evidence")).unwrap();
    fill(root);
    std::fs::write(root.join(path), article).unwrap();
    let (code, _, err) = claimcheck(["init", path, "--root", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = claimcheck(["suggest", "--root", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    (dir, out)
}

/// Pastes `proposed` into the registry `init` started (`claims/a.toml`) and audits: the exit
/// code, and stdout and stderr together.
#[allow(dead_code)]
pub fn paste_and_audit(root: &Path, proposed: &str) -> (i32, String) {
    let registry = root.join("claims/a.toml");
    let mut text = std::fs::read_to_string(&registry).unwrap();
    text.push('\n');
    text.push_str(proposed);
    std::fs::write(&registry, text).unwrap();
    let (code, stdout, stderr) = claimcheck(["audit", "--root", root.to_str().unwrap()]);
    (code, format!("{stdout}{stderr}"))
}
