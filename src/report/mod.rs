//! Renderers: the review as a verdict table for people and as versioned JSON for programs.
//! Renderers only format; they never decide an outcome.

pub mod bench;
pub mod json;
pub mod recheck;
pub mod review;
pub mod table;
