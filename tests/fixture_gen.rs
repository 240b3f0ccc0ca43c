//! The example fixture's evidence run is written by the library's own run writer from a seeded
//! generator, never by hand. `regenerate` (ignored) rewrites it; `committed_fixture_is_generated`
//! proves the committed files are exactly what the generator writes.

use std::path::Path;

use claimcheck::evidence::{RunWriter, SampleRecord, Summary, TraceHeader, TraceTask, ValidationRecord, list_files};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

const FIXTURE: &str = "tests/fixtures/example/evidence/runs";

/// The two tests below touch the same directory; they never run at the same time.
static FIXTURE_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
const RUN: &str = "example-run";

fn write_run(runs_dir: &Path) -> std::path::PathBuf {
    let mut rng = ChaCha8Rng::seed_from_u64(20261202);
    let writer = RunWriter::create(runs_dir, RUN).unwrap();
    // Synthetic timings shaped like the real suite: a four-kernel path and a fused kernel, in
    // stream and graph modes, 21 rounds, with order shuffled per round.
    let configs: [(&str, &str, f64); 4] = [("four-kernel", "stream", 92.0), ("four-kernel", "graph", 80.0), ("fused", "stream", 51.0), ("fused", "graph", 47.0)];
    let mut samples = Vec::new();
    for round in 0..21u32 {
        let mut order: Vec<usize> = (0..configs.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for (position, &c) in order.iter().enumerate() {
            let (variant, mode, centre) = configs[c];
            let noise: Normal<f64> = Normal::new(0.0, centre * 0.02).unwrap();
            let device = (centre - 6.0 + noise.sample(&mut rng)).max(1.0);
            let host = device + 6.0 + noise.sample(&mut rng).abs();
            samples.push(SampleRecord {
                suite: "softmax".into(),
                case: "4096x4096".into(),
                variant: variant.into(),
                mode: mode.into(),
                round,
                order: position as u32,
                host_us: (host * 1000.0).round() / 1000.0,
                device_us: (device * 1000.0).round() / 1000.0,
                // The example fixture predates protocols; its samples record none, as then.
                protocol: None,
            });
        }
    }
    writer.write_jsonl("samples.jsonl", &samples).unwrap();
    writer.write_json("summary.json", &Summary::of(&samples)).unwrap();
    let validation: Vec<ValidationRecord> = ["rms", "row_max", "row_sum", "y"]
        .iter()
        .map(|what| ValidationRecord {
            suite: "softmax".into(),
            case: "4096x4096".into(),
            variant: "fused".into(),
            what: what.to_string(),
            fixture: 1,
            elements: 4096,
            max_abs_err: 1e-8,
            max_rel_err: rng.random_range(1e-8..1e-7),
            norm_rel_err: 1e-8,
            criterion: "max-rel".into(),
            tolerance: 1e-5,
            unwritten: 0,
            differing: 0,
            pass: true,
        })
        .collect();
    writer.write_jsonl("validation.jsonl", &validation).unwrap();
    // A small ragged trace: four tiles, two rows, four outputs, on two workers.
    let header = TraceHeader { suite: "scheduling".into(), case: "ragged".into(), variant: "queue".into(), tasks: 10, workers: 2 };
    let t = |id: &str, row: u32, worker: u32, start: u64, end: u64, deps: &[&str]| {
        let (stage, index) = id.split_once(':').unwrap();
        TraceTask {
            task: id.into(),
            stage: stage.into(),
            index: index.parse().unwrap(),
            row,
            worker,
            sm: worker * 2,
            start_ns: start,
            end_ns: end,
            deps: deps.iter().map(|d| d.to_string()).collect(),
        }
    };
    let tasks = vec![
        t("A:0", 0, 0, 0, 400, &[]),
        t("A:1", 0, 1, 0, 420, &[]),
        t("A:2", 1, 0, 410, 900, &[]),
        t("A:3", 1, 1, 430, 2400, &[]),
        t("B:0", 0, 0, 905, 1000, &["A:0", "A:1"]),
        t("B:1", 1, 1, 2410, 2500, &["A:2", "A:3"]),
        t("C:0", 0, 0, 1010, 1300, &["B:0"]),
        t("C:1", 0, 0, 1310, 1600, &["B:0"]),
        t("C:2", 1, 1, 2510, 2800, &["B:1"]),
        t("C:3", 1, 0, 2520, 2810, &["B:1"]),
    ];
    let mut trace = vec![serde_json::to_value(&header).unwrap()];
    trace.extend(tasks.iter().map(|t| serde_json::to_value(t).unwrap()));
    writer.write_jsonl("traces/queue-ragged.jsonl", &trace).unwrap();
    writer
        .write_json(
            "kernels.json",
            &serde_json::json!({"kernels": [{"name": "softmax_fused", "registers": 32, "static_shared_bytes": 128, "local_bytes": 0, "max_active_blocks_per_sm": 2}]}),
        )
        .unwrap();
    writer.write_json("meta.json", &serde_json::json!({"synthetic": true, "generator": "tests/fixture_gen.rs", "rounds": 21})).unwrap();
    writer.finish().unwrap()
}

#[test]
#[ignore = "rewrites the committed fixture; run by hand after changing the generator"]
fn regenerate() {
    let _guard = FIXTURE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(FIXTURE).join(RUN);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    write_run(Path::new(FIXTURE));
}

#[test]
fn committed_fixture_is_generated() {
    let _guard = FIXTURE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let fresh = write_run(tmp.path());
    let committed = Path::new(FIXTURE).join(RUN);
    let files = list_files(&fresh).unwrap();
    assert_eq!(files, list_files(&committed).unwrap(), "the fixture's file list differs from the generator's");
    for f in files {
        assert_eq!(std::fs::read(fresh.join(&f)).unwrap(), std::fs::read(committed.join(&f)).unwrap(), "{f} differs from what the generator writes");
    }
}
