//! `claimcheck stats FILE`: medians and p95s of a JSONL samples file per group, one JSON object a
//! line in sorted group order, with the quantiles the checks use (numpy's, to the last bit).
//!
//! The file is streamed through the columnar reader ([`crate::evidence::columns`]), which keeps
//! only the fields asked for, and the quantiles are found by selection
//! ([`crate::stats::quantiles_unsorted`]); both give what the whole-file reader and the sorted
//! quantiles give, errors included.

use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::evidence::columns;
use crate::stats::quantiles_unsorted;

/// The lines to print for `file` grouped `by`, for each of `fields`.
pub(crate) fn stats(file: &Path, by: &[String], fields: &[String]) -> Result<String, Diagnostic> {
    let shown = file.display().to_string();
    let opened = std::fs::File::open(file).map_err(|e| Diagnostic::plain(format!("reading {shown}: {e}")))?;
    let len = opened.metadata().map_or(0, |m| m.len());
    let threads = columns::threads_for(len);
    let mut grouped = columns::read(&shown, opened, by, fields, threads)?;
    // Every column's median and p95, the groups shared out between the threads.
    let mut columns: Vec<&mut Vec<f64>> = grouped.groups.values_mut().flat_map(|c| c.iter_mut()).collect();
    let per_thread = columns.len().div_ceil(threads.max(1)).max(1);
    let quantiles: Vec<[f64; 2]> = std::thread::scope(|scope| {
        let handles: Vec<_> = columns
            .chunks_mut(per_thread)
            .map(|part| scope.spawn(move || part.iter_mut().map(|c| if c.is_empty() { [f64::NAN; 2] } else { let q = quantiles_unsorted(c, &[0.5, 0.95]); [q[0], q[1]] }).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a quantile thread panicked")).collect()
    });
    let n_fields = fields.len();
    let mut out = String::new();
    for (j, field) in fields.iter().enumerate() {
        for (g, (key, columns)) in grouped.groups.iter().enumerate() {
            let [median, p95] = quantiles[g * n_fields + j];
            let mut row = serde_json::Map::new();
            for (k, v) in by.iter().zip(key) {
                row.insert(k.clone(), serde_json::Value::String(v.clone()));
            }
            row.insert("field".into(), field.clone().into());
            row.insert("n".into(), columns[j].len().into());
            row.insert("median".into(), median.into());
            row.insert("p95".into(), p95.into());
            out.push_str(&serde_json::Value::Object(row).to_string());
            out.push('\n');
        }
    }
    Ok(out)
}
