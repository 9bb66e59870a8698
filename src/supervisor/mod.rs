//! The supervisor: a background daemon, driven over a local Unix socket,
//! that owns running MCP servers (ARCHITECTURE.md, "Floor 6").
//!
//! - [`protocol`]: the typed, length-prefixed JSON wire protocol.
//! - [`socket`]: where the socket, lock, records and logs live; permissions.
//! - [`daemon`]: the accept loop, dispatch, reload and shutdown.
//! - [`owner`]: one server's state machine, catalog and calls.
//! - [`admit`]: the checks before a tool call is sent (tool, arguments).
//! - [`logs`], [`records`]: stderr logs and the pid records for orphan cleanup.
//! - [`reap`]: processes re-parented to the daemon (a subreaper).
//! - [`watch`]: noticing hand edits of the definition files.
//! - [`client`]: the CLI side: connect, Hello, auto-spawn.

pub mod admit;
pub mod client;
pub mod daemon;
pub mod logs;
pub mod memory;
pub mod owner;
pub mod protocol;
pub mod reap;
pub mod records;
pub mod relay;
pub mod socket;
pub mod watch;

use std::path::{Path, PathBuf};

use crate::error::{Diagnostic, ExitCode};
use protocol::{ErrorCode, WireError};

/// Everything that can go wrong talking to or running the supervisor.
#[derive(Debug, thiserror::Error)]
pub enum SupervisorError {
    /// No supervisor answers and spawning one is not allowed.
    #[error("no supervisor is running for these definitions (socket {socket})")]
    NotRunning {
        /// The socket looked at.
        socket: PathBuf,
    },
    /// The supervisor could not be started or reached.
    #[error("cannot reach the supervisor at {socket}: {detail}")]
    Unreachable {
        /// The socket.
        socket: PathBuf,
        /// What failed.
        detail: String,
    },
    /// A daemon holds the lock but does not answer on its socket (the
    /// socket was deleted or replaced, or the daemon hangs). A second
    /// daemon would fight it over the same servers, so none is spawned.
    #[error("a supervisor ({}) is running but does not answer on its socket {socket}", shown_pid(*.pid))]
    Deaf {
        /// The socket that does not answer.
        socket: PathBuf,
        /// The daemon's pid, from its lock file; `None` when the lock file
        /// holds no usable pid.
        pid: Option<u32>,
        /// The lock file it holds.
        lock: PathBuf,
    },
    /// The socket is answered by a process of another user (one planted
    /// there, or a link to another user's socket); nothing was sent to it.
    #[error("the supervisor socket {socket} is answered by a process of {}, not by you (uid {}); nothing was sent to it", shown_uid(*.uid), nix::unistd::geteuid())]
    Stranger {
        /// The socket.
        socket: PathBuf,
        /// The uid of the process that answered (`None` when the kernel
        /// would not say).
        uid: Option<u32>,
    },
    /// A daemon already holds the lock.
    #[error("a supervisor is already running (socket {socket})")]
    AlreadyRunning {
        /// Its socket.
        socket: PathBuf,
    },
    /// The daemon speaks another protocol version.
    #[error("{message}")]
    Mismatch {
        /// What the daemon said.
        message: String,
    },
    /// The daemon answered with an error.
    #[error("{}", .0.message)]
    Remote(WireError),
    /// A local file operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl SupervisorError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        SupervisorError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// `uid N`, or what to say when the peer's uid is unknown.
fn shown_uid(uid: Option<u32>) -> String {
    uid.map_or_else(|| "an unknown uid".into(), |uid| format!("uid {uid}"))
}

/// `pid N`, or what to say when the lock file named no usable pid.
fn shown_pid(pid: Option<u32>) -> String {
    pid.map_or_else(|| "pid unreadable".into(), |pid| format!("pid {pid}"))
}

/// The exit code for a wire error code.
pub fn exit_code_for(code: ErrorCode) -> ExitCode {
    match code {
        ErrorCode::NotFound => ExitCode::NotFound,
        ErrorCode::Conflict | ErrorCode::Busy | ErrorCode::Stale => ExitCode::Conflict,
        ErrorCode::Invalid => ExitCode::Usage,
        ErrorCode::Timeout | ErrorCode::Failed => ExitCode::Failed,
    }
}

impl Diagnostic for SupervisorError {
    fn exit_code(&self) -> ExitCode {
        match self {
            SupervisorError::NotRunning { .. }
            | SupervisorError::Unreachable { .. }
            | SupervisorError::Deaf { .. }
            | SupervisorError::Stranger { .. }
            | SupervisorError::Mismatch { .. } => ExitCode::SupervisorUnreachable,
            SupervisorError::AlreadyRunning { .. } => ExitCode::Conflict,
            SupervisorError::Remote(e) => exit_code_for(e.code),
            SupervisorError::Io { .. } => ExitCode::Failed,
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            SupervisorError::NotRunning { .. } => Some(
                "start it with `mcpctl supervisor start` (or drop --no-spawn / MCPCTL_NO_SPAWN)"
                    .into(),
            ),
            SupervisorError::Unreachable { .. } => {
                Some("see the daemon log next to the socket, or run `mcpctl supervisor run` in the foreground".into())
            }
            SupervisorError::Deaf { pid, lock, .. } => Some(match pid {
                Some(pid) => format!(
                    "it recreates a deleted or replaced socket within a second; if it still does not answer, end it with `kill {pid}` (it stops its servers first) and run the command again"
                ),
                None => format!(
                    "its pid is unreadable: the lock file {} holds none mcpctl can use; find the process holding it (`fuser {}`), end it with `kill PID` (it stops its servers first) and run the command again",
                    lock.display(),
                    lock.display()
                ),
            }),
            SupervisorError::Stranger { socket, .. } => Some(format!(
                "another user may have planted {} or its directory; remove it if it is yours to remove, or set MCPCTL_STATE_DIR to a directory of your own (mode 700)",
                socket.display()
            )),
            SupervisorError::AlreadyRunning { .. } => {
                Some("`mcpctl supervisor status` shows it; `mcpctl supervisor stop` ends it".into())
            }
            SupervisorError::Mismatch { .. } => Some(
                "restart the supervisor: `mcpctl supervisor stop`, then run your command again"
                    .into(),
            ),
            SupervisorError::Remote(e) => e.hint.clone(),
            SupervisorError::Io { source, .. } => crate::state_dir::refusal_hint(source).or(Some(match source.kind() {
                std::io::ErrorKind::PermissionDenied => {
                    "the state directory belongs to another user; set MCPCTL_STATE_DIR to a directory of your own".into()
                }
                _ => "check the state directory (MCPCTL_STATE_DIR), or run `mcpctl supervisor run` in the foreground to see more".into(),
            })),
        }
    }
}
