//! The proxy's HTTP side, on hyper: each connection the server opens to
//! `127.0.0.1:`[`super::PORT`] is read as HTTP/1.1; `CONNECT host:port`
//! becomes a tunnel (HTTPS), a request for an absolute `http://` URL is
//! forwarded, and anything the profile does not allow is answered 403
//! and noted in the server's log with the host. Bounded throughout: the
//! request head, the time to send it, idle time, connections, tunnels.
//! Nothing that identifies the operator passes: `Proxy-Authorization`
//! and the other hop-by-hop headers are dropped both ways, and the
//! `Host` sent is the URL's own (so an allowed front cannot be asked for
//! another site by a forged `Host`).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Method, Request, Response, StatusCode, Uri};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::dial::{self, Refusal};
use super::relay;
use super::rules::{self, Allowed, Host};

/// Receives each line the proxy notes (the server's log).
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

type Body = BoxBody<Bytes, hyper::Error>;

/// Connections served at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 64;
/// `CONNECT` tunnels open at once; more are answered 503.
pub const MAX_TUNNELS: usize = 64;
/// The longest request head (hyper answers 431); the read buffer is
/// twice this.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// The most header lines in a request head (hyper answers 431).
pub const MAX_HEADERS: usize = 100;
/// Time to send a request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);
/// A connection or tunnel with no byte moving for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// What every connection of one proxy shares.
pub struct Shared {
    rules: Allowed,
    log: Log,
    cancel: CancellationToken,
    tunnels: Arc<Semaphore>,
}

impl Shared {
    /// The state of one proxy; `cancel` ends every task it started.
    pub fn new(rules: Allowed, log: Log, cancel: CancellationToken) -> Shared {
        Shared {
            rules,
            log,
            cancel,
            tunnels: Arc::new(Semaphore::new(MAX_TUNNELS)),
        }
    }

    fn note(&self, line: &str) {
        (self.log)(&format!("mcpctl sandbox: egress proxy {line}"));
    }

    /// Run `work` until it ends or the proxy is dropped.
    fn spawn(&self, work: impl Future<Output = ()> + Send + 'static) {
        let cancel = self.cancel.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = cancel.cancelled() => {}
                _ = work => {}
            }
        });
    }
}

/// Accept the server's connections until the proxy is dropped.
pub async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(permit) = connections.clone().acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of descriptors or a reset: pause rather than spin.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let task = serve_client(stream, shared.clone(), permit);
        shared.spawn(task);
    }
}

async fn serve_client(stream: TcpStream, shared: Arc<Shared>, _permit: OwnedSemaphorePermit) {
    let (io, activity) = relay::watched(stream);
    let service = hyper::service::service_fn(move |req| handle(req, shared.clone()));
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_header_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS)
        .max_buf_size(MAX_HEAD_BYTES * 2)
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::select! {
        _ = conn => {}
        _ = activity.expired(IDLE_TIMEOUT) => {}
    }
}

async fn handle(req: Request<Incoming>, shared: Arc<Shared>) -> Result<Response<Body>, Infallible> {
    let Some((host, port)) = destination(&req) else {
        return Ok(answer(
            StatusCode::BAD_REQUEST,
            "mcpctl's egress proxy takes CONNECT host:port, or an absolute http:// URL without credentials",
        ));
    };
    let what = format!(
        "{} {host}:{port}",
        crate::text::sanitize(req.method().as_str())
    );
    let permit = if req.method() == Method::CONNECT {
        match shared.tunnels.clone().try_acquire_owned() {
            Ok(permit) => Some(permit),
            Err(_) => {
                shared.note(&format!(
                    "refused {what}: {MAX_TUNNELS} tunnels already open (503)"
                ));
                return Ok(answer(StatusCode::SERVICE_UNAVAILABLE, "too many tunnels"));
            }
        }
    } else {
        None
    };
    let upstream = match dial::dial(&shared.rules, &host, port).await {
        Ok(stream) => stream,
        Err(Refusal::NotAllowed(why)) => {
            shared.note(&format!(
                "refused {what}: {why} (403; widen the profile's allow_host/allow_port to allow it)"
            ));
            return Ok(answer(
                StatusCode::FORBIDDEN,
                "refused by the sandbox profile",
            ));
        }
        Err(Refusal::Unreachable(detail)) => {
            shared.note(&format!(
                "could not reach {what}: {} (502)",
                crate::text::sanitize(&detail)
            ));
            return Ok(answer(
                StatusCode::BAD_GATEWAY,
                "the destination did not answer",
            ));
        }
    };
    Ok(match permit {
        Some(permit) => tunnel(req, upstream, permit, &shared),
        None => forward(req, upstream, &shared, &what).await,
    })
}

/// The host and port a request asks for: `CONNECT`'s authority, or an
/// absolute `http://` URL's (port 80 by default); `None` for anything
/// else, and for a URL carrying credentials.
fn destination(req: &Request<Incoming>) -> Option<(Host, u16)> {
    let uri = req.uri();
    let authority = uri.authority()?;
    if authority.as_str().contains('@') {
        return None;
    }
    let port = if req.method() == Method::CONNECT {
        authority.port_u16()?
    } else if uri.scheme() == Some(&http::uri::Scheme::HTTP) {
        authority.port_u16().unwrap_or(80)
    } else {
        return None;
    };
    Some((rules::parse_host(authority.host())?, port))
}

/// Answer 200 and, once hyper hands the connection over, relay bytes.
fn tunnel(
    mut req: Request<Incoming>,
    upstream: TcpStream,
    permit: OwnedSemaphorePermit,
    shared: &Shared,
) -> Response<Body> {
    let upgrade = hyper::upgrade::on(&mut req);
    shared.spawn(async move {
        let _permit = permit;
        if let Ok(upgraded) = upgrade.await {
            relay::tunnel(TokioIo::new(upgraded), upstream, IDLE_TIMEOUT).await;
        }
    });
    Response::new(empty())
}

/// Send the request on to the destination in origin form and stream the
/// answer back.
async fn forward(
    req: Request<Incoming>,
    upstream: TcpStream,
    shared: &Shared,
    what: &str,
) -> Response<Body> {
    let (io, activity) = relay::watched(upstream);
    let (mut sender, conn) = match hyper::client::conn::http1::handshake(TokioIo::new(io)).await {
        Ok(pair) => pair,
        Err(_) => return answer(StatusCode::BAD_GATEWAY, "the destination did not answer"),
    };
    shared.spawn(async move {
        tokio::select! {
            _ = conn => {}
            _ = activity.expired(IDLE_TIMEOUT) => {}
        }
    });
    match sender.send_request(origin_form(req)).await {
        Ok(response) => {
            let (mut parts, body) = response.into_parts();
            strip_hop_by_hop(&mut parts.headers);
            Response::from_parts(parts, body.boxed())
        }
        Err(e) => {
            let detail = crate::text::sanitize(&e.to_string()).into_owned();
            shared.note(&format!("could not forward {what}: {detail} (502)"));
            answer(StatusCode::BAD_GATEWAY, "the destination did not answer")
        }
    }
}

/// The request as the destination should see it: `GET /path?q`, the
/// URL's own `Host`, no hop-by-hop or proxy header.
fn origin_form(req: Request<Incoming>) -> Request<Incoming> {
    let (mut parts, body) = req.into_parts();
    let host = parts
        .uri
        .authority()
        .and_then(|a| HeaderValue::from_str(a.as_str()).ok());
    parts.uri = parts
        .uri
        .path_and_query()
        .and_then(|pq| pq.as_str().parse::<Uri>().ok())
        .filter(|uri| uri.path().starts_with('/'))
        .unwrap_or_else(|| Uri::from_static("/"));
    strip_hop_by_hop(&mut parts.headers);
    parts.headers.remove(header::HOST);
    if let Some(host) = host {
        parts.headers.insert(header::HOST, host);
    }
    parts.version = http::Version::HTTP_11;
    Request::from_parts(parts, body)
}

/// Drop the headers meant for this hop only (RFC 9110 7.6.1), those the
/// `Connection` header names, and the proxy's credentials.
fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in [
        header::CONNECTION,
        header::PROXY_AUTHORIZATION,
        header::PROXY_AUTHENTICATE,
        header::TE,
        header::TRAILER,
        header::TRANSFER_ENCODING,
        header::UPGRADE,
    ] {
        headers.remove(name);
    }
    for name in ["proxy-connection", "keep-alive"] {
        headers.remove(name);
    }
}

fn empty() -> Body {
    Full::new(Bytes::new())
        .map_err(|never| match never {})
        .boxed()
}

fn answer(status: StatusCode, text: &str) -> Response<Body> {
    let body = Full::new(Bytes::from(format!("{text}\n")))
        .map_err(|never| match never {})
        .boxed();
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
