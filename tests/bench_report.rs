//! `bench-report --with-same-code` over a folder of real runs: it pools every run of the same
//! code and protocol, and names every other run of the folder with why it was left out.

use crate::support;

use std::path::Path;

#[test]
fn with_same_code_pools_every_run_of_the_same_code_and_names_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("evidence/runs");
    // Two runs of the current rule's code, one of the rule before version 10, one the suite
    // rejected, one run of other suites (not a benchmark run: neither pooled nor listed), and a
    // benchmark run whose PTX is missing.
    for (from, to) in [
        ("20261203T215011Z-softmax-bench", "b-same"),
        ("20261204T183647Z-softmax-bench", "a-base"),
        ("20261203T195949Z-softmax-bench", "c-old-rule"),
        ("20261203T164505Z-softmax-bench", "d-rejected"),
        ("20261202T102605Z-all", "e-other-suites"),
        ("20261203T215112Z-softmax-bench", "f-no-ptx"),
    ] {
        support::copy_dir(&Path::new("evidence/runs").join(from), &runs.join(to));
    }
    std::fs::remove_file(runs.join("f-no-ptx/ptx/softmax.ptx")).unwrap();
    // A folder that is not a run at all is passed over without a word; a link that may stand
    // for one (here to a run of the same code, which would be pooled twice) is named.
    std::fs::create_dir_all(runs.join("g-not-a-run")).unwrap();
    std::os::unix::fs::symlink("b-same", runs.join("h-link-to-b")).unwrap();
    // A run whose folder name is not UTF-8 cannot be named to be read, and the report says so.
    support::copy_dir(&runs.join("b-same"), &runs.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"i-\xff")));
    let root = dir.path().to_str().unwrap();

    let (code, out, err) = support::claimcheck(["bench-report", "evidence/runs/a-base", "--with-same-code", "--root", root]);
    assert_eq!(code, 1, "the copy targets are missed in these runs\n{out}{err}");
    assert!(out.starts_with("2 runs pooled as replicates (each value the median of the runs' medians): evidence/runs/a-base, evidence/runs/b-same\n"), "{out}");
    let left = out.split_once("5 other runs of the folder left out of the pool:\n").map(|(_, l)| l).unwrap_or_else(|| panic!("{out}"));
    let lines: Vec<&str> = left.lines().collect();
    assert_eq!(lines.len(), 5, "{left}");
    assert!(lines[0].starts_with("  evidence/runs/c-old-rule: 1024x32768: evidence/runs/a-base dispatched `fused_mix_rms_2_6_1024_1`, `fused_mix_plain_8_8_512_1` but evidence/runs/c-old-rule dispatched `fused_mix_rms_8_8_512_1`"), "{left}");
    // A run the suite rejected is named with the reasons its `meta.json` records.
    assert_eq!(
        lines[1],
        "  evidence/runs/d-rejected: marked rejected (softmax-bench 8x262144 x-slot-4x512 y: max rel err 1.476e-6 over 1.0e-5, 8192 unwritten; softmax-bench 8x262144 x-slot-4x1024 y-graph: max rel err 1.314e-6 over 1.0e-5, 81920 unwritten)"
    );
    assert!(lines[2].starts_with("  evidence/runs/f-no-ptx: ") && lines[2].contains("evidence/runs/f-no-ptx/ptx/softmax.ptx"), "{left}");
    assert_eq!(lines[3], "  evidence/runs/h-link-to-b: a link: runs are not read through links");
    assert_eq!(lines[4], "  evidence/runs/i-\u{FFFD}: its name is not UTF-8, so it cannot be named to be read");

    // The same as JSON, and a pool asked for with more than one run is a usage error.
    let (code, json, _) = support::claimcheck(["bench-report", "evidence/runs/a-base", "--with-same-code", "--format", "json", "--root", root]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["runs"], serde_json::json!(["evidence/runs/a-base", "evidence/runs/b-same"]));
    assert_eq!(v["left_out"].as_array().map(Vec::len), Some(5));
    let (code, _, err) = support::claimcheck(["bench-report", "evidence/runs/a-base", "evidence/runs/b-same", "--with-same-code", "--root", root]);
    assert_eq!(code, 2);
    assert!(err.contains("--with-same-code pools one run with the others of its folder: give one run"), "{err}");
}
