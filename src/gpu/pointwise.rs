//! The pointwise warm-up: y = (x·a + b)² as three kernels and as one fused kernel, at four
//! sizes, in stream and graph modes.

use std::collections::BTreeMap;
use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg};

use super::common::{CaseMeta, Collected, GraphRecord, Rotation, SetRotation, Settings, cfg, fixture_seed, random_input, rotation_sets};
use super::device::Gpu;
use super::harness;
use super::reference::{self, Compared, Criterion};

pub(crate) const SIZES: [usize; 4] = [1 << 18, 1 << 20, 1 << 22, 1 << 24];
const A: f32 = 1.5;
const B: f32 = -0.25;
/// Against FP64, norm-wise: x·a + b cancels where x·a is near −b, so an element-wise bound
/// would blame the correct rounding of x·a. Element for element the GPU must instead equal,
/// bit for bit, the same correctly rounded FP32 operations done on the CPU.
pub(crate) const TOLERANCE: f64 = 1e-6;
const THREADS: u32 = 256;

struct Kernels {
    scale: CudaFunction,
    shift: CudaFunction,
    square: CudaFunction,
    fused: CudaFunction,
}

struct Set {
    x: CudaSlice<f32>,
    t1: CudaSlice<f32>,
    t2: CudaSlice<f32>,
    y: CudaSlice<f32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Variant {
    ThreeKernel,
    Fused,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::ThreeKernel => "three-kernel",
            Variant::Fused => "fused",
        }
    }
}

fn submit(k: &Kernels, v: Variant, set: &mut Set, n: usize, stream: &Arc<CudaStream>) -> anyhow::Result<()> {
    let n4 = (n / 4) as i32;
    let blocks = (n / 4).div_ceil(THREADS as usize) as u32;
    let c = cfg(blocks, THREADS, 0);
    // SAFETY: argument lists match kernels/pointwise.cu; every buffer holds n floats.
    unsafe {
        match v {
            Variant::ThreeKernel => {
                stream.launch_builder(&k.scale).arg(&set.x).arg(&mut set.t1).arg(&A).arg(&n4).launch(c)?;
                stream.launch_builder(&k.shift).arg(&set.t1).arg(&mut set.t2).arg(&B).arg(&n4).launch(c)?;
                stream.launch_builder(&k.square).arg(&set.t2).arg(&mut set.y).arg(&n4).launch(c)?;
            }
            Variant::Fused => {
                stream.launch_builder(&k.fused).arg(&set.x).arg(&mut set.y).arg(&A).arg(&B).arg(&n4).launch(c)?;
            }
        }
    }
    Ok(())
}

pub(crate) fn run(gpu: &Gpu, settings: &Settings, out: &mut Collected, mut progress: impl FnMut(&str)) -> anyhow::Result<()> {
    let module = gpu.module("pointwise", super::KERNELS[0].1)?;
    out.ptx.insert("pointwise".into(), module.ptx.clone());
    out.nvrtc_options.insert("pointwise".into(), module.options.clone());
    let k = Kernels { scale: module.function("pw_scale")?, shift: module.function("pw_shift")?, square: module.function("pw_square")?, fused: module.function("pw_fused")? };
    for (name, f) in [("pw_scale", &k.scale), ("pw_shift", &k.shift), ("pw_square", &k.square), ("pw_fused", &k.fused)] {
        out.kernels.push(gpu.kernel_info("pointwise", name, f, THREADS, 0)?);
    }
    let suite = "pointwise";
    for n in SIZES {
        let case = format!("n={n}");
        progress(&format!("{suite} {case}"));
        let bytes_per_set = 4 * n * 4;
        let sets_n = rotation_sets(bytes_per_set, gpu.info.l2_bytes as usize);
        let mut sets = (0..sets_n)
            .map(|_| Ok(Set { x: gpu.stream.alloc_zeros(n)?, t1: gpu.stream.alloc_zeros(n)?, t2: gpu.stream.alloc_zeros(n)?, y: gpu.stream.alloc_zeros(n)? }))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let variants = [Variant::ThreeKernel, Variant::Fused];

        for fixture in 0..settings.validation_fixtures {
            let seed = fixture_seed(settings.seed, suite, &case, fixture);
            let x = random_input(n, seed);
            let (t1_ref, t2_ref, y_ref) = reference::pointwise(&x, A, B);
            let (t1_f32, t2_f32, y_f32) = reference::pointwise_f32(&x, A, B);
            let set = &mut sets[0];
            gpu.stream.memcpy_htod(&x, &mut set.x)?;
            let c = |variant, what| Compared { suite, case: &case, variant, what, fixture: seed, tolerance: TOLERANCE, criterion: Criterion::NormRel };
            let nan = vec![f32::NAN; n];
            for buf in [&mut set.t1, &mut set.t2, &mut set.y] {
                gpu.stream.memcpy_htod(&nan, buf)?;
            }
            gpu.run_once(|s| submit(&k, Variant::ThreeKernel, set, n, s))?;
            let three = gpu.stream.clone_dtoh(&set.y)?;
            let t1 = gpu.stream.clone_dtoh(&set.t1)?;
            let t2 = gpu.stream.clone_dtoh(&set.t2)?;
            out.validation.push(reference::compare(&c("three-kernel", "t1"), &t1, &t1_ref));
            out.validation.push(reference::compare(&c("three-kernel", "t2"), &t2, &t2_ref));
            out.validation.push(reference::compare(&c("three-kernel", "y"), &three, &y_ref));
            out.validation.push(reference::compare_bits(&c("three-kernel", "t1-bits-vs-fp32"), &t1, &t1_f32));
            out.validation.push(reference::compare_bits(&c("three-kernel", "t2-bits-vs-fp32"), &t2, &t2_f32));
            out.validation.push(reference::compare_bits(&c("three-kernel", "y-bits-vs-fp32"), &three, &y_f32));
            gpu.stream.memcpy_htod(&nan, &mut set.y)?;
            gpu.run_once(|s| submit(&k, Variant::Fused, set, n, s))?;
            let fused = gpu.stream.clone_dtoh(&set.y)?;
            out.validation.push(reference::compare(&c("fused", "y"), &fused, &y_ref));
            out.validation.push(reference::compare_bits(&c("fused", "y-bits-vs-fp32"), &fused, &y_f32));
            out.validation.push(reference::compare_bits(&c("fused", "y-bits-vs-three-kernel"), &fused, &three));
        }

        let mut graphs = BTreeMap::new();
        for &v in &variants {
            for (i, set) in sets.iter_mut().enumerate() {
                let (g, setup_us) = gpu.capture(|s| submit(&k, v, set, n, s))?;
                if i == 0 {
                    out.graphs.push(GraphRecord {
                        suite: suite.into(),
                        case: case.clone(),
                        variant: v.name().into(),
                        nodes: super::device::graph_nodes(&g)?,
                        setup_us,
                        dot: super::device::graph_dot(&g)?,
                    });
                }
                graphs.insert((v, i), g);
            }
        }
        let seed = fixture_seed(settings.seed, suite, &case, settings.validation_fixtures);
        let x = random_input(n, seed);
        let (_, _, y_ref) = reference::pointwise(&x, A, B);
        gpu.stream.memcpy_htod(&x, &mut sets[0].x)?;
        for &v in &variants {
            gpu.stream.memcpy_htod(&vec![f32::NAN; n], &mut sets[0].y)?;
            graphs[&(v, 0)].launch()?;
            gpu.stream.synchronize()?;
            let c = Compared { suite, case: &case, variant: v.name(), what: "y-graph", fixture: seed, tolerance: TOLERANCE, criterion: Criterion::NormRel };
            out.validation.push(reference::compare(&c, &gpu.stream.clone_dtoh(&sets[0].y)?, &y_ref));
        }

        let timing_seed = fixture_seed(settings.seed, suite, &case, 1000);
        for (i, set) in sets.iter_mut().enumerate() {
            gpu.stream.memcpy_htod(&random_input(n, timing_seed + i as u64), &mut set.x)?;
        }
        gpu.stream.synchronize()?;
        let entries: Vec<(Variant, &str)> = variants.iter().flat_map(|&v| [(v, "stream"), (v, "graph")]).collect();
        let mut timed = Rotation::new(gpu, &mut sets, &graphs, entries, |v| v.name().to_string(), |v, set, s| submit(&k, v, set, n, s));
        let protocol = harness::Protocol { warmup: settings.warmup, rounds: settings.rounds, seed: timing_seed };
        let (samples, clocks) = harness::measure(&mut timed, suite, &case, protocol, &mut gpu.clock(), || {})?;
        out.samples.extend(samples);
        out.cases.push(CaseMeta {
            suite: suite.into(),
            case,
            shape: vec![n],
            rotation_sets: sets_n,
            rotation: Some(SetRotation::PerInvocation),
            bytes_per_set,
            timing_fixture_seed: timing_seed,
            variants: variants.iter().map(|v| v.name().to_string()).collect(),
            modes: vec!["stream".into(), "graph".into()],
            logical_bytes: [("three-kernel".to_string(), 24 * n), ("fused".to_string(), 8 * n)].into_iter().collect(),
            dispatch: None,
            clocks,
        });
    }
    Ok(())
}
