//! criterion's confidence interval of a benchmark's estimate, the two outer numbers it prints
//! on a benchmark's `time:` line (`[4.3631 ms 4.4056 ms 4.4546 ms]`), recomputed from the
//! samples it saved. This module owns the bootstrap and the allowance for its randomness; it
//! never reads files.
//!
//! criterion (bheisler/criterion.rs 0.5.1) prints the mean of the per-iteration times where a
//! benchmark was sampled in its flat mode, and the slope through the origin of each batch's
//! time over its iterations in its linear mode (`analysis/mod.rs`). Around either it prints the
//! percentile bootstrap interval: it draws `nresamples` resamples of the samples with
//! replacement (100,000 unless configured; whole (iterations, time) pairs for the slope), takes
//! the estimate of each, and reads the `50 · (1 − cl)` and `50 · (1 + cl)` percentiles of those
//! estimates (`stats/univariate/sample.rs`, `bootstrap`; `stats/univariate/percentiles.rs`,
//! `at`, which interpolates linearly between order statistics), `cl` being its
//! `confidence_level`, 0.95 unless configured.
//!
//! criterion seeds its generator from the clock, so its bounds cannot be drawn again: two
//! bootstraps of the same samples differ in their bounds' last digits. What can be said is
//! where criterion's bound lies with all but negligible probability, given the samples. A
//! percentile of `B` bootstrap estimates is an order statistic whose rank, over repeated
//! bootstraps, has a standard deviation of about √(B·p·(1 − p)) ranks. claimcheck draws its own
//! `B` resamples from a fixed seed, so that an audit gives the same result every time, and the
//! difference between criterion's draw and this one spans about √2 times that. The band around
//! each bound is therefore the estimates `Z · √2 · √(B·p·(1 − p))` ranks either side of it in
//! this bootstrap, with `Z` = 3.89 (two-sided 99.99 %). At criterion's defaults and 300 samples
//! that is about 5 % of the estimate's standard error, far inside the interval's own half-width
//! of 1.96 standard errors, so a bound quoted from another benchmark or another run still
//! falls outside it.

use rand::{Rng, SeedableRng};

/// criterion's `nresamples` when not configured.
pub(crate) const CRITERION_RESAMPLES: usize = 100_000;

/// criterion's `confidence_level` when not configured.
pub(crate) const CRITERION_CONFIDENCE: f64 = 0.95;

/// Φ⁻¹(0.975): where the normal approximation places a bound at criterion's default
/// confidence, in standard errors from the estimate.
pub(crate) const CRITERION_NORMAL_QUANTILE: f64 = 1.959_964;

/// The most values one bootstrap draws (resamples × samples), about ten seconds' work: criterion's
/// default 100,000 resamples of 20,000 samples. A registry is data, and one that asked for more
/// would hold the audit for hours.
pub(crate) const MAX_DRAWS: usize = 2_000_000_000;

/// The normal quantile for a two-sided 99.99 % band (Φ⁻¹(0.99995)).
const Z: f64 = 3.8906;

/// The seed of every bootstrap here: fixed, so that an audit of the same samples gives the
/// same bounds and the same verdict every time.
const SEED: u64 = 0x5eed_c417_e410_0001;

/// One bound of the interval: the value this bootstrap gives, and the band where criterion's
/// own draw of it lies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bound {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// What criterion estimates from a benchmark's samples.
pub(crate) enum Estimate<'a> {
    /// Flat sampling: the mean of the per-iteration times.
    Mean(&'a [f64]),
    /// Linear sampling: the slope through the origin of each batch's time (`.1`) over its
    /// iterations (`.0`).
    Slope(&'a [(f64, f64)]),
}

impl Estimate<'_> {
    fn len(&self) -> usize {
        match self {
            Estimate::Mean(values) => values.len(),
            Estimate::Slope(pairs) => pairs.len(),
        }
    }

    /// The estimate over one resample drawn from `rng`. Each sum is kept in four parts, so
    /// that the additions do not wait on one another: a resample of 300 costs about a third of
    /// the time one running sum takes.
    fn resample(&self, rng: &mut impl Rng) -> f64 {
        let n = self.len();
        let mut a = [0.0f64; 4];
        let mut b = [0.0f64; 4];
        match self {
            Estimate::Mean(values) => {
                for k in 0..n {
                    a[k & 3] += values[rng.random_range(0..n)];
                }
                (a[0] + a[1] + a[2] + a[3]) / n as f64
            }
            Estimate::Slope(pairs) => {
                for k in 0..n {
                    let (x, y) = pairs[rng.random_range(0..n)];
                    a[k & 3] += x * y;
                    b[k & 3] += x * x;
                }
                (a[0] + a[1] + a[2] + a[3]) / (b[0] + b[1] + b[2] + b[3])
            }
        }
    }
}

/// The bootstrap distribution of `estimate` over `resamples` resamples, sorted; `None` for
/// fewer than two samples, where no resample differs from the sample.
pub(crate) fn distribution(estimate: &Estimate<'_>, resamples: usize) -> Option<Vec<f64>> {
    let n = estimate.len();
    if n < 2 || resamples < 2 {
        return None;
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(SEED);
    let mut out: Vec<f64> = (0..resamples).map(|_| estimate.resample(&mut rng)).collect();
    out.sort_by(f64::total_cmp);
    Some(out)
}

/// The lower (`upper = false`) or upper bound of the `confidence` interval read from a sorted
/// bootstrap distribution as criterion reads it, with the band its own draw lies in.
pub(crate) fn bound(sorted: &[f64], confidence: f64, upper: bool) -> Bound {
    let percent = if upper { 50.0 * (1.0 + confidence) } else { 50.0 * (1.0 - confidence) };
    let last = (sorted.len() - 1) as f64;
    let at = |rank: f64| {
        let rank = rank.clamp(0.0, last);
        let below = rank.floor();
        let k = below as usize;
        let above = sorted.get(k + 1).copied().unwrap_or(sorted[k]);
        sorted[k] + (above - sorted[k]) * (rank - below)
    };
    let rank = percent / 100.0 * last;
    let p = percent / 100.0;
    let spread = Z * std::f64::consts::SQRT_2 * (sorted.len() as f64 * p * (1.0 - p)).sqrt();
    Bound { value: at(rank), low: at(rank - spread), high: at(rank + spread) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the estimate is a known normal mean, the bounds land where theory puts them, the
    /// band is narrow beside the interval, and a second seed's bound falls inside the first's
    /// band.
    #[test]
    fn the_bounds_of_a_mean_are_its_percentile_interval_and_the_band_is_narrow() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let values: Vec<f64> = (0..300).map(|_| 100.0 + rng.random_range(-10.0..10.0)).collect();
        let sorted = distribution(&Estimate::Mean(&values), CRITERION_RESAMPLES).unwrap();
        let mean = values.iter().sum::<f64>() / 300.0;
        let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 300.0).sqrt();
        let se = sd / 300f64.sqrt();
        let (lo, hi) = (bound(&sorted, 0.95, false), bound(&sorted, 0.95, true));
        assert!((lo.value - (mean - 1.96 * se)).abs() < 0.05 * se, "{lo:?} {mean} {se}");
        assert!((hi.value - (mean + 1.96 * se)).abs() < 0.05 * se, "{hi:?} {mean} {se}");
        assert!(lo.low < lo.value && lo.value < lo.high && hi.high - hi.low < 0.15 * se, "{lo:?} {hi:?}");
        // Another draw of the same bootstrap, as criterion's own would be.
        let mut other = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let mut means: Vec<f64> = (0..CRITERION_RESAMPLES).map(|_| (0..300).map(|_| values[other.random_range(0..300)]).sum::<f64>() / 300.0).collect();
        means.sort_by(f64::total_cmp);
        let theirs = bound(&means, 0.95, false).value;
        assert!(lo.low <= theirs && theirs <= lo.high, "{theirs} outside {lo:?}");
    }

    #[test]
    fn a_slope_resamples_whole_pairs_and_one_sample_has_no_interval() {
        // Every batch takes exactly 2 ns an iteration: every resample's slope is 2.
        let pairs: Vec<(f64, f64)> = (1..=50).map(|k| (k as f64, 2.0 * k as f64)).collect();
        let sorted = distribution(&Estimate::Slope(&pairs), 1000).unwrap();
        assert!(sorted.iter().all(|&s| (s - 2.0).abs() < 1e-12));
        assert_eq!(bound(&sorted, 0.95, true), Bound { value: 2.0, low: 2.0, high: 2.0 });
        assert!(distribution(&Estimate::Mean(&[1.0]), 1000).is_none());
    }
}
