//! The one atomic writer: a file under the root is replaced whole or not at all. This module
//! owns the write protocol; it never decides what to write or whether writing is allowed.
//!
//! The protocol: a temporary file is created in the target's own folder (through the confined
//! handle, so never outside the root and never through a link), written, `fsync`ed, renamed
//! over the target, and then the folder is `fsync`ed so that the rename itself survives a
//! crash. A reader sees the old file or the new one, never a mix; a kill or a full disk leaves
//! the old file as it was.
//!
//! The new file keeps the mode of the file it replaces; a new file gets the mode the umask
//! gives a plain `0o666` create, as any editor's file would (a temporary-file library's 0600
//! would turn a shared, group-writable registry private).
//!
//! The temporary file is removed on every error path, and on a panic while it exists: a guard
//! owns it until the rename. Only a kill between its creation and the rename can leave one, a
//! hidden `.NAME.tmp…` beside the target.
//!
//! Every file the tool writes goes through here: through [`crate::paths::Root::write`] for
//! files under the root (locks, `manuscript.sha256`, `evidence/accepted.toml`, figures, the
//! run writer's files), and through [`crate::paths::write_named`] for the files named on the
//! command line (`review --out`, `report --html`, `calibrate --out`, `audit --summary`).

use std::io::Write;
use std::os::fd::OwnedFd;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use crate::confined::{Confined, ConfinedError};

/// How many temporary names are tried before giving up: each is random, so a clash means
/// another writer is racing on the same folder.
const TEMP_ATTEMPTS: usize = 16;

/// Replaces the file at `rel` (root-relative) with `bytes`, atomically. A symbolic link at
/// `rel` is refused rather than replaced or written through.
pub(crate) fn write(root: &Confined, rel: &str, bytes: &[u8]) -> Result<(), ConfinedError> {
    write_with(root, rel, |file| file.write_all(bytes))
}

/// As [`write()`], with the contents written by `fill`. Should `fill` fail or panic, the target
/// is left as it was and the temporary file is removed.
pub(crate) fn write_with(root: &Confined, rel: &str, fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>) -> Result<(), ConfinedError> {
    write_by(root, rel, Replace::Any, fill)
}

/// As [`write()`], but only where nothing stands: a file, link or folder at `rel`, or one that
/// appears there before the rename, is left alone and reported as existing (`init`).
pub(crate) fn write_new(root: &Confined, rel: &str, bytes: &[u8]) -> Result<(), ConfinedError> {
    write_by(root, rel, Replace::Nothing, |file| file.write_all(bytes))
}

/// Whether the rename may replace what stands at the target.
#[derive(Clone, Copy, PartialEq)]
enum Replace {
    Any,
    Nothing,
}

fn write_by(root: &Confined, rel: &str, replace: Replace, fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>) -> Result<(), ConfinedError> {
    let (dir, name) = root.parent_of(rel)?;
    let io = |source: std::io::Error| ConfinedError::Io { path: rel.to_string(), source };
    let errno = |e: Errno| io(std::io::Error::from_raw_os_error(e.raw_os_error()));
    // What is there now decides the mode, and a link there is refused outright.
    let mode = match rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(_) if replace == Replace::Nothing => return Err(ConfinedError::Exists(rel.to_string())),
        Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => return Err(ConfinedError::LastLink(rel.to_string())),
        Ok(stat) if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile => return Err(ConfinedError::NotFile(rel.to_string())),
        Ok(stat) => Some(Mode::from_raw_mode(stat.st_mode & 0o7777)),
        Err(Errno::NOENT) => None,
        Err(e) => return Err(errno(e)),
    };
    let mut temp = Temp::create(&dir, name).map_err(errno)?;
    if let Some(mode) = mode {
        rustix::fs::fchmod(temp.file.as_ref().expect("open until committed"), mode).map_err(errno)?;
    }
    let file = temp.file.as_mut().expect("open until committed");
    fill(file).map_err(io)?;
    file.sync_all().map_err(io)?;
    match replace {
        Replace::Any => rustix::fs::renameat(&dir, temp.name.as_str(), &dir, name).map_err(errno)?,
        Replace::Nothing => match rustix::fs::renameat_with(&dir, temp.name.as_str(), &dir, name, rustix::fs::RenameFlags::NOREPLACE) {
            Ok(()) => {}
            Err(Errno::EXIST) => return Err(ConfinedError::Exists(rel.to_string())),
            // A file system without RENAME_NOREPLACE: a hard link fails where the name exists;
            // once it stands, the temporary name is removed by its guard, uncommitted.
            Err(Errno::INVAL | Errno::NOSYS) => {
                return match rustix::fs::linkat(&dir, temp.name.as_str(), &dir, name, AtFlags::empty()) {
                    Ok(()) => rustix::fs::fsync(&dir).map_err(errno),
                    Err(Errno::EXIST) => Err(ConfinedError::Exists(rel.to_string())),
                    Err(e) => Err(errno(e)),
                };
            }
            Err(e) => return Err(errno(e)),
        },
    }
    temp.committed = true;
    // The rename is durable once the folder that records it is.
    rustix::fs::fsync(&dir).map_err(errno)?;
    Ok(())
}

/// A temporary file beside the target, removed when dropped unless it was renamed into place.
struct Temp<'d> {
    dir: &'d OwnedFd,
    name: String,
    file: Option<std::fs::File>,
    committed: bool,
}

impl<'d> Temp<'d> {
    fn create(dir: &'d OwnedFd, target: &str) -> Result<Temp<'d>, Errno> {
        let mut last = Errno::EXIST;
        for _ in 0..TEMP_ATTEMPTS {
            // A long target name is cut so that the temporary name stays within NAME_MAX.
            let stem = crate::diagnostic::first_chars(target, 180);
            let name = format!(".{stem}.tmp{:016x}", rand::random::<u64>());
            // O_EXCL and O_NOFOLLOW: a name that appeared meanwhile, or a planted link, is
            // never opened; 0o666 lets the umask decide as for any new file.
            let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            match rustix::fs::openat(dir, name.as_str(), flags, Mode::from_raw_mode(0o666)) {
                Ok(fd) => return Ok(Temp { dir, name, file: Some(std::fs::File::from(fd)), committed: false }),
                Err(Errno::EXIST) => last = Errno::EXIST,
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        self.file.take();
        if !self.committed {
            let _ = rustix::fs::unlinkat(self.dir, self.name.as_str(), AtFlags::empty());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    fn setup() -> (tempfile::TempDir, std::path::PathBuf, Confined) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("claims")).unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/secret"), "secret").unwrap();
        let confined = Confined::new(&root).unwrap();
        (dir, root, confined)
    }

    fn entries(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_file_is_written_only_where_nothing_stands() {
        let (dir, root, confined) = setup();
        write_new(&confined, "claims/new.toml", b"new").unwrap();
        assert_eq!(std::fs::read(root.join("claims/new.toml")).unwrap(), b"new");
        assert!(matches!(write_new(&confined, "claims/new.toml", b"other"), Err(ConfinedError::Exists(_))));
        assert_eq!(std::fs::read(root.join("claims/new.toml")).unwrap(), b"new");
        // A dangling link stands there too: it is neither replaced nor written through.
        symlink(dir.path().join("outside/planted"), root.join("claims/link.toml")).unwrap();
        assert!(matches!(write_new(&confined, "claims/link.toml", b"x"), Err(ConfinedError::Exists(_))));
        assert!(!dir.path().join("outside/planted").exists());
        let names: Vec<_> = std::fs::read_dir(root.join("claims")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
    }

    #[test]
    fn a_file_is_written_and_replaced_whole() {
        let (_d, root, c) = setup();
        write(&c, "claims/a.lock", b"one").unwrap();
        write(&c, "claims/a.lock", b"two").unwrap();
        assert_eq!(std::fs::read(root.join("claims/a.lock")).unwrap(), b"two");
        assert_eq!(entries(&root.join("claims")), ["a.lock"]);
    }

    #[test]
    fn the_existing_mode_is_kept() {
        let (_d, root, c) = setup();
        for mode in [0o664, 0o600, 0o640] {
            std::fs::write(root.join("claims/a.toml"), "x").unwrap();
            std::fs::set_permissions(root.join("claims/a.toml"), std::fs::Permissions::from_mode(mode)).unwrap();
            write(&c, "claims/a.toml", b"y").unwrap();
            assert_eq!(std::fs::metadata(root.join("claims/a.toml")).unwrap().permissions().mode() & 0o7777, mode);
        }
    }

    #[test]
    fn a_new_file_gets_the_umask_default_not_0600() {
        let (d, root, c) = setup();
        // A file created the ordinary way shows what the umask gives 0o666.
        let reference = d.path().join("reference");
        std::fs::File::create(&reference).unwrap();
        let wanted = std::fs::metadata(&reference).unwrap().permissions().mode() & 0o7777;
        write(&c, "claims/new.lock", b"x").unwrap();
        assert_eq!(std::fs::metadata(root.join("claims/new.lock")).unwrap().permissions().mode() & 0o7777, wanted);
    }

    #[test]
    fn a_link_at_the_target_is_refused_and_nothing_outside_changes() {
        let (d, root, c) = setup();
        symlink("../../outside/secret", root.join("claims/a.lock")).unwrap();
        assert!(matches!(write(&c, "claims/a.lock", b"over"), Err(ConfinedError::LastLink(_))));
        assert_eq!(std::fs::read(d.path().join("outside/secret")).unwrap(), b"secret");
        symlink("../../outside/new", root.join("claims/b.lock")).unwrap();
        assert!(write(&c, "claims/b.lock", b"new").is_err());
        assert!(!d.path().join("outside/new").exists());
        assert_eq!(entries(&root.join("claims")), ["a.lock", "b.lock"]);
    }

    #[test]
    fn a_folder_link_out_of_the_root_is_refused() {
        let (d, root, c) = setup();
        symlink("../outside", root.join("figures")).unwrap();
        assert!(matches!(write(&c, "figures/a.svg", b"x"), Err(ConfinedError::Escapes(_))));
        assert_eq!(entries(&d.path().join("outside")), ["secret"]);
    }

    #[test]
    fn a_folder_link_inside_the_root_is_followed() {
        let (_d, root, c) = setup();
        std::fs::create_dir_all(root.join("real")).unwrap();
        symlink("real", root.join("alias")).unwrap();
        write(&c, "alias/f.txt", b"x").unwrap();
        assert_eq!(std::fs::read(root.join("real/f.txt")).unwrap(), b"x");
    }

    #[test]
    fn a_failed_fill_leaves_the_target_and_no_temporary_file() {
        let (_d, root, c) = setup();
        std::fs::write(root.join("claims/a.lock"), "old").unwrap();
        let err = write_with(&c, "claims/a.lock", |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(root.join("claims/a.lock")).unwrap(), b"old");
        assert_eq!(entries(&root.join("claims")), ["a.lock"]);
    }

    #[test]
    fn a_panic_while_writing_leaves_no_temporary_file() {
        let (_d, root, c) = setup();
        std::fs::write(root.join("claims/a.lock"), "old").unwrap();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = write_with(&c, "claims/a.lock", |f| {
                f.write_all(b"half").unwrap();
                panic!("killed mid-write");
            });
        }));
        assert!(caught.is_err());
        assert_eq!(std::fs::read(root.join("claims/a.lock")).unwrap(), b"old");
        assert_eq!(entries(&root.join("claims")), ["a.lock"]);
    }
}
