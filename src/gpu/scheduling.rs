//! The scheduling suite: the tiled A/B/C softmax on a balanced and a ragged input, as three
//! kernels (stream or graph), a phase-fused cooperative kernel and a dependency queue, with
//! instrumented trace runs kept apart from the timing runs.

use std::collections::BTreeMap;
use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg, sys};

use super::common::{CaseMeta, Collected, GraphRecord, Rotation, SetRotation, Settings, cfg, fixture_seed, random_input, rotation_sets};
use super::device::Gpu;
use super::harness;
use super::reference::{self, Compared, Criterion};
use crate::evidence::{TraceHeader, TraceTask, ValidationRecord};

pub(crate) const TILE: usize = 1024;
pub(crate) const TOLERANCE: f64 = 1e-5;
const THREADS: u32 = 256;

/// Row lengths of the two inputs, each 1,048,576 elements in 1024 tiles and 128 rows.
pub(crate) fn layout(case: &str) -> Vec<usize> {
    match case {
        "balanced" => vec![8192; 128],
        _ => (0..16).flat_map(|_| std::iter::once(36864).chain(std::iter::repeat_n(4096, 7))).collect(),
    }
}

pub(crate) const CASES: [&str; 2] = ["balanced", "ragged"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Variant {
    ThreeKernel,
    PhaseFused,
    Queue,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::ThreeKernel => "three-kernel",
            Variant::PhaseFused => "phase-fused",
            Variant::Queue => "queue",
        }
    }
}

struct Kernels {
    a: CudaFunction,
    b: CudaFunction,
    c: CudaFunction,
    phase: CudaFunction,
    queue: CudaFunction,
    workers: u32,
    reserve: u32,
}

struct Set {
    x: CudaSlice<f32>,
    y: CudaSlice<f32>,
    tile_m: CudaSlice<f32>,
    tile_z: CudaSlice<f32>,
    row_m: CudaSlice<f32>,
    row_z: CudaSlice<f32>,
    counters: CudaSlice<u32>,
}

/// Per-case index arrays, shared by every set.
struct Index {
    row_tile_start: CudaSlice<i32>,
    tile_row: CudaSlice<i32>,
    tile_row_host: Vec<usize>,
    row_tiles_host: Vec<std::ops::Range<usize>>,
    n_tiles: i32,
    n_rows: i32,
}

fn submit(k: &Kernels, ix: &Index, v: Variant, set: &mut Set, trace: u64, stream: &Arc<CudaStream>) -> anyhow::Result<()> {
    let (nt, nr) = (ix.n_tiles, ix.n_rows);
    // SAFETY: argument lists match kernels/scheduling.cu; `trace` is 0 or a buffer of
    // 2 n_tiles + n_rows trace slots.
    unsafe {
        match v {
            Variant::ThreeKernel => {
                stream.launch_builder(&k.a).arg(&set.x).arg(&mut set.tile_m).arg(&mut set.tile_z).arg(&trace).launch(cfg(nt as u32, THREADS, 0))?;
                stream
                    .launch_builder(&k.b)
                    .arg(&ix.row_tile_start)
                    .arg(&set.tile_m)
                    .arg(&set.tile_z)
                    .arg(&mut set.row_m)
                    .arg(&mut set.row_z)
                    .arg(&nt)
                    .arg(&trace)
                    .launch(cfg(nr as u32, THREADS, 0))?;
                stream
                    .launch_builder(&k.c)
                    .arg(&ix.tile_row)
                    .arg(&set.x)
                    .arg(&set.row_m)
                    .arg(&set.row_z)
                    .arg(&mut set.y)
                    .arg(&nt)
                    .arg(&nr)
                    .arg(&trace)
                    .launch(cfg(nt as u32, THREADS, 0))?;
            }
            Variant::PhaseFused => {
                stream
                    .launch_builder(&k.phase)
                    .arg(&set.x)
                    .arg(&mut set.y)
                    .arg(&ix.row_tile_start)
                    .arg(&ix.tile_row)
                    .arg(&mut set.tile_m)
                    .arg(&mut set.tile_z)
                    .arg(&mut set.row_m)
                    .arg(&mut set.row_z)
                    .arg(&nt)
                    .arg(&nr)
                    .arg(&trace)
                    .launch_cooperative(cfg(k.workers, THREADS, k.reserve))?;
            }
            Variant::Queue => {
                // The queue's reset is part of every invocation.
                stream.memset_zeros(&mut set.counters)?;
                stream
                    .launch_builder(&k.queue)
                    .arg(&set.x)
                    .arg(&mut set.y)
                    .arg(&ix.row_tile_start)
                    .arg(&ix.tile_row)
                    .arg(&mut set.tile_m)
                    .arg(&mut set.tile_z)
                    .arg(&mut set.row_m)
                    .arg(&mut set.row_z)
                    .arg(&nt)
                    .arg(&nr)
                    .arg(&mut set.counters)
                    .arg(&trace)
                    .launch(cfg(k.workers, THREADS, k.reserve))?;
            }
        }
    }
    Ok(())
}

pub(crate) fn run(gpu: &Gpu, settings: &Settings, out: &mut Collected, mut progress: impl FnMut(&str)) -> anyhow::Result<()> {
    let module = gpu.module("scheduling", super::KERNELS[2].1)?;
    out.ptx.insert("scheduling".into(), module.ptx.clone());
    out.nvrtc_options.insert("scheduling".into(), module.options.clone());
    // A dynamic shared-memory reservation of more than half an SM's shared memory leaves room
    // for one worker block per SM, whatever else the block needs.
    let reserve = (gpu.info.max_shared_per_sm as u32 / 2 + 1024).min(gpu.info.max_shared_per_block_optin as u32);
    let phase = module.function("sched_phase")?;
    let queue = module.function("sched_queue")?;
    for f in [&phase, &queue] {
        f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, reserve as i32)?;
    }
    let k = Kernels { a: module.function("sched_a")?, b: module.function("sched_b")?, c: module.function("sched_c")?, phase, queue, workers: gpu.info.sm_count as u32, reserve };
    for (name, f, smem) in [("sched_a", &k.a, 0), ("sched_b", &k.b, 0), ("sched_c", &k.c, 0), ("sched_phase", &k.phase, reserve), ("sched_queue", &k.queue, reserve)] {
        let info = gpu.kernel_info("scheduling", name, f, THREADS, smem)?;
        if smem > 0 {
            anyhow::ensure!(
                info.max_active_blocks_per_sm == 1,
                "{name}: {} blocks fit per SM with {smem} bytes reserved; persistent workers need exactly 1",
                info.max_active_blocks_per_sm
            );
        }
        out.kernels.push(info);
    }
    let suite = "scheduling";
    for case in CASES {
        progress(&format!("{suite} {case}"));
        let lengths = layout(case);
        let n: usize = lengths.iter().sum();
        let mut tile_row_host = Vec::new();
        let mut starts = vec![0i32];
        let mut row_tiles_host = Vec::new();
        for (r, len) in lengths.iter().enumerate() {
            let first = tile_row_host.len();
            tile_row_host.extend(std::iter::repeat_n(r, len / TILE));
            row_tiles_host.push(first..tile_row_host.len());
            starts.push(tile_row_host.len() as i32);
        }
        let ix = Index {
            row_tile_start: gpu.stream.clone_htod(&starts)?,
            tile_row: gpu.stream.clone_htod(&tile_row_host.iter().map(|&r| r as i32).collect::<Vec<_>>())?,
            n_tiles: tile_row_host.len() as i32,
            n_rows: lengths.len() as i32,
            tile_row_host,
            row_tiles_host,
        };
        let (nt, nr) = (ix.n_tiles as usize, ix.n_rows as usize);
        let bytes_per_set = 2 * n * 4;
        let sets_n = rotation_sets(bytes_per_set, gpu.info.l2_bytes as usize);
        let mut sets = (0..sets_n)
            .map(|_| {
                Ok(Set {
                    x: gpu.stream.alloc_zeros(n)?,
                    y: gpu.stream.alloc_zeros(n)?,
                    tile_m: gpu.stream.alloc_zeros(nt)?,
                    tile_z: gpu.stream.alloc_zeros(nt)?,
                    row_m: gpu.stream.alloc_zeros(nr)?,
                    row_z: gpu.stream.alloc_zeros(nr)?,
                    counters: gpu.stream.alloc_zeros(1 + 2 * nr)?,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let variants = [Variant::ThreeKernel, Variant::PhaseFused, Variant::Queue];

        for fixture in 0..settings.validation_fixtures {
            let seed = fixture_seed(settings.seed, suite, case, fixture);
            let x = random_input(n, seed);
            let expected = reference::tiled_softmax(&x, &lengths, TILE);
            gpu.stream.memcpy_htod(&x, &mut sets[0].x)?;
            for &v in &variants {
                let set = &mut sets[0];
                poison_all(gpu, set)?;
                gpu.run_once(|s| submit(&k, &ix, v, set, 0, s))?;
                out.validation.extend(compare_set(gpu, set, &expected, suite, case, v.name(), seed, "")?);
            }
        }

        // Instrumented runs, one per variant, separate from timing.
        let total = 2 * nt + nr;
        let mut trace_buf: CudaSlice<u64> = gpu.stream.alloc_zeros(4 * total)?;
        let seed = fixture_seed(settings.seed, suite, case, 500);
        let x = random_input(n, seed);
        let expected = reference::tiled_softmax(&x, &lengths, TILE);
        gpu.stream.memcpy_htod(&x, &mut sets[0].x)?;
        for &v in &variants {
            gpu.stream.memset_zeros(&mut trace_buf)?;
            let set = &mut sets[0];
            poison_all(gpu, set)?;
            let ptr = {
                use cudarc::driver::DevicePtr;
                let (p, _g) = trace_buf.device_ptr(&gpu.stream);
                p
            };
            gpu.run_once(|s| submit(&k, &ix, v, set, ptr, s))?;
            out.validation.extend(compare_set(gpu, set, &expected, suite, case, v.name(), seed, "-traced")?);
            let raw = gpu.stream.clone_dtoh(&trace_buf)?;
            let (header, tasks, bad_slots) = decode_trace(&raw, &ix, case, v.name(), k.workers as usize);
            let problems = crate::evidence::trace::verify(&header, &tasks);
            out.validation.push(ValidationRecord {
                suite: suite.into(),
                case: case.into(),
                variant: v.name().into(),
                what: "trace".into(),
                fixture: seed,
                elements: total,
                max_abs_err: 0.0,
                max_rel_err: if problems.is_empty() { 0.0 } else { 1.0 },
                norm_rel_err: 0.0,
                criterion: "max-rel".into(),
                tolerance: 0.0,
                unwritten: bad_slots,
                differing: 0,
                pass: problems.is_empty() && bad_slots == 0,
            });
            for p in problems {
                out.notes.push(format!("{suite} {case} {} trace: {p}", v.name()));
            }
            let mut lines = vec![serde_json::to_value(&header)?];
            for t in &tasks {
                lines.push(serde_json::to_value(t)?);
            }
            out.traces.push((format!("{}-{case}", v.name()), lines));
        }

        let mut graphs = BTreeMap::new();
        let mut graph_variants = Vec::new();
        for &v in &variants {
            let mut ok = true;
            for (i, set) in sets.iter_mut().enumerate() {
                match gpu.capture(|s| submit(&k, &ix, v, set, 0, s)) {
                    Ok((g, setup_us)) => {
                        if i == 0 {
                            out.graphs.push(GraphRecord {
                                suite: suite.into(),
                                case: case.into(),
                                variant: v.name().into(),
                                nodes: super::device::graph_nodes(&g)?,
                                setup_us,
                                dot: super::device::graph_dot(&g)?,
                            });
                        }
                        graphs.insert((v, i), g);
                    }
                    Err(e) => {
                        out.notes.push(format!("{suite} {case} {}: graph capture failed ({e}); graph mode not run", v.name()));
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                graph_variants.push(v);
            }
        }
        let seed = fixture_seed(settings.seed, suite, case, settings.validation_fixtures);
        let x = random_input(n, seed);
        let expected = reference::tiled_softmax(&x, &lengths, TILE);
        gpu.stream.memcpy_htod(&x, &mut sets[0].x)?;
        for &v in &graph_variants {
            poison_all(gpu, &mut sets[0])?;
            graphs[&(v, 0)].launch()?;
            gpu.stream.synchronize()?;
            out.validation.extend(compare_set(gpu, &sets[0], &expected, suite, case, v.name(), seed, "-graph")?);
        }

        let timing_seed = fixture_seed(settings.seed, suite, case, 1000);
        for (i, set) in sets.iter_mut().enumerate() {
            gpu.stream.memcpy_htod(&random_input(n, timing_seed + i as u64), &mut set.x)?;
        }
        gpu.stream.synchronize()?;
        let mut entries = Vec::new();
        for &v in &variants {
            entries.push((v, "stream"));
            if graph_variants.contains(&v) {
                entries.push((v, "graph"));
            }
        }
        let mut timed = Rotation::new(gpu, &mut sets, &graphs, entries, |v| v.name().to_string(), |v, set, s| submit(&k, &ix, v, set, 0, s));
        let protocol = harness::Protocol { warmup: settings.warmup, rounds: settings.rounds, seed: timing_seed };
        let (samples, clocks) = harness::measure(&mut timed, suite, case, protocol, &mut gpu.clock(), || {})?;
        out.samples.extend(samples);
        out.cases.push(CaseMeta {
            suite: suite.into(),
            case: case.into(),
            shape: lengths.clone(),
            rotation_sets: sets_n,
            rotation: Some(SetRotation::PerInvocation),
            bytes_per_set,
            timing_fixture_seed: timing_seed,
            variants: variants.iter().map(|v| v.name().to_string()).collect(),
            modes: vec!["stream".into(), "graph".into()],
            logical_bytes: variants.iter().map(|v| (v.name().to_string(), 12 * n + 16 * nt + 8 * nr)).collect(),
            dispatch: Some(format!("{} tiles, {} rows, {} persistent workers of {THREADS} threads, {reserve} bytes of shared memory reserved", nt, nr, k.workers)),
            clocks,
        });
    }
    Ok(())
}

fn poison_all(gpu: &Gpu, set: &mut Set) -> anyhow::Result<()> {
    let nan = |n: usize| vec![f32::NAN; n];
    gpu.stream.memcpy_htod(&nan(set.y.len()), &mut set.y)?;
    gpu.stream.memcpy_htod(&nan(set.tile_m.len()), &mut set.tile_m)?;
    gpu.stream.memcpy_htod(&nan(set.tile_z.len()), &mut set.tile_z)?;
    gpu.stream.memcpy_htod(&nan(set.row_m.len()), &mut set.row_m)?;
    gpu.stream.memcpy_htod(&nan(set.row_z.len()), &mut set.row_z)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn compare_set(gpu: &Gpu, set: &Set, expected: &reference::Tiled, suite: &str, case: &str, variant: &str, seed: u64, suffix: &str) -> anyhow::Result<Vec<ValidationRecord>> {
    let arrays: [(&str, &CudaSlice<f32>, &Vec<f64>); 5] = [
        ("y", &set.y, &expected.y),
        ("tile_m", &set.tile_m, &expected.tile_m),
        ("tile_z", &set.tile_z, &expected.tile_z),
        ("row_m", &set.row_m, &expected.row_m),
        ("row_z", &set.row_z, &expected.row_z),
    ];
    let mut out = Vec::new();
    for (what, buf, reference) in arrays {
        let name = format!("{what}{suffix}");
        let c = Compared { suite, case, variant, what: &name, fixture: seed, tolerance: TOLERANCE, criterion: Criterion::MaxRel };
        out.push(reference::compare(&c, &gpu.stream.clone_dtoh(buf)?, reference));
    }
    Ok(out)
}

/// Turns the raw trace slots into trace records with their dependencies. Returns the header,
/// the tasks that were written, and how many slots were written other than exactly once.
fn decode_trace(raw: &[u64], ix: &Index, case: &str, variant: &str, workers: usize) -> (TraceHeader, Vec<TraceTask>, usize) {
    let (nt, nr) = (ix.n_tiles as usize, ix.n_rows as usize);
    let mut tasks = Vec::new();
    let mut bad = 0;
    for g in 0..2 * nt + nr {
        let w = &raw[4 * g..4 * g + 4];
        let writes = (w[3] & 0xffff_ffff) as u32;
        if writes != 1 {
            bad += 1;
        }
        if writes == 0 {
            continue;
        }
        let (stage, index, row, deps) = if g < nt {
            ("A", g, ix.tile_row_host[g], vec![])
        } else if g < nt + nr {
            let r = g - nt;
            ("B", r, r, ix.row_tiles_host[r].clone().map(|t| format!("A:{t}")).collect())
        } else {
            let t = g - nt - nr;
            ("C", t, ix.tile_row_host[t], vec![format!("B:{}", ix.tile_row_host[t])])
        };
        tasks.push(TraceTask {
            task: format!("{stage}:{index}"),
            stage: stage.into(),
            index: index as u32,
            row: row as u32,
            worker: (w[2] & 0xffff_ffff) as u32,
            sm: (w[2] >> 32) as u32,
            start_ns: w[0],
            end_ns: w[1],
            deps,
        });
    }
    let header = TraceHeader { suite: "scheduling".into(), case: case.into(), variant: variant.into(), tasks: 2 * nt + nr, workers };
    (header, tasks, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_hold_the_same_work() {
        for case in CASES {
            let l = layout(case);
            assert_eq!(l.len(), 128, "{case}");
            assert_eq!(l.iter().sum::<usize>(), 1_048_576, "{case}");
            assert_eq!(l.iter().map(|n| n / TILE).sum::<usize>(), 1024, "{case}");
            assert!(l.iter().all(|n| n % TILE == 0));
        }
        assert_eq!(layout("ragged").iter().filter(|&&n| n == 36864).count(), 16);
    }
}
