//! How a command ended, and the one place that maps it to an exit code and prints a failure.
//! Commands return `Result<Status, Failure>`; `main` hands it to [`finish`].
//!
//! | exit | meaning |
//! |---|---|
//! | 0 | clean: everything holds (also when standard output was closed early, as by `| head`) |
//! | 1 | needs attention: a check fails, a number is unbound or changed, a recheck MISMATCH, a target missed |
//! | 2 | bad input or usage, or GPU work asked of a machine without a GPU |
//! | 3 | a GPU run was written but rejected: a validation record did not hold |
//! | 4 | an internal failure: the device failed mid-run, or output could not be written |

use std::io::Write;

use crate::diagnostic::Diagnostic;

/// A command that ran to the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Clean,
    NeedsAttention,
}

impl Status {
    /// `NeedsAttention` when `attention` holds.
    pub fn from_attention(attention: bool) -> Status {
        if attention { Status::NeedsAttention } else { Status::Clean }
    }

    /// The worse of two statuses.
    pub fn and(self, other: Status) -> Status {
        if self == Status::NeedsAttention || other == Status::NeedsAttention { Status::NeedsAttention } else { Status::Clean }
    }
}

/// A command that could not do what it was asked.
#[derive(Debug)]
pub enum Failure {
    /// The input is bad; each diagnostic is located where it can be.
    Input(Vec<Diagnostic>),
    /// The input is bad, and so the command did not do what it names (`no review written`).
    InputRefused(Vec<Diagnostic>, String),
    /// The command line asks for something that cannot be done.
    Usage(String),
    /// The command needs a GPU and this machine has none (or lacks its libraries).
    NoGpu(String),
    /// A GPU run was written, and rejected by its own validation.
    RunRejected(String),
    /// Something failed that is not the input's fault.
    Internal(anyhow::Error),
    /// Standard output was closed by its reader; nothing more is worth saying.
    ClosedPipe,
}

impl Failure {
    /// One plain message as an input failure.
    pub fn input(message: impl Into<String>) -> Failure {
        Failure::Input(vec![Diagnostic::plain(message)])
    }

    /// A file that could not be written: refused (a link in its place, a folder that leads
    /// out of the root) is bad input; the system failing (a full disk) is not.
    pub fn writing(shown: &str, e: crate::paths::PathError) -> Failure {
        if e.is_refusal() { Failure::input(format!("not writing {shown}: {e}")) } else { Failure::Internal(anyhow::anyhow!("writing {shown}: {e}")) }
    }

    /// An input failure that also says what was not done because of it.
    pub fn refusing(self, consequence: &str) -> Failure {
        match self {
            Failure::Input(ds) => Failure::InputRefused(ds, consequence.to_string()),
            other => other,
        }
    }

    fn exit_code(&self) -> u8 {
        match self {
            Failure::ClosedPipe => 0,
            Failure::Input(_) | Failure::InputRefused(..) | Failure::Usage(_) | Failure::NoGpu(_) => 2,
            Failure::RunRejected(_) => 3,
            Failure::Internal(_) => 4,
        }
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Failure {
        Failure::Input(vec![d])
    }
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(ds: Vec<Diagnostic>) -> Failure {
        Failure::Input(ds)
    }
}

/// Prints a failure once, on standard error, and returns the exit code.
pub fn finish(result: Result<Status, Failure>) -> u8 {
    let failure = match result {
        Ok(Status::Clean) => return 0,
        Ok(Status::NeedsAttention) => return 1,
        Err(f) => f,
    };
    let mut stderr = std::io::stderr().lock();
    let _ = match &failure {
        Failure::ClosedPipe => Ok(()),
        Failure::Input(diagnostics) => diagnostics.iter().try_for_each(|d| writeln!(stderr, "{}\n", d.render())),
        Failure::InputRefused(diagnostics, consequence) => {
            diagnostics.iter().try_for_each(|d| writeln!(stderr, "{}\n", d.render())).and_then(|_| writeln!(stderr, "error: {consequence}"))
        }
        Failure::Usage(m) | Failure::NoGpu(m) => writeln!(stderr, "error: {m}"),
        Failure::RunRejected(m) => writeln!(stderr, "error: the run was rejected: {m}"),
        Failure::Internal(e) => writeln!(stderr, "error: {e:#}"),
    };
    failure.exit_code()
}

/// Standard output, or a buffer in tests: every command writes through one, and a reader that
/// went away ends the command quietly.
pub struct Output {
    inner: Box<dyn Write>,
}

impl Output {
    pub fn stdout() -> Output {
        Output { inner: Box::new(std::io::stdout()) }
    }

    pub fn to(inner: Box<dyn Write>) -> Output {
        Output { inner }
    }

    /// Writes `text` as it is.
    pub fn print(&mut self, text: &str) -> Result<(), Failure> {
        self.inner.write_all(text.as_bytes()).and_then(|_| self.inner.flush()).map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => Failure::ClosedPipe,
            _ => Failure::Internal(anyhow::anyhow!("writing output: {e}")),
        })
    }

    /// Writes `line` and a newline.
    pub fn line(&mut self, line: &str) -> Result<(), Failure> {
        self.print(&format!("{line}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ending_has_its_exit_code() {
        assert_eq!(finish(Ok(Status::Clean)), 0);
        assert_eq!(finish(Ok(Status::NeedsAttention)), 1);
        assert_eq!(finish(Err(Failure::input("bad"))), 2);
        assert_eq!(finish(Err(Failure::Usage("bad".into()))), 2);
        assert_eq!(finish(Err(Failure::NoGpu("none".into()))), 2);
        assert_eq!(finish(Err(Failure::RunRejected("r".into()))), 3);
        assert_eq!(finish(Err(Failure::Internal(anyhow::anyhow!("x")))), 4);
        assert_eq!(finish(Err(Failure::ClosedPipe)), 0);
    }

    #[test]
    fn a_closed_reader_ends_the_output_quietly() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        assert!(matches!(Output::to(Box::new(Closed)).print("x"), Err(Failure::ClosedPipe)));
    }
}
