//! The failure taxonomy of connecting to and discovering a server.
//!
//! Every way a server can fail a check is its own variant, and every variant
//! names the [`Phase`] it happened in, so an operator reading `check` output
//! knows both *what* broke and *where* without reading logs.

use std::time::Duration;

use crate::defs::redact::Redactor;
use crate::defs::vars::VarError;
use crate::error::{Diagnostic, ExitCode};

/// The step of a connection a failure happened in.
///
/// Reported in every error and in per-phase timings, because "timed out" is
/// useless without knowing whether the server never started or stalled on
/// the third page of tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Expanding variables and starting the child process or HTTP client.
    Spawn,
    /// The `initialize` request and the `notifications/initialized` notification.
    Initialize,
    /// The stateless `server/discover` exchange (protocol `2026-07-28`).
    Discover,
    /// The paginated `tools/list` requests.
    ToolsList,
    /// The paginated `resources/list` requests.
    ResourcesList,
    /// The paginated `prompts/list` requests.
    PromptsList,
    /// A `tools/call` request.
    CallTool,
}

impl Phase {
    /// The phase as the operator sees it, e.g. `tools/list`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Spawn => "spawn",
            Phase::Initialize => "initialize",
            Phase::Discover => "server/discover",
            Phase::ToolsList => "tools/list",
            Phase::ResourcesList => "resources/list",
            Phase::PromptsList => "prompts/list",
            Phase::CallTool => "tools/call",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

fn tail(lines: &[String]) -> String {
    if lines.is_empty() {
        String::new()
    } else {
        let mut out = String::from("\nstderr (last lines):");
        for line in lines {
            out.push_str("\n  | ");
            out.push_str(line);
        }
        out
    }
}

/// Why a server could not be connected to, discovered or called.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// A `${VAR}` in the definition cannot be expanded.
    #[error(transparent)]
    Vars(#[from] VarError),

    /// The launcher (`npx`, `uvx`, a path…) does not exist.
    #[error("{server}: launcher `{command}` was not found ({phase})")]
    LauncherMissing {
        /// The server.
        server: String,
        /// The command as written after expansion.
        command: String,
        /// Always [`Phase::Spawn`].
        phase: Phase,
    },

    /// The child could not be started for another reason (permissions…).
    #[error("{server}: cannot start `{command}` ({phase}): {detail}")]
    SpawnFailed {
        /// The server.
        server: String,
        /// The command.
        command: String,
        /// Always [`Phase::Spawn`].
        phase: Phase,
        /// The operating system's reason.
        detail: String,
    },

    /// The server's sandbox cannot be set up: it is not started (fail closed).
    #[error("{server}: not started: its sandbox cannot be set up ({phase}): {detail}")]
    Sandbox {
        /// The server.
        server: String,
        /// Always [`Phase::Spawn`].
        phase: Phase,
        /// What is missing or failed.
        detail: String,
        /// What to do (widen the profile, or `"sandbox": "off"`).
        hint: String,
    },

    /// The package a sandboxed launch runs could not be fetched outside
    /// its sandbox (offline, no such version, a registry refusal): the
    /// server is not started.
    #[error(
        "{server}: not started: fetching {what} outside its sandbox failed ({phase}): {detail}{}",
        tail(stderr_tail)
    )]
    Fetch {
        /// The server.
        server: String,
        /// Always [`Phase::Spawn`].
        phase: Phase,
        /// The package as the launch names it, e.g. `npm package pkg@1.2.3`.
        what: String,
        /// What failed: the fetching command's exit, a timeout, a missing bin.
        detail: String,
        /// The last lines the fetching command (npm, uv) wrote to stderr.
        stderr_tail: Vec<String>,
        /// What to do about it.
        hint: String,
    },

    /// The child process exited before discovery finished.
    #[error(
        "{server}: the process exited during {phase} ({status}){}",
        tail(stderr_tail)
    )]
    ProcessExited {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// `exit code 3`, `killed by signal 9`…
        status: String,
        /// The exit code, when it exited normally.
        code: Option<i32>,
        /// The last lines of its stderr.
        stderr_tail: Vec<String>,
    },

    /// The budget ran out.
    #[error(
        "{server}: timed out during {phase} (budget {budget:?} exhausted){}",
        tail(stderr_tail)
    )]
    Timeout {
        /// The server.
        server: String,
        /// The phase that was running when the budget ran out.
        phase: Phase,
        /// The whole budget.
        budget: Duration,
        /// The last lines of its stderr (stdio only).
        stderr_tail: Vec<String>,
    },

    /// HTTP 401/403: the server wants credentials.
    #[error("{server}: HTTP {status} during {phase}: this server needs authorization{}", challenge.as_deref().map(|c| format!(" (WWW-Authenticate: {c})")).unwrap_or_default())]
    AuthRequired {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// 401 or 403.
        status: u16,
        /// The `WWW-Authenticate` challenge, if any.
        challenge: Option<String>,
    },

    /// The URL answers with an HTML page.
    #[error("{server}: {url} is a web page, not an MCP endpoint ({phase}, got {content_type})")]
    WebPage {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The URL.
        url: String,
        /// The content type received.
        content_type: String,
    },

    /// A Streamable HTTP POST to a `/sse` URL was refused with 404 or 405:
    /// the endpoint speaks the legacy HTTP+SSE transport.
    #[error(
        "{server}: {url} answered HTTP {status} to a Streamable HTTP POST during {phase}; it looks like a legacy SSE endpoint"
    )]
    LegacySse {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The URL.
        url: String,
        /// 404 or 405.
        status: u16,
    },

    /// TLS handshake or certificate failure.
    #[error("{server}: TLS failed during {phase}: {detail}")]
    Tls {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// What rustls said.
        detail: String,
    },

    /// The host name does not resolve.
    #[error("{server}: cannot resolve host `{host}` ({phase}): {detail}")]
    Dns {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The host name.
        host: String,
        /// What the resolver said.
        detail: String,
    },

    /// Nothing listens on the port.
    #[error("{server}: connection refused by {url} ({phase})")]
    ConnectionRefused {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The URL.
        url: String,
    },

    /// The server redirected somewhere the definition's headers must not go
    /// (another origin, plain http) or redirected too often.
    #[error("{server}: {refused} ({phase})")]
    Redirect {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// Why the redirect was not followed (names only the target origin).
        refused: crate::http_client::RedirectRefused,
    },

    /// Another HTTP status.
    #[error("{server}: HTTP error during {phase}: {detail}")]
    Http {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The status and body excerpt.
        detail: String,
    },

    /// The server answered with a JSON-RPC error.
    #[error("{server}: the server returned JSON-RPC error {code} during {phase}: {message}")]
    JsonRpc {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The JSON-RPC error code.
        code: i32,
        /// The error message.
        message: String,
    },

    /// mcpctl ended a call because the server asked for something it
    /// refuses (a malformed or oversized question, sampling, endless
    /// `input_required` rounds); see [`crate::mcp::talk`].
    #[error("{server}: mcpctl ended the call: {detail}")]
    Refused {
        /// The server.
        server: String,
        /// What the server asked, and why it was refused.
        detail: String,
    },

    /// The server answered `initialize` with a version mcpctl does not speak.
    #[error(
        "{server}: protocol version mismatch during {phase}: offered {offered}, server answered {answered}"
    )]
    ProtocolMismatch {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// What mcpctl offered.
        offered: String,
        /// What the server chose.
        answered: String,
    },

    /// The child printed something that is not JSON-RPC on stdout.
    #[error("{server}: the process printed non-JSON on stdout during {phase}: {line:?}")]
    NonJsonStdout {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The first offending line (truncated).
        line: String,
    },

    /// A stdout line longer than the reply cap; reading stopped there.
    #[error(
        "{server}: the server sent a reply larger than {limit_mb} MB during {phase}; mcpctl stopped reading it"
    )]
    ReplyTooLarge {
        /// The definition's name.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The cap, in MB.
        limit_mb: usize,
    },

    /// A response whose id matches no request mcpctl sent.
    #[error("{server}: the server answered request id {id}, which was never sent ({phase})")]
    UnknownResponseId {
        /// The definition's name.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The id the server answered.
        id: String,
    },

    /// The OAuth layer could not get or renew a token (see
    /// [`crate::auth::OAuthError`]); the message names the server.
    #[error("{message}")]
    OAuth {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The OAuth error's message (never a token or secret).
        message: String,
        /// Its hint.
        hint: String,
    },

    /// Any other transport failure.
    #[error("{server}: transport error during {phase}: {detail}")]
    Transport {
        /// The server.
        server: String,
        /// Where it happened.
        phase: Phase,
        /// The underlying error chain.
        detail: String,
    },
}

impl ConnectError {
    /// A stable machine-readable name for the failure kind, for `--json`.
    pub fn kind(&self) -> &'static str {
        match self {
            ConnectError::Vars(_) => "variable",
            ConnectError::LauncherMissing { .. } => "launcher_missing",
            ConnectError::SpawnFailed { .. } => "spawn_failed",
            ConnectError::Sandbox { .. } => "sandbox",
            ConnectError::Fetch { .. } => "fetch_failed",
            ConnectError::ProcessExited { .. } => "process_exited",
            ConnectError::Timeout { .. } => "timeout",
            ConnectError::AuthRequired { .. } => "auth_required",
            ConnectError::WebPage { .. } => "web_page",
            ConnectError::LegacySse { .. } => "legacy_sse",
            ConnectError::Tls { .. } => "tls",
            ConnectError::Dns { .. } => "dns",
            ConnectError::ConnectionRefused { .. } => "connection_refused",
            ConnectError::Redirect { .. } => "redirect",
            ConnectError::Http { .. } => "http",
            ConnectError::JsonRpc { .. } => "json_rpc",
            ConnectError::Refused { .. } => "refused",
            ConnectError::ProtocolMismatch { .. } => "protocol_mismatch",
            ConnectError::NonJsonStdout { .. } => "non_json_stdout",
            ConnectError::ReplyTooLarge { .. } => "reply_too_large",
            ConnectError::UnknownResponseId { .. } => "unknown_response_id",
            ConnectError::OAuth { .. } => "oauth",
            ConnectError::Transport { .. } => "transport",
        }
    }

    /// The phase the failure happened in (none for a variable error, which
    /// happens before anything starts, or for "no tools", which is a verdict).
    pub fn phase(&self) -> Option<Phase> {
        match self {
            ConnectError::Vars(_) => Some(Phase::Spawn),
            ConnectError::LauncherMissing { phase, .. }
            | ConnectError::SpawnFailed { phase, .. }
            | ConnectError::Sandbox { phase, .. }
            | ConnectError::Fetch { phase, .. }
            | ConnectError::ProcessExited { phase, .. }
            | ConnectError::Timeout { phase, .. }
            | ConnectError::AuthRequired { phase, .. }
            | ConnectError::WebPage { phase, .. }
            | ConnectError::LegacySse { phase, .. }
            | ConnectError::Tls { phase, .. }
            | ConnectError::Dns { phase, .. }
            | ConnectError::ConnectionRefused { phase, .. }
            | ConnectError::Redirect { phase, .. }
            | ConnectError::Http { phase, .. }
            | ConnectError::JsonRpc { phase, .. }
            | ConnectError::ProtocolMismatch { phase, .. }
            | ConnectError::NonJsonStdout { phase, .. }
            | ConnectError::ReplyTooLarge { phase, .. }
            | ConnectError::UnknownResponseId { phase, .. }
            | ConnectError::OAuth { phase, .. }
            | ConnectError::Transport { phase, .. } => Some(*phase),
            ConnectError::Refused { .. } => Some(Phase::CallTool),
        }
    }
}

impl ConnectError {
    /// This error with every expanded secret of its definition replaced by
    /// the reference it came from (see [`Redactor`]): applied to every error
    /// that leaves a connection, so messages, `--json`, `last_error` and
    /// logs never show an expanded value, even when the server echoes one.
    pub fn redacted(mut self, r: &Redactor) -> ConnectError {
        let one = |s: &mut String| *s = r.apply(s);
        // Exhaustive on purpose: a new variant must say what it carries
        // from outside.
        match &mut self {
            ConnectError::Vars(_) | ConnectError::ReplyTooLarge { .. } => {}
            ConnectError::LauncherMissing { command, .. } => one(command),
            ConnectError::Sandbox { detail, .. } => one(detail),
            ConnectError::Fetch {
                what,
                detail,
                stderr_tail,
                ..
            } => {
                one(what);
                one(detail);
                *stderr_tail = r.apply_all(stderr_tail);
            }
            ConnectError::SpawnFailed {
                command, detail, ..
            } => {
                one(command);
                one(detail);
            }
            ConnectError::ProcessExited { stderr_tail, .. }
            | ConnectError::Timeout { stderr_tail, .. } => *stderr_tail = r.apply_all(stderr_tail),
            ConnectError::AuthRequired { challenge, .. } => {
                if let Some(challenge) = challenge {
                    one(challenge);
                }
            }
            ConnectError::WebPage {
                url, content_type, ..
            } => {
                one(url);
                one(content_type);
            }
            ConnectError::LegacySse { url, .. } | ConnectError::ConnectionRefused { url, .. } => {
                one(url)
            }
            ConnectError::Dns { host, detail, .. } => {
                one(host);
                one(detail);
            }
            ConnectError::Redirect { refused, .. } => *refused = refused.clone().redacted(r),
            ConnectError::Tls { detail, .. }
            | ConnectError::Http { detail, .. }
            | ConnectError::Refused { detail, .. }
            | ConnectError::Transport { detail, .. } => one(detail),
            ConnectError::JsonRpc { message, .. } | ConnectError::OAuth { message, .. } => {
                one(message)
            }
            ConnectError::ProtocolMismatch { answered, .. } => one(answered),
            ConnectError::NonJsonStdout { line, .. } => one(line),
            ConnectError::UnknownResponseId { id, .. } => one(id),
        }
        self
    }
}

impl Diagnostic for ConnectError {
    fn exit_code(&self) -> ExitCode {
        match self {
            ConnectError::Vars(err) => err.exit_code(),
            _ => ExitCode::Failed,
        }
    }

    fn hint(&self) -> Option<String> {
        /// Said by every spawn-failure hint: a variable the server needs
        /// may simply not have been passed to it.
        const INHERIT_NOTE: &str = "the server gets only PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, TMPDIR, the proxy and CA variables and its own `env`: pass more with MCPCTL_INHERIT_ENV=NAME,NAME";
        Some(match self {
            ConnectError::Vars(err) => return err.hint(),
            ConnectError::LauncherMissing { command, .. } => {
                let how = match command.rsplit('/').next().unwrap_or(command) {
                    "npx" | "node" | "npm" => "install Node.js (it provides npx)",
                    "uvx" | "uv" => "install uv: pip install uv",
                    "docker" => "install Docker",
                    "python" | "python3" => "install Python 3",
                    _ => "install it, or write its full path in `command`",
                };
                format!("`{command}` must be on PATH or an executable path; {how}; {INHERIT_NOTE}")
            }
            ConnectError::Sandbox { hint, .. } | ConnectError::Fetch { hint, .. } => hint.clone(),
            ConnectError::SpawnFailed { .. } => {
                format!("check that the command is executable and `cwd` exists; {INHERIT_NOTE}")
            }
            ConnectError::ProcessExited { .. } => {
                format!("run the command by hand to see why it exits; its stderr is above; {INHERIT_NOTE}")
            }
            ConnectError::Timeout { phase, .. } => match phase {
                Phase::Spawn | Phase::Initialize | Phase::Discover => {
                    "the server did not answer in time; raise `connect_timeout` or pass --timeout, or check that it speaks MCP on stdio/this URL".into()
                }
                Phase::CallTool => "the tool did not finish in time and the server was told the call is cancelled; raise --timeout, or check the server's logs".into(),
                _ => "the server answered initialize but stalled listing; raise --timeout or check the server's logs".into(),
            },
            ConnectError::AuthRequired { .. } => {
                "add credentials in `headers`, e.g. \"Authorization\": \"Bearer ${TOKEN}\"".into()
            }
            ConnectError::WebPage { .. } => {
                "point `url` at the MCP endpoint itself (often ending in /mcp or /sse)".into()
            }
            ConnectError::LegacySse { .. } => {
                "the server speaks legacy SSE: add it with `--transport sse` (or set \"type\": \"sse\" in its definition), or leave the transport out and mcpctl finds it".into()
            }
            ConnectError::Tls { .. } => {
                "check the certificate, or whether the server speaks plain http (then write its http:// URL)".into()
            }
            ConnectError::Dns { .. } => "check the host name in `url`".into(),
            ConnectError::ConnectionRefused { .. } => {
                "is the server running, and on this port?".into()
            }
            ConnectError::Redirect { refused, .. } => match refused {
                crate::http_client::RedirectRefused::CrossOrigin { .. } => {
                    "write the URL the server redirects to in `url` if you trust it; headers are never sent to another origin".into()
                }
                crate::http_client::RedirectRefused::Downgrade { .. } => {
                    "keep `url` on https; ask the server's operator why it redirects to plain http".into()
                }
                crate::http_client::RedirectRefused::TooMany { .. } => {
                    "the server redirects in a loop; check `url`".into()
                }
            },
            ConnectError::Http { .. } => "check `url` and the server's logs".into(),
            ConnectError::JsonRpc { .. } => "the server rejected the request; check its logs".into(),
            ConnectError::Refused { .. } => {
                "nothing was retried; report the request to the server's authors".into()
            }
            ConnectError::ProtocolMismatch { .. } => {
                "set `protocol` in the definition (e.g. \"2026-07-28\" for stateless servers), or upgrade the server".into()
            }
            ConnectError::NonJsonStdout { .. } => {
                "stdio servers must log to stderr only; fix the server or its wrapper script".into()
            }
            ConnectError::ReplyTooLarge { .. } => {
                "the server's reply is too large for one message; ask for less (arguments, paging) or fix the server".into()
            }
            ConnectError::UnknownResponseId { .. } => {
                "the server is not following JSON-RPC (a reply must carry its request's id); report it to its authors".into()
            }
            ConnectError::OAuth { hint, .. } => hint.clone(),
            ConnectError::Transport { .. } => "check the server's logs".into(),
        })
    }
}
