//! scipy's Wilcoxon signed-rank test of paired samples, and Holm's step-down adjustment of a
//! family of p-values. This module owns that arithmetic, as scipy and the scripts that call it
//! do it; it never reads files and never pairs records (the `wilcoxon` check does).
//!
//! # What scipy computes
//!
//! `scipy.stats.wilcoxon(x, y)` with its defaults (`zero_method="wilcox"`, `correction=False`,
//! `alternative="two-sided"`, `method="auto"`), read in scipy's `scipy/stats/_wilcoxon.py`
//! (BSD-3-Clause; this is our description and our implementation) at the 1.17.0 tag
//! (2026-01-10), which is also what 1.15.0 (2025-01) through 1.18.1 and scipy's main branch of
//! 2026-08 compute for one-dimensional NumPy input:
//!
//! - The differences are `d = x − y`, in floating point. `"wilcox"` drops every zero
//!   difference from the ranking; the `c` left are ranked by `|d|`, tied values taking their
//!   mean rank, and `R⁺` is the sum of the ranks of the positive ones.
//! - `"auto"` decides among three ways of finding the p-value by `n`, the number of pairs
//!   *counting the zero differences*: more than 50 pairs, the normal approximation. Otherwise,
//!   with no tie among the `|d|` and no zero difference, the **exact** distribution of `R⁺`
//!   (each of the 2ⁿ sign patterns of ranks 1 … n equally likely): `2·min(P(R⁺ ≥ r), P(R⁺ ≤ r))`,
//!   capped at 1. With a tie or a zero and at most 13 pairs, a **permutation test** that flips
//!   the sign of each pair's difference in all 2ⁿ ways (`stats.PermutationMethod()`, whose 9,999
//!   resamples exceed 2¹³ = 8,192, so the test is exhaustive and deterministic): the share of
//!   flips whose `R⁺` is at most, and at least, the observed one, the smaller doubled and capped
//!   at 1. With a tie or a zero and 14 to 50 pairs, the **normal approximation**.
//! - The normal approximation, without continuity correction: `z = (R⁺ − c(c + 1)/4) / σ` with
//!   `σ² = (c(c + 1)(2c + 1) − Σ(t³ − t)/2) / 24` over the sizes `t` of the groups of tied
//!   `|d|` (zeros not among them), and `p = 2·Φ(−|z|)`.
//! - Every difference zero: `c = 0`, `σ = 0`, and `z` is 0/0: p is NaN past 13 pairs. At 13 or
//!   fewer the permutation test finds every flip equal to the observed `R⁺ = 0`, and p is 1.
//!
//! Older versions differ only where there are ties or zeros (and where every difference is
//! zero): up to 1.14 (the `_morestats.wilcoxon` of 1.12 and before, the rewrite in
//! `_wilcoxon.py` of 1.13 and 1.14) `"auto"` took the exact distribution whenever there were at
//! most 50 pairs and no zero, *ties or not* (1.12 and before truncating a tied `R⁺` to an
//! integer, 1.14 rounding it conservatively for each tail), took the normal approximation
//! wherever a difference was zero, had no permutation test, and raised `ValueError` when every
//! difference was zero. So at 30 pairs with a tie among the `|d|` and no zero, 1.15 and later
//! give the normal approximation and 1.13 and 1.14 the exact distribution; with a zero, all give
//! the normal approximation past 13 pairs.
//!
//! # How this follows it
//!
//! The exact distribution and the permutation test are counted in integers over twice the rank
//! sums (a mean rank is a whole or a half): a count of the sign patterns per value of `2R⁺`,
//! built one pair at a time, never the 2ⁿ patterns themselves. scipy's own probabilities are
//! multiples of 2⁻ⁿ that its floating point holds exactly, so the p-values agree to the bit. The
//! approximation takes scipy's floating-point steps, and `Φ` as Cephes' `ndtr` computes it (see
//! [`ndtr`]), so it agrees to within a unit or two in the last place.
//!
//! Holm's adjustment is the VAMOS paper's `holm_adjust` (`paper/05_run_statistical_tests.py`):
//! the finite p-values sorted ascending, the k-th (from 0) of m multiplied by m − k, capped at 1,
//! and raised to the largest before it; a p-value that is not finite stays as it is and is not
//! counted in m. Tied p-values receive the same adjusted value whichever comes first, so the
//! order of a sort that is not stable (numpy's default) does not matter.

/// The result of a two-sided Wilcoxon signed-rank test, as scipy's `wilcoxon(x, y)` gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SignedRank {
    /// The pairs, counting those whose difference is zero.
    pub n: usize,
    /// The pairs whose difference is zero, left out of the ranking.
    pub zeros: usize,
    /// The sum of the ranks of the positive differences.
    pub r_plus: f64,
    /// The two-sided p-value; NaN where every difference is zero past 13 pairs, as scipy gives.
    pub p: f64,
    pub method: SignedRankMethod,
}

/// How `"auto"` found the p-value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SignedRankMethod {
    /// The exact distribution of R⁺: at most 50 pairs, no tie and no zero.
    Exact,
    /// Every sign flip of the differences: a tie or a zero, at most 13 pairs.
    Permutation,
    /// The normal approximation, with the tie correction where `ties`.
    Normal { ties: bool },
}

impl std::fmt::Display for SignedRankMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SignedRankMethod::Exact => "exact distribution",
            SignedRankMethod::Permutation => "permutation test over every sign flip",
            SignedRankMethod::Normal { ties: false } => "normal approximation",
            SignedRankMethod::Normal { ties: true } => "normal approximation with tie correction",
        })
    }
}

/// The most pairs `"auto"` takes the exact distribution or the permutation test for.
const EXACT_UP_TO: usize = 50;

/// The most pairs whose 2ⁿ sign flips scipy's default permutation test (9,999 resamples)
/// visits every one of.
const PERMUTATION_UP_TO: usize = 13;

/// The two-sided Wilcoxon signed-rank test of the paired differences `x − y`, each computed by
/// the caller as `x[i] − y[i]` in floating point (so that a zero or a tie is the one scipy sees),
/// as `scipy.stats.wilcoxon(x, y)` with its defaults computes it (see the module's
/// documentation). `differences` holds no NaN; none at all gives NaN, as scipy does.
pub(crate) fn wilcoxon(differences: &[f64]) -> SignedRank {
    let n = differences.len();
    if n == 0 {
        return SignedRank { n, zeros: 0, r_plus: 0.0, p: f64::NAN, method: SignedRankMethod::Normal { ties: false } };
    }
    let mut nonzero: Vec<f64> = differences.iter().copied().filter(|&d| d != 0.0).collect();
    let zeros = n - nonzero.len();
    nonzero.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    let c = nonzero.len();
    // Twice each difference's mean rank, in ascending order of |d|, and the sizes of the groups
    // of tied |d|.
    let mut twice_ranks = Vec::with_capacity(c);
    let mut tie_sizes = Vec::new();
    let mut start = 0;
    while start < c {
        let size = nonzero[start..].iter().take_while(|d| d.abs() == nonzero[start].abs()).count();
        // Positions start+1 … start+size share the mean rank (2·start + size + 1)/2.
        twice_ranks.extend(std::iter::repeat_n((2 * start + size + 1) as u64, size));
        tie_sizes.push(size);
        start += size;
    }
    let twice_r_plus: u64 = nonzero.iter().zip(&twice_ranks).filter(|(d, _)| **d > 0.0).map(|(_, r)| r).sum();
    let r_plus = twice_r_plus as f64 / 2.0;
    let ties = tie_sizes.iter().any(|&t| t > 1);
    let result = |p, method| SignedRank { n, zeros, r_plus, p, method };
    if n <= EXACT_UP_TO && !ties && zeros == 0 {
        return result(sign_flip_p(&twice_ranks, twice_r_plus), SignedRankMethod::Exact);
    }
    // A tie or a zero: every sign flip where there are few enough pairs (fewer than 50 too).
    if n <= PERMUTATION_UP_TO {
        return result(sign_flip_p(&twice_ranks, twice_r_plus), SignedRankMethod::Permutation);
    }
    // scipy's steps, in its order: the count is a float from the start.
    let count = c as f64;
    let mean = count * (count + 1.0) * 0.25;
    let variance_24 = count * (count + 1.0) * (2.0 * count + 1.0);
    let tie_term: f64 = tie_sizes.iter().map(|&t| (t as f64).powi(3) - t as f64).sum();
    let sigma = ((variance_24 - tie_term / 2.0) / 24.0).sqrt();
    // Every difference zero: 0/0, NaN, as scipy gives.
    let z = (r_plus - mean) / sigma;
    result(2.0 * ndtr(-z.abs()), SignedRankMethod::Normal { ties })
}

/// Holm's step-down adjustment of `p_values`, in their order, as the VAMOS paper's
/// `holm_adjust` computes it: a p-value that is not finite stays as it is and is not counted
/// in the family (see the module's documentation).
pub(crate) fn holm(p_values: &[f64]) -> Vec<f64> {
    let mut finite: Vec<usize> = (0..p_values.len()).filter(|&i| p_values[i].is_finite()).collect();
    finite.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let m = finite.len();
    let mut adjusted = p_values.to_vec();
    let mut previous = 0.0f64;
    for (k, &i) in finite.iter().enumerate() {
        let scaled = ((m - k) as f64 * p_values[i]).min(1.0);
        previous = previous.max(scaled);
        adjusted[i] = previous;
    }
    adjusted
}

/// The two-sided p-value of `2R⁺ = observed` among every sign pattern of the ranked
/// differences, each of which adds its doubled rank or nothing. The exact distribution is this
/// with the ranks 1 … n; the permutation test is this with the mean ranks. A zero difference,
/// whose flip changes nothing, would double both the count of every value and the number of
/// patterns, so the zeros leave the p-value as it is and are not counted.
fn sign_flip_p(twice_ranks: &[u64], observed: u64) -> f64 {
    let total: u64 = twice_ranks.iter().sum();
    // ways[s]: the sign patterns of the differences so far with 2R⁺ = s. At most 2⁵⁰ patterns,
    // so a u64 holds every count and every sum of them.
    let mut ways = vec![0u64; total as usize + 1];
    ways[0] = 1;
    let mut reached = 0usize;
    for &r in twice_ranks {
        let r = r as usize;
        for s in (0..=reached).rev() {
            ways[s + r] += ways[s];
        }
        reached += r;
    }
    let at_most: u64 = ways[..=observed as usize].iter().sum();
    let at_least: u64 = ways[observed as usize..].iter().sum();
    // Each count, and 2ⁿ, are whole numbers below 2⁵³: the quotient is exact but for its last
    // rounding, as scipy's sums of probabilities that are multiples of 2⁻ⁿ are.
    let patterns = 2f64.powi(twice_ranks.len() as i32);
    (2.0 * at_most.min(at_least) as f64 / patterns).min(1.0)
}

/// The standard normal distribution function as Cephes' `ndtr` computes it, which scipy's
/// `special.ndtr` is: `½ + ½·erf(x/√2)` for |x| < 1, where that is the more accurate, and
/// `½·erfc(|x|/√2)` (or one minus it) beyond.
fn ndtr(a: f64) -> f64 {
    let x = a * std::f64::consts::FRAC_1_SQRT_2;
    let z = x.abs();
    if z < std::f64::consts::FRAC_1_SQRT_2 {
        return 0.5 + 0.5 * libm::erf(x);
    }
    let y = 0.5 * libm::erfc(z);
    if x > 0.0 { 1.0 - y } else { y }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Differences ±1 … ±n, negative where `negative(i)` (0-based), so that no |d| ties.
    fn signed(n: usize, negative: impl Fn(usize) -> bool) -> Vec<f64> {
        (0..n).map(|i| if negative(i) { -((i + 1) as f64) } else { (i + 1) as f64 }).collect()
    }

    fn close(got: f64, want: f64) -> bool {
        (got - want).abs() <= 4.0 * f64::EPSILON * want.abs()
    }

    /// Each p-value was computed independently in Python (standard library only; no scipy on
    /// this machine): the exact ones from a table of sign-pattern counts in integers (and, up to
    /// 13 pairs, by enumerating every sign pattern), the permutation tests by enumerating every
    /// sign flip of the differences as `stats.permutation_test` does, the approximations by
    /// scipy's formula through `math.erf` and `math.erfc` as Cephes' `ndtr` splits them.
    #[test]
    fn p_values_match_an_independent_computation() {
        let cases: Vec<(&str, Vec<f64>, f64, f64, SignedRankMethod)> = vec![
            ("13 pairs, no tie", signed(13, |i| [0, 4, 5].contains(&i)), 79.0, 0.01708984375, SignedRankMethod::Exact),
            ("30 pairs, no tie", signed(30, |i| (i * 11) % 7 < 2), 336.0, 0.03272089920938015, SignedRankMethod::Exact),
            ("50 pairs, no tie", signed(50, |i| (i * 7) % 5 < 2), 775.0, 0.18768390417341507, SignedRankMethod::Exact),
            ("51 pairs, no tie", signed(51, |i| (i * 7) % 5 < 2), 775.0, 0.2937970663611159, SignedRankMethod::Normal { ties: false }),
            // Ten equal differences: one tie group, so the permutation test, 2 of 2¹⁰ flips.
            ("every |d| tied", vec![11.0; 10], 55.0, 0.001953125, SignedRankMethod::Permutation),
            ("ties, 6 pairs", vec![2.0, 2.0, 2.0, 1.0, 1.0, -2.0], 16.5, 0.25, SignedRankMethod::Permutation),
            ("zeros, 7 pairs", vec![0.0, 0.0, 2.0, 3.0, 4.0, 5.0, 6.0], 15.0, 0.0625, SignedRankMethod::Permutation),
            ("R⁺ at the centre", vec![1.0, 2.0, -3.0, -1.0], 4.5, 1.0, SignedRankMethod::Permutation),
            (
                "ties and zeros, 20 pairs",
                vec![0.0, -2.0, 1.0, -1.0, 2.0, 5.0, 3.0, -1.0, -3.0, 0.0, 3.0, 1.0, 4.0, 2.0, -2.0, 1.0, -1.0, 2.0, 0.0, 3.0],
                111.0,
                0.0993037212843472,
                SignedRankMethod::Normal { ties: true },
            ),
            // Ties and no zero at 30 pairs: scipy before 1.15 took the exact distribution here.
            (
                "ties, no zero, 30 pairs",
                vec![
                    -0.5, 1.0, 2.5, 1.5, 1.0, 3.5, 3.5, 4.0, 2.5, 4.5, 6.0, 6.5, 5.5, 7.0, 8.5, 7.5, 7.0, 9.5, 9.5, 10.0, 8.5, 10.5, 12.0, 12.5, 11.5, 13.0, 14.5, 13.5, 13.0, 15.5,
                ],
                464.0,
                1.912545935939587e-06,
                SignedRankMethod::Normal { ties: true },
            ),
        ];
        for (name, d, r_plus, p, method) in cases {
            let test = wilcoxon(&d);
            assert_eq!((test.r_plus, test.method), (r_plus, method), "{name}");
            assert!(close(test.p, p), "{name}: p = {}, not {p}", test.p);
            // The sign of every difference turned: R⁺ becomes R⁻, and the two-sided p-value
            // stays, to the bit where it is counted.
            let mirrored: Vec<f64> = d.iter().map(|v| -v).collect();
            let other = wilcoxon(&mirrored);
            assert!(close(other.p, test.p), "{name} mirrored: {} against {}", other.p, test.p);
        }
    }

    /// The differences are the caller's `x − y` in floating point: Hollander and Wolfe's
    /// depression scores (the example of R's `wilcox.test`, which prints V = 40 and the
    /// one-sided p = 0.01953): 10 of the 2⁹ sign patterns give R⁺ ≥ 40, so the two-sided p is
    /// 20/512 = 0.0390625, as Python's enumeration of every pattern also gives.
    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is a patient's score, not π.
    fn the_exact_p_value_of_a_textbook_pair() {
        let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30];
        let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
        let d: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a - b).collect();
        let test = wilcoxon(&d);
        assert_eq!((test.n, test.zeros, test.r_plus, test.method), (9, 0, 40.0, SignedRankMethod::Exact));
        assert_eq!(test.p, 0.0390625);
    }

    /// The counted distribution against an enumeration of every sign pattern, for every
    /// observed rank sum of a few sets of mean ranks with ties.
    #[test]
    fn the_counted_distribution_is_the_enumerated_one() {
        for twice_ranks in [vec![2u64, 4, 6, 8, 10], vec![3, 3, 7, 7, 7, 7, 12, 16], vec![4, 4, 4, 4, 4, 4], vec![2, 5, 5, 9, 9, 9, 9, 14, 16, 18, 20]] {
            let n = twice_ranks.len();
            let sums: Vec<u64> = (0..1u32 << n).map(|bits| (0..n).filter(|i| bits & (1 << i) != 0).map(|i| twice_ranks[i]).sum()).collect();
            for observed in sums.iter().copied() {
                let at_most = sums.iter().filter(|&&s| s <= observed).count();
                let at_least = sums.iter().filter(|&&s| s >= observed).count();
                let want = (2.0 * at_most.min(at_least) as f64 / sums.len() as f64).min(1.0);
                assert_eq!(sign_flip_p(&twice_ranks, observed), want, "{twice_ranks:?} at {observed}");
            }
        }
    }

    /// scipy 1.15 and later: every difference zero is p = 1 by the permutation test up to 13
    /// pairs, and NaN (0/0) by the approximation past them; 1.14 and before raised.
    #[test]
    fn every_difference_zero_is_one_up_to_13_pairs_and_nan_past_them() {
        let few = wilcoxon(&[0.0; 13]);
        assert_eq!((few.p, few.method, few.zeros), (1.0, SignedRankMethod::Permutation, 13));
        let many = wilcoxon(&[0.0; 14]);
        assert!(many.p.is_nan(), "{}", many.p);
        assert_eq!((many.method, many.zeros), (SignedRankMethod::Normal { ties: false }, 14));
    }

    /// The VAMOS paper's raw p-values of MOEA/D's hypervolume against pymoo's, and the adjusted
    /// ones, as its `experiments/statistical_tests_moead.csv` (commit 7f2552d) records them:
    /// `holm_adjust` gives these to the bit.
    #[test]
    fn holm_is_the_vamos_scripts_adjustment() {
        let raw = [
            1.862645149230957e-09,
            1.862645149230957e-09,
            1.862645149230957e-09,
            0.004031794145703316,
            1.862645149230957e-09,
            0.7151329666376114,
            1.862645149230957e-09,
            0.007645761692991623,
            0.9676735773682594,
            0.06989291124045849,
            3.725290298461914e-09,
            0.00466480478644371,
        ];
        let adjusted = [
            2.2351741790771484e-08,
            2.2351741790771484e-08,
            2.2351741790771484e-08,
            0.024190764874219894,
            2.2351741790771484e-08,
            1.0,
            2.2351741790771484e-08,
            0.030583046771966493,
            1.0,
            0.20967873372137547,
            2.60770320892334e-08,
            0.024190764874219894,
        ];
        assert_eq!(holm(&raw), adjusted);
    }

    #[test]
    fn holm_leaves_out_what_is_not_finite_and_never_falls() {
        let got = holm(&[0.01, f64::NAN, 0.04]);
        assert_eq!((got[0], got[2]), (0.02, 0.04));
        assert!(got[1].is_nan());
        // 3 × 0.01 = 0.03, then 2 × 0.011 = 0.022 is raised to 0.03; capped at 1.
        assert_eq!(holm(&[0.5, 0.011, 0.01]), vec![0.5, 0.03, 0.03]);
        assert_eq!(holm(&[0.6, 0.7]), vec![1.0, 1.0]);
        assert_eq!(holm(&[]), Vec::<f64>::new());
    }
}
