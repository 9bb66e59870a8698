//! The wire protocol between `mcpctl` and its supervisor (see `docs/protocol.md`).
//!
//! Frames are a u32 big-endian byte length followed by that many bytes of
//! UTF-8 JSON, capped at [`MAX_FRAME`]. The client sends [`Op::Hello`]
//! first; after a matching [`PROTOCOL_VERSION`] it sends [`Request`]s, each
//! answered by one [`Reply`] with the same `id`. The one exchange with more
//! frames is [`Op::Talk`], a call whose caller is asked and told things
//! while it runs: before its final reply the daemon sends interim replies
//! with the same id ([`Body::Asked`], [`Body::Progress`]), and the caller
//! answers each question with an [`Op::Answer`], which gets no reply.
//! Closing the connection during a call cancels it upstream. Variants are only ever
//! appended, so a newer client can talk to an older daemon of the same
//! protocol version as long as it sticks to the variants that daemon knows.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version; bumped on any incompatible change.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest frame either side accepts (a tool catalog or call result
/// fits easily; a garbage length prefix is refused before allocating).
pub const MAX_FRAME: usize = 16 * 1024 * 1024;

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
    /// Must be the first request; `version` must equal [`PROTOCOL_VERSION`].
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
    /// meanwhile: interim [`Body::Asked`] (answer with [`Op::Answer`]) and
    /// [`Body::Progress`] replies carry this request's id, then the final
    /// [`Body::Call`] or error.
    Talk(CallRequest),
    /// The caller's answer to a [`Body::Asked`] during an [`Op::Talk`];
    /// never replied to.
    Answer {
        /// The `question` of the [`Body::Asked`].
        question: u64,
        /// The MCP `ElicitResult` (`action`, `content`).
        result: Value,
    },
    /// Send one prompts or resources request to a running server, live
    /// (nothing is cached), and answer with its result as
    /// [`Body::Forwarded`]; `serve` passes prompts and resources through.
    Forward(ForwardRequest),
    /// One server's whole current catalog, as [`Op::Tools`] answers but
    /// with the held tools left in `tools` (and named in `held`): what the
    /// supervisor actually holds, which `mcpctl approve` accepts.
    Catalog {
        /// The server.
        name: String,
    },
    /// The caller's refusal of a [`Body::Sampling`] during an
    /// [`Op::Talk`] (its agent has no model, or said no): the server gets
    /// a JSON-RPC error with `message`. Never replied to.
    Refuse {
        /// The `question` of the [`Body::Sampling`].
        question: u64,
        /// Why, as the server is told.
        message: String,
    },
}

/// What the caller of an [`Op::Talk`] can take besides elicitation and
/// progress (which every talk relays). A caller that leaves it out (an
/// older one) gets neither of the frames it enables, so only callers that
/// asked for them ever see [`Body::Sampling`] or [`Body::Log`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Relay {
    /// Relay `sampling/createMessage` as [`Body::Sampling`] (an agent host
    /// with a model is behind the caller); otherwise it is refused.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sampling: bool,
    /// Relay `notifications/message` (log messages) as [`Body::Log`].
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

/// Error codes; the CLI maps each to an exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// No such server or tool (exit 3).
    NotFound,
    /// Disabled, changed, or in a state that forbids the verb (exit 4).
    Conflict,
    /// Another operation holds the server (exit 4).
    Busy,
    /// A budget ran out (exit 1).
    Timeout,
    /// The caller's catalog or binding id is no longer current (exit 4).
    Stale,
    /// The request or the call arguments are invalid (exit 2).
    Invalid,
    /// The operation ran and failed (exit 1).
    Failed,
}

impl ErrorCode {
    /// The snake_case spelling used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::Conflict => "conflict",
            ErrorCode::Busy => "busy",
            ErrorCode::Timeout => "timeout",
            ErrorCode::Stale => "stale",
            ErrorCode::Invalid => "invalid",
            ErrorCode::Failed => "failed",
        }
    }
}

/// An error as sent on the wire.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WireError {
    /// The class of error.
    pub code: ErrorCode,
    /// What happened.
    pub message: String,
    /// What to do next.
    #[serde(default)]
    pub hint: Option<String>,
}

impl WireError {
    /// An error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        WireError {
            code,
            message: message.into(),
            hint: None,
        }
    }

    /// Attach a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

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

/// Result bodies; append-only.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Body {
    /// Answer to [`Op::Hello`].
    Hello {
        /// The daemon's protocol version.
        version: u32,
        /// The daemon's program version.
        daemon: String,
        /// The daemon's pid.
        pid: u32,
    },
    /// Answer to [`Op::Daemon`].
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
    /// Answer to [`Op::Status`].
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
    /// Answer to [`Op::Tools`] and [`Op::Catalog`].
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
    /// Answer to [`Op::Call`]: the MCP `CallToolResult` as JSON.
    Call {
        /// The binding id that served the call.
        binding_id: String,
        /// The catalog id the arguments were validated against.
        catalog_id: String,
        /// The `CallToolResult`.
        result: Value,
    },
    /// Answer to [`Op::Logs`].
    Logs {
        /// The log file.
        path: String,
        /// The last lines.
        lines: Vec<String>,
    },
    /// Answer to [`Op::Reload`] and [`Op::Shutdown`].
    Done,
    /// Interim, during an [`Op::Talk`]: the server asks the user something
    /// (`elicitation/create`); answer with [`Op::Answer`].
    Asked {
        /// Numbers this question within the call.
        question: u64,
        /// The `elicitation/create` params (`mode`, `message`,
        /// `requestedSchema` or `url`).
        params: Value,
    },
    /// Interim, during an [`Op::Talk`]: a `notifications/progress` params
    /// object (`progress`, `total`, `message`).
    Progress {
        /// The notification's params.
        progress: Value,
    },
    /// Answer to [`Op::Forward`]: the server's MCP result as JSON.
    Forwarded {
        /// The result (`ListPromptsResult`, `GetPromptResult`, ...).
        result: Value,
    },
    /// Interim, during an [`Op::Talk`] whose [`Relay::sampling`] is set:
    /// the server asks for a model completion (`sampling/createMessage`);
    /// answer with [`Op::Answer`] (a `CreateMessageResult`) or
    /// [`Op::Refuse`]. Questions share one numbering with [`Body::Asked`].
    Sampling {
        /// Numbers this question within the call.
        question: u64,
        /// The `sampling/createMessage` params.
        params: Value,
    },
    /// Interim, during an [`Op::Talk`] whose [`Relay::logs`] is set: a
    /// `notifications/message` params object (`level`, `logger`, `data`).
    Log {
        /// The notification's params.
        message: Value,
    },
}

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The peer closed the connection between frames.
    #[error("connection closed")]
    Closed,
    /// The length prefix is over [`MAX_FRAME`].
    #[error("frame of {0} bytes is over the {MAX_FRAME}-byte cap")]
    TooLarge(usize),
    /// The bytes are not the expected JSON.
    #[error("malformed frame: {0}")]
    Malformed(#[from] serde_json::Error),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Encode `value` as one frame.
pub fn encode(value: &impl Serialize) -> Result<Vec<u8>, FrameError> {
    let mut buf = vec![0u8; 4];
    serde_json::to_writer(&mut buf, value)?;
    let len = buf.len() - 4;
    if len > MAX_FRAME {
        return Err(FrameError::TooLarge(len));
    }
    buf[..4].copy_from_slice(&(len as u32).to_be_bytes());
    Ok(buf)
}

/// Check a length prefix against the cap.
pub fn frame_len(prefix: [u8; 4]) -> Result<usize, FrameError> {
    let len = u32::from_be_bytes(prefix) as usize;
    if len > MAX_FRAME {
        Err(FrameError::TooLarge(len))
    } else {
        Ok(len)
    }
}

/// Read one frame (blocking; the CLI side).
pub fn read_blocking<T: serde::de::DeserializeOwned>(r: &mut impl Read) -> Result<T, FrameError> {
    let mut prefix = [0u8; 4];
    if let Err(e) = r.read_exact(&mut prefix) {
        return Err(if e.kind() == std::io::ErrorKind::UnexpectedEof {
            FrameError::Closed
        } else {
            FrameError::Io(e)
        });
    }
    let len = frame_len(prefix)?;
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf)?;
    Ok(serde_json::from_slice(&buf)?)
}

/// Write one frame (blocking; the CLI side).
pub fn write_blocking(w: &mut impl Write, value: &impl Serialize) -> Result<(), FrameError> {
    w.write_all(&encode(value)?)?;
    w.flush()?;
    Ok(())
}

/// Read one frame's bytes (async; the daemon side). JSON decoding is left
/// to the caller so a malformed frame can still be answered.
pub async fn read_async(
    r: &mut (impl tokio::io::AsyncRead + Unpin),
) -> Result<Vec<u8>, FrameError> {
    use tokio::io::AsyncReadExt;
    let mut prefix = [0u8; 4];
    if let Err(e) = r.read_exact(&mut prefix).await {
        return Err(if e.kind() == std::io::ErrorKind::UnexpectedEof {
            FrameError::Closed
        } else {
            FrameError::Io(e)
        });
    }
    let len = frame_len(prefix)?;
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf).await?;
    Ok(buf)
}

/// Write one frame (async; the daemon side).
pub async fn write_async(
    w: &mut (impl tokio::io::AsyncWrite + Unpin),
    value: &impl Serialize,
) -> Result<(), FrameError> {
    use tokio::io::AsyncWriteExt;
    w.write_all(&encode(value)?).await?;
    w.flush().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_round_trips_with_its_id() {
        let req = Request {
            id: 7,
            op: Op::Start(Target {
                names: vec!["a".into()],
                all: false,
                allow_insecure_file: false,
                env: None,
            }),
        };
        let bytes = encode(&req).unwrap();
        assert_eq!(
            u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize,
            bytes.len() - 4
        );
        let back: Request = read_blocking(&mut &bytes[..]).unwrap();
        assert_eq!(back.id, 7);
        assert!(matches!(back.op, Op::Start(t) if t.names == ["a"]));
        let text = std::str::from_utf8(&bytes[4..]).unwrap();
        assert_eq!(
            text,
            r#"{"id":7,"op":{"type":"start","names":["a"],"all":false}}"#
        );
    }

    #[test]
    fn a_talk_without_relay_is_sent_as_before_and_relay_round_trips() {
        let mut call = CallRequest {
            name: "s".into(),
            tool: "t".into(),
            arguments: Default::default(),
            catalog_id: None,
            binding_id: None,
            timeout_ms: None,
            validate: true,
            relay: None,
        };
        // An older daemon sees exactly the fields it knows.
        let plain = serde_json::to_value(Op::Talk(call.clone())).unwrap();
        assert!(plain.get("relay").is_none(), "{plain}");
        call.relay = Some(Relay {
            sampling: true,
            logs: true,
            roots: Some(vec![serde_json::json!({"uri": "file:///p/"})]),
        });
        let back: Op =
            serde_json::from_value(serde_json::to_value(Op::Talk(call)).unwrap()).unwrap();
        let Op::Talk(back) = back else {
            panic!("not a talk")
        };
        assert_eq!(back.relay.unwrap().roots.unwrap()[0]["uri"], "file:///p/");
        let refuse = serde_json::to_value(Op::Refuse {
            question: 2,
            message: "no".into(),
        })
        .unwrap();
        assert_eq!(
            refuse,
            serde_json::json!({"type": "refuse", "question": 2, "message": "no"})
        );
    }

    #[test]
    fn error_reply_shape() {
        let reply = Reply {
            id: 3,
            outcome: Outcome::Error(WireError::new(ErrorCode::NotFound, "no")),
        };
        let v = serde_json::to_value(&reply).unwrap();
        assert_eq!(v["id"], 3);
        assert_eq!(v["error"]["code"], "not_found");
    }

    #[test]
    fn oversize_prefix_is_refused_before_allocating() {
        let bytes = u32::MAX.to_be_bytes();
        let err = read_blocking::<Request>(&mut &bytes[..]).unwrap_err();
        assert!(matches!(err, FrameError::TooLarge(_)));
    }
}
