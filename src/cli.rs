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
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Print only the verdict table and the counts line.
    Table {
        #[command(flatten)]
        target: Target,
    },
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
        Options { root: self.root.clone(), claims: self.claims.clone() }
    }
}

/// Runs a parsed command line and returns the exit code.
pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Audit { target, format } => {
            let review = audit::audit(&target.options());
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
        "\naudit: {} claims in {} registries; {} checks: {} passed, {} failed, {} skipped, {} errors; {} unbound numbers; {}\n",
        review.claims().count(),
        review.registries.len(),
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
    for d in &review.diagnostics {
        let _ = writeln!(stderr, "{}\n", d.render());
    }
    for c in review.claims() {
        for k in &c.checks {
            if let crate::checks::Outcome::Error(d) = &k.outcome {
                let _ = writeln!(stderr, "{}\n", d.render());
            }
        }
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
