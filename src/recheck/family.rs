//! Family-wise control of a recheck's judgements: every row states one of two claims (MATCH or
//! MISMATCH), each the rejection of a one-sided null hypothesis, and the whole table's chance of
//! stating any false claim is held at [`FAMILY_ALPHA`] by Holm's step-down procedure over all
//! of those hypotheses. This module owns the p-values of a bootstrap distribution and the
//! procedure; it knows nothing of runs or registries.
//!
//! Each latency row tests, on ln(fresh ÷ accepted) with margin b = ln(1 + δ):
//! - equivalence (MATCH): H₀ |ln r| ≥ b, by the two one-sided tests; its p-value is the larger
//!   of P(ln r ≤ −b) and P(ln r ≥ b) under the bootstrap distribution (an intersection–union
//!   test needs no further adjustment);
//! - difference (MISMATCH): H₀ |ln r| < b; its p-value is the smaller of P(ln r ≤ b) and
//!   P(ln r ≥ −b), since the ratio cannot lie beyond both ends at once.
//!
//! An ordering row tests ln(slower ÷ faster) against ln(min-ratio) the same way, one side each.
//! Holm sorts all 2N p-values and compares the k-th smallest with α ÷ (2N − k + 1), stopping at
//! the first that fails; the threshold a row's claim was compared with is its **level**, shown
//! in the table. A p-value is (1 + count) ÷ (1 + replicates), so that it is never zero and the
//! smallest level (α ÷ 2N) is reachable only with enough replicates; [`replicates_needed`] says
//! how many.

/// The chance, over the whole table, of stating any false MATCH or MISMATCH.
pub(crate) const FAMILY_ALPHA: f64 = 0.05;

/// What one row can claim, with the p-value of each claim's null hypothesis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Trial {
    /// The null of MATCH (equivalence, or for an ordering "not faster by the ratio").
    pub p_match: f64,
    /// The null of MISMATCH (within the margin, or for an ordering "faster by the ratio").
    pub p_mismatch: f64,
}

/// The decision for one row: the claim it may state, and the Holm level its claim's hypothesis
/// was compared with (for a row that states neither, the level its MATCH hypothesis faced).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Decision {
    pub claim: Claim,
    pub level: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claim {
    Match,
    Mismatch,
    Neither,
}

/// The bootstrap p-values of a latency row from its sorted distribution of ln(fresh ÷ accepted).
pub(crate) fn latency_trial(sorted: &[f64], bound: f64) -> Trial {
    let below_low = tail_at_most(sorted, -bound);
    let above_high = tail_at_least(sorted, bound);
    let below_high = tail_at_most(sorted, bound);
    let above_low = tail_at_least(sorted, -bound);
    Trial { p_match: below_low.max(above_high), p_mismatch: below_high.min(above_low) }
}

/// The bootstrap p-values of an ordering row from its sorted distribution of
/// ln(slower ÷ faster), against ln(min-ratio).
pub(crate) fn ordering_trial(sorted: &[f64], bound: f64) -> Trial {
    Trial { p_match: tail_at_most(sorted, bound), p_mismatch: tail_at_least(sorted, bound) }
}

/// Holm's step-down procedure over every row's two hypotheses at family level `alpha`.
pub(crate) fn holm(trials: &[Trial], alpha: f64) -> Vec<Decision> {
    let n = 2 * trials.len();
    // (p, row, is the MATCH hypothesis), sorted by p; ties by row then kind, for determinism.
    let mut all: Vec<(f64, usize, bool)> = trials.iter().enumerate().flat_map(|(i, t)| [(t.p_match, i, true), (t.p_mismatch, i, false)]).collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(b.2.cmp(&a.2)));
    // Each hypothesis's threshold α ÷ (n − k), and whether the step-down reached and rejected it.
    let mut level = vec![[f64::NAN; 2]; trials.len()];
    let mut rejected = vec![[false; 2]; trials.len()];
    let mut going = true;
    for (k, &(p, row, is_match)) in all.iter().enumerate() {
        let threshold = alpha / (n - k) as f64;
        going = going && p.is_finite() && p <= threshold;
        level[row][usize::from(!is_match)] = threshold;
        rejected[row][usize::from(!is_match)] = going;
    }
    (0..trials.len())
        .map(|row| match rejected[row] {
            [true, _] => Decision { claim: Claim::Match, level: level[row][0] },
            [false, true] => Decision { claim: Claim::Mismatch, level: level[row][1] },
            [false, false] => Decision { claim: Claim::Neither, level: level[row][0] },
        })
        .collect()
}

/// The replicates a bootstrap needs for Holm's smallest level to be reachable with a family of
/// `rows` rows: (1 + 0) ÷ (1 + B) ≤ α ÷ 2N.
pub(crate) fn replicates_needed(rows: usize, alpha: f64) -> usize {
    ((2 * rows.max(1)) as f64 / alpha).ceil() as usize
}

/// (1 + #{x ≤ t}) ÷ (1 + n).
fn tail_at_most(sorted: &[f64], t: f64) -> f64 {
    let count = sorted.partition_point(|x| *x <= t);
    (1 + count) as f64 / (1 + sorted.len()) as f64
}

/// (1 + #{x ≥ t}) ÷ (1 + n).
fn tail_at_least(sorted: &[f64], t: f64) -> f64 {
    let count = sorted.len() - sorted.partition_point(|x| *x < t);
    (1 + count) as f64 / (1 + sorted.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(centre: f64, width: f64, n: usize) -> Vec<f64> {
        (0..n).map(|i| centre + width * (i as f64 / (n - 1) as f64 - 0.5)).collect()
    }

    #[test]
    fn p_values_count_the_tails_and_are_never_zero() {
        let d = spread(0.0, 0.1, 999);
        let b = 1.1f64.ln();
        let t = latency_trial(&d, b);
        assert_eq!(t.p_match, 1.0 / 1000.0);
        assert!(t.p_mismatch > 0.99);
        let far = spread(0.5, 0.1, 999);
        let t = latency_trial(&far, b);
        assert_eq!(t.p_mismatch, 1.0 / 1000.0);
        assert!(t.p_match > 0.99);
    }

    #[test]
    fn holm_rejects_step_down_and_stops_at_the_first_failure() {
        let trials = [Trial { p_match: 0.001, p_mismatch: 0.9 }, Trial { p_match: 0.02, p_mismatch: 0.9 }, Trial { p_match: 0.9, p_mismatch: 0.004 }];
        let d = holm(&trials, 0.05);
        // Six hypotheses: 0.001 ≤ 0.05/6, 0.004 ≤ 0.05/5, 0.02 > 0.05/4: stop.
        assert_eq!(d[0].claim, Claim::Match);
        assert!((d[0].level - 0.05 / 6.0).abs() < 1e-15);
        assert_eq!(d[2].claim, Claim::Mismatch);
        assert!((d[2].level - 0.05 / 5.0).abs() < 1e-15);
        assert_eq!(d[1].claim, Claim::Neither);
        assert!((d[1].level - 0.05 / 4.0).abs() < 1e-15);
    }

    #[test]
    fn the_family_level_holds_over_many_null_rows() {
        // Every row's true ratio sits on the margin, the least favourable place for a false
        // MATCH; with independent uniform p-values, Holm's chance of any false claim stays at
        // or under α.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let tables = 4000;
        let mut any_false = 0;
        for _ in 0..tables {
            let trials: Vec<Trial> = (0..20).map(|_| Trial { p_match: rng.random::<f64>(), p_mismatch: 1.0 }).collect();
            if holm(&trials, 0.05).iter().any(|d| d.claim != Claim::Neither) {
                any_false += 1;
            }
        }
        let rate = any_false as f64 / tables as f64;
        assert!(rate <= 0.06, "family-wise false claims in {:.1} % of tables", rate * 100.0);
    }

    #[test]
    fn enough_replicates_reach_the_smallest_level() {
        let b = replicates_needed(60, 0.05);
        assert!(1.0 / (1 + b) as f64 <= 0.05 / 120.0);
    }
}
