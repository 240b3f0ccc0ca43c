//! `audit --format github`: the audit's findings as GitHub Actions workflow commands, so that a
//! failing number is annotated on the line of the pull request that changed it:
//!
//! ```text
//! ::error file=article/a.md,line=39,col=42,endLine=39,endColumn=51,title=CC002 number-changed (F6)::F6 check 1 (stat 163.49 µs): FAIL: …
//! ```
//!
//! A finding the audit passes (an unbound number under `[policy] unbound = "warn"`, HTML it
//! could not read) is a `::warning`, so that a passing job shows no error.
//!
//! GitHub shows at most ten error and ten warning annotations per step, so the first ten
//! findings of each level are annotations and the rest are summarised in one notice and listed
//! as plain log lines (the job summary, `--summary`, lists every one). Columns are characters;
//! `endColumn` is exclusive.

use super::annotations::{self, Annotation, Level};
use crate::commands::audit::Review;

/// How many annotations of one level GitHub displays for one step.
pub(crate) const MAX_ANNOTATIONS: usize = 10;

/// The workflow commands for a review, one a line.
pub(crate) fn render(review: &Review) -> String {
    let all = annotations::annotations(review);
    let mut out = String::new();
    let mut rest = Vec::new();
    let mut shown = [0usize; 2];
    for a in &all {
        let count = &mut shown[usize::from(a.level == Level::Warning)];
        if *count < MAX_ANNOTATIONS {
            *count += 1;
            out.push_str(&command(a));
            out.push('\n');
        } else {
            rest.push(a);
        }
    }
    if !rest.is_empty() {
        out.push_str(&format!(
            "::notice title=claimcheck::{}\n",
            escape_data(&format!(
                "{} more findings are not annotated (GitHub shows {MAX_ANNOTATIONS} errors and {MAX_ANNOTATIONS} warnings per step); they follow in the log and in the job summary",
                rest.len()
            ))
        ));
        for a in rest {
            out.push_str(&format!("{}: {} {} {}: {}\n", place(a), a.level.name(), a.rule.id(), a.rule.name(), a.message));
        }
    }
    out
}

/// One `::error` or `::warning` command.
fn command(a: &Annotation) -> String {
    let mut props: Vec<String> = Vec::new();
    if let Some(loc) = &a.at {
        props.push(format!("file={}", escape_property(&loc.file)));
        if let Some(r) = loc.place {
            props.push(format!("line={}", r.line));
            props.push(format!("col={}", r.col));
            if let Some((end_line, end_col)) = r.end {
                props.push(format!("endLine={end_line}"));
                props.push(format!("endColumn={end_col}"));
            }
        }
    }
    let title = match &a.claim {
        Some(c) => format!("{} {} ({c})", a.rule.id(), a.rule.name()),
        None => format!("{} {}", a.rule.id(), a.rule.name()),
    };
    props.push(format!("title={}", escape_property(&title)));
    let mut message = a.message.clone();
    for (loc, what) in &a.related {
        message.push_str(&format!("\n{what}: {}", shown(loc)));
    }
    format!("::{} {}::{}", a.level.name(), props.join(","), escape_data(&message))
}

/// `file:line:col`, or the file alone.
fn shown(loc: &annotations::Loc) -> String {
    match loc.place {
        Some(r) => format!("{}:{}:{}", loc.file, r.line, r.col),
        None => loc.file.clone(),
    }
}

fn place(a: &Annotation) -> String {
    a.at.as_ref().map_or_else(|| "claimcheck".to_string(), shown)
}

/// The escaping of a command's message, as the actions toolkit does it (`escapeData`).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// The escaping of a property value (`escapeProperty`): also `:` and `,`, which separate them.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_and_properties_escape_as_the_toolkit_does() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }

    #[test]
    fn a_clean_review_prints_nothing() {
        assert_eq!(render(&Review { registries: vec![], diagnostics: vec![] }), "");
    }
}
