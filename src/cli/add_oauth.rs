//! `add`'s OAuth flags, and what `add` does when a server asks for an OAuth
//! sign-in that the command line did not mention.

use std::time::Duration;

use super::Context;
use crate::auth::OAuthError;
use crate::defs::format::oauth_problem;
use crate::defs::{Grant, OAuth, ServerDef, TokenEndpointAuth, vars};
use crate::error::{Result, UsageError};
use crate::mcp::{ConnectError, DiscoveryReport};
use crate::output;

/// `--auth`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AuthKind {
    /// OAuth 2.1 (sign in with `mcpctl login NAME`).
    Oauth,
}

/// `--grant`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GrantFlag {
    /// A person signs in in a browser (the default).
    AuthorizationCode,
    /// A machine client trades its secret or key for a token (CI).
    ClientCredentials,
}

/// `--token-endpoint-auth`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodFlag {
    /// client_secret_basic.
    Basic,
    /// client_secret_post.
    Post,
    /// A public client.
    None,
    /// private_key_jwt, with --client-key.
    PrivateKeyJwt,
}

/// The OAuth flags of `add` (for a URL).
#[derive(Debug, clap::Args, Default)]
pub struct OAuthFlags {
    /// Sign in with OAuth: saves the entry without a connection check;
    /// then run `mcpctl login NAME`.
    #[arg(long, value_enum, value_name = "KIND")]
    pub auth: Option<AuthKind>,
    /// OAuth grant (default: authorization-code).
    #[arg(long, value_enum, value_name = "GRANT", requires = "auth")]
    pub grant: Option<GrantFlag>,
    /// A client id registered with the authorization server beforehand.
    #[arg(long, value_name = "ID", requires = "auth")]
    pub client_id: Option<String>,
    /// That client's secret, as a '${VAR}' reference (never a literal).
    #[arg(long, value_name = "'${VAR}'", requires = "client_id")]
    pub client_secret: Option<String>,
    /// Token endpoint authentication (default: what the server advertises).
    #[arg(long, value_enum, value_name = "METHOD", requires = "auth")]
    pub token_endpoint_auth: Option<MethodFlag>,
    /// A PEM private key for private-key-jwt, as a '${VAR}' reference
    /// (ES256 or RS256, from the key).
    #[arg(long, value_name = "'${VAR}'", requires = "client_id")]
    pub client_key: Option<String>,
    /// OAuth scopes to ask for, space-separated (default: what the server
    /// names). (-s/--scope is Claude Code's file scope.)
    #[arg(long, value_name = "SCOPES", requires = "auth")]
    pub oauth_scope: Option<String>,
    /// This client's metadata document URL (https), its client id where
    /// the server supports client ID metadata documents.
    #[arg(long, value_name = "URL", requires = "auth")]
    pub client_metadata_url: Option<String>,
}

impl OAuthFlags {
    /// The definition's OAuth settings from the flags, checked.
    pub fn build(&self, def: &ServerDef) -> Result<Option<OAuth>> {
        let Some(AuthKind::Oauth) = self.auth else {
            return Ok(None);
        };
        if !def.transport.is_remote() {
            return Err(UsageError::new(
                "--auth oauth applies to a remote server (--url)",
                "drop --auth, or add the server's URL with --url",
            )
            .into());
        }
        for (flag, value) in [
            ("--client-secret", &self.client_secret),
            ("--client-key", &self.client_key),
        ] {
            if let Some(value) = value
                && !vars::is_single_reference(value)
            {
                return Err(UsageError::new(
                    format!("{flag} must be a ${{VAR}} reference, not a literal value"),
                    format!(
                        "export the secret, e.g. `export CLIENT_SECRET=…`, and pass {flag} '${{CLIENT_SECRET}}' (in single quotes)"
                    ),
                )
                .into());
            }
        }
        let oauth = OAuth {
            grant: match self.grant {
                Some(GrantFlag::ClientCredentials) => Grant::ClientCredentials,
                _ => Grant::AuthorizationCode,
            },
            client_id: self.client_id.clone(),
            client_secret: self.client_secret.clone(),
            token_endpoint_auth: self.token_endpoint_auth.map(|m| match m {
                MethodFlag::Basic => TokenEndpointAuth::ClientSecretBasic,
                MethodFlag::Post => TokenEndpointAuth::ClientSecretPost,
                MethodFlag::None => TokenEndpointAuth::None,
                MethodFlag::PrivateKeyJwt => TokenEndpointAuth::PrivateKeyJwt,
            }),
            client_key: self.client_key.clone(),
            scope: self.oauth_scope.clone(),
            client_metadata_url: self.client_metadata_url.clone(),
        };
        if let Some(problem) = oauth_problem(&oauth) {
            let flags = problem
                .replace("`grant: client_credentials`", "--grant client-credentials")
                .replace("`token_endpoint_auth: ", "`--token-endpoint-auth ")
                .replace("`client_", "`--client-")
                .replace('_', "-");
            return Err(UsageError::new(flags, "see `mcpctl add --help`, OAuth flags").into());
        }
        Ok(Some(oauth))
    }
}

/// The `WWW-Authenticate` challenge of a check that met `401` with a
/// Bearer challenge, if that is how it failed.
pub fn bearer_challenge(err: &ConnectError) -> Option<String> {
    match err {
        ConnectError::AuthRequired {
            status: 401,
            challenge: Some(challenge),
            ..
        } if challenge
            .trim_start()
            .get(..6)
            .is_some_and(|s| s.eq_ignore_ascii_case("bearer")) =>
        {
            Some(challenge.clone())
        }
        _ => None,
    }
}

/// A check before save met an OAuth challenge: on a terminal, offer to
/// sign in now (then check again); otherwise save nothing and say how.
pub fn offer_sign_in(
    ctx: &Context,
    def: &mut ServerDef,
    challenge: String,
) -> Result<std::result::Result<DiscoveryReport, ConnectError>> {
    let refuse = || OAuthError::NeedsSignIn {
        server: def.name.clone(),
    };
    if !ctx.interactive || ctx.json {
        return Err(refuse().into());
    }
    let asked = dialoguer::Confirm::new()
        .with_prompt(format!(
            "`{}` asks for an OAuth sign-in. Sign in now?",
            output::sanitize(&def.name)
        ))
        .default(true)
        .interact()
        .unwrap_or(false);
    if !asked {
        return Err(refuse().into());
    }
    def.auth = Some(OAuth::default());
    let target = crate::auth::flow::Target::from_def(def)?;
    super::login::sign_in(
        &target,
        Some(challenge),
        None,
        true,
        Duration::from_secs(300),
    )?;
    super::check::check_one(def, None)
}
