//! `samples.jsonl`: one timed sample a line, as the GPU suite writes it and the checks read it.

use serde::{Deserialize, Serialize};

/// One timed sample of `samples.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleRecord {
    pub suite: String,
    pub case: String,
    pub variant: String,
    pub mode: String,
    pub round: u32,
    pub order: u32,
    pub host_us: f64,
    pub device_us: f64,
}
