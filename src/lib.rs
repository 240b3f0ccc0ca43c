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
//! registry (TOML) ──► claims + check specs ────┘    ▲             ▲
//!          lock (claims/<name>.lock) ───────────────┘             │
//!                                        evidence (JSONL, JSON) ──┘
//! ```
//!
//! Four consumers sit on that line. `audit` runs it and reports (with `--draft`, on a file in
//! place of the manuscript, against the lock). `accept` records a clean audit as the lock.
//! `recheck` takes the bound latency and ordering checks and judges them again: offline from
//! the raw samples, or against a fresh run of the GPU suite. `review` gathers the audit, the
//! offline recheck and the runs' metadata into one versioned file.
//!
//! # Code map
//!
//! - [`article`]: Markdown → sections and sentences with spans, lines and fingerprints, and
//!   the images it shows.
//! - [`numbers`]: numbers quoted in prose, with unit and precision, and the matching rule.
//! - [`registry`]: reading and validating `claims/*.toml`.
//! - [`lock`]: the accepted sentences of a manuscript (`claims/<name>.lock`), and the
//!   alignment of a draft's sentences with them: unchanged, changed, new, deleted.
//! - [`binding`]: each claim to its one sentence, each check to its number (by its place in
//!   the audited sentence where the lock knows it).
//! - [`checks`]: the closed set of check kinds, one file each (`stat`, `arith`, `manifest`,
//!   `contains`, `json`, `trace`, `validation`, `words`, `figure`, `cited`, `compare`), and
//!   the judgement of an observation against the quoted number.
//! - [`audit`]: the order of the steps, the lock comparison and the exit status; builds the
//!   internal review.
//! - [`accept`]: the one writer of locks and of a registry's `manuscript.sha256`.
//! - [`recheck`]: which checks are latencies and orderings, the equivalence rule and its
//!   bootstrap over rounds, offline and against a fresh run.
//! - [`review`]: gathers the review file: audit, offline recheck, graph and kernel metadata
//!   of the runs the checks read, figure hashes.
//! - [`figures`]: the article's SVG figures rendered from an accepted run, and their provenance.
//! - [`gpu`]: the GPU suite (kernels compiled by NVRTC, the timing harness, FP64 references,
//!   the run writer) and the device session of `recheck --gpu`; only `run`, `bench` and
//!   `recheck --gpu` reach it, never `audit`.
//! - [`evidence`]: the run-directory formats shared by the GPU suite (writer) and the checks
//!   (readers), and the writer that makes a run appear whole or not at all.
//! - [`jsonl`]: JSONL files kept compact (interned keys and strings, one field array), read
//!   on every core when large.
//! - [`stats`]: the `Samples` invariants and numpy-identical quantiles.
//! - [`report`]: renderers and wire types: the verdict table and findings, the audit JSON,
//!   the recheck table and `recheck.json`, the review file, the benchmark table.
//! - [`diagnostic`], [`paths`]: located errors, paths that never leave the root, atomic writes.
//! - `confined`, `atomic` (crate-private, not yet wired in): the root as a directory handle that
//!   opens files one component at a time and refuses, at open time, any path that leaves the
//!   root through a symbolic link; and the one writer that replaces a file whole (temporary
//!   file in the same folder, fsync, rename, fsync of the folder), keeping its mode.
//! - [`cli`]: argument parsing and dispatch; `main.rs` only maps the result to an exit code.
//! - `fuzz_api` (hidden): the only items the fuzz targets in `fuzz/` call, one thin wrapper per
//!   parser, so that everything else can stay private to the crate.
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
//! **Architecture Invariant:** the audit writes nothing. Each writer writes one kind of thing,
//! whole or not at all: `run`, `bench` and `recheck --gpu` a new run directory, renamed into
//! place when complete ([`evidence::RunWriter`]), never an existing one; `accept` locks and
//! `manuscript.sha256`, only after a clean audit; `figures` the figures; `review` its `--out`
//! file; `accept-run` `evidence/accepted.toml`. Files are replaced through a temporary file
//! and a rename ([`paths::write_atomic`]), and bad input writes nothing.
//!
//! **Architecture Invariant:** check kinds are a closed enum ([`checks::Kind`]); every `match`
//! over it is exhaustive, so a new kind must be handled by parsing, running and reporting.
//!
//! **Architecture Invariant:** wire types are apart from internal types. The audit JSON, the
//! recheck table and the review file each have their own serde types and `schema_version`
//! (`report::json`, `report::recheck`, `report::review`).
//!
//! # Cross-cutting concerns
//!
//! Exit codes: 0 when everything holds, 1 when something needs attention (a check fails, a
//! number is unbound or changed, a manuscript's hash differs, a claim's sentence changed since
//! the lock, a recheck MISMATCH), 2 for bad input or usage, and for GPU work without a GPU.
//! Bad input is always a [`diagnostic::Diagnostic`] with `file:line:col` and the offending
//! text.
//!
//! Determinism: output is sorted, paths are root-relative, and randomness (fixtures, the
//! timing order, the recheck bootstrap) comes from recorded seeds.

pub mod accept;
pub mod article;
mod atomic;
pub mod audit;
pub mod binding;
pub mod checks;
pub mod cli;
mod confined;
pub mod diagnostic;
pub mod evidence;
pub mod figures;
#[doc(hidden)]
pub mod fuzz_api;
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
