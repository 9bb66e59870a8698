//! What mcpctl accepts from an authorization server, and how much of it.
//!
//! Everything an authorization server (or a server pretending to be one)
//! sends is bounded before it is kept, printed or sent on: response bodies
//! ([`MAX_BODY`], in [`super::http`]), each field that is stored or put in a
//! URL ([`field`]), the token type (only `Bearer` is ever sent), the
//! lifetime of a token ([`MAX_EXPIRES_AT`]), and the text of an error
//! answer ([`summarise`]: one line, no HTML page, never more than
//! [`MAX_ERROR_TEXT`] characters).

use oauth2::TokenResponse;
use rmcp::transport::auth::OAuthTokenResponse;

/// The most an OAuth response body (metadata, registration, token) may hold.
pub const MAX_BODY: usize = 256 * 1024;

/// The longest client id or client secret kept from a registration (a
/// client ID metadata document URL fits many times over).
pub const MAX_CLIENT_FIELD: usize = 2048;

/// The longest access or refresh token kept (signed JWTs with many claims
/// stay well under it).
pub const MAX_TOKEN: usize = 16 * 1024;

/// The longest `scope` kept.
pub const MAX_SCOPE: usize = 4096;

/// The most characters of a remote error text shown.
pub const MAX_ERROR_TEXT: usize = 300;

/// The latest expiry believed: 9999-12-31T23:59:59Z. A larger `expires_in`
/// (up to 2^64-1 seconds) is clamped here rather than wrapping into 1969.
pub const MAX_EXPIRES_AT: u64 = 253_402_300_799;

/// Why `value` (the field `name` of an answer from `from`) is refused: over
/// `max` bytes, or empty. `None` when it is acceptable.
pub fn field(from: &str, name: &str, value: &str, max: usize) -> Option<String> {
    if value.is_empty() {
        return Some(format!("{from} sent an empty `{name}`"));
    }
    (value.len() > max).then(|| {
        format!(
            "{from} sent a `{name}` of {} bytes (at most {max} are accepted)",
            value.len()
        )
    })
}

/// Why `token` cannot be kept and used, or `None` when it can: only Bearer
/// tokens are sent (a `DPoP`, `mac` or other token used as Bearer would
/// fail, or leak a token bound to a key mcpctl does not hold), and each
/// field is bounded.
pub fn token_refusal(token: &OAuthTokenResponse) -> Option<String> {
    let kind = token.token_type().as_ref();
    if !kind.eq_ignore_ascii_case("bearer") {
        return Some(format!(
            "the token endpoint issued a token of type `{}`; mcpctl sends only Bearer tokens",
            crate::output::sanitize(&crate::text::truncate(kind, 40))
        ));
    }
    let from = "the token endpoint";
    field(
        from,
        "access_token",
        token.access_token().secret(),
        MAX_TOKEN,
    )
    .or_else(|| {
        token
            .refresh_token()
            .and_then(|r| field(from, "refresh_token", r.secret(), MAX_TOKEN))
    })
    .or_else(|| {
        let scope: usize = token
            .scopes()
            .map(|s| s.iter().map(|s| s.len() + 1).sum())
            .unwrap_or(0);
        (scope > MAX_SCOPE).then(|| {
            format!("{from} sent a `scope` of {scope} bytes (at most {MAX_SCOPE} are accepted)")
        })
    })
}

/// `received_at + expires_in`, clamped to [`MAX_EXPIRES_AT`].
pub fn expires_at(received_at: u64, expires_in: u64) -> u64 {
    received_at.saturating_add(expires_in).min(MAX_EXPIRES_AT)
}

/// A remote error text fit for one line of output: an HTML page becomes
/// "(an HTML page)", whitespace runs become one space, the rest is cut to
/// [`MAX_ERROR_TEXT`] characters and escaped.
pub fn summarise(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let html = ["<!doctype", "<html", "<head", "<body"]
        .iter()
        .filter_map(|tag| lower.find(tag))
        .min();
    let (kept, page) = match html {
        Some(at) => (&text[..at], true),
        None => (text, false),
    };
    let mut one_line = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if page {
        if !one_line.is_empty() {
            one_line.push(' ');
        }
        one_line.push_str("(an HTML page)");
    }
    let cut = crate::text::truncate(&one_line, MAX_ERROR_TEXT);
    crate::output::sanitize(&cut).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_html_page_is_named_not_printed() {
        let text = "HTTP 404 Not Found: <!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>Error</title></head><body><pre>Cannot POST /register</pre></body></html>\n";
        assert_eq!(summarise(text), "HTTP 404 Not Found: (an HTML page)");
    }

    #[test]
    fn long_text_is_cut_to_one_line() {
        let text = format!("bad\n\n{}", "x".repeat(5000));
        let out = summarise(&text);
        assert!(!out.contains('\n'));
        assert!(out.chars().count() <= MAX_ERROR_TEXT, "{}", out.len());
    }

    #[test]
    fn expiry_saturates_at_the_year_9999() {
        assert_eq!(expires_at(1_700_000_000, u64::MAX), MAX_EXPIRES_AT);
        assert_eq!(expires_at(10, 5), 15);
    }

    #[test]
    fn fields_are_bounded() {
        assert!(field("r", "client_id", &"a".repeat(900_000), MAX_CLIENT_FIELD).is_some());
        assert!(field("r", "client_id", "", MAX_CLIENT_FIELD).is_some());
        assert!(field("r", "client_id", "abc", MAX_CLIENT_FIELD).is_none());
    }
}
