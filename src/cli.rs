//! The command line: argument parsing and dispatch to the library. Each command returns an
//! exit code (0 all passes, 1 something needs attention, 2 bad input or usage) and writes its
//! output; nothing here decides an outcome.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::audit::{self, Options, Review};
use crate::report;

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
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Record a clean audit: write each registry's lock (`claims/<name>.lock`) and, where the
    /// manuscript changed, its manuscript.sha256. Writes nothing unless every claim binds,
    /// every check passes and every number is bound.
    Accept {
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
    },
    /// Side-by-side benchmarks written as a normal evidence run (needs an NVIDIA GPU).
    Bench {
        #[command(subcommand)]
        which: BenchKind,
    },
    /// The softmax benchmark table of a run (µs, GB/s, fraction of copy, ratio to the best
    /// peer) and its targets, from the raw samples alone.
    BenchReport {
        /// The run directory, relative to the root.
        run: String,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Render the article's figures (SVG) and article/figures/provenance.toml from the
    /// accepted run's raw samples and traces.
    Figures {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// The run to plot; default: the accepted run that holds the softmax suite.
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
        /// Judge this run directory (root-relative) as the fresh run, without a GPU.
        #[arg(long, value_name = "RUN", conflicts_with = "gpu")]
        fresh: Option<String>,
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
    /// Medians and p95s of a JSONL samples file, per group: one JSON object a line, in sorted
    /// group order (numpy's linear quantiles, to the last bit).
    Stats {
        /// The samples file (one JSON object a line).
        file: PathBuf,
        /// The fields that make a group.
        #[arg(long, value_delimiter = ',', default_value = "suite,case,variant,mode")]
        by: Vec<String>,
        /// The timed fields (repeatable).
        #[arg(long = "field", default_values_t = ["host_us".to_string(), "device_us".to_string()])]
        fields: Vec<String>,
    },
    /// Name a run as the one the article uses (evidence/accepted.toml), after checking that it
    /// was accepted and that its manifest verifies.
    AcceptRun {
        /// The run directory, relative to the root.
        run: String,
        #[arg(long, default_value = ".")]
        root: PathBuf,
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
    /// Seed of every fixture and of the shuffled order.
    #[arg(long, default_value_t = 20261202)]
    pub seed: u64,
    /// Fresh random fixtures each variant is validated on before timing.
    #[arg(long, default_value_t = 2)]
    pub fixtures: u64,
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
}

impl Timing {
    fn settings(&self) -> crate::gpu::common::Settings {
        crate::gpu::common::Settings { rounds: self.rounds, warmup: self.warmup, seed: self.seed, validation_fixtures: self.fixtures }
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

impl Target {
    fn options(&self) -> Options {
        Options { root: self.root.clone(), claims: self.claims.clone(), draft: None }
    }
}

/// Runs a parsed command line and returns the exit code.
pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Audit { target, draft, format } => {
            let review = audit::audit(&Options { draft, ..target.options() });
            let text = match format {
                Format::Table => audit_text(&review),
                Format::Json => report::json::render(&review),
            };
            emit(&text, &review)
        }
        Command::Table { target } => {
            let review = audit::audit(&target.options());
            let text = if review.registries.is_empty() { String::new() } else { report::table::verdict_table(&review) };
            emit(&text, &review)
        }
        Command::Run { suite, timing } => {
            if timing.rounds < 2 {
                eprintln!("error: --rounds must be at least 2");
                return 2;
            }
            let suites = crate::gpu::run::suites_for(suite);
            gpu_run(&timing, &format!("{suite:?}").to_ascii_lowercase(), &suites, &[])
        }
        Command::Bench { which: BenchKind::Softmax { peers, timing } } => gpu_run(&timing, "softmax-bench", &["softmax-bench"], &peers),
        Command::BenchReport { run, root } => bench_report(&root, &run),
        Command::Accept { target } => accept(&target),
        Command::Review { target, out } => review(&target, &out),
        Command::Stats { file, by, fields } => stats(&file, &by, &fields),
        Command::Recheck { target, gpu, fresh, peers, rounds, seed, replicates, format } => {
            recheck(&target, RecheckMode::from(gpu, fresh), &peers, rounds, seed, replicates, format)
        }
        Command::AcceptRun { run, root } => accept_run(&root, &run),
        Command::Figures { root, run, check } => figures(&root, run.as_deref(), check),
    }
}

fn gpu_run(timing: &Timing, name: &str, suites: &[&str], peers: &[PathBuf]) -> u8 {
    use crate::gpu::run::RunError;
    match crate::gpu::run::run(&timing.root, name, suites, timing.settings(), peers) {
        Ok(outcome) => {
            println!("{}", outcome.table);
            let shown = outcome.dir.strip_prefix(&timing.root).unwrap_or(&outcome.dir).display().to_string();
            if outcome.accepted {
                println!("run written: {shown} (accepted: every validation passed)");
                0
            } else {
                println!("run written: {shown} (REJECTED: see rejected_because in its meta.json)");
                1
            }
        }
        Err(RunError::Unavailable(e)) => {
            eprintln!("error: {e}");
            2
        }
        Err(RunError::BadInput(e)) => {
            eprintln!("error: {e}");
            2
        }
        Err(RunError::Failed(e)) => {
            eprintln!("error: the run failed and nothing was written: {e:#}");
            1
        }
    }
}

/// Writes `text` to standard output. A reader that stopped reading (`| head`) is not an
/// error, as in ripgrep; any other failure is reported and makes the command exit 2.
fn stdout(text: &str) -> Result<(), u8> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            eprintln!("error: writing output: {e}");
            Err(2)
        }
    }
}

/// `stdout`, then `code` unless the output could not be written.
fn print_then(text: &str, code: u8) -> u8 {
    stdout(text).map_or_else(|failed| failed, |()| code)
}

/// Prints a command's input error once: a diagnostic renders its own `error:` title.
fn print_error(d: &crate::diagnostic::Diagnostic) {
    eprintln!("{}", d.render());
}

/// Reads a run directory's samples, refusing paths outside the root.
fn run_samples(root: &std::path::Path, run: &str) -> Result<(std::path::PathBuf, Vec<crate::evidence::SampleRecord>), crate::diagnostic::Diagnostic> {
    use crate::diagnostic::Diagnostic;
    let root = crate::paths::Root::new(root).map_err(|e| Diagnostic::plain(format!("cannot open root {}: {e}", root.display())))?;
    let dir = root.resolve(run).map_err(|e| Diagnostic::plain(e.to_string()))?;
    let path = dir.join("samples.jsonl");
    let bytes = std::fs::read(&path).map_err(|e| Diagnostic::plain(format!("reading {run}/samples.jsonl: {e}")))?;
    let shown = format!("{run}/samples.jsonl");
    let jsonl = crate::evidence::Jsonl::from_vec(&shown, bytes)?;
    let mut samples = Vec::new();
    for record in &jsonl.records {
        samples.push(jsonl.record_as(record, "a sample")?);
    }
    Ok((dir, samples))
}

fn bench_report(root: &std::path::Path, run: &str) -> u8 {
    match run_samples(root, run).and_then(|(_, s)| report::bench::render(&s).map_err(crate::diagnostic::Diagnostic::plain)) {
        Ok((text, all_met)) => print_then(&text, if all_met { 0 } else { 1 }),
        Err(d) => {
            print_error(&d);
            2
        }
    }
}

fn accept_run(root: &std::path::Path, run: &str) -> u8 {
    use crate::diagnostic::Diagnostic;
    let result = (|| -> Result<String, Diagnostic> {
        let (dir, _) = run_samples(root, run)?;
        let meta_shown = format!("{run}/meta.json");
        let meta = crate::evidence::parse_json(&meta_shown, &std::fs::read(dir.join("meta.json")).map_err(|e| Diagnostic::plain(format!("reading {meta_shown}: {e}")))?)?;
        let status = meta.get("status").and_then(|s| s.as_str()).unwrap_or("unknown");
        if status != "accepted" {
            return Err(Diagnostic::plain(format!("{run} is marked `{status}`; a rejected run stays rejected and cannot be named for the article")));
        }
        let manifest_path = dir.join("MANIFEST.sha256");
        let manifest_shown = format!("{run}/MANIFEST.sha256");
        let text = crate::evidence::read_text(&manifest_shown, &manifest_path)?;
        let (verified, problems) = crate::evidence::verify_manifest(&manifest_path, &text, &manifest_shown, &[])?;
        if !problems.is_empty() {
            return Err(Diagnostic::plain(format!("{run} does not verify against its manifest: {}", problems.join("; "))));
        }
        let suites: Vec<String> = meta
            .get("suites")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
            .unwrap_or_default();
        let target = root.join("evidence/accepted.toml");
        // A missing file is an empty list; one that is there must read, or nothing is written
        // over it.
        let mut accepted: crate::evidence::AcceptedFile = match std::fs::read(&target) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|e| Diagnostic::not_utf8("evidence/accepted.toml", e.as_bytes(), e.utf8_error().valid_up_to()))?;
                crate::evidence::parse_accepted("evidence/accepted.toml", &text)?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => crate::evidence::AcceptedFile::default(),
            Err(e) => return Err(Diagnostic::plain(format!("reading evidence/accepted.toml: {e}"))),
        };
        // One accepted run per set of suites: a newer one replaces the older.
        accepted.run.retain(|r| r.suites != suites && r.path != run);
        accepted.run.push(crate::evidence::AcceptedRun { path: run.to_string(), suites, manifest_sha256: crate::article::sha256_hex(text.as_bytes()) });
        accepted.run.sort_by(|a, b| a.path.cmp(&b.path));
        let body = format!(
            "# Written by `claimcheck accept-run`: the evidence runs the article's numbers come from.\n\n{}",
            toml::to_string(&accepted).map_err(|e| Diagnostic::plain(e.to_string()))?
        );
        std::fs::write(&target, body).map_err(|e| Diagnostic::plain(format!("writing evidence/accepted.toml: {e}")))?;
        Ok(format!("evidence/accepted.toml now names {run} ({verified} files verified)\n"))
    })();
    match result {
        Ok(m) => print_then(&m, 0),
        Err(d) => {
            print_error(&d);
            2
        }
    }
}

/// The table, the findings and a closing summary line.
fn audit_text(review: &Review) -> String {
    if review.registries.is_empty() {
        return String::new();
    }
    let mut out = report::table::verdict_table(review);
    let findings = report::table::findings(review);
    if !findings.is_empty() {
        out.push('\n');
        out.push_str(&findings);
    }
    let checks: Vec<_> = review.claims().flat_map(|c| c.checks.iter()).collect();
    let count = |label: &str| checks.iter().filter(|c| c.outcome.label() == label).count();
    let unbound: usize = review.registries.iter().map(|r| r.unbound.len()).sum();
    out.push_str(&format!(
        "\naudit: {} claims in {} {}; {} checks: {} passed, {} failed, {} skipped, {} errors; {} unbound numbers; {}\n",
        review.claims().count(),
        review.registries.len(),
        if review.registries.len() == 1 { "registry" } else { "registries" },
        checks.len(),
        count("pass"),
        count("fail"),
        count("skipped"),
        count("error"),
        unbound,
        match review.exit_code() {
            0 => "all claims hold",
            1 => "needs attention",
            _ => "input errors (see above)",
        }
    ));
    out
}

/// Writes `text` to stdout and the review's diagnostics to stderr. A closed pipe (`| head`)
/// is not an error.
fn emit(text: &str, review: &Review) -> u8 {
    let mut stderr = std::io::stderr().lock();
    for d in review.errors() {
        let _ = writeln!(stderr, "{}\n", d.render());
    }
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()) {
        Ok(()) => review.exit_code(),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => review.exit_code(),
        Err(e) => {
            let _ = writeln!(stderr, "error: writing output: {e}");
            2
        }
    }
}


fn figures(root: &std::path::Path, run: Option<&str>, check: bool) -> u8 {
    let run = match run {
        Some(r) => r.to_string(),
        None => match crate::evidence::accepted_run_with(root, "softmax") {
            Ok(r) => r,
            Err(d) => {
                print_error(&d);
                return 2;
            }
        },
    };
    let result = (|| -> anyhow::Result<(bool, String)> {
        let figures = crate::figures::render(root, &run)?;
        let provenance = crate::figures::provenance_toml(&figures)?;
        let dir = root.join("article/figures");
        let mut files: Vec<(String, String)> = figures.iter().map(|f| (f.name.clone(), f.svg.clone())).collect();
        files.push(("provenance.toml".into(), provenance));
        if check {
            let differing: Vec<String> = files
                .iter()
                .filter(|(name, text)| std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(text.as_str()))
                .map(|(name, _)| format!("article/figures/{name}"))
                .collect();
            let ok = differing.is_empty();
            let message = if ok { format!("{} files match a fresh rendering of {run}", files.len()) } else { format!("differ from a fresh rendering of {run}: {}", differing.join(", ")) };
            return Ok((ok, message));
        }
        std::fs::create_dir_all(&dir)?;
        for (name, text) in &files {
            std::fs::write(dir.join(name), text)?;
        }
        Ok((true, format!("wrote {} files to article/figures from {run}", files.len())))
    })();
    match result {
        Ok((ok, message)) => print_then(&format!("{message}\n"), if ok { 0 } else { 1 }),
        Err(e) => {
            eprintln!("error: {e:#}");
            2
        }
    }
}

/// Which recheck to make.
enum RecheckMode {
    Offline,
    Gpu,
    Fresh(String),
}

impl RecheckMode {
    fn from(gpu: bool, fresh: Option<String>) -> RecheckMode {
        match (gpu, fresh) {
            (true, _) => RecheckMode::Gpu,
            (false, Some(run)) => RecheckMode::Fresh(run),
            (false, None) => RecheckMode::Offline,
        }
    }
}

fn recheck(target: &Target, mode: RecheckMode, peers: &[PathBuf], rounds: Option<u32>, seed: Option<u64>, replicates: Option<usize>, format: Format) -> u8 {
    use crate::recheck::{self, DEFAULT_REPLICATES, DEFAULT_SEED, Mode, Options, Report};
    if replicates.is_some_and(|r| r < 100) {
        eprintln!("error: --replicates must be at least 100 for a 90 % interval to mean anything");
        return 2;
    }
    if rounds.is_some_and(|r| r < 2) {
        eprintln!("error: --rounds must be at least 2");
        return 2;
    }
    let mut options = Options {
        root: target.root.clone(),
        claims: target.claims.clone(),
        seed: seed.unwrap_or(DEFAULT_SEED),
        replicates: replicates.unwrap_or(DEFAULT_REPLICATES),
    };
    let render = |report: &Report| match format {
        Format::Table => report::recheck::text(report),
        Format::Json => report::recheck::json(report),
    };
    let fail = |diagnostics: Vec<crate::diagnostic::Diagnostic>| {
        for d in diagnostics {
            eprintln!("{}\n", d.render());
        }
        2
    };
    match mode {
        RecheckMode::Offline => match recheck::offline(&options) {
            Ok(report) => print_then(&render(&report), report.exit_code()),
            Err(ds) => fail(ds),
        },
        RecheckMode::Fresh(run) => {
            let root = match crate::paths::Root::new(&options.root) {
                Ok(r) => r,
                Err(e) => return fail(vec![crate::diagnostic::Diagnostic::plain(format!("cannot open root {}: {e}", options.root.display()))]),
            };
            // A run that stores its judgement is judged again with the seed it records, so
            // that the two can be compared.
            let stored: Option<report::recheck::WireRecheck> =
                root.resolve(&format!("{}/recheck.json", run.trim_end_matches('/'))).ok().and_then(|p| std::fs::read(p).ok()).and_then(|b| serde_json::from_slice(&b).ok());
            if let Some(s) = &stored {
                options.seed = seed.unwrap_or(s.rule.seed);
                options.replicates = replicates.unwrap_or(s.rule.replicates);
            }
            let result = (|| {
                let (targets, not_rechecked) = recheck::targets(&root, &options.claims)?;
                let files = crate::jsonl::JsonlCache::new(&root);
                let (fresh, samples) = recheck::load_fresh(&root, &run, &files).map_err(|d| vec![d])?;
                if fresh.status.as_deref() != Some("accepted") {
                    return Err(vec![crate::diagnostic::Diagnostic::plain(format!(
                        "{run} is marked `{}`: a rejected run is not judged",
                        fresh.status.as_deref().unwrap_or("unknown")
                    ))]);
                }
                let accepted = recheck::accepted_runs(&root, &targets).map_err(|d| vec![d])?;
                let rows = recheck::against_fresh(&options, &targets, &accepted, &files, &fresh, &samples).map_err(|d| vec![d])?;
                Ok(Report { mode: Mode::Fresh, seed: options.seed, replicates: options.replicates, accepted, fresh: Some(fresh), rows, not_rechecked })
            })();
            match result {
                Ok(report) => {
                    use std::fmt::Write as _;
                    let mut text = render(&report);
                    let mut code = report.exit_code();
                    if let Some(s) = &stored {
                        let c = report::recheck::compare_stored(s, &report::recheck::wire(&report));
                        if c.differing.is_empty() {
                            let _ = writeln!(text, "{run}/recheck.json: every stored row is reproduced exactly");
                        } else {
                            let _ = writeln!(text, "{run}/recheck.json: {} stored rows DIFFER from this judgement:", c.differing.len());
                            for d in &c.differing {
                                let _ = writeln!(text, "  {d}");
                            }
                            code = 1;
                        }
                        if c.only_stored + c.only_now > 0 {
                            let _ = writeln!(text, "{run}/recheck.json: {} rows only in the stored table, {} only in this one (the registries changed since the run)", c.only_stored, c.only_now);
                        }
                    }
                    print_then(&text, code)
                }
                Err(ds) => fail(ds),
            }
        }
        RecheckMode::Gpu => {
            use crate::gpu::run::RunError;
            match crate::gpu::recheck::run(&options, peers, rounds) {
                Ok(done) => {
                    let shown = done.dir.strip_prefix(&options.root).unwrap_or(&done.dir).display().to_string();
                    match done.report {
                        Some(report) => {
                            print!("{}", render(&report));
                            println!("run written: {shown} (accepted; its recheck.json and recheck.txt hold this table)");
                            report.exit_code()
                        }
                        None => {
                            println!("run written: {shown} (REJECTED, not judged: {})", done.rejected_because.join("; "));
                            1
                        }
                    }
                }
                Err(e @ (RunError::Unavailable(_) | RunError::BadInput(_))) => {
                    eprintln!("error: {e}");
                    2
                }
                Err(RunError::Failed(e)) => {
                    eprintln!("error: the recheck run failed and nothing was written: {e:#}");
                    1
                }
            }
        }
    }
}

fn accept(target: &Target) -> u8 {
    use crate::accept::Refused;
    match crate::accept::accept(&target.options()) {
        Ok(lines) => print_then(&lines.iter().map(|l| format!("{l}\n")).collect::<String>(), 0),
        Err(Refused::Input(diagnostics)) => {
            for d in diagnostics {
                eprintln!("{}\n", d.render());
            }
            eprintln!("error: nothing accepted");
            2
        }
        Err(Refused::NotClean(review, reasons)) => print_then(&format!("{}not accepted, nothing written: {}\n", audit_text(&review), reasons.join("; ")), 1),
    }
}

fn review(target: &Target, out: &std::path::Path) -> u8 {
    let file = match crate::review::gather(&target.options()) {
        Ok(f) => f,
        Err(diagnostics) => {
            for d in diagnostics {
                eprintln!("{}\n", d.render());
            }
            eprintln!("error: no review written");
            return 2;
        }
    };
    let text = report::review::render(&file);
    let code = report::review::wire(&file).exit_code;
    if out == std::path::Path::new("-") {
        return print_then(&text, code);
    }
    if let Err(e) = crate::paths::write_atomic(out, text.as_bytes()) {
        eprintln!("error: writing {}: {e}", out.display());
        return 2;
    }
    let written = format!(
        "review written: {} ({} claims, {} latencies, {} orderings; {})\n",
        out.display(),
        file.audit.claims().count(),
        file.recheck.rows.iter().filter(|r| r.kind == crate::recheck::RowKind::Latency).count(),
        file.recheck.rows.iter().filter(|r| r.kind == crate::recheck::RowKind::Ordering).count(),
        if code == 0 { "all claims hold" } else { "needs attention" }
    );
    print_then(&written, code)
}

fn stats(file: &std::path::Path, by: &[String], fields: &[String]) -> u8 {
    let result = (|| -> Result<String, crate::diagnostic::Diagnostic> {
        let shown = file.display().to_string();
        let bytes = std::fs::read(file).map_err(|e| crate::diagnostic::Diagnostic::plain(format!("reading {shown}: {e}")))?;
        let jsonl = crate::evidence::Jsonl::from_vec(&shown, bytes)?;
        let mut out = String::new();
        let groups = jsonl.groups(by);
        for field in fields {
            for (key, records) in &groups {
                let samples = jsonl.samples(records, field)?;
                let mut row = serde_json::Map::new();
                for (k, v) in by.iter().zip(key) {
                    row.insert(k.clone(), serde_json::Value::String(v.clone()));
                }
                row.insert("field".into(), field.clone().into());
                row.insert("n".into(), samples.len().into());
                row.insert("median".into(), samples.median().into());
                row.insert("p95".into(), samples.quantile(0.95).into());
                out.push_str(&serde_json::Value::Object(row).to_string());
                out.push('\n');
            }
        }
        Ok(out)
    })();
    match result {
        Ok(text) => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(text.as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("error: writing output: {e}");
                    2
                }
                _ => 0,
            }
        }
        Err(d) => {
            eprintln!("{}", d.render());
            2
        }
    }
}
