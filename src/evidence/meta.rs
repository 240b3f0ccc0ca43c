//! `meta.json`: on what, with what and how a run was measured, and whether it was accepted.
//! The GPU suite writes it through [`Meta`] and every reader reads it through the same type, so
//! a field can only change in one place. Reading is lenient about what a run does not record
//! (older or hand-made runs, such as the test fixture's), never about a field's type.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::graphs::GraphRecord;

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Meta {
    pub schema_version: u32,
    pub run_id: String,
    /// `accepted` when every validation record held, else `rejected`.
    pub status: Option<String>,
    pub rejected_because: Vec<String>,
    pub suites: Vec<String>,
    pub device: Option<DeviceInfo>,
    pub clocks_before: Option<String>,
    pub clocks_after: Option<String>,
    pub git_commit: String,
    pub claimcheck_version: String,
    pub settings: Option<Settings>,
    pub tolerances: BTreeMap<String, f64>,
    pub timing: BTreeMap<String, String>,
    pub nvrtc_options: BTreeMap<String, Vec<String>>,
    pub cases: Vec<CaseMeta>,
    pub graphs: Vec<GraphRecord>,
    pub medians: Vec<Median>,
    pub peers: Vec<serde_json::Value>,
    pub notes: Vec<String>,
}

/// The status a run is written with when every validation record holds.
pub const ACCEPTED: &str = "accepted";
/// The status a run is written with when any does not.
pub const REJECTED: &str = "rejected";

impl Meta {
    /// Whether the run was accepted when it was written.
    pub fn is_accepted(&self) -> bool {
        self.status.as_deref() == Some(ACCEPTED)
    }

    /// The status as the run records it, or `unknown`.
    pub fn status_name(&self) -> &str {
        self.status.as_deref().unwrap_or("unknown")
    }
}

/// What the run records about the device and the software it ran under.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeviceInfo {
    pub name: String,
    pub compute_capability: [i32; 2],
    pub sm_count: i32,
    pub l2_bytes: i32,
    pub max_shared_per_block_optin: i32,
    pub max_shared_per_sm: i32,
    pub total_memory_bytes: usize,
    /// As cuDriverGetVersion reports it: 1000 × major + 10 × minor.
    pub driver_version: i32,
    pub nvrtc_version: [i32; 2],
    pub cudnn_version: Option<usize>,
}

/// How a run is timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub rounds: u32,
    pub warmup: usize,
    pub seed: u64,
    /// Fresh random fixtures each variant is validated on before timing.
    pub validation_fixtures: u64,
}

/// How one configuration was set up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseMeta {
    pub suite: String,
    pub case: String,
    pub shape: Vec<usize>,
    /// Buffer sets the timed invocations rotate through; more than one when one set fits in L2.
    pub rotation_sets: usize,
    /// How the sets were taken: [`ROTATION_PER_INVOCATION`] (each invocation the next set), or,
    /// where absent, [`ROTATION_PER_ENTRY`] (each entry its own cycle), as older runs did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<String>,
    pub bytes_per_set: usize,
    pub timing_fixture_seed: u64,
    pub variants: Vec<String>,
    pub modes: Vec<String>,
    /// Logical bytes one invocation of each variant reads and writes (array accesses, not
    /// DRAM measurements).
    pub logical_bytes: BTreeMap<String, usize>,
    pub dispatch: Option<String>,
    /// The SM clock around this configuration's timing; older runs record none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<CaseClocks>,
}

/// Every timed invocation, whatever its entry, takes the next buffer set, so that none finds in
/// L2 the data of the invocation before it.
pub const ROTATION_PER_INVOCATION: &str = "per-invocation";
/// Each entry cycled through the sets on its own, so that the entries of one round mostly took
/// the same set and found the inputs their predecessor had just read still in L2. Runs that
/// record no `rotation` were timed this way.
pub const ROTATION_PER_ENTRY: &str = "per-entry";

impl Meta {
    /// How the peer script took its buffer sets: what its records say, or, where they say
    /// nothing, [`ROTATION_PER_ENTRY`], as it did before it recorded it.
    pub fn peer_rotation(&self) -> &str {
        self.peers.iter().find_map(|p| p.get("rotation").and_then(|v| v.as_str())).unwrap_or(ROTATION_PER_ENTRY)
    }

    /// How the samples of `variant` at `case` took their buffer sets: the case's rotation where
    /// the variant is ours, the peer script's where it is a peer's.
    pub fn rotation_of<'a>(&'a self, case: &'a CaseMeta, variant: &str) -> &'a str {
        if case.variants.iter().any(|v| v == variant) { case.rotation() } else { self.peer_rotation() }
    }
}

/// A rotation as messages say it: `per entry`, `per invocation`.
pub fn rotation_shown(rotation: &str) -> String {
    rotation.replace('-', " ")
}

impl CaseMeta {
    /// How this configuration's sets were taken; runs that record nothing took them per entry.
    pub fn rotation(&self) -> &str {
        self.rotation.as_deref().unwrap_or(ROTATION_PER_ENTRY)
    }
}

/// The SM clock of one configuration, read through NVML (read only): when its warm-up began,
/// when timing began and when timing ended, with how long the warm-up held the GPU busy before
/// the clock was stable. A recheck compares these with the accepted run's, so that a run timed
/// at another clock is called INCOMPARABLE rather than slower.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CaseClocks {
    pub sm_mhz_warmup_start: u32,
    pub sm_mhz_before: u32,
    pub sm_mhz_after: u32,
    pub warmup_ms: f64,
    pub warmup_invocations: u64,
    /// Whether the clock settled before the warm-up's time limit.
    pub stable: bool,
}

impl CaseClocks {
    /// The clock the configuration was timed at: the lower of the readings before and after
    /// timing, so that a clock that fell during timing counts.
    pub fn timed_mhz(&self) -> u32 {
        self.sm_mhz_before.min(self.sm_mhz_after)
    }
}

/// The SM clock a run-level `nvidia-smi` reading (`clocks_before`, `clocks_after`) starts
/// with: `"1980 MHz, 3201 MHz, …"` gives 1980.
pub fn sm_mhz_of_reading(reading: &str) -> Option<u32> {
    reading.split(',').next()?.trim().strip_suffix("MHz")?.trim().parse().ok()
}

/// The median of one configuration and field. The fields are declared in the order the run
/// has always written them (sorted by name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Median {
    pub case: String,
    pub field: String,
    pub median: f64,
    pub mode: String,
    pub suite: String,
    pub variant: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_committed_run_reads_and_writes_back_the_same_json() {
        let runs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("evidence/runs");
        let mut seen = 0;
        for entry in std::fs::read_dir(runs).unwrap() {
            let path = entry.unwrap().path().join("meta.json");
            let text = std::fs::read_to_string(&path).unwrap();
            let meta: Meta = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut again = serde_json::to_string_pretty(&meta).unwrap();
            again.push('\n');
            assert_eq!(again, text, "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 6);
    }

    #[test]
    fn a_partial_meta_reads_with_what_it_records() {
        let meta: Meta = serde_json::from_str(r#"{"status":"accepted","device":{"name":"NVIDIA H200","driver_version":13000},"suites":["softmax"]}"#).unwrap();
        assert!(meta.is_accepted());
        assert_eq!(meta.device.unwrap().driver_version, 13000);
        assert!(serde_json::from_str::<Meta>(r#"{"suites":"softmax"}"#).is_err());
    }

    #[test]
    fn a_run_level_clock_reading_gives_its_sm_clock() {
        assert_eq!(sm_mhz_of_reading("1980 MHz, 3201 MHz, 1980 MHz, 36, 127.81 W, P0"), Some(1980));
        assert_eq!(sm_mhz_of_reading("[N/A]"), None);
    }
}
