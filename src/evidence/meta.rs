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
    /// The peer script's own records, as it wrote them. Their `rotation` and `rotation_sets`
    /// decide how the peers' samples may be compared, so those are checked as the records are
    /// read ([`check_peers`]); the rest is read as text where it is read at all.
    #[serde(deserialize_with = "peer_records")]
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

    /// Why the run's times are not evidence: it is not marked accepted (rejected by its own
    /// validation, with the reasons it records, or with no status at all, as a file that is not
    /// a run of this tool would be). `None` for an accepted run.
    pub fn not_accepted_because(&self) -> Option<String> {
        if self.is_accepted() {
            return None;
        }
        let status = self.status.as_deref().map_or_else(|| "with no status".to_string(), str::to_string);
        let because = if self.rejected_because.is_empty() { String::new() } else { format!(" ({})", self.rejected_because.join("; ")) };
        Some(format!("marked {status}{because}"))
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
    /// Buffer sets the timed invocations rotate through: at least two, more where one set fits
    /// in L2. Runs before version 18 of `kernels/NOTES.md` took one where a set outgrew three L2s.
    pub rotation_sets: usize,
    /// How the sets were taken; absent in older runs, which took them per entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<SetRotation>,
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

/// How a configuration's timed invocations took their buffer sets. A closed set: a run that
/// names another is bad input, not a third way of timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetRotation {
    /// Each entry cycled through the sets on its own, so that the entries of one round mostly
    /// took the same set and found the inputs their predecessor had just read still in L2. Runs
    /// that record no `rotation` were timed this way.
    PerEntry,
    /// Every timed invocation, whatever its entry, takes the next buffer set, so that none finds
    /// in L2 the data of the invocation before it.
    PerInvocation,
}

impl SetRotation {
    /// As `meta.json` writes it: `per-entry`, `per-invocation`.
    pub fn name(self) -> &'static str {
        match self {
            SetRotation::PerEntry => "per-entry",
            SetRotation::PerInvocation => "per-invocation",
        }
    }

    /// As messages say it: `per entry`, `per invocation`.
    pub fn shown(self) -> &'static str {
        match self {
            SetRotation::PerEntry => "per entry",
            SetRotation::PerInvocation => "per invocation",
        }
    }
}

/// Reads the peer records, refusing what [`check_peers`] refuses. The error is raised as the
/// parser leaves the array, so it carries the array's end as its place.
fn peer_records<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<serde_json::Value>, D::Error> {
    let records = Vec::<serde_json::Value>::deserialize(deserializer)?;
    check_peers(&records).map_err(<D::Error as serde::de::Error>::custom)?;
    Ok(records)
}

/// The rotation one peer record states, if any, after checking what of it the readers read: an
/// error where its `rotation` is not among [`SetRotation`]'s names, which a reader would
/// otherwise take for per entry without a word, or where its `rotation_sets` does not map each
/// case to a count of sets of at least one.
pub fn check_peer_record(record: &serde_json::Value) -> Result<Option<SetRotation>, String> {
    if let Some(sets) = record.get("rotation_sets") {
        let counts = sets.as_object().filter(|m| m.values().all(|v| v.as_u64().is_some_and(|n| n >= 1)));
        if counts.is_none() {
            return Err(format!("rotation_sets {sets} is not a map of each case to a count of sets"));
        }
    }
    let Some(value) = record.get("rotation") else { return Ok(None) };
    SetRotation::deserialize(value).map(Some).map_err(|_| format!("rotation {value} is not \"per-entry\" or \"per-invocation\""))
}

/// Whether the peer records of one run can be read as one rotation: each passes
/// [`check_peer_record`], and those that state a rotation agree, since the peer script times
/// every peer one way and the readers judge a run's peers by one rotation
/// ([`Meta::peer_rotation`]).
pub fn check_peers(records: &[serde_json::Value]) -> Result<(), String> {
    let mut seen: Option<(usize, SetRotation)> = None;
    for (n, record) in records.iter().enumerate() {
        let Some(rotation) = check_peer_record(record).map_err(|e| format!("peer record {}: {e}", n + 1))? else { continue };
        match seen {
            Some((first, other)) if other != rotation => {
                return Err(format!(
                    "peer record {} took its buffer sets {} but peer record {} {}; one run's peers are timed one way",
                    first + 1,
                    other.shown(),
                    n + 1,
                    rotation.shown()
                ));
            }
            Some(_) => {}
            None => seen = Some((n, rotation)),
        }
    }
    Ok(())
}

impl Meta {
    /// How the peer script took its buffer sets: what its records say (they agree; see
    /// [`peer_records`]), or, where they say nothing, per entry, as it did before it recorded it.
    pub fn peer_rotation(&self) -> SetRotation {
        self.peers.iter().find_map(|p| check_peer_record(p).ok().flatten()).unwrap_or(SetRotation::PerEntry)
    }

    /// How the samples of `variant` at `case` took their buffer sets: the case's rotation where
    /// the variant is ours, the peer script's where it is a peer's.
    pub fn rotation_of(&self, case: &CaseMeta, variant: &str) -> SetRotation {
        if case.variants.iter().any(|v| v == variant) { case.rotation() } else { self.peer_rotation() }
    }

    /// How many buffer sets the samples of `variant` at `case` rotated through, and how: the
    /// case's where the variant is ours, [`Meta::peer_sets`] where it is a peer's.
    pub fn sets_of(&self, case: &CaseMeta, variant: &str) -> SetsTaken {
        if case.variants.iter().any(|v| v == variant) { case.sets() } else { self.peer_sets(&case.case, case.rotation_sets) }
    }

    /// How the peers' replays at the case named `case` took their sets: as many as the peer
    /// script records, or, where it records no count (before version 18 of `kernels/NOTES.md`),
    /// `otherwise` (the case's own count, which the script reckoned by the same rule).
    pub fn peer_sets(&self, case: &str, otherwise: usize) -> SetsTaken {
        let recorded = self.peers.iter().find_map(|p| p.get("rotation_sets")?.get(case)?.as_u64());
        SetsTaken::new(self.peer_rotation(), recorded.map_or(otherwise, |n| n as usize))
    }
}

/// How a configuration's timed invocations took buffer sets: how many, and, where more than
/// one, in which rotation. Both are the protocol: with one set every invocation starts on the
/// data its predecessor just read and wrote, part of which may still be in L2; with several
/// taken per invocation none does. One set is one protocol whichever rotation is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SetsTaken {
    sets: usize,
    rotation: Option<SetRotation>,
}

impl SetsTaken {
    /// `sets` sets taken in `rotation`, which is dropped where there is one set.
    pub fn new(rotation: SetRotation, sets: usize) -> SetsTaken {
        SetsTaken { sets, rotation: (sets > 1).then_some(rotation) }
    }

    /// How many sets.
    pub fn count(&self) -> usize {
        self.sets
    }

    /// In which rotation; `None` for one set, whose rotation does not matter.
    pub fn rotation(&self) -> Option<SetRotation> {
        self.rotation
    }

    /// As messages say it: `per invocation over 2 sets`, `from one set`.
    pub fn shown(&self) -> String {
        match self.rotation {
            None => "from one set".to_string(),
            Some(r) => format!("{} over {} sets", r.shown(), self.sets),
        }
    }
}

/// What a variant's samples were shuffled by: a seed and the list it shuffled. Runs whose
/// variants share one were timed in the same order, round by round, and what a place in that
/// order does to its sample recurs in each of them (`kernels/NOTES.md`, version 17), so they
/// are not independent replicates of it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShuffleOrder {
    /// The seed as the run records it; `None` where it records none.
    seed: Option<String>,
    entries: String,
}

impl Meta {
    /// The order `variant` at `case` was timed in: the run's seed over the case's entries (its
    /// variants, each in every mode) where the variant is ours, the peer script's otherwise.
    pub fn order_of(&self, case: &CaseMeta, variant: &str) -> ShuffleOrder {
        if case.variants.iter().any(|v| v == variant) {
            ShuffleOrder { seed: self.settings.map(|s| s.seed.to_string()), entries: format!("{:?} {:?}", case.variants, case.modes) }
        } else {
            self.peer_order()
        }
    }

    /// The order the peer script timed its peers in: each record's seed over its peer list
    /// (one record a peer file).
    pub fn peer_order(&self) -> ShuffleOrder {
        let part = |key: &str| self.peers.iter().map(|p| p.get(key).map_or_else(|| "-".to_string(), |v| v.to_string())).collect::<Vec<_>>().join(" ");
        let seed = self.peers.iter().any(|p| p.get("seed").is_some()).then(|| part("seed"));
        ShuffleOrder { seed, entries: part("peers") }
    }
}

impl CaseMeta {
    /// How this configuration's sets were taken; runs that record nothing took them per entry.
    pub fn rotation(&self) -> SetRotation {
        self.rotation.unwrap_or(SetRotation::PerEntry)
    }

    /// How this configuration's own invocations took their sets: its count and rotation.
    pub fn sets(&self) -> SetsTaken {
        SetsTaken::new(self.rotation(), self.rotation_sets)
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
    fn rotations_are_read_as_one_of_their_names_or_refused() {
        let case = |extra: &str| {
            format!(
                r#"{{"cases":[{{"suite":"s","case":"c","shape":[1],"rotation_sets":2,"bytes_per_set":1,"timing_fixture_seed":1,"variants":["v"],"modes":[],"logical_bytes":{{}},"dispatch":null{extra}}}]}}"#
            )
        };
        let meta: Meta = serde_json::from_str(&case(r#","rotation":"per-invocation""#)).unwrap();
        assert_eq!(meta.cases[0].rotation(), SetRotation::PerInvocation);
        assert!(serde_json::to_string(&meta).unwrap().contains(r#""rotation":"per-invocation""#));
        assert_eq!(serde_json::from_str::<Meta>(&case("")).unwrap().cases[0].rotation(), SetRotation::PerEntry);
        let e = serde_json::from_str::<Meta>(&case(r#","rotation":"per invocation""#)).unwrap_err().to_string();
        assert!(e.contains("unknown variant `per invocation`"), "{e}");

        let peers = |records: &str| serde_json::from_str::<Meta>(&format!(r#"{{"peers":[{records}]}}"#));
        assert_eq!(peers(r#"{"torch":"2.11"}"#).unwrap().peer_rotation(), SetRotation::PerEntry);
        assert_eq!(peers(r#"{"torch":"2.11"},{"rotation":"per-invocation"}"#).unwrap().peer_rotation(), SetRotation::PerInvocation);
        assert_eq!(peers(r#"{"rotation":"per-invocation"},{"rotation":"per-invocation"}"#).unwrap().peer_rotation(), SetRotation::PerInvocation);
        let e = peers(r#"{"torch":"2.11"},{"rotation":1}"#).unwrap_err().to_string();
        assert_eq!(e, r#"peer record 2: rotation 1 is not "per-entry" or "per-invocation" at line 1 column 43"#);
        let e = peers(r#"{"rotation":"per-invocation"},{},{"rotation":"per-entry"}"#).unwrap_err().to_string();
        assert!(e.starts_with("peer record 1 took its buffer sets per invocation but peer record 3 per entry"), "{e}");
        let e = peers(r#"{"rotation":null}"#).unwrap_err().to_string();
        assert!(e.starts_with("peer record 1: rotation null is not"), "{e}");
        let e = peers(r#"{"rotation_sets":{"c":0}}"#).unwrap_err().to_string();
        assert!(e.starts_with(r#"peer record 1: rotation_sets {"c":0} is not a map of each case to a count of sets"#), "{e}");
        assert!(peers(r#"{"rotation_sets":[2]}"#).is_err());
        assert!(peers(r#"{"rotation_sets":{"c":2,"d":30}}"#).is_ok());
    }

    #[test]
    fn runs_of_one_seed_over_the_same_entries_share_their_order() {
        let meta = |seed: u64, variants: &str, peer_seed: u64| -> Meta {
            serde_json::from_str(&format!(
                r#"{{"settings":{{"rounds":21,"warmup":5,"seed":{seed},"validation_fixtures":2}},"cases":[{{"suite":"s","case":"c","shape":[1],"rotation_sets":1,"bytes_per_set":1,"timing_fixture_seed":1,"variants":{variants},"modes":["stream","graph"],"logical_bytes":{{}},"dispatch":null}}],"peers":[{{"seed":{peer_seed},"peers":["torch","triton"]}}]}}"#
            ))
            .unwrap()
        };
        let order = |m: &Meta, variant: &str| m.order_of(&m.cases[0], variant);
        let (a, b) = (meta(1, r#"["copy","fused"]"#, 7), meta(1, r#"["copy","fused"]"#, 8));
        assert_eq!(order(&a, "fused"), order(&b, "fused"));
        assert_ne!(order(&a, "torch"), order(&b, "torch"), "the peers were shuffled from another seed");
        assert_eq!(order(&a, "torch"), a.peer_order());
        assert_ne!(order(&a, "fused"), order(&meta(2, r#"["copy","fused"]"#, 7), "fused"));
        assert_ne!(order(&a, "fused"), order(&meta(1, r#"["copy","fused","x"]"#, 7), "fused"), "another list shuffles otherwise");
        assert_ne!(order(&a, "fused"), order(&a, "torch"));
        let bare = Meta { cases: a.cases.clone(), ..Meta::default() };
        assert_ne!(order(&bare, "fused"), order(&a, "fused"), "a run that records no seed is not taken for one that does");
    }

    #[test]
    fn a_peer_took_the_sets_its_script_records_else_the_cases() {
        let meta = |peer: &str| -> Meta {
            serde_json::from_str(&format!(
                r#"{{"cases":[{{"suite":"s","case":"c","shape":[1],"rotation_sets":2,"rotation":"per-invocation","bytes_per_set":1,"timing_fixture_seed":1,"variants":["v"],"modes":[],"logical_bytes":{{}},"dispatch":null}}],"peers":[{peer}]}}"#
            ))
            .unwrap()
        };
        let sets = |m: &Meta, variant: &str| m.sets_of(&m.cases[0], variant).shown();
        let recorded = meta(r#"{"rotation":"per-invocation","rotation_sets":{"c":1}}"#);
        assert_eq!((sets(&recorded, "v"), sets(&recorded, "torch")), ("per invocation over 2 sets".to_string(), "from one set".to_string()));
        let older = meta(r#"{"rotation":"per-invocation"}"#);
        assert_eq!(sets(&older, "torch"), "per invocation over 2 sets");
    }

    #[test]
    fn one_set_is_one_protocol_whichever_rotation_is_recorded() {
        assert_eq!(SetsTaken::new(SetRotation::PerEntry, 1), SetsTaken::new(SetRotation::PerInvocation, 1));
        assert_ne!(SetsTaken::new(SetRotation::PerEntry, 8), SetsTaken::new(SetRotation::PerInvocation, 8));
        assert_ne!(SetsTaken::new(SetRotation::PerInvocation, 1), SetsTaken::new(SetRotation::PerInvocation, 2));
        assert_eq!(SetsTaken::new(SetRotation::PerEntry, 1).shown(), "from one set");
        assert_eq!(SetsTaken::new(SetRotation::PerInvocation, 2).shown(), "per invocation over 2 sets");
    }

    #[test]
    fn a_run_level_clock_reading_gives_its_sm_clock() {
        assert_eq!(sm_mhz_of_reading("1980 MHz, 3201 MHz, 1980 MHz, 36, 127.81 W, P0"), Some(1980));
        assert_eq!(sm_mhz_of_reading("[N/A]"), None);
    }
}
