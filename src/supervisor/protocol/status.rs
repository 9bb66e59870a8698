//! What the supervisor reports about servers inside its answers: a
//! server's status, its last failure, a batch item, a listed tool.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::WireError;

/// What a server's owner reports (`status`, and every lifecycle verb).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerStatus {
    /// The server's name.
    pub name: String,
    /// `stopped`, `starting`, `ready`, `refreshing`, `stopping`, `failed`, `changed` or `drifted`.
    pub state: String,
    /// Whether the definition is enabled.
    pub enabled: bool,
    /// The transport.
    pub transport: String,
    /// The process id of a running stdio server.
    pub pid: Option<u32>,
    /// Seconds since it became ready.
    pub uptime_secs: Option<u64>,
    /// Changes on every (re)start.
    pub binding_id: Option<String>,
    /// Changes on every (re)start and refresh.
    pub catalog_id: Option<String>,
    /// True when the last refresh failed and the catalog may be out of date.
    pub catalog_stale: bool,
    /// Tools in the current catalog.
    pub tools: Option<usize>,
    /// Restarts made by the restart policy.
    pub restarts: u32,
    /// The last failure, if any.
    pub last_error: Option<LastError>,
    /// The server's stderr log.
    pub log: String,
    /// Tools held back because they drifted from the lockfile (the state
    /// is then `drifted`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_tools: Vec<String>,
    /// Prompts held back because they are new or changed since the lock
    /// (not listed through `serve`, `prompts/get` refused).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_prompts: Vec<String>,
    /// Resource templates held back because they are new or changed since
    /// the lock (not listed through `serve`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_resource_templates: Vec<String>,
    /// How it is contained (see [`crate::defs::sandbox_kind`]): `none`,
    /// `network`, `profile`, `off`, `unset` or `container`; null for a
    /// remote server (and from a supervisor older than the field).
    #[serde(default)]
    pub sandbox: Option<crate::defs::sandbox_kind::SandboxKind>,
}

/// A tool the lockfile guard holds back.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HeldTool {
    /// The tool's name.
    pub name: String,
    /// What changed since the lock.
    pub reason: String,
}

/// A failure with what the process said.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LastError {
    /// What went wrong.
    pub message: String,
    /// The exit code, when the process exited.
    pub exit_code: Option<i32>,
    /// The last stderr lines.
    pub stderr_tail: Vec<String>,
    /// Seconds since the Unix epoch.
    pub at: u64,
}

/// One server's outcome in a lifecycle batch.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ItemResult {
    /// The server.
    pub name: String,
    /// Its status afterwards, when it worked.
    pub status: Option<ServerStatus>,
    /// Why it did not.
    pub error: Option<WireError>,
}

/// A tool as listed in a catalog.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ToolInfo {
    /// The tool's name.
    pub name: String,
    /// Its description.
    pub description: Option<String>,
    /// Its JSON Schema for arguments.
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// Its display name, as listed (`serve` passes it on unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its JSON Schema for structured results, as listed.
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<Value>,
    /// Its behaviour hints (read-only, destructive …), as listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
}
