//! Everything that can go wrong reading, editing or writing a definition file.

use std::path::PathBuf;

use crate::error::{Diagnostic, ExitCode};

/// A failure of the definition layer; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum DefsError {
    /// The file is not valid JSON/YAML, or not the shape mcpctl reads.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// A problem that has no single position (a wrong shape, an entry's fields).
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
        /// What to do about it.
        hint: String,
    },
    /// The file exists but cannot be read or written.
    #[error("{}: {action}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What mcpctl was doing ("cannot read", "cannot write" …).
        action: &'static str,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The file is larger than any definition file should be.
    #[error("{}: file is {size} bytes, more than the {limit}-byte limit for a definition file", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The same server name appears in two sources.
    #[error("server `{name}` is defined in both {} and {}", first.display(), second.display())]
    DuplicateAcrossSources {
        /// The name.
        name: String,
        /// The first file that defines it.
        first: PathBuf,
        /// The second file that defines it.
        second: PathBuf,
    },
    /// No server by that name in any source.
    #[error("no server named `{name}` in {sources}")]
    NotFound {
        /// The name asked for.
        name: String,
        /// The sources searched, for the message.
        sources: String,
        /// A near name, if any.
        suggestion: Option<String>,
    },
    /// A named server already exists where `add` would write it.
    #[error("server `{name}` already exists in {}", path.display())]
    Exists {
        /// The name.
        name: String,
        /// Where it is defined.
        path: PathBuf,
    },
    /// An entry's name is not a valid server name; mcpctl never uses it.
    #[error("{}:{line}:{column}: invalid server name: {problem}", path.display())]
    InvalidName {
        /// The file.
        path: PathBuf,
        /// 1-based line of the entry's key.
        line: usize,
        /// 1-based column of the entry's key.
        column: usize,
        /// What is wrong with the name (the name debug-escaped).
        problem: String,
        /// A valid name derived from it.
        suggestion: String,
    },
    /// An edit would drop comments, so it was refused.
    #[error("{}: editing this file would lose {lost} comment line(s)", path.display())]
    WouldLoseComments {
        /// The file.
        path: PathBuf,
        /// How many comment lines would be dropped.
        lost: usize,
    },
}

impl Diagnostic for DefsError {
    fn exit_code(&self) -> ExitCode {
        match self {
            DefsError::Malformed { .. }
            | DefsError::Invalid { .. }
            | DefsError::TooLarge { .. }
            | DefsError::InvalidName { .. }
            | DefsError::DuplicateAcrossSources { .. } => ExitCode::Usage,
            DefsError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                ExitCode::NotFound
            }
            DefsError::Io { .. } | DefsError::WouldLoseComments { .. } => ExitCode::Failed,
            DefsError::NotFound { .. } => ExitCode::NotFound,
            DefsError::Exists { .. } => ExitCode::Conflict,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            DefsError::Malformed { path, .. } => format!(
                "fix the file by hand at that position; mcpctl left {} untouched",
                path.display()
            ),
            DefsError::Invalid { hint, .. } => hint.clone(),
            DefsError::Io { source, path, .. } => crate::state_dir::refusal_hint(source)
                .unwrap_or_else(|| {
                    match source.kind() {
                std::io::ErrorKind::PermissionDenied => format!(
                    "check the permissions of {} and its directory",
                    path.display()
                ),
                std::io::ErrorKind::NotFound => {
                    "create it with `mcpctl add … --to FILE`, or pass an existing file with --file"
                        .to_string()
                }
                _ => "the file was left as it was; fix the cause and run the command again"
                    .to_string(),
            }
                }),
            DefsError::TooLarge { .. } => {
                "is this the right file? pass the definition file with --file PATH".to_string()
            }
            DefsError::DuplicateAcrossSources { name, second, .. } => format!(
                "remove `{name}` from one of them, e.g. `mcpctl remove {name} --file {}`",
                second.display()
            ),
            DefsError::NotFound { suggestion, .. } => match suggestion {
                Some(near) => format!("did you mean `{near}`? `mcpctl list` shows every server"),
                None => "`mcpctl list` shows every server and the files they come from".to_string(),
            },
            DefsError::Exists { name, .. } => {
                format!("choose another --name, or pass --force to replace `{name}`")
            }
            DefsError::InvalidName {
                path, suggestion, ..
            } => format!(
                "rename the entry in {} by hand, e.g. to `{suggestion}`; until then mcpctl lists it but will not use it",
                path.display()
            ),
            DefsError::WouldLoseComments { .. } => {
                "edit the file by hand, or pass --force to write it without those comments"
                    .to_string()
            }
        })
    }
}
