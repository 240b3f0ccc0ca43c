//! claimcheck keeps a technical article about GPU performance honest. A **claims registry**
//! (TOML, in `claims/`) binds sentences of a Markdown article (`article/`) to a verdict, a
//! finding, primary sources and **executable checks**; the audit runs the checks against raw
//! evidence (`evidence/runs/`) and reports every mismatch against the manuscript's SHA-256.
//!
//! # Bird's-eye view
//!
//! Data flows one way:
//!
//! ```text
//! article (Markdown) ──► sentences + numbers ──┐
//!                                              ├─► binding ──► checks ──► outcomes ──► renderers
//! registry (TOML) ──► claims + check specs ────┘                 ▲
//!                                        evidence (JSONL, JSON) ─┘
//! ```
//!
//! # Code map
//!
//! - [`article`]: Markdown → sections and sentences with spans, lines and fingerprints.
//! - [`numbers`]: numbers quoted in prose, with unit and precision, and the matching rule.
//! - [`registry`]: reading and validating `claims/*.toml`.
//! - [`binding`]: each claim to its one sentence, each check to its number.
//! - [`checks`]: the closed set of check kinds, one file each (`stat`, `arith`, `manifest`,
//!   `contains`, `json`, `trace`, `validation`, `words`, `figure`, `cited`, `compare`), and
//!   the judgement of an observation against the quoted number.
//! - [`figures`]: the article's SVG figures rendered from an accepted run, and their provenance.
//! - [`gpu`]: the GPU suite (kernels compiled by NVRTC, the timing harness, FP64 references,
//!   the run writer); only `run` and `bench` reach it, never `audit`.
//! - [`evidence`]: the run-directory formats shared by the GPU suite (writer) and the checks
//!   (readers), and the writer that makes a run appear whole or not at all.
//! - [`stats`]: the `Samples` invariants and numpy-compatible quantiles.
//! - [`audit`]: the order of the steps and the exit status; builds the internal review.
//! - [`report`]: the verdict table and the versioned JSON review (wire types apart).
//! - [`diagnostic`], [`paths`]: located errors, and paths that never leave the root.
//! - [`cli`]: argument parsing and dispatch; `main.rs` only maps the result to an exit code.
//!
//! # Architecture invariants
//!
//! **Architecture Invariant:** a registry is data. No value in it becomes a command, and every
//! path it names is resolved inside the repository root ([`paths::Root::resolve`]), symbolic
//! links included.
//!
//! **Architecture Invariant:** reading never stops at the first problem. Registry parsing and
//! binding return what they could read *plus* diagnostics, so one bad claim never hides the
//! others; one failing check never stops the audit.
//!
//! **Architecture Invariant:** the audit writes nothing. Only `run` writes, and only a new run
//! directory, renamed into place when complete ([`evidence::RunWriter`]).
//!
//! **Architecture Invariant:** check kinds are a closed enum ([`checks::Kind`]); every `match`
//! over it is exhaustive, so a new kind must be handled by parsing, running and reporting.
//!
//! # Cross-cutting concerns
//!
//! Exit codes: 0 when everything holds, 1 when a check fails, a number is unbound or changed,
//! or a manuscript's hash differs, 2 for bad input or usage. Bad input is always a
//! [`diagnostic::Diagnostic`] with `file:line:col` and the offending text.

pub mod accept;
pub mod article;
pub mod audit;
pub mod binding;
pub mod checks;
pub mod cli;
pub mod diagnostic;
pub mod evidence;
pub mod figures;
pub mod gpu;
pub mod jsonl;
pub mod lock;
pub mod numbers;
pub mod paths;
pub mod recheck;
pub mod registry;
pub mod report;
pub mod review;
pub mod stats;
