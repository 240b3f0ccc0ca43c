//! The commands that read a loaded `crate::workspace::Workspace` and decide: the audit, its
//! acceptance as a lock, the review file, the registry `init` starts and the checks `suggest`
//! proposes. Each returns data for a renderer; none prints.

pub(crate) mod accept;
pub(crate) mod accept_run;
pub(crate) mod audit;
pub(crate) mod bench;
pub(crate) mod init;
pub(crate) mod review;
pub(crate) mod stats;
pub(crate) mod suggest;
