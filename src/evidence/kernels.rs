//! `kernels.json`: register, memory and occupancy facts of every kernel a run launched, at its
//! launch configuration.

use serde::{Deserialize, Serialize};

/// One kernel at its launch configuration. Reading is lenient about fields a run does not
/// record (a hand-made run may name its kernel differently), and keeps any it does not know.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct KernelInfo {
    pub module: String,
    pub kernel: String,
    pub block_threads: u32,
    pub dynamic_shared_bytes: u32,
    pub registers: i32,
    pub static_shared_bytes: i32,
    pub local_bytes: i32,
    pub max_threads_per_block: i32,
    pub max_active_blocks_per_sm: u32,
    /// Fields this version does not know, kept as the file has them.
    #[serde(flatten)]
    pub other: std::collections::BTreeMap<String, serde_json::Value>,
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KernelsFile {
    #[serde(default)]
    pub kernels: Vec<KernelInfo>,
}
