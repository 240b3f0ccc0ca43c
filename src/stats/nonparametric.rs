//! benchstat's non-parametric statistics: the confidence interval of a sample's median from its
//! order statistics, and the two-sided Mann-Whitney U test of two samples; and the Vargha-Delaney
//! Â12 of two samples, which is that test's U over the number of pairs. This module owns that
//! arithmetic, as benchstat does it; it never reads files and never formats a table. scipy's
//! Wilcoxon signed-rank test of paired samples and Holm's adjustment are in [`signed_rank`].
//!
//! # What benchstat computes
//!
//! Read in `golang.org/x/perf` at commit `712aea8b47053b2e77c04820a5032254b347cf96`
//! (2026-06-10), whose `go.mod` pins `github.com/aclements/go-moremath` at
//! `f10218a38794e5bdebc62889bae58d4d8a458de8` (2021-01-12), where the statistics live. Both are
//! BSD-3-Clause; what follows is our description and our implementation, not their code.
//!
//! benchstat (`cmd/benchstat`, the version whose table reads `sec/op … vs base`) reads
//! `ns/op` as `sec/op`, each value multiplied by 1e-9 (`benchunit/tidy.go`), and summarises
//! every cell under the default assumption `benchmath.AssumeNothing` (`benchmath/anone.go`):
//!
//! - **The centre** is the sample median, by go-moremath's `Sample.Quantile`
//!   (`stats/sample.go`): Hyndman and Fan's type 8, position `h = 1/3 + q·(n + 1/3)` (1-based),
//!   interpolated between the two order statistics around it. At q = 0.5 that is the middle
//!   value, or the mean of the middle two, as numpy's median is; [`median_interval`] follows
//!   go-moremath's floating-point steps so that the centre is benchstat's to the last bit
//!   (given the same values).
//! - **The interval** (`stats/quantileci.go`, `QuantileCI(n, 0.5, confidence)`, `confidence`
//!   0.95 unless `-confidence` says otherwise) is bounded by two order statistics. The number
//!   of samples below the population median is binomial, Bin(n, ½). For n ≤ 30 the interval
//!   starts at that distribution's mode `k = ⌈(n + 1)/2⌉ − 1` and grows one value at a time
//!   towards the more probable neighbour, to the left when both compare equal (whether two
//!   mirror-image neighbours do is up to floating point, see [`binomial_pmf`]), until its
//!   probability reaches the confidence; the orders are its ends `[l, r)`, and the interval
//!   is `x(l)` to `x(r)` (1-based). For n > 30 it takes the normal approximation N(n/2, n/4):
//!   the central `confidence` of it, `[l₁, 2μ − l₁]` with `l₁` the normal quantile at
//!   `(1 − confidence)/2`, rounded out to the half-integers of the continuity correction, and
//!   one order narrower on the right where that still holds the confidence and holds less. An
//!   order below 1 or above n is an infinite bound (too few samples for the confidence).
//! - **`± X%`** (`Summary.PctRangeString`, `benchmath/sample.go`) is the interval's wider side
//!   as a percentage of the centre, `100 · max(hi/centre − 1, 1 − lo/centre)`, printed by Go's
//!   `%.0f`: correctly rounded from the binary value, exact ties to even. `0%` is a side under
//!   half a percent (or a centre of zero with both bounds zero); an infinite bound prints `∞`,
//!   and a bound whose sign differs from the centre's (a bound of 0 under a positive median)
//!   prints `?`.
//! - **The comparison** of each cell with the base column's (`assumeNothing.Compare`) is
//!   go-moremath's `MannWhitneyUTest(base, new, LocationDiffers)` (`stats/utest.go`), two-sided.
//!   U is the number of (base, new) pairs in which the base value is larger, a tie counting ½,
//!   from the rank sum with tied values given their mean rank. The p-value is exact when
//!   neither sample has more than 50 values and no value repeats, or neither has more than 25
//!   and some value repeats (`stats/udist.go` counts the arrangements, by Cheung and Klotz's
//!   method when there are ties): twice the probability of a U at most the smaller of U and
//!   n₁n₂ − U, or 1 when the two are equal. Given ties that distribution need not be
//!   symmetric, so the exact p-value then depends on which sample is first: benchstat puts the
//!   base first. Otherwise it is the normal approximation with the tie correction,
//!   σ² = n₁n₂((N + 1) − Σ(t³ − t)/(N(N − 1)))/12 over the tie groups' sizes t, and the
//!   continuity correction, |U − n₁n₂/2| − ½, two-sided. **At n = 30 per side a
//!   single repeated value switches the test from the exact distribution to the normal
//!   approximation.** When every value of both samples is the same the test is undefined,
//!   and benchstat reports p = 1 (with a warning). It prints `p=%0.3f` (`Comparison.String`),
//!   leaving the p-value out when it is exactly 0, and the change `~` when p exceeds α = 0.05.
//!
//! benchstat before 2023 (the `benchstat/` package, `name  old time/op  new time/op  delta`)
//! printed other numbers: the mean of the values left after dropping those beyond 1.5
//! interquartile ranges of the quartiles, `±` the wider side of those values' range around it
//! (`Metrics.FormatDiff`, `benchstat/data.go`), and the same U test (`internal/stats/utest.go`,
//! go-moremath's but for one helper) of those values only. The interval here is not that `±`:
//! [`super::fences`] drops those values, [`super::Samples::mean_range`] is that `±`, and the
//! test here over the values kept is that benchstat's p-value.
//!
//! # How this follows it
//!
//! The interval's orders are computed in go-moremath's steps: for n ≤ 30 from the binomial
//! probabilities computed as it computes them (whose rounding decides which of two equally
//! probable neighbours joins the interval first, see [`binomial_pmf`]), above by its normal
//! approximation, with Acklam's inverse normal and one refinement step. Checked against
//! go-moremath's own `QuantileCI` (built with Go 1.19 on amd64) for every n from 1 to 400 at
//! confidences 0.5, 0.8, 0.9, 0.95, 0.99 and 0.999: the same orders in all 2,400 cases. The
//! exact U distribution is counted in integers (`u128`: at most C(100, 50) arrangements), which
//! gives go-moremath's floating-point probabilities to within a few units in the last place.
//! benchstat itself, built from the two commits above and run on the two files of
//! `examples/tattle-benchstat`, prints the table that example audits, every `± X%` and p-value
//! as this module computes them.
//!
//! Values are taken in the unit they are read in (nanoseconds for `go test`'s `ns/op`), not in
//! benchstat's seconds: a ratio of two values and a ranking do not depend on the unit, but the
//! last bit of a ratio may, so a percentage that is a decimal tie at the printed precision can
//! round to the other neighbour; claimcheck's matching rule lets both neighbours of such a tie
//! match.

pub(crate) mod signed_rank;

/// The median of a sorted sample and benchstat's confidence interval around it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MedianInterval {
    /// The median, by go-moremath's quantile (type 8, which at 0.5 is the usual median).
    pub center: f64,
    /// The lower bound, `x(lo_order)`; −∞ when `lo_order` is 0.
    pub lo: f64,
    /// The upper bound, `x(hi_order)`; +∞ when `hi_order` is n + 1.
    pub hi: f64,
    pub orders: Orders,
}

/// The order statistics that bound the median's interval, 1-based, and the interval's actual
/// confidence, at least the one asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Orders {
    /// 0 when the interval has no lower bound.
    pub lo: usize,
    /// n + 1 when the interval has no upper bound.
    pub hi: usize,
    pub confidence: f64,
}

/// What benchstat prints after `±` for an interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Spread {
    /// The wider side as a percentage of the median, before rounding: `%.0f` of it is printed.
    Percent(f64),
    /// A bound is infinite: benchstat prints `∞`.
    Unbounded,
    /// A bound's sign differs from the median's: benchstat prints `?`.
    SignsDiffer,
}

/// The median of `sorted` (ascending, non-empty) and its interval at `confidence`, as benchstat
/// summarises a sample.
pub(crate) fn median_interval(sorted: &[f64], confidence: f64) -> MedianInterval {
    let n = sorted.len();
    let orders = median_orders(n, confidence);
    let lo = if orders.lo < 1 { f64::NEG_INFINITY } else { sorted[orders.lo - 1] };
    let hi = if orders.hi > n { f64::INFINITY } else { sorted[orders.hi - 1] };
    MedianInterval { center: type8_median(sorted), lo, hi, orders }
}

impl MedianInterval {
    /// benchstat's `± X%`: the interval's wider side in percent of the median.
    pub(crate) fn spread(&self) -> Spread {
        if self.lo.is_infinite() || self.hi.is_infinite() {
            return Spread::Unbounded;
        }
        let center = sign(self.center);
        if center != sign(self.lo) || center != sign(self.hi) {
            return Spread::SignsDiffer;
        }
        if self.center == 0.0 {
            // Both bounds are zero too, or the signs would differ.
            return Spread::Percent(0.0);
        }
        Spread::Percent(100.0 * (self.hi / self.center - 1.0).max(1.0 - self.lo / self.center))
    }
}

/// The fewest samples whose median has a finite interval at `confidence`, looked for up to 50
/// as benchstat looks before it warns `need >= N samples`; `None` past 50.
pub(crate) fn samples_for_finite_interval(confidence: f64) -> Option<usize> {
    (2..=50).find(|&n| {
        let orders = median_orders(n, confidence);
        orders.lo > 0 && orders.hi <= n
    })
}

/// The orders bounding the median's interval in a sample of `n` at `confidence`, by
/// go-moremath's `QuantileCI` at q = 0.5 (see the module's documentation).
pub(crate) fn median_orders(n: usize, confidence: f64) -> Orders {
    if confidence >= 1.0 {
        return Orders { lo: 0, hi: n + 1, confidence: 1.0 };
    }
    if n <= EXACT_ORDERS_UP_TO { exact_orders(n, confidence) } else { approximate_orders(n, confidence) }
}

/// The largest sample whose median's interval comes from the binomial distribution itself;
/// larger ones take its normal approximation (go-moremath's `quantileCIApproxThreshold`).
const EXACT_ORDERS_UP_TO: usize = 30;

/// The interval grown from the mode of Bin(n, ½), one value at a time towards the more
/// probable neighbour (the left one when they compare equal), until it holds `confidence`.
fn exact_orders(n: usize, confidence: f64) -> Orders {
    let pmf = |k: i64| if k < 0 || k > n as i64 { 0.0 } else { binomial_pmf(n as u64, k as u64) };
    // The lower of the two modes when there are two (odd n).
    let mode = (n / 2) as i64;
    let (mut l, mut r) = (mode, mode + 1);
    let mut held = pmf(mode);
    let (mut left, mut right) = (pmf(l - 1), pmf(r));
    while held < confidence && (left > 0.0 || right > 0.0) {
        if left >= right {
            held += left;
            l -= 1;
            left = pmf(l - 1);
        } else {
            held += right;
            r += 1;
            right = pmf(r);
        }
    }
    Orders { lo: l.max(0) as usize, hi: (r as usize).min(n + 1), confidence: held }
}

/// P(X = k) for X ~ Bin(n, ½), in go-moremath's floating-point steps. The two neighbours the
/// interval grows towards are equally probable whenever they mirror each other about n/2, and
/// then which of them compares larger decides the interval's side. go-moremath's coefficient
/// is the exact integer up to n = 20 and `exp(lnΓ(n+1) − lnΓ(k+1) − lnΓ(n−k+1))` above, whose
/// rounding differs between k and n − k (the two subtractions come in the other order); we
/// compute it the same way, with FreeBSD's log-gamma, which Go's `math.Lgamma` ports, so that
/// the interval leans the same way (it leans right at n = 22, 24, 27, 28, 29 and 30 for some
/// confidences, which the exact coefficients would lean left).
fn binomial_pmf(n: u64, k: u64) -> f64 {
    let coefficient = if k == 0 || k == n {
        1.0
    } else if n <= 20 {
        binomial(n, k) as f64
    } else {
        let ln_gamma = |x: u64| libm::lgamma(x as f64);
        (ln_gamma(n + 1) - ln_gamma(k + 1) - ln_gamma(n - k + 1)).exp()
    };
    // Powers of two: exact.
    coefficient * 0.5f64.powi(k as i32) * 0.5f64.powi((n - k) as i32)
}

/// The interval from the normal approximation of Bin(n, ½), with the continuity correction.
fn approximate_orders(n: usize, confidence: f64) -> Orders {
    let mu = n as f64 * 0.5;
    let sigma = (n as f64 * 0.5 * 0.5).sqrt();
    let l1 = inverse_normal_cdf((1.0 - confidence) / 2.0) * sigma + mu;
    let r1 = 2.0 * mu - l1;
    // Order k is the band [k − ½, k + ½] of the normal: round each end out to a half-integer,
    // then name the band it opens or closes.
    let mut l = ((l1 - 0.5).floor() + 0.5).floor() as i64 + 1;
    let mut r = ((r1 - 0.5).ceil() + 0.5).floor() as i64 + 1;
    let held = |l: i64, r: i64| normal_cdf((r as f64 - 0.5 - mu) / sigma) - normal_cdf((l as f64 - 0.5 - mu) / sigma);
    let mut actual = held(l, r);
    // The band is symmetric; one order less on the right is taken where it still holds the
    // confidence and holds less, as go-moremath prefers the left.
    let narrower = held(l, r - 1);
    if narrower >= confidence && narrower < actual {
        actual = narrower;
        r -= 1;
    }
    if l <= 0 && r > n as i64 {
        // Every sample is inside; the normal's tails only make it look less than certain.
        actual = 1.0;
    }
    l = l.max(0);
    r = r.min(n as i64 + 1);
    Orders { lo: l as usize, hi: r as usize, confidence: actual }
}

/// go-moremath's type 8 quantile at 0.5, in its floating-point steps: the 1-based position
/// `1/3 + 0.5·(n + 1/3)`, split into its whole and fractional parts, and linear interpolation
/// from the order statistic below.
fn type8_median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    let h = 1.0 / 3.0 + 0.5 * (n as f64 + 1.0 / 3.0);
    let whole = h.trunc();
    let frac = h - whole;
    let k = whole as usize;
    if k == 0 {
        sorted[0]
    } else if k >= n {
        sorted[n - 1]
    } else {
        sorted[k - 1] + frac * (sorted[k] - sorted[k - 1])
    }
}

/// The result of a two-sided Mann-Whitney U test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct UTest {
    pub n1: usize,
    pub n2: usize,
    /// The pairs (first sample's value, second's) in which the first is larger, a tie ½.
    pub u: f64,
    /// The two-sided p-value, as benchstat reports it (1 when every value is the same).
    pub p: f64,
    pub method: UMethod,
}

/// How the p-value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UMethod {
    /// The exact distribution of U: no value repeats, and neither sample has more than 50.
    Exact,
    /// The exact distribution of U given the ties: neither sample has more than 25.
    ExactWithTies,
    /// The normal approximation with the continuity correction, and the tie correction where
    /// a value repeats.
    Normal { ties: bool },
    /// Every value of both samples is the same: the test is undefined, and benchstat reports
    /// p = 1.
    AllEqual,
}

impl std::fmt::Display for UMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UMethod::Exact => "exact distribution",
            UMethod::ExactWithTies => "exact distribution given the ties",
            UMethod::Normal { ties: false } => "normal approximation with continuity correction",
            UMethod::Normal { ties: true } => "normal approximation with tie and continuity correction",
            UMethod::AllEqual => "every value equal, reported as p = 1",
        })
    }
}

/// The largest samples whose U distribution is counted exactly, without ties and with them
/// (go-moremath's `MannWhitneyExactLimit` and `MannWhitneyTiesExactLimit`).
const EXACT_U_UP_TO: usize = 50;
const EXACT_U_WITH_TIES_UP_TO: usize = 25;

/// The two-sided Mann-Whitney U test of `first` against `second`, both sorted ascending and
/// non-empty, as go-moremath's `MannWhitneyUTest` with `LocationDiffers` (see the module's
/// documentation). U is the first sample's. The p-value does not depend on the order, except
/// by the exact distribution given ties, which need not be symmetric: benchstat's first sample
/// is the base.
pub(crate) fn mann_whitney(first: &[f64], second: &[f64]) -> UTest {
    let (n1, n2) = (first.len(), second.len());
    let groups = tie_groups(first, second);
    // Twice the first sample's rank sum: each value of a group of tied values takes the
    // group's mean rank, (first position + last position) / 2, 1-based.
    let twice_rank_sum: u64 = groups.iter().map(|g| g.from_first as u64 * (2 * g.start as u64 + g.size as u64 + 1)).sum();
    let twice_u = twice_rank_sum - (n1 * (n1 + 1)) as u64;
    let twice_u_other = 2 * (n1 * n2) as u64 - twice_u;
    let u = twice_u as f64 / 2.0;
    let ties = groups.iter().any(|g| g.size > 1);
    let test = |p, method| UTest { n1, n2, u, p, method };
    let exact = if ties { n1 <= EXACT_U_WITH_TIES_UP_TO && n2 <= EXACT_U_WITH_TIES_UP_TO } else { n1 <= EXACT_U_UP_TO && n2 <= EXACT_U_UP_TO };
    if groups.len() == 1 {
        return test(1.0, UMethod::AllEqual);
    }
    if exact {
        let method = if ties { UMethod::ExactWithTies } else { UMethod::Exact };
        if twice_u == twice_u_other {
            // The distribution is symmetric about U itself: every outcome is as extreme.
            return test(1.0, method);
        }
        let at_most = count_u_at_most(&groups, n1, twice_u.min(twice_u_other));
        return test(2.0 * (at_most as f64 / binomial((n1 + n2) as u64, n1 as u64) as f64), method);
    }
    let sizes = groups.iter().map(|g| g.size as f64);
    let tie_term: f64 = sizes.map(|t| t * t * t - t).sum();
    let total = (n1 + n2) as f64;
    let n1n2 = (n1 * n2) as f64;
    let sigma = (n1n2 * ((total + 1.0) - tie_term / (total * (total - 1.0))) / 12.0).sqrt();
    if sigma == 0.0 {
        return test(1.0, UMethod::AllEqual);
    }
    let mut distance = u - n1n2 / 2.0;
    distance -= sign(distance) as f64 * 0.5;
    let z = distance / sigma;
    let below = normal_cdf(z);
    test(2.0 * below.min(1.0 - below), UMethod::Normal { ties })
}

/// The Vargha-Delaney Â12 of `first` against `second`, both sorted ascending and non-empty:
/// the share of the pairs (a value of `first`, a value of `second`) in which the first is
/// larger, a tie counting ½ (Vargha and Delaney, 2000). That is the U of [`mann_whitney`] over
/// n₁·n₂; it is computed here from the same rank sum, without the test's p-value. U is a whole
/// or a half number below 2⁵³, so the quotient is the one a count of the pairs, divided once,
/// gives (the VAMOS paper's `vargha_delaney_a12`), to the bit.
pub(crate) fn vargha_delaney_a12(first: &[f64], second: &[f64]) -> f64 {
    let n1 = first.len() as u64;
    let groups = tie_groups(first, second);
    let twice_rank_sum: u64 = groups.iter().map(|g| g.from_first as u64 * (2 * g.start as u64 + g.size as u64 + 1)).sum();
    let u = (twice_rank_sum - n1 * (n1 + 1)) as f64 / 2.0;
    u / (first.len() * second.len()) as f64
}

/// A run of equal values in the two samples merged: where it starts (0-based), how many it
/// holds, and how many of them are the first sample's.
#[derive(Debug, Clone, Copy)]
struct TieGroup {
    start: usize,
    size: usize,
    from_first: usize,
}

/// The groups of equal values of the two sorted samples merged, in ascending order.
fn tie_groups(first: &[f64], second: &[f64]) -> Vec<TieGroup> {
    let mut groups = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < first.len() || j < second.len() {
        let value = match (first.get(i), second.get(j)) {
            (Some(&a), Some(&b)) => a.min(b),
            (Some(&a), None) => a,
            (None, Some(&b)) => b,
            (None, None) => unreachable!("the loop runs while a sample has values"),
        };
        let start = i + j;
        let from_first = first[i..].iter().take_while(|&&v| v == value).count();
        let from_second = second[j..].iter().take_while(|&&v| v == value).count();
        i += from_first;
        j += from_second;
        groups.push(TieGroup { start, size: from_first + from_second, from_first });
    }
    groups
}

/// The number of ways to draw the first sample's `n1` positions among the merged groups (each
/// group's members interchangeable) whose 2U is at most `limit`. Going through the groups in
/// ascending order, taking `r` of a group of `t` when `c` were taken before it, among `before`
/// earlier positions, adds `r · (2·(before − c) + (t − r))` to 2U: each of the `r` exceeds the
/// `before − c` earlier values of the second sample and ties the group's `t − r` others. No
/// step lowers 2U, so the counts past `limit` are dropped as they arise.
fn count_u_at_most(groups: &[TieGroup], n1: usize, limit: u64) -> u128 {
    let width = limit as usize + 1;
    // ways[c * width + s]: ways to have taken `c` positions with 2U = s so far.
    let mut ways = vec![0u128; (n1 + 1) * width];
    ways[0] = 1;
    for group in groups {
        let mut next = vec![0u128; ways.len()];
        for c in 0..=n1.min(group.start) {
            for s in 0..width {
                let count = ways[c * width + s];
                if count == 0 {
                    continue;
                }
                for r in 0..=group.size.min(n1 - c) {
                    let added = (r * (2 * (group.start - c) + (group.size - r))) as u64;
                    let at = s as u64 + added;
                    // Not monotonic in r (with nothing of the second sample before the group,
                    // r·(t − r) falls again past t/2), so each r is tested on its own.
                    if at > limit {
                        continue;
                    }
                    next[(c + r) * width + at as usize] += count * binomial(group.size as u64, r as u64);
                }
            }
        }
        ways = next;
    }
    ways[n1 * width..].iter().sum()
}

/// C(n, k), exactly; the callers' largest is C(100, 50) < 2^97.
fn binomial(n: u64, k: u64) -> u128 {
    let k = k.min(n - k);
    // Each partial product is C(n − k + i, i), an integer, so every division is exact.
    (1..=k as u128).fold(1u128, |c, i| c * (n as u128 - k as u128 + i) / i)
}

/// −1, 0 or 1, as Go's `mathx.Sign`: zero is its own sign.
fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// The standard normal distribution function, Φ(z) = erfc(−z/√2)/2.
fn normal_cdf(z: f64) -> f64 {
    libm::erfc(-z / std::f64::consts::SQRT_2) / 2.0
}

/// The standard normal quantile at `p` in (0, 1): Peter Acklam's rational approximation
/// (relative error below 1.15e-9), then one step of Halley's method on Φ, which brings it to
/// nearly full precision. go-moremath computes its `InvCDF` the same way, so the interval's
/// orders, which round this value, are the ones benchstat finds.
fn inverse_normal_cdf(p: f64) -> f64 {
    const A: [f64; 6] = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.38357751867269e+02, -3.066479806614716e+01, 2.506628277459239e+00];
    const B: [f64; 5] = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01];
    const C: [f64; 6] = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00];
    const D: [f64; 4] = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];
    const TAIL: f64 = 0.02425;
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    // The tails' approximation in q = √(−2 ln p), the lower tail's value; the upper tail is its
    // mirror.
    let tail = |q: f64| (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0);
    let x = if p < TAIL {
        tail((-2.0 * p.ln()).sqrt())
    } else if 1.0 - TAIL < p {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Halley step on Φ(x) − p.
    let e = 0.5 * libm::erfc(-x / std::f64::consts::SQRT_2) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// go-moremath's `QuantileCI(n, 0.5, confidence)` orders, printed by a Go program over the
    /// pinned commit (see the module's documentation). The exact ones can be read off
    /// Bin(n, ½): at n = 30, P(10 ≤ X ≤ 20) = 0.9572 ≥ 0.95 and P(11 ≤ X ≤ 20) = 0.9291 is
    /// not, so the interval is x(10) to x(21). At n = 29 the left-first growth ends one order
    /// to the left of centre (9, 20); at n = 5 it runs out of samples on the left first (0, 5).
    /// At n = 30 and 0.5, n = 22 and 0.9 and n = 28 and 0.99 the rounding of go-moremath's
    /// coefficients makes it lean right where exact ones would lean left ((13, 17), (7, 15) and
    /// (7, 21)).
    #[test]
    fn the_orders_are_go_moremath_s() {
        let cases = [
            (1, 0.95, 0, 2),
            (2, 0.95, 0, 3),
            (5, 0.95, 0, 5),
            (6, 0.95, 1, 6),
            (20, 0.9, 6, 14),
            (21, 0.99, 5, 17),
            (29, 0.95, 9, 20),
            (30, 0.95, 10, 21),
            (30, 0.5, 14, 18),
            (22, 0.9, 8, 16),
            (28, 0.99, 8, 22),
            (31, 0.95, 10, 22),
            (100, 0.95, 40, 60),
            (100, 0.99, 37, 63),
            (400, 0.5, 193, 207),
            (400, 0.999, 167, 233),
        ];
        for (n, confidence, lo, hi) in cases {
            let orders = median_orders(n, confidence);
            assert_eq!((orders.lo, orders.hi), (lo, hi), "n = {n} at {confidence}");
            assert!(orders.confidence >= confidence, "n = {n} at {confidence}: {}", orders.confidence);
        }
        assert_eq!(median_orders(30, 0.95).confidence, 0.9572260547429379);
    }

    #[test]
    fn too_few_samples_leave_the_interval_unbounded() {
        assert_eq!(samples_for_finite_interval(0.95), Some(6));
        assert_eq!(samples_for_finite_interval(0.99), Some(8));
        let five = median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.95);
        assert_eq!((five.lo, five.hi), (f64::NEG_INFINITY, 5.0));
        assert_eq!(five.spread(), Spread::Unbounded);
    }

    /// tattle's `Benchmark01CallOverhead` in v0.1.3 (examples/tattle-benchstat), which
    /// benchstat printed as `0.3155n ± 4%`: the 10th and 21st of 30 samples are 0.3017 and
    /// 0.3278 ns around 0.3155, and 0.3278/0.3155 − 1 = 3.90 % is narrower than
    /// 1 − 0.3017/0.3155 = 4.37 %. go-moremath, over the same values in seconds, gives
    /// 4.374009508716304.
    #[test]
    fn the_spread_is_the_wider_side_in_percent_of_the_median() {
        let mut ns = vec![
            0.3079, 0.3285, 0.3030, 0.3132, 0.3526, 0.2907, 0.2983, 0.2992, 0.3323, 0.3108, 0.3121, 0.2987, 0.3532, 0.3017, 0.2995, 0.3200, 0.3554, 0.3227, 0.3178, 0.2895, 0.3282,
            0.3356, 0.3278, 0.3381, 0.3195, 0.2969, 0.2978, 0.3221, 0.2865, 0.3341,
        ];
        ns.sort_by(f64::total_cmp);
        let interval = median_interval(&ns, 0.95);
        assert_eq!((interval.center, interval.lo, interval.hi), (0.3155, 0.3017, 0.3278));
        let Spread::Percent(percent) = interval.spread() else { panic!("{interval:?}") };
        assert!((percent - 4.374009508716304).abs() < 1e-12, "{percent}");
    }

    #[test]
    fn a_bound_of_zero_under_a_positive_median_has_no_percentage() {
        let interval = MedianInterval { center: 2.0, lo: 0.0, hi: 3.0, orders: Orders { lo: 1, hi: 3, confidence: 0.95 } };
        assert_eq!(interval.spread(), Spread::SignsDiffer);
        let zeros = MedianInterval { center: 0.0, lo: 0.0, hi: 0.0, ..interval };
        assert_eq!(zeros.spread(), Spread::Percent(0.0));
    }

    /// The type 8 median is the middle value, or the mean of the middle two.
    #[test]
    fn the_center_is_the_median() {
        assert_eq!(type8_median(&[1.0, 2.0, 4.0]), 2.0);
        assert_eq!(type8_median(&[1.0, 2.0, 4.0, 8.0]), 3.0);
        assert_eq!(type8_median(&[7.0]), 7.0);
    }

    fn seq(from: i32, n: i32, step: i32) -> Vec<f64> {
        (0..n).map(|i| f64::from(from + i * step)).collect()
    }

    fn sorted(mut v: Vec<f64>) -> Vec<f64> {
        v.sort_by(f64::total_cmp);
        v
    }

    /// Each p-value was computed independently in Python (standard library only): the exact
    /// ones from the generating polynomial of twice the first sample's rank sum over the tie
    /// groups, in integers (and, for the first three, by enumerating every split of the pooled
    /// values), the approximate ones as |U − n₁n₂/2| − ½ over the tie-corrected σ, through
    /// `math.erfc`, which is what scipy's `mannwhitneyu(method="asymptotic",
    /// use_continuity=True)` computes. go-moremath's `MannWhitneyUTest` gives the same values
    /// to within 2e-16.
    #[test]
    fn u_test_p_values_match_an_independent_computation() {
        let cases: Vec<(Vec<f64>, Vec<f64>, f64, f64, UMethod)> = vec![
            // Completely separated: 2 / C(10, 5).
            (seq(1, 5, 1), seq(6, 5, 1), 0.0, 2.0 / 252.0, UMethod::Exact),
            (vec![1.0, 3.0, 5.0], vec![2.0, 4.0, 6.0, 7.0], 3.0, 0.4, UMethod::Exact),
            (vec![1.0, 2.0, 2.0, 3.0], vec![2.0, 3.0, 3.0, 4.0, 5.0], 3.0, 0.15873015873015872, UMethod::ExactWithTies),
            // U equal to its mirror: p = 1.
            (vec![1.0, 2.0, 3.0], vec![1.0, 2.0, 3.0], 4.5, 1.0, UMethod::ExactWithTies),
            (vec![4.0, 4.0, 4.0], vec![4.0, 4.0], 3.0, 1.0, UMethod::AllEqual),
            // No ties, 40 and 45 values: exact.
            (seq(0, 40, 4), seq(1, 45, 2), 1271.0, 0.0009331105620496546, UMethod::Exact),
            // No ties, but 51 values on one side: the normal approximation.
            (seq(0, 50, 4), seq(1, 51, 2), 1874.0, 4.7986118764331565e-05, UMethod::Normal { ties: false }),
            (seq(0, 60, 2), seq(7, 55, 2), 1595.0, 0.7602584471103586, UMethod::Normal { ties: false }),
            // Ties at 30 values a side: the normal approximation with the tie correction.
            (seq(0, 30, 1), seq(20, 30, 1), 50.0, 3.479739872462869e-09, UMethod::Normal { ties: true }),
            // Ties at 20 and 24 values: exact given the ties.
            (
                vec![1.5, 2.5, 2.5, 7.0, 7.0, 7.0, 9.0, 1.0, 0.5, 3.0, 3.0, 3.0, 12.0, 2.5, 4.0, 4.0, 6.0, 6.0, 6.0, 6.0],
                vec![2.5, 7.0, 8.0, 8.0, 8.0, 9.0, 10.0, 3.0, 3.0, 11.0, 12.0, 12.0, 6.0, 6.0, 5.0, 5.0, 5.0, 4.0, 13.0, 14.0, 15.0, 2.0, 2.0, 2.0],
                156.5,
                0.04824137803429725,
                UMethod::ExactWithTies,
            ),
        ];
        for (first, second, u, p, method) in cases {
            let (first, second) = (sorted(first), sorted(second));
            let test = mann_whitney(&first, &second);
            assert_eq!((test.u, test.method), (u, method), "{first:?} against {second:?}");
            assert!((test.p - p).abs() <= 1e-14 * p.max(1e-300) + 1e-17, "{first:?} against {second:?}: p = {}, not {p}", test.p);
            // The order of the samples turns U into its mirror. The p-value stays unless the
            // exact distribution given ties decides it: that distribution need not be
            // symmetric, and go-moremath doubles its lower tail below the smaller U.
            let swapped = mann_whitney(&second, &first);
            assert_eq!(swapped.u, (first.len() * second.len()) as f64 - u);
            if method != UMethod::ExactWithTies {
                assert!((swapped.p - test.p).abs() <= 1e-15, "{} against {}", swapped.p, test.p);
            }
        }
    }

    /// With ties, the exact p-value depends on which sample is first, in go-moremath too:
    /// swapped, the two cases with ties above give 0.06349206349206349 (not 0.1587…) and
    /// 0.04824875171961523 (not 0.04824137…), by the same Python computation, and go-moremath
    /// agrees (0.063492063492063489, 0.048248751719615741). benchstat puts the base first.
    #[test]
    fn with_ties_the_exact_p_value_depends_on_which_sample_is_first() {
        let test = mann_whitney(&[2.0, 3.0, 3.0, 4.0, 5.0], &[1.0, 2.0, 2.0, 3.0]);
        assert_eq!((test.u, test.method), (17.0, UMethod::ExactWithTies));
        assert!((test.p - 0.06349206349206349).abs() < 1e-15, "{}", test.p);
        let first = sorted(vec![2.5, 7.0, 8.0, 8.0, 8.0, 9.0, 10.0, 3.0, 3.0, 11.0, 12.0, 12.0, 6.0, 6.0, 5.0, 5.0, 5.0, 4.0, 13.0, 14.0, 15.0, 2.0, 2.0, 2.0]);
        let second = sorted(vec![1.5, 2.5, 2.5, 7.0, 7.0, 7.0, 9.0, 1.0, 0.5, 3.0, 3.0, 3.0, 12.0, 2.5, 4.0, 4.0, 6.0, 6.0, 6.0, 6.0]);
        let test = mann_whitney(&first, &second);
        assert_eq!(test.u, 323.5);
        assert!((test.p - 0.04824875171961523).abs() < 1e-15, "{}", test.p);
    }

    /// Â12 by hand: of the 4 × 5 pairs of the tied samples above, the 3 beats one 2 and ties
    /// two 3s, and each 2 ties the other side's 2: 1 + 2·½ + 2·½ = 3, and 3/20 = 0.15 (U = 3).
    /// Against a count of every pair for samples with and without ties, to the bit.
    #[test]
    fn a12_is_the_share_of_pairs_the_first_wins() {
        assert_eq!(vargha_delaney_a12(&[1.0, 2.0, 2.0, 3.0], &[2.0, 3.0, 3.0, 4.0, 5.0]), 0.15);
        assert_eq!(vargha_delaney_a12(&[2.0, 3.0, 3.0, 4.0, 5.0], &[1.0, 2.0, 2.0, 3.0]), 0.85);
        assert_eq!(vargha_delaney_a12(&[7.0, 7.0], &[7.0]), 0.5);
        let counted = |a: &[f64], b: &[f64]| {
            let wins: f64 = a.iter().flat_map(|x| b.iter().map(move |y| if x > y { 1.0 } else if x == y { 0.5 } else { 0.0 })).sum();
            wins / (a.len() * b.len()) as f64
        };
        for (a, b) in [(seq(0, 30, 3), seq(1, 30, 2)), (seq(0, 40, 1).iter().map(|v| (v / 4.0).floor()).collect(), seq(3, 27, 1).iter().map(|v| (v / 3.0).floor()).collect())] {
            let (a, b) = (sorted(a), sorted(b));
            assert_eq!(vargha_delaney_a12(&a, &b), counted(&a, &b), "{a:?} against {b:?}");
            assert_eq!(vargha_delaney_a12(&a, &b), mann_whitney(&a, &b).u / (a.len() * b.len()) as f64);
        }
    }

    #[test]
    fn binomial_coefficients_are_exact() {
        assert_eq!(binomial(10, 5), 252);
        assert_eq!(binomial(30, 15), 155_117_520);
        assert_eq!(binomial(100, 50), 100_891_344_545_564_193_334_812_497_256);
        assert_eq!(binomial(7, 0), 1);
        assert_eq!(binomial(7, 7), 1);
    }

    #[test]
    fn the_inverse_normal_inverts_the_normal() {
        for p in [1e-10, 0.001, 0.02, 0.025, 0.3, 0.5, 0.8, 0.975, 0.99, 1.0 - 1e-9] {
            let x = inverse_normal_cdf(p);
            assert!((normal_cdf(x) - p).abs() <= 1e-15_f64.max(p * 1e-12), "{p}: {x}");
        }
        assert!((inverse_normal_cdf(0.025) + 1.959963984540054).abs() < 1e-12);
    }
}
