//! `audit --format sarif`: the audit's findings as a SARIF 2.1.0 log for code scanning,
//! through the `serde-sarif` types. One rule per finding kind with a stable `ruleId`; each
//! result points at the article's number or sentence, names the registry's check or claim as a
//! related location, and carries `partialFingerprints` from the claim id and the sentence's
//! fingerprint, so that code scanning tracks a finding across commits that move it.

use serde_sarif::sarif;

use super::annotations::{self, Annotation, Level, Loc, Rule};
use crate::commands::audit::Review;

/// The key of our fingerprint in `partialFingerprints`; versioned so that a change of what it
/// hashes reads as a new key rather than as every alert moving.
pub(crate) const FINGERPRINT_KEY: &str = "claimcheck/v1";

/// The SARIF log of a review, as pretty JSON with a trailing newline.
pub(crate) fn render(review: &Review) -> String {
    let log = log(review);
    let mut s = serde_json::to_string_pretty(&log).expect("SARIF types always serialise");
    s.push('\n');
    s
}

fn log(review: &Review) -> sarif::Sarif {
    let rules: Vec<sarif::ReportingDescriptor> = Rule::ALL.iter().map(|r| rule(*r)).collect();
    let driver = sarif::ToolComponent::builder().name("claimcheck").version(env!("CARGO_PKG_VERSION")).rules(rules).build();
    let results: Vec<sarif::Result> = annotations::annotations(review).iter().map(result).collect();
    let exit_code = review.exit_code();
    let invocation = sarif::Invocation::builder().execution_successful(exit_code != 2).exit_code(exit_code as i64).build();
    let run = sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .results(results)
        .invocations(vec![invocation])
        // Columns count characters, as the article's line and column everywhere else do.
        .column_kind(serde_json::Value::from("unicodeCodePoints"))
        .build();
    sarif::Sarif::builder().schema(sarif::SCHEMA_URL).version(serde_json::Value::from("2.1.0")).runs(vec![run]).build()
}

fn rule(r: Rule) -> sarif::ReportingDescriptor {
    sarif::ReportingDescriptor::builder()
        .id(r.id())
        .name(r.name())
        .short_description(sarif::MultiformatMessageString::builder().text(r.short()).build())
        .help(sarif::MultiformatMessageString::builder().text(r.help()).build())
        .default_configuration(sarif::ReportingConfiguration::builder().level(serde_json::Value::from(r.level().name())).build())
        .build()
}

fn result(a: &Annotation) -> sarif::Result {
    let index = Rule::ALL.iter().position(|r| *r == a.rule).expect("every rule is listed");
    let mut fingerprints = std::collections::BTreeMap::new();
    fingerprints.insert(FINGERPRINT_KEY.to_string(), a.fingerprint.clone());
    let related: Vec<sarif::Location> = a
        .related
        .iter()
        .enumerate()
        .map(|(i, (loc, what))| sarif::Location::builder().id(i as i64).physical_location(physical(loc)).message(sarif::Message::builder().text(what.clone()).build()).build())
        .collect();
    let locations: Vec<sarif::Location> = a.at.iter().map(|loc| sarif::Location::builder().physical_location(physical(loc)).build()).collect();
    let builder = sarif::Result::builder()
        .rule_id(a.rule.id())
        .rule_index(index as i64)
        .level(match a.level {
            Level::Error => sarif::ResultLevel::Error,
            Level::Warning => sarif::ResultLevel::Warning,
        })
        .message(sarif::Message::builder().text(a.message.clone()).build())
        .locations(locations)
        .partial_fingerprints(fingerprints);
    if related.is_empty() { builder.build() } else { builder.related_locations(related).build() }
}

fn physical(loc: &Loc) -> sarif::PhysicalLocation {
    let artifact = if loc.file.starts_with('/') {
        // A draft outside the repository is named by its absolute path.
        sarif::ArtifactLocation::builder().uri(format!("file://{}", encode(&loc.file))).build()
    } else {
        sarif::ArtifactLocation::builder().uri(encode(&loc.file)).uri_base_id("%SRCROOT%").build()
    };
    let builder = sarif::PhysicalLocation::builder().artifact_location(artifact);
    match loc.place {
        None => builder.build(),
        Some(p) => {
            let region = match p.end {
                Some((end_line, end_col)) => {
                    sarif::Region::builder().start_line(p.line as i64).start_column(p.col as i64).end_line(end_line as i64).end_column(end_col as i64).build()
                }
                None => sarif::Region::builder().start_line(p.line as i64).start_column(p.col as i64).build(),
            };
            builder.region(region).build()
        }
    }
}

/// A path as a URI reference: every byte outside the unreserved set and `/` percent-encoded.
fn encode(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(encode("article/a b.md"), "article/a%20b.md");
        assert_eq!(encode("µ.md"), "%C2%B5.md");
    }

    #[test]
    fn an_empty_review_is_a_log_with_every_rule_and_no_results() {
        let v: serde_json::Value = serde_json::from_str(&render(&Review { registries: vec![], diagnostics: vec![] })).unwrap();
        assert_eq!(v["version"], "2.1.0");
        assert_eq!(v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap().len(), Rule::ALL.len());
        assert_eq!(v["runs"][0]["results"].as_array().unwrap().len(), 0);
    }
}
