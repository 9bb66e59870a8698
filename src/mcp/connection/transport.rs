//! Choosing and building the transport a [`ServerDef`] is reached through,
//! before any MCP message is sent: a stdio child process on its pipes, or a
//! remote URL (with its local process started first when the definition
//! has one) spoken to over Streamable HTTP or legacy SSE.
//!
//! Every HTTP request to a remote server goes through the one client that
//! [`Remote::http_client`] builds, so a layer around it (authorization)
//! reaches both HTTP transports from one place.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::process::{ChildStdin, ChildStdout};

use super::{Budget, ConnectOptions, failure};
use crate::auth::layer::AuthLayer;
use crate::defs::{Launch, ServerDef, Transport, vars};
use crate::error::chain;
use crate::http_client::{self, Redirects};
use crate::mcp::child::{self, ChildProcess};
use crate::mcp::error::{ConnectError, Phase};
use crate::mcp::reply_ids::ReplyIds;
use crate::mcp::sse::SseTransport;
use crate::mcp::stdio_lines::StdioLines;
use crate::mcp::stdout_tap::{StdoutTap, TapState};

/// Where a definition's MCP messages go, ready for the handshake.
pub(super) enum Link<'a> {
    /// A local process speaking JSON-RPC on its stdio.
    Stdio(Stdio),
    /// A URL.
    Remote(Remote<'a>),
}

/// Spawn `def`'s process, or expand its URL and headers (and start and
/// wait for its local process, if it has one) within `budget`.
pub(super) async fn open<'a>(
    def: &'a ServerDef,
    opts: &'a ConnectOptions,
    budget: Budget,
) -> Result<Link<'a>, ConnectError> {
    let server = def.name.as_str();
    match &def.launch {
        Launch::Stdio { .. } => spawn_stdio(def, opts, budget).await.map(Link::Stdio),
        Launch::Remote {
            transport,
            url,
            headers,
            process,
        } => {
            let url = vars::expand(server, url)?;
            let headers = headers
                .iter()
                .map(|(k, v)| Ok((k.clone(), vars::expand(server, v)?)))
                .collect::<Result<Vec<_>, ConnectError>>()?;
            let local = match process {
                Some(_) => Some(start_local(def, opts, &url, budget).await?),
                None => None,
            };
            Ok(Link::Remote(Remote {
                server,
                url,
                headers,
                transport: *transport,
                inferred: def.transport_inferred,
                local,
                auth: crate::auth::layer::Session::for_def(def),
                opts,
            }))
        }
    }
}

/// The transport on a stdio server's pipes: stdout tapped for garbage,
/// replies checked against the ids that were asked.
pub(super) type StdioTransport = ReplyIds<StdioLines<StdoutTap<ChildStdout>, ChildStdin>>;

/// A spawned stdio server.
pub(super) struct Stdio {
    /// The process tree; shut it down when the handshake fails.
    pub(super) process: ChildProcess,
    /// What the tap saw on stdout.
    pub(super) tap: std::sync::Arc<TapState>,
    pub(super) transport: StdioTransport,
}

async fn spawn_stdio(
    def: &ServerDef,
    opts: &ConnectOptions,
    budget: Budget,
) -> Result<Stdio, ConnectError> {
    let spawned = spawned(def, opts, budget).await?;
    let transport = ReplyIds::new(
        StdioLines::new(spawned.stdout, spawned.stdin),
        spawned.tap.clone(),
    );
    Ok(Stdio {
        process: spawned.process,
        tap: spawned.tap,
        transport,
    })
}

/// Spawn the definition's process and tell [`ConnectOptions::on_spawn`].
/// A confined `npx`/`uvx` launch fetches its package first, within `budget`.
async fn spawned(
    def: &ServerDef,
    opts: &ConnectOptions,
    budget: Budget,
) -> Result<child::SpawnedStdio, ConnectError> {
    let spawned = child::spawn(def, opts.stderr_tee.clone(), budget.deadline).await?;
    if let Some(on_spawn) = &opts.on_spawn {
        on_spawn(spawned.process.pid(), spawned.process.tag());
    }
    Ok(spawned)
}

/// A remote definition, its `${VAR}`s expanded.
pub(super) struct Remote<'a> {
    pub(super) server: &'a str,
    pub(super) url: String,
    headers: Vec<(String, String)>,
    /// The transport the file names (or the default when it names none).
    pub(super) transport: Transport,
    /// True when the file names no transport: the spec's
    /// backwards-compatibility procedure may fall back to legacy SSE.
    pub(super) inferred: bool,
    /// The local process serving the URL, started and listening.
    pub(super) local: Option<ChildProcess>,
    /// The OAuth sign-in whose token goes on every Streamable HTTP request
    /// (`auth: oauth`), if any.
    auth: Option<std::sync::Arc<crate::auth::layer::Session>>,
    opts: &'a ConnectOptions,
}

impl Remote<'_> {
    /// The HTTP client for every request to this server, on either
    /// transport: rustls, the definition's headers sent by default, and
    /// redirects followed only within the URL's origin (see
    /// [`crate::http_client`]), so those headers never reach another server.
    pub(super) fn http_client(&self) -> Result<reqwest::Client, ConnectError> {
        let mut builder = http_client::builder(Redirects::SameOrigin)
            .default_headers(header_map(self.server, &self.headers)?);
        if let Some(resolver) = &self.opts.dns_resolver {
            builder = builder.dns_resolver(resolver.clone());
        }
        builder.build().map_err(|e| ConnectError::Tls {
            server: self.server.to_string(),
            phase: Phase::Spawn,
            detail: chain(&e),
        })
    }

    /// A Streamable HTTP transport for the URL, over [`Remote::http_client`]
    /// with the OAuth layer in front (a pass-through without `auth: oauth`).
    pub(super) fn streamable(
        &self,
    ) -> Result<StreamableHttpClientTransport<AuthLayer>, ConnectError> {
        let config = StreamableHttpClientTransportConfig::with_uri(self.url.clone())
            .custom_headers(HashMap::new());
        Ok(StreamableHttpClientTransport::with_client(
            AuthLayer::new(self.http_client()?, self.auth.clone()),
            config,
        ))
    }

    /// GET the legacy SSE stream at the URL and wait for its `endpoint`
    /// event within `budget`; returns the stream and what is left.
    pub(super) async fn open_sse(
        &self,
        phase: Phase,
        budget: Budget,
    ) -> Result<(SseTransport, Duration), ConnectError> {
        let left = budget.left(self.server, phase)?;
        let sse = tokio::time::timeout(left, SseTransport::connect(self.http_client()?, &self.url))
            .await
            .map_err(|_| budget.timeout(self.server, phase))?
            .map_err(|e| failure::classify(self.server, phase, &self.url, &e))?;
        Ok((sse, budget.left(self.server, phase)?))
    }
}

fn header_map(
    server: &str,
    headers: &[(String, String)],
) -> Result<reqwest::header::HeaderMap, ConnectError> {
    let mut map = reqwest::header::HeaderMap::new();
    for (k, v) in headers {
        let bad = |what: &str| ConnectError::Transport {
            server: server.to_string(),
            phase: Phase::Spawn,
            detail: format!("invalid header {what} `{k}`"),
        };
        let name =
            reqwest::header::HeaderName::from_bytes(k.as_bytes()).map_err(|_| bad("name"))?;
        let value = reqwest::header::HeaderValue::from_str(v).map_err(|_| bad("value for"))?;
        map.insert(name, value);
    }
    Ok(map)
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
    budget: Budget,
) -> Result<ChildProcess, ConnectError> {
    let server = def.name.as_str();
    let spawned = spawned(def, opts, budget).await?;
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
        if Instant::now() >= budget.deadline {
            let stderr_tail = process.stderr_tail();
            process.shutdown(opts.kill_grace).await;
            return Err(failure::timeout_error(
                server,
                Phase::Spawn,
                budget.length,
                stderr_tail,
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
