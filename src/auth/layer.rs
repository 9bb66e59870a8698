//! The OAuth layer of the Streamable HTTP transport.
//!
//! [`AuthLayer`] wraps the reqwest client rmcp's transport sends through.
//! Without a [`Session`] it passes every request on untouched; with one it
//! puts the stored access token on each request, renews it shortly before
//! it expires (refresh token, or the client-credentials grant again), and
//! reacts to the server once per request: a 401 renews the token and sends
//! again, a 403 `insufficient_scope` asks for the union of the granted and
//! the named scopes and sends again. A second refusal is returned as it
//! came, so there is never a retry loop.
//!
//! The token file is read once per session, not per request: a `check` with
//! a stored token costs what a check with a static bearer header costs.

use std::collections::HashMap;
use std::sync::Arc;

use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use oauth2::TokenResponse;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::{Error as SseError, Sse};

use super::OAuthError;
use super::flow::{self, Deadline, LoginOptions, Target};
use super::store::{self, TokenEntry};
use crate::defs::{Grant, ServerDef};

/// Renew a token this many seconds before it expires (at most half its
/// lifetime, so a short-lived token is not renewed on every request).
const RENEW_MARGIN: u64 = 30;

/// One server's sign-in, shared by every request of a connection.
pub struct Session {
    target: Target,
    current: tokio::sync::Mutex<Option<TokenEntry>>,
}

impl Session {
    /// The session of `def`, or `None` when it does not use OAuth.
    pub fn for_def(def: &ServerDef) -> Option<Arc<Session>> {
        let target = Target::from_def(def).ok()?;
        Some(Arc::new(Session {
            target,
            current: tokio::sync::Mutex::new(None),
        }))
    }

    fn stored(&self) -> Result<Option<TokenEntry>, OAuthError> {
        let file = store::read()?;
        Ok(file.for_resource(&self.target.url).cloned())
    }

    /// The token to send now, renewed first when it is about to expire.
    async fn token(&self) -> Result<String, OAuthError> {
        let mut current = self.current.lock().await;
        if current.is_none() {
            *current = self.stored()?;
        }
        let entry = match current.take() {
            Some(entry) => {
                let ttl = entry.token.expires_in().map(|d| d.as_secs()).unwrap_or(0);
                if entry.expires_within(RENEW_MARGIN.min(ttl / 2).max(1)) {
                    self.renewed(&entry).await?
                } else {
                    entry
                }
            }
            None if self.target.oauth.grant == Grant::ClientCredentials => {
                self.sign_in_without_person().await?
            }
            None => {
                return Err(OAuthError::NotSignedIn {
                    server: self.target.server.clone(),
                });
            }
        };
        let token = entry.token.access_token().secret().to_string();
        *current = Some(entry);
        Ok(token)
    }

    /// A newer token than the one refused: another process's refresh when
    /// the file has one, else a refresh of our own, else (where a person
    /// can answer) a new sign-in from the server's `challenge`, which finds
    /// the authorization server again (it may have moved) and registers
    /// there when it is a new one.
    async fn after_refusal(&self, refused: &str, challenge: &str) -> Result<String, OAuthError> {
        let mut current = self.current.lock().await;
        if let Some(stored) = self.stored()?
            && stored.token.access_token().secret() != refused
        {
            let token = stored.token.access_token().secret().to_string();
            *current = Some(stored);
            return Ok(token);
        }
        let entry = match current.take().or(self.stored()?) {
            Some(entry) => match self.renewed(&entry).await {
                Ok(renewed) => renewed,
                Err(_) if entry.grant == Grant::AuthorizationCode && person_can_answer() => {
                    let why = format!("{} refused the token", self.target.server);
                    self.sign_in_again(challenge, None, &why).await?
                }
                Err(e) => return Err(e),
            },
            None => {
                return Err(OAuthError::NotSignedIn {
                    server: self.target.server.clone(),
                });
            }
        };
        let token = entry.token.access_token().secret().to_string();
        *current = Some(entry);
        Ok(token)
    }

    /// The browser sign-in again, from the server's `challenge`, asking
    /// for `scope` when given; `why` heads the printed URL.
    async fn sign_in_again(
        &self,
        challenge: &str,
        scope: Option<String>,
        why: &str,
    ) -> Result<TokenEntry, OAuthError> {
        let why = why.to_string();
        let opts = LoginOptions {
            scope,
            open_browser: true,
            deadline: Deadline::after(std::time::Duration::from_secs(300)),
            show_url: Box::new(move |url| {
                crate::output::note(format!("{why}; sign in again at:\n  {url}"))
            }),
            note: Box::new(|text| crate::output::note(text)),
        };
        Box::pin(flow::login(&self.target, Some(challenge), &opts))
            .await
            .map(|signed| signed.entry)
    }

    async fn renewed(&self, entry: &TokenEntry) -> Result<TokenEntry, OAuthError> {
        Box::pin(flow::renew(&self.target, entry)).await
    }

    async fn sign_in_without_person(&self) -> Result<TokenEntry, OAuthError> {
        let opts = LoginOptions {
            scope: None,
            open_browser: false,
            deadline: Deadline::after(super::http::DEFAULT_TIMEOUT),
            show_url: Box::new(|_| {}),
            note: Box::new(|_| {}),
        };
        Box::pin(flow::login(&self.target, None, &opts))
            .await
            .map(|signed| signed.entry)
    }

    /// Ask again with the scopes the server named added to the granted
    /// ones: the client-credentials grant again, or (where a person can
    /// answer: `$BROWSER` set, or a terminal) the browser sign-in.
    async fn step_up(&self, challenge: &str, required: Option<&str>) -> Result<String, OAuthError> {
        let mut current = self.current.lock().await;
        let entry = match current.take().or(self.stored()?) {
            Some(entry) => entry,
            None => {
                return Err(OAuthError::NotSignedIn {
                    server: self.target.server.clone(),
                });
            }
        };
        let named = required
            .map(str::to_string)
            .or_else(|| scope_param(challenge))
            .unwrap_or_default();
        let mut scopes = entry.granted_scopes.clone();
        for scope in named.split_whitespace() {
            if !scopes.iter().any(|s| s == scope) {
                scopes.push(scope.to_string());
            }
        }
        let wanted = scopes.join(" ");
        let insufficient = || OAuthError::InsufficientScope {
            server: self.target.server.clone(),
            scope: wanted.clone(),
        };
        if scopes.len() == entry.granted_scopes.len() {
            *current = Some(entry);
            return Err(insufficient());
        }
        let renewed = match entry.grant {
            Grant::ClientCredentials => {
                Box::pin(flow::renew_with_scopes(
                    &self.target,
                    &entry,
                    Some(scopes.clone()),
                ))
                .await?
            }
            Grant::AuthorizationCode if person_can_answer() => {
                let why = format!("{} needs more scopes", self.target.server);
                self.sign_in_again(challenge, Some(wanted.clone()), &why)
                    .await?
            }
            Grant::AuthorizationCode => {
                *current = Some(entry);
                return Err(insufficient());
            }
        };
        let token = renewed.token.access_token().secret().to_string();
        *current = Some(renewed);
        Ok(token)
    }
}

/// True when a step-up may open a browser: `$BROWSER` is set, or stdin and
/// stderr are a terminal.
fn person_can_answer() -> bool {
    std::env::var_os("BROWSER").is_some_and(|b| !b.is_empty()) || crate::output::interactive()
}

/// The `scope` parameter of a `WWW-Authenticate` challenge.
fn scope_param(challenge: &str) -> Option<String> {
    let at = challenge.find("scope=\"")? + "scope=\"".len();
    let rest = &challenge[at..];
    Some(rest[..rest.find('"')?].to_string())
}

/// An [`OAuthError`] as a transport error (found again by
/// [`oauth_error_in`] when the connection names the failure).
fn transport_error(e: OAuthError) -> StreamableHttpError<reqwest::Error> {
    StreamableHttpError::Io(std::io::Error::other(e))
}

/// The [`OAuthError`] in `err`'s chain, if the layer raised one.
pub fn oauth_error_in<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a OAuthError> {
    let mut current = Some(err);
    while let Some(e) = current {
        if let Some(found) = e.downcast_ref::<OAuthError>() {
            return Some(found);
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && let Some(found) = io.get_ref().and_then(|i| i.downcast_ref::<OAuthError>())
        {
            return Some(found);
        }
        current = e.source();
    }
    None
}

/// The reqwest client rmcp's transport uses, with an optional OAuth
/// session in front of it.
#[derive(Clone)]
pub struct AuthLayer {
    inner: reqwest::Client,
    session: Option<Arc<Session>>,
}

impl AuthLayer {
    /// `inner`, signing requests for `session` when there is one.
    pub fn new(inner: reqwest::Client, session: Option<Arc<Session>>) -> AuthLayer {
        AuthLayer { inner, session }
    }

    /// Run `call` with a token, reacting once to a 401 or a 403
    /// `insufficient_scope`.
    async fn signed<T, F, Fut>(
        &self,
        auth: Option<String>,
        call: F,
    ) -> Result<T, StreamableHttpError<reqwest::Error>>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: std::future::Future<Output = Result<T, StreamableHttpError<reqwest::Error>>>,
    {
        let Some(session) = &self.session else {
            return call(auth).await;
        };
        // The sign-in futures are large; boxed, they stay off the stack of
        // the runtime's worker threads.
        let token = Box::pin(session.token()).await.map_err(transport_error)?;
        match call(Some(token.clone())).await {
            Err(StreamableHttpError::AuthRequired(e)) => {
                let fresh = Box::pin(session.after_refusal(&token, &e.www_authenticate_header))
                    .await
                    .map_err(transport_error)?;
                call(Some(fresh)).await
            }
            Err(StreamableHttpError::InsufficientScope(e)) => {
                let fresh = Box::pin(
                    session.step_up(&e.www_authenticate_header, e.required_scope.as_deref()),
                )
                .await
                .map_err(transport_error)?;
                call(Some(fresh)).await
            }
            other => other,
        }
    }
}

impl StreamableHttpClient for AuthLayer {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.signed(auth_header, |token| {
            self.inner.post_message(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.signed(auth_header, |token| {
            self.inner.post_message_with_max_sse_event_size(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.signed(auth_header, |token| {
            self.inner.post_message_with_response_limits(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                limits,
            )
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.signed(auth_header, |token| {
            self.inner.delete_session(
                uri.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
        .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.signed(auth_header, |token| {
            self.inner.get_stream(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.signed(auth_header, |token| {
            self.inner.get_stream_with_max_sse_event_size(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }
}
