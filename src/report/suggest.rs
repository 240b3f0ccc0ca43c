//! Lays out what `suggest` found as TOML a registry can take: for each unbound number a comment
//! with its place and every candidate kept, then the best one as a `[[claim]]` with its check.
//! The output as a whole is a valid TOML document, so it can be pasted whole or in part. It
//! decides nothing: the order and the ties are the command's.

use std::fmt::Write;

use crate::article::Names;
use crate::article::numbers::Bound;
use crate::checks::stat::Measure;
use crate::commands::suggest::{Binding, NumberSuggestions, RatioStyle, StatRef, Suggestions, Target};

/// How many unreadable files are named one by one.
const SKIPPED_SHOWN: usize = 10;

/// The whole output.
pub(crate) fn render(s: &Suggestions) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# claimcheck suggest: checks that reproduce the unbound numbers, best first.");
    let _ = writeln!(out, "# Evidence read:");
    for (path, how) in &s.files {
        let _ = writeln!(out, "#   {path}: {how}");
    }
    // Files no reader accepts are listed only so far as a reader can take them in: a run
    // folder holds hundreds of metadata files.
    for (path, why) in s.skipped.iter().take(SKIPPED_SHOWN) {
        let _ = writeln!(out, "#   {path}: not read ({why})");
    }
    if s.skipped.len() > SKIPPED_SHOWN {
        let _ = writeln!(out, "#   … and {} more files not read as records", s.skipped.len() - SKIPPED_SHOWN);
    }
    for r in &s.registries {
        let found = r.numbers.iter().filter(|n| !n.candidates.is_empty()).count();
        let _ = writeln!(out, "\n# {} ({}): {} unbound numbers, {found} with a candidate", r.file, r.manuscript, r.numbers.len());
        for n in &r.numbers {
            number(&mut out, n);
        }
        if !r.verdicts.is_empty() {
            let cells = if r.verdicts.len() == 1 { "1 cell that says" } else { "cells that say" };
            let count = if r.verdicts.len() == 1 { String::new() } else { format!("{} ", r.verdicts.len()) };
            let _ = writeln!(out, "\n# {} ({}): {count}{cells} `not significant`, which no claim binds", r.file, r.manuscript);
            for n in &r.verdicts {
                number(&mut out, n);
            }
        }
    }
    out
}

fn number(out: &mut String, n: &NumberSuggestions) {
    let place = match &n.target {
        Target::Quote(q) => format!("in \"{}\"", shorten(q)),
        Target::Cell { row, column, section, table } => {
            let table = table.as_ref().map_or(String::new(), |t| format!(", table {}", t.toml()));
            match section {
                Some(s) => format!("in cell {row} › {column} ({s}{table})"),
                None if table.is_empty() => format!("in cell {row} › {column}"),
                None => format!("in cell {row} › {column} ({})", &table[2..]),
            }
        }
    };
    let _ = writeln!(out, "\n# {}:{}:{} `{}` {place}", n.file, n.line, n.col, n.number);
    match n.names {
        Some(Names::Row) => {
            let _ = writeln!(out, "# part of the row's name: a claim bound by `cell` in this row names it, so it needs no check");
            return;
        }
        Some(Names::Column) => {
            let _ = writeln!(out, "# part of a column's header: a claim bound by `cell` under it names it, so it needs no check");
            return;
        }
        None => {}
    }
    if let Some(bound) = n.bound {
        let side = if matches!(bound, Bound::Below | Bound::AtMost) { "below" } else { "above" };
        let _ = writeln!(
            out,
            "# a bound ({}), not a value: many statistics lie {side} it, so none is proposed; write its claim with the test or statistic the text means",
            bound.symbol()
        );
        return;
    }
    if n.candidates.is_empty() {
        let _ = writeln!(out, "# no statistic of the evidence reproduces it at its quoted precision and unit");
        return;
    }
    if n.tied > 1 {
        let _ = writeln!(out, "# {} candidates tie on what the text says; they are ordered by their distance to the quoted value", n.tied);
    }
    for (k, c) in n.candidates.iter().enumerate() {
        match c.binding {
            // A verdict has no value to be near, and no rival to be scored against.
            Binding::TTest { .. } => {
                let _ = writeln!(out, "#   {}. {}", k + 1, describe(&c.binding));
            }
            _ => {
                let _ = writeln!(out, "#   {}. {} (score {:.2}, value {})", k + 1, describe(&c.binding), c.score, trim(c.value));
            }
        }
    }
    let best = &n.candidates[0];
    let _ = writeln!(out, "[[claim]]");
    let _ = writeln!(out, "id = {}", quoted(&n.id));
    match &n.target {
        Target::Quote(q) => {
            let _ = writeln!(out, "quote = {}", quoted(q));
        }
        Target::Cell { row, column, section, table } => {
            let section = section.as_ref().map_or(String::new(), |s| format!(", section = {}", quoted(s)));
            let table = table.as_ref().map_or(String::new(), |t| format!(", table = {}", t.toml()));
            let _ = writeln!(out, "cell = {{ row = {}, column = {}{section}{table} }}", quoted(row), quoted(column));
        }
    }
    let _ = writeln!(out, "verdict = \"retain\"");
    if let Binding::Itself(s) = &best.binding {
        // No check: one that divides a statistic by itself could fail only by a typing error.
        let finding = format!(
            "{} marks the table's baseline: the {} compared with itself gives {} by construction, a label rather than a measurement.",
            n.number,
            records_words(s, &s.field),
            trim(best.value)
        );
        let _ = writeln!(out, "finding = {}", quoted(&finding));
        let _ = writeln!(out, "labels = [{}]", quoted(&n.number));
        return;
    }
    let finding = match &best.binding {
        Binding::TTest { significant: false, .. } => format!("{} finds no significant difference, as the cell says.", describe(&best.binding)),
        _ => format!("{} reproduces {}.", describe(&best.binding), n.number),
    };
    let _ = writeln!(out, "finding = {}", quoted(&finding));
    let _ = writeln!(out, "\n  [[claim.check]]");
    match &best.binding {
        // Written above, as a label without a check.
        Binding::Itself(_) => {}
        Binding::Stat(s) => {
            let _ = writeln!(out, "  kind = \"stat\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            if let Some(tolerance) = s.tolerance {
                let _ = writeln!(out, "  tolerance = {tolerance}");
            }
            for line in stat_lines(s) {
                let _ = writeln!(out, "  {line}");
            }
        }
        Binding::Ratio(a, b) => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            let _ = writeln!(out, "  expr = \"a / b\"");
            let _ = writeln!(out, "  vars.a = {{ {} }}", stat_lines(a).join(", "));
            let _ = writeln!(out, "  vars.b = {{ {} }}", stat_lines(b).join(", "));
        }
        Binding::ToBest { row, rivals, rate } => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            let names: Vec<String> = std::iter::once("this".to_string()).chain((1..=rivals.len()).map(|k| format!("r{k}"))).collect();
            let least = format!("min({})", names.join(", "));
            let expr = if *rate { format!("{least} / this") } else { format!("this / {least}") };
            let _ = writeln!(out, "  expr = {}", quoted(&expr));
            let _ = writeln!(out, "  note = \"the row against the best of its table: 1 only while no other row is faster\"");
            let _ = writeln!(out, "  vars.this = {{ {} }}", stat_lines(row).join(", "));
            for (name, rival) in names.iter().skip(1).zip(rivals) {
                let _ = writeln!(out, "  vars.{name} = {{ {} }}", stat_lines(rival).join(", "));
            }
        }
        Binding::MeanOfRatios { row, reciprocal, sd: true, style } => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            match style {
                RatioStyle::Value => {
                    let _ = writeln!(out, "  expr = {}", quoted(crate::commands::suggest::RATIO_SD));
                    let _ = writeln!(
                        out,
                        "  note = \"BenchmarkDotNet's RatioSD: the standard deviation of the ratios of every pair of the two cases' times, from their means, the means of their squares and their counts\""
                    );
                }
                RatioStyle::Percentage => {
                    let _ = writeln!(out, "  unit = \"%\"");
                    let _ = writeln!(out, "  expr = {}", quoted(&format!("100 * {} / (a * b)", crate::commands::suggest::RATIO_SD)));
                    let _ = writeln!(
                        out,
                        "  note = \"BenchmarkDotNet's RatioSD in its percentage style: the standard deviation of the ratios of every pair of the two cases' times in percent of their mean\""
                    );
                }
            }
            // The baseline's field is the one its reciprocal is derived from.
            let field = reciprocal.derive.as_ref().map_or(reciprocal.field.as_str(), |(_, expr)| expr.trim_start_matches("1 / "));
            let derived = |s: &StatRef, name: &str, expr: String| StatRef {
                derive: Some((name.to_string(), expr)),
                field: name.to_string(),
                statistic: Measure::Statistic(crate::stats::Statistic::Mean),
                ..s.clone()
            };
            let count = |s: &StatRef| StatRef { derive: None, field: field.to_string(), statistic: Measure::Statistic(crate::stats::Statistic::Count), ..s.clone() };
            let vars = [
                ("a", row.clone()),
                ("b", reciprocal.clone()),
                ("a2", derived(row, "square", format!("{field} * {field}"))),
                ("b2", derived(reciprocal, "reciprocal_square", format!("1 / ({field} * {field})"))),
                ("n", count(row)),
                ("m", count(reciprocal)),
            ];
            for (name, s) in vars {
                let _ = writeln!(out, "  vars.{name} = {{ {} }}", stat_lines(&s).join(", "));
            }
        }
        Binding::MeanOfRatios { row, reciprocal, sd: false, style } => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            match style {
                RatioStyle::Value => {
                    let _ = writeln!(out, "  expr = \"a * b\"");
                    let _ = writeln!(
                        out,
                        "  note = \"BenchmarkDotNet's Ratio: the mean of the ratios of every pair of the two cases' times, one case's mean times the mean of the other's reciprocals\""
                    );
                }
                RatioStyle::Percentage => {
                    let _ = writeln!(out, "  unit = \"%\"");
                    let _ = writeln!(out, "  expr = \"(a * b - 1) * 100\"");
                    let _ = writeln!(
                        out,
                        "  note = \"BenchmarkDotNet's Ratio in its percentage style: the mean of the ratios of every pair of the two cases' times, less one, in percent\""
                    );
                }
            }
            let _ = writeln!(out, "  vars.a = {{ {} }}", stat_lines(row).join(", "));
            let _ = writeln!(out, "  vars.b = {{ {} }}", stat_lines(reciprocal).join(", "));
        }
        Binding::RatioSpread(a, b) => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            let _ = writeln!(out, "  expr = {}", quoted(RATIO_SPREAD));
            let _ = writeln!(out, "  note = \"hyperfine's spread of a ratio: both relative standard deviations combined as if independent\"");
            let sd = |s: &StatRef| StatRef { statistic: Measure::Statistic(crate::stats::Statistic::Stdev), ..s.clone() };
            for (name, s) in [("a", a.clone()), ("b", b.clone()), ("a_sd", sd(a)), ("b_sd", sd(b))] {
                let _ = writeln!(out, "  vars.{name} = {{ {} }}", stat_lines(&s).join(", "));
            }
        }
        Binding::Share { part, whole } => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            let _ = writeln!(out, "  unit = \"%\"");
            let _ = writeln!(out, "  expr = \"100 * part / whole\"");
            let _ = writeln!(out, "  vars.part = {{ {} }}", stat_lines(part).join(", "));
            let _ = writeln!(out, "  vars.whole = {{ {} }}", stat_lines(whole).join(", "));
        }
        Binding::TTest { base, new, significant } => {
            let _ = writeln!(out, "  kind = \"ttest\"");
            let _ = writeln!(out, "  significant = {significant}");
            let _ = writeln!(out, "  base = {{ {} }}", query_lines(base).join(", "));
            let _ = writeln!(out, "  new = {{ {} }}", query_lines(new).join(", "));
        }
        Binding::UTest { base, new } => {
            let _ = writeln!(out, "  kind = \"utest\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            let _ = writeln!(out, "  base = {{ {} }}", query_lines(base).join(", "));
            let _ = writeln!(out, "  new = {{ {} }}", query_lines(new).join(", "));
        }
        Binding::Change { new, base, less } => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            let _ = writeln!(out, "  unit = \"%\"");
            let (expr, vars) = change_expr(new, base, *less);
            let _ = writeln!(out, "  expr = {}", quoted(&expr));
            for (name, s) in vars {
                let _ = writeln!(out, "  vars.{name} = {{ {} }}", stat_lines(s).join(", "));
            }
        }
        Binding::Geomean { of, unit } => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            if let Some(unit) = unit {
                let _ = writeln!(out, "  unit = {}", quoted(unit));
            }
            let names: Vec<String> = (1..=of.len()).map(|k| format!("m{k}")).collect();
            let logs: Vec<String> = names.iter().map(|m| format!("ln({m})")).collect();
            let _ = writeln!(out, "  expr = {}", quoted(&format!("exp(({}) / {})", logs.join(" + "), of.len())));
            for (name, s) in names.iter().zip(of) {
                let _ = writeln!(out, "  vars.{name} = {{ {} }}", stat_lines(s).join(", "));
            }
        }
        Binding::GeomeanRatio { new, base } => {
            let _ = writeln!(out, "  kind = \"arith\"");
            let _ = writeln!(out, "  number = {}", quoted(&n.number));
            let (expr, vars) = geomean_of_ratios(new, base);
            let _ = writeln!(out, "  expr = {}", quoted(&expr));
            let _ = writeln!(out, "  note = \"pyperf compare_to's geometric mean: of each benchmark's mean in one file over its mean in the other\"");
            for (name, s) in vars {
                let _ = writeln!(out, "  vars.{name} = {{ {} }}", stat_lines(s).join(", "));
            }
        }
        Binding::Counts(a, b) => {
            for (k, s) in [a, b].into_iter().enumerate() {
                if k > 0 {
                    let _ = writeln!(out, "\n  [[claim.check]]");
                }
                let _ = writeln!(out, "  kind = \"stat\"");
                let _ = writeln!(out, "  number = {}", quoted(&n.number));
                for line in stat_lines(s) {
                    let _ = writeln!(out, "  {line}");
                }
            }
        }
    }
}

/// The expression of a change in percent and its variables: `(new / old - 1) * 100` for one
/// statistic a side (`(1 - new / old) * 100` for a reduction), and for several benchstat's
/// geometric mean of the ratios, written as a product of ratios so that no product of many
/// times overflows.
fn change_expr<'a>(new: &'a [StatRef], base: &'a [StatRef], less: bool) -> (String, Vec<(String, &'a StatRef)>) {
    if let ([n], [o]) = (new, base) {
        let expr = if less { "(1 - new / old) * 100" } else { "(new / old - 1) * 100" };
        return (expr.into(), vec![("new".into(), n), ("old".into(), o)]);
    }
    let (geomean, vars) = geomean_of_ratios(new, base);
    (format!("{geomean} * 100 - 100"), vars)
}

/// The geometric mean of the ratios `new[k] / base[k]`, over the variables `n1`, `o1`, … .
fn geomean_of_ratios<'a>(new: &'a [StatRef], base: &'a [StatRef]) -> (String, Vec<(String, &'a StatRef)>) {
    let ratios: Vec<String> = (1..=new.len()).map(|k| format!("n{k} / o{k}")).collect();
    let expr = format!("({}) ^ (1 / {})", ratios.join(" * "), new.len());
    let vars = new.iter().enumerate().flat_map(|(k, n)| [(format!("n{}", k + 1), n), (format!("o{}", k + 1), &base[k])]).collect();
    (expr, vars)
}

/// hyperfine's spread of the ratio `a / b` of two means, over the variables `a`, `b` and their
/// standard deviations `a_sd`, `b_sd`.
const RATIO_SPREAD: &str = "a / b * sqrt((a_sd / a) ^ 2 + (b_sd / b) ^ 2)";

/// The keys of a `stat` query, one `key = value` each.
fn stat_lines(s: &StatRef) -> Vec<String> {
    let mut lines = query_lines(s);
    lines.push(format!("statistic = {}", quoted(&s.statistic.to_string())));
    match &s.statistic {
        Measure::Slope { per } => lines.push(format!("per = {}", quoted(per))),
        Measure::MedianCi { confidence } if *confidence != crate::checks::stat::DEFAULT_CONFIDENCE => lines.push(format!("confidence = {confidence}")),
        Measure::CriterionBound { per, confidence, resamples, .. } => {
            if let Some(per) = per {
                lines.push(format!("per = {}", quoted(per)));
            }
            if *confidence != crate::stats::bootstrap::CRITERION_CONFIDENCE {
                lines.push(format!("confidence = {confidence}"));
            }
            if *resamples != crate::stats::bootstrap::CRITERION_RESAMPLES {
                lines.push(format!("resamples = {resamples}"));
            }
        }
        Measure::MedianCi { .. } | Measure::JmhError | Measure::MeanRange | Measure::AsvError | Measure::Statistic(_) => {}
    }
    lines
}

/// The keys that pick the records and the field, without a statistic: a `utest` side.
fn query_lines(s: &StatRef) -> Vec<String> {
    let mut lines = vec![format!("samples = {}", quoted(&s.samples)), format!("format = {}", quoted(s.format.name()))];
    lines.push(match &s.select {
        Some((k, v)) => format!("select = {{ {} = {} }}", key(k), quoted(v)),
        None => "select = {}".to_string(),
    });
    if let Some(f) = &s.filter {
        lines.push(format!("where = {}", quoted(f)));
    }
    if let Some((name, expr)) = &s.derive {
        lines.push(format!("derive = {{ {} = {} }}", key(name), quoted(expr)));
    }
    lines.push(format!("field = {}", quoted(&s.field)));
    if s.outliers {
        lines.push(format!("outliers = {}", quoted(crate::checks::query::TUKEY)));
    }
    lines
}

/// A candidate in words: `median ttft_s of 150 records of evidence/a.json where error_code == null`.
fn describe(b: &Binding) -> String {
    match b {
        Binding::Stat(s) => stat_words(s),
        Binding::Ratio(a, b) => format!("{} over {}", stat_words(a), stat_words(b)),
        Binding::ToBest { row, rivals, .. } => format!("{} against the best of it and {} other rows", stat_words(row), rivals.len()),
        Binding::Itself(s) => format!("{} compared with itself, fixed by construction: a label", records_words(s, &s.field)),
        Binding::RatioSpread(a, b) => format!("hyperfine's spread of the ratio of {} over {}", stat_words(a), stat_words(b)),
        Binding::MeanOfRatios { row, reciprocal, sd: true, style } => {
            let what = match style {
                RatioStyle::Value => "the standard deviation of every pair's ratio",
                RatioStyle::Percentage => "the standard deviation of every pair's ratio in percent of their mean",
            };
            format!("BenchmarkDotNet's RatioSD, {what}: {} against {}", stat_words(row), stat_words(reciprocal))
        }
        Binding::MeanOfRatios { row, reciprocal, sd: false, style } => {
            let what = match style {
                RatioStyle::Value => "the mean of every pair's ratio",
                RatioStyle::Percentage => "the mean of every pair's ratio less one, in percent",
            };
            format!("BenchmarkDotNet's Ratio, {what}: {} times {}", stat_words(row), stat_words(reciprocal))
        }
        Binding::UTest { base, new } => format!("benchstat's U test p-value of {} (base) against {}", records_words(base, &base.field), records_words(new, &new.field)),
        Binding::TTest { base, new, .. } => format!("pyperf's t-test of {} (reference) against {}", records_words(base, &base.field), records_words(new, &new.field)),
        Binding::Change { new, base, less } => match (new.as_slice(), base.as_slice()) {
            ([n], [o]) if *less => format!("the reduction in % from {} to {}", stat_words(o), stat_words(n)),
            ([n], [o]) => format!("the change in % from {} to {}", stat_words(o), stat_words(n)),
            _ => format!("the change in % of the geometric mean of {} {} from {} to {}", new.len(), centers_words(new), files_words(base), files_words(new)),
        },
        Binding::Geomean { of, .. } => format!("the geometric mean of {} {} of {}", of.len(), centers_words(of), files_words(of)),
        Binding::Counts(a, b) => format!("{} and {}", stat_words(a), stat_words(b)),
        Binding::Share { part, whole } => format!("the share in % of {} in {}", stat_words(part), stat_words(whole)),
        Binding::GeomeanRatio { new, base } => {
            format!("the geometric mean of the ratios of {} {} of {} over {}", new.len(), centers_words(new), files_words(new), files_words(base))
        }
    }
}

/// What each of several statistics is, for a geometric mean: `medians`, or `means of the values
/// inside Tukey's fences` (benchstat before 2023).
fn centers_words(of: &[StatRef]) -> String {
    let what = match of.first().map(|s| &s.statistic) {
        Some(Measure::Statistic(crate::stats::Statistic::Mean)) => "means",
        _ => "medians",
    };
    if of.first().is_some_and(|s| s.outliers) { format!("{what} of the values inside Tukey's fences") } else { what.to_string() }
}

/// The field and files of several statistics, for a geometric mean: `time_ns of evidence/new`.
fn files_words(of: &[StatRef]) -> String {
    let mut files: Vec<&str> = of.iter().map(|s| s.samples.as_str()).collect();
    files.dedup();
    format!("{} in {}", of.first().map_or("", |s| s.field.as_str()), files.join(", "))
}

fn stat_words(s: &StatRef) -> String {
    let field = match &s.derive {
        Some((_, expr)) => format!("({expr})"),
        None => s.field.clone(),
    };
    let measured = match &s.statistic {
        Measure::Statistic(statistic) => format!("{statistic} {field}"),
        Measure::Slope { per } => format!("slope of {field} over {per}"),
        Measure::MedianCi { confidence } => format!("median-ci {field} (benchstat's {} % interval of the median, its wider side in %)", confidence * 100.0),
        Measure::JmhError => format!("99.9 % Student-t error of the mean of {field}"),
        Measure::MeanRange => format!("mean-range {field} (benchstat's range around the mean before 2023, its wider side in %)"),
        Measure::AsvError => format!("asv-error {field} (half the interquartile range, asv's `±`)"),
        Measure::CriterionBound { upper, per, .. } => {
            let side = if *upper { "upper" } else { "lower" };
            match per {
                Some(per) => format!("criterion-{side} {field} over {per} (the {side} bound of criterion's bootstrap interval of the slope)"),
                None => format!("criterion-{side} {field} (the {side} bound of criterion's bootstrap interval of the mean)"),
            }
        }
    };
    records_words(s, &measured)
}

/// `what` of the records a query picks: `median time_ns of 30 records of evidence/v1 with …`.
fn records_words(s: &StatRef, what: &str) -> String {
    let mut text = format!("{what} of {} records of {}", s.n, s.samples);
    if let Some((k, v)) = &s.select {
        let _ = write!(text, " with {k} = \"{v}\"");
    }
    if let Some(f) = &s.filter {
        let _ = write!(text, " where {f}");
    }
    if s.outliers {
        text.push_str(", outliers outside Tukey's fences dropped");
    }
    text
}

/// A TOML basic string.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML key: bare where it can be.
fn key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') { k.to_string() } else { quoted(k) }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn shorten(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 80 { text.to_string() } else { format!("{}…", chars[..79].iter().collect::<String>()) }
}
