//! `claimcheck stats FILE`: medians and p95s of a JSONL samples file per group, one JSON object a
//! line in sorted group order, with the quantiles the checks use (numpy's, to the last bit).

use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::evidence::Jsonl;

/// The lines to print for `file` grouped `by`, for each of `fields`.
pub(crate) fn stats(file: &Path, by: &[String], fields: &[String]) -> Result<String, Diagnostic> {
    let shown = file.display().to_string();
    let bytes = std::fs::read(file).map_err(|e| Diagnostic::plain(format!("reading {shown}: {e}")))?;
    let jsonl = Jsonl::from_vec(&shown, bytes)?;
    let mut out = String::new();
    let groups = jsonl.groups(by);
    for field in fields {
        for (key, records) in &groups {
            let samples = jsonl.samples(records, field)?;
            let mut row = serde_json::Map::new();
            for (k, v) in by.iter().zip(key) {
                row.insert(k.clone(), serde_json::Value::String(v.clone()));
            }
            row.insert("field".into(), field.clone().into());
            row.insert("n".into(), samples.len().into());
            row.insert("median".into(), samples.median().into());
            row.insert("p95".into(), samples.quantile(0.95).into());
            out.push_str(&serde_json::Value::Object(row).to_string());
            out.push('\n');
        }
    }
    Ok(out)
}
