//! One GET of one registry document, with mcpctl's one HTTP client
//! builder, a time limit and a size cap. Credentials in a registry URL are
//! sent as HTTP basic auth (reqwest takes them from the URL, as npm and uv
//! do) and never appear in an error.

use std::time::Duration;

use serde_json::Value;

use super::PackageError;
use crate::http_client::BodyError;
use crate::text::mask_userinfo;

/// How long one registry request may take.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The largest registry document read (PyPI's JSON for a busy project is
/// a few MB; npm's packuments for old packages are larger).
pub const MAX_DOCUMENT: usize = 64 * 1024 * 1024;

/// What a GET found.
pub enum Fetched {
    /// The JSON document.
    Found(Value),
    /// HTTP 404 or 410.
    Missing,
}

/// GET `url` asking for `accept`, and parse JSON.
pub async fn get_json(url: &str, accept: &str) -> Result<Fetched, PackageError> {
    let shown = mask_userinfo(url);
    let fail = |detail: String| PackageError::Lookup {
        registry: shown.clone(),
        detail: mask_userinfo(&detail),
    };
    let client = crate::http_client::builder(crate::http_client::Redirects::AnyOrigin)
        .timeout(TIMEOUT)
        .build()
        .map_err(|e| fail(e.to_string()))?;
    let response = client
        .get(url)
        .header("accept", accept)
        .send()
        .await
        .map_err(|e| fail(without_url(&e)))?;
    let status = response.status();
    if status.as_u16() == 404 || status.as_u16() == 410 {
        return Ok(Fetched::Missing);
    }
    if !status.is_success() {
        let why = match status.as_u16() {
            401 | 403 => {
                " (the registry wants credentials: put them in the index URL, or use a registry that needs none)"
            }
            _ => "",
        };
        return Err(fail(format!("HTTP {}{why}", status.as_u16())));
    }
    let bytes = read_body(response, MAX_DOCUMENT, "the document")
        .await
        .map_err(fail)?;
    serde_json::from_slice(&bytes)
        .map(Fetched::Found)
        .map_err(|e| fail(format!("not JSON ({e})")))
}

/// `response`'s body, at most `max` bytes; the error names `what` was too
/// large, or why the read failed, without the URL.
pub async fn read_body(
    response: reqwest::Response,
    max: usize,
    what: &str,
) -> Result<Vec<u8>, String> {
    crate::http_client::read_capped(response, max)
        .await
        .map_err(|e| match e {
            BodyError::TooLarge { max } => format!("{what} is larger than {max} bytes"),
            BodyError::Transport(e) => without_url(&e),
        })
}

/// A reqwest error with its causes (`error sending request: … dns error …`)
/// and without the URL it appends (which may carry credentials).
pub fn without_url(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    if let Some(url) = err.url() {
        text = text.replace(&format!(" ({url})"), "");
    }
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// A URL path segment, percent-encoded.
pub fn encode(segment: &str) -> String {
    url::form_urlencoded::byte_serialize(segment.as_bytes()).collect()
}

/// A text field of a registry document that can be shown and stored: not
/// empty, short, no control characters.
pub fn text_field(doc: &Value, path: &[&str]) -> Option<String> {
    let mut at = doc;
    for key in path {
        at = at.get(*key)?;
    }
    at.as_str()
        .filter(|s| !s.is_empty() && s.len() <= 256 && !s.chars().any(char::is_control))
        .map(str::to_string)
}
