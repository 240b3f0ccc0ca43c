//! The `claimcheck` binary: parse the command line, run it, and exit with the code
//! [`claimcheck::status::finish`] gives (0 clean, 1 needs attention, 2 bad input or usage,
//! 3 rejected GPU run, 4 internal failure).

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
    let mut out = claimcheck::status::Output::stdout();
    ExitCode::from(claimcheck::status::finish(claimcheck::cli::run(cli, &mut out)))
}
