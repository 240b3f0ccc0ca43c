//! `evidence/accepted.toml`: the runs the article's numbers come from, written by
//! `claimcheck accept-run`.

use serde::{Deserialize, Serialize};

use super::store::{Evidence, ReadError};
use crate::diagnostic::Diagnostic;
use crate::paths::{PathError, Root};

/// `evidence/accepted.toml`: the accepted runs, one per set of suites, written by
/// `claimcheck accept-run`.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptedFile {
    #[serde(default)]
    pub run: Vec<AcceptedRun>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AcceptedRun {
    pub path: String,
    pub suites: Vec<String>,
    pub manifest_sha256: String,
}

/// Where the file lives, relative to the root.
pub const PATH: &str = "evidence/accepted.toml";

/// Reads the file; `Ok(None)` when there is none. A malformed file is an error located in it.
pub fn read(evidence: &Evidence) -> Result<Option<AcceptedFile>, Diagnostic> {
    let text = match evidence.text(PATH) {
        Ok(t) => t,
        Err(ReadError::Path(PathError::Missing(_))) => return Ok(None),
        Err(e) => return Err(e.at(PATH)),
    };
    let file = parse(&text)?;
    // Each run is a folder under the root: a path that is absolute or climbs with `..` is
    // refused here, located at its line, before any command opens it.
    for run in &file.run {
        if let Err(e) = evidence.root().normal(&run.path) {
            let quoted = format!("\"{}\"", run.path);
            let at = text.find(&quoted).map_or(0..0, |i| i..i + quoted.len());
            return Err(Diagnostic::at(format!("{PATH}: run {e}"), PATH, &text, at, "this run").with_note("this file is written by `claimcheck accept-run`"));
        }
    }
    Ok(Some(file))
}

/// Parses the file's text; a malformed file is an error located in it.
pub(crate) fn parse(text: &str) -> Result<AcceptedFile, Diagnostic> {
    toml::from_str(text).map_err(|e| {
        Diagnostic::at(format!("{PATH}: {}", e.message().trim_end()), PATH, text, e.span().unwrap_or(0..0), "here").with_note("this file is written by `claimcheck accept-run`")
    })
}

/// The root-relative path of the accepted run that holds `suite`.
pub fn run_with(evidence: &Evidence, suite: &str) -> Result<String, Diagnostic> {
    let file = read(evidence)?.ok_or_else(|| Diagnostic::plain(format!("{PATH} does not exist; name a run with `claimcheck accept-run`")))?;
    file.run.into_iter().find(|r| r.suites.iter().any(|s| s == suite)).map(|r| r.path).ok_or_else(|| Diagnostic::plain(format!("{PATH} names no run with the {suite} suite")))
}

/// Writes the file whole through the one atomic writer, replacing the old one; a link in its
/// place is refused, never written through.
pub fn write(root: &Root, file: &AcceptedFile) -> Result<(), PathError> {
    let body =
        format!("# Written by `claimcheck accept-run`: the evidence runs the article's numbers come from.\n\n{}", toml::to_string(file).expect("the accepted runs serialize"));
    root.write(PATH, body.as_bytes())
}
