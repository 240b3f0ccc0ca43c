//! `validation.jsonl`: one record per output array compared with its FP64 reference.

use serde::{Deserialize, Serialize};

/// One record of `validation.jsonl`: one compared array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidationRecord {
    pub suite: String,
    pub case: String,
    pub variant: String,
    /// Which array was compared: `y`, `rms`, `row_max`, `tile_m`, …
    pub what: String,
    /// Which fresh random fixture (its seed).
    pub fixture: u64,
    pub elements: usize,
    pub max_abs_err: f64,
    /// The largest element-wise relative error, |out − ref| / |ref|.
    pub max_rel_err: f64,
    /// The norm-wise relative error, ‖out − ref‖₂ / ‖ref‖₂.
    #[serde(default)]
    pub norm_rel_err: f64,
    /// Which error `tolerance` bounds: `max-rel`, `norm-rel`, or `bits` (bit-identical).
    #[serde(default = "default_criterion")]
    pub criterion: String,
    /// The bound, declared in the code before the run.
    pub tolerance: f64,
    /// Elements left at the poison value or not finite.
    pub unwritten: usize,
    /// Elements whose bits differ, for `bits` comparisons.
    #[serde(default)]
    pub differing: usize,
    pub pass: bool,
}

fn default_criterion() -> String {
    "max-rel".into()
}

impl ValidationRecord {
    /// Whether the record is within its own tolerance, judged afresh rather than trusted.
    pub fn holds(&self) -> bool {
        let within = match self.criterion.as_str() {
            "norm-rel" => self.norm_rel_err.is_finite() && self.norm_rel_err <= self.tolerance,
            "bits" => self.differing == 0,
            _ => self.max_rel_err.is_finite() && self.max_rel_err <= self.tolerance,
        };
        self.unwritten == 0 && within && self.pass
    }

    /// The error the tolerance bounds, for reports.
    pub fn judged_error(&self) -> f64 {
        match self.criterion.as_str() {
            "norm-rel" => self.norm_rel_err,
            "bits" => self.differing as f64,
            _ => self.max_rel_err,
        }
    }
}
