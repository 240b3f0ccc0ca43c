//! The timing harness: warm-up, then rounds in which every (variant, mode) of one
//! configuration runs once, in an order shuffled from a recorded seed. It owns the protocol
//! and the sample records; what one invocation does is the `Bench`'s business, so the
//! protocol is tested with a fake and runs unchanged on the GPU.
//!
//! The warm-up holds the GPU busy until its SM clock is stable, where the clock can be read:
//! an idle H200 reads 345 MHz and the first configuration of a run used to be timed while the
//! clock was still rising (+7 to +12 % in every recheck). It invokes the entries round-robin
//! for at least [`WARMUP_MIN_MS`], reading the clock every [`CLOCK_POLL_MS`], until
//! [`STABLE_READINGS`] readings in a row lie within [`STABLE_MHZ`] of one another, or
//! [`WARMUP_LIMIT_MS`] has passed (recorded as not stable). The clock is read again before and
//! after the timed rounds and recorded with the configuration.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::evidence::SampleRecord;
use crate::evidence::meta::CaseClocks;
use crate::evidence::samples::{GRAPH_REPLAY_EVENTS, STREAM_EVENTS};

/// The shortest warm-up that waits for the clock, in milliseconds.
pub(crate) const WARMUP_MIN_MS: f64 = 100.0;
/// The longest: a clock that has not settled by then is recorded as not stable.
pub(crate) const WARMUP_LIMIT_MS: f64 = 3000.0;
/// How often the clock is read during the warm-up.
pub(crate) const CLOCK_POLL_MS: f64 = 20.0;
/// Readings in a row that must agree.
pub(crate) const STABLE_READINGS: usize = 5;
/// How far apart they may be, in MHz (the H200 steps its clock by 15 MHz).
pub(crate) const STABLE_MHZ: u32 = 15;

/// The SM clock and a millisecond timer, so that a fake can stand in for NVML in tests.
pub(crate) trait Clock {
    /// The SM clock now, in MHz; `None` when it cannot be read.
    fn sm_mhz(&mut self) -> Option<u32>;
    /// Milliseconds since some fixed start.
    fn now_ms(&mut self) -> f64;
}

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

/// Times every entry of `bench`: `warmup` untimed invocations of each, then, where `clock`
/// can be read, more until the SM clock is stable, then `rounds` rounds with the entries in a
/// shuffled order. `on_sample` is called after each timed invocation (for a progress bar).
/// Returns the samples and, where the clock could be read, the clocks around them.
pub(crate) fn measure(
    bench: &mut dyn Bench,
    suite: &str,
    case: &str,
    protocol: Protocol,
    clock: &mut dyn Clock,
    mut on_sample: impl FnMut(),
) -> anyhow::Result<(Vec<SampleRecord>, Option<CaseClocks>)> {
    let entries = bench.entries();
    anyhow::ensure!(!entries.is_empty(), "configuration {suite} {case} has no entries");
    let t0 = clock.now_ms();
    let start_mhz = clock.sm_mhz();
    let mut invocations = 0u64;
    for idx in 0..entries.len() {
        for _ in 0..protocol.warmup {
            bench.invoke(idx)?;
            invocations += 1;
        }
    }
    let mut stable = false;
    if start_mhz.is_some() {
        let mut readings: Vec<u32> = Vec::new();
        let mut last_poll = f64::NEG_INFINITY;
        let mut next = 0;
        loop {
            bench.invoke(next)?;
            invocations += 1;
            next = (next + 1) % entries.len();
            let now = clock.now_ms();
            if now - last_poll >= CLOCK_POLL_MS {
                last_poll = now;
                readings.extend(clock.sm_mhz());
                let recent = &readings[readings.len().saturating_sub(STABLE_READINGS)..];
                let settled = recent.len() == STABLE_READINGS && recent.iter().max().zip(recent.iter().min()).is_some_and(|(hi, lo)| hi - lo <= STABLE_MHZ);
                if settled && now - t0 >= WARMUP_MIN_MS {
                    stable = true;
                    break;
                }
            }
            if now - t0 >= WARMUP_LIMIT_MS {
                break;
            }
        }
    }
    let warmup_ms = clock.now_ms() - t0;
    let before_mhz = clock.sm_mhz();
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
                protocol: Some(protocol_of(&entries[idx].mode).to_string()),
            });
            on_sample();
        }
    }
    let after_mhz = clock.sm_mhz();
    let clocks = match (start_mhz, before_mhz, after_mhz) {
        (Some(s), Some(b), Some(a)) => {
            Some(CaseClocks { sm_mhz_warmup_start: s, sm_mhz_before: b, sm_mhz_after: a, warmup_ms: (warmup_ms * 10.0).round() / 10.0, warmup_invocations: invocations, stable })
        }
        _ => None,
    };
    Ok((samples, clocks))
}

/// The protocol a sample of `mode` was timed by: events around one graph replay, or events
/// around the stream submissions.
pub(crate) fn protocol_of(mode: &str) -> &'static str {
    if mode == "graph" { GRAPH_REPLAY_EVENTS } else { STREAM_EVENTS }
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

    /// A clock that cannot be read: warm-up by count alone, no clocks recorded.
    struct NoClock(std::time::Instant);

    impl Clock for NoClock {
        fn sm_mhz(&mut self) -> Option<u32> {
            None
        }
        fn now_ms(&mut self) -> f64 {
            self.0.elapsed().as_secs_f64() * 1e3
        }
    }

    fn no_clock() -> NoClock {
        NoClock(std::time::Instant::now())
    }

    /// A card that idles at 345 MHz and reaches 1980 MHz `ramp_ms` after work starts; time
    /// advances 0.05 ms per reading of the timer.
    struct Ramp {
        now: f64,
        ramp_ms: f64,
    }

    impl Clock for Ramp {
        fn sm_mhz(&mut self) -> Option<u32> {
            Some(if self.now < self.ramp_ms { 345 + (1635.0 * self.now / self.ramp_ms) as u32 } else { 1980 })
        }
        fn now_ms(&mut self) -> f64 {
            self.now += 0.05;
            self.now
        }
    }

    #[test]
    fn the_warm_up_waits_for_a_stable_clock_and_records_it() {
        let mut f = Fake { calls: vec![] };
        let (samples, clocks) = measure(&mut f, "s", "c", protocol(1), &mut Ramp { now: 0.0, ramp_ms: 400.0 }, || {}).unwrap();
        let clocks = clocks.unwrap();
        assert!(clocks.stable, "{clocks:?}");
        assert!(clocks.sm_mhz_warmup_start < 400 && clocks.sm_mhz_before == 1980 && clocks.sm_mhz_after == 1980, "{clocks:?}");
        assert!(clocks.warmup_ms >= 400.0, "timing began before the clock settled: {clocks:?}");
        assert!(samples.iter().all(|s| s.protocol.as_deref() == Some(STREAM_EVENTS)));
    }

    #[test]
    fn a_clock_that_never_settles_is_recorded_as_not_stable() {
        let mut f = Fake { calls: vec![] };
        /// A clock that jumps between two steps on every reading, as a throttling card's does.
        struct Flicker {
            now: f64,
            high: bool,
        }
        impl Clock for Flicker {
            fn sm_mhz(&mut self) -> Option<u32> {
                self.high = !self.high;
                Some(if self.high { 1980 } else { 1755 })
            }
            fn now_ms(&mut self) -> f64 {
                self.now += 0.05;
                self.now
            }
        }
        let (_, clocks) = measure(&mut f, "s", "c", protocol(1), &mut Flicker { now: 0.0, high: false }, || {}).unwrap();
        let clocks = clocks.unwrap();
        assert!(!clocks.stable && clocks.warmup_ms >= WARMUP_LIMIT_MS, "{clocks:?}");
    }

    #[test]
    fn without_a_clock_the_warm_up_is_by_count_and_nothing_is_recorded() {
        let mut f = Fake { calls: vec![] };
        let (samples, clocks) = measure(&mut f, "s", "c", protocol(1), &mut no_clock(), || {}).unwrap();
        assert!(clocks.is_none());
        assert_eq!(f.calls.len(), samples.len() + 6);
    }

    #[test]
    fn every_entry_gets_every_round_after_warmup() {
        let mut f = Fake { calls: vec![] };
        let (samples, _) = measure(&mut f, "s", "c", protocol(1), &mut no_clock(), || {}).unwrap();
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
            measure(&mut f, "s", "c", protocol(seed), &mut no_clock(), || {}).unwrap().0
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
        assert!(measure(&mut Nan, "s", "c", protocol(1), &mut no_clock(), || {}).is_err());
    }
}
