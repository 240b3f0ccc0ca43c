//! The `claimcheck` binary: parse the command line, run it, exit 0, 1 or 2.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match claimcheck::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version are successes; every other parse failure is a usage error.
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    ExitCode::from(claimcheck::cli::run(cli))
}
