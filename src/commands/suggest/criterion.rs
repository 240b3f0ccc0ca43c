//! The bounds criterion prints around a benchmark's estimate (`time: [4.3631 ms 4.4056 ms
//! 4.4546 ms]`): the first and last numbers of the bracket, read as the bounds of its bootstrap
//! interval, the mean's in flat sampling and the slope's in linear sampling
//! ([`crate::stats::bootstrap`]). The middle number is the estimate itself, which the plain
//! statistics and the slope propose.

use std::collections::BTreeSet;

use super::{Candidate, Selection, SeriesUnit, Source, filter_score, hints, in_quoted_unit, measured, units};
use crate::article::Sentence;
use crate::article::numbers::{Number, Quoted};
use crate::checks::stat::Measure;
use crate::evidence::readers::Format;
use crate::registry::Registry;
use crate::stats::bootstrap::{self, Estimate};

/// criterion's bound where `number` is the first (lower) or last (upper) of the three numbers
/// of a `time` cell of criterion's console output, and the bound of this selection's bootstrap
/// lies where the quote rounds: its band around the value, where criterion's own draw lies,
/// meets the quote's rounding. In a file sampled in linear mode the bound is the slope's,
/// over `batch_time_ns` by `iters`; else the mean's, over `time_ns`. The bracket names the
/// statistic as plainly as a header would, and it is scored so.
pub(super) fn bound_candidate(
    registry: &Registry,
    quoted: &Quoted,
    context: &BTreeSet<String>,
    source: &Source,
    sel: &Selection,
    sentence: &Sentence,
    number: &Number,
) -> Option<(Candidate, f64)> {
    if !matches!(source.format, Format::Criterion | Format::CargoCriterion) || sentence.cell.as_ref().is_none_or(|c| c.column_label != "time") {
        return None;
    }
    let at = sentence.numbers.iter().position(|n| n.span == number.span)?;
    let upper = match (at, sentence.numbers.len()) {
        (0, 3) => false,
        (2, 3) => true,
        _ => return None,
    };
    let linear = sel.slope.is_some();
    let field = if linear { "batch_time_ns" } else { "time_ns" };
    let series = sel.series.iter().find(|s| s.field == field && s.derive.is_none())?;
    let unit = SeriesUnit::Plain(units::of_field(&registry.field_units, field));
    // A bootstrap of 100,000 resamples costs a tenth of a second at 300 samples, and a file of
    // many benchmarks offers each as a selection: the mean's bound is first placed by the normal
    // approximation, mean ∓ 1.96 standard errors, and a selection whose approximation lies
    // more than a standard error from the quote is not drawn. The bootstrap's percentile departs
    // from that approximation by a fraction of a standard error, so no bound that could match is
    // passed over.
    if !linear {
        let n = series.samples.len() as f64;
        let se = series.samples.stdev() / n.sqrt();
        let z = bootstrap::CRITERION_NORMAL_QUANTILE;
        let approx = series.samples.mean() + if upper { z * se } else { -z * se };
        let (near, far) = (in_quoted_unit(quoted, approx - se, &unit)?, in_quoted_unit(quoted, approx + se, &unit)?);
        if !quoted.matches_within(near, far, None) {
            return None;
        }
    }
    let sorted = sel
        .bootstrap
        .get_or_init(|| {
            let estimate = if linear { Estimate::Slope(&sel.pairs) } else { Estimate::Mean(series.samples.sorted()) };
            bootstrap::distribution(&estimate, bootstrap::CRITERION_RESAMPLES)
        })
        .as_ref()?;
    let bound = bootstrap::bound(sorted, bootstrap::CRITERION_CONFIDENCE, upper);
    let (low, high) = (in_quoted_unit(quoted, bound.low, &unit)?, in_quoted_unit(quoted, bound.high, &unit)?);
    if !quoted.matches_within(low, high, None) {
        return None;
    }
    let value = in_quoted_unit(quoted, bound.value, &unit)?;
    let score = hints(context, source, sel, series) + 5.0 + filter_score(sel);
    let per = linear.then(|| "iters".to_string());
    let measure = Measure::CriterionBound { upper, confidence: bootstrap::CRITERION_CONFIDENCE, resamples: bootstrap::CRITERION_RESAMPLES, per };
    Some(measured(quoted, source, sel, series, measure, value, score))
}
