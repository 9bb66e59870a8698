//! Remote servers: the HTTP client and naming HTTP failures.
//!
//! Streamable HTTP goes through rmcp's reqwest transport; legacy SSE through
//! [`super::sse`]. Both share one reqwest client configuration and one error
//! classifier, so "connection refused", "TLS", "web page" and "401" read the
//! same whichever transport hit them.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};

use super::error::{ConnectError, Phase};
use crate::defs::vars;
use crate::error::chain;
use crate::http_client::{self, RedirectRefused, Redirects};

/// The URL and headers of a remote definition, `${VAR}`s expanded.
pub fn expand_remote(
    server: &str,
    url: &str,
    headers: &indexmap::IndexMap<String, String>,
) -> Result<(String, Vec<(String, String)>), ConnectError> {
    let url = vars::expand(server, url)?;
    let headers = headers
        .iter()
        .map(|(k, v)| Ok((k.clone(), vars::expand(server, v)?)))
        .collect::<Result<Vec<_>, ConnectError>>()?;
    Ok((url, headers))
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

/// A reqwest client for MCP traffic: rustls, the definition's headers sent
/// by default, and redirects followed only within the URL's origin (see
/// [`crate::http_client`]), so those headers never reach another server.
pub fn client(
    server: &str,
    headers: &[(String, String)],
    resolver: Option<&Arc<dyn reqwest::dns::Resolve>>,
) -> Result<reqwest::Client, ConnectError> {
    let mut builder =
        http_client::builder(Redirects::SameOrigin).default_headers(header_map(server, headers)?);
    if let Some(resolver) = resolver {
        builder = builder.dns_resolver(resolver.clone());
    }
    builder.build().map_err(|e| ConnectError::Tls {
        server: server.to_string(),
        phase: Phase::Spawn,
        detail: chain(&e),
    })
}

/// A Streamable HTTP transport for `url` with the given headers.
pub fn streamable_transport(
    server: &str,
    url: &str,
    headers: &[(String, String)],
    resolver: Option<&Arc<dyn reqwest::dns::Resolve>>,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, ConnectError> {
    let client = client(server, headers, resolver)?;
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_string())
        .custom_headers(HashMap::new());
    Ok(StreamableHttpClientTransport::with_client(client, config))
}

fn looks_like_html(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("text/html") || lower.contains("<!doctype html") || lower.contains("<html")
}

/// Turn a transport error (from rmcp's HTTP transport, our SSE transport or
/// reqwest) into the specific [`ConnectError`] an operator can act on.
/// The HTTP status of a refused Streamable HTTP request, when the error
/// carries one: what the spec's backwards-compatibility procedure looks at
/// (400, 404 or 405 to the initialize POST means an older, SSE-only server).
pub fn status_of(err: &(dyn std::error::Error + 'static)) -> Option<u16> {
    let mut current = Some(err);
    while let Some(e) = current {
        if let Some(http) = e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            match http {
                StreamableHttpError::HttpStatus(status) => return Some(status.status),
                StreamableHttpError::UnexpectedServerResponse(msg) => return leading_status(msg),
                StreamableHttpError::Client(inner) => return inner.status().map(|s| s.as_u16()),
                _ => {}
            }
        }
        current = e.source();
    }
    None
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

pub fn classify(
    server: &str,
    phase: Phase,
    url: &str,
    err: &(dyn std::error::Error + 'static),
) -> ConnectError {
    let server_s = server.to_string();
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
            match http {
                StreamableHttpError::AuthRequired(a) => {
                    return ConnectError::AuthRequired {
                        server: server_s,
                        phase,
                        status: 401,
                        challenge: Some(a.www_authenticate_header.clone()),
                    };
                }
                StreamableHttpError::InsufficientScope(a) => {
                    return ConnectError::AuthRequired {
                        server: server_s,
                        phase,
                        status: 403,
                        challenge: Some(a.www_authenticate_header.clone()),
                    };
                }
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
                    for status in [401u16, 403] {
                        if msg.starts_with(&format!("HTTP {status}")) {
                            return ConnectError::AuthRequired {
                                server: server_s,
                                phase,
                                status,
                                challenge: None,
                            };
                        }
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
                // `Client` does not expose its reqwest error as `source()`.
                StreamableHttpError::Client(inner) => return classify(server, phase, url, inner),
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
        if let Some(sse) = e.downcast_ref::<super::sse::SseError>()
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
