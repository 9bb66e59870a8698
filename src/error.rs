//! Errors as types, each with an exit code and a hint.
//!
//! Every module owns its own error enum and implements [`Diagnostic`] for it,
//! so the CLI can print `error: …` followed by `hint: …` and exit with the
//! code from the documented table without knowing where the error came from.

use std::fmt;

/// The documented exit codes (README, "Exit codes"); scripts depend on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// Everything worked.
    Success = 0,
    /// An operation ran and failed, or a check found a broken server.
    Failed = 1,
    /// The command line or an input file was invalid.
    Usage = 2,
    /// A named server, file or registry entry does not exist.
    NotFound = 3,
    /// The target exists already, is busy, disabled or stale.
    Conflict = 4,
    /// The supervisor could not be reached.
    SupervisorUnreachable = 5,
    /// The user interrupted the command (Ctrl-C, SIGINT).
    Interrupted = 130,
    /// The command was stopped by SIGHUP (its terminal went away).
    HungUp = 129,
    /// The command was stopped by SIGTERM.
    Terminated = 143,
}

impl ExitCode {
    /// The numeric process exit status.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The stable name of this class, the `code` of a `--json` error
    /// document, so scripts can branch without a table of numbers.
    pub fn name(self) -> &'static str {
        match self {
            ExitCode::Success => "ok",
            ExitCode::Failed => "failed",
            ExitCode::Usage => "usage",
            ExitCode::NotFound => "not_found",
            ExitCode::Conflict => "conflict",
            ExitCode::SupervisorUnreachable => "supervisor_unreachable",
            ExitCode::Interrupted => "interrupted",
            ExitCode::HungUp => "hung_up",
            ExitCode::Terminated => "terminated",
        }
    }
}

/// What every error in mcpctl must be able to say about itself, so that the
/// CLI can tell the operator what happened, what to do next, and scripts can
/// branch on the exit code.
pub trait Diagnostic: std::error::Error + Send + Sync + 'static {
    /// The exit code class of this error.
    fn exit_code(&self) -> ExitCode;
    /// One line that tells the operator what to do next.
    fn hint(&self) -> Option<String> {
        None
    }
    /// Further errors found with this one (a definition refused for several
    /// reasons), each printed after it with its own hint, as cargo and uv
    /// print theirs: a hint never lands under the wrong error.
    fn also(&self) -> Vec<Also> {
        Vec::new()
    }
}

/// One more error reported with the first, with its own hint.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Also {
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

/// The error type every command returns: any module's [`Diagnostic`], boxed.
pub struct Error(Box<dyn Diagnostic>);

impl Error {
    /// The exit code this error maps to.
    pub fn exit_code(&self) -> ExitCode {
        self.0.exit_code()
    }

    /// The next-step hint, if the error has one.
    pub fn hint(&self) -> Option<String> {
        self.0.hint()
    }

    /// The further errors found with this one, each with its hint.
    pub fn also(&self) -> Vec<Also> {
        self.0.also()
    }

    /// The underlying diagnostic, for tests and `--json` reports.
    pub fn inner(&self) -> &dyn Diagnostic {
        self.0.as_ref()
    }
}

impl<E: Diagnostic> From<E> for Error {
    fn from(err: E) -> Self {
        Error(Box::new(err))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        if let Some(hint) = self.hint() {
            write!(f, " (hint: {hint})")?;
        }
        Ok(())
    }
}

/// Shorthand for results whose error is the boxed [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Errors that belong to the command line itself rather than to a module.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// A combination of flags that cannot work together, or a missing value.
    #[error("{message}")]
    Invalid {
        /// What is wrong.
        message: String,
        /// What to type instead.
        hint: Option<String>,
    },
    /// Writing the command's output failed (other than a closed pipe).
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
}

impl UsageError {
    /// A usage error with a hint, the common case.
    pub fn new(message: impl Into<String>, hint: impl Into<String>) -> Self {
        UsageError::Invalid {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }
}

impl Diagnostic for UsageError {
    fn exit_code(&self) -> ExitCode {
        match self {
            UsageError::Invalid { .. } => ExitCode::Usage,
            UsageError::Output(_) => ExitCode::Failed,
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            UsageError::Invalid { hint, .. } => hint.clone(),
            UsageError::Output(_) => {
                Some("check that stdout is writable (a full disk, a closed pipe)".into())
            }
        }
    }
}

/// The whole `source()` chain of an error as one line, `outer: inner`,
/// skipping a cause whose text the line already holds (many errors repeat
/// their source in their own message). One place, so every transport and
/// the registry explain a failure the same way.
pub fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

#[cfg(test)]
mod chain_tests {
    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] std::io::Error);

    #[derive(Debug, thiserror::Error)]
    #[error("cannot connect: {0}")]
    struct Repeats(#[source] std::io::Error);

    #[test]
    fn causes_are_joined_and_repeats_skipped() {
        let io = || std::io::Error::other("refused");
        assert_eq!(super::chain(&Outer(io())), "outer: refused");
        assert_eq!(super::chain(&Repeats(io())), "cannot connect: refused");
    }
}
