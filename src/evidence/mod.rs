//! The evidence a registry's checks read, and the run directory the GPU suite writes: the
//! contract between them. This module owns reading and writing those files through typed
//! readers and writers, one file each; it never measures anything and never judges a claim.
//!
//! A run directory, `evidence/runs/<id>/`, holds `meta.json` ([`meta`]), `samples.jsonl`
//! ([`samples`]), `summary.json` ([`summary`]), `validation.jsonl` ([`validation`]),
//! `traces/*.jsonl` ([`trace`], with its verifier), `graphs/*.dot` and `graphs/nodes.json`
//! ([`graphs`]), `kernels.json` ([`kernels`]), `ptx/*.ptx` ([`ptx`]), and `MANIFEST.sha256`
//! ([`manifest`]), which lists every other file with its SHA-256 in `sha256sum -c` format.
//! [`writer`] makes a run appear whole or not at all; [`accepted`] is `evidence/accepted.toml`,
//! [`calibration`] `evidence/calibration.json`.
//!
//! [`store::Evidence`] is the one reader of evidence files for a loaded workspace: it opens each
//! file once, keeps what it parsed, and shares it between registries and checks.
//! [`columns`] reads a large samples file (JSONL, or CSV and TSV in [`columns::delimited`]) for
//! `claimcheck stats` without holding it: streamed in chunks, on every core, into per-group
//! columns of the fields asked for. `scan` is the fast
//! path under [`jsonl`], [`columns`] and the typed records ([`Jsonl::record_as`], [`trace`]):
//! it reads the tokens it is sure of exactly as serde_json does and leaves every other line to
//! serde_json, so that values and errors are the same either way.
//!
//! **Architecture Invariant:** nothing here imports the checks, the commands, the reports or the
//! GPU suite; the GPU suite writes through these types.

pub mod accepted;
pub mod calibration;
pub mod columns;
pub mod graphs;
pub mod jsonl;
pub mod kernels;
pub mod manifest;
pub mod meta;
pub(crate) mod ptx;
pub(crate) mod readers;
pub mod run;
pub mod samples;
pub(crate) mod scan;
pub mod store;
pub mod summary;
pub mod trace;
pub mod validation;
pub mod writer;

pub use accepted::{AcceptedFile, AcceptedRun};
pub use jsonl::{Jsonl, Record, Scalar};
pub use manifest::list_files;
pub use samples::SampleRecord;
pub use summary::Summary;
pub use trace::{TraceHeader, TraceTask};
pub use validation::ValidationRecord;
pub use writer::RunWriter;
