//! `summary.json`: per configuration and field, the statistics a run saved beside its raw samples.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::samples::SampleRecord;
use crate::stats::Samples;

/// `summary.json`: per configuration and field, the statistics the audit recomputes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub schema_version: u32,
    pub configurations: Vec<SummaryRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub suite: String,
    pub case: String,
    pub variant: String,
    pub mode: String,
    pub field: String,
    pub n: usize,
    pub median: f64,
    pub mean: f64,
    pub p05: f64,
    pub p95: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// Summarises `samples` per (suite, case, variant, mode), for `host_us` and `device_us`,
    /// with the same statistics code the audit uses.
    pub fn of(samples: &[SampleRecord]) -> Summary {
        let mut groups: BTreeMap<(String, String, String, String), (Vec<f64>, Vec<f64>)> = BTreeMap::new();
        for s in samples {
            let entry = groups.entry((s.suite.clone(), s.case.clone(), s.variant.clone(), s.mode.clone())).or_default();
            entry.0.push(s.host_us);
            entry.1.push(s.device_us);
        }
        let mut configurations = Vec::new();
        for ((suite, case, variant, mode), (host, device)) in groups {
            for (field, values) in [("device_us", device), ("host_us", host)] {
                let Ok(s) = Samples::new(values) else { continue };
                configurations.push(SummaryRow {
                    suite: suite.clone(),
                    case: case.clone(),
                    variant: variant.clone(),
                    mode: mode.clone(),
                    field: field.to_string(),
                    n: s.len(),
                    median: s.median(),
                    mean: s.mean(),
                    p05: s.quantile(0.05),
                    p95: s.quantile(0.95),
                    min: s.min(),
                    max: s.max(),
                });
            }
        }
        Summary { schema_version: 1, configurations }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_uses_the_shared_statistics() {
        let rows: Vec<SampleRecord> = (0..5)
            .map(|i| SampleRecord {
                suite: "s".into(),
                case: "c".into(),
                variant: "v".into(),
                mode: "graph".into(),
                round: i,
                order: 0,
                host_us: f64::from(i + 1),
                device_us: 1.0,
                protocol: None,
            })
            .collect();
        let s = Summary::of(&rows);
        let host = s.configurations.iter().find(|r| r.field == "host_us").unwrap();
        assert_eq!((host.n, host.median, host.min, host.max), (5, 3.0, 1.0, 5.0));
        assert!((host.p95 - 4.8).abs() < 1e-12);
    }
}
