//! Signing in, refreshing and revoking, on rmcp's authorization manager.
//!
//! What rmcp does: discovery, issuer and resource checks, PKCE, dynamic
//! registration, the code, refresh and client-secret exchanges. What is
//! added here: the order in which a client id is chosen (the definition's,
//! then a client ID metadata document, then a registration remembered for
//! the issuer, then a new registration), keeping that registration, the
//! loopback redirect with its `state` check, one deadline over the whole
//! sign-in, forcing the definition's token endpoint method, and the
//! `private_key_jwt` exchange. The client id is chosen in [`super::client`],
//! revocation is [`super::revoke`]. The grants themselves are in
//! [`code`] (a person in a browser) and [`credentials`] (a machine).

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationMetadata, AuthorizationMetadataSource,
    OAuthClientConfig, OAuthHttpClient,
};

mod code;
mod credentials;

use code::authorization_code;
pub use credentials::client_credentials;

use super::OAuthError;
use super::http::Http;
use super::probe::Answer;
use super::store::{self, EntryStore, TokenEntry};
use super::target::describe;
pub use super::target::{Deadline, Target};
use crate::defs::{Grant, TokenEndpointAuth};

/// What discovery found.
pub struct Discovered {
    /// The manager, its metadata set.
    pub manager: AuthorizationManager,
    /// The authorization server's metadata.
    pub metadata: AuthorizationMetadata,
    /// The issuer ("" for a server of the 2025-03-26 era without metadata).
    pub issuer: String,
    /// True when no metadata was found and the endpoints were guessed from
    /// the URL (the 2025-03-26 fallback).
    pub guessed: bool,
}

fn http_client(target: &Target, timeout: Duration) -> Result<Arc<Http>, OAuthError> {
    Http::new(timeout)
        .map(|http| Arc::new(http.for_resource(&target.url)))
        .map_err(|e| OAuthError::Discovery {
            server: target.server.clone(),
            detail: e.to_string(),
        })
}

async fn manager(target: &Target, http: Arc<Http>) -> Result<AuthorizationManager, OAuthError> {
    let client: Arc<dyn OAuthHttpClient> = http;
    AuthorizationManager::new_with_oauth_http_client(target.url.as_str(), client)
        .await
        .map_err(target.err(|detail| OAuthError::Discovery {
            server: target.server.clone(),
            detail,
        }))
}

/// Discover the authorization server of `target`, from `challenge` (a 401's
/// `WWW-Authenticate`) when there is one.
pub async fn discover(
    target: &Target,
    http: Arc<Http>,
    challenge: Option<&str>,
) -> Result<Discovered, OAuthError> {
    let mut manager = manager(target, http.clone()).await?;
    let resolution = manager
        .resolve_metadata_from_challenge(challenge)
        .await
        .map_err(|e| match http.refused_resource() {
            Some(detail) => OAuthError::ResourceMismatch {
                server: target.server.clone(),
                detail: crate::output::sanitize(&detail).into_owned(),
            },
            None => OAuthError::Discovery {
                server: target.server.clone(),
                detail: describe(&e),
            },
        })?;
    let guessed = resolution.source == AuthorizationMetadataSource::LegacyEndpointFallback;
    if !guessed {
        check_endpoints(target, &resolution.metadata)?;
    }
    let issuer = match guessed {
        true => String::new(),
        false => resolution.metadata.issuer.clone().unwrap_or_default(),
    };
    let metadata = forced_method(resolution.metadata, target.oauth.token_endpoint_auth);
    manager.set_metadata(metadata.clone());
    Ok(Discovered {
        manager,
        metadata,
        issuer,
        guessed,
    })
}

/// Refuse metadata naming an endpoint that would carry secrets over plain
/// http (see [`super::trust`]), before anything is sent to it.
fn check_endpoints(target: &Target, metadata: &AuthorizationMetadata) -> Result<(), OAuthError> {
    match super::trust::unsafe_endpoint(metadata) {
        Some((field, url, why)) => Err(OAuthError::UnsafeEndpoint {
            server: target.server.clone(),
            field,
            url: super::bounds::summarise(&url),
            why,
        }),
        None => Ok(()),
    }
}

/// `metadata` advertising only the definition's token endpoint method, so
/// rmcp (which picks between Basic and the form body from the advertised
/// list) uses the one the operator chose.
fn forced_method(
    mut metadata: AuthorizationMetadata,
    method: Option<TokenEndpointAuth>,
) -> AuthorizationMetadata {
    if let Some(method) = method {
        metadata.additional_fields.insert(
            "token_endpoint_auth_methods_supported".into(),
            serde_json::json!([method.as_str()]),
        );
    }
    metadata
}

/// How `login` shows progress.
pub struct LoginOptions {
    /// Scopes to ask for instead of the discovered ones.
    pub scope: Option<String>,
    /// Launch a browser (else only print the URL).
    pub open_browser: bool,
    /// The whole sign-in's budget.
    pub deadline: Deadline,
    /// Shown the authorization URL (always called).
    pub show_url: Box<dyn Fn(&str) + Send + Sync>,
    /// Told what happened with the browser.
    pub note: Box<dyn Fn(&str) + Send + Sync>,
}

/// What a sign-in produced, for `login`'s report.
pub struct SignedIn {
    /// The stored entry.
    pub entry: TokenEntry,
    /// How the client id was obtained.
    pub client: &'static str,
}

/// Sign in to `target` with its grant, and store the tokens.
pub async fn login(
    target: &Target,
    challenge: Option<&str>,
    opts: &LoginOptions,
) -> Result<SignedIn, OAuthError> {
    let http = http_client(target, super::http::DEFAULT_TIMEOUT)?;
    let answer = match challenge {
        Some(challenge) => Answer::SignIn(Some(challenge.to_string())),
        None => {
            opts.deadline
                .run(
                    &target.server,
                    "asking the server for its sign-in challenge",
                    ask_server(target, &http),
                )
                .await??
        }
    };
    let challenge = match &answer {
        Answer::SignIn(challenge) => challenge.as_deref(),
        Answer::NoSignIn(_) => None,
    };
    let discovered = opts
        .deadline
        .run(
            &target.server,
            "discovering the authorization server",
            discover(target, http.clone(), challenge),
        )
        .await??;
    // Without a 401 the server may still protect some requests (a tool
    // call), but only metadata it publishes says so: endpoints guessed from
    // the URL are for servers of the 2025-03-26 era that answered 401.
    if let (Answer::NoSignIn(answer), true) = (answer, discovered.guessed) {
        return Err(OAuthError::NotUsingOAuth {
            server: target.server.clone(),
            url: crate::output::sanitize(&target.url).into_owned(),
            answer,
        });
    }
    if discovered.guessed {
        check_endpoints(target, &discovered.metadata)?;
    }
    match target.oauth.grant {
        Grant::ClientCredentials => {
            let scopes = requested_scopes(target, opts.scope.as_deref(), &discovered).await;
            let entry = opts
                .deadline
                .run(
                    &target.server,
                    "the token request",
                    client_credentials(target, http, discovered, scopes),
                )
                .await??;
            Ok(SignedIn {
                entry,
                client: "pre-registered",
            })
        }
        Grant::AuthorizationCode => authorization_code(target, discovered, opts).await,
    }
}

/// What the server answers an unsigned request (its challenge, when it
/// asks for a sign-in).
async fn ask_server(target: &Target, http: &Http) -> Result<Answer, OAuthError> {
    match super::probe::probe(http, &target.url).await {
        Ok(answer) => Ok(answer),
        Err(detail) => Err(OAuthError::Discovery {
            server: target.server.clone(),
            detail: format!(
                "cannot reach {}: {}",
                target.url,
                super::bounds::summarise(&detail)
            ),
        }),
    }
}

async fn requested_scopes(
    target: &Target,
    scope: Option<&str>,
    discovered: &Discovered,
) -> Vec<String> {
    match scope.or(target.oauth.scope.as_deref()) {
        Some(scope) => scope.split_whitespace().map(str::to_string).collect(),
        None => discovered.manager.select_initial_scopes(&[]).await,
    }
}

/// Get a new access token for `entry` without a person: a refresh-token
/// exchange, or the client-credentials grant again.
pub async fn renew(target: &Target, entry: &TokenEntry) -> Result<TokenEntry, OAuthError> {
    renew_with_scopes(target, entry, None).await
}

/// [`renew`], asking (client credentials only) for `scopes`.
pub async fn renew_with_scopes(
    target: &Target,
    entry: &TokenEntry,
    scopes: Option<Vec<String>>,
) -> Result<TokenEntry, OAuthError> {
    let http = http_client(target, super::http::DEFAULT_TIMEOUT)?;
    let refresh_failed = |detail: String| OAuthError::RefreshFailed {
        server: target.server.clone(),
        detail,
    };
    check_endpoints(target, &entry.metadata)?;
    let metadata = forced_method(entry.metadata.clone(), target.oauth.token_endpoint_auth);
    let mut manager = manager(target, http.clone()).await?;
    manager.set_metadata(metadata.clone());
    if entry.grant == Grant::ClientCredentials {
        let discovered = Discovered {
            manager,
            metadata,
            issuer: entry.issuer.clone(),
            guessed: false,
        };
        let scopes = scopes.unwrap_or_else(|| entry.granted_scopes.clone());
        return client_credentials(target, http, discovered, scopes)
            .await
            .map_err(|e| refresh_failed(e.to_string()));
    }
    let store = EntryStore::new(
        &entry.issuer,
        &entry.resource,
        &target.server,
        entry.grant,
        entry.metadata.clone(),
    );
    manager.set_credential_store(store.clone());
    let secret = if target.oauth.client_id.as_deref() == Some(entry.client_id.as_str()) {
        target.client_secret()?
    } else {
        store::read()?
            .registrations
            .get(&entry.issuer)
            .filter(|r| r.client_id == entry.client_id)
            .and_then(|r| r.client_secret.clone())
    };
    let mut config = OAuthClientConfig::new(entry.client_id.clone(), "http://127.0.0.1/callback");
    if let Some(secret) = secret {
        config = config.with_client_secret(secret);
    }
    manager
        .configure_client(config)
        .map_err(|e| refresh_failed(describe(&e)))?;
    manager.refresh_token().await.map_err(|e| match e {
        AuthError::AuthorizationRequired => refresh_failed("no refresh token".into()),
        AuthError::TokenRefreshRejected(_) => {
            refresh_failed("the authorization server refused the refresh token".into())
        }
        other => refresh_failed(describe(&other)),
    })?;
    store
        .entry()?
        .ok_or_else(|| refresh_failed("the token was not stored".into()))
}
