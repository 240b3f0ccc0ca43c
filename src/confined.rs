//! Files opened relative to the repository root through a directory handle, one path component
//! at a time, so that no path can leave the root however its symbolic links are laid out or
//! swapped while it is being opened. This module owns that walk; it reads and creates files but
//! never decides what a file means, and never prints what it read.
//!
//! **Why `openat` walking with rustix, not `cap-std`.** Both refuse escapes at open time. The
//! walk here is some hundred lines over `openat(2)` with `O_NOFOLLOW` (and `O_DIRECTORY` for
//! folders), `readlinkat(2)` and `statat(2)`, through `rustix`, which `tempfile` already brings
//! into the tree, so it adds no crate. Owning the walk gives the exact rules this tool needs and
//! that a generic sandbox leaves implicit: a symbolic link that stays inside the root is
//! followed, its target walked with the same discipline (`..` pops a folder the walk holds and
//! never climbs above the root); a last component that is a link can be refused outright (a
//! manifest entry must be the file itself); a file to be written is never reached through a
//! link; and every error names the root-relative path as given, never a link's target or any
//! text of the file, so that a refusal cannot leak what lies outside.
//!
//! **Why it is race-free.** Each component is opened relative to the folder handle the walk
//! already holds, with `O_NOFOLLOW`: the kernel refuses to follow a link there, so a component
//! swapped for a link between two steps makes the open fail instead of leaving the root. The
//! walk then reads the link and walks its target by the same rules. There is no
//! check-then-open window in which a path is trusted.
//!
//! **Where it is used.** Every file under the root is reached through this handle, held by
//! [`crate::paths::Root`]: the evidence reader ([`crate::evidence::store::Evidence`], which
//! reads registries, manuscripts, drafts inside the root, locks, run files, manifests and
//! their entries, `evidence/accepted.toml` and the figures), the listings of `claims/`,
//! `evidence/runs/` and of a run directory against its manifest, and every writer through
//! [`crate::atomic`] (locks, registries' `manuscript.sha256`, `evidence/accepted.toml`, the
//! figures and their folder, the run writer's files and folders, and the output files named on
//! the command line when they lie inside the root).

use std::ffi::OsString;
use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

/// How many symbolic links one open may pass through before it is called a loop, as the
/// kernel's own limit (`MAXSYMLINKS`) is 40.
const MAX_LINKS: usize = 40;

/// A handle on the repository root: every path is opened relative to it.
#[derive(Debug)]
pub(crate) struct Confined {
    root: OwnedFd,
    /// The root's canonical path, to recognise an absolute link that points back inside.
    canonical: PathBuf,
}

/// A regular file opened inside the root, read as a stream rather than held, with the size it
/// had when it was opened.
pub(crate) struct Stream {
    file: File,
    len: u64,
}

impl Stream {
    pub(crate) fn new(file: File) -> std::io::Result<Stream> {
        let len = file.metadata()?.len();
        Ok(Stream { file, len })
    }

    pub(crate) fn len(&self) -> u64 {
        self.len
    }
}

impl std::io::Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.file.read(buf)
    }
}

/// Whether the last component of a path may be a symbolic link (followed inside the root).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LastLink {
    Follow,
    /// The path must name the file itself, as a manifest entry must.
    Refuse,
}

/// Why a path could not be opened. Each names the root-relative path as the caller gave it;
/// none holds a link's target or anything read from a file.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfinedError {
    #[error("path `{0}` is empty")]
    Empty(String),
    #[error("path `{0}` is absolute; paths are relative to the repository root (`--root`, the current folder by default): copy the file under it")]
    Absolute(String),
    #[error("path `{0}` leads outside the repository root")]
    Escapes(String),
    #[error("path `{0}` is a symbolic link; it must be the file itself")]
    LastLink(String),
    #[error("path `{0}` passes through too many symbolic links")]
    Loop(String),
    #[error("file `{0}` does not exist")]
    Missing(String),
    #[error("path `{0}` is not a regular file")]
    NotFile(String),
    #[error("path `{0}` is not a folder")]
    NotDir(String),
    #[error("`{0}` already exists")]
    Exists(String),
    #[error("`{path}`: {source}")]
    Io { path: String, source: std::io::Error },
}

impl ConfinedError {
    fn io(path: &str, errno: Errno) -> ConfinedError {
        match errno {
            Errno::NOENT => ConfinedError::Missing(path.to_string()),
            e => ConfinedError::Io { path: path.to_string(), source: std::io::Error::from_raw_os_error(e.raw_os_error()) },
        }
    }
}

/// A folder reached by a walk: its handle, and the handles of every folder above it up to the
/// root, so that `..` in a link's target returns to a folder already held rather than
/// climbing by name.
struct Walk {
    stack: Vec<OwnedFd>,
    /// Links passed so far, against [`MAX_LINKS`].
    links: usize,
    /// Links followed at the last component (the file itself).
    last_links: usize,
}

impl Walk {
    fn here(&self) -> &OwnedFd {
        self.stack.last().expect("a walk always holds the root")
    }
}

impl Confined {
    /// Opens a handle on `dir`, which becomes the root.
    pub(crate) fn new(dir: &Path) -> std::io::Result<Confined> {
        let root = rustix::fs::open(dir, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())?;
        let canonical = dir.canonicalize()?;
        Ok(Confined { root, canonical })
    }

    /// Opens the regular file at `rel` for reading. With [`LastLink::Refuse`] the file must
    /// not be a symbolic link itself, even one that stays inside the root.
    pub(crate) fn open(&self, rel: &str, last: LastLink) -> Result<File, ConfinedError> {
        self.open_noting_link(rel, last).map(|(file, _)| file)
    }

    /// As [`Confined::open`], and whether the last component was a symbolic link that was
    /// followed (inside the root), as the kernel saw it at the open itself.
    pub(crate) fn open_noting_link(&self, rel: &str, last: LastLink) -> Result<(File, bool), ConfinedError> {
        let (walk, name) = self.walk_to_parent(rel)?;
        // Non-blocking, so that a named pipe planted in the tree fails the regular-file test
        // below instead of hanging the open; it changes nothing for a regular file.
        let (walk, fd) = self.open_last(rel, walk, name, last, OFlags::RDONLY | OFlags::NONBLOCK, Mode::empty())?;
        let stat = rustix::fs::fstat(&fd).map_err(|e| ConfinedError::io(rel, e))?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
            return Err(ConfinedError::NotFile(rel.to_string()));
        }
        Ok((File::from(fd), walk.last_links > 0))
    }

    /// Reads the whole regular file at `rel` (the crate reads through `paths::Root`, which
    /// also keeps the link flag; this is the tests' short form).
    #[cfg(test)]
    pub(crate) fn read(&self, rel: &str, last: LastLink) -> Result<Vec<u8>, ConfinedError> {
        let mut file = self.open(rel, last)?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|source| ConfinedError::Io { path: rel.to_string(), source })?;
        Ok(bytes)
    }

    /// The folder at `rel`, links inside the root followed.
    pub(crate) fn open_dir(&self, rel: &str) -> Result<OwnedFd, ConfinedError> {
        let mut walk = self.start(rel)?;
        let mut pending = reversed(rel_components(rel)?.into_iter().map(OsString::from).collect());
        self.descend(rel, &mut walk, &mut pending)?;
        Ok(walk.stack.pop().expect("a walk always holds the root"))
    }

    /// The folder that holds `rel` and the file's name in it, for a writer. The folders on the
    /// way may be links inside the root; the file itself is not looked at here.
    pub(crate) fn parent_of<'r>(&self, rel: &'r str) -> Result<(OwnedFd, &'r str), ConfinedError> {
        let (mut walk, name) = self.walk_to_parent(rel)?;
        Ok((walk.stack.pop().expect("a walk always holds the root"), name))
    }

    /// A new handle on the root folder itself.
    pub(crate) fn root_dir(&self) -> Result<OwnedFd, ConfinedError> {
        rustix::io::dup(&self.root).map_err(|e| ConfinedError::io(".", e))
    }

    /// Makes the folder at `rel` and every missing folder above it, each created in a folder
    /// handle the walk holds (`mkdirat` never follows a link), so that a folder on the way that
    /// is a link out of the root stops the walk rather than being written through.
    pub(crate) fn create_dir_all(&self, rel: &str) -> Result<OwnedFd, ConfinedError> {
        let parts = rel_components(rel)?;
        for n in 1..=parts.len() {
            let prefix = parts[..n].join("/");
            match self.open_dir(&prefix) {
                Ok(fd) if n == parts.len() => return Ok(fd),
                Ok(_) => continue,
                Err(ConfinedError::Missing(_)) => {}
                Err(ConfinedError::Escapes(_)) => return Err(ConfinedError::Escapes(rel.to_string())),
                Err(e) => return Err(e),
            }
            let (dir, name) = self.parent_of(&prefix)?;
            match rustix::fs::mkdirat(&dir, name, Mode::from_raw_mode(0o777)) {
                // Made meanwhile by someone else, or a dangling link there: the open below
                // tells which, by the same rules as any walk.
                Ok(()) | Err(Errno::EXIST) => {}
                Err(e) => return Err(ConfinedError::io(rel, e)),
            }
            let fd = self.open_dir(&prefix).map_err(|e| match e {
                ConfinedError::Escapes(_) => ConfinedError::Escapes(rel.to_string()),
                e => e,
            })?;
            if n == parts.len() {
                return Ok(fd);
            }
        }
        self.root_dir()
    }

    /// The entries of the folder at `rel` (`""` or `"."` for the root), with their kinds as
    /// the folder records them, a link reported as a link and never followed.
    /// A name that is not UTF-8 is shown with replacement characters, under which it cannot be
    /// opened again.
    pub(crate) fn list(&self, rel: &str) -> Result<Vec<(String, Kind)>, ConfinedError> {
        let dir = if is_root(rel) { self.root_dir()? } else { self.open_dir(rel)? };
        let mut out: Vec<(String, Kind)> = list_fd(&dir).map_err(|e| ConfinedError::io(rel, e))?.into_iter().map(|(name, kind)| (shown(&name), kind)).collect();
        out.sort();
        Ok(out)
    }

    /// Every entry under the folder at `rel`, folders walked (never through a link), as sorted
    /// `/`-separated paths relative to it with their kinds; folders themselves are not listed.
    pub(crate) fn list_tree(&self, rel: &str) -> Result<Vec<(String, Kind)>, ConfinedError> {
        fn walk(dir: &OwnedFd, prefix: &str, out: &mut Vec<(String, Kind)>) -> Result<(), Errno> {
            for (name, kind) in list_fd(dir)? {
                let path = if prefix.is_empty() { shown(&name) } else { format!("{prefix}/{}", shown(&name)) };
                if kind == Kind::Dir {
                    // Opened by the name the folder holds, which may not be UTF-8.
                    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                    let sub = rustix::fs::openat(dir, name.as_os_str(), flags, Mode::empty())?;
                    walk(&sub, &path, out)?;
                } else {
                    out.push((path, kind));
                }
            }
            Ok(())
        }
        let dir = if is_root(rel) { self.root_dir()? } else { self.open_dir(rel)? };
        let mut out = Vec::new();
        walk(&dir, "", &mut out).map_err(|e| ConfinedError::io(rel, e))?;
        out.sort();
        Ok(out)
    }

    /// What is at `rel`, the last component not followed; `None` when nothing is there.
    pub(crate) fn kind(&self, rel: &str) -> Result<Option<Kind>, ConfinedError> {
        let (dir, name) = self.parent_of(rel)?;
        match rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(Some(Kind::of(FileType::from_raw_mode(stat.st_mode)))),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(ConfinedError::io(rel, e)),
        }
    }

    /// Removes the folder at `rel` and everything in it. Links in it are removed, never
    /// followed; a link at `rel` itself is removed as a link.
    pub(crate) fn remove_dir_all(&self, rel: &str) -> Result<(), ConfinedError> {
        fn empty(dir: &OwnedFd) -> Result<(), Errno> {
            for (name, kind) in list_fd(dir)? {
                if kind == Kind::Dir {
                    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                    let sub = rustix::fs::openat(dir, name.as_os_str(), flags, Mode::empty())?;
                    empty(&sub)?;
                    rustix::fs::unlinkat(dir, name.as_os_str(), AtFlags::REMOVEDIR)?;
                } else {
                    rustix::fs::unlinkat(dir, name.as_os_str(), AtFlags::empty())?;
                }
            }
            Ok(())
        }
        let (parent, name) = self.parent_of(rel)?;
        let stat = match rustix::fs::statat(&parent, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(s) => s,
            Err(Errno::NOENT) => return Ok(()),
            Err(e) => return Err(ConfinedError::io(rel, e)),
        };
        if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
            return rustix::fs::unlinkat(&parent, name, AtFlags::empty()).map_err(|e| ConfinedError::io(rel, e));
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let dir = rustix::fs::openat(&parent, name, flags, Mode::empty()).map_err(|e| ConfinedError::io(rel, e))?;
        empty(&dir).map_err(|e| ConfinedError::io(rel, e))?;
        rustix::fs::unlinkat(&parent, name, AtFlags::REMOVEDIR).map_err(|e| ConfinedError::io(rel, e))
    }

    /// Renames the entry `from` of the folder at `dir` to `to` in the same folder, never over
    /// an entry already there.
    pub(crate) fn rename_new(&self, dir: &str, from: &str, to: &str) -> Result<(), ConfinedError> {
        let fd = if is_root(dir) { self.root_dir()? } else { self.open_dir(dir)? };
        match rustix::fs::renameat_with(&fd, from, &fd, to, rustix::fs::RenameFlags::NOREPLACE) {
            Ok(()) => Ok(()),
            Err(Errno::EXIST) => Err(ConfinedError::Exists(to.to_string())),
            // A file system without RENAME_NOREPLACE: the check and the rename are apart, which
            // only matters against a writer racing for the same new name.
            Err(Errno::INVAL | Errno::NOSYS) => {
                if rustix::fs::statat(&fd, to, AtFlags::SYMLINK_NOFOLLOW).is_ok() {
                    return Err(ConfinedError::Exists(to.to_string()));
                }
                rustix::fs::renameat(&fd, from, &fd, to).map_err(|e| ConfinedError::io(to, e))
            }
            Err(e) => Err(ConfinedError::io(to, e)),
        }
    }

    fn start(&self, rel: &str) -> Result<Walk, ConfinedError> {
        let root = rustix::io::dup(&self.root).map_err(|e| ConfinedError::io(rel, e))?;
        Ok(Walk { stack: vec![root], links: 0, last_links: 0 })
    }

    fn walk_to_parent<'r>(&self, rel: &'r str) -> Result<(Walk, &'r str), ConfinedError> {
        let mut parts = rel_components(rel)?;
        let name = parts.pop().ok_or_else(|| ConfinedError::Empty(rel.to_string()))?;
        if name == ".." {
            return Err(ConfinedError::NotFile(rel.to_string()));
        }
        let mut walk = self.start(rel)?;
        let mut pending = reversed(parts.into_iter().map(OsString::from).collect());
        self.descend(rel, &mut walk, &mut pending)?;
        Ok((walk, name))
    }

    /// Walks down every folder of `pending` (a stack: the next component last), following
    /// links that stay inside the root, refusing any step above it.
    fn descend(&self, rel: &str, walk: &mut Walk, pending: &mut Vec<OsString>) -> Result<(), ConfinedError> {
        while let Some(part) = pending.pop() {
            match part.as_bytes() {
                b"" | b"." => continue,
                b".." => {
                    if walk.stack.len() == 1 {
                        return Err(ConfinedError::Escapes(rel.to_string()));
                    }
                    walk.stack.pop();
                    continue;
                }
                _ => {}
            }
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            match rustix::fs::openat(walk.here(), part.as_os_str(), flags, Mode::empty()) {
                Ok(fd) => walk.stack.push(fd),
                // A link (or not a folder at all, which reading it as a link tells apart).
                Err(Errno::LOOP | Errno::NOTDIR) => {
                    let target = match rustix::fs::readlinkat(walk.here(), part.as_os_str(), Vec::new()) {
                        Ok(t) => t,
                        Err(Errno::INVAL) => return Err(ConfinedError::NotDir(rel.to_string())),
                        Err(e) => return Err(ConfinedError::io(rel, e)),
                    };
                    self.follow(rel, walk, pending, target.into_bytes())?;
                }
                Err(e) => return Err(ConfinedError::io(rel, e)),
            }
        }
        Ok(())
    }

    /// Opens the last component `name` in the folder a walk reached, following a link only
    /// when `last` allows, and only inside the root. Returns the folder it was opened in.
    fn open_last(&self, rel: &str, mut walk: Walk, name: &str, last: LastLink, access: OFlags, mode: Mode) -> Result<(Walk, OwnedFd), ConfinedError> {
        let mut name = OsString::from(name);
        loop {
            match rustix::fs::openat(walk.here(), name.as_os_str(), access | OFlags::NOFOLLOW | OFlags::CLOEXEC, mode) {
                Ok(fd) => return Ok((walk, fd)),
                Err(Errno::LOOP) if last == LastLink::Refuse => return Err(ConfinedError::LastLink(rel.to_string())),
                Err(Errno::LOOP) => {
                    walk.last_links += 1;
                    let target = rustix::fs::readlinkat(walk.here(), name.as_os_str(), Vec::new()).map_err(|e| ConfinedError::io(rel, e))?;
                    let mut pending = Vec::new();
                    self.follow(rel, &mut walk, &mut pending, target.into_bytes())?;
                    // The target's folders are walked as any path's; its last part is opened
                    // in the next round of this loop.
                    let next = loop {
                        match pending.first().map(|p| p.as_bytes()) {
                            Some(b"" | b".") => {
                                pending.remove(0);
                            }
                            _ => break if pending.is_empty() { None } else { Some(pending.remove(0)) },
                        }
                    };
                    let Some(next) = next else { return Err(ConfinedError::NotFile(rel.to_string())) };
                    if next.as_bytes() == b".." {
                        return Err(ConfinedError::NotFile(rel.to_string()));
                    }
                    self.descend(rel, &mut walk, &mut pending)?;
                    name = next;
                }
                Err(e) => return Err(ConfinedError::io(rel, e)),
            }
        }
    }

    /// Puts a link's target on top of what is left to walk. A relative target continues from
    /// the link's folder; an absolute one only when it names a place under the root, from the
    /// root; anything else leaves the root.
    fn follow(&self, rel: &str, walk: &mut Walk, pending: &mut Vec<OsString>, target: Vec<u8>) -> Result<(), ConfinedError> {
        walk.links += 1;
        if walk.links > MAX_LINKS {
            return Err(ConfinedError::Loop(rel.to_string()));
        }
        let target = PathBuf::from(OsString::from_vec(target));
        let relative = if target.is_absolute() {
            let inside = target.strip_prefix(&self.canonical).map_err(|_| ConfinedError::Escapes(rel.to_string()))?;
            walk.stack.truncate(1);
            inside.to_path_buf()
        } else {
            target
        };
        for c in relative.as_os_str().as_bytes().split(|b| *b == b'/').rev() {
            pending.push(OsString::from_vec(c.to_vec()));
        }
        Ok(())
    }
}

/// What an entry of a folder is, as `lstat` says: a link is a link, never its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    File,
    Dir,
    Link,
    Other,
}

impl Kind {
    fn of(t: FileType) -> Kind {
        match t {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Link,
            _ => Kind::Other,
        }
    }
}

/// The entries of an open folder, `.` and `..` left out, each typed by `lstat` in it, by the
/// names the folder holds (which need not be UTF-8), in byte order.
fn list_fd(dir: &OwnedFd) -> Result<Vec<(OsString, Kind)>, Errno> {
    let mut out = Vec::new();
    for entry in rustix::fs::Dir::read_from(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let name = OsString::from_vec(name.to_vec());
        let kind = match rustix::fs::statat(dir, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Kind::of(FileType::from_raw_mode(stat.st_mode)),
            // Removed since the folder was read.
            Err(Errno::NOENT) => continue,
            Err(e) => return Err(e),
        };
        out.push((name, kind));
    }
    out.sort();
    Ok(out)
}

/// A name as paths show it: UTF-8 as it is, anything else with replacement characters.
fn shown(name: &std::ffi::OsStr) -> String {
    name.to_string_lossy().into_owned()
}

/// Whether a root-relative path names the root itself.
fn is_root(rel: &str) -> bool {
    rel.split('/').all(|c| c.is_empty() || c == ".")
}

/// `parts` as a stack to pop: the first component last.
fn reversed(mut parts: Vec<OsString>) -> Vec<OsString> {
    parts.reverse();
    parts
}

/// The components of a root-relative path; an empty or absolute path is refused here.
fn rel_components(rel: &str) -> Result<Vec<&str>, ConfinedError> {
    if rel.trim().is_empty() {
        return Err(ConfinedError::Empty(rel.to_string()));
    }
    if rel.starts_with('/') {
        return Err(ConfinedError::Absolute(rel.to_string()));
    }
    Ok(rel.split('/').filter(|c| !c.is_empty() && *c != ".").collect())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    /// A root with `evidence/runs/r/samples.jsonl`, beside an `outside` folder with a secret.
    fn setup() -> (tempfile::TempDir, PathBuf, Confined) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("evidence/runs/r")).unwrap();
        std::fs::write(root.join("evidence/runs/r/samples.jsonl"), "inside").unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/secret"), "TOP SECRET").unwrap();
        let confined = Confined::new(&root).unwrap();
        (dir, root, confined)
    }

    fn read(c: &Confined, rel: &str) -> Result<String, ConfinedError> {
        c.read(rel, LastLink::Follow).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn names_that_are_not_utf8_are_shown_walked_and_removed() {
        use std::os::unix::ffi::OsStrExt;
        let (_dir, root, c) = setup();
        let odd = root.join("evidence/runs/r").join(std::ffi::OsStr::from_bytes(b"\xffdir"));
        std::fs::create_dir_all(&odd).unwrap();
        std::fs::write(odd.join("x"), "in an odd folder").unwrap();
        std::fs::write(root.join("evidence/runs/r").join(std::ffi::OsStr::from_bytes(b"\xfefile")), "odd").unwrap();
        // Listed with replacement characters, and the walk goes into the folder by its own
        // name instead of failing on the shown one.
        let listed = c.list("evidence/runs/r").unwrap();
        assert_eq!(listed, vec![("samples.jsonl".to_string(), Kind::File), ("\u{fffd}dir".to_string(), Kind::Dir), ("\u{fffd}file".to_string(), Kind::File)]);
        let tree: Vec<String> = c.list_tree("evidence/runs/r").unwrap().into_iter().map(|(p, _)| p).collect();
        assert_eq!(tree, vec!["samples.jsonl", "\u{fffd}dir/x", "\u{fffd}file"]);
        c.remove_dir_all("evidence/runs/r").unwrap();
        assert!(!root.join("evidence/runs/r").exists());
    }

    #[test]
    fn a_plain_file_is_read() {
        let (_d, _root, c) = setup();
        assert_eq!(read(&c, "evidence/runs/r/samples.jsonl").unwrap(), "inside");
        assert_eq!(read(&c, "./evidence//runs/r/samples.jsonl").unwrap(), "inside");
    }

    #[test]
    fn a_link_to_a_file_outside_is_refused() {
        let (d, root, c) = setup();
        symlink("../../../../outside/secret", root.join("evidence/runs/r/meta.json")).unwrap();
        let err = read(&c, "evidence/runs/r/meta.json").unwrap_err();
        assert!(matches!(err, ConfinedError::Escapes(_)), "{err:?}");
        let shown = err.to_string();
        assert!(shown.contains("evidence/runs/r/meta.json") && !shown.contains("secret") && !shown.contains("TOP"), "{shown}");
        // An absolute link to the same file is refused as well.
        symlink(d.path().join("outside/secret"), root.join("evidence/abs")).unwrap();
        assert!(matches!(read(&c, "evidence/abs"), Err(ConfinedError::Escapes(_))));
    }

    #[test]
    fn a_folder_link_outside_is_refused() {
        let (_d, root, c) = setup();
        symlink("../../../outside", root.join("evidence/runs/out")).unwrap();
        assert!(matches!(read(&c, "evidence/runs/out/secret"), Err(ConfinedError::Escapes(_))));
        assert!(matches!(c.open_dir("evidence/runs/out"), Err(ConfinedError::Escapes(_))));
    }

    #[test]
    fn parent_components_cannot_climb_out() {
        let (_d, _root, c) = setup();
        assert!(matches!(read(&c, "../outside/secret"), Err(ConfinedError::Escapes(_))));
        assert!(matches!(read(&c, "evidence/../../outside/secret"), Err(ConfinedError::Escapes(_))));
        assert_eq!(read(&c, "evidence/../evidence/runs/r/samples.jsonl").unwrap(), "inside");
        assert!(matches!(read(&c, "/etc/passwd"), Err(ConfinedError::Absolute(_))));
        assert!(matches!(read(&c, ""), Err(ConfinedError::Empty(_))));
        assert!(matches!(read(&c, "evidence/none"), Err(ConfinedError::Missing(_))));
        assert!(matches!(read(&c, "evidence"), Err(ConfinedError::NotFile(_))));
    }

    #[test]
    fn links_that_stay_inside_are_followed() {
        let (_d, root, c) = setup();
        symlink("r/samples.jsonl", root.join("evidence/runs/s.jsonl")).unwrap();
        symlink("../evidence/runs/r", root.join("evidence/latest")).unwrap();
        symlink("runs/../runs/r/samples.jsonl", root.join("evidence/dots")).unwrap();
        symlink(root.canonicalize().unwrap().join("evidence/runs/r/samples.jsonl"), root.join("evidence/abs-inside")).unwrap();
        for rel in ["evidence/runs/s.jsonl", "evidence/latest/samples.jsonl", "evidence/dots", "evidence/abs-inside"] {
            assert_eq!(read(&c, rel).unwrap(), "inside", "{rel}");
        }
    }

    #[test]
    fn a_last_component_link_can_be_refused_even_inside() {
        let (_d, root, c) = setup();
        symlink("samples.jsonl", root.join("evidence/runs/r/copy.jsonl")).unwrap();
        assert!(matches!(c.read("evidence/runs/r/copy.jsonl", LastLink::Refuse), Err(ConfinedError::LastLink(_))));
        // Links in the folders above are still followed.
        symlink("runs/r", root.join("evidence/latest")).unwrap();
        assert_eq!(c.read("evidence/latest/samples.jsonl", LastLink::Refuse).unwrap(), b"inside");
    }

    #[test]
    fn a_named_pipe_is_refused_without_blocking() {
        let (_d, root, c) = setup();
        let fifo = root.join("evidence/pipe");
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, FileType::Fifo, Mode::from_raw_mode(0o644), 0).unwrap();
        assert!(matches!(read(&c, "evidence/pipe"), Err(ConfinedError::NotFile(_))));
    }

    #[test]
    fn a_link_loop_is_an_error_not_a_hang() {
        let (_d, root, c) = setup();
        symlink("b", root.join("evidence/a")).unwrap();
        symlink("a", root.join("evidence/b")).unwrap();
        assert!(matches!(read(&c, "evidence/a"), Err(ConfinedError::Loop(_))));
        assert!(matches!(read(&c, "evidence/a/x"), Err(ConfinedError::Loop(_))));
    }

    #[test]
    fn a_write_through_a_dangling_link_is_refused() {
        let (d, root, c) = setup();
        symlink("../../outside/planted", root.join("evidence/accepted.toml")).unwrap();
        assert!(matches!(crate::atomic::write(&c, "evidence/accepted.toml", b"x"), Err(ConfinedError::LastLink(_))));
        assert!(!d.path().join("outside/planted").exists());
        symlink("../../../outside", root.join("evidence/runs/figures")).unwrap();
        assert!(matches!(crate::atomic::write(&c, "evidence/runs/figures/a.svg", b"x"), Err(ConfinedError::Escapes(_))));
        assert!(matches!(c.create_dir_all("evidence/runs/figures/sub"), Err(ConfinedError::Escapes(_))));
        assert!(!d.path().join("outside/a.svg").exists());
        crate::atomic::write(&c, "evidence/new.toml", b"ok").unwrap();
        assert_eq!(std::fs::read(root.join("evidence/new.toml")).unwrap(), b"ok");
    }

    /// A file swapped for a link to the outside, over and over, while it is read (for a bounded
    /// time): each open gives the inside text or an error, never the outside file.
    #[test]
    fn a_concurrent_swap_cannot_leak() {
        let (d, root, c) = setup();
        let target = root.join("evidence/runs/r/samples.jsonl");
        let outside = d.path().join("outside/secret");
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let swapper = {
            let (target, outside, stop) = (target.clone(), outside.clone(), stop.clone());
            std::thread::spawn(move || {
                let file = target.with_extension("file");
                let link = target.with_extension("link");
                std::fs::write(&file, "inside").unwrap();
                let mut swaps = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = std::fs::remove_file(&link);
                    symlink(&outside, &link).unwrap();
                    std::fs::rename(&link, &target).unwrap();
                    std::fs::write(&file, "inside").unwrap();
                    std::fs::rename(&file, &target).unwrap();
                    swaps += 1;
                }
                swaps
            })
        };
        let (mut read_inside, mut refused) = (0, 0);
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_millis(700) {
            match read(&c, "evidence/runs/r/samples.jsonl") {
                Ok(text) => {
                    assert_eq!(text, "inside");
                    read_inside += 1;
                }
                Err(e) => {
                    assert!(!e.to_string().contains("TOP"), "{e}");
                    refused += 1;
                }
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let swaps = swapper.join().unwrap();
        assert!(swaps > 0 && read_inside + refused > 0, "{swaps} swaps, {read_inside} read, {refused} refused");
    }
}
