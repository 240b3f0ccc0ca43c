//! `audit --format junit`: the audit as a JUnit XML report through `quick-junit`, for CI systems
//! that show test results. One test suite per registry; in it, one test case per check, one per
//! claim for its sentence (bound, unchanged since the lock), one for the manuscript's SHA-256,
//! one per unbound number, and one per label that declares no number (a warning, passing). Each
//! case carries `file` and `line` attributes: the article's number or sentence, and
//! `registry-file`, `registry-line` for the registry's check, claim or label.
//! Input errors not tied to a check are cases of a last suite, `input`.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::annotations::{self, Rule};
use crate::checks::Outcome;
use crate::commands::audit::{Change, ClaimBinding, Place, RegistryReview, Review};
use crate::hash::short;

/// The report as XML.
pub(crate) fn render(review: &Review) -> String {
    let mut report = Report::new("claimcheck audit");
    for r in &review.registries {
        report.add_test_suite(registry_suite(r));
    }
    let errors: Vec<_> = annotations::annotations(review).into_iter().filter(|a| a.rule == Rule::InputError).collect();
    if !errors.is_empty() {
        let mut suite = TestSuite::new("input");
        for (i, a) in errors.iter().enumerate() {
            let mut case = TestCase::new(format!("input error {}", i + 1), failed(NonSuccessKind::Error, Rule::InputError, &a.message));
            if let Some(loc) = &a.at {
                case.extra.insert("file".into(), loc.file.as_str().into());
                if let Some(p) = loc.place {
                    case.extra.insert("line".into(), p.line.to_string().into());
                }
            }
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().expect("a JUnit report always serialises")
}

fn registry_suite(r: &RegistryReview) -> TestSuite {
    let mut suite = TestSuite::new(r.file.as_str());
    let class = |claim: &str| format!("{}.{claim}", r.file.trim_end_matches(".toml").replace('/', "."));
    let located = |mut case: TestCase, at: Option<&Place>, registry: Option<&Place>| {
        if let Some(p) = at {
            // The article's file, or the one it brings in that holds the place.
            case.extra.insert("file".into(), p.file.as_str().into());
            case.extra.insert("line".into(), p.line.to_string().into());
            case.extra.insert("column".into(), p.col.to_string().into());
        }
        if let Some(p) = registry {
            case.extra.insert("registry-file".into(), r.file.as_str().into());
            case.extra.insert("registry-line".into(), p.line.to_string().into());
        }
        case
    };

    let hash_ok = r.actual_sha256.as_deref() == Some(r.recorded_sha256.as_str());
    let status = if hash_ok {
        TestCaseStatus::success()
    } else {
        let now = r.actual_sha256.as_deref().map_or("unreadable".to_string(), |s| short(s).to_string());
        failed(NonSuccessKind::Failure, Rule::ManuscriptHash, &format!("{}: SHA-256 {now} differs from the {} recorded", r.manuscript, short(&r.recorded_sha256)))
    };
    let mut case = TestCase::new("manuscript sha256", status);
    case.set_classname(class("manuscript"));
    suite.add_test_case(located(case, None, Some(&r.sha256_at)));

    for c in &r.claims {
        let sentence = match &c.binding {
            ClaimBinding::Bound { sentence, .. } => Some(Place { file: sentence.file.clone(), line: sentence.line, col: sentence.col, end_line: sentence.line, end_col: sentence.col, span: sentence.span }),
            _ => None,
        };
        let lost_at = match &c.change {
            Some(Change::Lost { at, .. }) => at.as_ref(),
            _ => None,
        };
        let problem = match (&c.binding, &c.change) {
            (_, Some(Change::Lost { before, deleted, .. })) => {
                Some((Rule::ClaimLost, format!("the sentence that held the claim was {}: {before}", if *deleted { "deleted" } else { "rewritten" })))
            }
            (ClaimBinding::Lost { .. }, _) => Some((Rule::InputError, "the quote matches no sentence".to_string())),
            (ClaimBinding::Ambiguous { sentences }, _) => Some((Rule::InputError, format!("the quote matches {} sentences", sentences.len()))),
            (ClaimBinding::NoArticle, _) => Some((Rule::InputError, "the article could not be read".to_string())),
            (_, Some(Change::Edited { diff, .. })) => Some((Rule::SentenceEdited, format!("the sentence was edited since the lock: {diff}"))),
            (_, Some(Change::NumberChanged { diff, .. })) => Some((Rule::NumberChanged, format!("a checked number changed since the lock: {diff}"))),
            (ClaimBinding::Bound { numbers_changed: true, .. }, _) => Some((Rule::NumberChanged, "a quoted number changed since the audit".to_string())),
            (_, Some(Change::NotLocked)) => Some((Rule::NotLocked, "the claim was added after the lock was accepted".to_string())),
            (ClaimBinding::Bound { .. }, Some(Change::Unchanged) | None) => None,
        };
        let status = match &problem {
            None => TestCaseStatus::success(),
            Some((rule, message)) => failed(NonSuccessKind::Failure, *rule, &format!("{}: {message}", c.id)),
        };
        let mut case = TestCase::new(format!("{} sentence", c.id), status);
        case.set_classname(class(&c.id));
        suite.add_test_case(located(case, sentence.as_ref().or(lost_at), Some(&c.registry_at)));

        for (i, k) in c.checks.iter().enumerate() {
            let message = annotations::check_message(c, i, k);
            let status = match &k.outcome {
                Outcome::Pass { .. } | Outcome::Wrong { .. } if k.number_now.is_none() => TestCaseStatus::success(),
                Outcome::Pass { .. } | Outcome::Wrong { .. } => failed(NonSuccessKind::Failure, Rule::NumberChanged, &message),
                Outcome::Fail { .. } => failed(NonSuccessKind::Failure, if k.number_now.is_some() { Rule::NumberChanged } else { Rule::CheckFailed }, &message),
                Outcome::Skipped { reason } => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(reason.as_str());
                    s
                }
                Outcome::Error(_) => failed(NonSuccessKind::Error, Rule::InputError, &message),
            };
            let number = k.number_now.as_ref().or(k.number.as_ref()).map_or(String::new(), |n| format!(" {n}"));
            let mut case = TestCase::new(format!("{} check {} {}{number}", c.id, i + 1, k.kind), status);
            case.set_classname(class(&c.id));
            suite.add_test_case(located(case, k.number_at.as_ref().or(sentence.as_ref()), Some(&k.registry_at)));
        }
    }
    for u in &r.unbound {
        let message = format!("unbound number `{}`: no check verifies it and no label declares it{}", u.number, super::table::names_hint(u));
        // Under `unbound = "warn"` the audit passes, and so does the case, saying why.
        let status = if r.unbound_warns { TestCaseStatus::success() } else { failed(NonSuccessKind::Failure, Rule::UnboundNumber, &message) };
        let mut case = TestCase::new(format!("unbound {} at {}:{}", u.number, u.line, u.col), status);
        if r.unbound_warns {
            case.set_system_out(format!("warning: {message} (the registry's policy is unbound = \"warn\")"));
        }
        case.set_classname(class("unbound"));
        suite.add_test_case(located(case, Some(&u.at), None));
    }
    // A label that declares nothing is a warning: the case passes and says so, as an unbound
    // number under `unbound = "warn"` does.
    for u in &r.unused_labels {
        let mut case = TestCase::new(format!("unused label at {}:{}", u.at.line, u.at.col), TestCaseStatus::success());
        case.set_system_out(format!("warning: {} {}: {}", Rule::UnusedLabel.id(), Rule::UnusedLabel.name(), u.message));
        case.set_classname(class("labels"));
        suite.add_test_case(located(case, None, Some(&u.at)));
    }
    suite
}

/// A failure or error with its rule as the type and `message` as the message.
fn failed(kind: NonSuccessKind, rule: Rule, message: &str) -> TestCaseStatus {
    let mut s = TestCaseStatus::non_success(kind);
    s.set_message(message).set_type(format!("{} {}", rule.id(), rule.name()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_review_is_an_empty_report() {
        let xml = render(&Review { registries: vec![], diagnostics: vec![] });
        assert!(xml.contains("<testsuites name=\"claimcheck audit\" tests=\"0\""), "{xml}");
    }
}
