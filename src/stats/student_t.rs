//! Student's t distribution, for the confidence interval of a mean that JMH prints as a
//! score's `Error`. This module owns the inverse of t's cumulative distribution function and
//! the interval built from it; it never reads files.
//!
//! JMH (openjdk/jmh at 139694248ced741a9491c253a3422a19371c32a9,
//! `jmh-core/src/main/java/org/openjdk/jmh/util/AbstractStatistics.java`, `getMeanErrorAt`)
//! prints `Score ± Error` with `Error = t(1 − (1 − c)/2, n − 1) · s / √n`, where `c` is 0.999
//! (`results/Result.java`, `getScoreError`), `s` the standard deviation with n − 1 in its
//! denominator (`util/ListStatistics.java`, `getVariance`), and `t` the quantile of Student's
//! t with n − 1 degrees of freedom that Apache Commons Math's `TDistribution` finds. For two
//! samples or fewer JMH has no error (`NaN`) and prints none.
//!
//! The quantile is found here from the distribution function itself, so that no table limits
//! the degrees of freedom: F(t) = 1 − ½ I_{ν/(ν+t²)}(ν/2, ½) for t ≥ 0, with I the regularized
//! incomplete beta function (its continued fraction, evaluated by Lentz's method), inverted by
//! bisection to the last bit. Commons Math solves for the same quantile to an absolute accuracy
//! of 10⁻⁹, so JMH's errors and these agree to about nine significant digits, far below the
//! three decimals JMH prints.

use super::Samples;

/// The half-width of the `confidence` interval of the mean of `samples` by Student's t (JMH's
/// `Error` at `confidence = 0.999`), or `None` for two values or fewer, where JMH has none,
/// or a confidence outside (0, 1). `s` is [`Samples::stdev`], with n − 1 in its denominator as
/// JMH's.
pub(crate) fn mean_error(samples: &Samples, confidence: f64) -> Option<f64> {
    let n = samples.len();
    if n <= 2 || !(confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    let t = quantile(1.0 - (1.0 - confidence) / 2.0, (n - 1) as f64)?;
    Some(t * samples.stdev() / (n as f64).sqrt())
}

/// The `p` quantile of Student's t with `df` degrees of freedom: the t with F(t) = p. `None`
/// for `p` outside (0, 1) or `df` not positive.
pub(crate) fn quantile(p: f64, df: f64) -> Option<f64> {
    if !(p > 0.0 && p < 1.0 && df > 0.0 && df.is_finite()) {
        return None;
    }
    if p < 0.5 {
        return quantile(1.0 - p, df).map(|t| -t);
    }
    if p == 0.5 {
        return Some(0.0);
    }
    // The upper tail 1 − p is exact for p ≥ ½ (the subtraction of two floats within a factor
    // of two of each other is), and the tail is what the incomplete beta function gives
    // without cancellation, so the search compares tails: for p near 1 a comparison of F(t)
    // with p would lose the digits that 1 − F(t) holds.
    let tail = 1.0 - p;
    // Bracket the quantile, then halve the bracket until it cannot shrink: the tail falls
    // monotonically, so bisection cannot miss and needs no derivative.
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while upper_tail(hi, df) > tail {
        lo = hi;
        hi *= 2.0;
        if !hi.is_finite() {
            return None;
        }
    }
    for _ in 0..2000 {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if upper_tail(mid, df) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo + (hi - lo) / 2.0)
}

/// 1 − F(t) for t ≥ 0: ½ I_{ν/(ν+t²)}(ν/2, ½).
fn upper_tail(t: f64, df: f64) -> f64 {
    0.5 * incomplete_beta(df / (df + t * t), df / 2.0, 0.5)
}

/// The regularized incomplete beta function I_x(a, b), for x in [0, 1] and a, b > 0.
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    // x^a (1 − x)^b / (a B(a, b)), in logarithms so that large a and b do not overflow.
    // ln Γ is FreeBSD's, through `libm`, as `stats::nonparametric` takes it.
    let front = (libm::lgamma(a + b) - libm::lgamma(a) - libm::lgamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    // The continued fraction converges fast only below the mean of the beta distribution;
    // above it the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) is used.
    if x < (a + 1.0) / (a + b + 2.0) { front * beta_fraction(x, a, b) / a } else { 1.0 - front * beta_fraction(1.0 - x, b, a) / b }
}

/// The continued fraction of the incomplete beta function, by the modified Lentz method
/// (Numerical Recipes, 3rd ed., §6.4).
fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=10_000 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        // The even step of the fraction, then the odd one.
        for aa in [m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))] {
            d = 1.0 + aa * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + aa / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            h *= d * c;
        }
        if (d * c - 1.0).abs() < f64::EPSILON {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published two-sided critical values (the 0.9995 quantile for a 99.9 % interval, and
    /// others), to the digits the tables print: NIST/SEMATECH e-Handbook of Statistical
    /// Methods, table 1.3.6.7.2, and any textbook's t table.
    #[test]
    fn quantiles_equal_published_table_values() {
        let table = [
            (0.9995, 1.0, 636.619),
            (0.9995, 2.0, 31.599),
            (0.9995, 3.0, 12.924),
            (0.9995, 4.0, 8.610),
            (0.9995, 9.0, 4.781),
            (0.9995, 19.0, 3.883),
            (0.9995, 24.0, 3.745),
            (0.9995, 29.0, 3.659),
            (0.9995, 59.0, 3.463),
            (0.9995, 99.0, 3.392),
            (0.975, 1.0, 12.706),
            (0.975, 9.0, 2.262),
            (0.975, 30.0, 2.042),
            (0.95, 10.0, 1.812),
            (0.995, 5.0, 4.032),
        ];
        for (p, df, printed) in table {
            let t = quantile(p, df).unwrap();
            assert_eq!((t * 1000.0).round() / 1000.0, printed, "t({p}, {df}) = {t}");
        }
    }

    /// The 0.9995 quantiles to twelve significant digits, against the same function evaluated
    /// in 40-digit arithmetic (mpmath 1.3: `betainc` inverted by bisection), the degrees of
    /// freedom JMH's default runs give (one fork of 3 iterations, 1 of 10, 1 of 20).
    #[test]
    fn quantiles_are_accurate_to_twelve_digits() {
        for (df, exact) in [(1.0, 636.619_248_768_719_6), (2.0, 31.599_054_576_443_62), (3.0, 12.923_978_636_687_48), (9.0, 4.780_912_585_931_139), (19.0, 3.883_405_852_592_083)] {
            let t = quantile(0.9995, df).unwrap();
            assert!((t - exact).abs() <= 1e-12 * exact, "df {df}: {t} vs {exact}");
        }
    }

    /// The closed forms: one degree of freedom is Cauchy's distribution, t = cot(π(1 − p)) (the
    /// cotangent of the tail, which keeps its digits where p nears 1); two have t = (2p − 1) /
    /// √(2p(1 − p)). Both to twelve significant digits, out to a tail of 10⁻⁶.
    #[test]
    fn quantiles_equal_the_closed_forms_of_one_and_two_degrees() {
        for p in [0.6, 0.9, 0.975, 0.9995, 0.999_999] {
            let cauchy = 1.0 / (std::f64::consts::PI * (1.0 - p)).tan();
            let t1 = quantile(p, 1.0).unwrap();
            assert!((t1 - cauchy).abs() <= 1e-12 * cauchy.abs(), "df 1, p {p}: {t1} vs {cauchy}");
            let two = (2.0 * p - 1.0) / (2.0 * p * (1.0 - p)).sqrt();
            let t2 = quantile(p, 2.0).unwrap();
            assert!((t2 - two).abs() <= 1e-12 * two.abs(), "df 2, p {p}: {t2} vs {two}");
        }
    }

    /// Many degrees of freedom approach the normal distribution: 3.2905 at 0.9995.
    #[test]
    fn many_degrees_approach_the_normal_quantile() {
        let t = quantile(0.9995, 1e7).unwrap();
        assert!((t - 3.290_526_731_491_9).abs() < 1e-5, "{t}");
        assert_eq!(quantile(0.5, 4.0), Some(0.0));
        assert_eq!(quantile(0.0005, 9.0).map(|t| (t * 1000.0).round() / 1000.0), Some(-4.781));
    }

    #[test]
    fn nonsense_arguments_have_no_quantile() {
        assert_eq!(quantile(0.0, 3.0), None);
        assert_eq!(quantile(1.0, 3.0), None);
        assert_eq!(quantile(f64::NAN, 3.0), None);
        assert_eq!(quantile(0.9, 0.0), None);
        assert_eq!(quantile(0.9, f64::INFINITY), None);
    }

    /// JMH prints no error for two samples or fewer, and the error of ten is t(0.9995, 9) times
    /// the standard error.
    #[test]
    fn the_mean_error_is_jmh_s() {
        assert_eq!(mean_error(&Samples::new(vec![1.0, 2.0]).unwrap(), 0.999), None);
        let values = Samples::new((1..=10).map(f64::from).collect()).unwrap();
        let se = (110.0_f64 / 12.0).sqrt() / 10.0_f64.sqrt();
        let err = mean_error(&values, 0.999).unwrap();
        assert!((err - 4.780_912_585_931_139 * se).abs() < 1e-12 * se, "{err}");
    }
}
