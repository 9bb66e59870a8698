//! Everything that can go wrong reading or writing a lockfile.

use std::path::PathBuf;

use crate::error::{Diagnostic, ExitCode};

/// A lockfile problem; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// The text is not a lockfile mcpctl wrote (bad TOML, a wrong type, an
    /// unknown key, a duplicate server, a hash that does not match).
    #[error("{}:{line}:{column}: {message}", path.display())]
    Malformed {
        /// The lockfile.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// The lockfile pins another definitions file.
    #[error(
        "{}: this lockfile belongs to `{theirs}`, not to `{ours}`",
        path.display()
    )]
    OtherDefinitions {
        /// The lockfile.
        path: PathBuf,
        /// The definitions file it names.
        theirs: String,
        /// The definitions file in use.
        ours: String,
    },
    /// The definitions file's name gives no usable lockfile name.
    #[error("{}: no lockfile name can be made from this file name", path.display())]
    NoName {
        /// The definitions file.
        path: PathBuf,
    },
    /// Another user could change the lockfile (see [`crate::defs::trust`]).
    #[error(transparent)]
    Untrusted(#[from] crate::defs::trust::Untrusted),
    /// Reading or writing failed.
    #[error(transparent)]
    Defs(#[from] crate::defs::DefsError),
}

impl Diagnostic for LockError {
    fn exit_code(&self) -> ExitCode {
        match self {
            LockError::Defs(e) => e.exit_code(),
            _ => ExitCode::Usage,
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            LockError::Malformed { .. } => Some(
                "the lockfile was left as it is; fix that line, or delete the file and run `mcpctl lock` to write a new one"
                    .into(),
            ),
            LockError::OtherDefinitions { theirs, .. } => Some(format!(
                "two definition files share one lockfile name; rename one of them, or lock `{theirs}` only"
            )),
            LockError::NoName { .. } => {
                Some("give the definitions file a name such as servers.json".into())
            }
            LockError::Untrusted(e) => Some(e.hint_text()),
            LockError::Defs(e) => e.hint(),
        }
    }
}
