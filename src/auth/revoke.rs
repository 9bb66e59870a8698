//! Signing out at the server: RFC 7009 revocation of a stored entry's
//! refresh and access tokens, best effort, and never to a revocation
//! endpoint that is plain http off loopback (see [`super::trust`]).

use std::time::Duration;

use oauth2::TokenResponse;

use super::flow::Target;
use super::http::{FORM, Http, form_body};
use super::store::{self, TokenEntry};
use crate::defs::TokenEndpointAuth;

/// What `logout` did at the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Revocation {
    /// Both tokens were revoked (the server answered 200).
    Revoked,
    /// The server has no revocation endpoint.
    Unsupported,
    /// The revocation endpoint is plain http to another host: the tokens
    /// were not sent (and were deleted here).
    Refused,
    /// The server could not be reached or refused; the tokens were deleted
    /// here anyway.
    Failed,
}

/// Revoke `entry`'s refresh and access tokens (RFC 7009), best effort.
pub async fn revoke(target: &Target, entry: &TokenEntry, budget: Duration) -> Revocation {
    let Some(endpoint) = entry
        .metadata
        .additional_fields
        .get("revocation_endpoint")
        .and_then(|v| v.as_str())
        .map(str::to_string)
    else {
        return Revocation::Unsupported;
    };
    if super::trust::endpoint_refusal(&endpoint).is_some() {
        return Revocation::Refused;
    }
    let Ok(http) = Http::new(budget) else {
        return Revocation::Failed;
    };
    let secret = if target.oauth.client_id.as_deref() == Some(entry.client_id.as_str()) {
        target.client_secret().ok().flatten()
    } else {
        store::read()
            .ok()
            .and_then(|f| f.registrations.get(&entry.issuer).cloned())
            .filter(|r| r.client_id == entry.client_id)
            .and_then(|r| r.client_secret)
    };
    let mut tokens = Vec::new();
    if let Some(refresh) = entry.token.refresh_token() {
        tokens.push((refresh.secret().to_string(), "refresh_token"));
    }
    tokens.push((
        entry.token.access_token().secret().to_string(),
        "access_token",
    ));
    let mut all = true;
    for (token, hint) in tokens {
        let mut form = vec![("token", token), ("token_type_hint", hint.to_string())];
        let mut request = http.plain().post(&endpoint).timeout(budget);
        match &secret {
            Some(secret)
                if target.oauth.token_endpoint_auth
                    != Some(TokenEndpointAuth::ClientSecretPost) =>
            {
                request = request.basic_auth(&entry.client_id, Some(secret));
            }
            Some(secret) => {
                form.push(("client_id", entry.client_id.clone()));
                form.push(("client_secret", secret.clone()));
            }
            None => form.push(("client_id", entry.client_id.clone())),
        }
        let ok = matches!(
            request
                .header(reqwest::header::CONTENT_TYPE, FORM)
                .body(form_body(&form))
                .send()
                .await,
            Ok(response) if response.status().is_success()
        );
        all &= ok;
    }
    if all {
        Revocation::Revoked
    } else {
        Revocation::Failed
    }
}
