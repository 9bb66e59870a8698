//! A live, owned connection to one MCP server.
//!
//! [`Connection`] is what `check` uses for one round of discovery and what
//! the supervisor will hold for a server's lifetime: it owns the child
//! process (if any), the rmcp client, and the budget accounting, and it
//! turns every rmcp, HTTP and process failure into a [`ConnectError`] that
//! names its phase.
//!
//! Connecting is three steps, each in its own file: `transport` chooses and
//! builds the way to the server from its definition (a stdio child, or a
//! URL over Streamable HTTP or legacy SSE), `handshake` runs the session on
//! it with the fallbacks between protocol eras, and `failure` names what
//! went wrong. `paging` lists tools, resources and prompts with one loop;
//! this file holds the connection itself, its calls and its close.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, JsonObject, ProtocolVersion, ServerPeerInfo,
};
use rmcp::service::RunningService;

use super::child::{self, ChildProcess, DEFAULT_KILL_GRACE};
use super::client::{self, McpClient};
use super::error::{ConnectError, Phase};
use super::stderr::StderrTee;
use super::stdout_tap::TapState;
use super::talk::{self, Router, Talk, TalkError};
use crate::defs::redact::Redactor;
use crate::defs::{ServerDef, Transport};

mod failure;
mod handshake;
mod paging;
mod transport;

pub use paging::{DEFAULT_MAX_PAGES, PageEnd, ToolPages};

/// How to connect: the budget and how to stop the process afterwards.
#[derive(Clone)]
pub struct ConnectOptions {
    /// Overrides the definition's `connect_timeout` (the CLI's `--timeout`).
    pub budget: Option<Duration>,
    /// Time between TERM and KILL when stopping a stdio server.
    pub kill_grace: Duration,
    /// Receives every stderr line of a stdio server (e.g. the supervisor's log).
    pub stderr_tee: Option<StderrTee>,
    /// Called on `notifications/tools/list_changed` (the supervisor refreshes).
    pub on_tools_changed: Option<client::ToolsChanged>,
    /// Replaces system name resolution for remote servers (tests simulate
    /// DNS failures with it without touching the network).
    pub dns_resolver: Option<Arc<dyn reqwest::dns::Resolve>>,
    /// Set for a connection that makes calls (`call --direct`, the
    /// supervisor): elicitation is advertised and, with progress, routed
    /// to the call in flight. `check` and discovery leave it unset.
    pub router: Option<Router>,
    /// Told the pid and descendant tag of the process as soon as it is
    /// spawned, before the handshake: the supervisor records it then, so a
    /// successor can end a server whose start was cut short by a `kill -9`.
    pub on_spawn: Option<OnSpawn>,
}

/// Receives a just-spawned server's pid (its process group) and tag.
pub type OnSpawn = Arc<dyn Fn(u32, &str) + Send + Sync>;

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            budget: None,
            kill_grace: DEFAULT_KILL_GRACE,
            stderr_tee: None,
            on_tools_changed: None,
            dns_resolver: None,
            router: None,
            on_spawn: None,
        }
    }
}

impl std::fmt::Debug for ConnectOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectOptions")
            .field("budget", &self.budget)
            .field("kill_grace", &self.kill_grace)
            .finish()
    }
}

/// An open connection to one server.
pub struct Connection {
    server: String,
    /// The transport that answered (for a URL without one in the file,
    /// the one the backwards-compatibility procedure found).
    transport: Transport,
    url: Option<String>,
    service: Option<RunningService<RoleClient, McpClient>>,
    child: Option<ChildProcess>,
    tap: Option<Arc<TapState>>,
    peer_info: ServerPeerInfo,
    stateless: bool,
    kill_grace: Duration,
    /// Where elicitation and progress go (see [`ConnectOptions::router`]).
    router: Router,
    /// Rewrites expanded secrets out of every error this connection returns.
    redactor: Redactor,
    /// How long spawning (or opening the HTTP session) took.
    pub spawn_time: Duration,
    /// How long `initialize` + `initialized` (or `server/discover`) took.
    pub handshake_time: Duration,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("server", &self.server)
            .field("stateless", &self.stateless)
            .finish()
    }
}

impl Connection {
    /// Connect to `def`: spawn or open, handshake, check the negotiated
    /// version. The budget (`opts.budget` or the definition's) starts now;
    /// pass the returned deadline on to [`Connection::list_tools`] so that
    /// one budget covers spawn, handshake and every page.
    pub async fn connect(
        def: &ServerDef,
        opts: &ConnectOptions,
    ) -> Result<(Connection, Instant), ConnectError> {
        let budget = opts.budget.unwrap_or_else(|| def.connect_budget());
        let deadline = Instant::now() + budget;
        let conn = Self::connect_until(def, opts, deadline, budget).await?;
        Ok((conn, deadline))
    }

    /// [`Connection::connect`] against an existing deadline.
    ///
    /// Every error, from this and from every later request, is redacted
    /// with the definition's [`Redactor`], and so is what the server says
    /// about itself (see [`Connection::peer_info`]).
    pub async fn connect_until(
        def: &ServerDef,
        opts: &ConnectOptions,
        deadline: Instant,
        budget: Duration,
    ) -> Result<Connection, ConnectError> {
        let redactor = Redactor::for_def(def);
        let budget = Budget {
            deadline,
            length: budget,
        };
        match handshake::connect(def, opts, budget).await {
            Ok(mut conn) => {
                redact_peer_info(&redactor, &mut conn.peer_info);
                conn.redactor = redactor;
                Ok(conn)
            }
            Err(err) => Err(err.redacted(&redactor)),
        }
    }

    /// A connection on a session that has just been served; the caller
    /// sets its child, tap, URL and timings.
    fn new(
        server: &str,
        transport: Transport,
        service: RunningService<RoleClient, McpClient>,
        stateless: bool,
        opts: &ConnectOptions,
    ) -> Connection {
        Connection {
            server: server.into(),
            transport,
            url: None,
            peer_info: service
                .peer()
                .peer_info()
                .map(|i| (*i).clone())
                .unwrap_or_else(empty_info),
            service: Some(service),
            child: None,
            tap: None,
            stateless,
            kill_grace: opts.kill_grace,
            router: opts.router.clone().unwrap_or_default(),
            redactor: Redactor::default(),
            spawn_time: Duration::ZERO,
            handshake_time: Duration::ZERO,
        }
    }

    /// What the server said about itself (version, capabilities, serverInfo,
    /// instructions), with the entry's secrets redacted: `check --json` and
    /// the lockfile show it.
    pub fn peer_info(&self) -> &ServerPeerInfo {
        &self.peer_info
    }

    /// The name of the entry connected to (for errors).
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The negotiated protocol version.
    pub fn protocol_version(&self) -> String {
        self.peer_info.protocol_version.to_string()
    }

    /// The transport that answered: for a URL without one in the file,
    /// what the backwards-compatibility procedure found.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// True when the session uses the stateless `server/discover` lifecycle.
    pub fn is_stateless(&self) -> bool {
        self.stateless
    }

    /// The child's pid for stdio servers.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(ChildProcess::pid)
    }

    /// The tag the child's descendants carry (see [`super::escapes`]).
    pub fn tag(&self) -> Option<String> {
        self.child.as_ref().map(|c| c.tag().to_string())
    }

    /// The last stderr lines of a stdio server (empty for HTTP).
    pub fn stderr_tail(&self) -> Vec<String> {
        self.child
            .as_ref()
            .map(ChildProcess::stderr_tail)
            .unwrap_or_default()
    }

    /// A clone of the rmcp peer, so that many calls can be in flight at
    /// once without holding the connection (the supervisor's call path).
    pub fn peer_handle(&self) -> Option<rmcp::Peer<RoleClient>> {
        self.service.as_ref().map(|s| s.peer().clone())
    }

    /// The child's exit status if it exits within `wait` (then reaped), so
    /// the supervisor can notice a crash; `None` for a live child or HTTP.
    pub async fn exited_within(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        match self.child.as_mut() {
            Some(child) => child.exited_within(wait).await,
            None => None,
        }
    }

    /// True when the transport is gone (an HTTP server went away, or the
    /// stdio pipes closed).
    pub fn transport_closed(&self) -> bool {
        self.service
            .as_ref()
            .is_none_or(|s| s.is_closed() || s.peer().is_transport_closed())
    }

    fn peer(&self) -> &rmcp::Peer<RoleClient> {
        self.service
            .as_ref()
            .expect("service is present until close")
            .peer()
    }

    /// The router of this connection's calls (see [`super::talk`]).
    pub fn router(&self) -> &Router {
        &self.router
    }

    /// The secrets of this connection's definition, as its errors are
    /// redacted: what a caller redacts a call's result with.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// Call one tool with a timeout. Never retried: a call may have effects.
    pub async fn call_tool(
        &mut self,
        name: &str,
        arguments: Option<JsonObject>,
        timeout: Duration,
    ) -> Result<CallToolResult, ConnectError> {
        self.call_tool_talking(name, arguments, timeout, Talk::default())
            .await
    }

    /// [`Connection::call_tool`], with the server's questions and progress
    /// going to `talk` and `input_required` rounds answered (see
    /// [`talk::call_tool`]). On timeout the server is told the call was
    /// cancelled.
    pub async fn call_tool_talking(
        &mut self,
        name: &str,
        arguments: Option<JsonObject>,
        timeout: Duration,
        talk: Talk,
    ) -> Result<CallToolResult, ConnectError> {
        let mut params = CallToolRequestParams::new(name.to_string());
        if let Some(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        let reason = format!("timed out after {} s", timeout.as_secs_f64());
        let call = talk::call_tool(self.peer(), &self.router, talk, params, &reason);
        match within(self.tap.as_deref(), timeout, call).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(TalkError::Service(err))) => Err(self.request_error(Phase::CallTool, err).await),
            Ok(Err(TalkError::Refused(why))) => Err(ConnectError::Refused {
                server: self.server.clone(),
                detail: why,
            }
            .redacted(&self.redactor)),
            Err(_) => {
                self.router.flush(Duration::from_secs(1)).await;
                Err(self.timed_out(Phase::CallTool, timeout).await)
            }
        }
    }

    /// Close cleanly: stop the client, then TERM/KILL and reap the process
    /// group. Returns the child's exit status description, if it had one.
    pub async fn close(&mut self) -> Option<String> {
        // A call abandoned just before (Ctrl-C) queued its cancellation.
        self.router.flush(Duration::from_secs(1)).await;
        if let Some(mut service) = self.service.take() {
            // The HTTP transport may send a DELETE; don't let that hang us.
            let _ = service.close_with_timeout(Duration::from_millis(500)).await;
        }
        match self.child.take() {
            Some(child) => child
                .shutdown(self.kill_grace)
                .await
                .map(|s| child::describe_status(&s)),
            None => None,
        }
    }
}

/// `fut` within `left`; `Err` when time runs out or, for a stdio server,
/// as soon as its stdout proves unusable (garbage, an oversized reply, a
/// stray id): the caller then names the cause with
/// [`failure::stdio_failure`].
async fn within<F: std::future::Future>(
    tap: Option<&TapState>,
    left: Duration,
    fut: F,
) -> Result<F::Output, ()> {
    let broken = async {
        match tap {
            Some(tap) => tap.problem().await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        done = tokio::time::timeout(left, fut) => done.map_err(|_| ()),
        () = broken => Err(()),
    }
}

/// One budget: when it ends, and how long it was (reported in timeouts).
#[derive(Debug, Clone, Copy)]
struct Budget {
    deadline: Instant,
    length: Duration,
}

impl Budget {
    /// What is left of the budget, or a timeout in `phase` when nothing is.
    fn left(&self, server: &str, phase: Phase) -> Result<Duration, ConnectError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            Err(self.timeout(server, phase))
        } else {
            Ok(left)
        }
    }

    /// The budget ran out in `phase`.
    fn timeout(&self, server: &str, phase: Phase) -> ConnectError {
        failure::timeout_error(server, phase, self.length, Vec::new())
    }
}

/// `info` with the entry's secrets redacted from what a server may word
/// freely: its `serverInfo`, `instructions`, `_meta` and experimental or
/// extension capabilities. The protocol version and the standard
/// capabilities are identifiers, kept as sent. A part that cannot be
/// redacted is dropped (see [`Redactor::apply_typed`]).
fn redact_peer_info(redactor: &Redactor, info: &mut ServerPeerInfo) {
    fn redact<T: serde::Serialize + serde::de::DeserializeOwned>(
        redactor: &Redactor,
        part: &mut Option<T>,
    ) {
        *part = part.take().and_then(|p| redactor.apply_typed(p, &[]));
    }
    redact(redactor, &mut info.server_info);
    redact(redactor, &mut info.instructions);
    redact(redactor, &mut info.meta);
    // Every capability object, not only the free-form ones: a server may
    // put anything under a known key (`logging: {"z": …}`; attack3 S6).
    match redactor.apply_typed(info.capabilities.clone(), &[]) {
        Some(capabilities) => info.capabilities = capabilities,
        None => {
            redact(redactor, &mut info.capabilities.experimental);
            redact(redactor, &mut info.capabilities.extensions);
        }
    }
}

fn empty_info() -> ServerPeerInfo {
    ServerPeerInfo::new(ProtocolVersion::default(), Default::default())
}
