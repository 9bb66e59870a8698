//! Which URLs from a server's OAuth metadata mcpctl will use.
//!
//! Two rules, both checked before anything is sent:
//!
//! - **The resource is this server** (RFC 9728 §3.3, MCP "canonical server
//!   URI"): the protected-resource metadata must name the server's URL
//!   itself, or its origin when the document was found at the origin's
//!   root well-known URL. A parent path (`https://host/` or
//!   `https://host/api` for `https://host/api/mcp`) is refused: the token
//!   asked for would be valid for every server under it.
//! - **Every endpoint is https, or http to a loopback host** (the rule the
//!   authorization URL already had): the code, the PKCE verifier, client
//!   secrets and tokens go to the token, registration and revocation
//!   endpoints, so none of them may be plain http across a network.

use rmcp::transport::auth::AuthorizationMetadata;

/// Why the protected-resource metadata found at `document`, naming
/// `resource`, is not the metadata of the server at `server`; `None` when
/// it is.
pub fn resource_refusal(server: &url::Url, document: &url::Url, resource: &str) -> Option<String> {
    let Ok(named) = url::Url::parse(resource) else {
        return Some("its `resource` is not a URL".into());
    };
    if named.fragment().is_some() {
        return Some("its `resource` has a fragment".into());
    }
    if same_resource(&named, server) {
        return None;
    }
    let origin = origin_of(server);
    let root_document =
        document.path() == "/.well-known/oauth-protected-resource" && origin_of(document) == origin;
    if root_document && same_resource(&named, &origin) {
        return None;
    }
    Some(if same_resource(&origin_of(&named), &origin) {
        "it names another path of the same host (a wider audience than this server)".into()
    } else {
        "it names another server".into()
    })
}

fn origin_of(url: &url::Url) -> url::Url {
    let mut origin = url.clone();
    origin.set_path("/");
    origin.set_query(None);
    origin.set_fragment(None);
    origin
}

/// Scheme, host, port and path equal (a trailing `/` aside; the query is a
/// transport detail, not part of the identity).
fn same_resource(a: &url::Url, b: &url::Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
        && a.path().trim_end_matches('/') == b.path().trim_end_matches('/')
}

/// The first endpoint of `metadata` mcpctl must not send to, as
/// `(field, url, why)`.
pub fn unsafe_endpoint(metadata: &AuthorizationMetadata) -> Option<(&'static str, String, String)> {
    let revocation = metadata
        .additional_fields
        .get("revocation_endpoint")
        .and_then(|v| v.as_str())
        .map(str::to_string);
    [
        (
            "authorization_endpoint",
            Some(metadata.authorization_endpoint.clone()),
        ),
        ("token_endpoint", Some(metadata.token_endpoint.clone())),
        (
            "registration_endpoint",
            metadata.registration_endpoint.clone(),
        ),
        ("revocation_endpoint", revocation),
    ]
    .into_iter()
    .find_map(|(field, url)| {
        let url = url?;
        endpoint_refusal(&url).map(|why| (field, url, why))
    })
}

/// Why `url` must not be sent a secret: not https, and not http to a
/// loopback host. `None` when it may.
pub fn endpoint_refusal(url: &str) -> Option<String> {
    super::browser::refusal(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> url::Url {
        url::Url::parse(s).unwrap()
    }

    #[test]
    fn the_resource_must_be_the_server_or_its_origin_from_the_root_document() {
        let server = url("https://host.example/api/mcp");
        let path_doc = url("https://host.example/.well-known/oauth-protected-resource/api/mcp");
        let root_doc = url("https://host.example/.well-known/oauth-protected-resource");
        assert!(resource_refusal(&server, &path_doc, "https://host.example/api/mcp").is_none());
        assert!(resource_refusal(&server, &path_doc, "https://host.example/api/mcp/").is_none());
        assert!(resource_refusal(&server, &root_doc, "https://host.example").is_none());
        for wider in [
            "https://host.example/",
            "https://host.example/api",
            "https://host.example/api/",
        ] {
            let why = resource_refusal(&server, &path_doc, wider).expect(wider);
            assert!(why.contains("wider"), "{why}");
        }
        assert!(resource_refusal(&server, &root_doc, "https://host.example/api").is_some());
        assert!(resource_refusal(&server, &path_doc, "https://evil.example/api/mcp").is_some());
        assert!(resource_refusal(&server, &path_doc, "http://host.example/api/mcp").is_some());
        assert!(resource_refusal(&server, &path_doc, "not a url").is_some());
    }

    #[test]
    fn every_endpoint_is_https_or_loopback_http() {
        let mut metadata = AuthorizationMetadata::default();
        metadata.authorization_endpoint = "https://as.example/authorize".into();
        metadata.token_endpoint = "https://as.example/token".into();
        metadata.registration_endpoint = Some("http://127.0.0.1:9/register".into());
        assert!(unsafe_endpoint(&metadata).is_none());
        metadata.token_endpoint = "http://as.example/token".into();
        assert_eq!(unsafe_endpoint(&metadata).unwrap().0, "token_endpoint");
        metadata.token_endpoint = "https://as.example/token".into();
        metadata.additional_fields.insert(
            "revocation_endpoint".into(),
            serde_json::json!("http://as.example/revoke"),
        );
        assert_eq!(unsafe_endpoint(&metadata).unwrap().0, "revocation_endpoint");
    }
}
