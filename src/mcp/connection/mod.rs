//! A live, owned connection to one MCP server.
//!
//! [`Connection`] is what `check` uses for one round of discovery and what
//! the supervisor will hold for a server's lifetime: it owns the child
//! process (if any), the rmcp client, and the budget accounting, and it
//! turns every rmcp, HTTP and process failure into a [`ConnectError`] that
//! names its phase.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, JsonObject, PaginatedRequestParams, ProtocolVersion,
    ServerPeerInfo, Tool,
};
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceError};

use super::child::{self, ChildProcess, DEFAULT_KILL_GRACE};
use super::client::{self, McpClient, OFFERED_VERSION, STATELESS_VERSION, SUPPORTED_VERSIONS};
use super::error::{ConnectError, Phase};
use super::http;
use super::reply_ids::ReplyIds;
use super::sse::SseTransport;
use super::stderr::StderrTee;
use super::stdout_tap::TapState;
use crate::defs::redact::Redactor;
use crate::defs::{Launch, ServerDef, Transport};

/// The default cap on `tools/list` pages (a guard against endless cursors).
pub const DEFAULT_MAX_PAGES: usize = 100;

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
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            budget: None,
            kill_grace: DEFAULT_KILL_GRACE,
            stderr_tee: None,
            on_tools_changed: None,
            dns_resolver: None,
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

/// How a paginated listing ended, reported so lints can flag bad servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageEnd {
    /// The last page had no `nextCursor`.
    Complete,
    /// A page had an empty `nextCursor` (treated as the end).
    EmptyCursor,
    /// The server sent a cursor it had sent before; listing stopped there.
    RepeatedCursor,
    /// The page cap was reached.
    PageCap,
}

/// The result of a paginated `tools/list`.
#[derive(Debug, Clone)]
pub struct ToolPages {
    /// Every tool from every page, in order.
    pub tools: Vec<Tool>,
    /// How many pages were requested.
    pub pages: usize,
    /// Why listing stopped.
    pub end: PageEnd,
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

/// What went wrong in one connection attempt, plus whether the server
/// rejected `initialize` itself (the trigger for the stateless fallback).
struct AttemptError {
    error: ConnectError,
    rejected_initialize: bool,
}

impl From<ConnectError> for AttemptError {
    fn from(error: ConnectError) -> Self {
        AttemptError {
            error,
            rejected_initialize: false,
        }
    }
}

fn remaining(
    server: &str,
    phase: Phase,
    deadline: Instant,
    budget: Duration,
) -> Result<Duration, ConnectError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(ConnectError::Timeout {
            server: server.to_string(),
            phase,
            budget,
            stderr_tail: Vec::new(),
        })
    } else {
        Ok(left)
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
    /// with the definition's [`Redactor`].
    pub async fn connect_until(
        def: &ServerDef,
        opts: &ConnectOptions,
        deadline: Instant,
        budget: Duration,
    ) -> Result<Connection, ConnectError> {
        let redactor = Redactor::for_def(def);
        match Self::connect_unredacted(def, opts, deadline, budget).await {
            Ok(mut conn) => {
                conn.redactor = redactor;
                Ok(conn)
            }
            Err(err) => Err(err.redacted(&redactor)),
        }
    }

    async fn connect_unredacted(
        def: &ServerDef,
        opts: &ConnectOptions,
        deadline: Instant,
        budget: Duration,
    ) -> Result<Connection, ConnectError> {
        match def.protocol.as_deref() {
            Some(STATELESS_VERSION) => {
                Self::attempt(def, opts, deadline, budget, STATELESS_VERSION)
                    .await
                    .map_err(|e| e.error)
            }
            Some(version) => Self::attempt(def, opts, deadline, budget, version)
                .await
                .map_err(|e| e.error),
            None => match Self::attempt(def, opts, deadline, budget, OFFERED_VERSION).await {
                Ok(conn) => Ok(conn),
                // A server that speaks only the stateless protocol rejects the
                // handshake; only then try `server/discover` (never probe first:
                // some stdio servers exit on an unknown first message).
                Err(first) if first.rejected_initialize => {
                    match Self::attempt(def, opts, deadline, budget, STATELESS_VERSION).await {
                        Ok(conn) => Ok(conn),
                        Err(second) if matches!(second.error, ConnectError::JsonRpc { .. }) => {
                            Err(first.error)
                        }
                        Err(second) => Err(second.error),
                    }
                }
                Err(first) => Err(first.error),
            },
        }
    }

    async fn attempt(
        def: &ServerDef,
        opts: &ConnectOptions,
        deadline: Instant,
        budget: Duration,
        version: &str,
    ) -> Result<Connection, AttemptError> {
        let server = def.name.as_str();
        let stateless = version == STATELESS_VERSION;
        let phase = if stateless {
            Phase::Discover
        } else {
            Phase::Initialize
        };
        let lifecycle = if stateless {
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            }
        } else {
            ClientLifecycleMode::Initialize
        };
        let started = Instant::now();
        match &def.launch {
            Launch::Stdio { .. } => {
                let spawned = child::spawn(def, opts.stderr_tee.clone())?;
                let spawn_time = started.elapsed();
                let mut process = spawned.process;
                let tap = spawned.tap;
                let handler = McpClient::new(
                    version,
                    client::root_for(&spawned.cwd).into_iter().collect(),
                )
                .with_tools_changed(opts.on_tools_changed.clone());
                let left = match remaining(server, phase, deadline, budget) {
                    Ok(left) => left,
                    Err(e) => {
                        process.shutdown(opts.kill_grace).await;
                        return Err(e.into());
                    }
                };
                let hs_start = Instant::now();
                let transport = ReplyIds::new(
                    AsyncRwTransport::new_client(spawned.stdout, spawned.stdin),
                    tap.clone(),
                );
                let served = within(
                    Some(&tap),
                    left,
                    handler.serve_with_lifecycle(transport, lifecycle),
                )
                .await;
                let outcome = match served {
                    Ok(Ok(service)) => Ok(service),
                    Ok(Err(err)) => {
                        let rejected =
                            matches!(err, ClientInitializeError::JsonRpcError(_)) && !stateless;
                        let named = init_error(server, phase, None, &err);
                        // A rejection is an answer, not a crash: report it as is.
                        let error = if rejected {
                            named
                        } else {
                            stdio_failure(server, phase, &mut process, &tap, named).await
                        };
                        Err(AttemptError {
                            rejected_initialize: rejected,
                            error,
                        })
                    }
                    Err(_) => {
                        let timeout = ConnectError::Timeout {
                            server: server.into(),
                            phase,
                            budget,
                            stderr_tail: process.stderr_tail(),
                        };
                        Err(stdio_failure(server, phase, &mut process, &tap, timeout)
                            .await
                            .into())
                    }
                };
                let service = match outcome {
                    Ok(service) => service,
                    Err(e) => {
                        process.shutdown(opts.kill_grace).await;
                        return Err(e);
                    }
                };
                let mut conn = Connection {
                    server: server.into(),
                    transport: Transport::Stdio,
                    url: None,
                    peer_info: service
                        .peer()
                        .peer_info()
                        .map(|i| (*i).clone())
                        .unwrap_or_else(empty_info),
                    service: Some(service),
                    child: Some(process),
                    tap: Some(tap),
                    stateless,
                    kill_grace: opts.kill_grace,
                    redactor: Redactor::default(),
                    spawn_time,
                    handshake_time: hs_start.elapsed(),
                };
                if let Some(err) = conn.tap.as_ref().and_then(|t| t.failure(server, phase)) {
                    conn.close().await;
                    return Err(err.into());
                }
                conn.check_version(version, phase).await?;
                Ok(conn)
            }
            Launch::Remote {
                transport,
                url,
                headers,
                process,
            } => {
                let (url, headers) = http::expand_remote(server, url, headers)?;
                let local = match process {
                    Some(_) => Some(start_local(def, opts, &url, deadline, budget).await?),
                    None => None,
                };
                let spawn_time = started.elapsed();
                let attempt = async {
                    let left = remaining(server, phase, deadline, budget)?;
                    let timeout_err = || ConnectError::Timeout {
                        server: server.into(),
                        phase,
                        budget,
                        stderr_tail: Vec::new(),
                    };
                    let mut answered = *transport;
                    let served = match transport {
                        Transport::Sse => {
                            open_sse(server, phase, &url, &headers, opts, deadline, budget)
                                .await?
                                .serve(version, lifecycle)
                                .await
                        }
                        _ => {
                            let transport = http::streamable_transport(
                                server,
                                &url,
                                &headers,
                                opts.dns_resolver.as_ref(),
                            )?;
                            let handler = McpClient::new(version, Vec::new())
                                .with_tools_changed(opts.on_tools_changed.clone());
                            let first = tokio::time::timeout(
                                left,
                                handler.serve_with_lifecycle(transport, lifecycle.clone()),
                            )
                            .await;
                            // No transport in the file: follow the spec's
                            // backwards-compatibility procedure. A 400, 404
                            // or 405 to the initialize POST means an older
                            // server: open its SSE stream and wait for
                            // `endpoint`.
                            match first {
                                Ok(Err(ClientInitializeError::TransportError {
                                    error, ..
                                })) if def.transport_inferred
                                    && http::status_of(&error)
                                        .is_some_and(|s| [400, 404, 405].contains(&s)) =>
                                {
                                    let legacy = open_sse(
                                        server, phase, &url, &headers, opts, deadline, budget,
                                    )
                                    .await;
                                    match legacy {
                                        Ok(sse) => {
                                            answered = Transport::Sse;
                                            sse.serve(version, lifecycle).await
                                        }
                                        // Neither answered: the POST's refusal says more.
                                        Err(_) => {
                                            return Err(http::classify(
                                                server, phase, &url, &error,
                                            )
                                            .into());
                                        }
                                    }
                                }
                                other => other,
                            }
                        }
                    };
                    let service = match served {
                        Ok(Ok(service)) => service,
                        Ok(Err(err)) => {
                            let rejected = matches!(err, ClientInitializeError::JsonRpcError(_));
                            return Err(AttemptError {
                                rejected_initialize: rejected && !stateless,
                                error: init_error(server, phase, Some(&url), &err),
                            });
                        }
                        Err(_) => return Err(timeout_err().into()),
                    };
                    let mut conn = Connection {
                        server: server.into(),
                        transport: answered,
                        url: Some(url),
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
                        redactor: Redactor::default(),
                        spawn_time,
                        handshake_time: started.elapsed(),
                    };
                    conn.check_version(version, phase).await?;
                    Ok::<Connection, AttemptError>(conn)
                };
                match (attempt.await, local) {
                    (Ok(mut conn), local) => {
                        conn.child = local;
                        Ok(conn)
                    }
                    (Err(e), Some(process)) => {
                        process.shutdown(opts.kill_grace).await;
                        Err(e)
                    }
                    (Err(e), None) => Err(e),
                }
            }
        }
    }

    async fn check_version(&mut self, offered: &str, phase: Phase) -> Result<(), ConnectError> {
        let answered = self.peer_info.protocol_version.to_string();
        let ok = if self.stateless {
            answered == STATELESS_VERSION
        } else {
            SUPPORTED_VERSIONS.contains(&answered.as_str())
        };
        if ok {
            return Ok(());
        }
        let err = ConnectError::ProtocolMismatch {
            server: self.server.clone(),
            phase,
            offered: offered.into(),
            answered,
        };
        self.close().await;
        Err(err)
    }

    /// What the server said about itself (version, capabilities, serverInfo).
    pub fn peer_info(&self) -> &ServerPeerInfo {
        &self.peer_info
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

    /// Turn a request failure into a [`ConnectError`], looking at the child
    /// (did it exit? print garbage?) or at the HTTP error chain.
    async fn request_error(&mut self, phase: Phase, err: ServiceError) -> ConnectError {
        self.request_error_unredacted(phase, err)
            .await
            .redacted(&self.redactor)
    }

    async fn request_error_unredacted(&mut self, phase: Phase, err: ServiceError) -> ConnectError {
        let server = self.server.as_str();
        let fallback = match &err {
            ServiceError::McpError(data) => {
                return ConnectError::JsonRpc {
                    server: server.into(),
                    phase,
                    code: data.code.0,
                    message: data.message.to_string(),
                };
            }
            ServiceError::Timeout { timeout } => ConnectError::Timeout {
                server: server.into(),
                phase,
                budget: *timeout,
                stderr_tail: self.stderr_tail(),
            },
            ServiceError::TransportSend(e) => match &self.url {
                Some(url) => http::classify(server, phase, url, e),
                None => ConnectError::Transport {
                    server: server.into(),
                    phase,
                    detail: crate::error::chain(e),
                },
            },
            other => ConnectError::Transport {
                server: server.into(),
                phase,
                detail: other.to_string(),
            },
        };
        match (self.child.as_mut(), self.tap.as_ref()) {
            (Some(child), Some(tap)) => stdio_failure(server, phase, child, tap, fallback).await,
            _ => fallback,
        }
    }

    async fn timed_out(&mut self, phase: Phase, budget: Duration) -> ConnectError {
        self.timed_out_unredacted(phase, budget)
            .await
            .redacted(&self.redactor)
    }

    async fn timed_out_unredacted(&mut self, phase: Phase, budget: Duration) -> ConnectError {
        let fallback = ConnectError::Timeout {
            server: self.server.clone(),
            phase,
            budget,
            stderr_tail: self.stderr_tail(),
        };
        match (self.child.as_mut(), self.tap.as_ref()) {
            (Some(child), Some(tap)) => {
                stdio_failure(&self.server, phase, child, tap, fallback).await
            }
            _ => fallback,
        }
    }

    /// Every tool, through mcpctl's own pagination loop: each page counts
    /// against `deadline`; an empty or repeated cursor ends the listing, and
    /// so does `max_pages`. `budget` is only reported in timeout errors.
    ///
    /// A server that does not advertise the `tools` capability is not asked
    /// (MCP makes tools optional): it has no tools, after zero pages.
    pub async fn list_tools(
        &mut self,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
    ) -> Result<ToolPages, ConnectError> {
        if self.peer_info.capabilities.tools.is_none() {
            return Ok(ToolPages {
                tools: Vec::new(),
                pages: 0,
                end: PageEnd::Complete,
            });
        }
        let mut tools = Vec::new();
        let mut seen = HashSet::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        let end = loop {
            if pages >= max_pages.max(1) {
                break PageEnd::PageCap;
            }
            pages += 1;
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timed_out(Phase::ToolsList, budget).await);
            }
            let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
            let page = match within(
                self.tap.as_deref(),
                left,
                self.peer().list_tools(Some(params)),
            )
            .await
            {
                Ok(Ok(page)) => page,
                Ok(Err(err)) => return Err(self.request_error(Phase::ToolsList, err).await),
                Err(_) => return Err(self.timed_out(Phase::ToolsList, budget).await),
            };
            tools.extend(page.tools);
            match page.next_cursor {
                None => break PageEnd::Complete,
                Some(next) if next.is_empty() => break PageEnd::EmptyCursor,
                Some(next) if !seen.insert(next.clone()) => break PageEnd::RepeatedCursor,
                Some(next) => cursor = Some(next),
            }
        };
        if let Some(err) = self
            .tap
            .as_ref()
            .and_then(|t| t.failure(&self.server, Phase::ToolsList))
        {
            return Err(err.redacted(&self.redactor));
        }
        Ok(ToolPages { tools, pages, end })
    }

    /// [`Connection::list_tools`] with a fresh budget, e.g. the supervisor's
    /// 30 s refresh after `notifications/tools/list_changed`.
    pub async fn refresh_tools(&mut self, budget: Duration) -> Result<ToolPages, ConnectError> {
        self.list_tools(Instant::now() + budget, budget, DEFAULT_MAX_PAGES)
            .await
    }

    /// Count resources (all pages, same guards as tools) within `deadline`.
    pub async fn count_resources(
        &mut self,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
    ) -> Result<usize, ConnectError> {
        self.count_pages(
            Phase::ResourcesList,
            deadline,
            budget,
            max_pages,
            |peer, params| async move {
                let page = peer.list_resources(Some(params)).await?;
                Ok((page.resources.len(), page.next_cursor))
            },
        )
        .await
    }

    /// Count prompts (all pages, same guards as tools) within `deadline`.
    pub async fn count_prompts(
        &mut self,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
    ) -> Result<usize, ConnectError> {
        self.count_pages(
            Phase::PromptsList,
            deadline,
            budget,
            max_pages,
            |peer, params| async move {
                let page = peer.list_prompts(Some(params)).await?;
                Ok((page.prompts.len(), page.next_cursor))
            },
        )
        .await
    }

    /// Follow a paginated list, counting items: stop on an empty or repeated
    /// cursor or after `max_pages`, every page within `deadline`.
    async fn count_pages<F, Fut>(
        &mut self,
        phase: Phase,
        deadline: Instant,
        budget: Duration,
        max_pages: usize,
        fetch: F,
    ) -> Result<usize, ConnectError>
    where
        F: Fn(rmcp::Peer<RoleClient>, PaginatedRequestParams) -> Fut,
        Fut: std::future::Future<Output = Result<(usize, Option<String>), rmcp::ServiceError>>,
    {
        let mut count = 0;
        let mut seen = HashSet::new();
        let mut cursor = None;
        for _ in 0..max_pages.max(1) {
            let left = deadline.saturating_duration_since(Instant::now());
            let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
            let (items, next) = match within(
                self.tap.as_deref(),
                left,
                fetch(self.peer().clone(), params),
            )
            .await
            {
                Ok(Ok(page)) => page,
                Ok(Err(err)) => return Err(self.request_error(phase, err).await),
                Err(_) => return Err(self.timed_out(phase, budget).await),
            };
            count += items;
            match next {
                Some(next) if !next.is_empty() && seen.insert(next.clone()) => cursor = Some(next),
                _ => break,
            }
        }
        Ok(count)
    }

    /// Call one tool with a timeout. Never retried: a call may have effects.
    pub async fn call_tool(
        &mut self,
        name: &str,
        arguments: Option<JsonObject>,
        timeout: Duration,
    ) -> Result<CallToolResult, ConnectError> {
        let mut params = CallToolRequestParams::new(name.to_string());
        if let Some(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        match within(self.tap.as_deref(), timeout, self.peer().call_tool(params)).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(err)) => Err(self.request_error(Phase::CallTool, err).await),
            Err(_) => Err(self.timed_out(Phase::CallTool, timeout).await),
        }
    }

    /// Close cleanly: stop the client, then TERM/KILL and reap the process
    /// group. Returns the child's exit status description, if it had one.
    pub async fn close(&mut self) -> Option<String> {
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
/// stray id): the caller then names the cause with [`stdio_failure`].
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

fn empty_info() -> ServerPeerInfo {
    ServerPeerInfo::new(ProtocolVersion::default(), Default::default())
}

/// Name a `ClientInitializeError`; `url` is set for remote servers.
/// A legacy SSE stream that sent its `endpoint` event, ready to serve.
struct OpenSse<'a> {
    sse: SseTransport,
    opts: &'a ConnectOptions,
    left: Duration,
}

impl OpenSse<'_> {
    /// Run the handshake over the stream within what is left of the budget.
    async fn serve(
        self,
        version: &str,
        lifecycle: ClientLifecycleMode,
    ) -> Result<
        Result<RunningService<RoleClient, McpClient>, ClientInitializeError>,
        tokio::time::error::Elapsed,
    > {
        let handler = McpClient::new(version, Vec::new())
            .with_tools_changed(self.opts.on_tools_changed.clone());
        tokio::time::timeout(self.left, handler.serve_with_lifecycle(self.sse, lifecycle)).await
    }
}

/// GET the legacy SSE stream at `url` and wait for its `endpoint` event,
/// within the budget.
async fn open_sse<'a>(
    server: &str,
    phase: Phase,
    url: &str,
    headers: &[(String, String)],
    opts: &'a ConnectOptions,
    deadline: Instant,
    budget: Duration,
) -> Result<OpenSse<'a>, ConnectError> {
    let left = remaining(server, phase, deadline, budget)?;
    let client = http::client(server, headers, opts.dns_resolver.as_ref())?;
    let sse = tokio::time::timeout(left, SseTransport::connect(client, url))
        .await
        .map_err(|_| ConnectError::Timeout {
            server: server.into(),
            phase,
            budget,
            stderr_tail: Vec::new(),
        })?
        .map_err(|e| http::classify(server, phase, url, &e))?;
    let left = remaining(server, phase, deadline, budget)?;
    Ok(OpenSse { sse, opts, left })
}

fn init_error(
    server: &str,
    phase: Phase,
    url: Option<&str>,
    err: &ClientInitializeError,
) -> ConnectError {
    match err {
        ClientInitializeError::JsonRpcError(data) => ConnectError::JsonRpc {
            server: server.into(),
            phase,
            code: data.code.0,
            message: data.message.to_string(),
        },
        ClientInitializeError::NoCompatibleProtocolVersion {
            client_supported,
            server_supported,
        } => ConnectError::ProtocolMismatch {
            server: server.into(),
            phase,
            offered: join(client_supported),
            answered: join(server_supported),
        },
        ClientInitializeError::TransportError { error, .. } => match url {
            Some(url) => http::classify(server, phase, url, error),
            None => ConnectError::Transport {
                server: server.into(),
                phase,
                detail: crate::error::chain(error),
            },
        },
        ClientInitializeError::ConnectionClosed(_) => ConnectError::Transport {
            server: server.into(),
            phase,
            detail: "the server closed the connection".into(),
        },
        other => ConnectError::Transport {
            server: server.into(),
            phase,
            detail: other.to_string(),
        },
    }
}

fn join(versions: &[ProtocolVersion]) -> String {
    versions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// For a stdio server, prefer the root cause: garbage on stdout, or the
/// process having exited (with its code and stderr tail), over `fallback`.
async fn stdio_failure(
    server: &str,
    phase: Phase,
    child: &mut ChildProcess,
    tap: &TapState,
    fallback: ConnectError,
) -> ConnectError {
    if let Some(err) = tap.failure(server, phase) {
        return err;
    }
    // A closed connection usually means the process is exiting; give it a moment.
    let wait = if matches!(fallback, ConnectError::Timeout { .. }) {
        Duration::from_millis(0)
    } else {
        Duration::from_millis(500)
    };
    if let Some(status) = child.exited_within(wait).await {
        return ConnectError::ProcessExited {
            server: server.into(),
            phase,
            status: child::describe_status(&status),
            code: status.code(),
            stderr_tail: child.stderr_tail(),
        };
    }
    match fallback {
        ConnectError::Timeout {
            server,
            phase,
            budget,
            ..
        } => ConnectError::Timeout {
            server,
            phase,
            budget,
            stderr_tail: child.stderr_tail(),
        },
        other => other,
    }
}

/// Launch the local process behind a remote URL and wait until the URL's
/// port accepts connections, the process exits, or the budget runs out.
///
/// Its stdout is drained (it is not the protocol channel) and its stdin is
/// held open for its whole life, since some servers exit when stdin closes.
async fn start_local(
    def: &ServerDef,
    opts: &ConnectOptions,
    url: &str,
    deadline: Instant,
    budget: Duration,
) -> Result<ChildProcess, ConnectError> {
    let server = def.name.as_str();
    let spawned = child::spawn(def, opts.stderr_tee.clone())?;
    let mut process = spawned.process;
    let (mut stdout, stdin) = (spawned.stdout, spawned.stdin);
    tokio::spawn(async move {
        let _stdin = stdin;
        let _ = tokio::io::copy(&mut stdout, &mut tokio::io::sink()).await;
    });
    let parsed = url::Url::parse(url).ok();
    let host = parsed
        .as_ref()
        .and_then(|u| u.host_str())
        .unwrap_or("127.0.0.1")
        .trim_matches(['[', ']'])
        .to_string();
    let port = parsed
        .as_ref()
        .and_then(|u| u.port_or_known_default())
        .unwrap_or(80);
    loop {
        if let Some(status) = process.exited_within(Duration::ZERO).await {
            return Err(ConnectError::ProcessExited {
                server: server.into(),
                phase: Phase::Spawn,
                status: child::describe_status(&status),
                code: status.code(),
                stderr_tail: process.stderr_tail(),
            });
        }
        let probe = tokio::net::TcpStream::connect((host.as_str(), port));
        if let Ok(Ok(_)) = tokio::time::timeout(Duration::from_millis(250), probe).await {
            return Ok(process);
        }
        if Instant::now() >= deadline {
            let stderr_tail = process.stderr_tail();
            process.shutdown(opts.kill_grace).await;
            return Err(ConnectError::Timeout {
                server: server.into(),
                phase: Phase::Spawn,
                budget,
                stderr_tail,
            });
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
