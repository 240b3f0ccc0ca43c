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
//! Not wired in yet: the readers and writers of the crate still go through
//! [`crate::paths::Root`]; routing them through this handle is the next step.

#![allow(dead_code)]

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{FileType, Mode, OFlags};
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
    #[error("path `{0}` is absolute; paths are relative to the repository root")]
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
        let (walk, name) = self.walk_to_parent(rel)?;
        // Non-blocking, so that a named pipe planted in the tree fails the regular-file test
        // below instead of hanging the open; it changes nothing for a regular file.
        let (_, fd) = self.open_last(rel, walk, name, last, OFlags::RDONLY | OFlags::NONBLOCK, Mode::empty())?;
        let stat = rustix::fs::fstat(&fd).map_err(|e| ConfinedError::io(rel, e))?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
            return Err(ConfinedError::NotFile(rel.to_string()));
        }
        Ok(File::from(fd))
    }

    /// Reads the whole regular file at `rel`.
    pub(crate) fn read(&self, rel: &str, last: LastLink) -> Result<Vec<u8>, ConfinedError> {
        let mut file = self.open(rel, last)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|source| ConfinedError::Io { path: rel.to_string(), source })?;
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

    /// Creates (or truncates) the file at `rel` for writing, with `mode` before the umask. The
    /// file is never reached through a link: a link there, existing or dangling, is refused.
    pub(crate) fn create(&self, rel: &str, mode: u32) -> Result<File, ConfinedError> {
        let (walk, name) = self.walk_to_parent(rel)?;
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC;
        let (_, fd) = self.open_last(rel, walk, name, LastLink::Refuse, flags, Mode::from_raw_mode(mode))?;
        Ok(File::from(fd))
    }

    fn start(&self, rel: &str) -> Result<Walk, ConfinedError> {
        let root = rustix::io::dup(&self.root).map_err(|e| ConfinedError::io(rel, e))?;
        Ok(Walk { stack: vec![root], links: 0 })
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
        assert!(matches!(c.create("evidence/accepted.toml", 0o666), Err(ConfinedError::LastLink(_))));
        assert!(!d.path().join("outside/planted").exists());
        symlink("../../../outside", root.join("evidence/runs/figures")).unwrap();
        assert!(matches!(c.create("evidence/runs/figures/a.svg", 0o666), Err(ConfinedError::Escapes(_))));
        assert!(!d.path().join("outside/a.svg").exists());
        let mut f = c.create("evidence/new.toml", 0o666).unwrap();
        std::io::Write::write_all(&mut f, b"ok").unwrap();
        assert_eq!(std::fs::read(root.join("evidence/new.toml")).unwrap(), b"ok");
    }

    /// A file swapped for a link to the outside, over and over, while it is read: each open
    /// gives the inside text or an error, never the outside file.
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
        for _ in 0..4000 {
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
        assert!(swaps > 0 && read_inside + refused == 4000, "{swaps} swaps, {read_inside} read, {refused} refused");
    }
}
