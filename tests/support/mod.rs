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

/// A copy of what an audit of the shipped article reads, in a temporary directory.
#[allow(dead_code)]
pub fn repository_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in ["claims", "article", "evidence", "kernels", "src", "benches"] {
        copy_dir(Path::new(part), &dir.path().join(part));
    }
    dir
}
