//! What the supervisor answers: one [`Reply`] per request (several for an
//! [`Op::Talk`](super::Op::Talk): interim bodies first), a result
//! [`Body`] or a [`WireError`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::WireError;
use super::status::{HeldTool, ItemResult, ServerStatus, ToolInfo};

/// One reply: the request's id and either a result or an error.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reply {
    /// The id of the request this answers (0 for a refused Hello).
    pub id: u64,
    /// The outcome.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// A result or an error.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It worked.
    Result(Body),
    /// It failed; nothing (more) happened.
    Error(WireError),
}

/// Result bodies; append-only.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Body {
    /// Answer to [`Op::Hello`](super::Op::Hello).
    Hello {
        /// The daemon's protocol version.
        version: u32,
        /// The daemon's program version.
        daemon: String,
        /// The daemon's pid.
        pid: u32,
    },
    /// Answer to [`Op::Daemon`](super::Op::Daemon).
    Daemon {
        /// The daemon's pid.
        pid: u32,
        /// Seconds since it started.
        uptime_secs: u64,
        /// The socket path.
        socket: String,
        /// The definition files.
        sources: Vec<String>,
        /// The program version.
        version: String,
        /// How many servers are defined.
        servers: usize,
        /// How many are running (not stopped or failed).
        running: usize,
    },
    /// Answer to [`Op::Status`](super::Op::Status).
    Servers {
        /// One entry per server.
        servers: Vec<ServerStatus>,
        /// Why the definitions could not be read at the last reload (the
        /// servers shown are from the last good read), if they could not.
        #[serde(default)]
        load_error: Option<String>,
    },
    /// Answer to the lifecycle verbs.
    Batch {
        /// One entry per named server.
        results: Vec<ItemResult>,
    },
    /// Answer to [`Op::Tools`](super::Op::Tools) and [`Op::Catalog`](super::Op::Catalog).
    Tools {
        /// The server.
        name: String,
        /// The binding id the catalog belongs to.
        binding_id: String,
        /// The catalog id.
        catalog_id: String,
        /// True when the last refresh failed.
        stale: bool,
        /// The tools.
        tools: Vec<ToolInfo>,
        /// Tools held back because they drifted from the lockfile (new,
        /// renamed or changed since `mcpctl lock`), with why; absent in
        /// `tools` and refused by `call` until `mcpctl approve`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        held: Vec<HeldTool>,
    },
    /// Answer to [`Op::Call`](super::Op::Call): the MCP `CallToolResult` as JSON.
    Call {
        /// The binding id that served the call.
        binding_id: String,
        /// The catalog id the arguments were validated against.
        catalog_id: String,
        /// The `CallToolResult`.
        result: Value,
    },
    /// Answer to [`Op::Logs`](super::Op::Logs).
    Logs {
        /// The log file.
        path: String,
        /// The last lines.
        lines: Vec<String>,
    },
    /// Answer to [`Op::Reload`](super::Op::Reload) and [`Op::Shutdown`](super::Op::Shutdown).
    Done,
    /// Interim, during an [`Op::Talk`](super::Op::Talk): the server asks the user something
    /// (`elicitation/create`); answer with [`Op::Answer`](super::Op::Answer).
    Asked {
        /// Numbers this question within the call.
        question: u64,
        /// The `elicitation/create` params (`mode`, `message`,
        /// `requestedSchema` or `url`).
        params: Value,
    },
    /// Interim, during an [`Op::Talk`](super::Op::Talk): a `notifications/progress` params
    /// object (`progress`, `total`, `message`).
    Progress {
        /// The notification's params.
        progress: Value,
    },
    /// Answer to [`Op::Forward`](super::Op::Forward): the server's MCP result as JSON.
    Forwarded {
        /// The result (`ListPromptsResult`, `GetPromptResult`, ...).
        result: Value,
    },
    /// Interim, during an [`Op::Talk`](super::Op::Talk) whose [`Relay::sampling`](super::Relay::sampling) is set:
    /// the server asks for a model completion (`sampling/createMessage`);
    /// answer with [`Op::Answer`](super::Op::Answer) (a `CreateMessageResult`) or
    /// [`Op::Refuse`](super::Op::Refuse). Questions share one numbering with [`Body::Asked`].
    Sampling {
        /// Numbers this question within the call.
        question: u64,
        /// The `sampling/createMessage` params.
        params: Value,
    },
    /// Interim, during an [`Op::Talk`](super::Op::Talk) whose [`Relay::logs`](super::Relay::logs) is set: a
    /// `notifications/message` params object (`level`, `logger`, `data`).
    Log {
        /// The notification's params.
        message: Value,
    },
}
