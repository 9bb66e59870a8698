//! The client-credentials grant: a client secret (sent Basic or in the form
//! body, by rmcp) or a `private_key_jwt` assertion (signed and posted here).

use std::sync::Arc;

use oauth2::TokenResponse;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationMetadata, ClientCredentialsConfig,
    OAuthTokenResponse,
};

use super::{Discovered, Target};
use crate::auth::OAuthError;
use crate::auth::http::Http;
use crate::auth::store::{EntryStore, TokenEntry};
use crate::auth::target::describe;
use crate::defs::redact::register_secret;
use crate::defs::{Grant, TokenEndpointAuth};

/// The client-credentials grant: a secret (Basic or form body, by rmcp) or
/// a `private_key_jwt` assertion (here).
pub async fn client_credentials(
    target: &Target,
    http: Arc<Http>,
    discovered: Discovered,
    scopes: Vec<String>,
) -> Result<TokenEntry, OAuthError> {
    let Discovered {
        manager,
        metadata,
        issuer,
        ..
    } = discovered;
    let client_id = required(
        target,
        target.oauth.client_id.clone(),
        "`grant: client_credentials` needs a `client_id`",
    )?;
    let store = EntryStore::new(
        &issuer,
        &target.url,
        &target.server,
        Grant::ClientCredentials,
        metadata.clone(),
    );
    let use_key = target.oauth.client_key.is_some()
        && target.oauth.token_endpoint_auth != Some(TokenEndpointAuth::ClientSecretBasic)
        && target.oauth.token_endpoint_auth != Some(TokenEndpointAuth::ClientSecretPost);
    if use_key {
        let token = with_key(target, &http, &metadata, &client_id, &scopes).await?;
        let granted = granted(&token, &scopes);
        return store.put(&client_id, token, granted);
    }
    with_secret(target, manager, store, client_id, scopes).await
}

/// `private_key_jwt`: a signed assertion for the authorization server,
/// posted by mcpctl itself (rmcp has no such exchange).
async fn with_key(
    target: &Target,
    http: &Http,
    metadata: &AuthorizationMetadata,
    client_id: &str,
    scopes: &[String],
) -> Result<OAuthTokenResponse, OAuthError> {
    let server = target.server.as_str();
    let key = required(target, target.client_key()?, "`client_key` is empty")?;
    let audience = metadata
        .issuer
        .clone()
        .unwrap_or_else(|| metadata.token_endpoint.clone());
    let assertion =
        key.assertion(client_id, &audience)
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
    post_token(target, http, &metadata.token_endpoint, &form).await
}

/// A client secret, exchanged by rmcp, which stores the token through
/// `store`.
async fn with_secret(
    target: &Target,
    mut manager: AuthorizationManager,
    store: EntryStore,
    client_id: String,
    scopes: Vec<String>,
) -> Result<TokenEntry, OAuthError> {
    let server = target.server.as_str();
    let secret = required(
        target,
        target.client_secret()?,
        "`grant: client_credentials` needs `client_secret` or `client_key`",
    )?;
    manager.set_credential_store(store.clone());
    let config = ClientCredentialsConfig::ClientSecret {
        client_id,
        client_secret: secret,
        scopes,
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

/// `value`, or the definition's credentials are incomplete: `missing` says
/// what is missing.
fn required<T>(target: &Target, value: Option<T>, missing: &str) -> Result<T, OAuthError> {
    value.ok_or_else(|| OAuthError::Credentials {
        server: target.server.clone(),
        detail: missing.into(),
    })
}

/// The scopes the token response says were granted, else those asked for.
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
    if let Some(why) = crate::auth::trust::endpoint_refusal(endpoint) {
        return Err(fail(format!("not sent to {endpoint}: {why}")));
    }
    let response = http
        .plain()
        .post(endpoint)
        .header(reqwest::header::CONTENT_TYPE, crate::auth::http::FORM)
        .body(crate::auth::http::form_body(form))
        .timeout(http.timeout())
        .send()
        .await
        .map_err(|e| fail(format!("token request to {endpoint}: {e}")))?;
    let status = response.status();
    let body = crate::auth::http::read_bounded(response)
        .await
        .map_err(|e| fail(format!("token response: {e}")))?;
    if !status.is_success() {
        let text = String::from_utf8_lossy(&body);
        return Err(fail(format!(
            "token endpoint answered HTTP {}: {}",
            status.as_u16(),
            crate::auth::bounds::summarise(&text)
        )));
    }
    let token = serde_json::from_slice::<OAuthTokenResponse>(&body)
        .map_err(|e| fail(format!("unusable token response: {e}")))?;
    register_secret(token.access_token().secret());
    match crate::auth::bounds::token_refusal(&token) {
        Some(why) => Err(fail(why)),
        None => Ok(token),
    }
}
