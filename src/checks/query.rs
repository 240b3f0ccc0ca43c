//! The records a `stat` or `compare` check reads and the values it takes from them: the
//! evidence file read in its format, the records `select` and `where` keep, and a field read
//! or `derive`d per record. One place, so that every kind that recomputes from samples reads
//! them the same way.

use std::collections::BTreeMap;
use std::ops::Range;
use std::rc::Rc;

use toml::Spanned;

use super::Context;
use super::arith::{self, Expr};
use super::filter::Filter;
use crate::diagnostic::Diagnostic;
use crate::evidence::jsonl::{Jsonl, Record, Scalar};
use crate::evidence::readers::{Format, Table};
use crate::stats::{Samples, Statistic};

/// What a check asks of its evidence.
pub(crate) struct Query<'a> {
    pub samples: &'a Spanned<String>,
    pub format: Option<&'a Spanned<String>>,
    pub records: Option<&'a Spanned<String>>,
    pub select: &'a Spanned<BTreeMap<String, toml::Value>>,
    pub filter: Option<&'a Spanned<String>>,
    pub derive: &'a BTreeMap<String, Spanned<String>>,
    pub field: &'a Spanned<String>,
    /// `outliers = "tukey"`: the values outside Tukey's fences are dropped before any
    /// statistic, as benchstat before 2023 dropped them ([`crate::stats::fences`]); with
    /// `"tukey-linear"`, outside the fences around linear quartiles, as `pyperf stats` counts
    /// them.
    pub outliers: Option<&'a Spanned<String>>,
}

/// Tukey's fences around quartiles of type 8, as benchstat before 2023 dropped outliers:
/// `outliers = "tukey"` ([`crate::stats::fences::tukey`]).
pub(crate) const TUKEY: &str = "tukey";

/// Tukey's fences around linearly interpolated quartiles, as `pyperf stats` counts outliers:
/// `outliers = "tukey-linear"` ([`crate::stats::fences::tukey_linear`]).
pub(crate) const TUKEY_LINEAR: &str = "tukey-linear";

impl Query<'_> {
    /// Whether the query reads a JSONL file's field as it is: the file named `.jsonl` and read
    /// as JSONL, no `records`, no `where`, no `derive` of the field, no outliers dropped. Such a
    /// query is the records `select` keeps, their values unchanged, which the recheck (reading
    /// the file's records themselves) can answer as the check does.
    pub(crate) fn is_plain_jsonl(&self) -> bool {
        self.samples.get_ref().ends_with(".jsonl") && self.format.is_none_or(|f| f.get_ref() == "jsonl") && self.reads_field_as_is() && self.outliers.is_none()
    }

    /// No `records`, no `where`, no `derive` of the field. (Outliers are dropped from the
    /// values after they are read, however they were read.)
    fn reads_field_as_is(&self) -> bool {
        self.records.is_none() && self.filter.is_none() && !self.derive.contains_key(self.field.get_ref())
    }
}

/// Checks the keys that need no file: a known format, a filter and derived fields that parse,
/// a known way of dropping outliers.
pub(crate) fn validate(q: &Query<'_>) -> Result<(), (String, Range<usize>)> {
    let (format, filter, derive) = (q.format, q.filter, q.derive);
    if let Some(o) = q.outliers
        && ![TUKEY, TUKEY_LINEAR].contains(&o.get_ref().as_str())
    {
        return Err((
            format!(
                "unknown `outliers = \"{}\"`: the rules are \"{TUKEY}\" (Tukey's fences around quartiles of type 8, as benchstat before 2023) and \"{TUKEY_LINEAR}\" (around linear quartiles, as `pyperf stats`)",
                o.get_ref()
            ),
            o.span(),
        ));
    }
    if let Some(f) = format
        && Format::parse(f.get_ref()).is_none()
    {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        return Err((format!("unknown format `{}`: use one of {}", f.get_ref(), names.join(", ")), f.span()));
    }
    if let Some(w) = filter {
        Filter::parse(w.get_ref()).map_err(|e| (format!("`where`: {}", e.message), inside(w, &e.at)))?;
    }
    for expr in derive.values() {
        arith::parse(expr.get_ref()).map_err(|e| (format!("`derive`: {}", e.message), inside(expr, &e.at)))?;
    }
    Ok(())
}

/// A span inside a TOML string's value: its quote is one byte before the text.
fn inside(value: &Spanned<String>, at: &Range<usize>) -> Range<usize> {
    let start = value.span().start + 1;
    (start + at.start).min(value.span().end)..(start + at.end).min(value.span().end)
}

/// The evidence file, read in the format the check names or the one detected.
pub(crate) fn table(ctx: &Context<'_>, q: &Query<'_>) -> Result<Rc<Table>, Diagnostic> {
    let format = q.format.map(|f| Format::parse(f.get_ref()).ok_or_else(|| ctx.error_at(format!("unknown format `{}`", f.get_ref()), f.span(), "here"))).transpose()?;
    ctx.evidence.table(q.samples.get_ref(), format, q.records.map(|r| r.get_ref().as_str())).map_err(|e| ctx.locate(q.samples, e))
}

/// The values of the query's field over the records it keeps.
///
/// The samples a query gives are kept for the process, so that the same query in another
/// registry (or another check) reads nothing again; an error is not kept, since it is located
/// in the registry that asked.
/// What is kept is every value; `outliers` is applied to them on each call, so that the same
/// records read with and without it share one reading.
pub(crate) fn samples(ctx: &Context<'_>, q: &Query<'_>) -> Result<Samples, Diagnostic> {
    Ok(fenced(ctx, q)?.0)
}

/// The query's samples, and how many of the records' values its `outliers` rule dropped to
/// leave them (0 without one). The fences are fitted once per query and process, as the
/// samples are read once: a `stat` check's finding, an `arith` variable and a `utest` side
/// that name the same records ask again.
pub(crate) fn fenced(ctx: &Context<'_>, q: &Query<'_>) -> Result<(Samples, usize), Diagnostic> {
    let all = all_samples(ctx, q)?;
    Ok(match q.outliers {
        None => (all, 0),
        Some(rule) => {
            let linear = rule.get_ref() == TUKEY_LINEAR;
            let fenced = ctx.evidence.derived(&format!("{}|{}", key(q), rule.get_ref()), || {
                let fenced = if linear { crate::stats::fences::tukey_linear(&all) } else { crate::stats::fences::tukey(&all) };
                (fenced.kept, fenced.dropped)
            });
            fenced.as_ref().clone()
        }
    })
}

/// What names a query's values in the evidence store's cache: every key that picks them.
fn key(q: &Query<'_>) -> String {
    let field = q.field.get_ref();
    format!(
        "query:{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{field:?}",
        q.samples.get_ref(),
        q.format.map(|f| f.get_ref()),
        q.records.map(|r| r.get_ref()),
        q.select.get_ref(),
        q.filter.map(|w| w.get_ref()),
        q.derive.get(field).map(|e| e.get_ref()),
    )
}

/// Every value the query's records give, no outlier dropped.
fn all_samples(ctx: &Context<'_>, q: &Query<'_>) -> Result<Samples, Diagnostic> {
    let kept = ctx.evidence.derived(&key(q), || compute_samples(ctx, q).ok());
    match kept.as_ref() {
        Some(samples) => Ok(samples.clone()),
        None => compute_samples(ctx, q),
    }
}

fn compute_samples(ctx: &Context<'_>, q: &Query<'_>) -> Result<Samples, Diagnostic> {
    match streamed(ctx, q) {
        Some(samples) => Ok(samples),
        None => whole_samples(ctx, q),
    }
}

/// The samples from the file read whole, in its format, through `select`, `where` and
/// `derive`: every query can be answered so, and every error is said so.
fn whole_samples(ctx: &Context<'_>, q: &Query<'_>) -> Result<Samples, Diagnostic> {
    let table = table(ctx, q)?;
    let jsonl = &table.jsonl;
    let selected = kept(ctx, q, jsonl)?;
    field_samples(ctx, q, jsonl, &selected)
}

/// The query's field over `records`, read or `derive`d.
fn field_samples(ctx: &Context<'_>, q: &Query<'_>, jsonl: &Jsonl, records: &[&Record]) -> Result<Samples, Diagnostic> {
    let field = q.field.get_ref();
    let Some(expr) = q.derive.get(field) else {
        return jsonl.samples(records, field);
    };
    let parsed = arith::parse(expr.get_ref()).map_err(|e| ctx.error_at(format!("`derive`: {}", e.message), inside(expr, &e.at), "here"))?;
    let values = records.iter().map(|r| derived(ctx, jsonl, r, field, &parsed)).collect::<Result<Vec<_>, _>>()?;
    Samples::new(values).map_err(|e| ctx.error_at(format!("`{field}`: {e}"), expr.span(), "derived here"))
}

/// The query's field reduced group by group, as pandas' `groupby(by)[field].median()` reduces
/// it: the records the query keeps, grouped by the text of their field `by` in the order each
/// group first appears, each group's values to `statistic`. Each group's name and value, and
/// how many records there were. A record without `by` is an error at its line: it belongs to
/// no group, and leaving it out would change what the groups are of.
pub(crate) fn grouped(ctx: &Context<'_>, q: &Query<'_>, by: &str, statistic: Statistic) -> Result<(Vec<(String, f64)>, usize), Diagnostic> {
    let table = table(ctx, q)?;
    let jsonl = &table.jsonl;
    let selected = kept(ctx, q, jsonl)?;
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut members: Vec<Vec<&Record>> = Vec::new();
    for &record in &selected {
        let Some(value) = jsonl.get(record, by) else {
            return Err(jsonl.error_at(record, format!("no `{by}` in this record, and the check's `groups` groups the records by it"), "no such field"));
        };
        let name = jsonl.text_of(Some(value));
        let k = *index.entry(name.clone()).or_insert_with(|| {
            names.push(name);
            members.push(Vec::new());
            members.len() - 1
        });
        members[k].push(record);
    }
    let mut out = Vec::with_capacity(names.len());
    for (name, records) in names.into_iter().zip(&members) {
        out.push((name, field_samples(ctx, q, jsonl, records)?.statistic(statistic)));
    }
    Ok((out, selected.len()))
}

/// The samples of a plain query of a large JSONL, CSV or TSV file, streamed through the columnar reader
/// ([`Evidence::columns`](crate::evidence::store::Evidence::columns)) rather than parsed whole:
/// a field read as it is (no `derive`, no `where`, no `records`) from the records whose fields
/// equal the strings of `select`. They are the group of those strings, where every record of
/// the group holds them as strings (a number or a missing field of the same text is another
/// record, which `select` does not keep); its values are in file order, as `select` keeps them,
/// so that every statistic is the same to the last bit. `None` whenever that cannot be said,
/// and the whole-file reader decides, errors included.
fn streamed(ctx: &Context<'_>, q: &Query<'_>) -> Option<Samples> {
    let field = q.field.get_ref();
    let rel = q.samples.get_ref();
    // The format the name says (CSV and TSV are told by their names), named or detected.
    let named = match crate::evidence::store::delimiter(rel) {
        Some(b',') => "csv",
        Some(_) => "tsv",
        None if rel.ends_with(".jsonl") => "jsonl",
        None => return None,
    };
    let plain = q.format.is_none_or(|f| f.get_ref() == named) && q.reads_field_as_is();
    if !plain {
        return None;
    }
    let wanted: Vec<String> = q.select.get_ref().values().map(|v| v.as_str().filter(|s| !s.is_empty()).map(str::to_string)).collect::<Option<_>>()?;
    let by: Vec<String> = q.select.get_ref().keys().cloned().collect();
    let grouped = ctx.evidence.columns(q.samples.get_ref(), &by, field);
    let grouped = grouped.as_ref().as_ref()?;
    if !grouped.strings.contains(&wanted) {
        return None;
    }
    Samples::new(grouped.groups.get(&wanted)?.first()?.clone()).ok()
}

/// The `(per, field)` pairs of the records the query keeps, in file order: what a slope is
/// taken over. Each value is read or `derive`d as [`samples`] reads the field, and must be a
/// finite, non-negative number (an iteration count, a time); a record that breaks that is an
/// error at its line. The file is read whole, never streamed: the streaming reader keeps one
/// column, and a slope needs two that stay paired.
pub(crate) fn pairs(ctx: &Context<'_>, q: &Query<'_>, per: &str) -> Result<Vec<(f64, f64)>, Diagnostic> {
    let table = table(ctx, q)?;
    let jsonl = &table.jsonl;
    let selected = kept(ctx, q, jsonl)?;
    let xs = column(ctx, q, jsonl, &selected, per)?;
    let ys = column(ctx, q, jsonl, &selected, q.field.get_ref())?;
    Ok(xs.into_iter().zip(ys).collect())
}

/// One value of a query whose records are paired with another's by a key field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Keyed {
    /// The key field's value, as text (a number as JSON writes it).
    pub key: String,
    /// The query's field, read or derived, finite and not negative.
    pub value: f64,
}

/// The query's field in each record it keeps, with the record's value of `by`, in file order:
/// what a paired test pairs by its key. Each value is read or `derive`d as [`samples`] reads
/// the field. A record without `by`, or with a key an earlier record of the query already holds,
/// is an error at its line, since a pair takes one record of each key from each side. The file
/// is read whole, never streamed: the key and the value must stay together.
pub(crate) fn keyed(ctx: &Context<'_>, q: &Query<'_>, by: &str) -> Result<Vec<Keyed>, Diagnostic> {
    let table = table(ctx, q)?;
    let jsonl = &table.jsonl;
    let selected = kept(ctx, q, jsonl)?;
    let values = column(ctx, q, jsonl, &selected, q.field.get_ref())?;
    let mut first_line: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(selected.len());
    for (record, value) in selected.iter().zip(values) {
        let key = match jsonl.get(record, by) {
            None | Some(Scalar::Null) | Some(Scalar::Nested) => {
                return Err(jsonl.error_at(record, format!("no `{by}` to pair this record by"), "no key"));
            }
            Some(scalar) => jsonl.text_of(Some(scalar)),
        };
        if let Some(line) = first_line.insert(key.clone(), record.line) {
            return Err(jsonl.error_at(
                record,
                format!("`{by}` = {key} a second time among the records this side keeps (the first at line {line}): a pair takes one record of each `{by}` from each side"),
                "the same key again",
            ));
        }
        out.push(Keyed { key, value });
    }
    Ok(out)
}

/// One field's values over `selected`, in order, read or derived, each finite and non-negative.
fn column(ctx: &Context<'_>, q: &Query<'_>, jsonl: &Jsonl, selected: &[&Record], field: &str) -> Result<Vec<f64>, Diagnostic> {
    let Some(expr) = q.derive.get(field) else {
        return jsonl.values(selected, field);
    };
    let parsed = arith::parse(expr.get_ref()).map_err(|err| ctx.error_at(format!("`derive`: {}", err.message), inside(expr, &err.at), "here"))?;
    let mut out = Vec::with_capacity(selected.len());
    for &record in selected {
        let value = derived(ctx, jsonl, record, field, &parsed)?;
        if !value.is_finite() || value < 0.0 {
            return Err(jsonl.not_a_sample(record, field, value));
        }
        out.push(value);
    }
    Ok(out)
}

/// The records `select` and `where` keep; none is an error at `select`.
pub(crate) fn kept<'j>(ctx: &Context<'_>, q: &Query<'_>, jsonl: &'j Jsonl) -> Result<Vec<&'j Record>, Diagnostic> {
    let mut selected = jsonl.select(q.select.get_ref());
    if let Some(w) = q.filter {
        let filter = Filter::parse(w.get_ref()).map_err(|e| ctx.error_at(format!("`where`: {}", e.message), inside(w, &e.at), "here"))?;
        selected.retain(|r| filter.accepts(jsonl, r));
    }
    if selected.is_empty() {
        let what = if q.filter.is_some() { "select and where match" } else { "select matches" };
        return Err(ctx.error_at(format!("{what} no record of {}", q.samples.get_ref()), q.select.span(), "no sample has all of these fields"));
    }
    Ok(selected)
}

/// A derived field of one record: the expression over the record's numeric fields.
fn derived(ctx: &Context<'_>, jsonl: &Jsonl, record: &Record, field: &str, expr: &Expr) -> Result<f64, Diagnostic> {
    let mut vars = BTreeMap::new();
    for name in expr.variables() {
        let value = match jsonl.get(record, name) {
            Some(Scalar::Int(i)) => i as f64,
            Some(Scalar::Float(f)) => f,
            None => return Err(jsonl.error_at(record, format!("no `{name}` to derive `{field}` from"), "field missing")),
            Some(other) => return Err(jsonl.error_at(record, format!("`{name}` is {}, not a number, so `{field}` cannot be derived", jsonl.text_of(Some(other))), "not a number")),
        };
        vars.insert(name, value);
    }
    let _ = ctx;
    expr.eval(&vars).map_err(|e| jsonl.error_at(record, format!("deriving `{field}`: {}", e.message), "here"))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Fixture, check_toml};
    use crate::evidence::store::Ahead;

    const REQUESTS: &str = r#"[
  {"provider": "groq", "error_code": null, "number_output_tokens": 200, "end_to_end_latency_s": 1.0},
  {"provider": "groq", "error_code": null, "number_output_tokens": 300, "end_to_end_latency_s": 2.0},
  {"provider": "groq", "error_code": 429, "number_output_tokens": 0, "end_to_end_latency_s": 0},
  {"provider": "other", "error_code": null, "number_output_tokens": 10, "end_to_end_latency_s": 1.0}
]
"#;

    fn stat(extra: &str) -> String {
        format!(
            "kind = \"stat\"\nsamples = \"r.json\"\nselect = {{ provider = \"groq\" }}\nfield = \"tokens_per_s\"\nstatistic = \"median\"\nderive = {{ tokens_per_s = \"number_output_tokens / end_to_end_latency_s\" }}\n{extra}"
        )
    }

    #[test]
    fn a_derived_field_over_filtered_json_records() {
        let f = Fixture::new(&[("r.json", REQUESTS)]);
        let obs = f.observe(&check_toml(&stat("where = \"error_code == null\""))).unwrap();
        assert_eq!(obs.value, Some(175.0));
    }

    #[test]
    fn a_record_the_filter_lets_through_can_fail_the_derivation_at_its_line() {
        let f = Fixture::new(&[("r.json", REQUESTS)]);
        let err = f.observe(&check_toml(&stat(""))).unwrap_err();
        assert!(err.message.contains("division by zero"), "{}", err.render());
        assert_eq!(err.position().as_deref(), Some("r.json:4:1"), "{}", err.render());
    }

    #[test]
    fn format_where_and_derive_are_checked_when_the_registry_is_read() {
        let bad_format = super::super::testing::parse_error(&stat("format = \"xml\""));
        assert!(bad_format.contains("unknown format `xml`"), "{bad_format}");
        let bad_where = super::super::testing::parse_error(&stat("where = \"error_code = null\""));
        assert!(bad_where.contains("`where`"), "{bad_where}");
    }

    #[test]
    fn csv_samples_are_read_by_their_name() {
        let f = Fixture::new(&[("t.csv", "name,time_s\na,0.5\na,0.7\nb,9\n")]);
        let body = "kind = \"stat\"\nsamples = \"t.csv\"\nselect = { name = \"a\" }\nfield = \"time_s\"\nstatistic = \"mean\"";
        assert_eq!(f.observe(&check_toml(body)).unwrap().value, Some(0.6));
    }

    /// A JSONL file just over the size from which a plain query streams it: 75,000 samples of
    /// 8 configurations, with host times of every size and some fields that are not strings.
    fn large_samples() -> String {
        let mut text = String::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in 0..75_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let host = (x % 1_000_000) as f64 / 997.0 + (x % 7) as f64 * 1e-9;
            text.push_str(&format!(
                "{{\"suite\":\"softmax\",\"case\":\"c{}\",\"variant\":\"v{}\",\"mode\":\"graph\",\"round\":{},\"host_us\":{host},\"device_us\":{}}}\n",
                i % 4,
                i % 2,
                i / 8,
                x % 50
            ));
        }
        assert!(text.len() as u64 >= crate::evidence::store::STREAMED_FROM, "{} bytes", text.len());
        text
    }

    #[test]
    fn a_plain_query_of_a_large_file_streams_it_to_the_same_samples() {
        let text = large_samples();
        // The same configuration once more, with `case` as a number: `select` does not keep it.
        let mixed = format!("{text}{{\"suite\":\"softmax\",\"case\":7,\"variant\":\"v1\",\"mode\":\"graph\",\"host_us\":1}}\n");
        let f = Fixture::new(&[("s.jsonl", &text), ("m.jsonl", &mixed)]);
        // Streamed only where the audit's read ahead found the file large and left it open.
        let ahead = |files: &[&str]| files.iter().map(|f| (f.to_string(), Ahead::Jsonl)).collect::<Vec<_>>();
        f.evidence.read_ahead(&ahead(&["s.jsonl", "m.jsonl"]));
        let ctx = super::Context::new(&f.evidence, &f.article, &[], "claims/t.toml", "");
        let query = |file: &str, select: &str, extra: &str| {
            check_toml(&format!("kind = \"stat\"\nsamples = \"{file}\"\nselect = {{ {select} }}\nfield = \"host_us\"\nstatistic = \"mean\"\n{extra}"))
        };
        let streamed = |check: &super::super::Check| match &check.kind {
            super::super::Kind::Stat(spec) => super::streamed(&ctx, &spec.query()),
            _ => unreachable!(),
        };
        let both = |check: &super::super::Check| match &check.kind {
            super::super::Kind::Stat(spec) => (streamed(check), super::whole_samples(&ctx, &spec.query()).unwrap()),
            _ => unreachable!(),
        };
        // Streamed where the query is plain and its strings name a group of strings only: the
        // same values in the same order (the sum, so the mean, is order's to the last bit).
        for select in ["case = \"c1\", variant = \"v1\"", "case = \"c2\"", "mode = \"graph\", suite = \"softmax\"", ""] {
            let (streamed, whole) = both(&query("s.jsonl", select, ""));
            assert_eq!(streamed.as_ref(), Some(&whole), "{select}");
            assert_eq!(streamed.unwrap().mean().to_bits(), whole.mean().to_bits(), "{select}");
        }
        // Read whole otherwise: a number in `select`, a derived field, a filter, a group whose
        // text a number shares, a group that does not exist.
        for (file, select, extra) in [
            ("s.jsonl", "round = 3", ""),
            ("s.jsonl", "case = \"c1\"", "derive = { host_us = \"device_us * 2\" }"),
            ("s.jsonl", "case = \"c1\"", "where = \"device_us > 10\""),
            ("m.jsonl", "case = \"7\"", ""),
        ] {
            assert_eq!(streamed(&query(file, select, extra)), None, "{file} {select} {extra}");
        }
        let (got, whole) = both(&query("m.jsonl", "case = \"c3\", variant = \"v1\"", ""));
        assert_eq!(got, Some(whole));
        let check = query("s.jsonl", "case = \"nothing\"", "");
        assert_eq!(streamed(&check), None);
        let error = f.observe(&check).unwrap_err();
        assert!(error.message.contains("select matches no record"), "{}", error.message);
    }

    #[test]
    fn a_plain_query_of_a_large_csv_file_streams_it_to_the_same_samples() {
        // The same samples as CSV, and as TSV, with one `case` of digits (a number to the table
        // reader); three times over, to be as large as the JSONL file.
        let large = large_samples().repeat(3);
        let csv: String = std::iter::once("suite,case,variant,mode,round,host_us,device_us\n".to_string())
            .chain(large.lines().map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let f = |k: &str| v[k].to_string().trim_matches('"').to_string();
                format!("{},{},{},{},{},{},{}\n", f("suite"), f("case").replace("c3", "3"), f("variant"), f("mode"), f("round"), f("host_us"), f("device_us"))
            }))
            .collect();
        assert!(csv.len() as u64 >= crate::evidence::store::STREAMED_FROM, "{} bytes", csv.len());
        let tsv = csv.replace(',', "\t");
        let f = Fixture::new(&[("s.csv", &csv), ("s.tsv", &tsv)]);
        f.evidence.read_ahead(&[("s.csv".to_string(), Ahead::Stream), ("s.tsv".to_string(), Ahead::Stream)]);
        let ctx = super::Context::new(&f.evidence, &f.article, &[], "claims/t.toml", "");
        for file in ["s.csv", "s.tsv"] {
            for (select, streams) in [("case = \"c1\", variant = \"v1\"", true), ("", true), ("case = \"3\"", false), ("round = 3", false)] {
                let check = check_toml(&format!("kind = \"stat\"\nsamples = \"{file}\"\nselect = {{ {select} }}\nfield = \"host_us\"\nstatistic = \"mean\""));
                let super::super::Kind::Stat(spec) = &check.kind else { unreachable!() };
                let streamed = super::streamed(&ctx, &spec.query());
                assert_eq!(streamed.is_some(), streams, "{file} {select}");
                if let Some(streamed) = streamed {
                    assert_eq!(streamed, super::whole_samples(&ctx, &spec.query()).unwrap(), "{file} {select}");
                }
            }
        }
    }

    #[test]
    fn a_large_file_with_a_bad_sample_elsewhere_is_read_whole_and_answers_as_before() {
        // A negative host time in another configuration: the columnar reader refuses the file,
        // the whole-file reader takes only the selected records, as it always has.
        let text = large_samples().replacen(
            "\"case\":\"c3\",\"variant\":\"v1\",\"mode\":\"graph\",\"round\":0,\"host_us\":",
            "\"case\":\"c3\",\"variant\":\"v1\",\"mode\":\"graph\",\"round\":0,\"host_us\":-",
            1,
        );
        let f = Fixture::new(&[("s.jsonl", &text)]);
        f.evidence.read_ahead(&[("s.jsonl".to_string(), Ahead::Jsonl)]);
        let body = "kind = \"stat\"\nsamples = \"s.jsonl\"\nselect = { case = \"c1\" }\nfield = \"host_us\"\nstatistic = \"p95\"";
        assert!(f.observe(&check_toml(body)).unwrap().value.is_some());
        let bad = body.replace("\"c1\"", "\"c3\"");
        let error = f.observe(&check_toml(&bad)).unwrap_err();
        assert!(error.message.contains("negative"), "{}", error.message);
        assert!(error.render().contains("s.jsonl:4:"), "{}", error.render());
    }
}
