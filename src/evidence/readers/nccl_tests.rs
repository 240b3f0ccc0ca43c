//! `nccl-tests`: the JSON file NVIDIA's nccl-tests (`all_reduce_perf`, `all_gather_perf`, …)
//! write with `-J FILE` (`--output_file`), one record per timed iteration of each size's
//! out-of-place and in-place halves, where the run kept per-iteration times (`-I 1`). This
//! module owns that layout; it never reads nccl-tests' own summaries (the halves' `time`,
//! `alg_bw` and `bus_bw`, nor `min_us`, `avg_us`, `p99_us`, … beside the times), which the
//! checks recompute from the records.
//!
//! The writer is `src/util.cu` of nccl-tests (`jsonOutputInit` … `jsonOutputFinalize`): one
//! object, written on one line without a line end, holding `version` (2 from nccl-tests 2.19.2,
//! which brought `-I`; 3 from 2.19.6, which brought `-K` and `skipped_iterations`), `start_time`,
//! `args`, `env`, `nccl_version`, `config` (the run's settings and `devices`), `results`,
//! `out_of_bounds`, `average_bus_bandwidth`, `errors` and `end_time`. Each entry of `results` is
//! one size: `size`, `count`, `type`, `redop`, `root`, then per half a summary (`out_of_place`,
//! `in_place`: `time` or `cpu_time`, `alg_bw`, `bus_bw`, `nwrong`; `out_of_place` is null where
//! a test times in-place only) and, with `-I 1`, a per-iteration report
//! (`out_of_place_per_iter`, `in_place_per_iter`: `skipped_iterations`, the summary statistics
//! in µs, and `times_us`, every iteration's time), then `actual_iterations` and
//! `experiment_name`.
//!
//! Fields of each record:
//!
//! | field | meaning |
//! |---|---|
//! | `name` | the result's `experiment_name`, where it is written and not empty (`all_reduce_perf` writes `""`) |
//! | `size_bytes` | the size of the collective in bytes (`size`) |
//! | `count` | the number of elements (`count`) |
//! | `type` | the element type (`float`, `half`, …) |
//! | `redop` | the reduction (`sum`, …; `none` for a collective that does not reduce) |
//! | `root` | the root rank as a string, as written but without the padding of its console column (`"    -1"`, no root, is `"-1"`) |
//! | `place` | `"out-of-place"` or `"in-place"`: which half of the result |
//! | `iteration` | the iteration's index in `times_us`, from 0 |
//! | `skipped` | whether the iteration is one of the first `skipped_iterations` (`-K`), which nccl-tests' own summary leaves out |
//! | `time_us` | the iteration's time in µs (`times_us[iteration]`) |
//!
//! A record's line is the line of its value in `times_us` (line 1 of a file as nccl-tests
//! writes it, all on one line).
//!
//! `time_us` is the time of one collective: nccl-tests records a CUDA event around each of the
//! `-n` iterations on every GPU of the process, divides it by the `-m` operations aggregated in
//! the iteration, takes the slowest GPU, and over MPI the slowest process (it prints this as the
//! `i_*` columns). It is the event time whatever `-C 1` makes the summary's `cpu_time`. nccl-tests'
//! own statistics (`computeIterStats`) are over the iterations from `skipped_iterations` on:
//! the minimum, maximum and mean, the standard deviation over n (a check's `stdev` divides by
//! n − 1), and `p50_us`, `p95_us`, `p99_us` by nearest rank (`p50_us` is `sorted[n / 2]`, the
//! upper middle value for an even n, where a check's `median` interpolates). Select
//! `skipped = false` to take the iterations nccl-tests' summary took.
//!
//! `per_process_max_times_us`, written with more than one MPI process (each process's slowest
//! GPU per iteration, one array a process), is not read: `times_us` is already the slowest of
//! them, iteration by iteration, and is what nccl-tests' summary is computed from.
//!
//! A file without per-iteration times (a run without `-I 1`, or from before nccl-tests 2.19.2)
//! holds only summaries and is refused, saying to rerun with `-I 1`.

use super::tree::{Node, Number};
use super::{Source, head};
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{FieldValue, Jsonl, JsonlBuilder};

/// Whether a document is nccl-tests': a `config` object beside a `results` array whose every
/// entry holds `size` and a half's summary (`out_of_place` or `in_place`), the array not empty
/// unless `nccl_version` is written too (a run stopped before its first size). No other harness
/// writes `config` with such results; hyperfine's `results` hold a `command` instead.
pub(super) fn looks_like(doc: &Node) -> bool {
    let Some(results) = doc.get("results").and_then(Node::as_array) else { return false };
    doc.get("config").and_then(Node::as_object).is_some()
        && (!results.is_empty() || doc.get("nccl_version").is_some())
        && results.iter().all(|r| r.get("size").is_some() && (r.get("out_of_place").is_some() || r.get("in_place").is_some()))
}

pub(super) fn read(src: &Source, doc: &Node) -> Result<Jsonl, Diagnostic> {
    let results_node = src.member(doc, "results", "nccl-tests file")?;
    let results = results_node.as_array().ok_or_else(|| src.wrong(results_node, "results", "an array"))?;
    if results.is_empty() {
        return Err(src
            .error(head(results_node), "this nccl-tests file holds no results: the run stopped before its first size", "no results")
            .with_note("nccl-tests' console output, or its `errors` in this file, says why"));
    }
    let mut out = JsonlBuilder::new(src.path, src.text.to_string());
    for result in results {
        let size = whole(src, src.member(result, "size", "nccl-tests result")?, "size")?;
        let count = whole(src, src.member(result, "count", "nccl-tests result")?, "count")?;
        let type_name = src.string(result, "type", "nccl-tests result")?;
        let redop = src.string(result, "redop", "nccl-tests result")?;
        // nccl-tests pads the root to its console column's width (`%6i`) in the file too.
        let root = src.string(result, "root", "nccl-tests result")?.trim();
        let name = match result.get("experiment_name") {
            None => None,
            Some(node) if node.is_null() => None,
            Some(node) => Some(node.as_str().ok_or_else(|| src.wrong(node, "experiment_name", "a string"))?).filter(|n| !n.is_empty()),
        };
        for (place, summary_key, per_iter_key) in [("out-of-place", "out_of_place", "out_of_place_per_iter"), ("in-place", "in_place", "in_place_per_iter")] {
            let per_iter = result.get(per_iter_key).filter(|n| !n.is_null());
            let Some(per_iter) = per_iter else {
                // A half that was timed has its summary; without its per-iteration report it
                // holds only that summary. A half not run (`out_of_place: null`) holds nothing.
                match result.get(summary_key) {
                    Some(summary) if !summary.is_null() => {
                        return Err(src.summary_only(
                            head(summary),
                            &format!("this nccl-tests result (`{summary_key}` without `{per_iter_key}`)"),
                            "rerun with `-I 1` (per-iteration timing, nccl-tests 2.19.2 or later) beside `-J FILE`, which writes every iteration's time in `times_us`",
                        ));
                    }
                    _ => continue,
                }
            };
            let times_node = src.member(per_iter, "times_us", "per-iteration report")?;
            let times = times_node.as_array().ok_or_else(|| src.wrong(times_node, "times_us", "an array"))?;
            let values = times.iter().map(|t| time(src, t)).collect::<Result<Vec<f64>, Diagnostic>>()?;
            // Written from nccl-tests 2.19.6 (`-K`); before it the summary took every iteration.
            let skipped = match per_iter.get("skipped_iterations") {
                None => 0,
                Some(node) => whole(src, node, "skipped_iterations")?,
            };
            if times.is_empty() || skipped >= times.len() as i64 {
                return Err(src.error(
                    head(times_node),
                    format!("`times_us` holds {} times, and nccl-tests skips the first {skipped} of them, so no iteration is left for its summary", times.len()),
                    "too few times",
                ));
            }
            for (iteration, (node, value)) in times.iter().zip(&values).enumerate() {
                let (line, span) = src.at(node);
                let mut fields = Vec::with_capacity(10);
                if let Some(name) = name {
                    fields.push(("name", FieldValue::Str(name)));
                }
                fields.extend([
                    ("size_bytes", FieldValue::Int(size)),
                    ("count", FieldValue::Int(count)),
                    ("type", FieldValue::Str(type_name)),
                    ("redop", FieldValue::Str(redop)),
                    ("root", FieldValue::Str(root)),
                    ("place", FieldValue::Str(place)),
                    ("iteration", FieldValue::Int(iteration as i64)),
                    ("skipped", FieldValue::Bool((iteration as i64) < skipped)),
                    ("time_us", FieldValue::Float(*value)),
                ]);
                out.push(line, span, fields);
            }
        }
    }
    Ok(out.finish())
}

/// `node` as a whole number of zero or more, as nccl-tests writes sizes, counts and skips.
fn whole(src: &Source, node: &Node, name: &str) -> Result<i64, Diagnostic> {
    match node.number(src.text) {
        Some(Number::Int(i)) if i >= 0 => Ok(i),
        Some(_) => Err(src.error(node.span.clone(), format!("`{name}` is `{}`, not a whole number of zero or more", &src.text[node.span.clone()]), "expected a whole number")),
        None => Err(src.wrong(node, name, "a whole number")),
    }
}

/// One iteration's time: a finite number. nccl-tests writes a NaN as the string `"nan"`, which
/// no statistic can take, so it is refused with what it means.
fn time(src: &Source, node: &Node) -> Result<f64, Diagnostic> {
    if node.as_str() == Some("nan") {
        return Err(src.error(node.span.clone(), "`times_us` holds `\"nan\"`, nccl-tests' way of writing a time it could not measure", "not a number"));
    }
    src.finite(node, "times_us")
}

#[cfg(test)]
mod tests {
    use super::super::testing::{json_fixture, read_fixture, read_text, samples};
    use super::super::{Detected, Format};
    use crate::evidence::jsonl::Scalar;

    const FIXTURE: &str = "nccl-tests/all_reduce_made_up.json";

    #[test]
    fn an_nccl_tests_file_is_detected_by_its_content() {
        let t = read_fixture(FIXTURE, None).unwrap();
        assert_eq!((t.format, t.detected), (Format::NcclTests, Detected::ByContent));
        assert_eq!(t.read_as(), "read as nccl-tests JSON (detected)");
        let named = read_fixture(FIXTURE, Some(Format::NcclTests)).unwrap();
        assert_eq!(named.jsonl.records.len(), t.jsonl.records.len());
    }

    /// Two sizes, two halves each, 20 iterations a half.
    #[test]
    fn every_iteration_of_every_half_is_a_record_with_its_fields() {
        let t = read_fixture(FIXTURE, None).unwrap();
        let j = &t.jsonl;
        assert_eq!(j.records.len(), 2 * 2 * 20);
        let first = &j.records[0];
        assert_eq!(j.get(first, "name"), None, "an empty experiment_name gives no name");
        assert_eq!(j.get(first, "size_bytes"), Some(Scalar::Int(1048576)));
        assert_eq!(j.get(first, "count"), Some(Scalar::Int(262144)));
        for (field, value) in [("type", "float"), ("redop", "sum"), ("root", "-1"), ("place", "out-of-place")] {
            assert_eq!(j.get(first, field).and_then(|v| j.str(v)), Some(value), "{field}");
        }
        assert_eq!(j.get(first, "iteration"), Some(Scalar::Int(0)));
        assert_eq!(j.get(first, "skipped"), Some(Scalar::Bool(true)));
        assert_eq!(j.get(&j.records[2], "skipped"), Some(Scalar::Bool(false)));
        let own = &json_fixture(FIXTURE)["results"][0]["out_of_place_per_iter"]["times_us"];
        assert_eq!(j.get(first, "time_us"), Some(Scalar::Float(own[0].as_f64().unwrap())));
        let in_place = &j.records[20];
        assert_eq!(j.get(in_place, "place").and_then(|v| j.str(v)), Some("in-place"));
        assert_eq!(j.get(in_place, "iteration"), Some(Scalar::Int(0)));
        let last = &j.records[79];
        assert_eq!((j.get(last, "size_bytes"), j.get(last, "iteration")), (Some(Scalar::Int(16777216)), Some(Scalar::Int(19))));
        // nccl-tests writes the whole file on one line.
        assert!(j.records.iter().all(|r| r.line == 1));
    }

    /// nccl-tests' own `min_us`, `max_us` and `avg_us` of each half, recomputed from the records
    /// it did not skip: the minimum and maximum exactly (the same doubles, printed alike), the
    /// mean to the six decimals nccl-tests prints (it averages the unrounded times). Its
    /// `p50_us` is the sorted times' element n / 2, and its `stdev_us` divides by n.
    #[test]
    fn statistics_of_the_records_not_skipped_equal_nccl_tests_own() {
        let t = read_fixture(FIXTURE, None).unwrap();
        let own = json_fixture(FIXTURE);
        for (i, size) in [1048576, 16777216].into_iter().enumerate() {
            for (place, key) in [("out-of-place", "out_of_place_per_iter"), ("in-place", "in_place_per_iter")] {
                let report = &own["results"][i][key];
                let select = format!("size_bytes = {size}\nplace = \"{place}\"\nskipped = false");
                let s = samples(&t, &select, "time_us");
                assert_eq!(s.len(), 20 - report["skipped_iterations"].as_u64().unwrap() as usize);
                assert_eq!(s.min(), report["min_us"].as_f64().unwrap(), "{select}");
                assert_eq!(s.max(), report["max_us"].as_f64().unwrap(), "{select}");
                assert!((s.mean() - report["avg_us"].as_f64().unwrap()).abs() <= 1e-6, "{} vs {}", s.mean(), report["avg_us"]);
                assert_eq!(s.sorted()[s.len() / 2], report["p50_us"].as_f64().unwrap(), "{select}");
                let n = s.len() as f64;
                let population = s.stdev() * ((n - 1.0) / n).sqrt();
                assert!((population - report["stdev_us"].as_f64().unwrap()).abs() <= 1e-6, "{population} vs {}", report["stdev_us"]);
                // All 20 iterations, the skipped ones too, are records.
                let all = samples(&t, &format!("size_bytes = {size}\nplace = \"{place}\""), "time_us");
                assert_eq!(all.len(), 20);
            }
        }
    }

    /// A file laid out over several lines (pretty-printed) gives each record its value's line.
    #[test]
    fn records_sit_at_their_times_us_lines() {
        let text = "{\"config\": {},\n \"results\": [{\"size\": 8, \"count\": 2, \"type\": \"float\", \"redop\": \"sum\", \"root\": \"    -1\",\n  \"in_place\": {\"time\": 1.0},\n  \"in_place_per_iter\": {\"times_us\": [\n   1.5,\n   2.5]}}]}\n";
        let t = read_text("n.json", text, None).unwrap();
        assert_eq!(t.format, Format::NcclTests);
        let lines: Vec<usize> = t.jsonl.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [5, 6]);
        // Without `skipped_iterations` (the JSON of nccl-tests 2.19.2 to 2.19.5) none is skipped.
        assert!(t.jsonl.records.iter().all(|r| t.jsonl.get(r, "skipped") == Some(Scalar::Bool(false))));
    }

    #[test]
    fn a_file_without_per_iteration_times_is_refused_as_summary_only() {
        let text = "{\"version\":3,\"nccl_version\":22805,\"config\":{\"per_iter_timing\":\"false\"},\"results\":[{\"size\":1048576,\"count\":262144,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    -1\",\"out_of_place\":{\"time\":30.1,\"alg_bw\":34.8,\"bus_bw\":60.9,\"nwrong\":0.000000},\"in_place\":{\"time\":29.9,\"alg_bw\":35.0,\"bus_bw\":61.3,\"nwrong\":0.000000},\"actual_iterations\":20,\"experiment_name\":\"\"}]}";
        let err = read_text("n.json", text, None).unwrap_err();
        let at = text.find("\"out_of_place\":{").unwrap() + "\"out_of_place\":".len() + 1;
        assert_eq!(err.position().unwrap(), format!("n.json:1:{at}"));
        assert!(err.message.contains("holds only summaries"), "{}", err.message);
        assert!(err.message.contains("`-I 1`") && err.message.contains("`-J FILE`"), "{}", err.message);
        // A half that was not run (`out_of_place: null`) is no summary.
        let text = "{\"config\":{},\"results\":[{\"size\":8,\"count\":2,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"0\",\"out_of_place\":null,\"in_place\":{\"time\":1.0},\"in_place_per_iter\":{\"times_us\":[1.0]}}]}";
        assert_eq!(read_text("n.json", text, None).unwrap().jsonl.records.len(), 1);
    }

    #[test]
    fn malformed_input_gives_located_errors() {
        let head = "{\"config\":{},\n\"results\":[{\"size\":8,\"count\":2,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"0\",\"in_place\":{},\n\"in_place_per_iter\":{\"skipped_iterations\":1,\"times_us\":";
        let cases = [
            (format!("{head}[1.0, 2.0]"), "n.json:3:21", "never closed"),
            (format!("{head}\"1.0\"}}}}]}}"), "n.json:3:56", "`times_us` is a string, not an array"),
            (format!("{head}[1.0,\n\"fast\"]}}}}]}}"), "n.json:4:1", "`times_us` is a string, not a number"),
            (format!("{head}[1.0,\n\"nan\"]}}}}]}}"), "n.json:4:1", "`\"nan\"`"),
            (format!("{head}[1.0]}}}}]}}"), "n.json:3:56", "skips the first 1 of them"),
            (format!("{head}[1.0,2.0]}}}}]}}").replace("\"size\":8", "\"size\":-8"), "n.json:2:20", "`size` is `-8`"),
        ];
        for (text, position, message) in cases {
            let err = read_text("n.json", &text, Some(Format::NcclTests)).unwrap_err();
            assert_eq!(err.position().unwrap(), position, "{text}");
            assert!(err.message.contains(message), "{}", err.message);
        }
        let err = read_text("n.json", "{\"config\":{},\"nccl_version\":22805,\"results\":[]}", None).unwrap_err();
        assert!(err.message.contains("holds no results"), "{}", err.message);
    }

    /// Another harness's `results` (hyperfine's) is not taken for nccl-tests', nor is an object
    /// with `results` and no `config`.
    #[test]
    fn other_files_with_results_are_not_taken() {
        let t = read_fixture("hyperfine/accepted.json", None).unwrap();
        assert_eq!(t.format, Format::Hyperfine);
        let err = read_text("n.json", "{\n\"results\": [{\"size\": 8, \"in_place\": {}}]\n}\n", None).unwrap_err();
        assert!(err.message.contains("cannot tell which format"), "{}", err.message);
    }
}
