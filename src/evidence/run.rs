//! A run directory's metadata files read together: `meta.json`, `graphs/nodes.json` and
//! `kernels.json`. The audit reads them for every run its checks read, as `review` and
//! `recheck` do, so a malformed one is bad input to every command alike.

use std::rc::Rc;

use super::graphs::NodesFile;
use super::kernels::{KernelInfo, KernelsFile};
use super::meta::Meta;
use super::store::{Evidence, ReadError};
use crate::diagnostic::Diagnostic;
use crate::paths::PathError;

/// What a run records about itself; files it does not have are empty.
pub struct RunFiles {
    pub meta: Option<Rc<Meta>>,
    pub nodes: NodesFile,
    pub kernels: Vec<KernelInfo>,
}

/// Reads the metadata files of the run at `dir` (root-relative).
pub fn read(evidence: &Evidence, dir: &str) -> Result<RunFiles, Diagnostic> {
    fn optional<T: serde::de::DeserializeOwned + 'static>(evidence: &Evidence, rel: &str) -> Result<Option<Rc<T>>, Diagnostic> {
        match evidence.json::<T>(rel) {
            Ok(v) => Ok(Some(v)),
            Err(ReadError::Path(PathError::Missing(_))) => Ok(None),
            Err(e) => Err(e.at(rel)),
        }
    }
    let meta = optional::<Meta>(evidence, &format!("{dir}/meta.json"))?;
    let nodes = optional::<NodesFile>(evidence, &format!("{dir}/graphs/nodes.json"))?.map(|n| (*n).clone()).unwrap_or_default();
    let kernels = optional::<KernelsFile>(evidence, &format!("{dir}/kernels.json"))?.map(|k| k.kernels.clone()).unwrap_or_default();
    Ok(RunFiles { meta, nodes, kernels })
}

/// The run directory an evidence path lies in: `evidence/runs/X/...` → `evidence/runs/X`.
pub fn run_of(file: &str) -> Option<String> {
    let rest = file.strip_prefix("evidence/runs/")?;
    let (run, _) = rest.split_once('/')?;
    Some(format!("evidence/runs/{run}"))
}
