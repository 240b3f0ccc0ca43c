//! The benches' synthetic samples file, shared by `benches/engine.rs` and the scale benchmark's
//! generator (`benches/scale/generate.rs`): a file shaped like a run's, 240 configurations (4
//! suites, 6 cases, 5 variants, 2 modes) of log-normal times, one line per sample, from a fixed
//! seed, so that a file of n samples is the first n lines of any larger one. A path ending in
//! `.csv` gets the same samples as CSV: a header row, then one row a sample, each number
//! written as serde_json writes it in the JSONL file, so that both files hold the same doubles.

use std::io::Write;
use std::path::Path;

use claimcheck::evidence::SampleRecord;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, LogNormal};

pub const SEED: u64 = 20261202;

/// Writes `n` samples to `path`, through a temporary file renamed into place, streaming: a file
/// of 10^7 lines is never held in memory.
pub fn write(path: &Path, n: usize) -> std::io::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let times = LogNormal::new(3.0, 0.3).unwrap();
    let suites = ["pointwise", "softmax", "scheduling", "softmax-bench"];
    let cases = ["4096x4096", "4096x128", "32768x1024", "1024x32768", "16384x512", "8x262144"];
    let variants = ["three-kernel", "fused", "fused-block", "cudnn", "torch"];
    let mut configs = Vec::new();
    for s in suites {
        for c in cases {
            for v in variants {
                for m in ["stream", "graph"] {
                    configs.push((s, c, v, m));
                }
            }
        }
    }
    let tmp = path.with_extension("tmp");
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
    let csv = path.extension().is_some_and(|e| e == "csv");
    if csv {
        out.write_all(b"suite,case,variant,mode,round,order,host_us,device_us\n")?;
    }
    for i in 0..n {
        let (suite, case, variant, mode) = configs[i % configs.len()];
        let host: f64 = times.sample(&mut rng);
        let record = SampleRecord {
            suite: suite.into(),
            case: case.into(),
            variant: variant.into(),
            mode: mode.into(),
            round: (i / configs.len()) as u32,
            order: (i % configs.len()) as u32,
            host_us: (host * 1000.0).round() / 1000.0,
            device_us: (host * 800.0).round() / 1000.0,
            protocol: None,
        };
        if csv {
            let number = |v: f64| serde_json::to_string(&v).unwrap_or_default();
            let r = &record;
            writeln!(out, "{},{},{},{},{},{},{},{}", r.suite, r.case, r.variant, r.mode, r.round, r.order, number(r.host_us), number(r.device_us))?;
        } else {
            serde_json::to_writer(&mut out, &record)?;
            out.write_all(b"\n")?;
        }
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&tmp, path)
}
