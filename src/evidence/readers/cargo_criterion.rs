//! `cargo-criterion`: the messages `cargo criterion --message-format=json` prints, one JSON
//! object a line, of which the `"reason": "benchmark-complete"` lines hold each benchmark's
//! samples (`iteration_count`, `measured_values`). This module owns that layout; it never
//! reads the estimates those lines also carry (`mean`, `median`, `slope`, `typical`).
//!
//! As with criterion's `sample.json`, each sample is a batch: `iteration_count[i]` iterations
//! measured `measured_values[i]` in all, in `unit` (`ns` for wall-clock time).
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `id` | the benchmark id as printed, `group/function/value` |
//! | `group`, `function`, `value` | the id's parts split at `/`: the first, the second, the rest (absent where the id has fewer parts) |
//! | `sample` | the sample's index, from 0 |
//! | `iters` | iterations in the sample (`iteration_count[i]`) |
//! | `batch_time_ns` | the sample's total time, ns (`measured_values[i]`), when `unit` is `ns` |
//! | `time_ns` | the time of one iteration, ns (`measured_values[i] / iteration_count[i]`), when `unit` is `ns` |
//! | `measured`, `measured_per_iter` | the same two, for a custom measurement whose `unit` is not `ns` |
//! | `unit` | the unit as printed |
//! | `sampling_mode` | `Linear` where the line holds a `slope` estimate, `Flat` where its `slope` is null (absent where the line has no `slope` at all) |
//!
//! The messages do not name the sampling mode, but criterion estimates a slope in linear
//! sampling only, and there the number it prints (`typical`) is that slope; in flat sampling it
//! prints the mean. The mode tells which statistic of the samples reproduces the printed number.
//! A record's line is its `benchmark-complete` line. Lines with another `reason`
//! (`group-complete`) are skipped; a line that is not a JSON object is an error at that line.

use super::{Source, head, tree};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether the first line of `text` is one of cargo-criterion's messages.
pub(super) fn first_line_is_a_message(text: &str) -> bool {
    let first = text.trim_start_matches('\u{feff}').lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    tree::parse(first).is_ok_and(|doc| matches!(doc.get("reason").and_then(tree::Node::as_str), Some("benchmark-complete" | "group-complete")))
}

pub(super) fn read(src: &Source) -> Result<Jsonl, Diagnostic> {
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    let mut offset = 0;
    let mut complete = 0;
    for (idx, raw) in src.text.split_inclusive('\n').enumerate() {
        let line_no = idx + 1;
        let base = offset;
        offset += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']);
        if body.trim().is_empty() {
            continue;
        }
        // Spans of a line's tree are relative to the line; errors move them into the file.
        let line_src = Source::new(src.path, body);
        let shift = |d: Diagnostic| relocate(d, line_no);
        let doc = tree::parse(body).map_err(|e| src.error(base + e.span.start..base + e.span.end, format!("not valid JSON: {}", e.message), e.label))?;
        if doc.as_object().is_none() {
            return Err(src.error(base..base + body.len(), format!("expected a JSON object, found {}", doc.what()), "not an object"));
        }
        if doc.get("reason").and_then(tree::Node::as_str) != Some("benchmark-complete") {
            continue;
        }
        complete += 1;
        let id = line_src.string(&doc, "id", "benchmark-complete message").map_err(shift)?;
        let unit = line_src.string(&doc, "unit", "benchmark-complete message").map_err(shift)?;
        let counts = line_src.array(&doc, "iteration_count", "benchmark-complete message").map_err(shift)?;
        let values = line_src.array(&doc, "measured_values", "benchmark-complete message").map_err(shift)?;
        if counts.len() != values.len() {
            return Err(relocate(
                line_src.error(head(&doc), format!("`iteration_count` has {} values but `measured_values` has {}", counts.len(), values.len()), "one per sample expected"),
                line_no,
            ));
        }
        let counts_f = line_src.numbers(counts, "iteration_count").map_err(shift)?;
        let values_f = line_src.numbers(values, "measured_values").map_err(shift)?;
        let parts: Vec<&str> = id.split('/').collect();
        let value = (parts.len() > 2).then(|| parts[2..].join("/"));
        let mode = match doc.get("slope") {
            Some(slope) if slope.as_object().is_some() => Some("Linear"),
            Some(slope) if matches!(slope.kind, tree::Kind::Null) => Some("Flat"),
            _ => None,
        };
        let (batch_key, per_iter_key) = if unit == "ns" { ("batch_time_ns", "time_ns") } else { ("measured", "measured_per_iter") };
        for (i, (n, v)) in counts_f.iter().zip(&values_f).enumerate() {
            if *n <= 0.0 {
                return Err(relocate(line_src.error(counts[i].span.clone(), format!("sample {i} has {n} iterations; a sample needs at least one"), "not a count"), line_no));
            }
            let mut fields = vec![("id", FieldValue::Str(id)), ("group", FieldValue::Str(parts[0]))];
            fields.extend(parts.get(1).map(|f| ("function", FieldValue::Str(f))));
            fields.extend(value.as_deref().map(|v| ("value", FieldValue::Str(v))));
            fields.extend(mode.map(|m| ("sampling_mode", FieldValue::Str(m))));
            fields.extend([
                ("sample", FieldValue::Int(i as i64)),
                ("iters", FieldValue::Float(*n)),
                (batch_key, FieldValue::Float(*v)),
                (per_iter_key, FieldValue::Float(v / n)),
                ("unit", FieldValue::Str(unit)),
            ]);
            out.push(line_no, base..base + raw.len(), fields);
        }
    }
    if complete == 0 {
        let first = src.locate(0).1;
        return Err(src.error(
            first.start..first.end - usize::from(src.text[first.clone()].ends_with('\n')),
            "no `benchmark-complete` message: this is not the output of `cargo criterion --message-format=json`, or no benchmark ran",
            "expected benchmark-complete lines",
        ));
    }
    Ok(out.finish())
}

/// A diagnostic made against one line's text, moved to that line of the file.
fn relocate(mut d: Diagnostic, line_no: usize) -> Diagnostic {
    if let Some(loc) = d.location.as_mut() {
        loc.line = line_no;
    }
    d.message = d.message.replacen(": line 1: ", &format!(": line {line_no}: "), 1);
    d
}

#[cfg(test)]
mod tests {
    use super::super::testing::{read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    const FILE: &str = "cargo-criterion/messages.jsonl";

    #[test]
    fn benchmark_complete_lines_are_detected_and_read() {
        // `.jsonl` names JSON Lines; the content says which JSON lines.
        let t = read_fixture(FILE, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::CargoCriterion, Detected::ByContent));
        assert_eq!(t.jsonl.records.len(), 30);
        let j = &t.jsonl;
        assert_eq!(j.records.iter().map(|r| r.line).collect::<Vec<_>>().iter().filter(|l| **l == 4).count(), 10);
        let text = std::fs::read_to_string(format!("{}/{FILE}", super::super::testing::ROOT)).unwrap();
        let t = read_text("out.txt", &text, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::CargoCriterion, Detected::ByContent));
    }

    /// The per-iteration times recomputed, against the estimates cargo-criterion printed on
    /// the same line: its mean is criterion's mean of measured_values[i] / iteration_count[i].
    #[test]
    fn per_iteration_statistics_equal_cargo_criterion_s_estimates() {
        let t = read_fixture(FILE, Some(Format::CargoCriterion)).unwrap();
        let text = std::fs::read_to_string(format!("{}/{FILE}", super::super::testing::ROOT)).unwrap();
        for line in text.lines() {
            let own: serde_json::Value = serde_json::from_str(line).unwrap();
            if own["reason"] != "benchmark-complete" {
                continue;
            }
            let id = own["id"].as_str().unwrap();
            let s = samples(&t, &format!("id = \"{id}\""), "time_ns");
            let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs();
            let mean = own["mean"]["estimate"].as_f64().unwrap();
            let median = own["median"]["estimate"].as_f64().unwrap();
            assert!(close(s.mean(), mean), "{id}: {} vs {mean}", s.mean());
            assert!(close(s.median(), median), "{id}: {} vs {median}", s.median());
        }
        let j = &t.jsonl;
        let r = &j.records[0];
        assert_eq!(j.text_of(j.get(r, "group")), "sum");
        assert_eq!(j.text_of(j.get(r, "value")), "64");
        assert_eq!(j.get(r, "sample"), Some(Scalar::Int(0)));
    }

    #[test]
    fn malformed_lines_are_located() {
        let good = "{\"reason\":\"benchmark-complete\",\"id\":\"a\",\"unit\":\"ns\",\"iteration_count\":[1,2],\"measured_values\":[5.0,8.0]}";
        let t = read_text("m.txt", &format!("{good}\n{}\n", good.replace("\"a\"", "\"b\"")), Some(Format::CargoCriterion)).unwrap();
        assert_eq!(samples(&t, "id = \"b\"", "time_ns").median(), 4.5);
        let err = read_text("m.txt", &format!("{good}\n{{\"reason\":\n"), Some(Format::CargoCriterion)).unwrap_err();
        assert_eq!(err.position().unwrap(), "m.txt:2:1");
        let bad = good.replace("[5.0,8.0]", "[5.0,\"x\"]");
        let err = read_text("m.txt", &format!("{good}\n{bad}\n"), Some(Format::CargoCriterion)).unwrap_err();
        assert_eq!(err.position().unwrap(), "m.txt:2:100");
        assert!(err.message.contains("line 2: `measured_values` is a string, not a number"), "{}", err.message);
        let err = read_text("m.txt", "{\"reason\":\"group-complete\"}\n", Some(Format::CargoCriterion)).unwrap_err();
        assert!(err.message.contains("no `benchmark-complete` message"), "{}", err.message);
    }

    /// The mode is read off the `slope` estimate, which criterion makes in linear sampling only.
    #[test]
    fn the_sampling_mode_is_linear_where_a_slope_was_estimated() {
        let line = |slope: &str| format!("{{\"reason\":\"benchmark-complete\",\"id\":\"a\",\"unit\":\"ns\",\"iteration_count\":[1,2],\"measured_values\":[5.0,8.0]{slope}}}\n");
        let mode = |slope: &str| {
            let t = read_text("m.txt", &line(slope), Some(Format::CargoCriterion)).unwrap();
            t.jsonl.text_of(t.jsonl.get(&t.jsonl.records[0], "sampling_mode"))
        };
        assert_eq!(mode(",\"slope\":{\"estimate\":4.2}"), "Linear");
        assert_eq!(mode(",\"slope\":null"), "Flat");
        assert_eq!(mode(""), "");
    }
}
