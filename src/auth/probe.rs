//! Asking the MCP server itself whether it wants a sign-in, before any
//! discovery: an unsigned `initialize` POST, as a client's first request
//! would be (and a `tools/list` when the handshake is let through).
//!
//! A `401` carries the `WWW-Authenticate` challenge discovery starts from
//! (its `resource_metadata` URL, which may be anywhere, and its `scope`,
//! which the spec says to ask for). Any other answer means the server does
//! not use OAuth, and `login` says so instead of registering a client at an
//! endpoint guessed from the URL. The body is never read.

use super::http::Http;

/// What the unsigned request met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// `401`, with its `WWW-Authenticate: Bearer …` challenge when it sent one.
    SignIn(Option<String>),
    /// Anything else, in words (`HTTP 200 OK`, `HTTP 404 Not Found`).
    NoSignIn(String),
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpctl","version":"0"}}}"#;

/// Send the unsigned `initialize` to `url`, and when the server lets that
/// through, an unsigned `tools/list` (some servers ask for a sign-in only
/// after the handshake); the error is the transport's, in words.
pub async fn probe(http: &Http, url: &str) -> Result<Answer, String> {
    let first = send(http, url, INITIALIZE, None).await?;
    if let Some(answer) = sign_in(&first) {
        return Ok(answer);
    }
    let status = first.status();
    if !status.is_success() {
        return Ok(Answer::NoSignIn(format!("HTTP {status}")));
    }
    let session = first
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    drop(first);
    let second = send(http, url, TOOLS_LIST, session.as_deref()).await?;
    if let Some(answer) = sign_in(&second) {
        return Ok(answer);
    }
    if let Some(session) = session {
        let _ = http
            .plain()
            .delete(url)
            .header("mcp-session-id", session)
            .timeout(http.timeout())
            .send()
            .await;
    }
    Ok(Answer::NoSignIn(format!("HTTP {status}")))
}

const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;

async fn send(
    http: &Http,
    url: &str,
    body: &'static str,
    session: Option<&str>,
) -> Result<reqwest::Response, String> {
    let mut request = http
        .plain()
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header(
            reqwest::header::ACCEPT,
            "application/json, text/event-stream",
        )
        .body(body)
        .timeout(http.timeout());
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
    }
    request.send().await.map_err(|e| crate::error::chain(&e))
}

/// The sign-in a `401` asks for, with its Bearer challenge when it has one.
fn sign_in(response: &reqwest::Response) -> Option<Answer> {
    if response.status() != reqwest::StatusCode::UNAUTHORIZED {
        return None;
    }
    let challenge = response
        .headers()
        .get_all(reqwest::header::WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| is_bearer(v))
        .map(str::to_string);
    Some(Answer::SignIn(challenge))
}

/// True when a `WWW-Authenticate` value is a Bearer challenge.
pub fn is_bearer(value: &str) -> bool {
    value
        .trim_start()
        .get(..6)
        .is_some_and(|s| s.eq_ignore_ascii_case("bearer"))
}
