//! The HTTP client rmcp's OAuth code sends every request through: mcpctl's
//! one client builder (rustls, no https→http downgrade, a redirect cap), a
//! no-redirect variant where rmcp asks for one (token and registration
//! requests), a per-request timeout, and a cap on response bodies.

use std::time::Duration;

use futures::StreamExt;
use rmcp::transport::auth::{
    OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture, OAuthHttpRedirectPolicy,
    OAuthHttpRequest,
};

use crate::http_client::{self, Redirects};

/// The most a metadata or token response may hold.
const MAX_BODY: usize = 1024 * 1024;

/// The timeout of one OAuth request when the caller sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Two reqwest clients from mcpctl's builder: one that follows redirects
/// (metadata discovery) and one that does not (token requests).
pub struct Http {
    follow: reqwest::Client,
    stop: reqwest::Client,
    timeout: Duration,
}

impl Http {
    /// Clients whose requests each take at most `timeout`.
    pub fn new(timeout: Duration) -> Result<Http, reqwest::Error> {
        Ok(Http {
            follow: http_client::builder(Redirects::AnyOrigin).build()?,
            stop: http_client::builder(Redirects::AnyOrigin)
                .redirect(reqwest::redirect::Policy::none())
                .build()?,
            timeout,
        })
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
            let response = tokio::time::timeout(timeout, client.execute(req))
                .await
                .map_err(|_| Box::new(TimedOut(timeout.as_secs())) as OAuthHttpClientError)?
                .map_err(|e| Box::new(e) as OAuthHttpClientError)?;
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
            builder
                .body(body)
                .map_err(|e| Box::new(e) as OAuthHttpClientError)
        })
    }
}

/// An OAuth request that took longer than its timeout.
#[derive(Debug, thiserror::Error)]
#[error("no answer within {0} s")]
pub struct TimedOut(pub u64);

/// A response body over [`MAX_BODY`].
#[derive(Debug, thiserror::Error)]
#[error("the response is larger than 1 MiB")]
struct TooLarge;
