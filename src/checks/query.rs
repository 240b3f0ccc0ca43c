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
use crate::stats::Samples;

/// What a check asks of its evidence.
pub(crate) struct Query<'a> {
    pub samples: &'a Spanned<String>,
    pub format: Option<&'a Spanned<String>>,
    pub records: Option<&'a Spanned<String>>,
    pub select: &'a Spanned<BTreeMap<String, toml::Value>>,
    pub filter: Option<&'a Spanned<String>>,
    pub derive: &'a BTreeMap<String, Spanned<String>>,
    pub field: &'a Spanned<String>,
}

/// Checks the keys that need no file: a known format, a filter and derived fields that parse.
pub(crate) fn validate(
    format: Option<&Spanned<String>>,
    filter: Option<&Spanned<String>>,
    derive: &BTreeMap<String, Spanned<String>>,
) -> Result<(), (String, Range<usize>)> {
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
pub(crate) fn samples(ctx: &Context<'_>, q: &Query<'_>) -> Result<Samples, Diagnostic> {
    let field = q.field.get_ref();
    let key = format!(
        "query:{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{field:?}",
        q.samples.get_ref(),
        q.format.map(|f| f.get_ref()),
        q.records.map(|r| r.get_ref()),
        q.select.get_ref(),
        q.filter.map(|w| w.get_ref()),
        q.derive.get(field).map(|e| e.get_ref()),
    );
    let kept = ctx.evidence.derived(&key, || compute_samples(ctx, q).ok());
    match kept.as_ref() {
        Some(samples) => Ok(samples.clone()),
        None => compute_samples(ctx, q),
    }
}

fn compute_samples(ctx: &Context<'_>, q: &Query<'_>) -> Result<Samples, Diagnostic> {
    let table = table(ctx, q)?;
    let jsonl = &table.jsonl;
    let selected = kept(ctx, q, jsonl)?;
    let field = q.field.get_ref();
    let Some(expr) = q.derive.get(field) else {
        return jsonl.samples(&selected, field);
    };
    let parsed = arith::parse(expr.get_ref()).map_err(|e| ctx.error_at(format!("`derive`: {}", e.message), inside(expr, &e.at), "here"))?;
    let values = selected.iter().map(|r| derived(ctx, jsonl, r, field, &parsed)).collect::<Result<Vec<_>, _>>()?;
    Samples::new(values).map_err(|e| ctx.error_at(format!("`{field}`: {e}"), expr.span(), "derived here"))
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

    const REQUESTS: &str = r#"[
  {"provider": "groq", "error_code": null, "number_output_tokens": 200, "end_to_end_latency_s": 1.0},
  {"provider": "groq", "error_code": null, "number_output_tokens": 300, "end_to_end_latency_s": 2.0},
  {"provider": "groq", "error_code": 429, "number_output_tokens": 0, "end_to_end_latency_s": 0},
  {"provider": "other", "error_code": null, "number_output_tokens": 10, "end_to_end_latency_s": 1.0}
]
"#;

    fn stat(extra: &str) -> String {
        format!("kind = \"stat\"\nsamples = \"r.json\"\nselect = {{ provider = \"groq\" }}\nfield = \"tokens_per_s\"\nstatistic = \"median\"\nderive = {{ tokens_per_s = \"number_output_tokens / end_to_end_latency_s\" }}\n{extra}")
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
}
