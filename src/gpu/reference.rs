//! FP64 CPU references for every workload, and the comparison that fills a validation
//! record. Nothing here touches the GPU, so all of it is tested in CI.

use crate::evidence::ValidationRecord;

/// The pointwise chain y = (x·a + b)², with its two intermediates.
pub(crate) fn pointwise(x: &[f32], a: f32, b: f32) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let t1: Vec<f64> = x.iter().map(|&v| v as f64 * a as f64).collect();
    let t2: Vec<f64> = t1.iter().map(|&v| v + b as f64).collect();
    let y = t2.iter().map(|&v| v * v).collect();
    (t1, t2, y)
}

/// Per-row statistics and output of a row softmax: with `rms`, y = softmax(x / rms(x)) where
/// rms(x) = sqrt(mean(x²) + eps); without, the plain stable softmax (and `rms` is 1).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RowSoftmax {
    pub rms: Vec<f64>,
    /// Maximum of the (scaled) row.
    pub max: Vec<f64>,
    /// Sum of exp(scaled x − max) over the row.
    pub sum: Vec<f64>,
    pub y: Vec<f64>,
}

pub(crate) fn row_softmax(x: &[f32], rows: usize, cols: usize, eps: f64, rms: bool) -> RowSoftmax {
    let mut out = RowSoftmax { rms: vec![], max: vec![], sum: vec![], y: vec![0.0; rows * cols] };
    for r in 0..rows {
        let row = &x[r * cols..(r + 1) * cols];
        let scale = if rms { (row.iter().map(|&v| (v as f64).powi(2)).sum::<f64>() / cols as f64 + eps).sqrt() } else { 1.0 };
        let scaled: Vec<f64> = row.iter().map(|&v| v as f64 / scale).collect();
        let m = scaled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = scaled.iter().map(|v| (v - m).exp()).sum();
        for (c, v) in scaled.iter().enumerate() {
            out.y[r * cols + c] = (v - m).exp() / s;
        }
        out.rms.push(scale);
        out.max.push(m);
        out.sum.push(s);
    }
    out
}

/// The tiled A/B/C softmax's intermediates and output, for rows of the given lengths (each a
/// multiple of `tile`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tiled {
    pub tile_m: Vec<f64>,
    pub tile_z: Vec<f64>,
    pub row_m: Vec<f64>,
    pub row_z: Vec<f64>,
    pub y: Vec<f64>,
}

pub(crate) fn tiled_softmax(x: &[f32], row_lengths: &[usize], tile: usize) -> Tiled {
    let mut out = Tiled { tile_m: vec![], tile_z: vec![], row_m: vec![], row_z: vec![], y: vec![0.0; x.len()] };
    let mut offset = 0;
    for &len in row_lengths {
        let row = &x[offset..offset + len];
        let first_tile = out.tile_m.len();
        for chunk in row.chunks(tile) {
            let m = chunk.iter().map(|&v| v as f64).fold(f64::NEG_INFINITY, f64::max);
            out.tile_m.push(m);
            out.tile_z.push(chunk.iter().map(|&v| (v as f64 - m).exp()).sum());
        }
        let tiles = first_tile..out.tile_m.len();
        let m = out.tile_m[tiles.clone()].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = tiles.map(|t| out.tile_z[t] * (out.tile_m[t] - m).exp()).sum();
        for (i, &v) in row.iter().enumerate() {
            out.y[offset + i] = (v as f64 - m).exp() / z;
        }
        out.row_m.push(m);
        out.row_z.push(z);
        offset += len;
    }
    out
}

/// The pointwise chain in FP32 with each operation correctly rounded, as `__fmul_rn` and
/// `__fadd_rn` compute it: the GPU must match it bit for bit.
pub(crate) fn pointwise_f32(x: &[f32], a: f32, b: f32) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    // Rust's f32 operations are IEEE round-to-nearest and never contracted into an FMA.
    let t1: Vec<f32> = x.iter().map(|&v| v * a).collect();
    let t2: Vec<f32> = t1.iter().map(|&v| v + b).collect();
    let y = t2.iter().map(|&v| v * v).collect();
    (t1, t2, y)
}

/// Which error a comparison's tolerance bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Criterion {
    /// The largest element-wise relative error.
    MaxRel,
    /// ‖out − ref‖₂ / ‖ref‖₂: for results with cancellation, where an element-wise bound
    /// would blame correct rounding of the inputs.
    NormRel,
}

/// What a comparison is about, for its validation record.
#[derive(Debug, Clone)]
pub(crate) struct Compared<'a> {
    pub suite: &'a str,
    pub case: &'a str,
    pub variant: &'a str,
    pub what: &'a str,
    pub fixture: u64,
    pub tolerance: f64,
    pub criterion: Criterion,
}

/// Compares `got` with `reference`: the largest absolute error, the largest element-wise
/// relative error (against |reference|, never below 1e-30), and the elements left unwritten
/// (still NaN from the poisoning, or otherwise not finite).
pub(crate) fn compare(c: &Compared<'_>, got: &[f32], reference: &[f64]) -> ValidationRecord {
    let mut max_abs: f64 = 0.0;
    let mut max_rel: f64 = 0.0;
    let mut unwritten = 0;
    let (mut err2, mut ref2) = (0.0f64, 0.0f64);
    for (&g, &r) in got.iter().zip(reference) {
        ref2 += r * r;
        if !g.is_finite() {
            unwritten += 1;
            continue;
        }
        let err = (g as f64 - r).abs();
        err2 += err * err;
        max_abs = max_abs.max(err);
        max_rel = max_rel.max(err / r.abs().max(1e-30));
    }
    if got.len() != reference.len() {
        unwritten += got.len().abs_diff(reference.len());
    }
    let norm_rel = if ref2 > 0.0 { (err2 / ref2).sqrt() } else { err2.sqrt() };
    let judged = match c.criterion {
        Criterion::MaxRel => max_rel,
        Criterion::NormRel => norm_rel,
    };
    let pass = unwritten == 0 && judged <= c.tolerance;
    ValidationRecord {
        suite: c.suite.into(),
        case: c.case.into(),
        variant: c.variant.into(),
        what: c.what.into(),
        fixture: c.fixture,
        elements: reference.len(),
        max_abs_err: max_abs,
        max_rel_err: max_rel,
        norm_rel_err: norm_rel,
        criterion: match c.criterion {
            Criterion::MaxRel => "max-rel",
            Criterion::NormRel => "norm-rel",
        }
        .into(),
        tolerance: c.tolerance,
        unwritten,
        differing: 0,
        pass,
    }
}

/// Compares two FP32 results bit for bit (fused against unfused pointwise).
pub(crate) fn compare_bits(c: &Compared<'_>, got: &[f32], other: &[f32]) -> ValidationRecord {
    let reference: Vec<f64> = other.iter().map(|&v| v as f64).collect();
    let mut record = compare(c, got, &reference);
    record.differing = got.iter().zip(other).filter(|(a, b)| a.to_bits() != b.to_bits()).count() + got.len().abs_diff(other.len());
    record.criterion = "bits".into();
    record.tolerance = 0.0;
    record.pass = record.unwritten == 0 && record.differing == 0;
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_softmax_rows_sum_to_one_and_are_shift_invariant() {
        let x: Vec<f32> = (0..12).map(|i| (i as f32 * 0.37).sin() * 10.0).collect();
        let plain = row_softmax(&x, 3, 4, 1e-6, false);
        for r in 0..3 {
            let s: f64 = plain.y[r * 4..r * 4 + 4].iter().sum();
            assert!((s - 1.0).abs() < 1e-12);
        }
        let shifted: Vec<f32> = x.iter().map(|v| v + 5.0).collect();
        let again = row_softmax(&shifted, 3, 4, 1e-6, false);
        for (a, b) in plain.y.iter().zip(&again.y) {
            assert!((a - b).abs() < 1e-6);
        }
    }

    #[test]
    fn rms_scaling_divides_by_the_root_mean_square() {
        let x = [3.0f32, 4.0];
        let out = row_softmax(&x, 1, 2, 0.0, true);
        assert!((out.rms[0] - (12.5f64).sqrt()).abs() < 1e-12);
        assert!((out.max[0] - 4.0 / 12.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn tiled_softmax_equals_the_plain_one() {
        let x: Vec<f32> = (0..4096 + 2048).map(|i| ((i * 7919) % 1000) as f32 / 50.0 - 10.0).collect();
        let tiled = tiled_softmax(&x, &[4096, 2048], 1024);
        assert_eq!((tiled.tile_m.len(), tiled.row_m.len()), (6, 2));
        let first = row_softmax(&x[..4096], 1, 4096, 0.0, false);
        for (a, b) in tiled.y[..4096].iter().zip(&first.y) {
            assert!((a - b).abs() < 1e-15);
        }
        assert!((tiled.row_z[0] - first.sum[0]).abs() / first.sum[0] < 1e-12);
    }

    #[test]
    fn pointwise_intermediates() {
        let (t1, t2, y) = pointwise(&[1.0, -2.0], 3.0, 0.5);
        assert_eq!((t1, t2, y), (vec![3.0, -6.0], vec![3.5, -5.5], vec![12.25, 30.25]));
    }

    fn c(tolerance: f64) -> Compared<'static> {
        Compared { suite: "s", case: "c", variant: "v", what: "y", fixture: 1, tolerance, criterion: Criterion::MaxRel }
    }

    #[test]
    fn poisoned_elements_count_as_unwritten() {
        let r = compare(&c(1e-5), &[1.0, f32::NAN], &[1.0, 2.0]);
        assert_eq!(r.unwritten, 1);
        assert!(!r.pass);
    }

    #[test]
    fn relative_error_is_judged_against_the_tolerance() {
        assert!(compare(&c(1e-5), &[1.000001], &[1.0]).pass);
        assert!(!compare(&c(1e-7), &[1.000001], &[1.0]).pass);
    }

    #[test]
    fn norm_wise_error_forgives_cancellation_that_element_wise_error_blames() {
        // The second element is a near-cancellation: tiny in value, large in relative error.
        let got = [1.0f32, 1e-7];
        let reference = [1.0, 1.1e-7];
        let element = compare(&c(1e-6), &got, &reference);
        assert!(!element.pass);
        let norm = compare(&Compared { criterion: Criterion::NormRel, ..c(1e-6) }, &got, &reference);
        assert!(norm.pass, "{norm:?}");
    }

    #[test]
    fn the_fp32_emulation_rounds_each_operation() {
        let (t1, _, y) = pointwise_f32(&[0.1], 3.0, 0.5);
        assert_eq!(t1[0], 0.1f32 * 3.0f32);
        assert_eq!(y[0], (0.1f32 * 3.0 + 0.5) * (0.1f32 * 3.0 + 0.5));
    }

    #[test]
    fn bitwise_comparison_catches_one_ulp() {
        let a = [1.0f32, 2.0];
        let b = [1.0f32, f32::from_bits(2.0f32.to_bits() + 1)];
        assert!(compare_bits(&c(1e-5), &a, &a).pass);
        assert!(!compare_bits(&c(1e-5), &a, &b).pass);
    }
}
