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
//!                 workspace (loaded once)
//! article (+ inputs) ──► sentences + numbers ──┐
//!                                              ├─► binding ──► checks ──► outcomes ──► renderers
//! registry (TOML) ──► claims + check specs ────┘    ▲             ▲
//!          lock (claims/<name>.lock) ───────────────┘             │
//!                          evidence (one reader, each file once) ─┘
//! ```
//!
//! `workspace::Workspace` is the input stage: it opens the root, reads the registries, their
//! manuscripts (or a draft in place of one) and their locks, binds every claim through the one
//! lock-aware binding, and owns the one evidence reader ([`evidence::store::Evidence`]). Every
//! command that audits takes a `&Workspace`: `audit` and `table` report on it, `accept` records
//! a clean audit of it as the lock, `recheck` judges its bound latency and ordering checks again
//! (offline from the raw samples, against a stored run, against a fresh run of the GPU
//! suite, or against a fresh result of the user's own harness), `suggest` searches the evidence
//! for the statistics that reproduce each unbound number, and `review` gathers the audit, the offline recheck and the runs' metadata into one
//! versioned file; `report --html` lays out that same gathered review as one self-contained
//! page. `init` is the one command that needs no registry: it reads an article and writes the
//! first, commented-out registry for it.
//!
//! # Code map
//!
//! - [`workspace`]: loading everything once; the only place that finds registries and reads a
//!   draft (registries of identical text, copies of one another, are parsed once per load).
//! - [`article`]: Markdown (with Quarto's and R Markdown's: front matter left out, pandoc
//!   attributes holding no numbers), reStructuredText (`article::rst`: titles, lists, directives,
//!   literal blocks as code, grid, simple, list and CSV tables, inline roles), or LaTeX
//!   (`article::latex`: the document's body as typeset, sectioning, the `tabular` family with
//!   `\multicolumn` and `\multirow`, math, siunitx, the document's macros), into the same
//!   blocks, by the manuscript's extension (tables of every syntax laid out by one function),
//!   after `article::inputs` has spliced in the files a LaTeX or reStructuredText manuscript
//!   brings in (`\input`, `.. include::`, read through the workspace's confined reader and
//!   mapped back byte by byte) → sections and sentences with spans, their files, lines and fingerprints, table
//!   cells with their row, column and the unit their header implies (a Google Benchmark or
//!   pytest-benchmark console table, or hyperfine's, criterion's or `go test -bench`'s output,
//!   or benchstat's comparison of Go's outputs (each value in the unit its SI prefix makes of
//!   the column's, a row printed without a name named by its table's key line; before 2023,
//!   `old time/op … delta` with each value's own unit), or JMH's summary table (each row named by its benchmark and parameters,
//!   its score and error in the unit the row prints), or BenchmarkDotNet's summary table (each
//!   row named by its case, its sizes binary; `article::benchmarkdotnet`, in Markdown as its
//!   GitHub report writes it or as its console prints it), or asv's comparison table (each row
//!   named by its last column, the benchmark and its parameters, a memory benchmark's sizes in
//!   bytes; `article::asv`), or Nsight Compute's sections and
//!   per-kernel summary and Nsight Systems' `nsys stats` reports (each row named by its metric
//!   or its name column, cut into columns by the dashed rule, `evidence::readers::ruled`, which the
//!   `nsys` evidence reader shares; `article::nsight`), or what pyperf prints (its result and
//!   comparison lines, `stats`'s `Key: value` and percentile lines, `hist`'s bins, its
//!   warnings, the benchmarks `compare_to` hides, and its grid table), or wrk's report (its
//!   statistics, distribution and totals, sizes 1024-based, a lone `m` minutes), or nccl-tests'
//!   results (each message size's times in µs and bandwidths in GB/s under `out-of-place …` and
//!   `in-place …`, its settings and footer as a row `Run`; `article::nccl`), or libtest's
//!   `#[bench]` lines (each benchmark's `ns/iter`, `+/-` and `MB/s`; `article::libtest`), or
//!   divan's tree table (each leaf named by its path, its times in their own units, its
//!   counters' and allocation profiler's lines under the leaf's row; `article::divan`), or the
//!   LLM-serving benchmarks' reports (vLLM's and SGLang's `Serving Benchmark Result`,
//!   `trtllm-bench`'s sections: a row for each group it prints, each value under its label in
//!   the unit its parentheses state; `article::serving`), pasted in a code block read as one,
//!   `article::console`, which takes Go's lines apart by the `go-bench` evidence reader's own
//!   rule and names JMH's rows by the `jmh` reader's; pytest-benchmark's table and JMH's
//!   pasted as pipes read with their units; an HTML table's `<td>` and `<th>` cells, with row
//!   and column spans, and other HTML text as prose, `article::html`, which locates what it
//!   cannot read as warnings), and which cells name a row or a column (`Sentence::names`), the
//!   names the article gives its tables (a LaTeX `\label`, an rst `:name:`, the `#id` of a
//!   pandoc or Quarto caption, an HTML table's `id`; `Article::table_names`), and
//!   the images it shows, Markdown's and `<img>`;
//!   [`article::numbers`]: numbers quoted in prose, with sign, scale, unit and precision, the
//!   bound a comparator before one states (`<0.0001`, `p ≤ 0.05`, `at least 1.5x`), and the
//!   matching rule.
//! - [`registry`]: reading and validating `claims/*.toml`; `registry::binding`: each claim to
//!   its one sentence (by its quote, or a table cell by its row and column, `#N` its place where
//!   a table repeats both labels, and its table's name or place where several tables hold
//!   both) and each check to its
//!   number (by its place in the audited sentence where
//!   the lock knows it); `registry::lock`: the accepted sentences of a manuscript and the
//!   alignment of a draft with them; `registry::source`: a cited source, a leaf the checks
//!   read.
//! - [`checks`]: the closed set of check kinds, one file each, generated with their names,
//!   dispatch and whether `recheck` judges them from one table (`kinds!`); the judgement of an
//!   observation against the quoted number (a value held against none is skipped, not
//!   passed); `checks::units`: the unit of a check's value
//!   (declared, from the registry's `[[field]]` tables, or from the field's name).
//! - [`evidence`]: the typed run directory, one file per file of a run (`meta`, `samples`,
//!   `summary`, `validation`, `trace` with its verifier, `graphs`, `kernels`, `ptx` (the
//!   kernels a dispatch record names and their instructions, or a whole module's, for telling
//!   whether two runs ran the same code, in `bench-report` and `calibrate` alike; with the
//!   count and rotation of buffer sets each case and the peers' record in `meta`
//!   (`SetsTaken`), whether they were timed alike, and with the seed and entries
//!   (`ShuffleOrder`), whether they were timed in the same shuffled order),
//!   `manifest`,
//!   `accepted`, the `writer`), other harnesses' outputs read as records (`readers`, a closed
//!   set of formats, one file each, Nsight Compute's CSV, Nsight Systems' per-event reports,
//!   nccl-tests' JSON (`-I 1`'s per-iteration times) and asv's results files among them (asv's alone read with Python's `NaN`, `tree::parse_python`), any gzip-compressed file read as the file it holds, up to a bound), the calibration the recheck reads (`calibration`), JSONL kept
//!   compact (`jsonl`), the one reader (`store`), which also keeps what is derived from a file
//!   once per process (a trace's tasks, a JSON document, a query's samples, a manifest's
//!   verification, a run's rendered figures) for every registry and check, and reads and
//!   parses the JSONL files, traces and JSON documents the checks name ahead of them on the
//!   other cores while the workspace binds its articles (`Evidence::read_ahead_while`), as it
//!   reads and hashes a manifest's files (`Evidence::each_file_itself`), each file still
//!   opened once; a JSONL, CSV or TSV file of 8 MiB or more is left open there, unread, and a `stat` or
//!   `compare` check with a plain select streams it (`Evidence::columns`); `columns`: a
//!   samples file streamed in chunks on every core straight into per-group `f64` columns of
//!   the fields asked for (in file order), for `stats` and those checks at 10^6–10^7
//!   samples, giving what `jsonl` gives, errors included (`columns::delimited` the same for
//!   CSV and TSV, giving what the table reader gives, and handing it every file it is not sure
//!   of); and `scan`, the fast path all these
//!   readers share: JSON tokens, JSONL lines and typed records (samples, trace tasks,
//!   validation records) read without serde where it is sure to read them as serde_json does,
//!   serde_json reading every other line and giving every error.
//! - [`commands`]: what decides: the audit and its exit status (with which numbers are unbound:
//!   a number in a row's name or a column's header is declared by the claims bound by `cell`
//!   there, whose selectors write it; and which labels declare no number, reported as
//!   warnings), `accept`, `accept-run`, the
//!   review file, the benchmark targets (judged by the recheck's ordering rule over one or more
//!   runs of the same code, with candidate forms judged as a family of their own), `stats`, `init` (a registry's skeleton, never over an
//!   existing file) and `suggest` (the ranked evidence statistics that reproduce each unbound
//!   number: selections, filters, derived rates, ratios of two statistics, criterion's slope
//!   and JMH's and BenchmarkDotNet's error; a best row's `1.00` against the rest of its
//!   table, a baseline's ratio to itself as a label rather than a check; BenchmarkDotNet's
//!   `Ratio` in each of its three styles; pyperf's `compare_to` ratios and geometric mean, and
//!   its t-test for a `not significant` cell; an
//!   Nsight Compute launch as a selection of its own, one per table; a kernel of an Nsight
//!   Systems trace by its function, its total as a sum and its `Time (%)` as a share of its
//!   kind's; asv's `±` as half the interquartile range and its `Ratio` as the after file's
//!   median over the before file's, a row naming its environment read from that environment's
//!   files, `commands::suggest::asv`; the bounds of criterion's `time:` bracket as its
//!   bootstrap bounds, `commands::suggest::criterion`; a ratio of two benchmarks that a harness
//!   keeps in sibling files of their own; every cell of
//!   benchstat's table read by its place, as that benchstat
//!   computed it, medians since 2023 and means inside Tukey's fences before,
//!   `commands::suggest::benchstat`).
//! - [`recheck`]: which checks are latencies (times that locate samples, not spreads) and
//!   orderings, the equivalence rule, offline and
//!   against a stored run (a latency or an ordering whose check pools runs judged across them); `recheck::hierarchical` the bootstrap of runs, then rounds (a slope's
//!   records drawn as whole (`per`, field) pairs, as criterion draws them), and the widening of
//!   a one-run side, and the six samples a side below which no interval is given;
//!   `recheck::family` Holm's control over the whole table;
//!   `recheck::calibrate` runs of unchanged code (the same dispatch and instructions, timed
//!   with the same buffer sets; the shuffled orders among them counted) as A/A
//!   pairs, each σ with the buffer sets its runs took, which the recheck matches before it
//!   widens a one-run side by it; `recheck::device` asks the GPU
//!   suite for a fresh run; `recheck::harness` pairs another harness's fresh output with the
//!   accepted evidence files (by `--map`, layout or name) and judges its latencies and
//!   orderings by the same rule (a check that pools several files has them for its accepted
//!   side, and widens the one fresh result by the spread between them), and offline reads a
//!   latency through its check's own query, pooled as the audit pools it, and judges an
//!   ordering inside its file or across the files it pools, when that query is not plain JSONL.
//! - [`report`]: renderers and wire types: the verdict table and findings, the audit JSON, the
//!   recheck table and `recheck.json`, the review file, the benchmark table and its JSON, `suggest`'s TOML
//!   (`report::suggest`), the HTML review page (`report::html`), and for CI the audit's findings as located annotations
//!   (`report::annotations`, one rule per finding kind, each an error or, where the audit passes
//!   it, a warning) laid out as SARIF, GitHub workflow commands, JUnit XML and a Markdown job
//!   summary. They lay out what was decided; they never decide.
//! - [`figures`]: the article's SVG figures rendered from an accepted run, and their provenance.
//! - [`gpu`]: the GPU suite (kernels compiled by NVRTC, the timing harness with its
//!   clock-stable warm-up and one cycle of buffer sets for every invocation, the SM clock read
//!   through NVML, FP64 references); it writes runs
//!   through [`evidence`] and imports nothing above it.
//! - [`status`]: how a command ended (`Status`, `Failure`), the one mapping to exit codes, and
//!   the one output writer; [`cli`]: argument parsing and one short arm per command.
//! - [`diagnostic`], [`paths`], [`hash`], [`stats`]: located errors, the root and every path
//!   under it (`paths::Root`: the one place that opens, lists, creates and replaces files under
//!   the root), SHA-256, numpy-identical quantiles (from sorted samples, or by selection from
//!   unsorted columns, to the same bits); in `stats::nonparametric` benchstat's statistics as
//!   benchstat computes them: the median's confidence interval from order statistics (the
//!   `stat` check's `median-ci`) and the Mann-Whitney U test (the `utest` check, which also
//!   yields the Vargha-Delaney Â12, U over the pairs; pyperf's Student's t-test, with its own
//!   table of critical values, is in the `ttest` check); in `stats::nonparametric::signed_rank`
//!   scipy's Wilcoxon signed-rank test of paired samples and Holm's adjustment of a family of
//!   its p-values (the `wilcoxon` check); and in
//!   `stats::student_t` Student's t quantile, found from its distribution function, for JMH's
//!   error of a mean (`jmh-error`); in `stats::fences` Tukey's fences with type-8 quartiles, as
//!   benchstat before 2023 dropped outliers (a query's `outliers = "tukey"`), or with linear
//!   ones, as `pyperf stats` counts them (`"tukey-linear"`); pyperf's median absolute
//!   deviation (`mad`); in
//!   `stats::bootstrap` criterion's percentile bootstrap interval of a mean or a slope, from a
//!   fixed seed, with the band where criterion's own clock-seeded draw of a bound lies
//!   (`criterion-lower`, `criterion-upper`).
//! - `confined`, `atomic` (crate-private, under [`paths`]): the root as a folder handle that
//!   opens files one component at a time with `openat` and `O_NOFOLLOW` and refuses, at open
//!   time, any path that leaves the root through a symbolic link; and the one writer that
//!   replaces a file whole (temporary file in the same folder, fsync, rename, fsync of the
//!   folder), keeping its mode, never through a link.
//! - `fuzz_api` (hidden): the only items the fuzz targets in `fuzz/` call, one thin wrapper per
//!   parser, so that everything else can stay private to the crate.
//!
//! # Architecture invariants
//!
//! **Architecture Invariant:** a registry is data. No value in it becomes a command, and every
//! path it names is opened inside the repository root through the root's handle
//! ([`paths::Root`]), which refuses a symbolic link that leaves the root at the open itself,
//! never by resolving a name first and opening it later. No file under the root is opened by
//! path: readers go through the workspace's evidence reader, listings and writers through
//! `paths::Root`. Only the GPU suite starts a process (`nvidia-smi`, read-only, for the clocks
//! it records); a test holds every other module to that.
//!
//! **Architecture Invariant:** reading never stops at the first problem. Registry parsing,
//! loading and binding return what they could read *plus* diagnostics, so one bad claim never
//! hides the others; one failing check never stops the audit.
//!
//! **Architecture Invariant:** no command opens a file under the root twice: every read goes
//! through the workspace's [`evidence::store::Evidence`], which keeps what it parsed. A test
//! holds `review` of the shipped repository to one open per file, and another the audit of
//! ten copies of its registries. (`stats` reads a file outside any workspace, once, streamed.
//! A samples file large enough to be streamed rather than held is read once per grouping its
//! checks ask for: one open serves every check that selects on the same fields.)
//!
//! **Architecture Invariant:** the audit writes nothing but the `--summary` file it is asked
//! for. Each writer writes one kind of thing: `run`, `bench` and `recheck --gpu` a new run
//! directory, renamed into place when complete ([`evidence::writer::RunWriter`]), never an
//! existing one; `accept` locks and `manuscript.sha256`, only after a clean audit; `figures` the
//! figures; `review` its `--out` file; `report` its `--html` page; `calibrate` its `--out` file; `accept-run`
//! `evidence/accepted.toml`; `init` one new `claims/<name>.toml`, never over anything standing
//! there ([`paths::Root::write_new`]). Each of those files, and each file of a run, is replaced through
//! the one atomic writer (`atomic`, through [`paths::Root::write`] under the root and
//! [`paths::write_named`] for a file named on the command line): a temporary file beside it,
//! fsync, rename; never through a link; and bad input writes nothing.
//!
//! **Architecture Invariant:** check kinds are a closed enum (`checks::Kind`) generated from
//! one table; every `match` over it is exhaustive, so a new kind must be handled by parsing,
//! running, rechecking and reporting.
//!
//! **Architecture Invariant:** layers only reach down. `evidence` and `gpu` import nothing
//! above them, the checks reach the registry only through its `source` leaf, and renderers
//! neither load nor run anything (`tests/architecture.rs`).
//!
//! **Architecture Invariant:** wire types are apart from internal types. The audit JSON, the
//! recheck table and the review file each have their own serde types and `schema_version`
//! (`report::json`, `report::recheck`, `report::review`).
//!
//! # Cross-cutting concerns
//!
//! Exit codes ([`status`]): 0 when everything holds (or standard output was closed early), 1
//! when something needs attention (a check fails, a number is unbound or changed, a manuscript's
//! hash differs, a claim's sentence changed since the lock, a recheck MISMATCH, a benchmark
//! target missed), 2 for bad input or usage and for GPU work without a GPU, 3 for a GPU run that
//! was written but rejected by its own validation, 4 for an internal failure. Bad input is a
//! [`diagnostic::Diagnostic`], located at `file:line:col` with the offending text wherever the
//! input has a place to point at; a few whole-file problems (a missing file, a root that cannot
//! be opened) are plain.
//!
//! Determinism: output is sorted, paths are root-relative, and randomness (fixtures, the
//! timing order, the recheck bootstrap) comes from recorded seeds. A GPU run draws a fresh
//! seed unless one is given, so that replicate runs are timed in orders of their own; a
//! `recheck --gpu` replays the accepted run's.

// Clippy lints allowed for the whole library, each for a reason:
// - `result_large_err`: a `Diagnostic` carries the excerpt it points into, so that an error can
//   be shown without reading the file again; errors are the cold path, and boxing each would
//   only add noise at every `?`.
// - `type_complexity`: the few complex types are local grouping keys and boxed closures over
//   samples, clearer in place than behind an alias.
// - `large_enum_variant`: a recheck target is built once per check, a handful per registry.
// - `enum_variant_names`: the device's `Unavailable` variants name what is absent (`NoDriver`,
//   `NoNvrtc`, …), which the shared prefix says.
// - `vec_init_then_push`: the figures are listed in the order they are drawn, one call each.
// The crate documents its internals for the people who work on it: its module docs link to
// crate-private items, which `cargo doc --document-private-items` resolves. Without that flag
// rustdoc would warn of every such link, though none is broken.
#![allow(rustdoc::private_intra_doc_links)]
#![allow(clippy::result_large_err, clippy::type_complexity, clippy::large_enum_variant, clippy::enum_variant_names, clippy::vec_init_then_push)]

pub mod article;
mod atomic;
pub mod checks;
pub mod cli;
pub mod commands;
mod confined;
pub mod diagnostic;
pub mod evidence;
pub mod figures;
#[doc(hidden)]
pub mod fuzz_api;
pub mod gpu;
pub mod hash;
pub mod paths;
pub mod recheck;
pub mod registry;
pub mod report;
pub mod stats;
pub mod status;
pub mod workspace;
