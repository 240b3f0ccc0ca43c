//! `nvbench`: the JSON an nvbench benchmark writes with `--jsonbin FILE`, and the sample files
//! it writes beside it, one record per cold sample of each state. This module owns that
//! layout and the float32 sample files; it never reads the summaries nvbench computed
//! (`nv/cold/time/gpu/mean`, …), and refuses a `--json` file, which holds nothing else.
//!
//! With `--jsonbin`, each state that ran gets a summary tagged
//! `nv/json/bin:nv/cold/sample_times` whose `data` names a `filename` (relative to the JSON
//! file's directory: `FILE-bin/N.bin`) and a `size`; that file holds `size` little-endian
//! float32 values, each one cold measurement's GPU time in seconds (nvbench's
//! `json_printer.cu`, `write_out_values_as_float32`). nvbench casts its float64 samples to
//! float32 when it writes them, so a statistic recomputed here can differ from nvbench's own
//! summary in the seventh significant digit.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `benchmark` | the benchmark's name |
//! | `state` | the state's name (`Device=0 BlockSize=2^8`) |
//! | `device` | the device id the state ran on |
//! | `<axis>` | each axis value of the state, by the axis's name: int64 and float64 axes as numbers, string and type axes as text (`axis_<name>` where the name is one of this table's) |
//! | `sample` | the sample's index in its file, from 0 |
//! | `gpu_time_s` | the sample's GPU time, seconds |
//!
//! A record's line is the line of its file's `filename` in the JSON. Skipped states
//! (`"is_skipped": true`) have no samples and give no records. Sample files are read through
//! the caller's sidecar function, which keeps them inside the repository.

use super::{Sidecar, Source, beside, head, tree::Node};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

const SAMPLE_TIMES: &str = "nv/json/bin:nv/cold/sample_times";
const FIXED: [&str; 5] = ["benchmark", "state", "device", "sample", "gpu_time_s"];

/// Whether a document is nvbench's: `benchmarks` whose entries hold `states`.
pub(super) fn looks_like(doc: &Node) -> bool {
    doc.get("benchmarks").and_then(Node::as_array).is_some_and(|b| !b.is_empty() && b.iter().all(|e| e.get("states").is_some()))
}

pub(super) fn read(src: &Source, doc: &Node, sidecar: Sidecar<'_>) -> Result<Jsonl, Diagnostic> {
    let benchmarks = src.array(doc, "benchmarks", "nvbench file")?;
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    let mut without: Vec<&Node> = Vec::new();
    let mut with = 0;
    for bench in benchmarks {
        let bench_name = src.string(bench, "name", "benchmark")?;
        let states = match bench.get("states") {
            Some(Node { kind: super::tree::Kind::Null, .. }) => &[][..],
            _ => src.array(bench, "states", "benchmark")?,
        };
        for state in states {
            let state_name = src.string(state, "name", "state")?;
            if state.get("is_skipped").is_some_and(|s| s.kind == super::tree::Kind::Bool(true)) {
                continue;
            }
            let summaries = src.array(state, "summaries", "state")?;
            let Some(file) = summaries.iter().find(|s| s.get("tag").and_then(Node::as_str) == Some(SAMPLE_TIMES)) else {
                without.push(state);
                continue;
            };
            with += 1;
            let data = src.array(file, "data", "sample file summary")?;
            let named = |name: &str| data.iter().find(|d| d.get("name").and_then(Node::as_str) == Some(name)).and_then(|d| d.get("value"));
            let filename_node =
                named("filename").ok_or_else(|| src.error(head(file), "this sample file summary names no `filename` (nvbench could not write the file?)", "no filename"))?;
            let filename = filename_node.as_str().ok_or_else(|| src.wrong(filename_node, "filename", "a string"))?;
            let size_node = named("size").ok_or_else(|| src.error(head(file), "this sample file summary has no `size`", "no size"))?;
            let size: usize =
                size_node.as_str().and_then(|s| s.parse().ok()).ok_or_else(|| src.error(size_node.span.clone(), "`size` is not a count written as a string", "expected \"N\""))?;
            let path = beside(src.path, filename);
            let bytes = sidecar(&path).map_err(|e| src.error(filename_node.span.clone(), format!("cannot read the sample file `{path}`: {e}"), "named here"))?;
            if size.checked_mul(4) != Some(bytes.len()) {
                return Err(src.error(
                    filename_node.span.clone(),
                    format!("`{path}` has {} bytes, but `size` says {size} float32 samples of 4 bytes each", bytes.len()),
                    "wrong size",
                ));
            }
            let axes = axis_fields(src, state)?;
            let device = state.get("device").and_then(|d| d.number(src.text));
            let (line, span) = src.at(filename_node);
            for (i, chunk) in bytes.chunks_exact(4).enumerate() {
                let time = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]) as f64;
                let mut fields = vec![("benchmark", FieldValue::Str(bench_name)), ("state", FieldValue::Str(state_name))];
                if let Some(super::tree::Number::Int(d)) = device {
                    fields.push(("device", FieldValue::Int(d)));
                }
                fields.extend(axes.iter().map(|(k, v)| (k.as_str(), *v)));
                fields.push(("sample", FieldValue::Int(i as i64)));
                fields.push(("gpu_time_s", FieldValue::Float(time)));
                out.push(line, span.clone(), fields);
            }
        }
    }
    if let Some(first) = without.first() {
        if with == 0 {
            return Err(src.summary_only(
                head(first),
                "this nvbench `--json` output (no `--jsonbin` sample files)",
                "rerun the benchmark with `--jsonbin FILE` in place of `--json FILE`, which writes every sample's GPU time to `FILE-bin/N.bin` and names it in the JSON",
            ));
        }
        return Err(src.error(head(first), format!("this state has no sample file (`{SAMPLE_TIMES}`), while {with} other states have one"), "no samples"));
    }
    Ok(out.finish())
}

/// A state's axis values as fields: typed by the axis's type, named by the axis.
fn axis_fields<'n>(src: &Source, state: &'n Node) -> Result<Vec<(String, FieldValue<'n>)>, Diagnostic> {
    let values = match state.get("axis_values") {
        None | Some(Node { kind: super::tree::Kind::Null, .. }) => return Ok(Vec::new()),
        Some(v) => v.as_array().ok_or_else(|| src.wrong(v, "axis_values", "an array"))?,
    };
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        let name = src.string(v, "name", "axis value")?;
        let kind = src.string(v, "type", "axis value")?;
        let value_node = src.member(v, "value", "axis value")?;
        let text = value_node.as_str().ok_or_else(|| src.wrong(value_node, "value", "a string"))?;
        let bad = |what: &str| src.error(value_node.span.clone(), format!("axis `{name}` is {kind}, but its value is not {what}"), format!("expected {what}"));
        let value = match kind {
            "int64" => FieldValue::Int(text.parse().map_err(|_| bad("an integer"))?),
            "float64" => FieldValue::Float(text.parse::<f64>().ok().filter(|f| f.is_finite()).ok_or_else(|| bad("a number"))?),
            _ => FieldValue::Str(text),
        };
        let field = if FIXED.contains(&name) { format!("axis_{name}") } else { name.to_string() };
        out.push((field, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{fixture_sidecar, json_fixture, read_fixture, samples};
    use super::super::{Detected, Format, read};
    use crate::evidence::jsonl::Scalar;

    const FILE: &str = "nvbench/jsonbin/axes.json";

    #[test]
    fn samples_are_read_from_the_sidecar_files() {
        let t = read_fixture(FILE, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::Nvbench, Detected::ByContent));
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 11 + 9);
        let r = &j.records[0];
        assert_eq!(r.line, 115);
        assert!(j.line_text(r).contains("axes.json-bin/0.bin"), "{}", j.line_text(r));
        assert_eq!(j.get(r, "BlockSize"), Some(Scalar::Int(128)));
        assert_eq!(j.get(r, "device"), Some(Scalar::Int(0)));
        assert_eq!(j.text_of(j.get(r, "benchmark")), "copy_sweep_block_size");
        assert_eq!(j.text_of(j.get(r, "state")), "Device=0 BlockSize=2^7");
    }

    /// The samples are the float32 values of the sidecar, and their mean is the mean nvbench
    /// computed from the float64 samples before the cast, to float32 precision.
    #[test]
    fn statistics_match_the_summary_to_float32_precision() {
        let t = read_fixture(FILE, None).unwrap();
        let own = json_fixture(FILE);
        for (i, block) in [128, 256].iter().enumerate() {
            let state = &own["benchmarks"][0]["states"][i];
            let summary = |tag: &str| -> String {
                let s = state["summaries"].as_array().unwrap().iter().find(|s| s["tag"] == tag).unwrap();
                s["data"][0]["value"].as_str().unwrap().to_string()
            };
            let s = samples(&t, &format!("BlockSize = {block}"), "gpu_time_s");
            assert_eq!(s.len().to_string(), summary("nv/cold/sample_size"));
            let mean: f64 = summary("nv/cold/time/gpu/mean").parse().unwrap();
            assert!((s.mean() - mean).abs() <= 1e-7 * mean, "{} vs {mean}", s.mean());
        }
        let bytes = std::fs::read(format!("{}/nvbench/jsonbin/axes.json-bin/1.bin", super::super::testing::ROOT)).unwrap();
        let first = f32::from_le_bytes(bytes[..4].try_into().unwrap()) as f64;
        let j = &t.jsonl;
        let r = j.records.iter().find(|r| j.get(r, "BlockSize") == Some(Scalar::Int(256))).unwrap();
        assert_eq!(j.get(r, "gpu_time_s"), Some(Scalar::Float(first)));
    }

    #[test]
    fn json_without_jsonbin_is_refused_as_summary_only() {
        let err = read_fixture("nvbench/summary-only/test_ref.json", None).unwrap_err();
        assert_eq!(err.position().unwrap(), "nvbench/summary-only/test_ref.json:86:9");
        assert!(err.message.contains("nvbench `--json` output (no `--jsonbin` sample files) holds only summaries, not samples"), "{}", err.message);
        assert!(err.message.contains("`--jsonbin FILE` in place of `--json FILE`"), "{}", err.message);
    }

    #[test]
    fn a_missing_or_short_sample_file_is_located_at_its_name() {
        let text = std::fs::read_to_string(format!("{}/{FILE}", super::super::testing::ROOT)).unwrap();
        let missing = |rel: &str| -> Result<Vec<u8>, String> { if rel.ends_with("1.bin") { Err("no such file".into()) } else { fixture_sidecar(rel) } };
        let err = read(FILE, text.as_bytes(), None, None, &missing).unwrap_err();
        assert_eq!(err.position().unwrap(), "nvbench/jsonbin/axes.json:181:28");
        assert!(err.message.contains("cannot read the sample file `nvbench/jsonbin/axes.json-bin/1.bin`: no such file"), "{}", err.message);
        let short = |rel: &str| -> Result<Vec<u8>, String> {
            fixture_sidecar(rel).map(|mut b| {
                b.pop();
                b
            })
        };
        let err = read(FILE, text.as_bytes(), None, None, &short).unwrap_err();
        assert!(err.message.contains("has 43 bytes, but `size` says 11 float32 samples of 4 bytes each"), "{}", err.message);
    }

    #[test]
    fn a_bad_axis_value_is_located() {
        let text = r#"{"benchmarks": [{"name": "b", "states": [{"name": "s", "axis_values": [{"name": "N", "type": "int64", "value": "x"}],
 "summaries": [{"tag": "nv/json/bin:nv/cold/sample_times", "data": [{"name": "filename", "type": "string", "value": "s.bin"}, {"name": "size", "type": "int64", "value": "1"}]}]}]}]}"#;
        let one = |_: &str| -> Result<Vec<u8>, String> { Ok(1.5f32.to_le_bytes().to_vec()) };
        let err = read("n.json", text.as_bytes(), None, None, &one).unwrap_err();
        assert_eq!(err.position().unwrap(), "n.json:1:112");
        assert!(err.message.contains("axis `N` is int64, but its value is not an integer"), "{}", err.message);
        let t = read("n.json", text.replace("\"x\"", "\"7\"").as_bytes(), None, None, &one).unwrap();
        assert_eq!(t.jsonl.get(&t.jsonl.records[0], "gpu_time_s"), Some(Scalar::Float(1.5)));
    }
}
