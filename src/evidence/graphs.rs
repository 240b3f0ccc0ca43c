//! `graphs/nodes.json` and the graphs a run captured: per graph, its node counts by type and the
//! time its capture, instantiation and upload took.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One captured graph, as `meta.json` lists it; the DOT text goes to `graphs/<key>.dot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphRecord {
    pub suite: String,
    pub case: String,
    pub variant: String,
    pub nodes: BTreeMap<String, usize>,
    /// Capture, instantiation and upload of one graph, in µs: setup, excluded from timing.
    pub setup_us: f64,
    #[serde(skip)]
    pub dot: String,
}

impl GraphRecord {
    /// The graph's name in `graphs/`: `<suite>-<case>-<variant>`.
    pub fn key(&self) -> String {
        format!("{}-{}-{}", self.suite, self.case, self.variant)
    }
}

/// One entry of `graphs/nodes.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphNodes {
    pub nodes: BTreeMap<String, u64>,
    pub setup_us: Option<f64>,
}

/// `graphs/nodes.json`: graph key → its nodes.
pub type NodesFile = BTreeMap<String, GraphNodes>;

/// The nodes file of `graphs`, keyed as the run writes it.
pub fn nodes_file(graphs: &[GraphRecord]) -> NodesFile {
    graphs.iter().map(|g| (g.key(), GraphNodes { nodes: g.nodes.iter().map(|(k, v)| (k.clone(), *v as u64)).collect(), setup_us: Some(g.setup_us) })).collect()
}
