//! The commands that read a loaded [`crate::workspace::Workspace`] and decide: the audit, its
//! acceptance as a lock, the review file. Each returns data for a renderer; none prints.

pub mod accept;
pub mod audit;
pub mod review;
pub mod accept_run;
pub mod bench;
pub mod stats;
