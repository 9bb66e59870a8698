//! The HTTP client rmcp's OAuth code sends every request through: mcpctl's
//! one client builder (rustls, no https→http downgrade, a redirect cap), a
//! no-redirect variant where rmcp asks for one (token and registration
//! requests), a per-request timeout, and a cap on response bodies. It is
//! also where two rules of [`super::trust`] hold for every request rmcp
//! makes: nothing but a GET goes to an endpoint that is not https (or http
//! to loopback), and a protected-resource metadata document that names
//! another resource than the server being signed in to stops discovery.

use std::time::Duration;

use futures::StreamExt;
use rmcp::transport::auth::{
    OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture, OAuthHttpRedirectPolicy,
    OAuthHttpRequest,
};

use crate::http_client::{self, Redirects};

use super::bounds::MAX_BODY;

/// The timeout of one OAuth request when the caller sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Two reqwest clients from mcpctl's builder: one that follows redirects
/// (metadata discovery) and one that does not (token requests).
pub struct Http {
    follow: reqwest::Client,
    stop: reqwest::Client,
    timeout: Duration,
    /// The server being signed in to, whose protected-resource metadata
    /// is checked as it arrives.
    resource: Option<url::Url>,
    /// Why a protected-resource document was refused, once one was.
    refused: std::sync::Mutex<Option<String>>,
}

impl Http {
    /// Clients whose requests each take at most `timeout`.
    pub fn new(timeout: Duration) -> Result<Http, reqwest::Error> {
        // No idle connection is kept: a sign-in pauses for the browser far
        // longer than servers keep an idle connection open, and a token
        // request sent on one the server is closing is lost.
        Ok(Http {
            follow: http_client::builder(Redirects::AnyOrigin)
                .pool_max_idle_per_host(0)
                .build()?,
            stop: http_client::builder(Redirects::AnyOrigin)
                .redirect(reqwest::redirect::Policy::none())
                .pool_max_idle_per_host(0)
                .build()?,
            timeout,
            resource: None,
            refused: std::sync::Mutex::new(None),
        })
    }

    /// Check every protected-resource metadata document against `server`
    /// (see [`super::trust::resource_refusal`]).
    pub fn for_resource(mut self, server: &str) -> Http {
        self.resource = url::Url::parse(server).ok();
        self
    }

    /// Why a protected-resource document was refused during discovery.
    pub fn refused_resource(&self) -> Option<String> {
        self.refused.lock().ok().and_then(|r| r.clone())
    }

    /// Refuse `body` (the answer to a GET of `url`) when it is a
    /// protected-resource metadata document naming another resource.
    fn check_resource(&self, url: &url::Url, body: &[u8]) -> Result<(), OAuthHttpClientError> {
        let Some(server) = &self.resource else {
            return Ok(());
        };
        let Ok(doc) = serde_json::from_slice::<serde_json::Value>(body) else {
            return Ok(());
        };
        let Some(resource) = doc.get("resource").and_then(|r| r.as_str()) else {
            return Ok(());
        };
        let Some(why) = super::trust::resource_refusal(server, url, resource) else {
            return Ok(());
        };
        let text = format!(
            "the protected-resource metadata at {url} names the resource `{}`, not this server ({server}): {why}",
            super::bounds::summarise(resource)
        );
        if let Ok(mut refused) = self.refused.lock() {
            refused.get_or_insert(text.clone());
        }
        Err(Box::new(Refused(text)))
    }

    /// The client for plain requests of mcpctl's own (revocation).
    pub fn plain(&self) -> &reqwest::Client {
        &self.stop
    }

    /// The per-request timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

impl OAuthHttpClient for Http {
    fn execute(&self, request: OAuthHttpRequest) -> OAuthHttpClientFuture<'_> {
        Box::pin(async move {
            let client = match request.redirect_policy {
                OAuthHttpRedirectPolicy::Stop => &self.stop,
                _ => &self.follow,
            };
            let timeout = request
                .timeout
                .map_or(self.timeout, |t| t.min(self.timeout));
            let req = reqwest::Request::try_from(request.request)
                .map_err(|e| Box::new(e) as OAuthHttpClientError)?;
            let url = req.url().clone();
            let is_get = req.method() == reqwest::Method::GET;
            if !is_get && let Some(why) = super::trust::endpoint_refusal(url.as_str()) {
                return Err(Box::new(Refused(format!("not sent to {url}: {why}"))) as _);
            }
            let response = tokio::time::timeout(timeout, client.execute(req))
                .await
                .map_err(|_| Box::new(TimedOut(timeout.as_secs())) as OAuthHttpClientError)?
                .map_err(|e| Box::new(e) as OAuthHttpClientError)?;
            let response_ok = response.status().is_success();
            let mut builder = http::Response::builder()
                .status(response.status())
                .version(response.version());
            for (name, value) in response.headers() {
                builder = builder.header(name, value);
            }
            let mut body = Vec::new();
            let mut stream = response.bytes_stream();
            loop {
                let next = tokio::time::timeout(timeout, stream.next())
                    .await
                    .map_err(|_| Box::new(TimedOut(timeout.as_secs())) as OAuthHttpClientError)?;
                let Some(chunk) = next else { break };
                let chunk = chunk.map_err(|e| Box::new(e) as OAuthHttpClientError)?;
                if body.len() + chunk.len() > MAX_BODY {
                    return Err(Box::new(TooLarge) as OAuthHttpClientError);
                }
                body.extend_from_slice(&chunk);
            }
            if is_get && response_ok {
                self.check_resource(&url, &body)?;
            }
            builder
                .body(body)
                .map_err(|e| Box::new(e) as OAuthHttpClientError)
        })
    }
}

/// The content type of a form body.
pub const FORM: &str = "application/x-www-form-urlencoded";

/// `pairs` as an `application/x-www-form-urlencoded` body.
pub fn form_body(pairs: &[(&str, String)]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        out.append_pair(k, v);
    }
    out.finish()
}

/// The body of `response`, refused past [`MAX_BODY`] (for the requests
/// mcpctl sends itself: token requests of its own).
pub async fn read_bounded(response: reqwest::Response) -> Result<Vec<u8>, OAuthHttpClientError> {
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| Box::new(e) as OAuthHttpClientError)?;
        if body.len() + chunk.len() > MAX_BODY {
            return Err(Box::new(TooLarge));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// An OAuth request that took longer than its timeout.
#[derive(Debug, thiserror::Error)]
#[error("no answer within {0} s")]
pub struct TimedOut(pub u64);

/// A response body over [`MAX_BODY`].
#[derive(Debug, thiserror::Error)]
#[error("the response is larger than {} KiB", MAX_BODY / 1024)]
struct TooLarge;

/// A request not sent, or an answer not used, by a rule of [`super::trust`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);
