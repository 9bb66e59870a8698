//! The one builder every reqwest client of mcpctl starts from.
//!
//! MCP (Streamable HTTP), legacy SSE and the registry all speak HTTP, and a
//! redirect is where credentials leak: reqwest strips `Authorization` and
//! cookies on a cross-host redirect, but not custom headers such as
//! `X-Api-Key` from a definition, and it sends a `Referer` naming the first
//! URL. So every client is built here, with a redirect policy that:
//!
//! - never sends `Referer`;
//! - refuses an `https` → `http` downgrade;
//! - follows at most [`MAX_REDIRECTS`] redirects;
//! - for MCP traffic ([`Redirects::SameOrigin`]), refuses a redirect to
//!   another origin (scheme, host and port): the definition's headers go to
//!   the origin the operator wrote, or nowhere.
//!
//! The registry ([`Redirects::AnyOrigin`]) sends no headers from a
//! definition, so it may follow a redirect to another origin (a mirror or a
//! CDN), still without a downgrade or a `Referer`.

use reqwest::redirect::{Action, Attempt, Policy};

/// How many redirects one request may follow before it fails.
pub const MAX_REDIRECTS: usize = 5;

/// Which redirects a client follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirects {
    /// Only to the origin of the request (clients carrying definition headers).
    SameOrigin,
    /// To any origin (clients that carry no credentials), never downgrading.
    AnyOrigin,
}

/// Why a redirect was not followed; found in a reqwest error's `source()`
/// chain so each caller can name it in its own error type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedirectRefused {
    /// The server redirected to another origin.
    #[error("the server redirected to {origin}; update the URL")]
    CrossOrigin {
        /// `scheme://host[:port]` of the target, never its path or query.
        origin: String,
    },
    /// The server redirected from https to plain http.
    #[error("the server redirected from https to plain http ({origin}); refusing the downgrade")]
    Downgrade {
        /// `scheme://host[:port]` of the target.
        origin: String,
    },
    /// The server redirected more than [`MAX_REDIRECTS`] times.
    #[error("the server redirected more than {max} times")]
    TooMany {
        /// The cap.
        max: usize,
    },
}

impl RedirectRefused {
    /// This refusal with any secret in the origin redacted.
    pub fn redacted(self, r: &crate::defs::redact::Redactor) -> RedirectRefused {
        match self {
            RedirectRefused::CrossOrigin { origin } => RedirectRefused::CrossOrigin {
                origin: r.apply(&origin),
            },
            RedirectRefused::Downgrade { origin } => RedirectRefused::Downgrade {
                origin: r.apply(&origin),
            },
            too_many @ RedirectRefused::TooMany { .. } => too_many,
        }
    }

    /// The refusal inside `err`'s `source()` chain, if any.
    pub fn find<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a RedirectRefused> {
        let mut current = Some(err);
        while let Some(e) = current {
            if let Some(found) = e.downcast_ref::<RedirectRefused>() {
                return Some(found);
            }
            current = e.source();
        }
        None
    }
}

/// `scheme://host[:port]` of `url`: what a redirect error may show (a path
/// or query could carry a secret).
fn origin_of(url: &url::Url) -> String {
    url.origin().ascii_serialization()
}

/// The decision for one redirect, as a pure function of the URLs so it can
/// be tested without a server. `previous[0]` is the original request.
pub fn decide(
    redirects: Redirects,
    next: &url::Url,
    previous: &[url::Url],
) -> Result<(), RedirectRefused> {
    if previous.len() > MAX_REDIRECTS {
        return Err(RedirectRefused::TooMany { max: MAX_REDIRECTS });
    }
    let origin = origin_of(next);
    if previous.iter().any(|u| u.scheme() == "https") && next.scheme() != "https" {
        return Err(RedirectRefused::Downgrade { origin });
    }
    if redirects == Redirects::SameOrigin
        && let Some(first) = previous.first()
        && first.origin() != next.origin()
    {
        return Err(RedirectRefused::CrossOrigin { origin });
    }
    Ok(())
}

/// Why a response body was not read whole.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// The body (or its announced length) passed the caller's bound.
    #[error("the body is larger than {max} bytes")]
    TooLarge {
        /// The bound.
        max: usize,
    },
    /// The connection failed while reading.
    #[error(transparent)]
    Transport(#[from] reqwest::Error),
}

/// Read `response`'s body, but never more than `max` bytes of it: a server
/// that streams without end (or announces gigabytes) is cut off at the
/// bound instead of being buffered first and measured afterwards.
pub async fn read_capped(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Vec<u8>, BodyError> {
    if response
        .content_length()
        .is_some_and(|len| len > max as u64)
    {
        return Err(BodyError::TooLarge { max });
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > max {
            return Err(BodyError::TooLarge { max });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn policy(redirects: Redirects) -> Policy {
    Policy::custom(move |attempt: Attempt| -> Action {
        match decide(redirects, attempt.url(), attempt.previous()) {
            Ok(()) => attempt.follow(),
            Err(refused) => attempt.error(refused),
        }
    })
}

/// A reqwest client builder with mcpctl's redirect rules, no `Referer`, its
/// user agent and a TLS provider installed; callers add headers, timeouts,
/// proxies and a resolver.
pub fn builder(redirects: Redirects) -> reqwest::ClientBuilder {
    crate::tls::install_crypto_provider();
    reqwest::Client::builder()
        .redirect(policy(redirects))
        .referer(false)
        .user_agent(concat!("mcpctl/", env!("CARGO_PKG_VERSION")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> url::Url {
        url::Url::parse(s).unwrap()
    }

    #[test]
    fn same_origin_follows_only_the_same_origin() {
        let first = [u("http://127.0.0.1:1000/mcp?token=abc")];
        assert_eq!(
            decide(
                Redirects::SameOrigin,
                &u("http://127.0.0.1:1000/v2"),
                &first
            ),
            Ok(())
        );
        let refused = decide(
            Redirects::SameOrigin,
            &u("http://localhost:1000/mcp?key=zzz"),
            &first,
        )
        .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the server redirected to http://localhost:1000; update the URL"
        );
        assert!(decide(Redirects::SameOrigin, &u("http://127.0.0.1:1001/"), &first).is_err());
        assert_eq!(
            decide(Redirects::AnyOrigin, &u("http://localhost:1001/"), &first),
            Ok(())
        );
    }

    #[test]
    fn downgrade_and_loops_are_refused_for_every_client() {
        let first = [u("https://example.test/a")];
        for kind in [Redirects::SameOrigin, Redirects::AnyOrigin] {
            assert_eq!(
                decide(kind, &u("http://example.test/a"), &first),
                Err(RedirectRefused::Downgrade {
                    origin: "http://example.test".into()
                })
            );
            let chain: Vec<_> = (0..=MAX_REDIRECTS)
                .map(|i| u(&format!("https://example.test/{i}")))
                .collect();
            assert_eq!(
                decide(kind, &u("https://example.test/x"), &chain),
                Err(RedirectRefused::TooMany { max: MAX_REDIRECTS })
            );
        }
    }
}
