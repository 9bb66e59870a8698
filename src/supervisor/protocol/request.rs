//! What a client asks the supervisor: one [`Request`] per frame, its
//! [`Op`] and the arguments of the larger operations.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One request: an id chosen by the client, echoed in the reply.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    /// Echoed in the [`Reply`], so a client can match answers.
    pub id: u64,
    /// What to do.
    pub op: Op,
}

/// Which servers a lifecycle verb applies to.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Target {
    /// Server names, in order.
    #[serde(default)]
    pub names: Vec<String>,
    /// Every enabled server (for `start`), every running one (otherwise).
    #[serde(default)]
    pub all: bool,
    /// Launch even from a definition file another user could change
    /// (`--allow-insecure-file`); only `start` and `restart` launch.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_insecure_file: bool,
    /// For `start` and `restart`: the values of the `${VAR}`s the named
    /// definitions reference, from the asking CLI's environment. When set,
    /// the launch expands from these alone; absent (an older client), from
    /// the daemon's own environment. Kept in memory, never written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<crate::defs::vars::LaunchEnv>,
}

/// Every operation the supervisor understands; append-only.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Op {
    /// Must be the first request; `version` must equal [`PROTOCOL_VERSION`](super::PROTOCOL_VERSION).
    Hello {
        /// The client's protocol version.
        version: u32,
        /// The client's program version, for logs.
        client: String,
    },
    /// The daemon itself: pid, uptime, socket, sources, version.
    Daemon,
    /// Per-server status; empty `names` means every server.
    Status {
        /// Servers to report.
        #[serde(default)]
        names: Vec<String>,
    },
    /// Start servers and wait until they are ready (or failed).
    Start(Target),
    /// Stop servers.
    Stop(Target),
    /// Stop then start, with new binding and catalog ids.
    Restart(Target),
    /// Re-list tools of ready servers.
    Refresh(Target),
    /// One server's current catalog.
    Tools {
        /// The server.
        name: String,
    },
    /// Call a tool.
    Call(CallRequest),
    /// Where a server's log is, with its last lines.
    Logs {
        /// The server.
        name: String,
        /// How many lines from the end.
        lines: usize,
    },
    /// Re-read the definition files.
    Reload,
    /// Stop every server, then the daemon.
    Shutdown,
    /// Call a tool as [`Op::Call`] does, relaying what the server says
    /// meanwhile: interim [`Body::Asked`](super::Body::Asked) (answer with [`Op::Answer`]) and
    /// [`Body::Progress`](super::Body::Progress) replies carry this request's id, then the final
    /// [`Body::Call`](super::Body::Call) or error.
    Talk(CallRequest),
    /// The caller's answer to a [`Body::Asked`](super::Body::Asked) during an [`Op::Talk`];
    /// never replied to.
    Answer {
        /// The `question` of the [`Body::Asked`](super::Body::Asked).
        question: u64,
        /// The MCP `ElicitResult` (`action`, `content`).
        result: Value,
    },
    /// Send one prompts or resources request to a running server, live
    /// (nothing is cached), and answer with its result as
    /// [`Body::Forwarded`](super::Body::Forwarded); `serve` passes prompts and resources through.
    Forward(ForwardRequest),
    /// One server's whole current catalog, as [`Op::Tools`] answers but
    /// with the held tools left in `tools` (and named in `held`): what the
    /// supervisor actually holds, which `mcpctl approve` accepts.
    Catalog {
        /// The server.
        name: String,
    },
    /// The caller's refusal of a [`Body::Sampling`](super::Body::Sampling) during an
    /// [`Op::Talk`] (its agent has no model, or said no): the server gets
    /// a JSON-RPC error with `message`. Never replied to.
    Refuse {
        /// The `question` of the [`Body::Sampling`](super::Body::Sampling).
        question: u64,
        /// Why, as the server is told.
        message: String,
    },
}

/// What the caller of an [`Op::Talk`] can take besides elicitation and
/// progress (which every talk relays). A caller that leaves it out (an
/// older one) gets neither of the frames it enables, so only callers that
/// asked for them ever see [`Body::Sampling`](super::Body::Sampling) or [`Body::Log`](super::Body::Log).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Relay {
    /// Relay `sampling/createMessage` as [`Body::Sampling`](super::Body::Sampling) (an agent host
    /// with a model is behind the caller); otherwise it is refused.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sampling: bool,
    /// Relay `notifications/message` (log messages) as [`Body::Log`](super::Body::Log).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub logs: bool,
    /// The caller's roots (MCP `Root` objects): `roots/list` during the
    /// call is answered with these instead of the supervisor's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<Vec<Value>>,
}

/// The arguments of [`Op::Forward`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ForwardRequest {
    /// The server.
    pub name: String,
    /// The MCP method.
    pub method: ForwardMethod,
    /// The MCP request params (`null` for none).
    #[serde(default)]
    pub params: Value,
    /// Timeout in milliseconds (default 60 000).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// The MCP methods [`Op::Forward`] passes on; only these, so the socket
/// cannot be used to send a server arbitrary requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForwardMethod {
    /// `prompts/list`.
    #[serde(rename = "prompts/list")]
    PromptsList,
    /// `prompts/get`.
    #[serde(rename = "prompts/get")]
    PromptsGet,
    /// `resources/list`.
    #[serde(rename = "resources/list")]
    ResourcesList,
    /// `resources/templates/list`.
    #[serde(rename = "resources/templates/list")]
    ResourceTemplatesList,
    /// `resources/read`.
    #[serde(rename = "resources/read")]
    ResourcesRead,
}

impl ForwardMethod {
    /// The MCP method name.
    pub fn as_str(self) -> &'static str {
        match self {
            ForwardMethod::PromptsList => "prompts/list",
            ForwardMethod::PromptsGet => "prompts/get",
            ForwardMethod::ResourcesList => "resources/list",
            ForwardMethod::ResourceTemplatesList => "resources/templates/list",
            ForwardMethod::ResourcesRead => "resources/read",
        }
    }
}

/// The arguments of [`Op::Call`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CallRequest {
    /// The server.
    pub name: String,
    /// The tool.
    pub tool: String,
    /// The tool arguments (a JSON object).
    #[serde(default)]
    pub arguments: serde_json::Map<String, Value>,
    /// Refuse unless this is the current catalog id.
    #[serde(default)]
    pub catalog_id: Option<String>,
    /// Refuse unless this is the current binding id.
    #[serde(default)]
    pub binding_id: Option<String>,
    /// Timeout in milliseconds (default 60 000).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Validate the arguments against the tool's `inputSchema` (default true).
    #[serde(default = "yes")]
    pub validate: bool,
    /// For [`Op::Talk`]: what else the caller can take (absent: elicitation
    /// and progress only, as before this field existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relay: Option<Relay>,
}

fn yes() -> bool {
    true
}
