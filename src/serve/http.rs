//! `serve --http`: Streamable HTTP at `/mcp` with rmcp's server side, which
//! keeps sessions for 2025-11-25 clients and serves the stateless
//! 2026-07-28 lifecycle (`server/discover`) on the same endpoint.
//!
//! In front of it, two rules: a request whose `Origin` is not loopback
//! gets 403 (DNS rebinding), and one without the right bearer token gets
//! 401. TLS is out of scope: bind to loopback, or put a TLS proxy in front
//! with `--allow-remote`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::ServeError;
use super::handler::Gateway;
use super::shared::Shared;

/// The address `--http` binds without a value.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8765";

/// True for `localhost` (and its subdomains), 127.0.0.0/8 and ::1.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.eq_ignore_ascii_case("localhost") || host.to_ascii_lowercase().ends_with(".localhost") {
        return true;
    }
    host.parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_loopback())
}

/// Whether a request with this `Origin` may talk to us: only loopback
/// origins; any other host, `null` and unparsable values are refused.
fn origin_allowed(origin: &str) -> bool {
    match url::Url::parse(origin) {
        Ok(url) => url.host_str().is_some_and(is_loopback_host),
        Err(_) => false,
    }
}

fn plain(status: u16, www_authenticate: bool, text: &str) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .header("content-type", "text/plain; charset=utf-8");
    if www_authenticate {
        builder = builder.header("www-authenticate", r#"Bearer realm="mcpctl""#);
    }
    builder
        .body(axum::body::Body::from(text.to_string()))
        .unwrap_or_default()
}

/// `listener` with Nagle's algorithm off on every accepted connection.
/// A reply goes out as a head and then its body's events; with Nagle on,
/// each write after the first waits for the client to acknowledge the one
/// before, and a client with nothing to send delays that acknowledgement
/// (40 ms on Linux): every call of a keep-alive client stalled that long.
fn no_delay(
    listener: tokio::net::TcpListener,
) -> axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)> {
    use axum::serve::ListenerExt;
    listener.tap_io(|tcp| {
        // Only a speed matter: a socket that refuses still serves.
        let _ = tcp.set_nodelay(true);
    })
}

/// Serve until the supervisor goes (`Ok(false)`) or the listener fails.
pub async fn run(
    shared: Arc<Shared>,
    addr: SocketAddr,
    token: String,
    allow_remote: bool,
) -> Result<bool, ServeError> {
    let cancel = tokio_util::sync::CancellationToken::new();
    let mcp = mcp_service(shared.clone(), allow_remote, cancel.clone());
    let token = Arc::new(token);
    let guard = move |req: Request, next: Next| {
        let token = token.clone();
        async move {
            match refusal(&req, &token) {
                Some(refused) => refused,
                None => next.run(req).await,
            }
        }
    };
    let app = axum::Router::new()
        .nest_service("/mcp", mcp)
        .layer(axum::middleware::from_fn(super::whole::replies))
        .layer(axum::middleware::from_fn(guard));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| ServeError::Failed(format!("cannot listen on {addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError::Failed(e.to_string()))?;
    crate::output::note(format!("serving on http://{local}/mcp"));
    let watcher = tokio::spawn(super::watch(shared));
    let stop = cancel.clone();
    let server = axum::serve(no_delay(listener), app).with_graceful_shutdown(async move {
        stop.cancelled().await;
    });
    tokio::select! {
        r = server => {
            r.map_err(|e| ServeError::Failed(e.to_string()))?;
            Ok(true)
        }
        _ = watcher => {
            cancel.cancel();
            Ok(false)
        }
    }
}

/// The Streamable HTTP endpoint: one [`Gateway`] per session (numbered
/// for the audit log), ended by `cancel`; any Host header is accepted
/// only with `allow_remote`.
fn mcp_service(
    shared: Arc<Shared>,
    allow_remote: bool,
    cancel: tokio_util::sync::CancellationToken,
) -> StreamableHttpService<Gateway, LocalSessionManager> {
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_cancellation_token(cancel);
    if allow_remote {
        config = config.disable_allowed_hosts();
    }
    let sessions = Arc::new(AtomicU64::new(0));
    StreamableHttpService::new(
        move || {
            let n = sessions.fetch_add(1, Ordering::Relaxed) + 1;
            Ok(Gateway::new(shared.clone(), format!("http-{n}")))
        },
        Arc::new(LocalSessionManager::default()),
        config,
    )
}

/// The answer to a request that may not reach the endpoint: an Origin
/// that is not loopback (403), or no bearer `token` (401); `None` lets
/// it through.
fn refusal(req: &Request, token: &str) -> Option<Response> {
    if let Some(origin) = req.headers().get("origin")
        && !origin.to_str().is_ok_and(origin_allowed)
    {
        return Some(plain(403, false, "forbidden: the Origin is not loopback\n"));
    }
    let given = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        });
    match given {
        Some(given) if super::token::matches(token, given.trim()) => None,
        _ => Some(plain(
            401,
            true,
            "unauthorized: send `Authorization: Bearer <token>` (mcpctl serve --print-token)\n",
        )),
    }
}
