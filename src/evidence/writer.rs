//! The run writer: a run directory appears whole, with its manifest, or not at all.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::manifest::list_files;
use crate::hash::sha256_hex;

/// Writes a run directory so that it appears whole or not at all: files go into a temporary
/// sibling directory, the manifest is written last, and the directory is renamed into place.
/// An existing run is never overwritten.
pub struct RunWriter {
    final_dir: PathBuf,
    tmp_dir: PathBuf,
    finished: bool,
}

impl RunWriter {
    /// Starts a run named `id` under `runs_dir`.
    pub fn create(runs_dir: &Path, id: &str) -> anyhow::Result<RunWriter> {
        let final_dir = runs_dir.join(id);
        if final_dir.exists() {
            anyhow::bail!("run {} already exists; runs are never overwritten", final_dir.display());
        }
        std::fs::create_dir_all(runs_dir)?;
        let tmp_dir = runs_dir.join(format!(".{id}.tmp"));
        if tmp_dir.exists() {
            std::fs::remove_dir_all(&tmp_dir)?;
        }
        std::fs::create_dir_all(&tmp_dir)?;
        Ok(RunWriter { final_dir, tmp_dir, finished: false })
    }

    /// Writes `bytes` to `rel` inside the run (creating folders).
    pub fn write(&self, rel: &str, bytes: &[u8]) -> anyhow::Result<()> {
        anyhow::ensure!(!rel.contains("..") && !rel.starts_with('/'), "bad run file name {rel}");
        let path = self.tmp_dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)?;
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
        let mut manifest = String::new();
        for rel in list_files(&self.tmp_dir)? {
            let bytes = std::fs::read(self.tmp_dir.join(&rel))?;
            manifest.push_str(&format!("{}  {rel}\n", sha256_hex(&bytes)));
        }
        std::fs::write(self.tmp_dir.join("MANIFEST.sha256"), manifest)?;
        if self.final_dir.exists() {
            anyhow::bail!("run {} appeared while writing; not overwriting it", self.final_dir.display());
        }
        std::fs::rename(&self.tmp_dir, &self.final_dir)?;
        self.finished = true;
        Ok(self.final_dir.clone())
    }
}

impl Drop for RunWriter {
    /// A run that did not finish leaves nothing behind: no partial evidence directory.
    fn drop(&mut self) {
        if !self.finished {
            let _ = std::fs::remove_dir_all(&self.tmp_dir);
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
