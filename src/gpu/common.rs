//! What every suite shares: the evidence it collects, the settings it runs under, seeded
//! random fixtures, launch configurations, and the rule for rotating buffers past the L2.

use std::collections::BTreeMap;

use std::sync::Arc;

use cudarc::driver::{CudaGraph, CudaStream, LaunchConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use super::device::Gpu;
use super::harness::{Bench, Entry, Timing};
pub(crate) use crate::evidence::graphs::GraphRecord;
pub(crate) use crate::evidence::kernels::KernelInfo;
pub(crate) use crate::evidence::meta::{CaseMeta, SetRotation, Settings};
use crate::evidence::{SampleRecord, ValidationRecord};

/// Everything a run collects, suite by suite, before it is written out.
#[derive(Default)]
pub(crate) struct Collected {
    pub samples: Vec<SampleRecord>,
    pub validation: Vec<ValidationRecord>,
    pub kernels: Vec<KernelInfo>,
    pub graphs: Vec<GraphRecord>,
    /// Trace files: name (without extension) and lines (header first).
    pub traces: Vec<(String, Vec<serde_json::Value>)>,
    pub ptx: BTreeMap<String, String>,
    pub nvrtc_options: BTreeMap<String, Vec<String>>,
    pub cases: Vec<CaseMeta>,
    /// Things the reader of the run must know: a mode that could not run, a fallback taken.
    pub notes: Vec<String>,
}

/// The timed side of one configuration, the same for every suite: every invocation, whatever
/// its (variant, mode) entry, runs on the next buffer set ([`SetCycle`]), so that no invocation
/// finds in L2 the data the one before it read or wrote. A graph entry replays the graph
/// captured on that set; a stream entry submits through `submit`.
pub(crate) struct Rotation<'a, V, S, F> {
    gpu: &'a Gpu,
    sets: &'a mut [S],
    graphs: &'a BTreeMap<(V, usize), CudaGraph>,
    entries: Vec<(V, &'static str)>,
    names: Vec<String>,
    cycle: SetCycle,
    submit: F,
}

/// The order in which invocations take buffer sets: one cycle for all entries. Giving each
/// entry a cycle of its own, as runs before `rotation` was recorded did, kept every entry's
/// consecutive invocations apart, but the entries of one round then mostly took the same set,
/// so that an entry timed right after another found that entry's inputs and outputs still in
/// L2: at 8×262144 and 16384×512 such samples were 3–10 % faster than the others, and the
/// peers, whose script did the same, were timed warm in all but one place a round.
#[derive(Debug, Clone)]
pub(crate) struct SetCycle {
    sets: usize,
    next: usize,
}

impl SetCycle {
    pub(crate) fn new(sets: usize) -> Self {
        SetCycle { sets: sets.max(1), next: 0 }
    }

    /// The set the next invocation runs on.
    pub(crate) fn take(&mut self) -> usize {
        let set = self.next;
        self.next = (self.next + 1) % self.sets;
        set
    }
}

impl<'a, V: Copy + Ord, S, F: FnMut(V, &mut S, &Arc<CudaStream>) -> anyhow::Result<()>> Rotation<'a, V, S, F> {
    /// `entries` are (variant, `stream` or `graph`); `name` gives a variant's name in the samples.
    pub(crate) fn new(
        gpu: &'a Gpu,
        sets: &'a mut [S],
        graphs: &'a BTreeMap<(V, usize), CudaGraph>,
        entries: Vec<(V, &'static str)>,
        name: impl Fn(V) -> String,
        submit: F,
    ) -> Self {
        let names = entries.iter().map(|(v, _)| name(*v)).collect();
        let cycle = SetCycle::new(sets.len());
        Rotation { gpu, sets, graphs, cycle, entries, names, submit }
    }
}

impl<V: Copy + Ord, S, F: FnMut(V, &mut S, &Arc<CudaStream>) -> anyhow::Result<()>> Bench for Rotation<'_, V, S, F> {
    fn entries(&self) -> Vec<Entry> {
        self.entries.iter().zip(&self.names).map(|((_, mode), name)| Entry { variant: name.clone(), mode: mode.to_string() }).collect()
    }

    fn invoke(&mut self, entry: usize) -> anyhow::Result<Timing> {
        let (v, mode) = self.entries[entry];
        let i = self.cycle.take();
        if mode == "graph" {
            let g = &self.graphs[&(v, i)];
            self.gpu.time(|_| Ok(g.launch()?))
        } else {
            let (set, submit) = (&mut self.sets[i], &mut self.submit);
            self.gpu.time(|s| submit(v, set, s))
        }
    }
}

/// `n` values drawn from a normal distribution and scaled so that the largest magnitude is
/// 10, from `seed`: never zeros, which hide unwritten outputs and can run faster.
pub(crate) fn random_input(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let normal: Normal<f64> = Normal::new(0.0, 1.0).expect("unit normal");
    let raw: Vec<f64> = (0..n).map(|_| normal.sample(&mut rng)).collect();
    let peak = raw.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    raw.iter().map(|v| (v * 10.0 / peak) as f32).collect()
}

/// Buffer sets to rotate through so that the data of `rotation_sets` invocations is at least
/// three times the L2, and never fewer than two: each timed invocation then starts with its
/// inputs out of cache, and never on the set the invocation before it used. With one set, as
/// shapes of sets larger than three L2s had until version 18 of `kernels/NOTES.md`, part of
/// what the predecessor read and wrote was still in L2, and at 4096×4096 (an invocation touches
/// 128 MiB of its 192 MiB set, about twice the L2) a sample after the device-to-device copy ran
/// 2.7 % faster than the rest.
pub(crate) fn rotation_sets(bytes_per_set: usize, l2_bytes: usize) -> usize {
    (3 * l2_bytes).div_ceil(bytes_per_set.max(1)).clamp(2, 32)
}

/// A one-dimensional launch.
pub(crate) fn cfg(blocks: u32, threads: u32, shared: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: shared }
}

/// A seed for fixture `k` of a configuration, derived from the run's seed.
pub(crate) fn fixture_seed(run_seed: u64, suite: &str, case: &str, k: u64) -> u64 {
    let mut h: u64 = run_seed ^ 0x9e37_79b9_7f4a_7c15;
    for b in suite.bytes().chain([0]).chain(case.bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h.wrapping_add(k.wrapping_mul(0x9e37_79b9))
}

/// A run's seed when none is given: drawn afresh, so that every run shuffles its entries in an
/// order of its own. Runs that shared one seed (every run before 2026-12-05) shared the order
/// too, so that what a position in it does to a sample (the invocation before it, what that
/// left in L2) was repeated in every replicate instead of averaged over them, and pooling runs
/// could not shrink it. 53 bits, so that every JSON reader holds it exactly.
pub(crate) fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 11
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_input_is_seeded_scaled_and_never_zero() {
        let a = random_input(1000, 3);
        assert_eq!(a, random_input(1000, 3));
        assert_ne!(a, random_input(1000, 4));
        let peak = a.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        assert!((peak - 10.0).abs() < 1e-4);
        assert!(a.iter().any(|v| *v != 0.0));
    }

    #[test]
    fn every_shape_rotates_through_at_least_two_sets() {
        let l2 = 60 << 20;
        assert_eq!(rotation_sets(256 << 20, l2), 2);
        assert_eq!(rotation_sets(384 << 20, l2), 2);
        assert_eq!(rotation_sets(96 << 20, l2), 2);
        assert_eq!(rotation_sets(4 << 20, l2), 32);
        assert_eq!(rotation_sets(64 << 20, l2), 3);
    }

    #[test]
    fn consecutive_invocations_never_share_a_set_whatever_their_entries() {
        // The cycle knows nothing of entries: whichever entry the shuffled round invokes next,
        // it takes the next set, so that no invocation meets the data of the one before it in L2.
        let mut cycle = SetCycle::new(8);
        let taken: Vec<usize> = (0..100).map(|_| cycle.take()).collect();
        assert!(taken.windows(2).all(|w| w[0] != w[1]));
        // Every set is used, and a set comes back only after all the others.
        assert!(taken.windows(8).all(|w| w.iter().collect::<std::collections::BTreeSet<_>>().len() == 8));
        let mut one = SetCycle::new(1);
        assert_eq!((0..3).map(|_| one.take()).collect::<Vec<_>>(), vec![0, 0, 0]);
        // No sets at all is read as one, rather than a division by zero.
        assert_eq!(SetCycle::new(0).take(), 0);
    }

    #[test]
    fn fresh_seeds_differ_and_fit_in_a_json_double() {
        let seeds: std::collections::BTreeSet<u64> = (0..64).map(|_| fresh_seed()).collect();
        assert_eq!(seeds.len(), 64);
        assert!(seeds.iter().all(|&s| s < 1 << 53));
    }

    #[test]
    fn fixture_seeds_differ_by_case_and_index() {
        assert_ne!(fixture_seed(1, "softmax", "4096x128", 0), fixture_seed(1, "softmax", "4096x128", 1));
        assert_ne!(fixture_seed(1, "softmax", "4096x128", 0), fixture_seed(1, "softmax", "128x4096", 0));
    }
}
