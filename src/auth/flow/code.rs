//! The authorization-code grant: a loopback listener for the redirect, a
//! client id (see [`crate::auth::client`]), the sign-in page in a browser,
//! the redirect with its `state` check, and the code exchanged for a token
//! that rmcp stores through [`EntryStore`].

use rmcp::transport::auth::{
    AuthorizationCallback, AuthorizationManager, AuthorizationRequest, AuthorizationSession,
};

use super::{Deadline, Discovered, LoginOptions, SignedIn, Target, requested_scopes};
use crate::auth::OAuthError;
use crate::auth::browser;
use crate::auth::client::{self, Ask, Client};
use crate::auth::loopback::Listener;
use crate::auth::store::{self, EntryStore, Registration, TokenEntry};
use crate::auth::target::describe;
use crate::defs::Grant;
use crate::defs::redact::register_secret;

/// Sign in through a browser: the whole authorization-code flow, under the
/// sign-in's deadline.
pub(super) async fn authorization_code(
    target: &Target,
    discovered: Discovered,
    opts: &LoginOptions,
) -> Result<SignedIn, OAuthError> {
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
        &target.server,
        Grant::AuthorizationCode,
        metadata.clone(),
    ));
    let remembered = if issuer.is_empty() {
        None
    } else {
        store::read()?.registrations.get(&issuer).cloned()
    };
    let listener = bind_listener(target, remembered.as_ref()).await?;
    let redirect_uri = listener.redirect_uri();
    let ask = Ask {
        target,
        metadata: &metadata,
        issuer: &issuer,
        redirect_uri: &redirect_uri,
        scopes: &scopes,
        deadline: &opts.deadline,
    };
    let chosen = client::choose(&ask, &mut manager, remembered).await?;
    let kind = chosen.kind;
    let session = start_session(target, manager, &redirect_uri, chosen, &scopes).await?;
    let sent_state = show_sign_in_page(target, &session, opts)?;
    let callback = redirect(target, listener, &sent_state, &opts.deadline).await?;
    exchange_code(target, &session, &callback, &opts.deadline).await?;
    let entry = stored_entry(target, &issuer)?;
    Ok(SignedIn {
        entry,
        client: kind,
    })
}

/// The loopback listener for the redirect, on the port of the redirect URI
/// a remembered registration names when it is free (so the registration
/// still matches).
async fn bind_listener(
    target: &Target,
    remembered: Option<&Registration>,
) -> Result<Listener, OAuthError> {
    let preferred_port = remembered
        .and_then(|r| url::Url::parse(&r.redirect_uri).ok())
        .and_then(|u| u.port());
    Listener::bind(preferred_port)
        .await
        .map_err(|e| OAuthError::Listener {
            server: target.server.clone(),
            detail: e.to_string(),
        })
}

/// rmcp's sign-in session for the chosen client, asking for `scopes`.
async fn start_session(
    target: &Target,
    manager: AuthorizationManager,
    redirect_uri: &str,
    chosen: Client,
    scopes: &[String],
) -> Result<AuthorizationSession, OAuthError> {
    let mut request = AuthorizationRequest::new(redirect_uri.to_string())
        .with_preregistered_client(chosen.id.clone())
        .with_client_name("mcpctl")
        .with_scopes(scopes.to_vec());
    if let Some(secret) = chosen.secret {
        request = request.with_client_secret(secret);
    }
    AuthorizationSession::new(manager, request)
        .await
        .map_err(|(_, e)| OAuthError::SignIn {
            server: target.server.clone(),
            detail: describe(&e),
        })
}

/// Show the sign-in page's URL (and open it in a browser when asked),
/// refusing a URL no browser should be sent to; returns the `state` it
/// carries, which the redirect must bring back.
fn show_sign_in_page(
    target: &Target,
    session: &AuthorizationSession,
    opts: &LoginOptions,
) -> Result<String, OAuthError> {
    let auth_url = session.get_authorization_url().to_string();
    if let Some(why) = browser::refusal(&auth_url) {
        return Err(OAuthError::UnsafeUrl {
            server: target.server.clone(),
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
    Ok(sent_state)
}

/// Exchange the code the redirect carried for a token (rmcp stores it).
async fn exchange_code(
    target: &Target,
    session: &AuthorizationSession,
    callback: &str,
    deadline: &Deadline,
) -> Result<(), OAuthError> {
    let server = target.server.as_str();
    let parsed =
        AuthorizationCallback::from_redirect_url(callback).map_err(target.err(|detail| {
            OAuthError::SignIn {
                server: server.to_string(),
                detail,
            }
        }))?;
    deadline
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
    Ok(())
}

/// The entry the exchange stored for this issuer and resource.
fn stored_entry(target: &Target, issuer: &str) -> Result<TokenEntry, OAuthError> {
    store::read()?
        .tokens
        .get(&store::key(issuer, &target.url))
        .cloned()
        .ok_or_else(|| OAuthError::SignIn {
            server: target.server.clone(),
            detail: "the token was not stored".into(),
        })
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
