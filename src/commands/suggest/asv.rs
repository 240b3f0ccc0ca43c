//! The cells of airspeed velocity's output, read by what asv prints there: after a median's
//! `±`, half the interquartile range of its samples; under `Ratio` in its comparison table, the
//! after file's median over the before file's, of the benchmark and parameters the row names.
//!
//! asv's `compare` (airspeed-velocity/asv 0.6.6, `asv/commands/compare.py`) prints each side
//! with `human_value(result, unit, err)`, the result being the median asv stored and the error
//! `(q75 − q25) / 2` of the samples (asv_runner's `get_err`), the median to three significant
//! digits and the error to one (`human_float(err, 1, truncate_small=2)` in asv_runner's
//! `util.py`); and the ratio as `f"{time_2 / time_1:6.2f}"`, `~` before it where the change is
//! not significant. The columns name the commits as `Before [7d98489b]` and `After [b444ec0a]`,
//! and asv names each results file `<commit>-<environment>.json`, eight hex digits first, so a
//! file whose name begins with a column's commit is that column's.

use std::collections::BTreeSet;

use super::{
    Binding, Candidate, Measure, Selection, Series, SeriesUnit, Source, by_distance, context_words, filter_score, follows_plus_minus, hints, in_quoted_unit, measured, quotable,
    units,
};
use crate::article::numbers::{Number, Quoted, Scale};
use crate::article::{Article, Sentence};
use crate::evidence::jsonl::{Jsonl, Record};
use crate::evidence::readers::Format;
use crate::evidence::readers::asv::split_environments;
use crate::registry::Registry;
use crate::stats::Statistic;

/// The machine and environment every record of an asv file was measured in, as `asv compare`
/// writes them after a row's name (`vm/virtualenv-py3.12-numpy`): asv writes one results file
/// for each commit, machine and environment.
pub(super) fn environment(jsonl: &Jsonl, records: &[&Record]) -> Option<String> {
    let of = |r: &Record| {
        let text = |field: &str| jsonl.get(r, field).and_then(|v| jsonl.str(v));
        Some(format!("{}/{}", text("machine")?, text("env")?))
    };
    let (first, rest) = records.split_first()?;
    let environment = of(first)?;
    rest.iter().all(|r| of(r).as_ref() == Some(&environment)).then_some(environment)
}

/// The benchmark a cell's row of asv's comparison names where the row also names environments
/// (`name [vm/env]`), with the environment of the cell's side: the `Before` column's or the
/// `After` column's, and in any other column the one both sides share, if they do.
pub(super) fn row_environment(sentence: &Sentence) -> Option<(&str, Option<&str>)> {
    let cell = sentence.cell.as_ref()?;
    let (name, Some((before, after))) = split_environments(&cell.row_label) else { return None };
    let column = cell.column_label.to_ascii_lowercase();
    let side = if column.starts_with("before") {
        Some(before)
    } else if column.starts_with("after") {
        Some(after)
    } else {
        (before == after).then_some(before)
    };
    Some((name, side))
}

/// asv's error of a selection's samples, where the number is written after a median with `±`
/// between them (`79.2±3μs`) and reproduces it: half the interquartile range of the samples,
/// which asv prints there and no statistic of [`super::STATISTICS`] gives. The `±` names it as
/// plainly as a header that spells a statistic, and it is scored so.
pub(super) fn error_candidate(
    registry: &Registry,
    quoted: &Quoted,
    context: &BTreeSet<String>,
    source: &Source,
    sel: &Selection,
    sentence: &Sentence,
    number: &Number,
) -> Option<(Candidate, f64)> {
    if source.format != Format::Asv || !follows_plus_minus(sentence, number) {
        return None;
    }
    let series = sel.series.iter().find(|s| s.field == "time_s" && s.derive.is_none())?;
    let error = series.samples.half_interquartile_range();
    let value = in_quoted_unit(quoted, error, &SeriesUnit::Plain(units::of_field(&registry.field_units, &series.field)))?;
    // asv prints its error to one significant digit (`human_float(err, 1, truncate_small=2)`
    // in asv_runner's `util.py`): a quote of 10 or more resolves its first digit only, which
    // the half-unit rule would read as its last.
    let tolerance = if quoted.matches(value, None) {
        None
    } else {
        let step = 10f64.powf(quoted.value.abs().log10().floor());
        let one_digit = quoted.decimals == 0 && quoted.scale == Scale::None && quoted.value >= 10.0 && quoted.value % step == 0.0;
        if !(one_digit && quoted.matches(value, Some(step / 2.0))) {
            return None;
        }
        Some(step / 2.0)
    };
    let score = hints(context, source, sel, series) + 5.0 + filter_score(sel);
    let (mut candidate, distance) = measured(quoted, source, sel, series, Measure::AsvError, value, score);
    if let Binding::Stat(stat) = &mut candidate.binding {
        stat.tolerance = tolerance;
    }
    Some((candidate, distance))
}

/// The `Ratio` cell of a row of asv's comparison table: for each pair of asv files holding the
/// row's benchmark (`name`), the median of one over the median of the other, where it
/// reproduces the quote; scored up where the files are the ones the `After` and `Before`
/// columns name by commit. Where the row names environments, the after file is of the after
/// side's, the before file of the before side's.
pub(super) fn ratio_candidates(sources: &[Source], article: &Article, sentence: &Sentence, number: &Number) -> Vec<Candidate> {
    // `Ratio` in asv 0.6's table, `ratio` in the layout before it.
    let Some(cell) = sentence.cell.as_ref().filter(|c| c.column_label.eq_ignore_ascii_case("ratio")) else { return vec![] };
    let Some(quoted) = quotable(number) else { return vec![] };
    let commit_of = |side: &str| {
        let label = article.sentences.iter().filter_map(|s| s.cell.as_ref()).find(|c| c.table == cell.table && c.column_label.starts_with(side))?.column_label.clone();
        let (_, rest) = label.split_once('[')?;
        rest.split_once(']').map(|(hash, _)| hash.to_string())
    };
    let (before, after) = (commit_of("Before"), commit_of("After"));
    let is_of = |source: &Source, commit: &Option<String>| {
        let file = source.path.rsplit('/').next().unwrap_or(&source.path);
        commit.as_deref().is_some_and(|c| !c.is_empty() && file.starts_with(c))
    };
    let context = context_words(sentence, number);
    let (name, environments) = split_environments(&cell.row_label);
    let (before_environment, after_environment) = environments.unzip();
    let in_environment = |source: &Source, side: Option<&str>| side.is_none_or(|e| source.environment.as_deref() == Some(e));
    let rows: Vec<(&Source, &Selection, &Series)> = sources
        .iter()
        .filter(|s| s.format == Format::Asv)
        .filter_map(|source| {
            let sel = source.selections.iter().find(|sel| sel.filter.is_none() && sel.select.as_ref().is_some_and(|(f, v)| f == "name" && v == name))?;
            let series = sel.series.iter().find(|s| s.derive.is_none() && ["time_s", "memory_bytes", "value"].contains(&s.field.as_str()))?;
            Some((source, sel, series))
        })
        .collect();
    let mut out = Vec::new();
    for &(sa, sel_a, a) in &rows {
        for &(sb, sel_b, b) in &rows {
            if std::ptr::eq(sa, sb) || a.field != b.field || !in_environment(sa, after_environment) || !in_environment(sb, before_environment) {
                continue;
            }
            let value = a.samples.median() / b.samples.median();
            if !value.is_finite() || !quoted.matches(value, None) {
                continue;
            }
            let named = f64::from(u8::from(is_of(sa, &after))) + f64::from(u8::from(is_of(sb, &before)));
            let score = hints(&context, sa, sel_a, a) + hints(&context, sb, sel_b, b) + 5.0 + named;
            let side = |source: &Source, sel: &Selection, s: &Series| super::query_ref(source, sel, s, Measure::Statistic(Statistic::Median));
            out.push((Candidate { binding: Binding::Ratio(side(sa, sel_a, a), side(sb, sel_b, b)), value, score }, (value - quoted.value).abs()));
        }
    }
    by_distance(out)
}
