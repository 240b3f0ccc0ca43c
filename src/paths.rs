//! The repository root and every path under it: the one place that opens, lists, creates and
//! replaces files under the root. A registry is data: no path it names may reach outside the
//! root, by `..`, by an absolute path, or through a symbolic link that points outside, and that
//! is decided when the file is opened, not before.
//!
//! Paths are first checked as text (not empty, not absolute, no `..`), then opened through the
//! crate's confined handle on the root (`confined`), which walks them one component at a time
//! relative to folder handles and refuses, at open time, any link that leaves the root; files
//! are replaced through the one atomic writer (`atomic`). Nothing here resolves a path to a
//! name and opens it later, so a file swapped for a link between a check and an open cannot
//! lead outside.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

pub(crate) use crate::confined::Stream;
use crate::confined::{Confined, ConfinedError, LastLink};

pub(crate) use crate::confined::Kind;

/// Why a path was refused or could not be opened. Each names the path as it was given, never
/// a link's target or anything read from a file.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    #[error("path `{0}` is absolute; paths are relative to the repository root (`--root`, the current folder by default): copy the file under it")]
    Absolute(String),
    #[error("path `{0}` climbs out of the repository root with `..`")]
    ParentDir(String),
    #[error("path `{0}` is empty")]
    Empty(String),
    #[error("path `{0}` leads outside the repository root through a symbolic link")]
    EscapesRoot(String),
    #[error("file `{0}` does not exist")]
    Missing(String),
    #[error("path `{0}` is a symbolic link; it must be the file itself")]
    Link(String),
    #[error("path `{0}` passes through too many symbolic links")]
    Loop(String),
    #[error("path `{0}` is not a regular file")]
    NotFile(String),
    #[error("path `{0}` is not a folder")]
    NotDir(String),
    #[error("`{0}` already exists")]
    Exists(String),
    #[error("`{path}`: {source}")]
    Io { path: String, source: std::io::Error },
}

impl PathError {
    /// Whether the path itself was refused (bad input), rather than the system failing to
    /// read or write it (a full disk, a permission).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, PathError::Io { .. })
    }
}

impl From<ConfinedError> for PathError {
    fn from(e: ConfinedError) -> PathError {
        match e {
            ConfinedError::Empty(p) => PathError::Empty(p),
            ConfinedError::Absolute(p) => PathError::Absolute(p),
            ConfinedError::Escapes(p) => PathError::EscapesRoot(p),
            ConfinedError::LastLink(p) => PathError::Link(p),
            ConfinedError::Loop(p) => PathError::Loop(p),
            ConfinedError::Missing(p) => PathError::Missing(p),
            ConfinedError::NotFile(p) => PathError::NotFile(p),
            ConfinedError::NotDir(p) => PathError::NotDir(p),
            ConfinedError::Exists(p) => PathError::Exists(p),
            ConfinedError::Io { path, source } => PathError::Io { path, source },
        }
    }
}

/// A file read whole, or left open because it is large enough to stream ([`Root::read_if_below`]).
pub(crate) enum Held {
    /// Its bytes, and whether it was reached through a link.
    Bytes(Vec<u8>, bool),
    Large(Stream),
}

/// Every byte of an opened file (`rel` names it in an error).
fn read_whole(mut stream: Stream, rel: &str) -> Result<Vec<u8>, PathError> {
    let mut bytes = Vec::with_capacity(stream.len() as usize);
    std::io::Read::read_to_end(&mut stream, &mut bytes).map_err(|source| PathError::Io { path: rel.to_string(), source })?;
    Ok(bytes)
}

/// The repository root, held open as a folder handle: every relative path is opened against
/// it. Clones share the handle.
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
    canonical: PathBuf,
    handle: Arc<Confined>,
}

impl Root {
    pub fn new(dir: &Path) -> std::io::Result<Root> {
        let canonical = dir.canonicalize()?;
        let handle = Arc::new(Confined::new(dir)?);
        Ok(Root { dir: dir.to_path_buf(), canonical, handle })
    }

    /// The root as it was named, for messages and for the GPU suite's run writer.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `rel` in the one spelling used as a key: checked as text, `.` and empty components
    /// dropped. `..` and absolute paths are refused here, before anything is opened.
    pub fn normal(&self, rel: &str) -> Result<String, PathError> {
        if rel.trim().is_empty() {
            return Err(PathError::Empty(rel.to_string()));
        }
        let mut parts = Vec::new();
        for component in Path::new(rel).components() {
            match component {
                Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
                Component::CurDir => {}
                Component::ParentDir => return Err(PathError::ParentDir(rel.to_string())),
                Component::RootDir | Component::Prefix(_) => return Err(PathError::Absolute(rel.to_string())),
            }
        }
        if parts.is_empty() {
            return Err(PathError::Empty(rel.to_string()));
        }
        Ok(parts.join("/"))
    }

    /// Reads the regular file at `rel`; links inside the root are followed, any that leaves
    /// it is refused at the open. Also says whether the file itself was reached through a
    /// link, as the open saw it.
    pub(crate) fn read(&self, rel: &str) -> Result<(Vec<u8>, bool), PathError> {
        self.read_as(rel, LastLink::Follow)
    }

    /// Reads the regular file at `rel`, which must be the file itself and not a link to one
    /// (a manifest entry); folders above it may be links inside the root.
    pub(crate) fn read_itself(&self, rel: &str) -> Result<Vec<u8>, PathError> {
        self.read_as(rel, LastLink::Refuse).map(|(bytes, _)| bytes)
    }

    fn read_as(&self, rel: &str, last: LastLink) -> Result<(Vec<u8>, bool), PathError> {
        let (stream, linked) = self.open_as(rel, last)?;
        Ok((read_whole(stream, rel)?, linked))
    }

    /// As [`Root::read`] where the file is smaller than `limit` bytes; a larger one is left
    /// open, unread, for a reader that streams it.
    pub(crate) fn read_if_below(&self, rel: &str, limit: u64) -> Result<Held, PathError> {
        let (stream, linked) = self.open_as(rel, LastLink::Follow)?;
        if stream.len() >= limit {
            return Ok(Held::Large(stream));
        }
        Ok(Held::Bytes(read_whole(stream, rel)?, linked))
    }

    /// The regular file at `rel`, open to be streamed, by the rules of [`Root::read`].
    pub(crate) fn open(&self, rel: &str) -> Result<Stream, PathError> {
        self.open_as(rel, LastLink::Follow).map(|(stream, _)| stream)
    }

    /// The regular file at `rel` opened through the root's handle, and whether it was reached
    /// through a link.
    fn open_as(&self, rel: &str, last: LastLink) -> Result<(Stream, bool), PathError> {
        let key = self.normal(rel)?;
        let (file, linked) = self.handle.open_noting_link(&key, last).map_err(|e| renamed(e.into(), rel))?;
        let stream = Stream::new(file).map_err(|source| PathError::Io { path: rel.to_string(), source })?;
        Ok((stream, linked))
    }

    /// Whether a file or folder is at `rel`, inside the root (links followed inside it).
    pub fn exists(&self, rel: &str) -> bool {
        let Ok(key) = self.normal(rel) else { return false };
        self.handle.open_dir(&key).is_ok() || self.handle.open(&key, LastLink::Follow).is_ok()
    }

    /// That `rel` is a folder inside the root (a run directory), or why not.
    pub fn folder(&self, rel: &str) -> Result<(), PathError> {
        let key = self.normal(rel)?;
        self.handle.open_dir(&key).map(|_| ()).map_err(|e| renamed(e.into(), rel))
    }

    /// The entries of the folder at `rel`, sorted, each with what it is (a link as a link).
    pub(crate) fn list(&self, rel: &str) -> Result<Vec<(String, Kind)>, PathError> {
        let key = self.normal(rel)?;
        self.handle.list(&key).map_err(|e| renamed(e.into(), rel))
    }

    /// Every entry under the folder at `rel` (`"."` for the root), sub-folders walked but never
    /// through a link, as sorted paths relative to it.
    pub(crate) fn list_tree(&self, rel: &str) -> Result<Vec<(String, Kind)>, PathError> {
        let key = if rel.split('/').all(|c| c.is_empty() || c == ".") { ".".to_string() } else { self.normal(rel)? };
        self.handle.list_tree(&key).map_err(|e| renamed(e.into(), rel))
    }

    /// The size of the file at `rel`, opened as any file is (a link leaving the root refused).
    pub(crate) fn len(&self, rel: &str) -> Result<u64, PathError> {
        self.open(rel).map(|stream| stream.len())
    }

    /// Whether `rel`, as a listing showed it, names nothing because the name it stands for is
    /// not UTF-8: a listing shows such a name with replacement characters, under which it
    /// cannot be opened again, and a caller should say so rather than that it is missing.
    pub(crate) fn not_utf8(&self, rel: &str) -> bool {
        rel.contains(char::REPLACEMENT_CHARACTER) && matches!(self.kind(rel), Ok(None))
    }

    /// What is at `rel`, a link not followed; `None` when nothing is.
    pub(crate) fn kind(&self, rel: &str) -> Result<Option<Kind>, PathError> {
        let key = self.normal(rel)?;
        self.handle.kind(&key).map_err(|e| renamed(e.into(), rel))
    }

    /// Makes the folder at `rel` and those above it, never through a link out of the root.
    pub(crate) fn create_dir_all(&self, rel: &str) -> Result<(), PathError> {
        let key = self.normal(rel)?;
        self.handle.create_dir_all(&key).map(|_| ()).map_err(|e| renamed(e.into(), rel))
    }

    /// Removes the folder at `rel` with everything in it, following no link.
    pub(crate) fn remove_dir_all(&self, rel: &str) -> Result<(), PathError> {
        let key = self.normal(rel)?;
        self.handle.remove_dir_all(&key).map_err(|e| renamed(e.into(), rel))
    }

    /// Renames `from` to `to`, both entries of the folder `dir` (`"."` for the root), never
    /// over an existing entry.
    pub(crate) fn rename_new(&self, dir: &str, from: &str, to: &str) -> Result<(), PathError> {
        let key = if dir.split('/').all(|c| c.is_empty() || c == ".") { ".".to_string() } else { self.normal(dir)? };
        self.handle.rename_new(&key, from, to).map_err(PathError::from)
    }

    /// Replaces the file at `rel` with `bytes` through the one atomic writer: whole or not at
    /// all, its mode kept, never through a link.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), PathError> {
        let key = self.normal(rel)?;
        crate::atomic::write(&self.handle, &key, bytes).map_err(|e| renamed(e.into(), rel))
    }

    /// Writes a new file at `rel` through the one atomic writer, never over anything that
    /// stands there (`init`): [`PathError::Exists`] then.
    pub(crate) fn write_new(&self, rel: &str, bytes: &[u8]) -> Result<(), PathError> {
        let key = self.normal(rel)?;
        crate::atomic::write_new(&self.handle, &key, bytes).map_err(|e| renamed(e.into(), rel))
    }

    /// The root-relative form of `path` when it lies under the root (as named or canonical),
    /// judged on the text of the path alone.
    pub fn inside(&self, path: &Path) -> Option<String> {
        let absolute = absolute(path)?;
        let dir = absolute_dir(&self.dir)?;
        let rel = absolute.strip_prefix(&dir).or_else(|_| absolute.strip_prefix(&self.canonical)).ok()?;
        self.normal(&rel.to_string_lossy()).ok()
    }

    /// The root-relative form of a path inside the root, with `/` separators, for messages
    /// and reports: output never carries absolute paths.
    pub fn relative(&self, path: &Path) -> String {
        let rel = path.strip_prefix(&self.canonical).or_else(|_| path.strip_prefix(&self.dir)).unwrap_or(path);
        rel.components()
            .filter_map(|c| match c {
                Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// Replaces a file the user named on the command line (`review --out`, `report --html`,
/// `audit --summary`, `calibrate --out`) through the one atomic writer. Inside `root` it is
/// written through the root's handle, so that no folder on the way may link out of the root;
/// elsewhere the folder the user named is taken as given. Either way the file itself is never a
/// link: one there is refused, not replaced or written through.
pub fn write_named(root: Option<&Root>, path: &Path, bytes: &[u8]) -> Result<(), PathError> {
    let shown = path.display().to_string();
    if let Some(root) = root
        && let Some(rel) = root.inside(path)
    {
        return root.write(&rel, bytes).map_err(|e| renamed(e, &shown));
    }
    let absolute = absolute(path).ok_or_else(|| PathError::Empty(shown.clone()))?;
    let (Some(dir), Some(name)) = (absolute.parent(), absolute.file_name()) else {
        return Err(PathError::NotFile(shown));
    };
    let name = name.to_string_lossy().into_owned();
    let folder = Confined::new(dir).map_err(|source| PathError::Io { path: shown.clone(), source })?;
    crate::atomic::write(&folder, &name, bytes).map_err(|e| renamed(e.into(), &shown))
}

/// `path` made absolute against the current folder, `.` and `..` taken as text.
fn absolute(path: &Path) -> Option<PathBuf> {
    let joined = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().ok()?.join(path) };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    Some(out)
}

fn absolute_dir(dir: &Path) -> Option<PathBuf> {
    absolute(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
}

/// The error with the path as the caller named it, so that messages show what the user or the
/// registry wrote, not its normal form.
fn renamed(e: PathError, rel: &str) -> PathError {
    let rel = rel.to_string();
    match e {
        PathError::Absolute(_) => PathError::Absolute(rel),
        PathError::ParentDir(_) => PathError::ParentDir(rel),
        PathError::Empty(_) => PathError::Empty(rel),
        PathError::EscapesRoot(_) => PathError::EscapesRoot(rel),
        PathError::Missing(_) => PathError::Missing(rel),
        PathError::Link(_) => PathError::Link(rel),
        PathError::Loop(_) => PathError::Loop(rel),
        PathError::NotFile(_) => PathError::NotFile(rel),
        PathError::NotDir(_) => PathError::NotDir(rel),
        PathError::Exists(p) => PathError::Exists(p),
        PathError::Io { source, .. } => PathError::Io { path: rel, source },
    }
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
    fn reads_a_file_inside_the_root() {
        let (_d, root) = root();
        assert_eq!(root.read("evidence/a.txt").unwrap(), (b"x".to_vec(), false));
        assert_eq!(root.normal("./evidence//a.txt").unwrap(), "evidence/a.txt");
    }

    #[test]
    fn refuses_parent_components() {
        let (_d, root) = root();
        assert!(matches!(root.read("evidence/../../etc/passwd"), Err(PathError::ParentDir(p)) if p == "evidence/../../etc/passwd"));
    }

    #[test]
    fn refuses_absolute_paths() {
        let (_d, root) = root();
        assert!(matches!(root.read("/etc/passwd"), Err(PathError::Absolute(_))));
    }

    #[test]
    fn refuses_a_symlink_that_points_outside() {
        let (d, root) = root();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join("evidence/link")).unwrap();
        assert!(matches!(root.read("evidence/link/secret"), Err(PathError::EscapesRoot(_))));
        assert!(matches!(root.folder("evidence/link"), Err(PathError::EscapesRoot(_))));
        assert!(!root.exists("evidence/link/secret"));
    }

    #[test]
    fn reports_a_missing_file() {
        let (_d, root) = root();
        assert!(matches!(root.read("evidence/none.txt"), Err(PathError::Missing(p)) if p == "evidence/none.txt"));
    }

    #[test]
    fn a_named_output_inside_the_root_is_written_through_its_handle() {
        let (d, root) = root();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join("out")).unwrap();
        let err = write_named(Some(&root), &d.path().join("out/review.json"), b"{}").unwrap_err();
        assert!(matches!(err, PathError::EscapesRoot(_)), "{err}");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
        write_named(Some(&root), &d.path().join("evidence/review.json"), b"{}").unwrap();
        assert_eq!(std::fs::read(d.path().join("evidence/review.json")).unwrap(), b"{}");
    }

    #[test]
    fn a_named_output_elsewhere_is_never_a_link() {
        let (d, root) = root();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(d.path().join("evidence/a.txt"), elsewhere.path().join("r.json")).unwrap();
        assert!(matches!(write_named(Some(&root), &elsewhere.path().join("r.json"), b"{}"), Err(PathError::Link(_))));
        assert_eq!(std::fs::read(d.path().join("evidence/a.txt")).unwrap(), b"x");
        write_named(Some(&root), &elsewhere.path().join("s.json"), b"{}").unwrap();
        assert_eq!(std::fs::read(elsewhere.path().join("s.json")).unwrap(), b"{}");
    }
}
