//! `evidence/calibration.json`: how much runs of unchanged code differ, per configuration, as
//! `claimcheck calibrate RUN RUN [RUN...] --out evidence/calibration.json` measured it. The
//! recheck reads it to widen a side that has only one run; people read it for the proposed
//! margin of each configuration. Written whole through the one atomic writer ([`crate::paths::write_named`]).

use serde::{Deserialize, Serialize};

use super::meta::{SetRotation, SetsTaken};
use super::store::{Evidence, ReadError};
use crate::diagnostic::Diagnostic;

/// Where the recheck looks for the calibration, relative to the root.
pub const PATH: &str = "evidence/calibration.json";

/// Bumped whenever a field changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationFile {
    pub schema_version: u32,
    /// The runs, root-relative, taken as runs of unchanged code.
    pub runs: Vec<String>,
    pub rule: CalibrationRule,
    /// σ of ln(median) between runs used for a configuration this file does not hold: the
    /// 90th percentile of the configurations' σ, so that an unmeasured one is not trusted more
    /// than most measured ones.
    pub default_between: f64,
    /// Over every A/A judgement, with σ measured on all the runs (in-sample) and with σ
    /// measured without the two runs judged (held out), where at least two other runs exist.
    pub in_sample: Rates,
    pub held_out: Option<Rates>,
    pub configurations: Vec<ConfigurationCalibration>,
    /// Configurations left out, with why (a kernel dispatch that differs between runs, a
    /// configuration in one run only).
    pub excluded: Vec<String>,
}

/// How the A/A judgements were made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationRule {
    pub seed: u64,
    pub replicates: usize,
    /// The margin δ the false-MISMATCH and false-INCONCLUSIVE rates are counted at.
    pub margin: f64,
    pub family_alpha: f64,
    /// The share of A/A pairs that must MATCH at the proposed margin.
    pub target_match_rate: f64,
    /// The nominal share of 90 % intervals that exclude a ratio of 1 between runs of
    /// unchanged code.
    pub nominal_excluding_one: f64,
}

/// Rates over a set of A/A judgements.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rates {
    pub judgements: usize,
    pub matched: usize,
    pub mismatched: usize,
    pub inconclusive: usize,
    /// How many 90 % intervals (before family-wise adjustment) exclude a ratio of 1.
    pub excluding_one: usize,
}

/// One configuration and field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigurationCalibration {
    pub suite: String,
    pub case: String,
    pub variant: String,
    pub mode: String,
    pub field: String,
    /// The runs' medians, in the order of `runs` that hold this configuration.
    pub medians: Vec<f64>,
    /// Standard deviation of the runs' medians over their mean.
    pub cv_between: f64,
    /// σ of ln(median) between runs beyond what the rounds inside a run explain.
    pub between: f64,
    /// The typical σ of ln(median) inside one run (bootstrap over its rounds).
    pub within: f64,
    pub pairs: usize,
    pub false_mismatch: f64,
    pub false_inconclusive: f64,
    pub excluding_one: f64,
    /// The smallest margin at which the A/A pairs MATCH at the target rate, rounded up to
    /// half a percent.
    pub proposed_margin: f64,
    /// How many shuffled orders the runs were timed in here ([`crate::evidence::meta::ShuffleOrder`]):
    /// where fewer than the runs, σ between runs leaves out what a place in an order does to its
    /// samples, since runs of one order share it. Files written before it was counted hold none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders: Option<usize>,
    /// How many buffer sets its runs' invocations took, and, where more than one, in which
    /// rotation (as `meta.json` writes them). Both are the protocol the spread was measured
    /// under: runs that took their sets otherwise differ between themselves by other amounts
    /// (`kernels/NOTES.md`, versions 16 and 18), so the recheck uses this σ only for runs that
    /// took them alike. Files written before it was recorded hold neither.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_sets: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<SetRotation>,
}

impl ConfigurationCalibration {
    /// How its runs took their buffer sets; `None` where the file does not record it.
    pub fn sets(&self) -> Option<SetsTaken> {
        // One set has no rotation, so a count of one needs none to be read back.
        self.rotation_sets.map(|n| SetsTaken::new(self.rotation.unwrap_or(SetRotation::PerEntry), n))
    }

    /// Whether some of its runs were timed in the same shuffled order (fewer orders than runs).
    pub fn orders_shared(&self) -> bool {
        self.orders.is_some_and(|n| n < self.medians.len())
    }
}

impl CalibrationFile {
    /// One configuration and field, if calibrated.
    pub fn configuration(&self, suite: &str, case: &str, variant: &str, mode: &str, field: &str) -> Option<&ConfigurationCalibration> {
        self.configurations.iter().find(|c| c.suite == suite && c.case == case && c.variant == variant && c.mode == mode && c.field == field)
    }
}

/// Reads the file; `Ok(None)` when there is none.
pub fn read(evidence: &Evidence) -> Result<Option<std::rc::Rc<CalibrationFile>>, Diagnostic> {
    match evidence.json::<CalibrationFile>(PATH) {
        Ok(file) => Ok(Some(file)),
        Err(ReadError::Path(_)) => Ok(None),
        Err(e) => Err(e.at(PATH)),
    }
}
