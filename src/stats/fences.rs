//! Tukey's fences: the values a sample keeps once its outliers are dropped, as benchstat
//! before 2023 dropped them before every number it printed (its mean, its `± X%`, its
//! p-value and its `n=`), and as `pyperf stats` counts them (`Number of outlier (out of
//! 4.07 us..4.44 us): 9`) with quartiles of its own ([`tukey_linear`]).
//!
//! The rule, from `golang.org/x/perf/benchstat` (`data.go`, `Metrics.computeStats`, in
//! `golang/perf` before commit `02c5517`, which replaced that benchstat in 2023): take the
//! first and third quartiles `q1` and `q3`, and keep each value `v` with
//! `q1 − 1.5·(q3 − q1) ≤ v ≤ q3 + 1.5·(q3 − q1)`, in the order given. The quartiles are
//! `internal/stats`' `Sample.Percentile`, type 8 of Hyndman and Fan (median-unbiased), not
//! numpy's linear method that [`super::quantile_sorted`] follows: for `n` sorted values and
//! probability `p`, the position is `h = 1/3 + p·(n + 1/3)`; with `k = ⌊h⌋`, the value is `x[0]`
//! where `k ≤ 0`, `x[n − 1]` where `k ≥ n`, and otherwise `x[k − 1] + (h − k)·(x[k] − x[k − 1])`
//! (one-based `x[k]`, written zero-based here).
//!
//! Hyndman and Fan, "Sample quantiles in statistical packages", The American Statistician 50
//! (1996) 361–365, <https://doi.org/10.2307/2684934>.

use super::Samples;

/// The fences of a sample, and what they keep.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fenced {
    /// The values inside the fences.
    pub(crate) kept: Samples,
    /// How many values fell outside.
    pub(crate) dropped: usize,
    /// The lower and upper fence.
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

/// The values of `samples` inside Tukey's fences (see the module's documentation). Never
/// empty: the fences hold the quartiles, and a value lies between them.
pub(crate) fn tukey(samples: &Samples) -> Fenced {
    let sorted = samples.sorted();
    fenced(samples, quantile_r8(sorted, 0.25), quantile_r8(sorted, 0.75))
}

/// The values of `samples` inside Tukey's fences around quartiles taken by linear
/// interpolation (numpy's method, [`Samples::quantile`]), as `pyperf stats` takes them
/// (`pyperf/_cli.py`, `format_stats`: `bench.percentile(25)` and `(75)`, whose
/// `_utils.percentile` interpolates between the order statistics at (n − 1)·p), keeping each
/// value `v` with `q1 − 1.5·iqr ≤ v ≤ q3 + 1.5·iqr` as it does. Type 8 and these quartiles
/// differ by a fraction of the gap between two order statistics, which moves a fence past a
/// value often enough: of pyperf's own `doc/outliers.json.gz`, type 8's fences leave 8 values
/// out where pyperf counts 9.
pub(crate) fn tukey_linear(samples: &Samples) -> Fenced {
    fenced(samples, samples.quantile(0.25), samples.quantile(0.75))
}

/// The values of `samples` between the fences 1.5 interquartile ranges beyond `q1` and `q3`.
fn fenced(samples: &Samples, q1: f64, q3: f64) -> Fenced {
    let sorted = samples.sorted();
    let (lo, hi) = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1));
    let kept: Vec<f64> = sorted.iter().copied().filter(|v| lo <= *v && *v <= hi).collect();
    let dropped = sorted.len() - kept.len();
    // Every value between the quartiles is kept, and the median is one of them or lies between
    // two; so the kept set is never empty, and the values were valid samples already.
    let kept = Samples::new(kept).unwrap_or_else(|_| samples.clone());
    Fenced { kept, dropped, lo, hi }
}

/// The `p` quantile of sorted, non-empty `sorted` by type 8 of Hyndman and Fan, as Go's
/// `internal/stats` computes it (see the module's documentation).
pub(crate) fn quantile_r8(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if p <= 0.0 {
        return sorted[0];
    }
    if p >= 1.0 {
        return sorted[n - 1];
    }
    let h = 1.0 / 3.0 + p * (n as f64 + 1.0 / 3.0);
    let k = h.floor();
    let frac = h - k;
    match k as usize {
        0 => sorted[0],
        k if k >= n => sorted[n - 1],
        k => sorted[k - 1] + frac * (sorted[k] - sorted[k - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(values: &[f64]) -> Samples {
        Samples::new(values.to_vec()).unwrap()
    }

    /// Type 8 on 1..=10: h = 1/3 + 0.25·(10 + 1/3) = 2.9167, so the first quartile is
    /// 2 + 0.9167·(3 − 2) = 2.9167, and the third 8.0833; numpy's linear method gives 3.25 and
    /// 7.75.
    #[test]
    fn quartiles_are_type_eight() {
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        assert!((quantile_r8(&x, 0.25) - (2.0 + 11.0 / 12.0)).abs() < 1e-12, "{}", quantile_r8(&x, 0.25));
        assert!((quantile_r8(&x, 0.75) - (8.0 + 1.0 / 12.0)).abs() < 1e-12, "{}", quantile_r8(&x, 0.75));
        assert_eq!(quantile_r8(&x, 0.0), 1.0);
        assert_eq!(quantile_r8(&x, 1.0), 10.0);
        assert_eq!(quantile_r8(&[4.0], 0.25), 4.0);
        assert_eq!(quantile_r8(&[4.0, 6.0], 0.25), 4.0);
        assert_eq!(quantile_r8(&[4.0, 6.0], 0.75), 6.0);
    }

    /// benchstat's `CRC32/poly=IEEE/size=40/align=0-8` in its own test data before 2023
    /// (`cmd/benchstat/testdata/old.txt`): ten times, of which benchstat printed `41.0ns ± 1%`
    /// and `n=8` in `oldnew.golden`, so two were dropped.
    #[test]
    fn benchstats_own_row_keeps_eight_of_ten() {
        let old = [41.0, 43.0, 40.9, 42.3, 41.0, 41.0, 41.3, 40.8, 41.1, 41.2];
        let fenced = tukey(&samples(&old));
        assert_eq!((fenced.kept.len(), fenced.dropped), (8, 2), "{fenced:?}");
        assert_eq!(fenced.kept.max(), 41.3);
        assert_eq!(format!("{:.1}", fenced.kept.mean()), "41.0");
        assert_eq!(format!("{:.0}", fenced.kept.mean_range().unwrap()), "1");
    }

    #[test]
    fn nothing_is_dropped_from_a_tight_sample_or_a_single_value() {
        let fenced = tukey(&samples(&[10.0, 10.1, 9.9, 10.0]));
        assert_eq!((fenced.kept.len(), fenced.dropped), (4, 0));
        let one = tukey(&samples(&[3.0]));
        assert_eq!((one.kept.len(), one.dropped, one.lo, one.hi), (1, 0, 3.0, 3.0));
    }

    /// A value on a fence is kept: the test is `lo ≤ v ≤ hi`, not strict.
    #[test]
    fn a_value_on_a_fence_is_kept() {
        // Quartiles of 0,0,0,0,1,1,1,1 by type 8 are 0 and 1, so the fences are −1.5 and 2.5.
        let mut x = vec![0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
        assert_eq!((quantile_r8(&x, 0.25), quantile_r8(&x, 0.75)), (0.0, 1.0));
        x.push(2.5);
        let fenced = tukey(&samples(&x));
        assert_eq!(fenced.dropped, 0, "{fenced:?}");
    }

    /// Of 1 … 10 and 17, numpy's (and pyperf's) linear quartiles are 3.5 and 8.5, whose fences
    /// -4 and 16 leave 17 out, as `pyperf stats` counts it; type 8's are 3.1667 and 8.8333,
    /// whose upper fence 17.33 keeps it.
    #[test]
    fn linear_quartiles_fence_as_pyperf_counts() {
        let mut x: Vec<f64> = (1..=10).map(f64::from).collect();
        x.push(17.0);
        let linear = tukey_linear(&samples(&x));
        assert_eq!((linear.lo, linear.hi, linear.dropped), (-4.0, 16.0, 1));
        assert_eq!(linear.kept.max(), 10.0);
        let r8 = tukey(&samples(&x));
        assert_eq!(r8.dropped, 0);
        assert!((r8.hi - (17.0 + 1.0 / 3.0)).abs() < 1e-12, "{}", r8.hi);
    }
}
