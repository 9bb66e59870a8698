//! What `grant`, `revoke` and `serve` can refuse, each with a hint, and
//! the supervisor's errors as the JSON-RPC errors agents get.

use rmcp::ErrorData;
use serde_json::json;

use crate::error::{Diagnostic, ExitCode};
use crate::supervisor::SupervisorError;
use crate::supervisor::protocol::ErrorCode;

/// Errors of the serving side and of granting.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A tool named on the command line is not in the server's catalog.
    #[error("server `{server}` has no tool `{tool}` (its tools: {known})")]
    NoSuchTool {
        /// The server.
        server: String,
        /// The tool asked for.
        tool: String,
        /// The tools it has, comma-separated.
        known: String,
    },
    /// The tool is held back: it drifted from the lockfile, or the server
    /// lists it twice (the reason says which).
    #[error("tool `{tool}` of `{server}` is held back: {reason}")]
    Held {
        /// The server.
        server: String,
        /// The tool.
        tool: String,
        /// What changed.
        reason: String,
    },
    /// The name agents would see breaks the spec's tool-name rules.
    #[error(
        "cannot grant `{tool}` of `{server}`: the name agents would see, `{exposed}`, is invalid: {why}"
    )]
    BadName {
        /// The server.
        server: String,
        /// The tool.
        tool: String,
        /// The exposed name.
        exposed: String,
        /// Why.
        why: String,
    },
    /// Two granted tools would be exposed under one name (server `a`'s
    /// `b__x` and server `a__b`'s `x` are both `a__b__x`).
    #[error(
        "cannot grant `{tool}` of `{server}`: agents would see it as `{exposed}`, already the name of the granted `{other_tool}` of `{other_server}`"
    )]
    Collision {
        /// The server.
        server: String,
        /// The tool.
        tool: String,
        /// The exposed name both would have.
        exposed: String,
        /// The server whose grant has that name.
        other_server: String,
        /// Its tool.
        other_tool: String,
    },
    /// A flag value is invalid.
    #[error("{0}")]
    Usage(String),
    /// The server is not running, so its catalog is unknown.
    #[error("server `{0}` is not running, so its tools are unknown")]
    NotRunning(String),
    /// The named profile is not defined in any entry.
    #[error("no server grants anything to profile `{0}`")]
    NoProfile(String),
    /// The bearer-token file cannot be read or written.
    #[error("{path}: {source}")]
    Token {
        /// The token file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Serving itself failed (the transport, the listener).
    #[error("serve: {0}")]
    Failed(String),
}

impl Diagnostic for ServeError {
    fn exit_code(&self) -> ExitCode {
        match self {
            ServeError::NoSuchTool { .. } | ServeError::NoProfile(_) => ExitCode::NotFound,
            ServeError::Held { .. } | ServeError::NotRunning(_) | ServeError::Collision { .. } => {
                ExitCode::Conflict
            }
            ServeError::BadName { .. } | ServeError::Usage(_) => ExitCode::Usage,
            ServeError::Token { .. } | ServeError::Failed(_) => ExitCode::Failed,
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            ServeError::NoSuchTool { server, .. } => {
                format!("see `mcpctl tools {server}`; after a change, `mcpctl refresh {server}`")
            }
            ServeError::Held { server, .. } => {
                format!(
                    "review with `mcpctl approve {server} --dry-run`, then `mcpctl approve {server}`"
                )
            }
            ServeError::BadName { server, tool, .. } => {
                let rule = "names agents see are 1-128 of A-Z a-z 0-9 _ - .";
                if crate::serve::naming::problem(tool).is_none() {
                    format!("choose another --separator, or rename the server ({rule})")
                } else {
                    format!(
                        "the server names this tool so; grant the other tools of `{server}` by name ({rule})"
                    )
                }
            }
            ServeError::Collision {
                other_server,
                other_tool,
                ..
            } => format!(
                "revoke the other first (`mcpctl revoke {other_server} {other_tool}`), or rename one of the servers"
            ),
            ServeError::Usage(_) => "see `mcpctl serve --help`".into(),
            ServeError::NotRunning(server) => format!("run `mcpctl start {server}` first"),
            ServeError::NoProfile(profile) => {
                format!("grant tools to it first: `mcpctl grant NAME TOOL --profile {profile}`")
            }
            ServeError::Token { source, .. } => crate::state_dir::refusal_hint(source)
                .unwrap_or_else(|| "check the state directory's permissions".into()),
            ServeError::Failed(_) => return None,
        })
    }
}

/// A supervisor error as the JSON-RPC error the agent gets.
pub fn rpc_error(err: SupervisorError) -> ErrorData {
    match err {
        SupervisorError::Remote(wire) => {
            let mut message = wire.message.clone();
            if let Some(hint) = &wire.hint {
                message = format!("{message} ({hint})");
            }
            let data = Some(json!({ "code": wire.code.as_str() }));
            match wire.code {
                ErrorCode::Invalid | ErrorCode::NotFound => {
                    ErrorData::invalid_params(message, data)
                }
                _ => ErrorData::internal_error(message, data),
            }
        }
        other => ErrorData::internal_error(
            format!("the supervisor cannot be reached: {other}"),
            Some(json!({ "code": "unreachable" })),
        ),
    }
}
