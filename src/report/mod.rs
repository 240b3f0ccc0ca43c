//! Renderers: the review as a verdict table for people and as versioned JSON for programs.
//! Renderers only format; they never decide an outcome.

pub(crate) mod bench;
pub(crate) mod calibration;
pub(crate) mod json;
pub mod recheck;
pub(crate) mod review;
pub(crate) mod table;
