//! `MANIFEST.sha256`: every file of a run with its SHA-256, in `sha256sum -c` format, and its
//! verification.

use std::path::Path;

use super::store::{Evidence, ReadError};
use crate::diagnostic::Diagnostic;
use crate::hash::sha256_hex;
use crate::paths::PathError;

/// One line of `MANIFEST.sha256`.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestEntry {
    pub sha256: String,
    /// Path relative to the manifest's directory.
    pub path: String,
    pub line: usize,
}

/// Parses `sha256sum` output: `<64 hex>  <path>` (or `<hex> *<path>` for binary mode).
pub fn parse_manifest(path: &str, text: &str) -> Result<Vec<ManifestEntry>, Diagnostic> {
    let mut out = Vec::new();
    for (idx, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed = line.split_once("  ").or_else(|| line.split_once(" *"));
        match parsed {
            Some((hash, file)) if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && !file.is_empty() => {
                out.push(ManifestEntry { sha256: hash.to_ascii_lowercase(), path: file.to_string(), line: idx + 1 });
            }
            _ => {
                return Err(Diagnostic::at_line(format!("{path}: line {}: expected `<sha256>  <file>`", idx + 1), path, idx + 1, line, "not a manifest line"));
            }
        }
    }
    Ok(out)
}

/// Verifies a run directory (root-relative `dir`) against its manifest text: every listed file
/// has its SHA-256, and every file of the directory is listed. Returns the number of files
/// verified and what does not hold. `remote_only` names listed files that may be absent here.
///
/// A listed entry must be the file itself: one that is a symbolic link (wherever it points,
/// inside the run or out of the root, existing or not) or that is reached through a link out of
/// the root is an error located at its line of the manifest, and nothing about its target is
/// read or told.
pub fn verify(evidence: &Evidence, dir: &str, manifest_text: &str, shown: &str, remote_only: &[String]) -> Result<(usize, Vec<String>), Diagnostic> {
    let entries = parse_manifest(shown, manifest_text)?;
    let manifest_name = shown.rsplit('/').next().unwrap_or(shown).to_string();
    // The files are read and hashed on every core (each opened once, by the root's handle);
    // what they say is then told in the manifest's order, as before: the first entry that is a
    // link refuses the whole manifest.
    let inside = |entry: &ManifestEntry| !entry.path.split('/').any(|p| p == ".." || p.is_empty());
    let rels: Vec<String> = entries.iter().filter(|e| inside(e)).map(|e| format!("{dir}/{}", e.path)).collect();
    let mut hashed = evidence.each_file_itself(&rels, sha256_hex).into_iter();
    let mut read = Vec::with_capacity(entries.len());
    for entry in &entries {
        if !inside(entry) {
            read.push(None);
            continue;
        }
        let refused = |why: &str| {
            let line = manifest_text.lines().nth(entry.line - 1).unwrap_or("");
            Diagnostic::at_line(format!("{shown}: line {}: `{}` {why}", entry.line, entry.path), shown, entry.line, line, "this entry")
        };
        match hashed.next().unwrap_or_else(|| Err(ReadError::Io(std::io::Error::other("not read")))) {
            Err(ReadError::Path(PathError::Link(_))) => return Err(refused("is a symbolic link; a manifest lists the files themselves")),
            Err(ReadError::Path(PathError::EscapesRoot(_))) => return Err(refused("leads outside the repository root through a symbolic link")),
            other => read.push(Some(other)),
        }
    }
    let mut problems = Vec::new();
    let mut verified = 0;
    for (entry, read) in entries.iter().zip(read) {
        match read {
            None => problems.push(format!("line {}: `{}` leaves the run directory", entry.line, entry.path)),
            Some(Ok(actual)) => {
                if actual == entry.sha256 {
                    verified += 1;
                } else {
                    problems.push(format!("{}: sha256 is {}…, manifest says {}…", entry.path, &actual[..12], &entry.sha256[..12]));
                }
            }
            Some(Err(_)) if remote_only.contains(&entry.path) => {}
            Some(Err(ReadError::Path(PathError::Missing(_)))) => problems.push(format!("{}: listed but missing", entry.path)),
            Some(Err(ReadError::Path(e))) => problems.push(format!("{}: {e}", entry.path)),
            Some(Err(e)) => problems.push(e.at(&entry.path).message),
        }
    }
    let files = evidence.root().list_tree(dir).map_err(|e| Diagnostic::plain(format!("listing {dir}: {e}")))?;
    for (file, kind) in files {
        if file != manifest_name && !entries.iter().any(|e| e.path == file) {
            // A link is named as one, never followed: nothing about its target is told.
            let link = if kind == crate::paths::Kind::Link { " (a symbolic link)" } else { "" };
            problems.push(format!("{file}: present but not listed{link}"));
        }
    }
    Ok((verified, problems))
}

/// Every regular file under `dir`, as sorted `/`-separated paths relative to it. Sub-folders
/// are walked through folder handles and a link is listed as an entry, never followed.
pub fn list_files(dir: &Path) -> std::io::Result<Vec<String>> {
    let root = crate::paths::Root::new(dir)?;
    let files = root.list_tree(".").map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_lines_parse_and_bad_lines_are_located() {
        let hash = "a".repeat(64);
        let entries = parse_manifest("M", &format!("{hash}  samples.jsonl\n{hash} *traces/q.jsonl\n")).unwrap();
        assert_eq!(entries[1].path, "traces/q.jsonl");
        let err = parse_manifest("M", &format!("{hash}  a\nbroken\n")).unwrap_err();
        assert_eq!(err.position().unwrap(), "M:2:1");
    }
}
