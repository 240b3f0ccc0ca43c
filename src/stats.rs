//! Statistics over timing samples. This module owns the `Samples` invariants and the quantile
//! method; it never reads files.
//!
//! Quantiles use numpy's default method (`linear`, type 7 of Hyndman and Fan): for a sorted
//! sample `x[0..n]` and probability `p`, take `h = (n − 1)·p` and interpolate linearly between
//! `x[⌊h⌋]` and `x[⌈h⌉]`. The median is the 0.5 quantile.
//!
//! [`nonparametric`] holds benchstat's statistics: the median's confidence interval from order
//! statistics and the Mann-Whitney U test. [`fences`] drops outliers as benchstat did before
//! 2023, and [`Samples::mean_range`] is the `± X%` it printed then.

use std::fmt;

pub(crate) mod bootstrap;
pub(crate) mod fences;
pub(crate) mod nonparametric;
pub(crate) mod student_t;

/// A non-empty set of finite, non-negative measurements, kept sorted.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    sorted: Vec<f64>,
    sum: f64,
}

/// Why a set of values is not a valid sample.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    #[error("no samples")]
    Empty,
    #[error("sample {index} is not a finite number ({value})")]
    NotFinite { index: usize, value: f64 },
    #[error("sample {index} is negative ({value})")]
    Negative { index: usize, value: f64 },
}

/// A statistic a check can ask for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Statistic {
    Median,
    Mean,
    Min,
    Max,
    Count,
    Stdev,
    /// The values' total: Nsight Systems' `Total Time` of a kernel's launches.
    Sum,
    /// The median absolute deviation, unscaled: the median of the values' distances from their
    /// median, which pyperf prints as `Median +- MAD` ([`Samples::median_abs_dev`]).
    Mad,
    /// The interquartile range, `p75 − p25` by numpy's linear method, as pandas'
    /// `quantile(0.75) - quantile(0.25)` gives it: a spread, in the values' unit.
    Iqr,
    /// A percentile in [0, 100], written `p05`, `p95`, `p99.9`; `p0` and `p100` are the minimum
    /// and the maximum, as pyperf prints its `0th` and `100th percentile`.
    Percentile(f64),
}

impl Samples {
    pub fn new(values: Vec<f64>) -> Result<Samples, SampleError> {
        if values.is_empty() {
            return Err(SampleError::Empty);
        }
        for (index, &value) in values.iter().enumerate() {
            if !value.is_finite() {
                return Err(SampleError::NotFinite { index, value });
            }
            if value < 0.0 {
                return Err(SampleError::Negative { index, value });
            }
        }
        let mut sorted = values;
        sorted.sort_by(f64::total_cmp);
        let sum = sorted.iter().sum();
        Ok(Samples { sorted, sum })
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn sorted(&self) -> &[f64] {
        &self.sorted
    }

    pub fn min(&self) -> f64 {
        self.sorted[0]
    }

    pub fn max(&self) -> f64 {
        self.sorted[self.sorted.len() - 1]
    }

    pub fn mean(&self) -> f64 {
        self.sum / self.sorted.len() as f64
    }

    /// Sample standard deviation (n − 1 in the denominator); zero for one sample.
    pub fn stdev(&self) -> f64 {
        let n = self.sorted.len();
        if n < 2 {
            return 0.0;
        }
        let mean = self.mean();
        let ss: f64 = self.sorted.iter().map(|v| (v - mean) * (v - mean)).sum();
        (ss / (n - 1) as f64).sqrt()
    }

    /// The `p` quantile, `p` in [0, 1], by numpy's linear method.
    pub fn quantile(&self, p: f64) -> f64 {
        quantile_sorted(&self.sorted, p)
    }

    pub fn median(&self) -> f64 {
        self.quantile(0.5)
    }

    /// The median absolute deviation as pyperf computes it (`pyperf/_utils.py`,
    /// `median_abs_dev`): the median of `|x − median|` over the values, with no scale factor
    /// (R's `mad` and SciPy's `median_abs_deviation(scale="normal")` multiply it by 1.4826 to
    /// estimate a normal distribution's standard deviation; pyperf prints it as it is).
    pub fn median_abs_dev(&self) -> f64 {
        let median = self.median();
        let mut deviations: Vec<f64> = self.sorted.iter().map(|v| (v - median).abs()).collect();
        deviations.sort_by(f64::total_cmp);
        quantile_sorted(&deviations, 0.5)
    }

    /// Half the interquartile range, `(q75 − q25) / 2` with numpy's linear quartiles: what
    /// airspeed velocity prints after a median's `±` (asv_runner's `get_err`).
    pub fn half_interquartile_range(&self) -> f64 {
        (self.quantile(0.75) - self.quantile(0.25)) / 2.0
    }

    /// The `± X%` of benchstat before 2023 (`Metrics.FormatDiff`): the larger of the distances
    /// from the mean to the minimum and to the maximum, in percent of the mean,
    /// `100 · max(1 − min/mean, max/mean − 1)`. `None` where the mean or the maximum is zero,
    /// where benchstat printed no `±` at all.
    pub fn mean_range(&self) -> Option<f64> {
        let (mean, max) = (self.mean(), self.max());
        if mean == 0.0 || max == 0.0 {
            return None;
        }
        Some(100.0 * (1.0 - self.min() / mean).max(max / mean - 1.0))
    }

    pub fn statistic(&self, statistic: Statistic) -> f64 {
        match statistic {
            Statistic::Median => self.median(),
            Statistic::Mean => self.mean(),
            Statistic::Min => self.min(),
            Statistic::Max => self.max(),
            Statistic::Count => self.len() as f64,
            Statistic::Stdev => self.stdev(),
            Statistic::Sum => self.sum,
            Statistic::Mad => self.median_abs_dev(),
            Statistic::Iqr => self.quantile(0.75) - self.quantile(0.25),
            Statistic::Percentile(p) => self.quantile(p / 100.0),
        }
    }
}

/// The slope of the least-squares line through the origin of `y` over `x`, Σ(x·y) ÷ Σ(x²), over
/// `(x, y)` pairs: criterion's estimate of one iteration's time in its linear sampling mode,
/// where `x` is a sample's iteration count and `y` its total time. `None` when there is no pair
/// or every `x` is zero, which leave the line undetermined. The caller checks that the values
/// are finite and that `x` is non-negative, where it can say which record broke the rule.
pub fn slope_through_origin(pairs: &[(f64, f64)]) -> Option<f64> {
    slope_of(pairs.iter().copied())
}

/// [`slope_through_origin`] of pairs as they come, summed in their order: the recheck's
/// bootstrap takes the slope of each resample's pairs without gathering them first, and over
/// every pair in file order gets the audit's value to the last bit.
pub(crate) fn slope_of(pairs: impl IntoIterator<Item = (f64, f64)>) -> Option<f64> {
    let (xy, xx) = pairs.into_iter().fold((0.0, 0.0), |(xy, xx), (x, y)| (xy + x * y, xx + x * x));
    (xx > 0.0).then(|| xy / xx)
}

/// The `p` quantile of an already sorted, non-empty slice, by numpy's linear method, with
/// numpy's own interpolation (`_lerp`): from the lower neighbour below the midpoint and from
/// the upper one at or above it, so that the value is the same to the last bit.
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    let (lo, t) = position(sorted.len(), p);
    lerp(sorted[lo], sorted[(lo + 1).min(sorted.len() - 1)], t)
}

/// The quantiles `ps` (each in [0, 1]) of `values`, unsorted and free of NaN, by numpy's
/// linear method: the same bits as [`quantile_sorted`] over the sorted values, found by
/// selection instead of a full sort (`select_nth_unstable_by` in the total order `sort_by`
/// uses, so ties and signed zeros land where the sort puts them). Reorders `values`; the
/// answers are in the order of `ps`.
pub fn quantiles_unsorted(values: &mut [f64], ps: &[f64]) -> Vec<f64> {
    assert!(!values.is_empty(), "a quantile of no values");
    let n = values.len();
    let mut order: Vec<usize> = (0..ps.len()).collect();
    order.sort_by(|&i, &j| ps[i].clamp(0.0, 1.0).total_cmp(&ps[j].clamp(0.0, 1.0)));
    let mut out = vec![0.0; ps.len()];
    // Each selection leaves every value ranked above its index to its right, so the next,
    // higher quantile selects only among those.
    let mut from = 0;
    for i in order {
        let (lo, t) = position(n, ps[i]);
        values[from..].select_nth_unstable_by(lo - from, f64::total_cmp);
        from = lo;
        let a = values[lo];
        let b = values[lo + 1..].iter().copied().min_by(f64::total_cmp).unwrap_or(a);
        out[i] = lerp(a, b, t);
    }
    out
}

/// The lower index of the `p` quantile of `n` sorted values and the weight of the one above.
fn position(n: usize, p: f64) -> (usize, f64) {
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor();
    (lo as usize, h - lo)
}

/// numpy's `_lerp`: from the lower neighbour below the midpoint, from the upper one at or
/// above it.
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let diff = b - a;
    if t >= 0.5 { b - diff * (1.0 - t) } else { a + diff * t }
}

impl Statistic {
    pub fn parse(text: &str) -> Option<Statistic> {
        Some(match text {
            "median" => Statistic::Median,
            "mean" => Statistic::Mean,
            "min" => Statistic::Min,
            "max" => Statistic::Max,
            "count" => Statistic::Count,
            "stdev" => Statistic::Stdev,
            "sum" => Statistic::Sum,
            "mad" => Statistic::Mad,
            "iqr" => Statistic::Iqr,
            _ => {
                let digits = text.strip_prefix('p')?;
                let p: f64 = digits.parse().ok()?;
                if !(0.0..=100.0).contains(&p) || digits.starts_with(['+', '-']) {
                    return None;
                }
                Statistic::Percentile(p)
            }
        })
    }

    /// The key a saved summary stores this statistic under, where it stores it.
    pub fn summary_key(&self) -> Option<&'static str> {
        match self {
            Statistic::Median => Some("median"),
            Statistic::Mean => Some("mean"),
            Statistic::Min => Some("min"),
            Statistic::Max => Some("max"),
            Statistic::Count => Some("n"),
            Statistic::Percentile(p) if *p == 5.0 => Some("p05"),
            Statistic::Percentile(p) if *p == 95.0 => Some("p95"),
            _ => None,
        }
    }
}

impl fmt::Display for Statistic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Statistic::Median => write!(f, "median"),
            Statistic::Mean => write!(f, "mean"),
            Statistic::Min => write!(f, "min"),
            Statistic::Max => write!(f, "max"),
            Statistic::Count => write!(f, "count"),
            Statistic::Stdev => write!(f, "stdev"),
            Statistic::Sum => write!(f, "sum"),
            Statistic::Mad => write!(f, "mad"),
            Statistic::Iqr => write!(f, "iqr"),
            Statistic::Percentile(p) if *p > 0.0 && *p < 10.0 && p.fract() == 0.0 => write!(f, "p0{p}"),
            Statistic::Percentile(p) => write!(f, "p{p}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_empty_nan_and_negative() {
        assert_eq!(Samples::new(vec![]), Err(SampleError::Empty));
        assert!(matches!(Samples::new(vec![1.0, f64::NAN]), Err(SampleError::NotFinite { index: 1, .. })));
        assert!(matches!(Samples::new(vec![1.0, f64::INFINITY]), Err(SampleError::NotFinite { .. })));
        assert!(matches!(Samples::new(vec![-0.5]), Err(SampleError::Negative { index: 0, .. })));
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(Samples::new(vec![3.0, 1.0, 2.0]).unwrap().median(), 2.0);
        assert_eq!(Samples::new(vec![4.0, 1.0, 2.0, 3.0]).unwrap().median(), 2.5);
    }

    #[test]
    fn quantiles_match_numpy_linear() {
        // numpy.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [5, 95]) == [1.45, 9.55]
        let s = Samples::new((1..=10).map(f64::from).collect()).unwrap();
        assert!((s.statistic(Statistic::Percentile(5.0)) - 1.45).abs() < 1e-12);
        assert!((s.statistic(Statistic::Percentile(95.0)) - 9.55).abs() < 1e-12);
        // numpy.percentile([15, 20, 35, 40, 50], 40) == 29.0
        let s = Samples::new(vec![15.0, 20.0, 35.0, 40.0, 50.0]).unwrap();
        assert!((s.quantile(0.4) - 29.0).abs() < 1e-12);
    }

    #[test]
    fn interpolation_follows_numpy_to_the_last_bit() {
        // numpy.percentile([0.1, 0.7], 50) is 0.7 - 0.6 * 0.5 = 0.39999999999999997, where
        // 0.1 + 0.6 * 0.5 would give 0.4.
        let s = Samples::new(vec![0.1, 0.7]).unwrap();
        assert_eq!(s.median(), 0.39999999999999997);
        assert_eq!(s.quantile(1.0), 0.7);
        assert_eq!(Samples::new(vec![5.0]).unwrap().quantile(0.95), 5.0);
    }

    #[test]
    fn parses_statistic_names() {
        assert_eq!(Statistic::parse("p05"), Some(Statistic::Percentile(5.0)));
        assert_eq!(Statistic::parse("p99.9"), Some(Statistic::Percentile(99.9)));
        assert_eq!(Statistic::parse("average"), None);
        assert_eq!(Statistic::Percentile(5.0).to_string(), "p05");
        // pyperf's `0th` and `100th percentile`, the ends, and nothing beyond them.
        assert_eq!(Statistic::parse("p0"), Some(Statistic::Percentile(0.0)));
        assert_eq!(Statistic::parse("p100"), Some(Statistic::Percentile(100.0)));
        assert_eq!((Statistic::Percentile(0.0).to_string(), Statistic::Percentile(100.0).to_string()), ("p0".to_string(), "p100".to_string()));
        for beyond in ["p100.5", "p101", "p-1", "p+5", "p"] {
            assert_eq!(Statistic::parse(beyond), None, "{beyond}");
        }
        assert_eq!(Statistic::parse("mad").map(|s| s.to_string()).as_deref(), Some("mad"));
        assert_eq!(Statistic::parse("sum").map(|s| s.to_string()).as_deref(), Some("sum"));
    }

    /// pyperf's MAD (`_utils.median_abs_dev`): of 1, 2, 3, 4 and 100 the median is 3, the
    /// distances from it 2, 1, 0, 1 and 97, and their median 1, unscaled; of an even count
    /// each median is the mean of the middle two (1, 2, 4, 8: median 3, distances 2, 1, 1, 5,
    /// MAD 1.5).
    #[test]
    fn the_mad_is_the_median_distance_from_the_median() {
        assert_eq!(Samples::new(vec![100.0, 2.0, 3.0, 1.0, 4.0]).unwrap().statistic(Statistic::Mad), 1.0);
        assert_eq!(Samples::new(vec![8.0, 1.0, 4.0, 2.0]).unwrap().median_abs_dev(), 1.5);
        assert_eq!(Samples::new(vec![5.0]).unwrap().median_abs_dev(), 0.0);
        assert_eq!(Statistic::Mad.summary_key(), None);
        // `p0` and `p100` are the ends.
        let s = Samples::new(vec![3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.statistic(Statistic::Percentile(0.0)), s.statistic(Statistic::Percentile(100.0))), (1.0, 3.0));
    }

    /// The interquartile range by numpy's linear quartiles, as pandas' `quantile(0.75) -
    /// quantile(0.25)`: of 1, 2, 4 and 8 the quartiles lie at 0.75 and 2.25 of the way along
    /// the sorted values, 1.75 and 5, so 3.25; of 1, 2, 3, 4 and 100 at the second and fourth
    /// values, 2 and 4, so 2, whatever the outlier.
    #[test]
    fn the_iqr_is_the_distance_between_linear_quartiles() {
        assert_eq!(Samples::new(vec![8.0, 1.0, 4.0, 2.0]).unwrap().statistic(Statistic::Iqr), 3.25);
        assert_eq!(Samples::new(vec![100.0, 2.0, 3.0, 1.0, 4.0]).unwrap().statistic(Statistic::Iqr), 2.0);
        assert_eq!(Samples::new(vec![5.0]).unwrap().statistic(Statistic::Iqr), 0.0);
        assert_eq!(Statistic::parse("iqr"), Some(Statistic::Iqr));
        assert_eq!(Statistic::Iqr.to_string(), "iqr");
        assert_eq!(Statistic::Iqr.summary_key(), None);
    }

    /// A kernel's total time is the sum of its launches' durations (nsys's `Total Time` of the
    /// four saxpy launches of tests/fixtures/harness/nsys: 27,425 ns).
    #[test]
    fn the_sum_is_the_values_total() {
        let s = Samples::new(vec![7072.0, 6945.0, 6816.0, 6592.0]).unwrap();
        assert_eq!(s.statistic(Statistic::Sum), 27425.0);
        assert_eq!(Statistic::Sum.summary_key(), None);
    }

    /// Selection gives the sort's answer to the last bit: random samples with many ties, signed
    /// zeros, one value, and the probabilities the checks use plus random ones.
    #[test]
    fn selection_gives_the_sorted_quantiles_bit_for_bit() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        for round in 0..3000 {
            let n = if round % 10 == 0 { 1 } else { rng.random_range(1..300) };
            let values: Vec<f64> = (0..n)
                .map(|_| match round % 4 {
                    0 => f64::from(rng.random_range(0..5u8)),
                    1 => rng.random_range(0.0..1e3),
                    2 => (rng.random_range(0.0..100.0f64) * 1000.0).round() / 1000.0,
                    _ => [0.0, -0.0, 1.0, 0.1, 0.7, 1e300][rng.random_range(0..6)],
                })
                .collect();
            let mut ps = vec![0.0, 0.05, 0.5, 0.95, 1.0, rng.random_range(0.0..1.0), rng.random_range(0.0..1.0)];
            if round % 2 == 0 {
                ps.reverse();
            }
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            let expected: Vec<u64> = ps.iter().map(|&p| quantile_sorted(&sorted, p).to_bits()).collect();
            let mut scratch = values.clone();
            let got: Vec<u64> = quantiles_unsorted(&mut scratch, &ps).iter().map(|q| q.to_bits()).collect();
            assert_eq!(got, expected, "values {values:?} at {ps:?}");
        }
    }

    /// Three batches of 1, 2 and 3 iterations that took 2.1, 3.9 and 6.3: the line through the
    /// origin has slope (2.1 + 7.8 + 18.9) ÷ (1 + 4 + 9) = 28.8 ÷ 14, not the mean of the
    /// per-iteration times (2.1, 1.95, 2.1).
    #[test]
    fn the_slope_is_the_least_squares_line_through_the_origin() {
        let slope = slope_through_origin(&[(1.0, 2.1), (2.0, 3.9), (3.0, 6.3)]).unwrap();
        assert!((slope - 28.8 / 14.0).abs() < 1e-12, "{slope}");
        assert_eq!(slope_through_origin(&[(0.0, 1.0), (0.0, 2.0)]), None);
        assert_eq!(slope_through_origin(&[]), None);
    }

    #[test]
    fn stdev_uses_n_minus_one() {
        let s = Samples::new(vec![2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert!((s.stdev() - 2.138089935299395).abs() < 1e-12);
    }
}
