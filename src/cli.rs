//! The command line: argument parsing, and one short arm per command that loads what it needs,
//! calls the module that decides, and hands the result to a renderer. Nothing here decides an
//! outcome or prints an error: every command returns `Result<Status, Failure>`, and
//! [`crate::status::finish`] maps that to the exit code.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::commands::{accept, accept_run, audit, bench, init, review, stats, suggest};
use crate::recheck;
use crate::report;
use crate::status::{Failure, Output, Status};
use crate::workspace::{Options, Workspace};

#[derive(Debug, Parser)]
#[command(name = "claimcheck", version, about = "Keeps a technical article about GPU performance honest: every sentence bound to a verdict and to checks over raw evidence.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Bind every claim to its sentence, run every offline check, print the verdict table and
    /// every mismatch.
    Audit {
        #[command(flatten)]
        target: Target,
        /// Audit this file in place of the registry's manuscript and report what changed since
        /// the accepted audit (`claims/<name>.lock`): edited, lost and changed claims, new
        /// sentences with unbound numbers, deleted sentences that held claims.
        #[arg(long, value_name = "FILE")]
        draft: Option<PathBuf>,
        /// `table` for people, `json` for programs, `sarif` for code scanning, `github` for
        /// workflow-command annotations, `junit` for test reports.
        #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
        format: AuditFormat,
        /// Also write a Markdown job summary to FILE (for `$GITHUB_STEP_SUMMARY`).
        #[arg(long, value_name = "FILE")]
        summary: Option<PathBuf>,
    },
    /// Write the review as one self-contained HTML page: the article with every claim marked by
    /// its status, the verdict table, the figures, and the hashes of every input. The same data
    /// as `review`; nothing is written when the input is bad.
    Report {
        #[command(flatten)]
        target: Target,
        /// Where to write the page.
        #[arg(long, value_name = "FILE")]
        html: PathBuf,
        /// Review this file in place of its registry's manuscript, with its changes since the lock
        /// marked (as `audit --draft`).
        #[arg(long, value_name = "FILE")]
        draft: Option<PathBuf>,
    },
    /// Record a clean audit: write each registry's lock (`claims/<name>.lock`) and, where the
    /// manuscript changed, its manuscript.sha256. Writes nothing unless every claim binds,
    /// every check passes and every number is bound.
    Accept {
        #[command(flatten)]
        target: Target,
    },
    /// Start a registry for ARTICLE: write claims/<name>.toml with the manuscript's SHA-256 and
    /// a commented claim skeleton for every sentence and table cell that holds numbers. Never
    /// replaces an existing registry.
    Init {
        /// The article, relative to the root.
        article: String,
        /// A folder of evidence whose files, read as records, are listed in the registry's
        /// header (repeatable).
        #[arg(long = "evidence", value_name = "DIR")]
        evidence: Vec<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// For every number no check verifies, the evidence statistics that reproduce it at its
    /// quoted precision and unit, best first, as TOML to paste into the registry.
    Suggest {
        #[command(flatten)]
        target: Target,
    },
    /// Print only the verdict table and the counts line.
    Table {
        #[command(flatten)]
        target: Target,
    },
    /// Run the GPU suites on the device and write a new run under evidence/runs/ (needs an
    /// NVIDIA GPU; exits 2 without one).
    Run {
        #[arg(long, value_enum, default_value_t = crate::gpu::run::Suite::All)]
        suite: crate::gpu::run::Suite,
        #[command(flatten)]
        timing: Timing,
        /// Write N runs, each by a separate process (fresh CUDA context and compiled kernels):
        /// runs, not rounds, are what a rerun of the article replicates.
        #[arg(long, value_name = "N")]
        repeat: Option<u32>,
    },
    /// Side-by-side benchmarks written as a normal evidence run (needs an NVIDIA GPU).
    Bench {
        #[command(subcommand)]
        which: BenchKind,
    },
    /// The softmax benchmark table of one or more runs (µs, GB/s, fraction of copy, ratio to
    /// the best peer) and its targets judged by the recheck's ordering rule, from the raw
    /// samples alone.
    BenchReport {
        /// The run directories, relative to the root; several are pooled as replicates.
        #[arg(required = true, num_args = 1..)]
        runs: Vec<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// The table and targets as text, or as versioned JSON.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Pool the one RUN given with every other run in its folder that the suite accepted,
        /// timed alike, with the same code and peers, and list the others with why each was
        /// left out.
        #[arg(long)]
        with_same_code: bool,
        /// Also judge VARIANT, a candidate form timed in the runs (`x-…`), by the same rule:
        /// faster than the dispatched form (`fused-rms` for a name ending in `-rms`, `fused`
        /// otherwise) and its share of the copy where the shape has a copy target, as a family
        /// of its own that leaves the targets' verdicts as they are. Repeatable; a name that is
        /// not an `x-…` variant some run timed is refused.
        #[arg(long = "candidate", value_name = "VARIANT")]
        candidates: Vec<String>,
    },
    /// Render the article's figures (SVG) and article/figures/provenance.toml from the
    /// accepted run's raw samples and traces.
    Figures {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// The run to plot; default: the accepted run the committed figures were drawn from,
        /// else the first accepted run that holds the softmax suite.
        #[arg(long)]
        run: Option<String>,
        /// Compare with the committed figures instead of writing them.
        #[arg(long)]
        check: bool,
    },
    /// Recheck every quoted latency and ordering. Without flags: offline, from the quoted runs'
    /// raw samples and saved summaries. --gpu re-runs the suites those checks depend on and
    /// judges the fresh run against the accepted one (needs an NVIDIA GPU; exits 2 without
    /// one); --fresh RUN judges a run already written.
    Recheck {
        #[command(flatten)]
        target: Target,
        /// Re-run the suites on the device and write the fresh run with its outcome table.
        #[arg(long)]
        gpu: bool,
        /// Judge this as the fresh result, without a GPU: one of our run directories, or the
        /// output of the user's own harness (a file or a folder of any format the checks read),
        /// root-relative.
        #[arg(long, value_name = "PATH", conflicts_with = "gpu")]
        fresh: Option<String>,
        /// Pair an accepted evidence file with its fresh counterpart (`ACCEPTED=FRESH`,
        /// root-relative; repeatable), where the layout under --fresh does not pair them.
        #[arg(long = "map", value_name = "ACCEPTED=FRESH", requires = "fresh")]
        maps: Vec<String>,
        /// A JSONL file of a peer's samples (benches/torch_softmax.py) to store in the fresh run.
        #[arg(long = "peer", value_name = "FILE", requires = "gpu")]
        peers: Vec<PathBuf>,
        /// Timed rounds per configuration in the fresh run (default: as the accepted run).
        #[arg(long, requires = "gpu")]
        rounds: Option<u32>,
        /// Seed of the bootstrap (default: the one a stored recheck.json records, else 20261202).
        #[arg(long)]
        seed: Option<u64>,
        /// Bootstrap resamples per judgement.
        #[arg(long)]
        replicates: Option<usize>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Write the machine-readable review: a versioned, deterministic JSON file with the
    /// manuscripts and their SHA-256, every quoted latency recomputed, every ordering and trace
    /// check, graph node counts, kernel resources, figure hashes, source URLs, and every
    /// claim's verdict and check outcomes. Writes nothing when the input is bad.
    Review {
        #[command(flatten)]
        target: Target,
        /// Where to write the review (`-` for standard output).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Medians and p95s of a samples file, per group: one JSON object a line, in sorted group
    /// order (numpy's linear quantiles, to the last bit).
    Stats {
        /// The samples file: one JSON object a line, or CSV or TSV with a header row (by its
        /// name: .csv, .tsv, .tab).
        file: PathBuf,
        /// The fields that make a group.
        #[arg(long, value_delimiter = ',', default_value = "suite,case,variant,mode")]
        by: Vec<String>,
        /// The timed fields (repeatable).
        #[arg(long = "field", default_values_t = ["host_us".to_string(), "device_us".to_string()])]
        fields: Vec<String>,
    },
    /// Name runs as the ones the article uses (evidence/accepted.toml), after checking that
    /// each was accepted and that its manifest verifies. Several runs of the same suites are
    /// replicates of one another; a new set replaces the old one unless --add keeps it.
    AcceptRun {
        /// The run directories, relative to the root.
        #[arg(required = true)]
        runs: Vec<String>,
        /// Keep the runs already named for the same suites, adding these as more replicates.
        #[arg(long)]
        add: bool,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Take runs of unchanged code as A/A pairs: per configuration, the between-run
    /// coefficient of variation and spread, the recheck rule's false-MISMATCH and
    /// false-INCONCLUSIVE rates, and a proposed margin. --out writes the file the recheck
    /// widens one-run sides by (evidence/calibration.json).
    Calibrate {
        /// Run directories, relative to the root (at least two).
        #[arg(required = true, num_args = 2..)]
        runs: Vec<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Write the calibration as JSON here (root-relative paths recommended:
        /// evidence/calibration.json is what the recheck reads).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[arg(long)]
        seed: Option<u64>,
        /// Resamples per A/A judgement (raised to what the family-wise level needs).
        #[arg(long)]
        replicates: Option<usize>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

#[derive(Debug, Subcommand)]
pub enum BenchKind {
    /// Copy, our fused softmax, cuDNN and our RMS-scaled fused kernel on six shapes; a peer's
    /// samples (benches/torch_softmax.py) can be stored in the same run.
    Softmax {
        /// A JSONL file of a peer's samples and validation records to store in the run.
        #[arg(long = "peer", value_name = "FILE")]
        peers: Vec<PathBuf>,
        #[command(flatten)]
        timing: Timing,
    },
}

#[derive(Debug, Args)]
pub struct Timing {
    /// Timed rounds per configuration.
    #[arg(long, default_value_t = 21)]
    pub rounds: u32,
    /// Untimed invocations of every entry before the rounds.
    #[arg(long, default_value_t = 5)]
    pub warmup: usize,
    /// Seed of every fixture and of the shuffled order (default: a fresh one each run, recorded
    /// in meta.json).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Fresh random fixtures each variant is validated on before timing.
    #[arg(long, default_value_t = 2)]
    pub fixtures: u64,
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
}

impl Timing {
    fn settings(&self) -> crate::gpu::common::Settings {
        crate::gpu::common::Settings {
            rounds: self.rounds,
            warmup: self.warmup,
            seed: self.seed.unwrap_or_else(crate::gpu::common::fresh_seed),
            validation_fixtures: self.fixtures,
        }
    }
}

#[derive(Debug, Args)]
pub struct Target {
    /// The repository root; every path in a registry is relative to it.
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// A registry file, relative to the root (repeatable). Default: every claims/*.toml.
    #[arg(long = "claims", value_name = "FILE")]
    pub claims: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
}

/// What `audit` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    Table,
    Json,
    Sarif,
    Github,
    Junit,
}

impl Target {
    fn load(&self, draft: Option<PathBuf>) -> Workspace {
        Workspace::load(&Options { root: self.root.clone(), claims: self.claims.clone(), draft })
    }
}

/// Runs a parsed command line, writing its output to `out`.
pub fn run(cli: Cli, out: &mut Output) -> Result<Status, Failure> {
    match cli.command {
        Command::Audit { target, draft, format, summary } => {
            let ws = target.load(draft);
            let review = audit::audit(&ws);
            out.print(&match format {
                AuditFormat::Table => report::table::audit_text(&review),
                AuditFormat::Json => report::json::render(&review),
                AuditFormat::Sarif => report::sarif::render(&review),
                AuditFormat::Github => report::github::render(&review),
                AuditFormat::Junit => report::junit::render(&review),
            })?;
            if let Some(path) = summary {
                write_file(&target.root, &path, &report::summary::render(&review))?;
            }
            let status = review.status();
            // The workspace holds every file the audit read and everything parsed from it, in
            // many small allocations; the process ends right after this, and freeing them one
            // by one costs a few percent of the audit for nothing, so the system takes them back
            // at exit instead. (Nothing here owns a file or a lock that must be released.)
            std::mem::forget(review);
            std::mem::forget(ws);
            status
        }
        Command::Report { target, html, draft } => {
            let file = review::gather(&target.load(draft)).map_err(|f| f.refusing("no report written"))?;
            write_file(&target.root, &html, &report::html::render(&file))?;
            out.line(&report::html::written_line(&html.display().to_string(), &file))?;
            Ok(file.status)
        }
        Command::Init { article, evidence, root } => {
            let written = init::init(&root, &article, &evidence)?;
            for w in &written.warnings {
                out.line(&format!("{}:{}:{}: warning: {}", w.file, w.line, w.col, w.message))?;
            }
            out.line(&format!("{} written: {} skeletons for {} numbers, every claim commented out", written.registry, written.skeletons, written.numbers))?;
            Ok(Status::Clean)
        }
        Command::Suggest { target } => {
            let ws = target.load(None);
            if !ws.diagnostics.is_empty() {
                return Err(Failure::Input(ws.diagnostics.clone()));
            }
            out.print(&report::suggest::render(&suggest::suggest(&ws)))?;
            Ok(Status::Clean)
        }
        Command::Table { target } => {
            let review = audit::audit(&target.load(None));
            if !review.registries.is_empty() {
                out.print(&report::table::verdict_table(&review))?;
            }
            review.status()
        }
        Command::Accept { target } => match accept::accept(&target.load(None)).map_err(|f| f.refusing("nothing accepted"))? {
            accept::Accepted::Written(lines) => {
                lines.iter().try_for_each(|l| out.line(l))?;
                Ok(Status::Clean)
            }
            accept::Accepted::Refused(review, reasons) => {
                out.print(&report::table::audit_text(&review))?;
                out.line(&format!("not accepted, nothing written: {}", reasons.join("; ")))?;
                Ok(Status::NeedsAttention)
            }
        },
        Command::Run { suite, timing, repeat: Some(n) } => {
            if n < 1 {
                return Err(Failure::Usage("--repeat must be at least 1".into()));
            }
            // Probe first, so that a machine without a GPU says so once, not once per run.
            crate::gpu::device::probe().map_err(|e| Failure::NoGpu(e.to_string()))?;
            let _ = (suite, timing);
            let codes = crate::gpu::run::repeat(n).map_err(|e| Failure::Internal(e.context("starting a repeated run")))?;
            out.line(&format!("{n} runs, one process each: exit codes {codes:?}"))?;
            match codes.iter().copied().max().unwrap_or(0) {
                0 => Ok(Status::Clean),
                3 => Err(Failure::RunRejected(format!("a repeated run was rejected (exit codes {codes:?})"))),
                _ => Err(Failure::Internal(anyhow::anyhow!("a repeated run failed (exit codes {codes:?})"))),
            }
        }
        Command::Run { suite, timing, repeat: None } => {
            let suites = crate::gpu::run::suites_for(suite);
            gpu_run(out, &timing, &format!("{suite:?}").to_ascii_lowercase(), &suites, &[])
        }
        Command::Bench { which: BenchKind::Softmax { peers, timing } } => gpu_run(out, &timing, "softmax-bench", &["softmax-bench"], &peers),
        Command::BenchReport { runs, root, format, with_same_code, candidates } => {
            let report = match (with_same_code, runs.as_slice()) {
                (false, _) => bench::report(&root, &runs, &candidates)?,
                (true, [run]) => bench::report_with_same_code(&root, run, &candidates)?,
                (true, _) => return Err(Failure::Usage("--with-same-code pools one run with the others of its folder: give one run".into())),
            };
            out.print(&match format {
                Format::Table => report::bench::render(&report),
                Format::Json => report::bench::json(&report),
            })?;
            Ok(Status::from_attention(!report.all_met()))
        }
        Command::Figures { root, run, check } => {
            let done = crate::figures::write_or_check(&root, run.as_deref(), check)?;
            out.line(&done.message)?;
            Ok(Status::from_attention(!done.matched))
        }
        Command::Recheck { target, gpu, fresh, maps, peers, rounds, seed, replicates, format } => {
            if replicates.is_some_and(|r| r < 100) {
                return Err(Failure::Usage("--replicates must be at least 100 for a 90 % interval to mean anything".into()));
            }
            if rounds.is_some_and(|r| r < 2) {
                return Err(Failure::Usage("--rounds must be at least 2".into()));
            }
            let ws = target.load(None);
            let rule = recheck::Rule::new(seed, replicates);
            let render = |r: &recheck::Report| match format {
                Format::Table => report::recheck::text(r),
                Format::Json => report::recheck::json(r),
            };
            if gpu {
                let done = recheck::device::run(&ws, rule, &peers, rounds)?;
                out.print(&render(&done.report))?;
                // As JSON, the document's `fresh_run` names the run; a line after it would leave
                // stdout unreadable to a JSON parser.
                if let Format::Table = format {
                    out.line(&format!("run written: {} (accepted; its recheck.json and recheck.txt hold this table)", done.run))?;
                }
                Ok(done.report.status())
            } else if let Some(path) = fresh.as_deref().filter(|p| !maps.is_empty() || !is_our_run(&target.root, p)) {
                let report = recheck::harness::fresh(&ws, path, &maps, rule)?;
                out.print(&render(&report))?;
                Ok(report.status())
            } else if let Some(run) = fresh {
                let judged = recheck::fresh(&ws, &run, seed, replicates)?;
                let stored = judged.stored.as_ref();
                match (format, stored) {
                    (Format::Json, Some(c)) => out.print(&report::recheck::json_with_stored(&judged.report, &run, c))?,
                    (Format::Json, None) => out.print(&render(&judged.report))?,
                    (Format::Table, _) => {
                        out.print(&render(&judged.report))?;
                        if let Some(c) = stored {
                            out.print(&report::recheck::stored_text(&run, c))?;
                        }
                    }
                }
                Ok(judged.report.status().and(Status::from_attention(stored.is_some_and(|c| !c.differing.is_empty()))))
            } else {
                let report = recheck::offline(&ws, rule)?;
                out.print(&render(&report))?;
                Ok(report.status())
            }
        }
        Command::Review { target, out: path } => {
            let file = review::gather(&target.load(None)).map_err(|f| f.refusing("no review written"))?;
            let text = report::review::render(&file);
            if path == std::path::Path::new("-") {
                out.print(&text)?;
            } else {
                write_file(&target.root, &path, &text)?;
                out.line(&report::review::written_line(&path.display().to_string(), &file))?;
            }
            Ok(file.status)
        }
        Command::Stats { file, by, fields } => {
            out.print(&stats::stats(&file, &by, &fields)?)?;
            Ok(Status::Clean)
        }
        Command::AcceptRun { runs, add, root } => {
            out.line(&accept_run::accept_runs(&root, &runs, add)?)?;
            Ok(Status::Clean)
        }
        Command::Calibrate { runs, root, out: path, seed, replicates, format } => {
            let defaults = recheck::calibrate::Options::default();
            let options = recheck::calibrate::Options { seed: seed.unwrap_or(defaults.seed), replicates: replicates.unwrap_or(defaults.replicates), ..defaults };
            let file = recheck::calibrate::calibrate(&root, &runs, options)?;
            if let Some(path) = path {
                let path = if path.is_absolute() { path } else { root.join(path) };
                write_file(&root, &path, &report::calibration::json(&file))?;
            }
            out.print(&match format {
                Format::Table => report::calibration::text(&file),
                Format::Json => report::calibration::json(&file),
            })?;
            Ok(Status::Clean)
        }
    }
}

/// Whether `path` under `root` is a run of our own GPU suite (it has a `meta.json`), which
/// `recheck --fresh` judges as it always has; anything else is another harness's output.
fn is_our_run(root: &std::path::Path, path: &str) -> bool {
    crate::paths::Root::new(root).is_ok_and(|r| r.exists(&format!("{}/meta.json", path.trim_end_matches('/'))))
}

/// Replaces the file the user named with `text` through the one atomic writer (a temporary file
/// in its folder, fsync, rename), so that a reader never sees half a file; inside the root it
/// is written through the root's handle ([`crate::paths::write_named`]). A link in its place is
/// refused, never written through.
fn write_file(root: &std::path::Path, path: &std::path::Path, text: &str) -> Result<(), Failure> {
    let root = crate::paths::Root::new(root).ok();
    crate::paths::write_named(root.as_ref(), path, text.as_bytes()).map_err(|e| Failure::writing(&path.display().to_string(), e))
}

/// `run` and `bench`: measure on the device and write a run.
fn gpu_run(out: &mut Output, timing: &Timing, name: &str, suites: &[&str], peers: &[PathBuf]) -> Result<Status, Failure> {
    if timing.rounds < 2 {
        return Err(Failure::Usage("--rounds must be at least 2".into()));
    }
    let outcome = crate::gpu::run::run(&timing.root, name, suites, timing.settings(), peers)?;
    out.line(&outcome.table)?;
    let shown = outcome.dir.strip_prefix(&timing.root).unwrap_or(&outcome.dir).display().to_string();
    if outcome.accepted {
        out.line(&format!("run written: {shown} (accepted: every validation passed)"))?;
        Ok(Status::Clean)
    } else {
        out.line(&format!("run written: {shown} (REJECTED: see rejected_because in its meta.json)"))?;
        Err(Failure::RunRejected(format!("{shown} is marked rejected")))
    }
}
