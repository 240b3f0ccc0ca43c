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
    /// How `device_us` was taken: `graph-replay-events` (events around one graph replay),
    /// `stream-events` (events around the stream submissions) or `host-completion` (host clock
    /// only). Older runs record none; a `compare` check refuses to order samples recorded under
    /// different protocols, because the difference would then be the protocol's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
}

/// The protocol names a sample can record.
pub const GRAPH_REPLAY_EVENTS: &str = "graph-replay-events";
pub const STREAM_EVENTS: &str = "stream-events";
pub const HOST_COMPLETION: &str = "host-completion";
