//! `claimcheck stats FILE`: medians and p95s of a samples file per group (JSONL, or CSV or TSV
//! by the file's name), one JSON object a line in sorted group order, with the quantiles the
//! checks use (numpy's, to the last bit).
//!
//! The file is streamed through the columnar reader ([`crate::evidence::columns`], and
//! [`crate::evidence::columns::delimited`] for CSV and TSV), which keeps only the fields asked
//! for, and the quantiles are found by selection
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
    // CSV and TSV are told by the file's name, as the table reader tells them.
    let mut grouped = match crate::evidence::store::delimiter(&file.to_string_lossy()) {
        Some(delimiter) => columns::delimited::read(&shown, || std::fs::File::open(file), delimiter, by, fields, threads)?,
        None => columns::read(&shown, opened, by, fields, threads)?,
    };
    // Every column's median and p95, the groups shared out between the threads.
    let mut columns: Vec<&mut Vec<f64>> = grouped.groups.values_mut().flat_map(|c| c.iter_mut()).collect();
    let per_thread = columns.len().div_ceil(threads.max(1)).max(1);
    let quantiles: Vec<[f64; 2]> = std::thread::scope(|scope| {
        let handles: Vec<_> = columns
            .chunks_mut(per_thread)
            .map(|part| {
                scope.spawn(move || {
                    part.iter_mut()
                        .map(|c| {
                            if c.is_empty() {
                                [f64::NAN; 2]
                            } else {
                                let q = quantiles_unsorted(c, &[0.5, 0.95]);
                                [q[0], q[1]]
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Jsonl;

    const EXAMPLE: &str = "tests/fixtures/example/evidence/runs/example-run/samples.jsonl";

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// The example's samples written as CSV or TSV (each value as the JSONL reader writes it,
    /// which reads back to the same double) give the JSONL file's lines, to the last digit.
    #[test]
    fn a_csv_or_tsv_file_gives_what_the_same_samples_as_jsonl_give() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let jsonl = Jsonl::parse(EXAMPLE, &std::fs::read(root.join(EXAMPLE)).unwrap()).unwrap();
        let columns = ["suite", "case", "variant", "mode", "host_us", "device_us"];
        let (by, fields) = (strings(&columns[..4]), strings(&columns[4..]));
        let expected = stats(&root.join(EXAMPLE), &by, &fields).unwrap();
        let dir = tempfile::tempdir().unwrap();
        for (name, delimiter) in [("s.csv", ","), ("s.tsv", "\t")] {
            let mut text = columns.join(delimiter) + "\n";
            for record in &jsonl.records {
                let row: Vec<String> = columns.iter().map(|c| jsonl.text_of(jsonl.get(record, c))).collect();
                text.push_str(&(row.join(delimiter) + "\n"));
            }
            std::fs::write(dir.path().join(name), text).unwrap();
            assert_eq!(stats(&dir.path().join(name), &by, &fields).unwrap(), expected, "{name}");
        }
    }

    /// A bad row is a located error, as the table reader gives it.
    #[test]
    fn a_bad_csv_row_is_located() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("s.csv");
        std::fs::write(&file, "suite,host_us\na,1\nb,2,3\n").unwrap();
        let err = stats(&file, &strings(&["suite"]), &strings(&["host_us"])).unwrap_err();
        assert_eq!(err.position().unwrap(), format!("{}:3:1", file.display()));
        assert!(err.message.contains("this row has 3 cells, but the header has 2 columns"), "{}", err.message);
    }
}
