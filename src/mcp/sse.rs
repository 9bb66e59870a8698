//! The legacy HTTP+SSE transport (protocol 2024-11-05) as an rmcp `Transport`.
//!
//! rmcp dropped its SSE client, but operators still run SSE servers. The
//! protocol is small: GET an event stream, wait for the `endpoint` event
//! (the URL to POST to), then POST each message there; answers arrive as
//! `message` events on the stream.

use std::borrow::Cow;

use rmcp::RoleClient;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::error::{ConnectError, Phase};

/// What can go wrong on the SSE transport; classified with every other HTTP
/// failure by the connection's one classifier (`connection/failure.rs`).
#[derive(Debug, thiserror::Error)]
pub enum SseError {
    /// The server answered with a non-success status.
    #[error("HTTP {status}{}", if body.is_empty() { String::new() } else { format!(": {body}") })]
    Status {
        /// The HTTP status.
        status: u16,
        /// The `WWW-Authenticate` header.
        challenge: Option<String>,
        /// The body's content type.
        content_type: Option<String>,
        /// The first bytes of the body.
        body: String,
    },
    /// The GET answered 200 but not with an event stream.
    #[error("expected an event stream, got {0}")]
    NotEventStream(String),
    /// The stream ended before the `endpoint` event.
    #[error("the event stream ended before it sent the `endpoint` event")]
    NoEndpoint,
    /// The `endpoint` event did not hold a usable URL.
    #[error("the server sent an unusable endpoint `{0}`")]
    BadEndpoint(String),
    /// The `endpoint` event named another origin than the stream's: POSTing
    /// there would send the definition's headers to another server.
    #[error("{0}")]
    ForeignEndpoint(crate::http_client::RedirectRefused),
    /// reqwest failed (connect, TLS, DNS…).
    #[error("request failed")]
    Request(#[source] reqwest::Error),
    /// The reader task is gone.
    #[error("the event stream is closed")]
    Closed,
}

impl SseError {
    /// The specific [`ConnectError`] for the statuses and content types this
    /// transport detects itself; `None` lets the classifier look deeper.
    pub fn classify(&self, server: &str, phase: Phase, url: &str) -> Option<ConnectError> {
        let server = server.to_string();
        match self {
            SseError::Status {
                status: status @ (401 | 403),
                challenge,
                ..
            } => Some(ConnectError::AuthRequired {
                server,
                phase,
                status: *status,
                challenge: challenge.clone(),
            }),
            SseError::Status {
                content_type: Some(ct),
                ..
            }
            | SseError::NotEventStream(ct)
                if ct.to_ascii_lowercase().contains("text/html") =>
            {
                Some(ConnectError::WebPage {
                    server,
                    phase,
                    url: url.into(),
                    content_type: ct.clone(),
                })
            }
            SseError::ForeignEndpoint(refused) => Some(ConnectError::Redirect {
                server,
                phase,
                refused: refused.clone(),
            }),
            SseError::Status { .. }
            | SseError::NotEventStream(_)
            | SseError::NoEndpoint
            | SseError::BadEndpoint(_) => Some(ConnectError::Http {
                server,
                phase,
                detail: self.to_string(),
            }),
            SseError::Request(_) | SseError::Closed => None,
        }
    }
}

/// A connected legacy SSE session.
pub struct SseTransport {
    client: reqwest::Client,
    endpoint: url::Url,
    rx: mpsc::Receiver<ServerJsonRpcMessage>,
    reader: JoinHandle<()>,
}

/// One parsed server-sent event.
#[derive(Debug, Default, PartialEq)]
struct Event {
    name: String,
    data: String,
}

/// Incremental SSE parser: feed bytes, take complete events.
#[derive(Default)]
struct Parser {
    buf: Vec<u8>,
}

impl Parser {
    fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.buf.extend_from_slice(bytes);
        let mut events = Vec::new();
        loop {
            let text = &self.buf;
            let end = [&b"\r\n\r\n"[..], b"\n\n", b"\r\r"]
                .iter()
                .filter_map(|sep| {
                    text.windows(sep.len())
                        .position(|w| w == *sep)
                        .map(|p| (p, sep.len()))
                })
                .min();
            let Some((pos, len)) = end else { break };
            let block = String::from_utf8_lossy(&self.buf[..pos]).to_string();
            self.buf.drain(..pos + len);
            let mut event = Event::default();
            let mut data = Vec::new();
            for line in block.lines() {
                let (field, value) = match line.split_once(':') {
                    Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                    None => (line, ""),
                };
                match field {
                    "event" => event.name = value.to_string(),
                    "data" => data.push(value.to_string()),
                    _ => {}
                }
            }
            if data.is_empty() && event.name.is_empty() {
                continue;
            }
            event.data = data.join("\n");
            if event.name.is_empty() {
                event.name = "message".into();
            }
            events.push(event);
        }
        events
    }
}

async fn status_error(response: reqwest::Response) -> SseError {
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get(reqwest::header::WWW_AUTHENTICATE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = response.text().await.unwrap_or_default();
    SseError::Status {
        status,
        challenge,
        content_type,
        body: body.chars().take(200).collect(),
    }
}

impl SseTransport {
    /// GET `url`, wait for the `endpoint` event, and start reading messages.
    pub async fn connect(client: reqwest::Client, url: &str) -> Result<SseTransport, SseError> {
        let base = url::Url::parse(url).map_err(|_| SseError::BadEndpoint(url.to_string()))?;
        let mut response = client
            .get(base.clone())
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .send()
            .await
            .map_err(SseError::Request)?;
        if !response.status().is_success() {
            return Err(status_error(response).await);
        }
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        if !content_type.starts_with("text/event-stream") {
            return Err(SseError::NotEventStream(content_type));
        }
        let mut parser = Parser::default();
        let mut early = Vec::new();
        let endpoint = 'found: loop {
            let Some(chunk) = response.chunk().await.map_err(SseError::Request)? else {
                return Err(SseError::NoEndpoint);
            };
            for event in parser.feed(&chunk) {
                if event.name == "endpoint" {
                    let endpoint = base
                        .join(event.data.trim())
                        .map_err(|_| SseError::BadEndpoint(event.data.clone()))?;
                    // The redirect rule: the endpoint is a hop from `base`.
                    crate::http_client::decide(
                        crate::http_client::Redirects::SameOrigin,
                        &endpoint,
                        std::slice::from_ref(&base),
                    )
                    .map_err(SseError::ForeignEndpoint)?;
                    break 'found endpoint;
                }
                early.push(event);
            }
        };
        let (tx, rx) = mpsc::channel(64);
        let reader = tokio::spawn(async move {
            let forward = |event: Event| {
                if event.name != "message" {
                    return None;
                }
                serde_json::from_str::<ServerJsonRpcMessage>(&event.data).ok()
            };
            for event in early.into_iter().chain(parser.feed(&[])) {
                if let Some(msg) = forward(event)
                    && tx.send(msg).await.is_err()
                {
                    return;
                }
            }
            while let Ok(Some(chunk)) = response.chunk().await {
                for event in parser.feed(&chunk) {
                    if let Some(msg) = forward(event)
                        && tx.send(msg).await.is_err()
                    {
                        return;
                    }
                }
            }
        });
        Ok(SseTransport {
            client,
            endpoint,
            rx,
            reader,
        })
    }
}

impl Transport<RoleClient> for SseTransport {
    type Error = SseError;

    fn name() -> Cow<'static, str> {
        "sse".into()
    }

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), SseError>> + Send + 'static {
        let client = self.client.clone();
        let endpoint = self.endpoint.clone();
        async move {
            let response = client
                .post(endpoint)
                .json(&item)
                .send()
                .await
                .map_err(SseError::Request)?;
            if !response.status().is_success() {
                return Err(status_error(response).await);
            }
            Ok(())
        }
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        self.rx.recv().await
    }

    async fn close(&mut self) -> Result<(), SseError> {
        self.reader.abort();
        self.rx.close();
        Ok(())
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_events_split_across_chunks() {
        let mut p = Parser::default();
        assert!(p.feed(b"event: endpoint\nda").is_empty());
        let events = p.feed(b"ta: /message?sessionId=1\n\nevent: message\ndata: {\"a\":1}\r\n\r\n");
        assert_eq!(
            events[0],
            Event {
                name: "endpoint".into(),
                data: "/message?sessionId=1".into()
            }
        );
        assert_eq!(
            events[1],
            Event {
                name: "message".into(),
                data: "{\"a\":1}".into()
            }
        );
        assert!(p.feed(b": keepalive comment\n\n").is_empty());
    }
}
