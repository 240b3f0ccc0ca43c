//! Renderers: the review as a verdict table for people, as versioned JSON for programs, as an
//! HTML page for reviewers, and as SARIF, GitHub workflow commands, JUnit XML and a Markdown job
//! summary for CI. Renderers only format; they never decide an outcome.

pub(crate) mod annotations;
pub(crate) mod bench;
pub(crate) mod calibration;
pub(crate) mod github;
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod junit;
pub mod recheck;
pub(crate) mod review;
pub(crate) mod sarif;
pub(crate) mod suggest;
pub(crate) mod summary;
pub(crate) mod table;
