//! The run writer: a run directory appears whole, with its manifest, or not at all. Every
//! file and folder of it is made through the root's handle and the one atomic writer
//! ([`crate::paths::Root::write`]), so that no link in the evidence tree leads a write outside.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::hash::sha256_hex;
use crate::paths::Root;

/// Writes a run directory so that it appears whole or not at all: files go into a temporary
/// sibling directory, the manifest is written last, and the directory is renamed into place,
/// never over an existing run.
pub struct RunWriter {
    root: Root,
    /// The runs folder, root-relative (`"."` when the root is the runs folder itself).
    runs: String,
    id: String,
    tmp_name: String,
    finished: bool,
}

impl RunWriter {
    /// Starts a run named `id` in the folder `runs_dir`, which the caller names (the
    /// repository's `evidence/runs`, or a fixture's); it is made if missing.
    pub fn create(runs_dir: &Path, id: &str) -> anyhow::Result<RunWriter> {
        std::fs::create_dir_all(runs_dir)?;
        RunWriter::create_in(Root::new(runs_dir)?, ".", id)
    }

    /// Starts a run named `id` in the root-relative folder `runs` of `root`, made through the
    /// root's handle if missing.
    pub fn create_in(root: Root, runs: &str, id: &str) -> anyhow::Result<RunWriter> {
        anyhow::ensure!(!id.is_empty() && !id.contains('/') && !id.starts_with('.'), "bad run name {id}");
        let is_root = runs.split('/').all(|c| c.is_empty() || c == ".");
        if !is_root {
            root.create_dir_all(runs)?;
        }
        let final_rel = join(runs, id);
        if root.kind(&final_rel)?.is_some() {
            anyhow::bail!("run {} already exists; runs are never overwritten", root.dir().join(&final_rel).display());
        }
        let tmp_name = format!(".{id}.tmp");
        let tmp_rel = join(runs, &tmp_name);
        // A temporary folder left by a killed run is removed, links in it unfollowed.
        root.remove_dir_all(&tmp_rel)?;
        root.create_dir_all(&tmp_rel)?;
        Ok(RunWriter { root, runs: runs.to_string(), id: id.to_string(), tmp_name, finished: false })
    }

    /// Writes `bytes` to `rel` inside the run (creating folders).
    pub fn write(&self, rel: &str, bytes: &[u8]) -> anyhow::Result<()> {
        anyhow::ensure!(!rel.split('/').any(|c| c == "..") && !rel.starts_with('/'), "bad run file name {rel}");
        let path = join(&self.tmp(), rel);
        if let Some((parent, _)) = path.rsplit_once('/') {
            self.root.create_dir_all(parent)?;
        }
        self.root.write(&path, bytes)?;
        Ok(())
    }

    pub fn write_json<T: Serialize>(&self, rel: &str, value: &T) -> anyhow::Result<()> {
        let mut text = serde_json::to_string_pretty(value)?;
        text.push('\n');
        self.write(rel, text.as_bytes())
    }

    pub fn write_jsonl<T: Serialize>(&self, rel: &str, rows: &[T]) -> anyhow::Result<()> {
        let mut text = String::new();
        for row in rows {
            text.push_str(&serde_json::to_string(row)?);
            text.push('\n');
        }
        self.write(rel, text.as_bytes())
    }

    /// Writes `MANIFEST.sha256` over every file written and moves the run into place.
    pub fn finish(mut self) -> anyhow::Result<PathBuf> {
        let tmp = self.tmp();
        let mut manifest = String::new();
        for (rel, _) in self.root.list_tree(&tmp)? {
            let (bytes, _) = self.root.read(&join(&tmp, &rel))?;
            manifest.push_str(&format!("{}  {rel}\n", sha256_hex(&bytes)));
        }
        self.root.write(&join(&tmp, "MANIFEST.sha256"), manifest.as_bytes())?;
        let final_dir = self.root.dir().join(join(&self.runs, &self.id));
        self.root.rename_new(&self.runs, &self.tmp_name, &self.id).map_err(|e| anyhow::anyhow!("run {} appeared while writing; not overwriting it ({e})", final_dir.display()))?;
        self.finished = true;
        Ok(final_dir)
    }

    fn tmp(&self) -> String {
        join(&self.runs, &self.tmp_name)
    }
}

/// `dir/name`, or `name` where `dir` is the root.
fn join(dir: &str, name: &str) -> String {
    if dir.split('/').all(|c| c.is_empty() || c == ".") { name.to_string() } else { format!("{dir}/{name}") }
}

impl Drop for RunWriter {
    /// A run that did not finish leaves nothing behind: no partial evidence directory.
    fn drop(&mut self) {
        if !self.finished {
            let _ = self.root.remove_dir_all(&self.tmp());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_writer_renames_whole_runs_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let w = RunWriter::create(dir.path(), "r1").unwrap();
        w.write("samples.jsonl", b"{}\n").unwrap();
        w.write("traces/t.jsonl", b"{}\n").unwrap();
        let run = w.finish().unwrap();
        let manifest = std::fs::read_to_string(run.join("MANIFEST.sha256")).unwrap();
        assert_eq!(manifest.lines().count(), 2);
        assert!(manifest.contains("  traces/t.jsonl"));
        assert!(RunWriter::create(dir.path(), "r1").is_err());
    }

    #[test]
    fn an_abandoned_run_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        {
            let w = RunWriter::create(dir.path(), "r2").unwrap();
            w.write("samples.jsonl", b"{}\n").unwrap();
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
