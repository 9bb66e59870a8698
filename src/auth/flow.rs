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
//! revocation is [`super::revoke`].

use std::sync::Arc;
use std::time::Duration;

use oauth2::TokenResponse;
use rmcp::transport::auth::{
    AuthError, AuthorizationCallback, AuthorizationManager, AuthorizationMetadata,
    AuthorizationMetadataSource, AuthorizationRequest, AuthorizationSession,
    ClientCredentialsConfig, OAuthClientConfig, OAuthHttpClient, OAuthTokenResponse,
};

use super::OAuthError;
use super::browser;
use super::http::Http;
use super::loopback::Listener;
use super::probe::Answer;
use super::store::{self, EntryStore, TokenEntry};
use super::target::describe;
pub use super::target::{Deadline, Target};
use crate::defs::redact::register_secret;
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

async fn authorization_code(
    target: &Target,
    discovered: Discovered,
    opts: &LoginOptions,
) -> Result<SignedIn, OAuthError> {
    let server = target.server.as_str();
    let scopes = requested_scopes(target, opts.scope.as_deref(), &discovered).await;
    let Discovered {
        mut manager,
        metadata,
        issuer,
        ..
    } = discovered;
    manager.set_credential_store(EntryStore::new(
        &issuer,
        &target.url,
        server,
        Grant::AuthorizationCode,
        metadata.clone(),
    ));
    let remembered = if issuer.is_empty() {
        None
    } else {
        store::read()?.registrations.get(&issuer).cloned()
    };
    let preferred_port = remembered
        .as_ref()
        .and_then(|r| url::Url::parse(&r.redirect_uri).ok())
        .and_then(|u| u.port());
    let listener = Listener::bind(preferred_port)
        .await
        .map_err(|e| OAuthError::Listener {
            server: server.to_string(),
            detail: e.to_string(),
        })?;
    let redirect_uri = listener.redirect_uri();

    let ask = super::client::Ask {
        target,
        metadata: &metadata,
        issuer: &issuer,
        redirect_uri: &redirect_uri,
        scopes: &scopes,
        deadline: &opts.deadline,
    };
    let super::client::Client {
        id: client_id,
        secret: client_secret,
        kind: client,
    } = super::client::choose(&ask, &mut manager, remembered).await?;

    let mut request = AuthorizationRequest::new(redirect_uri.clone())
        .with_preregistered_client(client_id.clone())
        .with_client_name("mcpctl")
        .with_scopes(scopes.clone());
    if let Some(secret) = client_secret {
        request = request.with_client_secret(secret);
    }
    let session = match AuthorizationSession::new(manager, request).await {
        Ok(session) => session,
        Err((_, e)) => {
            return Err(OAuthError::SignIn {
                server: server.to_string(),
                detail: describe(&e),
            });
        }
    };
    let auth_url = session.get_authorization_url().to_string();
    if let Some(why) = browser::refusal(&auth_url) {
        return Err(OAuthError::UnsafeUrl {
            server: server.to_string(),
            url: crate::output::sanitize(&crate::text::truncate(&auth_url, 200)).into_owned(),
            why,
        });
    }
    let sent_state = url::Url::parse(&auth_url)
        .ok()
        .and_then(|u| {
            u.query_pairs()
                .find(|(k, _)| k == "state")
                .map(|(_, v)| v.into_owned())
        })
        .unwrap_or_default();
    (opts.show_url)(&auth_url);
    if opts.open_browser {
        match browser::open(&auth_url) {
            Ok(program) => (opts.note)(&format!("opened the sign-in page with {program}")),
            Err(why) => (opts.note)(&format!("{why}; open the URL above yourself")),
        }
    }
    let callback = redirect(target, listener, &sent_state, &opts.deadline).await?;
    let parsed =
        AuthorizationCallback::from_redirect_url(&callback).map_err(target.err(|detail| {
            OAuthError::SignIn {
                server: server.to_string(),
                detail,
            }
        }))?;
    opts.deadline
        .run(
            server,
            "the token request",
            session.handle_callback_with_issuer(
                &parsed.code,
                &parsed.csrf_token,
                parsed.issuer.as_deref(),
            ),
        )
        .await?
        .map_err(target.err(|detail| OAuthError::SignIn {
            server: server.to_string(),
            detail,
        }))?;
    let entry = store::read()?
        .tokens
        .get(&store::key(&issuer, &target.url))
        .cloned()
        .ok_or_else(|| OAuthError::SignIn {
            server: server.to_string(),
            detail: "the token was not stored".into(),
        })?;
    Ok(SignedIn { entry, client })
}

/// Wait for the redirect carrying `sent_state`; its URL, or the refusal
/// the authorization server sent back.
async fn redirect(
    target: &Target,
    listener: Listener,
    sent_state: &str,
    deadline: &Deadline,
) -> Result<String, OAuthError> {
    let server = target.server.as_str();
    let ignored = listener.ignored();
    let callback = deadline
        .run(
            server,
            "waiting for the browser to come back to mcpctl",
            listener.wait(sent_state),
        )
        .await
        .map_err(|timeout| {
            if ignored.load(std::sync::atomic::Ordering::SeqCst) > 0 {
                OAuthError::StateMismatch {
                    server: server.to_string(),
                }
            } else {
                timeout
            }
        })?
        .map_err(|e| OAuthError::Listener {
            server: server.to_string(),
            detail: e.to_string(),
        })?;
    let query: std::collections::HashMap<String, String> = url::Url::parse(&callback)
        .map(|u| u.query_pairs().into_owned().collect())
        .unwrap_or_default();
    if let Some(code) = query.get("code") {
        register_secret(code);
    }
    if query.get("state").map(String::as_str) != Some(sent_state) || sent_state.is_empty() {
        return Err(OAuthError::StateMismatch {
            server: server.to_string(),
        });
    }
    if let Some(error) = query.get("error") {
        return Err(OAuthError::Denied {
            server: server.to_string(),
            error: crate::output::sanitize(error).into_owned(),
            description: query
                .get("error_description")
                .map(|d| crate::output::sanitize(d).into_owned()),
        });
    }
    Ok(callback)
}

/// The client-credentials grant: a secret (Basic or form body, by rmcp) or
/// a `private_key_jwt` assertion (here).
pub async fn client_credentials(
    target: &Target,
    http: Arc<Http>,
    discovered: Discovered,
    scopes: Vec<String>,
) -> Result<TokenEntry, OAuthError> {
    let server = target.server.as_str();
    let Discovered {
        mut manager,
        metadata,
        issuer,
        ..
    } = discovered;
    let client_id = target
        .oauth
        .client_id
        .clone()
        .ok_or_else(|| OAuthError::Credentials {
            server: server.to_string(),
            detail: "`grant: client_credentials` needs a `client_id`".into(),
        })?;
    let store = EntryStore::new(
        &issuer,
        &target.url,
        server,
        Grant::ClientCredentials,
        metadata.clone(),
    );
    let use_key = target.oauth.client_key.is_some()
        && target.oauth.token_endpoint_auth != Some(TokenEndpointAuth::ClientSecretBasic)
        && target.oauth.token_endpoint_auth != Some(TokenEndpointAuth::ClientSecretPost);
    if use_key {
        let key = target
            .client_key()?
            .ok_or_else(|| OAuthError::Credentials {
                server: server.to_string(),
                detail: "`client_key` is empty".into(),
            })?;
        let audience = metadata
            .issuer
            .clone()
            .unwrap_or_else(|| metadata.token_endpoint.clone());
        let assertion =
            key.assertion(&client_id, &audience)
                .map_err(|detail| OAuthError::Credentials {
                    server: server.to_string(),
                    detail,
                })?;
        register_secret(&assertion);
        let mut form = vec![
            ("grant_type", "client_credentials".to_string()),
            (
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".to_string(),
            ),
            ("client_assertion", assertion),
            ("resource", target.url.clone()),
        ];
        if !scopes.is_empty() {
            form.push(("scope", scopes.join(" ")));
        }
        let token = post_token(target, &http, &metadata.token_endpoint, &form).await?;
        let granted = granted(&token, &scopes);
        return store.put(&client_id, token, granted);
    }
    let secret = target
        .client_secret()?
        .ok_or_else(|| OAuthError::Credentials {
            server: server.to_string(),
            detail: "`grant: client_credentials` needs `client_secret` or `client_key`".into(),
        })?;
    manager.set_credential_store(store.clone());
    let config = ClientCredentialsConfig::ClientSecret {
        client_id: client_id.clone(),
        client_secret: secret,
        scopes: scopes.clone(),
        resource: Some(target.url.clone()),
    };
    let fail = |e: AuthError| OAuthError::SignIn {
        server: server.to_string(),
        detail: describe(&e),
    };
    manager
        .validate_client_credentials_metadata(&config)
        .map_err(fail)?;
    manager
        .configure_client_credentials(&config)
        .map_err(fail)?;
    manager
        .exchange_client_credentials(&config)
        .await
        .map_err(fail)?;
    store.entry()?.ok_or_else(|| OAuthError::SignIn {
        server: server.to_string(),
        detail: "the token was not stored".into(),
    })
}

fn granted(token: &OAuthTokenResponse, requested: &[String]) -> Vec<String> {
    token
        .scopes()
        .map(|s| s.iter().map(|s| s.to_string()).collect())
        .unwrap_or_else(|| requested.to_vec())
}

/// POST a token request of mcpctl's own and read a token response.
async fn post_token(
    target: &Target,
    http: &Http,
    endpoint: &str,
    form: &[(&str, String)],
) -> Result<OAuthTokenResponse, OAuthError> {
    let fail = |detail: String| OAuthError::SignIn {
        server: target.server.clone(),
        detail: crate::defs::redact::mask_session_secrets(&detail),
    };
    if let Some(why) = super::trust::endpoint_refusal(endpoint) {
        return Err(fail(format!("not sent to {endpoint}: {why}")));
    }
    let response = http
        .plain()
        .post(endpoint)
        .header(reqwest::header::CONTENT_TYPE, super::http::FORM)
        .body(super::http::form_body(form))
        .timeout(http.timeout())
        .send()
        .await
        .map_err(|e| fail(format!("token request to {endpoint}: {e}")))?;
    let status = response.status();
    let body = super::http::read_bounded(response)
        .await
        .map_err(|e| fail(format!("token response: {e}")))?;
    if !status.is_success() {
        let text = String::from_utf8_lossy(&body);
        return Err(fail(format!(
            "token endpoint answered HTTP {}: {}",
            status.as_u16(),
            super::bounds::summarise(&text)
        )));
    }
    let token = serde_json::from_slice::<OAuthTokenResponse>(&body)
        .map_err(|e| fail(format!("unusable token response: {e}")))?;
    register_secret(token.access_token().secret());
    match super::bounds::token_refusal(&token) {
        Some(why) => Err(fail(why)),
        None => Ok(token),
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
