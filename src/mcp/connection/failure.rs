//! Naming failures: every rmcp, HTTP and process error a connection meets
//! becomes the one [`ConnectError`] an operator can act on, with its phase.
//!
//! HTTP failures have one classifier whichever transport hit them
//! (Streamable HTTP through rmcp's reqwest transport, legacy SSE through
//! [`crate::mcp::sse`]), so "connection refused", "TLS", "web page" and
//! "401" read the same; a status is read from an error in one place
//! ([`http_status`]). A stdio server's failure prefers the root cause (the
//! process exited, or printed garbage) over what the client saw.

use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::ProtocolVersion;
use rmcp::service::ClientInitializeError;
use rmcp::transport::streamable_http_client::StreamableHttpError;

use super::Connection;
use crate::error::chain;
use crate::http_client::RedirectRefused;
use crate::mcp::child::{self, ChildProcess};
use crate::mcp::error::{ConnectError, Phase};
use crate::mcp::stdout_tap::TapState;

fn looks_like_html(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("text/html") || lower.contains("<!doctype html") || lower.contains("<html")
}

/// The HTTP status of a refused Streamable HTTP request, when the error
/// carries one: what the spec's backwards-compatibility procedure looks at
/// (400, 404 or 405 to the initialize POST means an older, SSE-only server).
pub(super) fn status_of(err: &(dyn std::error::Error + 'static)) -> Option<u16> {
    let mut current = Some(err);
    while let Some(e) = current {
        if let Some(http) = e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            return http_status(http);
        }
        current = e.source();
    }
    None
}

/// The status an rmcp HTTP error carries, in whichever of its shapes.
fn http_status(http: &StreamableHttpError<reqwest::Error>) -> Option<u16> {
    match http {
        StreamableHttpError::HttpStatus(status) => Some(status.status),
        StreamableHttpError::UnexpectedServerResponse(msg) => leading_status(msg),
        StreamableHttpError::Client(inner) => inner.status().map(|s| s.as_u16()),
        StreamableHttpError::AuthRequired(_) => Some(401),
        StreamableHttpError::InsufficientScope(_) => Some(403),
        _ => None,
    }
}

/// The `WWW-Authenticate` challenge of a 401 or 403, when the server sent one.
fn challenge(http: &StreamableHttpError<reqwest::Error>) -> Option<String> {
    match http {
        StreamableHttpError::AuthRequired(a) => Some(a.www_authenticate_header.clone()),
        StreamableHttpError::InsufficientScope(a) => Some(a.www_authenticate_header.clone()),
        _ => None,
    }
}

/// The status in rmcp's `HTTP 404 Not Found: …` message.
fn leading_status(message: &str) -> Option<u16> {
    let rest = message.strip_prefix("HTTP ")?;
    rest.get(..3)?.parse().ok()
}

/// True when `url`'s path ends in `/sse`, the legacy transport's usual
/// endpoint: a 404 or 405 there means the wrong transport, not the wrong URL.
fn looks_like_sse_endpoint(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.path().trim_end_matches('/').ends_with("/sse"))
}

/// Words in an error chain that mean the host name did not resolve.
const DNS_WORDS: &[&str] = &[
    "dns error",
    "failed to lookup address",
    "name or service not known",
];

/// Words in an error chain that mean TLS failed, when no typed rustls error
/// was found in it.
const TLS_WORDS: &[&str] = &[
    "tls",
    "certificate",
    "handshake",
    "corrupt message",
    "invalidcontenttype",
    "alert",
];

/// Where a transport failure happened: the server, phase and URL every
/// [`ConnectError`] that [`classify`] builds names.
#[derive(Clone, Copy)]
struct At<'a> {
    server: &'a str,
    phase: Phase,
    url: &'a str,
}

impl At<'_> {
    fn web_page(self, content_type: String) -> ConnectError {
        ConnectError::WebPage {
            server: self.server.into(),
            phase: self.phase,
            url: self.url.into(),
            content_type,
        }
    }

    fn http(self, detail: String) -> ConnectError {
        ConnectError::Http {
            server: self.server.into(),
            phase: self.phase,
            detail,
        }
    }

    fn tls(self, detail: String) -> ConnectError {
        ConnectError::Tls {
            server: self.server.into(),
            phase: self.phase,
            detail,
        }
    }

    fn connection_refused(self) -> ConnectError {
        ConnectError::ConnectionRefused {
            server: self.server.into(),
            phase: self.phase,
            url: self.url.into(),
        }
    }
}

/// Turn a transport error (from rmcp's HTTP transport, our SSE transport or
/// reqwest) into the specific [`ConnectError`] an operator can act on: what
/// our own layers refused first, then the first link of the `source()` chain
/// that names a cause, then the chain's words.
pub(super) fn classify(
    server: &str,
    phase: Phase,
    url: &str,
    err: &(dyn std::error::Error + 'static),
) -> ConnectError {
    let at = At { server, phase, url };
    if let Some(found) = refused_by_our_layers(at, err) {
        return found;
    }
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(found) = classify_link(at, e) {
            return found;
        }
        current = e.source();
    }
    classify_by_words(at, err)
}

/// A failure mcpctl's own layers raised anywhere in the chain: the OAuth
/// layer could not get a token, or a redirect was refused.
fn refused_by_our_layers(
    at: At<'_>,
    err: &(dyn std::error::Error + 'static),
) -> Option<ConnectError> {
    if let Some(oauth) = crate::auth::layer::oauth_error_in(err) {
        return Some(ConnectError::OAuth {
            server: at.server.into(),
            phase: at.phase,
            message: oauth.to_string(),
            hint: crate::error::Diagnostic::hint(oauth).unwrap_or_default(),
        });
    }
    RedirectRefused::find(err).map(|refused| ConnectError::Redirect {
        server: at.server.into(),
        phase: at.phase,
        refused: refused.clone(),
    })
}

/// One link of an error chain, when its type names the cause: an rmcp HTTP
/// error, our SSE transport's error, rustls, or a refused TCP connection.
fn classify_link(at: At<'_>, e: &(dyn std::error::Error + 'static)) -> Option<ConnectError> {
    if let Some(http) = e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        // `Client` does not expose its reqwest error as `source()`.
        if let StreamableHttpError::Client(inner) = http {
            return Some(classify(at.server, at.phase, at.url, inner));
        }
        if let Some(found) = classify_http(at, http) {
            return Some(found);
        }
    }
    if let Some(sse) = e.downcast_ref::<crate::mcp::sse::SseError>()
        && let Some(found) = sse.classify(at.server, at.phase, at.url)
    {
        return Some(found);
    }
    if e.downcast_ref::<rustls::Error>().is_some() {
        return Some(at.tls(e.to_string()));
    }
    let io = e.downcast_ref::<std::io::Error>()?;
    if io.kind() == std::io::ErrorKind::ConnectionRefused {
        return Some(at.connection_refused());
    }
    // io::Error's `source()` skips the error it wraps; look inside.
    let inner = io.get_ref()?;
    inner
        .downcast_ref::<rustls::Error>()
        .map(|_| at.tls(inner.to_string()))
}

/// An rmcp HTTP error that names its cause: a 401 or 403, an answer that
/// is not MCP (a web page, another content type), or a bare status.
fn classify_http(at: At<'_>, http: &StreamableHttpError<reqwest::Error>) -> Option<ConnectError> {
    if let Some(status @ (401 | 403)) = http_status(http) {
        return Some(ConnectError::AuthRequired {
            server: at.server.into(),
            phase: at.phase,
            status,
            challenge: challenge(http),
        });
    }
    match http {
        StreamableHttpError::UnexpectedContentType(ct) => {
            let ct = ct.clone().unwrap_or_else(|| "no content type".into());
            Some(if looks_like_html(&ct) {
                at.web_page(ct)
            } else {
                at.http(format!(
                    "unexpected content type {ct} (not JSON or an event stream)"
                ))
            })
        }
        StreamableHttpError::UnexpectedServerResponse(msg) => Some(unexpected_response(at, msg)),
        StreamableHttpError::HttpStatus(status) => Some(at.http(format!("HTTP {}", status.status))),
        _ => None,
    }
}

/// rmcp's `HTTP 404 Not Found: …` message: a legacy SSE endpoint, a web
/// page, or a plain HTTP failure.
fn unexpected_response(at: At<'_>, msg: &str) -> ConnectError {
    if let Some(status @ (404 | 405)) = leading_status(msg)
        && looks_like_sse_endpoint(at.url)
    {
        return ConnectError::LegacySse {
            server: at.server.into(),
            phase: at.phase,
            url: at.url.into(),
            status,
        };
    }
    if looks_like_html(msg) {
        return at.web_page("text/html".into());
    }
    at.http(crate::text::truncate(msg, 300))
}

/// A chain no link of which named its cause, read from its words: DNS,
/// refused, TLS, or any other transport failure.
fn classify_by_words(at: At<'_>, err: &(dyn std::error::Error + 'static)) -> ConnectError {
    let detail = chain(err);
    let lower = detail.to_ascii_lowercase();
    if DNS_WORDS.iter().any(|needle| lower.contains(needle)) {
        let host = url::Url::parse(at.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default();
        return ConnectError::Dns {
            server: at.server.into(),
            phase: at.phase,
            host,
            detail,
        };
    }
    if lower.contains("connection refused") {
        return at.connection_refused();
    }
    if TLS_WORDS.iter().any(|needle| lower.contains(needle)) {
        return at.tls(detail);
    }
    ConnectError::Transport {
        server: at.server.into(),
        phase: at.phase,
        detail,
    }
}

/// Name a failed handshake; `url` is set for remote servers, whose
/// transport errors go through [`classify`].
pub(super) fn init_error(
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
        ClientInitializeError::TransportError { error, .. } => {
            transport_error(server, phase, url, error)
        }
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

impl Connection {
    /// Turn a request failure into a [`ConnectError`], looking at the child
    /// (did it exit? print garbage?) or at the HTTP error chain; redacted.
    pub(super) async fn request_error(&mut self, phase: Phase, err: ServiceError) -> ConnectError {
        let server = self.server.as_str();
        let fallback = match &err {
            // The server's answer: final as it is.
            ServiceError::McpError(data) => {
                let answer = ConnectError::JsonRpc {
                    server: server.into(),
                    phase,
                    code: data.code.0,
                    message: data.message.to_string(),
                };
                return answer.redacted(&self.redactor);
            }
            ServiceError::Timeout { timeout } => {
                timeout_error(server, phase, *timeout, self.stderr_tail())
            }
            ServiceError::TransportSend(e) => {
                transport_error(server, phase, self.url.as_deref(), e)
            }
            other => ConnectError::Transport {
                server: server.into(),
                phase,
                detail: other.to_string(),
            },
        };
        self.root_cause(phase, fallback).await
    }

    /// `budget` ran out in `phase` (or the stdio server broke first); redacted.
    pub(super) async fn timed_out(&mut self, phase: Phase, budget: Duration) -> ConnectError {
        let fallback = timeout_error(&self.server, phase, budget, self.stderr_tail());
        self.root_cause(phase, fallback).await
    }

    /// `fallback`, or for a stdio server the root cause it hides (see
    /// [`stdio_failure`]); redacted.
    async fn root_cause(&mut self, phase: Phase, fallback: ConnectError) -> ConnectError {
        let err = match (self.child.as_mut(), self.tap.as_ref()) {
            (Some(child), Some(tap)) => {
                stdio_failure(&self.server, phase, child, tap, fallback).await
            }
            _ => fallback,
        };
        err.redacted(&self.redactor)
    }
}

/// A transport's error: classified as HTTP for a remote server.
fn transport_error(
    server: &str,
    phase: Phase,
    url: Option<&str>,
    error: &(dyn std::error::Error + 'static),
) -> ConnectError {
    match url {
        Some(url) => classify(server, phase, url, error),
        None => ConnectError::Transport {
            server: server.into(),
            phase,
            detail: chain(error),
        },
    }
}

/// The budget ran out in `phase`.
pub(super) fn timeout_error(
    server: &str,
    phase: Phase,
    budget: Duration,
    stderr_tail: Vec<String>,
) -> ConnectError {
    ConnectError::Timeout {
        server: server.into(),
        phase,
        budget,
        stderr_tail,
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
pub(super) async fn stdio_failure(
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
