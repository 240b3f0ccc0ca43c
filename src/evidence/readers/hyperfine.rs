//! `hyperfine`: the file `hyperfine --export-json FILE` writes, one record per timed run of
//! each command. This module owns that layout; it never reads hyperfine's own summaries
//! (`mean`, `median`, …), which the checks recompute from the runs.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `command` | the command as hyperfine ran it (`results[].command`) |
//! | `parameter_<name>` | the value of each `--parameter-scan`/`--parameter-list` parameter, as written (a string) |
//! | `run` | the run's index in `times`, from 0 |
//! | `time_s` | the run's wall-clock time in seconds (`times[run]`) |
//! | `exit_code` | the run's exit status (`exit_codes[run]`; null when killed by a signal) |
//! | `memory_usage_byte` | the run's peak memory, where the hyperfine version writes it |
//!
//! A record's line is the line of its value in `times`.

use super::{Source, head, scalar, tree::Node};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether a document is hyperfine's: a `results` array of objects with a `command`.
pub(super) fn looks_like(doc: &Node) -> bool {
    doc.get("results").and_then(Node::as_array).is_some_and(|r| r.iter().all(|e| e.get("command").is_some()))
}

pub(super) fn read(src: &Source, doc: &Node) -> Result<Jsonl, Diagnostic> {
    let results = src.array(doc, "results", "hyperfine export")?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for result in results {
        let command = src.string(result, "command", "hyperfine result")?;
        let Some(times) = result.get("times") else {
            return Err(src.summary_only(
                head(result),
                "this hyperfine result (no `times`)",
                "export with `hyperfine --export-json FILE` from hyperfine 1.6 or later, which writes every run's time in `times`",
            ));
        };
        let times = times.as_array().ok_or_else(|| src.wrong(times, "times", "an array"))?;
        let values = src.numbers(times, "times")?;
        let per_run = |key: &str| -> Result<Option<&[Node]>, Diagnostic> {
            let Some(node) = result.get(key) else { return Ok(None) };
            let items = node.as_array().ok_or_else(|| src.wrong(node, key, "an array"))?;
            if items.len() != times.len() {
                return Err(src.error(head(node), format!("`{key}` has {} values but `times` has {}", items.len(), times.len()), "one per run expected"));
            }
            Ok(Some(items))
        };
        let exit_codes = per_run("exit_codes")?;
        let memory = per_run("memory_usage_byte")?;
        let parameters: Vec<(String, FieldValue<'_>)> = match result.get("parameters") {
            None | Some(Node { kind: super::tree::Kind::Null, .. }) => Vec::new(),
            Some(p) => p.as_object().ok_or_else(|| src.wrong(p, "parameters", "an object"))?.iter().map(|m| (format!("parameter_{}", m.key), scalar(&m.value, src.text))).collect(),
        };
        for (run, (node, value)) in times.iter().zip(&values).enumerate() {
            let (line, span) = src.at(node);
            let mut fields = vec![("command", FieldValue::Str(command))];
            fields.extend(parameters.iter().map(|(k, v)| (k.as_str(), *v)));
            fields.push(("run", FieldValue::Int(run as i64)));
            fields.push(("time_s", FieldValue::Float(*value)));
            if let Some(codes) = exit_codes {
                fields.push(("exit_code", scalar(&codes[run], src.text)));
            }
            if let Some(memory) = memory {
                fields.push(("memory_usage_byte", scalar(&memory[run], src.text)));
            }
            out.push(line, span, fields);
        }
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{json_fixture, read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    #[test]
    fn a_hyperfine_export_is_detected() {
        let t = read_fixture("hyperfine/accepted.json", None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Hyperfine, Detected::ByContent));
        assert_eq!(t.read_as(), "read as hyperfine JSON (detected)");
        assert_eq!(t.jsonl.records.len(), 20);
    }

    /// hyperfine's own statistics, recomputed from `times`: the median to the last bit (numpy's
    /// and hyperfine's midpoint agree here), min and max exactly, the mean and standard
    /// deviation to rounding (hyperfine sums in run order, the stats module in sorted order).
    #[test]
    fn statistics_equal_hyperfine_s_own() {
        for file in ["hyperfine/accepted.json", "hyperfine/fresh.json"] {
            let t = read_fixture(file, None).unwrap();
            let own = &json_fixture(file)["results"][0];
            let s = samples(&t, "command = \"sleep 0.01\"", "time_s");
            assert_eq!(s.len(), 20);
            assert_eq!(s.median(), own["median"].as_f64().unwrap(), "{file}");
            assert_eq!(s.min(), own["min"].as_f64().unwrap());
            assert_eq!(s.max(), own["max"].as_f64().unwrap());
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-15 * b.abs().max(1.0);
            assert!(close(s.mean(), own["mean"].as_f64().unwrap()), "{} vs {}", s.mean(), own["mean"]);
            assert!(close(s.stdev(), own["stddev"].as_f64().unwrap()), "{} vs {}", s.stdev(), own["stddev"]);
        }
    }

    #[test]
    fn records_sit_at_their_time_s_lines_with_exit_codes() {
        let t = read_fixture("hyperfine/accepted.json", None).unwrap();
        let j = &t.jsonl;
        let first = &j.records[0];
        assert_eq!(first.line, 13);
        assert!(j.line_text(first).trim().starts_with("0.0"), "{}", j.line_text(first));
        assert_eq!(j.get(first, "exit_code"), Some(Scalar::Int(0)));
        assert_eq!(j.get(&j.records[19], "run"), Some(Scalar::Int(19)));
    }

    #[test]
    fn parameters_become_fields() {
        let t = read_fixture("hyperfine/parameters.json", None).unwrap();
        let own = &json_fixture("hyperfine/parameters.json")["results"];
        for (i, delay) in ["0.005", "0.01"].iter().enumerate() {
            let s = samples(&t, &format!("parameter_delay = \"{delay}\""), "time_s");
            assert_eq!(s.len(), 10);
            assert_eq!(s.median(), own[i]["median"].as_f64().unwrap());
        }
    }

    #[test]
    fn a_result_without_times_is_refused_as_summary_only() {
        let text = "{\n  \"results\": [\n    {\"command\": \"x\", \"mean\": 0.1}\n  ]\n}\n";
        let err = read_text("h.json", text, None).unwrap_err();
        assert_eq!(err.position().unwrap(), "h.json:3:5");
        assert!(err.message.contains("holds only summaries"), "{}", err.message);
    }

    #[test]
    fn malformed_times_are_located() {
        let text = "{\"results\": [{\"command\": \"x\",\n \"times\": [0.1,\n \"slow\"]}]}";
        let err = read_text("h.json", text, Some(Format::Hyperfine)).unwrap_err();
        assert_eq!(err.position().unwrap(), "h.json:3:2");
        assert!(err.message.contains("`times` is a string, not a number"), "{}", err.message);
        let text = "{\"results\": [{\"command\": \"x\", \"times\": [0.1], \"exit_codes\": [0, 0]}]}";
        let err = read_text("h.json", text, None).unwrap_err();
        assert!(err.message.contains("`exit_codes` has 2 values but `times` has 1"), "{}", err.message);
        let err = read_text("h.json", "{\"results\": [{\"command\": \"x\", \"times\": [0.1]}", Some(Format::Hyperfine)).unwrap_err();
        assert_eq!(err.position().unwrap(), "h.json:1:13");
        assert!(err.message.contains("never closed"), "{}", err.message);
    }
}
