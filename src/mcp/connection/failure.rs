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

/// Turn a transport error (from rmcp's HTTP transport, our SSE transport or
/// reqwest) into the specific [`ConnectError`] an operator can act on.
pub(super) fn classify(
    server: &str,
    phase: Phase,
    url: &str,
    err: &(dyn std::error::Error + 'static),
) -> ConnectError {
    let server_s = server.to_string();
    if let Some(oauth) = crate::auth::layer::oauth_error_in(err) {
        return ConnectError::OAuth {
            server: server_s,
            phase,
            message: oauth.to_string(),
            hint: crate::error::Diagnostic::hint(oauth).unwrap_or_default(),
        };
    }
    if let Some(refused) = RedirectRefused::find(err) {
        return ConnectError::Redirect {
            server: server_s,
            phase,
            refused: refused.clone(),
        };
    }
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(http) = e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            // `Client` does not expose its reqwest error as `source()`.
            if let StreamableHttpError::Client(inner) = http {
                return classify(server, phase, url, inner);
            }
            if let Some(status @ (401 | 403)) = http_status(http) {
                return ConnectError::AuthRequired {
                    server: server_s,
                    phase,
                    status,
                    challenge: challenge(http),
                };
            }
            match http {
                StreamableHttpError::UnexpectedContentType(ct) => {
                    let ct = ct.clone().unwrap_or_else(|| "no content type".into());
                    if looks_like_html(&ct) {
                        return ConnectError::WebPage {
                            server: server_s,
                            phase,
                            url: url.into(),
                            content_type: ct,
                        };
                    }
                    return ConnectError::Http {
                        server: server_s,
                        phase,
                        detail: format!(
                            "unexpected content type {ct} (not JSON or an event stream)"
                        ),
                    };
                }
                StreamableHttpError::UnexpectedServerResponse(msg) => {
                    if let Some(status @ (404 | 405)) = leading_status(msg)
                        && looks_like_sse_endpoint(url)
                    {
                        return ConnectError::LegacySse {
                            server: server_s,
                            phase,
                            url: url.into(),
                            status,
                        };
                    }
                    if looks_like_html(msg) {
                        return ConnectError::WebPage {
                            server: server_s,
                            phase,
                            url: url.into(),
                            content_type: "text/html".into(),
                        };
                    }
                    return ConnectError::Http {
                        server: server_s,
                        phase,
                        detail: crate::text::truncate(msg, 300),
                    };
                }
                StreamableHttpError::HttpStatus(status) => {
                    return ConnectError::Http {
                        server: server_s,
                        phase,
                        detail: format!("HTTP {}", status.status),
                    };
                }
                _ => {}
            }
        }
        if let Some(sse) = e.downcast_ref::<crate::mcp::sse::SseError>()
            && let Some(found) = sse.classify(server, phase, url)
        {
            return found;
        }
        if e.downcast_ref::<rustls::Error>().is_some() {
            return ConnectError::Tls {
                server: server_s,
                phase,
                detail: e.to_string(),
            };
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::ConnectionRefused
        {
            return ConnectError::ConnectionRefused {
                server: server_s,
                phase,
                url: url.into(),
            };
        }
        // io::Error's `source()` skips the error it wraps; look inside.
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && let Some(inner) = io.get_ref()
            && inner.downcast_ref::<rustls::Error>().is_some()
        {
            return ConnectError::Tls {
                server: server_s,
                phase,
                detail: inner.to_string(),
            };
        }
        current = e.source();
    }
    let detail = chain(err);
    let lower = detail.to_ascii_lowercase();
    if lower.contains("dns error")
        || lower.contains("failed to lookup address")
        || lower.contains("name or service not known")
    {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default();
        return ConnectError::Dns {
            server: server_s,
            phase,
            host,
            detail,
        };
    }
    if lower.contains("connection refused") {
        return ConnectError::ConnectionRefused {
            server: server_s,
            phase,
            url: url.into(),
        };
    }
    if [
        "tls",
        "certificate",
        "handshake",
        "corrupt message",
        "invalidcontenttype",
        "alert",
    ]
    .iter()
    .any(|needle| lower.contains(needle))
    {
        return ConnectError::Tls {
            server: server_s,
            phase,
            detail,
        };
    }
    ConnectError::Transport {
        server: server_s,
        phase,
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
