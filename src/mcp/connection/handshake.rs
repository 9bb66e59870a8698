//! The handshake on an opened transport, and the fallbacks between
//! protocol eras: `initialize` offering 2025-11-25 first, the stateless
//! `server/discover` (2026-07-28) only when a server rejects that (never
//! probe first: some stdio servers exit on an unknown first message), and
//! for a URL whose transport the file does not name, the spec's
//! backwards-compatibility procedure from Streamable HTTP to legacy SSE.

use std::time::{Duration, Instant};

use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::IntoTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient};

use super::failure::{self, init_error, stdio_failure};
use super::transport::{self, Link, Remote, Stdio};
use super::{Budget, ConnectOptions, Connection, within};
use crate::defs::{ServerDef, Transport};
use crate::mcp::client::{McpClient, OFFERED_VERSION, STATELESS_VERSION, SUPPORTED_VERSIONS};
use crate::mcp::error::{ConnectError, Phase};
use crate::mcp::in_order::ProgressInOrder;
use crate::mcp::stdout_tap::TapState;

/// Connect to `def` in the era its file names, or in whichever era
/// answers when it names none.
pub(super) async fn connect(
    def: &ServerDef,
    opts: &ConnectOptions,
    budget: Budget,
) -> Result<Connection, ConnectError> {
    // Each attempt is boxed: its future (a whole rmcp handshake) is too big
    // to build on a 2 MiB tokio worker stack in a debug build.
    if let Some(version) = def.protocol.as_deref() {
        return Box::pin(attempt(def, opts, budget, Era(version)))
            .await
            .map_err(|e| e.error);
    }
    match Box::pin(attempt(def, opts, budget, Era(OFFERED_VERSION))).await {
        Ok(conn) => Ok(conn),
        // A server that speaks only the stateless protocol rejects the
        // handshake; only then try `server/discover`.
        Err(first) if first.rejected_initialize => {
            match Box::pin(attempt(def, opts, budget, Era(STATELESS_VERSION))).await {
                Ok(conn) => Ok(conn),
                Err(second) if matches!(second.error, ConnectError::JsonRpc { .. }) => {
                    Err(first.error)
                }
                Err(second) => Err(second.error),
            }
        }
        Err(first) => Err(first.error),
    }
}

/// One protocol era, named by the version offered in it.
#[derive(Clone, Copy)]
struct Era<'a>(&'a str);

impl Era<'_> {
    fn stateless(self) -> bool {
        self.0 == STATELESS_VERSION
    }

    fn phase(self) -> Phase {
        if self.stateless() {
            Phase::Discover
        } else {
            Phase::Initialize
        }
    }

    fn lifecycle(self) -> ClientLifecycleMode {
        if self.stateless() {
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            }
        } else {
            ClientLifecycleMode::Initialize
        }
    }

    /// mcpctl's side of the handshake.
    fn client(self, opts: &ConnectOptions) -> McpClient {
        McpClient::new(self.0)
            .with_tools_changed(opts.on_tools_changed.clone())
            .with_router(opts.router.clone())
    }

    /// True when `err` is the server rejecting `initialize` itself: the
    /// trigger for the stateless fallback.
    fn rejected(self, err: &ClientInitializeError) -> bool {
        matches!(err, ClientInitializeError::JsonRpcError(_)) && !self.stateless()
    }
}

/// What went wrong in one attempt, plus whether the server rejected
/// `initialize` itself.
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

type Session = RunningService<RoleClient, McpClient>;

/// Open the transport, run the handshake in `era`, check the version.
async fn attempt(
    def: &ServerDef,
    opts: &ConnectOptions,
    budget: Budget,
    era: Era<'_>,
) -> Result<Connection, AttemptError> {
    let server = def.name.as_str();
    let started = Instant::now();
    let link = transport::open(def, opts, budget).await?;
    let spawn_time = started.elapsed();
    let started = Instant::now();
    let mut conn = match link {
        Link::Stdio(stdio) => over_stdio(server, stdio, opts, budget, era).await?,
        Link::Remote(remote) => over_http(remote, opts, budget, era).await?,
    };
    conn.spawn_time = spawn_time;
    conn.handshake_time = started.elapsed();
    if let Some(err) = conn
        .tap
        .as_ref()
        .and_then(|t| t.failure(server, era.phase()))
    {
        conn.close().await;
        return Err(err.into());
    }
    check_version(&mut conn, era).await?;
    Ok(conn)
}

/// Run `client`'s handshake on `transport` within `left` (and, for a
/// stdio server, only while its stdout stays usable). Progress is routed
/// as it is read (see [`ProgressInOrder`]).
async fn serve<T, E, A>(
    client: McpClient,
    transport: T,
    era: Era<'_>,
    left: Duration,
    tap: Option<&TapState>,
) -> Result<Result<Session, ClientInitializeError>, ()>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let transport = ProgressInOrder::new(transport.into_transport(), client.router());
    within(
        tap,
        left,
        client.serve_with_lifecycle(transport, era.lifecycle()),
    )
    .await
}

async fn over_stdio(
    server: &str,
    stdio: Stdio,
    opts: &ConnectOptions,
    budget: Budget,
    era: Era<'_>,
) -> Result<Connection, AttemptError> {
    let Stdio {
        mut process,
        tap,
        transport,
    } = stdio;
    let phase = era.phase();
    let served = match budget.left(server, phase) {
        Ok(left) => serve(era.client(opts), transport, era, left, Some(&*tap)).await,
        Err(e) => {
            process.shutdown(opts.kill_grace).await;
            return Err(e.into());
        }
    };
    let failed = match served {
        Ok(Ok(service)) => {
            let mut conn =
                Connection::new(server, Transport::Stdio, service, era.stateless(), opts);
            conn.child = Some(process);
            conn.tap = Some(tap);
            return Ok(conn);
        }
        // A rejection is an answer, not a crash: report it as is.
        Ok(Err(err)) if era.rejected(&err) => AttemptError {
            error: init_error(server, phase, None, &err),
            rejected_initialize: true,
        },
        Ok(Err(err)) => {
            let named = init_error(server, phase, None, &err);
            stdio_failure(server, phase, &mut process, &tap, named)
                .await
                .into()
        }
        Err(()) => {
            let timeout =
                failure::timeout_error(server, phase, budget.length, process.stderr_tail());
            stdio_failure(server, phase, &mut process, &tap, timeout)
                .await
                .into()
        }
    };
    process.shutdown(opts.kill_grace).await;
    Err(failed)
}

async fn over_http(
    mut remote: Remote<'_>,
    opts: &ConnectOptions,
    budget: Budget,
    era: Era<'_>,
) -> Result<Connection, AttemptError> {
    let local = remote.local.take();
    match serve_http(&remote, opts, budget, era).await {
        Ok((service, answered)) => {
            let mut conn = Connection::new(remote.server, answered, service, era.stateless(), opts);
            conn.url = Some(remote.url);
            conn.child = local;
            Ok(conn)
        }
        Err(e) => {
            if let Some(process) = local {
                process.shutdown(opts.kill_grace).await;
            }
            Err(e)
        }
    }
}

/// The handshake over the transport the file names; for a URL without
/// one, a 400, 404 or 405 to the initialize POST means an older server:
/// open its SSE stream, wait for `endpoint`, and handshake there.
/// Returns the session and the transport that answered.
async fn serve_http(
    remote: &Remote<'_>,
    opts: &ConnectOptions,
    budget: Budget,
    era: Era<'_>,
) -> Result<(Session, Transport), AttemptError> {
    let (server, phase) = (remote.server, era.phase());
    let left = budget.left(server, phase)?;
    let client = era.client(opts);
    let (served, answered) = match remote.transport {
        Transport::Sse => {
            let (sse, left) = remote.open_sse(phase, budget).await?;
            (serve(client, sse, era, left, None).await, Transport::Sse)
        }
        answered => match serve(client.clone(), remote.streamable()?, era, left, None).await {
            Ok(Err(ClientInitializeError::TransportError { error, .. }))
                if remote.inferred
                    && failure::status_of(&error).is_some_and(|s| [400, 404, 405].contains(&s)) =>
            {
                match remote.open_sse(phase, budget).await {
                    Ok((sse, left)) => (serve(client, sse, era, left, None).await, Transport::Sse),
                    // Neither answered: the POST's refusal says more.
                    Err(_) => {
                        return Err(failure::classify(server, phase, &remote.url, &error).into());
                    }
                }
            }
            other => (other, answered),
        },
    };
    match served {
        Ok(Ok(service)) => Ok((service, answered)),
        Ok(Err(err)) => Err(AttemptError {
            rejected_initialize: era.rejected(&err),
            error: init_error(server, phase, Some(remote.url.as_str()), &err),
        }),
        Err(()) => Err(budget.timeout(server, phase).into()),
    }
}

/// Refuse (and close) a session whose negotiated version mcpctl does not
/// speak in `era`.
async fn check_version(conn: &mut Connection, era: Era<'_>) -> Result<(), ConnectError> {
    let answered = conn.protocol_version();
    let ok = if era.stateless() {
        answered == STATELESS_VERSION
    } else {
        SUPPORTED_VERSIONS.contains(&answered.as_str())
    };
    if ok {
        return Ok(());
    }
    let err = ConnectError::ProtocolMismatch {
        server: conn.server.clone(),
        phase: era.phase(),
        offered: era.0.into(),
        answered,
    };
    conn.close().await;
    Err(err)
}
