//! Which client id a browser sign-in uses, in the specification's order:
//! the definition's own, then a client ID metadata document (where the
//! server supports them), then a registration remembered for the issuer,
//! then a new dynamic registration (RFC 7591), kept per issuer and bounded
//! like everything else an authorization server sends.

use rmcp::transport::auth::{AuthorizationManager, AuthorizationMetadata};

use super::OAuthError;
use super::store::{self, Registration};
use super::target::{Deadline, Target};
use crate::defs::redact::register_secret;

/// What choosing a client needs to know.
pub struct Ask<'a> {
    /// The server signed in to.
    pub target: &'a Target,
    /// Its authorization server's metadata.
    pub metadata: &'a AuthorizationMetadata,
    /// The issuer ("" without metadata: nothing is remembered).
    pub issuer: &'a str,
    /// The loopback redirect URI to register.
    pub redirect_uri: &'a str,
    /// The scopes to register for.
    pub scopes: &'a [String],
    /// The sign-in's deadline.
    pub deadline: &'a Deadline,
}

/// The client a sign-in uses.
pub struct Client {
    /// The client id.
    pub id: String,
    /// Its secret, for a confidential client.
    pub secret: Option<String>,
    /// How it was obtained, for `login`'s report.
    pub kind: &'static str,
}

/// The client id for `ask`, registering one with `manager` when that is
/// the way left.
pub async fn choose(
    ask: &Ask<'_>,
    manager: &mut AuthorizationManager,
    remembered: Option<Registration>,
) -> Result<Client, OAuthError> {
    let (target, metadata) = (ask.target, ask.metadata);
    let cimd_supported = supports(metadata, "client_id_metadata_document_supported");
    let cimd = target
        .oauth
        .client_metadata_url
        .clone()
        .filter(|_| cimd_supported);
    let client =
        |id: String, secret: Option<String>, kind: &'static str| Client { id, secret, kind };
    if let Some(id) = &target.oauth.client_id {
        return Ok(client(
            id.clone(),
            target.client_secret()?,
            "pre-registered",
        ));
    }
    if let Some(url) = cimd {
        return Ok(client(url, None, "client ID metadata document"));
    }
    if let Some(r) = remembered {
        return Ok(client(r.client_id, r.client_secret, "registered earlier"));
    }
    if metadata.registration_endpoint.is_some() {
        return register(ask, manager).await;
    }
    Err(OAuthError::NoRegistration {
        server: target.server.clone(),
        cimd: if cimd_supported {
            ", and no `client_metadata_url` in the definition"
        } else {
            ", no client ID metadata documents"
        },
    })
}

/// Register a new client (RFC 7591) and remember it for the issuer.
async fn register(ask: &Ask<'_>, manager: &mut AuthorizationManager) -> Result<Client, OAuthError> {
    let target = ask.target;
    let server = target.server.as_str();
    let scope_refs: Vec<&str> = ask.scopes.iter().map(String::as_str).collect();
    let config = ask
        .deadline
        .run(
            server,
            "client registration",
            manager.register_client("mcpctl", ask.redirect_uri, &scope_refs),
        )
        .await?
        .map_err(target.err(|detail| OAuthError::SignIn {
            server: server.to_string(),
            detail: format!("dynamic client registration: {detail}"),
        }))?;
    if let Some(secret) = &config.client_secret {
        register_secret(secret);
    }
    check_registration(target, &config.client_id, config.client_secret.as_deref())?;
    if !ask.issuer.is_empty() {
        let registration = Registration {
            client_id: config.client_id.clone(),
            client_secret: config.client_secret.clone(),
            redirect_uri: ask.redirect_uri.to_string(),
        };
        let issuer = ask.issuer.to_string();
        store::modify(move |file| {
            file.registrations.insert(issuer, registration);
        })?;
    }
    Ok(Client {
        id: config.client_id,
        secret: config.client_secret,
        kind: "registered now",
    })
}

/// Refuse a registration answer whose fields are unbounded.
fn check_registration(
    target: &Target,
    client_id: &str,
    secret: Option<&str>,
) -> Result<(), OAuthError> {
    use super::bounds::{MAX_CLIENT_FIELD, field};
    let from = "the registration endpoint";
    let why = field(from, "client_id", client_id, MAX_CLIENT_FIELD)
        .or_else(|| secret.and_then(|s| field(from, "client_secret", s, MAX_CLIENT_FIELD)));
    match why {
        Some(detail) => Err(OAuthError::SignIn {
            server: target.server.clone(),
            detail: format!("dynamic client registration: {detail}"),
        }),
        None => Ok(()),
    }
}

/// True when `metadata` has the boolean `field` set.
fn supports(metadata: &AuthorizationMetadata, field: &str) -> bool {
    metadata
        .additional_fields
        .get(field)
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}
