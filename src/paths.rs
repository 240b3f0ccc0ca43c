//! Resolving paths named by a registry or on the command line against the repository root.
//! A registry is data: no path it names may reach outside the root, by `..`, by an absolute
//! path, or through a symbolic link that points outside.

use std::path::{Component, Path, PathBuf};

/// Why a path was refused or could not be opened.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PathError {
    #[error("path `{0}` is absolute; paths are relative to the repository root")]
    Absolute(String),
    #[error("path `{0}` climbs out of the repository root with `..`")]
    ParentDir(String),
    #[error("path `{0}` is empty")]
    Empty(String),
    #[error("path `{0}` leads outside the repository root through a symbolic link")]
    EscapesRoot(String),
    #[error("file `{0}` does not exist")]
    Missing(String),
}

/// The repository root that every relative path is resolved against.
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
    canonical: PathBuf,
}

impl Root {
    pub fn new(dir: &Path) -> std::io::Result<Root> {
        let canonical = dir.canonicalize()?;
        Ok(Root { dir: dir.to_path_buf(), canonical })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Resolves `rel` to an existing path inside the root. The check is made on the
    /// canonical form, so a symbolic link inside the root that points outside is refused.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, PathError> {
        let joined = self.join_lexically(rel)?;
        let canonical = match joined.canonicalize() {
            Ok(c) => c,
            Err(_) => {
                // A dangling link or a missing file: tell them apart, since the first is an
                // escape attempt as often as not.
                if std::fs::symlink_metadata(&joined).is_ok() {
                    return Err(PathError::EscapesRoot(rel.to_string()));
                }
                return Err(PathError::Missing(rel.to_string()));
            }
        };
        if !canonical.starts_with(&self.canonical) {
            return Err(PathError::EscapesRoot(rel.to_string()));
        }
        Ok(canonical)
    }

    /// Joins `rel` to the root after refusing absolute paths and `..`, without touching the
    /// file system. Used for paths that are about to be created.
    pub fn join_lexically(&self, rel: &str) -> Result<PathBuf, PathError> {
        if rel.trim().is_empty() {
            return Err(PathError::Empty(rel.to_string()));
        }
        let path = Path::new(rel);
        let mut out = self.dir.clone();
        for component in path.components() {
            match component {
                Component::Normal(part) => out.push(part),
                Component::CurDir => {}
                Component::ParentDir => return Err(PathError::ParentDir(rel.to_string())),
                Component::RootDir | Component::Prefix(_) => return Err(PathError::Absolute(rel.to_string())),
            }
        }
        Ok(out)
    }

    /// The root-relative form of a path inside the root, with `/` separators, for messages
    /// and reports: output never carries absolute paths.
    pub fn relative(&self, path: &Path) -> String {
        let rel = path
            .strip_prefix(&self.canonical)
            .or_else(|_| path.strip_prefix(&self.dir))
            .unwrap_or(path);
        rel.components()
            .filter_map(|c| match c {
                Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder, renamed into place, so
/// that a reader never sees half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    // A temporary file is private to its owner; the file it becomes keeps the mode of the one it
    // replaces, or is readable by others as a file written any other way would be.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o7777);
        tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes `bytes` to `path` as [`write_atomic`] does, but only where no file stands: the rename
/// refuses, with `AlreadyExists`, a file that appeared meanwhile, so that a new file never
/// replaces one (`init`).
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist_noclobber(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> (tempfile::TempDir, Root) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("evidence")).unwrap();
        std::fs::write(dir.path().join("evidence/a.txt"), "x").unwrap();
        let root = Root::new(dir.path()).unwrap();
        (dir, root)
    }

    #[test]
    fn resolves_a_file_inside_the_root() {
        let (_d, root) = root();
        let p = root.resolve("evidence/a.txt").unwrap();
        assert_eq!(root.relative(&p), "evidence/a.txt");
    }

    #[test]
    fn refuses_parent_components() {
        let (_d, root) = root();
        assert_eq!(root.resolve("evidence/../../etc/passwd"), Err(PathError::ParentDir("evidence/../../etc/passwd".into())));
    }

    #[test]
    fn refuses_absolute_paths() {
        let (_d, root) = root();
        assert!(matches!(root.resolve("/etc/passwd"), Err(PathError::Absolute(_))));
    }

    #[test]
    fn refuses_a_symlink_that_points_outside() {
        let (d, root) = root();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join("evidence/link")).unwrap();
        assert!(matches!(root.resolve("evidence/link/secret"), Err(PathError::EscapesRoot(_))));
    }

    #[test]
    fn reports_a_missing_file() {
        let (_d, root) = root();
        assert_eq!(root.resolve("evidence/none.txt"), Err(PathError::Missing("evidence/none.txt".into())));
    }
}
