//! The timing harness: warm-up, then rounds in which every (variant, mode) of one
//! configuration runs once, in an order shuffled from a recorded seed. It owns the protocol
//! and the sample records; what one invocation does is the `Bench`'s business, so the
//! protocol is tested with a fake and runs unchanged on the GPU.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::evidence::SampleRecord;

/// One timed invocation: host completion time (submission through stream synchronise, host
/// clock) and device time (events around the same submission).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Timing {
    pub host_us: f64,
    pub device_us: f64,
}

/// One entry of a configuration: a variant in a submission mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub variant: String,
    pub mode: String,
}

/// A configuration that can be timed: its entries, and one invocation of any of them.
pub(crate) trait Bench {
    fn entries(&self) -> Vec<Entry>;
    fn invoke(&mut self, entry: usize) -> anyhow::Result<Timing>;
}

/// How a configuration is timed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Protocol {
    pub warmup: usize,
    pub rounds: u32,
    pub seed: u64,
}

/// Times every entry of `bench`: `warmup` untimed invocations of each, then `rounds` rounds
/// with the entries in a shuffled order. `on_sample` is called after each timed invocation
/// (for a progress bar).
pub(crate) fn measure(
    bench: &mut dyn Bench,
    suite: &str,
    case: &str,
    protocol: Protocol,
    mut on_sample: impl FnMut(),
) -> anyhow::Result<Vec<SampleRecord>> {
    let entries = bench.entries();
    anyhow::ensure!(!entries.is_empty(), "configuration {suite} {case} has no entries");
    for idx in 0..entries.len() {
        for _ in 0..protocol.warmup {
            bench.invoke(idx)?;
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(protocol.seed);
    let mut order: Vec<usize> = (0..entries.len()).collect();
    let mut samples = Vec::with_capacity(entries.len() * protocol.rounds as usize);
    for round in 0..protocol.rounds {
        order.shuffle(&mut rng);
        for (position, &idx) in order.iter().enumerate() {
            let t = bench.invoke(idx)?;
            anyhow::ensure!(
                t.host_us.is_finite() && t.device_us.is_finite() && t.host_us >= 0.0 && t.device_us >= 0.0,
                "{suite} {case} {} {}: timing {t:?} is not a finite non-negative pair",
                entries[idx].variant,
                entries[idx].mode
            );
            samples.push(SampleRecord {
                suite: suite.to_string(),
                case: case.to_string(),
                variant: entries[idx].variant.clone(),
                mode: entries[idx].mode.clone(),
                round,
                order: position as u32,
                host_us: round_ns(t.host_us),
                device_us: round_ns(t.device_us),
            });
            on_sample();
        }
    }
    Ok(samples)
}

/// Timings are kept to the nanosecond: finer digits are clock noise, and fixed digits keep
/// the sample files small and stable.
fn round_ns(us: f64) -> f64 {
    (us * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bench whose timings are a function of the entry and a call counter.
    struct Fake {
        calls: Vec<usize>,
    }

    impl Bench for Fake {
        fn entries(&self) -> Vec<Entry> {
            ["a", "b", "c"].iter().map(|v| Entry { variant: v.to_string(), mode: "stream".into() }).collect()
        }
        fn invoke(&mut self, entry: usize) -> anyhow::Result<Timing> {
            self.calls.push(entry);
            Ok(Timing { host_us: 10.0 + entry as f64, device_us: 5.0 + entry as f64 })
        }
    }

    fn protocol(seed: u64) -> Protocol {
        Protocol { warmup: 2, rounds: 21, seed }
    }

    #[test]
    fn every_entry_gets_every_round_after_warmup() {
        let mut f = Fake { calls: vec![] };
        let samples = measure(&mut f, "s", "c", protocol(1), || {}).unwrap();
        assert_eq!(samples.len(), 63);
        assert_eq!(f.calls.len(), 63 + 6);
        for v in ["a", "b", "c"] {
            let rounds: Vec<u32> = samples.iter().filter(|s| s.variant == v).map(|s| s.round).collect();
            assert_eq!(rounds, (0..21).collect::<Vec<_>>());
        }
    }

    #[test]
    fn each_round_is_a_permutation_and_the_seed_fixes_the_order() {
        let run = |seed| {
            let mut f = Fake { calls: vec![] };
            measure(&mut f, "s", "c", protocol(seed), || {}).unwrap()
        };
        let a = run(7);
        for round in 0..21 {
            let mut pos: Vec<u32> = a.iter().filter(|s| s.round == round).map(|s| s.order).collect();
            pos.sort();
            assert_eq!(pos, [0, 1, 2]);
        }
        let order = |s: &[SampleRecord]| s.iter().map(|x| x.variant.clone()).collect::<Vec<_>>();
        assert_eq!(order(&a), order(&run(7)));
        assert_ne!(order(&a), order(&run(8)));
    }

    #[test]
    fn a_bad_timing_stops_the_configuration() {
        struct Nan;
        impl Bench for Nan {
            fn entries(&self) -> Vec<Entry> {
                vec![Entry { variant: "a".into(), mode: "graph".into() }]
            }
            fn invoke(&mut self, _: usize) -> anyhow::Result<Timing> {
                Ok(Timing { host_us: f64::NAN, device_us: 1.0 })
            }
        }
        assert!(measure(&mut Nan, "s", "c", protocol(1), || {}).is_err());
    }
}
