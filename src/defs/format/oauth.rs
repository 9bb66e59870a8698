//! The OAuth fields of an entry (`auth: oauth` and its companions),
//! checked against each other: a secret or key is only ever a `${VAR}`
//! reference, and a combination that cannot work is refused on read.

use super::raw::RawEntry;
use crate::defs::error::DefsError;
use crate::defs::model::{Grant, OAuth, TokenEndpointAuth, Transport};

/// The OAuth fields of an entry (`auth: oauth` and its companions), checked
/// against each other: a secret or key is only ever a `${VAR}` reference.
pub(super) fn oauth_fields(
    this: &RawEntry,
    transport: Transport,
    fail: &dyn Fn(String) -> DefsError,
) -> Result<Option<OAuth>, DefsError> {
    let companions = [
        ("grant", this.grant.is_some()),
        ("client_id", this.client_id.is_some()),
        ("client_secret", this.client_secret.is_some()),
        ("token_endpoint_auth", this.token_endpoint_auth.is_some()),
        ("client_key", this.client_key.is_some()),
        ("client_metadata_url", this.client_metadata_url.is_some()),
    ];
    let Some(auth) = this.auth.as_deref() else {
        if let Some((field, _)) = companions.iter().find(|(_, given)| *given) {
            return Err(fail(format!("has `{field}` but no `auth: oauth`")));
        }
        return Ok(None);
    };
    if auth != "oauth" {
        return Err(fail(format!(
            "unknown `auth` `{auth}`; the only one is `oauth`"
        )));
    }
    if !transport.is_remote() {
        return Err(fail(
            "`auth: oauth` applies to a remote server (`url`), not a stdio one".to_string(),
        ));
    }
    let grant = match this.grant.as_deref() {
        None => Grant::default(),
        Some(spelling) => Grant::from_spelling(spelling).ok_or_else(|| {
            fail(format!(
                "unknown `grant` `{spelling}`; use authorization_code or client_credentials"
            ))
        })?,
    };
    let token_endpoint_auth = match this.token_endpoint_auth.as_deref() {
        None => None,
        Some(spelling) => Some(TokenEndpointAuth::from_spelling(spelling).ok_or_else(|| {
            fail(format!(
                "unknown `token_endpoint_auth` `{spelling}`; use client_secret_basic, client_secret_post, none or private_key_jwt"
            ))
        })?),
    };
    for (field, value) in [
        ("client_secret", &this.client_secret),
        ("client_key", &this.client_key),
    ] {
        if let Some(value) = value
            && !crate::defs::vars::is_single_reference(value)
        {
            return Err(fail(format!(
                "`{field}` must be a ${{VAR}} reference, not a literal value (keep the secret in the environment)"
            )));
        }
    }
    let oauth = OAuth {
        grant,
        client_id: this.client_id.clone(),
        client_secret: this.client_secret.clone(),
        token_endpoint_auth,
        client_key: this.client_key.clone(),
        scope: this.scope.clone(),
        client_metadata_url: this.client_metadata_url.clone(),
    };
    if let Some(problem) = oauth_problem(&oauth) {
        return Err(fail(problem));
    }
    Ok(Some(oauth))
}

/// Why `oauth`'s fields cannot work together, if they cannot (shared by the
/// file reader and `add`).
pub fn oauth_problem(oauth: &OAuth) -> Option<String> {
    use TokenEndpointAuth as M;
    if oauth.client_secret.is_some() && oauth.client_id.is_none() {
        return Some("`client_secret` needs a `client_id`".to_string());
    }
    if oauth.client_key.is_some() && oauth.client_id.is_none() {
        return Some("`client_key` needs a `client_id`".to_string());
    }
    match oauth.token_endpoint_auth {
        Some(M::PrivateKeyJwt) if oauth.client_key.is_none() => {
            return Some("`token_endpoint_auth: private_key_jwt` needs a `client_key`".to_string());
        }
        Some(M::ClientSecretBasic | M::ClientSecretPost) if oauth.client_secret.is_none() => {
            return Some(format!(
                "`token_endpoint_auth: {}` needs a `client_secret`",
                oauth.token_endpoint_auth.map(M::as_str).unwrap_or_default()
            ));
        }
        _ => {}
    }
    if oauth.grant == Grant::ClientCredentials
        && (oauth.client_id.is_none()
            || (oauth.client_secret.is_none() && oauth.client_key.is_none()))
    {
        return Some(
            "`grant: client_credentials` needs a `client_id` and a `client_secret` or `client_key`"
                .to_string(),
        );
    }
    if let Some(url) = &oauth.client_metadata_url {
        let usable = url::Url::parse(url).is_ok_and(|u| {
            let loopback = matches!(u.host(), Some(url::Host::Ipv4(ip)) if ip.is_loopback())
                || u.host_str() == Some("localhost");
            (u.scheme() == "https" || (u.scheme() == "http" && loopback))
                && u.host_str().is_some()
                && u.path() != "/"
        });
        if !usable {
            return Some(format!(
                "`client_metadata_url` `{url}` must be an https URL with a path (http only on loopback)"
            ));
        }
    }
    None
}
