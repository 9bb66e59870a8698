//! The authorization-code grant: a loopback listener for the redirect, a
//! client id (see [`crate::auth::client`]), the sign-in page in a browser,
//! the redirect with its `state` check, and the code exchanged for a token
//! that rmcp stores through [`EntryStore`].
//!
//! Anyone who can read the authorization URL (the process list, a
//! browser's history) has its `state`, so a redirect that carries it is
//! not yet the browser's: a code it brings is tried, and when the token
//! endpoint refuses it as `invalid_grant` (a planted or made-up code: PKCE
//! binds the real one to this sign-in), or its `iss` is wrong, the sign-in
//! goes on waiting, until the deadline, for the redirect that signs in.
//! Any other failure (the client refused, an answer mcpctl refuses) would
//! fail the browser's redirect too, and ends the sign-in at once. An `error` with the right `state` is the
//! authorization server's answer (RFC 6749 §4.1.2.1: the person declined,
//! or the server refused) and ends the sign-in: nothing tells it from a
//! forged one, waiting out the deadline for a code that will not come
//! helps no one, and signing in again is the remedy.

use std::sync::atomic::Ordering::SeqCst;

use rmcp::transport::auth::{
    AuthError, AuthorizationCallback, AuthorizationManager, AuthorizationRequest,
    AuthorizationSession, StateStore, StoredAuthorizationState,
};

use super::{Deadline, Discovered, LoginOptions, SignedIn, Target, requested_scopes};
use crate::auth::OAuthError;
use crate::auth::browser;
use crate::auth::client::{self, Ask, Client};
use crate::auth::loopback::{Answer, Listener, Redirect};
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
    manager.set_state_store(KeptStates::default());
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
    sign_in_by_redirect(target, listener, &session, &sent_state, opts).await?;
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

/// Why a redirect did not sign in.
enum Failed {
    /// The redirect's own fault, which a stray request's would be: its
    /// code refused by the token endpoint (`invalid_grant`, RFC 6749 §5.2),
    /// its `iss` not the issuer's (RFC 9207), no code at all. The browser's
    /// redirect may still come.
    Redirect(OAuthError),
    /// Anything else (the client refused, the token endpoint unreachable,
    /// an answer mcpctl refuses, the deadline): the sign-in ends.
    SignIn(OAuthError),
}

/// Exchange the code the redirect carried for a token (rmcp stores it).
async fn exchange_code(
    target: &Target,
    session: &AuthorizationSession,
    callback: &str,
    deadline: &Deadline,
) -> Result<(), Failed> {
    let server = target.server.as_str();
    let sign_in = |detail| OAuthError::SignIn {
        server: server.to_string(),
        detail,
    };
    let parsed = AuthorizationCallback::from_redirect_url(callback)
        .map_err(|e| Failed::Redirect(sign_in(describe(&e))))?;
    let exchanged = deadline
        .run(
            server,
            "the token request",
            session.handle_callback_with_issuer(
                &parsed.code,
                &parsed.csrf_token,
                parsed.issuer.as_deref(),
            ),
        )
        .await
        .map_err(Failed::SignIn)?;
    exchanged.map(|_| ()).map_err(|e| {
        let redirects_fault = match &e {
            AuthError::TokenExchangeFailed(why) => why.contains("invalid_grant"),
            AuthError::AuthorizationServerMismatch { .. }
            | AuthError::AuthorizationServerMissingIssuer { .. } => true,
            _ => false,
        };
        match redirects_fault {
            true => Failed::Redirect(sign_in(describe(&e))),
            false => Failed::SignIn(sign_in(describe(&e))),
        }
    })
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

/// Take the redirects carrying `sent_state` until one signs in (see the
/// module doc): a code the token endpoint refuses (or a wrong `iss`) is
/// noted and the wait goes on until the deadline, when the last refusal is
/// the error; an `error`, or any other failure, ends the sign-in.
async fn sign_in_by_redirect(
    target: &Target,
    listener: Listener,
    session: &AuthorizationSession,
    sent_state: &str,
    opts: &LoginOptions,
) -> Result<(), OAuthError> {
    let server = target.server.as_str();
    let ignored = listener.ignored();
    let mut redirects = listener.redirects(sent_state);
    let mut tried = std::collections::HashSet::new();
    let mut refused: Option<OAuthError> = None;
    loop {
        let waited = opts
            .deadline
            .run(
                server,
                "waiting for the browser to come back to mcpctl",
                redirects.next(),
            )
            .await;
        let redirect = match waited {
            Ok(Some(redirect)) => redirect,
            Ok(None) => {
                return Err(OAuthError::Listener {
                    server: server.to_string(),
                    detail: "the loopback listener stopped".into(),
                });
            }
            Err(timeout) => {
                return Err(refused.unwrap_or(match ignored.load(SeqCst) {
                    0 => timeout,
                    _ => OAuthError::StateMismatch {
                        server: server.to_string(),
                    },
                }));
            }
        };
        let query: std::collections::HashMap<String, String> = url::Url::parse(&redirect.url)
            .map(|u| u.query_pairs().into_owned().collect())
            .unwrap_or_default();
        if let Some(error) = query.get("error") {
            redirect.answer(Answer::Refused).await;
            return Err(denied(server, error, query.get("error_description")));
        }
        let code = query.get("code").cloned().unwrap_or_default();
        register_secret(&code);
        if !tried.insert(code) {
            redirect.answer(Answer::CodeFailed).await;
            continue;
        }
        match try_redirect(target, session, redirect, &opts.deadline).await {
            Ok(()) => return Ok(()),
            Err(Failed::SignIn(e)) => return Err(e),
            Err(Failed::Redirect(e)) => {
                (opts.note)(&format!(
                    "a redirect to mcpctl brought a code that did not sign in ({e}); \
                     still waiting for the browser's"
                ));
                refused = Some(e);
            }
        }
    }
}

/// Exchange the code `redirect` brought, and tell its browser how it went.
async fn try_redirect(
    target: &Target,
    session: &AuthorizationSession,
    redirect: Redirect,
    deadline: &Deadline,
) -> Result<(), Failed> {
    let exchanged = exchange_code(target, session, &redirect.url, deadline).await;
    let answer = match exchanged {
        Ok(()) => Answer::SignedIn,
        Err(_) => Answer::CodeFailed,
    };
    redirect.answer(answer).await;
    exchanged
}

/// The authorization server's refusal, its words escaped.
fn denied(server: &str, error: &str, description: Option<&String>) -> OAuthError {
    OAuthError::Denied {
        server: server.to_string(),
        error: crate::output::sanitize(error).into_owned(),
        description: description.map(|d| crate::output::sanitize(d).into_owned()),
    }
}

/// The sign-in's `state` and PKCE verifier, kept for as long as the
/// sign-in runs: rmcp deletes them before the token exchange, so a planted
/// code that fails it would leave the browser's redirect nothing to sign
/// in with. Held in memory, they go with the sign-in.
#[derive(Default)]
struct KeptStates(tokio::sync::Mutex<std::collections::HashMap<String, StoredAuthorizationState>>);

#[async_trait::async_trait]
impl StateStore for KeptStates {
    async fn save(&self, csrf: &str, state: StoredAuthorizationState) -> Result<(), AuthError> {
        self.0.lock().await.insert(csrf.to_string(), state);
        Ok(())
    }

    async fn load(&self, csrf: &str) -> Result<Option<StoredAuthorizationState>, AuthError> {
        Ok(self.0.lock().await.get(csrf).cloned())
    }

    async fn delete(&self, _csrf: &str) -> Result<(), AuthError> {
        Ok(())
    }
}
