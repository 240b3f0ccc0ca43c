//! `MANIFEST.sha256`: every file of a run with its SHA-256, in `sha256sum -c` format, and its
//! verification.

use std::path::Path;

use super::store::{Evidence, ReadError};
use crate::diagnostic::Diagnostic;
use crate::paths::PathError;
use crate::hash::sha256_hex;

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
                return Err(Diagnostic::at_line(
                    format!("{path}: line {}: expected `<sha256>  <file>`", idx + 1),
                    path,
                    idx + 1,
                    line,
                    "not a manifest line",
                ));
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
    // The files are read in order, here, through the root's handle, stopping at an entry that
    // refuses the whole manifest; only their hashes are then computed on every core, and the
    // problems are told in the manifest's order as before.
    let mut read = Vec::with_capacity(entries.len());
    for entry in &entries {
        if entry.path.split('/').any(|p| p == ".." || p.is_empty()) {
            read.push(None);
            continue;
        }
        let refused = |why: &str| {
            let line = manifest_text.lines().nth(entry.line - 1).unwrap_or("");
            Diagnostic::at_line(format!("{shown}: line {}: `{}` {why}", entry.line, entry.path), shown, entry.line, line, "this entry")
        };
        match evidence.file_itself(&format!("{dir}/{}", entry.path)) {
            Err(ReadError::Path(PathError::Link(_))) => return Err(refused("is a symbolic link; a manifest lists the files themselves")),
            Err(ReadError::Path(PathError::EscapesRoot(_))) => return Err(refused("leads outside the repository root through a symbolic link")),
            other => read.push(Some(other)),
        }
    }
    let contents: Vec<&[u8]> = read.iter().map(|r| match r {
        Some(Ok(bytes)) => bytes.as_slice(),
        _ => &[],
    }).collect();
    let hashes = hash_all(&contents);
    let mut problems = Vec::new();
    let mut verified = 0;
    for ((entry, read), actual) in entries.iter().zip(read).zip(hashes) {
        match read {
            None => problems.push(format!("line {}: `{}` leaves the run directory", entry.line, entry.path)),
            Some(Ok(_)) => {
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

/// The SHA-256 of each of `contents`, in order, computed on every core: a run's files come to
/// a few megabytes, and hashing them is most of a manifest check.
fn hash_all(contents: &[&[u8]]) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8).min(contents.len());
    if threads < 2 {
        return contents.iter().map(|c| sha256_hex(c)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let hash = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(content) = contents.get(i) else { break };
            done.push((i, sha256_hex(content)));
        }
        done
    };
    let mut done: Vec<(usize, String)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(hash)).collect();
        let mut done = hash();
        for helper in helpers {
            done.extend(helper.join().unwrap_or_default());
        }
        done
    });
    done.sort_by_key(|(i, _)| *i);
    // A helper that failed left gaps; those contents are hashed here.
    let mut out: Vec<Option<String>> = vec![None; contents.len()];
    for (i, h) in done {
        out[i] = Some(h);
    }
    out.into_iter().zip(contents).map(|(h, c)| h.unwrap_or_else(|| sha256_hex(c))).collect()
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
