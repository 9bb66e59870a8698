//! What can go wrong while signing in or using a token, each with the next
//! step for the operator. Messages never carry a token, code or secret.

use crate::error::{Diagnostic, ExitCode};

/// An OAuth failure of one server.
#[derive(Debug, thiserror::Error)]
pub enum OAuthError {
    /// The definition has no `auth: oauth`.
    #[error("{server}: the definition does not use OAuth (no `auth: oauth`)")]
    NotOAuth {
        /// The server.
        server: String,
    },
    /// A local (stdio) server: nothing to sign in to.
    #[error("{server} runs on this machine (stdio) and needs no sign-in")]
    Local {
        /// The server.
        server: String,
    },
    /// The server answered an unsigned request without asking for a sign-in.
    #[error(
        "{server}: {url} does not ask for an OAuth sign-in (it answered {answer} to a request without a token)"
    )]
    NotUsingOAuth {
        /// The server.
        server: String,
        /// The MCP endpoint.
        url: String,
        /// The status it answered, in words.
        answer: String,
    },
    /// The protected-resource metadata names another resource.
    #[error("{server}: refusing to sign in: {detail}")]
    ResourceMismatch {
        /// The server.
        server: String,
        /// Which document, what it named, and why that is refused.
        detail: String,
    },
    /// An endpoint in the metadata would carry secrets over plain http.
    #[error("{server}: refusing to sign in: the authorization server's `{field}` is {url}; {why}")]
    UnsafeEndpoint {
        /// The server.
        server: String,
        /// The metadata field.
        field: &'static str,
        /// The URL, sanitized.
        url: String,
        /// Why.
        why: String,
    },
    /// `add` met an OAuth challenge without `--auth oauth`, and could not ask.
    #[error(
        "{server}: the server asks for an OAuth sign-in (HTTP 401, WWW-Authenticate: Bearer); nothing was saved"
    )]
    NeedsSignIn {
        /// The server.
        server: String,
    },
    /// No token is stored for this server.
    #[error("{server}: not signed in")]
    NotSignedIn {
        /// The server.
        server: String,
    },
    /// The refresh token was refused or is missing, and a new sign-in is needed.
    #[error("{server}: the stored token has expired and could not be refreshed ({detail})")]
    RefreshFailed {
        /// The server.
        server: String,
        /// Why, without secrets.
        detail: String,
    },
    /// Discovery found nothing usable, or what it found was refused.
    #[error("{server}: OAuth discovery failed: {detail}")]
    Discovery {
        /// The server.
        server: String,
        /// Why.
        detail: String,
    },
    /// No way to get a client id: no pre-registered client, no CIMD, no DCR.
    #[error(
        "{server}: the authorization server offers no way to register mcpctl (no dynamic client registration{cimd})"
    )]
    NoRegistration {
        /// The server.
        server: String,
        /// Whether CIMD was possible.
        cimd: &'static str,
    },
    /// Registration, authorization or the token exchange failed.
    #[error("{server}: sign-in failed: {detail}")]
    SignIn {
        /// The server.
        server: String,
        /// Why, without secrets.
        detail: String,
    },
    /// The redirect came back with another `state` than the one sent.
    #[error(
        "{server}: the authorization redirect carried a different `state` than mcpctl sent; refusing it (possible CSRF)"
    )]
    StateMismatch {
        /// The server.
        server: String,
    },
    /// The authorization server answered the redirect with an error.
    #[error("{server}: the authorization server refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Denied {
        /// The server.
        server: String,
        /// The `error` parameter.
        error: String,
        /// The `error_description` parameter.
        description: Option<String>,
    },
    /// The authorization URL is not https (or http on loopback).
    #[error("{server}: refusing to open the authorization URL `{url}`: {why}")]
    UnsafeUrl {
        /// The server.
        server: String,
        /// The URL, sanitized.
        url: String,
        /// Why.
        why: String,
    },
    /// A step ran past its time.
    #[error("{server}: {what} did not finish within {seconds} s")]
    Timeout {
        /// The server.
        server: String,
        /// The step.
        what: String,
        /// The budget.
        seconds: u64,
    },
    /// The key or secret from the environment is unusable.
    #[error("{server}: {detail}")]
    Credentials {
        /// The server.
        server: String,
        /// Why.
        detail: String,
    },
    /// The server asks for more scopes than the token has, and mcpctl
    /// could not get them here.
    #[error("{server}: the server needs the scope `{scope}`, which the token does not have")]
    InsufficientScope {
        /// The server.
        server: String,
        /// The scopes the server named.
        scope: String,
    },
    /// The token file could not be read or written.
    #[error("token store {path}: {detail}")]
    Store {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        detail: String,
        /// What to do, when the state directory itself was refused.
        hint: Option<String>,
    },
    /// The loopback listener could not be set up.
    #[error("{server}: cannot listen for the authorization redirect on 127.0.0.1: {detail}")]
    Listener {
        /// The server.
        server: String,
        /// Why.
        detail: String,
    },
}

impl OAuthError {
    /// The server this error is about, if any.
    pub fn server(&self) -> Option<&str> {
        match self {
            OAuthError::Store { .. } => None,
            OAuthError::NotOAuth { server }
            | OAuthError::Local { server }
            | OAuthError::NotUsingOAuth { server, .. }
            | OAuthError::ResourceMismatch { server, .. }
            | OAuthError::UnsafeEndpoint { server, .. }
            | OAuthError::NeedsSignIn { server }
            | OAuthError::NotSignedIn { server }
            | OAuthError::RefreshFailed { server, .. }
            | OAuthError::Discovery { server, .. }
            | OAuthError::NoRegistration { server, .. }
            | OAuthError::SignIn { server, .. }
            | OAuthError::StateMismatch { server }
            | OAuthError::Denied { server, .. }
            | OAuthError::UnsafeUrl { server, .. }
            | OAuthError::Timeout { server, .. }
            | OAuthError::Credentials { server, .. }
            | OAuthError::InsufficientScope { server, .. }
            | OAuthError::Listener { server, .. } => Some(server),
        }
    }

    /// A stable name for `--json`.
    pub fn kind(&self) -> &'static str {
        match self {
            OAuthError::NotOAuth { .. } => "not_oauth",
            OAuthError::Local { .. } => "local",
            OAuthError::NotUsingOAuth { .. } => "not_using_oauth",
            OAuthError::ResourceMismatch { .. } => "resource_mismatch",
            OAuthError::UnsafeEndpoint { .. } => "unsafe_endpoint",
            OAuthError::NotSignedIn { .. } => "not_signed_in",
            OAuthError::NeedsSignIn { .. } => "needs_sign_in",
            OAuthError::RefreshFailed { .. } => "refresh_failed",
            OAuthError::Discovery { .. } => "discovery",
            OAuthError::NoRegistration { .. } => "no_registration",
            OAuthError::SignIn { .. } => "sign_in",
            OAuthError::StateMismatch { .. } => "state_mismatch",
            OAuthError::Denied { .. } => "denied",
            OAuthError::UnsafeUrl { .. } => "unsafe_url",
            OAuthError::Timeout { .. } => "timeout",
            OAuthError::Credentials { .. } => "credentials",
            OAuthError::InsufficientScope { .. } => "insufficient_scope",
            OAuthError::Store { .. } => "store",
            OAuthError::Listener { .. } => "listener",
        }
    }
}

impl Diagnostic for OAuthError {
    fn exit_code(&self) -> ExitCode {
        match self {
            OAuthError::NotOAuth { .. }
            | OAuthError::Local { .. }
            | OAuthError::Credentials { .. } => ExitCode::Usage,
            _ => ExitCode::Failed,
        }
    }

    fn hint(&self) -> Option<String> {
        let login = |server: &str| format!("run `mcpctl login {server}`");
        Some(match self {
            OAuthError::NotOAuth { server } => format!(
                "add `\"auth\": \"oauth\"` to its definition (or `mcpctl add --url URL --auth oauth --force --name {server}`)"
            ),
            OAuthError::Local { server } => {
                format!("use it as it is: `mcpctl check {server}`")
            }
            OAuthError::NotUsingOAuth { server, .. } => format!(
                "drop `auth: oauth` from its definition (`mcpctl add --name {server} --url URL --force`), then `mcpctl check {server}`; check the URL if this is not the server you meant"
            ),
            OAuthError::ResourceMismatch { .. } => {
                "nothing was registered or sent; check the server's URL, and report the metadata to the server's operator".into()
            }
            OAuthError::UnsafeEndpoint { .. } => {
                "nothing was sent; the authorization server must use https; report it to the server's operator".into()
            }
            OAuthError::NeedsSignIn { server } => format!(
                "add it again with `--auth oauth` (mcpctl add ... --auth oauth --name {server}), then run `mcpctl login {server}`"
            ),
            OAuthError::NotSignedIn { server } | OAuthError::RefreshFailed { server, .. } => {
                login(server)
            }
            OAuthError::Discovery { .. } => {
                "check the URL; the server must answer 401 with a `WWW-Authenticate: Bearer` challenge or publish /.well-known/oauth-protected-resource".into()
            }
            OAuthError::NoRegistration { .. } => {
                "register a client with the authorization server and set `client_id` (and `client_secret: ${VAR}` for a confidential client), or `client_metadata_url` where the server supports client ID metadata documents".into()
            }
            OAuthError::SignIn { server, .. } | OAuthError::Denied { server, .. } => format!(
                "check the client settings in the definition (`mcpctl show {server}`), then sign in again"
            ),
            OAuthError::StateMismatch { server } => format!(
                "{}; finish the sign-in in the browser tab mcpctl opened, not an older one",
                login(server)
            ),
            OAuthError::UnsafeUrl { .. } => {
                "the authorization server's metadata names an unsafe authorization endpoint; report it to the server's operator".into()
            }
            OAuthError::Timeout { server, .. } => format!(
                "{} again (with --timeout SECONDS for more time); with --no-browser, open the printed URL yourself",
                login(server)
            ),
            OAuthError::Credentials { .. } => {
                "export the variable named in the definition (client_secret or client_key)".into()
            }
            OAuthError::InsufficientScope { server, scope } => {
                format!("run `mcpctl login {server} --scope '{scope}'`")
            }
            OAuthError::Store { hint, .. } => hint.clone().unwrap_or_else(|| {
                "check the permissions of the state directory (MCPCTL_STATE_DIR)".into()
            }),
            OAuthError::Listener { .. } => "check that 127.0.0.1 is available".into(),
        })
    }
}
