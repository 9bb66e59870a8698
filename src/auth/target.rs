//! The server a sign-in is for, and the deadline it runs under: the
//! definition's OAuth settings with its URL and secrets expanded, and the
//! words for an rmcp error (one bounded line, secrets masked).

use std::time::{Duration, Instant};

use rmcp::transport::auth::AuthError;

use super::OAuthError;
use crate::defs::redact::register_secret;
use crate::defs::{Launch, OAuth, ServerDef, vars};

/// A remote server that signs in with OAuth, its URL expanded.
#[derive(Clone, Debug)]
pub struct Target {
    /// The definition's name.
    pub server: String,
    /// The MCP endpoint (the resource).
    pub url: String,
    /// The definition's OAuth settings, as written.
    pub oauth: OAuth,
}

impl Target {
    /// The target of `def`, or why it has none.
    pub fn from_def(def: &ServerDef) -> Result<Target, crate::error::Error> {
        let Launch::Remote { url, .. } = &def.launch else {
            return Err(OAuthError::Local {
                server: def.name.clone(),
            }
            .into());
        };
        let Some(oauth) = def.auth.clone() else {
            return Err(OAuthError::NotOAuth {
                server: def.name.clone(),
            }
            .into());
        };
        // A `VarError` is its own diagnostic (the same words, hint and exit
        // code a connection would give it), so auth needs nothing from `mcp`.
        let url = vars::expand(&def.name, url)?;
        Ok(Target {
            server: def.name.clone(),
            url,
            oauth,
        })
    }

    fn secret(&self, value: Option<&String>) -> Result<Option<String>, OAuthError> {
        let Some(value) = value else { return Ok(None) };
        let expanded = vars::expand(&self.server, value).map_err(|e| OAuthError::Credentials {
            server: self.server.clone(),
            detail: e.to_string(),
        })?;
        register_secret(&expanded);
        Ok(Some(expanded))
    }

    /// The expanded client secret, if the definition names one.
    pub fn client_secret(&self) -> Result<Option<String>, OAuthError> {
        self.secret(self.oauth.client_secret.as_ref())
    }

    /// The parsed signing key, if the definition names one.
    pub fn client_key(&self) -> Result<Option<super::jwt::SigningKey>, OAuthError> {
        let Some(pem) = self.secret(self.oauth.client_key.as_ref())? else {
            return Ok(None);
        };
        super::jwt::SigningKey::from_pem(&pem)
            .map(Some)
            .map_err(|detail| OAuthError::Credentials {
                server: self.server.clone(),
                detail: format!("`client_key`: {detail}"),
            })
    }

    pub(super) fn err(
        &self,
        make: impl FnOnce(String) -> OAuthError,
    ) -> impl FnOnce(AuthError) -> OAuthError {
        move |e| make(describe(&e))
    }
}

/// An rmcp error in words: one bounded line (an HTML page named, not
/// quoted), any secret masked.
pub(super) fn describe(e: &AuthError) -> String {
    let text = crate::defs::redact::mask_session_secrets(&crate::error::chain(e));
    super::bounds::summarise(&text)
}

/// The deadline of one operation, for naming what ran out of time.
#[derive(Clone, Copy)]
pub struct Deadline {
    at: Instant,
    budget: Duration,
}

impl Deadline {
    /// A deadline `budget` from now.
    pub fn after(budget: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + budget,
            budget,
        }
    }

    /// Run `fut`, failing with a timeout naming `what` at the deadline.
    pub async fn run<T>(
        &self,
        server: &str,
        what: &str,
        fut: impl std::future::Future<Output = T>,
    ) -> Result<T, OAuthError> {
        let left = self.at.saturating_duration_since(Instant::now());
        tokio::time::timeout(left, fut)
            .await
            .map_err(|_| OAuthError::Timeout {
                server: server.to_string(),
                what: what.to_string(),
                seconds: self.budget.as_secs().max(1),
            })
    }
}
